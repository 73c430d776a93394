/*
 * cache_setup.c - the compile cache of an invocation (cache_setup.h).
 */
#define _POSIX_C_SOURCE 200809L
#define _GNU_SOURCE /* explicit_bzero */
#include "cache_setup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgpb/alloc.h"
#include "dgpb/fileio.h"

#include "exit_status.h"
#include "messages.h"
#include "signals.h"

/*
 * Opens the compile cache (--cache-dir, $DGPB_CACHE_DIR, $XDG_CACHE_HOME/dgpb,
 * ~/.cache/dgpb) with its cap (--cache-max-size, $DGPB_CACHE_MAX_SIZE).
 * Returns EXIT_OK with *out set, or NULL when no folder can be named or made
 * (`must`: an error, else a warning and no cache).
 */
int cache_open(const options *o, bool must, dgpb_cache **out)
{
    *out = NULL;
    char dir[PATH_MAX];
    if (o->cache_dir && *o->cache_dir)
        snprintf(dir, sizeof dir, "%s", o->cache_dir);
    else if (dgpb_cache_default_dir(dir, sizeof dir)) {
        say(must ? DGPB_SEV_ERROR : DGPB_SEV_WARNING, must ? DGPB_ERR_INVALID : DGPB_OK, true,
            "no cache folder (set --cache-dir, DGPB_CACHE_DIR, XDG_CACHE_HOME or HOME)%s",
            must ? "" : "; building without the cache");
        return must ? EXIT_USAGE : EXIT_OK;
    }
    uint64_t max = 0;
    const char *size = o->cache_max_size ? o->cache_max_size : getenv("DGPB_CACHE_MAX_SIZE");
    if (size && *size && dgpb_cache_parse_size(size, &max)) {
        say(DGPB_SEV_ERROR, DGPB_ERR_INVALID, true,
            "DGPB_CACHE_MAX_SIZE needs a size (bytes, or with K, M, G), not '%s'", size);
        return EXIT_USAGE;
    }
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_cache_open(dir, max, out, &d)) {
        say(must ? DGPB_SEV_ERROR : DGPB_SEV_WARNING, must ? d.code : DGPB_OK, true,
            "cannot use the cache folder '%s': %s%s", dir, d.message,
            must ? "" : "; building without the cache");
        return must ? EXIT_TOOL : EXIT_OK;
    }
    return EXIT_OK;
}

/* The cache's warnings (a remote store unavailable or corrupt); also from its upload thread. */
static void cache_warning(void *user, const char *message)
{
    (void)user;
    say(DGPB_SEV_WARNING, DGPB_OK, true, "%s", message);
}

/*
 * Adds the remote store (--cache-remote, $DGPB_CACHE_REMOTE) to the open
 * cache. EXIT_USAGE for a URL that names none (shown without its password).
 */
int cache_open_remote(const options *o, dgpb_cache *cache)
{
    const char *url = o->cache_remote ? o->cache_remote : getenv("DGPB_CACHE_REMOTE");
    /* A build that holds the team key takes nothing a build without it fetched, with or
       without a store of its own (docs/cache.md, "Trust") */
    const char *keyed = getenv("DGPB_CACHE_REMOTE_KEY_FILE");
    if (cache && keyed && *keyed)
        dgpb_cache_set_keyed(cache);
    if (!cache || !url || !*url)
        return EXIT_OK;
    bool read_only = o->cache_remote_read_only || env_true("DGPB_CACHE_REMOTE_READ_ONLY");
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_cache_set_remote(cache, url, read_only, cache_warning, NULL, &d)) {
        say(DGPB_SEV_ERROR, d.code, true, "%s", d.message);
        return dgpb_result_class(d.code) == DGPB_ERR_INVALID ? EXIT_USAGE : EXIT_TOOL;
    }
    const char *key_file = getenv("DGPB_CACHE_REMOTE_KEY_FILE");
    if (key_file && *key_file) {
        /* The team key (docs/cache.md, "Trust"): the file's bytes, a final newline dropped;
           never printed. A key file that cannot be read, or is empty, is a usage error: a
           build must not go on unauthenticated when a key was asked for. */
        uint8_t *key = NULL;
        size_t n = 0;
        int rc = dgpb_file_read(key_file, DGPB_CACHE_REMOTE_KEY_MAX + 2, &key, &n, &d);
        while (!rc && n && (key[n - 1] == '\n' || key[n - 1] == '\r'))
            n--;
        if (!rc && (rc = dgpb_cache_set_remote_key(cache, key, n, &d)))
            snprintf(d.message, sizeof d.message,
                     "DGPB_CACHE_REMOTE_KEY_FILE: the key file holds %zu bytes; a team key holds "
                     "1 to %d",
                     n, DGPB_CACHE_REMOTE_KEY_MAX);
        if (key)
            explicit_bzero(key, n);
        dgpb_free(key);
        if (rc) {
            say(DGPB_SEV_ERROR, d.code, true, "%s%s",
                rc == DGPB_ERR_INVALID ? "" : "DGPB_CACHE_REMOTE_KEY_FILE: ", d.message);
            return EXIT_USAGE;
        }
    }
    dgpb_cache_cancel_on(cache, &signals_caught); /* a store's request stops on a signal */
    return EXIT_OK;
}

/* --cache-stats and --cache-clear. */
int cache_command(const options *o)
{
    dgpb_cache *cache = NULL;
    int rc = cache_open(o, true, &cache);
    if (rc || !cache)
        return rc ? rc : EXIT_TOOL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (o->cache_clear) {
        if (dgpb_cache_clear(cache, &d)) {
            say(DGPB_SEV_ERROR, d.code, true, "%s", d.message);
            rc = EXIT_TOOL;
        } else if (!o->quiet && !o->cache_stats) {
            printf("cache %s: cleared\n", dgpb_cache_dir(cache));
        }
    }
    dgpb_cache_stats st;
    if (!rc && o->cache_stats) {
        if (dgpb_cache_stats_get(cache, &st, &d)) {
            say(DGPB_SEV_ERROR, d.code, true, "%s", d.message);
            rc = EXIT_TOOL;
        } else {
            printf("cache folder: %s\n"
                   "entries: %llu\n"
                   "damaged: %llu\n"
                   "size: %llu bytes\n"
                   "cap: %llu bytes\n"
                   "builds: %llu hits, %llu misses\n"
                   "compiles: %llu hits, %llu misses\n"
                   "remote: %llu hits, %llu misses, %llu uploads, %llu errors\n"
                   "refused: %llu cached builds that failed validation, %llu remote entries "
                   "the team key does not authenticate\n",
                   dgpb_cache_dir(cache), (unsigned long long)st.entries,
                   (unsigned long long)st.damaged, (unsigned long long)st.size,
                   (unsigned long long)st.max_size, (unsigned long long)st.counters.build_hits,
                   (unsigned long long)st.counters.build_misses,
                   (unsigned long long)st.counters.compile_hits,
                   (unsigned long long)st.counters.compile_misses,
                   (unsigned long long)st.counters.remote_hits,
                   (unsigned long long)st.counters.remote_misses,
                   (unsigned long long)st.counters.remote_uploads,
                   (unsigned long long)st.counters.remote_errors,
                   (unsigned long long)st.counters.build_rejected,
                   (unsigned long long)st.counters.remote_unauthenticated);
        }
    }
    dgpb_cache_close(cache);
    return rc;
}
