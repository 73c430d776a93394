/*
 * text_scan.c - the messages of the strict text scanners (text_scan.h).
 */
#include "scan/text_scan.h"

#include <stdio.h>

int text_scan_fail(dgpb_diag *diag, int code, const char *what, size_t off, uint32_t line,
                   const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    dgpb_diag_set(diag, code, (int64_t)off, "%s: line %u: %s", what, line, msg);
    if (diag)
        diag->line = line;
    return code;
}

const char *text_scan_show(const text_token *t, char *buf, size_t n)
{
    if (t->kind == TEXT_TOKEN_EOF)
        snprintf(buf, n, "the end of the input");
    else
        snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
    return buf;
}
