/*
 * code/code_format.h - the seam between dgpb and one code format: what the
 * rest of the library asks of SPIR-V, WGSL, PTX (and of the formats dgpb
 * does not read), as one table of facts and functions per code format.
 *
 * Each format that dgpb reads back lives in a folder of its own,
 * src/code/<format>/, whose <format>_ops.c defines its table; the registry
 * (code/code_formats.c) hands out a format's table by code format or by
 * target. The formats without a reader (dxbc, dxil, msl, metallib) share one
 * table whose facts are all false and whose functions read nothing. Callers
 * ask the table, never a target or code-format id: reflection
 * (tables/reflect.c), the parameter table (tables/params.c), the proof
 * (tables/binding_proof.c), capabilities (tables/capabilities.c), the C
 * header (header/c_header_types.c) and the runner.
 *
 * Adding a code format: a folder src/code/<format>/ with its readers and a
 * <format>_ops.c, one line in code_formats.c (CONTRIBUTING.md, "Add a
 * target").
 */
#ifndef DGPB_CODE_FORMAT_H
#define DGPB_CODE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/code_features.h"
#include "code/value_types.h"
#include "dgpb/format.h"
#include "dgpb/result.h"

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define code_ops_of dgpb__code_ops_of
#define code_ops_of_target dgpb__code_ops_of_target
#define code_spirv_ops dgpb__code_spirv_ops
#define code_wgsl_ops dgpb__code_wgsl_ops
#define code_ptx_ops dgpb__code_ptx_ops
#define code_unread_ops dgpb__code_unread_ops

typedef struct code_ops {
    /* ---- where rows live (tables/reflect.c, tables/params.c) ---- */

    /* Resources are descriptors the code binds, and a global block's values and an entry's
       resources take the place the code gives them (row `place_from_code`): spirv, wgsl. */
    bool places_from_code;
    /* An entry's `uniform` values live in the launch space (push constants, kernel
       parameters): spirv, ptx. */
    bool entry_values_launch;
    /* Resources are handles in parameter memory: a block is a pointer at a byte offset, a
       resource's binding its byte offset, an array's elements its element stride apart, the
       global block's values inline; a specialization constant has no form (ptx). */
    bool memory_handles;
    /* Rows carry WebGPU binding-layout IDs, and the code has no push constants, binding arrays,
       bindless heaps or bools in uniform memory (wgsl). */
    bool webgpu;

    /* ---- the proof (tables/binding_proof.c) ---- */

    /* dgpb reads the code's bindings back and proves the table against them. */
    bool proved;
    /* How a message spells a descriptor's place: printf of (long long)space, binding. */
    const char *place_format;

    /* ---- the C header (header/c_header_types.c) ---- */

    /* Where a row's type is looked for in another target's code: lower ranks first. */
    unsigned type_rank;

    /* ---- features and capabilities (code/code_features.h, tables/capabilities.c) ---- */

    /* dgpb reads the features this format's code declares (else the build probes SPIR-V). */
    bool reads_features;
    /* Reads the features `code` declares into `out` (emptied by the caller). */
    int (*features_read)(const uint8_t *code, size_t size, dgpb_code_features *out, dgpb_diag *d);
    /* Whether feature `f` is the vocabulary's DGPB_CODE_FEATURE row (number, name). */
    bool (*feature_is)(const dgpb_code_feature *f, uint32_t number, const char *name);
    /* "SPIR-V capability Geometry (2)": feature `f` (its row's name, or NULL) for messages. */
    void (*feature_describe)(const dgpb_code_feature *f, const char *name, char *out, size_t size);

    /* ---- value types and layout (code/value_types.h) ---- */

    /* A value row's type; out is zeroed by the caller. */
    int (*type_find)(const uint8_t *code, size_t len, const char *entry, const dgpb_param_desc *row,
                     dgpb_code_type *out, dgpb_diag *diag);
    /* A uniform block's byte size; *out is 0 on entry. */
    int (*block_size_find)(const uint8_t *code, size_t len, const char *entry,
                           const dgpb_param_desc *row, uint32_t *out, dgpb_diag *diag);
    /* A storage texture's texel format (a static WebGPU name); *out is NULL on entry. */
    int (*storage_format_find)(const uint8_t *code, size_t len, const char *entry,
                               const dgpb_param_desc *row, const char **out, dgpb_diag *diag);
} code_ops;

/* The table of code format `format` (a format of no reader, or out of range: the unread one). */
const code_ops *code_ops_of(dgpb_code_format format);

/* The table of target `target`'s code format (dgpb_target_code_format). */
const code_ops *code_ops_of_target(dgpb_target_id target);

extern const code_ops code_spirv_ops;  /* code/spirv/spirv_ops.c */
extern const code_ops code_wgsl_ops;   /* code/wgsl/wgsl_ops.c */
extern const code_ops code_ptx_ops;    /* code/ptx/ptx_ops.c */
extern const code_ops code_unread_ops; /* code/code_formats.c */

#endif
