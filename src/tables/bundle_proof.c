/*
 * bundle_proof.c - a written bundle's tables proved against its code
 * (tables/bundle_proof.h): each entry's rows copied out of the bundle into a
 * parameter table, its code read back by its format's reader, and
 * binding_proof_check() run on the two.
 */
#include "tables/bundle_proof.h"

#include <stdio.h>
#include <string.h>

#include "code/code_format.h"
#include "core/alloc.h"
#include "tables/binding_proof.h"

/* Whether the code declares a binding at the row's place (descriptor targets). */
static bool row_has_binding(const dgpb_param_desc *row, const dgpb_code_bindings *code)
{
    for (size_t i = 0; i < code->count; i++) {
        const dgpb_code_binding *c = &code->items[i];
        if (row->space == DGPB_SPACE_LAUNCH
                ? c->cls == DGPB_CODE_PUSH_CONSTANT
                : c->space == (int64_t)row->space && c->binding == (int64_t)row->binding)
            return true;
    }
    return false;
}

/* Whether a value row of the table lies at the block `c` and covers bytes [offset, +size). */
static bool member_described(const dgpb_param_desc *rows, uint32_t n, const dgpb_code_binding *c,
                             uint32_t offset, uint32_t size)
{
    for (uint32_t r = 0; r < n; r++)
        if (rows[r].kind == DGPB_KIND_VALUE &&
            (c->cls == DGPB_CODE_PUSH_CONSTANT
                 ? rows[r].space == DGPB_SPACE_LAUNCH
                 : c->space == (int64_t)rows[r].space && c->binding == (int64_t)rows[r].binding) &&
            rows[r].offset <= offset && offset + size <= rows[r].offset + rows[r].size)
            return true;
    return false;
}

/*
 * Whether a value row that has no binding at its place is one the code uses all the same: a
 * uniform or push-constant block of the code has a member of the row's bytes that no row at the
 * block describes (the row was moved away from it). A row the code does not use has no member
 * left in the code.
 */
static bool value_row_moved(const dgpb_param_desc *rows, uint32_t n, uint32_t r,
                            const dgpb_code_bindings *code)
{
    if (rows[r].kind != DGPB_KIND_VALUE)
        return false;
    for (size_t i = 0; i < code->count; i++) {
        const dgpb_code_binding *c = &code->items[i];
        if (c->cls != DGPB_CODE_UNIFORM_BLOCK && c->cls != DGPB_CODE_PUSH_CONSTANT)
            continue;
        for (uint32_t m = 0; m < c->member_count; m++)
            if (c->members[m].offset == rows[r].offset && c->members[m].size == rows[r].size &&
                !member_described(rows, n, c, c->members[m].offset, c->members[m].size))
                return true;
    }
    return false;
}

/* Proves one entry: its rows copied out of the bundle, its code read back. */
static int prove_entry(const dgpb_target_view *t, const dgpb_entry_view *e, bool scalar_blocks,
                       dgpb_diag *diag)
{
    const code_ops *ops = code_ops_of_target((dgpb_target_id)t->id);
    int rc = DGPB_OK;
    char entry[256];
    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
    uint32_t n = e->param_count;
    dgpb_param_desc *rows = mem_calloc(n ? n : 1, sizeof *rows);
    bool *in_code = mem_calloc(n ? n : 1, sizeof *in_code);
    char **names = mem_calloc(n ? n : 1, sizeof *names);
    uint8_t *copy = mem_alloc(e->code.size ? e->code.size : 1); /* aligned for SPIR-V's words */
    dgpb_spirv_info *spirv = NULL;
    code_read code = {0};
    if (!rows || !in_code || !names || !copy) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    memcpy(copy, e->code.data, e->code.size);
    /* An absent row is in no code: proved by the other rows, which must then describe every
       binding the code has. */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *p = &e->params[i];
        if (p->flags & DGPB_FLAG_ABSENT)
            continue;
        uint32_t r = kept++;
        if (!(names[r] = mem_alloc((size_t)p->name.len + 1))) {
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            goto done;
        }
        memcpy(names[r], p->name.ptr, p->name.len);
        names[r][p->name.len] = 0;
        rows[r] = (dgpb_param_desc){.name = names[r],
                                    .kind = p->kind,
                                    .flags = p->flags,
                                    .space = p->space,
                                    .binding = p->binding,
                                    .offset = p->offset,
                                    .size = p->size,
                                    .webgpu_layout = p->webgpu_layout};
    }
    if (ops->analysed) {
        dgpb_diag quiet;
        dgpb_diag_clear(&quiet);
        rc = spirv_analyze(copy, e->code.size, &spirv, &quiet);
        if (rc == DGPB_ERR_UNSUPPORTED || (!rc && !spirv->parsed)) {
            rc = DGPB_OK; /* SPIRV-Tools cannot read it: the build proves nothing either */
            goto done;
        }
        if (rc) {
            rc = dgpb_diag_set(diag, rc, -1, "target '%s', entry '%s': its code is not SPIR-V: %s",
                               dgpb_target_name(t->id), entry, quiet.message);
            goto done;
        }
    }
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if ((rc = ops->read_bindings(copy, e->code.size, spirv, &code, &d))) {
        rc = dgpb_diag_set(diag, rc, -1,
                           "target '%s', entry '%s': reading the bindings of its "
                           "code: %s",
                           dgpb_target_name(t->id), entry, d.message);
        goto done;
    }
    if (!code.have_bindings && !code.ptx)
        goto done;
    n = kept;
    for (uint32_t r = 0; r < n; r++)
        in_code[r] = code.ptx ? !(rows[r].space == 0 && !code.ptx->has_global_params)
                              : row_has_binding(&rows[r], &code.bindings) ||
                                    value_row_moved(rows, n, r, &code.bindings);
    dgpb_param_table table = {.rows = rows, .in_code = in_code, .count = n};
    dgpb_proof_input in = {.target = (dgpb_target_id)t->id,
                           .entry = entry,
                           .table = &table,
                           .code = &code.bindings,
                           .ptx = code.ptx,
                           .scalar_blocks = scalar_blocks};
    rc = binding_proof_check(&in, diag);
done:
    code_read_clear(&code);
    spirv_info_free(spirv);
    for (uint32_t r = 0; names && r < n; r++)
        dgpb_free(names[r]);
    dgpb_free(names);
    dgpb_free(rows);
    dgpb_free(in_code);
    dgpb_free(copy);
    return rc;
}

int bundle_proof_check(const dgpb_bundle *b, dgpb_diag *diag)
{
    /* The block layout the bundle was built with (its options record), by which SPIR-V's
       blocks are sized. */
    dgpb_str layout = dgpb_bundle_option(b, DGPB_OPTION_BLOCK_LAYOUT);
    int id = layout.len ? dgpb_block_layout_from_name(layout.ptr, layout.len) : -1;
    bool scalar_blocks = id >= 0 && dgpb_block_layout_scalar((uint32_t)id);
    uint32_t targets = dgpb_bundle_target_count(b);
    for (uint32_t i = 0; i < targets; i++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, i);
        const code_ops *ops = code_ops_of_target((dgpb_target_id)t->id);
        if (!ops->proved || ops != code_ops_of((dgpb_code_format)t->code_format_id))
            continue;
        for (uint32_t k = 0; k < t->entry_count; k++) {
            int rc = prove_entry(t, &t->entries[k], scalar_blocks, diag);
            if (rc)
                return rc;
        }
    }
    return DGPB_OK;
}
