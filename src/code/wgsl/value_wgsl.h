/*
 * value_wgsl.h - the type of a value row in WGSL: the member of a
 * var<uniform>'s struct at the row's offset, by WGSL's alignment and size
 * rules, or an `override` by its @id (internal; code/value_types.h).
 */
#ifndef DGPB_VALUE_WGSL_H
#define DGPB_VALUE_WGSL_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define value_wgsl_type dgpb__value_wgsl_type
#define value_wgsl_block_size dgpb__value_wgsl_block_size
#define value_wgsl_block_members dgpb__value_wgsl_block_members
#define value_wgsl_element_stride dgpb__value_wgsl_element_stride
#define value_wgsl_fields dgpb__value_wgsl_fields

#include <stddef.h>

#include "code/spirv/spirv_analysis.h" /* dgpb_spirv_member */
#include "code/value_fields.h"
#include "code/value_types.h"

/*
 * Fills *t (zeroed by the caller) for value row `row` of the WGSL `text`:
 * space DGPB_SPACE_PIPELINE_CONSTANT is the `override` whose @id is the
 * row's binding; any other space the var<uniform> at @group(space)
 * @binding(binding); a structured buffer row (buffer, rw_buffer) the scalar
 * or vector element of the array<E> of the var<storage> there. Leaves *t unknown when the code does not say; an error
 * only when the text cannot be read (DGPB_ERR_CORRUPT, DGPB_ERR_LIMIT).
 */
int value_wgsl_type(const char *text, size_t len, const code_row *row, dgpb_code_type *t,
                    dgpb_diag *diag);

/* SizeOf the type of the var<uniform> at the row's @group/@binding in *size; 0 when none. */
int value_wgsl_block_size(const char *text, size_t len, const code_row *row, uint32_t *size,
                          dgpb_diag *diag);

/*
 * The members (byte offset and size, in declaration order) of the struct of
 * the var<uniform> at @group(group) @binding(binding), by WGSL's rules, in
 * *out (the caller frees it) and *count; none when there is no such var or
 * its type is no struct. An error only when the text cannot be read.
 */
int value_wgsl_block_members(const char *text, size_t len, uint32_t group, uint32_t binding,
                             dgpb_spirv_member **out, uint32_t *count, dgpb_diag *diag);

/* The element stride (roundUp(AlignOf(E), SizeOf(E))) of the array<E> of the var<storage> at
   @group(group) @binding(binding) in *stride; 0 when none. */
int value_wgsl_element_stride(const char *text, size_t len, uint32_t group, uint32_t binding,
                              uint32_t *stride, dgpb_diag *diag);

/*
 * The fields of the struct (or array of structs) value row `row` holds in the
 * var<uniform> at its @group/@binding, by WGSL's rules, into *out (zeroed,
 * root -1, by the caller; code/value_fields.h). An error only when the text
 * cannot be read.
 */
int value_wgsl_fields(const char *text, size_t len, const code_row *row, code_fields *out,
                      dgpb_diag *diag);

#endif
