/*
 * dgpb/run_values.h - typed values for running bundles: text to bytes and
 * back, comparing outputs with expectations, summarising dispatch times.
 *
 * The text form is the one dgpb-run reads and prints: a comma-separated list
 * of numbers of one element type ("1,2,3", "0.5,-inf,nan", "0xff"). Bytes are
 * little-endian and tightly packed. f16 converts with round-to-nearest-even.
 *
 * Ownership: text and bytes the functions return are malloc'd and belong to
 * the caller (dgpb_free()).
 */
#ifndef DGPB_RUN_VALUES_H
#define DGPB_RUN_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dgpb_value_type {
    DGPB_VALUE_F32 = 0,
    DGPB_VALUE_F16,
    DGPB_VALUE_F64,
    DGPB_VALUE_U32,
    DGPB_VALUE_I32,
    DGPB_VALUE_U64,
    DGPB_VALUE_I64,
    DGPB_VALUE_U8,
    DGPB_VALUE_HEX, /* printing only: 32-bit words as 0x%08x (a tail of 1-3 bytes as its bytes) */
    DGPB_VALUE_U16,
    DGPB_VALUE_I16,
    DGPB_VALUE_I8,
    DGPB_VALUE_TYPE_COUNT
} dgpb_value_type;

/* The names of the value types, as every option that takes a TYPE lists them (hex aside). */
#define DGPB_VALUE_TYPE_NAMES "f32 f16 f64 u32 i32 u64 i64 u16 i16 u8 i8"

/* "f32", ...; NULL out of range. */
const char *dgpb_value_type_name(uint32_t type);
/* The type of `len` bytes at `name`, or -1. */
int dgpb_value_type_from_name(const char *name, size_t len);
/* Bytes per element (hex: 4). */
size_t dgpb_value_type_size(uint32_t type);
/* True for f16, f32, f64. */
bool dgpb_value_type_is_float(uint32_t type);

/*
 * The type a value list without TYPE: has: f32 when any number has '.', an
 * exponent 'e' (not in hex), inf or nan; else i32 when any is negative; else
 * u32.
 */
dgpb_value_type dgpb_value_infer_type(const char *text);

/*
 * Parses the comma-separated list `text` as `type` (not hex) into *bytes
 * (*size bytes). Integers take decimal or 0x hex and must fit the type;
 * floats take what strtod takes, inf and nan. DGPB_ERR_INVALID names the
 * element that does not parse or fit.
 */
int dgpb_value_parse(uint32_t type, const char *text, uint8_t **bytes, size_t *size,
                     dgpb_diag *diag);

/*
 * Formats `size` bytes as `type` into *text ("1,2,3"): floats with the
 * fewest significant digits that dgpb_value_parse reads back as the same
 * value of the type (up to 9 for f32 and f16, 17 for f64), as a plain
 * decimal from 1e-6 up to 1e21 (10, 0.1) and with an exponent beyond (1e-7,
 * 1e+21), as JavaScript's Number.prototype.toString lays out its digits;
 * nan, inf and -inf by name. Bytes after the last whole element are
 * formatted as u8. 0, or DGPB_ERR_NOMEM.
 */
int dgpb_value_format(uint32_t type, const uint8_t *data, size_t size, char **text);

/* One element as text (the same form as dgpb_value_format), into buf. */
void dgpb_value_format_one(uint32_t type, const uint8_t *element, char *buf, size_t buf_size);

/* How an output compares with its expectation. */
typedef struct dgpb_value_compare {
    size_t compared;   /* elements compared */
    size_t mismatches; /* of which different */
    size_t first;      /* the index of the first different element */
    bool too_long;     /* the expectation has more bytes than the output */
} dgpb_value_compare;

/*
 * Compares the first `want_size` bytes of `got` with `want`, element by
 * element of `type`: with a negative tolerance every element byte for byte;
 * else integer and hex elements exactly and float elements (f16, f32, f64)
 * within |got - want| <= tolerance, NaN equal to NaN, an infinity only to
 * itself. Bytes after the last whole element compare exactly, as one more
 * element. True when everything matches and the expectation is not longer
 * than the output.
 */
bool dgpb_value_compare_bytes(uint32_t type, const uint8_t *got, size_t got_size,
                              const uint8_t *want, size_t want_size, double tolerance,
                              dgpb_value_compare *out);

/* Half-precision conversions (IEEE binary16; round to nearest even). */
uint16_t dgpb_f32_to_f16(float f);
float dgpb_f16_to_f32(uint16_t h);

/* Minimum, median and mean of `n` values (n > 0; `v` is not reordered). */
void dgpb_time_stats(const double *v, size_t n, double *min, double *median, double *mean);

#ifdef __cplusplus
}
#endif

#endif
