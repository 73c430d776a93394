/*
 * work_request.c - one Bazel work request read strictly and in place
 * (work_request.h): a small JSON reader (RFC 8259) that keeps nothing but
 * the arguments' vector.
 */
#include "work_request.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    char *text;
    size_t size, pos;
    int status;      /* the worst so far: WORK_REQUEST_OK, _WRONG, _NOT_JSON, _NOMEM */
    const char *why; /* the first reason of that status */
    size_t at;       /* where the text stopped being JSON */
} parser;

/* Records a failure; a worse status replaces a lesser one's reason. Returns false. */
static bool fail(parser *p, int status, const char *why)
{
    if (status > p->status) {
        p->status = status;
        p->why = why;
        p->at = p->pos;
    }
    return false;
}

static bool not_json(parser *p, const char *why)
{
    return fail(p, WORK_REQUEST_NOT_JSON, why);
}

static void wrong(parser *p, const char *why)
{
    if (p->status == WORK_REQUEST_OK)
        fail(p, WORK_REQUEST_WRONG, why);
}

static void white(parser *p)
{
    while (p->pos < p->size && strchr(" \t\n\r", p->text[p->pos]) && p->text[p->pos])
        p->pos++;
}

/* The byte at the position, or 0 past the end. */
static char peek(const parser *p)
{
    return p->pos < p->size ? p->text[p->pos] : 0;
}

static bool literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->size - p->pos < n || memcmp(p->text + p->pos, word, n))
        return not_json(p, "not a JSON value");
    p->pos += n;
    return true;
}

static int hex4(const char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

/* Writes code point `cp` as UTF-8 at *w. */
static void put_utf8(char **w, uint32_t cp)
{
    unsigned char *o = (unsigned char *)*w;
    if (cp < 0x80) {
        *o++ = (unsigned char)cp;
    } else if (cp < 0x800) {
        *o++ = (unsigned char)(0xC0 | (cp >> 6));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (unsigned char)(0xE0 | (cp >> 12));
        *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (unsigned char)(0xF0 | (cp >> 18));
        *o++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    }
    *w = (char *)o;
}

/*
 * Reads a string at the position, unescaped in place: *out points at its
 * text, NUL-terminated over what was its closing quote or before it
 * (an escape is never shorter than what it stands for). *nul is set when
 * it holds a NUL (\u0000).
 */
static bool string(parser *p, char **out, size_t *len, bool *nul)
{
    if (peek(p) != '"')
        return not_json(p, "not a JSON string");
    p->pos++;
    char *start = p->text + p->pos, *w = start;
    *nul = false;
    for (;;) {
        if (p->pos >= p->size)
            return not_json(p, "a string without its closing quote");
        unsigned char c = (unsigned char)p->text[p->pos];
        if (c == '"')
            break;
        if (c < 0x20)
            return not_json(p, "a control character in a string");
        if (c != '\\') {
            *w++ = (char)c;
            p->pos++;
            continue;
        }
        if (p->size - p->pos < 2)
            return not_json(p, "a string without its closing quote");
        char e = p->text[p->pos + 1];
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *k = e ? strchr(from, e) : NULL;
        if (k) {
            *w++ = to[k - from];
            p->pos += 2;
            continue;
        }
        if (e != 'u')
            return not_json(p, "an unknown escape in a string");
        int hi = p->size - p->pos >= 6 ? hex4(p->text + p->pos + 2) : -1;
        if (hi < 0)
            return not_json(p, "a \\u escape without four hex digits");
        p->pos += 6;
        uint32_t cp = (uint32_t)hi;
        if (hi >= 0xDC00 && hi <= 0xDFFF)
            return not_json(p, "a lone UTF-16 surrogate in a string");
        if (hi >= 0xD800 && hi <= 0xDBFF) {
            int lo = p->size - p->pos >= 6 && p->text[p->pos] == '\\' && p->text[p->pos + 1] == 'u'
                         ? hex4(p->text + p->pos + 2)
                         : -1;
            if (lo < 0xDC00 || lo > 0xDFFF)
                return not_json(p, "a lone UTF-16 surrogate in a string");
            p->pos += 6;
            cp = 0x10000 + (((uint32_t)hi - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
        }
        if (cp == 0)
            *nul = true;
        put_utf8(&w, cp);
    }
    p->pos++; /* the closing quote; w is at or before it */
    *w = 0;
    *out = start;
    *len = (size_t)(w - start);
    return true;
}

/* Reads a number at the position (RFC 8259's grammar); *start and *len give its text. */
static bool number(parser *p, size_t *start, size_t *len)
{
    *start = p->pos;
    if (peek(p) == '-')
        p->pos++;
    if (peek(p) == '0') {
        p->pos++;
    } else if (peek(p) >= '1' && peek(p) <= '9') {
        while (peek(p) >= '0' && peek(p) <= '9')
            p->pos++;
    } else {
        return not_json(p, "not a JSON value");
    }
    if (peek(p) == '.') {
        p->pos++;
        if (!(peek(p) >= '0' && peek(p) <= '9'))
            return not_json(p, "a number without digits after its point");
        while (peek(p) >= '0' && peek(p) <= '9')
            p->pos++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-')
            p->pos++;
        if (!(peek(p) >= '0' && peek(p) <= '9'))
            return not_json(p, "a number without digits in its exponent");
        while (peek(p) >= '0' && peek(p) <= '9')
            p->pos++;
    }
    *len = p->pos - *start;
    return true;
}

static bool value(parser *p, int depth);

/* Reads an object member's key and the ':' after it, up to its value. */
static bool member_key(parser *p, char **key, size_t *len, bool *nul)
{
    if (!string(p, key, len, nul))
        return false;
    white(p);
    if (peek(p) != ':')
        return not_json(p, "a member without ':'");
    p->pos++;
    white(p);
    return true;
}

/* Reads an array or object's members after its opening bracket, each by `member`. */
static bool members(parser *p, int depth, bool object)
{
    char close = object ? '}' : ']';
    if (depth >= WORK_REQUEST_DEPTH)
        return not_json(p, "values nested too deep");
    p->pos++;
    white(p);
    if (peek(p) == close) {
        p->pos++;
        return true;
    }
    for (;;) {
        char *key;
        size_t len;
        bool nul;
        if (object && !member_key(p, &key, &len, &nul))
            return false;
        if (!value(p, depth + 1))
            return false;
        white(p);
        if (peek(p) == close) {
            p->pos++;
            return true;
        }
        if (peek(p) != ',')
            return not_json(p, object ? "an object member without ',' or '}' after it"
                                      : "an array item without ',' or ']' after it");
        p->pos++;
        white(p);
    }
}

/* Checks and skips any JSON value. */
static bool value(parser *p, int depth)
{
    char *s;
    size_t start, len;
    bool nul;
    switch (peek(p)) {
    case '{':
        return members(p, depth, true);
    case '[':
        return members(p, depth, false);
    case '"':
        return string(p, &s, &len, &nul);
    case 't':
        return literal(p, "true");
    case 'f':
        return literal(p, "false");
    case 'n':
        return literal(p, "null");
    default:
        return number(p, &start, &len);
    }
}

/* Whether text[0, len) is the decimal digits of an integer from 0 to INT_MAX; sets *id. */
static bool strict_id(const char *text, size_t len, int *id)
{
    if (len == 0 || len > 10 || (text[0] == '0' && len > 1))
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(text[i] - '0');
    }
    if (v > INT_MAX)
        return false;
    *id = (int)v;
    return true;
}

static bool request_id(parser *p, work_request *r)
{
    static const char *const bad = "its requestId is not an integer from 0 to 2147483647 (in "
                                   "decimal digits, as a number or a string)";
    char c = peek(p);
    if (c == 'n')
        return literal(p, "null");
    if (c == '"' || c == '-' || (c >= '0' && c <= '9')) {
        char *s;
        size_t start, len;
        bool nul;
        bool ok = c == '"' ? string(p, &s, &len, &nul) : number(p, &start, &len);
        if (!ok)
            return false;
        if (!strict_id(c == '"' ? s : p->text + start, len, &r->id))
            wrong(p, bad);
        return true;
    }
    wrong(p, bad);
    return value(p, 1);
}

/* Appends one argument after the lead slots; false when out of memory. */
static bool push(work_request *r, size_t *cap, size_t lead, char *arg)
{
    if (lead + r->arg_count + 2 > *cap) {
        size_t n = *cap ? *cap * 2 : lead + 64;
        char **grown = realloc(r->argv, n * sizeof *grown);
        if (!grown)
            return false;
        r->argv = grown;
        *cap = n;
    }
    r->argv[lead + r->arg_count++] = arg;
    r->argv[lead + r->arg_count] = NULL;
    return true;
}

static bool arguments(parser *p, work_request *r, size_t *cap, size_t lead)
{
    if (peek(p) != '[') {
        wrong(p, "its arguments are not an array");
        return value(p, 1);
    }
    p->pos++;
    white(p);
    if (peek(p) == ']') {
        p->pos++;
        return true;
    }
    for (;;) {
        if (peek(p) == '"') {
            char *s;
            size_t len;
            bool nul;
            if (!string(p, &s, &len, &nul))
                return false;
            if (nul)
                wrong(p, "an argument holds a NUL (\\u0000)");
            if (!push(r, cap, lead, s))
                return fail(p, WORK_REQUEST_NOMEM, "out of memory for a work request");
        } else {
            wrong(p, "its arguments are not all strings");
            if (!value(p, 2))
                return false;
        }
        white(p);
        if (peek(p) == ']') {
            p->pos++;
            return true;
        }
        if (peek(p) != ',')
            return not_json(p, "an array item without ',' or ']' after it");
        p->pos++;
        white(p);
    }
}

/* The request's members, each read by its key. */
static bool request(parser *p, work_request *r, size_t *cap, size_t lead)
{
    white(p);
    if (peek(p) != '{')
        return not_json(p, "not a JSON object");
    p->pos++;
    white(p);
    if (peek(p) == '}') {
        p->pos++;
        return true;
    }
    unsigned seen = 0;
    for (;;) {
        char *key;
        size_t len;
        bool nul;
        if (!member_key(p, &key, &len, &nul))
            return false;
        static const char *const known[] = {"arguments", "requestId", "cancel", "sandboxDir"};
        int k = -1;
        for (int i = 0; i < 4 && !nul; i++)
            if (!strcmp(key, known[i]))
                k = i;
        if (k >= 0 && (seen & (1u << k)))
            wrong(p, "it names one of arguments, requestId, cancel, sandboxDir twice");
        if (k >= 0)
            seen |= 1u << k;
        bool ok;
        if (k == 0) {
            ok = arguments(p, r, cap, lead);
        } else if (k == 1) {
            ok = request_id(p, r);
        } else if (k == 2) {
            char c = peek(p);
            if (c == 't' || c == 'f') {
                ok = literal(p, c == 't' ? "true" : "false");
                r->cancel = c == 't';
            } else {
                wrong(p, "its cancel is not true or false");
                ok = value(p, 1);
            }
        } else if (k == 3 && peek(p) == '"') {
            char *s;
            size_t n;
            ok = string(p, &s, &n, &nul);
            r->sandbox = ok && n > 0;
        } else {
            if (k == 3 && peek(p) != 'n')
                wrong(p, "its sandboxDir is not a string");
            ok = value(p, 1);
        }
        if (!ok)
            return false;
        white(p);
        if (peek(p) == '}') {
            p->pos++;
            break;
        }
        if (peek(p) != ',')
            return not_json(p, "an object member without ',' or '}' after it");
        p->pos++;
        white(p);
    }
    white(p);
    if (p->pos != p->size)
        return not_json(p, "text after the request's object");
    return true;
}

int work_request_parse(char *text, size_t size, size_t lead, work_request *r, const char **why,
                       size_t *at)
{
    memset(r, 0, sizeof *r);
    parser p = {.text = text, .size = size};
    size_t cap = 0;
    request(&p, r, &cap, lead);
    if (p.status == WORK_REQUEST_OK && !r->argv) {
        r->argv = calloc(lead + 1, sizeof *r->argv);
        if (!r->argv)
            fail(&p, WORK_REQUEST_NOMEM, "out of memory for a work request");
    }
    *why = p.why;
    *at = p.at;
    return p.status;
}

void work_request_free(work_request *r)
{
    free(r->argv);
    memset(r, 0, sizeof *r);
}
