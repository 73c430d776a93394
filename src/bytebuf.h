/*
 * bytebuf.h - a growable byte buffer for the writers (internal).
 *
 * Appends never fail silently: the first failed allocation sets `failed`,
 * later appends do nothing, and the owner checks `failed` once at the end.
 * The buffer owns `data` until dgpb_bytebuf_take() hands it over.
 */
#ifndef DGPB_BYTEBUF_H
#define DGPB_BYTEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dgpb_bytebuf {
    uint8_t *data;
    size_t len;
    size_t cap;
    bool failed;
} dgpb_bytebuf;

#define DGPB_BYTEBUF_INIT                                                                          \
    {                                                                                              \
        NULL, 0, 0, false                                                                          \
    }

void dgpb_bytebuf_append(dgpb_bytebuf *b, const void *p, size_t n);
void dgpb_bytebuf_u32(dgpb_bytebuf *b, uint32_t v);              /* little-endian */
void dgpb_bytebuf_str(dgpb_bytebuf *b, const char *s, size_t n); /* u32 length + bytes */
void dgpb_bytebuf_free(dgpb_bytebuf *b);
/* Hands the bytes to the caller (dgpb_free() them) and resets the buffer. */
uint8_t *dgpb_bytebuf_take(dgpb_bytebuf *b, size_t *len);

#endif
