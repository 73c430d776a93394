/*
 * model.c - the in-memory bundle model (bundle/model.h).
 *
 * Each addition is checked against the rules of dgpb/format.h before it is
 * copied in, so a model that accepted everything can always be written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "dgpb/reader.h"
#include "bundle/model_internal.h"
#include "core/utf8.h"

int model_create(dgpb_model **out)
{
    *out = mem_calloc(1, sizeof **out);
    return *out ? DGPB_OK : DGPB_ERR_NOMEM;
}

static void free_entry(dgpb_mentry *e)
{
    dgpb_free(e->name);
    dgpb_free(e->code.data);
    for (uint32_t i = 0; i < e->param_count; i++)
        dgpb_free((char *)e->params[i].name);
    dgpb_free(e->params);
}

void model_destroy(dgpb_model *m)
{
    if (!m)
        return;
    for (uint32_t t = 0; t < m->target_count; t++) {
        dgpb_mtarget *tg = &m->targets[t];
        dgpb_free(tg->name);
        dgpb_free(tg->code_format);
        for (uint32_t i = 0; i < tg->layout_count; i++)
            dgpb_free(tg->layouts[i].data);
        dgpb_free(tg->layouts);
        for (uint32_t i = 0; i < tg->entry_count; i++)
            free_entry(&tg->entries[i]);
        dgpb_free(tg->entries);
    }
    dgpb_free(m->targets);
    for (int i = 0; i < DGPB_OPTION_COUNT; i++)
        dgpb_free(m->options[i]);
    dgpb_free(m);
}

int model_set_option(dgpb_model *m, uint32_t option, const char *value, dgpb_diag *diag)
{
    if (option >= DGPB_OPTION_COUNT)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "unknown option %u", option);
    char *copy = NULL;
    if (value) {
        char buf[256];
        const char *why = dgpb_option_rule(option, value, strlen(value), buf, sizeof buf);
        if (why)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "option %s: %s",
                                 dgpb_option_name(option), why);
        if (!(copy = mem_strdup(value)))
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    dgpb_free(m->options[option]);
    m->options[option] = copy;
    return DGPB_OK;
}

uint32_t model_target_count(const dgpb_model *m)
{
    return m->target_count;
}

/* Checks a string the format will store: non-empty, short enough, UTF-8 without NUL. */
static int check_string(const char *s, const char *what, dgpb_diag *diag)
{
    if (!s || !*s)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "%s is empty", what);
    size_t len = strlen(s);
    if (len > DGPB_MAX_STRING)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "%s is %zu bytes long (limit %u)", what, len,
                             DGPB_MAX_STRING);
    if (!utf8_valid(s, len, NULL))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "%s is not valid UTF-8", what);
    return DGPB_OK;
}

int model_add_target(dgpb_model *m, const char *name, const char *code_format, uint32_t *index,
                     dgpb_diag *diag)
{
    int rc;
    if ((rc = check_string(name, "target name", diag)) ||
        (rc = check_string(code_format, "code format", diag)))
        return rc;
    int id = dgpb_target_from_name(name, strlen(name));
    if (id < 0)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "unknown target '%s'", name);
    if (!dgpb_code_format_allowed(name, strlen(name), code_format, strlen(code_format)))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "code format '%s' is not allowed for target '%s'", code_format, name);
    for (uint32_t t = 0; t < m->target_count; t++)
        if (strcmp(m->targets[t].name, name) == 0)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "target '%s' added twice", name);
    dgpb_mtarget *ts = mem_realloc(m->targets, (m->target_count + 1) * sizeof *ts);
    if (!ts)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    m->targets = ts;
    dgpb_mtarget *t = &ts[m->target_count];
    memset(t, 0, sizeof *t);
    t->name = mem_strdup(name);
    t->id = (uint32_t)id;
    t->code_format = mem_strdup(code_format);
    if (!t->name || !t->code_format) {
        dgpb_free(t->name);
        dgpb_free(t->code_format);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    if (index)
        *index = m->target_count;
    m->target_count++;
    return DGPB_OK;
}

static dgpb_mtarget *get_target(dgpb_model *m, uint32_t target, dgpb_diag *diag)
{
    if (target >= m->target_count) {
        dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no target with index %u", target);
        return NULL;
    }
    return &m->targets[target];
}

int model_add_layout(dgpb_model *m, uint32_t target, const void *data, size_t size, uint32_t *index,
                     dgpb_diag *diag)
{
    dgpb_mtarget *t = get_target(m, target, diag);
    if (!t)
        return DGPB_ERR_INVALID;
    if (!data || size == 0)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "empty layout blob for target '%s'",
                             t->name);
    if (size > UINT32_MAX)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "layout blob of %zu bytes is too large",
                             size);
    dgpb_mblob *ls = mem_realloc(t->layouts, (t->layout_count + 1) * sizeof *ls);
    if (!ls)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    t->layouts = ls;
    ls[t->layout_count].data = mem_memdup(data, size);
    if (!ls[t->layout_count].data)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    ls[t->layout_count].size = size;
    if (index)
        *index = t->layout_count;
    t->layout_count++;
    return DGPB_OK;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Checks everything about an entry description that does not depend on other additions. */
static int check_entry(const dgpb_mtarget *t, const dgpb_entry_desc *d, uint32_t *stage,
                       uint32_t caps[DGPB_CAP_COUNT], dgpb_diag *diag)
{
    int rc;
    if ((rc = check_string(d->name, "entry name", diag)))
        return rc;
    for (uint32_t i = 0; i < t->entry_count; i++)
        if (strcmp(t->entries[i].name, d->name) == 0)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "target '%s': entry '%s' added twice",
                                 t->name, d->name);
    int s = d->stage ? dgpb_stage_from_name(d->stage, strlen(d->stage)) : -1;
    if (s < 0)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "target '%s', entry '%s': unknown stage '%s'", t->name, d->name,
                             d->stage ? d->stage : "");
    *stage = (uint32_t)s;
    const char *why = dgpb_thread_group_rule(*stage, d->thread_group_size);
    if (why)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "target '%s', entry '%s': %s", t->name,
                             d->name, why);
    if (!d->code || d->code_size == 0)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "target '%s', entry '%s': empty code blob",
                             t->name, d->name);
    if (d->code_size > UINT32_MAX)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                             "target '%s', entry '%s': code blob of %zu bytes is too large",
                             t->name, d->name, d->code_size);
    if (d->param_count && !d->params)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "target '%s', entry '%s': no parameters given", t->name, d->name);
    bool wgsl = dgpb_target_traits(t->id) & DGPB_TRAIT_WEBGPU_IDS;
    for (uint32_t i = 0; i < d->param_count; i++) {
        const dgpb_param_desc *p = &d->params[i];
        char what[64], buf[160];
        snprintf(what, sizeof what, "name of parameter %u", i);
        if ((rc = check_string(p->name, what, diag)))
            return rc;
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(d->params[j].name, p->name) == 0)
                return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                     "target '%s', entry '%s': parameter '%s' listed twice",
                                     t->name, d->name, p->name);
        /* A pipeline constant is no bind-group entry: webgpu_layout 0 on wgsl too. */
        why = dgpb_param_rule(p->kind, p->flags, p->space, p->binding, p->offset, p->size,
                              p->webgpu_layout,
                              wgsl && p->space != DGPB_SPACE_PIPELINE_CONSTANT, buf, sizeof buf);
        if (why)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                 "target '%s', entry '%s', parameter '%s': %s", t->name, d->name,
                                 p->name, why);
    }
    if (d->capability_count > DGPB_CAP_COUNT)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "target '%s', entry '%s': %u capabilities given, at most %d exist",
                             t->name, d->name, d->capability_count, DGPB_CAP_COUNT);
    for (uint32_t i = 0; i < d->capability_count; i++) {
        const char *c = d->capabilities[i] ? d->capabilities[i] : "";
        int id = dgpb_capability_from_name(c, strlen(c));
        if (id < 0)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                 "target '%s', entry '%s': unknown capability '%s'", t->name,
                                 d->name, c);
        caps[i] = (uint32_t)id;
    }
    qsort(caps, d->capability_count, sizeof caps[0], cmp_u32);
    for (uint32_t i = 1; i < d->capability_count; i++)
        if (caps[i] == caps[i - 1])
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                 "target '%s', entry '%s': capability '%s' listed twice", t->name,
                                 d->name, dgpb_capability_name(caps[i]));
    return DGPB_OK;
}

int model_add_entry(dgpb_model *m, uint32_t target, const dgpb_entry_desc *d, dgpb_diag *diag)
{
    dgpb_mtarget *t = get_target(m, target, diag);
    if (!t)
        return DGPB_ERR_INVALID;
    uint32_t stage = 0, caps[DGPB_CAP_COUNT] = {0};
    int rc = check_entry(t, d, &stage, caps, diag);
    if (rc)
        return rc;
    dgpb_mentry *es = mem_grow(t->entries, t->entry_count, &t->entry_cap, sizeof *es, 8);
    if (!es)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    t->entries = es;
    dgpb_mentry e = {0};
    e.stage = stage;
    e.layout = d->layout;
    memcpy(e.thread_group_size, d->thread_group_size, sizeof e.thread_group_size);
    memcpy(e.caps, caps, sizeof e.caps);
    e.cap_count = d->capability_count;
    e.code.size = d->code_size;
    e.name = mem_strdup(d->name);
    e.code.data = mem_memdup(d->code, d->code_size);
    e.params = mem_calloc(d->param_count, sizeof *e.params);
    if (!e.name || !e.code.data || !e.params)
        goto nomem;
    for (uint32_t i = 0; i < d->param_count; i++) {
        e.params[i] = d->params[i];
        e.params[i].name = mem_strdup(d->params[i].name);
        if (!e.params[i].name)
            goto nomem;
        e.param_count = i + 1;
    }
    t->entries[t->entry_count++] = e;
    return DGPB_OK;
nomem:
    free_entry(&e);
    return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
}

int model_check(const dgpb_model *m, dgpb_diag *diag)
{
    for (uint32_t ti = 0; ti < m->target_count; ti++) {
        const dgpb_mtarget *t = &m->targets[ti];
        if (t->entry_count == 0)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "target '%s' has no entries", t->name);
        for (uint32_t i = 0; i < t->entry_count; i++) {
            const dgpb_mentry *e = &t->entries[i];
            if (t->layout_count == 0 ? e->layout != 0 : e->layout >= t->layout_count)
                return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                     "target '%s', entry '%s': layout index %u but the target "
                                     "has %u layouts",
                                     t->name, e->name, e->layout, t->layout_count);
        }
    }
    return DGPB_OK;
}
