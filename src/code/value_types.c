/*
 * value_types.c - how a value type is spelled, and the texel formats a
 * storage texture may declare (code/value_types.h; the rules are
 * docs/format.md, "Value types"). Each format's reader is in its folder;
 * code/code_formats.c picks one.
 *
 */
#include "code/value_types.h"

#include <stdio.h>
#include <string.h>

/* WebGPU's texel format names, in the order of SPIR-V's ImageFormat enumerants 1..41 (NULL: none
   there). */
const char *const code_texel_formats[] = {

    NULL,         "rgba32float", "rgba16float",   "r32float",   "rgba8unorm",  "rgba8snorm",
    "rg32float",  "rg16float",   "rg11b10ufloat", "r16float",   "rgba16unorm", "rgb10a2unorm",
    "rg16unorm",  "rg8unorm",    "r16unorm",      "r8unorm",    "rgba16snorm", "rg16snorm",
    "rg8snorm",   "r16snorm",    "r8snorm",       "rgba32sint", "rgba16sint",  "rgba8sint",
    "r32sint",    "rg32sint",    "rg16sint",      "rg8sint",    "r16sint",     "r8sint",
    "rgba32uint", "rgba16uint",  "rgba8uint",     "r32uint",    "rgb10a2uint", "rg32uint",
    "rg16uint",   "rg8uint",     "r16uint",       "r8uint",     "r64uint",     "r64sint"};
const size_t code_texel_format_count = sizeof code_texel_formats / sizeof code_texel_formats[0];

const char *code_texel_format(const char *name)
{
    for (size_t f = 1; name && f < code_texel_format_count; f++)
        if (!strcmp(code_texel_formats[f], name))
            return code_texel_formats[f];
    return NULL;
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
