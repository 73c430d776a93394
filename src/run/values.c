/*
 * src/run/values.c - typed values: parsing lists, formatting them, comparing
 * outputs with expectations, f16 conversions, time statistics. See
 * dgpb/run_values.h.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/run_values.h"
#include "run/run_internal.h"

static const char *const type_names[DGPB_VALUE_TYPE_COUNT] = {
    "f32", "f16", "f64", "u32", "i32", "u64", "i64", "u8", "hex", "u16", "i16", "i8"};
static const size_t type_sizes[DGPB_VALUE_TYPE_COUNT] = {4, 2, 8, 4, 4, 8, 8, 1, 4, 2, 2, 1};

const char *dgpb_value_type_name(uint32_t type)
{
    return type < DGPB_VALUE_TYPE_COUNT ? type_names[type] : NULL;
}

int dgpb_value_type_from_name(const char *name, size_t len)
{
    for (int i = 0; i < DGPB_VALUE_TYPE_COUNT; i++)
        if (strlen(type_names[i]) == len && !memcmp(name, type_names[i], len))
            return i;
    return -1;
}

size_t dgpb_value_type_size(uint32_t type)
{
    return type < DGPB_VALUE_TYPE_COUNT ? type_sizes[type] : 0;
}

bool dgpb_value_type_is_float(uint32_t type)
{
    return type == DGPB_VALUE_F32 || type == DGPB_VALUE_F16 || type == DGPB_VALUE_F64;
}

/* ---- f16 ------------------------------------------------------------------ */

uint16_t dgpb_f32_to_f16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xFFu, man = x & 0x7FFFFFu;
    if (exp == 0xFF) /* inf, nan (kept quiet) */
        return (uint16_t)(sign | 0x7C00u | (man ? 0x200u | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7C00u);
    if (e <= 0) { /* subnormal or zero */
        if (e < -10)
            return sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t half = man >> shift, rest = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rest > mid || (rest == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (man >> 13), rest = man & 0x1FFFu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        half++; /* may carry into the exponent, up to infinity: still right */
    return (uint16_t)(sign | half);
}

float dgpb_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, man = h & 0x3FFu, x;
    if (exp == 0x1F) {
        x = sign | 0x7F800000u | (man << 13);
    } else if (exp == 0) {
        if (!man) {
            x = sign;
        } else { /* subnormal: normalise */
            int e = -1;
            do {
                man <<= 1;
                e++;
            } while (!(man & 0x400u));
            x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3FFu) << 13);
        }
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* ---- parsing ----------------------------------------------------------------- */

dgpb_value_type dgpb_value_infer_type(const char *text)
{
    bool negative = false;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        bool hex = false;
        for (size_t i = 0; i < len; i++) {
            char c = (char)tolower((unsigned char)p[i]);
            if (c == 'x')
                hex = true;
            if (c == '.' || (c == 'e' && !hex) || c == 'n' || c == 'i')
                return DGPB_VALUE_F32; /* '.', an exponent, inf, nan */
            if (c == '-')
                negative = true;
        }
        p += len + (end != NULL);
    }
    return negative ? DGPB_VALUE_I32 : DGPB_VALUE_U32;
}

bool run_parse_number(char kind, uint32_t bits, const char *s, size_t len, uint8_t *dst)
{
    char buf[128];
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    if (!len || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = 0;
    char *end = NULL;
    errno = 0;
    if (kind == 'f') {
        double v = strtod(buf, &end);
        if (*end || end == buf || (errno == ERANGE && isinf(v)))
            return false;
        if (isfinite(v) && !isfinite(bits == 64   ? v
                                     : bits == 32 ? (double)(float)v
                                                  : dgpb_f16_to_f32(dgpb_f32_to_f16((float)v))))
            return false; /* a finite number beyond the type's range; inf and nan are given by name */
        if (bits == 64) {
            memcpy(dst, &v, 8);
        } else if (bits == 32) {
            float f = (float)v;
            memcpy(dst, &f, 4);
        } else {
            uint16_t h = dgpb_f32_to_f16((float)v);
            memcpy(dst, &h, 2);
        }
        return true;
    }
    uint64_t u;
    if (kind == 'b' && (!strcmp(buf, "true") || !strcmp(buf, "false"))) {
        u = buf[0] == 't';
    } else if (kind == 'i') {
        long long v = strtoll(buf, &end, 0);
        if (*end || end == buf || errno == ERANGE)
            return false;
        if (bits < 64) {
            long long lim = 1LL << (bits - 1);
            if (v < -lim || v >= lim)
                return false;
        }
        u = (uint64_t)v;
    } else {
        if (buf[0] == '-')
            return false;
        unsigned long long v = strtoull(buf, &end, 0);
        if (*end || end == buf || errno == ERANGE)
            return false;
        if (kind == 'b' ? v > 1 : bits < 64 && v >> bits)
            return false;
        u = v;
    }
    for (uint32_t i = 0; i < bits / 8; i++)
        dst[i] = (uint8_t)(u >> (8 * i)); /* little-endian, as every target keeps it */
    return true;
}

const char *run_number_range(char kind, uint32_t bits)
{
    if (kind == 'f')
        return bits == 16   ? "-65504 to 65504 (or inf, -inf, nan)"
               : bits == 32 ? "-3.4028235e+38 to 3.4028235e+38 (or inf, -inf, nan)"
                            : "-1.7976931348623157e+308 to 1.7976931348623157e+308 (or inf, "
                              "-inf, nan)";
    if (kind == 'b')
        return "0, 1, true or false";
    if (kind == 'i')
        return bits == 8    ? "-128 to 127"
               : bits == 16 ? "-32768 to 32767"
               : bits == 32 ? "-2147483648 to 2147483647"
                            : "-9223372036854775808 to 9223372036854775807";
    return bits == 8    ? "0 to 255"
           : bits == 16 ? "0 to 65535"
           : bits == 32 ? "0 to 4294967295"
                        : "0 to 18446744073709551615";
}

/* Parses one element of `len` bytes into dst. */
static bool parse_one(uint32_t type, const char *s, size_t len, uint8_t *dst)
{
    static const struct {
        char kind;
        uint32_t bits;
    } as[DGPB_VALUE_TYPE_COUNT] = {
        [DGPB_VALUE_F32] = {'f', 32}, [DGPB_VALUE_F16] = {'f', 16}, [DGPB_VALUE_F64] = {'f', 64},
        [DGPB_VALUE_U32] = {'u', 32}, [DGPB_VALUE_I32] = {'i', 32}, [DGPB_VALUE_U64] = {'u', 64},
        [DGPB_VALUE_I64] = {'i', 64}, [DGPB_VALUE_U8] = {'u', 8},   [DGPB_VALUE_HEX] = {'u', 32},
        [DGPB_VALUE_U16] = {'u', 16}, [DGPB_VALUE_I16] = {'i', 16}, [DGPB_VALUE_I8] = {'i', 8},
    };
    return type < DGPB_VALUE_TYPE_COUNT &&
           run_parse_number(as[type].kind, as[type].bits, s, len, dst);
}

/* The range of `type` as text. */
static const char *type_range(uint32_t type)
{
    static const char kinds[DGPB_VALUE_TYPE_COUNT] = "fffuiuiuuuii";
    static const uint8_t bits[DGPB_VALUE_TYPE_COUNT] = {32, 16, 64, 32, 32, 64,
                                                        64, 8,  32, 16, 16, 8};
    return run_number_range(kinds[type], bits[type]);
}

int dgpb_value_parse(uint32_t type, const char *text, uint8_t **bytes, size_t *size,
                     dgpb_diag *diag)
{
    *bytes = NULL;
    *size = 0;
    size_t elem = dgpb_value_type_size(type);
    if (!elem)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "unknown value type %u", type);
    size_t count = 1;
    for (const char *p = text; *p; p++)
        count += *p == ',';
    uint8_t *out = mem_alloc(count * elem);
    if (!out)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    const char *p = text;
    for (size_t i = 0; i < count; i++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (!parse_one(type, p, len, out + i * elem)) {
            dgpb_free(out);
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                 "'%.*s' (element %zu) is not a %s value (%s)", (int)len, p, i + 1,
                                 dgpb_value_type_name(type), type_range(type));
        }
        p += len + 1;
    }
    *bytes = out;
    *size = count * elem;
    return DGPB_OK;
}

/* ---- formatting ------------------------------------------------------------ */

/* Whether `text` reads back (as dgpb_value_parse reads it) as `v` of `type`. */
static bool reads_back(const char *text, double v, uint32_t type)
{
    double back = strtod(text, NULL);
    if (type == DGPB_VALUE_F64)
        return back == v;
    if (type == DGPB_VALUE_F32)
        return (float)back == (float)v;
    return dgpb_f32_to_f16((float)back) == dgpb_f32_to_f16((float)v);
}

/*
 * `v` of `type` with the fewest significant digits that read back as the
 * same value, laid out as JavaScript's Number.prototype.toString lays out
 * its digits: a plain decimal from 1e-6 up to (not including) 1e21, an
 * exponent (1e-7, 1.5e+21) beyond; nan, inf, -inf by name, -0 with its sign.
 */
static void format_float(double v, uint32_t type, char *buf, size_t n)
{
    if (isnan(v)) {
        snprintf(buf, n, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, n, v < 0 ? "-inf" : "inf");
        return;
    }
    char sci[40];
    for (int digits = 1; digits <= (type == DGPB_VALUE_F64 ? 17 : 9); digits++) {
        snprintf(sci, sizeof sci, "%.*e", digits - 1, v);
        if (reads_back(sci, v, type))
            break;
    }
    /* sci is [-]D[.DDD]e±X: its digits, and the place of the point after them (JS's n). */
    char d[24];
    int k = 0;
    const char *p = sci + (sci[0] == '-');
    for (; *p != 'e'; p++)
        if (*p != '.')
            d[k++] = *p;
    while (k > 1 && d[k - 1] == '0')
        k--;
    d[k] = 0;
    int point = atoi(p + 1) + 1;
    const char *sign = sci[0] == '-' ? "-" : "", *zeros = "000000000000000000000";
    if (k <= point && point <= 21)
        snprintf(buf, n, "%s%s%.*s", sign, d, point - k, zeros);
    else if (0 < point && point <= 21)
        snprintf(buf, n, "%s%.*s.%s", sign, point, d, d + point);
    else if (-6 < point && point <= 0)
        snprintf(buf, n, "%s0.%.*s%s", sign, -point, zeros, d);
    else
        snprintf(buf, n, "%s%c%s%se%+d", sign, d[0], k > 1 ? "." : "", d + 1, point - 1);
}

void dgpb_value_format_one(uint32_t type, const uint8_t *e, char *buf, size_t n)
{
    switch (type) {
    case DGPB_VALUE_F32: {
        float f;
        memcpy(&f, e, 4);
        format_float(f, DGPB_VALUE_F32, buf, n);
        break;
    }
    case DGPB_VALUE_F16: {
        uint16_t h;
        memcpy(&h, e, 2);
        format_float(dgpb_f16_to_f32(h), DGPB_VALUE_F16, buf, n);
        break;
    }
    case DGPB_VALUE_F64: {
        double d;
        memcpy(&d, e, 8);
        format_float(d, DGPB_VALUE_F64, buf, n);
        break;
    }
    case DGPB_VALUE_I32: {
        int32_t v;
        memcpy(&v, e, 4);
        snprintf(buf, n, "%" PRId32, v);
        break;
    }
    case DGPB_VALUE_U64: {
        uint64_t v;
        memcpy(&v, e, 8);
        snprintf(buf, n, "%" PRIu64, v);
        break;
    }
    case DGPB_VALUE_I64: {
        int64_t v;
        memcpy(&v, e, 8);
        snprintf(buf, n, "%" PRId64, v);
        break;
    }
    case DGPB_VALUE_U8:
        snprintf(buf, n, "%u", e[0]);
        break;
    case DGPB_VALUE_I8:
        snprintf(buf, n, "%d", (int)(int8_t)e[0]);
        break;
    case DGPB_VALUE_U16: {
        uint16_t v;
        memcpy(&v, e, 2);
        snprintf(buf, n, "%u", (unsigned)v);
        break;
    }
    case DGPB_VALUE_I16: {
        int16_t v;
        memcpy(&v, e, 2);
        snprintf(buf, n, "%d", (int)v);
        break;
    }
    case DGPB_VALUE_HEX: {
        uint32_t v;
        memcpy(&v, e, 4);
        snprintf(buf, n, "0x%08" PRIx32, v);
        break;
    }
    default: {
        uint32_t v;
        memcpy(&v, e, 4);
        snprintf(buf, n, "%" PRIu32, v);
        break;
    }
    }
}

int dgpb_value_format(uint32_t type, const uint8_t *data, size_t size, char **text)
{
    size_t elem = dgpb_value_type_size(type);
    if (!elem)
        elem = 4, type = DGPB_VALUE_U32;
    /* hex shows a tail of 1-3 bytes as its bytes; a typed list only its whole
       elements, then how many bytes are left over: "4 (+3 bytes)" */
    size_t whole = size / elem, tail = size % elem;
    size_t shown = type == DGPB_VALUE_HEX ? whole + tail : whole;
    size_t cap = shown * 28 + 32, len = 0;
    char *out = mem_alloc(cap);
    if (!out)
        return DGPB_ERR_NOMEM;
    out[0] = 0;
    char one[64];
    for (size_t i = 0; i < shown; i++) {
        if (i < whole)
            dgpb_value_format_one(type, data + i * elem, one, sizeof one);
        else
            snprintf(one, sizeof one, "0x%02x", data[whole * elem + (i - whole)]);
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? "," : "", one);
    }
    if (tail && type != DGPB_VALUE_HEX)
        snprintf(out + len, cap - len, "%s(+%zu byte%s)", whole ? " " : "", tail,
                 tail == 1 ? "" : "s");
    *text = out;
    return DGPB_OK;
}

/* ---- comparing ------------------------------------------------------------- */

static double float_at(uint32_t type, const uint8_t *e)
{
    if (type == DGPB_VALUE_F16) {
        uint16_t h;
        memcpy(&h, e, 2);
        return dgpb_f16_to_f32(h);
    }
    if (type == DGPB_VALUE_F32) {
        float f;
        memcpy(&f, e, 4);
        return f;
    }
    double d;
    memcpy(&d, e, 8);
    return d;
}

static bool element_equal(uint32_t type, const uint8_t *g, const uint8_t *w, size_t n,
                          double tolerance)
{
    if (tolerance < 0 || !dgpb_value_type_is_float(type) || n < dgpb_value_type_size(type))
        return !memcmp(g, w, n);
    double a = float_at(type, g), b = float_at(type, w);
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (isinf(a) || isinf(b))
        return a == b;
    return fabs(a - b) <= tolerance;
}

bool dgpb_value_compare_bytes(uint32_t type, const uint8_t *got, size_t got_size,
                              const uint8_t *want, size_t want_size, double tolerance,
                              dgpb_value_compare *out)
{
    memset(out, 0, sizeof *out);
    size_t elem = dgpb_value_type_size(type);
    if (!elem)
        elem = 4, type = DGPB_VALUE_HEX;
    out->too_long = want_size > got_size;
    size_t n = want_size < got_size ? want_size : got_size;
    for (size_t i = 0, k = 0; i < n; i += elem, k++) {
        size_t len = n - i < elem ? n - i : elem;
        out->compared++;
        if (!element_equal(type, got + i, want + i, len, tolerance)) {
            if (!out->mismatches)
                out->first = k;
            out->mismatches++;
        }
    }
    return !out->mismatches && !out->too_long;
}

/* ---- times ----------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void dgpb_time_stats(const double *v, size_t n, double *min, double *median, double *mean)
{
    *min = *median = *mean = 0;
    if (!n)
        return;
    double *s = mem_alloc(n * sizeof *s), sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    *mean = sum / (double)n;
    if (!s) { /* no memory to sort: the minimum still */
        *min = *median = v[0];
        for (size_t i = 1; i < n; i++)
            *min = v[i] < *min ? v[i] : *min;
        return;
    }
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    *min = s[0];
    *median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    dgpb_free(s);
}
