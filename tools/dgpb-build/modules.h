/*
 * modules.h - the modules of one dgpb-build invocation, built or listed one
 * after another on one compiler, its workers and one cache (docs/build.md,
 * "Several modules"): each module to its own output unit (<stem>.dgpb,
 * <stem>.bundle.json and, with -MD, <stem>.d), one that fails not stopping
 * the others, a signal stopping them all, the exit status the worst of
 * theirs (exit_worst()).
 */
#ifndef DGPB_BUILD_MODULES_H
#define DGPB_BUILD_MODULES_H

#include "messages.h"
#include "options.h"

/*
 * Checks the modules before anything is built or listed, and reads -o: with
 * one module, an -o whose last component ends in .dgpb names the bundle
 * itself (as `cc -o` names its output): it goes to o->build.bundle_file,
 * and is a usage error with a trailing '/', with --module-path (which names
 * the stem too) or where a folder of that name stands. With several, -MF,
 * --module-path and an -o that names a bundle file (FILE.dgpb) are usage
 * errors, as are two modules that would write the same files (one stem in
 * one folder), both named; --list writes nothing, so it checks none of
 * them. Returns -1 to go on, or EXIT_USAGE after the message.
 */
int modules_check(options *o);

/*
 * Builds each module with o->build (compiler, cache, sink and cancel flag
 * set; its module_file is set in turn), printing a summary line per module
 * written and, with several, one for them all (not with -q). Returns the
 * worst exit status, or 128 + N as soon as signal N stopped a build.
 */
int modules_build(options *o, printer *pr);

/*
 * --list [--json]: each module's entries on standard output, headed by its
 * name when there are several (with --json: an array of the documents).
 * Returns the worst exit status, or 128 + N after signal N.
 */
int modules_list(options *o, printer *pr);

#endif
