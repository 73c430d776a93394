/*
 * service_client.h - a dgpb_compiler's end of the compile service (internal,
 * docs/service.md): connect to the service of its compiler, start it when
 * none runs, hand it batches of jobs, and tell any failure apart from a slow
 * compile.
 *
 * The client never runs a job itself: when the service fails it says how,
 * and its caller (compiler.c) runs the jobs that have no answer on its own
 * pool. A service_client is not thread-safe, like its dgpb_compiler.
 */
#ifndef DGPB_SERVICE_CLIENT_H
#define DGPB_SERVICE_CLIENT_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define service_client_create dgpb__service_client_create
#define service_client_destroy dgpb__service_client_destroy
#define service_client_info dgpb__service_client_info
#define service_client_probe_known dgpb__service_client_probe_known
#define service_client_probe_passed dgpb__service_client_probe_passed
#define service_client_query dgpb__service_client_query
#define service_client_run dgpb__service_client_run

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "dgpb/compiler.h"
#include "dgpb/result.h"
#include "dgpb/service.h"
#include "compiler/compiler_internal.h"

typedef struct service_client service_client;

/* The compiler the service must run: compile_offload_desc (compiler/compiler_internal.h). */
typedef compile_offload_desc service_client_desc;

/*
 * Names the service: its folder (made when missing, and checked), the
 * identity and the socket. Nothing is connected yet. DGPB_ERR_UNSUPPORTED
 * when the folder is not safe or the socket's path is too long (the message
 * says why), DGPB_ERR_NOMEM.
 */
int service_client_create(const service_client_desc *d, service_client **out, dgpb_diag *why);

/* Closes the connection (the service keeps running) and frees. NULL is a no-op. */
void service_client_destroy(service_client *s);

/*
 * Runs `count` jobs on the service, connecting to it first (and starting it
 * when none runs), at most `parallel` of them at once; fills each job's
 * status, diagnostics and output, and tells `watch` (may be NULL) as the
 * service starts and finishes each. Returns:
 *   DGPB_OK               every job has its answer;
 *   DGPB_ERR_INTERRUPTED  *cancel turned nonzero: the connection is closed,
 *                         which makes the service drop this client's jobs;
 *   DGPB_ERR_UNSUPPORTED  the service has no workers for this compiler (it
 *                         runs compiles as processes): nothing was sent;
 *   DGPB_ERR_TOOL         the service failed: gone, refused, silent for
 *                         DGPB_SERVICE_TIMEOUT_MS, closed the connection, or
 *                         sent garbage (`why` says which); DGPB_ERR_NOMEM.
 * On every error the jobs answered keep their results and the others are
 * left as they were (diagnostics NULL). The jobs' results must be empty.
 */
int service_client_run(service_client *s, dgpb_compile_job *jobs, size_t count, unsigned parallel,
                       dgpb_compile_watch_fn watch, void *watch_user,
                       const volatile sig_atomic_t *cancel, dgpb_diag *why);

/*
 * Connects to a running service (never starting one) and fills `info`:
 * RUNNING with its pid and workers, or NOT_RUNNING; the socket in both.
 */
void service_client_query(service_client *s, dgpb_service_info *info);

/* What the service said when this client last connected: pid, workers, started (0 when none). */
void service_client_info(const service_client *s, dgpb_service_info *info);

/*
 * Whether the recorder's probe (`dgpb-slang-layout --version`, compiler.c) passed before for
 * this client's identity: a file "<name>.probed" in the service folder, which only this
 * user can write (service_dir_check), and which service_client_probe_passed() makes. The
 * identity names the file, so a change to the recorder, the library or the environment
 * asks again.
 */
bool service_client_probe_known(const service_client *s);
void service_client_probe_passed(const service_client *s);

#endif
