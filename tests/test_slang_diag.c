/*
 * test_slang_diag.c - what a compile printed, split into Slang's diagnostics
 * (compiler/slang_diag.h): Slang 2025's and 2026's renderings, the column
 * from the caret (tabs mapped back through the file), programs' own errors
 * and text that is no diagnostic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/slang_diag.h"
#include "support.h"

#define MAX_FOUND 8

typedef struct found {
    dgpb_diag d[MAX_FOUND];
    size_t count;
} found;

static void collect(void *user, const dgpb_diag *d)
{
    found *f = user;
    assert_true(f->count < MAX_FOUND);
    f->d[f->count++] = *d;
}

static found *parse(const char *text, dgpb_severity loose)
{
    static found f;
    memset(&f, 0, sizeof f);
    slang_diag_parse(text, loose, collect, &f);
    return &f;
}

static void test_slang_2025s_warning_gives_file_line_caret_column_code_and_excerpt(void **state)
{
    (void)state;
    found *f = parse("warn.slang(7): warning 30081: implicit conversion from 'float' to 'int' is "
                     "not recommended\n"
                     "    int i = 1.5;\n"
                     "            ^~~\n",
                     DGPB_SEV_ERROR);
    assert_int_equal(f->count, 1);
    const dgpb_diag *d = &f->d[0];
    assert_int_equal(d->severity, DGPB_SEV_WARNING);
    assert_int_equal(d->code, DGPB_OK);
    assert_string_equal(d->file, "warn.slang");
    assert_int_equal(d->line, 7);
    assert_int_equal(d->column, 13);
    assert_string_equal(d->tool_code, "E30081");
    assert_string_equal(d->message, "implicit conversion from 'float' to 'int' is not recommended");
    assert_string_equal(d->excerpt, "    int i = 1.5;\n            ^~~");
    char buf[DGPB_DIAG_FILE_MAX + DGPB_DIAG_MESSAGE_MAX + DGPB_DIAG_EXCERPT_MAX + 64];
    dgpb_diag_format(d, buf, sizeof buf);
    assert_string_equal(buf, "warn.slang:7:13: warning[E30081]: implicit conversion from 'float' "
                             "to 'int' is not recommended\n"
                             "    int i = 1.5;\n"
                             "            ^~~");
}

static void test_errors_notes_and_fatal_errors_follow_one_another(void **state)
{
    (void)state;
    found *f = parse("m.slang(8): error 30015: undefined identifier 'x'.\n"
                     "    y = x;\n"
                     "        ^\n"
                     "m.slang(3): note: see 'if' directive\n"
                     "(0): fatal error 39999: compilation ceased\r\n",
                     DGPB_SEV_ERROR);
    assert_int_equal(f->count, 3);
    assert_int_equal(f->d[0].severity, DGPB_SEV_ERROR);
    assert_int_equal(f->d[0].code, DGPB_ERR_SHADER);
    assert_int_equal(f->d[0].column, 9);
    assert_string_equal(f->d[0].message, "undefined identifier 'x'.");
    assert_int_equal(f->d[1].severity, DGPB_SEV_NOTE);
    assert_string_equal(f->d[1].tool_code, "");
    assert_int_equal(f->d[1].line, 3);
    assert_int_equal(f->d[1].column, 0);
    assert_string_equal(f->d[1].excerpt, "");
    assert_int_equal(f->d[2].severity, DGPB_SEV_ERROR);
    assert_string_equal(f->d[2].file, "");
    assert_int_equal(f->d[2].line, 0);
    assert_string_equal(f->d[2].message, "compilation ceased");
}

static void test_a_caret_after_tabs_is_mapped_to_the_files_byte_column(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/tabs.slang", support_dir);
    support_write_file(path, "void f()\n{\n\t\tint i = 1.5;\n}\n", 0644);
    char text[2048];
    snprintf(text, sizeof text,
             "%s(3): warning 30081: implicit conversion\n"
             "        int i = 1.5;\n"
             "                ^~~\n",
             path);
    found *f = parse(text, DGPB_SEV_ERROR);
    assert_int_equal(f->count, 1);
    assert_int_equal(f->d[0].column, 11); /* two tabs, "int i = ": byte 11 */
    /* A file whose line is not the one Slang showed: the caret's own column. */
    support_write_file(path, "void f()\n{\nchanged since\n}\n", 0644);
    f = parse(text, DGPB_SEV_ERROR);
    assert_int_equal(f->d[0].column, 17);
}

static void test_slang_2026s_rich_diagnostics_give_the_location_line(void **state)
{
    (void)state;
    found *f = parse("warning[E30081]: implicit conversion from 'float' to 'int'\n"
                     " --> dir/m:x.slang:7:13\n"
                     "  |\n"
                     "7 |     int i = 1.5;\n"
                     "  |             ^^^ here\n"
                     "\n"
                     "error[E30015]: undefined identifier 'x'\n"
                     "  --> m.slang:12:5\n",
                     DGPB_SEV_ERROR);
    assert_int_equal(f->count, 2);
    assert_string_equal(f->d[0].file, "dir/m:x.slang");
    assert_int_equal(f->d[0].line, 7);
    assert_int_equal(f->d[0].column, 13);
    assert_string_equal(f->d[0].tool_code, "E30081");
    assert_string_equal(f->d[0].excerpt, "  |\n7 |     int i = 1.5;\n  |             ^^^ here");
    assert_int_equal(f->d[1].severity, DGPB_SEV_ERROR);
    assert_string_equal(f->d[1].file, "m.slang");
    assert_int_equal(f->d[1].line, 12);
    assert_int_equal(f->d[1].column, 5);
}

static void test_the_language_servers_line_and_column_are_read(void **state)
{
    (void)state;
    found *f = parse("a (b).slang(4, 9): error 20002: syntax error.\n", DGPB_SEV_NOTE);
    assert_int_equal(f->count, 1);
    assert_string_equal(f->d[0].file, "a (b).slang");
    assert_int_equal(f->d[0].line, 4);
    assert_int_equal(f->d[0].column, 9);
    assert_string_equal(f->d[0].tool_code, "E20002");
}

static void test_a_programs_own_error_and_loose_text_are_diagnostics_without_a_file(void **state)
{
    (void)state;
    found *f = parse("nvcc said something\nover two lines\n"
                     "slangc-wasm: error: blob.h: not a text file (a NUL byte at offset 3)\n",
                     DGPB_SEV_WARNING);
    assert_int_equal(f->count, 2);
    assert_int_equal(f->d[0].severity, DGPB_SEV_WARNING);
    assert_string_equal(f->d[0].file, "");
    assert_string_equal(f->d[0].message, "nvcc said something\nover two lines");
    assert_int_equal(f->d[1].severity, DGPB_SEV_ERROR);
    assert_string_equal(f->d[1].message,
                        "slangc-wasm: blob.h: not a text file (a NUL byte at offset 3)");
    f = parse("", DGPB_SEV_WARNING);
    assert_int_equal(f->count, 0);
    f = parse("\n\n", DGPB_SEV_WARNING);
    assert_int_equal(f->count, 0);
}

static void test_an_excerpt_too_long_is_cut_at_a_line(void **state)
{
    (void)state;
    static char text[8192];
    char *p = text;
    p += sprintf(p, "m.slang(1): warning 30081: long\n");
    for (int i = 0; i < 3; i++) {
        memset(p, 'x', 600);
        p += 600;
        *p++ = '\n';
    }
    *p = 0;
    found *f = parse(text, DGPB_SEV_ERROR);
    assert_int_equal(f->count, 1);
    assert_int_equal(strlen(f->d[0].excerpt), 600);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slang_2025s_warning_gives_file_line_caret_column_code_and_excerpt),
        cmocka_unit_test(test_errors_notes_and_fatal_errors_follow_one_another),
        cmocka_unit_test(test_a_caret_after_tabs_is_mapped_to_the_files_byte_column),
        cmocka_unit_test(test_slang_2026s_rich_diagnostics_give_the_location_line),
        cmocka_unit_test(test_the_language_servers_line_and_column_are_read),
        cmocka_unit_test(test_a_programs_own_error_and_loose_text_are_diagnostics_without_a_file),
        cmocka_unit_test(test_an_excerpt_too_long_is_cut_at_a_line),
    };
    return cmocka_run_group_tests(tests, support_dir_setup, support_dir_teardown);
}
