/*
 * dgpb/writer.h - serialises a dgpb_model into DGPB v0 bytes.
 *
 * The layout is docs/format.md's: little-endian u32s, length-prefixed UTF-8
 * strings, targets sorted by name, blob references {offset into the data
 * section, size, SHA-256}, identical blobs stored once and sharing one
 * reference, in order of first reference. The same model always gives the
 * same bytes.
 */
#ifndef DGPB_WRITER_H
#define DGPB_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "dgpb/model.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the bundle into a new buffer. On success *out holds `*out_size`
 * bytes that the caller frees with dgpb_free(); on failure *out is NULL and the
 * diagnostic says why (the model breaks a rule, or memory ran out).
 */
int dgpb_write(const dgpb_model *m, uint8_t **out, size_t *out_size, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
