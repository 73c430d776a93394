/*
 * test_targets.c - build triples, target selection and group symbols
 * (driver/targets.h; docs/design.md, section 3).
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
#include "driver/targets.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define BIT(t) (1u << (t))

/* ---- target names --------------------------------------------------------- */

static void test_target_ids_follow_bundle_order_and_name_their_macros(void **state)
{
    (void)state;
    static const struct {
        uint32_t id;
        const char *name, *macro;
    } rows[] = {
        {DGPB_TARGET_DXBC, "dxbc", "DREAM_TARGET_DXBC"},
        {DGPB_TARGET_DXIL, "dxil", "DREAM_TARGET_DXIL"},
        {DGPB_TARGET_METAL, "metal", "DREAM_TARGET_METAL"},
        {DGPB_TARGET_PTX, "ptx", "DREAM_TARGET_PTX"},
        {DGPB_TARGET_SPIRV, "spirv", "DREAM_TARGET_SPIRV"},
        {DGPB_TARGET_WGSL, "wgsl", "DREAM_TARGET_WGSL"},
    };
    assert_int_equal(ARRAY_LEN(rows), DGPB_TARGET_COUNT);
    for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
        assert_int_equal(rows[i].id, i);
        assert_string_equal(dgpb_target_name(rows[i].id), rows[i].name);
        assert_string_equal(target_macro(rows[i].id), rows[i].macro);
        assert_int_equal(dgpb_target_from_name(rows[i].name, strlen(rows[i].name)),
                         (int)rows[i].id);
        if (i > 0) /* sorted by name, as targets are in a bundle */
            assert_true(strcmp(rows[i - 1].name, rows[i].name) < 0);
    }
    assert_null(dgpb_target_name(DGPB_TARGET_COUNT));
    assert_null(target_macro(DGPB_TARGET_COUNT));
    assert_int_equal(dgpb_target_from_name("vulkan", 6), -1);
    assert_int_equal(dgpb_target_from_name("SPIRV", 5), -1);
    assert_int_equal(dgpb_target_from_name("", 0), -1);
}

static void test_each_target_compiles_with_its_slang_target_into_its_file(void **state)
{
    (void)state;
    static const struct {
        uint32_t target;
        const char *code_slang, *code_ext, *discover_slang, *discover_ext;
    } rows[] = {
        {DGPB_TARGET_DXBC, "dxbc", "dxbc", "dxbc", "dxbc"},
        {DGPB_TARGET_DXIL, "dxil", "dxil", "dxil", "dxil"},
        {DGPB_TARGET_METAL, "metal", "metal", "metal", "metal"},
        {DGPB_TARGET_PTX, "ptx", "ptx", "spirv", "spv"},
        {DGPB_TARGET_SPIRV, "spirv", "spv", "spirv", "spv"},
        {DGPB_TARGET_WGSL, "wgsl", "wgsl", "spirv", "spv"},
    };
    assert_int_equal(ARRAY_LEN(rows), DGPB_TARGET_COUNT);
    for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
        dgpb_code_format code = target_code_format(rows[i].target);
        dgpb_code_format discover = target_discovery_format(rows[i].target);
        assert_string_equal(code_format_slang_target(code), rows[i].code_slang);
        assert_string_equal(code_format_extension(code), rows[i].code_ext);
        assert_string_equal(code_format_slang_target(discover), rows[i].discover_slang);
        assert_string_equal(code_format_extension(discover), rows[i].discover_ext);
    }
    assert_string_equal(code_format_slang_target(DGPB_CODE_FORMAT_METALLIB), "metallib");
    assert_string_equal(code_format_extension(DGPB_CODE_FORMAT_METALLIB), "metallib");
    assert_null(code_format_slang_target(DGPB_CODE_FORMAT_COUNT));
}

/* ---- triples -------------------------------------------------------------- */

static void test_triples_name_their_platform(void **state)
{
    (void)state;
    static const struct {
        const char *triple;
        dgpb_platform platform;
        const char *name;
    } rows[] = {
        {"x86_64-unknown-linux-gnu", DGPB_PLATFORM_LINUX, "linux"},
        {"aarch64-unknown-linux-musl", DGPB_PLATFORM_LINUX, "linux"},
        {"aarch64-linux-android", DGPB_PLATFORM_LINUX, "linux"},
        {"x86_64-unknown-freebsd", DGPB_PLATFORM_LINUX, "linux"},
        {"aarch64-apple-darwin", DGPB_PLATFORM_APPLE, "apple"},
        {"x86_64-apple-darwin", DGPB_PLATFORM_APPLE, "apple"},
        {"arm64-apple-ios", DGPB_PLATFORM_APPLE, "apple"},
        {"arm64-apple-macosx14.0", DGPB_PLATFORM_APPLE, "apple"},
        {"x86_64-pc-windows-msvc", DGPB_PLATFORM_WINDOWS, "windows"},
        {"x86_64-pc-windows-gnu", DGPB_PLATFORM_WINDOWS, "windows"},
        {"x86_64-w64-mingw32", DGPB_PLATFORM_WINDOWS, "windows"},
        {"X86_64-PC-WINDOWS-MSVC", DGPB_PLATFORM_WINDOWS, "windows"}, /* case does not matter */
        {"wasm32-unknown-unknown", DGPB_PLATFORM_WASM32, "wasm32"},
        {"wasm32-unknown-emscripten", DGPB_PLATFORM_WASM32, "wasm32"},
        {"wasm32-wasi", DGPB_PLATFORM_WASM32, "wasm32"},
    };
    for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
        dgpb_platform p = (dgpb_platform)-1;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = platform_from_triple(rows[i].triple, &p, &diag);
        if (rc != DGPB_OK || p != rows[i].platform)
            fail_msg("'%s': result %d platform %d, expected platform %d (%s)", rows[i].triple, rc,
                     (int)p, (int)rows[i].platform, diag.message);
        assert_string_equal(platform_name(p), rows[i].name);
    }
}

static void test_an_empty_or_missing_triple_means_the_host(void **state)
{
    (void)state;
#if defined(__APPLE__)
    const dgpb_platform host = DGPB_PLATFORM_APPLE;
#elif defined(_WIN32)
    const dgpb_platform host = DGPB_PLATFORM_WINDOWS;
#else
    const dgpb_platform host = DGPB_PLATFORM_LINUX;
#endif
    dgpb_platform p = (dgpb_platform)-1;
    dgpb_diag diag;
    assert_int_equal(platform_from_triple("", &p, &diag), DGPB_OK);
    assert_int_equal(p, host);
    p = (dgpb_platform)-1;
    assert_int_equal(platform_from_triple(NULL, &p, &diag), DGPB_OK);
    assert_int_equal(p, host);
}

static void test_a_triple_naming_no_known_platform_is_an_error_naming_it(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "garbage",
        "riscv64-unknown-none-elf",
        "wasm64-unknown-unknown",
        "x86_64-unknown-haiku",
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        dgpb_platform p = DGPB_PLATFORM_APPLE;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        assert_int_equal(platform_from_triple(bad[i], &p, &diag), DGPB_ERR_INVALID);
        char quoted[64];
        snprintf(quoted, sizeof quoted, "unknown triple '%s'", bad[i]);
        assert_contains(diag.message, quoted);
        assert_int_equal(p, DGPB_PLATFORM_APPLE); /* untouched */
    }
}

static void test_a_very_long_triple_is_refused(void **state)
{
    (void)state;
    char triple[400];
    memset(triple, 'x', sizeof triple - 1);
    triple[sizeof triple - 1] = 0;
    memcpy(triple, "x86_64-unknown-linux-", 21);
    dgpb_platform p;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    assert_int_equal(platform_from_triple(triple, &p, &diag), DGPB_ERR_INVALID);
    assert_contains(diag.message, "is too long");
}

/* ---- platforms ------------------------------------------------------------ */

static void test_each_platform_loads_its_targets(void **state)
{
    (void)state;
    static const struct {
        dgpb_platform platform;
        uint32_t targets;
    } rows[] = {
        {DGPB_PLATFORM_LINUX,
         BIT(DGPB_TARGET_WGSL) | BIT(DGPB_TARGET_SPIRV) | BIT(DGPB_TARGET_PTX)},
        {DGPB_PLATFORM_APPLE,
         BIT(DGPB_TARGET_WGSL) | BIT(DGPB_TARGET_METAL) | BIT(DGPB_TARGET_SPIRV)},
        {DGPB_PLATFORM_WINDOWS, BIT(DGPB_TARGET_DXBC) | BIT(DGPB_TARGET_DXIL) |
                                    BIT(DGPB_TARGET_PTX) | BIT(DGPB_TARGET_SPIRV) |
                                    BIT(DGPB_TARGET_WGSL)},
        {DGPB_PLATFORM_WASM32, BIT(DGPB_TARGET_WGSL)},
    };
    for (size_t i = 0; i < ARRAY_LEN(rows); i++)
        if (platform_targets(rows[i].platform) != rows[i].targets)
            fail_msg("%s: targets 0x%x, expected 0x%x", platform_name(rows[i].platform),
                     platform_targets(rows[i].platform), rows[i].targets);
    assert_int_equal(platform_targets((dgpb_platform)99), 0);
    assert_string_equal(platform_name((dgpb_platform)99), "?");
}

/* ---- target lists --------------------------------------------------------- */

static void test_target_lists_select_the_named_targets(void **state)
{
    (void)state;
    static const struct {
        const char *list;
        uint32_t set;
    } rows[] = {
        {"spirv", BIT(DGPB_TARGET_SPIRV)},
        {"spirv,wgsl", BIT(DGPB_TARGET_SPIRV) | BIT(DGPB_TARGET_WGSL)},
        {"wgsl,spirv", BIT(DGPB_TARGET_SPIRV) | BIT(DGPB_TARGET_WGSL)},
        {"wgsl,wgsl", BIT(DGPB_TARGET_WGSL)},
        {"dxbc,dxil,metal,ptx,spirv,wgsl", BIT(DGPB_TARGET_COUNT) - 1},
        {NULL, BIT(DGPB_TARGET_COUNT) - 1}, /* nothing said: every target */
    };
    for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
        uint32_t set = 0;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = targets_parse(rows[i].list, &set, &diag);
        if (rc != DGPB_OK || set != rows[i].set)
            fail_msg("'%s': result %d set 0x%x, expected 0x%x (%s)",
                     rows[i].list ? rows[i].list : "(null)", rc, set, rows[i].set, diag.message);
    }
}

static void test_bad_target_lists_are_errors_naming_the_problem(void **state)
{
    (void)state;
    static const struct {
        const char *list, *message;
    } rows[] = {
        {"vulkan", "unknown target 'vulkan' (targets: dxbc, dxil, metal, ptx, spirv, wgsl)"},
        {"spirv,hlsl", "unknown target 'hlsl'"},
        {"spirv, wgsl", "unknown target ' wgsl'"}, /* no spaces in the list */
        {"SPIRV", "unknown target 'SPIRV'"},
        {"spirv,,wgsl", "bad target list 'spirv,,wgsl': an empty item"},
        {",spirv", "bad target list ',spirv': an empty item"},
        {",", "bad target list ',': an empty item"},
        {"", "the target list is empty"}, /* an empty list is not the default list */
        {"averyveryverylongtargetnamethatdoesnotfit", "bad target list"},
    };
    for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
        uint32_t set = 0;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = targets_parse(rows[i].list, &set, &diag);
        if (rc != DGPB_ERR_INVALID)
            fail_msg("'%s': result %d (set 0x%x), expected DGPB_ERR_INVALID", rows[i].list, rc,
                     set);
        assert_contains(diag.message, rows[i].message);
    }
}

static void test_a_trailing_comma_is_an_empty_element_and_an_error(void **state)
{
    (void)state;
    /* "spirv,,wgsl" and ",spirv" are refused as bad lists; an empty last element is as
       empty as the others and must be refused the same way, not ignored. */
    static const char *const lists[] = {"spirv,", "spirv,wgsl,"};
    for (size_t i = 0; i < ARRAY_LEN(lists); i++) {
        uint32_t set = 0;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = targets_parse(lists[i], &set, &diag);
        if (rc != DGPB_ERR_INVALID)
            fail_msg("'%s': result %d (set 0x%x), expected DGPB_ERR_INVALID", lists[i], rc, set);
        char want[64];
        snprintf(want, sizeof want, "bad target list '%s'", lists[i]);
        assert_contains(diag.message, want);
    }
}

/* ---- group symbols -------------------------------------------------------- */

#define MAX_SYMBOLS 8

static void check_scan(const char *text, const char *const *expected, size_t count)
{
    char **symbols = NULL;
    size_t n = 99;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    assert_int_equal(scan_group_symbols(text, strlen(text), &symbols, &n, &diag), DGPB_OK);
    if (n != count)
        fail_msg("'%s': %zu symbols, expected %zu", text, n, count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(symbols[i], expected[i]) != 0)
            fail_msg("'%s': symbol %zu is '%s', expected '%s'", text, i, symbols[i], expected[i]);
    group_symbols_free(symbols, n);
}

static void test_a_byte_order_mark_and_crlf_endings_change_no_group_symbol(void **state)
{
    (void)state;
    static const char *const want[] = {"DREAM_SHADER_a", "DREAM_SHADERS_RENDER"};
    check_scan("\xEF\xBB\xBF#if defined(DREAM_SHADER_a)\r\nvoid a() {}\r\n#endif\r\n"
               "#if defined(DREAM_SHADERS_RENDER)\r\n#endif\r\n",
               want, 2);
    check_scan("\xEF\xBB\xBF"
               "DREAM_SHADER_a\r\nDREAM_SHADERS_RENDER\r",
               want, 2);
}

static void test_group_symbols_are_found_in_order_of_first_mention_without_duplicates(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *symbols[MAX_SYMBOLS];
        size_t count;
    } rows[] = {
        {"", {0}, 0},
        {"[numthreads(8,1,1)] void k() {}", {0}, 0},
        {"#if defined(DREAM_SHADER_blur)\n#endif\n", {"DREAM_SHADER_blur"}, 1},
        {"#if defined(DREAM_SHADER_b)\n#endif\n#if defined(DREAM_SHADER_a)\n#endif\n"
         "#if defined(DREAM_SHADER_b) && defined(DREAM_TARGET_SPIRV)\n#endif\n",
         {"DREAM_SHADER_b", "DREAM_SHADER_a"},
         2},
        {"#ifdef DREAM_SHADERS_RENDER\n#endif\n#ifdef DREAM_SHADERS_RAY_TRACING\n#endif\n"
         "#ifdef DREAM_SHADERS_RENDER\n#endif",
         {"DREAM_SHADERS_RENDER", "DREAM_SHADERS_RAY_TRACING"},
         2},
        {"DREAM_SHADERS_RAY_TRACING DREAM_SHADER_x DREAM_SHADERS_RENDER DREAM_SHADER_x_y",
         {"DREAM_SHADERS_RAY_TRACING", "DREAM_SHADER_x", "DREAM_SHADERS_RENDER",
          "DREAM_SHADER_x_y"},
         4},
        /* At the very start and the very end of the text. */
        {"DREAM_SHADER_first", {"DREAM_SHADER_first"}, 1},
        {"(DREAM_SHADER_a1)+DREAM_SHADER_b2", {"DREAM_SHADER_a1", "DREAM_SHADER_b2"}, 2},
    };
    for (size_t i = 0; i < ARRAY_LEN(rows); i++)
        check_scan(rows[i].text, rows[i].symbols, rows[i].count);
}

static void test_group_symbols_are_whole_identifiers(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *symbols[MAX_SYMBOLS];
        size_t count;
    } rows[] = {
        {"XDREAM_SHADER_a", {0}, 0}, /* part of a longer identifier */
        {"_DREAM_SHADER_a 1DREAM_SHADER_b", {0}, 0},
        {"DREAM_SHADER_", {0}, 0}, /* the prefix alone names no entry */
        {"#if defined(DREAM_SHADER_)\n", {0}, 0},
        {"DREAM_SHADER", {0}, 0},
        {"DREAM_SHADERS_RENDERING DREAM_SHADERS_RAY_TRACING2", {0}, 0},
        {"DREAM_SHADERS_COMPUTE DREAM_SHADERSX", {0}, 0},
        {"DREAM_TARGET_SPIRV DREAM_SHADE_k", {0}, 0},
        {"XDREAM_SHADER_a DREAM_SHADER_a", {"DREAM_SHADER_a"}, 1},
        {"DREAM_SHADER_a.b DREAM_SHADER_c-d", {"DREAM_SHADER_a", "DREAM_SHADER_c"}, 2},
    };
    for (size_t i = 0; i < ARRAY_LEN(rows); i++)
        check_scan(rows[i].text, rows[i].symbols, rows[i].count);
}

static void
test_group_symbols_in_comments_and_strings_count_because_the_scan_is_textual(void **state)
{
    (void)state;
    /* Intended: the scan reads text, not the preprocessor's view of it. A symbol that only
       a comment mentions defines a group that Slang then compiles with no entry in it;
       dgpb-build drops groups without entries, so the cost is one extra compile. */
    static const char *const expected[] = {"DREAM_SHADER_k", "DREAM_SHADER_old",
                                           "DREAM_SHADERS_RENDER"};
    check_scan("// DREAM_SHADER_k is the blur\n#if defined(DREAM_SHADER_k)\n#endif\n"
               "/* #if defined(DREAM_SHADER_old) */\n"
               "static const char *s = \"DREAM_SHADERS_RENDER\";\n",
               expected, ARRAY_LEN(expected));
}

static void test_only_the_given_length_is_scanned(void **state)
{
    (void)state;
    static const char text[] = "DREAM_SHADER_ab DREAM_SHADER_cd";
    char **symbols = NULL;
    size_t n = 0;
    dgpb_diag diag;
    /* The length cuts the second symbol to "DREAM_SHADER_c". */
    assert_int_equal(scan_group_symbols(text, strlen(text) - 1, &symbols, &n, &diag), DGPB_OK);
    assert_int_equal(n, 2);
    assert_string_equal(symbols[0], "DREAM_SHADER_ab");
    assert_string_equal(symbols[1], "DREAM_SHADER_c");
    group_symbols_free(symbols, n);
    /* Too short for the prefix: nothing. */
    assert_int_equal(scan_group_symbols(text, 13, &symbols, &n, &diag), DGPB_OK);
    assert_int_equal(n, 0);
    group_symbols_free(symbols, n);
}

static void test_many_group_symbols_are_all_kept(void **state)
{
    (void)state;
    char text[4096] = "";
    size_t len = 0;
    for (int i = 0; i < 100; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "#ifdef DREAM_SHADER_e%d\n", i % 50);
    char **symbols = NULL;
    size_t n = 0;
    dgpb_diag diag;
    assert_int_equal(scan_group_symbols(text, len, &symbols, &n, &diag), DGPB_OK);
    assert_int_equal(n, 50);
    for (size_t i = 0; i < n; i++) {
        char want[48];
        snprintf(want, sizeof want, "DREAM_SHADER_e%zu", i);
        assert_string_equal(symbols[i], want);
    }
    group_symbols_free(symbols, n);
    group_symbols_free(NULL, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_target_ids_follow_bundle_order_and_name_their_macros),
        cmocka_unit_test(test_each_target_compiles_with_its_slang_target_into_its_file),
        cmocka_unit_test(test_triples_name_their_platform),
        cmocka_unit_test(test_an_empty_or_missing_triple_means_the_host),
        cmocka_unit_test(test_a_triple_naming_no_known_platform_is_an_error_naming_it),
        cmocka_unit_test(test_a_very_long_triple_is_refused),
        cmocka_unit_test(test_each_platform_loads_its_targets),
        cmocka_unit_test(test_target_lists_select_the_named_targets),
        cmocka_unit_test(test_bad_target_lists_are_errors_naming_the_problem),
        cmocka_unit_test(test_a_trailing_comma_is_an_empty_element_and_an_error),
        cmocka_unit_test(test_group_symbols_are_found_in_order_of_first_mention_without_duplicates),
        cmocka_unit_test(test_group_symbols_are_whole_identifiers),
        cmocka_unit_test(
            test_group_symbols_in_comments_and_strings_count_because_the_scan_is_textual),
        cmocka_unit_test(test_only_the_given_length_is_scanned),
        cmocka_unit_test(test_a_byte_order_mark_and_crlf_endings_change_no_group_symbol),
        cmocka_unit_test(test_many_group_symbols_are_all_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
