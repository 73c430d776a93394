/*
 * slang_library.c - loading a native libslang and keeping its global
 * session (slang_library.h, dgpb/layout.h).
 *
 * Every function is looked up through the table of src/layout/slang_api.h, so no
 * Slang header or library is needed to build. The global session is made as
 * slangc's main makes its own (source/slangc/main.cpp in Slang): GLSL
 * enabled, and, when slangc finds Slang's C++ and CUDA preludes in an
 * include/ or prelude/ folder at or above its own folder, those preludes set
 * as `#include "<path>"` lines; each compile request then searches slangc's
 * folder. The preludes are set through the IGlobalSession interface's
 * function table (Slang has no C function for them), only after that table
 * answered the build tag as the C API does.
 */
#define _GNU_SOURCE /* PATH_MAX, realpath */
#include "compiler/slang_library.h"

#include <assert.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "compiler/slang_lookup.h"
#include "core/fileio_internal.h"

/* ---- loading ---- */
int slang_api_load(void *handle, const char *path, dgpb_slang_api *api, dgpb_diag *diag)
{
    memset(api, 0, sizeof *api);
#define DGPB_SLANG_LOOKUP(ret, name, params)                                                       \
    {                                                                                              \
        void *sym = dlsym(handle, #name);                                                          \
        if (!sym)                                                                                  \
            return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,                                   \
                                 "'%s' lacks the Slang function '%s' (not a native libslang, or "  \
                                 "an incompatible version)",                                       \
                                 path, #name);                                                     \
        memcpy(&api->name, &sym, sizeof sym);                                                      \
    }
    DGPB_SLANG_FUNCTIONS(DGPB_SLANG_LOOKUP)
#undef DGPB_SLANG_LOOKUP
#define DGPB_SLANG_LOOKUP_OPTIONAL(ret, name, params)                                              \
    {                                                                                              \
        void *sym = dlsym(handle, #name);                                                          \
        memcpy(&api->name, &sym, sizeof sym);                                                      \
    }
    DGPB_SLANG_OPTIONAL_FUNCTIONS(DGPB_SLANG_LOOKUP_OPTIONAL)
#undef DGPB_SLANG_LOOKUP_OPTIONAL
    if (!api->spSetCommandLineCompilerMode) {
        /* Slang declares it in an internal header without C linkage: its C++ name. */
        void *sym = dlsym(handle, DGPB_SLANG_SET_COMMAND_LINE_MODE_CXX);
        memcpy(&api->spSetCommandLineCompilerMode, &sym, sizeof sym);
    }
    return DGPB_OK;
}

/* Reads "[v]YEAR.RELEASE..." from a build tag. */
static bool parse_version(const char *tag, unsigned long *year, unsigned long *release)
{
    const char *p = tag;
    if (*p == 'v' || *p == 'V')
        p++;
    char *end;
    if (*p < '0' || *p > '9')
        return false;
    *year = strtoul(p, &end, 10);
    if (*end != '.' || end[1] < '0' || end[1] > '9')
        return false;
    *release = strtoul(end + 1, &end, 10);
    return true;
}

static int try_open(const char *path, const char *slangc, dgpb_slang **out, dgpb_diag *diag)
{
    dlerror();
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1, "cannot load '%s': %s", path,
                             e ? e : "unknown reason");
    }
    dgpb_slang *s = mem_calloc(1, sizeof *s);
    if (!s) {
        dlclose(h);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    s->handle = h;
    int rc = slang_api_load(h, path, &s->api, diag);
    if (rc)
        goto fail;
    const char *tag = s->api.spGetBuildTagString();
    unsigned long year = 0, release = 0;
    if (!tag || !parse_version(tag, &year, &release)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                           "cannot read the version of '%s' (build tag '%s'); the recorder needs "
                           "Slang %u.%u or later",
                           path, tag ? tag : "(null)", DGPB_SLANG_MIN_YEAR, DGPB_SLANG_MIN_RELEASE);
        goto fail;
    }
    if (year < DGPB_SLANG_MIN_YEAR ||
        (year == DGPB_SLANG_MIN_YEAR && release < DGPB_SLANG_MIN_RELEASE)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                           "'%s' is Slang %s; the recorder needs %u.%u or later", path, tag,
                           DGPB_SLANG_MIN_YEAR, DGPB_SLANG_MIN_RELEASE);
        goto fail;
    }
    s->path = mem_strdup(path);
    s->version = mem_strdup(tag);
    if (!s->path || !s->version || (slangc && !(s->slangc = mem_strdup(slangc)))) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto fail;
    }
    if (slangc) {
        char real[PATH_MAX];
        if (realpath(slangc, real)) {
            char *slash = strrchr(real, '/');
            if (slash && slash != real)
                *slash = 0;
            else if (slash)
                slash[1] = 0;
            if (!(s->exe_dir = mem_strdup(real))) {
                rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
                goto fail;
            }
        }
    }
    *out = s;
    return DGPB_OK;
fail:
    dgpb_slang_close(s);
    return rc;
}

int dgpb_slang_open(const dgpb_slang_desc *desc, dgpb_slang **out, dgpb_diag *diag)
{
    static const dgpb_slang_desc none = {0};
    const dgpb_slang_desc *d = desc ? desc : &none;
    assert(out);
    *out = NULL;
    slang_env env = {d->get_env, d->get_env_user};
    char found[PATH_MAX];
    const char *path = NULL;
    bool from_loader = false;
    int rc = slang_find_libslang(d->library, d->slangc, &env, found, &path, &from_loader, diag);
    if (rc)
        return rc;
    rc = try_open(path, d->slangc, out, diag);
    if (from_loader && rc == DGPB_ERR_UNSUPPORTED && diag)
        dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                      "no native libslang found (no --slang-lib, $DGPB_SLANGC, $SLANG_ROOT or "
                      "slangc on PATH, and the dynamic loader has no 'libslang.so'); the layout "
                      "recorder needs Slang's native library (the WebAssembly build has no "
                      "reflection C API)");
    return rc;
}

void dgpb_slang_close(dgpb_slang *s)
{
    if (!s)
        return;
    if (s->session)
        s->api.spDestroySession(s->session);
    if (s->handle)
        dlclose(s->handle);
    if (s->nvrtc_builtins)
        dlclose(s->nvrtc_builtins);
    dgpb_free(s->slangc);
    dgpb_free(s->exe_dir);
    dgpb_free(s->path);
    dgpb_free(s->version);
    dgpb_free(s);
}

const char *dgpb_slang_library_path(const dgpb_slang *s)
{
    return s->path;
}

const char *dgpb_slang_version_string(const dgpb_slang *s)
{
    return s->version;
}

/* ---- the global session ---- */

/*
 * Slang's root as slangc finds it: the first folder at or above `exe_dir`
 * with include/slang-cpp-prelude.h or prelude/slang-cpp-prelude.h.
 */
static bool find_root(const char *exe_dir, char *root, size_t n)
{
    char probe[PATH_MAX + 64];
    if (snprintf(root, n, "%s", exe_dir) >= (int)n)
        return false;
    for (;;) {
        snprintf(probe, sizeof probe, "%s/include/slang-cpp-prelude.h", root);
        if (fileio_readable(probe))
            return true;
        snprintf(probe, sizeof probe, "%s/prelude/slang-cpp-prelude.h", root);
        if (fileio_readable(probe))
            return true;
        char *slash = strrchr(root, '/');
        if (!slash || (slash == root && !root[1]))
            return false;
        if (slash == root)
            slash[1] = 0; /* "/usr" -> "/" */
        else
            *slash = 0;
    }
}

typedef const char *(*get_build_tag_fn)(void *self);
typedef void (*set_language_prelude_fn)(void *self, int language, const char *text);

/* The prelude line slangc would set for `file`, or NULL when slangc would set none. */
static char *prelude_line(const char *root, const char *file)
{
    static const char *const folders[] = {"include", "prelude"};
    for (size_t i = 0; i < 2; i++) {
        char path[PATH_MAX + 64], real[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s/%s", strcmp(root, "/") ? root : "", folders[i], file);
        if (realpath(path, real) && fileio_readable(real))
            return mem_printf("#include \"%s\"\n\n", real);
    }
    return NULL;
}

/*
 * Slot `slot` of the global session's IGlobalSession function table, or NULL
 * unless the table answers the build tag as the C API does (then it is laid
 * out as this code knows: slang_api.h).
 */
static void *session_slot(dgpb_slang *s, int slot)
{
    void **vtable = *(void ***)s->session;
    get_build_tag_fn get_tag;
    memcpy(&get_tag, &vtable[DGPB_SLANG_GLOBAL_SESSION_SLOT_GET_BUILD_TAG], sizeof get_tag);
    const char *tag = get_tag ? get_tag(s->session) : NULL;
    return tag && !strcmp(tag, s->version) ? vtable[slot] : NULL;
}

/* Sets the preludes slangc would set, when its folder has them and the interface checks out. */
static void set_preludes(dgpb_slang *s)
{
    char root[PATH_MAX];
    if (!s->exe_dir || !find_root(s->exe_dir, root, sizeof root))
        return;
    set_language_prelude_fn set_prelude;
    void *slot = session_slot(s, DGPB_SLANG_GLOBAL_SESSION_SLOT_SET_LANGUAGE_PRELUDE);
    if (!slot)
        return; /* not the interface this code knows: keep Slang's own preludes */
    memcpy(&set_prelude, &slot, sizeof set_prelude);
    static const struct {
        int language;
        const char *file;
    } preludes[] = {{DGPB_SLANG_SOURCE_LANGUAGE_CPP, "slang-cpp-prelude.h"},
                    {DGPB_SLANG_SOURCE_LANGUAGE_CUDA, "slang-cuda-prelude.h"}};
    for (size_t i = 0; i < 2; i++) {
        char *line = prelude_line(root, preludes[i].file);
        if (line)
            set_prelude(s->session, preludes[i].language, line);
        dgpb_free(line);
    }
}

typedef int32_t (*set_downstream_path_fn)(void *self, int pass_through, const char *path);

/*
 * Points Slang at NVRTC, which writes its PTX, when $CUDA_PATH holds one
 * (lib64/ or lib/ libnvrtc.so.N): Slang itself looks only where the dynamic
 * loader does, and a CUDA toolkit (or the set-up's deps/cuda, which
 * dgpb-build names in $CUDA_PATH) is seldom there. NVRTC loads its builtins
 * library by name, so the one beside it is loaded first (a library already
 * loaded is found by its name).
 */
static void set_nvrtc(dgpb_slang *s)
{
    const char *cuda = getenv("CUDA_PATH");
    if (!cuda || !*cuda || strlen(cuda) > PATH_MAX - 64)
        return;
    set_downstream_path_fn set_path;
    void *slot = session_slot(s, DGPB_SLANG_GLOBAL_SESSION_SLOT_SET_DOWNSTREAM_COMPILER_PATH);
    if (!slot)
        return; /* not the interface this code knows */
    memcpy(&set_path, &slot, sizeof set_path);
    static const char *const dirs[] = {"lib64", "lib"};
    for (size_t i = 0; i < 2; i++) {
        char pattern[PATH_MAX + 64], nvrtc[PATH_MAX], builtins[PATH_MAX];
        snprintf(pattern, sizeof pattern, "%s/%s/libnvrtc.so.[0-9]*", cuda, dirs[i]);
        if (!slang_first_file(pattern, nvrtc))
            continue;
        snprintf(pattern, sizeof pattern, "%s/%s/libnvrtc-builtins.so.[0-9]*", cuda, dirs[i]);
        if (slang_first_file(pattern, builtins) && !s->nvrtc_builtins)
            s->nvrtc_builtins = dlopen(builtins, RTLD_NOW | RTLD_GLOBAL);
        set_path(s->session, DGPB_SLANG_PASS_THROUGH_NVRTC, nvrtc);
        return;
    }
}

int slang_library_session(dgpb_slang *s, SlangSession **out, dgpb_diag *diag)
{
    assert(s && out);
    if (!s->session) {
        const dgpb_slang_api *a = &s->api;
        if (a->slang_createGlobalSession2) {
            dgpb_slang_global_session_desc desc = {
                .structure_size = sizeof desc,
                .min_language_version = DGPB_SLANG_LANGUAGE_VERSION_2025,
                .enable_glsl = true,
            };
            SlangSession *session = NULL;
            if (!DGPB_SLANG_FAILED(a->slang_createGlobalSession2(&desc, &session)))
                s->session = session;
        } else {
            s->session = a->spCreateSession(NULL);
        }
        if (!s->session)
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                                 "Slang could not create a global session ('%s')", s->path);
        set_preludes(s);
        set_nvrtc(s);
    }
    *out = s->session;
    return DGPB_OK;
}
