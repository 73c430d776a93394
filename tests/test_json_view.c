/*
 * test_json_view.c - the JSON view says exactly what the bytes say.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "support.h"

static const char *const top_keys[] = {"asset",       "format",    "version", "size",
                                       "header_size", "data_size", "targets"};
static const char *const entry_keys[] = {
    "name", "stage", "layout", "code", "thread_group_size", "params", "capabilities"};

static void keys_come_in_the_documented_order(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    dgpb_bundle *b = NULL;
    char *json = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, NULL), DGPB_OK);
    assert_int_equal(dgpb_json_view(b, "shaders_demo", &json, NULL), DGPB_OK);
    assert_int_equal(json[strlen(json) - 1], '\n');
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    const cJSON *item = root->child;
    for (size_t i = 0; i < sizeof top_keys / sizeof top_keys[0]; i++, item = item->next)
        assert_string_equal(item->string, top_keys[i]);
    assert_null(item);
    assert_string_equal(cJSON_GetObjectItem(root, "asset")->valuestring,
                        "gpu_shaders.shaders_demo");
    const cJSON *entry = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "targets"), 0), "entries"),
        0);
    item = entry->child;
    for (size_t i = 0; i < sizeof entry_keys / sizeof entry_keys[0]; i++, item = item->next)
        assert_string_equal(item->string, entry_keys[i]);
    assert_null(item);
    cJSON_Delete(root);
    dgpb_free(json);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

static void every_field_of_the_bundle_is_in_the_view(void **state)
{
    (void)state;
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    dgpb_bundle *b = NULL;
    char *json = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, NULL), DGPB_OK);
    assert_int_equal(dgpb_json_view(b, "golden", &json, NULL), DGPB_OK);
    cJSON *root = cJSON_Parse(json);
    assert_int_equal(cJSON_GetObjectItem(root, "size")->valuedouble, (double)size);
    assert_int_equal(cJSON_GetObjectItem(root, "header_size")->valueint,
                     dgpb_bundle_header_size(b));
    const cJSON *targets = cJSON_GetObjectItem(root, "targets");
    assert_int_equal(cJSON_GetArraySize(targets), dgpb_bundle_target_count(b));
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        const cJSON *jt = cJSON_GetArrayItem(targets, (int)ti);
        assert_true(dgpb_str_eq(t->name, cJSON_GetObjectItem(jt, "name")->valuestring));
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(jt, "layouts")), t->layout_count);
        const cJSON *entries = cJSON_GetObjectItem(jt, "entries");
        for (uint32_t ei = 0; ei < t->entry_count; ei++) {
            const dgpb_entry_view *e = &t->entries[ei];
            const cJSON *je = cJSON_GetArrayItem(entries, (int)ei);
            const cJSON *code = cJSON_GetObjectItem(je, "code");
            char hex[65];
            dgpb_sha256_hex(e->code.sha256, hex);
            assert_string_equal(cJSON_GetObjectItem(code, "sha256")->valuestring, hex);
            assert_int_equal(cJSON_GetObjectItem(code, "offset")->valueint, e->code.offset);
            assert_int_equal(cJSON_GetObjectItem(code, "size")->valueint, e->code.size);
            const cJSON *params = cJSON_GetObjectItem(je, "params");
            assert_int_equal(cJSON_GetArraySize(params), e->param_count);
            for (uint32_t pi = 0; pi < e->param_count; pi++) {
                const dgpb_param_view *p = &e->params[pi];
                const cJSON *jp = cJSON_GetArrayItem(params, (int)pi);
                assert_string_equal(cJSON_GetObjectItem(jp, "kind")->valuestring,
                                    dgpb_kind_name(p->kind));
                assert_int_equal(cJSON_GetObjectItem(jp, "binding")->valueint, p->binding);
                assert_int_equal(cJSON_GetObjectItem(jp, "space")->valueint, p->space);
                if (dgpb_kind_has_shape(p->kind)) { /* spelled, in place of the offset */
                    char shape[96];
                    assert_string_equal(cJSON_GetObjectItem(jp, "shape")->valuestring,
                                        dgpb_shape_text(p->offset, shape, sizeof shape));
                    assert_null(cJSON_GetObjectItem(jp, "offset"));
                } else {
                    assert_int_equal(cJSON_GetObjectItem(jp, "offset")->valueint, p->offset);
                }
                assert_int_equal(cJSON_GetObjectItem(jp, "size")->valueint, p->size);
                assert_int_equal(cJSON_GetObjectItem(jp, "webgpu_layout")->valueint,
                                 p->webgpu_layout);
                const cJSON *flags = cJSON_GetObjectItem(jp, "flags");
                uint32_t got = 0;
                const cJSON *f;
                cJSON_ArrayForEach(f, flags)
                {
                    got |= !strcmp(f->valuestring, "read_only") ? DGPB_FLAG_READ_ONLY : 0;
                    got |= !strcmp(f->valuestring, "written") ? DGPB_FLAG_WRITTEN : 0;
                }
                assert_int_equal(got, p->flags);
            }
            assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(je, "capabilities")),
                             e->capability_count);
        }
    }
    cJSON_Delete(root);
    dgpb_free(json);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys_come_in_the_documented_order),
        cmocka_unit_test(every_field_of_the_bundle_is_in_the_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
