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

bool build_hold_output(build *b, const char *path, const void *data, size_t size)
{
    if (b->held_count == b->held_cap) {
        size_t cap = b->held_cap ? 2 * b->held_cap : 64;
        held_output *grown = mem_realloc(b->held, cap * sizeof *grown);
        if (!grown)
            return false;
        b->held = grown;
        b->held_cap = cap;
    }
    held_output h = {mem_strdup(path), mem_alloc(size ? size : 1), size};
    if (!h.path || !h.data) {
        dgpb_free(h.path);
        dgpb_free(h.data);
        return false;
    }
    memcpy(h.data, data, size);
    b->held[b->held_count++] = h;
    return true;
}

int build_read_output_bytes(build *b, const char *path, uint8_t **out, size_t *size,
                            dgpb_diag *diag)
{
    for (size_t i = b->held_count; i-- > 0;) /* the latest holds for a path */
        if (!strcmp(b->held[i].path, path)) {
            if (!(*out = mem_alloc(b->held[i].size ? b->held[i].size : 1)))
                return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            memcpy(*out, b->held[i].data, b->held[i].size);
            *size = b->held[i].size;
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
    b->held = NULL;
    b->held_count = b->held_cap = 0;
}
