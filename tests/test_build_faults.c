/*
 * test_build_faults.c - a whole dgpb_build() made to fail at every step.
 *
 * The build is fixtures/build/plain.slang for spirv and wgsl (two entries:
 * two discovery compiles and four entry compiles), run through a fake
 * native slangc (fake_slangc_canned.c) that copies the outputs the real
 * Slang 2025.15 wrote for that module (fixtures/build_faults/plain/, kept
 * from a `dgpb-build --keep-temps` run) to the paths it is given, and writes
 * a depfile. Without faults the build must write the JSON view that Slang's
 * own outputs give (fixtures/build_faults/plain.bundle.json), so the fake
 * is known to stand for the real compiler.
 *
 * Then, each in its own loop:
 *   - allocations: the build's allocations counted, then allocation k made
 *     to fail for every k (a stride when there are more than
 *     ALLOC_RUNS_MAX; see below): each run returns DGPB_ERR_NOMEM;
 *   - file steps: every step of the library's file I/O and the intermediate
 *     folder (src/core/io_fault.h: open, read, create, write, chmod, sync,
 *     rename, mkdir, mkdtemp) counted, then step k made to fail for every k;
 *   - the compiler: at each of its jobs in turn, it exits with status 1, is
 *     killed by SIGKILL, leaves out its code, reflection or depfile, writes
 *     them truncated or empty, or writes reflection that is not JSON;
 *   - an output folder that is a file.
 * Every failing run must report an error and return one, leave the output
 * folder empty, and leave nothing in TMPDIR (a fresh folder per run, checked
 * empty after it); under ASan (the sanitize build) none may leak or crash.
 * The only faults allowed to go unnoticed, and then only with the exact
 * bundle written, are those the build does not need to see (a discovery
 * compile's code, a missing or unreadable depfile; fault_goes_unnoticed()),
 * each at that site only.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "dgpb/build.h"
#include "dgpb/compiler.h"
#include "dgpb/dgpb.h"
#include "core/io_fault.h"
#include "support.h"

/*
 * A build of more allocations than ALLOC_RUNS_MAX (today's has 566) would be
 * failed at every k below STRIDE_ALL_BELOW, then at every stride-th k, the
 * stride chosen to keep the loop near ALLOC_RUNS_MAX runs: each run that
 * reaches the compiles starts six compiler processes, and the test must stay
 * under a minute in the sanitize build.
 */
#define ALLOC_RUNS_MAX 1500
#define STRIDE_ALL_BELOW 400

/*
 * Under AddressSanitizer: a smaller quarantine of freed memory (16 MiB, not
 * 256). Each of the loop's ~700 builds forks six times, and fork() copies the
 * page tables of everything the quarantine keeps mapped: with the default,
 * the test spends most of its time there. 16 MiB still holds several whole
 * builds' frees, so a use after free within a build is still caught.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DGPB_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(DGPB_TEST_ASAN)
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=16";
}
#endif

static const char *const compiler_faults[] = {
    "exit",       "kill",       "no-code",    "no-json",    "no-dep",
    "short-code", "short-json", "empty-code", "empty-json", "bad-json",
};

typedef struct fixture {
    char work[512];  /* the test's folder */
    char out[600];   /* the build's output folder (absent before each run) */
    char tmp[600];   /* TMPDIR of each run */
    char fault[600]; /* the fake compiler's "JOB KIND" file */
    char count[600]; /* its job counter */
    dgpb_compiler *compiler;
    char first_error[8192]; /* the run's first error diagnostic */
    int warnings;           /* the run's warnings */
    dgpb_diag warning;      /* its last */
} fixture;

static fixture fx;

/* ---- files, with libc only (the allocation hooks are armed around a run) ---- */

/* Entries of a folder other than . and ..; -1 when it cannot be opened. */
static int folder_entries(const char *path, char *first, size_t size)
{
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && n++ == 0)
            snprintf(first, size, "%s", e->d_name);
    closedir(d);
    return n;
}

static char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    *size = n;
    return buf;
}

/* ---- one build ---- */

static void sink(const dgpb_diag *d, void *user)
{
    fixture *f = user;
    if (d->severity == DGPB_SEV_ERROR && !f->first_error[0])
        snprintf(f->first_error, sizeof f->first_error, "%s", d->message);
    if (d->severity == DGPB_SEV_WARNING) {
        f->warnings++;
        f->warning = *d;
    }
    if (getenv("DGPB_TEST_VERBOSE"))
        fprintf(stderr, "  build: %s\n", d->message);
}

static void set_compiler_fault(int job, const char *kind)
{
    char text[64];
    snprintf(text, sizeof text, "%d %s\n", job, kind);
    support_write_file(fx.fault, text, 0644);
    support_write_file(fx.count, "0\n", 0644);
}

static int compiler_jobs_run(void)
{
    FILE *f = fopen(fx.count, "r");
    int n = -1;
    if (f) {
        if (fscanf(f, "%d", &n) != 1)
            n = -1;
        fclose(f);
    }
    return n;
}

/* Runs the build with a fresh TMPDIR and no output folder. */
static int run_build(const char *out_dir)
{
    support_remove_tree(fx.out);
    support_remove_tree(fx.tmp);
    if (mkdir(fx.tmp, 0755) != 0)
        fail_msg("cannot create '%s': %s", fx.tmp, strerror(errno));
    fx.first_error[0] = 0;
    fx.warnings = 0;
    support_write_file(fx.count, "0\n", 0644);
    dgpb_build_desc desc = {
        .module_file = DGPB_SOURCE_DIR "/fixtures/build/plain.slang",
        .out_dir = out_dir,
        .targets = "spirv,wgsl",
        .compiler = fx.compiler,
        .jobs = 1,
        .no_layouts = true,
        .sink = sink,
        .user = &fx,
    };
    dgpb_build_result result;
    return dgpb_build(&desc, &result);
}

/* After a failed run: an error, nothing in the output folder or TMPDIR. */
static void check_failed_cleanly(int rc, const char *what)
{
    char name[256] = "";
    if (rc == DGPB_OK)
        fail_msg("%s: the build succeeded", what);
    if (!fx.first_error[0])
        fail_msg("%s: result %d without an error diagnostic", what, rc);
    int n = folder_entries(fx.out, name, sizeof name);
    if (n > 0)
        fail_msg("%s: the output folder holds '%s' (%d entries)", what, name, n);
    n = folder_entries(fx.tmp, name, sizeof name);
    if (n != 0)
        fail_msg("%s: TMPDIR holds '%s' (%d entries)", what, name, n);
}

/* After a run without faults: both outputs, the expected view, TMPDIR empty. */
static void check_succeeded(int rc, const char *what)
{
    char name[256] = "", path[700];
    if (rc != DGPB_OK)
        fail_msg("%s: result %d: %s", what, rc, fx.first_error);
    assert_int_equal(folder_entries(fx.out, name, sizeof name), 2);
    assert_int_equal(folder_entries(fx.tmp, name, sizeof name), 0);
    size_t got_size = 0, want_size = 0;
    snprintf(path, sizeof path, "%s/plain.bundle.json", fx.out);
    char *got = slurp(path, &got_size);
    char *want = slurp(DGPB_SOURCE_DIR "/fixtures/build_faults/plain.bundle.json", &want_size);
    assert_non_null(got);
    assert_non_null(want);
    if (got_size != want_size || memcmp(got, want, got_size))
        fail_msg("%s: %s differs from fixtures/build_faults/plain.bundle.json", what, path);
    free(got);
    free(want);
    snprintf(path, sizeof path, "%s/plain.dgpb", fx.out);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
}

/* ---- setup ---- */

static const char *no_env(const char *name, void *user)
{
    (void)name;
    (void)user;
    return NULL;
}

static int setup(void **state)
{
    (void)state;
    if (support_make_temp_dir("build-faults", fx.work, sizeof fx.work))
        return -1;
    snprintf(fx.out, sizeof fx.out, "%s/out", fx.work);
    snprintf(fx.tmp, sizeof fx.tmp, "%s/tmp", fx.work);
    snprintf(fx.fault, sizeof fx.fault, "%s/fault", fx.work);
    snprintf(fx.count, sizeof fx.count, "%s/count", fx.work);
    char path[700], canned[700];
    snprintf(path, sizeof path, "%s/slangc", fx.work);
    snprintf(canned, sizeof canned, "%s/canned", fx.work);
    if (symlink(DGPB_FAKE_SLANGC, path) ||
        symlink(DGPB_SOURCE_DIR "/fixtures/build_faults/plain", canned)) {
        fprintf(stderr, "cannot link the fake compiler into '%s': %s\n", fx.work, strerror(errno));
        return -1;
    }
    set_compiler_fault(0, "none");
    setenv("TMPDIR", fx.tmp, 1);
    dgpb_compiler_desc desc = {.path = path, .get_env = no_env};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_compiler_create(&desc, &fx.compiler, &d)) {
        fprintf(stderr, "the fake compiler: %s\n", d.message);
        return -1;
    }
    const char *version = NULL;
    if (dgpb_compiler_version(fx.compiler, &version, &d)) { /* asked once, outside the loops */
        fprintf(stderr, "the fake compiler's version: %s\n", d.message);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    dgpb_compiler_destroy(fx.compiler);
    support_remove_tree(fx.work);
    return 0;
}

/* ---- file steps ---- */

typedef struct io_plan {
    long seen;        /* steps asked about */
    long fail;        /* the step that fails (1-based); 0: none */
    int err;          /* with this errno */
    char failed[700]; /* which step failed, for messages */
    char failed_path[700];
    char last[700]; /* the path of the last step before an allocation failed */
} io_plan;

static int io_hook(const char *step, const char *path, void *user)
{
    io_plan *p = user;
    if (!support_faults_fired())
        snprintf(p->last, sizeof p->last, "%s", path);
    if (++p->seen != p->fail)
        return 0;
    snprintf(p->failed, sizeof p->failed, "%s '%s'", step, path);
    snprintf(p->failed_path, sizeof p->failed_path, "%s", path);
    return p->err;
}

/* Whether `path` is a compiler's depfile in the intermediate folder (".../x.spv.d"). */
static bool is_depfile(const char *path)
{
    size_t n = strlen(path);
    return n > 2 && !strcmp(path + n - 2, ".d") && !strncmp(path, fx.tmp, strlen(fx.tmp));
}

/* ---- the loops ---- */

static void the_fake_compiler_gives_the_real_compilers_bundle(void **state)
{
    (void)state;
    check_succeeded(run_build(fx.out), "no fault");
    assert_int_equal(compiler_jobs_run(), 6);
    assert_int_equal(fx.warnings, 0);
}

/*
 * What a native slangc prints on standard error when it succeeds: Slang's
 * warnings, here in Slang 2026's rich form and in 2025's, printed by all six
 * compiles (discovery included) and reported once each, with their place.
 */
static void a_native_compilers_warnings_are_reported_once_with_their_place(void **state)
{
    (void)state;
    char said[700];
    snprintf(said, sizeof said, "%s/stderr", fx.work);
    support_write_file(said,
                       "warning[E30081]: implicit conversion from 'float' to 'int' is not "
                       "recommended\n"
                       " --> " DGPB_SOURCE_DIR "/fixtures/build/plain.slang:7:13\n"
                       "  |\n"
                       "7 |     int i = 1.5;\n"
                       "  |             ^^^\n",
                       0644);
    check_succeeded(run_build(fx.out), "a warning");
    assert_int_equal(fx.warnings, 1);
    assert_string_equal(fx.warning.file, DGPB_SOURCE_DIR "/fixtures/build/plain.slang");
    assert_int_equal(fx.warning.line, 7);
    assert_int_equal(fx.warning.column, 13);
    assert_string_equal(fx.warning.tool_code, "E30081");
    assert_string_equal(fx.warning.message,
                        "implicit conversion from 'float' to 'int' is not recommended");
    support_write_file(said, "other.slang(3): warning 41016: use of uninitialized variable 'x'\n",
                       0644);
    check_succeeded(run_build(fx.out), "a warning of 2025");
    assert_int_equal(fx.warnings, 1);
    assert_string_equal(fx.warning.file, "other.slang");
    assert_string_equal(fx.warning.tool_code, "E41016");
    remove(said);
}

/* The allocations of a build without faults. */
static long count_allocations(void)
{
    support_faults_arm(-1);
    int rc = run_build(fx.out);
    long seen = support_faults_seen();
    support_faults_disarm();
    check_succeeded(rc, "counting allocations");
    return seen;
}

static void every_failed_allocation_fails_the_build_cleanly(void **state)
{
    (void)state;
    long total = count_allocations();
    assert_true(total > 100); /* the loop meets the whole build, not a stub */
    long stride = total > ALLOC_RUNS_MAX ? (total + ALLOC_RUNS_MAX - 1) / ALLOC_RUNS_MAX : 1;
    long runs = 0;
    io_plan plan = {0};
    for (long k = 0; k < total; k += (k < STRIDE_ALL_BELOW ? 1 : stride)) {
        plan = (io_plan){0};
        io_fault_set(io_hook, &plan); /* only to know the last file step before the failure */
        support_faults_arm(k);
        int rc = run_build(fx.out);
        long fired = support_faults_fired();
        support_faults_disarm();
        io_fault_set(NULL, NULL);
        char what[900];
        snprintf(what, sizeof what, "allocation %ld of %ld failed (after reading '%s')", k + 1,
                 total, plan.last);
        if (fired != 1)
            fail_msg("%s: %ld allocations failed, the build is not deterministic", what, fired);
        runs++;
        if (rc != DGPB_ERR_NOMEM)
            fail_msg("%s: result %d (%s), not DGPB_ERR_NOMEM", what, rc, fx.first_error);
        check_failed_cleanly(rc, what);
    }
    fprintf(stderr, "build_faults: %ld allocations, %ld runs (stride %ld past %d)\n", total, runs,
            stride, STRIDE_ALL_BELOW);
}

/*
 * The compiler faults a build does not notice, by design: the code of a
 * discovery compile (jobs 1 and 2) is never read, only its reflection; a
 * compiler may write no depfile (the build then lists no dependencies).
 */
static bool fault_goes_unnoticed(int job, const char *kind)
{
    if (!strcmp(kind, "no-dep"))
        return true;
    return job <= 2 &&
           (!strcmp(kind, "no-code") || !strcmp(kind, "short-code") || !strcmp(kind, "empty-code"));
}

static void every_compiler_failure_at_every_job_fails_the_build_cleanly(void **state)
{
    (void)state;
    int runs = 0, unnoticed = 0;
    for (int job = 1; job <= 6; job++)
        for (size_t f = 0; f < sizeof compiler_faults / sizeof *compiler_faults; f++) {
            set_compiler_fault(job, compiler_faults[f]);
            int rc = run_build(fx.out);
            char what[96];
            snprintf(what, sizeof what, "compiler job %d: %s", job, compiler_faults[f]);
            if (fault_goes_unnoticed(job, compiler_faults[f])) {
                check_succeeded(rc, what);
                unnoticed++;
            } else {
                check_failed_cleanly(rc, what);
            }
            runs++;
        }
    set_compiler_fault(0, "none");
    assert_int_equal(unnoticed, 6 + 2 * 3);
    fprintf(stderr, "build_faults: %d compiler faults, %d of them harmless by design\n", runs,
            unnoticed);
}

static void every_failed_file_step_fails_the_build_cleanly(void **state)
{
    (void)state;
    io_plan plan = {0};
    io_fault_set(io_hook, &plan);
    int rc = run_build(fx.out);
    io_fault_set(NULL, NULL);
    check_succeeded(rc, "counting file steps");
    long total = plan.seen;
    assert_true(total > 20);
    static const int errs[] = {EIO, ENOSPC, EACCES};
    long unnoticed = 0;
    for (long k = 1; k <= total; k++) {
        plan = (io_plan){.fail = k, .err = errs[k % 3]};
        io_fault_set(io_hook, &plan);
        rc = run_build(fx.out);
        io_fault_set(NULL, NULL);
        char what[900];
        snprintf(what, sizeof what, "file step %ld of %ld failed (%s: %s)", k, total, plan.failed,
                 strerror(plan.err));
        /* A compiler's depfile that cannot be read counts as none written (see above). */
        if (rc == DGPB_OK && is_depfile(plan.failed_path)) {
            check_succeeded(rc, what);
            unnoticed++;
            continue;
        }
        check_failed_cleanly(rc, what);
    }
    fprintf(stderr, "build_faults: %ld file steps, %ld of them depfile reads\n", total, unnoticed);
}

/* An output folder that cannot be made: a file is in its place. */
static void an_output_folder_that_is_a_file_fails_the_build(void **state)
{
    (void)state;
    char blocked[700];
    snprintf(blocked, sizeof blocked, "%s/blocked", fx.work);
    support_write_file(blocked, "a file\n", 0644);
    int rc = run_build(blocked);
    check_failed_cleanly(rc, "an output folder that is a file");
    size_t n = 0;
    char *text = slurp(blocked, &n);
    assert_non_null(text);
    assert_true(n == 7 && !memcmp(text, "a file\n", 7));
    free(text);
    remove(blocked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_fake_compiler_gives_the_real_compilers_bundle),
        cmocka_unit_test(a_native_compilers_warnings_are_reported_once_with_their_place),
        cmocka_unit_test(every_compiler_failure_at_every_job_fails_the_build_cleanly),
        cmocka_unit_test(every_failed_file_step_fails_the_build_cleanly),
        cmocka_unit_test(an_output_folder_that_is_a_file_fails_the_build),
        cmocka_unit_test(every_failed_allocation_fails_the_build_cleanly),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
