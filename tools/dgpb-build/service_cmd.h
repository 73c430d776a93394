/*
 * service_cmd.h - dgpb-build's side of the compile service (docs/service.md):
 * --service and $DGPB_SERVICE, --service-stop, the --version line, the -v
 * line, and the warning when the service fails.
 */
#ifndef DGPB_BUILD_SERVICE_CMD_H
#define DGPB_BUILD_SERVICE_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "dgpb/compiler.h"
#include "progress.h"

/*
 * Whether builds use the service: --service's value (`option`, NULL when
 * not given) wins over $DGPB_SERVICE; each is "auto" (the default) or "off".
 * Returns 1 for auto, 0 for off (with *why_off naming the setting), or -1
 * after printing a usage error for any other value.
 */
int service_mode(const char *option, const char **why_off);

/* This program's own path, for dgpb_compiler_desc.service; false when it cannot be named. */
bool service_program(char *buf, size_t size);

/* --service-stop: stops this user's services and says how many; returns the exit status. */
int service_stop(bool quiet);

/* --version: "compile service: running (pid N, W workers, socket PATH)", or why not. */
void service_print_version(dgpb_compiler *c, const char *why_off);

/* -v: "compiles: through the compile service (pid N)", or where they ran and why. */
void service_print_path(dgpb_compiler *c, const char *why_off);

/*
 * The warning when the service cannot be used or fails (a
 * dgpb_compiler_desc.service_warning; `user` unused): "dgpb-build: warning:
 * MESSAGE; compiling here", after clearing the progress line of the run
 * (service_warn_line()).
 */
void service_warn(void *user, const char *message);

/* The progress line of the run now (NULL: none), which a warning clears first. */
void service_warn_line(progress_line *line);

#endif
