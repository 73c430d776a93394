/*
 * strict_number.h - whole numbers read strictly from text a user gives
 * (options, environment variables, protocol fields): decimal digits only,
 * nothing before or after them. strtol() and its kin skip white space, take a
 * sign ("-1" as ULONG_MAX from strtoul), stop at the first other byte ("8x"
 * read as 8) and a caller that forgets errno takes an overflow as the
 * largest value; this reader does none of that.
 */
#ifndef DGPB_CORE_STRICT_NUMBER_H
#define DGPB_CORE_STRICT_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define strict_u64 dgpb__strict_u64
#define strict_u64_prefix dgpb__strict_u64_prefix

/*
 * Whether the NUL-terminated `text` is one or more decimal digits (no sign,
 * no white space, no other byte) whose value is at most `max`; sets *out only
 * then.
 */
bool strict_u64(const char *text, uint64_t max, uint64_t *out);

/*
 * The same for the digits at the start of `text`, which must be followed by
 * something else or nothing: returns the count of digits read (0 when there
 * are none or the value is over `max`), *out set when it is not 0.
 */
size_t strict_u64_prefix(const char *text, uint64_t max, uint64_t *out);

#endif
