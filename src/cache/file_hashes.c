/*
 * file_hashes.c - what a build knows of each path its input sets name, asked
 * once per build (cache_session.h): the SHA-256 of an input file, with whether
 * it #defines or #undefs a known macro (scan/slang_text.h), which could switch
 * on a branch that a compile's key text left out; and whether anything but a
 * folder stands at a path that must stay absent (shadowing.c). The paths are
 * kept in one table, found through an index of their hashes.
 */
#include <string.h>
#include <sys/stat.h>

#include "cache/cache_session.h"
#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "scan/slang_text.h"

/* FNV-1a of a path, for the index. */
static size_t path_hash(const char *path)
{
    uint64_t h = 14695981039346656037u;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return (size_t)h;
}

/* Rebuilds the index (open addressing, slot = entry + 1) for twice the entries it holds. */
static bool reindex(cache_session *s)
{
    size_t cap = s->hash_index_cap ? 2 * s->hash_index_cap : 64;
    while (cap < 2 * (s->hash_count + 1))
        cap *= 2;
    size_t *index = mem_calloc(cap, sizeof *index);
    if (!index)
        return false;
    for (size_t i = 0; i < s->hash_count; i++) {
        size_t at = path_hash(s->hashes[i].path) & (cap - 1);
        while (index[at])
            at = (at + 1) & (cap - 1);
        index[at] = i + 1;
    }
    dgpb_free(s->hash_index);
    s->hash_index = index;
    s->hash_index_cap = cap;
    return true;
}

/* The table's entry of `path`, added (nothing known of it yet) when new; NULL: no memory. */
static cache_file_hash *entry_of(cache_session *s, const char *path)
{
    size_t at = 0;
    if (s->hash_index_cap) {
        at = path_hash(path) & (s->hash_index_cap - 1);
        for (; s->hash_index[at]; at = (at + 1) & (s->hash_index_cap - 1))
            if (!strcmp(s->hashes[s->hash_index[at] - 1].path, path))
                return &s->hashes[s->hash_index[at] - 1];
    }
    cache_file_hash *grown = mem_grow(s->hashes, s->hash_count, &s->hash_cap, sizeof *grown, 16);
    if (!grown)
        return NULL;
    s->hashes = grown;
    cache_file_hash *h = &grown[s->hash_count];
    memset(h, 0, sizeof *h);
    if (!(h->path = mem_strdup(path)))
        return NULL;
    s->hash_count++;
    if (2 * s->hash_count > s->hash_index_cap) {
        if (!reindex(s)) {
            dgpb_free(h->path);
            s->hash_count--;
            return NULL;
        }
    } else {
        while (s->hash_index[at])
            at = (at + 1) & (s->hash_index_cap - 1);
        s->hash_index[at] = s->hash_count;
    }
    return h;
}

const cache_file_hash *cache_hash_file(cache_session *s, const char *path)
{
    cache_file_hash *h = entry_of(s, path);
    if (!h)
        return NULL;
    if (!h->hashed) {
        h->hashed = true;
        uint8_t *bytes = NULL;
        size_t size = 0;
        if (dgpb_file_read(path, CACHE_INPUT_MAX, &bytes, &size, NULL) == DGPB_OK &&
            dgpb_sha256(bytes, size, h->sha) == DGPB_OK) {
            h->ok = true;
            slang_macros m = {.known = s->known, .ctx = s->known_ctx};
            h->defines_known = slang_text_defines_known(&m, (const char *)bytes, size);
        }
        dgpb_free(bytes);
    }
    return h->ok ? h : NULL;
}

int cache_path_taken(cache_session *s, const char *path)
{
    cache_file_hash *h = entry_of(s, path);
    if (!h)
        return -1;
    if (!h->taken) {
        /* Slang and the embedded compiler pass over a folder of the name and take anything
           else (a FIFO, a device: the embedded one passes over those too, so they are taken
           here to be safe); a path through a file, or too long, has nothing at it. */
        struct stat st;
        h->taken = !stat(path, &st) && !S_ISDIR(st.st_mode) ? 1 : 2;
    }
    return h->taken == 1;
}
