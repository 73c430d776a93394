/*
 * json_stream.c - JSON objects framed one at a time from a file descriptor
 * (json_stream.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "json_stream.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void json_stream_init(json_stream *s, int fd)
{
    memset(s, 0, sizeof *s);
    s->fd = fd;
}

void json_stream_free(json_stream *s)
{
    free(s->buf);
    memset(s, 0, sizeof *s);
}

/*
 * Reads more input after what is held, dropping what was handed out. Returns
 * the number of bytes read (0 at the end of the input), or -1 with *why.
 */
static long fill(json_stream *s, const char **why)
{
    if (s->start) {
        memmove(s->buf, s->buf + s->start, s->len - s->start);
        s->len -= s->start;
        s->start = 0;
    }
    if (s->cap - s->len < 4096) {
        size_t cap = s->cap ? s->cap * 2 : 65536;
        if (cap > JSON_STREAM_MAX + 65536)
            cap = JSON_STREAM_MAX + 65536;
        if (cap == s->len) {
            *why = "a work request larger than 64 MiB";
            return -1;
        }
        char *grown = realloc(s->buf, cap);
        if (!grown) {
            *why = "out of memory for a work request";
            return -1;
        }
        s->buf = grown;
        s->cap = cap;
    }
    ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
    if (n < 0) {
        *why = errno == EINTR ? "interrupted by a signal" : "cannot read the standard input";
        return -1;
    }
    s->len += (size_t)n;
    return (long)n;
}

/* Hands the object buf[start, end) out where it stands, and moves past it. */
static int hand_out(json_stream *s, size_t end, char **text, size_t *size)
{
    *text = s->buf + s->start;
    *size = end - s->start;
    s->start = end;
    return 1;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int json_stream_next(json_stream *s, char **text, size_t *size, const char **why)
{
    /* White space before the object; the end of the input there is the normal end. */
    for (;;) {
        while (s->start < s->len && is_space(s->buf[s->start]))
            s->start++;
        if (s->start < s->len)
            break;
        long n = fill(s, why);
        if (n <= 0)
            return n < 0 ? -1 : 0;
    }
    if (s->buf[s->start] != '{') {
        *why = "the input holds something other than a JSON object where a work request starts";
        return -1;
    }
    int depth = 0;
    bool in_string = false, escaped = false;
    size_t i = s->start; /* an offset from s->start once fill() has moved the bytes */
    for (;;) {
        for (; i < s->len; i++) {
            char c = s->buf[i];
            if (in_string) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    in_string = false;
            } else if (c == '"') {
                in_string = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return hand_out(s, i + 1, text, size);
            }
        }
        if (s->len - s->start >= JSON_STREAM_MAX) {
            *why = "a work request larger than 64 MiB";
            return -1;
        }
        size_t offset = i - s->start;
        long n = fill(s, why);
        if (n < 0)
            return -1;
        if (n == 0) {
            *why = "the input ended inside a work request";
            return -1;
        }
        i = s->start + offset;
    }
}
