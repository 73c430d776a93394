/*
 * code/spirv/spirv_bindings.h - the bindings of SPIR-V, from its analysis
 * (code/code_bindings.h has the list's form).
 */
#ifndef DGPB_SPIRV_BINDINGS_H
#define DGPB_SPIRV_BINDINGS_H

#include "code/code_bindings.h"
#include "code/spirv/spirv_analysis.h"
#include "dgpb/result.h"

/*
 * From an entry's SPIR-V analysis (which must have `parsed`): the decorated
 * and push-constant variables of the entry point's interface, in module
 * order. DGPB_ERR_NOMEM or DGPB_OK.
 */
int dgpb_code_bindings_from_spirv(const dgpb_spirv_info *info, dgpb_code_bindings *out,
                                  dgpb_diag *diag);

#endif
