/*
 * tools/common/tool_common.c - the tools' name in messages, usage errors and
 * printed diagnostics, as text or one JSON object a line (tool_common.h).
 */
#include "common/tool_common.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgpb/format.h"

static const char *tool_name;
static const char *tool_tag = "";
static int tool_usage_status = 2;
static bool json_mode;

void tool_init(const char *name, const char *tag, int usage_status)
{
    assert(name && tag);
    tool_name = name;
    tool_tag = tag;
    tool_usage_status = usage_status;
}

void tool_set_json(bool on)
{
    json_mode = on;
}

bool tool_json(void)
{
    return json_mode;
}

int tool_usage_error(const char *fmt, ...)
{
    assert(tool_name);
    va_list ap;
    va_start(ap, fmt);
    if (json_mode) {
        static dgpb_diag d; /* 10 KB: not on the stack of a program's every error */
        dgpb_diag_clear(&d);
        d.severity = DGPB_SEV_ERROR;
        d.code = DGPB_ERR_INVALID;
        int n = vsnprintf(d.message, sizeof d.message, fmt, ap);
        if (n >= 0 && (size_t)n < sizeof d.message)
            snprintf(d.message + n, sizeof d.message - (size_t)n, " (see '%s --help')", tool_name);
        tool_print_diag_json(&d);
    } else {
        fprintf(stderr, "%s: %s", tool_name, tool_tag);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n(see '%s --help')\n", tool_name);
    }
    va_end(ap);
    return tool_usage_status;
}

void tool_print_diag(const dgpb_diag *d, const char *file)
{
    assert(tool_name);
    dgpb_diag copy = *d;
    if (!copy.file[0] && file)
        dgpb_diag_set_file(&copy, file);
    if (json_mode) {
        tool_print_diag_json(&copy);
        return;
    }
    if (copy.file[0])
        dgpb_diag_set_file(&copy, tool_text(copy.file, strlen(copy.file)));
    char buf[DGPB_DIAG_FILE_MAX + DGPB_DIAG_MESSAGE_MAX + DGPB_DIAG_EXCERPT_MAX + 64];
    dgpb_diag_format(&copy, buf, sizeof buf);
    fprintf(stderr, "%s: %s\n", tool_name, buf);
}

/* The length of the well-formed UTF-8 character at s (at most n bytes), or 0. */
static size_t utf8_char(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80             ? 1
                 : (s[0] & 0xE0) == 0xC0 ? 2
                 : (s[0] & 0xF0) == 0xE0 ? 3
                 : (s[0] & 0xF8) == 0xF0 ? 4
                                         : 0;
    if (!len || len > n)
        return 0;
    uint32_t cp = len == 1 ? s[0] : s[0] & (0x7F >> len);
    for (size_t k = 1; k < len; k++) {
        if ((s[k] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* The number of bytes at s (n left) written as they are by tool_text: 0 for a byte escaped. */
static size_t text_char(const unsigned char *s, size_t n)
{
    size_t len = utf8_char(s, n);
    if ((len == 1 && (s[0] < 0x20 || s[0] == 0x7F)) || (len == 2 && s[0] == 0xC2 && s[1] < 0xA0))
        return 0;
    return len;
}

const char *tool_text(const char *str, size_t n)
{
    static struct {
        char *text;
        size_t cap;
    } ring[8];
    static unsigned next;
    const unsigned char *s = (const unsigned char *)str;
    size_t need = 1;
    for (size_t i = 0; i < n;) {
        size_t len = text_char(s + i, n - i);
        need += len ? len : 4;
        i += len ? len : 1;
    }
    unsigned slot = next++ % 8;
    if (ring[slot].cap < need) {
        char *grown = realloc(ring[slot].text, need);
        if (!grown)
            return "(out of memory)";
        ring[slot].text = grown;
        ring[slot].cap = need;
    }
    char *out = ring[slot].text;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t len = text_char(s + i, n - i);
        if (len) {
            memcpy(out + o, s + i, len);
            o += len;
            i += len;
            continue;
        }
        /* a C1 control is two bytes, each escaped */
        size_t bytes = utf8_char(s + i, n - i) == 2 ? 2 : 1;
        for (size_t k = 0; k < bytes; k++, i++) {
            unsigned char c = s[i];
            if (c == '\n' || c == '\r' || c == '\t')
                o += (size_t)snprintf(out + o, 3, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
            else
                o += (size_t)snprintf(out + o, 5, "\\x%02x", c);
        }
    }
    out[o] = 0;
    return out;
}

void tool_json_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        size_t len = utf8_char(p + i, n - i);
        if (!len) {
            fputs("\\ufffd", f);
            i++;
        } else if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
            i++;
        } else if (c == '\n') {
            fputs("\\n", f);
            i++;
        } else if (c == '\t') {
            fputs("\\t", f);
            i++;
        } else if (c < 0x20 || c == 0x7F) {
            fprintf(f, "\\u%04x", c);
            i++;
        } else {
            fwrite(p + i, 1, len, f);
            i += len;
        }
    }
    fputc('"', f);
}

void tool_print_diag_json(const dgpb_diag *d)
{
    static const char *const severity[] = {"note", "warning", "error"};
    FILE *f = stderr;
    fprintf(f, "{\"severity\":\"%s\",\"file\":",
            (unsigned)d->severity < 3 ? severity[d->severity] : "error");
    if (d->file[0])
        tool_json_string(f, d->file);
    else
        fputs("null", f);
    if (d->line)
        fprintf(f, ",\"line\":%" PRIu32, d->line);
    else
        fputs(",\"line\":null", f);
    if (d->line && d->column)
        fprintf(f, ",\"column\":%" PRIu32, d->column);
    else
        fputs(",\"column\":null", f);
    fputs(",\"code\":", f);
    if (d->tool_code[0])
        tool_json_string(f, d->tool_code);
    else if (d->code != DGPB_OK)
        tool_json_string(f, dgpb_result_name(d->code));
    else
        fputs("null", f);
    fputs(",\"message\":", f);
    tool_json_string(f, d->message);
    fputs("}\n", f);
    fflush(f);
}

const char *tool_space_text(uint32_t space, char buf[16])
{
    const char *name = dgpb_space_name(space);
    if (name)
        return name;
    snprintf(buf, 16, "%" PRIu32, space);
    return buf;
}

const char *tool_binding_text(uint32_t binding, char buf[16])
{
    const char *name = dgpb_binding_name(binding);
    if (name)
        return name;
    snprintf(buf, 16, "%" PRIu32, binding);
    return buf;
}
