/*
 * code/value_types.h - the type of a value row, read from the shipped code.
 *
 * v0 rows carry no type (docs/format.md). Whoever needs one (dgpb-run to
 * turn "2" into bytes, the C header dgpb-build writes, a test's WebGPU
 * runner) reads it here from the blob the row describes, never from how a
 * number is spelled:
 *
 *   - SPIR-V: the member at the row's `offset` of the block variable at the
 *     row's `space`/`binding` (DescriptorSet/Binding decorations), of the
 *     PushConstant variable (space DGPB_SPACE_LAUNCH), or the OpSpecConstant*
 *     whose SpecId is the row's `binding` (space DGPB_SPACE_PIPELINE_CONSTANT);
 *   - WGSL: the member at the row's `offset` of the struct of the
 *     `var<uniform>` at @group(space) @binding(binding), or the `override`
 *     whose @id is the row's `binding`;
 *   - PTX: the kernel parameter at the row's `offset` (space
 *     DGPB_SPACE_LAUNCH) when PTX gives it a float type (`.f32`, `.f64`);
 *     nvcc declares `int` and `uint` parameters alike as `.u32`, so an
 *     integer's signedness is not in PTX; values inside SLANG_globalParams or
 *     a block's memory are bytes in PTX, so their type is unknown there.
 *
 * A type the code does not state is DGPB_SCALAR_UNKNOWN with DGPB_OK: the
 * caller decides (dgpb-run asks for `TYPE:`; the header may take the type of
 * the same row on another target of the bundle). Only code that cannot be
 * read is an error.
 */
#ifndef DGPB_VALUE_TYPES_H
#define DGPB_VALUE_TYPES_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define code_block_size_find dgpb__code_block_size_find
#define code_storage_format_find dgpb__code_storage_format_find
#define code_texel_format dgpb__code_texel_format
#define code_texel_format_count dgpb__code_texel_format_count
#define code_type_find dgpb__code_type_find
#define code_type_text dgpb__code_type_text
#define code_matrix_storage_name dgpb__code_matrix_storage_name
#define code_array_storage_name dgpb__code_array_storage_name
#define code_type_lend dgpb__code_type_lend

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/format.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Where a row points, as the code's readers need it: a producer's row
 * (bundle/model.h) or a host's view (dgpb/reader.h) copied into it. The code
 * formats know nothing else of a row.
 */
typedef struct code_row {
    uint32_t kind;    /* dgpb_kind */
    uint32_t space;   /* set / group, DGPB_SPACE_LAUNCH or DGPB_SPACE_PIPELINE_CONSTANT */
    uint32_t binding; /* binding, or a pipeline constant's id */
    uint32_t offset;  /* a value's byte offset in its block */
    uint32_t size;    /* a value's byte size */
} code_row;

typedef enum dgpb_scalar {
    DGPB_SCALAR_UNKNOWN = 0, /* the code does not say (bytes, or an aggregate: see `aggregate`) */
    DGPB_SCALAR_BOOL,
    DGPB_SCALAR_INT,
    DGPB_SCALAR_UINT,
    DGPB_SCALAR_FLOAT
} dgpb_scalar;

typedef struct dgpb_code_type {
    dgpb_scalar scalar;
    uint32_t bits;          /* of one scalar: 8, 16, 32 or 64 */
    uint32_t columns;       /* a vector's components; a matrix's columns as Slang declares it
                               (float3x4: 4); 1 for a scalar */
    uint32_t rows;          /* a matrix's rows as Slang declares it (float3x4: 3); 1 otherwise */
    uint32_t matrix_stride; /* bytes from one stored vector of a matrix to the next */
    bool column_major;      /* the matrix is stored column by column: `columns` vectors of `rows`
                               scalars (else row by row: `rows` vectors of `columns`) */
    uint32_t array_count;   /* elements of an array value; 0 when not an array */
    uint32_t array_stride;  /* bytes from one array element to the next */
    bool aggregate;         /* a struct (or an array of structs): scalar is UNKNOWN; its fields:
                               code/value_fields.h */
} dgpb_code_type;

/*
 * Matrices are described as Slang declares them, rows and columns (a
 * float3x4 has 3 rows of 4), whatever the target's own names, and stored
 * row by row, or column by column when `column_major` (slangc
 * -matrix-layout-column-major, a `column_major` declaration): `rows` vectors
 * of `columns` scalars, or `columns` vectors of `rows` scalars,
 * `matrix_stride` bytes apart (a stored vector may be padded: a column of 3
 * in a std140 block takes 16 bytes). Where the code states it:
 *   - SPIR-V's OpTypeMatrix of N vectors of K (Slang writes a float NxK so,
 *     its names being the transpose of SPIR-V's), column-major when its
 *     member is decorated RowMajor; MatrixStride;
 *   - WGSL's matCxR (a float CxR), row-major;
 *   - Slang's storage wrappers of a matrix in a block, in SPIR-V (OpName)
 *     and WGSL alike: a struct named _MatrixStorage_<type><R>x<C>[_ColMajor]
 *     <layout> whose one member is an array of the stored vectors, trusted
 *     only when the array's shape is the one the name says (R vectors of at
 *     least C scalars, or C of at least R); its stride is the matrix stride.
 * Bools are 32 bits wide in a block (1 byte in CUDA's, where a type is lent:
 * code_type_lend).
 *
 * Arrays are described by their logical element: a `float arr[2]` of a std140
 * block is f32[2], array_stride 16, wherever the code pads each element.
 * SPIR-V states that element (an OpTypeArray of float, ArrayStride 16); WGSL
 * cannot (its uniform arrays need a stride that is a multiple of 16), so
 * Slang stores the array through a wrapper struct named
 * _Array_std140_<element><count> whose one member is an array<vec4<T>, N>,
 * and the element is the name's (code_array_storage_name), trusted only when
 * the array has the shape the name says.
 *
 * The type of value row `row` of an entry in `code` (a blob of `format`), or
 * the element type of a structured buffer row (`buffer`, `rw_buffer`) where
 * the code states it (SPIR-V: the scalar or vector of the runtime array in
 * the storage block at the row's `space`/`binding`; WGSL: of the array<E> of
 * the var<storage> there; other formats: unknown).
 * `entry` names the entry point (a blob may hold several). DGPB_OK with
 * out->scalar = DGPB_SCALAR_UNKNOWN when the code does not state it;
 * DGPB_ERR_CORRUPT only when the code cannot be read.
 */
int code_type_find(dgpb_code_format format, const uint8_t *code, size_t len, const char *entry,
                   const code_row *row, dgpb_code_type *out, dgpb_diag *diag);

/*
 * "f32", "u32x4", "f32 3x4" (rows x columns), "f32 3x4 column_major", "f32
 * 4x4[2]" ... into buf: how messages and headers spell a type.
 */
void code_type_text(const dgpb_code_type *t, char *buf, size_t size);

/*
 * The type another target's code gives a row lends to a target whose code
 * keeps the row as `size` bytes (PTX's SLANG_globalParams and .b8
 * parameters): its scalar type, and a matrix's shape and layout packed
 * tightly when they fill the row (Slang lays a matrix out row by row, or
 * column by column, alike on every target; CUDA packs a row or column
 * tightly). False when `from` states no scalar type.
 */
bool code_type_lend(const dgpb_code_type *from, uint32_t size, dgpb_code_type *out);

/*
 * Whether `name` (len bytes) is the name of Slang's storage wrapper of a
 * matrix in a buffer layout ("_MatrixStorage_float3x4std140",
 * "_MatrixStorage_float3x4_ColMajorstd430", WGSL's "..._0"), and its rows,
 * columns (1 to 4) and layout. The caller proves the wrapper's shape.
 */
bool code_matrix_storage_name(const char *name, size_t len, uint32_t *rows, uint32_t *columns,
                              bool *column_major);

/*
 * Whether `name` (len bytes) is the name of Slang's storage wrapper of an
 * array in a buffer layout, and the element and count it names:
 * "_Array_std140_float2" (SPIR-V's OpName: two floats), WGSL's
 * "_Array_std140_float2_0", "_Array_std430_int16_t3", a vector's
 * "_Array_std140_vector<float,2>3" (WGSL: "_Array_std140_vectorx3Cfloatx2C2x3E3_0").
 * Fills elem's scalar, bits and columns (1 to 4; rows 1) and *count. Arrays of
 * matrices or structs are not named so (their elements are wrappers or structs
 * of their own). The caller proves the wrapper's shape.
 */
bool code_array_storage_name(const char *name, size_t len, dgpb_code_type *elem, uint32_t *count);

/*
 * The byte size the code gives the uniform block at row `row`'s
 * `space`/`binding`, tail padding included (docs/format.md, "A block's
 * size"; SPIR-V: the end of the block struct's last member rounded up to the
 * struct's std140 alignment; WGSL: SizeOf the var<uniform>'s type) in *out; 0 when the code does not say (PTX, or no such block).
 * DGPB_ERR_CORRUPT only when the code cannot be read.
 */
int code_block_size_find(dgpb_code_format format, const uint8_t *code, size_t len,
                         const char *entry, const code_row *row, uint32_t *out, dgpb_diag *diag);

/*
 * The texel format the code declares for the storage texture at row `row`'s
 * `space`/`binding`, in WebGPU's spelling ("rgba8unorm", "r32float", ...),
 * in *out (a static string); NULL when the code does not state one (SPIR-V's
 * Unknown format) or the format has no WebGPU name. SPIR-V: the ImageFormat
 * of the variable's OpTypeImage; WGSL: texture_storage_*<FORMAT, ...>; other
 * formats: NULL. DGPB_ERR_CORRUPT only when the code cannot be read.
 */
int code_storage_format_find(dgpb_code_format format, const uint8_t *code, size_t len,
                             const char *entry, const code_row *row, const char **out,
                             dgpb_diag *diag);

/* The static string of texel format `name` (DGPB_TEXEL_FORMAT); NULL when not there. */
const char *code_texel_format(const char *name);

#ifdef __cplusplus
}
#endif

#endif
