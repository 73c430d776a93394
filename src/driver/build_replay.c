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
 * (tables/bundle_proof.h), the summary's numbers against the bundle's; the
 * JSON view is made again from the bundle, never taken from the entry. An
 * entry that fails is a miss, with one warning: the build compiles.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/json_view.h"
#include "driver/build_internal.h"
#include "tables/bundle_proof.h"

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
    if (!rc) {
        unsigned entries = 0, targets = dgpb_bundle_target_count(bundle);
        for (unsigned t = 0; t < targets; t++)
            entries += dgpb_bundle_target(bundle, t)->entry_count;
        if (targets != e->targets || entries != e->entries)
            rc = dgpb_diag_set(d, DGPB_ERR_CORRUPT, -1,
                               "its summary says %u targets and %u entries, its bundle holds %u "
                               "and %u",
                               e->targets, e->entries, targets, entries);
    }
    char *json = NULL;
    if (!rc && !(rc = dgpb_json_view(bundle, stem, &json, d))) {
        dgpb_free(e->json);
        e->json = json;
    }
    dgpb_bundle_close(bundle);
    return rc;
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
        char *where = counters->remote_hits != remote_hits
                          ? mem_strdup("the remote store")
                          : mem_printf("the local cache '%s'", dgpb_cache_dir(b->cache.store));
        build_report(b, DGPB_SEV_WARNING, DGPB_OK,
                     "the cached build from %s is not a valid bundle for this module, so it is "
                     "built again: %s",
                     where ? where : "the cache", d.message);
        dgpb_free(where);
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
