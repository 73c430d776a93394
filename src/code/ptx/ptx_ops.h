/*
 * code/ptx/ptx_ops.h - PTX's side of the code-format seam
 * (code/code_format.h): the readers code/ptx/ptx_ops.c puts in its table
 * (internal).
 */
#ifndef DGPB_PTX_OPS_H
#define DGPB_PTX_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "code/code_features.h"
#include "code/value_fields.h"

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define ptx_features_read dgpb__ptx_features_read
#define ptx_fields_lend dgpb__ptx_fields_lend

/* The words of the first `.target` directive: `sm_NN` (number NN) and its options. */
int ptx_features_read(const uint8_t *code, size_t n, dgpb_code_features *f, dgpb_diag *d);

/*
 * code/code_format.h's fields_lend for PTX (code/ptx/ptx_fields.c): the
 * fields another target gives a row, laid out again as Slang's CUDA code
 * lays its structs out (C's rules over CUDA's vector types), in *out (zeroed
 * by the caller); false, why in `why`, when they do not fill `size` bytes.
 */
bool ptx_fields_lend(const code_fields *from, uint32_t size, code_fields *out, char *why,
                     size_t why_size);

#endif
