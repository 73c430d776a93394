/*
 * compiler_internal.h - what a dgpb_compiler and the compile service share
 * beyond dgpb/compiler.h (internal): the command of its `--serve` workers,
 * which the service starts and drives itself (service/service_server.c),
 * and the table through which a compiler hands its batches to the service
 * (service/service_client.c fills it; compiler.c calls it and nothing else
 * of the service, so the compiler depends on no file of service/).
 */
#ifndef DGPB_COMPILER_INTERNAL_H
#define DGPB_COMPILER_INTERNAL_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define compiler_serve_argv dgpb__compiler_serve_argv

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "dgpb/compiler.h"
#include "dgpb/result.h"

/*
 * The command of the compiler's `--serve` workers, NULL-terminated and
 * owned by `c` (`slangc-wasm --serve`, or `dgpb-slang-layout --serve
 * --slangc S [--slang-lib L]`); NULL when its compiles run as processes
 * (after the native probe: dgpb_compiler_mode_of()).
 */
const char *const *compiler_serve_argv(dgpb_compiler *c);

/* The compiler the service must run, as the client's dgpb_compiler found it (borrowed). */
typedef struct compile_offload_desc {
    const char *program;   /* the service's program: dgpb-build */
    const char *compiler;  /* the compiler, absolute */
    bool embedded;         /* it is the embedded slangc-wasm */
    const char *recorder;  /* dgpb-slang-layout, or NULL */
    const char *slang_lib; /* its --slang-lib, or NULL */
    const char *cwd;       /* the jobs' working folder; NULL: the caller's at run time */
} compile_offload_desc;

/*
 * Where a compiler's batches for --serve workers may go instead of its own
 * pool (dgpb_compiler_desc.offload; the compile service's is
 * dgpb_service_offload(), dgpb/service.h). The functions mean what
 * service/service_client.h says of service_client_create, _destroy, _run,
 * _query and _info; `client` is what create made.
 */
struct dgpb_compile_offload {
    int (*create)(const compile_offload_desc *d, void **client, dgpb_diag *why);
    void (*destroy)(void *client);
    int (*run)(void *client, dgpb_compile_job *jobs, size_t count, unsigned parallel,
               dgpb_compile_watch_fn watch, void *watch_user, const volatile sig_atomic_t *cancel,
               dgpb_diag *why);
    void (*query)(void *client, dgpb_service_info *info);
    void (*info)(const void *client, dgpb_service_info *info);
    /* Whether the recorder's `--version` probe passed before for this service's identity
       (which covers the recorder, the library and this process's environment), and saying
       that it did: a build that runs a module in some tens of milliseconds need not start a
       process each time to learn it again (service_client_probe_known). */
    bool (*probe_known)(const void *client);
    void (*probe_passed)(const void *client);
};

#endif
