/*
 * test_c_header.c - the C header of a bundle (header/c_header.c) on bundles
 * made here: names C can spell (keywords, collisions, a stem that starts with
 * a digit, reserved "__"), rows that overlap, offsets C cannot place, targets
 * whose rows or capabilities differ, each row's space and binding, one struct
 * per layout (named by where its layouts differ), a block as large as its row
 * says, determinism, and every allocation failing in turn. The types of real code and the header compiled by C and
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
    /* members: a keyword gets '_', names alike get "_2"; unknown types are bytes; one struct for
       the two targets, whose layouts agree */
    assert_contains(h,
                    "typedef struct dgpb_3d_shaders_main_uniforms {\n"
                    "    uint8_t new_[4]; /* 'new': offset 0, size 4, bytes */\n"
                    "    uint8_t a_b[4]; /* 'a.b': offset 4, size 4, bytes */\n"
                    "    uint8_t a_b_2[4]; /* 'a_b': offset 8, size 4, bytes */\n"
                    "    uint8_t pad_12[4];\n"
                    "    uint8_t row_count[4]; /* 'row_count': offset 16, size 4, bytes */\n"
                    "} dgpb_3d_shaders_main_uniforms;\n");
    assert_contains(h, "offsetof(dgpb_3d_shaders_main_uniforms, a_b_2) == 8,");
    assert_contains(h, "sizeof(dgpb_3d_shaders_main_uniforms) == 20,");
    assert_null(strstr(h, "_metal_k_uniforms"));
    assert_null(strstr(h, "_dxil_k_uniforms"));
    /* every row's space and binding per target, named as its index is */
    assert_contains(h, "#define dgpb_3d_shaders_main_dxil_k_a_b_2_space 0u /* value 'a_b', in "
                       "dgpb_3d_shaders_main_uniforms */\n"
                       "#define dgpb_3d_shaders_main_dxil_k_a_b_2_binding 0u\n");
    assert_contains(h, "#define dgpb_3d_shaders_main_metal_k_slang_resource_heap_space 0u /* "
                       "buffer '__slang_resource_heap' */\n"
                       "#define dgpb_3d_shaders_main_metal_k_slang_resource_heap_binding 1u\n");
    assert_contains(h, "#define dgpb_3d_shaders_main_metal_k_row_count_2_space 0u");
    /* the same rows on both targets: one enum */
    assert_null(strstr(h, "_metal_k_new ="));
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
    assert_contains(h, "typedef struct blocks_Dims {\n    uint8_t width[4];");
    assert_contains(h, "typedef struct blocks_pc {\n    uint8_t count[4];");
    assert_contains(h, "/* dxil 'k': no struct for the values of the block at space 1, binding 0: "
                       "their rows overlap. */\n");
    assert_null(strstr(h, "uniforms"));
    assert_contains(h, "    blocks_dxil_k_N_constant_id = 3 /* row 7 'N': 4 bytes, bytes */\n");
    /* the reserved spaces in hex: the launch parameters, the pipeline constants */
    assert_contains(h, "#define blocks_metal_k_pc_mul_space 0xFFFFFFFFu /* value 'pc.mul', in "
                       "blocks_pc (launch) */\n#define blocks_metal_k_pc_mul_binding 0u\n");
    assert_contains(h, "#define blocks_dxil_k_N_space 0xFFFFFFFEu /* value 'N', a pipeline "
                       "constant (the binding is its id) */\n#define blocks_dxil_k_N_binding 3u\n");
    assert_contains(h, "#define blocks_dxil_k_Dims_space 0u /* uniform_buffer 'Dims': blocks_Dims "
                       "*/\n#define blocks_dxil_k_Dims_binding 2u\n");
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
    /* each target's own places */
    assert_contains(h, "#define t_dxil_k_gain_space 0u /* value 'gain', in t_uniforms */\n"
                       "#define t_dxil_k_gain_binding 1u\n");
    assert_contains(h, "#define t_metal_k_src_space 0u /* buffer 'src' */\n"
                       "#define t_metal_k_src_binding 0u\n\n");
    assert_null(strstr(h, "t_metal_k_gain"));
    dgpb_free(h);
    dgpb_free(bytes);
}

/* Whether `needle` occurs in `h` exactly `times` times. */
static void assert_times(const char *h, const char *needle, int times)
{
    int n = 0;
    for (const char *at = h; (at = strstr(at, needle)) != NULL; at++)
        n++;
    if (n != times)
        fail_msg("'%s' occurs %d times, not %d", needle, n, times);
}

/*
 * One struct per layout: a block that several entries use is written once; a block whose
 * layout differs by target gets one name per target, targets alike sharing one struct (a
 * typedef of it); a block that differs between entries on one target gets the entry in its
 * name; a block named apart but laid out alike is a typedef of the first. (A block as large
 * as the code's: tests/build_header.sh, fixtures/header/particles_pass.slang.)
 */
static void test_layouts(void **state)
{
    (void)state;
    dgpb_model *m = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(model_create(&m), DGPB_OK);
    uint32_t targets[3];
    assert_int_equal(model_add_target(m, "dxbc", "dxbc", &targets[0], &d), DGPB_OK);
    assert_int_equal(model_add_target(m, "dxil", "dxil", &targets[1], &d), DGPB_OK);
    assert_int_equal(model_add_target(m, "metal", "msl", &targets[2], &d), DGPB_OK);
    /* Dims: its scale at 4 on dxbc and dxil, at 8 on metal */
    const dgpb_param_desc packed[] = {
        {"Dims", DGPB_KIND_UNIFORM_BUFFER, DGPB_FLAG_READ_ONLY, 0, 2, 0, 0, 0},
        VALUE("width", 0, 2, 0, 4),
        VALUE("scale", 0, 2, 4, 4),
        {"Other", DGPB_KIND_UNIFORM_BUFFER, DGPB_FLAG_READ_ONLY, 0, 3, 0, 0, 0},
        VALUE("Other.width", 0, 3, 0, 4),
        VALUE("Other.scale", 0, 3, 4, 4),
        VALUE("gain", 0, 0, 0, 4),
    };
    const dgpb_param_desc spread[] = {
        {"Dims", DGPB_KIND_UNIFORM_BUFFER, DGPB_FLAG_READ_ONLY, 0, 2, 0, 0, 0},
        VALUE("width", 0, 2, 0, 4),
        VALUE("scale", 0, 2, 8, 4),
        {"Other", DGPB_KIND_UNIFORM_BUFFER, DGPB_FLAG_READ_ONLY, 0, 3, 0, 0, 0},
        VALUE("Other.width", 0, 3, 0, 4),
        VALUE("Other.scale", 0, 3, 4, 4),
        VALUE("gain", 0, 0, 0, 4),
    };
    /* the entry's own `gain` at 0 in k, at 4 in k2 */
    const dgpb_param_desc later[] = {
        {"Dims", DGPB_KIND_UNIFORM_BUFFER, DGPB_FLAG_READ_ONLY, 0, 2, 0, 0, 0},
        VALUE("width", 0, 2, 0, 4),
        VALUE("scale", 0, 2, 4, 4),
        {"Other", DGPB_KIND_UNIFORM_BUFFER, DGPB_FLAG_READ_ONLY, 0, 3, 0, 0, 0},
        VALUE("Other.width", 0, 3, 0, 4),
        VALUE("Other.scale", 0, 3, 4, 4),
        VALUE("gain", 0, 0, 4, 4),
    };
    for (uint32_t t = 0; t < 3; t++) {
        dgpb_entry_desc k = {.name = "k",
                             .stage = "compute",
                             .code = code,
                             .code_size = sizeof code - 1,
                             .thread_group_size = {64, 1, 1},
                             .params = t == 2 ? spread : packed,
                             .param_count = 7};
        assert_int_equal(model_add_entry(m, targets[t], &k, &d), DGPB_OK);
        k.name = "k2";
        k.params = t == 2 ? spread : later;
        assert_int_equal(model_add_entry(m, targets[t], &k, &d), DGPB_OK);
    }
    uint8_t *bytes = NULL;
    size_t size;
    assert_int_equal(bundle_write(m, &bytes, &size, &d), DGPB_OK);
    model_destroy(m);
    char *h = header_of(bytes, size, "l");
    /* Dims per target; dxil's a typedef of dxbc's, k2's the same names */
    assert_contains(h, "/* Block 'Dims': its values at their offsets (8 bytes). */\n"
                       "typedef struct l_dxbc_Dims {\n"
                       "    uint8_t width[4]; /* 'width': offset 0, size 4, bytes */\n"
                       "    uint8_t scale[4]; /* 'scale': offset 4, size 4, bytes */\n"
                       "} l_dxbc_Dims;\n");
    assert_contains(h, "sizeof(l_dxbc_Dims) == 8,");
    assert_contains(h, "/* Block 'Dims' on dxil: laid out as l_dxbc_Dims. */\n"
                       "typedef l_dxbc_Dims l_dxil_Dims;\n");
    assert_contains(h, "typedef struct l_metal_Dims {\n"
                       "    uint8_t width[4]; /* 'width': offset 0, size 4, bytes */\n"
                       "    uint8_t pad_4[4];\n"
                       "    uint8_t scale[4]; /* 'scale': offset 8, size 4, bytes */\n"
                       "} l_metal_Dims;\n");
    assert_times(h, "typedef struct", 4); /* l_dxbc_Dims, l_metal_Dims, k's and k2's uniforms */
    assert_times(h, " l_dxil_Dims;\n", 1);
    assert_contains(h, "#define l_dxil_k2_Dims_space 0u /* uniform_buffer 'Dims': l_dxil_Dims */");
    /* Other: laid out as Dims is on dxbc and dxil, on every target: a typedef of dxbc's */
    assert_contains(h, "/* Block 'Other': laid out as l_dxbc_Dims. */\n"
                       "typedef l_dxbc_Dims l_Other;\n");
    assert_contains(h, "#define l_metal_k_Other_width_space 0u /* value 'Other.width', in "
                       "l_Other */");
    /* the entry's own values: k's and k2's differ on dxbc and dxil, agree on metal */
    assert_contains(h, "typedef struct l_dxbc_k_uniforms {\n"
                       "    uint8_t gain[4]; /* 'gain': offset 0, size 4, bytes */\n");
    assert_contains(h, "typedef struct l_dxbc_k2_uniforms {\n    uint8_t pad_0[4];\n");
    assert_contains(h, "/* Block 'uniforms' on metal for 'k2': laid out as l_dxbc_k_uniforms. */\n"
                       "typedef l_dxbc_k_uniforms l_metal_k2_uniforms;\n");
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
        cmocka_unit_test(test_targets_differ), cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_unreadable_code),
        cmocka_unit_test(test_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
