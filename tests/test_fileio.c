/*
 * test_fileio.c - whole-file reads, atomic writes and output units.
 */
#define _GNU_SOURCE /* flock */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <errno.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "core/fileio_internal.h"
#include "core/io_fault.h"
#include "support.h"

static const char *const dir = support_dir; /* the program's temporary folder */

static int count_entries(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void atomic_write_replaces_the_file_and_leaves_no_temporary(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/a.bin", dir);
    assert_int_equal(dgpb_file_write_atomic(path, "old", 3, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_write_atomic(path, "new!", 4, NULL), DGPB_OK);
    uint8_t *data = NULL;
    size_t size = 0;
    assert_int_equal(dgpb_file_read(path, 100, &data, &size, NULL), DGPB_OK);
    assert_int_equal(size, 4);
    assert_memory_equal(data, "new!", 4);
    assert_int_equal(data[4], 0);
    dgpb_free(data);
    assert_int_equal(count_entries(dir), 1);
}

static void assert_file_holds(const char *path, const char *text)
{
    uint8_t *got = NULL;
    size_t size = 0;
    assert_int_equal(dgpb_file_read(path, 100, &got, &size, NULL), DGPB_OK);
    assert_int_equal(size, strlen(text));
    assert_memory_equal(got, text, size);
    dgpb_free(got);
}

static int fail_renames_of(const char *step, const char *path, void *user)
{
    return !strcmp(step, "rename") && !strcmp(path, (const char *)user) ? EIO : 0;
}

static void a_failed_atomic_write_changes_nothing_and_leaves_no_temporary(void **state)
{
    (void)state;
    char sub[300], a[400], missing[400];
    snprintf(sub, sizeof sub, "%s/failed", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(a, sizeof a, "%s/y.dgpb", sub);
    snprintf(missing, sizeof missing, "%s/missing-dir/y.bundle.json", sub);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    /* A folder that is not there: the message names the file. */
    assert_int_equal(dgpb_file_write_atomic(missing, "BBBB", 4, &d), DGPB_ERR_IO);
    assert_non_null(strstr(d.message, "missing-dir/y.bundle.json"));
    assert_int_equal(count_entries(sub), 0);
    /* A failed rename: no file where there was none, the old one where there was one. */
    io_fault_set(fail_renames_of, a);
    int rc = dgpb_file_write_atomic(a, "AAAA", 4, &d);
    io_fault_set(NULL, NULL);
    assert_int_equal(rc, DGPB_ERR_IO);
    assert_non_null(strstr(d.message, "cannot replace"));
    assert_int_equal(count_entries(sub), 0);
    assert_int_equal(dgpb_file_write_atomic(a, "old a", 5, NULL), DGPB_OK);
    io_fault_set(fail_renames_of, a);
    rc = dgpb_file_write_atomic(a, "AAAA", 4, &d);
    io_fault_set(NULL, NULL);
    assert_int_equal(rc, DGPB_ERR_IO);
    assert_file_holds(a, "old a");
    assert_int_equal(count_entries(sub), 1);
    /* A destination that is a folder, which no rename replaces. */
    assert_int_equal(remove(a), 0);
    assert_int_equal(mkdir(a, 0755), 0);
    assert_int_equal(dgpb_file_write_atomic(a, "AAAA", 4, &d), DGPB_ERR_IO);
    assert_int_equal(count_entries(sub), 1);
    assert_int_equal(count_entries(a), 0);
}

static void reading_names_the_file_and_the_reason(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/nope", dir);
    uint8_t *data = NULL;
    size_t size = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_file_read(path, 100, &data, &size, &d), DGPB_ERR_IO);
    assert_non_null(strstr(d.message, "cannot open"));
    assert_non_null(strstr(d.message, "No such file or directory"));
    assert_int_equal(dgpb_file_read(dir, 100, &data, &size, &d), DGPB_ERR_IO);
    assert_non_null(strstr(d.message, "is a directory"));
    snprintf(path, sizeof path, "%s/big", dir);
    char buf[5000];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(dgpb_file_write_atomic(path, buf, sizeof buf, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_read(path, 4999, &data, &size, &d), DGPB_ERR_LIMIT);
    assert_null(data);
    assert_int_equal(dgpb_file_read(path, 5000, &data, &size, &d), DGPB_OK);
    assert_int_equal(size, 5000);
    dgpb_free(data);
}

/* The cache's reads: a FIFO, a folder or a link is "not a regular file" at once, never waited
   on (alarm: a blocking open() ends the test instead of hanging it). */
static void reading_a_regular_file_never_waits_on_a_fifo_folder_or_link(void **state)
{
    (void)state;
    char fifo[300], link[300], file[300], none[300];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(file, sizeof file, "%s/file", dir);
    snprintf(none, sizeof none, "%s/none", dir);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    assert_int_equal(dgpb_file_write_atomic(file, "abc", 3, NULL), DGPB_OK);
    assert_int_equal(symlink(file, link), 0);
    uint8_t *data = NULL;
    size_t size = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    alarm(10);
    assert_int_equal(fileio_read_regular(fifo, 100, &data, &size, &d), DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "is not a regular file"));
    alarm(0);
    assert_int_equal(fileio_read_regular(dir, 100, &data, &size, &d), DGPB_ERR_CORRUPT);
    assert_int_equal(fileio_read_regular(link, 100, &data, &size, &d), DGPB_ERR_CORRUPT);
    assert_int_equal(fileio_read_regular(none, 100, &data, &size, &d), DGPB_ERR_NOT_FOUND);
    assert_null(data);
    assert_int_equal(fileio_read_regular(file, 100, &data, &size, &d), DGPB_OK);
    assert_int_equal(size, 3);
    assert_memory_equal(data, "abc", 3);
    dgpb_free(data);
    unlink(fifo);
    unlink(link);
    unlink(file);
}

/* The largest single request the library made of the counting allocator. */
static size_t largest_request;

static void *counting_alloc(size_t size, void *user)
{
    (void)user;
    largest_request = size > largest_request ? size : largest_request;
    return malloc(size);
}

static void *counting_realloc(void *ptr, size_t size, void *user)
{
    (void)user;
    largest_request = size > largest_request ? size : largest_request;
    return realloc(ptr, size);
}

static void counting_free(void *ptr, void *user)
{
    (void)user;
    free(ptr);
}

/*
 * dgpb_file_read: a FIFO nobody writes opens at once and reads as empty (a key file that is
 * a FIFO hung the build on a blocking open); a pipe with a writer is read to its end; a file
 * over the limit is refused before anything of its size is allocated (a 2 GiB sparse file
 * with a 1026-byte limit reached 2.1 GB resident), and a stream over it once the limit and
 * a byte are read.
 */
static void reading_is_bounded_and_never_waits_for_a_writer(void **state)
{
    (void)state;
    char fifo[300], sparse[300];
    snprintf(fifo, sizeof fifo, "%s/key-fifo", dir);
    snprintf(sparse, sizeof sparse, "%s/sparse", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    uint8_t *data = NULL;
    size_t size = 7;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    alarm(10);
    assert_int_equal(dgpb_file_read(fifo, 1026, &data, &size, &d), DGPB_OK);
    alarm(0);
    assert_int_equal(size, 0);
    dgpb_free(data);

    int fd = open(sparse, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)2 << 30), 0);
    close(fd);
    dgpb_allocator counting = {counting_alloc, counting_realloc, counting_free, NULL};
    largest_request = 0;
    dgpb_set_allocator(&counting);
    data = NULL;
    int rc = dgpb_file_read(sparse, 1026, &data, &size, &d);
    dgpb_set_allocator(NULL);
    assert_int_equal(rc, DGPB_ERR_LIMIT);
    assert_non_null(strstr(d.message, "is larger than 1026 bytes"));
    assert_null(data);
    assert_true(largest_request < 4096);
    unlink(sparse);

    /* a pipe of 100 000 bytes, limit 1000: refused, having held at most the limit and two */
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(p[0]);
        static char block[1000];
        memset(block, 'x', sizeof block);
        for (int i = 0; i < 100; i++)
            if (write(p[1], block, sizeof block) != (ssize_t)sizeof block)
                break;
        _exit(0);
    }
    close(p[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", p[0]);
    largest_request = 0;
    dgpb_set_allocator(&counting);
    rc = dgpb_file_read(path, 1000, &data, &size, &d);
    dgpb_set_allocator(NULL);
    close(p[0]);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    assert_int_equal(rc, DGPB_ERR_LIMIT);
    assert_true(largest_request <= 1002);
    unlink(fifo);
}

/* ---- output units ---- */

/* A fresh folder <dir>/<name> in `out`. */
static void unit_folder(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s", dir, name);
    assert_int_equal(mkdir(out, 0755), 0);
}

static void assert_file_is(const char *path, const char *want)
{
    uint8_t *got = NULL;
    size_t size = 0;
    assert_int_equal(dgpb_file_read(path, 1000, &got, &size, NULL), DGPB_OK);
    assert_int_equal(size, strlen(want));
    assert_memory_equal(got, want, size);
    dgpb_free(got);
}

/* Every entry of a folder, dot files included. */
static int count_all(const char *path)
{
    DIR *d = opendir(path);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void unit_write_replaces_every_file_and_leaves_nothing_else(void **state)
{
    (void)state;
    char f[300], a[400], b[400], journal[400];
    unit_folder("unit-ok", f, sizeof f);
    snprintf(a, sizeof a, "%s/x.dgpb", f);
    snprintf(b, sizeof b, "%s/x.bundle.json", f);
    snprintf(journal, sizeof journal, "%s/.x.dgpb-journal", f);
    dgpb_file_unit unit = {.journal = journal};
    const char *paths[2] = {a, b};
    const void *data[2] = {"old a", "old b"};
    size_t sizes[2] = {5, 5};
    assert_int_equal(dgpb_file_unit_write(&unit, 2, paths, data, sizes, NULL), DGPB_OK);
    const void *next[2] = {"new a", "new b"};
    assert_int_equal(dgpb_file_unit_write(&unit, 2, paths, next, sizes, NULL), DGPB_OK);
    assert_file_is(a, "new a");
    assert_file_is(b, "new b");
    assert_int_equal(count_all(f), 2);
}

static void a_unit_whose_second_rename_fails_keeps_the_first_file(void **state)
{
    (void)state;
    char f[300], a[400], b[400], journal[400];
    unit_folder("unit-folder", f, sizeof f);
    snprintf(a, sizeof a, "%s/x.dgpb", f);
    snprintf(b, sizeof b, "%s/x.bundle.json", f);
    snprintf(journal, sizeof journal, "%s/.x.dgpb-journal", f);
    assert_int_equal(dgpb_file_write_atomic(a, "old a", 5, NULL), DGPB_OK);
    assert_int_equal(mkdir(b, 0755), 0);
    dgpb_file_unit unit = {.journal = journal};
    const char *paths[2] = {a, b};
    const void *data[2] = {"new a", "new b"};
    size_t sizes[2] = {5, 5};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_file_unit_write(&unit, 2, paths, data, sizes, &d), DGPB_ERR_IO);
    assert_non_null(strstr(d.message, "x.bundle.json"));
    assert_file_is(a, "old a");
    assert_int_equal(count_all(f), 2); /* x.dgpb and the folder: no temporary, no journal */
}

/* Writes a journal by hand: `files` records of {path, temp, backup}; `complete`: its end mark. */
static void write_journal(const char *journal, const char *const (*records)[3], size_t files,
                          bool complete)
{
    FILE *j = fopen(journal, "wb");
    assert_non_null(j);
    fprintf(j, "dgpb-unit 1\n%zu\n", files);
    for (size_t i = 0; i < files; i++)
        for (int k = 0; k < 3; k++)
            fwrite(records[i][k], 1, strlen(records[i][k]) + 1, j);
    if (complete)
        fputs("end\n", j);
    fclose(j);
}

static void recovery_completes_a_replacement_that_a_killed_writer_left(void **state)
{
    (void)state;
    char f[300], a[400], b[400], ta[420], tb[420], ba[420], bb[420], journal[400];
    unit_folder("unit-killed", f, sizeof f);
    snprintf(a, sizeof a, "%s/x.dgpb", f);
    snprintf(b, sizeof b, "%s/x.bundle.json", f);
    snprintf(ta, sizeof ta, "%s.tmp.AAAAAA", a);
    snprintf(tb, sizeof tb, "%s.tmp.BBBBBB", b);
    snprintf(ba, sizeof ba, "%s.old.AAAAAA", a);
    snprintf(bb, sizeof bb, "%s.old.BBBBBB", b);
    snprintf(journal, sizeof journal, "%s/.x.dgpb-journal", f);
    /* Killed after the first rename: a is new, b's new bytes wait in its temporary. */
    assert_int_equal(dgpb_file_write_atomic(a, "new a", 5, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_write_atomic(ba, "old a", 5, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_write_atomic(b, "old b", 5, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_write_atomic(bb, "old b", 5, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_write_atomic(tb, "new b", 5, NULL), DGPB_OK);
    const char *const records[2][3] = {{a, ta, ba}, {b, tb, bb}};
    write_journal(journal, records, 2, true);
    dgpb_file_unit unit = {.journal = journal};
    assert_int_equal(dgpb_file_unit_recover(&unit, NULL), DGPB_OK);
    assert_file_is(a, "new a");
    assert_file_is(b, "new b");
    assert_int_equal(count_all(f), 2);
}

static void recovery_undoes_a_replacement_it_cannot_complete(void **state)
{
    (void)state;
    char f[300], a[400], b[400], ta[420], tb[420], ba[420], journal[400];
    unit_folder("unit-undo", f, sizeof f);
    snprintf(a, sizeof a, "%s/x.dgpb", f);
    snprintf(b, sizeof b, "%s/x.bundle.json", f);
    snprintf(ta, sizeof ta, "%s.tmp.AAAAAA", a);
    snprintf(tb, sizeof tb, "%s.tmp.BBBBBB", b);
    snprintf(ba, sizeof ba, "%s.old.AAAAAA", a);
    snprintf(journal, sizeof journal, "%s/.x.dgpb-journal", f);
    /* a replaced, and b's destination has become a folder: a gets its old bytes back. */
    assert_int_equal(dgpb_file_write_atomic(a, "new a", 5, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_write_atomic(ba, "old a", 5, NULL), DGPB_OK);
    assert_int_equal(mkdir(b, 0755), 0);
    assert_int_equal(dgpb_file_write_atomic(tb, "new b", 5, NULL), DGPB_OK);
    const char *const records[2][3] = {{a, ta, ba}, {b, tb, ""}};
    write_journal(journal, records, 2, true);
    dgpb_file_unit unit = {.journal = journal};
    assert_int_equal(dgpb_file_unit_recover(&unit, NULL), DGPB_OK);
    assert_file_is(a, "old a");
    assert_int_equal(count_all(f), 2); /* x.dgpb and the folder */
}

static void a_journal_without_its_end_mark_changes_nothing(void **state)
{
    (void)state;
    char f[300], a[400], ta[420], journal[400];
    unit_folder("unit-uncommitted", f, sizeof f);
    snprintf(a, sizeof a, "%s/x.dgpb", f);
    snprintf(ta, sizeof ta, "%s.tmp.AAAAAA", a);
    snprintf(journal, sizeof journal, "%s/.x.dgpb-journal", f);
    assert_int_equal(dgpb_file_write_atomic(a, "old a", 5, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_write_atomic(ta, "new a", 5, NULL), DGPB_OK);
    const char *const records[1][3] = {{a, ta, ""}};
    write_journal(journal, records, 1, false);
    dgpb_file_unit unit = {.journal = journal};
    assert_int_equal(dgpb_file_unit_recover(&unit, NULL), DGPB_OK);
    assert_file_is(a, "old a");
    assert_int_equal(access(journal, F_OK), -1);
    /* The next write sweeps the killed writer's temporary. */
    const char *paths[1] = {a};
    const void *data[1] = {"next"};
    size_t sizes[1] = {4};
    assert_int_equal(dgpb_file_unit_write(&unit, 1, paths, data, sizes, NULL), DGPB_OK);
    assert_file_is(a, "next");
    assert_int_equal(count_all(f), 1);
}

static void a_writer_waits_for_the_folders_lock_then_gives_up_or_is_cancelled(void **state)
{
    (void)state;
    char f[300], a[400], journal[400];
    unit_folder("unit-locked", f, sizeof f);
    snprintf(a, sizeof a, "%s/x.dgpb", f);
    snprintf(journal, sizeof journal, "%s/.x.dgpb-journal", f);
    int held = open(f, O_RDONLY | O_DIRECTORY); /* another build's lock, from another open() */
    assert_true(held >= 0);
    assert_int_equal(flock(held, LOCK_EX), 0);
    const char *paths[1] = {a};
    const void *data[1] = {"new"};
    size_t sizes[1] = {3};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    dgpb_file_unit unit = {.journal = journal, .lock_timeout_ms = 100};
    assert_int_equal(dgpb_file_unit_write(&unit, 1, paths, data, sizes, &d), DGPB_ERR_IO);
    assert_non_null(strstr(d.message, "stayed locked by another build"));
    static volatile sig_atomic_t stop = 1;
    unit.cancel = &stop;
    assert_int_equal(dgpb_file_unit_write(&unit, 1, paths, data, sizes, &d), DGPB_ERR_INTERRUPTED);
    assert_int_equal(count_all(f), 0);
    assert_int_equal(flock(held, LOCK_UN), 0);
    close(held);
    unit.cancel = NULL;
    assert_int_equal(dgpb_file_unit_write(&unit, 1, paths, data, sizes, NULL), DGPB_OK);
    assert_file_is(a, "new");
}

static int fail_reads(const char *step, const char *path, void *user)
{
    (void)path;
    (void)user;
    return strcmp(step, "read") ? 0 : EIO;
}

/* dgpb_sha256_file: a file of several reads hashes as its bytes do; anything else is IO. */
static void a_file_hashes_as_its_bytes_do(void **state)
{
    (void)state;
    char file[300], fifo[300], none[300];
    snprintf(file, sizeof file, "%s/big", dir);
    snprintf(fifo, sizeof fifo, "%s/hash-fifo", dir);
    snprintf(none, sizeof none, "%s/none", dir);
    size_t size = 200001; /* several 64 KiB reads and a short one */
    uint8_t *bytes = malloc(size);
    assert_non_null(bytes);
    for (size_t i = 0; i < size; i++)
        bytes[i] = (uint8_t)(i * 7 + (i >> 9));
    assert_int_equal(dgpb_file_write_atomic(file, bytes, size, NULL), DGPB_OK);
    uint8_t want[DGPB_SHA256_SIZE], got[DGPB_SHA256_SIZE];
    assert_int_equal(dgpb_sha256(bytes, size, want), DGPB_OK);
    assert_int_equal(dgpb_sha256_file(file, got), DGPB_OK);
    assert_memory_equal(got, want, sizeof want);
    io_fault_set(fail_reads, NULL); /* a read that fails, through the library's fault hook */
    assert_int_equal(dgpb_sha256_file(file, got), DGPB_ERR_IO);
    io_fault_set(NULL, NULL);
    assert_int_equal(dgpb_file_write_atomic(file, "", 0, NULL), DGPB_OK);
    assert_int_equal(dgpb_sha256("", 0, want), DGPB_OK);
    assert_int_equal(dgpb_sha256_file(file, got), DGPB_OK);
    assert_memory_equal(got, want, sizeof want);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    alarm(10);
    assert_int_equal(dgpb_sha256_file(fifo, got), DGPB_ERR_IO);
    alarm(0);
    assert_int_equal(dgpb_sha256_file(dir, got), DGPB_ERR_IO);
    assert_int_equal(dgpb_sha256_file(none, got), DGPB_ERR_IO);
    free(bytes);
    unlink(fifo);
    unlink(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(atomic_write_replaces_the_file_and_leaves_no_temporary),
        cmocka_unit_test(a_failed_atomic_write_changes_nothing_and_leaves_no_temporary),
        cmocka_unit_test(reading_names_the_file_and_the_reason),
        cmocka_unit_test(reading_a_regular_file_never_waits_on_a_fifo_folder_or_link),
        cmocka_unit_test(reading_is_bounded_and_never_waits_for_a_writer),
        cmocka_unit_test(unit_write_replaces_every_file_and_leaves_nothing_else),
        cmocka_unit_test(a_unit_whose_second_rename_fails_keeps_the_first_file),
        cmocka_unit_test(recovery_completes_a_replacement_that_a_killed_writer_left),
        cmocka_unit_test(recovery_undoes_a_replacement_it_cannot_complete),
        cmocka_unit_test(a_journal_without_its_end_mark_changes_nothing),
        cmocka_unit_test(a_writer_waits_for_the_folders_lock_then_gives_up_or_is_cancelled),
        cmocka_unit_test(a_file_hashes_as_its_bytes_do),
    };
    return cmocka_run_group_tests(tests, support_dir_setup, support_dir_teardown);
}
