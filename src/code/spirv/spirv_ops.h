/*
 * code/spirv/spirv_ops.h - SPIR-V's side of the code-format seam
 * (code/code_format.h): the readers code/spirv/spirv_ops.c puts in its table
 * (internal).
 */
#ifndef DGPB_SPIRV_OPS_H
#define DGPB_SPIRV_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "code/code_features.h"
#include "code/value_fields.h"
#include "code/value_types.h"

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define spirv_features_read dgpb__spirv_features_read
#define value_spirv_type dgpb__value_spirv_type
#define value_spirv_block_size dgpb__value_spirv_block_size
#define value_spirv_storage_format dgpb__value_spirv_storage_format
#define value_spirv_fields dgpb__value_spirv_fields

/* Every OpCapability, and the 8/16-bit storage capabilities its buffers need. */
int spirv_features_read(const uint8_t *code, size_t size, dgpb_code_features *f, dgpb_diag *d);

/* code/code_format.h's type_find, block_size_find, storage_format_find for SPIR-V. */
int value_spirv_type(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                     dgpb_code_type *t, dgpb_diag *diag);
int value_spirv_block_size(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                           uint32_t *out, dgpb_diag *diag);
int value_spirv_storage_format(const uint8_t *code, size_t len, const char *entry,
                               const code_row *row, const char **out, dgpb_diag *diag);
/* code/code_format.h's fields_find for SPIR-V (code/value_fields.h). */
int value_spirv_fields(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                       code_fields *out, dgpb_diag *diag);

#endif
