/*
 * bundle/diff.h - a semantic comparison of two bundles, for review.
 *
 * Either side is a bundle (.dgpb) or its JSON view (.bundle.json); both are
 * read into one comparable model: targets -> entries -> stage, thread group
 * size, parameter rows, capabilities, the code blob's SHA-256 and size and the
 * layout index; each target's layout blobs; the project options the bundle
 * records. Where a blob is stored (its
 * offset) is never compared: an unchanged blob that merely moved is no change.
 *
 * bundle_diff() compares the models and hands back the result as a cJSON tree,
 * marking every change that breaks a host's binding (a parameter row changed,
 * added, removed or moved; an entry or target removed; a capability gained; a
 * stage, thread group size or code format changed; the matrix layout
 * changed; the SPIR-V version raised). docs/diff.md gives the
 * schema of the tree and the rules; `dgpb-dump --diff` prints it.
 *
 * Ownership: a side owns a copy of everything it was opened from (release it
 * with diff_side_close()); the tree from bundle_diff() belongs to the
 * caller, who frees it with cJSON_Delete(). The library never prints.
 */
#ifndef DGPB_DIFF_H
#define DGPB_DIFF_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define bundle_diff dgpb__bundle_diff
#define diff_side_close dgpb__diff_side_close
#define diff_side_from_memory dgpb__diff_side_from_memory
#define diff_side_open dgpb__diff_side_open

#include <stddef.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON; /* <cjson/cJSON.h> */

/* One side of a comparison: a bundle or a JSON view, read into the model. */
typedef struct dgpb_diff_side dgpb_diff_side;

/*
 * Reads `size` bytes (copied) as a side. Bytes starting with the magic "DGPB"
 * are a bundle, validated and hashed (DGPB_OPEN_VERIFY_SHA256); bytes whose
 * first non-blank character is '{' are a JSON view, checked field by field
 * against the view's schema. `name` (may be NULL) names the side in
 * diagnostics. Results: DGPB_ERR_UNSUPPORTED when the bytes are neither,
 * DGPB_ERR_CORRUPT* for a damaged bundle or a view that breaks the schema
 * (the message names the field), DGPB_ERR_NOMEM.
 */
int diff_side_from_memory(const void *data, size_t size, const char *name, dgpb_diff_side **out,
                          dgpb_diag *diag);

/* Reads the file at `path` as a side: DGPB_ERR_IO when it cannot be read, else as above. */
int diff_side_open(const char *path, dgpb_diff_side **out, dgpb_diag *diag);

/* Releases a side. NULL is a no-op. */
void diff_side_close(dgpb_diff_side *side);

/*
 * Compares `old_side` with `new_side` and stores the result tree in *out
 * (docs/diff.md): { "equivalent", "breaking", "old", "new", "options": [...],
 * "targets": [...], "summary" }.
 * Returns DGPB_OK whether or not the sides differ; DGPB_ERR_NOMEM (and *out
 * NULL) when memory runs out, DGPB_ERR_INVALID for NULL arguments.
 */
int bundle_diff(const dgpb_diff_side *old_side, const dgpb_diff_side *new_side, struct cJSON **out,
                dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
