/*
 * progress.h - dgpb-build's progress line: on a terminal, one line that
 * each compile's start and end rewrites in place, as Ninja's is:
 *
 *     [12/72] blur (spirv) 0.8s
 *
 * Written with a carriage return and cleared ("\r\033[K") before any other
 * message and at the end, so that nothing of it stays on screen. dgpb-build
 * shows it only when standard error is a terminal (not -q, not TERM=dumb).
 */
#ifndef DGPB_BUILD_PROGRESS_H
#define DGPB_BUILD_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dgpb/build.h"

typedef struct progress_line {
    FILE *out;          /* the terminal */
    unsigned width;     /* its columns; 0: unknown (no limit) */
    bool shown;         /* a line is on it now */
    const char *module; /* with several modules, the one being built, shown before the
                           entry ("[3/12] b.slang: blur (spirv) 0.4s"); NULL: none */
} progress_line;

/*
 * Formats one report as "[done/total] ENTRY (TARGET) 1.2s" into buf (always
 * NUL-terminated). With a width, the line keeps to width - 1 columns: the
 * entry's middle gives way to "..." first. Returns the line's length.
 */
size_t progress_format(const dgpb_build_progress *p, unsigned width, char *buf, size_t size);

/*
 * A dgpb_progress_fn: ctx is a progress_line. Rewrites the line in place,
 * the line's module (if any) before the entry, both elided together.
 */
void progress_show(void *ctx, const dgpb_build_progress *p);

/* Clears the line when one is shown (before any other message, and at the end). */
void progress_clear(progress_line *line);

#endif
