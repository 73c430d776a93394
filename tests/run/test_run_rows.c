/*
 * test_run_rows.c - the runner binds issue 24's rows by name on lavapipe
 * (docs/run.md): a specialization constant (space 0xFFFFFFFE, set through
 * VkSpecializationInfo, the code's default when not set), a cbuffer filled
 * field by field, a fixed array of resources (rows name[i] sharing one
 * binding: descriptorCount 3, each element written by its index).
 *
 * The code is real Slang output, fixtures/values/rows.slang compiled per
 * entry:
 *
 *   tools/slangc-wasm/slangc-wasm fixtures/values/rows.slang -target spirv \
 *       -entry ENTRY -stage compute -o fixtures/values/rows_ENTRY.spv
 *
 * and the rows are written here as docs/format.md's rules place them, so that
 * the runner is tested apart from the build's reflection.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "dgpb/run.h"
#include "bundle/model.h"
#include "bundle/writer.h"
#include "support.h"

#define RO DGPB_FLAG_READ_ONLY
#define RW DGPB_FLAG_WRITTEN

/* Writes a one-entry spirv bundle of `rows` over fixtures/values/rows_<entry>.spv to `path`. */
static void write_bundle(const char *path, const char *entry, const dgpb_param_desc *rows,
                         uint32_t count)
{
    char rel[128];
    snprintf(rel, sizeof rel, "fixtures/values/rows_%s.spv", entry);
    size_t size = 0;
    uint8_t *code = support_read_source_file(rel, &size);
    assert_non_null(code);
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint32_t t = 0;
    assert_int_equal(model_create(&m), DGPB_OK);
    assert_int_equal(model_add_target(m, "spirv", "spirv", &t, &d), DGPB_OK);
    dgpb_entry_desc e = {.name = entry,
                         .stage = "compute",
                         .code = code,
                         .code_size = size,
                         .thread_group_size = {1, 1, 1},
                         .params = rows,
                         .param_count = count};
    if (model_add_entry(m, t, &e, &d))
        fail_msg("model: %s", d.message);
    uint8_t *bytes = NULL;
    size_t n = 0;
    if (bundle_write(m, &bytes, &n, &d))
        fail_msg("write: %s", d.message);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
    dgpb_free(bytes);
    dgpb_free(code);
    model_destroy(m);
}

/* Runs `req` on the bundle at `path`; fails the test unless it runs. */
static void run(const char *path, dgpb_run_request *req, dgpb_run_result *res)
{
    dgpb_runner *r = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    dgpb_runner_desc desc = {.backend = DGPB_BACKEND_VULKAN};
    if (dgpb_runner_create(&desc, &r, &d))
        fail_msg("no Vulkan device (install mesa-vulkan-drivers): %s", d.message);
    if (dgpb_runner_run(r, path, req, res, &d))
        fail_msg("run: %s", d.message);
    dgpb_runner_destroy(r);
}

/* The bytes of `text` for value row `name` of the bundle, typed by its code. */
static uint8_t *value(const char *path, const char *entry, const char *name, const char *text,
                      size_t *size)
{
    uint8_t *file = NULL, *out = NULL;
    dgpb_bundle *b = NULL;
    const dgpb_target_view *t = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_run_load_bundle(path, DGPB_BACKEND_VULKAN, &file, &b, &t, &d), DGPB_OK);
    if (dgpb_run_value_bytes(b, t, entry, name, text, &out, size, &d))
        fail_msg("%s: %s", name, d.message);
    dgpb_bundle_close(b);
    dgpb_free(file);
    return out;
}

static void test_pipeline_constant_set_and_default(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/constants.dgpb", support_dir);
    static const dgpb_param_desc rows[] = {
        {"N", DGPB_KIND_VALUE, RO, DGPB_SPACE_PIPELINE_CONSTANT, 3, 0, 4, 0},
        {"result", DGPB_KIND_RW_BUFFER, RW, 0, 2, 0, 0, 0},
    };
    write_bundle(path, "constants", rows, 2);
    size_t n = 0;
    uint8_t *nine = value(path, "constants", "N", "9", &n);
    assert_int_equal(n, 4);
    dgpb_run_param p[] = {{.name = "N", .kind = DGPB_RUN_KIND_ANY, .input = nine, .size = 4},
                          {.name = "result", .kind = DGPB_RUN_KIND_ANY, .size = 4}};
    dgpb_run_request req = {.entry = "constants", .params = p, .param_count = 2};
    dgpb_run_result res;
    run(path, &req, &res);
    float got;
    memcpy(&got, res.outputs[1].data, 4);
    assert_true(got == 9.0f);
    dgpb_run_result_free(&res);
    /* Not set: the code's default, 4. */
    req.params = &p[1];
    req.param_count = 1;
    run(path, &req, &res);
    memcpy(&got, res.outputs[0].data, 4);
    assert_true(got == 4.0f);
    dgpb_run_result_free(&res);
    dgpb_free(nine);
}

static void test_cbuffer_by_fields(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/fields.dgpb", support_dir);
    static const dgpb_param_desc rows[] = {
        {"Dims", DGPB_KIND_UNIFORM_BUFFER, RO, 0, 0, 0, 0, 0},
        {"count", DGPB_KIND_VALUE, RO, 0, 0, 0, 4, 0},
        {"scale", DGPB_KIND_VALUE, RO, 0, 0, 4, 4, 0},
        {"bias", DGPB_KIND_VALUE, RO, 0, 0, 8, 4, 0},
        {"pad", DGPB_KIND_VALUE, RO, 0, 0, 12, 4, 0},
        {"result", DGPB_KIND_RW_BUFFER, RW, 0, 2, 0, 0, 0},
    };
    write_bundle(path, "fields", rows, 6);
    size_t n = 0;
    uint8_t *count = value(path, "fields", "count", "3", &n);
    uint8_t *scale = value(path, "fields", "scale", "2", &n); /* 2.0, typed by the code */
    uint8_t *bias = value(path, "fields", "bias", "1", &n);
    dgpb_run_param p[] = {{.name = "count", .kind = DGPB_RUN_KIND_ANY, .input = count, .size = 4},
                          {.name = "scale", .kind = DGPB_RUN_KIND_ANY, .input = scale, .size = 4},
                          {.name = "bias", .kind = DGPB_RUN_KIND_ANY, .input = bias, .size = 4},
                          {.name = "result", .kind = DGPB_RUN_KIND_ANY, .size = 16}};
    dgpb_run_request req = {.entry = "fields", .params = p, .param_count = 4};
    dgpb_run_result res;
    run(path, &req, &res); /* pad is not given: zero */
    float got[4];
    memcpy(got, res.outputs[3].data, 16);
    assert_true(got[0] == 1.0f && got[1] == 3.0f && got[2] == 5.0f && got[3] == 0.0f);
    dgpb_run_result_free(&res);
    /* The block's bytes and a field together: refused before anything runs. */
    static const uint8_t block[16] = {0};
    dgpb_run_param both[] = {
        {.name = "Dims", .kind = DGPB_RUN_KIND_ANY, .input = block, .size = 16},
        {.name = "count", .kind = DGPB_RUN_KIND_ANY, .input = count, .size = 4},
        {.name = "result", .kind = DGPB_RUN_KIND_ANY, .size = 16}};
    dgpb_run_request bad = {.entry = "fields", .params = both, .param_count = 3};
    uint8_t *file = NULL;
    dgpb_bundle *b = NULL;
    const dgpb_target_view *t = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_run_load_bundle(path, DGPB_BACKEND_VULKAN, &file, &b, &t, &d), DGPB_OK);
    assert_int_equal(dgpb_run_check(t, &bad, NULL, &d), DGPB_ERR_INVALID);
    assert_contains(d.message, "block 'Dims' is given as bytes and its field 'count' too");
    dgpb_bundle_close(b);
    dgpb_free(file);
    dgpb_free(count);
    dgpb_free(scale);
    dgpb_free(bias);
}

static void test_fixed_array_of_buffers(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/arrays.dgpb", support_dir);
    static const dgpb_param_desc rows[] = {
        {"buffers[0]", DGPB_KIND_RW_BUFFER, RW, 0, 1, 0, 0, 0},
        {"buffers[1]", DGPB_KIND_RW_BUFFER, RW, 0, 1, 0, 0, 0},
        {"buffers[2]", DGPB_KIND_RW_BUFFER, RW, 0, 1, 0, 0, 0},
    };
    write_bundle(path, "arrays", rows, 3);
    static const int32_t in[3] = {1, 2, 3};
    dgpb_run_param p[] = {{.name = "buffers[0]",
                           .kind = DGPB_RUN_KIND_ANY,
                           .input = (const uint8_t *)&in[0],
                           .size = 4},
                          {.name = "buffers[1]",
                           .kind = DGPB_RUN_KIND_ANY,
                           .input = (const uint8_t *)&in[1],
                           .size = 4},
                          {.name = "buffers[2]",
                           .kind = DGPB_RUN_KIND_ANY,
                           .input = (const uint8_t *)&in[2],
                           .size = 4}};
    dgpb_run_request req = {.entry = "arrays", .params = p, .param_count = 3};
    dgpb_run_result res;
    run(path, &req, &res);
    for (int i = 0; i < 3; i++) {
        int32_t got;
        memcpy(&got, res.outputs[i].data, 4);
        if (got != in[i] * 10 + i)
            fail_msg("buffers[%d]: %d, want %d", i, got, in[i] * 10 + i);
    }
    dgpb_run_result_free(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_constant_set_and_default),
        cmocka_unit_test(test_cbuffer_by_fields),
        cmocka_unit_test(test_fixed_array_of_buffers),
    };
    return cmocka_run_group_tests(tests, support_dir_setup, support_dir_teardown);
}
