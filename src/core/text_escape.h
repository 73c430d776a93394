/*
 * text_escape.h - text made safe for a terminal and a log (internal).
 */
#ifndef DGPB_TEXT_ESCAPE_H
#define DGPB_TEXT_ESCAPE_H

#define text_escape dgpb__text_escape
#define text_escaped dgpb__text_escaped

#include <stddef.h>

#include "core/bytebuf.h"

/*
 * Appends the `n` bytes at `s` to `b` with every byte a terminal would act
 * on, or that is not text, escaped: TAB, LF and CR as `\t`, `\n`, `\r`;
 * other C0 controls, DEL, the C1 controls U+0080-U+009F and every byte that
 * is not part of well-formed UTF-8 as `\xNN` (lower-case hex, one per byte).
 * Everything else, backslashes included, is copied as it is.
 */
void text_escape(dgpb_bytebuf *b, const char *s, size_t n);

/* A new NUL-terminated escaped copy of the string `s` (text_escape); NULL when out of memory. */
char *text_escaped(const char *s);

#endif
