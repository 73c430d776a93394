/*
 * support.c - the golden model and byte-offset helpers for the format tests;
 * the failing allocator, temporary folders and written outputs for every
 * test.
 *
 * The golden model exercises every part of the format: two targets added out
 * of order, a layout blob, compute and ray-tracing entries, every parameter
 * kind the wgsl ID table covers, value rows with offsets, capabilities given
 * unsorted, and two entries per target with identical code (stored once).
 * Changing it changes fixtures/format/golden.*: regenerate them with
 * tools/regen-format-fixtures.sh and review the diff.
 */
#define _GNU_SOURCE /* program_invocation_short_name; mkdtemp, nftw */
#include "support.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bundle/model.h"
#include "bundle/writer.h"

const uint32_t support_spirv_words[] = {
    0x07230203u, 0x00010500u, 0x00070000u, 0x00000012u, 0x00000000u, 0x00020011u, 0x00000001u,
    0x0003000eu, 0x00000000u, 0x00000001u, 0x0007000fu, 0x00000005u, 0x00000001u, 0x6e69616du,
    0x00000000u, 0x00000002u, 0x00000003u, 0x00060010u, 0x00000001u, 0x00000011u, 0x00000040u,
    0x00000001u, 0x00000001u, 0x00030003u, 0x0000000bu, 0x00000001u, 0x00040005u, 0x00000001u,
    0x6e69616du, 0x00000000u, 0x00040005u, 0x00000003u, 0x756f5f6bu, 0x00000074u, 0x00040047u,
    0x00000002u, 0x0000000bu, 0x0000001cu, 0x00040047u, 0x00000004u, 0x00000006u, 0x00000004u,
    0x00030047u, 0x00000005u, 0x00000002u, 0x00050048u, 0x00000005u, 0x00000000u, 0x00000023u,
    0x00000000u, 0x00040047u, 0x00000003u, 0x00000022u, 0x00000000u, 0x00040047u, 0x00000003u,
    0x00000021u, 0x00000000u, 0x00020013u, 0x00000006u, 0x00030021u, 0x00000007u, 0x00000006u,
    0x00040015u, 0x00000008u, 0x00000020u, 0x00000000u, 0x0004002bu, 0x00000008u, 0x00000009u,
    0x00000000u, 0x00040017u, 0x0000000au, 0x00000008u, 0x00000003u, 0x00040020u, 0x0000000bu,
    0x00000001u, 0x0000000au, 0x0004003bu, 0x0000000bu, 0x00000002u, 0x00000001u, 0x0003001du,
    0x00000004u, 0x00000008u, 0x0003001eu, 0x00000005u, 0x00000004u, 0x00040020u, 0x0000000cu,
    0x0000000cu, 0x00000005u, 0x0004003bu, 0x0000000cu, 0x00000003u, 0x0000000cu, 0x00040020u,
    0x0000000du, 0x0000000cu, 0x00000008u, 0x00050036u, 0x00000006u, 0x00000001u, 0x00000000u,
    0x00000007u, 0x000200f8u, 0x0000000eu, 0x0004003du, 0x0000000au, 0x0000000fu, 0x00000002u,
    0x00050051u, 0x00000008u, 0x00000010u, 0x0000000fu, 0x00000000u, 0x00060041u, 0x0000000du,
    0x00000011u, 0x00000003u, 0x00000009u, 0x00000010u, 0x0003003eu, 0x00000011u, 0x00000010u,
    0x000100fdu, 0x00010038u};
const size_t support_spirv_word_count = sizeof support_spirv_words / sizeof support_spirv_words[0];

static const char wgsl_code[] =
    "@binding(0) @group(0) var<storage, read_write> k_out : array<u32>;\n"
    "@compute @workgroup_size(64, 1, 1)\n"
    "fn k(@builtin(global_invocation_id) id : vec3<u32>) { k_out[id.x] = id.x; }\n";

static const char layout_bytes[] = "DGPBLAYOUT test layout 0";

static void must(int rc, const dgpb_diag *d)
{
    if (rc) {
        fprintf(stderr, "support: %s\n", d->message);
        abort();
    }
}

/* The parameter table shared by both targets; webgpu IDs only on wgsl. */
/* The golden's shapes (docs/format.md, "Shapes"): a 2D float texture, 2D read-write storage
   textures of rgba32float and r32uint. */
#define GOLDEN_TEX (DGPB_DIM_2D | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT)
#define GOLDEN_IMG                                                                                 \
    (GOLDEN_TEX | DGPB_TEXEL_RGBA32FLOAT << DGPB_SHAPE_FORMAT_SHIFT |                              \
     DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT)
#define GOLDEN_COUNTS                                                                              \
    (DGPB_DIM_2D | DGPB_SAMPLE_UINT << DGPB_SHAPE_SAMPLE_SHIFT |                                   \
     DGPB_TEXEL_R32UINT << DGPB_SHAPE_FORMAT_SHIFT |                                               \
     DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT)

static void params_for(int wgsl, dgpb_param_desc out[9])
{
    const dgpb_param_desc rows[9] = {
        {"scale", DGPB_KIND_VALUE, DGPB_FLAG_READ_ONLY, 0, 0, 0, 4, 1},
        {"transform", DGPB_KIND_VALUE, DGPB_FLAG_READ_ONLY, 0, 0, 16, 48, 1},
        {"src", DGPB_KIND_BUFFER, DGPB_FLAG_READ_ONLY, 0, 1, 0, 0, 2},
        {"dst", DGPB_KIND_RW_BUFFER, DGPB_FLAG_WRITTEN, 0, 2, 0, 0, 3},
        {"bytes", DGPB_KIND_RW_BYTE_BUFFER, 0, 0, 3, 0, 0, 3},
        {"tex", DGPB_KIND_TEXTURE, DGPB_FLAG_READ_ONLY, 0, 4, GOLDEN_TEX, 0, 5},
        {"smp", DGPB_KIND_SAMPLER, DGPB_FLAG_READ_ONLY, 0, 5, 0, 0, 4},
        {"img", DGPB_KIND_RW_TEXTURE, DGPB_FLAG_WRITTEN, 0, 6, GOLDEN_IMG, 0, 8},
        {"counts", DGPB_KIND_RW_TEXTURE, DGPB_FLAG_WRITTEN, 1, 0, GOLDEN_COUNTS, 0, 9},
    };
    for (int i = 0; i < 9; i++) {
        out[i] = rows[i];
        if (!wgsl)
            out[i].webgpu_layout = 0;
    }
}

dgpb_model *support_golden_model(void)
{
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    must(model_create(&m), &d);
    uint32_t wgsl, spirv;
    must(model_add_target(m, "wgsl", "wgsl", &wgsl, &d), &d);
    must(model_add_target(m, "spirv", "spirv", &spirv, &d), &d);
    must(model_add_layout(m, spirv, layout_bytes, sizeof layout_bytes - 1, NULL, &d), &d);

    dgpb_param_desc params[9];
    params_for(1, params);
    const char *no_caps[1] = {NULL};
    dgpb_entry_desc k = {
        .name = "k",
        .stage = "compute",
        .code = wgsl_code,
        .code_size = sizeof wgsl_code - 1,
        .thread_group_size = {64, 1, 1},
        .params = params,
        .param_count = 9,
        .capabilities = no_caps,
    };
    must(model_add_entry(m, wgsl, &k, &d), &d);
    dgpb_entry_desc k2 = k;
    k2.name = "k2";
    k2.param_count = 4;
    must(model_add_entry(m, wgsl, &k2, &d), &d);

    params_for(0, params);
    const char *caps[2] = {"subgroup_basic", "half"};
    k.code = support_spirv_words;
    k.code_size = support_spirv_word_count * 4;
    k.capabilities = caps;
    k.capability_count = 2;
    must(model_add_entry(m, spirv, &k, &d), &d);
    k2 = k;
    k2.name = "k2";
    k2.param_count = 4;
    k2.capability_count = 0;
    must(model_add_entry(m, spirv, &k2, &d), &d);

    /* A ray-generation entry with different code (the module's name string changed). */
    uint32_t rg_words[256];
    memcpy(rg_words, support_spirv_words, support_spirv_word_count * 4);
    for (size_t i = 0; i < support_spirv_word_count; i++)
        if (rg_words[i] == 0x756f5f6bu) /* "k_ou" */
            rg_words[i] = 0x6e695f6bu;  /* "k_in" */
    const char *rt_caps[1] = {"raytracing"};
    dgpb_param_desc scene = {
        "scene", DGPB_KIND_ACCELERATION_STRUCTURE, DGPB_FLAG_READ_ONLY, 0, 7, 0, 0, 0};
    dgpb_entry_desc rg = {
        .name = "rg",
        .stage = "raygeneration",
        .code = rg_words,
        .code_size = support_spirv_word_count * 4,
        .params = &scene,
        .param_count = 1,
        .capabilities = rt_caps,
        .capability_count = 1,
    };
    must(model_add_entry(m, spirv, &rg, &d), &d);
    return m;
}

uint8_t *support_golden_bytes(size_t *size)
{
    dgpb_model *m = support_golden_model();
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint8_t *bytes = NULL;
    must(bundle_write(m, &bytes, size, &d), &d);
    model_destroy(m);
    return bytes;
}

/* The model of support_two_target_bytes(), unwritten. */
static dgpb_model *two_target_model(void)
{
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    must(model_create(&m), &d);
    const char *names[2] = {"wgsl", "dxil"};
    for (int i = 0; i < 2; i++) {
        uint32_t t;
        must(model_add_target(m, names[i], names[i], &t, &d), &d);
        dgpb_entry_desc e = {.name = "k",
                             .stage = "compute",
                             .code = names[i],
                             .code_size = 4,
                             .thread_group_size = {1, 1, 1}};
        must(model_add_entry(m, t, &e, &d), &d);
    }
    return m;
}

uint8_t *support_two_target_bytes(size_t *size)
{
    dgpb_model *m = two_target_model();
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint8_t *bytes = NULL;
    must(bundle_write(m, &bytes, size, &d), &d);
    model_destroy(m);
    return bytes;
}

uint8_t *support_options_bytes(size_t *size)
{
    dgpb_model *m = two_target_model();
    dgpb_diag d;
    dgpb_diag_clear(&d);
    must(model_set_option(m, DGPB_OPTION_SPIRV_VERSION, "1.6", &d), &d);
    must(model_set_option(m, DGPB_OPTION_MATRIX_LAYOUT, "column", &d), &d);
    must(model_set_option(m, DGPB_OPTION_SLANG_CAPABILITIES, SUPPORT_OPTION_CAPABILITIES, &d), &d);
    must(model_set_option(m, DGPB_OPTION_OPTIMIZATION, "0", &d), &d);
    must(model_set_option(m, DGPB_OPTION_DEBUG_INFO, "2", &d), &d);
    must(model_set_option(m, DGPB_OPTION_BLOCK_LAYOUT, "scalar", &d), &d);
    uint8_t *bytes = NULL;
    must(bundle_write(m, &bytes, size, &d), &d);
    model_destroy(m);
    return bytes;
}

size_t support_offset_of(const uint8_t *bytes, const void *p)
{
    return (size_t)((const uint8_t *)p - bytes);
}

size_t support_code_ref_offset(const uint8_t *bytes, const dgpb_entry_view *e)
{
    return support_offset_of(bytes, e->stage.ptr) + e->stage.len + 4;
}

size_t support_param_field_offset(const uint8_t *bytes, const dgpb_param_view *p, int field)
{
    return support_offset_of(bytes, p->name.ptr) + p->name.len + 4u * (size_t)field;
}

uint32_t support_get_u32(const uint8_t *bytes, size_t at)
{
    return (uint32_t)bytes[at] | (uint32_t)bytes[at + 1] << 8 | (uint32_t)bytes[at + 2] << 16 |
           (uint32_t)bytes[at + 3] << 24;
}

void support_put_u32(uint8_t *bytes, size_t at, uint32_t v)
{
    bytes[at] = (uint8_t)v;
    bytes[at + 1] = (uint8_t)(v >> 8);
    bytes[at + 2] = (uint8_t)(v >> 16);
    bytes[at + 3] = (uint8_t)(v >> 24);
}

uint8_t *support_read_source_file(const char *relpath, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", DGPB_SOURCE_DIR, relpath);
    uint8_t *bytes = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_file_read(path, 1u << 30, &bytes, size, &d)) {
        fprintf(stderr, "support: %s\n", d.message);
        return NULL;
    }
    return bytes;
}

/* ---- allocation fault injection ------------------------------------------ */

static long fault_countdown = -1; /* allocations left before one fails; -1: never */
static long fault_count;          /* allocations failed since the last arming */
static int fault_all;             /* every allocation fails */
static long fault_seen;           /* allocations asked for since the last arming */

/* Whether the allocation about to be made fails; counts it down otherwise. */
static int fault_now(void)
{
    fault_seen++;
    if (fault_all || fault_countdown == 0) {
        fault_count++;
        fault_countdown = -1;
        return 1;
    }
    if (fault_countdown > 0)
        fault_countdown--;
    return 0;
}

static void *fault_alloc(size_t size, void *user)
{
    (void)user;
    return fault_now() ? NULL : malloc(size);
}

static void *fault_realloc(void *p, size_t size, void *user)
{
    (void)user;
    return fault_now() ? NULL : realloc(p, size);
}

static void fault_free(void *p, void *user)
{
    (void)user;
    free(p);
}

static const dgpb_allocator failing = {fault_alloc, fault_realloc, fault_free, NULL};

void support_faults_arm(long n)
{
    fault_countdown = n < 0 ? -1 : n;
    fault_count = 0;
    fault_seen = 0;
    fault_all = 0;
    dgpb_set_allocator(&failing);
}

void support_faults_arm_all(void)
{
    support_faults_arm(-1);
    fault_all = 1;
}

long support_faults_fired(void)
{
    return fault_count;
}

long support_faults_seen(void)
{
    return fault_seen;
}

void support_faults_disarm(void)
{
    fault_countdown = -1;
    fault_all = 0;
    dgpb_set_allocator(NULL);
}

long support_run_with_faults(int (*op)(void *), void *arg, int expected, const char *what)
{
    for (long n = 0;; n++) {
        support_faults_arm(n);
        int rc = op(arg);
        long fired = support_faults_fired();
        support_faults_disarm();
        if (fired == 0) {
            if (rc == expected)
                return n;
            fprintf(stderr, "%s: result %d with no allocation failing, not %d\n", what, rc,
                    expected);
            return -1;
        }
        if (rc != DGPB_ERR_NOMEM) {
            fprintf(stderr, "%s: allocation %ld failed and the result was %d, not DGPB_ERR_NOMEM\n",
                    what, n + 1, rc);
            return -1;
        }
    }
}

/* ---- temporary folders --------------------------------------------------- */

int support_make_temp_dir(const char *name, char *buf, size_t n)
{
    int len = snprintf(buf, n, "/tmp/dgpb-%s-XXXXXX", name);
    if (len < 0 || (size_t)len >= n || !mkdtemp(buf)) {
        if (n)
            buf[0] = 0;
        return -1;
    }
    return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int support_remove_tree(const char *path)
{
    return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

char support_dir[256];

int support_dir_setup(void **state)
{
    (void)state;
    const char *name = program_invocation_short_name;
    if (!strncmp(name, "test_", 5))
        name += 5;
    return support_make_temp_dir(name, support_dir, sizeof support_dir);
}

int support_dir_teardown(void **state)
{
    (void)state;
    return support_remove_tree(support_dir);
}

/* ---- outputs of test programs -------------------------------------------- */

int support_write_output(const char *dir, const char *name, const void *data, size_t size,
                         dgpb_diag *d)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path)
        return dgpb_diag_set(d, DGPB_ERR_LIMIT, -1, "the path '%s/%s' is too long", dir, name);
    return dgpb_file_write_atomic(path, data, size, d);
}
