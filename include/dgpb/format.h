/*
 * dgpb/format.h - the vocabulary of the DGPB v0 format.
 *
 * The numbers and names that a bundle may contain, and the rules that tie
 * them together: parameter kinds (GpuArgKind), parameter flags, stage names,
 * capability names, WebGPU binding-layout IDs, target names with their code
 * formats and backends. docs/format.md explains each table; the writer and
 * the reader both check bundles against the functions declared here, so the
 * two can never disagree.
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

/* Parameter kinds (GpuArgKind numbering). */
typedef enum dgpb_kind {
    DGPB_KIND_VALUE = 0,
    DGPB_KIND_UNIFORM_BUFFER = 1,
    DGPB_KIND_BUFFER = 2,
    DGPB_KIND_RW_BUFFER = 3,
    DGPB_KIND_BYTE_BUFFER = 4,
    DGPB_KIND_RW_BYTE_BUFFER = 5,
    DGPB_KIND_TEXTURE = 6,
    DGPB_KIND_RW_TEXTURE = 7,
    DGPB_KIND_SAMPLER = 8,
    DGPB_KIND_ACCELERATION_STRUCTURE = 9,
    DGPB_KIND_MLP_WEIGHTS = 10,
    DGPB_KIND_HANDLE = 11,
    DGPB_KIND_COUNT = 12
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
 * On ptx, the `binding` of a value row that sits directly in Slang's global
 * parameter block (SLANG_globalParams) at its `offset`, rather than in the
 * memory of a constant buffer whose pointer sits there.
 */
#define DGPB_BINDING_INLINE 0xFFFFFFFFu

/* Shader stages, by their names in the format. */
typedef enum dgpb_stage {
    DGPB_STAGE_COMPUTE = 0,
    DGPB_STAGE_VERTEX,
    DGPB_STAGE_FRAGMENT,
    DGPB_STAGE_RAYGENERATION,
    DGPB_STAGE_CLOSESTHIT,
    DGPB_STAGE_ANYHIT,
    DGPB_STAGE_MISS,
    DGPB_STAGE_INTERSECTION,
    DGPB_STAGE_CALLABLE,
    DGPB_STAGE_COUNT
} dgpb_stage;

/* Capabilities an entry may need; the names are the format's, the order is theirs sorted. */
typedef enum dgpb_capability {
    DGPB_CAP_ATOMIC64 = 0,
    DGPB_CAP_COOPERATIVE_MATRIX,
    DGPB_CAP_COOPERATIVE_VECTOR,
    DGPB_CAP_DESCRIPTOR_HANDLE,
    DGPB_CAP_HALF,
    DGPB_CAP_RAYQUERY,
    DGPB_CAP_RAYTRACING,
    DGPB_CAP_SUBGROUP_BASIC,
    DGPB_CAP_COUNT
} dgpb_capability;

/* WebGPU binding-layout IDs. */
typedef enum dgpb_webgpu_layout {
    DGPB_WGPU_NONE = 0,
    DGPB_WGPU_UNIFORM_BUFFER = 1,
    DGPB_WGPU_READ_ONLY_STORAGE_BUFFER = 2,
    DGPB_WGPU_STORAGE_BUFFER = 3,
    DGPB_WGPU_FILTERING_SAMPLER = 4,
    DGPB_WGPU_TEXTURE_2D_FLOAT = 5,
    DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT = 6,
    DGPB_WGPU_STORAGE_TEXTURE_2D_RG32FLOAT = 7,
    DGPB_WGPU_STORAGE_TEXTURE_2D_RGBA32FLOAT = 8,
    DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT = 9,
    DGPB_WGPU_COUNT = 10
} dgpb_webgpu_layout;

/* The graphics backends a host may ask for, and the target that serves each. */
typedef enum dgpb_backend {
    DGPB_BACKEND_DX12 = 0, /* dxil */
    DGPB_BACKEND_DX11,     /* dxbc */
    DGPB_BACKEND_VULKAN,   /* spirv */
    DGPB_BACKEND_METAL,    /* metal */
    DGPB_BACKEND_CUDA,     /* ptx */
    DGPB_BACKEND_WEBGPU,   /* wgsl */
    DGPB_BACKEND_COUNT
} dgpb_backend;

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

/* The target name that serves a backend ("spirv" for DGPB_BACKEND_VULKAN), or NULL. */
const char *dgpb_backend_target(uint32_t backend);

/* True when `name` (len bytes) is one of the format's target names. */
bool dgpb_target_name_known(const char *name, size_t len);

/* True when `code_format` is allowed for target `target` (metal: metallib or msl). */
bool dgpb_code_format_allowed(const char *target, size_t target_len, const char *code_format,
                              size_t code_format_len);

/* True when the stage is a ray-tracing stage (raygeneration ... callable). */
bool dgpb_stage_is_ray_tracing(uint32_t stage);

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
 * `buf` (at least 128 bytes) receives reasons that carry numbers.
 */
const char *dgpb_param_rule(uint32_t kind, uint32_t flags, uint32_t offset, uint32_t size,
                            uint32_t webgpu_layout, bool is_wgsl, char *buf, size_t buf_size);

/* The rule for an entry's thread group size: NULL when it fits the stage, else a reason. */
const char *dgpb_thread_group_rule(uint32_t stage, const uint32_t thread_group_size[3]);

#ifdef __cplusplus
}
#endif

#endif
