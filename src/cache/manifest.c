/*
 * manifest.c - manifests (cache_session.h, docs/cache.md "Two levels"): the
 * input sets filed under a key, each a list of files with their SHA-256 and
 * the key of a result; a set matches when every file still hashes the same.
 * Looked up locally, then in the remote store; a batch of jobs at once (each
 * step's remote lookups together). Results are filed with their set here too.
 *
 * A manifest's text: "dgpb-manifest 5\n", "action KEY\n" (the key it is
 * filed under, in hex: a manifest found under another key, one a store
 * swapped in, is a miss), then up to SETS_KEPT sets, newest first:
 * "set RESULT FULL N\n" and N lines, each "SHA256 PATH\n" (a file the
 * compile read) or "absent PATH\n" (a path where it would have looked first,
 * shadowing.c: nothing but a folder may stand there for the set to match);
 * FULL: the whole main source's SHA-256 that the set also needs, or "-"; PATH
 * with the project root as a placeholder.
 */
#include <stdio.h>
#include <string.h>

#include "cache/cache_session.h"
#include "core/alloc.h"

#define SETS_KEPT 4 /* input sets a manifest keeps, newest first */
/* 5: a manifest names its action and its sets list the paths that must stay absent;
   one written before (headed "dgpb-manifest " CACHE_FORMAT, 4) is never read, and
   replaced when filed */
#define MANIFEST_HEAD "dgpb-manifest 5\n"

/* The manifest's first two lines for `key`: its header and the action it answers. */
static void manifest_head(const uint8_t key[DGPB_SHA256_SIZE], char out[100])
{
    char hex[2 * DGPB_SHA256_SIZE + 1];
    dgpb_sha256_hex(key, hex);
    snprintf(out, 100, MANIFEST_HEAD "action %s\n", hex);
}

/* Whether every file of the set at *p hashes as listed, and nothing stands where it must
   not; moves *p past the set. */
static bool set_matches(cache_session *s, const char **p, const char *end, size_t n)
{
    bool all = true;
    for (size_t i = 0; i < n; i++) {
        const char *nl = memchr(*p, '\n', (size_t)(end - *p));
        if (nl && nl - *p > 7 && !memcmp(*p, "absent ", 7)) {
            if (all) {
                char *path = cache_unroot(s, *p + 7, (size_t)(nl - *p - 7));
                all = path && cache_path_taken(s, path) == 0;
                dgpb_free(path);
            }
            *p = nl + 1;
            continue;
        }
        if (!nl || nl - *p < 66 || (*p)[64] != ' ')
            return false;
        if (all) {
            char *path = cache_unroot(s, *p + 65, (size_t)(nl - *p - 65));
            const cache_file_hash *h = path ? cache_hash_file(s, path) : NULL;
            dgpb_free(path);
            char hex[2 * DGPB_SHA256_SIZE + 1];
            if (h)
                dgpb_sha256_hex(h->sha, hex);
            all = h && !memcmp(hex, *p, 64);
        }
        *p = nl + 1;
    }
    return all;
}

/*
 * Searches a manifest's text for the first set whose files match (and whose
 * FULL matches `full_hex`, when given): sets *result, *set and *set_len (the set's
 * lines, head included). False when none does.
 */
static bool manifest_search(cache_session *s, const uint8_t key[DGPB_SHA256_SIZE],
                            const uint8_t *data, size_t size, const char *full_hex,
                            uint8_t result[DGPB_SHA256_SIZE], const char **set, size_t *set_len)
{
    const char *p = (const char *)data, *end = p + size;
    char head[100];
    manifest_head(key, head);
    if (size < strlen(head) || memcmp(p, head, strlen(head)))
        return false;
    p += strlen(head);
    while (p < end) {
        char res[65], full[65];
        unsigned long n;
        int used = 0;
        const char *start = p;
        if (sscanf(p, "set %64s %64s %lu\n%n", res, full, &n, &used) != 3 || !used ||
            strlen(res) != 64 || n > 100000)
            return false;
        p += used;
        bool full_ok = !strcmp(full, "-") || (full_hex && !strcmp(full, full_hex));
        if (set_matches(s, &p, end, n) && full_ok) {
            for (int i = 0; i < DGPB_SHA256_SIZE; i++) {
                unsigned v;
                if (sscanf(res + 2 * i, "%2x", &v) != 1)
                    return false;
                result[i] = (uint8_t)v;
            }
            *set = start;
            *set_len = (size_t)(p - start);
            return true;
        }
    }
    return false;
}

bool cache_manifest_find(cache_session *s, char kind, const uint8_t key[DGPB_SHA256_SIZE],
                         const char *full_hex, uint8_t result[DGPB_SHA256_SIZE])
{
    uint8_t *data = NULL;
    size_t size = 0;
    const char *set = NULL;
    size_t set_len = 0;
    bool found = !dgpb_cache_get(s->store, kind, key, &data, &size) &&
                 manifest_search(s, key, data, size, full_hex, result, &set, &set_len);
    dgpb_free(data);
    if (found)
        return true;
    data = NULL;
    if (!dgpb_cache_get_remote(s->store, kind, key, &data, &size) &&
        manifest_search(s, key, data, size, full_hex, result, &set, &set_len)) {
        char *text = mem_alloc(set_len + 1);
        if (text) {
            memcpy(text, set, set_len);
            text[set_len] = 0;
            cache_manifest_add(s, kind, key, text);
        }
        dgpb_free(text);
        found = true;
    }
    dgpb_free(data);
    return found;
}

/* Files a new set first in the manifest, keeping up to SETS_KEPT - 1 older distinct ones. */
void cache_manifest_add(cache_session *s, char kind, const uint8_t key[DGPB_SHA256_SIZE],
                        const char *set_text)
{
    dgpb_bytebuf m = DGPB_BYTEBUF_INIT;
    char head[100];
    manifest_head(key, head);
    bytebuf_append(&m, head, strlen(head));
    bytebuf_append(&m, set_text, strlen(set_text));
    uint8_t *old = NULL;
    size_t size = 0;
    if (!dgpb_cache_get(s->store, kind, key, &old, &size) && size >= strlen(head) &&
        !memcmp(old, head, strlen(head))) {
        const char *p = (const char *)old + strlen(head), *end = (const char *)old + size;
        for (int kept = 1; p < end && kept < SETS_KEPT; kept++) {
            char res[65], full[65];
            unsigned long n;
            int used = 0;
            if (sscanf(p, "set %64s %64s %lu\n%n", res, full, &n, &used) != 3 || !used)
                break;
            const char *start = p;
            p += used;
            for (unsigned long i = 0; i < n && p; i++) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                p = nl ? nl + 1 : NULL;
            }
            if (!p)
                break;
            size_t len = (size_t)(p - start);
            if (len != strlen(set_text) || memcmp(start, set_text, len))
                bytebuf_append(&m, start, len);
        }
    }
    dgpb_free(old);
    if (!m.failed)
        dgpb_cache_put(s->store, kind, key, m.data, m.len);
    bytebuf_free(&m);
}

bool cache_set_add_input(cache_session *s, dgpb_bytebuf *set, const char *path, bool *defines)
{
    if (strchr(path, '\n') || strlen(path) > 4000)
        return false;
    const cache_file_hash *h = cache_hash_file(s, path);
    if (!h)
        return false;
    char hex[2 * DGPB_SHA256_SIZE + 1];
    dgpb_sha256_hex(h->sha, hex);
    bytebuf_append(set, hex, 64);
    bytebuf_append(set, " ", 1);
    cache_append_rooted(s, set, path, strlen(path));
    bytebuf_append(set, "\n", 1);
    if (defines)
        *defines |= h->defines_known;
    return true;
}

void cache_file_result(cache_session *s, char result_kind, const dgpb_bytebuf *result,
                       char manifest_kind, const uint8_t key[DGPB_SHA256_SIZE],
                       const dgpb_bytebuf *set, const uint8_t *full)
{
    uint8_t sha[DGPB_SHA256_SIZE];
    if (set->failed || !cache_key_sha(result, sha))
        return;
    char result_hex[2 * DGPB_SHA256_SIZE + 1], full_hex[2 * DGPB_SHA256_SIZE + 1] = "-";
    dgpb_sha256_hex(sha, result_hex);
    if (full)
        dgpb_sha256_hex(full, full_hex);
    size_t lines = 0;
    for (size_t i = 0; i < set->len; i++)
        lines += set->data[i] == '\n';
    char *head = mem_printf("set %s %s %zu\n", result_hex, full_hex, lines);
    dgpb_bytebuf text = DGPB_BYTEBUF_INIT;
    if (head)
        bytebuf_append(&text, head, strlen(head));
    if (set->len)
        bytebuf_append(&text, set->data, set->len);
    bytebuf_append(&text, "", 1);
    if (head && !text.failed &&
        dgpb_cache_put(s->store, result_kind, sha, result->data, result->len) == 0)
        cache_manifest_add(s, manifest_kind, key, (const char *)text.data);
    dgpb_free(head);
    bytebuf_free(&text);
}

/*
 * Asks the remote store at once for the entries that `want` marks (kind 'm':
 * keys[i]; kind 'r': results[i]); nothing without one.
 */
static void prefetch(cache_session *s, char kind, const uint8_t (*keys)[DGPB_SHA256_SIZE],
                     const bool *want, size_t count)
{
    uint8_t(*wanted)[DGPB_SHA256_SIZE] = mem_calloc(count ? count : 1, sizeof *wanted);
    if (!wanted)
        return; /* only means asking one at a time */
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        if (want[i])
            memcpy(wanted[n++], keys[i], DGPB_SHA256_SIZE);
    dgpb_cache_prefetch(s->store, kind, (const uint8_t(*)[DGPB_SHA256_SIZE])wanted, n);
    dgpb_free(wanted);
}

bool cache_lookups_alloc(cache_lookups *l, size_t count)
{
    size_t n = count ? count : 1;
    l->keys = mem_calloc(n, sizeof *l->keys);
    l->results = mem_calloc(n, sizeof *l->results);
    l->keyed = mem_calloc(n, sizeof *l->keyed);
    l->found = mem_calloc(n, sizeof *l->found);
    return l->keys && l->results && l->keyed && l->found;
}

void cache_lookups_free(cache_lookups *l)
{
    dgpb_free(l->keys);
    dgpb_free(l->results);
    dgpb_free(l->keyed);
    dgpb_free(l->found);
}

void cache_lookups_find(cache_session *s, cache_lookups *l, size_t count, const char *full_hex)
{
    prefetch(s, 'm', (const uint8_t(*)[DGPB_SHA256_SIZE])l->keys, l->keyed, count);
    for (size_t i = 0; i < count; i++)
        l->found[i] =
            l->keyed[i] && cache_manifest_find(s, 'm', l->keys[i], full_hex, l->results[i]);
    prefetch(s, 'r', (const uint8_t(*)[DGPB_SHA256_SIZE])l->results, l->found, count);
}
