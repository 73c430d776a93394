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
    static const char prefix[] = {'?', 'b', 'i', 'u', 'f'};
    size_t n = 0;
    if (!size)
        return;
    buf[0] = 0;
    if (t->aggregate)
        n = (size_t)snprintf(buf, size, "struct");
    else if (t->scalar == DGPB_SCALAR_UNKNOWN || t->scalar > DGPB_SCALAR_FLOAT)
        n = (size_t)snprintf(buf, size, "unknown");
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

bool code_type_lend(const dgpb_code_type *from, uint32_t size, dgpb_code_type *out)
{
    if (from->scalar == DGPB_SCALAR_UNKNOWN || from->aggregate)
        return false;
    *out = (dgpb_code_type){.scalar = from->scalar, .bits = from->bits, .columns = 1, .rows = 1};
    uint32_t bytes = from->bits / 8;
    if (from->rows > 1 && !from->array_count && size == from->rows * from->columns * bytes) {
        out->rows = from->rows;
        out->columns = from->columns;
        out->column_major = from->column_major;
        out->matrix_stride = (from->column_major ? from->rows : from->columns) * bytes;
    }
    return true;
}
