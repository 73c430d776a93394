/*
 * recorder/recording.h - running the layout recorder for one pipeline group.
 *
 * dgpb-build records each native target's layouts by running
 * dgpb-slang-layout (docs/layout.md) once per pipeline group and target,
 * with the group's entries in declaration order:
 *
 *     dgpb_layout_entry entries[] = {{"vmain", "vertex"}, {"fmain", "fragment"}};
 *     const char *extra[] = {"-DDREAM_SHADERS_RENDER", "-DDREAM_TARGET_SPIRV",
 *                            "-matrix-layout-row-major"};
 *     recording_desc d = {.recorder = opt_layout_recorder, .module = "/abs/m.slang",
 *                               .target = "spirv", .entries = entries, .entry_count = 2,
 *                               .extra_args = extra, .extra_arg_count = 3,
 *                               .output = "/tmp/dgpb-XXXX/spirv-render.layout",
 *                               .slangc = dgpb_compiler_path(compiler)};
 *     uint8_t *blob; size_t size;
 *     if (recording_run(&d, &blob, &size, &diag)) ...   (diag says why)
 *     ... dgpb_model_target_add_layout(..., blob, size) ...; dgpb_free(blob);
 *
 * The command is:
 *
 *     RECORDER [--slang-lib L] [--slangc S] [--expect-slang-version V] MODULE
 *              [-D<define>...] [-I <dir>...] [extra...] -target T
 *              -entry E1 -stage S1 [-entry E2 -stage S2 ...] -o OUTPUT
 *
 * Results: DGPB_OK and the blob, already validated by dgpb_layout_open()
 * (release it with dgpb_free()); otherwise `diag` holds the recorder's own
 * message (its standard error, trimmed) and the code tells the cause, from
 * the recorder's exit status (dgpb_recorder_exit below):
 *   DGPB_ERR_SHADER       exit 1: the module has errors in this group, or the
 *                         program has specialization parameters
 *   DGPB_ERR_UNSUPPORTED  exit 4: no usable native libslang (e.g. only the
 *                         embedded WebAssembly compiler is installed, or not
 *                         the expected Slang version); a build may warn and
 *                         write the bundle without layouts
 *   DGPB_ERR_TOOL         the recorder could not be run, exited 2 (a usage
 *                         error: a bug in the caller), 3 (it could not read
 *                         or write a file, or another tool failure) or with
 *                         anything else, or was killed
 *   DGPB_ERR_CORRUPT_*    the blob it wrote does not validate
 *   DGPB_ERR_IO, DGPB_ERR_INVALID, DGPB_ERR_NOMEM
 * The output file is left where it is (it lives in the caller's temporary
 * folder).
 */
#ifndef DGPB_RECORDING_H
#define DGPB_RECORDING_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define recording_args_free dgpb__recording_args_free
#define recording_args_make dgpb__recording_args_make
#define recording_collect dgpb__recording_collect
#define recording_take_blob dgpb__recording_take_blob
#define recording_run dgpb__recording_run
#define recorder_exit_of dgpb__recorder_exit_of

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The recorder's exit statuses: what tools/dgpb-slang-layout/main.c returns
 * and what recording_run() maps to result codes (above); the rows of
 * dgpb/vocabulary.def's DGPB_EXIT_SLANG_LAYOUT.
 */
typedef enum dgpb_recorder_exit {
#define DGPB_EXIT_SLANG_LAYOUT(code, NAME, meaning) DGPB_RECORDER_EXIT_##NAME = code,
#include "dgpb/vocabulary.def"
} dgpb_recorder_exit;

/* The recorder's exit status for a result code: what dgpb-slang-layout returns for it. */
dgpb_recorder_exit recorder_exit_of(int code);

typedef struct dgpb_layout_entry {
    const char *name;  /* the entry's function name */
    const char *stage; /* slangc's stage name: compute, vertex, fragment, raygeneration, ... */
} dgpb_layout_entry;

/* Everything is borrowed for the duration of the call. Zero/NULL fields are left out. */
typedef struct recording_desc {
    const char *recorder;             /* dgpb-slang-layout (required) */
    const char *module;               /* the module file (required) */
    const char *target;               /* Slang's -target name (required) */
    const dgpb_layout_entry *entries; /* the group, in declaration order (at least one) */
    size_t entry_count;
    const char *const *defines; /* "NAME" or "NAME=VALUE", passed as -DNAME[=VALUE] */
    size_t define_count;
    const char *const *include_dirs; /* passed as -I DIR */
    size_t include_dir_count;
    const char *const *extra_args; /* passed as they are, before -target */
    size_t extra_arg_count;
    const char *output;               /* where the recorder writes the blob (required) */
    const char *slang_lib;            /* --slang-lib */
    const char *slangc;               /* --slangc: use the libslang next to this compiler */
    const char *expect_slang_version; /* --expect-slang-version */
    const char *cwd;                  /* the recorder's working folder; NULL: the caller's */
} recording_desc;

int recording_run(const recording_desc *desc, uint8_t **blob, size_t *size, dgpb_diag *diag);

/*
 * The same run in two halves, for callers that run many recorders at once
 * (dgpb_compiler_run() with layout jobs, on native workers or as processes):
 * recording_args_make() spells the command above, from the module on
 * (with_recorder: from RECORDER on); recording_collect() turns the
 * recorder's exit status and message into recording_run()'s result.
 */
typedef struct recording_args {
    const char **argv; /* NULL-terminated */
    size_t count;      /* arguments before the NULL */
    char **owned;      /* strings argv points at that the struct owns */
    size_t owned_count;
} recording_args;

int recording_args_make(const recording_desc *desc, bool with_recorder, recording_args *out,
                        dgpb_diag *diag);
void recording_args_free(recording_args *args);
int recording_collect(const recording_desc *desc, int status, const char *message, uint8_t **blob,
                      size_t *size, dgpb_diag *diag);
/* recording_collect()'s second half for a blob the caller holds (`bytes`, len bytes, taken:
   freed on failure): checked to be a layout, then *blob. */
int recording_take_blob(const recording_desc *desc, uint8_t *bytes, size_t len, uint8_t **blob,
                        size_t *size, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
