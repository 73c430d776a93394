/*
 * dgpb/result.h - result codes and diagnostic records.
 *
 * Every library function that can fail returns a dgpb_result and, when the
 * caller passes a non-NULL dgpb_diag, fills it with one human-readable message
 * saying what failed and where. Success is DGPB_OK (0). A result code has a
 * class in its low byte (DGPB_ERR_CORRUPT, DGPB_ERR_IO, ...) and may carry a
 * detail in the bits above it, so callers can test the class with
 * dgpb_result_class() and still see the precise cause (SQLite's extended
 * result codes work the same way).
 *
 * The library never prints and never exits; tools print diagnostics with
 * dgpb_diag_format() as "file:line:col: severity: message".
 */
#ifndef DGPB_RESULT_H
#define DGPB_RESULT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dgpb_result {
    DGPB_OK = 0,
    DGPB_ERR_NOMEM = 1,        /* an allocation failed */
    DGPB_ERR_INVALID = 2,      /* a caller passed an invalid argument or model */
    DGPB_ERR_IO = 3,           /* reading or writing a file failed */
    DGPB_ERR_CORRUPT = 4,      /* a bundle (or other input) is malformed */
    DGPB_ERR_NOT_FOUND = 5,    /* a looked-up target, entry or parameter does not exist */
    DGPB_ERR_BACKEND = 6,      /* the bundle has no target for the requested backend */
    DGPB_ERR_LIMIT = 7,        /* an input exceeds a documented size or count limit */
    DGPB_ERR_TOOL = 8,         /* an external tool failed to run */
    DGPB_ERR_SHADER = 9,       /* a shader does not compile or breaks a rule */
    DGPB_ERR_UNSUPPORTED = 10, /* valid input that this build cannot handle */
    DGPB_ERR_INTERRUPTED = 11, /* the caller cancelled the operation (a signal) */

    /* Details of DGPB_ERR_CORRUPT. */
    DGPB_ERR_CORRUPT_TRUNCATED = DGPB_ERR_CORRUPT | (1 << 8),
    DGPB_ERR_CORRUPT_MAGIC = DGPB_ERR_CORRUPT | (2 << 8),
    DGPB_ERR_CORRUPT_VERSION = DGPB_ERR_CORRUPT | (3 << 8),
    DGPB_ERR_CORRUPT_RANGE = DGPB_ERR_CORRUPT | (4 << 8),
    DGPB_ERR_CORRUPT_STRING = DGPB_ERR_CORRUPT | (5 << 8),
    DGPB_ERR_CORRUPT_ORDER = DGPB_ERR_CORRUPT | (6 << 8),
    DGPB_ERR_CORRUPT_VALUE = DGPB_ERR_CORRUPT | (7 << 8),
    DGPB_ERR_CORRUPT_HASH = DGPB_ERR_CORRUPT | (8 << 8),
} dgpb_result;

/* The class of a result: its low byte (DGPB_ERR_CORRUPT for every DGPB_ERR_CORRUPT_*). */
static inline int dgpb_result_class(int r)
{
    return r & 0xff;
}

/* A static, lowercase description of a result code ("corrupt bundle: truncated"). Never NULL. */
const char *dgpb_result_str(int r);

/*
 * The enumerator's name of a result code ("DGPB_ERR_SHADER",
 * "DGPB_ERR_CORRUPT_TRUNCATED"), for machine-readable diagnostics. Never
 * NULL: a code that is not in dgpb_result is "DGPB_ERR_UNKNOWN".
 */
const char *dgpb_result_name(int r);

typedef enum dgpb_severity {
    DGPB_SEV_NOTE = 0,
    DGPB_SEV_WARNING = 1,
    DGPB_SEV_ERROR = 2,
} dgpb_severity;

#define DGPB_DIAG_FILE_MAX 512
#define DGPB_DIAG_MESSAGE_MAX 8192 /* room for a compiler's full diagnostics */
#define DGPB_DIAG_TOOL_CODE_MAX 16
#define DGPB_DIAG_EXCERPT_MAX 1024

/*
 * One diagnostic. Everything is stored inline, so a record has no owner to
 * release. `offset` is the byte offset inside the input that is wrong, or -1;
 * `line`/`column` are 1-based, 0 when unknown (the column counts bytes, as
 * gcc's does); `file` is "" when unknown.
 *
 * A diagnostic passed through from the compiler (one of Slang's, split out
 * of what a compile printed) also carries Slang's own code, "E30081" (Slang
 * 2025 prints "warning 30081", 2026 "warning[E30081]"), in `tool_code`, and
 * the source line with the caret under it, as Slang printed them, in
 * `excerpt`; `code` is then DGPB_OK for a warning or note, DGPB_ERR_SHADER
 * for an error. Both are "" for dgpb's own diagnostics.
 */
typedef struct dgpb_diag {
    dgpb_severity severity;
    int code;
    char file[DGPB_DIAG_FILE_MAX];
    uint32_t line;
    uint32_t column;
    int64_t offset;
    char message[DGPB_DIAG_MESSAGE_MAX];
    char tool_code[DGPB_DIAG_TOOL_CODE_MAX];
    char excerpt[DGPB_DIAG_EXCERPT_MAX];
} dgpb_diag;

/* Resets a record to "no diagnostic" (code DGPB_OK, offset -1). NULL is a no-op. */
void dgpb_diag_clear(dgpb_diag *d);

/*
 * Fills `d` (if not NULL) with severity error, `code`, `offset` and a
 * printf-style message, and returns `code` so that callers can write
 * `return dgpb_diag_set(d, DGPB_ERR_IO, -1, "cannot open '%s'", path);`.
 * The file name is left as it was.
 */
int dgpb_diag_set(dgpb_diag *d, int code, int64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Sets the file name a diagnostic refers to (truncated to fit). NULL `d` is a no-op. */
void dgpb_diag_set_file(dgpb_diag *d, const char *file);

/*
 * Writes "file:line:col: error: message" (parts that are unknown are left
 * out; a known byte offset is appended as " (at byte N)") into buf, always
 * NUL-terminated; a diagnostic passed through from the compiler reads
 * "file:line:col: warning[E30081]: message", its excerpt on the lines after
 * it. Returns the length that the full text needs, like snprintf.
 */
size_t dgpb_diag_format(const dgpb_diag *d, char *buf, size_t size);

/* The library's version, "MAJOR.MINOR.PATCH". */
const char *dgpb_version(void);

#ifdef __cplusplus
}
#endif

#endif
