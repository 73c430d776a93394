/*
 * wgsl_scan.c - the resource bindings, entry points and workgroup memory of
 * WGSL text (dgpb/wgsl_scan.h).
 *
 * One pass over the module-scope grammar with a one-token lexer: the parser
 * looks at s->lex.tok and calls advance() to move on. A position in the text (a
 * mark: the lexer's offset and line, and the token there) can be saved and
 * restored, which is how a type is read again after its syntax was checked:
 * to take its text, and to size it. Workgroup variables are sized after the
 * whole module has been read, because WGSL lets a struct be declared after
 * its use; structs and aliases are then found by binary search in a table
 * sorted by name, and each one is sized once.
 *
 * Function bodies and initializers are not parsed, only skipped with every
 * bracket balanced; an expression at module scope may not hold a brace, an
 * attribute or a declaration keyword, so a missing ';' is caught where it is
 * missing instead of swallowing the declarations after it.
 */
#include "scan/wgsl_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "scan/text_scan.h"
#include "dgpb/format.h"
#include "core/utf8.h"

#define MAX_ATTRS 16 /* attributes on one declaration */
#define ATTR_ARGS 3  /* arguments of an attribute that are looked at */
#define TYPE_ARGS 3  /* template arguments of a type that are looked at */

enum {
    TOK_EOF = TEXT_TOKEN_EOF,
    TOK_IDENT = TEXT_TOKEN_WORD,
    TOK_NUMBER = TEXT_TOKEN_NUMBER,
    TOK_PUNCT = TEXT_TOKEN_PUNCT
};

typedef text_token token;

/* A saved position: the lexer's offset and line just after `tok`, and `tok`. */
typedef struct mark {
    size_t pos;
    uint32_t line;
    token tok;
} mark;

/* What an integer argument turned out to be. */
enum { LIT_NONE, LIT_OK, LIT_RANGE };

typedef struct attr {
    token name;
    size_t nargs;
    int lit[ATTR_ARGS]; /* LIT_* of the first arguments */
    uint64_t value[ATTR_ARGS];
    token first[ATTR_ARGS]; /* each argument's first token */
} attr;

typedef struct type_info {
    token name;
    size_t nargs;
    mark arg[TYPE_ARGS];    /* where the first arguments start */
    bool single[TYPE_ARGS]; /* the argument is one token (arg[i].tok) */
} type_info;

/* A struct or an alias of the module, and its size once computed. */
typedef struct named_type {
    token name;
    bool is_struct;
    mark at;   /* a struct: at its '{'; an alias: at the aliased type */
    int state; /* 0 not sized, 1 being sized, 2 sized */
    uint64_t align, size;
    bool known;
} named_type;

typedef struct scanner {
    text_scanner lex; /* the text, the position, the current token, the diagnostic */
    dgpb_wgsl_module *m;
    size_t binding_cap, entry_cap;
    named_type *types;
    size_t type_count, type_cap;
    mark *workgroup; /* the type of each var<workgroup> */
    size_t workgroup_count, workgroup_cap;
} scanner;

/* ---- the lexer -------------------------------------------------------------- */

static bool is_ident_start(unsigned char c)
{
    return c == '_' || ((c | 32) >= 'a' && (c | 32) <= 'z') || c >= 0x80;
}

static bool is_ident_char(unsigned char c)
{
    return is_ident_start(c) || text_is_digit(c);
}

/*
 * Names Slang writes into WGSL for types WGSL does not have (it has i32,
 * u32, f32 and, with `enable f16`, f16): 64-bit integers and doubles, and
 * 8- and 16-bit integers. Slang suffixes every name of the source (`x_0`),
 * so none of these is ever a user's identifier. What the type is, or NULL.
 */
static const char *missing_type(const char *p, size_t n)
{
    static const struct {
        const char *name, *what;
    } words[] = {
        {"i64", "a 64-bit integer"},
        {"u64", "a 64-bit integer"},
        {"int64_t", "a 64-bit integer"},
        {"uint64_t", "a 64-bit integer"},
        {"f64", "a double"},
        {"double", "a double"},
        {"i8", "an 8-bit integer"},
        {"u8", "an 8-bit integer"},
        {"int8_t", "an 8-bit integer"},
        {"uint8_t", "an 8-bit integer"},
        {"i16", "a 16-bit integer"},
        {"u16", "a 16-bit integer"},
        {"int16_t", "a 16-bit integer"},
        {"uint16_t", "a 16-bit integer"},
    };
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strlen(words[k].name) == n && !memcmp(words[k].name, p, n))
            return words[k].what;
    return NULL;
}

/* Moves to the next token (s->lex.tok), past blank space and comments. */
static int advance(scanner *s)
{
    const char *t = s->lex.text;
    size_t n = s->lex.len, i = s->lex.pos;
    for (;;) {
        if (i >= n) {
            s->lex.tok = (token){TOK_EOF, t + n, 0, n, s->lex.line};
            s->lex.pos = n;
            return DGPB_OK;
        }
        unsigned char c = (unsigned char)t[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= n || t[i + 1] != '\n'))) {
            s->lex.line++;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r') {
            i++;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n' && t[i] != '\r')
                i++;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            size_t start = i;
            uint32_t line = s->lex.line;
            uint64_t depth = 1;
            i += 2;
            while (depth) {
                if (i >= n)
                    return text_fail_at(&s->lex, DGPB_ERR_CORRUPT, start, line,
                                        "unterminated block comment");
                if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
                    depth++;
                    i += 2;
                } else if (t[i] == '*' && i + 1 < n && t[i + 1] == '/') {
                    depth--;
                    i += 2;
                } else {
                    if (t[i] == '\n' || (t[i] == '\r' && (i + 1 >= n || t[i + 1] != '\n')))
                        s->lex.line++;
                    i++;
                }
            }
        } else {
            break;
        }
    }
    token tok = {TOK_PUNCT, t + i, 1, i, s->lex.line};
    unsigned char c = (unsigned char)t[i];
    if (is_ident_start(c)) {
        tok.kind = TOK_IDENT;
        while (i < n && is_ident_char((unsigned char)t[i]))
            i++;
        const char *missing = missing_type(t + tok.off, i - tok.off);
        if (missing)
            return text_fail_at(&s->lex, DGPB_ERR_SHADER, tok.off, s->lex.line,
                                "the code uses '%.*s' (%s), which WGSL does not have; limit the "
                                "entry to targets that do",
                                (int)(i - tok.off), t + tok.off, missing);
    } else if (text_is_digit(c) ||
               (c == '.' && i + 1 < n && text_is_digit((unsigned char)t[i + 1]))) {
        tok.kind = TOK_NUMBER;
        bool hex = c == '0' && i + 1 < n && (t[i + 1] == 'x' || t[i + 1] == 'X');
        i += hex ? 2 : 1;
        while (i < n) {
            unsigned char d = (unsigned char)t[i];
            char prev = (char)(t[i - 1] | 32);
            if (is_ident_char(d) || d == '.')
                i++;
            else if ((d == '+' || d == '-') && (hex ? prev == 'p' : prev == 'e'))
                i++;
            else
                break;
        }
    } else if (c != 0 && strchr("@(){}[]<>,;:.=+-*/%&|^!~", c)) {
        i++;
    } else {
        if (c >= 0x20 && c < 0x7f)
            return text_fail_at(&s->lex, DGPB_ERR_CORRUPT, i, s->lex.line,
                                "unexpected character '%c'", c);
        return text_fail_at(&s->lex, DGPB_ERR_CORRUPT, i, s->lex.line, "unexpected byte 0x%02x", c);
    }
    tok.len = i - tok.off;
    s->lex.tok = tok;
    s->lex.pos = i;
    return DGPB_OK;
}

static mark save(const scanner *s)
{
    return (mark){s->lex.pos, s->lex.line, s->lex.tok};
}

static void restore(scanner *s, mark m)
{
    s->lex.pos = m.pos;
    s->lex.line = m.line;
    s->lex.tok = m.tok;
}

static bool tok_eq(const token *a, const token *b)
{
    return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/* Requires an identifier at the current token. */
static int expect_ident(scanner *s, const char *what)
{
    if (s->lex.tok.kind == TOK_IDENT)
        return DGPB_OK;
    char buf[64];
    return text_bad(&s->lex, &s->lex.tok, "expected %s, found %s", what,
                    text_scan_show(&s->lex.tok, buf, sizeof buf));
}

/* ---- integer literals ------------------------------------------------------- */

/*
 * An integer literal token: decimal (0 or [1-9][0-9]*) or hexadecimal (0x...),
 * then 'i', 'u' or nothing. False when the token is not one (a float, ...).
 * *v saturates at UINT64_MAX.
 */
static bool int_token(const token *t, uint64_t *v, char *suffix)
{
    if (t->kind != TOK_NUMBER)
        return false;
    size_t n = t->len, i = 0;
    *suffix = 0;
    if (t->s[n - 1] == 'i' || t->s[n - 1] == 'u')
        *suffix = t->s[--n];
    unsigned base = 10;
    if (n > 2 && t->s[0] == '0' && (t->s[1] == 'x' || t->s[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (n == 0 || (t->s[0] == '0' && n > 1)) {
        return false;
    }
    uint64_t x = 0;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)t->s[i];
        unsigned d;
        if (text_is_digit(c))
            d = c - '0';
        else if (base == 16 && (c | 32) >= 'a' && (c | 32) <= 'f')
            d = (c | 32) - 'a' + 10;
        else
            return false;
        x = x > (UINT64_MAX - d) / base ? UINT64_MAX : x * base + d;
    }
    *v = x;
    return true;
}

/*
 * An integer literal argument at the current token: N, Ni, Nu (decimal or
 * hexadecimal), i32(N) or u32(N), followed by ',' or `close`. Returns LIT_OK
 * or LIT_RANGE (the value does not fit its type: i32 for N and Ni, u32 for
 * Nu) with the literal consumed, or LIT_NONE with nothing consumed.
 */
static int literal_arg(scanner *s, char close, uint64_t *v, int *rc)
{
    mark start = save(s);
    char conv = 0, suffix = 0;
    *rc = DGPB_OK;
    if (text_tok_is(&s->lex.tok, "i32") || text_tok_is(&s->lex.tok, "u32")) {
        conv = s->lex.tok.s[0];
        if ((*rc = advance(s)) != DGPB_OK)
            return LIT_NONE;
        if (!text_is_punct(&s->lex.tok, '('))
            goto none;
        if ((*rc = advance(s)) != DGPB_OK)
            return LIT_NONE;
    }
    if (!int_token(&s->lex.tok, v, &suffix))
        goto none;
    if ((*rc = advance(s)) != DGPB_OK)
        return LIT_NONE;
    if (conv) {
        if (!text_is_punct(&s->lex.tok, ')') || (suffix && suffix != conv))
            goto none;
        suffix = conv;
        if ((*rc = advance(s)) != DGPB_OK)
            return LIT_NONE;
    }
    if (!text_is_punct(&s->lex.tok, ',') && !text_is_punct(&s->lex.tok, close))
        goto none;
    return *v > (suffix == 'u' ? UINT32_MAX : (uint64_t)INT32_MAX) ? LIT_RANGE : LIT_OK;
none:
    restore(s, start);
    return LIT_NONE;
}

/* ---- skipping balanced text ------------------------------------------------- */

enum {
    SKIP_TEMPLATES = 1, /* `ident<` opens a template list closed by '>' outside () and [] */
    SKIP_EXPR = 2,      /* an expression: braces, attributes and declaration keywords end it */
    SKIP_GROUP = 4,     /* the current token opens a group: stop just after its closer */
};

static bool is_decl_keyword(const token *t)
{
    static const char *const words[] = {
        "fn",     "var",      "let",    "struct", "const", "override", "alias", "const_assert",
        "enable", "requires", "return", "loop",   "if",    "for",      "while", "switch"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (text_tok_is(t, words[i]))
            return true;
    return false;
}

static char closer_of(char open)
{
    return open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
}

/*
 * Skips tokens up to (not including) one of the characters of `stops` at
 * nesting depth 0, keeping (), [] and {} balanced; with SKIP_GROUP, skips the
 * group the current token opens, up to and including its closer. Sets
 * *count to the number of tokens skipped when count is not NULL. Reaching the
 * end of the input at depth 0 is not an error here: the caller then finds
 * no stop character.
 */
static int skip(scanner *s, const char *stops, unsigned flags, size_t *count)
{
    char stack[DGPB_WGSL_MAX_NESTING];
    uint32_t open_line[DGPB_WGSL_MAX_NESTING];
    size_t depth = 0, skipped = 0;
    bool prev_ident = false, prev_word = false;
    char buf[64];
    int rc;
    for (;;) {
        const token *t = &s->lex.tok;
        if (t->kind == TOK_EOF) {
            if (depth)
                return text_bad(&s->lex, t, "unterminated '%c' opened at line %u", stack[depth - 1],
                                open_line[depth - 1]);
            break;
        }
        if (depth == 0 && t->kind == TOK_PUNCT && strchr(stops, t->s[0]))
            break;
        if ((flags & SKIP_EXPR) &&
            (text_is_punct(t, '{') || text_is_punct(t, '}') || text_is_punct(t, '@') ||
             text_is_punct(t, ';') || is_decl_keyword(t)))
            return text_bad(&s->lex, t, "unexpected %s in an expression%s",
                            text_scan_show(t, buf, sizeof buf),
                            text_is_punct(t, ';') ? "" : " (missing ';'?)");
        bool word = t->kind == TOK_IDENT || t->kind == TOK_NUMBER;
        if ((flags & SKIP_EXPR) && word && prev_word)
            return text_bad(&s->lex, t, "expected an operator, ',' or ';' before %s",
                            text_scan_show(t, buf, sizeof buf));
        prev_word = word;
        if (t->kind == TOK_PUNCT) {
            char c = t->s[0];
            bool in_template = (flags & SKIP_TEMPLATES) && (depth == 0 || stack[depth - 1] == '<');
            if (c == '(' || c == '[' || c == '{' || (c == '<' && prev_ident && in_template)) {
                if (depth == DGPB_WGSL_MAX_NESTING)
                    return text_fail_at(&s->lex, DGPB_ERR_LIMIT, t->off, t->line,
                                        "brackets nest deeper than %d", DGPB_WGSL_MAX_NESTING);
                stack[depth] = c;
                open_line[depth++] = t->line;
            } else if (c == ')' || c == ']' || c == '}') {
                if (depth == 0)
                    return text_bad(&s->lex, t, "unexpected '%c'", c);
                if (c != closer_of(stack[depth - 1]))
                    return text_bad(&s->lex, t, "'%c' does not close the '%c' opened at line %u", c,
                                    stack[depth - 1], open_line[depth - 1]);
                depth--;
            } else if (c == '>' && depth && stack[depth - 1] == '<') {
                depth--;
            }
        }
        prev_ident = t->kind == TOK_IDENT;
        skipped++;
        if ((rc = advance(s)) != DGPB_OK)
            return rc;
        if ((flags & SKIP_GROUP) && depth == 0)
            break;
    }
    if (count)
        *count = skipped;
    return DGPB_OK;
}

/* Skips an expression up to ',' or `close` (or ';' when close is ';'); it must not be empty. */
static int skip_expr(scanner *s, char close, size_t *count)
{
    char stops[3] = {',', close, 0};
    if (close == ';')
        stops[0] = ';';
    size_t n = 0;
    int rc = skip(s, stops, SKIP_EXPR | (close == '>' ? SKIP_TEMPLATES : 0), &n);
    if (rc != DGPB_OK)
        return rc;
    if (n == 0) {
        char buf[64];
        return text_bad(&s->lex, &s->lex.tok, "expected an expression, found %s",
                        text_scan_show(&s->lex.tok, buf, sizeof buf));
    }
    if (count)
        *count = n;
    return DGPB_OK;
}

/* ---- attributes and types --------------------------------------------------- */

/* An attribute at '@': its name and its arguments, literal integers read. */
static int parse_attr(scanner *s, attr *a)
{
    int rc;
    memset(a, 0, sizeof *a);
    if ((rc = advance(s)) != DGPB_OK || (rc = expect_ident(s, "an attribute name")) != DGPB_OK)
        return rc;
    a->name = s->lex.tok;
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    if (!text_is_punct(&s->lex.tok, '('))
        return DGPB_OK;
    token open = s->lex.tok;
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    while (!text_is_punct(&s->lex.tok, ')')) {
        if (a->nargs < ATTR_ARGS) {
            a->first[a->nargs] = s->lex.tok;
            a->lit[a->nargs] = literal_arg(s, ')', &a->value[a->nargs], &rc);
            if (rc != DGPB_OK)
                return rc;
        }
        if (a->nargs >= ATTR_ARGS || a->lit[a->nargs] == LIT_NONE)
            if ((rc = skip_expr(s, ')', NULL)) != DGPB_OK)
                return rc;
        a->nargs++;
        if (text_is_punct(&s->lex.tok, ',')) {
            if ((rc = advance(s)) != DGPB_OK)
                return rc;
        } else if (!text_is_punct(&s->lex.tok, ')')) {
            char buf[64];
            return text_bad(&s->lex, &s->lex.tok,
                            "expected ',' or ')' in the arguments of @%.*s (opened at line %u), "
                            "found %s",
                            (int)a->name.len, a->name.s, open.line,
                            text_scan_show(&s->lex.tok, buf, sizeof buf));
        }
    }
    return advance(s);
}

/* The attributes before a declaration. */
static int parse_attrs(scanner *s, attr *attrs, size_t *n)
{
    *n = 0;
    while (text_is_punct(&s->lex.tok, '@')) {
        if (*n == MAX_ATTRS)
            return text_fail_at(&s->lex, DGPB_ERR_LIMIT, s->lex.tok.off, s->lex.tok.line,
                                "more than %d attributes on one declaration", MAX_ATTRS);
        int rc = parse_attr(s, &attrs[(*n)++]);
        if (rc != DGPB_OK)
            return rc;
    }
    return DGPB_OK;
}

/* A type: ident ['<' argument (',' argument)* [','] '>']. */
static int parse_type(scanner *s, type_info *ti)
{
    int rc;
    memset(ti, 0, sizeof *ti);
    if ((rc = expect_ident(s, "a type")) != DGPB_OK)
        return rc;
    ti->name = s->lex.tok;
    if ((rc = advance(s)) != DGPB_OK || !text_is_punct(&s->lex.tok, '<'))
        return rc;
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    do {
        mark at = save(s);
        size_t n = 0;
        if ((rc = skip_expr(s, '>', &n)) != DGPB_OK)
            return rc;
        if (ti->nargs < TYPE_ARGS) {
            ti->arg[ti->nargs] = at;
            ti->single[ti->nargs] = n == 1;
        }
        ti->nargs++;
        if (text_is_punct(&s->lex.tok, ',') && (rc = advance(s)) != DGPB_OK)
            return rc;
    } while (!text_is_punct(&s->lex.tok, '>') && s->lex.tok.kind != TOK_EOF);
    if ((rc = text_expect(&s->lex, '>', "to close the template list")) != DGPB_OK)
        return rc;
    return advance(s);
}

/*
 * The text of the tokens from `start` up to the token at offset `end`,
 * joined, with one space after each comma that a '>' does not follow.
 * Leaves the scanner at `end`'s mark.
 */
static char *type_text(scanner *s, mark start, mark end)
{
    size_t n = 0;
    char *out = NULL;
    for (int pass = 0; pass < 2; pass++) {
        restore(s, start);
        size_t k = 0;
        bool space = false;
        while (s->lex.tok.off < end.tok.off && s->lex.tok.kind != TOK_EOF) {
            if (space && !text_is_punct(&s->lex.tok, '>')) {
                if (out)
                    out[k] = ' ';
                k++;
            }
            if (out)
                memcpy(out + k, s->lex.tok.s, s->lex.tok.len);
            k += s->lex.tok.len;
            space = text_is_punct(&s->lex.tok, ',');
            if (advance(s) != DGPB_OK)
                break; /* cannot happen: this text was read before */
        }
        if (pass == 0) {
            n = k;
            if (!(out = mem_alloc(n + 1)))
                break;
        } else {
            out[k < n ? k : n] = 0;
        }
    }
    restore(s, end);
    return out;
}

/* ---- bindings --------------------------------------------------------------- */

static bool is_sample_type(const token *t)
{
    return text_tok_is(t, "f32") || text_tok_is(t, "i32") || text_tok_is(t, "u32");
}

/* Fills a handle binding's class and details from its type. */
static int classify_handle(scanner *s, dgpb_wgsl_binding *b, const type_info *ti)
{
    static const char *const sampled[] = {"1d", "2d", "2d_array", "3d", "cube", "cube_array"};
    static const char *const depth[] = {"2d", "2d_array", "cube", "cube_array"};
    static const char *const storage[] = {"1d", "2d", "2d_array", "3d"};
    const token *name = &ti->name;
    char want[64], buf[64];
    b->cls = DGPB_WGSL_OTHER;
    if (text_tok_is(name, "sampler") || text_tok_is(name, "sampler_comparison") ||
        text_tok_is(name, "texture_external")) {
        b->cls = text_tok_is(name, "sampler")              ? DGPB_WGSL_SAMPLER
                 : text_tok_is(name, "sampler_comparison") ? DGPB_WGSL_SAMPLER_COMPARISON
                                                           : DGPB_WGSL_EXTERNAL_TEXTURE;
        if (ti->nargs)
            return text_bad(&s->lex, name, "'%.*s' takes no template arguments", (int)name->len,
                            name->s);
        return DGPB_OK;
    }
    for (size_t i = 0; i < sizeof sampled / sizeof sampled[0]; i++) {
        snprintf(want, sizeof want, "texture_%s", sampled[i]);
        bool ms = i == 1 && text_tok_is(name, "texture_multisampled_2d");
        if (!text_tok_is(name, want) && !ms)
            continue;
        b->cls = ms ? DGPB_WGSL_TEXTURE_MULTISAMPLED : DGPB_WGSL_TEXTURE;
        if (ti->nargs != 1 || !ti->single[0] || !is_sample_type(&ti->arg[0].tok))
            return text_bad(&s->lex, name, "'%.*s' needs one sample type, f32, i32 or u32",
                            (int)name->len, name->s);
        b->sample_type = text_tokdup(&ti->arg[0].tok);
        b->dimension = mem_strdup(sampled[i]);
        return b->sample_type && b->dimension ? DGPB_OK : DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < sizeof depth / sizeof depth[0]; i++) {
        snprintf(want, sizeof want, "texture_depth_%s", depth[i]);
        bool ms = i == 0 && text_tok_is(name, "texture_depth_multisampled_2d");
        if (!text_tok_is(name, want) && !ms)
            continue;
        b->cls = DGPB_WGSL_TEXTURE_DEPTH;
        if (ti->nargs)
            return text_bad(&s->lex, name, "'%.*s' takes no template arguments", (int)name->len,
                            name->s);
        b->dimension = mem_strdup(depth[i]);
        return b->dimension ? DGPB_OK : DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < sizeof storage / sizeof storage[0]; i++) {
        snprintf(want, sizeof want, "texture_storage_%s", storage[i]);
        if (!text_tok_is(name, want))
            continue;
        b->cls = DGPB_WGSL_STORAGE_TEXTURE;
        if (ti->nargs != 2 || !ti->single[0] || !ti->single[1] || ti->arg[0].tok.kind != TOK_IDENT)
            return text_bad(&s->lex, name, "'%.*s' needs a texel format and an access mode",
                            (int)name->len, name->s);
        const token *access = &ti->arg[1].tok;
        if (!text_tok_is(access, "read") && !text_tok_is(access, "write") &&
            !text_tok_is(access, "read_write"))
            return text_bad(&s->lex, access, "%s is not an access mode (read, write or read_write)",
                            text_scan_show(access, buf, sizeof buf));
        b->texel_format = text_tokdup(&ti->arg[0].tok);
        b->access = text_tokdup(access);
        b->dimension = mem_strdup(storage[i]);
        return b->texel_format && b->access && b->dimension ? DGPB_OK : DGPB_ERR_NOMEM;
    }
    return DGPB_OK;
}

/* Appends a zeroed binding to the module; NULL when out of memory. */
static dgpb_wgsl_binding *new_binding(scanner *s)
{
    dgpb_wgsl_module *m = s->m;
    dgpb_wgsl_binding *v = mem_grow(m->bindings, m->binding_count, &s->binding_cap, sizeof *v, 16);
    if (!v)
        return NULL;
    m->bindings = v;
    dgpb_wgsl_binding *b = &v[m->binding_count++];
    memset(b, 0, sizeof *b);
    b->group = b->binding = -1;
    return b;
}

/* Reads @group/@binding into b: one literal integer argument each, at most once. */
static int place_binding(scanner *s, dgpb_wgsl_binding *b, const attr *a, const token *var)
{
    bool group = text_tok_is(&a->name, "group");
    int64_t *slot = group ? &b->group : &b->binding;
    const char *what = group ? "group" : "binding";
    char buf[64];
    if (*slot != -1)
        return text_bad(&s->lex, &a->name, "'%s' has two @%s attributes", b->name, what);
    if (a->nargs != 1)
        return text_bad(&s->lex, &a->name, "@%s takes one argument", what);
    if (a->lit[0] == LIT_NONE)
        return text_fail_at(&s->lex, DGPB_ERR_UNSUPPORTED, a->first[0].off, a->first[0].line,
                            "the @%s of '%.*s' is not an integer literal", what, (int)var->len,
                            var->s);
    if (a->lit[0] == LIT_RANGE)
        return text_bad(&s->lex, &a->first[0], "@%s number %s is out of range", what,
                        text_scan_show(&a->first[0], buf, sizeof buf));
    *slot = (int64_t)a->value[0];
    return DGPB_OK;
}

/* var ['<' space [',' access] [','] '>'] name [':' type] ['=' expr] ';' */
static int parse_var(scanner *s, const attr *attrs, size_t nattrs)
{
    token var = s->lex.tok, space = {0}, access = {0}, name;
    char buf[64];
    int rc;
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    if (text_is_punct(&s->lex.tok, '<')) {
        if ((rc = advance(s)) != DGPB_OK || (rc = expect_ident(s, "an address space")) != DGPB_OK)
            return rc;
        space = s->lex.tok;
        if ((rc = advance(s)) != DGPB_OK)
            return rc;
        if (text_is_punct(&s->lex.tok, ',')) {
            if ((rc = advance(s)) != DGPB_OK)
                return rc;
            if (s->lex.tok.kind == TOK_IDENT) {
                access = s->lex.tok;
                if ((rc = advance(s)) != DGPB_OK)
                    return rc;
                if (text_is_punct(&s->lex.tok, ',') && (rc = advance(s)) != DGPB_OK)
                    return rc;
            }
        }
        if ((rc = text_expect(&s->lex, '>', "after the address space")) != DGPB_OK ||
            (rc = advance(s)))
            return rc;
    }
    if ((rc = expect_ident(s, "the variable's name")) != DGPB_OK)
        return rc;
    name = s->lex.tok;
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    bool typed = false, init = false;
    type_info ti = {0};
    mark type_start = {0}, type_end = {0};
    if (text_is_punct(&s->lex.tok, ':')) {
        if ((rc = advance(s)) != DGPB_OK)
            return rc;
        type_start = save(s);
        if ((rc = parse_type(s, &ti)) != DGPB_OK)
            return rc;
        type_end = save(s);
        typed = true;
    }
    if (text_is_punct(&s->lex.tok, '=')) {
        if ((rc = advance(s)) != DGPB_OK || (rc = skip_expr(s, ';', NULL)) != DGPB_OK)
            return rc;
        init = true;
    }
    if (!text_is_punct(&s->lex.tok, ';'))
        return text_bad(&s->lex, &s->lex.tok,
                        "missing ';' after the declaration of '%.*s' (found %s)", (int)name.len,
                        name.s, text_scan_show(&s->lex.tok, buf, sizeof buf));
    if ((rc = advance(s)) != DGPB_OK)
        return rc;

    bool uniform = text_tok_is(&space, "uniform"), storage = text_tok_is(&space, "storage");
    bool handle = space.len == 0; /* no address space */
    if (!handle && !uniform && !storage) {
        bool workgroup = text_tok_is(&space, "workgroup");
        if (!workgroup && !text_tok_is(&space, "private") && !text_tok_is(&space, "function"))
            return text_fail_at(&s->lex, DGPB_ERR_UNSUPPORTED, space.off, space.line,
                                "unknown address space %s of '%.*s'",
                                text_scan_show(&space, buf, sizeof buf), (int)name.len, name.s);
        if (nattrs)
            return text_bad(&s->lex, &attrs[0].name, "@%.*s does not apply to a var<%.*s>",
                            (int)attrs[0].name.len, attrs[0].name.s, (int)space.len, space.s);
        if (access.len)
            return text_bad(&s->lex, &access, "var<%.*s> takes no access mode", (int)space.len,
                            space.s);
        if (!workgroup)
            return DGPB_OK;
        if (!typed)
            return text_bad(&s->lex, &name, "var<workgroup> '%.*s' has no type", (int)name.len,
                            name.s);
        if (init)
            return text_bad(&s->lex, &name, "var<workgroup> '%.*s' cannot have an initializer",
                            (int)name.len, name.s);
        mark *w = mem_grow(s->workgroup, s->workgroup_count, &s->workgroup_cap, sizeof *w, 8);
        if (!w)
            return DGPB_ERR_NOMEM;
        s->workgroup = w;
        w[s->workgroup_count++] = type_start;
        return DGPB_OK;
    }
    if (!typed)
        return text_bad(&s->lex, &name, "'%.*s' has no type", (int)name.len, name.s);
    if (init)
        return text_bad(&s->lex, &name, "'%.*s' cannot have an initializer", (int)name.len, name.s);
    if (access.len && !storage)
        return text_bad(&s->lex, &access, "var<%.*s> takes no access mode", (int)space.len,
                        space.s);
    if (access.len && !text_tok_is(&access, "read") && !text_tok_is(&access, "read_write"))
        return text_bad(&s->lex, &access,
                        "%s is not an access mode of var<storage> (read or read_write)",
                        text_scan_show(&access, buf, sizeof buf));

    dgpb_wgsl_binding *b = new_binding(s);
    if (!b || !(b->name = text_tokdup(&name)))
        return DGPB_ERR_NOMEM;
    b->line = var.line;
    if (!(b->type = type_text(s, type_start, type_end)))
        return DGPB_ERR_NOMEM;
    for (size_t i = 0; i < nattrs; i++) {
        if (!text_tok_is(&attrs[i].name, "group") && !text_tok_is(&attrs[i].name, "binding"))
            return text_bad(&s->lex, &attrs[i].name, "@%.*s does not apply to a var",
                            (int)attrs[i].name.len, attrs[i].name.s);
        if ((rc = place_binding(s, b, &attrs[i], &name)) != DGPB_OK)
            return rc;
    }
    if (uniform) {
        b->cls = DGPB_WGSL_UNIFORM;
    } else if (storage) {
        bool rw = text_tok_is(&access, "read_write");
        b->cls = rw ? DGPB_WGSL_STORAGE_READ_WRITE : DGPB_WGSL_STORAGE_READ;
        if (!(b->access = mem_strdup(rw ? "read_write" : "read")))
            return DGPB_ERR_NOMEM;
    } else {
        return classify_handle(s, b, &ti);
    }
    return DGPB_OK;
}

/* ---- functions, structs and the rest ---------------------------------------- */

/* fn name '(' ... ')' ['->' ...] '{' ... '}'; an entry point when it has a stage attribute. */
static int parse_fn(scanner *s, const attr *attrs, size_t nattrs)
{
    int rc;
    char buf[64];
    if ((rc = advance(s)) != DGPB_OK || (rc = expect_ident(s, "the function's name")) != DGPB_OK)
        return rc;
    token name = s->lex.tok;
    if ((rc = advance(s)) != DGPB_OK ||
        (rc = text_expect(&s->lex, '(', "after the function's name")))
        return rc;
    if ((rc = skip(s, "{;}", 0, NULL)) != DGPB_OK)
        return rc;
    if (!text_is_punct(&s->lex.tok, '{'))
        return text_bad(&s->lex, &s->lex.tok, "function '%.*s' has no body (found %s)",
                        (int)name.len, name.s, text_scan_show(&s->lex.tok, buf, sizeof buf));
    if ((rc = skip(s, "", SKIP_GROUP, NULL)) != DGPB_OK)
        return rc;

    int stage = -1;
    const attr *size = NULL;
    for (size_t i = 0; i < nattrs; i++) {
        const attr *a = &attrs[i];
        int st = text_tok_is(&a->name, "compute")    ? DGPB_STAGE_COMPUTE
                 : text_tok_is(&a->name, "vertex")   ? DGPB_STAGE_VERTEX
                 : text_tok_is(&a->name, "fragment") ? DGPB_STAGE_FRAGMENT
                                                     : -1;
        if (st >= 0) {
            if (stage >= 0)
                return text_bad(&s->lex, &a->name, "function '%.*s' has two stage attributes",
                                (int)name.len, name.s);
            if (a->nargs)
                return text_bad(&s->lex, &a->name, "@%.*s takes no arguments", (int)a->name.len,
                                a->name.s);
            stage = st;
        } else if (text_tok_is(&a->name, "workgroup_size")) {
            if (size)
                return text_bad(&s->lex, &a->name,
                                "function '%.*s' has two @workgroup_size attributes", (int)name.len,
                                name.s);
            if (a->nargs < 1 || a->nargs > 3)
                return text_bad(&s->lex, &a->name, "@workgroup_size takes one to three arguments");
            size = a;
        } else if (!text_tok_is(&a->name, "must_use") && !text_tok_is(&a->name, "diagnostic")) {
            return text_bad(&s->lex, &a->name, "@%.*s does not apply to a function",
                            (int)a->name.len, a->name.s);
        }
    }
    if (size && stage != DGPB_STAGE_COMPUTE)
        return text_bad(&s->lex, &size->name,
                        "@workgroup_size on '%.*s', which is not a compute entry point",
                        (int)name.len, name.s);
    if (stage == DGPB_STAGE_COMPUTE && !size)
        return text_bad(&s->lex, &name, "compute entry point '%.*s' has no @workgroup_size",
                        (int)name.len, name.s);
    if (stage < 0)
        return DGPB_OK;

    uint32_t wg[3] = {0, 0, 0};
    if (size) {
        bool literal = true;
        for (size_t i = 0; i < 3; i++) {
            if (i >= size->nargs) {
                wg[i] = 1;
            } else if (size->lit[i] == LIT_OK && size->value[i] > 0) {
                wg[i] = (uint32_t)size->value[i];
            } else if (size->lit[i] != LIT_NONE) {
                return text_bad(&s->lex, &size->first[i], "workgroup size %s is out of range",
                                text_scan_show(&size->first[i], buf, sizeof buf));
            } else {
                literal = false;
            }
        }
        if (!literal)
            wg[0] = wg[1] = wg[2] = 0;
    }
    dgpb_wgsl_module *m = s->m;
    dgpb_wgsl_entry *v = mem_grow(m->entries, m->entry_count, &s->entry_cap, sizeof *v, 4);
    if (!v)
        return DGPB_ERR_NOMEM;
    m->entries = v;
    dgpb_wgsl_entry *e = &v[m->entry_count++];
    memset(e, 0, sizeof *e);
    e->stage = stage;
    memcpy(e->workgroup_size, wg, sizeof wg);
    return (e->name = text_tokdup(&name)) ? DGPB_OK : DGPB_ERR_NOMEM;
}

static int add_named_type(scanner *s, token name, bool is_struct, mark at)
{
    named_type *v = mem_grow(s->types, s->type_count, &s->type_cap, sizeof *v, 16);
    if (!v)
        return DGPB_ERR_NOMEM;
    s->types = v;
    v[s->type_count++] = (named_type){.name = name, .is_struct = is_struct, .at = at};
    return DGPB_OK;
}

/* Checks a member's @align/@size: a literal @align is a power of two, a literal @size not 0. */
static int check_member_attr(scanner *s, const attr *a)
{
    bool align = text_tok_is(&a->name, "align");
    if (!align && !text_tok_is(&a->name, "size"))
        return DGPB_OK;
    if (a->nargs != 1)
        return text_bad(&s->lex, &a->name, "@%.*s takes one argument", (int)a->name.len, a->name.s);
    char buf[64];
    if (a->lit[0] == LIT_RANGE || (a->lit[0] == LIT_OK && a->value[0] == 0) ||
        (a->lit[0] == LIT_OK && align && (a->value[0] & (a->value[0] - 1))))
        return text_bad(&s->lex, &a->first[0], "@%.*s(%s) is not %s", (int)a->name.len, a->name.s,
                        text_scan_show(&a->first[0], buf, sizeof buf),
                        align ? "a power of two" : "a positive size");
    return DGPB_OK;
}

/* struct name '{' ([attrs] member ':' type) (',' ...)* [','] '}' */
static int parse_struct(scanner *s)
{
    int rc;
    char buf[64];
    if ((rc = advance(s)) != DGPB_OK || (rc = expect_ident(s, "the struct's name")) != DGPB_OK)
        return rc;
    token name = s->lex.tok;
    if ((rc = advance(s)) != DGPB_OK || (rc = text_expect(&s->lex, '{', "after the struct's name")))
        return rc;
    mark body = save(s);
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    size_t members = 0;
    while (!text_is_punct(&s->lex.tok, '}')) {
        attr attrs[MAX_ATTRS];
        size_t nattrs;
        type_info ti;
        if ((rc = parse_attrs(s, attrs, &nattrs)) != DGPB_OK)
            return rc;
        for (size_t i = 0; i < nattrs; i++)
            if ((rc = check_member_attr(s, &attrs[i])) != DGPB_OK)
                return rc;
        if ((rc = expect_ident(s, "a member name")) != DGPB_OK || (rc = advance(s)) != DGPB_OK ||
            (rc = text_expect(&s->lex, ':', "after the member's name")) != DGPB_OK ||
            (rc = advance(s)) != DGPB_OK || (rc = parse_type(s, &ti)) != DGPB_OK)
            return rc;
        members++;
        if (text_is_punct(&s->lex.tok, ',')) {
            if ((rc = advance(s)) != DGPB_OK)
                return rc;
        } else if (!text_is_punct(&s->lex.tok, '}')) {
            return text_bad(&s->lex, &s->lex.tok,
                            "expected ',' or '}' after a member of struct '%.*s' (opened at "
                            "line %u), found %s",
                            (int)name.len, name.s, body.tok.line,
                            text_scan_show(&s->lex.tok, buf, sizeof buf));
        }
    }
    if (members == 0)
        return text_bad(&s->lex, &name, "struct '%.*s' has no members", (int)name.len, name.s);
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    return add_named_type(s, name, true, body);
}

/* alias name '=' type ';' */
static int parse_alias(scanner *s)
{
    int rc;
    type_info ti;
    if ((rc = advance(s)) != DGPB_OK || (rc = expect_ident(s, "the alias's name")) != DGPB_OK)
        return rc;
    token name = s->lex.tok;
    if ((rc = advance(s)) != DGPB_OK ||
        (rc = text_expect(&s->lex, '=', "after the alias's name")) || (rc = advance(s)) != DGPB_OK)
        return rc;
    mark at = save(s);
    if ((rc = parse_type(s, &ti)) != DGPB_OK)
        return rc;
    if (!text_is_punct(&s->lex.tok, ';'))
        return text_bad(&s->lex, &s->lex.tok, "missing ';' after alias '%.*s'", (int)name.len,
                        name.s);
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    return add_named_type(s, name, false, at);
}

/* A declaration or directive that is skipped: keyword ... ';' (const, override, enable, ...). */
static int skip_decl(scanner *s, bool named)
{
    token kw = s->lex.tok;
    int rc;
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    if (named && (rc = expect_ident(s, "a name")) != DGPB_OK)
        return rc;
    if ((rc = skip(s, ";", SKIP_EXPR, NULL)) != DGPB_OK)
        return rc;
    if (!text_is_punct(&s->lex.tok, ';'))
        return text_bad(&s->lex, &s->lex.tok, "missing ';' after '%.*s' (line %u)", (int)kw.len,
                        kw.s, kw.line);
    return advance(s);
}

static int parse_module(scanner *s)
{
    int rc = advance(s);
    char buf[64];
    while (rc == DGPB_OK && s->lex.tok.kind != TOK_EOF) {
        attr attrs[MAX_ATTRS];
        size_t nattrs;
        if ((rc = parse_attrs(s, attrs, &nattrs)) != DGPB_OK)
            return rc;
        const token *t = &s->lex.tok;
        bool plain = text_tok_is(t, "struct") || text_tok_is(t, "alias") ||
                     text_tok_is(t, "const") || text_tok_is(t, "const_assert") ||
                     text_tok_is(t, "enable") || text_tok_is(t, "requires") ||
                     text_tok_is(t, "diagnostic") || text_is_punct(t, ';');
        if (plain && nattrs)
            return text_bad(&s->lex, &attrs[0].name, "@%.*s does not apply to %s",
                            (int)attrs[0].name.len, attrs[0].name.s,
                            text_scan_show(t, buf, sizeof buf));
        if (text_tok_is(t, "var")) {
            rc = parse_var(s, attrs, nattrs);
        } else if (text_tok_is(t, "fn")) {
            rc = parse_fn(s, attrs, nattrs);
        } else if (text_tok_is(t, "struct")) {
            rc = parse_struct(s);
        } else if (text_tok_is(t, "alias")) {
            rc = parse_alias(s);
        } else if (text_tok_is(t, "override")) {
            for (size_t i = 0; i < nattrs; i++)
                if (!text_tok_is(&attrs[i].name, "id"))
                    return text_bad(&s->lex, &attrs[i].name, "@%.*s does not apply to an override",
                                    (int)attrs[i].name.len, attrs[i].name.s);
            rc = skip_decl(s, true);
        } else if (text_tok_is(t, "const")) {
            rc = skip_decl(s, true);
        } else if (plain && !text_is_punct(t, ';')) {
            rc = skip_decl(s, false);
        } else if (text_is_punct(t, ';')) {
            rc = advance(s);
        } else {
            return text_bad(&s->lex, t, "unexpected %s at module scope",
                            text_scan_show(t, buf, sizeof buf));
        }
    }
    return rc;
}

/* ---- workgroup memory ------------------------------------------------------- */

typedef struct layout {
    uint64_t align, size;
    bool known;
} layout;

/* Types larger than this are refused (DGPB_ERR_LIMIT); no sum or product of them overflows. */
#define MAX_TYPE_SIZE ((uint64_t)1 << 48)

static uint64_t round_up(uint64_t x, uint64_t align)
{
    return align ? (x + align - 1) / align * align : x;
}

static int cmp_named(const void *a, const void *b)
{
    const named_type *x = a, *y = b;
    size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
    int c = memcmp(x->name.s, y->name.s, n);
    if (c)
        return c;
    return x->name.len < y->name.len ? -1 : x->name.len > y->name.len;
}

static named_type *find_named(scanner *s, const token *name)
{
    named_type key = {.name = *name};
    if (!s->type_count)
        return NULL;
    return bsearch(&key, s->types, s->type_count, sizeof key, cmp_named);
}

/* The element size of a scalar name (i32, u32, f32, f16, bool); 0 for anything else. */
static uint64_t scalar_size(const token *t)
{
    if (text_tok_is(t, "i32") || text_tok_is(t, "u32") || text_tok_is(t, "f32") ||
        text_tok_is(t, "bool"))
        return 4;
    return text_tok_is(t, "f16") ? 2 : 0;
}

static int type_layout(scanner *s, int depth, layout *out);

/* A struct's layout: members at roundUp(@align or AlignOf, end of the previous one). */
static int struct_layout(scanner *s, named_type *nt, int depth, layout *out)
{
    int rc;
    restore(s, nt->at);
    if ((rc = advance(s)) != DGPB_OK)
        return rc;
    uint64_t offset = 0, align = 1;
    bool known = true;
    while (!text_is_punct(&s->lex.tok, '}') && s->lex.tok.kind != TOK_EOF) {
        attr attrs[MAX_ATTRS];
        size_t nattrs;
        layout ml;
        if ((rc = parse_attrs(s, attrs, &nattrs)) != DGPB_OK)
            return rc;
        token member = s->lex.tok;
        if ((rc = advance(s)) != DGPB_OK || (rc = advance(s)) != DGPB_OK) /* name ':' */
            return rc;
        if ((rc = type_layout(s, depth + 1, &ml)) != DGPB_OK)
            return rc;
        for (size_t i = 0; i < nattrs; i++) {
            bool a = text_tok_is(&attrs[i].name, "align"), z = text_tok_is(&attrs[i].name, "size");
            if (!a && !z)
                continue;
            if (attrs[i].lit[0] != LIT_OK) {
                ml.known = false;
            } else if (a) {
                ml.align = attrs[i].value[0];
            } else {
                if (ml.known && attrs[i].value[0] < ml.size)
                    return text_bad(&s->lex, &attrs[i].first[0],
                                    "@size of member '%.*s' is smaller than "
                                    "its type (%llu bytes)",
                                    (int)member.len, member.s, (unsigned long long)ml.size);
                ml.size = attrs[i].value[0];
            }
        }
        known = known && ml.known;
        offset = round_up(offset, ml.align) + ml.size;
        if (ml.align > align)
            align = ml.align;
        if (offset > MAX_TYPE_SIZE)
            return text_fail_at(&s->lex, DGPB_ERR_LIMIT, member.off, member.line,
                                "struct '%.*s' is larger than %llu bytes", (int)nt->name.len,
                                nt->name.s, (unsigned long long)MAX_TYPE_SIZE);
        if (text_is_punct(&s->lex.tok, ',') && (rc = advance(s)) != DGPB_OK)
            return rc;
    }
    *out = (layout){align, round_up(offset, align), known};
    return DGPB_OK;
}

/* A struct's or alias's layout, computed once. */
static int named_layout(scanner *s, named_type *nt, int depth, layout *out)
{
    if (nt->state == 1)
        return text_bad(&s->lex, &nt->name, "'%.*s' contains itself", (int)nt->name.len,
                        nt->name.s);
    if (nt->state == 0) {
        layout l;
        int rc;
        nt->state = 1;
        if (nt->is_struct) {
            rc = struct_layout(s, nt, depth, &l);
        } else {
            restore(s, nt->at);
            rc = type_layout(s, depth + 1, &l);
        }
        if (rc != DGPB_OK)
            return rc;
        nt->align = l.align;
        nt->size = l.size;
        nt->known = l.known;
        nt->state = 2;
    }
    *out = (layout){nt->align, nt->size, nt->known};
    return DGPB_OK;
}

/* The scalar of vecN<T> / matCxR<T> or of a shorthand suffix (vec3f, mat4x4h); 0 if none. */
static uint64_t element_size(const type_info *ti, size_t stem)
{
    const token *n = &ti->name;
    if (n->len == stem && ti->nargs == 1 && ti->single[0])
        return scalar_size(&ti->arg[0].tok);
    if (n->len == stem + 1 && ti->nargs == 0) {
        char c = n->s[stem];
        return c == 'f' || c == 'i' || c == 'u' ? 4 : c == 'h' ? 2 : 0;
    }
    return 0;
}

/* The layout of the type at the current token; leaves the scanner after it. */
static int type_layout(scanner *s, int depth, layout *out)
{
    int rc;
    type_info ti;
    if (depth > DGPB_WGSL_MAX_TYPE_DEPTH)
        return text_fail_at(&s->lex, DGPB_ERR_LIMIT, s->lex.tok.off, s->lex.tok.line,
                            "types nest deeper than %d (through arrays, structs and aliases)",
                            DGPB_WGSL_MAX_TYPE_DEPTH);
    if ((rc = parse_type(s, &ti)) != DGPB_OK)
        return rc;
    mark end = save(s);
    const token *n = &ti.name;
    uint64_t e;
    *out = (layout){1, 0, false};
    if ((e = scalar_size(n)) != 0 && ti.nargs == 0) {
        *out = (layout){e, e, true};
    } else if (text_tok_is(n, "atomic")) {
        if (ti.nargs == 1 && ti.single[0] &&
            (text_tok_is(&ti.arg[0].tok, "i32") || text_tok_is(&ti.arg[0].tok, "u32")))
            *out = (layout){4, 4, true};
    } else if (n->len >= 4 && memcmp(n->s, "vec", 3) == 0 && n->s[3] >= '2' && n->s[3] <= '4') {
        uint64_t count = (uint64_t)(n->s[3] - '0');
        if ((e = element_size(&ti, 4)) != 0)
            *out = (layout){(count == 2 ? 2 : 4) * e, count * e, true};
    } else if (n->len >= 6 && memcmp(n->s, "mat", 3) == 0 && n->s[3] >= '2' && n->s[3] <= '4' &&
               n->s[4] == 'x' && n->s[5] >= '2' && n->s[5] <= '4') {
        uint64_t cols = (uint64_t)(n->s[3] - '0'), rows = (uint64_t)(n->s[5] - '0');
        if ((e = element_size(&ti, 6)) != 0) {
            uint64_t col_align = (rows == 2 ? 2 : 4) * e;
            *out = (layout){col_align, cols * col_align, true};
        }
    } else if (text_tok_is(n, "array")) {
        if (ti.nargs == 2) {
            layout el;
            uint64_t count = 0;
            restore(s, ti.arg[0]);
            if ((rc = type_layout(s, depth + 1, &el)) != DGPB_OK)
                return rc;
            restore(s, ti.arg[1]);
            token at = s->lex.tok;
            int lit = literal_arg(s, '>', &count, &rc);
            if (rc != DGPB_OK)
                return rc;
            if (lit == LIT_RANGE || (lit == LIT_OK && count == 0))
                return text_bad(&s->lex, &at, "array count of '%.*s' is out of range", (int)n->len,
                                n->s);
            uint64_t stride = round_up(el.size, el.align);
            if (lit == LIT_OK && stride && count > MAX_TYPE_SIZE / stride)
                return text_fail_at(&s->lex, DGPB_ERR_LIMIT, at.off, at.line,
                                    "an array is larger than %llu bytes",
                                    (unsigned long long)MAX_TYPE_SIZE);
            *out =
                (layout){el.align, lit == LIT_OK ? count * stride : 0, el.known && lit == LIT_OK};
        }
    } else if (ti.nargs == 0) {
        named_type *nt = find_named(s, n);
        if (nt && (rc = named_layout(s, nt, depth + 1, out)) != DGPB_OK)
            return rc;
    }
    restore(s, end);
    return DGPB_OK;
}

/* Sorts the structs and aliases by name, then sizes every var<workgroup>. */
static int size_workgroup(scanner *s)
{
    dgpb_wgsl_module *m = s->m;
    m->workgroup_bytes_known = true;
    if (s->type_count)
        qsort(s->types, s->type_count, sizeof *s->types, cmp_named);
    for (size_t i = 1; i < s->type_count; i++) {
        const named_type *a = &s->types[i - 1], *b = &s->types[i];
        if (tok_eq(&a->name, &b->name)) {
            const named_type *later = a->name.off > b->name.off ? a : b;
            const named_type *first = later == a ? b : a;
            return text_bad(&s->lex, &later->name, "'%.*s' is declared twice (first at line %u)",
                            (int)later->name.len, later->name.s, first->name.line);
        }
    }
    for (size_t i = 0; i < s->workgroup_count; i++) {
        layout l;
        restore(s, s->workgroup[i]);
        int rc = type_layout(s, 0, &l);
        if (rc != DGPB_OK)
            return rc;
        m->workgroup_bytes += round_up(l.size, 16);
        if (!l.known)
            m->workgroup_bytes_known = false;
    }
    return DGPB_OK;
}

/* ---- the API ---------------------------------------------------------------- */

int dgpb_wgsl_scan(const char *text, size_t len, dgpb_wgsl_module **out, dgpb_diag *diag)
{
    if (out)
        *out = NULL;
    if (!out || (!text && len))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "dgpb_wgsl_scan: NULL argument");
    scanner s = {
        .lex = {.text = text ? text : "", .len = len, .line = 1, .diag = diag, .language = "WGSL"}};
    size_t bad_at = 0;
    if (!utf8_valid(s.lex.text, len, &bad_at)) {
        uint32_t line = 1;
        for (size_t i = 0; i < bad_at; i++)
            if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n')))
                line++;
        return text_fail_at(&s.lex, DGPB_ERR_CORRUPT, bad_at, line, "%s at byte %zu",
                            text[bad_at] ? "invalid UTF-8" : "a NUL byte", bad_at);
    }
    if (!(s.m = mem_calloc(1, sizeof *s.m)))
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory scanning WGSL");
    int rc = parse_module(&s);
    if (rc == DGPB_OK)
        rc = size_workgroup(&s);
    dgpb_free(s.types);
    dgpb_free(s.workgroup);
    if (rc != DGPB_OK) {
        if (rc == DGPB_ERR_NOMEM)
            dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory scanning WGSL");
        dgpb_wgsl_module_free(s.m);
        return rc;
    }
    *out = s.m;
    return DGPB_OK;
}

void dgpb_wgsl_module_free(dgpb_wgsl_module *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->binding_count; i++) {
        dgpb_wgsl_binding *b = &m->bindings[i];
        dgpb_free(b->name);
        dgpb_free(b->type);
        dgpb_free(b->texel_format);
        dgpb_free(b->access);
        dgpb_free(b->sample_type);
        dgpb_free(b->dimension);
    }
    for (size_t i = 0; i < m->entry_count; i++)
        dgpb_free(m->entries[i].name);
    dgpb_free(m->bindings);
    dgpb_free(m->entries);
    dgpb_free(m);
}

const dgpb_wgsl_binding *dgpb_wgsl_find_binding(const dgpb_wgsl_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (size_t i = 0; i < m->binding_count; i++)
        if (strcmp(m->bindings[i].name, name) == 0)
            return &m->bindings[i];
    return NULL;
}
