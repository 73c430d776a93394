/*
 * code/code_bindings.h - the resource bindings a shipped blob declares, read
 * back from the code itself.
 *
 * dgpb-build never trusts a parameter table it cannot check: before it
 * writes a bundle it reads every blob's bindings back from the code and
 * matches them with the rows (tables/binding_proof.h). The two
 * descriptor-based codes are read into one list, each by its own folder
 * (code/spirv/spirv_bindings.h, code/wgsl/wgsl_bindings.h), behind its code
 * format's read_bindings (code/code_format.h):
 *
 *   - SPIR-V: every module-scope variable with DescriptorSet/Binding
 *     decorations, and every PushConstant variable, that the entry point's
 *     interface lists (code/spirv/spirv_analysis.h);
 *   - WGSL: every module-scope `var` in the uniform or storage address space
 *     or of a texture or sampler type (code/wgsl/wgsl_scan.h);
 *   - both: every pipeline constant (a SPIR-V SpecId-decorated constant, a
 *     WGSL `override` with an @id), in the space DGPB_SPACE_PIPELINE_CONSTANT
 *     with its id as the binding.
 *
 * Each binding keeps the variable's name as the code spells it. Slang names
 * variables after the parameter's path: the SPIR-V name is the dotted path
 * ("res.src", "globalParams.m.dst", "entryPointParams.mat.tex"), and WGSL
 * writes the same path with '_' for '.' plus a numeric suffix
 * ("entryPointParams_mat_tex_0"). code_bindings_find() looks a path up
 * under either spelling, which is how rows whose place only the code knows
 * (tables/reflect.h, `place_from_code`) get their space and binding.
 *
 * Ownership: the list owns its array; names point into the analysis or scan
 * it was made from, which must outlive it. Free with
 * code_bindings_clear().
 */
#ifndef DGPB_CODE_BINDINGS_H
#define DGPB_CODE_BINDINGS_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define code_bindings_clear dgpb__code_bindings_clear
#define code_bindings_find dgpb__code_bindings_find
#define code_bindings_find_at dgpb__code_bindings_find_at
#define code_bindings_pair_sampler dgpb__code_bindings_pair_sampler
#define code_class_name dgpb__code_class_name

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"
#include "code/spirv/spirv_analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the code declares at a binding. */
typedef enum dgpb_code_class {
    DGPB_CODE_UNIFORM_BLOCK = 0,      /* a uniform buffer */
    DGPB_CODE_PUSH_CONSTANT,          /* a push-constant block (SPIR-V); no binding */
    DGPB_CODE_STORAGE_BUFFER,         /* a storage buffer (`writable` tells read_write) */
    DGPB_CODE_TEXTURE,                /* a sampled texture */
    DGPB_CODE_DEPTH_TEXTURE,          /* WGSL texture_depth_* */
    DGPB_CODE_MULTISAMPLED_TEXTURE,   /* multisampled */
    DGPB_CODE_STORAGE_TEXTURE,        /* a storage texture */
    DGPB_CODE_SAMPLER,                /* a sampler */
    DGPB_CODE_COMPARISON_SAMPLER,     /* WGSL sampler_comparison */
    DGPB_CODE_COMBINED,               /* SPIR-V sampled image: texture and sampler in one */
    DGPB_CODE_TEXEL_BUFFER,           /* a uniform texel buffer (SPIR-V image of Dim Buffer) */
    DGPB_CODE_STORAGE_TEXEL_BUFFER,   /* a storage texel buffer (the same, Sampled 2) */
    DGPB_CODE_ACCELERATION_STRUCTURE, /* a ray-tracing acceleration structure */
    DGPB_CODE_INPUT_ATTACHMENT,       /* an input attachment (SPIR-V image of Dim SubpassData) */
    DGPB_CODE_PIPELINE_CONSTANT,      /* a specialization constant (SPIR-V SpecId) or a WGSL
                                         `override` with an @id: space
                                         DGPB_SPACE_PIPELINE_CONSTANT, binding = its id,
                                         block_size = its byte size */
    DGPB_CODE_SHADER_RECORD,          /* ray tracing: a shader record's block (SPIR-V
                                         ShaderRecordBufferKHR): space
                                         DGPB_SPACE_SHADER_RECORD, binding 0 */
    DGPB_CODE_OTHER,
    DGPB_CODE_CLASS_COUNT
} dgpb_code_class;

typedef struct dgpb_code_binding {
    const char *name;         /* as the code spells it; borrowed */
    int64_t space, binding;   /* descriptor set (WGSL group) and binding; -1 when absent */
    uint32_t cls;             /* dgpb_code_class */
    bool writable;            /* storage buffers: read_write; storage textures */
    bool is_array;            /* an array of the above */
    uint32_t block_size;      /* uniform and push-constant blocks: byte size, 0 unknown */
    uint32_t scalar_block_size; /* SPIR-V blocks: their size by scalar block layouts' rules
                                   (dgpb_proof_input.scalar_blocks); 0 unknown */
    const char *detail;       /* WGSL: the type as written; NULL for SPIR-V; borrowed */
    const char *texel_format; /* WGSL storage textures: "r32float", ...; else NULL; borrowed */
    const char *sample_type;  /* WGSL sampled textures: "f32", "i32", "u32"; else NULL */
    const char *dimension;    /* WGSL textures: "1d", "2d", "2d_array", ...; else NULL */
    const char *access;       /* WGSL storage textures: "read", "write", "read_write"; else NULL */
    uint32_t line;            /* WGSL: its line; 0 for SPIR-V */
    const dgpb_spirv_member *members; /* uniform blocks: the struct's members (SPIR-V, or WGSL
                                         after code_bindings_add_wgsl_layouts); borrowed */
    uint32_t member_count;            /* 0: not known */
    uint32_t element_stride; /* storage buffers: the element's stride (SPIR-V ArrayStride, WGSL
                                after code_bindings_add_wgsl_layouts); 0 unknown */
    uint32_t array_length;   /* SPIR-V arrays of resources: the length; 0 runtime or unknown */
    bool compared;           /* WGSL textures: sampled with a depth comparison somewhere */
    uint32_t shape;          /* textures, storage textures, samplers, combined, texel buffers,
                                input attachments: the shape word the code states (dgpb/format.h;
                                docs/format.md, "Shapes"): each field the code does not state is
                                0 (SPIR-V states no access) */
    bool attachment_stated;  /* input attachments: the code states the attachment index (SPIR-V
                                InputAttachmentIndex), so 0 in `shape` is index 0 */
} dgpb_code_binding;

typedef struct dgpb_code_bindings {
    dgpb_code_binding *items;
    size_t count;
    dgpb_spirv_member **owned; /* member lists read from WGSL text, freed with the bindings */
    size_t owned_count;
} dgpb_code_bindings;

void code_bindings_clear(dgpb_code_bindings *b);

/* A readable name of a class ("storage buffer", "sampled texture", ...). */
const char *code_class_name(uint32_t cls);

/*
 * The binding Slang made for the parameter path `path` (a row's
 * `code_name`), spelled either way (see above); NULL when the code has none.
 * When WGSL has two candidates (a suffix Slang added to tell two equal names
 * apart), *ambiguous is set and NULL returned.
 */
const dgpb_code_binding *code_bindings_find(const dgpb_code_bindings *b, const char *path,
                                            bool *ambiguous);

/*
 * The binding at `space`/`binding` named after `path`, spelled either way;
 * NULL when there is none. For parameters that Slang names alike (two
 * namespaces' `out` are both "out", and "out_0" and "out_1" in WGSL) and
 * whose place the reflection tells.
 */
const dgpb_code_binding *code_bindings_find_at(const dgpb_code_bindings *b, const char *path,
                                               int64_t space, int64_t binding);

/*
 * The sampler of a WGSL combined texture-sampler whose texture is `texture`:
 * the sampler Slang declares at the texture's group and next binding
 * (docs/format.md, "Combined texture-samplers"); NULL when there is none.
 */
const dgpb_code_binding *code_bindings_pair_sampler(const dgpb_code_bindings *b,
                                                    const dgpb_code_binding *texture);

#ifdef __cplusplus
}
#endif

#endif
