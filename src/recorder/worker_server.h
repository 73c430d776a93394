/*
 * recorder/worker_server.h - the native Slang worker: one loaded libslang that
 * answers many compiles and layout recordings (docs/layout.md, "The native
 * worker").
 *
 * A native slangc spends about half a second of every process starting up
 * (loading libslang and building its core module into a global session).
 * `dgpb-slang-layout --serve` loads the library once (dgpb_slang_open()) and
 * answers jobs over a pipe, so that dgpb-build pays that cost once per worker:
 *
 *     dgpb_slang *s;
 *     dgpb_slang_desc sd = {.slangc = "/opt/slang/bin/slangc"};
 *     if (dgpb_slang_open(&sd, &s, &diag)) ...
 *     int status; char *text;
 *     const char *args[] = {"/abs/k.slang", "-target", "spirv", "-entry", "k",
 *                           "-stage", "compute", "-o", "/abs/k.spv"};
 *     worker_compile(s, args, 9, &status, &text, &diag);  (as `slangc args...`)
 *     worker_serve(s, 0, 1, &diag);                      (until its input ends)
 *
 * The protocol (one line each way per job, UTF-8 JSON, the same as the
 * embedded compiler's `slangc-wasm --serve`, docs/slangc-wasm.md):
 *   - a compile job is a JSON array of strings, slangc's arguments after the
 *     program name; the worker compiles as that slangc would and writes what
 *     it writes (-o, -reflection-json, ...);
 *   - a layout job is {"layout": [strings]}, dgpb-slang-layout's arguments
 *     after its own options (the module, slangc options, the entries and the
 *     layout's -o); the worker records and writes the layout as
 *     dgpb-slang-layout would;
 *   - a compile that records its program's layout too is {"compile":
 *     [strings], "layout_output": "FILE"}: slangc's arguments as for a
 *     compile job, and where the layout goes (worker_compile_recording());
 *     it is answered as the compile;
 *   - any of them may share a checked module (recorder/worker_checked.h):
 *     "keep": true keeps the module a compile checked, and "checked_as":
 *     [strings] names the arguments of a kept one that this compile's code
 *     may come from;
 *   - the answer is {"status": N, "diagnostics": "..."}: for a compile,
 *     slangc's exit status (0; 1 for arguments Slang rejects; 255 when the
 *     module does not compile) and its diagnostics, and "checked": true when
 *     its code came from a kept module; for a layout, the recorder's exit
 *     status (dgpb_recorder_exit) and its message.
 * Any of them may be run in a folder of its own,
 * {"cwd": "/abs", "args": [...]}, {"cwd": "/abs", "layout": [...]} or
 * {"cwd": "/abs", "compile": [...], "layout_output": F}: the
 * worker enters that folder for the job and comes back after (dgpb-build's
 * compile service runs the jobs of builds started in other folders so).
 * A line that is none of these is answered with status 2 and a message. The worker
 * prints nothing else on its answer channel: anything Slang itself prints on
 * standard output goes to standard error.
 */
#ifndef DGPB_WORKER_SERVER_H
#define DGPB_WORKER_SERVER_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define worker_compile dgpb__worker_compile
#define worker_compile_recording dgpb__worker_compile_recording
#define worker_record_layout_file dgpb__worker_record_layout_file
#define worker_serve dgpb__worker_serve

#include <stddef.h>

#include "dgpb/layout_record.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* slangc's exit statuses, as worker_compile() reports them. */
#define DGPB_SLANGC_EXIT_OK 0
#define DGPB_SLANGC_EXIT_FAILED 1               /* Slang rejected the arguments */
#define DGPB_SLANGC_EXIT_COMPILATION_FAILED 255 /* the module has errors */

/*
 * Compiles as `slangc args...` would, on the library's global session (made
 * on first use as slangc makes its own, for the slangc the library was
 * opened for): one compile request in slangc's command-line mode, searching
 * slangc's folder, writing the outputs the arguments ask for. Sets *status to
 * slangc's exit status and *diagnostics to Slang's diagnostic text ("" when
 * none; dgpb_free() it). The options that make slangc build a session of its
 * own (-load-core-module, -compile-core-module, -embed-prelude) are refused
 * with status 1. Returns DGPB_OK whenever the compile ran, whatever its
 * status; DGPB_ERR_UNSUPPORTED when the library lacks
 * spSetCommandLineCompilerMode or spAddSearchPath; DGPB_ERR_TOOL when Slang
 * cannot make a session or a request; DGPB_ERR_NOMEM.
 */
int worker_compile(dgpb_slang *s, const char *const *args, size_t arg_count, int *status,
                   char **diagnostics, dgpb_diag *diag);

/*
 * worker_compile(), and when the compile succeeds and `layout` is not NULL, the layout
 * of the program it compiled, recorded from the same request and written to `layout`
 * (atomically) as dgpb-slang-layout would record it with the same arguments (its options
 * are those arguments less the module, -I and the output files; layout_record_compiled()).
 * Recording once more costs a walk of Slang's reflection, not a second compile. A layout
 * that cannot be recorded or written leaves no file at `layout` and changes nothing of the
 * compile's result: recorded on its own, it reports why.
 */
int worker_compile_recording(dgpb_slang *s, const char *const *args, size_t arg_count,
                             const char *layout, int *status, char **diagnostics, dgpb_diag *diag);

/*
 * Records a layout as dgpb-slang-layout would: `args` are its arguments
 * after its own options; the last "-o FILE" names the layout, written
 * atomically; everything else goes to dgpb_layout_record(). DGPB_ERR_INVALID
 * without -o; otherwise dgpb_layout_record()'s and dgpb_file_write_atomic()'s
 * results.
 */
int worker_record_layout_file(dgpb_slang *s, const char *const *args, size_t arg_count,
                              dgpb_diag *diag);

/*
 * Answers jobs read from `in_fd` on `out_fd` until `in_fd` ends (DGPB_OK).
 * DGPB_ERR_IO when the answer channel fails; DGPB_ERR_NOMEM. A job's own
 * failure is its answer, never the loop's.
 */
int worker_serve(dgpb_slang *s, int in_fd, int out_fd, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
