/*
 * tables/binding_proof.h - proves a parameter table against the code it ships.
 *
 * A host binds from the table alone, so a binding the code declares without
 * a row is a resource the host leaves unbound. dgpb-build therefore checks
 * every (target, entry) before it writes anything, from the code itself:
 *
 *   spirv, wgsl  every binding the code declares (code/code_bindings.h) has
 *                rows at its (space, binding) of a compatible kind: one
 *                resource row, or value rows (a uniform block), or one
 *                uniform_buffer row; every row with a descriptor place has
 *                such a binding; value rows lie inside their block's bytes.
 *                SPIR-V push-constant blocks take the rows of space
 *                DGPB_SPACE_LAUNCH; WGSL has none. On wgsl each row's
 *                WebGPU ID must describe what the code declares (buffer
 *                access, texture dimension and sample type, storage texel
 *                format), and comparison samplers, depth and multisampled
 *                textures and bindings without @group/@binding are refused.
 *   ptx          every kernel parameter the code reads is covered by launch
 *                rows (space DGPB_SPACE_LAUNCH), and each launch row lies
 *                inside one kernel parameter; every row of space 0 lies
 *                inside SLANG_globalParams, which exists exactly when such
 *                rows (or reads of it) do.
 *
 * Rows the entry declares but its code does not use (dream mode's
 * <entry>_<param> globals; `in_code` false in tables/params.h) may lack a
 * binding. Targets without a reader (metal, dxil, dxbc) are not proved.
 *
 * The result is DGPB_OK or DGPB_ERR_SHADER with a message naming the target,
 * the entry, the code's variable and its binding, and the row.
 */
#ifndef DGPB_BINDING_PROOF_H
#define DGPB_BINDING_PROOF_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define binding_proof_check dgpb__binding_proof_check
#define ptx_handle_size dgpb__ptx_handle_size

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/code_bindings.h"
#include "tables/params.h"
#include "code/ptx/ptx_scan.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dgpb_proof_input {
    dgpb_target_id target; /* DGPB_TARGET_SPIRV, _WGSL or _PTX */
    const char *entry;
    const dgpb_param_table *table;
    const dgpb_code_bindings *code; /* spirv, wgsl */
    const dgpb_ptx_module *ptx;     /* ptx: the entry's PTX, scanned */
    bool scalar_blocks; /* the build's block layout is a scalar one (dgpb_block_layout_scalar):
                           SPIR-V blocks are sized by scalar rules */
} dgpb_proof_input;

/* Proves one entry's table on one target (see above). */
int binding_proof_check(const dgpb_proof_input *in, dgpb_diag *diag);

/* The byte size of a resource's handle in Slang's CUDA layout (buffers 16, others 8). */
uint32_t ptx_handle_size(uint32_t kind);

#ifdef __cplusplus
}
#endif

#endif
