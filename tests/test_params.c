/*
 * test_params.c - one entry's parameter table from reflection and SPIR-V
 * analysis (tables/params.h; docs/design.md, sections 3 and 4).
 *
 * Two kinds of input: real Slang output (fixtures/reflect/: kinds.spv,
 * loose.spv next to their reflection JSON, made by the commands in
 * tests/test_reflect.c with -o NAME.spv; the plain modules of the new rules,
 * entry_uniforms, aggregates, refused and unused_values (spirv only), with
 * their SPIR-V, WGSL and PTX; fixtures/spirv/: the written-variable fixtures
 * of src/code/spirv/spirv_analysis.c and the bindless heap), and tiny dgpb_reflection /
 * dgpb_spirv_info / dgpb_code_bindings structures built by hand for the
 * ownership and selection rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "code/code_bindings.h"
#include "dgpb/dgpb.h"
#include "bundle/model.h"
#include "tables/binding_proof.h"
#include "tables/params.h"
#include "tables/reflect.h"
#include "code/spirv/spirv_analysis.h"
#include "code/spirv/spirv_bindings.h"
#include "code/wgsl/wgsl_bindings.h"
#include "code/wgsl/wgsl_scan.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define RO DGPB_FLAG_READ_ONLY
#define W DGPB_FLAG_WRITTEN
#define LAUNCH DGPB_SPACE_LAUNCH
#define INLINE DGPB_BINDING_INLINE

/* ---- inputs ----------------------------------------------------------------- */

/* The id of a target the tests name by its name. */
static dgpb_target_id target_of(const char *name)
{
    int id = dgpb_target_from_name(name, strlen(name));
    if (id < 0)
        fail_msg("unknown target '%s'", name);
    return (dgpb_target_id)id;
}

static dgpb_reflection *load_reflection(const char *relpath, const char *target, const char *entry)
{
    char block[128];
    value_block_name(entry, block, sizeof block);
    const char *blocks[1] = {block};
    size_t size = 0;
    uint8_t *text = support_read_source_file(relpath, &size);
    assert_non_null(text);
    dgpb_reflection *r = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (reflection_parse((const char *)text, size, target_of(target), blocks, 1, &r, &diag))
        fail_msg("%s: %s", relpath, diag.message);
    dgpb_free(text);
    return r;
}

static dgpb_spirv_info *load_spirv(const char *relpath)
{
    size_t size = 0;
    uint8_t *code = support_read_source_file(relpath, &size);
    assert_non_null(code);
    dgpb_spirv_info *info = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (spirv_analyze(code, size, &info, &diag))
        fail_msg("%s: %s", relpath, diag.message);
    dgpb_free(code);
    assert_true(info->parsed);
    return info;
}

/* A target's code, read back: its bindings and what they point into. */
typedef struct loaded_code {
    dgpb_spirv_info *spirv;
    dgpb_wgsl_module *wgsl;
    dgpb_code_bindings bindings;
} loaded_code;

static void load_code(const char *relpath, const char *target, loaded_code *out)
{
    memset(out, 0, sizeof *out);
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (!strcmp(target, "spirv")) {
        out->spirv = load_spirv(relpath);
        if (code_bindings_from_spirv(out->spirv, &out->bindings, &diag))
            fail_msg("%s: %s", relpath, diag.message);
        return;
    }
    size_t size = 0;
    uint8_t *text = support_read_source_file(relpath, &size);
    assert_non_null(text);
    int rc = wgsl_module_scan((const char *)text, size, &out->wgsl, &diag);
    dgpb_free(text);
    if (rc || code_bindings_from_wgsl(out->wgsl, &out->bindings, &diag))
        fail_msg("%s: %s", relpath, diag.message);
}

static void free_code(loaded_code *c)
{
    code_bindings_clear(&c->bindings);
    spirv_info_free(c->spirv);
    wgsl_module_free(c->wgsl);
}

/* A hand-made reflected parameter (string literals; never freed), carried in the code by
   the variable `code_`. */
#define PARAM_IN(code_, name_, global_, kind_, binding_, offset_, size_, id_, problem_)            \
    {                                                                                              \
        .name = (char *)(name_), .global = (char *)(global_), .code_name = (char *)(code_),        \
        .kind = (kind_), .space = 0, .binding = (binding_), .offset = (offset_), .size = (size_),  \
        .webgpu_layout = (id_), .shape = (char *)"T", .problem = (char *)(problem_)                \
    }
/* One carried by its top-level variable: a resource by its own, a value by its block's. */
#define PARAM(name_, global_, kind_, binding_, offset_, size_, id_, problem_)                      \
    PARAM_IN(global_, name_, global_, kind_, binding_, offset_, size_, id_, problem_)
/* A loose `uniform` value: its own variable, carried by Slang's implicit global block. */
#define LOOSE(name_, offset_, size_)                                                               \
    PARAM_IN("globalParams", name_, name_, DGPB_KIND_VALUE, 0, offset_, size_, 0, NULL)
#define RES(name_, kind_, binding_) PARAM(name_, name_, kind_, binding_, 0, 0, 0, NULL)
#define VAL(name_, block_, binding_, offset_, size_)                                               \
    PARAM(name_, block_, DGPB_KIND_VALUE, binding_, offset_, size_, 0, NULL)

/* A hand-made SPIR-V variable: in the interface or not, written or not. */
#define VAR(name_, in_interface_, written_)                                                        \
    {                                                                                              \
        .name = (char *)(name_), .id = 0, .storage_class = 12, .set = 0, .binding = 0,             \
        .in_interface = (in_interface_), .written = (written_)                                     \
    }

static dgpb_spirv_info make_info(dgpb_spirv_var *vars, size_t count, bool parsed)
{
    dgpb_spirv_info info = {
        .execution_model = 5,
        .entry_name = (char *)"main",
        .vars = vars,
        .var_count = count,
        .parsed = parsed,
    };
    return info;
}

/* ---- checks ----------------------------------------------------------------- */

typedef struct want_row {
    const char *name;
    uint32_t kind, flags, binding, offset, size, webgpu_layout;
} want_row;

/* Shape words (dgpb/format.h) the reflection gives these textures; the code adds formats. */
#define T2D (DGPB_DIM_2D | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT)
#define T3D (DGPB_DIM_3D | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT)
#define T2DA (T2D | DGPB_SHAPE_ARRAYED)
#define RW2D (T2D | DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT)
#define RW2DU                                                                                      \
    (DGPB_DIM_2D | DGPB_SAMPLE_UINT << DGPB_SHAPE_SAMPLE_SHIFT |                                   \
     DGPB_TEXEL_R32UINT << DGPB_SHAPE_FORMAT_SHIFT |                                               \
     DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT)

static void build_ok(const dgpb_param_select *s, dgpb_param_table *t)
{
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = param_table_build(s, t, &diag);
    if (rc != DGPB_OK)
        fail_msg("entry '%s' on %s: %d %s", s->entry, s->target, rc, diag.message);
}

/* Checks every row in order; `spaces` gives each row's space, NULL: all are in space 0. */
static void check_rows_in(const dgpb_param_table *t, const char *target, const want_row *want,
                          const uint32_t *spaces, size_t n)
{
    for (uint32_t i = 0; i < t->count && i < n; i++) {
        const dgpb_param_desc *p = &t->rows[i];
        uint32_t space = spaces ? spaces[i] : 0;
        if (strcmp(p->name, want[i].name) != 0 || p->kind != want[i].kind ||
            p->flags != want[i].flags || p->space != space || p->binding != want[i].binding ||
            p->offset != want[i].offset || p->size != want[i].size ||
            p->webgpu_layout != want[i].webgpu_layout)
            fail_msg("%s row %u: '%s' kind %u flags %u space 0x%X binding 0x%X offset %u size %u "
                     "id %u; expected '%s' kind %u flags %u space 0x%X binding 0x%X offset %u "
                     "size %u id %u",
                     target, i, p->name, p->kind, p->flags, p->space, p->binding, p->offset,
                     p->size, p->webgpu_layout, want[i].name, want[i].kind, want[i].flags, space,
                     want[i].binding, want[i].offset, want[i].size, want[i].webgpu_layout);
        /* Every row is one the bundle model accepts. */
        char buf[256];
        const char *rule =
            dgpb_param_rule(p->kind, p->flags, p->space, p->binding, p->offset, p->size,
                            p->webgpu_layout, !strcmp(target, "wgsl"), buf, sizeof buf);
        if (rule)
            fail_msg("row '%s' breaks a rule: %s", p->name, rule);
    }
    if (t->count != n)
        fail_msg("%s: %u rows, expected %zu", target, t->count, n);
}

static void check_rows(const dgpb_param_table *t, const char *target, const want_row *want,
                       size_t n)
{
    check_rows_in(t, target, want, NULL, n);
}

static void check_names(const dgpb_param_table *t, const char *const *names, size_t n)
{
    for (uint32_t i = 0; i < t->count && i < n; i++)
        if (strcmp(t->rows[i].name, names[i]) != 0)
            fail_msg("row %u is '%s', expected '%s'", i, t->rows[i].name, names[i]);
    if (t->count != n)
        fail_msg("%u rows, expected %zu", t->count, n);
}

/* ---- dream mode on real Slang output --------------------------------------- */

static const char *const group_k[] = {"k"};

static void test_dream_mode_strips_the_entry_prefix_and_keeps_value_field_names(void **state)
{
    (void)state;
    static const want_row want[] = {
        {"scale", DGPB_KIND_VALUE, RO, 0, 0, 4, 0},
        {"bias", DGPB_KIND_VALUE, RO, 0, 4, 4, 0},
        {"transform", DGPB_KIND_VALUE, RO, 0, 16, 48, 0},
        {"extent", DGPB_KIND_VALUE, RO, 0, 64, 8, 0},
        {"src", DGPB_KIND_BUFFER, RO, 1, 0, 4, 0},
        {"dst", DGPB_KIND_RW_BUFFER, W, 2, 0, 4, 0},
        {"bytes_in", DGPB_KIND_BYTE_BUFFER, RO, 3, 0, 0, 0},
        {"bytes_out", DGPB_KIND_RW_BYTE_BUFFER, W, 4, 0, 0, 0},
        {"tex", DGPB_KIND_TEXTURE, RO, 5, T2D, 0, 0},
        {"smp", DGPB_KIND_SAMPLER, RO, 6, 0, 0, 0},
        {"r", DGPB_KIND_RW_TEXTURE, W, 7, RW2D, 0, 0},
        {"rg", DGPB_KIND_RW_TEXTURE, W, 8, RW2D, 0, 0},
        {"rgba", DGPB_KIND_RW_TEXTURE, W, 9, RW2D, 0, 0},
        {"count", DGPB_KIND_RW_TEXTURE, W, 10, RW2DU, 0, 0},
        {"volume", DGPB_KIND_TEXTURE, RO, 11, T3D, 0, 0},
        {"layers", DGPB_KIND_TEXTURE, RO, 12, T2DA, 0, 0},
        {"light", DGPB_KIND_UNIFORM_BUFFER, RO, 13, 0, 32, 0},
        /* k_light's fields, named <param>.<field> (docs/design.md, section 4a). */
        {"light.color", DGPB_KIND_VALUE, RO, 13, 0, 16, 0},
        {"light.intensity", DGPB_KIND_VALUE, RO, 13, 16, 4, 0},
        {"scene", DGPB_KIND_ACCELERATION_STRUCTURE, RO, 14, 0, 0, 0},
    };
    dgpb_reflection *r = load_reflection("fixtures/reflect/kinds_spirv.json", "spirv", "k");
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/kinds.spv");
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", r, spv, true, group_k, 1, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    check_rows(&t, "spirv", want, ARRAY_LEN(want));
    param_table_clear(&t);
    assert_null(t.rows);
    assert_int_equal(t.count, 0);
    spirv_info_free(spv);
    reflection_free(r);
}

static void test_ptx_rows_carry_byte_offsets_as_bindings_and_the_spirv_written_flags(void **state)
{
    (void)state;
    /* The ptx compile has no SPIR-V of its own: the spirv target's analysis stands in. */
    static const want_row want[] = {
        {"scale", DGPB_KIND_VALUE, RO, 0, 0, 4, 0},
        {"bias", DGPB_KIND_VALUE, RO, 0, 4, 4, 0},
        {"transform", DGPB_KIND_VALUE, RO, 0, 16, 48, 0},
        {"extent", DGPB_KIND_VALUE, RO, 0, 64, 8, 0},
        {"src", DGPB_KIND_BUFFER, RO, 8, 0, 4, 0},
        {"dst", DGPB_KIND_RW_BUFFER, W, 24, 0, 4, 0},
        {"bytes_in", DGPB_KIND_BYTE_BUFFER, RO, 40, 0, 0, 0},
        {"bytes_out", DGPB_KIND_RW_BYTE_BUFFER, W, 56, 0, 0, 0},
        {"tex", DGPB_KIND_TEXTURE, RO, 72, T2D, 0, 0},
        {"smp", DGPB_KIND_SAMPLER, RO, 80, 0, 0, 0},
        {"r", DGPB_KIND_RW_TEXTURE, W, 88, RW2D, 0, 0},
        {"rg", DGPB_KIND_RW_TEXTURE, W, 96, RW2D, 0, 0},
        {"rgba", DGPB_KIND_RW_TEXTURE, W, 104, RW2D, 0, 0},
        {"count", DGPB_KIND_RW_TEXTURE, W, 112, RW2DU, 0, 0},
        {"volume", DGPB_KIND_TEXTURE, RO, 120, T3D, 0, 0},
        {"layers", DGPB_KIND_TEXTURE, RO, 128, T2DA, 0, 0},
        {"light", DGPB_KIND_UNIFORM_BUFFER, RO, 136, 0, 32, 0},
        {"light.color", DGPB_KIND_VALUE, RO, 136, 0, 16, 0},
        {"light.intensity", DGPB_KIND_VALUE, RO, 136, 16, 4, 0},
    };
    dgpb_reflection *r = load_reflection("fixtures/reflect/kinds_cuda.json", "ptx", "k");
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/kinds.spv");
    dgpb_param_select s = {DGPB_TARGET_PTX, "k", r, spv, true, group_k, 1, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    check_rows(&t, "ptx", want, ARRAY_LEN(want));
    param_table_clear(&t);
    spirv_info_free(spv);
    reflection_free(r);
}

/* ---- ownership ------------------------------------------------------------- */

static void test_the_longest_entry_name_of_the_group_owns_a_global(void **state)
{
    (void)state;
    dgpb_reflected_param params[] = {
        VAL("scale", "a_params", 0, 0, 4),    RES("a_x", DGPB_KIND_BUFFER, 1),
        RES("a_b_x", DGPB_KIND_RW_BUFFER, 2), /* a_b's x, not a's b_x */
        RES("a_bx", DGPB_KIND_BUFFER, 3),     /* "a_b" + "_" does not prefix it: a's bx */
        RES("a_b", DGPB_KIND_SAMPLER, 4),     /* "a_b" + "_" + nothing: a's b */
        VAL("limit", "a_b_params", 5, 0, 4),
    };
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    static const char *const group[] = {"a", "a_b"}, *const reversed[] = {"a_b", "a"};
    static const struct {
        const char *entry;
        const char *const *group;
        const char *names[6];
        size_t count;
    } cases[] = {
        {"a", group, {"scale", "x", "bx", "b"}, 4},
        {"a_b", group, {"x", "limit"}, 2},
        {"a", reversed, {"scale", "x", "bx", "b"}, 4}, /* the group's order does not matter */
        {"a_b", reversed, {"x", "limit"}, 2},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_param_select s = {
            DGPB_TARGET_SPIRV, cases[c].entry, &r, NULL, true, cases[c].group, 2, NULL, NULL, NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        check_names(&t, cases[c].names, cases[c].count);
        /* "x" is a_x (binding 1) for a and a_b_x (binding 2) for a_b. */
        bool a = !strcmp(cases[c].entry, "a");
        assert_int_equal(t.rows[a ? 1 : 0].binding, a ? 1 : 2);
        param_table_clear(&t);
    }

    /* In a group of its own (two compute entries), "a" owns every a_ global; a_b's value
       block is then one of a's uniform buffers. */
    dgpb_reflected_param alone[] = {
        VAL("scale", "a_params", 0, 0, 4),
        RES("a_b_x", DGPB_KIND_RW_BUFFER, 2),
        RES("a_b_params", DGPB_KIND_UNIFORM_BUFFER, 5),
    };
    dgpb_reflection ra = {alone, ARRAY_LEN(alone), NULL, 0, NULL, 0};
    static const char *const group_a[] = {"a"};
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "a", &ra, NULL, true, group_a, 1, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    static const char *const names[] = {"scale", "b_x", "b_params"};
    check_names(&t, names, ARRAY_LEN(names));
    param_table_clear(&t);
}

static void test_value_rows_keep_their_field_names_whatever_block_they_come_from(void **state)
{
    (void)state;
    /* reflect.h lets a caller name several value blocks ("each entry's <entry>_params").
       With two compute entries "a" and "a_b" (separate groups) and both blocks named, a's
       table owns the fields of a_b_params by prefix: a value row's name is its field's
       name, never cut by the entry prefix as if it were a global ("limit" -> "mit"). */
    dgpb_reflected_param params[] = {
        VAL("scale", "a_params", 0, 0, 4),
        VAL("limit", "a_b_params", 5, 0, 4),
    };
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    static const char *const group_a[] = {"a"};
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "a", &r, NULL, true, group_a, 1, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    char second[64] = "";
    uint32_t count = t.count;
    if (count > 1)
        snprintf(second, sizeof second, "%s", t.rows[1].name);
    param_table_clear(&t); /* before the checks, so that a failure leaks nothing */
    assert_int_equal(count, 2);
    assert_string_equal(second, "limit");
}

static void
test_unprefixed_globals_belong_to_an_entry_only_through_its_spirv_interface(void **state)
{
    (void)state;
    dgpb_reflected_param params[] = {
        RES("k_buf", DGPB_KIND_RW_BUFFER, 0),      RES("shared_lut", DGPB_KIND_BUFFER, 1),
        RES("declared_only", DGPB_KIND_BUFFER, 2), RES("absent", DGPB_KIND_BUFFER, 3),
        RES("j_buf", DGPB_KIND_BUFFER, 4),         RES("k_unused", DGPB_KIND_TEXTURE, 5),
    };
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    dgpb_spirv_var vars[] = {
        VAR("k_buf", true, true),
        VAR("shared_lut", true, false),
        VAR("declared_only", false, true),
        VAR("j_buf", true, false),
    };
    dgpb_spirv_info info = make_info(vars, ARRAY_LEN(vars), true);
    static const char *const group[] = {"k", "j"};
    /* k's own globals are k's whether its code uses them or not; j's are never k's. */
    static const char *const names[] = {"buf", "shared_lut", "unused"};
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", &r, &info, true, group, 2, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    check_names(&t, names, ARRAY_LEN(names));
    assert_int_equal(t.rows[0].flags, W);
    assert_int_equal(t.rows[1].flags, RO);
    assert_int_equal(t.rows[1].binding, 1);
    param_table_clear(&t);
}

static void test_plain_mode_keeps_the_spirv_interface_in_declaration_order(void **state)
{
    (void)state;
    static const struct {
        const char *json, *spv, *entry;
        want_row rows[4];
        size_t count;
    } cases[] = {
        {"fixtures/spirv/store_and_read.json",
         "fixtures/spirv/store_and_read.spv",
         "store_and_read",
         {{"written_buf", DGPB_KIND_RW_BUFFER, W, 0, 0, 4, 0},
          {"read_only_rw", DGPB_KIND_RW_BUFFER, 0, 1, 0, 4, 0}, /* read-write type, only read */
          {"plain_input", DGPB_KIND_BUFFER, RO, 2, 0, 4, 0}},
         3},
        {"fixtures/spirv/image_write.json",
         "fixtures/spirv/image_write.spv",
         "image_write",
         {{"out_image", DGPB_KIND_RW_TEXTURE, W, 6, RW2D, 0, 0},
          {"read_image", DGPB_KIND_RW_TEXTURE, 0, 7, RW2D, 0, 0},
          {"in_texture", DGPB_KIND_TEXTURE, RO, 8, T2D, 0, 0},
          {"linear_sampler", DGPB_KIND_SAMPLER, RO, 9, 0, 0, 0}},
         4},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = load_reflection(cases[c].json, "spirv", cases[c].entry);
        dgpb_spirv_info *spv = load_spirv(cases[c].spv);
        const char *group[1] = {cases[c].entry};
        dgpb_param_select s = {
            DGPB_TARGET_SPIRV, cases[c].entry, r, spv, false, group, 1, NULL, NULL, NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        check_rows(&t, "spirv", cases[c].rows, cases[c].count);
        param_table_clear(&t);
        spirv_info_free(spv);
        reflection_free(r);
    }
}

static void test_plain_mode_keeps_names_whole(void **state)
{
    (void)state;
    dgpb_reflected_param params[] = {RES("k_buf", DGPB_KIND_BUFFER, 0)};
    dgpb_reflection r = {params, 1, NULL, 0, NULL, 0};
    dgpb_spirv_var vars[] = {VAR("k_buf", true, false)};
    dgpb_spirv_info info = make_info(vars, 1, true);
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", &r, &info, false, group_k, 1, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    static const char *const names[] = {"k_buf"};
    check_names(&t, names, 1);
    param_table_clear(&t);
}

static void test_loose_uniforms_come_with_the_implicit_global_block(void **state)
{
    (void)state;
    /* On spirv and wgsl the values take the place of the code's global block (globalParams,
       globalParams_0: binding 0); on ptx they lie inline in SLANG_globalParams. */
    static const struct {
        const char *json, *target, *code;
        want_row rows[3];
    } cases[] = {
        {"fixtures/reflect/loose_spirv.json",
         "spirv",
         "fixtures/reflect/loose.spv",
         {{"gain", DGPB_KIND_VALUE, RO, 0, 0, 4, 0},
          {"count", DGPB_KIND_VALUE, RO, 0, 4, 4, 0},
          {"samples", DGPB_KIND_RW_BUFFER, W, 1, 0, 4, 0}}},
        {"fixtures/reflect/loose_wgsl.json",
         "wgsl",
         "fixtures/reflect/loose.wgsl",
         {{"gain", DGPB_KIND_VALUE, RO, 0, 0, 4, DGPB_WGPU_UNIFORM_BUFFER},
          {"count", DGPB_KIND_VALUE, RO, 0, 4, 4, DGPB_WGPU_UNIFORM_BUFFER},
          {"samples", DGPB_KIND_RW_BUFFER, W, 1, 0, 4, DGPB_WGPU_STORAGE_BUFFER}}},
        {"fixtures/reflect/loose_cuda.json",
         "ptx",
         NULL,
         {{"gain", DGPB_KIND_VALUE, RO, INLINE, 0, 4, 0},
          {"count", DGPB_KIND_VALUE, RO, INLINE, 4, 4, 0},
          {"samples", DGPB_KIND_RW_BUFFER, W, 8, 0, 4, 0}}},
    };
    static const char *const group[] = {"scale"};
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/loose.spv");
    /* The SPIR-V interface lists "globalParams" and "samples", not "unused_input". */
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = load_reflection(cases[c].json, cases[c].target, "scale");
        loaded_code code = {0};
        if (cases[c].code)
            load_code(cases[c].code, cases[c].target, &code);
        dgpb_param_select s = {target_of(cases[c].target),
                               "scale",
                               r,
                               spv,
                               false,
                               group,
                               1,
                               cases[c].code ? &code.bindings : NULL,
                               NULL,
                               NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        check_rows(&t, cases[c].target, cases[c].rows, 3);
        for (uint32_t i = 0; i < t.count; i++)
            assert_true(t.in_code[i]);
        param_table_clear(&t);
        free_code(&code);
        reflection_free(r);
    }
    spirv_info_free(spv);
}

static void test_rows_only_the_code_can_place_take_their_place_from_its_variable(void **state)
{
    (void)state;
    /* The reflection's place of a place_from_code row is a guess: the code's variable wins,
       found by its SPIR-V name or its WGSL spelling. A row the reflection places (samples)
       keeps the reflection's place; without code bindings every row does. */
    dgpb_reflection *r = load_reflection("fixtures/reflect/loose_spirv.json", "spirv", "scale");
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/loose.spv");
    static const char *const group[] = {"scale"};
    dgpb_code_binding spirv_items[] = {
        {.name = "globalParams", .space = 3, .binding = 7, .cls = DGPB_CODE_UNIFORM_BLOCK},
        {.name = "samples", .space = 5, .binding = 5, .cls = DGPB_CODE_STORAGE_BUFFER},
    };
    dgpb_code_binding wgsl_items[] = {
        {.name = "globalParams_0",
         .space = 2,
         .binding = 4,
         .cls = DGPB_CODE_UNIFORM_BLOCK,
         .detail = "GlobalParams_std140_0"},
    };
    static const struct {
        const char *target;
        uint32_t space, binding;
        bool with_code;
    } cases[] = {{"spirv", 3, 7, true}, {"wgsl", 2, 4, true}, {"spirv", 0, 0, false}};
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        bool wgsl = !strcmp(cases[c].target, "wgsl");
        dgpb_code_bindings code = {.items = wgsl ? wgsl_items : spirv_items,
                                   .count = wgsl ? ARRAY_LEN(wgsl_items) : ARRAY_LEN(spirv_items)};
        dgpb_param_select s = {
            target_of(cases[c].target),        "scale", r,   spv, false, group, 1,
            cases[c].with_code ? &code : NULL, NULL,    NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        assert_int_equal(t.count, 3);
        for (uint32_t i = 0; i < 2; i++)
            if (t.rows[i].space != cases[c].space || t.rows[i].binding != cases[c].binding)
                fail_msg("%s: '%s' at %u/%u, expected %u/%u", cases[c].target, t.rows[i].name,
                         t.rows[i].space, t.rows[i].binding, cases[c].space, cases[c].binding);
        assert_string_equal(t.rows[2].name, "samples");
        assert_int_equal(t.rows[2].space, 0);
        assert_int_equal(t.rows[2].binding, 1);
        param_table_clear(&t);
    }
    spirv_info_free(spv);
    reflection_free(r);
}

static void test_entry_point_uniforms_get_launch_rows_and_the_codes_bindings(void **state)
{
    (void)state;
    /* entry_uniforms.slang on each target, rows selected by the spirv target's code. spirv:
       values are push constants, resources where the code binds entryPointParams.*; wgsl:
       values in the code's entryPointParams_0 (binding 1), resources after it; ptx: kernel
       parameters at their byte offsets. */
    static const want_row spirv[] = {
        {"total", DGPB_KIND_RW_BUFFER, W, 0, 0, 4, 0},
        {"src", DGPB_KIND_BUFFER, RO, 1, 0, 4, 0},
        {"dst", DGPB_KIND_RW_BUFFER, W, 2, 0, 4, 0},
        {"scale", DGPB_KIND_VALUE, RO, 0, 0, 4, 0},
        {"count", DGPB_KIND_VALUE, RO, 0, 4, 4, 0},
        {"job.mul", DGPB_KIND_VALUE, RO, 0, 8, 4, 0},
        {"job.log", DGPB_KIND_RW_BUFFER, W, 3, 0, 4, 0},
    };
    static const uint32_t spirv_spaces[] = {0, 0, 0, LAUNCH, LAUNCH, LAUNCH, 0};
    static const want_row wgsl[] = {
        {"total", DGPB_KIND_RW_BUFFER, W, 0, 0, 4, DGPB_WGPU_STORAGE_BUFFER},
        {"src", DGPB_KIND_BUFFER, RO, 2, 0, 4, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER},
        {"dst", DGPB_KIND_RW_BUFFER, W, 3, 0, 4, DGPB_WGPU_STORAGE_BUFFER},
        {"scale", DGPB_KIND_VALUE, RO, 1, 0, 4, DGPB_WGPU_UNIFORM_BUFFER},
        {"count", DGPB_KIND_VALUE, RO, 1, 4, 4, DGPB_WGPU_UNIFORM_BUFFER},
        {"job.mul", DGPB_KIND_VALUE, RO, 1, 16, 4, DGPB_WGPU_UNIFORM_BUFFER},
        {"job.log", DGPB_KIND_RW_BUFFER, W, 4, 0, 4, DGPB_WGPU_STORAGE_BUFFER},
    };
    static const want_row ptx[] = {
        {"total", DGPB_KIND_RW_BUFFER, W, 0, 0, 4, 0},
        {"src", DGPB_KIND_BUFFER, RO, 0, 0, 4, 0},
        {"dst", DGPB_KIND_RW_BUFFER, W, 16, 0, 4, 0},
        {"scale", DGPB_KIND_VALUE, RO, 0, 32, 4, 0},
        {"count", DGPB_KIND_VALUE, RO, 0, 36, 4, 0},
        {"job.mul", DGPB_KIND_VALUE, RO, 0, 40, 4, 0},
        {"job.log", DGPB_KIND_RW_BUFFER, W, 48, 0, 4, 0},
    };
    static const uint32_t ptx_spaces[] = {0, LAUNCH, LAUNCH, LAUNCH, LAUNCH, LAUNCH, LAUNCH};
    static const struct {
        const char *json, *target, *code;
        const want_row *rows;
        const uint32_t *spaces;
    } cases[] = {
        {"fixtures/reflect/entry_uniforms_spirv.json", "spirv",
         "fixtures/reflect/entry_uniforms.spv", spirv, spirv_spaces},
        {"fixtures/reflect/entry_uniforms_wgsl.json", "wgsl",
         "fixtures/reflect/entry_uniforms.wgsl", wgsl, NULL},
        {"fixtures/reflect/entry_uniforms_cuda.json", "ptx", NULL, ptx, ptx_spaces},
    };
    static const char *const group[] = {"k"};
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/entry_uniforms.spv");
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = load_reflection(cases[c].json, cases[c].target, "k");
        loaded_code code = {0};
        if (cases[c].code)
            load_code(cases[c].code, cases[c].target, &code);
        dgpb_param_select s = {target_of(cases[c].target),
                               "k",
                               r,
                               spv,
                               false,
                               group,
                               1,
                               cases[c].code ? &code.bindings : NULL,
                               NULL,
                               NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        check_rows_in(&t, cases[c].target, cases[c].rows, cases[c].spaces, 7);
        param_table_clear(&t);
        free_code(&code);
        reflection_free(r);
    }
    spirv_info_free(spv);
}

static void test_struct_globals_are_rows_through_the_variables_that_carry_them(void **state)
{
    (void)state;
    /* aggregates.slang: res.* are variables of their own, m's and nest's values share
       globalParams, their buffers are globalParams.m.dst, ... (on ptx, whose code names
       they carry without the prefix, found all the same). */
    static const want_row spirv[] = {
        {"res.src", DGPB_KIND_BUFFER, RO, 1, 0, 4, 0},
        {"res.dst", DGPB_KIND_RW_BUFFER, W, 2, 0, 4, 0},
        {"m.count", DGPB_KIND_VALUE, RO, 0, 0, 4, 0},
        {"m.dst", DGPB_KIND_RW_BUFFER, W, 3, 0, 4, 0},
        {"m.gain", DGPB_KIND_VALUE, RO, 0, 4, 4, 0},
        {"nest.flags", DGPB_KIND_VALUE, RO, 0, 16, 4, 0},
        {"nest.inner.bias", DGPB_KIND_VALUE, RO, 0, 32, 4, 0},
        {"nest.inner.weights", DGPB_KIND_BUFFER, RO, 4, 0, 4, 0},
        {"nest.out", DGPB_KIND_RW_BUFFER, W, 5, 0, 4, 0},
    };
    static const want_row wgsl[] = {
        {"res.src", DGPB_KIND_BUFFER, RO, 1, 0, 4, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER},
        {"res.dst", DGPB_KIND_RW_BUFFER, W, 2, 0, 4, DGPB_WGPU_STORAGE_BUFFER},
        {"m.count", DGPB_KIND_VALUE, RO, 0, 0, 4, DGPB_WGPU_UNIFORM_BUFFER},
        {"m.dst", DGPB_KIND_RW_BUFFER, W, 3, 0, 4, DGPB_WGPU_STORAGE_BUFFER},
        {"m.gain", DGPB_KIND_VALUE, RO, 0, 4, 4, DGPB_WGPU_UNIFORM_BUFFER},
        {"nest.flags", DGPB_KIND_VALUE, RO, 0, 16, 4, DGPB_WGPU_UNIFORM_BUFFER},
        {"nest.inner.bias", DGPB_KIND_VALUE, RO, 0, 32, 4, DGPB_WGPU_UNIFORM_BUFFER},
        {"nest.inner.weights", DGPB_KIND_BUFFER, RO, 4, 0, 4, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER},
        {"nest.out", DGPB_KIND_RW_BUFFER, W, 5, 0, 4, DGPB_WGPU_STORAGE_BUFFER},
    };
    static const want_row ptx[] = {
        {"res.src", DGPB_KIND_BUFFER, RO, 0, 0, 4, 0},
        {"res.dst", DGPB_KIND_RW_BUFFER, W, 16, 0, 4, 0},
        {"m.count", DGPB_KIND_VALUE, RO, INLINE, 32, 4, 0},
        {"m.dst", DGPB_KIND_RW_BUFFER, W, 40, 0, 4, 0},
        {"m.gain", DGPB_KIND_VALUE, RO, INLINE, 56, 4, 0},
        {"nest.flags", DGPB_KIND_VALUE, RO, INLINE, 64, 4, 0},
        {"nest.inner.bias", DGPB_KIND_VALUE, RO, INLINE, 72, 4, 0},
        {"nest.inner.weights", DGPB_KIND_BUFFER, RO, 80, 0, 4, 0},
        {"nest.out", DGPB_KIND_RW_BUFFER, W, 96, 0, 4, 0},
    };
    static const struct {
        const char *json, *target, *code;
        const want_row *rows;
    } cases[] = {
        {"fixtures/reflect/aggregates_spirv.json", "spirv", "fixtures/reflect/aggregates.spv",
         spirv},
        {"fixtures/reflect/aggregates_wgsl.json", "wgsl", "fixtures/reflect/aggregates.wgsl", wgsl},
        {"fixtures/reflect/aggregates_cuda.json", "ptx", NULL, ptx},
    };
    static const char *const group[] = {"k"};
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/aggregates.spv");
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_reflection *r = load_reflection(cases[c].json, cases[c].target, "k");
        loaded_code code = {0};
        if (cases[c].code)
            load_code(cases[c].code, cases[c].target, &code);
        dgpb_param_select s = {target_of(cases[c].target),
                               "k",
                               r,
                               spv,
                               false,
                               group,
                               1,
                               cases[c].code ? &code.bindings : NULL,
                               NULL,
                               NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        check_rows(&t, cases[c].target, cases[c].rows, 9);
        param_table_clear(&t);
        free_code(&code);
        reflection_free(r);
    }
    spirv_info_free(spv);
}

static void test_values_come_with_their_blocks_variable_and_resources_with_their_own(void **state)
{
    (void)state;
    /* The same reflection against interfaces that list only some variables: a value row
       goes with globalParams, a resource with its own variable, whatever the other does. */
    dgpb_reflection *r = load_reflection("fixtures/reflect/aggregates_spirv.json", "spirv", "k");
    static const char *const group[] = {"k"};
    dgpb_spirv_var block_only[] = {VAR("globalParams", true, false), VAR("res.src", true, false),
                                   VAR("res.dst", false, true),
                                   VAR("globalParams.m.dst", false, true)};
    dgpb_spirv_var resources_only[] = {VAR("globalParams", false, false),
                                       VAR("globalParams.m.dst", true, true),
                                       VAR("globalParams.nest.out", true, false)};
    static const char *const with_block[] = {"res.src", "m.count", "m.gain", "nest.flags",
                                             "nest.inner.bias"};
    static const char *const without_block[] = {"m.dst", "nest.out"};
    const struct {
        dgpb_spirv_var *vars;
        size_t var_count;
        const char *const *names;
        size_t count;
    } cases[] = {
        {block_only, ARRAY_LEN(block_only), with_block, ARRAY_LEN(with_block)},
        {resources_only, ARRAY_LEN(resources_only), without_block, ARRAY_LEN(without_block)},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_spirv_info info = make_info(cases[c].vars, cases[c].var_count, true);
        dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", r, &info, false, group, 1, NULL, NULL, NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        check_names(&t, cases[c].names, cases[c].count);
        param_table_clear(&t);
    }
    reflection_free(r);
}

static void
test_loose_uniforms_are_left_out_when_the_code_does_not_read_the_global_block(void **state)
{
    (void)state;
    dgpb_reflected_param params[] = {
        LOOSE("gain", 0, 4),
        RES("out", DGPB_KIND_RW_BUFFER, 1),
    };
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    dgpb_spirv_var vars[] = {VAR("globalParams", false, false), VAR("out", true, true)};
    dgpb_spirv_info info = make_info(vars, ARRAY_LEN(vars), true);
    static const char *const group[] = {"e"};
    for (int dream = 0; dream <= 1; dream++) {
        dgpb_param_select s = {
            DGPB_TARGET_SPIRV, "e", &r, &info, dream, group, 1, NULL, NULL, NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        static const char *const names[] = {"out"};
        check_names(&t, names, 1);
        param_table_clear(&t);
    }
}

/* ---- flags ----------------------------------------------------------------- */

static void test_read_only_comes_from_the_kind_and_written_only_from_spirv(void **state)
{
    (void)state;
    static const struct {
        uint32_t kind;
        bool written_in_spirv;
        uint32_t flags;
    } rows[] = {
        {DGPB_KIND_UNIFORM_BUFFER, false, RO},
        {DGPB_KIND_UNIFORM_BUFFER, true, RO}, /* a read-only kind is never flagged written */
        {DGPB_KIND_BUFFER, false, RO},
        {DGPB_KIND_BUFFER, true, RO},
        {DGPB_KIND_RW_BUFFER, false, 0}, /* never guessed from the type */
        {DGPB_KIND_RW_BUFFER, true, W},
        {DGPB_KIND_BYTE_BUFFER, true, RO},
        {DGPB_KIND_RW_BYTE_BUFFER, false, 0},
        {DGPB_KIND_RW_BYTE_BUFFER, true, W},
        {DGPB_KIND_TEXTURE, true, RO},
        {DGPB_KIND_RW_TEXTURE, false, 0},
        {DGPB_KIND_RW_TEXTURE, true, W},
        {DGPB_KIND_SAMPLER, true, RO},
        {DGPB_KIND_ACCELERATION_STRUCTURE, true, RO},
    };
    static const char *const names[] = {"g0", "g1", "g2", "g3",  "g4",  "g5",  "g6",
                                        "g7", "g8", "g9", "g10", "g11", "g12", "g13"};
    _Static_assert(ARRAY_LEN(names) == ARRAY_LEN(rows), "one name per row");
    dgpb_reflected_param params[ARRAY_LEN(rows)];
    dgpb_spirv_var vars[ARRAY_LEN(rows)];
    for (size_t i = 0; i < ARRAY_LEN(rows); i++) {
        params[i] = (dgpb_reflected_param)RES(names[i], (int)rows[i].kind, (uint32_t)i);
        vars[i] = (dgpb_spirv_var)VAR(names[i], true, rows[i].written_in_spirv);
    }
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    dgpb_spirv_info info = make_info(vars, ARRAY_LEN(vars), true);
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "e", &r, &info, false, NULL, 0, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    assert_int_equal(t.count, ARRAY_LEN(rows));
    for (size_t i = 0; i < ARRAY_LEN(rows); i++)
        if (t.rows[i].flags != rows[i].flags)
            fail_msg("kind %u written %d: flags %u, expected %u", rows[i].kind,
                     rows[i].written_in_spirv, t.rows[i].flags, rows[i].flags);
    param_table_clear(&t);
}

static void test_without_usable_spirv_every_global_counts_and_nothing_is_written(void **state)
{
    (void)state;
    /* loose.slang: unused_input is not in the interface and samples is written, but
       with no analysis (NULL) or one SPIRV-Tools could not parse, neither is known. */
    static const want_row want[] = {
        {"gain", DGPB_KIND_VALUE, RO, 0, 0, 4, 0},
        {"count", DGPB_KIND_VALUE, RO, 0, 4, 4, 0},
        {"samples", DGPB_KIND_RW_BUFFER, 0, 1, 0, 4, 0},
        {"unused_input", DGPB_KIND_BUFFER, RO, 2, 0, 4, 0},
    };
    dgpb_reflection *r = load_reflection("fixtures/reflect/loose_spirv.json", "spirv", "scale");
    dgpb_spirv_var vars[] = {VAR("globalParams", false, false), VAR("samples", true, true)};
    dgpb_spirv_info unparsed = make_info(vars, ARRAY_LEN(vars), false);
    const dgpb_spirv_info *infos[] = {NULL, &unparsed};
    static const char *const group[] = {"scale"};
    for (size_t i = 0; i < ARRAY_LEN(infos); i++)
        for (int dream = 0; dream <= 1; dream++) {
            dgpb_param_select s = {
                DGPB_TARGET_SPIRV, "scale", r, infos[i], dream, group, 1, NULL, NULL, NULL};
            dgpb_param_table t = {0};
            build_ok(&s, &t);
            check_rows(&t, "spirv", want, ARRAY_LEN(want));
            param_table_clear(&t);
        }
    reflection_free(r);
}

/* ---- WebGPU IDs -------------------------------------------------------------- */

static void test_webgpu_ids_are_kept_on_wgsl_and_zero_elsewhere(void **state)
{
    (void)state;
    dgpb_reflected_param params[] = {
        PARAM("v", "e_params", DGPB_KIND_VALUE, 0, 0, 4, DGPB_WGPU_UNIFORM_BUFFER, NULL),
        PARAM("e_t", "e_t", DGPB_KIND_TEXTURE, 1, 0, 0, DGPB_WGPU_TEXTURE_2D_FLOAT, NULL),
        PARAM("e_s", "e_s", DGPB_KIND_RW_TEXTURE, 2, 0, 0, DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT,
              NULL),
    };
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    static const char *const group[] = {"e"};
    static const char *const targets[] = {"wgsl", "spirv", "metal", "ptx", "dxil"};
    for (size_t i = 0; i < ARRAY_LEN(targets); i++) {
        bool wgsl = !strcmp(targets[i], "wgsl");
        dgpb_param_select s = {
            target_of(targets[i]), "e", &r, NULL, true, group, 1, NULL, NULL, NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        assert_int_equal(t.count, 3);
        assert_int_equal(t.rows[0].webgpu_layout, wgsl ? DGPB_WGPU_UNIFORM_BUFFER : 0);
        assert_int_equal(t.rows[1].webgpu_layout, wgsl ? DGPB_WGPU_TEXTURE_2D_FLOAT : 0);
        assert_int_equal(t.rows[2].webgpu_layout, wgsl ? DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT : 0);
        param_table_clear(&t);
    }
}

static void test_offset_and_size_are_kept_only_for_value_rows(void **state)
{
    (void)state;
    dgpb_reflected_param params[] = {
        PARAM("e_b", "e_b", DGPB_KIND_BUFFER, 1, 8, 16, 0, NULL),
        PARAM("v", "e_params", DGPB_KIND_VALUE, 0, 8, 16, 0, NULL),
    };
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    static const char *const group[] = {"e"};
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "e", &r, NULL, true, group, 1, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    static const want_row want[] = {
        {"b", DGPB_KIND_BUFFER, RO, 1, 0, 16, 0},
        {"v", DGPB_KIND_VALUE, RO, 0, 8, 16, 0},
    };
    check_rows(&t, "spirv", want, ARRAY_LEN(want));
    param_table_clear(&t);
}

/* ---- errors ------------------------------------------------------------------ */

static void expect_error(const dgpb_param_select *s, const char *message)
{
    dgpb_param_table t = {0};
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = param_table_build(s, &t, &diag);
    if (rc != DGPB_ERR_SHADER)
        fail_msg("entry '%s' on %s: result %d, expected DGPB_ERR_SHADER", s->entry, s->target, rc);
    assert_contains(diag.message, message);
    param_table_clear(&t); /* rows made before the error are released too */
}

static void
test_a_used_parameter_without_a_kind_is_an_error_naming_target_entry_and_parameter(void **state)
{
    (void)state;
    static const char *const group[] = {"k"};
    dgpb_reflection *r = load_reflection("fixtures/reflect/refused_spirv.json", "spirv", "k");
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", r, NULL, false, group, 1, NULL, NULL, NULL};
    expect_error(&s, "target 'spirv', entry 'k', parameter 'material': ParameterBlock<Material> "
                     "as an entry-point parameter has no fixed descriptor set");
    reflection_free(r);

    /* A kind -1 row without a reason still fails, saying so. */
    dgpb_reflected_param params[] = {
        RES("e_ok", DGPB_KIND_BUFFER, 0),
        PARAM("e_odd", "e_odd", -1, 1, 0, 0, 0, NULL),
    };
    dgpb_reflection hand = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    static const char *const group_e[] = {"e"};
    dgpb_param_select h = {DGPB_TARGET_METAL, "e", &hand, NULL, true, group_e, 1, NULL, NULL, NULL};
    expect_error(&h, "target 'metal', entry 'e', parameter 'odd': no parameter kind");
}

static void test_a_used_wgsl_parameter_with_a_problem_is_an_error(void **state)
{
    (void)state;
    static const char *const group_s[] = {"s"}, *const group_k2[] = {"k"};
    dgpb_reflection *r = load_reflection("fixtures/reflect/shapes_wgsl.json", "wgsl", "s");
    dgpb_param_select s = {DGPB_TARGET_WGSL, "s", r, NULL, true, group_s, 1, NULL, NULL, NULL};
    expect_error(&s, "target 'wgsl', entry 's', parameter 'many': Texture2D<float4>[4] is an "
                     "array of resources, and WebGPU has no binding arrays");
    reflection_free(r);

    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/kinds.spv");
    /* A shape WebGPU has no layout for: a 1D array texture, a storage cube map. */
    static const struct {
        int kind;
        uint32_t shape;
        const char *message;
    } shapes[] = {
        {DGPB_KIND_TEXTURE,
         DGPB_DIM_1D | DGPB_SHAPE_ARRAYED | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT,
         "target 'wgsl', entry 'e', parameter 't': T (1d_array float) has no WebGPU binding "
         "layout: WebGPU has no 1d or 3d texture arrays; leave wgsl out of --targets"},
        {DGPB_KIND_RW_TEXTURE,
         DGPB_DIM_CUBE | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT |
             DGPB_TEXEL_R32FLOAT << DGPB_SHAPE_FORMAT_SHIFT |
             DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT,
         "parameter 't': T (cube float r32float read_write) has no WebGPU binding layout: WebGPU "
         "has no storage cube maps"},
    };
    for (size_t i = 0; i < ARRAY_LEN(shapes); i++) {
        dgpb_reflected_param one[] = {RES("t", shapes[i].kind, 0)};
        one[0].shape_word = shapes[i].shape;
        dgpb_reflection rt = {one, 1, NULL, 0, NULL, 0};
        static const char *const group_e[] = {"e"};
        dgpb_param_select e = {DGPB_TARGET_WGSL, "e", &rt,  NULL, false,
                               group_e,          1,   NULL, NULL, NULL};
        expect_error(&e, shapes[i].message);
    }

    /* The same shapes are fine where they have a descriptor. */
    r = load_reflection("fixtures/reflect/kinds_spirv.json", "spirv", "k");
    dgpb_param_select ok = {DGPB_TARGET_SPIRV, "k", r, spv, true, group_k2, 1, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&ok, &t);
    param_table_clear(&t);
    reflection_free(r);
    spirv_info_free(spv);
}

static void test_a_parameter_the_entry_does_not_use_may_have_a_problem(void **state)
{
    (void)state;
    dgpb_reflected_param params[] = {
        PARAM("volume", "volume", DGPB_KIND_TEXTURE, 0, 0, 0, 0, "Texture3D<float4> has no ID"),
        PARAM("many", "many", -1, 1, 0, 0, 0, "arrays of resources are not supported"),
        PARAM("out", "out", DGPB_KIND_RW_BUFFER, 2, 0, 0, DGPB_WGPU_STORAGE_BUFFER, NULL),
        PARAM("j_many", "j_many", -1, 3, 0, 0, 0, "another entry's problem"),
    };
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    dgpb_spirv_var vars[] = {VAR("volume", false, false), VAR("out", true, true)};
    dgpb_spirv_info info = make_info(vars, ARRAY_LEN(vars), true);
    static const char *const group[] = {"e", "j"};
    for (int dream = 0; dream <= 1; dream++) {
        dgpb_param_select s = {DGPB_TARGET_WGSL, "e", &r, &info, dream, group, 2, NULL, NULL, NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        static const want_row want[] = {
            {"out", DGPB_KIND_RW_BUFFER, W, 2, 0, 0, DGPB_WGPU_STORAGE_BUFFER}};
        check_rows(&t, "wgsl", want, 1);
        param_table_clear(&t);
    }
}

static void
test_values_of_a_block_the_code_dropped_are_no_rows_though_its_resources_are(void **state)
{
    (void)state;
    /* unused_values.slang reads neither m.count nor scale: Slang drops globalParams and the
       entryPointParams push constant, but keeps globalParams.m.dst and entryPointParams.out.
       A variable named after a block is no use of the block's values: the table is the two
       buffers (with the values, the build fails: the code has no globalParams to place
       them, and no push-constant block). */
    static const want_row want[] = {
        {"m.dst", DGPB_KIND_RW_BUFFER, W, 1, 0, 4, 0},
        {"out", DGPB_KIND_RW_BUFFER, W, 2, 0, 4, 0},
    };
    static const char *const group[] = {"k"};
    dgpb_reflection *r = load_reflection("fixtures/reflect/unused_values_spirv.json", "spirv", "k");
    loaded_code code;
    load_code("fixtures/reflect/unused_values.spv", "spirv", &code);
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "k",  r,   code.spirv, false, group, 1,
                           &code.bindings,    NULL, NULL};
    dgpb_param_table t = {0};
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = param_table_build(&s, &t, &diag);
    char names[256] = "";
    for (uint32_t i = 0; rc == DGPB_OK && i < t.count; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s'%s'", i ? ", " : "",
                 t.rows[i].name);
    if (rc == DGPB_OK && t.count == ARRAY_LEN(want))
        check_rows(&t, "spirv", want, ARRAY_LEN(want));
    param_table_clear(&t);
    free_code(&code);
    reflection_free(r);
    if (rc != DGPB_OK)
        fail_msg("%s", diag.message);
    if (strcmp(names, "'m.dst', 'out'") != 0)
        fail_msg("rows %s, expected 'm.dst', 'out'", names);
}

static void test_a_used_row_the_code_cannot_place_is_an_error_naming_its_variable(void **state)
{
    (void)state;
    dgpb_reflection *r =
        load_reflection("fixtures/reflect/entry_uniforms_spirv.json", "spirv", "k");
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/entry_uniforms.spv");
    static const char *const group[] = {"k"};
    /* The code has no entryPointParams.src at all, or declares it without a binding. */
    dgpb_code_binding missing[] = {
        {.name = "total", .space = 0, .binding = 0, .cls = DGPB_CODE_STORAGE_BUFFER},
    };
    dgpb_code_binding unbound[] = {
        {.name = "entryPointParams.src",
         .space = -1,
         .binding = -1,
         .cls = DGPB_CODE_STORAGE_BUFFER},
    };
    dgpb_code_bindings none = {.items = missing, .count = ARRAY_LEN(missing)},
                       loose = {.items = unbound, .count = ARRAY_LEN(unbound)};
    const dgpb_code_bindings *codes[] = {&none, &loose};
    for (size_t c = 0; c < ARRAY_LEN(codes); c++) {
        dgpb_param_select s = {DGPB_TARGET_SPIRV, "k",  r,   spv, false, group, 1,
                               codes[c],          NULL, NULL};
        expect_error(&s, "target 'spirv', entry 'k', parameter 'src' (StructuredBuffer<uint>): "
                         "the entry's code uses it, but the spirv code has no bound variable "
                         "'entryPointParams.src' for it");
    }
    spirv_info_free(spv);
    reflection_free(r);

    /* Two WGSL variables spell the same path (Slang's suffix tells them apart, nothing
       tells which is the parameter). */
    r = load_reflection("fixtures/reflect/entry_uniforms_wgsl.json", "wgsl", "k");
    spv = load_spirv("fixtures/reflect/entry_uniforms.spv");
    dgpb_code_binding twice[] = {
        {.name = "total_0",
         .space = 0,
         .binding = 0,
         .cls = DGPB_CODE_STORAGE_BUFFER,
         .detail = "array<u32>"},
        {.name = "entryPointParams_src_0",
         .space = 0,
         .binding = 2,
         .cls = DGPB_CODE_STORAGE_BUFFER,
         .detail = "array<u32>"},
        {.name = "entryPointParams_src_1",
         .space = 0,
         .binding = 5,
         .cls = DGPB_CODE_STORAGE_BUFFER,
         .detail = "array<u32>"},
    };
    dgpb_code_bindings ambiguous = {.items = twice, .count = ARRAY_LEN(twice)};
    dgpb_param_select w = {DGPB_TARGET_WGSL, "k", r, spv, false, group, 1, &ambiguous, NULL, NULL};
    expect_error(&w, "target 'wgsl', entry 'k', parameter 'src': the wgsl code has two variables "
                     "named after 'entryPointParams.src'; rename one of the parameters");
    spirv_info_free(spv);
    reflection_free(r);
}

static void test_a_bindless_heap_the_code_binds_gets_a_handle_row_at_its_place(void **state)
{
    (void)state;
    /* fixtures/spirv/bindless: DescriptorHandle<Texture2D> values index Slang's own
       __slang_resource_heap (set 1, binding 2), which no parameter names. */
    dgpb_reflection *r = load_reflection("fixtures/spirv/bindless.json", "spirv", "bindless");
    loaded_code code;
    load_code("fixtures/spirv/bindless.spv", "spirv", &code);
    static const char *const group[] = {"bindless"};
    static const want_row want[] = {
        {"handles", DGPB_KIND_BUFFER, RO, 3, 0, 8, 0},
        {"handle_sampler", DGPB_KIND_SAMPLER, RO, 4, 0, 0, 0},
        {"handle_out", DGPB_KIND_RW_BUFFER, W, 5, 0, 16, 0},
        {"__slang_resource_heap", DGPB_KIND_HANDLE, 0, 2, 0, 0, 0},
    };
    static const uint32_t spaces[] = {0, 0, 0, 1};
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "bindless", r,   code.spirv, false, group, 1,
                           &code.bindings,    NULL,       NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    check_rows_in(&t, "spirv", want, spaces, ARRAY_LEN(want));
    assert_true(t.in_code[3]);
    param_table_clear(&t);
    /* Without the code's bindings, nothing tells the heap is there. */
    s.code = NULL;
    build_ok(&s, &t);
    assert_int_equal(t.count, 3);
    param_table_clear(&t);
    free_code(&code);
    reflection_free(r);

    /* Both heaps, each once; a heap at a place a row already describes adds nothing, and
       one without a binding is not a place. */
    dgpb_code_binding heaps[] = {
        {.name = "__slang_resource_heap",
         .space = 1,
         .binding = 0,
         .cls = DGPB_CODE_TEXTURE,
         .is_array = true},
        {.name = "__slang_sampler_heap",
         .space = 1,
         .binding = 1,
         .cls = DGPB_CODE_SAMPLER,
         .is_array = true},
        {.name = "__slang_resource_heap_1",
         .space = 0,
         .binding = 0,
         .cls = DGPB_CODE_TEXTURE,
         .is_array = true},
        {.name = "__slang_sampler_heap_2",
         .space = -1,
         .binding = -1,
         .cls = DGPB_CODE_SAMPLER,
         .is_array = true},
        {.name = "not_a_heap",
         .space = 2,
         .binding = 0,
         .cls = DGPB_CODE_TEXTURE,
         .is_array = true},
    };
    dgpb_code_bindings code_heaps = {.items = heaps, .count = ARRAY_LEN(heaps)};
    dgpb_reflected_param params[] = {RES("buf", DGPB_KIND_BUFFER, 0)};
    dgpb_reflection hand = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    dgpb_param_select h = {DGPB_TARGET_SPIRV, "e",  &hand, NULL, false, NULL, 0,
                           &code_heaps,       NULL, NULL};
    build_ok(&h, &t);
    static const want_row heap_rows[] = {
        {"buf", DGPB_KIND_BUFFER, RO, 0, 0, 0, 0},
        {"__slang_resource_heap", DGPB_KIND_HANDLE, 0, 0, 0, 0, 0},
        {"__slang_sampler_heap", DGPB_KIND_HANDLE, 0, 1, 0, 0, 0},
    };
    static const uint32_t heap_spaces[] = {0, 1, 1};
    check_rows_in(&t, "spirv", heap_rows, heap_spaces, ARRAY_LEN(heap_rows));
    param_table_clear(&t);
}

static void test_a_used_bool_value_is_an_error_on_wgsl_only(void **state)
{
    (void)state;
    /* refused.slang, selected by an interface that lists only the global block: the rows
       are the bool values invert and flags (a struct holding a bool2). */
    static const char *const group[] = {"k"};
    dgpb_spirv_var vars[] = {VAR("globalParams", true, false)};
    dgpb_spirv_info info = make_info(vars, ARRAY_LEN(vars), true);
    dgpb_reflection *r = load_reflection("fixtures/reflect/refused_wgsl.json", "wgsl", "k");
    dgpb_param_select w = {DGPB_TARGET_WGSL, "k", r, &info, false, group, 1, NULL, NULL, NULL};
    expect_error(&w, "target 'wgsl', entry 'k', parameter 'invert' (bool): WGSL allows no bool in "
                     "a uniform buffer, so WebGPU would reject the code; declare it as uint (0 or "
                     "1)");
    reflection_free(r);
    static const char *const names[] = {"invert", "flags"};
    static const char *const files[][2] = {{"fixtures/reflect/refused_spirv.json", "spirv"},
                                           {"fixtures/reflect/refused_cuda.json", "ptx"}};
    for (size_t f = 0; f < ARRAY_LEN(files); f++) {
        r = load_reflection(files[f][0], files[f][1], "k");
        dgpb_param_select s = {
            target_of(files[f][1]), "k", r, &info, false, group, 1, NULL, NULL, NULL};
        dgpb_param_table t = {0};
        build_ok(&s, &t);
        check_names(&t, names, ARRAY_LEN(names));
        param_table_clear(&t);
        reflection_free(r);
    }
}

/* One compile of attachments.slang: its reflection and its SPIR-V. */
static void check_attachments_and_texel_buffers(const char *reflection, const char *spirv)
{
    /* attachments.slang: the reflection tells the attachment indices, the dimensions and
       Slang's formats; the SPIR-V adds the sample types and SubpassInputMS. The proof then
       holds every field against the code. */
    static const char *const group[] = {"fs"};
    dgpb_reflection *r = load_reflection(reflection, "spirv", "fs");
    loaded_code code;
    load_code(spirv, "spirv", &code);
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "fs", r,   code.spirv, false, group, 1,
                           &code.bindings,    NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
#define SAMPLE(x) (DGPB_SAMPLE_##x << DGPB_SHAPE_SAMPLE_SHIFT)
#define FORMAT(x) (DGPB_TEXEL_##x << DGPB_SHAPE_FORMAT_SHIFT)
    static const struct {
        const char *name;
        uint32_t kind, flags, binding, shape;
    } want[] = {
        {"color", DGPB_KIND_INPUT_ATTACHMENT, DGPB_FLAG_READ_ONLY, 0,
         DGPB_DIM_SUBPASS | SAMPLE(FLOAT) | 3u << DGPB_SHAPE_ATTACHMENT_SHIFT},
        {"ids", DGPB_KIND_INPUT_ATTACHMENT, DGPB_FLAG_READ_ONLY, 1,
         DGPB_DIM_SUBPASS | DGPB_SHAPE_MULTISAMPLED | SAMPLE(UINT) |
             1u << DGPB_SHAPE_ATTACHMENT_SHIFT},
        {"offsets", DGPB_KIND_TEXEL_BUFFER, DGPB_FLAG_READ_ONLY, 2,
         DGPB_DIM_BUFFER | SAMPLE(SINT) | FORMAT(R32SINT)},
        {"tints", DGPB_KIND_TEXEL_BUFFER, DGPB_FLAG_READ_ONLY, 3,
         DGPB_DIM_BUFFER | SAMPLE(FLOAT) | FORMAT(RGBA8UNORM)},
        {"counts", DGPB_KIND_RW_TEXEL_BUFFER, DGPB_FLAG_WRITTEN, 4,
         DGPB_DIM_BUFFER | SAMPLE(UINT) | FORMAT(R32UINT) |
             DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT},
    };
#undef SAMPLE
#undef FORMAT
    assert_int_equal(t.count, ARRAY_LEN(want));
    for (size_t i = 0; i < ARRAY_LEN(want); i++) {
        const dgpb_param_desc *row = &t.rows[i];
        char have[96], expect[96];
        if (strcmp(row->name, want[i].name) || row->kind != want[i].kind ||
            row->flags != want[i].flags || row->binding != want[i].binding ||
            row->offset != want[i].shape)
            fail_msg("row %zu: '%s' kind %u flags %u binding %u shape '%s'; want '%s' %u %u %u "
                     "'%s'",
                     i, row->name, row->kind, row->flags, row->binding,
                     dgpb_shape_text(row->offset, have, sizeof have), want[i].name, want[i].kind,
                     want[i].flags, want[i].binding,
                     dgpb_shape_text(want[i].shape, expect, sizeof expect));
    }
    dgpb_proof_input in = {DGPB_TARGET_SPIRV, "fs", &t, &code.bindings, NULL, false};
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (binding_proof_check(&in, &diag))
        fail_msg("the proof fails: %s", diag.message);
    /* A row whose attachment index is not the code's, even 0, or whose sample type is not, is
       refused naming both shapes. */
    t.rows[0].offset &= ~DGPB_SHAPE_ATTACHMENT_MASK;
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_ERR_SHADER);
    assert_non_null(strstr(diag.message, "parameter 'color' has the shape 'subpass float "
                                         "attachment 0', but the code declares 'color' (set 0, "
                                         "binding 0) as 'subpass float attachment 3'"));
    t.rows[0].offset |= 3u << DGPB_SHAPE_ATTACHMENT_SHIFT;
    t.rows[2].offset = DGPB_DIM_BUFFER | DGPB_SAMPLE_UINT << DGPB_SHAPE_SAMPLE_SHIFT;
    dgpb_diag_clear(&diag);
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_ERR_SHADER);
    assert_non_null(strstr(diag.message, "parameter 'offsets' has the shape 'buffer uint'"));
    /* A texel buffer row where the code has a storage texel buffer: the kind does not fit. */
    t.rows[2].offset = DGPB_DIM_BUFFER | DGPB_SAMPLE_SINT << DGPB_SHAPE_SAMPLE_SHIFT;
    t.rows[4].kind = DGPB_KIND_TEXEL_BUFFER;
    t.rows[4].flags = DGPB_FLAG_READ_ONLY;
    dgpb_diag_clear(&diag);
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_ERR_SHADER);
    assert_non_null(strstr(diag.message, "parameter 'counts' is a texel_buffer row, but the code "
                                         "declares 'counts' (set 0, binding 4) there as a storage "
                                         "texel buffer"));
    param_table_clear(&t);
    free_code(&code);
    reflection_free(r);
}

static void test_input_attachments_and_texel_buffers_are_shaped_from_reflection_and_code_and_proved(
    void **state)
{
    (void)state;
    /* Slang 2025.15 (the embedded compiler) describes a SubpassInput as its implementation
       struct with an "unknown" binding record, 2026.16 (native) as a resource of base shape
       subpassInput with an "inputAttachmentIndex" record: both give the same rows. */
    check_attachments_and_texel_buffers("fixtures/reflect/attachments_spirv.json",
                                        "fixtures/reflect/attachments.spv");
    check_attachments_and_texel_buffers("fixtures/reflect/attachments_spirv_native.json",
                                        "fixtures/reflect/attachments_native.spv");
}

static void test_every_refused_shape_the_code_uses_is_an_error_with_its_rewrite(void **state)
{
    (void)state;
    /* Each refused row of refused.slang on its own, against the real SPIR-V interface: the
       row is found through the variable(s) that carry it (an append buffer is two,
       kept.elements and kept.counter; the entry's ParameterBlock is
       entryPointParams.material), so the build stops with the row's rewrite. */
    static const char *const group[] = {"k"};
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/refused.spv");
    static const char *const files[][2] = {{"fixtures/reflect/refused_spirv.json", "spirv"},
                                           {"fixtures/reflect/refused_wgsl.json", "wgsl"},
                                           {"fixtures/reflect/refused_cuda.json", "ptx"}};
    for (size_t f = 0; f < ARRAY_LEN(files); f++) {
        dgpb_reflection *r = load_reflection(files[f][0], files[f][1], "k");
        size_t refused = 0;
        for (size_t i = 0; i < r->param_count; i++) {
            if (r->params[i].kind >= 0)
                continue;
            refused++;
            dgpb_reflection one = {&r->params[i], 1, NULL, 0, NULL, 0};
            dgpb_param_select s = {
                target_of(files[f][1]), "k", &one, spv, false, group, 1, NULL, NULL, NULL};
            char message[1024];
            snprintf(message, sizeof message, "target '%s', entry 'k', parameter '%s': %s",
                     files[f][1], r->params[i].name, r->params[i].problem);
            expect_error(&s, message);
        }
        /* material everywhere, the array layers on wgsl (no binding arrays); pending where
           compiled, typed on ptx (a texel_buffer row on spirv); kept (an append buffer) off
           spirv, where it is two rows (elements and counter). (albedo, a Sampler2D, is a
           texture_sampler row.) */
        assert_int_equal(refused, !strcmp(files[f][1], "wgsl")    ? 2
                                  : !strcmp(files[f][1], "spirv") ? 1
                                                                  : 4);
        reflection_free(r);
    }
    spirv_info_free(spv);
}

static void test_rows_declared_for_the_entry_but_unused_by_its_code_are_marked(void **state)
{
    (void)state;
    /* Dream mode keeps k's own globals whether its code uses them or not; in_code tells
       the proof which ones the code must bind. */
    dgpb_reflected_param params[] = {
        RES("k_used", DGPB_KIND_RW_BUFFER, 0),
        RES("k_unused", DGPB_KIND_TEXTURE, 1),
        RES("shared", DGPB_KIND_BUFFER, 2),
    };
    dgpb_reflection r = {params, ARRAY_LEN(params), NULL, 0, NULL, 0};
    dgpb_spirv_var vars[] = {VAR("k_used", true, true), VAR("k_unused", false, false),
                             VAR("shared", true, false)};
    dgpb_spirv_info info = make_info(vars, ARRAY_LEN(vars), true);
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", &r, &info, true, group_k, 1, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    static const char *const names[] = {"used", "unused", "shared"};
    check_names(&t, names, ARRAY_LEN(names));
    bool in_code[3] = {t.in_code[0], t.in_code[1], t.in_code[2]};
    param_table_clear(&t);
    assert_true(in_code[0]);
    assert_false(in_code[1]);
    assert_true(in_code[2]);
}

/* ---- misc -------------------------------------------------------------------- */

static void test_value_block_names_are_the_entry_name_and_params(void **state)
{
    (void)state;
    char buf[32];
    value_block_name("blur", buf, sizeof buf);
    assert_string_equal(buf, "blur_params");
    value_block_name("", buf, sizeof buf);
    assert_string_equal(buf, "_params");
    char small[6];
    value_block_name("blur", small, sizeof small);
    assert_string_equal(small, "blur_"); /* truncated, still terminated */
}

/* ---- names never collide (docs/format.md, "Names") ------------------------- */

/* Builds `r`'s table for entry k without SPIR-V (every row counts) and checks its names. */
static void check_table_names(dgpb_reflection *r, bool dream, const dgpb_param_scopes *scopes,
                              const char *const *names, size_t n)
{
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", r, NULL, dream, group_k, 1, NULL, scopes, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    check_names(&t, names, n);
    param_table_clear(&t);
}

static void test_rows_that_would_share_a_name_are_named_by_what_holds_them(void **state)
{
    (void)state;
    /* A global and an entry parameter `src`: the entry's is k.src. */
    dgpb_reflected_param a[] = {RES("src", DGPB_KIND_BUFFER, 0), RES("dst", DGPB_KIND_RW_BUFFER, 1),
                                RES("src", DGPB_KIND_BUFFER, 2)};
    a[1].top = 1;
    a[2].entry_param = true;
    char *a_globals[] = {"src", "dst"};
    dgpb_reflection ra = {a, ARRAY_LEN(a), NULL, 0, a_globals, 2};
    static const char *const a_names[] = {"src", "dst", "k.src"};
    check_table_names(&ra, false, NULL, a_names, ARRAY_LEN(a_names));

    /* A cbuffer's field and an entry's uniform `count`: Params.count and k.count; `limit`,
       which nothing shares, stays bare. */
    dgpb_reflected_param b[] = {
        RES("Params", DGPB_KIND_UNIFORM_BUFFER, 0), VAL("count", "Params", 0, 0, 4),
        VAL("limit", "Params", 0, 4, 4),
        PARAM_IN("entryPointParams", "count", "count", DGPB_KIND_VALUE, 1, 0, 4, 0, NULL)};
    b[3].entry_param = true;
    char *b_globals[] = {"Params"};
    dgpb_reflection rb = {b, ARRAY_LEN(b), NULL, 0, b_globals, 1};
    static const char *const b_names[] = {"Params", "Params.count", "limit", "k.count"};
    check_table_names(&rb, false, NULL, b_names, ARRAY_LEN(b_names));

    /* The generator's conventions: k_params's field `count` and the global k_count, both
       listed as `count`, are k_params.count and k_count; `gain` stays. */
    dgpb_reflected_param c[] = {VAL("count", "k_params", 0, 0, 4), VAL("gain", "k_params", 0, 4, 4),
                                RES("k_count", DGPB_KIND_RW_BUFFER, 1)};
    c[2].top = 1;
    char *c_globals[] = {"k_params", "k_count"};
    dgpb_reflection rc = {c, ARRAY_LEN(c), NULL, 0, c_globals, 2};
    static const char *const c_names[] = {"k_params.count", "gain", "k_count"};
    check_table_names(&rc, true, NULL, c_names, ARRAY_LEN(c_names));
}

static void test_rows_that_still_share_a_name_are_named_by_namespace(void **state)
{
    (void)state;
    /* g, first::out, second::out, first::res.src, second::res.src, as Slang lists them
       after the imported `lib` (a run of the globals, not all of them). */
    dgpb_reflected_param p[] = {
        RES("g", DGPB_KIND_BUFFER, 0),
        RES("out", DGPB_KIND_RW_BUFFER, 1),
        RES("out", DGPB_KIND_RW_BUFFER, 2),
        PARAM_IN("res.src", "res.src", "res", DGPB_KIND_BUFFER, 3, 0, 0, 0, NULL),
        PARAM_IN("res.src", "res.src", "res", DGPB_KIND_BUFFER, 4, 0, 0, 0, NULL),
    };
    for (uint32_t i = 0; i < ARRAY_LEN(p); i++)
        p[i].top = i + 1;
    char *globals[] = {"lib", "g", "out", "out", "res", "res"};
    dgpb_reflection r = {p, ARRAY_LEN(p), NULL, 0, globals, ARRAY_LEN(globals)};
    /* The text's declarations in Slang's order: the module scope's, then breadth first. */
    dgpb_param_scope items[] = {
        {"g", ""}, {"out", "first"}, {"out", "second"}, {"res", "first"}, {"res", "second::inner"}};
    dgpb_param_scopes scopes = {items, ARRAY_LEN(items), 0};
    static const char *const names[] = {"g", "first::out", "second::out", "first::res.src",
                                        "second::inner::res.src"};
    check_table_names(&r, false, &scopes, names, ARRAY_LEN(names));

    /* A text whose declarations are no run of Slang's, a text the scan could not read, one
       that tells only some of them, or no text cannot tell: the module's error. */
    dgpb_param_scope other[] = {{"g", ""}, {"out", "first"}, {"extra", "hidden"}};
    dgpb_param_scopes wrong = {other, ARRAY_LEN(other), 0};
    dgpb_param_scopes unread = {NULL, 0, 1};
    /* A text that tells one `out`'s namespace but not the other's (the other declared in an
       #include) may have taken one for the other: neither is qualified. */
    dgpb_param_scope one[] = {{"g", ""}, {"out", "first"}};
    dgpb_param_scopes partial = {one, ARRAY_LEN(one), 0};
    const dgpb_param_scopes *cases[] = {&wrong, &unread, &partial, NULL};
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", &r,   NULL,     false,
                               group_k,           1,   NULL, cases[c], NULL};
        dgpb_param_table t = {0};
        dgpb_diag d;
        dgpb_diag_clear(&d);
        assert_int_equal(param_table_build(&s, &t, &d), DGPB_ERR_SHADER);
        assert_non_null(strstr(d.message, "parameters 'out' (T) and 'out' (T) would both be the "
                                          "row 'out', and the module's own text does not tell "
                                          "their namespaces"));
        param_table_clear(&t);
    }
}

static void test_an_entry_without_parameters_gets_an_empty_table(void **state)
{
    (void)state;
    dgpb_reflection r = {NULL, 0, NULL, 0, NULL, 0};
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "e", &r, NULL, true, NULL, 0, NULL, NULL, NULL};
    dgpb_param_table t = {0};
    build_ok(&s, &t);
    assert_int_equal(t.count, 0);
    param_table_clear(&t);
    param_table_clear(&t); /* twice is fine */
}

/* ---- allocation failures ----------------------------------------------------- */

/* Builds the kinds table of entry k; checks its rows when no allocation failed. */
static int op_build_kinds_table(void *arg)
{
    const dgpb_param_select *s = arg;
    dgpb_param_table t = {0};
    dgpb_diag diag;
    int rc = param_table_build(s, &t, &diag);
    if (support_faults_fired() == 0 && rc == DGPB_OK)
        assert_int_equal(t.count, 20);
    param_table_clear(&t);
    return rc;
}

static void test_every_failed_allocation_gives_nomem_and_leaks_nothing(void **state)
{
    (void)state;
    dgpb_reflection *r = load_reflection("fixtures/reflect/kinds_spirv.json", "spirv", "k");
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/kinds.spv");
    dgpb_param_select s = {DGPB_TARGET_SPIRV, "k", r, spv, true, group_k, 1, NULL, NULL, NULL};
    /* the rows, the in_code flags, each row's parameter, one name per row, then the marks of
       shared names */
    assert_int_equal(support_run_with_faults(op_build_kinds_table, &s, DGPB_OK, "params"), 24);
    spirv_info_free(spv);
    reflection_free(r);
}

/* Builds a table, checking nothing but that a run without failures makes `rows` rows. */
typedef struct build_job {
    const dgpb_param_select *select;
    uint32_t rows;
} build_job;

static int op_build_table(void *arg)
{
    const build_job *job = arg;
    dgpb_param_table t = {0};
    dgpb_diag diag;
    int rc = param_table_build(job->select, &t, &diag);
    if (support_faults_fired() == 0 && rc == DGPB_OK)
        assert_int_equal(t.count, job->rows);
    param_table_clear(&t);
    return rc;
}

static void test_failed_allocations_with_code_bindings_give_nomem_and_leak_nothing(void **state)
{
    (void)state;
    /* Rows placed by the code (entry_uniforms on wgsl): the rows, the in_code flags, each row's
       parameter, the 7 names, the marks of shared names. The bindless heap's row: the rows, the
       flags, the parameters, 3 names, then the rows and the flags grown by one, the heap's name
       and the marks. */
    static const char *const group[] = {"k"}, *const bindless[] = {"bindless"};
    dgpb_reflection *r = load_reflection("fixtures/reflect/entry_uniforms_wgsl.json", "wgsl", "k");
    dgpb_spirv_info *spv = load_spirv("fixtures/reflect/entry_uniforms.spv");
    loaded_code code;
    load_code("fixtures/reflect/entry_uniforms.wgsl", "wgsl", &code);
    dgpb_param_select s = {DGPB_TARGET_WGSL, "k",  r,   spv, false, group, 1,
                           &code.bindings,   NULL, NULL};
    build_job job = {&s, 7};
    assert_int_equal(support_run_with_faults(op_build_table, &job, DGPB_OK, "params wgsl"), 11);
    free_code(&code);
    spirv_info_free(spv);
    reflection_free(r);

    r = load_reflection("fixtures/spirv/bindless.json", "spirv", "bindless");
    load_code("fixtures/spirv/bindless.spv", "spirv", &code);
    dgpb_param_select b = {DGPB_TARGET_SPIRV, "bindless", r,   code.spirv, false, bindless, 1,
                           &code.bindings,    NULL,       NULL};
    build_job heap = {&b, 4};
    assert_int_equal(support_run_with_faults(op_build_table, &heap, DGPB_OK, "params heap"), 10);
    free_code(&code);
    reflection_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dream_mode_strips_the_entry_prefix_and_keeps_value_field_names),
        cmocka_unit_test(test_ptx_rows_carry_byte_offsets_as_bindings_and_the_spirv_written_flags),
        cmocka_unit_test(test_the_longest_entry_name_of_the_group_owns_a_global),
        cmocka_unit_test(test_value_rows_keep_their_field_names_whatever_block_they_come_from),
        cmocka_unit_test(
            test_unprefixed_globals_belong_to_an_entry_only_through_its_spirv_interface),
        cmocka_unit_test(test_plain_mode_keeps_the_spirv_interface_in_declaration_order),
        cmocka_unit_test(test_plain_mode_keeps_names_whole),
        cmocka_unit_test(test_loose_uniforms_come_with_the_implicit_global_block),
        cmocka_unit_test(test_rows_only_the_code_can_place_take_their_place_from_its_variable),
        cmocka_unit_test(test_entry_point_uniforms_get_launch_rows_and_the_codes_bindings),
        cmocka_unit_test(test_struct_globals_are_rows_through_the_variables_that_carry_them),
        cmocka_unit_test(test_values_come_with_their_blocks_variable_and_resources_with_their_own),
        cmocka_unit_test(
            test_loose_uniforms_are_left_out_when_the_code_does_not_read_the_global_block),
        cmocka_unit_test(test_read_only_comes_from_the_kind_and_written_only_from_spirv),
        cmocka_unit_test(test_without_usable_spirv_every_global_counts_and_nothing_is_written),
        cmocka_unit_test(test_webgpu_ids_are_kept_on_wgsl_and_zero_elsewhere),
        cmocka_unit_test(test_offset_and_size_are_kept_only_for_value_rows),
        cmocka_unit_test(
            test_a_used_parameter_without_a_kind_is_an_error_naming_target_entry_and_parameter),
        cmocka_unit_test(test_a_used_wgsl_parameter_with_a_problem_is_an_error),
        cmocka_unit_test(test_a_parameter_the_entry_does_not_use_may_have_a_problem),
        cmocka_unit_test(
            test_values_of_a_block_the_code_dropped_are_no_rows_though_its_resources_are),
        cmocka_unit_test(test_a_used_row_the_code_cannot_place_is_an_error_naming_its_variable),
        cmocka_unit_test(test_a_bindless_heap_the_code_binds_gets_a_handle_row_at_its_place),
        cmocka_unit_test(test_a_used_bool_value_is_an_error_on_wgsl_only),
        cmocka_unit_test(test_every_refused_shape_the_code_uses_is_an_error_with_its_rewrite),
        cmocka_unit_test(
            test_input_attachments_and_texel_buffers_are_shaped_from_reflection_and_code_and_proved),
        cmocka_unit_test(test_rows_declared_for_the_entry_but_unused_by_its_code_are_marked),
        cmocka_unit_test(test_value_block_names_are_the_entry_name_and_params),
        cmocka_unit_test(test_rows_that_would_share_a_name_are_named_by_what_holds_them),
        cmocka_unit_test(test_rows_that_still_share_a_name_are_named_by_namespace),
        cmocka_unit_test(test_an_entry_without_parameters_gets_an_empty_table),
        cmocka_unit_test(test_every_failed_allocation_gives_nomem_and_leaks_nothing),
        cmocka_unit_test(test_failed_allocations_with_code_bindings_give_nomem_and_leak_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
