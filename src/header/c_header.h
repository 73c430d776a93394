/*
 * header/c_header.h - the C header of a bundle (docs/build.md, "The C header").
 *
 * `dgpb-build --emit-header` writes it next to the bundle as <stem>.h and
 * `dgpb-dump --header` prints it. It is a pure function of the bundle and
 * its stem: the rows, the capabilities and the value types read from the
 * shipped code (code/value_types.h), so a build taken from the cache writes
 * the same bytes as the build that filed it. Nothing time-, path- or
 * host-dependent goes into it.
 */
#ifndef DGPB_C_HEADER_H
#define DGPB_C_HEADER_H

#define c_header_make dgpb__c_header_make

#include "dgpb/reader.h"
#include "dgpb/result.h"

/*
 * The header of bundle `b` (validated by dgpb_bundle_open) for `stem` (the
 * file name without .dgpb): C11 and C++11 text, NUL-terminated, in *out,
 * owned by the caller (dgpb_free). DGPB_ERR_NOMEM, or DGPB_ERR_CORRUPT when
 * a code blob cannot be read for its types; *out is NULL on failure.
 */
int c_header_make(const dgpb_bundle *b, const char *stem, char **out, dgpb_diag *diag);

#endif
