/*
 * targets.h - build triples, target selection and module group symbols.
 *
 * What a bundle may carry depends on where it will be loaded (the build
 * triple) and on what the module asks for (--targets, the module's
 * @gpu_targets): docs/design.md, section 3. This module also finds the pipeline
 * group symbols a generated module uses (DREAM_SHADER_<entry>,
 * DREAM_SHADERS_RENDER, DREAM_SHADERS_RAY_TRACING) by scanning its text for
 * them; everything else about the module comes from Slang.
 */
#ifndef DGPB_TARGETS_H
#define DGPB_TARGETS_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define code_format_extension dgpb__code_format_extension
#define code_format_slang_target dgpb__code_format_slang_target
#define group_symbols_free dgpb__group_symbols_free
#define platform_from_triple dgpb__platform_from_triple
#define platform_name dgpb__platform_name
#define platform_targets dgpb__platform_targets
#define scan_group_symbols dgpb__scan_group_symbols
#define target_code_format dgpb__target_code_format
#define target_discovery_format dgpb__target_discovery_format
#define target_final_format dgpb__target_final_format
#define target_has_final dgpb__target_has_final
#define target_macro dgpb__target_macro
#define targets_parse dgpb__targets_parse

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/format.h" /* dgpb_target_id, dgpb_target_name() */
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dgpb_platform {
    DGPB_PLATFORM_LINUX = 0,
    DGPB_PLATFORM_APPLE,
    DGPB_PLATFORM_WINDOWS,
    DGPB_PLATFORM_WASM32,
    DGPB_PLATFORM_COUNT
} dgpb_platform;

/*
 * The platform of a target triple ("x86_64-unknown-linux-gnu",
 * "aarch64-apple-darwin", "wasm32-unknown-unknown", ...); NULL or "" means
 * the host. DGPB_ERR_INVALID for a triple naming no known platform.
 */
int platform_from_triple(const char *triple, dgpb_platform *out, dgpb_diag *diag);
const char *platform_name(dgpb_platform p);

/* The set of targets a platform can load (bit per dgpb_target_id). */
uint32_t platform_targets(dgpb_platform p);

/*
 * Parses a comma-separated target list ("spirv,wgsl"); NULL selects every
 * target. DGPB_ERR_INVALID names an unknown target, and refuses an empty
 * list ("") and an empty item ("spirv,,wgsl", "spirv,").
 */
int targets_parse(const char *list, uint32_t *out_set, dgpb_diag *diag);

/* The DREAM_TARGET_<NAME> macro of a target ("DREAM_TARGET_SPIRV"). */
const char *target_macro(uint32_t id);

/*
 * The code format a target compiles to (DGPB_CODE_FORMAT_MSL for metal),
 * and the one whose compile discovers its entries (DGPB_CODE_FORMAT_SPIRV for
 * ptx and wgsl): dgpb/vocabulary.def, DGPB_TARGET.
 */
dgpb_code_format target_code_format(uint32_t id);
dgpb_code_format target_discovery_format(uint32_t id);

/*
 * The code format a target's entries are also compiled to, shipped instead of
 * its code format when every entry's compile succeeds (DGPB_CODE_FORMAT_METALLIB
 * for metal); its code format when there is no second form: DGPB_TARGET's FINAL.
 */
dgpb_code_format target_final_format(uint32_t id);

/* Whether a target has such a second form (metal). */
bool target_has_final(uint32_t id);

/* The `slangc -target` that compiles to a code format ("spirv", "metallib", "metal", ...). */
const char *code_format_slang_target(uint32_t format);

/* The file extension of that compile's output ("spv", "metallib", ...). */
const char *code_format_extension(uint32_t format);

/*
 * Finds the group symbols a module's text mentions, in order of first
 * mention, without duplicates. `*symbols` is an array of `*count` strings
 * (free with group_symbols_free).
 */
int scan_group_symbols(const char *text, size_t len, char ***symbols, size_t *count,
                       dgpb_diag *diag);
void group_symbols_free(char **symbols, size_t count);

#define DGPB_GROUP_RENDER "DREAM_SHADERS_RENDER"
#define DGPB_GROUP_RAY_TRACING "DREAM_SHADERS_RAY_TRACING"
#define DGPB_GROUP_COMPUTE_PREFIX "DREAM_SHADER_"

#ifdef __cplusplus
}
#endif

#endif
