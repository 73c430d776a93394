/*
 * layout_blob.c - the layout model and its writer (layout_internal.h).
 *
 * The writer turns a dgpb_layout_model into the bytes of docs/layout.md:
 * header, string table, options, the five object tables, then the list
 * tables, each list table laid out in its owners' order (so a model whose
 * lists were appended in any order still gives one canonical byte sequence,
 * the only one the reader accepts). Per-category answers are written as
 * they are in the model: the recorder already keeps only those that differ
 * from the default, in category order; the writer checks that.
 */
#include <assert.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "layout/layout_internal.h"

void layout_model_init(dgpb_layout_model *m)
{
    memset(m, 0, sizeof *m);
    m->slang_version = -1;
    m->target = -1;
    m->global_var_layout = -1;
    m->global_type_layout = -1;
}

void layout_model_free(dgpb_layout_model *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->strings.n; i++)
        dgpb_free(m->strings.v[i].s);
    dgpb_free(m->strings.v);
    dgpb_free(m->options.v);
    dgpb_free(m->types.v);
    dgpb_free(m->vars.v);
    dgpb_free(m->type_layouts.v);
    dgpb_free(m->var_layouts.v);
    dgpb_free(m->entries.v);
    dgpb_free(m->answers.v);
    dgpb_free(m->attributes.v);
    dgpb_free(m->categories.v);
    dgpb_free(m->params.v);
    dgpb_free(m->fields.v);
    dgpb_free(m->binding_ranges.v);
    dgpb_free(m->descriptor_sets.v);
    dgpb_free(m->descriptor_ranges.v);
    dgpb_free(m->sub_object_ranges.v);
    dgpb_free(m->string_hash);
    layout_model_init(m);
}

/* The layout of every DGPB_LVEC: pointer, count, capacity. */
typedef struct anyvec {
    void *v;
    uint32_t n, cap;
} anyvec;

int32_t layout_vec_push(dgpb_layout_model *m, void *vec, size_t elem_size)
{
    anyvec *a = vec;
    if (m->failed)
        return -1;
    if (a->n >= DGPB_LAYOUT_MAX_OBJECTS) {
        m->failed = true;
        return -1;
    }
    if (a->n == a->cap) {
        uint32_t cap =
            a->cap ? (a->cap > DGPB_LAYOUT_MAX_OBJECTS / 2 ? DGPB_LAYOUT_MAX_OBJECTS : a->cap * 2)
                   : 16;
        void *p = mem_realloc(a->v, (size_t)cap * elem_size);
        if (!p) {
            m->failed = true;
            return -1;
        }
        a->v = p;
        a->cap = cap;
    }
    memset((char *)a->v + (size_t)a->n * elem_size, 0, elem_size);
    return (int32_t)a->n++;
}

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static bool string_hash_grow(dgpb_layout_model *m)
{
    uint32_t cap = m->string_hash_cap ? m->string_hash_cap * 2 : 64;
    uint32_t *t = mem_calloc(cap, sizeof *t);
    if (!t)
        return false;
    for (uint32_t i = 0; i < m->strings.n; i++) {
        uint32_t h = hash_bytes(m->strings.v[i].s, m->strings.v[i].len) & (cap - 1);
        while (t[h])
            h = (h + 1) & (cap - 1);
        t[h] = i + 1;
    }
    dgpb_free(m->string_hash);
    m->string_hash = t;
    m->string_hash_cap = cap;
    return true;
}

int32_t layout_model_string(dgpb_layout_model *m, const char *s, size_t len)
{
    if (!s || m->failed)
        return -1;
    if (len > DGPB_LAYOUT_MAX_STRING || memchr(s, 0, len))
        return -2;
    if ((uint64_t)(m->strings.n + 1) * 2 > m->string_hash_cap && !string_hash_grow(m)) {
        m->failed = true;
        return -1;
    }
    uint32_t h = hash_bytes(s, len) & (m->string_hash_cap - 1);
    while (m->string_hash[h]) {
        const dgpb_lstring *e = &m->strings.v[m->string_hash[h] - 1];
        if (e->len == len && !memcmp(e->s, s, len))
            return (int32_t)(m->string_hash[h] - 1);
        h = (h + 1) & (m->string_hash_cap - 1);
    }
    char *copy = mem_alloc(len + 1);
    if (!copy) {
        m->failed = true;
        return -1;
    }
    memcpy(copy, s, len);
    copy[len] = 0;
    int32_t i = DGPB_LPUSH(m, strings);
    if (i < 0) {
        dgpb_free(copy);
        return -1;
    }
    m->strings.v[i].s = copy;
    m->strings.v[i].len = (uint32_t)len;
    m->string_hash[h] = (uint32_t)i + 1;
    return i;
}

/* ---- writing ---- */

typedef struct writer {
    const dgpb_layout_model *m;
    dgpb_bytebuf b;
    bool bad; /* the model is inconsistent */
    const char *why;
} writer;

static void put32(uint32_t *w, uint32_t v)
{
    *w = v;
}

static void put64(uint32_t *w, uint64_t v)
{
    w[0] = (uint32_t)v;
    w[1] = (uint32_t)(v >> 32);
}

static void emit(writer *w, const uint32_t *words, size_t n)
{
    for (size_t i = 0; i < n; i++)
        bytebuf_u32(&w->b, words[i]);
}

static uint32_t ref(writer *w, int32_t r, uint32_t count, const char *what)
{
    if (r < 0)
        return DGPB_LAYOUT_NONE;
    if ((uint32_t)r >= count) {
        w->bad = true;
        w->why = what;
        return DGPB_LAYOUT_NONE;
    }
    return (uint32_t)r;
}

static bool span_ok(writer *w, dgpb_lspan s, uint32_t n, const char *what)
{
    if ((uint64_t)s.first + s.count > n) {
        w->bad = true;
        w->why = what;
        return false;
    }
    return true;
}

/* A list field: (first, count) where first is the running position in its output table. */
static void put_list(uint32_t *rec, uint32_t *cursor, uint32_t count)
{
    rec[0] = count ? *cursor : 0;
    rec[1] = count;
    *cursor += count;
}

static void put_per_category(writer *w, uint32_t *rec, const dgpb_lcat *c, uint32_t *cursor)
{
    const dgpb_layout_model *m = w->m;
    put64(rec + LC_DEFAULT, c->dflt);
    if (!span_ok(w, c->answers, m->answers.n, "per-category answers"))
        return;
    uint32_t prev = 0;
    for (uint32_t i = 0; i < c->answers.count; i++) {
        const dgpb_lanswer *a = &m->answers.v[c->answers.first + i];
        if (a->category >= DGPB_LAYOUT_CATEGORY_PROBE || (i && a->category <= prev) ||
            a->value == c->dflt) {
            w->bad = true;
            w->why = "per-category answers out of order, out of range or equal to the default";
        }
        prev = a->category;
    }
    put_list(rec + LC_ANSWERS, cursor, c->answers.count);
}

static void emit_answers(writer *w, const dgpb_lcat *c)
{
    if (!span_ok(w, c->answers, w->m->answers.n, "per-category answers"))
        return;
    for (uint32_t i = 0; i < c->answers.count; i++) {
        const dgpb_lanswer *a = &w->m->answers.v[c->answers.first + i];
        uint32_t rec[LA_WORDS];
        put32(rec + LA_CATEGORY, a->category);
        put64(rec + LA_VALUE, a->value);
        emit(w, rec, LA_WORDS);
    }
}

/* Running positions in the list tables, advanced as their owners are written. */
typedef struct cursors {
    uint32_t attributes, answers, categories, params, fields, binding_ranges, descriptor_sets,
        descriptor_ranges, sub_object_ranges;
} cursors;

/* Writes table `table` (DGPB_LAYOUT_TABLES) of the writer's model. */
static void write_table(writer *w, layout_table table, cursors *cur)
{
    const dgpb_layout_model *m = w->m;
    const uint32_t ns = m->strings.n, nt = m->types.n, nv = m->vars.n, ntl = m->type_layouts.n,
                   nvl = m->var_layouts.n;
    switch (table) {
    case LAYOUT_TABLE_OPTIONS:
        for (uint32_t i = 0; i < m->options.n; i++) {
            uint32_t o = ref(w, m->options.v[i], ns, "option");
            if (o == DGPB_LAYOUT_NONE) {
                w->bad = true;
                w->why = "an option is null";
            }
            bytebuf_u32(&w->b, o);
        }
        break;
    case LAYOUT_TABLE_TYPES:
        for (uint32_t i = 0; i < nt; i++) {
            const dgpb_ltype *t = &m->types.v[i];
            uint32_t r[LT_WORDS];
            r[LT_KIND] = t->kind;
            r[LT_NAME] = ref(w, t->name, ns, "type name");
            r[LT_ELEMENT_TYPE] = ref(w, t->element_type, nt, "element type");
            put64(r + LT_ELEMENT_COUNT, t->element_count);
            r[LT_ROW_COUNT] = t->row_count;
            r[LT_COLUMN_COUNT] = t->column_count;
            r[LT_SCALAR_TYPE] = t->scalar_type;
            r[LT_RESOURCE_SHAPE] = t->resource_shape;
            r[LT_RESOURCE_ACCESS] = t->resource_access;
            r[LT_RESOURCE_RESULT_TYPE] =
                ref(w, t->resource_result_type, nt, "resource result type");
            emit(w, r, LT_WORDS);
        }
        break;
    case LAYOUT_TABLE_VARS:
        for (uint32_t i = 0; i < nv; i++) {
            const dgpb_lvar *v = &m->vars.v[i];
            uint32_t r[LV_WORDS];
            r[LV_NAME] = ref(w, v->name, ns, "variable name");
            r[LV_TYPE] = ref(w, v->type, nt, "variable type");
            span_ok(w, v->attributes, m->attributes.n, "user attributes");
            put_list(r + LV_ATTRIBUTES, &cur->attributes, v->attributes.count);
            emit(w, r, LV_WORDS);
        }
        break;
    case LAYOUT_TABLE_TYPE_LAYOUTS:
        for (uint32_t i = 0; i < ntl; i++) {
            const dgpb_ltype_layout *t = &m->type_layouts.v[i];
            uint32_t r[LTL_WORDS];
            r[LTL_TYPE] = ref(w, t->type, nt, "type layout's type");
            r[LTL_KIND] = t->kind;
            r[LTL_PARAMETER_CATEGORY] = t->parameter_category;
            put_per_category(w, r + LTL_SIZE, &t->size, &cur->answers);
            put_per_category(w, r + LTL_STRIDE, &t->stride, &cur->answers);
            put_per_category(w, r + LTL_ELEMENT_STRIDE, &t->element_stride, &cur->answers);
            r[LTL_ELEMENT_TYPE_LAYOUT] = ref(w, t->element_type_layout, ntl, "element type layout");
            r[LTL_ELEMENT_VAR_LAYOUT] = ref(w, t->element_var_layout, nvl, "element var layout");
            r[LTL_CONTAINER_VAR_LAYOUT] =
                ref(w, t->container_var_layout, nvl, "container var layout");
            r[LTL_EXPLICIT_COUNTER] = ref(w, t->explicit_counter, nvl, "explicit counter");
            put64(r + LTL_EXPLICIT_COUNTER_OFFSET, (uint64_t)t->explicit_counter_offset);
            span_ok(w, t->categories, m->categories.n, "categories");
            span_ok(w, t->fields, m->fields.n, "fields");
            span_ok(w, t->binding_ranges, m->binding_ranges.n, "binding ranges");
            span_ok(w, t->sub_object_ranges, m->sub_object_ranges.n, "sub-object ranges");
            put_list(r + LTL_CATEGORIES, &cur->categories, t->categories.count);
            put_list(r + LTL_FIELDS, &cur->fields, t->fields.count);
            put_list(r + LTL_BINDING_RANGES, &cur->binding_ranges, t->binding_ranges.count);
            put_list(r + LTL_DESCRIPTOR_SETS, &cur->descriptor_sets, t->descriptor_sets.count);
            put_list(r + LTL_SUB_OBJECT_RANGES, &cur->sub_object_ranges,
                     t->sub_object_ranges.count);
            emit(w, r, LTL_WORDS);
        }
        break;
    case LAYOUT_TABLE_VAR_LAYOUTS:
        for (uint32_t i = 0; i < nvl; i++) {
            const dgpb_lvar_layout *v = &m->var_layouts.v[i];
            uint32_t r[LVL_WORDS];
            r[LVL_TYPE_LAYOUT] = ref(w, v->type_layout, ntl, "variable layout's type layout");
            r[LVL_VARIABLE] = ref(w, v->variable, nv, "variable layout's variable");
            r[LVL_BINDING_INDEX] = v->binding_index;
            r[LVL_BINDING_SPACE] = v->binding_space;
            put_per_category(w, r + LVL_OFFSET, &v->offset, &cur->answers);
            put_per_category(w, r + LVL_SPACE, &v->space, &cur->answers);
            emit(w, r, LVL_WORDS);
        }
        break;
    case LAYOUT_TABLE_ENTRIES:
        for (uint32_t i = 0; i < m->entries.n; i++) {
            const dgpb_lentry *e = &m->entries.v[i];
            uint32_t r[LE_WORDS];
            r[LE_NAME] = ref(w, e->name, ns, "entry name");
            r[LE_NAME_OVERRIDE] = ref(w, e->name_override, ns, "entry name override");
            r[LE_STAGE] = e->stage;
            r[LE_VAR_LAYOUT] = ref(w, e->var_layout, nvl, "entry var layout");
            r[LE_TYPE_LAYOUT] = ref(w, e->type_layout, ntl, "entry type layout");
            for (int k = 0; k < 3; k++)
                put64(r + LE_THREAD_GROUP_SIZE + 2 * k, e->thread_group_size[k]);
            span_ok(w, e->params, m->params.n, "entry parameters");
            put_list(r + LE_PARAMS, &cur->params, e->params.count);
            emit(w, r, LE_WORDS);
        }
        break;
    case LAYOUT_TABLE_ANSWERS:
        for (uint32_t i = 0; i < ntl; i++) {
            emit_answers(w, &m->type_layouts.v[i].size);
            emit_answers(w, &m->type_layouts.v[i].stride);
            emit_answers(w, &m->type_layouts.v[i].element_stride);
        }
        for (uint32_t i = 0; i < nvl; i++) {
            emit_answers(w, &m->var_layouts.v[i].offset);
            emit_answers(w, &m->var_layouts.v[i].space);
        }
        break;
    case LAYOUT_TABLE_ATTRIBUTES:
        for (uint32_t i = 0; i < nv; i++) {
            dgpb_lspan s = m->vars.v[i].attributes;
            for (uint32_t k = 0; k < s.count; k++)
                bytebuf_u32(&w->b, ref(w, m->attributes.v[s.first + k], ns, "attribute"));
        }
        break;
    case LAYOUT_TABLE_CATEGORIES:
        for (uint32_t i = 0; i < ntl; i++) {
            dgpb_lspan s = m->type_layouts.v[i].categories;
            for (uint32_t k = 0; k < s.count; k++)
                bytebuf_u32(&w->b, m->categories.v[s.first + k]);
        }
        break;
    case LAYOUT_TABLE_PARAMS:
        for (uint32_t i = 0; i < m->entries.n; i++) {
            dgpb_lspan s = m->entries.v[i].params;
            for (uint32_t k = 0; k < s.count; k++)
                bytebuf_u32(&w->b, ref(w, m->params.v[s.first + k], nvl, "entry parameter"));
        }
        break;
    case LAYOUT_TABLE_FIELDS:
        for (uint32_t i = 0; i < ntl; i++) {
            dgpb_lspan s = m->type_layouts.v[i].fields;
            for (uint32_t k = 0; k < s.count; k++) {
                const dgpb_lfield *f = &m->fields.v[s.first + k];
                uint32_t r[LF_WORDS];
                r[LF_VAR_LAYOUT] = ref(w, f->var_layout, nvl, "field");
                put64(r + LF_BINDING_RANGE_OFFSET, (uint64_t)f->binding_range_offset);
                emit(w, r, LF_WORDS);
            }
        }
        break;
    case LAYOUT_TABLE_BINDING_RANGES:
        for (uint32_t i = 0; i < ntl; i++) {
            dgpb_lspan s = m->type_layouts.v[i].binding_ranges;
            for (uint32_t k = 0; k < s.count; k++) {
                const dgpb_lbinding_range *b = &m->binding_ranges.v[s.first + k];
                uint32_t r[LB_WORDS];
                r[LB_TYPE] = b->type;
                put64(r + LB_BINDING_COUNT, (uint64_t)b->binding_count);
                r[LB_LEAF_TYPE_LAYOUT] = ref(w, b->leaf_type_layout, ntl, "leaf type layout");
                r[LB_LEAF_VARIABLE] = ref(w, b->leaf_variable, nv, "leaf variable");
                put64(r + LB_SPECIALIZABLE, (uint64_t)b->specializable);
                r[LB_IMAGE_FORMAT] = b->image_format;
                put64(r + LB_DESCRIPTOR_SET_INDEX, (uint64_t)b->descriptor_set_index);
                put64(r + LB_FIRST_DESCRIPTOR_RANGE, (uint64_t)b->first_descriptor_range);
                put64(r + LB_DESCRIPTOR_RANGE_COUNT, (uint64_t)b->descriptor_range_count);
                emit(w, r, LB_WORDS);
            }
        }
        break;
    case LAYOUT_TABLE_DESCRIPTOR_SETS:
        for (uint32_t i = 0; i < ntl; i++) {
            dgpb_lspan s = m->type_layouts.v[i].descriptor_sets;
            for (uint32_t k = 0; k < s.count; k++) {
                const dgpb_ldescriptor_set *d = &m->descriptor_sets.v[s.first + k];
                uint32_t r[LS_WORDS];
                put64(r + LS_SPACE_OFFSET, (uint64_t)d->space_offset);
                span_ok(w, d->ranges, m->descriptor_ranges.n, "descriptor ranges");
                put_list(r + LS_RANGES, &cur->descriptor_ranges, d->ranges.count);
                emit(w, r, LS_WORDS);
            }
        }
        break;
    case LAYOUT_TABLE_DESCRIPTOR_RANGES:
        for (uint32_t i = 0; i < ntl; i++) {
            dgpb_lspan s = m->type_layouts.v[i].descriptor_sets;
            for (uint32_t k = 0; k < s.count; k++) {
                dgpb_lspan rs = m->descriptor_sets.v[s.first + k].ranges;
                for (uint32_t j = 0; j < rs.count; j++) {
                    const dgpb_ldescriptor_range *d = &m->descriptor_ranges.v[rs.first + j];
                    uint32_t r[LR_WORDS];
                    put64(r + LR_INDEX_OFFSET, (uint64_t)d->index_offset);
                    put64(r + LR_DESCRIPTOR_COUNT, (uint64_t)d->descriptor_count);
                    r[LR_TYPE] = d->type;
                    r[LR_CATEGORY] = d->category;
                    emit(w, r, LR_WORDS);
                }
            }
        }
        break;
    case LAYOUT_TABLE_SUB_OBJECT_RANGES:
        for (uint32_t i = 0; i < ntl; i++) {
            dgpb_lspan s = m->type_layouts.v[i].sub_object_ranges;
            for (uint32_t k = 0; k < s.count; k++) {
                const dgpb_lsub_object_range *o = &m->sub_object_ranges.v[s.first + k];
                uint32_t r[LO_WORDS];
                put64(r + LO_BINDING_RANGE_INDEX, (uint64_t)o->binding_range_index);
                put64(r + LO_SPACE_OFFSET, (uint64_t)o->space_offset);
                r[LO_OFFSET_VAR_LAYOUT] = ref(w, o->offset_var_layout, nvl, "sub-object offset");
                emit(w, r, LO_WORDS);
            }
        }
        break;
    case LAYOUT_TABLE_COUNT:
        break;
    }
}

int layout_model_write(const dgpb_layout_model *m, uint8_t **out, size_t *size, dgpb_diag *diag)
{
    *out = NULL;
    *size = 0;
    if (m->failed)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory while recording the layout");
    writer w = {m, DGPB_BYTEBUF_INIT, false, NULL};
    const uint32_t ns = m->strings.n, nt = m->types.n, nv = m->vars.n, ntl = m->type_layouts.n,
                   nvl = m->var_layouts.n;

    /* Header. */
    uint64_t string_bytes = 0;
    for (uint32_t i = 0; i < ns; i++)
        string_bytes += 4u + m->strings.v[i].len + 1u;
    if (string_bytes > UINT32_MAX)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "the layout's strings exceed 4 GiB");
    uint32_t h[LH_WORDS];
    memcpy(&h[LH_MAGIC], DGPB_LAYOUT_MAGIC, 4);
    h[LH_VERSION] = DGPB_LAYOUT_FORMAT_VERSION;
    h[LH_SLANG_VERSION] = ref(&w, m->slang_version, ns, "slang version");
    h[LH_TARGET] = ref(&w, m->target, ns, "target");
    if (m->slang_version < 0 || m->target < 0) {
        w.bad = true;
        w.why = "the header needs Slang's version and the target";
    }
    h[LH_GROUP_KIND] = m->group_kind;
    h[LH_SPECIALIZATION_PARAMS] = m->specialization_param_count;
    h[LH_GLOBAL_VAR_LAYOUT] = ref(&w, m->global_var_layout, nvl, "global variable layout");
    h[LH_GLOBAL_TYPE_LAYOUT] = ref(&w, m->global_type_layout, ntl, "global type layout");
    h[LH_STRING_COUNT] = ns;
    h[LH_STRING_BYTES] = (uint32_t)string_bytes;
    h[LH_OPTION_COUNT] = m->options.n;
    h[LH_TYPE_COUNT] = nt;
    h[LH_VAR_COUNT] = nv;
    h[LH_TYPE_LAYOUT_COUNT] = ntl;
    h[LH_VAR_LAYOUT_COUNT] = nvl;
    h[LH_ENTRY_COUNT] = m->entries.n;
    /* List table sizes: the sums of the owners' counts (checked as they are written). */
    uint64_t answers = 0, attributes = 0, categories = 0, params = 0, fields = 0, ranges = 0,
             sets = 0, drs = 0, subs = 0;
    for (uint32_t i = 0; i < nv; i++)
        attributes += m->vars.v[i].attributes.count;
    for (uint32_t i = 0; i < ntl; i++) {
        const dgpb_ltype_layout *t = &m->type_layouts.v[i];
        answers += (uint64_t)t->size.answers.count + t->stride.answers.count +
                   t->element_stride.answers.count;
        categories += t->categories.count;
        fields += t->fields.count;
        ranges += t->binding_ranges.count;
        sets += t->descriptor_sets.count;
        subs += t->sub_object_ranges.count;
        if (span_ok(&w, t->descriptor_sets, m->descriptor_sets.n, "descriptor sets"))
            for (uint32_t k = 0; k < t->descriptor_sets.count; k++)
                drs += m->descriptor_sets.v[t->descriptor_sets.first + k].ranges.count;
    }
    for (uint32_t i = 0; i < nvl; i++)
        answers += (uint64_t)m->var_layouts.v[i].offset.answers.count +
                   m->var_layouts.v[i].space.answers.count;
    for (uint32_t i = 0; i < m->entries.n; i++)
        params += m->entries.v[i].params.count;
    if (answers > UINT32_MAX || attributes > UINT32_MAX || categories > UINT32_MAX ||
        params > UINT32_MAX || fields > UINT32_MAX || ranges > UINT32_MAX || sets > UINT32_MAX ||
        drs > UINT32_MAX || subs > UINT32_MAX) {
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "a layout list table exceeds 2^32 rows");
    }
    h[LH_ANSWER_COUNT] = (uint32_t)answers;
    h[LH_ATTRIBUTE_COUNT] = (uint32_t)attributes;
    h[LH_CATEGORY_COUNT] = (uint32_t)categories;
    h[LH_PARAM_COUNT] = (uint32_t)params;
    h[LH_FIELD_COUNT] = (uint32_t)fields;
    h[LH_BINDING_RANGE_COUNT] = (uint32_t)ranges;
    h[LH_DESCRIPTOR_SET_COUNT] = (uint32_t)sets;
    h[LH_DESCRIPTOR_RANGE_COUNT] = (uint32_t)drs;
    h[LH_SUB_OBJECT_RANGE_COUNT] = (uint32_t)subs;
    bytebuf_append(&w.b, DGPB_LAYOUT_MAGIC, 4);
    emit(&w, h + 1, LH_WORDS - 1);

    /* Strings: length, bytes, NUL. */
    for (uint32_t i = 0; i < ns; i++) {
        bytebuf_str(&w.b, m->strings.v[i].s, m->strings.v[i].len);
        bytebuf_append(&w.b, "", 1);
    }
    /* The tables, in DGPB_LAYOUT_TABLES' order. The list tables (from the answers on) and the
     * descriptor ranges are reached through spans checked while writing the tables before
     * them: an inconsistency found by then stops the writing. */
    cursors cur = {0};
    for (int t = 0; t < LAYOUT_TABLE_COUNT; t++) {
        if (w.bad && (t == LAYOUT_TABLE_ANSWERS || t == LAYOUT_TABLE_DESCRIPTOR_RANGES))
            goto done;
        size_t before = w.b.len;
        write_table(&w, (layout_table)t, &cur);
        layout_table_shape shape = layout_table_shape_of((layout_table)t);
        (void)before;
        (void)shape;
        assert(w.bad || w.b.failed ||
               w.b.len - before == (size_t)h[shape.count_word] * shape.words * 4u);
    }

done:
    if (w.bad) {
        bytebuf_free(&w.b);
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "inconsistent layout model: %s", w.why);
    }
    if (w.b.failed) {
        bytebuf_free(&w.b);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory writing the layout");
    }
    if (w.b.len > UINT32_MAX) {
        bytebuf_free(&w.b);
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "the layout exceeds 4 GiB");
    }
    *out = bytebuf_take(&w.b, size);
    return DGPB_OK;
}
