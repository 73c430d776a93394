/*
 * test_param_scopes.c - the namespaces of a module's parameters, read from
 * its text (src/scan/param_scopes.c): Slang's reflection order (the module
 * scope first, then namespaces breadth first, one reopened namespace as one),
 * what is no parameter, texts the scanner does not read, and allocation
 * failures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/result.h"
#include "scan/param_scopes.h"
#include "support.h"

/* The scan as "path::name" items joined by spaces ("name" at module scope). */
static void scan_text(const char *text, char *buf, size_t size)
{
    dgpb_param_scopes s;
    assert_int_equal(param_scopes_scan(text, strlen(text), &s), DGPB_OK);
    size_t n = 0;
    buf[0] = 0;
    if (s.incomplete)
        snprintf(buf, size, "incomplete");
    for (size_t i = 0; i < s.count && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s%s%s", i ? " " : "", s.items[i].path,
                              *s.items[i].path ? "::" : "", s.items[i].name);
    param_scopes_free(&s);
}

static void lists_parameters_in_slangs_order(void **state)
{
    (void)state;
    /* Measured with Slang 2025.15: g0 CB b0 b1 a0 ACB b_y b_y2 b_x a_z b_x_deep. */
    const char *text =
        "namespace b { namespace y { RWStructuredBuffer<uint> b_y; } RWStructuredBuffer<uint> b0;\n"
        "  namespace x { RWStructuredBuffer<uint> b_x; namespace deep {\n"
        "    RWStructuredBuffer<uint> b_x_deep; } } }\n"
        "namespace a { RWStructuredBuffer<uint> a0; namespace z { RWStructuredBuffer<uint> a_z; } "
        "}\n"
        "RWStructuredBuffer<uint> g0;\n"
        "namespace b { RWStructuredBuffer<uint> b1; namespace y { RWStructuredBuffer<uint> b_y2; } "
        "}\n"
        "cbuffer CB { uint cnt; }\n"
        "namespace a { cbuffer ACB : register(b1) { uint cnt2; } }\n"
        "[shader(\"compute\")] [numthreads(64, 1, 1)]\n"
        "void both(uint3 id : SV_DispatchThreadID) { b::y::b_y[0] = 0; { } }\n";
    char got[512];
    scan_text(text, got, sizeof got);
    assert_string_equal(got, "g0 CB b::b0 b::b1 a::a0 a::ACB b::y::b_y b::y::b_y2 b::x::b_x "
                             "a::z::a_z b::x::deep::b_x_deep");
}

static void reads_declarators_as_slang_does(void **state)
{
    (void)state;
    const char *text = "import lib; __include part; typealias F = float; typedef int I;\n"
                       "static const uint N = 4; groupshared float cache[64];\n"
                       "struct S { Texture2D inner; float f(float x) { return x; } };\n"
                       "interface IOp { float apply(float x); }\n"
                       "enum class E : uint { A = 1, B };\n"
                       "[[vk::binding(0, 1)]] Texture2D<float4> a[4] : register(t0), b;\n"
                       "[vk::constant_id(3)] const int K = 1;\n"
                       "uniform float4 tint = float4(1, 1, 1, 1);\n"
                       "ConstantBuffer<Map<int, vector<float, 4>>> cb;\n"
                       "float helper(float x);\n"
                       "T generic<T>(T x) { return x; }\n"
                       "namespace n.m { SamplerState s; } namespace n::m { SamplerState t; }\n"
                       "// namespace hidden { Texture2D c; }\n"
                       "#define X namespace q { Texture2D d; }\n";
    char got[512];
    scan_text(text, got, sizeof got);
    assert_string_equal(got, "a b K tint cb n::m::s n::m::t");
}

static void texts_it_cannot_read_are_incomplete(void **state)
{
    (void)state;
    const char *texts[] = {"namespace a; Texture2D t;",
                           "namespace { Texture2D t; }",
                           "namespace a { Texture2D t;",
                           "Texture2D t; }",
                           "Texture2D t",
                           "[numthreads(1,1,1)] void f() {"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        char got[64];
        scan_text(texts[i], got, sizeof got);
        assert_string_equal(got, "incomplete");
    }
}

static int scan_some(void *arg)
{
    const char *text = arg;
    dgpb_param_scopes s;
    int rc = param_scopes_scan(text, strlen(text), &s);
    if (rc == DGPB_OK && s.count != 3)
        rc = DGPB_ERR_INVALID;
    if (rc != DGPB_OK && (s.items || s.count))
        rc = DGPB_ERR_INVALID; /* a failure leaves nothing behind */
    param_scopes_free(&s);
    return rc;
}

static void allocation_failures(void **state)
{
    (void)state;
    char text[] = "Texture2D t; namespace a { Texture2D t; namespace b { Texture2D t; } }";
    assert_true(support_run_with_faults(scan_some, text, DGPB_OK, "param_scopes_scan") > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lists_parameters_in_slangs_order),
        cmocka_unit_test(reads_declarators_as_slang_does),
        cmocka_unit_test(texts_it_cannot_read_are_incomplete),
        cmocka_unit_test(allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
