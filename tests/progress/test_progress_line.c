/*
 * test_progress_line.c - dgpb-build's progress line (tools/dgpb-build/progress.h):
 * the format, how it keeps to the terminal's width, and the escape
 * sequences that rewrite and clear it.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "progress.h"

static dgpb_build_progress report(uint32_t done, uint32_t total, const char *entry,
                                  const char *target, double elapsed)
{
    dgpb_build_progress p = {done, total, entry, target, true, elapsed};
    return p;
}

static void test_format(void **state)
{
    (void)state;
    char buf[256];
    dgpb_build_progress p = report(12, 72, "blur", "spirv", 0.84);
    assert_int_equal(progress_format(&p, 0, buf, sizeof buf), strlen("[12/72] blur (spirv) 0.8s"));
    assert_string_equal(buf, "[12/72] blur (spirv) 0.8s");
    p = report(0, 2, "discovery", "wgsl", 0);
    progress_format(&p, 80, buf, sizeof buf);
    assert_string_equal(buf, "[0/2] discovery (wgsl) 0.0s");
    p = report(140, 140, "the render group", "spirv layout", 12.345);
    progress_format(&p, 0, buf, sizeof buf);
    assert_string_equal(buf, "[140/140] the render group (spirv layout) 12.3s");
    p = report(1, 1, "k", NULL, -1); /* no target; a clock that went back shows 0 */
    progress_format(&p, 0, buf, sizeof buf);
    assert_string_equal(buf, "[1/1] k 0.0s");
}

/* A line wider than the terminal gives up the entry's middle, then everything past width - 1. */
static void test_width(void **state)
{
    (void)state;
    char buf[256];
    dgpb_build_progress p = report(3, 9, "a_rather_long_entry_name", "spirv", 1.5);
    progress_format(&p, 0, buf, sizeof buf);
    assert_string_equal(buf, "[3/9] a_rather_long_entry_name (spirv) 1.5s");
    size_t n = progress_format(&p, 30, buf, sizeof buf);
    assert_int_equal(n, 29);
    assert_int_equal(strlen(buf), 29);
    assert_string_equal(buf, "[3/9] a_ra...ame (spirv) 1.5s");
    /* exactly fitting: unchanged */
    size_t full = strlen("[3/9] a_rather_long_entry_name (spirv) 1.5s");
    progress_format(&p, (unsigned)full + 1, buf, sizeof buf);
    assert_string_equal(buf, "[3/9] a_rather_long_entry_name (spirv) 1.5s");
    /* narrower than the counts and the target: cut at width - 1 */
    n = progress_format(&p, 10, buf, sizeof buf);
    assert_int_equal(n, 9);
    assert_string_equal(buf, "[3/9]  (s");
    /* a buffer smaller than the line: cut, always terminated */
    char small[8];
    n = progress_format(&p, 0, small, sizeof small);
    assert_int_equal(n, 7);
    assert_string_equal(small, "[3/9] a");
}

/* The line is rewritten with "\r...\033[K" and cleared with "\r\033[K" only when shown. */
static void test_show_clear(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    progress_line line = {f, 0, false, NULL};
    progress_clear(&line); /* nothing shown: nothing written */
    dgpb_build_progress p = report(0, 2, "discovery", "spirv", 0);
    p.finished = false;
    progress_show(&line, &p);
    assert_true(line.shown);
    p = report(1, 2, "discovery", "spirv", 0.31);
    progress_show(&line, &p);
    progress_clear(&line);
    assert_false(line.shown);
    progress_clear(&line);
    progress_clear(NULL);
    fclose(f);
    assert_string_equal(text, "\r[0/2] discovery (spirv) 0.0s\033[K"
                              "\r[1/2] discovery (spirv) 0.3s\033[K"
                              "\r\033[K");
    free(text);
}

/* With several modules, the module being built goes before the entry, elided with it. */
static void test_show_module(void **state)
{
    (void)state;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    assert_non_null(f);
    progress_line line = {f, 0, false, "shaders/b.slang"};
    dgpb_build_progress p = report(3, 12, "blur", "spirv", 0.42);
    progress_show(&line, &p);
    line.width = 36;
    progress_show(&line, &p);
    line.module = NULL;
    progress_show(&line, &p);
    fclose(f);
    assert_string_equal(text, "\r[3/12] shaders/b.slang: blur (spirv) 0.4s\033[K"
                              "\r[3/12] shader...: blur (spirv) 0.4s\033[K"
                              "\r[3/12] blur (spirv) 0.4s\033[K");
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_width),
        cmocka_unit_test(test_show_clear),
        cmocka_unit_test(test_show_module),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
