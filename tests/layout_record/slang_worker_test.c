/*
 * slang_worker_test.c - the native Slang worker (recorder/worker_server.h) against
 * a test build of Slang's C API (libfake_slang.so, which compiles as slangc
 * does in slangc's command-line mode):
 *   - `dgpb-slang-layout --serve` driven over pipes: compiles, layouts,
 *     malformed lines, answers in order, a clean exit when its input ends;
 *   - dgpb_compiler with a fake native slangc and the recorder: the same
 *     batch on native workers and on one slangc process per job gives the
 *     same bytes; a worker that dies fails its job and is replaced; a
 *     library the recorder cannot load falls back to processes;
 *   - the global session made in-process (dgpb_slang_open +
 *     worker_compile): GLSL enabled, slangc's folder searched, and the
 *     C++/CUDA preludes set exactly when slangc's folder has them.
 *
 * FAKE_SLANG_PATH and SLANG_LAYOUT_TOOL come from tests/layout_record/CMakeLists.txt.
 */
#define _GNU_SOURCE /* realpath, strndup, symlink, setenv */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "dgpb/compiler.h"
#include "dgpb/layout.h"
#include "recorder/recording.h"
#include "io/depfile.h"
#include "io/process.h"
#include "recorder/worker_server.h"
#include "support.h"

#define BROKEN_DIAGNOSTIC "broken.slang(3): error 30015: undefined identifier 'nope'\n"
#define ANSWER_TIMEOUT_MS 30000
/* SlangSourceLanguage: the languages whose preludes slangc sets (slang.h). */
#define LANGUAGE_CPP 5
#define LANGUAGE_CUDA 6

static char tmp[512];
/* A folder of its own for a slangc without preludes: no include/ at or above it has them. */
static char bare[512];

/* ---- files ---- */

/* tmp/rel, as a static string (one of a few rotating buffers). */
static const char *at(const char *rel)
{
    static char bufs[64][2048];
    static int next;
    char *b = bufs[next++ % 64];
    snprintf(b, sizeof bufs[0], "%s/%s", tmp, rel);
    return b;
}

static void write_text(const char *path, const char *text, mode_t mode)
{
    dgpb_diag d;
    if (dgpb_file_write_atomic(path, text, strlen(text), &d))
        fail_msg("cannot write '%s': %s", path, d.message);
    assert_int_equal(chmod(path, mode), 0);
}

static void make_dirs(const char *path)
{
    dgpb_diag d;
    if (dgpb_mkdirs(path, &d))
        fail_msg("cannot make '%s': %s", path, d.message);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The file's bytes as a NUL-terminated string (free()); fails the test when it cannot be read. */
static char *read_text(const char *path, size_t *size)
{
    uint8_t *bytes = NULL;
    size_t n = 0;
    dgpb_diag d;
    if (dgpb_file_read(path, 1u << 26, &bytes, &n, &d))
        fail_msg("cannot read '%s': %s", path, d.message);
    char *text = malloc(n + 1);
    assert_non_null(text);
    memcpy(text, bytes, n);
    text[n] = 0;
    dgpb_free(bytes);
    if (size)
        *size = n;
    return text;
}

static void assert_file_text(const char *path, const char *expected)
{
    char *text = read_text(path, NULL);
    if (strcmp(text, expected))
        fail_msg("'%s' holds '%s', not '%s'", path, text, expected);
    free(text);
}

static void assert_same_bytes(const char *a, const char *b)
{
    size_t na, nb;
    char *ta = read_text(a, &na), *tb = read_text(b, &nb);
    if (na != nb || memcmp(ta, tb, na))
        fail_msg("'%s' (%zu bytes) and '%s' (%zu bytes) differ", a, na, b, nb);
    free(ta);
    free(tb);
}

/*
 * A fake native slangc that writes what the fake library writes in slangc's
 * command-line mode: "fake code for ENTRY (TARGET)\n" to -o and
 * {"fake":"ENTRY"} to -reflection-json; a module containing "broken" fails
 * as Slang does (status 255, the fake's diagnostic).
 */
static const char fake_slangc[] =
    "#!/bin/sh\n"
    "[ \"$1\" = -v ] && echo v2025.15-fake && exit 0\n"
    "module= entry= target= out= json=\n"
    "while [ $# -gt 0 ]; do\n"
    "  case \"$1\" in\n"
    "  -entry) entry=$2; shift ;;\n"
    "  -target) target=$2; shift ;;\n"
    "  -o) out=$2; shift ;;\n"
    "  -reflection-json) json=$2; shift ;;\n"
    "  -*) ;;\n"
    "  *.slang) [ -n \"$module\" ] || module=$1 ;;\n"
    "  esac\n"
    "  shift\n"
    "done\n"
    "case \"$module\" in *broken*)\n"
    "  echo \"broken.slang(3): error 30015: undefined identifier 'nope'\" >&2; exit 255 ;;\n"
    "esac\n"
    "[ -z \"$out\" ] || printf 'fake code for %s (%s)\\n' \"$entry\" \"$target\" > \"$out\"\n"
    "[ -z \"$json\" ] || printf '{\"fake\":\"%s\"}\\n' \"$entry\" > \"$json\"\n"
    "exit 0\n";

static int setup(void **state)
{
    (void)state;
    if (support_make_temp_dir("slang-worker", tmp, sizeof tmp) ||
        support_make_temp_dir("slang-worker-bare", bare, sizeof bare))
        return -1;
    char path[1024];
    snprintf(path, sizeof path, "%s/native/bin", tmp);
    if (dgpb_mkdirs(path, NULL))
        return -1;
    snprintf(path, sizeof path, "%s/native/bin/slangc", tmp);
    if (dgpb_file_write_atomic(path, fake_slangc, strlen(fake_slangc), NULL) || chmod(path, 0755))
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    int a = support_remove_tree(tmp), b = support_remove_tree(bare);
    return a || b ? -1 : 0;
}

/* ---- a worker driven over pipes ---- */

typedef struct server {
    dgpb_process p;
    char out[1 << 16];
    size_t out_len;
    char err[1 << 16];
    size_t err_len;
} server;

static void server_start(server *s, const char *const *argv)
{
    memset(s, 0, sizeof *s);
    s->p = (dgpb_process)DGPB_PROCESS_INIT;
    s->p.argv = argv;
    s->p.cwd = tmp; /* jobs with relative paths and no "cwd" read and write there */
    s->p.flags = DGPB_PROCESS_PIPES;
    dgpb_diag d;
    if (process_start(&s->p, &d))
        fail_msg("cannot start %s: %s", argv[0], d.message);
}

static void server_send(server *s, const char *text)
{
    dgpb_diag d;
    if (process_write(&s->p, text, strlen(text), &d))
        fail_msg("cannot write to the worker: %s (its standard error: %.*s)", d.message,
                 (int)s->err_len, s->err);
}

static void server_read_err(server *s)
{
    char buf[4096];
    ssize_t n = read(s->p.err_fd, buf, sizeof buf);
    if (n > 0) {
        size_t keep =
            (size_t)n < sizeof s->err - s->err_len ? (size_t)n : sizeof s->err - s->err_len;
        memcpy(s->err + s->err_len, buf, keep);
        s->err_len += keep;
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(s->p.err_fd); /* finish() reads nothing more from it */
        s->p.err_fd = -1;
    }
}

/* The next answer line, without its newline (free()); fails when none comes. */
static char *server_answer(server *s)
{
    for (;;) {
        char *nl = memchr(s->out, '\n', s->out_len);
        if (nl) {
            size_t n = (size_t)(nl - s->out);
            char *line = strndup(s->out, n);
            assert_non_null(line);
            memmove(s->out, nl + 1, s->out_len - n - 1);
            s->out_len -= n + 1;
            return line;
        }
        struct pollfd pfd[2] = {{s->p.out_fd, POLLIN, 0}, {s->p.err_fd, POLLIN, 0}};
        int r = poll(pfd, 2, ANSWER_TIMEOUT_MS);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            fail_msg("the worker gave no answer in %d ms (standard error: %.*s)", ANSWER_TIMEOUT_MS,
                     (int)s->err_len, s->err);
        if (pfd[1].revents && s->p.err_fd >= 0)
            server_read_err(s);
        if (pfd[0].revents) {
            if (s->out_len == sizeof s->out)
                fail_msg("an answer longer than %zu bytes", sizeof s->out);
            ssize_t n = read(s->p.out_fd, s->out + s->out_len, sizeof s->out - s->out_len);
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (n <= 0)
                fail_msg("the worker's output ended without an answer (standard error: %.*s)",
                         (int)s->err_len, s->err);
            s->out_len += (size_t)n;
        }
    }
}

/*
 * Reads the next answer and checks it is exactly {"status": status, "diagnostics": ...}, the
 * diagnostics equal to `diagnostics` (when not NULL) and containing `contains` (when not NULL).
 */
static void expect_answer(server *s, int status, const char *diagnostics, const char *contains)
{
    char *line = server_answer(s);
    cJSON *root = cJSON_Parse(line);
    if (!cJSON_IsObject(root))
        fail_msg("not an answer: '%s'", line);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "status");
    const cJSON *di = cJSON_GetObjectItemCaseSensitive(root, "diagnostics");
    if (!cJSON_IsNumber(st) || !cJSON_IsString(di) || cJSON_GetArraySize(root) != 2)
        fail_msg("not an answer of two members: '%s'", line);
    if (st->valueint != status)
        fail_msg("status %d, not %d, in '%s'", st->valueint, status, line);
    if (diagnostics && strcmp(di->valuestring, diagnostics))
        fail_msg("diagnostics '%s', not '%s'", di->valuestring, diagnostics);
    if (contains && !strstr(di->valuestring, contains))
        fail_msg("diagnostics '%s' do not say '%s'", di->valuestring, contains);
    cJSON_Delete(root);
    free(line);
}

/* A job line: a JSON array of the strings (NULL-terminated), wrapped as {"layout": [...]} when
 * `layout`, and a newline. free() it. */
static char *job_line(bool layout, const char *first, ...)
{
    cJSON *array = cJSON_CreateArray();
    assert_non_null(array);
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a; a = va_arg(ap, const char *))
        assert_true(cJSON_AddItemToArray(array, cJSON_CreateString(a)));
    va_end(ap);
    cJSON *root = array;
    if (layout) {
        root = cJSON_CreateObject();
        assert_non_null(root);
        assert_true(cJSON_AddItemToObject(root, "layout", array));
    }
    char *text = cJSON_PrintUnformatted(root);
    assert_non_null(text);
    cJSON_Delete(root);
    char *line = malloc(strlen(text) + 2);
    assert_non_null(line);
    sprintf(line, "%s\n", text);
    cJSON_free(text);
    return line;
}

/* A compile job line (job_line(false, ...), taken) as {"compile": [...], "layout_output": L}. */
static char *recording(char *line, const char *layout_output)
{
    cJSON *array = cJSON_Parse(line);
    free(line);
    cJSON *root = cJSON_CreateObject();
    assert_true(cJSON_IsArray(array) && root);
    assert_true(cJSON_AddItemToObject(root, "compile", array));
    assert_non_null(cJSON_AddStringToObject(root, "layout_output", layout_output));
    char *text = cJSON_PrintUnformatted(root);
    assert_non_null(text);
    cJSON_Delete(root);
    char *out = malloc(strlen(text) + 2);
    assert_non_null(out);
    sprintf(out, "%s\n", text);
    cJSON_free(text);
    return out;
}

static void send_job(server *s, char *line)
{
    server_send(s, line);
    free(line);
}

/* ---- a: dgpb-slang-layout --serve ---- */

static void the_worker_answers_each_job_line_in_order(void **state)
{
    (void)state;
    make_dirs(at("serve"));
    const char *argv[] = {SLANG_LAYOUT_TOOL, "--serve", "--slang-lib", FAKE_SLANG_PATH, NULL};
    server s;
    server_start(&s, argv);

    /* A compile writes its -o and -reflection-json files as slangc would. */
    const char *module = at("serve/k.slang");
    const char *code = at("serve/k.spv"), *json = at("serve/k.json");
    send_job(&s, job_line(false, module, "-target", "spirv", "-entry", "k", "-stage", "compute",
                          "-o", code, "-reflection-json", json, NULL));
    expect_answer(&s, DGPB_SLANGC_EXIT_OK, "", NULL);
    assert_file_text(code, "fake code for k (spirv)\n");
    assert_file_text(json, "{\"fake\":\"k\"}\n");

    /* With -skip-codegen no code, and the depfile that slangc's skipped step would have
       written, from the files the request read (dgpb-build's discovery needs it). */
    const char *skip_code = at("serve/skip.spv"), *skip_json = at("serve/skip.json");
    const char *skip_dep = at("serve/skip.d");
    send_job(&s, job_line(false, module, "-target", "spirv", "-skip-codegen", "-o", skip_code,
                          "-reflection-json", skip_json, "-depfile", skip_dep, NULL));
    expect_answer(&s, DGPB_SLANGC_EXIT_OK, "", NULL);
    assert_false(exists(skip_code));
    assert_file_text(skip_json, "{\"fake\":\"\"}\n");
    char *dep_text = read_text(skip_dep, NULL);
    char **deps = NULL;
    size_t dep_count = 0;
    assert_int_equal(depfile_parse(dep_text, strlen(dep_text), &deps, &dep_count), DGPB_OK);
    assert_int_equal(dep_count, 1);
    assert_string_equal(deps[0], module);
    assert_int_equal(strncmp(dep_text, skip_code, strlen(skip_code)), 0);
    depfile_free(deps, dep_count);
    free(dep_text);

    /* A module with errors: slangc's status 255 and Slang's diagnostics; nothing written. */
    const char *broken_code = at("serve/broken.spv");
    send_job(&s, job_line(false, at("serve/broken.slang"), "-target", "spirv", "-entry", "k",
                          "-stage", "compute", "-o", broken_code, NULL));
    expect_answer(&s, DGPB_SLANGC_EXIT_COMPILATION_FAILED, BROKEN_DIAGNOSTIC, NULL);
    assert_false(exists(broken_code));

    /* An option that needs a global session of its own is refused with slangc's status 1. */
    send_job(&s, job_line(false, module, "-load-core-module", "-target", "spirv", NULL));
    expect_answer(&s, DGPB_SLANGC_EXIT_FAILED, NULL, "'-load-core-module'");

    /* A layout job records a layout the reader accepts. */
    const char *layout = at("serve/k.layout");
    send_job(&s, job_line(true, module, "-target", "spirv", "-entry", "k", "-stage", "compute",
                          "-o", layout, NULL));
    expect_answer(&s, DGPB_RECORDER_EXIT_OK, "", NULL);
    {
        size_t size = 0;
        char *blob = read_text(layout, &size);
        dgpb_layout *l = NULL;
        dgpb_diag d;
        if (dgpb_layout_open(blob, size, &l, &d))
            fail_msg("the worker's layout does not open: %s", d.message);
        assert_string_equal(dgpb_layout_target(l), "spirv");
        assert_string_equal(dgpb_layout_slang_version(l), "v2025.15-fake");
        assert_int_equal(dgpb_layout_entry_point_count(l), 1);
        assert_string_equal(dgpb_layout_ep_name(l, 0), "k");
        dgpb_layout_close(l);
        free(blob);
    }
    /* A compile that records its program's layout too: the compile's outputs, and the
       layout that a layout job with the same arguments records, byte for byte. */
    const char *both_code = at("serve/both.spv"), *both_json = at("serve/both.json");
    const char *both_layout = at("serve/both.layout");
    send_job(&s,
             recording(job_line(false, module, "-target", "spirv", "-entry", "k", "-stage",
                                "compute", "-o", both_code, "-reflection-json", both_json, NULL),
                       both_layout));
    expect_answer(&s, DGPB_SLANGC_EXIT_OK, "", NULL);
    assert_file_text(both_code, "fake code for k (spirv)\n");
    assert_file_text(both_json, "{\"fake\":\"k\"}\n");
    assert_same_bytes(both_layout, layout);
    /* A compile that fails records nothing. */
    send_job(&s, recording(job_line(false, at("serve/broken.slang"), "-target", "spirv", "-entry",
                                    "k", "-stage", "compute", "-o", broken_code, NULL),
                           at("serve/broken-both.layout")));
    expect_answer(&s, DGPB_SLANGC_EXIT_COMPILATION_FAILED, BROKEN_DIAGNOSTIC, NULL);
    assert_false(exists(at("serve/broken-both.layout")));

    /* A layout of a broken module, and one without -o: the recorder's exit statuses. */
    send_job(&s, job_line(true, at("serve/broken.slang"), "-target", "spirv", "-entry", "k",
                          "-stage", "compute", "-o", at("serve/broken.layout"), NULL));
    expect_answer(&s, DGPB_RECORDER_EXIT_SHADER, NULL, "undefined identifier 'nope'");
    assert_false(exists(at("serve/broken.layout")));
    send_job(&s, job_line(true, module, "-target", "spirv", "-entry", "k", NULL));
    expect_answer(&s, DGPB_RECORDER_EXIT_USAGE, NULL, "no output given");

    /* Lines that are no job: status 2, and the worker goes on. */
    server_send(&s, "this is not JSON\n");
    expect_answer(&s, DGPB_RECORDER_EXIT_USAGE, NULL, "not a job");
    server_send(&s, "[\"k.slang\", 3]\n");
    expect_answer(&s, DGPB_RECORDER_EXIT_USAGE, NULL, "not a job");
    server_send(&s, "{\"layout\": \"k.slang\"}\n");
    expect_answer(&s, DGPB_RECORDER_EXIT_USAGE, NULL, "not a job");
    server_send(&s, "{\"compile\": [\"k.slang\"]}\n");
    expect_answer(&s, DGPB_RECORDER_EXIT_USAGE, NULL, "not a job");

    /* Two jobs in one write are answered in order. */
    char *first = job_line(false, at("serve/a.slang"), "-target", "wgsl", "-entry", "a", "-stage",
                           "compute", "-o", at("serve/a.wgsl"), NULL);
    char *second = job_line(false, at("serve/broken.slang"), "-target", "wgsl", "-entry", "b",
                            "-stage", "compute", "-o", at("serve/b.wgsl"), NULL);
    char both[8192];
    snprintf(both, sizeof both, "%s%s", first, second);
    free(first);
    free(second);
    server_send(&s, both);
    expect_answer(&s, DGPB_SLANGC_EXIT_OK, "", NULL);
    expect_answer(&s, DGPB_SLANGC_EXIT_COMPILATION_FAILED, BROKEN_DIAGNOSTIC, NULL);
    assert_file_text(at("serve/a.wgsl"), "fake code for a (wgsl)\n");
    assert_false(exists(at("serve/b.wgsl")));

    /* A job with "cwd" runs in that folder: its module and outputs are named relative to it,
     * for a compile and for a layout; the next job runs where the worker started again. */
    char line[8192];
    snprintf(line, sizeof line,
             "{\"cwd\":\"%s\",\"args\":[\"k.slang\",\"-target\",\"wgsl\",\"-entry\",\"k\","
             "\"-stage\",\"compute\",\"-o\",\"rel.wgsl\"]}\n",
             at("serve"));
    server_send(&s, line);
    expect_answer(&s, DGPB_SLANGC_EXIT_OK, "", NULL);
    assert_file_text(at("serve/rel.wgsl"), "fake code for k (wgsl)\n");
    snprintf(line, sizeof line,
             "{\"cwd\":\"%s\",\"layout\":[\"k.slang\",\"-target\",\"spirv\",\"-entry\",\"k\","
             "\"-stage\",\"compute\",\"-o\",\"rel.layout\"]}\n",
             at("serve"));
    server_send(&s, line);
    expect_answer(&s, DGPB_RECORDER_EXIT_OK, "", NULL);
    assert_true(exists(at("serve/rel.layout")));
    send_job(&s, job_line(false, module, "-target", "wgsl", "-entry", "k", "-stage", "compute",
                          "-o", "serve/back.wgsl", NULL));
    expect_answer(&s, DGPB_SLANGC_EXIT_OK, "", NULL);
    assert_file_text(at("serve/back.wgsl"), "fake code for k (wgsl)\n");
    /* A folder that is not absolute is no job; one that cannot be entered fails the job. */
    server_send(&s, "{\"cwd\":\"serve\",\"args\":[\"k.slang\"]}\n");
    expect_answer(&s, DGPB_RECORDER_EXIT_USAGE, NULL, "not a job");
    snprintf(line, sizeof line, "{\"cwd\":\"%s\",\"args\":[\"k.slang\"]}\n", at("missing"));
    server_send(&s, line);
    expect_answer(&s, DGPB_SLANGC_EXIT_FAILED, NULL, "cannot enter");
    server_send(&s, "{\"cwd\":\"/\",\"args\":[\"k.slang\"],\"layout\":[\"k.slang\"]}\n");
    expect_answer(&s, DGPB_RECORDER_EXIT_USAGE, NULL, "not a job");

    /* The end of its input ends it, with status 0 and nothing more on its answer channel;
     * what Slang printed on standard output went to standard error. */
    process_close_input(&s.p);
    dgpb_diag d;
    int status = process_finish(&s.p, &d);
    if (status != 0)
        fail_msg("the worker exited with %d: %.*s%s", status, (int)s.err_len, s.err,
                 s.p.err ? s.p.err : "");
    assert_int_equal(s.out_len, 0);
    assert_int_equal(s.p.out_len, 0);
    char all_err[sizeof s.err + 4096];
    snprintf(all_err, sizeof all_err, "%.*s%s", (int)s.err_len, s.err, s.p.err ? s.p.err : "");
    assert_non_null(strstr(all_err, "fake slang: compiled k"));
    assert_non_null(strstr(all_err, "fake slang: compiled a"));
    process_clear(&s.p);
}

static void serve_takes_no_module(void **state)
{
    (void)state;
    const char *argv[] = {SLANG_LAYOUT_TOOL, "--serve", "--slang-lib",
                          FAKE_SLANG_PATH,   "k.slang", NULL};
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = argv;
    dgpb_diag d;
    int status = process_run(&p, &d);
    assert_int_equal(status, DGPB_RECORDER_EXIT_USAGE);
    assert_non_null(strstr(p.err, "--serve takes its jobs from standard input"));
    assert_non_null(strstr(p.err, "'k.slang'"));
    assert_int_equal(p.out_len, 0);
    process_clear(&p);
}

/* ---- b, c: dgpb_compiler on native workers ---- */

static const char *no_env(const char *name, void *user)
{
    (void)name;
    (void)user;
    return NULL;
}

static dgpb_compiler *create_compiler(const char *slang_lib, bool processes)
{
    dgpb_compiler_desc desc = {.path = at("native/bin/slangc"),
                               .get_env = no_env,
                               .recorder = SLANG_LAYOUT_TOOL,
                               .slang_lib = slang_lib,
                               .processes = processes};
    dgpb_compiler *c = NULL;
    dgpb_diag d;
    if (dgpb_compiler_create(&desc, &c, &d))
        fail_msg("cannot create the compiler: %s", d.message);
    return c;
}

#define BATCH 6
typedef struct batch {
    const char *args[BATCH][16];
    dgpb_compile_job jobs[BATCH];
} batch;

/* Entries a..d compile to out/<entry>.spv (with reflection JSON for a, and its layout asked
 * for in out/a.layout), entry e of a broken module fails, and the last job records a layout
 * to out/group.layout. */
static void make_batch(batch *b, const char *out)
{
    static char paths[BATCH][3][1024];
    static char a_layout[1024];
    snprintf(a_layout, sizeof a_layout, "%s/%s/a.layout", tmp, out);
    static const char *const entries[] = {"a", "b", "c", "d"};
    memset(b, 0, sizeof *b);
    for (int i = 0; i < BATCH; i++) {
        const char **a = b->args[i];
        size_t n = 0;
        bool layout = i == BATCH - 1;
        bool broken = i == BATCH - 2;
        const char *entry = i < 4 ? entries[i] : broken ? "e" : "g";
        snprintf(paths[i][0], sizeof paths[0][0], "%s/%s.slang", tmp, broken ? "broken" : "k");
        if (layout)
            snprintf(paths[i][1], sizeof paths[0][1], "%s/%s/group.layout", tmp, out);
        else
            snprintf(paths[i][1], sizeof paths[0][1], "%s/%s/%s.spv", tmp, out, entry);
        snprintf(paths[i][2], sizeof paths[0][2], "%s/%s/%s.json", tmp, out, entry);
        a[n++] = paths[i][0];
        a[n++] = "-target";
        a[n++] = "spirv";
        a[n++] = "-entry";
        a[n++] = entry;
        a[n++] = "-stage";
        a[n++] = "compute";
        a[n++] = "-o";
        a[n++] = paths[i][1];
        if (i == 0) {
            a[n++] = "-reflection-json";
            a[n++] = paths[i][2];
        }
        b->jobs[i] = (dgpb_compile_job){
            .args = a, .arg_count = n, .layout = layout, .layout_output = i == 0 ? a_layout : NULL};
    }
}

static void run_batch(dgpb_compiler *c, batch *b, const char *out)
{
    char folder[1024];
    snprintf(folder, sizeof folder, "%s/%s", tmp, out);
    make_dirs(folder);
    make_batch(b, out);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_compiler_run(c, b->jobs, BATCH, 2, &d))
        fail_msg("the batch failed: %s", d.message);
    for (int i = 0; i < BATCH; i++) {
        int expected = i == BATCH - 2 ? DGPB_SLANGC_EXIT_COMPILATION_FAILED : 0;
        if (b->jobs[i].status != expected)
            fail_msg("job %d (%s): status %d, not %d: %s", i + 1, out, b->jobs[i].status, expected,
                     b->jobs[i].diagnostics);
    }
}

static void native_workers_write_the_bytes_of_slangc_processes(void **state)
{
    (void)state;
    const char *why = "unset";

    /* On workers. */
    dgpb_compiler *w = create_compiler(FAKE_SLANG_PATH, false);
    assert_int_equal(dgpb_compiler_mode_of(w, &why), DGPB_COMPILER_NATIVE_WORKERS);
    assert_null(why);
    batch on_workers;
    run_batch(w, &on_workers, "workers");
    assert_int_equal(dgpb_compiler_workers_started(w), 2);

    /* One slangc (and one recorder) process per job. */
    dgpb_compiler *p = create_compiler(FAKE_SLANG_PATH, true);
    why = "unset";
    assert_int_equal(dgpb_compiler_mode_of(p, &why), DGPB_COMPILER_PROCESSES);
    assert_null(why);
    batch on_processes;
    run_batch(p, &on_processes, "processes");
    assert_int_equal(dgpb_compiler_workers_started(p), 0);

    /* The same results and the same bytes either way. */
    static const char *const files[] = {"a.spv", "b.spv",  "c.spv",
                                        "d.spv", "a.json", "group.layout"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char in_w[256], in_p[256];
        snprintf(in_w, sizeof in_w, "workers/%s", files[i]);
        snprintf(in_p, sizeof in_p, "processes/%s", files[i]);
        assert_same_bytes(at(in_w), at(in_p));
    }
    assert_file_text(at("workers/a.spv"), "fake code for a (spirv)\n");
    assert_file_text(at("workers/d.spv"), "fake code for d (spirv)\n");
    assert_file_text(at("workers/a.json"), "{\"fake\":\"a\"}\n");
    assert_false(exists(at("workers/e.spv")));
    assert_false(exists(at("processes/e.spv")));
    /* Only the workers record a compile's layout with it; a slangc process cannot. */
    assert_false(exists(at("processes/a.layout")));
    {
        size_t size = 0;
        char *blob = read_text(at("workers/a.layout"), &size);
        dgpb_layout *l = NULL;
        assert_int_equal(dgpb_layout_open(blob, size, &l, NULL), DGPB_OK);
        assert_int_equal(dgpb_layout_entry_point_count(l), 1);
        assert_string_equal(dgpb_layout_ep_name(l, 0), "a");
        dgpb_layout_close(l);
        free(blob);
    }
    for (int i = 0; i < BATCH; i++) {
        assert_int_equal(on_workers.jobs[i].status, on_processes.jobs[i].status);
        assert_string_equal(on_workers.jobs[i].diagnostics, on_processes.jobs[i].diagnostics);
        assert_string_equal(on_workers.jobs[i].output, on_processes.jobs[i].output);
    }
    assert_string_equal(on_workers.jobs[BATCH - 2].diagnostics, BROKEN_DIAGNOSTIC);
    {
        size_t size = 0;
        char *blob = read_text(at("workers/group.layout"), &size);
        dgpb_layout *l = NULL;
        assert_int_equal(dgpb_layout_open(blob, size, &l, NULL), DGPB_OK);
        assert_string_equal(dgpb_layout_ep_name(l, 0), "g");
        dgpb_layout_close(l);
        free(blob);
    }
    dgpb_compile_jobs_clear(on_workers.jobs, BATCH);
    dgpb_compile_jobs_clear(on_processes.jobs, BATCH);
    dgpb_compiler_destroy(p);

    /* A worker that dies fails its job, naming the entry, the target and its last words, and
     * the batch; the jobs after it do not run. */
    make_dirs(at("crash"));
    const char *ok1[] = {at("k.slang"), "-target", "spirv", "-entry",         "x",
                         "-stage",      "compute", "-o",    at("crash/x.spv")};
    const char *dies[] = {at("crash.slang"), "-target", "spirv", "-entry",         "k",
                          "-stage",          "compute", "-o",    at("crash/k.spv")};
    const char *ok2[] = {at("k.slang"), "-target", "spirv", "-entry",         "y",
                         "-stage",      "compute", "-o",    at("crash/y.spv")};
    dgpb_compile_job jobs[3] = {{.args = ok1, .arg_count = 9},
                                {.args = dies, .arg_count = 9},
                                {.args = ok2, .arg_count = 9}};
    unsigned started = dgpb_compiler_workers_started(w);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_compiler_run(w, jobs, 3, 1, &d), DGPB_ERR_TOOL);
    assert_int_equal(jobs[0].status, 0);
    assert_file_text(at("crash/x.spv"), "fake code for x (spirv)\n");
    assert_int_equal(jobs[1].status, -1);
    assert_non_null(jobs[1].diagnostics);
    assert_non_null(strstr(jobs[1].diagnostics, "dgpb-slang-layout --serve worker"));
    assert_non_null(strstr(jobs[1].diagnostics, "entry 'k'"));
    assert_non_null(strstr(jobs[1].diagnostics, "target 'spirv'"));
    assert_non_null(strstr(jobs[1].diagnostics, "fake worker dying"));
    assert_non_null(strstr(jobs[1].diagnostics, "signal 6"));
    assert_non_null(strstr(d.message, "entry 'k'"));
    assert_non_null(strstr(d.message, "fake worker dying"));
    assert_int_equal(jobs[2].status, -1);
    assert_non_null(strstr(jobs[2].diagnostics, "not run"));
    assert_false(exists(at("crash/y.spv")));
    dgpb_compile_jobs_clear(jobs, 3);

    /* The next batch on the same compiler runs: the dead worker was replaced (two jobs at
     * once need two workers, and one of the two is gone). */
    dgpb_compile_job again[2] = {{.args = ok1, .arg_count = 9}, {.args = ok2, .arg_count = 9}};
    dgpb_diag_clear(&d);
    if (dgpb_compiler_run(w, again, 2, 2, &d))
        fail_msg("the batch after a crash failed: %s", d.message);
    assert_int_equal(again[0].status, 0);
    assert_int_equal(again[1].status, 0);
    assert_file_text(at("crash/y.spv"), "fake code for y (spirv)\n");
    assert_int_equal(dgpb_compiler_workers_started(w), started + 1);
    assert_int_equal(dgpb_compiler_mode_of(w, NULL), DGPB_COMPILER_NATIVE_WORKERS);
    dgpb_compile_jobs_clear(again, 2);
    dgpb_compiler_destroy(w);
}

static void count_warning(void *user, const char *message)
{
    (void)message;
    (*(int *)user)++;
}

/*
 * Native workers through the compile service (docs/service.md): the same results and bytes
 * as slangc processes, layouts included, on the service's warm workers (dgpb-build
 * --service-daemon); a job that kills the service's worker makes the client run the rest
 * itself (one warning), where its own worker dies on it as without the service.
 */
static void native_workers_through_the_compile_service(void **state)
{
    (void)state;
    setenv("DGPB_SERVICE_DIR", at("service"), 1);
    int warnings = 0;
    dgpb_compiler_desc desc = {.path = at("native/bin/slangc"),
                               .get_env = no_env,
                               .recorder = SLANG_LAYOUT_TOOL,
                               .slang_lib = FAKE_SLANG_PATH,
                               .service = DGPB_BUILD_TOOL,
                               .offload = dgpb_service_offload(),
                               .service_warning = count_warning,
                               .service_warning_user = &warnings};
    dgpb_compiler *c = NULL;
    dgpb_diag d;
    if (dgpb_compiler_create(&desc, &c, &d))
        fail_msg("cannot create the compiler: %s", d.message);
    batch on_service;
    run_batch(c, &on_service, "service");
    dgpb_service_info info;
    dgpb_compiler_service_report(c, &info);
    if (info.state != DGPB_SERVICE_USED)
        fail_msg("the batch did not run on the service (state %d): %s", (int)info.state, info.why);
    assert_true(info.pid > 0);
    assert_int_equal(dgpb_compiler_workers_started(c), 0); /* none of its own */
    static const char *const files[] = {"a.spv", "b.spv",  "c.spv",
                                        "d.spv", "a.json", "group.layout"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char in_s[256], in_p[256];
        snprintf(in_s, sizeof in_s, "service/%s", files[i]);
        snprintf(in_p, sizeof in_p, "processes/%s", files[i]);
        assert_same_bytes(at(in_s), at(in_p));
    }
    /* The layout the first compile recorded from its own request (layout_output), as on this
     * process's own native workers. */
    assert_same_bytes(at("service/a.layout"), at("workers/a.layout"));
    assert_string_equal(on_service.jobs[BATCH - 2].diagnostics, BROKEN_DIAGNOSTIC);
    assert_int_equal(on_service.jobs[BATCH - 1].status, DGPB_RECORDER_EXIT_OK);
    dgpb_compile_jobs_clear(on_service.jobs, BATCH);
    assert_int_equal(warnings, 0);

    /* A job that kills the service's worker: the client runs it (and the rest) itself. */
    make_dirs(at("service-crash"));
    const char *ok1[] = {at("k.slang"), "-target", "spirv",
                         "-entry",      "x",       "-stage",
                         "compute",     "-o",      at("service-crash/x.spv")};
    const char *dies[] = {at("crash.slang"), "-target", "spirv",
                          "-entry",          "k",       "-stage",
                          "compute",         "-o",      at("service-crash/k.spv")};
    dgpb_compile_job jobs[2] = {{.args = ok1, .arg_count = 9}, {.args = dies, .arg_count = 9}};
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_compiler_run(c, jobs, 2, 1, &d), DGPB_ERR_TOOL);
    assert_int_equal(warnings, 1);
    assert_int_equal(jobs[0].status, 0);
    assert_file_text(at("service-crash/x.spv"), "fake code for x (spirv)\n");
    assert_int_equal(jobs[1].status, -1);
    assert_non_null(strstr(jobs[1].diagnostics, "fake worker dying")); /* its own worker's */
    assert_non_null(strstr(d.message, "entry 'k'"));
    dgpb_compiler_service_report(c, &info);
    assert_int_equal(info.state, DGPB_SERVICE_LOCAL);
    assert_non_null(strstr(info.why, "lost a worker"));
    assert_non_null(strstr(info.why, "fake worker dying"));
    dgpb_compile_jobs_clear(jobs, 2);
    dgpb_compiler_destroy(c);
    unsigned stopped = 0;
    assert_int_equal(dgpb_service_stop_all(&stopped, NULL, 0, NULL), DGPB_OK);
    assert_int_equal(stopped, 1);
    unsetenv("DGPB_SERVICE_DIR");
}

static void a_library_the_recorder_cannot_load_means_processes(void **state)
{
    (void)state;
    /* The slangc script is no library: the recorder's probe fails. */
    dgpb_compiler *c = create_compiler(at("native/bin/slangc"), false);
    const char *why = NULL;
    assert_int_equal(dgpb_compiler_mode_of(c, &why), DGPB_COMPILER_PROCESSES);
    assert_non_null(why);
    assert_non_null(strstr(why, "--version"));
    assert_non_null(strstr(why, "cannot load"));
    make_dirs(at("fallback"));
    const char *args[] = {at("k.slang"), "-target", "spirv",
                          "-entry",      "f",       "-stage",
                          "compute",     "-o",      at("fallback/f.spv")};
    const char *layout_args[] = {at("k.slang"), "-target", "spirv",
                                 "-entry",      "f",       "-stage",
                                 "compute",     "-o",      at("fallback/f.layout")};
    dgpb_compile_job jobs[2] = {{.args = args, .arg_count = 9},
                                {.args = layout_args, .arg_count = 9, .layout = true}};
    dgpb_diag d;
    if (dgpb_compiler_run(c, jobs, 2, 2, &d))
        fail_msg("%s", d.message);
    assert_int_equal(jobs[0].status, 0);
    assert_file_text(at("fallback/f.spv"), "fake code for f (spirv)\n");
    /* The layout still runs on the recorder, which cannot load that library. */
    assert_int_equal(jobs[1].status, DGPB_RECORDER_EXIT_NO_LIBSLANG);
    assert_non_null(strstr(jobs[1].diagnostics, "cannot load"));
    assert_int_equal(dgpb_compiler_workers_started(c), 0);
    dgpb_compile_jobs_clear(jobs, 2);
    dgpb_compiler_destroy(c);

    /* Without a libslang of its own (none given, none next to slangc): processes, no probe. */
    c = create_compiler(NULL, false);
    why = "unset";
    assert_int_equal(dgpb_compiler_mode_of(c, &why), DGPB_COMPILER_PROCESSES);
    assert_null(why);
    dgpb_compiler_destroy(c);
}

/* ---- d: the global session, in this process ---- */

typedef const char *(*prelude_fn)(int language);
typedef int (*count_fn)(void);
typedef const char *(*text_fn)(void);
typedef void (*reset_fn)(void);

/* The fake's test functions, looked up in the copy dgpb_slang_open() loaded. */
typedef struct fake_probe {
    void *handle;
    prelude_fn prelude;
    count_fn prelude_calls, glsl_enabled;
    text_fn search_path;
    reset_fn reset;
} fake_probe;

static void *symbol(void *handle, const char *name)
{
    void *sym = dlsym(handle, name);
    if (!sym)
        fail_msg("the fake lacks '%s'", name);
    return sym;
}

static void probe_open(fake_probe *f)
{
    f->handle = dlopen(FAKE_SLANG_PATH, RTLD_NOW | RTLD_NOLOAD);
    if (!f->handle)
        fail_msg("the fake is not loaded: %s", dlerror());
    void *s;
    s = symbol(f->handle, "fake_slang_prelude");
    memcpy(&f->prelude, &s, sizeof s);
    s = symbol(f->handle, "fake_slang_prelude_calls");
    memcpy(&f->prelude_calls, &s, sizeof s);
    s = symbol(f->handle, "fake_slang_glsl_enabled");
    memcpy(&f->glsl_enabled, &s, sizeof s);
    s = symbol(f->handle, "fake_slang_last_search_path");
    memcpy(&f->search_path, &s, sizeof s);
    s = symbol(f->handle, "fake_slang_reset");
    memcpy(&f->reset, &s, sizeof s);
}

/*
 * Opens the fake for `slangc`, forgets what it recorded, compiles once and
 * checks the compile; the library stays open in *out (and the probe in *f).
 */
static void compile_once(const char *slangc, const char *output, dgpb_slang **out, fake_probe *f)
{
    dgpb_slang_desc sd = {.library = FAKE_SLANG_PATH, .slangc = slangc};
    dgpb_diag d;
    if (dgpb_slang_open(&sd, out, &d))
        fail_msg("%s", d.message);
    probe_open(f);
    f->reset();
    assert_int_equal(f->glsl_enabled(), -1);
    const char *args[] = {at("k.slang"), "-target", "cpp", "-entry", "p",
                          "-stage",      "compute", "-o",  output};
    int status = -1;
    char *text = NULL;
    if (worker_compile(*out, args, 9, &status, &text, &d))
        fail_msg("%s", d.message);
    assert_int_equal(status, DGPB_SLANGC_EXIT_OK);
    assert_string_equal(text, "");
    dgpb_free(text);
    assert_file_text(output, "fake code for p (cpp)\n");
    /* The session is made as slangc makes its own: GLSL on; slangc's real folder searched. */
    assert_int_equal(f->glsl_enabled(), 1);
    char real_slangc[PATH_MAX];
    assert_non_null(realpath(slangc, real_slangc));
    *strrchr(real_slangc, '/') = 0;
    assert_non_null(f->search_path());
    assert_string_equal(f->search_path(), real_slangc);
}

static void compile_close(dgpb_slang *s, fake_probe *f)
{
    dlclose(f->handle);
    dgpb_slang_close(s);
}

static void include_line(const char *file, char *buf, size_t n)
{
    char real[PATH_MAX];
    assert_non_null(realpath(file, real));
    snprintf(buf, n, "#include \"%s\"\n\n", real);
}

static void preludes_are_set_when_slangcs_folder_has_them(void **state)
{
    (void)state;
    make_dirs(at("prelude/bin"));
    make_dirs(at("prelude/include"));
    make_dirs(at("prelude/elsewhere"));
    write_text(at("prelude/bin/slangc"), fake_slangc, 0755);
    write_text(at("prelude/include/slang-cpp-prelude.h"), "// C++\n", 0644);
    write_text(at("prelude/include/slang-cuda-prelude.h"), "// CUDA\n", 0644);
    char cpp[PATH_MAX + 32], cuda[PATH_MAX + 32];
    include_line(at("prelude/include/slang-cpp-prelude.h"), cpp, sizeof cpp);
    include_line(at("prelude/include/slang-cuda-prelude.h"), cuda, sizeof cuda);

    dgpb_slang *s = NULL;
    fake_probe f;
    compile_once(at("prelude/bin/slangc"), at("prelude/p.cpp"), &s, &f);
    assert_string_equal(f.prelude(LANGUAGE_CPP), cpp);
    assert_string_equal(f.prelude(LANGUAGE_CUDA), cuda);
    assert_int_equal(f.prelude_calls(), 2);
    /* A second compile on the same library reuses the session: nothing is set again. */
    int status = -1;
    char *text = NULL;
    const char *args[] = {at("k.slang"), "-target",          "cpp", "-entry", "q",
                          "-o",          at("prelude/q.cpp")};
    assert_int_equal(worker_compile(s, args, 7, &status, &text, NULL), DGPB_OK);
    assert_int_equal(status, 0);
    dgpb_free(text);
    assert_file_text(at("prelude/q.cpp"), "fake code for q (cpp)\n");
    assert_int_equal(f.prelude_calls(), 2);
    compile_close(s, &f);

    /* slangc through a symbolic link: its real folder decides. */
    assert_int_equal(symlink(at("prelude/bin/slangc"), at("prelude/elsewhere/slangc")), 0);
    compile_once(at("prelude/elsewhere/slangc"), at("prelude/p2.cpp"), &s, &f);
    assert_string_equal(f.prelude(LANGUAGE_CPP), cpp);
    assert_string_equal(f.prelude(LANGUAGE_CUDA), cuda);
    compile_close(s, &f);

    /* A function table that does not answer the library's build tag is left alone. */
    assert_int_equal(setenv("FAKE_SLANG_SESSION_TAG", "v2025.15-other", 1), 0);
    compile_once(at("prelude/bin/slangc"), at("prelude/p3.cpp"), &s, &f);
    assert_int_equal(unsetenv("FAKE_SLANG_SESSION_TAG"), 0);
    assert_int_equal(f.prelude_calls(), 0);
    assert_null(f.prelude(LANGUAGE_CPP));
    compile_close(s, &f);
}

static void no_prelude_is_set_without_the_files(void **state)
{
    (void)state;
    char bin[700], slangc[800], out[800];
    snprintf(bin, sizeof bin, "%s/bin", bare);
    snprintf(slangc, sizeof slangc, "%s/slangc", bin);
    snprintf(out, sizeof out, "%s/p.cpp", bare);
    make_dirs(bin);
    write_text(slangc, fake_slangc, 0755);
    dgpb_slang *s = NULL;
    fake_probe f;
    compile_once(slangc, out, &s, &f);
    assert_int_equal(f.prelude_calls(), 0);
    assert_null(f.prelude(LANGUAGE_CPP));
    assert_null(f.prelude(LANGUAGE_CUDA));
    compile_close(s, &f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_worker_answers_each_job_line_in_order),
        cmocka_unit_test(serve_takes_no_module),
        cmocka_unit_test(native_workers_write_the_bytes_of_slangc_processes),
        cmocka_unit_test(native_workers_through_the_compile_service),
        cmocka_unit_test(a_library_the_recorder_cannot_load_means_processes),
        cmocka_unit_test(preludes_are_set_when_slangcs_folder_has_them),
        cmocka_unit_test(no_prelude_is_set_without_the_files),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
