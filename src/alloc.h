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

/* A new printf-formatted string (dgpb_free), or NULL when out of memory. */
char *dgpb_strprintf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
