/*
 * project_root.c - the project root of a build (cache_session.h,
 * docs/cache.md "Paths in keys"), and paths under it written as a
 * placeholder in keys and stored results, and back: two checkouts of a
 * project in different folders, on different machines, share entries.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/cache_session.h"

#define ROOT_PLACEHOLDER "@DGPB_ROOT@"

/* Whether `dir` holds an entry `name`. */
static bool has_entry(const char *dir, const char *name)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return !lstat(path, &st);
}

/* Cuts `path` (canonical) back to its longest leading folder that also leads `other`. */
static void common_folder(char *path, const char *other)
{
    size_t i = 0, last = 0;
    while (path[i] && path[i] == other[i]) {
        i++;
        if (path[i] == '/' || (!path[i] && (!other[i] || other[i] == '/')))
            last = i;
    }
    path[last] = 0;
}

void cache_find_root(cache_session *s)
{
    s->root[0] = 0;
    s->root_len = 0;
    const char *given = s->desc->cache_root;
    char *real = realpath(given && *given ? given : s->desc->module_file, NULL);
    if (!real)
        return;
    snprintf(s->root, sizeof s->root, "%s", real);
    free(real);
    if (!(given && *given)) {
        char *slash = strrchr(s->root, '/');
        if (slash)
            *slash = 0;
        char top[4096];
        snprintf(top, sizeof top, "%s", s->root);
        while (top[0] && !has_entry(top, ".git")) {
            slash = strrchr(top, '/');
            *slash = 0;
        }
        if (top[0])
            memcpy(s->root, top, strlen(top) + 1);
        common_folder(s->root, s->cwd);
    }
    s->root_len = strlen(s->root);
    while (s->root_len && s->root[s->root_len - 1] == '/')
        s->root[--s->root_len] = 0;
}

/* Whether `c`, after a folder's name, continues that name (so the folder was not the root). */
static bool continues_name(char c)
{
    return c && c != '/' && !strchr(" \t\r\n\"'():,;<>[]{}=", c);
}

void cache_append_rooted(const cache_session *s, dgpb_bytebuf *out, const char *text, size_t n)
{
    size_t at = 0;
    while (s->root_len && at < n) {
        const char *hit = memmem(text + at, n - at, s->root, s->root_len);
        if (!hit)
            break;
        size_t start = (size_t)(hit - text), end = start + s->root_len;
        bool whole = end >= n || !continues_name(text[end]);
        bytebuf_append(out, text + at, start - at + (whole ? 0 : 1));
        if (whole)
            bytebuf_append(out, ROOT_PLACEHOLDER, strlen(ROOT_PLACEHOLDER));
        at = whole ? end : start + 1;
    }
    bytebuf_append(out, text + at, n - at);
}

void cache_key_rooted(const cache_session *s, dgpb_bytebuf *k, const char *str)
{
    if (!str) {
        cache_key_str(k, NULL);
        return;
    }
    cache_append_rooted(s, k, str, strlen(str));
    bytebuf_append(k, "", 1);
}

char *cache_unroot(const cache_session *s, const char *text, size_t n)
{
    dgpb_bytebuf out = DGPB_BYTEBUF_INIT;
    size_t at = 0, len = strlen(ROOT_PLACEHOLDER);
    for (;;) {
        const char *hit = at < n ? memmem(text + at, n - at, ROOT_PLACEHOLDER, len) : NULL;
        if (!hit)
            break;
        bytebuf_append(&out, text + at, (size_t)(hit - text) - at);
        bytebuf_append(&out, s->root, s->root_len);
        at = (size_t)(hit - text) + len;
    }
    bytebuf_append(&out, text + at, n - at);
    bytebuf_append(&out, "", 1);
    if (out.failed) {
        bytebuf_free(&out);
        return NULL;
    }
    return (char *)out.data;
}
