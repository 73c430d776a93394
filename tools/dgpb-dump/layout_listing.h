/*
 * layout_listing.h - dgpb-dump's presentation of recorded layout blobs.
 */
#ifndef DGPB_DUMP_LAYOUT_LISTING_H
#define DGPB_DUMP_LAYOUT_LISTING_H

#include <stdbool.h>
#include <stdio.h>

#include "dgpb/dgpb.h"

/*
 * Prints layout N of a target ("TARGET/N", or "TARGET/layout/N") of a
 * validated bundle: every object of the blob, readably or (json) as one
 * JSON document. The blob's SHA-256 is checked and the blob validated
 * first. DGPB_ERR_NOT_FOUND/INVALID for a bad selector, DGPB_ERR_CORRUPT_*
 * for a blob that is not a valid layout.
 */
int dump_layout(FILE *out, const dgpb_bundle *b, const char *selector, bool json, dgpb_diag *diag);

/* Prints one layout blob (already read into memory), as dump_layout() does. */
int dump_layout_blob(FILE *out, const void *data, size_t size, const char *title, bool json,
                     dgpb_diag *diag);

#endif
