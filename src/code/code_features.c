/*
 * code_features.c - what the readers of the device features an entry's code
 * declares share (code/code_features.h): the list, and the text helpers of
 * the WGSL and PTX readers. Each format's reader is in its folder
 * (code/spirv/spirv_features.c, code/wgsl/wgsl_features.c,
 * code/ptx/ptx_features.c); code/code_formats.c picks one.
 */
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "code/code_features.h"

/* Adds a feature once; false when out of memory. */
bool features_add(dgpb_code_features *f, size_t *cap, uint32_t number, const char *name,
                  size_t name_len)
{
    for (size_t i = 0; i < f->count; i++)
        if (f->items[i].number == number && strlen(f->items[i].name) == name_len &&
            !memcmp(f->items[i].name, name, name_len))
            return true;
    dgpb_code_feature *items = mem_grow(f->items, f->count, cap, sizeof *items, 8);
    if (!items)
        return false;
    f->items = items;
    dgpb_code_feature *it = &f->items[f->count++];
    memset(it, 0, sizeof *it);
    it->number = number;
    memcpy(it->name, name, name_len);
    return true;
}

/* Skips white space and comments (WGSL's nest; PTX's do not) from *i; false at an open one. */
bool features_skip_space(const char *t, size_t n, size_t *i, bool nested)
{
    while (*i < n) {
        char c = t[*i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            (*i)++;
        } else if (c == '/' && *i + 1 < n && t[*i + 1] == '/') {
            while (*i < n && t[*i] != '\n')
                (*i)++;
        } else if (c == '/' && *i + 1 < n && t[*i + 1] == '*') {
            int depth = 1;
            *i += 2;
            while (*i < n && depth) {
                if (t[*i] == '*' && *i + 1 < n && t[*i + 1] == '/') {
                    depth--;
                    *i += 2;
                } else if (nested && t[*i] == '/' && *i + 1 < n && t[*i + 1] == '*') {
                    depth++;
                    *i += 2;
                } else {
                    (*i)++;
                }
            }
            if (depth)
                return false;
        } else {
            return true;
        }
    }
    return true;
}

bool features_ident_char(char c, bool first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

/* The identifier at *i (its length; 0 for none), *i moved past it. */
size_t features_ident(const char *t, size_t n, size_t *i)
{
    size_t start = *i;
    while (*i < n && features_ident_char(t[*i], *i == start))
        (*i)++;
    return *i - start;
}

/* The line of byte `at`, for messages. */
unsigned features_line(const char *t, size_t at)
{
    unsigned line = 1;
    for (size_t i = 0; i < at; i++)
        line += t[i] == '\n';
    return line;
}

void code_features_clear(dgpb_code_features *f)
{
    if (!f)
        return;
    dgpb_free(f->items);
    f->items = NULL;
    f->count = 0;
}
