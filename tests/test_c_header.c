/*
 * test_c_header.c - the C header of a bundle (header/c_header.c) on bundles
 * made here: names C can spell (keywords, collisions, a stem that starts with
 * a digit, reserved "__"), rows that overlap, offsets C cannot place, targets
 * whose rows or capabilities differ, determinism, and every allocation
 * failing in turn. The types of real code and the header compiled by C and
 * C++ compilers: tests/build_header.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/alloc.h"
#include "dgpb/reader.h"
#include "header/c_header.h"
#include "bundle/model.h"
#include "bundle/writer.h"
#include "support.h"

static const char code[] = "not code any reader reads: dxil and msl state no value types";

#define VALUE(n, s, b, o, z)                                                                       \
    {                                                                                              \
        n, DGPB_KIND_VALUE, DGPB_FLAG_READ_ONLY, s, b, o, z, 0                                     \
    }

/* Bundle bytes: target dxil with the entry `k` (rows `rows`), target metal with `k` (rows 0..metal_rows). */
static uint8_t *bundle_of(const dgpb_param_desc *rows, uint32_t count, uint32_t metal_rows,
                          const char *const *dxil_caps, uint32_t dxil_cap_count, size_t *size)
{
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(model_create(&m), DGPB_OK);
    uint32_t dxil, metal;
    assert_int_equal(model_add_target(m, "dxil", "dxil", &dxil, &d), DGPB_OK);
    assert_int_equal(model_add_target(m, "metal", "msl", &metal, &d), DGPB_OK);
    dgpb_entry_desc k = {.name = "k",
                         .stage = "compute",
                         .code = code,
                         .code_size = sizeof code - 1,
                         .thread_group_size = {64, 1, 1},
                         .params = rows,
                         .param_count = count,
                         .capabilities = dxil_caps,
                         .capability_count = dxil_cap_count};
    assert_int_equal(model_add_entry(m, dxil, &k, &d), DGPB_OK);
    k.param_count = metal_rows;
    k.capability_count = 0;
    assert_int_equal(model_add_entry(m, metal, &k, &d), DGPB_OK);
    uint8_t *bytes = NULL;
    assert_int_equal(bundle_write(m, &bytes, size, &d), DGPB_OK);
    model_destroy(m);
    return bytes;
}

static char *header_of(const uint8_t *bytes, size_t size, const char *stem)
{
    dgpb_bundle *b = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, &d), DGPB_OK);
    char *text = NULL;
    assert_int_equal(c_header_make(b, stem, &text, &d), DGPB_OK);
    assert_non_null(text);
    dgpb_bundle_close(b);
    return text;
}

/* Names: keywords, names alike once spelled in C, "__", a stem that starts with a digit. */
static void test_names(void **state)
{
    (void)state;
    const dgpb_param_desc rows[] = {
        VALUE("new", 0, 0, 0, 4),
        VALUE("a.b", 0, 0, 4, 4),
        VALUE("a_b", 0, 0, 8, 4),
        {"__slang_resource_heap", DGPB_KIND_BUFFER, DGPB_FLAG_READ_ONLY, 0, 1, 0, 0, 0},
        VALUE("row_count", 0, 0, 16, 4),
    };
    size_t size;
    uint8_t *bytes = bundle_of(rows, 5, 5, NULL, 0, &size);
    char *h = header_of(bytes, size, "3d-shaders.main");
    assert_contains(h, "#ifndef DGPB_HEADER_dgpb_3d_shaders_main_H\n");
    /* the count keeps its name; the row named like it gets "_2" */
    assert_contains(h, "    dgpb_3d_shaders_main_k_row_count_2 = 4, /* value 'row_count' */\n");
    assert_contains(h, "    dgpb_3d_shaders_main_k_row_count = 5\n");
    assert_contains(h, "    dgpb_3d_shaders_main_k_a_b = 1, /* value 'a.b' */\n");
    assert_contains(h, "    dgpb_3d_shaders_main_k_a_b_2 = 2, /* value 'a_b' */\n");
    assert_contains(h, "    dgpb_3d_shaders_main_k_slang_resource_heap = 3,");
    assert_null(strstr(h, "_k__"));
    /* members: a keyword gets '_', names alike get "_2"; unknown types are bytes */
    assert_contains(h,
                    "typedef struct dgpb_3d_shaders_main_dxil_k_uniforms {\n"
                    "    uint8_t new_[4]; /* row 0 'new': offset 0, size 4, bytes */\n"
                    "    uint8_t a_b[4]; /* row 1 'a.b': offset 4, size 4, bytes */\n"
                    "    uint8_t a_b_2[4]; /* row 2 'a_b': offset 8, size 4, bytes */\n"
                    "    uint8_t pad_12[4];\n"
                    "    uint8_t row_count[4]; /* row 4 'row_count': offset 16, size 4, bytes */\n"
                    "} dgpb_3d_shaders_main_dxil_k_uniforms;\n");
    assert_contains(h, "offsetof(dgpb_3d_shaders_main_dxil_k_uniforms, a_b_2) == 8,");
    assert_contains(h, "sizeof(dgpb_3d_shaders_main_dxil_k_uniforms) == 20,");
    /* the same rows on both targets: one enum */
    assert_null(strstr(h, "_metal_k_new"));
    assert_contains(h, "typedef struct dgpb_3d_shaders_main_metal_k_uniforms {\n");
    /* the same bytes each time */
    char *again = header_of(bytes, size, "3d-shaders.main");
    assert_string_equal(h, again);
    dgpb_free(again);
    dgpb_free(h);
    dgpb_free(bytes);
}

/* Rows that overlap get no struct; blocks named by their uniform_buffer row or their dotted prefix. */
static void test_blocks(void **state)
{
    (void)state;
    const dgpb_param_desc rows[] = {
        {"Dims", DGPB_KIND_UNIFORM_BUFFER, DGPB_FLAG_READ_ONLY, 0, 2, 0, 0, 0},
        VALUE("width", 0, 2, 0, 4),
        VALUE("scale", 0, 2, 4, 4),
        VALUE("pc.count", 0xFFFFFFFFu, 0, 0, 4),
        VALUE("pc.mul", 0xFFFFFFFFu, 0, 4, 4),
        VALUE("x", 1, 0, 0, 8),
        VALUE("y", 1, 0, 4, 4),
        VALUE("N", 0xFFFFFFFEu, 3, 0, 4),
    };
    size_t size;
    uint8_t *bytes = bundle_of(rows, 8, 8, NULL, 0, &size);
    char *h = header_of(bytes, size, "blocks");
    assert_contains(h, "typedef struct blocks_dxil_k_Dims {\n    uint8_t width[4];");
    assert_contains(h, "typedef struct blocks_dxil_k_pc {\n    uint8_t count[4];");
    assert_contains(h, "/* dxil 'k': no struct for the values of the block at space 1, binding 0: "
                       "their rows overlap. */\n");
    assert_null(strstr(h, "blocks_dxil_k_uniforms"));
    assert_contains(h, "    blocks_dxil_k_N_constant_id = 3 /* row 7 'N': 4 bytes, bytes */\n");
    dgpb_free(h);
    dgpb_free(bytes);
}

/* Targets whose rows or capabilities differ get their own enums and macros. */
static void test_targets_differ(void **state)
{
    (void)state;
    const dgpb_param_desc rows[] = {
        {"src", DGPB_KIND_BUFFER, DGPB_FLAG_READ_ONLY, 0, 0, 0, 0, 0},
        VALUE("gain", 0, 1, 0, 4),
    };
    const char *caps[] = {"half", "subgroup_basic"};
    size_t size;
    uint8_t *bytes = bundle_of(rows, 2, 1, caps, 2, &size);
    char *h = header_of(bytes, size, "t");
    assert_contains(h, "    t_dxil_k_gain = 1, /* value 'gain' */\n    t_dxil_k_row_count = 2\n");
    assert_contains(h, "    t_metal_k_src = 0, /* buffer 'src' */\n    t_metal_k_row_count = 1\n");
    assert_contains(h, "#define t_dxil_k_capabilities \"half subgroup_basic\"\n"
                       "#define t_dxil_k_capability_mask ((UINT64_C(1) << DGPB_CAP_HALF) | "
                       "(UINT64_C(1) << DGPB_CAP_SUBGROUP_BASIC))\n");
    assert_contains(
        h, "#define t_metal_k_capabilities \"\"\n#define t_metal_k_capability_mask UINT64_C(0)\n");
    dgpb_free(h);
    dgpb_free(bytes);
}

/* A value row whose code cannot be read for its type: the header fails, naming the problem. */
static void test_unreadable_code(void **state)
{
    (void)state;
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(model_create(&m), DGPB_OK);
    uint32_t spirv;
    assert_int_equal(model_add_target(m, "spirv", "spirv", &spirv, &d), DGPB_OK);
    const dgpb_param_desc rows[] = {VALUE("gain", 0, 0, 0, 4)};
    static const uint32_t words[8] = {0x07230203u, 0x00010300u, 0, 99, 0, 0xFFFFFFFFu, 0, 0};
    dgpb_entry_desc k = {.name = "k",
                         .stage = "compute",
                         .code = words,
                         .code_size = sizeof words,
                         .thread_group_size = {64, 1, 1},
                         .params = rows,
                         .param_count = 1};
    assert_int_equal(model_add_entry(m, spirv, &k, &d), DGPB_OK);
    uint8_t *bytes = NULL;
    size_t size;
    assert_int_equal(bundle_write(m, &bytes, &size, &d), DGPB_OK);
    model_destroy(m);
    dgpb_bundle *b = NULL;
    assert_int_equal(dgpb_bundle_open(bytes, size, 0, &b, &d), DGPB_OK);
    char *text = (char *)"untouched";
    int rc = c_header_make(b, "bad", &text, &d);
    assert_int_not_equal(rc, DGPB_OK);
    assert_int_not_equal(rc, DGPB_ERR_NOMEM);
    assert_null(text);
    assert_true(d.message[0] != 0);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

typedef struct fault_case {
    const uint8_t *bytes;
    size_t size;
} fault_case;

static int make_once(void *arg)
{
    const fault_case *c = arg;
    dgpb_bundle *b = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = dgpb_bundle_open(c->bytes, c->size, 0, &b, &d);
    char *text = NULL;
    if (!rc)
        rc = c_header_make(b, "faults", &text, &d);
    if (rc)
        assert_null(text);
    dgpb_free(text);
    dgpb_bundle_close(b);
    return rc;
}

/* Every allocation failing in turn: DGPB_ERR_NOMEM, nothing leaked (ASan), no header. */
static void test_faults(void **state)
{
    (void)state;
    const dgpb_param_desc rows[] = {
        {"Dims", DGPB_KIND_UNIFORM_BUFFER, DGPB_FLAG_READ_ONLY, 0, 2, 0, 0, 0},
        VALUE("width", 0, 2, 0, 4),
        VALUE("a.b", 0, 0, 4, 4),
        VALUE("a_b", 0, 0, 8, 4),
    };
    const char *caps[] = {"half"};
    fault_case c;
    c.bytes = bundle_of(rows, 4, 2, caps, 1, &c.size);
    assert_true(support_run_with_faults(make_once, &c, DGPB_OK, "c_header_make") > 0);
    dgpb_free((void *)c.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),          cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_targets_differ), cmocka_unit_test(test_unreadable_code),
        cmocka_unit_test(test_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
