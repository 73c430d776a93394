/*
 * layout_reader.h - the handle of an opened layout blob, which layout_open.c
 * fills once every table is checked and layout_replay.c answers queries
 * from, and the reads both use (internal).
 */
#ifndef DGPB_LAYOUT_READER_H
#define DGPB_LAYOUT_READER_H

#include <stddef.h>
#include <stdint.h>

#include "layout/layout_internal.h"

struct dgpb_layout {
    const uint8_t *bytes;
    size_t size;
    uint32_t h[LH_WORDS];
    /* Where each table starts (tls: type layouts, vls: variable layouts, ranges: binding
     * ranges, sets: descriptor sets, drs: descriptor ranges, subs: sub-object ranges). */
    const uint8_t *options, *types, *vars, *tls, *vls, *entries;
    const uint8_t *answers, *attributes, *categories, *params, *fields, *ranges, *sets, *drs, *subs;
    uint32_t *string_off; /* byte offset of each string's first character */
};

static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const uint8_t *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* Word `f` of record `i` in a table of `w`-word records. */
static inline const uint8_t *at(const uint8_t *table, uint32_t i, uint32_t w, uint32_t f)
{
    return table + ((size_t)i * w + f) * 4u;
}

#endif
