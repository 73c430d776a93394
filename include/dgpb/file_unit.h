/*
 * dgpb/file_unit.h - output units: several files replaced as one.
 *
 * What dgpb-build writes (the bundle, its JSON view, its depfile and header)
 * is replaced as one unit: a reader sees every new file or every old one,
 * whatever fails and whenever the writer is killed (docs/build.md, "The
 * output unit"). Library dgpb (the producer); single files are
 * dgpb/fileio.h's.
 */
#ifndef DGPB_FILE_UNIT_H
#define DGPB_FILE_UNIT_H

#include <signal.h>
#include <stddef.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif
