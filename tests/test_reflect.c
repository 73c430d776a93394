/*
 * test_reflect.c - Slang's reflection JSON to classified parameters
 * (tables/reflect.h).
 *
 * Inputs are real reflection JSON from the embedded Slang (2025.15), made
 * from the .slang files next to them in fixtures/reflect/ with
 *
 *   tools/slangc-wasm/slangc-wasm fixtures/reflect/kinds.slang -target T -entry k \
 *       -stage compute -DDREAM_SHADER_k -DDREAM_TARGET_T -o out.x \
 *       -reflection-json fixtures/reflect/kinds_T.json
 *
 * for T in spirv, wgsl, metal, cuda (the ptx target's reflection is the CUDA
 * one) and hlsl (dxil and dxbc); likewise shapes.slang (entry s, spirv and
 * wgsl), loose.slang (entry scale, no defines), spaces.slang (entry copy) and
 * trace.slang (entry trace, -stage raygeneration, spirv).
 *
 * The plain modules of the new rules (entry k, no defines, T in spirv, wgsl
 * and cuda) are made the same way, and their code next to them with
 * -target spirv/wgsl/ptx -o NAME.spv/.wgsl/.ptx (tests/test_params.c and
 * tests/test_binding_proof.c read it): entry_uniforms.slang (entry-point
 * `uniform` parameters), aggregates.slang (struct globals), blocks.slang (a
 * ConstantBuffer holding a texture, ParameterBlocks), push.slang
 * ([[vk::push_constant]]), padding.slang (blocks whose last member is a struct
 * with tail padding) and refused.slang (the shapes no row describes, and
 * bools; its wgsl compile takes -DNO_WGSL_FEATURES, since Slang compiles
 * neither typed nor append buffers for wgsl).
 *
 * kinds_spirv_native.json is kinds_spirv.json with the keys a native slangc
 * 2026.16 adds (top-level "version": "1.1", "globalScope",
 * "bindlessSpaceIndex", per-type "sizes", per-entry-point "bindings" with
 * "used"); it must parse exactly like the plain one (docs/design.md, section 2).
 *
 * Flags are not reflect's job (a dgpb_reflected_param has none): params.c
 * derives read-only from the kind and "written" from the SPIR-V; see
 * tests/test_params.c.
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
#include "tables/reflect.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const char *const k_blocks[] = {"k_params"};

/* The id of a target the tests name by its name. */
static dgpb_target_id target_of(const char *name)
{
    int id = dgpb_target_from_name(name, strlen(name));
    if (id < 0)
        fail_msg("unknown target '%s'", name);
    return (dgpb_target_id)id;
}

/* Parses fixtures/reflect/<file> for `target`; fails the test on any error. */
static dgpb_reflection *parse_fixture(const char *file, const char *target,
                                      const char *const *blocks, size_t block_count)
{
    char path[256];
    snprintf(path, sizeof path, "fixtures/reflect/%s", file);
    size_t size = 0;
    uint8_t *text = support_read_source_file(path, &size);
    assert_non_null(text);
    dgpb_reflection *r = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = reflection_parse((const char *)text, size, target_of(target), blocks, block_count, &r,
                              &diag);
    if (rc != DGPB_OK)
        fail_msg("%s (%s): %d %s", file, target, rc, diag.message);
    dgpb_free(text);
    assert_non_null(r);
    return r;
}

static dgpb_reflection *parse_text(const char *json, const char *target)
{
    dgpb_reflection *r = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = reflection_parse(json, strlen(json), target_of(target), NULL, 0, &r, &diag);
    if (rc != DGPB_OK)
        fail_msg("%s: %d %s", json, rc, diag.message);
    return r;
}

/* The parameter named `name` (a global, or a field of a value block); fails when missing. */
static const dgpb_reflected_param *param(const dgpb_reflection *r, const char *name)
{
    const dgpb_reflected_param *p = reflection_find(r, name, false);
    if (!p)
        fail_msg("no parameter '%s'", name);
    return p;
}

/* The kinds.slang fixture of each target: its JSON file and its DGPB target name. */
static const struct {
    const char *file, *target;
} kinds_fixtures[] = {
    {"kinds_spirv.json", "spirv"}, {"kinds_wgsl.json", "wgsl"}, {"kinds_metal.json", "metal"},
    {"kinds_cuda.json", "ptx"},    {"kinds_hlsl.json", "dxil"}, {"kinds_hlsl.json", "dxbc"},
};

/* ---- kinds ---------------------------------------------------------------- */

static void test_every_parameter_gets_the_kind_of_its_slang_type(void **state)
{
    (void)state;
    static const struct {
        const char *name, *shape;
        int kind;
        bool not_wgsl, spirv_only;
    } rows[] = {
        {"scale", "float", DGPB_KIND_VALUE, false, false},
        {"bias", "int", DGPB_KIND_VALUE, false, false},
        {"transform", "float3x4", DGPB_KIND_VALUE, false, false},
        {"extent", "uint2", DGPB_KIND_VALUE, false, false},
        {"k_src", "StructuredBuffer<float>", DGPB_KIND_BUFFER, false, false},
        {"k_dst", "RWStructuredBuffer<float>", DGPB_KIND_RW_BUFFER, false, false},
        {"k_bytes_in", "ByteAddressBuffer", DGPB_KIND_BYTE_BUFFER, true, false},
        {"k_bytes_out", "RWByteAddressBuffer", DGPB_KIND_RW_BYTE_BUFFER, true, false},
        {"k_tex", "Texture2D<float4>", DGPB_KIND_TEXTURE, false, false},
        {"k_smp", "SamplerState", DGPB_KIND_SAMPLER, false, false},
        {"k_r", "RWTexture2D<float>", DGPB_KIND_RW_TEXTURE, false, false},
        {"k_rg", "RWTexture2D<float2>", DGPB_KIND_RW_TEXTURE, false, false},
        {"k_rgba", "RWTexture2D<float4>", DGPB_KIND_RW_TEXTURE, false, false},
        {"k_count", "RWTexture2D<uint>", DGPB_KIND_RW_TEXTURE, false, false},
        {"k_volume", "Texture3D<float4>", DGPB_KIND_TEXTURE, false, false},
        {"k_layers", "Texture2DArray<float4>", DGPB_KIND_TEXTURE, false, false},
        {"k_light", "ConstantBuffer<Light>", DGPB_KIND_UNIFORM_BUFFER, false, false},
        /* A plain-data block's fields follow its row (docs/design.md, section 4a). */
        {"k_light.color", "float4", DGPB_KIND_VALUE, false, false},
        {"k_light.intensity", "float", DGPB_KIND_VALUE, false, false},
        {"k_scene", "RaytracingAccelerationStructure", DGPB_KIND_ACCELERATION_STRUCTURE, false,
         true},
    };
    for (size_t f = 0; f < ARRAY_LEN(kinds_fixtures); f++) {
        const char *target = kinds_fixtures[f].target;
        bool wgsl = !strcmp(target, "wgsl"), spirv = !strcmp(target, "spirv");
        dgpb_reflection *r = parse_fixture(kinds_fixtures[f].file, target, k_blocks, 1);
        size_t expected = 0;
        for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
            bool present = !(wgsl && rows[i].not_wgsl) && !(!spirv && rows[i].spirv_only);
            const dgpb_reflected_param *p = reflection_find(r, rows[i].name, false);
            if (!present) {
                assert_null(p);
                continue;
            }
            expected++;
            if (!p)
                fail_msg("%s: no parameter '%s'", target, rows[i].name);
            if (p->kind != rows[i].kind || strcmp(p->shape, rows[i].shape) != 0)
                fail_msg("%s: '%s' is kind %d shape '%s', expected kind %d shape '%s'", target,
                         rows[i].name, p->kind, p->shape, rows[i].kind, rows[i].shape);
        }
        assert_int_equal(r->param_count, expected);
        reflection_free(r);
    }
}

static void test_resources_and_values_keep_declaration_order(void **state)
{
    (void)state;
    static const char *const order[] = {
        "scale",
        "bias",
        "transform",
        "extent",
        "k_src",
        "k_dst",
        "k_bytes_in",
        "k_bytes_out",
        "k_tex",
        "k_smp",
        "k_r",
        "k_rg",
        "k_rgba",
        "k_count",
        "k_volume",
        "k_layers",
        "k_light",
        "k_light.color",
        "k_light.intensity",
        "k_scene",
    };
    dgpb_reflection *r = parse_fixture("kinds_spirv.json", "spirv", k_blocks, 1);
    assert_int_equal(r->param_count, ARRAY_LEN(order));
    for (size_t i = 0; i < ARRAY_LEN(order); i++)
        assert_string_equal(r->params[i].name, order[i]);
    reflection_free(r);
}

/* Each row knows its top-level parameter: the module-scope ones listed in `globals` (a value
   block's fields and a struct's leaves share theirs), the entry's by their index. */
static void test_rows_know_their_top_level_parameter(void **state)
{
    (void)state;
    dgpb_reflection *r = parse_fixture("kinds_spirv.json", "spirv", k_blocks, 1);
    assert_true(r->global_count > 0 && r->global_count <= r->param_count);
    for (size_t i = 0; i < r->param_count; i++) {
        const dgpb_reflected_param *p = &r->params[i];
        assert_false(p->entry_param);
        assert_true(p->top < r->global_count);
        assert_string_equal(r->globals[p->top], p->global);
        assert_true(i == 0 || p->top == r->params[i - 1].top || p->top == r->params[i - 1].top + 1);
    }
    assert_int_equal(r->params[r->param_count - 1].top, r->global_count - 1);
    reflection_free(r);
    r = parse_fixture("entry_uniforms_spirv.json", "spirv", NULL, 0);
    uint32_t next = 0; /* the next entry parameter's index */
    for (size_t i = 0; i < r->param_count; i++) {
        const dgpb_reflected_param *p = &r->params[i];
        if (!p->entry_param)
            continue;
        if (p->top == next)
            next++;
        else
            assert_int_equal(p->top, next - 1); /* another row of the one before */
    }
    assert_true(next > 1);
    reflection_free(r);
}

/* ---- places per target ---------------------------------------------------- */

typedef struct place_row {
    const char *name;
    uint32_t space, binding;
} place_row;

static void check_places(const char *file, const char *target, const place_row *rows, size_t n)
{
    dgpb_reflection *r = parse_fixture(file, target, k_blocks, 1);
    for (size_t i = 0; i < n; i++) {
        const dgpb_reflected_param *p = param(r, rows[i].name);
        if (p->space != rows[i].space || p->binding != rows[i].binding)
            fail_msg("%s: '%s' is at space %u binding %u, expected space %u binding %u", target,
                     rows[i].name, p->space, p->binding, rows[i].space, rows[i].binding);
    }
    reflection_free(r);
}

static void test_spirv_places_are_descriptor_table_slots(void **state)
{
    (void)state;
    static const place_row rows[] = {
        {"scale", 0, 0},      {"extent", 0, 0},      {"k_src", 0, 1},     {"k_dst", 0, 2},
        {"k_bytes_in", 0, 3}, {"k_bytes_out", 0, 4}, {"k_tex", 0, 5},     {"k_smp", 0, 6},
        {"k_r", 0, 7},        {"k_count", 0, 10},    {"k_volume", 0, 11}, {"k_layers", 0, 12},
        {"k_light", 0, 13},   {"k_scene", 0, 14},
    };
    check_places("kinds_spirv.json", "spirv", rows, ARRAY_LEN(rows));
}

static void test_wgsl_places_are_descriptor_table_slots(void **state)
{
    (void)state;
    static const place_row rows[] = {
        {"scale", 0, 0},   {"k_src", 0, 1},    {"k_dst", 0, 2},     {"k_tex", 0, 3},
        {"k_smp", 0, 4},   {"k_r", 0, 5},      {"k_rg", 0, 6},      {"k_rgba", 0, 7},
        {"k_count", 0, 8}, {"k_volume", 0, 9}, {"k_layers", 0, 10}, {"k_light", 0, 11},
    };
    check_places("kinds_wgsl.json", "wgsl", rows, ARRAY_LEN(rows));
}

static void test_hlsl_places_are_register_indices_per_register_kind(void **state)
{
    (void)state;
    /* b registers: k_params b0 (its values), k_light b1; t: src, bytes_in, tex, volume,
       layers; u: dst, bytes_out, r, rg, rgba, count; s: smp. */
    static const place_row rows[] = {
        {"scale", 0, 0},       {"k_light", 0, 1},  {"k_src", 0, 0},    {"k_bytes_in", 0, 1},
        {"k_tex", 0, 2},       {"k_volume", 0, 3}, {"k_layers", 0, 4}, {"k_dst", 0, 0},
        {"k_bytes_out", 0, 1}, {"k_r", 0, 2},      {"k_count", 0, 5},  {"k_smp", 0, 0},
    };
    check_places("kinds_hlsl.json", "dxil", rows, ARRAY_LEN(rows));
    check_places("kinds_hlsl.json", "dxbc", rows, ARRAY_LEN(rows));
}

static void test_metal_places_are_buffer_texture_and_sampler_indices(void **state)
{
    (void)state;
    /* [[buffer]]: k_params 0, src 1, dst 2, bytes_in 3, bytes_out 4, k_light 5;
       [[texture]]: tex 0, r 1, rg 2, rgba 3, count 4, volume 5, layers 6; [[sampler]]: smp 0. */
    static const place_row rows[] = {
        {"bias", 0, 0},        {"k_src", 0, 1},   {"k_dst", 0, 2},   {"k_bytes_in", 0, 3},
        {"k_bytes_out", 0, 4}, {"k_light", 0, 5}, {"k_tex", 0, 0},   {"k_r", 0, 1},
        {"k_rg", 0, 2},        {"k_rgba", 0, 3},  {"k_count", 0, 4}, {"k_volume", 0, 5},
        {"k_layers", 0, 6},    {"k_smp", 0, 0},
    };
    check_places("kinds_metal.json", "metal", rows, ARRAY_LEN(rows));
}

static void test_ptx_binding_is_the_byte_offset_in_the_global_parameter_block(void **state)
{
    (void)state;
    /* Slang's CUDA layout: one global parameter block, each parameter at a byte offset
       (a structured buffer 16 bytes, a texture, sampler or constant buffer 8). */
    static const place_row rows[] = {
        {"scale", 0, 0},       {"transform", 0, 0},    {"k_src", 0, 8},      {"k_dst", 0, 24},
        {"k_bytes_in", 0, 40}, {"k_bytes_out", 0, 56}, {"k_tex", 0, 72},     {"k_smp", 0, 80},
        {"k_r", 0, 88},        {"k_count", 0, 112},    {"k_volume", 0, 120}, {"k_layers", 0, 128},
        {"k_light", 0, 136},
    };
    check_places("kinds_cuda.json", "ptx", rows, ARRAY_LEN(rows));
}

static void test_explicit_spaces_are_kept_per_target(void **state)
{
    (void)state;
    static const place_row vulkan[] = {{"placed_input", 2, 3}, {"placed_output", 1, 5}};
    static const place_row hlsl[] = {{"placed_input", 3, 1}, {"placed_output", 4, 2}};
    check_places("spaces_spirv.json", "spirv", vulkan, ARRAY_LEN(vulkan));
    check_places("spaces_wgsl.json", "wgsl", vulkan, ARRAY_LEN(vulkan));
    check_places("spaces_hlsl.json", "dxil", hlsl, ARRAY_LEN(hlsl));
}

/* ---- value rows ----------------------------------------------------------- */

static void test_value_block_fields_become_value_rows_in_field_order(void **state)
{
    (void)state;
    static const struct {
        const char *name, *shape;
        uint32_t offset, size;
    } fields[] = {
        {"scale", "float", 0, 4},
        {"bias", "int", 4, 4},
        {"transform", "float3x4", 16, 48}, /* row-major: three 16-byte rows */
        {"extent", "uint2", 64, 8},
    };
    for (size_t f = 0; f < ARRAY_LEN(kinds_fixtures); f++) {
        const char *target = kinds_fixtures[f].target;
        dgpb_reflection *r = parse_fixture(kinds_fixtures[f].file, target, k_blocks, 1);
        assert_null(reflection_find(r, "k_params", false));
        for (size_t i = 0; i < ARRAY_LEN(fields); i++) {
            const dgpb_reflected_param *p = &r->params[i];
            assert_string_equal(p->name, fields[i].name);
            assert_string_equal(p->global, "k_params");
            assert_string_equal(p->shape, fields[i].shape);
            assert_int_equal(p->kind, DGPB_KIND_VALUE);
            assert_int_equal(p->offset, fields[i].offset);
            assert_int_equal(p->size, fields[i].size);
            /* The block sits at slot 0, [[buffer(0)]], b0, or byte 0 of the ptx block. */
            assert_int_equal(p->space, 0);
            assert_int_equal(p->binding, 0);
            assert_int_equal(p->webgpu_layout,
                             !strcmp(target, "wgsl") ? DGPB_WGPU_UNIFORM_BUFFER : 0);
            assert_null(p->problem);
        }
        /* Found by its variable: the first field. */
        const dgpb_reflected_param *first = reflection_find(r, "k_params", true);
        assert_non_null(first);
        assert_string_equal(first->name, "scale");
        reflection_free(r);
    }
}

static void test_value_rows_carry_the_binding_of_their_block(void **state)
{
    (void)state;
    /* Named as the value block, k_light's fields take its place: slot 13 on spirv,
       b1 on hlsl, byte 136 of the ptx block. */
    static const char *const light[] = {"k_params", "k_light"};
    static const struct {
        const char *file, *target;
        uint32_t binding;
    } cases[] = {
        {"kinds_spirv.json", "spirv", 13},
        {"kinds_hlsl.json", "dxil", 1},
        {"kinds_metal.json", "metal", 5},
        {"kinds_cuda.json", "ptx", 136},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = parse_fixture(cases[c].file, cases[c].target, light, 2);
        const dgpb_reflected_param *color = param(r, "color"), *intensity = param(r, "intensity");
        assert_null(reflection_find(r, "k_light", false));
        assert_string_equal(color->global, "k_light");
        assert_int_equal(color->kind, DGPB_KIND_VALUE);
        assert_int_equal(color->binding, cases[c].binding);
        assert_int_equal(color->offset, 0);
        assert_int_equal(color->size, 16);
        assert_string_equal(color->shape, "float4");
        assert_int_equal(intensity->binding, cases[c].binding);
        assert_int_equal(intensity->offset, 16);
        assert_int_equal(intensity->size, 4);
        /* The fields follow each other where the block was declared: the last rows. */
        assert_ptr_equal(intensity, color + 1);
        reflection_free(r);
    }
}

static void test_a_constant_buffer_not_listed_as_a_value_block_is_a_uniform_buffer(void **state)
{
    (void)state;
    /* Without value blocks, k_params is a plain-data block: its uniform_buffer row, then its
       fields by dotted path. */
    dgpb_reflection *r = parse_fixture("kinds_spirv.json", "spirv", NULL, 0);
    const dgpb_reflected_param *block = param(r, "k_params");
    assert_int_equal(block->kind, DGPB_KIND_UNIFORM_BUFFER);
    assert_string_equal(block->global, "k_params");
    assert_string_equal(block->shape, "ConstantBuffer<k_Params>");
    assert_int_equal(block->binding, 0);
    assert_int_equal(block->offset, 0);
    assert_int_equal(block->size, 80); /* the block's data as std140 lays it out */
    assert_null(reflection_find(r, "scale", false));
    static const struct {
        const char *name;
        uint32_t offset, size;
    } fields[] = {{"k_params.scale", 0, 4},
                  {"k_params.bias", 4, 4},
                  {"k_params.transform", 16, 48},
                  {"k_params.extent", 64, 8}};
    for (size_t i = 0; i < ARRAY_LEN(fields); i++) {
        const dgpb_reflected_param *f = block + 1 + i;
        assert_string_equal(f->name, fields[i].name);
        assert_int_equal(f->kind, DGPB_KIND_VALUE);
        assert_string_equal(f->global, "k_params");
        assert_string_equal(f->code_name, block->code_name);
        assert_int_equal(f->space, block->space);
        assert_int_equal(f->binding, block->binding);
        assert_int_equal(f->offset, fields[i].offset);
        assert_int_equal(f->size, fields[i].size);
    }
    const dgpb_reflected_param *light = param(r, "k_light");
    assert_int_equal(light->kind, DGPB_KIND_UNIFORM_BUFFER);
    assert_int_equal(light->binding, 13);
    assert_int_equal(r->param_count, 21);
    reflection_free(r);
}

static void test_loose_uniforms_are_value_rows_of_the_implicit_global_block(void **state)
{
    (void)state;
    /* Each loose uniform is its own top-level variable, carried in the code by Slang's
       implicit block "globalParams". Where that block sits only the code says on spirv and
       wgsl (place_from_code); on ptx the values lie directly in SLANG_globalParams
       (DGPB_BINDING_INLINE); metal and hlsl keep the reflection's place. */
    static const struct {
        const char *file, *target;
        uint32_t samples_binding;
        bool from_code;
        uint32_t value_binding;
    } cases[] = {
        {"loose_spirv.json", "spirv", 1, true, 0}, /* the global block takes slot 0 */
        {"loose_wgsl.json", "wgsl", 1, true, 0},
        {"loose_metal.json", "metal", 1, false, 0},
        {"loose_hlsl.json", "dxil", 0, false, 0},
        {"loose_cuda.json", "ptx", 8, false, DGPB_BINDING_INLINE},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        bool wgsl = !strcmp(cases[c].target, "wgsl");
        dgpb_reflection *r = parse_fixture(cases[c].file, cases[c].target, NULL, 0);
        assert_int_equal(r->param_count, 4);
        const dgpb_reflected_param *gain = param(r, "gain"), *count = param(r, "count");
        assert_string_equal(gain->global, "gain");
        assert_string_equal(count->global, "count");
        assert_string_equal(gain->code_name, "globalParams");
        assert_string_equal(count->code_name, "globalParams");
        assert_int_equal(gain->kind, DGPB_KIND_VALUE);
        assert_int_equal(count->kind, DGPB_KIND_VALUE);
        assert_string_equal(gain->shape, "float");
        assert_string_equal(count->shape, "uint");
        assert_false(gain->entry_param);
        if (gain->place_from_code != cases[c].from_code ||
            count->place_from_code != cases[c].from_code)
            fail_msg("%s: place_from_code %d/%d, expected %d", cases[c].target,
                     gain->place_from_code, count->place_from_code, cases[c].from_code);
        assert_int_equal(gain->space, 0);
        if (!cases[c].from_code) {
            assert_int_equal(gain->binding, cases[c].value_binding);
            assert_int_equal(count->binding, cases[c].value_binding);
        }
        assert_int_equal(gain->offset, 0);
        assert_int_equal(gain->size, 4);
        assert_int_equal(count->offset, 4);
        assert_int_equal(count->size, 4);
        assert_int_equal(gain->webgpu_layout, wgsl ? DGPB_WGPU_UNIFORM_BUFFER : 0);
        assert_null(gain->problem);
        const dgpb_reflected_param *samples = param(r, "samples");
        assert_int_equal(samples->kind, DGPB_KIND_RW_BUFFER);
        assert_string_equal(samples->global, "samples");
        assert_string_equal(samples->code_name, "samples");
        assert_false(samples->place_from_code);
        assert_int_equal(samples->binding, cases[c].samples_binding);
        assert_ptr_equal(reflection_find(r, "gain", true), gain);
        assert_null(reflection_find(r, "globalParams", true));
        reflection_free(r);
    }
}

/* ---- WebGPU binding-layout IDs ------------------------------------------- */

static void test_wgsl_parameters_get_their_webgpu_binding_layout_ids(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint32_t id;
    } ids[] = {
        {"scale", DGPB_WGPU_UNIFORM_BUFFER},
        {"extent", DGPB_WGPU_UNIFORM_BUFFER},
        {"k_src", DGPB_WGPU_READ_ONLY_STORAGE_BUFFER},
        {"k_dst", DGPB_WGPU_STORAGE_BUFFER},
        {"k_smp", DGPB_WGPU_FILTERING_SAMPLER},
        {"k_tex", DGPB_WGPU_TEXTURE_2D_FLOAT},
        {"k_r", DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT},
        {"k_rg", DGPB_WGPU_STORAGE_TEXTURE_2D_RG32FLOAT},
        {"k_rgba", DGPB_WGPU_STORAGE_TEXTURE_2D_RGBA32FLOAT},
        {"k_count", DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT},
        {"k_light", DGPB_WGPU_UNIFORM_BUFFER},
    };
    dgpb_reflection *r = parse_fixture("kinds_wgsl.json", "wgsl", k_blocks, 1);
    for (size_t i = 0; i < ARRAY_LEN(ids); i++) {
        const dgpb_reflected_param *p = param(r, ids[i].name);
        if (p->webgpu_layout != ids[i].id || p->problem)
            fail_msg("'%s': id %u problem '%s', expected id %u and no problem", ids[i].name,
                     p->webgpu_layout, p->problem ? p->problem : "", ids[i].id);
    }
    reflection_free(r);
}

static void test_byte_address_buffers_get_storage_buffer_ids_on_wgsl(void **state)
{
    (void)state;
    /* Slang 2025.15 refuses byte loads on wgsl, so the spirv reflection stands in. */
    dgpb_reflection *r = parse_fixture("kinds_spirv.json", "wgsl", k_blocks, 1);
    assert_int_equal(param(r, "k_bytes_in")->webgpu_layout, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER);
    assert_int_equal(param(r, "k_bytes_out")->webgpu_layout, DGPB_WGPU_STORAGE_BUFFER);
    /* Acceleration structures have no WebGPU descriptor, and that is no problem. */
    const dgpb_reflected_param *scene = param(r, "k_scene");
    assert_int_equal(scene->webgpu_layout, DGPB_WGPU_NONE);
    assert_null(scene->problem);
    reflection_free(r);
}

static void test_every_texture_webgpu_binds_gets_an_id_and_the_rest_a_problem(void **state)
{
    (void)state;
    /* Every texture WebGPU can bind has an ID made from its shape (docs/format.md): a 3D
       texture, a 2D array, an r32sint and an rgba32uint storage texture. */
    static const struct {
        const char *file, *name;
        int kind;
        uint32_t id;
    } ids[] = {
        {"kinds_wgsl.json", "k_volume", DGPB_KIND_TEXTURE, 32 + 5 * 8},
        {"kinds_wgsl.json", "k_layers", DGPB_KIND_TEXTURE, 32 + 2 * 8},
        {"shapes_wgsl.json", "s_ints", DGPB_KIND_RW_TEXTURE, 256 + 24 * 32 + 3 * 8 + 1},
        {"shapes_wgsl.json", "s_quads", DGPB_KIND_RW_TEXTURE, 256 + 30 * 32 + 3 * 8 + 1},
    };
    for (size_t c = 0; c < ARRAY_LEN(ids); c++) {
        dgpb_reflection *r = parse_fixture(ids[c].file, "wgsl", k_blocks, 1);
        const dgpb_reflected_param *p = param(r, ids[c].name);
        assert_int_equal(p->kind, ids[c].kind);
        assert_int_equal(p->webgpu_layout, ids[c].id);
        assert_null(p->problem);
        reflection_free(r);
    }
    /* What WebGPU cannot bind keeps a problem naming the shape. */
    static const struct {
        const char *file, *name;
        int kind;
        const char *problem;
    } cases[] = {
        {"shapes_wgsl.json", "s_many", -1,
         "Texture2D<float4>[4] is an array of resources, and WebGPU has no binding arrays; "
         "declare each element as a parameter of its own, or leave wgsl out of --targets"},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = parse_fixture(cases[c].file, "wgsl", k_blocks, 1);
        const dgpb_reflected_param *p = param(r, cases[c].name);
        assert_int_equal(p->kind, cases[c].kind);
        assert_int_equal(p->webgpu_layout, DGPB_WGPU_NONE);
        assert_contains(p->problem, cases[c].problem);
        reflection_free(r);
    }
    /* Next to them, a shape the table has is fine. */
    dgpb_reflection *r = parse_fixture("shapes_wgsl.json", "wgsl", NULL, 0);
    assert_int_equal(param(r, "s_out")->webgpu_layout, DGPB_WGPU_STORAGE_BUFFER);
    assert_null(param(r, "s_out")->problem);
    reflection_free(r);
}

static void test_other_targets_have_no_webgpu_ids_and_no_webgpu_problems(void **state)
{
    (void)state;
    for (size_t f = 0; f < ARRAY_LEN(kinds_fixtures); f++) {
        if (!strcmp(kinds_fixtures[f].target, "wgsl"))
            continue;
        dgpb_reflection *r =
            parse_fixture(kinds_fixtures[f].file, kinds_fixtures[f].target, k_blocks, 1);
        for (size_t i = 0; i < r->param_count; i++) {
            assert_int_equal(r->params[i].webgpu_layout, 0);
            if (r->params[i].problem)
                fail_msg("%s: '%s' has a problem: %s", kinds_fixtures[f].target, r->params[i].name,
                         r->params[i].problem);
        }
        reflection_free(r);
    }
    /* The storage formats are fine on spirv, and a fixed array of resources is a row per
       element at the array's place, each found in the code by the array's variable. */
    dgpb_reflection *r = parse_fixture("shapes_spirv.json", "spirv", NULL, 0);
    assert_int_equal(param(r, "s_ints")->kind, DGPB_KIND_RW_TEXTURE);
    assert_null(param(r, "s_ints")->problem);
    assert_null(param(r, "s_quads")->problem);
    assert_null(reflection_find(r, "s_many", false));
    const dgpb_reflected_param *first = param(r, "s_many[0]");
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof name, "s_many[%d]", i);
        const dgpb_reflected_param *e = param(r, name);
        assert_ptr_equal(e, first + i);
        assert_int_equal(e->kind, DGPB_KIND_TEXTURE);
        assert_null(e->problem);
        assert_string_equal(e->code_name, "s_many");
        assert_string_equal(e->shape, "Texture2D<float4>");
        assert_int_equal(e->space, first->space);
        assert_int_equal(e->binding, first->binding);
    }
    reflection_free(r);
}

/* ---- the rows of plain modules (entry k, no value blocks) ------------------ */

/* One expected row. NULL code_name: not checked; from_code: space/binding not checked
   (the reflection cannot know them, the code does). */
typedef struct want_param {
    const char *name, *global, *code_name;
    int kind;
    bool entry_param, from_code;
    uint32_t space, binding, offset, size, webgpu_layout;
} want_param;

#define LAUNCH DGPB_SPACE_LAUNCH
#define INLINE DGPB_BINDING_INLINE

/* Checks every row of fixtures/reflect/<file> for `target`, in order; rows without a
   kind need a problem, the others none. */
static void check_params(const char *file, const char *target, const want_param *want, size_t n)
{
    dgpb_reflection *r = parse_fixture(file, target, NULL, 0);
    for (size_t i = 0; i < r->param_count && i < n; i++) {
        const dgpb_reflected_param *p = &r->params[i];
        const want_param *w = &want[i];
        if (strcmp(p->name, w->name) != 0 || strcmp(p->global, w->global) != 0 ||
            (w->code_name && strcmp(p->code_name, w->code_name) != 0) || p->kind != w->kind ||
            p->entry_param != w->entry_param || p->place_from_code != w->from_code ||
            (!w->from_code && (p->space != w->space || p->binding != w->binding)) ||
            p->offset != w->offset || p->size != w->size || p->webgpu_layout != w->webgpu_layout)
            fail_msg("%s (%s) row %zu: '%s' of '%s' code '%s' kind %d entry %d from_code %d "
                     "space 0x%X binding 0x%X offset %u size %u id %u; expected '%s' of '%s' "
                     "code '%s' kind %d entry %d from_code %d space 0x%X binding 0x%X offset %u "
                     "size %u id %u",
                     file, target, i, p->name, p->global, p->code_name, p->kind, p->entry_param,
                     p->place_from_code, p->space, p->binding, p->offset, p->size, p->webgpu_layout,
                     w->name, w->global, w->code_name ? w->code_name : "(any)", w->kind,
                     w->entry_param, w->from_code, w->space, w->binding, w->offset, w->size,
                     w->webgpu_layout);
        if ((p->kind < 0) != (p->problem != NULL))
            fail_msg("%s (%s): '%s' is kind %d with problem '%s'", file, target, p->name, p->kind,
                     p->problem ? p->problem : "(none)");
    }
    if (r->param_count != n)
        fail_msg("%s (%s): %zu rows, expected %zu", file, target, r->param_count, n);
    reflection_free(r);
}

static void
test_entry_point_uniforms_on_spirv_are_push_constants_and_code_placed_resources(void **state)
{
    (void)state;
    /* Values in the launch space at their push-constant offsets; resources take their
       binding from the code's "entryPointParams.<name>" (the JSON's slot is relative). */
    static const want_param want[] = {
        {"total", "total", "total", DGPB_KIND_RW_BUFFER, false, false, 0, 0, 0, 4, 0},
        {"src", "src", "entryPointParams.src", DGPB_KIND_BUFFER, true, true, 0, 0, 0, 4, 0},
        {"dst", "dst", "entryPointParams.dst", DGPB_KIND_RW_BUFFER, true, true, 0, 0, 0, 4, 0},
        {"scale", "scale", "entryPointParams", DGPB_KIND_VALUE, true, false, LAUNCH, 0, 0, 4, 0},
        {"count", "count", "entryPointParams", DGPB_KIND_VALUE, true, false, LAUNCH, 0, 4, 4, 0},
        {"job.mul", "job", "entryPointParams", DGPB_KIND_VALUE, true, false, LAUNCH, 0, 8, 4, 0},
        {"job.log", "job", "entryPointParams.job.log", DGPB_KIND_RW_BUFFER, true, true, 0, 0, 0, 4,
         0},
    };
    check_params("entry_uniforms_spirv.json", "spirv", want, ARRAY_LEN(want));
}

static void test_entry_point_uniforms_on_wgsl_are_one_uniform_block_placed_by_the_code(void **state)
{
    (void)state;
    /* Slang gathers the values into a `var<uniform> entryPointParams_0` (std140: the struct
       field at 16), and only the code says where it and the resources are bound. */
    static const want_param want[] = {
        {"total", "total", "total", DGPB_KIND_RW_BUFFER, false, false, 0, 0, 0, 4,
         DGPB_WGPU_STORAGE_BUFFER},
        {"src", "src", "entryPointParams.src", DGPB_KIND_BUFFER, true, true, 0, 0, 0, 4,
         DGPB_WGPU_READ_ONLY_STORAGE_BUFFER},
        {"dst", "dst", "entryPointParams.dst", DGPB_KIND_RW_BUFFER, true, true, 0, 0, 0, 4,
         DGPB_WGPU_STORAGE_BUFFER},
        {"scale", "scale", "entryPointParams", DGPB_KIND_VALUE, true, true, 0, 0, 0, 4,
         DGPB_WGPU_UNIFORM_BUFFER},
        {"count", "count", "entryPointParams", DGPB_KIND_VALUE, true, true, 0, 0, 4, 4,
         DGPB_WGPU_UNIFORM_BUFFER},
        {"job.mul", "job", "entryPointParams", DGPB_KIND_VALUE, true, true, 0, 0, 16, 4,
         DGPB_WGPU_UNIFORM_BUFFER},
        {"job.log", "job", "entryPointParams.job.log", DGPB_KIND_RW_BUFFER, true, true, 0, 0, 0, 4,
         DGPB_WGPU_STORAGE_BUFFER},
    };
    check_params("entry_uniforms_wgsl.json", "wgsl", want, ARRAY_LEN(want));
}

static void
test_entry_point_uniforms_on_ptx_are_kernel_parameters_at_their_byte_offsets(void **state)
{
    (void)state;
    /* k_param_0 (16 bytes), k_param_1 (16), k_param_2 (4), k_param_3 (4), k_param_4 (Job:
       uint, then a 16-byte buffer at 8): a resource's binding is its byte offset and its size
       the handle's; a value's offset is its byte offset. */
    static const want_param want[] = {
        {"total", "total", "total", DGPB_KIND_RW_BUFFER, false, false, 0, 0, 0, 4, 0},
        {"src", "src", "entryPointParams.src", DGPB_KIND_BUFFER, true, false, LAUNCH, 0, 0, 4, 0},
        {"dst", "dst", "entryPointParams.dst", DGPB_KIND_RW_BUFFER, true, false, LAUNCH, 16, 0, 4,
         0},
        {"scale", "scale", "entryPointParams", DGPB_KIND_VALUE, true, false, LAUNCH, 0, 32, 4, 0},
        {"count", "count", "entryPointParams", DGPB_KIND_VALUE, true, false, LAUNCH, 0, 36, 4, 0},
        {"job.mul", "job", "entryPointParams", DGPB_KIND_VALUE, true, false, LAUNCH, 0, 40, 4, 0},
        {"job.log", "job", "entryPointParams.job.log", DGPB_KIND_RW_BUFFER, true, false, LAUNCH, 48,
         0, 4, 0},
    };
    check_params("entry_uniforms_cuda.json", "ptx", want, ARRAY_LEN(want));
}

static void test_struct_globals_are_flattened_into_dotted_rows_at_absolute_places(void **state)
{
    (void)state;
    /* `res` (buffers only) keeps its own variables; `m` and `nest` hold plain data, so Slang
       legalizes their values into its global block and names their resources after it. */
    static const struct {
        const char *file, *target;
        uint32_t ids[9];
    } cases[] = {
        {"aggregates_spirv.json", "spirv", {0}},
        {"aggregates_wgsl.json",
         "wgsl",
         {DGPB_WGPU_READ_ONLY_STORAGE_BUFFER, DGPB_WGPU_STORAGE_BUFFER, DGPB_WGPU_UNIFORM_BUFFER,
          DGPB_WGPU_STORAGE_BUFFER, DGPB_WGPU_UNIFORM_BUFFER, DGPB_WGPU_UNIFORM_BUFFER,
          DGPB_WGPU_UNIFORM_BUFFER, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER, DGPB_WGPU_STORAGE_BUFFER}},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        const uint32_t *id = cases[c].ids;
        const want_param want[] = {
            {"res.src", "res", "res.src", DGPB_KIND_BUFFER, false, false, 0, 1, 0, 4, id[0]},
            {"res.dst", "res", "res.dst", DGPB_KIND_RW_BUFFER, false, false, 0, 2, 0, 4, id[1]},
            {"m.count", "m", "globalParams", DGPB_KIND_VALUE, false, true, 0, 0, 0, 4, id[2]},
            {"m.dst", "m", "globalParams.m.dst", DGPB_KIND_RW_BUFFER, false, false, 0, 3, 0, 4,
             id[3]},
            {"m.gain", "m", "globalParams", DGPB_KIND_VALUE, false, true, 0, 0, 4, 4, id[4]},
            {"nest.flags", "nest", "globalParams", DGPB_KIND_VALUE, false, true, 0, 0, 16, 4,
             id[5]},
            {"nest.inner.bias", "nest", "globalParams", DGPB_KIND_VALUE, false, true, 0, 0, 32, 4,
             id[6]},
            {"nest.inner.weights", "nest", "globalParams.nest.inner.weights", DGPB_KIND_BUFFER,
             false, false, 0, 4, 0, 4, id[7]},
            {"nest.out", "nest", "globalParams.nest.out", DGPB_KIND_RW_BUFFER, false, false, 0, 5,
             0, 4, id[8]},
        };
        check_params(cases[c].file, cases[c].target, want, ARRAY_LEN(want));
    }
}

static void test_struct_globals_on_ptx_lie_in_the_global_parameter_block(void **state)
{
    (void)state;
    /* Resources at their byte offsets in SLANG_globalParams, values inline there. */
    static const want_param want[] = {
        {"res.src", "res", "res.src", DGPB_KIND_BUFFER, false, false, 0, 0, 0, 4, 0},
        {"res.dst", "res", "res.dst", DGPB_KIND_RW_BUFFER, false, false, 0, 16, 0, 4, 0},
        {"m.count", "m", "globalParams", DGPB_KIND_VALUE, false, false, 0, INLINE, 32, 4, 0},
        {"m.dst", "m", NULL, DGPB_KIND_RW_BUFFER, false, false, 0, 40, 0, 4, 0},
        {"m.gain", "m", "globalParams", DGPB_KIND_VALUE, false, false, 0, INLINE, 56, 4, 0},
        {"nest.flags", "nest", "globalParams", DGPB_KIND_VALUE, false, false, 0, INLINE, 64, 4, 0},
        {"nest.inner.bias", "nest", "globalParams", DGPB_KIND_VALUE, false, false, 0, INLINE, 72, 4,
         0},
        {"nest.inner.weights", "nest", NULL, DGPB_KIND_BUFFER, false, false, 0, 80, 0, 4, 0},
        {"nest.out", "nest", NULL, DGPB_KIND_RW_BUFFER, false, false, 0, 96, 0, 4, 0},
    };
    check_params("aggregates_cuda.json", "ptx", want, ARRAY_LEN(want));
}

static void
test_constant_buffers_and_parameter_blocks_are_value_rows_of_their_block_and_resource_rows(
    void **state)
{
    (void)state;
    /* cb: its fields around the texture are value rows of cb's block (binding 0), the texture
       its own row (binding 1). scene: a ParameterBlock in set 1 (its register space), its data
       at the container's binding 0, its buffers after it; lights holds no data: set 2 from 0. */
    static const struct {
        const char *file, *target;
        bool wgsl;
    } cases[] = {{"blocks_spirv.json", "spirv", false}, {"blocks_wgsl.json", "wgsl", true}};
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        bool w = cases[c].wgsl;
        uint32_t val = w ? DGPB_WGPU_UNIFORM_BUFFER : 0,
                 ro = w ? DGPB_WGPU_READ_ONLY_STORAGE_BUFFER : 0,
                 rw = w ? DGPB_WGPU_STORAGE_BUFFER : 0, tex = w ? DGPB_WGPU_TEXTURE_2D_FLOAT : 0;
        const want_param want[] = {
            {"cb", "cb", "cb", DGPB_KIND_UNIFORM_BUFFER, false, false, 0, 0, 0, 32, val},
            {"cb.tint", "cb", "cb", DGPB_KIND_VALUE, false, false, 0, 0, 0, 16, val},
            {"cb.tex", "cb", "cb.tex", DGPB_KIND_TEXTURE, false, false, 0, 1, 0, 0, tex},
            {"cb.size", "cb", "cb", DGPB_KIND_VALUE, false, false, 0, 0, 16, 8, val},
            {"result", "result", "result", DGPB_KIND_RW_BUFFER, false, false, 0, 2, 0, 4, rw},
            {"scene", "scene", "scene", DGPB_KIND_UNIFORM_BUFFER, false, false, 1, 0, 0, 16, val},
            {"scene.count", "scene", "scene", DGPB_KIND_VALUE, false, false, 1, 0, 0, 4, val},
            {"scene.mul", "scene", "scene", DGPB_KIND_VALUE, false, false, 1, 0, 4, 4, val},
            {"scene.src", "scene", "scene.src", DGPB_KIND_BUFFER, false, false, 1, 1, 0, 4, ro},
            {"scene.dst", "scene", "scene.dst", DGPB_KIND_RW_BUFFER, false, false, 1, 2, 0, 4, rw},
            {"lights.list", "lights", "lights.list", DGPB_KIND_BUFFER, false, false, 2, 0, 0, 16,
             ro},
        };
        check_params(cases[c].file, cases[c].target, want, ARRAY_LEN(want));
    }
}

static void
test_on_ptx_a_block_holding_resources_is_refused_and_its_values_follow_its_pointer(void **state)
{
    (void)state;
    /* A block is a pointer in SLANG_globalParams (cb at 0, scene at 24): its values are rows
       at that binding with their offsets in the block's memory, but a resource inside it has
       no row that could place it. */
    static const want_param want[] = {
        {"cb", "cb", "cb", DGPB_KIND_UNIFORM_BUFFER, false, false, 0, 0, 0, 32, 0},
        {"cb.tint", "cb", "cb", DGPB_KIND_VALUE, false, false, 0, 0, 0, 16, 0},
        {"cb.tex", "cb", "cb.tex", -1, false, false, 0, 16, 0, 0, 0},
        {"cb.size", "cb", "cb", DGPB_KIND_VALUE, false, false, 0, 0, 24, 8, 0},
        {"result", "result", "result", DGPB_KIND_RW_BUFFER, false, false, 0, 8, 0, 4, 0},
        {"scene", "scene", "scene", DGPB_KIND_UNIFORM_BUFFER, false, false, 0, 24, 0, 40, 0},
        {"scene.count", "scene", "scene", DGPB_KIND_VALUE, false, false, 0, 24, 0, 4, 0},
        {"scene.mul", "scene", "scene", DGPB_KIND_VALUE, false, false, 0, 24, 4, 4, 0},
        {"scene.src", "scene", "scene.src", -1, false, false, 0, 8, 0, 0, 0},
        {"scene.dst", "scene", "scene.dst", -1, false, false, 0, 24, 0, 0, 0},
        {"lights.list", "lights", "lights.list", -1, false, false, 0, 0, 0, 0, 0},
    };
    check_params("blocks_cuda.json", "ptx", want, ARRAY_LEN(want));
    dgpb_reflection *r = parse_fixture("blocks_cuda.json", "ptx", NULL, 0);
    assert_contains(param(r, "cb.tex")->problem,
                    "on ptx, Texture2D<float> lives in the memory of the block 'cb', where no row "
                    "can place it; declare it outside the ConstantBuffer or ParameterBlock, or "
                    "leave ptx out of --targets");
    assert_contains(param(r, "scene.dst")->problem,
                    "on ptx, RWStructuredBuffer<uint> lives in the memory of the block 'scene'");
    assert_contains(param(r, "lights.list")->problem,
                    "StructuredBuffer<float4> lives in the memory of the block 'lights'");
    reflection_free(r);
}

static void
test_a_push_constant_block_is_launch_rows_on_spirv_refused_on_wgsl_a_pointer_on_ptx(void **state)
{
    (void)state;
    static const want_param spirv[] = {
        {"pc.count", "pc", "pc", DGPB_KIND_VALUE, false, false, LAUNCH, 0, 0, 4, 0},
        {"pc.mul", "pc", "pc", DGPB_KIND_VALUE, false, false, LAUNCH, 0, 4, 4, 0},
        {"pc.add", "pc", "pc", DGPB_KIND_VALUE, false, false, LAUNCH, 0, 8, 4, 0},
        {"src", "src", "src", DGPB_KIND_BUFFER, false, false, 0, 0, 0, 4, 0},
        {"dst", "dst", "dst", DGPB_KIND_RW_BUFFER, false, false, 0, 1, 0, 4, 0},
    };
    static const want_param wgsl[] = {
        {"pc", "pc", "pc", -1, false, false, 0, 0, 0, 0, 0},
        {"src", "src", "src", DGPB_KIND_BUFFER, false, false, 0, 0, 0, 4,
         DGPB_WGPU_READ_ONLY_STORAGE_BUFFER},
        {"dst", "dst", "dst", DGPB_KIND_RW_BUFFER, false, false, 0, 1, 0, 4,
         DGPB_WGPU_STORAGE_BUFFER},
    };
    /* CUDA has no push constants: the block is a constant buffer whose pointer is at byte 0. */
    static const want_param ptx[] = {
        {"pc", "pc", "pc", DGPB_KIND_UNIFORM_BUFFER, false, false, 0, 0, 0, 12, 0},
        /* Unnamed as a push-constant block (dgpb-build names it from the SPIR-V), it is a
           plain-data block: its fields follow at its place. */
        {"pc.count", "pc", "pc", DGPB_KIND_VALUE, false, false, 0, 0, 0, 4, 0},
        {"pc.mul", "pc", "pc", DGPB_KIND_VALUE, false, false, 0, 0, 4, 4, 0},
        {"pc.add", "pc", "pc", DGPB_KIND_VALUE, false, false, 0, 0, 8, 4, 0},
        {"src", "src", "src", DGPB_KIND_BUFFER, false, false, 0, 8, 0, 4, 0},
        {"dst", "dst", "dst", DGPB_KIND_RW_BUFFER, false, false, 0, 24, 0, 4, 0},
    };
    check_params("push_spirv.json", "spirv", spirv, ARRAY_LEN(spirv));
    check_params("push_wgsl.json", "wgsl", wgsl, ARRAY_LEN(wgsl));
    check_params("push_cuda.json", "ptx", ptx, ARRAY_LEN(ptx));
    dgpb_reflection *r = parse_fixture("push_wgsl.json", "wgsl", NULL, 0);
    assert_string_equal(param(r, "pc")->shape, "ConstantBuffer<PushData>");
    assert_contains(param(r, "pc")->problem,
                    "ConstantBuffer<PushData> is a [[vk::push_constant]] block, and WebGPU has no "
                    "push constants; declare a plain ConstantBuffer, or leave wgsl out of "
                    "--targets");
    reflection_free(r);
}

static void test_shapes_no_row_describes_are_refused_with_the_rewrite_on_every_target(void **state)
{
    (void)state;
    /* Each keeps its row, named after the variable that carries it in the code (params.c
       finds a used one, and raises its refusal, through that name). */
    static const struct {
        const char *name, *code_name, *shape, *problem;
        bool wgsl;      /* compiled for wgsl too */
        bool ptx_only;  /* refused on ptx alone (on spirv: rows, below) */
    } refused[] = {
        {"kept", "kept", "AppendStructuredBuffer<uint>",
         "AppendStructuredBuffer<uint> has no ptx row: Slang's CUDA code keeps its counter inside "
         "the buffer's handle, which no row can describe",
         false, true},
        {"pending", "pending", "ConsumeStructuredBuffer<uint>",
         "ConsumeStructuredBuffer<uint> has no ptx row: Slang's CUDA code keeps its counter "
         "inside the buffer's handle",
         false, true},
        {"material", "entryPointParams.material", "ParameterBlock<Material>",
         "ParameterBlock<Material> as an entry-point parameter has no fixed descriptor set; "
         "declare the ParameterBlock as a global",
         true, false},
    };
    static const struct {
        const char *file, *target;
        bool wgsl;
        size_t count;
    } cases[] = {
        {"refused_spirv.json", "spirv", false, 15}, /* kept and pending: two rows each */
        {"refused_wgsl.json", "wgsl", true, 7},
        {"refused_cuda.json", "ptx", false, 13},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = parse_fixture(cases[c].file, cases[c].target, NULL, 0);
        assert_int_equal(r->param_count, cases[c].count);
        bool ptx = cases[c].target[0] == 'p';
        for (size_t i = 0; i < ARRAY_LEN(refused); i++) {
            const dgpb_reflected_param *p = reflection_find(r, refused[i].name, false);
            if (cases[c].wgsl && !refused[i].wgsl) {
                assert_null(p);
                continue;
            }
            if (!p)
                fail_msg("%s: no row '%s'", cases[c].target, refused[i].name);
            if (refused[i].ptx_only && !ptx) {
                /* An append or consume buffer on spirv: its elements, then its counter. */
                char counter[64], elements[64];
                snprintf(counter, sizeof counter, "%s.counter", refused[i].name);
                snprintf(elements, sizeof elements, "%s.elements", refused[i].name);
                const dgpb_reflected_param *k = param(r, counter);
                assert_int_equal(p->kind, DGPB_KIND_RW_BUFFER);
                assert_string_equal(p->code_name, elements);
                assert_int_equal(k->kind, DGPB_KIND_RW_BUFFER);
                assert_string_equal(k->code_name, counter);
                assert_int_equal(k->binding, p->binding + 1);
                assert_int_equal(k->size, 4);
                continue;
            }
            if (p->kind != -1 || strcmp(p->code_name, refused[i].code_name) != 0 ||
                strcmp(p->shape, refused[i].shape) != 0)
                fail_msg("%s: '%s' has kind %d, code name '%s', shape '%s'; expected -1, '%s', "
                         "'%s'",
                         cases[c].target, p->name, p->kind, p->code_name, p->shape,
                         refused[i].code_name, refused[i].shape);
            assert_contains(p->problem, refused[i].problem);
        }
        /* A typed buffer (Buffer<T>) is a texel_buffer row of dimension buffer on spirv; ptx
           refuses it by name (Slang's CUDA code reads nothing through it). Slang 2025.15
           writes no element type for it, so its sample type is the code's. */
        if (!cases[c].wgsl) {
            const dgpb_reflected_param *typed = param(r, "typed");
            assert_int_equal(typed->kind, ptx ? -1 : DGPB_KIND_TEXEL_BUFFER);
            if (ptx)
                assert_contains(typed->problem, "Buffer is a texel buffer, which has no ptx form");
            else
                assert_int_equal(typed->shape_word, DGPB_DIM_BUFFER);
        }
        /* Next to them, an ordinary buffer is a row like any other. */
        const dgpb_reflected_param *out = param(r, "out");
        assert_int_equal(out->kind, DGPB_KIND_RW_BUFFER);
        assert_null(out->problem);
        assert_true(param(r, "material")->entry_param);
        assert_false(param(r, "albedo")->entry_param);
        /* StructuredBuffer<float> layers[4]: refused on wgsl (no binding arrays in WebGPU); on
           spirv four rows sharing the array's binding, on ptx four 16-byte handles in a row. */
        if (cases[c].wgsl) {
            assert_int_equal(param(r, "layers")->kind, -1);
            assert_contains(param(r, "layers")->problem,
                            "StructuredBuffer<float>[4] is an array of resources, and WebGPU has "
                            "no binding arrays");
        } else {
            const dgpb_reflected_param *l0 = param(r, "layers[0]");
            for (uint32_t i = 0; i < 4; i++) {
                const dgpb_reflected_param *e = l0 + i;
                assert_int_equal(e->kind, DGPB_KIND_BUFFER);
                assert_string_equal(e->code_name, "layers");
                assert_int_equal(e->size, 4); /* the element stride */
                assert_int_equal(e->binding,
                                 l0->binding + (cases[c].target[0] == 'p' ? 16 * i : 0));
            }
            assert_string_equal(l0[3].name, "layers[3]");
        }
        reflection_free(r);
    }
}

static void test_values_holding_a_bool_are_marked(void **state)
{
    (void)state;
    /* `uniform bool invert`, `uniform Flags flags` (bool2 inside) and the entry's
       `uniform bool negate`: plain values, marked for the WGSL rule; nothing else is. */
    static const struct {
        const char *file, *target;
        uint32_t invert_size;
    } cases[] = {
        {"refused_spirv.json", "spirv", 4},
        {"refused_wgsl.json", "wgsl", 4},
        {"refused_cuda.json", "ptx", 1},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = parse_fixture(cases[c].file, cases[c].target, NULL, 0);
        const dgpb_reflected_param *invert = param(r, "invert"), *flags = param(r, "flags"),
                                   *negate = param(r, "negate");
        assert_int_equal(invert->kind, DGPB_KIND_VALUE);
        assert_string_equal(invert->shape, "bool");
        assert_int_equal(invert->size, cases[c].invert_size);
        assert_int_equal(flags->kind, DGPB_KIND_VALUE);
        assert_string_equal(flags->shape, "Flags");
        assert_int_equal(negate->kind, DGPB_KIND_VALUE);
        assert_true(negate->entry_param);
        assert_true(invert->has_bool);
        assert_true(flags->has_bool);
        assert_true(negate->has_bool);
        /* The problem is WGSL's alone, and params.c raises it only for rows an entry uses. */
        assert_null(invert->problem);
        for (size_t i = 0; i < r->param_count; i++) {
            const dgpb_reflected_param *p = &r->params[i];
            bool expected = p == invert || p == flags || p == negate;
            if (p->has_bool != expected)
                fail_msg("%s: '%s' has_bool %d", cases[c].target, p->name, p->has_bool);
        }
        reflection_free(r);
    }
    /* No value of the other modules holds a bool. */
    static const char *const others[] = {"entry_uniforms_spirv.json", "aggregates_spirv.json",
                                         "blocks_spirv.json", "loose_spirv.json"};
    for (size_t f = 0; f < ARRAY_LEN(others); f++) {
        dgpb_reflection *r = parse_fixture(others[f], "spirv", NULL, 0);
        for (size_t i = 0; i < r->param_count; i++)
            assert_false(r->params[i].has_bool);
        reflection_free(r);
    }
}

/* ---- a newer Slang's superset --------------------------------------------- */

static void assert_same_reflection(const dgpb_reflection *a, const dgpb_reflection *b)
{
    assert_int_equal(a->param_count, b->param_count);
    for (size_t i = 0; i < a->param_count; i++) {
        const dgpb_reflected_param *p = &a->params[i], *q = &b->params[i];
        assert_string_equal(p->name, q->name);
        assert_string_equal(p->global, q->global);
        assert_string_equal(p->shape, q->shape);
        assert_int_equal(p->kind, q->kind);
        assert_int_equal(p->space, q->space);
        assert_int_equal(p->binding, q->binding);
        assert_int_equal(p->offset, q->offset);
        assert_int_equal(p->size, q->size);
        assert_int_equal(p->webgpu_layout, q->webgpu_layout);
        assert_true((p->problem == NULL) == (q->problem == NULL));
        if (p->problem)
            assert_string_equal(p->problem, q->problem);
    }
    assert_int_equal(a->entry_count, b->entry_count);
    for (size_t i = 0; i < a->entry_count; i++) {
        const dgpb_reflected_entry *e = &a->entries[i], *f = &b->entries[i];
        assert_string_equal(e->name, f->name);
        assert_string_equal(e->stage_name, f->stage_name);
        assert_int_equal(e->stage, f->stage);
        assert_memory_equal(e->thread_group_size, f->thread_group_size,
                            sizeof e->thread_group_size);
    }
}

static void test_a_native_slang_superset_parses_like_the_plain_reflection(void **state)
{
    (void)state;
    static const char *const targets[] = {"spirv", "wgsl"};
    for (size_t t = 0; t < ARRAY_LEN(targets); t++) {
        for (size_t blocks = 0; blocks <= 1; blocks++) {
            dgpb_reflection *plain =
                parse_fixture("kinds_spirv.json", targets[t], k_blocks, blocks);
            dgpb_reflection *native =
                parse_fixture("kinds_spirv_native.json", targets[t], k_blocks, blocks);
            assert_same_reflection(plain, native);
            reflection_free(plain);
            reflection_free(native);
        }
    }
}

static void test_unknown_keys_anywhere_are_ignored(void **state)
{
    (void)state;
    static const char json[] =
        "{\"future\": [1, {\"x\": null}], \"parameters\": [{\"name\": \"buf\", \"extra\": true,"
        " \"binding\": {\"kind\": \"descriptorTableSlot\", \"index\": 2, \"space\": 1, \"new\": 7},"
        " \"type\": {\"kind\": \"resource\", \"baseShape\": \"structuredBuffer\", \"access\":"
        " \"readWrite\", \"sizes\": [], \"resultType\": {\"kind\": \"scalar\", \"scalarType\":"
        " \"uint32\", \"more\": \"x\"}}}], \"entryPoints\": [{\"name\": \"k\", \"stage\":"
        " \"compute\", \"threadGroupSize\": [4, 2, 1], \"bindings\": [{\"used\": false}]}]}";
    dgpb_reflection *r = parse_text(json, "spirv");
    assert_int_equal(r->param_count, 1);
    assert_string_equal(r->params[0].shape, "RWStructuredBuffer<uint>");
    assert_int_equal(r->params[0].kind, DGPB_KIND_RW_BUFFER);
    assert_int_equal(r->params[0].space, 1);
    assert_int_equal(r->params[0].binding, 2);
    assert_int_equal(r->entry_count, 1);
    assert_int_equal(r->entries[0].thread_group_size[0], 4);
    reflection_free(r);
}

/* ---- hand-made shapes ----------------------------------------------------- */

static void test_a_bindings_list_places_by_its_first_descriptor_binding(void **state)
{
    (void)state;
    static const char json[] =
        "{\"parameters\": [{\"name\": \"mixed\", \"bindings\": ["
        "{\"kind\": \"uniform\", \"offset\": 16, \"size\": 8},"
        "{\"kind\": \"descriptorTableSlot\", \"index\": 4, \"space\": 3}],"
        " \"type\": {\"kind\": \"resource\", \"baseShape\": \"texture2D\","
        " \"resultType\": {\"kind\": \"vector\", \"elementCount\": 4, \"elementType\":"
        " {\"kind\": \"scalar\", \"scalarType\": \"float32\"}}}}]}";
    dgpb_reflection *r = parse_text(json, "spirv");
    assert_int_equal(r->params[0].kind, DGPB_KIND_TEXTURE);
    assert_int_equal(r->params[0].space, 3);
    assert_int_equal(r->params[0].binding, 4);
    assert_int_equal(r->entry_count, 0);
    reflection_free(r);
}

static void test_a_resource_with_only_a_uniform_binding_has_no_kind_outside_ptx(void **state)
{
    (void)state;
    static const char json[] = "{\"parameters\": [{\"name\": \"odd\", \"binding\": {\"kind\":"
                               " \"uniform\", \"offset\": 32, \"size\": 16}, \"type\": {\"kind\":"
                               " \"resource\", \"baseShape\": \"structuredBuffer\","
                               " \"resultType\": {\"kind\": \"scalar\", \"scalarType\":"
                               " \"float32\"}}}]}";
    dgpb_reflection *r = parse_text(json, "spirv");
    assert_int_equal(r->params[0].kind, -1);
    assert_contains(r->params[0].problem,
                    "StructuredBuffer<float> has no descriptor binding on spirv");
    reflection_free(r);
    r = parse_text(json, "ptx");
    assert_int_equal(r->params[0].kind, DGPB_KIND_BUFFER);
    assert_int_equal(r->params[0].binding, 32);
    assert_null(r->params[0].problem);
    reflection_free(r);
}

static void test_shapes_the_format_cannot_express_have_no_kind_and_a_reason(void **state)
{
    (void)state;
    static const struct {
        const char *type, *name, *problem;
    } cases[] = {
        /* A ParameterBlock is rows of its own, but only as a global of its own. */
        {"{\"kind\": \"struct\", \"name\": \"Holder\", \"fields\": [{\"name\": \"blk\","
         " \"binding\": {\"kind\": \"descriptorTableSlot\", \"index\": 0}, \"type\":"
         " {\"kind\": \"parameterBlock\", \"elementType\": {\"kind\": \"struct\", \"name\":"
         " \"Mat\"}}}]}",
         "p.blk",
         "ParameterBlock<Mat> inside another aggregate is not supported; declare the "
         "ParameterBlock as a global of its own"},
        {"{\"kind\": \"array\", \"elementCount\": 0, \"elementType\": {\"kind\": \"struct\","
         " \"name\": \"Pair\", \"fields\": [{\"name\": \"buf\", \"type\": {\"kind\":"
         " \"resource\", \"baseShape\": \"structuredBuffer\"}}]}}",
         "p",
         "Pair[] is an unbounded array of arrays, aggregates or blocks that hold resources, which "
         "no row can describe; declare one unbounded array per resource"},
        {"{\"kind\": \"resource\", \"baseShape\": \"textureCubeArray\"}", "p",
         "textureCubeArray is not a parameter kind of the format"},
        {"{\"name\": \"nokind\"}", "p", "nokind has no type kind in the reflection"},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"parameters\": [{\"name\": \"p\", \"binding\": {\"kind\":"
                 " \"descriptorTableSlot\", \"index\": 0}, \"type\": %s}]}",
                 cases[c].type);
        dgpb_reflection *r = parse_text(json, "spirv");
        assert_int_equal(r->param_count, 1);
        assert_string_equal(r->params[0].name, cases[c].name);
        assert_int_equal(r->params[0].kind, -1);
        assert_contains(r->params[0].problem, cases[c].problem);
        reflection_free(r);
    }
}

/* An unbounded array of resources (`T name[]`) is one row of the element's kind, flagged
   unbounded, on spirv; wgsl and ptx refuse it by name. */
static void test_an_unbounded_array_is_one_row_of_its_element(void **state)
{
    (void)state;
    static const char json[] =
        "{\"parameters\": [{\"name\": \"p\", \"binding\": {\"kind\": \"descriptorTableSlot\","
        " \"index\": 0}, \"type\": {\"kind\": \"array\", \"elementCount\": 0, \"elementType\":"
        " {\"kind\": \"resource\", \"baseShape\": \"structuredBuffer\", \"resultType\":"
        " {\"kind\": \"scalar\", \"scalarType\": \"float32\"}}}}]}";
    dgpb_reflection *r = parse_text(json, "spirv");
    assert_int_equal(r->param_count, 1);
    assert_string_equal(r->params[0].name, "p");
    assert_int_equal(r->params[0].kind, DGPB_KIND_BUFFER);
    assert_true(r->params[0].unbounded);
    assert_int_equal(r->params[0].size, 4);
    reflection_free(r);
    r = parse_text(json, "wgsl");
    assert_int_equal(r->params[0].kind, -1);
    assert_contains(r->params[0].problem, "and WebGPU has no binding arrays");
    reflection_free(r);
}

static void test_texel_buffers_are_rows_of_their_shape_and_refused_by_name_off_spirv(void **state)
{
    (void)state;
    /* Buffer<float> and [format("r32ui")] RWBuffer<uint>: texel_buffer and rw_texel_buffer rows
       of dimension buffer with their sample type, format and access; wgsl (WebGPU has no texel
       buffers) and ptx (Slang's CUDA code reads nothing through them) refuse them by name. */
    static const char *const json =
        "{\"parameters\": [{\"name\": \"src\", \"binding\": {\"kind\": \"descriptorTableSlot\","
        " \"index\": 0}, \"type\": {\"kind\": \"resource\", \"baseShape\": \"textureBuffer\","
        " \"resultType\": {\"kind\": \"scalar\", \"scalarType\": \"float32\"}}},"
        " {\"name\": \"dst\", \"binding\": {\"kind\": \"descriptorTableSlot\", \"index\": 1},"
        " \"format\": \"r32ui\", \"type\": {\"kind\": \"resource\", \"baseShape\":"
        " \"textureBuffer\", \"access\": \"readWrite\", \"resultType\": {\"kind\": \"scalar\","
        " \"scalarType\": \"uint32\"}}}]}";
    dgpb_reflection *r = parse_text(json, "spirv");
    assert_int_equal(r->param_count, 2);
    assert_int_equal(r->params[0].kind, DGPB_KIND_TEXEL_BUFFER);
    assert_int_equal(r->params[0].shape_word,
                     DGPB_DIM_BUFFER | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT);
    assert_int_equal(r->params[1].kind, DGPB_KIND_RW_TEXEL_BUFFER);
    assert_int_equal(r->params[1].shape_word,
                     DGPB_DIM_BUFFER | DGPB_SAMPLE_UINT << DGPB_SHAPE_SAMPLE_SHIFT |
                         DGPB_TEXEL_R32UINT << DGPB_SHAPE_FORMAT_SHIFT |
                         DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT);
    assert_null(r->params[0].problem);
    reflection_free(r);
    static const struct {
        const char *target, *problem;
    } off[] = {
        {"wgsl", "Buffer<float> is a texel buffer, which has no wgsl binding (WebGPU has no "
                 "texel buffers); declare a StructuredBuffer<T> instead, or leave wgsl out of "
                 "--targets"},
        {"ptx", "Buffer<float> is a texel buffer, which has no ptx form (Slang's CUDA code "
                "reads and writes nothing through it); declare a StructuredBuffer<T> instead"},
    };
    for (size_t i = 0; i < ARRAY_LEN(off); i++) {
        r = parse_text(json, off[i].target);
        assert_int_equal(r->params[0].kind, -1);
        assert_contains(r->params[0].problem, off[i].problem);
        assert_int_equal(r->params[1].kind, -1);
        assert_contains(r->params[1].problem, "declare a RWStructuredBuffer<T> instead");
        reflection_free(r);
    }
}

static void test_a_subpass_input_is_an_input_attachment_row_with_its_index(void **state)
{
    (void)state;
    /* As Slang 2025.15 writes it: the implementation struct without fields, a descriptor slot,
       and the attachment index in a record of the category it names "unknown". */
    static const char *const json =
        "{\"parameters\": [{\"name\": \"gbuf\", \"bindings\": [{\"kind\":"
        " \"descriptorTableSlot\", \"space\": 1, \"index\": 3}, {\"kind\": \"unknown\","
        " \"index\": 5}], \"type\": {\"kind\": \"struct\", \"name\": \"__SubpassImpl\","
        " \"fields\": []}}]}";
    dgpb_reflection *r = parse_text(json, "spirv");
    assert_int_equal(r->param_count, 1);
    const dgpb_reflected_param *p = &r->params[0];
    assert_int_equal(p->kind, DGPB_KIND_INPUT_ATTACHMENT);
    assert_int_equal(p->space, 1);
    assert_int_equal(p->binding, 3);
    assert_int_equal(p->shape_word, DGPB_DIM_SUBPASS | 5u << DGPB_SHAPE_ATTACHMENT_SHIFT);
    assert_null(p->problem);
    reflection_free(r);
    /* Only spirv's code binds input attachments: every other target refuses it by name. */
    static const char *const off[] = {"wgsl", "ptx", "dxil", "metal"};
    for (size_t i = 0; i < ARRAY_LEN(off); i++) {
        r = parse_text(json, off[i]);
        assert_int_equal(r->params[0].kind, -1);
        char want[96];
        snprintf(want, sizeof want, "SubpassInput is an input attachment, which has no %s binding",
                 off[i]);
        assert_contains(r->params[0].problem, want);
        reflection_free(r);
    }
    /* An index a shape word cannot hold. */
    static const char *const big =
        "{\"parameters\": [{\"name\": \"gbuf\", \"bindings\": [{\"kind\":"
        " \"descriptorTableSlot\", \"index\": 0}, {\"kind\": \"unknown\", \"index\": 64}],"
        " \"type\": {\"kind\": \"struct\", \"name\": \"__SubpassImpl\", \"fields\": []}}]}";
    r = parse_text(big, "spirv");
    assert_int_equal(r->params[0].kind, -1);
    assert_contains(r->params[0].problem, "input attachment index 64, above the 63");
    reflection_free(r);
}

static void test_combined_texture_samplers_are_one_row_with_their_shape(void **state)
{
    (void)state;
    static const struct {
        const char *type;
        uint32_t shape, webgpu; /* webgpu: the wgsl ID */
    } cases[] = {
        {"{\"kind\": \"resource\", \"baseShape\": \"texture2D\", \"combined\": true,"
         " \"resultType\": {\"kind\": \"vector\", \"elementCount\": 4, \"elementType\":"
         " {\"kind\": \"scalar\", \"scalarType\": \"float32\"}}}",
         DGPB_DIM_2D | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT,
         DGPB_WGPU_TEXTURE_2D_FLOAT_FILTERING_SAMPLER},
        {"{\"kind\": \"resource\", \"baseShape\": \"textureCube\", \"array\": true, "
         "\"combined\": true, \"resultType\": {\"kind\": \"vector\", \"elementCount\": 4, "
         "\"elementType\": {\"kind\": \"scalar\", \"scalarType\": \"uint32\"}}}",
         DGPB_DIM_CUBE | DGPB_SHAPE_ARRAYED | DGPB_SAMPLE_UINT << DGPB_SHAPE_SAMPLE_SHIFT,
         96 + 4 * 8 + 3 * 2},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"parameters\": [{\"name\": \"p\", \"binding\": {\"kind\":"
                 " \"descriptorTableSlot\", \"index\": 0}, \"type\": %s}]}",
                 cases[c].type);
        for (int wgsl = 0; wgsl < 2; wgsl++) {
            dgpb_reflection *r = parse_text(json, wgsl ? "wgsl" : "spirv");
            assert_int_equal(r->param_count, 1);
            assert_int_equal(r->params[0].kind, DGPB_KIND_TEXTURE_SAMPLER);
            assert_int_equal(r->params[0].shape_word, cases[c].shape);
            assert_int_equal(r->params[0].webgpu_layout, wgsl ? cases[c].webgpu : 0);
            assert_null(r->params[0].problem);
            reflection_free(r);
        }
    }
}

/* ---- entries -------------------------------------------------------------- */

static void test_entries_carry_name_stage_and_thread_group_size(void **state)
{
    (void)state;
    for (size_t f = 0; f < ARRAY_LEN(kinds_fixtures); f++) {
        dgpb_reflection *r =
            parse_fixture(kinds_fixtures[f].file, kinds_fixtures[f].target, k_blocks, 1);
        assert_int_equal(r->entry_count, 1);
        assert_string_equal(r->entries[0].name, "k");
        assert_int_equal(r->entries[0].stage, DGPB_STAGE_COMPUTE);
        assert_string_equal(r->entries[0].stage_name, "compute");
        assert_int_equal(r->entries[0].thread_group_size[0], 8);
        assert_int_equal(r->entries[0].thread_group_size[1], 4);
        assert_int_equal(r->entries[0].thread_group_size[2], 2);
        reflection_free(r);
    }
}

static void test_a_ray_tracing_entry_without_a_stage_key_has_stage_minus_one(void **state)
{
    (void)state;
    /* Slang 2025.15 writes {"name": "trace"} only: the caller asks the code for the stage. */
    dgpb_reflection *r = parse_fixture("trace_spirv.json", "spirv", NULL, 0);
    assert_int_equal(r->entry_count, 1);
    assert_string_equal(r->entries[0].name, "trace");
    assert_int_equal(r->entries[0].stage, -1);
    assert_string_equal(r->entries[0].stage_name, "");
    assert_int_equal(param(r, "scene")->kind, DGPB_KIND_ACCELERATION_STRUCTURE);
    assert_int_equal(param(r, "image")->kind, DGPB_KIND_RW_TEXTURE);
    reflection_free(r);
}

static void test_stage_names_map_to_stages_and_unknown_ones_to_minus_one(void **state)
{
    (void)state;
    static const char json[] =
        "{\"entryPoints\": [{\"name\": \"a\", \"stage\": \"raygeneration\"},"
        " {\"name\": \"b\", \"stage\": \"fragment\"}, {\"name\": \"c\", \"stage\": \"workgraph\"},"
        " {\"name\": \"d\", \"stage\": \"compute\"}, {\"name\": \"e\", \"stage\": \"compute\","
        " \"threadGroupSize\": [0, -3, \"x\"]}]}";
    dgpb_reflection *r = parse_text(json, "spirv");
    assert_int_equal(r->param_count, 0);
    assert_int_equal(r->entry_count, 5);
    assert_int_equal(r->entries[0].stage, DGPB_STAGE_RAYGENERATION);
    assert_int_equal(r->entries[1].stage, DGPB_STAGE_FRAGMENT);
    assert_int_equal(r->entries[2].stage, -1);
    assert_string_equal(r->entries[2].stage_name, "workgraph");
    /* A compute entry without a usable size gets 1 in each dimension. */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(r->entries[3].thread_group_size[i], 1);
        assert_int_equal(r->entries[4].thread_group_size[i], 1);
    }
    reflection_free(r);
    /* The stages of tessellation, geometry and mesh pipelines, as Slang names them. A mesh or
       amplification entry keeps a size the reflection gives; without one (Slang 2025.15) it
       stays 0,0,0 for the caller to read from the code. The others have none. */
    r = parse_text(
        "{\"entryPoints\": [{\"name\": \"m\", \"stage\": \"mesh\"},"
        " {\"name\": \"a\", \"stage\": \"amplification\", \"threadGroupSize\": [32, 1, 1]},"
        " {\"name\": \"g\", \"stage\": \"geometry\", \"threadGroupSize\": [4, 4, 4]},"
        " {\"name\": \"h\", \"stage\": \"hull\"}, {\"name\": \"d\", \"stage\": \"domain\"}]}",
        "spirv");
    assert_int_equal(r->entry_count, 5);
    static const int stages[] = {DGPB_STAGE_MESH, DGPB_STAGE_AMPLIFICATION, DGPB_STAGE_GEOMETRY,
                                 DGPB_STAGE_HULL, DGPB_STAGE_DOMAIN};
    for (int e = 0; e < 5; e++) {
        assert_int_equal(r->entries[e].stage, stages[e]);
        for (int i = 0; i < 3; i++)
            assert_int_equal(r->entries[e].thread_group_size[i], e == 1 ? (i ? 1 : 32) : 0);
    }
    reflection_free(r);
    /* The largest size that fits is kept. */
    r = parse_text("{\"entryPoints\": [{\"name\": \"k\", \"stage\": \"compute\","
                   " \"threadGroupSize\": [4294967295, 2, 1e0]}]}",
                   "spirv");
    assert_int_equal(r->entries[0].thread_group_size[0], 4294967295u);
    assert_int_equal(r->entries[0].thread_group_size[1], 2);
    assert_int_equal(r->entries[0].thread_group_size[2], 1);
    reflection_free(r);
}

static void test_an_empty_object_is_a_reflection_with_nothing_in_it(void **state)
{
    (void)state;
    dgpb_reflection *r = parse_text("{}", "spirv");
    assert_int_equal(r->param_count, 0);
    assert_int_equal(r->entry_count, 0);
    assert_null(reflection_find(r, "x", false));
    reflection_free(r);
    r = parse_text("{\"parameters\": [], \"entryPoints\": []}", "wgsl");
    assert_int_equal(r->param_count, 0);
    assert_int_equal(r->entry_count, 0);
    reflection_free(r);
}

/* ---- malformed input ------------------------------------------------------ */

static void test_malformed_reflection_is_corrupt_with_a_message(void **state)
{
    (void)state;
    static const struct {
        const char *json, *message;
    } cases[] = {
        {"", "not valid JSON"},
        {"not json", "not valid JSON"},
        {"{\"parameters\": [", "not valid JSON"},
        {"[]", "must be arrays"},
        {"null", "must be arrays"},
        {"{\"parameters\": {}}", "must be arrays"},
        {"{\"parameters\": \"x\"}", "must be arrays"},
        {"{\"entryPoints\": 5}", "must be arrays"},
        {"{\"parameters\": [{\"name\": \"a\", \"type\": {\"kind\": \"samplerState\"}}]}",
         "parameter 0 lacks a name, type or binding"},
        {"{\"parameters\": [{\"name\": \"a\", \"binding\": {\"kind\": \"descriptorTableSlot\","
         " \"index\": 0}, \"type\": {\"kind\": \"samplerState\"}}, {\"binding\": {\"kind\":"
         " \"descriptorTableSlot\", \"index\": 1}, \"type\": {\"kind\": \"samplerState\"}}]}",
         "parameter 1 lacks a name, type or binding"},
        {"{\"parameters\": [{\"name\": \"a\", \"binding\": {\"kind\": \"descriptorTableSlot\","
         " \"index\": 0}}]}",
         "parameter 0 lacks a name, type or binding"},
        {"{\"parameters\": [{\"name\": \"a\", \"binding\": 3, \"type\": {\"kind\":"
         " \"samplerState\"}}]}",
         "parameter 0 lacks a name, type or binding"},
        {"{\"entryPoints\": [{\"stage\": \"compute\"}]}", "entry point 0 has no name"},
        {"{\"entryPoints\": [{\"name\": \"k\"}, {\"name\": 7}]}", "entry point 1 has no name"},
        /* Past 32 bits a size cannot be converted (found by fuzz_reflect: undefined behaviour;
           fixtures/fuzz/reflect/regress_thread_group_size_past_32_bits). */
        {"{\"entryPoints\": [{\"name\": \"k\", \"stage\": \"compute\", \"threadGroupSize\":"
         " [1, 6.7e81, 1]}]}",
         "entry point 'k' has a thread group size past 4294967295"},
        {"{\"entryPoints\": [{\"name\": \"k\", \"stage\": \"compute\", \"threadGroupSize\":"
         " [4294967296]}]}",
         "entry point 'k' has a thread group size past 4294967295"},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = (dgpb_reflection *)(uintptr_t)1;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = reflection_parse(cases[c].json, strlen(cases[c].json), DGPB_TARGET_SPIRV, NULL, 0,
                                  &r, &diag);
        if (rc != DGPB_ERR_CORRUPT)
            fail_msg("case %zu (%s): result %d, expected DGPB_ERR_CORRUPT", c, cases[c].json, rc);
        assert_null(r);
        assert_int_equal(diag.code, DGPB_ERR_CORRUPT);
        assert_contains(diag.message, cases[c].message);
    }
}

static void test_a_descriptor_binding_without_an_index_is_corrupt(void **state)
{
    (void)state;
    /* Every descriptor slot Slang writes has its index; without one the parameter has no
       place, and guessing slot 0 would put it on another parameter's binding. */
    static const char json[] =
        "{\"parameters\": [{\"name\": \"a\", \"binding\": {\"kind\": \"descriptorTableSlot\"},"
        " \"type\": {\"kind\": \"samplerState\"}}]}";
    dgpb_reflection *r = (dgpb_reflection *)(uintptr_t)1;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = reflection_parse(json, strlen(json), DGPB_TARGET_SPIRV, NULL, 0, &r, &diag);
    if (rc == DGPB_OK)
        reflection_free(r);
    assert_int_equal(rc, DGPB_ERR_CORRUPT);
    assert_null(r);
    assert_contains(diag.message, "parameter 0 lacks a name, type or binding");
}

static void test_a_field_binding_without_an_index_is_named_in_the_message(void **state)
{
    (void)state;
    /* The field's path ("g.tex") is built while the walk is inside the struct and freed when
       it leaves; the message is written after the walk, so it must quote a copy (found by
       fuzz_reflect, a use after free; fixtures/fuzz/reflect/regress_field_slot_without_index). */
    static const char json[] =
        "{\"parameters\": [{\"name\": \"g\", \"binding\": {\"kind\": \"descriptorTableSlot\","
        " \"index\": 0}, \"type\": {\"kind\": \"struct\", \"fields\": ["
        "{\"name\": \"tex\", \"binding\": {\"kind\": \"descriptorTableSlot\"},"
        " \"type\": {\"kind\": \"samplerState\"}}]}}]}";
    dgpb_reflection *r = (dgpb_reflection *)(uintptr_t)1;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = reflection_parse(json, strlen(json), DGPB_TARGET_SPIRV, NULL, 0, &r, &diag);
    if (rc == DGPB_OK)
        reflection_free(r);
    assert_int_equal(rc, DGPB_ERR_CORRUPT);
    assert_null(r);
    assert_contains(diag.message, "('g.tex' has a binding without an index)");
}

static void test_only_the_given_length_is_read(void **state)
{
    (void)state;
    /* The text need not be NUL-terminated where the length ends. */
    static const char json[] = "{\"entryPoints\": [{\"name\": \"k\"}]}garbage";
    dgpb_reflection *r = NULL;
    dgpb_diag diag;
    assert_int_equal(
        reflection_parse(json, strlen(json) - 7, DGPB_TARGET_SPIRV, NULL, 0, &r, &diag), DGPB_OK);
    assert_int_equal(r->entry_count, 1);
    reflection_free(r);
    assert_int_equal(reflection_parse(json, 10, DGPB_TARGET_SPIRV, NULL, 0, &r, &diag),
                     DGPB_ERR_CORRUPT);
    assert_null(r);
}

/* ---- allocation failures -------------------------------------------------- */

/* One fixture parsed for one target, with the kinds fixture's value block. */
typedef struct parse_job {
    support_bytes json;
    const char *target;
} parse_job;

static int op_parse(void *arg)
{
    const parse_job *job = arg;
    dgpb_reflection *r = NULL;
    dgpb_diag diag;
    int rc = reflection_parse((const char *)job->json.bytes, job->json.size, target_of(job->target),
                              k_blocks, 1, &r, &diag);
    if (rc == DGPB_ERR_NOMEM)
        assert_null(r);
    reflection_free(r);
    return rc;
}

static void test_every_failed_allocation_gives_nomem_and_leaks_nothing(void **state)
{
    (void)state;
    /* Value blocks, flattened structs (the path strings of nested fields), blocks of their
       own, launch rows and refusals. */
    static const struct {
        const char *file, *target;
    } fixtures[] = {
        {"kinds_wgsl.json", "wgsl"},         {"entry_uniforms_spirv.json", "spirv"},
        {"entry_uniforms_cuda.json", "ptx"}, {"aggregates_wgsl.json", "wgsl"},
        {"blocks_spirv.json", "spirv"},      {"blocks_cuda.json", "ptx"},
        {"push_wgsl.json", "wgsl"},          {"refused_spirv.json", "spirv"},
    };
    for (size_t f = 0; f < ARRAY_LEN(fixtures); f++) {
        char path[256];
        snprintf(path, sizeof path, "fixtures/reflect/%s", fixtures[f].file);
        parse_job job = {.target = fixtures[f].target};
        job.json.bytes = support_read_source_file(path, &job.json.size);
        assert_non_null(job.json.bytes);
        long n = support_run_with_faults(op_parse, &job, DGPB_OK, fixtures[f].file);
        dgpb_free(job.json.bytes);
        if (n < 10) /* -1: a run went wrong (printed); else at least the strings of 3 rows */
            fail_msg("%s: %ld allocations", fixtures[f].file, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_parameter_gets_the_kind_of_its_slang_type),
        cmocka_unit_test(test_resources_and_values_keep_declaration_order),
        cmocka_unit_test(test_rows_know_their_top_level_parameter),
        cmocka_unit_test(test_spirv_places_are_descriptor_table_slots),
        cmocka_unit_test(test_wgsl_places_are_descriptor_table_slots),
        cmocka_unit_test(test_hlsl_places_are_register_indices_per_register_kind),
        cmocka_unit_test(test_metal_places_are_buffer_texture_and_sampler_indices),
        cmocka_unit_test(test_ptx_binding_is_the_byte_offset_in_the_global_parameter_block),
        cmocka_unit_test(test_explicit_spaces_are_kept_per_target),
        cmocka_unit_test(test_value_block_fields_become_value_rows_in_field_order),
        cmocka_unit_test(test_value_rows_carry_the_binding_of_their_block),
        cmocka_unit_test(test_a_constant_buffer_not_listed_as_a_value_block_is_a_uniform_buffer),
        cmocka_unit_test(test_loose_uniforms_are_value_rows_of_the_implicit_global_block),
        cmocka_unit_test(test_wgsl_parameters_get_their_webgpu_binding_layout_ids),
        cmocka_unit_test(test_byte_address_buffers_get_storage_buffer_ids_on_wgsl),
        cmocka_unit_test(test_every_texture_webgpu_binds_gets_an_id_and_the_rest_a_problem),
        cmocka_unit_test(test_other_targets_have_no_webgpu_ids_and_no_webgpu_problems),
        cmocka_unit_test(
            test_entry_point_uniforms_on_spirv_are_push_constants_and_code_placed_resources),
        cmocka_unit_test(
            test_entry_point_uniforms_on_wgsl_are_one_uniform_block_placed_by_the_code),
        cmocka_unit_test(
            test_entry_point_uniforms_on_ptx_are_kernel_parameters_at_their_byte_offsets),
        cmocka_unit_test(test_struct_globals_are_flattened_into_dotted_rows_at_absolute_places),
        cmocka_unit_test(test_struct_globals_on_ptx_lie_in_the_global_parameter_block),
        cmocka_unit_test(
            test_constant_buffers_and_parameter_blocks_are_value_rows_of_their_block_and_resource_rows),
        cmocka_unit_test(
            test_on_ptx_a_block_holding_resources_is_refused_and_its_values_follow_its_pointer),
        cmocka_unit_test(
            test_a_push_constant_block_is_launch_rows_on_spirv_refused_on_wgsl_a_pointer_on_ptx),
        cmocka_unit_test(test_shapes_no_row_describes_are_refused_with_the_rewrite_on_every_target),
        cmocka_unit_test(test_values_holding_a_bool_are_marked),
        cmocka_unit_test(test_a_native_slang_superset_parses_like_the_plain_reflection),
        cmocka_unit_test(test_unknown_keys_anywhere_are_ignored),
        cmocka_unit_test(test_a_bindings_list_places_by_its_first_descriptor_binding),
        cmocka_unit_test(test_a_resource_with_only_a_uniform_binding_has_no_kind_outside_ptx),
        cmocka_unit_test(test_shapes_the_format_cannot_express_have_no_kind_and_a_reason),
        cmocka_unit_test(test_combined_texture_samplers_are_one_row_with_their_shape),
        cmocka_unit_test(test_texel_buffers_are_rows_of_their_shape_and_refused_by_name_off_spirv),
        cmocka_unit_test(test_a_subpass_input_is_an_input_attachment_row_with_its_index),
        cmocka_unit_test(test_an_unbounded_array_is_one_row_of_its_element),
        cmocka_unit_test(test_entries_carry_name_stage_and_thread_group_size),
        cmocka_unit_test(test_a_ray_tracing_entry_without_a_stage_key_has_stage_minus_one),
        cmocka_unit_test(test_stage_names_map_to_stages_and_unknown_ones_to_minus_one),
        cmocka_unit_test(test_an_empty_object_is_a_reflection_with_nothing_in_it),
        cmocka_unit_test(test_malformed_reflection_is_corrupt_with_a_message),
        cmocka_unit_test(test_a_descriptor_binding_without_an_index_is_corrupt),
        cmocka_unit_test(test_a_field_binding_without_an_index_is_named_in_the_message),
        cmocka_unit_test(test_only_the_given_length_is_read),
        cmocka_unit_test(test_every_failed_allocation_gives_nomem_and_leaks_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
