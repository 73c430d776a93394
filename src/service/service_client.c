/*
 * service_client.c - a dgpb_compiler's end of the compile service
 * (service/service_client.h), and --service-stop (dgpb_service_stop_all).
 *
 * Starting: under the lock `<name>.lock` in the service folder, a client
 * that cannot connect removes a stale socket, starts the service (fork,
 * setsid, fork, exec: the service belongs to no build's session or process
 * group, and its standard error is `<name>.log`) and waits up to 3 s for it
 * to accept; two clients starting at once get one service.
 *
 * Waiting: the service sends {"alive": 1} at least every second while it has
 * this client's jobs, so a silence of DGPB_SERVICE_TIMEOUT_MS (default 10 s)
 * means it hangs, whatever the length of a compile.
 */
#define _GNU_SOURCE /* PATH_MAX, syscall */
#include "service/service_client.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "service/service_path.h"
#include "service/service_protocol.h"

#define START_WAIT_MS 3000  /* how long a started service has to accept */
#define LOCK_WAIT_MS 10000  /* how long another client may hold the start lock */
#define LOG_MAX (1 << 20)   /* a service's log is emptied past this at each start */
#define CANCEL_POLL_MS 50   /* how often a wait looks at the cancel flag */
#define STOP_WAIT_MS 5000   /* how long a stopped service has to go */
#define STOP_ANSWER_MS 2000 /* how long a service has to answer {"stop"} before it is killed */
#define KILL_WAIT_MS 2000   /* how long a killed service has to close its connections */
#define SUN_PATH_MAX (sizeof(((struct sockaddr_un *)0)->sun_path))

struct service_client {
    char dir[DGPB_SERVICE_PATH_MAX];
    char identity[SERVICE_IDENTITY_HEX];
    char name[SERVICE_NAME_LEN + 1];
    char socket[SUN_PATH_MAX];
    char lock[DGPB_SERVICE_PATH_MAX];
    char log[DGPB_SERVICE_PATH_MAX];
    char probed[DGPB_SERVICE_PATH_MAX]; /* the recorder's probe passed for this identity */
    char *program, *compiler, *recorder, *slang_lib, *cwd;
    bool embedded;
    double timeout; /* seconds of silence that mean a hung service */
    /* Progress, measured by this client, not by the service's word: the last time a job
       started or ended, or the service and its workers used CPU time (their ticks then). A
       service that sends only keep-alives for `progress_limit` seconds meanwhile is hung. */
    double progress_limit, progress_at, progress_checked;
    unsigned long long progress_ticks;
    service_conn conn;
    double last_heard;
    uint64_t next_id;
    /* The connected service's process (SO_PEERCRED; 0: unknown) and its socket file's status. */
    int peer;
    dev_t sock_dev;
    ino_t sock_ino;
    /* What the service said in its hello. */
    int pid;
    unsigned workers, started;
    bool hung;        /* the last wait ended in silence */
    char local[1024]; /* why it has no workers ("" when it has) */
};

/* "the compile service (pid N) WHAT" or "the compile service at 'SOCKET' WHAT", into why. */
static int failed(service_client *s, dgpb_diag *why, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int failed(service_client *s, dgpb_diag *why, const char *fmt, ...)
{
    char what[DGPB_DIAG_MESSAGE_MAX - 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int pid = s->pid ? s->pid : s->peer; /* before its hello: the process listening */
    if (pid)
        return dgpb_diag_set(why, DGPB_ERR_TOOL, -1, "the compile service (pid %d) %s", pid, what);
    return dgpb_diag_set(why, DGPB_ERR_TOOL, -1, "the compile service at '%s' %s", s->socket, what);
}

/* ---- create and destroy ---- */

int service_client_create(const service_client_desc *d, service_client **out, dgpb_diag *why)
{
    *out = NULL;
    service_client *s = mem_calloc(1, sizeof *s);
    if (!s)
        return dgpb_diag_set(why, DGPB_ERR_NOMEM, -1, "out of memory");
    s->conn.fd = -1;
    int rc = service_dir(s->dir, sizeof s->dir, why);
    service_identity_desc id = {d->program, d->compiler, d->embedded, d->recorder, d->slang_lib};
    if (!rc)
        rc = service_identity(&id, s->identity, why);
    if (!rc) {
        memcpy(s->name, s->identity, SERVICE_NAME_LEN);
        rc = service_file(s->dir, s->name, ".sock", s->socket, sizeof s->socket, why);
    }
    if (!rc)
        rc = service_file(s->dir, s->name, ".lock", s->lock, sizeof s->lock, why);
    if (!rc)
        rc = service_file(s->dir, s->name, ".log", s->log, sizeof s->log, why);
    if (!rc)
        rc = service_file(s->dir, s->name, ".probed", s->probed, sizeof s->probed, why);
    if (rc) {
        service_client_destroy(s);
        return rc == DGPB_ERR_NOMEM ? rc : DGPB_ERR_UNSUPPORTED;
    }
    s->program = mem_strdup(d->program);
    s->compiler = mem_strdup(d->compiler);
    s->recorder = d->recorder ? mem_strdup(d->recorder) : NULL;
    s->slang_lib = d->slang_lib ? mem_strdup(d->slang_lib) : NULL;
    s->cwd = d->cwd ? mem_strdup(d->cwd) : NULL;
    s->embedded = d->embedded;
    s->timeout = service_env_number("DGPB_SERVICE_TIMEOUT_MS", 10000, 1, 86400000) / 1000.0;
    s->progress_limit =
        service_env_number("DGPB_SERVICE_PROGRESS_MS", 10000, 1, 86400000) / 1000.0;
    if (!s->program || !s->compiler || (d->recorder && !s->recorder) ||
        (d->slang_lib && !s->slang_lib) || (d->cwd && !s->cwd)) {
        service_client_destroy(s);
        return dgpb_diag_set(why, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    *out = s;
    return DGPB_OK;
}

void service_client_destroy(service_client *s)
{
    if (!s)
        return;
    service_conn_close(&s->conn);
    dgpb_free(s->program);
    dgpb_free(s->compiler);
    dgpb_free(s->recorder);
    dgpb_free(s->slang_lib);
    dgpb_free(s->cwd);
    dgpb_free(s);
}

/* ---- connecting and starting ---- */

/* Connects to the socket at `path` without waiting: a descriptor, or -1 with errno. */
static int connect_to(const char *path)
{
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof a.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(a.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&a, sizeof a)) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* Closes every descriptor from 3 up (a started service must hold no build's pipe open). */
static void close_from_3(void)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
        close((int)fd);
}

/*
 * Starts the service: `program --service-daemon ...` in a session of its
 * own, its working folder "/", standard input /dev/null, standard output
 * and error its log. Returns DGPB_OK once the intermediate child is gone.
 */
static int spawn(service_client *s, dgpb_diag *why)
{
    const char *argv[20];
    size_t n = 0;
    argv[n++] = s->program;
    argv[n++] = "--service-daemon";
    argv[n++] = "--dir";
    argv[n++] = s->dir;
    argv[n++] = "--name";
    argv[n++] = s->name;
    argv[n++] = "--program";
    argv[n++] = s->program;
    argv[n++] = "--slangc";
    argv[n++] = s->compiler;
    if (s->embedded)
        argv[n++] = "--embedded";
    if (s->recorder) {
        argv[n++] = "--recorder";
        argv[n++] = s->recorder;
    }
    if (s->slang_lib) {
        argv[n++] = "--slang-lib";
        argv[n++] = s->slang_lib;
    }
    argv[n] = NULL;
    struct stat st;
    bool too_big = !stat(s->log, &st) && st.st_size > LOG_MAX;
    int log = open(s->log,
                   O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | (too_big ? O_TRUNC : 0),
                   0600);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0) {
        if (log >= 0)
            close(log);
        return failed(s, why, "cannot be started: /dev/null: %s", strerror(errno));
    }
    pid_t child = fork();
    if (child == 0) { /* only async-signal-safe calls from here to exec */
        if (setsid() < 0)
            _exit(1);
        pid_t grandchild = fork();
        if (grandchild != 0)
            _exit(grandchild < 0);
        if (chdir("/") || dup2(null, 0) < 0 || dup2(log >= 0 ? log : null, 1) < 0 ||
            dup2(log >= 0 ? log : null, 2) < 0)
            _exit(1);
        close_from_3();
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int e = errno;
    if (log >= 0)
        close(log);
    close(null);
    if (child < 0)
        return failed(s, why, "cannot be started: %s", strerror(e));
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    return DGPB_OK;
}

/* Removes the socket file at `path` if it is one (a service that is gone left it). */
static void remove_stale_socket(const char *path)
{
    struct stat st;
    if (!lstat(path, &st) && S_ISSOCK(st.st_mode))
        unlink(path);
}

/*
 * The process that listens on the connected socket `fd` (SO_PEERCRED: the
 * service, even before it accepted), when it is this user's; 0 otherwise.
 * *dev and *ino get the status of the socket file at `path`.
 */
static int peer_of(int fd, const char *path, dev_t *dev, ino_t *ino)
{
    struct ucred cred;
    socklen_t size = sizeof cred;
    struct stat st;
    *dev = 0;
    *ino = 0;
    if (!lstat(path, &st) && S_ISSOCK(st.st_mode)) {
        *dev = st.st_dev;
        *ino = st.st_ino;
    }
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) || size != sizeof cred ||
        cred.uid != getuid() || cred.pid <= 0 || cred.pid == getpid())
        return 0;
    return (int)cred.pid;
}

/*
 * Whether process `pid` has let go of its files: no longer there, or a
 * zombie (the kernel closes a dying process's descriptors, and with them its
 * locks, before it becomes one). Its connection closing is not enough: the
 * descriptors close one by one, the lock on its workers' folder maybe last.
 */
static bool process_ended(int pid)
{
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return errno == ENOENT || errno == ESRCH;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    const char *state = strrchr(text, ')'); /* "pid (comm) S ...": comm may hold anything */
    return !state || (state[1] == ' ' && (state[2] == 'Z' || state[2] == 'X'));
}

/*
 * Ends a service that did not answer, so that no later build asks it again:
 * SIGKILL to the process listening on the connection `fd`, a wait of up to
 * KILL_WAIT_MS for the connection to close (the kernel closes it when the
 * process is gone) and for the process to have let go of all its files, and
 * its socket file removed while it is still the one connected to (same
 * device and inode). Returns whether it went.
 */
static bool end_service(int fd, int pid, const char *path, dev_t dev, ino_t ino)
{
    if (pid <= 0 || kill(pid, SIGKILL))
        return false;
    bool gone = false;
    double end = service_now() + KILL_WAIT_MS / 1000.0;
    while (!gone && fd >= 0) {
        int ms = (int)ceil((end - service_now()) * 1000);
        if (ms <= 0)
            break;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, ms) < 0 && errno != EINTR)
            break;
        char buf[4096];
        ssize_t n = p.revents ? read(fd, buf, sizeof buf) : 1;
        gone = n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
    }
    while (gone && !process_ended(pid) && service_now() < end) {
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    struct stat st;
    if (!lstat(path, &st) && S_ISSOCK(st.st_mode) && st.st_dev == dev && st.st_ino == ino)
        unlink(path);
    return gone;
}

/* A hung service: ended (end_service), and `why` says so. */
static void end_hung(service_client *s, dgpb_diag *why)
{
    if (s->conn.fd < 0 || !end_service(s->conn.fd, s->peer, s->socket, s->sock_dev, s->sock_ino))
        return;
    size_t n = strlen(why->message);
    snprintf(why->message + n, sizeof why->message - n, " and was ended");
}

/*
 * Connects, starting the service first when none accepts. Returns the
 * socket's descriptor, or -1 with `why` filled.
 */
static int connect_or_start(service_client *s, dgpb_diag *why)
{
    int fd = connect_to(s->socket);
    if (fd >= 0)
        return fd;
    int lock = service_lock(s->lock, LOCK_WAIT_MS, why);
    if (lock < 0) {
        failed(s, why, "cannot be started: %s", why->message);
        return -1;
    }
    fd = connect_to(s->socket); /* another client may have started it meanwhile */
    if (fd < 0 && errno != EAGAIN) {
        remove_stale_socket(s->socket);
        if (spawn(s, why) == DGPB_OK) {
            double end = service_now() + START_WAIT_MS / 1000.0;
            while ((fd = connect_to(s->socket)) < 0 && service_now() < end) {
                struct timespec pause = {0, 10 * 1000 * 1000};
                nanosleep(&pause, NULL);
            }
            if (fd < 0)
                failed(s, why, "did not start within %d s (its log: '%s')", START_WAIT_MS / 1000,
                       s->log);
        }
    } else if (fd < 0) {
        failed(s, why, "accepts no connection: %s", strerror(errno));
    }
    service_unlock(lock);
    return fd;
}

/* ---- progress ---- */

/*
 * The CPU time (clock ticks) that the children of process `pid`, to `depth` levels, used,
 * those it reaped included; with `own`, its own too. The service's own time is left out:
 * one that only sends keep-alives, or spins, makes no job move.
 */
static unsigned long long tree_ticks(int pid, int depth, bool own)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    char line[1024];
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = 0;
    const char *p = strrchr(line, ')'); /* the command may hold spaces and parentheses */
    unsigned long long total = 0, v;
    /* after ')': state, then fields 4 to 13, then utime, stime, cutime, cstime (14 to 17) */
    for (int field = 3; p && *p && field <= 17; field++) {
        p = strchr(p + 1, ' ');
        if (p && field >= (own ? 14 : 16) && sscanf(p + 1, "%llu", &v) == 1)
            total += v;
    }
    if (depth <= 0)
        return total;
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *tasks = opendir(path);
    for (struct dirent *t; tasks && (t = readdir(tasks));) {
        if (t->d_name[0] == '.')
            continue;
        char children[300];
        snprintf(children, sizeof children, "/proc/%d/task/%.40s/children", pid, t->d_name);
        FILE *c = fopen(children, "re");
        int child;
        while (c && fscanf(c, "%d", &child) == 1)
            total += tree_ticks(child, depth - 1, true);
        if (c)
            fclose(c);
    }
    if (tasks)
        closedir(tasks);
    return total;
}

/* Notes progress now (a job started or ended). */
static void progressed(service_client *s)
{
    s->progress_at = service_now();
}

/* Whether the service made progress lately: false once it went progress_limit without
   any (samples its CPU time at most once a second). */
static bool making_progress(service_client *s)
{
    double now = service_now();
    int pid = s->pid ? s->pid : s->peer;
    if (pid > 0 && now - s->progress_checked >= 1.0) {
        s->progress_checked = now;
        unsigned long long ticks = tree_ticks(pid, 2, false);
        if (ticks != s->progress_ticks) {
            s->progress_ticks = ticks;
            s->progress_at = now;
        }
    }
    return now - s->progress_at < s->progress_limit;
}

/* ---- messages ---- */

/* Says that the service sent something that is not a message of the protocol. */
static int garbage(service_client *s, dgpb_diag *why, const char *line, size_t len)
{
    return failed(s, why, "sent something that is not an answer: '%.*s'",
                  (int)(len < 200 ? len : 200), line);
}

/*
 * Waits for the next message, sending what is queued meanwhile. DGPB_OK
 * with *root (the caller's); DGPB_ERR_INTERRUPTED; DGPB_ERR_TOOL with `why`.
 * `outstanding` is for the message when the connection ends.
 */
static int next_message(service_client *s, const volatile sig_atomic_t *cancel, size_t outstanding,
                        cJSON **root, dgpb_diag *why)
{
    s->hung = false;
    for (;;) {
        const char *line;
        size_t len;
        if (service_conn_line(&s->conn, &line, &len)) {
            cJSON *r = cJSON_ParseWithLength(line, len);
            if (!cJSON_IsObject(r)) {
                cJSON_Delete(r);
                return garbage(s, why, line, len);
            }
            service_conn_drop(&s->conn, len);
            s->last_heard = service_now();
            if (!cJSON_GetObjectItemCaseSensitive(r, "alive"))
                progressed(s); /* a job started or ended: a keep-alive is no progress */
            *root = r;
            return DGPB_OK;
        }
        if (cancel && *cancel)
            return DGPB_ERR_INTERRUPTED;
        if (outstanding && !making_progress(s)) {
            s->hung = true;
            return failed(s, why,
                          "made no progress for %.1f s: no job started or ended, and its "
                          "workers used no CPU time (DGPB_SERVICE_PROGRESS_MS)",
                          s->progress_limit);
        }
        double left = s->last_heard + s->timeout - service_now();
        if (left <= 0) {
            s->hung = true;
            return failed(s, why, "did not answer for %.1f s (DGPB_SERVICE_TIMEOUT_MS)",
                          s->timeout);
        }
        if (outstanding && left > 1.0)
            left = 1.0; /* the progress is sampled once a second */
        int ms = (int)ceil(left * 1000);
        if (cancel && ms > CANCEL_POLL_MS)
            ms = CANCEL_POLL_MS;
        struct pollfd p = {s->conn.fd, POLLIN | (service_conn_pending(&s->conn) ? POLLOUT : 0), 0};
        int n = poll(&p, 1, ms);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return failed(s, why, "cannot be waited for: %s", strerror(errno));
        service_io io = SERVICE_IO_OK;
        if (p.revents & POLLOUT)
            io = service_conn_flush(&s->conn);
        if (io == SERVICE_IO_OK && (p.revents & (POLLIN | POLLHUP | POLLERR)))
            io = service_conn_read(&s->conn);
        if (io == SERVICE_IO_EOF || (io == SERVICE_IO_ERROR && errno == ECONNRESET))
            return outstanding ? failed(s, why, "closed the connection with %zu job%s unanswered",
                                        outstanding, outstanding == 1 ? "" : "s")
                               : failed(s, why, "closed the connection");
        if (io == SERVICE_IO_TOO_LONG)
            return failed(s, why, "sent a line longer than %zu bytes", (size_t)SERVICE_ANSWER_MAX);
        if (io == SERVICE_IO_ERROR)
            return failed(s, why, "cannot be read: %s", strerror(errno));
    }
}

/* Says hello and reads the answer. DGPB_OK; an error with `why`; DGPB_ERR_INTERRUPTED. */
static int hello(service_client *s, const volatile sig_atomic_t *cancel, dgpb_diag *why)
{
    cJSON *msg = cJSON_CreateObject();
    bool ok = msg && cJSON_AddNumberToObject(msg, "hello", SERVICE_PROTOCOL) &&
              cJSON_AddStringToObject(msg, "identity", s->identity) &&
              cJSON_AddNumberToObject(msg, "pid", (double)getpid()) &&
              service_conn_put(&s->conn, msg);
    cJSON_Delete(msg);
    if (!ok)
        return dgpb_diag_set(why, DGPB_ERR_NOMEM, -1, "out of memory");
    s->last_heard = service_now();
    cJSON *root = NULL;
    int rc = next_message(s, cancel, 0, &root, why);
    if (rc)
        return rc;
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
    const cJSON *local = cJSON_GetObjectItemCaseSensitive(root, "local");
    uint64_t version = 0, pid = 0, workers = 0, started = 0;
    if (cJSON_IsString(error)) {
        rc = failed(s, why, "refused this build: %.1000s", error->valuestring);
    } else if (!service_get_id(root, "hello", &version) || version != SERVICE_PROTOCOL ||
               !service_get_id(root, "pid", &pid) || pid == 0 || pid > INT_MAX ||
               !service_get_id(root, "workers", &workers) || workers > 1024 ||
               !service_get_id(root, "started", &started) || started > UINT_MAX ||
               (local && !cJSON_IsString(local))) {
        char *text = cJSON_PrintUnformatted(root);
        rc = garbage(s, why, text ? text : "", text ? strlen(text) : 0);
        cJSON_free(text);
    } else {
        s->pid = (int)pid;
        s->workers = (unsigned)workers;
        s->started = (unsigned)started;
        snprintf(s->local, sizeof s->local, "%s", local ? local->valuestring : "");
    }
    cJSON_Delete(root);
    return rc;
}

/* Connects (starting the service if need be) and says hello. */
static int open_connection(service_client *s, const volatile sig_atomic_t *cancel, dgpb_diag *why)
{
    s->pid = 0;
    s->peer = 0;
    int fd = connect_or_start(s, why);
    if (fd < 0)
        return DGPB_ERR_TOOL;
    service_conn_init(&s->conn, fd, SERVICE_ANSWER_MAX);
    s->peer = peer_of(fd, s->socket, &s->sock_dev, &s->sock_ino);
    int rc = hello(s, cancel, why);
    if (rc == DGPB_ERR_TOOL && s->hung)
        end_hung(s, why);
    if (rc)
        service_conn_close(&s->conn);
    return rc;
}

/* ---- a batch ---- */

/*
 * Queues job `i` as {"job": ID, "cwd": ..., "args": [...], "layout": ..., ["layout_output": F,]
 * "parallel": P[, "keep": true][, "checked_as": [...]]}.
 */
static bool put_job(service_client *s, const dgpb_compile_job *job, uint64_t id, const char *cwd,
                    unsigned parallel)
{
    cJSON *msg = cJSON_CreateObject();
    cJSON *args = cJSON_AddArrayToObject(msg, "args");
    bool ok = msg && args && cJSON_AddNumberToObject(msg, "job", (double)id) &&
              cJSON_AddStringToObject(msg, "cwd", cwd) &&
              cJSON_AddBoolToObject(msg, "layout", job->layout) &&
              (!job->layout_output ||
               cJSON_AddStringToObject(msg, "layout_output", job->layout_output)) &&
              cJSON_AddNumberToObject(msg, "parallel", parallel) &&
              (!job->keep || cJSON_AddBoolToObject(msg, "keep", true));
    for (size_t k = 0; ok && k < job->arg_count; k++) {
        cJSON *a = cJSON_CreateString(job->args[k] ? job->args[k] : "");
        ok = a && cJSON_AddItemToArray(args, a);
        if (!ok)
            cJSON_Delete(a);
    }
    cJSON *checked = ok && job->checked_as_count ? cJSON_AddArrayToObject(msg, "checked_as") : NULL;
    ok = ok && (!job->checked_as_count || checked);
    for (size_t k = 0; ok && k < job->checked_as_count; k++) {
        cJSON *a = cJSON_CreateString(job->checked_as[k] ? job->checked_as[k] : "");
        ok = a && cJSON_AddItemToArray(checked, a);
        if (!ok)
            cJSON_Delete(a);
    }
    ok = ok && service_conn_put(&s->conn, msg);
    cJSON_Delete(msg);
    return ok;
}

/*
 * Takes one message of a batch whose jobs are numbered from `base`. DGPB_OK
 * (an answer fills its job and lowers *outstanding); an error with `why`.
 */
static int take_message(service_client *s, const cJSON *root, dgpb_compile_job *jobs, size_t count,
                        uint64_t base, bool *started, size_t *outstanding,
                        dgpb_compile_watch_fn watch, void *watch_user, dgpb_diag *why)
{
    uint64_t id = 0;
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(root, "error");
    if (cJSON_IsString(error))
        return failed(s, why, "gave up on this build: %.1000s", error->valuestring);
    if (cJSON_GetObjectItemCaseSensitive(root, "alive") && cJSON_GetArraySize(root) == 1)
        return DGPB_OK;
    if (!service_get_id(root, "job", &id) || id < base || id - base >= count)
        goto garbage;
    size_t i = (size_t)(id - base);
    const cJSON *failed_job = cJSON_GetObjectItemCaseSensitive(root, "failed");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(root, "status");
    const cJSON *diagnostics = cJSON_GetObjectItemCaseSensitive(root, "diagnostics");
    const cJSON *output = cJSON_GetObjectItemCaseSensitive(root, "output");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "started"))) {
        if (jobs[i].diagnostics || started[i])
            goto garbage;
        started[i] = true;
        if (watch)
            watch(watch_user, i, false);
        return DGPB_OK;
    }
    if (cJSON_IsString(failed_job))
        return failed(s, why, "lost a worker: %.4000s", failed_job->valuestring);
    uint64_t st = 0;
    if (jobs[i].diagnostics || !service_get_id(root, "status", &st) || st > 255 ||
        !cJSON_IsString(diagnostics) || !cJSON_IsString(output) || !status)
        goto garbage;
    char *d = mem_strdup(diagnostics->valuestring), *o = mem_strdup(output->valuestring);
    if (!d || !o) {
        dgpb_free(d);
        dgpb_free(o);
        return dgpb_diag_set(why, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    jobs[i].status = (int)st;
    jobs[i].diagnostics = d;
    jobs[i].output = o;
    jobs[i].checked = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "checked"));
    (*outstanding)--;
    if (watch) {
        if (!started[i])
            watch(watch_user, i, false);
        watch(watch_user, i, true);
    }
    return DGPB_OK;
garbage:;
    char *text = cJSON_PrintUnformatted(root);
    int rc = garbage(s, why, text ? text : "", text ? strlen(text) : 0);
    cJSON_free(text);
    return rc;
}

int service_client_run(service_client *s, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                       dgpb_compile_watch_fn watch, void *watch_user,
                       const volatile sig_atomic_t *cancel, dgpb_diag *why)
{
    if (count == 0)
        return DGPB_OK;
    if (cancel && *cancel)
        return DGPB_ERR_INTERRUPTED;
    int rc = DGPB_OK;
    if (s->conn.fd < 0 && (rc = open_connection(s, cancel, why)))
        return rc;
    if (s->workers == 0)
        return dgpb_diag_set(why, DGPB_ERR_UNSUPPORTED, -1,
                             "the compile service has no workers: %s",
                             s->local[0] ? s->local : "(no reason given)");
    char here[PATH_MAX], joined[2 * PATH_MAX];
    const char *cwd = s->cwd;
    if ((!cwd || cwd[0] != '/') && !getcwd(here, sizeof here))
        return failed(s, why, "cannot be given the working folder: %s", strerror(errno));
    if (!cwd)
        cwd = here;
    else if (cwd[0] != '/') { /* the jobs' folder, relative to this process's */
        snprintf(joined, sizeof joined, "%s/%s", here, cwd);
        cwd = joined;
    }
    bool *started = mem_calloc(count, sizeof *started);
    if (!started)
        return dgpb_diag_set(why, DGPB_ERR_NOMEM, -1, "out of memory");
    uint64_t base = s->next_id;
    s->next_id += count;
    for (size_t i = 0; i < count; i++)
        if (!put_job(s, &jobs[i], base + i, cwd, parallel)) {
            rc = dgpb_diag_set(why, DGPB_ERR_NOMEM, -1, "out of memory");
            goto done;
        }
    s->last_heard = service_now();
    progressed(s);
    s->progress_checked = 0;
    s->progress_ticks = 0;
    size_t outstanding = count;
    while (outstanding) {
        cJSON *root = NULL;
        if ((rc = next_message(s, cancel, outstanding, &root, why)))
            break;
        rc =
            take_message(s, root, jobs, count, base, started, &outstanding, watch, watch_user, why);
        cJSON_Delete(root);
        if (rc)
            break;
    }
done:
    if (rc == DGPB_ERR_TOOL && s->hung)
        end_hung(s, why);
    if (rc) /* closing cancels this client's jobs in the service */
        service_conn_close(&s->conn);
    dgpb_free(started);
    return rc;
}

/* ---- asking ---- */

void service_client_info(const service_client *s, dgpb_service_info *info)
{
    info->pid = s->pid;
    info->workers = s->workers;
    info->started = s->started;
    snprintf(info->socket, sizeof info->socket, "%s", s->socket);
}

void service_client_query(service_client *s, dgpb_service_info *info)
{
    dgpb_diag why;
    dgpb_diag_clear(&why);
    snprintf(info->socket, sizeof info->socket, "%s", s->socket);
    info->state = DGPB_SERVICE_NOT_RUNNING;
    info->pid = 0;
    bool connected = s->conn.fd >= 0;
    if (!connected) {
        int fd = connect_to(s->socket);
        if (fd < 0)
            return;
        service_conn_init(&s->conn, fd, SERVICE_ANSWER_MAX);
        s->peer = peer_of(fd, s->socket, &s->sock_dev, &s->sock_ino);
        if (hello(s, NULL, &why)) {
            if (s->hung)
                end_hung(s, &why);
            service_conn_close(&s->conn);
            snprintf(info->why, sizeof info->why, "%s", why.message);
            return;
        }
    }
    info->state = DGPB_SERVICE_RUNNING;
    service_client_info(s, info);
    if (!connected)
        service_conn_close(&s->conn);
}

/* ---- --service-stop ---- */

/*
 * Stops the service on one socket: 1 when one stopped, 0 when none ran
 * there, -1 on failure. A service that does not answer {"stop"} within
 * STOP_ANSWER_MS, or does not go within STOP_WAIT_MS of answering (it is
 * stopped, SIGSTOP, or hangs), is killed (end_service).
 */
static int stop_one(const char *path, dgpb_diag *diag)
{
    int fd = connect_to(path);
    if (fd < 0) {
        if (errno == ECONNREFUSED || errno == ENOENT)
            remove_stale_socket(path);
        return 0;
    }
    dev_t dev;
    ino_t ino;
    int pid = peer_of(fd, path, &dev, &ino);
    service_conn conn;
    service_conn_init(&conn, fd, SERVICE_ANSWER_MAX);
    cJSON *msg = cJSON_CreateObject();
    bool ok = msg && cJSON_AddNumberToObject(msg, "stop", 1) && service_conn_put(&conn, msg);
    cJSON_Delete(msg);
    int result = -1;
    double asked = service_now();
    bool stopped = false;
    while (ok) { /* until the service has gone: its end of the connection closes */
        double end = asked + (stopped ? STOP_WAIT_MS : STOP_ANSWER_MS) / 1000.0;
        int ms = (int)ceil((end - service_now()) * 1000);
        if (ms <= 0)
            break;
        struct pollfd p = {fd, POLLIN | (service_conn_pending(&conn) ? POLLOUT : 0), 0};
        if (poll(&p, 1, ms) < 0 && errno != EINTR)
            break;
        service_io io = SERVICE_IO_OK;
        if (p.revents & POLLOUT)
            io = service_conn_flush(&conn);
        if (io == SERVICE_IO_OK && (p.revents & (POLLIN | POLLHUP | POLLERR)))
            io = service_conn_read(&conn);
        const char *line;
        size_t len;
        while (service_conn_line(&conn, &line, &len)) {
            cJSON *root = cJSON_ParseWithLength(line, len);
            stopped = stopped || cJSON_GetObjectItemCaseSensitive(root, "stopped");
            cJSON_Delete(root);
            service_conn_drop(&conn, len);
        }
        if (io != SERVICE_IO_OK) {
            result = stopped ? 1 : -1;
            break;
        }
    }
    if (result < 0 && end_service(fd, pid, path, dev, ino))
        result = 1; /* it did not answer, or did not go: killed */
    if (result < 0)
        dgpb_diag_set(diag, DGPB_ERR_IO, -1, "the compile service at '%s' did not stop", path);
    service_conn_close(&conn);
    return result;
}

int dgpb_service_stop_all(unsigned *stopped, char *dir, size_t size, dgpb_diag *diag)
{
    char folder[DGPB_SERVICE_PATH_MAX];
    if (stopped)
        *stopped = 0;
    if (dir && size)
        dir[0] = 0;
    int rc = service_dir(folder, sizeof folder, diag);
    if (rc)
        return rc;
    if (dir && size)
        snprintf(dir, size, "%s", folder);
    DIR *d = opendir(folder);
    if (!d)
        return dgpb_diag_set(diag, DGPB_ERR_IO, errno, "cannot read '%s': %s", folder,
                             strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        char path[SUN_PATH_MAX];
        if (n < 6 || strcmp(e->d_name + n - 5, ".sock") ||
            snprintf(path, sizeof path, "%s/%s", folder, e->d_name) >= (int)sizeof path)
            continue;
        int one = stop_one(path, diag);
        if (one < 0)
            rc = DGPB_ERR_IO;
        else if (stopped)
            *stopped += (unsigned)one;
    }
    closedir(d);
    service_workers_sweep(folder); /* what services killed before they could remove it left */
    return rc;
}

/* ---- the table a dgpb_compiler calls (compiler/compiler_internal.h) ---- */

/* ---- the recorder's probe ---- */

bool service_client_probe_known(const service_client *s)
{
    struct stat st;
    return !lstat(s->probed, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid();
}

void service_client_probe_passed(const service_client *s)
{
    int fd = open(s->probed, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0)
        close(fd);
}

/* ---- the offload table ---- */

static int offload_create(const compile_offload_desc *d, void **client, dgpb_diag *why)
{
    service_client *s = NULL;
    int rc = service_client_create(d, &s, why);
    *client = s;
    return rc;
}

static void offload_destroy(void *client)
{
    service_client_destroy(client);
}

static int offload_run(void *client, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                       dgpb_compile_watch_fn watch, void *watch_user,
                       const volatile sig_atomic_t *cancel, dgpb_diag *why)
{
    return service_client_run(client, jobs, count, parallel, watch, watch_user, cancel, why);
}

static void offload_query(void *client, dgpb_service_info *info)
{
    service_client_query(client, info);
}

static void offload_info(const void *client, dgpb_service_info *info)
{
    service_client_info(client, info);
}

static bool offload_probe_known(const void *client)
{
    return service_client_probe_known(client);
}

static void offload_probe_passed(const void *client)
{
    service_client_probe_passed(client);
}

const dgpb_compile_offload *dgpb_service_offload(void)
{
    static const dgpb_compile_offload table = {offload_create,      offload_destroy,
                                               offload_run,         offload_query,
                                               offload_info,        offload_probe_known,
                                               offload_probe_passed};
    return &table;
}
