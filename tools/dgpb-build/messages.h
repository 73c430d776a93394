/*
 * messages.h - what dgpb-build prints on standard error: the build's
 * diagnostics as they come (the dgpb_build_desc.sink), and messages of the
 * program's own, as text or, with --diagnostics json, one JSON object a
 * line (common/tool_common.h).
 */
#ifndef DGPB_BUILD_MESSAGES_H
#define DGPB_BUILD_MESSAGES_H

#include <stdbool.h>

#include "dgpb/result.h"
#include "progress.h"

typedef struct printer {
    bool quiet;
    progress_line *line; /* the progress line, on a terminal; NULL: none */
} printer;

/*
 * A dgpb_diag_fn; `user` is a printer. -q leaves out notes and the warnings
 * about this installation (code DGPB_ERR_UNSUPPORTED: no layouts without a
 * native libslang), never a warning about the module, as a compiler would.
 */
void print_diag(const dgpb_diag *d, void *user);

/*
 * A message of the program's own, about no file: "dgpb-build: warning: ..."
 * (with `tagged`, else "dgpb-build: ..."), or one JSON line.
 */
void say(dgpb_severity severity, int code, bool tagged, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
