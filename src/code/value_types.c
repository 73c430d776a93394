/*
 * value_types.c - how a value type is spelled, and the texel formats a
 * storage texture may declare (code/value_types.h; the rules are
 * docs/format.md, "Value types"). Each format's reader is in its folder;
 * code/code_formats.c picks one.
 *
 */
#include "code/value_types.h"

#include "dgpb/format.h"

#include <stdio.h>
#include <string.h>

const char *code_texel_format(const char *name)
{
    return name ? dgpb_texel_format_name(dgpb_texel_format_from_name(name, strlen(name))) : NULL;
}

void code_type_text(const dgpb_code_type *t, char *buf, size_t size)
{
    static const char prefix[] = {'?', '?', 'i', 'u', 'f'};
    size_t n = 0;
    if (!size)
        return;
    buf[0] = 0;
    if (t->aggregate)
        n = (size_t)snprintf(buf, size, "struct");
    else if (t->scalar == DGPB_SCALAR_UNKNOWN || t->scalar > DGPB_SCALAR_FLOAT)
        n = (size_t)snprintf(buf, size, "unknown");
    else if (t->scalar == DGPB_SCALAR_BOOL) /* as wide as its block keeps it: "bool" */
        n = (size_t)snprintf(buf, size, t->columns > 1 ? "boolx%u" : "bool", t->columns);
    else if (t->rows > 1)
        n = (size_t)snprintf(buf, size, "%c%u %ux%u%s", prefix[t->scalar], t->bits, t->rows,
                             t->columns, t->column_major ? " column_major" : "");
    else if (t->columns > 1)
        n = (size_t)snprintf(buf, size, "%c%ux%u", prefix[t->scalar], t->bits, t->columns);
    else
        n = (size_t)snprintf(buf, size, "%c%u", prefix[t->scalar], t->bits);
    if (t->array_count && n < size)
        snprintf(buf + n, size - n, "[%u]", t->array_count);
}

bool code_matrix_storage_name(const char *name, size_t len, uint32_t *rows, uint32_t *columns,
                              bool *column_major)
{
    static const char prefix[] = "_MatrixStorage_", col[] = "_ColMajor";
    size_t p = sizeof prefix - 1;
    if (len <= p || memcmp(name, prefix, p))
        return false;
    /* The element type's name ("float", "int16_t"), then RxC: the first digit 1-4, 'x', a
       digit 1-4 not followed by another digit. */
    for (; p + 2 < len; p++) {
        char r = name[p], c = name[p + 2];
        bool digit_after = p + 3 < len && name[p + 3] >= '0' && name[p + 3] <= '9';
        bool digit_before = name[p - 1] >= '0' && name[p - 1] <= '9';
        if (r >= '1' && r <= '4' && name[p + 1] == 'x' && c >= '1' && c <= '4' && !digit_after &&
            !digit_before && p > sizeof prefix - 1) {
            *rows = (uint32_t)(r - '0');
            *columns = (uint32_t)(c - '0');
            p += 3;
            *column_major = len - p >= sizeof col - 1 && !memcmp(name + p, col, sizeof col - 1);
            return true;
        }
    }
    return false;
}

/* Slang's names of the scalar types (its HLSL spellings), as its wrappers' names spell them. */
static const struct {
    const char *name;
    dgpb_scalar scalar;
    uint32_t bits;
} slang_scalars[] = {
    {"float", DGPB_SCALAR_FLOAT, 32},     {"half", DGPB_SCALAR_FLOAT, 16},
    {"double", DGPB_SCALAR_FLOAT, 64},    {"int", DGPB_SCALAR_INT, 32},
    {"uint", DGPB_SCALAR_UINT, 32},       {"bool", DGPB_SCALAR_BOOL, 32},
    {"int8_t", DGPB_SCALAR_INT, 8},       {"uint8_t", DGPB_SCALAR_UINT, 8},
    {"int16_t", DGPB_SCALAR_INT, 16},     {"uint16_t", DGPB_SCALAR_UINT, 16},
    {"int64_t", DGPB_SCALAR_INT, 64},     {"uint64_t", DGPB_SCALAR_UINT, 64},
    {"float16_t", DGPB_SCALAR_FLOAT, 16}, {"float64_t", DGPB_SCALAR_FLOAT, 64},
};

/* At *p of name[0..len): `text` (SPIR-V's spelling) or `mangled` (WGSL's); advances past it. */
static bool take(const char *name, size_t len, size_t *p, const char *text, const char *mangled)
{
    const char *forms[2] = {text, mangled};
    for (int f = 0; f < 2; f++) {
        size_t n = strlen(forms[f]);
        if (len - *p >= n && !memcmp(name + *p, forms[f], n)) {
            *p += n;
            return true;
        }
    }
    return false;
}

/* Digits at *p (a number up to 2^31, no leading zero); advances past them. */
static bool take_number(const char *name, size_t len, size_t *p, uint32_t *out)
{
    uint64_t v = 0;
    size_t start = *p;
    while (*p < len && name[*p] >= '0' && name[*p] <= '9' && v < (1u << 31))
        v = v * 10 + (uint64_t)(name[(*p)++] - '0');
    if (*p == start || v >= (1u << 31) || (name[start] == '0' && *p - start > 1))
        return false;
    *out = (uint32_t)v;
    return true;
}

/*
 * The scalar named at *p followed by what `rest` accepts (the longest name that
 * leaves a valid rest: "int16_t3" is three int16_t, not int then "16_t3").
 */
static bool take_scalar(const char *name, size_t len, size_t *p, dgpb_code_type *t,
                        bool (*rest)(const char *, size_t, size_t, dgpb_code_type *, uint32_t *),
                        uint32_t *count)
{
    for (size_t i = 0; i < sizeof slang_scalars / sizeof slang_scalars[0]; i++) {
        size_t n = strlen(slang_scalars[i].name);
        if (len - *p < n || memcmp(name + *p, slang_scalars[i].name, n))
            continue;
        dgpb_code_type one = {.scalar = slang_scalars[i].scalar,
                              .bits = slang_scalars[i].bits,
                              .columns = t->columns ? t->columns : 1,
                              .rows = 1};
        if (rest(name, len, *p + n, &one, count)) {
            *t = one;
            *p += n;
            return true;
        }
    }
    return false;
}

/* The end of a wrapper's name after its element: the count, then nothing or WGSL's "_N". */
static bool count_rest(const char *name, size_t len, size_t p, dgpb_code_type *t, uint32_t *count)
{
    (void)t;
    uint32_t suffix;
    if (!take_number(name, len, &p, count) || !*count)
        return false;
    if (p < len && (name[p++] != '_' || !take_number(name, len, &p, &suffix)))
        return false;
    return p == len;
}

/* The end of a vector's name after its scalar: ",N>" (WGSL "x2CNx3E"), then the count. */
static bool vector_rest(const char *name, size_t len, size_t p, dgpb_code_type *t, uint32_t *count)
{
    uint32_t n;
    if (!take(name, len, &p, ",", "x2C") || !take_number(name, len, &p, &n) || n < 2 || n > 4 ||
        !take(name, len, &p, ">", "x3E"))
        return false;
    t->columns = n;
    return count_rest(name, len, p, t, count);
}

bool code_array_storage_name(const char *name, size_t len, dgpb_code_type *elem, uint32_t *count)
{
    static const char *const prefixes[] = {"_Array_std140_", "_Array_std430_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t p = strlen(prefixes[i]);
        if (len <= p || memcmp(name, prefixes[i], p))
            continue;
        dgpb_code_type t = {0};
        if (take(name, len, &p, "vector<", "vectorx3C")) {
            if (!take_scalar(name, len, &p, &t, vector_rest, count))
                return false;
        } else if (!take_scalar(name, len, &p, &t, count_rest, count)) {
            return false;
        }
        *elem = t;
        return true;
    }
    return false;
}

bool code_type_lend(const dgpb_code_type *from, uint32_t size, dgpb_code_type *out)
{
    if (from->scalar == DGPB_SCALAR_UNKNOWN || from->aggregate)
        return false;
    *out = (dgpb_code_type){.scalar = from->scalar, .bits = from->bits, .columns = 1, .rows = 1};
    uint32_t bytes = from->bits / 8;
    if (from->scalar == DGPB_SCALAR_BOOL) {
        /* 32 bits in a block of SPIR-V, a byte in CUDA's: as wide as the row holds them. */
        uint32_t n =
            (from->columns ? from->columns : 1) * (from->array_count ? from->array_count : 1);
        if (size == n)
            out->bits = 8;
        return true;
    }
    if (from->rows > 1 && !from->array_count && size == from->rows * from->columns * bytes) {
        out->rows = from->rows;
        out->columns = from->columns;
        out->column_major = from->column_major;
        out->matrix_stride = (from->column_major ? from->rows : from->columns) * bytes;
    }
    return true;
}
