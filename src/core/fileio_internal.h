/*
 * fileio_internal.h - what fileio.c lends file_unit.c and cache.c: temporaries
 * next to a destination; whole writes; a path's folder; and to them and the compiler
 * lookup (slang_lookup.c, slang_library.c): a path made absolute, and
 * whether a file can be read; to the cache, regular files read without waiting.
 */
#ifndef DGPB_FILEIO_INTERNAL_H
#define DGPB_FILEIO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "dgpb/result.h"

#define fileio_write_temp dgpb__fileio_write_temp
#define fileio_write_all dgpb__fileio_write_all
#define fileio_folder_of dgpb__fileio_folder_of
#define fileio_absolute dgpb__fileio_absolute
#define fileio_readable dgpb__fileio_readable
#define fileio_read_regular dgpb__fileio_read_regular

/*
 * Writes all bytes, fsynced, mode 0644, to a new temporary "<path>.tmp.XXXXXX"
 * next to `path`; its name goes to *tmp_out (freed by the caller with
 * dgpb_free()).
 */
int fileio_write_temp(const char *path, const void *data, size_t size, char **tmp_out,
                      dgpb_diag *diag);

/* Writes every byte to `fd` (retrying on EINTR): 0, or the errno (EIO for a write of none). */
int fileio_write_all(int fd, const void *data, size_t size);

/* The folder of a path into buf: "." for a bare name, "/" for the root's files. No allocation. */
void fileio_folder_of(const char *path, char *buf, size_t size);

/*
 * `path` made absolute against the working folder, as a new string (freed
 * with dgpb_free()): a path that starts with '/' is copied as given; any
 * other is "<working folder>/<path>", leading "./" dropped ("./a/b" and "a/b"
 * give the same path). Nothing else is resolved: symbolic links and ".."
 * stay as written. When the working folder cannot be had (removed, or longer
 * than 4096 bytes), the path is copied as given. NULL: out of memory.
 */
char *fileio_absolute(const char *path);

/*
 * Reads a whole regular file, as dgpb_file_read() does, without ever waiting
 * on or following anything else: opened with O_NONBLOCK and O_NOFOLLOW, then
 * checked with fstat(). DGPB_ERR_NOT_FOUND when nothing is there,
 * DGPB_ERR_CORRUPT when something other than a regular file is (a folder, a
 * FIFO, a socket, a device, a symbolic link). For files only dgpb writes (the
 * cache's), where anything else is damage.
 */
int fileio_read_regular(const char *path, size_t max_size, uint8_t **out, size_t *size,
                        dgpb_diag *diag);

/* Whether `path` names something this process can open for reading (symbolic links followed). */
bool fileio_readable(const char *path);

#endif
