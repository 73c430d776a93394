/*
 * file_hashes.c - the SHA-256 of each input file, hashed once per build
 * (cache_session.h): the manifests' input sets are checked and written
 * with them. With each hash, whether the file #defines or #undefs a known
 * macro (scan/slang_text.h), which could switch on a branch that a compile's
 * key text left out.
 */
#include <string.h>

#include "cache/cache_session.h"
#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "scan/slang_text.h"

const cache_file_hash *cache_hash_file(cache_session *s, const char *path)
{
    for (size_t i = 0; i < s->hash_count; i++)
        if (!strcmp(s->hashes[i].path, path))
            return s->hashes[i].ok ? &s->hashes[i] : NULL;
    cache_file_hash *grown = mem_grow(s->hashes, s->hash_count, &s->hash_cap, sizeof *grown, 16);
    if (!grown)
        return NULL;
    s->hashes = grown;
    cache_file_hash *h = &grown[s->hash_count];
    memset(h, 0, sizeof *h);
    if (!(h->path = mem_strdup(path)))
        return NULL;
    s->hash_count++;
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (dgpb_file_read(path, CACHE_INPUT_MAX, &bytes, &size, NULL) == DGPB_OK &&
        dgpb_sha256(bytes, size, h->sha) == DGPB_OK) {
        h->ok = true;
        slang_macros m = {.known = s->known, .ctx = s->known_ctx};
        h->defines_known = slang_text_defines_known(&m, (const char *)bytes, size);
    }
    dgpb_free(bytes);
    return h->ok ? h : NULL;
}
