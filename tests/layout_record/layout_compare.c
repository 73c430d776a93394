/*
 * layout_compare.c - replayed answers against the live API (layout_compare.h).
 *
 * A breadth-first walk over pairs (live pointer, replayed ref). The first
 * time a live object is met its ref is remembered; meeting it again with
 * another ref, or meeting another object with a remembered ref, is a
 * mismatch (identity), and so is any answer that differs.
 *
 * The live API is asked only what Slang answers safely (src/layout/slang_api.h,
 * docs/layout.md "Safe calls"), as the recorder does; where Slang cannot be
 * asked, the replay must give the recorder's safe-case answer (0, unknown).
 * The fake libslang aborts on any other call, so a comparison that runs
 * through proves neither side broke a precondition.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout_compare.h"

enum { K_TYPE, K_VAR, K_TL, K_VL, K_COUNT };

typedef struct pair {
    int kind;
    void *ptr;
    dgpb_layout_ref ref;
} pair;

typedef struct cmp {
    const dgpb_slang_api *a;
    const dgpb_layout *l;
    pair *seen; /* every pair met, to check identity (linear: graphs are small) */
    size_t nseen, capseen;
    pair *queue;
    size_t qhead, qlen, qcap;
    size_t mismatches, answers;
    char *first;
    size_t size;
} cmp;

static void mismatch(cmp *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#include <stdarg.h>

static void mismatch(cmp *c, const char *fmt, ...)
{
    if (c->mismatches++ == 0 && c->first) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->first, c->size, fmt, ap);
        va_end(ap);
    }
}

static void eq_u(cmp *c, const char *what, int kind, dgpb_layout_ref ref, uint64_t live,
                 uint64_t replay)
{
    c->answers++;
    if (live != replay)
        mismatch(c, "%s of object %d (kind %d): live %" PRIu64 ", replayed %" PRIu64, what, ref,
                 kind, live, replay);
}

static void eq_s(cmp *c, const char *what, dgpb_layout_ref ref, const char *live,
                 const char *replay)
{
    c->answers++;
    if ((live == NULL) != (replay == NULL) || (live && strcmp(live, replay) != 0))
        mismatch(c, "%s of object %d: live '%s', replayed '%s'", what, ref, live ? live : "(null)",
                 replay ? replay : "(null)");
}

/* Checks identity and queues a pair met for the first time. */
static void meet(cmp *c, int kind, void *ptr, dgpb_layout_ref ref, const char *what)
{
    c->answers++;
    if (!ptr || ref == DGPB_LAYOUT_NULL) {
        if (ptr || ref != DGPB_LAYOUT_NULL)
            mismatch(c, "%s: live %s, replayed ref %d", what, ptr ? "object" : "NULL", ref);
        return;
    }
    for (size_t i = 0; i < c->nseen; i++) {
        pair *p = &c->seen[i];
        if (p->kind != kind)
            continue;
        if (p->ptr == ptr && p->ref != ref) {
            mismatch(c, "%s: one live object replayed as refs %d and %d", what, p->ref, ref);
            return;
        }
        if (p->ptr != ptr && p->ref == ref) {
            mismatch(c, "%s: two live objects replayed as one ref %d", what, ref);
            return;
        }
        if (p->ptr == ptr)
            return;
    }
    if (c->nseen == c->capseen) {
        c->capseen = c->capseen ? c->capseen * 2 : 64;
        c->seen = realloc(c->seen, c->capseen * sizeof *c->seen);
    }
    c->seen[c->nseen++] = (pair){kind, ptr, ref};
    if (c->qlen == c->qcap) {
        c->qcap = c->qcap ? c->qcap * 2 : 64;
        c->queue = realloc(c->queue, c->qcap * sizeof *c->queue);
    }
    c->queue[c->qlen++] = (pair){kind, ptr, ref};
}

static const uint32_t probe_categories[] = {64, 65, 70, 1000, 0xFFFFFFFFu};

static void per_category(cmp *c, const char *what, int kind, dgpb_layout_ref ref,
                         size_t (*live)(const dgpb_slang_api *, void *, SlangParameterCategory),
                         uint64_t (*replay)(const dgpb_layout *, dgpb_layout_ref, uint32_t),
                         void *ptr)
{
    for (uint32_t k = 0; k < DGPB_LAYOUT_CATEGORY_PROBE; k++)
        eq_u(c, what, kind, ref, live(c->a, ptr, k), replay(c->l, ref, k));
    for (size_t i = 0; i < sizeof probe_categories / sizeof probe_categories[0]; i++)
        eq_u(c, what, kind, ref, live(c->a, ptr, probe_categories[i]),
             replay(c->l, ref, probe_categories[i]));
}

/* A variable layout without a type layout is not asked per category: replay answers 0. */
static void per_category_zero(cmp *c, const char *what, int kind, dgpb_layout_ref ref,
                              uint64_t (*replay)(const dgpb_layout *, dgpb_layout_ref, uint32_t))
{
    for (uint32_t k = 0; k < DGPB_LAYOUT_CATEGORY_PROBE; k++)
        eq_u(c, what, kind, ref, 0, replay(c->l, ref, k));
    for (size_t i = 0; i < sizeof probe_categories / sizeof probe_categories[0]; i++)
        eq_u(c, what, kind, ref, 0, replay(c->l, ref, probe_categories[i]));
}

static size_t tl_size(const dgpb_slang_api *a, void *o, SlangParameterCategory k)
{
    return a->spReflectionTypeLayout_GetSize(o, k);
}
static size_t tl_stride(const dgpb_slang_api *a, void *o, SlangParameterCategory k)
{
    return a->spReflectionTypeLayout_GetStride(o, k);
}
static size_t tl_estride(const dgpb_slang_api *a, void *o, SlangParameterCategory k)
{
    return a->spReflectionTypeLayout_GetElementStride(o, k);
}
static size_t vl_offset(const dgpb_slang_api *a, void *o, SlangParameterCategory k)
{
    return a->spReflectionVariableLayout_GetOffset(o, k);
}
static size_t vl_space(const dgpb_slang_api *a, void *o, SlangParameterCategory k)
{
    return a->spReflectionVariableLayout_GetSpace(o, k);
}

static void type(cmp *c, SlangReflectionType *t, dgpb_layout_ref r)
{
    const dgpb_slang_api *a = c->a;
    const dgpb_layout *l = c->l;
    eq_u(c, "type kind", K_TYPE, r, a->spReflectionType_GetKind(t), dgpb_layout_type_kind(l, r));
    eq_s(c, "type name", r, a->spReflectionType_GetName(t), dgpb_layout_type_name(l, r));
    eq_u(c, "element count", K_TYPE, r, a->spReflectionType_GetElementCount(t),
         dgpb_layout_type_element_count(l, r));
    eq_u(c, "rows", K_TYPE, r, a->spReflectionType_GetRowCount(t),
         dgpb_layout_type_row_count(l, r));
    eq_u(c, "columns", K_TYPE, r, a->spReflectionType_GetColumnCount(t),
         dgpb_layout_type_column_count(l, r));
    eq_u(c, "scalar type", K_TYPE, r, a->spReflectionType_GetScalarType(t),
         dgpb_layout_type_scalar_type(l, r));
    eq_u(c, "resource shape", K_TYPE, r, a->spReflectionType_GetResourceShape(t),
         dgpb_layout_type_resource_shape(l, r));
    eq_u(c, "resource access", K_TYPE, r, a->spReflectionType_GetResourceAccess(t),
         dgpb_layout_type_resource_access(l, r));
    meet(c, K_TYPE, a->spReflectionType_GetElementType(t), dgpb_layout_type_element_type(l, r),
         "element type");
    meet(c, K_TYPE, a->spReflectionType_GetResourceResultType(t),
         dgpb_layout_type_resource_result_type(l, r), "resource result type");
}

static void var(cmp *c, SlangReflectionVariable *v, dgpb_layout_ref r)
{
    const dgpb_slang_api *a = c->a;
    const dgpb_layout *l = c->l;
    eq_s(c, "variable name", r, a->spReflectionVariable_GetName(v), dgpb_layout_var_name(l, r));
    /* An explicit counter's synthesized variable (an append or consume buffer's "counter"):
       the recorder keeps its name alone, since asking libslang for its type crashes it. */
    const char *name = dgpb_layout_var_name(l, r);
    if (dgpb_layout_var_type(l, r) < 0 && name && !strcmp(name, "counter"))
        return;
    meet(c, K_TYPE, a->spReflectionVariable_GetType(v), dgpb_layout_var_type(l, r),
         "variable type");
    unsigned n = a->spReflectionVariable_GetUserAttributeCount(v);
    eq_u(c, "user attribute count", K_VAR, r, n, dgpb_layout_var_user_attribute_count(l, r));
    for (unsigned i = 0; i < n; i++) {
        SlangReflectionUserAttribute *u = a->spReflectionVariable_GetUserAttribute(v, i);
        eq_s(c, "user attribute", r, u ? a->spReflectionUserAttribute_GetName(u) : NULL,
             dgpb_layout_var_user_attribute_name(l, r, i));
    }
}

static void var_layout(cmp *c, SlangReflectionVariableLayout *v, dgpb_layout_ref r)
{
    const dgpb_slang_api *a = c->a;
    const dgpb_layout *l = c->l;
    SlangReflectionTypeLayout *tl = a->spReflectionVariableLayout_GetTypeLayout(v);
    meet(c, K_TL, tl, dgpb_layout_vl_type_layout(l, r), "variable layout's type layout");
    meet(c, K_VAR, a->spReflectionVariableLayout_GetVariable(v), dgpb_layout_vl_variable(l, r),
         "variable layout's variable");
    if (!tl) { /* Slang would remap through the missing type layout */
        per_category_zero(c, "offset", K_VL, r, dgpb_layout_vl_offset);
        per_category_zero(c, "space", K_VL, r, dgpb_layout_vl_space);
        eq_u(c, "binding index", K_VL, r, 0, dgpb_layout_vl_binding_index(l, r));
        eq_u(c, "binding space", K_VL, r, 0, dgpb_layout_vl_binding_space(l, r));
        return;
    }
    per_category(c, "offset", K_VL, r, vl_offset, dgpb_layout_vl_offset, v);
    per_category(c, "space", K_VL, r, vl_space, dgpb_layout_vl_space, v);
    eq_u(c, "binding index", K_VL, r, a->spReflectionParameter_GetBindingIndex(v),
         dgpb_layout_vl_binding_index(l, r));
    eq_u(c, "binding space", K_VL, r, a->spReflectionParameter_GetBindingSpace(v),
         dgpb_layout_vl_binding_space(l, r));
}

static void type_layout(cmp *c, SlangReflectionTypeLayout *t, dgpb_layout_ref r)
{
    const dgpb_slang_api *a = c->a;
    const dgpb_layout *l = c->l;
    meet(c, K_TYPE, a->spReflectionTypeLayout_GetType(t), dgpb_layout_tl_type(l, r),
         "type layout's type");
    eq_u(c, "type layout kind", K_TL, r, a->spReflectionTypeLayout_getKind(t),
         dgpb_layout_tl_kind(l, r));
    eq_u(c, "parameter category", K_TL, r, a->spReflectionTypeLayout_GetParameterCategory(t),
         dgpb_layout_tl_parameter_category(l, r));
    per_category(c, "size", K_TL, r, tl_size, dgpb_layout_tl_size, t);
    per_category(c, "stride", K_TL, r, tl_stride, dgpb_layout_tl_stride, t);
    per_category(c, "element stride", K_TL, r, tl_estride, dgpb_layout_tl_element_stride, t);
    meet(c, K_TL, a->spReflectionTypeLayout_GetElementTypeLayout(t),
         dgpb_layout_tl_element_type_layout(l, r), "element type layout");
    meet(c, K_VL, a->spReflectionTypeLayout_GetElementVarLayout(t),
         dgpb_layout_tl_element_var_layout(l, r), "element var layout");
    meet(c, K_VL, a->spReflectionTypeLayout_getContainerVarLayout(t),
         dgpb_layout_tl_container_var_layout(l, r), "container var layout");
    meet(c, K_VL, a->spReflectionTypeLayout_GetExplicitCounter(t),
         dgpb_layout_tl_explicit_counter(l, r), "explicit counter");
    eq_u(c, "counter binding range offset", K_TL, r,
         (uint64_t)a->spReflectionTypeLayout_getExplicitCounterBindingRangeOffset(t),
         (uint64_t)dgpb_layout_tl_explicit_counter_binding_range_offset(l, r));

    unsigned n = a->spReflectionTypeLayout_GetCategoryCount(t);
    eq_u(c, "category count", K_TL, r, n, dgpb_layout_tl_category_count(l, r));
    for (unsigned i = 0; i < n; i++)
        eq_u(c, "category", K_TL, r, a->spReflectionTypeLayout_GetCategoryByIndex(t, i),
             dgpb_layout_tl_category(l, r, i));

    n = a->spReflectionTypeLayout_GetFieldCount(t);
    eq_u(c, "field count", K_TL, r, n, dgpb_layout_tl_field_count(l, r));
    for (unsigned i = 0; i < n; i++) {
        meet(c, K_VL, a->spReflectionTypeLayout_GetFieldByIndex(t, i),
             dgpb_layout_tl_field(l, r, i), "field");
        eq_u(c, "field binding range offset", K_TL, r,
             (uint64_t)a->spReflectionTypeLayout_getFieldBindingRangeOffset(t, i),
             (uint64_t)dgpb_layout_tl_field_binding_range_offset(l, r, i));
    }

    /* Binding ranges, descriptor sets and sub-object ranges: Slang checks these indices, so
     * the out-of-range answers are compared too. */
    SlangInt nr = a->spReflectionTypeLayout_getBindingRangeCount(t);
    eq_u(c, "binding range count", K_TL, r, (uint64_t)nr,
         (uint64_t)dgpb_layout_tl_binding_range_count(l, r));
    for (SlangInt i = -1; i <= nr + 1; i++) {
        eq_u(c, "binding range type", K_TL, r, a->spReflectionTypeLayout_getBindingRangeType(t, i),
             dgpb_layout_tl_binding_range_type(l, r, i));
        eq_u(c, "binding count", K_TL, r,
             (uint64_t)a->spReflectionTypeLayout_getBindingRangeBindingCount(t, i),
             (uint64_t)dgpb_layout_tl_binding_range_binding_count(l, r, i));
        SlangReflectionTypeLayout *leaf =
            a->spReflectionTypeLayout_getBindingRangeLeafTypeLayout(t, i);
        SlangReflectionVariable *leaf_var =
            a->spReflectionTypeLayout_getBindingRangeLeafVariable(t, i);
        meet(c, K_TL, leaf, dgpb_layout_tl_binding_range_leaf_type_layout(l, r, i),
             "leaf type layout");
        meet(c, K_VAR, leaf_var, dgpb_layout_tl_binding_range_leaf_variable(l, r, i),
             "leaf variable");
        /* In range, Slang reads the leaf type layout (specializable) and the leaf variable
         * (image format) unchecked; out of range it answers 0 / unknown first. */
        bool in_range = i >= 0 && i < nr;
        eq_u(c, "specializable", K_TL, r,
             (uint64_t)(in_range && !leaf
                            ? 0
                            : a->spReflectionTypeLayout_isBindingRangeSpecializable(t, i)),
             (uint64_t)dgpb_layout_tl_binding_range_specializable(l, r, i));
        eq_u(c, "image format", K_TL, r,
             in_range && !leaf_var ? DGPB_SLANG_IMAGE_FORMAT_UNKNOWN
                                   : a->spReflectionTypeLayout_getBindingRangeImageFormat(t, i),
             dgpb_layout_tl_binding_range_image_format(l, r, i));
        eq_u(c, "descriptor set index", K_TL, r,
             (uint64_t)a->spReflectionTypeLayout_getBindingRangeDescriptorSetIndex(t, i),
             (uint64_t)dgpb_layout_tl_binding_range_descriptor_set_index(l, r, i));
        eq_u(c, "first descriptor range", K_TL, r,
             (uint64_t)a->spReflectionTypeLayout_getBindingRangeFirstDescriptorRangeIndex(t, i),
             (uint64_t)dgpb_layout_tl_binding_range_first_descriptor_range_index(l, r, i));
        eq_u(c, "descriptor range count", K_TL, r,
             (uint64_t)a->spReflectionTypeLayout_getBindingRangeDescriptorRangeCount(t, i),
             (uint64_t)dgpb_layout_tl_binding_range_descriptor_range_count(l, r, i));
    }
    SlangInt ns = a->spReflectionTypeLayout_getDescriptorSetCount(t);
    eq_u(c, "descriptor set count", K_TL, r, (uint64_t)ns,
         (uint64_t)dgpb_layout_tl_descriptor_set_count(l, r));
    for (SlangInt s = -1; s <= ns + 1; s++) {
        eq_u(c, "space offset", K_TL, r,
             (uint64_t)a->spReflectionTypeLayout_getDescriptorSetSpaceOffset(t, s),
             (uint64_t)dgpb_layout_tl_descriptor_set_space_offset(l, r, s));
        SlangInt nd = a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeCount(t, s);
        eq_u(c, "descriptor range count", K_TL, r, (uint64_t)nd,
             (uint64_t)dgpb_layout_tl_descriptor_set_range_count(l, r, s));
        for (SlangInt d = -1; d <= nd + 1; d++) {
            eq_u(c, "index offset", K_TL, r,
                 (uint64_t)a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeIndexOffset(
                     t, s, d),
                 (uint64_t)dgpb_layout_tl_descriptor_range_index_offset(l, r, s, d));
            eq_u(c, "descriptor count", K_TL, r,
                 (uint64_t)a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeDescriptorCount(
                     t, s, d),
                 (uint64_t)dgpb_layout_tl_descriptor_range_descriptor_count(l, r, s, d));
            eq_u(c, "descriptor range type", K_TL, r,
                 a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeType(t, s, d),
                 dgpb_layout_tl_descriptor_range_type(l, r, s, d));
            eq_u(c, "descriptor range category", K_TL, r,
                 a->spReflectionTypeLayout_getDescriptorSetDescriptorRangeCategory(t, s, d),
                 dgpb_layout_tl_descriptor_range_category(l, r, s, d));
        }
    }
    SlangInt no = a->spReflectionTypeLayout_getSubObjectRangeCount(t);
    eq_u(c, "sub-object range count", K_TL, r, (uint64_t)no,
         (uint64_t)dgpb_layout_tl_sub_object_range_count(l, r));
    for (SlangInt i = -1; i <= no + 1; i++) {
        eq_u(c, "sub-object binding range", K_TL, r,
             (uint64_t)a->spReflectionTypeLayout_getSubObjectRangeBindingRangeIndex(t, i),
             (uint64_t)dgpb_layout_tl_sub_object_range_binding_range_index(l, r, i));
        eq_u(c, "sub-object space offset", K_TL, r,
             (uint64_t)a->spReflectionTypeLayout_getSubObjectRangeSpaceOffset(t, i),
             (uint64_t)dgpb_layout_tl_sub_object_range_space_offset(l, r, i));
        meet(c, K_VL, a->spReflectionTypeLayout_getSubObjectRangeOffset(t, i),
             dgpb_layout_tl_sub_object_range_offset(l, r, i), "sub-object offset");
    }
}

static void drain(cmp *c)
{
    while (c->qhead < c->qlen) {
        pair p = c->queue[c->qhead++];
        switch (p.kind) {
        case K_TYPE:
            type(c, p.ptr, p.ref);
            break;
        case K_VAR:
            var(c, p.ptr, p.ref);
            break;
        case K_TL:
            type_layout(c, p.ptr, p.ref);
            break;
        default:
            var_layout(c, p.ptr, p.ref);
            break;
        }
    }
}

size_t layout_compare(const dgpb_slang_api *api, SlangReflection *reflection, const dgpb_layout *l,
                      char *first, size_t size, size_t *answers)
{
    cmp c = {0};
    c.a = api;
    c.l = l;
    c.first = first;
    c.size = size;
    if (first && size)
        first[0] = 0;
    eq_u(&c, "specialization parameters", -1, -1,
         api->spReflection_GetTypeParameterCount(reflection),
         dgpb_layout_specialization_param_count(l));
    meet(&c, K_VL, api->spReflection_getGlobalParamsVarLayout(reflection),
         dgpb_layout_global_var_layout(l), "global var layout");
    meet(&c, K_TL, api->spReflection_getGlobalParamsTypeLayout(reflection),
         dgpb_layout_global_type_layout(l), "global type layout");
    SlangUInt n = api->spReflection_getEntryPointCount(reflection);
    eq_u(&c, "entry point count", -1, -1, n, dgpb_layout_entry_point_count(l));
    for (SlangUInt i = 0; i < n; i++) {
        SlangReflectionEntryPoint *e = api->spReflection_getEntryPointByIndex(reflection, i);
        dgpb_layout_ref r = dgpb_layout_entry_point(l, i);
        eq_s(&c, "entry name", r, api->spReflectionEntryPoint_getName(e),
             dgpb_layout_ep_name(l, r));
        eq_s(&c, "entry name override", r, api->spReflectionEntryPoint_getNameOverride(e),
             dgpb_layout_ep_name_override(l, r));
        eq_u(&c, "stage", -1, r, api->spReflectionEntryPoint_getStage(e),
             dgpb_layout_ep_stage(l, r));
        SlangReflectionVariableLayout *vl = api->spReflectionEntryPoint_getVarLayout(e);
        meet(&c, K_VL, vl, dgpb_layout_ep_var_layout(l, r), "entry var layout");
        meet(&c, K_TL, api->spReflectionVariableLayout_GetTypeLayout(vl),
             dgpb_layout_ep_type_layout(l, r), "entry type layout");
        SlangUInt live[3] = {0, 0, 0};
        uint64_t replay[3] = {0, 0, 0};
        api->spReflectionEntryPoint_getComputeThreadGroupSize(e, 3, live);
        dgpb_layout_ep_thread_group_size(l, r, 3, replay);
        for (int k = 0; k < 3; k++)
            eq_u(&c, "thread group size", -1, r, live[k], replay[k]);
        unsigned np = api->spReflectionEntryPoint_getParameterCount(e);
        eq_u(&c, "parameter count", -1, r, np, dgpb_layout_ep_parameter_count(l, r));
        for (unsigned k = 0; k < np; k++)
            meet(&c, K_VL, api->spReflectionEntryPoint_getParameterByIndex(e, k),
                 dgpb_layout_ep_parameter(l, r, k), "entry parameter");
        drain(&c);
    }
    drain(&c);
    /* Every recorded object was reached. */
    size_t per_kind[K_COUNT] = {0};
    for (size_t i = 0; i < c.nseen; i++)
        per_kind[c.seen[i].kind]++;
    static const dgpb_layout_kind kinds[K_COUNT] = {
        DGPB_LAYOUT_TYPE, DGPB_LAYOUT_VARIABLE, DGPB_LAYOUT_TYPE_LAYOUT, DGPB_LAYOUT_VAR_LAYOUT};
    for (int k = 0; k < K_COUNT; k++)
        eq_u(&c, "objects of a kind", k, -1, per_kind[k], dgpb_layout_object_count(l, kinds[k]));
    free(c.seen);
    free(c.queue);
    if (answers)
        *answers = c.answers;
    return c.mismatches;
}

SlangCompileRequest *layout_compare_compile(const dgpb_slang_api *api, SlangSession *session,
                                            const char *const *args, int count, char *err,
                                            size_t size)
{
    SlangCompileRequest *req = api->spCreateCompileRequest(session);
    if (!req) {
        snprintf(err, size, "no compile request");
        return NULL;
    }
    api->spSetMatrixLayoutMode(req, DGPB_SLANG_MATRIX_LAYOUT_COLUMN_MAJOR);
    if (DGPB_SLANG_FAILED(api->spProcessCommandLineArguments(req, args, count))) {
        snprintf(err, size, "arguments: %s", api->spGetDiagnosticOutput(req));
        api->spDestroyCompileRequest(req);
        return NULL;
    }
    api->spSetCompileFlags(req, api->spGetCompileFlags(req) | DGPB_SLANG_COMPILE_FLAG_NO_CODEGEN);
    if (DGPB_SLANG_FAILED(api->spCompile(req))) {
        snprintf(err, size, "compile: %s", api->spGetDiagnosticOutput(req));
        api->spDestroyCompileRequest(req);
        return NULL;
    }
    return req;
}
