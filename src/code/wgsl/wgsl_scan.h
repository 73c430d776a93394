/*
 * code/wgsl/wgsl_scan.h - the resource bindings, entry points and workgroup
 * memory that a WGSL module declares, read from its text.
 *
 * dgpb-build proves that a bundle's parameter table matches the WGSL it
 * ships: every binding in the code must have a table row. This reader takes
 * the WGSL that Slang writes and reports, without compiling it:
 *
 *   - every module-scope `var` in address space uniform or storage, or with
 *     no address space (a handle: textures, samplers; anything else there is
 *     kept as DGPB_WGSL_OTHER), in source order, with its @group/@binding
 *     (-1 when absent: Slang writes push constants as a `var<uniform>`
 *     without either, which WebGPU cannot bind);
 *   - every entry point (@compute, @vertex, @fragment) with its literal
 *     @workgroup_size;
 *   - the bytes of module-scope `var<workgroup>` memory, as WebGPU's
 *     maxComputeWorkgroupStorageSize counts them.
 *
 * It is a strict reader of the module-scope grammar: declarations are
 * parsed (`var`, `fn`, `struct`, `const`, `override`, `alias`,
 * `const_assert`, `enable`, `requires`, `diagnostic`), function bodies and
 * initializers are skipped with their brackets balanced, and line comments
 * and nested block comments are skipped. Malformed text (invalid UTF-8, a
 * stray character, an unterminated comment or bracket, a missing ';', a
 * binding number out of range, an unknown texture sample type, ...) is
 * refused with DGPB_ERR_CORRUPT and a message naming the line. Valid WGSL
 * that this reader does not evaluate (a @group/@binding that is not an
 * integer literal, an address space it does not know) is refused with
 * DGPB_ERR_UNSUPPORTED, so that a binding is never silently missed. A type
 * that WGSL does not have but Slang writes anyway when a module uses one
 * (`u64`, `uint64_t`, `double`, 8- and 16-bit integers; Slang suffixes every
 * source name, so these are never a user's identifiers) is refused with
 * DGPB_ERR_SHADER: no WebGPU implementation would compile the module.
 * Nesting deeper than DGPB_WGSL_MAX_NESTING or DGPB_WGSL_MAX_TYPE_DEPTH, and
 * a workgroup type over 2^48 bytes, are refused with DGPB_ERR_LIMIT. Time is
 * linear in the input: each byte is lexed a bounded number of times, and
 * structs are found by binary search.
 *
 * Ownership: wgsl_module_scan() returns one dgpb_wgsl_module that owns all its
 * arrays and strings; release it with wgsl_module_free().
 */
#ifndef DGPB_WGSL_SCAN_H
#define DGPB_WGSL_SCAN_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define wgsl_find_binding dgpb__wgsl_find_binding
#define wgsl_module_free dgpb__wgsl_module_free
#define wgsl_module_scan dgpb__wgsl_module_scan

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Brackets and template lists nested deeper than this are refused (DGPB_ERR_LIMIT). */
#define DGPB_WGSL_MAX_NESTING 256
/* Types nested deeper than this (through arrays, structs, aliases) are refused likewise. */
#define DGPB_WGSL_MAX_TYPE_DEPTH 64

typedef enum dgpb_wgsl_class {
    DGPB_WGSL_UNIFORM,              /* var<uniform> */
    DGPB_WGSL_STORAGE_READ,         /* var<storage> or var<storage, read> */
    DGPB_WGSL_STORAGE_READ_WRITE,   /* var<storage, read_write> */
    DGPB_WGSL_TEXTURE,              /* texture_1d/2d/2d_array/3d/cube/cube_array<T> */
    DGPB_WGSL_TEXTURE_MULTISAMPLED, /* texture_multisampled_2d<T> */
    DGPB_WGSL_TEXTURE_DEPTH,        /* texture_depth_* */
    DGPB_WGSL_STORAGE_TEXTURE,      /* texture_storage_*<format, access> */
    DGPB_WGSL_SAMPLER,              /* sampler */
    DGPB_WGSL_SAMPLER_COMPARISON,   /* sampler_comparison */
    DGPB_WGSL_EXTERNAL_TEXTURE,     /* texture_external */
    DGPB_WGSL_OTHER                 /* anything else with no address space, e.g. Slang's
                                       array<texture_2d<f32>, i32(4)> for a Texture2D[4] */
} dgpb_wgsl_class;

typedef struct dgpb_wgsl_binding {
    char *name;             /* as written, e.g. "res_src_0" */
    int64_t group, binding; /* -1 when absent */
    dgpb_wgsl_class cls;
    char *type;         /* the type text as written, whitespace-normalised (tokens joined, ", "
                           after a comma), e.g. "texture_storage_2d<r32float, read_write>" */
    char *texel_format; /* storage textures: "r32float"...; else NULL */
    char *access;       /* storage textures and storage buffers: "read", "write", "read_write"
                           (var<storage> without an access mode is "read"); else NULL */
    char *sample_type;  /* sampled/multisampled textures: "f32", "i32", "u32"; else NULL */
    char *dimension;    /* textures (sampled, multisampled, depth, storage): "1d", "2d",
                           "2d_array", "3d", "cube", "cube_array"; else NULL */
    uint32_t line;      /* of its `var`, 1-based */
    bool compared;      /* textures: the first argument of a textureSampleCompare*,
                           textureGatherCompare call somewhere in the module */
} dgpb_wgsl_binding;

typedef struct dgpb_wgsl_entry {
    char *name;
    int stage;                  /* dgpb_stage (dgpb/format.h): compute, vertex or fragment */
    uint32_t workgroup_size[3]; /* compute: 1 for an omitted y/z; 0,0,0 when not all literal;
                                   0,0,0 for vertex and fragment */
} dgpb_wgsl_entry;

/* A module-scope `override` (a pipeline constant; Slang writes one per specialization constant). */
typedef struct dgpb_wgsl_override {
    char *name;    /* as written, e.g. "N_0" */
    int64_t id;    /* its @id(N); -1 when it has none */
    char *type;    /* the type as written ("u32", "f32", ...); NULL when only an initializer
                      gives it */
    uint32_t line; /* of its `override`, 1-based */
} dgpb_wgsl_override;

typedef struct dgpb_wgsl_module {
    dgpb_wgsl_binding *bindings; /* every module-scope var in address space uniform/storage or
                                    with none (handles), in source order */
    size_t binding_count;
    dgpb_wgsl_entry *entries; /* in source order */
    size_t entry_count;
    dgpb_wgsl_override *overrides; /* every module-scope override, in source order */
    size_t override_count;
    /*
     * The sum over module-scope var<workgroup> of roundUp(16, SizeOf(T)), as
     * WebGPU's maxComputeWorkgroupStorageSize counts them, with WGSL's
     * alignment and size rules: scalars 4 (f16 2, bool 4), vecN, matCxR,
     * atomic<T>, array<E, N> with stride roundUp(AlignOf(E), SizeOf(E)) and N
     * written `N`, `Ni`, `Nu`, `i32(N)` or `u32(N)`, structs of the module
     * with their @align/@size, and aliases.
     */
    uint64_t workgroup_bytes;
    bool workgroup_bytes_known; /* false when a type could not be sized (a count that is not a
                                   literal, an unknown type): workgroup_bytes is a lower bound */
} dgpb_wgsl_module;

/*
 * Scans `len` bytes of WGSL text (no NUL terminator needed; a NUL byte is
 * malformed). Returns DGPB_OK with *out set; or, with *out NULL:
 * DGPB_ERR_CORRUPT (malformed, see above), DGPB_ERR_UNSUPPORTED,
 * DGPB_ERR_SHADER (a type WGSL does not have), DGPB_ERR_LIMIT, DGPB_ERR_NOMEM, DGPB_ERR_INVALID (NULL out, or NULL text
 * with len > 0). The diagnostic's `line` and `offset` are set on
 * malformed input and its message starts "malformed WGSL: line N: ".
 */
int wgsl_module_scan(const char *text, size_t len, dgpb_wgsl_module **out, dgpb_diag *diag);

/* Releases a module and everything it owns. NULL is a no-op. */
void wgsl_module_free(dgpb_wgsl_module *m);

/* The binding named `name`, or NULL (also for a NULL module or name). */
const dgpb_wgsl_binding *wgsl_find_binding(const dgpb_wgsl_module *m, const char *name);

#ifdef __cplusplus
}
#endif

#endif
