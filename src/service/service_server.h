/*
 * service_server.h - the compile service's process (internal,
 * docs/service.md): one event loop over its listening socket, its clients
 * and its warm workers of one compiler. The public entry point is
 * dgpb_service_daemon() (dgpb/service.h), which parses the command line the
 * client wrote and calls service_serve().
 */
#ifndef DGPB_SERVICE_SERVER_H
#define DGPB_SERVICE_SERVER_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define service_serve dgpb__service_serve

#include <stdbool.h>

#include "dgpb/result.h"

/* What the service serves, from its command line (borrowed). */
typedef struct service_serve_desc {
    const char *dir;       /* the service folder (checked again) */
    const char *name;      /* the socket's name: the start of the identity */
    const char *program;   /* the service's program, for the identity */
    const char *compiler;  /* the compiler, absolute */
    bool embedded;         /* it is the embedded slangc-wasm */
    const char *recorder;  /* dgpb-slang-layout, or NULL */
    const char *slang_lib; /* its --slang-lib, or NULL */
} service_serve_desc;

/*
 * Binds `<dir>/<name>.sock` and serves until idle for
 * $DGPB_SERVICE_IDLE_SECONDS (default 300), stopped ({"stop": 1}), or
 * signalled (SIGTERM, SIGINT, SIGHUP); then kills its workers and removes its
 * socket (when it is still its own). DGPB_OK also when another service of
 * the same name runs already; an error when it cannot start (the folder is
 * not safe, the compiler is not found, the identity is not `name`'s, the
 * socket cannot be bound).
 */
int service_serve(const service_serve_desc *d, dgpb_diag *diag);

#endif
