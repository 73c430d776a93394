/*
 * cache_session.h - the compile cache's part in one build (internal;
 * docs/cache.md): its state, a cache_session the build holds and hands to
 * every function here, and what the build asks of it. The store itself is
 * dgpb/cache.h (cache.c); the build's side of it is driver/build_cache.c
 * (its compile and layout jobs) and driver/build_replay.c (a whole build).
 *
 * Two levels, both looked up in two steps as ccache's direct mode does: a
 * manifest, filed under a key made of everything known before compiling,
 * lists sets of input files with their SHA-256; a set whose files all still
 * hash the same (and at whose absent paths nothing stands) names the result,
 * filed under the SHA-256 of its bytes.
 *
 *   build    key: dgpb's version, the compiler's identity, the working folder and every
 *            option; result: the bundle, its JSON view, the depfile's
 *            dependencies, the warnings. A hit writes those and starts no compiler.
 *   compile  key: the compiler's identity, the working folder, the argument vector (the
 *            intermediate folder replaced by a placeholder) and the main source's key
 *            bytes; result: code, reflection JSON, what the compile printed, the files
 *            it read (from its -depfile).
 *   layout   key: the compiler's and the recorder's identities, the working folder, the
 *            recorder's arguments and the SHA-256 of the group's compile results (code
 *            and reflection JSON of each of its entries); no input files; result: the
 *            layout blob and what the recorder printed.
 *
 * The files, each with one job:
 *
 *   session.c            the session's start (working folder, project root), its
 *                        warnings, whether the cache can be used, its end
 *   project_root.c       the project root, and paths under it written with a placeholder
 *                        in keys and results (and back)
 *   compiler_identity.c  the compiler's identity (its files' SHA-256 and its version,
 *                        kept locally under the files' status) and the layout recorder's
 *   file_hashes.c        each input file's SHA-256, hashed once per build; whether
 *                        anything stands at a path a set needs absent
 *   shadowing.c          the paths a compile would have looked at before the files it
 *                        read: a file appearing there is a miss
 *   keys.c               the manifest keys of compiles, layouts and whole builds; the
 *                        main source's key text (scan/slang_text.h)
 *   manifest.c           manifests: input sets matched against the files, found (locally,
 *                        then remotely; a batch at once) and filed
 *   result_sections.c    the sections a stored result is made of
 *   whole_build.c        a whole build's entry: filed, found and read back for a replay
 *
 * Keys and stored results name the paths under the project root with a
 * placeholder instead: the working folder, the arguments, manifests' input
 * files, the dependencies and what the compiles printed. Two checkouts of a
 * project in different folders, on different machines, share entries; each
 * input file is still checked by its SHA-256 where this build finds it.
 */
#ifndef DGPB_CACHE_SESSION_H
#define DGPB_CACHE_SESSION_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define cache_session_begin dgpb__cache_session_begin
#define cache_session_usable dgpb__cache_session_usable
#define cache_session_keep_warning dgpb__cache_session_keep_warning
#define cache_session_end dgpb__cache_session_end
#define cache_find_root dgpb__cache_find_root
#define cache_append_rooted dgpb__cache_append_rooted
#define cache_key_rooted dgpb__cache_key_rooted
#define cache_unroot dgpb__cache_unroot
#define cache_compiler_identity dgpb__cache_compiler_identity
#define cache_key_recorder dgpb__cache_key_recorder
#define cache_hash_file dgpb__cache_hash_file
#define cache_path_taken dgpb__cache_path_taken
#define cache_set_add_absent dgpb__cache_set_add_absent
#define cache_module_key dgpb__cache_module_key
#define cache_rooted_file_key dgpb__cache_rooted_file_key
#define cache_full_source_sha dgpb__cache_full_source_sha
#define cache_compile_key dgpb__cache_compile_key
#define cache_layout_key dgpb__cache_layout_key
#define cache_build_key dgpb__cache_build_key
#define cache_manifest_find dgpb__cache_manifest_find
#define cache_manifest_add dgpb__cache_manifest_add
#define cache_set_add_input dgpb__cache_set_add_input
#define cache_file_result dgpb__cache_file_result
#define cache_lookups_alloc dgpb__cache_lookups_alloc
#define cache_lookups_free dgpb__cache_lookups_free
#define cache_lookups_find dgpb__cache_lookups_find
#define cache_add_section dgpb__cache_add_section
#define cache_next_section dgpb__cache_next_section
#define cache_add_rooted_section dgpb__cache_add_rooted_section
#define cache_add_paths dgpb__cache_add_paths
#define cache_split_paths dgpb__cache_split_paths
#define cache_build_find dgpb__cache_build_find
#define cache_build_entry_free dgpb__cache_build_entry_free
#define cache_build_keep dgpb__cache_build_keep

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/bytebuf.h"
#include "dgpb/compiler.h"
#include "dgpb/cache.h"
#include "dgpb/sha256.h"

/* In every key and manifest; 3: warnings kept with their place; 4: capabilities from every
   feature the code declares (DGPB_CODE_FEATURE), so no build cached before is replayed. */
#define CACHE_FORMAT "4"
#define CACHE_INPUT_MAX ((size_t)256 << 20) /* the largest input file hashed */

/* Whether `name` (len bytes) is a macro some compile of the build may get with -D. */
typedef bool (*cache_known_fn)(void *ctx, const char *name, size_t len);

/* What a build knows of a path: a file's SHA-256, hashed once per build, and whether anything
   stands there (file_hashes.c). */
typedef struct cache_file_hash {
    char *path;
    uint8_t sha[DGPB_CACHE_KEY_SIZE];
    bool hashed;        /* its bytes were read, or could not be */
    bool ok;            /* it could be read */
    bool defines_known; /* it #defines or #undefs a known macro */
    uint8_t taken;      /* 0 not asked; 1 something other than a folder is there; 2 nothing */
} cache_file_hash;

/*
 * What a build's keys are made of, as the build was asked (borrowed for the
 * session): the cache's own copy of the build's options, so that the cache
 * depends on nothing of the build driver's (driver/build_cache.c fills it).
 */
typedef struct cache_inputs {
    dgpb_cache *store;           /* the compile cache; NULL: no caching */
    dgpb_compiler *compiler;     /* whose identity keys every entry */
    const char *slang_lib;       /* the recorder's libslang; NULL: its own lookup */
    const char *layout_recorder; /* dgpb-slang-layout; NULL: none */
    const char *cache_root;      /* the project root keys name paths under; NULL: found */
    const char *module_file;     /* as the user spelled it */
    const char *module_path;
    const char *out_dir;
    const char *bundle_file; /* -o NAME.dgpb; NULL: none */
    const char *targets;
    const char *triple;
    const char *const *defines;
    size_t define_count;
    const char *const *include_dirs;
    size_t include_dir_count;
    bool no_layouts;
    const char *options; /* the project options, spelled alike for alike options */
} cache_inputs;

/*
 * The cache's state for one build. Zeroed, it is a session without a cache
 * (and ends harmlessly); cache_session_begin starts one.
 */
typedef struct cache_session {
    dgpb_cache *store;        /* in->store; NULL: no caching */
    const cache_inputs *desc; /* the build's options, as its keys use them */
    const char *tmp;          /* the build's intermediate folder ("" until it is made) */
    cache_known_fn known;     /* the build's known macros (group symbols, targets, -D) */
    void *known_ctx;
    char cwd[4096];  /* the working folder ("" when unknown: no caching) */
    char root[4096]; /* the project root keys name paths under relatively ("": none) */
    size_t root_len;
    int identity_state; /* 0 not computed, 1 identity valid, -1 no caching */
    uint8_t identity[DGPB_CACHE_KEY_SIZE];
    int recorder_state; /* 0 not computed, 1 recorder_id valid, -1 none to be had */
    uint8_t recorder_id[DGPB_CACHE_KEY_SIZE]; /* the layout recorder and its libslang */
    cache_file_hash *hashes;
    size_t hash_count, hash_cap;
    size_t *hash_index; /* open addressing over hashes by path: slot = entry + 1 */
    size_t hash_index_cap;
    bool full_sha_ready;
    uint8_t full_sha[DGPB_CACHE_KEY_SIZE]; /* the whole module's text */
    bool lines_matter; /* set by the build: a file the module includes says __LINE__, so the
                          module's lines may reach the code; its key text is never
                          normalised (cache_module_key) */
    dgpb_bytebuf warnings; /* every warning reported, NUL-separated, for the build's entry */
} cache_session;

/* ---- key bytes: NUL-terminated strings, then the SHA-256 of them all ---- */

static inline void cache_key_str(dgpb_bytebuf *k, const char *s)
{
    s = s ? s : "(null)";
    bytebuf_append(k, s, strlen(s) + 1);
}

static inline bool cache_key_sha(const dgpb_bytebuf *k, uint8_t out[DGPB_SHA256_SIZE])
{
    return !k->failed && dgpb_sha256(k->data, k->len, out) == DGPB_OK;
}

/* ---- the session (session.c) ---- */

/*
 * Starts the session of a build: nothing without desc->cache; else the
 * working folder and the project root. `tmp` is the build's intermediate
 * folder, read when keys are made; `known` tells the build's known macros.
 */
void cache_session_begin(cache_session *s, const cache_inputs *desc, const char *tmp,
                         cache_known_fn known, void *known_ctx);

/* Whether the cache can be used: a store, a working folder and the compiler's identity. */
bool cache_session_usable(cache_session *s);

/* Keeps a warning the build reported, to be reported again when the build is replayed. */
void cache_session_keep_warning(cache_session *s, const char *message);

/* Frees what the session holds; it is zeroed then. */
void cache_session_end(cache_session *s);

/* ---- the project root (project_root.c) ---- */

/*
 * Sets s->root: desc->cache_root, else the nearest folder above the module
 * that holds .git (else the module's own folder), cut back to a folder that
 * also holds the working folder. "/" (or none) means no rewriting.
 */
void cache_find_root(cache_session *s);

/* Appends `text` with each mention of the project root written as the placeholder. */
void cache_append_rooted(const cache_session *s, dgpb_bytebuf *out, const char *text, size_t n);

/* cache_key_str of `str` with the root written as the placeholder. */
void cache_key_rooted(const cache_session *s, dgpb_bytebuf *k, const char *str);

/* A new string (dgpb_free): `text` with the placeholder written as this build's root; NULL:
   no memory. */
char *cache_unroot(const cache_session *s, const char *text, size_t n);

/* ---- identities (compiler_identity.c) ---- */

/*
 * Fills s->identity: the content of the compiler's files and its version,
 * both kept locally (kind 'v') under the files' status, once per build.
 * False when the version cannot be had (no caching then).
 */
bool cache_compiler_identity(cache_session *s);

/* Adds the layout recorder's identity (it and the libslang it loads, by content), found once
   per build; without it the key fails. */
void cache_key_recorder(cache_session *s, dgpb_bytebuf *k);

/* ---- file hashes (file_hashes.c) ---- */

/* The SHA-256 of a file's bytes (remembered for the build); NULL when it cannot be read. */
const cache_file_hash *cache_hash_file(cache_session *s, const char *path);

/* 1 when anything but a folder stands at `path` (asked once per build), 0 when nothing does,
   -1 when out of memory. */
int cache_path_taken(cache_session *s, const char *path);

/* ---- paths that must stay absent (shadowing.c) ---- */

/*
 * Appends "absent PATH\n" to an input set for each path where a compile given `main_source`
 * and the -I folders `roots` (in order) would have looked, before one of the `files` it read,
 * for a file of the same name, and where nothing stands now (docs/cache.md, "Files that
 * appear"): were a file to appear there, the compile would read it instead. False when a path
 * cannot be written in a set or out of memory (then file nothing).
 */
bool cache_set_add_absent(cache_session *s, dgpb_bytebuf *set, const char *main_source,
                          char *const *files, size_t count, const char *const *roots,
                          size_t root_count);

/* ---- keys (keys.c) ---- */

/*
 * The SHA-256 of the module's key text for a compile with these arguments:
 * its text without the branches the arguments' -D set provably leaves out,
 * or the whole text (slang_text_reduce); then only what the compile's entry
 * (-entry) can depend on (scan/decl_slice.h). `outline`: a compile without
 * an entry that reads the module's declarations only (a discovery): the
 * functions' bodies are left out.
 */
bool cache_module_key(cache_session *s, const char *source, size_t len, const char *const *argv,
                      size_t argc, bool outline, uint8_t out[DGPB_SHA256_SIZE]);

/* The SHA-256 of a file's text with the root written as the placeholder (the discovery
   module, which includes the module by its absolute path). */
bool cache_rooted_file_key(cache_session *s, const char *path, uint8_t out[DGPB_SHA256_SIZE]);

/* The SHA-256 of the whole module's text, found once per build. */
bool cache_full_source_sha(cache_session *s, const char *source, size_t len,
                           uint8_t out[DGPB_SHA256_SIZE]);

/* The manifest key of a compile job whose main source has the key `source`. */
bool cache_compile_key(cache_session *s, const uint8_t source[DGPB_SHA256_SIZE],
                       const char *const *argv, size_t argc, uint8_t out[DGPB_SHA256_SIZE]);

/*
 * The manifest key of a layout job: the compiler, the recorder, its arguments and `results`,
 * the SHA-256 of what the group's compiles produced for the target (their code and
 * reflection JSON); its input set is empty.
 */
bool cache_layout_key(cache_session *s, const uint8_t results[DGPB_SHA256_SIZE],
                      const char *const *argv, size_t argc, uint8_t out[DGPB_SHA256_SIZE]);

/* The manifest key of the whole build: dgpb's version, the compiler, every option. */
bool cache_build_key(cache_session *s, uint8_t out[DGPB_SHA256_SIZE]);

/* ---- manifests (manifest.c) ---- */

/*
 * Looks a manifest up: sets *result to the result key of the first set whose
 * files match (and whose FULL matches `full_hex`, when given). When the local
 * manifest has none, the remote store's version of it is searched too: a set
 * found there is added to the local manifest. False on a miss.
 */
bool cache_manifest_find(cache_session *s, char kind, const uint8_t key[DGPB_SHA256_SIZE],
                         const char *full_hex, uint8_t result[DGPB_SHA256_SIZE]);

/* Files a new set first in the manifest, keeping up to three older distinct ones. */
void cache_manifest_add(cache_session *s, char kind, const uint8_t key[DGPB_SHA256_SIZE],
                        const char *set_text);

/* Appends "SHA256 PATH\n" for a file to an input set; false when it cannot be read or named.
   *defines (when given) is set when the file #defines a known macro. */
bool cache_set_add_input(cache_session *s, dgpb_bytebuf *set, const char *path, bool *defines);

/*
 * Files a result (kind `result_kind`, under the SHA-256 of its bytes) and
 * its input set first in the manifest `key` (kind `manifest_kind`); `full`,
 * when given, is the whole module's SHA-256 that the set needs as well.
 */
void cache_file_result(cache_session *s, char result_kind, const dgpb_bytebuf *result,
                       char manifest_kind, const uint8_t key[DGPB_SHA256_SIZE],
                       const dgpb_bytebuf *set, const uint8_t *full);

/* The lookups of a batch of jobs: their keys and the results their manifests name. */
typedef struct cache_lookups {
    uint8_t (*keys)[DGPB_SHA256_SIZE];
    uint8_t (*results)[DGPB_SHA256_SIZE];
    bool *keyed, *found;
} cache_lookups;

/* Allocates lookups for `count` jobs; false (free them anyway) when out of memory. */
bool cache_lookups_alloc(cache_lookups *l, size_t count);
void cache_lookups_free(cache_lookups *l);

/*
 * The manifests of the keyed jobs, then the results they name: each step's
 * remote lookups at once. Sets l->found and l->results.
 */
void cache_lookups_find(cache_session *s, cache_lookups *l, size_t count, const char *full_hex);

/* ---- a result's sections (result_sections.c) ---- */

/* Appends a section: its size (u32, little-endian), then its bytes. */
void cache_add_section(dgpb_bytebuf *r, const void *data, size_t size);

/* Reads the next section of a result; false when it runs past the end. */
bool cache_next_section(const uint8_t **p, const uint8_t *end, const uint8_t **data, size_t *size);

/* A section of text written rooted (cache_append_rooted). */
void cache_add_rooted_section(const cache_session *s, dgpb_bytebuf *r, const char *text, size_t n);

/* A section of paths, one a line, rooted. */
void cache_add_paths(const cache_session *s, dgpb_bytebuf *r, char *const *items, size_t count);

/* Splits a section of rooted paths into a new array of this build's paths (free it with
   depfile_free, also on failure). */
bool cache_split_paths(const cache_session *s, const uint8_t *data, size_t size, char ***out,
                       size_t *count);

/* ---- a whole build (whole_build.c) ---- */

/* A whole build found in the cache: everything a replay writes, reports and returns; every
   pointer is the entry's own (cache_build_entry_free). */
typedef struct cache_build_entry {
    uint8_t *data; /* the stored result; bundle points into it */
    const uint8_t *bundle;
    size_t bundle_size;
    char *json;       /* the JSON view, NUL-terminated */
    char **deps;      /* the depfile's dependencies, this build's paths */
    size_t dep_count; /* (depfile_free) */
    char **warnings;  /* the warnings it reported, this build's paths */
    size_t warning_count;
    unsigned targets, entries, blobs; /* the summary's numbers */
} cache_build_entry;

/* Finds the whole build filed under this build's key and inputs; false on a miss. */
bool cache_build_find(cache_session *s, cache_build_entry *e);

void cache_build_entry_free(cache_build_entry *e);

/* Files the finished build: its outputs, the files it read, its warnings and numbers. */
void cache_build_keep(cache_session *s, const uint8_t *bundle, size_t size, const char *json,
                      char *const *deps, size_t dep_count, unsigned targets, unsigned entries,
                      unsigned blobs);

#endif
