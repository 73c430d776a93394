/*
 * test_build_progress.c - the library's progress reports: every child of
 * process_run_parallel_watched() is reported started, then finished,
 * once; dgpb_build() reports each compile's start and end with its entry
 * and target, counts that only grow and end at [N/N], where N is the
 * summary's compile count; and a build without a progress function works
 * as before.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dgpb/build.h"
#include "dgpb/compiler.h"
#include "io/process.h"

#define CHILDREN 5

typedef struct seen {
    int started[CHILDREN], finished[CHILDREN];
    int order_errors;
} seen;

static void watch(void *user, size_t index, bool finished)
{
    seen *s = user;
    assert_true(index < CHILDREN);
    if (finished) {
        if (s->started[index] != 1 || s->finished[index] != 0)
            s->order_errors++;
        s->finished[index]++;
    } else {
        s->started[index]++;
    }
}

static void test_process_watch(void **state)
{
    (void)state;
    const char *argv[] = {"/bin/sh", "-c", "exit 3", NULL};
    dgpb_process procs[CHILDREN];
    for (int i = 0; i < CHILDREN; i++) {
        procs[i] = (dgpb_process)DGPB_PROCESS_INIT;
        procs[i].argv = argv;
    }
    seen s;
    memset(&s, 0, sizeof s);
    assert_int_equal(process_run_parallel_watched(procs, CHILDREN, 2, watch, &s, NULL), DGPB_OK);
    for (int i = 0; i < CHILDREN; i++) {
        assert_int_equal(s.started[i], 1);
        assert_int_equal(s.finished[i], 1);
        assert_int_equal(procs[i].status, 3);
        process_clear(&procs[i]);
    }
    assert_int_equal(s.order_errors, 0);
    /* no watcher: as process_run_parallel() */
    for (int i = 0; i < CHILDREN; i++) {
        procs[i] = (dgpb_process)DGPB_PROCESS_INIT;
        procs[i].argv = argv;
    }
    assert_int_equal(process_run_parallel_watched(procs, CHILDREN, 2, NULL, NULL, NULL), DGPB_OK);
    for (int i = 0; i < CHILDREN; i++) {
        assert_int_equal(procs[i].status, 3);
        process_clear(&procs[i]);
    }
}

typedef struct reports {
    unsigned count, starts, finishes;
    uint32_t last_done, last_total;
    double last_elapsed;
    int errors;
    char first[64], last[64];
} reports;

static void on_progress(void *ctx, const dgpb_build_progress *p)
{
    reports *r = ctx;
    if (p->done < r->last_done || p->total < r->last_total || p->done > p->total ||
        p->elapsed < r->last_elapsed || !p->entry || !*p->entry || !p->target || !*p->target)
        r->errors++;
    if (p->finished != (p->done > r->last_done)) /* a finish counts one; a start none */
        r->errors++;
    r->starts += !p->finished;
    r->finishes += p->finished;
    r->last_done = p->done;
    r->last_total = p->total;
    r->last_elapsed = p->elapsed;
    if (r->count++ == 0)
        snprintf(r->first, sizeof r->first, "%s (%s)", p->entry, p->target);
    snprintf(r->last, sizeof r->last, "%s (%s)", p->entry, p->target);
}

static void quiet(const dgpb_diag *d, void *user)
{
    (void)user;
    if (d->severity == DGPB_SEV_ERROR)
        fprintf(stderr, "%s\n", d->message);
}

static void test_build_reports(void **state)
{
    (void)state;
    const char *embedded[] = {DGPB_SOURCE_DIR "/tools/slangc-wasm/slangc-wasm", NULL};
    dgpb_compiler_desc cdesc = {.embedded = embedded};
    dgpb_compiler *compiler = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_compiler_create(&cdesc, &compiler, &d))
        fail_msg("the embedded compiler does not start (run npm ci in tools/slangc-wasm, as "
                 "tools/setup.sh does): %s",
                 d.message);
    char out[] = "/tmp/dgpb-progress-XXXXXX";
    assert_non_null(mkdtemp(out));
    dgpb_build_desc desc = {.module_file = DGPB_SOURCE_DIR "/fixtures/build/plain.slang",
                            .out_dir = out,
                            .targets = "spirv,wgsl",
                            .compiler = compiler,
                            .jobs = 2,
                            .no_layouts = true,
                            .sink = quiet};
    reports r;
    memset(&r, 0, sizeof r);
    desc.progress = on_progress;
    desc.progress_ctx = &r;
    dgpb_build_result result;
    assert_int_equal(dgpb_build(&desc, &result), DGPB_OK);
    assert_int_equal(r.errors, 0);
    assert_true(result.compile_count > 2);
    assert_int_equal(r.starts, result.compile_count);
    assert_int_equal(r.finishes, result.compile_count);
    assert_int_equal(r.last_done, result.compile_count);
    assert_int_equal(r.last_total, result.compile_count);
    assert_true(!strcmp(r.first, "discovery (spirv)") || !strcmp(r.first, "discovery (wgsl)"));
    /* With two jobs at a time, either target's compile may finish last. */
    assert_true(strstr(r.last, " (wgsl)") || strstr(r.last, " (spirv)"));

    /* Without a progress function, the same bundle. */
    char again[sizeof out + 8];
    snprintf(again, sizeof again, "%s/again", out);
    desc.out_dir = again;
    desc.progress = NULL;
    desc.progress_ctx = NULL;
    dgpb_build_result second;
    assert_int_equal(dgpb_build(&desc, &second), DGPB_OK);
    assert_int_equal(second.bundle_size, result.bundle_size);
    assert_int_equal(second.compile_count, result.compile_count);

    remove(second.bundle_path);
    remove(second.json_path);
    rmdir(again);
    remove(result.bundle_path);
    remove(result.json_path);
    rmdir(out);
    dgpb_compiler_destroy(compiler);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_process_watch),
        cmocka_unit_test(test_build_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
