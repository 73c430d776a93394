/*
 * test_binding_proof.c - a parameter table proved against the code it ships
 * (tables/binding_proof.h).
 *
 * Two kinds of input. Tables, code bindings and PTX modules built in memory,
 * one matching set per target, then tampered with one change at a time: each
 * change must be refused with a message that names the code's variable (or
 * kernel parameter) and its place, or the row. And real code:
 * fixtures/proof/proof.slang compiled by the embedded Slang (2025.15) with
 *
 *   tools/slangc-wasm/slangc-wasm fixtures/proof/proof.slang -target T -entry k \
 *       -stage compute -o fixtures/proof/proof.X -reflection-json fixtures/proof/proof_T.json
 *
 * for T in spirv (proof.spv), wgsl (proof.wgsl), cuda (the ptx target's
 * reflection; no code) and ptx (proof.ptx, through nvcc): analysed and
 * scanned, its tables built by param_table_build, proved, then tampered;
 * and the plain modules of fixtures/reflect/ with their code, proved
 * (padding.slang's rows also resized up to and past their blocks' tail
 * padding).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tables/binding_proof.h"
#include "code/code_bindings.h"
#include "dgpb/dgpb.h"
#include "bundle/model.h"
#include "tables/params.h"
#include "code/ptx/ptx_scan.h"
#include "tables/reflect.h"
#include "code/spirv/spirv_analysis.h"
#include "code/spirv/spirv_bindings.h"
#include "code/wgsl/wgsl_bindings.h"
#include "code/wgsl/wgsl_scan.h"
#include "support.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define LAUNCH DGPB_SPACE_LAUNCH
#define INLINE DGPB_BINDING_INLINE
#define MAX_ITEMS 32

/* ---- in-memory tables and code ------------------------------------------------ */

/* A table that owns nothing (literal names); rows are used by the code unless marked. */
typedef struct table {
    dgpb_param_desc rows[MAX_ITEMS];
    bool in_code[MAX_ITEMS];
    dgpb_param_table view;
} table;

/* The id of a target the tests name by its name. */
static dgpb_target_id target_of(const char *name)
{
    int id = dgpb_target_from_name(name, strlen(name));
    if (id < 0)
        fail_msg("unknown target '%s'", name);
    return (dgpb_target_id)id;
}

static dgpb_param_desc *add_row(table *t, const char *name, uint32_t kind, uint32_t space,
                                uint32_t binding, uint32_t offset, uint32_t size, uint32_t id)
{
    assert_true(t->view.count < MAX_ITEMS);
    uint32_t i = t->view.count++;
    dgpb_param_desc *p = &t->rows[i];
    memset(p, 0, sizeof *p);
    p->name = name;
    p->kind = kind;
    p->flags = dgpb_kind_required_flags(kind);
    p->space = space;
    p->binding = binding;
    p->offset = offset;
    p->size = size;
    p->webgpu_layout = id;
    t->in_code[i] = true;
    t->view.rows = t->rows;
    t->view.in_code = t->in_code;
    return p;
}

static dgpb_param_desc *row_named(table *t, const char *name)
{
    for (uint32_t i = 0; i < t->view.count; i++)
        if (!strcmp(t->rows[i].name, name))
            return &t->rows[i];
    fail_msg("no row '%s'", name);
    return NULL;
}

static void remove_row(table *t, const char *name)
{
    dgpb_param_desc *p = row_named(t, name);
    uint32_t i = (uint32_t)(p - t->rows);
    memmove(&t->rows[i], &t->rows[i + 1], (t->view.count - i - 1) * sizeof t->rows[0]);
    memmove(&t->in_code[i], &t->in_code[i + 1], (t->view.count - i - 1) * sizeof t->in_code[0]);
    t->view.count--;
}

/* The bindings a code declares (literal names). */
typedef struct code {
    dgpb_code_binding items[MAX_ITEMS];
    dgpb_code_bindings view;
} code;

static dgpb_code_binding *bind(code *c, const char *name, int64_t space, int64_t binding,
                               uint32_t cls)
{
    assert_true(c->view.count < MAX_ITEMS);
    dgpb_code_binding *b = &c->items[c->view.count++];
    memset(b, 0, sizeof *b);
    b->name = name;
    b->space = space;
    b->binding = binding;
    b->cls = cls;
    c->view.items = c->items;
    return b;
}

static dgpb_code_binding *binding_named(code *c, const char *name)
{
    for (size_t i = 0; i < c->view.count; i++)
        if (!strcmp(c->items[i].name, name))
            return &c->items[i];
    fail_msg("no binding '%s'", name);
    return NULL;
}

static int prove(const char *target, const char *entry, const table *t, const code *c,
                 const dgpb_ptx_module *ptx, dgpb_diag *diag)
{
    dgpb_proof_input in = {target_of(target), entry, &t->view, c ? &c->view : NULL, ptx, false};
    dgpb_diag_clear(diag);
    return binding_proof_check(&in, diag);
}

static void expect_proved(const char *target, const table *t, const code *c,
                          const dgpb_ptx_module *ptx)
{
    dgpb_diag diag;
    int rc = prove(target, "k", t, c, ptx, &diag);
    if (rc != DGPB_OK)
        fail_msg("%s: %d %s", target, rc, diag.message);
}

static void expect_refused(const char *target, const table *t, const code *c,
                           const dgpb_ptx_module *ptx, const char *message)
{
    dgpb_diag diag;
    int rc = prove(target, "k", t, c, ptx, &diag);
    if (rc != DGPB_ERR_SHADER)
        fail_msg("%s: result %d, expected DGPB_ERR_SHADER with '%s'", target, rc, message);
    assert_int_equal(diag.code, DGPB_ERR_SHADER);
    assert_contains(diag.message, message);
}

/* ---- spirv -------------------------------------------------------------------- */

/*
 * A ConstantBuffer holding a texture (cb: values around cb.tex), a storage
 * buffer, a sampler, a storage texture, an acceleration structure, a uniform
 * buffer in set 1 and a push-constant block, as Slang declares them in SPIR-V.
 */
static void spirv_code(code *c)
{
    memset(c, 0, sizeof *c);
    bind(c, "cb", 0, 0, DGPB_CODE_UNIFORM_BLOCK)->block_size = 24;
    bind(c, "cb.tex", 0, 1, DGPB_CODE_TEXTURE);
    bind(c, "result", 0, 2, DGPB_CODE_STORAGE_BUFFER);
    bind(c, "smp", 0, 3, DGPB_CODE_SAMPLER);
    bind(c, "img", 0, 4, DGPB_CODE_STORAGE_TEXTURE)->writable = true;
    bind(c, "scene", 0, 5, DGPB_CODE_ACCELERATION_STRUCTURE);
    bind(c, "light", 1, 0, DGPB_CODE_UNIFORM_BLOCK)->block_size = 32;
    bind(c, "pc", -1, -1, DGPB_CODE_PUSH_CONSTANT)->block_size = 12;
}

static void spirv_table(table *t)
{
    memset(t, 0, sizeof *t);
    add_row(t, "cb.tint", DGPB_KIND_VALUE, 0, 0, 0, 16, 0);
    add_row(t, "cb.tex", DGPB_KIND_TEXTURE, 0, 1, 0, 0, 0);
    add_row(t, "cb.size", DGPB_KIND_VALUE, 0, 0, 16, 8, 0);
    add_row(t, "result", DGPB_KIND_RW_BUFFER, 0, 2, 0, 0, 0);
    add_row(t, "smp", DGPB_KIND_SAMPLER, 0, 3, 0, 0, 0);
    add_row(t, "img", DGPB_KIND_RW_TEXTURE, 0, 4, 0, 0, 0);
    add_row(t, "scene", DGPB_KIND_ACCELERATION_STRUCTURE, 0, 5, 0, 0, 0);
    add_row(t, "light", DGPB_KIND_UNIFORM_BUFFER, 1, 0, 0, 32, 0);
    add_row(t, "pc.count", DGPB_KIND_VALUE, LAUNCH, 0, 0, 4, 0);
    add_row(t, "pc.mul", DGPB_KIND_VALUE, LAUNCH, 0, 4, 4, 0);
    add_row(t, "pc.add", DGPB_KIND_VALUE, LAUNCH, 0, 8, 4, 0);
}

/*
 * A plain-data block (cbuffer Dims { uint count; float scale; float bias; uint
 * pad; }): its uniform_buffer row, then a value row per member at its place
 * (docs/format.md). Each field row must start at a member and cover it, and
 * each member of the code's block must have its row.
 */
static void test_a_blocks_field_rows_are_proved_against_its_members(void **state)
{
    (void)state;
    static const dgpb_spirv_member members[] = {{0, 4}, {4, 4}, {8, 4}, {12, 4}};
    static const char *const names[] = {"count", "scale", "bias", "pad"};
    table t;
    code c;
    memset(&t, 0, sizeof t);
    memset(&c, 0, sizeof c);
    dgpb_code_binding *dims = bind(&c, "Dims", 0, 0, DGPB_CODE_UNIFORM_BLOCK);
    dims->block_size = 16;
    dims->members = members;
    dims->member_count = 4;
    add_row(&t, "Dims", DGPB_KIND_UNIFORM_BUFFER, 0, 0, 0, 16, 0);
    for (uint32_t i = 0; i < 4; i++)
        add_row(&t, names[i], DGPB_KIND_VALUE, 0, 0, 4 * i, 4, 0);
    expect_proved("spirv", &t, &c, NULL);
    /* A member without its row: a host could not fill it. */
    table missing = t;
    missing.view.rows = missing.rows;
    missing.view.in_code = missing.in_code;
    remove_row(&missing, "bias");
    expect_refused("spirv", &missing, &c, NULL,
                   "member 2 of the code's block 'Dims' (set 0, binding 0, offset 8, 4 bytes) has "
                   "no field row");
    /* A row that starts inside a member, or covers less than it. */
    table moved = t;
    moved.view.rows = moved.rows;
    moved.view.in_code = moved.in_code;
    row_named(&moved, "scale")->offset = 6;
    expect_refused("spirv", &moved, &c, NULL,
                   "field row 'scale' (bytes 6..10) is no member of the code's block 'Dims'");
    table short_row = t;
    short_row.view.rows = short_row.rows;
    short_row.view.in_code = short_row.in_code;
    row_named(&short_row, "pad")->size = 2;
    expect_refused("spirv", &short_row, &c, NULL, "field row 'pad' (bytes 12..14) is no member");
    /* Where the code's members are not known (WGSL's scan), the rows are checked against the
       block's size only. */
    dims->member_count = 0;
    expect_proved("spirv", &missing, &c, NULL);
}

/* A structured buffer row's size is its element stride, proved against the SPIR-V's ArrayStride. */
static void test_a_structured_buffers_stride_is_proved_against_the_array_stride(void **state)
{
    (void)state;
    table t;
    code c;
    memset(&t, 0, sizeof t);
    memset(&c, 0, sizeof c);
    bind(&c, "things", 0, 0, DGPB_CODE_STORAGE_BUFFER)->element_stride = 8;
    add_row(&t, "things", DGPB_KIND_RW_BUFFER, 0, 0, 0, 8, 0);
    expect_proved("spirv", &t, &c, NULL);
    /* A host that took 4-byte elements would count twice as many (GetDimensions). */
    t.rows[0].size = 4;
    expect_refused("spirv", &t, &c, NULL,
                   "parameter 'things' gives an element stride of 4 bytes, but the code's "
                   "'things' (set 0, binding 0) has elements of 8 bytes");
}

static void test_a_spirv_table_that_matches_its_code_is_proved(void **state)
{
    (void)state;
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    expect_proved("spirv", &t, &c, NULL);
    /* The order of rows and bindings does not matter. */
    table reversed = t;
    for (uint32_t i = 0; i < t.view.count; i++)
        reversed.rows[i] = t.rows[t.view.count - 1 - i];
    reversed.view.rows = reversed.rows;
    reversed.view.in_code = reversed.in_code;
    code backwards = c;
    for (size_t i = 0; i < c.view.count; i++)
        backwards.items[i] = c.items[c.view.count - 1 - i];
    backwards.view.items = backwards.items;
    expect_proved("spirv", &reversed, &backwards, NULL);
    /* Without in_code flags every row counts as used. */
    t.view.in_code = NULL;
    expect_proved("spirv", &t, &c, NULL);
    /* Nothing declared, nothing described. */
    table none = {0};
    code empty = {0};
    expect_proved("spirv", &none, &empty, NULL);
}

static void
test_a_binding_without_its_row_is_refused_naming_the_variable_and_its_place(void **state)
{
    (void)state;
    static const struct {
        const char *row, *message;
    } cases[] = {
        {"result", "target 'spirv', entry 'k': the code binds 'result' (a storage buffer at set 0, "
                   "binding 2), which no parameter row describes: a host would leave it unbound"},
        {"cb.tex", "the code binds 'cb.tex' (a sampled texture at set 0, binding 1)"},
        {"light", "the code binds 'light' (a uniform buffer at set 1, binding 0)"},
        {"scene", "acceleration structure at set 0, binding 5), which no parameter row describes"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        table t;
        code c;
        spirv_table(&t);
        spirv_code(&c);
        remove_row(&t, cases[i].row);
        expect_refused("spirv", &t, &c, NULL, cases[i].message);
    }
    /* Both value rows of a uniform block gone: the block has no row. */
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    remove_row(&t, "cb.tint");
    expect_proved("spirv", &t, &c, NULL); /* one value row still describes cb */
    remove_row(&t, "cb.size");
    expect_refused("spirv", &t, &c, NULL,
                   "the code binds 'cb' (a uniform buffer at set 0, binding 0)");
}

static void test_a_moved_binding_is_refused_from_the_code_side_and_the_row_side(void **state)
{
    (void)state;
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    row_named(&t, "result")->binding = 7;
    expect_refused("spirv", &t, &c, NULL,
                   "the code binds 'result' (a storage buffer at set 0, binding 2)");
    /* A row at a place the code does not have, while every binding has its row. */
    spirv_table(&t);
    add_row(&t, "ghost", DGPB_KIND_BUFFER, 0, 9, 0, 0, 0);
    expect_refused("spirv", &t, &c, NULL,
                   "target 'spirv', entry 'k': parameter 'ghost' (buffer at space 0, binding 9) "
                   "matches no binding in the code");
    /* The same place in another space is another place. */
    spirv_table(&t);
    row_named(&t, "light")->space = 2;
    expect_refused("spirv", &t, &c, NULL,
                   "the code binds 'light' (a uniform buffer at set 1, binding 0)");
}

static void test_a_row_whose_kind_cannot_describe_the_binding_is_refused(void **state)
{
    (void)state;
    static const struct {
        const char *row;
        uint32_t kind;
        const char *message;
    } cases[] = {
        {"result", DGPB_KIND_TEXTURE,
         "target 'spirv', entry 'k': parameter 'result' is a texture row, but the code declares "
         "'result' (set 0, binding 2) there as a storage buffer"},
        {"img", DGPB_KIND_TEXTURE,
         "parameter 'img' is a texture row, but the code declares 'img' (set 0, binding 4) there "
         "as a storage texture"},
        {"cb.tex", DGPB_KIND_RW_TEXTURE,
         "parameter 'cb.tex' is a rw_texture row, but the code declares 'cb.tex' (set 0, binding "
         "1) there as a sampled texture"},
        {"smp", DGPB_KIND_TEXTURE,
         "parameter 'smp' is a texture row, but the code declares 'smp' (set 0, binding 3) there "
         "as a sampler"},
        {"light", DGPB_KIND_BUFFER,
         "parameter 'light' is a buffer row, but the code declares 'light' (set 1, binding 0) "
         "there as a uniform buffer"},
        {"scene", DGPB_KIND_BUFFER,
         "parameter 'scene' is a buffer row, but the code declares 'scene' (set 0, binding 5) "
         "there as a"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        table t;
        code c;
        spirv_table(&t);
        spirv_code(&c);
        row_named(&t, cases[i].row)->kind = cases[i].kind;
        expect_refused("spirv", &t, &c, NULL, cases[i].message);
    }
    /* Every kind of buffer describes a storage buffer. */
    static const uint32_t buffers[] = {DGPB_KIND_BUFFER, DGPB_KIND_RW_BUFFER, DGPB_KIND_BYTE_BUFFER,
                                       DGPB_KIND_RW_BYTE_BUFFER, DGPB_KIND_MLP_WEIGHTS};
    for (size_t i = 0; i < ARRAY_LEN(buffers); i++) {
        table t;
        code c;
        spirv_table(&t);
        spirv_code(&c);
        row_named(&t, "result")->kind = buffers[i];
        expect_proved("spirv", &t, &c, NULL);
    }
}

static void test_classes_no_row_describes_are_refused_whatever_the_row(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        uint32_t cls;
        const char *what;
    } classes[] = {
        {"albedo", DGPB_CODE_COMBINED, "combined texture-sampler"},
        {"typed", DGPB_CODE_TEXEL_BUFFER, "uniform texel buffer"},
        {"gbuf", DGPB_CODE_INPUT_ATTACHMENT, "input attachment"},
        {"odd", DGPB_CODE_OTHER, "resource"},
    };
    static const uint32_t kinds[] = {DGPB_KIND_TEXTURE, DGPB_KIND_SAMPLER, DGPB_KIND_BUFFER,
                                     DGPB_KIND_HANDLE};
    for (size_t c = 0; c < ARRAY_LEN(classes); c++)
        for (size_t k = 0; k < ARRAY_LEN(kinds); k++) {
            table t;
            code cd;
            spirv_table(&t);
            spirv_code(&cd);
            bind(&cd, classes[c].name, 0, 7, classes[c].cls);
            add_row(&t, classes[c].name, kinds[k], 0, 7, 0, 0, 0);
            char message[256];
            snprintf(message, sizeof message,
                     "but the code declares '%s' (set 0, binding 7) there as a %s", classes[c].name,
                     classes[c].what);
            expect_refused("spirv", &t, &cd, NULL, message);
        }
}

static void test_an_array_binding_takes_a_handle_row_only(void **state)
{
    (void)state;
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    bind(&c, "many", 0, 6, DGPB_CODE_TEXTURE)->is_array = true;
    add_row(&t, "many", DGPB_KIND_TEXTURE, 0, 6, 0, 0, 0);
    expect_refused("spirv", &t, &c, NULL,
                   "parameter 'many' is a texture row, but the code declares 'many' (set 0, "
                   "binding 6) as a runtime array");
    /* An unbounded texture row is proved against it (docs/format.md, "Unbounded arrays"). */
    row_named(&t, "many")->flags |= DGPB_FLAG_UNBOUNDED;
    expect_proved("spirv", &t, &c, NULL);
    row_named(&t, "many")->kind = DGPB_KIND_HANDLE;
    row_named(&t, "many")->flags = dgpb_kind_required_flags(DGPB_KIND_HANDLE);
    expect_proved("spirv", &t, &c, NULL);
    /* A heap of samplers likewise; a handle row on a single texture is not one. */
    bind(&c, "__slang_sampler_heap", 1, 1, DGPB_CODE_SAMPLER)->is_array = true;
    add_row(&t, "__slang_sampler_heap", DGPB_KIND_HANDLE, 1, 1, 0, 0, 0);
    expect_proved("spirv", &t, &c, NULL);
    row_named(&t, "cb.tex")->kind = DGPB_KIND_HANDLE;
    expect_refused("spirv", &t, &c, NULL,
                   "parameter 'cb.tex' is a handle row, but the code declares 'cb.tex'");
}

/*
 * A fixed array of resources (Texture2D maps[3]: OpTypeArray of length 3) is
 * one row per element at the array's place, of one kind (docs/format.md):
 * fewer or more rows than its length, a row of another kind among them, or a
 * handle row are refused.
 */
static void test_a_fixed_array_takes_one_row_per_element(void **state)
{
    (void)state;
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    dgpb_code_binding *maps = bind(&c, "maps", 0, 6, DGPB_CODE_TEXTURE);
    maps->is_array = true;
    maps->array_length = 3;
    add_row(&t, "maps[0]", DGPB_KIND_TEXTURE, 0, 6, 0, 0, 0);
    add_row(&t, "maps[1]", DGPB_KIND_TEXTURE, 0, 6, 0, 0, 0);
    expect_refused("spirv", &t, &c, NULL,
                   "target 'spirv', entry 'k': the code's 'maps' (set 0, binding 6) is an array "
                   "of 3 descriptors, but 2 parameter rows describe it (from 'maps[0]')");
    add_row(&t, "maps[2]", DGPB_KIND_TEXTURE, 0, 6, 0, 0, 0);
    expect_proved("spirv", &t, &c, NULL);
    add_row(&t, "maps[3]", DGPB_KIND_TEXTURE, 0, 6, 0, 0, 0);
    expect_refused("spirv", &t, &c, NULL, "is an array of 3 descriptors, but 4 parameter rows");
    remove_row(&t, "maps[3]");
    row_named(&t, "maps[1]")->kind = DGPB_KIND_RW_TEXTURE;
    expect_refused("spirv", &t, &c, NULL,
                   "parameters 'maps[0]' and 'maps[1]' both claim the code's sampled texture "
                   "'maps' (set 0, binding 6)");
    row_named(&t, "maps[1]")->kind = DGPB_KIND_TEXTURE;
    for (uint32_t r = 0; r < t.view.count; r++)
        if (!strncmp(t.rows[r].name, "maps[", 5))
            t.rows[r].kind = DGPB_KIND_HANDLE;
    expect_refused("spirv", &t, &c, NULL,
                   "parameter 'maps[0]' is a handle row, but the code declares an array 'maps' "
                   "(set 0, binding 6) there as a sampled texture");
}

static void test_two_resource_rows_on_one_binding_are_refused_naming_both(void **state)
{
    (void)state;
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    add_row(&t, "shadow", DGPB_KIND_RW_BUFFER, 0, 2, 0, 0, 0);
    expect_refused("spirv", &t, &c, NULL,
                   "target 'spirv', entry 'k': parameters 'result' and 'shadow' both claim the "
                   "code's storage buffer 'result' (set 0, binding 2)");
    /* A value row cannot share a resource's binding either. */
    spirv_table(&t);
    row_named(&t, "cb.size")->binding = 1;
    expect_refused("spirv", &t, &c, NULL,
                   "both claim the code's sampled texture 'cb.tex' (set 0, binding 1)");
    /* Nor a uniform_buffer row a block that value rows describe. */
    spirv_table(&t);
    add_row(&t, "cb", DGPB_KIND_UNIFORM_BUFFER, 0, 0, 0, 0, 0);
    expect_refused("spirv", &t, &c, NULL,
                   "parameters 'cb.tint' and 'cb' both claim the code's uniform buffer 'cb'");
}

static void test_a_value_row_past_its_blocks_bytes_is_refused(void **state)
{
    (void)state;
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    row_named(&t, "cb.size")->offset = 20; /* bytes 20..28 of a 24-byte block */
    expect_refused("spirv", &t, &c, NULL,
                   "target 'spirv', entry 'k': parameter 'cb.size' (bytes 20..28) lies outside the "
                   "code's uniform block 'cb' (set 0, binding 0, 24 bytes)");
    /* Up to the last byte is inside. */
    row_named(&t, "cb.size")->offset = 16;
    expect_proved("spirv", &t, &c, NULL);
    /* A block whose size the code does not tell bounds nothing. */
    row_named(&t, "cb.size")->offset = 4096;
    binding_named(&c, "cb")->block_size = 0;
    expect_proved("spirv", &t, &c, NULL);
}

/* A uniform_buffer row carries its block's size as the code declares it (std140 rounds a block
   up: fields ending at 20 in a 32-byte block), so a host that sizes the buffer by it has it all. */
static void test_a_uniform_buffer_rows_size_is_the_code_blocks(void **state)
{
    (void)state;
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    row_named(&t, "light")->size = 20;
    expect_refused("spirv", &t, &c, NULL,
                   "target 'spirv', entry 'k': parameter 'light' gives a block of 20 bytes, but "
                   "the code's uniform block 'light' (set 1, binding 0) is 32 bytes");
    row_named(&t, "light")->size = 0;
    expect_refused("spirv", &t, &c, NULL, "parameter 'light' gives a block of 0 bytes");
    row_named(&t, "light")->size = 32;
    expect_proved("spirv", &t, &c, NULL);
    /* A block whose size the code does not tell proves any. */
    binding_named(&c, "light")->block_size = 0;
    row_named(&t, "light")->size = 20;
    expect_proved("spirv", &t, &c, NULL);
}

/* A shader record's block (ShaderRecordBufferKHR) is described by value rows of the
   shader-record space, inside the block; one the rows leave out is refused. */
static void test_a_shader_record_is_value_rows_of_its_space(void **state)
{
    (void)state;
    table t;
    code c;
    memset(&t, 0, sizeof t);
    memset(&c, 0, sizeof c);
    bind(&c, "camera", DGPB_SPACE_SHADER_RECORD, 0, DGPB_CODE_SHADER_RECORD)->block_size = 96;
    add_row(&t, "camera.origin", DGPB_KIND_VALUE, DGPB_SPACE_SHADER_RECORD, 0, 64, 16, 0);
    add_row(&t, "camera.frame", DGPB_KIND_VALUE, DGPB_SPACE_SHADER_RECORD, 0, 80, 4, 0);
    expect_proved("spirv", &t, &c, NULL);
    row_named(&t, "camera.frame")->offset = 96;
    expect_refused("spirv", &t, &c, NULL,
                   "parameter 'camera.frame' (bytes 96..100) lies outside the code's uniform "
                   "block 'camera' (space shader_record, 96 bytes)");
    memset(&t, 0, sizeof t);
    add_row(&t, "camera", DGPB_KIND_UNIFORM_BUFFER, DGPB_SPACE_SHADER_RECORD, 0, 0, 96, 0);
    expect_refused("spirv", &t, &c, NULL, "parameter 'camera' is a uniform_buffer row");
    memset(&t, 0, sizeof t);
    expect_refused("spirv", &t, &c, NULL,
                   "the code binds 'camera' (a shader record at space shader_record), which no "
                   "parameter row describes");
}

static void test_push_constants_need_launch_rows_of_values_inside_the_block(void **state)
{
    (void)state;
    table t;
    code c;
    /* The block without rows. */
    spirv_table(&t);
    spirv_code(&c);
    remove_row(&t, "pc.count");
    remove_row(&t, "pc.mul");
    remove_row(&t, "pc.add");
    expect_refused("spirv", &t, &c, NULL,
                   "target 'spirv', entry 'k': the code declares the push-constant block 'pc' (12 "
                   "bytes), which no parameter row describes");
    /* A launch row past the block. */
    spirv_table(&t);
    row_named(&t, "pc.add")->offset = 12;
    expect_refused("spirv", &t, &c, NULL,
                   "parameter 'pc.add' (bytes 12..16) lies outside the code's push-constant block "
                   "'pc' (12 bytes)");
    /* A resource in the launch space. */
    spirv_table(&t);
    add_row(&t, "stray", DGPB_KIND_RW_BUFFER, LAUNCH, 0, 0, 0, 0);
    expect_refused("spirv", &t, &c, NULL,
                   "parameter 'stray' is a rw_buffer row in the launch space, but the code's "
                   "push-constant block 'pc' holds values only");
    /* Launch rows without a block. */
    spirv_table(&t);
    code without = c;
    without.view.items = without.items;
    without.view.count--; /* pc is the last binding */
    expect_refused("spirv", &t, &without, NULL,
                   "parameter 'pc.count' is a push constant (space 0xFFFFFFFF), but the code "
                   "declares no push-constant block");
    /* Two blocks: a pipeline has one push-constant range. */
    bind(&c, "pc2", -1, -1, DGPB_CODE_PUSH_CONSTANT)->block_size = 12;
    expect_refused("spirv", &t, &c, NULL,
                   "the code declares 2 push-constant blocks; a pipeline has one push-constant "
                   "range");
}

static void test_rows_the_code_does_not_use_may_lack_a_binding(void **state)
{
    (void)state;
    /* Dream mode's rows for an entry whose code leaves them out. */
    table t;
    code c;
    spirv_table(&t);
    spirv_code(&c);
    add_row(&t, "spare", DGPB_KIND_BUFFER, 0, 9, 0, 0, 0);
    t.in_code[t.view.count - 1] = false;
    add_row(&t, "spare_value", DGPB_KIND_VALUE, 2, 0, 0, 4, 0);
    t.in_code[t.view.count - 1] = false;
    expect_proved("spirv", &t, &c, NULL);
    /* The same rows used by the code are refused. */
    t.in_code[t.view.count - 2] = true;
    expect_refused(
        "spirv", &t, &c, NULL,
        "parameter 'spare' (buffer at space 0, binding 9) matches no binding in the code");
    /* An unused launch row needs no push-constant block. */
    table launch = {0};
    code none = {0};
    add_row(&launch, "unused_push", DGPB_KIND_VALUE, LAUNCH, 0, 0, 4, 0);
    launch.in_code[0] = false;
    expect_proved("spirv", &launch, &none, NULL);
    /* Unused or not, a binding the code declares needs its row. */
    spirv_table(&t);
    t.in_code[3] = false; /* result */
    expect_proved("spirv", &t, &c, NULL);
    remove_row(&t, "result");
    expect_refused("spirv", &t, &c, NULL, "the code binds 'result'");
}

/* ---- wgsl ---------------------------------------------------------------------- */

/* Each WGSL binding's shape, from its type's parts, as code_bindings_from_wgsl() fills it. */
static void wgsl_shapes(code *c)
{
    for (size_t i = 0; i < c->view.count; i++)
        c->items[i].shape = code_wgsl_shape(&c->items[i]);
}

/* proof.slang's bindings as Slang writes them in WGSL. */
static void wgsl_code(code *c)
{
    memset(c, 0, sizeof *c);
    bind(c, "globalParams_0", 0, 0, DGPB_CODE_UNIFORM_BLOCK)->detail = "GlobalParams_std140_0";
    bind(c, "pair_src_0", 0, 1, DGPB_CODE_STORAGE_BUFFER)->detail = "array<f32>";
    dgpb_code_binding *dst = bind(c, "pair_dst_0", 0, 2, DGPB_CODE_STORAGE_BUFFER);
    dst->detail = "array<f32>";
    dst->writable = true;
    dgpb_code_binding *tex = bind(c, "tex_0", 0, 3, DGPB_CODE_TEXTURE);
    tex->detail = "texture_2d<f32>";
    tex->dimension = "2d";
    tex->sample_type = "f32";
    bind(c, "smp_0", 0, 4, DGPB_CODE_SAMPLER)->detail = "sampler";
    dgpb_code_binding *img = bind(c, "image_0", 0, 5, DGPB_CODE_STORAGE_TEXTURE);
    img->detail = "texture_storage_2d<r32float, read_write>";
    img->dimension = "2d";
    img->texel_format = "r32float";
    img->access = "read_write";
    img->writable = true;
    wgsl_shapes(c);
}

/* The shapes of wgsl_code's texture and storage texture (docs/format.md, "Shapes"). */
#define TEX_2D_FLOAT (DGPB_DIM_2D | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT)
#define IMAGE_R32FLOAT                                                                             \
    (TEX_2D_FLOAT | DGPB_TEXEL_R32FLOAT << DGPB_SHAPE_FORMAT_SHIFT |                               \
     DGPB_ACCESS_READ_WRITE << DGPB_SHAPE_ACCESS_SHIFT)

static void wgsl_table(table *t)
{
    memset(t, 0, sizeof *t);
    add_row(t, "gain", DGPB_KIND_VALUE, 0, 0, 0, 4, DGPB_WGPU_UNIFORM_BUFFER);
    add_row(t, "pair.src", DGPB_KIND_BUFFER, 0, 1, 0, 0, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER);
    add_row(t, "pair.dst", DGPB_KIND_RW_BUFFER, 0, 2, 0, 0, DGPB_WGPU_STORAGE_BUFFER);
    add_row(t, "tex", DGPB_KIND_TEXTURE, 0, 3, TEX_2D_FLOAT, 0, DGPB_WGPU_TEXTURE_2D_FLOAT);
    add_row(t, "smp", DGPB_KIND_SAMPLER, 0, 4, 0, 0, DGPB_WGPU_FILTERING_SAMPLER);
    add_row(t, "image", DGPB_KIND_RW_TEXTURE, 0, 5, IMAGE_R32FLOAT, 0,
            DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT);
}

static void test_a_wgsl_table_that_matches_its_code_is_proved(void **state)
{
    (void)state;
    table t;
    code c;
    wgsl_table(&t);
    wgsl_code(&c);
    expect_proved("wgsl", &t, &c, NULL);
    /* Each storage texture format of the ID table. */
    static const struct {
        const char *format;
        uint32_t id;
    } formats[] = {{"r32float", DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT},
                   {"rg32float", DGPB_WGPU_STORAGE_TEXTURE_2D_RG32FLOAT},
                   {"rgba32float", DGPB_WGPU_STORAGE_TEXTURE_2D_RGBA32FLOAT},
                   {"r32uint", DGPB_WGPU_STORAGE_TEXTURE_2D_R32UINT}};
    for (size_t f = 0; f < ARRAY_LEN(formats); f++) {
        binding_named(&c, "image_0")->texel_format = formats[f].format;
        wgsl_shapes(&c);
        row_named(&t, "image")->webgpu_layout = formats[f].id;
        row_named(&t, "image")->offset = code_wgsl_shape(binding_named(&c, "image_0"));
        expect_proved("wgsl", &t, &c, NULL);
    }
}

static void test_a_wgsl_binding_without_its_row_is_refused_naming_group_and_binding(void **state)
{
    (void)state;
    table t;
    code c;
    wgsl_table(&t);
    wgsl_code(&c);
    remove_row(&t, "pair.dst");
    expect_refused("wgsl", &t, &c, NULL,
                   "target 'wgsl', entry 'k': the code binds 'pair_dst_0' (a storage buffer at "
                   "@group(0) @binding(2)), which no parameter row describes");
    wgsl_table(&t);
    row_named(&t, "tex")->binding = 6;
    expect_refused("wgsl", &t, &c, NULL,
                   "the code binds 'tex_0' (a sampled texture at @group(0) @binding(3))");
}

/*
 * On wgsl the block members and element strides come from WGSL's layout rules
 * over the code's text (code_bindings_add_wgsl_layouts): a field row off
 * its member, a member without its row, and a wrong stride are refused as on
 * spirv.
 */
static void test_wgsl_field_rows_and_strides_are_proved_against_the_wgsl_layout(void **state)
{
    (void)state;
    static const char text[] =
        "struct Dims_std140_0 { count_0 : u32, dir_0 : vec3<f32>, scale_0 : f32, };\n"
        "@group(0) @binding(0) var<uniform> dims_0 : Dims_std140_0;\n"
        "@group(0) @binding(1) var<storage, read_write> out_0 : array<vec3<f32>>;\n";
    dgpb_wgsl_module *m = NULL;
    dgpb_code_bindings bindings = {0};
    dgpb_diag diag;
    assert_int_equal(wgsl_module_scan(text, sizeof text - 1, &m, &diag), DGPB_OK);
    assert_int_equal(code_bindings_from_wgsl(m, &bindings, &diag), DGPB_OK);
    assert_int_equal(code_bindings_add_wgsl_layouts(&bindings, text, sizeof text - 1, &diag),
                     DGPB_OK);
    table t;
    memset(&t, 0, sizeof t);
    add_row(&t, "dims", DGPB_KIND_UNIFORM_BUFFER, 0, 0, 0, 0, DGPB_WGPU_UNIFORM_BUFFER);
    add_row(&t, "count", DGPB_KIND_VALUE, 0, 0, 0, 4, DGPB_WGPU_UNIFORM_BUFFER);
    add_row(&t, "dir", DGPB_KIND_VALUE, 0, 0, 16, 12, DGPB_WGPU_UNIFORM_BUFFER);
    add_row(&t, "scale", DGPB_KIND_VALUE, 0, 0, 28, 4, DGPB_WGPU_UNIFORM_BUFFER);
    add_row(&t, "out", DGPB_KIND_RW_BUFFER, 0, 1, 0, 16, DGPB_WGPU_STORAGE_BUFFER);
    dgpb_proof_input in = {DGPB_TARGET_WGSL, "k", &t.view, &bindings, NULL, false};
    if (binding_proof_check(&in, &diag))
        fail_msg("%s", diag.message);
    /* std140-like reading of dir at 4 would miss it: WGSL aligns a vec3 to 16. */
    row_named(&t, "dir")->offset = 4;
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message, "field row 'dir' (bytes 4..16) is no member of the code's "
                                  "block 'dims_0' (@group(0) @binding(0))");
    row_named(&t, "dir")->offset = 16;
    remove_row(&t, "scale");
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message, "member 2 of the code's block 'dims_0' (@group(0) @binding(0), "
                                  "offset 28, 4 bytes) has no field row");
    add_row(&t, "scale", DGPB_KIND_VALUE, 0, 0, 28, 4, DGPB_WGPU_UNIFORM_BUFFER);
    row_named(&t, "out")->size = 12; /* a vec3<f32> is 12 bytes, but its stride 16 */
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message,
                    "parameter 'out' gives an element stride of 12 bytes, but the "
                    "code's 'out_0' (@group(0) @binding(1)) has elements of 16 bytes");
    code_bindings_clear(&bindings);
    wgsl_module_free(m);
}

static void test_a_launch_row_on_wgsl_is_refused(void **state)
{
    (void)state;
    table t;
    code c;
    wgsl_table(&t);
    wgsl_code(&c);
    add_row(&t, "width", DGPB_KIND_VALUE, LAUNCH, 0, 0, 4, DGPB_WGPU_UNIFORM_BUFFER);
    expect_refused("wgsl", &t, &c, NULL,
                   "target 'wgsl', entry 'k': parameter 'width' is a launch parameter, which "
                   "WebGPU does not have");
}

static void test_wgsl_comparison_depth_and_multisampled_bindings_are_proved_by_shape(void **state)
{
    (void)state;
    /* WebGPU binds each (IDs 12, 42, 41): a row that says so is proved; one that does not is
       refused, naming the shape the code declares. */
    static const struct {
        const char *name, *row;
        uint32_t cls, shape, id;
        const char *message;
    } cases[] = {
        {"smp_0", "smp", DGPB_CODE_COMPARISON_SAMPLER, DGPB_SHAPE_COMPARISON, 12,
         "parameter 'smp' has the shape 'none', but the code declares 'smp_0' (@group(0) "
         "@binding(4)) as 'comparison'"},
        {"tex_0", "tex", DGPB_CODE_DEPTH_TEXTURE,
         DGPB_DIM_2D | DGPB_SAMPLE_DEPTH << DGPB_SHAPE_SAMPLE_SHIFT, 32 + 8 + 2,
         "parameter 'tex' has the shape '2d float', but the code declares 'tex_0' (@group(0) "
         "@binding(3)) as '2d depth'"},
        {"tex_0", "tex", DGPB_CODE_MULTISAMPLED_TEXTURE, TEX_2D_FLOAT | DGPB_SHAPE_MULTISAMPLED,
         32 + 8 + 1,
         "parameter 'tex' has the shape '2d float', but the code declares 'tex_0' (@group(0) "
         "@binding(3)) as '2d ms float'"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        table t;
        code c;
        wgsl_table(&t);
        wgsl_code(&c);
        binding_named(&c, cases[i].name)->cls = cases[i].cls;
        wgsl_shapes(&c);
        expect_refused("wgsl", &t, &c, NULL, cases[i].message);
        row_named(&t, cases[i].row)->offset = cases[i].shape;
        row_named(&t, cases[i].row)->webgpu_layout = cases[i].id;
        expect_proved("wgsl", &t, &c, NULL);
    }
    /* A binding without @group/@binding: Slang's push constant. */
    table t;
    code c;
    wgsl_table(&t);
    wgsl_code(&c);
    bind(&c, "pc_0", -1, -1, DGPB_CODE_UNIFORM_BLOCK)->detail = "Push_std430_0";
    expect_refused(
        "wgsl", &t, &c, NULL,
        "target 'wgsl', entry 'k': the code declares the uniform buffer 'pc_0' without "
        "a binding (a push constant: WebGPU has none; declare a plain ConstantBuffer, or "
        "leave wgsl out of --targets)");
    /* On spirv, a binding without its place says so, without WebGPU's advice. */
    table s;
    spirv_table(&s);
    spirv_code(&c);
    bind(&c, "loose", 0, -1, DGPB_CODE_STORAGE_BUFFER);
    dgpb_diag diag;
    assert_int_equal(prove("spirv", "k", &s, &c, NULL, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message, "the code declares the storage buffer 'loose' without a binding");
    if (strstr(diag.message, "WebGPU"))
        fail_msg("%s", diag.message);
}

static void test_a_webgpu_id_that_disagrees_with_the_wgsl_declaration_is_refused(void **state)
{
    (void)state;
    static const struct {
        const char *row;
        uint32_t id;
        const char *binding, *dimension, *sample_type, *format, *message;
    } cases[] = {
        /* read-only ID on a read_write buffer, and the other way round */
        {"pair.dst", DGPB_WGPU_READ_ONLY_STORAGE_BUFFER, NULL, NULL, NULL, NULL,
         "target 'wgsl', entry 'k': parameter 'pair.dst' carries WebGPU ID 2, but the code "
         "declares 'pair_dst_0' (@group(0) @binding(2)) as array<f32>, which is ID 3"},
        {"pair.src", DGPB_WGPU_STORAGE_BUFFER, NULL, NULL, NULL, NULL,
         "parameter 'pair.src' carries WebGPU ID 3, but the code declares 'pair_src_0' "
         "(@group(0) @binding(1)) as array<f32>, which is ID 2"},
        /* a texel format the code does not declare */
        {"image", DGPB_WGPU_STORAGE_TEXTURE_2D_RGBA32FLOAT, NULL, NULL, NULL, NULL,
         "parameter 'image' carries WebGPU ID 8, but the code declares 'image_0' (@group(0) "
         "@binding(5)) as texture_storage_2d<r32float, read_write>, which is ID 6"},
        /* a storage texture or texture of another format, dimension or sample type: its
           shape is not the code's */
        {"image", DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT, "image_0", NULL, NULL, "r32sint",
         "parameter 'image' has the shape '2d float r32float read_write', but the code declares "
         "'image_0' (@group(0) @binding(5)) as '2d sint r32sint read_write'"},
        {"image", DGPB_WGPU_STORAGE_TEXTURE_2D_R32FLOAT, "image_0", "2d_array", NULL, NULL,
         "parameter 'image' has the shape '2d float r32float read_write', but the code declares "
         "'image_0' (@group(0) @binding(5)) as '2d_array float r32float read_write'"},
        {"tex", DGPB_WGPU_TEXTURE_2D_FLOAT, "tex_0", "3d", NULL, NULL,
         "parameter 'tex' has the shape '2d float', but the code declares 'tex_0' (@group(0) "
         "@binding(3)) as '3d float'"},
        {"tex", DGPB_WGPU_TEXTURE_2D_FLOAT, "tex_0", NULL, "u32", NULL,
         "parameter 'tex' has the shape '2d float', but the code declares 'tex_0' (@group(0) "
         "@binding(3)) as '2d uint'"},
        /* the shape agrees, the ID does not: a cube map's ID on a 2d texture */
        {"tex", 32 + 3 * 8, NULL, NULL, NULL, NULL,
         "parameter 'tex' carries WebGPU ID 56, but the code declares 'tex_0' (@group(0) "
         "@binding(3)) as texture_2d<f32>, which is ID 5"},
        /* a value or a sampler row without the ID of what the code declares */
        {"gain", DGPB_WGPU_NONE, NULL, NULL, NULL, NULL,
         "parameter 'gain' carries WebGPU ID 0, but the code declares 'globalParams_0' "
         "(@group(0) @binding(0)) as GlobalParams_std140_0, which is ID 1"},
        {"smp", DGPB_WGPU_TEXTURE_2D_FLOAT, NULL, NULL, NULL, NULL,
         "parameter 'smp' carries WebGPU ID 5, but the code declares 'smp_0' (@group(0) "
         "@binding(4)) as sampler, which is ID 4"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        table t;
        code c;
        wgsl_table(&t);
        wgsl_code(&c);
        row_named(&t, cases[i].row)->webgpu_layout = cases[i].id;
        if (cases[i].binding) {
            dgpb_code_binding *b = binding_named(&c, cases[i].binding);
            if (cases[i].dimension)
                b->dimension = cases[i].dimension;
            if (cases[i].sample_type)
                b->sample_type = cases[i].sample_type;
            if (cases[i].format)
                b->texel_format = cases[i].format;
            wgsl_shapes(&c);
        }
        expect_refused("wgsl", &t, &c, NULL, cases[i].message);
    }
}

static void test_unused_wgsl_rows_may_lack_a_binding(void **state)
{
    (void)state;
    table t;
    code c;
    wgsl_table(&t);
    wgsl_code(&c);
    add_row(&t, "spare", DGPB_KIND_BUFFER, 0, 9, 0, 0, DGPB_WGPU_READ_ONLY_STORAGE_BUFFER);
    t.in_code[t.view.count - 1] = false;
    add_row(&t, "spare_push", DGPB_KIND_VALUE, LAUNCH, 0, 0, 4, DGPB_WGPU_UNIFORM_BUFFER);
    t.in_code[t.view.count - 1] = false;
    expect_proved("wgsl", &t, &c, NULL);
}

/* ---- ptx ----------------------------------------------------------------------- */

/* proof.slang's PTX: two kernel parameters (a buffer and a uint), 64 bytes of globals. */
typedef struct ptx_code {
    dgpb_ptx_param params[4];
    dgpb_ptx_entry entry;
    dgpb_ptx_module module;
} ptx_code;

static void ptx_module(ptx_code *p)
{
    memset(p, 0, sizeof *p);
    p->params[0] = (dgpb_ptx_param){
        .name = (char *)"k_param_0", .offset = 0, .size = 16, .align = 8, .used = true};
    p->params[1] = (dgpb_ptx_param){
        .name = (char *)"k_param_1", .offset = 16, .size = 4, .align = 4, .used = true};
    p->entry = (dgpb_ptx_entry){(char *)"k", p->params, 2};
    p->module.entries = &p->entry;
    p->module.entry_count = 1;
    p->module.has_global_params = true;
    p->module.global_params_size = 64;
    p->module.global_params_used = true;
    p->module.global_params_max_read = 64;
}

static void ptx_table(table *t)
{
    memset(t, 0, sizeof *t);
    add_row(t, "pair.src", DGPB_KIND_BUFFER, 0, 0, 0, 0, 0);
    add_row(t, "pair.dst", DGPB_KIND_RW_BUFFER, 0, 16, 0, 0, 0);
    add_row(t, "gain", DGPB_KIND_VALUE, 0, INLINE, 32, 4, 0);
    add_row(t, "tex", DGPB_KIND_TEXTURE, 0, 40, 0, 0, 0);
    add_row(t, "smp", DGPB_KIND_SAMPLER, 0, 48, 0, 0, 0);
    add_row(t, "image", DGPB_KIND_RW_TEXTURE, 0, 56, 0, 0, 0);
    add_row(t, "hits", DGPB_KIND_RW_BUFFER, LAUNCH, 0, 0, 0, 0);
    add_row(t, "width", DGPB_KIND_VALUE, LAUNCH, 0, 16, 4, 0);
}

static void test_a_ptx_table_that_matches_its_kernel_is_proved(void **state)
{
    (void)state;
    table t;
    ptx_code p;
    ptx_table(&t);
    ptx_module(&p);
    expect_proved("ptx", &t, NULL, &p.module);
    /* A value in a constant buffer's memory: its row's binding is the block's 8-byte pointer,
       which must lie in SLANG_globalParams; its offset is in the block's own memory. */
    add_row(&t, "cb.tint", DGPB_KIND_VALUE, 0, 56, 4096, 16, 0);
    expect_proved("ptx", &t, NULL, &p.module);
    row_named(&t, "cb.tint")->binding = 60;
    expect_refused("ptx", &t, NULL, &p.module,
                   "parameter 'cb.tint' (bytes 60..68 of SLANG_globalParams) lies outside it (64 "
                   "bytes)");
    /* Parameters the kernel does not read need no row. */
    ptx_table(&t);
    remove_row(&t, "width");
    p.params[1].used = false;
    expect_proved("ptx", &t, NULL, &p.module);
}

static void test_handles_on_ptx_are_sixteen_bytes_for_buffers_and_eight_for_the_rest(void **state)
{
    (void)state;
    static const struct {
        uint32_t kind, size;
    } sizes[] = {
        {DGPB_KIND_BUFFER, 16},      {DGPB_KIND_RW_BUFFER, 16},
        {DGPB_KIND_BYTE_BUFFER, 16}, {DGPB_KIND_RW_BYTE_BUFFER, 16},
        {DGPB_KIND_MLP_WEIGHTS, 16}, {DGPB_KIND_UNIFORM_BUFFER, 8},
        {DGPB_KIND_TEXTURE, 8},      {DGPB_KIND_RW_TEXTURE, 8},
        {DGPB_KIND_SAMPLER, 8},      {DGPB_KIND_ACCELERATION_STRUCTURE, 8},
        {DGPB_KIND_HANDLE, 8},
    };
    for (size_t i = 0; i < ARRAY_LEN(sizes); i++)
        assert_int_equal(ptx_handle_size(sizes[i].kind), sizes[i].size);
}

static void test_a_launch_row_outside_every_kernel_parameter_is_refused(void **state)
{
    (void)state;
    static const struct {
        const char *row;
        uint32_t binding, offset;
        const char *message;
    } cases[] = {
        {"width", 0, 20,
         "target 'ptx', entry 'k': parameter 'width' (bytes 20..24 of the kernel's parameters) "
         "lies in no parameter of .entry k"},
        /* straddling two parameters */
        {"hits", 8, 0,
         "parameter 'hits' (bytes 8..24 of the kernel's parameters) lies in no "
         "parameter of .entry k"},
        {"width", 0, 14, "parameter 'width' (bytes 14..18 of the kernel's parameters)"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        table t;
        ptx_code p;
        ptx_table(&t);
        ptx_module(&p);
        dgpb_param_desc *r = row_named(&t, cases[i].row);
        r->binding = cases[i].binding;
        r->offset = cases[i].offset;
        expect_refused("ptx", &t, NULL, &p.module, cases[i].message);
    }
}

static void test_a_kernel_parameter_the_code_reads_without_a_row_is_refused(void **state)
{
    (void)state;
    table t;
    ptx_code p;
    ptx_table(&t);
    ptx_module(&p);
    remove_row(&t, "width");
    expect_refused("ptx", &t, NULL, &p.module,
                   "target 'ptx', entry 'k': the kernel reads its parameter 'k_param_1' (bytes "
                   "16..20), which no parameter row describes");
    ptx_table(&t);
    remove_row(&t, "hits");
    expect_refused("ptx", &t, NULL, &p.module,
                   "the kernel reads its parameter 'k_param_0' (bytes 0..16), which no parameter "
                   "row describes");
    /* A row of SLANG_globalParams at the same bytes is not a kernel parameter's. */
    add_row(&t, "hits", DGPB_KIND_RW_BUFFER, 0, 0, 0, 0, 0);
    expect_refused("ptx", &t, NULL, &p.module, "the kernel reads its parameter 'k_param_0'");
}

static void test_a_global_row_past_slang_global_params_is_refused(void **state)
{
    (void)state;
    static const struct {
        const char *row;
        uint32_t binding, offset;
        const char *message;
    } cases[] = {
        {"image", 60, 0,
         "target 'ptx', entry 'k': parameter 'image' (bytes 60..68 of SLANG_globalParams) lies "
         "outside it (64 bytes)"},
        {"pair.dst", 56, 0, "parameter 'pair.dst' (bytes 56..72 of SLANG_globalParams)"},
        {"gain", INLINE, 62, "parameter 'gain' (bytes 62..66 of SLANG_globalParams)"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        table t;
        ptx_code p;
        ptx_table(&t);
        ptx_module(&p);
        dgpb_param_desc *r = row_named(&t, cases[i].row);
        r->binding = cases[i].binding;
        r->offset = cases[i].offset;
        expect_refused("ptx", &t, NULL, &p.module, cases[i].message);
    }
    /* No SLANG_globalParams at all. */
    table t;
    ptx_code p;
    ptx_table(&t);
    ptx_module(&p);
    p.module.has_global_params = false;
    p.module.global_params_size = 0;
    p.module.global_params_used = false;
    p.module.global_params_max_read = 0;
    expect_refused("ptx", &t, NULL, &p.module,
                   "parameter 'pair.src' (bytes 0..16 of SLANG_globalParams) lies outside it (the "
                   "PTX declares none: 0 bytes)");
    /* ... which is fine for rows the code does not use. */
    for (uint32_t i = 0; i < t.view.count; i++)
        if (t.rows[i].space == 0)
            t.in_code[i] = false;
    expect_proved("ptx", &t, NULL, &p.module);
}

static void test_reads_of_slang_global_params_without_global_rows_are_refused(void **state)
{
    (void)state;
    table t;
    ptx_code p;
    ptx_module(&p);
    memset(&t, 0, sizeof t);
    add_row(&t, "hits", DGPB_KIND_RW_BUFFER, LAUNCH, 0, 0, 0, 0);
    add_row(&t, "width", DGPB_KIND_VALUE, LAUNCH, 0, 16, 4, 0);
    expect_refused("ptx", &t, NULL, &p.module,
                   "target 'ptx', entry 'k': the code reads SLANG_globalParams (64 bytes), but no "
                   "parameter row lives there");
    /* Rows the code does not use are no rows of the block. */
    add_row(&t, "spare", DGPB_KIND_BUFFER, 0, 0, 0, 0, 0);
    t.in_code[t.view.count - 1] = false;
    expect_refused("ptx", &t, NULL, &p.module, "but no parameter row lives there");
    /* Without reads, the launch rows alone are the table. */
    p.module.global_params_used = false;
    p.module.global_params_max_read = 0;
    expect_proved("ptx", &t, NULL, &p.module);
    /* A read past the block's end. */
    ptx_table(&t);
    ptx_module(&p);
    p.module.global_params_max_read = 72;
    expect_refused("ptx", &t, NULL, &p.module,
                   "the code reads SLANG_globalParams up to byte 72, past its 64 bytes");
}

static void test_a_ptx_row_in_another_space_or_a_missing_kernel_is_refused(void **state)
{
    (void)state;
    table t;
    ptx_code p;
    ptx_table(&t);
    ptx_module(&p);
    row_named(&t, "tex")->space = 3;
    expect_refused("ptx", &t, NULL, &p.module,
                   "target 'ptx', entry 'k': parameter 'tex' has space 3; on ptx a row lives in "
                   "SLANG_globalParams (0) or the kernel's parameters (0xFFFFFFFF)");
    ptx_table(&t);
    dgpb_diag diag;
    /* The PTX's only kernel is the entry's whatever its name: Slang's CUDA code calls an entry
       `main` `main_0`, as C++ reserves `main`. */
    dgpb_proof_input in = {DGPB_TARGET_PTX, "main", &t.view, NULL, &p.module, false};
    dgpb_diag_clear(&diag);
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_OK);
    /* With two kernels, neither of the entry's name, no host could tell which it is. */
    dgpb_ptx_entry two[2] = {p.entry, p.entry};
    two[1].name = (char *)"k2";
    p.module.entries = two;
    p.module.entry_count = 2;
    dgpb_diag_clear(&diag);
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message, "target 'ptx', entry 'main': the PTX has no .entry 'main', and 2 "
                                  "others, so a host could not tell which kernel is the entry");
    in.entry = "k2";
    dgpb_diag_clear(&diag);
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_OK);
    p.module.entry_count = 0;
    dgpb_diag_clear(&diag);
    assert_int_equal(binding_proof_check(&in, &diag), DGPB_ERR_SHADER);
    assert_contains(diag.message, "target 'ptx', entry 'k2': the PTX has no .entry");
}

/* ---- real code -------------------------------------------------------------------- */

typedef struct real {
    const char *target;
    dgpb_reflection *reflection;
    dgpb_spirv_info *spirv;     /* the spirv target's analysis: selects every target's rows */
    dgpb_spirv_info *own_spirv; /* the analysis the spirv bindings point into */
    dgpb_wgsl_module *wgsl;
    dgpb_ptx_module *ptx;
    dgpb_code_bindings code;
    dgpb_param_table table;
} real;

static uint8_t *read_fixture(const char *relpath, size_t *size)
{
    uint8_t *bytes = support_read_source_file(relpath, size);
    if (!bytes)
        fail_msg("cannot read %s", relpath);
    return bytes;
}

static dgpb_spirv_info *analyze(const char *relpath)
{
    size_t size;
    uint8_t *bytes = read_fixture(relpath, &size);
    dgpb_spirv_info *info = NULL;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    int rc = spirv_analyze(bytes, size, &info, &diag);
    dgpb_free(bytes);
    if (rc != DGPB_OK)
        fail_msg("%s: %s", relpath, diag.message);
    return info;
}

/* Reads proof.slang's reflection and code for `target` and builds its table (plain mode). */
static void load_real(real *r, const char *target)
{
    memset(r, 0, sizeof *r);
    r->target = target;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    char path[128];
    snprintf(path, sizeof path, "fixtures/proof/proof_%s.json",
             !strcmp(target, "ptx") ? "cuda" : target);
    size_t size;
    uint8_t *json = read_fixture(path, &size);
    int rc = reflection_parse((const char *)json, size, target_of(target), NULL, 0, &r->reflection,
                              &diag);
    dgpb_free(json);
    if (rc)
        fail_msg("%s: %s", path, diag.message);
    r->spirv = analyze("fixtures/proof/proof.spv");
    if (!strcmp(target, "spirv")) {
        r->own_spirv = analyze("fixtures/proof/proof.spv");
        rc = code_bindings_from_spirv(r->own_spirv, &r->code, &diag);
    } else {
        uint8_t *text = read_fixture(!strcmp(target, "wgsl") ? "fixtures/proof/proof.wgsl"
                                                             : "fixtures/proof/proof.ptx",
                                     &size);
        if (!strcmp(target, "wgsl")) {
            rc = wgsl_module_scan((const char *)text, size, &r->wgsl, &diag);
            if (!rc)
                rc = code_bindings_from_wgsl(r->wgsl, &r->code, &diag);
            if (!rc)
                rc = code_bindings_add_wgsl_layouts(&r->code, (const char *)text, size, &diag);
        } else {
            rc = ptx_module_scan((const char *)text, size, &r->ptx, &diag);
        }
        dgpb_free(text);
    }
    if (rc)
        fail_msg("%s code: %s", target, diag.message);
    static const char *const group[] = {"k"};
    dgpb_param_select s = {target_of(target),        "k",  r->reflection, r->spirv, false, group, 1,
                           r->ptx ? NULL : &r->code, NULL, NULL};
    if (param_table_build(&s, &r->table, &diag))
        fail_msg("%s table: %s", target, diag.message);
}

static void free_real(real *r)
{
    param_table_clear(&r->table);
    code_bindings_clear(&r->code);
    spirv_info_free(r->own_spirv);
    spirv_info_free(r->spirv);
    wgsl_module_free(r->wgsl);
    ptx_module_free(r->ptx);
    reflection_free(r->reflection);
}

/* A copy of the real table's rows (names borrowed) that a test may tamper with. */
typedef struct tampered {
    dgpb_param_desc rows[MAX_ITEMS];
    bool in_code[MAX_ITEMS];
    dgpb_param_table view;
} tampered;

static void copy_table(const dgpb_param_table *from, tampered *to)
{
    assert_true(from->count <= MAX_ITEMS);
    memcpy(to->rows, from->rows, from->count * sizeof *from->rows);
    memcpy(to->in_code, from->in_code, from->count * sizeof *from->in_code);
    to->view.rows = to->rows;
    to->view.in_code = to->in_code;
    to->view.count = from->count;
}

static void drop(tampered *t, uint32_t i)
{
    memmove(&t->rows[i], &t->rows[i + 1], (t->view.count - i - 1) * sizeof t->rows[0]);
    memmove(&t->in_code[i], &t->in_code[i + 1], (t->view.count - i - 1) * sizeof t->in_code[0]);
    t->view.count--;
}

static int prove_real(const real *r, const dgpb_param_table *t, dgpb_diag *diag)
{
    dgpb_proof_input in = {target_of(r->target), "k", t, &r->code, r->ptx, false};
    dgpb_diag_clear(diag);
    return binding_proof_check(&in, diag);
}

static void test_real_tables_are_proved_against_their_own_code(void **state)
{
    (void)state;
    static const char *const targets[] = {"spirv", "wgsl", "ptx"};
    for (size_t i = 0; i < ARRAY_LEN(targets); i++) {
        real r;
        load_real(&r, targets[i]);
        assert_int_equal(r.table.count, 8);
        dgpb_diag diag;
        int rc = prove_real(&r, &r.table, &diag);
        char message[sizeof diag.message];
        memcpy(message, diag.message, sizeof message);
        free_real(&r);
        if (rc != DGPB_OK)
            fail_msg("%s: %s", targets[i], message);
    }
}

static void
test_a_real_spirv_or_wgsl_table_missing_any_row_or_with_any_binding_moved_fails(void **state)
{
    (void)state;
    /* Every row of proof.slang is used, so each one dropped leaves a binding of the code
       without a row; each descriptor row moved leaves both. */
    static const char *const targets[] = {"spirv", "wgsl"};
    for (size_t g = 0; g < ARRAY_LEN(targets); g++) {
        real r;
        load_real(&r, targets[g]);
        for (uint32_t i = 0; i < r.table.count; i++) {
            tampered t;
            copy_table(&r.table, &t);
            drop(&t, i);
            dgpb_diag diag;
            if (prove_real(&r, &t.view, &diag) != DGPB_ERR_SHADER)
                fail_msg("%s: without '%s' the proof passes", targets[g], r.table.rows[i].name);
            if (r.table.rows[i].space == LAUNCH)
                continue;
            copy_table(&r.table, &t);
            t.rows[i].binding += 100;
            if (prove_real(&r, &t.view, &diag) != DGPB_ERR_SHADER)
                fail_msg("%s: with '%s' moved the proof passes", targets[g], r.table.rows[i].name);
            /* One binding further (onto another variable, or onto nothing) fails too. */
            copy_table(&r.table, &t);
            t.rows[i].binding += 1;
            if (prove_real(&r, &t.view, &diag) != DGPB_ERR_SHADER)
                fail_msg("%s: with '%s' shifted by one the proof passes", targets[g],
                         r.table.rows[i].name);
        }
        free_real(&r);
    }
}

static void test_the_failures_of_a_tampered_real_table_name_the_codes_variable(void **state)
{
    (void)state;
    static const struct {
        const char *target, *row;
        bool drop;
        const char *message;
    } cases[] = {
        {"spirv", "pair.dst", true,
         "target 'spirv', entry 'k': the code binds 'pair.dst' (a storage buffer at set 0, binding "
         "2), which no parameter row describes"},
        {"spirv", "hits", true,
         "the code binds 'entryPointParams.hits' (a storage buffer at set 0, binding 6)"},
        {"spirv", "gain", true,
         "the code binds 'globalParams' (a uniform buffer at set 0, binding 0)"},
        {"spirv", "width", true,
         "the code declares the push-constant block 'entryPointParams' (4 bytes), which no "
         "parameter row describes"},
        {"spirv", "tex", false, "the code binds 'tex' (a sampled texture at set 0, binding 3)"},
        {"wgsl", "pair.dst", true,
         "target 'wgsl', entry 'k': the code binds 'pair_dst_0' (a storage buffer at @group(0) "
         "@binding(2))"},
        {"wgsl", "width", true,
         "the code binds 'entryPointParams_0' (a uniform buffer at @group(0) @binding(6))"},
        {"wgsl", "image", false,
         "the code binds 'image_0' (a storage texture at @group(0) @binding(5))"},
        {"ptx", "hits", true,
         "target 'ptx', entry 'k': the kernel reads its parameter 'k_param_0' (bytes 0..16), "
         "which no parameter row describes"},
        {"ptx", "width", false,
         "parameter 'width' (bytes 116..120 of the kernel's parameters) lies in no parameter of "
         ".entry k"},
        {"ptx", "image", false,
         "parameter 'image' (bytes 156..164 of SLANG_globalParams) lies outside it (64 bytes)"},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        real r;
        load_real(&r, cases[c].target);
        tampered t;
        copy_table(&r.table, &t);
        uint32_t i = 0;
        while (i < t.view.count && strcmp(t.rows[i].name, cases[c].row) != 0)
            i++;
        assert_true(i < t.view.count);
        if (cases[c].drop) {
            drop(&t, i);
        } else if (t.rows[i].kind == DGPB_KIND_VALUE) {
            t.rows[i].offset += 100;
        } else {
            t.rows[i].binding += 100;
        }
        dgpb_diag diag;
        int rc = prove_real(&r, &t.view, &diag);
        char message[sizeof diag.message];
        memcpy(message, diag.message, sizeof message);
        free_real(&r);
        if (rc != DGPB_ERR_SHADER)
            fail_msg("%s, '%s' tampered: result %d", cases[c].target, cases[c].row, rc);
        assert_contains(message, cases[c].message);
    }
}

static void test_a_real_ptx_table_without_its_launch_or_global_rows_fails(void **state)
{
    (void)state;
    /* The PTX tells which kernel parameters the kernel reads and whether it reads
       SLANG_globalParams, not which of its bytes: dropping one global row goes unseen, but
       not dropping a launch row, or every global row. */
    real r;
    load_real(&r, "ptx");
    tampered t;
    for (uint32_t i = 0; i < r.table.count; i++) {
        if (r.table.rows[i].space != LAUNCH)
            continue;
        copy_table(&r.table, &t);
        drop(&t, i);
        dgpb_diag diag;
        if (prove_real(&r, &t.view, &diag) != DGPB_ERR_SHADER)
            fail_msg("ptx: without '%s' the proof passes", r.table.rows[i].name);
    }
    copy_table(&r.table, &t);
    for (uint32_t i = t.view.count; i-- > 0;)
        if (t.rows[i].space == 0)
            drop(&t, i);
    assert_int_equal(t.view.count, 2);
    dgpb_diag diag;
    int rc = prove_real(&r, &t.view, &diag);
    char message[sizeof diag.message];
    memcpy(message, diag.message, sizeof message);
    free_real(&r);
    assert_int_equal(rc, DGPB_ERR_SHADER);
    assert_contains(message, "the code reads SLANG_globalParams (64 bytes), but no parameter row "
                             "lives there");
}

/* A row of a built table resized before the proof (row NULL: none). */
typedef struct resize {
    const char *row;
    uint32_t size;
} resize;

/* Builds the plain-mode table of fixtures/<module>'s entry `entry` for `target` (the
   reflection <json>, the code <code>, rows selected by <spv>), resizes a row as `r` says,
   and proves it. */
static int build_and_prove(const char *json, const char *spv, const char *code_path,
                           const char *target, const char *entry, resize r, dgpb_diag *diag)
{
    size_t size;
    uint8_t *text = read_fixture(json, &size);
    dgpb_reflection *refl = NULL;
    int rc = reflection_parse((const char *)text, size, target_of(target), NULL, 0, &refl, diag);
    dgpb_free(text);
    if (rc)
        return rc;
    dgpb_spirv_info *select = analyze(spv), *own = NULL;
    dgpb_wgsl_module *wgsl = NULL;
    dgpb_ptx_module *ptx = NULL;
    dgpb_code_bindings bindings = {0};
    if (!strcmp(target, "spirv")) {
        own = analyze(code_path);
        rc = code_bindings_from_spirv(own, &bindings, diag);
    } else {
        text = read_fixture(code_path, &size);
        if (!strcmp(target, "wgsl")) {
            rc = wgsl_module_scan((const char *)text, size, &wgsl, diag);
            if (!rc)
                rc = code_bindings_from_wgsl(wgsl, &bindings, diag);
            if (!rc)
                rc = code_bindings_add_wgsl_layouts(&bindings, (const char *)text, size, diag);
        } else {
            rc = ptx_module_scan((const char *)text, size, &ptx, diag);
        }
        dgpb_free(text);
    }
    const char *group[1] = {entry};
    dgpb_param_select s = {target_of(target),      entry, refl, select, false, group, 1,
                           ptx ? NULL : &bindings, NULL,  NULL};
    dgpb_param_table t = {0};
    if (!rc)
        rc = param_table_build(&s, &t, diag);
    bool resized = !r.row;
    for (uint32_t i = 0; !rc && i < t.count; i++)
        if (r.row && !strcmp(t.rows[i].name, r.row)) {
            t.rows[i].size = r.size;
            resized = true;
        }
    if (!resized)
        fail_msg("%s on %s: no row '%s'", json, target, r.row);
    dgpb_proof_input in = {target_of(target), entry, &t, &bindings, ptx, false};
    if (!rc)
        rc = binding_proof_check(&in, diag);
    param_table_clear(&t);
    code_bindings_clear(&bindings);
    spirv_info_free(own);
    spirv_info_free(select);
    wgsl_module_free(wgsl);
    ptx_module_free(ptx);
    reflection_free(refl);
    return rc;
}

static void
test_the_tables_of_every_plain_fixture_module_are_proved_against_their_code(void **state)
{
    (void)state;
    /* fixtures/reflect/'s plain modules (tests/test_reflect.c makes them) on every target
       they compile for without a refused shape. */
    static const struct {
        const char *module, *entry, *target, *json_target, *ext;
    } cases[] = {
        {"entry_uniforms", "k", "spirv", "spirv", "spv"},
        {"entry_uniforms", "k", "wgsl", "wgsl", "wgsl"},
        {"entry_uniforms", "k", "ptx", "cuda", "ptx"},
        {"aggregates", "k", "spirv", "spirv", "spv"},
        {"aggregates", "k", "wgsl", "wgsl", "wgsl"},
        {"aggregates", "k", "ptx", "cuda", "ptx"},
        {"blocks", "k", "spirv", "spirv", "spv"},
        {"blocks", "k", "wgsl", "wgsl", "wgsl"},
        {"push", "k", "spirv", "spirv", "spv"},
        {"push", "k", "ptx", "cuda", "ptx"},
        {"loose", "scale", "spirv", "spirv", "spv"},
        {"loose", "scale", "wgsl", "wgsl", "wgsl"},
        {"loose", "scale", "ptx", "cuda", "ptx"},
        {"padding", "k", "spirv", "spirv", "spv"},
        {"padding", "k", "wgsl", "wgsl", "wgsl"},
        {"padding", "k", "ptx", "cuda", "ptx"},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        char json[128], spv[128], code_path[128];
        snprintf(json, sizeof json, "fixtures/reflect/%s_%s.json", cases[c].module,
                 cases[c].json_target);
        snprintf(spv, sizeof spv, "fixtures/reflect/%s.spv", cases[c].module);
        snprintf(code_path, sizeof code_path, "fixtures/reflect/%s.%s", cases[c].module,
                 cases[c].ext);
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = build_and_prove(json, spv, code_path, cases[c].target, cases[c].entry,
                                 (resize){NULL, 0}, &diag);
        if (rc != DGPB_OK)
            fail_msg("%s on %s: %d %s", cases[c].module, cases[c].target, rc, diag.message);
    }
}

/*
 * Blocks whose last member is a struct with tail padding (fixtures/reflect/
 * padding.slang): a row may span the struct's padded size (docs/format.md,
 * "Where a row lives"), 16 bytes where the SPIR-V's member ends after 4 (a
 * std140 struct of a float) or 12 (a std430 struct of a float3), and not a
 * byte more.
 */
static void test_a_value_row_may_span_its_structs_tail_padding_and_no_more(void **state)
{
    (void)state;
    static const struct {
        const char *row;
        uint32_t size;
        const char *message;
    } cases[] = {
        {"last", 16, NULL},
        {"cb.b", 16, NULL},
        {"bias", 16, NULL},
        {"last", 17,
         "target 'spirv', entry 'k': parameter 'last' (bytes 16..33) lies outside the code's "
         "uniform block 'Settings' (set 0, binding 0, 32 bytes)"},
        {"cb.b", 17,
         "target 'spirv', entry 'k': parameter 'cb.b' (bytes 16..33) lies outside the code's "
         "uniform block 'cb' (set 0, binding 1, 32 bytes)"},
        {"bias", 17,
         "target 'spirv', entry 'k': parameter 'bias' (bytes 0..17) lies outside the code's "
         "push-constant block 'entryPointParams' (16 bytes)"},
        /* Shorter than the member the code reads: no longer covers it. */
        {"last", 2,
         "target 'spirv', entry 'k': field row 'last' (bytes 16..18) is no member of the code's "
         "block 'Settings'"},
    };
    for (size_t c = 0; c < ARRAY_LEN(cases); c++) {
        dgpb_diag diag;
        dgpb_diag_clear(&diag);
        int rc = build_and_prove("fixtures/reflect/padding_spirv.json",
                                 "fixtures/reflect/padding.spv", "fixtures/reflect/padding.spv",
                                 "spirv", "k", (resize){cases[c].row, cases[c].size}, &diag);
        if (!cases[c].message) {
            if (rc != DGPB_OK)
                fail_msg("%s of %u bytes: %d %s", cases[c].row, cases[c].size, rc, diag.message);
            continue;
        }
        if (rc != DGPB_ERR_SHADER)
            fail_msg("%s of %u bytes: result %d, expected DGPB_ERR_SHADER", cases[c].row,
                     cases[c].size, rc);
        assert_contains(diag.message, cases[c].message);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_spirv_table_that_matches_its_code_is_proved),
        cmocka_unit_test(test_a_blocks_field_rows_are_proved_against_its_members),
        cmocka_unit_test(test_a_structured_buffers_stride_is_proved_against_the_array_stride),
        cmocka_unit_test(
            test_a_binding_without_its_row_is_refused_naming_the_variable_and_its_place),
        cmocka_unit_test(test_a_moved_binding_is_refused_from_the_code_side_and_the_row_side),
        cmocka_unit_test(test_a_row_whose_kind_cannot_describe_the_binding_is_refused),
        cmocka_unit_test(test_classes_no_row_describes_are_refused_whatever_the_row),
        cmocka_unit_test(test_an_array_binding_takes_a_handle_row_only),
        cmocka_unit_test(test_a_fixed_array_takes_one_row_per_element),
        cmocka_unit_test(test_two_resource_rows_on_one_binding_are_refused_naming_both),
        cmocka_unit_test(test_a_value_row_past_its_blocks_bytes_is_refused),
        cmocka_unit_test(test_a_uniform_buffer_rows_size_is_the_code_blocks),
        cmocka_unit_test(test_a_shader_record_is_value_rows_of_its_space),
        cmocka_unit_test(test_a_value_row_may_span_its_structs_tail_padding_and_no_more),
        cmocka_unit_test(test_push_constants_need_launch_rows_of_values_inside_the_block),
        cmocka_unit_test(test_rows_the_code_does_not_use_may_lack_a_binding),
        cmocka_unit_test(test_a_wgsl_table_that_matches_its_code_is_proved),
        cmocka_unit_test(test_a_wgsl_binding_without_its_row_is_refused_naming_group_and_binding),
        cmocka_unit_test(test_wgsl_field_rows_and_strides_are_proved_against_the_wgsl_layout),
        cmocka_unit_test(test_a_launch_row_on_wgsl_is_refused),
        cmocka_unit_test(test_wgsl_comparison_depth_and_multisampled_bindings_are_proved_by_shape),
        cmocka_unit_test(test_a_webgpu_id_that_disagrees_with_the_wgsl_declaration_is_refused),
        cmocka_unit_test(test_unused_wgsl_rows_may_lack_a_binding),
        cmocka_unit_test(test_a_ptx_table_that_matches_its_kernel_is_proved),
        cmocka_unit_test(test_handles_on_ptx_are_sixteen_bytes_for_buffers_and_eight_for_the_rest),
        cmocka_unit_test(test_a_launch_row_outside_every_kernel_parameter_is_refused),
        cmocka_unit_test(test_a_kernel_parameter_the_code_reads_without_a_row_is_refused),
        cmocka_unit_test(test_a_global_row_past_slang_global_params_is_refused),
        cmocka_unit_test(test_reads_of_slang_global_params_without_global_rows_are_refused),
        cmocka_unit_test(test_a_ptx_row_in_another_space_or_a_missing_kernel_is_refused),
        cmocka_unit_test(test_real_tables_are_proved_against_their_own_code),
        cmocka_unit_test(
            test_a_real_spirv_or_wgsl_table_missing_any_row_or_with_any_binding_moved_fails),
        cmocka_unit_test(test_the_failures_of_a_tampered_real_table_name_the_codes_variable),
        cmocka_unit_test(test_a_real_ptx_table_without_its_launch_or_global_rows_fails),
        cmocka_unit_test(
            test_the_tables_of_every_plain_fixture_module_are_proved_against_their_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
