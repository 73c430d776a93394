/*
 * build_report.c - the build's diagnostics (build_internal.h): every stage
 * reports through build_report(), which names the module, counts errors and
 * hands each diagnostic to the caller's sink as it happens.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "build/build_internal.h"

static void report(build *b, uint32_t line, dgpb_severity severity, int code, const char *fmt,
                   va_list ap)
{
    assert(b && b->desc);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    vsnprintf(d.message, sizeof d.message, fmt, ap);
    d.severity = severity;
    d.code = code;
    d.line = line;
    dgpb_diag_set_file(&d, b->desc->module_file);
    if (severity == DGPB_SEV_ERROR)
        b->errors++;
    if (severity == DGPB_SEV_WARNING) /* replayed when the build comes from the cache */
        cache_session_keep_warning(&b->cache, d.message);
    if (b->desc->sink)
        b->desc->sink(&d, b->desc->user);
}

void build_report(build *b, dgpb_severity severity, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(b, 0, severity, code, fmt, ap);
    va_end(ap);
}

void build_report_at(build *b, uint32_t line, dgpb_severity severity, int code, const char *fmt,
                     ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(b, line, severity, code, fmt, ap);
    va_end(ap);
}

int build_forward(build *b, const dgpb_diag *d, const char *context)
{
    if (dgpb_result_class(d->code) == DGPB_ERR_INTERRUPTED)
        return d->code; /* not the module's fault: the tool says why it stopped */
    build_report(b, DGPB_SEV_ERROR, d->code, "%s%s%s", context ? context : "", context ? ": " : "",
                 d->message);
    return d->code ? d->code : DGPB_ERR_INVALID;
}
