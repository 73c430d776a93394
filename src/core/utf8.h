/*
 * utf8.h - strict UTF-8 validation (internal).
 */
#ifndef DGPB_UTF8_H
#define DGPB_UTF8_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define utf8_valid dgpb__utf8_valid

#include <stdbool.h>
#include <stddef.h>

/*
 * True when `len` bytes are well-formed UTF-8 (no overlong forms, no
 * surrogates, nothing above U+10FFFF) and contain no NUL byte. On failure
 * *bad (if given) is the offset of the first offending byte.
 */
bool utf8_valid(const char *s, size_t len, size_t *bad);

#endif
