/*
 * code/wgsl/wgsl_ops.h - WGSL's side of the code-format seam
 * (code/code_format.h): the readers code/wgsl/wgsl_ops.c puts in its table
 * (internal).
 */
#ifndef DGPB_WGSL_OPS_H
#define DGPB_WGSL_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "code/code_features.h"

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define wgsl_features_read dgpb__wgsl_features_read

/* The `enable` (number 0) and `requires` (number 1) directives. */
int wgsl_features_read(const uint8_t *code, size_t n, dgpb_code_features *f, dgpb_diag *d);

#endif
