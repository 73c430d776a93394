/*
 * code/code_features.h - what an entry's code declares that a device must
 * have: SPIR-V's OpCapability instructions, WGSL's `enable` (and `requires`)
 * directives, PTX's `.target` directive (docs/format.md, "Capabilities").
 *
 * Only the declarations are read, from the bytes a bundle ships, without
 * SPIRV-Tools (a capability newer than the library is still read) and
 * without parsing the rest of the text: SPIR-V's instruction stream word by
 * word (a module that is not SPIR-V, or whose instructions overrun it, is
 * refused); WGSL's global directives, which come before every declaration
 * (comments skipped); PTX's first `.target` directive outside comments. The
 * mapping of what is read to capabilities is code/capabilities.h's. Each
 * format's reader is in its folder; code_features_read() is
 * code/code_formats.c's.
 *
 * Ownership: code_features_read() fills a dgpb_code_features that owns
 * its array; release it with code_features_clear().
 */
#ifndef DGPB_CODE_FEATURES_H
#define DGPB_CODE_FEATURES_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define code_features_clear dgpb__code_features_clear
#define code_features_read dgpb__code_features_read
#define features_add dgpb__features_add
#define features_ident dgpb__features_ident
#define features_ident_char dgpb__features_ident_char
#define features_line dgpb__features_line
#define features_skip_space dgpb__features_skip_space

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/format.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest WGSL extension or PTX target word kept (longer ones are refused). */
#define DGPB_CODE_FEATURE_NAME_MAX 64

/*
 * One declared feature. SPIR-V: number = the capability, name empty. WGSL:
 * name = the extension, number 0 for `enable`, 1 for `requires`. PTX: name =
 * the `.target` word as written (`sm_75`, `texmode_unified`), number = NN of
 * `sm_NN` (0 for an option).
 */
typedef struct dgpb_code_feature {
    uint32_t number;
    char name[DGPB_CODE_FEATURE_NAME_MAX];
} dgpb_code_feature;

typedef struct dgpb_code_features {
    dgpb_code_feature *items; /* in the order the code declares them, repeats dropped */
    size_t count;
} dgpb_code_features;

/*
 * Reads the features of `code` (`size` bytes) in `format`'s code format
 * (through its code/code_format.h table; a format dgpb does not read gives none). Fails with
 * DGPB_ERR_CORRUPT (SPIR-V that is not a module, a WGSL directive or a PTX
 * `.target` that does not parse, PTX without `.target`) or DGPB_ERR_NOMEM.
 */
int code_features_read(dgpb_code_format format, const uint8_t *code, size_t size,
                       dgpb_code_features *out, dgpb_diag *d);

/* Releases what `f` owns and empties it. */
void code_features_clear(dgpb_code_features *f);

/* ---- what the formats' readers share ---- */

/* Adds a feature once (`name_len` bytes of `name`); false when out of memory. */
bool features_add(dgpb_code_features *f, size_t *cap, uint32_t number, const char *name,
                  size_t name_len);
/* Skips white space and comments (nested: WGSL's) from *i; false at an open comment. */
bool features_skip_space(const char *t, size_t n, size_t *i, bool nested);
/* Whether `c` may be (the first, when `first`) character of an identifier. */
bool features_ident_char(char c, bool first);
/* The identifier at *i (its length; 0 for none), *i moved past it. */
size_t features_ident(const char *t, size_t n, size_t *i);
/* The line of byte `at` of `t`, for messages. */
unsigned features_line(const char *t, size_t at);

#ifdef __cplusplus
}
#endif

#endif
