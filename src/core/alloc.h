/*
 * alloc.h - allocation through the hooks of dgpb/alloc.h (internal).
 *
 * Every allocation of the library goes through these, so a caller's hooks
 * (and the tests' fault injection) see all of them. Internal helpers carry
 * the `mem_` prefix; what they return is freed with the public dgpb_free().
 */
#ifndef DGPB_ALLOC_INTERNAL_H
#define DGPB_ALLOC_INTERNAL_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define mem_alloc dgpb__mem_alloc
#define mem_calloc dgpb__mem_calloc
#define mem_grow dgpb__mem_grow
#define mem_memdup dgpb__mem_memdup
#define mem_printf dgpb__mem_printf
#define mem_realloc dgpb__mem_realloc
#define mem_strdup dgpb__mem_strdup

#include <stddef.h>

#include "dgpb/alloc.h"

void *mem_alloc(size_t size);
void *mem_calloc(size_t count, size_t size); /* zeroed; NULL on overflow */
void *mem_realloc(void *ptr, size_t size);
char *mem_strdup(const char *s);
void *mem_memdup(const void *p, size_t size);

/*
 * Makes room for one more item in an array of *cap items of `size` bytes that
 * holds `count`: when it is full, reallocates it to twice *cap items (`first`
 * when empty) and updates *cap. Returns the array, which may have moved, or
 * NULL when out of memory or the size overflows; the caller's array and *cap
 * are then unchanged and still the caller's to free.
 */
void *mem_grow(void *items, size_t count, size_t *cap, size_t size, size_t first);

/* A new printf-formatted string (dgpb_free), or NULL when out of memory. */
char *mem_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
