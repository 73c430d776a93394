/*
 * service_cmd.c - dgpb-build's side of the compile service
 * (service_cmd.h): the settings, the commands and the lines it prints; the
 * service itself is the library's (dgpb/service.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "service_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tool_common.h"
#include "dgpb/service.h"
#include "exit_status.h"
#include "progress.h"

int service_mode(const char *option, const char **why_off)
{
    const char *v = option ? option : getenv("DGPB_SERVICE");
    *why_off = NULL;
    if (!v || (!option && !*v) || !strcmp(v, "auto")) /* an empty variable is an unset one */
        return 1;
    if (!strcmp(v, "off")) {
        *why_off = option ? "--service=off" : "DGPB_SERVICE=off";
        return 0;
    }
    if (option)
        tool_usage_error("--service is 'auto' or 'off', not '%s'", v);
    else
        tool_usage_error("DGPB_SERVICE is 'auto' or 'off', not '%s'", v);
    return -1;
}

bool service_program(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0 || (size_t)n >= size - 1)
        return false;
    buf[n] = 0;
    return true;
}

/* A line of the program's own about no file: "dgpb-build: SEVERITY: MESSAGE", or JSON. */
static void print_line(dgpb_severity severity, int code, const char *message)
{
    static dgpb_diag d; /* 10 KB: off the stack */
    dgpb_diag_clear(&d);
    d.severity = severity;
    d.code = code;
    snprintf(d.message, sizeof d.message, "%s", message);
    tool_print_diag(&d, NULL);
}

int service_stop(bool quiet)
{
    unsigned stopped = 0;
    char dir[DGPB_SERVICE_PATH_MAX];
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = dgpb_service_stop_all(&stopped, dir, sizeof dir, &d);
    if (rc) {
        print_line(DGPB_SEV_ERROR, d.code, d.message);
        return EXIT_TOOL;
    }
    if (!quiet)
        printf("compile services stopped: %u (%s)\n", stopped, dir);
    return EXIT_OK;
}

void service_print_version(dgpb_compiler *c, const char *why_off)
{
    if (why_off) {
        printf("compile service: off (%s)\n", why_off);
        return;
    }
    static dgpb_service_info info; /* 12 KB: off the stack */
    dgpb_compiler_service_query(c, &info);
    switch (info.state) {
    case DGPB_SERVICE_RUNNING:
        printf("compile service: running (pid %d, %u worker%s, %u started, socket %s)\n", info.pid,
               info.workers, info.workers == 1 ? "" : "s", info.started, info.socket);
        break;
    case DGPB_SERVICE_NOT_RUNNING:
        printf("compile service: not running (%s)%s%s\n", info.socket, info.why[0] ? ": " : "",
               info.why);
        break;
    default:
        printf("compile service: off (%s)\n", info.why[0] ? info.why : "not asked for");
        break;
    }
}

void service_print_path(dgpb_compiler *c, const char *why_off)
{
    static dgpb_service_info info;
    char line[DGPB_DIAG_MESSAGE_MAX];
    if (why_off) {
        snprintf(line, sizeof line, "compiles: local workers (the compile service is off: %s)",
                 why_off);
    } else {
        dgpb_compiler_service_report(c, &info);
        if (info.state == DGPB_SERVICE_USED)
            snprintf(line, sizeof line,
                     "compiles: through the compile service (pid %d, %u worker%s, %u started "
                     "before this build)",
                     info.pid, info.workers, info.workers == 1 ? "" : "s", info.started);
        else if (info.state == DGPB_SERVICE_NOT_RUNNING)
            snprintf(line, sizeof line, "compiles: none ran on the compiler");
        else
            snprintf(line, sizeof line, "compiles: local workers (%.4000s)",
                     info.why[0] ? info.why : "the compile service is off");
    }
    print_line(DGPB_SEV_NOTE, DGPB_OK, line);
}

/* The progress line of the run now: the compiler outlives a run (a persistent worker's). */
static progress_line *current_line;

void service_warn_line(progress_line *line)
{
    current_line = line;
}

void service_warn(void *user, const char *message)
{
    (void)user;
    progress_clear(current_line);
    char line[DGPB_DIAG_MESSAGE_MAX];
    snprintf(line, sizeof line, "%.8000s; compiling here", message);
    print_line(DGPB_SEV_WARNING, DGPB_OK, line);
}
