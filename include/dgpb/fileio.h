/*
 * dgpb/fileio.h - whole-file reads and atomic whole-file writes.
 *
 * dgpb_file_write_atomic() writes to a temporary file in the destination's
 * folder and renames it over the destination only once every byte is on
 * disk, so a failed or killed writer leaves the previous file untouched and
 * no partial file behind.
 */
#ifndef DGPB_FILEIO_H
#define DGPB_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Reads the whole file into a new buffer (freed by the caller with dgpb_free()),
 * NUL-terminated one byte past *size for convenience. Files larger than
 * `max_size` are refused with DGPB_ERR_LIMIT. DGPB_ERR_IO names the file and
 * the system's reason.
 */
int dgpb_file_read(const char *path, size_t max_size, uint8_t **out, size_t *size, dgpb_diag *diag);

/* Atomically replaces `path` with `size` bytes (mode 0644 before umask). */
int dgpb_file_write_atomic(const char *path, const void *data, size_t size, dgpb_diag *diag);

/*
 * Atomically replaces several files: all temporaries are written first and
 * renamed only when every one succeeded; when a rename fails, those before
 * it are undone (the old files, kept as hard links meanwhile, are put back;
 * new files where there was none are removed), so on failure no destination
 * changes. (Each rename is atomic; a crash between two renames may leave a
 * mix of old and new files, never a partial one.)
 */
int dgpb_files_write_atomic(size_t count, const char *const *paths, const void *const *data,
                            const size_t *sizes, dgpb_diag *diag);

/*
 * Removes the temporaries of writes in progress. Async-signal-safe: a tool
 * calls it from its SIGINT/SIGTERM handler before dying, so that a killed
 * write leaves nothing behind (the destination is untouched either way).
 */
void dgpb_file_remove_temporaries(void);

/* Creates a folder and its missing parents (mode 0755), like mkdir -p. */
int dgpb_mkdirs(const char *path, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
