/*
 * test_wgsl_scan.c - resource bindings, entry points and workgroup memory
 * read from WGSL text (code/wgsl/wgsl_scan.h).
 *
 * The samples are real output of the embedded Slang (2025.15), cut down to
 * their module-scope declarations and a few lines of each body:
 *
 *   tools/slangc-wasm/slangc-wasm FILE.slang -target wgsl -entry k -stage compute -o out.wgsl
 *
 * on four small modules: every texture dimension, a storage texture of each
 * dimension, samplers, a comparison sampler, structured buffers, a constant
 * buffer, loose uniforms, workgroup arrays and entry-point `uniform`
 * parameters (k_all); a push constant, a ParameterBlock, an explicit
 * [vk::binding(5, 2)], an array of textures and f16/matrix/bool workgroup
 * memory (k_pc); a vertex and a fragment entry with a depth texture, a
 * comparison sampler and a multisampled texture (gfx, -entry vs -stage
 * vertex -entry fs -stage fragment); write-only storage textures and atomics
 * (k_st). Blank lines are dropped; everything else is as Slang wrote it.
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
#include "code/wgsl/wgsl_scan.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Slang's WGSL for k_all (every resource kind of one compute entry). */
static const char k_all[] =
    "@binding(4) @group(0) var t1_0 : texture_1d<f32>;\n"
    "@binding(15) @group(0) var samp_0 : sampler;\n"
    "@binding(5) @group(0) var t2_0 : texture_2d<f32>;\n"
    "@binding(6) @group(0) var t2a_0 : texture_2d_array<i32>;\n"
    "@binding(7) @group(0) var t3_0 : texture_3d<u32>;\n"
    "@binding(8) @group(0) var tc_0 : texture_cube<f32>;\n"
    "@binding(9) @group(0) var tca_0 : texture_cube_array<f32>;\n"
    "@binding(10) @group(0) var tms_0 : texture_multisampled_2d<f32>;\n"
    "@binding(17) @group(0) var depthish_0 : texture_2d<f32>;\n"
    "@binding(16) @group(0) var csamp_0 : sampler_comparison;\n"
    "struct Tile_std140_0\n"
    "{\n"
    "    @align(16) a_0 : vec3<f32>,\n"
    "    @align(4) b_0 : f32,\n"
    "    @align(16) c_0 : vec2<f32>,\n"
    "};\n"
    "@binding(3) @group(0) var<uniform> cb_0 : Tile_std140_0;\n"
    "@binding(1) @group(0) var<storage, read_write> gbuf_0 : array<f32>;\n"
    "@binding(2) @group(0) var<storage, read> ro_0 : array<u32>;\n"
    "@binding(11) @group(0) var st_0 : texture_storage_2d<r32float, read_write>;\n"
    "@binding(12) @group(0) var st4_0 : texture_storage_2d<rgba32float, read_write>;\n"
    "@binding(13) @group(0) var st3_0 : texture_storage_3d<r32uint, read_write>;\n"
    "@binding(14) @group(0) var st2a_0 : texture_storage_2d_array<rg32float, read_write>;\n"
    "struct EntryPointParams_std140_0\n"
    "{\n"
    "    @align(16) bias_0 : f32,\n"
    "};\n"
    "@binding(18) @group(0) var<uniform> entryPointParams_0 : EntryPointParams_std140_0;\n"
    "@binding(19) @group(0) var<storage, read> entryPointParams_src_0 : array<f32>;\n"
    "struct GlobalParams_std140_0\n"
    "{\n"
    "    @align(16) loose_0 : f32,\n"
    "};\n"
    "@binding(0) @group(0) var<uniform> globalParams_0 : GlobalParams_std140_0;\n"
    "var<workgroup> tile_0 : array<f32, i32(8192)>;\n"
    "struct Tile_0\n"
    "{\n"
    "     a_0 : vec3<f32>,\n"
    "     b_0 : f32,\n"
    "     c_0 : vec2<f32>,\n"
    "};\n"
    "var<workgroup> tiles_0 : array<Tile_0, i32(16)>;\n"
    "var<workgroup> v3s_0 : array<vec3<f32>, i32(7)>;\n"
    "var<workgroup> counter_0 : atomic<u32>;\n"
    "@compute\n"
    "@workgroup_size(64, 2, 1)\n"
    "fn k(@builtin(global_invocation_id) id_0 : vec3<u32>)\n"
    "{\n"
    "    var i_0 : u32 = id_0.x;\n"
    "    t_0[i32(0)] = t_0[i32(0)] + (textureSampleCompareLevel((depthish_0), (csamp_0), (uv_0), "
    "(0.5f)));\n"
    "    tile_0[i_0] = t_0.x + entryPointParams_src_0[i_0] * entryPointParams_0.bias_0 + cb_0.b_0 "
    "+ globalParams_0.loose_0;\n"
    "    var _S3 : u32 = atomicAdd(&(counter_0), u32(1));\n"
    "    workgroupBarrier();\n"
    "    gbuf_0[i_0] = _S4 + f32(_S5);\n"
    "    textureStore((st_0), (_S6), vec4<f32>((t_0.x), 0, 0, 1));\n"
    "    return;\n"
    "}\n";

/* Slang's WGSL for k_pc: a push constant, a ParameterBlock in group 1, a Texture2D[4]. */
static const char k_pc[] =
    "enable f16;\n"
    "struct Scene_std140_0\n"
    "{\n"
    "    @align(16) exposure_0 : f32,\n"
    "};\n"
    "@binding(0) @group(1) var<uniform> scene_0 : Scene_std140_0;\n"
    "@binding(1) @group(1) var scene_albedo_0 : texture_2d<f32>;\n"
    "@binding(2) @group(1) var scene_s_0 : sampler;\n"
    "@binding(3) @group(1) var scene_outTex_0 : texture_storage_2d<rgba32float, read_write>;\n"
    "struct PC_std430_0\n"
    "{\n"
    "    @align(16) a_0 : vec4<f32>,\n"
    "    @align(16) n_0 : u32,\n"
    "};\n"
    "var<uniform> pc_0 : PC_std430_0;\n"
    "@binding(0) @group(0) var arr_0 : array<texture_2d<f32>, i32(4)>;\n"
    "@binding(5) @group(2) var<storage, read_write> explicitBuf_0 : array<u32>;\n"
    "struct EntryPointParams_std140_0\n"
    "{\n"
    "    @align(16) tint_0 : vec4<f32>,\n"
    "    @align(16) scale_0 : f32,\n"
    "    @align(8) off_0 : vec2<f32>,\n"
    "};\n"
    "@binding(1) @group(0) var<uniform> entryPointParams_0 : EntryPointParams_std140_0;\n"
    "struct Mat_0\n"
    "{\n"
    "     m_0 : mat3x3<f32>,\n"
    "     n_1 : mat4x4<f32>,\n"
    "     h_0 : f16,\n"
    "};\n"
    "var<workgroup> mats_0 : array<Mat_0, i32(3)>;\n"
    "var<workgroup> flags_0 : array<bool, i32(5)>;\n"
    "var<workgroup> m24_0 : mat2x4<f32>;\n"
    "var<workgroup> hh_0 : array<f16, i32(3)>;\n"
    "@compute\n"
    "@workgroup_size(8, 8, 1)\n"
    "fn k(@builtin(global_invocation_id) id_0 : vec3<u32>)\n"
    "{\n"
    "    var _S1 : vec2<u32> = id_0.xy;\n"
    "    var _S2 : u32 = id_0.x;\n"
    "    const _S3 : vec3<i32> = vec3<i32>(i32(0), i32(0), i32(0));\n"
    "    mats_0[_S2 % u32(3)].m_0[i32(0)] = _S4.xyz;\n"
    "    mats_0[i32(0)].h_0 = f16(c_0.x);\n"
    "    hh_0[i32(0)] = 1.0h;\n"
    "    workgroupBarrier();\n"
    "    explicitBuf_0[_S2] = u32(1);\n"
    "    return;\n"
    "}\n";

/* Slang's WGSL for a vertex and a fragment entry of one module. */
static const char k_gfx[] =
    "struct _MatrixStorage_float4x4std140_0\n"
    "{\n"
    "    @align(16) data_0 : array<vec4<f32>, i32(4)>,\n"
    "};\n"
    "struct SLANG_ParameterGroup_Frame_std140_0\n"
    "{\n"
    "    @align(16) mvp_0 : _MatrixStorage_float4x4std140_0,\n"
    "};\n"
    "@binding(0) @group(0) var<uniform> Frame_0 : SLANG_ParameterGroup_Frame_std140_0;\n"
    "@binding(1) @group(0) var shadow_0 : texture_depth_2d;\n"
    "@binding(2) @group(0) var cmp_0 : sampler_comparison;\n"
    "@binding(3) @group(0) var msu_0 : texture_multisampled_2d<u32>;\n"
    "struct VOut_0\n"
    "{\n"
    "    @builtin(position) pos_0 : vec4<f32>,\n"
    "     uv_0 : vec2<f32>,\n"
    "};\n"
    "struct vertexInput_0\n"
    "{\n"
    "    @location(0) p_0 : vec3<f32>,\n"
    "};\n"
    "@vertex\n"
    "fn vs( _S1 : vertexInput_0, @builtin(vertex_index) vid_0 : u32) -> VOut_0\n"
    "{\n"
    "    var o_0 : VOut_0;\n"
    "    o_0.uv_0 = vec2<f32>(f32(vid_0), 0.0f);\n"
    "    return o_0;\n"
    "}\n"
    "struct pixelOutput_0\n"
    "{\n"
    "    @location(0) output_0 : vec4<f32>,\n"
    "};\n"
    "struct pixelInput_0\n"
    "{\n"
    "    @location(0) uv_1 : vec2<f32>,\n"
    "};\n"
    "@fragment\n"
    "fn fs( _S2 : pixelInput_0, @builtin(position) pos_1 : vec4<f32>) -> pixelOutput_0\n"
    "{\n"
    "    var _S3 : pixelOutput_0 = pixelOutput_0( vec4<f32>((textureSampleCompareLevel((shadow_0), "
    "(cmp_0), (_S2.uv_1), (0.5f)))) + vec4<f32>((textureLoad((msu_0), (vec2<i32>(i32(0), i32(0))), "
    "(i32(1))))) );\n"
    "    return _S3;\n"
    "}\n";

/* Slang's WGSL for write-only and 1D storage textures and atomics. */
static const char k_st[] =
    "@binding(0) @group(0) var wo_0 : texture_storage_2d<rgba8unorm, write>;\n"
    "@binding(1) @group(0) var cnt_0 : texture_storage_1d<r32uint, read_write>;\n"
    "struct Item_std430_0\n"
    "{\n"
    "    @align(16) p_0 : vec3<f32>,\n"
    "    @align(4) id_0 : u32,\n"
    "};\n"
    "@binding(2) @group(0) var<storage, read_write> items_0 : array<Item_std430_0>;\n"
    "@binding(3) @group(0) var<storage, read_write> acnt_0 : array<atomic<u32>>;\n"
    "struct Item_0\n"
    "{\n"
    "    @align(16) p_0 : vec3<f32>,\n"
    "    @align(4) id_0 : u32,\n"
    "};\n"
    "var<workgroup> shared_items_0 : array<Item_0, i32(10)>;\n"
    "var<workgroup> ai_0 : array<atomic<i32>, i32(4)>;\n"
    "@compute\n"
    "@workgroup_size(4, 4, 4)\n"
    "fn k(@builtin(global_invocation_id) id_1 : vec3<u32>)\n"
    "{\n"
    "    var _S1 : u32 = id_1.x;\n"
    "    shared_items_0[_S1 % u32(10)].p_0 = vec3<f32>(id_1);\n"
    "    var _S2 : i32 = atomicAdd(&(ai_0[(_S1 & (u32(3)))]), i32(1));\n"
    "    workgroupBarrier();\n"
    "    var _S3 : vec2<u32> = id_1.xy;\n"
    "    var _S4 : vec3<f32> = shared_items_0[i32(1)].p_0;\n"
    "    var _S5 : i32 = atomicLoad(&(ai_0[i32(0)]));\n"
    "    textureStore((wo_0), (_S3), (vec4<f32>(_S4, f32(_S5))));\n"
    "    textureStore((cnt_0), (_S1), vec4<u32>((u32(1)), 0, 0, 1));\n"
    "    items_0[_S1].id_0 = _S1;\n"
    "    var _S6 : u32 = atomicAdd(&(acnt_0[i32(0)]), u32(1));\n"
    "    return;\n"
    "}\n";

static const char *const samples[] = {k_all, k_pc, k_gfx, k_st};

/*
 * Scans the first n bytes of text from an allocation of exactly n bytes, so
 * that AddressSanitizer sees any read past the end.
 */
static int scan_n(const char *text, size_t n, dgpb_wgsl_module **m, dgpb_diag *diag)
{
    char *copy = malloc(n ? n : 1);
    assert_non_null(copy);
    memcpy(copy, text, n);
    int rc = wgsl_module_scan(copy, n, m, diag);
    free(copy);
    return rc;
}

/* Scans text; fails the test on any error. */
static dgpb_wgsl_module *scan(const char *text)
{
    dgpb_wgsl_module *m = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = scan_n(text, strlen(text), &m, &diag);
    if (rc != DGPB_OK)
        fail_msg("%d %s", rc, diag.message);
    assert_non_null(m);
    return m;
}

/* Scans text that must be refused with `code` and a message containing `needle`. */
static void refuse(const char *text, int code, const char *needle)
{
    dgpb_wgsl_module *m = (dgpb_wgsl_module *)1;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = scan_n(text, strlen(text), &m, &diag);
    if (rc != code)
        fail_msg("'%s': result %d (%s), expected %d", text, rc, diag.message, code);
    assert_null(m);
    if (!strstr(diag.message, needle))
        fail_msg("'%s': message '%s' does not contain '%s'", text, diag.message, needle);
}

static const dgpb_wgsl_binding *binding(const dgpb_wgsl_module *m, const char *name)
{
    const dgpb_wgsl_binding *b = wgsl_find_binding(m, name);
    if (!b)
        fail_msg("no binding '%s'", name);
    return b;
}

static void assert_str_or_null(const char *got, const char *want)
{
    if (!want)
        assert_null(got);
    else
        assert_string_equal(got, want);
}

typedef struct binding_row {
    const char *name;
    int64_t group, binding;
    dgpb_wgsl_class cls;
    const char *type, *texel_format, *access, *sample_type, *dimension;
} binding_row;

static void check_rows(const dgpb_wgsl_module *m, const binding_row *rows, size_t n)
{
    assert_int_equal(m->binding_count, n);
    for (size_t i = 0; i < n; i++) {
        const dgpb_wgsl_binding *b = &m->bindings[i];
        if (strcmp(b->name, rows[i].name) != 0)
            fail_msg("binding %zu is '%s', expected '%s'", i, b->name, rows[i].name);
        if (b->group != rows[i].group || b->binding != rows[i].binding)
            fail_msg("'%s' is at @group(%lld) @binding(%lld)", b->name, (long long)b->group,
                     (long long)b->binding);
        if (b->cls != rows[i].cls)
            fail_msg("'%s' has class %d, expected %d", b->name, b->cls, rows[i].cls);
        assert_string_equal(b->type, rows[i].type);
        assert_str_or_null(b->texel_format, rows[i].texel_format);
        assert_str_or_null(b->access, rows[i].access);
        assert_str_or_null(b->sample_type, rows[i].sample_type);
        assert_str_or_null(b->dimension, rows[i].dimension);
    }
}

/* ---- Slang's output --------------------------------------------------------- */

static void wgsl_scan_reads_every_binding_of_slangs_output_in_source_order(void **state)
{
    (void)state;
    static const binding_row rows[] = {
        {"t1_0", 0, 4, DGPB_WGSL_TEXTURE, "texture_1d<f32>", NULL, NULL, "f32", "1d"},
        {"samp_0", 0, 15, DGPB_WGSL_SAMPLER, "sampler", NULL, NULL, NULL, NULL},
        {"t2_0", 0, 5, DGPB_WGSL_TEXTURE, "texture_2d<f32>", NULL, NULL, "f32", "2d"},
        {"t2a_0", 0, 6, DGPB_WGSL_TEXTURE, "texture_2d_array<i32>", NULL, NULL, "i32", "2d_array"},
        {"t3_0", 0, 7, DGPB_WGSL_TEXTURE, "texture_3d<u32>", NULL, NULL, "u32", "3d"},
        {"tc_0", 0, 8, DGPB_WGSL_TEXTURE, "texture_cube<f32>", NULL, NULL, "f32", "cube"},
        {"tca_0", 0, 9, DGPB_WGSL_TEXTURE, "texture_cube_array<f32>", NULL, NULL, "f32",
         "cube_array"},
        {"tms_0", 0, 10, DGPB_WGSL_TEXTURE_MULTISAMPLED, "texture_multisampled_2d<f32>", NULL, NULL,
         "f32", "2d"},
        {"depthish_0", 0, 17, DGPB_WGSL_TEXTURE, "texture_2d<f32>", NULL, NULL, "f32", "2d"},
        {"csamp_0", 0, 16, DGPB_WGSL_SAMPLER_COMPARISON, "sampler_comparison", NULL, NULL, NULL,
         NULL},
        {"cb_0", 0, 3, DGPB_WGSL_UNIFORM, "Tile_std140_0", NULL, NULL, NULL, NULL},
        {"gbuf_0", 0, 1, DGPB_WGSL_STORAGE_READ_WRITE, "array<f32>", NULL, "read_write", NULL,
         NULL},
        {"ro_0", 0, 2, DGPB_WGSL_STORAGE_READ, "array<u32>", NULL, "read", NULL, NULL},
        {"st_0", 0, 11, DGPB_WGSL_STORAGE_TEXTURE, "texture_storage_2d<r32float, read_write>",
         "r32float", "read_write", NULL, "2d"},
        {"st4_0", 0, 12, DGPB_WGSL_STORAGE_TEXTURE, "texture_storage_2d<rgba32float, read_write>",
         "rgba32float", "read_write", NULL, "2d"},
        {"st3_0", 0, 13, DGPB_WGSL_STORAGE_TEXTURE, "texture_storage_3d<r32uint, read_write>",
         "r32uint", "read_write", NULL, "3d"},
        {"st2a_0", 0, 14, DGPB_WGSL_STORAGE_TEXTURE,
         "texture_storage_2d_array<rg32float, read_write>", "rg32float", "read_write", NULL,
         "2d_array"},
        {"entryPointParams_0", 0, 18, DGPB_WGSL_UNIFORM, "EntryPointParams_std140_0", NULL, NULL,
         NULL, NULL},
        {"entryPointParams_src_0", 0, 19, DGPB_WGSL_STORAGE_READ, "array<f32>", NULL, "read", NULL,
         NULL},
        {"globalParams_0", 0, 0, DGPB_WGSL_UNIFORM, "GlobalParams_std140_0", NULL, NULL, NULL,
         NULL},
    };
    dgpb_wgsl_module *m = scan(k_all);
    check_rows(m, rows, ARRAY_LEN(rows));
    assert_int_equal(m->bindings[0].line, 1);
    assert_int_equal(binding(m, "globalParams_0")->line, 34);
    assert_int_equal(m->entry_count, 1);
    assert_string_equal(m->entries[0].name, "k");
    assert_int_equal(m->entries[0].stage, DGPB_STAGE_COMPUTE);
    assert_int_equal(m->entries[0].workgroup_size[0], 64);
    assert_int_equal(m->entries[0].workgroup_size[1], 2);
    assert_int_equal(m->entries[0].workgroup_size[2], 1);
    wgsl_module_free(m);
}

static void wgsl_scan_counts_the_workgroup_memory_of_slangs_output(void **state)
{
    (void)state;
    /* k_all: tile_0 array<f32, i32(8192)> 32768; tiles_0 16 x Tile_0 {vec3<f32> at 0,
       f32 at 12, vec2<f32> at 16: 24 -> 32} = 512; v3s_0 7 x vec3<f32> (stride 16) = 112;
       counter_0 atomic<u32> 4 -> 16. */
    dgpb_wgsl_module *m = scan(k_all);
    assert_true(m->workgroup_bytes_known);
    assert_int_equal(m->workgroup_bytes, 32768 + 512 + 112 + 16);
    wgsl_module_free(m);
    /* k_pc: mats_0 3 x Mat_0 {mat3x3<f32> 48, mat4x4<f32> 64 at 48, f16 at 112: 114 -> 128}
       = 384; flags_0 5 x bool 20 -> 32; m24_0 mat2x4<f32> 32; hh_0 3 x f16 6 -> 16. */
    m = scan(k_pc);
    assert_true(m->workgroup_bytes_known);
    assert_int_equal(m->workgroup_bytes, 384 + 32 + 32 + 16);
    wgsl_module_free(m);
    /* k_st: 10 x Item_0 {@align(16) vec3<f32>, @align(4) u32: 16} = 160; 4 x atomic<i32> 16. */
    m = scan(k_st);
    assert_int_equal(m->workgroup_bytes, 160 + 16);
    wgsl_module_free(m);
}

static void wgsl_scan_reports_a_push_constant_without_binding(void **state)
{
    (void)state;
    dgpb_wgsl_module *m = scan(k_pc);
    const dgpb_wgsl_binding *pc = binding(m, "pc_0");
    assert_int_equal(pc->group, -1);
    assert_int_equal(pc->binding, -1);
    assert_int_equal(pc->cls, DGPB_WGSL_UNIFORM);
    assert_string_equal(pc->type, "PC_std430_0");
    wgsl_module_free(m);
}

static void wgsl_scan_reads_parameter_blocks_explicit_bindings_and_texture_arrays(void **state)
{
    (void)state;
    static const binding_row rows[] = {
        {"scene_0", 1, 0, DGPB_WGSL_UNIFORM, "Scene_std140_0", NULL, NULL, NULL, NULL},
        {"scene_albedo_0", 1, 1, DGPB_WGSL_TEXTURE, "texture_2d<f32>", NULL, NULL, "f32", "2d"},
        {"scene_s_0", 1, 2, DGPB_WGSL_SAMPLER, "sampler", NULL, NULL, NULL, NULL},
        {"scene_outTex_0", 1, 3, DGPB_WGSL_STORAGE_TEXTURE,
         "texture_storage_2d<rgba32float, read_write>", "rgba32float", "read_write", NULL, "2d"},
        {"pc_0", -1, -1, DGPB_WGSL_UNIFORM, "PC_std430_0", NULL, NULL, NULL, NULL},
        /* Slang writes a Texture2D[4] as an array, not WGSL's binding_array */
        {"arr_0", 0, 0, DGPB_WGSL_OTHER, "array<texture_2d<f32>, i32(4)>", NULL, NULL, NULL, NULL},
        {"explicitBuf_0", 2, 5, DGPB_WGSL_STORAGE_READ_WRITE, "array<u32>", NULL, "read_write",
         NULL, NULL},
        {"entryPointParams_0", 0, 1, DGPB_WGSL_UNIFORM, "EntryPointParams_std140_0", NULL, NULL,
         NULL, NULL},
    };
    dgpb_wgsl_module *m = scan(k_pc);
    check_rows(m, rows, ARRAY_LEN(rows));
    assert_int_equal(m->entries[0].workgroup_size[0], 8);
    assert_int_equal(m->entries[0].workgroup_size[1], 8);
    assert_int_equal(m->entries[0].workgroup_size[2], 1);
    wgsl_module_free(m);
}

static void wgsl_scan_reads_render_entries_and_their_depth_and_multisampled_textures(void **state)
{
    (void)state;
    static const binding_row rows[] = {
        {"Frame_0", 0, 0, DGPB_WGSL_UNIFORM, "SLANG_ParameterGroup_Frame_std140_0", NULL, NULL,
         NULL, NULL},
        {"shadow_0", 0, 1, DGPB_WGSL_TEXTURE_DEPTH, "texture_depth_2d", NULL, NULL, NULL, "2d"},
        {"cmp_0", 0, 2, DGPB_WGSL_SAMPLER_COMPARISON, "sampler_comparison", NULL, NULL, NULL, NULL},
        {"msu_0", 0, 3, DGPB_WGSL_TEXTURE_MULTISAMPLED, "texture_multisampled_2d<u32>", NULL, NULL,
         "u32", "2d"},
    };
    dgpb_wgsl_module *m = scan(k_gfx);
    check_rows(m, rows, ARRAY_LEN(rows));
    assert_int_equal(m->entry_count, 2);
    assert_string_equal(m->entries[0].name, "vs");
    assert_int_equal(m->entries[0].stage, DGPB_STAGE_VERTEX);
    assert_string_equal(m->entries[1].name, "fs");
    assert_int_equal(m->entries[1].stage, DGPB_STAGE_FRAGMENT);
    for (size_t i = 0; i < 2; i++)
        for (size_t k = 0; k < 3; k++)
            assert_int_equal(m->entries[i].workgroup_size[k], 0);
    assert_int_equal(m->workgroup_bytes, 0);
    assert_true(m->workgroup_bytes_known);
    wgsl_module_free(m);
}

static void wgsl_scan_reads_storage_texture_formats_and_access_modes(void **state)
{
    (void)state;
    static const binding_row rows[] = {
        {"wo_0", 0, 0, DGPB_WGSL_STORAGE_TEXTURE, "texture_storage_2d<rgba8unorm, write>",
         "rgba8unorm", "write", NULL, "2d"},
        {"cnt_0", 0, 1, DGPB_WGSL_STORAGE_TEXTURE, "texture_storage_1d<r32uint, read_write>",
         "r32uint", "read_write", NULL, "1d"},
        {"items_0", 0, 2, DGPB_WGSL_STORAGE_READ_WRITE, "array<Item_std430_0>", NULL, "read_write",
         NULL, NULL},
        {"acnt_0", 0, 3, DGPB_WGSL_STORAGE_READ_WRITE, "array<atomic<u32>>", NULL, "read_write",
         NULL, NULL},
    };
    dgpb_wgsl_module *m = scan(k_st);
    check_rows(m, rows, ARRAY_LEN(rows));
    wgsl_module_free(m);
}

/* ---- the grammar ------------------------------------------------------------ */

static void wgsl_scan_takes_attributes_in_any_order_on_any_line_and_skips_comments(void **state)
{
    (void)state;
    dgpb_wgsl_module *m = scan("// a line comment: @binding(9) @group(9) var x : sampler;\n"
                               "@group(2)\n"
                               "  @binding(7)\n"
                               "var a_0 : sampler;\n"
                               "/* a block /* nested @binding(1) var y : sampler; */ comment */\n"
                               "@binding(3) /* between */ @group(1) var/**/b_0\n"
                               "  : texture_storage_3d< rgba16float ,\n"
                               "      write /* c */ >; // tail\n"
                               "@binding(0x10u) @group(0i) var c_0 : sampler;\r\n"
                               "@binding(4)@group(0)var<storage>d_0:array<vec4<f32>,4>;");
    assert_int_equal(m->binding_count, 4);
    assert_string_equal(m->bindings[0].name, "a_0");
    assert_int_equal(m->bindings[0].group, 2);
    assert_int_equal(m->bindings[0].binding, 7);
    assert_int_equal(m->bindings[0].line, 4);
    assert_string_equal(m->bindings[1].name, "b_0");
    assert_int_equal(m->bindings[1].group, 1);
    assert_int_equal(m->bindings[1].binding, 3);
    assert_int_equal(m->bindings[1].line, 6);
    assert_string_equal(m->bindings[1].type, "texture_storage_3d<rgba16float, write>");
    assert_string_equal(m->bindings[1].access, "write");
    assert_int_equal(m->bindings[2].binding, 16);
    assert_int_equal(m->bindings[2].line, 9);
    assert_string_equal(m->bindings[3].type, "array<vec4<f32>, 4>");
    assert_int_equal(m->bindings[3].cls, DGPB_WGSL_STORAGE_READ);
    assert_string_equal(m->bindings[3].access, "read");
    assert_int_equal(m->bindings[3].line, 10);
    wgsl_module_free(m);
}

static void wgsl_scan_skips_other_declarations_with_their_braces_balanced(void **state)
{
    (void)state;
    dgpb_wgsl_module *m =
        scan("enable f16;\n"
             "requires readonly_and_readwrite_storage_textures;\n"
             "diagnostic(off, derivative_uniformity);\n"
             "const N : i32 = 4 * (2 + 1);\n"
             "@id(3) override scale : f32 = 1.0;\n"
             "override tune = 2u;\n"
             "alias Vec = vec4<f32>;\n"
             "const_assert N > 0;\n"
             "struct S { a : array<Vec, 2>, @size(32) b : f32, }\n"
             ";\n"
             "var<private> p_0 : i32 = i32(3);\n"
             "var<private> q_0 = vec3<f32>(1.0f, 2.0f, 3.0f);\n"
             "fn helper(x : ptr<function, array<f32, 4>>) -> vec2<f32>\n"
             "{\n"
             "    var s : S;\n"
             "    if ((*x)[0] > 1.0) { loop { break; } } else { switch 1 { default: {} } }\n"
             "    let t = array<f32, 2>(1.0, 2.0); // } unbalanced in a comment\n"
             "    /* { */ return vec2<f32>(t[0], (*x)[1]);\n"
             "}\n"
             "@binding(0) @group(0) var<uniform> u_0 : S;\n"
             "@must_use fn twice(v : f32) -> f32 { return v * 2.0; }\n"
             "@fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(helper_v()); }\n");
    assert_int_equal(m->binding_count, 1);
    assert_string_equal(m->bindings[0].name, "u_0");
    assert_int_equal(m->bindings[0].line, 20);
    assert_int_equal(m->entry_count, 1);
    assert_string_equal(m->entries[0].name, "fs");
    assert_int_equal(m->entries[0].stage, DGPB_STAGE_FRAGMENT);
    wgsl_module_free(m);
}

static void wgsl_scan_reads_literal_workgroup_sizes_and_defaults_y_and_z_to_one(void **state)
{
    (void)state;
    dgpb_wgsl_module *m = scan("@compute @workgroup_size(64) fn a() {}\n"
                               "@compute @workgroup_size(8, 4) fn b() {}\n"
                               "@compute @workgroup_size(4u, 2i, i32(3),) fn c() {}\n"
                               "override WG : u32 = 16;\n"
                               "@compute @workgroup_size(WG, 1) fn d() {}\n"
                               "@compute @workgroup_size(2 * 8) fn e() {}\n"
                               "@workgroup_size(0x20, 1, 1)\n@compute\nfn f() {}\n");
    static const uint32_t want[][3] = {{64, 1, 1}, {8, 4, 1}, {4, 2, 3},
                                       {0, 0, 0},  {0, 0, 0}, {32, 1, 1}};
    assert_int_equal(m->entry_count, ARRAY_LEN(want));
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        assert_int_equal(m->entries[i].stage, DGPB_STAGE_COMPUTE);
        for (size_t k = 0; k < 3; k++)
            if (m->entries[i].workgroup_size[k] != want[i][k])
                fail_msg("entry %s: size[%zu] is %u, expected %u", m->entries[i].name, k,
                         m->entries[i].workgroup_size[k], want[i][k]);
    }
    wgsl_module_free(m);
}

static uint64_t workgroup_bytes(const char *text, bool known)
{
    dgpb_wgsl_module *m = scan(text);
    uint64_t n = m->workgroup_bytes;
    if (m->workgroup_bytes_known != known)
        fail_msg("'%s': known is %d", text, m->workgroup_bytes_known);
    wgsl_module_free(m);
    return n;
}

static void wgsl_scan_sizes_workgroup_variables_with_wgsls_layout_rules(void **state)
{
    (void)state;
    /* Slang's three spellings of an array count. */
    assert_int_equal(workgroup_bytes("var<workgroup> t : array<f32, i32(8192)>;", true), 32768);
    assert_int_equal(workgroup_bytes("var<workgroup> t : array<f32, 256>;", true), 1024);
    assert_int_equal(workgroup_bytes("var<workgroup> t : array<f32, 256u>;", true), 1024);
    /* Each variable is rounded up to 16, as WebGPU's limit counts it. */
    assert_int_equal(workgroup_bytes("var<workgroup> a : f32; var<workgroup> b : vec3<f32>;\n"
                                     "var<workgroup> c : array<u32, 5>;",
                                     true),
                     16 + 16 + 32);
    /* vec3 members: align 16, size 12; a struct declared after its use. */
    assert_int_equal(workgroup_bytes("var<workgroup> s : array<S, 2>;\n"
                                     "struct S { p : vec3<f32>, q : f32, r : vec3<f32> }",
                                     true),
                     64);
    /* @align and @size; shorthand types; an alias; matrices; atomics; f16. */
    assert_int_equal(
        workgroup_bytes("enable f16;\n"
                        "alias V = vec2f;\n"
                        "struct T { @align(32) a : f32, @size(20) b : V, c : mat3x2f, d : f16 }\n"
                        "var<workgroup> t : T;\n"
                        "var<workgroup> m : mat4x3<f32>;\n"
                        "var<workgroup> h : array<vec3h, 3>;\n"
                        "var<workgroup> n : array<atomic<i32>, 3>;\n",
                        true),
        /* T: a 0..4, b at 8 (20 bytes) to 28, c (align 8, 24 bytes) at 32 to 56,
           d at 56 to 58; align 32 -> 64. mat4x3<f32>: 4 x 16 = 64. array<vec3h, 3>:
           stride 8 -> 24 -> 32. atomics: 12 -> 16. */
        64 + 64 + 32 + 16);
    /* Nested arrays. */
    assert_int_equal(workgroup_bytes("var<workgroup> g : array<array<vec2<f32>, 3>, 2>;", true),
                     48);
}

static void wgsl_scan_marks_workgroup_bytes_unknown_when_a_type_cannot_be_sized(void **state)
{
    (void)state;
    /* A count that is a named constant: the rest is still a lower bound. */
    assert_int_equal(workgroup_bytes("const N = 64;\n"
                                     "var<workgroup> a : array<f32, N>;\n"
                                     "var<workgroup> b : array<f32, 8>;",
                                     false),
                     32);
    /* A type that is not declared in the module. */
    assert_int_equal(workgroup_bytes("var<workgroup> a : Missing;", false), 0);
    /* A struct member whose @align is not a literal. */
    assert_int_equal(workgroup_bytes("const A = 16;\n"
                                     "struct S { @align(A) x : f32 }\n"
                                     "var<workgroup> s : S;",
                                     false),
                     16);
}

/* ---- refusals --------------------------------------------------------------- */

static void wgsl_scan_refuses_malformed_text_naming_the_line(void **state)
{
    (void)state;
    static const struct {
        const char *text, *needle;
    } cases[] = {
        {"var<private> a : i32;\n/* unterminated", "line 2: unterminated block comment"},
        {"/* /* nested */ still open\n", "line 1: unterminated block comment"},
        {"fn f() {\n  if (x) {\n}\n", "line 4: unterminated '{' opened at line 1"},
        {"fn f() {\n  g(1));\n}\n", "line 2: ')' does not close the '{' opened at line 1"},
        {"fn f() {\n  g(1];\n}\n", "line 2: ']' does not close the '(' opened at line 2"},
        {"}\n", "line 1: unexpected '}' at module scope"},
        {"@binding(0) @group(0) var s : sampler\n@binding(1) @group(0) var t : sampler;",
         "line 2: missing ';' after the declaration of 's'"},
        {"const a = 1\nfn f() {}", "line 2: unexpected 'fn' in an expression (missing ';'?)"},
        {"const a = 1\nconst b = 2;", "line 2: unexpected 'const'"},
        {"alias A = f32\nvar<private> x : A;", "line 2: missing ';' after alias 'A'"},
        {"@binding(4294967296) @group(0) var s : sampler;",
         "line 1: @binding number '4294967296' is out of range"},
        {"\n@binding(2147483648) @group(0) var s : sampler;", "line 2: @binding number"},
        {"@binding(0) @group(99999999999999999999999) var s : sampler;",
         "line 1: @group number '99999999999999999999999' is out of range"},
        {"@binding(4294967296u) @group(0) var s : sampler;", "out of range"},
        {"@binding(1) @binding(2) @group(0) var s : sampler;", "'s' has two @binding attributes"},
        {"@binding(0) @group(0) var t : texture_2d<bool>;",
         "'texture_2d' needs one sample type, f32, i32 or u32"},
        {"@binding(0) @group(0) var t : texture_2d;", "needs one sample type"},
        {"@binding(0) @group(0) var t : texture_storage_2d<r32float>;",
         "needs a texel format and an access mode"},
        {"@binding(0) @group(0) var t : texture_storage_2d<r32float, readwrite>;",
         "'readwrite' is not an access mode"},
        {"@binding(0) @group(0) var<storage, write> b : array<f32>;",
         "'write' is not an access mode of var<storage>"},
        {"@binding(0) @group(0) var<uniform, read> b : S;", "var<uniform> takes no access mode"},
        {"@binding(0) @group(0) var<workgroup> w : f32;",
         "@binding does not apply to a var<workgroup>"},
        {"@binding(0) @group(0) var s;", "line 1: 's' has no type"},
        {"@binding(0) @group(0) var<uniform> u : f32 = 1.0;", "'u' cannot have an initializer"},
        {"#line 3\n", "line 1: unexpected character '#'"},
        {"var<private> x : i32;\nvar<private> y : i32 = \"s\";", "line 2: unexpected character"},
        {"\n\nvar<private> x\001 : i32;", "line 3: unexpected byte 0x01"},
        {"var<private> x : i32;\n\xff", "line 2: invalid UTF-8"},
        {"@compute fn k() {}", "compute entry point 'k' has no @workgroup_size"},
        {"@compute @workgroup_size(0) fn k() {}", "workgroup size '0' is out of range"},
        {"@compute @workgroup_size(1, 2, 3, 4) fn k() {}", "takes one to three arguments"},
        {"@vertex @workgroup_size(1) fn k() {}", "not a compute entry point"},
        {"@compute @fragment @workgroup_size(1) fn k() {}", "two stage attributes"},
        {"@compute @workgroup_size(1) fn k();", "function 'k' has no body"},
        {"@binding(0) struct S { a : f32 }", "@binding does not apply to 'struct'"},
        {"struct S { }", "struct 'S' has no members"},
        {"struct S { a : f32 b : f32 }", "expected ',' or '}' after a member of struct 'S'"},
        {"struct S { @align(3) a : f32 }", "@align('3') is not a power of two"},
        {"struct S { a : f32 }\nstruct S { b : f32 }", "line 2: 'S' is declared twice"},
        {"struct S { s : S }\nvar<workgroup> w : S;", "'S' contains itself"},
        {"struct S { @size(2) a : f32 }\nvar<workgroup> w : S;", "smaller than its type"},
        {"var<workgroup> w : array<f32, 0>;", "array count of 'array' is out of range"},
        {"var<workgroup> w : array<f32, 4;", "line 1: unexpected ';' in an expression"},
        {"var<workgroup> w : array<f32, 4);", "unexpected ')'"},
        {"var<workgroup> w : array<f32 4>;", "expected an operator, ',' or ';' before '4'"},
        {"var<private> w : array<, f32>;", "expected an expression, found ','"},
        {"var w : f32 f32;", "missing ';' after the declaration of 'w'"},
        {"let x = 1;", "unexpected 'let' at module scope"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++)
        refuse(cases[i].text, DGPB_ERR_CORRUPT, cases[i].needle);
}

static void wgsl_scan_sets_the_diagnostics_line_and_offset(void **state)
{
    (void)state;
    const char *text = "var<private> a : i32;\n\n  @binding(1) @binding(2) var s : sampler;";
    dgpb_wgsl_module *m = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    assert_int_equal(scan_n(text, strlen(text), &m, &diag), DGPB_ERR_CORRUPT);
    assert_int_equal(diag.code, DGPB_ERR_CORRUPT);
    assert_int_equal(diag.line, 3);
    assert_int_equal(diag.offset, strstr(text, "binding(2)") - text);
    assert_non_null(strstr(diag.message, "malformed WGSL: line 3: "));
}

static void wgsl_scan_refuses_a_nul_byte_anywhere(void **state)
{
    (void)state;
    static const char comment[] = "var<private> a : i32;\n// \0\n";
    static const char code[] = "var<private> a : i32;\n\n\0";
    dgpb_wgsl_module *m = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    assert_int_equal(scan_n(comment, sizeof comment - 1, &m, &diag), DGPB_ERR_CORRUPT);
    assert_null(m);
    assert_non_null(strstr(diag.message, "line 2: a NUL byte at byte 25"));
    assert_int_equal(scan_n(code, sizeof code - 1, &m, &diag), DGPB_ERR_CORRUPT);
    assert_non_null(strstr(diag.message, "line 3: a NUL byte"));
}

static void wgsl_scan_refuses_what_it_does_not_evaluate_as_unsupported(void **state)
{
    (void)state;
    refuse("const B = 3;\n@binding(B) @group(0) var s : sampler;", DGPB_ERR_UNSUPPORTED,
           "unsupported WGSL: line 2: the @binding of 's' is not an integer literal");
    refuse("@group(0) @binding(1 + 1) var s : sampler;", DGPB_ERR_UNSUPPORTED,
           "not an integer literal");
    refuse("var<immediate> pc : PC;", DGPB_ERR_UNSUPPORTED, "unknown address space 'immediate'");
}

static void wgsl_scan_refuses_nesting_beyond_its_limits(void **state)
{
    (void)state;
    size_t depth = DGPB_WGSL_MAX_NESTING + 1;
    char *text = malloc(2 * depth + 32);
    assert_non_null(text);
    size_t n = (size_t)sprintf(text, "fn f() { g");
    for (size_t i = 0; i < depth - 1; i++)
        text[n++] = '(';
    for (size_t i = 0; i < depth - 1; i++)
        text[n++] = ')';
    strcpy(text + n, "; }");
    refuse(text, DGPB_ERR_LIMIT, "brackets nest deeper than 256");
    free(text);

    /* A chain of structs deeper than DGPB_WGSL_MAX_TYPE_DEPTH. */
    char *chain = malloc(64 * (DGPB_WGSL_MAX_TYPE_DEPTH + 2) + 64);
    assert_non_null(chain);
    n = 0;
    for (int i = 0; i < DGPB_WGSL_MAX_TYPE_DEPTH; i++)
        n += (size_t)sprintf(chain + n, "struct S%d { x : S%d }\n", i, i + 1);
    n += (size_t)sprintf(chain + n, "struct S%d { x : f32 }\n", DGPB_WGSL_MAX_TYPE_DEPTH);
    strcpy(chain + n, "var<workgroup> w : S0;");
    refuse(chain, DGPB_ERR_LIMIT, "types nest deeper than 64");
    free(chain);
}

/* ---- robustness ------------------------------------------------------------- */

static void wgsl_scan_returns_ok_or_corrupt_for_every_truncation_of_every_sample(void **state)
{
    (void)state;
    for (size_t s = 0; s < ARRAY_LEN(samples); s++) {
        size_t len = strlen(samples[s]);
        for (size_t n = 0; n <= len; n++) {
            dgpb_wgsl_module *m = NULL;
            dgpb_diag diag;
            dgpb_diag_clear(&diag);
            int rc = scan_n(samples[s], n, &m, &diag);
            if (rc != DGPB_OK && rc != DGPB_ERR_CORRUPT)
                fail_msg("sample %zu cut at %zu: result %d (%s)", s, n, rc, diag.message);
            assert_true((rc == DGPB_OK) == (m != NULL));
            if (rc == DGPB_ERR_CORRUPT)
                assert_non_null(strstr(diag.message, "malformed WGSL: line "));
            wgsl_module_free(m);
        }
    }
}

static void wgsl_scan_survives_every_single_byte_change_of_a_sample(void **state)
{
    (void)state;
    static const char repl[] = {0,   '{', '}', '(', ')', '<', '>', ';',  '/',
                                '*', '@', ' ', '0', 'x', '#', ',', '\n', '\xc3'};
    const char *src = k_pc;
    size_t len = strlen(src);
    char *copy = malloc(len);
    assert_non_null(copy);
    size_t ok = 0;
    for (size_t i = 0; i < len; i++) {
        for (size_t r = 0; r < sizeof repl; r++) {
            memcpy(copy, src, len);
            copy[i] = repl[r];
            dgpb_wgsl_module *m = NULL;
            int rc = scan_n(copy, len, &m, NULL);
            assert_true(rc == DGPB_OK || rc == DGPB_ERR_CORRUPT || rc == DGPB_ERR_UNSUPPORTED ||
                        rc == DGPB_ERR_SHADER || rc == DGPB_ERR_LIMIT);
            ok += rc == DGPB_OK;
            wgsl_module_free(m);
        }
    }
    free(copy);
    assert_true(ok > 0);
}

static void wgsl_scan_reads_only_the_given_length(void **state)
{
    (void)state;
    const char *text =
        "@binding(0) @group(0) var s : sampler;@binding(1) @group(0) var t : sampler;";
    dgpb_wgsl_module *m = NULL;
    size_t first = strlen("@binding(0) @group(0) var s : sampler;");
    assert_int_equal(scan_n(text, first, &m, NULL), DGPB_OK);
    assert_int_equal(m->binding_count, 1);
    wgsl_module_free(m);
}

static void wgsl_scan_is_linear_in_a_large_module(void **state)
{
    (void)state;
    /* 20000 structs, bindings and workgroup variables and one body of 2 MB. */
    size_t cap = 8u << 20, n = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    for (int i = 0; i < 20000; i++)
        n += (size_t)snprintf(text + n, cap - n,
                              "struct S%d { a : vec3<f32>, b : S%d_inner }\n"
                              "struct S%d_inner { c : f32 }\n"
                              "@group(0) @binding(%d) var<storage, read> b%d : array<S%d>;\n"
                              "var<workgroup> w%d : S%d;\n",
                              i, i, i, i, i, i, i, i);
    n += (size_t)snprintf(text + n, cap - n, "@compute @workgroup_size(1) fn k() {\n");
    while (n < cap - 64)
        n += (size_t)snprintf(text + n, cap - n, "  x = f(y[1], (2 + z)) * w;\n");
    n += (size_t)snprintf(text + n, cap - n, "}\n");
    dgpb_wgsl_module *m = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = wgsl_module_scan(text, n, &m, &diag);
    if (rc != DGPB_OK)
        fail_msg("%d %s", rc, diag.message);
    assert_int_equal(m->binding_count, 20000);
    assert_int_equal(m->workgroup_bytes, 20000u * 16u);
    wgsl_module_free(m);
    free(text);
}

static void wgsl_scan_takes_empty_text_and_refuses_null_arguments(void **state)
{
    (void)state;
    dgpb_wgsl_module *m = NULL;
    assert_int_equal(wgsl_module_scan(NULL, 0, &m, NULL), DGPB_OK);
    assert_int_equal(m->binding_count, 0);
    assert_int_equal(m->entry_count, 0);
    assert_true(m->workgroup_bytes_known);
    wgsl_module_free(m);
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    assert_int_equal(wgsl_module_scan(NULL, 3, &m, &diag), DGPB_ERR_INVALID);
    assert_null(m);
    assert_int_equal(wgsl_module_scan("", 0, NULL, &diag), DGPB_ERR_INVALID);
    wgsl_module_free(NULL);
    assert_null(wgsl_find_binding(NULL, "x"));
}

static int scan_for_faults(void *arg)
{
    const char *text = arg;
    dgpb_wgsl_module *m = NULL;
    int rc = wgsl_module_scan(text, strlen(text), &m, NULL);
    if ((rc == DGPB_OK) != (m != NULL))
        return -1;
    wgsl_module_free(m);
    return rc;
}

static void wgsl_scan_fails_every_allocation_with_nomem_and_leaks_nothing(void **state)
{
    (void)state;
    for (size_t s = 0; s < ARRAY_LEN(samples); s++)
        assert_true(support_run_with_faults(scan_for_faults, (void *)samples[s], DGPB_OK,
                                            "wgsl scan") > 10);
}

/* Slang writes 64-bit integers, doubles and small integers into WGSL, which has none of them. */
static void wgsl_scan_refuses_types_that_wgsl_does_not_have(void **state)
{
    (void)state;
    static const struct {
        const char *text, *word;
        uint32_t line;
    } cases[] = {
        {"@binding(0) @group(0) var<storage, read> a_0 : array<uint64_t>;\n", "uint64_t", 1},
        {"@compute @workgroup_size(1)\nfn main() {\n    var x : u32 = u32(u64(3));\n}\n", "u64", 3},
        {"struct S_0 { v_0 : i64, }\n", "i64", 1},
        {"fn f_0() -> f32 { let d = double(1.0); return f32(d); }\n", "double", 1},
        {"@group(0) @binding(1) var<storage, read_write> b_0 : array<u16>;\n", "u16", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dgpb_wgsl_module *m = (dgpb_wgsl_module *)1;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = wgsl_module_scan(cases[i].text, strlen(cases[i].text), &m, &diag);
        assert_int_equal(rc, DGPB_ERR_SHADER);
        assert_null(m);
        assert_int_equal(diag.line, cases[i].line);
        assert_non_null(strstr(diag.message, "invalid WGSL: line "));
        char want[64];
        snprintf(want, sizeof want, "'%s'", cases[i].word);
        assert_non_null(strstr(diag.message, want));
        assert_non_null(strstr(diag.message, "which WGSL does not have"));
    }
    /* Names that merely contain them, and f16, are fine. */
    const char *ok = "enable f16;\nstruct u64_0 { x_u64 : f16, }\n"
                     "@group(0) @binding(0) var<storage, read> a_0 : array<u64_0>;\n";
    dgpb_wgsl_module *m = NULL;
    assert_int_equal(wgsl_module_scan(ok, strlen(ok), &m, NULL), DGPB_OK);
    wgsl_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wgsl_scan_reads_every_binding_of_slangs_output_in_source_order),
        cmocka_unit_test(wgsl_scan_counts_the_workgroup_memory_of_slangs_output),
        cmocka_unit_test(wgsl_scan_reports_a_push_constant_without_binding),
        cmocka_unit_test(wgsl_scan_reads_parameter_blocks_explicit_bindings_and_texture_arrays),
        cmocka_unit_test(wgsl_scan_reads_render_entries_and_their_depth_and_multisampled_textures),
        cmocka_unit_test(wgsl_scan_reads_storage_texture_formats_and_access_modes),
        cmocka_unit_test(wgsl_scan_takes_attributes_in_any_order_on_any_line_and_skips_comments),
        cmocka_unit_test(wgsl_scan_skips_other_declarations_with_their_braces_balanced),
        cmocka_unit_test(wgsl_scan_reads_literal_workgroup_sizes_and_defaults_y_and_z_to_one),
        cmocka_unit_test(wgsl_scan_sizes_workgroup_variables_with_wgsls_layout_rules),
        cmocka_unit_test(wgsl_scan_marks_workgroup_bytes_unknown_when_a_type_cannot_be_sized),
        cmocka_unit_test(wgsl_scan_refuses_malformed_text_naming_the_line),
        cmocka_unit_test(wgsl_scan_sets_the_diagnostics_line_and_offset),
        cmocka_unit_test(wgsl_scan_refuses_a_nul_byte_anywhere),
        cmocka_unit_test(wgsl_scan_refuses_what_it_does_not_evaluate_as_unsupported),
        cmocka_unit_test(wgsl_scan_refuses_types_that_wgsl_does_not_have),
        cmocka_unit_test(wgsl_scan_refuses_nesting_beyond_its_limits),
        cmocka_unit_test(wgsl_scan_returns_ok_or_corrupt_for_every_truncation_of_every_sample),
        cmocka_unit_test(wgsl_scan_survives_every_single_byte_change_of_a_sample),
        cmocka_unit_test(wgsl_scan_reads_only_the_given_length),
        cmocka_unit_test(wgsl_scan_is_linear_in_a_large_module),
        cmocka_unit_test(wgsl_scan_takes_empty_text_and_refuses_null_arguments),
        cmocka_unit_test(wgsl_scan_fails_every_allocation_with_nomem_and_leaks_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
