/*
 * messages.c - the build's diagnostics and dgpb-build's own messages on
 * standard error (messages.h).
 */
#include "messages.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/tool_common.h"

void print_diag(const dgpb_diag *d, void *user)
{
    const printer *p = user;
    if (p->quiet &&
        (d->severity == DGPB_SEV_NOTE ||
         (d->severity == DGPB_SEV_WARNING && dgpb_result_class(d->code) == DGPB_ERR_UNSUPPORTED)))
        return;
    progress_clear(p->line);
    if (tool_json()) {
        tool_print_diag_json(d);
        return;
    }
    /* the file's control characters and bytes that are not UTF-8 escaped (tool_text) */
    dgpb_diag copy = *d;
    if (copy.file[0])
        dgpb_diag_set_file(&copy, tool_text(copy.file, strlen(copy.file)));
    char buf[DGPB_DIAG_FILE_MAX + DGPB_DIAG_MESSAGE_MAX + DGPB_DIAG_EXCERPT_MAX + 64];
    dgpb_diag_format(&copy, buf, sizeof buf);
    /* A message about no file (the compiler lookup) says whose it is. */
    fprintf(stderr, "%s%s\n", copy.file[0] ? "" : "dgpb-build: ", buf);
}

void say(dgpb_severity severity, int code, bool tagged, const char *fmt, ...)
{
    static dgpb_diag d; /* 10 KB: off the stack */
    dgpb_diag_clear(&d);
    d.severity = severity;
    d.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d.message, sizeof d.message, fmt, ap);
    va_end(ap);
    if (tool_json())
        tool_print_diag_json(&d);
    else if (tagged)
        tool_print_diag(&d, NULL);
    else
        fprintf(stderr, "dgpb-build: %s\n", d.message);
}
