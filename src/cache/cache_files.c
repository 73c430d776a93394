/*
 * cache_files.c - the files of a cache folder (cache/cache_files.h): the
 * scan, eviction, and the removal of damage.
 */
#define _GNU_SOURCE
#include "cache/cache_files.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fileio_internal.h"
#include "dgpb/result.h"
#include "dgpb/sha256.h"

#define STALE_TEMP_SECONDS 3600

void cache_scan_free(cache_scan *s)
{
    for (size_t i = 0; i < s->count; i++)
        dgpb_free(s->files[i].path);
    dgpb_free(s->files);
    for (size_t i = 0; i < s->damaged_count; i++)
        dgpb_free(s->damaged[i]);
    dgpb_free(s->damaged);
    memset(s, 0, sizeof *s);
}

/* Takes `path` into the list of damage. */
static int add_damaged(cache_scan *s, char *path)
{
    char **grown = mem_grow(s->damaged, s->damaged_count, &s->damaged_cap, sizeof *grown, 16);
    if (!grown) {
        dgpb_free(path);
        return DGPB_ERR_NOMEM;
    }
    s->damaged = grown;
    s->damaged[s->damaged_count++] = path;
    return DGPB_OK;
}

/* Lists the files of one prefix folder. */
static int scan_prefix(const char *sub, time_t now, cache_scan *s)
{
    DIR *dir = opendir(sub);
    if (!dir)
        return DGPB_OK;
    int rc = DGPB_OK;
    struct dirent *e;
    while (!rc && (e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *path = mem_printf("%s/%s", sub, e->d_name);
        struct stat st;
        if (!path) {
            rc = DGPB_ERR_NOMEM;
        } else if (lstat(path, &st)) {
            dgpb_free(path); /* gone meanwhile */
        } else if (!S_ISREG(st.st_mode)) {
            rc = add_damaged(s, path);
        } else if (!strncmp(e->d_name, ".tmp-", 5)) {
            if (now - st.st_mtime > STALE_TEMP_SECONDS)
                unlink(path);
            dgpb_free(path);
        } else {
            cache_file *grown = mem_grow(s->files, s->count, &s->cap, sizeof *grown, 256);
            if (!grown) {
                dgpb_free(path);
                rc = DGPB_ERR_NOMEM;
            } else {
                s->files = grown;
                s->files[s->count++] = (cache_file){path, (uint64_t)st.st_size, st.st_mtim};
                s->total += (uint64_t)st.st_size;
            }
        }
    }
    closedir(dir);
    return rc;
}

int cache_scan_entries(const char *root, cache_scan *s)
{
    DIR *top = opendir(root);
    if (!top)
        return DGPB_ERR_IO;
    time_t now = time(NULL);
    int rc = DGPB_OK;
    struct dirent *d;
    while (!rc && (d = readdir(top))) {
        bool counter = !strcmp(d->d_name, "counters") || !strcmp(d->d_name, "remote-counters") ||
                       !strcmp(d->d_name, "rejected-counters") || !strcmp(d->d_name, "pending");
        if (!counter && (strlen(d->d_name) != 2 || d->d_name[0] == '.'))
            continue;
        char *sub = mem_printf("%s/%s", root, d->d_name);
        struct stat st;
        if (!sub)
            rc = DGPB_ERR_NOMEM;
        else if (lstat(sub, &st))
            dgpb_free(sub);
        else if (counter ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode))
            rc = add_damaged(s, sub);
        else {
            if (!counter)
                rc = scan_prefix(sub, now, s);
            dgpb_free(sub);
        }
    }
    closedir(top);
    return rc;
}

static int older_first(const void *a, const void *b)
{
    const cache_file *x = a, *y = b;
    if (x->mtime.tv_sec != y->mtime.tv_sec)
        return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
    if (x->mtime.tv_nsec != y->mtime.tv_nsec)
        return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
    return strcmp(x->path, y->path);
}

void cache_evict(const char *root, uint64_t max_size)
{
    cache_scan s = {0};
    if (cache_scan_entries(root, &s) == DGPB_OK && s.total > max_size) {
        qsort(s.files, s.count, sizeof *s.files, older_first);
        uint64_t goal = max_size / 10 * 9;
        for (size_t i = 0; i < s.count && s.total > goal; i++)
            if (unlink(s.files[i].path) == 0)
                s.total -= s.files[i].size;
    }
    cache_scan_free(&s);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    int rc = type == FTW_DP ? rmdir(path) : unlink(path);
    return rc && errno != ENOENT ? errno : 0;
}

int cache_remove_any(const char *path)
{
    if (!unlink(path) || errno == ENOENT)
        return 0;
    if (errno != EISDIR && errno != EPERM)
        return errno;
    /* A folder: its contents first (FTW_DEPTH), links unlinked, not followed (FTW_PHYS). */
    int rc = nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
    return rc < 0 ? errno : rc;
}

/* ---- numbers on disk ---- */

void cache_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t cache_get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* ---- counters ---- */

#define COUNTER_MAGIC "DGPBK001"
#define COUNTER_RECORD 48 /* magic, four u64 counts, 8 bytes of their SHA-256 */

/* A counter record: the magic, four counts and the check of both. */
static void counter_record(const uint64_t *k, uint8_t rec[COUNTER_RECORD])
{
    uint8_t sha[DGPB_SHA256_SIZE] = {0};
    memcpy(rec, COUNTER_MAGIC, 8);
    for (int i = 0; i < 4; i++)
        cache_put_u64(rec + 8 + 8 * i, k[i]);
    (void)dgpb_sha256(rec, 40, sha);
    memcpy(rec + 40, sha, 8);
}

/*
 * Sums the records of four counters in <root>/<name>. Bytes that are not a
 * whole, checked record (a file overwritten, truncated inside a record, or
 * written by an older dgpb) count as nothing: the reading moves on byte by
 * byte to the next record, so those appended after damage still count.
 */
static void read_counter_file(const char *root, const char *name, uint64_t *out)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", root, name);
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (fileio_read_regular(path, (size_t)1 << 30, &bytes, &n, NULL))
        return;
    for (size_t at = 0; at + COUNTER_RECORD <= n;) {
        uint64_t k[4];
        uint8_t rec[COUNTER_RECORD];
        for (int i = 0; i < 4; i++)
            k[i] = cache_get_u64(bytes + at + 8 + 8 * i);
        if (memcmp(bytes + at, COUNTER_MAGIC, 8)) {
            at++;
            continue;
        }
        counter_record(k, rec);
        if (memcmp(rec, bytes + at, COUNTER_RECORD)) {
            at++;
            continue;
        }
        for (int i = 0; i < 4; i++)
            out[i] += k[i];
        at += COUNTER_RECORD;
    }
    dgpb_free(bytes);
}

void cache_counters_read(const char *root, dgpb_cache_counters *out)
{
    memset(out, 0, sizeof *out);
    uint64_t local[4] = {0}, remote[4] = {0}, rejected[4] = {0};
    read_counter_file(root, "counters", local);
    read_counter_file(root, "remote-counters", remote);
    read_counter_file(root, "rejected-counters", rejected);
    out->build_rejected = rejected[0];
    out->remote_unauthenticated = rejected[1];
    out->build_hits = local[0], out->build_misses = local[1];
    out->compile_hits = local[2], out->compile_misses = local[3];
    out->remote_hits = remote[0], out->remote_misses = remote[1];
    out->remote_uploads = remote[2], out->remote_errors = remote[3];
}

/* Appends a record of four counters to <root>/<name>, unless they are all 0. */
static void add_counter_file(const char *root, const char *name, const uint64_t *k)
{
    if (!k[0] && !k[1] && !k[2] && !k[3])
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", root, name);
    uint8_t rec[COUNTER_RECORD];
    counter_record(k, rec);
    /* Never waits (O_NONBLOCK: a FIFO there fails with ENXIO) or follows a link; anything but a
       regular file there is damage, replaced by a new file. */
    int flags = O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC;
    int fd = open(path, flags, 0644);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
        close(fd);
        fd = -1;
        errno = EINVAL;
    }
    if (fd < 0 && (errno == EINVAL || errno == EISDIR || errno == ELOOP || errno == ENXIO) &&
        !cache_remove_any(path))
        fd = open(path, flags | O_EXCL, 0644);
    if (fd < 0)
        return;
    (void)!write(fd, rec, sizeof rec); /* one small O_APPEND write: whole or not at all */
    close(fd);
}

void cache_counters_add(const char *root, const dgpb_cache_counters *k)
{
    uint64_t local[4] = {k->build_hits, k->build_misses, k->compile_hits, k->compile_misses};
    uint64_t remote[4] = {k->remote_hits, k->remote_misses, k->remote_uploads, k->remote_errors};
    uint64_t rejected[4] = {k->build_rejected, k->remote_unauthenticated, 0, 0};
    add_counter_file(root, "counters", local);
    add_counter_file(root, "remote-counters", remote);
    add_counter_file(root, "rejected-counters", rejected);
}

/* ---- eviction ---- */

/*
 * Whether to scan for eviction: once the bytes written since the last scan
 * (this process's added to <root>/pending, a hint that concurrent writers
 * may race on) pass a 32nd of the cap. Resets the count when it says yes.
 */
bool cache_scan_due(const char *root, uint64_t put_bytes, uint64_t max_size)
{
    char path[4200], temp[4300];
    snprintf(path, sizeof path, "%s/pending", root);
    snprintf(temp, sizeof temp, "%s/.pending-%ld", root, (long)getpid());
    uint64_t pending = 0;
    uint8_t *text = NULL;
    size_t n = 0;
    if (fileio_read_regular(path, 64, &text, &n, NULL) == DGPB_OK)
        pending = strtoull((const char *)text, NULL, 10);
    dgpb_free(text);
    pending += put_bytes;
    bool due = pending > max_size / 32;
    char line[32];
    int len = snprintf(line, sizeof line, "%llu\n", (unsigned long long)(due ? 0 : pending));
    int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
        bool bad = fileio_write_all(fd, line, (size_t)len) != 0;
        bad |= close(fd) != 0;
        /* a folder named pending (damage) is replaced */
        if (!bad && rename(temp, path))
            bad = !(errno == EISDIR || errno == ENOTEMPTY || errno == EEXIST) ||
                  cache_remove_any(path) || rename(temp, path);
        if (bad)
            unlink(temp);
    }
    return due;
}
