/*
 * text_scan.h - what the strict scanners of Slang's text output (PTX,
 * ptx_scan.c; WGSL, wgsl_scan.c) share: their token, and their messages
 * ("<what>: line N: <message>", with the byte offset and line in the
 * diagnostic) (internal).
 */
#ifndef DGPB_TEXT_SCAN_H
#define DGPB_TEXT_SCAN_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define text_scan_fail dgpb__text_scan_fail
#define text_scan_show dgpb__text_scan_show

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

/* The characters of a C-like identifier (Slang's, WGSL's): ASCII letters and '_', then digits. */
static inline bool text_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool text_ident_char(char c)
{
    return text_ident_start(c) || (c >= '0' && c <= '9');
}

/* A token's kind 0 is always the end of the input; the others are each scanner's own. */
#define TEXT_TOKEN_EOF 0

typedef struct text_token {
    int kind;
    const char *s; /* into the text */
    size_t len;
    size_t off;
    uint32_t line;
} text_token;

/*
 * Fills `diag` (may be NULL) with `code`, the byte offset `off` and the
 * line, the message reading "<what>: line <line>: <fmt ...>"; returns `code`.
 */
int text_scan_fail(dgpb_diag *diag, int code, const char *what, size_t off, uint32_t line,
                   const char *fmt, va_list ap);

/* A token as a message shows it: 'text' (at most 40 bytes) or "the end of the input". */
const char *text_scan_show(const text_token *t, char *buf, size_t n);

#endif
