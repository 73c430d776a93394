/*
 * tables/params.h - one entry's parameter table, from Slang's reflection and
 * the entry's SPIR-V.
 *
 * Which rows belong to an entry (docs/build.md, "Parameter tables"): the
 * reflection's rows (tables/reflect.h: globals, then the entry's own `uniform`
 * parameters, aggregates flattened) that
 *   - in a module that follows the generator's conventions ("dream" mode)
 *     belong to the globals named <entry>_<param> (the longest entry name of
 *     the group wins, so entries "a" and "a_b" never share one), listed as
 *     <param>, with the fields of <entry>_params in the constant buffer's
 *     place; plus any other row the entry's code references;
 *   - in a plain module, the entry's code references: the variable that
 *     carries the row (its `code_name`) is on the SPIR-V OpEntryPoint
 *     interface. Values share their block's variable, so every value of a
 *     block the code reads is a row.
 * A row whose place only the code knows (`place_from_code`: entry-point
 * resources, the implicit global block) takes its space and binding from the
 * target's own code bindings. Flags: read-only from the kind; "written" from
 * the SPIR-V analysis.
 *
 * Names never collide (docs/format.md, "Names"): a row is named by its short
 * name (a global's, `<param>` for a generator convention's `<entry>_<param>`,
 * a `cbuffer` field bare, an entry's `uniform` parameter by its own name),
 * and when two rows of the entry would share one, each of them is qualified
 * as the code qualifies it, as far as needed to tell them apart: first by
 * what holds it (`<entry>.<param>` for an entry's parameter, `<Block>.<field>`
 * for a bare block field, `<entry>_<param>` for a generator global), then, if
 * two still share a name, by its namespace path (`first::out`). Rows that
 * share no name keep their short names.
 */
#ifndef DGPB_PARAMS_H
#define DGPB_PARAMS_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define param_table_build dgpb__param_table_build
#define param_table_clear dgpb__param_table_clear
#define value_block_name dgpb__value_block_name

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/format.h"
#include "bundle/model.h"
#include "code/code_bindings.h"
#include "scan/param_scopes.h"
#include "tables/reflect.h"
#include "dgpb/result.h"
#include "code/spirv/spirv_analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dgpb_param_select {
    dgpb_target_id target; /* for messages and wgsl rules */
    const char *entry;
    const dgpb_reflection *reflection; /* this entry's compile for `target` */
    const dgpb_spirv_info *spirv;      /* this entry's SPIR-V (the target's, or a probe) */
    bool dream;                        /* the module uses the generator's conventions */
    const char *const *group_entries;  /* every entry of the entry's pipeline group */
    size_t group_entry_count;
    const dgpb_code_bindings *code;  /* the target's own code bindings (spirv, wgsl); NULL for
                                       targets without a reader: rows keep the reflection's place */
    const dgpb_param_scopes *scopes; /* the namespaces of the module's parameters, read from its
                                        text (scan/param_scopes.h); NULL when not known */
    const dgpb_reflection *spirv_reflection; /* the reflection of the compile `spirv` came
                                                from, whose places are the SPIR-V's (a probe's,
                                                the analysed target's); NULL: not known, or
                                                `reflection` on that target itself */
} dgpb_param_select;

typedef struct dgpb_param_table {
    dgpb_param_desc *rows; /* names owned by the table */
    bool *in_code;         /* per row: the entry's code uses it (false: declared for the entry
                              in dream mode, but unused, so the code may lack its binding) */
    uint32_t count;
} dgpb_param_table;

/*
 * Builds the table. DGPB_ERR_SHADER when a row the entry needs has no kind
 * or (on wgsl) no WebGPU descriptor or a bool value, or its place is not in
 * the code, with a message naming the target, entry, parameter, shape and the
 * rewrite that works. Free the table with param_table_clear().
 */
int param_table_build(const dgpb_param_select *s, dgpb_param_table *out, dgpb_diag *diag);

void param_table_clear(dgpb_param_table *t);

/* The name of the value block of an entry ("<entry>_params") into buf. */
void value_block_name(const char *entry, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
