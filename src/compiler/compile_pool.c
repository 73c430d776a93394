/*
 * compile_pool.c - running Slang's compiler (compile_pool.h): `-v`, batches
 * of children, one per job, and the pool of persistent `--serve` workers.
 *
 * Children run through process_run_parallel(). Workers are either the
 * embedded slangc-wasm or the native dgpb-slang-layout, both with `--serve`
 * (protocol: docs/slangc-wasm.md, recorder/worker_server.h): a job is one line, a
 * JSON array of argument strings (a layout job wraps it as {"layout": [...]});
 * its answer is one line, a JSON object {"status", "diagnostics", ["stdout"]}
 * (one worker's primitives: compiler/worker_client.c). The dispatcher writes a
 * line to each idle worker, then poll()s every worker's standard output and
 * error; a worker whose standard output ends, or that prints anything but one
 * answer per job, is retired (killed if need be, always waited for) and
 * fails its job and the batch.
 */
#define _POSIX_C_SOURCE 200809L
#include "compiler/compile_pool.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "compiler/worker_client.h"
#include "io/process.h"

/* ---- small helpers ---- */

/* Copies a local diagnostic to the caller's (if any) and returns its code. */
static int pass_on(dgpb_diag *diag, const dgpb_diag *local)
{
    if (diag)
        *diag = *local;
    return local->code ? local->code : DGPB_ERR_TOOL;
}

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* The text between leading and trailing white space: *len bytes from the returned pointer. */
static const char *trim(const char *s, size_t n, size_t *len)
{
    while (n && is_space(*s))
        s++, n--;
    while (n && is_space(s[n - 1]))
        n--;
    *len = n;
    return s;
}

/* ---- version ---- */

int compile_pool_version(const compile_pool *c, const char *const *argv, bool embedded,
                         char **version, dgpb_diag *diag)
{
    assert(c && argv && version);
    *version = NULL;
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = argv;
    p.cwd = c->cwd;
    dgpb_diag local;
    dgpb_diag_clear(&local);
    int rc = DGPB_OK;
    int status = process_run(&p, &local);
    if (status < 0) {
        rc = pass_on(diag, &local);
        goto done;
    }
    size_t out_len, err_len;
    const char *out = trim(p.out, p.out_len, &out_len);
    const char *err = trim(p.err, p.err_len, &err_len);
    if (status != 0) {
        rc =
            dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "'%s %s' exited with status %d%s%.*s%s", argv[0], argv[1],
                          status, err_len ? ": " : "", (int)(err_len < 1000 ? err_len : 1000), err,
                          status == 127 && embedded ? " (is Node.js installed?)" : "");
        goto done;
    }
    if (!out_len) {
        out = err;
        out_len = err_len;
    }
    if (!out_len) {
        rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "'%s %s' printed no version", argv[0], argv[1]);
        goto done;
    }
    *version = mem_memdup(out, out_len + 1);
    if (!*version) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    (*version)[out_len] = 0;
done:
    process_clear(&p);
    return rc;
}

/* ---- jobs ---- */

/* Marks every job from `from` on that has no result as not run, saying why. */
static void mark_not_run(dgpb_compile_job *jobs, size_t from, size_t count, const char *why)
{
    for (size_t i = from; i < count; i++) {
        if (jobs[i].diagnostics)
            continue;
        jobs[i].status = -1;
        jobs[i].diagnostics = mem_printf("not run: %s", why);
    }
}

/* ---- native slangc: one child per job ----------------------------------- */

int compile_pool_run_native(const compile_pool *c, dgpb_compile_job *jobs, size_t count,
                            unsigned parallel, dgpb_diag *diag)
{
    assert(c && c->path && jobs && count && parallel);
    int rc = DGPB_OK;
    dgpb_process *procs = mem_calloc(count, sizeof *procs);
    const char **argvs = NULL;
    size_t prefix = 0;
    while (c->layout_argv && c->layout_argv[prefix])
        prefix++;
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += jobs[i].arg_count + 2 + (jobs[i].layout ? prefix : 0);
    argvs = mem_calloc(total, sizeof *argvs);
    if (!procs || !argvs) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++)
        if (jobs[i].layout && !prefix) {
            rc = dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                               "job %zu records a layout, and no layout recorder is configured",
                               i + 1);
            goto done;
        }
    const char **at = argvs;
    for (size_t i = 0; i < count; i++) {
        procs[i] = (dgpb_process)DGPB_PROCESS_INIT;
        procs[i].argv = at;
        procs[i].cwd = c->cwd;
        procs[i].flags = DGPB_PROCESS_GROUP; /* a cancelled run kills what it started too */
        if (jobs[i].layout)
            for (size_t k = 0; k < prefix; k++)
                *at++ = c->layout_argv[k];
        else
            *at++ = c->path;
        for (size_t k = 0; k < jobs[i].arg_count; k++)
            *at++ = jobs[i].args[k];
        *at++ = NULL;
    }
    dgpb_diag local;
    dgpb_diag_clear(&local);
    rc = process_run_parallel_cancellable(procs, count, parallel, c->watch, c->watch_user,
                                          c->cancel, &local);
    for (size_t i = 0; i < count; i++) {
        if (procs[i].status < 0)
            continue;
        jobs[i].status = procs[i].status;
        jobs[i].diagnostics = procs[i].err;
        jobs[i].output = procs[i].out;
        procs[i].err = procs[i].out = NULL;
    }
    if (rc) {
        mark_not_run(jobs, 0, count, local.message);
        pass_on(diag, &local);
    }
done:
    for (size_t i = 0; procs && i < count; i++)
        process_clear(&procs[i]);
    dgpb_free(procs);
    dgpb_free(argvs);
    return rc;
}

/* ---- --serve workers ---------------------------------------------------- */

/*
 * A worker failed: retire it, fail its job (if any) and, for the first
 * failure of the batch, fill `fail` (the batch's diagnostic). `what` says
 * how it failed ("exited", "answered garbage ...").
 */
static void worker_failed(compile_pool *c, worker *w, dgpb_compile_job *jobs, bool kill_it,
                          const char *what, dgpb_diag *fail)
{
    size_t job = w->job;
    int pid = w->proc.pid;
    int status = worker_retire(w, kill_it);
    char during[700] = "";
    if (job != WORKER_NO_JOB)
        worker_describe_job(jobs[job].args, jobs[job].arg_count, jobs[job].layout, job, during,
                            sizeof during);
    char *msg = worker_failure_message(w, c->serve_argv[0], pid, status, what, during);
    if (job != WORKER_NO_JOB) {
        jobs[job].status = -1;
        dgpb_free(jobs[job].diagnostics);
        jobs[job].diagnostics = msg ? mem_strdup(msg) : NULL;
    }
    if (fail->code == DGPB_OK)
        dgpb_diag_set(fail, msg ? DGPB_ERR_TOOL : DGPB_ERR_NOMEM, -1, "%s",
                      msg ? msg : "out of memory");
    dgpb_free(msg);
}

/*
 * Sends job `i` to an idle worker as one JSON line (`native`: the worker also records the
 * layout a compile job asks for).
 */
static int send_job(worker *w, const dgpb_compile_job *job, size_t i, bool native, dgpb_diag *diag)
{
    worker_share share = {job->keep, job->checked_as, job->checked_as_count};
    char *line = worker_job_line(job->args, job->arg_count, job->layout,
                                 native ? job->layout_output : NULL, NULL, native ? &share : NULL);
    if (!line)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    int rc = worker_send_line(w, line, diag);
    dgpb_free(line);
    if (rc == DGPB_OK)
        w->job = i;
    return rc;
}

/*
 * Reads a worker's standard output; answers complete lines. Returns false
 * when the worker failed (and was retired).
 */
static bool read_answers(compile_pool *c, worker *w, dgpb_compile_job *jobs, size_t *in_flight,
                         dgpb_diag *fail)
{
    worker_read got = worker_read_out(w);
    if (got != WORKER_READ_OK) {
        *in_flight -= w->job != WORKER_NO_JOB;
        worker_failed(c, w, jobs, got == WORKER_READ_TOO_LONG,
                      got == WORKER_READ_TOO_LONG ? "printed an answer too long to keep" : NULL,
                      fail);
        return false;
    }
    const char *line;
    size_t len;
    while (worker_next_line(w, &line, &len)) {
        int rc = DGPB_ERR_CORRUPT;
        if (w->job != WORKER_NO_JOB) {
            dgpb_compile_job *job = &jobs[w->job];
            rc = worker_parse_answer(line, len, &job->status, &job->diagnostics, &job->output,
                                     &job->checked);
        }
        if (rc == DGPB_ERR_CORRUPT) {
            char what[300];
            snprintf(what, sizeof what, "%s '%.*s'",
                     w->job != WORKER_NO_JOB ? "answered something that is not an answer:"
                                             : "printed without being asked:",
                     (int)(len < 200 ? len : 200), line);
            *in_flight -= w->job != WORKER_NO_JOB;
            worker_failed(c, w, jobs, true, what, fail);
            return false;
        }
        if (rc == DGPB_ERR_NOMEM && fail->code == DGPB_OK)
            dgpb_diag_set(fail, DGPB_ERR_NOMEM, -1, "out of memory");
        if (rc == DGPB_OK && c->watch)
            c->watch(c->watch_user, w->job, true);
        w->job = WORKER_NO_JOB;
        (*in_flight)--;
        worker_drop_line(w, len);
    }
    return true;
}

/* Retires, quietly, idle workers that exited or printed since the last run. */
static void sweep_idle(compile_pool *c)
{
    for (size_t i = 0; i < c->worker_count; i++) {
        worker *w = c->workers[i];
        if (!w->alive)
            continue;
        struct pollfd pfd[2] = {{w->proc.out_fd, POLLIN, 0}, {w->proc.err_fd, POLLIN, 0}};
        if (poll(pfd, 2, 0) <= 0) /* a closed err_fd (-1) is ignored */
            continue;
        if (pfd[1].revents && w->proc.err_fd >= 0)
            worker_read_err(w);
        if (pfd[0].revents)
            worker_retire(w, true);
    }
}

/* Starts the worker in slot w (new or retired), with the pool's TMPDIR (made with the first). */
static int start_worker(compile_pool *c, worker *w, dgpb_diag *diag)
{
    int rc = DGPB_OK;
    if (!c->worker_tmp && (rc = worker_make_tmp(NULL, &c->worker_tmp, &c->worker_env[0], diag)))
        return rc;
    rc = worker_start(w, c->serve_argv, c->cwd, (const char *const *)c->worker_env, diag);
    if (rc == DGPB_OK)
        c->started++;
    return rc;
}

/* Makes sure `want` workers are alive, reusing retired slots first. */
static int ensure_workers(compile_pool *c, size_t want, dgpb_diag *diag)
{
    size_t alive = 0;
    for (size_t i = 0; i < c->worker_count; i++)
        alive += c->workers[i]->alive;
    for (size_t i = 0; i < c->worker_count && alive < want; i++) {
        if (c->workers[i]->alive)
            continue;
        int rc = start_worker(c, c->workers[i], diag);
        if (rc)
            return rc;
        alive++;
    }
    while (alive < want) {
        worker **grown = mem_realloc(c->workers, (c->worker_count + 1) * sizeof *grown);
        if (!grown)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        c->workers = grown;
        worker *w = mem_calloc(1, sizeof *w);
        if (!w)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        w->id = (unsigned)c->worker_count + 1;
        c->workers[c->worker_count++] = w;
        int rc = start_worker(c, w, diag);
        if (rc)
            return rc;
        alive++;
    }
    return DGPB_OK;
}

/* A cancelled run: every worker is killed and waited for, none is reused. */
static void cancel_workers(compile_pool *c, dgpb_diag *fail)
{
    for (size_t i = 0; i < c->worker_count; i++)
        worker_retire(c->workers[i], true);
    if (fail->code == DGPB_OK)
        dgpb_diag_set(fail, DGPB_ERR_INTERRUPTED, -1, "interrupted");
}

/* How often a run that can be cancelled looks at its flag while the workers are quiet. */
#define CANCEL_POLL_MS 50

int compile_pool_run_serve(compile_pool *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                           dgpb_diag *diag)
{
    assert(c && c->path && jobs && count && parallel);
    size_t want = parallel < count ? parallel : count;
    dgpb_diag fail;
    dgpb_diag_clear(&fail);
    struct pollfd *pfds = NULL;
    worker **owners = NULL;
    size_t next = 0, in_flight = 0;
    sweep_idle(c);
    if (ensure_workers(c, want, &fail))
        goto done;
    pfds = mem_calloc(2 * c->worker_count, sizeof *pfds);
    owners = mem_calloc(2 * c->worker_count, sizeof *owners);
    if (!pfds || !owners) {
        dgpb_diag_set(&fail, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    for (;;) {
        if (c->cancel && *c->cancel) {
            cancel_workers(c, &fail);
            break;
        }
        for (size_t i = 0; i < c->worker_count && !fail.code && next < count && in_flight < want;
             i++) {
            worker *w = c->workers[i];
            if (!w->alive || w->job != WORKER_NO_JOB)
                continue;
            dgpb_diag local;
            dgpb_diag_clear(&local);
            if (send_job(w, &jobs[next], next, c->native_serve, &local) == DGPB_OK) {
                if (c->watch)
                    c->watch(c->watch_user, next, false);
                next++;
                in_flight++;
            } else if (local.code == DGPB_ERR_NOMEM) {
                fail = local;
            } else {
                char what[DGPB_DIAG_MESSAGE_MAX + 32];
                snprintf(what, sizeof what, "stopped reading jobs (%s)", local.message);
                worker_failed(c, w, jobs, true, what, &fail);
            }
        }
        if (in_flight == 0)
            break;
        nfds_t k = 0;
        for (size_t i = 0; i < c->worker_count; i++) {
            worker *w = c->workers[i];
            if (!w->alive)
                continue;
            pfds[k] = (struct pollfd){w->proc.out_fd, POLLIN, 0};
            owners[k++] = w;
            if (w->proc.err_fd >= 0) {
                pfds[k] = (struct pollfd){w->proc.err_fd, POLLIN, 0};
                owners[k++] = w;
            }
        }
        if (poll(pfds, k, c->cancel ? CANCEL_POLL_MS : -1) < 0) {
            if (errno == EINTR)
                continue;
            dgpb_diag_set(&fail, DGPB_ERR_TOOL, -1, "cannot wait for the Slang compiler: %s",
                          strerror(errno));
            for (size_t i = 0; i < c->worker_count; i++)
                if (c->workers[i]->job != WORKER_NO_JOB)
                    worker_failed(c, c->workers[i], jobs, true, "was abandoned", &fail);
            break;
        }
        for (nfds_t i = 0; i < k; i++) {
            worker *w = owners[i];
            if (!pfds[i].revents || !w->alive)
                continue;
            if (pfds[i].fd == w->proc.err_fd)
                worker_read_err(w);
            else if (pfds[i].fd == w->proc.out_fd)
                read_answers(c, w, jobs, &in_flight, &fail);
        }
    }
done:
    if (fail.code) {
        mark_not_run(jobs, 0, count, fail.message);
        if (diag)
            *diag = fail;
    }
    dgpb_free(pfds);
    dgpb_free(owners);
    return fail.code;
}

void compile_pool_close(compile_pool *c)
{
    assert(c);
    for (size_t i = 0; i < c->worker_count; i++) {
        worker_free(c->workers[i]);
        dgpb_free(c->workers[i]);
    }
    dgpb_free(c->workers);
    c->workers = NULL;
    c->worker_count = 0;
    worker_remove_tmp(c->worker_tmp);
    dgpb_free(c->worker_tmp);
    dgpb_free(c->worker_env[0]);
    c->worker_tmp = c->worker_env[0] = NULL;
}
