/*
 * format.c - the DGPB v0 vocabulary and its consistency rules (dgpb/format.h):
 * the name tables and lookups expanded from dgpb/vocabulary.def's rows.
 */
#include "dgpb/format.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const kind_names[DGPB_KIND_COUNT] = {
#define DGPB_KIND(ID, value, name, ACCESS, WEBGPU) [value] = name,
#include "dgpb/vocabulary.def"
};

/* A kind's WebGPU column: one ID, or ANY_STORAGE_TEXTURE, the ID of a storage format's row. */
enum {
#define DGPB_WEBGPU_LAYOUT(ID, value, name, LIMIT) KIND_WGPU_##ID = value,
#include "dgpb/vocabulary.def"
    KIND_WGPU_ANY_STORAGE_TEXTURE = -1
};
static const int kind_webgpu[DGPB_KIND_COUNT] = {
#define DGPB_KIND(ID, value, name, ACCESS, WEBGPU) [value] = KIND_WGPU_##WEBGPU,
#include "dgpb/vocabulary.def"
};

/* A kind's ACCESS column. */
enum access { ACCESS_READ_ONLY, ACCESS_WRITABLE };
static const enum access kind_access[DGPB_KIND_COUNT] = {
#define DGPB_KIND(ID, value, name, ACCESS, WEBGPU) [value] = ACCESS_##ACCESS,
#include "dgpb/vocabulary.def"
};

static const char *const stage_names[DGPB_STAGE_COUNT] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP) [value] = name,
#include "dgpb/vocabulary.def"
};

/* The capability each stage's entries need; NEEDS_NONE for none. */
enum {
#define DGPB_CAPABILITY(ID, value, name, webgpu_feature) NEEDS_##ID = value,
#include "dgpb/vocabulary.def"
    NEEDS_NONE = -1
};
static const int stage_needs[DGPB_STAGE_COUNT] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP) [value] = NEEDS_##CAP,
#include "dgpb/vocabulary.def"
};

/* Sorted by name: the enum follows this order. */
static const char *const capability_names[DGPB_CAP_COUNT] = {
#define DGPB_CAPABILITY(ID, value, name, webgpu_feature) [value] = name,
#include "dgpb/vocabulary.def"
};

_Static_assert(DGPB_CAP_COUNT <= 64, "a capability mask has 64 bits");

static const char *const target_names[DGPB_TARGET_COUNT] = {
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    [value] = name,
#include "dgpb/vocabulary.def"
};

static const char *const backend_names[DGPB_BACKEND_COUNT] = {
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    [backend_value] = backend_name,
#include "dgpb/vocabulary.def"
};

static const dgpb_target_id backend_targets[DGPB_BACKEND_COUNT] = {
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    [backend_value] = DGPB_TARGET_##ID,
#include "dgpb/vocabulary.def"
};

static const uint32_t target_traits[DGPB_TARGET_COUNT] = {
#define DGPB_IS(trait) DGPB_TRAIT_##trait
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    [value] = traits,
#include "dgpb/vocabulary.def"
#undef DGPB_IS
};

static const struct {
    const char *name;
    dgpb_target_id target;
    bool in_bundle;
} code_formats[DGPB_CODE_FORMAT_COUNT] = {
#define DGPB_CODE_FORMAT(ID, value, name, TARGET, in_bundle, slang_target, extension, PRINT)       \
    [value] = {name, DGPB_TARGET_##TARGET, in_bundle},
#include "dgpb/vocabulary.def"
};

static const char *const webgpu_names[DGPB_WGPU_COUNT] = {
#define DGPB_WEBGPU_LAYOUT(ID, value, name, LIMIT) [value] = name,
#include "dgpb/vocabulary.def"
};

/* True for the IDs of storage textures: those a storage format's row names. */
static const bool webgpu_storage_texture[DGPB_WGPU_COUNT] = {
#define DGPB_STORAGE_FORMAT(ID, name, WEBGPU, slang_format, slang_type, webgpu_feature)            \
    [DGPB_WGPU_##WEBGPU] = true,
#include "dgpb/vocabulary.def"
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
    return backend < DGPB_BACKEND_COUNT ? target_names[backend_targets[backend]] : NULL;
}

int dgpb_backend_target_id(uint32_t backend)
{
    return backend < DGPB_BACKEND_COUNT ? (int)backend_targets[backend] : -1;
}

uint32_t dgpb_target_traits(uint32_t target)
{
    return target < DGPB_TARGET_COUNT ? target_traits[target] : 0;
}

const char *dgpb_target_name(uint32_t target)
{
    return target < DGPB_TARGET_COUNT ? target_names[target] : NULL;
}

int dgpb_target_from_name(const char *s, size_t len)
{
    return lookup(target_names, DGPB_TARGET_COUNT, s, len);
}

const char *dgpb_code_format_name(uint32_t format)
{
    return format < DGPB_CODE_FORMAT_COUNT ? code_formats[format].name : NULL;
}

int dgpb_code_format_from_name(const char *s, size_t len)
{
    for (int i = 0; i < DGPB_CODE_FORMAT_COUNT; i++)
        if (strlen(code_formats[i].name) == len && memcmp(code_formats[i].name, s, len) == 0)
            return i;
    return -1;
}

const char *dgpb_webgpu_layout_name(uint32_t id)
{
    return id < DGPB_WGPU_COUNT ? webgpu_names[id] : NULL;
}

bool dgpb_target_name_known(const char *name, size_t len)
{
    return dgpb_target_from_name(name, len) >= 0;
}

bool dgpb_code_format_allowed(const char *target, size_t target_len, const char *code_format,
                              size_t code_format_len)
{
    int t = dgpb_target_from_name(target, target_len);
    int f = dgpb_code_format_from_name(code_format, code_format_len);
    return t >= 0 && f >= 0 && code_formats[f].in_bundle && code_formats[f].target == (uint32_t)t;
}

bool dgpb_stage_is_ray_tracing(uint32_t stage)
{
    return stage < DGPB_STAGE_COUNT && stage_needs[stage] == NEEDS_RAYTRACING;
}

bool dgpb_webgpu_layout_allowed(uint32_t kind, uint32_t id, bool is_wgsl)
{
    if (!is_wgsl)
        return id == DGPB_WGPU_NONE;
    if (kind >= DGPB_KIND_COUNT || id >= DGPB_WGPU_COUNT)
        return false;
    if (kind_webgpu[kind] == KIND_WGPU_ANY_STORAGE_TEXTURE)
        return webgpu_storage_texture[id];
    return (int)id == kind_webgpu[kind];
}

uint32_t dgpb_kind_required_flags(uint32_t kind)
{
    return kind < DGPB_KIND_COUNT && kind_access[kind] == ACCESS_READ_ONLY ? DGPB_FLAG_READ_ONLY
                                                                           : 0;
}

bool dgpb_kind_writable(uint32_t kind)
{
    return kind < DGPB_KIND_COUNT && kind_access[kind] == ACCESS_WRITABLE;
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
    /* A structured buffer's size is its element stride (docs/format.md, issue 24). */
    bool strided = kind == DGPB_KIND_BUFFER || kind == DGPB_KIND_RW_BUFFER;
    if (kind != DGPB_KIND_VALUE && (offset != 0 || (size != 0 && !strided))) {
        snprintf(buf, buf_size, "a %s parameter must have offset 0 and size 0%s", kind_names[kind],
                 strided ? " or its element stride" : "");
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
