/*
 * reflect.c - Slang's reflection JSON to classified parameters (dgpb/reflect.h).
 *
 * The JSON shapes read here, as every Slang version since 2025 writes them:
 *
 *   { "parameters": [ { "name": N, "binding": B | "bindings": [B...], "type": T,
 *                       "format": "r32ui"? } ... ],
 *     "entryPoints": [ { "name": N, "stage": S, "threadGroupSize": [x, y, z] } ... ] }
 *   B = { "kind": "descriptorTableSlot" | "constantBuffer" | "shaderResource" |
 *                 "unorderedAccess" | "samplerState" | "uniform" | ...,
 *         "index": i, "space": s?, "offset": o, "size": n }
 *   T = { "kind": "resource", "baseShape": ..., "access": ..., "resultType": T }
 *     | { "kind": "constantBuffer", "elementType": { "kind": "struct", "fields": [...] } }
 *     | { "kind": "samplerState" } | { "kind": "scalar" | "vector" | "matrix" | ... }
 *
 * A descriptor binding gives space/binding directly; a "uniform" binding is a
 * byte range in a uniform block (a loose global's place in the implicit block
 * on every target, and every parameter's place in the global parameter block
 * on ptx, where `binding` is therefore the byte offset; docs/format.md).
 */
#include "dgpb/reflect.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dgpb/format.h"

/* The implicit block Slang gathers loose `uniform` globals into (its SPIR-V name). */
#define GLOBAL_BLOCK "globalParams"

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *get_str(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool get_u32(const cJSON *o, const char *key, uint32_t *out)
{
    const cJSON *v = get(o, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0)
        return false;
    *out = (uint32_t)v->valuedouble;
    return true;
}

static bool str_is(const char *s, const char *lit)
{
    return s && strcmp(s, lit) == 0;
}

/* A readable Slang spelling of a value type: float, uint2, float3x4, MyStruct. */
static void value_type_text(const cJSON *t, char *buf, size_t n)
{
    static const struct {
        const char *json, *slang;
    } scalars[] = {{"float32", "float"}, {"float16", "half"},    {"float64", "double"},
                   {"uint32", "uint"},   {"int32", "int"},       {"uint64", "uint64_t"},
                   {"int64", "int64_t"}, {"uint16", "uint16_t"}, {"int16", "int16_t"},
                   {"uint8", "uint8_t"}, {"int8", "int8_t"},     {"bool", "bool"}};
    const char *kind = get_str(t, "kind");
    if (str_is(kind, "scalar")) {
        const char *s = get_str(t, "scalarType");
        for (size_t i = 0; s && i < sizeof scalars / sizeof scalars[0]; i++)
            if (!strcmp(s, scalars[i].json)) {
                snprintf(buf, n, "%s", scalars[i].slang);
                return;
            }
        snprintf(buf, n, "%s", s ? s : "scalar");
    } else if (str_is(kind, "vector") || str_is(kind, "matrix")) {
        char elem[64];
        value_type_text(get(t, "elementType"), elem, sizeof elem);
        uint32_t a = 0, b = 0;
        if (str_is(kind, "vector") && get_u32(t, "elementCount", &a))
            snprintf(buf, n, "%s%u", elem, a);
        else if (get_u32(t, "rowCount", &a) && get_u32(t, "columnCount", &b))
            snprintf(buf, n, "%s%ux%u", elem, a, b);
        else
            snprintf(buf, n, "%s", elem);
    } else if (get_str(t, "name")) {
        snprintf(buf, n, "%s", get_str(t, "name"));
    } else {
        snprintf(buf, n, "%s", kind ? kind : "?");
    }
}

/* Resource shape names as Slang spells the types. */
static const char *shape_base(const char *base_shape)
{
    static const struct {
        const char *json, *slang;
    } shapes[] = {
        {"structuredBuffer", "StructuredBuffer"},
        {"byteAddressBuffer", "ByteAddressBuffer"},
        {"texture1D", "Texture1D"},
        {"texture2D", "Texture2D"},
        {"texture3D", "Texture3D"},
        {"textureCube", "TextureCube"},
        {"textureBuffer", "Buffer"},
        {"accelerationStructure", "RaytracingAccelerationStructure"},
    };
    for (size_t i = 0; base_shape && i < sizeof shapes / sizeof shapes[0]; i++)
        if (!strcmp(base_shape, shapes[i].json))
            return shapes[i].slang;
    return base_shape ? base_shape : "resource";
}

static bool is_writable_access(const char *access)
{
    return access && strcmp(access, "read") != 0;
}

/* The readable shape of a parameter's type, for messages and the JSON problem text. */
static void shape_text(const cJSON *t, char *buf, size_t n)
{
    const char *kind = get_str(t, "kind");
    if (str_is(kind, "resource")) {
        const char *base = get_str(t, "baseShape");
        const char *access = get_str(t, "access");
        bool array = cJSON_IsTrue(get(t, "array"));
        bool ms = cJSON_IsTrue(get(t, "multisample"));
        char result[64] = "";
        const cJSON *rt = get(t, "resultType");
        if (rt && !str_is(base, "byteAddressBuffer") && !str_is(base, "accelerationStructure")) {
            char inner[60];
            value_type_text(rt, inner, sizeof inner);
            snprintf(result, sizeof result, "<%s>", inner);
        }
        snprintf(buf, n, "%s%s%s%s%s", is_writable_access(access) ? "RW" : "", shape_base(base),
                 ms ? "MS" : "", array ? "Array" : "", result);
    } else if (str_is(kind, "constantBuffer")) {
        char inner[64];
        value_type_text(get(t, "elementType"), inner, sizeof inner);
        snprintf(buf, n, "ConstantBuffer<%s>", inner);
    } else if (str_is(kind, "parameterBlock")) {
        char inner[64];
        value_type_text(get(t, "elementType"), inner, sizeof inner);
        snprintf(buf, n, "ParameterBlock<%s>", inner);
    } else if (str_is(kind, "samplerState")) {
        snprintf(buf, n, "SamplerState");
    } else if (str_is(kind, "array")) {
        char inner[64];
        uint32_t count = 0;
        shape_text(get(t, "elementType"), inner, sizeof inner);
        if (get_u32(t, "elementCount", &count) && count)
            snprintf(buf, n, "%s[%u]", inner, count);
        else
            snprintf(buf, n, "%s[]", inner);
    } else {
        value_type_text(t, buf, n);
    }
}

/* The binding record that places a parameter: "binding", or the first non-uniform of "bindings". */
static const cJSON *binding_of(const cJSON *p)
{
    const cJSON *b = get(p, "binding");
    if (cJSON_IsObject(b))
        return b;
    const cJSON *list = get(p, "bindings"), *item, *first = NULL;
    cJSON_ArrayForEach(item, list)
    {
        if (!first)
            first = item;
        if (!str_is(get_str(item, "kind"), "uniform"))
            return item;
    }
    return first;
}

typedef struct place {
    bool uniform; /* a byte range in a uniform block */
    uint32_t space, binding, offset, size;
} place;

static bool read_place(const cJSON *b, place *out)
{
    memset(out, 0, sizeof *out);
    if (!cJSON_IsObject(b))
        return false;
    if (str_is(get_str(b, "kind"), "uniform")) {
        out->uniform = true;
        get_u32(b, "offset", &out->offset);
        get_u32(b, "size", &out->size);
        return true;
    }
    get_u32(b, "space", &out->space);
    return get_u32(b, "index", &out->binding);
}

/* WebGPU's storage texture formats in the ID table, by reflection format name and by element type.
 */
static uint32_t storage_texture_id(const cJSON *p, const cJSON *t)
{
    const char *format = get_str(p, "format");
    if (format) {
        if (!strcmp(format, "r32f"))
            return DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT;
        if (!strcmp(format, "rg32f"))
            return DGPB_WGPU_STORAGE_TEXTURE_2D_RG32FLOAT;
        if (!strcmp(format, "rgba32f"))
            return DGPB_WGPU_STORAGE_TEXTURE_2D_RGBA32FLOAT;
        if (!strcmp(format, "r32ui"))
            return DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT;
        return 0;
    }
    char type[64];
    value_type_text(get(t, "resultType"), type, sizeof type);
    if (!strcmp(type, "float"))
        return DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT;
    if (!strcmp(type, "float2"))
        return DGPB_WGPU_STORAGE_TEXTURE_2D_RG32FLOAT;
    if (!strcmp(type, "float4"))
        return DGPB_WGPU_STORAGE_TEXTURE_2D_RGBA32FLOAT;
    if (!strcmp(type, "uint"))
        return DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT;
    return 0;
}

static bool float_result(const cJSON *t)
{
    const cJSON *rt = get(t, "resultType");
    if (str_is(get_str(rt, "kind"), "vector"))
        rt = get(rt, "elementType");
    return str_is(get_str(rt, "scalarType"), "float32");
}

/* Sets kind and, on wgsl, the WebGPU ID of one parameter from its type. */
static void classify(dgpb_reflected_param *r, const cJSON *p, const cJSON *t, bool wgsl,
                     char *problem, size_t n)
{
    const char *kind = get_str(t, "kind");
    r->kind = -1;
    problem[0] = 0;
    if (str_is(kind, "constantBuffer")) {
        r->kind = DGPB_KIND_UNIFORM_BUFFER;
    } else if (str_is(kind, "samplerState")) {
        r->kind = DGPB_KIND_SAMPLER;
    } else if (str_is(kind, "resource")) {
        const char *base = get_str(t, "baseShape");
        bool rw = is_writable_access(get_str(t, "access"));
        if (str_is(base, "structuredBuffer"))
            r->kind = rw ? DGPB_KIND_RW_BUFFER : DGPB_KIND_BUFFER;
        else if (str_is(base, "byteAddressBuffer"))
            r->kind = rw ? DGPB_KIND_RW_BYTE_BUFFER : DGPB_KIND_BYTE_BUFFER;
        else if (str_is(base, "texture1D") || str_is(base, "texture2D") ||
                 str_is(base, "texture3D") || str_is(base, "textureCube"))
            r->kind = rw ? DGPB_KIND_RW_TEXTURE : DGPB_KIND_TEXTURE;
        else if (str_is(base, "accelerationStructure"))
            r->kind = DGPB_KIND_ACCELERATION_STRUCTURE;
        else
            snprintf(problem, n, "%s is not a parameter kind of the format", r->shape);
    } else if (str_is(kind, "parameterBlock")) {
        snprintf(problem, n, "%s is not supported (declare its fields as parameters)", r->shape);
    } else if (str_is(kind, "array") && !str_is(get_str(binding_of(p), "kind"), "uniform")) {
        snprintf(problem, n, "%s: arrays of resources are not supported", r->shape);
    } else if (kind) {
        r->kind = DGPB_KIND_VALUE; /* a loose uniform */
    } else {
        snprintf(problem, n, "the reflection gives no type kind");
    }
    if (!wgsl || r->kind < 0)
        return;
    switch (r->kind) {
    case DGPB_KIND_VALUE:
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
        r->webgpu_layout = DGPB_WGPU_FILTERING_SAMPLER;
        break;
    case DGPB_KIND_TEXTURE:
        if (!strncmp(r->shape, "Texture2D<", 10) && float_result(t))
            r->webgpu_layout = DGPB_WGPU_TEXTURE_2D_FLOAT;
        else
            snprintf(problem, n,
                     "%s has no WebGPU binding-layout ID (sampled textures must be 2D, float, "
                     "not arrays or multisampled)",
                     r->shape);
        break;
    case DGPB_KIND_RW_TEXTURE:
        if (!strncmp(r->shape, "RWTexture2D<", 12))
            r->webgpu_layout = storage_texture_id(p, t);
        if (!r->webgpu_layout) {
            const char *format = get_str(p, "format");
            snprintf(problem, n,
                     "%s%s%s%s has no WebGPU binding-layout ID (storage textures must be 2D "
                     "r32float, rg32float, rgba32float or r32uint)",
                     r->shape, format ? " (format " : "", format ? format : "", format ? ")" : "");
        }
        break;
    default:
        r->webgpu_layout = DGPB_WGPU_NONE;
        break;
    }
}

typedef struct builder {
    dgpb_reflected_param *params;
    size_t count, cap;
    bool nomem;
} builder;

static dgpb_reflected_param *push(builder *b)
{
    dgpb_reflected_param *np = dgpb_grow(b->params, b->count, &b->cap, sizeof *np, 16);
    if (!np) {
        b->nomem = true;
        return NULL;
    }
    b->params = np;
    dgpb_reflected_param *r = &b->params[b->count++];
    memset(r, 0, sizeof *r);
    return r;
}

static void fill_strings(builder *b, dgpb_reflected_param *r, const char *name, const char *global,
                         const char *shape, const char *problem)
{
    r->name = dgpb_strdup(name);
    r->global = dgpb_strdup(global);
    r->shape = dgpb_strdup(shape);
    r->problem = problem && *problem ? dgpb_strdup(problem) : NULL;
    if (!r->name || !r->global || !r->shape || (problem && *problem && !r->problem))
        b->nomem = true;
}

static bool listed(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

/* Expands a value block's fields into value rows at the block's place. */
static void add_value_block(builder *b, const char *block, const cJSON *t, const place *at,
                            bool ptx, bool wgsl)
{
    const cJSON *fields = get(get(t, "elementType"), "fields"), *f;
    cJSON_ArrayForEach(f, fields)
    {
        dgpb_reflected_param *r = push(b);
        if (!r)
            return;
        const char *name = get_str(f, "name");
        char shape[128], problem[256] = "";
        value_type_text(get(f, "type"), shape, sizeof shape);
        place fp;
        r->kind = DGPB_KIND_VALUE;
        r->space = at->space;
        r->binding = ptx ? at->offset : at->binding;
        r->webgpu_layout = wgsl ? DGPB_WGPU_UNIFORM_BUFFER : 0;
        if (read_place(binding_of(f), &fp) && fp.uniform) {
            r->offset = fp.offset;
            r->size = fp.size;
        } else {
            r->kind = -1;
            snprintf(problem, sizeof problem,
                     "field '%s' of value block '%s' is not a plain value (%s)", name ? name : "?",
                     block, shape);
        }
        fill_strings(b, r, name ? name : "?", block, shape, problem);
    }
}

static int parse_params(builder *b, const cJSON *params, const char *target,
                        const char *const *value_blocks, size_t value_block_count, dgpb_diag *diag)
{
    bool ptx = !strcmp(target, "ptx"), wgsl = !strcmp(target, "wgsl");
    const cJSON *p;
    size_t index = 0;
    cJSON_ArrayForEach(p, params)
    {
        const char *name = get_str(p, "name");
        const cJSON *t = get(p, "type");
        place at;
        if (!name || !cJSON_IsObject(t) || !read_place(binding_of(p), &at))
            return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                                 "reflection json: parameter %zu lacks a name, type or binding",
                                 index);
        index++;
        if (str_is(get_str(t, "kind"), "constantBuffer") &&
            listed(name, value_blocks, value_block_count)) {
            add_value_block(b, name, t, &at, ptx, wgsl);
            continue;
        }
        dgpb_reflected_param *r = push(b);
        if (!r)
            break;
        char shape[160], problem[512];
        shape_text(t, shape, sizeof shape);
        r->shape = shape; /* borrowed by classify() only */
        classify(r, p, t, wgsl, problem, sizeof problem);
        r->shape = NULL;
        if (r->kind == DGPB_KIND_VALUE) {
            /* A loose uniform: a byte range of the implicit global block at space 0, binding 0. */
            r->offset = at.offset;
            r->size = at.size;
            fill_strings(b, r, name, GLOBAL_BLOCK, shape, problem);
            continue;
        }
        if (at.uniform && ptx) {
            r->binding = at.offset; /* its place in the global parameter block */
        } else if (at.uniform && r->kind >= 0) {
            r->kind = -1;
            snprintf(problem, sizeof problem, "%s has no descriptor binding on %s", shape, target);
        } else {
            r->space = at.space;
            r->binding = at.binding;
        }
        fill_strings(b, r, name, name, shape, problem);
    }
    return b->nomem ? dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory") : DGPB_OK;
}

static int parse_entries(dgpb_reflection *r, const cJSON *entries, dgpb_diag *diag)
{
    int n = cJSON_GetArraySize(entries);
    r->entries = dgpb_calloc((size_t)n, sizeof *r->entries);
    if (!r->entries)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    const cJSON *e;
    cJSON_ArrayForEach(e, entries)
    {
        const char *name = get_str(e, "name"), *stage = get_str(e, "stage");
        if (!name)
            return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                                 "reflection json: entry point %zu has no name", r->entry_count);
        if (!stage)
            stage = ""; /* Slang 2025.15 names no ray-tracing stage: the caller asks the code */
        dgpb_reflected_entry *re = &r->entries[r->entry_count++];
        re->name = dgpb_strdup(name);
        re->stage_name = dgpb_strdup(stage);
        if (!re->name || !re->stage_name)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        re->stage = dgpb_stage_from_name(stage, strlen(stage));
        const cJSON *tgs = get(e, "threadGroupSize");
        for (int i = 0; i < 3 && re->stage == DGPB_STAGE_COMPUTE; i++) {
            const cJSON *v = cJSON_GetArrayItem(tgs, i);
            re->thread_group_size[i] =
                cJSON_IsNumber(v) && v->valuedouble >= 1 ? (uint32_t)v->valuedouble : 1;
        }
    }
    return DGPB_OK;
}

int dgpb_reflection_parse(const char *json, size_t len, const char *target,
                          const char *const *value_blocks, size_t value_block_count,
                          dgpb_reflection **out, dgpb_diag *diag)
{
    *out = NULL;
    cJSON *root = cJSON_ParseWithLength(json, len);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, at ? (int64_t)(at - json) : -1,
                             "reflection json is not valid JSON");
    }
    int rc = DGPB_OK;
    dgpb_reflection *r = dgpb_calloc(1, sizeof *r);
    builder b = {0};
    const cJSON *params = get(root, "parameters"), *entries = get(root, "entryPoints");
    if (!r) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    } else if ((params && !cJSON_IsArray(params)) || (entries && !cJSON_IsArray(entries)) ||
               !cJSON_IsObject(root)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                           "reflection json: 'parameters' and 'entryPoints' must be arrays");
    } else {
        rc = parse_params(&b, params, target, value_blocks, value_block_count, diag);
        r->params = b.params;
        r->param_count = b.count;
        if (!rc && entries)
            rc = parse_entries(r, entries, diag);
    }
    cJSON_Delete(root);
    if (rc) {
        dgpb_reflection_free(r); /* with the parameters parsed so far */
        return rc;
    }
    *out = r;
    return DGPB_OK;
}

void dgpb_reflection_free(dgpb_reflection *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->param_count; i++) {
        dgpb_free(r->params[i].name);
        dgpb_free(r->params[i].global);
        dgpb_free(r->params[i].shape);
        dgpb_free(r->params[i].problem);
    }
    dgpb_free(r->params);
    for (size_t i = 0; i < r->entry_count; i++) {
        dgpb_free(r->entries[i].name);
        dgpb_free(r->entries[i].stage_name);
    }
    dgpb_free(r->entries);
    dgpb_free(r);
}

const dgpb_reflected_param *dgpb_reflection_find(const dgpb_reflection *r, const char *name,
                                                 bool by_global)
{
    for (size_t i = 0; i < r->param_count; i++)
        if (!strcmp(by_global ? r->params[i].global : r->params[i].name, name))
            return &r->params[i];
    return NULL;
}
