/*
 * test_capabilities.c - an entry's capabilities from what its code declares
 * (code/code_features.h, code/capabilities.h): real Slang SPIR-V
 * (fixtures/spirv/, see test_spirv_analysis.c for how it was made; the
 * stages of renderers' pipelines from stages.slang), modules
 * of one crafted OpCapability, WGSL directives and PTX targets, every row of
 * the DGPB_CODE_FEATURE table, and the proof of a written bundle.
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
#include "bundle/writer.h"
#include "code/code_features.h"
#include "support.h"
#include "code/capabilities.h"

#define CAP(c) (UINT64_C(1) << (c))

static int caps_of(dgpb_target_id target, dgpb_code_format format, uint32_t stage, const void *code,
                   size_t size, uint64_t *mask, dgpb_diag *d)
{
    dgpb_diag_clear(d);
    return code_capabilities(target, "k", stage, format, code, size, mask, d);
}

static uint64_t spirv_caps_of_stage(const char *fixture, uint32_t stage)
{
    char path[256];
    snprintf(path, sizeof path, "fixtures/spirv/%s.spv", fixture);
    size_t size;
    uint8_t *bytes = support_read_source_file(path, &size);
    uint64_t mask = 0;
    dgpb_diag d;
    int rc = caps_of(DGPB_TARGET_SPIRV, DGPB_CODE_FORMAT_SPIRV, stage, bytes, size, &mask, &d);
    free(bytes);
    if (rc)
        fail_msg("%s: %s", fixture, d.message);
    return mask;
}

static uint64_t spirv_caps(const char *fixture)
{
    return spirv_caps_of_stage(fixture, DGPB_STAGE_COMPUTE);
}

/*
 * The stages of renderers' pipelines (fixtures/spirv/stages.slang, one entry
 * point each, made as test_spirv_analysis.c says with -stage STAGE): the
 * SPIR-V capabilities Geometry, Tessellation and MeshShadingEXT map to
 * geometry, tessellation and mesh_shader, a PointSize built-in of a
 * geometry or domain shader (which Slang 2025.15 declares no capability
 * for) to point_size, and a fragment shader reading SV_PrimitiveID declares
 * Geometry.
 */
static void stages_spirv_maps_to_their_capabilities(void **state)
{
    (void)state;
    static const struct {
        const char *fixture;
        uint32_t stage;
        uint64_t mask;
    } cases[] = {
        {"geometry_point", DGPB_STAGE_GEOMETRY, CAP(DGPB_CAP_GEOMETRY) | CAP(DGPB_CAP_POINT_SIZE)},
        {"hull_patch", DGPB_STAGE_HULL, CAP(DGPB_CAP_TESSELLATION)},
        {"domain_point", DGPB_STAGE_DOMAIN, CAP(DGPB_CAP_TESSELLATION) | CAP(DGPB_CAP_POINT_SIZE)},
        {"task_payload", DGPB_STAGE_AMPLIFICATION, CAP(DGPB_CAP_MESH_SHADER)},
        {"mesh_tris", DGPB_STAGE_MESH, CAP(DGPB_CAP_MESH_SHADER)},
        {"fragment_primitive", DGPB_STAGE_FRAGMENT, CAP(DGPB_CAP_GEOMETRY)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t got = spirv_caps_of_stage(cases[i].fixture, cases[i].stage);
        if (got != cases[i].mask)
            fail_msg("%s: mask 0x%llx, expected 0x%llx", cases[i].fixture, (unsigned long long)got,
                     (unsigned long long)cases[i].mask);
    }
    /* The code alone, whatever the stage says: the same names. */
    assert_true(spirv_caps("mesh_tris") == CAP(DGPB_CAP_MESH_SHADER));
    assert_true(spirv_caps("geometry_point") ==
                (CAP(DGPB_CAP_GEOMETRY) | CAP(DGPB_CAP_POINT_SIZE)));
}

/* The kinds of descriptor indexing.slang's arrays hold: sampled and storage images, storage
   buffers, uniform and storage texel buffers. */
#define DYNAMIC_INDEXING                                                                           \
    (CAP(DGPB_CAP_DYNAMIC_INDEX_SAMPLED_IMAGE) | CAP(DGPB_CAP_DYNAMIC_INDEX_STORAGE_IMAGE) |       \
     CAP(DGPB_CAP_DYNAMIC_INDEX_STORAGE_BUFFER) |                                                  \
     CAP(DGPB_CAP_DYNAMIC_INDEX_UNIFORM_TEXEL_BUFFER) |                                            \
     CAP(DGPB_CAP_DYNAMIC_INDEX_STORAGE_TEXEL_BUFFER))
#define NONUNIFORM_INDEXING                                                                        \
    (CAP(DGPB_CAP_NONUNIFORM_INDEX_SAMPLED_IMAGE) | CAP(DGPB_CAP_NONUNIFORM_INDEX_STORAGE_IMAGE) | \
     CAP(DGPB_CAP_NONUNIFORM_INDEX_STORAGE_BUFFER) |                                               \
     CAP(DGPB_CAP_NONUNIFORM_INDEX_UNIFORM_TEXEL_BUFFER) |                                         \
     CAP(DGPB_CAP_NONUNIFORM_INDEX_STORAGE_TEXEL_BUFFER))

static void slang_spirv_maps_to_its_capabilities(void **state)
{
    (void)state;
    static const struct {
        const char *fixture;
        uint64_t mask;
    } cases[] = {
        {"store_and_read", 0},
        {"image_write", CAP(DGPB_CAP_IMAGE_WITHOUT_FORMAT)}, /* RWTexture2D<float4>: no [format] */
        {"wave_sum", CAP(DGPB_CAP_SUBGROUP_BASIC)}, /* WaveActiveSum: GroupNonUniformArithmetic */
        /* StructuredBuffer<half>: Slang 2025.15 leaves StorageBuffer16BitAccess out */
        {"halves", CAP(DGPB_CAP_HALF) | CAP(DGPB_CAP_STORAGE_16BIT)},
        {"atomic64", CAP(DGPB_CAP_ATOMIC64) | CAP(DGPB_CAP_INT64)},
        /* the heap indexed by a value read from a buffer: dynamic indexing */
        {"bindless", CAP(DGPB_CAP_DESCRIPTOR_HANDLE) | CAP(DGPB_CAP_DYNAMIC_INDEX_SAMPLED_IMAGE)},
        {"ray_query", CAP(DGPB_CAP_RAYQUERY)},
        {"coop_vec", CAP(DGPB_CAP_COOPERATIVE_VECTOR) | CAP(DGPB_CAP_MEMORY_MODEL) |
                         CAP(DGPB_CAP_REPLICATED_COMPOSITES)},
        /* What real renderers' shaders declare (renderer.slang, newer.slang) */
        {"derivatives_quad", CAP(DGPB_CAP_COMPUTE_DERIVATIVES)},
        {"derivatives_linear", CAP(DGPB_CAP_COMPUTE_DERIVATIVES)},
        {"position_fetch", CAP(DGPB_CAP_RAYTRACING) | CAP(DGPB_CAP_RAY_POSITION_FETCH)},
        /* SV_RenderTargetArrayIndex, SV_ViewportArrayIndex: ShaderLayer, ShaderViewportIndex;
           SV_InstanceID: DrawParameters */
        {"layer_viewport", CAP(DGPB_CAP_VIEWPORT_INDEX_LAYER) | CAP(DGPB_CAP_DRAW_PARAMETERS)},
        {"multiview", CAP(DGPB_CAP_MULTIVIEW)},                /* SV_ViewID */
        {"barycentric", CAP(DGPB_CAP_FRAGMENT_BARYCENTRIC)},   /* SV_Barycentrics */
        {"per_sample", CAP(DGPB_CAP_SAMPLE_RATE_SHADING)},     /* SV_SampleIndex */
        {"covered", CAP(DGPB_CAP_FRAGMENT_FULLY_COVERED)},     /* SV_InnerCoverage */
        {"shading_rate", CAP(DGPB_CAP_FRAGMENT_SHADING_RATE)}, /* SV_ShadingRate */
        {"stencil", CAP(DGPB_CAP_STENCIL_EXPORT)},             /* SV_StencilRef */
        {"ms_image", CAP(DGPB_CAP_STORAGE_IMAGE_MULTISAMPLE) | /* RWTexture2DMS */
                         CAP(DGPB_CAP_IMAGE_WITHOUT_FORMAT)},
        /* Arrays of descriptors (indexing.slang): NonUniformResourceIndex, which Slang 2025.15
           decorates NonUniform declaring ShaderNonUniform alone; a uniform index; constants. */
        {"nonuniform_arrays", CAP(DGPB_CAP_IMAGE_WITHOUT_FORMAT) | CAP(DGPB_CAP_DESCRIPTOR_HANDLE) |
                                  DYNAMIC_INDEXING | NONUNIFORM_INDEXING},
        {"uniform_arrays", CAP(DGPB_CAP_IMAGE_WITHOUT_FORMAT) | DYNAMIC_INDEXING},
        {"constant_arrays", CAP(DGPB_CAP_IMAGE_WITHOUT_FORMAT)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t got = spirv_caps(cases[i].fixture);
        if (got != cases[i].mask)
            fail_msg("%s: mask 0x%llx, expected 0x%llx", cases[i].fixture, (unsigned long long)got,
                     (unsigned long long)cases[i].mask);
    }
}

/* A SPIR-V module of a header and one OpCapability. */
static void one_capability(uint32_t number, uint32_t words[7])
{
    static const uint32_t head[5] = {0x07230203u, 0x00010500u, 0, 16, 0};
    memcpy(words, head, sizeof head);
    words[5] = 2u << 16 | 17u; /* OpCapability */
    words[6] = number;
}

static void every_row_maps_a_crafted_capability(void **state)
{
    (void)state;
    static const struct {
        uint32_t spirv;
        int cap; /* -1: core */
    } cases[] = {
        {1, -1},                             /* Shader */
        {2, DGPB_CAP_GEOMETRY},              /* Geometry */
        {3, DGPB_CAP_TESSELLATION},          /* Tessellation */
        {23, DGPB_CAP_POINT_SIZE},           /* TessellationPointSize */
        {24, DGPB_CAP_POINT_SIZE},           /* GeometryPointSize */
        {5283, DGPB_CAP_MESH_SHADER},        /* MeshShadingEXT */
        {9, DGPB_CAP_HALF},                  /* Float16 */
        {10, DGPB_CAP_FLOAT64},              /* Float64 */
        {11, DGPB_CAP_INT64},                /* Int64 */
        {12, DGPB_CAP_ATOMIC64},             /* Int64Atomics */
        {22, DGPB_CAP_INT16},                /* Int16 */
        {39, DGPB_CAP_INT8},                 /* Int8 */
        {49, DGPB_CAP_IMAGE_FORMATS},        /* StorageImageExtendedFormats */
        {50, -1},                            /* ImageQuery */
        {56, DGPB_CAP_IMAGE_WITHOUT_FORMAT}, /* StorageImageWriteWithoutFormat */
        {61, DGPB_CAP_SUBGROUP_BASIC},       /* GroupNonUniform */
        {4433, DGPB_CAP_STORAGE_16BIT},      /* StorageBuffer16BitAccess */
        {4448, DGPB_CAP_STORAGE_8BIT},       /* StorageBuffer8BitAccess */
        {4472, DGPB_CAP_RAYQUERY},           /* RayQueryKHR */
        {4479, DGPB_CAP_RAYTRACING},         /* RayTracingKHR */
        {5055, DGPB_CAP_SHADER_CLOCK},       /* ShaderClockKHR */
        {5302, DGPB_CAP_DESCRIPTOR_HANDLE},  /* RuntimeDescriptorArray */
        {5301, -1},                          /* ShaderNonUniform: Vulkan 1.2 */
        {5345, DGPB_CAP_MEMORY_MODEL},       /* VulkanMemoryModel */
        {5394, DGPB_CAP_COOPERATIVE_VECTOR},
        {6022, DGPB_CAP_COOPERATIVE_MATRIX},
        {6033, DGPB_CAP_ATOMIC_FLOAT},            /* AtomicFloat32AddEXT */
        {5612, DGPB_CAP_ATOMIC_FLOAT},            /* AtomicFloat32MinMaxEXT */
        {27, DGPB_CAP_STORAGE_IMAGE_MULTISAMPLE}, /* StorageImageMultisample */
        {32, DGPB_CAP_CLIP_DISTANCE},             /* ClipDistance */
        {33, DGPB_CAP_CULL_DISTANCE},             /* CullDistance */
        {35, DGPB_CAP_SAMPLE_RATE_SHADING},       /* SampleRateShading */
        {48, DGPB_CAP_STORAGE_IMAGE_MULTISAMPLE}, /* ImageMSArray */
        {69, DGPB_CAP_VIEWPORT_INDEX_LAYER},      /* ShaderLayer */
        {70, DGPB_CAP_VIEWPORT_INDEX_LAYER},      /* ShaderViewportIndex */
        {4422, DGPB_CAP_FRAGMENT_SHADING_RATE},   /* FragmentShadingRateKHR */
        {4439, DGPB_CAP_MULTIVIEW},               /* MultiView */
        {5013, DGPB_CAP_STENCIL_EXPORT},          /* StencilExportEXT */
        {5254, DGPB_CAP_VIEWPORT_INDEX_LAYER},    /* ShaderViewportIndexLayerEXT */
        {5265, DGPB_CAP_FRAGMENT_FULLY_COVERED},  /* FragmentFullyCoveredEXT */
        {5284, DGPB_CAP_FRAGMENT_BARYCENTRIC},    /* FragmentBarycentricKHR */
        {5288, DGPB_CAP_COMPUTE_DERIVATIVES},     /* ComputeDerivativeGroupQuadsKHR */
        {5350, DGPB_CAP_COMPUTE_DERIVATIVES},     /* ComputeDerivativeGroupLinearKHR */
        {5336, DGPB_CAP_RAY_POSITION_FETCH},      /* RayTracingPositionFetchKHR */
        {5391, DGPB_CAP_RAY_POSITION_FETCH},      /* RayQueryPositionFetchKHR */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t words[7];
        uint64_t mask = 0xdeadu;
        one_capability(cases[i].spirv, words);
        dgpb_diag d;
        int rc = caps_of(DGPB_TARGET_SPIRV, DGPB_CODE_FORMAT_SPIRV, DGPB_STAGE_COMPUTE, words,
                         sizeof words, &mask, &d);
        if (rc)
            fail_msg("capability %u: %s", cases[i].spirv, d.message);
        uint64_t want = cases[i].cap < 0 ? 0 : CAP(cases[i].cap);
        if (mask != want)
            fail_msg("capability %u: mask 0x%llx, expected 0x%llx", cases[i].spirv,
                     (unsigned long long)mask, (unsigned long long)want);
    }
    /* The whole table: every row maps to a capability, core or refusal, and a
       capability's bit is within the mask. */
    for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++)
        assert_non_null(dgpb_capability_name(c));
    assert_true(DGPB_CAP_COUNT <= 64);
}

static void an_unmapped_or_refused_feature_fails_the_build(void **state)
{
    (void)state;
    static const struct {
        uint32_t spirv;
        const char *what;
    } cases[] = {
        {99999, "SPIR-V capability 99999, which dgpb's capability table does not list"},
        {4423, "SPIR-V capability 4423, which dgpb's capability table does not list"},
        {54, "SPIR-V capability GeometryStreams (54), which no dgpb capability names"},
        {5378, "SPIR-V capability FragmentShaderPixelInterlockEXT (5378), which no dgpb"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t words[7];
        uint64_t mask;
        one_capability(cases[i].spirv, words);
        dgpb_diag d;
        assert_int_equal(caps_of(DGPB_TARGET_SPIRV, DGPB_CODE_FORMAT_SPIRV, DGPB_STAGE_COMPUTE,
                                 words, sizeof words, &mask, &d),
                         DGPB_ERR_SHADER);
        assert_non_null(strstr(d.message, "target 'spirv', entry 'k': its code declares "));
        if (!strstr(d.message, cases[i].what))
            fail_msg("capability %u: '%s' lacks '%s'", cases[i].spirv, d.message, cases[i].what);
    }
    /* Not SPIR-V, or an instruction past the end: corrupt, never a guess. */
    uint32_t words[7];
    uint64_t mask;
    one_capability(10, words);
    dgpb_diag d;
    assert_int_equal(caps_of(DGPB_TARGET_SPIRV, DGPB_CODE_FORMAT_SPIRV, DGPB_STAGE_COMPUTE, words,
                             sizeof words - 4, &mask, &d),
                     DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "past the module's end"));
    words[0] = 0;
    assert_int_equal(caps_of(DGPB_TARGET_SPIRV, DGPB_CODE_FORMAT_SPIRV, DGPB_STAGE_COMPUTE, words,
                             sizeof words, &mask, &d),
                     DGPB_ERR_CORRUPT);
}

/* A stage's own capability (DGPB_STAGE's CAP), whatever its code declares. */
static void a_stage_needs_its_capability(void **state)
{
    (void)state;
    static const struct {
        uint32_t stage;
        int cap; /* -1: none */
    } cases[] = {
        {DGPB_STAGE_COMPUTE, -1},
        {DGPB_STAGE_VERTEX, -1},
        {DGPB_STAGE_FRAGMENT, -1},
        {DGPB_STAGE_RAYGENERATION, DGPB_CAP_RAYTRACING},
        {DGPB_STAGE_CLOSESTHIT, DGPB_CAP_RAYTRACING},
        {DGPB_STAGE_ANYHIT, DGPB_CAP_RAYTRACING},
        {DGPB_STAGE_MISS, DGPB_CAP_RAYTRACING},
        {DGPB_STAGE_INTERSECTION, DGPB_CAP_RAYTRACING},
        {DGPB_STAGE_CALLABLE, DGPB_CAP_RAYTRACING},
        {DGPB_STAGE_MESH, DGPB_CAP_MESH_SHADER},
        {DGPB_STAGE_AMPLIFICATION, DGPB_CAP_MESH_SHADER},
        {DGPB_STAGE_GEOMETRY, DGPB_CAP_GEOMETRY},
        {DGPB_STAGE_HULL, DGPB_CAP_TESSELLATION},
        {DGPB_STAGE_DOMAIN, DGPB_CAP_TESSELLATION},
    };
    assert_int_equal(sizeof cases / sizeof cases[0], DGPB_STAGE_COUNT);
    uint32_t words[7];
    uint64_t mask;
    one_capability(1, words);
    dgpb_diag d;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(caps_of(DGPB_TARGET_SPIRV, DGPB_CODE_FORMAT_SPIRV, cases[i].stage, words,
                                 sizeof words, &mask, &d),
                         DGPB_OK);
        if (mask != (cases[i].cap < 0 ? 0 : CAP(cases[i].cap)))
            fail_msg("stage %s: mask 0x%llx", dgpb_stage_name(cases[i].stage),
                     (unsigned long long)mask);
    }
}

static int wgsl(const char *text, uint64_t *mask, dgpb_diag *d)
{
    return caps_of(DGPB_TARGET_WGSL, DGPB_CODE_FORMAT_WGSL, DGPB_STAGE_COMPUTE, text, strlen(text),
                   mask, d);
}

static void wgsl_enables_map_to_capabilities(void **state)
{
    (void)state;
    uint64_t mask;
    dgpb_diag d;
    assert_int_equal(wgsl("enable f16;\n\nenable subgroups;\n@compute @workgroup_size(1) fn "
                          "main() {}\n",
                          &mask, &d),
                     DGPB_OK);
    assert_int_equal(mask, CAP(DGPB_CAP_HALF) | CAP(DGPB_CAP_SUBGROUP_BASIC));
    assert_int_equal(wgsl("// enable f16;\n/* enable /* nested */ subgroups; */ enable "
                          "subgroups , ;\nvar<private> x: i32; enable f16;",
                          &mask, &d),
                     DGPB_OK);
    assert_int_equal(mask, CAP(DGPB_CAP_SUBGROUP_BASIC)); /* directives come first */
    assert_int_equal(
        wgsl("diagnostic(off, derivative_uniformity);\nenable f16, subgroups_f16;", &mask, &d),
        DGPB_OK);
    assert_int_equal(mask, CAP(DGPB_CAP_HALF) | CAP(DGPB_CAP_SUBGROUP_BASIC));
    assert_int_equal(wgsl("", &mask, &d), DGPB_OK);
    assert_int_equal(mask, 0);
    assert_int_equal(wgsl("enable chromium_experimental_pixel_local;", &mask, &d), DGPB_ERR_SHADER);
    assert_non_null(strstr(d.message, "target 'wgsl', entry 'k': its code declares WGSL `enable "
                                      "chromium_experimental_pixel_local`, which dgpb's"));
    assert_int_equal(wgsl("requires readonly_and_readwrite_storage_textures;", &mask, &d),
                     DGPB_ERR_SHADER);
    assert_non_null(strstr(d.message, "WGSL `requires readonly_and_readwrite_storage_textures`"));
    assert_int_equal(wgsl("enable f16", &mask, &d), DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "does not end in ';'"));
    assert_int_equal(wgsl("enable ;", &mask, &d), DGPB_ERR_CORRUPT);
    assert_int_equal(wgsl("/* enable f16;", &mask, &d), DGPB_ERR_CORRUPT);
}

static int ptx(const char *text, uint64_t *mask, dgpb_diag *d)
{
    return caps_of(DGPB_TARGET_PTX, DGPB_CODE_FORMAT_PTX, DGPB_STAGE_COMPUTE, text, strlen(text),
                   mask, d);
}

static void ptx_targets_map_to_core_or_fail(void **state)
{
    (void)state;
    uint64_t mask = 1;
    dgpb_diag d;
    /* What nvcc writes (fixtures/reflect/aggregates.ptx), with its NUL terminator. */
    size_t size;
    uint8_t *bytes = support_read_source_file("fixtures/reflect/aggregates.ptx", &size);
    assert_int_equal(
        caps_of(DGPB_TARGET_PTX, DGPB_CODE_FORMAT_PTX, DGPB_STAGE_COMPUTE, bytes, size, &mask, &d),
        DGPB_OK);
    free(bytes);
    assert_int_equal(mask, 0);
    assert_int_equal(
        ptx("// .target sm_90\n.version 9.0\n.target sm_60, texmode_unified\n", &mask, &d),
        DGPB_OK);
    assert_int_equal(mask, 0);
    assert_int_equal(ptx(".version 9.0\n.target sm_90a\n.address_size 64\n", &mask, &d),
                     DGPB_ERR_SHADER);
    assert_non_null(strstr(d.message, "target 'ptx', entry 'k': its code declares PTX `.target "
                                      "sm_90a`, which dgpb's capability table does not list"));
    assert_int_equal(ptx(".version 9.0\n.target sm_75, map_f64_to_f32\n", &mask, &d),
                     DGPB_ERR_SHADER);
    assert_non_null(strstr(d.message, "`.target map_f64_to_f32`"));
    assert_int_equal(ptx(".version 9.0\n.address_size 64\n", &mask, &d), DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "no `.target` directive"));
}

/* A bundle of one spirv entry whose code declares Float64, listing `caps`. */
static uint8_t *bundle_listing(const char *const *caps, uint32_t cap_count, size_t *size)
{
    uint32_t words[7];
    one_capability(10, words);
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(model_create(&m), DGPB_OK);
    uint32_t t;
    assert_int_equal(model_add_target(m, "spirv", "spirv", &t, &d), DGPB_OK);
    assert_int_equal(model_add_layout(m, t, (const uint8_t *)"x", 1, NULL, &d), DGPB_OK);
    dgpb_entry_desc e = {.name = "k",
                         .stage = "compute",
                         .code = words,
                         .code_size = sizeof words,
                         .thread_group_size = {1, 1, 1},
                         .capabilities = caps,
                         .capability_count = cap_count};
    assert_int_equal(model_add_entry(m, t, &e, &d), DGPB_OK);
    uint8_t *bytes = NULL;
    assert_int_equal(bundle_write(m, &bytes, size, &d), DGPB_OK);
    model_destroy(m);
    return bytes;
}

static void the_proof_holds_a_bundle_to_its_code(void **state)
{
    (void)state;
    static const char *const float64[] = {"float64"};
    static const char *const more[] = {"float64", "int64"};
    struct {
        const char *const *caps;
        uint32_t count;
        const char *message; /* NULL: proved */
    } cases[] = {
        {float64, 1, NULL},
        {float64, 0, "lists capabilities none, but its code declares what maps to float64"},
        {more, 2, "lists capabilities float64, int64, but its code declares what maps to float64"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        uint8_t *bytes = bundle_listing(cases[i].caps, cases[i].count, &size);
        dgpb_bundle *b = NULL;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, &d), DGPB_OK);
        int rc = capability_proof(b, &d);
        if (!cases[i].message) {
            assert_int_equal(rc, DGPB_OK);
        } else {
            assert_int_equal(rc, DGPB_ERR_SHADER);
            assert_non_null(strstr(d.message, "target 'spirv', entry 'k': the bundle "));
            if (!strstr(d.message, cases[i].message))
                fail_msg("'%s' lacks '%s'", d.message, cases[i].message);
        }
        dgpb_bundle_close(b);
        dgpb_free(bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slang_spirv_maps_to_its_capabilities),
        cmocka_unit_test(stages_spirv_maps_to_their_capabilities),
        cmocka_unit_test(every_row_maps_a_crafted_capability),
        cmocka_unit_test(an_unmapped_or_refused_feature_fails_the_build),
        cmocka_unit_test(a_stage_needs_its_capability),
        cmocka_unit_test(wgsl_enables_map_to_capabilities),
        cmocka_unit_test(ptx_targets_map_to_core_or_fail),
        cmocka_unit_test(the_proof_holds_a_bundle_to_its_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
