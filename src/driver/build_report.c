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
#include <stdbool.h>
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
    h = h ? h : 1; /* 0 marks an empty slot */
    /* An open-addressing set, kept at most half full: a million repeated -D warnings cost
       a million lookups, not a million squared. */
    if (2 * (b->seen_count + 1) > b->seen_cap) {
        size_t cap = b->seen_cap ? 2 * b->seen_cap : 64;
        uint64_t *table = mem_calloc(cap, sizeof *table);
        if (!table)
            return false; /* said again rather than lost */
        for (size_t i = 0; i < b->seen_cap; i++) {
            if (!b->seen[i])
                continue;
            size_t at = (size_t)b->seen[i] & (cap - 1);
            while (table[at])
                at = (at + 1) & (cap - 1);
            table[at] = b->seen[i];
        }
        dgpb_free(b->seen);
        b->seen = table;
        b->seen_cap = cap;
    }
    size_t at = (size_t)h & (b->seen_cap - 1);
    while (b->seen[at]) {
        if (b->seen[at] == h)
            return true;
        at = (at + 1) & (b->seen_cap - 1);
    }
    b->seen[at] = h;
    b->seen_count++;
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
    char *given = build_text_as_given(b, text, (int)strlen(text)); /* paths as the user's */
    slang_diag_parse(given ? given : text, loose, take_diagnostic, &t);
    dgpb_free(given);
}

/*
 * Where a diagnostic's header line names its file, within `line` (n bytes):
 * "FILE(LINE): " or "FILE(LINE, COLUMN): " at the line's start or after a
 * context's ": " (a recorder's message quoting Slang), or Slang 2026's
 * "--> FILE:LINE:COLUMN". The path is [file, file_end); [place, place_end)
 * is what says where in it ("(8, 5)", ":21:13"), and line_no its line.
 */
typedef struct header_at {
    size_t file, file_end, place, place_end;
    unsigned long line_no;
    bool rich; /* --> FILE:LINE:COLUMN */
} header_at;

static bool header_of(const char *line, size_t n, header_at *h)
{
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (n - i > 4 && !memcmp(line + i, "--> ", 4)) { /* --> FILE:LINE:COLUMN */
        size_t end = n;
        for (int colons = 0; end > i + 4 && colons < 2; end--)
            if (line[end - 1] == ':')
                colons++;
        if (end <= i + 4)
            return false;
        *h = (header_at){.file = i + 4,
                         .file_end = end,
                         .place = end,
                         .place_end = n,
                         .line_no = strtoul(line + end + 1, NULL, 10),
                         .rich = true};
        return true;
    }
    /* FILE(LINE): or FILE(LINE, COLUMN): the first, since the message after it may hold
       another ("... got 'f(1): x'") */
    const char *mark = NULL, *mark_end = NULL;
    for (const char *p = line; !mark && p + 3 < line + n; p++)
        if (*p == '(' && p > line && p[1] >= '0' && p[1] <= '9') {
            const char *q = p + 1;
            while (q < line + n && ((*q >= '0' && *q <= '9') || *q == ',' || *q == ' '))
                q++;
            if (q + 1 < line + n && q[0] == ')' && q[1] == ':')
                mark = p, mark_end = q + 1;
        }
    if (!mark)
        return false;
    size_t file = 0; /* the line's start, or after the last ": " before the mark */
    for (const char *p = line; p + 1 < mark; p++)
        if (p[0] == ':' && p[1] == ' ')
            file = (size_t)(p + 2 - line);
    if (file == 0 && i != 0)
        return false; /* an indented line: Slang's source excerpt */
    *h = (header_at){.file = file,
                     .file_end = (size_t)(mark - line),
                     .place = (size_t)(mark - line),
                     .place_end = (size_t)(mark_end - line),
                     .line_no = strtoul(mark + 1, NULL, 10),
                     .rich = false};
    return true;
}

/* Whether `path` names the discovery module, which includes the module (build_discover.c). */
static bool is_wrapper(const build *b, const char *path)
{
    struct stat a, w;
    return b->wrapper &&
           (!strcmp(path, b->wrapper) || (!stat(path, &a) && !stat(b->wrapper, &w) &&
                                          a.st_dev == w.st_dev && a.st_ino == w.st_ino));
}

/* The line of the module's end, as Slang names it: one past its last newline. */
static unsigned long module_end_line(const build *b)
{
    unsigned long line = 1;
    for (size_t i = 0; b->source && i < b->source_len; i++)
        line += b->source[i] == '\n';
    return line;
}

char *build_text_as_given(const build *b, const char *text, int len)
{
    dgpb_bytebuf out = DGPB_BYTEBUF_INIT;
    const char *end = text + len;
    /* The discovery module's text past its first line comes after the module's (the anchor
       entry, its end): Slang reports there what the module left open. Whether it reported
       the end itself, which then says all of it. */
    bool wrapper_end = false;
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        header_at h;
        char path[4096];
        if (header_of(line, n, &h) && h.file_end - h.file < sizeof path) {
            memcpy(path, line + h.file, h.file_end - h.file);
            path[h.file_end - h.file] = 0;
            wrapper_end |= h.line_no > BUILD_WRAPPER_LINES && is_wrapper(b, path);
        }
        line += n + (nl ? 1 : 0);
    }
    bool dropping = false; /* the source excerpt of a diagnostic dropped or moved */
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        header_at h;
        char path[4096];
        bool header = header_of(line, n, &h) && h.file_end - h.file < sizeof path;
        if (header) {
            memcpy(path, line + h.file, h.file_end - h.file);
            path[h.file_end - h.file] = 0;
        }
        const char *module = b->desc->module_file;
        if (header && is_wrapper(b, path)) {
            /* At the module's end, without the wrapper's excerpt; what it says of the anchor
               entry's lines, when Slang also reported the end, only follows from that. */
            dropping = true;
            if (!(wrapper_end && h.line_no > 1 && h.line_no <= BUILD_WRAPPER_LINES)) {
                char place[32];
                snprintf(place, sizeof place, h.rich ? ":%lu:1" : "(%lu)", module_end_line(b));
                bytebuf_append(&out, line, h.file);
                bytebuf_append(&out, module, strlen(module));
                bytebuf_append(&out, place, strlen(place));
                bytebuf_append(&out, line + h.place_end, n - h.place_end);
                bytebuf_append(&out, "\n", 1);
            }
        } else if (header && is_module(b, path)) {
            dropping = false;
            bytebuf_append(&out, line, h.file);
            bytebuf_append(&out, module, strlen(module));
            bytebuf_append(&out, line + h.file_end, n - h.file_end);
            bytebuf_append(&out, "\n", 1);
        } else if (header || !dropping) {
            dropping = false;
            bytebuf_append(&out, line, n);
            bytebuf_append(&out, "\n", 1);
        }
        line += n + (nl ? 1 : 0);
    }
    while (out.len && out.data[out.len - 1] == '\n' && (len == 0 || text[len - 1] != '\n'))
        out.len--;
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
