/*
 * compiler_choice.c - the compiler of an invocation, kept for the next one
 * (compiler_choice.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "compiler_choice.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dgpb/dgpb.h"
#include "service_cmd.h"

/* The installed share/dgpb, relative to the installed bin/ (cmake/dgpbInstall.cmake). */
#ifndef DGPB_DATA_FROM_BIN
#define DGPB_DATA_FROM_BIN "../share/dgpb"
#endif
/* The installed native Slang, relative to the installed bin/ (cmake/dgpbInstall.cmake). */
#ifndef DGPB_SLANG_FROM_BIN
#define DGPB_SLANG_FROM_BIN "../lib/dgpb/slang"
#endif

/* The folder of this program, for finding the embedded compiler next to it. */
static void exe_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0) {
        snprintf(buf, size, ".");
        return;
    }
    buf[n] = 0;
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
}

/*
 * The source tree a program of the build tree belongs to: CMake writes the
 * file `dgpb-source-dir` next to the programs it builds (and never installs
 * it) with the tree's path. False for an installed program.
 */
static bool source_tree(const char *dir, char *buf, size_t size)
{
    char marker[PATH_MAX + 32];
    snprintf(marker, sizeof marker, "%s/dgpb-source-dir", dir);
    FILE *f = fopen(marker, "r");
    if (!f)
        return false;
    bool got = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    buf[got ? strcspn(buf, "\r\n") : 0] = 0;
    return buf[0] != 0;
}

/* The installation's folder `rel` ("../share/dgpb"), relative to the real folder `dir` of bin/. */
static void in_prefix(const char *dir, const char *rel, const char *tail, char *buf, size_t size)
{
    /* `dir` is a real path: each leading "../" drops one of its folders. */
    size_t n = strlen(dir);
    while (dir[0] == '/' && !strncmp(rel, "../", 3) && n > 0) {
        while (n > 0 && dir[n - 1] != '/')
            n--;
        n -= n > 0;
        rel += 3;
    }
    snprintf(buf, size, "%.*s/%s%s", (int)n, dir, rel, tail);
}

/*
 * Where the embedded compiler and the native Slang are (docs/install.md,
 * "How the installed tools find each other"). A program in its build tree
 * runs its source tree's tools/slangc-wasm and the native Slang that
 * tools/setup.sh put into deps/slang/lib. Any other program, an installed
 * one, runs those of its own prefix, ../share/dgpb/slangc-wasm
 * (DGPB_DATA_FROM_BIN) and ../lib/dgpb/slang (DGPB_SLANG_FROM_BIN), and
 * never looks into a source tree.
 */
static void compiler_places(const char *dir, char *wasm, char *native, size_t size)
{
    char source[PATH_MAX];
    if (source_tree(dir, source, sizeof source)) {
        snprintf(wasm, size, "%s/tools/slangc-wasm/slangc-wasm", source);
        snprintf(native, size, "%s/deps/slang/lib", source);
        return;
    }
    in_prefix(dir, DGPB_DATA_FROM_BIN, "/slangc-wasm/slangc-wasm", wasm, size);
    in_prefix(dir, DGPB_SLANG_FROM_BIN, "", native, size);
}

/*
 * The CUDA compilers of the set-up (deps/cuda: nvcc and ptxas for the
 * embedded compiler's ptx, NVRTC for native Slang's) for a program of the
 * build tree, named in $CUDA_PATH when the user names none, so that both
 * compilers and the service's workers find them (docs/build.md, "PTX").
 */
static void setup_cuda(const char *dir)
{
    static bool done;
    const char *given = getenv("CUDA_PATH");
    if (done || (given && *given))
        return;
    done = true;
    char source[PATH_MAX], cuda[PATH_MAX + 32], nvcc[PATH_MAX + 64];
    if (!source_tree(dir, source, sizeof source))
        return;
    snprintf(cuda, sizeof cuda, "%s/deps/cuda", source);
    snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc", cuda);
    if (access(nvcc, X_OK) == 0)
        setenv("CUDA_PATH", cuda, 1);
}

/* How compiles and layouts run, for --version. */
static void print_mode(dgpb_compiler *compiler, const char *worker)
{
    const char *why = NULL;
    switch (dgpb_compiler_mode_of(compiler, &why)) {
    case DGPB_COMPILER_EMBEDDED_WORKERS:
        printf("compiles: persistent slangc-wasm --serve workers\n");
        break;
    case DGPB_COMPILER_NATIVE_WORKERS:
        printf("compiles: persistent native workers (%s --serve)\n", worker);
        break;
    default:
        printf("compiles: one slangc process each%s%s\n", why ? ": " : "", why ? why : "");
        break;
    }
    printf("layouts: %s\n", worker ? worker : "no recorder (dgpb-slang-layout not found)");
}

static bool same(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* A copy of s (NULL stays NULL); false when out of memory. */
static bool copy(const char *s, char **out)
{
    *out = s ? strdup(s) : NULL;
    return !s || *out;
}

int compiler_keep_get(compiler_keep *keep, options *o, dgpb_compiler **out, const char **recorder,
                      dgpb_diag *diag)
{
    *out = NULL;
    *recorder = NULL;
    char dir[PATH_MAX], slangc_wasm[PATH_MAX + 64], native_dir[PATH_MAX + 64];
    exe_dir(dir, sizeof dir);
    compiler_places(dir, slangc_wasm, native_dir, sizeof slangc_wasm);
    setup_cuda(dir);
    const char *embedded[] = {slangc_wasm, NULL};
    /* DGPB_IGNORE_SETUP_SLANG: the lookup as it was before the set-up brought a native Slang
     * (the test suite's embedded-compiler tests; docs/build.md, "Which compiler"). */
    const char *native[] = {env_true("DGPB_IGNORE_SETUP_SLANG") ? NULL : native_dir, NULL};
    /* The layout recorder, also the native Slang worker, is built and installed next to
     * dgpb-build. */
    char next_to_us[PATH_MAX + 32];
    snprintf(next_to_us, sizeof next_to_us, "%s/dgpb-slang-layout", dir);
    const char *worker = o->build.layout_recorder;
    if (!worker && access(next_to_us, X_OK) == 0)
        worker = next_to_us;
    if (!keep->compiler || !same(keep->slangc, o->slangc) || !same(keep->recorder, worker) ||
        !same(keep->slang_lib, o->build.slang_lib) || keep->processes != o->processes ||
        keep->force != o->force || keep->service != o->service_on) {
        bool no_service = keep->no_service;
        compiler_keep_release(keep);
        keep->no_service = no_service;
        char self[PATH_MAX];
        dgpb_compiler_desc cdesc = {.path = o->slangc,
                                    .embedded = embedded,
                                    .native = native,
                                    .force = o->force,
                                    .recorder = worker,
                                    .slang_lib = o->build.slang_lib,
                                    .processes = o->processes,
                                    .service_warning = service_warn};
        if (o->service_on && service_program(self, sizeof self)) {
            cdesc.service = self;
            cdesc.offload = dgpb_service_offload();
        }
        int rc = dgpb_compiler_create(&cdesc, &keep->compiler, diag);
        if (rc)
            return rc;
        if (o->force == DGPB_COMPILER_NATIVE && dgpb_compiler_is_embedded(keep->compiler))
            rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                               "--compiler native: the compiler named (%s, %s) is the embedded "
                               "one",
                               dgpb_compiler_path(keep->compiler),
                               dgpb_compiler_origin(keep->compiler));
        else if (o->processes && dgpb_compiler_is_library(keep->compiler))
            rc = dgpb_diag_set(diag, DGPB_ERR_TOOL, -1,
                               "--compiler-processes runs one slangc per compile, and the native "
                               "Slang in use (%s, %s) is a library without slangc: its compiles "
                               "run on the native workers",
                               dgpb_compiler_path(keep->compiler),
                               dgpb_compiler_origin(keep->compiler));
        if (rc) {
            compiler_keep_release(keep);
            return rc;
        }
        keep->processes = o->processes;
        keep->force = o->force;
        keep->service = o->service_on;
        if (!copy(o->slangc, &keep->slangc) || !copy(worker, &keep->recorder) ||
            !copy(o->build.slang_lib, &keep->slang_lib)) {
            compiler_keep_release(keep);
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        }
    }
    keep->uses++;
    *out = keep->compiler;
    *recorder = keep->recorder;
    if (!o->build.no_layouts)
        o->build.layout_recorder = keep->recorder;
    return DGPB_OK;
}

void compiler_keep_release(compiler_keep *keep)
{
    dgpb_compiler_destroy(keep->compiler);
    free(keep->slangc);
    free(keep->recorder);
    free(keep->slang_lib);
    memset(keep, 0, sizeof *keep);
}

int compiler_print_version(dgpb_compiler *c, const char *recorder, dgpb_diag *diag)
{
    const char *version = NULL;
    printf("dgpb-build %s (DGPB format version %u)\n", dgpb_version(), DGPB_FORMAT_VERSION);
    int rc = dgpb_compiler_version(c, &version, diag);
    if (rc)
        return rc;
    printf("slang %s: %s (%s)\n", version, dgpb_compiler_path(c), dgpb_compiler_origin(c));
    print_mode(c, recorder);
    return DGPB_OK;
}
