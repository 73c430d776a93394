/*
 * code/spirv/spirv_interface.h - SPIR-V's part of code/stage_interface.h
 * (internal): the Input or Output variables of an entry point's interface
 * that are no built-ins, each with its name (OpName), Location and type.
 * Read word by word, without SPIRV-Tools.
 */
#ifndef DGPB_SPIRV_INTERFACE_H
#define DGPB_SPIRV_INTERFACE_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define spirv_interface_read dgpb__spirv_interface_read

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/stage_interface.h"
#include "dgpb/result.h"

/*
 * The Input (`outputs` false) or Output variables that the first entry point
 * of `code` (`size` bytes) lists in its interface and that are no built-ins
 * (BuiltIn on the variable, or on a member of its struct), in order of
 * Location (those without one last), into *vars (malloc'd, dgpb_free; NULL
 * when none) and *count. DGPB_ERR_CORRUPT (not a SPIR-V module, an
 * instruction past its end, no entry point), DGPB_ERR_NOMEM.
 */
int spirv_interface_read(const uint8_t *code, size_t size, bool outputs, code_interface_var **vars,
                         uint32_t *count, dgpb_diag *d);

#endif
