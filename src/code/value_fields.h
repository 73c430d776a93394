/*
 * code/value_fields.h - the fields of a struct value, read from the shipped
 * code (docs/format.md, "Value types"; the rule for giving them is
 * docs/run.md, "Values").
 *
 * A value row may hold a struct, or an array of structs (`uniform Rect
 * rect`, a ConstantBuffer's `Light lights[2]`). v0 rows carry no type, so a
 * host that gives such a value field by field (`--set rect.x=1`), or whole
 * in field order, or writes it as a C struct, reads its fields here from the
 * blob the row describes:
 *
 *   - SPIR-V: the member of the block (as code/value_types.h finds it) whose
 *     type is an OpTypeStruct, or an OpTypeArray of one: each member's
 *     OpMemberName, its Offset, its type (ArrayStride, MatrixStride,
 *     RowMajor), nested structs and arrays of them alike. Slang's wrappers
 *     of a std140 array (a struct named _Array_std140_* of one array member)
 *     are that array, its storage wrappers of a matrix (_MatrixStorage_*,
 *     code/value_types.h) that matrix;
 *   - WGSL: the struct declarations of the var<uniform>'s type, laid out by
 *     WGSL's alignment and size rules (@align, @size), the same wrappers
 *     read alike; a name Slang suffixed `_0` (`x_0`, `Rect_std140_0`) is
 *     given without its suffix;
 *   - PTX states no struct types: a row keeps its struct as bytes. The same
 *     row on another target of the bundle lends its fields
 *     (code_fields_lend): their names and types, laid out again by the
 *     borrowing format's rules (CUDA's natural layout, ptx/ptx_fields.c),
 *     and only where that layout fills the row exactly.
 *
 * A structured buffer row (`buffer`, `rw_buffer`) whose elements are a
 * struct of the module's own (`RWStructuredBuffer<Particle>`) has that
 * struct's fields the same way, as if the row held one element: root its
 * struct, count 0, the struct's size the array's stride as the code gives
 * it (SPIR-V: the runtime array's ArrayStride, a std430 `float3` aligned to
 * 16; WGSL: the array<E>'s element stride), which is the row's `size`. A
 * `uniform_buffer` row has its block's struct (an element's, for a
 * `ConstantBuffer<S> name[N]`, whose rows no value row describes), its size
 * the block's std140 size.
 *
 * A struct's name loses Slang's layout suffix (`Light_std140` is `Light`).
 * A struct of one member is a struct here (a field path reaches its
 * member), though code_type_find() gives the row its member's type.
 */
#ifndef DGPB_VALUE_FIELDS_H
#define DGPB_VALUE_FIELDS_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define code_fields_find dgpb__code_fields_find
#define code_fields_lend dgpb__code_fields_lend
#define code_fields_free dgpb__code_fields_free
#define code_fields_add_struct dgpb__code_fields_add_struct
#define code_fields_add_field dgpb__code_fields_add_field
#define code_fields_copy_name dgpb__code_fields_copy_name
#define code_fields_root dgpb__code_fields_root
#define code_fields_walk dgpb__code_fields_walk
#define code_fields_visit dgpb__code_fields_visit
#define code_node_text dgpb__code_node_text

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/value_types.h"
#include "dgpb/format.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bounds on what one row's fields may hold: more is refused (DGPB_ERR_LIMIT). */
#define CODE_FIELDS_MAX_STRUCTS 256
#define CODE_FIELDS_MAX_FIELDS 4096
#define CODE_FIELDS_MAX_DEPTH 16

/* One field of a struct. */
typedef struct code_field {
    char *name;          /* as the module declares it; owned by the list */
    uint32_t offset;     /* bytes from the start of its struct */
    uint32_t size;       /* bytes it takes: an array's count x stride, a struct's padded size */
    dgpb_code_type type; /* a scalar, vector or matrix, or an array of them; for a struct or an
                            array of structs `aggregate` (array_count, array_stride its array's);
                            scalar UNKNOWN and not aggregate: the code does not say */
    int32_t of;          /* aggregate: its struct (its elements'), an index of structs; else -1 */
} code_field;

/* One struct type. */
typedef struct code_struct {
    char *name;            /* its name in the code without Slang's suffixes ("Light") */
    uint32_t size;         /* bytes, its tail padding included: its stride in an array */
    uint32_t align;        /* by the code's layout rules; 1 where they do not say */
    uint32_t first, count; /* its fields: fields[first] ... fields[first + count - 1], in
                              declaration order (which is offset order) */
} code_struct;

/* The structs of one value row. Zero it before use; code_fields_free() frees it. */
typedef struct code_fields {
    code_struct *structs;
    uint32_t struct_count;
    code_field *fields;
    uint32_t field_count;
    size_t struct_cap, field_cap;
    int32_t root;   /* the struct the row holds (an array of structs: its element's); -1 none */
    uint32_t count; /* the row is an array of `count` structs `stride` bytes apart; 0: one */
    uint32_t stride;
} code_fields;

/*
 * The fields of value row `row` of entry `entry` in `code` (a blob of
 * `format`), or of a structured buffer row's element (above), into *out (zeroed here; code_fields_free() it, also after a
 * failure). out->root is -1 when the row holds no struct or the format
 * states none (PTX); DGPB_ERR_CORRUPT only when the code cannot be read,
 * DGPB_ERR_LIMIT past the bounds above, DGPB_ERR_NOMEM.
 */
int code_fields_find(dgpb_code_format format, const uint8_t *code, size_t len, const char *entry,
                     const code_row *row, code_fields *out, dgpb_diag *diag);

/*
 * The fields another target's code gives a row (`from`) lent to a row of
 * `size` bytes of code format `to`, which states none: the same names and
 * types laid out by `to`'s rules, in *out (zeroed here; code_fields_free()
 * it). False, with why in `why`, when `to` has no rules of its own (its
 * fields are not lent) or the layout does not fill `size` bytes exactly
 * (then the fields cannot be the code's).
 */
bool code_fields_lend(dgpb_code_format to, const code_fields *from, uint32_t size, code_fields *out,
                      char *why, size_t why_size);

/* Frees what *f holds and zeroes it; NULL is a no-op. */
void code_fields_free(code_fields *f);

/* ---- for the readers that fill a list ---- */

/*
 * Adds a struct named `name` (len bytes, Slang's suffixes left out here) of
 * `count` fields `fields` (their names copied; `of` indices of structs added
 * before). Its index in *index. DGPB_ERR_NOMEM, DGPB_ERR_LIMIT.
 */
int code_fields_add_struct(code_fields *f, const char *name, size_t len, uint32_t size,
                           uint32_t align, const code_field *fields, uint32_t count, int32_t *index,
                           dgpb_diag *diag);

/* A field's name (len bytes) as the list keeps it: Slang's WGSL suffix `_N` left out when
   `wgsl`; malloc'd, NULL without memory. */
char *code_fields_copy_name(const char *name, size_t len, bool wgsl);

/* ---- reading a list ---- */

/*
 * A place in a row's value: a field, an element of an array, the row
 * itself. `type` as code_field's; `of` the struct of an aggregate, else -1.
 */
typedef struct code_node {
    uint32_t offset; /* bytes from the row's start */
    uint32_t size;
    dgpb_code_type type;
    int32_t of;
} code_node;

/* The row itself as a node (out->of == f->root; an aggregate when the row holds a struct). */
void code_fields_root(const code_fields *f, uint32_t row_size, code_node *out);

/*
 * Where `path` leads from node `from`: "" (the node), ".x", "[1]",
 * "[1].color", ... a struct's field by '.', an array's element by [index]
 * (decimal). DGPB_OK with *out; DGPB_ERR_NOT_FOUND with what is wrong in
 * `why` ("struct Rect has no field 'z' (its fields: x, y, w, h)",
 * "index 2 is past the 2 elements of Light[2]", "i32 has no fields").
 */
int code_fields_walk(const code_fields *f, const code_node *from, const char *path, code_node *out,
                     char *why, size_t why_size);

/*
 * Calls `fn` for each node below `from` in the order a value is given whole:
 * a struct's fields in declaration order, an array of structs element by
 * element, each field of a scalar, vector or matrix type (or an array of
 * them) once as a leaf (`leaf` true); with `structs`, struct fields and
 * elements too (leaf false), before what they hold, and arrays of structs
 * once, as `[i]` (never element by element). `path` is the node's path from
 * `from` (".lights[1].color"). Stops at the first non-zero return of `fn`,
 * and returns it; deeper than CODE_FIELDS_MAX_DEPTH is not visited.
 */
typedef int (*code_fields_fn)(void *ctx, const code_node *node, const char *path, bool leaf);
int code_fields_visit(const code_fields *f, const code_node *from, bool structs, code_fields_fn fn,
                      void *ctx);

/* A node's type as messages spell it: "f32x3", "struct Light", "struct Light[2]". */
void code_node_text(const code_fields *f, const code_node *n, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
