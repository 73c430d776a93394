/*
 * io/depfile.h - Make-syntax dependency files: reading the compiler's,
 * writing dgpb-build's (docs/build.md, "Depfile").
 */
#ifndef DGPB_DEPFILE_H
#define DGPB_DEPFILE_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define depfile_free dgpb__depfile_free
#define depfile_make dgpb__depfile_make
#define depfile_parse dgpb__depfile_parse
#define depfile_unwritable dgpb__depfile_unwritable

#include <stddef.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Reads the prerequisites of every rule of a Make-syntax depfile (backslash
 * newlines join lines, `\ ` is a space, `\#` a hash, `\:` a colon (as
 * Slang writes them), `$$` a dollar sign), in order, and
 * appends each one not yet in the list to *deps (*count of them; each a new
 * string, the array grown with dgpb_realloc). DGPB_ERR_CORRUPT when a line
 * has no rule separator; DGPB_ERR_NOMEM.
 */
int depfile_parse(const char *text, size_t len, char ***deps, size_t *count);

/*
 * Makes a depfile: one rule `TARGETS...: DEPS...` and an empty rule for each
 * dependency from deps[phony_from] on (as gcc -MP does for all but the main
 * file, so that a deleted one does not stop Make). Spaces are written as
 * `\ `, `$` as `$$`, `#` as `\#`, `:` as `\:`. *text is a new
 * NUL-terminated string. With `refused` given, a path that
 * depfile_unwritable() refuses writes nothing: DGPB_ERR_INVALID, and
 * *refused is that path (one of the arguments). DGPB_ERR_NOMEM.
 */
int depfile_make(const char *const *targets, size_t target_count, const char *const *deps,
                 size_t dep_count, size_t phony_from, const char **refused, char **text);

/*
 * The offset of the first byte of `path` that no depfile can hold so that
 * both GNU Make and Ninja read the path back as it is, or -1 when there is
 * none (docs/build.md, "Depfile"). Letters, digits, `+,/_.~(){}@]!-` and
 * every byte from 0x80 are written as they are, a space, `#`, `$` and `:`
 * escaped; refused are every other byte (a control character, `"&'*;<=>?[^|%`
 * and the backquote: Make or Ninja ends, drops or reinterprets the path at
 * them), a `:` at the end, a backslash before anything but a byte written as
 * it is, a `~` first, and a `)` last in a path with a `(` (Make's archive
 * member).
 */
long depfile_unwritable(const char *path);

/* Frees a list from depfile_parse. */
void depfile_free(char **deps, size_t count);

#ifdef __cplusplus
}
#endif

#endif
