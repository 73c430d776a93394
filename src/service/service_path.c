/*
 * service_path.c - where the compile service lives (service/service_path.h):
 * the folder and its checks, the identity, the start lock.
 *
 * The identity is made from the status of files, never their content: the
 * embedded compiler's WebAssembly module is 15 MB, and a client computes the
 * identity on every run. The compile cache hashes content for its own keys
 * (cache/compiler_identity.c), separately.
 */
#define _GNU_SOURCE /* realpath, PATH_MAX */
#include "service/service_path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/strict_number.h"
#include "compiler/compiler_files.h"
#include "compiler/slang_lookup.h"
#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/sha256.h"

extern char **environ;

/* ---- the folder ---- */

int service_dir_check(const char *dir, dgpb_diag *diag)
{
    struct stat st;
    if (lstat(dir, &st))
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, errno,
                             "the compile service's folder '%s' cannot be read: %s", dir,
                             strerror(errno));
    if (S_ISLNK(st.st_mode))
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                             "the compile service's folder '%s' is a symbolic link, which "
                             "another user may have made",
                             dir);
    if (!S_ISDIR(st.st_mode))
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                             "the compile service's folder '%s' is not a folder", dir);
    if (st.st_uid != getuid())
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                             "the compile service's folder '%s' belongs to user %u, not to "
                             "this user (%u)",
                             dir, (unsigned)st.st_uid, (unsigned)getuid());
    if (st.st_mode & 077)
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                             "the compile service's folder '%s' is open to other users (mode "
                             "%04o; it must be 0700)",
                             dir, (unsigned)(st.st_mode & 07777));
    return DGPB_OK;
}

/* Whether XDG_RUNTIME_DIR's value is the user's own private folder. */
static bool private_runtime_dir(const char *xdg)
{
    struct stat st;
    return xdg && xdg[0] == '/' && !lstat(xdg, &st) && S_ISDIR(st.st_mode) &&
           st.st_uid == getuid() && (st.st_mode & 0777) == 0700;
}

int service_dir(char *dir, size_t size, dgpb_diag *diag)
{
    const char *given = getenv("DGPB_SERVICE_DIR");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    int n;
    if (given && *given && given[0] != '/') {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, errno,
                                 "DGPB_SERVICE_DIR '%s' is relative and the working folder "
                                 "cannot be named: %s",
                                 given, strerror(errno));
        n = snprintf(dir, size, "%s/%s", cwd, given);
    } else if (given && *given) {
        n = snprintf(dir, size, "%s", given);
    } else if (private_runtime_dir(xdg)) {
        n = snprintf(dir, size, "%s/dgpb", xdg);
    } else {
        n = snprintf(dir, size, "/tmp/dgpb-%u", (unsigned)getuid());
    }
    if (n < 0 || (size_t)n >= size)
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                             "the compile service's folder is a path too long");
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = 0;
    if (mkdir(dir, 0700) && errno != EEXIST)
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, errno,
                             "cannot make the compile service's folder '%s': %s", dir,
                             strerror(errno));
    return service_dir_check(dir, diag);
}

int service_file(const char *dir, const char *name, const char *suffix, char *buf, size_t size,
                 dgpb_diag *diag)
{
    int n = snprintf(buf, size, "%s/%s%s", dir, name, suffix);
    if (n < 0 || (size_t)n >= size)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                             "the compile service's path '%s/%s%s' is longer than %zu bytes", dir,
                             name, suffix, size - 1);
    return DGPB_OK;
}

/* ---- the identity ---- */

/* Adds "LABEL PATH dev ino size mtime" (or "LABEL PATH missing") for a file. */
static void add_file(dgpb_bytebuf *k, const char *label, const char *path)
{
    struct stat st;
    char line[PATH_MAX + 200];
    int n;
    if (!path)
        n = snprintf(line, sizeof line, "%s none\n", label);
    else if (stat(path, &st))
        n = snprintf(line, sizeof line, "%s %s missing\n", label, path);
    else
        n = snprintf(line, sizeof line, "%s %s %llu %llu %lld %lld.%09ld\n", label, path,
                     (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                     (long long)st.st_size, (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    bytebuf_append(k, line, n > 0 && (size_t)n < sizeof line ? (size_t)n : strlen(line));
}

static void add_compiler_file(void *user, const char *path)
{
    add_file(user, "file", path);
}

/* The variables left out of the identity: they differ between runs of one build system and change
 * nothing a compile reads or writes (docs/service.md, "One service per context"). A name ending
 * in '*' is a prefix. */
static const char *const ignored_vars[] = {
    "_",
    "PWD",
    "OLDPWD",
    "SHLVL", /* the shell's bookkeeping */
    "MAKEFLAGS",
    "MFLAGS",
    "MAKELEVEL",
    "MAKE_TERMOUT", /* make's recursion and */
    "MAKE_TERMERR", /* jobserver descriptors */
    "TERM",
    "COLUMNS",
    "LINES", /* the terminal's */
    "DGPB_SERVICE*",
    "DGPB_NO_CACHE",
    "DGPB_CACHE_*", /* the client's own settings */
};

bool service_env_ignored(const char *entry)
{
    size_t name = strcspn(entry, "=");
    for (size_t i = 0; i < sizeof ignored_vars / sizeof *ignored_vars; i++) {
        const char *v = ignored_vars[i];
        size_t n = strlen(v);
        if (v[n - 1] == '*' ? name >= n - 1 && !strncmp(entry, v, n - 1)
                            : name == n && !strncmp(entry, v, n))
            return true;
    }
    return false;
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int compare_gids(const void *a, const void *b)
{
    gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;
    return x < y ? -1 : x > y;
}

/* Adds a formatted line to the identity's text. */
static void add_line(dgpb_bytebuf *k, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void add_line(dgpb_bytebuf *k, const char *fmt, ...)
{
    char line[PATH_MAX + 200];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    bytebuf_append(k, line, n < 0 ? 0 : (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* The users, groups and supplementary groups (sorted) of this process. False: out of memory. */
static bool add_credentials(dgpb_bytebuf *k)
{
    uid_t ruid, euid, suid;
    gid_t rgid, egid, sgid;
    if (getresuid(&ruid, &euid, &suid) || getresgid(&rgid, &egid, &sgid))
        ruid = euid = suid = getuid(), rgid = egid = sgid = getgid();
    add_line(k, "uid %u %u %u gid %u %u %u\ngroups", (unsigned)ruid, (unsigned)euid, (unsigned)suid,
             (unsigned)rgid, (unsigned)egid, (unsigned)sgid);
    int n = getgroups(0, NULL);
    gid_t *groups = n > 0 ? mem_calloc((size_t)n, sizeof *groups) : NULL;
    if (n > 0 && !groups)
        return false;
    if (n > 0)
        n = getgroups(n, groups);
    if (n > 0)
        qsort(groups, (size_t)n, sizeof *groups, compare_gids);
    for (int i = 0; i < n; i++)
        add_line(k, " %u", (unsigned)groups[i]);
    add_line(k, "\n");
    dgpb_free(groups);
    return true;
}

/*
 * What decides which files a process may open beyond its users and groups, as /proc tells
 * it of process `pid` ("self" or a number): the lines of its status whose values are its
 * capabilities (effective, permitted, inheritable, bounding, ambient), no_new_privs and its
 * seccomp mode; its user namespace (whose root holds no capability over files of users it
 * does not map); and its security label (SELinux's or AppArmor's context, where the kernel
 * has one). Written into `out` (size bytes) as text; false when /proc cannot be read.
 */
static bool privileges_of(const char *pid, char *out, size_t size)
{
    static const char *const keys[] = {"CapInh:", "CapPrm:", "CapEff:", "CapBnd:",
                                       "CapAmb:", "NoNewPrivs:", "Seccomp:"};
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/status", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    size_t at = 0;
    out[0] = 0;
    char line[512];
    while (fgets(line, sizeof line, f))
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
            if (!strncmp(line, keys[i], strlen(keys[i])) && at < size)
                at += (size_t)snprintf(out + at, size - at, "%s", line);
    fclose(f);
    char ns[256];
    snprintf(path, sizeof path, "/proc/%s/ns/user", pid);
    ssize_t n = readlink(path, ns, sizeof ns - 1);
    ns[n > 0 ? n : 0] = 0;
    if (at < size)
        at += (size_t)snprintf(out + at, size - at, "userns %s\n", n > 0 ? ns : "unknown");
    char label[512] = "";
    snprintf(path, sizeof path, "/proc/%s/attr/current", pid);
    f = fopen(path, "re");
    if (f) {
        size_t m = fread(label, 1, sizeof label - 1, f);
        label[m] = 0;
        fclose(f);
    }
    if (at < size)
        snprintf(out + at, size - at, "label %s\n", label);
    return true;
}

static void add_privileges(dgpb_bytebuf *k)
{
    char text[4096];
    if (!privileges_of("self", text, sizeof text))
        snprintf(text, sizeof text, "privileges unknown\n");
    add_line(k, "%s", text);
}

/* The mount namespace, the root and the temporary folder as this process sees them. */
static void add_filesystem_view(dgpb_bytebuf *k)
{
    char ns[256];
    ssize_t n = readlink("/proc/self/ns/mnt", ns, sizeof ns - 1);
    ns[n > 0 ? n : 0] = 0;
    add_line(k, "mnt %s\n", n > 0 ? ns : "unknown");
    struct stat st;
    if (stat("/", &st))
        add_line(k, "root unknown\n");
    else
        add_line(k, "root %llu %llu\n", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    char *real = realpath(tmp, NULL);
    if (real && !stat(real, &st))
        add_line(k, "tmp %s %s %llu %llu\n", tmp, real, (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
    else
        add_line(k, "tmp %s missing\n", tmp);
    free(real);
}

/* Every resource limit, soft and hard. */
static void add_limits(dgpb_bytebuf *k)
{
    for (int r = 0; r < RLIMIT_NLIMITS; r++) {
        struct rlimit l;
        if (getrlimit(r, &l))
            add_line(k, "rlimit %d unknown\n", r);
        else
            add_line(k, "rlimit %d %llu %llu\n", r, (unsigned long long)l.rlim_cur,
                     (unsigned long long)l.rlim_max);
    }
}

/* The environment, sorted, less the variables left out. False: out of memory. */
static bool add_environment(dgpb_bytebuf *k)
{
    size_t n = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    const char **vars = mem_calloc(n + 1, sizeof *vars);
    if (!vars)
        return false;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!service_env_ignored(environ[i]))
            vars[kept++] = environ[i];
    qsort(vars, kept, sizeof *vars, compare_strings);
    for (size_t i = 0; i < kept; i++) {
        bytebuf_append(k, "env ", 4);
        bytebuf_append(k, vars[i],
                       strlen(vars[i]) + 1); /* with its NUL: values end unambiguously */
        bytebuf_append(k, "\n", 1);
    }
    dgpb_free(vars);
    return true;
}

int service_identity(const service_identity_desc *d, char hex[SERVICE_IDENTITY_HEX],
                     dgpb_diag *diag)
{
    dgpb_bytebuf k = DGPB_BYTEBUF_INIT;
    char line[64];
    snprintf(line, sizeof line, "dgpb-service %d\n", SERVICE_PROTOCOL);
    bytebuf_append(&k, line, strlen(line));
    add_file(&k, "program", d->program);
    add_file(&k, d->embedded ? "embedded" : "native", d->compiler);
    char *real = d->compiler ? realpath(d->compiler, NULL) : NULL;
    char *slash = real ? strrchr(real, '/') : NULL;
    if (slash) {
        *slash = 0;
        compiler_files_each(d->embedded, real, add_compiler_file, &k);
    }
    free(real);
    if (!d->embedded) { /* the libslang the native workers load, by the recorder's lookup */
        char found[PATH_MAX];
        const char *lib = NULL;
        bool from_loader = false;
        slang_env env = {NULL, NULL};
        if (!slang_find_libslang(d->slang_lib, d->compiler, &env, found, &lib, &from_loader,
                                 NULL) &&
            !from_loader)
            add_file(&k, "libslang", lib);
    }
    add_file(&k, "recorder", d->recorder);
    add_file(&k, "slang-lib", d->slang_lib);
    bool ok = add_credentials(&k);
    add_privileges(&k);
    add_filesystem_view(&k);
    add_limits(&k);
    ok = ok && add_environment(&k);
    uint8_t sha[DGPB_SHA256_SIZE];
    int rc = !ok || k.failed ? dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory")
                             : dgpb_sha256(k.data, k.len, sha);
    if (rc == DGPB_OK)
        dgpb_sha256_hex(sha, hex);
    bytebuf_free(&k);
    return rc;
}

/* ---- the peer ---- */

/* The line of /proc/<pid>/status that starts with `key` ("Groups:"), its numbers sorted. */
static bool status_line(const char *pid, const char *key, char *out, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/status", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = !strncmp(line, key, strlen(key));
    fclose(f);
    if (!found)
        return false;
    unsigned long ids[1024];
    size_t n = 0;
    for (char *p = line + strlen(key), *end; n < 1024; p = end) {
        unsigned long v = strtoul(p, &end, 10);
        if (end == p)
            break;
        ids[n++] = v;
    }
    if (!strcmp(key, "Groups:")) /* sorted, as the identity's */
        for (size_t i = 1; i < n; i++)
            for (size_t j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
                unsigned long t = ids[j];
                ids[j] = ids[j - 1];
                ids[j - 1] = t;
            }
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && at < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%lu ", ids[i]);
    return true;
}

/* The whole of /proc/<pid>/<what> (a small text file) into out. */
static bool proc_text(const char *pid, const char *what, char *out, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/%s", pid, what);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    size_t n = fread(out, 1, size - 1, f);
    out[n] = 0;
    fclose(f);
    return n > 0;
}

bool service_peer_same(int pid, char *why, size_t size)
{
    char peer[32];
    snprintf(peer, sizeof peer, "%d", pid);
    char a[4096], b[4096];
    ssize_t n, m;
    struct stat x, y;
    static const char *const keys[] = {"Uid:", "Gid:", "Groups:"};
    const char *differs = NULL;
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/ns/mnt", peer);
    n = readlink(path, a, sizeof a - 1);
    m = readlink("/proc/self/ns/mnt", b, sizeof b - 1);
    if (pid <= 0) {
        snprintf(why, size, "the client's process is not known (SO_PEERCRED)");
        return false;
    }
    if (m > 0 && (n <= 0 || n != m || memcmp(a, b, (size_t)n)))
        differs = "mount namespace";
    snprintf(path, sizeof path, "/proc/%s/root", peer);
    if (!differs && !stat("/proc/self/root", &y) &&
        (stat(path, &x) || x.st_dev != y.st_dev || x.st_ino != y.st_ino))
        differs = "root folder";
    for (size_t i = 0; !differs && i < sizeof keys / sizeof *keys; i++)
        if (status_line("self", keys[i], b, sizeof b) &&
            (!status_line(peer, keys[i], a, sizeof a) || strcmp(a, b)))
            differs = i == 0 ? "users" : i == 1 ? "groups" : "supplementary groups";
    if (!differs && proc_text("self", "limits", b, sizeof b) &&
        (!proc_text(peer, "limits", a, sizeof a) || strcmp(a, b)))
        differs = "resource limits";
    if (!differs && privileges_of("self", b, sizeof b) &&
        (!privileges_of(peer, a, sizeof a) || strcmp(a, b)))
        differs = "capabilities, user namespace, no_new_privs or security label";
    if (differs)
        snprintf(why, size,
                 "the client (pid %d) has other %s than this service, or they cannot "
                 "be read",
                 pid, differs);
    return !differs;
}

/* ---- the start lock ---- */

int service_lock(const char *path, int ms, dgpb_diag *diag)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        dgpb_diag_set(diag, DGPB_ERR_IO, errno, "cannot open the lock '%s': %s", path,
                      strerror(errno));
        return -1;
    }
    double end = service_now() + ms / 1000.0;
    while (flock(fd, LOCK_EX | LOCK_NB)) {
        if ((errno != EWOULDBLOCK && errno != EINTR) || service_now() > end) {
            dgpb_diag_set(diag, DGPB_ERR_IO, errno, "cannot take the lock '%s': %s", path,
                          errno == EWOULDBLOCK ? "another process holds it" : strerror(errno));
            close(fd);
            return -1;
        }
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return fd;
}

void service_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* closing the last descriptor releases the flock */
}

/* ---- the workers' folders a service leaves ---- */

#define WORKERS_PREFIX "dgpb-workers-"
#define WORKERS_YOUNG                                                                              \
    60                /* seconds a folder without its owner lock is left to its starting service */
#define TREE_DEPTH 64 /* how deep a removal goes */

/* Removes `name` in the folder `parent` and what it holds, never following a symbolic link. */
static void remove_tree(int parent, const char *name, int depth)
{
    struct stat st;
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW))
        return;
    if (!S_ISDIR(st.st_mode)) {
        unlinkat(parent, name, 0);
        return;
    }
    if (depth > TREE_DEPTH)
        return;
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            remove_tree(fd, e->d_name, depth + 1);
    closedir(d);
    unlinkat(parent, name, AT_REMOVEDIR);
}

int service_workers_claim(const char *folder, dgpb_diag *diag)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", folder, SERVICE_OWNER_LOCK) >= (int)sizeof path) {
        dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "the path '%s/%s' is too long", folder,
                      SERVICE_OWNER_LOCK);
        return -1;
    }
    return service_lock(path, 0, diag);
}

unsigned service_workers_sweep(const char *dir)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0)
        return 0;
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return 0;
    }
    unsigned removed = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (strncmp(e->d_name, WORKERS_PREFIX, strlen(WORKERS_PREFIX)) ||
            fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) ||
            st.st_uid != getuid())
            continue;
        int fd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        int lock = openat(fd, SERVICE_OWNER_LOCK, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
        bool gone;
        if (lock >= 0) /* its service holds the lock for its lifetime */
            gone = !flock(lock, LOCK_EX | LOCK_NB);
        else /* no lock yet: a service between making it and locking it, or one killed then */
            gone = errno == ENOENT && time(NULL) - st.st_mtime > WORKERS_YOUNG;
        close(fd);
        if (gone) {
            remove_tree(dfd, e->d_name, 0);
            removed++;
        }
        if (lock >= 0)
            close(lock); /* held while removing, so that nothing claims it meanwhile */
    }
    closedir(d);
    return removed;
}

/* ---- numbers and time ---- */

long service_env_number(const char *name, long fallback, long min, long max)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    uint64_t n = 0; /* decimal digits only (core/strict_number.h) */
    if (max < 0 || !strict_u64(v, (uint64_t)max, &n) || (long)n < min)
        return fallback;
    return (long)n;
}

double service_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
