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
 */
#include "driver/build_internal.h"

int build_replay(build *b)
{
    build_cache_begin(b);
    if (!b->cache.store || b->desc->keep_temps || !cache_session_usable(&b->cache))
        return DGPB_OK;
    cache_build_entry e;
    if (!cache_build_find(&b->cache, &e)) {
        dgpb_cache_counters_of(b->cache.store)->build_misses++;
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
    char stem[1024];
    build_output_stem(b, stem, sizeof stem);
    dgpb_diag d;
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
        dgpb_cache_counters_of(b->cache.store)->build_hits++;
        b->done = true;
    }
    cache_build_entry_free(&e);
    return rc;
}
