/*
 * dgpb/service.h - the compile service: warm compiler workers that outlive
 * one dgpb-build (docs/service.md).
 *
 * Every dgpb-build starts its compiler's workers (Node.js and Slang's
 * WebAssembly module, or a native worker's Slang session: 0.3 to 0.4 s each),
 * which dominates the build of a small module. A dgpb_compiler created with
 * desc.service (dgpb/compiler.h) hands its batches of compiles instead to a
 * per-user service that keeps warm workers of that one compiler, in the
 * manner of sccache's server: the service is the program desc.service names
 * (dgpb-build) run as `dgpb-build --service-daemon ...`, started on demand,
 * gone after an idle time. Everything but the batches (the cache, the proof,
 * the output unit) stays in the caller.
 *
 *   - One service per compiler identity: the socket's name is the start of a
 *     SHA-256 over the protocol version, the service program's file, the
 *     compiler's files (status: device, inode, size, time), the recorder,
 *     the libslang, and the environment its workers read; an upgraded
 *     compiler or a rebuilt dgpb-build never reaches an old service.
 *   - The folder: $DGPB_SERVICE_DIR, else $XDG_RUNTIME_DIR/dgpb (when that is
 *     the user's own 0700 folder), else /tmp/dgpb-<uid>; it must be a real
 *     folder owned by the user with no group or other permissions. The
 *     service refuses connections from any other user (SO_PEERCRED).
 *   - Failures (no service, a hung one, one that dies mid-batch or answers
 *     garbage) cost one desc.service_warning; the jobs without an answer run
 *     on the caller's own workers, and the service is not asked again by
 *     that dgpb_compiler.
 *
 * The service reads the process's environment (getenv), not desc.get_env:
 * its workers inherit the environment of the process that started it.
 */
#ifndef DGPB_SERVICE_H
#define DGPB_SERVICE_H

#include <stdbool.h>

#include "dgpb/compiler.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a compiler's service stands. */
typedef enum dgpb_service_state {
    DGPB_SERVICE_OFF = 0, /* not asked for (no desc.service), or compiles run as processes */
    DGPB_SERVICE_NOT_RUNNING = 1, /* none answers on its socket (yet) */
    DGPB_SERVICE_RUNNING = 2,     /* one answers: pid, workers, started */
    DGPB_SERVICE_USED = 3,        /* the compiler's batches ran on it: pid, workers, started */
    DGPB_SERVICE_LOCAL = 4,       /* it could not be used, or failed: why; batches ran here */
} dgpb_service_state;

#define DGPB_SERVICE_PATH_MAX 4096

typedef struct dgpb_service_info {
    dgpb_service_state state;
    int pid;                            /* the service's process (RUNNING, USED), else 0 */
    unsigned workers;                   /* how many workers it keeps at most */
    unsigned started;                   /* how many it had started when last asked */
    char socket[DGPB_SERVICE_PATH_MAX]; /* its socket ("" when no folder could be named) */
    char why[DGPB_DIAG_MESSAGE_MAX];    /* OFF and LOCAL: why ("" when not known) */
} dgpb_service_info;

/*
 * What the compiler's batches so far did: USED (the last one ran on the
 * service), LOCAL (the service could not be used or failed: why), OFF (no
 * desc.service, or processes), or NOT_RUNNING when no batch has asked it yet.
 */
void dgpb_compiler_service_report(const dgpb_compiler *c, dgpb_service_info *info);

/*
 * Asks the compiler's service how it stands, connecting to it but never
 * starting it (dgpb-build --version): RUNNING, NOT_RUNNING or OFF (why).
 */
void dgpb_compiler_service_query(dgpb_compiler *c, dgpb_service_info *info);

/*
 * Stops every service of this user in the service folder (dgpb-build
 * --service-stop): each one kills its workers, removes its socket and exits;
 * sockets nothing listens on are removed. Sets *stopped to how many were
 * stopped and `dir` (size bytes, may be NULL) to the folder. DGPB_OK also
 * when none ran; DGPB_ERR_UNSUPPORTED when the folder is not safe; DGPB_ERR_IO
 * when it cannot be read, or a service did not stop within 5 s.
 */
int dgpb_service_stop_all(unsigned *stopped, char *dir, size_t size, dgpb_diag *diag);

/*
 * The service itself: `dgpb-build --service-daemon ARGS...` calls this with
 * the arguments after --service-daemon, as the client wrote them (their form
 * is the library's own). It serves until it has been idle for
 * $DGPB_SERVICE_IDLE_SECONDS (default 300), is stopped or gets SIGTERM, and
 * returns DGPB_OK; an error when it cannot start (its message goes to the
 * service's log, the standard error it was given).
 */
int dgpb_service_daemon(int argc, char *const *argv, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
