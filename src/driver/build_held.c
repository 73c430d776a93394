/*
 * build_held.c - compiler outputs held in memory (build_internal.h): the
 * bytes a cached result or layout gives, kept where the build reads them as
 * it reads a compile's files, instead of written to the intermediate folder
 * and read back (each file there costs a create and an unlink).
 */
#include <string.h>

#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "driver/build_internal.h"

static size_t path_hash(const char *p)
{
    size_t h = 1469598103934665603u;
    for (; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    return h;
}

/* The index slot of `path`: its output's, or the empty one where it would go. */
static size_t *slot_of(const build *b, const char *path)
{
    size_t mask = b->held_index_cap - 1, i = path_hash(path) & mask;
    while (b->held_index[i] && strcmp(b->held[b->held_index[i] - 1].path, path))
        i = (i + 1) & mask;
    return &b->held_index[i];
}

/* Room for one more output in the array and its index (kept at most half full). */
static bool make_room(build *b)
{
    if (b->held_count == b->held_cap) {
        size_t cap = b->held_cap ? 2 * b->held_cap : 64;
        held_output *grown = mem_realloc(b->held, cap * sizeof *grown);
        if (!grown)
            return false;
        b->held = grown;
        b->held_cap = cap;
    }
    if (2 * (b->held_count + 1) <= b->held_index_cap)
        return true;
    size_t cap = b->held_index_cap ? 2 * b->held_index_cap : 128;
    size_t *index = mem_calloc(cap, sizeof *index);
    if (!index)
        return false;
    dgpb_free(b->held_index);
    b->held_index = index;
    b->held_index_cap = cap;
    for (size_t k = 0; k < b->held_count; k++) /* each path once: the latest wins */
        *slot_of(b, b->held[k].path) = k + 1;
    return true;
}

bool build_hold_output(build *b, const char *path, const void *data, size_t size)
{
    if (!make_room(b))
        return false;
    held_output h = {mem_strdup(path), mem_alloc(size ? size : 1), size};
    if (!h.path || !h.data) {
        dgpb_free(h.path);
        dgpb_free(h.data);
        return false;
    }
    memcpy(h.data, data, size);
    b->held[b->held_count++] = h;
    *slot_of(b, path) = b->held_count; /* the latest holds for a path */
    return true;
}

int build_read_output_bytes(build *b, const char *path, uint8_t **out, size_t *size,
                            dgpb_diag *diag)
{
    size_t k = b->held_index_cap ? *slot_of(b, path) : 0;
    if (k) {
        const held_output *h = &b->held[k - 1];
        if (!(*out = mem_alloc(h->size ? h->size : 1)))
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        memcpy(*out, h->data, h->size);
        *size = h->size;
        return DGPB_OK;
    }
    return dgpb_file_read(path, BUILD_MAX_OUTPUT, out, size, diag);
}

void build_held_free(build *b)
{
    for (size_t i = 0; i < b->held_count; i++) {
        dgpb_free(b->held[i].path);
        dgpb_free(b->held[i].data);
    }
    dgpb_free(b->held);
    dgpb_free(b->held_index);
    b->held = NULL;
    b->held_index = NULL;
    b->held_count = b->held_cap = b->held_index_cap = 0;
}
