/*
 * params.c - one entry's parameter table (dgpb/params.h).
 */
#include "dgpb/params.h"

#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "dgpb/format.h"

void dgpb_value_block_name(const char *entry, char *buf, size_t size)
{
    snprintf(buf, size, "%s_params", entry);
}

/* The group entry whose "<name>_" prefixes `global` the longest, or NULL. */
static const char *owner_of(const char *global, const dgpb_param_select *s)
{
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < s->group_entry_count; i++) {
        const char *e = s->group_entries[i];
        size_t n = strlen(e);
        if (n > best_len && !strncmp(global, e, n) && global[n] == '_' && global[n + 1]) {
            best = e;
            best_len = n;
        }
    }
    return best;
}

static bool referenced(const dgpb_param_select *s, const char *global)
{
    if (!s->spirv || !s->spirv->parsed)
        return true; /* nothing known: keep every global (the caller has warned) */
    const dgpb_spirv_var *v = dgpb_spirv_find_var(s->spirv, global);
    return v && v->in_interface;
}

static bool written(const dgpb_param_select *s, const char *global)
{
    if (!s->spirv || !s->spirv->parsed)
        return false;
    const dgpb_spirv_var *v = dgpb_spirv_find_var(s->spirv, global);
    return v && v->written;
}

void dgpb_param_table_clear(dgpb_param_table *t)
{
    for (uint32_t i = 0; t->rows && i < t->count; i++)
        dgpb_free((char *)t->rows[i].name);
    dgpb_free(t->rows);
    t->rows = NULL;
    t->count = 0;
}

int dgpb_param_table_build(const dgpb_param_select *s, dgpb_param_table *out, dgpb_diag *diag)
{
    out->rows = dgpb_calloc(s->reflection->param_count, sizeof *out->rows);
    out->count = 0;
    if (!out->rows)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    size_t prefix = strlen(s->entry) + 1;
    bool wgsl = !strcmp(s->target, "wgsl");
    for (size_t i = 0; i < s->reflection->param_count; i++) {
        const dgpb_reflected_param *p = &s->reflection->params[i];
        const char *name = p->name;
        bool mine = false;
        if (s->dream) {
            const char *owner = owner_of(p->global, s);
            if (owner && !strcmp(owner, s->entry)) {
                mine = true;
                if (!strcmp(p->name, p->global)) /* value rows keep their field names */
                    name = p->name + prefix;
            } else if (!owner) {
                mine = referenced(s, p->global);
            }
        } else {
            mine = referenced(s, p->global);
        }
        if (!mine)
            continue;
        if (p->kind < 0 || (wgsl && p->problem))
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s', parameter '%s': %s", s->target, s->entry,
                                 name, p->problem ? p->problem : "no parameter kind");
        dgpb_param_desc *row = &out->rows[out->count];
        row->kind = (uint32_t)p->kind;
        row->flags = dgpb_kind_required_flags(row->kind);
        if (dgpb_kind_writable(row->kind) && written(s, p->global))
            row->flags |= DGPB_FLAG_WRITTEN;
        row->space = p->space;
        row->binding = p->binding;
        row->offset = p->kind == DGPB_KIND_VALUE ? p->offset : 0;
        row->size = p->kind == DGPB_KIND_VALUE ? p->size : 0;
        row->webgpu_layout = wgsl ? p->webgpu_layout : 0;
        row->name = dgpb_strdup(name);
        if (!row->name)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        out->count++;
    }
    return DGPB_OK;
}
