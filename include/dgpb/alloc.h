/*
 * dgpb/alloc.h - the library's allocator hooks.
 *
 * Every allocation the library makes goes through these hooks, so a host can
 * route them to its own allocator and tests can fail the Nth allocation
 * (tests/test_faults.c does, for every operation). Memory the library hands
 * to a caller (written bundles, JSON text, file contents) is released with
 * dgpb_free(). Set the hooks once, before any other call; they are global.
 */
#ifndef DGPB_ALLOC_H
#define DGPB_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dgpb_allocator {
    void *(*alloc)(size_t size, void *user);
    void *(*realloc)(void *ptr, size_t size, void *user);
    void (*free)(void *ptr, void *user);
    void *user;
} dgpb_allocator;

/* Installs hooks; NULL restores malloc/realloc/free. All three functions must be set. */
void dgpb_set_allocator(const dgpb_allocator *a);

/* Releases memory the library handed to the caller. NULL is a no-op. */
void dgpb_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif
