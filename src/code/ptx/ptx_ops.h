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

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define ptx_features_read dgpb__ptx_features_read

/* The words of the first `.target` directive: `sm_NN` (number NN) and its options. */
int ptx_features_read(const uint8_t *code, size_t n, dgpb_code_features *f, dgpb_diag *d);

#endif
