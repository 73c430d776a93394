/*
 * compile_pool.c - running Slang's compiler (compile_pool.h): `-v`, batches
 * of children, one per job, and the pool of persistent `--serve` workers.
 *
 * Children run through dgpb_process_run_parallel(). Workers are either the
 * embedded slangc-wasm or the native dgpb-slang-layout, both with `--serve`
 * (protocol: docs/slangc-wasm.md, compiler/slang_worker.h): a job is one line, a
 * JSON array of argument strings (a layout job wraps it as {"layout": [...]});
 * its answer is one line, a JSON object {"status", "diagnostics", ["stdout"]}. The dispatcher writes a
 * line to each idle worker, then poll()s every worker's standard output and
 * error; a worker whose standard output ends, or that prints anything but one
 * answer per job, is retired (killed if need be, always waited for) and
 * fails its job and the batch.
 */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include "compiler/compile_pool.h"

#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "io/process.h"

#define NO_JOB SIZE_MAX
#define ANSWER_MAX ((size_t)256 << 20) /* the longest answer line accepted */
#define ERR_KEEP ((size_t)64 << 10)    /* how much of a worker's standard error is kept */
#define ERR_SHOWN 1200                 /* how much of it a message quotes */

/* One `--serve` process. */
struct worker {
    dgpb_process proc;
    unsigned id;       /* 1-based, for messages */
    bool alive;        /* started and not retired */
    size_t job;        /* the job it is compiling, or NO_JOB */
    dgpb_bytebuf line; /* standard output not yet answered */
    dgpb_bytebuf err;  /* the last ERR_KEEP bytes of its standard error */
};

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

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- version ---- */

int compile_pool_version(const compile_pool *c, bool embedded, char **version, dgpb_diag *diag)
{
    assert(c && version);
    *version = NULL;
    const char *argv[] = {c->path, "-v", NULL};
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = argv;
    p.cwd = c->cwd;
    dgpb_diag local;
    dgpb_diag_clear(&local);
    int rc = DGPB_OK;
    int status = dgpb_process_run(&p, &local);
    if (status < 0) {
        rc = pass_on(diag, &local);
        goto done;
    }
    size_t out_len, err_len;
    const char *out = trim(p.out, p.out_len, &out_len);
    const char *err = trim(p.err, p.err_len, &err_len);
    if (status != 0) {
        rc =
            dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "'%s -v' exited with status %d%s%.*s%s", c->path,
                          status, err_len ? ": " : "", (int)(err_len < 1000 ? err_len : 1000), err,
                          status == 127 && embedded ? " (is Node.js installed?)" : "");
        goto done;
    }
    if (!out_len) {
        out = err;
        out_len = err_len;
    }
    if (!out_len) {
        rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "'%s -v' printed no version", c->path);
        goto done;
    }
    *version = mem_memdup(out, out_len + 1);
    if (!*version) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    (*version)[out_len] = 0;
done:
    dgpb_process_clear(&p);
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
    rc = dgpb_process_run_parallel_cancellable(procs, count, parallel, c->watch, c->watch_user,
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
        dgpb_process_clear(&procs[i]);
    dgpb_free(procs);
    dgpb_free(argvs);
    return rc;
}

/* ---- --serve workers ---------------------------------------------------- */

/* The value after the last `option` among a job's arguments, or NULL. */
static const char *job_option(const dgpb_compile_job *job, const char *option)
{
    const char *value = NULL;
    for (size_t k = 0; k + 1 < job->arg_count; k++)
        if (job->args[k] && !strcmp(job->args[k], option))
            value = job->args[k + 1];
    return value;
}

/* " while compiling entry 'e' for target 't' (job n, module 'm')", for messages. */
static void describe_job(const dgpb_compile_job *job, size_t i, char *buf, size_t n)
{
    const char *entry = job_option(job, "-entry"), *target = job_option(job, "-target");
    snprintf(buf, n, " while %s %s%.200s%s for target '%.40s' (job %zu, module '%.300s')",
             job->layout ? "recording the layout of" : "compiling",
             entry ? "entry '" : "the module", entry ? entry : "", entry ? "'" : "",
             target ? target : "(none)", i + 1, job->arg_count && job->args[0] ? job->args[0] : "");
}

static void worker_keep_err(worker *w, const char *data, size_t n)
{
    bytebuf_append(&w->err, data, n);
    if (w->err.failed) { /* only messages suffer: start again */
        bytebuf_free(&w->err);
        return;
    }
    if (w->err.len > ERR_KEEP) {
        size_t drop = w->err.len - ERR_KEEP / 2;
        memmove(w->err.data, w->err.data + drop, w->err.len - drop);
        w->err.len -= drop;
    }
}

/* The end of what a worker printed on standard error, for a message. */
static void worker_err_tail(const worker *w, const char **text, int *len)
{
    size_t n;
    const char *t = trim((const char *)w->err.data, w->err.len, &n);
    if (n > ERR_SHOWN) {
        t += n - ERR_SHOWN;
        n = ERR_SHOWN;
    }
    *text = n ? t : "(nothing)";
    *len = n ? (int)n : 9;
}

/*
 * Makes the workers' private TMPDIR, "$TMPDIR/dgpb-workers-XXXXXX": what a
 * worker leaves there when it is killed (slangc-wasm's nvcc folders) goes
 * with the pool.
 */
static int make_worker_tmp(compile_pool *c, dgpb_diag *diag)
{
    if (c->worker_tmp)
        return DGPB_OK;
    const char *base = getenv("TMPDIR");
    char *dir = mem_printf("%s/dgpb-workers-XXXXXX", base && *base ? base : "/tmp");
    if (!dir)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    if (!mkdtemp(dir)) {
        int rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot create a folder like '%s': %s", dir,
                               strerror(errno));
        dgpb_free(dir);
        return rc;
    }
    c->worker_env[0] = mem_printf("TMPDIR=%s", dir);
    c->worker_tmp = dir;
    if (!c->worker_env[0])
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    return DGPB_OK;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Starts the worker in slot w (new or retired), leading a process group of its own. */
static int worker_start(compile_pool *c, worker *w, dgpb_diag *diag)
{
    int rc = make_worker_tmp(c, diag);
    if (rc)
        return rc;
    dgpb_process_clear(&w->proc);
    w->proc = (dgpb_process)DGPB_PROCESS_INIT;
    w->proc.argv = c->serve_argv;
    w->proc.cwd = c->cwd;
    w->proc.env = (const char *const *)c->worker_env;
    w->proc.flags = DGPB_PROCESS_PIPES | DGPB_PROCESS_GROUP;
    w->job = NO_JOB;
    w->line.len = 0;
    w->line.failed = false;
    w->err.len = 0;
    w->err.failed = false;
    rc = dgpb_process_start(&w->proc, diag);
    if (rc)
        return rc;
    w->alive = true;
    c->started++;
    return DGPB_OK;
}

/*
 * Retires a worker: kills it when `kill_it` (it may still be running), closes
 * its input, reads what it has left and waits for it. Returns its exit status.
 */
static int worker_retire(worker *w, bool kill_it)
{
    if (!w->alive)
        return w->proc.status;
    if (kill_it)
        dgpb_process_kill(&w->proc, SIGKILL, NULL);
    dgpb_process_close_input(&w->proc);
    dgpb_process_finish(&w->proc, NULL);
    if (w->proc.err)
        worker_keep_err(w, w->proc.err, w->proc.err_len);
    w->alive = false;
    w->job = NO_JOB;
    return w->proc.status;
}

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
    char how[160];
    if (what)
        snprintf(how, sizeof how, "%s", what);
    else if (status >= 128)
        snprintf(how, sizeof how, "was ended by signal %d", status - 128);
    else
        snprintf(how, sizeof how, "exited with status %d%s", status,
                 status == 127 ? " (is Node.js installed?)" : "");
    char during[700] = "";
    if (job != NO_JOB)
        describe_job(&jobs[job], job, during, sizeof during);
    const char *err;
    int err_len;
    worker_err_tail(w, &err, &err_len);
    char *msg = mem_printf("%s --serve worker %u (pid %d) %s%s; its last words: %.*s",
                           base_name(c->serve_argv[0]), w->id, pid, how, during, err_len, err);
    if (job != NO_JOB) {
        jobs[job].status = -1;
        dgpb_free(jobs[job].diagnostics);
        jobs[job].diagnostics = msg ? mem_strdup(msg) : NULL;
    }
    if (fail->code == DGPB_OK)
        dgpb_diag_set(fail, msg ? DGPB_ERR_TOOL : DGPB_ERR_NOMEM, -1, "%s",
                      msg ? msg : "out of memory");
    dgpb_free(msg);
}

/* Sends job `i` to an idle worker as one JSON line (`native`: the worker records layouts). */
static int worker_send(worker *w, const dgpb_compile_job *job, size_t i, bool native,
                       dgpb_diag *diag)
{
    int rc = DGPB_OK;
    cJSON *array = cJSON_CreateArray();
    char *text = NULL;
    for (size_t k = 0; array && k < job->arg_count; k++) {
        cJSON *s = cJSON_CreateString(job->args[k] ? job->args[k] : "");
        if (!s || !cJSON_AddItemToArray(array, s)) {
            cJSON_Delete(s);
            cJSON_Delete(array);
            array = NULL;
        }
    }
    if (array && job->layout) { /* {"layout": [...]} */
        cJSON *object = cJSON_CreateObject();
        if (!object || !cJSON_AddItemToObject(object, "layout", array)) {
            cJSON_Delete(object);
            cJSON_Delete(array);
            object = NULL;
        }
        array = object;
    } else if (array && native && job->layout_output) { /* {"compile": [...], ...} */
        cJSON *object = cJSON_CreateObject();
        if (!object || !cJSON_AddItemToObject(object, "compile", array)) {
            cJSON_Delete(object);
            cJSON_Delete(array);
            object = NULL;
        } else if (!cJSON_AddStringToObject(object, "layout_output", job->layout_output)) {
            cJSON_Delete(object);
            object = NULL;
        }
        array = object;
    }
    if (!array || !(text = cJSON_PrintUnformatted(array))) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    if ((rc = dgpb_process_write(&w->proc, text, strlen(text), diag)) ||
        (rc = dgpb_process_write(&w->proc, "\n", 1, diag)))
        goto done;
    w->job = i;
done:
    cJSON_free(text);
    cJSON_Delete(array);
    return rc;
}

/*
 * Fills a job from one answer line. DGPB_ERR_CORRUPT when the line is not an
 * answer, DGPB_ERR_NOMEM.
 */
static int parse_answer(const char *line, size_t len, dgpb_compile_job *job)
{
    int rc = DGPB_OK;
    cJSON *root = cJSON_ParseWithLength(line, len);
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(root, "status");
    const cJSON *diagnostics = cJSON_GetObjectItemCaseSensitive(root, "diagnostics");
    const cJSON *out = cJSON_GetObjectItemCaseSensitive(root, "stdout");
    if (!cJSON_IsObject(root) || !cJSON_IsNumber(status) || !cJSON_IsString(diagnostics) ||
        (out && !cJSON_IsString(out)) || status->valuedouble < 0 || status->valuedouble > 255 ||
        status->valuedouble != (double)(int)status->valuedouble) {
        rc = DGPB_ERR_CORRUPT;
        goto done;
    }
    char *d = mem_strdup(diagnostics->valuestring);
    char *o = mem_strdup(out ? out->valuestring : "");
    if (!d || !o) {
        dgpb_free(d);
        dgpb_free(o);
        rc = DGPB_ERR_NOMEM;
        goto done;
    }
    job->status = status->valueint;
    job->diagnostics = d;
    job->output = o;
done:
    cJSON_Delete(root);
    return rc;
}

/*
 * Reads a worker's standard output; answers complete lines. Returns false
 * when the worker failed (and was retired).
 */
static bool worker_read_out(compile_pool *c, worker *w, dgpb_compile_job *jobs, size_t *in_flight,
                            dgpb_diag *fail)
{
    char buf[65536];
    ssize_t n = read(w->proc.out_fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (n <= 0) {
        *in_flight -= w->job != NO_JOB;
        worker_failed(c, w, jobs, false, NULL, fail);
        return false;
    }
    bytebuf_append(&w->line, buf, (size_t)n);
    if (w->line.failed || w->line.len > ANSWER_MAX) {
        *in_flight -= w->job != NO_JOB;
        worker_failed(c, w, jobs, true, "printed an answer too long to keep", fail);
        return false;
    }
    for (;;) {
        char *start = (char *)w->line.data;
        char *nl = memchr(start, '\n', w->line.len);
        if (!nl)
            return true;
        size_t len = (size_t)(nl - start);
        int rc = DGPB_ERR_CORRUPT;
        if (w->job != NO_JOB)
            rc = parse_answer(start, len, &jobs[w->job]);
        if (rc == DGPB_ERR_CORRUPT) {
            char what[300];
            snprintf(what, sizeof what, "%s '%.*s'",
                     w->job != NO_JOB ? "answered something that is not an answer:"
                                      : "printed without being asked:",
                     (int)(len < 200 ? len : 200), start);
            *in_flight -= w->job != NO_JOB;
            worker_failed(c, w, jobs, true, what, fail);
            return false;
        }
        if (rc == DGPB_ERR_NOMEM && fail->code == DGPB_OK)
            dgpb_diag_set(fail, DGPB_ERR_NOMEM, -1, "out of memory");
        if (rc == DGPB_OK && c->watch)
            c->watch(c->watch_user, w->job, true);
        w->job = NO_JOB;
        (*in_flight)--;
        memmove(w->line.data, nl + 1, w->line.len - len - 1);
        w->line.len -= len + 1;
    }
}

static void worker_read_err(worker *w)
{
    char buf[8192];
    ssize_t n = read(w->proc.err_fd, buf, sizeof buf);
    if (n > 0)
        worker_keep_err(w, buf, (size_t)n);
    else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(w->proc.err_fd); /* finish() reads nothing more from it */
        w->proc.err_fd = -1;
    }
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

/* Makes sure `want` workers are alive, reusing retired slots first. */
static int ensure_workers(compile_pool *c, size_t want, dgpb_diag *diag)
{
    size_t alive = 0;
    for (size_t i = 0; i < c->worker_count; i++)
        alive += c->workers[i]->alive;
    for (size_t i = 0; i < c->worker_count && alive < want; i++) {
        if (c->workers[i]->alive)
            continue;
        int rc = worker_start(c, c->workers[i], diag);
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
        int rc = worker_start(c, w, diag);
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
            if (!w->alive || w->job != NO_JOB)
                continue;
            dgpb_diag local;
            dgpb_diag_clear(&local);
            if (worker_send(w, &jobs[next], next, c->native_serve, &local) == DGPB_OK) {
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
                if (c->workers[i]->job != NO_JOB)
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
                worker_read_out(c, w, jobs, &in_flight, &fail);
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
        worker *w = c->workers[i];
        worker_retire(w, false);
        dgpb_process_clear(&w->proc);
        bytebuf_free(&w->line);
        bytebuf_free(&w->err);
        dgpb_free(w);
    }
    dgpb_free(c->workers);
    c->workers = NULL;
    c->worker_count = 0;
    if (c->worker_tmp)
        nftw(c->worker_tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    dgpb_free(c->worker_tmp);
    dgpb_free(c->worker_env[0]);
    c->worker_tmp = c->worker_env[0] = NULL;
}
