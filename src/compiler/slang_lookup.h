/*
 * slang_lookup.h - finding Slang: its compiler (slangc) and its native
 * library (libslang), both through the one order of rules (internal).
 *
 * The compiler (dgpb/compiler.h, docs/design.md, section 2):
 *   1. a path the caller was given (--slangc)   2. $DGPB_SLANGC
 *   3. $SLANG_ROOT/bin/slangc                   4. slangc on $PATH
 *   5. the embedded tools/slangc-wasm (a list of candidate paths)
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
#define slang_find_slangc dgpb__slang_find_slangc
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

/*
 * Finds the compiler by rules 1-5: `given` (NULL: not given), `embedded`
 * (NULL-terminated candidates; NULL: none). On success *path is its
 * absolute path (release with dgpb_free()) and *source the rule. A compiler
 * named by rules 1-3 that is missing or not executable, an embedded one
 * that is not installed, or none at all: DGPB_ERR_TOOL naming the path and
 * the rule and saying what to do. DGPB_ERR_NOMEM.
 */
int slang_find_slangc(const char *given, const char *const *embedded, const slang_env *env,
                      char **path, dgpb_compiler_source *source, dgpb_diag *diag);

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
