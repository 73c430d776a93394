/*
 * compiler_identity.c - who compiles, by content (cache_session.h,
 * docs/cache.md "The compiler's identity"): the compiler's identity, the
 * SHA-256 of its program files (named relative to its folder: the libslang or
 * WebAssembly module it loads, its scripts) and its version string; and the
 * layout recorder's, with the libslang it loads.
 *
 * Both are kept in the local cache under the files' status (path, size,
 * times, inode), so that a warm build hashes no compiler and runs none; the
 * identity itself names no path, so that two installations of one compiler
 * share entries. The version is filed under the files' content (shared
 * through a remote store): a new machine hashes its compiler once and reads
 * the version instead of starting the compiler to ask.
 */
#define _GNU_SOURCE
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/cache_session.h"
#include "compiler/compiler_files.h"
#include "core/alloc.h"
#include "dgpb/compiler.h"
#include "dgpb/fileio.h"

/* A file's status as text: device, inode, size, modification and change times. */
static void status_text(const struct stat *st, char *buf, size_t size)
{
    snprintf(buf, size, "%llu %llu %lld %lld.%09ld %lld.%09ld", (unsigned long long)st->st_dev,
             (unsigned long long)st->st_ino, (long long)st->st_size, (long long)st->st_mtim.tv_sec,
             (long)st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec, (long)st->st_ctim.tv_nsec);
}

/* Adds a file's path and status: what the identity is filed under. */
static void add_stat(dgpb_bytebuf *k, const char *path)
{
    struct stat st;
    char status[160];
    if (stat(path, &st))
        snprintf(status, sizeof status, "missing");
    else
        status_text(&st, status, sizeof status);
    cache_key_str(k, path);
    cache_key_str(k, status);
}

/*
 * The SHA-256 of a file's bytes, kept in the local cache (kind 'v', never
 * uploaded) under the file's status without its path (device, inode, size,
 * times), so that a large library is hashed once per change, not once per
 * build, nor once per name it has (libslang.so and the file it links to).
 * It is read 64 KiB at a time. False when it cannot be read.
 */
static bool content_id(cache_session *s, const char *path, uint8_t out[DGPB_SHA256_SIZE])
{
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    cache_key_str(&k, "dgpb-file " CACHE_FORMAT);
    struct stat st;
    if (stat(path, &st)) {
        bytebuf_free(&k);
        return false;
    }
    char status[160];
    status_text(&st, status, sizeof status);
    cache_key_str(&k, status);
    uint8_t key[DGPB_SHA256_SIZE];
    bool ok = cache_key_sha(&k, key);
    bytebuf_free(&k);
    if (!ok)
        return false;
    uint8_t *known = NULL;
    size_t size = 0;
    if (!dgpb_cache_get(s->store, 'v', key, &known, &size)) {
        ok = size == DGPB_SHA256_SIZE;
        if (ok)
            memcpy(out, known, DGPB_SHA256_SIZE);
        dgpb_free(known);
        if (ok)
            return true;
    }
    ok = dgpb_sha256_file(path, out) == DGPB_OK;
    if (ok)
        dgpb_cache_put(s->store, 'v', key, out, DGPB_SHA256_SIZE);
    return ok;
}

/* Adds "LABEL NAME SHA256" for a file: its content, named relative to `base` when under it. */
static void add_content(cache_session *s, dgpb_bytebuf *k, const char *label, const char *base,
                        const char *path)
{
    cache_key_str(k, label);
    if (!path) {
        cache_key_str(k, "(none)");
        return;
    }
    size_t n = base ? strlen(base) : 0;
    cache_key_str(k, n && !strncmp(path, base, n) && path[n] == '/' ? path + n + 1 : "");
    uint8_t id[DGPB_SHA256_SIZE];
    if (content_id(s, path, id))
        bytebuf_append(k, id, sizeof id);
    else
        cache_key_str(k, "unreadable");
}

typedef struct identity_walk {
    cache_session *s;
    dgpb_bytebuf *k;
    const char *base;
} identity_walk;

static void stat_one(void *user, const char *path)
{
    add_stat(((identity_walk *)user)->k, path);
}

static void content_one(void *user, const char *path)
{
    identity_walk *w = user;
    add_content(w->s, w->k, "file", w->base, path);
}

/*
 * The files that make up the compiler (compiler/compiler_files.h, relative to
 * the folder of its resolved program), through `fn`; also the native library
 * and recorder.
 */
static void compiler_files(cache_session *s, const char *dir, identity_walk *w,
                           void (*fn)(void *, const char *))
{
    bool is_embedded = dgpb_compiler_is_embedded(s->desc->compiler);
    cache_key_str(w->k, is_embedded ? "embedded" : "native");
    compiler_files_each(is_embedded, dir, fn, w);
    if (!is_embedded) {
        const char *extra[] = {s->desc->slang_lib, s->desc->layout_recorder};
        for (size_t i = 0; i < 2; i++) /* the native workers compile in the recorder */
            if (extra[i])
                fn(w, extra[i]);
    }
    /* The CUDA compilers that write PTX, and what they read from the environment
       (docs/cache.md, "The compiler's identity"). */
    cache_key_str(w->k, "cuda");
    compiler_cuda_files(fn, w);
    for (size_t i = 0; compiler_tool_env[i]; i++) {
        const char *value = getenv(compiler_tool_env[i]);
        cache_key_str(w->k, compiler_tool_env[i]);
        cache_key_str(w->k, value ? "=" : "unset");
        if (value)
            cache_key_str(w->k, value);
    }
}

/*
 * Appends the compiler's version to `id` (its files' content so far). The
 * version is a function of that content, so it is filed under it (kind 'c',
 * shared through a remote store): a new machine with the same compiler reads
 * it instead of starting the compiler to ask.
 */
static bool compiler_version(cache_session *s, dgpb_bytebuf *id)
{
    uint8_t key[DGPB_SHA256_SIZE];
    if (!cache_key_sha(id, key))
        return false;
    uint8_t *known = NULL;
    size_t size = 0;
    if (!dgpb_cache_get(s->store, 'c', key, &known, &size)) {
        bool ok = size > 0 && size < 4096 && !memchr(known, 0, size);
        if (ok)
            bytebuf_append(id, known, size);
        dgpb_free(known);
        if (ok)
            return true;
    }
    const char *v = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_compiler_version(s->desc->compiler, &v, &d) || !v || !*v)
        return false;
    dgpb_cache_put(s->store, 'c', key, v, strlen(v));
    bytebuf_append(id, v, strlen(v));
    return true;
}

bool cache_compiler_identity(cache_session *s)
{
    if (s->identity_state)
        return s->identity_state > 0;
    s->identity_state = -1;
    dgpb_compiler *compiler = s->desc->compiler;
    char *real = realpath(dgpb_compiler_path(compiler), NULL);
    if (!real)
        return false;
    char *slash = strrchr(real, '/');
    *slash = 0;
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT, id = DGPB_BYTEBUF_INIT;
    cache_key_str(&k, "dgpb-compiler " CACHE_FORMAT);
    *slash = '/';
    add_stat(&k, real);
    *slash = 0;
    identity_walk w = {s, &k, real};
    compiler_files(s, real, &w, stat_one);
    uint8_t stat_key[DGPB_SHA256_SIZE];
    bool ok = cache_key_sha(&k, stat_key);
    uint8_t *known = NULL;
    size_t known_len = 0;
    if (ok && !dgpb_cache_get(s->store, 'v', stat_key, &known, &known_len) &&
        known_len > DGPB_SHA256_SIZE) {
        memcpy(s->identity, known, DGPB_SHA256_SIZE); /* the content and version, found */
    } else if (ok) {
        cache_key_str(&id, "dgpb-compiler-content " CACHE_FORMAT);
        *slash = '/';
        cache_key_str(&id, slash + 1);
        add_content(s, &id, "program", NULL, real);
        *slash = 0;
        identity_walk cw = {s, &id, real};
        compiler_files(s, real, &cw, content_one);
        ok = compiler_version(s, &id) && cache_key_sha(&id, s->identity);
        if (ok) {
            dgpb_bytebuf record = DGPB_BYTEBUF_INIT;
            bytebuf_append(&record, s->identity, sizeof s->identity);
            cache_key_str(&record, "identity");
            if (!record.failed)
                dgpb_cache_put(s->store, 'v', stat_key, record.data, record.len);
            bytebuf_free(&record);
        }
    }
    dgpb_free(known);
    free(real);
    bytebuf_free(&k);
    bytebuf_free(&id);
    s->identity_state = ok ? 1 : -1;
    return ok;
}

typedef struct glob_walk {
    cache_session *s;
    dgpb_bytebuf *k;
} glob_walk;

static void slang_root_one(void *user, const char *path)
{
    glob_walk *w = user;
    const char *name = strrchr(path, '/');
    add_content(w->s, w->k, "slang-root", NULL, path);
    cache_key_str(w->k, name ? name + 1 : path);
}

/*
 * The layout recorder and the libslang it loads, by content: the recorder, the
 * library --slang-lib names, and the libslang of SLANG_ROOT, where the recorder
 * looks without it.
 */
static void recorder_parts(cache_session *s, dgpb_bytebuf *k)
{
    add_content(s, k, "recorder", NULL, s->desc->layout_recorder);
    add_content(s, k, "slang-lib", NULL, s->desc->slang_lib);
    const char *slang_root = getenv("SLANG_ROOT");
    if (slang_root && *slang_root && !s->desc->slang_lib) {
        char pattern[4400];
        glob_walk w = {s, k};
        snprintf(pattern, sizeof pattern, "%s/lib/libslang*.so*", slang_root);
        compiler_files_glob(pattern, slang_root_one, &w);
    }
}

void cache_key_recorder(cache_session *s, dgpb_bytebuf *k)
{
    if (!s->recorder_state) {
        dgpb_bytebuf parts = DGPB_BYTEBUF_INIT;
        recorder_parts(s, &parts);
        s->recorder_state = cache_key_sha(&parts, s->recorder_id) ? 1 : -1;
        bytebuf_free(&parts);
    }
    if (s->recorder_state > 0)
        bytebuf_append(k, s->recorder_id, sizeof s->recorder_id);
    else
        k->failed = true; /* no key without it */
}
