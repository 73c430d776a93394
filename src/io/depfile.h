/*
 * io/depfile.h - Make-syntax dependency files: reading the compiler's,
 * writing dgpb-build's (docs/build.md, "Depfile").
 */
#ifndef DGPB_DEPFILE_H
#define DGPB_DEPFILE_H

#include <stddef.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Reads the prerequisites of every rule of a Make-syntax depfile (backslash
 * newlines join lines, `\ ` is a space, `$$` a dollar sign), in order, and
 * appends each one not yet in the list to *deps (*count of them; each a new
 * string, the array grown with dgpb_realloc). DGPB_ERR_CORRUPT when a line
 * has no rule separator; DGPB_ERR_NOMEM.
 */
int dgpb_depfile_parse(const char *text, size_t len, char ***deps, size_t *count);

/*
 * Makes a depfile: one rule `TARGETS...: DEPS...` and an empty rule for each
 * dependency from deps[phony_from] on (as gcc -MP does for all but the main
 * file, so that a deleted one does not stop Make). Spaces are written as
 * `\ `, `$` as `$$`, `#` as `\#`. *text is a new NUL-terminated string.
 */
int dgpb_depfile_make(const char *const *targets, size_t target_count, const char *const *deps,
                      size_t dep_count, size_t phony_from, char **text);

/* Frees a list from dgpb_depfile_parse. */
void dgpb_depfile_free(char **deps, size_t count);

#ifdef __cplusplus
}
#endif

#endif
