/*
 * test_process.c - child processes: exit statuses, signals, exec failures,
 * large outputs and inputs without deadlock, environment and working folder,
 * caller-driven pipes, and bounded parallel runs with separate outputs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "io/process.h"
#include "support.h"

static const char *const dir = support_dir; /* the program's temporary folder */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs `/bin/sh -c script` and returns its status; out/err stay in *p (clear it). */
static int run_sh(dgpb_process *p, const char *script, dgpb_diag *d)
{
    static const char *argv[4];
    argv[0] = "/bin/sh";
    argv[1] = "-c";
    argv[2] = script;
    argv[3] = NULL;
    *p = (dgpb_process)DGPB_PROCESS_INIT;
    p->argv = argv;
    return process_run(p, d);
}

static void exit_codes_are_returned_as_they_are(void **state)
{
    (void)state;
    static const struct {
        const char *script;
        int status;
    } cases[] = {
        {"exit 0", 0}, {"exit 1", 1}, {"exit 3", 3}, {"exit 127", 127}, {"exit 255", 255},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dgpb_process p;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        assert_int_equal(run_sh(&p, cases[i].script, &d), cases[i].status);
        assert_int_equal(p.status, cases[i].status);
        assert_int_equal(d.code, DGPB_OK); /* exiting 127 is not an exec failure */
        process_clear(&p);
    }
}

static void a_signal_is_128_plus_its_number(void **state)
{
    (void)state;
    dgpb_process p;
    assert_int_equal(run_sh(&p, "kill -TERM $$", NULL), 128 + SIGTERM);
    process_clear(&p);
    assert_int_equal(run_sh(&p, "kill -KILL $$", NULL), 128 + SIGKILL);
    process_clear(&p);
}

static void a_missing_program_is_an_error_that_names_it(void **state)
{
    (void)state;
    const char *on_path[] = {"dgpb-no-such-program", "-v", NULL};
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = on_path;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(process_run(&p, &d), -1);
    assert_int_equal(d.code, DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "'dgpb-no-such-program'"));
    assert_int_equal(p.pid, 0);
    process_clear(&p);

    /* A path goes to execve, whose errno comes back through the close-on-exec pipe. */
    const char *by_path[] = {"/nonexistent/dgpb-prog", NULL};
    p = (dgpb_process)DGPB_PROCESS_INIT;
    p.argv = by_path;
    assert_int_equal(process_start(&p, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "cannot run '/nonexistent/dgpb-prog'"));
    assert_non_null(strstr(d.message, strerror(ENOENT)));
    process_clear(&p);

    char script[300];
    snprintf(script, sizeof script, "%s/not-executable", dir);
    support_write_file(script, "#!/bin/sh\nexit 0\n", 0644);
    const char *not_exec[] = {script, NULL};
    p = (dgpb_process)DGPB_PROCESS_INIT;
    p.argv = not_exec;
    assert_int_equal(process_start(&p, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, script));
    assert_non_null(strstr(d.message, strerror(EACCES)));
    process_clear(&p);
}

static void the_child_runs_in_the_given_folder_with_the_given_environment(void **state)
{
    (void)state;
    const char *argv[] = {"/bin/sh", "-c", "pwd; echo \"$DGPB_T1:${DGPB_T2-unset}:$DGPB_T3\"",
                          NULL};
    const char *env[] = {"DGPB_T1=one", "DGPB_T2", "DGPB_T3=old", "DGPB_T3=new", NULL};
    setenv("DGPB_T2", "inherited", 1);
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = argv;
    p.cwd = dir;
    p.env = env;
    assert_int_equal(process_run(&p, NULL), 0);
    char want[400];
    char real[300];
    assert_non_null(realpath(dir, real));
    snprintf(want, sizeof want, "%s\none:unset:new\n", real);
    assert_string_equal(p.out, want);
    process_clear(&p);
    unsetenv("DGPB_T2");

    /* A missing folder is reported, naming it. */
    p = (dgpb_process)DGPB_PROCESS_INIT;
    p.argv = argv;
    p.cwd = "/nonexistent/dgpb-folder";
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(process_run(&p, &d), -1);
    assert_non_null(strstr(d.message, "/nonexistent/dgpb-folder"));
    process_clear(&p);
}

static void a_bare_name_is_found_on_the_childs_path(void **state)
{
    (void)state;
    char bin[300], prog[340], path_env[320];
    snprintf(bin, sizeof bin, "%s/bin", dir);
    mkdir(bin, 0755);
    snprintf(prog, sizeof prog, "%s/dgpb-hello", bin);
    support_write_file(prog, "#!/bin/sh\necho hello from path\n", 0755);
    snprintf(path_env, sizeof path_env, "PATH=/nonexistent:%s", bin);
    const char *argv[] = {"dgpb-hello", NULL};
    const char *env[] = {path_env, NULL};
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = argv;
    p.env = env;
    assert_int_equal(process_run(&p, NULL), 0);
    assert_string_equal(p.out, "hello from path\n");
    process_clear(&p);

    char *found = process_which("dgpb-hello", path_env + 5);
    assert_string_equal(found, prog);
    dgpb_free(found);
    assert_null(process_which("dgpb-hello", "/nonexistent"));
    assert_null(process_which("", "/bin"));
}

static void megabytes_on_both_streams_do_not_deadlock(void **state)
{
    (void)state;
    /* 3 MiB on standard error first: a parent reading only stdout would block forever. */
    dgpb_process p;
    assert_int_equal(run_sh(&p,
                            "head -c 3145728 /dev/zero | tr '\\0' e >&2; "
                            "head -c 2097152 /dev/zero | tr '\\0' o; "
                            "head -c 1048576 /dev/zero | tr '\\0' e >&2",
                            NULL),
                     0);
    assert_int_equal(p.out_len, 2097152);
    assert_int_equal(p.err_len, 4194304);
    assert_int_equal(strlen(p.out), p.out_len);
    assert_int_equal(p.out[0], 'o');
    assert_int_equal(p.err[p.err_len - 1], 'e');
    process_clear(&p);
}

static void standard_input_is_fed_from_a_buffer(void **state)
{
    (void)state;
    size_t size = 5u << 20;
    char *in = malloc(size);
    assert_non_null(in);
    for (size_t i = 0; i < size; i++)
        in[i] = (char)('a' + i % 26);
    const char *cat[] = {"cat", NULL};
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = cat;
    p.in = in;
    p.in_size = size;
    assert_int_equal(process_run(&p, NULL), 0); /* cat echoes while we feed */
    assert_int_equal(p.out_len, size);
    assert_memory_equal(p.out, in, size);
    process_clear(&p);

    /* A child that reads a little and exits: the rest is dropped, no SIGPIPE here. */
    const char *head[] = {"head", "-c", "10", NULL};
    p = (dgpb_process)DGPB_PROCESS_INIT;
    p.argv = head;
    p.in = in;
    p.in_size = size;
    assert_int_equal(process_run(&p, NULL), 0);
    assert_string_equal(p.out, "abcdefghij");
    process_clear(&p);

    /* Without input, standard input is /dev/null. */
    p = (dgpb_process)DGPB_PROCESS_INIT;
    p.argv = cat;
    assert_int_equal(process_run(&p, NULL), 0);
    assert_int_equal(p.out_len, 0);
    assert_string_equal(p.out, "");
    process_clear(&p);
    free(in);

    sigset_t pending;
    sigpending(&pending);
    assert_false(sigismember(&pending, SIGPIPE));
}

static void caller_driven_pipes_talk_to_the_child(void **state)
{
    (void)state;
    const char *cat[] = {"cat", NULL};
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = cat;
    p.flags = DGPB_PROCESS_PIPES;
    assert_int_equal(process_start(&p, NULL), DGPB_OK);
    assert_true(p.in_fd > 2 && p.out_fd > 2 && p.err_fd > 2);
    assert_int_equal(process_write(&p, "one\n", 4, NULL), DGPB_OK);
    char buf[8] = "";
    assert_int_equal(read(p.out_fd, buf, 4), 4); /* answered before the input ends */
    assert_memory_equal(buf, "one\n", 4);
    assert_int_equal(process_write(&p, "two\n", 4, NULL), DGPB_OK);
    assert_int_equal(process_finish(&p, NULL), 0); /* closes input, reads the rest */
    assert_string_equal(p.out, "two\n");
    process_clear(&p);

    /* Writing to a child that has exited: an error, and this process lives on. */
    const char *quit[] = {"/bin/sh", "-c", "exit 0", NULL};
    p = (dgpb_process)DGPB_PROCESS_INIT;
    p.argv = quit;
    p.flags = DGPB_PROCESS_PIPES;
    assert_int_equal(process_start(&p, NULL), DGPB_OK);
    char eof;
    assert_int_equal(read(p.out_fd, &eof, 1), 0); /* it has exited */
    dgpb_diag d;
    dgpb_diag_clear(&d);
    /* Its stdin's last reference may be released just after its stdout's: wait for POLLERR. */
    struct pollfd pfd = {p.in_fd, POLLOUT, 0};
    for (double t0 = now(); !(pfd.revents & POLLERR) && now() - t0 < 5.0;)
        poll(&pfd, 1, 10);
    assert_int_equal(process_write(&p, "x\n", 2, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, strerror(EPIPE)));
    assert_int_equal(process_finish(&p, NULL), 0);
    process_clear(&p);
}

static void a_child_never_holds_another_childs_pipes(void **state)
{
    (void)state;
    const char *cat[] = {"cat", NULL};
    const char *sleeper[] = {"sleep", "20", NULL};
    dgpb_process a = DGPB_PROCESS_INIT, b = DGPB_PROCESS_INIT;
    a.argv = cat;
    a.flags = DGPB_PROCESS_PIPES;
    b.argv = sleeper;
    b.flags = DGPB_PROCESS_PIPES;
    assert_int_equal(process_start(&a, NULL), DGPB_OK);
    assert_int_equal(process_start(&b, NULL), DGPB_OK);
    /* Were a's stdin inherited by b, cat would wait for b's 20 seconds: it must end while b
     * still runs. */
    assert_int_equal(process_finish(&a, NULL), 0);
    int b_status = 0;
    assert_int_equal(waitpid(b.pid, &b_status, WNOHANG), 0);
    process_clear(&a);
    pid_t b_pid = b.pid;
    process_clear(&b);          /* unfinished: killed and waited for */
    assert_int_equal(b.pid, 0); /* reset to DGPB_PROCESS_INIT */
    errno = 0;
    assert_int_equal(waitpid(b_pid, &b_status, WNOHANG), -1); /* already reaped */
    assert_int_equal(errno, ECHILD);
}

static void misuse_is_reported_not_crashed(void **state)
{
    (void)state;
    dgpb_process p = DGPB_PROCESS_INIT;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(process_start(&p, &d), DGPB_ERR_INVALID);
    assert_int_equal(process_finish(&p, &d), -1);
    assert_int_equal(d.code, DGPB_ERR_INVALID);
    assert_int_equal(process_write(&p, "x", 1, &d), DGPB_ERR_INVALID);
    assert_int_equal(process_kill(&p, SIGTERM, &d), DGPB_ERR_INVALID);
    const char *t[] = {"true", NULL};
    p.argv = t;
    assert_int_equal(process_run(&p, NULL), 0);
    assert_int_equal(process_start(&p, &d), DGPB_ERR_INVALID); /* started already */
    process_clear(&p);
    assert_ptr_equal(p.argv, t); /* the caller's fields are kept */
    assert_int_equal(process_run(&p, NULL), 0);
    process_clear(&p);
    process_clear(NULL);
}

#define PAR_COUNT 8
#define PAR_JOBS 3

static void parallel_runs_are_bounded_and_keep_outputs_apart(void **state)
{
    (void)state;
    /* Each child marks itself running, counts the running ones, and writes
     * 20000 lines of its own letter on both streams while the others do. */
    char scripts[PAR_COUNT][700];
    const char *argvs[PAR_COUNT][4];
    dgpb_process procs[PAR_COUNT];
    for (int i = 0; i < PAR_COUNT; i++) {
        snprintf(scripts[i], sizeof scripts[i],
                 "d='%s'; touch \"$d/run.%d\"; ls \"$d\" | grep -c '^run\\.' >> \"$d/counts\"; "
                 "yes %c | head -n 20000; yes %c | head -n 20000 >&2; sleep 0.5; "
                 "ls \"$d\" | grep -c '^run\\.' >> \"$d/counts\"; rm \"$d/run.%d\"; exit %d",
                 dir, i, 'A' + i, 'a' + i, i, i);
        argvs[i][0] = "/bin/sh";
        argvs[i][1] = "-c";
        argvs[i][2] = scripts[i];
        argvs[i][3] = NULL;
        procs[i] = (dgpb_process)DGPB_PROCESS_INIT;
        procs[i].argv = argvs[i];
    }
    assert_int_equal(process_run_parallel(procs, PAR_COUNT, PAR_JOBS, NULL), DGPB_OK);
    for (int i = 0; i < PAR_COUNT; i++) {
        assert_int_equal(procs[i].status, i);
        assert_int_equal(procs[i].out_len, 40000);
        assert_int_equal(procs[i].err_len, 40000);
        for (size_t k = 0; k < 40000; k += 2) {
            if (procs[i].out[k] != 'A' + i || procs[i].err[k] != 'a' + i)
                fail_msg("child %d's output is mixed at byte %zu", i, k);
        }
        process_clear(&procs[i]);
    }
    char counts[300];
    snprintf(counts, sizeof counts, "%s/counts", dir);
    FILE *f = fopen(counts, "r");
    assert_non_null(f);
    int n, max = 0, lines = 0;
    while (fscanf(f, "%d", &n) == 1) {
        max = n > max ? n : max;
        lines++;
    }
    fclose(f);
    assert_int_equal(lines, 2 * PAR_COUNT);
    assert_true(max <= PAR_JOBS);
    assert_true(max >= 2); /* they did run side by side */
}

static void parallel_runs_stop_at_a_child_that_cannot_start(void **state)
{
    (void)state;
    const char *ok[] = {"/bin/sh", "-c", "echo fine", NULL};
    const char *missing[] = {"dgpb-no-such-program", NULL};
    dgpb_process procs[5];
    for (int i = 0; i < 5; i++) {
        procs[i] = (dgpb_process)DGPB_PROCESS_INIT;
        procs[i].argv = i == 2 ? missing : ok;
    }
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(process_run_parallel(procs, 5, 2, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "dgpb-no-such-program"));
    for (int i = 0; i < 2; i++) {
        assert_int_equal(procs[i].status, 0);
        assert_string_equal(procs[i].out, "fine\n");
    }
    for (int i = 2; i < 5; i++) {
        assert_int_equal(procs[i].status, -1);
        assert_int_equal(procs[i].pid, 0);
    }
    for (int i = 0; i < 5; i++)
        process_clear(&procs[i]);
    assert_int_equal(process_run_parallel(NULL, 0, 4, NULL), DGPB_OK);
}

/* ---- cancelling a parallel run ------------------------------------------- */

static volatile sig_atomic_t cancel_flag;

static void on_alarm(int sig)
{
    (void)sig;
    cancel_flag = 1;
}

/* Whether process `pid` is gone (or dead, waiting to be reaped). */
static bool process_gone(long pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    const char *end = strrchr(stat, ')');
    return end && end[1] == ' ' && end[2] == 'Z';
}

static void a_cancelled_parallel_run_kills_its_children_with_their_groups(void **state)
{
    (void)state;
    char pid_file[300], script[600];
    snprintf(pid_file, sizeof pid_file, "%s/grandchild.pid", dir);
    snprintf(script, sizeof script, "sleep 30 & echo $! > '%s'; wait", pid_file);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    dgpb_process procs[3];
    for (int i = 0; i < 3; i++) {
        procs[i] = (dgpb_process)DGPB_PROCESS_INIT;
        procs[i].argv = argv;
        procs[i].flags = DGPB_PROCESS_GROUP;
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    cancel_flag = 0;
    alarm(1); /* a signal handler sets the flag, as dgpb-build's do */
    double start = now();
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(process_run_parallel_cancellable(procs, 3, 2, NULL, NULL, &cancel_flag, &d),
                     DGPB_ERR_INTERRUPTED);
    sigaction(SIGALRM, &old, NULL);
    assert_true(now() - start < 5);
    assert_int_equal(procs[0].status, 128 + SIGKILL);
    assert_int_equal(procs[2].status, -1); /* never started */
    FILE *f = fopen(pid_file, "r");
    assert_non_null(f);
    long grandchild = 0;
    assert_int_equal(fscanf(f, "%ld", &grandchild), 1);
    fclose(f);
    bool gone = false;
    for (int i = 0; i < 40 && !gone; i++) { /* init reaps it */
        gone = process_gone(grandchild);
        if (!gone)
            usleep(50000);
    }
    assert_true(gone);
    for (int i = 0; i < 3; i++)
        process_clear(&procs[i]);
}

/* ---- allocation failures -------------------------------------------------- */

static void every_allocation_failure_is_reported_and_leaks_nothing(void **state)
{
    (void)state;
    const char *argv[] = {"/bin/sh", "-c", "head -c 200000 /dev/zero; echo err >&2", NULL};
    const char *env[] = {"DGPB_T=1", NULL};
    int status = -1;
    long n;
    for (n = 0; n < 1000 && status < 0; n++) {
        support_faults_arm(n);
        dgpb_process p = DGPB_PROCESS_INIT;
        p.argv = argv;
        p.env = env;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        status = process_run(&p, &d);
        if (status < 0)
            assert_int_equal(d.code, DGPB_ERR_NOMEM);
        else
            assert_int_equal(p.out_len, 200000);
        process_clear(&p);
    }
    support_faults_disarm();
    assert_int_equal(status, 0);
    assert_true(n > 4); /* the loop did fail allocations */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exit_codes_are_returned_as_they_are),
        cmocka_unit_test(a_signal_is_128_plus_its_number),
        cmocka_unit_test(a_missing_program_is_an_error_that_names_it),
        cmocka_unit_test(the_child_runs_in_the_given_folder_with_the_given_environment),
        cmocka_unit_test(a_bare_name_is_found_on_the_childs_path),
        cmocka_unit_test(megabytes_on_both_streams_do_not_deadlock),
        cmocka_unit_test(standard_input_is_fed_from_a_buffer),
        cmocka_unit_test(caller_driven_pipes_talk_to_the_child),
        cmocka_unit_test(a_child_never_holds_another_childs_pipes),
        cmocka_unit_test(misuse_is_reported_not_crashed),
        cmocka_unit_test(parallel_runs_are_bounded_and_keep_outputs_apart),
        cmocka_unit_test(parallel_runs_stop_at_a_child_that_cannot_start),
        cmocka_unit_test(a_cancelled_parallel_run_kills_its_children_with_their_groups),
        cmocka_unit_test(every_allocation_failure_is_reported_and_leaks_nothing),
    };
    return cmocka_run_group_tests(tests, support_dir_setup, support_dir_teardown);
}
