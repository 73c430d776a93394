/*
 * text_scan.c - the token tests and messages of the strict text scanners
 * (text_scan.h).
 */
#include "code/text_scan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

static int vfail(const text_scanner *s, int code, size_t off, uint32_t line, const char *fmt,
                 va_list ap)
{
    char what[64];
    const char *lang = s->language;
    if (code == DGPB_ERR_CORRUPT)
        snprintf(what, sizeof what, "malformed %s", lang);
    else if (code == DGPB_ERR_UNSUPPORTED)
        snprintf(what, sizeof what, "unsupported %s", lang);
    else if (code == DGPB_ERR_SHADER)
        snprintf(what, sizeof what, "invalid %s", lang);
    else
        snprintf(what, sizeof what, "%s over a limit", lang);
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    dgpb_diag_set(s->diag, code, (int64_t)off, "%s: line %u: %s", what, line, msg);
    if (s->diag)
        s->diag->line = line;
    return code;
}

int text_fail_at(const text_scanner *s, int code, size_t off, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(s, code, off, line, fmt, ap);
    va_end(ap);
    return rc;
}

int text_bad(const text_scanner *s, const text_token *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vfail(s, DGPB_ERR_CORRUPT, t->off, t->line, fmt, ap);
    va_end(ap);
    return rc;
}

const char *text_scan_show(const text_token *t, char *buf, size_t n)
{
    if (t->kind == TEXT_TOKEN_EOF)
        snprintf(buf, n, "the end of the input");
    else
        snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
    return buf;
}

bool text_tok_is(const text_token *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == TEXT_TOKEN_WORD && t->len == n && memcmp(t->s, word, n) == 0;
}

int text_expect(const text_scanner *s, char c, const char *where)
{
    if (text_is_punct(&s->tok, c))
        return DGPB_OK;
    char buf[64];
    return text_bad(s, &s->tok, "expected '%c' %s, found %s", c, where,
                    text_scan_show(&s->tok, buf, sizeof buf));
}

char *text_tokdup(const text_token *t)
{
    char *p = mem_alloc(t->len + 1);
    if (p) {
        memcpy(p, t->s, t->len);
        p[t->len] = 0;
    }
    return p;
}
