/*
 * dgpb/build.h - the producer pipeline: one Slang module in, one bundle out.
 *
 * dgpb_build() runs the whole of `dgpb-build`, in these stages (those of the
 * stage table at the top of src/driver/build.c, in its order; a test holds the
 * two to one list):
 *
 *   1. recover_outputs: finish (or undo) what a killed build left half
 *                      replaced of these outputs
 *   2. replay:         with desc.cache, a build the cache holds whole is
 *                      written from it, and the build is done
 *   3. prepare:        module text ──scan──> group symbols (DREAM_SHADER_<e>,
 *                      DREAM_SHADERS_RENDER, ...), targets, intermediate folder
 *   4. discover:       one compile per target with every group defined
 *                      ──> entries, stages, order, pipeline groups
 *   5. compile:        compile jobs, one per entry and target (+ SPIR-V probes)
 *                      ──> code, SPIR-V analysis, reflection JSON
 *   6. make_tables:    reflection + SPIR-V analysis + the code's bindings
 *                      ──> parameter tables (proven against the code), flags,
 *                      capabilities; SPIR-V validation; rows alike across targets
 *   7. check_webgpu:   WebGPU shapes and limits per pipeline group
 *   8. record_layouts: the layout recorder, once per pipeline group and target
 *                      ──> layout blobs (none on wasm32, or without a recorder)
 *   9. emit:           bundle model ──writer──> <stem>.dgpb and <stem>.bundle.json
 *                      (and the depfile, desc.depfile, and the C header <stem>.h,
 *                      desc.emit_header), written atomically; the build filed
 *                      in the cache
 *
 * dgpb_build_list() runs stages 3 and 4 only and hands back the entries,
 * writing nothing (`dgpb-build --list`).
 *
 * With desc.cache (dgpb/cache.h, docs/cache.md), a build whose options,
 * compiler and input files match a cached one writes the cached outputs and
 * runs none of the stages after replay; otherwise each compile and layout
 * the cache holds is taken from it instead of being run.
 *
 * Every diagnostic (Slang's, passed through, and dgpb's own) goes to the
 * sink as it happens: Slang's warnings of the compiles that succeeded each
 * once (the same warning from several targets or entries is reported once),
 * split out of what the compiles printed (file, line, column, Slang's code:
 * dgpb/result.h). The return value says how the build ended:
 *   DGPB_OK            both files written (nothing, for a library module under
 *                      desc.library_modules: result.library_module)
 *   DGPB_ERR_SHADER    the module has errors (nothing written)
 *   DGPB_ERR_INVALID   a bad option or input (nothing written)
 *   DGPB_ERR_IO, DGPB_ERR_TOOL   a file or the compiler failed (nothing written)
 *   DGPB_ERR_INTERRUPTED  desc.cancel was set (nothing written)
 *   DGPB_ERR_NOMEM
 * A failed build never touches existing output files: the bundle, its view,
 * the depfile and the C header are one output unit, all new or all as they
 * were, even when the process is killed (the next build of the same output
 * completes or undoes a replacement a killed one left half done).
 */
#ifndef DGPB_BUILD_H
#define DGPB_BUILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/cache.h"
#include "dgpb/compiler.h"
#include "dgpb/format.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How matrices are laid out in memory: dgpb-build --matrix-layout (docs/build.md, "Project options"). */
typedef enum dgpb_matrix_layout {
    DGPB_MATRIX_LAYOUT_ROW = 0, /* row-major: the default (slangc -matrix-layout-row-major) */
    DGPB_MATRIX_LAYOUT_COLUMN,  /* column-major: -matrix-layout-column-major, as GLM-based
                                   renderers and Vulkan's samples compile */
    DGPB_MATRIX_LAYOUT_COUNT
} dgpb_matrix_layout;

/*
 * What becomes of SPIR-V code the validator refuses for a reason known not to
 * be the code's fault (a validator older than the code, a rule SPIR-V has
 * since lifted, a rule drivers do not hold Slang's code to): dgpb-build
 * --spirv-validation (docs/build.md, "Validation").
 */
typedef enum dgpb_spirv_validation {
    DGPB_SPIRV_VALIDATION_WARN = 0, /* a warning naming it, and the bundle is written */
    DGPB_SPIRV_VALIDATION_ERROR,    /* an error: the build fails (exit 1) */
    DGPB_SPIRV_VALIDATION_COUNT
} dgpb_spirv_validation;

/* Receives each diagnostic as it is reported. `d` is only valid during the call. */
typedef void (*dgpb_diag_fn)(const dgpb_diag *d, void *user);

/*
 * Where the build's compiles stand, for a progress line: reported as each
 * compile (or layout recording) starts and as it finishes.
 */
typedef struct dgpb_build_progress {
    uint32_t done;      /* jobs finished so far */
    uint32_t total;     /* jobs planned so far; it grows as the stages plan theirs */
    const char *entry;  /* the job's entry; "discovery" for a compile of the whole module, the
                           pipeline group for a layout ("compute shader 'k'") */
    const char *target; /* the job's Slang target ("spirv", "wgsl", "metallib", ...); a
                           layout's is "<target> layout" */
    bool finished;      /* the job finished (else it has just started) */
    double elapsed;     /* seconds since the first job started */
} dgpb_build_progress;

/* Receives progress reports on the building thread. `p` is only valid during the call. */
typedef void (*dgpb_progress_fn)(void *ctx, const dgpb_build_progress *p);

typedef struct dgpb_build_desc {
    const char *module_file; /* the .slang file, as the user spelled it */
    const char *module_path; /* dotted module path; NULL: the file name without .slang */
    const char *out_dir;     /* created if missing; NULL or "": the module's folder */
    /* The bundle's own path, "out/NAME.dgpb" (dgpb-build -o NAME.dgpb with one module, as
       `cc -o` names its output): its view, C header and depfile go next to it named after it
       (NAME.bundle.json, NAME.h, NAME.d), NAME is the stem (the view's asset, the header's
       names), and its folder is created if missing. NULL: out_dir and the module's stem. It
       must end in .dgpb after a name, and goes with neither out_dir nor module_path
       (DGPB_ERR_INVALID before anything is read or written). */
    const char *bundle_file;
    const char *targets;        /* comma-separated target list; NULL: every target */
    const char *triple;         /* build triple; NULL: the host */
    const char *const *defines; /* "NAME" or "NAME=VALUE", passed to every compile */
    size_t define_count;
    const char *const *include_dirs; /* passed to every compile as -I */
    size_t include_dir_count;
    /* Project options (docs/build.md, "Project options"): applied to every compile and every
       layout recording, part of every cache key, and recorded in the bundle when they differ
       from the default (docs/format.md, "The options record"). Zero: the default. An option
       the compiler cannot honour (the embedded one has no matrix-layout, profile or
       capability setting) is refused before any compile, DGPB_ERR_INVALID. */
    dgpb_matrix_layout matrix_layout;
    /* The SPIR-V version of every compile to SPIR-V (slangc -profile spirv_1_<minor>), as
       SPIR-V's header word spells it: 0x00010300 (1.3) to 0x00010600 (1.6); 0: Slang's
       default. Every spirv blob is proved to be of this version. */
    uint32_t spirv_version;
    /* Slang capability names (slangc -capability NAME each), any order and repeats allowed:
       the build compiles with them sorted and once each. A name is a letter or '_', then
       letters, digits and '_'; Slang says whether it knows it (a compile error). */
    const char *const *slang_capabilities;
    size_t slang_capability_count;
    /* How the blocks of SPIR-V code are laid out (dgpb-build --block-layout: slangc
       -fvk-use-scalar-layout, ...; DGPB_BLOCK_LAYOUT): every compile to SPIR-V and every
       layout recording of spirv get its slangc option; other targets keep their own rules. */
    dgpb_block_layout block_layout;
    /* The optimization level of every compile (-O0 to -O3; DGPB_OPTIMIZATION) and the debug
       information it writes (-g1 to -g3; DGPB_DEBUG_INFO). */
    dgpb_optimization optimization;
    dgpb_debug_info debug_info;
    /* Not a project option (no cache key of a compile, no record): what a validation
       warning becomes (dgpb_spirv_validation). */
    dgpb_spirv_validation spirv_validation;
    dgpb_compiler *compiler;     /* borrowed */
    unsigned jobs;               /* compiles at once; 0: the number of CPUs */
    bool keep_temps;             /* keep the intermediate folder (its path is reported) */
    const char *layout_recorder; /* path of dgpb-slang-layout; NULL: none (one warning) */
    bool no_layouts;             /* record no layouts and say nothing about it (--no-layouts) */
    const char *slang_lib;       /* the native libslang the recorder loads; NULL: its own lookup */
    bool verbose;                /* report each compile command as a note */
    /* Every warning about the module (Slang's, and dgpb's own checks) is reported as an error
       and fails the build (DGPB_ERR_SHADER, nothing written): dgpb-build --warnings-as-errors.
       A warning about this installation (code DGPB_ERR_UNSUPPORTED: no native libslang, so no
       layouts) stays a warning: the module is not at fault. */
    bool warnings_as_errors;
    /* A failed compile is reported as one error naming its target and entry, followed by
       Slang's diagnostics as records of their own (file, line, column, Slang's code), instead
       of one error that quotes what the compile printed: dgpb-build --diagnostics json. */
    bool split_compiler_diagnostics;
    /* A Make-syntax depfile (docs/build.md, "Depfile"), written with the bundle: the bundle
       and its view depend on the module and every file Slang read for it. */
    bool depfile;
    const char *depfile_path; /* NULL: <output folder>/<stem>.d */
    /* Also write <output folder>/<stem>.h, the bundle's C header (docs/build.md, "The C
       header"), in the same output unit; it is made from the bundle alone, so a build taken
       from the cache writes the same header: dgpb-build --emit-header. */
    bool emit_header;
    /* A module in which Slang finds no entry point for the targets of the build (a library
       module: shared types and functions that other modules import) is no error: one note
       says "library module, nothing to bundle", nothing is written, and dgpb_build() returns
       DGPB_OK with result.library_module set. false: such a module is an error
       (DGPB_ERR_SHADER) that says the same. dgpb-build sets it when it builds several modules
       (a folder's); dgpb_build_list() always lists such a module as one. */
    bool library_modules;
    /* dgpb_build_list() only: also build each entry for each target that carries it, on its
       own (discovery, compile, tables and their proof, WebGPU's checks; nothing written, no
       layouts), and take off the entry each target where that fails, its first error the
       reason (dgpb_listed_entry.not_built): dgpb-build --list --check. */
    bool list_check;
    dgpb_cache *cache; /* the compile cache (docs/cache.md), borrowed; NULL: none */
    /* The project root: paths under it are named relative to it in cache keys, so that
       checkouts in other folders share entries (docs/cache.md, "Keys"). NULL: the nearest
       folder above the module that holds .git (else the module's folder), widened to hold
       the working folder too. */
    const char *cache_root;
    dgpb_diag_fn sink;
    void *user;
    dgpb_progress_fn progress; /* NULL: no progress reports; the library never prints */
    void *progress_ctx;
    /* Nonzero stops the build as soon as it can: running compiles and layout recordings are
       killed and waited for, the intermediate folder is removed, the outputs are left as they
       were (unless their replacement was committed already) and dgpb_build() returns
       DGPB_ERR_INTERRUPTED. A tool points it at a flag its signal handlers set. NULL: never. */
    const volatile sig_atomic_t *cancel;
} dgpb_build_desc;

/*
 * Where a build's wall time goes (dgpb-build --timings, bench/edit-bench.sh):
 * X(ID, name, what) for each phase, in the order a build runs them. A phase
 * the build did not run takes 0; the phases add up to the build's time.
 */
#define DGPB_BUILD_PHASES(X)                                                                       \
    X(REPLAY, "replay", "the whole build looked up in the cache, and written from it")             \
    X(PREPARE, "prepare", "the module read and scanned, the discovery module written")             \
    X(DISCOVER, "discover", "parse and check: the discoveries that ran")                         \
    X(CACHE, "cache", "compile cache lookups and filing, for the discoveries and compiles")      \
    X(COMPILE, "compile", "code generation: the compiles that ran, in parallel")                 \
    X(READ, "read", "their outputs read back: SPIR-V analysis, reflection")                      \
    X(VALIDATE, "validate", "SPIR-V validation")                                                 \
    X(TABLES, "tables", "parameter tables, capabilities and the checks across entries")          \
    X(PROOF, "proof", "every table proved against its code")                                     \
    X(WEBGPU, "webgpu", "WebGPU's limits per pipeline")                                          \
    X(LAYOUTS, "layouts", "layouts recorded, or taken from the cache")                           \
    X(EMIT, "emit", "the bundle, its view, header and depfile written, the build filed")

typedef enum dgpb_build_phase {
#define DGPB_PHASE_ID(ID, name, what) DGPB_PHASE_##ID,
    DGPB_BUILD_PHASES(DGPB_PHASE_ID)
#undef DGPB_PHASE_ID
    DGPB_PHASE_COUNT
} dgpb_build_phase;

/* A phase's name ("compile"); NULL for an unknown phase. */
const char *dgpb_build_phase_name(uint32_t phase);

typedef struct dgpb_build_result {
    char bundle_path[4096]; /* what was written */
    char json_path[4096];
    char depfile_path[4096]; /* "" when none was written */
    char header_path[4096];  /* "" when none was written (desc.emit_header) */
    char temp_dir[4096];     /* the intermediate folder ("" once removed) */
    size_t bundle_size;
    uint32_t target_count;
    uint32_t entry_count;   /* distinct entries */
    uint32_t compile_count; /* compiler runs, discovery and probes included */
    uint32_t checked_count; /* of those, compiles whose code came from a module a native
                               worker had checked for another job (one parse per module) */
    uint32_t blob_count;    /* distinct code blobs stored (dgpb_write_stats.code_blob_count) */
    bool cached;            /* written from the cache: no compile ran */
    bool library_module;    /* a library module: nothing written (desc.library_modules) */
    double phase_seconds[DGPB_PHASE_COUNT]; /* wall time per dgpb_build_phase */
} dgpb_build_result;

int dgpb_build(const dgpb_build_desc *desc, dgpb_build_result *result);

/*
 * Where dgpb_build(desc) writes, without reading or writing anything: the
 * output folder (the folder of desc->bundle_file, else desc->out_dir without
 * its trailing slashes, else the module's folder, else ".") into `folder`,
 * and the stem (desc->bundle_file's name without .dgpb, else
 * desc->module_path, else the file name without .slang, each '.' turned into
 * '_'; "main" for the root module) into `stem`, each cut to its size and
 * NUL-terminated.
 * desc->module_file must be set. A tool building several modules into one
 * folder checks with it that no two of them write the same files.
 */
void dgpb_build_output_names(const dgpb_build_desc *desc, char *folder, size_t folder_size,
                             char *stem, size_t stem_size);

/* ---- listing a module's entries (dgpb-build --list) ---- */

/* One entry point of a module, as Slang's discovery lists it. */
typedef struct dgpb_listed_entry {
    const char *name;
    uint32_t stage;                /* dgpb_stage (dgpb/format.h) */
    uint32_t thread_group_size[3]; /* compute, mesh, amplification entries; 0,0,0 others */
    uint32_t group;                /* its pipeline group: an index into dgpb_entry_list.groups */
    uint32_t targets;              /* bit (1u << dgpb_target_id) per target that carries it */
    /* Per target of the build (dgpb_entry_list.build_targets) that does not carry it, why not
       ("ptx carries compute entries only", "a mesh shader cannot go on wgsl: ...", "the
       module leaves it out when DREAM_TARGET_WGSL is defined"); NULL for the others. */
    const char *not_built[DGPB_TARGET_COUNT];
} dgpb_listed_entry;

/* One pipeline group: one pipeline, and one layout, per target. */
typedef struct dgpb_listed_group {
    const char *symbol; /* the macro its compiles define: DREAM_SHADER_<entry>,
                           DREAM_SHADERS_RENDER or DREAM_SHADERS_RAY_TRACING */
    const char *label;  /* "compute shader 'k'", "the render group", "the ray-tracing group" */
} dgpb_listed_group;

typedef struct dgpb_entry_list {
    uint32_t targets;           /* the targets the build writes: of --targets that the build
                                   triple loads, those that carry an entry (ptx carries compute
                                   entries only, DGPB_TRAIT_COMPUTE_ONLY) */
    uint32_t build_targets;     /* the targets the build compiles for: of --targets, those the
                                   build triple loads */
    bool library;               /* a library module: no entry point (entry_count 0) */
    dgpb_listed_entry *entries; /* in declaration order */
    size_t entry_count;
    dgpb_listed_group *groups; /* in order of their first entry */
    size_t group_count;
} dgpb_entry_list;

/*
 * Lists a module's entries as dgpb_build() would build them, without
 * compiling them: only its first stages run (read and scan the module, pick
 * the targets, one discovery compile per target), so every fact comes from
 * Slang. Nothing is written: desc->out_dir, depfile, cache and the layout
 * options are not used, and the intermediate folder is removed (unless
 * desc->keep_temps). An entry that a target of the build cannot carry (a
 * stage or a name its code cannot hold, a render entry on ptx, an entry the
 * module leaves out for it) is listed with the reason (not_built), where a
 * build fails or leaves it out; a module without entry points is a library
 * module (list.library, one note). With desc->list_check each entry is also
 * built for each of its targets on its own, a target where that fails
 * listed as not built, with the build's first error (whose diagnostics are
 * not reported). Diagnostics go to desc->sink as for
 * dgpb_build(), and the return values are its own: DGPB_OK with *out set, or
 * with *out NULL DGPB_ERR_SHADER (the module does not compile),
 * DGPB_ERR_INVALID, DGPB_ERR_IO, DGPB_ERR_TOOL, DGPB_ERR_INTERRUPTED or
 * DGPB_ERR_NOMEM. Free *out with dgpb_entry_list_free().
 */
int dgpb_build_list(const dgpb_build_desc *desc, dgpb_entry_list **out);

/* Releases a list and everything it owns. NULL is a no-op. */
void dgpb_entry_list_free(dgpb_entry_list *list);

#ifdef __cplusplus
}
#endif

#endif
