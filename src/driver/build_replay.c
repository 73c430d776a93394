/*
 * build_replay.c - the build's second stage (build_internal.h): the compile
 * cache's session begun (the working folder, the project root), then a build
 * whose options, compiler and input files match one the cache holds
 * (cache/whole_build.c) is written from it as a build would write it: the
 * bundle, its view and the depfile as one output unit, the warnings it
 * printed printed again (Slang's with their file, line, column and code;
 * under --warnings-as-errors they fail the build instead), the summary's
 * numbers. No compiler starts. A
 * --keep-temps build is never replayed: its intermediate folder is what it
 * is for.
 *
 * Whoever can write the cache folder or the remote store chooses what a
 * replay would write, so nothing is written before the bundle is validated
 * as a fresh build validates its own (docs/cache.md, "Trust"): the reader's
 * every check and SHA-256, every table proved against the code it ships
 * (tables/bundle_proof.h); the summary's numbers and the JSON view are made
 * again from the bundle, never taken from the entry. An
 * entry that fails is a miss, with one warning: the build compiles.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/json_view.h"
#include "driver/build_internal.h"
#include "tables/bundle_proof.h"

/* Whether the first `n` blob references hold one at `offset`. */
static bool offset_seen(const dgpb_blob_ref *const *refs, size_t n, uint32_t offset)
{
    for (size_t i = 0; i < n; i++)
        if (refs[i]->offset == offset)
            return true;
    return false;
}

/* The summary's numbers from the bundle itself: targets, distinct entry names, stored blobs. */
static void summary_of(const dgpb_bundle *bundle, cache_build_entry *e)
{
    unsigned targets = dgpb_bundle_target_count(bundle), entries = 0, blobs = 0;
    size_t refs_n = 0, names_n = 0;
    for (unsigned t = 0; t < targets; t++) {
        const dgpb_target_view *v = dgpb_bundle_target(bundle, t);
        refs_n += v->entry_count + v->layout_count;
        names_n += v->entry_count;
    }
    const dgpb_blob_ref **refs = mem_calloc(refs_n ? refs_n : 1, sizeof *refs);
    const dgpb_str **names = mem_calloc(names_n ? names_n : 1, sizeof *names);
    if (!refs || !names)
        goto done; /* the stored numbers stay: they only make the summary line */
    for (unsigned t = 0; t < targets; t++) {
        const dgpb_target_view *v = dgpb_bundle_target(bundle, t);
        for (uint32_t k = 0; k < v->entry_count; k++) {
            const dgpb_str *name = &v->entries[k].name;
            bool seen = false;
            for (unsigned i = 0; i < entries && !seen; i++)
                seen = names[i]->len == name->len && !memcmp(names[i]->ptr, name->ptr, name->len);
            if (!seen)
                names[entries++] = name;
            if (!offset_seen(refs, blobs, v->entries[k].code.offset))
                refs[blobs++] = &v->entries[k].code;
        }
        for (uint32_t k = 0; k < v->layout_count; k++)
            if (!offset_seen(refs, blobs, v->layouts[k].offset))
                refs[blobs++] = &v->layouts[k];
    }
    e->targets = targets;
    e->entries = entries;
    e->blobs = blobs;
done:
    dgpb_free(refs);
    dgpb_free(names);
}

/*
 * Validates a found entry's bundle and replaces its JSON view with one made from the bundle:
 * DGPB_OK, or the diagnostic of the first check that fails.
 */
static int validate_entry(const char *stem, cache_build_entry *e, dgpb_diag *d)
{
    dgpb_bundle *bundle = NULL;
    int rc = dgpb_bundle_open(e->bundle, e->bundle_size, DGPB_OPEN_VERIFY_SHA256, &bundle, d);
    if (!rc)
        rc = bundle_proof_check(bundle, d);
    if (!rc)
        summary_of(bundle, e);
    char *json = NULL;
    if (!rc && !(rc = dgpb_json_view(bundle, stem, &json, d))) {
        dgpb_free(e->json);
        e->json = json;
    }
    dgpb_bundle_close(bundle);
    return rc;
}

/*
 * The one warning of a refused entry. It is about the cache, not the module: never kept in the
 * build's own cache entry (to be replayed) and never an error under --warnings-as-errors.
 */
static void refused_warning(build *b, bool remote, const char *why)
{
    dgpb_diag w;
    dgpb_diag_clear(&w);
    w.severity = DGPB_SEV_WARNING;
    dgpb_diag_set_file(&w, b->desc->module_file);
    char where[600];
    if (remote)
        snprintf(where, sizeof where, "the remote store");
    else
        snprintf(where, sizeof where, "the local cache '%.500s'", dgpb_cache_dir(b->cache.store));
    snprintf(w.message, sizeof w.message,
             "the cached build from %s is not a valid bundle for this module, so it is built "
             "again: %.1000s",
             where, why);
    if (b->desc->sink)
        b->desc->sink(&w, b->desc->user);
}

int build_replay(build *b)
{
    build_cache_begin(b);
    if (!b->cache.store || b->desc->keep_temps || !cache_session_usable(&b->cache))
        return DGPB_OK;
    cache_build_entry e;
    dgpb_cache_counters *counters = dgpb_cache_counters_of(b->cache.store);
    uint64_t remote_hits = counters->remote_hits;
    if (!cache_build_find(&b->cache, &e)) {
        counters->build_misses++;
        return DGPB_OK;
    }
    char stem[1024];
    build_output_stem(b, stem, sizeof stem);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (validate_entry(stem, &e, &d)) {
        /* A miss: the build compiles, and files its own result first in the manifest. */
        counters->build_misses++;
        counters->build_rejected++;
        refused_warning(b, counters->remote_hits != remote_hits, d.message);
        cache_build_entry_free(&e);
        return DGPB_OK;
    }
    if (b->desc->cancel && *b->desc->cancel) { /* a signal during the lookup: nothing written */
        cache_build_entry_free(&e);
        return DGPB_ERR_INTERRUPTED;
    }
    for (size_t i = 0; i < e.warning_count; i++)
        build_report_kept(b, e.warnings[i]);
    if (b->errors) { /* --warnings-as-errors */
        cache_build_entry_free(&e);
        return DGPB_ERR_SHADER;
    }
    b->deps = e.deps; /* the depfile's, taken */
    b->dep_count = e.dep_count;
    e.deps = NULL;
    e.dep_count = 0;
    dgpb_diag_clear(&d);
    int rc = build_write_outputs(b, stem, e.bundle, e.bundle_size, e.json, &d);
    dgpb_build_result *r = b->result;
    if (rc) {
        build_forward(b, &d, NULL);
        r->bundle_path[0] = r->json_path[0] = 0;
    } else {
        r->bundle_size = e.bundle_size;
        r->target_count = e.targets;
        r->entry_count = e.entries;
        r->blob_count = e.blobs;
        r->cached = true;
        counters->build_hits++;
        b->done = true;
    }
    cache_build_entry_free(&e);
    return rc;
}
