/*
 * compiler_internal.h - what the compile service asks of a dgpb_compiler
 * beyond dgpb/compiler.h (internal): the command of its `--serve` workers,
 * which the service starts and drives itself (service/service_server.c).
 */
#ifndef DGPB_COMPILER_INTERNAL_H
#define DGPB_COMPILER_INTERNAL_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define compiler_serve_argv dgpb__compiler_serve_argv

#include "dgpb/compiler.h"

/*
 * The command of the compiler's `--serve` workers, NULL-terminated and
 * owned by `c` (`slangc-wasm --serve`, or `dgpb-slang-layout --serve
 * --slangc S [--slang-lib L]`); NULL when its compiles run as processes
 * (after the native probe: dgpb_compiler_mode_of()).
 */
const char *const *compiler_serve_argv(dgpb_compiler *c);

#endif
