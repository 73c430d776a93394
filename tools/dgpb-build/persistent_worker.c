/*
 * persistent_worker.c - Bazel's persistent-worker protocol, JSON flavour
 * (persistent_worker.h): requests framed from standard input
 * (json_stream.h), each run as one dgpb-build invocation with its output
 * captured, answered on the descriptor standard output was.
 */
#define _POSIX_C_SOURCE 200809L
#include "persistent_worker.h"

#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tool_common.h"
#include "compiler_choice.h"
#include "exit_status.h"
#include "invocation.h"
#include "json_stream.h"
#include "signals.h"
#include "work_request.h"

/* What a request's output keeps at most; past it, a line says how much was cut. */
#define OUTPUT_MAX ((size_t)16 << 20)

typedef struct worker {
    FILE *channel;  /* the answers: what standard output was when the worker started */
    int log_fd;     /* the worker's standard error (Bazel's worker log) */
    int capture_fd; /* a request's standard output and error */
    char **startup; /* argv[0] and the startup arguments (borrowed) */
    int startup_count;
    compiler_keep keep;
} worker;

/* A descriptor that no child inherits; -1 when none can be had. */
static int cloexec(int fd)
{
    if (fd >= 0 && fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* An unnamed file in $TMPDIR (else /tmp) for a request's output; -1 when none can be made. */
static int capture_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/dgpb-worker-output-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return cloexec(fd);
}

/*
 * Takes standard output for the answers, and points descriptor 1 at standard
 * error, so that nothing else can reach Bazel through it. false (with a
 * message) when a descriptor cannot be had.
 */
static bool open_channels(worker *w)
{
    int out = cloexec(dup(STDOUT_FILENO));
    w->log_fd = cloexec(dup(STDERR_FILENO));
    w->capture_fd = capture_file();
    w->channel = out >= 0 ? fdopen(out, "w") : NULL;
    if (!w->channel || w->log_fd < 0 || w->capture_fd < 0 || dup2(w->log_fd, STDOUT_FILENO) < 0) {
        if (!w->channel && out >= 0)
            close(out);
        perror("dgpb-build: --persistent_worker: cannot set up its descriptors");
        return false;
    }
    return true;
}

static void close_channels(worker *w)
{
    if (w->channel)
        fclose(w->channel);
    if (w->capture_fd >= 0)
        close(w->capture_fd);
    if (w->log_fd >= 0)
        close(w->log_fd);
}

/* Reads what the capture file holds (at most OUTPUT_MAX bytes, then a note), NUL-terminated. */
static char *read_capture(int fd)
{
    off_t end = lseek(fd, 0, SEEK_END);
    size_t size = end > 0 ? (size_t)end : 0, keep = size < OUTPUT_MAX ? size : OUTPUT_MAX;
    char *text = malloc(keep + 128);
    if (!text)
        return NULL;
    size_t got = 0;
    while (got < keep) {
        ssize_t n = pread(fd, text + got, keep - got, (off_t)got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    text[got] = 0;
    if (size > keep)
        snprintf(text + got, 128, "\n[dgpb-build: output cut at %zu of %zu bytes]\n", keep, size);
    return text;
}

/*
 * Runs one dgpb-build with argv, its standard output and error captured;
 * returns its exit status and sets *output (owned by the caller; NULL when
 * out of memory).
 */
static int run_captured(worker *w, int argc, char **argv, char **output)
{
    fflush(stdout);
    fflush(stderr);
    int rc = EXIT_TOOL;
    if (ftruncate(w->capture_fd, 0) != 0 || lseek(w->capture_fd, 0, SEEK_SET) != 0 ||
        dup2(w->capture_fd, STDOUT_FILENO) < 0 || dup2(w->capture_fd, STDERR_FILENO) < 0) {
        perror("dgpb-build: --persistent_worker: cannot capture a request's output");
    } else {
        rc = invocation_run(&w->keep, argc, argv);
    }
    fflush(stdout);
    fflush(stderr);
    dup2(w->log_fd, STDOUT_FILENO);
    dup2(w->log_fd, STDERR_FILENO);
    *output = read_capture(w->capture_fd);
    return rc;
}

static void answer(worker *w, int id, int exit_code, const char *output)
{
    fprintf(w->channel, "{\"exitCode\":%d,\"output\":", exit_code);
    tool_json_string(w->channel, output ? output : "dgpb-build: out of memory for the output\n");
    fprintf(w->channel, ",\"requestId\":%d}\n", id);
    fflush(w->channel);
}

/*
 * Serves one request read from text[0, size) (modified in place): runs it
 * and answers, or answers why it cannot run. Returns false when the text is
 * not a JSON object, which ends the worker (*why, *at set).
 */
static bool serve(worker *w, char *text, size_t size, const char **why, size_t *at)
{
    work_request req;
    int got = work_request_parse(text, size, (size_t)w->startup_count, &req, why, at);
    if (got == WORK_REQUEST_NOT_JSON) {
        work_request_free(&req);
        return false;
    }
    if (got == WORK_REQUEST_OK && req.cancel) {
        work_request_free(&req);
        return true;
    }
    if (got == WORK_REQUEST_OK && req.sandbox) {
        got = WORK_REQUEST_WRONG;
        *why = "it names a sandboxDir (multiplex sandboxing), which dgpb-build does not support";
    }
    if (got == WORK_REQUEST_NOMEM) {
        answer(w, req.id, EXIT_TOOL, "dgpb-build: error: out of memory for a work request\n");
    } else if (got != WORK_REQUEST_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "dgpb-build: error: malformed work request: %s\n", *why);
        answer(w, req.id, EXIT_USAGE, msg);
    } else {
        /* The startup arguments in the lead slots the request's vector kept for them. */
        for (int i = 0; i < w->startup_count; i++)
            req.argv[i] = w->startup[i];
        char *output = NULL;
        int rc = run_captured(w, w->startup_count + (int)req.arg_count, req.argv, &output);
        if (!signals_caught) /* stopped by a signal: the worker dies of it, unanswered */
            answer(w, req.id, rc, output);
        free(output);
    }
    work_request_free(&req);
    return true;
}

int persistent_worker_main(int argc, char **argv)
{
    /* Its own workers stay warm across requests: no compile service (docs/service.md). */
    worker w = {.log_fd = -1, .capture_fd = -1, .keep = {.no_service = true}};
    w.startup = calloc((size_t)argc + 1, sizeof *w.startup);
    if (!w.startup) {
        fputs("dgpb-build: --persistent_worker: out of memory\n", stderr);
        return EXIT_TOOL;
    }
    for (int i = 0; i < argc; i++)
        if (i == 0 || strcmp(argv[i], "--persistent_worker"))
            w.startup[w.startup_count++] = argv[i];
    if (!open_channels(&w)) {
        close_channels(&w);
        free(w.startup);
        return EXIT_TOOL;
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* a request's lines in the order it printed them */
    signals_catch();
    json_stream in;
    json_stream_init(&in, STDIN_FILENO);
    int status = EXIT_OK;
    for (;;) {
        char *text = NULL;
        const char *why = NULL;
        size_t size = 0, at = 0;
        int got = json_stream_next(&in, &text, &size, &why);
        if (signals_caught) {
            status = 128 + signals_caught;
            break;
        }
        if (got == 0)
            break;
        if (got < 0) {
            fprintf(stderr, "dgpb-build: --persistent_worker: malformed input: %s\n", why);
            status = EXIT_USAGE;
            break;
        }
        if (!serve(&w, text, size, &why, &at)) {
            fprintf(stderr,
                    "dgpb-build: --persistent_worker: malformed work request: not valid JSON: "
                    "%s (at byte %zu of %zu)\n",
                    why, at, size);
            status = EXIT_USAGE;
            break;
        }
        if (signals_caught) {
            status = 128 + signals_caught;
            break;
        }
    }
    json_stream_free(&in);
    compiler_keep_release(&w.keep);
    close_channels(&w);
    free(w.startup);
    return status;
}
