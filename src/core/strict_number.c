/*
 * strict_number.c - whole numbers read strictly (strict_number.h).
 */
#include "core/strict_number.h"

size_t strict_u64_prefix(const char *text, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    size_t n = 0;
    for (; text[n] >= '0' && text[n] <= '9'; n++) {
        unsigned d = (unsigned)(text[n] - '0');
        if (d > max || v > (max - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    if (n)
        *out = v;
    return n;
}

bool strict_u64(const char *text, uint64_t max, uint64_t *out)
{
    uint64_t v;
    size_t n = strict_u64_prefix(text, max, &v);
    if (!n || text[n])
        return false;
    *out = v;
    return true;
}
