/*
 * cache_files.c - the files of a cache folder (cache/cache_files.h): the
 * scan, eviction, and the removal of damage.
 */
#define _GNU_SOURCE
#include "cache/cache_files.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "dgpb/result.h"

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
