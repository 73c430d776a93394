/*
 * persistent_worker.h - `dgpb-build --persistent_worker`: Bazel's
 * persistent-worker protocol, JSON flavour (the execution requirement
 * `requires-worker-protocol: json`; docs/build.md, "Bazel's persistent
 * worker").
 *
 * Bazel starts `dgpb-build STARTUP-ARGS... --persistent_worker` once and
 * writes work requests to its standard input,
 *
 *     {"arguments": ["-o", "out", "a.slang"], "inputs": [...], "requestId": 0}
 *
 * each of which is one dgpb-build run (invocation.h) in this process, with
 * the startup arguments and then the request's (@FILE expanded), on the
 * compiler kept from the requests before: a request that chooses the same
 * compiler starts no new worker. Its answer goes to standard output, one
 * JSON object a line,
 *
 *     {"exitCode":1,"output":"a.slang(3): error 30015: ...","requestId":0}
 *
 * with everything the run printed on its standard output and standard error
 * as "output". Standard output carries nothing but answers: while a request
 * runs, descriptors 1 and 2 are a capture file, and between requests both
 * are the worker's standard error (Bazel's worker log).
 *
 * Requests are served one at a time, in order, each answered with its
 * requestId (0 when it has none: singleplex); cancel requests are ignored
 * (dgpb-build does not declare support for cancellation, so Bazel sends
 * none). A request is read strictly and in place (work_request.h); one
 * whose fields are wrong (arguments that are not an array of strings, a
 * requestId that is not an integer from 0 to 2^31 - 1, a sandboxDir) is
 * answered with exitCode 2 and why. Input that
 * is not a stream of JSON objects ends the worker with exit status 2 and a
 * message on its standard error; the end of the input ends it with 0; a
 * signal ends it as it ends dgpb-build (128 + N).
 */
#ifndef DGPB_BUILD_PERSISTENT_WORKER_H
#define DGPB_BUILD_PERSISTENT_WORKER_H

/*
 * Serves requests until the end of the input. argv is the program's whole
 * command line: its arguments other than --persistent_worker are the
 * startup arguments, put before every request's. Returns the exit status.
 */
int persistent_worker_main(int argc, char **argv);

#endif
