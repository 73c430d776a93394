/*
 * test_spirv_stage.c - what a render pipeline reads from an entry's SPIR-V
 * (code/spirv/spirv_stage.h): a hull shader's control points per patch, a
 * geometry shader's input primitive, over Slang's own output
 * (fixtures/spirv/hull_patch.spv, geometry_point.spv and mesh_tris.spv, from
 * stages.slang: see tests/test_spirv_analysis.c), byte-swapped modules,
 * hand-made ones, and every truncation of a real one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "code/spirv/spirv_stage.h"
#include "dgpb/dgpb.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static int read_modes(const char *relpath, spirv_stage_modes *m)
{
    size_t size = 0;
    uint8_t *code = support_read_source_file(relpath, &size);
    assert_non_null(code);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = spirv_stage_read(code, size, m, &d);
    dgpb_free(code);
    return rc;
}

/* A module of `n` words (the first five its header, bound 16). */
static int read_words(const uint32_t *words, size_t n, spirv_stage_modes *m, dgpb_diag *d)
{
    return spirv_stage_read((const uint8_t *)words, n * 4, m, d);
}

#define HEADER 0x07230203u, 0x00010500u, 0u, 16u, 0u
#define OP(op, count) ((uint32_t)(count) << 16 | (op))

static void a_hull_shader_has_patches_of_its_input_patch(void **state)
{
    (void)state;
    spirv_stage_modes m;
    assert_int_equal(read_modes("fixtures/spirv/hull_patch.spv", &m), DGPB_OK);
    assert_int_equal(m.execution_model, 1); /* TessellationControl */
    assert_int_equal(m.input_patch, 3);     /* InputPatch<ControlPoint, 3> */
    assert_int_equal(m.output_vertices, 3); /* [outputcontrolpoints(3)] */
    assert_int_equal(m.input_primitive, 0); /* its Triangles is the tessellator's, not an input */
}

static void a_geometry_shader_states_its_input_primitive(void **state)
{
    (void)state;
    spirv_stage_modes m;
    assert_int_equal(read_modes("fixtures/spirv/geometry_point.spv", &m), DGPB_OK);
    assert_int_equal(m.execution_model, 3);  /* Geometry */
    assert_int_equal(m.input_primitive, 19); /* InputPoints */
    assert_int_equal(m.output_vertices, 1);
    assert_int_equal(m.input_patch, 0);
}

static void a_mesh_shader_has_no_patch_nor_input_primitive(void **state)
{
    (void)state;
    spirv_stage_modes m;
    assert_int_equal(read_modes("fixtures/spirv/mesh_tris.spv", &m), DGPB_OK);
    assert_int_equal(m.execution_model, 5365); /* MeshEXT */
    assert_int_equal(m.output_vertices, 3);
    assert_int_equal(m.input_patch, 0);
    assert_int_equal(m.input_primitive, 0);
}

static void a_byte_swapped_module_reads_the_same(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *code = support_read_source_file("fixtures/spirv/hull_patch.spv", &size);
    assert_non_null(code);
    for (size_t i = 0; i + 4 <= size; i += 4) {
        uint8_t w[4] = {code[i], code[i + 1], code[i + 2], code[i + 3]};
        code[i] = w[3], code[i + 1] = w[2], code[i + 2] = w[1], code[i + 3] = w[0];
    }
    spirv_stage_modes m;
    assert_int_equal(spirv_stage_read(code, size, &m, NULL), DGPB_OK);
    assert_int_equal(m.input_patch, 3);
    assert_int_equal(m.output_vertices, 3);
    dgpb_free(code);
}

static void a_hull_shader_without_inputs_has_its_output_control_points(void **state)
{
    (void)state;
    /* OpEntryPoint TessellationControl %1 "main"; OpExecutionMode %1 OutputVertices 4 */
    const uint32_t words[] = {HEADER, OP(15, 5), 1, 1, 0x6e69616d, 0, OP(16, 4), 1, 26, 4};
    spirv_stage_modes m;
    assert_int_equal(read_words(words, ARRAY_LEN(words), &m, NULL), DGPB_OK);
    assert_int_equal(m.input_patch, 0);
    assert_int_equal(m.output_vertices, 4);
}

static void a_hull_shaders_input_patch_comes_before_its_output_control_points(void **state)
{
    (void)state;
    /* OpEntryPoint TessellationControl %1 "main" %2; OutputVertices 1; %2: an Input
       variable of an array of 4 ints (InputPatch<T, 4> with [outputcontrolpoints(1)]). */
    /* clang-format off */
    const uint32_t words[] = {HEADER,
                              OP(15, 6), 1, 1, 0x6e69616d, 0, 2,
                              OP(16, 4), 1, 26, 1,
                              OP(21, 4), 5, 32, 1,
                              OP(43, 4), 5, 7, 4,
                              OP(28, 4), 8, 5, 7,
                              OP(32, 4), 6, 1, 8,
                              OP(59, 4), 6, 2, 1};
    /* clang-format on */
    spirv_stage_modes m;
    assert_int_equal(read_words(words, ARRAY_LEN(words), &m, NULL), DGPB_OK);
    assert_int_equal(m.input_patch, 4);
    assert_int_equal(m.output_vertices, 1);
}

static void the_modes_of_another_function_are_not_the_entry_points(void **state)
{
    (void)state;
    /* OpEntryPoint Geometry %1 "main"; OpExecutionMode %2 InputLines */
    const uint32_t words[] = {HEADER, OP(15, 5), 3, 1, 0x6e69616d, 0, OP(16, 3), 2, 20};
    spirv_stage_modes m;
    assert_int_equal(read_words(words, ARRAY_LEN(words), &m, NULL), DGPB_OK);
    assert_int_equal(m.execution_model, 3);
    assert_int_equal(m.input_primitive, 0);
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
        spirv_stage_modes m;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        int rc = read_words(cases[i].words, cases[i].n, &m, &d);
        if (rc != DGPB_ERR_CORRUPT || !strstr(d.message, cases[i].message))
            fail_msg("%s: result %d, '%s'", cases[i].what, rc, d.message);
    }
    spirv_stage_modes m;
    const uint8_t odd[21] = {0x03, 0x02, 0x23, 0x07};
    assert_int_equal(spirv_stage_read(odd, sizeof odd, &m, NULL), DGPB_ERR_CORRUPT);
}

/* Every prefix of a real module is read without a byte past it: a module or a refusal. */
static void every_truncation_of_a_module_is_read_safely(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *code = support_read_source_file("fixtures/spirv/hull_patch.spv", &size);
    assert_non_null(code);
    for (size_t n = 0; n <= size; n++) {
        uint8_t *copy = malloc(n ? n : 1); /* exactly n bytes: ASan sees any overrun */
        assert_non_null(copy);
        memcpy(copy, code, n);
        spirv_stage_modes m;
        int rc = spirv_stage_read(copy, n, &m, NULL);
        assert_true(rc == DGPB_OK || rc == DGPB_ERR_CORRUPT);
        free(copy);
    }
    dgpb_free(code);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_hull_shader_has_patches_of_its_input_patch),
        cmocka_unit_test(a_geometry_shader_states_its_input_primitive),
        cmocka_unit_test(a_mesh_shader_has_no_patch_nor_input_primitive),
        cmocka_unit_test(a_byte_swapped_module_reads_the_same),
        cmocka_unit_test(a_hull_shader_without_inputs_has_its_output_control_points),
        cmocka_unit_test(a_hull_shaders_input_patch_comes_before_its_output_control_points),
        cmocka_unit_test(the_modes_of_another_function_are_not_the_entry_points),
        cmocka_unit_test(what_is_no_module_is_refused),
        cmocka_unit_test(every_truncation_of_a_module_is_read_safely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
