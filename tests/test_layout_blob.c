/*
 * test_layout_blob.c - layout blobs: a hand-made model written and read
 * back through every query, canonical bytes, and the reader's rejection of
 * every kind of damage (truncation at each byte, bad magic and version,
 * references and lists out of range or order, cycles, trailing bytes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/layout.h"
#include "layout/layout_internal.h"
#include "support.h"

/* ---- a model with every kind of record ---- */

static int32_t S(dgpb_layout_model *m, const char *s)
{
    return layout_model_string(m, s, strlen(s));
}

/* Per-category answers: default, then (category, value) pairs ending with a category of ~0u. */
static dgpb_lcat cat(dgpb_layout_model *m, uint64_t dflt, ...)
{
    dgpb_lcat c = {dflt, {m->answers.n, 0}};
    va_list ap;
    va_start(ap, dflt);
    for (;;) {
        unsigned k = va_arg(ap, unsigned);
        if (k == ~0u)
            break;
        uint64_t v = va_arg(ap, uint64_t);
        int32_t i = DGPB_LPUSH(m, answers);
        m->answers.v[i] = (dgpb_lanswer){k, v};
        c.answers.count++;
    }
    va_end(ap);
    return c;
}

#define END ~0u

enum { T_STRUCT, T_FLOAT, T_BUFFER, T_ARRAY, T_PTR };
enum { V_PARAMS, V_BUF, V_X };
enum { TL_GLOBAL, TL_BUF, TL_FLOAT, TL_PTR, TL_NODE, TL_ENTRY };
enum { VL_GLOBAL, VL_BUF, VL_X, VL_NEXT, VL_ENTRY, VL_COUNTER };

/* Builds the model; `reverse_lists` appends the type layouts' lists in reverse order (the
 * writer must still produce the same bytes). */
static void build_model(dgpb_layout_model *m, bool reverse_lists)
{
    layout_model_init(m);
    m->slang_version = S(m, "v2025.15");
    m->target = S(m, "spirv");
    m->group_kind = DGPB_LAYOUT_GROUP_COMPUTE;
    int32_t k = DGPB_LPUSH(m, options);
    m->options.v[k] = S(m, "-matrix-layout-row-major");
    k = DGPB_LPUSH(m, options);
    m->options.v[k] = S(m, "-DDREAM_SHADER_k");

    for (int i = 0; i < 5; i++)
        DGPB_LPUSH(m, types);
    m->types.v[T_STRUCT] = (dgpb_ltype){
        .kind = 1, .name = S(m, "Node"), .element_type = -1, .resource_result_type = -1};
    m->types.v[T_FLOAT] = (dgpb_ltype){.kind = 5,
                                       .name = S(m, "float"),
                                       .element_type = -1,
                                       .scalar_type = 8,
                                       .row_count = 1,
                                       .column_count = 1,
                                       .resource_result_type = -1};
    m->types.v[T_BUFFER] = (dgpb_ltype){.kind = 7,
                                        .name = S(m, "RWStructuredBuffer"),
                                        .element_type = T_FLOAT,
                                        .resource_shape = 6,
                                        .resource_access = 2,
                                        .resource_result_type = T_FLOAT};
    m->types.v[T_ARRAY] = (dgpb_ltype){.kind = 2,
                                       .name = -1,
                                       .element_type = T_FLOAT,
                                       .element_count = UINT64_MAX,
                                       .resource_result_type = -1};
    m->types.v[T_PTR] = (dgpb_ltype){
        .kind = 18, .name = S(m, "Ptr"), .element_type = T_STRUCT, .resource_result_type = -1};

    for (int i = 0; i < 3; i++)
        DGPB_LPUSH(m, vars);
    m->vars.v[V_PARAMS] = (dgpb_lvar){S(m, "params"), T_STRUCT, {0, 0}};
    m->vars.v[V_BUF] = (dgpb_lvar){S(m, "k_out"), T_BUFFER, {m->attributes.n, 2}};
    k = DGPB_LPUSH(m, attributes);
    m->attributes.v[k] = S(m, "format");
    k = DGPB_LPUSH(m, attributes);
    m->attributes.v[k] = -1;
    m->vars.v[V_X] = (dgpb_lvar){-1, T_ARRAY, {0, 0}};

    for (int i = 0; i < 6; i++)
        DGPB_LPUSH(m, type_layouts);
    for (int i = 0; i < 6; i++)
        DGPB_LPUSH(m, var_layouts);

    dgpb_ltype_layout *tl = m->type_layouts.v;
    for (int i = 0; i < 6; i++) {
        tl[i].type = -1;
        tl[i].element_type_layout = tl[i].element_var_layout = tl[i].container_var_layout =
            tl[i].explicit_counter = -1;
    }
    /* Each type layout's lists; in reverse order when asked. */
    for (int pass = 0; pass < 6; pass++) {
        int i = reverse_lists ? 5 - pass : pass;
        tl = m->type_layouts.v;
        switch (i) {
        case TL_GLOBAL:
            tl[i].type = T_STRUCT;
            tl[i].kind = 1;
            tl[i].parameter_category = 9;
            tl[i].size = cat(m, 0, 9u, (uint64_t)1, 12u, (uint64_t)0x100000000ull, END);
            tl[i].stride = cat(m, 0, 9u, (uint64_t)1, END);
            tl[i].element_stride = cat(m, 0, END);
            tl[i].categories.first = m->categories.n;
            k = DGPB_LPUSH(m, categories);
            m->categories.v[k] = 9;
            k = DGPB_LPUSH(m, categories);
            m->categories.v[k] = 12;
            tl[i].categories.count = 2;
            tl[i].fields.first = m->fields.n;
            k = DGPB_LPUSH(m, fields);
            m->fields.v[k] = (dgpb_lfield){VL_BUF, 0};
            k = DGPB_LPUSH(m, fields);
            m->fields.v[k] = (dgpb_lfield){VL_X, -7};
            tl[i].fields.count = 2;
            tl[i].binding_ranges.first = m->binding_ranges.n;
            k = DGPB_LPUSH(m, binding_ranges);
            m->binding_ranges.v[k] = (dgpb_lbinding_range){.type = 0x106,
                                                           .binding_count = 1,
                                                           .leaf_type_layout = TL_BUF,
                                                           .leaf_variable = V_BUF,
                                                           .specializable = 0,
                                                           .image_format = 3,
                                                           .descriptor_set_index = 0,
                                                           .first_descriptor_range = 0,
                                                           .descriptor_range_count = 1};
            k = DGPB_LPUSH(m, binding_ranges);
            m->binding_ranges.v[k] = (dgpb_lbinding_range){.type = 3,
                                                           .binding_count = -1,
                                                           .leaf_type_layout = -1,
                                                           .leaf_variable = -1,
                                                           .specializable = 1,
                                                           .descriptor_set_index = 1,
                                                           .first_descriptor_range = 1,
                                                           .descriptor_range_count = 2};
            tl[i].binding_ranges.count = 2;
            tl[i].descriptor_sets.first = m->descriptor_sets.n;
            k = DGPB_LPUSH(m, descriptor_sets);
            m->descriptor_sets.v[k].space_offset = 0;
            m->descriptor_sets.v[k].ranges = (dgpb_lspan){m->descriptor_ranges.n, 2};
            int32_t r = DGPB_LPUSH(m, descriptor_ranges);
            m->descriptor_ranges.v[r] = (dgpb_ldescriptor_range){0, 1, 0x106, 9};
            r = DGPB_LPUSH(m, descriptor_ranges);
            m->descriptor_ranges.v[r] = (dgpb_ldescriptor_range){1, INT64_MAX, 2, 3};
            k = DGPB_LPUSH(m, descriptor_sets);
            m->descriptor_sets.v[k].space_offset = 3;
            m->descriptor_sets.v[k].ranges = (dgpb_lspan){0, 0};
            tl[i].descriptor_sets.count = 2;
            tl[i].sub_object_ranges.first = m->sub_object_ranges.n;
            k = DGPB_LPUSH(m, sub_object_ranges);
            m->sub_object_ranges.v[k] = (dgpb_lsub_object_range){1, 2, VL_X};
            tl[i].sub_object_ranges.count = 1;
            break;
        case TL_BUF:
            tl[i].type = T_BUFFER;
            tl[i].kind = 7;
            tl[i].parameter_category = 9;
            tl[i].size = cat(m, 0, 9u, (uint64_t)1, END);
            tl[i].stride = cat(m, 0, 9u, (uint64_t)1, END);
            tl[i].element_stride = cat(m, 0, END);
            tl[i].element_type_layout = TL_FLOAT;
            tl[i].explicit_counter = VL_COUNTER;
            tl[i].explicit_counter_offset = 1;
            tl[i].binding_ranges.first = m->binding_ranges.n;
            k = DGPB_LPUSH(m, binding_ranges);
            m->binding_ranges.v[k] =
                (dgpb_lbinding_range){.type = 0x106,
                                      .binding_count = 1,
                                      .leaf_type_layout = TL_BUF, /* Slang: its own leaf */
                                      .leaf_variable = -1,
                                      .descriptor_range_count = 1};
            tl[i].binding_ranges.count = 1;
            break;
        case TL_FLOAT:
            tl[i].type = T_FLOAT;
            tl[i].kind = 5;
            tl[i].parameter_category = 8;
            tl[i].size = cat(m, 0, 8u, (uint64_t)4, END);
            tl[i].stride = cat(m, 0, 8u, (uint64_t)4, END);
            tl[i].element_stride = cat(m, 0, END);
            break;
        case TL_PTR: /* a pointer whose target holds the pointer: allowed */
            tl[i].type = T_PTR;
            tl[i].kind = 18;
            tl[i].size = cat(m, 0, 8u, (uint64_t)8, END);
            tl[i].stride = cat(m, 0, END);
            tl[i].element_stride = cat(m, 0, END);
            tl[i].element_type_layout = TL_NODE;
            break;
        case TL_NODE:
            tl[i].type = T_STRUCT;
            tl[i].kind = 1;
            tl[i].size = cat(m, 7, 8u, (uint64_t)8, END);
            tl[i].stride = cat(m, 0, END);
            tl[i].element_stride = cat(m, 0, END);
            tl[i].fields.first = m->fields.n;
            k = DGPB_LPUSH(m, fields);
            m->fields.v[k] = (dgpb_lfield){VL_NEXT, 0};
            tl[i].fields.count = 1;
            break;
        case TL_ENTRY:
            tl[i].type = -1;
            tl[i].kind = 1;
            tl[i].size = cat(m, 0, END);
            tl[i].stride = cat(m, 0, END);
            tl[i].element_stride = cat(m, 0, END);
            break;
        }
    }
    dgpb_lvar_layout *vl = m->var_layouts.v;
    vl[VL_GLOBAL] = (dgpb_lvar_layout){TL_GLOBAL, -1, 0, 0, cat(m, 0, END), cat(m, 0, END)};
    vl[VL_BUF] = (dgpb_lvar_layout){TL_BUF,
                                    V_BUF,
                                    2,
                                    1,
                                    cat(m, 0, 3u, (uint64_t)2, 9u, (uint64_t)2, END),
                                    cat(m, 1, 63u, (uint64_t)0, END)};
    vl[VL_X] = (dgpb_lvar_layout){-1, V_X, 0, 0, cat(m, 0, END), cat(m, 0, END)};
    vl[VL_NEXT] = (dgpb_lvar_layout){TL_PTR, -1, 0, 0, cat(m, 0, END), cat(m, 0, END)};
    vl[VL_ENTRY] = (dgpb_lvar_layout){TL_ENTRY, -1, 0, 0, cat(m, 0, END), cat(m, 0, END)};
    vl[VL_COUNTER] =
        (dgpb_lvar_layout){TL_FLOAT, -1, 3, 1, cat(m, 0, 9u, (uint64_t)3, END), cat(m, 1, END)};

    k = DGPB_LPUSH(m, entries);
    m->entries.v[k] =
        (dgpb_lentry){S(m, "k"), S(m, "main"), 6, VL_ENTRY, TL_ENTRY, {64, 1, 1}, {m->params.n, 2}};
    int32_t p = DGPB_LPUSH(m, params);
    m->params.v[p] = VL_X;
    p = DGPB_LPUSH(m, params);
    m->params.v[p] = -1;
    m->global_var_layout = VL_GLOBAL;
    m->global_type_layout = TL_GLOBAL;
    assert_false(m->failed);
}

static uint8_t *model_bytes(size_t *size, bool reverse)
{
    dgpb_layout_model m;
    build_model(&m, reverse);
    uint8_t *bytes = NULL;
    dgpb_diag d;
    int rc = layout_model_write(&m, &bytes, size, &d);
    if (rc)
        fail_msg("write: %s", d.message);
    layout_model_free(&m);
    return bytes;
}

static dgpb_layout *open_ok(const uint8_t *bytes, size_t size)
{
    dgpb_layout *l = NULL;
    dgpb_diag d;
    if (dgpb_layout_open(bytes, size, &l, &d))
        fail_msg("open: %s", d.message);
    return l;
}

/* ---- round trip ---- */

static void every_query_returns_what_was_written(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = model_bytes(&size, false);
    dgpb_layout *l = open_ok(bytes, size);

    assert_int_equal(dgpb_layout_format_version(l), DGPB_LAYOUT_FORMAT_VERSION);
    assert_string_equal(dgpb_layout_slang_version(l), "v2025.15");
    assert_string_equal(dgpb_layout_target(l), "spirv");
    assert_int_equal(dgpb_layout_group_kind(l), DGPB_LAYOUT_GROUP_COMPUTE);
    assert_int_equal(dgpb_layout_option_count(l), 2);
    assert_string_equal(dgpb_layout_option(l, 1), "-DDREAM_SHADER_k");
    assert_null(dgpb_layout_option(l, 2));
    assert_int_equal(dgpb_layout_object_count(l, DGPB_LAYOUT_TYPE), 5);
    assert_int_equal(dgpb_layout_object_count(l, DGPB_LAYOUT_VARIABLE), 3);
    assert_int_equal(dgpb_layout_object_count(l, DGPB_LAYOUT_TYPE_LAYOUT), 6);
    assert_int_equal(dgpb_layout_object_count(l, DGPB_LAYOUT_VAR_LAYOUT), 6);
    assert_int_equal(dgpb_layout_object_count(l, DGPB_LAYOUT_ENTRY_POINT), 1);

    /* Program and entry. */
    assert_int_equal(dgpb_layout_global_var_layout(l), VL_GLOBAL);
    assert_int_equal(dgpb_layout_global_type_layout(l), TL_GLOBAL);
    assert_int_equal(dgpb_layout_specialization_param_count(l), 0);
    assert_int_equal(dgpb_layout_entry_point_count(l), 1);
    assert_int_equal(dgpb_layout_entry_point(l, 1), DGPB_LAYOUT_NULL);
    dgpb_layout_ref ep = dgpb_layout_entry_point(l, 0);
    assert_string_equal(dgpb_layout_ep_name(l, ep), "k");
    assert_string_equal(dgpb_layout_ep_name_override(l, ep), "main");
    assert_int_equal(dgpb_layout_ep_stage(l, ep), 6);
    assert_int_equal(dgpb_layout_ep_var_layout(l, ep), VL_ENTRY);
    assert_int_equal(dgpb_layout_ep_type_layout(l, ep), TL_ENTRY);
    uint64_t tgs[5] = {9, 9, 9, 9, 9};
    dgpb_layout_ep_thread_group_size(l, ep, 5, tgs);
    assert_int_equal(tgs[0], 64);
    assert_int_equal(tgs[1], 1);
    assert_int_equal(tgs[4], 1);
    uint64_t untouched[1] = {9};
    dgpb_layout_ep_thread_group_size(l, DGPB_LAYOUT_NULL, 1, untouched);
    assert_int_equal(untouched[0], 9);
    assert_int_equal(dgpb_layout_ep_parameter_count(l, ep), 2);
    assert_int_equal(dgpb_layout_ep_parameter(l, ep, 0), VL_X);
    assert_int_equal(dgpb_layout_ep_parameter(l, ep, 1), DGPB_LAYOUT_NULL);
    assert_int_equal(dgpb_layout_ep_parameter(l, ep, 2), DGPB_LAYOUT_NULL);
    assert_null(dgpb_layout_ep_name(l, 1));
    assert_int_equal(dgpb_layout_ep_stage(l, -1), 0);

    /* Variable layouts: per-category answers, default beyond the probe. */
    assert_int_equal(dgpb_layout_vl_type_layout(l, VL_BUF), TL_BUF);
    assert_int_equal(dgpb_layout_vl_variable(l, VL_BUF), V_BUF);
    assert_int_equal(dgpb_layout_vl_offset(l, VL_BUF, 3), 2);
    assert_int_equal(dgpb_layout_vl_offset(l, VL_BUF, 9), 2);
    assert_int_equal(dgpb_layout_vl_offset(l, VL_BUF, 4), 0);
    assert_int_equal(dgpb_layout_vl_space(l, VL_BUF, 0), 1);
    assert_int_equal(dgpb_layout_vl_space(l, VL_BUF, 63), 0);
    assert_int_equal(dgpb_layout_vl_space(l, VL_BUF, 64), 1);
    assert_int_equal(dgpb_layout_vl_space(l, VL_BUF, 0xFFFFFFFFu), 1);
    assert_int_equal(dgpb_layout_vl_binding_index(l, VL_BUF), 2);
    assert_int_equal(dgpb_layout_vl_binding_space(l, VL_BUF), 1);
    assert_int_equal(dgpb_layout_vl_offset(l, 6, 9), 0);
    assert_int_equal(dgpb_layout_vl_type_layout(l, VL_X), DGPB_LAYOUT_NULL);

    /* Type layouts. */
    dgpb_layout_ref g = TL_GLOBAL;
    assert_int_equal(dgpb_layout_tl_type(l, g), T_STRUCT);
    assert_int_equal(dgpb_layout_tl_kind(l, g), 1);
    assert_int_equal(dgpb_layout_tl_size(l, g, 9), 1);
    assert_true(dgpb_layout_tl_size(l, g, 12) == 0x100000000ull);
    assert_int_equal(dgpb_layout_tl_size(l, g, 8), 0);
    assert_int_equal(dgpb_layout_tl_stride(l, g, 9), 1);
    assert_int_equal(dgpb_layout_tl_element_stride(l, g, 9), 0);
    assert_int_equal(dgpb_layout_tl_size(l, TL_NODE, 1000), 7);
    assert_int_equal(dgpb_layout_tl_parameter_category(l, g), 9);
    assert_int_equal(dgpb_layout_tl_category_count(l, g), 2);
    assert_int_equal(dgpb_layout_tl_category(l, g, 1), 12);
    assert_int_equal(dgpb_layout_tl_category(l, g, 2), 0);
    assert_int_equal(dgpb_layout_tl_field_count(l, g), 2);
    assert_int_equal(dgpb_layout_tl_field(l, g, 1), VL_X);
    assert_int_equal(dgpb_layout_tl_field(l, g, 2), DGPB_LAYOUT_NULL);
    assert_int_equal(dgpb_layout_tl_field_binding_range_offset(l, g, 1), -7);
    assert_int_equal(dgpb_layout_tl_field_binding_range_offset(l, g, -1), 0);
    assert_int_equal(dgpb_layout_tl_binding_range_count(l, g), 2);
    assert_int_equal(dgpb_layout_tl_binding_range_type(l, g, 0), 0x106);
    assert_int_equal(dgpb_layout_tl_binding_range_binding_count(l, g, 1), -1);
    assert_int_equal(dgpb_layout_tl_binding_range_leaf_type_layout(l, g, 0), TL_BUF);
    assert_int_equal(dgpb_layout_tl_binding_range_leaf_variable(l, g, 0), V_BUF);
    assert_int_equal(dgpb_layout_tl_binding_range_specializable(l, g, 1), 1);
    assert_int_equal(dgpb_layout_tl_binding_range_image_format(l, g, 0), 3);
    assert_int_equal(dgpb_layout_tl_binding_range_descriptor_set_index(l, g, 1), 1);
    assert_int_equal(dgpb_layout_tl_binding_range_first_descriptor_range_index(l, g, 1), 1);
    assert_int_equal(dgpb_layout_tl_binding_range_descriptor_range_count(l, g, 1), 2);
    assert_int_equal(dgpb_layout_tl_binding_range_type(l, g, 2), 0);
    assert_int_equal(dgpb_layout_tl_binding_range_type(l, g, -1), 0);
    assert_int_equal(dgpb_layout_tl_binding_range_leaf_type_layout(l, g, 5), DGPB_LAYOUT_NULL);
    assert_int_equal(dgpb_layout_tl_descriptor_set_count(l, g), 2);
    assert_int_equal(dgpb_layout_tl_descriptor_set_space_offset(l, g, 1), 3);
    assert_int_equal(dgpb_layout_tl_descriptor_set_range_count(l, g, 0), 2);
    assert_int_equal(dgpb_layout_tl_descriptor_set_range_count(l, g, 1), 0);
    assert_int_equal(dgpb_layout_tl_descriptor_range_index_offset(l, g, 0, 1), 1);
    assert_true(dgpb_layout_tl_descriptor_range_descriptor_count(l, g, 0, 1) == INT64_MAX);
    assert_int_equal(dgpb_layout_tl_descriptor_range_type(l, g, 0, 0), 0x106);
    assert_int_equal(dgpb_layout_tl_descriptor_range_category(l, g, 0, 1), 3);
    assert_int_equal(dgpb_layout_tl_descriptor_range_type(l, g, 1, 0), 0);
    assert_int_equal(dgpb_layout_tl_descriptor_range_type(l, g, 0, 2), 0);
    assert_int_equal(dgpb_layout_tl_sub_object_range_count(l, g), 1);
    assert_int_equal(dgpb_layout_tl_sub_object_range_binding_range_index(l, g, 0), 1);
    assert_int_equal(dgpb_layout_tl_sub_object_range_space_offset(l, g, 0), 2);
    assert_int_equal(dgpb_layout_tl_sub_object_range_offset(l, g, 0), VL_X);
    assert_int_equal(dgpb_layout_tl_sub_object_range_offset(l, g, 1), DGPB_LAYOUT_NULL);
    assert_int_equal(dgpb_layout_tl_element_type_layout(l, TL_BUF), TL_FLOAT);
    assert_int_equal(dgpb_layout_tl_explicit_counter(l, TL_BUF), VL_COUNTER);
    assert_int_equal(dgpb_layout_tl_explicit_counter_binding_range_offset(l, TL_BUF), 1);
    assert_int_equal(dgpb_layout_tl_element_var_layout(l, TL_BUF), DGPB_LAYOUT_NULL);
    assert_int_equal(dgpb_layout_tl_container_var_layout(l, TL_BUF), DGPB_LAYOUT_NULL);
    assert_int_equal(dgpb_layout_tl_kind(l, 99), 0);
    assert_int_equal(dgpb_layout_tl_binding_range_count(l, -5), 0);

    /* Types and variables. */
    assert_string_equal(dgpb_layout_type_name(l, T_BUFFER), "RWStructuredBuffer");
    assert_null(dgpb_layout_type_name(l, T_ARRAY));
    assert_int_equal(dgpb_layout_type_kind(l, T_BUFFER), 7);
    assert_int_equal(dgpb_layout_type_element_type(l, T_ARRAY), T_FLOAT);
    assert_true(dgpb_layout_type_element_count(l, T_ARRAY) == UINT64_MAX);
    assert_int_equal(dgpb_layout_type_scalar_type(l, T_FLOAT), 8);
    assert_int_equal(dgpb_layout_type_row_count(l, T_FLOAT), 1);
    assert_int_equal(dgpb_layout_type_column_count(l, T_FLOAT), 1);
    assert_int_equal(dgpb_layout_type_resource_shape(l, T_BUFFER), 6);
    assert_int_equal(dgpb_layout_type_resource_access(l, T_BUFFER), 2);
    assert_int_equal(dgpb_layout_type_resource_result_type(l, T_BUFFER), T_FLOAT);
    assert_int_equal(dgpb_layout_type_element_type(l, 5), DGPB_LAYOUT_NULL);
    assert_string_equal(dgpb_layout_var_name(l, V_BUF), "k_out");
    assert_null(dgpb_layout_var_name(l, V_X));
    assert_int_equal(dgpb_layout_var_type(l, V_BUF), T_BUFFER);
    assert_int_equal(dgpb_layout_var_user_attribute_count(l, V_BUF), 2);
    assert_string_equal(dgpb_layout_var_user_attribute_name(l, V_BUF, 0), "format");
    assert_null(dgpb_layout_var_user_attribute_name(l, V_BUF, 1));
    assert_null(dgpb_layout_var_user_attribute_name(l, V_BUF, 2));
    assert_int_equal(dgpb_layout_var_user_attribute_count(l, V_PARAMS), 0);

    /* The same string is one entry: answers are pointers into the blob. */
    assert_ptr_equal(dgpb_layout_type_name(l, T_STRUCT), dgpb_layout_type_name(l, T_STRUCT));
    assert_true((const uint8_t *)dgpb_layout_var_name(l, V_BUF) > bytes &&
                (const uint8_t *)dgpb_layout_var_name(l, V_BUF) < bytes + size);

    dgpb_layout_close(l);
    dgpb_free(bytes);
}

static void list_order_in_the_model_does_not_change_the_bytes(void **state)
{
    (void)state;
    size_t a_size, b_size, c_size;
    uint8_t *a = model_bytes(&a_size, false);
    uint8_t *b = model_bytes(&b_size, true);
    uint8_t *c = model_bytes(&c_size, false);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    assert_int_equal(a_size, c_size);
    assert_memory_equal(a, c, a_size);
    dgpb_free(a);
    dgpb_free(b);
    dgpb_free(c);
}

static void writer_refuses_an_inconsistent_model(void **state)
{
    (void)state;
    dgpb_layout_model m;
    build_model(&m, false);
    m.type_layouts.v[TL_BUF].element_type_layout = 77;
    uint8_t *bytes = NULL;
    size_t size = 0;
    dgpb_diag d;
    assert_int_equal(layout_model_write(&m, &bytes, &size, &d), DGPB_ERR_INVALID);
    assert_null(bytes);
    m.type_layouts.v[TL_BUF].element_type_layout = TL_FLOAT;
    m.var_layouts.v[VL_BUF].offset.answers.count = 3; /* runs into the space list: equal value */
    assert_int_equal(layout_model_write(&m, &bytes, &size, &d), DGPB_ERR_INVALID);
    layout_model_free(&m);
}

static void strings_are_interned_once_and_limited(void **state)
{
    (void)state;
    dgpb_layout_model m;
    layout_model_init(&m);
    for (int i = 0; i < 1000; i++) {
        char buf[16];
        snprintf(buf, sizeof buf, "s%d", i);
        assert_int_equal(S(&m, buf), i);
    }
    assert_int_equal(S(&m, "s517"), 517);
    assert_int_equal(layout_model_string(&m, NULL, 0), -1);
    char *big = malloc(DGPB_LAYOUT_MAX_STRING + 2);
    memset(big, 'a', DGPB_LAYOUT_MAX_STRING + 1);
    big[DGPB_LAYOUT_MAX_STRING + 1] = 0;
    assert_int_equal(layout_model_string(&m, big, DGPB_LAYOUT_MAX_STRING + 1), -2);
    assert_true(layout_model_string(&m, big, DGPB_LAYOUT_MAX_STRING) >= 0);
    assert_int_equal(layout_model_string(&m, "a\0b", 3), -2);
    free(big);
    layout_model_free(&m);
}

/* ---- damage ---- */

static int open_code(const uint8_t *bytes, size_t size, dgpb_diag *d)
{
    dgpb_layout *l = NULL;
    int rc = dgpb_layout_open(bytes, size, &l, d);
    if (rc)
        assert_null(l);
    dgpb_layout_close(l);
    return rc;
}

static void every_truncation_is_rejected(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = model_bytes(&size, false);
    dgpb_diag d;
    for (size_t n = 0; n < size; n++) {
        uint8_t *copy = malloc(n ? n : 1); /* exactly n bytes, so ASan sees any overread */
        memcpy(copy, bytes, n);
        int rc = open_code(copy, n, &d);
        if (dgpb_result_class(rc) != DGPB_ERR_CORRUPT)
            fail_msg("a blob cut to %zu of %zu bytes gave %d", n, size, rc);
        free(copy);
    }
    /* And one byte more. */
    uint8_t *longer = calloc(size + 1, 1);
    memcpy(longer, bytes, size);
    assert_int_equal(open_code(longer, size + 1, &d), DGPB_ERR_CORRUPT_VALUE);
    assert_non_null(strstr(d.message, "after the last table"));
    free(longer);
    dgpb_free(bytes);
}

/* Whether byte `at` lies in a header word the reader checks exactly: the magic, the version and
 * every count (a changed count moves the tables, so the size no longer adds up). */
static bool in_checked_header_word(size_t at)
{
    size_t word = at / 4u;
    return word == LH_MAGIC || word == LH_VERSION ||
           (word >= LH_STRING_COUNT && word <= LH_SUB_OBJECT_RANGE_COUNT);
}

static void every_single_byte_change_opens_cleanly_or_fails_cleanly(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = model_bytes(&size, false);
    uint8_t *copy = malloc(size);
    size_t opened = 0, rejected = 0;
    for (size_t i = 0; i < size; i++) {
        static const uint8_t deltas[] = {0x01, 0x80, 0xFF};
        for (size_t k = 0; k < sizeof deltas; k++) {
            memcpy(copy, bytes, size);
            copy[i] ^= deltas[k];
            dgpb_layout *l = NULL;
            dgpb_diag d;
            dgpb_diag_clear(&d);
            int rc = dgpb_layout_open(copy, size, &l, &d);
            if (rc == DGPB_OK) {
                if (in_checked_header_word(i))
                    fail_msg("byte %zu ^ 0x%02x in a checked header word was accepted", i,
                             deltas[k]);
                opened++; /* e.g. a size or a kind: still a valid layout */
                /* Accepted: then every query stays in bounds (ASan checks). */
                for (dgpb_layout_ref t = -1; t < 8; t++) {
                    dgpb_layout_tl_size(l, t, 9);
                    dgpb_layout_tl_descriptor_range_type(l, t, 0, 1);
                    dgpb_layout_tl_binding_range_leaf_variable(l, t, 1);
                    dgpb_layout_var_user_attribute_name(l, t, 0);
                    dgpb_layout_type_name(l, t);
                    dgpb_layout_ep_parameter(l, t, 0);
                }
                dgpb_layout_close(l);
            } else {
                assert_null(l);
                if (dgpb_result_class(rc) != DGPB_ERR_CORRUPT)
                    fail_msg("byte %zu ^ 0x%02x gave %d, not a DGPB_ERR_CORRUPT code", i, deltas[k],
                             rc);
                assert_true(d.message[0] != 0);
                assert_true(d.offset >= 0 && (size_t)d.offset <= size);
                rejected++;
            }
        }
    }
    assert_true(rejected > 0);
    print_message("%zu single-byte changes opened, %zu rejected\n", opened, rejected);
    free(copy);
    dgpb_free(bytes);
}

/* The byte offset of word `word` of record `i` in table `table` (DGPB_LAYOUT_TABLES). */
static size_t table_offset(const uint8_t *bytes, layout_table table, uint32_t i, uint32_t word)
{
    uint32_t h[LH_WORDS];
    memcpy(h, bytes, sizeof h); /* little-endian hosts only, like the rest of the tests */
    return (size_t)layout_table_offset(h, table) +
           ((size_t)i * layout_table_shape_of(table).words + word) * 4u;
}

typedef struct damage {
    const char *name;
    int table; /* a layout_table, or -1 for the header */
    uint32_t index, word;
    uint32_t value;
    int code;
    const char *message;
} damage;

static const damage damages[] = {
    {"bad magic", -1, 0, LH_MAGIC, 0x4244504Cu /* "LPDB" */, DGPB_ERR_CORRUPT_MAGIC, "bad magic"},
    {"future version", -1, 0, LH_VERSION, 2, DGPB_ERR_CORRUPT_VERSION, "layout format version 2"},
    {"unknown group", -1, 0, LH_GROUP_KIND, 4, DGPB_ERR_CORRUPT_VALUE, "unknown group kind 4"},
    {"specialization parameters", -1, 0, LH_SPECIALIZATION_PARAMS, 1, DGPB_ERR_CORRUPT_VALUE,
     "1 specialization parameters"},
    {"null target", -1, 0, LH_TARGET, DGPB_LAYOUT_NONE, DGPB_ERR_CORRUPT_RANGE,
     "target string null"},
    {"global type layout out of range", -1, 0, LH_GLOBAL_TYPE_LAYOUT, 6, DGPB_ERR_CORRUPT_RANGE,
     "global type layout index out of range (6 in the table)"},
    {"type name out of range", LAYOUT_TABLE_TYPES, 2, LT_NAME, 1000, DGPB_ERR_CORRUPT_RANGE,
     "type 2: name index out of range"},
    {"element type out of range", LAYOUT_TABLE_TYPES, 3, LT_ELEMENT_TYPE, 5, DGPB_ERR_CORRUPT_RANGE,
     "type 3: element type index out of range (5 in the table)"},
    {"type cycle", LAYOUT_TABLE_TYPES, 1, LT_ELEMENT_TYPE, T_ARRAY, DGPB_ERR_CORRUPT_VALUE,
     "element and result types form a cycle"},
    {"self-containing type layout", LAYOUT_TABLE_TYPE_LAYOUTS, TL_FLOAT, LTL_ELEMENT_TYPE_LAYOUT,
     TL_BUF, DGPB_ERR_CORRUPT_VALUE, "type and variable layouts form a cycle"},
    {"field list out of order", LAYOUT_TABLE_TYPE_LAYOUTS, TL_NODE, LTL_FIELDS, 0,
     DGPB_ERR_CORRUPT_ORDER, "type layout 4: field list starts at 0, expected 2"},
    {"binding ranges past the table", LAYOUT_TABLE_TYPE_LAYOUTS, TL_BUF, LTL_BINDING_RANGES + 1, 2,
     DGPB_ERR_CORRUPT_RANGE, "binding range list [2, +2) past"},
    {"empty list not at 0", LAYOUT_TABLE_TYPE_LAYOUTS, TL_FLOAT, LTL_FIELDS, 3,
     DGPB_ERR_CORRUPT_VALUE, "empty field list starts at 3"},
    {"orphan categories", LAYOUT_TABLE_TYPE_LAYOUTS, TL_GLOBAL, LTL_CATEGORIES + 1, 1,
     DGPB_ERR_CORRUPT_VALUE, "1 categories belong to no owner"},
    {"answer category past the probe", LAYOUT_TABLE_ANSWERS, 0, LA_CATEGORY, 64,
     DGPB_ERR_CORRUPT_VALUE, "size answer for category 64"},
    {"answers out of order", LAYOUT_TABLE_ANSWERS, 1, LA_CATEGORY, 9, DGPB_ERR_CORRUPT_ORDER,
     "not in increasing category order"},
    {"answer equal to the default", LAYOUT_TABLE_ANSWERS, 0, LA_VALUE, 0, DGPB_ERR_CORRUPT_VALUE,
     "repeats the default"},
    {"entry parameter out of range", LAYOUT_TABLE_PARAMS, 0, 0, 6, DGPB_ERR_CORRUPT_RANGE,
     "entry parameter 0: variable layout index out of range"},
    {"leaf variable out of range", LAYOUT_TABLE_BINDING_RANGES, 0, LB_LEAF_VARIABLE, 3,
     DGPB_ERR_CORRUPT_RANGE, "binding range 0: leaf variable index out of range"},
    {"descriptor ranges orphaned", LAYOUT_TABLE_DESCRIPTOR_SETS, 0, LS_RANGES + 1, 1,
     DGPB_ERR_CORRUPT_VALUE, "1 descriptor ranges belong to no descriptor set"},
    {"sub-object offset out of range", LAYOUT_TABLE_SUB_OBJECT_RANGES, 0, LO_OFFSET_VAR_LAYOUT, 100,
     DGPB_ERR_CORRUPT_RANGE, "sub-object range 0: offset variable"},
    {"null option", LAYOUT_TABLE_OPTIONS, 0, 0, DGPB_LAYOUT_NONE, DGPB_ERR_CORRUPT_RANGE,
     "option 0: string null"},
    {"too many strings", -1, 0, LH_STRING_COUNT, 0x10000000u, DGPB_ERR_CORRUPT_RANGE,
     "strings cannot fit"},
};

static void damaged_blobs_are_rejected_with_their_reason(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = model_bytes(&size, false);
    uint8_t *copy = malloc(size);
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
        const damage *dm = &damages[i];
        memcpy(copy, bytes, size);
        size_t at = dm->table < 0
                        ? dm->word * 4u
                        : table_offset(bytes, (layout_table)dm->table, dm->index, dm->word);
        assert_true(at + 4 <= size);
        support_put_u32(copy, at, dm->value);
        dgpb_diag d;
        dgpb_diag_clear(&d);
        int rc = open_code(copy, size, &d);
        if (rc != dm->code || (dm->message && !strstr(d.message, dm->message)))
            fail_msg("%s: got %d '%s', expected %d '%s'", dm->name, rc, d.message, dm->code,
                     dm->message ? dm->message : "");
        assert_true(d.offset >= 0 && (size_t)d.offset <= size);
    }
    free(copy);
    dgpb_free(bytes);
}

static void strings_must_be_utf8_and_nul_terminated(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = model_bytes(&size, false);
    /* The first string is "v2025.15" right after the header. */
    size_t first = LH_WORDS * 4u + 4u;
    assert_memory_equal(bytes + first, "v2025.15", 9);
    dgpb_diag d;
    bytes[first + 8] = 'x'; /* its NUL */
    assert_int_equal(open_code(bytes, size, &d), DGPB_ERR_CORRUPT_STRING);
    assert_non_null(strstr(d.message, "not NUL-terminated"));
    bytes[first + 8] = 0;
    bytes[first + 1] = 0xC0; /* an overlong form */
    assert_int_equal(open_code(bytes, size, &d), DGPB_ERR_CORRUPT_STRING);
    assert_non_null(strstr(d.message, "not UTF-8"));
    assert_int_equal(d.offset, (int64_t)first + 1);
    dgpb_free(bytes);
}

static int open_for_faults(void *arg)
{
    support_bytes *b = arg;
    dgpb_layout *l = NULL;
    int rc = dgpb_layout_open(b->bytes, b->size, &l, NULL);
    dgpb_layout_close(l);
    return rc;
}

static int write_for_faults(void *arg)
{
    (void)arg;
    dgpb_layout_model m;
    layout_model_init(&m);
    for (int i = 0; i < 300; i++) { /* enough to grow the string table and hash */
        char buf[16];
        snprintf(buf, sizeof buf, "n%d", i);
        S(&m, buf);
        int32_t k = DGPB_LPUSH(&m, types);
        if (k >= 0)
            m.types.v[k] = (dgpb_ltype){.name = i, .element_type = -1, .resource_result_type = -1};
    }
    m.slang_version = S(&m, "v2025.15");
    m.target = S(&m, "spirv");
    uint8_t *bytes = NULL;
    size_t size;
    int rc = layout_model_write(&m, &bytes, &size, NULL);
    dgpb_free(bytes);
    layout_model_free(&m);
    return rc;
}

static void allocation_failures_are_reported(void **state)
{
    (void)state;
    support_bytes b;
    b.bytes = model_bytes(&b.size, false);
    assert_true(support_run_with_faults(open_for_faults, &b, DGPB_OK, "layout open") > 0);
    assert_true(support_run_with_faults(write_for_faults, NULL, DGPB_OK, "layout write") > 0);
    dgpb_free(b.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_query_returns_what_was_written),
        cmocka_unit_test(list_order_in_the_model_does_not_change_the_bytes),
        cmocka_unit_test(writer_refuses_an_inconsistent_model),
        cmocka_unit_test(strings_are_interned_once_and_limited),
        cmocka_unit_test(every_truncation_is_rejected),
        cmocka_unit_test(every_single_byte_change_opens_cleanly_or_fails_cleanly),
        cmocka_unit_test(damaged_blobs_are_rejected_with_their_reason),
        cmocka_unit_test(strings_must_be_utf8_and_nul_terminated),
        cmocka_unit_test(allocation_failures_are_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
