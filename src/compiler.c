/*
 * compiler.c - the Slang compiler front (dgpb/compiler.h).
 *
 * Finding the compiler is slang_lookup.c's (docs/design.md, section 2);
 * running it, natively or on the pool of `--serve` workers, is
 * compile_pool.c's. This file holds the dgpb_compiler that ties them
 * together: its origin, its remembered version, and the batch entry point.
 */
#include "dgpb/compiler.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "compile_pool.h"
#include "slang_lookup.h"

struct dgpb_compiler {
    char *path;
    char *origin;
    char *cwd;
    char *version;
    dgpb_compiler_source source;
    bool embedded;
    compile_pool pool; /* borrows path and cwd */
};

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
    c->pool.path = c->path;
    c->pool.cwd = c->cwd;
    if (!c->origin || (d->cwd && !c->cwd)) {
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
    if (parallel == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        parallel = cpus > 0 ? (unsigned)cpus : 1;
    }
    if (c->embedded)
        return compile_pool_run_serve(&c->pool, jobs, count, parallel, diag);
    return compile_pool_run_native(&c->pool, jobs, count, parallel, diag);
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
    dgpb_free(c);
}
