/*
 * fileio.c - whole-file reads and atomic writes (dgpb/fileio.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "dgpb/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fileio_internal.h"
#include "core/io_fault.h"

static dgpb_io_fault_fn fault_hook;
static void *fault_user;

void io_fault_set(dgpb_io_fault_fn fn, void *user)
{
    fault_hook = fn;
    fault_user = user;
}

int io_fault(const char *step, const char *path)
{
    int err = fault_hook ? fault_hook(step, path, fault_user) : 0;
    if (err)
        errno = err;
    return err;
}

/* Reads the open `fd` (of `path`, status `st`) to its end; closes it. */
static int read_fd(int fd, const char *path, const struct stat *st, size_t max_size, uint8_t **out,
                   size_t *size, dgpb_diag *diag);

int dgpb_file_read(const char *path, size_t max_size, uint8_t **out, size_t *size, dgpb_diag *diag)
{
    *out = NULL;
    *size = 0;
    /* O_NONBLOCK: a FIFO with no writer opens at once instead of waiting for one (and then
       reads as empty); blocking reads again from here on, so a pipe with a writer is read
       to its end. */
    int fd = io_fault("open", path) ? -1
                                     : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    if (fstat(fd, &st) != 0 || flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        int rc =
            dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot stat '%s': %s", path, strerror(errno));
        close(fd);
        return rc;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "'%s' is a directory", path);
    }
    return read_fd(fd, path, &st, max_size, out, size, diag);
}

int fileio_read_regular(const char *path, size_t max_size, uint8_t **out, size_t *size,
                        dgpb_diag *diag)
{
    *out = NULL;
    *size = 0;
    /* O_NONBLOCK: a FIFO opens at once instead of waiting for a writer; O_NOFOLLOW: a
       symbolic link is not opened (ELOOP). */
    int fd = io_fault("open", path)
                 ? -1
                 : open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 && errno == ENOENT)
        return dgpb_diag_set(diag, DGPB_ERR_NOT_FOUND, -1, "'%s' does not exist", path);
    if (fd < 0 && (errno == ELOOP || errno == EISDIR || errno == ENXIO || errno == ENODEV ||
                   errno == EOPNOTSUPP))
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1, "'%s' is not a regular file", path);
    if (fd < 0)
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot open '%s': %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int rc =
            dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot stat '%s': %s", path, strerror(errno));
        close(fd);
        return rc;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1, "'%s' is not a regular file", path);
    }
    return read_fd(fd, path, &st, max_size, out, size, diag);
}

static int read_fd(int fd, const char *path, const struct stat *st, size_t max_size, uint8_t **out,
                   size_t *size, dgpb_diag *diag)
{
    int rc = DGPB_OK;
    uint8_t *buf = NULL;
    /* A regular file is measured before anything is allocated: one over the limit is refused
       at once, whatever its size (a sparse file of gigabytes costs nothing). */
    if (S_ISREG(st->st_mode) && (uint64_t)st->st_size > (uint64_t)max_size) {
        close(fd);
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "'%s' is larger than %zu bytes", path,
                             max_size);
    }
    /* Read to end of file, whatever st_size says (pipes, growing files); the buffer never
       grows past the limit and the byte that shows a file over it. */
    size_t limit = max_size < SIZE_MAX - 2 ? max_size + 2 : max_size;
    size_t cap = st->st_size > 0 ? (size_t)st->st_size + 2 : 4096, len = 0;
    if (cap > limit)
        cap = limit;
    buf = mem_alloc(cap);
    if (!buf) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading '%s'", path);
        goto done;
    }
    for (;;) {
        if (len + 1 >= cap) {
            if (cap >= limit || len > max_size) {
                rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "'%s' is larger than %zu bytes", path,
                                   max_size);
                goto done;
            }
            size_t grown = cap <= limit / 2 ? cap * 2 : limit;
            uint8_t *nb = mem_realloc(buf, grown);
            if (!nb) {
                rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading '%s'", path);
                goto done;
            }
            buf = nb;
            cap = grown;
        }
        ssize_t n = io_fault("read", path) ? -1 : read(fd, buf + len, cap - len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc =
                dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot read '%s': %s", path, strerror(errno));
            goto done;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    if (len > max_size) {
        rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "'%s' is larger than %zu bytes", path,
                           max_size);
        goto done;
    }
    buf[len] = 0;
    *out = buf;
    *size = len;
    buf = NULL;
done:
    dgpb_free(buf);
    close(fd);
    return rc;
}

int fileio_write_all(int fd, const void *data, size_t size)
{
    const uint8_t *p = data;
    while (size > 0) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w;
        size -= (size_t)w;
    }
    return 0;
}

void fileio_folder_of(const char *path, char *buf, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, size, ".");
    else if (slash == path)
        snprintf(buf, size, "/");
    else
        snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

char *fileio_absolute(const char *path)
{
    if (path[0] == '/')
        return mem_strdup(path);
    char here[4096];
    if (!getcwd(here, sizeof here))
        return mem_strdup(path);
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    return mem_printf("%s/%s", here, path);
}

bool fileio_readable(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

int fileio_write_temp(const char *path, const void *data, size_t size, char **tmp_out,
                      dgpb_diag *diag)
{
    size_t n = strlen(path) + 16;
    char *tmp = mem_alloc(n);
    if (!tmp)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    int fd = io_fault("create", tmp) ? -1 : mkstemp(tmp);
    if (fd < 0) {
        int rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot create a file next to '%s': %s", path,
                               strerror(errno));
        dgpb_free(tmp);
        return rc;
    }
    int err = io_fault("write", tmp) ? errno : fileio_write_all(fd, data, size);
    if (!err && (io_fault("chmod", tmp) || fchmod(fd, 0644) != 0))
        err = errno;
    if (!err && (io_fault("sync", tmp) || fsync(fd) != 0))
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (err) {
        unlink(tmp);
        dgpb_free(tmp);
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot write '%s': %s", path, strerror(err));
    }
    *tmp_out = tmp;
    return DGPB_OK;
}

int dgpb_file_write_atomic(const char *path, const void *data, size_t size, dgpb_diag *diag)
{
    char *tmp = NULL;
    int rc = fileio_write_temp(path, data, size, &tmp, diag);
    if (rc)
        return rc;
    if (io_fault("rename", path) || rename(tmp, path) != 0) {
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot replace '%s': %s", path, strerror(errno));
        unlink(tmp);
    }
    dgpb_free(tmp);
    return rc;
}

int dgpb_mkdirs(const char *path, dgpb_diag *diag)
{
    size_t n = strlen(path);
    char *p = mem_alloc(n + 1);
    if (!p)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    memcpy(p, path, n + 1);
    int rc = DGPB_OK;
    for (size_t i = 1; i <= n && !rc; i++) {
        if (p[i] != '/' && p[i] != 0)
            continue;
        char c = p[i];
        p[i] = 0;
        struct stat st;
        if ((io_fault("mkdir", p) || mkdir(p, 0755) != 0) && errno != EEXIST)
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot create the folder '%s': %s", p,
                               strerror(errno));
        else if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "'%s' is not a folder", p);
        p[i] = c;
    }
    dgpb_free(p);
    return rc;
}
