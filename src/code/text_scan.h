/*
 * text_scan.h - what the strict scanners of Slang's text output (PTX,
 * ptx_scan.c; WGSL, wgsl_scan.c) share: their token and lexer state, the
 * token tests, and their messages ("<what>: line N: <message>", with the
 * byte offset and line in the diagnostic) (internal).
 */
#ifndef DGPB_TEXT_SCAN_H
#define DGPB_TEXT_SCAN_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define text_scan_show dgpb__text_scan_show
#define text_fail_at dgpb__text_fail_at
#define text_bad dgpb__text_bad
#define text_expect dgpb__text_expect
#define text_tok_is dgpb__text_tok_is
#define text_tokdup dgpb__text_tokdup

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

/* Whether t[i] ends a line: '\n', or a '\r' not followed by '\n' (which then ends it). */
static inline bool text_is_line_break(const char *t, size_t i, size_t n)
{
    return t[i] == '\n' || (t[i] == '\r' && (i + 1 >= n || t[i + 1] != '\n'));
}

static inline bool text_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* The characters of a C-like identifier (Slang's, WGSL's): ASCII letters and '_', then digits. */
static inline bool text_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool text_ident_char(char c)
{
    return text_ident_start(c) || text_is_digit(c);
}

/*
 * The kinds of token both scanners have; a scanner's own kinds (PTX's
 * strings) start at TEXT_TOKEN_OWN. Kind 0 is always the end of the input.
 */
enum {
    TEXT_TOKEN_EOF,
    TEXT_TOKEN_WORD, /* an identifier; in PTX also a directive, register or opcode */
    TEXT_TOKEN_NUMBER,
    TEXT_TOKEN_PUNCT, /* one character */
    TEXT_TOKEN_OWN
};

typedef struct text_token {
    int kind;
    const char *s; /* into the text */
    size_t len;
    size_t off;
    uint32_t line;
} text_token;

/* A scanner's lexer: the text, where it stands, the current token and where messages go. */
typedef struct text_scanner {
    const char *text;
    size_t len, pos; /* pos: just past `tok` */
    uint32_t line;   /* the line at pos */
    text_token tok;
    dgpb_diag *diag;      /* may be NULL */
    const char *language; /* the text's language in messages: "PTX", "WGSL" */
} text_scanner;

/*
 * Fills the scanner's diagnostic with `code`, the byte offset `off` and the
 * line, the message reading "<what>: line <line>: <fmt ...>", <what> saying
 * what the text is by the code's class: "malformed <language>"
 * (DGPB_ERR_CORRUPT), "unsupported <language>" (DGPB_ERR_UNSUPPORTED),
 * "invalid <language>" (DGPB_ERR_SHADER) or "<language> over a limit"
 * (any other). Returns `code`.
 */
int text_fail_at(const text_scanner *s, int code, size_t off, uint32_t line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* text_fail_at() with DGPB_ERR_CORRUPT at token t. */
int text_bad(const text_scanner *s, const text_token *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A token as a message shows it: 'text' (at most 40 bytes) or "the end of the input". */
const char *text_scan_show(const text_token *t, char *buf, size_t n);

static inline bool text_is_punct(const text_token *t, char c)
{
    return t->kind == TEXT_TOKEN_PUNCT && t->s[0] == c;
}

/* Whether the token is the word `word`. */
bool text_tok_is(const text_token *t, const char *word);

/*
 * Requires punctuation c at the current token: DGPB_OK, or DGPB_ERR_CORRUPT
 * "expected 'c' <where>, found <the token>".
 */
int text_expect(const text_scanner *s, char c, const char *where);

/* The token's text as a new string (the caller frees it with dgpb_free()); NULL: out of memory. */
char *text_tokdup(const text_token *t);

#endif
