/*
 * dgpb/fileio.h - whole-file reads and atomic whole-file writes.
 *
 * dgpb_file_write_atomic() writes to a temporary file in the destination's
 * folder and renames it over the destination only once every byte is on
 * disk, so a failed or killed writer leaves the previous file untouched and
 * no partial file behind (a killed one may leave its temporary,
 * "<path>.tmp.XXXXXX"). Files that must change together are an output unit
 * (dgpb_file_unit_write()).
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
 * `max_size` are refused with DGPB_ERR_LIMIT. DGPB_ERR_IO names the file and
 * the system's reason.
 */
int dgpb_file_read(const char *path, size_t max_size, uint8_t **out, size_t *size, dgpb_diag *diag);

/* Atomically replaces `path` with `size` bytes (mode 0644 before umask). */
int dgpb_file_write_atomic(const char *path, const void *data, size_t size, dgpb_diag *diag);

/*
 * An output unit (docs/build.md, "The output unit"): files that readers must
 * only see together, every one the new or every one the old, whatever fails
 * and whenever the writer is killed. Writers take a lock on the journal's
 * folder (flock(), waited for), so the files of a unit are best placed in
 * that folder; a file elsewhere (a depfile) is replaced with them, but only
 * files in that folder are swept of a killed writer's temporaries.
 */
typedef struct dgpb_file_unit {
    const char *journal; /* the unit's journal, a hidden file in the locked folder; present only
                            while a replacement is under way or after a writer was killed */
    const volatile sig_atomic_t *cancel; /* nonzero: stop before committing (DGPB_ERR_INTERRUPTED);
                                            NULL: never */
    unsigned lock_timeout_ms;            /* how long to wait for the lock; 0: 120 s */
} dgpb_file_unit;

/*
 * Replaces the `count` files (at most 16) of a unit with new bytes, mode
 * 0644 before umask: under the folder's lock, first completes (or undoes)
 * what a killed writer left in the journal and removes its temporaries,
 * then writes every temporary (fsynced) and keeps each old file aside (a
 * hard link) before committing the journal and renaming, in the order
 * given. A rename that fails puts back the files renamed before it.
 * Returns DGPB_OK; DGPB_ERR_IO naming the file and the reason (nothing
 * changed, or, only when putting back failed too, a journal that the next
 * writer or dgpb_file_unit_recover() completes); DGPB_ERR_INTERRUPTED
 * (*cancel, nothing changed); DGPB_ERR_LIMIT; DGPB_ERR_NOMEM.
 */
int dgpb_file_unit_write(const dgpb_file_unit *unit, size_t count, const char *const *paths,
                         const void *const *data, const size_t *sizes, dgpb_diag *diag);

/*
 * Completes (or, where a file cannot be renamed, undoes) the replacement
 * that a killed writer left in the unit's journal, under the folder's lock.
 * Without a journal it returns DGPB_OK at once and takes no lock.
 */
int dgpb_file_unit_recover(const dgpb_file_unit *unit, dgpb_diag *diag);

/* Creates a folder and its missing parents (mode 0755), like mkdir -p. */
int dgpb_mkdirs(const char *path, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
