/*
 * cache/cache_files.h - the files of a cache folder as they lie on disk
 * (docs/cache.md "On disk", "Safety"): the scan that lists its entries and
 * what lies in place of one (a folder, a FIFO, a link: damage), eviction by
 * least recent use, and the removal of anything in the folder without
 * following links; the counter records and the eviction hint kept beside the
 * entries. For cache.c.
 */
#ifndef DGPB_CACHE_FILES_H
#define DGPB_CACHE_FILES_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "dgpb/cache.h"

#define cache_scan_entries dgpb__cache_scan_entries
#define cache_scan_free dgpb__cache_scan_free
#define cache_evict dgpb__cache_evict
#define cache_remove_any dgpb__cache_remove_any
#define cache_counters_add dgpb__cache_counters_add
#define cache_counters_read dgpb__cache_counters_read
#define cache_get_u64 dgpb__cache_get_u64
#define cache_put_u64 dgpb__cache_put_u64
#define cache_scan_due dgpb__cache_scan_due

typedef struct cache_file {
    char *path;
    uint64_t size;
    struct timespec mtime;
} cache_file;

typedef struct cache_scan {
    cache_file *files; /* entry files: regular files */
    size_t count, cap;
    uint64_t total; /* their bytes */
    char **damaged; /* what is not a regular file where an entry, a prefix folder's
                        file or a counter file belongs */
    size_t damaged_count, damaged_cap;
} cache_scan;

/*
 * Lists the entry files under `root` (<dir>/v1) and what is damaged (above);
 * removes temporaries left by writers that died over an hour ago. Nothing is
 * opened but folders, and no link is followed. DGPB_ERR_IO when `root`
 * cannot be read.
 */
int cache_scan_entries(const char *root, cache_scan *s);

void cache_scan_free(cache_scan *s);

/* When the entries under `root` total more than `max_size`: the least recently used removed
   until they fit in nine tenths of it. */
void cache_evict(const char *root, uint64_t max_size);

/*
 * Removes what lies at `path`, whatever it is: a file, a FIFO or a link is
 * unlinked (never its target), a folder removed with everything in it (links
 * in it unlinked, not followed; other file systems mounted in it left). 0, or
 * the errno of the first failure; 0 when nothing is there.
 */
int cache_remove_any(const char *path);

/* A u64 in 8 bytes, little-endian (entry headers, counter records). */
void cache_put_u64(uint8_t *p, uint64_t v);
uint64_t cache_get_u64(const uint8_t *p);

/*
 * The counters of <root>/counters, remote-counters and rejected-counters: records of four
 * u64 each, appended by every process that closes the cache (cache_counters_add, nothing
 * for counts all 0), summed by cache_counters_read (damaged bytes count as nothing).
 */
void cache_counters_read(const char *root, dgpb_cache_counters *out);
void cache_counters_add(const char *root, const dgpb_cache_counters *k);

/*
 * Whether to scan <root> for eviction: once the bytes written since the last scan (this
 * process's put_bytes added to <root>/pending) pass a 32nd of max_size; resets the count
 * when it says yes.
 */
bool cache_scan_due(const char *root, uint64_t put_bytes, uint64_t max_size);

#endif
