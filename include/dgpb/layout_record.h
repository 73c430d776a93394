/*
 * dgpb/layout_record.h - recording pipeline layouts through a native libslang.
 *
 * The producer's half of dgpb/layout.h (library dgpb, not dgpb_reader): the
 * layout recorder dgpb-slang-layout loads libslang at run time, compiles
 * one pipeline group the way slangc would and records every answer of
 * Slang's reflection API into a layout blob that dgpb/layout.h replays
 * (docs/layout.md).
 */
#ifndef DGPB_LAYOUT_RECORD_H
#define DGPB_LAYOUT_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "dgpb/layout.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dgpb_slang dgpb_slang;

/* Reads an environment variable (NULL when unset). */
typedef const char *(*dgpb_slang_getenv_fn)(const char *name, void *user);

/*
 * Where libslang is looked for, in this order (docs/layout.md, "Finding libslang"):
 *   1. `library` (--slang-lib PATH): that file, or an error;
 *   2. next to `slangc` (the compiler in use, e.g. dgpb-build's): its folder and ../lib;
 *   3. $DGPB_SLANGC: next to it, as 2;
 *   4. $SLANG_ROOT/lib;
 *   5. slangc on $PATH: its folder and ../lib;
 *   6. "libslang.so" through the dynamic loader's own search.
 * The first rule that applies decides: a slangc named by 2-5 without a libslang next to it is an
 * error (a libslang from elsewhere would be another Slang than the one compiling the code).
 */
typedef struct dgpb_slang_desc {
    const char *library;          /* rule 1; NULL: not given */
    const char *slangc;           /* rule 2; NULL: not given */
    dgpb_slang_getenv_fn get_env; /* DGPB_SLANGC, SLANG_ROOT, PATH; NULL: getenv() */
    void *get_env_user;
} dgpb_slang_desc;

/* The oldest Slang whose C ABI has every function in src/layout/slang_api.h (v2024.1 and later). */
#define DGPB_SLANG_MIN_YEAR 2024u
#define DGPB_SLANG_MIN_RELEASE 1u

/*
 * Finds and loads libslang, looks up every function the recorder calls and
 * checks its version (spGetBuildTagString(): "[v]YEAR.RELEASE[...]", at least
 * DGPB_SLANG_MIN_YEAR.DGPB_SLANG_MIN_RELEASE). DGPB_ERR_UNSUPPORTED when no
 * library is found, it cannot be loaded, lacks a function or is too old (the
 * message names the path and the reason; the WebAssembly build of Slang has
 * no C reflection API, so it never qualifies); DGPB_ERR_NOMEM. *out is NULL
 * on error. `desc` may be NULL.
 */
int dgpb_slang_open(const dgpb_slang_desc *desc, dgpb_slang **out, dgpb_diag *diag);

/* Unloads the library. NULL is a no-op. */
void dgpb_slang_close(dgpb_slang *s);

/* The library's path as loaded, and Slang's build tag. Owned by `s`. */
const char *dgpb_slang_library_path(const dgpb_slang *s);
const char *dgpb_slang_version_string(const dgpb_slang *s);

/*
 * Compiles a module the way slangc would and records its layout:
 * `args` are slangc's arguments (module, -D, -I, -target, -entry/-stage ...,
 * -reflection-json FILE), without the layout's own -o, handed as they are to
 * Slang's command-line processing of one compile request; the entries are
 * composed in the order given and linked into one program for the one
 * target. Code generation is skipped. On success *out holds the blob
 * (dgpb_free() it). Options stored in the header: every argument except
 * the module file, search folders (-I) and output files (-o,
 * -reflection-json), in the order given.
 *
 * DGPB_ERR_SHADER with Slang's diagnostics when the module does not compile,
 * or when the program has specialization parameters; DGPB_ERR_INVALID for
 * unusable arguments (no target, several targets); DGPB_ERR_LIMIT,
 * DGPB_ERR_NOMEM.
 */
int dgpb_layout_record(dgpb_slang *s, const char *const *args, size_t arg_count, uint8_t **out,
                       size_t *size, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
