/*
 * tables/reflect.h - Slang's reflection JSON turned into parameter rows.
 *
 * dgpb-build asks Slang for reflection JSON with every compile
 * (-reflection-json) and reads it here. Only the core that every Slang
 * version writes is used (a parameter's name, binding(s) and type; an entry
 * point's name, stage, thread group size and parameters; docs/build.md):
 * keys this reader does not know are ignored, so a newer Slang's superset
 * never breaks it.
 *
 * What becomes a row (docs/format.md, "Which rows an entry has"):
 *
 *   - every module-scope parameter, in declaration order, then every
 *     `uniform` parameter of the compiled entry point, in parameter order
 *     (stage inputs such as SV_DispatchThreadID are not parameters);
 *   - aggregates are flattened into their leaves, named by dotted path
 *     (`res.src`, `mat.tint`): struct globals, `uniform` structs, a
 *     ConstantBuffer<S> whose S holds resources, every ParameterBlock<T>.
 *     A leaf is a resource, or a plain-data field (a value row of the uniform
 *     block that holds it; a plain-data struct is one value row);
 *   - a ConstantBuffer (or cbuffer) of plain data is one uniform_buffer row,
 *     except the value blocks the caller names (each entry's
 *     "<entry>_params"), whose fields are value rows;
 *   - a [[vk::push_constant]] block's fields are value rows;
 *   - a fixed array of resources `T name[N]` is N rows name[0] ... name[N-1]
 *     (at most DGPB_MAX_ARRAY_ROWS), sharing the array's place on spirv; on
 *     ptx element i lies at the array's offset + i * its element stride; on
 *     wgsl (no binding arrays in WebGPU) and when unbounded it is refused;
 *   - a specialization constant ([vk::constant_id(N)], [SpecializationConstant],
 *     which the reflection binds as "specializationConstant" N) is a value row
 *     in the space DGPB_SPACE_PIPELINE_CONSTANT with binding N, offset 0 and
 *     its scalar's byte size (`pipeline_constant`). Slang's ptx reflection
 *     shows it as a plain uniform instead; the table refuses it there
 *     (tables/params.h).
 *
 * Each row carries where it lives on the target (`space`, `binding`,
 * `offset`, `size`), except where Slang's reflection cannot say: entry-point
 * parameters' descriptor bindings (the JSON gives them relative to the
 * entry's own range) and the binding of Slang's implicit global uniform
 * block. Those rows have `place_from_code` set and the caller takes their
 * space/binding from the compiled code's variable `code_name`
 * (code/code_bindings.h). A shape the format cannot express keeps its row
 * with `kind` = -1 and a `problem` that names the shape and the rewrite that
 * works; the caller decides whether it matters (only rows an entry uses do).
 *
 * Ownership: reflection_parse() returns one allocation tree freed with
 * reflection_free().
 */
#ifndef DGPB_REFLECT_H
#define DGPB_REFLECT_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define reflection_find dgpb__reflection_find
#define reflection_free dgpb__reflection_free
#define reflection_parse dgpb__reflection_parse
#define reflection_parse_blocks dgpb__reflection_parse_blocks

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/format.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most rows a fixed array of resources becomes; a larger one is refused, pointing to
   DescriptorHandle<T> (docs/format.md). */
#define DGPB_MAX_ARRAY_ROWS 1024u

typedef struct dgpb_reflected_param {
    char *name;           /* the row's name: a dotted path, or a value block's field name */
    char *global;         /* the top-level variable it belongs to (a global, a value block, or an
                             entry-point parameter) */
    char *code_name;      /* the variable that carries it in compiled code, as Slang names it in
                             SPIR-V ("res.src", "globalParams", "entryPointParams.mat.tex"); WGSL
                             spells the same name with '_' for '.' and a numeric suffix */
    bool entry_param;     /* a `uniform` parameter of the entry point */
    uint32_t top;         /* module parameters: the index of the top-level parameter it belongs
                             to in dgpb_reflection.globals; entry parameters: the index among
                             the entry's parameters */
    bool place_from_code; /* space/binding come from the code's `code_name` (see above) */
    int kind;             /* dgpb_kind, or -1 when the shape has no kind (see `problem`) */
    uint32_t space;
    uint32_t binding;
    uint32_t offset;        /* value rows */
    uint32_t size;          /* value rows: their bytes; structured buffers: the element's byte
                               stride (0 when not known); 0 for other resources */
    uint32_t webgpu_layout; /* on wgsl; 0 elsewhere */
    uint32_t shape_word;    /* textures, samplers, texture_samplers: the shape the reflection
                               tells (reflect_texture_shape()); the code adds the rest */
    uint32_t declared_format; /* storage textures and texel buffers: the texel format Slang's
                                 reflection names ([format("r8")], [[vk::image_format]], or
                                 Slang's own for an integer or half element), 0 for none */
    bool has_bool;          /* a value whose type holds a bool (WGSL forbids it in uniforms) */
    bool counted;           /* an append or consume buffer's elements (a `<name>.counter` row
                               follows for its counter) */
    bool unbounded;         /* an unbounded array `T name[]`: one row, DGPB_FLAG_UNBOUNDED */
    bool pipeline_constant; /* a specialization constant: a value row in the space
                               DGPB_SPACE_PIPELINE_CONSTANT, binding = its constant id */
    char *shape;            /* readable type, e.g. "RWTexture2D<uint>", for messages */
    char *problem;          /* NULL, or why the parameter cannot be a row (kind -1) or has
                               no WebGPU descriptor (on wgsl) */
} dgpb_reflected_param;

typedef struct dgpb_reflected_entry {
    char *name;
    int stage;        /* dgpb_stage, or -1 for a stage the format has no name for */
    char *stage_name; /* as Slang wrote it; "" when it wrote none (Slang 2025.15 omits
                         the ray-tracing stages) */
    /* Stages with a thread group size (dgpb_stage_has_thread_group): Slang's numbers, each at
       least 1; 0,0,0 for a mesh or amplification entry whose reflection gives none (Slang
       2025.15 writes threadGroupSize for compute entries only: the caller asks the code).
       Other stages: 0,0,0. */
    uint32_t thread_group_size[3];
} dgpb_reflected_entry;

typedef struct dgpb_reflection {
    dgpb_reflected_param *params; /* globals first, then the first entry point's */
    size_t param_count;
    dgpb_reflected_entry *entries;
    size_t entry_count;
    char **globals; /* the names of the module-scope parameters, in the reflection's order
                       (each is the `global` of its rows; their `top` indexes this) */
    size_t global_count;
} dgpb_reflection;

/*
 * Parses reflection JSON produced for `target` (a dgpb_target_id; the layout
 * rules differ per target).
 * `value_blocks` lists the names of constant buffers whose fields are value
 * rows (each entry's "<entry>_params"); NULL for none. Entry-point
 * parameters are read from the first entry point only (dgpb-build compiles
 * one entry at a time). DGPB_ERR_CORRUPT when the text is not JSON or lacks
 * the core structure, naming what is missing.
 */
int reflection_parse(const char *json, size_t len, dgpb_target_id target,
                     const char *const *value_blocks, size_t value_block_count,
                     dgpb_reflection **out, dgpb_diag *diag);

/* The constant buffers a parse treats specially, by name. */
typedef struct dgpb_reflection_blocks {
    const char *const *value_blocks; /* fields are value rows named by field ("<entry>_params") */
    size_t value_block_count;
    const char *const *push_blocks; /* [[vk::push_constant]] blocks: fields are value rows named
                                       by dotted path, on every target. The spirv reflection says
                                       so itself; for the other targets the caller names them
                                       (dgpb-build: the SPIR-V's PushConstant variables) */
    size_t push_block_count;
    bool scalar_elements; /* a structured buffer's elements are aligned to their scalars
                             (spirv built with a scalar block layout: --block-layout scalar) */
} dgpb_reflection_blocks;

/* reflection_parse() with push-constant blocks named too; `blocks` may be NULL. */
int reflection_parse_blocks(const char *json, size_t len, dgpb_target_id target,
                            const dgpb_reflection_blocks *blocks, dgpb_reflection **out,
                            dgpb_diag *diag);

void reflection_free(dgpb_reflection *r);

/* The first parameter whose name (or, with `by_global`, whose variable) is `name`, or NULL. */
const dgpb_reflected_param *reflection_find(const dgpb_reflection *r, const char *name,
                                            bool by_global);

#ifdef __cplusplus
}
#endif

#endif
