/*
 * decl_slice.c - the part of a module's text one entry's code can depend on
 * (scan/decl_slice.h).
 */
#include "scan/decl_slice.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "scan/slang_text.h"

enum tok_kind { TOK_IDENT, TOK_NUMBER, TOK_PUNCT, TOK_LITERAL };

typedef struct tok {
    size_t start, len;
    enum tok_kind kind;
    bool gap; /* white space or a comment before it */
} tok;

enum decl_kind {
    DECL_ALWAYS, /* kept whatever the entry */
    DECL_FUNC,   /* a function definition: kept when named */
    DECL_TYPE,   /* a struct, class or interface definition: kept when named */
};

typedef struct decl {
    size_t first, end; /* tokens [first, end) */
    enum decl_kind kind;
    size_t name;                 /* the token of the name it defines (FUNC, TYPE) */
    size_t back_first, back_end; /* tokens whose names keep it when kept elsewhere (its
                                    conformance list; its attributes' arguments) */
    bool kept;
} decl;

/* A set of names, by their bytes (open addressing; the bytes are the text's or the seeds'). */
typedef struct name_set {
    const char **ptr;
    size_t *len;
    size_t cap, count;
} name_set;

typedef struct slicer {
    const char *text;
    tok *toks;
    size_t tok_count, tok_cap;
    decl *decls;
    size_t decl_count, decl_cap;
    dgpb_bytebuf directives; /* every directive line, normalised */
    name_set named;
    bool nomem, declined;
} slicer;

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static uint64_t name_hash(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211u;
    return h;
}

static bool names_has(const name_set *s, const char *p, size_t n)
{
    if (!s->cap)
        return false;
    for (size_t i = name_hash(p, n) & (s->cap - 1);; i = (i + 1) & (s->cap - 1)) {
        if (!s->ptr[i])
            return false;
        if (s->len[i] == n && !memcmp(s->ptr[i], p, n))
            return true;
    }
}

/* Adds a name; true when it is new. */
static bool names_add(slicer *sl, const char *p, size_t n)
{
    name_set *s = &sl->named;
    if (names_has(s, p, n))
        return false;
    if ((s->count + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        const char **ptr = mem_calloc(cap, sizeof *ptr);
        size_t *len = mem_calloc(cap, sizeof *len);
        if (!ptr || !len) {
            dgpb_free(ptr);
            dgpb_free(len);
            sl->nomem = true;
            return false;
        }
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->ptr[i])
                continue;
            size_t k = name_hash(s->ptr[i], s->len[i]) & (cap - 1);
            while (ptr[k])
                k = (k + 1) & (cap - 1);
            ptr[k] = s->ptr[i];
            len[k] = s->len[i];
        }
        dgpb_free(s->ptr);
        dgpb_free(s->len);
        s->ptr = ptr;
        s->len = len;
        s->cap = cap;
    }
    size_t k = name_hash(p, n) & (s->cap - 1);
    while (s->ptr[k])
        k = (k + 1) & (s->cap - 1);
    s->ptr[k] = p;
    s->len[k] = n;
    s->count++;
    return true;
}

/* Adds every identifier of `p` (n bytes) to the named set; false: no memory. */
static void name_identifiers(slicer *sl, const char *p, size_t n)
{
    for (size_t i = 0; i < n && !sl->nomem;) {
        if (is_ident_start(p[i]) && (i == 0 || !is_ident_char(p[i - 1]))) {
            size_t j = i;
            while (j < n && is_ident_char(p[j]))
                j++;
            names_add(sl, p + i, j - i);
            i = j;
        } else {
            i++;
        }
    }
}

static bool word_eq(const char *p, size_t n, const char *word)
{
    return strlen(word) == n && !memcmp(p, word, n);
}

/* Identifiers whose value depends on where the text says them. */
static bool positional(const char *p, size_t n)
{
    return word_eq(p, n, "__LINE__") || word_eq(p, n, "__FILE__") ||
           word_eq(p, n, "__COUNTER__");
}

static void push_tok(slicer *sl, tok t)
{
    if (sl->tok_count == sl->tok_cap) {
        size_t cap = sl->tok_cap ? sl->tok_cap * 2 : 1024;
        tok *grown = mem_realloc(sl->toks, cap * sizeof *grown);
        if (!grown) {
            sl->nomem = true;
            return;
        }
        sl->toks = grown;
        sl->tok_cap = cap;
    }
    sl->toks[sl->tok_count++] = t;
}

/* The tokens of one code piece [start, end). */
static void lex_code(slicer *sl, size_t start, size_t end, bool *gap)
{
    const char *s = sl->text;
    for (size_t i = start; i < end && !sl->nomem;) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
            *gap = true;
            i++;
            continue;
        }
        size_t j = i + 1;
        enum tok_kind kind = TOK_PUNCT;
        if (is_ident_start(c)) {
            while (j < end && is_ident_char(s[j]))
                j++;
            kind = TOK_IDENT;
            if (positional(s + i, j - i))
                sl->declined = true;
        } else if ((c >= '0' && c <= '9') || (c == '.' && j < end && s[j] >= '0' && s[j] <= '9')) {
            while (j < end && (is_ident_char(s[j]) || s[j] == '.' ||
                               ((s[j] == '+' || s[j] == '-') &&
                                (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' ||
                                 s[j - 1] == 'P'))))
                j++;
            kind = TOK_NUMBER;
        }
        push_tok(sl, (tok){i, j - i, kind, *gap});
        *gap = false;
        i = j;
    }
}

/* Appends a directive piece, white space and comments as one space. */
static void add_directive_text(slicer *sl, const slang_piece *p, bool *space)
{
    const char *s = sl->text;
    if (p->kind == SLANG_PIECE_LINE_COMMENT || p->kind == SLANG_PIECE_BLOCK_COMMENT ||
        p->kind == SLANG_PIECE_SPLICE || p->kind == SLANG_PIECE_NEWLINE) {
        *space = true;
        return;
    }
    for (size_t i = p->start; i < p->end; i++) {
        char c = s[i];
        bool blank = c == ' ' || c == '\t' || c == '\f' || c == '\v';
        if (blank && p->kind == SLANG_PIECE_CODE) {
            *space = true;
            continue;
        }
        if (*space && sl->directives.len && sl->directives.data[sl->directives.len - 1] != '\n')
            bytebuf_append(&sl->directives, " ", 1);
        *space = false;
        bytebuf_append(&sl->directives, &c, 1);
    }
}

/* Reads the text into tokens and directive lines. */
static void read_text(slicer *sl, size_t len)
{
    slang_lexer lx;
    slang_lexer_init(&lx, sl->text, len);
    slang_piece p;
    bool gap = false, in_directive = false, space = false;
    while (!sl->nomem && slang_lex(&lx, &p)) {
        if (p.directive) {
            if (p.opens && in_directive)
                bytebuf_append(&sl->directives, "\n", 1);
            in_directive = true;
            add_directive_text(sl, &p, &space);
            continue;
        }
        if (in_directive) { /* the line end that closes it */
            bytebuf_append(&sl->directives, "\n", 1);
            in_directive = false;
            space = false;
        }
        if (p.kind == SLANG_PIECE_CODE)
            lex_code(sl, p.start, p.end, &gap);
        else if (p.kind == SLANG_PIECE_LITERAL) {
            push_tok(sl, (tok){p.start, p.end - p.start, TOK_LITERAL, gap});
            gap = false;
        } else {
            gap = true;
        }
    }
    if (in_directive)
        bytebuf_append(&sl->directives, "\n", 1);
    if (sl->directives.failed)
        sl->nomem = true;
    /* What directives say: token pasting names what no token names; #line moves lines. */
    const char *d = (const char *)sl->directives.data;
    size_t n = sl->directives.len;
    for (size_t i = 0; i + 1 < n && !sl->declined; i++)
        if (d[i] == '#' && d[i + 1] == '#')
            sl->declined = true;
    for (size_t i = 0; i < n && !sl->declined; i++) {
        if (d[i] != '#' || (i && d[i - 1] != '\n'))
            continue;
        size_t k = i + 1;
        while (k < n && d[k] == ' ')
            k++;
        if (n - k >= 4 && !memcmp(d + k, "line", 4) && (k + 4 == n || !is_ident_char(d[k + 4])))
            sl->declined = true;
        for (size_t e = k; e < n && d[e] != '\n' && !sl->declined; e++)
            if (is_ident_start(d[e]) && (e == k || !is_ident_char(d[e - 1]))) {
                size_t f = e;
                while (f < n && is_ident_char(d[f]))
                    f++;
                sl->declined = positional(d + e, f - e);
            }
    }
}

static bool tok_is(const slicer *sl, size_t i, const char *word)
{
    const tok *t = &sl->toks[i];
    return word_eq(sl->text + t->start, t->len, word);
}

static bool punct(const slicer *sl, size_t i, char c)
{
    const tok *t = &sl->toks[i];
    return t->kind == TOK_PUNCT && sl->text[t->start] == c;
}

static void push_decl(slicer *sl, decl d)
{
    if (sl->decl_count == sl->decl_cap) {
        size_t cap = sl->decl_cap ? sl->decl_cap * 2 : 128;
        decl *grown = mem_realloc(sl->decls, cap * sizeof *grown);
        if (!grown) {
            sl->nomem = true;
            return;
        }
        sl->decls = grown;
        sl->decl_cap = cap;
    }
    sl->decls[sl->decl_count++] = d;
}

/* What declaration tokens [first, end) make; `brace` its first top-level '{' (end: none). */
static decl classify(slicer *sl, size_t first, size_t end, size_t brace)
{
    decl d = {.first = first, .end = end, .kind = DECL_ALWAYS};
    const tok *t = sl->toks;
    if (t[first].kind == TOK_PUNCT && !punct(sl, first, '[')) {
        sl->declined = true;
        return d;
    }
    int depth = 0;
    size_t paren = end, idents = 0;
    for (size_t i = first; i < brace; i++) {
        if (punct(sl, i, '(') || punct(sl, i, '[')) {
            if (!depth && punct(sl, i, '(') && paren == end)
                paren = i;
            depth++;
        } else if (punct(sl, i, ')') || punct(sl, i, ']')) {
            depth--;
        } else if (!depth && t[i].kind == TOK_IDENT) {
            idents++;
            static const char *const always[] = {"enum",      "extension", "namespace",
                                                 "cbuffer",   "tbuffer",   "typedef",
                                                 "typealias", "import",    "__include",
                                                 "using",     "operator",  "__generic"};
            for (size_t k = 0; k < sizeof always / sizeof *always; k++)
                if (tok_is(sl, i, always[k]))
                    return d;
            if (brace < end && i + 1 < brace && t[i + 1].kind == TOK_IDENT &&
                (tok_is(sl, i, "struct") || tok_is(sl, i, "class") ||
                 tok_is(sl, i, "interface"))) {
                d.kind = DECL_TYPE;
                d.name = i + 1;
                d.back_first = i + 2; /* the generic parameters and conformances */
                d.back_end = brace;
                return d;
            }
        } else if (!depth && punct(sl, i, '=')) {
            return d; /* an initialised global */
        }
    }
    if (brace == end) {
        /* A global, a prototype: kept. "name;" alone is no declaration Slang reads as one. */
        if (idents < 2 && paren == end)
            sl->declined = true;
        return d;
    }
    if (paren == end || paren == first)
        return d;
    /* One parameter list only: "M(x) void f() {" is a macro's use before a function (its
       expansion unseen), which this reading cannot name. */
    int level = 0;
    for (size_t i = paren; i < brace; i++) {
        if (punct(sl, i, '(') || punct(sl, i, '[')) {
            if (!level && i != paren && punct(sl, i, '(')) {
                sl->declined = true;
                return d;
            }
            level++;
        } else if (punct(sl, i, ')') || punct(sl, i, ']')) {
            level--;
        }
    }
    /* A function definition: its name stands before the '(' (or before its generic
       parameters' '<' ... '>'). */
    size_t name = paren - 1;
    if (punct(sl, name, '>')) {
        int angle = 0;
        for (;; name--) {
            angle += punct(sl, name, '>') - punct(sl, name, '<');
            if (!angle || name == first)
                break;
        }
        if (angle || name == first)
            return d;
        name--;
    }
    if (t[name].kind != TOK_IDENT || (t[name].len > 1 && sl->text[t[name].start] == '_' &&
                                      sl->text[t[name].start + 1] == '_'))
        return d;
    d.kind = DECL_FUNC;
    d.name = name;
    d.back_first = first; /* its attributes: the '[' ... ']' groups before the name */
    d.back_end = name;
    return d;
}

/* Splits the tokens into top-level declarations. */
static void split(slicer *sl)
{
    size_t first = 0, brace = 0;
    int depth = 0;
    bool have_brace = false;
    for (size_t i = 0; i < sl->tok_count && !sl->declined && !sl->nomem; i++) {
        bool open = punct(sl, i, '(') || punct(sl, i, '[') || punct(sl, i, '{');
        bool close = punct(sl, i, ')') || punct(sl, i, ']') || punct(sl, i, '}');
        if (open && !depth && punct(sl, i, '{') && !have_brace) {
            brace = i;
            have_brace = true;
        }
        depth += open - close;
        if (depth < 0) {
            sl->declined = true;
            break;
        }
        size_t end = 0;
        if (!depth && punct(sl, i, ';'))
            end = i + 1;
        else if (!depth && punct(sl, i, '}'))
            end = i + 1 < sl->tok_count && punct(sl, i + 1, ';') ? i + 2 : i + 1;
        if (!end)
            continue;
        push_decl(sl, classify(sl, first, end, have_brace ? brace : end));
        first = end;
        i = end - 1;
        have_brace = false;
    }
    if (!sl->declined && (depth || first < sl->tok_count))
        sl->declined = true; /* unbalanced, or tokens after the last declaration */
}

/* Whether any identifier of tokens [first, end) is named; attributes' own names skipped. */
static bool mentions_named(const slicer *sl, size_t first, size_t end, bool attributes)
{
    int depth = 0;
    for (size_t i = first; i < end; i++) {
        const tok *t = &sl->toks[i];
        if (attributes) {
            depth += punct(sl, i, '[') - punct(sl, i, ']');
            if (!depth || (i > first && punct(sl, i - 1, '[')))
                continue; /* outside the brackets, or the attribute's own name */
        }
        if (t->kind == TOK_IDENT && names_has(&sl->named, sl->text + t->start, t->len))
            return true;
    }
    return false;
}

static void keep(slicer *sl, decl *d)
{
    d->kept = true;
    for (size_t i = d->first; i < d->end && !sl->nomem; i++)
        if (sl->toks[i].kind == TOK_IDENT)
            names_add(sl, sl->text + sl->toks[i].start, sl->toks[i].len);
}

static void close_over(slicer *sl, const char *entry, const char *seeds, size_t seed_len)
{
    bool any_entry = false;
    for (size_t k = 0; k < sl->decl_count; k++) {
        decl *d = &sl->decls[k];
        const tok *n = &sl->toks[d->name];
        if (d->kind == DECL_ALWAYS || !entry ||
            (d->kind == DECL_FUNC && word_eq(sl->text + n->start, n->len, entry))) {
            any_entry |= entry && d->kind == DECL_FUNC;
            keep(sl, d);
        }
    }
    if (entry && !any_entry) {
        sl->declined = true;
        return;
    }
    name_identifiers(sl, (const char *)sl->directives.data, sl->directives.len);
    if (seeds)
        name_identifiers(sl, seeds, seed_len);
    for (bool more = true; more && !sl->nomem;) {
        more = false;
        for (size_t k = 0; k < sl->decl_count; k++) {
            decl *d = &sl->decls[k];
            if (d->kept)
                continue;
            const tok *n = &sl->toks[d->name];
            if (names_has(&sl->named, sl->text + n->start, n->len) ||
                mentions_named(sl, d->back_first, d->back_end, d->kind == DECL_FUNC)) {
                keep(sl, d);
                more = true;
            }
        }
    }
}

/*
 * Whether white space between two tokens may change what they mean: between
 * two words, and between two punctuators that could read as one operator
 * (`> >` is not `>>`); never between a word and a punctuator.
 */
static bool space_tells(const slicer *sl, const tok *a, const tok *b)
{
    bool a_word = a->kind != TOK_PUNCT, b_word = b->kind != TOK_PUNCT;
    if (a_word || b_word)
        return a_word && b_word;
    return strchr("+-*/%<>=!&|^:.#", sl->text[a->start]) &&
           strchr("+-*/%<>=!&|^:.#", sl->text[b->start]);
}

static void write_key(slicer *sl, bool outline, dgpb_bytebuf *out)
{
    bytebuf_append(out, "dgpb-slice-1\n", 13);
    bytebuf_append(out, sl->directives.data ? (const char *)sl->directives.data : "",
                   sl->directives.len);
    for (size_t k = 0; k < sl->decl_count; k++) {
        const decl *d = &sl->decls[k];
        if (!d->kept)
            continue;
        bytebuf_append(out, "@", 1);
        size_t end = d->end;
        if (outline && d->kind == DECL_FUNC) { /* its head, up to the body's '{' */
            end = d->name;
            while (end < d->end && !punct(sl, end, '{'))
                end++;
        }
        for (size_t i = d->first; i < end; i++) {
            const tok *t = &sl->toks[i];
            if (t->gap && i > d->first && space_tells(sl, &t[-1], t))
                bytebuf_append(out, " ", 1);
            bytebuf_append(out, sl->text + t->start, t->len);
        }
        bytebuf_append(out, "\n", 1);
    }
}

bool decl_slice(const char *text, size_t len, const char *entry, bool outline, const char *seeds,
                size_t seed_len, dgpb_bytebuf *out)
{
    slicer sl = {.text = text};
    read_text(&sl, len);
    if (!sl.declined && !sl.nomem)
        split(&sl);
    if (!sl.declined && !sl.nomem)
        close_over(&sl, entry, seeds, seed_len);
    bool ok = !sl.declined && !sl.nomem;
    if (ok) {
        write_key(&sl, outline, out);
        ok = !out->failed;
    }
    dgpb_free(sl.toks);
    dgpb_free(sl.decls);
    dgpb_free(sl.named.ptr);
    dgpb_free(sl.named.len);
    bytebuf_free(&sl.directives);
    return ok;
}
