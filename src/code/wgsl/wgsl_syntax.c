/*
 * wgsl_syntax.c - the WGSL scanner's lexer, and the syntax that its grammar
 * and its sizes both read (wgsl_syntax.h).
 */
#include "code/wgsl/wgsl_syntax.h"

#include <string.h>

#include "core/alloc.h"
#include "code/wgsl/wgsl_scan.h"

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

int wgsl_advance(text_scanner *s)
{
    const char *t = s->text;
    size_t n = s->len, i = s->pos;
    for (;;) {
        if (i >= n) {
            s->tok = (token){TOK_EOF, t + n, 0, n, s->line};
            s->pos = n;
            return DGPB_OK;
        }
        unsigned char c = (unsigned char)t[i];
        if (text_is_line_break(t, i, n)) {
            s->line++;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r') {
            i++;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n' && t[i] != '\r')
                i++;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            size_t start = i;
            uint32_t line = s->line;
            uint64_t depth = 1;
            i += 2;
            while (depth) {
                if (i >= n)
                    return text_fail_at(s, DGPB_ERR_CORRUPT, start, line,
                                        "unterminated block comment");
                if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
                    depth++;
                    i += 2;
                } else if (t[i] == '*' && i + 1 < n && t[i + 1] == '/') {
                    depth--;
                    i += 2;
                } else {
                    if (text_is_line_break(t, i, n))
                        s->line++;
                    i++;
                }
            }
        } else {
            break;
        }
    }
    token tok = {TOK_PUNCT, t + i, 1, i, s->line};
    unsigned char c = (unsigned char)t[i];
    if (is_ident_start(c)) {
        tok.kind = TOK_IDENT;
        while (i < n && is_ident_char((unsigned char)t[i]))
            i++;
        const char *missing = missing_type(t + tok.off, i - tok.off);
        if (missing)
            return text_fail_at(s, DGPB_ERR_SHADER, tok.off, s->line,
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
            return text_fail_at(s, DGPB_ERR_CORRUPT, i, s->line, "unexpected character '%c'", c);
        return text_fail_at(s, DGPB_ERR_CORRUPT, i, s->line, "unexpected byte 0x%02x", c);
    }
    tok.len = i - tok.off;
    s->tok = tok;
    s->pos = i;
    return DGPB_OK;
}

int wgsl_expect_ident(text_scanner *s, const char *what)
{
    if (s->tok.kind == TOK_IDENT)
        return DGPB_OK;
    char buf[64];
    return text_bad(s, &s->tok, "expected %s, found %s", what,
                    text_scan_show(&s->tok, buf, sizeof buf));
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

int wgsl_literal_arg(text_scanner *s, char close, uint64_t *v, int *rc)
{
    mark start = wgsl_save(s);
    char conv = 0, suffix = 0;
    *rc = DGPB_OK;
    if (text_tok_is(&s->tok, "i32") || text_tok_is(&s->tok, "u32")) {
        conv = s->tok.s[0];
        if ((*rc = wgsl_advance(s)) != DGPB_OK)
            return LIT_NONE;
        if (!text_is_punct(&s->tok, '('))
            goto none;
        if ((*rc = wgsl_advance(s)) != DGPB_OK)
            return LIT_NONE;
    }
    if (!int_token(&s->tok, v, &suffix))
        goto none;
    if ((*rc = wgsl_advance(s)) != DGPB_OK)
        return LIT_NONE;
    if (conv) {
        if (!text_is_punct(&s->tok, ')') || (suffix && suffix != conv))
            goto none;
        suffix = conv;
        if ((*rc = wgsl_advance(s)) != DGPB_OK)
            return LIT_NONE;
    }
    if (!text_is_punct(&s->tok, ',') && !text_is_punct(&s->tok, close))
        goto none;
    return *v > (suffix == 'u' ? UINT32_MAX : (uint64_t)INT32_MAX) ? LIT_RANGE : LIT_OK;
none:
    wgsl_restore(s, start);
    return LIT_NONE;
}

/* ---- skipping balanced text ------------------------------------------------- */

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

int wgsl_skip(text_scanner *s, const char *stops, unsigned flags, size_t *count)
{
    char stack[DGPB_WGSL_MAX_NESTING];
    uint32_t open_line[DGPB_WGSL_MAX_NESTING];
    size_t depth = 0, skipped = 0;
    bool prev_ident = false, prev_word = false;
    char buf[64];
    int rc;
    for (;;) {
        const token *t = &s->tok;
        if (t->kind == TOK_EOF) {
            if (depth)
                return text_bad(s, t, "unterminated '%c' opened at line %u", stack[depth - 1],
                                open_line[depth - 1]);
            break;
        }
        if (depth == 0 && t->kind == TOK_PUNCT && strchr(stops, t->s[0]))
            break;
        if ((flags & SKIP_EXPR) &&
            (text_is_punct(t, '{') || text_is_punct(t, '}') || text_is_punct(t, '@') ||
             text_is_punct(t, ';') || is_decl_keyword(t)))
            return text_bad(s, t, "unexpected %s in an expression%s",
                            text_scan_show(t, buf, sizeof buf),
                            text_is_punct(t, ';') ? "" : " (missing ';'?)");
        bool word = t->kind == TOK_IDENT || t->kind == TOK_NUMBER;
        if ((flags & SKIP_EXPR) && word && prev_word)
            return text_bad(s, t, "expected an operator, ',' or ';' before %s",
                            text_scan_show(t, buf, sizeof buf));
        prev_word = word;
        if (t->kind == TOK_PUNCT) {
            char c = t->s[0];
            bool in_template = (flags & SKIP_TEMPLATES) && (depth == 0 || stack[depth - 1] == '<');
            if (c == '(' || c == '[' || c == '{' || (c == '<' && prev_ident && in_template)) {
                if (depth == DGPB_WGSL_MAX_NESTING)
                    return text_fail_at(s, DGPB_ERR_LIMIT, t->off, t->line,
                                        "brackets nest deeper than %d", DGPB_WGSL_MAX_NESTING);
                stack[depth] = c;
                open_line[depth++] = t->line;
            } else if (c == ')' || c == ']' || c == '}') {
                if (depth == 0)
                    return text_bad(s, t, "unexpected '%c'", c);
                if (c != closer_of(stack[depth - 1]))
                    return text_bad(s, t, "'%c' does not close the '%c' opened at line %u", c,
                                    stack[depth - 1], open_line[depth - 1]);
                depth--;
            } else if (c == '>' && depth && stack[depth - 1] == '<') {
                depth--;
            }
        }
        prev_ident = t->kind == TOK_IDENT;
        skipped++;
        if ((rc = wgsl_advance(s)) != DGPB_OK)
            return rc;
        if ((flags & SKIP_GROUP) && depth == 0)
            break;
    }
    if (count)
        *count = skipped;
    return DGPB_OK;
}

int wgsl_skip_expr(text_scanner *s, char close, size_t *count)
{
    char stops[3] = {',', close, 0};
    if (close == ';')
        stops[0] = ';';
    size_t n = 0;
    int rc = wgsl_skip(s, stops, SKIP_EXPR | (close == '>' ? SKIP_TEMPLATES : 0), &n);
    if (rc != DGPB_OK)
        return rc;
    if (n == 0) {
        char buf[64];
        return text_bad(s, &s->tok, "expected an expression, found %s",
                        text_scan_show(&s->tok, buf, sizeof buf));
    }
    if (count)
        *count = n;
    return DGPB_OK;
}

/* ---- attributes and types --------------------------------------------------- */

/* An attribute at '@': its name and its arguments, literal integers read. */
static int parse_attr(text_scanner *s, attr *a)
{
    int rc;
    memset(a, 0, sizeof *a);
    if ((rc = wgsl_advance(s)) != DGPB_OK ||
        (rc = wgsl_expect_ident(s, "an attribute name")) != DGPB_OK)
        return rc;
    a->name = s->tok;
    if ((rc = wgsl_advance(s)) != DGPB_OK)
        return rc;
    if (!text_is_punct(&s->tok, '('))
        return DGPB_OK;
    token open = s->tok;
    if ((rc = wgsl_advance(s)) != DGPB_OK)
        return rc;
    while (!text_is_punct(&s->tok, ')')) {
        if (a->nargs < ATTR_ARGS) {
            a->first[a->nargs] = s->tok;
            a->lit[a->nargs] = wgsl_literal_arg(s, ')', &a->value[a->nargs], &rc);
            if (rc != DGPB_OK)
                return rc;
        }
        if (a->nargs >= ATTR_ARGS || a->lit[a->nargs] == LIT_NONE)
            if ((rc = wgsl_skip_expr(s, ')', NULL)) != DGPB_OK)
                return rc;
        a->nargs++;
        if (text_is_punct(&s->tok, ',')) {
            if ((rc = wgsl_advance(s)) != DGPB_OK)
                return rc;
        } else if (!text_is_punct(&s->tok, ')')) {
            char buf[64];
            return text_bad(s, &s->tok,
                            "expected ',' or ')' in the arguments of @%.*s (opened at line %u), "
                            "found %s",
                            (int)a->name.len, a->name.s, open.line,
                            text_scan_show(&s->tok, buf, sizeof buf));
        }
    }
    return wgsl_advance(s);
}

int wgsl_parse_attrs(text_scanner *s, attr *attrs, size_t *n)
{
    *n = 0;
    while (text_is_punct(&s->tok, '@')) {
        if (*n == MAX_ATTRS)
            return text_fail_at(s, DGPB_ERR_LIMIT, s->tok.off, s->tok.line,
                                "more than %d attributes on one declaration", MAX_ATTRS);
        int rc = parse_attr(s, &attrs[(*n)++]);
        if (rc != DGPB_OK)
            return rc;
    }
    return DGPB_OK;
}

int wgsl_parse_type(text_scanner *s, type_info *ti)
{
    int rc;
    memset(ti, 0, sizeof *ti);
    if ((rc = wgsl_expect_ident(s, "a type")) != DGPB_OK)
        return rc;
    ti->name = s->tok;
    if ((rc = wgsl_advance(s)) != DGPB_OK || !text_is_punct(&s->tok, '<'))
        return rc;
    if ((rc = wgsl_advance(s)) != DGPB_OK)
        return rc;
    do {
        mark at = wgsl_save(s);
        size_t n = 0;
        if ((rc = wgsl_skip_expr(s, '>', &n)) != DGPB_OK)
            return rc;
        if (ti->nargs < TYPE_ARGS) {
            ti->arg[ti->nargs] = at;
            ti->single[ti->nargs] = n == 1;
        }
        ti->nargs++;
        if (text_is_punct(&s->tok, ',') && (rc = wgsl_advance(s)) != DGPB_OK)
            return rc;
    } while (!text_is_punct(&s->tok, '>') && s->tok.kind != TOK_EOF);
    if ((rc = text_expect(s, '>', "to close the template list")) != DGPB_OK)
        return rc;
    return wgsl_advance(s);
}

char *wgsl_type_text(text_scanner *s, mark start, mark end)
{
    size_t n = 0;
    char *out = NULL;
    for (int pass = 0; pass < 2; pass++) {
        wgsl_restore(s, start);
        size_t k = 0;
        bool space = false;
        while (s->tok.off < end.tok.off && s->tok.kind != TOK_EOF) {
            if (space && !text_is_punct(&s->tok, '>')) {
                if (out)
                    out[k] = ' ';
                k++;
            }
            if (out)
                memcpy(out + k, s->tok.s, s->tok.len);
            k += s->tok.len;
            space = text_is_punct(&s->tok, ',');
            if (wgsl_advance(s) != DGPB_OK)
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
    wgsl_restore(s, end);
    return out;
}
