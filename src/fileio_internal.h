/*
 * fileio_internal.h - what fileio.c lends file_unit.c: temporaries next to a
 * destination, registered so that dgpb_file_remove_temporaries() finds them.
 */
#ifndef DGPB_FILEIO_INTERNAL_H
#define DGPB_FILEIO_INTERNAL_H

#include <stddef.h>

#include "dgpb/result.h"

#define fileio_write_temp dgpb__fileio_write_temp
#define fileio_forget_temp dgpb__fileio_forget_temp

/*
 * Writes all bytes, fsynced, mode 0644, to a new temporary "<path>.tmp.XXXXXX"
 * next to `path`; its name goes to *tmp_out (freed by the caller with
 * dgpb_free() after fileio_forget_temp()).
 */
int fileio_write_temp(const char *path, const void *data, size_t size, char **tmp_out,
                      dgpb_diag *diag);

/* Forgets a temporary (renamed or removed): a signal no longer removes it. */
void fileio_forget_temp(const char *tmp);

#endif
