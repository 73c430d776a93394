/*
 * shim_reflect.c - the spReflection* functions of Slang's C ABI, answered
 * from a layout blob (docs/layout.md, "The replay shim").
 *
 * Each function has Slang's exported name and prototype (as declared in
 * layout/slang_api.h) and returns what the replay library returns for the
 * same question: the answer the recorder got from Slang. A NULL object gets
 * Slang's answer for NULL (0, NULL, -1 for a field index). The one question
 * answered without a recorded answer, findFieldIndexByName, is computed as
 * Slang computes it (source/slang/slang-reflection-api.cpp): the index of the
 * first field whose variable has that name, -1 for none or for a type layout
 * without fields.
 */
#include <string.h>

#include "layout/slang_api.h"
#include "shim/shim.h"

/* Slang's functions beyond layout/slang_api.h's list (slang.h's prototypes). */
SlangInt spReflectionTypeLayout_findFieldIndexByName(SlangReflectionTypeLayout *tl,
                                                     const char *name_begin, const char *name_end);
SlangInt spReflectionType_getSpecializedTypeArgCount(SlangReflectionType *type);
SlangReflectionType *spReflectionType_getSpecializedTypeArgType(SlangReflectionType *type,
                                                                SlangInt index);
SlangReflectionType *spReflection_FindTypeByName(SlangReflection *reflection, const char *name);
size_t spReflectionType_GetSpecializedElementCount(SlangReflectionType *type,
                                                   SlangReflection *reflection);
/*
 * spReflection_GetSession is declared in slang-deprecated.h outside its
 * extern "C" block: libslang exports it under its C++ name, and C++ callers
 * (slang::ProgramLayout::getSession) link against that name.
 */
void *shim_reflection_session(SlangReflection *reflection) __asm__(
    "_Z23spReflection_GetSessionP18SlangProgramLayout");

/* SlangTypeKind of an existential specialized type, the only kind with specialization arguments. */
#define SHIM_TYPE_KIND_SPECIALIZED 16u

/* The shim's object behind a reflection pointer; its layout and ref. */
#define OBJ(ptr) ((const shim_obj *)(const void *)(ptr))
#define L(o) ((o)->program->layout)
#define OUT(o, kind, ref) ((void *)shim_obj_of((o)->program, (kind), (ref)))

/* A question about an object: `expr` answers it for `o`, `none` is Slang's answer for NULL. */
#define ASK(ptr, none, expr)                                                                       \
    do {                                                                                           \
        shim_asked(__func__);                                                                      \
        const shim_obj *o = OBJ(ptr);                                                              \
        if (!o)                                                                                    \
            return none;                                                                           \
        return expr;                                                                               \
    } while (0)

/* The program: a SlangReflection * is the shim_program. */
static shim_program *program_of(SlangReflection *r)
{
    shim_program *p = (shim_program *)(void *)r;
    return p && p->magic == SHIM_PROGRAM_MAGIC ? p : NULL;
}

SHIM_EXPORT unsigned int spReflection_GetTypeParameterCount(SlangReflection *reflection)
{
    shim_asked(__func__);
    shim_program *p = program_of(reflection);
    return p ? dgpb_layout_specialization_param_count(p->layout) : 0;
}

SHIM_EXPORT SlangReflectionVariableLayout *
spReflection_getGlobalParamsVarLayout(SlangReflection *reflection)
{
    shim_asked(__func__);
    shim_program *p = program_of(reflection);
    if (!p)
        return NULL;
    return (void *)shim_obj_of(p, DGPB_LAYOUT_VAR_LAYOUT, dgpb_layout_global_var_layout(p->layout));
}

SHIM_EXPORT SlangReflectionTypeLayout *
spReflection_getGlobalParamsTypeLayout(SlangReflection *reflection)
{
    shim_asked(__func__);
    shim_program *p = program_of(reflection);
    if (!p)
        return NULL;
    return (void *)shim_obj_of(p, DGPB_LAYOUT_TYPE_LAYOUT,
                               dgpb_layout_global_type_layout(p->layout));
}

SHIM_EXPORT SlangUInt spReflection_getEntryPointCount(SlangReflection *reflection)
{
    shim_asked(__func__);
    shim_program *p = program_of(reflection);
    return p ? (SlangUInt)dgpb_layout_entry_point_count(p->layout) : 0;
}

SHIM_EXPORT SlangReflectionEntryPoint *
spReflection_getEntryPointByIndex(SlangReflection *reflection, SlangUInt index)
{
    shim_asked(__func__);
    shim_program *p = program_of(reflection);
    if (!p)
        return NULL;
    return (void *)shim_obj_of(p, DGPB_LAYOUT_ENTRY_POINT,
                               dgpb_layout_entry_point(p->layout, (uint64_t)index));
}

/*
 * Not recorded and not answerable from the blob: Slang parses `name` as a type
 * expression in the program's scope, which may name a type no layout holds.
 */
SHIM_EXPORT SlangReflectionType *spReflection_FindTypeByName(SlangReflection *reflection,
                                                             const char *name)
{
    (void)reflection;
    (void)name;
    shim_unanswered(__func__);
}

/* The program's session: the shim's one session (shim_com.c). */
SHIM_EXPORT void *shim_reflection_session(SlangReflection *reflection)
{
    shim_asked("spReflection_GetSession");
    return program_of(reflection) ? shim_session() : NULL;
}

/* ---- entry point ---- */

SHIM_EXPORT const char *spReflectionEntryPoint_getName(SlangReflectionEntryPoint *entry)
{
    ASK(entry, NULL, dgpb_layout_ep_name(L(o), o->ref));
}

SHIM_EXPORT const char *spReflectionEntryPoint_getNameOverride(SlangReflectionEntryPoint *entry)
{
    ASK(entry, NULL, dgpb_layout_ep_name_override(L(o), o->ref));
}

SHIM_EXPORT SlangStage spReflectionEntryPoint_getStage(SlangReflectionEntryPoint *entry)
{
    ASK(entry, DGPB_SLANG_STAGE_NONE, dgpb_layout_ep_stage(L(o), o->ref));
}

SHIM_EXPORT SlangReflectionVariableLayout *
spReflectionEntryPoint_getVarLayout(SlangReflectionEntryPoint *entry)
{
    ASK(entry, NULL, OUT(o, DGPB_LAYOUT_VAR_LAYOUT, dgpb_layout_ep_var_layout(L(o), o->ref)));
}

SHIM_EXPORT void spReflectionEntryPoint_getComputeThreadGroupSize(SlangReflectionEntryPoint *entry,
                                                                  SlangUInt axis_count,
                                                                  SlangUInt *out_size)
{
    shim_asked(__func__);
    const shim_obj *o = OBJ(entry);
    if (!o || !out_size)
        return;
    uint64_t sizes[3] = {0, 0, 0};
    uint64_t n = axis_count < 3 ? axis_count : 3;
    dgpb_layout_ep_thread_group_size(L(o), o->ref, n, sizes);
    for (uint64_t i = 0; i < n; i++)
        out_size[i] = (SlangUInt)sizes[i];
    for (uint64_t i = n; i < axis_count; i++)
        out_size[i] = 1;
}

SHIM_EXPORT unsigned spReflectionEntryPoint_getParameterCount(SlangReflectionEntryPoint *entry)
{
    ASK(entry, 0, dgpb_layout_ep_parameter_count(L(o), o->ref));
}

SHIM_EXPORT SlangReflectionVariableLayout *
spReflectionEntryPoint_getParameterByIndex(SlangReflectionEntryPoint *entry, unsigned index)
{
    ASK(entry, NULL, OUT(o, DGPB_LAYOUT_VAR_LAYOUT, dgpb_layout_ep_parameter(L(o), o->ref, index)));
}

/* ---- variable layout ---- */

SHIM_EXPORT SlangReflectionTypeLayout *
spReflectionVariableLayout_GetTypeLayout(SlangReflectionVariableLayout *var)
{
    ASK(var, NULL, OUT(o, DGPB_LAYOUT_TYPE_LAYOUT, dgpb_layout_vl_type_layout(L(o), o->ref)));
}

SHIM_EXPORT SlangReflectionVariable *
spReflectionVariableLayout_GetVariable(SlangReflectionVariableLayout *var)
{
    ASK(var, NULL, OUT(o, DGPB_LAYOUT_VARIABLE, dgpb_layout_vl_variable(L(o), o->ref)));
}

SHIM_EXPORT size_t spReflectionVariableLayout_GetOffset(SlangReflectionVariableLayout *var,
                                                        SlangParameterCategory category)
{
    ASK(var, 0, (size_t)dgpb_layout_vl_offset(L(o), o->ref, category));
}

SHIM_EXPORT size_t spReflectionVariableLayout_GetSpace(SlangReflectionVariableLayout *var,
                                                       SlangParameterCategory category)
{
    ASK(var, 0, (size_t)dgpb_layout_vl_space(L(o), o->ref, category));
}

SHIM_EXPORT unsigned spReflectionParameter_GetBindingIndex(SlangReflectionParameter *parameter)
{
    ASK(parameter, 0, dgpb_layout_vl_binding_index(L(o), o->ref));
}

SHIM_EXPORT unsigned spReflectionParameter_GetBindingSpace(SlangReflectionParameter *parameter)
{
    ASK(parameter, 0, dgpb_layout_vl_binding_space(L(o), o->ref));
}

/* ---- type layout ---- */

SHIM_EXPORT SlangReflectionType *spReflectionTypeLayout_GetType(SlangReflectionTypeLayout *tl)
{
    ASK(tl, NULL, OUT(o, DGPB_LAYOUT_TYPE, dgpb_layout_tl_type(L(o), o->ref)));
}

SHIM_EXPORT SlangTypeKind spReflectionTypeLayout_getKind(SlangReflectionTypeLayout *tl)
{
    ASK(tl, 0, dgpb_layout_tl_kind(L(o), o->ref));
}

SHIM_EXPORT size_t spReflectionTypeLayout_GetSize(SlangReflectionTypeLayout *tl,
                                                  SlangParameterCategory category)
{
    ASK(tl, 0, (size_t)dgpb_layout_tl_size(L(o), o->ref, category));
}

SHIM_EXPORT size_t spReflectionTypeLayout_GetStride(SlangReflectionTypeLayout *tl,
                                                    SlangParameterCategory category)
{
    ASK(tl, 0, (size_t)dgpb_layout_tl_stride(L(o), o->ref, category));
}

SHIM_EXPORT size_t spReflectionTypeLayout_GetElementStride(SlangReflectionTypeLayout *tl,
                                                           SlangParameterCategory category)
{
    ASK(tl, 0, (size_t)dgpb_layout_tl_element_stride(L(o), o->ref, category));
}

SHIM_EXPORT SlangParameterCategory
spReflectionTypeLayout_GetParameterCategory(SlangReflectionTypeLayout *tl)
{
    ASK(tl, 0, dgpb_layout_tl_parameter_category(L(o), o->ref));
}

SHIM_EXPORT unsigned spReflectionTypeLayout_GetCategoryCount(SlangReflectionTypeLayout *tl)
{
    ASK(tl, 0, dgpb_layout_tl_category_count(L(o), o->ref));
}

SHIM_EXPORT SlangParameterCategory
spReflectionTypeLayout_GetCategoryByIndex(SlangReflectionTypeLayout *tl, unsigned index)
{
    ASK(tl, 0, dgpb_layout_tl_category(L(o), o->ref, index));
}

SHIM_EXPORT SlangReflectionTypeLayout *
spReflectionTypeLayout_GetElementTypeLayout(SlangReflectionTypeLayout *tl)
{
    ASK(tl, NULL,
        OUT(o, DGPB_LAYOUT_TYPE_LAYOUT, dgpb_layout_tl_element_type_layout(L(o), o->ref)));
}

SHIM_EXPORT SlangReflectionVariableLayout *
spReflectionTypeLayout_GetElementVarLayout(SlangReflectionTypeLayout *tl)
{
    ASK(tl, NULL, OUT(o, DGPB_LAYOUT_VAR_LAYOUT, dgpb_layout_tl_element_var_layout(L(o), o->ref)));
}

SHIM_EXPORT SlangReflectionVariableLayout *
spReflectionTypeLayout_getContainerVarLayout(SlangReflectionTypeLayout *tl)
{
    ASK(tl, NULL,
        OUT(o, DGPB_LAYOUT_VAR_LAYOUT, dgpb_layout_tl_container_var_layout(L(o), o->ref)));
}

SHIM_EXPORT SlangReflectionVariableLayout *
spReflectionTypeLayout_GetExplicitCounter(SlangReflectionTypeLayout *tl)
{
    ASK(tl, NULL, OUT(o, DGPB_LAYOUT_VAR_LAYOUT, dgpb_layout_tl_explicit_counter(L(o), o->ref)));
}

SHIM_EXPORT SlangInt
spReflectionTypeLayout_getExplicitCounterBindingRangeOffset(SlangReflectionTypeLayout *tl)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_explicit_counter_binding_range_offset(L(o), o->ref));
}

SHIM_EXPORT uint32_t spReflectionTypeLayout_GetFieldCount(SlangReflectionTypeLayout *tl)
{
    ASK(tl, 0, dgpb_layout_tl_field_count(L(o), o->ref));
}

SHIM_EXPORT SlangReflectionVariableLayout *
spReflectionTypeLayout_GetFieldByIndex(SlangReflectionTypeLayout *tl, unsigned index)
{
    ASK(tl, NULL, OUT(o, DGPB_LAYOUT_VAR_LAYOUT, dgpb_layout_tl_field(L(o), o->ref, index)));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getFieldBindingRangeOffset(
    SlangReflectionTypeLayout *tl, SlangInt field_index)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_field_binding_range_offset(L(o), o->ref, field_index));
}

/* Not recorded: answered from the recorded fields and their variables' names, as Slang does. */
SHIM_EXPORT SlangInt spReflectionTypeLayout_findFieldIndexByName(SlangReflectionTypeLayout *tl,
                                                                 const char *name_begin,
                                                                 const char *name_end)
{
    shim_asked(__func__);
    const shim_obj *o = OBJ(tl);
    if (!o || !name_begin)
        return -1;
    size_t len = name_end ? (size_t)(name_end - name_begin) : strlen(name_begin);
    uint32_t n = dgpb_layout_tl_field_count(L(o), o->ref);
    for (uint32_t f = 0; f < n; f++) {
        dgpb_layout_ref vl = dgpb_layout_tl_field(L(o), o->ref, f);
        const char *field = dgpb_layout_var_name(L(o), dgpb_layout_vl_variable(L(o), vl));
        if (field && strlen(field) == len && memcmp(field, name_begin, len) == 0)
            return (SlangInt)f;
    }
    return -1;
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getBindingRangeCount(SlangReflectionTypeLayout *tl)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_binding_range_count(L(o), o->ref));
}

SHIM_EXPORT SlangBindingType
spReflectionTypeLayout_getBindingRangeType(SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, 0, dgpb_layout_tl_binding_range_type(L(o), o->ref, index));
}

SHIM_EXPORT SlangInt
spReflectionTypeLayout_getBindingRangeBindingCount(SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_binding_range_binding_count(L(o), o->ref, index));
}

SHIM_EXPORT SlangReflectionTypeLayout *
spReflectionTypeLayout_getBindingRangeLeafTypeLayout(SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, NULL,
        OUT(o, DGPB_LAYOUT_TYPE_LAYOUT,
            dgpb_layout_tl_binding_range_leaf_type_layout(L(o), o->ref, index)));
}

SHIM_EXPORT SlangReflectionVariable *
spReflectionTypeLayout_getBindingRangeLeafVariable(SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, NULL,
        OUT(o, DGPB_LAYOUT_VARIABLE,
            dgpb_layout_tl_binding_range_leaf_variable(L(o), o->ref, index)));
}

SHIM_EXPORT SlangInt
spReflectionTypeLayout_isBindingRangeSpecializable(SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_binding_range_specializable(L(o), o->ref, index));
}

SHIM_EXPORT SlangImageFormat
spReflectionTypeLayout_getBindingRangeImageFormat(SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, DGPB_SLANG_IMAGE_FORMAT_UNKNOWN,
        dgpb_layout_tl_binding_range_image_format(L(o), o->ref, index));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getBindingRangeDescriptorSetIndex(
    SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_binding_range_descriptor_set_index(L(o), o->ref, index));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getBindingRangeFirstDescriptorRangeIndex(
    SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, 0,
        (SlangInt)dgpb_layout_tl_binding_range_first_descriptor_range_index(L(o), o->ref, index));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getBindingRangeDescriptorRangeCount(
    SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_binding_range_descriptor_range_count(L(o), o->ref, index));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getDescriptorSetCount(SlangReflectionTypeLayout *tl)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_descriptor_set_count(L(o), o->ref));
}

SHIM_EXPORT SlangInt
spReflectionTypeLayout_getDescriptorSetSpaceOffset(SlangReflectionTypeLayout *tl, SlangInt set)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_descriptor_set_space_offset(L(o), o->ref, set));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getDescriptorSetDescriptorRangeCount(
    SlangReflectionTypeLayout *tl, SlangInt set)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_descriptor_set_range_count(L(o), o->ref, set));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getDescriptorSetDescriptorRangeIndexOffset(
    SlangReflectionTypeLayout *tl, SlangInt set, SlangInt range)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_descriptor_range_index_offset(L(o), o->ref, set, range));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getDescriptorSetDescriptorRangeDescriptorCount(
    SlangReflectionTypeLayout *tl, SlangInt set, SlangInt range)
{
    ASK(tl, 0,
        (SlangInt)dgpb_layout_tl_descriptor_range_descriptor_count(L(o), o->ref, set, range));
}

SHIM_EXPORT SlangBindingType spReflectionTypeLayout_getDescriptorSetDescriptorRangeType(
    SlangReflectionTypeLayout *tl, SlangInt set, SlangInt range)
{
    ASK(tl, 0, dgpb_layout_tl_descriptor_range_type(L(o), o->ref, set, range));
}

SHIM_EXPORT SlangParameterCategory spReflectionTypeLayout_getDescriptorSetDescriptorRangeCategory(
    SlangReflectionTypeLayout *tl, SlangInt set, SlangInt range)
{
    ASK(tl, 0, dgpb_layout_tl_descriptor_range_category(L(o), o->ref, set, range));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getSubObjectRangeCount(SlangReflectionTypeLayout *tl)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_sub_object_range_count(L(o), o->ref));
}

SHIM_EXPORT SlangInt spReflectionTypeLayout_getSubObjectRangeBindingRangeIndex(
    SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_sub_object_range_binding_range_index(L(o), o->ref, index));
}

SHIM_EXPORT SlangInt
spReflectionTypeLayout_getSubObjectRangeSpaceOffset(SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, 0, (SlangInt)dgpb_layout_tl_sub_object_range_space_offset(L(o), o->ref, index));
}

SHIM_EXPORT SlangReflectionVariableLayout *
spReflectionTypeLayout_getSubObjectRangeOffset(SlangReflectionTypeLayout *tl, SlangInt index)
{
    ASK(tl, NULL,
        OUT(o, DGPB_LAYOUT_VAR_LAYOUT,
            dgpb_layout_tl_sub_object_range_offset(L(o), o->ref, index)));
}

/* ---- type ---- */

SHIM_EXPORT SlangTypeKind spReflectionType_GetKind(SlangReflectionType *type)
{
    ASK(type, 0, dgpb_layout_type_kind(L(o), o->ref));
}

SHIM_EXPORT const char *spReflectionType_GetName(SlangReflectionType *type)
{
    ASK(type, NULL, dgpb_layout_type_name(L(o), o->ref));
}

SHIM_EXPORT SlangReflectionType *spReflectionType_GetElementType(SlangReflectionType *type)
{
    ASK(type, NULL, OUT(o, DGPB_LAYOUT_TYPE, dgpb_layout_type_element_type(L(o), o->ref)));
}

SHIM_EXPORT size_t spReflectionType_GetElementCount(SlangReflectionType *type)
{
    ASK(type, 0, (size_t)dgpb_layout_type_element_count(L(o), o->ref));
}

/*
 * The element count with a program to fold link-time constants in: a layout is
 * recorded for a fully specialized, linked program, whose element counts are
 * the recorded ones (spReflectionType_GetElementCount is this function with no
 * program).
 */
SHIM_EXPORT size_t spReflectionType_GetSpecializedElementCount(SlangReflectionType *type,
                                                               SlangReflection *reflection)
{
    (void)reflection;
    ASK(type, 0, (size_t)dgpb_layout_type_element_count(L(o), o->ref));
}

SHIM_EXPORT unsigned int spReflectionType_GetRowCount(SlangReflectionType *type)
{
    ASK(type, 0, dgpb_layout_type_row_count(L(o), o->ref));
}

SHIM_EXPORT unsigned int spReflectionType_GetColumnCount(SlangReflectionType *type)
{
    ASK(type, 0, dgpb_layout_type_column_count(L(o), o->ref));
}

SHIM_EXPORT SlangScalarType spReflectionType_GetScalarType(SlangReflectionType *type)
{
    ASK(type, 0, dgpb_layout_type_scalar_type(L(o), o->ref));
}

SHIM_EXPORT SlangResourceShape spReflectionType_GetResourceShape(SlangReflectionType *type)
{
    ASK(type, 0, dgpb_layout_type_resource_shape(L(o), o->ref));
}

SHIM_EXPORT SlangResourceAccess spReflectionType_GetResourceAccess(SlangReflectionType *type)
{
    ASK(type, 0, dgpb_layout_type_resource_access(L(o), o->ref));
}

SHIM_EXPORT SlangReflectionType *spReflectionType_GetResourceResultType(SlangReflectionType *type)
{
    ASK(type, NULL, OUT(o, DGPB_LAYOUT_TYPE, dgpb_layout_type_resource_result_type(L(o), o->ref)));
}

/*
 * Not recorded: a type has specialization arguments only when it is an
 * existential specialized type (kind SLANG_TYPE_KIND_SPECIALIZED); for every
 * other type Slang answers 0 and NULL, and so does the shim. A specialized
 * type's arguments are not in the blob: asked about one, the shim stops.
 */
SHIM_EXPORT SlangInt spReflectionType_getSpecializedTypeArgCount(SlangReflectionType *type)
{
    shim_asked(__func__);
    const shim_obj *o = OBJ(type);
    if (!o)
        return 0;
    if (dgpb_layout_type_kind(L(o), o->ref) == SHIM_TYPE_KIND_SPECIALIZED)
        shim_unanswered("spReflectionType_getSpecializedTypeArgCount of a specialized type");
    return 0;
}

SHIM_EXPORT SlangReflectionType *
spReflectionType_getSpecializedTypeArgType(SlangReflectionType *type, SlangInt index)
{
    (void)index;
    shim_asked(__func__);
    const shim_obj *o = OBJ(type);
    if (!o)
        return NULL;
    if (dgpb_layout_type_kind(L(o), o->ref) == SHIM_TYPE_KIND_SPECIALIZED)
        shim_unanswered("spReflectionType_getSpecializedTypeArgType of a specialized type");
    return NULL;
}

/* ---- variable ---- */

SHIM_EXPORT const char *spReflectionVariable_GetName(SlangReflectionVariable *var)
{
    ASK(var, NULL, dgpb_layout_var_name(L(o), o->ref));
}

SHIM_EXPORT SlangReflectionType *spReflectionVariable_GetType(SlangReflectionVariable *var)
{
    ASK(var, NULL, OUT(o, DGPB_LAYOUT_TYPE, dgpb_layout_var_type(L(o), o->ref)));
}

SHIM_EXPORT unsigned int spReflectionVariable_GetUserAttributeCount(SlangReflectionVariable *var)
{
    ASK(var, 0, dgpb_layout_var_user_attribute_count(L(o), o->ref));
}

/*
 * A user attribute is named by its variable and index: the shim hands out the
 * attribute's name string itself (a pointer into the blob, unique per
 * attribute row), which spReflectionUserAttribute_GetName gives back.
 */
SHIM_EXPORT SlangReflectionUserAttribute *
spReflectionVariable_GetUserAttribute(SlangReflectionVariable *var, unsigned int index)
{
    ASK(var, NULL,
        (SlangReflectionUserAttribute *)(void *)dgpb_layout_var_user_attribute_name(L(o), o->ref,
                                                                                    index));
}

SHIM_EXPORT const char *spReflectionUserAttribute_GetName(SlangReflectionUserAttribute *attribute)
{
    shim_asked(__func__);
    return (const char *)(const void *)attribute;
}
