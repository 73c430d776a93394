/*
 * test_fileio.c - whole-file reads and atomic writes.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <errno.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "io_fault.h"
#include "support.h"

static char dir[256];

static int make_dir(void **state)
{
    (void)state;
    return support_make_temp_dir("fileio", dir, sizeof dir);
}

static int remove_dir(void **state)
{
    (void)state;
    return support_remove_tree(dir);
}

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

static void a_failed_multi_file_write_changes_nothing(void **state)
{
    (void)state;
    char a[300], b[300];
    snprintf(a, sizeof a, "%s/x.dgpb", dir);
    snprintf(b, sizeof b, "%s/missing-dir/x.bundle.json", dir);
    assert_int_equal(dgpb_file_write_atomic(a, "previous", 8, NULL), DGPB_OK);
    const char *paths[2] = {a, b};
    const void *data[2] = {"AAAA", "BBBB"};
    size_t sizes[2] = {4, 4};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_files_write_atomic(2, paths, data, sizes, &d), DGPB_ERR_IO);
    assert_non_null(strstr(d.message, "missing-dir/x.bundle.json"));
    uint8_t *got = NULL;
    size_t size = 0;
    assert_int_equal(dgpb_file_read(a, 100, &got, &size, NULL), DGPB_OK);
    assert_memory_equal(got, "previous", 8);
    dgpb_free(got);
    assert_int_equal(count_entries(dir), 2); /* a.bin from before, x.dgpb; no temporaries */
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

static void a_failed_rename_undoes_the_renames_before_it(void **state)
{
    (void)state;
    /* The first file is renamed into place before the second rename fails: it must be undone
       (the build fault loop found a new bundle left beside no view). */
    char sub[300], a[400], b[400];
    snprintf(sub, sizeof sub, "%s/rollback", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    snprintf(a, sizeof a, "%s/y.dgpb", sub);
    snprintf(b, sizeof b, "%s/y.bundle.json", sub);
    const char *paths[2] = {a, b};
    const void *data[2] = {"AAAA", "BBBB"};
    size_t sizes[2] = {4, 4};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    /* No old files: none afterwards. */
    io_fault_set(fail_renames_of, b);
    int rc = dgpb_files_write_atomic(2, paths, data, sizes, &d);
    io_fault_set(NULL, NULL);
    assert_int_equal(rc, DGPB_ERR_IO);
    assert_non_null(strstr(d.message, "cannot replace"));
    assert_int_equal(count_entries(sub), 0);
    /* Old files: both kept as they were, no temporary or kept copy left. */
    assert_int_equal(dgpb_file_write_atomic(a, "old a", 5, NULL), DGPB_OK);
    assert_int_equal(dgpb_file_write_atomic(b, "old b", 5, NULL), DGPB_OK);
    io_fault_set(fail_renames_of, b);
    rc = dgpb_files_write_atomic(2, paths, data, sizes, &d);
    io_fault_set(NULL, NULL);
    assert_int_equal(rc, DGPB_ERR_IO);
    assert_file_holds(a, "old a");
    assert_file_holds(b, "old b");
    assert_int_equal(count_entries(sub), 2);
    /* Without the hook: the second destination is a folder, which no rename replaces. */
    assert_int_equal(remove(b), 0);
    assert_int_equal(mkdir(b, 0755), 0);
    char inside[500];
    snprintf(inside, sizeof inside, "%s/keep", b);
    assert_int_equal(dgpb_file_write_atomic(inside, "k", 1, NULL), DGPB_OK);
    assert_int_equal(dgpb_files_write_atomic(2, paths, data, sizes, &d), DGPB_ERR_IO);
    assert_file_holds(a, "old a");
    assert_int_equal(count_entries(sub), 2);
    /* And a write that succeeds replaces both and keeps no copy of the old ones. */
    const char *good[2] = {a, inside};
    assert_int_equal(dgpb_files_write_atomic(2, good, data, sizes, &d), DGPB_OK);
    assert_file_holds(a, "AAAA");
    assert_file_holds(inside, "BBBB");
    assert_int_equal(count_entries(sub), 2);
    assert_int_equal(count_entries(b), 1);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(atomic_write_replaces_the_file_and_leaves_no_temporary),
        cmocka_unit_test(a_failed_multi_file_write_changes_nothing),
        cmocka_unit_test(a_failed_rename_undoes_the_renames_before_it),
        cmocka_unit_test(reading_names_the_file_and_the_reason),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
