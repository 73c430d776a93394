/*
 * slang_text.h - a Slang module's text as its preprocessor sees it (internal):
 * one lexer for comments, string and character literals, directive lines and
 * line continuations; the text with all of those blanked (for the generic-entry
 * scan, entry_scan.c); and the reading of #if guards behind the compile
 * cache's key text (docs/cache.md, "The main source's key text").
 *
 * The lexer reads the text as Slang's own lexer does:
 *
 *   - a line ends with LF, CR, CRLF or LFCR;
 *   - a backslash before a line end continues the line, wherever it stands
 *     (in code, a directive, a comment, a literal): the two lines read as one;
 *   - a line comment runs from // to the end of its (continued) line; a block
 *     comment from its opening to its closing, or to the end of the text;
 *   - a literal ("..." or '...') runs to its closing quote, a backslash
 *     escaping the byte after it, or up to the end of its line when unclosed;
 *   - a directive is a '#' with only spaces, tabs, comments and line
 *     continuations before it on its line (a comment that started there may
 *     span lines); it runs to the end of its line, continued lines and
 *     comments across lines included.
 *
 * The guard reading never claims more than it knows: a branch is left out of
 * the key text only when the compile's -D set provably leaves it out, since
 * a wrong "false" would let an edit go unseen (a stale cache hit).
 */
#ifndef DGPB_SLANG_TEXT_H
#define DGPB_SLANG_TEXT_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define slang_lexer_init dgpb__slang_lexer_init
#define slang_lex dgpb__slang_lex
#define slang_text_code_only dgpb__slang_text_code_only
#define slang_text_condition dgpb__slang_text_condition
#define slang_text_defines_known dgpb__slang_text_defines_known
#define slang_text_reduce dgpb__slang_text_reduce

#include <stdbool.h>
#include <stddef.h>

#include "core/bytebuf.h"

/* ---- the lexer ---- */

enum slang_piece_kind {
    SLANG_PIECE_CODE,          /* anything else: code, white space, a directive's words */
    SLANG_PIECE_NEWLINE,       /* a line end: LF, CR, CRLF or LFCR */
    SLANG_PIECE_SPLICE,        /* a backslash, then the end of the line: the line goes on */
    SLANG_PIECE_LINE_COMMENT,  /* from // to the end of its line (its newline not included) */
    SLANG_PIECE_BLOCK_COMMENT, /* from its opening to its closing, or to the end of the text */
    SLANG_PIECE_LITERAL,       /* a string or character literal, quotes included */
};

typedef struct slang_piece {
    enum slang_piece_kind kind;
    size_t start, end; /* [start, end) of the text */
    bool directive;    /* inside a directive, from its '#' up to the newline that ends it */
    bool opens;        /* the '#' that opens a directive */
} slang_piece;

/* A walk through a text; zero it with slang_lexer_init, then call slang_lex until false. */
typedef struct slang_lexer {
    const char *text;
    size_t len, at;
    bool line_start;   /* only spaces and tabs since the line began */
    bool in_directive; /* inside a directive */
} slang_lexer;

void slang_lexer_init(slang_lexer *lx, const char *text, size_t len);

/* The next piece of the text (pieces cover it without gaps); false at its end. */
bool slang_lex(slang_lexer *lx, slang_piece *out);

/*
 * A new NUL-terminated copy of `text` (free with dgpb_free) with every
 * comment, literal and directive (its continued lines too) written as
 * spaces, newlines kept so that lines still count. NULL: no memory.
 */
char *slang_text_code_only(const char *text, size_t len);

/* ---- #if guards ---- */

/* The macros that a compile's conditions are judged against. */
typedef struct slang_macros {
    /* Whether some compile of the build may get `name` (len bytes) with -D: a known macro.
       Only known macros are judged; any other name makes a condition unknown. */
    bool (*known)(void *ctx, const char *name, size_t len);
    void *ctx;
    const char *const *defined; /* this compile's -D values, "NAME" or "NAME=VALUE" */
    size_t defined_count;
} slang_macros;

/* A condition's value for one compile: known false, known true, or not known. */
enum slang_cond { SLANG_COND_FALSE, SLANG_COND_TRUE, SLANG_COND_UNKNOWN };

/*
 * The value of one directive's condition (`line`, len bytes: the directive,
 * from its line's start or its '#', without its line end): #if and #elif made of defined(NAME), defined NAME, !, &&, || and
 * parentheses over known macros, #ifdef and #ifndef of a known macro; a line
 * comment ends the condition. Anything else is SLANG_COND_UNKNOWN: another
 * name, a number or value test, a block comment inside the condition, a line
 * that is not a conditional directive. An expression over known and unknown
 * parts is decided where the logic decides it (defined(A) && X with A
 * undefined is false).
 */
enum slang_cond slang_text_condition(const slang_macros *m, const char *line, size_t len);

/*
 * Whether a directive of `text` reads "#define NAME" or "#undef NAME" with
 * NAME a known macro. On the safe side, so does a line inside a comment that
 * starts with such a directive after spaces and tabs.
 */
bool slang_text_defines_known(const slang_macros *m, const char *text, size_t len);

/*
 * Appends to `out` the lines of `text` without the branches of #if, #ifdef,
 * #ifndef, #elif and #else that the compile's -D set provably deactivates
 * (the directive lines themselves are kept; each line is appended with a
 * '\n'). A branch is left out when its condition is false or an earlier
 * branch of its chain is true, and everything inside a left-out branch with
 * it. Returns false (what it appended is then of no use) when it cannot tell:
 * the text #defines or #undefs a known macro, a directive continues onto the
 * next line, the conditionals do not balance or nest deeper than 256, or a
 * line ends with a CR alone (lines are LF-separated here).
 */
bool slang_text_reduce(const slang_macros *m, const char *text, size_t len, dgpb_bytebuf *out);

#endif
