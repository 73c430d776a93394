/*
 * layout_listing.c - dgpb-dump --layout: a recorded layout blob, object by
 * object, readable or as JSON (docs/layout.md describes the objects).
 *
 * Only the replay API of dgpb/layout.h is used, so the listing shows what a
 * host would be answered. Per-category answers are listed as the default
 * (Slang's answer for a category it does not know) plus the categories
 * whose answer differs from it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/tool_common.h"
#include "dgpb/layout.h"
#include "dump.h"
#include "layout_listing.h"

typedef uint64_t (*cat_fn)(const dgpb_layout *, dgpb_layout_ref, uint32_t);

static void json_str(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void text_str(FILE *out, const char *s)
{
    if (s)
        fprintf(out, "'%s'", tool_text(s, strlen(s)));
    else
        fputs("null", out);
}

/* A ref: "tl3" or "-" in text, 3 or null in JSON. */
static void pref(FILE *out, bool json, const char *prefix, dgpb_layout_ref r)
{
    if (r < 0)
        fputs(json ? "null" : "-", out);
    else if (json)
        fprintf(out, "%d", r);
    else
        fprintf(out, "%s%d", prefix, r);
}

static void cats(FILE *out, bool json, const dgpb_layout *l, dgpb_layout_ref r, cat_fn f)
{
    uint64_t dflt = f(l, r, DGPB_LAYOUT_CATEGORY_PROBE);
    fprintf(out, json ? "{\"default\": %" PRIu64 : "{%" PRIu64, dflt);
    for (uint32_t c = 0; c < DGPB_LAYOUT_CATEGORY_PROBE; c++) {
        uint64_t v = f(l, r, c);
        if (v != dflt)
            fprintf(out, json ? ", \"%u\": %" PRIu64 : " %u:%" PRIu64, c, v);
    }
    fputc('}', out);
}

static void print_text(FILE *out, const dgpb_layout *l, const char *title)
{
    fprintf(out, "%s: layout format %u, slang %s, target %s, group %s\n",
            tool_text(title, strlen(title)), dgpb_layout_format_version(l),
            tool_text(dgpb_layout_slang_version(l), strlen(dgpb_layout_slang_version(l))),
            tool_text(dgpb_layout_target(l), strlen(dgpb_layout_target(l))),
            dgpb_layout_group_name(dgpb_layout_group_kind(l)));
    fprintf(out, "  options:");
    for (uint32_t i = 0; i < dgpb_layout_option_count(l); i++)
        fprintf(out, " %s", tool_text(dgpb_layout_option(l, i), strlen(dgpb_layout_option(l, i))));
    fprintf(out, "\n  globals: ");
    pref(out, false, "vl", dgpb_layout_global_var_layout(l));
    fputs(", ", out);
    pref(out, false, "tl", dgpb_layout_global_type_layout(l));
    fputc('\n', out);
    for (uint64_t i = 0; i < dgpb_layout_entry_point_count(l); i++) {
        dgpb_layout_ref e = dgpb_layout_entry_point(l, i);
        uint64_t g[3];
        dgpb_layout_ep_thread_group_size(l, e, 3, g);
        fprintf(out, "  entry %" PRIu64 " ", i);
        text_str(out, dgpb_layout_ep_name(l, e));
        fprintf(out, " (stage %u), override ", dgpb_layout_ep_stage(l, e));
        text_str(out, dgpb_layout_ep_name_override(l, e));
        fprintf(out, ", [%" PRIu64 ",%" PRIu64 ",%" PRIu64 "], ", g[0], g[1], g[2]);
        pref(out, false, "vl", dgpb_layout_ep_var_layout(l, e));
        fputs(" ", out);
        pref(out, false, "tl", dgpb_layout_ep_type_layout(l, e));
        fputs(", parameters", out);
        for (uint32_t k = 0; k < dgpb_layout_ep_parameter_count(l, e); k++) {
            fputc(' ', out);
            pref(out, false, "vl", dgpb_layout_ep_parameter(l, e, k));
        }
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < dgpb_layout_object_count(l, DGPB_LAYOUT_TYPE); i++) {
        dgpb_layout_ref t = (dgpb_layout_ref)i;
        fprintf(out, "  t%u: kind %u ", i, dgpb_layout_type_kind(l, t));
        text_str(out, dgpb_layout_type_name(l, t));
        fputs(", element ", out);
        pref(out, false, "t", dgpb_layout_type_element_type(l, t));
        fprintf(out, " x %" PRIu64 ", %ux%u, scalar %u, shape 0x%x, access %u, result ",
                dgpb_layout_type_element_count(l, t), dgpb_layout_type_row_count(l, t),
                dgpb_layout_type_column_count(l, t), dgpb_layout_type_scalar_type(l, t),
                dgpb_layout_type_resource_shape(l, t), dgpb_layout_type_resource_access(l, t));
        pref(out, false, "t", dgpb_layout_type_resource_result_type(l, t));
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < dgpb_layout_object_count(l, DGPB_LAYOUT_VARIABLE); i++) {
        dgpb_layout_ref v = (dgpb_layout_ref)i;
        fprintf(out, "  v%u: ", i);
        text_str(out, dgpb_layout_var_name(l, v));
        fputs(", type ", out);
        pref(out, false, "t", dgpb_layout_var_type(l, v));
        for (uint32_t k = 0; k < dgpb_layout_var_user_attribute_count(l, v); k++) {
            fputs(k ? ", " : ", attributes ", out);
            text_str(out, dgpb_layout_var_user_attribute_name(l, v, k));
        }
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < dgpb_layout_object_count(l, DGPB_LAYOUT_VAR_LAYOUT); i++) {
        dgpb_layout_ref v = (dgpb_layout_ref)i;
        fprintf(out, "  vl%u: ", i);
        pref(out, false, "tl", dgpb_layout_vl_type_layout(l, v));
        fputc(' ', out);
        pref(out, false, "v", dgpb_layout_vl_variable(l, v));
        fprintf(out, ", binding %u space %u, offset ", dgpb_layout_vl_binding_index(l, v),
                dgpb_layout_vl_binding_space(l, v));
        cats(out, false, l, v, dgpb_layout_vl_offset);
        fputs(", space ", out);
        cats(out, false, l, v, dgpb_layout_vl_space);
        fputc('\n', out);
    }
    for (uint32_t i = 0; i < dgpb_layout_object_count(l, DGPB_LAYOUT_TYPE_LAYOUT); i++) {
        dgpb_layout_ref t = (dgpb_layout_ref)i;
        fprintf(out, "  tl%u: kind %u ", i, dgpb_layout_tl_kind(l, t));
        pref(out, false, "t", dgpb_layout_tl_type(l, t));
        fprintf(out, ", category %u, size ", dgpb_layout_tl_parameter_category(l, t));
        cats(out, false, l, t, dgpb_layout_tl_size);
        fputs(", stride ", out);
        cats(out, false, l, t, dgpb_layout_tl_stride);
        fputs(", element stride ", out);
        cats(out, false, l, t, dgpb_layout_tl_element_stride);
        fputs("\n       element ", out);
        pref(out, false, "tl", dgpb_layout_tl_element_type_layout(l, t));
        fputs(" ", out);
        pref(out, false, "vl", dgpb_layout_tl_element_var_layout(l, t));
        fputs(", container ", out);
        pref(out, false, "vl", dgpb_layout_tl_container_var_layout(l, t));
        fputs(", counter ", out);
        pref(out, false, "vl", dgpb_layout_tl_explicit_counter(l, t));
        fprintf(out, " @%" PRId64 ", categories",
                dgpb_layout_tl_explicit_counter_binding_range_offset(l, t));
        for (uint32_t k = 0; k < dgpb_layout_tl_category_count(l, t); k++)
            fprintf(out, " %u", dgpb_layout_tl_category(l, t, k));
        fputc('\n', out);
        for (uint32_t k = 0; k < dgpb_layout_tl_field_count(l, t); k++) {
            fprintf(out, "       field %u: ", k);
            pref(out, false, "vl", dgpb_layout_tl_field(l, t, k));
            fprintf(out, ", binding range offset %" PRId64 "\n",
                    dgpb_layout_tl_field_binding_range_offset(l, t, k));
        }
        for (int64_t k = 0; k < dgpb_layout_tl_binding_range_count(l, t); k++) {
            fprintf(out, "       binding range %" PRId64 ": type 0x%x, count %" PRId64 ", leaf ", k,
                    dgpb_layout_tl_binding_range_type(l, t, k),
                    dgpb_layout_tl_binding_range_binding_count(l, t, k));
            pref(out, false, "tl", dgpb_layout_tl_binding_range_leaf_type_layout(l, t, k));
            fputc(' ', out);
            pref(out, false, "v", dgpb_layout_tl_binding_range_leaf_variable(l, t, k));
            fprintf(out,
                    ", specializable %" PRId64 ", format %u, set %" PRId64
                    ", descriptor ranges %" PRId64 " +%" PRId64 "\n",
                    dgpb_layout_tl_binding_range_specializable(l, t, k),
                    dgpb_layout_tl_binding_range_image_format(l, t, k),
                    dgpb_layout_tl_binding_range_descriptor_set_index(l, t, k),
                    dgpb_layout_tl_binding_range_first_descriptor_range_index(l, t, k),
                    dgpb_layout_tl_binding_range_descriptor_range_count(l, t, k));
        }
        for (int64_t s = 0; s < dgpb_layout_tl_descriptor_set_count(l, t); s++) {
            fprintf(out, "       descriptor set %" PRId64 ": space offset %" PRId64, s,
                    dgpb_layout_tl_descriptor_set_space_offset(l, t, s));
            for (int64_t r = 0; r < dgpb_layout_tl_descriptor_set_range_count(l, t, s); r++)
                fprintf(out, ", [index %" PRId64 " count %" PRId64 " type 0x%x category %u]",
                        dgpb_layout_tl_descriptor_range_index_offset(l, t, s, r),
                        dgpb_layout_tl_descriptor_range_descriptor_count(l, t, s, r),
                        dgpb_layout_tl_descriptor_range_type(l, t, s, r),
                        dgpb_layout_tl_descriptor_range_category(l, t, s, r));
            fputc('\n', out);
        }
        for (int64_t k = 0; k < dgpb_layout_tl_sub_object_range_count(l, t); k++) {
            fprintf(out,
                    "       sub-object range %" PRId64 ": binding range %" PRId64
                    ", space offset %" PRId64 ", offset ",
                    k, dgpb_layout_tl_sub_object_range_binding_range_index(l, t, k),
                    dgpb_layout_tl_sub_object_range_space_offset(l, t, k));
            pref(out, false, "vl", dgpb_layout_tl_sub_object_range_offset(l, t, k));
            fputc('\n', out);
        }
    }
}

#define KEY(name) fprintf(out, ", \"" name "\": ")

static void print_json(FILE *out, const dgpb_layout *l)
{
    fprintf(out, "{\"format\": %u, \"slang\": ", dgpb_layout_format_version(l));
    json_str(out, dgpb_layout_slang_version(l));
    KEY("target");
    json_str(out, dgpb_layout_target(l));
    KEY("group");
    json_str(out, dgpb_layout_group_name(dgpb_layout_group_kind(l)));
    KEY("options");
    fputc('[', out);
    for (uint32_t i = 0; i < dgpb_layout_option_count(l); i++) {
        fputs(i ? ", " : "", out);
        json_str(out, dgpb_layout_option(l, i));
    }
    fputc(']', out);
    KEY("specialization_params");
    fprintf(out, "%u", dgpb_layout_specialization_param_count(l));
    KEY("global_var_layout");
    pref(out, true, "", dgpb_layout_global_var_layout(l));
    KEY("global_type_layout");
    pref(out, true, "", dgpb_layout_global_type_layout(l));
    fputs(",\n \"entry_points\": [", out);
    for (uint64_t i = 0; i < dgpb_layout_entry_point_count(l); i++) {
        dgpb_layout_ref e = dgpb_layout_entry_point(l, i);
        uint64_t g[3];
        dgpb_layout_ep_thread_group_size(l, e, 3, g);
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
        json_str(out, dgpb_layout_ep_name(l, e));
        KEY("name_override");
        json_str(out, dgpb_layout_ep_name_override(l, e));
        fprintf(out,
                ", \"stage\": %u, \"thread_group_size\": [%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]",
                dgpb_layout_ep_stage(l, e), g[0], g[1], g[2]);
        KEY("var_layout");
        pref(out, true, "", dgpb_layout_ep_var_layout(l, e));
        KEY("type_layout");
        pref(out, true, "", dgpb_layout_ep_type_layout(l, e));
        KEY("parameters");
        fputc('[', out);
        for (uint32_t k = 0; k < dgpb_layout_ep_parameter_count(l, e); k++) {
            fputs(k ? ", " : "", out);
            pref(out, true, "", dgpb_layout_ep_parameter(l, e, k));
        }
        fputs("]}", out);
    }
    fputs("],\n \"types\": [", out);
    for (uint32_t i = 0; i < dgpb_layout_object_count(l, DGPB_LAYOUT_TYPE); i++) {
        dgpb_layout_ref t = (dgpb_layout_ref)i;
        fprintf(out, "%s{\"kind\": %u, \"name\": ", i ? ",\n  " : "\n  ",
                dgpb_layout_type_kind(l, t));
        json_str(out, dgpb_layout_type_name(l, t));
        KEY("element_type");
        pref(out, true, "", dgpb_layout_type_element_type(l, t));
        fprintf(out,
                ", \"element_count\": %" PRIu64 ", \"rows\": %u, \"columns\": %u, "
                "\"scalar_type\": %u, \"resource_shape\": %u, \"resource_access\": %u",
                dgpb_layout_type_element_count(l, t), dgpb_layout_type_row_count(l, t),
                dgpb_layout_type_column_count(l, t), dgpb_layout_type_scalar_type(l, t),
                dgpb_layout_type_resource_shape(l, t), dgpb_layout_type_resource_access(l, t));
        KEY("resource_result_type");
        pref(out, true, "", dgpb_layout_type_resource_result_type(l, t));
        fputc('}', out);
    }
    fputs("],\n \"variables\": [", out);
    for (uint32_t i = 0; i < dgpb_layout_object_count(l, DGPB_LAYOUT_VARIABLE); i++) {
        dgpb_layout_ref v = (dgpb_layout_ref)i;
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
        json_str(out, dgpb_layout_var_name(l, v));
        KEY("type");
        pref(out, true, "", dgpb_layout_var_type(l, v));
        KEY("user_attributes");
        fputc('[', out);
        for (uint32_t k = 0; k < dgpb_layout_var_user_attribute_count(l, v); k++) {
            fputs(k ? ", " : "", out);
            json_str(out, dgpb_layout_var_user_attribute_name(l, v, k));
        }
        fputs("]}", out);
    }
    fputs("],\n \"var_layouts\": [", out);
    for (uint32_t i = 0; i < dgpb_layout_object_count(l, DGPB_LAYOUT_VAR_LAYOUT); i++) {
        dgpb_layout_ref v = (dgpb_layout_ref)i;
        fputs(i ? ",\n  {\"type_layout\": " : "\n  {\"type_layout\": ", out);
        pref(out, true, "", dgpb_layout_vl_type_layout(l, v));
        KEY("variable");
        pref(out, true, "", dgpb_layout_vl_variable(l, v));
        fprintf(out, ", \"binding_index\": %u, \"binding_space\": %u",
                dgpb_layout_vl_binding_index(l, v), dgpb_layout_vl_binding_space(l, v));
        KEY("offset");
        cats(out, true, l, v, dgpb_layout_vl_offset);
        KEY("space");
        cats(out, true, l, v, dgpb_layout_vl_space);
        fputc('}', out);
    }
    fputs("],\n \"type_layouts\": [", out);
    for (uint32_t i = 0; i < dgpb_layout_object_count(l, DGPB_LAYOUT_TYPE_LAYOUT); i++) {
        dgpb_layout_ref t = (dgpb_layout_ref)i;
        fputs(i ? ",\n  {\"type\": " : "\n  {\"type\": ", out);
        pref(out, true, "", dgpb_layout_tl_type(l, t));
        fprintf(out, ", \"kind\": %u, \"parameter_category\": %u", dgpb_layout_tl_kind(l, t),
                dgpb_layout_tl_parameter_category(l, t));
        KEY("size");
        cats(out, true, l, t, dgpb_layout_tl_size);
        KEY("stride");
        cats(out, true, l, t, dgpb_layout_tl_stride);
        KEY("element_stride");
        cats(out, true, l, t, dgpb_layout_tl_element_stride);
        KEY("element_type_layout");
        pref(out, true, "", dgpb_layout_tl_element_type_layout(l, t));
        KEY("element_var_layout");
        pref(out, true, "", dgpb_layout_tl_element_var_layout(l, t));
        KEY("container_var_layout");
        pref(out, true, "", dgpb_layout_tl_container_var_layout(l, t));
        KEY("explicit_counter");
        pref(out, true, "", dgpb_layout_tl_explicit_counter(l, t));
        fprintf(out, ", \"explicit_counter_binding_range_offset\": %" PRId64,
                dgpb_layout_tl_explicit_counter_binding_range_offset(l, t));
        KEY("categories");
        fputc('[', out);
        for (uint32_t k = 0; k < dgpb_layout_tl_category_count(l, t); k++)
            fprintf(out, "%s%u", k ? ", " : "", dgpb_layout_tl_category(l, t, k));
        fputc(']', out);
        KEY("fields");
        fputc('[', out);
        for (uint32_t k = 0; k < dgpb_layout_tl_field_count(l, t); k++) {
            fputs(k ? ", {\"var_layout\": " : "{\"var_layout\": ", out);
            pref(out, true, "", dgpb_layout_tl_field(l, t, k));
            fprintf(out, ", \"binding_range_offset\": %" PRId64 "}",
                    dgpb_layout_tl_field_binding_range_offset(l, t, k));
        }
        fputc(']', out);
        KEY("binding_ranges");
        fputc('[', out);
        for (int64_t k = 0; k < dgpb_layout_tl_binding_range_count(l, t); k++) {
            fprintf(out, "%s{\"type\": %u, \"binding_count\": %" PRId64 ", \"leaf_type_layout\": ",
                    k ? ", " : "", dgpb_layout_tl_binding_range_type(l, t, k),
                    dgpb_layout_tl_binding_range_binding_count(l, t, k));
            pref(out, true, "", dgpb_layout_tl_binding_range_leaf_type_layout(l, t, k));
            KEY("leaf_variable");
            pref(out, true, "", dgpb_layout_tl_binding_range_leaf_variable(l, t, k));
            fprintf(out,
                    ", \"specializable\": %" PRId64 ", \"image_format\": %u, "
                    "\"descriptor_set_index\": %" PRId64 ", \"first_descriptor_range\": %" PRId64
                    ", \"descriptor_range_count\": %" PRId64 "}",
                    dgpb_layout_tl_binding_range_specializable(l, t, k),
                    dgpb_layout_tl_binding_range_image_format(l, t, k),
                    dgpb_layout_tl_binding_range_descriptor_set_index(l, t, k),
                    dgpb_layout_tl_binding_range_first_descriptor_range_index(l, t, k),
                    dgpb_layout_tl_binding_range_descriptor_range_count(l, t, k));
        }
        fputc(']', out);
        KEY("descriptor_sets");
        fputc('[', out);
        for (int64_t s = 0; s < dgpb_layout_tl_descriptor_set_count(l, t); s++) {
            fprintf(out, "%s{\"space_offset\": %" PRId64 ", \"ranges\": [", s ? ", " : "",
                    dgpb_layout_tl_descriptor_set_space_offset(l, t, s));
            for (int64_t r = 0; r < dgpb_layout_tl_descriptor_set_range_count(l, t, s); r++)
                fprintf(out,
                        "%s{\"index_offset\": %" PRId64 ", \"descriptor_count\": %" PRId64
                        ", \"type\": %u, \"category\": %u}",
                        r ? ", " : "", dgpb_layout_tl_descriptor_range_index_offset(l, t, s, r),
                        dgpb_layout_tl_descriptor_range_descriptor_count(l, t, s, r),
                        dgpb_layout_tl_descriptor_range_type(l, t, s, r),
                        dgpb_layout_tl_descriptor_range_category(l, t, s, r));
            fputs("]}", out);
        }
        fputc(']', out);
        KEY("sub_object_ranges");
        fputc('[', out);
        for (int64_t k = 0; k < dgpb_layout_tl_sub_object_range_count(l, t); k++) {
            fprintf(out,
                    "%s{\"binding_range_index\": %" PRId64 ", \"space_offset\": %" PRId64
                    ", \"offset\": ",
                    k ? ", " : "", dgpb_layout_tl_sub_object_range_binding_range_index(l, t, k),
                    dgpb_layout_tl_sub_object_range_space_offset(l, t, k));
            pref(out, true, "", dgpb_layout_tl_sub_object_range_offset(l, t, k));
            fputc('}', out);
        }
        fputs("]}", out);
    }
    fputs("]}\n", out);
}

int dump_layout_blob(FILE *out, const void *data, size_t size, const char *title, bool json,
                     dgpb_diag *diag)
{
    dgpb_layout *l = NULL;
    int rc = dgpb_layout_open(data, size, &l, diag);
    if (rc)
        return rc;
    if (json)
        print_json(out, l);
    else
        print_text(out, l, title);
    dgpb_layout_close(l);
    return DGPB_OK;
}

int dump_layout(FILE *out, const dgpb_bundle *b, const char *selector, bool json, dgpb_diag *diag)
{
    /* "TARGET/N" is "TARGET/layout/N". */
    char sel[256];
    const char *slash = strchr(selector, '/');
    if (slash && strncmp(slash + 1, "layout/", 7) != 0)
        snprintf(sel, sizeof sel, "%.*s/layout/%s", (int)(slash - selector), selector, slash + 1);
    else
        snprintf(sel, sizeof sel, "%s", selector);
    const dgpb_blob_ref *blob;
    const dgpb_target_view *t;
    int rc = dump_select(b, sel, &blob, &t, diag);
    if (!rc)
        rc = dgpb_blob_verify(blob, diag);
    if (!rc)
        rc = dump_layout_blob(out, blob->data, blob->size, sel, json, diag);
    return rc;
}
