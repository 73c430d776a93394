/*
 * dgpb/reflect.h - Slang's reflection JSON turned into classified parameters.
 *
 * dgpb-build asks Slang for reflection JSON with every compile
 * (-reflection-json) and reads it here. Only the core that every Slang
 * version writes is used (a parameter's name, binding and type; an entry
 * point's name, stage and thread group size; DECISIONS.md section 2): keys
 * this reader does not know are ignored, so a newer Slang's superset never
 * breaks it.
 *
 * Every module-scope parameter becomes one dgpb_reflected_param, in
 * declaration order; a constant buffer named like an entry's value block
 * ("<entry>_params", see dgpb_reflection_parse) is expanded in place into one
 * value row per field. Each parameter is classified into a dgpb_kind with its
 * space, binding, offset and size for the target, and (on wgsl) its WebGPU
 * binding-layout ID. A parameter whose shape the format cannot express is
 * kept with `kind` = -1 and a reason; the caller decides whether it matters
 * (only parameters an entry uses do).
 *
 * Ownership: dgpb_reflection_parse() returns one allocation tree freed with
 * dgpb_reflection_free().
 */
#ifndef DGPB_REFLECT_H
#define DGPB_REFLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dgpb_reflected_param {
    char *name;   /* the global's name, or the field's name for a value row */
    char *global; /* the module-scope variable it lives in (the constant buffer for values) */
    int kind;     /* dgpb_kind, or -1 when the shape has no kind (see `problem`) */
    uint32_t space;
    uint32_t binding;
    uint32_t offset;        /* value rows */
    uint32_t size;          /* value rows */
    uint32_t webgpu_layout; /* on wgsl; 0 elsewhere */
    char *shape;            /* readable type, e.g. "RWTexture2D<uint>", for messages */
    char *problem;          /* NULL, or why the parameter cannot be a row (kind -1) or has
                               no WebGPU descriptor (on wgsl) */
} dgpb_reflected_param;

typedef struct dgpb_reflected_entry {
    char *name;
    int stage;        /* dgpb_stage, or -1 for a stage the format has no name for */
    char *stage_name; /* as Slang wrote it; "" when it wrote none (Slang 2025.15 omits
                         the ray-tracing stages) */
    uint32_t thread_group_size[3];
} dgpb_reflected_entry;

typedef struct dgpb_reflection {
    dgpb_reflected_param *params;
    size_t param_count;
    dgpb_reflected_entry *entries;
    size_t entry_count;
} dgpb_reflection;

/*
 * Parses reflection JSON produced for `target` (a DGPB target name: spirv,
 * wgsl, metal, ptx, dxil, dxbc; the layout rules differ per target).
 * `value_blocks` lists the names of constant buffers whose fields are value
 * rows (each entry's "<entry>_params"); NULL for none. Loose `uniform`
 * globals are value rows of the implicit global block. DGPB_ERR_CORRUPT when
 * the text is not JSON or lacks the core structure, naming what is missing.
 */
int dgpb_reflection_parse(const char *json, size_t len, const char *target,
                          const char *const *value_blocks, size_t value_block_count,
                          dgpb_reflection **out, dgpb_diag *diag);

void dgpb_reflection_free(dgpb_reflection *r);

/* The first parameter whose name (or, with `by_global`, whose variable) is `name`, or NULL. */
const dgpb_reflected_param *dgpb_reflection_find(const dgpb_reflection *r, const char *name,
                                                 bool by_global);

#ifdef __cplusplus
}
#endif

#endif
