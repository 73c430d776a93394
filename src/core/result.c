/*
 * result.c - result code names and the diagnostic record (dgpb/result.h).
 */
#include "dgpb/result.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef DGPB_VERSION_STRING
#define DGPB_VERSION_STRING "0.0.0"
#endif

const char *dgpb_version(void)
{
    return DGPB_VERSION_STRING;
}

const char *dgpb_result_str(int r)
{
    switch (r) {
    case DGPB_OK:
        return "ok";
    case DGPB_ERR_NOMEM:
        return "out of memory";
    case DGPB_ERR_INVALID:
        return "invalid argument";
    case DGPB_ERR_IO:
        return "i/o error";
    case DGPB_ERR_CORRUPT:
        return "corrupt input";
    case DGPB_ERR_NOT_FOUND:
        return "not found";
    case DGPB_ERR_BACKEND:
        return "backend not compiled";
    case DGPB_ERR_LIMIT:
        return "limit exceeded";
    case DGPB_ERR_TOOL:
        return "tool failed";
    case DGPB_ERR_SHADER:
        return "shader error";
    case DGPB_ERR_UNSUPPORTED:
        return "unsupported";
    case DGPB_ERR_INTERRUPTED:
        return "interrupted";
    case DGPB_ERR_CORRUPT_TRUNCATED:
        return "corrupt input: truncated";
    case DGPB_ERR_CORRUPT_MAGIC:
        return "corrupt input: bad magic";
    case DGPB_ERR_CORRUPT_VERSION:
        return "corrupt input: unsupported version";
    case DGPB_ERR_CORRUPT_RANGE:
        return "corrupt input: out of range";
    case DGPB_ERR_CORRUPT_STRING:
        return "corrupt input: bad string";
    case DGPB_ERR_CORRUPT_ORDER:
        return "corrupt input: bad order";
    case DGPB_ERR_CORRUPT_VALUE:
        return "corrupt input: bad value";
    case DGPB_ERR_CORRUPT_HASH:
        return "corrupt input: sha-256 mismatch";
    default:
        return "unknown error";
    }
}

const char *dgpb_result_name(int r)
{
    switch (r) {
#define NAME(code)                                                                                 \
    case code:                                                                                     \
        return #code
        NAME(DGPB_OK);
        NAME(DGPB_ERR_NOMEM);
        NAME(DGPB_ERR_INVALID);
        NAME(DGPB_ERR_IO);
        NAME(DGPB_ERR_CORRUPT);
        NAME(DGPB_ERR_NOT_FOUND);
        NAME(DGPB_ERR_BACKEND);
        NAME(DGPB_ERR_LIMIT);
        NAME(DGPB_ERR_TOOL);
        NAME(DGPB_ERR_SHADER);
        NAME(DGPB_ERR_UNSUPPORTED);
        NAME(DGPB_ERR_INTERRUPTED);
        NAME(DGPB_ERR_CORRUPT_TRUNCATED);
        NAME(DGPB_ERR_CORRUPT_MAGIC);
        NAME(DGPB_ERR_CORRUPT_VERSION);
        NAME(DGPB_ERR_CORRUPT_RANGE);
        NAME(DGPB_ERR_CORRUPT_STRING);
        NAME(DGPB_ERR_CORRUPT_ORDER);
        NAME(DGPB_ERR_CORRUPT_VALUE);
        NAME(DGPB_ERR_CORRUPT_HASH);
#undef NAME
    default:
        return "DGPB_ERR_UNKNOWN";
    }
}

void dgpb_diag_clear(dgpb_diag *d)
{
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->offset = -1;
}

int dgpb_diag_set(dgpb_diag *d, int code, int64_t offset, const char *fmt, ...)
{
    if (!d)
        return code;
    d->severity = DGPB_SEV_ERROR;
    d->code = code;
    d->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->message, sizeof d->message, fmt, ap);
    va_end(ap);
    return code;
}

void dgpb_diag_set_file(dgpb_diag *d, const char *file)
{
    if (!d)
        return;
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
}

size_t dgpb_diag_format(const dgpb_diag *d, char *buf, size_t size)
{
    static const char *const sev[] = {"note", "warning", "error"};
    const char *s = (unsigned)d->severity < 3 ? sev[d->severity] : "error";
    char where[DGPB_DIAG_FILE_MAX + 32] = "";
    if (d->file[0] && d->line && d->column)
        snprintf(where, sizeof where, "%s:%" PRIu32 ":%" PRIu32 ": ", d->file, d->line, d->column);
    else if (d->file[0] && d->line)
        snprintf(where, sizeof where, "%s:%" PRIu32 ": ", d->file, d->line);
    else if (d->file[0])
        snprintf(where, sizeof where, "%s: ", d->file);
    char at[48] = "";
    if (d->offset >= 0)
        snprintf(at, sizeof at, " (at byte %" PRId64 ")", d->offset);
    char tool[DGPB_DIAG_TOOL_CODE_MAX + 2] = "";
    if (d->tool_code[0])
        snprintf(tool, sizeof tool, "[%s]", d->tool_code);
    int n = snprintf(buf, size, "%s%s%s: %s%s%s%s", where, s, tool, d->message, at,
                     d->excerpt[0] ? "\n" : "", d->excerpt);
    return n < 0 ? 0 : (size_t)n;
}
