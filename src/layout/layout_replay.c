/*
 * layout_replay.c - answers reflection queries from an opened layout blob
 * (dgpb/layout.h), reading the caller's bytes in place; every reference a
 * query is given is checked against its table's count, and an answer that
 * is not there is the API's "none" (NULL, DGPB_LAYOUT_NULL, 0 or -1).
 * layout_open.c has checked the blob before any query can run.
 */
#include <string.h>

#include "layout/layout_reader.h"

const char *dgpb_layout_group_name(uint32_t group)
{
    switch (group) {
    case DGPB_LAYOUT_GROUP_COMPUTE:
        return "compute";
    case DGPB_LAYOUT_GROUP_RENDER:
        return "render";
    case DGPB_LAYOUT_GROUP_RAY_TRACING:
        return "ray_tracing";
    case DGPB_LAYOUT_GROUP_OTHER:
        return "other";
    default:
        return NULL;
    }
}

static const char *str(const dgpb_layout *l, uint32_t r)
{
    if (r == DGPB_LAYOUT_NONE || r >= l->h[LH_STRING_COUNT])
        return NULL;
    return (const char *)l->bytes + l->string_off[r];
}

static dgpb_layout_ref as_ref(uint32_t r)
{
    return r == DGPB_LAYOUT_NONE ? DGPB_LAYOUT_NULL : (dgpb_layout_ref)r;
}

static bool in(dgpb_layout_ref r, uint32_t count)
{
    return r >= 0 && (uint32_t)r < count;
}

uint32_t dgpb_layout_format_version(const dgpb_layout *l)
{
    return l->h[LH_VERSION];
}
const char *dgpb_layout_slang_version(const dgpb_layout *l)
{
    return str(l, l->h[LH_SLANG_VERSION]);
}
const char *dgpb_layout_target(const dgpb_layout *l)
{
    return str(l, l->h[LH_TARGET]);
}
uint32_t dgpb_layout_group_kind(const dgpb_layout *l)
{
    return l->h[LH_GROUP_KIND];
}
uint32_t dgpb_layout_option_count(const dgpb_layout *l)
{
    return l->h[LH_OPTION_COUNT];
}
const char *dgpb_layout_option(const dgpb_layout *l, uint32_t index)
{
    return index < l->h[LH_OPTION_COUNT] ? str(l, rd32(l->options + index * 4u)) : NULL;
}
uint32_t dgpb_layout_object_count(const dgpb_layout *l, dgpb_layout_kind kind)
{
    switch (kind) {
    case DGPB_LAYOUT_TYPE:
        return l->h[LH_TYPE_COUNT];
    case DGPB_LAYOUT_VARIABLE:
        return l->h[LH_VAR_COUNT];
    case DGPB_LAYOUT_TYPE_LAYOUT:
        return l->h[LH_TYPE_LAYOUT_COUNT];
    case DGPB_LAYOUT_VAR_LAYOUT:
        return l->h[LH_VAR_LAYOUT_COUNT];
    case DGPB_LAYOUT_ENTRY_POINT:
        return l->h[LH_ENTRY_COUNT];
    }
    return 0;
}

/* Program. */
dgpb_layout_ref dgpb_layout_global_var_layout(const dgpb_layout *l)
{
    return as_ref(l->h[LH_GLOBAL_VAR_LAYOUT]);
}
dgpb_layout_ref dgpb_layout_global_type_layout(const dgpb_layout *l)
{
    return as_ref(l->h[LH_GLOBAL_TYPE_LAYOUT]);
}
uint32_t dgpb_layout_specialization_param_count(const dgpb_layout *l)
{
    return l->h[LH_SPECIALIZATION_PARAMS];
}
uint64_t dgpb_layout_entry_point_count(const dgpb_layout *l)
{
    return l->h[LH_ENTRY_COUNT];
}
dgpb_layout_ref dgpb_layout_entry_point(const dgpb_layout *l, uint64_t index)
{
    return index < l->h[LH_ENTRY_COUNT] ? (dgpb_layout_ref)index : DGPB_LAYOUT_NULL;
}

/* Entry points. */
#define EP(f) at(l->entries, (uint32_t)ep, LE_WORDS, (f))
#define EP_OK in(ep, l->h[LH_ENTRY_COUNT])

const char *dgpb_layout_ep_name(const dgpb_layout *l, dgpb_layout_ref ep)
{
    return EP_OK ? str(l, rd32(EP(LE_NAME))) : NULL;
}
const char *dgpb_layout_ep_name_override(const dgpb_layout *l, dgpb_layout_ref ep)
{
    return EP_OK ? str(l, rd32(EP(LE_NAME_OVERRIDE))) : NULL;
}
uint32_t dgpb_layout_ep_stage(const dgpb_layout *l, dgpb_layout_ref ep)
{
    return EP_OK ? rd32(EP(LE_STAGE)) : 0;
}
dgpb_layout_ref dgpb_layout_ep_var_layout(const dgpb_layout *l, dgpb_layout_ref ep)
{
    return EP_OK ? as_ref(rd32(EP(LE_VAR_LAYOUT))) : DGPB_LAYOUT_NULL;
}
dgpb_layout_ref dgpb_layout_ep_type_layout(const dgpb_layout *l, dgpb_layout_ref ep)
{
    return EP_OK ? as_ref(rd32(EP(LE_TYPE_LAYOUT))) : DGPB_LAYOUT_NULL;
}
void dgpb_layout_ep_thread_group_size(const dgpb_layout *l, dgpb_layout_ref ep, uint64_t axis_count,
                                      uint64_t *out)
{
    if (!EP_OK || !axis_count || !out)
        return;
    for (uint64_t a = 0; a < axis_count; a++)
        out[a] = a < 3 ? rd64(EP(LE_THREAD_GROUP_SIZE + 2 * (uint32_t)a)) : 1;
}
uint32_t dgpb_layout_ep_parameter_count(const dgpb_layout *l, dgpb_layout_ref ep)
{
    return EP_OK ? rd32(EP(LE_PARAMS + 1)) : 0;
}
dgpb_layout_ref dgpb_layout_ep_parameter(const dgpb_layout *l, dgpb_layout_ref ep, uint32_t index)
{
    if (!EP_OK || index >= rd32(EP(LE_PARAMS + 1)))
        return DGPB_LAYOUT_NULL;
    return as_ref(rd32(l->params + ((size_t)rd32(EP(LE_PARAMS)) + index) * 4u));
}
#undef EP
#undef EP_OK

/* The answer for `category` of a per-category record. */
static uint64_t cat_answer(const dgpb_layout *l, const uint8_t *rec, uint32_t category)
{
    uint64_t dflt = rd64(rec + LC_DEFAULT * 4);
    if (category >= DGPB_LAYOUT_CATEGORY_PROBE)
        return dflt;
    uint32_t first = rd32(rec + LC_ANSWERS * 4), count = rd32(rec + LC_ANSWERS * 4 + 4);
    for (uint32_t k = 0; k < count; k++) {
        const uint8_t *a = at(l->answers, first + k, LA_WORDS, 0);
        uint32_t c = rd32(a + LA_CATEGORY * 4);
        if (c == category)
            return rd64(a + LA_VALUE * 4);
        if (c > category)
            break;
    }
    return dflt;
}

/* Variable layouts. */
#define VL(f) at(l->vls, (uint32_t)vl, LVL_WORDS, (f))
#define VL_OK in(vl, l->h[LH_VAR_LAYOUT_COUNT])

dgpb_layout_ref dgpb_layout_vl_type_layout(const dgpb_layout *l, dgpb_layout_ref vl)
{
    return VL_OK ? as_ref(rd32(VL(LVL_TYPE_LAYOUT))) : DGPB_LAYOUT_NULL;
}
dgpb_layout_ref dgpb_layout_vl_variable(const dgpb_layout *l, dgpb_layout_ref vl)
{
    return VL_OK ? as_ref(rd32(VL(LVL_VARIABLE))) : DGPB_LAYOUT_NULL;
}
uint64_t dgpb_layout_vl_offset(const dgpb_layout *l, dgpb_layout_ref vl, uint32_t category)
{
    return VL_OK ? cat_answer(l, VL(LVL_OFFSET), category) : 0;
}
uint64_t dgpb_layout_vl_space(const dgpb_layout *l, dgpb_layout_ref vl, uint32_t category)
{
    return VL_OK ? cat_answer(l, VL(LVL_SPACE), category) : 0;
}
uint32_t dgpb_layout_vl_binding_index(const dgpb_layout *l, dgpb_layout_ref vl)
{
    return VL_OK ? rd32(VL(LVL_BINDING_INDEX)) : 0;
}
uint32_t dgpb_layout_vl_binding_space(const dgpb_layout *l, dgpb_layout_ref vl)
{
    return VL_OK ? rd32(VL(LVL_BINDING_SPACE)) : 0;
}
#undef VL
#undef VL_OK

/* Type layouts. */
#define TL(f) at(l->tls, (uint32_t)tl, LTL_WORDS, (f))
#define TL_OK in(tl, l->h[LH_TYPE_LAYOUT_COUNT])

/* Item `i` of a type layout's list at word `list` in `table` (w words a row), or NULL. */
static const uint8_t *tl_item(const dgpb_layout *l, dgpb_layout_ref tl, int list,
                              const uint8_t *table, uint32_t w, int64_t i)
{
    if (!TL_OK || i < 0 || (uint64_t)i >= rd32(TL(list + 1)))
        return NULL;
    return at(table, rd32(TL(list)) + (uint32_t)i, w, 0);
}

dgpb_layout_ref dgpb_layout_tl_type(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? as_ref(rd32(TL(LTL_TYPE))) : DGPB_LAYOUT_NULL;
}
uint32_t dgpb_layout_tl_kind(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? rd32(TL(LTL_KIND)) : 0;
}
uint64_t dgpb_layout_tl_size(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t category)
{
    return TL_OK ? cat_answer(l, TL(LTL_SIZE), category) : 0;
}
uint64_t dgpb_layout_tl_stride(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t category)
{
    return TL_OK ? cat_answer(l, TL(LTL_STRIDE), category) : 0;
}
uint64_t dgpb_layout_tl_element_stride(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t category)
{
    return TL_OK ? cat_answer(l, TL(LTL_ELEMENT_STRIDE), category) : 0;
}
uint32_t dgpb_layout_tl_parameter_category(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? rd32(TL(LTL_PARAMETER_CATEGORY)) : 0;
}
uint32_t dgpb_layout_tl_category_count(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? rd32(TL(LTL_CATEGORIES + 1)) : 0;
}
uint32_t dgpb_layout_tl_category(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t index)
{
    const uint8_t *p = tl_item(l, tl, LTL_CATEGORIES, l->categories, 1, index);
    return p ? rd32(p) : 0;
}
dgpb_layout_ref dgpb_layout_tl_element_type_layout(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? as_ref(rd32(TL(LTL_ELEMENT_TYPE_LAYOUT))) : DGPB_LAYOUT_NULL;
}
dgpb_layout_ref dgpb_layout_tl_element_var_layout(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? as_ref(rd32(TL(LTL_ELEMENT_VAR_LAYOUT))) : DGPB_LAYOUT_NULL;
}
dgpb_layout_ref dgpb_layout_tl_container_var_layout(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? as_ref(rd32(TL(LTL_CONTAINER_VAR_LAYOUT))) : DGPB_LAYOUT_NULL;
}
dgpb_layout_ref dgpb_layout_tl_explicit_counter(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? as_ref(rd32(TL(LTL_EXPLICIT_COUNTER))) : DGPB_LAYOUT_NULL;
}
int64_t dgpb_layout_tl_explicit_counter_binding_range_offset(const dgpb_layout *l,
                                                             dgpb_layout_ref tl)
{
    return TL_OK ? (int64_t)rd64(TL(LTL_EXPLICIT_COUNTER_OFFSET)) : 0;
}
uint32_t dgpb_layout_tl_field_count(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? rd32(TL(LTL_FIELDS + 1)) : 0;
}
dgpb_layout_ref dgpb_layout_tl_field(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t index)
{
    const uint8_t *p = tl_item(l, tl, LTL_FIELDS, l->fields, LF_WORDS, index);
    return p ? as_ref(rd32(p + LF_VAR_LAYOUT * 4)) : DGPB_LAYOUT_NULL;
}
int64_t dgpb_layout_tl_field_binding_range_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                  int64_t field)
{
    const uint8_t *p = tl_item(l, tl, LTL_FIELDS, l->fields, LF_WORDS, field);
    return p ? (int64_t)rd64(p + LF_BINDING_RANGE_OFFSET * 4) : 0;
}
int64_t dgpb_layout_tl_binding_range_count(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? rd32(TL(LTL_BINDING_RANGES + 1)) : 0;
}

#define BR(f)                                                                                      \
    const uint8_t *p = tl_item(l, tl, LTL_BINDING_RANGES, l->ranges, LB_WORDS, i);                 \
    if (!p)                                                                                        \
        return (f);

uint32_t dgpb_layout_tl_binding_range_type(const dgpb_layout *l, dgpb_layout_ref tl, int64_t i)
{
    BR(0);
    return rd32(p + LB_TYPE * 4);
}
int64_t dgpb_layout_tl_binding_range_binding_count(const dgpb_layout *l, dgpb_layout_ref tl,
                                                   int64_t i)
{
    BR(0);
    return (int64_t)rd64(p + LB_BINDING_COUNT * 4);
}
dgpb_layout_ref dgpb_layout_tl_binding_range_leaf_type_layout(const dgpb_layout *l,
                                                              dgpb_layout_ref tl, int64_t i)
{
    BR(DGPB_LAYOUT_NULL);
    return as_ref(rd32(p + LB_LEAF_TYPE_LAYOUT * 4));
}
dgpb_layout_ref dgpb_layout_tl_binding_range_leaf_variable(const dgpb_layout *l, dgpb_layout_ref tl,
                                                           int64_t i)
{
    BR(DGPB_LAYOUT_NULL);
    return as_ref(rd32(p + LB_LEAF_VARIABLE * 4));
}
int64_t dgpb_layout_tl_binding_range_specializable(const dgpb_layout *l, dgpb_layout_ref tl,
                                                   int64_t i)
{
    BR(0);
    return (int64_t)rd64(p + LB_SPECIALIZABLE * 4);
}
uint32_t dgpb_layout_tl_binding_range_image_format(const dgpb_layout *l, dgpb_layout_ref tl,
                                                   int64_t i)
{
    BR(0);
    return rd32(p + LB_IMAGE_FORMAT * 4);
}
int64_t dgpb_layout_tl_binding_range_descriptor_set_index(const dgpb_layout *l, dgpb_layout_ref tl,
                                                          int64_t i)
{
    BR(0);
    return (int64_t)rd64(p + LB_DESCRIPTOR_SET_INDEX * 4);
}
int64_t dgpb_layout_tl_binding_range_first_descriptor_range_index(const dgpb_layout *l,
                                                                  dgpb_layout_ref tl, int64_t i)
{
    BR(0);
    return (int64_t)rd64(p + LB_FIRST_DESCRIPTOR_RANGE * 4);
}
int64_t dgpb_layout_tl_binding_range_descriptor_range_count(const dgpb_layout *l,
                                                            dgpb_layout_ref tl, int64_t i)
{
    BR(0);
    return (int64_t)rd64(p + LB_DESCRIPTOR_RANGE_COUNT * 4);
}
#undef BR

int64_t dgpb_layout_tl_descriptor_set_count(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? rd32(TL(LTL_DESCRIPTOR_SETS + 1)) : 0;
}
int64_t dgpb_layout_tl_descriptor_set_space_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                   int64_t set)
{
    const uint8_t *p = tl_item(l, tl, LTL_DESCRIPTOR_SETS, l->sets, LS_WORDS, set);
    return p ? (int64_t)rd64(p + LS_SPACE_OFFSET * 4) : 0;
}
int64_t dgpb_layout_tl_descriptor_set_range_count(const dgpb_layout *l, dgpb_layout_ref tl,
                                                  int64_t set)
{
    const uint8_t *p = tl_item(l, tl, LTL_DESCRIPTOR_SETS, l->sets, LS_WORDS, set);
    return p ? rd32(p + LS_RANGES * 4 + 4) : 0;
}

/* Descriptor range `range` of set `set`, or NULL. */
static const uint8_t *dr_item(const dgpb_layout *l, dgpb_layout_ref tl, int64_t set, int64_t range)
{
    const uint8_t *p = tl_item(l, tl, LTL_DESCRIPTOR_SETS, l->sets, LS_WORDS, set);
    if (!p || range < 0 || (uint64_t)range >= rd32(p + LS_RANGES * 4 + 4))
        return NULL;
    return at(l->drs, rd32(p + LS_RANGES * 4) + (uint32_t)range, LR_WORDS, 0);
}

int64_t dgpb_layout_tl_descriptor_range_index_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                     int64_t set, int64_t range)
{
    const uint8_t *p = dr_item(l, tl, set, range);
    return p ? (int64_t)rd64(p + LR_INDEX_OFFSET * 4) : 0;
}
int64_t dgpb_layout_tl_descriptor_range_descriptor_count(const dgpb_layout *l, dgpb_layout_ref tl,
                                                         int64_t set, int64_t range)
{
    const uint8_t *p = dr_item(l, tl, set, range);
    return p ? (int64_t)rd64(p + LR_DESCRIPTOR_COUNT * 4) : 0;
}
uint32_t dgpb_layout_tl_descriptor_range_type(const dgpb_layout *l, dgpb_layout_ref tl, int64_t set,
                                              int64_t range)
{
    const uint8_t *p = dr_item(l, tl, set, range);
    return p ? rd32(p + LR_TYPE * 4) : 0;
}
uint32_t dgpb_layout_tl_descriptor_range_category(const dgpb_layout *l, dgpb_layout_ref tl,
                                                  int64_t set, int64_t range)
{
    const uint8_t *p = dr_item(l, tl, set, range);
    return p ? rd32(p + LR_CATEGORY * 4) : 0;
}
int64_t dgpb_layout_tl_sub_object_range_count(const dgpb_layout *l, dgpb_layout_ref tl)
{
    return TL_OK ? rd32(TL(LTL_SUB_OBJECT_RANGES + 1)) : 0;
}
int64_t dgpb_layout_tl_sub_object_range_binding_range_index(const dgpb_layout *l,
                                                            dgpb_layout_ref tl, int64_t i)
{
    const uint8_t *p = tl_item(l, tl, LTL_SUB_OBJECT_RANGES, l->subs, LO_WORDS, i);
    return p ? (int64_t)rd64(p + LO_BINDING_RANGE_INDEX * 4) : 0;
}
int64_t dgpb_layout_tl_sub_object_range_space_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                     int64_t i)
{
    const uint8_t *p = tl_item(l, tl, LTL_SUB_OBJECT_RANGES, l->subs, LO_WORDS, i);
    return p ? (int64_t)rd64(p + LO_SPACE_OFFSET * 4) : 0;
}
dgpb_layout_ref dgpb_layout_tl_sub_object_range_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                       int64_t i)
{
    const uint8_t *p = tl_item(l, tl, LTL_SUB_OBJECT_RANGES, l->subs, LO_WORDS, i);
    return p ? as_ref(rd32(p + LO_OFFSET_VAR_LAYOUT * 4)) : DGPB_LAYOUT_NULL;
}
#undef TL
#undef TL_OK

/* Types. */
#define TY(f) at(l->types, (uint32_t)t, LT_WORDS, (f))
#define TY_OK in(t, l->h[LH_TYPE_COUNT])

uint32_t dgpb_layout_type_kind(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? rd32(TY(LT_KIND)) : 0;
}
const char *dgpb_layout_type_name(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? str(l, rd32(TY(LT_NAME))) : NULL;
}
dgpb_layout_ref dgpb_layout_type_element_type(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? as_ref(rd32(TY(LT_ELEMENT_TYPE))) : DGPB_LAYOUT_NULL;
}
uint64_t dgpb_layout_type_element_count(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? rd64(TY(LT_ELEMENT_COUNT)) : 0;
}
uint32_t dgpb_layout_type_row_count(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? rd32(TY(LT_ROW_COUNT)) : 0;
}
uint32_t dgpb_layout_type_column_count(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? rd32(TY(LT_COLUMN_COUNT)) : 0;
}
uint32_t dgpb_layout_type_scalar_type(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? rd32(TY(LT_SCALAR_TYPE)) : 0;
}
uint32_t dgpb_layout_type_resource_shape(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? rd32(TY(LT_RESOURCE_SHAPE)) : 0;
}
uint32_t dgpb_layout_type_resource_access(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? rd32(TY(LT_RESOURCE_ACCESS)) : 0;
}
dgpb_layout_ref dgpb_layout_type_resource_result_type(const dgpb_layout *l, dgpb_layout_ref t)
{
    return TY_OK ? as_ref(rd32(TY(LT_RESOURCE_RESULT_TYPE))) : DGPB_LAYOUT_NULL;
}
#undef TY
#undef TY_OK

/* Variables. */
#define VA(f) at(l->vars, (uint32_t)v, LV_WORDS, (f))
#define VA_OK in(v, l->h[LH_VAR_COUNT])

const char *dgpb_layout_var_name(const dgpb_layout *l, dgpb_layout_ref v)
{
    return VA_OK ? str(l, rd32(VA(LV_NAME))) : NULL;
}
dgpb_layout_ref dgpb_layout_var_type(const dgpb_layout *l, dgpb_layout_ref v)
{
    return VA_OK ? as_ref(rd32(VA(LV_TYPE))) : DGPB_LAYOUT_NULL;
}
uint32_t dgpb_layout_var_user_attribute_count(const dgpb_layout *l, dgpb_layout_ref v)
{
    return VA_OK ? rd32(VA(LV_ATTRIBUTES + 1)) : 0;
}
const char *dgpb_layout_var_user_attribute_name(const dgpb_layout *l, dgpb_layout_ref v,
                                                uint32_t index)
{
    if (!VA_OK || index >= rd32(VA(LV_ATTRIBUTES + 1)))
        return NULL;
    return str(l, rd32(l->attributes + ((size_t)rd32(VA(LV_ATTRIBUTES)) + index) * 4u));
}
#undef VA
#undef VA_OK
