/*
 * test_decl_slice.c - the part of a module's text an entry's code can depend
 * on, the compile cache's key text (src/scan/decl_slice.c). Each case keys
 * an entry of a text before and after an edit: an edit the entry cannot see
 * must key the same (no recompile), every other edit must key differently
 * (a same key there would be a stale cache hit). Cases the reading cannot
 * be sure of must decline.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/bytebuf.h"
#include "scan/decl_slice.h"

/* The key text of `entry` in `text`; NULL when it declines. Free with free(). */
static char *key_of(const char *text, const char *entry, const char *seeds)
{
    dgpb_bytebuf b = DGPB_BYTEBUF_INIT;
    if (!decl_slice(text, strlen(text), entry, false, seeds, seeds ? strlen(seeds) : 0, &b)) {
        bytebuf_free(&b);
        return NULL;
    }
    char *s = malloc(b.len + 1);
    assert_non_null(s);
    memcpy(s, b.data, b.len);
    s[b.len] = 0;
    bytebuf_free(&b);
    return s;
}

/* Whether `entry` keys the same in both texts (both must be read). */
static bool same_key(const char *before, const char *after, const char *entry)
{
    char *a = key_of(before, entry, NULL), *b = key_of(after, entry, NULL);
    if (!a || !b)
        fail_msg("declined: '%s'", !a ? before : after);
    bool same = !strcmp(a, b);
    free(a);
    free(b);
    return same;
}

#define MODULE_HEAD                                                                                \
    "RWStructuredBuffer<float> data;\n"                                                            \
    "struct Params { float scale; };\n"                                                            \
    "ConstantBuffer<Params> params;\n"                                                             \
    "float helper(float x) { return x * params.scale; }\n"
#define ENTRY(name, body)                                                                          \
    "[shader(\"compute\")]\n[numthreads(64, 1, 1)]\n"                                              \
    "void " name "(uint3 id : SV_DispatchThreadID) { " body " }\n"

static const char BASE[] = MODULE_HEAD ENTRY("a", "data[id.x] = helper(data[id.x]);")
    ENTRY("b", "data[id.x] = 2.0 * data[id.x];");

static void comments_and_white_space_key_the_same(void **state)
{
    (void)state;
    assert_true(same_key(BASE, "// a comment\n/* and another */\n" MODULE_HEAD "\n\n"
                               ENTRY("a", "data[id.x]   =  helper( data[id.x] ) ;")
                               ENTRY("b", "data[id.x] = 2.0 * data[id.x]; /* x */"),
                         "a"));
}

static void another_entrys_body_keys_the_same(void **state)
{
    (void)state;
    const char *edited = MODULE_HEAD ENTRY("a", "data[id.x] = helper(data[id.x]);")
        ENTRY("b", "data[id.x] = 3.0 * data[id.x];");
    assert_true(same_key(BASE, edited, "a"));
    assert_false(same_key(BASE, edited, "b"));
}

static void a_shared_helper_keys_every_entry_that_calls_it(void **state)
{
    (void)state;
    const char *edited = "RWStructuredBuffer<float> data;\n"
                         "struct Params { float scale; };\n"
                         "ConstantBuffer<Params> params;\n"
                         "float helper(float x) { return x * params.scale + 1.0; }\n"
        ENTRY("a", "data[id.x] = helper(data[id.x]);") ENTRY("b", "data[id.x] = 2.0 * data[id.x];");
    assert_false(same_key(BASE, edited, "a"));
    assert_true(same_key(BASE, edited, "b")); /* b never calls it */
}

static void parameters_types_and_globals_key_every_entry(void **state)
{
    (void)state;
    /* A new parameter moves the bindings of those after it; a parameter's type its layout. */
    const char *more = "Texture2D<float4> extra;\n" MODULE_HEAD ENTRY("a", "data[id.x] = 1.0;")
        ENTRY("b", "data[id.x] = 2.0 * data[id.x];");
    const char *base = MODULE_HEAD ENTRY("a", "data[id.x] = 1.0;")
        ENTRY("b", "data[id.x] = 2.0 * data[id.x];");
    assert_false(same_key(base, more, "a"));
    const char *wider = "RWStructuredBuffer<float> data;\n"
                        "struct Params { float scale; float bias; };\n"
                        "ConstantBuffer<Params> params;\n"
                        "float helper(float x) { return x * params.scale; }\n"
        ENTRY("a", "data[id.x] = 1.0;") ENTRY("b", "data[id.x] = 2.0 * data[id.x];");
    assert_false(same_key(base, wider, "b"));
    assert_false(same_key("static const float K = 1.0;\n" MODULE_HEAD ENTRY("a", "data[0] = 1;"),
                          "static const float K = 2.0;\n" MODULE_HEAD ENTRY("a", "data[0] = 1;"),
                          "a"));
}

static void calls_are_followed_through_functions_and_types(void **state)
{
    (void)state;
    const char *before = "RWStructuredBuffer<float> data;\n"
                         "struct Light { float power() { return leaf(2.0); } };\n"
                         "float leaf(float x) { return x; }\n"
                         "float mid() { Light l; return l.power(); }\n" ENTRY("a", "data[0] = mid();");
    const char *after = "RWStructuredBuffer<float> data;\n"
                        "struct Light { float power() { return leaf(2.0); } };\n"
                        "float leaf(float x) { return x * 2; }\n"
                        "float mid() { Light l; return l.power(); }\n" ENTRY("a", "data[0] = mid();");
    assert_false(same_key(before, after, "a"));
}

/* Slang may use a conforming type or a derivative no kept code names. */
static void conformances_and_derivatives_are_kept(void **state)
{
    (void)state;
    const char *before = "interface IShade { float shade(); };\n"
                         "struct Pbr : IShade { float shade() { return 1.0; } };\n"
                         "ParameterBlock<IShade> material;\n"
                         "RWStructuredBuffer<float> data;\n" ENTRY("a", "data[0] = material.shade();");
    const char *after = "interface IShade { float shade(); };\n"
                        "struct Pbr : IShade { float shade() { return 2.0; } };\n"
                        "ParameterBlock<IShade> material;\n"
                        "RWStructuredBuffer<float> data;\n" ENTRY("a", "data[0] = material.shade();");
    assert_false(same_key(before, after, "a"));
    const char *d1 = "RWStructuredBuffer<float> data;\n"
                     "[Differentiable] float f(float x) { return x * x; }\n"
                     "[ForwardDerivativeOf(f)] DifferentialPair<float> df(DifferentialPair<float> x)"
                     " { return x; }\n" ENTRY("a", "data[0] = f(1.0);");
    const char *d2 = "RWStructuredBuffer<float> data;\n"
                     "[Differentiable] float f(float x) { return x * x; }\n"
                     "[ForwardDerivativeOf(f)] DifferentialPair<float> df(DifferentialPair<float> x)"
                     " { return diffPair(x.p, 2.0); }\n" ENTRY("a", "data[0] = f(1.0);");
    assert_false(same_key(d1, d2, "a"));
}

static void macros_and_defines_name_what_they_expand_to(void **state)
{
    (void)state;
    const char *before = "#define SHADE(x) helper(x)\nRWStructuredBuffer<float> data;\n"
                         "float helper(float x) { return x; }\n" ENTRY("a", "data[0] = SHADE(1.0);");
    const char *after = "#define SHADE(x) helper(x)\nRWStructuredBuffer<float> data;\n"
                        "float helper(float x) { return x + 1; }\n" ENTRY("a", "data[0] = SHADE(1.0);");
    assert_false(same_key(before, after, "a"));
    /* A -D value names a function: the caller passes the compile's values as seeds. */
    const char *t1 = "RWStructuredBuffer<float> data;\nfloat pick(float x) { return x; }\n"
        ENTRY("a", "data[0] = CHOSEN(1.0);");
    const char *t2 = "RWStructuredBuffer<float> data;\nfloat pick(float x) { return -x; }\n"
        ENTRY("a", "data[0] = CHOSEN(1.0);");
    char *k1 = key_of(t1, "a", "CHOSEN=pick\n"), *k2 = key_of(t2, "a", "CHOSEN=pick\n");
    assert_non_null(k1);
    assert_non_null(k2);
    assert_string_not_equal(k1, k2);
    free(k1);
    free(k2);
}

static void a_directive_is_always_in_the_key(void **state)
{
    (void)state;
    assert_false(same_key("#define N 4\n" MODULE_HEAD ENTRY("a", "data[0] = 1;"),
                          "#define N 8\n" MODULE_HEAD ENTRY("a", "data[0] = 1;"), "a"));
    assert_true(same_key("#define N 4 // four\n" MODULE_HEAD ENTRY("a", "data[0] = 1;"),
                         "#define  N 4\n" MODULE_HEAD ENTRY("a", "data[0] = 1;"), "a"));
}

/* Without an entry every declaration counts: only comments and white space key the same. */
static void the_whole_text_for_no_entry(void **state)
{
    (void)state;
    const char *edited = MODULE_HEAD ENTRY("a", "data[id.x] = helper(data[id.x]);")
        ENTRY("b", "data[id.x] = 3.0 * data[id.x];");
    assert_false(same_key(BASE, edited, NULL));
    assert_true(same_key(BASE, "/* c */ " MODULE_HEAD ENTRY("a", "data[id.x] = helper(data[id.x]);")
                                   ENTRY("b", "data[id.x] = 2.0 * data[id.x];"),
                         NULL));
}

/* A discovery's outline: functions' heads, not their bodies. */
static void an_outline_leaves_bodies_out(void **state)
{
    (void)state;
    const char *body = MODULE_HEAD ENTRY("a", "data[id.x] = 7.0;")
        ENTRY("b", "data[id.x] = 2.0 * data[id.x];");
    const char *head = MODULE_HEAD "[shader(\"compute\")]\n[numthreads(32, 1, 1)]\n"
                                   "void a(uint3 id : SV_DispatchThreadID) { data[id.x] = "
                                   "helper(data[id.x]); }\n" ENTRY("b", "data[id.x] = 2.0 * data[id.x];");
    dgpb_bytebuf k[3] = {DGPB_BYTEBUF_INIT, DGPB_BYTEBUF_INIT, DGPB_BYTEBUF_INIT};
    const char *texts[3] = {BASE, body, head};
    for (int i = 0; i < 3; i++)
        assert_true(decl_slice(texts[i], strlen(texts[i]), NULL, true, NULL, 0, &k[i]));
    assert_true(k[0].len == k[1].len && !memcmp(k[0].data, k[1].data, k[0].len));
    assert_false(k[0].len == k[2].len && !memcmp(k[0].data, k[2].data, k[0].len));
    for (int i = 0; i < 3; i++)
        bytebuf_free(&k[i]);
}

static void what_it_cannot_be_sure_of_declines(void **state)
{
    (void)state;
    static const char *const declined[] = {
        MODULE_HEAD ENTRY("a", "data[0] = __LINE__;"),
        "#line 10\n" MODULE_HEAD ENTRY("a", "data[0] = 1;"),
        "#define CAT(x) helper_##x\n" MODULE_HEAD ENTRY("a", "data[0] = 1;"),
        MODULE_HEAD ENTRY("a", "data[0] = 1;") "}",
        MODULE_HEAD ENTRY("a", "data[0] = 1; {"),
        MODULE_HEAD "stray;\n" ENTRY("a", "data[0] = 1;"),
        MODULE_HEAD ENTRY("b", "data[0] = 1;"), /* no entry 'a' */
        MODULE_HEAD "+ 1;\n" ENTRY("a", "data[0] = 1;"),
        /* a macro's use, its expansion unseen, run into the next definition */
        MODULE_HEAD "MAKE_HELPER(twice)\n" ENTRY("a", "data[0] = twice(1.0);"),
    };
    for (size_t i = 0; i < sizeof declined / sizeof *declined; i++) {
        char *k = key_of(declined[i], "a", NULL);
        if (k)
            fail_msg("case %zu was read: %s", i, k);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(comments_and_white_space_key_the_same),
        cmocka_unit_test(another_entrys_body_keys_the_same),
        cmocka_unit_test(a_shared_helper_keys_every_entry_that_calls_it),
        cmocka_unit_test(parameters_types_and_globals_key_every_entry),
        cmocka_unit_test(calls_are_followed_through_functions_and_types),
        cmocka_unit_test(conformances_and_derivatives_are_kept),
        cmocka_unit_test(macros_and_defines_name_what_they_expand_to),
        cmocka_unit_test(a_directive_is_always_in_the_key),
        cmocka_unit_test(the_whole_text_for_no_entry),
        cmocka_unit_test(an_outline_leaves_bodies_out),
        cmocka_unit_test(what_it_cannot_be_sure_of_declines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
