/*
 * tables/webgpu_limits.h - WebGPU's default per-stage binding limits, checked
 * per pipeline group on the wgsl target.
 *
 * A WebGPU pipeline binds the resources of its group, so the limits apply to
 * each compute shader on its own and to a module's render or ray-tracing
 * shaders together (docs/design.md, section 4): storage buffers 8, storage
 * textures 4, uniform buffers 12, sampled textures 16, samplers 16. A binding
 * (space, binding) shared by several entries counts once and must have the
 * same descriptor in all of them. webgpu_check_entry() checks each
 * entry's other limits (workgroup size and memory, vertex-stage writes).
 */
#ifndef DGPB_WEBGPU_LIMITS_H
#define DGPB_WEBGPU_LIMITS_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define webgpu_check_entry dgpb__webgpu_check_entry
#define webgpu_check_group dgpb__webgpu_check_group
#define wgsl_name_reserved dgpb__wgsl_name_reserved

#include <stdbool.h>
#include <stddef.h>

#include "tables/params.h"
#include "dgpb/result.h"
#include "code/wgsl/wgsl_names.h" /* wgsl_name_reserved(), declared here before */
#include "code/wgsl/wgsl_scan.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Checks one group: `count` entries with their wgsl parameter tables.
 * `group` names it in messages ("compute shader 'k'", "the render group").
 * DGPB_ERR_SHADER with a message naming the group, the resource class and
 * both numbers, or the two entries whose descriptors disagree.
 */
int webgpu_check_group(const char *group, const char *const *entries,
                       const dgpb_param_table *tables, size_t count, dgpb_diag *diag);

/*
 * Checks one entry against WebGPU's other default limits and rules: a
 * compute entry's workgroup size (`tgs`) at most 256 x 256 x 64 and 256
 * invocations, its workgroup memory (from its WGSL, `code`; NULL to skip) at
 * most 16,384 bytes; no writable storage buffer or storage texture in a
 * vertex shader (from its table). DGPB_ERR_SHADER with a message naming the
 * entry, the limit and both numbers.
 */
int webgpu_check_entry(const char *entry, uint32_t stage, const uint32_t tgs[3],
                       const dgpb_wgsl_module *code, const dgpb_param_table *table,
                       dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
