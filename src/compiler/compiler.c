/*
 * compiler.c - the Slang compiler front (dgpb/compiler.h).
 *
 * Finding the compiler is slang_lookup.c's (docs/design.md, section 2);
 * running it, natively or on the pool of `--serve` workers, is
 * compile_pool.c's. This file holds the dgpb_compiler that ties them
 * together: its origin, its remembered version, and the batch entry point.
 */
#define _GNU_SOURCE /* PATH_MAX */
#include "dgpb/compiler.h"

#include <assert.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "compiler/compile_pool.h"
#include "io/process.h"
#include "compiler/slang_lookup.h"

struct dgpb_compiler {
    char *path;
    char *origin;
    char *cwd;
    char *version;
    char *recorder;  /* dgpb-slang-layout, or NULL */
    char *slang_lib; /* its --slang-lib, or NULL */
    dgpb_compiler_source source;
    bool embedded;
    dgpb_compiler_mode mode; /* 0 until decided (native workers wait for the probe) */
    bool probe_pending;      /* native workers chosen, the recorder not asked yet */
    char *fallback;          /* why native workers were not used, or NULL */
    const char *serve_argv[7];
    const char *layout_argv[6];
    compile_pool pool; /* borrows path, cwd and the argument vectors */
};

/*
 * Chooses how compiles run and fills the pool's argument vectors. Native
 * workers are chosen when a native slangc has a recorder and a libslang of
 * its own (given, next to it, or in $SLANG_ROOT/lib; not merely one the
 * dynamic loader might find); the recorder is asked before the first run.
 */
static void set_up_modes(dgpb_compiler *c, const dgpb_compiler_desc *d, const slang_env *env)
{
    c->pool.path = c->path;
    c->pool.cwd = c->cwd;
    size_t n = 0;
    if (c->recorder) {
        c->layout_argv[n++] = c->recorder;
        if (c->slang_lib) {
            c->layout_argv[n++] = "--slang-lib";
            c->layout_argv[n++] = c->slang_lib;
        }
        if (!c->embedded) {
            c->layout_argv[n++] = "--slangc";
            c->layout_argv[n++] = c->path;
        }
        c->layout_argv[n] = NULL;
        c->pool.layout_argv = c->layout_argv;
    }
    n = 0;
    if (c->embedded) {
        c->serve_argv[n++] = c->path;
        c->serve_argv[n++] = "--serve";
        c->serve_argv[n] = NULL;
        c->pool.serve_argv = c->serve_argv;
        c->mode = DGPB_COMPILER_EMBEDDED_WORKERS;
        return;
    }
    c->mode = DGPB_COMPILER_PROCESSES;
    if (!c->recorder || d->processes)
        return;
    char found[PATH_MAX];
    const char *lib = NULL;
    bool from_loader = false;
    if (slang_find_libslang(c->slang_lib, c->path, env, found, &lib, &from_loader, NULL) ||
        from_loader)
        return;
    c->serve_argv[n++] = c->recorder;
    c->serve_argv[n++] = "--serve";
    c->serve_argv[n++] = "--slangc";
    c->serve_argv[n++] = c->path;
    if (c->slang_lib) {
        c->serve_argv[n++] = "--slang-lib";
        c->serve_argv[n++] = c->slang_lib;
    }
    c->serve_argv[n] = NULL;
    c->pool.serve_argv = c->serve_argv;
    c->pool.native_serve = true;
    c->mode = DGPB_COMPILER_NATIVE_WORKERS;
    c->probe_pending = true;
}

/*
 * Asks the recorder whether it can load slangc's libslang (`--version` with
 * the workers' options); when it cannot, compiles fall back to processes.
 */
static void probe_workers(dgpb_compiler *c)
{
    if (!c->probe_pending)
        return;
    c->probe_pending = false;
    const char *argv[8];
    size_t n = 0;
    for (size_t i = 0; c->serve_argv[i]; i++)
        if (strcmp(c->serve_argv[i], "--serve"))
            argv[n++] = c->serve_argv[i];
    argv[n++] = "--version";
    argv[n] = NULL;
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = argv;
    p.cwd = c->cwd;
    dgpb_diag local;
    dgpb_diag_clear(&local);
    int status = dgpb_process_run(&p, &local);
    if (status != 0) {
        const char *why = status < 0 ? local.message : p.err && *p.err ? p.err : "no message";
        size_t len = strlen(why);
        while (len && (why[len - 1] == '\n' || why[len - 1] == '\r'))
            len--;
        c->fallback = mem_printf("'%s --version' failed (%.*s); each compile runs its own slangc",
                                 c->recorder, (int)(len < 600 ? len : 600), why);
        c->mode = DGPB_COMPILER_PROCESSES;
        c->pool.serve_argv = NULL;
        c->pool.native_serve = false;
    }
    dgpb_process_clear(&p);
}

bool dgpb_compiler_has_recorder(const dgpb_compiler *c)
{
    assert(c);
    return c->recorder != NULL;
}

dgpb_compiler_mode dgpb_compiler_mode_of(dgpb_compiler *c, const char **why)
{
    assert(c);
    probe_workers(c);
    if (why)
        *why = c->fallback;
    return c->mode;
}

int dgpb_compiler_create(const dgpb_compiler_desc *desc, dgpb_compiler **out, dgpb_diag *diag)
{
    static const char *const origins[] = {"",
                                          "slangc from --slangc",
                                          "slangc from $DGPB_SLANGC",
                                          "slangc from $SLANG_ROOT/bin",
                                          "slangc from PATH",
                                          "embedded slangc-wasm"};
    if (!out)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no place for the compiler");
    *out = NULL;
    dgpb_compiler_desc none = {0};
    const dgpb_compiler_desc *d = desc ? desc : &none;
    int rc = DGPB_OK;
    char *path = NULL;
    dgpb_compiler *c = mem_calloc(1, sizeof *c);
    if (!c) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    slang_env env = {d->get_env, d->get_env_user};
    dgpb_compiler_source source = 0;
    if ((rc = slang_find_slangc(d->path && *d->path ? d->path : NULL, d->embedded, &env, &path,
                                &source, diag)))
        goto done;
    c->path = path;
    path = NULL;
    c->source = source;
    c->embedded =
        source == DGPB_COMPILER_FROM_EMBEDDED || slang_is_embedded_path(c->path, d->embedded);
    if (c->embedded && source != DGPB_COMPILER_FROM_EMBEDDED)
        c->origin = mem_printf("embedded slangc-wasm from %s", origins[source] + 12);
    else
        c->origin = mem_strdup(origins[source]);
    c->cwd = d->cwd ? mem_strdup(d->cwd) : NULL;
    c->recorder = d->recorder ? mem_strdup(d->recorder) : NULL;
    c->slang_lib = d->slang_lib ? mem_strdup(d->slang_lib) : NULL;
    if (!c->origin || (d->cwd && !c->cwd) || (d->recorder && !c->recorder) ||
        (d->slang_lib && !c->slang_lib)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    set_up_modes(c, d, &env);
    *out = c;
    c = NULL;
done:
    dgpb_free(path);
    dgpb_compiler_destroy(c);
    return rc;
}

const char *dgpb_compiler_path(const dgpb_compiler *c)
{
    assert(c);
    return c->path;
}

dgpb_compiler_source dgpb_compiler_source_of(const dgpb_compiler *c)
{
    assert(c);
    return c->source;
}

const char *dgpb_compiler_origin(const dgpb_compiler *c)
{
    assert(c);
    return c->origin;
}

bool dgpb_compiler_is_embedded(const dgpb_compiler *c)
{
    assert(c);
    return c->embedded;
}

/* ---- how many at once ---------------------------------------------------- */

unsigned dgpb_parallel_limit(unsigned requested, unsigned cpus, size_t count,
                             uint64_t mem_available, uint64_t per_worker)
{
    uint64_t n = requested ? requested : cpus;
    if (n > count)
        n = count;
    if (mem_available && per_worker && n > mem_available / 2 / per_worker)
        n = mem_available / 2 / per_worker;
    return n > 0 ? (unsigned)n : 1;
}

/* MemAvailable of /proc/meminfo in bytes; 0 where it cannot be read. */
static uint64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return (uint64_t)kib * 1024;
}

unsigned dgpb_compiler_parallel(dgpb_compiler *c, unsigned requested, size_t count)
{
    assert(c);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    probe_workers(c);
    bool embedded = c->mode == DGPB_COMPILER_EMBEDDED_WORKERS;
    return dgpb_parallel_limit(requested, cpus > 0 ? (unsigned)cpus : 1, count,
                               embedded ? mem_available() : 0, DGPB_EMBEDDED_WORKER_BYTES);
}

unsigned dgpb_compiler_workers_started(const dgpb_compiler *c)
{
    assert(c);
    return c->pool.started;
}

/* ---- version ------------------------------------------------------------ */

int dgpb_compiler_version(dgpb_compiler *c, const char **version, dgpb_diag *diag)
{
    if (!c || !version)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no compiler");
    *version = NULL;
    if (!c->version) {
        int rc = compile_pool_version(&c->pool, c->embedded, &c->version, diag);
        if (rc)
            return rc;
    }
    *version = c->version;
    return DGPB_OK;
}

/* ---- jobs --------------------------------------------------------------- */

void dgpb_compile_jobs_clear(dgpb_compile_job *jobs, size_t count)
{
    for (size_t i = 0; jobs && i < count; i++) {
        dgpb_free(jobs[i].diagnostics);
        dgpb_free(jobs[i].output);
        jobs[i].diagnostics = NULL;
        jobs[i].output = NULL;
        jobs[i].status = -1;
    }
}

int dgpb_compiler_run(dgpb_compiler *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                      dgpb_diag *diag)
{
    if (!c || (!jobs && count))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no compiler or no jobs");
    for (size_t i = 0; i < count; i++)
        if (!jobs[i].args && jobs[i].arg_count)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "job %zu has no arguments", i + 1);
    for (size_t i = 0; i < count; i++) {
        jobs[i].status = -1;
        jobs[i].diagnostics = NULL;
        jobs[i].output = NULL;
    }
    if (count == 0)
        return DGPB_OK;
    for (size_t i = 0; i < count; i++)
        if (jobs[i].layout && !c->recorder)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                 "job %zu records a layout, and the compiler has no recorder",
                                 i + 1);
    parallel = dgpb_compiler_parallel(c, parallel, count);
    if (c->mode == DGPB_COMPILER_NATIVE_WORKERS)
        return compile_pool_run_serve(&c->pool, jobs, count, parallel, diag);
    if (c->mode == DGPB_COMPILER_PROCESSES)
        return compile_pool_run_native(&c->pool, jobs, count, parallel, diag);
    /* Embedded: compiles on the wasm workers, layouts (a native library's) as processes. */
    size_t layouts = 0;
    for (size_t i = 0; i < count; i++)
        layouts += jobs[i].layout;
    if (layouts == 0)
        return compile_pool_run_serve(&c->pool, jobs, count, parallel, diag);
    if (layouts == count)
        return compile_pool_run_native(&c->pool, jobs, count, parallel, diag);
    return dgpb_diag_set(
        diag, DGPB_ERR_INVALID, -1,
        "with the embedded compiler, run compiles and layouts in separate batches");
}

void dgpb_compiler_watch(dgpb_compiler *c, dgpb_compile_watch_fn fn, void *user)
{
    if (!c)
        return;
    c->pool.watch = fn;
    c->pool.watch_user = user;
}

void dgpb_compiler_cancel_on(dgpb_compiler *c, const volatile sig_atomic_t *flag)
{
    if (c)
        c->pool.cancel = flag;
}

void dgpb_compiler_destroy(dgpb_compiler *c)
{
    if (!c)
        return;
    compile_pool_close(&c->pool);
    dgpb_free(c->path);
    dgpb_free(c->origin);
    dgpb_free(c->cwd);
    dgpb_free(c->version);
    dgpb_free(c->recorder);
    dgpb_free(c->slang_lib);
    dgpb_free(c->fallback);
    dgpb_free(c);
}
