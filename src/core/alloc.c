/*
 * alloc.c - the allocator hooks (dgpb/alloc.h).
 */
#include "core/alloc.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *std_alloc(size_t size, void *user)
{
    (void)user;
    return malloc(size);
}

static void *std_realloc(void *ptr, size_t size, void *user)
{
    (void)user;
    return realloc(ptr, size);
}

static void std_free(void *ptr, void *user)
{
    (void)user;
    free(ptr);
}

static dgpb_allocator hooks = {std_alloc, std_realloc, std_free, NULL};

void dgpb_set_allocator(const dgpb_allocator *a)
{
    if (a && a->alloc && a->realloc && a->free)
        hooks = *a;
    else
        hooks = (dgpb_allocator){std_alloc, std_realloc, std_free, NULL};
}

void *mem_alloc(size_t size)
{
    return hooks.alloc(size ? size : 1, hooks.user);
}

void *mem_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    size_t bytes = count * size;
    void *p = mem_alloc(bytes);
    if (p && bytes > 0)
        memset(p, 0, bytes);
    return p;
}

void *mem_realloc(void *ptr, size_t size)
{
    return hooks.realloc(ptr, size ? size : 1, hooks.user);
}

void dgpb_free(void *ptr)
{
    if (ptr)
        hooks.free(ptr, hooks.user);
}

char *mem_strdup(const char *s)
{
    return mem_memdup(s, strlen(s) + 1);
}

void *mem_memdup(const void *p, size_t size)
{
    void *d = mem_alloc(size);
    if (d && size)
        memcpy(d, p, size);
    return d;
}

void *mem_grow(void *items, size_t count, size_t *cap, size_t size, size_t first)
{
    assert(count <= *cap && size > 0 && first > 0);
    if (count < *cap)
        return items;
    if (*cap > SIZE_MAX / 2 / size)
        return NULL;
    size_t n = *cap ? *cap * 2 : first;
    if (n > SIZE_MAX / size)
        return NULL;
    void *p = mem_realloc(items, n * size);
    if (p)
        *cap = n;
    return p;
}

char *mem_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = mem_alloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}
