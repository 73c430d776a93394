/*
 * slang_lookup.h - finding Slang: its compiler (slangc) and its native
 * library (libslang), both through the one order of rules (internal).
 *
 * The compiler (dgpb/compiler.h, docs/build.md, "Which compiler"):
 *   1. a slangc the caller was given (--slangc), else a library (--slang-lib)
 *   2. $DGPB_SLANGC
 *   3. $SLANG_ROOT: bin/slangc, else the libslang of lib/
 *   4. $VULKAN_SDK: likewise, passed over when it has neither
 *   5. slangc on $PATH
 *   6. the set-up's or the installation's native Slang (candidate lib folders)
 *   7. the embedded tools/slangc-wasm (a list of candidate paths)
 * A library found by rules 1, 3, 4 or 6 is the compiler itself: its compiles
 * run on the native workers, which need no slangc.
 * The library (dgpb/layout.h, docs/layout.md "Finding libslang"):
 *   1. a library the caller was given (--slang-lib)
 *   2. next to a slangc the caller was given (the compiler in use)
 *   3. next to $DGPB_SLANGC                     4. $SLANG_ROOT/lib
 *   5. next to slangc on $PATH                  6. "libslang.so" through the dynamic loader
 * "Next to" a slangc is its folder and ../lib, for the path as given and as
 * resolved through symbolic links. In both lookups the first rule that
 * applies decides, and slang_named_rule() says which of the shared ones
 * (given, $DGPB_SLANGC, $SLANG_ROOT) that is.
 */
#ifndef DGPB_SLANG_LOOKUP_H
#define DGPB_SLANG_LOOKUP_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define slang_env_raw dgpb__slang_env_raw
#define slang_env_value dgpb__slang_env_value
#define slang_find_libslang dgpb__slang_find_libslang
#define slang_find_compiler dgpb__slang_find_compiler
#define slang_library_in dgpb__slang_library_in
#define slang_first_file dgpb__slang_first_file
#define slang_is_embedded_path dgpb__slang_is_embedded_path
#define slang_named_rule dgpb__slang_named_rule

#include <stdbool.h>
#include <stddef.h>

#include "dgpb/compiler.h"
#include "dgpb/result.h"

/* How a lookup reads the environment: get_env(name, user), or getenv() when get_env is NULL. */
typedef struct slang_env {
    const char *(*get_env)(const char *name, void *user);
    void *user;
} slang_env;

/* A variable's value as it is: NULL when unset. */
const char *slang_env_raw(const slang_env *env, const char *name);

/* A variable's value, NULL when unset or empty. */
const char *slang_env_value(const slang_env *env, const char *name);

/* The rules both lookups share, in their order. */
typedef enum slang_rule {
    SLANG_RULE_NONE = 0,    /* none of these: slangc on $PATH comes next */
    SLANG_RULE_GIVEN,       /* the caller's slangc */
    SLANG_RULE_DGPB_SLANGC, /* $DGPB_SLANGC (set and not empty) */
    SLANG_RULE_SLANG_ROOT,  /* $SLANG_ROOT (set and not empty) */
} slang_rule;

/*
 * The first shared rule that applies: `given` when not NULL, else
 * $DGPB_SLANGC, else $SLANG_ROOT. *value: the slangc given, $DGPB_SLANGC's
 * value or $SLANG_ROOT's (NULL for SLANG_RULE_NONE).
 */
slang_rule slang_named_rule(const char *given, const slang_env *env, const char **value);

/* What the caller asks of the compiler lookup. */
typedef enum slang_force {
    SLANG_FORCE_ANY = 0,      /* the first rule that finds one */
    SLANG_FORCE_EMBEDDED = 1, /* rule 7 only (--compiler embedded) */
    SLANG_FORCE_NATIVE = 2,   /* rules 1-6; none is an error (--compiler native) */
} slang_force;

typedef struct slang_query {
    const char *slangc;           /* rule 1's slangc (NULL: not given) */
    const char *slang_lib;        /* rule 1's library (NULL: not given) */
    const char *const *native;    /* rule 6: NULL-terminated folders that may hold a libslang */
    const char *const *embedded;  /* rule 7: NULL-terminated candidates of slangc-wasm */
    slang_force force;
} slang_query;

/*
 * Finds the compiler by rules 1-7. On success *path is its absolute path
 * (release with dgpb_free()): a slangc, the embedded script, or, with
 * *library set, a native libslang; *source is the rule. A compiler named by
 * rules 1-3 that is missing or not usable, an embedded one that is not
 * installed, none at all, or no native one under SLANG_FORCE_NATIVE:
 * DGPB_ERR_TOOL naming the path and the rule and saying what to do.
 * DGPB_ERR_NOMEM.
 */
int slang_find_compiler(const slang_query *q, const slang_env *env, char **path,
                        dgpb_compiler_source *source, bool *library, dgpb_diag *diag);

/*
 * Whether folder `dir` holds a native libslang: libslang.so, else the first
 * libslang-compiler.so* (Slang 2026's name). Fills `found` (PATH_MAX bytes).
 */
bool slang_library_in(const char *dir, char *found);

/* The first readable file (glob(3)'s sorted order) `pattern` matches, in `found` (PATH_MAX). */
bool slang_first_file(const char *pattern, char *found);

/* Whether `path` is the same file as one of the existing candidates (real paths compared). */
bool slang_is_embedded_path(const char *path, const char *const *candidates);

/*
 * Finds libslang by rules 1-6: `library` (NULL: not given), next to
 * `slangc` (NULL: not given). On success *path is the library to load:
 * `library`, a path written into `found` (PATH_MAX bytes), or "libslang.so"
 * with *from_loader set (rule 6: the dynamic loader's search). A slangc (rules
 * 2, 3, 5) with no libslang next to it, or no library in $SLANG_ROOT/lib:
 * DGPB_ERR_UNSUPPORTED naming what was tried.
 */
int slang_find_libslang(const char *library, const char *slangc, const slang_env *env, char *found,
                        const char **path, bool *from_loader, dgpb_diag *diag);

#endif
