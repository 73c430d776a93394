/*
 * compiler.c - the Slang compiler front (dgpb/compiler.h).
 *
 * Two halves: the lookup (DECISIONS.md, section 2), which only looks at the
 * file system and three environment variables, and the batch runner. A
 * native slangc runs as one child per job through
 * dgpb_process_run_parallel(). The embedded slangc-wasm runs as persistent
 * `--serve` workers (protocol: docs/slangc-wasm.md): a job is one line, a
 * JSON array of argument strings; its answer is one line, a JSON object
 * {"status", "diagnostics", "outputs", ["stdout"]}. The dispatcher writes a
 * line to each idle worker, then poll()s every worker's standard output and
 * error; a worker whose standard output ends, or that prints anything but one
 * answer per job, is retired (killed if need be, always waited for) and
 * fails its job and the batch.
 */
#define _GNU_SOURCE /* realpath */
#include "dgpb/compiler.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "bytebuf.h"
#include "dgpb/process.h"

#define NO_JOB SIZE_MAX
#define ANSWER_MAX ((size_t)256 << 20) /* the longest answer line accepted */
#define ERR_KEEP ((size_t)64 << 10)    /* how much of a worker's standard error is kept */
#define ERR_SHOWN 1200                 /* how much of it a message quotes */

/* One `slangc-wasm --serve` process. */
typedef struct worker {
    dgpb_process proc;
    const char *argv[3];
    unsigned id;       /* 1-based, for messages */
    bool alive;        /* started and not retired */
    size_t job;        /* the job it is compiling, or NO_JOB */
    dgpb_bytebuf line; /* standard output not yet answered */
    dgpb_bytebuf err;  /* the last ERR_KEEP bytes of its standard error */
} worker;

struct dgpb_compiler {
    char *path;
    char *origin;
    char *cwd;
    char *version;
    dgpb_compiler_source source;
    bool embedded;
    worker **workers;
    size_t worker_count;
    unsigned started;
};

static const char setup_hint[] =
    "run 'sudo tools/setup.sh' (or 'npm ci --prefix tools/slangc-wasm')";

/* ---- small helpers ------------------------------------------------------ */

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

/* ---- lookup ------------------------------------------------------------- */

static const char *env_get(const dgpb_compiler_desc *d, const char *name)
{
    const char *v = d->get_env ? d->get_env(name, d->get_env_user) : getenv(name);
    return v && *v ? v : NULL;
}

/* `path` made absolute against the working folder (symbolic links kept). NULL: out of memory. */
static char *absolute(const char *path)
{
    if (path[0] == '/')
        return dgpb_strdup(path);
    char here[PATH_MAX];
    if (!getcwd(here, sizeof here))
        return dgpb_strdup(path);
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    return dgpb_strprintf("%s/%s", here, path);
}

/*
 * Checks a compiler the user named (rules 1-3): an executable regular file,
 * or for a bare name, one found on PATH. *out: its absolute path.
 */
static int check_named(const char *path, const char *why, const char *path_var, char **out,
                       dgpb_diag *diag)
{
    *out = NULL;
    if (!strchr(path, '/')) {
        char *found = dgpb_process_which(path, path_var);
        if (!found)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "cannot use the Slang compiler '%s' (from %s): not found on PATH",
                                 path, why);
        *out = absolute(found);
        dgpb_free(found);
    } else {
        struct stat st;
        if (stat(path, &st) != 0)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "cannot use the Slang compiler '%s' (from %s): %s", path, why,
                                 strerror(errno));
        if (!S_ISREG(st.st_mode))
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "cannot use the Slang compiler '%s' (from %s): not a file", path,
                                 why);
        if (access(path, X_OK) != 0)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "cannot use the Slang compiler '%s' (from %s): not executable",
                                 path, why);
        *out = absolute(path);
    }
    return *out ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
}

/*
 * Rule 5: the first candidate that exists. One that exists but is not
 * executable, or whose node_modules folder is missing (npm ci was not run),
 * is an error saying how to install it. *out stays NULL when none exists.
 */
static int find_embedded(const char *const *candidates, char **out, dgpb_diag *diag)
{
    *out = NULL;
    for (size_t i = 0; candidates && candidates[i]; i++) {
        const char *c = candidates[i];
        struct stat st;
        if (stat(c, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (access(c, X_OK) != 0)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "the embedded Slang compiler '%s' is not executable: %s", c,
                                 setup_hint);
        const char *slash = strrchr(c, '/');
        int dir_len = slash ? (int)(slash - c) : 1;
        char *modules = dgpb_strprintf("%.*s/node_modules", dir_len, slash ? c : ".");
        if (!modules)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        bool installed = stat(modules, &st) == 0 && S_ISDIR(st.st_mode);
        dgpb_free(modules);
        if (!installed)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "the embedded Slang compiler '%s' is not installed: %s", c,
                                 setup_hint);
        *out = absolute(c);
        return *out ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    return DGPB_OK;
}

/* Whether `path` is the same file as one of the existing candidates (real paths compared). */
static bool is_embedded_path(const char *path, const char *const *candidates)
{
    char real[PATH_MAX], cand[PATH_MAX];
    if (!candidates || !realpath(path, real))
        return false;
    for (size_t i = 0; candidates[i]; i++)
        if (realpath(candidates[i], cand) && strcmp(real, cand) == 0)
            return true;
    return false;
}

int dgpb_compiler_create(const dgpb_compiler_desc *desc, dgpb_compiler **out, dgpb_diag *diag)
{
    static const char *const rule_names[] = {"", "--slangc", "$DGPB_SLANGC", "$SLANG_ROOT"};
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
    char *path = NULL, *root_slangc = NULL;
    dgpb_compiler *c = dgpb_calloc(1, sizeof *c);
    if (!c) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    const char *path_var = env_get(d, "PATH");
    const char *named = NULL;
    dgpb_compiler_source source = 0;
    if (d->path && *d->path) {
        named = d->path;
        source = DGPB_COMPILER_FROM_OPTION;
    } else if ((named = env_get(d, "DGPB_SLANGC"))) {
        source = DGPB_COMPILER_FROM_ENV;
    } else if (env_get(d, "SLANG_ROOT")) {
        const char *root = env_get(d, "SLANG_ROOT");
        size_t n = strlen(root);
        while (n > 1 && root[n - 1] == '/')
            n--;
        if (!(root_slangc = dgpb_strprintf("%.*s/bin/slangc", (int)n, root))) {
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            goto done;
        }
        named = root_slangc;
        source = DGPB_COMPILER_FROM_SLANG_ROOT;
    }
    if (named) {
        if ((rc = check_named(named, rule_names[source], path_var, &path, diag)))
            goto done;
    } else if (path_var && (path = dgpb_process_which("slangc", path_var))) {
        char *abs = absolute(path);
        dgpb_free(path);
        if (!(path = abs)) {
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            goto done;
        }
        source = DGPB_COMPILER_FROM_PATH;
    } else {
        if ((rc = find_embedded(d->embedded, &path, diag)))
            goto done;
        if (!path) {
            rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                               "no Slang compiler found: give --slangc PATH, set $DGPB_SLANGC or "
                               "$SLANG_ROOT, put slangc on PATH, or install the embedded one: %s",
                               setup_hint);
            goto done;
        }
        source = DGPB_COMPILER_FROM_EMBEDDED;
    }
    c->path = path;
    path = NULL;
    c->source = source;
    c->embedded = source == DGPB_COMPILER_FROM_EMBEDDED || is_embedded_path(c->path, d->embedded);
    if (c->embedded && source != DGPB_COMPILER_FROM_EMBEDDED)
        c->origin = dgpb_strprintf("embedded slangc-wasm from %s", origins[source] + 12);
    else
        c->origin = dgpb_strdup(origins[source]);
    c->cwd = d->cwd ? dgpb_strdup(d->cwd) : NULL;
    if (!c->origin || (d->cwd && !c->cwd)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    *out = c;
    c = NULL;
done:
    dgpb_free(path);
    dgpb_free(root_slangc);
    dgpb_compiler_destroy(c);
    return rc;
}

const char *dgpb_compiler_path(const dgpb_compiler *c)
{
    return c->path;
}

dgpb_compiler_source dgpb_compiler_source_of(const dgpb_compiler *c)
{
    return c->source;
}

const char *dgpb_compiler_origin(const dgpb_compiler *c)
{
    return c->origin;
}

bool dgpb_compiler_is_embedded(const dgpb_compiler *c)
{
    return c->embedded;
}

unsigned dgpb_compiler_workers_started(const dgpb_compiler *c)
{
    return c->started;
}

/* ---- version ------------------------------------------------------------ */

int dgpb_compiler_version(dgpb_compiler *c, const char **version, dgpb_diag *diag)
{
    if (!c || !version)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no compiler");
    *version = NULL;
    if (c->version) {
        *version = c->version;
        return DGPB_OK;
    }
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
                          status == 127 && c->embedded ? " (is Node.js installed?)" : "");
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
    c->version = dgpb_memdup(out, out_len + 1);
    if (!c->version) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    c->version[out_len] = 0;
    *version = c->version;
done:
    dgpb_process_clear(&p);
    return rc;
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

/* Marks every job from `from` on that has no result as not run, saying why. */
static void mark_not_run(dgpb_compile_job *jobs, size_t from, size_t count, const char *why)
{
    for (size_t i = from; i < count; i++) {
        if (jobs[i].diagnostics)
            continue;
        jobs[i].status = -1;
        jobs[i].diagnostics = dgpb_strprintf("not run: %s", why);
    }
}

/* ---- native slangc: one child per job ----------------------------------- */

static int run_native(dgpb_compiler *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                      dgpb_diag *diag)
{
    int rc = DGPB_OK;
    dgpb_process *procs = dgpb_calloc(count, sizeof *procs);
    const char **argvs = NULL;
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += jobs[i].arg_count + 2;
    argvs = dgpb_calloc(total, sizeof *argvs);
    if (!procs || !argvs) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    const char **at = argvs;
    for (size_t i = 0; i < count; i++) {
        procs[i] = (dgpb_process)DGPB_PROCESS_INIT;
        procs[i].argv = at;
        procs[i].cwd = c->cwd;
        *at++ = c->path;
        for (size_t k = 0; k < jobs[i].arg_count; k++)
            *at++ = jobs[i].args[k];
        *at++ = NULL;
    }
    dgpb_diag local;
    dgpb_diag_clear(&local);
    rc = dgpb_process_run_parallel(procs, count, parallel, &local);
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

/* ---- embedded slangc-wasm: --serve workers ------------------------------ */

static void worker_keep_err(worker *w, const char *data, size_t n)
{
    dgpb_bytebuf_append(&w->err, data, n);
    if (w->err.failed) { /* only messages suffer: start again */
        dgpb_bytebuf_free(&w->err);
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

/* Starts the worker in slot w (new or retired). */
static int worker_start(dgpb_compiler *c, worker *w, dgpb_diag *diag)
{
    dgpb_process_clear(&w->proc);
    w->proc = (dgpb_process)DGPB_PROCESS_INIT;
    w->argv[0] = c->path;
    w->argv[1] = "--serve";
    w->argv[2] = NULL;
    w->proc.argv = w->argv;
    w->proc.cwd = c->cwd;
    w->proc.flags = DGPB_PROCESS_PIPES;
    w->job = NO_JOB;
    w->line.len = 0;
    w->line.failed = false;
    w->err.len = 0;
    w->err.failed = false;
    int rc = dgpb_process_start(&w->proc, diag);
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
static void worker_failed(dgpb_compiler *c, worker *w, dgpb_compile_job *jobs, bool kill_it,
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
    char during[600] = "";
    if (job != NO_JOB)
        snprintf(during, sizeof during, " while compiling job %zu ('%.500s')", job + 1,
                 jobs[job].arg_count ? jobs[job].args[0] : "");
    const char *err;
    int err_len;
    worker_err_tail(w, &err, &err_len);
    char *msg = dgpb_strprintf("%s --serve worker %u (pid %d) %s%s; its standard error: %.*s",
                               base_name(c->path), w->id, pid, how, during, err_len, err);
    if (job != NO_JOB) {
        jobs[job].status = -1;
        dgpb_free(jobs[job].diagnostics);
        jobs[job].diagnostics = msg ? dgpb_strdup(msg) : NULL;
    }
    if (fail->code == DGPB_OK)
        dgpb_diag_set(fail, msg ? DGPB_ERR_TOOL : DGPB_ERR_NOMEM, -1, "%s",
                      msg ? msg : "out of memory");
    dgpb_free(msg);
}

/* Sends job `i` to an idle worker as one JSON line. */
static int worker_send(worker *w, const dgpb_compile_job *job, size_t i, dgpb_diag *diag)
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
    char *d = dgpb_strdup(diagnostics->valuestring);
    char *o = dgpb_strdup(out ? out->valuestring : "");
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
static bool worker_read_out(dgpb_compiler *c, worker *w, dgpb_compile_job *jobs, size_t *in_flight,
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
    dgpb_bytebuf_append(&w->line, buf, (size_t)n);
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
static void sweep_idle(dgpb_compiler *c)
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
static int ensure_workers(dgpb_compiler *c, size_t want, dgpb_diag *diag)
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
        worker **grown = dgpb_realloc(c->workers, (c->worker_count + 1) * sizeof *grown);
        if (!grown)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        c->workers = grown;
        worker *w = dgpb_calloc(1, sizeof *w);
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

static int run_embedded(dgpb_compiler *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                        dgpb_diag *diag)
{
    size_t want = parallel < count ? parallel : count;
    dgpb_diag fail;
    dgpb_diag_clear(&fail);
    struct pollfd *pfds = NULL;
    worker **owners = NULL;
    size_t next = 0, in_flight = 0;
    sweep_idle(c);
    if (ensure_workers(c, want, &fail))
        goto done;
    pfds = dgpb_calloc(2 * c->worker_count, sizeof *pfds);
    owners = dgpb_calloc(2 * c->worker_count, sizeof *owners);
    if (!pfds || !owners) {
        dgpb_diag_set(&fail, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    for (;;) {
        for (size_t i = 0; i < c->worker_count && !fail.code && next < count && in_flight < want;
             i++) {
            worker *w = c->workers[i];
            if (!w->alive || w->job != NO_JOB)
                continue;
            dgpb_diag local;
            dgpb_diag_clear(&local);
            if (worker_send(w, &jobs[next], next, &local) == DGPB_OK) {
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
        if (poll(pfds, k, -1) < 0) {
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
        return run_embedded(c, jobs, count, parallel, diag);
    return run_native(c, jobs, count, parallel, diag);
}

void dgpb_compiler_destroy(dgpb_compiler *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->worker_count; i++) {
        worker *w = c->workers[i];
        worker_retire(w, false);
        dgpb_process_clear(&w->proc);
        dgpb_bytebuf_free(&w->line);
        dgpb_bytebuf_free(&w->err);
        dgpb_free(w);
    }
    dgpb_free(c->workers);
    dgpb_free(c->path);
    dgpb_free(c->origin);
    dgpb_free(c->cwd);
    dgpb_free(c->version);
    dgpb_free(c);
}
