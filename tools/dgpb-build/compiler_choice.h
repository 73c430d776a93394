/*
 * compiler_choice.h - the compiler an invocation of dgpb-build builds with:
 * the lookup's embedded candidate and the layout recorder, both found
 * relative to the program (docs/install.md, "How the installed tools find
 * each other"), and the dgpb_compiler kept across invocations, so that a
 * persistent worker's requests share its warm workers. --version's report
 * of it.
 */
#ifndef DGPB_BUILD_COMPILER_CHOICE_H
#define DGPB_BUILD_COMPILER_CHOICE_H

#include <stdbool.h>

#include "dgpb/compiler.h"
#include "options.h"

/*
 * The compiler kept from one invocation to the next (zero: none yet), and
 * the choice it was made from. Owns everything; compiler_keep_release()
 * frees it.
 */
typedef struct compiler_keep {
    dgpb_compiler *compiler;
    char *slangc, *recorder, *slang_lib; /* --slangc, the recorder, --slang-lib (NULL: none) */
    bool processes;                      /* --compiler-processes */
    dgpb_compiler_force force;           /* --compiler */
    bool service;                        /* made with the compile service (options.service_on) */
    bool no_service; /* never the compile service (set by its owner: the persistent worker) */
    unsigned uses;   /* invocations it served */
} compiler_keep;

/*
 * The compiler for options `o`: the kept one when it was made from the same
 * choice (--slangc, --compiler, --compiler-processes, the recorder, --slang-lib, and
 * whether it uses the compile service, o->service_on; the
 * environment the lookup reads is the process's own), else a new one that
 * replaces it. *recorder is the layout recorder (--layout-recorder, else the
 * dgpb-slang-layout next to the program; NULL: none), owned by `keep`, and
 * o->build.layout_recorder is set to it unless --no-layouts. Returns DGPB_OK
 * with *out set (owned by `keep`), or the lookup's result code with *diag.
 */
int compiler_keep_get(compiler_keep *keep, options *o, dgpb_compiler **out, const char **recorder,
                      dgpb_diag *diag);

/* Destroys the kept compiler (waiting for its workers) and frees the choice. */
void compiler_keep_release(compiler_keep *keep);

/*
 * --version on standard output: dgpb-build's and the compiler's versions,
 * where the compiler came from, how compiles run and which recorder
 * records layouts. Returns DGPB_OK, or the code of the failed
 * `<compiler> -v` with *diag.
 */
int compiler_print_version(dgpb_compiler *c, const char *recorder, dgpb_diag *diag);

#endif
