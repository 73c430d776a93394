/*
 * slang_library.h - a loaded native libslang (dgpb/layout.h's dgpb_slang),
 * shared by the layout recorder (layout_record.c), the slangc-like compile
 * (slang_compile.c) and the native worker (slang_serve.c) (internal).
 *
 * Loading is slang_library.c's: find the library (slang_lookup.c), dlopen
 * it, fill the dgpb_slang_api table (slang_api.h) and check the version.
 * The library also keeps one Slang global session, made on first use the
 * way slangc makes its own (GLSL enabled; the C++ and CUDA preludes that
 * slangc finds next to itself; slangc's folder as a search folder of every
 * compile), so that one loaded library answers many compiles and layouts
 * exactly as one slangc process per compile would.
 */
#ifndef DGPB_SLANG_LIBRARY_H
#define DGPB_SLANG_LIBRARY_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define slang_library_session dgpb__slang_library_session
#define layout_record_compiled dgpb__layout_record_compiled
#define layout_record_program dgpb__layout_record_program

#include "dgpb/layout_record.h"
#include "layout/slang_api.h"

struct dgpb_slang {
    void *handle;
    char *path;    /* the library as loaded */
    char *version; /* Slang's build tag */
    char *slangc;  /* the slangc this library stands for (its preludes, its search folder);
                       NULL when none was named */
    char *exe_dir; /* slangc's folder, resolved through symbolic links; NULL without slangc */
    dgpb_slang_api api;
    SlangSession *session; /* made by slang_library_session(); NULL until then */
    void *nvrtc_builtins;  /* NVRTC's builtins of $CUDA_PATH, loaded for NVRTC; NULL: none */
};

/*
 * The library's global session, made on the first call as slangc makes its
 * own. DGPB_ERR_TOOL when Slang cannot make one.
 */
int slang_library_session(dgpb_slang *s, SlangSession **out, dgpb_diag *diag);

/*
 * Records the layout of a compile request that compiled (spCompile succeeded, with or
 * without code generation) from `args`, the arguments it was given: the header as
 * dgpb_layout_record() writes it, then the walk of the request's reflection
 * (layout_record.c). The native worker's compile that records its group's layout too
 * (slang_worker.c). On success *out holds the blob (dgpb_free() it); the results of
 * dgpb_layout_record() otherwise.
 */
int layout_record_compiled(dgpb_slang *s, SlangCompileRequest *req, const char *const *args,
                           size_t arg_count, uint8_t **out, size_t *size, dgpb_diag *diag);

/* The same for a program's reflection (a linked IComponentType's layout), compiled from
   `args` (recorder/worker_checked.c). */
int layout_record_program(dgpb_slang *s, SlangReflection *program, const char *const *args,
                          size_t arg_count, uint8_t **out, size_t *size, dgpb_diag *diag);

#endif
