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
        n = (size_t)snprintf(buf, size, "%c%u %ux%u%s", prefix[t->scalar], t->bits, t->columns,
                             t->rows, t->row_major ? " row_major" : "");
    else if (t->columns > 1)
        n = (size_t)snprintf(buf, size, "%c%ux%u", prefix[t->scalar], t->bits, t->columns);
    else
        n = (size_t)snprintf(buf, size, "%c%u", prefix[t->scalar], t->bits);
    if (t->array_count && n < size)
        snprintf(buf + n, size - n, "[%u]", t->array_count);
}
