/*
 * test_value_types.c - the type of a value row and the texel format of a
 * storage texture, read back from the code (code/value_types.h).
 *
 * The input is real Slang (2025.15) output: fixtures/values/values.slang,
 * a cbuffer's fields, a ConstantBuffer<S> of vectors, a matrix, an array,
 * 64- and 16-bit values, a global uniform, entry-point uniforms (push
 * constants), a specialization constant and an rgba8 storage texture,
 * compiled with
 *
 *   tools/slangc-wasm/slangc-wasm fixtures/values/values.slang -target spirv \
 *       -entry k -stage compute -o fixtures/values/values.spv
 *   tools/slangc-wasm/slangc-wasm fixtures/values/values.slang -target wgsl -DWGSL \
 *       -entry k -stage compute -o fixtures/values/values.wgsl
 *   tools/slangc-wasm/slangc-wasm fixtures/values/values.slang -target ptx \
 *       -entry k -stage compute -o fixtures/values/values.ptx
 *
 * Rows are written as the build places them (docs/format.md): space/binding
 * of the block, the field's offset and size.
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
#include "code/value_fields.h"
#include "code/value_types.h"
#include "support.h"

#define L DGPB_SPACE_LAUNCH
#define P DGPB_SPACE_PIPELINE_CONSTANT

/* One row and the type text the code gives it. */
typedef struct want_type {
    uint32_t space, binding, offset, size;
    const char *text;
} want_type;

static void check_types(dgpb_code_format format, const char *path, const want_type *w, size_t n)
{
    size_t len = 0;
    uint8_t *code = support_read_source_file(path, &len);
    assert_non_null(code);
    for (size_t i = 0; i < n; i++) {
        code_row row = {.kind = DGPB_KIND_VALUE,
                        .space = w[i].space,
                        .binding = w[i].binding,
                        .offset = w[i].offset,
                        .size = w[i].size};
        dgpb_code_type t;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = code_type_find(format, code, len, "k", &row, &t, &diag);
        if (rc)
            fail_msg("%s: %s", path, diag.message);
        char text[64];
        code_type_text(&t, text, sizeof text);
        if (strcmp(text, w[i].text))
            fail_msg("%s: row %zu (space %u binding %u offset %u size %u): got '%s', want '%s'",
                     path, i, w[i].space, w[i].binding, w[i].offset, w[i].size, text, w[i].text);
    }
    dgpb_free(code);
}

static void test_spirv_types(void **state)
{
    (void)state;
    static const want_type w[] = {
        {0, 0, 0, 4, "f32"},        /* uniform float a (globalParams) */
        {0, 1, 0, 4, "u32"},        /* cbuffer Dims: count */
        {0, 1, 4, 4, "f32"},        /* scale */
        {0, 1, 8, 4, "i32"},        /* offset */
        {0, 1, 12, 4, "u32"},       /* pad (unused by the code) */
        {0, 2, 0, 16, "f32x4"},     /* extra.tint */
        {0, 2, 16, 48, "f32 3x4"},  /* extra.m: float3x4, three stored rows */
        {0, 2, 64, 48, "i32x2[3]"}, /* extra.span: int2[3], std140 stride 16 */
        {0, 2, 80, 8, "i32x2"},     /* one element of it */
        {0, 2, 112, 8, "u64"},      /* extra.big */
        {0, 2, 120, 8, "f64"},      /* extra.precise */
        {0, 2, 128, 2, "i16"},      /* extra.tiny */
        {0, 2, 130, 2, "f16"},      /* extra.small */
        {L, 0, 0, 4, "f32"},        /* uniform float bias (push constants) */
        {L, 0, 8, 8, "u32x2"},      /* uniform uint2 size */
        {L, 0, 16, 32, "f32 2x3"},  /* uniform float2x3 rot (std430) */
        {P, 3, 0, 4, "u32"},        /* [vk::constant_id(3)] const uint N */
        {P, 7, 0, 4, "unknown"},    /* no such constant */
        {0, 9, 0, 4, "unknown"},    /* no such block */
        {0, 3, 0, 4, "unknown"},    /* a storage buffer is no value */
    };
    check_types(DGPB_CODE_FORMAT_SPIRV, "fixtures/values/values.spv", w, sizeof w / sizeof w[0]);
}

static void test_wgsl_types(void **state)
{
    (void)state;
    static const want_type w[] = {
        {0, 0, 0, 4, "f32"},        /* globalParams_0.a_0 */
        {0, 1, 0, 4, "u32"},        /* Dims_0.count_0 */
        {0, 1, 4, 4, "f32"},        /* @align(4) scale_0 */
        {0, 1, 8, 4, "i32"},        /* @align(8) offset_0 */
        {0, 1, 12, 4, "u32"},       /* pad_0 */
        {0, 2, 0, 16, "f32x4"},     /* extra_0.tint_0 */
        {0, 2, 16, 48, "f32 3x4"},  /* extra_0.m_0 */
        {0, 2, 64, 48, "i32x2[3]"}, /* extra_0.span_0: Slang's wrapper pads each int2 to a vec4 */
        {0, 2, 112, 2, "f16"},      /* extra_0.small_0 */
        {0, 5, 0, 4, "f32"},        /* entryPointParams_0.bias_0 */
        {0, 5, 8, 8, "u32x2"},      /* size_0 */
        {0, 5, 16, 32, "f32 2x3"},  /* rot_0: two rows of three, each padded to a vec4 */
        {P, 3, 0, 4, "u32"},        /* @id(3) override N_0 */
        {P, 4, 0, 4, "unknown"},    {0, 3, 0, 4, "unknown"}, /* var<storage>: no value */
    };
    check_types(DGPB_CODE_FORMAT_WGSL, "fixtures/values/values.wgsl", w, sizeof w / sizeof w[0]);
}

static void test_ptx_types(void **state)
{
    (void)state;
    static const want_type w[] = {
        {L, 0, 0, 4, "f32"},     /* .param .f32 k_param_0 */
        {L, 0, 8, 8, "unknown"}, /* .param .align 8 .b8 k_param_1[8]: bytes */
        {L, 0, 16, 24, "unknown"},
        {0, 0, 0, 4, "unknown"}, /* SLANG_globalParams: bytes */
    };
    check_types(DGPB_CODE_FORMAT_PTX, "fixtures/values/values.ptx", w, sizeof w / sizeof w[0]);
}

/* Hand-made WGSL for WGSL's own layout rules: vec3 alignment, matrices, @size, runtime arrays. */
static void test_wgsl_layout_rules(void **state)
{
    (void)state;
    static const char text[] =
        "struct Inner { a : vec3<f32>, b : f32 }\n"
        "struct U {\n"
        "  x : f32,\n"
        "  v : vec3f,\n"           /* offset 16 (align 16) */
        "  m : mat2x3<f32>,\n"     /* offset 32: two columns of vec3, stride 16 */
        "  @size(16) h : vec2h,\n" /* offset 64 */
        "  i : Inner,\n"           /* offset 80, size 16 */
        "  n : array<Inner, 2>,\n" /* offset 96 */
        "  t : atomic<u32>,\n"     /* offset 128 */
        "}\n"
        "@group(1) @binding(2) var<uniform> u : U;\n"
        "@id(0) override flag : bool;\n"
        "@compute @workgroup_size(1) fn main() { let y = u.x; }\n";
    static const struct {
        uint32_t space, binding, offset, size;
        const char *text;
    } w[] = {
        {1, 2, 0, 4, "f32"},         {1, 2, 16, 12, "f32x3"},  {1, 2, 32, 32, "f32 2x3"},
        {1, 2, 64, 16, "f16x2"},     {1, 2, 80, 16, "struct"}, {1, 2, 92, 4, "f32"},
        {1, 2, 96, 32, "struct[2]"}, {1, 2, 112, 12, "f32x3"}, {1, 2, 128, 4, "u32"},
        {P, 0, 0, 4, "bool"},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        code_row row = {
            .space = w[i].space, .binding = w[i].binding, .offset = w[i].offset, .size = w[i].size};
        dgpb_code_type t;
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        assert_int_equal(code_type_find(DGPB_CODE_FORMAT_WGSL, (const uint8_t *)text, strlen(text),
                                        "main", &row, &t, &diag),
                         DGPB_OK);
        char buf[64];
        code_type_text(&t, buf, sizeof buf);
        if (strcmp(buf, w[i].text))
            fail_msg("row %zu (offset %u): got '%s', want '%s'", i, w[i].offset, buf, w[i].text);
        if (i == 2) {
            assert_int_equal(t.matrix_stride, 16);
            assert_false(t.column_major);
        }
    }
}

/* A matrix value's shape and storage, as the code states them. */
typedef struct want_matrix {
    uint32_t space, binding, offset, size;
    const char *text;
    uint32_t stride;
} want_matrix;

static void check_matrices(dgpb_code_format format, const char *path, const want_matrix *w,
                           size_t n)
{
    size_t len = 0;
    uint8_t *code = support_read_source_file(path, &len);
    assert_non_null(code);
    for (size_t i = 0; i < n; i++) {
        code_row row = {.kind = DGPB_KIND_VALUE,
                        .space = w[i].space,
                        .binding = w[i].binding,
                        .offset = w[i].offset,
                        .size = w[i].size};
        dgpb_code_type t;
        char text[64];
        assert_int_equal(code_type_find(format, code, len, "k", &row, &t, NULL), DGPB_OK);
        code_type_text(&t, text, sizeof text);
        if (strcmp(text, w[i].text) || t.matrix_stride != w[i].stride)
            fail_msg("%s: row %zu (offset %u): got '%s' stride %u, want '%s' stride %u", path, i,
                     w[i].offset, text, t.matrix_stride, w[i].text, w[i].stride);
    }
    dgpb_free(code);
}

/*
 * fixtures/values/matrices.slang: Slang stores a block's matrices through wrappers whose
 * names say the layout, and their arrays hold the rows or the columns; a wrapper whose
 * shape is not the one its name says is no matrix (below). Slang 2025.15 lays an array of
 * `column_major` matrices out row-major: the code, not the declaration, says so.
 */
static void matrices_are_read_with_their_layout_from_slangs_wrappers(void **state)
{
    (void)state;
    static const want_matrix spirv[] = {
        {0, 0, 0, 48, "f32 3x4", 16},                /* r: three rows of four */
        {0, 0, 48, 64, "f32 3x4 column_major", 16},  /* c: four columns of three */
        {0, 0, 112, 32, "f32 2x2 column_major", 16}, /* d: square; the name tells */
        {0, 0, 144, 32, "f32 2x2", 16},              /* e */
        {0, 0, 176, 96, "f32 3x4[2]", 16},           /* arr: Slang's row-major wrappers */
        {L, 0, 0, 24, "f32 2x3 column_major", 8},    /* pc: std430, three columns of two */
    };
    check_matrices(DGPB_CODE_FORMAT_SPIRV, "fixtures/values/matrices.spv", spirv,
                   sizeof spirv / sizeof spirv[0]);
    static const want_matrix wgsl[] = {
        {0, 0, 0, 48, "f32 3x4", 16},                /* array<vec4<f32>, 3> */
        {0, 0, 48, 64, "f32 3x4 column_major", 16},  /* array<vec4<f32>, 4>: a column in a vec4 */
        {0, 0, 112, 32, "f32 2x2 column_major", 16}, /* array<vec4<f32>, 2> */
        {0, 0, 144, 32, "f32 2x2", 16},
        {0, 2, 0, 48, "f32 2x3 column_major", 16}, /* entryPointParams_0.pc_0 (std140) */
    };
    check_matrices(DGPB_CODE_FORMAT_WGSL, "fixtures/values/matrices.wgsl", wgsl,
                   sizeof wgsl / sizeof wgsl[0]);
    /* Native slangc 2026.16's form: OpTypeMatrix, ColMajor (Slang's row-major) or RowMajor. */
    static const want_matrix native[] = {
        {0, 0, 0, 48, "f32 3x4", 16},
        {0, 0, 48, 64, "f32 3x4 column_major", 16},
    };
    check_matrices(DGPB_CODE_FORMAT_SPIRV, "fixtures/values/matrices_native.spv", native,
                   sizeof native / sizeof native[0]);
}

/* A struct named like a wrapper but not shaped like the matrix its name says is no matrix. */
static void a_wrapper_name_on_another_shape_is_no_matrix(void **state)
{
    (void)state;
    static const char text[] =
        "struct _MatrixStorage_float3x4std140_0 { @align(16) data_0 : array<vec4<f32>, i32(4)>, }\n"
        "struct _MatrixStorage_float3x4_ColMajorstd140_0 { @align(16) data_1 : array<vec2<f32>, "
        "i32(4)>, }\n"
        "struct _MatrixStorage_float2x2std140_0 { a : vec4<f32>, b : vec4<f32>, }\n"
        "struct U { a : _MatrixStorage_float3x4std140_0, b : "
        "_MatrixStorage_float3x4_ColMajorstd140_0,\n"
        "  c : _MatrixStorage_float2x2std140_0, }\n"
        "@group(0) @binding(0) var<uniform> u : U;\n";
    static const struct {
        uint32_t offset, size;
        const char *text;
    } w[] = {{0, 64, "f32x4[4]"}, {64, 32, "f32x2[4]"}, {96, 32, "struct"}};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        code_row row = {.offset = w[i].offset, .size = w[i].size};
        dgpb_code_type t;
        char buf[64];
        assert_int_equal(code_type_find(DGPB_CODE_FORMAT_WGSL, (const uint8_t *)text, strlen(text),
                                        "main", &row, &t, NULL),
                         DGPB_OK);
        code_type_text(&t, buf, sizeof buf);
        if (strcmp(buf, w[i].text))
            fail_msg("row %zu: got '%s', want '%s'", i, buf, w[i].text);
    }
    static const char N16[] = "_MatrixStorage_int16_t3x4_ColMajornatural_0",
                      N5[] = "_MatrixStorage_float5x4std140", NP[] = "MatrixStorage_float3x4std140";
    uint32_t rows, columns;
    bool column_major;
    assert_true(code_matrix_storage_name(N16, strlen(N16), &rows, &columns, &column_major));
    assert_int_equal(rows, 3);
    assert_int_equal(columns, 4);
    assert_true(column_major);
    assert_false(code_matrix_storage_name(N5, strlen(N5), &rows, &columns, &column_major));
    assert_false(code_matrix_storage_name(NP, strlen(NP), &rows, &columns, &column_major));
}

/* A target that keeps a row as bytes (ptx) borrows a matrix's shape and layout, packed tightly. */
static void a_matrix_is_lent_packed_tightly(void **state)
{
    (void)state;
    dgpb_code_type c = {.scalar = DGPB_SCALAR_FLOAT,
                        .bits = 32,
                        .rows = 3,
                        .columns = 4,
                        .column_major = true,
                        .matrix_stride = 16}; /* std140: 64 bytes */
    dgpb_code_type t;
    char text[64];
    assert_true(code_type_lend(&c, 48, &t));
    code_type_text(&t, text, sizeof text);
    assert_string_equal(text, "f32 3x4 column_major");
    assert_int_equal(t.matrix_stride, 12);   /* a column of three floats */
    assert_true(code_type_lend(&c, 64, &t)); /* it does not fill 64 bytes tightly */
    code_type_text(&t, text, sizeof text);
    assert_string_equal(text, "f32");
    c.column_major = false;
    assert_true(code_type_lend(&c, 48, &t));
    assert_int_equal(t.matrix_stride, 16); /* a row of four */
    dgpb_code_type v = {.scalar = DGPB_SCALAR_INT, .bits = 32, .rows = 1, .columns = 2};
    assert_true(code_type_lend(&v, 8, &t));
    code_type_text(&t, text, sizeof text);
    assert_string_equal(text, "i32"); /* a vector lends its scalar type */
    dgpb_code_type unknown = {0};
    assert_false(code_type_lend(&unknown, 4, &t));
}

/* The text of the type the code in `path` gives a row of `kind`. */
static void type_of(dgpb_code_format format, const uint8_t *code, size_t len, uint32_t kind,
                    const want_type *w, char *text, size_t size)
{
    code_row row = {.kind = kind,
                    .space = w->space,
                    .binding = w->binding,
                    .offset = w->offset,
                    .size = w->size};
    dgpb_code_type t;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (code_type_find(format, code, len, "k", &row, &t, &diag))
        fail_msg("%s", diag.message);
    code_type_text(&t, text, size);
}

/*
 * fixtures/values/arrays.slang: an array of a std140 block is its logical
 * elements at their stride on both formats, whether the code pads them in
 * place (SPIR-V's ArrayStride 16) or through Slang's wrapper of vec4s (WGSL's
 * _Array_std140_float2_0): float weights[2] is f32[2], 16 bytes apart, and one
 * element of it an f32.
 */
static void arrays_are_read_as_their_logical_elements(void **state)
{
    (void)state;
    static const want_type both[] = {
        {0, 0, 0, 32, "f32[2]"},       /* weights */
        {0, 0, 16, 4, "f32"},          /* its second element */
        {0, 0, 32, 32, "f32x2[2]"},    /* offsets */
        {0, 0, 64, 48, "u32[3]"},      /* counts */
        {0, 0, 112, 32, "i32x3[2]"},   /* spans */
        {0, 0, 144, 32, "f32x4[2]"},   /* plain: a float4 needs no padding */
        {0, 0, 176, 48, "f32 3x3"},    /* basis */
        {0, 0, 224, 96, "f32 3x3[2]"}, /* frames: wrappers of matrices */
    };
    static const struct {
        dgpb_code_format format;
        const char *path;
        want_type extra; /* uniform float extra[2]: std430 push constants, or std140 */
    } files[] = {{DGPB_CODE_FORMAT_SPIRV, "fixtures/values/arrays.spv", {L, 0, 0, 8, "f32[2]"}},
                 {DGPB_CODE_FORMAT_WGSL, "fixtures/values/arrays.wgsl", {0, 3, 0, 32, "f32[2]"}}};
    for (size_t f = 0; f < 2; f++) {
        size_t len = 0;
        uint8_t *code = support_read_source_file(files[f].path, &len);
        assert_non_null(code);
        char text[64];
        for (size_t i = 0; i < sizeof both / sizeof both[0]; i++) {
            type_of(files[f].format, code, len, DGPB_KIND_VALUE, &both[i], text, sizeof text);
            if (strcmp(text, both[i].text))
                fail_msg("%s: row %zu (offset %u): got '%s', want '%s'", files[f].path, i,
                         both[i].offset, text, both[i].text);
        }
        code_row weights = {.kind = DGPB_KIND_VALUE, .offset = 0, .size = 32};
        dgpb_code_type t;
        assert_int_equal(code_type_find(files[f].format, code, len, "k", &weights, &t, NULL),
                         DGPB_OK);
        assert_int_equal(t.array_stride, 16);
        type_of(files[f].format, code, len, DGPB_KIND_VALUE, &files[f].extra, text, sizeof text);
        assert_string_equal(text, files[f].extra.text);
        code_row extra = {.kind = DGPB_KIND_VALUE,
                          .space = files[f].extra.space,
                          .binding = files[f].extra.binding,
                          .size = files[f].extra.size};
        assert_int_equal(code_type_find(files[f].format, code, len, "k", &extra, &t, NULL),
                         DGPB_OK);
        assert_int_equal(t.array_stride, f == 0 ? 4 : 16);
        /* A structured buffer's element type, stated by both formats' code. */
        static const want_type pairs = {0, 2, 0, 8, "i32x2"}, result = {0, 1, 0, 4, "f32"};
        type_of(files[f].format, code, len, DGPB_KIND_BUFFER, &pairs, text, sizeof text);
        assert_string_equal(text, "i32x2");
        type_of(files[f].format, code, len, DGPB_KIND_RW_BUFFER, &result, text, sizeof text);
        assert_string_equal(text, "f32");
        dgpb_free(code);
    }
}

/* A struct named like an array's wrapper but not shaped like the array its name says is none. */
static void a_wrapper_name_on_another_shape_is_no_array(void **state)
{
    (void)state;
    static const char text[] =
        "struct _Array_std140_float2_0 { @align(16) data_0 : array<vec4<f32>, i32(3)>, }\n"
        "struct _Array_std140_float3_0 { @align(16) data_1 : array<vec4<i32>, i32(3)>, }\n"
        "struct _Array_std140_vectorx3Cfloatx2C3x3E2_0 { data_2 : array<vec2<f32>, i32(2)>, }\n"
        "struct U { a : _Array_std140_float2_0, b : _Array_std140_float3_0,\n"
        "  c : _Array_std140_vectorx3Cfloatx2C3x3E2_0, }\n"
        "@group(0) @binding(0) var<uniform> u : U;\n";
    static const want_type w[] = {{0, 0, 0, 48, "f32x4[3]"},   /* three, not two */
                                  {0, 0, 48, 48, "i32x4[3]"},  /* ints, not floats */
                                  {0, 0, 96, 16, "f32x2[2]"}}; /* two, not three, per element */
    char buf[64];
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        type_of(DGPB_CODE_FORMAT_WGSL, (const uint8_t *)text, strlen(text), DGPB_KIND_VALUE, &w[i],
                buf, sizeof buf);
        if (strcmp(buf, w[i].text))
            fail_msg("row %zu: got '%s', want '%s'", i, buf, w[i].text);
    }
    static const struct {
        const char *name, *elem;
        uint32_t count;
    } names[] = {
        {"_Array_std140_float2", "f32", 2},   /* SPIR-V's OpName */
        {"_Array_std140_float2_0", "f32", 2}, /* WGSL's */
        {"_Array_std430_int16_t3", "i16", 3}, /* not int then "16_t3" */
        {"_Array_std140_uint64_t12_3", "u64", 12},
        {"_Array_std140_vector<float,2>3", "f32x2", 3},
        {"_Array_std140_vectorx3Cintx2C3x3E2_0", "i32x3", 2},
        {"_Array_std140_bool4", "bool", 4},
        {"_Array_std140_float", NULL, 0},  /* no count */
        {"_Array_std140_float0", NULL, 0}, /* none */
        {"_Array_std140_float2_", NULL, 0},
        {"_Array_std140_vectorx3Cfloatx2C5x3E2_0", NULL, 0},
        {"_Array_std140_matrixx3Cfloatx2C3x2C3x3E2_0", NULL, 0}, /* its elements are wrappers */
        {"_Array_scalar_float2", NULL, 0},
        {"_MatrixStorage_float2x2std140", NULL, 0},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        dgpb_code_type t = {0};
        uint32_t count = 0;
        bool is = code_array_storage_name(names[i].name, strlen(names[i].name), &t, &count);
        if (is != (names[i].elem != NULL))
            fail_msg("'%s': %s an array's wrapper", names[i].name, is ? "read as" : "not read as");
        if (!is)
            continue;
        code_type_text(&t, buf, sizeof buf);
        if (strcmp(buf, names[i].elem) || count != names[i].count)
            fail_msg("'%s': %s[%u], want %s[%u]", names[i].name, buf, count, names[i].elem,
                     names[i].count);
    }
}

/*
 * fixtures/values/bools.slang: SPIR-V keeps a bool of a block as a 32-bit int,
 * which the code reads only to compare it with zero; an int the code reads so
 * reads as a bool too (`truth`: the code cannot tell them apart), one it reads
 * as a number, or never, stays an int, and a uint is never a bool.
 */
static void bools_are_read_from_how_the_code_reads_them(void **state)
{
    (void)state;
    static const want_type w[] = {
        {0, 0, 0, 4, "bool"},      /* on */
        {0, 0, 4, 4, "bool"},      /* int truth, read only as truth != 0 */
        {0, 0, 8, 8, "boolx2"},    /* pair: one component read */
        {0, 0, 16, 4, "i32"},      /* count: added */
        {0, 0, 20, 4, "i32"},      /* unused: never read, the code cannot say */
        {0, 0, 24, 4, "u32"},      /* mask */
        {0, 0, 32, 48, "bool[3]"}, /* many: one element read, by a dynamic index */
        {0, 0, 92, 4, "bool"},     /* light.enabled, in a nested struct */
        {0, 0, 96, 4, "i32"},      /* spare */
        {L, 0, 0, 4, "bool"},      /* uniform bool negate: a push constant */
        {L, 0, 4, 4, "i32"},       /* uniform int index: an index */
    };
    check_types(DGPB_CODE_FORMAT_SPIRV, "fixtures/values/bools.spv", w, sizeof w / sizeof w[0]);
}

/* A bool is lent as wide as the row keeps it: 32 bits in SPIR-V's block, a byte in CUDA's. */
static void a_bool_is_lent_as_wide_as_its_row(void **state)
{
    (void)state;
    dgpb_code_type b = {.scalar = DGPB_SCALAR_BOOL, .bits = 32, .rows = 1, .columns = 1}, t;
    assert_true(code_type_lend(&b, 1, &t));
    assert_int_equal(t.scalar, DGPB_SCALAR_BOOL);
    assert_int_equal(t.bits, 8);
    assert_true(code_type_lend(&b, 4, &t));
    assert_int_equal(t.bits, 32);
    b.columns = 2;
    assert_true(code_type_lend(&b, 2, &t)); /* a bool2 of CUDA: two bytes */
    assert_int_equal(t.bits, 8);
    char text[16];
    code_type_text(&b, text, sizeof text);
    assert_string_equal(text, "boolx2");
}

static void test_storage_formats(void **state)
{
    (void)state;
    static const struct {
        dgpb_code_format format;
        const char *path;
    } files[] = {{DGPB_CODE_FORMAT_SPIRV, "fixtures/values/values.spv"},
                 {DGPB_CODE_FORMAT_WGSL, "fixtures/values/values.wgsl"}};
    for (size_t i = 0; i < 2; i++) {
        size_t len = 0;
        uint8_t *code = support_read_source_file(files[i].path, &len);
        assert_non_null(code);
        code_row img = {.kind = DGPB_KIND_RW_TEXTURE, .binding = 4};
        code_row buf = {.kind = DGPB_KIND_RW_BUFFER, .binding = 3};
        const char *f = "x";
        assert_int_equal(code_storage_format_find(files[i].format, code, len, "k", &img, &f, NULL),
                         DGPB_OK);
        assert_non_null(f);
        assert_string_equal(f, "rgba8unorm");
        assert_int_equal(code_storage_format_find(files[i].format, code, len, "k", &buf, &f, NULL),
                         DGPB_OK);
        assert_null(f);
        dgpb_free(code);
    }
}

static void test_block_sizes(void **state)
{
    (void)state;
    static const struct {
        dgpb_code_format format;
        const char *path;
        uint32_t binding, size;
    } w[] = {
        {DGPB_CODE_FORMAT_SPIRV, "fixtures/values/values.spv", 1, 16}, /* cbuffer Dims */
        /* extra.small ends at 132; the std140 struct's tail padding to 16 (Slang: 144) */
        {DGPB_CODE_FORMAT_SPIRV, "fixtures/values/values.spv", 2, 144},
        {DGPB_CODE_FORMAT_SPIRV, "fixtures/values/values.spv", 3, 0}, /* a storage buffer */
        {DGPB_CODE_FORMAT_WGSL, "fixtures/values/values.wgsl", 1, 16},
        {DGPB_CODE_FORMAT_WGSL, "fixtures/values/values.wgsl", 2, 128}, /* SizeOf: align 16 */
        {DGPB_CODE_FORMAT_WGSL, "fixtures/values/values.wgsl", 3, 0},
        {DGPB_CODE_FORMAT_PTX, "fixtures/values/values.ptx", 1, 0},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        size_t len = 0;
        uint8_t *code = support_read_source_file(w[i].path, &len);
        assert_non_null(code);
        code_row row = {.kind = DGPB_KIND_UNIFORM_BUFFER, .binding = w[i].binding};
        uint32_t size = 99;
        assert_int_equal(code_block_size_find(w[i].format, code, len, "k", &row, &size, NULL),
                         DGPB_OK);
        if (size != w[i].size)
            fail_msg("%s binding %u: size %u, want %u", w[i].path, w[i].binding, size, w[i].size);
        dgpb_free(code);
    }
}

static void test_unreadable_code_is_corrupt(void **state)
{
    (void)state;
    static const uint8_t junk[24] = {1, 2, 3, 4};
    code_row row = {.size = 4};
    dgpb_code_type t;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    assert_int_equal(
        code_type_find(DGPB_CODE_FORMAT_SPIRV, junk, sizeof junk, "k", &row, &t, &diag),
        DGPB_ERR_CORRUPT);
    assert_contains(diag.message, "SPIR-V");
    static const char bad[] = "struct S { a : f32 ";
    dgpb_diag_clear(&diag);
    assert_int_not_equal(code_type_find(DGPB_CODE_FORMAT_WGSL, (const uint8_t *)bad, strlen(bad),
                                        "k", &row, &t, &diag),
                         DGPB_OK);
    /* A format without a reader: unknown, not an error. */
    assert_int_equal(code_type_find(DGPB_CODE_FORMAT_DXIL, junk, sizeof junk, "k", &row, &t, &diag),
                     DGPB_OK);
    assert_int_equal(t.scalar, DGPB_SCALAR_UNKNOWN);
}

/* ---- struct values' fields (code/value_fields.h) ---- */

typedef struct dump {
    const code_fields *f;
    char text[2048];
    size_t n;
} dump;

static int dump_node(void *ctx, const code_node *node, const char *path, bool leaf)
{
    dump *d = ctx;
    char type[96];
    code_node_text(d->f, node, type, sizeof type);
    (void)leaf;
    int k = snprintf(d->text + d->n, sizeof d->text - d->n, "%s%s %s @%u+%u", d->n ? "; " : "",
                     path, type, node->offset, node->size);
    if (k > 0)
        d->n += (size_t)k;
    return 0;
}

/* "TYPE: path type @offset+size; ..." of the fields of row (space, binding, offset, size). */
static void fields_text(dgpb_code_format format, const uint8_t *code, size_t len,
                        const code_row *row, char *out, size_t size)
{
    code_fields f;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = code_fields_find(format, code, len, "k", row, &f, &diag);
    if (rc)
        fail_msg("code_fields_find: %s", diag.message);
    dump d = {.f = &f};
    code_node root;
    code_fields_root(&f, row->size, &root);
    char type[96];
    code_node_text(&f, &root, type, sizeof type);
    assert_int_equal(code_fields_visit(&f, &root, true, dump_node, &d), 0);
    snprintf(out, size, "%s: %s", type, d.text);
    code_fields_free(&f);
}

typedef struct want_fields {
    uint32_t space, binding, offset, size;
    const char *text;
} want_fields;

static void check_fields(dgpb_code_format format, const char *path, const want_fields *w, size_t n)
{
    size_t len = 0;
    uint8_t *code = support_read_source_file(path, &len);
    assert_non_null(code);
    for (size_t i = 0; i < n; i++) {
        code_row row = {.kind = DGPB_KIND_VALUE,
                        .space = w[i].space,
                        .binding = w[i].binding,
                        .offset = w[i].offset,
                        .size = w[i].size};
        char text[2200];
        fields_text(format, code, len, &row, text, sizeof text);
        if (strcmp(text, w[i].text))
            fail_msg("%s: row %zu (space %u binding %u offset %u size %u):\n got  '%s'\n want '%s'",
                     path, i, w[i].space, w[i].binding, w[i].offset, w[i].size, text, w[i].text);
    }
    dgpb_free(code);
}

static void struct_fields_are_read_from_spirv(void **state)
{
    (void)state;
    static const want_fields w[] = {
        /* uniform Rect rect, uniform Inner pair: push constants (std430) */
        {L, 0, 0, 16, "struct Rect: .x i32 @0+4; .y i32 @4+4; .w i32 @8+4; .h i32 @12+4"},
        {L, 0, 16, 16, "struct Inner: .uv f32x2 @0+8; .id i32 @8+4"},
        /* material.lights: Light[2] inside Slang's _Array_std140_Light2 wrapper, stride 16 */
        {0, 0, 16, 32, "struct Light[2]: [i].color f32x3 @0+12; [i].intensity f32 @12+4"},
        /* cbuffer Params' outer (std140): nested structs padded to 16, a matrix of each layout
           through Slang's storage wrappers, a float[3] of stride 16 */
        {0, 1, 0, 224,
         "struct Outer: .inner struct Inner @0+16; .inner.uv f32x2 @0+8; .inner.id i32 @8+4; "
         ".m f32 3x4 @16+48; .list struct Inner[2] @64+32; .list[i].uv f32x2 @64+8; "
         ".list[i].id i32 @72+4; .one struct One @96+16; .one.only f32 @96+4; .s f32 @112+4; "
         ".arr f32[3] @128+48; .cm f32 2x3 column_major @176+48"},
        {0, 1, 224, 8, "unknown:  unknown @0+8"}, /* tail: a float2, no struct */
        {0, 0, 0, 16, "unknown:  unknown @0+16"}, /* material.tint */
    };
    check_fields(DGPB_CODE_FORMAT_SPIRV, "fixtures/values/structs.spv", w, sizeof w / sizeof w[0]);
}

static void struct_fields_are_read_from_wgsl(void **state)
{
    (void)state;
    static const want_fields w[] = {
        /* entryPointParams_0 (std140 in WGSL): names without Slang's _0 and _std140 */
        {0, 3, 0, 16, "struct Rect: .x i32 @0+4; .y i32 @4+4; .w i32 @8+4; .h i32 @12+4"},
        {0, 3, 16, 16, "struct Inner: .uv f32x2 @0+8; .id i32 @8+4"},
        {0, 0, 16, 32, "struct Light[2]: [i].color f32x3 @0+12; [i].intensity f32 @12+4"},
        /* the same as SPIR-V's: WGSL keeps a float of a std140 array in a vec4, through
           Slang's wrapper _Array_std140_float3_0, read as its logical floats */
        {0, 1, 0, 224,
         "struct Outer: .inner struct Inner @0+16; .inner.uv f32x2 @0+8; .inner.id i32 @8+4; "
         ".m f32 3x4 @16+48; .list struct Inner[2] @64+32; .list[i].uv f32x2 @64+8; "
         ".list[i].id i32 @72+4; .one struct One @96+16; .one.only f32 @96+4; .s f32 @112+4; "
         ".arr f32[3] @128+48; .cm f32 2x3 column_major @176+48"},
        {0, 1, 224, 8, "unknown:  unknown @0+8"},
    };
    check_fields(DGPB_CODE_FORMAT_WGSL, "fixtures/values/structs.wgsl", w, sizeof w / sizeof w[0]);
}

/* What a lent list reads as (fields_text's form). */
static void lent_text(const code_fields *f, uint32_t size, char *out, size_t n)
{
    dump d = {.f = f};
    code_node root;
    code_fields_root(f, size, &root);
    char type[96];
    code_node_text(f, &root, type, sizeof type);
    assert_int_equal(code_fields_visit(f, &root, true, dump_node, &d), 0);
    snprintf(out, n, "%s: %s", type, d.text);
}

/*
 * PTX states no struct types: SPIR-V's fields are lent and laid out by CUDA's rules (checked
 * by nvcc on Slang's CUDA code: float3 12 bytes aligned to 4, float2 aligned to 8, float4 to
 * 16; structs padded to their alignment), and taken only where they fill the ptx row, as
 * dgpb-build's reflection of the ptx target sized it (outer: 144 bytes).
 */
static void struct_fields_are_lent_to_ptx_by_cudas_layout(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *code = support_read_source_file("fixtures/values/structs.spv", &len);
    assert_non_null(code);
    code_row outer = {.kind = DGPB_KIND_VALUE, .binding = 1, .size = 224};
    code_row lights = {.kind = DGPB_KIND_VALUE, .offset = 16, .size = 32};
    code_fields f, lent;
    char why[160], text[2200];
    assert_int_equal(code_fields_find(DGPB_CODE_FORMAT_SPIRV, code, len, "k", &outer, &f, NULL),
                     DGPB_OK);
    assert_true(code_fields_lend(DGPB_CODE_FORMAT_PTX, &f, 144, &lent, why, sizeof why));
    lent_text(&lent, 144, text, sizeof text);
    assert_string_equal(
        text, "struct Outer: .inner struct Inner @0+16; .inner.uv f32x2 @0+8; .inner.id i32 @8+4; "
              ".m f32 3x4 @16+48; .list struct Inner[2] @64+32; .list[i].uv f32x2 @64+8; "
              ".list[i].id i32 @72+4; .one struct One @96+4; .one.only f32 @96+4; .s f32 @100+4; "
              ".arr f32[3] @104+12; .cm f32 2x3 column_major @120+24");
    code_fields_free(&lent);
    /* Another size: CUDA's layout does not fill it, so these cannot be the code's fields. */
    assert_false(code_fields_lend(DGPB_CODE_FORMAT_PTX, &f, 224, &lent, why, sizeof why));
    assert_string_equal(why,
                        "its fields take 144 bytes by CUDA's layout, but the row on ptx has 224");
    /* SPIR-V and WGSL state their own fields: nothing is lent to them. */
    assert_false(code_fields_lend(DGPB_CODE_FORMAT_WGSL, &f, 224, &lent, why, sizeof why));
    code_fields_free(&f);
    assert_int_equal(code_fields_find(DGPB_CODE_FORMAT_SPIRV, code, len, "k", &lights, &f, NULL),
                     DGPB_OK);
    assert_true(code_fields_lend(DGPB_CODE_FORMAT_PTX, &f, 32, &lent, why, sizeof why));
    lent_text(&lent, 32, text, sizeof text);
    assert_string_equal(text, "struct Light[2]: [i].color f32x3 @0+12; [i].intensity f32 @12+4");
    assert_int_equal(lent.stride, 16);
    code_fields_free(&lent);
    code_fields_free(&f);
    /* PTX's own code: no fields (its rows keep structs as bytes). */
    dgpb_free(code);
    code = support_read_source_file("fixtures/values/values.ptx", &len);
    code_row launch = {.kind = DGPB_KIND_VALUE, .space = L, .size = 4};
    assert_int_equal(code_fields_find(DGPB_CODE_FORMAT_PTX, code, len, "k", &launch, &f, NULL),
                     DGPB_OK);
    assert_int_equal(f.root, -1);
    dgpb_free(code);
}

/* Paths into a value: fields by '.', elements by [i]; what is wrong named. */
static void field_paths_lead_to_fields_and_elements(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *code = support_read_source_file("fixtures/values/structs.spv", &len);
    assert_non_null(code);
    code_row outer = {.kind = DGPB_KIND_VALUE, .binding = 1, .size = 224};
    code_fields f;
    assert_int_equal(code_fields_find(DGPB_CODE_FORMAT_SPIRV, code, len, "k", &outer, &f, NULL),
                     DGPB_OK);
    code_node root, n;
    code_fields_root(&f, 224, &root);
    char why[200], text[96];
    static const struct {
        const char *path, *text;
        uint32_t offset, size;
    } ok[] = {
        {"", "struct Outer", 0, 224},         {".inner", "struct Inner", 0, 16},
        {".inner.id", "i32", 8, 4},           {".list", "struct Inner[2]", 64, 32},
        {".list[1]", "struct Inner", 80, 16}, {".list[1].uv", "f32x2", 80, 8},
        {".arr[2]", "f32", 160, 4},           {".m", "f32 3x4", 16, 48},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        if (code_fields_walk(&f, &root, ok[i].path, &n, why, sizeof why))
            fail_msg("'%s': %s", ok[i].path, why);
        code_node_text(&f, &n, text, sizeof text);
        if (strcmp(text, ok[i].text) || n.offset != ok[i].offset || n.size != ok[i].size)
            fail_msg("'%s': %s @%u+%u, want %s @%u+%u", ok[i].path, text, n.offset, n.size,
                     ok[i].text, ok[i].offset, ok[i].size);
    }
    static const struct {
        const char *path, *why;
    } bad[] = {
        {".z", "struct Outer has no field 'z' (its fields: inner, m, list, one, s, arr, cm)"},
        {".list[2]", "index 2 is past the 2 elements of struct Inner[2]"},
        {".list.uv", "struct Inner[2] has no fields (no field 'uv'): give an element first, "
                     "[INDEX]"},
        {".s.x", "f32 has no fields (no field 'x')"},
        {".inner[0]", "struct Inner is no array: it has no element [0]"},
        {".list[x]", "'[x]' is no [index]"},
        {"x", "'x' is neither .FIELD nor [INDEX]"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(code_fields_walk(&f, &root, bad[i].path, &n, why, sizeof why),
                         DGPB_ERR_NOT_FOUND);
        if (strcmp(why, bad[i].why))
            fail_msg("'%s': got '%s', want '%s'", bad[i].path, why, bad[i].why);
    }
    code_fields_free(&f);
    dgpb_free(code);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spirv_types),
        cmocka_unit_test(test_wgsl_types),
        cmocka_unit_test(test_ptx_types),
        cmocka_unit_test(test_wgsl_layout_rules),
        cmocka_unit_test(matrices_are_read_with_their_layout_from_slangs_wrappers),
        cmocka_unit_test(a_wrapper_name_on_another_shape_is_no_matrix),
        cmocka_unit_test(a_matrix_is_lent_packed_tightly),
        cmocka_unit_test(arrays_are_read_as_their_logical_elements),
        cmocka_unit_test(a_wrapper_name_on_another_shape_is_no_array),
        cmocka_unit_test(bools_are_read_from_how_the_code_reads_them),
        cmocka_unit_test(a_bool_is_lent_as_wide_as_its_row),
        cmocka_unit_test(test_storage_formats),
        cmocka_unit_test(test_block_sizes),
        cmocka_unit_test(test_unreadable_code_is_corrupt),
        cmocka_unit_test(struct_fields_are_read_from_spirv),
        cmocka_unit_test(struct_fields_are_read_from_wgsl),
        cmocka_unit_test(struct_fields_are_lent_to_ptx_by_cudas_layout),
        cmocka_unit_test(field_paths_lead_to_fields_and_elements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
