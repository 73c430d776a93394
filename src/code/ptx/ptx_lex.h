/*
 * ptx_lex.h - the lexer of the PTX scanner (ptx_scan.c): PTX's tokens, the
 * classes of token its grammar asks about (directives, names, integers,
 * fundamental types, state spaces) and the width of a memory access
 * (internal).
 */
#ifndef DGPB_PTX_LEX_H
#define DGPB_PTX_LEX_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define ptx_advance dgpb__ptx_advance
#define ptx_expect_kind dgpb__ptx_expect_kind
#define ptx_int_token dgpb__ptx_int_token
#define ptx_read_int dgpb__ptx_read_int
#define ptx_type_size dgpb__ptx_type_size
#define ptx_vector_width dgpb__ptx_vector_width
#define ptx_is_state_space dgpb__ptx_is_state_space
#define ptx_access_width dgpb__ptx_access_width

#include <stdbool.h>
#include <stdint.h>

#include "code/text_scan.h"

/*
 * PTX's tokens: words (identifiers, registers such as %ctaid.x, directives
 * such as .param, opcodes such as ld.param.v2.f32), numbers, strings and
 * single punctuation characters.
 */
enum {
    TOK_EOF = TEXT_TOKEN_EOF,
    TOK_WORD = TEXT_TOKEN_WORD,
    TOK_NUMBER = TEXT_TOKEN_NUMBER,
    TOK_PUNCT = TEXT_TOKEN_PUNCT,
    TOK_STRING = TEXT_TOKEN_OWN
};

typedef text_token token;

/* Moves to the next token (s->tok), past blank space and comments; DGPB_ERR_CORRUPT at a byte
 * that starts none. */
int ptx_advance(text_scanner *s);

static inline bool ptx_is_directive(const token *t)
{
    return t->kind == TOK_WORD && t->s[0] == '.';
}

/* A name: a word that is not a directive. */
static inline bool ptx_is_name(const token *t)
{
    return t->kind == TOK_WORD && t->s[0] != '.';
}

/* Requires a token of `kind` (a name, for TOK_WORD); `what` names it in the message. */
int ptx_expect_kind(text_scanner *s, int kind, const char *what);

/*
 * An integer token: decimal, hexadecimal (0x), binary (0b) or octal (0...),
 * with an optional 'U'. False when it is not one (a float such as 0f3F800000
 * or 9.0). *v saturates at UINT64_MAX.
 */
bool ptx_int_token(const token *t, uint64_t *v);

/* An integer at the current token, consumed; `what` names it in the message. */
int ptx_read_int(text_scanner *s, uint64_t *v, const char *what);

/* The byte size of a PTX fundamental type directive (.u32, .b8, .pred, ...); 0 if not one. */
uint32_t ptx_type_size(const token *t);

/* The width of .v2/.v4/.v8; 0 if not one. */
uint32_t ptx_vector_width(const token *t);

/* .global, .const, .shared, .local or .param. */
bool ptx_is_state_space(const token *t);

/*
 * The bytes an instruction reads or writes at its address operand:
 * ld/ldu/st/atom/red with a vector count and a type suffix
 * (ld.const.v2.u32 -> 8); 0 when the opcode does not say.
 */
uint64_t ptx_access_width(const token *op);

#endif
