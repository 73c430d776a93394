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
    KIND_WGPU_ANY_STORAGE_TEXTURE = -1,
    KIND_WGPU_NO_BINDING = -2 /* WebGPU cannot bind it: no row of the kind on wgsl */
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
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    [value] = name,
#include "dgpb/vocabulary.def"
};

/* The pipeline each stage's entries go into (DGPB_STAGE's PIPELINE). */
enum pipeline { PIPELINE_COMPUTE, PIPELINE_RENDER, PIPELINE_RAY_TRACING };
static const enum pipeline stage_pipeline[DGPB_STAGE_COUNT] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    [value] = PIPELINE_##PIPELINE,
#include "dgpb/vocabulary.def"
};

/* Whether each stage's entries have a thread group size (DGPB_STAGE's threads). */
static const bool stage_threads[DGPB_STAGE_COUNT] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    [value] = threads,
#include "dgpb/vocabulary.def"
};

/* Sorted by name: the enum follows this order. */
static const char *const capability_names[DGPB_CAP_COUNT] = {
#define DGPB_CAPABILITY(ID, value, name, webgpu_feature) [value] = name,
#include "dgpb/vocabulary.def"
};

_Static_assert(DGPB_CAP_COUNT <= 64, "a capability mask has 64 bits");

/* Sorted by name: an options record lists them in this order. */
static const char *const option_names[DGPB_OPTION_COUNT] = {
#define DGPB_OPTION(ID, value, name, flag) [value] = name,
#include "dgpb/vocabulary.def"
};

static const struct {
    const char *name, *slang_option;
    bool scalar_blocks;
} block_layouts[DGPB_BLOCK_LAYOUT_COUNT] = {
#define DGPB_BLOCK_LAYOUT(ID, value, name, slang_option, scalar_blocks)                           \
    [value] = {name, slang_option, scalar_blocks},
#include "dgpb/vocabulary.def"
};

static const char *const block_layout_names[DGPB_BLOCK_LAYOUT_COUNT] = {
#define DGPB_BLOCK_LAYOUT(ID, value, name, slang_option, scalar_blocks) [value] = name,
#include "dgpb/vocabulary.def"
};

static const char *const optimization_levels[DGPB_OPTIMIZATION_COUNT] = {
#define DGPB_OPTIMIZATION(ID, value, level, slang_option) [value] = level,
#include "dgpb/vocabulary.def"
};

static const char *const optimization_options[DGPB_OPTIMIZATION_COUNT] = {
#define DGPB_OPTIMIZATION(ID, value, level, slang_option) [value] = slang_option,
#include "dgpb/vocabulary.def"
};

static const char *const debug_info_levels[DGPB_DEBUG_INFO_COUNT] = {
#define DGPB_DEBUG_INFO(ID, value, level, slang_option) [value] = level,
#include "dgpb/vocabulary.def"
};

static const char *const debug_info_options[DGPB_DEBUG_INFO_COUNT] = {
#define DGPB_DEBUG_INFO(ID, value, level, slang_option) [value] = slang_option,
#include "dgpb/vocabulary.def"
};

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

static const bool kind_shaped[DGPB_KIND_COUNT] = {
#define DGPB_SHAPED_KIND(ID) [DGPB_KIND_##ID] = true,
#include "dgpb/vocabulary.def"
};

static const char *const kind_size_meaning[DGPB_KIND_COUNT] = {
#define DGPB_SIZED_KIND(ID, what) [DGPB_KIND_##ID] = what,
#include "dgpb/vocabulary.def"
};

static const char *const dim_names[DGPB_DIM_COUNT] = {
#define DGPB_SHAPE_DIM(ID, value, name, spirv_dim, wgsl) [value] = name,
#include "dgpb/vocabulary.def"
};

static const char *const sample_names[DGPB_SAMPLE_COUNT] = {
#define DGPB_SAMPLE_TYPE(ID, value, name, wgsl) [value] = name,
#include "dgpb/vocabulary.def"
};

static const char *const access_names[4] = {
#define DGPB_SHAPE_ACCESS(ID, value, name, wgsl) [value] = name,
#include "dgpb/vocabulary.def"
};

static const struct {
    const char *name;
    uint32_t sample;
    bool known;                       /* a row of the table (0 and gaps are none) */
    const char *storage, *read_write; /* what WebGPU asks for a storage texture of it */
} texel_formats[DGPB_TEXEL_FORMAT_END] = {
#define DGPB_TEXEL_FORMAT(ID, value, name, slang_format, SAMPLE, storage, read_write)              \
    [value] = {name, DGPB_SAMPLE_##SAMPLE, true, storage, read_write},
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

const char *dgpb_option_name(uint32_t option)
{
    return option < DGPB_OPTION_COUNT ? option_names[option] : NULL;
}

int dgpb_option_from_name(const char *s, size_t len)
{
    return lookup(option_names, DGPB_OPTION_COUNT, s, len);
}

const char *dgpb_block_layout_name(uint32_t layout)
{
    return layout < DGPB_BLOCK_LAYOUT_COUNT ? block_layout_names[layout] : NULL;
}

int dgpb_block_layout_from_name(const char *s, size_t len)
{
    return lookup(block_layout_names, DGPB_BLOCK_LAYOUT_COUNT, s, len);
}

const char *dgpb_block_layout_slang_option(uint32_t layout)
{
    return layout < DGPB_BLOCK_LAYOUT_COUNT ? block_layouts[layout].slang_option : NULL;
}

bool dgpb_block_layout_scalar(uint32_t layout)
{
    return layout < DGPB_BLOCK_LAYOUT_COUNT && block_layouts[layout].scalar_blocks;
}

const char *dgpb_optimization_level(uint32_t optimization)
{
    return optimization < DGPB_OPTIMIZATION_COUNT ? optimization_levels[optimization] : NULL;
}

int dgpb_optimization_from_level(const char *s, size_t len)
{
    return lookup(optimization_levels, DGPB_OPTIMIZATION_COUNT, s, len);
}

const char *dgpb_optimization_slang_option(uint32_t optimization)
{
    return optimization < DGPB_OPTIMIZATION_COUNT ? optimization_options[optimization] : NULL;
}

const char *dgpb_debug_info_level(uint32_t debug_info)
{
    return debug_info < DGPB_DEBUG_INFO_COUNT ? debug_info_levels[debug_info] : NULL;
}

int dgpb_debug_info_from_level(const char *s, size_t len)
{
    return lookup(debug_info_levels, DGPB_DEBUG_INFO_COUNT, s, len);
}

const char *dgpb_debug_info_slang_option(uint32_t debug_info)
{
    return debug_info < DGPB_DEBUG_INFO_COUNT ? debug_info_options[debug_info] : NULL;
}

/* The numbers a row's space and binding reserve, by field, with their names. */
enum reserved_field { RESERVED_SPACE, RESERVED_BINDING };
static const struct reserved {
    enum reserved_field field;
    uint32_t number;
    const char *name;
} reserved[] = {
#define DGPB_RESERVED(FIELD, ID, name) {RESERVED_##FIELD, DGPB_##FIELD##_##ID, name},
#include "dgpb/vocabulary.def"
};

static const char *reserved_name(enum reserved_field field, uint32_t number)
{
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (reserved[i].field == field && reserved[i].number == number)
            return reserved[i].name;
    return NULL;
}

const char *dgpb_space_name(uint32_t space)
{
    return reserved_name(RESERVED_SPACE, space);
}

const char *dgpb_binding_name(uint32_t binding)
{
    return reserved_name(RESERVED_BINDING, binding);
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
    return stage < DGPB_STAGE_COUNT && stage_pipeline[stage] == PIPELINE_RAY_TRACING;
}

bool dgpb_stage_has_thread_group(uint32_t stage)
{
    return stage < DGPB_STAGE_COUNT && stage_threads[stage];
}

int dgpb_stage_from_slang(uint32_t slang_stage)
{
    switch (slang_stage) {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    case slang_stage:                                                                              \
        return value;
#include "dgpb/vocabulary.def"
    default:
        return -1;
    }
}

/* ---- WebGPU binding-layout IDs ---- */

enum {
#define DGPB_WEBGPU_RANGE(ID, first, KIND, name, LIMIT) RANGE_##ID = first,
#include "dgpb/vocabulary.def"
};

static const struct {
    uint32_t dim;
    bool arrayed;
    const char *name;
} webgpu_views[] = {
#define DGPB_WEBGPU_VIEW(ID, value, name, DIM, arrayed) [value] = {DGPB_DIM_##DIM, arrayed, name},
#include "dgpb/vocabulary.def"
};
#define WEBGPU_VIEW_COUNT (sizeof webgpu_views / sizeof webgpu_views[0])

static const struct {
    uint32_t sample;
    const char *name;
} webgpu_samples[] = {
#define DGPB_WEBGPU_SAMPLE(ID, value, name, SAMPLE) [value] = {DGPB_SAMPLE_##SAMPLE, name},
#include "dgpb/vocabulary.def"
};
#define WEBGPU_SAMPLE_COUNT (sizeof webgpu_samples / sizeof webgpu_samples[0])

/* The WebGPU view of a shape's dimension and arrayed bit, or -1 (none, a 3d array). */
static int view_of(uint32_t shape)
{
    for (size_t v = 0; v < WEBGPU_VIEW_COUNT; v++)
        if (webgpu_views[v].dim == DGPB_SHAPE_DIM_OF(shape) &&
            webgpu_views[v].arrayed == ((shape & DGPB_SHAPE_ARRAYED) != 0))
            return (int)v;
    return -1;
}

/* WebGPU's sample type of a shape (a float texture when the shape states none). */
static int sample_of(uint32_t shape)
{
    uint32_t sample = DGPB_SHAPE_SAMPLE_OF(shape);
    for (size_t t = 0; t < WEBGPU_SAMPLE_COUNT; t++)
        if (webgpu_samples[t].sample == (sample ? sample : DGPB_SAMPLE_FLOAT))
            return (int)t;
    return -1;
}

static uint32_t shape_of_view(int view)
{
    return webgpu_views[view].dim | (webgpu_views[view].arrayed ? DGPB_SHAPE_ARRAYED : 0);
}

/* The table's IDs of 2D read-write storage textures, by texel format (DGPB_STORAGE_FORMAT). */
static const struct {
    const char *format;
    uint32_t id;
} table_storage[] = {
#define DGPB_STORAGE_FORMAT(ID, name, WEBGPU, slang_format, slang_type) {name, DGPB_WGPU_##WEBGPU},
#include "dgpb/vocabulary.def"
};

uint32_t dgpb_webgpu_layout_for(uint32_t kind, uint32_t shape)
{
    if (kind >= DGPB_KIND_COUNT)
        return 0;
    int view = view_of(shape), sample = sample_of(shape);
    bool ms = (shape & DGPB_SHAPE_MULTISAMPLED) != 0, cmp = (shape & DGPB_SHAPE_COMPARISON) != 0;
    switch (kind) {
    case DGPB_KIND_SAMPLER:
        return cmp ? DGPB_WGPU_COMPARISON_SAMPLER : DGPB_WGPU_FILTERING_SAMPLER;
    case DGPB_KIND_TEXTURE: {
        if (view < 0 || sample < 0 || (ms && view != 1))
            return 0;
        uint32_t id = RANGE_SAMPLED_TEXTURE + (uint32_t)view * 8 + (uint32_t)sample * 2 + ms;
        return id == RANGE_SAMPLED_TEXTURE + 8 ? DGPB_WGPU_TEXTURE_2D_FLOAT : id;
    }
    case DGPB_KIND_TEXTURE_SAMPLER: {
        if (view < 0 || sample < 0 || ms)
            return 0;
        uint32_t id = RANGE_TEXTURE_SAMPLER + (uint32_t)view * 8 + (uint32_t)sample * 2 + cmp;
        return id == RANGE_TEXTURE_SAMPLER + 8 ? DGPB_WGPU_TEXTURE_2D_FLOAT_FILTERING_SAMPLER : id;
    }
    case DGPB_KIND_RW_TEXTURE: {
        uint32_t format = DGPB_SHAPE_FORMAT_OF(shape), access = DGPB_SHAPE_ACCESS_OF(shape);
        if (view < 0 || ms || !format || !access || DGPB_SHAPE_DIM_OF(shape) == DGPB_DIM_CUBE ||
            !dgpb_texel_format_name(format))
            return 0;
        if (view == 1 && access == DGPB_ACCESS_READ_WRITE)
            for (size_t i = 0; i < sizeof table_storage / sizeof table_storage[0]; i++)
                if (!strcmp(table_storage[i].format, dgpb_texel_format_name(format)))
                    return table_storage[i].id;
        return RANGE_STORAGE_TEXTURE + format * 32 + access * 8 + (uint32_t)view;
    }
    default:
        return kind_webgpu[kind] > 0 ? (uint32_t)kind_webgpu[kind] : 0;
    }
}

bool dgpb_webgpu_layout_decode(uint32_t id, uint32_t *kind, uint32_t *shape)
{
    uint32_t k = 0, s = 0;
    uint32_t float_sample = DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT;
    switch (id) {
    case DGPB_WGPU_UNIFORM_BUFFER:
        k = DGPB_KIND_UNIFORM_BUFFER;
        break;
    case DGPB_WGPU_READ_ONLY_STORAGE_BUFFER:
        k = DGPB_KIND_BUFFER;
        break;
    case DGPB_WGPU_STORAGE_BUFFER:
        k = DGPB_KIND_RW_BUFFER;
        break;
    case DGPB_WGPU_FILTERING_SAMPLER:
    case DGPB_WGPU_NON_FILTERING_SAMPLER:
        k = DGPB_KIND_SAMPLER;
        break;
    case DGPB_WGPU_COMPARISON_SAMPLER:
        k = DGPB_KIND_SAMPLER, s = DGPB_SHAPE_COMPARISON;
        break;
    case DGPB_WGPU_TEXTURE_2D_FLOAT:
        k = DGPB_KIND_TEXTURE, s = DGPB_DIM_2D | float_sample;
        break;
    case DGPB_WGPU_TEXTURE_2D_FLOAT_FILTERING_SAMPLER:
        k = DGPB_KIND_TEXTURE_SAMPLER, s = DGPB_DIM_2D | float_sample;
        break;
    default:
        for (size_t i = 0; i < sizeof table_storage / sizeof table_storage[0]; i++)
            if (table_storage[i].id == id) {
                uint32_t f = dgpb_texel_format_from_name(table_storage[i].format,
                                                         strlen(table_storage[i].format));
                k = DGPB_KIND_RW_TEXTURE;
                s = DGPB_DIM_2D | dgpb_texel_format_sample_type(f) << DGPB_SHAPE_SAMPLE_SHIFT |
                    f << DGPB_SHAPE_FORMAT_SHIFT |
                    DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT;
            }
        if (k)
            break;
        if (id >= RANGE_SAMPLED_TEXTURE && id < RANGE_SAMPLED_TEXTURE + WEBGPU_VIEW_COUNT * 8) {
            uint32_t n = id - RANGE_SAMPLED_TEXTURE, view = n / 8, sample = n % 8 / 2;
            k = DGPB_KIND_TEXTURE;
            s = shape_of_view((int)view) |
                webgpu_samples[sample].sample << DGPB_SHAPE_SAMPLE_SHIFT |
                (n % 2 ? DGPB_SHAPE_MULTISAMPLED : 0);
        } else if (id >= RANGE_TEXTURE_SAMPLER &&
                   id < RANGE_TEXTURE_SAMPLER + WEBGPU_VIEW_COUNT * 8) {
            uint32_t n = id - RANGE_TEXTURE_SAMPLER, view = n / 8, sample = n % 8 / 2;
            k = DGPB_KIND_TEXTURE_SAMPLER;
            s = shape_of_view((int)view) |
                webgpu_samples[sample].sample << DGPB_SHAPE_SAMPLE_SHIFT |
                (n % 2 ? DGPB_SHAPE_COMPARISON : 0);
        } else if (id >= RANGE_STORAGE_TEXTURE + 32) {
            uint32_t n = id - RANGE_STORAGE_TEXTURE, format = n / 32, access = n % 32 / 8,
                     view = n % 8;
            if (!dgpb_texel_format_name(format) || !access || view >= WEBGPU_VIEW_COUNT)
                return false;
            k = DGPB_KIND_RW_TEXTURE;
            s = shape_of_view((int)view) |
                dgpb_texel_format_sample_type(format) << DGPB_SHAPE_SAMPLE_SHIFT |
                format << DGPB_SHAPE_FORMAT_SHIFT | access << DGPB_SHAPE_ACCESS_SHIFT;
        } else {
            return false;
        }
        break;
    }
    /* A made ID is canonical only where the table has none for its descriptor. */
    if (id >= RANGE_SAMPLED_TEXTURE && dgpb_webgpu_layout_for(k, s) != id)
        return false;
    if (kind)
        *kind = k;
    if (shape)
        *shape = s;
    return true;
}

char *dgpb_webgpu_layout_text(uint32_t id, char *buf, size_t size)
{
    uint32_t kind, shape;
    if (!size)
        return buf;
    if (id < DGPB_WGPU_COUNT) {
        snprintf(buf, size, "%s", webgpu_names[id]);
        return buf;
    }
    if (!dgpb_webgpu_layout_decode(id, &kind, &shape)) {
        snprintf(buf, size, "unknown");
        return buf;
    }
    int view = view_of(shape), sample = sample_of(shape);
    const char *vn = view >= 0 ? webgpu_views[view].name : "?";
    const char *sn = sample >= 0 ? webgpu_samples[sample].name : "?";
    if (kind == DGPB_KIND_TEXTURE)
        snprintf(buf, size, "%s %s sampled texture%s", vn, sn,
                 shape & DGPB_SHAPE_MULTISAMPLED ? ", multisampled" : "");
    else if (kind == DGPB_KIND_TEXTURE_SAMPLER)
        snprintf(buf, size, "%s %s sampled texture at binding, %s sampler at binding + 1", vn, sn,
                 shape & DGPB_SHAPE_COMPARISON ? "comparison" : "filtering");
    else
        snprintf(buf, size, "%s %s %s storage texture", vn,
                 dgpb_shape_access_name(DGPB_SHAPE_ACCESS_OF(shape)),
                 dgpb_texel_format_name(DGPB_SHAPE_FORMAT_OF(shape)));
    return buf;
}

bool dgpb_webgpu_layout_allowed(uint32_t kind, uint32_t shape, uint32_t id, bool is_wgsl)
{
    if (!is_wgsl)
        return id == DGPB_WGPU_NONE;
    if (kind < DGPB_KIND_COUNT && kind_webgpu[kind] == KIND_WGPU_NO_BINDING)
        return false; /* no row of the kind on wgsl, whatever its ID */
    if (kind >= DGPB_KIND_COUNT || !id)
        return kind < DGPB_KIND_COUNT && !id && kind_webgpu[kind] == KIND_WGPU_NONE;
    if (!kind_shaped[kind])
        return (int)id == kind_webgpu[kind];
    uint32_t k;
    if (!dgpb_webgpu_layout_decode(id, &k, NULL) || k != kind)
        return false;
    if (!shape) /* not stated: any descriptor of the kind */
        return true;
    return id == dgpb_webgpu_layout_for(kind, shape) ||
           (kind == DGPB_KIND_SAMPLER && id == DGPB_WGPU_NON_FILTERING_SAMPLER &&
            !(shape & DGPB_SHAPE_COMPARISON));
}

bool dgpb_kind_has_shape(uint32_t kind)
{
    return kind < DGPB_KIND_COUNT && kind_shaped[kind];
}

bool dgpb_kind_has_size(uint32_t kind)
{
    return kind < DGPB_KIND_COUNT && kind_size_meaning[kind] != NULL;
}

const char *dgpb_texel_format_name(uint32_t format)
{
    return format < DGPB_TEXEL_FORMAT_END ? texel_formats[format].name : NULL;
}

uint32_t dgpb_texel_format_from_name(const char *s, size_t len)
{
    for (uint32_t f = 1; f < DGPB_TEXEL_FORMAT_END; f++)
        if (texel_formats[f].name && strlen(texel_formats[f].name) == len &&
            !memcmp(texel_formats[f].name, s, len))
            return f;
    return 0;
}

uint32_t dgpb_texel_format_sample_type(uint32_t format)
{
    return format < DGPB_TEXEL_FORMAT_END ? texel_formats[format].sample : 0;
}

const char *dgpb_webgpu_storage_feature(uint32_t format, uint32_t access)
{
    if (format >= DGPB_TEXEL_FORMAT_END || !texel_formats[format].known ||
        access < DGPB_ACCESS_READ || access > DGPB_ACCESS_READ_WRITE)
        return NULL;
    return access == DGPB_ACCESS_READ_WRITE ? texel_formats[format].read_write
                                            : texel_formats[format].storage;
}

const char *dgpb_shape_dim_name(uint32_t dim)
{
    return dim < DGPB_DIM_COUNT ? dim_names[dim] : NULL;
}

const char *dgpb_sample_type_name(uint32_t sample)
{
    return sample < DGPB_SAMPLE_COUNT ? sample_names[sample] : NULL;
}

const char *dgpb_shape_access_name(uint32_t access)
{
    return access < 4 ? access_names[access] : NULL;
}

char *dgpb_shape_text(uint32_t shape, char *buf, size_t size)
{
    size_t n = 0;
    if (!size)
        return buf;
    buf[0] = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (n < size)                                                                              \
            n += (size_t)snprintf(buf + n, size - n, __VA_ARGS__);                                 \
    } while (0)
    const char *dim = dgpb_shape_dim_name(DGPB_SHAPE_DIM_OF(shape));
    const char *sample = dgpb_sample_type_name(DGPB_SHAPE_SAMPLE_OF(shape));
    const char *format = dgpb_texel_format_name(DGPB_SHAPE_FORMAT_OF(shape));
    const char *access = dgpb_shape_access_name(DGPB_SHAPE_ACCESS_OF(shape));
    if (DGPB_SHAPE_DIM_OF(shape))
        ADD("%s%s%s", dim ? dim : "?", shape & DGPB_SHAPE_ARRAYED ? "_array" : "",
            shape & DGPB_SHAPE_MULTISAMPLED ? " ms" : "");
    if (DGPB_SHAPE_SAMPLE_OF(shape))
        ADD("%s%s", n ? " " : "", sample ? sample : "?");
    if (DGPB_SHAPE_FORMAT_OF(shape))
        ADD("%s%s", n ? " " : "", format ? format : "?");
    if (access)
        ADD("%s%s", n ? " " : "", access);
    if (shape & DGPB_SHAPE_COMPARISON)
        ADD("%scomparison", n ? " " : "");
    if (DGPB_SHAPE_DIM_OF(shape) == DGPB_DIM_SUBPASS || DGPB_SHAPE_ATTACHMENT_OF(shape))
        ADD("%sattachment %u", n ? " " : "", (unsigned)DGPB_SHAPE_ATTACHMENT_OF(shape));
    if (shape & ~DGPB_SHAPE_ALL)
        ADD("%s0x%x", n ? " " : "", shape & ~DGPB_SHAPE_ALL);
    if (!n)
        ADD("none");
#undef ADD
    return buf;
}

/* Why a shape word does not fit a row of `kind`, or NULL. */
static const char *shape_rule(uint32_t kind, uint32_t shape, char *buf, size_t buf_size)
{
    uint32_t dim = DGPB_SHAPE_DIM_OF(shape), sample = DGPB_SHAPE_SAMPLE_OF(shape),
             format = DGPB_SHAPE_FORMAT_OF(shape), access = DGPB_SHAPE_ACCESS_OF(shape);
    bool texel_buffer = kind == DGPB_KIND_TEXEL_BUFFER || kind == DGPB_KIND_RW_TEXEL_BUFFER;
    bool storage = kind == DGPB_KIND_RW_TEXTURE;
    const char *why = NULL;
    if (shape & ~DGPB_SHAPE_ALL)
        why = "unknown bits";
    else if (dim >= DGPB_DIM_COUNT)
        why = "an unknown dimension";
    else if (sample >= DGPB_SAMPLE_COUNT)
        why = "an unknown sample type";
    else if (format && !dgpb_texel_format_name(format))
        why = "an unknown texel format";
    else if (kind == DGPB_KIND_SAMPLER && (shape & ~DGPB_SHAPE_COMPARISON))
        why = "texture fields on a sampler";
    else if (kind != DGPB_KIND_SAMPLER && shape && !dim)
        why = "no dimension";
    else if (shape && (dim == DGPB_DIM_SUBPASS) != (kind == DGPB_KIND_INPUT_ATTACHMENT))
        why = kind == DGPB_KIND_INPUT_ATTACHMENT ? "a dimension other than subpass"
                                                 : "the dimension of an input attachment";
    else if (shape && (dim == DGPB_DIM_BUFFER) != texel_buffer)
        why = texel_buffer ? "a dimension other than buffer" : "the dimension of a texel buffer";
    else if (DGPB_SHAPE_ATTACHMENT_OF(shape) && kind != DGPB_KIND_INPUT_ATTACHMENT)
        why = "an attachment index on a parameter that is not an input attachment";
    else if ((shape & DGPB_SHAPE_MULTISAMPLED) && dim != DGPB_DIM_2D && dim != DGPB_DIM_SUBPASS)
        why = "multisampling of a texture that is not 2d";
    else if ((shape & DGPB_SHAPE_ARRAYED) &&
             (dim == DGPB_DIM_3D || dim == DGPB_DIM_BUFFER || dim == DGPB_DIM_SUBPASS))
        why = dim == DGPB_DIM_3D ? "an array of 3d textures" : "layers (arrayed)";
    else if (kind != DGPB_KIND_SAMPLER && kind != DGPB_KIND_TEXTURE &&
             kind != DGPB_KIND_TEXTURE_SAMPLER && (shape & DGPB_SHAPE_COMPARISON))
        why = kind == DGPB_KIND_RW_TEXTURE ? "comparison on a storage texture"
                                           : "comparison on a parameter no sampler reads";
    else if (sample == DGPB_SAMPLE_DEPTH && (texel_buffer || kind == DGPB_KIND_INPUT_ATTACHMENT))
        why = "the depth sample type on a parameter no sampler reads";
    else if (kind != DGPB_KIND_RW_TEXTURE && kind != DGPB_KIND_RW_TEXEL_BUFFER && access)
        why = "an access mode on a texture that is not a storage texture";
    else if (!storage && !texel_buffer && format)
        why = "a texel format on a texture that is not a storage texture";
    else if (format && sample && dgpb_texel_format_sample_type(format) != sample)
        why = "a sample type its texel format does not return";
    if (!why)
        return NULL;
    char text[96];
    snprintf(buf, buf_size, "shape 0x%x (%s) of a %s parameter has %s", shape,
             dgpb_shape_text(shape, text, sizeof text), kind_names[kind], why);
    return buf;
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

const char *dgpb_param_rule(uint32_t kind, uint32_t flags, uint32_t space, uint32_t binding,
                            uint32_t offset, uint32_t size, uint32_t webgpu_layout, bool is_wgsl,
                            char *buf, size_t buf_size)
{
    if (kind >= DGPB_KIND_COUNT) {
        snprintf(buf, buf_size, "unknown parameter kind %u", kind);
        return buf;
    }
    if (flags & ~DGPB_FLAG_ALL) {
        snprintf(buf, buf_size, "unknown flag bits 0x%x", flags & ~DGPB_FLAG_ALL);
        return buf;
    }
    if (flags & DGPB_FLAG_ABSENT)
        return flags == DGPB_FLAG_ABSENT && !space && !binding && !offset && !size &&
                       !webgpu_layout
                   ? NULL
                   : "a row absent from the target's code has no other flag, and its space, "
                     "binding, offset, size and webgpu_layout are 0";
    if ((flags & (DGPB_FLAG_READ_ONLY | DGPB_FLAG_WRITTEN)) ==
        (DGPB_FLAG_READ_ONLY | DGPB_FLAG_WRITTEN))
        return "flags say both read-only and written";
    if ((flags & DGPB_FLAG_UNBOUNDED) &&
        (kind == DGPB_KIND_VALUE || kind == DGPB_KIND_HANDLE || kind == DGPB_KIND_MLP_WEIGHTS)) {
        snprintf(buf, buf_size, "a %s parameter cannot be an unbounded array", kind_names[kind]);
        return buf;
    }
    if ((flags & DGPB_FLAG_SHARED_BINDING) && kind != DGPB_KIND_TEXTURE &&
        kind != DGPB_KIND_SAMPLER) {
        snprintf(buf, buf_size,
                 "a %s parameter cannot share its binding (only a texture and a "
                 "sampler can)",
                 kind_names[kind]);
        return buf;
    }
    uint32_t need = dgpb_kind_required_flags(kind);
    if ((flags & need) != need) {
        snprintf(buf, buf_size, "a %s parameter must be flagged read-only", kind_names[kind]);
        return buf;
    }
    /* A structured buffer's size is its element stride, a uniform buffer's its block's size
       (DGPB_SIZED_KIND). */
    const char *sized = kind_size_meaning[kind];
    bool shaped = kind_shaped[kind];
    if (kind != DGPB_KIND_VALUE && ((offset != 0 && !shaped) || (size != 0 && !sized))) {
        snprintf(buf, buf_size, "a %s parameter must have %s and size 0%s%s", kind_names[kind],
                 shaped ? "its shape in offset" : "offset 0", sized ? " or " : "",
                 sized ? sized : "");
        return buf;
    }
    if (shaped && shape_rule(kind, offset, buf, buf_size))
        return buf;
    if (kind == DGPB_KIND_VALUE && size == 0)
        return "a value parameter must have a non-zero size";
    if (kind == DGPB_KIND_VALUE && (uint64_t)offset + size > UINT32_MAX)
        return "a value parameter's offset + size overflows";
    uint32_t shape = shaped ? offset : 0;
    if (!dgpb_webgpu_layout_allowed(kind, shape, webgpu_layout, is_wgsl)) {
        char text[128], shape_text[96];
        if (is_wgsl && kind_webgpu[kind] == KIND_WGPU_NO_BINDING)
            snprintf(buf, buf_size,
                     "%s parameters have no place on wgsl: WebGPU cannot bind them (spirv only)",
                     kind_names[kind]);
        else if (webgpu_layout && !dgpb_webgpu_layout_decode(webgpu_layout, NULL, NULL))
            snprintf(buf, buf_size, "unknown webgpu_layout id %u", webgpu_layout);
        else if (!is_wgsl)
            snprintf(buf, buf_size, "webgpu_layout %u on a target other than wgsl (must be 0)",
                     webgpu_layout);
        else if (shape)
            snprintf(buf, buf_size,
                     "webgpu_layout %u (%s) does not describe a %s parameter of "
                     "shape %s",
                     webgpu_layout, dgpb_webgpu_layout_text(webgpu_layout, text, sizeof text),
                     kind_names[kind], dgpb_shape_text(shape, shape_text, sizeof shape_text));
        else
            snprintf(buf, buf_size, "webgpu_layout %u (%s) does not describe a %s parameter",
                     webgpu_layout, dgpb_webgpu_layout_text(webgpu_layout, text, sizeof text),
                     kind_names[kind]);
        return buf;
    }
    return NULL;
}

const char *dgpb_thread_group_rule(uint32_t stage, const uint32_t thread_group_size[3])
{
    static const char *const needs[DGPB_STAGE_COUNT] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    [value] = "stage '" name "' needs a thread group size of at least 1 in each dimension",
#include "dgpb/vocabulary.def"
    };
    static const char *const none[DGPB_STAGE_COUNT] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    [value] = "stage '" name "' has no thread group size: it must be 0,0,0",
#include "dgpb/vocabulary.def"
    };
    if (dgpb_stage_has_thread_group(stage)) {
        if (thread_group_size[0] == 0 || thread_group_size[1] == 0 || thread_group_size[2] == 0)
            return needs[stage];
        return NULL;
    }
    if (stage < DGPB_STAGE_COUNT &&
        (thread_group_size[0] || thread_group_size[1] || thread_group_size[2]))
        return none[stage];
    return NULL;
}

/* ---- project options ---- */

/* An ASCII letter or '_' (locale-free); digits too with `digits`. */
static bool name_char(char c, bool digits)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           (digits && c >= '0' && c <= '9');
}

bool dgpb_slang_capability_valid(const char *name, size_t len)
{
    if (!len || len > DGPB_SLANG_CAPABILITY_MAX || !name_char(name[0], false))
        return false;
    for (size_t i = 1; i < len; i++)
        if (!name_char(name[i], true))
            return false;
    return true;
}

uint32_t dgpb_spirv_version_parse(const char *s, size_t len)
{
    if (len != 3 || s[0] != '1' || s[1] != '.' || s[2] < '0' || s[2] > '9')
        return 0;
    uint32_t v = 0x00010000u | (uint32_t)(s[2] - '0') << 8;
    return v >= DGPB_SPIRV_VERSION_MIN && v <= DGPB_SPIRV_VERSION_MAX ? v : 0;
}

char *dgpb_spirv_version_text(uint32_t version, char *buf, size_t size)
{
    snprintf(buf, size, "%u.%u", version >> 16 & 0xFFu, version >> 8 & 0xFFu);
    return buf;
}

/*
 * "<option> is '<value>', not one of A, B (D, the default, is never
 * recorded)", from a vocabulary's values, the default first: into `buf`.
 */
static const char *not_one_of(const char *option, const char *value, size_t len,
                              const char *const *names, int count, char *buf, size_t size)
{
    int at = snprintf(buf, size, "%s is '%.*s', not one of", option, (int)(len < 40 ? len : 40),
                      value);
    for (int i = 1; i < count && at > 0 && (size_t)at < size; i++)
        at += snprintf(buf + at, size - (size_t)at, "%s %s", i > 1 ? "," : "", names[i]);
    if (at > 0 && (size_t)at < size)
        snprintf(buf + at, size - (size_t)at, " (%s, the default, is never recorded)", names[0]);
    return buf;
}

const char *dgpb_option_rule(uint32_t option, const char *value, size_t len, char *buf,
                             size_t buf_size)
{
    switch (option) {
    case DGPB_OPTION_BLOCK_LAYOUT:
        return dgpb_block_layout_from_name(value, len) > 0
                   ? NULL
                   : not_one_of("block_layout", value, len, block_layout_names,
                                DGPB_BLOCK_LAYOUT_COUNT, buf, buf_size);
    case DGPB_OPTION_DEBUG_INFO:
        return dgpb_debug_info_from_level(value, len) > 0
                   ? NULL
                   : not_one_of("debug_info", value, len, debug_info_levels,
                                DGPB_DEBUG_INFO_COUNT, buf, buf_size);
    case DGPB_OPTION_OPTIMIZATION:
        return dgpb_optimization_from_level(value, len) > 0
                   ? NULL
                   : not_one_of("optimization", value, len, optimization_levels,
                                DGPB_OPTIMIZATION_COUNT, buf, buf_size);
    case DGPB_OPTION_MATRIX_LAYOUT:
        if (len == 6 && !memcmp(value, "column", 6))
            return NULL;
        snprintf(buf, buf_size,
                 "matrix_layout is '%.*s', not 'column' (row, the default, is never recorded)",
                 (int)(len < 40 ? len : 40), value);
        return buf;
    case DGPB_OPTION_SPIRV_VERSION:
        if (dgpb_spirv_version_parse(value, len))
            return NULL;
        snprintf(buf, buf_size, "spirv_version is '%.*s', not one of 1.3, 1.4, 1.5, 1.6",
                 (int)(len < 40 ? len : 40), value);
        return buf;
    case DGPB_OPTION_SLANG_CAPABILITIES: {
        const char *prev = NULL;
        size_t prev_len = 0;
        for (size_t at = 0; at <= len;) {
            const char *comma = memchr(value + at, ',', len - at);
            size_t n = comma ? (size_t)(comma - (value + at)) : len - at;
            const char *name = value + at;
            if (!dgpb_slang_capability_valid(name, n)) {
                snprintf(buf, buf_size, "slang_capabilities: '%.*s' is no Slang capability name",
                         (int)(n < 60 ? n : 60), name);
                return buf;
            }
            if (prev) {
                int c = memcmp(prev, name, prev_len < n ? prev_len : n);
                if (c > 0 || (c == 0 && prev_len >= n)) {
                    snprintf(buf, buf_size,
                             "slang_capabilities: '%.*s' follows '%.*s': the names must be sorted "
                             "and unique",
                             (int)(n < 60 ? n : 60), name, (int)(prev_len < 60 ? prev_len : 60),
                             prev);
                    return buf;
                }
            }
            prev = name;
            prev_len = n;
            at += n + 1;
        }
        return NULL;
    }
    default:
        snprintf(buf, buf_size, "unknown option %u", option);
        return buf;
    }
}
