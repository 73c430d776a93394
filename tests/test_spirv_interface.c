/*
 * test_spirv_interface.c - an entry point's user-defined inputs and outputs
 * read from SPIR-V (code/spirv/spirv_interface.h): the attributes a vertex
 * shader reads and the targets a fragment shader writes, over Slang's own
 * output (fixtures/spirv/layer_viewport.spv and stencil.spv, from
 * renderer.slang: see tests/test_spirv_analysis.c), hand-made modules, a
 * byte-swapped one, and every truncation of a real one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "code/spirv/spirv_interface.h"
#include "dgpb/dgpb.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#define HEADER 0x07230203u, 0x00010500u, 0u, 32u, 0u
#define OP(op, count) ((uint32_t)(count) << 16 | (op))
#define INPUT false
#define OUTPUT true

static int read_words(const uint32_t *words, size_t n, bool storage, code_interface_var **v,
                      uint32_t *count)
{
    return spirv_interface_read((const uint8_t *)words, n * 4, storage, v, count, NULL);
}

static void slangs_vertex_shader_reads_its_attribute_not_its_built_ins(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *code = support_read_source_file("fixtures/spirv/layer_viewport.spv", &size);
    assert_non_null(code);
    code_interface_var *v = NULL;
    uint32_t n = 0;
    /* float4 p : POSITION beside SV_InstanceID (a built-in). */
    assert_int_equal(spirv_interface_read(code, size, INPUT, &v, &n, NULL), DGPB_OK);
    assert_int_equal(n, 1);
    assert_string_equal(v[0].name, "p");
    assert_int_equal(v[0].location, 0);
    assert_int_equal(v[0].scalar, 'f');
    assert_int_equal(v[0].bits, 32);
    assert_int_equal(v[0].components, 4);
    assert_int_equal(v[0].columns, 1);
    assert_int_equal(v[0].array, 0);
    dgpb_free(v);
    /* Its outputs are SV_Position, SV_RenderTargetArrayIndex and SV_ViewportArrayIndex. */
    assert_int_equal(spirv_interface_read(code, size, OUTPUT, &v, &n, NULL), DGPB_OK);
    assert_int_equal(n, 0);
    assert_null(v);
    dgpb_free(code);
}

static void slangs_fragment_shader_writes_its_target_not_its_stencil(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *code = support_read_source_file("fixtures/spirv/stencil.spv", &size);
    assert_non_null(code);
    code_interface_var *v = NULL;
    uint32_t n = 0;
    assert_int_equal(spirv_interface_read(code, size, OUTPUT, &v, &n, NULL), DGPB_OK);
    assert_int_equal(n, 1);
    assert_string_equal(v[0].name, "entryPointParam_stencil.color");
    assert_int_equal(v[0].location, 0);
    assert_int_equal(v[0].scalar, 'f');
    assert_int_equal(v[0].components, 4);
    dgpb_free(v);
    dgpb_free(code);
}

static void variables_come_in_order_of_location_with_their_types(void **state)
{
    (void)state;
    /* OpEntryPoint Vertex %1 "main" %2 %3 %4 %5 %6 %7:
       %2 BuiltIn VertexIndex; %3 "uv" Location 2 uint2; %4 "pos" Location 0 float;
       %5 "m" Location 3 a matrix of 4 float2 columns; %6 "a" Location 1 an array of 2 int;
       %7 an Output of a struct with a BuiltIn member (gl_PerVertex). */
    /* clang-format off */
    const uint32_t words[] = {HEADER,
                              OP(15, 11), 0, 1, 0x6e69616d, 0, 2, 3, 4, 5, 6, 7,
                              OP(5, 3), 3, 0x7675,
                              OP(5, 4), 4, 0x736f70, 0,
                              OP(5, 3), 5, 0x6d,
                              OP(5, 3), 6, 0x61,
                              OP(71, 4), 2, 11, 42,
                              OP(71, 4), 3, 30, 2,
                              OP(71, 4), 4, 30, 0,
                              OP(71, 4), 5, 30, 3,
                              OP(71, 4), 6, 30, 1,
                              OP(72, 5), 29, 0, 11, 0,
                              OP(21, 4), 10, 32, 0,    /* uint */
                              OP(21, 4), 11, 32, 1,    /* int */
                              OP(22, 3), 12, 32,       /* float */
                              OP(23, 4), 13, 10, 2,    /* uint2 */
                              OP(23, 4), 14, 12, 2,    /* float2 */
                              OP(24, 4), 15, 14, 4,    /* 4 float2 columns */
                              OP(43, 4), 10, 16, 2,    /* uint 2 */
                              OP(28, 4), 17, 11, 16,   /* int[2] */
                              OP(30, 3), 29, 12,       /* struct { float BuiltIn } */
                              OP(32, 4), 20, 1, 10,
                              OP(32, 4), 21, 1, 13,
                              OP(32, 4), 22, 1, 12,
                              OP(32, 4), 23, 1, 15,
                              OP(32, 4), 24, 1, 17,
                              OP(32, 4), 25, 3, 29,
                              OP(59, 4), 20, 2, 1,
                              OP(59, 4), 21, 3, 1,
                              OP(59, 4), 22, 4, 1,
                              OP(59, 4), 23, 5, 1,
                              OP(59, 4), 24, 6, 1,
                              OP(59, 4), 25, 7, 3};
    /* clang-format on */
    code_interface_var *v = NULL;
    uint32_t n = 0;
    assert_int_equal(read_words(words, ARRAY_LEN(words), INPUT, &v, &n), DGPB_OK);
    assert_int_equal(n, 4);
    assert_string_equal(v[0].name, "pos");
    assert_int_equal(v[0].location, 0);
    assert_int_equal(v[0].scalar, 'f');
    assert_int_equal(v[0].components, 1);
    assert_string_equal(v[1].name, "a");
    assert_int_equal(v[1].location, 1);
    assert_int_equal(v[1].scalar, 'i');
    assert_int_equal(v[1].array, 2);
    assert_string_equal(v[2].name, "uv");
    assert_int_equal(v[2].location, 2);
    assert_int_equal(v[2].scalar, 'u');
    assert_int_equal(v[2].components, 2);
    assert_string_equal(v[3].name, "m");
    assert_int_equal(v[3].columns, 4);
    assert_int_equal(v[3].components, 2);
    dgpb_free(v);
    /* The Output of a block of built-ins is none of the entry's own. */
    assert_int_equal(read_words(words, ARRAY_LEN(words), OUTPUT, &v, &n), DGPB_OK);
    assert_int_equal(n, 0);
}

static void a_byte_swapped_module_reads_the_same(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *code = support_read_source_file("fixtures/spirv/layer_viewport.spv", &size);
    assert_non_null(code);
    for (size_t i = 0; i + 4 <= size; i += 4) {
        uint8_t w[4] = {code[i], code[i + 1], code[i + 2], code[i + 3]};
        code[i] = w[3], code[i + 1] = w[2], code[i + 2] = w[1], code[i + 3] = w[0];
    }
    code_interface_var *v = NULL;
    uint32_t n = 0;
    assert_int_equal(spirv_interface_read(code, size, INPUT, &v, &n, NULL), DGPB_OK);
    assert_int_equal(n, 1);
    assert_string_equal(v[0].name, "p");
    assert_int_equal(v[0].components, 4);
    dgpb_free(v);
    dgpb_free(code);
}

static void what_is_no_module_is_refused(void **state)
{
    (void)state;
    static const struct {
        const char *what;
        uint32_t words[12];
        size_t n;
        const char *message;
    } cases[] = {
        {"four words", {HEADER}, 4, "is not a module"},
        {"no magic", {0x12345678u, 0, 0, 16, 0}, 5, "no magic number"},
        {"no entry point", {HEADER, OP(17, 2), 1}, 7, "no entry point"},
        {"a word count of 0", {HEADER, OP(17, 0), 1}, 7, "a word count of 0"},
        {"an instruction past the end", {HEADER, OP(15, 9), 1, 1}, 8, "past the module's end"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        code_interface_var *v = NULL;
        uint32_t n = 0;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        int rc = spirv_interface_read((const uint8_t *)cases[i].words, cases[i].n * 4, INPUT, &v,
                                      &n, &d);
        if (rc != DGPB_ERR_CORRUPT || !strstr(d.message, cases[i].message) || v || n)
            fail_msg("%s: result %d, '%s'", cases[i].what, rc, d.message);
    }
}

/* Every prefix of a real module is read without a byte past it: a module or a refusal. */
static void every_truncation_of_a_module_is_read_safely(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *code = support_read_source_file("fixtures/spirv/layer_viewport.spv", &size);
    assert_non_null(code);
    for (size_t n = 0; n <= size; n++) {
        uint8_t *copy = malloc(n ? n : 1); /* exactly n bytes: ASan sees any overrun */
        assert_non_null(copy);
        memcpy(copy, code, n);
        code_interface_var *v = NULL;
        uint32_t count = 0;
        int rc = spirv_interface_read(copy, n, INPUT, &v, &count, NULL);
        assert_true(rc == DGPB_OK || rc == DGPB_ERR_CORRUPT);
        dgpb_free(v);
        free(copy);
    }
    dgpb_free(code);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slangs_vertex_shader_reads_its_attribute_not_its_built_ins),
        cmocka_unit_test(slangs_fragment_shader_writes_its_target_not_its_stencil),
        cmocka_unit_test(variables_come_in_order_of_location_with_their_types),
        cmocka_unit_test(a_byte_swapped_module_reads_the_same),
        cmocka_unit_test(what_is_no_module_is_refused),
        cmocka_unit_test(every_truncation_of_a_module_is_read_safely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
