/*
 * dgpb/json_view.h - the readable <stem>.bundle.json view of a bundle.
 *
 * The view is made from a validated bundle (dgpb/reader.h), so a JSON view
 * can be regenerated from any bundle and always says exactly what the bytes
 * say. It holds every field of the binary (blobs as offset, size and SHA-256
 * hex, never their content) plus the asset name "gpu_shaders.<stem>". Keys
 * come in a fixed order and the text is formatted by cJSON with a final
 * newline, so golden-file diffs stay small. docs/format.md gives the schema.
 */
#ifndef DGPB_JSON_VIEW_H
#define DGPB_JSON_VIEW_H

#include "dgpb/reader.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Renders the view of `b`, naming the asset "gpu_shaders.<stem>". On
 * success *out is a NUL-terminated string the caller frees with dgpb_free().
 */
int dgpb_json_view(const dgpb_bundle *b, const char *stem, char **out, dgpb_diag *diag);

/*
 * The stem of a module path: '.' replaced by '_' ("a.b" -> "a_b"); the empty
 * module path is the root module, "main". Writes at most `size` bytes with a
 * NUL; returns the length the full stem needs.
 */
size_t dgpb_stem_from_module_path(const char *module_path, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
