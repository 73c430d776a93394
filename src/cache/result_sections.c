/*
 * result_sections.c - what a stored result is made of (cache_session.h): a
 * row of sections, each its size (u32, little-endian) then its bytes; text
 * and lists of paths in them name the project root with a placeholder.
 */
#include <string.h>

#include "cache/cache_session.h"
#include "core/alloc.h"

void cache_add_section(dgpb_bytebuf *r, const void *data, size_t size)
{
    bytebuf_u32(r, (uint32_t)size);
    bytebuf_append(r, data, size);
}

bool cache_next_section(const uint8_t **p, const uint8_t *end, const uint8_t **data, size_t *size)
{
    if (end - *p < 4)
        return false;
    uint32_t n = (uint32_t)(*p)[0] | (uint32_t)(*p)[1] << 8 | (uint32_t)(*p)[2] << 16 |
                 (uint32_t)(*p)[3] << 24;
    *p += 4;
    if ((size_t)(end - *p) < n)
        return false;
    *data = *p;
    *size = n;
    *p += n;
    return true;
}

void cache_add_rooted_section(const cache_session *s, dgpb_bytebuf *r, const char *text, size_t n)
{
    dgpb_bytebuf l = DGPB_BYTEBUF_INIT;
    cache_append_rooted(s, &l, text, n);
    cache_add_section(r, l.data ? l.data : (const uint8_t *)"", l.len);
    if (l.failed)
        r->failed = true;
    bytebuf_free(&l);
}

void cache_add_paths(const cache_session *s, dgpb_bytebuf *r, char *const *items, size_t count)
{
    dgpb_bytebuf l = DGPB_BYTEBUF_INIT;
    for (size_t i = 0; i < count; i++) {
        if (i)
            bytebuf_append(&l, "\n", 1);
        cache_append_rooted(s, &l, items[i], strlen(items[i]));
    }
    cache_add_section(r, l.data ? l.data : (const uint8_t *)"", l.len);
    if (l.failed)
        r->failed = true;
    bytebuf_free(&l);
}

bool cache_split_paths(const cache_session *s, const uint8_t *data, size_t size, char ***out,
                       size_t *count)
{
    *out = NULL;
    *count = 0;
    const char *p = (const char *)data, *end = p + size;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char **grown = mem_realloc(*out, (*count + 1) * sizeof *grown);
        if (!grown)
            return false;
        *out = grown;
        if (!(grown[*count] = cache_unroot(s, p, n)))
            return false;
        (*count)++;
        p += n + 1;
    }
    return true;
}
