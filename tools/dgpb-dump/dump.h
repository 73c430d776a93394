/*
 * dump.h - the presentations of dgpb-dump (listing, disassembly, --diff, and the
 * changes' text the --report page shows).
 */
#ifndef DGPB_DUMP_H
#define DGPB_DUMP_H

#include <stdbool.h>
#include <stdio.h>

#include "dgpb/dgpb.h"
#include "bundle/diff.h"

/* Prints the readable listing of a validated bundle. */
void dump_listing(FILE *out, const dgpb_bundle *b, const char *path);

/*
 * Prints the code of every entry (or of the one `selector` "TARGET/ENTRY"
 * names): SPIR-V disassembled, text formats as they are, binary formats as a
 * size line. Returns a dgpb_result.
 */
int dump_disasm(FILE *out, const dgpb_bundle *b, const char *selector, dgpb_diag *diag);

/*
 * Resolves "TARGET/ENTRY" (an entry's code) or "TARGET/layout/N" (a layout
 * blob) to a blob; DGPB_ERR_NOT_FOUND with a message otherwise.
 */
int dump_select(const dgpb_bundle *b, const char *selector, const dgpb_blob_ref **blob,
                const dgpb_target_view **target, dgpb_diag *diag);

struct cJSON;

/* Prints a bundle_diff() result (bundle/diff.h) one line per change, then the summary line. */
void dump_diff_text(FILE *out, const struct cJSON *result);

/*
 * Prints one change of a bundle_diff() result as its line of dump_diff_text()
 * says it, without the "TARGET/ENTRY: " before it, the BREAKING mark after it
 * and the newline: "param #4 'bias' added (buffer, space 0, binding 5)".
 */
void dump_diff_change(FILE *out, const struct cJSON *change);

/* Prints the summary line of a bundle_diff() result, without its newline. */
void dump_diff_summary(FILE *out, const struct cJSON *result);

/* The exit statuses of --diff (docs/diff.md). */
enum { DUMP_DIFF_SAME = 0, DUMP_DIFF_DIFFERENT = 1, DUMP_DIFF_USAGE = 2, DUMP_DIFF_IO = 3 };

/*
 * dgpb-dump --diff OLD NEW: compares the two files (bundles or JSON views),
 * prints the changes (as JSON with `json`) to `output` or standard output and
 * returns the exit status.
 */
int dump_diff(const char *old_path, const char *new_path, bool json, const char *output);

#endif
