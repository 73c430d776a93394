/*
 * format.c - the DGPB v0 vocabulary and its consistency rules (dgpb/format.h).
 */
#include "dgpb/format.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const kind_names[DGPB_KIND_COUNT] = {
    "value",       "uniform_buffer",         "buffer",      "rw_buffer",
    "byte_buffer", "rw_byte_buffer",         "texture",     "rw_texture",
    "sampler",     "acceleration_structure", "mlp_weights", "handle",
};

static const char *const stage_names[DGPB_STAGE_COUNT] = {
    "compute", "vertex", "fragment",     "raygeneration", "closesthit",
    "anyhit",  "miss",   "intersection", "callable",
};

/* Sorted by name: the enum follows this order. */
static const char *const capability_names[DGPB_CAP_COUNT] = {
    "atomic64", "cooperative_matrix", "cooperative_vector", "descriptor_handle",
    "half",     "rayquery",           "raytracing",         "subgroup_basic",
};

static const char *const backend_names[DGPB_BACKEND_COUNT] = {
    "Dx12", "Dx11", "Vulkan", "Metal", "Cuda", "WebGpu",
};

static const char *const backend_targets[DGPB_BACKEND_COUNT] = {
    "dxil", "dxbc", "spirv", "metal", "ptx", "wgsl",
};

static const char *const webgpu_names[DGPB_WGPU_COUNT] = {
    "none",
    "uniform buffer",
    "read-only storage buffer",
    "storage buffer",
    "filtering sampler",
    "2d float sampled texture",
    "2d read-write r32float storage texture",
    "2d read-write rg32float storage texture",
    "2d read-write rgba32float storage texture",
    "2d read-write r32uint storage texture",
};

static int lookup(const char *const *names, int count, const char *s, size_t len)
{
    for (int i = 0; i < count; i++)
        if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0)
            return i;
    return -1;
}

const char *dgpb_kind_name(uint32_t kind)
{
    return kind < DGPB_KIND_COUNT ? kind_names[kind] : NULL;
}

int dgpb_kind_from_name(const char *s, size_t len)
{
    return lookup(kind_names, DGPB_KIND_COUNT, s, len);
}

const char *dgpb_stage_name(uint32_t stage)
{
    return stage < DGPB_STAGE_COUNT ? stage_names[stage] : NULL;
}

int dgpb_stage_from_name(const char *s, size_t len)
{
    return lookup(stage_names, DGPB_STAGE_COUNT, s, len);
}

const char *dgpb_capability_name(uint32_t cap)
{
    return cap < DGPB_CAP_COUNT ? capability_names[cap] : NULL;
}

int dgpb_capability_from_name(const char *s, size_t len)
{
    return lookup(capability_names, DGPB_CAP_COUNT, s, len);
}

const char *dgpb_backend_name(uint32_t backend)
{
    return backend < DGPB_BACKEND_COUNT ? backend_names[backend] : NULL;
}

int dgpb_backend_from_name(const char *s, size_t len)
{
    for (int i = 0; i < DGPB_BACKEND_COUNT; i++)
        if (strlen(backend_names[i]) == len && strncasecmp(backend_names[i], s, len) == 0)
            return i;
    return -1;
}

const char *dgpb_backend_target(uint32_t backend)
{
    return backend < DGPB_BACKEND_COUNT ? backend_targets[backend] : NULL;
}

const char *dgpb_webgpu_layout_name(uint32_t id)
{
    return id < DGPB_WGPU_COUNT ? webgpu_names[id] : NULL;
}

bool dgpb_target_name_known(const char *name, size_t len)
{
    return lookup(backend_targets, DGPB_BACKEND_COUNT, name, len) >= 0;
}

static bool eq(const char *s, size_t len, const char *lit)
{
    return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

bool dgpb_code_format_allowed(const char *target, size_t target_len, const char *code_format,
                              size_t code_format_len)
{
    if (eq(target, target_len, "metal"))
        return eq(code_format, code_format_len, "metallib") ||
               eq(code_format, code_format_len, "msl");
    if (!dgpb_target_name_known(target, target_len))
        return false;
    /* Every other target's code format has the target's own name. */
    return target_len == code_format_len && memcmp(target, code_format, target_len) == 0;
}

bool dgpb_stage_is_ray_tracing(uint32_t stage)
{
    return stage >= DGPB_STAGE_RAYGENERATION && stage <= DGPB_STAGE_CALLABLE;
}

bool dgpb_webgpu_layout_allowed(uint32_t kind, uint32_t id, bool is_wgsl)
{
    if (!is_wgsl)
        return id == DGPB_WGPU_NONE;
    switch (kind) {
    case DGPB_KIND_VALUE:
    case DGPB_KIND_UNIFORM_BUFFER:
        return id == DGPB_WGPU_UNIFORM_BUFFER;
    case DGPB_KIND_BUFFER:
    case DGPB_KIND_BYTE_BUFFER:
        return id == DGPB_WGPU_READ_ONLY_STORAGE_BUFFER;
    case DGPB_KIND_RW_BUFFER:
    case DGPB_KIND_RW_BYTE_BUFFER:
        return id == DGPB_WGPU_STORAGE_BUFFER;
    case DGPB_KIND_TEXTURE:
        return id == DGPB_WGPU_TEXTURE_2D_FLOAT;
    case DGPB_KIND_RW_TEXTURE:
        return id >= DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT &&
               id <= DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT;
    case DGPB_KIND_SAMPLER:
        return id == DGPB_WGPU_FILTERING_SAMPLER;
    case DGPB_KIND_ACCELERATION_STRUCTURE:
    case DGPB_KIND_MLP_WEIGHTS:
    case DGPB_KIND_HANDLE:
        return id == DGPB_WGPU_NONE;
    default:
        return false;
    }
}

uint32_t dgpb_kind_required_flags(uint32_t kind)
{
    switch (kind) {
    case DGPB_KIND_VALUE:
    case DGPB_KIND_UNIFORM_BUFFER:
    case DGPB_KIND_BUFFER:
    case DGPB_KIND_BYTE_BUFFER:
    case DGPB_KIND_TEXTURE:
    case DGPB_KIND_SAMPLER:
    case DGPB_KIND_ACCELERATION_STRUCTURE:
        return DGPB_FLAG_READ_ONLY;
    default:
        return 0;
    }
}

bool dgpb_kind_writable(uint32_t kind)
{
    return kind < DGPB_KIND_COUNT && dgpb_kind_required_flags(kind) == 0;
}

const char *dgpb_param_rule(uint32_t kind, uint32_t flags, uint32_t offset, uint32_t size,
                            uint32_t webgpu_layout, bool is_wgsl, char *buf, size_t buf_size)
{
    if (kind >= DGPB_KIND_COUNT) {
        snprintf(buf, buf_size, "unknown parameter kind %u", kind);
        return buf;
    }
    if (flags & ~DGPB_FLAG_ALL) {
        snprintf(buf, buf_size, "unknown flag bits 0x%x", flags & ~DGPB_FLAG_ALL);
        return buf;
    }
    if ((flags & DGPB_FLAG_ALL) == DGPB_FLAG_ALL)
        return "flags say both read-only and written";
    uint32_t need = dgpb_kind_required_flags(kind);
    if ((flags & need) != need) {
        snprintf(buf, buf_size, "a %s parameter must be flagged read-only", kind_names[kind]);
        return buf;
    }
    if (kind != DGPB_KIND_VALUE && (offset != 0 || size != 0)) {
        snprintf(buf, buf_size, "a %s parameter must have offset 0 and size 0", kind_names[kind]);
        return buf;
    }
    if (kind == DGPB_KIND_VALUE && size == 0)
        return "a value parameter must have a non-zero size";
    if (kind == DGPB_KIND_VALUE && (uint64_t)offset + size > UINT32_MAX)
        return "a value parameter's offset + size overflows";
    if (!dgpb_webgpu_layout_allowed(kind, webgpu_layout, is_wgsl)) {
        if (webgpu_layout >= DGPB_WGPU_COUNT)
            snprintf(buf, buf_size, "unknown webgpu_layout id %u", webgpu_layout);
        else if (!is_wgsl)
            snprintf(buf, buf_size, "webgpu_layout %u on a target other than wgsl (must be 0)",
                     webgpu_layout);
        else
            snprintf(buf, buf_size, "webgpu_layout %u (%s) does not describe a %s parameter",
                     webgpu_layout, webgpu_names[webgpu_layout], kind_names[kind]);
        return buf;
    }
    return NULL;
}

const char *dgpb_thread_group_rule(uint32_t stage, const uint32_t thread_group_size[3])
{
    if (stage == DGPB_STAGE_COMPUTE) {
        if (thread_group_size[0] == 0 || thread_group_size[1] == 0 || thread_group_size[2] == 0)
            return "a compute entry needs a thread group size of at least 1 in each dimension";
        return NULL;
    }
    if (thread_group_size[0] || thread_group_size[1] || thread_group_size[2])
        return "a non-compute entry must have thread group size 0,0,0";
    return NULL;
}
