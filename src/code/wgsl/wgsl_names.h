/*
 * code/wgsl/wgsl_names.h - the names WGSL reserves: keywords, reserved words and
 * predeclared names, from the WGSL specification's lists.
 */
#ifndef DGPB_WGSL_NAMES_H
#define DGPB_WGSL_NAMES_H

#include <stdbool.h>

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
bool dgpb_wgsl_name_reserved(const char *name);

#ifdef __cplusplus
}
#endif

#endif
