/*
 * test_run_structs.c - struct values' bytes from --set text, without a device
 * (docs/run.md, "Structs"; dgpb/run.h): on spirv where the code states the
 * fields, and on ptx, which states none and takes spirv's laid out by CUDA's
 * rules, only where they fill its row.
 *
 * The code is real Slang output, fixtures/values/structs.spv
 * (tests/test_value_types.c says how it was compiled); the ptx code is any
 * PTX (fixtures/values/values.ptx), since PTX states nothing of a struct.
 * The rows are written here as the build places them: `outer`, the cbuffer's
 * Outer, 224 bytes in std140 and 144 by CUDA's layout (as dgpb-build's
 * reflection of the ptx target sizes it), `material.lights` 32 bytes on both.
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

typedef struct fixture {
    uint8_t *bytes;
    dgpb_bundle *b;
    const dgpb_target_view *spirv, *ptx;
} fixture;

/* A bundle of entry `k` on spirv and ptx, the ptx row `outer` of `outer_size` bytes. */
static void open_bundle(fixture *f, uint32_t outer_size)
{
    size_t spv_size = 0, ptx_size = 0;
    uint8_t *spv = support_read_source_file("fixtures/values/structs.spv", &spv_size);
    uint8_t *ptx = support_read_source_file("fixtures/values/values.ptx", &ptx_size);
    assert_non_null(spv);
    assert_non_null(ptx);
    const dgpb_param_desc spirv_rows[] = {
        {"outer", DGPB_KIND_VALUE, RO, 0, 1, 0, 224, 0},
        {"material.lights", DGPB_KIND_VALUE, RO, 0, 0, 16, 32, 0},
    };
    const dgpb_param_desc ptx_rows[] = {
        {"outer", DGPB_KIND_VALUE, RO, 0, 8, 0, outer_size, 0},
        {"material.lights", DGPB_KIND_VALUE, RO, 0, 0, 16, 32, 0},
    };
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint32_t ts = 0, tp = 0;
    assert_int_equal(model_create(&m), DGPB_OK);
    assert_int_equal(model_add_target(m, "spirv", "spirv", &ts, &d), DGPB_OK);
    assert_int_equal(model_add_target(m, "ptx", "ptx", &tp, &d), DGPB_OK);
    dgpb_entry_desc e = {.name = "k",
                         .stage = "compute",
                         .code = spv,
                         .code_size = spv_size,
                         .thread_group_size = {1, 1, 1},
                         .params = spirv_rows,
                         .param_count = 2};
    if (model_add_entry(m, ts, &e, &d))
        fail_msg("model: %s", d.message);
    e.code = ptx;
    e.code_size = ptx_size;
    e.params = ptx_rows;
    if (model_add_entry(m, tp, &e, &d))
        fail_msg("model: %s", d.message);
    size_t n = 0;
    if (bundle_write(m, &f->bytes, &n, &d))
        fail_msg("write: %s", d.message);
    model_destroy(m);
    dgpb_free(spv);
    dgpb_free(ptx);
    if (dgpb_bundle_open(f->bytes, n, 0, &f->b, &d))
        fail_msg("open: %s", d.message);
    f->spirv = f->ptx = NULL;
    for (uint32_t i = 0; i < dgpb_bundle_target_count(f->b); i++) {
        const dgpb_target_view *t = dgpb_bundle_target(f->b, i);
        if (dgpb_str_eq(t->name, "spirv"))
            f->spirv = t;
        else
            f->ptx = t;
    }
    assert_non_null(f->spirv);
    assert_non_null(f->ptx);
}

static void close_bundle(fixture *f)
{
    dgpb_bundle_close(f->b);
    dgpb_free(f->bytes);
}

/* The f32 at byte `at` of bytes. */
static float f32_at(const uint8_t *bytes, size_t at)
{
    float v;
    memcpy(&v, bytes + at, sizeof v);
    return v;
}

/* The bytes value `name` = `text` gives its row on target `t`; fails the test if refused. */
static uint8_t *bytes_of(const fixture *f, const dgpb_target_view *t, const char *name,
                         const char *text, size_t *size)
{
    uint8_t *bytes = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_run_value_bytes(f->b, t, "k", name, text, &bytes, size, &d))
        fail_msg("--set %s=%s: %s", name, text, d.message);
    return bytes;
}

/* Each field lands where its target's code keeps it: std140 on spirv, CUDA's layout on ptx. */
static void fields_land_where_each_targets_code_keeps_them(void **state)
{
    (void)state;
    fixture f;
    open_bundle(&f, 144);
    static const struct {
        const char *name, *text;
        uint32_t spirv[6], ptx[6]; /* where numbers 1, 2, ... land (0: no more) */
    } cases[] = {
        {"outer.s", "1", {112}, {100}},
        {"outer.arr", "1,2,3", {128, 144, 160}, {104, 108, 112}},
        {"outer.one", "1", {96}, {96}},
        {"outer.list[1].uv", "1,2", {80, 84}, {80, 84}},
        /* a column-major float2x3 given row by row: 1 2 3 / 4 5 6; stored column by
           column, 16 bytes apart in std140, tightly (8) by CUDA's */
        {"outer.cm", "1,2,3,4,5,6", {176, 192, 208, 180, 196, 212}, {120, 128, 136, 124, 132, 140}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int p = 0; p < 2; p++) {
            const uint32_t *want = p ? cases[i].ptx : cases[i].spirv;
            size_t size = 0;
            uint8_t *bytes = bytes_of(&f, p ? f.ptx : f.spirv, cases[i].name, cases[i].text, &size);
            assert_int_equal(size, p ? 144 : 224);
            for (uint32_t k = 0; k < 6 && want[k]; k++)
                if (f32_at(bytes, want[k]) != (float)(k + 1))
                    fail_msg("%s on %s: number %u not at byte %u", cases[i].name,
                             p ? "ptx" : "spirv", k + 1, want[k]);
            dgpb_free(bytes);
        }
    dgpb_run_value_info info;
    assert_int_equal(dgpb_run_value_type(f.b, f.ptx, "k", "outer", &info, NULL), DGPB_OK);
    assert_true(info.aggregate);
    assert_string_equal(info.text, "struct Outer");
    assert_string_equal(info.lent_by, "spirv");
    dgpb_run_value_field *fields = NULL;
    uint32_t count = 0;
    assert_int_equal(dgpb_run_value_fields(f.b, f.ptx, "k", "outer", &fields, &count, NULL),
                     DGPB_OK);
    assert_int_equal(count, 12); /* inner (uv, id), m, list ([i].uv, [i].id), one (only), s,
                                    arr, cm */
    assert_string_equal(fields[9].path, ".s");
    assert_int_equal(fields[9].offset, 100);
    assert_true(fields[9].numbers);
    assert_string_equal(fields[4].path, ".list");
    assert_string_equal(fields[4].text, "struct Inner[2]");
    assert_false(fields[4].numbers);
    dgpb_free(fields);
    /* An array of structs, whole, on ptx: two Lights of 16 bytes */
    size_t size = 0;
    uint8_t *lights = bytes_of(&f, f.ptx, "material.lights", "1,2,3,4,5,6,7,8", &size);
    assert_int_equal(size, 32);
    for (uint32_t k = 0; k < 8; k++)
        assert_true(f32_at(lights, k * 4) == (float)(k + 1));
    dgpb_free(lights);
    close_bundle(&f);
}

/* Where spirv's fields laid out by CUDA's rules do not fill the ptx row, ptx has no fields:
   its value is bytes, which take TYPE:, and a field's name is refused saying why. */
static void fields_that_do_not_fill_the_ptx_row_are_not_lent(void **state)
{
    (void)state;
    fixture f;
    open_bundle(&f, 160);
    uint8_t *bytes = NULL;
    size_t size = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_run_value_bytes(f.b, f.ptx, "k", "outer.s", "1", &bytes, &size, &d),
                     DGPB_ERR_RUN_PARAM);
    assert_contains(d.message, "value 'outer.s': 'outer' holds no struct whose fields the code on "
                               "target ptx states (bytes); the fields target spirv declares "
                               "cannot be this code's: its fields take 144 bytes by CUDA's "
                               "layout, but the row on ptx has 160");
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_run_value_bytes(f.b, f.ptx, "k", "outer", "1", &bytes, &size, &d),
                     DGPB_ERR_INVALID);
    assert_contains(d.message, "give it as TYPE:V1,...");
    char forty[200] = "u32:0";
    for (int i = 1; i < 40; i++)
        strcat(forty, ",0");
    assert_int_equal(dgpb_run_value_bytes(f.b, f.ptx, "k", "outer", forty, &bytes, &size, NULL),
                     DGPB_OK);
    assert_int_equal(size, 160);
    dgpb_free(bytes);
    close_bundle(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fields_land_where_each_targets_code_keeps_them),
        cmocka_unit_test(fields_that_do_not_fill_the_ptx_row_are_not_lent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
