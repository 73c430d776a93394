/*
 * tests/run/test_run_values.c - typed values (dgpb/run_values.h): parsing,
 * inferring, formatting, comparing with a tolerance, f16, time statistics;
 * and what the runner says without a device (dgpb/run.h): values placed by
 * rows, the names of its result codes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/alloc.h"
#include "dgpb/format.h"
#include "dgpb/run.h"
#include "dgpb/run_values.h"

/* Parses `text` as `type`, formats it back and checks both the bytes' length and the text. */
static void round_trip(uint32_t type, const char *text, size_t size, const char *printed)
{
    uint8_t *bytes = NULL;
    size_t n = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_value_parse(type, text, &bytes, &n, &d), DGPB_OK);
    assert_int_equal(n, size);
    char *back = NULL;
    assert_int_equal(dgpb_value_format(type, bytes, n, &back), DGPB_OK);
    assert_string_equal(back, printed);
    dgpb_free(back);
    dgpb_free(bytes);
}

static void parsing_then_formatting_gives_the_values_back(void **state)
{
    (void)state;
    round_trip(DGPB_VALUE_I32, "1,-2,2147483647,-2147483648", 16, "1,-2,2147483647,-2147483648");
    round_trip(DGPB_VALUE_U32, "0,0xffffffff, 7", 12, "0,4294967295,7");
    round_trip(DGPB_VALUE_F32, "0.1,-2.5,1e10,inf,-inf,nan", 24,
               "0.1,-2.5,10000000000,inf,-inf,nan");
    round_trip(DGPB_VALUE_F64, "0.1,3", 16, "0.1,3");
    round_trip(DGPB_VALUE_F16, "1.5,-0.25,65504,0.1", 8, "1.5,-0.25,65500,0.1");
    round_trip(DGPB_VALUE_U64, "18446744073709551615", 8, "18446744073709551615");
    round_trip(DGPB_VALUE_I64, "-9223372036854775808", 8, "-9223372036854775808");
    round_trip(DGPB_VALUE_U8, "0,255", 2, "0,255");
}

/*
 * Floats print with the fewest digits that read back as the same value of
 * their type, laid out as JavaScript's Number.prototype.toString lays them
 * out: plain decimals from 1e-6 up to 1e21, exponents (e-7, e+21) beyond.
 * f16 by its own precision: 65500 is the fewest digits that read back as
 * 65504.
 */
static void floats_print_plain_decimals_between_1e_minus_6_and_1e21(void **state)
{
    (void)state;
    static const struct {
        uint32_t type;
        const char *text, *printed;
    } cases[] = {
        {DGPB_VALUE_F32, "10", "10"},
        {DGPB_VALUE_F32, "100,1000,123456,-40", "100,1000,123456,-40"},
        {DGPB_VALUE_F32, "0.1,0.25,-0.5,1.5", "0.1,0.25,-0.5,1.5"},
        {DGPB_VALUE_F32, "0,-0", "0,-0"},
        {DGPB_VALUE_F32, "16777216,3.4028235e38", "16777216,3.4028235e+38"},
        {DGPB_VALUE_F32, "0.000001,0.0000012,1e-7", "0.000001,0.0000012,1e-7"},
        {DGPB_VALUE_F32, "1e20,1e21,1.5e-45", "100000000000000000000,1e+21,1e-45"},
        {DGPB_VALUE_F32, "3.1415927,0.3", "3.1415927,0.3"},
        {DGPB_VALUE_F64, "10,0.1,1e-7,123456789012345680000", "10,0.1,1e-7,123456789012345680000"},
        {DGPB_VALUE_F64, "0.30000000000000004,5e-324", "0.30000000000000004,5e-324"},
        {DGPB_VALUE_F64, "1.7976931348623157e308", "1.7976931348623157e+308"},
        {DGPB_VALUE_F16, "10,0.1,0.3,65504,-2048", "10,0.1,0.3,65500,-2048"},
        {DGPB_VALUE_F16, "6e-8,0.00006104", "6e-8,0.00006104"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t count = 1;
        for (const char *p = cases[i].text; *p; p++)
            count += *p == ',';
        round_trip(cases[i].type, cases[i].text, count * dgpb_value_type_size(cases[i].type),
                   cases[i].printed);
    }
}

/* Every f32 and f16 printed reads back as the same bits (f32: a sweep of patterns). */
static void printed_floats_read_back_exactly(void **state)
{
    (void)state;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    for (uint64_t x = 0; x <= 0xFFFFFFFFu; x += 40503) {
        uint32_t bits = (uint32_t)x;
        float f;
        memcpy(&f, &bits, 4);
        if (f != f)
            continue;
        char buf[64];
        dgpb_value_format_one(DGPB_VALUE_F32, (const uint8_t *)&bits, buf, sizeof buf);
        assert_null(strchr(buf, 'E'));
        uint8_t *bytes = NULL;
        size_t n = 0;
        assert_int_equal(dgpb_value_parse(DGPB_VALUE_F32, buf, &bytes, &n, &d), DGPB_OK);
        assert_memory_equal(bytes, &bits, 4);
        dgpb_free(bytes);
    }
    for (uint32_t h = 0; h < 0x10000u; h++) {
        if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu))
            continue; /* nan */
        uint16_t bits = (uint16_t)h;
        char buf[64];
        dgpb_value_format_one(DGPB_VALUE_F16, (const uint8_t *)&bits, buf, sizeof buf);
        uint8_t *bytes = NULL;
        size_t n = 0;
        assert_int_equal(dgpb_value_parse(DGPB_VALUE_F16, buf, &bytes, &n, &d), DGPB_OK);
        assert_memory_equal(bytes, &bits, 2);
        dgpb_free(bytes);
    }
}

static void values_out_of_range_or_malformed_are_refused_by_element(void **state)
{
    (void)state;
    static const struct {
        uint32_t type;
        const char *text, *message;
    } bad[] = {
        {DGPB_VALUE_I32, "1,2147483648",
         "'2147483648' (element 2) is not a i32 value (-2147483648 to 2147483647)"},
        {DGPB_VALUE_U32, "-1", "'-1' (element 1) is not a u32 value (0 to 4294967295)"},
        {DGPB_VALUE_U8, "256", "'256' (element 1) is not a u8 value (0 to 255)"},
        {DGPB_VALUE_U16, "65536", "'65536' (element 1) is not a u16 value (0 to 65535)"},
        {DGPB_VALUE_I16, "-32769", "'-32769' (element 1) is not a i16 value (-32768 to 32767)"},
        {DGPB_VALUE_F32, "1,,2",
         "'' (element 2) is not a f32 value (-3.4028235e+38 to 3.4028235e+38 (or inf, -inf, nan))"},
        {DGPB_VALUE_U32, "1.5", "'1.5' (element 1) is not a u32 value (0 to 4294967295)"},
        /* a finite number beyond a float's range is refused, not made an infinity */
        {DGPB_VALUE_F32, "1e40",
         "'1e40' (element 1) is not a f32 value (-3.4028235e+38 to 3.4028235e+38 (or inf, -inf, "
         "nan))"},
        {DGPB_VALUE_F32, "-1e400",
         "'-1e400' (element 1) is not a f32 value (-3.4028235e+38 to 3.4028235e+38 (or inf, "
         "-inf, nan))"},
        {DGPB_VALUE_F16, "65520",
         "'65520' (element 1) is not a f16 value (-65504 to 65504 (or inf, -inf, nan))"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t *bytes = (uint8_t *)1;
        size_t n = 1;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        assert_int_equal(dgpb_value_parse(bad[i].type, bad[i].text, &bytes, &n, &d),
                         DGPB_ERR_INVALID);
        assert_null(bytes);
        assert_int_equal(n, 0);
        assert_string_equal(d.message, bad[i].message);
    }
}

static void u16_i16_and_i8_read_and_print_back(void **state)
{
    (void)state;
    static const struct {
        uint32_t type;
        const char *text;
        size_t size;
    } ok[] = {
        {DGPB_VALUE_U16, "0,65535,7", 6},
        {DGPB_VALUE_I16, "-32768,32767,-1", 6},
        {DGPB_VALUE_I8, "-128,127,0", 3},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        uint8_t *bytes = NULL;
        size_t n = 0;
        char *text = NULL;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        const char *name = dgpb_value_type_name(ok[i].type);
        assert_int_equal(dgpb_value_type_from_name(name, strlen(name)), (int)ok[i].type);
        assert_int_equal(dgpb_value_parse(ok[i].type, ok[i].text, &bytes, &n, &d), DGPB_OK);
        assert_int_equal(n, ok[i].size);
        assert_int_equal(dgpb_value_format(ok[i].type, bytes, n, &text), DGPB_OK);
        assert_string_equal(text, ok[i].text);
        dgpb_free(text);
        dgpb_free(bytes);
    }
}

static void finite_floats_in_range_and_infinities_by_name_are_taken(void **state)
{
    (void)state;
    uint8_t *bytes = NULL;
    size_t n = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(
        dgpb_value_parse(DGPB_VALUE_F32, "3.4028235e38,inf,-inf,nan,1e-50", &bytes, &n, &d),
        DGPB_OK);
    dgpb_free(bytes);
    assert_int_equal(dgpb_value_parse(DGPB_VALUE_F16, "65504,65519,-inf", &bytes, &n, &d), DGPB_OK);
    dgpb_free(bytes);
}

static void typed_prints_show_whole_elements_and_count_the_bytes_left(void **state)
{
    (void)state;
    const uint8_t b[7] = {0, 0, 0x80, 0x40, 1, 2, 3};
    char *text = NULL;
    assert_int_equal(dgpb_value_format(DGPB_VALUE_F32, b, 7, &text), DGPB_OK);
    assert_string_equal(text, "4 (+3 bytes)");
    dgpb_free(text);
    assert_int_equal(dgpb_value_format(DGPB_VALUE_U64, b, 7, &text), DGPB_OK);
    assert_string_equal(text, "(+7 bytes)");
    dgpb_free(text);
    assert_int_equal(dgpb_value_format(DGPB_VALUE_U16, b, 5, &text), DGPB_OK);
    assert_string_equal(text, "0,16512 (+1 byte)");
    dgpb_free(text);
}

static void untyped_values_are_f32_with_a_point_else_i32_when_negative_else_u32(void **state)
{
    (void)state;
    assert_int_equal(dgpb_value_infer_type("1,2,3"), DGPB_VALUE_U32);
    assert_int_equal(dgpb_value_infer_type("1,-2"), DGPB_VALUE_I32);
    assert_int_equal(dgpb_value_infer_type("1,2.0"), DGPB_VALUE_F32);
    assert_int_equal(dgpb_value_infer_type("1e3"), DGPB_VALUE_F32);
    assert_int_equal(dgpb_value_infer_type("inf"), DGPB_VALUE_F32);
    assert_int_equal(dgpb_value_infer_type("-nan"), DGPB_VALUE_F32);
    assert_int_equal(dgpb_value_infer_type("0x1e"), DGPB_VALUE_U32); /* hex: 'e' is a digit */
}

static void hex_prints_words_and_a_tail_of_bytes(void **state)
{
    (void)state;
    const uint8_t b[6] = {1, 0, 0, 0x80, 0xab, 0xcd};
    char *text = NULL;
    assert_int_equal(dgpb_value_format(DGPB_VALUE_HEX, b, 6, &text), DGPB_OK);
    assert_string_equal(text, "0x80000001,0xab,0xcd");
    dgpb_free(text);
}

static void floats_compare_within_the_tolerance_and_exactly_without_one(void **state)
{
    (void)state;
    const float got[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    const float want[4] = {1.0f, 2.001f, 3.0f, 5.0f};
    dgpb_value_compare c;
    assert_false(dgpb_value_compare_bytes(DGPB_VALUE_F32, (const uint8_t *)got, 16,
                                          (const uint8_t *)want, 16, -1, &c));
    assert_int_equal(c.compared, 4);
    assert_int_equal(c.mismatches, 2);
    assert_int_equal(c.first, 1);
    assert_false(dgpb_value_compare_bytes(DGPB_VALUE_F32, (const uint8_t *)got, 16,
                                          (const uint8_t *)want, 16, 0.01, &c));
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first, 3);
    /* A shorter expectation compares the first elements only. */
    assert_true(dgpb_value_compare_bytes(DGPB_VALUE_F32, (const uint8_t *)got, 16,
                                         (const uint8_t *)want, 4, -1, &c));
    assert_int_equal(c.compared, 1);
    /* A longer one never matches. */
    assert_false(dgpb_value_compare_bytes(DGPB_VALUE_F32, (const uint8_t *)got, 8,
                                          (const uint8_t *)want, 16, 10, &c));
    assert_true(c.too_long);
}

static void nan_equals_nan_and_infinity_only_itself_with_a_tolerance(void **state)
{
    (void)state;
    const float nan = __builtin_nanf(""), inf = __builtin_inff();
    const float got[3] = {nan, inf, 1.0f}, want[3] = {nan, inf, inf};
    dgpb_value_compare c;
    assert_false(dgpb_value_compare_bytes(DGPB_VALUE_F32, (const uint8_t *)got, 12,
                                          (const uint8_t *)want, 12, 1e30, &c));
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.first, 2);
}

static void integers_compare_exactly_whatever_the_tolerance(void **state)
{
    (void)state;
    const int32_t got[2] = {5, 6}, want[2] = {5, 7};
    dgpb_value_compare c;
    assert_false(dgpb_value_compare_bytes(DGPB_VALUE_I32, (const uint8_t *)got, 8,
                                          (const uint8_t *)want, 8, 100, &c));
    assert_int_equal(c.first, 1);
}

static void f16_conversions_round_to_nearest_even(void **state)
{
    (void)state;
    assert_int_equal(dgpb_f32_to_f16(1.0f), 0x3C00);
    assert_int_equal(dgpb_f32_to_f16(-2.0f), 0xC000);
    assert_int_equal(dgpb_f32_to_f16(65504.0f), 0x7BFF);
    assert_int_equal(dgpb_f32_to_f16(65520.0f), 0x7C00);           /* rounds up to infinity */
    assert_int_equal(dgpb_f32_to_f16(5.9604645e-8f), 0x0001);      /* the smallest subnormal */
    assert_int_equal(dgpb_f32_to_f16(1.0f + 1.0f / 2048), 0x3C00); /* a tie: to even */
    assert_true(dgpb_f16_to_f32(0x0001) == 5.9604645e-8f);
    assert_true(dgpb_f16_to_f32(0x7BFF) == 65504.0f);
    for (uint32_t h = 0; h < 0x7C00; h++) /* every finite half survives a round trip */
        assert_int_equal(dgpb_f32_to_f16(dgpb_f16_to_f32((uint16_t)h)), h);
}

static void time_statistics_are_min_median_and_mean(void **state)
{
    (void)state;
    const double t[4] = {4, 1, 3, 2};
    double min, median, mean;
    dgpb_time_stats(t, 4, &min, &median, &mean);
    assert_true(min == 1 && median == 2.5 && mean == 2.5);
    dgpb_time_stats(t, 3, &min, &median, &mean);
    assert_true(min == 1 && median == 3);
}

static void matrices_are_placed_by_rows(void **state)
{
    (void)state;
    const float m[4] = {1, 2, 3, 4}; /* float2x2, rows tightly packed */
    dgpb_run_param p = {.name = "m", .matrix_rows = 2, .size = 16, .input = (const uint8_t *)m};
    float row[8];
    memset(row, 0xff, sizeof row);
    assert_int_equal(dgpb_run_value_place(&p, 32, (uint8_t *)row), 0); /* std140: 16-byte rows */
    const float want[8] = {1, 2, 0, 0, 3, 4, 0, 0};
    assert_memory_equal(row, want, sizeof want);
    assert_int_equal(dgpb_run_value_place(&p, 8, NULL), -1);
}

static void only_f16_f32_and_f64_are_floats(void **state)
{
    (void)state;
    for (uint32_t t = 0; t <= DGPB_VALUE_TYPE_COUNT; t++)
        assert_int_equal(dgpb_value_type_is_float(t),
                         t == DGPB_VALUE_F16 || t == DGPB_VALUE_F32 || t == DGPB_VALUE_F64);
}

static void run_result_codes_have_names_and_the_others_keep_the_core_ones(void **state)
{
    (void)state;
    static const struct {
        int code;
        const char *text;
    } rows[] = {
        {DGPB_ERR_RUN_NO_DEVICE, "no device"},
        {DGPB_ERR_RUN_DRIVER, "driver error"},
        {DGPB_ERR_RUN_CAPABILITY, "unsupported capability"},
        {DGPB_ERR_RUN_PARAM, "unknown parameter"},
        {DGPB_ERR_RUN_MISSING, "parameter given nothing"},
        {DGPB_ERR_RUN_SIZE, "size does not fit the row"},
        {DGPB_ERR_RUN_KIND, "kind does not fit the row"},
        {DGPB_ERR_RUN_STAGE, "entries that form no pipeline"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_string_equal(dgpb_run_result_str(rows[i].code), rows[i].text);
    int core[] = {DGPB_OK, DGPB_ERR_CORRUPT, DGPB_ERR_TOOL, DGPB_ERR_UNSUPPORTED, -12345};
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++)
        assert_string_equal(dgpb_run_result_str(core[i]), dgpb_result_str(core[i]));
}

static void texture_formats_and_dimensions_have_names_sizes_and_sample_types(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint32_t size, sample;
    } formats[] = {
        {"r16float", 2, DGPB_SAMPLE_FLOAT},     {"r32float", 4, DGPB_SAMPLE_FLOAT},
        {"rg32float", 8, DGPB_SAMPLE_FLOAT},    {"rgba32float", 16, DGPB_SAMPLE_FLOAT},
        {"r32uint", 4, DGPB_SAMPLE_UINT},       {"rgba8unorm", 4, DGPB_SAMPLE_FLOAT},
        {"rgba16float", 8, DGPB_SAMPLE_FLOAT},  {"r32sint", 4, DGPB_SAMPLE_SINT},
        {"rgba32uint", 16, DGPB_SAMPLE_UINT},   {"rgba32sint", 16, DGPB_SAMPLE_SINT},
        {"depth32float", 4, DGPB_SAMPLE_DEPTH}, {"depth16unorm", 2, DGPB_SAMPLE_DEPTH},
    };
    assert_int_equal(sizeof formats / sizeof formats[0], DGPB_RUN_FORMAT_COUNT - 1);
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        int f = dgpb_run_format_from_name(formats[i].name);
        assert_int_equal(f, (int)i + 1);
        assert_string_equal(dgpb_run_format_name((uint32_t)f), formats[i].name);
        assert_int_equal(dgpb_run_format_texel_size((uint32_t)f), formats[i].size);
        assert_int_equal(dgpb_run_format_sample_type((uint32_t)f), formats[i].sample);
    }
    assert_int_equal(dgpb_run_format_from_name("depth24plus"), -1);
    assert_int_equal(dgpb_run_format_sample_type(DGPB_RUN_FORMAT_NONE), 0);
    assert_int_equal(dgpb_run_format_sample_type(DGPB_RUN_FORMAT_COUNT), 0);
    static const char *const dims[] = {"2d", "1d", "3d", "cube", "2d_array", "cube_array", "2d_ms"};
    assert_int_equal(sizeof dims / sizeof dims[0], DGPB_RUN_DIM_COUNT);
    for (int i = 0; i < DGPB_RUN_DIM_COUNT; i++) {
        assert_int_equal(dgpb_run_dim_from_name(dims[i]), i);
        assert_string_equal(dgpb_run_dim_name((uint32_t)i), dims[i]);
    }
    assert_null(dgpb_run_dim_name(DGPB_RUN_DIM_COUNT));
    assert_int_equal(dgpb_run_dim_from_name("2d_ms_array"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parsing_then_formatting_gives_the_values_back),
        cmocka_unit_test(floats_print_plain_decimals_between_1e_minus_6_and_1e21),
        cmocka_unit_test(printed_floats_read_back_exactly),
        cmocka_unit_test(values_out_of_range_or_malformed_are_refused_by_element),
        cmocka_unit_test(untyped_values_are_f32_with_a_point_else_i32_when_negative_else_u32),
        cmocka_unit_test(hex_prints_words_and_a_tail_of_bytes),
        cmocka_unit_test(u16_i16_and_i8_read_and_print_back),
        cmocka_unit_test(finite_floats_in_range_and_infinities_by_name_are_taken),
        cmocka_unit_test(typed_prints_show_whole_elements_and_count_the_bytes_left),
        cmocka_unit_test(floats_compare_within_the_tolerance_and_exactly_without_one),
        cmocka_unit_test(nan_equals_nan_and_infinity_only_itself_with_a_tolerance),
        cmocka_unit_test(integers_compare_exactly_whatever_the_tolerance),
        cmocka_unit_test(f16_conversions_round_to_nearest_even),
        cmocka_unit_test(time_statistics_are_min_median_and_mean),
        cmocka_unit_test(matrices_are_placed_by_rows),
        cmocka_unit_test(only_f16_f32_and_f64_are_floats),
        cmocka_unit_test(run_result_codes_have_names_and_the_others_keep_the_core_ones),
        cmocka_unit_test(texture_formats_and_dimensions_have_names_sizes_and_sample_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
