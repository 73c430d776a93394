/*
 * file_unit.c - output units: several files replaced as one (dgpb/fileio.h).
 *
 * A unit is a set of files that readers must only see together (a bundle,
 * its JSON view, its depfile): every file the new one, or every file the old
 * one. rename() replaces one file atomically, never two, so a unit is
 * replaced in steps that a journal records, and whoever finds a journal
 * finishes the job:
 *
 *   1. lock      flock() on the folder of the journal (the output folder),
 *                waited for: writers of one folder take turns
 *   2. recover   a journal left by a killed writer: its replacement is
 *                completed, or undone where it cannot be; stale temporaries
 *                and backups of the unit's files are removed
 *   3. write     each file's new bytes to "<path>.tmp.XXXXXX", fsynced
 *   4. back up   each existing file hard-linked to "<path>.old.XXXXXX"
 *   5. journal   {path, temporary, backup} per file, then an end mark,
 *                fsynced: from here on the unit is committed
 *   6. rename    each temporary over its file, in order
 *   7. finish    the backups, then the journal, removed. A rename that
 *                fails undoes the ones before it (from the backups)
 *
 * A writer killed before step 5 leaves no journal, or one without its end
 * mark, and the unit as it was; one killed during step 6 or 7 leaves a
 * committed journal, and the next writer (or dgpb_file_unit_recover())
 * renames the temporaries still there. docs/build.md, "The output unit".
 */
#define _GNU_SOURCE /* flock, linkat */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "dgpb/file_unit.h"
#include "dgpb/fileio.h"
#include "core/fileio_internal.h"
#include "core/io_fault.h"

#define JOURNAL_MAGIC "dgpb-unit 1\n"
#define JOURNAL_END "end\n"
#define JOURNAL_MAX ((size_t)1 << 20)
#define UNIT_MAX 16
#define DEFAULT_LOCK_TIMEOUT_MS 120000u

/* One file of a unit, every path absolute: a later build may run in another folder. */
typedef struct record {
    char *path;   /* the file */
    char *temp;   /* its new bytes, until renamed over it */
    char *backup; /* its old bytes ("" when it did not exist), until the unit is replaced */
} record;

static void records_free(record *r, size_t n)
{
    for (size_t i = 0; r && i < n; i++) {
        dgpb_free(r[i].path);
        dgpb_free(r[i].temp);
        dgpb_free(r[i].backup);
    }
    dgpb_free(r);
}

/* ---- paths ---- */

/* The folder of a path ("." for a bare name), as a new string. */
static char *folder_of(const char *path)
{
    char dir[4096];
    fileio_folder_of(path, dir, sizeof dir);
    return mem_strdup(dir);
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/*
 * Puts the folder entry of a file on disk (renames and removals in it). No
 * allocation: it runs after the commit point, where a lack of memory must not
 * turn a written unit into a failed one.
 */
static void sync_folder_of(const char *path)
{
    char dir[4096];
    fileio_folder_of(path, dir, sizeof dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* ---- the lock ---- */

static bool cancelled(const dgpb_file_unit *u)
{
    return u->cancel && *u->cancel;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Takes the lock of the journal's folder, waiting for it; *fd gets the descriptor that holds it. */
static int lock_folder(const dgpb_file_unit *u, int *fd, dgpb_diag *diag)
{
    *fd = -1;
    char *dir = folder_of(u->journal);
    if (!dir)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    int rc = DGPB_OK;
    int lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock < 0) {
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot open the folder '%s': %s", dir,
                           strerror(errno));
        goto done;
    }
    unsigned limit = u->lock_timeout_ms ? u->lock_timeout_ms : DEFAULT_LOCK_TIMEOUT_MS;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (flock(lock, LOCK_EX | LOCK_NB) != 0) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double waited = (double)(now.tv_sec - start.tv_sec) * 1000.0 +
                        (double)(now.tv_nsec - start.tv_nsec) / 1e6;
        if (errno != EWOULDBLOCK && errno != EINTR)
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot lock the folder '%s': %s", dir,
                               strerror(errno));
        else if (cancelled(u))
            rc = dgpb_diag_set(diag, DGPB_ERR_INTERRUPTED, -1,
                               "interrupted while waiting for the lock of the folder '%s'", dir);
        else if (waited >= limit)
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1,
                               "the folder '%s' stayed locked by another build for %u s; gave up "
                               "waiting",
                               dir, limit / 1000);
        if (rc)
            goto done;
        sleep_ms(10);
    }
    *fd = lock;
    lock = -1;
done:
    if (lock >= 0)
        close(lock);
    dgpb_free(dir);
    return rc;
}

static void unlock_folder(int fd)
{
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
}

/* ---- the journal ---- */

/* Writes the journal: its magic, the count, each record's three NUL-terminated paths, the
 * end mark; fsynced, with its folder entry. */
static int journal_write(const char *journal, const record *r, size_t n, dgpb_diag *diag)
{
    int fd = io_fault("create", journal)
                 ? -1
                 : open(journal, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot create the journal '%s': %s", journal,
                             strerror(errno));
    char count[32];
    snprintf(count, sizeof count, "%zu\n", n);
    int err = fileio_write_all(fd, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC));
    if (!err)
        err = fileio_write_all(fd, count, strlen(count));
    for (size_t i = 0; !err && i < n; i++) {
        const char *fields[] = {r[i].path, r[i].temp, r[i].backup};
        for (size_t f = 0; !err && f < 3; f++)
            err = fileio_write_all(fd, fields[f], strlen(fields[f]) + 1);
    }
    if (!err)
        err = fileio_write_all(fd, JOURNAL_END, strlen(JOURNAL_END));
    if (!err && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (err) {
        unlink(journal);
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot write the journal '%s': %s", journal,
                             strerror(err));
    }
    sync_folder_of(journal);
    return DGPB_OK;
}

/* The next NUL-terminated string of [*at, end) as a new string; NULL at the end or out of memory. */
static char *take_string(const char **at, const char *end)
{
    const char *nul = memchr(*at, 0, (size_t)(end - *at));
    if (!nul)
        return NULL;
    char *s = mem_strdup(*at);
    *at = nul + 1;
    return s;
}

/* Parses a journal's bytes: DGPB_OK with its records, DGPB_ERR_CORRUPT for one that is cut
 * short or not a journal (its writer died before committing). */
static int journal_parse(const char *text, size_t size, record **out, size_t *count)
{
    const char *at = text, *end = text + size;
    size_t magic = strlen(JOURNAL_MAGIC), mark = strlen(JOURNAL_END);
    if (size < magic + mark || memcmp(at, JOURNAL_MAGIC, magic) ||
        memcmp(end - mark, JOURNAL_END, mark))
        return DGPB_ERR_CORRUPT;
    at += magic;
    end -= mark;
    size_t n = 0;
    while (at < end && *at >= '0' && *at <= '9' && n <= UNIT_MAX)
        n = n * 10 + (size_t)(*at++ - '0');
    if (at >= end || *at++ != '\n' || n == 0 || n > UNIT_MAX)
        return DGPB_ERR_CORRUPT;
    record *r = mem_calloc(n, sizeof *r);
    if (!r)
        return DGPB_ERR_NOMEM;
    int rc = DGPB_OK;
    for (size_t i = 0; i < n && !rc; i++) {
        r[i].path = take_string(&at, end);
        r[i].temp = r[i].path ? take_string(&at, end) : NULL;
        r[i].backup = r[i].temp ? take_string(&at, end) : NULL;
        if (!r[i].backup || r[i].path[0] != '/' || r[i].temp[0] != '/')
            rc = DGPB_ERR_CORRUPT;
    }
    if (!rc && at != end)
        rc = DGPB_ERR_CORRUPT;
    if (rc) {
        records_free(r, n);
        return rc;
    }
    *out = r;
    *count = n;
    return DGPB_OK;
}

/* ---- replacing ---- */

/* Renames every temporary still there over its file, in order. Returns 0, or the errno of the
 * first rename that fails (*failed: its index). */
static int roll_forward(const record *r, size_t n, size_t *failed)
{
    for (size_t i = 0; i < n; i++)
        if (exists(r[i].temp) &&
            (io_fault("rename", r[i].path) || rename(r[i].temp, r[i].path) != 0)) {
            *failed = i;
            return errno;
        }
    return 0;
}

/*
 * Puts back what the records replaced: a file whose temporary is gone was
 * replaced and gets its backup back (or is removed: it did not exist
 * before); a temporary still there is removed. Returns 0 or the first errno.
 */
static int roll_back(const record *r, size_t n)
{
    int first = 0;
    for (size_t i = 0; i < n; i++) {
        if (exists(r[i].temp)) {
            unlink(r[i].temp);
        } else if (r[i].backup[0]) {
            if (rename(r[i].backup, r[i].path) != 0 && !first)
                first = errno;
            continue;
        } else if (unlink(r[i].path) != 0 && errno != ENOENT && !first) {
            first = errno;
        }
        if (r[i].backup[0])
            unlink(r[i].backup);
    }
    return first;
}

/* Removes the backups, then the journal: the unit is what it is now. */
static void finish(const char *journal, const record *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i].backup[0])
            unlink(r[i].backup);
        sync_folder_of(r[i].path);
    }
    unlink(journal);
    sync_folder_of(journal);
}

/*
 * Removes what killed writers left of the records' files in the journal's
 * folder (the locked one): "<name>.tmp.XXXXXX" and "<name>.old.XXXXXX".
 * DGPB_ERR_NOMEM when the folder's name cannot be had.
 */
static int sweep(const char *journal, const record *r, size_t n, dgpb_diag *diag)
{
    char *dir = folder_of(journal);
    if (!dir)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        for (size_t i = 0; i < n; i++) {
            const char *slash = strrchr(r[i].path, '/');
            size_t folder_len = (size_t)(slash - r[i].path), len = strlen(slash + 1);
            /* journal and record paths are absolute, so their folders compare as strings */
            if (strlen(dir) != (folder_len ? folder_len : 1) ||
                strncmp(dir, r[i].path, folder_len ? folder_len : 1))
                continue;
            if (strlen(e->d_name) == len + 11 && !strncmp(e->d_name, slash + 1, len) &&
                (!strncmp(e->d_name + len, ".tmp.", 5) || !strncmp(e->d_name + len, ".old.", 5)))
                unlinkat(dirfd(d), e->d_name, 0);
        }
    if (d)
        closedir(d);
    dgpb_free(dir);
    return DGPB_OK; /* a folder that cannot be listed holds nothing this writer can sweep */
}

/* Under the lock: completes (or undoes) the replacement a killed writer left in the journal. */
static int recover_locked(const char *journal, dgpb_diag *diag)
{
    if (!exists(journal))
        return DGPB_OK;
    uint8_t *text = NULL;
    size_t size = 0, n = 0;
    record *r = NULL;
    int rc = dgpb_file_read(journal, JOURNAL_MAX, &text, &size, diag);
    if (!rc)
        rc = journal_parse((const char *)text, size, &r, &n);
    dgpb_free(text);
    if (rc == DGPB_ERR_CORRUPT) { /* never committed: nothing was replaced */
        unlink(journal);
        sync_folder_of(journal);
        return DGPB_OK;
    }
    if (rc)
        return rc == DGPB_ERR_NOMEM ? dgpb_diag_set(diag, rc, -1, "out of memory") : rc;
    size_t failed = 0;
    int err = roll_forward(r, n, &failed);
    if (err && roll_back(r, n))
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1,
                           "cannot complete, nor undo, the replacement of '%s' that a killed "
                           "build left in '%s': %s",
                           r[failed].path, journal, strerror(err));
    if (!rc) {
        finish(journal, r, n);
        rc = sweep(journal, r, n, diag);
    }
    records_free(r, n);
    return rc;
}

int dgpb_file_unit_recover(const dgpb_file_unit *u, dgpb_diag *diag)
{
    assert(u && u->journal);
    if (!exists(u->journal)) /* a journal made meanwhile is a live writer's, who holds the lock */
        return DGPB_OK;
    char *journal = fileio_absolute(u->journal); /* as the records are: their folders compare */
    if (!journal)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    int lock;
    int rc = lock_folder(u, &lock, diag);
    if (!rc)
        rc = recover_locked(journal, diag);
    unlock_folder(lock);
    dgpb_free(journal);
    return rc;
}

/* Copies a file that cannot be hard-linked (a file system without links). */
static int copy_file(const char *from, const char *to)
{
    uint8_t *data = NULL;
    size_t size = 0;
    int rc = dgpb_file_read(from, (size_t)1 << 31, &data, &size, NULL);
    if (rc)
        return rc == DGPB_ERR_NOMEM ? ENOMEM : EIO;
    int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    int err = fd < 0 ? errno : fileio_write_all(fd, data, size);
    if (!err && fsync(fd) != 0)
        err = errno;
    if (fd >= 0 && close(fd) != 0 && !err)
        err = errno;
    dgpb_free(data);
    return err;
}

/* Keeps the file's present bytes as "<path>.old.XXXXXX" (the temporary's XXXXXX). */
static int back_up(record *r, const char *shown, dgpb_diag *diag)
{
    struct stat st;
    int st_err = lstat(r->path, &st) == 0 ? 0 : errno;
    if (st_err && st_err != ENOENT)
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot replace '%s': %s", shown,
                             strerror(st_err));
    bool keep = !st_err && !S_ISDIR(st.st_mode); /* a folder: the rename will fail */
    r->backup =
        keep ? mem_printf("%s.old.%s", r->path, r->temp + strlen(r->path) + 5) : mem_strdup("");
    if (!r->backup)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    if (!keep)
        return DGPB_OK;
    unlink(r->backup); /* a killed writer's, under our lock */
    int err = io_fault("link", r->backup)                              ? errno
              : linkat(AT_FDCWD, r->path, AT_FDCWD, r->backup, 0) == 0 ? 0
                                                                       : errno;
    if (err == EPERM || err == ENOTSUP || err == EXDEV || err == EMLINK)
        err = copy_file(r->path, r->backup);
    if (err) {
        unlink(r->backup);
        r->backup[0] = 0;
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot keep the previous '%s' aside: %s",
                             shown, strerror(err));
    }
    return DGPB_OK;
}

/* Steps 6 and 7, signals held back: renames, then the backups and the journal removed; or, when
 * a rename fails, the earlier ones undone. */
static int replace(const char *journal, const record *r, size_t n, const char *const *shown,
                   dgpb_diag *diag)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    size_t failed = 0;
    int rc = DGPB_OK, err = roll_forward(r, n, &failed);
    if (!err) {
        finish(journal, r, n);
    } else if (roll_back(r, n)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1,
                           "cannot replace '%s': %s; nor put the previous files back: the next "
                           "build of '%s' completes the replacement",
                           shown[failed], strerror(err), shown[0]);
    } else {
        unlink(journal);
        sync_folder_of(journal);
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1,
                           "cannot replace '%s': %s (every file of the unit "
                           "is left as it was)",
                           shown[failed], strerror(err));
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

int dgpb_file_unit_write(const dgpb_file_unit *u, size_t count, const char *const *paths,
                         const void *const *data, const size_t *sizes, dgpb_diag *diag)
{
    assert(u && u->journal && paths && data && sizes && count > 0);
    if (count > UNIT_MAX)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "a unit has at most %d files", UNIT_MAX);
    record *r = mem_calloc(count, sizeof *r);
    if (!r)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    int lock = -1;
    bool journaled = false;
    int rc = DGPB_OK;
    for (size_t i = 0; i < count && !rc; i++)
        if (!(r[i].path = fileio_absolute(paths[i])))
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    char *journal = rc ? NULL : fileio_absolute(u->journal);
    if (!rc && !journal)
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    if (!rc)
        rc = lock_folder(u, &lock, diag);
    if (!rc)
        rc = recover_locked(journal, diag);
    if (!rc)
        rc = sweep(journal, r, count, diag);
    for (size_t i = 0; i < count && !rc; i++)
        rc = fileio_write_temp(r[i].path, data[i], sizes[i], &r[i].temp, diag);
    for (size_t i = 0; i < count && !rc; i++)
        rc = back_up(&r[i], paths[i], diag);
    if (!rc && cancelled(u))
        rc = dgpb_diag_set(diag, DGPB_ERR_INTERRUPTED, -1, "interrupted before writing '%s'",
                           paths[0]);
    if (!rc) {
        rc = journal_write(journal, r, count, diag);
        journaled = !rc;
    }
    if (journaled)
        rc = replace(journal, r, count, paths, diag);
    for (size_t i = 0; !journaled && i < count; i++) { /* nothing was replaced */
        if (r[i].temp)
            unlink(r[i].temp);
        if (r[i].backup && r[i].backup[0])
            unlink(r[i].backup);
    }
    unlock_folder(lock);
    dgpb_free(journal);
    records_free(r, count);
    return rc;
}
