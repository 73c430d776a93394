/*
 * compiler.c - the Slang compiler front (dgpb/compiler.h).
 *
 * Finding the compiler is slang_lookup.c's (docs/design.md, section 2);
 * running it, natively or on the pool of `--serve` workers, is
 * compile_pool.c's; handing batches to the compile service is the table
 * desc.offload gives (service/service_client.c fills it, and this file
 * knows nothing else of the service). This file holds the dgpb_compiler that ties
 * them together: its origin, its remembered version, and the batch entry
 * point, which runs a batch on the service when it can and here otherwise,
 * and here too for whatever the service left unanswered when it failed.
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
#include "compiler/compiler_internal.h"
#include "compiler/slang_lookup.h"
#include "io/process.h"

struct dgpb_compiler {
    char *path;
    char *origin;
    char *cwd;
    char *version;
    char *recorder;  /* dgpb-slang-layout, or NULL */
    char *slang_lib; /* its --slang-lib, or NULL */
    dgpb_compiler_source source;
    bool embedded;
    bool library; /* a native libslang with no slangc: path is the library */
    dgpb_compiler_mode mode; /* 0 until decided (native workers wait for the probe) */
    bool probe_pending;      /* native workers chosen, the recorder not asked yet */
    char *fallback;          /* why native workers were not used, or NULL */
    const char *serve_argv[7];
    const char *layout_argv[6];
    compile_pool pool; /* borrows path, cwd and the argument vectors */
    /* The compile service (desc.service): asked for, its client (NULL once it failed or when
       its folder is not safe), why batches run here instead (or NULL), whether the last
       batch ran on it, and whom to tell of a failure. */
    bool service_asked;
    const dgpb_compile_offload *offload; /* the service's table (desc.offload) */
    void *service;
    char *service_why;
    bool service_used;
    void (*service_warning)(void *user, const char *message);
    void *service_warning_user;
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
        if (!c->embedded && !c->library) {
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
    if (!c->library) {
        if (!c->recorder || d->processes)
            return;
        char found[PATH_MAX];
        const char *lib = NULL;
        bool from_loader = false;
        if (slang_find_libslang(c->slang_lib, c->path, env, found, &lib, &from_loader, NULL) ||
            from_loader)
            return;
    }
    c->serve_argv[n++] = c->recorder;
    c->serve_argv[n++] = "--serve";
    if (!c->library) {
        c->serve_argv[n++] = "--slangc";
        c->serve_argv[n++] = c->path;
    }
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
    if (c->service && c->offload->probe_known && c->offload->probe_known(c->service))
        return;
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
    int status = process_run(&p, &local);
    if (status != 0) {
        const char *why = status < 0 ? local.message : p.err && *p.err ? p.err : "no message";
        size_t len = strlen(why);
        while (len && (why[len - 1] == '\n' || why[len - 1] == '\r'))
            len--;
        c->fallback = mem_printf("'%s --version' failed (%.*s); %s", c->recorder,
                                 (int)(len < 600 ? len : 600), why,
                                 c->library ? "the library cannot compile"
                                            : "each compile runs its own slangc");
        c->mode = DGPB_COMPILER_PROCESSES;
        c->pool.serve_argv = NULL;
        c->pool.native_serve = false;
    } else if (c->service && c->offload->probe_passed) {
        c->offload->probe_passed(c->service);
    }
    process_clear(&p);
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

/*
 * Names the compile service when desc.service asks for it and compiles run
 * on workers. A folder that is not safe is no error: the batches run here,
 * and the first one says why (service_why).
 */
static int set_up_service(dgpb_compiler *c, const dgpb_compiler_desc *d)
{
    c->service_warning = d->service_warning;
    c->service_warning_user = d->service_warning_user;
    if (!d->service || !*d->service || !d->offload || c->mode == DGPB_COMPILER_PROCESSES)
        return DGPB_OK;
    c->service_asked = true;
    c->offload = d->offload;
    compile_offload_desc sd = {d->service, c->path, c->embedded, c->recorder, c->slang_lib, c->cwd};
    dgpb_diag why;
    dgpb_diag_clear(&why);
    int rc = c->offload->create(&sd, &c->service, &why);
    if (rc == DGPB_ERR_NOMEM)
        return rc;
    if (rc && !(c->service_why = mem_printf("the compile service is not used: %s", why.message)))
        return DGPB_ERR_NOMEM;
    return DGPB_OK;
}

int dgpb_compiler_create(const dgpb_compiler_desc *desc, dgpb_compiler **out, dgpb_diag *diag)
{
    static const char *const origins[] = {"",
                                          "slangc from --slangc",
                                          "slangc from $DGPB_SLANGC",
                                          "slangc from $SLANG_ROOT/bin",
                                          "slangc from PATH",
                                          "embedded slangc-wasm",
                                          "native libslang from --slang-lib",
                                          "slangc from $VULKAN_SDK/bin",
                                          "native libslang of the set-up"};
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
    bool library = false;
    slang_query q = {.slangc = d->path && *d->path ? d->path : NULL,
                     .slang_lib = d->slang_lib && *d->slang_lib ? d->slang_lib : NULL,
                     .native = d->native,
                     .embedded = d->embedded,
                     .force = (slang_force)d->force};
    if ((rc = slang_find_compiler(&q, &env, &path, &source, &library, diag)))
        goto done;
    c->path = path;
    path = NULL;
    c->source = source;
    c->library = library;
    c->embedded = !library && (source == DGPB_COMPILER_FROM_EMBEDDED ||
                               slang_is_embedded_path(c->path, d->embedded));
    if (c->embedded && source != DGPB_COMPILER_FROM_EMBEDDED)
        c->origin = mem_printf("embedded slangc-wasm from %s", origins[source] + 12);
    else if (library && (source == DGPB_COMPILER_FROM_SLANG_ROOT ||
                         source == DGPB_COMPILER_FROM_VULKAN_SDK))
        c->origin = mem_printf("native libslang from %s/lib",
                               source == DGPB_COMPILER_FROM_SLANG_ROOT ? "$SLANG_ROOT"
                                                                       : "$VULKAN_SDK");
    else
        c->origin = mem_strdup(origins[source]);
    c->cwd = d->cwd ? mem_strdup(d->cwd) : NULL;
    c->recorder = d->recorder ? mem_strdup(d->recorder) : NULL;
    /* A library compiler is also the library its workers and recorder load. */
    const char *lib = library ? c->path : d->slang_lib;
    c->slang_lib = lib ? mem_strdup(lib) : NULL;
    if (!c->origin || (d->cwd && !c->cwd) || (d->recorder && !c->recorder) ||
        (lib && !c->slang_lib)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    if (library && !c->recorder) {
        rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                           "the native Slang '%s' (%s) has no slangc: its compiles run on the "
                           "native worker, dgpb-slang-layout, which was not found",
                           c->path, c->origin);
        goto done;
    }
    set_up_modes(c, d, &env);
    if ((rc = set_up_service(c, d))) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
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

bool dgpb_compiler_is_library(const dgpb_compiler *c)
{
    assert(c);
    return c->library;
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
    /* The native probe can only turn native workers into processes: neither is embedded. */
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
        const char *lib_argv[] = {c->recorder, "--slang-lib", c->path, "--slang-version", NULL};
        const char *slangc_argv[] = {c->path, "-v", NULL};
        int rc = compile_pool_version(&c->pool, c->library ? lib_argv : slangc_argv, c->embedded,
                                      &c->version, diag);
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

/* Runs a batch on this process's own pool: workers or processes, as the mode says. */
static int run_here(dgpb_compiler *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                    dgpb_diag *diag)
{
    probe_workers(c);
    if (c->mode == DGPB_COMPILER_NATIVE_WORKERS)
        return compile_pool_run_serve(&c->pool, jobs, count, parallel, diag);
    if (c->mode == DGPB_COMPILER_PROCESSES && c->library) /* no slangc to fall back on */
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot compile with '%s': %s", c->path,
                             c->fallback ? c->fallback : "no native worker");
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

/* Tells the caller's watch of job rest[i] by its index in the whole batch. */
typedef struct rest_watch {
    dgpb_compile_watch_fn fn;
    void *user;
    const size_t *index;
} rest_watch;

static void watch_rest(void *user, size_t job, bool finished)
{
    const rest_watch *w = user;
    w->fn(w->user, w->index[job], finished);
}

/* Runs here the jobs of a batch that have no answer (diagnostics NULL), in their order. */
static int run_rest_here(dgpb_compiler *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                         dgpb_diag *diag)
{
    size_t rest = 0;
    for (size_t i = 0; i < count; i++)
        rest += jobs[i].diagnostics == NULL;
    if (rest == 0)
        return DGPB_OK;
    dgpb_compile_job *sub = mem_calloc(rest, sizeof *sub);
    size_t *index = mem_calloc(rest, sizeof *index);
    if (!sub || !index) {
        dgpb_free(sub);
        dgpb_free(index);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    for (size_t i = 0, k = 0; i < count; i++)
        if (!jobs[i].diagnostics) {
            sub[k] = (dgpb_compile_job){.args = jobs[i].args,
                                        .arg_count = jobs[i].arg_count,
                                        .status = -1,
                                        .layout = jobs[i].layout,
                                        .layout_output = jobs[i].layout_output};
            index[k++] = i;
        }
    rest_watch w = {c->pool.watch, c->pool.watch_user, index};
    if (w.fn) {
        c->pool.watch = watch_rest;
        c->pool.watch_user = &w;
    }
    int rc = run_here(c, sub, rest, parallel < rest ? parallel : (unsigned)rest, diag);
    c->pool.watch = w.fn;
    c->pool.watch_user = w.user;
    for (size_t k = 0; k < rest; k++) {
        dgpb_compile_job *job = &jobs[index[k]];
        job->status = sub[k].status;
        job->diagnostics = sub[k].diagnostics;
        job->output = sub[k].output;
    }
    dgpb_free(sub);
    dgpb_free(index);
    return rc;
}

/* The service is off for the rest of this compiler's life: why, told once (unless quietly). */
static void service_off(dgpb_compiler *c, const char *why, bool tell)
{
    if (c->service)
        c->offload->destroy(c->service);
    c->service = NULL;
    if (!c->service_why)
        c->service_why = mem_strdup(why);
    if (tell && c->service_warning)
        c->service_warning(c->service_warning_user, c->service_why ? c->service_why : why);
}

/*
 * Runs a batch on the compile service; on any failure of the service, the
 * jobs it did not answer run here (and the service is not asked again).
 */
static int run_on_service(dgpb_compiler *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                          dgpb_diag *diag)
{
    if (!c->service) { /* its folder is not safe: said once, at the first batch */
        c->service_used = true;
        service_off(c, c->service_why, true);
        return run_here(c, jobs, count, parallel, diag);
    }
    dgpb_diag why;
    dgpb_diag_clear(&why);
    int rc = c->offload->run(c->service, jobs, count, parallel, c->pool.watch, c->pool.watch_user,
                             c->pool.cancel, &why);
    c->service_used = true;
    if (rc == DGPB_OK)
        return DGPB_OK;
    if (rc == DGPB_ERR_INTERRUPTED || rc == DGPB_ERR_NOMEM) {
        for (size_t i = 0; i < count; i++)
            if (!jobs[i].diagnostics)
                jobs[i].diagnostics = mem_strdup(rc == DGPB_ERR_NOMEM ? "not run: out of memory"
                                                                      : "not run: interrupted");
        return rc == DGPB_ERR_NOMEM ? dgpb_diag_set(diag, rc, -1, "out of memory")
                                    : dgpb_diag_set(diag, rc, -1, "interrupted");
    }
    service_off(c, why.message, rc != DGPB_ERR_UNSUPPORTED);
    return run_rest_here(c, jobs, count, parallel, diag);
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
    size_t layouts = 0;
    for (size_t i = 0; i < count; i++)
        layouts += jobs[i].layout;
    /* Batches that run on --serve workers go to the service: a process per job gains nothing. */
    bool on_workers = c->mode == DGPB_COMPILER_NATIVE_WORKERS ||
                      (c->mode == DGPB_COMPILER_EMBEDDED_WORKERS && layouts == 0);
    if (c->service_asked && on_workers && (c->service || !c->service_used))
        return run_on_service(c, jobs, count, parallel, diag);
    return run_here(c, jobs, count, parallel, diag);
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
    if (c->service)
        c->offload->destroy(c->service);
    dgpb_free(c->service_why);
    dgpb_free(c->path);
    dgpb_free(c->origin);
    dgpb_free(c->cwd);
    dgpb_free(c->version);
    dgpb_free(c->recorder);
    dgpb_free(c->slang_lib);
    dgpb_free(c->fallback);
    dgpb_free(c);
}

/* ---- the compile service ---- */

const char *const *compiler_serve_argv(dgpb_compiler *c)
{
    assert(c);
    probe_workers(c);
    return c->mode == DGPB_COMPILER_PROCESSES ? NULL : c->pool.serve_argv;
}

/* Fills `info` for a compiler whose service is not asked (OFF) or off (LOCAL). */
static bool service_not_asked(const dgpb_compiler *c, dgpb_service_info *info)
{
    memset(info, 0, sizeof *info);
    if (c->service_asked && (c->service || !c->service_why))
        return false;
    info->state = c->service_asked ? DGPB_SERVICE_LOCAL : DGPB_SERVICE_OFF;
    if (c->service_why)
        snprintf(info->why, sizeof info->why, "%s", c->service_why);
    else if (c->mode == DGPB_COMPILER_PROCESSES)
        snprintf(info->why, sizeof info->why,
                 "compiles run as one slangc process each: no workers to keep warm");
    return true;
}

void dgpb_compiler_service_report(const dgpb_compiler *c, dgpb_service_info *info)
{
    assert(c && info);
    if (service_not_asked(c, info))
        return;
    c->offload->info(c->service, info);
    info->state = c->service_used ? DGPB_SERVICE_USED : DGPB_SERVICE_NOT_RUNNING;
}

void dgpb_compiler_service_query(dgpb_compiler *c, dgpb_service_info *info)
{
    assert(c && info);
    if (!service_not_asked(c, info))
        c->offload->query(c->service, info);
}
