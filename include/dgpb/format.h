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

/* Parameter flags. */
#define DGPB_FLAG_READ_ONLY 0x1u /* read-only to the shader */
#define DGPB_FLAG_WRITTEN 0x2u   /* the shader writes it (found in its SPIR-V) */
#define DGPB_FLAG_ALL (DGPB_FLAG_READ_ONLY | DGPB_FLAG_WRITTEN)

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
 * On ptx, the `binding` of a value row that sits directly in Slang's global
 * parameter block (SLANG_globalParams) at its `offset`, rather than in the
 * memory of a constant buffer whose pointer sits there.
 */
#define DGPB_BINDING_INLINE 0xFFFFFFFFu

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
const char *dgpb_webgpu_layout_name(uint32_t id);      /* "storage buffer", ... */
const char *dgpb_target_name(uint32_t target);         /* "dxbc", ... */
int dgpb_target_from_name(const char *s, size_t len);
const char *dgpb_code_format_name(uint32_t format); /* "msl", ...; "cuda" is never in a bundle */
int dgpb_code_format_from_name(const char *s, size_t len);

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
 * `kind` on a target: on wgsl (`is_wgsl`) it must match the kind's
 * descriptor; on every other target it must be 0.
 */
bool dgpb_webgpu_layout_allowed(uint32_t kind, uint32_t webgpu_layout, bool is_wgsl);

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
 * constant, whose webgpu_layout is 0 on every target).
 */
const char *dgpb_param_rule(uint32_t kind, uint32_t flags, uint32_t offset, uint32_t size,
                            uint32_t webgpu_layout, bool is_wgsl, char *buf, size_t buf_size);

/*
 * The rule for an entry's thread group size: NULL when it fits the stage,
 * else a static reason ("stage 'mesh' needs a thread group size of at least
 * 1 in each dimension", "stage 'vertex' has no thread group size: it must be
 * 0,0,0"). Stages with a thread group size: dgpb_stage_has_thread_group().
 */
const char *dgpb_thread_group_rule(uint32_t stage, const uint32_t thread_group_size[3]);

#ifdef __cplusplus
}
#endif

#endif
