/*
 * layout_record.c - the layout recorder: load libslang, compile a group,
 * walk Slang's reflection graph and record every answer (dgpb/layout.h).
 *
 * Two parts:
 *   - one compile request per layout on the library's global session
 *     (slang_library.c loads libslang and makes that session as slangc
 *     makes its own), fed slangc's own arguments;
 *   - the graph walk, layout_record_reflection(), which talks to Slang
 *     through a dgpb_slang_api table only, so tests drive it with a fake.
 *
 * The walk is breadth-first over a queue: an object is numbered when it is
 * first met (a pointer met again gets its number back), and its questions
 * are asked when it leaves the queue, so the numbering depends only on the
 * order of Slang's answers, never on pointer values, and the bytes are
 * deterministic. Per-category questions are asked for every category below
 * DGPB_LAYOUT_CATEGORY_PROBE and once for DGPB_LAYOUT_CATEGORY_PROBE itself,
 * a category Slang does not know, whose answer stands for all the others
 * (docs/layout.md, "Categories").
 *
 * Some of Slang's reflection functions read through pointers or index
 * arrays without checking (src/layout/slang_api.h lists them; docs/layout.md,
 * "Safe calls"). The walk asks those only when Slang can answer safely and
 * records Slang's safe-case answer (0, NULL, "unknown") otherwise: indices
 * stay below the counts Slang reports, a variable layout without a type
 * layout is asked nothing per category, a binding range without a leaf
 * type layout is not asked whether it is specializable, and one without a
 * leaf variable is not asked for its image format.
 */
#define _GNU_SOURCE /* PATH_MAX */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "dgpb/layout_record.h"
#include "layout/layout_internal.h"
#include "layout/slang_api.h"
#include "compiler/slang_library.h"

/* Counts Slang reports beyond this are refused (DGPB_ERR_LIMIT): no real layout comes near. */
#define MAX_LIST 0x1000000

/* ---- the graph walk ---- */

enum { K_TYPE, K_VAR, K_TYPE_LAYOUT, K_VAR_LAYOUT, K_COUNT };

typedef struct ptrmap {
    const void **keys;
    int32_t *vals;
    uint32_t cap, n;
} ptrmap;

typedef struct item {
    int kind;
    int32_t index;
    void *ptr;
} item;

typedef struct walker {
    const dgpb_slang_api *api;
    dgpb_layout_model *m;
    ptrmap maps[K_COUNT];
    item *queue;
    size_t qhead, qlen, qcap;
    int rc;
    dgpb_diag *diag;
    /* The variables of the explicit counters (an append or consume buffer's counter, found by
       the type layouts), which Slang synthesizes: asking for their type crashes libslang
       (2026.12), so walk_var records their name alone. Variables are walked after every
       layout (drain), so each counter is known by then. */
    const void **counters;
    size_t counter_count, counter_cap;
} walker;

static uint32_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (uint32_t)x;
}

static void nomem(walker *w)
{
    if (!w->rc)
        w->rc = dgpb_diag_set(w->diag, DGPB_ERR_NOMEM, -1, "out of memory recording the layout");
}

static bool map_grow(ptrmap *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 64;
    const void **keys = mem_calloc(cap, sizeof *keys);
    int32_t *vals = mem_calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        dgpb_free(keys);
        dgpb_free(vals);
        return false;
    }
    for (uint32_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        uint32_t h = hash_ptr(m->keys[i]) & (cap - 1);
        while (keys[h])
            h = (h + 1) & (cap - 1);
        keys[h] = m->keys[i];
        vals[h] = m->vals[i];
    }
    dgpb_free(m->keys);
    dgpb_free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return true;
}

/* The number of a Slang object: -1 for NULL, its old number when seen before, else a new one
 * (a zeroed record, queued to be asked about). */
static int32_t intern(walker *w, int kind, void *p)
{
    if (!p || w->rc)
        return -1;
    ptrmap *map = &w->maps[kind];
    if ((uint64_t)(map->n + 1) * 2 > map->cap && !map_grow(map)) {
        nomem(w);
        return -1;
    }
    uint32_t h = hash_ptr(p) & (map->cap - 1);
    while (map->keys[h]) {
        if (map->keys[h] == p)
            return map->vals[h];
        h = (h + 1) & (map->cap - 1);
    }
    int32_t idx = -1;
    dgpb_layout_model *m = w->m;
    switch (kind) {
    case K_TYPE:
        idx = DGPB_LPUSH(m, types);
        break;
    case K_VAR:
        idx = DGPB_LPUSH(m, vars);
        break;
    case K_TYPE_LAYOUT:
        idx = DGPB_LPUSH(m, type_layouts);
        break;
    default:
        idx = DGPB_LPUSH(m, var_layouts);
        break;
    }
    if (idx < 0) {
        nomem(w);
        return -1;
    }
    if (w->qlen == w->qcap) {
        size_t cap = w->qcap ? w->qcap * 2 : 64;
        item *q = mem_realloc(w->queue, cap * sizeof *q);
        if (!q) {
            nomem(w);
            return -1;
        }
        w->queue = q;
        w->qcap = cap;
    }
    w->queue[w->qlen++] = (item){kind, idx, p};
    map->keys[h] = p;
    map->vals[h] = idx;
    map->n++;
    return idx;
}

static int32_t string(walker *w, const char *s, const char *what)
{
    if (!s || w->rc)
        return -1;
    size_t len = strlen(s);
    int32_t i = layout_model_string(w->m, s, len);
    if (i == -2 && !w->rc)
        w->rc = dgpb_diag_set(w->diag, DGPB_ERR_LIMIT, -1,
                              "%s '%.60s...' is %zu bytes long (the layout format's limit is %u)",
                              what, s, len, DGPB_LAYOUT_MAX_STRING);
    if (w->m->failed)
        nomem(w);
    return i < 0 ? -1 : i;
}

/* A count Slang reported, as a list length. */
static uint32_t count_of(walker *w, int64_t n, const char *what)
{
    if (n <= 0)
        return 0;
    if (n > MAX_LIST) {
        if (!w->rc)
            w->rc = dgpb_diag_set(w->diag, DGPB_ERR_LIMIT, -1, "Slang reports %lld %s (limit %d)",
                                  (long long)n, what, MAX_LIST);
        return 0;
    }
    return (uint32_t)n;
}

typedef size_t (*per_category_fn)(const dgpb_slang_api *a, void *object,
                                  SlangParameterCategory category);

/* Every category's answer: the default (a category Slang does not know) and those that differ. */
static dgpb_lcat categories_of(walker *w, per_category_fn f, void *object)
{
    dgpb_lcat c = {0};
    c.dflt = f(w->api, object, DGPB_LAYOUT_CATEGORY_PROBE);
    c.answers.first = w->m->answers.n;
    for (uint32_t cat = 0; cat < DGPB_LAYOUT_CATEGORY_PROBE; cat++) {
        uint64_t v = f(w->api, object, cat);
        if (v == c.dflt)
            continue;
        int32_t i = DGPB_LPUSH(w->m, answers);
        if (i < 0) {
            nomem(w);
            break;
        }
        w->m->answers.v[i].category = cat;
        w->m->answers.v[i].value = v;
        c.answers.count++;
    }
    return c;
}

/* Adapters from Slang's typed signatures to per_category_fn (a call through a cast pointer would be UB). */
static size_t tl_size(const dgpb_slang_api *a, void *o, SlangParameterCategory c)
{
    return a->spReflectionTypeLayout_GetSize(o, c);
}
static size_t tl_stride(const dgpb_slang_api *a, void *o, SlangParameterCategory c)
{
    return a->spReflectionTypeLayout_GetStride(o, c);
}
static size_t tl_element_stride(const dgpb_slang_api *a, void *o, SlangParameterCategory c)
{
    return a->spReflectionTypeLayout_GetElementStride(o, c);
}
static size_t vl_offset(const dgpb_slang_api *a, void *o, SlangParameterCategory c)
{
    return a->spReflectionVariableLayout_GetOffset(o, c);
}
static size_t vl_space(const dgpb_slang_api *a, void *o, SlangParameterCategory c)
{
    return a->spReflectionVariableLayout_GetSpace(o, c);
}

static void walk_type(walker *w, int32_t idx, SlangReflectionType *t)
{
    const dgpb_slang_api *a = w->api;
    dgpb_ltype r = {0};
    r.kind = a->spReflectionType_GetKind(t);
    r.name = string(w, a->spReflectionType_GetName(t), "a type name");
    r.element_type = intern(w, K_TYPE, a->spReflectionType_GetElementType(t));
    r.element_count = a->spReflectionType_GetElementCount(t);
    r.row_count = a->spReflectionType_GetRowCount(t);
    r.column_count = a->spReflectionType_GetColumnCount(t);
    r.scalar_type = a->spReflectionType_GetScalarType(t);
    r.resource_shape = a->spReflectionType_GetResourceShape(t);
    r.resource_access = a->spReflectionType_GetResourceAccess(t);
    r.resource_result_type = intern(w, K_TYPE, a->spReflectionType_GetResourceResultType(t));
    if (!w->rc)
        w->m->types.v[idx] = r;
}

static void walk_var(walker *w, int32_t idx, SlangReflectionVariable *v)
{
    const dgpb_slang_api *a = w->api;
    dgpb_lvar r = {0};
    r.name = string(w, a->spReflectionVariable_GetName(v), "a variable name");
    for (size_t i = 0; i < w->counter_count; i++)
        if (w->counters[i] == (const void *)v) {
            r.type = -1; /* an explicit counter's: a name alone (see walker) */
            if (!w->rc)
                w->m->vars.v[idx] = r;
            return;
        }
    r.type = intern(w, K_TYPE, a->spReflectionVariable_GetType(v));
    uint32_t n = count_of(w, a->spReflectionVariable_GetUserAttributeCount(v), "user attributes");
    r.attributes.first = w->m->attributes.n;
    for (uint32_t i = 0; i < n && !w->rc; i++) {
        SlangReflectionUserAttribute *u = a->spReflectionVariable_GetUserAttribute(v, i);
        int32_t s =
            u ? string(w, a->spReflectionUserAttribute_GetName(u), "an attribute name") : -1;
        int32_t k = DGPB_LPUSH(w->m, attributes);
        if (k < 0) {
            nomem(w);
            break;
        }
        w->m->attributes.v[k] = s;
        r.attributes.count++;
    }
    if (!w->rc)
        w->m->vars.v[idx] = r;
}

static void walk_var_layout(walker *w, int32_t idx, SlangReflectionVariableLayout *v)
{
    const dgpb_slang_api *a = w->api;
    dgpb_lvar_layout r = {0};
    SlangReflectionTypeLayout *tl = a->spReflectionVariableLayout_GetTypeLayout(v);
    r.type_layout = intern(w, K_TYPE_LAYOUT, tl);
    r.variable = intern(w, K_VAR, a->spReflectionVariableLayout_GetVariable(v));
    /* GetOffset and GetSpace (and the binding index and space, which call them) remap a
     * category the variable layout lacks through its type layout without checking it for
     * NULL: without one, every answer is recorded as 0 (no category asked). */
    if (tl) {
        r.binding_index = a->spReflectionParameter_GetBindingIndex(v);
        r.binding_space = a->spReflectionParameter_GetBindingSpace(v);
        r.offset = categories_of(w, vl_offset, v);
        r.space = categories_of(w, vl_space, v);
    } else {
        r.offset.answers.first = w->m->answers.n;
        r.space.answers.first = w->m->answers.n;
    }
    if (!w->rc)
        w->m->var_layouts.v[idx] = r;
}

static void walk_type_layout(walker *w, int32_t idx, SlangReflectionTypeLayout *t)
{
    const dgpb_slang_api *a = w->api;
    dgpb_layout_model *m = w->m;
    dgpb_ltype_layout r = {0};
    r.type = intern(w, K_TYPE, a->spReflectionTypeLayout_GetType(t));
    r.kind = a->spReflectionTypeLayout_getKind(t);
    r.parameter_category = a->spReflectionTypeLayout_GetParameterCategory(t);
    r.size = categories_of(w, tl_size, t);
    r.stride = categories_of(w, tl_stride, t);
    r.element_stride = categories_of(w, tl_element_stride, t);
    r.element_type_layout =
        intern(w, K_TYPE_LAYOUT, a->spReflectionTypeLayout_GetElementTypeLayout(t));
    r.element_var_layout =
        intern(w, K_VAR_LAYOUT, a->spReflectionTypeLayout_GetElementVarLayout(t));
    r.container_var_layout =
        intern(w, K_VAR_LAYOUT, a->spReflectionTypeLayout_getContainerVarLayout(t));
    SlangReflectionVariableLayout *counter = a->spReflectionTypeLayout_GetExplicitCounter(t);
    SlangReflectionVariable *counter_var =
        counter ? a->spReflectionVariableLayout_GetVariable(counter) : NULL;
    if (counter_var && !w->rc) {
        const void **c = mem_grow(w->counters, w->counter_count, &w->counter_cap,
                                  sizeof *w->counters, 4);
        if (!c)
            nomem(w);
        else
            (w->counters = c)[w->counter_count++] = counter_var;
    }
    r.explicit_counter = intern(w, K_VAR_LAYOUT, counter);
    r.explicit_counter_offset = a->spReflectionTypeLayout_getExplicitCounterBindingRangeOffset(t);

    /* GetCategoryByIndex, GetFieldByIndex and getFieldBindingRangeOffset index Slang's lists
     * unchecked: only indices below the counts Slang reports are asked. */
    uint32_t n = count_of(w, a->spReflectionTypeLayout_GetCategoryCount(t), "categories");
    r.categories.first = m->categories.n;
    for (uint32_t i = 0; i < n && !w->rc; i++) {
        int32_t k = DGPB_LPUSH(m, categories);
        if (k < 0)
            break;
        m->categories.v[k] = a->spReflectionTypeLayout_GetCategoryByIndex(t, i);
        r.categories.count++;
    }

    n = count_of(w, a->spReflectionTypeLayout_GetFieldCount(t), "fields");
    r.fields.first = m->fields.n;
    for (uint32_t i = 0; i < n && !w->rc; i++) {
        int32_t vl = intern(w, K_VAR_LAYOUT, a->spReflectionTypeLayout_GetFieldByIndex(t, i));
        int64_t off = a->spReflectionTypeLayout_getFieldBindingRangeOffset(t, (SlangInt)i);
        int32_t k = DGPB_LPUSH(m, fields);
        if (k < 0)
            break;
        m->fields.v[k] = (dgpb_lfield){vl, off};
        r.fields.count++;
    }

    n = count_of(w, a->spReflectionTypeLayout_getBindingRangeCount(t), "binding ranges");
    r.binding_ranges.first = m->binding_ranges.n;
    for (uint32_t i = 0; i < n && !w->rc; i++) {
        SlangInt j = (SlangInt)i;
        dgpb_lbinding_range b;
        b.type = a->spReflectionTypeLayout_getBindingRangeType(t, j);
        b.binding_count = a->spReflectionTypeLayout_getBindingRangeBindingCount(t, j);
        SlangReflectionTypeLayout *leaf =
            a->spReflectionTypeLayout_getBindingRangeLeafTypeLayout(t, j);
        SlangReflectionVariable *leaf_var =
            a->spReflectionTypeLayout_getBindingRangeLeafVariable(t, j);
        b.leaf_type_layout = intern(w, K_TYPE_LAYOUT, leaf);
        b.leaf_variable = intern(w, K_VAR, leaf_var);
        /* isBindingRangeSpecializable reads the range's leaf type layout and
         * getBindingRangeImageFormat its leaf variable, unchecked (a range without a leaf
         * variable, e.g. a resource type layout's own range, crashes Slang): asked only when
         * there is one, else recorded as Slang's answer for an ordinary range (0, unknown). */
        b.specializable = leaf ? a->spReflectionTypeLayout_isBindingRangeSpecializable(t, j) : 0;
        b.image_format = leaf_var ? a->spReflectionTypeLayout_getBindingRangeImageFormat(t, j)
                                  : DGPB_SLANG_IMAGE_FORMAT_UNKNOWN;
        b.descriptor_set_index = a->spReflectionTypeLayout_getBindingRangeDescriptorSetIndex(t, j);
        b.first_descriptor_range =
            a->spReflectionTypeLayout_getBindingRangeFirstDescriptorRangeIndex(t, j);
        b.descriptor_range_count =
            a->spReflectionTypeLayout_getBindingRangeDescriptorRangeCount(t, j);
        int32_t k = DGPB_LPUSH(m, binding_ranges);
        if (k < 0)
            break;
        m->binding_ranges.v[k] = b;
        r.binding_ranges.count++;
    }

    n = count_of(w, a->spReflectionTypeLayout_getDescriptorSetCount(t), "descriptor sets");
    r.descriptor_sets.first = m->descriptor_sets.n;
    for (uint32_t i = 0; i < n && !w->rc; i++) {
        SlangInt s = (SlangInt)i;
        dgpb_ldescriptor_set d = {0};
        d.space_offset = a->spReflectionTypeLayout_getDescriptorSetSpaceOffset(t, s);
        int32_t k = DGPB_LPUSH(m, descriptor_sets);
        if (k < 0)
            break;
        uint32_t nr =
            count_of(w, a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeCount(t, s),
                     "descriptor ranges");
        d.ranges.first = m->descriptor_ranges.n;
        for (uint32_t q = 0; q < nr && !w->rc; q++) {
            SlangInt rq = (SlangInt)q;
            dgpb_ldescriptor_range dr;
            dr.index_offset =
                a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeIndexOffset(t, s, rq);
            dr.descriptor_count =
                a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeDescriptorCount(t, s, rq);
            dr.type = a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeType(t, s, rq);
            dr.category =
                a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeCategory(t, s, rq);
            int32_t kr = DGPB_LPUSH(m, descriptor_ranges);
            if (kr < 0)
                break;
            m->descriptor_ranges.v[kr] = dr;
            d.ranges.count++;
        }
        m->descriptor_sets.v[k] = d;
        r.descriptor_sets.count++;
    }

    n = count_of(w, a->spReflectionTypeLayout_getSubObjectRangeCount(t), "sub-object ranges");
    r.sub_object_ranges.first = m->sub_object_ranges.n;
    for (uint32_t i = 0; i < n && !w->rc; i++) {
        SlangInt j = (SlangInt)i;
        dgpb_lsub_object_range o;
        o.binding_range_index = a->spReflectionTypeLayout_getSubObjectRangeBindingRangeIndex(t, j);
        o.space_offset = a->spReflectionTypeLayout_getSubObjectRangeSpaceOffset(t, j);
        o.offset_var_layout =
            intern(w, K_VAR_LAYOUT, a->spReflectionTypeLayout_getSubObjectRangeOffset(t, j));
        int32_t k = DGPB_LPUSH(m, sub_object_ranges);
        if (k < 0)
            break;
        m->sub_object_ranges.v[k] = o;
        r.sub_object_ranges.count++;
    }
    if (m->failed)
        nomem(w);
    if (!w->rc)
        m->type_layouts.v[idx] = r;
}

static void walk_entry(walker *w, SlangReflectionEntryPoint *e)
{
    const dgpb_slang_api *a = w->api;
    dgpb_layout_model *m = w->m;
    dgpb_lentry r = {0};
    r.name = string(w, a->spReflectionEntryPoint_getName(e), "an entry point name");
    r.name_override =
        string(w, a->spReflectionEntryPoint_getNameOverride(e), "an entry point name override");
    r.stage = a->spReflectionEntryPoint_getStage(e);
    SlangReflectionVariableLayout *vl = a->spReflectionEntryPoint_getVarLayout(e);
    r.var_layout = intern(w, K_VAR_LAYOUT, vl);
    r.type_layout = intern(w, K_TYPE_LAYOUT, a->spReflectionVariableLayout_GetTypeLayout(vl));
    SlangUInt size[3] = {0, 0, 0};
    a->spReflectionEntryPoint_getComputeThreadGroupSize(e, 3, size);
    for (int k = 0; k < 3; k++)
        r.thread_group_size[k] = size[k];
    /* getParameterByIndex does not check its index: only those below the count. */
    uint32_t n = count_of(w, a->spReflectionEntryPoint_getParameterCount(e), "entry parameters");
    r.params.first = m->params.n;
    for (uint32_t i = 0; i < n && !w->rc; i++) {
        int32_t p = intern(w, K_VAR_LAYOUT, a->spReflectionEntryPoint_getParameterByIndex(e, i));
        int32_t k = DGPB_LPUSH(m, params);
        if (k < 0) {
            nomem(w);
            break;
        }
        m->params.v[k] = p;
        r.params.count++;
    }
    int32_t k = DGPB_LPUSH(m, entries);
    if (k < 0)
        nomem(w);
    else if (!w->rc)
        m->entries.v[k] = r;
}

static void drain(walker *w)
{
    /* Two passes over what is queued: every layout and type first (they queue more of
       themselves), then the variables (which queue types alone), so that every explicit
       counter is known before any variable is asked about (see walker). A done item's kind
       is -1. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = w->qhead; i < w->qlen && !w->rc; i++) {
            item it = w->queue[i];
            if (it.kind < 0 || (pass == 0 && it.kind == K_VAR))
                continue;
            w->queue[i].kind = -1;
            switch (it.kind) {
            case K_TYPE:
                walk_type(w, it.index, it.ptr);
                break;
            case K_VAR:
                walk_var(w, it.index, it.ptr);
                break;
            case K_TYPE_LAYOUT:
                walk_type_layout(w, it.index, it.ptr);
                break;
            default:
                walk_var_layout(w, it.index, it.ptr);
                break;
            }
        }
    w->qhead = w->qlen;
}

/* The group of a layout's entries, from their stages' pipelines (dgpb/vocabulary.def). */
static uint32_t group_of(const dgpb_layout_model *m)
{
    bool raster = true, rt = true;
    if (m->entries.n == 0)
        return DGPB_LAYOUT_GROUP_OTHER;
    if (m->entries.n == 1 && m->entries.v[0].stage == DGPB_SLANG_STAGE_COMPUTE)
        return DGPB_LAYOUT_GROUP_COMPUTE;
    for (uint32_t i = 0; i < m->entries.n; i++) {
        int s = dgpb_stage_from_slang(m->entries.v[i].stage);
        raster =
            raster && s >= 0 && s != DGPB_STAGE_COMPUTE && !dgpb_stage_is_ray_tracing((uint32_t)s);
        rt = rt && s >= 0 && dgpb_stage_is_ray_tracing((uint32_t)s);
    }
    return raster ? DGPB_LAYOUT_GROUP_RENDER
           : rt   ? DGPB_LAYOUT_GROUP_RAY_TRACING
                  : DGPB_LAYOUT_GROUP_OTHER;
}

int layout_record_reflection(const dgpb_slang_api *api, SlangReflection *reflection,
                             dgpb_layout_model *model, dgpb_diag *diag)
{
    if (!reflection)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1, "Slang returned no reflection");
    unsigned spec = api->spReflection_GetTypeParameterCount(reflection);
    if (spec)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "the program has %u specialization parameter%s; a layout is recorded "
                             "for fully specialized programs only",
                             spec, spec == 1 ? "" : "s");
    /* (spReflection_GetTypeParameterCount does not check for NULL: the test above comes
     * first.) */
    walker w = {0};
    w.api = api;
    w.m = model;
    w.diag = diag;
    model->specialization_param_count = 0;
    model->global_var_layout =
        intern(&w, K_VAR_LAYOUT, api->spReflection_getGlobalParamsVarLayout(reflection));
    model->global_type_layout =
        intern(&w, K_TYPE_LAYOUT, api->spReflection_getGlobalParamsTypeLayout(reflection));
    drain(&w);
    SlangUInt n = api->spReflection_getEntryPointCount(reflection);
    uint32_t count = count_of(&w, (int64_t)(n > (SlangUInt)MAX_LIST ? (SlangUInt)MAX_LIST + 1 : n),
                              "entry points");
    /* getEntryPointByIndex does not check its index: only those below the count. */
    for (uint32_t i = 0; i < count && !w.rc; i++) {
        walk_entry(&w, api->spReflection_getEntryPointByIndex(reflection, i));
        drain(&w);
    }
    model->group_kind = group_of(model);
    for (int k = 0; k < K_COUNT; k++) {
        dgpb_free(w.maps[k].keys);
        dgpb_free(w.maps[k].vals);
    }
    dgpb_free(w.queue);
    dgpb_free(w.counters);
    if (!w.rc && model->failed)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory recording the layout");
    return w.rc;
}

/* ---- one compile, one layout ---- */

/* Options whose value names a file or folder: left out of the header's options. */
static bool is_path_option(const char *a, bool *attached)
{
    static const char *const with_value[] = {"-o", "-reflection-json", "-I", "-depfile", "-r"};
    *attached = false;
    for (size_t i = 0; i < sizeof with_value / sizeof with_value[0]; i++)
        if (!strcmp(a, with_value[i]))
            return true;
    if (!strncmp(a, "-I", 2) && a[2]) {
        *attached = true;
        return true;
    }
    return false;
}

static bool is_module_file(const char *a)
{
    size_t n = strlen(a);
    return a[0] != '-' && n > 6 && !strcmp(a + n - 6, ".slang");
}

/*
 * Fills the header of a model from the arguments of its compile: Slang's
 * version, the one -target, and the options (every argument but the module
 * file, search folders and output files). DGPB_ERR_INVALID without exactly
 * one -target; DGPB_ERR_LIMIT, DGPB_ERR_NOMEM.
 */
static int record_header(dgpb_slang *s, const char *const *args, size_t arg_count,
                         dgpb_layout_model *m, dgpb_diag *diag)
{
    const char *target = NULL;
    int targets = 0;
    for (size_t i = 0; i < arg_count; i++) {
        if (!args[i])
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "argument %zu is NULL", i);
        if (!strcmp(args[i], "-target")) {
            if (i + 1 >= arg_count)
                return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "'-target' needs a value");
            target = args[i + 1];
            targets++;
        }
    }
    if (targets == 0)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no -target given");
    if (targets > 1)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "a layout is recorded for one target; %d given", targets);
    if (arg_count > INT_MAX)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "too many arguments");
    m->slang_version = layout_model_string(m, s->version, strlen(s->version));
    m->target = layout_model_string(m, target, strlen(target));
    for (size_t i = 0; i < arg_count; i++) {
        bool attached;
        if (is_path_option(args[i], &attached)) {
            i += attached ? 0 : 1;
            continue;
        }
        if (is_module_file(args[i]))
            continue;
        int32_t o = layout_model_string(m, args[i], strlen(args[i]));
        if (o == -2)
            return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "argument %zu is too long", i);
        int32_t k = DGPB_LPUSH(m, options);
        if (k >= 0)
            m->options.v[k] = o;
    }
    if (m->failed || m->slang_version < 0 || m->target < 0)
        return dgpb_diag_set(diag, m->failed ? DGPB_ERR_NOMEM : DGPB_ERR_LIMIT, -1,
                             m->failed ? "out of memory" : "the target or version is too long");
    return DGPB_OK;
}

int layout_record_compiled(dgpb_slang *s, SlangCompileRequest *req, const char *const *args,
                           size_t arg_count, uint8_t **out, size_t *size, dgpb_diag *diag)
{
    return layout_record_program(s, s->api.spGetReflection(req), args, arg_count, out, size,
                                 diag);
}

int layout_record_program(dgpb_slang *s, SlangReflection *program, const char *const *args,
                          size_t arg_count, uint8_t **out, size_t *size, dgpb_diag *diag)
{
    *out = NULL;
    *size = 0;
    dgpb_layout_model m;
    layout_model_init(&m);
    int rc = record_header(s, args, arg_count, &m, diag);
    if (!rc)
        rc = layout_record_reflection(&s->api, program, &m, diag);
    if (!rc)
        rc = layout_model_write(&m, out, size, diag);
    layout_model_free(&m);
    return rc;
}

int dgpb_layout_record(dgpb_slang *s, const char *const *args, size_t arg_count, uint8_t **out,
                       size_t *size, dgpb_diag *diag)
{
    *out = NULL;
    *size = 0;
    const dgpb_slang_api *a = &s->api;
    dgpb_layout_model m;
    layout_model_init(&m);
    SlangSession *session = NULL;
    SlangCompileRequest *req = NULL;
    int rc = record_header(s, args, arg_count, &m, diag);
    if (rc)
        goto out;
    if ((rc = slang_library_session(s, &session, diag)))
        goto out;
    req = a->spCreateCompileRequest(session);
    if (!req) {
        rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "Slang could not create a compile request");
        goto out;
    }
    if (s->exe_dir && a->spAddSearchPath)
        a->spAddSearchPath(req, s->exe_dir); /* as slangc does */
    /* slangc's default, before its arguments (which may override it). */
    a->spSetMatrixLayoutMode(req, DGPB_SLANG_MATRIX_LAYOUT_COLUMN_MAJOR);
    if (DGPB_SLANG_FAILED(a->spProcessCommandLineArguments(req, args, (int)arg_count))) {
        const char *text = a->spGetDiagnosticOutput(req);
        rc = dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "Slang rejected the arguments%s%s",
                           text && *text ? ":\n" : "", text ? text : "");
        goto out;
    }
    a->spSetCompileFlags(req, a->spGetCompileFlags(req) | DGPB_SLANG_COMPILE_FLAG_NO_CODEGEN);
    if (DGPB_SLANG_FAILED(a->spCompile(req))) {
        const char *text = a->spGetDiagnosticOutput(req);
        rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, -1, "%s",
                           text && *text ? text : "Slang failed to compile the module");
        goto out;
    }
    rc = layout_record_reflection(a, a->spGetReflection(req), &m, diag);
    if (!rc)
        rc = layout_model_write(&m, out, size, diag);
out:
    if (req)
        a->spDestroyCompileRequest(req);
    layout_model_free(&m);
    return rc;
}
