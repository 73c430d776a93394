/*
 * dump.h - the presentations of dgpb-dump (listing and disassembly).
 */
#ifndef DGPB_DUMP_H
#define DGPB_DUMP_H

#include <stdio.h>

#include "dgpb/dgpb.h"

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

#endif
