/*
 * text_escape.c - text made safe for a terminal and a log (core/text_escape.h).
 */
#include "core/text_escape.h"

#include <stdio.h>
#include <string.h>

#include "core/utf8.h"

/* The length of the well-formed UTF-8 sequence at s (n bytes left), 0 when there is none. */
static size_t sequence_at(const unsigned char *s, size_t n)
{
    size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : 4;
    if (len > n || !utf8_valid((const char *)s, len, NULL))
        return 0;
    return len;
}

void text_escape(dgpb_bytebuf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        size_t len = sequence_at(s + i, n - i);
        bool c1 = len == 2 && s[i] == 0xC2 && s[i + 1] < 0xA0;
        if (len > 1 && !c1) {
            bytebuf_append(b, s + i, len);
            i += len;
            continue;
        }
        if (len == 1 && s[i] >= 0x20 && s[i] != 0x7F) {
            bytebuf_append(b, s + i, 1);
            i++;
            continue;
        }
        size_t bytes = c1 ? 2 : 1;
        for (size_t k = 0; k < bytes; k++, i++) {
            char esc[5];
            if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
                snprintf(esc, sizeof esc, "\\%c", s[i] == '\n' ? 'n' : s[i] == '\r' ? 'r' : 't');
            else
                snprintf(esc, sizeof esc, "\\x%02x", s[i]);
            bytebuf_append(b, esc, strlen(esc));
        }
    }
}

char *text_escaped(const char *s)
{
    dgpb_bytebuf b = {0};
    text_escape(&b, s, strlen(s));
    bytebuf_append(&b, "", 1);
    if (b.failed) {
        bytebuf_free(&b);
        return NULL;
    }
    size_t n;
    return (char *)bytebuf_take(&b, &n);
}
