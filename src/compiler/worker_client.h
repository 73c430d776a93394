/*
 * worker_client.h - the client of one persistent `--serve` compiler process (internal): started,
 * handed job lines, its answers read line by line, its standard error kept
 * for messages, retired.
 *
 * A worker is `slangc-wasm --serve` or the native `dgpb-slang-layout
 * --serve` (protocol: docs/slangc-wasm.md "--serve", recorder/worker_server.h):
 * a job is one JSON line, the answer one JSON line {"status", "diagnostics",
 * ["stdout"]}. The two users of these primitives drive them with their own
 * poll() loops: the batch pool of one dgpb_compiler (compile_pool.c) and the
 * compile service's event loop (service/service_server.c).
 *
 * Ownership: the worker owns its process and its two buffers; worker_free()
 * releases them (not the struct). Lines returned by worker_job_line() and
 * worker_failure_message() are the caller's (dgpb_free()).
 */
#ifndef DGPB_WORKER_CLIENT_H
#define DGPB_WORKER_CLIENT_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define worker_describe_job dgpb__worker_describe_job
#define worker_drop_line dgpb__worker_drop_line
#define worker_err_tail dgpb__worker_err_tail
#define worker_failure_message dgpb__worker_failure_message
#define worker_free dgpb__worker_free
#define worker_job_line dgpb__worker_job_line
#define worker_make_tmp dgpb__worker_make_tmp
#define worker_next_line dgpb__worker_next_line
#define worker_parse_answer dgpb__worker_parse_answer
#define worker_read_err dgpb__worker_read_err
#define worker_read_out dgpb__worker_read_out
#define worker_remove_tmp dgpb__worker_remove_tmp
#define worker_retire dgpb__worker_retire
#define worker_send_line dgpb__worker_send_line
#define worker_start dgpb__worker_start

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytebuf.h"
#include "dgpb/result.h"
#include "io/process.h"

#define WORKER_NO_JOB SIZE_MAX
#define WORKER_ANSWER_MAX ((size_t)256 << 20) /* the longest answer line accepted */

/* One `--serve` process. */
typedef struct worker {
    dgpb_process proc;
    unsigned id;       /* 1-based, for messages */
    bool alive;        /* started and not retired */
    size_t job;        /* the job it is running (its user's number for it), or WORKER_NO_JOB */
    void *owner;       /* whose job that is, for a user that serves several (NULL: none) */
    dgpb_bytebuf line; /* standard output not yet answered */
    dgpb_bytebuf err;  /* the last 64 KB of its standard error */
} worker;

/*
 * Makes a private folder "BASE/dgpb-workers-XXXXXX" for the workers' TMPDIR
 * (BASE: $TMPDIR, else /tmp, when NULL): what a killed worker leaves there
 * (slangc-wasm's nvcc folders) goes with it. Sets *dir (the folder) and
 * *env ("TMPDIR=<dir>"), both the caller's. DGPB_ERR_IO, DGPB_ERR_NOMEM.
 */
int worker_make_tmp(const char *base, char **dir, char **env, dgpb_diag *diag);

/* Removes that folder and everything in it. NULL is a no-op. */
void worker_remove_tmp(const char *dir);

/*
 * Starts the worker in slot w (new, or retired), leading a process group of
 * its own, with its standard input, output and error on pipes. `cwd` and
 * `env` as in dgpb_process; all three are borrowed until it returns.
 */
int worker_start(worker *w, const char *const *argv, const char *cwd, const char *const *env,
                 dgpb_diag *diag);

/*
 * Retires a worker: kills it (SIGKILL, its process group) when `kill_it`,
 * closes its input, reads what it has left and waits for it. Returns its exit
 * status (128 + N for signal N). A worker that is not alive: its last status.
 */
int worker_retire(worker *w, bool kill_it);

/* Retires it (closing its input and waiting, killing nothing) and frees its buffers. */
void worker_free(worker *w);

/*
 * The job line for `args` (n strings): a JSON array; {"layout": [...]} for a
 * layout job; {"compile": [...], "layout_output": F} for a compile that
 * records its program's layout into F too (`layout_output`, native workers
 * only); with `cwd`, an object {"cwd": CWD, "args"|"layout"|"compile": ...}
 * that the worker runs in that folder; with `share` (native workers only), the
 * object's "keep": true and "checked_as": [...] (recorder/worker_checked.h).
 * NULL when out of memory.
 */
typedef struct worker_share {
    bool keep;
    const char *const *checked_as;
    size_t checked_as_count;
} worker_share;

char *worker_job_line(const char *const *args, size_t n, bool layout, const char *layout_output,
                      const char *cwd, const worker_share *share);

/* Writes one job line (without its newline) to an idle worker and its newline. */
int worker_send_line(worker *w, const char *line, dgpb_diag *diag);

/* What worker_read_out() found. */
typedef enum worker_read {
    WORKER_READ_OK = 0,   /* read something, or nothing yet (EINTR) */
    WORKER_READ_EOF,      /* its standard output ended, or cannot be read */
    WORKER_READ_TOO_LONG, /* it printed a line longer than WORKER_ANSWER_MAX */
} worker_read;

/* Reads what its standard output has (once) into its line buffer. */
worker_read worker_read_out(worker *w);

/* The next complete line in its buffer (without its newline), or false when none. */
bool worker_next_line(const worker *w, const char **line, size_t *len);

/* Drops the line of `len` bytes worker_next_line() gave, and its newline. */
void worker_drop_line(worker *w, size_t len);

/* Reads what its standard error has (once), keeping the end; closes it at its end. */
void worker_read_err(worker *w);

/* The end of what it printed on standard error, for a message ("(nothing)" when nothing). */
void worker_err_tail(const worker *w, const char **text, int *len);

/*
 * Reads one answer line: *status, and new strings *diagnostics and *output
 * ("" when the answer has no "stdout"); *checked (when not NULL): the compile
 * came from a module the worker kept ("checked": true). DGPB_ERR_CORRUPT when
 * the line is not an answer, DGPB_ERR_NOMEM; nothing set then.
 */
int worker_parse_answer(const char *line, size_t len, int *status, char **diagnostics,
                        char **output, bool *checked);

/*
 * " while compiling entry 'e' for target 't' (job n, module 'm')" for job
 * `index` with these arguments, into buf.
 */
void worker_describe_job(const char *const *args, size_t n, bool layout, size_t index, char *buf,
                         size_t size);

/*
 * "NAME --serve worker ID (pid P) HOW DURING; its last words: ...", where
 * NAME is the base name of `program` and HOW is `what`, or says how the
 * worker ended from `status`. NULL when out of memory.
 */
char *worker_failure_message(const worker *w, const char *program, int pid, int status,
                             const char *what, const char *during);

#endif
