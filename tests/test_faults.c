/*
 * test_faults.c - allocation failure at every allocation of every operation.
 *
 * support_run_with_faults() fails allocation N for N = 1, 2, 3, ... until
 * the operation completes; each failing run must return DGPB_ERR_NOMEM (never
 * crash or leak: ASan's leak checker runs these in CI), and the final run
 * must give the same result as an unhooked one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "bundle/model.h"
#include "bundle/writer.h"
#include "support.h"

static int op_build_and_write(void *arg)
{
    (void)arg;
    dgpb_model *m = NULL;
    dgpb_diag d;
    int rc = model_create(&m);
    if (rc)
        return rc;
    uint32_t t;
    dgpb_param_desc p[2] = {{"a", DGPB_KIND_BUFFER, 1, 0, 0, 0, 0, 2},
                            {"b", DGPB_KIND_RW_BUFFER, 2, 0, 1, 0, 0, 3}};
    const char *caps[1] = {"half"};
    dgpb_entry_desc e = {.name = "k",
                         .stage = "compute",
                         .code = "code",
                         .code_size = 4,
                         .thread_group_size = {1, 1, 1},
                         .params = p,
                         .param_count = 2,
                         .capabilities = caps,
                         .capability_count = 1};
    uint8_t *out = NULL;
    size_t n = 0;
    if (!(rc = model_add_target(m, "wgsl", "wgsl", &t, &d)) &&
        !(rc = model_add_entry(m, t, &e, &d)) &&
        !(rc = model_add_target(m, "spirv", "spirv", &t, &d)) &&
        !(rc = model_add_layout(m, t, "L", 1, NULL, &d))) {
        p[0].webgpu_layout = p[1].webgpu_layout = 0; /* no ids off wgsl */
        rc = model_add_entry(m, t, &e, &d);
        if (!rc)
            rc = bundle_write(m, &out, &n, &d);
    }
    dgpb_free(out);
    model_destroy(m);
    return rc;
}

static int op_open_and_view(void *arg)
{
    const support_bytes *bb = arg;
    dgpb_bundle *b = NULL;
    int rc = dgpb_bundle_open(bb->bytes, bb->size, DGPB_OPEN_VERIFY_SHA256, &b, NULL);
    if (rc)
        return rc;
    char *json = NULL;
    rc = dgpb_json_view(b, "golden", &json, NULL);
    dgpb_free(json);
    dgpb_bundle_close(b);
    return rc;
}

static void building_and_writing_survive_every_failed_allocation(void **state)
{
    (void)state;
    /* more than 3: the loop did meet the operation's allocations */
    assert_true(support_run_with_faults(op_build_and_write, NULL, DGPB_OK, "build and write") > 3);
}

static void opening_survives_every_failed_allocation(void **state)
{
    (void)state;
    support_bytes bb;
    bb.bytes = support_golden_bytes(&bb.size);
    assert_true(support_run_with_faults(op_open_and_view, &bb, DGPB_OK, "open") > 3);
    dgpb_free(bb.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(building_and_writing_survive_every_failed_allocation),
        cmocka_unit_test(opening_survives_every_failed_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
