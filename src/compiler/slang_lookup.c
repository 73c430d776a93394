/*
 * slang_lookup.c - finding Slang's compiler and its native library
 * (slang_lookup.h). Only the file system and three environment variables
 * (DGPB_SLANGC, SLANG_ROOT, PATH) are looked at; nothing is run or loaded.
 */
#define _GNU_SOURCE /* realpath, PATH_MAX */
#include "compiler/slang_lookup.h"

#include <assert.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/fileio_internal.h"
#include "io/process.h"

static const char setup_hint[] = "run 'tools/setup.sh' (or 'npm ci --prefix tools/slangc-wasm')";

/* ---- the environment and the shared rules ---- */

const char *slang_env_raw(const slang_env *env, const char *name)
{
    assert(env && name);
    return env->get_env ? env->get_env(name, env->user) : getenv(name);
}

const char *slang_env_value(const slang_env *env, const char *name)
{
    const char *v = slang_env_raw(env, name);
    return v && *v ? v : NULL;
}

slang_rule slang_named_rule(const char *given, const slang_env *env, const char **value)
{
    assert(env && value);
    if ((*value = given) != NULL)
        return SLANG_RULE_GIVEN;
    if ((*value = slang_env_value(env, "DGPB_SLANGC")) != NULL)
        return SLANG_RULE_DGPB_SLANGC;
    if ((*value = slang_env_value(env, "SLANG_ROOT")) != NULL)
        return SLANG_RULE_SLANG_ROOT;
    return SLANG_RULE_NONE;
}

/* ---- the compiler ---- */

/*
 * Checks a compiler the user named (rules 1-3): an executable regular file,
 * or for a bare name, one found on PATH. *out: its absolute path.
 */
static int check_named(const char *path, const char *why, const char *path_var, char **out,
                       dgpb_diag *diag)
{
    *out = NULL;
    if (!strchr(path, '/')) {
        char *found = process_which(path, path_var);
        if (!found)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "cannot use the Slang compiler '%s' (from %s): not found on PATH",
                                 path, why);
        *out = fileio_absolute(found);
        dgpb_free(found);
    } else {
        struct stat st;
        if (stat(path, &st) != 0)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "cannot use the Slang compiler '%s' (from %s): %s", path, why,
                                 strerror(errno));
        if (!S_ISREG(st.st_mode))
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "cannot use the Slang compiler '%s' (from %s): not a file", path,
                                 why);
        if (access(path, X_OK) != 0)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "cannot use the Slang compiler '%s' (from %s): not executable",
                                 path, why);
        *out = fileio_absolute(path);
    }
    return *out ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
}

/*
 * Rule 5: the first candidate that exists. One that exists but is not
 * executable, or whose node_modules folder is missing (npm ci was not run),
 * is an error saying how to install it. *out stays NULL when none exists.
 */
static int find_embedded(const char *const *candidates, char **out, dgpb_diag *diag)
{
    *out = NULL;
    for (size_t i = 0; candidates && candidates[i]; i++) {
        const char *c = candidates[i];
        struct stat st;
        if (stat(c, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (access(c, X_OK) != 0)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "the embedded Slang compiler '%s' is not executable: %s", c,
                                 setup_hint);
        const char *slash = strrchr(c, '/');
        int dir_len = slash ? (int)(slash - c) : 1;
        char *modules = mem_printf("%.*s/node_modules", dir_len, slash ? c : ".");
        if (!modules)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        bool installed = stat(modules, &st) == 0 && S_ISDIR(st.st_mode);
        dgpb_free(modules);
        if (!installed)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "the embedded Slang compiler '%s' is not installed: %s", c,
                                 setup_hint);
        *out = fileio_absolute(c);
        return *out ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    return DGPB_OK;
}

/* Whether `path` is the same file as one of the existing candidates (real paths compared). */
bool slang_is_embedded_path(const char *path, const char *const *candidates)
{
    char real[PATH_MAX], cand[PATH_MAX];
    if (!candidates || !realpath(path, real))
        return false;
    for (size_t i = 0; candidates[i]; i++)
        if (realpath(candidates[i], cand) && strcmp(real, cand) == 0)
            return true;
    return false;
}

/* ---- native libraries ---- */

bool slang_first_file(const char *pattern, char *found)
{
    glob_t g;
    bool ok = false;
    if (glob(pattern, 0, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc && !ok; i++)
            if (strlen(g.gl_pathv[i]) < PATH_MAX && fileio_readable(g.gl_pathv[i])) {
                snprintf(found, PATH_MAX, "%s", g.gl_pathv[i]);
                ok = true;
            }
    globfree(&g);
    return ok;
}

bool slang_library_in(const char *dir, char *found)
{
    size_t len = strlen(dir);
    if (len > PATH_MAX - 32)
        return false;
    char probe[PATH_MAX];
    memcpy(probe, dir, len);
    memcpy(probe + len, "/libslang.so", sizeof "/libslang.so");
    if (fileio_readable(probe)) {
        memcpy(found, probe, len + sizeof "/libslang.so");
        return true;
    }
    /* Slang 2026 names its library libslang-compiler.so (with a version suffix in wheels). */
    memcpy(probe + len, "/libslang-compiler.so*", sizeof "/libslang-compiler.so*");
    return slang_first_file(probe, found);
}

/* A folder's name without trailing slashes ("/" stays "/"), in `out` (PATH_MAX). */
static void trimmed(const char *dir, char *out)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    snprintf(out, PATH_MAX, "%.*s", (int)n, dir);
}

/*
 * A Slang root ($SLANG_ROOT, $VULKAN_SDK): bin/slangc when it is an
 * executable file, else the library in lib/. Returns true with *path
 * (absolute) and *library set; false when the root has neither.
 */
static bool in_root(const char *root, char **path, bool *library)
{
    char dir[PATH_MAX], probe[PATH_MAX + 16], found[PATH_MAX];
    trimmed(root, dir);
    snprintf(probe, sizeof probe, "%s/bin/slangc", dir);
    struct stat st;
    if (stat(probe, &st) == 0 && S_ISREG(st.st_mode) && access(probe, X_OK) == 0) {
        *path = fileio_absolute(probe);
        *library = false;
        return true;
    }
    snprintf(probe, sizeof probe, "%s/lib", dir);
    if (slang_library_in(probe, found)) {
        *path = fileio_absolute(found);
        *library = true;
        return true;
    }
    return false;
}

/* Checks a library the user named (--slang-lib): a readable regular file. */
static int check_library(const char *path, char **out, dgpb_diag *diag)
{
    struct stat st;
    *out = NULL;
    if (stat(path, &st) != 0)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                             "cannot use the Slang library '%s' (from --slang-lib): %s", path,
                             strerror(errno));
    if (!S_ISREG(st.st_mode) || !fileio_readable(path))
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                             "cannot use the Slang library '%s' (from --slang-lib): not a "
                             "readable file",
                             path);
    *out = fileio_absolute(path);
    return *out ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
}

/* The first of the candidate native libraries (the set-up's, an installation's) that exists. */
static char *find_candidate_library(const char *const *candidates)
{
    char found[PATH_MAX];
    for (size_t i = 0; candidates && candidates[i]; i++)
        if (slang_library_in(candidates[i], found))
            return fileio_absolute(found);
    return NULL;
}

static const char native_hint[] =
    "run 'tools/setup.sh' (it installs a native Slang into deps/slang, and the embedded "
    "compiler: npm ci --prefix tools/slangc-wasm), or name one with --slangc, --slang-lib, "
    "$DGPB_SLANGC, $SLANG_ROOT or $VULKAN_SDK";

int slang_find_compiler(const slang_query *q, const slang_env *env, char **path,
                        dgpb_compiler_source *source, bool *library, dgpb_diag *diag)
{
    static const char *const rule_names[] = {"", "--slangc", "$DGPB_SLANGC", "$SLANG_ROOT"};
    assert(q && env && path && source && library);
    *path = NULL;
    *source = 0;
    *library = false;
    const char *path_var = slang_env_value(env, "PATH");
    int rc = DGPB_OK;
    if (q->force == SLANG_FORCE_EMBEDDED)
        goto embedded;
    if (!q->slangc && q->slang_lib) { /* rule 1: a library alone is the compiler */
        *source = DGPB_COMPILER_FROM_SLANG_LIB;
        *library = true;
        return check_library(q->slang_lib, path, diag);
    }
    const char *named = NULL;
    switch (slang_named_rule(q->slangc, env, &named)) {
    case SLANG_RULE_GIVEN:
        *source = DGPB_COMPILER_FROM_OPTION;
        return check_named(named, rule_names[*source], path_var, path, diag);
    case SLANG_RULE_DGPB_SLANGC:
        *source = DGPB_COMPILER_FROM_ENV;
        return check_named(named, rule_names[*source], path_var, path, diag);
    case SLANG_RULE_SLANG_ROOT:
        *source = DGPB_COMPILER_FROM_SLANG_ROOT;
        if (in_root(named, path, library))
            return *path ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                             "cannot use the Slang of $SLANG_ROOT: it has neither '%s/bin/slangc' "
                             "nor a libslang in '%s/lib'",
                             named, named);
    case SLANG_RULE_NONE:
        break;
    }
    /* $VULKAN_SDK is often set for other reasons: an SDK without Slang is passed over. */
    const char *sdk = slang_env_value(env, "VULKAN_SDK");
    if (sdk && in_root(sdk, path, library)) {
        *source = DGPB_COMPILER_FROM_VULKAN_SDK;
        return *path ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    if (path_var && (*path = process_which("slangc", path_var))) {
        char *abs = fileio_absolute(*path);
        dgpb_free(*path);
        *source = DGPB_COMPILER_FROM_PATH;
        return (*path = abs) ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    if ((*path = find_candidate_library(q->native)) != NULL) {
        *source = DGPB_COMPILER_FROM_SETUP;
        *library = true;
        return DGPB_OK;
    }
    if (q->force == SLANG_FORCE_NATIVE)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "--compiler native: no native Slang found: %s",
                             native_hint);
embedded:
    *source = DGPB_COMPILER_FROM_EMBEDDED;
    rc = find_embedded(q->embedded, path, diag);
    if (!rc && !*path)
        rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                           q->force == SLANG_FORCE_EMBEDDED
                               ? "--compiler embedded: the embedded compiler is not installed: %s"
                               : "no Slang compiler found: %s",
                           q->force == SLANG_FORCE_EMBEDDED ? setup_hint : native_hint);
    if (rc) {
        dgpb_free(*path);
        *path = NULL;
    }
    return rc;
}

/* ---- the library ---- */

/* Looks for libslang next to a slangc: its folder and ../lib, for the path as given and as
 * resolved through symbolic links (libslang.so, else libslang-compiler.so*). Fills `found`
 * (PATH_MAX) and returns true when one exists. */
static bool next_to(const char *slangc, char *found, char *tried, size_t tried_size)
{
    char real[PATH_MAX];
    const char *forms[2] = {slangc, realpath(slangc, real) ? real : NULL};
    for (int f = 0; f < 2; f++) {
        if (!forms[f])
            continue;
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", forms[f]);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(dir, sizeof dir, ".");
        static const char *const rel[] = {"", "/../lib"};
        for (int r = 0; r < 2; r++) {
            char folder[PATH_MAX + 16];
            snprintf(folder, sizeof folder, "%s%s", dir, rel[r]);
            size_t used = strlen(tried);
            if (used + strlen(folder) + 24 < tried_size) /* the list of tried paths may be cut */
                snprintf(tried + used, tried_size - used, "%s'%.*s/libslang*.so'", used ? ", " : "",
                         (int)(tried_size - used - 24), folder);
            if (slang_library_in(folder, found))
                return true;
        }
    }
    return false;
}

int slang_find_libslang(const char *library, const char *slangc, const slang_env *env, char *found,
                        const char **path, bool *from_loader, dgpb_diag *diag)
{
    assert(env && found && path && from_loader);
    *path = NULL;
    *from_loader = false;
    if (library) {
        *path = library;
        return DGPB_OK;
    }
    char tried[2048] = "";
    const char *rule = NULL, *named = NULL;
    char *which = NULL;
    switch (slang_named_rule(slangc, env, &named)) {
    case SLANG_RULE_GIVEN:
        rule = "the slangc in use";
        break;
    case SLANG_RULE_DGPB_SLANGC:
        rule = "$DGPB_SLANGC";
        break;
    case SLANG_RULE_SLANG_ROOT:
        char root_lib[PATH_MAX + 8];
        snprintf(root_lib, sizeof root_lib, "%s/lib", named);
        if (!slang_library_in(root_lib, found))
            return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                                 "no native libslang at '%s/libslang.so' (nor a "
                                 "libslang-compiler.so* there; $SLANG_ROOT/lib); the layout "
                                 "recorder needs Slang's native library (the WebAssembly build "
                                 "has no reflection C API)",
                                 root_lib);
        *path = found;
        return DGPB_OK;
    case SLANG_RULE_NONE:
        if ((which = process_which("slangc", slang_env_raw(env, "PATH"))) != NULL) {
            named = which;
            rule = "slangc on PATH";
        }
        break;
    }
    if (!named) {
        *path = "libslang.so";
        *from_loader = true;
        return DGPB_OK;
    }
    int rc = DGPB_OK;
    if (next_to(named, found, tried, sizeof tried))
        *path = found;
    else
        rc = dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                           "no native libslang next to '%s' (%s; tried %s); the layout "
                           "recorder needs Slang's native library (the WebAssembly "
                           "build has no reflection C API); name one with --slang-lib",
                           named, rule, tried);
    dgpb_free(which);
    return rc;
}
