/*
 * test_compiler.c - the Slang compiler front: the lookup order with an
 * injected environment (fake slangc scripts in a temporary folder), version
 * queries, batches on a fake native slangc, batches through the real
 * embedded slangc-wasm's --serve workers, and fake workers that die or
 * answer garbage.
 *
 * The embedded compiler needs Node.js and `npm ci --prefix tools/slangc-wasm`
 * (tools/setup.sh does both); without them its tests fail saying so.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "dgpb/compiler.h"
#include "support.h"

#define EMBEDDED DGPB_SOURCE_DIR "/tools/slangc-wasm/slangc-wasm"
#define FIXTURES DGPB_SOURCE_DIR "/fixtures/slangc-wasm"

static const char *const dir = support_dir; /* the program's temporary folder */

/* ---- fixtures ----------------------------------------------------------- */

/* dir/rel, as a static string (one of a few rotating buffers). */
static const char *at(const char *rel)
{
    static char bufs[8][512];
    static int next;
    char *b = bufs[next++ % 8];
    snprintf(b, sizeof bufs[0], "%s/%s", dir, rel);
    return b;
}

static void make_folder(const char *rel)
{
    mkdir(at(rel), 0755);
}

/* A fake slangc that answers -v with `version`. */
static void fake_slangc(const char *rel, const char *version)
{
    char text[300];
    snprintf(text, sizeof text, "#!/bin/sh\n[ \"$1\" = -v ] && echo '%s' && exit 0\nexit 2\n",
             version);
    support_write_file(at(rel), text, 0755);
}

/*
 * A fake native slangc: `IN -o OUT DELAY` copies IN to OUT after DELAY
 * seconds and says so; a module whose name contains "bad" fails like Slang.
 */
static const char fake_native[] = "#!/bin/sh\n"
                                  "[ \"$1\" = -v ] && echo 2026.16 && exit 0\n"
                                  "sleep \"$4\"\n"
                                  "case \"$1\" in *bad*)\n"
                                  "  echo \"$1(1): error 20002: syntax error.\" >&2; exit 1;;\n"
                                  "esac\n"
                                  "cp \"$1\" \"$3\" && echo \"compiled $1\"\n";

/* Fake --serve workers: each is `embedded/<name>/slangc-wasm` with a node_modules folder. */
static const char serve_dies_on_second_job[] =
    "#!/bin/sh\n"
    "[ \"$1\" = -v ] && echo 2025.15 && exit 0\n"
    "n=0\n"
    "while IFS= read -r line; do\n"
    "  n=$((n+1))\n"
    "  if [ $n -ge 2 ]; then echo 'fake worker: crashed on purpose' >&2; exit 3; fi\n"
    "  echo '{\"status\":0,\"diagnostics\":\"\",\"outputs\":[]}'\n"
    "done\n";

static const char serve_garbage[] = "#!/bin/sh\n"
                                    "while IFS= read -r line; do\n"
                                    "  echo 'fake worker: about to misbehave' >&2\n"
                                    "  echo 'this is not an answer'\n"
                                    "done\n";

static const char serve_echo[] =
    "#!/bin/sh\n"
    "while IFS= read -r line; do\n"
    "  case \"$line\" in *bad*)\n"
    "    printf '%s\\n' '{\"status\":1,\"diagnostics\":\"bad(1): error\\n\","
    "\"outputs\":[]}';;\n"
    "  *) printf '%s\\n' '{\"status\":0,\"diagnostics\":\"\",\"outputs\":[],"
    "\"stdout\":\"text\"}';;\n"
    "  esac\n"
    "done\n";

static void fake_embedded(const char *name, const char *script)
{
    char rel[200];
    make_folder("embedded");
    snprintf(rel, sizeof rel, "embedded/%s", name);
    make_folder(rel);
    snprintf(rel, sizeof rel, "embedded/%s/node_modules", name);
    make_folder(rel);
    snprintf(rel, sizeof rel, "embedded/%s/slangc-wasm", name);
    support_write_file(at(rel), script, 0755);
}

static int make_dir(void **state)
{
    if (support_dir_setup(state))
        return -1;
    make_folder("opt");
    fake_slangc("opt/slangc", "option-1");
    make_folder("env");
    fake_slangc("env/slangc", "env-2");
    make_folder("root");
    make_folder("root/bin");
    fake_slangc("root/bin/slangc", "root-3");
    make_folder("path");
    fake_slangc("path/slangc", "path-4");
    make_folder("native");
    support_write_file(at("native/slangc"), fake_native, 0755);
    fake_embedded("plain", "#!/bin/sh\n[ \"$1\" = -v ] && echo embedded-5\nexit 0\n");
    fake_embedded("dies", serve_dies_on_second_job);
    fake_embedded("garbage", serve_garbage);
    fake_embedded("echo", serve_echo);
    make_folder("uninstalled");
    support_write_file(at("uninstalled/slangc-wasm"), "#!/bin/sh\nexit 0\n", 0755);
    support_write_file(at("not-executable"), "#!/bin/sh\nexit 0\n", 0644);
    make_folder("out");
    /* Native Slang without slangc: a library alone (never loaded here), a root with lib/
     * only, an SDK with slangc, one with neither; a recorder that answers --slang-version. */
    make_folder("libonly");
    make_folder("libonly/lib");
    support_write_file(at("libonly/lib/libslang-compiler.so.0.2026.12"), "not loaded", 0644);
    make_folder("sdk");
    make_folder("sdk/bin");
    fake_slangc("sdk/bin/slangc", "sdk-7");
    make_folder("nosdk");
    make_folder("setup");
    support_write_file(at("setup/libslang.so"), "not loaded", 0644);
    support_write_file(at("recorder"),
                       "#!/bin/sh\n"
                       "[ \"$1\" = --slang-lib ] && [ \"$3\" = --slang-version ] && "
                       "echo 2026.12 && exit 0\n"
                       "[ \"$1\" = --slang-lib ] && [ \"$3\" = --version ] && exit 0\n"
                       "exit 3\n",
                       0755);
    return 0;
}

/* ---- an injected environment -------------------------------------------- */

typedef struct fake_env {
    const char *dgpb_slangc, *slang_root, *path;
} fake_env;

/* $VULKAN_SDK for the cases that set it (NULL: unset). */
static const char *fake_vulkan_sdk;

static const char *get_fake_env(const char *name, void *user)
{
    const fake_env *e = user;
    if (strcmp(name, "DGPB_SLANGC") == 0)
        return e->dgpb_slangc;
    if (strcmp(name, "SLANG_ROOT") == 0)
        return e->slang_root;
    if (strcmp(name, "PATH") == 0)
        return e->path;
    if (strcmp(name, "VULKAN_SDK") == 0)
        return fake_vulkan_sdk;
    return NULL;
}

static dgpb_compiler *create(const char *path, const fake_env *env, const char *const *embedded,
                             dgpb_diag *d)
{
    dgpb_compiler_desc desc = {
        .path = path, .embedded = embedded, .get_env = get_fake_env, .get_env_user = (void *)env};
    dgpb_compiler *c = NULL;
    dgpb_diag_clear(d);
    int rc = dgpb_compiler_create(&desc, &c, d);
    assert_int_equal(rc == DGPB_OK, c != NULL);
    return c;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- lookup ------------------------------------------------------------- */

static void the_lookup_follows_the_documented_order(void **state)
{
    (void)state;
    char root[300], path[300], opt[300], env[300], plain[300];
    snprintf(root, sizeof root, "%s/root", dir);
    snprintf(path, sizeof path, "/nonexistent:%s/path", dir);
    snprintf(opt, sizeof opt, "%s/opt/slangc", dir);
    snprintf(env, sizeof env, "%s/env/slangc", dir);
    snprintf(plain, sizeof plain, "%s/embedded/plain/slangc-wasm", dir);
    const char *embedded[] = {"/nonexistent/slangc-wasm", plain, NULL};
    const struct {
        const char *option;
        fake_env env;
        dgpb_compiler_source source;
        const char *version, *origin;
    } cases[] = {
        {opt, {env, root, path}, DGPB_COMPILER_FROM_OPTION, "option-1", "slangc from --slangc"},
        {NULL, {env, root, path}, DGPB_COMPILER_FROM_ENV, "env-2", "slangc from $DGPB_SLANGC"},
        {NULL,
         {"", root, path},
         DGPB_COMPILER_FROM_SLANG_ROOT,
         "root-3",
         "slangc from $SLANG_ROOT/bin"},
        {NULL, {NULL, NULL, path}, DGPB_COMPILER_FROM_PATH, "path-4", "slangc from PATH"},
        {NULL,
         {NULL, NULL, "/nonexistent"},
         DGPB_COMPILER_FROM_EMBEDDED,
         "embedded-5",
         "embedded slangc-wasm"},
        {NULL,
         {NULL, NULL, NULL},
         DGPB_COMPILER_FROM_EMBEDDED,
         "embedded-5",
         "embedded slangc-wasm"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dgpb_diag d;
        dgpb_compiler *c = create(cases[i].option, &cases[i].env, embedded, &d);
        if (!c)
            fail_msg("case %zu: %s", i, d.message);
        assert_int_equal(dgpb_compiler_source_of(c), cases[i].source);
        assert_string_equal(dgpb_compiler_origin(c), cases[i].origin);
        assert_int_equal(dgpb_compiler_is_embedded(c),
                         cases[i].source == DGPB_COMPILER_FROM_EMBEDDED);
        assert_true(dgpb_compiler_path(c)[0] == '/');
        const char *version = NULL;
        assert_int_equal(dgpb_compiler_version(c, &version, &d), DGPB_OK);
        assert_string_equal(version, cases[i].version);
        const char *again = NULL;
        assert_int_equal(dgpb_compiler_version(c, &again, &d), DGPB_OK);
        assert_ptr_equal(again, version); /* remembered */
        dgpb_compiler_destroy(c);
    }
}

/* Rules 1, 3, 4 and 6 with native Slang that has no slangc; --compiler (desc.force). */
static void a_native_library_without_slangc_is_a_compiler(void **state)
{
    (void)state;
    char lib[300], libroot[300], sdk[300], nosdk[300], setup[300], path[300], plain[300];
    char recorder[300], env[300];
    snprintf(lib, sizeof lib, "%s/libonly/lib/libslang-compiler.so.0.2026.12", dir);
    snprintf(libroot, sizeof libroot, "%s/libonly/", dir);
    snprintf(sdk, sizeof sdk, "%s/sdk", dir);
    snprintf(nosdk, sizeof nosdk, "%s/nosdk", dir);
    snprintf(setup, sizeof setup, "%s/setup", dir);
    snprintf(path, sizeof path, "%s/path", dir);
    snprintf(plain, sizeof plain, "%s/embedded/plain/slangc-wasm", dir);
    snprintf(recorder, sizeof recorder, "%s/recorder", dir);
    snprintf(env, sizeof env, "%s/env/slangc", dir);
    const char *embedded[] = {plain, NULL};
    const char *native[] = {"/nonexistent", setup, NULL};
    const struct {
        const char *slang_lib;
        fake_env env;
        const char *sdk;
        dgpb_compiler_force force;
        dgpb_compiler_source source;
        bool library;
        const char *origin, *path_tail;
    } cases[] = {
        {lib, {env, NULL, path}, sdk, 0, DGPB_COMPILER_FROM_SLANG_LIB, true,
         "native libslang from --slang-lib", "libslang-compiler.so.0.2026.12"},
        {NULL, {NULL, libroot, path}, sdk, 0, DGPB_COMPILER_FROM_SLANG_ROOT, true,
         "native libslang from $SLANG_ROOT/lib", "libslang-compiler.so.0.2026.12"},
        {NULL, {NULL, NULL, path}, sdk, 0, DGPB_COMPILER_FROM_VULKAN_SDK, false,
         "slangc from $VULKAN_SDK/bin", "sdk/bin/slangc"},
        {NULL, {NULL, NULL, path}, libroot, 0, DGPB_COMPILER_FROM_VULKAN_SDK, true,
         "native libslang from $VULKAN_SDK/lib", "libslang-compiler.so.0.2026.12"},
        /* an SDK without Slang is passed over */
        {NULL, {NULL, NULL, path}, nosdk, 0, DGPB_COMPILER_FROM_PATH, false, "slangc from PATH",
         "path/slangc"},
        {NULL, {NULL, NULL, "/nonexistent"}, nosdk, 0, DGPB_COMPILER_FROM_SETUP, true,
         "native libslang of the set-up", "setup/libslang.so"},
        {NULL, {NULL, NULL, NULL}, NULL, DGPB_COMPILER_NATIVE, DGPB_COMPILER_FROM_SETUP, true,
         "native libslang of the set-up", "setup/libslang.so"},
        /* --compiler embedded passes over everything else */
        {NULL, {env, libroot, path}, sdk, DGPB_COMPILER_EMBEDDED, DGPB_COMPILER_FROM_EMBEDDED,
         false, "embedded slangc-wasm", "plain/slangc-wasm"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dgpb_compiler_desc desc = {.slang_lib = cases[i].slang_lib,
                                   .embedded = embedded,
                                   .native = native,
                                   .force = cases[i].force,
                                   .recorder = recorder,
                                   .get_env = get_fake_env,
                                   .get_env_user = (void *)&cases[i].env};
        fake_vulkan_sdk = cases[i].sdk;
        dgpb_compiler *c = NULL;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (dgpb_compiler_create(&desc, &c, &d))
            fail_msg("case %zu: %s", i, d.message);
        assert_int_equal(dgpb_compiler_source_of(c), cases[i].source);
        assert_string_equal(dgpb_compiler_origin(c), cases[i].origin);
        assert_int_equal(dgpb_compiler_is_library(c), cases[i].library);
        const char *p = dgpb_compiler_path(c);
        size_t n = strlen(p), t = strlen(cases[i].path_tail);
        if (p[0] != '/' || n < t || strcmp(p + n - t, cases[i].path_tail))
            fail_msg("case %zu: path '%s' does not end in '%s'", i, p, cases[i].path_tail);
        if (cases[i].library) { /* compiles on the workers; its version is the recorder's answer */
            assert_int_equal(dgpb_compiler_mode_of(c, NULL), DGPB_COMPILER_NATIVE_WORKERS);
            const char *version = NULL;
            assert_int_equal(dgpb_compiler_version(c, &version, &d), DGPB_OK);
            assert_string_equal(version, "2026.12");
        }
        dgpb_compiler_destroy(c);
    }
    fake_vulkan_sdk = NULL;

    /* --compiler native with no native Slang: an error saying how to get one. */
    fake_env none = {NULL, NULL, "/nonexistent"};
    const char *no_native[] = {"/nonexistent", NULL};
    dgpb_compiler_desc desc = {.embedded = embedded,
                               .native = no_native,
                               .force = DGPB_COMPILER_NATIVE,
                               .recorder = recorder,
                               .get_env = get_fake_env,
                               .get_env_user = &none};
    dgpb_compiler *c = NULL;
    dgpb_diag d;
    assert_int_equal(dgpb_compiler_create(&desc, &c, &d), DGPB_ERR_TOOL);
    assert_null(c);
    assert_non_null(strstr(d.message, "no native Slang found"));
    assert_non_null(strstr(d.message, "tools/setup.sh"));

    /* A library with no recorder cannot compile: said at once. */
    desc.force = 0;
    desc.native = native;
    desc.recorder = NULL;
    assert_int_equal(dgpb_compiler_create(&desc, &c, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "has no slangc"));
    assert_non_null(strstr(d.message, "dgpb-slang-layout"));

    /* A --slang-lib that is not there is an error naming it. */
    desc.slang_lib = "/nonexistent/libslang.so";
    desc.recorder = recorder;
    assert_int_equal(dgpb_compiler_create(&desc, &c, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "/nonexistent/libslang.so"));
    assert_non_null(strstr(d.message, "--slang-lib"));
}

static void a_named_compiler_that_is_missing_is_an_error_naming_it(void **state)
{
    (void)state;
    char path[300], plain[300], root[300];
    snprintf(path, sizeof path, "%s/path", dir);
    snprintf(plain, sizeof plain, "%s/embedded/plain/slangc-wasm", dir);
    snprintf(root, sizeof root, "%s/opt", dir); /* has no bin/slangc */
    const char *embedded[] = {plain, NULL};
    const struct {
        const char *option;
        fake_env env;
        const char *named, *reason;
    } cases[] = {
        {"/nonexistent/slangc", {NULL, NULL, path}, "/nonexistent/slangc", "--slangc"},
        {at("not-executable"), {NULL, NULL, path}, "not-executable", "not executable"},
        {dir, {NULL, NULL, path}, dir, "not a file"},
        {"dgpb-no-such-slangc", {NULL, NULL, path}, "dgpb-no-such-slangc", "not found on PATH"},
        {NULL, {"/nonexistent/env-slangc", NULL, path}, "/nonexistent/env-slangc", "$DGPB_SLANGC"},
        {NULL, {NULL, root, path}, "/opt/bin/slangc", "$SLANG_ROOT"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dgpb_diag d;
        dgpb_compiler *c = create(cases[i].option, &cases[i].env, embedded, &d);
        assert_null(c);
        assert_int_equal(d.code, DGPB_ERR_TOOL);
        if (!strstr(d.message, cases[i].named) || !strstr(d.message, cases[i].reason))
            fail_msg("case %zu: '%s' lacks '%s' or '%s'", i, d.message, cases[i].named,
                     cases[i].reason);
    }
}

static void without_any_compiler_the_error_says_how_to_install_one(void **state)
{
    (void)state;
    fake_env env = {NULL, NULL, "/nonexistent"};
    const char *none[] = {"/nonexistent/slangc-wasm", NULL};
    dgpb_diag d;
    assert_null(create(NULL, &env, none, &d));
    assert_int_equal(d.code, DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "no Slang compiler found"));
    assert_non_null(strstr(d.message, "run 'tools/setup.sh'"));
    assert_non_null(strstr(d.message, "npm ci --prefix tools/slangc-wasm"));
    assert_null(create(NULL, &env, NULL, &d));
    assert_non_null(strstr(d.message, "no Slang compiler found"));

    /* The script is there, its node_modules is not: npm ci was not run. */
    char uninstalled[300];
    snprintf(uninstalled, sizeof uninstalled, "%s/uninstalled/slangc-wasm", dir);
    const char *embedded[] = {uninstalled, NULL};
    assert_null(create(NULL, &env, embedded, &d));
    assert_non_null(strstr(d.message, "is not installed"));
    assert_non_null(strstr(d.message, uninstalled));
    assert_non_null(strstr(d.message, "npm ci --prefix tools/slangc-wasm"));
}

static void a_named_compiler_that_is_the_embedded_script_is_embedded(void **state)
{
    (void)state;
    char plain[300], link[300];
    snprintf(plain, sizeof plain, "%s/embedded/plain/slangc-wasm", dir);
    snprintf(link, sizeof link, "%s/link-to-embedded", dir);
    unlink(link);
    assert_int_equal(symlink(plain, link), 0);
    const char *embedded[] = {plain, NULL};
    fake_env env = {link, NULL, NULL};
    dgpb_diag d;
    dgpb_compiler *c = create(NULL, &env, embedded, &d);
    assert_non_null(c);
    assert_int_equal(dgpb_compiler_source_of(c), DGPB_COMPILER_FROM_ENV);
    assert_true(dgpb_compiler_is_embedded(c));
    assert_string_equal(dgpb_compiler_origin(c), "embedded slangc-wasm from $DGPB_SLANGC");
    assert_string_equal(dgpb_compiler_path(c), link);
    dgpb_compiler_destroy(c);
    dgpb_compiler_destroy(NULL);
}

static void a_failing_version_query_is_a_tool_error(void **state)
{
    (void)state;
    support_write_file(at("opt/broken"), "#!/bin/sh\necho 'broken: cannot load' >&2\nexit 4\n",
                       0755);
    fake_env env = {NULL, NULL, NULL};
    dgpb_diag d;
    dgpb_compiler *c = create(at("opt/broken"), &env, NULL, &d);
    assert_non_null(c);
    const char *version = "x";
    assert_int_equal(dgpb_compiler_version(c, &version, &d), DGPB_ERR_TOOL);
    assert_null(version);
    assert_non_null(strstr(d.message, "status 4"));
    assert_non_null(strstr(d.message, "broken: cannot load"));
    dgpb_compiler_destroy(c);
}

/* ---- batches on a native slangc ----------------------------------------- */

#define NATIVE_JOBS 7

static void a_native_batch_keeps_input_order_and_each_jobs_status(void **state)
{
    (void)state;
    char ins[NATIVE_JOBS][300], outs[NATIVE_JOBS][300], delays[NATIVE_JOBS][8];
    const char *args[NATIVE_JOBS][4];
    dgpb_compile_job jobs[NATIVE_JOBS];
    for (int i = 0; i < NATIVE_JOBS; i++) {
        snprintf(ins[i], sizeof ins[i], "%s/out/%s%d.slang", dir, i % 3 == 1 ? "bad" : "ok", i);
        snprintf(outs[i], sizeof outs[i], "%s/out/native%d.spv", dir, i);
        snprintf(delays[i], sizeof delays[i], "0.%d", NATIVE_JOBS - i); /* first ends last */
        support_write_file(ins[i], "module\n", 0644);
        args[i][0] = ins[i];
        args[i][1] = "-o";
        args[i][2] = outs[i];
        args[i][3] = delays[i];
        jobs[i] = (dgpb_compile_job){.args = args[i], .arg_count = 4};
    }
    fake_env env = {NULL, NULL, NULL};
    dgpb_diag d;
    dgpb_compiler *c = create(at("native/slangc"), &env, NULL, &d);
    assert_non_null(c);
    assert_false(dgpb_compiler_is_embedded(c));
    const char *version;
    assert_int_equal(dgpb_compiler_version(c, &version, &d), DGPB_OK);
    assert_string_equal(version, "2026.16");
    assert_int_equal(dgpb_compiler_run(c, jobs, NATIVE_JOBS, 3, &d), DGPB_OK);
    for (int i = 0; i < NATIVE_JOBS; i++) {
        char said[2400];
        if (i % 3 == 1) {
            assert_int_equal(jobs[i].status, 1);
            snprintf(said, sizeof said, "%s(1): error 20002: syntax error.\n", ins[i]);
            assert_string_equal(jobs[i].diagnostics, said);
            assert_string_equal(jobs[i].output, "");
            assert_false(exists(outs[i]));
        } else {
            assert_int_equal(jobs[i].status, 0);
            assert_string_equal(jobs[i].diagnostics, "");
            snprintf(said, sizeof said, "compiled %s\n", ins[i]);
            assert_string_equal(jobs[i].output, said);
            assert_true(exists(outs[i]));
        }
    }
    assert_int_equal(dgpb_compiler_workers_started(c), 0);
    dgpb_compile_jobs_clear(jobs, NATIVE_JOBS);
    assert_null(jobs[0].diagnostics);
    assert_int_equal(jobs[0].status, -1);
    assert_int_equal(dgpb_compiler_run(c, jobs, 0, 3, &d), DGPB_OK);
    dgpb_compiler_destroy(c);
}

static void a_native_compiler_that_cannot_run_fails_the_batch(void **state)
{
    (void)state;
    support_write_file(at("opt/vanishing"), "#!/bin/sh\nexit 0\n", 0755);
    fake_env env = {NULL, NULL, NULL};
    dgpb_diag d;
    dgpb_compiler *c = create(at("opt/vanishing"), &env, NULL, &d);
    assert_non_null(c);
    assert_int_equal(chmod(at("opt/vanishing"), 0644), 0);
    const char *args[] = {"k.slang"};
    dgpb_compile_job jobs[3] = {{.args = args, .arg_count = 1},
                                {.args = args, .arg_count = 1},
                                {.args = args, .arg_count = 1}};
    assert_int_equal(dgpb_compiler_run(c, jobs, 3, 2, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "vanishing"));
    for (int i = 0; i < 3; i++) {
        assert_int_equal(jobs[i].status, -1);
        assert_non_null(strstr(jobs[i].diagnostics, "not run"));
    }
    dgpb_compile_jobs_clear(jobs, 3);
    dgpb_compiler_destroy(c);
}

/* ---- the real embedded compiler ----------------------------------------- */

static dgpb_compiler *create_real_embedded(void)
{
    const char *embedded[] = {EMBEDDED, NULL};
    fake_env env = {NULL, NULL, NULL};
    dgpb_diag d;
    dgpb_compiler *c = create(NULL, &env, embedded, &d);
    if (!c)
        fail_msg("%s (the embedded compiler needs Node.js 20 and "
                 "'npm ci --prefix tools/slangc-wasm'; 'tools/setup.sh' does both)",
                 d.message);
    assert_true(dgpb_compiler_is_embedded(c));
    assert_int_equal(dgpb_compiler_source_of(c), DGPB_COMPILER_FROM_EMBEDDED);
    return c;
}

#define REAL_JOBS 6

static void the_embedded_compiler_runs_a_batch_on_reused_serve_workers(void **state)
{
    (void)state;
    dgpb_compiler *c = create_real_embedded();
    dgpb_diag d;
    dgpb_diag_clear(&d);
    const char *version;
    if (dgpb_compiler_version(c, &version, &d))
        fail_msg("%s (is Node.js installed? 'tools/setup.sh' installs it)", d.message);
    assert_string_equal(version, "2025.15");

    const char *basic = FIXTURES "/basic.slang";
    const char *bad = FIXTURES "/syntax_error.slang";
    const char *a0[] = {basic,    "-target", "spirv", "-entry",           "scale",
                        "-stage", "compute", "-o",    at("out/scale.spv")};
    const char *a1[] = {basic,    "-target", "spirv", "-entry",          "fill",
                        "-stage", "compute", "-o",    at("out/fill.spv")};
    const char *a2[] = {bad, "-target", "spirv", "-o", at("out/bad.spv")};
    const char *a3[] = {basic, "-target",           "wgsl", "-entry", "scale", "-stage", "compute",
                        "-o",  at("out/scale.wgsl")};
    const char *a4[] = {basic,
                        "-target",
                        "spirv",
                        "-entry",
                        "scale",
                        "-stage",
                        "compute",
                        "-o",
                        at("out/scale2.spv"),
                        "-reflection-json",
                        at("out/scale.json")};
    const char *a5[] = {basic,    "-target", "glsl", "-entry",           "fill",
                        "-stage", "compute", "-o",   at("out/fill.glsl")};
    /* at() rotates 8 buffers: keep copies of the paths checked below. */
    char outs[REAL_JOBS][300];
    const char *const *argsv[REAL_JOBS] = {a0, a1, a2, a3, a4, a5};
    size_t counts[REAL_JOBS] = {9, 9, 5, 9, 11, 9};
    char *owned[REAL_JOBS][11];
    dgpb_compile_job jobs[REAL_JOBS];
    for (int i = 0; i < REAL_JOBS; i++) {
        for (size_t k = 0; k < counts[i]; k++)
            owned[i][k] = strdup(argsv[i][k]);
        jobs[i] = (dgpb_compile_job){.args = (const char *const *)owned[i], .arg_count = counts[i]};
        snprintf(outs[i], sizeof outs[i], "%s", owned[i][i == 2 ? 4 : 8]);
    }
    double t0 = now();
    int rc = dgpb_compiler_run(c, jobs, REAL_JOBS, 2, &d);
    double t1 = now();
    if (rc)
        fail_msg("%s", d.message);
    print_message("6 jobs through 2 --serve workers: %.2f s (workers started included)\n", t1 - t0);
    for (int i = 0; i < REAL_JOBS; i++) {
        if (i == 2) {
            assert_int_equal(jobs[i].status, 1);
            assert_non_null(strstr(jobs[i].diagnostics, "syntax_error.slang(4): error"));
            assert_false(exists(outs[i]));
            continue;
        }
        if (jobs[i].status != 0)
            fail_msg("job %d: status %d: %s", i, jobs[i].status, jobs[i].diagnostics);
        assert_true(exists(outs[i]));
    }
    assert_true(exists(at("out/scale.json")));
    FILE *f = fopen(outs[0], "rb");
    assert_non_null(f);
    uint32_t magic = 0;
    assert_int_equal(fread(&magic, 4, 1, f), 1);
    fclose(f);
    assert_int_equal(magic, 0x07230203u);
    assert_int_equal(dgpb_compiler_workers_started(c), 2);
    dgpb_compile_jobs_clear(jobs, REAL_JOBS);

    /* A second batch reuses the two workers. */
    t0 = now();
    rc = dgpb_compiler_run(c, jobs, 3, 2, &d);
    t1 = now();
    if (rc)
        fail_msg("%s", d.message);
    print_message("3 more jobs on the same workers: %.2f s\n", t1 - t0);
    assert_int_equal(jobs[0].status, 0);
    assert_int_equal(jobs[1].status, 0);
    assert_int_equal(jobs[2].status, 1);
    assert_int_equal(dgpb_compiler_workers_started(c), 2);
    dgpb_compile_jobs_clear(jobs, 3);
    dgpb_compiler_destroy(c);
    for (int i = 0; i < REAL_JOBS; i++)
        for (size_t k = 0; k < counts[i]; k++)
            free(owned[i][k]);
}

/* ---- fake serve workers -------------------------------------------------- */

static dgpb_compiler *create_fake_embedded(const char *name)
{
    char script[300];
    snprintf(script, sizeof script, "%s/embedded/%s/slangc-wasm", dir, name);
    const char *embedded[] = {"/nonexistent/slangc-wasm", script, NULL};
    fake_env env = {NULL, NULL, NULL};
    dgpb_diag d;
    dgpb_compiler *c = create(NULL, &env, embedded, &d);
    if (!c)
        fail_msg("%s", d.message);
    assert_true(dgpb_compiler_is_embedded(c));
    return c;
}

static void serve_workers_answer_in_input_order(void **state)
{
    (void)state;
    dgpb_compiler *c = create_fake_embedded("echo");
    const char *good[] = {"good.slang", "-target", "wgsl"};
    const char *bad[] = {"bad.slang"};
    dgpb_compile_job jobs[10];
    for (int i = 0; i < 10; i++)
        jobs[i] =
            (dgpb_compile_job){.args = i % 4 == 3 ? bad : good, .arg_count = i % 4 == 3 ? 1 : 3};
    dgpb_diag d;
    assert_int_equal(dgpb_compiler_run(c, jobs, 10, 3, &d), DGPB_OK);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(jobs[i].status, i % 4 == 3);
        assert_string_equal(jobs[i].diagnostics, i % 4 == 3 ? "bad(1): error\n" : "");
        assert_string_equal(jobs[i].output, i % 4 == 3 ? "" : "text");
    }
    dgpb_compile_jobs_clear(jobs, 10);
    assert_int_equal(dgpb_compiler_workers_started(c), 3);
    /* More parallelism later starts more workers; less uses fewer. */
    assert_int_equal(dgpb_compiler_run(c, jobs, 10, 4, &d), DGPB_OK);
    dgpb_compile_jobs_clear(jobs, 10);
    assert_int_equal(dgpb_compiler_workers_started(c), 4);
    assert_int_equal(dgpb_compiler_run(c, jobs, 2, 1, &d), DGPB_OK);
    dgpb_compile_jobs_clear(jobs, 2);
    assert_int_equal(dgpb_compiler_workers_started(c), 4);
    dgpb_compiler_destroy(c);
}

static void a_serve_worker_that_dies_fails_its_job_and_the_batch(void **state)
{
    (void)state;
    dgpb_compiler *c = create_fake_embedded("dies");
    const char *a[] = {"k.slang", "-target", "spirv", "-entry", "k"};
    dgpb_compile_job jobs[3] = {{.args = a, .arg_count = 5},
                                {.args = a, .arg_count = 5},
                                {.args = a, .arg_count = 5}};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_compiler_run(c, jobs, 3, 1, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "worker 1"));
    assert_non_null(strstr(d.message, "exited with status 3"));
    assert_non_null(strstr(d.message, "fake worker: crashed on purpose"));
    assert_int_equal(jobs[0].status, 0);
    assert_int_equal(jobs[1].status, -1);
    assert_non_null(strstr(jobs[1].diagnostics, "crashed on purpose"));
    assert_non_null(
        strstr(jobs[1].diagnostics,
               "while compiling entry 'k' for target 'spirv' (job 2, module 'k.slang')"));
    assert_non_null(strstr(jobs[1].diagnostics, "its last words: "));
    assert_int_equal(jobs[2].status, -1);
    assert_non_null(strstr(jobs[2].diagnostics, "not run"));
    dgpb_compile_jobs_clear(jobs, 3);

    /* The next batch gets a fresh worker. */
    assert_int_equal(dgpb_compiler_run(c, jobs, 1, 1, &d), DGPB_OK);
    assert_int_equal(jobs[0].status, 0);
    assert_int_equal(dgpb_compiler_workers_started(c), 2);
    dgpb_compile_jobs_clear(jobs, 1);
    dgpb_compiler_destroy(c);
}

static void a_serve_worker_that_answers_garbage_fails_the_batch(void **state)
{
    (void)state;
    dgpb_compiler *c = create_fake_embedded("garbage");
    const char *a[] = {"k.slang"};
    dgpb_compile_job jobs[4];
    for (int i = 0; i < 4; i++)
        jobs[i] = (dgpb_compile_job){.args = a, .arg_count = 1};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_compiler_run(c, jobs, 4, 2, &d), DGPB_ERR_TOOL);
    assert_non_null(strstr(d.message, "not an answer: 'this is not an answer'"));
    assert_non_null(strstr(d.message, "about to misbehave"));
    for (int i = 0; i < 4; i++) {
        assert_int_equal(jobs[i].status, -1);
        assert_non_null(jobs[i].diagnostics);
    }
    dgpb_compile_jobs_clear(jobs, 4);
    dgpb_compiler_destroy(c); /* nothing left to wait for: no hang */
}

/* ---- allocation failures -------------------------------------------------- */

/* Creates a compiler and runs 4 jobs (one failing) with allocation n failing. */
static int create_and_run(const char *option, const char *const *embedded, long n)
{
    char in_ok[300], in_bad[300], out[300];
    snprintf(in_ok, sizeof in_ok, "%s/out/fault.slang", dir);
    snprintf(in_bad, sizeof in_bad, "%s/out/fault-bad.slang", dir);
    snprintf(out, sizeof out, "%s/out/fault.spv", dir);
    const char *ok[] = {in_ok, "-o", out, "0"};
    const char *bad[] = {in_bad, "-o", out, "0"};
    dgpb_compile_job jobs[4] = {{.args = ok, .arg_count = 4},
                                {.args = bad, .arg_count = 4},
                                {.args = ok, .arg_count = 4},
                                {.args = ok, .arg_count = 4}};
    fake_env env = {NULL, NULL, NULL};
    dgpb_compiler_desc desc = {.path = option,
                               .embedded = embedded,
                               .get_env = get_fake_env,
                               .get_env_user = &env,
                               .cwd = dir};
    dgpb_compiler *c = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    support_faults_arm(n);
    int rc = dgpb_compiler_create(&desc, &c, &d);
    if (!rc)
        rc = dgpb_compiler_run(c, jobs, 4, 2, &d);
    support_faults_disarm();
    if (!rc) {
        assert_int_equal(jobs[0].status, 0);
        assert_int_equal(jobs[1].status, 1);
    }
    dgpb_compile_jobs_clear(jobs, 4);
    dgpb_compiler_destroy(c);
    return rc;
}

static void every_allocation_failure_fails_cleanly(void **state)
{
    (void)state;
    support_write_file(at("out/fault.slang"), "module\n", 0644);
    support_write_file(at("out/fault-bad.slang"), "module\n", 0644);
    char echo[300];
    snprintf(echo, sizeof echo, "%s/embedded/echo/slangc-wasm", dir);
    const char *embedded[] = {echo, NULL};
    int rc = -1;
    long n;
    for (n = 0; n < 2000 && rc; n++)
        rc = create_and_run(at("native/slangc"), NULL, n);
    assert_int_equal(rc, DGPB_OK);
    assert_true(n > 10); /* the loop did fail allocations */
    rc = -1;
    for (n = 0; n < 2000 && rc; n++)
        rc = create_and_run(NULL, embedded, n);
    assert_int_equal(rc, DGPB_OK);
    assert_true(n > 10);
}

static void compiles_at_once_are_capped_by_the_jobs_and_by_half_the_memory(void **state)
{
    (void)state;
    const uint64_t mib = 1ull << 20, worker = DGPB_EMBEDDED_WORKER_BYTES;
    static const struct {
        unsigned requested, cpus;
        size_t count;
        uint64_t mem_mib;
        unsigned want;
    } rows[] = {
        {1000, 16, 6, 0, 6},      /* -j 1000, 6 jobs, memory unknown: 6 */
        {0, 16, 100, 0, 16},      /* no -j: one per CPU */
        {0, 16, 3, 0, 3},         /* never more than the jobs */
        {1000, 16, 100, 2100, 6}, /* 1050 MiB for workers of 175 MiB: 6 */
        {4, 16, 100, 2100, 4},    /* -j below the memory cap */
        {8, 16, 100, 100, 1},     /* too little memory for one: still one */
        {0, 0, 0, 0, 1},          /* nothing to run: 1, never 0 */
        {3, 16, 100, 350 * 2, 2}, /* exactly two workers' worth */
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        unsigned got = dgpb_parallel_limit(rows[i].requested, rows[i].cpus, rows[i].count,
                                           rows[i].mem_mib * mib, worker);
        if (got != rows[i].want)
            fail_msg("row %zu: %u at once, expected %u", i, got, rows[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compiles_at_once_are_capped_by_the_jobs_and_by_half_the_memory),
        cmocka_unit_test(the_lookup_follows_the_documented_order),
        cmocka_unit_test(a_named_compiler_that_is_missing_is_an_error_naming_it),
        cmocka_unit_test(a_native_library_without_slangc_is_a_compiler),
        cmocka_unit_test(without_any_compiler_the_error_says_how_to_install_one),
        cmocka_unit_test(a_named_compiler_that_is_the_embedded_script_is_embedded),
        cmocka_unit_test(a_failing_version_query_is_a_tool_error),
        cmocka_unit_test(a_native_batch_keeps_input_order_and_each_jobs_status),
        cmocka_unit_test(a_native_compiler_that_cannot_run_fails_the_batch),
        cmocka_unit_test(the_embedded_compiler_runs_a_batch_on_reused_serve_workers),
        cmocka_unit_test(serve_workers_answer_in_input_order),
        cmocka_unit_test(a_serve_worker_that_dies_fails_its_job_and_the_batch),
        cmocka_unit_test(a_serve_worker_that_answers_garbage_fails_the_batch),
        cmocka_unit_test(every_allocation_failure_fails_cleanly),
    };
    return cmocka_run_group_tests(tests, make_dir, support_dir_teardown);
}
