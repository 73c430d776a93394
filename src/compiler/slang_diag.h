/*
 * slang_diag.h - what a compile printed, split into Slang's diagnostics
 * (internal).
 *
 * Slang prints each diagnostic as a header line and, where it has the
 * source, the source line and a caret under it. Two renderings are read:
 *
 *   Slang 2025 (the embedded compiler)    Slang 2026 (rich diagnostics)
 *   m.slang(7): warning 30081: text       warning[E30081]: text
 *       int i = 1.5;                       --> m.slang:7:13
 *               ^~~                          |
 *                                          7 |     int i = 1.5;
 *                                            |             ^^^
 *
 * and the language server's "m.slang(7, 13): ..." header. A line
 * "<program>: error: text" (slangc-wasm's own errors) is a diagnostic
 * without a file. Text before the first diagnostic, or all of it when there
 * is none, is one diagnostic of the caller's severity.
 */
#ifndef DGPB_SLANG_DIAG_H
#define DGPB_SLANG_DIAG_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define slang_diag_parse dgpb__slang_diag_parse

#include "dgpb/result.h"

/* Receives one diagnostic; `d` is only valid during the call. */
typedef void (*slang_diag_fn)(void *user, const dgpb_diag *d);

/*
 * Calls `fn` for each diagnostic of `text` (NUL-terminated), in order:
 * severity (Slang's "fatal error" and "internal error" are errors), file,
 * line, column, Slang's code as "E30081" in tool_code, the message, and the
 * source lines Slang printed under the header in excerpt (cut at a line
 * that does not fit). `code` is DGPB_ERR_SHADER for an error, DGPB_OK
 * otherwise. The column is Slang's where it prints one; else that of the
 * caret under the source line, whose tabs Slang widens to the next multiple
 * of 4 columns: it is mapped back to a byte column through the file's line
 * when the file can be read and its line, so widened, is the line Slang
 * showed. Text that is no diagnostic at all becomes one of severity `loose`
 * without a file; empty text calls `fn` never.
 */
void slang_diag_parse(const char *text, dgpb_severity loose, slang_diag_fn fn, void *user);

#endif
