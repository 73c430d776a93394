/*
 * report.h - dgpb-dump's HTML report of a bundle (docs/report.md).
 */
#ifndef DGPB_DUMP_REPORT_H
#define DGPB_DUMP_REPORT_H

#include <stdio.h>

#include "dgpb/dgpb.h"
#include "bundle/diff.h"

struct cJSON;

/*
 * Prints one self-contained HTML page about the validated bundle `b` (read
 * from `path`): its size by target and entry as bars, the capability matrix,
 * every entry's parameter table and the savings of storing each blob once.
 * With `diff` (a bundle_diff() tree whose new side is `b`; may be NULL) the page
 * also shows the changes from `old_path`. Every string is HTML-escaped; the
 * page loads nothing and runs no script. Returns a dgpb_result.
 */
int dump_report(FILE *out, const dgpb_bundle *b, const char *path, const struct cJSON *diff,
                const char *old_path, dgpb_diag *diag);

#endif
