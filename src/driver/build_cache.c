/*
 * build_cache.c - the build's jobs through the compile cache (build_internal.h;
 * the cache's side is cache/cache_session.h, docs/cache.md): the cache
 * session begun with the build's known macros, the keys of its compile and
 * layout jobs, their cached results taken (their files written where the job
 * would have written them) and the results of those that ran filed, and the
 * finished build filed. A whole build found in the cache is build_replay.c's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "driver/build_internal.h"
#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "io/depfile.h"
#include "core/fileio_internal.h"

/* ---- the session ---- */

/* The names every compile of the build may get with -D: group symbols, target macros, -D. */
static bool is_known(void *ctx, const char *name, size_t n)
{
    const build *b = ctx;
    for (size_t i = 0; i < b->symbol_count; i++)
        if (strlen(b->symbols[i]) == n && !memcmp(b->symbols[i], name, n))
            return true;
    for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++)
        if (strlen(target_macro(t)) == n && !memcmp(target_macro(t), name, n))
            return true;
    for (size_t i = 0; i < b->desc->define_count; i++) {
        const char *d = b->desc->defines[i];
        size_t len = strcspn(d, "=");
        if (len == n && !memcmp(d, name, n))
            return true;
    }
    return false;
}

void build_cache_begin(build *b)
{
    const dgpb_build_desc *d = b->desc;
    b->cache_in = (cache_inputs){.store = d->cache,
                                 .compiler = d->compiler,
                                 .slang_lib = d->slang_lib,
                                 .layout_recorder = d->layout_recorder,
                                 .cache_root = d->cache_root,
                                 .module_file = d->module_file,
                                 .module_path = d->module_path,
                                 .out_dir = d->out_dir,
                                 .bundle_file = d->bundle_file,
                                 .targets = d->targets,
                                 .triple = d->triple,
                                 .defines = d->defines,
                                 .define_count = d->define_count,
                                 .include_dirs = d->include_dirs,
                                 .include_dir_count = d->include_dir_count,
                                 .no_layouts = d->no_layouts,
                                 .options = b->options.key};
    cache_session_begin(&b->cache, &b->cache_in, b->tmp, is_known, b);
}

/* ---- compile jobs ---- */

/* The SHA-256 of a job's main source key bytes. */
static bool main_key(build *b, const job_info *info, uint8_t out[DGPB_SHA256_SIZE])
{
    uint8_t module[DGPB_SHA256_SIZE], wrapper[DGPB_SHA256_SIZE];
    if (!cache_module_key(&b->cache, b->source, b->source_len, (const char *const *)info->argv,
                          info->argc, info->role == ROLE_DISCOVER, module))
        return false;
    if (info->role != ROLE_DISCOVER)
        return memcpy(out, module, sizeof module), true;
    /* The discovery module includes the module by its absolute path: both count. */
    if (!cache_rooted_file_key(&b->cache, b->wrapper, wrapper))
        return false;
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    bytebuf_append(&k, wrapper, sizeof wrapper);
    bytebuf_append(&k, module, sizeof module);
    bool ok = cache_key_sha(&k, out);
    bytebuf_free(&k);
    return ok;
}

/* The manifest key of a compile job. */
static bool job_key(build *b, const job_info *info, uint8_t out[DGPB_SHA256_SIZE])
{
    uint8_t source[DGPB_SHA256_SIZE];
    return main_key(b, info, source) &&
           cache_compile_key(&b->cache, source, (const char *const *)info->argv, info->argc, out);
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

/* Takes a compile result: writes its code and reflection where the job would have. */
static bool take_result(build *b, job_info *info, dgpb_compile_job *job, const uint8_t *data,
                        size_t size)
{
    const uint8_t *p = data, *end = data + size, *code, *json, *diag, *deps;
    size_t code_n, json_n, diag_n, deps_n;
    if (!cache_next_section(&p, end, &code, &code_n) ||
        !cache_next_section(&p, end, &json, &json_n) ||
        !cache_next_section(&p, end, &diag, &diag_n) ||
        !cache_next_section(&p, end, &deps, &deps_n) || p != end)
        return false;
    /* Held in memory (the build reads them as it reads a compile's files); written only where
       the intermediate files are kept for the user. */
    if (b->desc->keep_temps ? (info->out && !write_intermediate(info->out, code, code_n)) ||
                                  !write_intermediate(info->json, json, json_n)
                            : (info->out && !build_hold_output(b, info->out, code, code_n)) ||
                                  !build_hold_output(b, info->json, json, json_n))
        return false;
    char **list = NULL;
    size_t count = 0;
    if (!cache_split_paths(&b->cache, deps, deps_n, &list, &count)) {
        depfile_free(list, count);
        return false;
    }
    char *diagnostics = cache_unroot(&b->cache, (const char *)diag, diag_n);
    char *output = mem_strdup("");
    if (!diagnostics || !output) {
        dgpb_free(diagnostics);
        dgpb_free(output);
        depfile_free(list, count);
        return false;
    }
    job->status = 0;
    job->diagnostics = diagnostics;
    job->output = output;
    depfile_free(info->deps, info->dep_count);
    info->deps = list;
    info->dep_count = count;
    info->deps_known = true;
    return true;
}

void build_cache_lookup(build *b, job_list *list, dgpb_compile_job *jobs, bool *hit)
{
    if (!cache_session_usable(&b->cache))
        return;
    char full_hex[2 * DGPB_SHA256_SIZE + 1] = "";
    uint8_t full[DGPB_SHA256_SIZE];
    if (b->source && cache_full_source_sha(&b->cache, b->source, b->source_len, full))
        dgpb_sha256_hex(full, full_hex);
    cache_lookups l;
    if (!cache_lookups_alloc(&l, list->count)) {
        cache_lookups_free(&l);
        return; /* no memory: everything compiles */
    }
    for (size_t i = 0; i < list->count; i++) {
        job_info *info = &list->info[i];
        info->keyed = l.keyed[i] = job_key(b, info, info->key);
        memcpy(l.keys[i], info->key, DGPB_SHA256_SIZE);
    }
    cache_lookups_find(&b->cache, &l, list->count, full_hex[0] ? full_hex : NULL);
    for (size_t i = 0; i < list->count; i++) {
        job_info *info = &list->info[i];
        uint8_t *data = NULL;
        size_t size = 0;
        hit[i] = l.found[i] && !dgpb_cache_get(b->cache.store, 'r', l.results[i], &data, &size) &&
                 take_result(b, info, &jobs[i], data, size);
        dgpb_free(data);
        if (!hit[i] && jobs[i].diagnostics) { /* a damaged result taken halfway */
            dgpb_free(jobs[i].diagnostics);
            dgpb_free(jobs[i].output);
            jobs[i].diagnostics = jobs[i].output = NULL;
            jobs[i].status = -1;
        }
        if (hit[i])
            dgpb_cache_counters_of(b->cache.store)->compile_hits++;
        else
            dgpb_cache_counters_of(b->cache.store)->compile_misses++;
    }
    cache_lookups_free(&l);
}

void build_cache_store(build *b, job_list *list, const dgpb_compile_job *jobs, const bool *hit)
{
    if (!cache_session_usable(&b->cache))
        return;
    for (size_t i = 0; i < list->count; i++) {
        job_info *info = &list->info[i];
        if (hit[i] || jobs[i].status != 0 || !info->keyed || !info->deps_known)
            continue;
        uint8_t *code = NULL, *json = NULL;
        size_t code_n = 0, json_n = 0;
        dgpb_bytebuf r = DGPB_BYTEBUF_INIT, set = DGPB_BYTEBUF_INIT;
        if ((info->out && dgpb_file_read(info->out, BUILD_MAX_OUTPUT, &code, &code_n, NULL)) ||
            dgpb_file_read(info->json, BUILD_MAX_OUTPUT, &json, &json_n, NULL))
            goto next;
        const char *diag = jobs[i].diagnostics ? jobs[i].diagnostics : "";
        cache_add_section(&r, code ? code : (const uint8_t *)"", code_n); /* none: no code */
        cache_add_section(&r, json, json_n);
        cache_add_rooted_section(&b->cache, &r, diag, strlen(diag));
        cache_add_paths(&b->cache, &r, info->deps, info->dep_count);
        bool defines = false, ok = true;
        for (size_t d = 0; d < info->dep_count && ok; d++) {
            const char *path = info->deps[d];
            if (build_is_temp_path(b, path) || build_is_module(b, path))
                continue; /* the module is in the key (main_key) */
            ok = cache_set_add_input(&b->cache, &set, path, &defines);
        }
        /* Where it would have looked first: its -I folders, in order (the discovery's
           last one is the module's folder). */
        const char **roots = mem_calloc(info->argc ? info->argc : 1, sizeof *roots);
        size_t root_count = 0;
        for (size_t a = 1; roots && a < info->argc; a++) {
            if (!strcmp(info->argv[a], "-I") && a + 1 < info->argc)
                roots[root_count++] = info->argv[++a];
            else if (!strncmp(info->argv[a], "-I", 2) && info->argv[a][2])
                roots[root_count++] = info->argv[a] + 2;
        }
        ok = ok && roots &&
             cache_set_add_absent(&b->cache, &set, info->argv[0], info->deps, info->dep_count,
                                  roots, root_count);
        dgpb_free(roots);
        uint8_t full[DGPB_SHA256_SIZE];
        if (!ok || !cache_full_source_sha(&b->cache, b->source, b->source_len, full))
            goto next;
        /* What the compile printed names lines of the whole text; a known macro defined in
           an included file may reach the removed branches: then the whole text counts. */
        bool whole = *diag || defines;
        cache_file_result(&b->cache, 'r', &r, 'm', info->key, &set, whole ? full : NULL);
    next:
        dgpb_free(code);
        dgpb_free(json);
        bytebuf_free(&r);
        bytebuf_free(&set);
    }
}

/* ---- layouts ---- */

/*
 * The SHA-256 of what a group's compiles produced for a target: the name, code and
 * reflection JSON of each of its entries there, in the group's order. The recorder compiles
 * the same module with the same macros and options into one program of those entries; what
 * it records is Slang's reflection of that program, whose code and reflection these are
 * (docs/cache.md, "Layouts", says where that falls short).
 */
static bool group_results(const build *b, int target, size_t g, uint8_t out[DGPB_SHA256_SIZE])
{
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    cache_key_str(&k, "group results");
    for (size_t e = 0; e < b->entry_count; e++) {
        const unit *u = build_unit_at(b, target, e);
        if (b->entries[e].group != g || !u->present)
            continue;
        if (!u->hashed) {
            bytebuf_free(&k);
            return false;
        }
        cache_key_str(&k, b->entries[e].name);
        bytebuf_append(&k, u->code_sha, sizeof u->code_sha);
        bytebuf_append(&k, u->json_sha, sizeof u->json_sha);
    }
    bool ok = cache_key_sha(&k, out);
    bytebuf_free(&k);
    return ok;
}

/* The manifest key of a layout job. */
static bool layout_key(build *b, const dgpb_compile_job *job, const cached_job *c,
                       uint8_t out[DGPB_SHA256_SIZE])
{
    uint8_t results[DGPB_SHA256_SIZE];
    return group_results(b, c->target, c->group, results) &&
           cache_layout_key(&b->cache, results, job->args, job->arg_count, out);
}

void build_cache_lookup_layouts(build *b, dgpb_compile_job *jobs, size_t count,
                                const char *const *outputs, cached_job *c)
{
    if (!cache_session_usable(&b->cache) || !b->desc->layout_recorder)
        return;
    char full_hex[2 * DGPB_SHA256_SIZE + 1] = "";
    uint8_t full[DGPB_SHA256_SIZE];
    if (cache_full_source_sha(&b->cache, b->source, b->source_len, full))
        dgpb_sha256_hex(full, full_hex);
    cache_lookups l;
    if (!cache_lookups_alloc(&l, count)) {
        cache_lookups_free(&l);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        c[i].keyed = layout_key(b, &jobs[i], &c[i], c[i].key);
        l.keyed[i] = c[i].keyed && !c[i].recorded; /* recorded by its compile: not looked up */
        memcpy(l.keys[i], c[i].key, DGPB_SHA256_SIZE);
    }
    cache_lookups_find(&b->cache, &l, count, full_hex);
    for (size_t i = 0; i < count; i++) {
        uint8_t *data = NULL;
        size_t size = 0;
        if (c[i].recorded)
            continue; /* recorded by its compile: only filed */
        if (l.found[i] && !dgpb_cache_get(b->cache.store, 'r', l.results[i], &data, &size)) {
            const uint8_t *p = data, *end = data + size, *blob, *diag;
            size_t blob_n, diag_n;
            char *diagnostics = NULL, *output = NULL;
            if (cache_next_section(&p, end, &blob, &blob_n) &&
                cache_next_section(&p, end, &diag, &diag_n) && p == end &&
                (b->desc->keep_temps ? write_intermediate(outputs[i], blob, blob_n)
                                     : build_hold_output(b, outputs[i], blob, blob_n)) &&
                (diagnostics = cache_unroot(&b->cache, (const char *)diag, diag_n)) &&
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
            dgpb_cache_counters_of(b->cache.store)->compile_hits++;
        else
            dgpb_cache_counters_of(b->cache.store)->compile_misses++;
    }
    cache_lookups_free(&l);
}

void build_cache_store_layouts(build *b, const dgpb_compile_job *jobs, size_t count,
                               const char *const *outputs, const cached_job *c)
{
    if (!cache_session_usable(&b->cache) || !b->desc->layout_recorder)
        return;
    for (size_t i = 0; i < count; i++) {
        if (c[i].hit || !c[i].keyed || jobs[i].status != 0)
            continue;
        uint8_t *blob = NULL;
        size_t blob_n = 0;
        dgpb_bytebuf r = DGPB_BYTEBUF_INIT, set = DGPB_BYTEBUF_INIT;
        const char *diag = jobs[i].diagnostics ? jobs[i].diagnostics : "";
        bool ok = !dgpb_file_read(outputs[i], BUILD_MAX_OUTPUT, &blob, &blob_n, NULL);
        if (ok) {
            cache_add_section(&r, blob, blob_n);
            cache_add_rooted_section(&b->cache, &r, diag, strlen(diag));
        }
        /* No input files: the key holds what the group's compiles produced. What the
           recorder printed names lines of the whole text, which then counts too. */
        uint8_t full[DGPB_SHA256_SIZE];
        if (ok && cache_full_source_sha(&b->cache, b->source, b->source_len, full))
            cache_file_result(&b->cache, 'r', &r, 'm', c[i].key, &set, *diag ? full : NULL);
        dgpb_free(blob);
        bytebuf_free(&r);
        bytebuf_free(&set);
    }
}

/* ---- the whole build ---- */

void build_cache_keep(build *b, const uint8_t *bundle, size_t size, const char *json)
{
    if (!b->cache.store || b->desc->keep_temps || b->deps_incomplete ||
        !cache_session_usable(&b->cache))
        return;
    const dgpb_build_result *r = b->result;
    cache_build_keep(&b->cache, bundle, size, json, b->deps, b->dep_count, r->target_count,
                     r->entry_count, r->blob_count);
}
