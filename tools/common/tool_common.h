/*
 * tools/common/tool_common.h - what the command-line tools (tools/<program>/)
 * share: their name in messages, usage errors, and diagnostics printed to
 * standard error. Linked into each program (the top CMakeLists.txt).
 */
#ifndef DGPB_TOOL_COMMON_H
#define DGPB_TOOL_COMMON_H

#include "dgpb/result.h"

/*
 * Names the program for the messages below, first thing in main: `name`
 * ("dgpb-run") starts each message, `tag` follows it on a usage error
 * ("error: ", or ""), and `usage_status` is what tool_usage_error() returns
 * (the program's exit status for a usage error).
 */
void tool_init(const char *name, const char *tag, int usage_status);

/*
 * Prints "<name>: <tag><message>" and "(see '<name> --help')" on standard
 * error; returns the usage status given to tool_init().
 */
int tool_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/*
 * Prints a diagnostic on standard error as "<name>: <file:line:col: error:
 * message>" (dgpb_diag_format()), naming `file` when the diagnostic names no
 * file (`file` may be NULL).
 */
void tool_print_diag(const dgpb_diag *d, const char *file);

#endif
