/*
 * code/wgsl/wgsl_bindings.h - the bindings of WGSL, from its scan and its
 * text (code/code_bindings.h has the list's form).
 */
#ifndef DGPB_WGSL_BINDINGS_H
#define DGPB_WGSL_BINDINGS_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define code_bindings_add_wgsl_layouts dgpb__code_bindings_add_wgsl_layouts
#define code_bindings_from_wgsl dgpb__code_bindings_from_wgsl
#define code_wgsl_shape dgpb__code_wgsl_shape

#include "code/code_bindings.h"
#include "code/wgsl/wgsl_scan.h"
#include "dgpb/result.h"

/* From a WGSL scan: every binding it found, in source order. */
int code_bindings_from_wgsl(const dgpb_wgsl_module *m, dgpb_code_bindings *out, dgpb_diag *diag);

/*
 * The shape word a WGSL texture or sampler binding states (dgpb/format.h),
 * from its class, dimension, sample type, texel format and access; 0 for
 * any other binding. code_bindings_from_wgsl() fills each binding's `shape`
 * with it.
 */
uint32_t code_wgsl_shape(const dgpb_code_binding *c);

/*
 * Completes bindings read from a WGSL scan with what WGSL's layout rules say
 * of the same `text`: each var<uniform>'s struct members (`members`,
 * `member_count`) and each var<storage>'s element stride (`element_stride`),
 * as the SPIR-V reader gives them, so that one proof covers both targets.
 */
int code_bindings_add_wgsl_layouts(dgpb_code_bindings *b, const char *text, size_t len,
                                   dgpb_diag *diag);

#endif
