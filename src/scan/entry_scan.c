/*
 * entry_scan.c - generic entry points in a Slang module's text (entry_scan.h).
 *
 * The text is first copied with comments, string and character literals and
 * preprocessor directive lines blanked by the Slang text lexer (slang_text.h;
 * newlines kept, so lines still count).
 * An entry point is a function after an attribute list that opens with
 * [shader(...)] or [numthreads(...)]; it is generic when its name is followed
 * by <...> before its parameter list, or when __generic<...> precedes it (or
 * its attributes). The rewrite suggested for it keeps the function, its
 * attributes taken off, and specialises it in a new entry point with the same
 * parameters, return type and semantic: each generic parameter replaced by a
 * struct of the module that conforms to its interface (its constraint, or
 * the one a `where` clause puts on it).
 */
#include "scan/entry_scan.h"

#include <stdbool.h>
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

/* The generic parameters of an entry and the argument the specialisation gives each. */
enum { MAX_GENERICS = 32 };
typedef struct generic_args {
    const char *g; /* the generic parameter list, "<S : IScaler, let N : int>" */
    size_t count;
    size_t name_at[MAX_GENERICS], name_len[MAX_GENERICS]; /* each parameter's name in g */
    const char *arg_text[MAX_GENERICS]; /* its argument: arg_text[arg_at, arg_at + arg_len) */
    size_t arg_at[MAX_GENERICS], arg_len[MAX_GENERICS];
} generic_args;

/*
 * The constraint a `where` clause (`w`, the text after `where`: "S : IScaler, T : IOp" or
 * "S : IScaler where T : IOp") puts on the parameter `name` (n bytes): *from, *to its
 * interface in w; false when the clause names none for it.
 */
static bool where_constraint(const char *w, const char *name, size_t n, size_t *from, size_t *to)
{
    size_t len = strlen(w), item = 0;
    int depth = 0;
    for (size_t i = 0; i <= len; i++) {
        bool end = i == len;
        if (!end && (w[i] == '<' || w[i] == '('))
            depth++;
        else if (!end && (w[i] == '>' || w[i] == ')'))
            depth--;
        else if (!end && !depth && i + 5 <= len && !memcmp(w + i, "where", 5) &&
                 (i == 0 || !text_ident_char(w[i - 1])) && !text_ident_char(w[i + 5]))
            end = true;
        if (!end && (depth || w[i] != ','))
            continue;
        size_t a = item, b = i; /* one item: NAME : CONSTRAINT */
        trim(w, &a, &b);
        size_t k = a;
        while (k < b && text_ident_char(w[k]))
            k++;
        size_t c = k;
        while (c < b && space(w[c]))
            c++;
        if (is_word(w, a, k, name, n) && c < b && w[c] == ':') {
            *from = c + 1;
            *to = b;
            trim(w, from, to);
            return *from < *to;
        }
        item = i < len && w[i] == 'w' ? i + 5 : i + 1;
        i = item - 1;
    }
    return false;
}

/*
 * Reads e->generics into *a, each parameter with its argument: a struct of the module
 * (blanked text `s`) that conforms to its interface (its own constraint, else the one the
 * `where` clause `w` puts on it; NULL: none), else MyType; 1 for a value parameter.
 */
static void generic_args_read(const char *s, size_t len, const char *g, const char *w,
                              generic_args *a)
{
    size_t glen = strlen(g);
    a->g = g;
    a->count = 0;
    size_t from = 1, depth = 0;
    for (size_t i = 1; i < glen && a->count < MAX_GENERICS; i++) {
        if (g[i] == '<' || g[i] == '(')
            depth++;
        else if ((g[i] == '>' || g[i] == ')') && depth)
            depth--;
        else if (depth || (g[i] != ',' && i != glen - 1))
            continue;
        size_t pa = from, pb = i; /* one parameter: [let|typename] NAME [: CONSTRAINT] [= ...] */
        from = i + 1;
        trim(g, &pa, &pb);
        int value = 0;
        if (pb - pa > 4 && !memcmp(g + pa, "let", 3) && space(g[pa + 3]))
            value = 1, pa += 4;
        else if (pb - pa > 9 && !memcmp(g + pa, "typename", 8) && space(g[pa + 8]))
            pa += 9;
        trim(g, &pa, &pb);
        size_t n = pa;
        while (n < pb && text_ident_char(g[n]))
            n++;
        if (n == pa)
            continue;
        size_t k = a->count++;
        a->name_at[k] = pa;
        a->name_len[k] = n - pa;
        a->arg_text[k] = value ? "1" : "MyType";
        a->arg_at[k] = 0;
        a->arg_len[k] = strlen(a->arg_text[k]);
        if (value)
            continue;
        const char *ctext = g;
        size_t ca = 0, cb = 0, c = n;
        while (c < pb && space(g[c]))
            c++;
        if (c < pb && g[c] == ':') {
            ca = c + 1, cb = pb;
            for (size_t q = ca; q < cb; q++)
                if (g[q] == '=')
                    cb = q;
            trim(g, &ca, &cb);
        } else if (w && where_constraint(w, g + pa, n - pa, &ca, &cb)) {
            ctext = w;
        }
        size_t at = 0, m = cb > ca ? conforming_struct(s, len, ctext + ca, cb - ca, &at) : 0;
        if (m) {
            a->arg_text[k] = s;
            a->arg_at[k] = at;
            a->arg_len[k] = m;
        }
    }
}

/* `p` with each generic parameter's name (a whole identifier) replaced by its argument. */
static void substitute(const generic_args *a, const char *p, dgpb_bytebuf *out)
{
    for (size_t i = 0, plen = strlen(p); i < plen;) {
        if (!text_ident_start(p[i]) || (i && text_ident_char(p[i - 1]))) {
            bytebuf_append(out, p + i, 1);
            i++;
            continue;
        }
        size_t end = i;
        while (end < plen && text_ident_char(p[end]))
            end++;
        size_t k = 0;
        while (k < a->count && !is_word(p, i, end, a->g + a->name_at[k], a->name_len[k]))
            k++;
        if (k < a->count)
            bytebuf_append(out, a->arg_text[k] + a->arg_at[k], a->arg_len[k]);
        else
            bytebuf_append(out, p + i, end - i);
        i = end;
    }
    bytebuf_append(out, "", 1);
}

/* A new string: buffer b taken (NULL when it failed). */
static char *taken(dgpb_bytebuf *b)
{
    size_t size;
    if (b->failed) {
        bytebuf_free(b);
        return NULL;
    }
    return (char *)bytebuf_take(b, &size);
}

/*
 * Fills e->type_args ("Twice, 1": one argument per generic parameter of
 * e->generics, a struct of the module that conforms to a parameter's
 * interface, inline or in the `where` clause `w` (NULL: none), else MyType;
 * 1 for a value parameter), e->suffix (the first argument, for the
 * specialising entry's name), e->concrete_params and e->concrete_return (the
 * parameters and the return type `ret` with each generic parameter's name
 * replaced by its argument, so that "uniform S scaler" reads "uniform Twice
 * scaler"). 0, or -1 no memory.
 */
static int specialise(const char *s, size_t len, const char *ret, const char *w, generic_entry *e)
{
    generic_args a;
    generic_args_read(s, len, e->generics, w, &a);
    dgpb_bytebuf args = DGPB_BYTEBUF_INIT, params = DGPB_BYTEBUF_INIT, result = DGPB_BYTEBUF_INIT;
    for (size_t k = 0; k < a.count; k++) {
        if (k)
            bytebuf_append(&args, ", ", 2);
        bytebuf_append(&args, a.arg_text[k] + a.arg_at[k], a.arg_len[k]);
    }
    bytebuf_append(&args, "", 1);
    substitute(&a, e->params, &params);
    substitute(&a, ret, &result);
    e->type_args = taken(&args);
    e->concrete_params = taken(&params);
    e->concrete_return = taken(&result);
    if (!e->type_args || !e->concrete_params || !e->concrete_return)
        return -1;
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
 * text `s`; `orig` is the text itself), with `__generic<...>` at `lead` when
 * that comes before the attributes (else lead is attr_from): fills *e when it
 * is a generic function. 1 found, 0 not generic (or not a function), -1 no
 * memory.
 */
static int declaration(const char *orig, const char *s, size_t len, size_t lead, size_t attr_from,
                       size_t at, generic_entry *e)
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
    for (size_t i = lead < at ? lead : at; i + 9 <= paren; i++)
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
    /* After the parameters: the return value's semantic (": SV_Target"), a where clause, the
       body. */
    size_t body = close;
    while (body < len && s[body] != '{' && s[body] != ';')
        body++;
    size_t where = close;
    while (where + 5 <= body && !(!memcmp(s + where, "where", 5) &&
                                  !text_ident_char(s[where - 1]) && !text_ident_char(s[where + 5])))
        where++;
    if (where + 5 > body)
        where = body;
    /* The return type: before the name, after __generic<...> when that comes first. */
    size_t ret_from = generic_to <= start && generic_to > at ? generic_to : at;
    e->name = mem_alloc(end - start + 1);
    if (e->name) {
        memcpy(e->name, s + start, end - start);
        e->name[end - start] = 0;
    }
    e->generics = squeeze(s, generic_from, generic_to);
    e->attributes = squeeze(orig, attr_from, at); /* with its strings: [shader("compute")] */
    e->params = squeeze(s, paren + 1, close - 1);
    e->args = arg_names(s, paren + 1, close - 1);
    e->declaration = squeeze(s, at, body);
    if (lead < attr_from && e->declaration) { /* __generic<...> before the attributes, kept */
        char *generic = squeeze(s, lead, attr_from);
        char *both = generic ? mem_printf("%s %s", generic, e->declaration) : NULL;
        dgpb_free(generic);
        dgpb_free(e->declaration);
        e->declaration = both;
    }
    e->semantic = squeeze(s, close, where);
    char *ret = squeeze(s, ret_from, start);
    char *clause = where < body ? squeeze(s, where + 5, body) : NULL;
    e->line = line_of(s, start);
    int rc = -1;
    if (e->name && e->generics && e->attributes && e->params && e->args && e->declaration &&
        e->semantic && ret && (clause || where == body))
        rc = specialise(s, len, ret[0] ? ret : "void", clause, e) ? -1 : 1;
    dgpb_free(ret);
    dgpb_free(clause);
    return rc;
}

static void entry_free(generic_entry *e)
{
    dgpb_free(e->name);
    dgpb_free(e->generics);
    dgpb_free(e->attributes);
    dgpb_free(e->params);
    dgpb_free(e->args);
    dgpb_free(e->declaration);
    dgpb_free(e->semantic);
    dgpb_free(e->concrete_return);
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
        /* __generic<...> before the attribute lists, as before a function */
        size_t lead = from, k = from;
        while (k > 0 && space(s[k - 1]))
            k--;
        if (k > 0 && s[k - 1] == '>') {
            int depth = 0;
            size_t j = k;
            while (j > 0) {
                j--;
                if (s[j] == '>')
                    depth++;
                else if (s[j] == '<' && --depth == 0)
                    break;
            }
            while (!depth && j > 0 && space(s[j - 1]))
                j--;
            if (!depth && j >= 9 && !memcmp(s + j - 9, "__generic", 9) &&
                (j == 9 || !text_ident_char(s[j - 10])))
                lead = j - 9;
        }
        generic_entry e = {0};
        int found = declaration(text, s, len, lead, from, at, &e);
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

/* The index of the brace that closes the '{' at `at`; `len` when none. */
static size_t body_end(const char *s, size_t len, size_t at)
{
    int depth = 0;
    for (size_t i = at; i < len; i++) {
        if (s[i] == '{')
            depth++;
        else if (s[i] == '}' && --depth == 0)
            return i;
    }
    return len;
}

int entry_scan_span(const char *text, size_t len, const char *name, uint32_t *first,
                    uint32_t *last)
{
    char *s = slang_text_code_only(text, len);
    if (!s)
        return DGPB_ERR_NOMEM;
    size_t n = strlen(name);
    int depth = 0, rc = DGPB_ERR_NOT_FOUND;
    for (size_t i = 0; i < len && rc; i++) {
        if (s[i] == '{' || s[i] == '}') {
            depth += s[i] == '{' ? 1 : -1;
            continue;
        }
        if (depth != 0 || !text_ident_char(s[i]) || (i > 0 && text_ident_char(s[i - 1])))
            continue;
        size_t end = i;
        while (end < len && text_ident_char(s[end]))
            end++;
        bool named = end - i == n && !memcmp(s + i, name, n);
        size_t at = end;
        while (at < len && space(s[at]))
            at++;
        if (!named || at >= len || s[at] != '(') {
            i = end - 1;
            continue;
        }
        size_t params_end = close_of(s, len, at);
        if (!params_end) /* an unclosed parameter list: the text ends there */
            break;
        size_t body = params_end;
        while (body < len && s[body] != '{' && s[body] != ';' && s[body] != '}')
            body++;
        if (body >= len || s[body] != '{') { /* a declaration, or a call at file scope */
            i = params_end - 1;
            continue;
        }
        *first = line_of(s, i);
        *last = line_of(s, body_end(s, len, body));
        rc = DGPB_OK;
    }
    dgpb_free(s);
    return rc;
}
