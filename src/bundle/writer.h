/*
 * bundle/writer.h - serialises a dgpb_model into DGPB v0 bytes.
 *
 * The layout is docs/format.md's: little-endian u32s, length-prefixed UTF-8
 * strings, targets sorted by name, blob references {offset into the data
 * section, size, SHA-256}, identical blobs stored once and sharing one
 * reference, in order of first reference. The same model always gives the
 * same bytes. bundle_write_ex() also says how many distinct blobs it stored.
 */
#ifndef DGPB_WRITER_H
#define DGPB_WRITER_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define bundle_write dgpb__bundle_write
#define bundle_write_ex dgpb__bundle_write_ex

#include <stddef.h>
#include <stdint.h>

#include "bundle/model.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What the writer stored in the data section. Each distinct blob is counted
 * once, by the kind of the reference that placed it (the first reference:
 * targets in name order, each target's layouts before its entries), so a
 * blob shared by several entries or targets counts once and
 * code_blob_count + layout_blob_count == blob_count.
 */
typedef struct dgpb_write_stats {
    uint32_t blob_count;        /* distinct blobs stored */
    uint32_t code_blob_count;   /* of those, placed by an entry's code */
    uint32_t layout_blob_count; /* of those, placed by a target's layout */
    uint64_t data_size;         /* bytes of the data section */
} dgpb_write_stats;

/*
 * Writes the bundle into a new buffer. On success *out holds `*out_size`
 * bytes that the caller frees with dgpb_free(); on failure *out is NULL and the
 * diagnostic says why (the model breaks a rule, or memory ran out).
 */
int bundle_write(const dgpb_model *m, uint8_t **out, size_t *out_size, dgpb_diag *diag);

/*
 * bundle_write() that also reports what it stored: on success *stats (when not
 * NULL) describes the data section; on failure it is zeroed.
 */
int bundle_write_ex(const dgpb_model *m, uint8_t **out, size_t *out_size, dgpb_write_stats *stats,
                    dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
