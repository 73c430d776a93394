/*
 * test_diff.c - the semantic comparison (bundle/diff.h) on views changed in memory.
 *
 * Each case takes the golden bundle's JSON view, changes one thing in it and
 * compares the golden bundle with the changed view: the result must name the
 * change, where it is and whether it breaks a host's binding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "bundle/diff.h"
#include "support.h"

/* The golden view, parsed. */
static cJSON *golden_view(void)
{
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    dgpb_bundle *b = NULL;
    char *json = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, NULL), DGPB_OK);
    assert_int_equal(dgpb_json_view(b, "golden", &json, NULL), DGPB_OK);
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    dgpb_free(json);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
    return root;
}

static cJSON *target(cJSON *view, int t)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(view, "targets"), t);
}

static cJSON *entry(cJSON *view, int t, int e)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(target(view, t), "entries"), e);
}

static cJSON *param(cJSON *view, int t, int e, int p)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(entry(view, t, e), "params"), p);
}

static void set_number(cJSON *obj, const char *key, double v)
{
    cJSON_SetNumberValue(cJSON_GetObjectItem(obj, key), v);
}

/* Compares the golden bundle (old) with `view` (new); takes `view`. */
static cJSON *diff_golden_with(cJSON *view)
{
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    char *text = cJSON_Print(view);
    dgpb_diff_side *o = NULL, *n = NULL;
    dgpb_diag d;
    assert_int_equal(diff_side_from_memory(bytes, size, "golden.dgpb", &o, &d), DGPB_OK);
    assert_int_equal(diff_side_from_memory(text, strlen(text), "new.bundle.json", &n, &d), DGPB_OK);
    cJSON *result = NULL;
    assert_int_equal(bundle_diff(o, n, &result, &d), DGPB_OK);
    diff_side_close(o);
    diff_side_close(n);
    cJSON_free(text);
    cJSON_Delete(view);
    dgpb_free(bytes);
    return result;
}

static bool flag(const cJSON *obj, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItem(obj, key));
}

static double summary(const cJSON *result, const char *key)
{
    return cJSON_GetObjectItem(cJSON_GetObjectItem(result, "summary"), key)->valuedouble;
}

/* The single change record of the result (one target, one entry, one change). */
static const cJSON *only_change(const cJSON *result, const char *target_name,
                                const char *entry_name)
{
    const cJSON *targets = cJSON_GetObjectItem(result, "targets");
    assert_int_equal(cJSON_GetArraySize(targets), 1);
    const cJSON *t = cJSON_GetArrayItem(targets, 0);
    assert_string_equal(cJSON_GetObjectItem(t, "name")->valuestring, target_name);
    const cJSON *entries = cJSON_GetObjectItem(t, "entries");
    assert_int_equal(cJSON_GetArraySize(entries), 1);
    const cJSON *e = cJSON_GetArrayItem(entries, 0);
    assert_string_equal(cJSON_GetObjectItem(e, "name")->valuestring, entry_name);
    const cJSON *changes = cJSON_GetObjectItem(e, "changes");
    assert_int_equal(cJSON_GetArraySize(changes), 1);
    return cJSON_GetArrayItem(changes, 0);
}

static void a_bundle_equals_its_own_view(void **state)
{
    (void)state;
    cJSON *r = diff_golden_with(golden_view());
    assert_true(flag(r, "equivalent"));
    assert_false(flag(r, "breaking"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(r, "targets")), 0);
    assert_true(summary(r, "breaking") == 0 && summary(r, "code_only") == 0);
    cJSON_Delete(r);
}

/*
 * The project options a bundle records: a matrix or block layout changed and a SPIR-V
 * version raised break a host's binding; capabilities given to Slang, the optimization level
 * and the debug information do not; the same bundle without the record, whose blobs all
 * moved, differs in its options alone.
 */
static void project_options_are_compared(void **state)
{
    (void)state;
    size_t with_size = 0, without_size = 0;
    uint8_t *with = support_options_bytes(&with_size);
    uint8_t *without = support_two_target_bytes(&without_size);
    dgpb_diff_side *o = NULL, *n = NULL;
    dgpb_diag d;
    assert_int_equal(diff_side_from_memory(without, without_size, "plain.dgpb", &o, &d), DGPB_OK);
    assert_int_equal(diff_side_from_memory(with, with_size, "options.dgpb", &n, &d), DGPB_OK);
    cJSON *result = NULL;
    assert_int_equal(bundle_diff(o, n, &result, &d), DGPB_OK);
    const cJSON *options = cJSON_GetObjectItem(result, "options");
    assert_int_equal(cJSON_GetArraySize(options), 6);
    static const struct {
        const char *name, *value;
        bool breaking;
    } want[] = {{"block_layout", "scalar", true},
                {"debug_info", "2", false},
                {"matrix_layout", "column", true},
                {"optimization", "0", false},
                {"slang_capabilities", SUPPORT_OPTION_CAPABILITIES, false},
                {"spirv_version", "1.6", true}};
    for (int i = 0; i < 6; i++) {
        const cJSON *c = cJSON_GetArrayItem(options, i);
        assert_string_equal(cJSON_GetObjectItem(c, "what")->valuestring, "option");
        assert_string_equal(cJSON_GetObjectItem(c, "name")->valuestring, want[i].name);
        assert_true(cJSON_IsNull(cJSON_GetObjectItem(c, "old")));
        assert_string_equal(cJSON_GetObjectItem(c, "new")->valuestring, want[i].value);
        assert_int_equal(flag(c, "breaking"), want[i].breaking);
    }
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(result, "targets")), 0);
    assert_true(summary(result, "breaking") == 3 && summary(result, "other") == 3);
    cJSON_Delete(result);
    /* The other way round: a SPIR-V version lowered to the default breaks nothing. */
    assert_int_equal(bundle_diff(n, o, &result, &d), DGPB_OK);
    assert_true(summary(result, "breaking") == 2 && summary(result, "other") == 4);
    cJSON_Delete(result);
    diff_side_close(o);
    diff_side_close(n);
    dgpb_free(with);
    dgpb_free(without);
}

static void a_blob_that_only_moved_is_no_change(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    set_number(cJSON_GetObjectItem(entry(v, 0, 0), "code"), "offset", 99999);
    set_number(v, "size", 1);
    cJSON *r = diff_golden_with(v);
    assert_true(flag(r, "equivalent"));
    cJSON_Delete(r);
}

static void a_moved_binding_is_breaking_with_its_row_index(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    set_number(param(v, 0, 1, 2), "binding", 42);
    cJSON *r = diff_golden_with(v);
    const cJSON *c = only_change(r, "spirv", "k2");
    assert_string_equal(cJSON_GetObjectItem(c, "what")->valuestring, "param");
    assert_string_equal(cJSON_GetObjectItem(c, "change")->valuestring, "changed");
    assert_string_equal(cJSON_GetObjectItem(c, "name")->valuestring, "src");
    assert_string_equal(cJSON_GetObjectItem(c, "field")->valuestring, "binding");
    assert_int_equal(cJSON_GetObjectItem(c, "index")->valueint, 2);
    assert_int_equal(cJSON_GetObjectItem(c, "new")->valueint, 42);
    assert_true(flag(c, "breaking") && flag(r, "breaking") && !flag(r, "equivalent"));
    assert_true(summary(r, "breaking") == 1);
    cJSON_Delete(r);
}

static void every_row_field_is_compared(void **state)
{
    (void)state;
    static const char *const fields[] = {"space", "binding", "offset", "size", "webgpu_layout"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        cJSON *v = golden_view();
        cJSON *p = param(v, 1, 0, 0);
        set_number(p, fields[i], cJSON_GetObjectItem(p, fields[i])->valuedouble + 1);
        cJSON *r = diff_golden_with(v);
        const cJSON *c = only_change(r, "wgsl", "k");
        assert_string_equal(cJSON_GetObjectItem(c, "field")->valuestring, fields[i]);
        assert_true(flag(c, "breaking"));
        cJSON_Delete(r);
    }
    cJSON *v = golden_view();
    cJSON_ReplaceItemInObject(param(v, 1, 0, 0), "kind", cJSON_CreateString("uniform_buffer"));
    cJSON *r = diff_golden_with(v);
    assert_string_equal(cJSON_GetObjectItem(only_change(r, "wgsl", "k"), "field")->valuestring,
                        "kind");
    cJSON_Delete(r);
    v = golden_view();
    cJSON_ReplaceItemInObject(param(v, 1, 0, 0), "flags", cJSON_CreateArray());
    r = diff_golden_with(v);
    assert_string_equal(cJSON_GetObjectItem(only_change(r, "wgsl", "k"), "field")->valuestring,
                        "flags");
    cJSON_Delete(r);
}

static void swapped_rows_are_moves(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    cJSON *params = cJSON_GetObjectItem(entry(v, 0, 1), "params");
    cJSON *first = cJSON_DetachItemFromArray(params, 0);
    cJSON_AddItemToArray(params,
                         first); /* scale, transform, src, dst -> transform, src, dst, scale */
    cJSON *r = diff_golden_with(v);
    const cJSON *e = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "targets"), 0), "entries"),
        0);
    const cJSON *changes = cJSON_GetObjectItem(e, "changes");
    assert_int_equal(cJSON_GetArraySize(changes), 4);
    const cJSON *c = cJSON_GetArrayItem(changes, 3);
    assert_string_equal(cJSON_GetObjectItem(c, "change")->valuestring, "moved");
    assert_string_equal(cJSON_GetObjectItem(c, "name")->valuestring, "scale");
    assert_int_equal(cJSON_GetObjectItem(c, "old_index")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(c, "index")->valueint, 3);
    cJSON_Delete(r);
}

static void a_changed_code_blob_is_code_only(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    cJSON *code = cJSON_GetObjectItem(entry(v, 0, 2), "code");
    double old_size = cJSON_GetObjectItem(code, "size")->valuedouble;
    set_number(code, "size", old_size + 68);
    cJSON_ReplaceItemInObject(
        code, "sha256",
        cJSON_CreateString("cd34000000000000000000000000000000000000000000000000000000000000"));
    cJSON *r = diff_golden_with(v);
    const cJSON *c = only_change(r, "spirv", "rg");
    assert_string_equal(cJSON_GetObjectItem(c, "what")->valuestring, "code");
    assert_int_equal(cJSON_GetObjectItem(c, "size_delta")->valueint, 68);
    assert_false(flag(c, "breaking") || flag(r, "breaking") || flag(r, "equivalent"));
    assert_true(summary(r, "code_only") == 1 && summary(r, "breaking") == 0);
    cJSON_Delete(r);
}

static void capabilities_gained_break_and_lost_do_not(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    cJSON_AddItemToArray(cJSON_GetObjectItem(entry(v, 0, 1), "capabilities"),
                         cJSON_CreateString("atomic64"));
    cJSON *r = diff_golden_with(v);
    const cJSON *c = only_change(r, "spirv", "k2");
    assert_string_equal(cJSON_GetObjectItem(c, "change")->valuestring, "gained");
    assert_true(flag(c, "breaking"));
    cJSON_Delete(r);
    v = golden_view();
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(entry(v, 0, 2), "capabilities"), 0);
    r = diff_golden_with(v);
    c = only_change(r, "spirv", "rg");
    assert_string_equal(cJSON_GetObjectItem(c, "change")->valuestring, "lost");
    assert_false(flag(c, "breaking") || flag(r, "breaking"));
    cJSON_Delete(r);
}

static void stage_and_thread_group_changes_break(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    cJSON_ReplaceItemInObject(entry(v, 1, 1), "thread_group_size",
                              cJSON_CreateIntArray((const int[]){32, 2, 1}, 3));
    cJSON *r = diff_golden_with(v);
    const cJSON *c = only_change(r, "wgsl", "k2");
    assert_string_equal(cJSON_GetObjectItem(c, "what")->valuestring, "thread_group_size");
    assert_true(flag(c, "breaking"));
    cJSON_Delete(r);
    v = golden_view();
    cJSON_ReplaceItemInObject(entry(v, 0, 2), "stage", cJSON_CreateString("miss"));
    r = diff_golden_with(v);
    c = only_change(r, "spirv", "rg");
    assert_string_equal(cJSON_GetObjectItem(c, "what")->valuestring, "stage");
    assert_true(flag(c, "breaking"));
    cJSON_Delete(r);
}

static void entries_and_targets_removed_break_added_do_not(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(target(v, 0), "entries"), 2);
    cJSON *r = diff_golden_with(v);
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "targets"), 0);
    const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItem(t, "entries"), 0);
    assert_string_equal(cJSON_GetObjectItem(e, "change")->valuestring, "removed");
    assert_true(flag(e, "breaking") && flag(t, "breaking") && flag(r, "breaking"));
    cJSON_Delete(r);
    v = golden_view();
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(v, "targets"), 1);
    r = diff_golden_with(v);
    t = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "targets"), 0);
    assert_string_equal(cJSON_GetObjectItem(t, "name")->valuestring, "wgsl");
    assert_string_equal(cJSON_GetObjectItem(t, "change")->valuestring, "removed");
    assert_true(flag(t, "breaking"));
    cJSON_Delete(r);
    v = golden_view();
    cJSON *copy = cJSON_Duplicate(entry(v, 1, 1), true);
    cJSON_ReplaceItemInObject(copy, "name", cJSON_CreateString("k3"));
    cJSON_AddItemToArray(cJSON_GetObjectItem(target(v, 1), "entries"), copy);
    r = diff_golden_with(v);
    t = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "targets"), 0);
    e = cJSON_GetArrayItem(cJSON_GetObjectItem(t, "entries"), 0);
    assert_string_equal(cJSON_GetObjectItem(e, "name")->valuestring, "k3");
    assert_string_equal(cJSON_GetObjectItem(e, "change")->valuestring, "added");
    assert_false(flag(e, "breaking") || flag(r, "breaking"));
    assert_true(summary(r, "other") == 1);
    cJSON_Delete(r);
}

static void a_reordered_entry_list_is_reported_not_breaking(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    cJSON *entries = cJSON_GetObjectItem(target(v, 1), "entries");
    cJSON_AddItemToArray(entries, cJSON_DetachItemFromArray(entries, 0));
    cJSON *r = diff_golden_with(v);
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "targets"), 0);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(t, "changes"), 0);
    assert_string_equal(cJSON_GetObjectItem(c, "what")->valuestring, "order");
    assert_false(flag(c, "breaking") || flag(r, "breaking"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(t, "entries")), 0);
    cJSON_Delete(r);
}

static void a_changed_layout_blob_is_code_only(void **state)
{
    (void)state;
    cJSON *v = golden_view();
    cJSON *layout = cJSON_GetArrayItem(cJSON_GetObjectItem(target(v, 0), "layouts"), 0);
    set_number(layout, "size", cJSON_GetObjectItem(layout, "size")->valuedouble - 4);
    cJSON *r = diff_golden_with(v);
    const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "targets"), 0);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(t, "layouts"), 0);
    assert_int_equal(cJSON_GetObjectItem(c, "index")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(c, "size_delta")->valueint, -4);
    assert_true(summary(r, "code_only") == 1 && !flag(r, "breaking"));
    cJSON_Delete(r);
}

/* Views that break the schema, each refused with the field it names. */
static void malformed_views_are_refused_with_the_field(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int code;
        const char *message;
    } cases[] = {
        {"{\"format\": \"DGPB\"}", DGPB_ERR_CORRUPT, "view field 'targets' is missing"},
        {"{\"format\": \"XYZ\", \"targets\": []}", DGPB_ERR_CORRUPT, "not 'DGPB'"},
        {"{\"format\": \"DGPB\", \"targets\": [1]}", DGPB_ERR_CORRUPT,
         "'targets[0]' is not an object"},
        {"{\"format\": \"DGPB\", \"targets\": [{\"name\": \"spirv\", \"code_format\": \"spirv\","
         " \"layouts\": [{\"size\": -1, \"sha256\": \"00\"}], \"entries\": []}]}",
         DGPB_ERR_CORRUPT, "'targets[0].layouts[0].size' is not an unsigned 32-bit integer"},
        {"{\"format\": ", DGPB_ERR_CORRUPT, "not valid JSON"},
        {"  {", DGPB_ERR_CORRUPT, "not valid JSON"},
        {"", DGPB_ERR_UNSUPPORTED, "neither a bundle nor a JSON view"},
        {"[1]", DGPB_ERR_UNSUPPORTED, "neither a bundle nor a JSON view"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dgpb_diff_side *s = (dgpb_diff_side *)1;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        int rc = diff_side_from_memory(cases[i].text, strlen(cases[i].text), "x.json", &s, &d);
        assert_int_equal(dgpb_result_class(rc), cases[i].code);
        assert_null(s);
        assert_non_null(strstr(d.message, cases[i].message));
        assert_string_equal(d.file, "x.json");
    }
}

static void a_damaged_bundle_is_corrupt(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    bytes[size - 1] ^= 0xff; /* the last blob's hash no longer matches */
    dgpb_diff_side *s = NULL;
    dgpb_diag d;
    assert_int_equal(diff_side_from_memory(bytes, size, NULL, &s, &d), DGPB_ERR_CORRUPT_HASH);
    assert_null(s);
    assert_int_equal(diff_side_from_memory(bytes, 3, NULL, &s, &d), DGPB_ERR_UNSUPPORTED);
    dgpb_free(bytes);
    assert_int_equal(diff_side_open("/nonexistent/x.dgpb", &s, &d), DGPB_ERR_IO);
    assert_int_equal(bundle_diff(NULL, NULL, NULL, &d), DGPB_ERR_INVALID);
    diff_side_close(NULL);
}

/* Opening both kinds of side and comparing them, with allocation failures. */
static int open_and_compare(void *arg)
{
    const support_bytes *in = arg;
    dgpb_diff_side *o = NULL, *n = NULL;
    cJSON *result = NULL;
    int rc = diff_side_from_memory(in->bytes, in->size, NULL, &o, NULL);
    if (rc == DGPB_OK) {
        const char *view = "{\"format\": \"DGPB\", \"targets\": [{\"name\": \"spirv\", "
                           "\"code_format\": \"spirv\", \"layouts\": [], \"entries\": []}]}";
        rc = diff_side_from_memory(view, strlen(view), NULL, &n, NULL);
    }
    if (rc == DGPB_OK)
        rc = bundle_diff(o, n, &result, NULL);
    cJSON_Delete(result);
    diff_side_close(o);
    diff_side_close(n);
    return rc;
}

static void every_allocation_failure_is_nomem(void **state)
{
    (void)state;
    support_bytes in;
    in.bytes = support_golden_bytes(&in.size);
    assert_true(support_run_with_faults(open_and_compare, &in, DGPB_OK, "diff") > 0);
    dgpb_free(in.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_bundle_equals_its_own_view),
        cmocka_unit_test(a_blob_that_only_moved_is_no_change),
        cmocka_unit_test(project_options_are_compared),
        cmocka_unit_test(a_moved_binding_is_breaking_with_its_row_index),
        cmocka_unit_test(every_row_field_is_compared),
        cmocka_unit_test(swapped_rows_are_moves),
        cmocka_unit_test(a_changed_code_blob_is_code_only),
        cmocka_unit_test(capabilities_gained_break_and_lost_do_not),
        cmocka_unit_test(stage_and_thread_group_changes_break),
        cmocka_unit_test(entries_and_targets_removed_break_added_do_not),
        cmocka_unit_test(a_reordered_entry_list_is_reported_not_breaking),
        cmocka_unit_test(a_changed_layout_blob_is_code_only),
        cmocka_unit_test(malformed_views_are_refused_with_the_field),
        cmocka_unit_test(a_damaged_bundle_is_corrupt),
        cmocka_unit_test(every_allocation_failure_is_nomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
