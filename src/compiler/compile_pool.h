/*
 * compile_pool.h - running Slang's compiler for dgpb/compiler.h (internal):
 * its version, batches of native slangc children, and the pool of
 * persistent slangc-wasm `--serve` workers (docs/slangc-wasm.md).
 *
 * A compile_pool belongs to one dgpb_compiler and borrows its path and
 * working folder. It is not thread-safe: run one batch at a time.
 */
#ifndef DGPB_COMPILE_POOL_H
#define DGPB_COMPILE_POOL_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define compile_pool_close dgpb__compile_pool_close
#define compile_pool_run_native dgpb__compile_pool_run_native
#define compile_pool_run_serve dgpb__compile_pool_run_serve
#define compile_pool_version dgpb__compile_pool_version

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "compiler/worker_client.h"
#include "dgpb/compiler.h"
#include "dgpb/result.h"

typedef struct compile_pool {
    const char *path; /* the compiler, absolute (borrowed) */
    const char *cwd;  /* the compiles' working folder; NULL: the caller's (borrowed) */
    /* The command of a serve worker, NULL-terminated (borrowed): `slangc-wasm --serve`, or
     * `dgpb-slang-layout --serve --slangc S [--slang-lib L]`. */
    const char *const *serve_argv;
    bool native_serve; /* the serve workers are native: a compile job's layout_output goes with
                          it ({"compile": [...], "layout_output": ...}) */
    /* What a layout job's arguments follow when it runs as a process, NULL-terminated
     * (borrowed): `dgpb-slang-layout [--slang-lib L] [--slangc S]`; NULL: no recorder. */
    const char *const *layout_argv;
    dgpb_compile_watch_fn watch; /* told of each job's start and end (NULL: none) */
    void *watch_user;
    /* Nonzero stops a run: its children and busy workers are killed and waited for, and the run
       returns DGPB_ERR_INTERRUPTED (NULL: never; borrowed, set by a signal handler). */
    const volatile sig_atomic_t *cancel;
    /* The workers' TMPDIR (their temporaries, a killed worker's too), made with the first
       worker, removed by compile_pool_close(); owned. */
    char *worker_tmp;
    char *worker_env[2]; /* {"TMPDIR=<worker_tmp>", NULL}; owned */
    worker **workers;    /* every worker started, alive or retired */
    size_t worker_count;
    unsigned started; /* workers started so far, replacements included */
} compile_pool;

/*
 * Runs `argv` (`<path> -v`, or the recorder's `--slang-version` for a
 * native library) in the pool's folder and sets *version to its output with
 * surrounding white space removed (standard error when standard output is
 * empty), a new string (dgpb_free()). DGPB_ERR_TOOL when it cannot run or
 * exits non-zero (with what it printed; `embedded` adds the Node.js hint to
 * exit 127).
 */
int compile_pool_version(const compile_pool *c, const char *const *argv, bool embedded,
                         char **version, dgpb_diag *diag);

/*
 * Runs `count` (> 0) jobs as one child each, at most `parallel` (> 0) at
 * once, as dgpb_compiler_run() describes: a compile job as `path args...`, a
 * layout job as `layout_argv... args...`. The jobs' results must be empty.
 */
int compile_pool_run_native(const compile_pool *c, dgpb_compile_job *jobs, size_t count,
                            unsigned parallel, dgpb_diag *diag);

/*
 * Runs `count` (> 0) jobs on `serve_argv` workers, starting min(parallel,
 * count) of them when fewer are alive, as dgpb_compiler_run() describes. A
 * layout job is sent as {"layout": args} (only a native worker answers it); on native
 * workers, a compile job with a layout_output as {"compile": args, "layout_output": FILE}.
 */
int compile_pool_run_serve(compile_pool *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                           dgpb_diag *diag);

/* Closes the workers' input, waits for them and frees them; the pool is empty again. */
void compile_pool_close(compile_pool *c);

#endif
