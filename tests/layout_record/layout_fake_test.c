/*
 * layout_fake_test.c - the recorder end to end against a test build of
 * Slang's C API (libfake_slang.so): dgpb-slang-layout loads the fake with
 * --slang-lib, records a group, and every answer replayed from the blob is
 * compared with the fake's own; then the recorder's failures, exit codes
 * and library lookup.
 *
 * FAKE_SLANG_PATH and SLANG_LAYOUT_TOOL come from tests/layout_record/CMakeLists.txt.
 */
#define _GNU_SOURCE /* symlink */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
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
#include "dgpb/layout.h"
#include "bundle/model.h"
#include "bundle/writer.h"
#include "io/process.h"
#include "recorder/recording.h"
#include "layout_compare.h"
#include "layout/slang_api.h"
#include "support.h"

static const char *const tmp = support_dir; /* the program's temporary folder */

/* Runs the tool with `args` (NULL-terminated, without argv[0]); returns its status, output in p. */
static int run_tool(dgpb_process *p, const char *const *env, const char *first, ...)
{
    static const char *argv[64];
    size_t n = 0;
    argv[n++] = SLANG_LAYOUT_TOOL;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a; a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    *p = (dgpb_process)DGPB_PROCESS_INIT;
    p->argv = argv;
    p->env = env;
    dgpb_diag d;
    int status = process_run(p, &d);
    if (status < 0)
        fail_msg("cannot run %s: %s", SLANG_LAYOUT_TOOL, d.message);
    return status;
}

static uint8_t *read_file(const char *path, size_t *size)
{
    uint8_t *bytes = NULL;
    dgpb_diag d;
    if (dgpb_file_read(path, 1u << 26, &bytes, size, &d))
        fail_msg("%s", d.message);
    return bytes;
}

/* The fake, loaded into this process, for the live answers. */
typedef struct live {
    void *handle;
    dgpb_slang_api api;
    SlangSession *session;
} live;

static void live_open(live *lv)
{
    lv->handle = dlopen(FAKE_SLANG_PATH, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(lv->handle);
    dgpb_diag d;
    assert_int_equal(slang_api_load(lv->handle, FAKE_SLANG_PATH, &lv->api, &d), DGPB_OK);
    lv->session = lv->api.spCreateSession(NULL);
}

static void live_close(live *lv)
{
    lv->api.spDestroySession(lv->session);
    dlclose(lv->handle);
}

/* Records `args` with the tool, replays, and compares with the fake compiled with the same
 * arguments. Returns the blob (dgpb_free) for further checks. */
static uint8_t *record_and_compare(const char *const *args, int count, size_t *size,
                                   size_t *answers)
{
    char out[600];
    snprintf(out, sizeof out, "%s/layout.bin", tmp);
    const char *argv[40];
    int n = 0;
    argv[n++] = SLANG_LAYOUT_TOOL;
    argv[n++] = "--slang-lib";
    argv[n++] = FAKE_SLANG_PATH;
    for (int i = 0; i < count; i++)
        argv[n++] = args[i];
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n] = NULL;
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = argv;
    dgpb_diag d;
    int status = process_run(&p, &d);
    if (status != 0)
        fail_msg("dgpb-slang-layout exited %d: %s", status, p.err ? p.err : d.message);
    process_clear(&p);

    uint8_t *bytes = read_file(out, size);
    dgpb_layout *l = NULL;
    if (dgpb_layout_open(bytes, *size, &l, &d))
        fail_msg("the recorded layout does not open: %s", d.message);

    live lv;
    live_open(&lv);
    char err[512];
    SlangCompileRequest *req =
        layout_compare_compile(&lv.api, lv.session, args, count, err, sizeof err);
    if (!req)
        fail_msg("%s", err);
    char first[1024];
    size_t bad =
        layout_compare(&lv.api, lv.api.spGetReflection(req), l, first, sizeof first, answers);
    if (bad)
        fail_msg("%zu replayed answers differ from the fake's; first: %s", bad, first);
    lv.api.spDestroyCompileRequest(req);
    live_close(&lv);
    dgpb_layout_close(l);
    return bytes;
}

static void a_render_group_replays_every_answer_of_the_fake(void **state)
{
    (void)state;
    char json[600];
    snprintf(json, sizeof json, "%s/reflection.json", tmp);
    const char *args[] = {"shaders/render.slang",
                          "-DDREAM_SHADERS_RENDER",
                          "-D",
                          "DREAM_TARGET_SPIRV",
                          "-I",
                          "/some/include",
                          "-Ialso",
                          "-matrix-layout-row-major",
                          "-target",
                          "spirv",
                          "-entry",
                          "vmain",
                          "-stage",
                          "vertex",
                          "-entry",
                          "fmain",
                          "-stage",
                          "fragment",
                          "-reflection-json",
                          json};
    size_t size, answers = 0;
    uint8_t *bytes = record_and_compare(args, 20, &size, &answers);
    assert_true(answers > 1000);

    dgpb_layout *l = NULL;
    assert_int_equal(dgpb_layout_open(bytes, size, &l, NULL), DGPB_OK);
    assert_string_equal(dgpb_layout_slang_version(l), "v2025.15-fake");
    assert_string_equal(dgpb_layout_target(l), "spirv");
    assert_int_equal(dgpb_layout_group_kind(l), DGPB_LAYOUT_GROUP_RENDER);
    /* Options: no module, no search folder, no output file. */
    static const char *const expect[] = {"-DDREAM_SHADERS_RENDER",
                                         "-D",
                                         "DREAM_TARGET_SPIRV",
                                         "-matrix-layout-row-major",
                                         "-target",
                                         "spirv",
                                         "-entry",
                                         "vmain",
                                         "-stage",
                                         "vertex",
                                         "-entry",
                                         "fmain",
                                         "-stage",
                                         "fragment"};
    assert_int_equal(dgpb_layout_option_count(l), sizeof expect / sizeof expect[0]);
    for (uint32_t i = 0; i < dgpb_layout_option_count(l); i++)
        assert_string_equal(dgpb_layout_option(l, i), expect[i]);
    /* Entries in the order given. */
    assert_string_equal(dgpb_layout_ep_name(l, 0), "vmain");
    assert_string_equal(dgpb_layout_ep_name(l, 1), "fmain");
    /* One object per live object: the float type is reached from many places. */
    assert_int_equal(dgpb_layout_object_count(l, DGPB_LAYOUT_TYPE), 11);
    dgpb_layout_close(l);
    dgpb_free(bytes);
}

static void entries_are_composed_in_the_order_given(void **state)
{
    (void)state;
    const char *args[] = {"m.slang",  "-target", "wgsl",  "-entry", "fmain", "-stage",
                          "fragment", "-entry",  "vmain", "-stage", "vertex"};
    size_t size;
    uint8_t *bytes = record_and_compare(args, 11, &size, NULL);
    dgpb_layout *l = NULL;
    assert_int_equal(dgpb_layout_open(bytes, size, &l, NULL), DGPB_OK);
    assert_string_equal(dgpb_layout_ep_name(l, 0), "fmain");
    assert_string_equal(dgpb_layout_ep_name(l, 1), "vmain");
    assert_int_equal(dgpb_layout_ep_stage(l, 1), DGPB_SLANG_STAGE_VERTEX);
    dgpb_layout_close(l);
    dgpb_free(bytes);
}

static void a_compute_group_is_deterministic(void **state)
{
    (void)state;
    const char *args[] = {"k.slang", "-DDREAM_SHADER_k", "-target", "spirv", "-entry",
                          "k",       "-stage",           "compute"};
    size_t a_size, b_size;
    uint8_t *a = record_and_compare(args, 8, &a_size, NULL);
    uint8_t *b = record_and_compare(args, 8, &b_size, NULL);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    dgpb_layout *l = NULL;
    assert_int_equal(dgpb_layout_open(a, a_size, &l, NULL), DGPB_OK);
    assert_int_equal(dgpb_layout_group_kind(l), DGPB_LAYOUT_GROUP_COMPUTE);
    uint64_t size[3];
    dgpb_layout_ep_thread_group_size(l, 0, 3, size);
    assert_int_equal(size[0], 8);
    assert_int_equal(size[1], 4);
    assert_string_equal(dgpb_layout_ep_name_override(l, 0), "main");
    dgpb_layout_close(l);

    /* In-process recording gives the same bytes. */
    dgpb_slang_desc sd = {.library = FAKE_SLANG_PATH};
    dgpb_slang *s = NULL;
    dgpb_diag d;
    assert_int_equal(dgpb_slang_open(&sd, &s, &d), DGPB_OK);
    uint8_t *c = NULL;
    size_t c_size = 0;
    assert_int_equal(dgpb_layout_record(s, args, 8, &c, &c_size, &d), DGPB_OK);
    assert_int_equal(c_size, a_size);
    assert_memory_equal(c, a, a_size);
    dgpb_free(c);
    dgpb_slang_close(s);
    dgpb_free(a);
    dgpb_free(b);
}

static void failures_have_their_exit_codes(void **state)
{
    (void)state;
    char out[600];
    snprintf(out, sizeof out, "%s/never.bin", tmp);
    dgpb_process p;
    static const char *const old[] = {"FAKE_SLANG_VERSION=v2023.5.1", NULL};
    static const char *const junk[] = {"FAKE_SLANG_VERSION=unknown", NULL};
    static const struct {
        const char *const *env;
        const char *args[8];
        int status;
        const char *message;
    } cases[] = {
        {NULL,
         {"broken.slang", "-target", "spirv", "-entry", "k", "-stage", "compute", NULL},
         1,
         "undefined identifier 'nope'"},
        {NULL,
         {"generic.slang", "-target", "spirv", "-entry", "k", "-stage", "compute", NULL},
         1,
         "1 specialization parameter"},
        {NULL, {"k.slang", "-entry", "k", "-stage", "compute", NULL}, 2, "no -target given"},
        {NULL,
         {"k.slang", "-target", "spirv", "-target", "wgsl", "-entry", "k", NULL},
         2,
         "one target; 2 given"},
        {old, {"k.slang", "-target", "spirv", NULL}, 4, "is Slang v2023.5.1; the recorder needs"},
        {junk, {"k.slang", "-target", "spirv", NULL}, 4, "cannot read the version"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[16];
        int n = 0;
        argv[n++] = SLANG_LAYOUT_TOOL;
        argv[n++] = "--slang-lib";
        argv[n++] = FAKE_SLANG_PATH;
        for (int k = 0; cases[i].args[k]; k++)
            argv[n++] = cases[i].args[k];
        argv[n++] = "-o";
        argv[n++] = out;
        argv[n] = NULL;
        p = (dgpb_process)DGPB_PROCESS_INIT;
        p.argv = argv;
        p.env = cases[i].env;
        int status = process_run(&p, NULL);
        if (status != cases[i].status || !p.err || !strstr(p.err, cases[i].message))
            fail_msg("case %zu: exit %d, expected %d with '%s'; stderr: %s", i, status,
                     cases[i].status, cases[i].message, p.err ? p.err : "");
        process_clear(&p);
        assert_int_not_equal(access(out, F_OK), 0); /* nothing written */
    }

    /* No usable library: exit 4 with a message saying why. */
    assert_int_equal(run_tool(&p, NULL, "--slang-lib", "/nonexistent/libslang.so", "k.slang",
                              "-target", "spirv", "-o", out, NULL),
                     4);
    assert_non_null(strstr(p.err, "cannot load '/nonexistent/libslang.so'"));
    process_clear(&p);
    static const char *const root[] = {"SLANG_ROOT=/nonexistent", "DGPB_SLANGC", NULL};
    assert_int_equal(run_tool(&p, root, "k.slang", "-target", "spirv", "-o", out, NULL), 4);
    assert_non_null(strstr(p.err, "no native libslang at '/nonexistent/lib/libslang.so'"));
    assert_non_null(strstr(p.err, "WebAssembly build has no reflection C API"));
    process_clear(&p);
    assert_int_equal(run_tool(&p, NULL, "--slang-lib", "libm.so.6", "k.slang", "-o", out, NULL), 4);
    assert_non_null(strstr(p.err, "lacks the Slang function 'spGetBuildTagString'"));
    process_clear(&p);
    assert_int_equal(run_tool(&p, NULL, "--slang-lib", FAKE_SLANG_PATH, "--expect-slang-version",
                              "v2025.14", "k.slang", "-target", "spirv", "-o", out, NULL),
                     4);
    assert_non_null(strstr(p.err, "not v2025.14"));
    process_clear(&p);
    /* Usage. */
    assert_int_equal(run_tool(&p, NULL, "k.slang", "-target", "spirv", NULL), 2);
    assert_non_null(strstr(p.err, "no output given"));
    process_clear(&p);
    assert_int_equal(run_tool(&p, NULL, "--slang-lib", NULL), 2);
    process_clear(&p);
    assert_int_equal(run_tool(&p, NULL, "--slang-lib", FAKE_SLANG_PATH, "--version", NULL), 0);
    assert_non_null(strstr(p.out, "slang v2025.15-fake from"));
    process_clear(&p);
}

/* An environment for dgpb_slang_open(): NAME=VALUE pairs. */
static const char *const *test_env;
static const char *get_env(const char *name, void *user)
{
    (void)user;
    size_t n = strlen(name);
    for (const char *const *e = test_env; e && *e; e++)
        if (!strncmp(*e, name, n) && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

static void libslang_is_found_next_to_the_slangc_in_use(void **state)
{
    (void)state;
    /* root/bin/slangc and root/lib/libslang.so (a link to the fake). */
    char bin[700], lib[700], slangc[800], so[800], empty[700], path_env[900], root_env[900],
        slangc_env[900];
    snprintf(bin, sizeof bin, "%s/root/bin", tmp);
    snprintf(lib, sizeof lib, "%s/root/lib", tmp);
    snprintf(empty, sizeof empty, "%s/empty/bin", tmp);
    assert_int_equal(dgpb_mkdirs(bin, NULL), DGPB_OK);
    assert_int_equal(dgpb_mkdirs(lib, NULL), DGPB_OK);
    assert_int_equal(dgpb_mkdirs(empty, NULL), DGPB_OK);
    snprintf(slangc, sizeof slangc, "%s/slangc", bin);
    snprintf(so, sizeof so, "%s/libslang.so", lib);
    assert_int_equal(dgpb_file_write_atomic(slangc, "#!/bin/sh\n", 10, NULL), DGPB_OK);
    assert_int_equal(chmod(slangc, 0755), 0);
    assert_int_equal(symlink(FAKE_SLANG_PATH, so), 0);

    dgpb_slang *s = NULL;
    dgpb_diag d;
    dgpb_slang_desc sd = {.get_env = get_env};

    /* $DGPB_SLANGC: ../lib next to it. */
    snprintf(slangc_env, sizeof slangc_env, "DGPB_SLANGC=%s", slangc);
    const char *const e1[] = {slangc_env, NULL};
    test_env = e1;
    assert_int_equal(dgpb_slang_open(&sd, &s, &d), DGPB_OK);
    char real_found[4096], real_so[4096];
    assert_non_null(realpath(dgpb_slang_library_path(s), real_found));
    assert_non_null(realpath(so, real_so));
    assert_string_equal(real_found, real_so);
    dgpb_slang_close(s);

    /* $SLANG_ROOT/lib. */
    snprintf(root_env, sizeof root_env, "SLANG_ROOT=%s/root", tmp);
    const char *const e2[] = {root_env, NULL};
    test_env = e2;
    assert_int_equal(dgpb_slang_open(&sd, &s, &d), DGPB_OK);
    dgpb_slang_close(s);

    /* slangc on PATH; a slangc named first wins over it. */
    snprintf(path_env, sizeof path_env, "PATH=%s", bin);
    const char *const e3[] = {path_env, NULL};
    test_env = e3;
    assert_int_equal(dgpb_slang_open(&sd, &s, &d), DGPB_OK);
    dgpb_slang_close(s);
    char other[800];
    snprintf(other, sizeof other, "%s/slangc", empty);
    assert_int_equal(dgpb_file_write_atomic(other, "#!/bin/sh\n", 10, NULL), DGPB_OK);
    sd.slangc = other;
    assert_int_equal(dgpb_slang_open(&sd, &s, &d), DGPB_ERR_UNSUPPORTED);
    assert_null(s);
    assert_non_null(strstr(d.message, "no native libslang next to"));
    assert_non_null(strstr(d.message, "the slangc in use"));
    sd.slangc = NULL;

    /* $DGPB_SLANGC without a libslang: an error, not a fall-through to PATH. */
    snprintf(slangc_env, sizeof slangc_env, "DGPB_SLANGC=%s", other);
    const char *const e4[] = {slangc_env, path_env, NULL};
    test_env = e4;
    assert_int_equal(dgpb_slang_open(&sd, &s, &d), DGPB_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.message, "$DGPB_SLANGC"));
    test_env = NULL;
}

static void the_build_runs_the_recorder_for_a_group(void **state)
{
    (void)state;
    char out[600];
    snprintf(out, sizeof out, "%s/group.layout", tmp);
    const dgpb_layout_entry entries[] = {{"vmain", "vertex"}, {"fmain", "fragment"}};
    const char *defines[] = {"QUALITY=2"};
    const char *includes[] = {"/inc"};
    const char *extra[] = {"-DDREAM_SHADERS_RENDER", "-DDREAM_TARGET_SPIRV",
                           "-matrix-layout-row-major"};
    recording_desc desc = {.recorder = SLANG_LAYOUT_TOOL,
                           .module = "render.slang",
                           .target = "spirv",
                           .entries = entries,
                           .entry_count = 2,
                           .defines = defines,
                           .define_count = 1,
                           .include_dirs = includes,
                           .include_dir_count = 1,
                           .extra_args = extra,
                           .extra_arg_count = 3,
                           .output = out,
                           .slang_lib = FAKE_SLANG_PATH,
                           .expect_slang_version = "v2025.15-fake"};
    uint8_t *blob = NULL;
    size_t size = 0;
    dgpb_diag d;
    if (recording_run(&desc, &blob, &size, &d))
        fail_msg("%s", d.message);
    dgpb_layout *l = NULL;
    assert_int_equal(dgpb_layout_open(blob, size, &l, NULL), DGPB_OK);
    assert_string_equal(dgpb_layout_option(l, 0), "-DQUALITY=2");
    assert_string_equal(dgpb_layout_option(l, 1), "-DDREAM_SHADERS_RENDER");
    assert_string_equal(dgpb_layout_ep_name(l, 1), "fmain");
    assert_int_equal(dgpb_layout_group_kind(l), DGPB_LAYOUT_GROUP_RENDER);
    dgpb_layout_close(l);
    dgpb_free(blob);

    desc.module = "broken.slang";
    assert_int_equal(recording_run(&desc, &blob, &size, &d), DGPB_ERR_SHADER);
    assert_null(blob);
    assert_non_null(strstr(d.message, "undefined identifier 'nope'"));
    desc.module = "render.slang";
    desc.slang_lib = "/nonexistent/libslang.so";
    assert_int_equal(recording_run(&desc, &blob, &size, &d), DGPB_ERR_UNSUPPORTED);
    assert_non_null(strstr(d.message, "cannot load '/nonexistent/libslang.so'"));
    desc.recorder = "/nonexistent/dgpb-slang-layout";
    assert_int_equal(recording_run(&desc, &blob, &size, &d), DGPB_ERR_TOOL);
    desc.recorder = NULL;
    assert_int_equal(recording_run(&desc, &blob, &size, &d), DGPB_ERR_INVALID);
}

static void dgpb_dump_prints_a_layout_of_a_bundle(void **state)
{
    (void)state;
    const char *args[] = {"k.slang", "-DDREAM_SHADER_k", "-target", "spirv", "-entry",
                          "k",       "-stage",           "compute"};
    dgpb_slang_desc sd = {.library = FAKE_SLANG_PATH};
    dgpb_slang *s = NULL;
    dgpb_diag d;
    assert_int_equal(dgpb_slang_open(&sd, &s, &d), DGPB_OK);
    uint8_t *layout = NULL;
    size_t layout_size = 0;
    assert_int_equal(dgpb_layout_record(s, args, 8, &layout, &layout_size, &d), DGPB_OK);
    dgpb_slang_close(s);

    dgpb_model *m = NULL;
    uint32_t t;
    assert_int_equal(model_create(&m), DGPB_OK);
    assert_int_equal(model_add_target(m, "spirv", "spirv", &t, &d), DGPB_OK);
    assert_int_equal(model_add_layout(m, t, layout, layout_size, NULL, &d), DGPB_OK);
    dgpb_entry_desc e = {.name = "k",
                         .stage = "compute",
                         .code = support_spirv_words,
                         .code_size = support_spirv_word_count * 4,
                         .thread_group_size = {8, 4, 1}};
    assert_int_equal(model_add_entry(m, t, &e, &d), DGPB_OK);
    uint8_t *bundle = NULL;
    size_t bundle_size = 0;
    if (bundle_write(m, &bundle, &bundle_size, &d))
        fail_msg("%s", d.message);
    char path[600];
    snprintf(path, sizeof path, "%s/k.dgpb", tmp);
    assert_int_equal(dgpb_file_write_atomic(path, bundle, bundle_size, &d), DGPB_OK);

    const char *text_argv[] = {DGPB_DUMP_TOOL, "--layout", "spirv/0", path, NULL};
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = text_argv;
    assert_int_equal(process_run(&p, &d), 0);
    assert_non_null(strstr(p.out, "target spirv, group compute"));
    assert_non_null(strstr(p.out, "entry 0 'k' (stage 6), override 'main', [8,4,1]"));
    assert_non_null(strstr(p.out, "v1: 'k_out', type t"));
    process_clear(&p);

    const char *json_argv[] = {DGPB_DUMP_TOOL, "--layout", "spirv/layout/0", "--json", path, NULL};
    p = (dgpb_process)DGPB_PROCESS_INIT;
    p.argv = json_argv;
    assert_int_equal(process_run(&p, &d), 0);
    cJSON *doc = cJSON_Parse(p.out);
    if (!doc)
        fail_msg("not JSON: %s", p.out);
    assert_string_equal(cJSON_GetObjectItem(doc, "group")->valuestring, "compute");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "type_layouts")),
                     14); /* every type layout of the fake */
    cJSON_Delete(doc);
    process_clear(&p);

    const char *bad_argv[] = {DGPB_DUMP_TOOL, "--layout", "spirv/1", path, NULL};
    p = (dgpb_process)DGPB_PROCESS_INIT;
    p.argv = bad_argv;
    assert_int_equal(process_run(&p, &d), 2);
    assert_non_null(strstr(p.err, "no layout 1"));
    process_clear(&p);

    dgpb_free(bundle);
    model_destroy(m);
    dgpb_free(layout);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_render_group_replays_every_answer_of_the_fake),
        cmocka_unit_test(entries_are_composed_in_the_order_given),
        cmocka_unit_test(a_compute_group_is_deterministic),
        cmocka_unit_test(failures_have_their_exit_codes),
        cmocka_unit_test(libslang_is_found_next_to_the_slangc_in_use),
        cmocka_unit_test(the_build_runs_the_recorder_for_a_group),
        cmocka_unit_test(dgpb_dump_prints_a_layout_of_a_bundle),
    };
    return cmocka_run_group_tests(tests, support_dir_setup, support_dir_teardown);
}
