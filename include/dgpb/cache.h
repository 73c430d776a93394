/*
 * dgpb/cache.h - the compile cache's store: content-addressed entries in one
 * folder (docs/cache.md).
 *
 * An entry is a byte string filed under a 32-byte key and a kind letter
 * ('m' a compile manifest, 'r' a compile result, 'b' a build manifest, 'o' a
 * build result, 'v' a compiler's version). It is written to a temporary file
 * in the cache folder and renamed into place, so readers see a whole entry or
 * none, and concurrent writers of one key leave one of their entries. Each
 * entry carries its size and SHA-256: a truncated or damaged one reads as
 * missing. A read touches the entry's modification time; when a writing
 * process closes the cache and the entries total more than the cap, the
 * least recently used are removed until they fit in nine tenths of it.
 *
 *     dgpb_cache *c;
 *     if (dgpb_cache_open(dir, 0, &c, &diag) == DGPB_OK) {
 *         if (dgpb_cache_get(c, 'r', key, &data, &size) == DGPB_OK) ... dgpb_free(data);
 *         dgpb_cache_put(c, 'r', key, bytes, n);
 *         dgpb_cache_close(c);
 *     }
 */
#ifndef DGPB_CACHE_H
#define DGPB_CACHE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DGPB_CACHE_KEY_SIZE 32
#define DGPB_CACHE_DEFAULT_MAX_SIZE ((uint64_t)1 << 30)

typedef struct dgpb_cache dgpb_cache;

/*
 * Hit and miss counters: whole builds and single compiles (layouts included);
 * the remote store's hits, misses (entries found in neither), entries uploaded
 * and failed or rejected requests.
 */
typedef struct dgpb_cache_counters {
    uint64_t build_hits, build_misses, compile_hits, compile_misses;
    uint64_t remote_hits, remote_misses, remote_uploads, remote_errors;
    uint64_t build_rejected;         /* cached builds found but refused by the replay's validation
                                (counted among build_misses too) */
    uint64_t remote_unauthenticated; /* remote entries the team key does not authenticate */
} dgpb_cache_counters;

typedef struct dgpb_cache_stats {
    uint64_t entries;  /* entry files */
    uint64_t size;     /* their bytes */
    uint64_t max_size; /* the cap */
    dgpb_cache_counters counters;
    uint64_t damaged; /* what is not a regular file in place of an entry or a counter file (a
                         folder, a FIFO, a link): a miss when read, removed by dgpb_cache_clear */
} dgpb_cache_stats;

/*
 * The default folder: $DGPB_CACHE_DIR, else $XDG_CACHE_HOME/dgpb, else
 * $HOME/.cache/dgpb. DGPB_ERR_NOT_FOUND when none of them is set.
 */
int dgpb_cache_default_dir(char *buf, size_t size);

/*
 * Parses a size: bytes, or with a K, M or G suffix (powers of 1024).
 * DGPB_ERR_INVALID when it is not one.
 */
int dgpb_cache_parse_size(const char *text, uint64_t *out);

/* Opens (creating if missing) the cache in `dir`; max_size 0: the default cap. */
int dgpb_cache_open(const char *dir, uint64_t max_size, dgpb_cache **out, dgpb_diag *diag);

/* A warning of the cache (a remote store unavailable, a corrupt answer); may be called from
   the cache's upload and fetch threads, one call at a time. */
typedef void (*dgpb_cache_warn_fn)(void *user, const char *message);

/*
 * Adds a remote store (cache/remote_cache.h, docs/cache.md "Remote stores"):
 * dgpb_cache_get then reads through it on a local miss (every entry verified),
 * dgpb_cache_put also uploads each new entry from a background thread
 * (unless read_only) that dgpb_cache_close finishes. Every request is bounded
 * (docs/cache.md "Remote stores"). After the first failure to reach the store, or its
 * first corrupt, oversized, short or too slow answer (a miss), it is left alone
 * for the rest of the process, with one warning. DGPB_ERR_INVALID for a URL
 * that names no store (the message shows no user or password).
 */
int dgpb_cache_set_remote(dgpb_cache *c, const char *url, bool read_only, dgpb_cache_warn_fn warn,
                          void *user, dgpb_diag *diag);

/* The longest team key dgpb_cache_set_remote_key takes, in bytes. */
#define DGPB_CACHE_REMOTE_KEY_MAX 1024

/*
 * Gives the remote store a team key (DGPB_CACHE_REMOTE_KEY_FILE, docs/cache.md "Trust"):
 * every action entry uploaded then carries, after its content's SHA-256, an HMAC-SHA-256
 * under the key of the action and that SHA-256; an entry read without one that the key
 * verifies is a miss, counted (remote_unauthenticated) and warned about once. The key is
 * copied and never shown. DGPB_ERR_INVALID for an empty key, one longer than
 * DGPB_CACHE_REMOTE_KEY_MAX bytes, or a cache without a remote store. After
 * dgpb_cache_set_remote, before the first lookup.
 */
int dgpb_cache_set_remote_key(dgpb_cache *c, const void *key, size_t size, dgpb_diag *diag);

/*
 * The build holds a team key (DGPB_CACHE_REMOTE_KEY_FILE), with or without a remote store
 * (dgpb_cache_set_remote_key sets it too): a local entry that a build without a key fetched
 * from a store, which nothing vouched for, is a miss (counted as remote_unauthenticated),
 * and the compile that replaces it files an entry of this build's own. Entries built here, and
 * those a key authenticated, are used as before.
 */
void dgpb_cache_set_keyed(dgpb_cache *c);

/* Stops the remote store's requests (a miss; the store then left alone, without a
   warning) once *flag is nonzero: a signal. After dgpb_cache_set_remote. */
void dgpb_cache_cancel_on(dgpb_cache *c, const volatile sig_atomic_t *flag);

/* Finishes the uploads, adds this process's counters to the cache's, evicts when entries were written, frees. */
void dgpb_cache_close(dgpb_cache *c);

const char *dgpb_cache_dir(const dgpb_cache *c);

/* Reads an entry: DGPB_OK with a new buffer (dgpb_free), or DGPB_ERR_NOT_FOUND (also when
   it is damaged). */
int dgpb_cache_get(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE], uint8_t **data,
                   size_t *size);

/*
 * Reads an entry from the remote store alone, without storing it locally: for
 * an entry the local cache holds in another version than the one wanted (a
 * manifest without a matching input set). DGPB_ERR_NOT_FOUND without a remote
 * store.
 */
int dgpb_cache_get_remote(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                          uint8_t **data, size_t *size);

/*
 * Asks the remote store, several requests at once, for the entries of `keys`
 * that the local cache lacks; those found are stored locally (so that
 * dgpb_cache_get finds them there) and those absent are remembered, so that
 * dgpb_cache_get does not ask again. Nothing without a remote store.
 */
void dgpb_cache_prefetch(dgpb_cache *c, char kind, const uint8_t (*keys)[DGPB_CACHE_KEY_SIZE],
                         size_t count);

/* Writes an entry (atomically); a failure only means the entry is not kept. */
int dgpb_cache_put(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                   const void *data, size_t size);

/* This process's counters, added to the cache's at close. */
dgpb_cache_counters *dgpb_cache_counters_of(dgpb_cache *c);

/* Scans the folder and reads the counters. */
int dgpb_cache_stats_get(dgpb_cache *c, dgpb_cache_stats *stats, dgpb_diag *diag);

/* Removes every entry, the counters, and what lies damaged in their place. */
int dgpb_cache_clear(dgpb_cache *c, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
