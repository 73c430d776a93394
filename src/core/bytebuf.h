/*
 * bytebuf.h - a growable byte buffer for the writers (internal).
 *
 * Appends never fail silently: the first failed allocation sets `failed`,
 * later appends do nothing, and the owner checks `failed` once at the end.
 * The buffer owns `data` until bytebuf_take() hands it over.
 */
#ifndef DGPB_BYTEBUF_H
#define DGPB_BYTEBUF_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define bytebuf_append dgpb__bytebuf_append
#define bytebuf_free dgpb__bytebuf_free
#define bytebuf_str dgpb__bytebuf_str
#define bytebuf_take dgpb__bytebuf_take
#define bytebuf_u32 dgpb__bytebuf_u32

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

void bytebuf_append(dgpb_bytebuf *b, const void *p, size_t n);
void bytebuf_u32(dgpb_bytebuf *b, uint32_t v);              /* little-endian */
void bytebuf_str(dgpb_bytebuf *b, const char *s, size_t n); /* u32 length + bytes */
void bytebuf_free(dgpb_bytebuf *b);
/* Hands the bytes to the caller (dgpb_free() them) and resets the buffer. */
uint8_t *bytebuf_take(dgpb_bytebuf *b, size_t *len);

#endif
