/*
 * fuzz_reflect.c - fuzz target for the reflection JSON reader
 * (tables/reflect.h) and what dgpb-build makes of a parsed reflection: the
 * entry's parameter table (tables/params.h) and its proof against bindings
 * (tables/binding_proof.h).
 *
 * Input: the first byte picks the target the JSON is read for (spirv, wgsl,
 * metal, ptx, dxil, dxbc), the second the options (value blocks, push blocks,
 * generator conventions, which entry); the rest is the JSON. The table is
 * built against bindings made from the reflection's own rows, so that rows
 * placed from code find (or miss) their variable as dgpb-build's would.
 *
 * Built as a libFuzzer target with clang and -DDGPB_FUZZ=ON; in every build
 * it is also linked with replay_main.c, which runs the corpus
 * (fixtures/fuzz/reflect) as an ordinary test. docs/testing.md, "Fuzzing".
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tables/binding_proof.h"
#include "dgpb/dgpb.h"
#include "code/code_bindings.h"
#include "code/code_format.h"
#include "tables/params.h"
#include "tables/reflect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* In the order the corpus was written for. */
static const dgpb_target_id targets[] = {DGPB_TARGET_SPIRV, DGPB_TARGET_WGSL, DGPB_TARGET_METAL,
                                         DGPB_TARGET_PTX,   DGPB_TARGET_DXIL, DGPB_TARGET_DXBC};

/* Code bindings named after the reflection's variables, at made-up places. */
static void bindings_from_rows(const dgpb_reflection *r, dgpb_code_binding *items, size_t *count)
{
    *count = 0;
    for (size_t i = 0; i < r->param_count && *count < 64; i++) {
        const dgpb_reflected_param *p = &r->params[i];
        if (!p->code_name)
            continue;
        dgpb_code_binding *c = &items[(*count)++];
        memset(c, 0, sizeof *c);
        c->name = p->code_name;
        c->space = (int64_t)(i % 3) - 1; /* sometimes -1: a variable without a binding */
        c->binding = (int64_t)i;
        c->cls = (uint32_t)(i % DGPB_CODE_CLASS_COUNT);
        c->writable = i & 1;
        c->block_size = p->size;
    }
}

static void table_and_proof(const dgpb_reflection *r, dgpb_target_id target, uint8_t opts)
{
    const char *entry = "main";
    if ((opts & 0x20) && r->entry_count && r->entries[0].name)
        entry = r->entries[0].name;
    const char *group[2] = {entry, "main_b"};
    dgpb_code_binding items[64];
    dgpb_code_bindings code = {.items = items, .count = 0};
    bindings_from_rows(r, items, &code.count);
    dgpb_param_select s = {
        .target = target,
        .entry = entry,
        .reflection = r,
        .spirv = NULL,
        .dream = opts & 0x04,
        .group_entries = group,
        .group_entry_count = 2,
        .code = (opts & 0x08) ? &code : NULL,
    };
    dgpb_diag d;
    dgpb_diag_clear(&d);
    dgpb_param_table table = {0};
    bool proved = code_ops_of_target(target)->places_from_code; /* as dgpb-build */
    if (param_table_build(&s, &table, &d) == DGPB_OK && proved) {
        dgpb_proof_input proof = {.target = target, .entry = entry, .table = &table, .code = &code};
        (void)binding_proof_check(&proof, &d);
    }
    param_table_clear(&table);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    dgpb_target_id target = targets[data[0] % (sizeof targets / sizeof *targets)];
    uint8_t opts = data[1];
    const char *value_blocks[] = {"main_params", "k_params"};
    const char *push_blocks[] = {"pc", "push"};
    dgpb_reflection_blocks blocks = {
        .value_blocks = (opts & 0x01) ? value_blocks : NULL,
        .value_block_count = (opts & 0x01) ? 2 : 0,
        .push_blocks = (opts & 0x02) ? push_blocks : NULL,
        .push_block_count = (opts & 0x02) ? 2 : 0,
    };
    dgpb_reflection *r = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (reflection_parse_blocks((const char *)data + 2, size - 2, target,
                                (opts & 0x10) ? NULL : &blocks, &r, &d) != DGPB_OK)
        return 0;
    for (size_t i = 0; i < r->param_count; i++) {
        (void)reflection_find(r, r->params[i].name, false);
        (void)reflection_find(r, r->params[i].global, true);
    }
    table_and_proof(r, target, opts);
    reflection_free(r);
    return 0;
}
