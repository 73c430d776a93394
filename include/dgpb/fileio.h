/*
 * dgpb/fileio.h - whole-file reads and atomic whole-file writes.
 *
 * dgpb_file_write_atomic() writes to a temporary file in the destination's
 * folder and renames it over the destination only once every byte is on
 * disk, so a failed or killed writer leaves the previous file untouched and
 * no partial file behind (a killed one may leave its temporary,
 * "<path>.tmp.XXXXXX"). Files that must change together are an output unit
 * (dgpb/file_unit.h, in the producer's library). These are in the reader
 * library (dgpb_reader): a host reads its bundles with them.
 */
#ifndef DGPB_FILEIO_H
#define DGPB_FILEIO_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Reads the whole file into a new buffer (freed by the caller with dgpb_free()),
 * NUL-terminated one byte past *size for convenience. Files larger than
 * `max_size` are refused with DGPB_ERR_LIMIT: a regular file by its size,
 * before anything is allocated; a pipe once max_size + 1 bytes are read (the
 * buffer never grows past max_size + 2). The file is opened without blocking,
 * so a FIFO with no writer reads as empty instead of waiting for one.
 * DGPB_ERR_IO names the file and the system's reason.
 */
int dgpb_file_read(const char *path, size_t max_size, uint8_t **out, size_t *size, dgpb_diag *diag);

/* Atomically replaces `path` with `size` bytes (mode 0644 before umask). */
int dgpb_file_write_atomic(const char *path, const void *data, size_t size, dgpb_diag *diag);

/* Creates a folder and its missing parents (mode 0755), like mkdir -p. */
int dgpb_mkdirs(const char *path, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
