/*
 * layout_native_test.c - every fixture's pipeline groups recorded with a
 * native libslang and every replayed answer compared with the live API.
 *
 * Built only with -DDGPB_SLANG_ROOT=... (label native-slang; docs/layout.md,
 * "Testing"): NATIVE_SLANG_LIB and FIXTURES_DIR (the fixtures/ folder) come
 * from tests/layout_record/CMakeLists.txt. For each module of fixtures/build
 * and fixtures/plain (plain_lib_* are imported modules, not fixtures; the
 * plain folder's include/ is searched) and each of spirv, wgsl, ptx, dxil and
 * metal: discover the entries (every group symbol
 * defined, no -entry), group them as dgpb-build does (each compute entry
 * alone, the rasterisation entries together, the ray-tracing entries
 * together), record each group with dgpb_layout_record() and compare the
 * replay with the same compile asked live. A target a module cannot
 * compile for is reported and left out; a group that compiles must match.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <dirent.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "dgpb/layout.h"
#include "driver/targets.h"
#include "layout_compare.h"
#include "layout/slang_api.h"

/* slangc's -stage name of a SlangStage (the vocabulary's), or NULL for one no bundle holds. */
static const char *stage_name(SlangStage s)
{
    int stage = dgpb_stage_from_slang(s);
    return stage < 0 ? NULL : dgpb_stage_name((uint32_t)stage);
}

typedef struct entry {
    char name[128];
    SlangStage stage;
} entry;

typedef struct ctx {
    dgpb_slang *slang;
    dgpb_slang_api api;
    void *handle;
    SlangSession *session;
    size_t groups, answers;
} ctx;

/* Records one group and compares; fails the test on any difference. */
/* The -I folder of a fixture folder (its include/), or NULL. */
static const char *include_dir_of(const char *module, char *buf, size_t n)
{
    snprintf(buf, n, "%s", module);
    char *slash = strrchr(buf, '/');
    if (!slash)
        return NULL;
    snprintf(slash, n - (size_t)(slash - buf), "/include");
    DIR *d = opendir(buf);
    if (!d)
        return NULL;
    closedir(d);
    return buf;
}

static void check_group(ctx *c, const char *module, const char *target, const char *macro,
                        const char *group_symbol, const entry *entries, size_t n)
{
    const char *args[64];
    char defs[2][160], inc[1024];
    int k = 0;
    args[k++] = module;
    if (include_dir_of(module, inc, sizeof inc)) {
        args[k++] = "-I";
        args[k++] = inc;
    }
    if (group_symbol) {
        snprintf(defs[0], sizeof defs[0], "-D%s", group_symbol);
        args[k++] = defs[0];
    }
    snprintf(defs[1], sizeof defs[1], "-D%s", macro);
    args[k++] = defs[1];
    args[k++] = "-matrix-layout-row-major";
    args[k++] = "-target";
    args[k++] = target;
    for (size_t i = 0; i < n && k < 60; i++) {
        args[k++] = "-entry";
        args[k++] = entries[i].name;
        args[k++] = "-stage";
        args[k++] = stage_name(entries[i].stage);
    }
    uint8_t *blob = NULL;
    size_t size = 0;
    dgpb_diag d;
    if (dgpb_layout_record(c->slang, args, (size_t)k, &blob, &size, &d))
        fail_msg("%s (%s, group %s): recording failed: %s", module, target,
                 group_symbol ? group_symbol : "-", d.message);
    dgpb_layout *l = NULL;
    if (dgpb_layout_open(blob, size, &l, &d))
        fail_msg("%s (%s): the layout does not open: %s", module, target, d.message);
    char err[2048];
    SlangCompileRequest *req =
        layout_compare_compile(&c->api, c->session, args, k, err, sizeof err);
    if (!req)
        fail_msg("%s (%s): the live compile failed: %s", module, target, err);
    char first[1024];
    size_t answers = 0;
    size_t bad =
        layout_compare(&c->api, c->api.spGetReflection(req), l, first, sizeof first, &answers);
    if (bad)
        fail_msg("%s (%s, group %s): %zu answers differ; first: %s", module, target,
                 group_symbol ? group_symbol : "-", bad, first);
    c->groups++;
    c->answers += answers;
    c->api.spDestroyCompileRequest(req);
    dgpb_layout_close(l);
    dgpb_free(blob);
}

static void check_module(ctx *c, const char *path)
{
    uint8_t *text = NULL;
    size_t len = 0;
    dgpb_diag d;
    if (dgpb_file_read(path, 1u << 24, &text, &len, &d))
        fail_msg("%s", d.message);
    char **symbols = NULL;
    size_t nsym = 0;
    if (scan_group_symbols((const char *)text, len, &symbols, &nsym, &d))
        fail_msg("%s", d.message);
    static const char *const targets[][2] = {{"spirv", "DREAM_TARGET_SPIRV"},
                                             {"wgsl", "DREAM_TARGET_WGSL"},
                                             {"ptx", "DREAM_TARGET_PTX"},
                                             {"dxil", "DREAM_TARGET_DXIL"},
                                             {"metal", "DREAM_TARGET_METAL"}};
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        /* Discovery: every group symbol, no -entry. */
        const char *args[64];
        char defs[40][160], inc[1024];
        int k = 0;
        args[k++] = path;
        if (include_dir_of(path, inc, sizeof inc)) {
            args[k++] = "-I";
            args[k++] = inc;
        }
        for (size_t i = 0; i < nsym && i < 36; i++) {
            snprintf(defs[i], sizeof defs[i], "-D%s", symbols[i]);
            args[k++] = defs[i];
        }
        snprintf(defs[39], sizeof defs[39], "-D%s", targets[t][1]);
        args[k++] = defs[39];
        args[k++] = "-matrix-layout-row-major";
        args[k++] = "-target";
        args[k++] = targets[t][0];
        char err[2048];
        SlangCompileRequest *req =
            layout_compare_compile(&c->api, c->session, args, k, err, sizeof err);
        if (!req) {
            printf("note: %s does not compile for %s; left out\n", path, targets[t][0]);
            continue;
        }
        SlangReflection *r = c->api.spGetReflection(req);
        size_t n = (size_t)c->api.spReflection_getEntryPointCount(r);
        entry *entries = calloc(n ? n : 1, sizeof *entries);
        for (size_t i = 0; i < n; i++) {
            SlangReflectionEntryPoint *e = c->api.spReflection_getEntryPointByIndex(r, i);
            snprintf(entries[i].name, sizeof entries[i].name, "%s",
                     c->api.spReflectionEntryPoint_getName(e));
            entries[i].stage = c->api.spReflectionEntryPoint_getStage(e);
        }
        c->api.spDestroyCompileRequest(req);

        bool dream = nsym > 0;
        entry raster[16], rt[16];
        size_t nraster = 0, nrt = 0;
        bool ptx = !strcmp(targets[t][0], "ptx");
        for (size_t i = 0; i < n; i++) {
            SlangStage s = entries[i].stage;
            if (!stage_name(s) || (ptx && s != DGPB_SLANG_STAGE_COMPUTE))
                continue; /* ptx carries compute entries only */
            if (s == DGPB_SLANG_STAGE_COMPUTE) {
                char sym[200];
                snprintf(sym, sizeof sym, "DREAM_SHADER_%s", entries[i].name);
                check_group(c, path, targets[t][0], targets[t][1], dream ? sym : NULL, &entries[i],
                            1);
            } else if (dgpb_stage_is_ray_tracing((uint32_t)dgpb_stage_from_slang(s))) {
                if (nrt < 16)
                    rt[nrt++] = entries[i];
            } else if (nraster < 16) {
                raster[nraster++] = entries[i];
            }
        }
        if (nraster)
            check_group(c, path, targets[t][0], targets[t][1],
                        dream ? "DREAM_SHADERS_RENDER" : NULL, raster, nraster);
        if (nrt)
            check_group(c, path, targets[t][0], targets[t][1],
                        dream ? "DREAM_SHADERS_RAY_TRACING" : NULL, rt, nrt);
        free(entries);
    }
    group_symbols_free(symbols, nsym);
    dgpb_free(text);
}

static void every_fixture_group_replays_the_live_answers(void **state)
{
    (void)state;
    ctx c = {0};
    dgpb_slang_desc sd = {.library = NATIVE_SLANG_LIB};
    dgpb_diag d;
    if (dgpb_slang_open(&sd, &c.slang, &d))
        fail_msg("%s", d.message);
    c.handle = dlopen(dgpb_slang_library_path(c.slang), RTLD_NOW | RTLD_LOCAL);
    assert_non_null(c.handle);
    assert_int_equal(slang_api_load(c.handle, NATIVE_SLANG_LIB, &c.api, &d), DGPB_OK);
    c.session = c.api.spCreateSession(NULL);
    assert_non_null(c.session);

    static const char *const folders[] = {FIXTURES_DIR "/build", FIXTURES_DIR "/plain"};
    size_t modules = 0;
    for (size_t f = 0; f < 2; f++) {
        DIR *dir = opendir(folders[f]);
        assert_non_null(dir);
        char *names[128];
        size_t n = 0;
        for (struct dirent *e; (e = readdir(dir)) != NULL && n < 128;) {
            size_t len = strlen(e->d_name);
            if (len > 6 && !strcmp(e->d_name + len - 6, ".slang") &&
                strncmp(e->d_name, "plain_lib_", 10))
                names[n++] = strdup(e->d_name);
        }
        closedir(dir);
        assert_true(n > 0);
        for (size_t i = 0; i < n; i++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", folders[f], names[i]);
            check_module(&c, path);
            free(names[i]);
        }
        modules += n;
    }
    printf("%zu modules, %zu groups recorded with Slang %s, %zu answers compared\n", modules,
           c.groups, dgpb_slang_version_string(c.slang), c.answers);
    assert_true(c.groups > 0);
    c.api.spDestroySession(c.session);
    dlclose(c.handle);
    dgpb_slang_close(c.slang);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_fixture_group_replays_the_live_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
