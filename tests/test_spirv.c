/*
 * test_spirv.c - the OpSource-free copy that SPIRV-Tools can read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "code/spirv/spirv.h"
#include "support.h"

static void stripping_removes_only_opsource_and_the_module_validates(void **state)
{
    (void)state;
    uint32_t *words = NULL;
    size_t n = 0;
    assert_int_equal(
        spirv_strip_source(support_spirv_words, support_spirv_word_count * 4, &words, &n, NULL),
        DGPB_OK);
    assert_int_equal(n, support_spirv_word_count - 3);       /* OpSource Slang 1: three words */
    assert_memory_equal(words, support_spirv_words, 23 * 4); /* everything before it */
    assert_memory_equal(words + 23, support_spirv_words + 26, (n - 23) * 4);
    dgpb_free(words);
    /* Slang's source language (11) is newer than the pinned SPIRV-Tools: validation
       works only because of the stripped copy. */
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(spirv_validate(support_spirv_words, support_spirv_word_count * 4, &d),
                     DGPB_OK);
}

static void validation_reports_an_invalid_module(void **state)
{
    (void)state;
    uint32_t words[128];
    memcpy(words, support_spirv_words, support_spirv_word_count * 4);
    words[10] = 0x0007000fu;
    words[11] = 4; /* OpEntryPoint: execution model Fragment for a LocalSize module */
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(spirv_validate(words, support_spirv_word_count * 4, &d), DGPB_ERR_SHADER);
    assert_non_null(strstr(d.message, "SPIR-V validation (Vulkan 1.2) failed"));
}

static void disassembly_shows_the_entry_point(void **state)
{
    (void)state;
    char *text = NULL;
    assert_int_equal(
        spirv_disassemble(support_spirv_words, support_spirv_word_count * 4, &text, NULL), DGPB_OK);
    assert_non_null(strstr(text, "OpEntryPoint GLCompute %main \"main\""));
    assert_non_null(strstr(text, "OpExecutionMode %main LocalSize 64 1 1"));
    assert_null(strstr(text, "OpSource"));
    dgpb_free(text);
}

static void malformed_modules_are_refused(void **state)
{
    (void)state;
    uint32_t words[64];
    memcpy(words, support_spirv_words, sizeof words);
    uint32_t *out = NULL;
    size_t n = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(spirv_strip_source(words, 6, &out, &n, &d), DGPB_ERR_CORRUPT);
    assert_int_equal(spirv_strip_source(words, 19, &out, &n, &d), DGPB_ERR_CORRUPT);
    words[0] = 0x12345678u;
    assert_int_equal(spirv_strip_source(words, sizeof words, &out, &n, &d), DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "bad magic 0x12345678"));
    words[0] = support_spirv_words[0];
    words[5] = 0xFFFF0011u; /* an instruction longer than the module */
    assert_int_equal(spirv_strip_source(words, sizeof words, &out, &n, &d), DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "runs past the end"));
    assert_null(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stripping_removes_only_opsource_and_the_module_validates),
        cmocka_unit_test(validation_reports_an_invalid_module),
        cmocka_unit_test(disassembly_shows_the_entry_point),
        cmocka_unit_test(malformed_modules_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
