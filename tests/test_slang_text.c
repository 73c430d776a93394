/*
 * test_slang_text.c - a Slang module's text as its preprocessor sees it
 * (src/scan/slang_text.c): the lexer's pieces, the text blanked for the
 * generic-entry scan, the value of #if conditions, and the key text of the
 * compile cache (the branches a compile's -D set provably leaves out
 * removed). A wrong "false" there is a stale cache hit, so every case the
 * reading cannot decide is pinned as kept.
 *
 * Known macros in every case: A, B, C and DREAM_SHADER_a/b; a compile
 * defines those in its -D list (DEFINED, "A" and "C=1" unless a case says).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/alloc.h"
#include "dgpb/result.h"
#include "scan/slang_text.h"
#include "support.h"

static bool known(void *ctx, const char *name, size_t len)
{
    (void)ctx;
    static const char *const names[] = {"A", "B", "C", "DREAM_SHADER_a", "DREAM_SHADER_b"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == len && !memcmp(names[i], name, len))
            return true;
    return false;
}

static const char *const DEFINED[] = {"A", "C=1"};

static slang_macros macros(const char *const *defined, size_t count)
{
    return (slang_macros){.known = known, .defined = defined, .defined_count = count};
}

/* ---- the lexer ---- */

static void pieces_cover_the_text_in_order(void **state)
{
    (void)state;
    const char *text = "  #if A // x\n"
                       "int s = \"a/*b\"; /* c\n"
                       "d */ char q = '\"';\\\n"
                       "#define M 1 \\\r\n"
                       "  2\n";
    static const struct {
        enum slang_piece_kind kind;
        const char *text;
        bool directive, opens;
    } want[] = {
        {SLANG_PIECE_CODE, "  ", false, false},
        {SLANG_PIECE_CODE, "#", true, true},
        {SLANG_PIECE_CODE, "if A ", true, false},
        {SLANG_PIECE_LINE_COMMENT, "// x", true, false},
        {SLANG_PIECE_NEWLINE, "\n", false, false},
        {SLANG_PIECE_CODE, "int s = ", false, false},
        {SLANG_PIECE_LITERAL, "\"a/*b\"", false, false},
        {SLANG_PIECE_CODE, "; ", false, false},
        {SLANG_PIECE_BLOCK_COMMENT, "/* c\nd */", false, false},
        {SLANG_PIECE_CODE, " char q = ", false, false},
        {SLANG_PIECE_LITERAL, "'\"'", false, false},
        {SLANG_PIECE_CODE, ";", false, false},
        {SLANG_PIECE_SPLICE, "\\\n", false, false},
        /* after a continued line, a '#' opens no directive */
        {SLANG_PIECE_CODE, "#define M 1 ", false, false},
        {SLANG_PIECE_SPLICE, "\\\r\n", false, false},
        {SLANG_PIECE_CODE, "  2", false, false},
        {SLANG_PIECE_NEWLINE, "\n", false, false},
    };
    slang_lexer lx;
    slang_lexer_init(&lx, text, strlen(text));
    slang_piece p;
    size_t i = 0, at = 0;
    while (slang_lex(&lx, &p)) {
        assert_true(i < sizeof want / sizeof *want);
        assert_int_equal(p.start, at);
        assert_int_equal(p.kind, want[i].kind);
        assert_int_equal(p.end - p.start, strlen(want[i].text));
        assert_memory_equal(text + p.start, want[i].text, p.end - p.start);
        assert_int_equal(p.directive, want[i].directive);
        assert_int_equal(p.opens, want[i].opens);
        at = p.end;
        i++;
    }
    assert_int_equal(i, sizeof want / sizeof *want);
    assert_int_equal(at, strlen(text));
}

static void a_directive_runs_over_continued_lines_and_comments(void **state)
{
    (void)state;
    const char *text = "#define M(x) \\\n"
                       "  x /* a comment\n"
                       "  across lines */ + 1\n"
                       "code // a line comment \\\n"
                       "continued\n"
                       "#x\n";
    slang_lexer lx;
    slang_lexer_init(&lx, text, strlen(text));
    slang_piece p;
    size_t directive_end = 0, opened = 0;
    while (slang_lex(&lx, &p)) {
        if (p.directive)
            directive_end = p.end;
        opened += p.opens;
    }
    /* the first directive ends with "+ 1" on its third line; the last line opens the second */
    assert_int_equal(opened, 2);
    assert_int_equal(directive_end, strlen(text) - 1);
    slang_lexer_init(&lx, text, strlen(text));
    while (slang_lex(&lx, &p) && !p.opens)
        ;
    while (slang_lex(&lx, &p) && p.kind != SLANG_PIECE_NEWLINE)
        assert_true(p.directive);
    assert_int_equal(p.start, strlen("#define M(x) \\\n  x /* a comment\n  across lines */ + 1"));
}

static void line_ends_and_continuations_as_slang_reads_them(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        enum slang_piece_kind kinds[6];
        size_t count;
    } cases[] = {
        {"\r\n", {SLANG_PIECE_NEWLINE}, 1},
        {"\n\r", {SLANG_PIECE_NEWLINE}, 1},
        {"\n\n", {SLANG_PIECE_NEWLINE, SLANG_PIECE_NEWLINE}, 2},
        {"\r\r", {SLANG_PIECE_NEWLINE, SLANG_PIECE_NEWLINE}, 2},
        {"\\\r\n", {SLANG_PIECE_SPLICE}, 1},
        {"\\\r", {SLANG_PIECE_SPLICE}, 1},
        {"/\\\n/ c", {SLANG_PIECE_LINE_COMMENT}, 1},
        {"/\\\n* c *\\\n/x", {SLANG_PIECE_BLOCK_COMMENT, SLANG_PIECE_CODE}, 2},
        {"\"a\\\n\\\"\"", {SLANG_PIECE_LITERAL}, 1},
        {"/*/ */", {SLANG_PIECE_BLOCK_COMMENT}, 1},
        {"a/b", {SLANG_PIECE_CODE, SLANG_PIECE_CODE}, 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        slang_lexer lx;
        slang_lexer_init(&lx, cases[i].text, strlen(cases[i].text));
        slang_piece p;
        size_t k = 0;
        while (slang_lex(&lx, &p)) {
            if (k >= cases[i].count || p.kind != cases[i].kinds[k])
                fail_msg("case %zu, piece %zu: kind %d", i, k, p.kind);
            k++;
        }
        assert_int_equal(k, cases[i].count);
    }
    /* the '#' after a comment or a continued blank line opens a directive */
    static const char *const opening[] = {"/* c */ #x", "/* a\n b */#x", "  \\\n  #x", "a\r#x"};
    for (size_t i = 0; i < sizeof opening / sizeof *opening; i++) {
        slang_lexer lx;
        slang_lexer_init(&lx, opening[i], strlen(opening[i]));
        slang_piece p;
        bool opened = false;
        while (slang_lex(&lx, &p))
            opened |= p.opens;
        if (!opened)
            fail_msg("'%s' opens no directive", opening[i]);
    }
}

static void unclosed_pieces_end_where_they_must(void **state)
{
    (void)state;
    /* An unclosed literal stops before its line's end; an unclosed block comment at the
       text's end. */
    const char *text = "x = \"open\nnext /* never closed\n#if A\n";
    slang_lexer lx;
    slang_lexer_init(&lx, text, strlen(text));
    slang_piece p;
    assert_true(slang_lex(&lx, &p));
    assert_true(slang_lex(&lx, &p));
    assert_int_equal(p.kind, SLANG_PIECE_LITERAL);
    assert_int_equal(p.end, strlen("x = \"open"));
    assert_true(slang_lex(&lx, &p));
    assert_int_equal(p.kind, SLANG_PIECE_NEWLINE);
    assert_true(slang_lex(&lx, &p));
    assert_true(slang_lex(&lx, &p));
    assert_int_equal(p.kind, SLANG_PIECE_BLOCK_COMMENT);
    assert_int_equal(p.end, strlen(text));
    assert_false(slang_lex(&lx, &p));
    /* a backslash at the very end continues nothing */
    slang_lexer_init(&lx, "a\\", 2);
    assert_true(slang_lex(&lx, &p));
    assert_int_equal(p.kind, SLANG_PIECE_CODE);
    assert_true(slang_lex(&lx, &p));
    assert_int_equal(p.kind, SLANG_PIECE_CODE);
    assert_int_equal(p.end, 2);
    assert_false(slang_lex(&lx, &p));
}

/* ---- the text blanked ---- */

static void code_only_blanks_comments_literals_and_directives(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"a // b\nc", "a     \nc"},
        {"a /* b\n c */ d", "a     \n      d"},
        {"s = \"x\\\"y\"; t = 'z';", "s =       ; t =    ;"},
        {"  #include \"f\"\nx", "              \nx"},
        {"#define M \\\n  1\r\nx", "           \n   \r\nx"},
        {"#define M /* a\n b */ 2\nx", "              \n       \nx"},
        {"x // c \\\ny\n", "x       \n \n"},
        {"f(); #if A\n", "f(); #if A\n"},
        {"/* c */ #x\n", "          \n"}, /* a comment keeps the line's start */
        {"x /* c */ #x\n", "x         #x\n"},
        {"a\r#x\rb", "a\r  \rb"}, /* a CR alone ends a line */
        {"\"unclosed\nx", "         \nx"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *s = slang_text_code_only(cases[i].text, strlen(cases[i].text));
        assert_non_null(s);
        assert_string_equal(s, cases[i].want);
        dgpb_free(s);
    }
}

static int blank_one(void *arg)
{
    char *s = slang_text_code_only(arg, strlen(arg));
    if (!s)
        return DGPB_ERR_NOMEM;
    dgpb_free(s);
    return DGPB_OK;
}

static void code_only_fails_cleanly_without_memory(void **state)
{
    (void)state;
    char text[] = "a /* b */ c\n";
    assert_true(support_run_with_faults(blank_one, text, DGPB_OK, "slang_text_code_only") > 0);
}

/* ---- conditions ---- */

static void conditions_over_known_macros(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        enum slang_cond want;
    } cases[] = {
        {"#if defined(A)", SLANG_COND_TRUE},
        {"#if defined A", SLANG_COND_TRUE},
        {"#if defined(C)", SLANG_COND_TRUE}, /* -DC=1 */
        {"#if defined(B)", SLANG_COND_FALSE},
        {"#if !defined(B)", SLANG_COND_TRUE},
        {"#if !defined A", SLANG_COND_FALSE},
        {"#if !!defined(A)", SLANG_COND_TRUE},
        {"  #  if ! defined ( B )", SLANG_COND_TRUE},
        {"#if defined(A) && defined(B)", SLANG_COND_FALSE},
        {"#if defined(A) && defined(C)", SLANG_COND_TRUE},
        {"#if defined(A) || defined(B)", SLANG_COND_TRUE},
        {"#if defined(B) || defined(DREAM_SHADER_a)", SLANG_COND_FALSE},
        {"#if (defined(A) || defined(B)) && !defined(C)", SLANG_COND_FALSE},
        {"#if defined(B) || defined(A) && !defined(C)", SLANG_COND_FALSE}, /* && binds first */
        {"#if ((defined(A)))", SLANG_COND_TRUE},
        {"#elif defined(B)", SLANG_COND_FALSE},
        {"#elif defined(A)", SLANG_COND_TRUE},
        {"#ifdef A", SLANG_COND_TRUE},
        {"#ifdef B", SLANG_COND_FALSE},
        {"#ifndef B", SLANG_COND_TRUE},
        {"#ifndef A", SLANG_COND_FALSE},
        {"#if defined(A)\r", SLANG_COND_TRUE},
        {"#if defined(B) // a line comment ends it", SLANG_COND_FALSE},
        {"/* before */ #if defined(B)", SLANG_COND_FALSE},
        {"#if defined(B)\r", SLANG_COND_FALSE},
        {"#ifdef B // so here", SLANG_COND_FALSE},
        /* the logic decides over unknown parts where it can */
        {"#if defined(B) && defined(X)", SLANG_COND_FALSE},
        {"#if defined(A) || defined(X)", SLANG_COND_TRUE},
    };
    slang_macros m = macros(DEFINED, 2);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        enum slang_cond v = slang_text_condition(&m, cases[i].line, strlen(cases[i].line));
        if (v != cases[i].want)
            fail_msg("'%s': %d, not %d", cases[i].line, v, cases[i].want);
    }
}

static void conditions_it_cannot_decide_are_unknown(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "#if defined(X)", /* not a known macro */
        "#ifdef X",
        "#ifndef X",
        "#if defined(A) && defined(X)",
        "#if defined(B) || defined(X)",
        "#if !defined(X)",
        "#if 0", /* numbers and value tests are not read */
        "#if 1",
        "#if A",
        "#if A == 1",
        "#if defined(A) && A > 1",
        "#if defined(B) && X", /* a value test anywhere makes the whole unknown */
        "#if defined(B) /* a block comment */",
        "#if /* inside */ defined(B)",
        "#/* inside */if defined(B)",
        "x #if defined(B)",
        "#if defined(A",
        "#if defined()",
        "#if defined(A))",
        "#if (defined(A)",
        "#if defined",
        "#if definedA",
        "#if",
        "#if defined(A) \"//\"",
        "#ifdef B C",
        "#else",
        "#endif",
        "#define A 1",
        "#pragma once",
        "int x; // #if defined(B)",
        "",
    };
    slang_macros m = macros(DEFINED, 2);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (slang_text_condition(&m, lines[i], strlen(lines[i])) != SLANG_COND_UNKNOWN)
            fail_msg("'%s' was decided", lines[i]);
}

/* ---- #define lines ---- */

static void defines_of_known_macros_are_found(void **state)
{
    (void)state;
    slang_macros m = macros(NULL, 0);
    static const struct {
        const char *text;
        bool want;
    } cases[] = {
        {"#define A 1\n", true},
        {"x\n  #  undef\tB\n", true},
        {"#define DREAM_SHADER_b\n", true},
        {"/*\n#define A\n*/\n", true}, /* comments are not followed: the safe side */
        {"/**/ #define A\n", true},
        {"#/**/define/**/A\n", true},
        {"#def\\\nine A\n", true},
        {"#define DREAM_\\\r\nSHADER_a\n", true},
        {"#define B\\\n\n", true},
        {"#define FOO(x) \\\n  A\n", false},
        {"#define X 1\n#undef Y\n", false},
        {"#defineA\n", false},
        {"#define AB\n", false},
        {"int A; // #define A\n", false},
        {"#ifdef A\n#endif\n", false},
        {"", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (slang_text_defines_known(&m, cases[i].text, strlen(cases[i].text)) != cases[i].want)
            fail_msg("'%s': not %d", cases[i].text, cases[i].want);
}

/* ---- the key text ---- */

typedef struct reduce_case {
    const char *name;
    const char *text;
    const char *want; /* NULL: it cannot tell */
} reduce_case;

static void check_reduce(const reduce_case *cases, size_t count, const char *const *defined,
                         size_t defined_count)
{
    slang_macros m = macros(defined, defined_count);
    for (size_t i = 0; i < count; i++) {
        dgpb_bytebuf out = DGPB_BYTEBUF_INIT;
        bool ok = slang_text_reduce(&m, cases[i].text, strlen(cases[i].text), &out);
        bytebuf_append(&out, "", 1);
        assert_false(out.failed);
        if (!cases[i].want && ok)
            fail_msg("%s: reduced to\n%s", cases[i].name, (const char *)out.data);
        if (cases[i].want && !ok)
            fail_msg("%s: could not tell", cases[i].name);
        if (cases[i].want && strcmp((const char *)out.data, cases[i].want))
            fail_msg("%s: got\n%s\nwanted\n%s", cases[i].name, (const char *)out.data,
                     cases[i].want);
        bytebuf_free(&out);
    }
}

#define CHAIN "top\n#if defined(A)\nin_a\n#elif defined(B)\nin_b\n#else\nin_else\n#endif\nbottom\n"

static void branches_left_out_of_a_chain(void **state)
{
    (void)state;
    static const reduce_case with_a[] = {
        {"the true #if keeps its branch only", CHAIN,
         "top\n#if defined(A)\nin_a\n#elif defined(B)\n#else\n#endif\nbottom\n"},
        {"a true #elif", "#if defined(B)\nb\n#elif defined(A)\na\n#elif defined(C)\nc\n#endif\n",
         "#if defined(B)\n#elif defined(A)\na\n#elif defined(C)\n#endif\n"},
        {"an unknown #elif after a true one is out",
         "#if defined(A)\na\n#elif defined(X)\nx\n#else\ne\n#endif\n",
         "#if defined(A)\na\n#elif defined(X)\n#else\n#endif\n"},
        {"-DNAME=VALUE defines NAME", "#if defined(C)\nc\n#endif\n", "#if defined(C)\nc\n#endif\n"},
        {"#ifdef and #ifndef",
         "#ifdef B\nb\n#endif\n#ifndef B\nnb\n#endif\n#ifndef A\nna\n#endif\n",
         "#ifdef B\n#endif\n#ifndef B\nnb\n#endif\n#ifndef A\n#endif\n"},
    };
    check_reduce(with_a, sizeof with_a / sizeof *with_a, DEFINED, 2);
    static const char *const none[] = {"UNKNOWN_TOO"};
    static const reduce_case with_none[] = {
        {"every condition false: #else kept", CHAIN,
         "top\n#if defined(A)\n#elif defined(B)\n#else\nin_else\n#endif\nbottom\n"},
        {"a known macro not in the -D list is undefined", "#if defined(C)\nc\n#endif\n",
         "#if defined(C)\n#endif\n"},
    };
    check_reduce(with_none, sizeof with_none / sizeof *with_none, none, 1);
    static const char *const b_only[] = {"B=2"};
    static const reduce_case with_b[] = {
        {"the #elif taken", CHAIN,
         "top\n#if defined(A)\n#elif defined(B)\nin_b\n#else\n#endif\nbottom\n"},
    };
    check_reduce(with_b, 1, b_only, 1);
}

static void nested_branches(void **state)
{
    (void)state;
    static const reduce_case cases[] = {
        {"inside a left-out branch everything goes, directives too",
         "#if defined(B)\nb\n#if defined(A)\nab\n#else\nnot_a\n#endif\nb2\n#endif\nafter\n",
         "#if defined(B)\n#endif\nafter\n"},
        {"inside a kept branch the inner ones are decided",
         "#if defined(A)\n#if defined(B)\nab\n#elif defined(C)\nac\n#endif\na\n#endif\n",
         "#if defined(A)\n#if defined(B)\n#elif defined(C)\nac\n#endif\na\n#endif\n"},
        {"inside an unknown branch too",
         "#if defined(X)\n#ifdef B\nxb\n#endif\nx\n#else\ny\n#endif\n",
         "#if defined(X)\n#ifdef B\n#endif\nx\n#else\ny\n#endif\n"},
        {"the generator's guards",
         "common\n#if defined(DREAM_SHADER_a)\nvoid a() {}\n#endif\n"
         "#if defined(DREAM_SHADER_b)\nvoid b() {}\n#endif\n",
         "common\n#if defined(DREAM_SHADER_a)\nvoid a() {}\n#endif\n"
         "#if defined(DREAM_SHADER_b)\n#endif\n"},
    };
    static const char *const a_shader[] = {"A", "C=1", "DREAM_SHADER_a"};
    check_reduce(cases, sizeof cases / sizeof *cases, a_shader, 3);
}

static void undecided_branches_are_kept(void **state)
{
    (void)state;
    static const reduce_case cases[] = {
        {"an unknown macro", "#if defined(X)\nx\n#else\ny\n#endif\n",
         "#if defined(X)\nx\n#else\ny\n#endif\n"},
        {"a number", "#if 0\nzero\n#endif\n", "#if 0\nzero\n#endif\n"},
        {"a value test", "#if B > 1\nb\n#endif\n", "#if B > 1\nb\n#endif\n"},
        {"a block comment in the condition", "#if defined(B) /* why */\nb\n#endif\n",
         "#if defined(B) /* why */\nb\n#endif\n"},
        {"an unknown #if, then a false #elif and #else",
         "#if defined(X)\nx\n#elif defined(B)\nb\n#else\ne\n#endif\n",
         "#if defined(X)\nx\n#elif defined(B)\n#else\ne\n#endif\n"},
        {"a line comment ends the condition", "#if defined(B) // defined(A)\nb\n#endif\n",
         "#if defined(B) // defined(A)\n#endif\n"},
    };
    check_reduce(cases, sizeof cases / sizeof *cases, DEFINED, 2);
}

static void comments_and_literals_hide_directives(void **state)
{
    (void)state;
    static const reduce_case cases[] = {
        {"directives inside a block comment are text", "/*\n#if defined(B)\n*/\nx\n/* #endif */\n",
         "/*\n#if defined(B)\n*/\nx\n/* #endif */\n"},
        {"and in a line comment", "// #if defined(B)\nx\n", "// #if defined(B)\nx\n"},
        {"a comment's opening inside a string opens none",
         "s = \"/*\";\n#if defined(B)\nb\n#endif\n", "s = \"/*\";\n#if defined(B)\n#endif\n"},
        {"a quote inside a character literal opens no string",
         "c = '\"'; /* x */\n#if defined(B)\nb\n#endif\n",
         "c = '\"'; /* x */\n#if defined(B)\n#endif\n"},
        {"a comment first on a line leaves its start: a directive may follow",
         "/* note */ #ifdef B\nb\n#endif\n", "/* note */ #ifdef B\n#endif\n"},
        {"a comment across lines too", "#ifdef B\n/* a\n*/ #else\ne\n#endif\n",
         "#ifdef B\n*/ #else\ne\n#endif\n"},
        {"after code no directive follows", "#ifdef B\nx /* a\n*/ #else\ne\n#endif\n",
         "#ifdef B\n#endif\n"},
        {"a continued blank line leaves its start", "#ifdef B\nb\n  \\\n#else\ne\n#endif\n",
         "#ifdef B\n#else\ne\n#endif\n"},
        {"a continued line of code leaves none", "#ifdef B\nb \\\n#else\ne\n#endif\n",
         "#ifdef B\n#endif\n"},
        {"a comment opened in a directive line", "#define X 1 /* starts\n#endif\n*/\nx\n",
         NULL}, /* the directive runs on into the comment's lines */
        {"line comments after directives", "#ifdef B // opens\nb\n#endif // B\n",
         "#ifdef B // opens\n#endif // B\n"},
        {"CRLF lines", "#if defined(B)\r\nb\r\n#endif\r\n", "#if defined(B)\r\n#endif\r\n"},
        {"a last line without a newline", "a\n#ifdef B\nb\n#endif", "a\n#ifdef B\n#endif\n"},
        {"a continued line of code", "int a = 1 + \\\n 2;\n#ifdef B\nb\n#endif\n",
         "int a = 1 + \\\n 2;\n#ifdef B\n#endif\n"},
    };
    check_reduce(cases, sizeof cases / sizeof *cases, DEFINED, 2);
}

static void texts_it_cannot_read(void **state)
{
    (void)state;
    static const reduce_case cases[] = {
        {"a continued #if", "#if defined(A) && \\\n  defined(B)\nx\n#endif\n", NULL},
        {"a continued #define", "#define M(x) \\\n  (x)\n", NULL},
        {"a continued line comment in a directive", "#ifdef A\n#endif // a \\\n b\n", NULL},
        {"a block comment across lines in a condition", "#if defined(B) /* a\n b */\nx\n#endif\n",
         NULL},
        {"#define of a known macro", "#define A 2\n", NULL},
        {"#undef of a known macro", "#ifdef A\n#undef B\n#endif\n", NULL},
        {"#endif without #if", "x\n#endif\n", NULL},
        {"#else without #if", "#else\n", NULL},
        {"#elif without #if", "#elif defined(A)\n", NULL},
        {"#if without #endif", "#if defined(A)\nx\n", NULL},
        {"a CR alone ends a line for Slang", "#ifdef B\rb\n#endif\n", NULL},
        {"a byte-order mark before a first-line #if", "\xEF\xBB\xBF#if defined(B)\nb\n#endif\n",
         NULL},
    };
    check_reduce(cases, sizeof cases / sizeof *cases, DEFINED, 2);
    static const reduce_case fine[] = {
        {"#define of another macro", "#define X 2\n#undef Y\n", "#define X 2\n#undef Y\n"},
        {"an empty text", "", ""},
    };
    check_reduce(fine, 2, DEFINED, 2);
}

static void nesting_is_limited(void **state)
{
    (void)state;
    dgpb_bytebuf text = DGPB_BYTEBUF_INIT;
    for (int i = 0; i < 256; i++)
        bytebuf_append(&text, "#ifdef B\n", 9);
    for (int i = 0; i < 256; i++)
        bytebuf_append(&text, "#endif\n", 7);
    assert_false(text.failed);
    slang_macros m = macros(DEFINED, 2);
    dgpb_bytebuf out = DGPB_BYTEBUF_INIT;
    /* 256 deep is read: the outermost is false, so only its own lines are kept */
    assert_true(slang_text_reduce(&m, (const char *)text.data, text.len, &out));
    assert_int_equal(out.len, strlen("#ifdef B\n#endif\n"));
    bytebuf_free(&out);
    bytebuf_free(&text);
    dgpb_bytebuf deeper = DGPB_BYTEBUF_INIT;
    for (int i = 0; i < 257; i++)
        bytebuf_append(&deeper, "#ifdef B\n", 9);
    for (int i = 0; i < 257; i++)
        bytebuf_append(&deeper, "#endif\n", 7);
    assert_false(slang_text_reduce(&m, (const char *)deeper.data, deeper.len, &out));
    bytebuf_free(&out);
    bytebuf_free(&deeper);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pieces_cover_the_text_in_order),
        cmocka_unit_test(a_directive_runs_over_continued_lines_and_comments),
        cmocka_unit_test(line_ends_and_continuations_as_slang_reads_them),
        cmocka_unit_test(unclosed_pieces_end_where_they_must),
        cmocka_unit_test(code_only_blanks_comments_literals_and_directives),
        cmocka_unit_test(code_only_fails_cleanly_without_memory),
        cmocka_unit_test(conditions_over_known_macros),
        cmocka_unit_test(conditions_it_cannot_decide_are_unknown),
        cmocka_unit_test(defines_of_known_macros_are_found),
        cmocka_unit_test(branches_left_out_of_a_chain),
        cmocka_unit_test(nested_branches),
        cmocka_unit_test(undecided_branches_are_kept),
        cmocka_unit_test(comments_and_literals_hide_directives),
        cmocka_unit_test(texts_it_cannot_read),
        cmocka_unit_test(nesting_is_limited),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
