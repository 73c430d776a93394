/*
 * code/spirv/spirv_analysis.h - what dgpb-build reads from an entry's SPIR-V.
 *
 * spirv_analyze() reads one SPIR-V module (as Slang writes it for one
 * entry point) and returns:
 *
 *   - the first OpEntryPoint: its execution model, its name, its LocalSize;
 *   - every OpCapability, as numbers, read straight from the instruction
 *     stream, so that a capability newer than the linked SPIRV-Tools is never
 *     hidden (code/capabilities.h maps a probe's to capabilities,
 *     docs/design.md, section 5);
 *   - every module-scope OpVariable (all storage classes except Function):
 *     its name, storage class, DescriptorSet/Binding (and an input
 *     attachment's InputAttachmentIndex), whether the entry point's
 *     interface lists it, and whether the shader writes it.
 *
 * "Written" follows docs/design.md, section 4: a variable is written when an
 * OpStore, OpCopyMemory[Sized], an atomic other than OpAtomicLoad, an
 * OpImageWrite (or a cooperative matrix/vector store, a ray payload handed to
 * OpTraceRayKHR/OpExecuteCallableKHR, the pointer of GLSL.std.450 Modf/Frexp)
 * reaches it. "Reaches" follows pointers through access chains, OpCopyObject,
 * OpBitcast, OpSelect and OpPhi (derived from every pointer operand),
 * OpImageTexelPointer, function calls (argument -> parameter, OpReturnValue ->
 * call result), and image handles through OpLoad, OpCompositeExtract,
 * OpSampledImage and OpImage. It never looks at the variable's type.
 *
 * The module is handed to SPIRV-Tools (spvBinaryParse) without its OpSource
 * instructions (see code/spirv/spirv.h). In a module newer than the library
 * (one using cooperative vectors, or a hit shader's vertex position fetch),
 * the instructions it cannot read for a number its grammar lacks are left
 * out and counted in `unread` (spirv_drop_unknown()): the variables, their
 * decorations and the entry point's interface are still read, so the table
 * keeps the rows the code's interface lists, never more; a write through an
 * instruction left out is not seen. When SPIRV-Tools still cannot parse it
 * (a failure of another kind, an unknown number in an OpEntryPoint or an
 * OpVariable), the result is DGPB_ERR_UNSUPPORTED with a warning in the
 * diagnostic, and the returned info has parsed == false: only the
 * capabilities and the execution model are filled. The caller says so in
 * one warning naming the entry and goes on.
 *
 * Not followed (documented limits, none of which Slang emits): pointers or
 * image handles stored into memory and loaded back, pointers converted to
 * integers and back, PhysicalStorageBuffer addresses.
 *
 * Ownership: spirv_analyze() returns one dgpb_spirv_info that owns all
 * its strings and arrays; release it with spirv_info_free(). Pointers
 * returned by spirv_find_var() point into it.
 */
#ifndef DGPB_SPIRV_ANALYSIS_H
#define DGPB_SPIRV_ANALYSIS_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define spirv_analyze dgpb__spirv_analyze
#define spirv_find_var dgpb__spirv_find_var
#define spirv_info_free dgpb__spirv_info_free

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Larger id bounds are refused with DGPB_ERR_LIMIT (SPIR-V's universal limit is 4194303). */
#define DGPB_SPIRV_MAX_ID_BOUND 4194304u

/* The SPIR-V storage classes of the variables a table describes. */
typedef enum dgpb_spirv_storage_class {
    DGPB_SPIRV_STORAGE_UNIFORM_CONSTANT = 0, /* textures, samplers, acceleration structures */
    DGPB_SPIRV_STORAGE_UNIFORM = 2,          /* uniform blocks */
    DGPB_SPIRV_STORAGE_PUSH_CONSTANT = 9,    /* push-constant blocks */
    DGPB_SPIRV_STORAGE_STORAGE_BUFFER = 12,  /* storage buffers */
    DGPB_SPIRV_STORAGE_SHADER_RECORD = 5343, /* a shader's record (ShaderRecordBufferKHR) */
} dgpb_spirv_storage_class;

/* What a variable holds (through any arrays around it). */
typedef enum dgpb_spirv_type_class {
    DGPB_SPIRV_TYPE_OTHER = 0,          /* a plain value, or not known */
    DGPB_SPIRV_TYPE_BLOCK,              /* a struct: a uniform, storage or push-constant block */
    DGPB_SPIRV_TYPE_SAMPLED_IMAGE_ONLY, /* OpTypeImage with Sampled 0 or 1: a texture */
    DGPB_SPIRV_TYPE_STORAGE_IMAGE,      /* OpTypeImage with Sampled 2: a storage texture */
    DGPB_SPIRV_TYPE_TEXEL_BUFFER,       /* OpTypeImage of Dim Buffer: a typed buffer */
    DGPB_SPIRV_TYPE_SAMPLER,            /* OpTypeSampler */
    DGPB_SPIRV_TYPE_COMBINED,           /* OpTypeSampledImage: a combined texture-sampler */
    DGPB_SPIRV_TYPE_ACCELERATION_STRUCTURE, /* OpTypeAccelerationStructureKHR */
    DGPB_SPIRV_TYPE_INPUT_ATTACHMENT,       /* OpTypeImage of Dim SubpassData */
} dgpb_spirv_type_class;

/* A member of a block's struct: its Offset decoration and its byte size up to where it ends,
   without tail padding (0 unknown). */
typedef struct dgpb_spirv_member {
    uint32_t offset, size;
} dgpb_spirv_member;

/* One module-scope OpVariable. */
typedef struct dgpb_spirv_var {
    char *name;             /* its OpName, "" when it has none; never NULL */
    uint32_t id;            /* its result id */
    uint32_t storage_class; /* SPIR-V StorageClass (12 StorageBuffer, 0 UniformConstant, ...) */
    int64_t set, binding;   /* DescriptorSet / Binding decorations, -1 when absent */
    bool in_interface;      /* listed on the first OpEntryPoint's interface */
    bool written;           /* a store, atomic or image write reaches it */
    uint32_t type_class;    /* dgpb_spirv_type_class of the pointee */
    bool is_array;          /* the pointee is an array (of blocks, images, samplers...) */
    uint32_t image_dim;     /* images: SPIR-V Dim (0 1D, 1 2D, 2 3D, 3 Cube, 5 Buffer,
                               6 SubpassData) */
    bool image_depth, image_arrayed, image_multisampled;
    uint32_t image_sampled;   /* images: the Sampled operand (1 sampled, 2 storage) */
    int64_t input_attachment; /* its InputAttachmentIndex decoration, -1 when absent */
    uint32_t image_sample;    /* images: dgpb_sample_type of the Sampled Type (float, sint, uint) */
    uint32_t image_format;    /* images: SPIR-V ImageFormat (0 Unknown) */
    bool compared;            /* images, samplers, sampled images: reach a depth-comparison sample
                              (OpImageSampleDref*, OpImageDrefGather, ...) */
    uint32_t block_size;      /* blocks: byte size with the struct's tail padding (the end
                                   of its last member rounded up to its alignment by the
                                   block's rules, code/spirv/spirv_layout.h); 0 unknown */
    uint32_t scalar_block_size; /* blocks: the same by scalar block layouts' rules (a build
                                   with --block-layout scalar or c); 0 unknown */
    dgpb_spirv_member *members; /* blocks: the struct's members in order (owned) */
    uint32_t member_count;
    uint32_t element_stride; /* storage buffers: ArrayStride of the block's runtime array, or 0 */
    uint32_t array_length;   /* an OpTypeArray of resources: its length; 0 otherwise (and for a
                                runtime array) */
} dgpb_spirv_var;

/* A specialization constant: its SpecId decoration, the byte size of its type, its OpName. */
typedef struct dgpb_spirv_spec_constant {
    uint32_t spec_id;
    uint32_t size;
    uint32_t id; /* its result id */
    char *name;  /* its OpName, "" when it has none; never NULL once the analysis succeeded */
} dgpb_spirv_spec_constant;

/* What spirv_analyze() found. */
typedef struct dgpb_spirv_info {
    uint32_t execution_model; /* of the first OpEntryPoint (5 GLCompute, 5313 RayGenerationKHR) */
    char *entry_name;         /* its name ("main" for Slang's single-entry modules); never NULL */
    uint32_t
        local_size[3]; /* OpExecutionMode LocalSize (or LocalSizeId of constants); 0s if absent */
    uint32_t *capabilities; /* OpCapability operands: numeric, sorted, unique */
    size_t capability_count;
    dgpb_spirv_var *vars; /* module-scope OpVariables except Function storage, in module order */
    size_t var_count;
    dgpb_spirv_spec_constant *spec_constants; /* every SpecId-decorated constant, in order */
    size_t spec_constant_count;
    bool parsed; /* false when SPIRV-Tools could not parse the module: then only
                    capabilities and execution_model are filled */
    size_t unread; /* instructions SPIRV-Tools could not read (numbers newer than its
                      grammar), left out of the analysis (spirv_drop_unknown()) */
} dgpb_spirv_info;

/*
 * Analyses a SPIR-V module of `size` bytes (native-endian words, as Slang
 * writes it). The module itself is never changed.
 *
 * Returns DGPB_OK with *out set; or DGPB_ERR_UNSUPPORTED with *out set to an
 * info whose `parsed` is false and a diagnostic of severity warning quoting
 * SPIRV-Tools; or, with *out NULL: DGPB_ERR_CORRUPT (not a SPIR-V module,
 * truncated instructions, an id beyond the bound), DGPB_ERR_SHADER (no
 * OpEntryPoint), DGPB_ERR_LIMIT (an id bound above DGPB_SPIRV_MAX_ID_BOUND),
 * DGPB_ERR_NOMEM, DGPB_ERR_INVALID (NULL code or out). The caller frees *out
 * with spirv_info_free() in both success cases.
 */
int spirv_analyze(const void *code, size_t size, dgpb_spirv_info **out, dgpb_diag *diag);

/* Releases an info and everything it owns. NULL is a no-op. */
void spirv_info_free(dgpb_spirv_info *info);

/* The first variable named `name`, or NULL (also for a NULL info or name). */
const dgpb_spirv_var *spirv_find_var(const dgpb_spirv_info *info, const char *name);

#ifdef __cplusplus
}
#endif

#endif
