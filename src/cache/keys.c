/*
 * keys.c - the manifest keys (cache_session.h, docs/cache.md "Two
 * levels"): of a compile, of a layout recording (by what its group's
 * compiles produced), of a whole build; and the
 * main source's key text, without the branches that a compile's -D set
 * provably deactivates (scan/slang_text.h), so that a compile of one entry
 * does not change when another entry's guarded body does. Included and
 * imported files are not in the keys: they are hashed whole into the
 * manifests' input sets.
 */
#include <string.h>

#include "cache/cache_session.h"
#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "scan/decl_slice.h"
#include "scan/slang_text.h"

#define TMP_PLACEHOLDER "@DGPB_TMP@"

bool cache_module_key(cache_session *s, const char *source, size_t len, const char *const *argv,
                      size_t argc, bool outline, uint8_t out[DGPB_SHA256_SIZE])
{
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT, values = DGPB_BYTEBUF_INIT, sliced = DGPB_BYTEBUF_INIT;
    const char **defined = mem_calloc(argc + 1, sizeof *defined);
    if (!defined)
        return false;
    size_t count = 0;
    bool reduced = true, lines_matter = s->lines_matter;
    const char *entry = NULL;
    for (size_t i = 0; i < argc; i++) {
        if (!strncmp(argv[i], "-D", 2) && argv[i][2]) {
            defined[count++] = argv[i] + 2;
            bytebuf_append(&values, argv[i] + 2, strlen(argv[i] + 2));
            bytebuf_append(&values, "\n", 1);
        } else if (!strcmp(argv[i], "-D") || !strncmp(argv[i], "-U", 2)) {
            reduced = false; /* a form this reading does not follow: the whole text */
        } else if (!strcmp(argv[i], "-entry") && i + 1 < argc) {
            entry = argv[i + 1];
        } else if (!strncmp(argv[i], "-g", 2) && strcmp(argv[i], "-g0")) {
            lines_matter = true; /* debug information names the lines */
        }
    }
    slang_macros m = {
        .known = s->known, .ctx = s->known_ctx, .defined = defined, .defined_count = count};
    reduced = reduced && slang_text_reduce(&m, source, len, &k);
    dgpb_free(defined);
    if (!reduced) {
        k.len = 0;
        cache_key_str(&k, "whole");
        bytebuf_append(&k, source, len);
    }
    /* What the entry's code can depend on: an edit to a comment, to white space or to code
       it cannot reach keys the same (scan/decl_slice.h; docs/cache.md). */
    const char *text = reduced ? (const char *)k.data : source;
    size_t text_len = reduced ? k.len : len;
    if (!lines_matter && !k.failed && !values.failed &&
        decl_slice(text ? text : "", text_len, entry, outline && !entry,
                   (const char *)values.data, values.len, &sliced)) {
        bytebuf_free(&k);
        k = sliced;
        sliced = (dgpb_bytebuf)DGPB_BYTEBUF_INIT;
    }
    bool ok = cache_key_sha(&k, out);
    bytebuf_free(&k);
    bytebuf_free(&values);
    bytebuf_free(&sliced);
    return ok;
}

bool cache_rooted_file_key(cache_session *s, const char *path, uint8_t out[DGPB_SHA256_SIZE])
{
    uint8_t *text = NULL;
    size_t size = 0;
    if (dgpb_file_read(path, CACHE_INPUT_MAX, &text, &size, NULL))
        return false;
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    cache_append_rooted(s, &k, (const char *)text, size);
    dgpb_free(text);
    bool ok = cache_key_sha(&k, out);
    bytebuf_free(&k);
    return ok;
}

bool cache_full_source_sha(cache_session *s, const char *source, size_t len,
                           uint8_t out[DGPB_SHA256_SIZE])
{
    if (!s->full_sha_ready && dgpb_sha256(source, len, s->full_sha) == DGPB_OK)
        s->full_sha_ready = true;
    memcpy(out, s->full_sha, DGPB_SHA256_SIZE);
    return s->full_sha_ready;
}

/*
 * Adds an argument vector to a key, the build's intermediate folder in any
 * argument replaced by a placeholder: it differs from build to build, and
 * what the compiler writes there is not part of what it computes.
 */
static void add_args(cache_session *s, dgpb_bytebuf *k, const char *const *argv, size_t argc)
{
    size_t tmp_len = strlen(s->tmp);
    for (size_t i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *at = tmp_len ? strstr(a, s->tmp) : NULL;
        if (at) {
            cache_append_rooted(s, k, a, (size_t)(at - a));
            bytebuf_append(k, TMP_PLACEHOLDER, strlen(TMP_PLACEHOLDER));
            cache_key_rooted(s, k, at + tmp_len);
        } else {
            cache_key_rooted(s, k, a);
        }
    }
}

bool cache_compile_key(cache_session *s, const uint8_t source[DGPB_SHA256_SIZE],
                       const char *const *argv, size_t argc, uint8_t out[DGPB_SHA256_SIZE])
{
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    cache_key_str(&k, "dgpb-compile " CACHE_FORMAT);
    bytebuf_append(&k, s->identity, sizeof s->identity);
    cache_key_rooted(s, &k, s->cwd);
    add_args(s, &k, argv, argc);
    bytebuf_append(&k, source, DGPB_SHA256_SIZE);
    bool ok = cache_key_sha(&k, out);
    bytebuf_free(&k);
    return ok;
}

/*
 * The compiler's identity (the recorder compiles with its libslang), the
 * recorder and its library, the working folder, the arguments (intermediate
 * folder replaced) and what the group's compiles produced: the program the
 * recorder reflects is the one whose code and reflection those are
 * (docs/cache.md, "Layouts"), so no input file is needed besides.
 */
bool cache_layout_key(cache_session *s, const uint8_t results[DGPB_SHA256_SIZE],
                      const char *const *argv, size_t argc, uint8_t out[DGPB_SHA256_SIZE])
{
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    cache_key_str(&k, "dgpb-layout-of-results " CACHE_FORMAT);
    bytebuf_append(&k, s->identity, sizeof s->identity);
    cache_key_rooted(s, &k, s->cwd);
    cache_key_recorder(s, &k);
    add_args(s, &k, argv, argc);
    bytebuf_append(&k, results, DGPB_SHA256_SIZE);
    bool ok = cache_key_sha(&k, out);
    bytebuf_free(&k);
    return ok;
}

bool cache_build_key(cache_session *s, uint8_t out[DGPB_SHA256_SIZE])
{
    const cache_inputs *d = s->desc;
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    cache_key_str(&k, "dgpb-build " CACHE_FORMAT);
    cache_key_str(&k, dgpb_version());
    bytebuf_append(&k, s->identity, sizeof s->identity);
    cache_key_rooted(s, &k, s->cwd);
    cache_key_rooted(s, &k, d->module_file);
    cache_key_str(&k, d->module_path);
    cache_key_rooted(s, &k, d->out_dir);
    if (d->bundle_file) { /* only then: the keys of builds into a folder stay as they were */
        cache_key_str(&k, "-o NAME.dgpb");
        cache_key_rooted(s, &k, d->bundle_file);
    }
    cache_key_str(&k, d->targets);
    cache_key_str(&k, d->triple);
    for (size_t i = 0; i < d->define_count; i++)
        cache_key_str(&k, d->defines[i]);
    cache_key_str(&k, "-I");
    for (size_t i = 0; i < d->include_dir_count; i++)
        cache_key_rooted(s, &k, d->include_dirs[i]);
    cache_key_str(&k, d->no_layouts ? "no-layouts" : "layouts");
    cache_key_str(&k, d->options ? d->options : "");
    cache_key_recorder(s, &k);
    bool ok = cache_key_sha(&k, out);
    bytebuf_free(&k);
    return ok;
}
