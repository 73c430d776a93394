/*
 * shim_program.c - createPrecompiledProgram (dgpb/slang_shim.h): a layout
 * blob and its entry points' verified code become a program whose
 * reflection objects have fixed addresses (shim.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/sha256.h"
#include "dgpb/slang_shim.h"
#include "shim/shim_com.h"

/* ---- createPrecompiledProgram ---- */

static int make_objects(shim_program *p, dgpb_diag *diag)
{
    for (uint32_t k = 0; k < 5; k++) {
        uint32_t n = dgpb_layout_object_count(p->layout, (dgpb_layout_kind)k);
        p->counts[k] = n;
        p->objs[k] = mem_calloc(n ? n : 1, sizeof(shim_obj));
        if (!p->objs[k])
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        for (uint32_t i = 0; i < n; i++)
            p->objs[k][i] = (shim_obj){p, (dgpb_layout_ref)i, k};
    }
    return DGPB_OK;
}

static int copy_code(shim_program *p, const dgpb_shim_code *code, uint32_t count, dgpb_diag *diag)
{
    p->code = mem_calloc(count ? count : 1, sizeof(shim_code));
    if (!p->code)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    for (uint32_t i = 0; i < count; i++) {
        const char *name = dgpb_layout_ep_name(p->layout, dgpb_layout_entry_point(p->layout, i));
        if (!code[i].data || !code[i].sha256)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                 "entry point %u (%s): no code or no SHA-256 given", i,
                                 name ? name : "?");
        uint8_t sha[DGPB_SHA256_SIZE];
        int r = dgpb_sha256(code[i].data, code[i].size, sha);
        if (r)
            return dgpb_diag_set(diag, r, -1, "entry point %u (%s): cannot hash its code", i,
                                 name ? name : "?");
        if (memcmp(sha, code[i].sha256, DGPB_SHA256_SIZE) != 0)
            return dgpb_diag_set(diag, DGPB_ERR_CORRUPT_HASH, -1,
                                 "entry point %u (%s): the code's SHA-256 does not match the one "
                                 "stored with it",
                                 i, name ? name : "?");
        p->code[i].data = mem_memdup(code[i].data, code[i].size ? code[i].size : 1);
        if (!p->code[i].data)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        p->code[i].size = code[i].size;
        memcpy(p->code[i].sha256, sha, sizeof sha);
        p->code_count = i + 1;
    }
    return DGPB_OK;
}

SHIM_EXPORT int dgpb_create_precompiled_program(const void *layout, size_t layout_size,
                                                const dgpb_shim_code *code, uint32_t code_count,
                                                void **out, dgpb_diag *diag)
{
    dgpb_diag_clear(diag);
    if (!out || !layout || (code_count && !code))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no layout, code or result given");
    *out = NULL;
    shim_program *p = mem_calloc(1, sizeof *p);
    if (!p)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    p->magic = SHIM_PROGRAM_MAGIC;
    int r = DGPB_OK;
    p->bytes = mem_memdup(layout, layout_size ? layout_size : 1);
    if (!p->bytes)
        r = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    if (!r)
        r = dgpb_layout_open(p->bytes, layout_size, &p->layout, diag);
    if (!r && dgpb_layout_entry_point_count(p->layout) != code_count)
        r = dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                          "the layout has %llu entry points, %u code blobs were given",
                          (unsigned long long)dgpb_layout_entry_point_count(p->layout), code_count);
    if (!r)
        r = make_objects(p, diag);
    if (!r)
        r = copy_code(p, code, code_count, diag);
    if (!r) {
        *out = shim_component_create(p);
        if (!*out)
            r = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    if (r)
        shim_program_free(p);
    return r;
}

/* The entry of `t` named `name` whose layout is `layout_index`, or NULL. */
static const dgpb_entry_view *find_entry(const dgpb_target_view *t, uint32_t layout_index,
                                         const char *name)
{
    for (uint32_t i = 0; name && i < t->entry_count; i++) {
        const dgpb_entry_view *e = &t->entries[i];
        if (e->layout == layout_index && e->name.len == strlen(name) &&
            memcmp(e->name.ptr, name, e->name.len) == 0)
            return e;
    }
    return NULL;
}

SHIM_EXPORT int dgpb_create_precompiled_program_from_target(const dgpb_target_view *t,
                                                            uint32_t layout_index, void **out,
                                                            dgpb_diag *diag)
{
    dgpb_diag_clear(diag);
    if (!t || !out)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no target or result given");
    *out = NULL;
    if (layout_index >= t->layout_count)
        return dgpb_diag_set(diag, DGPB_ERR_NOT_FOUND, -1,
                             "target %.*s has no layout %u (it has %u)", (int)t->name.len,
                             t->name.ptr, layout_index, t->layout_count);
    const dgpb_blob_ref *blob = &t->layouts[layout_index];
    uint8_t sha[DGPB_SHA256_SIZE];
    int r = dgpb_sha256(blob->data, blob->size, sha);
    if (r)
        return dgpb_diag_set(diag, r, -1, "cannot hash layout %u", layout_index);
    if (memcmp(sha, blob->sha256, DGPB_SHA256_SIZE) != 0)
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT_HASH, -1,
                             "target %.*s, layout %u: the blob's SHA-256 does not match the one "
                             "stored with it",
                             (int)t->name.len, t->name.ptr, layout_index);
    dgpb_layout *l;
    r = dgpb_layout_open(blob->data, blob->size, &l, diag);
    if (r)
        return r;
    uint64_t n = dgpb_layout_entry_point_count(l);
    dgpb_shim_code *code = mem_calloc(n ? n : 1, sizeof *code);
    if (!code) {
        dgpb_layout_close(l);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    for (uint64_t i = 0; i < n && !r; i++) {
        const char *name = dgpb_layout_ep_name(l, dgpb_layout_entry_point(l, i));
        const dgpb_entry_view *e = find_entry(t, layout_index, name);
        if (!e)
            r = dgpb_diag_set(diag, DGPB_ERR_NOT_FOUND, -1,
                              "target %.*s, layout %u: entry point '%s' has no entry in the table",
                              (int)t->name.len, t->name.ptr, layout_index, name ? name : "?");
        else
            code[i] = (dgpb_shim_code){e->code.data, e->code.size, e->code.sha256};
    }
    dgpb_layout_close(l);
    if (!r)
        r = dgpb_create_precompiled_program(blob->data, blob->size, code, (uint32_t)n, out, diag);
    dgpb_free(code);
    return r;
}
