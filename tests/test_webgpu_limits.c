/*
 * test_webgpu_limits.c - WebGPU's default per-stage limits, checked per
 * pipeline group on the wgsl target (tables/webgpu_limits.h; docs/design.md,
 * section 4): storage buffers 8, storage textures 4, uniform buffers 12,
 * sampled textures 16, samplers 16; and each entry's other limits
 * (webgpu_check_entry): workgroup size per axis and invocations,
 * workgroup memory, writable storage in a vertex shader.
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
#include "bundle/model.h"
#include "tables/params.h"
#include "tables/webgpu_limits.h"
#include "code/wgsl/wgsl_scan.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_ROWS 64

/* A parameter table that owns nothing (rows with literal names); add rows with add(). */
typedef struct table {
    dgpb_param_desc rows[MAX_ROWS];
    dgpb_param_table view;
} table;

static void add(table *t, uint32_t kind, uint32_t space, uint32_t binding, uint32_t id)
{
    assert_true(t->view.count < MAX_ROWS);
    dgpb_param_desc *p = &t->rows[t->view.count++];
    memset(p, 0, sizeof *p);
    p->name = "p";
    p->kind = kind;
    p->flags = dgpb_kind_required_flags(kind);
    p->space = space;
    p->binding = binding;
    p->size = kind == DGPB_KIND_VALUE ? 4 : 0;
    p->webgpu_layout = id;
    t->view.rows = t->rows;
}

/* The parameter kind that goes with a WebGPU ID, for realistic rows. */
static uint32_t kind_of(uint32_t id)
{
    switch (id) {
    case DGPB_WGPU_UNIFORM_BUFFER:
        return DGPB_KIND_UNIFORM_BUFFER;
    case DGPB_WGPU_READ_ONLY_STORAGE_BUFFER:
        return DGPB_KIND_BUFFER;
    case DGPB_WGPU_STORAGE_BUFFER:
        return DGPB_KIND_RW_BUFFER;
    case DGPB_WGPU_FILTERING_SAMPLER:
        return DGPB_KIND_SAMPLER;
    case DGPB_WGPU_TEXTURE_2D_FLOAT:
        return DGPB_KIND_TEXTURE;
    case DGPB_WGPU_NONE:
        return DGPB_KIND_ACCELERATION_STRUCTURE;
    default:
        return DGPB_KIND_RW_TEXTURE;
    }
}

static int check_one(const char *group, const char *entry, const table *t, dgpb_diag *diag)
{
    const char *entries[1] = {entry};
    dgpb_diag_clear(diag);
    return webgpu_check_group(group, entries, &t->view, 1, diag);
}

static int check_two(const char *group, const table *a, const table *b, dgpb_diag *diag)
{
    static const char *const entries[2] = {"vs", "fs"};
    dgpb_param_table tables[2] = {a->view, b->view};
    dgpb_diag_clear(diag);
    return webgpu_check_group(group, entries, tables, 2, diag);
}

/* ---- each class at its limit and one over ----------------------------------- */

static const struct {
    const char *name;
    unsigned limit;
    uint32_t ids[4]; /* the IDs of the class, used in turn */
    size_t id_count;
} classes[] = {
    {"storage buffers", 8, {DGPB_WGPU_READ_ONLY_STORAGE_BUFFER, DGPB_WGPU_STORAGE_BUFFER}, 2},
    {"storage textures",
     4,
     {DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT, DGPB_WGPU_STORAGE_TEXTURE_2D_RG32FLOAT,
      DGPB_WGPU_STORAGE_TEXTURE_2D_RGBA32FLOAT, DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT},
     4},
    {"uniform buffers", 12, {DGPB_WGPU_UNIFORM_BUFFER}, 1},
    {"sampled textures", 16, {DGPB_WGPU_TEXTURE_2D_FLOAT}, 1},
    {"samplers", 16, {DGPB_WGPU_FILTERING_SAMPLER}, 1},
};

static void fill_class(table *t, size_t c, unsigned count, uint32_t space, uint32_t first)
{
    for (unsigned i = 0; i < count; i++) {
        uint32_t id = classes[c].ids[i % classes[c].id_count];
        add(t, kind_of(id), space, first + i, id);
    }
}

static void test_each_class_passes_at_its_limit(void **state)
{
    (void)state;
    for (size_t c = 0; c < ARRAY_LEN(classes); c++) {
        table t = {0};
        fill_class(&t, c, classes[c].limit, 0, 0);
        dgpb_diag diag;
        int rc = check_one("compute shader 'k'", "k", &t, &diag);
        if (rc != DGPB_OK)
            fail_msg("%u %s: %s", classes[c].limit, classes[c].name, diag.message);
    }
}

static void test_each_class_fails_one_over_its_limit_naming_group_class_and_numbers(void **state)
{
    (void)state;
    for (size_t c = 0; c < ARRAY_LEN(classes); c++) {
        table t = {0};
        fill_class(&t, c, classes[c].limit + 1, 0, 0);
        dgpb_diag diag;
        int rc = check_one("compute shader 'k'", "k", &t, &diag);
        if (rc != DGPB_ERR_SHADER)
            fail_msg("%u %s: result %d, expected DGPB_ERR_SHADER", classes[c].limit + 1,
                     classes[c].name, rc);
        char want[160];
        snprintf(want, sizeof want,
                 "compute shader 'k' uses %u %s; WebGPU allows %u per shader stage",
                 classes[c].limit + 1, classes[c].name, classes[c].limit);
        assert_contains(diag.message, want);
    }
}

static void test_every_class_at_its_limit_together_passes(void **state)
{
    (void)state;
    /* The limits are per class: 8 + 4 + 12 + 16 + 16 bindings in one shader are fine. */
    table t = {0};
    uint32_t next = 0;
    for (size_t c = 0; c < ARRAY_LEN(classes); c++) {
        fill_class(&t, c, classes[c].limit, 0, next);
        next += classes[c].limit;
    }
    dgpb_diag diag;
    assert_int_equal(check_one("compute shader 'k'", "k", &t, &diag), DGPB_OK);
}

static void test_parameters_without_a_webgpu_descriptor_do_not_count(void **state)
{
    (void)state;
    table t = {0};
    for (uint32_t i = 0; i < 40; i++)
        add(&t, DGPB_KIND_ACCELERATION_STRUCTURE, 0, i % 2, DGPB_WGPU_NONE);
    fill_class(&t, 0, 8, 1, 0);
    dgpb_diag diag;
    assert_int_equal(check_one("compute shader 'k'", "k", &t, &diag), DGPB_OK);
}

/* ---- value rows ------------------------------------------------------------- */

static void test_value_rows_of_one_block_count_as_one_uniform_buffer(void **state)
{
    (void)state;
    /* 20 values in the block at binding 0, then 11 uniform buffers: 12 in all. */
    table t = {0};
    for (uint32_t i = 0; i < 20; i++)
        add(&t, DGPB_KIND_VALUE, 0, 0, DGPB_WGPU_UNIFORM_BUFFER);
    for (uint32_t i = 1; i <= 11; i++)
        add(&t, DGPB_KIND_UNIFORM_BUFFER, 0, i, DGPB_WGPU_UNIFORM_BUFFER);
    dgpb_diag diag;
    assert_int_equal(check_one("compute shader 'k'", "k", &t, &diag), DGPB_OK);
    add(&t, DGPB_KIND_UNIFORM_BUFFER, 0, 12, DGPB_WGPU_UNIFORM_BUFFER);
    assert_int_equal(check_one("compute shader 'k'", "k", &t, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message, "uses 13 uniform buffers; WebGPU allows 12");
}

/* ---- groups of several entries ---------------------------------------------- */

static void test_bindings_shared_by_entries_of_a_group_count_once(void **state)
{
    (void)state;
    table vs = {0}, fs = {0};
    fill_class(&vs, 0, 8, 0, 0); /* the same 8 storage buffers in both */
    fill_class(&fs, 0, 8, 0, 0);
    dgpb_diag diag;
    assert_int_equal(check_two("the render group", &vs, &fs, &diag), DGPB_OK);
    /* One more, in either entry, is one too many for the group. */
    add(&fs, DGPB_KIND_BUFFER, 0, 8, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER);
    assert_int_equal(check_two("the render group", &vs, &fs, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message,
                    "the render group uses 9 storage buffers; WebGPU allows 8 per shader stage");
}

static void test_bindings_of_different_entries_add_up_in_the_group(void **state)
{
    (void)state;
    /* 3 + 2 storage textures at different bindings: 5 for the ray-tracing group. */
    table a = {0}, b = {0};
    fill_class(&a, 1, 3, 0, 0);
    fill_class(&b, 1, 2, 0, 3);
    dgpb_diag diag;
    assert_int_equal(check_two("the ray-tracing group", &a, &b, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message, "the ray-tracing group uses 5 storage textures; WebGPU allows 4");
}

static void test_the_same_binding_number_in_two_spaces_is_two_bindings(void **state)
{
    (void)state;
    table t = {0};
    fill_class(&t, 0, 5, 0, 0);
    fill_class(&t, 0, 4, 1, 0);
    dgpb_diag diag;
    assert_int_equal(check_one("compute shader 'k'", "k", &t, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message, "uses 9 storage buffers");
}

static void test_one_binding_with_two_descriptors_fails_naming_both_entries(void **state)
{
    (void)state;
    table vs = {0}, fs = {0};
    add(&vs, DGPB_KIND_SAMPLER, 0, 0, DGPB_WGPU_FILTERING_SAMPLER);
    add(&vs, DGPB_KIND_RW_BUFFER, 1, 3, DGPB_WGPU_STORAGE_BUFFER);
    add(&fs, DGPB_KIND_SAMPLER, 0, 0, DGPB_WGPU_FILTERING_SAMPLER);
    add(&fs, DGPB_KIND_BUFFER, 1, 3, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER);
    dgpb_diag diag;
    assert_int_equal(check_two("the render group", &vs, &fs, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message,
                    "the render group: binding 3 of group 1 is a storage buffer in entry 'vs' but "
                    "a read-only storage buffer in entry 'fs'; WebGPU needs one descriptor per "
                    "binding");
}

static void test_one_binding_with_the_same_descriptor_everywhere_is_fine(void **state)
{
    (void)state;
    table vs = {0}, fs = {0};
    add(&vs, DGPB_KIND_RW_TEXTURE, 0, 2, DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT);
    add(&fs, DGPB_KIND_RW_TEXTURE, 0, 2, DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT);
    add(&fs, DGPB_KIND_RW_TEXTURE, 0, 3, DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT);
    dgpb_diag diag;
    assert_int_equal(check_two("the render group", &vs, &fs, &diag), DGPB_OK);
}

static void test_empty_groups_and_tables_pass(void **state)
{
    (void)state;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    assert_int_equal(webgpu_check_group("the render group", NULL, NULL, 0, &diag), DGPB_OK);
    table a = {0}, b = {0};
    assert_int_equal(check_two("the render group", &a, &b, &diag), DGPB_OK);
}

/* ---- one entry's other limits (webgpu_check_entry) ---------------------- */

static int check_entry(const char *entry, uint32_t stage, uint32_t x, uint32_t y, uint32_t z,
                       const dgpb_wgsl_module *code, const table *t, dgpb_diag *diag)
{
    const uint32_t tgs[3] = {x, y, z};
    static const table empty;
    dgpb_diag_clear(diag);
    return webgpu_check_entry(entry, stage, tgs, code, t ? &t->view : &empty.view, diag);
}

static void expect_entry_error(int rc, const dgpb_diag *diag, const char *message)
{
    if (rc != DGPB_ERR_SHADER)
        fail_msg("result %d, expected DGPB_ERR_SHADER (%s)", rc, message);
    assert_int_equal(diag->code, DGPB_ERR_SHADER);
    assert_contains(diag->message, message);
}

static void test_a_compute_workgroup_at_each_limit_passes(void **state)
{
    (void)state;
    static const uint32_t sizes[][3] = {{256, 1, 1}, {1, 256, 1}, {1, 1, 64}, {16, 16, 1},
                                        {4, 4, 16},  {1, 1, 1},   {8, 8, 4}};
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
        dgpb_diag diag;
        int rc = check_entry("k", DGPB_STAGE_COMPUTE, sizes[i][0], sizes[i][1], sizes[i][2], NULL,
                             NULL, &diag);
        if (rc != DGPB_OK)
            fail_msg("%u x %u x %u: %s", sizes[i][0], sizes[i][1], sizes[i][2], diag.message);
    }
}

static void
test_a_workgroup_axis_over_its_limit_fails_naming_entry_axis_limit_and_size(void **state)
{
    (void)state;
    static const struct {
        uint32_t size[3];
        const char *message;
    } cases[] = {
        {{257, 1, 1},
         "entry 'wide': workgroup size x is 257, above WebGPU's limit of 256 "
         "(maxComputeWorkgroupSizeX)"},
        {{1024, 1, 1}, "entry 'wide': workgroup size x is 1024, above WebGPU's limit of 256"},
        {{1, 512, 1},
         "entry 'wide': workgroup size y is 512, above WebGPU's limit of 256 "
         "(maxComputeWorkgroupSizeY)"},
        {{1, 1, 65},
         "entry 'wide': workgroup size z is 65, above WebGPU's limit of 64 "
         "(maxComputeWorkgroupSizeZ)"},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_diag diag;
        int rc = check_entry("wide", DGPB_STAGE_COMPUTE, cases[c].size[0], cases[c].size[1],
                             cases[c].size[2], NULL, NULL, &diag);
        expect_entry_error(rc, &diag, cases[c].message);
    }
}

static void
test_too_many_invocations_per_workgroup_fail_naming_the_product_and_the_limit(void **state)
{
    (void)state;
    static const struct {
        uint32_t size[3];
        const char *message;
    } cases[] = {
        {{16, 16, 2},
         "entry 'k': 16 x 16 x 2 = 512 invocations per workgroup, above WebGPU's limit of 256 "
         "(maxComputeInvocationsPerWorkgroup)"},
        {{256, 2, 1}, "entry 'k': 256 x 2 x 1 = 512 invocations per workgroup"},
        {{256, 256, 64}, "entry 'k': 256 x 256 x 64 = 4194304 invocations per workgroup"},
        {{3, 3, 29}, "entry 'k': 3 x 3 x 29 = 261 invocations per workgroup"},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_diag diag;
        int rc = check_entry("k", DGPB_STAGE_COMPUTE, cases[c].size[0], cases[c].size[1],
                             cases[c].size[2], NULL, NULL, &diag);
        expect_entry_error(rc, &diag, cases[c].message);
    }
}

static dgpb_wgsl_module *scan_wgsl(const char *text)
{
    dgpb_wgsl_module *m = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (wgsl_module_scan(text, strlen(text), &m, &diag) != DGPB_OK)
        fail_msg("%s", diag.message);
    return m;
}

static void test_workgroup_memory_over_the_limit_fails_naming_both_byte_counts(void **state)
{
    (void)state;
    /* 4096 floats are exactly 16,384 bytes; one more is rounded up to 16,400. */
    dgpb_wgsl_module *at = scan_wgsl("var<workgroup> tile : array<f32, 4096>;\n"
                                     "@compute @workgroup_size(64) fn k() { tile[0] = 1.0; }\n");
    dgpb_wgsl_module *over = scan_wgsl("var<workgroup> tile : array<f32, 4097>;\n"
                                       "@compute @workgroup_size(64) fn k() { tile[0] = 1.0; }\n");
    dgpb_diag diag;
    int at_rc = check_entry("k", DGPB_STAGE_COMPUTE, 64, 1, 1, at, NULL, &diag);
    int over_rc = check_entry("k", DGPB_STAGE_COMPUTE, 64, 1, 1, over, NULL, &diag);
    /* Only compute entries have workgroup memory to count. */
    dgpb_diag other;
    int vertex_rc = check_entry("v", DGPB_STAGE_VERTEX, 0, 0, 0, over, NULL, &other);
    wgsl_module_free(at);
    wgsl_module_free(over);
    assert_int_equal(at_rc, DGPB_OK);
    expect_entry_error(over_rc, &diag,
                       "entry 'k': 16400 bytes of workgroup (groupshared) memory, above WebGPU's "
                       "limit of 16384 (maxComputeWorkgroupStorageSize)");
    assert_int_equal(vertex_rc, DGPB_OK);

    /* A size the scan could not finish is a lower bound, and said so. */
    dgpb_wgsl_module partial = {.workgroup_bytes = 20000, .workgroup_bytes_known = false};
    int rc = check_entry("k", DGPB_STAGE_COMPUTE, 64, 1, 1, &partial, NULL, &diag);
    expect_entry_error(rc, &diag,
                       "entry 'k': at least 20000 bytes of workgroup (groupshared) memory, above "
                       "WebGPU's limit of 16384");
    partial.workgroup_bytes = 16384;
    assert_int_equal(check_entry("k", DGPB_STAGE_COMPUTE, 64, 1, 1, &partial, NULL, &diag),
                     DGPB_OK);
}

/* A row named `name` of `kind`, with its required flags. */
static void add_named(table *t, const char *name, uint32_t kind, uint32_t binding)
{
    add(t, kind, 0, binding, 0);
    t->rows[t->view.count - 1].name = name;
}

static void
test_a_writable_resource_in_a_vertex_shader_fails_naming_entry_and_parameter(void **state)
{
    (void)state;
    static const struct {
        uint32_t kind;
        const char *what;
    } writable[] = {
        {DGPB_KIND_RW_BUFFER, "a writable storage buffer"},
        {DGPB_KIND_RW_BYTE_BUFFER, "a writable storage buffer"},
        {DGPB_KIND_RW_TEXTURE, "a writable storage texture"},
    };
    for (size_t w = 0; w < ARRAY_LEN(writable); w++) {
        table t = {0};
        add_named(&t, "positions", DGPB_KIND_BUFFER, 0);
        add_named(&t, "counters", writable[w].kind, 1);
        char message[256];
        snprintf(message, sizeof message,
                 "entry 'vmain': parameter 'counters' is %s in a vertex shader, which WebGPU "
                 "does not allow; make it read-only (StructuredBuffer, ByteAddressBuffer, "
                 "Texture2D) or move the write to a compute or fragment shader",
                 writable[w].what);
        dgpb_diag diag;
        int rc = check_entry("vmain", DGPB_STAGE_VERTEX, 0, 0, 0, NULL, &t, &diag);
        expect_entry_error(rc, &diag, message);
        /* The same rows are fine in a fragment or a compute shader. */
        assert_int_equal(check_entry("fmain", DGPB_STAGE_FRAGMENT, 0, 0, 0, NULL, &t, &diag),
                         DGPB_OK);
        assert_int_equal(check_entry("k", DGPB_STAGE_COMPUTE, 64, 1, 1, NULL, &t, &diag), DGPB_OK);
    }
    /* Read-only resources and values are fine in a vertex shader. */
    table ro = {0};
    static const uint32_t kinds[] = {DGPB_KIND_VALUE,
                                     DGPB_KIND_UNIFORM_BUFFER,
                                     DGPB_KIND_BUFFER,
                                     DGPB_KIND_BYTE_BUFFER,
                                     DGPB_KIND_TEXTURE,
                                     DGPB_KIND_SAMPLER,
                                     DGPB_KIND_ACCELERATION_STRUCTURE};
    for (size_t k = 0; k < ARRAY_LEN(kinds); k++)
        add_named(&ro, "read", kinds[k], (uint32_t)k);
    dgpb_diag diag;
    assert_int_equal(check_entry("vmain", DGPB_STAGE_VERTEX, 0, 0, 0, NULL, &ro, &diag), DGPB_OK);
}

static void test_only_compute_entries_have_workgroup_sizes_to_check(void **state)
{
    (void)state;
    static const uint32_t stages[] = {DGPB_STAGE_VERTEX, DGPB_STAGE_FRAGMENT,
                                      DGPB_STAGE_RAYGENERATION};
    for (size_t s = 0; s < ARRAY_LEN(stages); s++) {
        dgpb_diag diag;
        int rc = check_entry("e", stages[s], 1024, 1024, 1024, NULL, NULL, &diag);
        if (rc != DGPB_OK)
            fail_msg("stage %u: %s", stages[s], diag.message);
    }
}

/* ---- allocation failure ------------------------------------------------------ */

static void test_a_failed_allocation_gives_nomem(void **state)
{
    (void)state;
    table t = {0};
    fill_class(&t, 0, 2, 0, 0);
    dgpb_diag diag;
    support_faults_arm_all();
    int rc = check_one("compute shader 'k'", "k", &t, &diag);
    support_faults_disarm();
    assert_int_equal(rc, DGPB_ERR_NOMEM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_class_passes_at_its_limit),
        cmocka_unit_test(test_each_class_fails_one_over_its_limit_naming_group_class_and_numbers),
        cmocka_unit_test(test_every_class_at_its_limit_together_passes),
        cmocka_unit_test(test_parameters_without_a_webgpu_descriptor_do_not_count),
        cmocka_unit_test(test_value_rows_of_one_block_count_as_one_uniform_buffer),
        cmocka_unit_test(test_bindings_shared_by_entries_of_a_group_count_once),
        cmocka_unit_test(test_bindings_of_different_entries_add_up_in_the_group),
        cmocka_unit_test(test_the_same_binding_number_in_two_spaces_is_two_bindings),
        cmocka_unit_test(test_one_binding_with_two_descriptors_fails_naming_both_entries),
        cmocka_unit_test(test_one_binding_with_the_same_descriptor_everywhere_is_fine),
        cmocka_unit_test(test_empty_groups_and_tables_pass),
        cmocka_unit_test(test_a_compute_workgroup_at_each_limit_passes),
        cmocka_unit_test(
            test_a_workgroup_axis_over_its_limit_fails_naming_entry_axis_limit_and_size),
        cmocka_unit_test(
            test_too_many_invocations_per_workgroup_fail_naming_the_product_and_the_limit),
        cmocka_unit_test(test_workgroup_memory_over_the_limit_fails_naming_both_byte_counts),
        cmocka_unit_test(
            test_a_writable_resource_in_a_vertex_shader_fails_naming_entry_and_parameter),
        cmocka_unit_test(test_only_compute_entries_have_workgroup_sizes_to_check),
        cmocka_unit_test(test_a_failed_allocation_gives_nomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
