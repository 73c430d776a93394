/*
 * wgsl_syntax.h - the lexer of the WGSL scanner and the pieces of syntax
 * that both the module grammar (wgsl_scan.c) and the sizes of workgroup
 * memory (wgsl_layout.c) read: marks (saved positions), integer literals,
 * balanced text, attributes and types (internal).
 */
#ifndef DGPB_WGSL_SYNTAX_H
#define DGPB_WGSL_SYNTAX_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define wgsl_advance dgpb__wgsl_advance
#define wgsl_expect_ident dgpb__wgsl_expect_ident
#define wgsl_literal_arg dgpb__wgsl_literal_arg
#define wgsl_skip dgpb__wgsl_skip
#define wgsl_skip_expr dgpb__wgsl_skip_expr
#define wgsl_parse_attrs dgpb__wgsl_parse_attrs
#define wgsl_parse_type dgpb__wgsl_parse_type
#define wgsl_type_text dgpb__wgsl_type_text

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "code/text_scan.h"

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

static inline mark wgsl_save(const text_scanner *s)
{
    return (mark){s->pos, s->line, s->tok};
}

static inline void wgsl_restore(text_scanner *s, mark m)
{
    s->pos = m.pos;
    s->line = m.line;
    s->tok = m.tok;
}

static inline bool wgsl_tok_eq(const token *a, const token *b)
{
    return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

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

/*
 * Moves to the next token (s->tok), past blank space and comments.
 * DGPB_ERR_CORRUPT at a byte that starts no token or an unterminated comment;
 * DGPB_ERR_SHADER at a name of a type that WGSL does not have (i64, f64, ...).
 */
int wgsl_advance(text_scanner *s);

/* Requires an identifier at the current token. */
int wgsl_expect_ident(text_scanner *s, const char *what);

/*
 * An integer literal argument at the current token: N, Ni, Nu (decimal or
 * hexadecimal), i32(N) or u32(N), followed by ',' or `close`. Returns LIT_OK
 * or LIT_RANGE (the value does not fit its type: i32 for N and Ni, u32 for
 * Nu) with the literal consumed, or LIT_NONE with nothing consumed; *rc gets
 * the lexer's failure.
 */
int wgsl_literal_arg(text_scanner *s, char close, uint64_t *v, int *rc);

enum {
    SKIP_TEMPLATES = 1, /* `ident<` opens a template list closed by '>' outside () and [] */
    SKIP_EXPR = 2,      /* an expression: braces, attributes and declaration keywords end it */
    SKIP_GROUP = 4,     /* the current token opens a group: stop just after its closer */
};

/*
 * Skips tokens up to (not including) one of the characters of `stops` at
 * nesting depth 0, keeping (), [] and {} balanced; with SKIP_GROUP, skips the
 * group the current token opens, up to and including its closer. Sets
 * *count to the number of tokens skipped when count is not NULL. Reaching the
 * end of the input at depth 0 is not an error here: the caller then finds
 * no stop character.
 */
int wgsl_skip(text_scanner *s, const char *stops, unsigned flags, size_t *count);

/* Skips an expression up to ',' or `close` (or ';' when close is ';'); it must not be empty. */
int wgsl_skip_expr(text_scanner *s, char close, size_t *count);

/* The attributes before a declaration (at most MAX_ATTRS). */
int wgsl_parse_attrs(text_scanner *s, attr *attrs, size_t *n);

/* A type: ident ['<' argument (',' argument)* [','] '>']. */
int wgsl_parse_type(text_scanner *s, type_info *ti);

/*
 * The text of the tokens from `start` up to the token at offset `end`,
 * joined, with one space after each comma that a '>' does not follow, as a
 * new string (freed with dgpb_free(); NULL: out of memory). Leaves the
 * scanner at `end`'s mark.
 */
char *wgsl_type_text(text_scanner *s, mark start, mark end);

#endif
