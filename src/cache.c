/*
 * cache.c - the compile cache's store (dgpb/cache.h, docs/cache.md).
 *
 * On disk: <dir>/v1/<xx>/<rest>.<kind>, where <xx><rest> is the key in hex;
 * an entry file is "DGPBC001", the payload's size (u64, little-endian), its
 * SHA-256, then the payload. Writers write .tmp-* files in the same folder
 * and rename them into place. <dir>/v1/counters holds 32-byte records of
 * counters, appended (O_APPEND) by each process that closes the cache.
 */
#define _GNU_SOURCE
#include "dgpb/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/sha256.h"

#define MAGIC "DGPBC001"
#define HEADER_SIZE (8 + 8 + DGPB_SHA256_SIZE)
#define ENTRY_MAX ((uint64_t)1 << 31)
#define STALE_TEMP_SECONDS 3600

struct dgpb_cache {
    char *dir;  /* as given */
    char *root; /* <dir>/v1 */
    uint64_t max_size;
    unsigned puts;
    uint64_t put_bytes; /* written by this process */
    unsigned temp_serial;
    dgpb_cache_counters counters;
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
    char *end = NULL;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    if (errno || end == text || *text == '-')
        return DGPB_ERR_INVALID;
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

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int dgpb_cache_get(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE], uint8_t **data,
                   size_t *size)
{
    *data = NULL;
    *size = 0;
    char path[4200];
    entry_path(c, kind, key, path, sizeof path);
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (dgpb_file_read(path, (size_t)ENTRY_MAX + HEADER_SIZE, &bytes, &n, NULL))
        return DGPB_ERR_NOT_FOUND;
    uint8_t sha[DGPB_SHA256_SIZE];
    if (n < HEADER_SIZE || memcmp(bytes, MAGIC, 8) || get_u64(bytes + 8) != n - HEADER_SIZE ||
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

static int write_all(int fd, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

int dgpb_cache_put(dgpb_cache *c, char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                   const void *data, size_t size)
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
    *slash = '/';
    uint8_t header[HEADER_SIZE];
    memcpy(header, MAGIC, 8);
    put_u64(header + 8, size);
    if (dgpb_sha256(data, size, header + 16))
        return DGPB_ERR_NOMEM;
    int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return DGPB_ERR_IO;
    int bad = write_all(fd, header, sizeof header) || write_all(fd, data, size);
    bad |= close(fd) != 0;
    if (bad || rename(temp, path)) {
        unlink(temp);
        return DGPB_ERR_IO;
    }
    c->puts++;
    c->put_bytes += HEADER_SIZE + size;
    return DGPB_OK;
}

/* ---- counters ---- */

static void read_counters(const dgpb_cache *c, dgpb_cache_counters *out)
{
    memset(out, 0, sizeof *out);
    char path[4200];
    snprintf(path, sizeof path, "%s/counters", c->root);
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (dgpb_file_read(path, (size_t)1 << 30, &bytes, &n, NULL))
        return;
    for (size_t at = 0; at + 32 <= n; at += 32) {
        out->build_hits += get_u64(bytes + at);
        out->build_misses += get_u64(bytes + at + 8);
        out->compile_hits += get_u64(bytes + at + 16);
        out->compile_misses += get_u64(bytes + at + 24);
    }
    dgpb_free(bytes);
}

static void add_counters(const dgpb_cache *c)
{
    const dgpb_cache_counters *k = &c->counters;
    if (!k->build_hits && !k->build_misses && !k->compile_hits && !k->compile_misses)
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/counters", c->root);
    uint8_t rec[32];
    put_u64(rec, k->build_hits);
    put_u64(rec + 8, k->build_misses);
    put_u64(rec + 16, k->compile_hits);
    put_u64(rec + 24, k->compile_misses);
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    (void)!write(fd, rec, sizeof rec); /* one small O_APPEND write: whole or not at all */
    close(fd);
}

/* ---- scanning and eviction ---- */

typedef struct file_info {
    char *path;
    uint64_t size;
    struct timespec mtime;
} file_info;

typedef struct scan {
    file_info *files;
    size_t count, cap;
    uint64_t total;
} scan;

static void scan_free(scan *s)
{
    for (size_t i = 0; i < s->count; i++)
        dgpb_free(s->files[i].path);
    dgpb_free(s->files);
    memset(s, 0, sizeof *s);
}

/* Lists every entry file (and removes temporaries left by writers that died long ago). */
static int scan_entries(const dgpb_cache *c, scan *s)
{
    DIR *top = opendir(c->root);
    if (!top)
        return DGPB_ERR_IO;
    time_t now = time(NULL);
    struct dirent *d;
    while ((d = readdir(top))) {
        if (strlen(d->d_name) != 2 || d->d_name[0] == '.')
            continue;
        char sub[4200];
        snprintf(sub, sizeof sub, "%s/%s", c->root, d->d_name);
        DIR *dir = opendir(sub);
        if (!dir)
            continue;
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *path = mem_printf("%s/%s", sub, e->d_name);
            struct stat st;
            if (!path || stat(path, &st) || !S_ISREG(st.st_mode)) {
                dgpb_free(path);
                continue;
            }
            if (!strncmp(e->d_name, ".tmp-", 5)) {
                if (now - st.st_mtime > STALE_TEMP_SECONDS)
                    unlink(path);
                dgpb_free(path);
                continue;
            }
            file_info *grown = mem_grow(s->files, s->count, &s->cap, sizeof *grown, 256);
            if (!grown) {
                dgpb_free(path);
                closedir(dir);
                closedir(top);
                return DGPB_ERR_NOMEM;
            }
            s->files = grown;
            s->files[s->count++] = (file_info){path, (uint64_t)st.st_size, st.st_mtim};
            s->total += (uint64_t)st.st_size;
        }
        closedir(dir);
    }
    closedir(top);
    return DGPB_OK;
}

static int older_first(const void *a, const void *b)
{
    const file_info *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->path, y->path);
}

static void evict(dgpb_cache *c)
{
    scan s = {0};
    if (scan_entries(c, &s) == DGPB_OK && s.total > c->max_size) {
        qsort(s.files, s.count, sizeof *s.files, older_first);
        uint64_t goal = c->max_size / 10 * 9;
        for (size_t i = 0; i < s.count && s.total > goal; i++)
            if (unlink(s.files[i].path) == 0)
                s.total -= s.files[i].size;
    }
    scan_free(&s);
}

/*
 * Whether to scan for eviction: once the bytes written since the last scan
 * (this process's added to <root>/pending, a hint that concurrent writers
 * may race on) pass a 32nd of the cap. Resets the count when it says yes.
 */
static bool scan_due(dgpb_cache *c)
{
    char path[4200], temp[4300];
    snprintf(path, sizeof path, "%s/pending", c->root);
    snprintf(temp, sizeof temp, "%s/.pending-%ld", c->root, (long)getpid());
    uint64_t pending = 0;
    uint8_t *text = NULL;
    size_t n = 0;
    if (dgpb_file_read(path, 64, &text, &n, NULL) == DGPB_OK)
        pending = strtoull((const char *)text, NULL, 10);
    dgpb_free(text);
    pending += c->put_bytes;
    bool due = pending > c->max_size / 32;
    FILE *f = fopen(temp, "w");
    if (f) {
        fprintf(f, "%llu\n", (unsigned long long)(due ? 0 : pending));
        if (fclose(f) == 0)
            rename(temp, path);
        else
            unlink(temp);
    }
    return due;
}

void dgpb_cache_close(dgpb_cache *c)
{
    if (!c)
        return;
    if (c->root) {
        add_counters(c);
        if (c->puts && scan_due(c))
            evict(c);
    }
    dgpb_free(c->dir);
    dgpb_free(c->root);
    dgpb_free(c);
}

int dgpb_cache_stats_get(dgpb_cache *c, dgpb_cache_stats *stats, dgpb_diag *diag)
{
    memset(stats, 0, sizeof *stats);
    scan s = {0};
    int rc = scan_entries(c, &s);
    if (rc) {
        scan_free(&s);
        return dgpb_diag_set(diag, rc, -1, "cannot read the cache folder '%s'", c->root);
    }
    stats->entries = s.count;
    stats->size = s.total;
    stats->max_size = c->max_size;
    read_counters(c, &stats->counters);
    scan_free(&s);
    return DGPB_OK;
}

int dgpb_cache_clear(dgpb_cache *c, dgpb_diag *diag)
{
    scan s = {0};
    int rc = scan_entries(c, &s);
    for (size_t i = 0; !rc && i < s.count; i++)
        if (unlink(s.files[i].path) && errno != ENOENT)
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot remove '%s': %s", s.files[i].path,
                               strerror(errno));
    scan_free(&s);
    const char *files[] = {"counters", "pending"};
    for (size_t i = 0; i < 2 && !rc; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", c->root, files[i]);
        if (unlink(path) && errno != ENOENT)
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot remove '%s': %s", path,
                               strerror(errno));
    }
    memset(&c->counters, 0, sizeof c->counters);
    return rc;
}
