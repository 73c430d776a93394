/*
 * test_code_bindings.c - the bindings a SPIR-V or WGSL blob declares, read
 * back from the code (code/code_bindings.h).
 *
 * The main input is real Slang (2025.15) output: fixtures/proof/classes.slang,
 * one binding of every class, compiled with
 *
 *   tools/slangc-wasm/slangc-wasm fixtures/proof/classes.slang -target spirv \
 *       -entry k -stage compute -o fixtures/proof/classes.spv
 *   tools/slangc-wasm/slangc-wasm fixtures/proof/classes.slang -target wgsl -DWGSL \
 *       -entry k -stage compute -o fixtures/proof/classes.wgsl
 *
 * Next to it: hand-made dgpb_spirv_info values for the interface rules, a few
 * lines of WGSL for the classes Slang does not write for a compute entry
 * (texture_depth_2d, binding_array, texture_external), and hand-made lists
 * for code_bindings_find().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "code/code_bindings.h"
#include "dgpb/dgpb.h"
#include "code/spirv/spirv_analysis.h"
#include "code/spirv/spirv_bindings.h"
#include "code/wgsl/wgsl_bindings.h"
#include "code/wgsl/wgsl_scan.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* SPIR-V storage classes. */
enum { SC_UNIFORM_CONSTANT = 0, SC_INPUT = 1, SC_UNIFORM = 2, SC_PUSH = 9, SC_STORAGE = 12 };

static dgpb_spirv_info *analyze_file(const char *relpath)
{
    size_t size = 0;
    uint8_t *code = support_read_source_file(relpath, &size);
    assert_non_null(code);
    dgpb_spirv_info *info = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = spirv_analyze(code, size, &info, &diag);
    dgpb_free(code);
    if (rc != DGPB_OK)
        fail_msg("%s: %s", relpath, diag.message);
    assert_true(info->parsed);
    return info;
}

static dgpb_wgsl_module *scan_text(const char *text, size_t len)
{
    dgpb_wgsl_module *m = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (wgsl_module_scan(text, len, &m, &diag) != DGPB_OK)
        fail_msg("WGSL: %s", diag.message);
    return m;
}

static dgpb_wgsl_module *scan_file(const char *relpath)
{
    size_t size = 0;
    uint8_t *text = support_read_source_file(relpath, &size);
    assert_non_null(text);
    dgpb_wgsl_module *m = scan_text((const char *)text, size);
    dgpb_free(text);
    return m;
}

/* One expected binding. */
typedef struct want_binding {
    const char *name;
    int64_t space, binding;
    uint32_t cls;
    bool writable, is_array;
    uint32_t block_size;
} want_binding;

static void check_bindings(const dgpb_code_bindings *b, const want_binding *want, size_t n)
{
    for (size_t i = 0; i < b->count && i < n; i++) {
        const dgpb_code_binding *c = &b->items[i];
        const want_binding *w = &want[i];
        if (strcmp(c->name, w->name) != 0 || c->space != w->space || c->binding != w->binding ||
            c->cls != w->cls || c->writable != w->writable || c->is_array != w->is_array ||
            c->block_size != w->block_size)
            fail_msg("binding %zu: '%s' %lld/%lld %s writable %d array %d block %u; expected "
                     "'%s' %lld/%lld %s writable %d array %d block %u",
                     i, c->name, (long long)c->space, (long long)c->binding,
                     code_class_name(c->cls), c->writable, c->is_array, c->block_size, w->name,
                     (long long)w->space, (long long)w->binding, code_class_name(w->cls),
                     w->writable, w->is_array, w->block_size);
    }
    if (b->count != n)
        fail_msg("%zu bindings, expected %zu", b->count, n);
}

/* ---- SPIR-V ---------------------------------------------------------------- */

static void
test_spirv_bindings_are_the_interfaces_decorated_and_push_constant_variables(void **state)
{
    (void)state;
    /* Module order; the stage input (SV_DispatchThreadID, no decorations) is no binding.
       SPIR-V has no comparison samplers or depth-only textures: cmp is a sampler and depth a
       texture. Only storage images are known to be written to. */
    static const want_binding want[] = {
        {"tex", 0, 3, DGPB_CODE_TEXTURE, false, false, 0},
        {"smp", 0, 7, DGPB_CODE_SAMPLER, false, false, 0},
        {"vol", 0, 4, DGPB_CODE_TEXTURE, false, false, 0},
        {"ms", 0, 5, DGPB_CODE_MULTISAMPLED_TEXTURE, false, false, 0},
        /* float4 color, float scale: 20 bytes, 32 with the std140 struct's tail padding */
        {"tint", 0, 2, DGPB_CODE_UNIFORM_BLOCK, false, false, 32},
        {"depth", 0, 6, DGPB_CODE_TEXTURE, false, false, 0},
        {"cmp", 0, 8, DGPB_CODE_SAMPLER, false, false, 0},
        {"typed", 0, 12, DGPB_CODE_TEXEL_BUFFER, false, false, 0},
        {"combined", 0, 13, DGPB_CODE_COMBINED, false, false, 0},
        {"scene", 0, 11, DGPB_CODE_ACCELERATION_STRUCTURE, false, false, 0},
        {"rw", 0, 1, DGPB_CODE_STORAGE_BUFFER, false, false, 0},
        {"ro", 0, 0, DGPB_CODE_STORAGE_BUFFER, false, false, 0},
        {"pc", -1, -1, DGPB_CODE_PUSH_CONSTANT, false, false, 4},
        {"img", 0, 9, DGPB_CODE_STORAGE_TEXTURE, true, false, 0},
        {"entryPointParams.hits", 0, 14, DGPB_CODE_STORAGE_BUFFER, false, false, 0},
        {"many", 0, 10, DGPB_CODE_TEXTURE, false, true, 0},
    };
    dgpb_spirv_info *info = analyze_file("fixtures/proof/classes.spv");
    dgpb_code_bindings b;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    assert_int_equal(code_bindings_from_spirv(info, &b, &diag), DGPB_OK);
    check_bindings(&b, want, ARRAY_LEN(want));
    for (size_t i = 0; i < b.count; i++) {
        assert_null(b.items[i].detail);
        assert_null(b.items[i].texel_format);
        assert_int_equal(b.items[i].line, 0);
        /* The names are the analysis' own strings, not copies. */
        assert_ptr_equal(b.items[i].name, spirv_find_var(info, b.items[i].name)->name);
    }
    code_bindings_clear(&b);
    assert_null(b.items);
    assert_int_equal(b.count, 0);
    spirv_info_free(info);
}

/* A hand-made variable. */
#define VAR(name_, sc_, set_, binding_, in_interface_, type_class_)                                \
    {                                                                                              \
        .name = (char *)(name_), .storage_class = (sc_), .set = (set_), .binding = (binding_),     \
        .in_interface = (in_interface_), .type_class = (type_class_)                               \
    }

static dgpb_spirv_info hand_info(dgpb_spirv_var *vars, size_t count)
{
    dgpb_spirv_info info = {.execution_model = 5,
                            .entry_name = (char *)"main",
                            .vars = vars,
                            .var_count = count,
                            .parsed = true};
    return info;
}

static void test_spirv_variables_off_the_interface_or_undecorated_are_no_bindings(void **state)
{
    (void)state;
    dgpb_spirv_var vars[] = {
        VAR("other_entry", SC_STORAGE, 0, 0, false, DGPB_SPIRV_TYPE_BLOCK),
        VAR("undecorated", SC_STORAGE, -1, -1, true, DGPB_SPIRV_TYPE_BLOCK),
        VAR("input", SC_INPUT, -1, -1, true, DGPB_SPIRV_TYPE_OTHER),
        VAR("other_push", SC_PUSH, -1, -1, false, DGPB_SPIRV_TYPE_BLOCK),
        VAR("binding_only", SC_UNIFORM_CONSTANT, -1, 4, true, DGPB_SPIRV_TYPE_SAMPLER),
        VAR("set_only", SC_UNIFORM, 2, -1, true, DGPB_SPIRV_TYPE_BLOCK),
        VAR("push", SC_PUSH, -1, -1, true, DGPB_SPIRV_TYPE_BLOCK),
        VAR("odd", SC_UNIFORM_CONSTANT, 0, 5, true, DGPB_SPIRV_TYPE_OTHER),
        VAR("array_of_images", SC_UNIFORM_CONSTANT, 1, 0, true, DGPB_SPIRV_TYPE_STORAGE_IMAGE),
    };
    vars[6].block_size = 64;
    vars[8].is_array = true;
    dgpb_spirv_info info = hand_info(vars, ARRAY_LEN(vars));
    static const want_binding want[] = {
        {"binding_only", -1, 4, DGPB_CODE_SAMPLER, false, false, 0},
        {"set_only", 2, -1, DGPB_CODE_UNIFORM_BLOCK, false, false, 0},
        {"push", -1, -1, DGPB_CODE_PUSH_CONSTANT, false, false, 64},
        {"odd", 0, 5, DGPB_CODE_OTHER, false, false, 0},
        {"array_of_images", 1, 0, DGPB_CODE_STORAGE_TEXTURE, true, true, 0},
    };
    dgpb_code_bindings b;
    dgpb_diag diag;
    assert_int_equal(code_bindings_from_spirv(&info, &b, &diag), DGPB_OK);
    check_bindings(&b, want, ARRAY_LEN(want));
    code_bindings_clear(&b);

    /* A module without variables has no bindings, and nothing to free. */
    dgpb_spirv_info empty = hand_info(NULL, 0);
    assert_int_equal(code_bindings_from_spirv(&empty, &b, &diag), DGPB_OK);
    assert_null(b.items);
    assert_int_equal(b.count, 0);
    code_bindings_clear(&b);
}

/* ---- WGSL ------------------------------------------------------------------- */

static void test_wgsl_bindings_are_every_binding_of_the_scan_in_source_order(void **state)
{
    (void)state;
    /* classes.wgsl: read_write storage and storage textures are writable; Slang's
       array<texture_2d<f32>, i32(4)> is an array (of a class the format has no kind for),
       a storage buffer's array<f32> is not; the push constant has no @group/@binding. */
    static const want_binding want[] = {
        {"tex_0", 0, 3, DGPB_CODE_TEXTURE, false, false, 0},
        {"smp_0", 0, 7, DGPB_CODE_SAMPLER, false, false, 0},
        {"vol_0", 0, 4, DGPB_CODE_TEXTURE, false, false, 0},
        {"ms_0", 0, 5, DGPB_CODE_MULTISAMPLED_TEXTURE, false, false, 0},
        {"tint_0", 0, 2, DGPB_CODE_UNIFORM_BLOCK, false, false, 0},
        {"depth_0", 0, 6, DGPB_CODE_TEXTURE, false, false, 0},
        {"cmp_0", 0, 8, DGPB_CODE_COMPARISON_SAMPLER, false, false, 0},
        {"many_0", 0, 10, DGPB_CODE_OTHER, false, true, 0},
        {"rw_0", 0, 1, DGPB_CODE_STORAGE_BUFFER, true, false, 0},
        {"ro_0", 0, 0, DGPB_CODE_STORAGE_BUFFER, false, false, 0},
        {"pc_0", -1, -1, DGPB_CODE_UNIFORM_BLOCK, false, false, 0},
        {"img_0", 0, 9, DGPB_CODE_STORAGE_TEXTURE, true, false, 0},
        {"entryPointParams_hits_0", 0, 11, DGPB_CODE_STORAGE_BUFFER, true, false, 0},
    };
    static const struct {
        const char *detail, *format, *sample_type, *dimension;
        uint32_t line;
    } text[] = {
        {"texture_2d<f32>", NULL, "f32", "2d", 1},
        {"sampler", NULL, NULL, NULL, 3},
        {"texture_3d<f32>", NULL, "f32", "3d", 5},
        {"texture_multisampled_2d<f32>", NULL, "f32", "2d", 7},
        {"Tint_std140_0", NULL, NULL, NULL, 15},
        {"texture_2d<f32>", NULL, "f32", "2d", 16},
        {"sampler_comparison", NULL, NULL, NULL, 18},
        {"array<texture_2d<f32>, i32(4)>", NULL, NULL, NULL, 20},
        {"array<f32>", NULL, NULL, NULL, 22},
        {"array<f32>", NULL, NULL, NULL, 24},
        {"Push_std430_0", NULL, NULL, NULL, 31},
        {"texture_storage_2d<r32float, read_write>", "r32float", NULL, "2d", 32},
        {"array<u32>", NULL, NULL, NULL, 34},
    };
    _Static_assert(ARRAY_LEN(text) == ARRAY_LEN(want), "one text per binding");
    dgpb_wgsl_module *m = scan_file("fixtures/proof/classes.wgsl");
    dgpb_code_bindings b;
    dgpb_diag diag;
    assert_int_equal(code_bindings_from_wgsl(m, &b, &diag), DGPB_OK);
    check_bindings(&b, want, ARRAY_LEN(want));
    for (size_t i = 0; i < b.count; i++) {
        const dgpb_code_binding *c = &b.items[i];
        assert_string_equal(c->detail, text[i].detail);
        if ((c->texel_format == NULL) != (text[i].format == NULL) ||
            (c->sample_type == NULL) != (text[i].sample_type == NULL) ||
            (c->dimension == NULL) != (text[i].dimension == NULL))
            fail_msg("'%s': format %s sample type %s dimension %s", c->name,
                     c->texel_format ? c->texel_format : "-", c->sample_type ? c->sample_type : "-",
                     c->dimension ? c->dimension : "-");
        if (text[i].format)
            assert_string_equal(c->texel_format, text[i].format);
        if (text[i].sample_type)
            assert_string_equal(c->sample_type, text[i].sample_type);
        if (text[i].dimension)
            assert_string_equal(c->dimension, text[i].dimension);
        assert_int_equal(c->line, text[i].line);
        /* Borrowed from the scan. */
        assert_ptr_equal(c->name, m->bindings[i].name);
    }
    code_bindings_clear(&b);
    wgsl_module_free(m);
}

static void
test_wgsl_depth_textures_binding_arrays_and_write_only_textures_keep_their_class(void **state)
{
    (void)state;
    static const char text[] =
        "@group(0) @binding(0) var d : texture_depth_2d;\n"
        "@group(0) @binding(1) var arr : binding_array<texture_2d<f32>, 4>;\n"
        "@group(1) @binding(2) var w : texture_storage_2d<rgba32float, write>;\n"
        "@group(0) @binding(3) var e : texture_external;\n"
        "@group(0) @binding(4) var<storage> plain : array<u32>;\n";
    static const want_binding want[] = {
        {"d", 0, 0, DGPB_CODE_DEPTH_TEXTURE, false, false, 0},
        {"arr", 0, 1, DGPB_CODE_OTHER, false, true, 0},
        {"w", 1, 2, DGPB_CODE_STORAGE_TEXTURE, true, false, 0},
        {"e", 0, 3, DGPB_CODE_OTHER, false, false, 0},
        {"plain", 0, 4, DGPB_CODE_STORAGE_BUFFER, false, false, 0},
    };
    dgpb_wgsl_module *m = scan_text(text, sizeof text - 1);
    dgpb_code_bindings b;
    dgpb_diag diag;
    assert_int_equal(code_bindings_from_wgsl(m, &b, &diag), DGPB_OK);
    check_bindings(&b, want, ARRAY_LEN(want));
    assert_string_equal(b.items[0].dimension, "2d");
    assert_string_equal(b.items[2].texel_format, "rgba32float");
    code_bindings_clear(&b);
    wgsl_module_free(m);

    /* A module without bindings has none. */
    m = scan_text("fn f() {}\n", 10);
    assert_int_equal(code_bindings_from_wgsl(m, &b, &diag), DGPB_OK);
    assert_null(b.items);
    assert_int_equal(b.count, 0);
    wgsl_module_free(m);
}

/*
 * WGSL's layout rules complete the bindings as the SPIR-V reader does: a
 * var<uniform>'s struct members (a vec3 aligned as a vec4, @align/@size), a
 * var<storage> array's element stride (a struct rounded up to its alignment).
 */
static void test_wgsl_layouts_give_block_members_and_element_strides(void **state)
{
    (void)state;
    static const char text[] =
        "struct Dims_std140_0 { @align(16) count_0 : u32, scale_0 : f32, dir_0 : vec3<f32>,\n"
        "    @size(32) tail_0 : f32, };\n"
        "@group(0) @binding(0) var<uniform> dims_0 : Dims_std140_0;\n"
        "struct Thing_0 { a_0 : vec3<f32>, b_0 : f32, c_0 : vec2<f32>, };\n"
        "@group(0) @binding(1) var<storage, read_write> things_0 : array<Thing_0>;\n"
        "@group(1) @binding(2) var<storage, read> words_0 : array<u32>;\n"
        "@group(0) @binding(3) var<uniform> one_0 : vec4<f32>;\n";
    dgpb_wgsl_module *m = scan_text(text, sizeof text - 1);
    dgpb_code_bindings b;
    dgpb_diag diag;
    assert_int_equal(code_bindings_from_wgsl(m, &b, &diag), DGPB_OK);
    assert_int_equal(code_bindings_add_wgsl_layouts(&b, text, sizeof text - 1, &diag), DGPB_OK);
    assert_int_equal(b.count, 4);
    /* count at 0, scale at 4, dir (align 16) at 16, tail at 28 sized 32. */
    assert_int_equal(b.items[0].member_count, 4);
    static const dgpb_spirv_member dims[] = {{0, 4}, {4, 4}, {16, 12}, {28, 32}};
    for (size_t i = 0; i < ARRAY_LEN(dims); i++) {
        assert_int_equal(b.items[0].members[i].offset, dims[i].offset);
        assert_int_equal(b.items[0].members[i].size, dims[i].size);
    }
    assert_int_equal(b.items[1].element_stride, 32); /* 12 + 4 + 8 = 24 at 16-byte alignment */
    assert_int_equal(b.items[2].element_stride, 4);
    assert_int_equal(b.items[3].member_count, 0); /* no struct: no members */
    code_bindings_clear(&b);
    assert_null(b.owned);
    wgsl_module_free(m);
}

/* ---- finding a path ----------------------------------------------------------- */

static const dgpb_code_binding *find(const dgpb_code_bindings *b, const char *path, bool *ambiguous)
{
    *ambiguous = true; /* must be reset */
    return code_bindings_find(b, path, ambiguous);
}

static void test_a_spirv_path_is_found_by_its_dotted_name_only(void **state)
{
    (void)state;
    dgpb_code_binding items[] = {
        {.name = "globalParams", .space = 0, .binding = 0},
        {.name = "globalParams.m.dst", .space = 0, .binding = 3},
        {.name = "entryPointParams.job.log", .space = 0, .binding = 4},
        /* SPIR-V names are never read as WGSL spellings (no detail). */
        {.name = "res_src_0", .space = 0, .binding = 5},
    };
    dgpb_code_bindings b = {.items = items, .count = ARRAY_LEN(items)};
    bool ambiguous;
    assert_ptr_equal(find(&b, "globalParams", &ambiguous), &items[0]);
    assert_false(ambiguous);
    assert_ptr_equal(find(&b, "globalParams.m.dst", &ambiguous), &items[1]);
    assert_ptr_equal(find(&b, "entryPointParams.job.log", &ambiguous), &items[2]);
    assert_null(find(&b, "res.src", &ambiguous));
    assert_false(ambiguous);
    assert_null(find(&b, "entryPointParams.job", &ambiguous));
    assert_null(find(&b, "m.dst", &ambiguous));
    assert_false(ambiguous);
    dgpb_code_bindings empty = {.items = NULL, .count = 0};
    assert_null(find(&empty, "globalParams", &ambiguous));
    assert_false(ambiguous);
}

static void test_a_wgsl_variable_spells_a_path_with_underscores_and_a_numeric_suffix(void **state)
{
    (void)state;
    dgpb_code_binding items[] = {
        {.name = "globalParams_0", .detail = "GlobalParams_std140_0"},
        {.name = "globalParams_m_dst_0", .detail = "array<u32>"},
        {.name = "entryPointParams_job_log_12", .detail = "array<u32>"},
        {.name = "res_src_x", .detail = "array<u32>"},   /* not a numeric suffix */
        {.name = "res_dst_", .detail = "array<u32>"},    /* no digits */
        {.name = "res_dst0", .detail = "array<u32>"},    /* no '_' before them */
        {.name = "res_dst_0_1", .detail = "array<u32>"}, /* more than a suffix */
        {.name = "lights_list_0", .detail = "array<vec4<f32>>"},
    };
    dgpb_code_bindings b = {.items = items, .count = ARRAY_LEN(items)};
    bool ambiguous;
    assert_ptr_equal(find(&b, "globalParams", &ambiguous), &items[0]);
    assert_false(ambiguous);
    /* "globalParams" does not take globalParams_m_dst_0 as its own spelling. */
    assert_ptr_equal(find(&b, "globalParams.m.dst", &ambiguous), &items[1]);
    assert_ptr_equal(find(&b, "entryPointParams.job.log", &ambiguous), &items[2]);
    assert_ptr_equal(find(&b, "lights.list", &ambiguous), &items[7]);
    assert_false(ambiguous);
    static const char *const misses[] = {"res.src",
                                         "res.dst",
                                         "lights",
                                         "lights.list.0",
                                         "entryPointParams.job",
                                         "entryPointParams.job.log.12"};
    for (size_t i = 0; i < ARRAY_LEN(misses); i++) {
        const dgpb_code_binding *c = find(&b, misses[i], &ambiguous);
        if (c)
            fail_msg("'%s' found '%s'", misses[i], c->name);
        assert_false(ambiguous);
    }
    /* The path "res.dst.0" is spelled res_dst_0_<n>: res_dst_0_1 is its variable. */
    assert_ptr_equal(find(&b, "res.dst.0", &ambiguous), &items[6]);
    assert_false(ambiguous);
}

static void test_two_wgsl_spellings_of_one_path_are_ambiguous_unless_one_is_exact(void **state)
{
    (void)state;
    /* A struct field path "a.b" and a global named "a_b" both become a_b_<n>. */
    dgpb_code_binding items[] = {
        {.name = "a_b_0", .detail = "array<u32>", .binding = 0},
        {.name = "a_b_1", .detail = "array<u32>", .binding = 1},
        {.name = "c_0", .detail = "array<u32>", .binding = 2},
    };
    dgpb_code_bindings b = {.items = items, .count = ARRAY_LEN(items)};
    bool ambiguous;
    assert_null(find(&b, "a.b", &ambiguous));
    assert_true(ambiguous);
    assert_null(find(&b, "a_b", &ambiguous));
    assert_true(ambiguous);
    assert_ptr_equal(find(&b, "c", &ambiguous), &items[2]);
    assert_false(ambiguous);
    /* The exact name wins over the spellings. */
    dgpb_code_binding exact[] = {
        {.name = "a_b_0", .detail = "array<u32>"},
        {.name = "a_b_1", .detail = "array<u32>"},
        {.name = "a_b_1", .detail = "array<u32>", .binding = 9},
    };
    dgpb_code_bindings e = {.items = exact, .count = ARRAY_LEN(exact)};
    assert_ptr_equal(find(&e, "a_b_1", &ambiguous), &exact[1]);
    assert_false(ambiguous);
}

/* ---- names --------------------------------------------------------------------- */

static void test_every_class_has_a_readable_name(void **state)
{
    (void)state;
    static const char *const names[DGPB_CODE_CLASS_COUNT] = {
        "uniform buffer",         "push-constant block",
        "storage buffer",         "sampled texture",
        "depth texture",          "multisampled texture",
        "storage texture",        "sampler",
        "comparison sampler",     "combined texture-sampler",
        "uniform texel buffer",   "storage texel buffer",
        "acceleration structure", "input attachment",
        "pipeline constant",      "shader record",
        "resource",
    };
    for (uint32_t c = 0; c < DGPB_CODE_CLASS_COUNT; c++)
        assert_string_equal(code_class_name(c), names[c]);
    assert_string_equal(code_class_name(DGPB_CODE_CLASS_COUNT), "resource");
    assert_string_equal(code_class_name(UINT32_MAX), "resource");
}

/* ---- allocation failures -------------------------------------------------------- */

static int op_from_spirv(void *arg)
{
    dgpb_code_bindings b;
    dgpb_diag diag;
    int rc = code_bindings_from_spirv(arg, &b, &diag);
    if (rc == DGPB_ERR_NOMEM) {
        assert_null(b.items);
        assert_int_equal(b.count, 0);
    } else {
        assert_int_equal(b.count, 16);
    }
    code_bindings_clear(&b);
    return rc;
}

static int op_from_wgsl(void *arg)
{
    dgpb_code_bindings b;
    dgpb_diag diag;
    int rc = code_bindings_from_wgsl(arg, &b, &diag);
    if (rc == DGPB_ERR_NOMEM) {
        assert_null(b.items);
        assert_int_equal(b.count, 0);
    } else {
        assert_int_equal(b.count, 13);
    }
    code_bindings_clear(&b);
    return rc;
}

static void test_a_failed_allocation_gives_nomem_and_an_empty_list(void **state)
{
    (void)state;
    dgpb_spirv_info *info = analyze_file("fixtures/proof/classes.spv");
    assert_int_equal(support_run_with_faults(op_from_spirv, info, DGPB_OK, "from_spirv"), 1);
    spirv_info_free(info);
    dgpb_wgsl_module *m = scan_file("fixtures/proof/classes.wgsl");
    assert_int_equal(support_run_with_faults(op_from_wgsl, m, DGPB_OK, "from_wgsl"), 1);
    wgsl_module_free(m);
    /* Clearing twice, or a NULL list, is fine. */
    dgpb_code_bindings b = {0};
    code_bindings_clear(&b);
    code_bindings_clear(&b);
    code_bindings_clear(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_spirv_bindings_are_the_interfaces_decorated_and_push_constant_variables),
        cmocka_unit_test(test_spirv_variables_off_the_interface_or_undecorated_are_no_bindings),
        cmocka_unit_test(test_wgsl_bindings_are_every_binding_of_the_scan_in_source_order),
        cmocka_unit_test(
            test_wgsl_depth_textures_binding_arrays_and_write_only_textures_keep_their_class),
        cmocka_unit_test(test_wgsl_layouts_give_block_members_and_element_strides),
        cmocka_unit_test(test_a_spirv_path_is_found_by_its_dotted_name_only),
        cmocka_unit_test(test_a_wgsl_variable_spells_a_path_with_underscores_and_a_numeric_suffix),
        cmocka_unit_test(test_two_wgsl_spellings_of_one_path_are_ambiguous_unless_one_is_exact),
        cmocka_unit_test(test_every_class_has_a_readable_name),
        cmocka_unit_test(test_a_failed_allocation_gives_nomem_and_an_empty_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
