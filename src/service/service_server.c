/*
 * service_server.c - the compile service's process (service/service_server.h,
 * docs/service.md): `dgpb-build --service-daemon`.
 *
 * One thread, one poll() loop over the listening socket, the clients'
 * sockets and the workers' standard output and error. A client's jobs wait
 * in its own queue; whenever a worker is idle (or fewer than the maximum
 * run), the next job is taken round-robin across the clients that have
 * queued jobs and fewer running than their `parallel`, so concurrent builds
 * (Ninja's -j) share the workers fairly. Workers are the same `--serve`
 * processes a build's own pool runs (compiler/worker_client.h), started on demand
 * and kept warm; a job line carries the client's working folder.
 *
 * A client that closes its connection (a build interrupted, or one that
 * gave up) loses its queued jobs, and the workers busy with its jobs are
 * killed (and replaced on demand); the other clients go on. A worker that
 * dies or answers garbage fails its job with {"job", "failed"}: the client
 * runs the rest itself. Every connection's peer must be this user
 * (SO_PEERCRED); any other is closed and logged. The log is standard error,
 * which the client that started the service made `<name>.log`.
 */
#define _GNU_SOURCE /* accept4, struct ucred */
#include "service/service_server.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "compiler/compiler_internal.h"
#include "compiler/worker_client.h"
#include "core/alloc.h"
#include "dgpb/compiler.h"
#include "dgpb/service.h"
#include "service/service_path.h"
#include "service/service_protocol.h"

#define ALIVE_EVERY 1.0 /* seconds: the longest silence towards a client with jobs */
#define TICK_MS 250     /* the loop's longest sleep while jobs are out */

/* One job of a client: waiting in its queue, or running on a worker. */
typedef struct sjob {
    uint64_t id;
    char *line;   /* the worker's job line: {"cwd": ..., "args"|"layout": [...]} */
    char *during; /* " while compiling entry ... (job N, module ...)", for messages */
} sjob;

typedef struct client {
    service_conn conn;
    unsigned number; /* for the log */
    int pid;         /* the client's, from its hello */
    int peer;        /* the peer's pid, from SO_PEERCRED */
    bool greeted;    /* its hello was answered */
    bool closing;    /* drop it once its answer is sent (after an error) */
    sjob *queue;     /* waiting jobs: queue[head .. len) */
    size_t head, len, cap;
    unsigned running;  /* its jobs on workers */
    unsigned parallel; /* how many of its jobs may run at once */
    double last_sent;
} client;

/* One worker and the job it runs. */
typedef struct slot {
    worker w; /* w.owner: the client whose job it runs */
    sjob job;
    double idle_since; /* when its last job ended (or it started) */
} slot;

typedef struct server {
    const service_serve_desc *d;
    char identity[SERVICE_IDENTITY_HEX];
    char socket[DGPB_SERVICE_PATH_MAX];
    dev_t socket_dev;
    ino_t socket_ino;
    int listen_fd;
    dgpb_compiler *compiler;
    const char *const *argv; /* the workers' command (the compiler's); NULL: no workers */
    char local[1024];        /* why there are none */
    char *tmp, *tmp_env[2];  /* the workers' TMPDIR */
    int tmp_owner;           /* its owner lock, held while the service lives (-1: none) */
    slot *slots;             /* at most this many workers */
    size_t slot_count;
    unsigned started; /* workers started, replacements included */
    client **clients;
    size_t client_count, client_cap;
    size_t rr; /* the client whose turn is next */
    unsigned clients_seen;
    double idle_limit;
    bool stop;
    client *stopper; /* the client that asked it to stop: its connection closes last */
} server;

static volatile sig_atomic_t signalled;

static void on_signal(int sig)
{
    signalled = sig;
}

/* One line in the log (standard error): the time, the pid, the text. */
static void say(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void say(const char *fmt, ...)
{
    char when[64];
    time_t t = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
    char text[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s dgpb-build service %d: %s\n", when, (int)getpid(), text);
    fflush(stderr);
}

static void sjob_free(sjob *j)
{
    dgpb_free(j->line);
    dgpb_free(j->during);
    j->line = j->during = NULL;
}

/* Queues a message to a client; a client that cannot take it (memory) is dropped later. */
static void send_to(client *c, cJSON *msg)
{
    if (!msg || !service_conn_put(&c->conn, msg))
        c->closing = true;
    cJSON_Delete(msg);
    c->last_sent = service_now();
}

/* {"job": ID, ...}: a new message with the job's number. */
static cJSON *job_message(uint64_t id)
{
    cJSON *msg = cJSON_CreateObject();
    if (msg && !cJSON_AddNumberToObject(msg, "job", (double)id)) {
        cJSON_Delete(msg);
        msg = NULL;
    }
    return msg;
}

/* Tells a client that its job failed in the service, for a reason it should run it itself. */
static void send_failed(client *c, uint64_t id, const char *why)
{
    cJSON *msg = job_message(id);
    if (msg && !cJSON_AddStringToObject(msg, "failed", why)) {
        cJSON_Delete(msg);
        msg = NULL;
    }
    send_to(c, msg);
}

/* Tells a client it is refused, and drops it once that is sent. */
static void send_error(client *c, const char *why)
{
    cJSON *msg = cJSON_CreateObject();
    if (msg && !cJSON_AddStringToObject(msg, "error", why)) {
        cJSON_Delete(msg);
        msg = NULL;
    }
    send_to(c, msg);
    c->closing = true;
}

/* ---- workers ---- */

static bool busy(const server *sv)
{
    for (size_t i = 0; i < sv->slot_count; i++)
        if (sv->slots[i].w.job != WORKER_NO_JOB)
            return true;
    return false;
}

/*
 * A worker failed (it exited, or answered garbage: `what`): retire it, and
 * tell the owner of its job, which runs that job (and the rest) itself.
 */
static void worker_lost(server *sv, slot *s, bool kill_it, const char *what)
{
    client *owner = s->w.owner;
    int pid = s->w.proc.pid;
    int status = worker_retire(&s->w, kill_it);
    char *msg = worker_failure_message(&s->w, sv->argv[0], pid, status, what, s->job.during);
    say("%s", msg ? msg : "a worker failed (out of memory)");
    if (owner && s->job.line) {
        send_failed(owner, s->job.id, msg ? msg : "a worker failed (out of memory)");
        owner->running--;
    }
    sjob_free(&s->job);
    dgpb_free(msg);
}

/* A worker answered: the answer goes to the owner of its job, and the worker is idle. */
static void worker_answered(server *sv, slot *s, const char *line, size_t len)
{
    int status = 0;
    char *diagnostics = NULL, *output = NULL;
    bool checked = false;
    int rc = worker_parse_answer(line, len, &status, &diagnostics, &output, &checked);
    if (rc) {
        char what[300];
        snprintf(what, sizeof what, "answered something that is not an answer: '%.*s'",
                 (int)(len < 200 ? len : 200), line);
        worker_lost(sv, s, true, rc == DGPB_ERR_NOMEM ? "answered (out of memory)" : what);
        return;
    }
    client *owner = s->w.owner;
    cJSON *msg = job_message(s->job.id);
    if (msg && (!cJSON_AddNumberToObject(msg, "status", status) ||
                !cJSON_AddStringToObject(msg, "diagnostics", diagnostics) ||
                !cJSON_AddStringToObject(msg, "output", output) ||
                (checked && !cJSON_AddBoolToObject(msg, "checked", true)))) {
        cJSON_Delete(msg);
        msg = NULL;
    }
    send_to(owner, msg);
    owner->running--;
    dgpb_free(diagnostics);
    dgpb_free(output);
    sjob_free(&s->job);
    s->w.job = WORKER_NO_JOB;
    s->w.owner = NULL;
    s->idle_since = service_now();
}

/* Reads a worker's standard output and takes each answer it completes. */
static void worker_readable(server *sv, slot *s)
{
    worker_read got = worker_read_out(&s->w);
    if (got == WORKER_READ_EOF) {
        if (s->w.job == WORKER_NO_JOB) { /* an idle worker that ended: replaced on demand */
            int status = worker_retire(&s->w, false);
            say("idle worker %u exited with status %d", s->w.id, status);
        } else {
            worker_lost(sv, s, false, NULL);
        }
        return;
    }
    if (got == WORKER_READ_TOO_LONG) {
        worker_lost(sv, s, true, "printed an answer too long to keep");
        return;
    }
    const char *line;
    size_t len;
    while (s->w.alive && worker_next_line(&s->w, &line, &len)) {
        if (s->w.job == WORKER_NO_JOB) {
            worker_lost(sv, s, true, "printed without being asked");
            return;
        }
        worker_answered(sv, s, line, len);
        if (s->w.alive)
            worker_drop_line(&s->w, len);
    }
}

/* Gives a job to a worker (started first when need be). False when it could not. */
static bool give(server *sv, slot *s, client *c, sjob *job)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (!s->w.alive) {
        if (worker_start(&s->w, sv->argv, "/", (const char *const *)sv->tmp_env, &d)) {
            say("cannot start a worker: %s", d.message);
            send_failed(c, job->id, d.message);
            sjob_free(job);
            c->closing = true; /* it runs its jobs itself now: drop it once told */
            return false;
        }
        sv->started++;
        s->idle_since = service_now();
    }
    s->job = *job;
    s->w.job = job->id;
    s->w.owner = c;
    c->running++;
    if (worker_send_line(&s->w, job->line, &d)) {
        char what[DGPB_DIAG_MESSAGE_MAX + 32];
        snprintf(what, sizeof what, "stopped reading jobs (%s)", d.message);
        worker_lost(sv, s, true, what);
        return false;
    }
    cJSON *msg = job_message(job->id);
    if (msg && !cJSON_AddBoolToObject(msg, "started", true)) {
        cJSON_Delete(msg);
        msg = NULL;
    }
    send_to(c, msg);
    return true;
}

/* The next client, round-robin, that has a job waiting and room to run it; NULL when none. */
static client *next_client(server *sv)
{
    for (size_t k = 0; k < sv->client_count; k++) {
        size_t i = (sv->rr + k) % sv->client_count;
        client *c = sv->clients[i];
        if (c->head < c->len && c->running < c->parallel && !c->closing) {
            sv->rr = i + 1;
            return c;
        }
    }
    return NULL;
}

/* Hands waiting jobs to idle workers, and to new ones while fewer than the maximum run. */
static void dispatch(server *sv)
{
    for (;;) {
        slot *free = NULL;
        for (size_t i = 0; i < sv->slot_count && !free; i++)
            if (sv->slots[i].w.alive && sv->slots[i].w.job == WORKER_NO_JOB)
                free = &sv->slots[i];
        for (size_t i = 0; i < sv->slot_count && !free; i++)
            if (!sv->slots[i].w.alive)
                free = &sv->slots[i];
        if (!free)
            return;
        client *c = next_client(sv);
        if (!c)
            return;
        sjob job = c->queue[c->head++];
        if (c->head == c->len)
            c->head = c->len = 0;
        give(sv, free, c, &job);
    }
}

/* ---- clients ---- */

/* Drops a client: its waiting jobs go, its running jobs' workers are killed. */
static void drop_client(server *sv, client *c, const char *why)
{
    unsigned killed = 0;
    for (size_t i = 0; i < sv->slot_count; i++) {
        slot *s = &sv->slots[i];
        if (s->w.owner != c)
            continue;
        worker_retire(&s->w, true);
        sjob_free(&s->job);
        killed++;
    }
    size_t waiting = c->len - c->head;
    for (size_t i = c->head; i < c->len; i++)
        sjob_free(&c->queue[i]);
    if (waiting || killed || why)
        say("client %u (pid %d) %s: %zu waiting job%s dropped, %u worker%s killed", c->number,
            c->pid, why ? why : "left", waiting, waiting == 1 ? "" : "s", killed,
            killed == 1 ? "" : "s");
    dgpb_free(c->queue);
    service_conn_close(&c->conn);
    size_t at = 0;
    while (at < sv->client_count && sv->clients[at] != c)
        at++;
    if (at < sv->client_count) {
        memmove(sv->clients + at, sv->clients + at + 1,
                (sv->client_count - at - 1) * sizeof *sv->clients);
        sv->client_count--;
        if (sv->rr > at)
            sv->rr--;
    }
    if (sv->stopper == c)
        sv->stopper = NULL;
    dgpb_free(c);
}

/* {"hello": 1, "identity": HEX, "pid": N}: answered with the service's state, or refused. */
static void take_hello(server *sv, client *c, const cJSON *root)
{
    uint64_t version = 0, pid = 0;
    const cJSON *identity = cJSON_GetObjectItemCaseSensitive(root, "identity");
    if (!service_get_id(root, "hello", &version) || version != SERVICE_PROTOCOL) {
        send_error(c, "this service speaks protocol 1 only");
        return;
    }
    if (!cJSON_IsString(identity) || strcmp(identity->valuestring, sv->identity)) {
        char why[200];
        snprintf(why, sizeof why,
                 "this service runs another compiler or context (identity %.16s, not %.16s)",
                 sv->identity, cJSON_IsString(identity) ? identity->valuestring : "none");
        send_error(c, why);
        return;
    }
    char differs[300];
    if (!service_peer_same(c->peer, differs, sizeof differs)) {
        say("refused client %u: %s", c->number, differs);
        send_error(c, differs);
        return;
    }
    if (service_get_id(root, "pid", &pid) && pid <= INT_MAX)
        c->pid = (int)pid;
    cJSON *msg = cJSON_CreateObject();
    bool ok = msg && cJSON_AddNumberToObject(msg, "hello", SERVICE_PROTOCOL) &&
              cJSON_AddNumberToObject(msg, "pid", (double)getpid()) &&
              cJSON_AddNumberToObject(msg, "workers", sv->argv ? (double)sv->slot_count : 0) &&
              cJSON_AddNumberToObject(msg, "started", sv->started) &&
              (sv->argv || cJSON_AddStringToObject(msg, "local", sv->local));
    if (!ok) {
        cJSON_Delete(msg);
        msg = NULL;
    }
    send_to(c, msg);
    c->greeted = true;
}

/* {"job": ID, "cwd": "/abs", "args": [...], "layout": B, "layout_output": F, "parallel": P,
   "keep": B, "checked_as": [...]}. */
static void take_job(server *sv, client *c, const cJSON *root)
{
    uint64_t id = 0, parallel = 0;
    const cJSON *cwd = cJSON_GetObjectItemCaseSensitive(root, "cwd");
    const cJSON *layout = cJSON_GetObjectItemCaseSensitive(root, "layout");
    const cJSON *output = cJSON_GetObjectItemCaseSensitive(root, "layout_output");
    const cJSON *keep = cJSON_GetObjectItemCaseSensitive(root, "keep");
    const cJSON *has_checked = cJSON_GetObjectItemCaseSensitive(root, "checked_as");
    size_t n = 0, checked_n = 0;
    bool nomem = false, checked_nomem = false;
    const char **args = service_get_string_array(root, "args", &n, &nomem);
    const char **checked =
        has_checked ? service_get_string_array(root, "checked_as", &checked_n, &checked_nomem)
                    : NULL;
    nomem = nomem || checked_nomem;
    if (!c->greeted || !sv->argv || !service_get_id(root, "job", &id) || !cJSON_IsString(cwd) ||
        cwd->valuestring[0] != '/' || (layout && !cJSON_IsBool(layout)) || !args ||
        (output && !cJSON_IsString(output)) || (keep && !cJSON_IsBool(keep)) ||
        (has_checked && !checked) ||
        (cJSON_GetObjectItemCaseSensitive(root, "parallel") &&
         (!service_get_id(root, "parallel", &parallel) || parallel < 1 || parallel > 1024))) {
        send_error(c, nomem         ? "out of memory"
                      : !c->greeted ? "a job before hello"
                      : !sv->argv   ? "this service has no workers"
                                    : "a job message without a number, an absolute cwd or "
                                      "its arguments");
        dgpb_free(args);
        dgpb_free(checked);
        return;
    }
    bool is_layout = cJSON_IsTrue(layout);
    if (parallel)
        c->parallel = (unsigned)parallel;
    if (is_layout && dgpb_compiler_is_embedded(sv->compiler)) {
        send_failed(c, id, "the embedded compiler's workers record no layouts");
        dgpb_free(args);
        dgpb_free(checked);
        return;
    }
    /* Only native workers record a compile's layout (dgpb_compile_job.layout_output). */
    const char *layout_output =
        output && !dgpb_compiler_is_embedded(sv->compiler) ? output->valuestring : NULL;
    /* Only native workers keep checked modules (dgpb_compile_job.keep, checked_as). */
    worker_share share = {cJSON_IsTrue(keep), checked, checked_n};
    bool native = !dgpb_compiler_is_embedded(sv->compiler);
    sjob job = {id,
                worker_job_line(args, n, is_layout, layout_output, cwd->valuestring,
                                native ? &share : NULL),
                mem_calloc(1, 700)};
    dgpb_free(checked);
    if (job.during)
        worker_describe_job(args, n, is_layout, (size_t)id, job.during, 700);
    dgpb_free(args);
    if (c->len == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        sjob *grown = mem_realloc(c->queue, cap * sizeof *grown);
        if (grown) {
            c->queue = grown;
            c->cap = cap;
        }
    }
    if (!job.line || !job.during || c->len == c->cap) {
        sjob_free(&job);
        send_error(c, "out of memory");
        return;
    }
    c->queue[c->len++] = job;
}

/* One message from a client. */
static void take_line(server *sv, client *c, const char *line, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(line, len);
    if (!cJSON_IsObject(root))
        send_error(c, "not a message of this protocol");
    else if (cJSON_GetObjectItemCaseSensitive(root, "stop")) {
        say("stopped by client %u", c->number);
        cJSON *msg = cJSON_CreateObject();
        if (msg && !cJSON_AddNumberToObject(msg, "stopped", (double)getpid())) {
            cJSON_Delete(msg);
            msg = NULL;
        }
        send_to(c, msg);
        sv->stop = true;
        sv->stopper = c;
    } else if (cJSON_GetObjectItemCaseSensitive(root, "hello"))
        take_hello(sv, c, root);
    else if (cJSON_GetObjectItemCaseSensitive(root, "job"))
        take_job(sv, c, root);
    else
        send_error(c, "not a message of this protocol");
    cJSON_Delete(root);
}

/* Reads a client's socket and takes each message it completes; drops the client when it ends. */
static void client_readable(server *sv, client *c)
{
    service_io io = service_conn_read(&c->conn);
    const char *line;
    size_t len;
    while (!c->closing && service_conn_line(&c->conn, &line, &len)) {
        take_line(sv, c, line, len);
        service_conn_drop(&c->conn, len);
    }
    if (io == SERVICE_IO_TOO_LONG)
        send_error(c, "a message longer than the service reads");
    else if (io != SERVICE_IO_OK)
        drop_client(sv, c, NULL);
}

/* Accepts a connection: this user's only. */
static void accept_client(server *sv)
{
    int fd = accept4(sv->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0)
        return;
    struct ucred cred;
    socklen_t size = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) || cred.uid != getuid()) {
        say("refused a connection from user %d (pid %d): this service serves user %u only",
            size == sizeof cred ? (int)cred.uid : -1, size == sizeof cred ? (int)cred.pid : -1,
            (unsigned)getuid());
        close(fd);
        return;
    }
    client *c = mem_calloc(1, sizeof *c);
    if (c && sv->client_count == sv->client_cap) {
        size_t cap = sv->client_cap ? 2 * sv->client_cap : 8;
        client **grown = mem_realloc(sv->clients, cap * sizeof *grown);
        if (grown) {
            sv->clients = grown;
            sv->client_cap = cap;
        }
    }
    if (!c || sv->client_count == sv->client_cap) {
        dgpb_free(c);
        close(fd);
        return;
    }
    service_conn_init(&c->conn, fd, SERVICE_REQUEST_MAX);
    c->peer = (int)cred.pid;
    c->number = ++sv->clients_seen;
    c->parallel = 1;
    c->last_sent = service_now();
    sv->clients[sv->client_count++] = c;
}

/* ---- the loop ---- */

/*
 * Ends what no client needs: a worker idle for the idle limit (a later job
 * starts one again), and, with no client connected, a worker still marked
 * with a job (whose owner is gone), so that the service's idle time counts
 * from its last client whatever that client did.
 */
static void retire_unneeded(server *sv, double now)
{
    for (size_t i = 0; i < sv->slot_count; i++) {
        slot *s = &sv->slots[i];
        if (!s->w.alive)
            continue;
        if (s->w.job == WORKER_NO_JOB && now - s->idle_since >= sv->idle_limit) {
            say("worker %u idle for %.0f s: ended", s->w.id, now - s->idle_since);
            worker_retire(&s->w, false);
        } else if (s->w.job != WORKER_NO_JOB && !sv->client_count) {
            say("worker %u runs a job of no client: killed", s->w.id);
            worker_retire(&s->w, true);
            sjob_free(&s->job);
        }
    }
}

/* {"alive": 1} to each client with jobs out that has heard nothing for a second. */
static void keep_alive(server *sv, double now)
{
    for (size_t i = 0; i < sv->client_count; i++) {
        client *c = sv->clients[i];
        if ((c->head < c->len || c->running) && now - c->last_sent >= ALIVE_EVERY) {
            cJSON *msg = cJSON_CreateObject();
            if (msg && !cJSON_AddNumberToObject(msg, "alive", 1)) {
                cJSON_Delete(msg);
                msg = NULL;
            }
            send_to(c, msg);
        }
    }
}

/* Sends what is queued to each client; drops those that are gone or done. */
static void flush_clients(server *sv)
{
    for (size_t i = 0; i < sv->client_count;) {
        client *c = sv->clients[i];
        service_io io = service_conn_flush(&c->conn);
        if (io != SERVICE_IO_OK ||
            (c->closing && !service_conn_pending(&c->conn) && sv->stopper != c)) {
            drop_client(sv, c, c->closing ? "was refused" : NULL);
            continue;
        }
        i++;
    }
}

static int serve_loop(server *sv, dgpb_diag *diag)
{
    struct pollfd *pfds = NULL;
    void **owners = NULL;
    size_t cap = 0;
    double idle_since = service_now();
    int rc = DGPB_OK;
    while (!signalled && !sv->stop) {
        dispatch(sv);
        double now = service_now();
        keep_alive(sv, now);
        flush_clients(sv);
        retire_unneeded(sv, now);
        bool out = busy(sv);
        for (size_t i = 0; i < sv->client_count && !out; i++)
            out = sv->clients[i]->len > sv->clients[i]->head;
        if (sv->client_count || out)
            idle_since = now;
        else if (now - idle_since >= sv->idle_limit) {
            say("idle for %.0f s: exiting", sv->idle_limit);
            break;
        }
        size_t need = 1 + sv->client_count + 2 * sv->slot_count;
        if (need > cap) {
            struct pollfd *p = mem_realloc(pfds, need * sizeof *p);
            void **o = p ? mem_realloc(owners, need * sizeof *o) : NULL;
            if (p)
                pfds = p;
            if (o)
                owners = o;
            if (!p || !o) {
                rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
                break;
            }
            cap = need;
        }
        nfds_t k = 0;
        pfds[k] = (struct pollfd){sv->listen_fd, POLLIN, 0};
        owners[k++] = NULL;
        for (size_t i = 0; i < sv->client_count; i++) {
            client *c = sv->clients[i];
            pfds[k] = (struct pollfd){
                c->conn.fd, (short)(POLLIN | (service_conn_pending(&c->conn) ? POLLOUT : 0)), 0};
            owners[k++] = c;
        }
        size_t first_worker = k;
        for (size_t i = 0; i < sv->slot_count; i++) {
            worker *w = &sv->slots[i].w;
            pfds[k] = (struct pollfd){w->alive ? w->proc.out_fd : -1, POLLIN, 0};
            owners[k++] = &sv->slots[i];
            pfds[k] = (struct pollfd){w->alive ? w->proc.err_fd : -1, POLLIN, 0};
            owners[k++] = &sv->slots[i];
        }
        int wait = out ? TICK_MS : 1000;
        double left = sv->idle_limit - (now - idle_since);
        if (!out && !sv->client_count && left * 1000 < wait)
            wait = left > 0 ? (int)(left * 1000) + 1 : 0;
        if (poll(pfds, k, wait) < 0) {
            if (errno == EINTR)
                continue;
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, errno, "poll: %s", strerror(errno));
            break;
        }
        /* Workers first: their answers may go to clients read below. */
        for (nfds_t i = first_worker; i < k; i++) {
            slot *s = owners[i];
            if (!pfds[i].revents || !s->w.alive)
                continue;
            if (pfds[i].fd == s->w.proc.err_fd)
                worker_read_err(&s->w);
            else if (pfds[i].fd == s->w.proc.out_fd)
                worker_readable(sv, s);
        }
        for (nfds_t i = 1; i < first_worker; i++) {
            client *c = owners[i];
            bool still = false;
            for (size_t j = 0; j < sv->client_count && !still; j++)
                still = sv->clients[j] == c;
            if (still && (pfds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                client_readable(sv, c);
        }
        if (pfds[0].revents & POLLIN)
            accept_client(sv);
    }
    if (signalled)
        say("ended by signal %d", (int)signalled);
    dgpb_free(pfds);
    dgpb_free(owners);
    return rc;
}

/* ---- start and end ---- */

/*
 * Binds the socket (mode 0600 under umask 077, in the 0700 folder) and
 * listens. *taken is set when another service answers on it already.
 */
static int bind_socket(server *sv, bool *taken, dgpb_diag *diag)
{
    *taken = false;
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(sv->socket) >= sizeof a.sun_path)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "the socket path '%s' is too long",
                             sv->socket);
    memcpy(a.sun_path, sv->socket, strlen(sv->socket) + 1);
    mode_t saved = umask(077);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int rc = DGPB_OK;
    if (fd < 0) {
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, errno, "socket: %s", strerror(errno));
    } else if (bind(fd, (struct sockaddr *)&a, sizeof a)) {
        int probe = errno == EADDRINUSE ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
        struct stat st;
        if (probe >= 0 && !connect(probe, (struct sockaddr *)&a, sizeof a))
            *taken = true;
        else if (probe >= 0 && !lstat(sv->socket, &st) && S_ISSOCK(st.st_mode) &&
                 !unlink(sv->socket) && !bind(fd, (struct sockaddr *)&a, sizeof a))
            ; /* a service that is gone left its socket */
        else
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, errno, "cannot bind '%s': %s", sv->socket,
                               strerror(errno));
        if (probe >= 0)
            close(probe);
    }
    umask(saved);
    struct stat st;
    if (!rc && !*taken && (listen(fd, 128) || stat(sv->socket, &st)))
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, errno, "cannot listen on '%s': %s", sv->socket,
                           strerror(errno));
    if (rc || *taken) {
        if (fd >= 0)
            close(fd);
        return rc;
    }
    sv->socket_dev = st.st_dev;
    sv->socket_ino = st.st_ino;
    sv->listen_fd = fd;
    return DGPB_OK;
}

/* Closes the socket, and removes it when the file is still this service's. */
static void unbind_socket(server *sv)
{
    if (sv->listen_fd < 0)
        return;
    struct stat st;
    if (!lstat(sv->socket, &st) && st.st_dev == sv->socket_dev && st.st_ino == sv->socket_ino)
        unlink(sv->socket);
    close(sv->listen_fd);
    sv->listen_fd = -1;
}

/* Chooses the workers: the compiler's --serve command, or none (with why). */
static int set_up_workers(server *sv, dgpb_diag *diag)
{
    const char *why = NULL;
    dgpb_compiler_mode mode = dgpb_compiler_mode_of(sv->compiler, &why);
    if (mode == DGPB_COMPILER_PROCESSES) {
        snprintf(sv->local, sizeof sv->local, "%s", why ? why : "its compiles run as processes");
        say("no workers: %s", sv->local);
    } else {
        sv->argv = compiler_serve_argv(sv->compiler);
    }
    long workers = service_env_number("DGPB_SERVICE_WORKERS", 0, 1, 1024);
    sv->slot_count = workers ? (size_t)workers : dgpb_compiler_parallel(sv->compiler, 0, 1024);
    sv->slots = mem_calloc(sv->slot_count, sizeof *sv->slots);
    if (!sv->slots)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    for (size_t i = 0; i < sv->slot_count; i++) {
        sv->slots[i].w.id = (unsigned)i + 1;
        sv->slots[i].w.job = WORKER_NO_JOB;
        sv->slots[i].w.proc = (dgpb_process)DGPB_PROCESS_INIT;
    }
    int rc = worker_make_tmp(sv->d->dir, &sv->tmp, &sv->tmp_env[0], diag);
    if (!rc && (sv->tmp_owner = service_workers_claim(sv->tmp, diag)) < 0)
        rc = DGPB_ERR_IO;
    return rc;
}

static void shut_down(server *sv)
{
    unbind_socket(sv);
    for (size_t i = 0; i < sv->slot_count; i++) {
        slot *s = &sv->slots[i];
        worker_retire(&s->w, s->w.job != WORKER_NO_JOB);
        worker_free(&s->w);
        sjob_free(&s->job);
    }
    while (sv->client_count)
        drop_client(sv, sv->clients[sv->client_count - 1], NULL);
    dgpb_free(sv->clients);
    dgpb_free(sv->slots);
    worker_remove_tmp(sv->tmp);
    service_unlock(sv->tmp_owner);
    dgpb_free(sv->tmp);
    dgpb_free(sv->tmp_env[0]);
    dgpb_compiler_destroy(sv->compiler);
}

int service_serve(const service_serve_desc *d, dgpb_diag *diag)
{
    server sv;
    memset(&sv, 0, sizeof sv);
    sv.d = d;
    sv.listen_fd = -1;
    sv.tmp_owner = -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    const char *const embedded[] = {d->compiler, NULL};
    /* A native library with no slangc comes as both --slangc and --slang-lib. */
    bool library = d->slang_lib && !strcmp(d->compiler, d->slang_lib);
    dgpb_compiler_desc cd = {.path = library ? NULL : d->compiler,
                             .embedded = d->embedded ? embedded : NULL,
                             .recorder = d->recorder,
                             .slang_lib = d->slang_lib};
    service_identity_desc id = {d->program, d->compiler, d->embedded, d->recorder, d->slang_lib};
    bool taken = false;
    int rc = service_dir_check(d->dir, diag);
    if (!rc)
        rc = service_file(d->dir, d->name, ".sock", sv.socket, sizeof sv.socket, diag);
    if (!rc)
        rc = service_identity(&id, sv.identity, diag);
    if (!rc &&
        (strlen(d->name) != SERVICE_NAME_LEN || strncmp(sv.identity, d->name, SERVICE_NAME_LEN)))
        rc = dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                           "the compiler's identity is %.16s, not %s: its files changed since "
                           "the client looked",
                           sv.identity, d->name);
    if (!rc) {
        unsigned swept = service_workers_sweep(d->dir);
        if (swept)
            say("removed %u workers' folder%s left by services that are gone", swept,
                swept == 1 ? "" : "s");
        rc = dgpb_compiler_create(&cd, &sv.compiler, diag);
    }
    if (!rc)
        rc = set_up_workers(&sv, diag);
    if (!rc)
        rc = bind_socket(&sv, &taken, diag);
    sv.idle_limit = (double)service_env_number("DGPB_SERVICE_IDLE_SECONDS", 300, 1, 86400 * 365);
    if (!rc && taken)
        say("another service answers on '%s' already: exiting", sv.socket);
    else if (!rc) {
        say("serving %s on '%s' with at most %zu worker%s (%s), identity %s", d->compiler,
            sv.socket, sv.slot_count, sv.slot_count == 1 ? "" : "s", sv.argv ? "warm" : "none",
            sv.identity);
        rc = serve_loop(&sv, diag);
        flush_clients(&sv); /* {"stopped"} to whoever asked */
    }
    shut_down(&sv);
    return rc;
}

/* ---- the command line ---- */

int dgpb_service_daemon(int argc, char *const *argv, dgpb_diag *diag)
{
    service_serve_desc d;
    memset(&d, 0, sizeof d);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **value = !strcmp(a, "--dir")         ? &d.dir
                             : !strcmp(a, "--name")      ? &d.name
                             : !strcmp(a, "--program")   ? &d.program
                             : !strcmp(a, "--slangc")    ? &d.compiler
                             : !strcmp(a, "--recorder")  ? &d.recorder
                             : !strcmp(a, "--slang-lib") ? &d.slang_lib
                                                         : NULL;
        if (!strcmp(a, "--embedded"))
            d.embedded = true;
        else if (value && i + 1 < argc)
            *value = argv[++i];
        else {
            int rc = dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                   "--service-daemon: unknown or incomplete argument '%s'", a);
            say("%s", diag ? diag->message : "bad arguments");
            return rc;
        }
    }
    if (!d.dir || !d.name || !d.program || !d.compiler) {
        int rc = dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                               "--service-daemon needs --dir, --name, --program and --slangc");
        say("%s", diag ? diag->message : "bad arguments");
        return rc;
    }
    dgpb_diag local;
    dgpb_diag_clear(&local);
    int rc = service_serve(&d, &local);
    if (rc)
        say("cannot serve: %s", local.message);
    if (diag)
        *diag = local;
    return rc;
}
