/*
 * process.c - child processes (io/process.h).
 *
 * fork() + execve(), git's way: the parent resolves the program on PATH and
 * builds the environment before forking, so the child only calls
 * async-signal-safe functions (dup2, sigaction, chdir, execve, write,
 * _exit). A close-on-exec pipe carries {stage, errno} from a child whose
 * chdir or execve failed; a successful execve closes it, so the parent's read
 * returns 0. Every pipe end is close-on-exec and numbered above 2, so the
 * dup2() onto 0, 1 and 2 in the child never clobbers another end.
 *
 * The pump: one poll() round over the open pipes of a set of running
 * children, writing standard input (non-blocking) and reading both outputs
 * into growing buffers. process_finish() pumps one child until its
 * pipes are closed; process_run_parallel() pumps up to J at a time.
 */
#define _GNU_SOURCE /* pipe2, environ */
#include "io/process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"

extern char **environ;

enum { STATE_NEW = 0, STATE_RUNNING = 1, STATE_FINISHED = 2 };
enum { STAGE_DUP = 1, STAGE_CHDIR = 2, STAGE_EXEC = 3 };
enum { STREAM_IN = 0, STREAM_OUT = 1, STREAM_ERR = 2 };

#define READ_CHUNK 65536

/* One polled pipe: its process and which of its streams. */
typedef struct pump_slot {
    dgpb_process *p;
    int stream;
} pump_slot;

/* ---- SIGPIPE-free writes ---------------------------------------------- */

typedef struct sigpipe_guard {
    sigset_t old;
    bool was_pending;
} sigpipe_guard;

/* Blocks SIGPIPE in this thread, remembering whether one was pending before. */
static void sigpipe_block(sigpipe_guard *g)
{
    sigset_t set, pending;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    sigemptyset(&pending);
    sigpending(&pending);
    g->was_pending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &set, &g->old);
}

/* Consumes a SIGPIPE our write raised (if SIGPIPE was neither pending nor blocked before), then
 * restores the mask. */
static void sigpipe_restore(const sigpipe_guard *g)
{
    if (!g->was_pending && sigismember(&g->old, SIGPIPE) != 1) {
        sigset_t set, pending;
        sigemptyset(&set);
        sigaddset(&set, SIGPIPE);
        sigemptyset(&pending);
        if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1) {
            struct timespec zero = {0, 0};
            while (sigtimedwait(&set, NULL, &zero) < 0 && errno == EINTR)
                ;
        }
    }
    pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* ---- PATH lookup and environment -------------------------------------- */

static bool is_executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* 0 and *out set, ENOENT, or ENOMEM. */
static int which(const char *name, const char *path, char **out)
{
    *out = NULL;
    if (strchr(name, '/')) {
        if (!is_executable_file(name))
            return ENOENT;
        *out = mem_strdup(name);
        return *out ? 0 : ENOMEM;
    }
    if (!*name)
        return ENOENT;
    if (!path)
        path = "/bin:/usr/bin";
    size_t name_len = strlen(name);
    const char *p = path;
    for (;;) {
        const char *end = strchr(p, ':');
        size_t dir_len = end ? (size_t)(end - p) : strlen(p);
        const char *dir = dir_len ? p : ".";
        if (!dir_len)
            dir_len = 1;
        char *candidate = mem_alloc(dir_len + name_len + 2);
        if (!candidate)
            return ENOMEM;
        memcpy(candidate, dir, dir_len);
        candidate[dir_len] = '/';
        memcpy(candidate + dir_len + 1, name, name_len + 1);
        if (is_executable_file(candidate)) {
            *out = candidate;
            return 0;
        }
        dgpb_free(candidate);
        if (!end)
            return ENOENT;
        p = end + 1;
    }
}

char *process_which(const char *name, const char *path)
{
    char *out = NULL;
    if (name)
        which(name, path, &out);
    return out;
}

/* The length of an environment entry's name ("NAME=VALUE" or "NAME"). */
static size_t env_name_len(const char *entry)
{
    const char *eq = strchr(entry, '=');
    return eq ? (size_t)(eq - entry) : strlen(entry);
}

static bool env_same_name(const char *a, const char *b)
{
    size_t n = env_name_len(a);
    return n == env_name_len(b) && memcmp(a, b, n) == 0;
}

/* Whether a later entry of `extra` (after index i) names the same variable. */
static bool env_overridden(const char *const *extra, size_t i)
{
    for (size_t k = i + 1; extra[k]; k++)
        if (env_same_name(extra[i], extra[k]))
            return true;
    return false;
}

/* The caller's environment with `extra` applied (pointers borrowed), or NULL when out of memory. */
static char **build_env(const char *const *extra)
{
    size_t n_base = 0, n_extra = 0;
    while (environ && environ[n_base])
        n_base++;
    while (extra[n_extra])
        n_extra++;
    char **envp = mem_calloc(n_base + n_extra + 1, sizeof *envp);
    if (!envp)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < n_base; i++) {
        bool replaced = false;
        for (size_t k = 0; k < n_extra && !replaced; k++)
            replaced = env_same_name(environ[i], extra[k]);
        if (!replaced)
            envp[n++] = environ[i];
    }
    for (size_t k = 0; k < n_extra; k++)
        if (strchr(extra[k], '=') && !env_overridden(extra, k))
            envp[n++] = (char *)extra[k];
    envp[n] = NULL;
    return envp;
}

/* The PATH the child will see. */
static const char *child_path(const char *const *extra)
{
    const char *path = getenv("PATH");
    for (size_t k = 0; extra && extra[k]; k++)
        if (env_name_len(extra[k]) == 4 && memcmp(extra[k], "PATH", 4) == 0)
            path = extra[k][4] == '=' ? extra[k] + 5 : NULL;
    return path;
}

/* ---- pipes and the child ---------------------------------------------- */

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
}

/* Moves a close-on-exec descriptor above 2; -1 with errno on failure (fd closed). */
static int move_up(int fd)
{
    if (fd < 0 || fd > 2)
        return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    int saved = errno;
    close(fd);
    errno = saved;
    return moved;
}

static int make_pipe(int fds[2])
{
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    fds[0] = move_up(fds[0]);
    fds[1] = move_up(fds[1]);
    if (fds[0] >= 0 && fds[1] >= 0)
        return 0;
    int saved = errno;
    close_fd(&fds[0]);
    close_fd(&fds[1]);
    errno = saved;
    return -1;
}

/* In the child: report {stage, errno} to the parent and exit. */
static void child_fail(int report_fd, int stage)
{
    int msg[2] = {stage, errno};
    ssize_t w;
    do
        w = write(report_fd, msg, sizeof msg);
    while (w < 0 && errno == EINTR);
    _exit(127);
}

/* In the child, after fork(): only async-signal-safe calls. */
static void child_exec(const dgpb_process *p, const char *prog, char **envp, int in, int out,
                       int err, int report_fd)
{
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        child_fail(report_fd, STAGE_DUP);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (p->flags & DGPB_PROCESS_GROUP)
        setpgid(0, 0);
    if (p->cwd && chdir(p->cwd) != 0)
        child_fail(report_fd, STAGE_CHDIR);
    execve(prog, (char *const *)p->argv, envp ? envp : environ);
    child_fail(report_fd, STAGE_EXEC);
}

/* Signals a started child: its process group with DGPB_PROCESS_GROUP (the child itself too,
 * should it not have joined the group yet). 0 or -1 with errno. */
static int signal_child(const dgpb_process *p, int sig)
{
    if ((p->flags & DGPB_PROCESS_GROUP) && kill(-(pid_t)p->pid, sig) == 0)
        return 0;
    return kill((pid_t)p->pid, sig);
}

static void wait_quietly(pid_t pid)
{
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

int process_start(dgpb_process *p, dgpb_diag *diag)
{
    if (!p || !p->argv || !p->argv[0])
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no program to run");
    if (p->state_ != STATE_NEW)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "'%s' was started already", p->argv[0]);
    const char *name = p->argv[0];
    int rc = DGPB_OK;
    char **envp = NULL;
    char *prog = NULL;
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1};
    p->pid = 0;
    p->in_fd = p->out_fd = p->err_fd = -1;
    p->status = -1;
    p->error_ = 0;
    p->in_done_ = 0;

    if (p->env && !(envp = build_env(p->env))) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    /* A name with '/' goes to execve as is, so that its errno tells why it cannot run. */
    int found = strchr(name, '/') ? ((prog = mem_strdup(name)) ? 0 : ENOMEM)
                                  : which(name, child_path(p->env), &prog);
    if (found == ENOMEM) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    if (found) {
        rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot run '%s': not found on PATH", name);
        goto done;
    }
    p->out_cap_ = p->err_cap_ = 1;
    p->out_len = p->err_len = 0;
    p->out = mem_calloc(1, 1);
    p->err = mem_calloc(1, 1);
    if (!p->out || !p->err) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }

    bool piped_in = (p->flags & DGPB_PROCESS_PIPES) || (p->in && p->in_size);
    int pipe_failed = 0;
    if (piped_in)
        pipe_failed = make_pipe(in);
    else if ((in[0] = move_up(open("/dev/null", O_RDONLY | O_CLOEXEC))) < 0)
        pipe_failed = -1;
    if (pipe_failed || make_pipe(out) || make_pipe(err) || make_pipe(report)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot create pipes to run '%s': %s", name,
                           strerror(errno));
        goto done;
    }

    pid_t pid = fork();
    if (pid == 0)
        child_exec(p, prog, envp, in[0], out[1], err[1], report[1]);
    if (pid < 0) {
        rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot fork to run '%s': %s", name,
                           strerror(errno));
        goto done;
    }
    if (p->flags & DGPB_PROCESS_GROUP)
        setpgid(pid, pid); /* as the child does: whichever runs first, a kill finds the group */
    close_fd(&in[0]);
    close_fd(&out[1]);
    close_fd(&err[1]);
    close_fd(&report[1]);

    int msg[2] = {0, 0};
    ssize_t got;
    do
        got = read(report[0], msg, sizeof msg);
    while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof msg) {
        wait_quietly(pid);
        const char *why = strerror(msg[1]);
        if (msg[0] == STAGE_CHDIR)
            rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot run '%s' in '%s': %s", name, p->cwd,
                               why);
        else if (msg[0] == STAGE_DUP)
            rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                               "cannot set up the standard streams of '%s': %s", name, why);
        else
            rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot run '%s': %s", name, why);
        goto done;
    }

    if (piped_in && !(p->flags & DGPB_PROCESS_PIPES))
        fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    p->pid = (int)pid;
    p->in_fd = in[1];
    p->out_fd = out[0];
    p->err_fd = err[0];
    in[1] = out[0] = err[0] = -1;
    p->state_ = STATE_RUNNING;
done:
    close_fd(&in[0]);
    close_fd(&in[1]);
    close_fd(&out[0]);
    close_fd(&out[1]);
    close_fd(&err[0]);
    close_fd(&err[1]);
    close_fd(&report[0]);
    close_fd(&report[1]);
    if (rc) {
        dgpb_free(p->out);
        dgpb_free(p->err);
        p->out = p->err = NULL;
    }
    dgpb_free(envp);
    dgpb_free(prog);
    return rc;
}

/* ---- the pump ----------------------------------------------------------- */

static bool has_open_pipes(const dgpb_process *p)
{
    return p->in_fd >= 0 || p->out_fd >= 0 || p->err_fd >= 0;
}

static void close_pipes(dgpb_process *p)
{
    close_fd(&p->in_fd);
    close_fd(&p->out_fd);
    close_fd(&p->err_fd);
}

/* Writes what the pipe takes of the rest of p->in; closes in_fd when done or refused. */
static void feed_some(dgpb_process *p)
{
    size_t left = p->in_size - p->in_done_;
    if (left > READ_CHUNK)
        left = READ_CHUNK;
    sigpipe_guard g;
    sigpipe_block(&g);
    ssize_t w = write(p->in_fd, (const char *)p->in + p->in_done_, left);
    int saved = errno;
    sigpipe_restore(&g);
    if (w > 0)
        p->in_done_ += (size_t)w;
    else if (w < 0 && (saved == EINTR || saved == EAGAIN || saved == EWOULDBLOCK))
        return;
    else if (w < 0 && saved != EPIPE && !p->error_)
        p->error_ = saved; /* EPIPE: the child stopped reading, which is its right */
    if (w <= 0 || p->in_done_ == p->in_size)
        close_fd(&p->in_fd);
}

/* Reads what is there on one output pipe; EOF or an error closes it. */
static void capture_some(dgpb_process *p, int stream)
{
    int *fd = stream == STREAM_OUT ? &p->out_fd : &p->err_fd;
    char **buf = stream == STREAM_OUT ? &p->out : &p->err;
    size_t *len = stream == STREAM_OUT ? &p->out_len : &p->err_len;
    size_t *cap = stream == STREAM_OUT ? &p->out_cap_ : &p->err_cap_;
    char discard[4096];
    char *dst = discard;
    size_t room = sizeof discard;
    if (!p->error_) {
        if (*cap - *len < READ_CHUNK + 1) {
            size_t want = *cap * 2 > *len + READ_CHUNK + 1 ? *cap * 2 : *len + READ_CHUNK + 1;
            char *grown = mem_realloc(*buf, want);
            if (grown) {
                *buf = grown;
                *cap = want;
            } else {
                p->error_ = ENOMEM; /* keep draining, so that the child never blocks */
            }
        }
        if (!p->error_) {
            dst = *buf + *len;
            room = *cap - *len - 1;
        }
    }
    ssize_t n = read(*fd, dst, room);
    if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
        return;
    if (n < 0 && !p->error_)
        p->error_ = errno;
    if (n <= 0) {
        close_fd(fd);
        return;
    }
    if (dst != discard) {
        *len += (size_t)n;
        (*buf)[*len] = 0;
    }
}

/* How often a run that can be cancelled looks at its flag while children are quiet. */
#define CANCEL_POLL_MS 50

/*
 * One poll() round over the open pipes of n running processes, waiting at
 * most `timeout_ms` (-1: until a pipe is ready). Returns 0 or poll's errno.
 */
static int pump(dgpb_process **procs, size_t n, struct pollfd *pfds, pump_slot *slots,
                int timeout_ms)
{
    nfds_t k = 0;
    for (size_t i = 0; i < n; i++) {
        dgpb_process *p = procs[i];
        int fds[3] = {p->in_fd, p->out_fd, p->err_fd};
        for (int s = 0; s < 3; s++) {
            if (fds[s] < 0)
                continue;
            pfds[k].fd = fds[s];
            pfds[k].events = s == STREAM_IN ? POLLOUT : POLLIN;
            pfds[k].revents = 0;
            slots[k].p = p;
            slots[k].stream = s;
            k++;
        }
    }
    if (k == 0)
        return 0;
    if (poll(pfds, k, timeout_ms) < 0)
        return errno == EINTR ? 0 : errno;
    for (nfds_t i = 0; i < k; i++) {
        if (!pfds[i].revents)
            continue;
        if (slots[i].stream == STREAM_IN)
            feed_some(slots[i].p);
        else
            capture_some(slots[i].p, slots[i].stream);
    }
    return 0;
}

/* Waits for a process whose pipes are closed; fills status. Returns a result code. */
static int reap(dgpb_process *p, int poll_error, dgpb_diag *diag)
{
    int ws = 0;
    pid_t w;
    do
        w = waitpid((pid_t)p->pid, &ws, 0);
    while (w < 0 && errno == EINTR);
    int wait_error = w < 0 ? errno : 0;
    p->state_ = STATE_FINISHED;
    if (wait_error)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot wait for '%s': %s", p->argv[0],
                             strerror(wait_error));
    if (WIFEXITED(ws))
        p->status = WEXITSTATUS(ws);
    else if (WIFSIGNALED(ws))
        p->status = 128 + WTERMSIG(ws);
    else
        p->status = 255;
    if (poll_error)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot wait for the output of '%s': %s",
                             p->argv[0], strerror(poll_error));
    if (p->error_ == ENOMEM)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory capturing the output of '%s'",
                             p->argv[0]);
    if (p->error_)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot talk to '%s': %s", p->argv[0],
                             strerror(p->error_));
    return DGPB_OK;
}

int process_finish(dgpb_process *p, dgpb_diag *diag)
{
    if (!p || p->state_ != STATE_RUNNING) {
        dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "the process was not started");
        return -1;
    }
    if (p->flags & DGPB_PROCESS_PIPES)
        close_fd(&p->in_fd);
    struct pollfd pfds[3];
    pump_slot slots[3];
    int poll_error = 0;
    while (has_open_pipes(p) && !poll_error)
        poll_error = pump(&p, 1, pfds, slots, -1);
    close_pipes(p);
    return reap(p, poll_error, diag) ? -1 : p->status;
}

int process_run(dgpb_process *p, dgpb_diag *diag)
{
    if (process_start(p, diag))
        return -1;
    return process_finish(p, diag);
}

int process_run_parallel(dgpb_process *procs, size_t count, unsigned jobs, dgpb_diag *diag)
{
    return process_run_parallel_watched(procs, count, jobs, NULL, NULL, diag);
}

int process_run_parallel_watched(dgpb_process *procs, size_t count, unsigned jobs,
                                 dgpb_process_watch_fn watch, void *user, dgpb_diag *diag)
{
    return process_run_parallel_cancellable(procs, count, jobs, watch, user, NULL, diag);
}

/* Kills and waits for the running children of a cancelled run. */
static void kill_running(dgpb_process **running, size_t n, dgpb_process *procs,
                         dgpb_process_watch_fn watch, void *user)
{
    for (size_t i = 0; i < n; i++) {
        signal_child(running[i], SIGKILL);
        close_pipes(running[i]);
        reap(running[i], 0, NULL);
        if (watch)
            watch(user, (size_t)(running[i] - procs), true);
    }
}

int process_run_parallel_cancellable(dgpb_process *procs, size_t count, unsigned jobs,
                                     dgpb_process_watch_fn watch, void *user,
                                     const volatile sig_atomic_t *cancel, dgpb_diag *diag)
{
    if (count == 0)
        return DGPB_OK;
    if (!procs)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no processes to run");
    if (jobs == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = cpus > 0 ? (unsigned)cpus : 1;
    }
    if (jobs > count)
        jobs = (unsigned)count;
    int rc = DGPB_OK;
    dgpb_process **running = mem_calloc(jobs, sizeof *running);
    struct pollfd *pfds = mem_calloc(3 * (size_t)jobs, sizeof *pfds);
    pump_slot *slots = mem_calloc(3 * (size_t)jobs, sizeof *slots);
    size_t next = 0, n = 0;
    if (!running || !pfds || !slots) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    int poll_error = 0;
    for (;;) {
        if (cancel && *cancel) {
            kill_running(running, n, procs, watch, user);
            rc = dgpb_diag_set(diag, DGPB_ERR_INTERRUPTED, -1, "interrupted");
            break;
        }
        while (!rc && !poll_error && n < jobs && next < count) {
            rc = process_start(&procs[next], diag);
            if (rc)
                break;
            if (watch)
                watch(user, next, false);
            running[n++] = &procs[next++];
        }
        if (n == 0)
            break;
        if (!poll_error)
            poll_error = pump(running, n, pfds, slots, cancel ? CANCEL_POLL_MS : -1);
        for (size_t i = 0; i < n;) {
            if (poll_error)
                close_pipes(running[i]);
            if (has_open_pipes(running[i])) {
                i++;
                continue;
            }
            int r = reap(running[i], poll_error, rc ? NULL : diag);
            if (r && !rc)
                rc = r;
            if (watch)
                watch(user, (size_t)(running[i] - procs), true);
            running[i] = running[--n];
        }
    }
done:
    for (size_t i = next; i < count; i++)
        if (procs[i].state_ == STATE_NEW)
            procs[i].status = -1;
    dgpb_free(running);
    dgpb_free(pfds);
    dgpb_free(slots);
    return rc;
}

int process_write(dgpb_process *p, const void *data, size_t size, dgpb_diag *diag)
{
    if (!p || p->state_ != STATE_RUNNING || p->in_fd < 0)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "the standard input of '%s' is not open",
                             p && p->argv && p->argv[0] ? p->argv[0] : "?");
    const char *at = data;
    int error = 0;
    sigpipe_guard g;
    sigpipe_block(&g);
    while (size > 0) {
        ssize_t w = write(p->in_fd, at, size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            error = errno;
            break;
        }
        at += w;
        size -= (size_t)w;
    }
    sigpipe_restore(&g);
    if (error)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot write to '%s': %s", p->argv[0],
                             strerror(error));
    return DGPB_OK;
}

void process_close_input(dgpb_process *p)
{
    if (p && p->state_ == STATE_RUNNING) /* before start, in_fd is 0, not ours */
        close_fd(&p->in_fd);
}

int process_kill(dgpb_process *p, int sig, dgpb_diag *diag)
{
    if (!p || p->state_ != STATE_RUNNING)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "the process is not running");
    if (signal_child(p, sig) != 0)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "cannot signal '%s': %s", p->argv[0],
                             strerror(errno));
    return DGPB_OK;
}

void process_clear(dgpb_process *p)
{
    if (!p)
        return;
    if (p->state_ == STATE_RUNNING) {
        close_pipes(p);
        signal_child(p, SIGKILL);
        wait_quietly((pid_t)p->pid);
    }
    dgpb_free(p->out);
    dgpb_free(p->err);
    dgpb_process keep = DGPB_PROCESS_INIT;
    keep.argv = p->argv;
    keep.cwd = p->cwd;
    keep.env = p->env;
    keep.in = p->in;
    keep.in_size = p->in_size;
    keep.flags = p->flags;
    *p = keep;
}
