/*
 * dgpb/compiler.h - the Slang compiler front: find slangc, run batches of compiles.
 *
 * dgpb never compiles a shader itself: Slang does, once per (entry point,
 * target), as its command-line compiler would. A dgpb_compiler is one chosen
 * compiler, found in the order of docs/build.md, "Which compiler":
 *
 *   1. desc.path (dgpb-build's --slangc PATH), else desc.slang_lib
 *      (--slang-lib PATH: a native library is a compiler of its own)
 *   2. $DGPB_SLANGC
 *   3. $SLANG_ROOT: bin/slangc, else the libslang in lib/
 *   4. $VULKAN_SDK: likewise (an SDK without Slang is passed over)
 *   5. slangc on $PATH
 *   6. the set-up's or the installation's native Slang (desc.native, folders
 *      that may hold libslang: dgpb-build gives deps/slang/lib of its source
 *      tree, or ../lib/dgpb/slang of an installation)
 *   7. the embedded tools/slangc-wasm/slangc-wasm (desc.embedded, a list of
 *      candidate paths; dgpb-build gives one, relative to its executable:
 *      docs/install.md, "How the installed tools find each other")
 *
 * desc.force narrows the lookup to rule 7 (embedded) or to rules 1-6
 * (native). A compiler named by 1, 2 or 3 that does not exist or is not
 * usable is an error naming it; the lookup never falls through past
 * something the user asked for. When nothing is found, the error says how
 * to install one (`tools/setup.sh`). Whatever rule chose it, a compiler
 * that is the embedded script (same real path as a candidate) is run as the
 * embedded one. A native library with no slangc (rules 1, 3, 4, 6) compiles
 * on the native workers only (desc.recorder).
 *
 *     dgpb_compiler_desc desc = {.path = opt_slangc, .embedded = candidates};
 *     dgpb_compiler *c;
 *     if (dgpb_compiler_create(&desc, &c, &diag))
 *         fail(diag.message);
 *     printf("%s\n", dgpb_compiler_origin(c));        ("slangc from $SLANG_ROOT/bin")
 *     const char *args[] = {"/abs/k.slang", "-target", "spirv", "-entry", "k",
 *                           "-stage", "compute", "-o", "/abs/k.spv"};
 *     dgpb_compile_job jobs[1] = {{.args = args, .arg_count = 9}};
 *     if (dgpb_compiler_run(c, jobs, 1, 8, &diag))   (the compiler could not run)
 *         fail(diag.message);
 *     if (jobs[0].status != 0)                        (Slang's error text)
 *         show(jobs[0].diagnostics);
 *     dgpb_compile_jobs_clear(jobs, 1);
 *     dgpb_compiler_destroy(c);
 *
 * Batches: the embedded compiler runs as persistent `slangc-wasm --serve`
 * workers (docs/slangc-wasm.md), which saves loading the WebAssembly module
 * and creating Slang's global session (~0.4 s) per compile. A native slangc
 * runs the same way on `dgpb-slang-layout --serve` workers (desc.recorder,
 * recorder/worker_server.h) when its libslang is found, else (and with
 * desc.processes) as one child per job, at most `parallel` at a time. With
 * workers, the first run
 * starts min(parallel, count) of them, later runs reuse them and start more
 * only when asked for more parallelism, and dgpb_compiler_destroy() closes
 * their input and waits for them. Each idle worker gets one job line; the
 * answers are read with poll() across workers. A worker that exits or
 * answers something that is not an answer fails its job (status -1, with a
 * diagnostic naming the worker, the job's entry and target, and what the
 * worker printed on standard error) and the batch (DGPB_ERR_TOOL); it is
 * replaced on the next run.
 *
 * The compile service: with desc.service, the batches that would run on
 * --serve workers are handed to a per-user service that keeps warm workers
 * of this one compiler across processes (dgpb/service.h, docs/service.md);
 * any failure of the service costs one desc.service_warning and the jobs it
 * did not answer run here, with the same results.
 *
 * A dgpb_compiler is not thread-safe: run one batch at a time.
 *
 * Ownership: the desc's strings are copied by create. Jobs' args are
 * borrowed for the duration of the run; what the run puts into a job
 * (diagnostics, output) belongs to the job and is released by
 * dgpb_compile_jobs_clear(). Strings returned by the accessors belong to the
 * dgpb_compiler and live until it is destroyed.
 */
#ifndef DGPB_COMPILER_H
#define DGPB_COMPILER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which lookup rule chose the compiler. */
typedef enum dgpb_compiler_source {
    DGPB_COMPILER_FROM_OPTION = 1,     /* desc.path (--slangc) */
    DGPB_COMPILER_FROM_ENV = 2,        /* $DGPB_SLANGC */
    DGPB_COMPILER_FROM_SLANG_ROOT = 3, /* $SLANG_ROOT/bin/slangc */
    DGPB_COMPILER_FROM_PATH = 4,       /* slangc on $PATH */
    DGPB_COMPILER_FROM_EMBEDDED = 5,   /* the first existing desc.embedded candidate */
    DGPB_COMPILER_FROM_SLANG_LIB = 6,  /* desc.slang_lib alone (--slang-lib) */
    DGPB_COMPILER_FROM_VULKAN_SDK = 7, /* $VULKAN_SDK/bin/slangc or its lib/ */
    DGPB_COMPILER_FROM_SETUP = 8,      /* the first desc.native folder with a libslang */
} dgpb_compiler_source;

/* Which kind of compiler the lookup may choose (dgpb-build's --compiler). */
typedef enum dgpb_compiler_force {
    DGPB_COMPILER_ANY = 0,      /* the first rule that finds one */
    DGPB_COMPILER_EMBEDDED = 1, /* the embedded compiler only */
    DGPB_COMPILER_NATIVE = 2,   /* a native Slang only (rules 1-6); none is an error */
} dgpb_compiler_force;

/*
 * Reads an environment variable: returns its value or NULL when unset. The
 * returned string must stay valid until dgpb_compiler_create() returns.
 */
typedef const char *(*dgpb_getenv_fn)(const char *name, void *user);

/* How a compiler's batches reach the compile service: dgpb_service_offload() (dgpb/service.h). */
typedef struct dgpb_compile_offload dgpb_compile_offload;

/* How to find the compiler. Zero everywhere: the lookup with the real environment, no embedded. */
typedef struct dgpb_compiler_desc {
    const char *path;            /* rule 1: a path, or a name looked up on $PATH; NULL: not given */
    const char *const *embedded; /* rule 7: NULL-terminated candidate paths of slangc-wasm, tried
                                    in order; NULL: none */
    const char *const *native;   /* rule 6: NULL-terminated folders that may hold a native
                                    libslang, tried in order; NULL: none */
    dgpb_compiler_force force;   /* which kind of compiler may be chosen */
    dgpb_getenv_fn get_env;      /* reads DGPB_SLANGC, SLANG_ROOT and PATH; NULL: getenv() */
    void *get_env_user;
    const char *cwd; /* working folder of the compiles; NULL: the caller's at run time */
    /*
     * The native worker and layout recorder, dgpb-slang-layout (NULL: none).
     * With a native slangc whose libslang is found (slang_lib, else next to
     * slangc or in $SLANG_ROOT/lib), compiles run on persistent
     * `dgpb-slang-layout --serve` workers instead of one slangc per job;
     * layout jobs (dgpb_compile_job.layout) always run on it.
     */
    const char *recorder;
    const char *slang_lib; /* the libslang the recorder and the workers load; NULL: their lookup.
                              Without desc.path, the compiler itself (rule 1) */
    bool processes;        /* one slangc process per compile even when workers could be used */
    /*
     * The compile service's program (dgpb/service.h, docs/service.md): dgpb-build, started as
     * `SERVICE --service-daemon ...` when no service of this compiler runs yet. With it, the
     * batches that run on --serve workers go to the user's service of this compiler, whose
     * workers outlive this process; NULL: never (the default). Not with `processes`.
     * `offload` is how the batches reach it: dgpb_service_offload(); without it, no service.
     */
    const char *service;
    const dgpb_compile_offload *offload;
    /*
     * Told once, on the thread that runs the batch, when the service cannot be used (its
     * folder is not safe) or fails (gone, hung, crashed, garbage): the message says why, and
     * the jobs run on this process's own workers (NULL: nobody is told).
     */
    void (*service_warning)(void *user, const char *message);
    void *service_warning_user;
} dgpb_compiler_desc;

typedef struct dgpb_compiler dgpb_compiler;

/*
 * Finds the compiler (nothing is run yet). Returns DGPB_OK with *out set, or
 * DGPB_ERR_TOOL (an explicitly named compiler is missing or not executable,
 * the embedded one is not installed, or none was found; the message names
 * the path and the rule and says what to do), DGPB_ERR_INVALID,
 * DGPB_ERR_NOMEM. *out is NULL on error. `desc` may be NULL (all defaults).
 */
int dgpb_compiler_create(const dgpb_compiler_desc *desc, dgpb_compiler **out, dgpb_diag *diag);

/* Closes the serve workers' input, waits for them, and frees everything. NULL is a no-op. */
void dgpb_compiler_destroy(dgpb_compiler *c);

/* The compiler's path, absolute (not resolved through symbolic links). */
const char *dgpb_compiler_path(const dgpb_compiler *c);

/* The rule that chose it. */
dgpb_compiler_source dgpb_compiler_source_of(const dgpb_compiler *c);

/*
 * Where it came from, for messages and --version: "slangc from --slangc",
 * "slangc from $DGPB_SLANGC", "slangc from $SLANG_ROOT/bin", "slangc from
 * PATH", "embedded slangc-wasm"; an explicit choice that is the embedded
 * script reads e.g. "embedded slangc-wasm from $DGPB_SLANGC".
 */
const char *dgpb_compiler_origin(const dgpb_compiler *c);

/* Whether it is the embedded slangc-wasm (run through --serve workers). */
bool dgpb_compiler_is_embedded(const dgpb_compiler *c);

/*
 * Whether it is a native library with no slangc (dgpb_compiler_path() is the
 * library): its compiles run on the native workers only.
 */
bool dgpb_compiler_is_library(const dgpb_compiler *c);

/*
 * Runs `<compiler> -v` once (later calls return the remembered answer) and
 * sets *version to its output with surrounding white space removed
 * ("2026.16"; standard error when standard output is empty); for a native
 * library, asks the recorder for the library's build tag
 * (`dgpb-slang-layout --slang-lib L --slang-version`). The string
 * belongs to `c`. DGPB_ERR_TOOL when it cannot run or exits non-zero (with
 * what it printed).
 */
int dgpb_compiler_version(dgpb_compiler *c, const char **version, dgpb_diag *diag);

/*
 * The resident memory one embedded worker (slangc-wasm --serve: Node.js and
 * Slang's WebAssembly module) takes, measured: about 175 MB.
 */
#define DGPB_EMBEDDED_WORKER_BYTES (175ull << 20)

/*
 * How many of `count` compiles run at once when `requested` are asked for
 * (0: one per CPU): never more than `count`, and with the embedded
 * compiler's workers never more than half the available memory holds
 * (MemAvailable of /proc/meminfo, DGPB_EMBEDDED_WORKER_BYTES each; no memory
 * cap where it cannot be read). At least 1. dgpb_compiler_run() runs that
 * many.
 */
unsigned dgpb_compiler_parallel(dgpb_compiler *c, unsigned requested, size_t count);

/*
 * The rule of dgpb_compiler_parallel() with its inputs given: `requested`
 * (0: `cpus`) capped at `count` and, where `mem_available` is not 0, at
 * mem_available / 2 / per_worker. At least 1.
 */
unsigned dgpb_parallel_limit(unsigned requested, unsigned cpus, size_t count,
                             uint64_t mem_available, uint64_t per_worker);

/* How many --serve workers this compiler has started so far (0 for slangc processes). */
unsigned dgpb_compiler_workers_started(const dgpb_compiler *c);

/* Whether it has a layout recorder (desc.recorder), which runs its layout jobs. */
bool dgpb_compiler_has_recorder(const dgpb_compiler *c);

/* How compiles run. */
typedef enum dgpb_compiler_mode {
    DGPB_COMPILER_EMBEDDED_WORKERS = 1, /* slangc-wasm --serve workers */
    DGPB_COMPILER_NATIVE_WORKERS = 2,   /* dgpb-slang-layout --serve workers on slangc's libslang */
    DGPB_COMPILER_PROCESSES = 3,        /* one native slangc process per compile */
} dgpb_compiler_mode;

/*
 * How compiles run. For a native slangc with a recorder whose libslang is
 * found, the first call (or the first run) asks the recorder whether it can
 * load that library (`dgpb-slang-layout --version`); when it cannot, the
 * compiler falls back to processes and *why (may be NULL) says so, a string
 * owned by `c`; otherwise *why is NULL.
 */
dgpb_compiler_mode dgpb_compiler_mode_of(dgpb_compiler *c, const char **why);

/* One compile: the arguments after the program name, and what came of it. */
typedef struct dgpb_compile_job {
    const char *const *args; /* arguments after the program name (borrowed); use absolute paths
                                or desc.cwd */
    size_t arg_count;
    int status;        /* set by the run: the compile's exit status (0 ok), -1 not run */
    char *diagnostics; /* set by the run: its standard error text, NUL-terminated ("" when none);
                          for a job that did not run, why */
    char *output;      /* set by the run: its standard output text ("" when none) */
    bool layout;       /* a layout job: args are dgpb-slang-layout's after its own options
                          (recorder/recording.h); it runs on the recorder (desc.recorder) and its
                          status is the recorder's exit status (dgpb_recorder_exit) */
    const char *layout_output; /* a compile job (not a layout job) whose program's layout is
                                  recorded too, into this file, as a layout job with the same
                                  arguments would record it; only native workers do
                                  (DGPB_COMPILER_NATIVE_WORKERS), and only when they can:
                                  elsewhere, or when recording fails, no file is written there
                                  (NULL: none; borrowed) */
    /* One parse per module (native workers only; elsewhere ignored): `keep` asks the worker
       to keep the module this compile checked; `checked_as` (checked_as_count strings,
       borrowed) names the arguments of a compile that checked the same module, whose kept
       module the worker may generate this job's code from instead of parsing the module
       again. The caller promises that the two compile the same text with the same options
       (docs/layout.md, "One parse per module"); the worker uses a kept module only when the
       files it read are unchanged, and only for an answer without diagnostics. */
    bool keep;
    const char *const *checked_as;
    size_t checked_as_count;
    bool checked; /* set by the run: its code came from a module a worker kept */
} dgpb_compile_job;

/*
 * Runs `count` jobs, at most `parallel` at once (0: the number of online
 * processors), and fills each job's status, diagnostics and output; results
 * are in input order whatever the completion order. The previous contents
 * of those fields are overwritten, not freed (clear the jobs before running
 * them again). Returns DGPB_OK when every job ran (whatever its status);
 * DGPB_ERR_TOOL when the compiler could not be run, or a worker died or
 * answered garbage (then the jobs that did not run have status -1 and say
 * why in diagnostics, and `diag` names the worker and what it printed);
 * DGPB_ERR_NOMEM; DGPB_ERR_INVALID for a NULL compiler or job array.
 */
int dgpb_compiler_run(dgpb_compiler *c, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                      dgpb_diag *diag);

/*
 * Told, on the thread that runs the batch, when job `job` (its index in the
 * batch) starts (`finished` false) and when its result is in (`finished`
 * true). A job that never starts is not reported.
 */
typedef void (*dgpb_compile_watch_fn)(void *user, size_t job, bool finished);

/* Sets the function told of each job of the runs that follow; NULL: none (the default). */
void dgpb_compiler_watch(dgpb_compiler *c, dgpb_compile_watch_fn fn, void *user);

/*
 * Sets the flag that stops the runs that follow (NULL: none, the default):
 * once *flag is nonzero, a run kills and waits for its compiles, layout
 * recordings and busy workers, and returns DGPB_ERR_INTERRUPTED. The flag is
 * looked at every few milliseconds, so a signal handler may set it.
 */
void dgpb_compiler_cancel_on(dgpb_compiler *c, const volatile sig_atomic_t *flag);

/* Frees each job's diagnostics and output and sets them to NULL, status to -1. NULL jobs: no-op. */
void dgpb_compile_jobs_clear(dgpb_compile_job *jobs, size_t count);

/* ---- the compile service, as the compiler used it (dgpb/service.h) ---- */

/* Where a compiler's service stands. */
typedef enum dgpb_service_state {
    DGPB_SERVICE_OFF = 0, /* not asked for (no desc.service), or compiles run as processes */
    DGPB_SERVICE_NOT_RUNNING = 1, /* none answers on its socket (yet) */
    DGPB_SERVICE_RUNNING = 2,     /* one answers: pid, workers, started */
    DGPB_SERVICE_USED = 3,        /* the compiler's batches ran on it: pid, workers, started */
    DGPB_SERVICE_LOCAL = 4,       /* it could not be used, or failed: why; batches ran here */
} dgpb_service_state;

#define DGPB_SERVICE_PATH_MAX 4096

typedef struct dgpb_service_info {
    dgpb_service_state state;
    int pid;                            /* the service's process (RUNNING, USED), else 0 */
    unsigned workers;                   /* how many workers it keeps at most */
    unsigned started;                   /* how many it had started when last asked */
    char socket[DGPB_SERVICE_PATH_MAX]; /* its socket ("" when no folder could be named) */
    char why[DGPB_DIAG_MESSAGE_MAX];    /* OFF and LOCAL: why ("" when not known) */
} dgpb_service_info;

/*
 * What the compiler's batches so far did: USED (the last one ran on the
 * service), LOCAL (the service could not be used or failed: why), OFF (no
 * desc.service, or processes), or NOT_RUNNING when no batch has asked it yet.
 */
void dgpb_compiler_service_report(const dgpb_compiler *c, dgpb_service_info *info);

/*
 * Asks the compiler's service how it stands, connecting to it but never
 * starting it (dgpb-build --version): RUNNING, NOT_RUNNING or OFF (why).
 */
void dgpb_compiler_service_query(dgpb_compiler *c, dgpb_service_info *info);

#ifdef __cplusplus
}
#endif

#endif
