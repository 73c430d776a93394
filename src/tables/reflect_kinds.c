/*
 * reflect_kinds.c - a reflected resource's kind, shape and WebGPU ID
 * (tables/reflect_kinds.h): the parameter kinds of docs/format.md from
 * Slang's resource types, and the refusals of the kinds a target's code
 * cannot bind.
 */
#include "tables/reflect_kinds.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dgpb/format.h"
#include "tables/reflect_json.h"

void reflect_refuse(dgpb_reflected_param *r, char *problem, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, n, fmt, ap);
    va_end(ap);
    r->kind = -1;
}

/*
 * A storage texture's format on wgsl where Slang names none: the one Slang's
 * WGSL gives its element type (float: r32float, float2: rg32float, float4:
 * rgba32float, uint: r32uint; DGPB_STORAGE_FORMAT's slang_type). The code's
 * format replaces it once the code is read (tables/params.c).
 */
static uint32_t wgsl_storage_format(uint32_t shape, const cJSON *t)
{
    static const struct {
        const char *name, *slang_type;
    } formats[] = {
#define DGPB_STORAGE_FORMAT(ID, name, WEBGPU, slang_format, slang_type) {name, slang_type},
#include "dgpb/vocabulary.def"
    };
    char type[64] = "";
    reflect_value_type_text(reflect_get(t, "resultType"), type, sizeof type);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(type, formats[i].slang_type)) {
            uint32_t f = dgpb_texel_format_from_name(formats[i].name, strlen(formats[i].name));
            return (shape & ~(DGPB_SHAPE_FORMAT_MASK | DGPB_SHAPE_SAMPLE_MASK)) |
                   f << DGPB_SHAPE_FORMAT_SHIFT |
                   dgpb_texel_format_sample_type(f) << DGPB_SHAPE_SAMPLE_SHIFT;
        }
    return shape;
}

void reflect_classify(const code_ops *code, const char *target, dgpb_reflected_param *r,
                      const cJSON *node, const cJSON *t, const char *shape, char *problem, size_t n)
{
    const char *kind = reflect_get_str(t, "kind");
    r->kind = -1;
    if (reflect_str_is(kind, "constantBuffer")) {
        r->kind = DGPB_KIND_UNIFORM_BUFFER;
    } else if (reflect_str_is(kind, "samplerState")) {
        r->kind = DGPB_KIND_SAMPLER;
    } else if (reflect_str_is(kind, "resource")) {
        const char *base_shape = reflect_get_str(t, "baseShape"),
                   *access = reflect_get_str(t, "access");
        bool rw = reflect_writable_access(access);
        if (cJSON_IsTrue(reflect_get(t, "combined"))) {
            r->kind = DGPB_KIND_TEXTURE_SAMPLER; /* Sampler2D, SamplerCube, ... */
        } else if (reflect_str_is(access, "append") || reflect_str_is(access, "consume")) {
            /* Two storage buffers on spirv: the elements, and a one-int counter at the next
               binding (reflect.c adds the counter's row). */
            r->kind = DGPB_KIND_RW_BUFFER;
            r->counted = true;
            if (code->webgpu)
                reflect_refuse(r, problem, n,
                               "%s has no %s form: Slang does not compile an append or consume "
                               "buffer for WebGPU; use a RWStructuredBuffer and a separate "
                               "RWStructuredBuffer<uint> counter with atomics, or leave %s out "
                               "of --targets",
                               shape, target, target);
            else if (code->memory_handles)
                reflect_refuse(r, problem, n,
                               "%s has no %s row: Slang's CUDA code keeps its counter inside the "
                               "buffer's handle, which no row can describe; use a "
                               "RWStructuredBuffer and a separate RWStructuredBuffer<uint> "
                               "counter, or leave %s out of --targets",
                               shape, target, target);
        } else if (reflect_str_is(base_shape, "structuredBuffer")) {
            r->kind = rw ? DGPB_KIND_RW_BUFFER : DGPB_KIND_BUFFER;
        } else if (reflect_str_is(base_shape, "byteAddressBuffer")) {
            r->kind = rw ? DGPB_KIND_RW_BYTE_BUFFER : DGPB_KIND_BYTE_BUFFER;
        } else if (reflect_str_is(base_shape, "texture1D") ||
                   reflect_str_is(base_shape, "texture2D") ||
                   reflect_str_is(base_shape, "texture3D") ||
                   reflect_str_is(base_shape, "textureCube")) {
            r->kind = rw ? DGPB_KIND_RW_TEXTURE : DGPB_KIND_TEXTURE;
        } else if (reflect_str_is(base_shape, "accelerationStructure")) {
            r->kind = DGPB_KIND_ACCELERATION_STRUCTURE;
        } else if (reflect_str_is(base_shape, "textureBuffer")) {
            /* Buffer<T>, RWBuffer<T>: a uniform or storage texel buffer (docs/format.md). */
            r->kind = rw ? DGPB_KIND_RW_TEXEL_BUFFER : DGPB_KIND_TEXEL_BUFFER;
            if (code->webgpu)
                reflect_refuse(r, problem, n,
                               "%s is a texel buffer, which has no %s binding (WebGPU has no texel "
                               "buffers); declare a %sStructuredBuffer<T> instead, or leave %s out "
                               "of --targets",
                               shape, target, rw ? "RW" : "", target);
            else if (code->memory_handles)
                reflect_refuse(
                    r, problem, n,
                    "%s is a texel buffer, which has no %s form (Slang's CUDA code reads "
                    "and writes nothing through it); declare a %sStructuredBuffer<T> "
                    "instead, or leave %s out of --targets",
                    shape, target, rw ? "RW" : "", target);
        } else {
            snprintf(problem, n, "%s is not a parameter kind of the format", shape);
        }
    } else {
        snprintf(problem, n, "%s is not a parameter kind of the format", shape);
    }
    if (r->kind >= 0 && dgpb_kind_has_shape((uint32_t)r->kind)) {
        r->shape_word = reflect_texture_shape(node, t);
        r->declared_format = DGPB_SHAPE_FORMAT_OF(r->shape_word);
    }
    if (r->kind == DGPB_KIND_RW_TEXTURE && code->webgpu && !DGPB_SHAPE_FORMAT_OF(r->shape_word))
        r->shape_word = wgsl_storage_format(r->shape_word, t);
    if (!code->webgpu || r->kind < 0)
        return;
    switch (r->kind) {
    case DGPB_KIND_UNIFORM_BUFFER:
        r->webgpu_layout = DGPB_WGPU_UNIFORM_BUFFER;
        break;
    case DGPB_KIND_BUFFER:
    case DGPB_KIND_BYTE_BUFFER:
        r->webgpu_layout = DGPB_WGPU_READ_ONLY_STORAGE_BUFFER;
        break;
    case DGPB_KIND_RW_BUFFER:
    case DGPB_KIND_RW_BYTE_BUFFER:
        r->webgpu_layout = DGPB_WGPU_STORAGE_BUFFER;
        break;
    case DGPB_KIND_SAMPLER:
    case DGPB_KIND_TEXTURE:
    case DGPB_KIND_TEXTURE_SAMPLER:
    case DGPB_KIND_RW_TEXTURE:
        /* Made from the row's shape, once the code has completed it (tables/params.c). */
        r->webgpu_layout = dgpb_webgpu_layout_for((uint32_t)r->kind, r->shape_word);
        break;
    default:
        r->webgpu_layout = DGPB_WGPU_NONE;
        break;
    }
}
