/*
 * ptx_lex.c - the PTX scanner's lexer and token classes (ptx_lex.h).
 */
#include "code/ptx/ptx_lex.h"

#include <string.h>

static bool is_alpha(unsigned char c)
{
    return (c | 32) >= 'a' && (c | 32) <= 'z';
}

static bool is_word_char(unsigned char c)
{
    return is_alpha(c) || text_is_digit(c) || c == '_' || c == '$' || c == '.';
}

int ptx_advance(text_scanner *s)
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
            while (i < n && t[i] != '\n' && t[i] != '\r' && t[i] != 0)
                i++;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            token open = {TOK_PUNCT, t + i, 2, i, s->line};
            i += 2;
            for (;;) {
                if (i >= n)
                    return text_bad(s, &open, "unterminated block comment");
                if (t[i] == 0) {
                    token nul = {TOK_PUNCT, t + i, 1, i, s->line};
                    return text_bad(s, &nul, "a NUL byte in a comment");
                }
                if (t[i] == '*' && i + 1 < n && t[i + 1] == '/')
                    break;
                if (text_is_line_break(t, i, n))
                    s->line++;
                i++;
            }
            i += 2;
        } else {
            break;
        }
    }
    token tok = {TOK_PUNCT, t + i, 1, i, s->line};
    unsigned char c = (unsigned char)t[i];
    if (is_alpha(c) || c == '_' || c == '$' || c == '%' ||
        (c == '.' && i + 1 < n && (is_alpha((unsigned char)t[i + 1]) || t[i + 1] == '_'))) {
        /* identifiers, registers (%r1, %ctaid.x), directives (.param), opcodes
           (ld.param.v2.f32, ld.shared::cta.u32) */
        tok.kind = TOK_WORD;
        i++;
        while (i < n) {
            if (is_word_char((unsigned char)t[i]))
                i++;
            else if (t[i] == ':' && i + 1 < n && t[i + 1] == ':')
                i += 2;
            else
                break;
        }
    } else if (text_is_digit(c)) {
        tok.kind = TOK_NUMBER;
        bool radix = c == '0' && i + 1 < n && strchr("xXfFdDbB", t[i + 1]) && t[i + 1];
        i++;
        while (i < n) {
            unsigned char d = (unsigned char)t[i];
            if (is_alpha(d) || text_is_digit(d) || d == '.' || d == '_')
                i++;
            else if ((d == '+' || d == '-') && !radix && (t[i - 1] | 32) == 'e')
                i++;
            else
                break;
        }
    } else if (c == '"') {
        tok.kind = TOK_STRING;
        i++;
        for (;;) {
            if (i >= n || t[i] == '\n' || t[i] == '\r' || t[i] == 0)
                return text_bad(s, &tok, "unterminated string");
            if (t[i] == '\\' && i + 1 < n && t[i + 1] != '\n' && t[i + 1] != '\r')
                i += 2;
            else if (t[i++] == '"')
                break;
        }
    } else if (c != 0 && strchr("{}()[];,:+-*/<>=!@|&^~?", c)) {
        i++;
    } else {
        if (c >= 0x20 && c < 0x7f)
            return text_bad(s, &tok, "unexpected character '%c'", c);
        return text_bad(s, &tok, "unexpected byte 0x%02x", c);
    }
    tok.len = i - tok.off;
    s->tok = tok;
    s->pos = i;
    return DGPB_OK;
}

int ptx_expect_kind(text_scanner *s, int kind, const char *what)
{
    if (s->tok.kind == kind && (kind != TOK_WORD || ptx_is_name(&s->tok)))
        return DGPB_OK;
    char buf[64];
    return text_bad(s, &s->tok, "expected %s, found %s", what,
                    text_scan_show(&s->tok, buf, sizeof buf));
}

bool ptx_int_token(const token *t, uint64_t *v)
{
    if (t->kind != TOK_NUMBER)
        return false;
    size_t n = t->len, i = 0;
    if (t->s[n - 1] == 'U' || t->s[n - 1] == 'u')
        n--;
    unsigned base = 10;
    if (n > 2 && t->s[0] == '0' && (t->s[1] | 32) == 'x') {
        base = 16;
        i = 2;
    } else if (n > 2 && t->s[0] == '0' && (t->s[1] | 32) == 'b') {
        base = 2;
        i = 2;
    } else if (n > 1 && t->s[0] == '0') {
        base = 8;
        i = 1;
    }
    if (i >= n)
        return false;
    uint64_t x = 0;
    for (; i < n; i++) {
        unsigned char c = (unsigned char)t->s[i];
        unsigned d = text_is_digit(c) ? c - '0' : is_alpha(c) ? (c | 32) - 'a' + 10 : 99;
        if (d >= base)
            return false;
        x = x > (UINT64_MAX - d) / base ? UINT64_MAX : x * base + d;
    }
    *v = x;
    return true;
}

int ptx_read_int(text_scanner *s, uint64_t *v, const char *what)
{
    char buf[64];
    if (!ptx_int_token(&s->tok, v))
        return text_bad(s, &s->tok, "expected %s, found %s", what,
                        text_scan_show(&s->tok, buf, sizeof buf));
    return ptx_advance(s);
}

uint32_t ptx_type_size(const token *t)
{
    static const struct {
        const char *name;
        uint32_t size;
    } types[] = {
        {".b8", 1},    {".u8", 1},     {".s8", 1},         {".pred", 1},    {".b16", 2},
        {".u16", 2},   {".s16", 2},    {".f16", 2},        {".bf16", 2},    {".b32", 4},
        {".u32", 4},   {".s32", 4},    {".f32", 4},        {".f16x2", 4},   {".bf16x2", 4},
        {".tf32", 4},  {".b64", 8},    {".u64", 8},        {".s64", 8},     {".f64", 8},
        {".b128", 16}, {".texref", 8}, {".samplerref", 8}, {".surfref", 8},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (text_tok_is(t, types[i].name))
            return types[i].size;
    return 0;
}

uint32_t ptx_vector_width(const token *t)
{
    return text_tok_is(t, ".v2") ? 2 : text_tok_is(t, ".v4") ? 4 : text_tok_is(t, ".v8") ? 8 : 0;
}

bool ptx_is_state_space(const token *t)
{
    return text_tok_is(t, ".global") || text_tok_is(t, ".const") || text_tok_is(t, ".shared") ||
           text_tok_is(t, ".local") || text_tok_is(t, ".param");
}

uint64_t ptx_access_width(const token *op)
{
    if (op->kind != TOK_WORD)
        return 0;
    const char *p = op->s, *end = op->s + op->len;
    const char *dot = memchr(p, '.', op->len);
    if (!dot)
        return 0;
    size_t base = (size_t)(dot - p);
    if (!((base == 2 && !memcmp(p, "ld", 2)) || (base == 3 && !memcmp(p, "ldu", 3)) ||
          (base == 2 && !memcmp(p, "st", 2)) || (base == 4 && !memcmp(p, "atom", 4)) ||
          (base == 3 && !memcmp(p, "red", 3))))
        return 0;
    uint64_t vec = 1, size = 0;
    for (const char *q = dot; q < end;) {
        const char *next = q + 1;
        while (next < end && *next != '.')
            next++;
        token part = {TOK_WORD, q, (size_t)(next - q), 0, 0};
        uint32_t v = ptx_vector_width(&part), z = ptx_type_size(&part);
        if (v)
            vec = v;
        if (z && !text_tok_is(&part, ".pred") && !text_tok_is(&part, ".texref") &&
            !text_tok_is(&part, ".samplerref") && !text_tok_is(&part, ".surfref"))
            size = z;
        q = next;
    }
    return vec * size;
}
