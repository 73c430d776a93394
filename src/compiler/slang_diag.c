/*
 * slang_diag.c - what a compile printed, split into Slang's diagnostics
 * (slang_diag.h): header lines of the 2025 and 2026 renderings, the source
 * lines under them, and the column from Slang's location or its caret.
 */
#define _POSIX_C_SOURCE 200809L
#include "compiler/slang_diag.h"

#include <assert.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

#define TAB_SIZE 4 /* Slang widens a tab to the next multiple of 4 columns */

/* The kinds of header a diagnostic starts with. */
enum kind {
    LOOSE,  /* no header: text that is no diagnostic */
    LEGACY, /* m.slang(7): warning 30081: text */
    RICH,   /* warning[E30081]: text, then "--> m.slang:7:13" */
    TOOL,   /* slangc-wasm: error: text */
};

typedef struct parser {
    slang_diag_fn fn;
    void *user;
    dgpb_severity loose;
    bool open;
    enum kind kind;
    bool located; /* a RICH header's "-->" line was read */
    dgpb_diag d;
    size_t excerpt_len, message_len;
    bool excerpt_full;
} parser;

static const struct {
    const char *word;
    dgpb_severity severity;
} severities[] = {
    {"fatal error", DGPB_SEV_ERROR}, {"internal error", DGPB_SEV_ERROR},
    {"error", DGPB_SEV_ERROR},       {"warning", DGPB_SEV_WARNING},
    {"note", DGPB_SEV_NOTE},
};

/* Reads a severity word at `s`; returns what follows it, or NULL. */
static const char *read_severity(const char *s, dgpb_severity *out)
{
    for (size_t i = 0; i < sizeof severities / sizeof severities[0]; i++) {
        size_t n = strlen(severities[i].word);
        if (!strncmp(s, severities[i].word, n)) {
            *out = severities[i].severity;
            return s + n;
        }
    }
    return NULL;
}

/* Reads decimal digits; returns what follows them, or NULL when there are none. */
static const char *read_number(const char *s, unsigned long *out)
{
    if (!isdigit((unsigned char)*s))
        return NULL;
    char *end;
    *out = strtoul(s, &end, 10);
    return end;
}

static void set_text(char *dst, size_t size, const char *s, size_t n)
{
    if (n >= size)
        n = size - 1;
    memcpy(dst, s, n);
    dst[n] = 0;
}

static void set_code(dgpb_diag *d, unsigned long code)
{
    snprintf(d->tool_code, sizeof d->tool_code, "E%lu", code);
}

/* "m.slang(7): warning 30081: text", "m.slang(7, 13): ...", "(0): error 39999: ...". */
static bool read_legacy(const char *line, size_t len, dgpb_diag *d)
{
    for (const char *p = strchr(line, '('); p; p = strchr(p + 1, '(')) {
        unsigned long ln = 0, col = 0, code = 0;
        const char *s = read_number(p + 1, &ln);
        if (!s)
            continue;
        if (*s == ',') {
            s += 1 + (s[1] == ' ');
            if (!(s = read_number(s, &col)))
                continue;
        }
        dgpb_severity sev;
        if (strncmp(s, "): ", 3) || !(s = read_severity(s + 3, &sev)))
            continue;
        bool has_code = false;
        if (*s == ' ') {
            if (!(s = read_number(s + 1, &code)))
                continue;
            has_code = true;
        }
        if (strncmp(s, ": ", 2))
            continue;
        set_text(d->file, sizeof d->file, line, (size_t)(p - line));
        d->line = (uint32_t)ln;
        d->column = (uint32_t)col;
        d->severity = sev;
        if (has_code)
            set_code(d, code);
        set_text(d->message, sizeof d->message, s + 2, len - (size_t)(s + 2 - line));
        return true;
    }
    return false;
}

/* "warning[E30081]: text" (Slang 2026), "error: text". */
static bool read_rich(const char *line, size_t len, dgpb_diag *d)
{
    dgpb_severity sev;
    const char *s = read_severity(line, &sev);
    if (!s)
        return false;
    unsigned long code = 0;
    bool has_code = false;
    if (*s == '[') {
        s += 1 + (s[1] == 'E');
        if (!(s = read_number(s, &code)) || *s != ']')
            return false;
        s++;
        has_code = true;
    }
    if (strncmp(s, ": ", 2))
        return false;
    d->severity = sev;
    if (has_code)
        set_code(d, code);
    set_text(d->message, sizeof d->message, s + 2, len - (size_t)(s + 2 - line));
    return true;
}

/* "slangc-wasm: error: text": a program's own diagnostic, without a file. */
static bool read_tool(const char *line, size_t len, dgpb_diag *d)
{
    size_t n = 0;
    while (line[n] && (isalnum((unsigned char)line[n]) || strchr("_.+-", line[n])))
        n++;
    dgpb_severity sev;
    const char *s;
    if (!n || strncmp(line + n, ": ", 2) || !(s = read_severity(line + n + 2, &sev)) ||
        strncmp(s, ": ", 2))
        return false;
    d->severity = sev;
    snprintf(d->message, sizeof d->message, "%.*s: %.*s", (int)n, line,
             (int)(len - (size_t)(s + 2 - line)), s + 2);
    return true;
}

/* A RICH header's location: "  --> m.slang:7:13" (a note's: "  --- m.slang:1:8"). */
static bool read_location(const char *line, size_t len, dgpb_diag *d)
{
    const char *s = line;
    while (*s == ' ')
        s++;
    if (strncmp(s, "--> ", 4) && strncmp(s, "--- ", 4))
        return false;
    s += 4;
    const char *end = line + len;
    while (end > s && end[-1] == ' ')
        end--;
    const char *colon2 = end;
    while (colon2 > s && isdigit((unsigned char)colon2[-1]))
        colon2--;
    if (colon2 == end || colon2 - 1 <= s || colon2[-1] != ':')
        return false;
    const char *colon1 = colon2 - 1;
    while (colon1 > s && isdigit((unsigned char)colon1[-1]))
        colon1--;
    if (colon1 == colon2 - 1 || colon1 - 1 <= s || colon1[-1] != ':')
        return false;
    set_text(d->file, sizeof d->file, s, (size_t)(colon1 - 1 - s));
    d->line = (uint32_t)strtoul(colon1, NULL, 10);
    d->column = (uint32_t)strtoul(colon2, NULL, 10);
    return true;
}

/* Line `number` (1-based) of `path` without its line end, malloc'd; NULL when unreadable. */
static char *file_line(const char *path, uint32_t number)
{
    FILE *f = path[0] ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = 0;
    for (uint32_t i = 0; i < number && (n = getline(&line, &cap, f)) >= 0; i++)
        ;
    fclose(f);
    if (n < 0) {
        free(line);
        return NULL;
    }
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    return line;
}

/*
 * The byte column (1-based) of the caret at `caret` (0-based, in Slang's
 * widened line `shown`), through the file's own line: 0 when that line
 * cannot be read or, widened as Slang widens it, is not `shown`.
 */
static uint32_t byte_column(const dgpb_diag *d, const char *shown, size_t shown_len, size_t caret)
{
    char *line = file_line(d->file, d->line);
    if (!line)
        return 0;
    uint32_t column = 0;
    size_t width = 0, i = 0;
    bool same = true;
    for (; line[i] && same; i++) {
        if (width == caret && !column)
            column = (uint32_t)i + 1;
        size_t w = line[i] == '\t' ? TAB_SIZE - width % TAB_SIZE : 1;
        for (size_t k = 0; k < w && same; k++, width++)
            same = width < shown_len ? shown[width] == (line[i] == '\t' ? ' ' : line[i])
                                     : isspace((unsigned char)line[i]);
    }
    if (same && !column && width == caret)
        column = (uint32_t)i + 1;
    free(line); /* getline()'s */
    return same && width >= shown_len ? column : 0;
}

/* A LEGACY diagnostic's column from the caret line of its excerpt. */
static void caret_column(dgpb_diag *d)
{
    const char *prev = NULL, *s = d->excerpt;
    while (*s) {
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        size_t spaces = strspn(s, " ");
        if (prev && spaces < len && s[spaces] == '^') {
            size_t k = spaces + 1;
            while (k < len && (s[k] == '~' || s[k] == '^'))
                k++;
            if (k == len || s[k] == ' ') {
                uint32_t col = byte_column(d, prev, (size_t)(s - 1 - prev), spaces);
                d->column = col ? col : (uint32_t)spaces + 1;
                return;
            }
        }
        prev = s;
        if (!end)
            break;
        s = end + 1;
    }
}

static void flush(parser *p)
{
    if (!p->open)
        return;
    dgpb_diag *d = &p->d;
    while (p->excerpt_len > 0 && d->excerpt[p->excerpt_len - 1] == '\n')
        d->excerpt[--p->excerpt_len] = 0;
    size_t n = strlen(d->message);
    while (n > 0 && (d->message[n - 1] == '\n' || d->message[n - 1] == ' '))
        d->message[--n] = 0;
    if (p->kind == LEGACY && !d->column && d->line)
        caret_column(d);
    d->code = d->severity == DGPB_SEV_ERROR ? DGPB_ERR_SHADER : DGPB_OK;
    p->fn(p->user, d);
    p->open = false;
}

static void start(parser *p, enum kind kind)
{
    p->open = true;
    p->kind = kind;
    p->located = false;
    p->excerpt_len = 0;
    p->excerpt_full = false;
}

/* Adds a line under the header to the excerpt; a line that does not fit ends it. */
static void add_excerpt(parser *p, const char *line, size_t len)
{
    if (p->excerpt_full || (p->excerpt_len == 0 && len == 0))
        return;
    size_t need = (p->excerpt_len ? 1 : 0) + len;
    if (p->excerpt_len + need >= sizeof p->d.excerpt) {
        p->excerpt_full = true;
        return;
    }
    if (p->excerpt_len)
        p->d.excerpt[p->excerpt_len++] = '\n';
    memcpy(p->d.excerpt + p->excerpt_len, line, len);
    p->excerpt_len += len;
    p->d.excerpt[p->excerpt_len] = 0;
}

/* Adds a line to a LOOSE diagnostic's message. */
static void add_message(parser *p, const char *line, size_t len)
{
    size_t n = strlen(p->d.message);
    if (n + 1 + len < sizeof p->d.message) {
        if (n)
            p->d.message[n++] = '\n';
        memcpy(p->d.message + n, line, len);
        p->d.message[n + len] = 0;
    }
}

static void take_line(parser *p, char *line, size_t len)
{
    dgpb_diag next;
    dgpb_diag_clear(&next);
    enum kind kind = LOOSE;
    if (read_legacy(line, len, &next))
        kind = LEGACY;
    else if (read_rich(line, len, &next))
        kind = RICH;
    else if (read_tool(line, len, &next))
        kind = TOOL;
    if (kind != LOOSE) {
        flush(p);
        p->d = next;
        start(p, kind);
        return;
    }
    if (!p->open) {
        if (len == 0)
            return;
        dgpb_diag_clear(&p->d);
        p->d.severity = p->loose;
        start(p, LOOSE);
        add_message(p, line, len);
        return;
    }
    if (p->kind == RICH && !p->located && read_location(line, len, &p->d))
        p->located = true;
    else if (p->kind == LOOSE)
        add_message(p, line, len);
    else
        add_excerpt(p, line, len);
}

void slang_diag_parse(const char *text, dgpb_severity loose, slang_diag_fn fn, void *user)
{
    assert(text && fn);
    parser *p = mem_calloc(1, sizeof *p); /* two diagnostics of 10 KB each: not on the stack */
    char *copy = mem_strdup(text);
    if (!p || !copy) {
        dgpb_free(p);
        dgpb_free(copy);
        return;
    }
    p->fn = fn;
    p->user = user;
    p->loose = loose;
    for (char *s = copy; *s;) {
        char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        if (len > 0 && s[len - 1] == '\r')
            len--;
        s[len] = 0;
        take_line(p, s, len);
        if (!end)
            break;
        s = end + 1;
    }
    flush(p);
    dgpb_free(copy);
    dgpb_free(p);
}
