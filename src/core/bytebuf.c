/*
 * bytebuf.c - growable byte buffer (see bytebuf.h).
 */
#include "core/bytebuf.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

void bytebuf_append(dgpb_bytebuf *b, const void *p, size_t n)
{
    if (b->failed || n == 0)
        return;
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2) {
                b->failed = true;
                return;
            }
            cap *= 2;
        }
        uint8_t *d = mem_realloc(b->data, cap);
        if (!d) {
            b->failed = true;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void bytebuf_u32(dgpb_bytebuf *b, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    bytebuf_append(b, le, 4);
}

void bytebuf_str(dgpb_bytebuf *b, const char *s, size_t n)
{
    bytebuf_u32(b, (uint32_t)n);
    bytebuf_append(b, s, n);
}

void bytebuf_free(dgpb_bytebuf *b)
{
    dgpb_free(b->data);
    *b = (dgpb_bytebuf)DGPB_BYTEBUF_INIT;
}

uint8_t *bytebuf_take(dgpb_bytebuf *b, size_t *len)
{
    uint8_t *d = b->data;
    *len = b->len;
    *b = (dgpb_bytebuf)DGPB_BYTEBUF_INIT;
    return d;
}
