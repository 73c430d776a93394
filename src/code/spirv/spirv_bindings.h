/*
 * code/spirv/spirv_bindings.h - the bindings of SPIR-V, from its analysis
 * (code/code_bindings.h has the list's form).
 */
#ifndef DGPB_SPIRV_BINDINGS_H
#define DGPB_SPIRV_BINDINGS_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define code_bindings_from_spirv dgpb__code_bindings_from_spirv

#include "code/code_bindings.h"
#include "code/spirv/spirv_analysis.h"
#include "dgpb/result.h"

/*
 * From an entry's SPIR-V analysis (which must have `parsed`): the decorated
 * and push-constant variables of the entry point's interface, in module
 * order. DGPB_ERR_NOMEM or DGPB_OK.
 */
int code_bindings_from_spirv(const dgpb_spirv_info *info, dgpb_code_bindings *out, dgpb_diag *diag);

#endif
