/*
 * entry_scan.c - generic entry points in a Slang module's text (entry_scan.h).
 *
 * The text is first copied with comments, string and character literals and
 * preprocessor directive lines blanked by the Slang text lexer (slang_text.h;
 * newlines kept, so lines still count).
 * An entry point is a function after an attribute list that opens with
 * [shader(...)] or [numthreads(...)]; it is generic when its name is followed
 * by <...> before its parameter list, or when __generic<...> precedes it.
 */
#include "scan/entry_scan.h"

#include <string.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/result.h"
#include "scan/slang_text.h"
#include "code/text_scan.h"

static int space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* The index after the bracket that closes the one at `at` ('[', '(' or '<'); 0 when none. */
static size_t close_of(const char *s, size_t len, size_t at)
{
    char open = s[at], close = open == '[' ? ']' : open == '(' ? ')' : '>';
    int depth = 0;
    for (size_t i = at; i < len; i++) {
        if (s[i] == open)
            depth++;
        else if (s[i] == close && --depth == 0)
            return i + 1;
        else if (open == '<' && (s[i] == ';' || s[i] == '{'))
            return 0;
    }
    return 0;
}

/* Whether the '[' at `at` opens [shader(...)] or [numthreads(...)]. */
static int entry_attribute(const char *s, size_t len, size_t at)
{
    size_t i = at + 1;
    while (i < len && space(s[i]))
        i++;
    size_t start = i;
    while (i < len && text_ident_char(s[i]))
        i++;
    size_t n = i - start;
    if (!((n == 6 && !memcmp(s + start, "shader", 6)) ||
          (n == 10 && !memcmp(s + start, "numthreads", 10))))
        return 0;
    while (i < len && space(s[i]))
        i++;
    return i < len && s[i] == '(';
}

/* A new string: s[from, to) with each run of white space written as one space, trimmed. */
static char *squeeze(const char *s, size_t from, size_t to)
{
    dgpb_bytebuf b = DGPB_BYTEBUF_INIT;
    int pending = 0;
    for (size_t i = from; i < to; i++) {
        if (space(s[i])) {
            pending = b.len > 0;
            continue;
        }
        if (pending)
            bytebuf_append(&b, " ", 1);
        pending = 0;
        bytebuf_append(&b, s + i, 1);
    }
    bytebuf_append(&b, "", 1);
    if (b.failed) {
        bytebuf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

/* The name of one parameter, s[from, to): the last identifier before ':', '=' or '['. */
static void param_name(const char *s, size_t from, size_t to, dgpb_bytebuf *out)
{
    size_t end = to;
    int depth = 0;
    for (size_t i = from; i < to; i++) {
        if (s[i] == '(' || s[i] == '<')
            depth++;
        else if (s[i] == ')' || s[i] == '>')
            depth--;
        else if (!depth && (s[i] == ':' || s[i] == '=' || s[i] == '[')) {
            end = i;
            break;
        }
    }
    while (end > from && !text_ident_char(s[end - 1]))
        end--;
    size_t start = end;
    while (start > from && text_ident_char(s[start - 1]))
        start--;
    if (start == end)
        return;
    if (out->len)
        bytebuf_append(out, ", ", 2);
    bytebuf_append(out, s + start, end - start);
}

/* The parameters' names of the list s[from, to), comma-separated. */
static char *arg_names(const char *s, size_t from, size_t to)
{
    dgpb_bytebuf b = DGPB_BYTEBUF_INIT;
    int depth = 0;
    size_t start = from;
    for (size_t i = from; i <= to; i++) {
        if (i < to && (s[i] == '(' || s[i] == '<' || s[i] == '['))
            depth++;
        else if (i < to && (s[i] == ')' || s[i] == '>' || s[i] == ']'))
            depth--;
        else if (i == to || (!depth && s[i] == ',')) {
            param_name(s, start, i, &b);
            start = i + 1;
        }
    }
    bytebuf_append(&b, "", 1);
    if (b.failed) {
        bytebuf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

static uint32_t line_of(const char *s, size_t at)
{
    uint32_t line = 1;
    for (size_t i = 0; i < at; i++)
        line += s[i] == '\n';
    return line;
}

/* ---- the specialisation a refusal suggests ---- */

/* Whether s[from, to) is the identifier `word` (n bytes). */
static int is_word(const char *s, size_t from, size_t to, const char *word, size_t n)
{
    return to - from == n && !memcmp(s + from, word, n);
}

/* s[*from, *to) without the white space at either end. */
static void trim(const char *s, size_t *from, size_t *to)
{
    while (*from < *to && space(s[*from]))
        (*from)++;
    while (*to > *from && space(s[*to - 1]))
        (*to)--;
}

/*
 * The first struct of the module (blanked text `s`) that names `iface`
 * (n bytes) among the types it conforms to, "struct Twice : IOp { ...";
 * *at its index, 0 bytes when none. A generic struct is passed over: it too
 * needs type arguments.
 */
static size_t conforming_struct(const char *s, size_t len, const char *iface, size_t n, size_t *at)
{
    for (size_t i = 0; i + 6 < len; i++) {
        if (memcmp(s + i, "struct", 6) || (i && text_ident_char(s[i - 1])) || !space(s[i + 6]))
            continue;
        size_t k = i + 6;
        while (k < len && space(s[k]))
            k++;
        size_t name = k;
        while (k < len && text_ident_char(s[k]))
            k++;
        size_t name_end = k;
        while (k < len && space(s[k]))
            k++;
        if (name == name_end || k >= len || s[k] != ':')
            continue;
        size_t from = ++k;
        for (; k <= len; k++) {
            if (k < len && s[k] != ',' && s[k] != '{' && s[k] != ';')
                continue;
            size_t a = from, b = k;
            trim(s, &a, &b);
            if (is_word(s, a, b, iface, n)) {
                *at = name;
                return name_end - name;
            }
            if (k >= len || s[k] != ',')
                break;
            from = k + 1;
        }
    }
    return 0;
}

/*
 * Fills e->type_args ("Twice, 1": one argument per generic parameter of
 * e->generics, a struct of the module that conforms to a parameter's
 * interface, else MyType; 1 for a value parameter), e->suffix (the first
 * argument, for the specialising entry's name) and e->concrete_params (the
 * parameters with each generic parameter's name replaced by its argument, so
 * that "uniform S scaler" reads "uniform Twice scaler"). 0, or -1 no memory.
 */
static int specialise(const char *s, size_t len, generic_entry *e)
{
    enum { MAX_GENERICS = 32 };
    const char *g = e->generics;
    size_t glen = strlen(g);
    size_t name_at[MAX_GENERICS], name_len[MAX_GENERICS], arg_at[MAX_GENERICS],
        arg_len[MAX_GENERICS];
    const char *arg_text[MAX_GENERICS];
    size_t count = 0;
    size_t from = 1, depth = 0;
    for (size_t i = 1; i < glen && count < MAX_GENERICS; i++) {
        if (g[i] == '<' || g[i] == '(')
            depth++;
        else if ((g[i] == '>' || g[i] == ')') && depth)
            depth--;
        else if (depth || (g[i] != ',' && i != glen - 1))
            continue;
        size_t a = from, b = i; /* one parameter: [let|typename] NAME [: CONSTRAINT] [= ...] */
        from = i + 1;
        trim(g, &a, &b);
        int value = 0;
        if (b - a > 4 && !memcmp(g + a, "let", 3) && space(g[a + 3]))
            value = 1, a += 4;
        else if (b - a > 9 && !memcmp(g + a, "typename", 8) && space(g[a + 8]))
            a += 9;
        trim(g, &a, &b);
        size_t n = a;
        while (n < b && text_ident_char(g[n]))
            n++;
        if (n == a)
            continue;
        name_at[count] = a;
        name_len[count] = n - a;
        arg_text[count] = value ? "1" : "MyType";
        arg_at[count] = 0;
        arg_len[count] = strlen(arg_text[count]);
        size_t c = n;
        while (c < b && space(g[c]))
            c++;
        if (!value && c < b && g[c] == ':') {
            size_t ca = c + 1, cb = b;
            for (size_t k = ca; k < cb; k++)
                if (g[k] == '=')
                    cb = k;
            trim(g, &ca, &cb);
            size_t at = 0, m = conforming_struct(s, len, g + ca, cb - ca, &at);
            if (m) {
                arg_text[count] = s;
                arg_at[count] = at;
                arg_len[count] = m;
            }
        }
        count++;
    }
    dgpb_bytebuf args = DGPB_BYTEBUF_INIT, params = DGPB_BYTEBUF_INIT;
    for (size_t k = 0; k < count; k++) {
        if (k)
            bytebuf_append(&args, ", ", 2);
        bytebuf_append(&args, arg_text[k] + arg_at[k], arg_len[k]);
    }
    bytebuf_append(&args, "", 1);
    const char *p = e->params;
    for (size_t i = 0, plen = strlen(p); i < plen;) {
        if (!text_ident_start(p[i]) || (i && text_ident_char(p[i - 1]))) {
            bytebuf_append(&params, p + i, 1);
            i++;
            continue;
        }
        size_t end = i;
        while (end < plen && text_ident_char(p[end]))
            end++;
        size_t k = 0;
        while (k < count && !is_word(p, i, end, g + name_at[k], name_len[k]))
            k++;
        if (k < count)
            bytebuf_append(&params, arg_text[k] + arg_at[k], arg_len[k]);
        else
            bytebuf_append(&params, p + i, end - i);
        i = end;
    }
    bytebuf_append(&params, "", 1);
    if (args.failed || params.failed) {
        bytebuf_free(&args);
        bytebuf_free(&params);
        return -1;
    }
    size_t size;
    e->type_args = (char *)bytebuf_take(&args, &size);
    e->concrete_params = (char *)bytebuf_take(&params, &size);
    size_t first = strcspn(e->type_args, ",");
    e->suffix = mem_alloc(first + 1);
    if (!e->suffix)
        return -1;
    memcpy(e->suffix, e->type_args, first);
    e->suffix[first] = 0;
    return 0;
}

/*
 * The declaration after the attribute lists s[attr_from, at) (in the blanked
 * text `s`; `orig` is the text itself): fills *e when it is a generic function. 1 found, 0 not generic (or not a function), -1 no memory.
 */
static int declaration(const char *orig, const char *s, size_t len, size_t attr_from, size_t at,
                       generic_entry *e)
{
    size_t paren = at;
    while (paren < len && s[paren] != '(' && s[paren] != ';' && s[paren] != '{')
        paren++;
    if (paren >= len || s[paren] != '(')
        return 0;
    size_t close = close_of(s, len, paren);
    if (!close)
        return 0;
    /* __generic<...> before the name */
    size_t generic_from = 0, generic_to = 0;
    for (size_t i = at; i + 9 <= paren; i++)
        if (!memcmp(s + i, "__generic", 9) && (i == 0 || !text_ident_char(s[i - 1])) &&
            !text_ident_char(s[i + 9])) {
            size_t lt = i + 9;
            while (lt < paren && space(s[lt]))
                lt++;
            if (lt < paren && s[lt] == '<' && (generic_to = close_of(s, len, lt)))
                generic_from = lt;
        }
    size_t end = paren;
    while (end > at && space(s[end - 1]))
        end--;
    if (end > at && s[end - 1] == '>') { /* name<...>( */
        int depth = 0;
        size_t i = end;
        while (i > at) {
            i--;
            if (s[i] == '>')
                depth++;
            else if (s[i] == '<' && --depth == 0)
                break;
        }
        if (depth)
            return 0;
        generic_from = i;
        generic_to = end;
        end = i;
        while (end > at && space(s[end - 1]))
            end--;
    }
    if (!generic_to)
        return 0;
    size_t start = end;
    while (start > at && text_ident_char(s[start - 1]))
        start--;
    if (start == end || !text_ident_start(s[start]))
        return 0;
    e->name = mem_alloc(end - start + 1);
    if (e->name) {
        memcpy(e->name, s + start, end - start);
        e->name[end - start] = 0;
    }
    e->generics = squeeze(s, generic_from, generic_to);
    e->attributes = squeeze(orig, attr_from, at); /* with its strings: [shader("compute")] */
    e->params = squeeze(s, paren + 1, close - 1);
    e->args = arg_names(s, paren + 1, close - 1);
    e->line = line_of(s, start);
    if (!(e->name && e->generics && e->attributes && e->params && e->args))
        return -1;
    return specialise(s, len, e) ? -1 : 1;
}

static void entry_free(generic_entry *e)
{
    dgpb_free(e->name);
    dgpb_free(e->generics);
    dgpb_free(e->attributes);
    dgpb_free(e->params);
    dgpb_free(e->args);
    dgpb_free(e->type_args);
    dgpb_free(e->concrete_params);
    dgpb_free(e->suffix);
}

void entry_scan_free(generic_entry *entries, size_t count)
{
    for (size_t i = 0; i < count; i++)
        entry_free(&entries[i]);
    dgpb_free(entries);
}

int entry_scan_generics(const char *text, size_t len, generic_entry **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    char *s = slang_text_code_only(text, len);
    if (!s)
        return DGPB_ERR_NOMEM;
    generic_entry *list = NULL;
    size_t n = 0, cap = 0;
    int rc = DGPB_OK;
    for (size_t i = 0; i < len && !rc; i++) {
        if (s[i] != '[' || !entry_attribute(s, len, i))
            continue;
        /* Back to the first of the attribute lists this one belongs to. */
        size_t from = i;
        for (;;) {
            size_t k = from;
            while (k > 0 && space(s[k - 1]))
                k--;
            if (k == 0 || s[k - 1] != ']')
                break;
            int depth = 0;
            size_t j = k;
            while (j > 0) {
                j--;
                if (s[j] == ']')
                    depth++;
                else if (s[j] == '[' && --depth == 0)
                    break;
            }
            if (depth)
                break;
            from = j;
        }
        size_t at = i;
        for (;;) { /* past this and any following attribute lists */
            size_t end = close_of(s, len, at);
            if (!end)
                break;
            at = end;
            while (at < len && space(s[at]))
                at++;
            if (at >= len || s[at] != '[')
                break;
        }
        generic_entry e = {0};
        int found = declaration(text, s, len, from, at, &e);
        if (found == 1) {
            generic_entry *grown = mem_grow(list, n, &cap, sizeof *list, 4);
            if (grown) {
                list = grown;
                list[n++] = e;
            } else {
                entry_free(&e);
                rc = DGPB_ERR_NOMEM;
            }
        } else if (found < 0) {
            entry_free(&e);
            rc = DGPB_ERR_NOMEM;
        }
        i = at > i ? at - 1 : i;
    }
    dgpb_free(s);
    if (rc) {
        entry_scan_free(list, n);
        return rc;
    }
    *out = list;
    *count = n;
    return DGPB_OK;
}
