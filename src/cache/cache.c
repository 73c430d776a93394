/*
 * cache.c - the compile cache's store (dgpb/cache.h, docs/cache.md).
 *
 * On disk: <dir>/v1/<xx>/<rest>.<kind>, where <xx><rest> is the key in hex;
 * an entry file is "DGPBC001" ("DGPBC0U1" for one fetched from a store by a
 * build without the team key: a miss for a build that holds it), the
 * payload's size (u64, little-endian), its SHA-256, then the payload. Writers write .tmp-* files in the same folder
 * and rename them into place. <dir>/v1/counters holds 48-byte records of
 * counters, appended (O_APPEND) by each process that closes the cache:
 * "DGPBK001", four u64 counts, the first 8 bytes of the SHA-256 of those 40
 * bytes; <dir>/v1/remote-counters the same for the remote store's counters,
 * <dir>/v1/rejected-counters for the cached builds a replay refused (its first).
 *
 * A remote store (dgpb_cache_set_remote) is read through on a local miss:
 * the action entry sha256(kind || key) names the content's SHA-256, the content
 * is checked against it and stored locally. New entries are queued for one
 * upload thread, which dgpb_cache_close joins.
 */
#define _GNU_SOURCE
#include "dgpb/cache.h"

#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "core/fileio_internal.h"
#include "core/strict_number.h"
#include "cache/cache_files.h"
#include "cache/remote_cache.h"
#include "dgpb/sha256.h"

#define MAGIC "DGPBC001"
/* The same header for an entry fetched from a store that no team key authenticated (the
   build that fetched it held none): a build that holds a key takes it as a miss. */
#define MAGIC_UNKEYED "DGPBC0U1"
#define HEADER_SIZE (8 + 8 + DGPB_SHA256_SIZE)
#define ENTRY_MAX ((uint64_t)1 << 31)
#define UPLOAD_QUEUE_MAX ((size_t)256 << 20) /* bytes waiting for upload; more are not sent */
#define HEAD_FIRST_MIN 4096 /* content at least this large: asked for before it is sent */
/* How long dgpb_cache_close waits for the uploads still queued or running (docs/cache.md,
   "Remote stores"): past it the rest are dropped, the one running is stopped, one warning. */
/* What the store may cost a build over its local build, lookups and uploads together
   (docs/cache.md, "Remote stores"): past it, the store is off for the rest of the build. */
#define STORE_BUDGET_MS 2000

typedef struct upload {
    struct upload *next;
    char kind;
    uint8_t key[DGPB_CACHE_KEY_SIZE];
    size_t size;
    uint8_t data[];
} upload;

#define FETCH_THREADS 8 /* remote lookups of one prefetch at a time */

typedef struct remote_state {
    char *url;
    dgpb_remote *reader;                  /* used under get_lock */
    dgpb_remote *writer;                  /* used by the upload thread */
    dgpb_remote *fetchers[FETCH_THREADS]; /* one per prefetch thread, opened when first needed */
    /* kind + key of each entry the store was asked for: asking again would bring nothing
       new (what it had is stored locally now) */
    uint8_t (*asked)[1 + DGPB_CACHE_KEY_SIZE];
    size_t asked_count, asked_cap;
    bool read_only;
    dgpb_cache_warn_fn warn;
    void *user;
    pthread_mutex_t get_lock;
    pthread_mutex_t warn_lock; /* one warning at a time */
    pthread_mutex_t lock;      /* guards the rest, and the counters' remote_* */
    pthread_cond_t wake;
    bool thread_started, stopping, disabled;
    const volatile sig_atomic_t *cancel; /* dgpb_cache_cancel_on */
    pthread_t thread;
    upload *head, *tail;
    size_t queued;
    /* dgpb_cache_set_remote_key: the team's key; action entries carry an HMAC-SHA-256 of the
       action and the content's SHA-256 under it, and entries without one are misses */
    volatile sig_atomic_t upload_stop; /* the writer's cancellation: a signal, or the budget */
    bool upload_done;                  /* the upload thread has left its loop */
    bool over_budget;                  /* remote_finish stopped the uploads at the budget */
    int64_t read_spent_ms;             /* the build's time waiting on lookups so far */
    volatile int64_t read_deadline_ms; /* while lookups run: when the budget is spent */
    uint8_t team_key[DGPB_CACHE_REMOTE_KEY_MAX];
    size_t team_key_len;
    bool unauthenticated_warned;
} remote_state;

struct dgpb_cache {
    char *dir;  /* as given */
    char *root; /* <dir>/v1 */
    uint64_t max_size;
    unsigned puts;
    uint64_t put_bytes; /* written by this process */
    unsigned temp_serial;
    dgpb_cache_counters counters;
    remote_state *remote;
    bool keyed; /* the build holds a team key: unkeyed fetched entries are misses */
};

int dgpb_cache_default_dir(char *buf, size_t size)
{
    const char *env = getenv("DGPB_CACHE_DIR");
    if (env && *env) {
        snprintf(buf, size, "%s", env);
        return DGPB_OK;
    }
    env = getenv("XDG_CACHE_HOME");
    if (env && *env) {
        snprintf(buf, size, "%s/dgpb", env);
        return DGPB_OK;
    }
    env = getenv("HOME");
    if (env && *env) {
        snprintf(buf, size, "%s/.cache/dgpb", env);
        return DGPB_OK;
    }
    return DGPB_ERR_NOT_FOUND;
}

int dgpb_cache_parse_size(const char *text, uint64_t *out)
{
    if (!text || !*text)
        return DGPB_ERR_INVALID;
    /* Digits first: no white space or sign (strtoull() takes " -1" as 2^64 - 1). */
    uint64_t n = 0;
    size_t digits = strict_u64_prefix(text, UINT64_MAX, &n);
    if (!digits)
        return DGPB_ERR_INVALID;
    const char *end = text + digits;
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10, end++;
    else if (*end == 'M' || *end == 'm')
        shift = 20, end++;
    else if (*end == 'G' || *end == 'g')
        shift = 30, end++;
    if (*end || (shift && n > (UINT64_MAX >> shift)))
        return DGPB_ERR_INVALID;
    *out = (uint64_t)n << shift;
    return DGPB_OK;
}

int dgpb_cache_open(const char *dir, uint64_t max_size, dgpb_cache **out, dgpb_diag *diag)
{
    *out = NULL;
    dgpb_cache *c = mem_calloc(1, sizeof *c);
    if (!c || !(c->dir = mem_strdup(dir)) || !(c->root = mem_printf("%s/v1", dir))) {
        dgpb_cache_close(c);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    c->max_size = max_size ? max_size : DGPB_CACHE_DEFAULT_MAX_SIZE;
    int rc = dgpb_mkdirs(c->root, diag);
    if (rc) {
        dgpb_cache_close(c);
        return rc;
    }
    *out = c;
    return DGPB_OK;
}

const char *dgpb_cache_dir(const dgpb_cache *c)
{
    return c->dir;
}

dgpb_cache_counters *dgpb_cache_counters_of(dgpb_cache *c)
{
    return &c->counters;
}

static void entry_path(const dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                       char *buf, size_t size)
{
    char hex[2 * DGPB_SHA256_SIZE + 1];
    dgpb_sha256_hex(key, hex);
    snprintf(buf, size, "%s/%.2s/%s.%c", c->root, hex, hex + 2, kind);
}

static int remote_lookup(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                         uint8_t **data, size_t *size, bool keep);
static void remote_enqueue(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                           const void *data, size_t size);

static int local_get(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                     uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    char path[4200];
    entry_path(c, kind, key, path, sizeof path);
    uint8_t *bytes = NULL;
    size_t n = 0;
    /* Nothing but a regular file is read, and nothing waits: a FIFO, a folder or a link in
       place of the entry is damage, a miss (local_put replaces it). */
    if (fileio_read_regular(path, (size_t)ENTRY_MAX + HEADER_SIZE, &bytes, &n, NULL))
        return DGPB_ERR_NOT_FOUND;
    uint8_t sha[DGPB_SHA256_SIZE];
    bool unkeyed = n >= HEADER_SIZE && !memcmp(bytes, MAGIC_UNKEYED, 8);
    if (unkeyed && c->keyed) { /* what a build without the key fetched: not vouched for */
        dgpb_free(bytes);
        c->counters.remote_unauthenticated++;
        return DGPB_ERR_NOT_FOUND;
    }
    if (n < HEADER_SIZE || (memcmp(bytes, MAGIC, 8) && !unkeyed) ||
        cache_get_u64(bytes + 8) != n - HEADER_SIZE ||
        dgpb_sha256(bytes + HEADER_SIZE, n - HEADER_SIZE, sha) ||
        memcmp(sha, bytes + 16, DGPB_SHA256_SIZE)) {
        dgpb_free(bytes);
        return DGPB_ERR_NOT_FOUND;
    }
    memmove(bytes, bytes + HEADER_SIZE, n - HEADER_SIZE);
    bytes[n - HEADER_SIZE] = 0;         /* dgpb_file_read left room for one more byte */
    utimensat(AT_FDCWD, path, NULL, 0); /* least recently used: this one was just used */
    *data = bytes;
    *size = n - HEADER_SIZE;
    return DGPB_OK;
}

/* Files an entry; `unkeyed`: fetched from a store with no team key to check it. */
static int local_put(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                     const void *data, size_t size, bool unkeyed)
{
    if ((uint64_t)size > ENTRY_MAX)
        return DGPB_ERR_LIMIT;
    char path[4200], temp[4300];
    entry_path(c, kind, key, path, sizeof path);
    char *slash = strrchr(path, '/');
    *slash = 0;
    if (mkdir(path, 0755) && errno != EEXIST) {
        *slash = '/';
        return DGPB_ERR_IO;
    }
    snprintf(temp, sizeof temp, "%s/.tmp-%ld-%u-%ld", path, (long)getpid(), c->temp_serial++,
             (long)time(NULL));
    uint8_t header[HEADER_SIZE];
    memcpy(header, unkeyed ? MAGIC_UNKEYED : MAGIC, 8);
    cache_put_u64(header + 8, size);
    if (dgpb_sha256(data, size, header + 16)) {
        *slash = '/';
        return DGPB_ERR_NOMEM;
    }
    int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && errno == ENOTDIR && !cache_remove_any(path) && !mkdir(path, 0755))
        fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    *slash = '/';
    if (fd < 0)
        return DGPB_ERR_IO;
    int bad = fileio_write_all(fd, header, sizeof header) || fileio_write_all(fd, data, size);
    bad |= close(fd) != 0;
    /* A folder in place of the entry (damage): removed, then the entry renamed into place. */
    if (!bad && rename(temp, path))
        bad = !(errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST) ||
              cache_remove_any(path) || rename(temp, path);
    if (bad) {
        unlink(temp);
        return DGPB_ERR_IO;
    }
    c->puts++;
    c->put_bytes += HEADER_SIZE + size;
    return DGPB_OK;
}

int dgpb_cache_get(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE], uint8_t **data,
                   size_t *size)
{
    int rc = local_get(c, kind, key, data, size);
    if (rc && c->remote)
        rc = remote_lookup(c, kind, key, data, size, true);
    return rc;
}

int dgpb_cache_get_remote(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                          uint8_t **data, size_t *size)
{
    return c->remote ? remote_lookup(c, kind, key, data, size, false) : DGPB_ERR_NOT_FOUND;
}

int dgpb_cache_put(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                   const void *data, size_t size)
{
    int rc = local_put(c, kind, key, data, size, false);
    if (!rc && c->remote)
        remote_enqueue(c, kind, key, data, size);
    return rc;
}

/* ---- the remote store ---- */

/* Entries the remote store keeps: not 'v', a compiler's version found by its file's status. */
static bool remote_kind(char kind)
{
    return kind != 'v';
}

static void remote_warn(remote_state *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void remote_warn(remote_state *r, const char *fmt, ...)
{
    if (!r->warn)
        return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&r->warn_lock); /* from the build's, the upload's or a fetch thread */
    r->warn(r->user, text);
    pthread_mutex_unlock(&r->warn_lock);
}

/*
 * The store cannot be reached, refuses a request, is too slow or gave a corrupt,
 * oversized or short answer (`corrupt`): left alone from now on, said once; not
 * said when a signal stopped the request (the build stops too).
 */
static void remote_off(dgpb_cache *c, int rc, const char *why, bool corrupt)
{
    remote_state *r = c->remote;
    pthread_mutex_lock(&r->lock);
    bool first = !r->disabled;
    r->disabled = true;
    c->counters.remote_errors += rc != DGPB_ERR_INTERRUPTED;
    pthread_mutex_unlock(&r->lock);
    if (first && rc != DGPB_ERR_INTERRUPTED)
        remote_warn(r, "the remote cache %s %s (%s): building with the local cache only",
                    remote_shown(r->reader), corrupt ? "gave a corrupt answer" : "is unavailable",
                    why);
}

static bool remote_active(remote_state *r)
{
    pthread_mutex_lock(&r->lock);
    bool active = !r->disabled;
    pthread_mutex_unlock(&r->lock);
    return active;
}

/* An entry the team key does not authenticate: counted and, once per build, warned about; a
   miss, and the store stays on. */
static void unauthenticated(dgpb_cache *c)
{
    remote_state *r = c->remote;
    pthread_mutex_lock(&r->lock);
    c->counters.remote_unauthenticated++;
    bool warn = !r->unauthenticated_warned;
    r->unauthenticated_warned = true;
    pthread_mutex_unlock(&r->lock);
    if (warn)
        remote_warn(r,
                    "the remote store %s holds entries that the team key "
                    "(DGPB_CACHE_REMOTE_KEY_FILE) does not authenticate: they are misses, "
                    "compiled here",
                    remote_shown(r->reader));
}

/* DGPB_OK with the entry, verified, or DGPB_ERR_NOT_FOUND; through handle `h`. */
static int remote_fetch(dgpb_cache *c, dgpb_remote *h, char kind,
                        const uint8_t key[DGPB_CACHE_KEY_SIZE], uint8_t **data, size_t *size)
{
    char action[2 * DGPB_SHA256_SIZE + 1], name[2 * DGPB_SHA256_SIZE + 1];
    remote_action_key(kind, key, action);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint8_t *text = NULL, *blob = NULL;
    size_t n = 0, blob_n = 0;
    int rc = remote_get(h, "ac", action, 256, &text, &n, &d);
    if (!rc) {
        bool authenticated = false;
        if (!remote_entry_parse(text, n, c->remote->team_key, c->remote->team_key_len, action, name,
                                &authenticated)) {
            remote_off(c, DGPB_ERR_CORRUPT, "an action entry that names no SHA-256", true);
            rc = DGPB_ERR_CORRUPT;
        } else if (!authenticated) {
            unauthenticated(c);
            rc = DGPB_ERR_NOT_FOUND;
        } else {
            rc = remote_get(h, "cas", name, DGPB_REMOTE_MAX_BLOB, &blob, &blob_n, &d);
        }
    }
    dgpb_free(text);
    uint8_t sha[DGPB_SHA256_SIZE];
    char sha_hex[2 * DGPB_SHA256_SIZE + 1];
    if (!rc) {
        if (dgpb_sha256(blob, blob_n, sha)) {
            rc = DGPB_ERR_NOMEM;
        } else {
            dgpb_sha256_hex(sha, sha_hex);
            if (strcmp(sha_hex, name)) {
                remote_off(c, DGPB_ERR_CORRUPT, "content that does not match its SHA-256", true);
                rc = DGPB_ERR_CORRUPT;
            }
        }
    }
    if (dgpb_result_class(rc) == DGPB_ERR_LIMIT)
        remote_off(c, rc, "an answer larger than any entry", true);
    else if (rc == DGPB_ERR_CORRUPT_TRUNCATED)
        remote_off(c, rc, "a truncated answer", true);
    else if (rc == DGPB_ERR_CORRUPT && d.message[0]) /* not an answer of the protocol */
        remote_off(c, rc, d.message, true);
    else if (dgpb_result_class(rc) == DGPB_ERR_IO || rc == DGPB_ERR_INTERRUPTED)
        remote_off(c, rc, d.message, false);
    if (rc) {
        dgpb_free(blob);
        return DGPB_ERR_NOT_FOUND;
    }
    *data = blob;
    *size = blob_n;
    return DGPB_OK;
}

static int64_t monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * The budget of a build's lookups (STORE_BUDGET_MS in all, with the uploads' wait at the
 * end): read_begin() before a lookup or a batch of them sets the deadline the requests
 * check (false when nothing is left: the store goes off, one warning); read_end() adds the
 * time they took.
 */
static bool read_begin(dgpb_cache *c, int64_t *start)
{
    remote_state *r = c->remote;
    *start = monotonic_ms();
    if (r->read_spent_ms >= STORE_BUDGET_MS) {
        remote_off(c, DGPB_ERR_IO, "too slow: this build's 2 s for the store are spent", false);
        return false;
    }
    r->read_deadline_ms = *start + STORE_BUDGET_MS - r->read_spent_ms;
    return true;
}

static void read_end(dgpb_cache *c, int64_t start)
{
    remote_state *r = c->remote;
    r->read_spent_ms += monotonic_ms() - start;
    r->read_deadline_ms = 0;
    if (r->read_spent_ms >= STORE_BUDGET_MS)
        remote_off(c, DGPB_ERR_IO, "too slow: this build's 2 s for the store are spent", false);
}

/* Whether the store was asked for this entry before, in this process. */
static bool known_asked(remote_state *r, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE])
{
    for (size_t i = 0; i < r->asked_count; i++)
        if (r->asked[i][0] == (uint8_t)kind && !memcmp(r->asked[i] + 1, key, DGPB_CACHE_KEY_SIZE))
            return true;
    return false;
}

static void note_asked(remote_state *r, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE])
{
    void *grown = mem_grow(r->asked, r->asked_count, &r->asked_cap, sizeof *r->asked, 64);
    if (!grown)
        return; /* only means asking again */
    r->asked = grown;
    r->asked[r->asked_count][0] = (uint8_t)kind;
    memcpy(r->asked[r->asked_count++] + 1, key, DGPB_CACHE_KEY_SIZE);
}

/* Counts a lookup's outcome; a found entry is also stored locally when `keep`. */
static void remote_took(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE], int rc,
                        const uint8_t *data, size_t size, bool keep)
{
    remote_state *r = c->remote;
    if (!rc && keep)
        local_put(c, kind, key, data, size, r->team_key_len == 0);
    pthread_mutex_lock(&r->lock);
    if (rc)
        c->counters.remote_misses++;
    else
        c->counters.remote_hits++;
    note_asked(r, kind, key);
    pthread_mutex_unlock(&r->lock);
}

static int remote_lookup(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                         uint8_t **data, size_t *size, bool keep)
{
    remote_state *r = c->remote;
    if (!remote_kind(kind) || !remote_active(r))
        return DGPB_ERR_NOT_FOUND;
    pthread_mutex_lock(&r->lock);
    bool asked = known_asked(r, kind, key);
    pthread_mutex_unlock(&r->lock);
    if (asked)
        return DGPB_ERR_NOT_FOUND;
    pthread_mutex_lock(&r->get_lock);
    int64_t start;
    int rc = DGPB_ERR_NOT_FOUND;
    bool asking = read_begin(c, &start);
    if (asking) {
        rc = remote_fetch(c, r->reader, kind, key, data, size);
        read_end(c, start);
    }
    pthread_mutex_unlock(&r->get_lock);
    if (asking)
        remote_took(c, kind, key, rc, *data, *size, keep);
    return rc;
}

/* ---- prefetch: many remote lookups at once ---- */

typedef struct prefetch {
    dgpb_cache *c;
    char kind;
    const uint8_t (*keys)[DGPB_CACHE_KEY_SIZE];
    size_t *wanted; /* indexes into keys of the entries missing locally */
    size_t count, next;
    uint8_t **data;
    size_t *size;
    int *rc;
} prefetch;

static void *prefetch_thread(void *arg)
{
    prefetch *p = ((void **)arg)[0];
    dgpb_remote *h = ((void **)arg)[1];
    remote_state *r = p->c->remote;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        size_t i = p->next++;
        bool go = i < p->count && !r->disabled;
        pthread_mutex_unlock(&r->lock);
        if (!go)
            break;
        p->rc[i] = remote_fetch(p->c, h, p->kind, p->keys[p->wanted[i]], &p->data[i], &p->size[i]);
    }
    return NULL;
}

void dgpb_cache_prefetch(dgpb_cache *c, char kind, const uint8_t (*keys)[DGPB_CACHE_KEY_SIZE],
                         size_t count)
{
    remote_state *r = c->remote;
    if (!r || !remote_kind(kind) || !remote_active(r) || !count)
        return;
    prefetch p = {.c = c, .kind = kind, .keys = keys};
    p.wanted = mem_calloc(count, sizeof *p.wanted);
    p.data = mem_calloc(count, sizeof *p.data);
    p.size = mem_calloc(count, sizeof *p.size);
    p.rc = mem_calloc(count, sizeof *p.rc);
    if (!p.wanted || !p.data || !p.size || !p.rc)
        goto done;
#define NOT_ASKED INT_MIN
    for (size_t i = 0; i < count; i++) {
        p.rc[i] = NOT_ASKED;
        char path[4300];
        entry_path(c, kind, keys[i], path, sizeof path);
        bool seen = false; /* the same key twice: asked once */
        for (size_t k = 0; k < p.count && !seen; k++)
            seen = !memcmp(keys[p.wanted[k]], keys[i], DGPB_CACHE_KEY_SIZE);
        pthread_mutex_lock(&r->lock);
        bool asked = known_asked(r, kind, keys[i]);
        pthread_mutex_unlock(&r->lock);
        if (!seen && !asked && access(path, F_OK))
            p.wanted[p.count++] = i;
    }
    size_t threads = p.count < FETCH_THREADS ? p.count : FETCH_THREADS;
    int64_t start;
    pthread_mutex_lock(&r->get_lock); /* one deadline at a time */
    if (!threads || !read_begin(c, &start)) {
        pthread_mutex_unlock(&r->get_lock);
        goto done;
    }
    pthread_t tid[FETCH_THREADS];
    void *args[FETCH_THREADS][2];
    size_t started = 0;
    for (size_t t = 0; t < threads; t++) {
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (!r->fetchers[t] && remote_open(r->url, &r->fetchers[t], &d))
            break;
        remote_cancel_on(r->fetchers[t], r->cancel);
        remote_deadline_on(r->fetchers[t], &r->read_deadline_ms);
        args[t][0] = &p;
        args[t][1] = r->fetchers[t];
        if (pthread_create(&tid[t], NULL, prefetch_thread, args[t]))
            break;
        started++;
    }
    for (size_t t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    read_end(c, start);
    pthread_mutex_unlock(&r->get_lock);
    for (size_t i = 0; i < p.count; i++)
        if (p.rc[i] != NOT_ASKED) /* else the store failed before it was asked */
            remote_took(c, kind, keys[p.wanted[i]], p.rc[i], p.data[i], p.size[i], true);
done:
    for (size_t i = 0; p.data && i < count; i++)
        dgpb_free(p.data[i]);
    dgpb_free(p.wanted);
    dgpb_free(p.data);
    dgpb_free(p.size);
    dgpb_free(p.rc);
}

/* Uploads one entry: its content, then its action entry. */
static void remote_upload(dgpb_cache *c, const upload *u)
{
    remote_state *r = c->remote;
    uint8_t sha[DGPB_SHA256_SIZE];
    char name[2 * DGPB_SHA256_SIZE + 1], action[2 * DGPB_SHA256_SIZE + 1];
    if (dgpb_sha256(u->data, u->size, sha))
        return;
    dgpb_sha256_hex(sha, name);
    remote_action_key(u->kind, u->key, action);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    /* Content is addressed by its SHA-256, so content the store holds already (another
       machine's compile of the same thing) is not sent again: asked first when it is larger
       than the question. The action entry is always written: it is uploaded after a local and
       remote miss, or a corrupt answer, which this replaces. */
    int rc = DGPB_ERR_NOT_FOUND;
    if (u->size >= HEAD_FIRST_MIN)
        rc = remote_head(r->writer, "cas", name, &d);
    if (rc == DGPB_ERR_NOT_FOUND) {
        dgpb_diag_clear(&d);
        rc = remote_put(r->writer, "cas", name, u->data, u->size, &d);
    }
    char entry[130]; /* the content's SHA-256, and with a team key its HMAC */
    if (!remote_entry_text(r->team_key, r->team_key_len, action, name, entry))
        return;
    if (!rc)
        rc = remote_put(r->writer, "ac", action, entry, strlen(entry), &d);
    if (rc) {
        remote_off(c, r->upload_stop ? DGPB_ERR_INTERRUPTED : rc, d.message, false);
        return;
    }
    pthread_mutex_lock(&r->lock);
    c->counters.remote_uploads++;
    pthread_mutex_unlock(&r->lock);
}

static void *upload_thread(void *arg)
{
    dgpb_cache *c = arg;
    remote_state *r = c->remote;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (!r->head && !r->stopping)
            pthread_cond_wait(&r->wake, &r->lock);
        upload *u = r->head;
        if (!u)
            break;
        r->head = u->next;
        if (!r->head)
            r->tail = NULL;
        r->queued -= u->size;
        bool active = !r->disabled;
        pthread_mutex_unlock(&r->lock);
        if (active)
            remote_upload(c, u);
        dgpb_free(u);
        pthread_mutex_lock(&r->lock);
    }
    r->upload_done = true;
    pthread_cond_broadcast(&r->wake);
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

static void remote_enqueue(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                           const void *data, size_t size)
{
    remote_state *r = c->remote;
    if (r->read_only || !remote_kind(kind) || size > DGPB_REMOTE_MAX_BLOB)
        return;
    pthread_mutex_lock(&r->lock);
    if (r->disabled || r->stopping || r->queued + size > UPLOAD_QUEUE_MAX) {
        pthread_mutex_unlock(&r->lock);
        return;
    }
    if (!r->thread_started) {
        if (pthread_create(&r->thread, NULL, upload_thread, c)) {
            pthread_mutex_unlock(&r->lock);
            return;
        }
        r->thread_started = true;
    }
    upload *u = mem_alloc(sizeof *u + size);
    if (u) {
        u->next = NULL;
        u->kind = kind;
        memcpy(u->key, key, DGPB_CACHE_KEY_SIZE);
        u->size = size;
        memcpy(u->data, data, size);
        if (r->tail)
            r->tail->next = u;
        else
            r->head = u;
        r->tail = u;
        r->queued += size;
        pthread_cond_signal(&r->wake);
    }
    pthread_mutex_unlock(&r->lock);
}

void dgpb_cache_set_keyed(dgpb_cache *c)
{
    if (c)
        c->keyed = true;
}

int dgpb_cache_set_remote_key(dgpb_cache *c, const void *key, size_t size, dgpb_diag *diag)
{
    if (!c || !c->remote)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "a team key needs a remote store");
    if (!key || !size || size > DGPB_CACHE_REMOTE_KEY_MAX)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "the team key must hold 1 to %d bytes, not %zu",
                             DGPB_CACHE_REMOTE_KEY_MAX, key ? size : 0);
    memcpy(c->remote->team_key, key, size);
    c->remote->team_key_len = size;
    c->keyed = true;
    return DGPB_OK;
}

int dgpb_cache_set_remote(dgpb_cache *c, const char *url, bool read_only, dgpb_cache_warn_fn warn,
                          void *user, dgpb_diag *diag)
{
    if (c->remote)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "the cache has a remote store already");
    remote_state *r = mem_calloc(1, sizeof *r);
    if (!r)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    int rc = remote_open(url, &r->reader, diag);
    if (!rc && !read_only)
        rc = remote_open(url, &r->writer, diag);
    if (rc) {
        remote_close(r->reader);
        dgpb_free(r);
        return rc;
    }
    if (!(r->url = mem_strdup(url))) {
        remote_close(r->reader);
        remote_close(r->writer);
        dgpb_free(r);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    r->read_only = read_only;
    r->warn = warn;
    r->user = user;
    if (r->writer)
        remote_cancel_on(r->writer, &r->upload_stop);
    pthread_mutex_init(&r->get_lock, NULL);
    pthread_mutex_init(&r->warn_lock, NULL);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->wake, NULL);
    remote_deadline_on(r->reader, &r->read_deadline_ms);
    c->remote = r;
    return DGPB_OK;
}

void dgpb_cache_cancel_on(dgpb_cache *c, const volatile sig_atomic_t *flag)
{
    if (!c->remote)
        return;
    c->remote->cancel = flag; /* the writer's own flag follows it (remote_finish) */
    remote_cancel_on(c->remote->reader, flag);
}

static void remote_finish(dgpb_cache *c)
{
    remote_state *r = c->remote;
    if (!r)
        return;
    pthread_mutex_lock(&r->lock);
    r->stopping = true;
    pthread_cond_signal(&r->wake);
    /* The uploads still queued or running get what the lookups left of STORE_BUDGET_MS; a
       signal stops them at once (checked every 50 ms). Past the budget the queue is dropped,
       the running request stopped: the entries not sent are only not shared, never
       half-written (an action entry is written after its content). */
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    int64_t left = STORE_BUDGET_MS - r->read_spent_ms;
    int64_t end_ms =
        (int64_t)deadline.tv_sec * 1000 + deadline.tv_nsec / 1000000 + (left > 0 ? left : 0);
    size_t dropped = 0;
    while (r->thread_started && !r->upload_done) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t now_ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
        if ((r->cancel && *r->cancel) || now_ms >= end_ms) {
            if (!(r->cancel && *r->cancel) && !r->disabled)
                for (const upload *u = r->head; u; u = u->next)
                    dropped++;
            if (!(r->cancel && *r->cancel) && !r->disabled)
                dropped++; /* the one running */
            r->over_budget = !(r->cancel && *r->cancel);
            r->disabled = true;
            r->upload_stop = 1;
            break;
        }
        int64_t wait_ms = end_ms - now_ms < 50 ? end_ms - now_ms : 50;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(wait_ms * 1000000);
        until.tv_sec += until.tv_nsec / 1000000000;
        until.tv_nsec %= 1000000000;
        pthread_cond_timedwait(&r->wake, &r->lock, &until);
    }
    pthread_mutex_unlock(&r->lock);
    if (r->thread_started)
        pthread_join(r->thread, NULL);
    if (r->over_budget && dropped)
        remote_warn(r,
                    "the remote cache %s took more than %d s for this build's uploads: %zu "
                    "entries not uploaded (the build is complete; the store is off for the "
                    "rest of it)",
                    remote_shown(r->reader), STORE_BUDGET_MS / 1000, dropped);
    while (r->head) {
        upload *u = r->head;
        r->head = u->next;
        dgpb_free(u);
    }
    remote_close(r->reader);
    remote_close(r->writer);
    for (size_t i = 0; i < FETCH_THREADS; i++)
        remote_close(r->fetchers[i]);
    dgpb_free(r->asked);
    if (r->url)
        explicit_bzero(r->url, strlen(r->url));
    dgpb_free(r->url);
    explicit_bzero(r->team_key, sizeof r->team_key);
    pthread_mutex_destroy(&r->get_lock);
    pthread_mutex_destroy(&r->warn_lock);
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->wake);
    dgpb_free(r);
    c->remote = NULL;
}

void dgpb_cache_close(dgpb_cache *c)
{
    if (!c)
        return;
    remote_finish(c);
    if (c->root) {
        cache_counters_add(c->root, &c->counters);
        if (c->puts && cache_scan_due(c->root, c->put_bytes, c->max_size))
            cache_evict(c->root, c->max_size);
    }
    dgpb_free(c->dir);
    dgpb_free(c->root);
    dgpb_free(c);
}

int dgpb_cache_stats_get(dgpb_cache *c, dgpb_cache_stats *stats, dgpb_diag *diag)
{
    memset(stats, 0, sizeof *stats);
    cache_scan s = {0};
    int rc = cache_scan_entries(c->root, &s);
    if (rc) {
        cache_scan_free(&s);
        return dgpb_diag_set(diag, rc, -1, "cannot read the cache folder '%s'", c->root);
    }
    stats->entries = s.count;
    stats->size = s.total;
    stats->damaged = s.damaged_count;
    stats->max_size = c->max_size;
    cache_counters_read(c->root, &stats->counters);
    cache_scan_free(&s);
    return DGPB_OK;
}

int dgpb_cache_clear(dgpb_cache *c, dgpb_diag *diag)
{
    cache_scan s = {0};
    int rc = cache_scan_entries(c->root, &s);
    if (rc)
        rc = dgpb_diag_set(diag, rc, -1, "cannot read the cache folder '%s'", c->root);
    for (size_t i = 0; !rc && i < s.count; i++)
        if (unlink(s.files[i].path) && errno != ENOENT)
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot remove '%s': %s", s.files[i].path,
                               strerror(errno));
    /* Damage too: folders, FIFOs, links in place of entries or counters. */
    for (size_t i = 0; !rc && i < s.damaged_count; i++) {
        int err = cache_remove_any(s.damaged[i]);
        if (err)
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot remove '%s': %s", s.damaged[i],
                               strerror(err));
    }
    cache_scan_free(&s);
    const char *files[] = {"counters", "remote-counters", "rejected-counters", "pending"};
    for (size_t i = 0; i < sizeof files / sizeof *files && !rc; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", c->root, files[i]);
        int err = cache_remove_any(path);
        if (err)
            rc =
                dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot remove '%s': %s", path, strerror(err));
    }
    memset(&c->counters, 0, sizeof c->counters);
    return rc;
}
