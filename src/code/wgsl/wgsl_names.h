/*
 * code/wgsl/wgsl_names.h - the names WGSL reserves: keywords, reserved words and
 * predeclared names, from the WGSL specification's lists.
 */
#ifndef DGPB_WGSL_NAMES_H
#define DGPB_WGSL_NAMES_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define wgsl_missing_type dgpb__wgsl_missing_type
#define wgsl_name_reserved dgpb__wgsl_name_reserved

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * True when `name` is a WGSL keyword, reserved word or predeclared name
 * (types, address spaces, access modes, texel formats, built-in functions).
 * The wgsl target keeps each entry's name as its WGSL function name, since
 * the browser host selects entry points by name; Slang does not rename such
 * an entry, and a WGSL compiler then rejects the module (an entry named
 * `storage` makes every `var<storage>` refer to the function).
 */
bool wgsl_name_reserved(const char *name);

/*
 * A scalar type that WGSL does not have (it has i32, u32, f32 and f16) among
 * the SPIR-V capabilities of an entry's SPIR-V (`capabilities`: the numeric
 * OpCapability operands, dgpb_spirv_info): Float64, Int64, Int16 or Int8.
 * Slang's WGSL back end throws on a double and writes WGSL that does not
 * parse for a buffer of int16_t, so this explains such a failure. It says
 * nothing about WGSL that compiled: Slang's SPIR-V also uses 16-bit
 * integers where its WGSL does not (f32tof16). A description for a message,
 * such as "double (Float64)" or "16-bit integers (Int16)"; NULL when none.
 */
const char *wgsl_missing_type(const uint32_t *capabilities, size_t count);

#ifdef __cplusplus
}
#endif

#endif
