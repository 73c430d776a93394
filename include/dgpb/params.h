/*
 * dgpb/params.h - one entry's parameter table, from Slang's reflection and
 * the entry's SPIR-V.
 *
 * Which globals belong to an entry (DECISIONS.md section 3):
 *   - in a module that follows the generator's conventions ("dream" mode),
 *     the globals named <entry>_<param> (the longest entry name of the group
 *     wins, so entries "a" and "a_b" never share one), with the fields of
 *     <entry>_params in the constant buffer's place, plus any other global the
 *     entry's code references, under its own name;
 *   - in a plain module, the globals the entry's code references (its SPIR-V
 *     OpEntryPoint interface), in declaration order; loose `uniform` globals
 *     all belong to an entry that reads the implicit global block.
 * Flags: read-only from the kind; "written" from the SPIR-V analysis.
 */
#ifndef DGPB_PARAMS_H
#define DGPB_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/model.h"
#include "dgpb/reflect.h"
#include "dgpb/result.h"
#include "dgpb/spirv_analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dgpb_param_select {
    const char *target; /* DGPB target name, for messages and wgsl rules */
    const char *entry;
    const dgpb_reflection *reflection; /* this entry's compile for `target` */
    const dgpb_spirv_info *spirv;      /* this entry's SPIR-V (the target's, or a probe) */
    bool dream;                        /* the module uses the generator's conventions */
    const char *const *group_entries;  /* every entry of the entry's pipeline group */
    size_t group_entry_count;
} dgpb_param_select;

typedef struct dgpb_param_table {
    dgpb_param_desc *rows; /* names owned by the table */
    uint32_t count;
} dgpb_param_table;

/*
 * Builds the table. DGPB_ERR_SHADER when a row the entry needs has no kind
 * or (on wgsl) no WebGPU descriptor, with a message naming the target, entry,
 * parameter and shape. Free the table with dgpb_param_table_clear().
 */
int dgpb_param_table_build(const dgpb_param_select *s, dgpb_param_table *out, dgpb_diag *diag);

void dgpb_param_table_clear(dgpb_param_table *t);

/* The name of the value block of an entry ("<entry>_params") into buf. */
void dgpb_value_block_name(const char *entry, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
