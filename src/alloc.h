/*
 * alloc.h - allocation through the hooks of dgpb/alloc.h (internal).
 */
#ifndef DGPB_ALLOC_INTERNAL_H
#define DGPB_ALLOC_INTERNAL_H

#include <stddef.h>

#include "dgpb/alloc.h"

void *dgpb_malloc(size_t size);
void *dgpb_calloc(size_t count, size_t size); /* zeroed; NULL on overflow */
void *dgpb_realloc(void *ptr, size_t size);
char *dgpb_strdup(const char *s);
void *dgpb_memdup(const void *p, size_t size);

/*
 * Makes room for one more item in an array of *cap items of `size` bytes that
 * holds `count`: when it is full, reallocates it to twice *cap items (`first`
 * when empty) and updates *cap. Returns the array, which may have moved, or
 * NULL when out of memory or the size overflows; the caller's array and *cap
 * are then unchanged and still the caller's to free.
 */
void *dgpb_grow(void *items, size_t count, size_t *cap, size_t size, size_t first);

/* A new printf-formatted string (dgpb_free), or NULL when out of memory. */
char *dgpb_strprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
