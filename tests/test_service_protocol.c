/*
 * test_service_protocol.c - the compile service's wire (service/service_protocol.h)
 * and its folder and identity (service/service_path.h): lines over a socket
 * pair whole, split and bounded; members read strictly; a folder that is not
 * the user's own refused; the identity changes with the files and the
 * workers' environment, and not with TMPDIR.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/alloc.h"
#include "service/service_path.h"
#include "service/service_protocol.h"
#include "support.h"

/* A connected pair: a[0] read through a service_conn bounded at `max`, a[1] written raw. */
static void pair(service_conn *c, int *raw, size_t max)
{
    int fds[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    service_conn_init(c, fds[0], max);
    *raw = fds[1];
}

static void put_raw(int fd, const char *text)
{
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
}

/* Takes the next line and checks it is `expected`. */
static void expect_line(service_conn *c, const char *expected)
{
    const char *line;
    size_t len;
    assert_true(service_conn_line(c, &line, &len));
    assert_int_equal(len, strlen(expected));
    assert_memory_equal(line, expected, len);
    service_conn_drop(c, len);
}

static void lines_come_whole_however_they_are_split(void **state)
{
    (void)state;
    service_conn c;
    int raw;
    pair(&c, &raw, 64);
    const char *line;
    size_t len;
    put_raw(raw, "{\"a\":1}\n{\"b\":");
    assert_int_equal(service_conn_read(&c), SERVICE_IO_OK);
    expect_line(&c, "{\"a\":1}");
    assert_false(service_conn_line(&c, &line, &len)); /* half a line is no line */
    put_raw(raw, "2}\n\n{\"c\":3}\n");
    assert_int_equal(service_conn_read(&c), SERVICE_IO_OK);
    expect_line(&c, "{\"b\":2}");
    expect_line(&c, "");
    expect_line(&c, "{\"c\":3}");
    assert_false(service_conn_line(&c, &line, &len));
    assert_int_equal(service_conn_read(&c), SERVICE_IO_OK); /* nothing there: no block */
    close(raw);
    assert_int_equal(service_conn_read(&c), SERVICE_IO_EOF);
    service_conn_close(&c);
    assert_int_equal(c.fd, -1);
}

static void a_line_past_the_bound_is_refused_whole_or_in_the_making(void **state)
{
    (void)state;
    char long_line[200];
    memset(long_line, 'x', sizeof long_line);
    long_line[sizeof long_line - 1] = 0;
    /* A complete line of 199 bytes, after a short one, with a bound of 100. */
    service_conn c;
    int raw;
    pair(&c, &raw, 100);
    put_raw(raw, "ok\n");
    put_raw(raw, long_line);
    put_raw(raw, "\n");
    assert_int_equal(service_conn_read(&c), SERVICE_IO_TOO_LONG);
    service_conn_close(&c);
    close(raw);
    /* A line still being received, already past the bound. */
    pair(&c, &raw, 100);
    put_raw(raw, long_line);
    assert_int_equal(service_conn_read(&c), SERVICE_IO_TOO_LONG);
    service_conn_close(&c);
    close(raw);
    /* Exactly the bound is accepted, across reads. */
    pair(&c, &raw, 100);
    long_line[100] = 0;
    put_raw(raw, long_line);
    assert_int_equal(service_conn_read(&c), SERVICE_IO_OK);
    put_raw(raw, "\n");
    assert_int_equal(service_conn_read(&c), SERVICE_IO_OK);
    expect_line(&c, long_line);
    service_conn_close(&c);
    close(raw);
}

static void messages_go_out_as_lines_and_wait_for_room(void **state)
{
    (void)state;
    service_conn c;
    int raw;
    pair(&c, &raw, 1 << 20);
    int small = 4096;
    setsockopt(c.fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "text", "line\nbreak");
    for (int i = 0; i < 2000; i++) /* far more than the socket holds */
        assert_true(service_conn_put(&c, msg));
    cJSON_Delete(msg);
    assert_int_equal(service_conn_flush(&c), SERVICE_IO_OK); /* never blocks */
    assert_true(service_conn_pending(&c));
    /* The other end reads; the rest goes out as room comes. */
    service_conn r;
    service_conn_init(&r, raw, 1 << 20);
    int lines = 0;
    for (int round = 0; round < 100000 && lines < 2000; round++) {
        assert_int_equal(service_conn_flush(&c), SERVICE_IO_OK);
        assert_int_equal(service_conn_read(&r), SERVICE_IO_OK);
        const char *line;
        size_t len;
        while (service_conn_line(&r, &line, &len)) {
            assert_int_equal(len, strlen("{\"text\":\"line\\nbreak\"}"));
            service_conn_drop(&r, len);
            lines++;
        }
    }
    assert_int_equal(lines, 2000);
    assert_false(service_conn_pending(&c));
    service_conn_close(&r);
    /* A peer that is gone: EOF, no SIGPIPE. */
    msg = cJSON_CreateObject();
    assert_true(service_conn_put(&c, msg));
    cJSON_Delete(msg);
    assert_int_equal(service_conn_flush(&c), SERVICE_IO_EOF);
    service_conn_close(&c);
}

static void members_are_read_strictly(void **state)
{
    (void)state;
    cJSON *root =
        cJSON_Parse("{\"a\":7,\"b\":-1,\"c\":1.5,\"d\":\"7\",\"e\":9007199254740992,"
                    "\"f\":9007199254740994,\"s\":[\"x\",\"y\"],\"t\":[\"x\",1],\"u\":[]}");
    assert_non_null(root);
    uint64_t v = 0;
    assert_true(service_get_id(root, "a", &v));
    assert_int_equal(v, 7);
    assert_false(service_get_id(root, "b", &v));
    assert_false(service_get_id(root, "c", &v));
    assert_false(service_get_id(root, "d", &v));
    assert_true(service_get_id(root, "e", &v));
    assert_false(service_get_id(root, "f", &v));
    assert_false(service_get_id(root, "missing", &v));
    size_t n = 0;
    bool nomem = true;
    const char **s = service_get_string_array(root, "s", &n, &nomem);
    assert_non_null(s);
    assert_false(nomem);
    assert_int_equal(n, 2);
    assert_string_equal(s[1], "y");
    assert_null(s[2]);
    dgpb_free(s);
    assert_null(service_get_string_array(root, "t", &n, &nomem));
    assert_false(nomem);
    assert_null(service_get_string_array(root, "a", &n, &nomem));
    s = service_get_string_array(root, "u", &n, &nomem);
    assert_non_null(s);
    assert_int_equal(n, 0);
    dgpb_free(s);
    cJSON_Delete(root);
}

static void a_folder_not_the_users_own_is_refused(void **state)
{
    (void)state;
    char dir[512], link[512], file[512];
    snprintf(dir, sizeof dir, "%s/folder", support_dir);
    snprintf(link, sizeof link, "%s/link", support_dir);
    snprintf(file, sizeof file, "%s/file", support_dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(service_dir_check(dir, NULL), DGPB_OK);
    dgpb_diag d;
    assert_int_equal(chmod(dir, 0750), 0);
    assert_int_equal(service_dir_check(dir, &d), DGPB_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.message, "is open to other users (mode 0750; it must be 0700)"));
    assert_int_equal(chmod(dir, 0701), 0);
    assert_int_equal(service_dir_check(dir, &d), DGPB_ERR_UNSUPPORTED);
    assert_int_equal(chmod(dir, 0700), 0);
    assert_int_equal(symlink(dir, link), 0);
    assert_int_equal(service_dir_check(link, &d), DGPB_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.message, "is a symbolic link"));
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(service_dir_check(file, &d), DGPB_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.message, "is not a folder"));
    /* DGPB_SERVICE_DIR: made when missing (0700), checked when there. */
    char made[600], got[4096];
    snprintf(made, sizeof made, "%s/made", support_dir);
    setenv("DGPB_SERVICE_DIR", made, 1);
    assert_int_equal(service_dir(got, sizeof got, NULL), DGPB_OK);
    assert_string_equal(got, made);
    struct stat st;
    assert_int_equal(lstat(made, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    setenv("DGPB_SERVICE_DIR", link, 1);
    assert_int_equal(service_dir(got, sizeof got, &d), DGPB_ERR_UNSUPPORTED);
    unsetenv("DGPB_SERVICE_DIR");
}

/* The identity of a compiler made of `compiler` (embedded), with the program `program`. */
static void identity(const char *program, const char *compiler, char hex[SERVICE_IDENTITY_HEX])
{
    service_identity_desc d = {program, compiler, true, NULL, NULL};
    assert_int_equal(service_identity(&d, hex, NULL), DGPB_OK);
    assert_int_equal(strlen(hex), 64);
}

static void the_identity_follows_the_files_and_the_workers_environment(void **state)
{
    (void)state;
    char folder[512], compiler[600], lib[600], program[600], other[600];
    snprintf(folder, sizeof folder, "%s/compiler", support_dir);
    snprintf(compiler, sizeof compiler, "%s/slangc-wasm", folder);
    snprintf(lib, sizeof lib, "%s/lib", folder);
    snprintf(program, sizeof program, "%s/dgpb-build", support_dir);
    snprintf(other, sizeof other, "%s/lib/compile.js", folder);
    assert_int_equal(mkdir(folder, 0700), 0);
    assert_int_equal(mkdir(lib, 0700), 0);
    const char *files[] = {compiler, program, other};
    for (size_t i = 0; i < 3; i++) {
        FILE *f = fopen(files[i], "w");
        assert_non_null(f);
        fputs("v1", f);
        fclose(f);
    }
    char a[SERVICE_IDENTITY_HEX], b[SERVICE_IDENTITY_HEX];
    identity(program, compiler, a);
    identity(program, compiler, b);
    assert_string_equal(a, b); /* nothing changed */
    /* A file of the compiler (under lib/) with a new modification time. */
    struct timespec times[2] = {{0, UTIME_OMIT}, {1000000, 0}};
    assert_int_equal(utimensat(AT_FDCWD, other, times, 0), 0);
    identity(program, compiler, b);
    assert_string_not_equal(a, b);
    /* The program. */
    memcpy(a, b, sizeof a);
    assert_int_equal(utimensat(AT_FDCWD, program, times, 0), 0);
    identity(program, compiler, b);
    assert_string_not_equal(a, b);
    /* The environment, the temporary folder included; not the variables left out
       (service_env_ignored: a make's jobserver flags differ on every run). */
    memcpy(a, b, sizeof a);
    const char *path = getenv("PATH");
    char *saved = strdup(path ? path : "");
    setenv("PATH", "/nonexistent", 1);
    identity(program, compiler, b);
    assert_string_not_equal(a, b);
    setenv("PATH", saved, 1);
    free(saved);
    identity(program, compiler, b);
    assert_string_equal(a, b);
    setenv("MAKEFLAGS", " -j8 --jobserver-auth=3,4", 1);
    identity(program, compiler, b);
    assert_string_equal(a, b);
    unsetenv("MAKEFLAGS");
    const char *tmp = getenv("TMPDIR");
    char *saved_tmp = tmp ? strdup(tmp) : NULL;
    setenv("TMPDIR", "/var/tmp", 1);
    identity(program, compiler, b);
    assert_string_not_equal(a, b);
    if (saved_tmp)
        setenv("TMPDIR", saved_tmp, 1);
    else
        unsetenv("TMPDIR");
    free(saved_tmp);
    identity(program, compiler, b);
    assert_string_equal(a, b);
    setenv("SLANG_ROOT", "/opt/slang", 1);
    identity(program, compiler, b);
    assert_string_not_equal(a, b);
    unsetenv("SLANG_ROOT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_come_whole_however_they_are_split),
        cmocka_unit_test(a_line_past_the_bound_is_refused_whole_or_in_the_making),
        cmocka_unit_test(messages_go_out_as_lines_and_wait_for_room),
        cmocka_unit_test(members_are_read_strictly),
        cmocka_unit_test(a_folder_not_the_users_own_is_refused),
        cmocka_unit_test(the_identity_follows_the_files_and_the_workers_environment),
    };
    return cmocka_run_group_tests(tests, support_dir_setup, support_dir_teardown);
}
