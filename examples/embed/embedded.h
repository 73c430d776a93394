/* embedded.h - the bundles compiled into the host (bundles.c, written by embed.cmake). */
#ifndef EMBEDDED_H
#define EMBEDDED_H

#include <stddef.h>

typedef struct embedded_bundle {
    const char *name;
    const unsigned char *bytes;
    size_t size;
} embedded_bundle;

extern const embedded_bundle embedded_bundles[];
extern const size_t embedded_bundle_count;

#endif
