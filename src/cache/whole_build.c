/*
 * whole_build.c - a whole build in the cache (cache_session.h, docs/cache.md
 * "Two levels"): filed when a build finishes, under the build's key and an
 * input set of the module and every file its compiles read; found and read
 * back when the same build comes again, for build_replay.c to write.
 *
 * The result's sections: the bundle, its JSON view, the depfile's
 * dependencies (one a line), the warnings (NUL-separated) and the summary's
 * numbers ("TARGETS ENTRIES BLOBS").
 */
#include <stdio.h>
#include <string.h>

#include "cache/cache_session.h"
#include "core/alloc.h"
#include "io/depfile.h"

void cache_build_entry_free(cache_build_entry *e)
{
    dgpb_free(e->data);
    dgpb_free(e->json);
    depfile_free(e->deps, e->dep_count);
    for (size_t i = 0; i < e->warning_count; i++)
        dgpb_free(e->warnings[i]);
    dgpb_free(e->warnings);
    memset(e, 0, sizeof *e);
}

bool cache_build_find(cache_session *s, cache_build_entry *e)
{
    memset(e, 0, sizeof *e);
    uint8_t key[DGPB_SHA256_SIZE], result[DGPB_SHA256_SIZE];
    size_t size = 0;
    if (!cache_build_key(s, key) || !cache_manifest_find(s, 'b', key, NULL, result) ||
        dgpb_cache_get(s->store, 'o', result, &e->data, &size))
        goto miss;
    const uint8_t *p = e->data, *end = e->data + size, *json, *deps, *warnings, *summary;
    size_t json_n, deps_n, warnings_n, summary_n;
    if (!cache_next_section(&p, end, &e->bundle, &e->bundle_size) ||
        !cache_next_section(&p, end, &json, &json_n) ||
        !cache_next_section(&p, end, &deps, &deps_n) ||
        !cache_next_section(&p, end, &warnings, &warnings_n) ||
        !cache_next_section(&p, end, &summary, &summary_n) || p != end || summary_n > 100)
        goto miss;
    char numbers[128];
    memcpy(numbers, summary, summary_n);
    numbers[summary_n] = 0;
    if (sscanf(numbers, "%u %u %u", &e->targets, &e->entries, &e->blobs) != 3)
        goto miss;
    if (!(e->json = mem_alloc(json_n + 1)) ||
        !cache_split_paths(s, deps, deps_n, &e->deps, &e->dep_count))
        goto miss;
    memcpy(e->json, json, json_n);
    e->json[json_n] = 0;
    for (const char *w = (const char *)warnings, *wend = w + warnings_n; w < wend;) {
        const char *nul = memchr(w, 0, (size_t)(wend - w));
        size_t n = nul ? (size_t)(nul - w) : (size_t)(wend - w);
        char **grown = mem_realloc(e->warnings, (e->warning_count + 1) * sizeof *grown);
        if (!grown)
            goto miss;
        e->warnings = grown;
        if (!(grown[e->warning_count] = cache_unroot(s, w, n)))
            goto miss;
        e->warning_count++;
        w += n + 1;
    }
    return true;
miss:
    cache_build_entry_free(e);
    return false;
}

void cache_build_keep(cache_session *s, const uint8_t *bundle, size_t size, const char *json,
                      char *const *deps, size_t dep_count, unsigned targets, unsigned entries,
                      unsigned blobs)
{
    uint8_t key[DGPB_SHA256_SIZE];
    if (!cache_build_key(s, key))
        return;
    dgpb_bytebuf r = DGPB_BYTEBUF_INIT, set = DGPB_BYTEBUF_INIT;
    cache_add_section(&r, bundle, size);
    cache_add_section(&r, json, strlen(json));
    cache_add_paths(s, &r, deps, dep_count);
    cache_add_rooted_section(s, &r, s->warnings.data ? (const char *)s->warnings.data : "",
                             s->warnings.len);
    char summary[100];
    snprintf(summary, sizeof summary, "%u %u %u", targets, entries, blobs);
    cache_add_section(&r, summary, strlen(summary));
    bool ok = cache_set_add_input(s, &set, s->desc->module_file, NULL);
    for (size_t i = 0; i < dep_count && ok; i++)
        ok = cache_set_add_input(s, &set, deps[i], NULL);
    /* The paths its compiles would have looked at first: every compile's -I folders, the
       discovery's last one the module's folder. */
    const char *module = s->desc->module_file, *slash = strrchr(module, '/');
    char *module_dir = !slash            ? mem_strdup(".")
                       : slash == module ? mem_strdup("/")
                                         : mem_printf("%.*s", (int)(slash - module), module);
    size_t root_count = s->desc->include_dir_count;
    const char **roots = mem_calloc(root_count + 1, sizeof *roots);
    ok = ok && module_dir && roots;
    if (ok) {
        for (size_t i = 0; i < root_count; i++)
            roots[i] = s->desc->include_dirs[i];
        roots[root_count] = module_dir;
        ok = cache_set_add_absent(s, &set, module, deps, dep_count, roots, root_count + 1);
    }
    dgpb_free(roots);
    dgpb_free(module_dir);
    if (ok)
        cache_file_result(s, 'o', &r, 'b', key, &set, NULL);
    bytebuf_free(&r);
    bytebuf_free(&set);
}
