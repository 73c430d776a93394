/*
 * progress.c - dgpb-build's progress line (progress.h).
 */
#include "progress.h"

#include <stdio.h>
#include <string.h>

/* Copies at most `room` bytes of `s` into out (room + 1 bytes), its middle elided with "...". */
static void elide(const char *s, size_t room, char *out)
{
    size_t n = strlen(s);
    if (n <= room) {
        memcpy(out, s, n + 1);
        return;
    }
    if (room < 5) { /* too narrow for "a...b": the start alone */
        memcpy(out, s, room);
        out[room] = 0;
        return;
    }
    size_t head = (room - 3) / 2 + (room - 3) % 2, tail = (room - 3) / 2;
    memcpy(out, s, head);
    memcpy(out + head, "...", 3);
    memcpy(out + head + 3, s + n - tail, tail);
    out[room] = 0;
}

size_t progress_format(const dgpb_build_progress *p, unsigned width, char *buf, size_t size)
{
    if (!size)
        return 0;
    const char *entry = p->entry ? p->entry : "";
    const char *target = p->target ? p->target : "";
    double elapsed = p->elapsed > 0 ? p->elapsed : 0;
    char head[48], tail[160];
    snprintf(head, sizeof head, "[%u/%u] ", (unsigned)p->done, (unsigned)p->total);
    if (*target)
        snprintf(tail, sizeof tail, " (%.100s) %.1fs", target, elapsed);
    else
        snprintf(tail, sizeof tail, " %.1fs", elapsed);
    size_t fixed = strlen(head) + strlen(tail);
    size_t room = strlen(entry);
    if (width > 0)
        room = width - 1 > fixed ? width - 1 - fixed : 0;
    char shown[512];
    if (room >= sizeof shown)
        room = sizeof shown - 1;
    elide(entry, room, shown);
    int n = snprintf(buf, size, "%s%s%s", head, shown, tail);
    if (width > 0 && (size_t)n > width - 1 && width - 1 < size) { /* narrower than the counts */
        buf[width - 1] = 0;
        n = (int)width - 1;
    }
    return (size_t)n < size ? (size_t)n : size - 1;
}

void progress_show(void *ctx, const dgpb_build_progress *p)
{
    progress_line *line = ctx;
    char buf[1024], entry[1024];
    dgpb_build_progress shown = *p;
    if (line->module) {
        snprintf(entry, sizeof entry, "%s: %s", line->module, p->entry ? p->entry : "");
        shown.entry = entry;
    }
    progress_format(&shown, line->width, buf, sizeof buf);
    fprintf(line->out, "\r%s\033[K", buf);
    fflush(line->out);
    line->shown = true;
}

void progress_clear(progress_line *line)
{
    if (!line || !line->shown)
        return;
    fputs("\r\033[K", line->out);
    fflush(line->out);
    line->shown = false;
}
