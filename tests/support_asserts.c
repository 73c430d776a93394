/*
 * support_asserts.c - the shared test helpers that fail the running cmocka
 * test (support.h): an assertion on text, and files written for a test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "support.h"

void assert_contains(const char *haystack, const char *needle)
{
    if (!haystack || !strstr(haystack, needle))
        fail_msg("'%s' does not contain '%s'", haystack ? haystack : "(null)", needle);
}

void support_write_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fail_msg("cannot write '%s'", path);
    fputs(text, f);
    if (fclose(f) != 0)
        fail_msg("cannot write '%s'", path);
    if (chmod(path, mode) != 0)
        fail_msg("cannot change the mode of '%s'", path);
}
