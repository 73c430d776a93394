/*
 * test_entry_scan.c - the scan for generic entry points (src/scan/entry_scan.c):
 * what it finds, what it must not take for one (generic return types,
 * generic helpers, text in comments, strings and directives), and allocation
 * failures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/result.h"
#include "scan/entry_scan.h"
#include "support.h"

static size_t scan(const char *text, generic_entry **out)
{
    size_t count = 99;
    assert_int_equal(entry_scan_generics(text, strlen(text), out, &count), DGPB_OK);
    return count;
}

static void finds_a_generic_compute_entry(void **state)
{
    (void)state;
    const char *text = "RWStructuredBuffer<float> output;\n"
                       "[shader(\"compute\")]\n"
                       "[numthreads(8, 1, 1)]\n"
                       "void apply<T : IOp, let N : int>(uint3 id : SV_DispatchThreadID,\n"
                       "                                 uniform float scale)\n"
                       "{ }\n";
    generic_entry *e = NULL;
    assert_int_equal(scan(text, &e), 1);
    assert_string_equal(e[0].name, "apply");
    assert_string_equal(e[0].generics, "<T : IOp, let N : int>");
    assert_string_equal(e[0].attributes, "[shader(\"compute\")] [numthreads(8, 1, 1)]");
    assert_string_equal(e[0].params, "uint3 id : SV_DispatchThreadID, uniform float scale");
    assert_string_equal(e[0].args, "id, scale");
    assert_int_equal(e[0].line, 4);
    entry_scan_free(e, 1);
}

/* The specialisation suggested compiles: the generic parameter is replaced by a struct of the
   module that conforms to its interface, in the parameters too ("uniform S scaler" alone gives
   Slang's error 30015, undefined identifier 'S'); a value parameter takes 1; no conforming struct,
   MyType. */
static void suggests_a_specialisation_that_compiles(void **state)
{
    (void)state;
    const char *text =
        "interface IScaler { float scale(float x); }\n"
        "struct Half { float scale(float x) { return x / 2; } }\n"
        "struct Doubler : IOther, IScaler { float scale(float x) { return 2 * x; } }\n"
        "[numthreads(4, 1, 1)]\n"
        "void scaled<S : IScaler, let N : int, T>(uint3 id : SV_DispatchThreadID,\n"
        "    uniform S scaler, uniform T t, uniform Sx keep) { }\n";
    generic_entry *e = NULL;
    assert_int_equal(scan(text, &e), 1);
    assert_string_equal(e[0].type_args, "Doubler, 1, MyType");
    assert_string_equal(e[0].suffix, "Doubler");
    assert_string_equal(e[0].concrete_params, "uint3 id : SV_DispatchThreadID, uniform Doubler "
                                              "scaler, uniform MyType t, uniform Sx keep");
    entry_scan_free(e, 1);
}

/* The function is kept as it is declared, its attributes taken off; the entry that specialises
   it keeps its return type (the generic parameter in it replaced too) and its semantic, and a
   `where` clause's interface picks the struct as an inline constraint does. */
static void keeps_the_declaration_return_type_semantic_and_where_clause(void **state)
{
    (void)state;
    const char *text = "interface IShade { float4 shade(); }\n"
                       "struct Flat : IShade { float4 shade() { return 1; } }\n"
                       "[shader(\"fragment\")]\n"
                       "float4 fs<S>(float4 p : SV_Position,\n"
                       "           uniform S s) : SV_Target where S : IShade\n"
                       "{ return s.shade(); }\n"
                       "[shader(\"compute\")] [numthreads(1,1,1)]\n"
                       "S.Out cs<S : IShade>(uniform S s) { }\n";
    generic_entry *e = NULL;
    assert_int_equal(scan(text, &e), 2);
    assert_string_equal(e[0].declaration, "float4 fs<S>(float4 p : SV_Position, uniform S s) : "
                                          "SV_Target where S : IShade");
    assert_string_equal(e[0].type_args, "Flat");
    assert_string_equal(e[0].concrete_params, "float4 p : SV_Position, uniform Flat s");
    assert_string_equal(e[0].concrete_return, "float4");
    assert_string_equal(e[0].semantic, ": SV_Target");
    assert_int_equal(e[0].line, 4);
    assert_string_equal(e[1].declaration, "S.Out cs<S : IShade>(uniform S s)");
    assert_string_equal(e[1].concrete_return, "Flat.Out");
    assert_string_equal(e[1].semantic, "");
    entry_scan_free(e, 2);
}

/* __generic<...> before the attribute lists makes a generic entry too, kept with the function. */
static void finds_generic_keyword_before_the_attributes(void **state)
{
    (void)state;
    const char *text = "__generic<T : IOp>\n[shader(\"compute\")]\n[numthreads(4, 1, 1)]\n"
                       "void applied(uint3 id : SV_DispatchThreadID, uniform T op) { }\n"
                       "struct Twice : IOp { }\n";
    generic_entry *e = NULL;
    assert_int_equal(scan(text, &e), 1);
    assert_string_equal(e[0].name, "applied");
    assert_string_equal(e[0].generics, "<T : IOp>");
    assert_string_equal(e[0].attributes, "[shader(\"compute\")] [numthreads(4, 1, 1)]");
    assert_string_equal(
        e[0].declaration,
        "__generic<T : IOp> void applied(uint3 id : SV_DispatchThreadID, uniform T op)");
    assert_string_equal(e[0].concrete_params, "uint3 id : SV_DispatchThreadID, uniform Twice op");
    assert_string_equal(e[0].concrete_return, "void");
    assert_int_equal(e[0].line, 4);
    entry_scan_free(e, 1);
}

static void finds_generic_keyword_form(void **state)
{
    (void)state;
    const char *text =
        "[shader(\"fragment\")]\n__generic<typename T>\n"
        "float4 fs(float4 p : SV_Position, float2 uv[2]) : SV_Target { return p; }\n";
    generic_entry *e = NULL;
    assert_int_equal(scan(text, &e), 1);
    assert_string_equal(e[0].name, "fs");
    assert_string_equal(e[0].generics, "<typename T>");
    assert_string_equal(e[0].args, "p, uv");
    assert_int_equal(e[0].line, 3);
    entry_scan_free(e, 1);
}

static void leaves_non_generic_entries_alone(void **state)
{
    (void)state;
    const char *text =
        "// [numthreads(1,1,1)] void commented<T>(uint3 id) {}\n"
        "/* [shader(\"compute\")] void blocked<T>() {} */\n"
        "#define E [numthreads(1,1,1)] void hidden<T>()\n"
        "static const char *s = \"[numthreads(1,1,1)] void quoted<T>()\";\n"
        "T helper<T>(T x) { return x; }\n"
        "[shader(\"vertex\")]\n"
        "vector<float, 4> vs(float4 p : POSITION) : SV_Position { return helper<float4>(p); }\n"
        "[numthreads(4, 1, 1)] void cs(uint3 id : SV_DispatchThreadID) { output[id.x] = 1; }\n";
    generic_entry *e = NULL;
    assert_int_equal(scan(text, &e), 0);
    assert_null(e);
}

static void finds_every_one(void **state)
{
    (void)state;
    const char *text = "[numthreads(1,1,1)] void a<T>(uint3 i : SV_DispatchThreadID) {}\r\n"
                       "[numthreads(1,1,1)] void b(uint3 i : SV_DispatchThreadID) {}\r\n"
                       "[WaveSize(32)] [numthreads(1,1,1)] void c <T:I> (uint i) {}\r\n";
    generic_entry *e = NULL;
    assert_int_equal(scan(text, &e), 2);
    assert_string_equal(e[0].name, "a");
    assert_string_equal(e[1].name, "c");
    assert_string_equal(e[1].attributes, "[WaveSize(32)] [numthreads(1,1,1)]");
    assert_int_equal(e[1].line, 3);
    entry_scan_free(e, 2);
}

static void malformed_text_is_no_entry(void **state)
{
    (void)state;
    const char *texts[] = {"[numthreads(",
                           "[numthreads(1)] void f<T",
                           "[shader(\"compute\")] f<",
                           "[numthreads(1)]",
                           "\"unterminated [numthreads(1)] void f<T>()",
                           "/* unterminated [numthreads(1)] void f<T>()",
                           "[shader(]]]] g<>()"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        generic_entry *e = NULL;
        size_t count = scan(texts[i], &e);
        entry_scan_free(e, count);
    }
}

static int scan_two(void *arg)
{
    const char *text = arg;
    generic_entry *e = NULL;
    size_t count = 0;
    int rc = entry_scan_generics(text, strlen(text), &e, &count);
    if (rc == DGPB_OK && count != 2)
        rc = DGPB_ERR_INVALID;
    if (rc != DGPB_OK && (e || count))
        rc = DGPB_ERR_INVALID; /* a failure leaves nothing behind */
    entry_scan_free(e, count);
    return rc;
}

static void allocation_failures(void **state)
{
    (void)state;
    char text[] = "[numthreads(1,1,1)] void a<T>(uint3 i : SV_DispatchThreadID) {}\n"
                  "[numthreads(1,1,1)] void b<T>(uint3 i : SV_DispatchThreadID) {}\n";
    assert_true(support_run_with_faults(scan_two, text, DGPB_OK, "entry_scan_generics") > 0);
}

/* An entry's function, from its name to the brace that closes its body. */
static void finds_the_lines_of_an_entry_function(void **state)
{
    (void)state;
    const char *text = "// fragmentMain(VOut i) { in a comment }\n"      /* 1 */
                       "float4 fragmentMain(VOut i);\n"                   /* 2: a declaration */
                       "struct VOut { float4 p : SV_Position; };\n"       /* 3 */
                       "[shader(\"vertex\")]\n"                          /* 4 */
                       "VOut vertexMain(uint id : SV_VertexID)\n"         /* 5 */
                       "{ VOut o; o.p = float4(0); return o; }\n"         /* 6 */
                       "[shader(\"fragment\")]\n"                        /* 7 */
                       "float4 fragmentMain(VOut i) : SV_Target\n"        /* 8 */
                       "{\n"                                              /* 9 */
                       "    if (i.p.x > 0) { return \"}\" ? 1 : 0; }\n" /* 10 */
                       "    return helper(i.p);\n"                        /* 11 */
                       "}\n";                                             /* 12 */
    uint32_t first = 0, last = 0;
    assert_int_equal(entry_scan_span(text, strlen(text), "vertexMain", &first, &last), DGPB_OK);
    assert_int_equal(first, 5);
    assert_int_equal(last, 6);
    assert_int_equal(entry_scan_span(text, strlen(text), "fragmentMain", &first, &last), DGPB_OK);
    assert_int_equal(first, 8);
    assert_int_equal(last, 12);
    /* a name only called, or only in a comment or a literal, has no definition here */
    assert_int_equal(entry_scan_span(text, strlen(text), "helper", &first, &last),
                     DGPB_ERR_NOT_FOUND);
    assert_int_equal(entry_scan_span(text, strlen(text), "Main", &first, &last),
                     DGPB_ERR_NOT_FOUND);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_a_generic_compute_entry),
        cmocka_unit_test(suggests_a_specialisation_that_compiles),
        cmocka_unit_test(keeps_the_declaration_return_type_semantic_and_where_clause),
        cmocka_unit_test(finds_generic_keyword_before_the_attributes),
        cmocka_unit_test(finds_generic_keyword_form),
        cmocka_unit_test(leaves_non_generic_entries_alone),
        cmocka_unit_test(finds_every_one),
        cmocka_unit_test(malformed_text_is_no_entry),
        cmocka_unit_test(allocation_failures),
        cmocka_unit_test(finds_the_lines_of_an_entry_function),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
