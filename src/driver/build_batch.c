/*
 * build_batch.c - running a batch of jobs on the compiler (build_internal.h):
 * as many at once as -j and the compiler allow, cancelled with the build,
 * telling the caller's progress function (dgpb_build_desc.progress) as each
 * job starts and finishes, and with -v how the batch ran. The progress counts
 * run across the build's batches: discovery, compiles, layouts. The jobs are
 * named through the caller's function, so that this file knows no job list
 * (build_jobs.c names compile jobs, build_layouts.c layout jobs).
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <stdio.h>
#include <time.h>

#include "driver/build_internal.h"

typedef struct watch_ctx {
    build *b;
    build_job_name_fn name;
    void *name_ctx;
} watch_ctx;

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_job(void *user, size_t job, bool finished)
{
    const watch_ctx *w = user;
    build *b = w->b;
    if (finished)
        b->progress_done++;
    dgpb_build_progress p = {.done = b->progress_done,
                             .total = b->progress_total,
                             .entry = "",
                             .target = "",
                             .finished = finished,
                             .elapsed = seconds() - b->progress_start};
    w->name(w->name_ctx, job, &p.entry, &p.target);
    b->desc->progress(b->desc->progress_ctx, &p);
}

/* -v: how many jobs a batch had, how many ran at once and how many workers run them. */
static void report_parallel(build *b, size_t count, unsigned parallel)
{
    char asked[32] = "one per CPU";
    if (b->desc->jobs)
        snprintf(asked, sizeof asked, "-j %u", b->desc->jobs);
    unsigned workers = dgpb_compiler_workers_started(b->desc->compiler);
    build_report(b, DGPB_SEV_NOTE, DGPB_OK,
                 "%zu job%s, %u at once (%s); %u compiler worker%s started so far", count,
                 count == 1 ? "" : "s", parallel, asked, workers, workers == 1 ? "" : "s");
}

int build_compiler_run(build *b, dgpb_compile_job *jobs, size_t count, build_job_name_fn name,
                       void *name_ctx, dgpb_diag *diag)
{
    assert(b && b->desc && name);
    dgpb_compiler *c = b->desc->compiler;
    unsigned parallel = count ? dgpb_compiler_parallel(c, b->desc->jobs, count) : 1;
    int rc;
    dgpb_compiler_cancel_on(c, b->desc->cancel);
    if (!b->desc->progress) {
        rc = dgpb_compiler_run(c, jobs, count, parallel, diag);
    } else {
        if (b->progress_total == 0)
            b->progress_start = seconds();
        b->progress_total += (uint32_t)count;
        watch_ctx w = {b, name, name_ctx};
        dgpb_compiler_watch(c, on_job, &w);
        rc = dgpb_compiler_run(c, jobs, count, parallel, diag);
        dgpb_compiler_watch(c, NULL, NULL);
    }
    dgpb_compiler_cancel_on(c, NULL);
    if (b->desc->verbose && count)
        report_parallel(b, count, parallel);
    return rc;
}
