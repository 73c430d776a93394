/*
 * test_format.c - the format's vocabulary, UTF-8 checks, stems and diagnostics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "core/utf8.h"

static void names_round_trip_for_every_table(void **state)
{
    (void)state;
    for (uint32_t k = 0; k < DGPB_KIND_COUNT; k++) {
        const char *n = dgpb_kind_name(k);
        assert_int_equal(dgpb_kind_from_name(n, strlen(n)), (int)k);
    }
    for (uint32_t s = 0; s < DGPB_STAGE_COUNT; s++) {
        const char *n = dgpb_stage_name(s);
        assert_int_equal(dgpb_stage_from_name(n, strlen(n)), (int)s);
    }
    for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++) {
        const char *n = dgpb_capability_name(c);
        assert_int_equal(dgpb_capability_from_name(n, strlen(n)), (int)c);
        if (c > 0) /* the enum order is the sorted order of the names */
            assert_true(strcmp(dgpb_capability_name(c - 1), n) < 0);
    }
    assert_null(dgpb_kind_name(DGPB_KIND_COUNT));
    assert_null(dgpb_stage_name(DGPB_STAGE_COUNT));
    assert_null(dgpb_capability_name(DGPB_CAP_COUNT));
    assert_int_equal(dgpb_kind_from_name("rw_buffe", 8), -1);
    assert_int_equal(dgpb_capability_from_name("Half", 4), -1);
}

static void kinds_have_the_documented_numbers(void **state)
{
    (void)state;
    static const char *const expected[] = {
        "value",           "uniform_buffer",         "buffer",       "rw_buffer",
        "byte_buffer",     "rw_byte_buffer",         "texture",      "rw_texture",
        "sampler",         "acceleration_structure", "mlp_weights",  "handle",
        "texture_sampler", "input_attachment",       "texel_buffer", "rw_texel_buffer",
    };
    for (uint32_t k = 0; k < 16; k++)
        assert_string_equal(dgpb_kind_name(k), expected[k]);
    assert_int_equal(DGPB_KIND_COUNT, 16);
}

static void backends_map_to_their_targets(void **state)
{
    (void)state;
    static const struct {
        const char *backend, *target;
    } rows[] = {{"Dx12", "dxil"},   {"Dx11", "dxbc"}, {"Vulkan", "spirv"},
                {"Metal", "metal"}, {"Cuda", "ptx"},  {"WebGpu", "wgsl"}};
    for (size_t i = 0; i < 6; i++) {
        int b = dgpb_backend_from_name(rows[i].backend, strlen(rows[i].backend));
        assert_true(b >= 0);
        assert_string_equal(dgpb_backend_target((uint32_t)b), rows[i].target);
        assert_true(dgpb_target_name_known(rows[i].target, strlen(rows[i].target)));
    }
    assert_int_equal(dgpb_backend_from_name("vulkan", 6), DGPB_BACKEND_VULKAN);
    assert_false(dgpb_target_name_known("hlsl", 4));
    /* The enum values are the documented ones, whatever the order of the rows. */
    assert_int_equal(DGPB_BACKEND_DX12, 0);
    assert_int_equal(DGPB_BACKEND_WEBGPU, 5);
    assert_int_equal(DGPB_BACKEND_COUNT, 6);
    for (uint32_t b = 0; b < DGPB_BACKEND_COUNT; b++)
        assert_string_equal(dgpb_target_name((uint32_t)dgpb_backend_target_id(b)),
                            dgpb_backend_target(b));
    assert_int_equal(dgpb_backend_target_id(DGPB_BACKEND_VULKAN), DGPB_TARGET_SPIRV);
    assert_int_equal(dgpb_backend_target_id(DGPB_BACKEND_COUNT), -1);
    assert_null(dgpb_backend_target(DGPB_BACKEND_COUNT));
}

/* The traits of DGPB_TARGET's rows: the facts that callers ask instead of a target's id. */
static void targets_have_their_traits(void **state)
{
    (void)state;
    assert_int_equal(dgpb_target_traits(DGPB_TARGET_PTX), DGPB_TRAIT_COMPUTE_ONLY | DGPB_TRAIT_RUN);
    assert_int_equal(dgpb_target_traits(DGPB_TARGET_SPIRV),
                     DGPB_TRAIT_RUN | DGPB_TRAIT_RUN_DEFAULT);
    assert_int_equal(dgpb_target_traits(DGPB_TARGET_WGSL), DGPB_TRAIT_WEBGPU_IDS);
    assert_int_equal(dgpb_target_traits(DGPB_TARGET_METAL), 0);
    assert_int_equal(dgpb_target_traits(DGPB_TARGET_COUNT), 0);
    unsigned webgpu = 0, run_default = 0;
    for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++) {
        webgpu += (dgpb_target_traits(t) & DGPB_TRAIT_WEBGPU_IDS) != 0;
        run_default += (dgpb_target_traits(t) & DGPB_TRAIT_RUN_DEFAULT) != 0;
    }
    assert_int_equal(webgpu, 1);
    assert_int_equal(run_default, 1);
}

static void targets_and_code_formats_round_trip(void **state)
{
    (void)state;
    for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++) {
        const char *n = dgpb_target_name(t);
        assert_int_equal(dgpb_target_from_name(n, strlen(n)), (int)t);
        if (t > 0) /* bundle order: sorted by name */
            assert_true(strcmp(dgpb_target_name(t - 1), n) < 0);
    }
    for (uint32_t f = 0; f < DGPB_CODE_FORMAT_COUNT; f++) {
        const char *n = dgpb_code_format_name(f);
        assert_int_equal(dgpb_code_format_from_name(n, strlen(n)), (int)f);
    }
    assert_null(dgpb_target_name(DGPB_TARGET_COUNT));
    assert_null(dgpb_code_format_name(DGPB_CODE_FORMAT_COUNT));
    assert_int_equal(dgpb_target_from_name("spirv", 4), -1);
    assert_int_equal(dgpb_code_format_from_name("hlsl", 4), -1);
}

static void metal_allows_metallib_or_msl_and_others_their_own_name(void **state)
{
    (void)state;
    assert_true(dgpb_code_format_allowed("metal", 5, "metallib", 8));
    assert_true(dgpb_code_format_allowed("metal", 5, "msl", 3));
    assert_false(dgpb_code_format_allowed("metal", 5, "metal", 5));
    assert_true(dgpb_code_format_allowed("spirv", 5, "spirv", 5));
    assert_false(dgpb_code_format_allowed("spirv", 5, "wgsl", 4));
    assert_false(dgpb_code_format_allowed("glsl", 4, "glsl", 4));
    /* No bundle carries CUDA source. */
    assert_false(dgpb_code_format_allowed("ptx", 3, "cuda", 4));
    assert_true(dgpb_code_format_allowed("ptx", 3, "ptx", 3));
}

static void webgpu_ids_follow_the_kind(void **state)
{
    (void)state;
    static const struct {
        uint32_t kind, id;
        bool ok;
    } rows[] = {
        {DGPB_KIND_VALUE, 1, true},
        {DGPB_KIND_UNIFORM_BUFFER, 1, true},
        {DGPB_KIND_BUFFER, 2, true},
        {DGPB_KIND_BUFFER, 3, false},
        {DGPB_KIND_RW_BUFFER, 3, true},
        {DGPB_KIND_RW_BUFFER, 2, false},
        {DGPB_KIND_BYTE_BUFFER, 2, true},
        {DGPB_KIND_RW_BYTE_BUFFER, 3, true},
        {DGPB_KIND_TEXTURE, 5, true},
        {DGPB_KIND_TEXTURE, 6, false},
        {DGPB_KIND_RW_TEXTURE, 6, true},
        {DGPB_KIND_RW_TEXTURE, 9, true},
        {DGPB_KIND_RW_TEXTURE, 5, false},
        {DGPB_KIND_SAMPLER, 4, true},
        {DGPB_KIND_ACCELERATION_STRUCTURE, 0, true},
        {DGPB_KIND_MLP_WEIGHTS, 0, true},
        {DGPB_KIND_MLP_WEIGHTS, 2, false},
        {DGPB_KIND_HANDLE, 0, true},
        {DGPB_KIND_VALUE, 0, false},
        {DGPB_KIND_SAMPLER, 10, false},
        /* WebGPU binds no input attachment or texel buffer: no ID fits, 0 neither. */
        {DGPB_KIND_INPUT_ATTACHMENT, 0, false},
        {DGPB_KIND_TEXEL_BUFFER, 0, false},
        {DGPB_KIND_RW_TEXEL_BUFFER, 0, false},
        {DGPB_KIND_RW_TEXEL_BUFFER, 3, false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        assert_int_equal(dgpb_webgpu_layout_allowed(rows[i].kind, 0, rows[i].id, true), rows[i].ok);
        /* Off wgsl, only 0 is allowed, whatever the kind. */
        assert_int_equal(dgpb_webgpu_layout_allowed(rows[i].kind, 0, rows[i].id, false),
                         rows[i].id == 0);
    }
}

#define SAMPLE(t) (DGPB_SAMPLE_##t << DGPB_SHAPE_SAMPLE_SHIFT)
#define FORMAT(f) (DGPB_TEXEL_##f << DGPB_SHAPE_FORMAT_SHIFT)
#define ACCESS(a) (DGPB_ACCESS_##a << DGPB_SHAPE_ACCESS_SHIFT)

/* Every shape WebGPU can bind has one ID: the table's where it names the descriptor, else one
   made from the shape, which decodes back to it; the rest have none. */
static void webgpu_ids_follow_the_shape(void **state)
{
    (void)state;
    static const struct {
        uint32_t kind, shape, id;
        const char *text;
    } rows[] = {
        {DGPB_KIND_TEXTURE, DGPB_DIM_2D | SAMPLE(FLOAT), 5, "2d float sampled texture"},
        {DGPB_KIND_TEXTURE, DGPB_DIM_CUBE | SAMPLE(FLOAT), 32 + 3 * 8,
         "cube float sampled texture"},
        {DGPB_KIND_TEXTURE, DGPB_DIM_2D | DGPB_SHAPE_ARRAYED | SAMPLE(UINT), 32 + 2 * 8 + 3 * 2,
         "2d-array uint sampled texture"},
        {DGPB_KIND_TEXTURE, DGPB_DIM_2D | DGPB_SHAPE_MULTISAMPLED | SAMPLE(FLOAT), 32 + 8 + 1,
         "2d float sampled texture, multisampled"},
        {DGPB_KIND_TEXTURE, DGPB_DIM_2D | SAMPLE(DEPTH), 32 + 8 + 2, "2d depth sampled texture"},
        {DGPB_KIND_TEXTURE, DGPB_DIM_3D | SAMPLE(SINT), 32 + 5 * 8 + 4, "3d sint sampled texture"},
        {DGPB_KIND_TEXTURE, DGPB_DIM_1D | DGPB_SHAPE_ARRAYED | SAMPLE(FLOAT), 0, NULL},
        {DGPB_KIND_TEXTURE, DGPB_DIM_3D | DGPB_SHAPE_MULTISAMPLED | SAMPLE(FLOAT), 0, NULL},
        {DGPB_KIND_TEXTURE_SAMPLER, DGPB_DIM_2D | SAMPLE(FLOAT), 10,
         "2d float sampled texture at binding, filtering sampler at binding + 1"},
        {DGPB_KIND_TEXTURE_SAMPLER, DGPB_DIM_2D | SAMPLE(DEPTH) | DGPB_SHAPE_COMPARISON,
         96 + 8 + 2 + 1, "2d depth sampled texture at binding, comparison sampler at binding + 1"},
        {DGPB_KIND_TEXTURE_SAMPLER, DGPB_DIM_CUBE | DGPB_SHAPE_ARRAYED | SAMPLE(FLOAT), 96 + 4 * 8,
         "cube-array float sampled texture at binding, filtering sampler at binding + 1"},
        {DGPB_KIND_SAMPLER, 0, 4, "filtering sampler"},
        {DGPB_KIND_SAMPLER, DGPB_SHAPE_COMPARISON, 12, "comparison sampler"},
        {DGPB_KIND_RW_TEXTURE, DGPB_DIM_2D | SAMPLE(UINT) | FORMAT(R32UINT) | ACCESS(READ_WRITE), 9,
         "2d read-write r32uint storage texture"},
        {DGPB_KIND_RW_TEXTURE, DGPB_DIM_2D | SAMPLE(FLOAT) | FORMAT(RGBA8UNORM) | ACCESS(WRITE),
         256 + 4 * 32 + 2 * 8 + 1, "2d write rgba8unorm storage texture"},
        {DGPB_KIND_RW_TEXTURE,
         DGPB_DIM_2D | DGPB_SHAPE_ARRAYED | SAMPLE(UINT) | FORMAT(R32UINT) | ACCESS(READ_WRITE),
         256 + 33 * 32 + 3 * 8 + 2, "2d-array read_write r32uint storage texture"},
        {DGPB_KIND_RW_TEXTURE, DGPB_DIM_CUBE | SAMPLE(FLOAT) | FORMAT(R32FLOAT) | ACCESS(READ), 0,
         NULL},
        {DGPB_KIND_RW_TEXTURE, DGPB_DIM_2D | SAMPLE(FLOAT) | ACCESS(READ_WRITE), 0, NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        uint32_t id = dgpb_webgpu_layout_for(rows[i].kind, rows[i].shape), kind, shape;
        if (id != rows[i].id)
            fail_msg("row %zu: ID %u, expected %u", i, id, rows[i].id);
        if (!id)
            continue;
        assert_true(dgpb_webgpu_layout_decode(id, &kind, &shape));
        assert_int_equal(kind, rows[i].kind);
        assert_int_equal(dgpb_webgpu_layout_for(kind, shape), id);
        char text[128];
        assert_string_equal(dgpb_webgpu_layout_text(id, text, sizeof text), rows[i].text);
        assert_true(dgpb_webgpu_layout_allowed(rows[i].kind, rows[i].shape, id, true));
        assert_false(dgpb_webgpu_layout_allowed(rows[i].kind, rows[i].shape, id + 1, true) &&
                     rows[i].kind != DGPB_KIND_SAMPLER);
    }
    /* Every ID decodes to one that is made back from its descriptor, and nothing else does. */
    uint32_t known = 0;
    for (uint32_t id = 0; id < 4096; id++) {
        uint32_t kind, shape;
        if (!dgpb_webgpu_layout_decode(id, &kind, &shape))
            continue;
        known++;
        if (id != DGPB_WGPU_NON_FILTERING_SAMPLER && id >= DGPB_WGPU_UNIFORM_BUFFER + 3)
            assert_int_equal(dgpb_webgpu_layout_for(kind, shape), id);
    }
    /* 12 named; 6 views x 4 sample types + 1 multisampled 2d each, less the 2d float texture (5),
       for textures; 6 x 4 x 2 less one (10) for pairs; 41 formats x 3 accesses x 4 views less
       the table's 4, for storage textures. */
    assert_int_equal(known, 12 + (24 + 4 - 1) + (48 - 1) + (41 * 3 * 4 - 4));
}

/* Input attachments and texel buffers: their dimension and fields, spelled and checked. */
static void input_attachment_and_texel_buffer_shapes_are_spelled_and_checked(void **state)
{
    (void)state;
    static const struct {
        uint32_t kind, shape;
        const char *text, *why; /* why: NULL when the row is valid */
    } rows[] = {
        {DGPB_KIND_INPUT_ATTACHMENT, DGPB_DIM_SUBPASS | SAMPLE(FLOAT), "subpass float attachment 0",
         NULL},
        {DGPB_KIND_INPUT_ATTACHMENT,
         DGPB_DIM_SUBPASS | DGPB_SHAPE_MULTISAMPLED | SAMPLE(UINT) |
             63u << DGPB_SHAPE_ATTACHMENT_SHIFT,
         "subpass ms uint attachment 63", NULL},
        {DGPB_KIND_TEXEL_BUFFER, DGPB_DIM_BUFFER | SAMPLE(FLOAT) | FORMAT(RGBA8UNORM),
         "buffer float rgba8unorm", NULL},
        {DGPB_KIND_RW_TEXEL_BUFFER,
         DGPB_DIM_BUFFER | SAMPLE(UINT) | FORMAT(R32UINT) | ACCESS(READ_WRITE),
         "buffer uint r32uint read_write", NULL},
        {DGPB_KIND_INPUT_ATTACHMENT, DGPB_DIM_2D | SAMPLE(FLOAT), "2d float",
         "a dimension other than subpass"},
        {DGPB_KIND_TEXTURE, DGPB_DIM_SUBPASS | SAMPLE(FLOAT), "subpass float attachment 0",
         "the dimension of an input attachment"},
        {DGPB_KIND_TEXEL_BUFFER, DGPB_DIM_2D, "2d", "a dimension other than buffer"},
        {DGPB_KIND_RW_TEXTURE, DGPB_DIM_BUFFER | ACCESS(READ_WRITE), "buffer read_write",
         "the dimension of a texel buffer"},
        {DGPB_KIND_TEXTURE, DGPB_DIM_2D | 1u << DGPB_SHAPE_ATTACHMENT_SHIFT, "2d attachment 1",
         "an attachment index on a parameter that is not an input attachment"},
        {DGPB_KIND_TEXEL_BUFFER, DGPB_DIM_BUFFER | ACCESS(READ), "buffer read",
         "an access mode on a texture that is not a storage texture"},
        {DGPB_KIND_TEXEL_BUFFER, DGPB_DIM_BUFFER | DGPB_SHAPE_ARRAYED, "buffer_array",
         "layers (arrayed)"},
        {DGPB_KIND_INPUT_ATTACHMENT, DGPB_DIM_SUBPASS | SAMPLE(DEPTH), "subpass depth attachment 0",
         "the depth sample type on a parameter no sampler reads"},
        {DGPB_KIND_INPUT_ATTACHMENT, DGPB_DIM_SUBPASS | FORMAT(R32FLOAT),
         "subpass r32float attachment 0",
         "a texel format on a texture that is not a storage texture"},
        {DGPB_KIND_TEXEL_BUFFER, DGPB_DIM_BUFFER | SAMPLE(SINT) | FORMAT(R32FLOAT),
         "buffer sint r32float", "a sample type its texel format does not return"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char text[96], buf[256];
        assert_string_equal(dgpb_shape_text(rows[i].shape, text, sizeof text), rows[i].text);
        uint32_t flags = dgpb_kind_required_flags(rows[i].kind);
        const char *why =
            dgpb_param_rule(rows[i].kind, flags, 0, 0, rows[i].shape, 0, 0, false, buf, sizeof buf);
        if (!rows[i].why) {
            if (why)
                fail_msg("%s: %s", rows[i].text, why);
        } else if (!why || !strstr(why, rows[i].why)) {
            fail_msg("%s: got '%s', want '%s'", rows[i].text, why ? why : "(valid)", rows[i].why);
        }
    }
    /* On wgsl no row of these kinds is valid, whatever its ID. */
    char buf[256];
    const char *why = dgpb_param_rule(DGPB_KIND_TEXEL_BUFFER, DGPB_FLAG_READ_ONLY, 0, 0,
                                      DGPB_DIM_BUFFER | SAMPLE(FLOAT), 0, 0, true, buf, sizeof buf);
    assert_non_null(why);
    assert_non_null(strstr(why, "texel_buffer parameters have no place on wgsl"));
}

/* A row the target's code lacks: its kind, the absent flag and nothing else. */
static void absent_rows_have_nothing_but_their_kind(void **state)
{
    (void)state;
    char buf[256];
    /* On wgsl an absent row has no WebGPU ID, and a read-only kind drops read_only. */
    assert_null(dgpb_param_rule(DGPB_KIND_TEXTURE, DGPB_FLAG_ABSENT, 0, 0, 0, 0, 0, true, buf,
                                sizeof buf));
    assert_null(dgpb_param_rule(DGPB_KIND_VALUE, DGPB_FLAG_ABSENT, 0, 0, 0, 0, 0, false, buf,
                                sizeof buf));
    static const uint32_t bad[][6] = {
        /* flags, space, binding, offset, size, webgpu_layout */
        {DGPB_FLAG_ABSENT | DGPB_FLAG_READ_ONLY, 0, 0, 0, 0, 0},
        {DGPB_FLAG_ABSENT, 1, 0, 0, 0, 0},
        {DGPB_FLAG_ABSENT, 0, 2, 0, 0, 0},
        {DGPB_FLAG_ABSENT, 0, 0, 4, 0, 0},
        {DGPB_FLAG_ABSENT, 0, 0, 0, 16, 0},
        {DGPB_FLAG_ABSENT, 0, 0, 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = dgpb_param_rule(DGPB_KIND_TEXTURE, bad[i][0], bad[i][1], bad[i][2],
                                          bad[i][3], bad[i][4], bad[i][5], true, buf, sizeof buf);
        if (!why || !strstr(why, "absent from the target's code"))
            fail_msg("case %zu: got '%s'", i, why ? why : "(valid)");
    }
}

/* What WebGPU asks of a device for a storage texture, by format and access (the WebGPU
   specification's texture format capabilities; DGPB_TEXEL_FORMAT's storage and read_write). */
static void webgpu_storage_features_follow_the_format_and_access(void **state)
{
    (void)state;
    static const struct {
        uint32_t format, access;
        const char *feature; /* "" every device, NULL no device */
    } cases[] = {
        {DGPB_TEXEL_R32FLOAT, DGPB_ACCESS_READ_WRITE, ""},
        {DGPB_TEXEL_R32SINT, DGPB_ACCESS_READ_WRITE, ""},
        {DGPB_TEXEL_R32UINT, DGPB_ACCESS_READ_WRITE, ""},
        {DGPB_TEXEL_RGBA32FLOAT, DGPB_ACCESS_WRITE, ""},
        {DGPB_TEXEL_RGBA32FLOAT, DGPB_ACCESS_READ_WRITE, "texture-formats-tier2"},
        {DGPB_TEXEL_RGBA16FLOAT, DGPB_ACCESS_READ_WRITE, "texture-formats-tier2"},
        {DGPB_TEXEL_RGBA8UNORM, DGPB_ACCESS_READ_WRITE, "texture-formats-tier2"},
        {DGPB_TEXEL_R8UNORM, DGPB_ACCESS_READ, "texture-formats-tier1"},
        {DGPB_TEXEL_R8UNORM, DGPB_ACCESS_READ_WRITE, "texture-formats-tier2"},
        {DGPB_TEXEL_R16UNORM, DGPB_ACCESS_WRITE, "texture-formats-tier1"},
        {DGPB_TEXEL_RG11B10UFLOAT, DGPB_ACCESS_WRITE, "texture-formats-tier1"},
        {DGPB_TEXEL_RG32FLOAT, DGPB_ACCESS_READ, ""},
        {DGPB_TEXEL_RG32FLOAT, DGPB_ACCESS_READ_WRITE, NULL},
        {DGPB_TEXEL_RGBA8SNORM, DGPB_ACCESS_READ_WRITE, NULL},
        {DGPB_TEXEL_RG16FLOAT, DGPB_ACCESS_READ_WRITE, NULL},
        {DGPB_TEXEL_R64UINT, DGPB_ACCESS_WRITE, NULL},
        {DGPB_TEXEL_UNKNOWN, DGPB_ACCESS_WRITE, NULL},
        {DGPB_TEXEL_R32FLOAT, DGPB_ACCESS_NONE, NULL},
        {DGPB_TEXEL_FORMAT_END, DGPB_ACCESS_READ, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = dgpb_webgpu_storage_feature(cases[i].format, cases[i].access);
        if (!cases[i].feature ? got != NULL : !got || strcmp(got, cases[i].feature))
            fail_msg("format %u, access %u: '%s', expected '%s'", cases[i].format, cases[i].access,
                     got ? got : "(none)", cases[i].feature ? cases[i].feature : "(none)");
    }
    /* Every format of the table states both; none offers a read-write storage texture
       without also offering read-only and write-only ones. */
    for (uint32_t f = 1; f < DGPB_TEXEL_FORMAT_END; f++)
        if (dgpb_webgpu_storage_feature(f, DGPB_ACCESS_READ_WRITE))
            assert_non_null(dgpb_webgpu_storage_feature(f, DGPB_ACCESS_WRITE));
}

static void utf8_validation_rejects_malformed_sequences(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t len;
        bool ok;
        size_t bad;
    } rows[] = {
        {"plain", 5, true, 0},
        {"caf\xc3\xa9", 5, true, 0},
        {"\xe2\x82\xac", 3, true, 0},
        {"\xf0\x9f\x98\x80", 4, true, 0},
        {"a\xff", 2, false, 1},
        {"\xc0\xaf", 2, false, 0},         /* overlong '/' */
        {"\xed\xa0\x80", 3, false, 0},     /* surrogate */
        {"\xf4\x90\x80\x80", 4, false, 0}, /* above U+10FFFF */
        {"ab\xe2\x82", 4, false, 2},       /* truncated */
        {"a\0b", 3, false, 1},             /* NUL */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        size_t bad = 99;
        assert_int_equal(utf8_valid(rows[i].s, rows[i].len, &bad), rows[i].ok);
        if (!rows[i].ok)
            assert_int_equal(bad, rows[i].bad);
    }
}

/* The numbers a row's space and binding reserve have the vocabulary's names; others none. */
static void reserved_spaces_and_bindings_have_their_names(void **state)
{
    (void)state;
    assert_string_equal(dgpb_space_name(DGPB_SPACE_LAUNCH), "launch");
    assert_string_equal(dgpb_space_name(DGPB_SPACE_PIPELINE_CONSTANT), "pipeline_constant");
    assert_string_equal(dgpb_space_name(DGPB_SPACE_SHADER_RECORD), "shader_record");
    assert_string_equal(dgpb_binding_name(DGPB_BINDING_INLINE), "inline");
    assert_null(dgpb_space_name(0));
    assert_null(dgpb_space_name(0xFFFFFFFCu));
    assert_null(dgpb_binding_name(0));
    assert_null(dgpb_binding_name(DGPB_SPACE_PIPELINE_CONSTANT));
}

static void stems_replace_dots_and_default_to_main(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(dgpb_stem_from_module_path("a.b.c", out, sizeof out), 5);
    assert_string_equal(out, "a_b_c");
    dgpb_stem_from_module_path("", out, sizeof out);
    assert_string_equal(out, "main");
    dgpb_stem_from_module_path(NULL, out, sizeof out);
    assert_string_equal(out, "main");
    assert_int_equal(dgpb_stem_from_module_path("long.name", out, 5), 9);
    assert_string_equal(out, "long");
}

static void diagnostics_format_like_a_compiler(void **state)
{
    (void)state;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(d.offset, -1);
    assert_int_equal(dgpb_diag_set(&d, DGPB_ERR_CORRUPT_RANGE, 42, "bad %s", "thing"),
                     DGPB_ERR_CORRUPT_RANGE);
    assert_int_equal(dgpb_result_class(d.code), DGPB_ERR_CORRUPT);
    char buf[256];
    dgpb_diag_format(&d, buf, sizeof buf);
    assert_string_equal(buf, "error: bad thing (at byte 42)");
    dgpb_diag_set_file(&d, "x.dgpb");
    d.offset = -1;
    d.line = 3;
    d.column = 7;
    dgpb_diag_format(&d, buf, sizeof buf);
    assert_string_equal(buf, "x.dgpb:3:7: error: bad thing");
    assert_string_equal(dgpb_result_str(DGPB_ERR_BACKEND), "backend not compiled");
    assert_int_equal(dgpb_diag_set(NULL, DGPB_ERR_IO, -1, "ignored"), DGPB_ERR_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_round_trip_for_every_table),
        cmocka_unit_test(kinds_have_the_documented_numbers),
        cmocka_unit_test(backends_map_to_their_targets),
        cmocka_unit_test(targets_have_their_traits),
        cmocka_unit_test(targets_and_code_formats_round_trip),
        cmocka_unit_test(metal_allows_metallib_or_msl_and_others_their_own_name),
        cmocka_unit_test(webgpu_ids_follow_the_kind),
        cmocka_unit_test(webgpu_ids_follow_the_shape),
        cmocka_unit_test(input_attachment_and_texel_buffer_shapes_are_spelled_and_checked),
        cmocka_unit_test(absent_rows_have_nothing_but_their_kind),
        cmocka_unit_test(webgpu_storage_features_follow_the_format_and_access),
        cmocka_unit_test(utf8_validation_rejects_malformed_sequences),
        cmocka_unit_test(reserved_spaces_and_bindings_have_their_names),
        cmocka_unit_test(stems_replace_dots_and_default_to_main),
        cmocka_unit_test(diagnostics_format_like_a_compiler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
