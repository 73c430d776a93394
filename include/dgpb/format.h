/*
 * dgpb/format.h - the vocabulary of the DGPB v0 format.
 *
 * The numbers and names that a bundle may contain, and the rules that tie
 * them together: parameter kinds (GpuArgKind), parameter flags, stage names,
 * capability names, WebGPU binding-layout IDs, target names with their code
 * formats and backends. docs/format.md explains each table; the writer and
 * the reader both check bundles against the functions declared here, so the
 * two can never disagree. Every table is a set of rows in
 * dgpb/vocabulary.def, which the enums below and format.c expand.
 */
#ifndef DGPB_FORMAT_H
#define DGPB_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DGPB_MAGIC "DGPB"
#define DGPB_FORMAT_VERSION 0u

/* Parameter kinds (GpuArgKind numbering; dgpb/vocabulary.def, DGPB_KIND). */
typedef enum dgpb_kind {
#define DGPB_KIND(ID, value, name, ACCESS, WEBGPU) DGPB_KIND_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_KIND_COUNT
} dgpb_kind;

/* Parameter flags (dgpb/vocabulary.def, DGPB_FLAG; docs/format.md, "Flags"). */
typedef enum dgpb_flag {
#define DGPB_FLAG(ID, bit, name, brief, ACCESS) DGPB_FLAG_##ID = 1u << (bit),
#include "dgpb/vocabulary.def"
/* Every flag: 0, or'ed with each row's bit. */
#define DGPB_FLAG(ID, bit, name, brief, ACCESS) | (1u << (bit))
    DGPB_FLAG_ALL = 0
#include "dgpb/vocabulary.def"
} dgpb_flag;

/* DGPB_FLAG's ACCESS column as a truth value: 1 for the flags that say how the shader reaches
   a row (at most one of them per row), 0 for the others. */
#define DGPB_FLAG_IS_ACCESS 1
#define DGPB_FLAG_IS_OTHER 0

/*
 * The `space` of a launch parameter: a value (or, on ptx, a resource) that
 * lives outside every descriptor set, in the data a host hands over with the
 * dispatch itself: Vulkan push constants on spirv, the kernel's parameter
 * buffer on ptx (docs/format.md, "Where a row lives").
 */
#define DGPB_SPACE_LAUNCH 0xFFFFFFFFu

/*
 * The `space` of a pipeline constant: a specialization constant
 * ([vk::constant_id(N)], [SpecializationConstant]; a WGSL `override`) that
 * the host sets when it creates the pipeline. Its row is a value row whose
 * `binding` is the constant's id, `offset` 0 and `size` its byte size; the
 * code's default applies when the host does not set it (docs/format.md,
 * "Where a row lives").
 */
#define DGPB_SPACE_PIPELINE_CONSTANT 0xFFFFFFFEu

/*
 * The `space` of a shader record's value: data a ray-tracing host writes
 * into the shader binding table after the shader group's handle, which the
 * shader reads through its record ([[vk::shader_record]] blocks, and a
 * ray-tracing entry's own `uniform` values on spirv). Its rows are value rows
 * with `binding` 0 and their byte `offset`/`size` in the record
 * (docs/format.md, "Where a row lives"); each shader has its own record.
 */
#define DGPB_SPACE_SHADER_RECORD 0xFFFFFFFDu

/*
 * On ptx, the `binding` of a value row that sits directly in Slang's global
 * parameter block (SLANG_globalParams) at its `offset`, rather than in the
 * memory of a constant buffer whose pointer sits there.
 */
#define DGPB_BINDING_INLINE 0xFFFFFFFFu

/*
 * The names of those reserved numbers (vocabulary.def, DGPB_RESERVED), as
 * every listing spells them: "launch" for DGPB_SPACE_LAUNCH,
 * "pipeline_constant" for DGPB_SPACE_PIPELINE_CONSTANT, "inline" for
 * DGPB_BINDING_INLINE; NULL for any other number (a descriptor set, a
 * binding), which a listing prints as it is.
 */
const char *dgpb_space_name(uint32_t space);
const char *dgpb_binding_name(uint32_t binding);

/*
 * A shape word: what a host must create for a texture, storage texture,
 * sampler, combined texture-sampler, input attachment or texel buffer row
 * (the kinds of DGPB_SHAPED_KIND), carried in the row's `offset`
 * (docs/format.md, "Shapes"). 0 means "not stated" (a target whose code
 * dgpb does not read). The fields:
 */
#define DGPB_SHAPE_DIM_MASK 0x0000000Fu     /* dgpb_shape_dim */
#define DGPB_SHAPE_ARRAYED 0x00000010u      /* an array texture (layers) */
#define DGPB_SHAPE_MULTISAMPLED 0x00000020u /* a multisampled texture */
#define DGPB_SHAPE_COMPARISON                                                                      \
    0x00000040u                    /* sampled with depth comparison (the sampler of a
                                              sampler or texture_sampler row compares) */
#define DGPB_SHAPE_SAMPLE_SHIFT 8u /* dgpb_sample_type, bits 8..11 */
#define DGPB_SHAPE_SAMPLE_MASK 0x00000F00u
#define DGPB_SHAPE_FORMAT_SHIFT 16u /* DGPB_TEXEL_FORMAT value, bits 16..23; 0 unstated */
#define DGPB_SHAPE_FORMAT_MASK 0x00FF0000u
#define DGPB_SHAPE_ACCESS_SHIFT                                                                    \
    24u /* dgpb_shape_access, bits 24..25; storage textures and
                                       storage texel buffers */
#define DGPB_SHAPE_ACCESS_MASK 0x03000000u
#define DGPB_SHAPE_ATTACHMENT_SHIFT                                                                \
    26u /* input attachments: the attachment index (SPIR-V's
                                           InputAttachmentIndex), bits 26..31 */
#define DGPB_SHAPE_ATTACHMENT_MASK 0xFC000000u
#define DGPB_SHAPE_ATTACHMENT_MAX 63u /* the largest attachment index a shape word holds */
#define DGPB_SHAPE_ALL                                                                             \
    (DGPB_SHAPE_DIM_MASK | DGPB_SHAPE_ARRAYED | DGPB_SHAPE_MULTISAMPLED | DGPB_SHAPE_COMPARISON |  \
     DGPB_SHAPE_SAMPLE_MASK | DGPB_SHAPE_FORMAT_MASK | DGPB_SHAPE_ACCESS_MASK |                    \
     DGPB_SHAPE_ATTACHMENT_MASK)

typedef enum dgpb_shape_dim {
#define DGPB_SHAPE_DIM(ID, value, name, spirv_dim, wgsl) DGPB_DIM_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_DIM_COUNT
} dgpb_shape_dim;

typedef enum dgpb_sample_type {
#define DGPB_SAMPLE_TYPE(ID, value, name, wgsl) DGPB_SAMPLE_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_SAMPLE_COUNT
} dgpb_sample_type;

typedef enum dgpb_shape_access {
    DGPB_ACCESS_NONE = 0,
#define DGPB_SHAPE_ACCESS(ID, value, name, wgsl) DGPB_ACCESS_##ID = value,
#include "dgpb/vocabulary.def"
} dgpb_shape_access;

typedef enum dgpb_texel_format {
    DGPB_TEXEL_UNKNOWN = 0,
#define DGPB_TEXEL_FORMAT(ID, value, name, slang_format, SAMPLE, storage, read_write)              \
    DGPB_TEXEL_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_TEXEL_FORMAT_END
} dgpb_texel_format;

#define DGPB_SHAPE_DIM_OF(shape) ((shape)&DGPB_SHAPE_DIM_MASK)
#define DGPB_SHAPE_SAMPLE_OF(shape) (((shape)&DGPB_SHAPE_SAMPLE_MASK) >> DGPB_SHAPE_SAMPLE_SHIFT)
#define DGPB_SHAPE_FORMAT_OF(shape) (((shape)&DGPB_SHAPE_FORMAT_MASK) >> DGPB_SHAPE_FORMAT_SHIFT)
#define DGPB_SHAPE_ACCESS_OF(shape) (((shape)&DGPB_SHAPE_ACCESS_MASK) >> DGPB_SHAPE_ACCESS_SHIFT)
#define DGPB_SHAPE_ATTACHMENT_OF(shape)                                                            \
    (((shape)&DGPB_SHAPE_ATTACHMENT_MASK) >> DGPB_SHAPE_ATTACHMENT_SHIFT)

/* Shader stages, by their names in the format (DGPB_STAGE). */
typedef enum dgpb_stage {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    DGPB_STAGE_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_STAGE_COUNT
} dgpb_stage;

/* Capabilities an entry may need; the order is their names sorted (DGPB_CAPABILITY). */
typedef enum dgpb_capability {
#define DGPB_CAPABILITY(ID, value, name, webgpu_feature) DGPB_CAP_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_CAP_COUNT
} dgpb_capability;

/* The project options a bundle may record, in their order there (DGPB_OPTION). */
typedef enum dgpb_option {
#define DGPB_OPTION(ID, value, name, flag) DGPB_OPTION_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_OPTION_COUNT
} dgpb_option;

/* The block layouts of --block-layout (DGPB_BLOCK_LAYOUT; docs/build.md, "Project options"). */
typedef enum dgpb_block_layout {
#define DGPB_BLOCK_LAYOUT(ID, value, name, slang_option, scalar_blocks)                           \
    DGPB_BLOCK_LAYOUT_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_BLOCK_LAYOUT_COUNT
} dgpb_block_layout;

/* The levels of --optimization, -O0 to -O3 (DGPB_OPTIMIZATION); 0 is Slang's default, -O1. */
typedef enum dgpb_optimization {
#define DGPB_OPTIMIZATION(ID, value, level, slang_option) DGPB_OPTIMIZATION_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_OPTIMIZATION_COUNT
} dgpb_optimization;

/* The levels of --debug-info, -g0 to -g3 (DGPB_DEBUG_INFO); 0, none, is the default. */
typedef enum dgpb_debug_info {
#define DGPB_DEBUG_INFO(ID, value, level, slang_option) DGPB_DEBUG_INFO_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_DEBUG_INFO_COUNT
} dgpb_debug_info;

/* The magic of the options record at the start of the data section (docs/format.md). */
#define DGPB_OPTIONS_MAGIC "DGPO"

/* The SPIR-V versions --spirv-version takes, as SPIR-V's header word spells them. */
#define DGPB_SPIRV_VERSION_MIN 0x00010300u /* 1.3: Vulkan 1.1 */
#define DGPB_SPIRV_VERSION_MAX 0x00010600u /* 1.6: Vulkan 1.3 and 1.4 */

/* The longest Slang capability name an options record holds. */
#define DGPB_SLANG_CAPABILITY_MAX 128

/* WebGPU binding-layout IDs (DGPB_WEBGPU_LAYOUT). */
typedef enum dgpb_webgpu_layout {
#define DGPB_WEBGPU_LAYOUT(ID, value, name, LIMIT) DGPB_WGPU_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_WGPU_COUNT
} dgpb_webgpu_layout;

/* The targets in bundle order (sorted by name), as bit positions of a target set (DGPB_TARGET). */
typedef enum dgpb_target_id {
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    DGPB_TARGET_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_TARGET_COUNT
} dgpb_target_id;

/* The graphics backends a host may ask for, one per target (DGPB_TARGET). */
typedef enum dgpb_backend {
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    DGPB_BACKEND_##BACKEND = backend_value,
#include "dgpb/vocabulary.def"
/* The count: 0, plus 1 per target row. */
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    +1
    DGPB_BACKEND_COUNT = 0
#include "dgpb/vocabulary.def"
} dgpb_backend;

/* What sets a target apart: the bits of dgpb_target_traits() (DGPB_TARGET's traits). */
typedef enum dgpb_target_trait {
    DGPB_TRAIT_COMPUTE_ONLY = 1u << 0, /* it carries compute entries only */
    DGPB_TRAIT_WEBGPU_IDS = 1u << 1,   /* its rows carry WebGPU binding-layout IDs */
    DGPB_TRAIT_RUN = 1u << 2,          /* the runner has a host for its backend */
    DGPB_TRAIT_RUN_DEFAULT = 1u << 3,  /* the runner's backend when none is asked for */
} dgpb_target_trait;

/* The forms of a target's code, and the intermediate forms a build reads (DGPB_CODE_FORMAT). */
typedef enum dgpb_code_format {
#define DGPB_CODE_FORMAT(ID, value, name, TARGET, in_bundle, slang_target, extension, PRINT)       \
    DGPB_CODE_FORMAT_##ID = value,
#include "dgpb/vocabulary.def"
    DGPB_CODE_FORMAT_COUNT
} dgpb_code_format;

/*
 * Name lookups. The *_name functions return a static string, or NULL for a
 * value out of range. The *_from_name functions take a byte range (not
 * necessarily NUL-terminated) and return the value, or -1 when unknown.
 */
const char *dgpb_kind_name(uint32_t kind);
int dgpb_kind_from_name(const char *s, size_t len);
const char *dgpb_stage_name(uint32_t stage);
int dgpb_stage_from_name(const char *s, size_t len);
const char *dgpb_capability_name(uint32_t cap);
int dgpb_capability_from_name(const char *s, size_t len);
const char *dgpb_backend_name(uint32_t backend);       /* "Vulkan", "WebGpu", ... */
int dgpb_backend_from_name(const char *s, size_t len); /* case-insensitive */
const char *dgpb_webgpu_layout_name(uint32_t id);      /* "storage buffer", ...; NULL for IDs made
                                                     from shapes (dgpb_webgpu_layout_text) */
const char *dgpb_target_name(uint32_t target);         /* "dxbc", ... */
int dgpb_target_from_name(const char *s, size_t len);
const char *dgpb_code_format_name(uint32_t format); /* "msl", ...; "cuda" is never in a bundle */
int dgpb_code_format_from_name(const char *s, size_t len);
const char *dgpb_option_name(uint32_t option); /* "matrix_layout", ... */
int dgpb_option_from_name(const char *s, size_t len);
const char *dgpb_block_layout_name(uint32_t layout); /* "default", "scalar", ... */
int dgpb_block_layout_from_name(const char *s, size_t len);
const char *dgpb_optimization_level(uint32_t optimization); /* "1" (the default), "0", ... */
int dgpb_optimization_from_level(const char *s, size_t len);
const char *dgpb_debug_info_level(uint32_t debug_info); /* "0" (the default), "1", ... */
int dgpb_debug_info_from_level(const char *s, size_t len);
/* The slangc option of a block layout, optimization or debug-info level (DGPB_BLOCK_LAYOUT,
   ...), or NULL for the default and for a value out of range. */
const char *dgpb_block_layout_slang_option(uint32_t layout);
const char *dgpb_optimization_slang_option(uint32_t optimization);
const char *dgpb_debug_info_slang_option(uint32_t debug_info);
/* Whether a block layout's offsets may break std430's alignments (scalar block layouts). */
bool dgpb_block_layout_scalar(uint32_t layout);

/* The target name that serves a backend ("spirv" for DGPB_BACKEND_VULKAN), or NULL. */
const char *dgpb_backend_target(uint32_t backend);

/* The target that serves a backend (DGPB_TARGET_SPIRV for DGPB_BACKEND_VULKAN), or -1. */
int dgpb_backend_target_id(uint32_t backend);

/* The traits of a target (dgpb_target_trait bits), or 0 for a value out of range. */
uint32_t dgpb_target_traits(uint32_t target);

/* True when `name` (len bytes) is one of the format's target names. */
bool dgpb_target_name_known(const char *name, size_t len);

/* True when `code_format` is allowed for target `target` (metal: metallib or msl). */
bool dgpb_code_format_allowed(const char *target, size_t target_len, const char *code_format,
                              size_t code_format_len);

/* True when the stage is a ray-tracing stage (raygeneration ... callable). */
bool dgpb_stage_is_ray_tracing(uint32_t stage);

/*
 * True when the stage's entries have a thread group size, each of the three
 * at least 1 (compute, mesh, amplification); the other stages' is 0,0,0.
 */
bool dgpb_stage_has_thread_group(uint32_t stage);

/*
 * The dgpb_stage of Slang's SlangStage value (what a layout blob records for
 * an entry: dgpb_layout_ep_stage()), or -1 for one the format has no stage for.
 */
int dgpb_stage_from_slang(uint32_t slang_stage);

/*
 * True when `webgpu_layout` is the one the format allows for a parameter of
 * `kind` and `shape` (its offset: the shape word of a shaped kind) on a
 * target: on wgsl (`is_wgsl`) it must be dgpb_webgpu_layout_for() of them
 * (a plain sampler may be non-filtering, 11; a row whose shape is 0, not
 * stated, may carry any ID of its kind); on every other target it must be 0.
 */
bool dgpb_webgpu_layout_allowed(uint32_t kind, uint32_t shape, uint32_t webgpu_layout,
                                bool is_wgsl);

/*
 * The WebGPU binding-layout ID of a row of `kind` and shape word `shape` on
 * wgsl (docs/format.md, "WebGPU binding-layout IDs"): the table's ID where it
 * names the descriptor (5 for a 2D float texture), else one made from the
 * shape (DGPB_WEBGPU_RANGE); 0 when WebGPU has no such binding (a 1D array,
 * a storage cube map, a shape that states no dimension).
 */
uint32_t dgpb_webgpu_layout_for(uint32_t kind, uint32_t shape);

/*
 * What an ID describes: the kind of its descriptor (`texture_sampler` for a
 * pair; `uniform_buffer`, `buffer`, `rw_buffer`, `sampler`, ...) and the
 * shape word WebGPU's layout entry needs. False for an unknown ID and 0.
 */
bool dgpb_webgpu_layout_decode(uint32_t id, uint32_t *kind, uint32_t *shape);

/* An ID spelled for messages ("cube float sampled texture"); "unknown" when unknown. */
char *dgpb_webgpu_layout_text(uint32_t id, char *buf, size_t size);

/* True when a row of `kind` carries a shape word in `offset` (DGPB_SHAPED_KIND). */
bool dgpb_kind_has_shape(uint32_t kind);
/* Whether rows of a resource kind carry a byte count in `size` (DGPB_SIZED_KIND: a uniform
   buffer its block's size, a structured buffer its element stride). */
bool dgpb_kind_has_size(uint32_t kind);

/* WebGPU's name of a texel format ("rgba8unorm"), or NULL for 0 and values out of range. */
const char *dgpb_texel_format_name(uint32_t format);
/* The texel format of a name, or 0. */
uint32_t dgpb_texel_format_from_name(const char *s, size_t len);
/* The sample type a texture of the format returns (dgpb_sample_type), or 0. */
uint32_t dgpb_texel_format_sample_type(uint32_t format);

/*
 * What a WebGPU device must offer for a storage texture of texel format
 * `format` accessed `access` (dgpb_shape_access; DGPB_TEXEL_FORMAT's storage
 * and read_write columns): "" when every device offers it, the GPUFeatureName
 * that offers it ("texture-formats-tier2" for a read-write rgba16float), or
 * NULL when no device does (a read-write rg32float, any r64uint) and for a
 * format or access that is none of the table's.
 */
const char *dgpb_webgpu_storage_feature(uint32_t format, uint32_t access);

const char *dgpb_shape_dim_name(uint32_t dim);       /* "2d", ...; NULL out of range */
const char *dgpb_sample_type_name(uint32_t sample);  /* "float", ... */
const char *dgpb_shape_access_name(uint32_t access); /* "read_write", ...; NULL for 0 */

/*
 * A shape word spelled for people and the JSON view: its fields joined by
 * spaces in a fixed order, "cube float", "2d_array uint", "2d ms float",
 * "2d rgba8unorm read_write", "comparison", "subpass float attachment 1",
 * "buffer uint r32uint read_write", "none" for 0 (docs/format.md,
 * "Shapes"). Returns buf.
 */
char *dgpb_shape_text(uint32_t shape, char *buf, size_t size);

/* The flags a parameter of `kind` must carry at least (DGPB_FLAG_READ_ONLY for read-only kinds). */
uint32_t dgpb_kind_required_flags(uint32_t kind);

/* True when a parameter of `kind` may be written by a shader (buffers, textures, handles). */
bool dgpb_kind_writable(uint32_t kind);

/*
 * The rules for one parameter row, shared by the model (before writing) and
 * the reader (after reading). Returns NULL when the row is consistent, else a
 * static lowercase reason ("webgpu_layout 4 does not describe a rw_buffer").
 * `buf` (at least 128 bytes) receives reasons that carry numbers. `is_wgsl`:
 * the row is on the wgsl target and is a bind-group entry (not a pipeline
 * constant, whose webgpu_layout is 0 on every target). An `absent` row has no
 * other flag and every number but its kind 0.
 */
const char *dgpb_param_rule(uint32_t kind, uint32_t flags, uint32_t space, uint32_t binding,
                            uint32_t offset, uint32_t size, uint32_t webgpu_layout, bool is_wgsl,
                            char *buf, size_t buf_size);

/*
 * The rule for an entry's thread group size: NULL when it fits the stage,
 * else a static reason ("stage 'mesh' needs a thread group size of at least
 * 1 in each dimension", "stage 'vertex' has no thread group size: it must be
 * 0,0,0"). Stages with a thread group size: dgpb_stage_has_thread_group().
 */
const char *dgpb_thread_group_rule(uint32_t stage, const uint32_t thread_group_size[3]);

/*
 * The rule for the value of project option `option` in an options record
 * (docs/format.md, "The options record"), shared by the model and the
 * readers: NULL when `value` (len bytes) is one a bundle may record, else a
 * lowercase reason (into `buf`, at least 160 bytes, when it carries text).
 * block_layout: a block layout's name but "default" (never recorded);
 * debug_info: "1" to "3" ("0", the default, is never recorded);
 * matrix_layout: "column" (row, the default, is never recorded);
 * optimization: "0", "2" or "3" ("1", the default, is never recorded);
 * spirv_version: "1.3" to "1.6"; slang_capabilities: Slang capability
 * names, each a letter or '_' then letters, digits and '_' (at most
 * DGPB_SLANG_CAPABILITY_MAX bytes), joined by ',', sorted by byte order and
 * unique.
 */
const char *dgpb_option_rule(uint32_t option, const char *value, size_t len, char *buf,
                             size_t buf_size);

/*
 * Whether `name` (len bytes) is spelled as a Slang capability name may be: a
 * letter or '_', then letters, digits and '_', at most
 * DGPB_SLANG_CAPABILITY_MAX bytes. Whether Slang knows it is Slang's to say.
 */
bool dgpb_slang_capability_valid(const char *name, size_t len);

/*
 * The SPIR-V version word (0x00010500) of "1.5" (len bytes), or 0 when it is
 * not a version --spirv-version takes (DGPB_SPIRV_VERSION_MIN to _MAX).
 * dgpb_spirv_version_text() writes a version word as "1.5" into buf.
 */
uint32_t dgpb_spirv_version_parse(const char *s, size_t len);
char *dgpb_spirv_version_text(uint32_t version, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
