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
 * (tables/binding_proof.c), capabilities (code/capabilities.c), the C
 * header (header/c_header_types.c), the build's reading of a unit's
 * bindings and its checks (driver/) and the runner (its draws' vertex
 * attributes and fragment targets too).
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

#include "code/code_bindings.h"
#include "code/code_features.h"
#include "code/ptx/ptx_scan.h"
#include "code/spirv/spirv_analysis.h"
#include "code/stage_interface.h"
#include "code/value_fields.h"
#include "code/value_types.h"
#include "code/wgsl/wgsl_scan.h"
#include "dgpb/format.h"
#include "dgpb/result.h"

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define code_ops_of dgpb__code_ops_of
#define code_ops_of_target dgpb__code_ops_of_target
#define code_analysis_target dgpb__code_analysis_target
#define code_read_clear dgpb__code_read_clear
#define code_spirv_ops dgpb__code_spirv_ops
#define code_wgsl_ops dgpb__code_wgsl_ops
#define code_ptx_ops dgpb__code_ptx_ops
#define code_unread_ops dgpb__code_unread_ops

/* What a unit's code binds, read back for its table and its proof (code_ops.read_bindings). */
typedef struct code_read {
    dgpb_code_bindings bindings; /* descriptors, blocks and pipeline constants (spirv, wgsl) */
    bool have_bindings;          /* `bindings` were read: rows take their places from them */
    dgpb_ptx_module *ptx;        /* ptx: its kernels' parameters */
    dgpb_wgsl_module *wgsl;      /* wgsl: the scanned module, for WebGPU's entry checks */
} code_read;

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
    /* The code binds input attachments (SubpassInput: an input_attachment row); elsewhere they
       are refused by name (spirv). */
    bool input_attachments;

    /* ---- the proof (tables/binding_proof.c) ---- */

    /* dgpb reads the code's bindings back and proves the table against them. */
    bool proved;
    /* How a message spells a descriptor's place: printf of (long long)space, binding. */
    const char *place_format;

    /* Reads back what a unit's code binds into `out` (zeroed by the caller; code_read_clear
       frees it, also after a failure): `code` is the unit's code, `spirv` its SPIR-V analysis
       (NULL: none). DGPB_ERR_CORRUPT* for code that does not parse. */
    int (*read_bindings)(const uint8_t *code, size_t size, const dgpb_spirv_info *spirv,
                         code_read *out, dgpb_diag *d);

    /* ---- the build's checks (driver/) ---- */

    /* The build analyses this format's code for every entry (SPIR-V: capabilities, written
       variables, push-constant blocks); an entry of another target gets the analysis from this
       format's target or from a probe compiled to this format (code_analysis_target()). */
    bool analysed;
    /* The SPIR-V version its code declares (the header's version word, 0x00010500 for 1.5;
       0 when the code is too short to say): the build proves it is the one
       dgpb_build_desc.spirv_version asks for, and gives every compile to this format (and
       every layout recording of its target) that version's profile. NULL: the format
       declares none. */
    uint32_t (*spirv_version)(const void *code, size_t size);
    /* Validates a unit's code (SPIRV-Tools' validator), with scalar block layouts when
       `scalar_blocks` (the build's block layout asks for them); NULL: not validated. */
    int (*validate)(const void *code, size_t size, bool scalar_blocks, dgpb_diag *d);
    /* Why an entry name cannot be kept by this format's code (the rest of a message after
       "'<name>' "), or NULL when it can; NULL: every name can. */
    const char *(*name_refused)(const char *name);
    /* Why this format's code cannot hold an entry of `stage` (dgpb_stage), or NULL when it
       can ("WebGPU has compute, vertex and fragment shaders only"); NULL: every stage. A
       compute-only target (DGPB_TRAIT_COMPUTE_ONLY) leaves its other entries out instead. */
    const char *(*stage_refused)(uint32_t stage);
    /* A type this format's code cannot express among an entry's SPIR-V capabilities ("double
       (Float64)"), or NULL; what explains a compile to it that crashed or does not parse.
       NULL: every type. */
    const char *(*missing_type)(const uint32_t *capabilities, size_t count);
    /* The rest of that message after "which ": "WGSL cannot express (it has ...)". */
    const char *missing_type_note;
    /* A binding among an entry's SPIR-V variables (`spirv`) that this format's code cannot
       hold, described with why in `out` ("input attachment 'inColor' has no wgsl binding
       (WebGPU has no input attachments)"); false when there is none. What explains a compile to
       it that failed (Slang refuses the entry: its WGSL back end has no texel buffers or
       subpass inputs). NULL: every binding. */
    bool (*missing_binding)(const dgpb_spirv_info *spirv, char *out, size_t size);

    /* ---- the C header (header/c_header_types.c) ---- */

    /* Where a row's type is looked for in another target's code: lower ranks first. */
    unsigned type_rank;
    /* Its code states a structured buffer's element type (type_find answers for buffer rows). */
    bool element_types;

    /* ---- features and capabilities (code/code_features.h, code/capabilities.c) ---- */

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
    int (*type_find)(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                     dgpb_code_type *out, dgpb_diag *diag);
    /* A uniform block's byte size; *out is 0 on entry. */
    int (*block_size_find)(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                           uint32_t *out, dgpb_diag *diag);
    /* A storage texture's texel format (a static WebGPU name); *out is NULL on entry. */
    int (*storage_format_find)(const uint8_t *code, size_t len, const char *entry,
                               const code_row *row, const char **out, dgpb_diag *diag);

    /* ---- the fields of a struct value (code/value_fields.h) ---- */

    /* A value row's struct fields; out is zeroed (root -1) by the caller. NULL: the code
       states no struct types (its rows keep structs as bytes). */
    int (*fields_find)(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                       code_fields *out, dgpb_diag *diag);
    /* Another target's fields `from` laid out by this format's rules for a row of `size` bytes
       into *out (zeroed by the caller); false, why in `why`, when they do not fill it. NULL:
       this format's rows take no lent fields (they state their own, or none). */
    bool (*fields_lend)(const code_fields *from, uint32_t size, code_fields *out, char *why,
                        size_t why_size);

    /* ---- an entry's inputs and outputs (code/stage_interface.h) ---- */

    /* The user-defined inputs (`outputs` false) or outputs of the entry point of `code`; *vars
       NULL and *count 0 on entry. NULL: the code states none. */
    int (*interface_read)(const uint8_t *code, size_t size, bool outputs,
                          code_interface_var **vars, uint32_t *count, dgpb_diag *d);
} code_ops;

/* The table of code format `format` (a format of no reader, or out of range: the unread one). */
const code_ops *code_ops_of(dgpb_code_format format);

/* The table of target `target`'s code format (target_code_format). */
const code_ops *code_ops_of_target(dgpb_target_id target);

/* The target whose code format the build analyses (code_ops.analysed), or -1 when none. */
int code_analysis_target(void);

/* Frees what read_bindings read and zeroes `r`. NULL is a no-op. */
void code_read_clear(code_read *r);

extern const code_ops code_spirv_ops;  /* code/spirv/spirv_ops.c */
extern const code_ops code_wgsl_ops;   /* code/wgsl/wgsl_ops.c */
extern const code_ops code_ptx_ops;    /* code/ptx/ptx_ops.c */
extern const code_ops code_unread_ops; /* code/code_formats.c */

#endif
