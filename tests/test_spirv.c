/*
 * test_spirv.c - the OpSource-free copy that SPIRV-Tools can read, and its
 * validation by the rules of the module's own Vulkan version, a validator
 * older than the code a warning (docs/build.md, "Validation").
 *
 * Real Slang output of fixtures/spirv/ (tests/test_spirv_analysis.c says how
 * it is made): store_and_read.spv (SPIR-V 1.5, its version word changed to
 * 1.3, 1.6 and 1.7 here) and, from newer.slang, derivatives_quad.spv,
 * derivatives_linear.spv (SPV_KHR_compute_shader_derivatives, which
 * SPIRV-Tools 2023.1 knows only as SPV_NV_compute_shader_derivatives) and
 * position_fetch.spv (capability 5336, which it does not know).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
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
    assert_int_equal(spirv_validate(support_spirv_words, support_spirv_word_count * 4, false, &d),
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
    assert_int_equal(spirv_validate(words, support_spirv_word_count * 4, false, &d),
                     DGPB_ERR_SHADER);
    assert_non_null(strstr(d.message, "SPIR-V validation (Vulkan 1.2) failed"));
}

/* A fixture module of fixtures/spirv/ as words (dgpb_free), and its word count. */
static uint32_t *module(const char *name, size_t *words)
{
    char path[128];
    snprintf(path, sizeof path, "fixtures/spirv/%s.spv", name);
    size_t size = 0;
    uint32_t *w = (uint32_t *)support_read_source_file(path, &size);
    assert_non_null(w);
    *words = size / 4;
    return w;
}

/* The word index of the first instruction with `opcode`. */
static size_t instruction(const uint32_t *w, size_t n, uint32_t opcode)
{
    for (size_t at = 5; at < n; at += w[at] >> 16)
        if ((w[at] & 0xffffu) == opcode)
            return at;
    fail_msg("no instruction %u", opcode);
    return 0;
}

static int validate(const uint32_t *w, size_t n, dgpb_diag *d)
{
    dgpb_diag_clear(d);
    return spirv_validate(w, n * 4, false, d);
}

static void the_vulkan_version_follows_the_spirv_version(void **state)
{
    (void)state;
    static const struct {
        uint32_t version;
        const char *name;
    } cases[] = {
        {0x00010000u, "Vulkan 1.0"}, {0x00010100u, "Vulkan 1.1"},
        {0x00010300u, "Vulkan 1.1"}, {0x00010400u, "Vulkan 1.1 with SPIR-V 1.4"},
        {0x00010500u, "Vulkan 1.2"}, {0x00010600u, "Vulkan 1.3"},
        {0x00010700u, NULL},         {0x00020000u, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *name = spirv_environment(cases[i].version, NULL, NULL);
        if (!cases[i].name)
            assert_null(name);
        else
            assert_string_equal(name, cases[i].name);
    }
}

/* Real Slang SPIR-V 1.5 whose version word says 1.6, 1.4, 1.3 or 1.7: each by its own rules. */
static void a_module_is_validated_by_the_rules_of_its_own_version(void **state)
{
    (void)state;
    size_t n;
    uint32_t *w = module("store_and_read", &n);
    dgpb_diag d;
    assert_int_equal(validate(w, n, &d), DGPB_OK);
    w[1] = 0x00010600u; /* Vulkan 1.3's: once refused as Vulkan 1.2's ("Invalid SPIR-V binary
                           version 1.6 for target environment SPIR-V 1.5") */
    assert_int_equal(validate(w, n, &d), DGPB_OK);
    w[1] = 0x00010400u;
    assert_int_equal(validate(w, n, &d), DGPB_OK);
    /* SPIR-V 1.3 lists only inputs and outputs on its entry points: Vulkan 1.1's rules. */
    w[1] = 0x00010300u;
    assert_int_equal(validate(w, n, &d), DGPB_ERR_SHADER);
    assert_int_equal(d.severity, DGPB_SEV_ERROR);
    assert_contains(d.message, "SPIR-V validation (Vulkan 1.1) failed: OpEntryPoint interfaces "
                               "must be OpVariables with Storage Class of Input(1) or Output(3)");
    /* Newer than every environment of the validator: a warning, nothing validated. */
    w[1] = 0x00010700u;
    assert_int_equal(validate(w, n, &d), DGPB_ERR_UNSUPPORTED);
    assert_int_equal(d.severity, DGPB_SEV_WARNING);
    assert_contains(d.message, "SPIR-V not validated: the code is SPIR-V 1.7, and SPIRV-Tools v");
    assert_contains(d.message, ", older than the code, knows SPIR-V up to 1.6");
    dgpb_free(w);
}

/* Capability 5336 (RayTracingPositionFetchKHR) is newer than SPIRV-Tools 2023.1's grammar. */
static void a_capability_newer_than_the_validator_is_a_warning_naming_it(void **state)
{
    (void)state;
    size_t n;
    uint32_t *w = module("position_fetch", &n);
    dgpb_diag d;
    assert_int_equal(validate(w, n, &d), DGPB_ERR_UNSUPPORTED);
    assert_int_equal(d.severity, DGPB_SEV_WARNING);
    assert_contains(d.message, "SPIR-V not validated (Vulkan 1.2): SPIRV-Tools v");
    assert_contains(d.message, " is older than the code and does not know its capability 5336 "
                               "(RayTracingPositionFetchKHR) (\"Invalid capability operand: "
                               "5336\")");
    dgpb_free(w);
    /* A parse failure that is no unknown number stays the code's: a result id 0. */
    w = module("store_and_read", &n);
    w[instruction(w, n, 61) + 2] = 0; /* OpLoad's result */
    assert_int_equal(validate(w, n, &d), DGPB_ERR_SHADER);
    assert_int_equal(d.severity, DGPB_SEV_ERROR);
    assert_contains(d.message, "SPIR-V validation (Vulkan 1.2) failed: Error: Result Id is 0");
    dgpb_free(w);
}

/* The parser's messages that name a number its grammar lacks, and only those. */
static void a_parser_message_names_the_number_it_lacks(void **state)
{
    (void)state;
    static const struct {
        const char *message, *kind;
        uint32_t number;
    } cases[] = {
        {"Invalid capability operand: 5336", "capability", 5336},
        {"Invalid opcode: 65535", "opcode", 65535},
        {"Invalid extended instruction number: 23", "extended instruction number", 23},
        {"Invalid execution model operand: 9999", "execution model", 9999},
        {"Invalid source language operand: 11", "source language", 11},
        {"Error: Result Id is 0", NULL, 0},
        {"Invalid opcode: 12x", NULL, 0},
        {"Invalid extended instruction import 'X'", NULL, 0},
        {"Invalid word count: 3", NULL, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char kind[64] = "";
        uint32_t number = 0;
        bool named = spirv_unknown_number(cases[i].message, kind, sizeof kind, &number);
        assert_int_equal(named, cases[i].kind != NULL);
        if (cases[i].kind) {
            assert_string_equal(kind, cases[i].kind);
            assert_int_equal(number, cases[i].number);
        }
    }
}

/*
 * SPV_KHR_compute_shader_derivatives, which the validator knows as
 * SPV_NV_compute_shader_derivatives: read as that, and validated to the end.
 */
static void an_extension_known_by_its_older_name_is_read_so_and_validated(void **state)
{
    (void)state;
    static const char *const names[] = {"derivatives_quad", "derivatives_linear"};
    static const char *const capabilities[] = {"ComputeDerivativeGroupQuadsNV (5288)",
                                               "ComputeDerivativeGroupLinearNV (5350)"};
    for (size_t i = 0; i < 2; i++) {
        size_t n;
        uint32_t *w = module(names[i], &n);
        dgpb_diag d;
        assert_int_equal(validate(w, n, &d), DGPB_ERR_UNSUPPORTED);
        assert_int_equal(d.severity, DGPB_SEV_WARNING);
        assert_contains(d.message,
                        "SPIR-V validated (Vulkan 1.2), the validator being older than the code: "
                        "SPV_KHR_compute_shader_derivatives read as "
                        "SPV_NV_compute_shader_derivatives, through which SPIRV-Tools v");
        char want[200];
        snprintf(want, sizeof want, " knows SPIR-V capability %s", capabilities[i]);
        assert_contains(d.message, want);
        /* The rest is validated: an entry point made a fragment shader is refused. */
        size_t entry = instruction(w, n, 15); /* OpEntryPoint */
        w[entry + 1] = 4;
        assert_int_equal(validate(w, n, &d), DGPB_ERR_SHADER);
        assert_int_equal(d.severity, DGPB_SEV_ERROR);
        assert_contains(d.message, "SPIR-V validation (Vulkan 1.2) failed: ");
        assert_contains(d.message, " (with SPV_KHR_compute_shader_derivatives read as "
                                   "SPV_NV_compute_shader_derivatives, ");
        dgpb_free(w);
    }
}

/* Without the extension, or with one of no known stem, the capability is the code's fault. */
static void a_capability_without_its_extension_is_refused(void **state)
{
    (void)state;
    size_t n;
    uint32_t *w = module("derivatives_quad", &n);
    size_t at = 0;
    for (at = 5; at < n; at += w[at] >> 16)
        if ((w[at] & 0xffffu) == 10 && strstr((const char *)(w + at + 1), "derivatives"))
            break;
    assert_true(at < n);
    char *name = (char *)(w + at + 1);
    name[8] = 'k'; /* SPV_KHR_kompute_shader_derivatives: no extension the validator lists */
    dgpb_diag d;
    assert_int_equal(validate(w, n, &d), DGPB_ERR_SHADER);
    assert_int_equal(d.severity, DGPB_SEV_ERROR);
    assert_contains(d.message, "SPIR-V validation (Vulkan 1.2) failed: Capability "
                               "ComputeDerivativeGroupQuadsNV is not allowed by Vulkan 1.2");
    assert_null(strstr(d.message, "read as"));
    size_t words = w[at] >> 16; /* the extension taken out */
    memmove(w + at, w + at + words, (n - at - words) * 4);
    assert_int_equal(validate(w, n - words, &d), DGPB_ERR_SHADER);
    assert_contains(d.message, "is not allowed by Vulkan 1.2");
    dgpb_free(w);
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
        cmocka_unit_test(the_vulkan_version_follows_the_spirv_version),
        cmocka_unit_test(a_module_is_validated_by_the_rules_of_its_own_version),
        cmocka_unit_test(a_capability_newer_than_the_validator_is_a_warning_naming_it),
        cmocka_unit_test(a_parser_message_names_the_number_it_lacks),
        cmocka_unit_test(an_extension_known_by_its_older_name_is_read_so_and_validated),
        cmocka_unit_test(a_capability_without_its_extension_is_refused),
        cmocka_unit_test(disassembly_shows_the_entry_point),
        cmocka_unit_test(malformed_modules_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
