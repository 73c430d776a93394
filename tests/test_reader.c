/*
 * test_reader.c - the reader: views of every field, lookups, and rejection
 * of every malformed bundle in corruptions.c, of every truncation and of
 * every single-byte change to the header that breaks a rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corruptions.h"
#include "dgpb/dgpb.h"
#include "bundle/model.h"
#include "bundle/writer.h"
#include "support.h"

static void round_trip_gives_back_every_field(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    dgpb_bundle *b = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, &d), DGPB_OK);
    assert_int_equal(dgpb_bundle_version(b), 0);
    assert_int_equal(dgpb_bundle_target_count(b), 2);

    const dgpb_target_view *t = dgpb_bundle_target(b, 0);
    assert_true(dgpb_str_eq(t->name, "spirv"));
    assert_int_equal(t->id, DGPB_TARGET_SPIRV);
    assert_true(dgpb_str_eq(t->code_format, "spirv"));
    assert_int_equal(t->code_format_id, DGPB_CODE_FORMAT_SPIRV);
    assert_int_equal(t->layout_count, 1);
    assert_int_equal(t->layouts[0].size, strlen("DGPBLAYOUT test layout 0"));
    assert_memory_equal(t->layouts[0].data, "DGPBLAYOUT test layout 0", t->layouts[0].size);
    assert_int_equal(t->entry_count, 3);

    const dgpb_entry_view *k = &t->entries[0];
    assert_true(dgpb_str_eq(k->name, "k"));
    assert_true(dgpb_str_eq(k->stage, "compute"));
    assert_int_equal(k->stage_id, DGPB_STAGE_COMPUTE);
    assert_int_equal(k->layout, 0);
    assert_int_equal(k->code.size, support_spirv_word_count * 4);
    assert_memory_equal(k->code.data, support_spirv_words, k->code.size);
    uint8_t sha[32];
    dgpb_sha256(support_spirv_words, support_spirv_word_count * 4, sha);
    assert_memory_equal(k->code.sha256, sha, 32);
    assert_int_equal(k->thread_group_size[0], 64);
    assert_int_equal(k->thread_group_size[1], 1);
    assert_int_equal(k->thread_group_size[2], 1);
    assert_int_equal(k->param_count, 9);
    const dgpb_param_view *p = dgpb_entry_param(k, 1);
    assert_true(dgpb_str_eq(p->name, "transform"));
    assert_int_equal(p->kind, DGPB_KIND_VALUE);
    assert_int_equal(p->flags, DGPB_FLAG_READ_ONLY);
    assert_int_equal(p->offset, 16);
    assert_int_equal(p->size, 48);
    assert_int_equal(p->webgpu_layout, 0);
    p = dgpb_entry_param(k, 8);
    assert_true(dgpb_str_eq(p->name, "counts"));
    assert_int_equal(p->kind, DGPB_KIND_RW_TEXTURE);
    assert_int_equal(p->flags, DGPB_FLAG_WRITTEN);
    assert_int_equal(p->space, 1);
    assert_int_equal(p->binding, 0);
    assert_null(dgpb_entry_param(k, 9));
    /* Given as {subgroup_basic, half}: stored sorted. */
    assert_int_equal(k->capability_count, 2);
    assert_true(dgpb_str_eq(k->capabilities[0], "half"));
    assert_true(dgpb_str_eq(k->capabilities[1], "subgroup_basic"));
    assert_true(dgpb_entry_has_capability(k, DGPB_CAP_HALF));
    assert_false(dgpb_entry_has_capability(k, DGPB_CAP_ATOMIC64));

    const dgpb_entry_view *rg = &t->entries[2];
    assert_true(dgpb_str_eq(rg->stage, "raygeneration"));
    assert_int_equal(rg->thread_group_size[0], 0);
    assert_true(dgpb_entry_has_capability(rg, DGPB_CAP_RAYTRACING));
    assert_int_equal(rg->params[0].kind, DGPB_KIND_ACCELERATION_STRUCTURE);

    const dgpb_target_view *w = dgpb_bundle_target(b, 1);
    assert_int_equal(w->layout_count, 0);
    assert_int_equal(w->entries[0].params[7].webgpu_layout, 8);
    assert_null(dgpb_bundle_target(b, 2));
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

static void hosts_find_targets_by_backend_and_entries_by_name(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    dgpb_bundle *b = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, &d), DGPB_OK);
    const dgpb_target_view *t = NULL;
    assert_int_equal(dgpb_bundle_find_backend(b, DGPB_BACKEND_VULKAN, &t, &d), DGPB_OK);
    assert_true(dgpb_str_eq(t->name, "spirv"));
    assert_int_equal(dgpb_bundle_find_backend(b, DGPB_BACKEND_WEBGPU, &t, &d), DGPB_OK);
    assert_true(dgpb_str_eq(t->name, "wgsl"));
    assert_int_equal(t->id, DGPB_TARGET_WGSL);
    assert_int_equal(t->code_format_id, DGPB_CODE_FORMAT_WGSL);
    assert_int_equal(dgpb_bundle_find_backend(b, DGPB_BACKEND_DX12, &t, &d), DGPB_ERR_BACKEND);
    assert_null(t);
    assert_non_null(
        strstr(d.message, "backend not compiled: the bundle has no 'dxil' target for Dx12"));
    assert_int_equal(dgpb_bundle_find_target(b, "ptx", &t, &d), DGPB_ERR_NOT_FOUND);
    assert_int_equal(dgpb_bundle_find_target(b, "wgsl", &t, &d), DGPB_OK);
    const dgpb_entry_view *e = NULL;
    assert_int_equal(dgpb_target_find_entry(t, "k2", &e, &d), DGPB_OK);
    assert_int_equal(e->param_count, 4);
    assert_int_equal(dgpb_target_find_entry(t, "rg", &e, &d), DGPB_ERR_NOT_FOUND);
    assert_non_null(strstr(d.message, "target 'wgsl' has no entry 'rg'"));
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

static void every_corruption_is_rejected_with_its_message(void **state)
{
    (void)state;
    for (size_t i = 0; i < corruption_count; i++) {
        const corruption *c = &corruptions[i];
        uint8_t *bytes = NULL;
        size_t size = 0;
        corruption_apply(c, &bytes, &size);
        dgpb_bundle *b = NULL;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (c->verify) {
            /* Structure is intact: it opens, and the blob check fails. */
            if (dgpb_bundle_open(bytes, size, 0, &b, &d) != DGPB_OK)
                fail_msg("%s: opened without hashing, got '%s'", c->name, d.message);
            dgpb_bundle_close(b);
            b = NULL;
        }
        int rc = dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, &d);
        if (rc != c->code || !strstr(d.message, c->expect))
            fail_msg("%s: got %d '%s', want %d '%s'", c->name, rc, d.message, c->code, c->expect);
        assert_null(b);
        assert_true(d.offset >= 0 && (size_t)d.offset <= size);
        free(bytes);
    }
}

static void truncation_at_every_byte_is_rejected(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    for (size_t n = 0; n < size; n++) {
        /* A fresh allocation of exactly n bytes, so ASan sees any read past it. */
        uint8_t *cut = malloc(n ? n : 1);
        memcpy(cut, bytes, n);
        dgpb_bundle *b = NULL;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        int rc = dgpb_bundle_open(cut, n, 0, &b, &d);
        if (dgpb_result_class(rc) != DGPB_ERR_CORRUPT)
            fail_msg("truncated to %zu of %zu bytes: got %d '%s'", n, size, rc, d.message);
        assert_null(b);
        free(cut);
    }
    dgpb_free(bytes);
}

static void every_single_byte_change_opens_cleanly_or_fails_cleanly(void **state)
{
    (void)state;
    for (int base = 0; base < 2; base++) { /* the golden bundle, one with an options record */
        size_t size = 0;
        uint8_t *bytes = base ? support_options_bytes(&size) : support_golden_bytes(&size);
        uint8_t *copy = malloc(size);
        static const uint8_t values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
        size_t opened = 0, rejected = 0;
        for (size_t at = 0; at < size; at++) {
            for (size_t v = 0; v < sizeof values; v++) {
                if (bytes[at] == values[v])
                    continue;
                memcpy(copy, bytes, size);
                copy[at] = values[v];
                dgpb_bundle *b = NULL;
                dgpb_diag d;
                dgpb_diag_clear(&d);
                int rc = dgpb_bundle_open(copy, size, DGPB_OPEN_VERIFY_SHA256, &b, &d);
                if (rc == DGPB_OK) {
                    opened++; /* e.g. a space or binding number: still a valid bundle */
                    dgpb_bundle_close(b);
                } else {
                    assert_int_equal(dgpb_result_class(rc), DGPB_ERR_CORRUPT);
                    assert_true(d.message[0] != 0);
                    rejected++;
                }
            }
        }
        assert_true(rejected > opened);
        free(copy);
        dgpb_free(bytes);
    }
}

static void blob_verify_catches_a_changed_blob(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    dgpb_bundle *b = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, NULL), DGPB_OK);
    const dgpb_entry_view *e = &dgpb_bundle_target(b, 1)->entries[0];
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_blob_verify(&e->code, &d), DGPB_OK);
    bytes[dgpb_bundle_header_size(b) + e->code.offset] ^= 1;
    assert_int_equal(dgpb_blob_verify(&e->code, &d), DGPB_ERR_CORRUPT_HASH);
    assert_non_null(strstr(d.message, "sha-256 mismatch: stored "));
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

static void an_empty_bundle_is_valid(void **state)
{
    (void)state;
    dgpb_model *m = NULL;
    assert_int_equal(model_create(&m), DGPB_OK);
    uint8_t *bytes = NULL;
    size_t size = 0;
    assert_int_equal(bundle_write(m, &bytes, &size, NULL), DGPB_OK);
    assert_int_equal(size, 16);
    dgpb_bundle *b = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, NULL), DGPB_OK);
    assert_int_equal(dgpb_bundle_target_count(b), 0);
    const dgpb_target_view *t;
    assert_int_equal(dgpb_bundle_find_backend(b, DGPB_BACKEND_VULKAN, &t, NULL), DGPB_ERR_BACKEND);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
    model_destroy(m);
}

/*
 * A bundle of one spirv entry of `stage` whose thread group size fits the
 * stage (4,2,1 where the stage has one, else 0,0,0), written by the model.
 */
static uint8_t *one_entry_of_stage(uint32_t stage, size_t *size)
{
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(model_create(&m), DGPB_OK);
    uint32_t t;
    assert_int_equal(model_add_target(m, "spirv", "spirv", &t, &d), DGPB_OK);
    bool threads = dgpb_stage_has_thread_group(stage);
    dgpb_entry_desc e = {.name = "e",
                         .stage = dgpb_stage_name(stage),
                         .code = "code",
                         .code_size = 4,
                         .thread_group_size = {threads ? 4 : 0, threads ? 2 : 0, threads ? 1 : 0}};
    if (model_add_entry(m, t, &e, &d))
        fail_msg("stage %s: %s", dgpb_stage_name(stage), d.message);
    uint8_t *bytes = NULL;
    assert_int_equal(bundle_write(m, &bytes, size, &d), DGPB_OK);
    model_destroy(m);
    return bytes;
}

/* Opens `bytes` and returns the reader's result, its message in d. */
static int open_result(uint8_t *bytes, size_t size, dgpb_diag *d)
{
    dgpb_bundle *b = NULL;
    dgpb_diag_clear(d);
    int rc = dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, d);
    dgpb_bundle_close(b);
    return rc;
}

/*
 * Every stage's thread group rule (docs/format.md, "Stages"): compute, mesh
 * and amplification entries have a size of at least 1 in each dimension, the
 * other stages' is 0,0,0; each broken one way and the other, and the
 * reader's message names the stage.
 */
static void every_stage_has_its_thread_group_rule(void **state)
{
    (void)state;
    static const uint32_t with[] = {DGPB_STAGE_COMPUTE, DGPB_STAGE_MESH, DGPB_STAGE_AMPLIFICATION};
    for (uint32_t s = 0; s < DGPB_STAGE_COUNT; s++) {
        bool listed = false;
        for (size_t i = 0; i < sizeof with / sizeof with[0]; i++)
            listed = listed || with[i] == s;
        assert_int_equal(dgpb_stage_has_thread_group(s), listed);
        size_t size = 0;
        uint8_t *bytes = one_entry_of_stage(s, &size);
        dgpb_diag d;
        assert_int_equal(open_result(bytes, size, &d), DGPB_OK);
        dgpb_bundle *b = NULL;
        assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, NULL), DGPB_OK);
        const dgpb_entry_view *e = &dgpb_bundle_target(b, 0)->entries[0];
        assert_int_equal(e->stage_id, s);
        size_t at = support_code_ref_offset(bytes, e) + 40; /* thread_group_size */
        dgpb_bundle_close(b);
        char want[128];
        for (int axis = 0; axis < 3; axis++) {
            uint8_t *bad = malloc(size);
            assert_non_null(bad);
            memcpy(bad, bytes, size);
            support_put_u32(bad, at + 4u * (size_t)axis, listed ? 0 : 1);
            assert_int_equal(open_result(bad, size, &d), DGPB_ERR_CORRUPT_VALUE);
            snprintf(want, sizeof want,
                     listed ? "entry 'e': stage '%s' needs a thread group size of at least 1 in "
                              "each dimension"
                            : "entry 'e': stage '%s' has no thread group size: it must be 0,0,0",
                     dgpb_stage_name(s));
            if (!strstr(d.message, want))
                fail_msg("stage %s, axis %d: '%s' lacks '%s'", dgpb_stage_name(s), axis, d.message,
                         want);
            assert_int_equal(d.offset, (int64_t)at);
            free(bad);
        }
        dgpb_free(bytes);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_gives_back_every_field),
        cmocka_unit_test(hosts_find_targets_by_backend_and_entries_by_name),
        cmocka_unit_test(every_corruption_is_rejected_with_its_message),
        cmocka_unit_test(truncation_at_every_byte_is_rejected),
        cmocka_unit_test(every_single_byte_change_opens_cleanly_or_fails_cleanly),
        cmocka_unit_test(blob_verify_catches_a_changed_blob),
        cmocka_unit_test(an_empty_bundle_is_valid),
        cmocka_unit_test(every_stage_has_its_thread_group_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
