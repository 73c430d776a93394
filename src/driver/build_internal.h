/*
 * build_internal.h - what the stages of the producer pipeline share
 * (dgpb/build.h; the pipeline itself is dgpb_build() in build.c).
 *
 * One `build` holds the state that the stages fill in order, each reading
 * what the ones before it left (the table in build.c runs them):
 *
 *   build_recover_outputs build_emit.c       finish (or undo) what a killed build left half
 *                                            replaced of this build's outputs
 *   build_replay          build_replay.c     begin the compile cache's session; a build the
 *                                            cache holds whole is written from it, and done
 *   build_prepare         build_discover.c   read and scan the module, pick targets, make the
 *                                            intermediate folder and the discovery module
 *   build_discover        build_discover.c   entries per target from Slang, pipeline groups
 *   build_compile         build_compile.c    one compile job per entry and target (+ SPIR-V
 *                                            probes), then read_outputs: code, SPIR-V
 *                                            analysis, reflection into units
 *   build_make_tables     build_tables.c     per-unit parameter tables, the binding proof,
 *                                            capabilities; cross-target and group checks
 *   build_check_webgpu    build_webgpu.c     WebGPU limits per group, storage-format warnings
 *   build_record_layouts  build_layouts.c    one layout per pipeline group and target
 *   build_emit            build_emit.c       model, writer, JSON view, atomic writes; the
 *                                            finished build filed in the cache
 *
 * build_jobs.c holds what the compiling stages share: job lists, their
 * argument vectors, running them (as batches, build_batch.c), reading their
 * outputs and reporting their failures; build_cache.c answers single compiles
 * and layouts from the compile cache (cache/cache_session.h) and files them;
 * build_deps.c collects the files Slang read (the depfile's list). Every
 * stage reports through build_report()/build_forward(), which count errors in
 * build->errors.
 */
#ifndef DGPB_BUILD_INTERNAL_H
#define DGPB_BUILD_INTERNAL_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define build_add_discovery dgpb__build_add_discovery
#define build_add_job dgpb__build_add_job
#define build_cache_begin dgpb__build_cache_begin
#define build_cache_keep dgpb__build_cache_keep
#define build_cache_lookup dgpb__build_cache_lookup
#define build_cache_lookup_layouts dgpb__build_cache_lookup_layouts
#define build_cache_store dgpb__build_cache_store
#define build_cache_store_layouts dgpb__build_cache_store_layouts
#define build_check_options dgpb__build_check_options
#define build_check_webgpu dgpb__build_check_webgpu
#define build_collect_deps dgpb__build_collect_deps
#define build_compile dgpb__build_compile
#define build_compiler_run dgpb__build_compiler_run
#define build_deps_free dgpb__build_deps_free
#define build_describe_exit dgpb__build_describe_exit
#define build_diagnostics_text dgpb__build_diagnostics_text
#define build_discover dgpb__build_discover
#define build_emit dgpb__build_emit
#define build_forward dgpb__build_forward
#define build_is_module dgpb__build_is_module
#define build_is_temp_path dgpb__build_is_temp_path
#define build_job_crashed dgpb__build_job_crashed
#define build_job_deps dgpb__build_job_deps
#define build_job_list_free dgpb__build_job_list_free
#define build_last_words dgpb__build_last_words
#define build_layout_output dgpb__build_layout_output
#define build_layout_with_compile dgpb__build_layout_with_compile
#define build_make_tables dgpb__build_make_tables
#define build_option_arg dgpb__build_option_arg
#define build_options_free dgpb__build_options_free
#define build_output_stem dgpb__build_output_stem
#define build_check_output_names dgpb__build_check_output_names
#define build_prepare dgpb__build_prepare
#define build_read_output dgpb__build_read_output
#define build_read_reflection dgpb__build_read_reflection
#define build_record_layouts dgpb__build_record_layouts
#define build_recover_outputs dgpb__build_recover_outputs
#define build_refuse_missing_types dgpb__build_refuse_missing_types
#define build_replay dgpb__build_replay
#define build_report dgpb__build_report
#define build_report_at dgpb__build_report_at
#define build_report_compile_failure dgpb__build_report_compile_failure
#define build_report_compile_failures dgpb__build_report_compile_failures
#define build_failure_rc dgpb__build_failure_rc
#define build_tmp_full dgpb__build_tmp_full
#define build_report_compiler_text dgpb__build_report_compiler_text
#define build_report_kept dgpb__build_report_kept
#define build_text_as_given dgpb__build_text_as_given
#define build_now dgpb__build_now
#define build_hold_output dgpb__build_hold_output
#define build_read_output_bytes dgpb__build_read_output_bytes
#define build_held_free dgpb__build_held_free
#define build_time_add dgpb__build_time_add
#define build_run_jobs dgpb__build_run_jobs
#define build_keep_checked dgpb__build_keep_checked
#define build_may_share dgpb__build_may_share
#define build_slang_target dgpb__build_slang_target
#define build_write_outputs dgpb__build_write_outputs

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache/cache_session.h"
#include "core/bytebuf.h"
#include "dgpb/build.h"
#include "dgpb/cache.h"
#include "dgpb/compiler.h"
#include "dgpb/format.h"
#include "tables/params.h"
#include "tables/reflect.h"
#include "dgpb/result.h"
#include "code/spirv/spirv_analysis.h"
#include "driver/targets.h"
#include "code/wgsl/wgsl_scan.h"

#define BUILD_MAX_SOURCE (64u << 20)       /* the largest module read */
#define BUILD_MAX_OUTPUT ((size_t)1 << 31) /* the largest compiler output read */

/* The entry every discovery compile sees, so a target without entries still compiles. */
#define BUILD_ANCHOR_ENTRY "dgpb_discovery_anchor"
/* The lines of the discovery module (build_discover.c): the first includes the module, the
   others declare the anchor entry; Slang names the end of it the line after them. */
#define BUILD_WRAPPER_LINES 4

/* The kinds of pipeline group: one pipeline (and one layout) per group and target. */
enum group_kind { GROUP_COMPUTE, GROUP_RENDER, GROUP_RAY_TRACING };

/* One entry point of the module, across targets. */
typedef struct entry {
    char *name;
    uint32_t stage;
    uint32_t thread_group_size[3];
    size_t group;     /* index into build.groups */
    uint32_t targets; /* bit per dgpb_target_id where the entry exists */
    /* Listing only (build.listing): per target, why the entry cannot go there although Slang
       finds it (a stage or a name the target's code cannot hold); owned, NULL elsewhere. A
       build reports each as an error instead. */
    char *refused[DGPB_TARGET_COUNT];
} entry;

typedef struct group {
    enum group_kind kind;
    char *symbol; /* the macro its compiles define */
    char *label;  /* for messages: "compute shader 'k'", "the render group" */
    size_t first; /* its first entry, for layout order */
} group;

/* What one (target, entry) pair produced. */
typedef struct unit {
    bool present;
    uint8_t *code;
    size_t code_size;
    dgpb_reflection *reflection;
    dgpb_spirv_info *spirv; /* owned unless spirv_shared */
    bool spirv_shared;
    dgpb_reflection *probe_reflection; /* the SPIR-V probe's reflection (places as in `spirv`),
                                          owned; NULL without a probe */
    dgpb_param_table params;
    dgpb_wgsl_module *wgsl; /* the wgsl target's code, scanned */
    uint64_t caps;          /* bit per dgpb_capability */
    uint32_t layout;        /* index of its group's layout in the target's layouts */
    /* The SHA-256 of its code and of its reflection JSON, as the compile wrote them: what
       its group's layout is cached by (build_cache.c); hashed: both could be had. */
    uint8_t code_sha[DGPB_SHA256_SIZE], json_sha[DGPB_SHA256_SIZE];
    bool hashed;
} unit;

/* The recorded layouts of one target, one per group in order of first entry. */
typedef struct target_layouts {
    uint8_t **blobs;
    size_t *sizes;
    uint32_t count;
} target_layouts;

/* The role of one compile job. */
enum job_role {
    ROLE_DISCOVER, /* the whole module, every group at once: which entries exist (no code
                      generated, but where its stages need the code: build_discover.c) */
    ROLE_CODE,     /* one entry's code and reflection */
    ROLE_METALLIB, /* one metal entry compiled to a metallib as well */
    ROLE_PROBE,    /* one entry's SPIR-V, for analysis, where the spirv target has none */
};

typedef struct job_info {
    enum job_role role;
    int target; /* dgpb_target_id */
    size_t entry;
    char *out;        /* the code it writes (NULL: none, a discovery with -skip-codegen) */
    char *json;       /* the reflection it writes */
    char *dep;        /* the depfile it writes */
    char *layout_out; /* where its group's layout is recorded with it (NULL: not;
                         build_layout_with_compile()) */
    char **argv;
    size_t argc;
    size_t shared_first, shared_count; /* argv[shared_first, +shared_count): the build's
                                          define_args, borrowed (not freed with the job) */
    char **deps;                       /* the files it read (its depfile, or its cached result) */
    size_t dep_count;
    bool deps_known;                  /* deps come from a depfile the compiler wrote */
    bool keyed;                       /* key is its cache manifest's key */
    bool keep;                        /* the worker keeps the module it checks (a discovery) */
    const char *const *checked_as;    /* a discovery's arguments whose kept module this
                                         compile may come from (b->checked; NULL: none) */
    size_t checked_as_count;
    uint8_t key[DGPB_CACHE_KEY_SIZE]; /* (build_cache.c) */
} job_info;

/* The jobs of one compiler run; info[i] describes dgpb_compile_job i. */
typedef struct job_list {
    job_info *info;
    size_t count, cap;
} job_list;

/* The project options as the build applies them (build_options.c). */
typedef struct build_options {
    const char **caps; /* desc->slang_capabilities sorted by byte order, each once (borrowed) */
    size_t cap_count;
    char *caps_text;        /* the same joined by ',' ("" when none): the bundle's record */
    char spirv_profile[16]; /* "spirv_1_6" for desc->spirv_version; "" for Slang's default */
    char spirv_text[8];     /* "1.6"; "" */
    char *key;              /* every option, for the whole-build cache key */
} build_options;

/* The most arguments build_option_arg() gives. */
#define BUILD_OPTION_ARGS_MAX(b) (6 + 2 * (b)->options.cap_count)

typedef struct build {
    const dgpb_build_desc *desc;
    build_options options; /* the project options (build_check_options) */
    dgpb_build_result *result;
    char tmp[4096];     /* the intermediate folder ("" until made) */
    char *wrapper;      /* the discovery module: the user's module plus the anchor entry */
    char **define_args; /* "-DNAME[=VALUE]" of each desc->defines, made once and shared by
                           every job's argv: a million defines cost one copy, not one a job */
    char *source;       /* the module's text */
    size_t source_len;
    char **symbols; /* the group symbols the module tests (DREAM_SHADER_<e>, ...) */
    size_t symbol_count;
    /* The module follows the generator's conventions (it guards its entries with group
       symbols): each compile defines one group, and an entry's values come in a block
       "<entry>_params" (dgpb_param_select.dream). */
    bool generator_conventions;
    /* The module or a file it includes names a DREAM_TARGET_ macro, so an entry's code may
       differ between targets beyond the format: every target's SPIR-V analysis comes from a
       probe compiled with that target's defines (build_compile.c). */
    bool target_guarded;
    /* The arguments of each target's discovery, kept by a native worker with the module it
       checked: the compiles of a module whose text names no group macro (their defines and
       the discovery's then make the same text) are sent with them, so that the worker
       generates their code from that module instead of parsing it again (build_jobs.c,
       docs/layout.md "One parse per module"). NULL: none. */
    char **checked[DGPB_TARGET_COUNT];
    size_t checked_count[DGPB_TARGET_COUNT];
    /* For a target whose discovery compiles to another Slang target (wgsl's SPIR-V), the
       arguments of its first entry's compile, which the worker keeps for the others. */
    char **checked_code[DGPB_TARGET_COUNT];
    size_t checked_code_count[DGPB_TARGET_COUNT];
    bool names_groups; /* the module or a file it includes says DREAM_SHADER (build_compile.c) */
    double claimed; /* seconds of the running stage that build_time_add gave to a sub-phase */
    /* Outputs a cached result gave, kept in memory instead of written to the intermediate
       folder (each file would cost a create and an unlink): build_hold_output. */
    struct held_output *held;
    size_t held_count, held_cap;
    size_t *held_index; /* open addressing over held by path: slot = output + 1 (the latest) */
    size_t held_index_cap;
    dgpb_platform platform;
    uint32_t targets; /* bit per dgpb_target_id selected */
    entry *entries;   /* in declaration order */
    size_t entry_count;
    group *groups; /* in order of first entry */
    size_t group_count;
    unit *units; /* [target * entry_count + entry], from build_compile on */
    target_layouts layouts[DGPB_TARGET_COUNT];
    bool metallib; /* the metal target ships metallib code (every metallib job compiled) */
    unsigned errors;
    bool compiler_crashed; /* a compile failed by crashing (exit status 3, not 1) */
    int tmp_room; /* the intermediate folder's room after a failed compile: 0 unknown, 1 some,
                     2 none (reported once; exit status 3, not 1): build_tmp_full() */
    uint32_t progress_done, progress_total; /* jobs for desc->progress (build_batch.c) */
    double progress_start;
    /* The files Slang read (the depfile's dependencies), each once, in the order first read
       (build_deps.c). */
    char **deps;
    size_t dep_count;
    bool *dep_from_discovery; /* per dep: named by a discovery compile */
    bool deps_incomplete;     /* a compile wrote no depfile */
    cache_inputs cache_in;    /* the build's options as the cache's keys use them */
    cache_session cache;      /* the compile cache's state (build_cache.c begins it) */
    uint64_t *seen; /* the compilers' diagnostics reported so far, hashed: an open-addressing
                       set of seen_cap slots (0: empty), seen_count of them used */
    size_t seen_count, seen_cap;
    bool done; /* a stage finished the build early (the cache replayed it, or the module is a
                  library module: desc->library_modules) */
    /* dgpb_build_list(): the discovery keeps the entries a target cannot hold, each with the
       reason (entry.refused), and those no target of the build carries, instead of failing. */
    bool listing;
} build;

/* ---- diagnostics (build_report.c) ---- */

/* Reports one diagnostic to the sink, naming the module; an error counts in b->errors. */
void build_report(build *b, dgpb_severity severity, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* build_report() at a line of the module (1-based). */
void build_report_at(build *b, uint32_t line, dgpb_severity severity, int code, const char *fmt,
                     ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Forwards a library diagnostic as an error, prefixed with context, and returns its code. */
int build_forward(build *b, const dgpb_diag *d, const char *context);

/*
 * Reports what a compile printed as Slang's own diagnostics (compiler/slang_diag.h),
 * each once per build: a diagnostic another target or job printed already (the same
 * severity, file, line, column, code and message) is not reported again. The module's
 * file is named as the user spelled it. Text that is none of Slang's diagnostics is
 * reported with severity `loose`, after `context` ("target 'spirv', entry 'k'").
 */
void build_report_compiler_text(build *b, const char *text, dgpb_severity loose,
                                const char *context);

/*
 * What a compile printed (`len` bytes), with the module's file named as the
 * user spelled it wherever a diagnostic's header names it by another path
 * ("/abs/m.slang(7): ...", "--> /abs/m.slang:7:13", and after a context's
 * ": ", as a recorder's message quotes Slang), as build_report_compiler_text()
 * names it. A diagnostic located in the discovery module past its first line
 * (what the module left open, an unclosed brace, reported at the anchor entry
 * or the end) is located at the module's end instead, without the wrapper's
 * source excerpt, and those on the anchor's lines are left out when Slang also
 * reported the end: the user sees the module's own file, as slangc run on it
 * alone names it. A new string, or NULL when out of memory.
 */
char *build_text_as_given(const build *b, const char *text, int len);

/* Reports a warning the whole-build cache entry kept (build_replay.c), as it was reported. */
void build_report_kept(build *b, const char *kept);

/* ---- project options (build_options.c) ---- */

/*
 * Checks the description's project options and makes b->options from them,
 * before anything else runs: DGPB_ERR_INVALID (reported) for a value out of
 * range, a capability name that is no name, a capability that is a SPIR-V
 * version (spirv_1_N: that is --spirv-version's), and an option the compiler
 * cannot honour (the embedded compiler's WebAssembly API has no
 * matrix-layout, profile, capability, block-layout, optimization or
 * debug-information setting).
 */
int build_check_options(build *b);
void build_options_free(build *b);

/*
 * Argument `i` (from 0) of those that apply the project options to one
 * compile or layout recording, or NULL past the last (there are at most
 * BUILD_OPTION_ARGS_MAX(b)): the matrix layout always, `-profile spirv_1_N`
 * when `spirv` (the compile makes SPIR-V) and a version is asked for, the
 * block layout's option (-fvk-use-scalar-layout, ...) when `spirv` and one
 * is asked for, -O<level> and -g<level> when other than the default,
 * `-capability NAME` for each capability. The string is static or b's.
 */
const char *build_option_arg(const build *b, bool spirv, size_t i);

/* ---- shared helpers ---- */

static inline unit *build_unit_at(const build *b, int target, size_t entry_index)
{
    return &b->units[(size_t)target * b->entry_count + entry_index];
}

/* The -target value Slang gets for a job of `role` on `target`. */
const char *build_slang_target(int target, enum job_role role);

/* ---- jobs (build_jobs.c) ---- */

void build_job_list_free(job_list *list);

/* Appends a job: the module, user options, the group and target macros, then the target's. */
int build_add_job(build *b, job_list *list, enum job_role role, int target, size_t entry_index);

/*
 * Appends the discovery compile of one target: the discovery module with every group's
 * macro (ptx: the compute groups'). `code` false: with -skip-codegen (checked, linked and
 * reflected, no code written); true: with -o, for the code's entry points.
 */
int build_add_discovery(build *b, job_list *list, int target, bool code);

/*
 * Runs every job of the list. Returns DGPB_ERR_TOOL when the compiler could
 * not run; per-job results go to `jobs` (an array of list->count, cleared by
 * the caller with dgpb_compile_jobs_clear).
 */
int build_run_jobs(build *b, job_list *list, dgpb_compile_job *jobs);

/* Whether a job for `target` may name its discovery's kept module (b->checked): the module
   and its files name no group macro, and no debug information is asked for. */
bool build_may_share(const build *b, int target);

/* Keeps a copy of a discovery's arguments (b->checked) when a worker was asked to keep the
   module it checked (job_info.keep). DGPB_ERR_NOMEM. */
int build_keep_checked(build *b, const job_info *discovery);

/* Sets *entry_name and *target_name to the names of job `job` of a batch, for progress reports. */
typedef void (*build_job_name_fn)(void *ctx, size_t job, const char **entry_name,
                                  const char **target_name);

/*
 * Runs a batch on desc->compiler as dgpb_compiler_run() does, telling
 * desc->progress (if any) as each job starts and finishes, the jobs named
 * through `name` (build_batch.c).
 */
int build_compiler_run(build *b, dgpb_compile_job *jobs, size_t count, build_job_name_fn name,
                       void *name_ctx, dgpb_diag *diag);

/* A failed job's diagnostics for a message: *len bytes, without trailing newlines. */
const char *build_diagnostics_text(const dgpb_compile_job *job, int *len);

/* Reports a failed entry compile (or probe) with Slang's own diagnostics. */
void build_report_compile_failure(build *b, const job_info *info, const dgpb_compile_job *job);

/*
 * Reports the failed jobs marked in `report` (one flag per job of `list`). Jobs of one role
 * and target that printed the same diagnostics (Slang 2025.15 checks every entry of a plain
 * module in each entry's compile, so a fragment entry's wgsl error fails its vertex entry's
 * compile too) are one failure, reported once, naming the entry whose function in the
 * module's text holds the first error (scan/entry_scan.h, entry_scan_span()) and the others
 * that failed on it; where the text lies in none of them, each is reported as it failed.
 * DGPB_OK, or DGPB_ERR_NOMEM (reported).
 */
int build_report_compile_failures(build *b, const job_list *list, const dgpb_compile_job *jobs,
                                  const bool *report);

/* The bytes a probe writes into the intermediate folder to tell a full one (build_tmp_full()). */
#define BUILD_TMP_PROBE ((size_t)1 << 20)

/*
 * Whether a compile that failed without crashing failed because the
 * intermediate folder is full: a probe of BUILD_TMP_PROBE bytes written there
 * (and removed) fails with ENOSPC or EDQUOT. The first time it is, the error
 * is reported once, naming the folder (DGPB_ERR_IO: exit status 3); the
 * answer is kept for the build, and the compiler's own words about the
 * failure are not reported (they blame the module).
 */
bool build_tmp_full(build *b);

/* What the build's failed compiles amount to: DGPB_ERR_TOOL after a crash or a full
   intermediate folder, else DGPB_ERR_SHADER. */
int build_failure_rc(const build *b);

/* The lines of a crashed compiler's output that a report quotes, from its end. */
#define BUILD_LAST_WORDS_LINES 20

/* Whether a failed job's compiler crashed (a signal, no answer, an internal error, the
   WebAssembly module failing) rather than reporting errors in the module. */
bool build_job_crashed(const dgpb_compile_job *job);
/* "exit status N", "killed by signal N, NAME" or "no answer". */
void build_describe_exit(const dgpb_compile_job *job, char *buf, size_t size);
/* The last BUILD_LAST_WORDS_LINES lines of what a job printed. */
const char *build_last_words(const dgpb_compile_job *job, int *len);

/* Reads a compiler output file whole. */
int build_read_output(build *b, const char *path, uint8_t **out, size_t *size);

/* Reads and classifies Slang's reflection JSON for one target; json_sha (when not NULL,
   DGPB_SHA256_SIZE bytes) gets the SHA-256 of its bytes, and *hashed whether it could be had. */
int build_read_reflection(build *b, const char *path, dgpb_target_id target,
                          const dgpb_reflection_blocks *blocks, dgpb_reflection **out,
                          uint8_t *json_sha, bool *hashed);

/* ---- the compile cache (build_cache.c) ---- */

/* Begins the cache session (b->cache) with the build's known macros. */
void build_cache_begin(build *b);

/* Takes every job whose result is cached (hit[i] set; its outputs written, its status 0). */
void build_cache_lookup(build *b, job_list *list, dgpb_compile_job *jobs, bool *hit);

/* Files the result of every job that compiled (status 0, not a hit) and read its depfile. */
void build_cache_store(build *b, job_list *list, const dgpb_compile_job *jobs, const bool *hit);

/* A layout job's standing with the cache. */
typedef struct cached_job {
    int target;    /* set by the caller: the job's target (dgpb_target_id) and group, */
    size_t group;  /* whose units' results key it */
    bool recorded; /* set by the caller: its group's compile recorded it (its output written,
                      its status 0); keyed and filed, never taken from the cache */
    bool hit;      /* taken from the cache (its output written, its status 0) */
    bool keyed;    /* key is its manifest's key */
    uint8_t key[DGPB_CACHE_KEY_SIZE];
} cached_job;

/*
 * Takes every layout job (writing outputs[i]) whose blob is cached, keyed by what its
 * group's compiles produced for its target (c[i].target, c[i].group); c[i] says which.
 */
void build_cache_lookup_layouts(build *b, dgpb_compile_job *jobs, size_t count,
                                const char *const *outputs, cached_job *c);

/* Files the blob of every layout job that recorded one (status 0, not a hit). */
void build_cache_store_layouts(build *b, const dgpb_compile_job *jobs, size_t count,
                               const char *const *outputs, const cached_job *c);

/* Files the finished build. */
void build_cache_keep(build *b, const uint8_t *bundle, size_t size, const char *json);

/* ---- dependencies (build_deps.c) ---- */

/* Reads a compiled job's depfile into info->deps (none written: deps_known false). */
int build_job_deps(build *b, job_info *info);

/* Adds the files the successful jobs read to b->deps (the module and temporaries left out). */
int build_collect_deps(build *b, const job_list *list, const dgpb_compile_job *jobs);

/* Whether `path` is in the build's intermediate folder. */
bool build_is_temp_path(const build *b, const char *path);

/* Whether `path` names the module file itself (the same file, however spelled). */
bool build_is_module(const build *b, const char *path);

void build_deps_free(build *b);

/* ---- layouts with their compiles (build_jobs.c) ---- */

/* Where the layout of group `g` on `target` is written in the intermediate folder (a new
   string, dgpb_free(); NULL: no memory). */
char *build_layout_output(const build *b, int target, size_t g);

/*
 * Whether the layout of group `g` on `target` is recorded by the compile of its one entry
 * there (native workers record it from the request that compiled the entry:
 * dgpb_compile_job.layout_output), rather than by a layout job of its own that compiles the
 * group again. The layout stage takes what that compile wrote, and records the others.
 */
bool build_layout_with_compile(build *b, int target, size_t g);

/* ---- output (build_emit.c) ---- */

/* The output files' stem: from --module-path, or the module's file name without .slang. */
void build_output_stem(const build *b, char *stem, size_t size);

/*
 * DGPB_ERR_INVALID, reported, when desc->bundle_file cannot name the outputs:
 * not NAME.dgpb, or with an output folder or a module path, which name them
 * too (dgpb/build.h). Before the stages: nothing read or written yet.
 */
int build_check_output_names(build *b);

/*
 * Writes the bundle, its view and (desc->depfile) the depfile as one output unit, all new or
 * all as they were (docs/build.md, "The output unit"); their paths go to the result.
 */
int build_write_outputs(build *b, const char *stem, const uint8_t *bytes, size_t size,
                        const char *json, dgpb_diag *diag);

/* ---- checks (build_tables.c) ---- */

/*
 * Refuses entry `e` on target `t` when its SPIR-V (`spirv`, NULL: nothing
 * known) uses a type or binds a resource the target's code cannot express
 * (its code format's missing_type and missing_binding, code/code_format.h),
 * reporting it; whether it did.
 */
bool build_refuse_missing_types(build *b, int t, size_t e, const dgpb_spirv_info *spirv);

/* ---- the stages, in pipeline order; each returns DGPB_OK or why the build stops ---- */

/* Completes (or undoes) what a killed build left half-replaced of this build's outputs. */
int build_recover_outputs(build *b); /* build_emit.c */
/* Begins the cache session; a build the cache holds whole is written from it (b->done). */
int build_replay(build *b);         /* build_replay.c */
int build_prepare(build *b);        /* build_discover.c */
int build_discover(build *b);       /* build_discover.c */
/* One output held in memory: the bytes a compile would have written at `path`. */
typedef struct held_output {
    char *path;
    uint8_t *data;
    size_t size;
} held_output;

/* Holds a copy of `size` bytes as the output at `path` (build_jobs.c); false: no memory. */
bool build_hold_output(build *b, const char *path, const void *data, size_t size);
/* A compiler output's bytes, held or read from `path` (a new allocation; dgpb_free). */
int build_read_output_bytes(build *b, const char *path, uint8_t **out, size_t *size,
                            dgpb_diag *diag);
void build_held_free(build *b);

/* Where the build's time goes (dgpb_build_result.phase_seconds; build.c): seconds on a
   monotonic clock, and `since`'s share of the running stage given to `phase`. */
double build_now(void);
void build_time_add(build *b, dgpb_build_phase phase, double since);

int build_compile(build *b);        /* build_compile.c */
int build_make_tables(build *b);    /* build_tables.c */
int build_check_webgpu(build *b);   /* build_webgpu.c */
int build_record_layouts(build *b); /* build_layouts.c */
int build_emit(build *b);           /* build_emit.c */

#endif
