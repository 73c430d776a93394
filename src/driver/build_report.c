/*
 * build_report.c - the build's diagnostics (build_internal.h): every stage
 * reports through build_report(), which names the module, counts errors and
 * hands each diagnostic to the caller's sink as it happens. What compiles
 * printed is split into Slang's own diagnostics (compiler/slang_diag.h),
 * each reported once per build however many targets and jobs printed it.
 * With desc->warnings_as_errors a warning is reported, and counted, as an
 * error. Warnings are kept for the compile cache's whole-build entry, in
 * which a replayed build finds them again.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "driver/build_internal.h"
#include "compiler/slang_diag.h"
#include "core/alloc.h"
#include "core/bytebuf.h"

/* How a kept warning's fields are separated (cache/whole_build.c stores it as one string). */
#define FIELD '\x1f'

/* Keeps a warning for the whole-build cache entry: the module's own file is stored as "". */
static void keep_warning(build *b, const dgpb_diag *d)
{
    const char *file = strcmp(d->file, b->desc->module_file) ? d->file : "";
    char *kept =
        mem_printf("%s%c%u%c%u%c%s%c%s%c%s", file, FIELD, (unsigned)d->line, FIELD,
                   (unsigned)d->column, FIELD, d->tool_code, FIELD, d->excerpt, FIELD, d->message);
    if (kept)
        cache_session_keep_warning(&b->cache, kept);
    dgpb_free(kept);
}

/*
 * Hands one diagnostic to the sink: a warning about the module is an error under
 * --warnings-as-errors. A warning with code DGPB_ERR_UNSUPPORTED is about this installation
 * (no native libslang, so no layouts): the same module builds without it elsewhere, so it
 * stays a warning (dgpb/build.h, warnings_as_errors).
 */
static void emit(build *b, dgpb_diag *d)
{
    if (d->severity == DGPB_SEV_WARNING) {
        keep_warning(b, d); /* replayed when the build comes from the cache */
        if (b->desc->warnings_as_errors && dgpb_result_class(d->code) != DGPB_ERR_UNSUPPORTED) {
            d->severity = DGPB_SEV_ERROR;
            if (dgpb_result_class(d->code) == DGPB_OK)
                d->code = DGPB_ERR_SHADER;
            size_t n = strlen(d->message);
            snprintf(d->message + n, sizeof d->message - n, " [--warnings-as-errors]");
        }
    }
    if (d->severity == DGPB_SEV_ERROR)
        b->errors++;
    if (b->desc->sink)
        b->desc->sink(d, b->desc->user);
}

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
    emit(b, &d);
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

/* ---- what compiles printed ---- */

/* FNV-1a, 64 bits, over a diagnostic's identity. */
static uint64_t hash_text(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull; /* a field end, so "ab"+"c" is not "a"+"bc" */
}

/* Whether the same diagnostic was reported before in this build (and notes it if not). */
static bool seen_before(build *b, const dgpb_diag *d)
{
    char numbers[64];
    snprintf(numbers, sizeof numbers, "%d %u %u", (int)d->severity, (unsigned)d->line,
             (unsigned)d->column);
    uint64_t h = 0xcbf29ce484222325ull;
    h = hash_text(h, numbers);
    h = hash_text(h, d->file);
    h = hash_text(h, d->tool_code);
    h = hash_text(h, d->message);
    for (size_t i = 0; i < b->seen_count; i++)
        if (b->seen[i] == h)
            return true;
    uint64_t *grown = mem_grow(b->seen, b->seen_count, &b->seen_cap, sizeof *grown, 16);
    if (grown) {
        b->seen = grown;
        b->seen[b->seen_count++] = h;
    }
    return false;
}

/* Whether `path` names the module file itself (as build_deps.c's build_is_module(), which
   reports through this file). */
static bool is_module(const build *b, const char *path)
{
    struct stat a, m;
    return !stat(path, &a) && !stat(b->desc->module_file, &m) && a.st_dev == m.st_dev &&
           a.st_ino == m.st_ino;
}

typedef struct compiler_text {
    build *b;
    const char *context;
} compiler_text;

static void take_diagnostic(void *user, const dgpb_diag *in)
{
    const compiler_text *t = user;
    build *b = t->b;
    dgpb_diag d = *in;
    if (!d.file[0] || is_module(b, d.file)) /* the module, as the user spelled it */
        dgpb_diag_set_file(&d, b->desc->module_file);
    if (!in->file[0] && !in->tool_code[0] && t->context) {
        /* Text that is no diagnostic of Slang's: said whose it is. */
        char message[sizeof d.message];
        snprintf(message, sizeof message, "%.600s: %.7500s", t->context, in->message);
        memcpy(d.message, message, sizeof d.message);
    }
    if (!seen_before(b, &d))
        emit(b, &d);
}

void build_report_compiler_text(build *b, const char *text, dgpb_severity loose,
                                const char *context)
{
    assert(b && text);
    compiler_text t = {b, context};
    slang_diag_parse(text, loose, take_diagnostic, &t);
}

/* Whether `line` (n bytes) starts with "FILE(" at `*file_end` ... "): ", or "--> FILE:" (its FILE at *file). */
static bool header_file(const char *line, size_t n, size_t *file, size_t *file_end)
{
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (n - i > 4 && !memcmp(line + i, "--> ", 4)) { /* --> FILE:LINE:COLUMN */
        size_t end = n;
        for (int colons = 0; end > i + 4 && colons < 2; end--)
            if (line[end - 1] == ':')
                colons++;
        *file = i + 4;
        *file_end = end;
        return end > i + 4;
    }
    const char *mark = NULL; /* FILE(LINE): or FILE(LINE, COLUMN): */
    for (const char *p = line; p + 3 < line + n; p++)
        if (*p == '(' && p > line && p[1] >= '0' && p[1] <= '9') {
            const char *q = p + 1;
            while (q < line + n && ((*q >= '0' && *q <= '9') || *q == ',' || *q == ' '))
                q++;
            if (q + 1 < line + n && q[0] == ')' && q[1] == ':')
                mark = p;
        }
    *file = 0;
    *file_end = mark ? (size_t)(mark - line) : 0;
    return mark != NULL && i == 0;
}

char *build_text_as_given(const build *b, const char *text, int len)
{
    dgpb_bytebuf out = DGPB_BYTEBUF_INIT;
    const char *end = text + len;
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        size_t file, file_end;
        char path[4096];
        if (header_file(line, n, &file, &file_end) && file_end - file < sizeof path) {
            memcpy(path, line + file, file_end - file);
            path[file_end - file] = 0;
            if (is_module(b, path)) {
                bytebuf_append(&out, line, file);
                bytebuf_append(&out, b->desc->module_file, strlen(b->desc->module_file));
                bytebuf_append(&out, line + file_end, n - file_end);
            } else
                bytebuf_append(&out, line, n);
        } else
            bytebuf_append(&out, line, n);
        if (nl)
            bytebuf_append(&out, "\n", 1);
        line += n + (nl ? 1 : 0);
    }
    bytebuf_append(&out, "", 1);
    if (out.failed) {
        bytebuf_free(&out);
        return NULL;
    }
    size_t size;
    return (char *)bytebuf_take(&out, &size);
}

void build_report_kept(build *b, const char *kept)
{
    assert(b && kept);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    d.severity = DGPB_SEV_WARNING;
    dgpb_diag_set_file(&d, b->desc->module_file);
    const char *field[6];
    size_t len[6], n = 0;
    for (const char *s = kept; n < 6; n++) {
        const char *end = n < 5 ? strchr(s, FIELD) : NULL;
        field[n] = s;
        len[n] = end ? (size_t)(end - s) : strlen(s);
        if (!end) {
            n++;
            break;
        }
        s = end + 1;
    }
    if (n != 6) { /* not a kept record: the message alone */
        snprintf(d.message, sizeof d.message, "%s", kept);
        emit(b, &d);
        return;
    }
    if (len[0]) {
        char file[sizeof d.file];
        snprintf(file, sizeof file, "%.*s", (int)len[0], field[0]);
        dgpb_diag_set_file(&d, file);
    }
    d.line = (uint32_t)strtoul(field[1], NULL, 10);
    d.column = (uint32_t)strtoul(field[2], NULL, 10);
    snprintf(d.tool_code, sizeof d.tool_code, "%.*s", (int)len[3], field[3]);
    snprintf(d.excerpt, sizeof d.excerpt, "%.*s", (int)len[4], field[4]);
    snprintf(d.message, sizeof d.message, "%.*s", (int)len[5], field[5]);
    emit(b, &d);
}
