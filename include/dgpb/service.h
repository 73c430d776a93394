/*
 * dgpb/service.h - the compile service: warm compiler workers that outlive
 * one dgpb-build (docs/service.md).
 *
 * Every dgpb-build starts its compiler's workers (Node.js and Slang's
 * WebAssembly module, or a native worker's Slang session: 0.3 to 0.4 s each),
 * which dominates the build of a small module. A dgpb_compiler created with
 * desc.service and desc.offload = dgpb_service_offload() (dgpb/compiler.h)
 * hands its batches of compiles instead to a
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

/*
 * The table through which a dgpb_compiler hands its batches to this
 * service: give it as dgpb_compiler_desc.offload, with desc.service.
 */
const dgpb_compile_offload *dgpb_service_offload(void);

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
