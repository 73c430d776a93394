/*
 * header/c_header_types.h - the C type of a value row, for the C header
 * (header/c_header.h).
 *
 * The type comes from the row's own code (code/value_types.h); where that
 * code does not state it (ptx values inside SLANG_globalParams are bytes),
 * from the same row of the same entry on another target of the bundle
 * (spirv first, then wgsl, then the others) when its size is the row's.
 * A C type is made only where C can spell the code's layout with
 * fixed-width types and arrays whose size is the row's size: a scalar
 * (`float`, `int32_t`, ...), a vector `T name[N]`, a matrix `T name[M][K]`
 * (K the matrix stride in elements, padding included), an array of those;
 * otherwise the member is `uint8_t name[size]`.
 */
#ifndef DGPB_C_HEADER_TYPES_H
#define DGPB_C_HEADER_TYPES_H

#define c_header_types_block_size dgpb__c_header_types_block_size
#define c_header_types_find dgpb__c_header_types_find
#define c_header_types_free dgpb__c_header_types_free
#define c_header_types_fields dgpb__c_header_types_fields
#define c_header_types_init dgpb__c_header_types_init
#define c_type_from_value dgpb__c_type_from_value
#define c_type_text dgpb__c_type_text

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/reader.h"
#include "dgpb/result.h"
#include "code/value_fields.h"
#include "code/value_types.h"

/* A member's C type: `base name dims;`, e.g. `float tint[4];`. */
typedef struct c_type {
    bool known;           /* false: the member is bytes */
    bool aggregate;       /* the code states a struct (bytes, with a note) */
    char base[520];       /* "float", "int32_t", ..., a struct's typedef name */
    char dims[48];        /* "", "[4]", "[3][4]", ... */
    uint32_t align;       /* of base: a member's offset must be a multiple of it */
    uint32_t size;        /* bytes */
    dgpb_code_type value; /* as the code states it */
    char text[96];        /* a struct's type as a note ("struct Light[2]"); "" for the others */
} c_type;

/* The type lookups of one header; the first failure is kept. */
typedef struct c_header_types {
    const dgpb_bundle *b;
    int rc;
    dgpb_diag *diag;
} c_header_types;

int c_header_types_init(c_header_types *ts, const dgpb_bundle *b, dgpb_diag *diag);
void c_header_types_free(c_header_types *ts);

/*
 * The C type of row `row` of entry `e` of target `t`: out->known false
 * when no target's code states one that C can spell at the row's size. A
 * code blob that cannot be read sets ts->rc and ts->diag (the first only).
 */
void c_header_types_find(c_header_types *ts, const dgpb_target_view *t, const dgpb_entry_view *e,
                         uint32_t row, c_type *out);

/*
 * The fields of row `row` of entry `e` of target `t` when it holds a struct
 * (or an array of structs), or of a structured buffer row's element struct
 * (code/value_fields.h), into *out (code_fields_free
 * it): its own code's, else the same row's on another target (spirv first,
 * then wgsl) laid out by `t`'s code format's rules where they fill the row
 * (code_fields_lend: ptx). out->root -1 when none. A code blob that cannot
 * be read sets ts->rc.
 */
void c_header_types_fields(c_header_types *ts, const dgpb_target_view *t, const dgpb_entry_view *e,
                           uint32_t row, code_fields *out);

/*
 * The byte size the code of entry `e` of target `t` gives the uniform block
 * that holds value row `row` (its tail padding included: code/value_types.h,
 * code_block_size_find), in *size; 0 when the code does not say (PTX, push
 * constants). A code blob that cannot be read sets ts->rc.
 */
void c_header_types_block_size(c_header_types *ts, const dgpb_target_view *t,
                               const dgpb_entry_view *e, uint32_t row, uint32_t *size);

/* The C spelling of a value type `v` that occupies `size` bytes; false when C cannot spell it. */
bool c_type_from_value(const dgpb_code_type *v, uint32_t size, c_type *out);

/* The code's type as a note ("f32", "u32x4", "f32 3x4 column_major, [column][row]", ...), for a
   member's comment. */
void c_type_text(const c_type *c, char *buf, size_t size);

#endif
