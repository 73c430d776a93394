/*
 * invocation.h - one run of dgpb-build: its arguments (@FILE expanded,
 * param_file.h) parsed, then --help, a cache command, --version, --list or
 * the build of its modules, on the compiler kept across runs. What main()
 * runs once and a persistent worker (persistent_worker.h) once per request:
 * each run parses its own options and opens and closes its own cache; only
 * the compiler, with its warm workers, outlives it.
 */
#ifndef DGPB_BUILD_INVOCATION_H
#define DGPB_BUILD_INVOCATION_H

#include "compiler_choice.h"

/*
 * Runs dgpb-build with argv[1..argc-1] (argv[0] is the program's name),
 * printing on standard output and standard error as the program does, and
 * returns its exit status: 128 + N when signal N stopped it (the caller then
 * dies of it: signals_die_of()). `keep` holds the compiler from one run to
 * the next.
 */
int invocation_run(compiler_keep *keep, int argc, char **argv);

#endif
