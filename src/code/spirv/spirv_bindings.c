/*
 * spirv_bindings.c - the bindings SPIR-V declares, from its analysis
 * (code/spirv/spirv_bindings.h): descriptors, push-constant blocks and
 * specialization constants.
 */
#include "code/spirv/spirv_bindings.h"

#include <assert.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"

static uint32_t spirv_class(const dgpb_spirv_var *v)
{
    switch (v->storage_class) {
    case DGPB_SPIRV_STORAGE_UNIFORM:
        return DGPB_CODE_UNIFORM_BLOCK;
    case DGPB_SPIRV_STORAGE_PUSH_CONSTANT:
        return DGPB_CODE_PUSH_CONSTANT;
    case DGPB_SPIRV_STORAGE_STORAGE_BUFFER:
        return DGPB_CODE_STORAGE_BUFFER;
    case DGPB_SPIRV_STORAGE_SHADER_RECORD:
        return DGPB_CODE_SHADER_RECORD;
    default:
        break;
    }
    switch (v->type_class) {
    case DGPB_SPIRV_TYPE_SAMPLED_IMAGE_ONLY:
        return v->image_multisampled ? DGPB_CODE_MULTISAMPLED_TEXTURE : DGPB_CODE_TEXTURE;
    case DGPB_SPIRV_TYPE_STORAGE_IMAGE:
        return DGPB_CODE_STORAGE_TEXTURE;
    case DGPB_SPIRV_TYPE_TEXEL_BUFFER:
        return v->image_sampled == 2 ? DGPB_CODE_STORAGE_TEXEL_BUFFER : DGPB_CODE_TEXEL_BUFFER;
    case DGPB_SPIRV_TYPE_INPUT_ATTACHMENT:
        return DGPB_CODE_INPUT_ATTACHMENT;
    case DGPB_SPIRV_TYPE_SAMPLER:
        return DGPB_CODE_SAMPLER;
    case DGPB_SPIRV_TYPE_COMBINED:
        return DGPB_CODE_COMBINED;
    case DGPB_SPIRV_TYPE_ACCELERATION_STRUCTURE:
        return DGPB_CODE_ACCELERATION_STRUCTURE;
    default:
        return DGPB_CODE_OTHER;
    }
}

/* The shape word of an image, sampler or sampled-image variable; 0 for any other. */
static uint32_t spirv_shape(const dgpb_spirv_var *v)
{
    static const int32_t dims[DGPB_DIM_COUNT] = {
#define DGPB_SHAPE_DIM(ID, value, name, spirv_dim, wgsl) [value] = spirv_dim,
#include "dgpb/vocabulary.def"
    };
    uint32_t compared = v->compared ? DGPB_SHAPE_COMPARISON : 0;
    switch (v->type_class) {
    case DGPB_SPIRV_TYPE_SAMPLER:
        return compared;
    case DGPB_SPIRV_TYPE_SAMPLED_IMAGE_ONLY:
    case DGPB_SPIRV_TYPE_STORAGE_IMAGE:
    case DGPB_SPIRV_TYPE_COMBINED:
    case DGPB_SPIRV_TYPE_TEXEL_BUFFER:
    case DGPB_SPIRV_TYPE_INPUT_ATTACHMENT:
        break;
    default:
        return 0;
    }
    uint32_t shape = 0;
    for (uint32_t d = 1; d < DGPB_DIM_COUNT; d++)
        if (dims[d] == (int32_t)v->image_dim)
            shape = d;
    if (!shape)
        return 0;
    shape |= (v->image_arrayed ? DGPB_SHAPE_ARRAYED : 0) |
             (v->image_multisampled ? DGPB_SHAPE_MULTISAMPLED : 0);
    /* A texel buffer states its texel format (Unknown when a host chooses it), an input
       attachment its attachment index; neither is a depth image. */
    if (v->type_class == DGPB_SPIRV_TYPE_INPUT_ATTACHMENT)
        return shape | v->image_sample << DGPB_SHAPE_SAMPLE_SHIFT |
               (v->input_attachment >= 0 && v->input_attachment <= DGPB_SHAPE_ATTACHMENT_MAX
                    ? (uint32_t)v->input_attachment << DGPB_SHAPE_ATTACHMENT_SHIFT
                    : 0);
    if (v->type_class == DGPB_SPIRV_TYPE_STORAGE_IMAGE ||
        v->type_class == DGPB_SPIRV_TYPE_TEXEL_BUFFER)
        return shape | v->image_sample << DGPB_SHAPE_SAMPLE_SHIFT |
               (dgpb_texel_format_name(v->image_format) ? v->image_format : 0)
                   << DGPB_SHAPE_FORMAT_SHIFT;
    /* A texture compared with a depth reference, or declared a depth image, is a depth texture;
       a combined one's sampler compares. */
    uint32_t sample = v->image_depth || v->compared ? DGPB_SAMPLE_DEPTH : v->image_sample;
    if (v->type_class == DGPB_SPIRV_TYPE_COMBINED)
        shape |= compared;
    return shape | sample << DGPB_SHAPE_SAMPLE_SHIFT;
}

int code_bindings_from_spirv(const dgpb_spirv_info *info, dgpb_code_bindings *out, dgpb_diag *diag)
{
    assert(info && out);
    memset(out, 0, sizeof *out);
    if (!info->var_count && !info->spec_constant_count)
        return DGPB_OK;
    out->items = mem_calloc(info->var_count + info->spec_constant_count, sizeof *out->items);
    if (!out->items)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    for (size_t i = 0; i < info->var_count; i++) {
        const dgpb_spirv_var *v = &info->vars[i];
        bool push = v->storage_class == DGPB_SPIRV_STORAGE_PUSH_CONSTANT;
        bool record = v->storage_class == DGPB_SPIRV_STORAGE_SHADER_RECORD;
        bool decorated = v->set >= 0 || v->binding >= 0;
        if (!v->in_interface || !(push || record || decorated))
            continue;
        dgpb_code_binding *c = &out->items[out->count++];
        c->name = v->name;
        c->space = push ? -1 : record ? DGPB_SPACE_SHADER_RECORD : v->set;
        c->binding = push ? -1 : record ? 0 : v->binding;
        c->cls = spirv_class(v);
        c->writable = v->type_class == DGPB_SPIRV_TYPE_STORAGE_IMAGE ||
                      (v->type_class == DGPB_SPIRV_TYPE_TEXEL_BUFFER && v->image_sampled == 2);
        c->is_array = v->is_array;
        c->block_size = v->block_size;
        c->scalar_block_size = v->scalar_block_size;
        c->members = v->members;
        c->member_count = v->member_count;
        c->element_stride = v->element_stride;
        c->array_length = v->array_length;
        c->shape = spirv_shape(v);
        c->attachment_stated =
            v->type_class == DGPB_SPIRV_TYPE_INPUT_ATTACHMENT && v->input_attachment >= 0;
    }
    for (size_t i = 0; i < info->spec_constant_count; i++) {
        const dgpb_spirv_spec_constant *k = &info->spec_constants[i];
        dgpb_code_binding *c = &out->items[out->count++];
        c->name = k->name ? k->name : "";
        c->space = DGPB_SPACE_PIPELINE_CONSTANT;
        c->binding = k->spec_id;
        c->cls = DGPB_CODE_PIPELINE_CONSTANT;
        c->block_size = k->size;
    }
    return DGPB_OK;
}

/* The byte size of a WGSL override's scalar type: f16 2, the other scalars 4; 0 unknown. */
