/*
 * io/process.h - child processes: start, feed, capture, finish, in parallel.
 *
 * The shape is git's run-command.h. The caller fills a dgpb_process,
 * initialised with DGPB_PROCESS_INIT, with an argument vector (never a shell
 * string), an optional working folder, extra environment and standard input;
 * process_start() creates the child and process_finish() feeds its
 * standard input, captures its standard output and error into separate
 * buffers and waits for it:
 *
 *     const char *argv[] = {"slangc", "k.slang", "-o", "k.spv", NULL};
 *     dgpb_process p = DGPB_PROCESS_INIT;
 *     p.argv = argv;
 *     int status = process_run(&p, &diag);   (start + finish)
 *     if (status < 0)
 *         fail(diag.message);                     (could not run it at all)
 *     else if (status != 0)
 *         show(p.err);                            (it ran and failed)
 *     process_clear(&p);                     (releases p.out and p.err)
 *
 * Return contract (git's): a failed system call, or a program that cannot be
 * executed, is -1 with `diag` filled (code DGPB_ERR_TOOL and the system's
 * reason, DGPB_ERR_NOMEM, or DGPB_ERR_INVALID for a bad argument); otherwise
 * the child's exit code, or 128 + N when signal N ended it. A failed exec is
 * reported to the parent through a close-on-exec pipe, so "cannot run
 * 'slangc': No such file or directory" is told apart from a program that
 * exits with 127.
 *
 * Output is read with poll() while standard input is written, so neither a
 * full pipe nor a large input ever deadlocks. process_run_parallel()
 * runs many children, at most J at a time, each with its own buffers, so
 * their outputs never interleave.
 *
 * With DGPB_PROCESS_PIPES the caller drives the child instead (a persistent
 * server such as `slangc-wasm --serve`): start leaves the parent's ends of
 * the three pipes in in_fd, out_fd and err_fd; process_write() writes to
 * the child; finish closes in_fd, reads what is left of the output into out
 * and err, and waits.
 *
 * Signals: writing to a child that has exited never raises SIGPIPE in the
 * caller; SIGPIPE is blocked in the writing thread for the duration of each
 * write and a SIGPIPE that write generated is consumed, so the caller's
 * disposition is never changed. Children start with SIGPIPE at its default
 * and no blocked signals. Every pipe is close-on-exec in the parent, so one
 * child never holds another child's pipe open.
 *
 * The library never installs a SIGCHLD handler; a caller that reaps children
 * itself (waitpid(-1, ...)) must not do so while these calls run.
 *
 * Ownership: argv, cwd, env and in are borrowed: they must stay valid until
 * process_start() returns (in until finish returns). out and err belong
 * to the dgpb_process and are released by process_clear(); take one by
 * copying the pointer and setting the field to NULL.
 */
#ifndef DGPB_PROCESS_H
#define DGPB_PROCESS_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define process_clear dgpb__process_clear
#define process_close_input dgpb__process_close_input
#define process_finish dgpb__process_finish
#define process_kill dgpb__process_kill
#define process_run dgpb__process_run
#define process_run_parallel dgpb__process_run_parallel
#define process_run_parallel_cancellable dgpb__process_run_parallel_cancellable
#define process_run_parallel_watched dgpb__process_run_parallel_watched
#define process_start dgpb__process_start
#define process_which dgpb__process_which
#define process_write dgpb__process_write

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The caller drives the child's pipes itself (see above). */
#define DGPB_PROCESS_PIPES 1u
/* The child leads a process group of its own, and process_kill(), process_clear()
   and a cancelled parallel run signal that whole group: the programs it starts (a compiler's
   nvcc) go with it. */
#define DGPB_PROCESS_GROUP 2u

typedef struct dgpb_process {
    /* Set by the caller. */
    const char *const *argv; /* program then arguments, NULL-terminated; required. An argv[0]
                                without '/' is looked up on the child's PATH */
    const char *cwd;         /* the child's working folder; NULL: the caller's */
    const char *const *env;  /* NULL-terminated: "NAME=VALUE" sets, "NAME" unsets; NULL: none */
    const void *in;          /* bytes for standard input; NULL or in_size 0: /dev/null */
    size_t in_size;
    unsigned flags; /* DGPB_PROCESS_* */

    /* Set by the library. */
    int pid;                   /* the child's process ID once started, else 0 */
    int in_fd, out_fd, err_fd; /* the parent's pipe ends while open, else -1 */
    char *out;                 /* captured standard output, NUL-terminated; set by finish */
    size_t out_len;
    char *err; /* captured standard error, NUL-terminated; set by finish */
    size_t err_len;
    int status; /* after finish: exit code, or 128 + signal; -1 before */

    /* Private. */
    int state_;
    int error_;
    size_t in_done_, out_cap_, err_cap_;
} dgpb_process;

/* Not started: every caller field empty, pid 0, no pipe open, status -1 (valid C and C++). */
#define DGPB_PROCESS_INIT                                                                          \
    {                                                                                              \
        NULL, NULL, NULL, NULL, 0, 0, 0, -1, -1, -1, NULL, 0, NULL, 0, -1, 0, 0, 0, 0, 0           \
    }

/*
 * Starts the child. Returns DGPB_OK, or an error code with `diag` filled:
 * DGPB_ERR_INVALID (no argv[0], or the process was started before),
 * DGPB_ERR_TOOL (the program is not found or cannot be executed, the working
 * folder cannot be entered, or a system call failed; the message names the
 * program and gives the system's reason), DGPB_ERR_NOMEM. On error nothing is
 * left open or running. `diag` may be NULL.
 */
int process_start(dgpb_process *p, dgpb_diag *diag);

/*
 * Feeds standard input, captures output and waits for the child started by
 * process_start(). Returns the child's exit status (also stored in
 * p->status): its exit code, or 128 + N for signal N; -1 with `diag` filled
 * (DGPB_ERR_TOOL, DGPB_ERR_NOMEM, DGPB_ERR_INVALID when not started) when a
 * system call or a capture buffer failed; the child is waited for in every
 * case. A child that stops reading its standard input early is not an error:
 * the rest of the input is dropped.
 */
int process_finish(dgpb_process *p, dgpb_diag *diag);

/* process_start() then process_finish(): -1 (with `diag`) or the exit status. */
int process_run(dgpb_process *p, dgpb_diag *diag);

/*
 * Runs `count` prepared processes with at most `jobs` alive at once (0: the
 * number of online processors), starting them in array order; each one's
 * status, out and err are filled as finish fills them. Returns DGPB_OK when
 * every child was started and waited for, whatever their exit statuses.
 * When one cannot be started, no further one is started, the running ones
 * are waited for, and its error is returned (the ones not started keep
 * status -1 and pid 0). DGPB_ERR_NOMEM when a capture buffer could not grow
 * (that child's status is still its exit status). `diag` may be NULL.
 */
int process_run_parallel(dgpb_process *procs, size_t count, unsigned jobs, dgpb_diag *diag);

/* Told when child `index` of a parallel run has started and when it has been waited for. */
typedef void (*dgpb_process_watch_fn)(void *user, size_t index, bool finished);

/* process_run_parallel(), telling `watch` (NULL: nobody) as each child starts and ends. */
int process_run_parallel_watched(dgpb_process *procs, size_t count, unsigned jobs,
                                 dgpb_process_watch_fn watch, void *user, dgpb_diag *diag);

/*
 * process_run_parallel_watched() that stops when *cancel turns nonzero
 * (NULL: never): it then starts no further child, kills (SIGKILL) and waits
 * for the running ones, and returns DGPB_ERR_INTERRUPTED. The flag is
 * looked at every few milliseconds, so a signal handler may set it.
 */
int process_run_parallel_cancellable(dgpb_process *procs, size_t count, unsigned jobs,
                                     dgpb_process_watch_fn watch, void *user,
                                     const volatile sig_atomic_t *cancel, dgpb_diag *diag);

/*
 * Writes all `size` bytes to the standard input of a child started with
 * DGPB_PROCESS_PIPES, blocking until they are written, without SIGPIPE.
 * Returns DGPB_OK, or DGPB_ERR_TOOL naming the program (e.g. "Broken pipe"
 * when it has exited), or DGPB_ERR_INVALID when in_fd is not open.
 */
int process_write(dgpb_process *p, const void *data, size_t size, dgpb_diag *diag);

/*
 * Closes the parent's end of the child's standard input (EOF for the child);
 * harmless when it is closed already. For DGPB_PROCESS_PIPES.
 */
void process_close_input(dgpb_process *p);

/* Sends signal `sig` to a started, unfinished child (with DGPB_PROCESS_GROUP, to its process
 * group). Returns DGPB_OK or DGPB_ERR_TOOL. */
int process_kill(dgpb_process *p, int sig, dgpb_diag *diag);

/*
 * Releases out and err and resets the record to DGPB_PROCESS_INIT, keeping
 * the caller's fields (argv, cwd, env, in, in_size, flags). A child that was
 * started and not finished is killed (SIGKILL) and waited for first, so an
 * error path never leaves a process or a pipe behind. NULL is a no-op.
 */
void process_clear(dgpb_process *p);

/*
 * Looks `name` up in a PATH-style list of folders (NULL: "/bin:/usr/bin"; an
 * empty element is the working folder) as execvp() would: the first regular,
 * executable file. A name containing '/' is returned as is when it is such a
 * file. Returns a new string (release with dgpb_free()) or NULL when not found
 * or out of memory.
 */
char *process_which(const char *name, const char *path);

#ifdef __cplusplus
}
#endif

#endif
