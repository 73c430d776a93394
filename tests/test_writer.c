/*
 * test_writer.c - the model and the writer: exact bytes, goldens, dedup,
 * reproducibility, and every rule the model enforces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "bundle/model.h"
#include "bundle/writer.h"
#include "support.h"

static void minimal_bundle_has_exactly_the_specified_bytes(void **state)
{
    (void)state;
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(model_create(&m), DGPB_OK);
    uint32_t t;
    assert_int_equal(model_add_target(m, "ptx", "ptx", &t, &d), DGPB_OK);
    dgpb_param_desc p = {"n", DGPB_KIND_VALUE, DGPB_FLAG_READ_ONLY, 2, 3, 8, 4, 0};
    const char *caps[1] = {"atomic64"};
    dgpb_entry_desc e = {.name = "k",
                         .stage = "compute",
                         .code = "ABC",
                         .code_size = 3,
                         .thread_group_size = {32, 2, 1},
                         .params = &p,
                         .param_count = 1,
                         .capabilities = caps,
                         .capability_count = 1};
    assert_int_equal(model_add_entry(m, t, &e, &d), DGPB_OK);
    uint8_t *bytes = NULL;
    size_t size = 0;
    assert_int_equal(bundle_write(m, &bytes, &size, &d), DGPB_OK);

    uint8_t sha[32];
    dgpb_sha256("ABC", 3, sha);
    uint8_t want[256];
    size_t n = 0;
#define U32(v) (support_put_u32(want, n, (v)), n += 4)
#define STR(s) (U32((uint32_t)strlen(s)), memcpy(want + n, s, strlen(s)), n += strlen(s))
    memcpy(want, "DGPB", 4), n = 4;
    U32(0);                                             /* version */
    U32(0);                                             /* header_size, patched below */
    U32(1);                                             /* target_count */
    STR("ptx");                                         /* name */
    STR("ptx");                                         /* code_format */
    U32(0);                                             /* layout_count */
    U32(1);                                             /* entry_count */
    STR("k");                                           /* name */
    STR("compute");                                     /* stage */
    U32(0);                                             /* layout */
    U32(0), U32(3), memcpy(want + n, sha, 32), n += 32; /* code blob */
    U32(32), U32(2), U32(1);                            /* thread_group_size */
    U32(1);                                             /* param_count */
    STR("n");
    U32(0), U32(1), U32(2), U32(3), U32(8), U32(4), U32(0);
    U32(1); /* capability_count */
    STR("atomic64");
    support_put_u32(want, 8, (uint32_t)n);
    memcpy(want + n, "ABC", 3), n += 3;
#undef U32
#undef STR
    assert_int_equal(size, n);
    assert_memory_equal(bytes, want, n);
    dgpb_free(bytes);
    model_destroy(m);
}

static void golden_bundle_matches_the_checked_in_bytes(void **state)
{
    (void)state;
    size_t size = 0, gsize = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    uint8_t *golden = support_read_source_file("fixtures/format/golden.dgpb", &gsize);
    assert_non_null(golden);
    if (size != gsize || memcmp(bytes, golden, size) != 0)
        fail_msg("the writer's output differs from fixtures/format/golden.dgpb; if the change "
                 "is intended, run tools/regen-format-fixtures.sh and review the diff");
    dgpb_free(bytes);
    dgpb_free(golden);
}

static void golden_json_view_matches_the_checked_in_text(void **state)
{
    (void)state;
    size_t size = 0, gsize = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    uint8_t *golden = support_read_source_file("fixtures/format/golden.bundle.json", &gsize);
    assert_non_null(golden);
    dgpb_bundle *b = NULL;
    char *json = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, NULL), DGPB_OK);
    assert_int_equal(dgpb_json_view(b, "golden", &json, NULL), DGPB_OK);
    assert_string_equal(json, (const char *)golden);
    dgpb_free(json);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
    dgpb_free(golden);
}

static void an_options_record_starts_the_data_section_and_the_readers_decode_it(void **state)
{
    (void)state;
    size_t size = 0, gsize = 0, plain_size = 0;
    uint8_t *bytes = support_options_bytes(&size);
    uint8_t *golden = support_read_source_file("fixtures/format/options.dgpb", &gsize);
    assert_non_null(golden);
    if (size != gsize || memcmp(bytes, golden, size) != 0)
        fail_msg("the writer's output differs from fixtures/format/options.dgpb; if the change "
                 "is intended, run tools/regen-format-fixtures.sh and review the diff");
    dgpb_bundle *b = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, NULL), DGPB_OK);
    uint32_t header = dgpb_bundle_header_size(b);
    assert_memory_equal(bytes + header, DGPB_OPTIONS_MAGIC, 4);
    assert_true(dgpb_str_eq(dgpb_bundle_option(b, DGPB_OPTION_MATRIX_LAYOUT), "column"));
    assert_true(dgpb_str_eq(dgpb_bundle_option(b, DGPB_OPTION_SPIRV_VERSION), "1.6"));
    assert_true(dgpb_str_eq(dgpb_bundle_option(b, DGPB_OPTION_SLANG_CAPABILITIES),
                            SUPPORT_OPTION_CAPABILITIES));
    assert_true(dgpb_str_eq(dgpb_bundle_option(b, DGPB_OPTION_BLOCK_LAYOUT), "scalar"));
    assert_true(dgpb_str_eq(dgpb_bundle_option(b, DGPB_OPTION_OPTIMIZATION), "0"));
    assert_true(dgpb_str_eq(dgpb_bundle_option(b, DGPB_OPTION_DEBUG_INFO), "2"));
    assert_int_equal(dgpb_bundle_option(b, DGPB_OPTION_COUNT).len, 0);
    /* The same model without options: the same tables, the blobs moved up by the record. */
    uint8_t *plain = support_two_target_bytes(&plain_size);
    dgpb_bundle *p = NULL;
    assert_int_equal(dgpb_bundle_open(plain, plain_size, 0, &p, NULL), DGPB_OK);
    assert_int_equal(dgpb_bundle_option(p, DGPB_OPTION_MATRIX_LAYOUT).len, 0);
    uint32_t record = dgpb_bundle_target(b, 0)->entries[0].code.offset;
    assert_int_equal(size - plain_size, record);
    assert_int_equal(dgpb_bundle_header_size(p), header);
    char *json = NULL;
    assert_int_equal(dgpb_json_view(b, "options", &json, NULL), DGPB_OK);
    uint8_t *view = support_read_source_file("fixtures/format/options.bundle.json", &gsize);
    assert_non_null(view);
    assert_string_equal(json, (const char *)view);
    dgpb_free(json);
    dgpb_free(view);
    dgpb_bundle_close(p);
    dgpb_bundle_close(b);
    dgpb_free(plain);
    dgpb_free(bytes);
    dgpb_free(golden);
}

static void the_model_refuses_an_option_value_the_format_cannot_record(void **state)
{
    (void)state;
    dgpb_model *m = NULL;
    dgpb_diag d;
    assert_int_equal(model_create(&m), DGPB_OK);
    static const struct {
        uint32_t option;
        const char *value, *why;
    } bad[] = {
        {DGPB_OPTION_MATRIX_LAYOUT, "row", "row, the default, is never recorded"},
        {DGPB_OPTION_SPIRV_VERSION, "1.2", "not one of 1.3, 1.4, 1.5, 1.6"},
        {DGPB_OPTION_SPIRV_VERSION, "2.0", "not one of"},
        {DGPB_OPTION_SLANG_CAPABILITIES, "b,a", "'a' follows 'b'"},
        {DGPB_OPTION_SLANG_CAPABILITIES, "a,a", "sorted and unique"},
        {DGPB_OPTION_SLANG_CAPABILITIES, "a,", "'' is no Slang capability name"},
        {DGPB_OPTION_SLANG_CAPABILITIES, "9lives", "'9lives' is no Slang capability name"},
        {DGPB_OPTION_BLOCK_LAYOUT, "default", "default, the default, is never recorded"},
        {DGPB_OPTION_BLOCK_LAYOUT, "dx", "not one of scalar, gl, c"},
        {DGPB_OPTION_OPTIMIZATION, "1", "1, the default, is never recorded"},
        {DGPB_OPTION_OPTIMIZATION, "-O0", "not one of 0, 2, 3"},
        {DGPB_OPTION_DEBUG_INFO, "0", "0, the default, is never recorded"},
        {DGPB_OPTION_DEBUG_INFO, "4", "not one of 1, 2, 3"},
        {DGPB_OPTION_COUNT, "x", "unknown option"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        dgpb_diag_clear(&d);
        assert_int_equal(model_set_option(m, bad[i].option, bad[i].value, &d), DGPB_ERR_INVALID);
        assert_contains(d.message, bad[i].why);
    }
    assert_int_equal(model_set_option(m, DGPB_OPTION_SLANG_CAPABILITIES, "SPV_KHR_x,_y,spvZ", &d),
                     DGPB_OK);
    assert_int_equal(model_set_option(m, DGPB_OPTION_SLANG_CAPABILITIES, NULL, &d), DGPB_OK);
    model_destroy(m);
}

static void writing_the_same_model_twice_gives_identical_bytes(void **state)
{
    (void)state;
    size_t a_size = 0, b_size = 0;
    uint8_t *a = support_golden_bytes(&a_size);
    uint8_t *b = support_golden_bytes(&b_size);
    assert_int_equal(a_size, b_size);
    assert_memory_equal(a, b, a_size);
    dgpb_free(a);
    dgpb_free(b);
}

static void targets_are_sorted_whatever_the_order_they_were_added(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size); /* wgsl was added before spirv */
    dgpb_bundle *b = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, NULL), DGPB_OK);
    assert_true(dgpb_str_eq(dgpb_bundle_target(b, 0)->name, "spirv"));
    assert_true(dgpb_str_eq(dgpb_bundle_target(b, 1)->name, "wgsl"));
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

static void identical_code_is_stored_once(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    dgpb_bundle *b = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, NULL), DGPB_OK);
    const dgpb_target_view *spirv = dgpb_bundle_target(b, 0), *wgsl = dgpb_bundle_target(b, 1);
    /* k and k2 share one reference on each target. */
    assert_int_equal(spirv->entries[0].code.offset, spirv->entries[1].code.offset);
    assert_int_equal(wgsl->entries[0].code.offset, wgsl->entries[1].code.offset);
    assert_int_not_equal(spirv->entries[0].code.offset, spirv->entries[2].code.offset);
    /* The data section holds one layout, two SPIR-V modules and one WGSL text: nothing else. */
    uint32_t expected = spirv->layouts[0].size + spirv->entries[0].code.size +
                        spirv->entries[2].code.size + wgsl->entries[0].code.size;
    assert_int_equal(dgpb_bundle_data_size(b), expected);
    assert_int_equal(size, dgpb_bundle_header_size(b) + expected);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

static void write_stats_count_each_shared_blob_once(void **state)
{
    (void)state;
    /* The golden model: k and k2 share code on each target; rg has code of its own; one layout. */
    dgpb_model *m = support_golden_model();
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint8_t *bytes = NULL;
    size_t size = 0;
    dgpb_write_stats stats;
    assert_int_equal(bundle_write_ex(m, &bytes, &size, &stats, &d), DGPB_OK);
    assert_int_equal(stats.blob_count, 4);
    assert_int_equal(stats.code_blob_count, 3); /* spirv k = k2, spirv rg, wgsl k = k2 */
    assert_int_equal(stats.layout_blob_count, 1);
    dgpb_bundle *b = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, NULL), DGPB_OK);
    assert_int_equal(stats.data_size, dgpb_bundle_data_size(b));
    dgpb_bundle_close(b);
    /* The same bytes as bundle_write(). */
    uint8_t *plain = NULL;
    size_t plain_size = 0;
    assert_int_equal(bundle_write(m, &plain, &plain_size, &d), DGPB_OK);
    assert_int_equal(plain_size, size);
    assert_memory_equal(plain, bytes, size);
    dgpb_free(plain);
    dgpb_free(bytes);
    model_destroy(m);

    /* Code shared across targets, and a layout with the same bytes as that code: one blob,
       counted by the reference that placed it (targets by name, layouts before entries). */
    assert_int_equal(model_create(&m), DGPB_OK);
    const char *names[2] = {"wgsl", "dxil"};
    for (int i = 0; i < 2; i++) {
        uint32_t t;
        assert_int_equal(model_add_target(m, names[i], names[i], &t, &d), DGPB_OK);
        dgpb_entry_desc e = {.name = "a",
                             .stage = "compute",
                             .code = "same",
                             .code_size = 4,
                             .thread_group_size = {1, 1, 1}};
        assert_int_equal(model_add_entry(m, t, &e, &d), DGPB_OK);
        e.name = "b";
        assert_int_equal(model_add_entry(m, t, &e, &d), DGPB_OK);
        e.name = "c";
        e.code = i ? "dxil" : "wgsl";
        assert_int_equal(model_add_entry(m, t, &e, &d), DGPB_OK);
    }
    assert_int_equal(bundle_write_ex(m, &bytes, &size, &stats, &d), DGPB_OK);
    assert_int_equal(stats.blob_count, 3); /* "same", "dxil", "wgsl" */
    assert_int_equal(stats.code_blob_count, 3);
    assert_int_equal(stats.layout_blob_count, 0);
    assert_int_equal(stats.data_size, 12);
    dgpb_free(bytes);
    model_destroy(m);

    assert_int_equal(model_create(&m), DGPB_OK);
    uint32_t t;
    assert_int_equal(model_add_target(m, "spirv", "spirv", &t, &d), DGPB_OK);
    assert_int_equal(model_add_layout(m, t, "same", 4, NULL, &d), DGPB_OK);
    assert_int_equal(model_add_layout(m, t, "same", 4, NULL, &d), DGPB_OK);
    dgpb_entry_desc e = {.name = "a",
                         .stage = "compute",
                         .code = "same",
                         .code_size = 4,
                         .thread_group_size = {1, 1, 1}};
    assert_int_equal(model_add_entry(m, t, &e, &d), DGPB_OK);
    assert_int_equal(bundle_write_ex(m, &bytes, &size, &stats, &d), DGPB_OK);
    assert_int_equal(stats.blob_count, 1);
    assert_int_equal(stats.code_blob_count, 0);
    assert_int_equal(stats.layout_blob_count, 1);
    assert_int_equal(stats.data_size, 4);
    dgpb_free(bytes);
    /* Without stats, and on failure: zeroed. */
    assert_int_equal(bundle_write_ex(m, &bytes, &size, NULL, &d), DGPB_OK);
    dgpb_free(bytes);
    model_destroy(m);
    assert_int_equal(model_create(&m), DGPB_OK);
    assert_int_equal(model_add_target(m, "spirv", "spirv", &t, &d), DGPB_OK);
    stats.blob_count = 99;
    assert_int_not_equal(bundle_write_ex(m, &bytes, &size, &stats, &d), DGPB_OK);
    assert_null(bytes);
    assert_int_equal(stats.blob_count, 0);
    model_destroy(m);
}

/* One model rule per row: the call must fail with `code` and a message containing `expect`. */
typedef struct rule_case {
    const char *name;
    int (*call)(dgpb_model *m, uint32_t t, dgpb_diag *d);
    int code;
    const char *expect;
} rule_case;

static const dgpb_entry_desc good = {
    .name = "k", .stage = "compute", .code = "x", .code_size = 1, .thread_group_size = {1, 1, 1}};

static int add_with(dgpb_model *m, uint32_t t, dgpb_diag *d, dgpb_entry_desc e)
{
    return model_add_entry(m, t, &e, d);
}

static int add_param(dgpb_model *m, uint32_t t, dgpb_diag *d, dgpb_param_desc p)
{
    dgpb_entry_desc e = good;
    e.params = &p;
    e.param_count = 1;
    return model_add_entry(m, t, &e, d);
}

static int unknown_target(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    (void)t;
    return model_add_target(m, "hlsl", "hlsl", NULL, d);
}
static int bad_format(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    (void)t;
    return model_add_target(m, "metal", "metal", NULL, d);
}
static int twice_target(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    (void)t;
    return model_add_target(m, "wgsl", "wgsl", NULL, d);
}
static int bad_utf8_target(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    (void)t;
    return model_add_target(m, "\xff", "x", NULL, d);
}
static int empty_layout(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    return model_add_layout(m, t, "", 0, NULL, d);
}
static int no_such_target(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    return add_with(m, t + 5, d, good);
}
static int unknown_stage(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    dgpb_entry_desc e = good;
    e.stage = "pixel";
    return add_with(m, t, d, e);
}
static int zero_tgs(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    dgpb_entry_desc e = good;
    e.thread_group_size[1] = 0;
    return add_with(m, t, d, e);
}
static int vertex_tgs(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    dgpb_entry_desc e = good;
    e.stage = "vertex";
    return add_with(m, t, d, e);
}
static int empty_code(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    dgpb_entry_desc e = good;
    e.code_size = 0;
    return add_with(m, t, d, e);
}
static int empty_name(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    dgpb_entry_desc e = good;
    e.name = "";
    return add_with(m, t, d, e);
}
static int twice_entry(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    add_with(m, t, d, good);
    return add_with(m, t, d, good);
}
static int unknown_cap(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    const char *c[1] = {"wave"};
    dgpb_entry_desc e = good;
    e.capabilities = c;
    e.capability_count = 1;
    return add_with(m, t, d, e);
}
static int twice_cap(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    const char *c[2] = {"half", "half"};
    dgpb_entry_desc e = good;
    e.capabilities = c;
    e.capability_count = 2;
    return add_with(m, t, d, e);
}
static int bad_kind(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    return add_param(m, t, d, (dgpb_param_desc){"p", DGPB_KIND_COUNT, 0, 0, 0, 0, 0, 0});
}
static int bad_wgpu(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    return add_param(m, t, d, (dgpb_param_desc){"p", DGPB_KIND_SAMPLER, 1, 0, 0, 0, 0, 5});
}
static int missing_ro(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    return add_param(m, t, d, (dgpb_param_desc){"p", DGPB_KIND_TEXTURE, 0, 0, 0, 0, 0, 5});
}
static int twice_param(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    dgpb_param_desc p[2] = {{"p", DGPB_KIND_SAMPLER, 1, 0, 0, 0, 0, 4},
                            {"p", DGPB_KIND_SAMPLER, 1, 0, 1, 0, 0, 4}};
    dgpb_entry_desc e = good;
    e.params = p;
    e.param_count = 2;
    return add_with(m, t, d, e);
}
static int layout_index(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    dgpb_entry_desc e = good;
    e.layout = 1;
    add_with(m, t, d, e);
    uint8_t *out;
    size_t n;
    return bundle_write(m, &out, &n, d);
}
static int empty_target(dgpb_model *m, uint32_t t, dgpb_diag *d)
{
    (void)t; /* the wgsl target was added without entries */
    uint8_t *out;
    size_t n;
    return bundle_write(m, &out, &n, d);
}

static void the_model_refuses_what_the_format_cannot_express(void **state)
{
    (void)state;
    static const rule_case cases[] = {
        {"unknown target", unknown_target, DGPB_ERR_INVALID, "unknown target 'hlsl'"},
        {"code format", bad_format, DGPB_ERR_INVALID,
         "code format 'metal' is not allowed for target 'metal'"},
        {"target twice", twice_target, DGPB_ERR_INVALID, "target 'wgsl' added twice"},
        {"utf-8", bad_utf8_target, DGPB_ERR_INVALID, "not valid UTF-8"},
        {"empty layout", empty_layout, DGPB_ERR_INVALID, "empty layout blob"},
        {"no such target", no_such_target, DGPB_ERR_INVALID, "no target with index 5"},
        {"stage", unknown_stage, DGPB_ERR_INVALID, "unknown stage 'pixel'"},
        {"zero thread group", zero_tgs, DGPB_ERR_INVALID, "at least 1"},
        {"vertex thread group", vertex_tgs, DGPB_ERR_INVALID,
         "stage 'vertex' has no thread group size: it must be 0,0,0"},
        {"empty code", empty_code, DGPB_ERR_INVALID, "entry 'k': empty code blob"},
        {"empty name", empty_name, DGPB_ERR_INVALID, "entry name is empty"},
        {"entry twice", twice_entry, DGPB_ERR_INVALID, "entry 'k' added twice"},
        {"capability", unknown_cap, DGPB_ERR_INVALID, "unknown capability 'wave'"},
        {"capability twice", twice_cap, DGPB_ERR_INVALID, "capability 'half' listed twice"},
        {"kind", bad_kind, DGPB_ERR_INVALID, "parameter 'p': unknown parameter kind 16"},
        {"webgpu id", bad_wgpu, DGPB_ERR_INVALID,
         "webgpu_layout 5 (2d float sampled texture) does not describe a sampler"},
        {"read-only flag", missing_ro, DGPB_ERR_INVALID,
         "a texture parameter must be flagged read-only"},
        {"parameter twice", twice_param, DGPB_ERR_INVALID, "parameter 'p' listed twice"},
        {"layout index", layout_index, DGPB_ERR_INVALID,
         "layout index 1 but the target has 0 layouts"},
        {"empty target", empty_target, DGPB_ERR_INVALID, "target 'wgsl' has no entries"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dgpb_model *m = NULL;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        uint32_t t;
        assert_int_equal(model_create(&m), DGPB_OK);
        assert_int_equal(model_add_target(m, "wgsl", "wgsl", &t, &d), DGPB_OK);
        int rc = cases[i].call(m, t, &d);
        if (rc != cases[i].code || !strstr(d.message, cases[i].expect))
            fail_msg("%s: got %d '%s', want %d '%s'", cases[i].name, rc, d.message, cases[i].code,
                     cases[i].expect);
        model_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(minimal_bundle_has_exactly_the_specified_bytes),
        cmocka_unit_test(golden_bundle_matches_the_checked_in_bytes),
        cmocka_unit_test(golden_json_view_matches_the_checked_in_text),
        cmocka_unit_test(an_options_record_starts_the_data_section_and_the_readers_decode_it),
        cmocka_unit_test(the_model_refuses_an_option_value_the_format_cannot_record),
        cmocka_unit_test(writing_the_same_model_twice_gives_identical_bytes),
        cmocka_unit_test(targets_are_sorted_whatever_the_order_they_were_added),
        cmocka_unit_test(identical_code_is_stored_once),
        cmocka_unit_test(write_stats_count_each_shared_blob_once),
        cmocka_unit_test(the_model_refuses_what_the_format_cannot_express),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
