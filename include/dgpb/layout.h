/*
 * dgpb/layout.h - recorded pipeline layouts, replayed without Slang.
 *
 * A native host creates a pipeline from a bundle without a Slang compiler:
 * its RHI asks the same reflection questions it would ask Slang, and this
 * library answers them from a layout blob recorded at build time, one per
 * pipeline group and target (docs/layout.md). Every answer in a blob is
 * Slang's own, obtained by calling Slang's reflection API while recording;
 * nothing is recomputed, so Slang's remapping of parameter categories and
 * its 0/NULL answers for out-of-range questions come back exactly.
 *
 * Recording (dgpb-slang-layout; declared in dgpb/layout_record.h, part of
 * the producer library, not of the reader) needs a native libslang, loaded
 * at run time:
 *
 *     dgpb_slang_desc sd = {.library = opt_slang_lib};      (0: its lookup order)
 *     dgpb_slang *slang;
 *     if (dgpb_slang_open(&sd, &slang, &diag))               (DGPB_ERR_UNSUPPORTED: none)
 *         fail(diag.message);
 *     uint8_t *blob; size_t size;
 *     dgpb_layout_record(slang, args, nargs, &blob, &size, &diag);
 *     dgpb_free(blob);
 *     dgpb_slang_close(slang);
 *
 * Replaying:
 *
 *     dgpb_layout *l;
 *     if (dgpb_layout_open(bytes, size, &l, &diag))           (validates everything)
 *         fail(diag.message);
 *     dgpb_layout_ref tl = dgpb_layout_global_type_layout(l);
 *     int64_t n = dgpb_layout_tl_binding_range_count(l, tl);
 *     ...
 *     dgpb_layout_close(l);
 *
 * Objects are named by dgpb_layout_ref, an index into the blob's table of
 * that kind; DGPB_LAYOUT_NULL (-1) is Slang's NULL. A ref out of its table's
 * range is treated as NULL. The same Slang object is always the same ref:
 * the recorder stores each object it meets once, so asking twice gives the
 * same answer. Every query function takes the same arguments as Slang's
 * spReflection* function of the same meaning (noted beside it) and returns
 * what Slang returned, with Slang's answer for a NULL object or an index out
 * of range (0, NULL or DGPB_LAYOUT_NULL); where Slang would read out of
 * bounds (a field index past the end), the answer is 0 or NULL.
 *
 * Strings returned by queries point into the blob, are NUL-terminated and
 * live as long as the caller's bytes. The bytes are borrowed: they must stay
 * alive and unchanged until dgpb_layout_close().
 */
#ifndef DGPB_LAYOUT_H
#define DGPB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DGPB_LAYOUT_FORMAT_VERSION 1u
/* Per-category answers are recorded for categories below this; above it every answer is the
 * one Slang gave for a category it does not know (docs/layout.md, "Categories"). */
#define DGPB_LAYOUT_CATEGORY_PROBE 64u
#define DGPB_LAYOUT_MAX_STRING 4096u        /* bytes in one string */
#define DGPB_LAYOUT_MAX_OBJECTS 0x7FFFFFFFu /* rows in one table */
#define DGPB_LAYOUT_NULL (-1)

/* The pipeline group a layout belongs to, from its entries' stages. */
typedef enum dgpb_layout_group {
    DGPB_LAYOUT_GROUP_COMPUTE = 0,     /* one compute entry */
    DGPB_LAYOUT_GROUP_RENDER = 1,      /* rasterisation stages only */
    DGPB_LAYOUT_GROUP_RAY_TRACING = 2, /* ray-tracing stages only */
    DGPB_LAYOUT_GROUP_OTHER = 3,       /* anything else (mixed stages, no entries) */
} dgpb_layout_group;

/* "compute", "render", "ray_tracing", "other"; NULL for an unknown value. */
const char *dgpb_layout_group_name(uint32_t group);

/* ---- replaying ---- */

typedef int32_t dgpb_layout_ref;
typedef struct dgpb_layout dgpb_layout;

/* The kinds of objects, for dgpb_layout_object_count(). */
typedef enum dgpb_layout_kind {
    DGPB_LAYOUT_TYPE = 0,
    DGPB_LAYOUT_VARIABLE = 1,
    DGPB_LAYOUT_TYPE_LAYOUT = 2,
    DGPB_LAYOUT_VAR_LAYOUT = 3,
    DGPB_LAYOUT_ENTRY_POINT = 4,
} dgpb_layout_kind;

/*
 * Validates `size` bytes at `data` as strictly as the bundle reader (every
 * count, reference and list in range and laid out in order, strings
 * NUL-terminated UTF-8, the containment graph acyclic, nothing after the
 * last table; docs/layout.md, "What the reader checks") and stores a handle
 * in *out. DGPB_ERR_CORRUPT_* with the byte offset on failure (*out NULL);
 * DGPB_ERR_NOMEM. The bytes are borrowed.
 */
int dgpb_layout_open(const void *data, size_t size, dgpb_layout **out, dgpb_diag *diag);

/* Releases the handle (never the caller's bytes). NULL is a no-op. */
void dgpb_layout_close(dgpb_layout *l);

/* Header. */
uint32_t dgpb_layout_format_version(const dgpb_layout *l);
const char *dgpb_layout_slang_version(const dgpb_layout *l);
const char *dgpb_layout_target(const dgpb_layout *l);
uint32_t dgpb_layout_group_kind(const dgpb_layout *l); /* dgpb_layout_group */
uint32_t dgpb_layout_option_count(const dgpb_layout *l);
const char *dgpb_layout_option(const dgpb_layout *l, uint32_t index); /* NULL out of range */
uint32_t dgpb_layout_object_count(const dgpb_layout *l, dgpb_layout_kind kind);

/* Program (spReflection_*). */
dgpb_layout_ref dgpb_layout_global_var_layout(const dgpb_layout *l); /* getGlobalParamsVarLayout */
dgpb_layout_ref
dgpb_layout_global_type_layout(const dgpb_layout *l); /* getGlobalParamsTypeLayout */
uint32_t
dgpb_layout_specialization_param_count(const dgpb_layout *l); /* GetTypeParameterCount: 0 */
uint64_t dgpb_layout_entry_point_count(const dgpb_layout *l); /* getEntryPointCount */
dgpb_layout_ref dgpb_layout_entry_point(const dgpb_layout *l, uint64_t index); /* ...ByIndex */

/* Entry point (spReflectionEntryPoint_*). */
const char *dgpb_layout_ep_name(const dgpb_layout *l, dgpb_layout_ref ep);
const char *dgpb_layout_ep_name_override(const dgpb_layout *l, dgpb_layout_ref ep);
uint32_t dgpb_layout_ep_stage(const dgpb_layout *l, dgpb_layout_ref ep); /* SlangStage */
dgpb_layout_ref dgpb_layout_ep_var_layout(const dgpb_layout *l, dgpb_layout_ref ep);
/* The entry's type layout: Slang's answer for the type layout of its variable layout. */
dgpb_layout_ref dgpb_layout_ep_type_layout(const dgpb_layout *l, dgpb_layout_ref ep);
/* getComputeThreadGroupSize: fills `axis_count` axes (beyond 3: 1); NULL entry: nothing. */
void dgpb_layout_ep_thread_group_size(const dgpb_layout *l, dgpb_layout_ref ep, uint64_t axis_count,
                                      uint64_t *out);
uint32_t dgpb_layout_ep_parameter_count(const dgpb_layout *l, dgpb_layout_ref ep);
dgpb_layout_ref dgpb_layout_ep_parameter(const dgpb_layout *l, dgpb_layout_ref ep, uint32_t index);

/* Variable layout (spReflectionVariableLayout_*, spReflectionParameter_*). */
dgpb_layout_ref dgpb_layout_vl_type_layout(const dgpb_layout *l, dgpb_layout_ref vl);
dgpb_layout_ref dgpb_layout_vl_variable(const dgpb_layout *l, dgpb_layout_ref vl);
uint64_t dgpb_layout_vl_offset(const dgpb_layout *l, dgpb_layout_ref vl, uint32_t category);
uint64_t dgpb_layout_vl_space(const dgpb_layout *l, dgpb_layout_ref vl, uint32_t category);
uint32_t dgpb_layout_vl_binding_index(const dgpb_layout *l, dgpb_layout_ref vl);
uint32_t dgpb_layout_vl_binding_space(const dgpb_layout *l, dgpb_layout_ref vl);

/* Type layout (spReflectionTypeLayout_*). */
dgpb_layout_ref dgpb_layout_tl_type(const dgpb_layout *l, dgpb_layout_ref tl);
uint32_t dgpb_layout_tl_kind(const dgpb_layout *l, dgpb_layout_ref tl); /* SlangTypeKind */
uint64_t dgpb_layout_tl_size(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t category);
uint64_t dgpb_layout_tl_stride(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t category);
uint64_t dgpb_layout_tl_element_stride(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t category);
uint32_t dgpb_layout_tl_parameter_category(const dgpb_layout *l, dgpb_layout_ref tl);
uint32_t dgpb_layout_tl_category_count(const dgpb_layout *l, dgpb_layout_ref tl);
uint32_t dgpb_layout_tl_category(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t index);
dgpb_layout_ref dgpb_layout_tl_element_type_layout(const dgpb_layout *l, dgpb_layout_ref tl);
dgpb_layout_ref dgpb_layout_tl_element_var_layout(const dgpb_layout *l, dgpb_layout_ref tl);
dgpb_layout_ref dgpb_layout_tl_container_var_layout(const dgpb_layout *l, dgpb_layout_ref tl);
dgpb_layout_ref dgpb_layout_tl_explicit_counter(const dgpb_layout *l, dgpb_layout_ref tl);
int64_t dgpb_layout_tl_explicit_counter_binding_range_offset(const dgpb_layout *l,
                                                             dgpb_layout_ref tl);
uint32_t dgpb_layout_tl_field_count(const dgpb_layout *l, dgpb_layout_ref tl);
dgpb_layout_ref dgpb_layout_tl_field(const dgpb_layout *l, dgpb_layout_ref tl, uint32_t index);
int64_t dgpb_layout_tl_field_binding_range_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                  int64_t field);
int64_t dgpb_layout_tl_binding_range_count(const dgpb_layout *l, dgpb_layout_ref tl);
uint32_t dgpb_layout_tl_binding_range_type(const dgpb_layout *l, dgpb_layout_ref tl, int64_t i);
int64_t dgpb_layout_tl_binding_range_binding_count(const dgpb_layout *l, dgpb_layout_ref tl,
                                                   int64_t i);
dgpb_layout_ref dgpb_layout_tl_binding_range_leaf_type_layout(const dgpb_layout *l,
                                                              dgpb_layout_ref tl, int64_t i);
dgpb_layout_ref dgpb_layout_tl_binding_range_leaf_variable(const dgpb_layout *l, dgpb_layout_ref tl,
                                                           int64_t i);
int64_t dgpb_layout_tl_binding_range_specializable(const dgpb_layout *l, dgpb_layout_ref tl,
                                                   int64_t i);
uint32_t dgpb_layout_tl_binding_range_image_format(const dgpb_layout *l, dgpb_layout_ref tl,
                                                   int64_t i);
int64_t dgpb_layout_tl_binding_range_descriptor_set_index(const dgpb_layout *l, dgpb_layout_ref tl,
                                                          int64_t i);
int64_t dgpb_layout_tl_binding_range_first_descriptor_range_index(const dgpb_layout *l,
                                                                  dgpb_layout_ref tl, int64_t i);
int64_t dgpb_layout_tl_binding_range_descriptor_range_count(const dgpb_layout *l,
                                                            dgpb_layout_ref tl, int64_t i);
int64_t dgpb_layout_tl_descriptor_set_count(const dgpb_layout *l, dgpb_layout_ref tl);
int64_t dgpb_layout_tl_descriptor_set_space_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                   int64_t set);
int64_t dgpb_layout_tl_descriptor_set_range_count(const dgpb_layout *l, dgpb_layout_ref tl,
                                                  int64_t set);
int64_t dgpb_layout_tl_descriptor_range_index_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                     int64_t set, int64_t range);
int64_t dgpb_layout_tl_descriptor_range_descriptor_count(const dgpb_layout *l, dgpb_layout_ref tl,
                                                         int64_t set, int64_t range);
uint32_t dgpb_layout_tl_descriptor_range_type(const dgpb_layout *l, dgpb_layout_ref tl, int64_t set,
                                              int64_t range);
uint32_t dgpb_layout_tl_descriptor_range_category(const dgpb_layout *l, dgpb_layout_ref tl,
                                                  int64_t set, int64_t range);
int64_t dgpb_layout_tl_sub_object_range_count(const dgpb_layout *l, dgpb_layout_ref tl);
int64_t dgpb_layout_tl_sub_object_range_binding_range_index(const dgpb_layout *l,
                                                            dgpb_layout_ref tl, int64_t i);
int64_t dgpb_layout_tl_sub_object_range_space_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                     int64_t i);
dgpb_layout_ref dgpb_layout_tl_sub_object_range_offset(const dgpb_layout *l, dgpb_layout_ref tl,
                                                       int64_t i);

/* Type (spReflectionType_*). */
uint32_t dgpb_layout_type_kind(const dgpb_layout *l, dgpb_layout_ref t);
const char *dgpb_layout_type_name(const dgpb_layout *l, dgpb_layout_ref t);
dgpb_layout_ref dgpb_layout_type_element_type(const dgpb_layout *l, dgpb_layout_ref t);
uint64_t dgpb_layout_type_element_count(const dgpb_layout *l, dgpb_layout_ref t);
uint32_t dgpb_layout_type_row_count(const dgpb_layout *l, dgpb_layout_ref t);
uint32_t dgpb_layout_type_column_count(const dgpb_layout *l, dgpb_layout_ref t);
uint32_t dgpb_layout_type_scalar_type(const dgpb_layout *l, dgpb_layout_ref t);
uint32_t dgpb_layout_type_resource_shape(const dgpb_layout *l, dgpb_layout_ref t);
uint32_t dgpb_layout_type_resource_access(const dgpb_layout *l, dgpb_layout_ref t);
dgpb_layout_ref dgpb_layout_type_resource_result_type(const dgpb_layout *l, dgpb_layout_ref t);

/* Variable (spReflectionVariable_*). */
const char *dgpb_layout_var_name(const dgpb_layout *l, dgpb_layout_ref v);
dgpb_layout_ref dgpb_layout_var_type(const dgpb_layout *l, dgpb_layout_ref v);
uint32_t dgpb_layout_var_user_attribute_count(const dgpb_layout *l, dgpb_layout_ref v);
/* spReflectionUserAttribute_GetName of the attribute at `index`; NULL out of range. */
const char *dgpb_layout_var_user_attribute_name(const dgpb_layout *l, dgpb_layout_ref v,
                                                uint32_t index);

#ifdef __cplusplus
}
#endif

#endif
