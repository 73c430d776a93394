/*
 * code/spirv/spirv.h - SPIR-V helpers over SPIRV-Tools' C API.
 *
 * Debian's SPIRV-Tools is older than the SPIR-V Slang writes and rejects its
 * OpSource instruction (an unknown source-language id). Every function here
 * therefore works on a copy without OpSource (debug information only); the
 * stored blob is never changed.
 *
 * Library files include SPIRV-Tools' header through src/code/spirv/spirv_tools.h, which
 * keeps its non-static constant from clashing between files.
 */
#ifndef DGPB_SPIRV_H
#define DGPB_SPIRV_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define spirv_disassemble dgpb__spirv_disassemble
#define spirv_drop_unknown dgpb__spirv_drop_unknown
#define spirv_environment dgpb__spirv_environment
#define spirv_entry_points dgpb__spirv_entry_points
#define spirv_stage_of_model dgpb__spirv_stage_of_model
#define spirv_strip_source dgpb__spirv_strip_source
#define spirv_unknown_number dgpb__spirv_unknown_number
#define spirv_validate dgpb__spirv_validate

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Copies a SPIR-V module without its OpSource instructions into a new array
 * of *out_words words (freed by the caller with dgpb_free()). DGPB_ERR_CORRUPT
 * when the bytes are not a SPIR-V module (size, magic, word counts).
 */
int spirv_strip_source(const void *code, size_t size, uint32_t **out, size_t *out_words,
                       dgpb_diag *diag);

/*
 * The Vulkan version a module's SPIR-V version word implies, the oldest whose
 * core takes it ("Vulkan 1.2" for SPIR-V 1.5; SPIR-V 1.1 to 1.3: Vulkan 1.1;
 * 1.4: Vulkan 1.1 with SPIR-V 1.4; 1.6: Vulkan 1.3), with SPIRV-Tools'
 * spv_target_env for it and for the universal environment of that SPIR-V
 * version in *vulkan and *universal (each may be NULL). NULL for a version
 * newer than the newest SPIRV-Tools knows here (1.6).
 */
const char *spirv_environment(uint32_t version, int *vulkan, int *universal);

/*
 * Validates a module (spvValidate on the copy without OpSource) for the
 * Vulkan version its SPIR-V version implies (spirv_environment()), with
 * scalar block layouts when `scalar_blocks` (the build's block layout asks
 * for them): DGPB_ERR_SHADER with SPIRV-Tools' message when it is invalid.
 * Where the validator is older than the code, or the code breaks a rule
 * drivers do not hold it to (code/spirv/spirv_validate.c; docs/build.md,
 * "Validation"), DGPB_ERR_UNSUPPORTED with a warning (diag->severity
 * DGPB_SEV_WARNING) that names what it did not know or how it read the code.
 */
int spirv_validate(const void *code, size_t size, bool scalar_blocks, dgpb_diag *diag);

/*
 * Whether a SPIRV-Tools parser's message names a number its grammar lacks:
 * "Invalid opcode: N", "Invalid <kind> operand: N", "Invalid extended
 * instruction number: N". *kind: "opcode", "capability", ...; *number: N.
 */
bool spirv_unknown_number(const char *message, char *kind, size_t size, uint32_t *number);

/*
 * Makes `n` words of a module without OpSource (the caller's own copy, which
 * it changes) words that SPIRV-Tools' parser reads to the end, where it
 * stops only at numbers its grammar lacks (spirv_unknown_number(): code
 * newer than the library). Each instruction it cannot read becomes OpNop
 * words, and with it every instruction of that opcode (an unknown opcode) or
 * of that opcode with that number in the same word (an unknown operand: every
 * OpCapability 5336, every OpDecorate of one new decoration). What a reader
 * of the module's interface stands on is never dropped: OpEntryPoint,
 * OpVariable, OpFunction, OpFunctionParameter and OpFunctionEnd.
 *
 * DGPB_OK with *dropped the number of instructions made OpNop (0: the words
 * parsed as they were); DGPB_ERR_UNSUPPORTED when they still do not parse
 * (another kind of failure, an instruction above, or too many numbers), with
 * SPIRV-Tools' message in `why`; DGPB_ERR_NOMEM.
 */
int spirv_drop_unknown(uint32_t *words, size_t n, size_t *dropped, char *why, size_t why_size);

/* One OpEntryPoint of a module. */
typedef struct dgpb_spirv_entry_point {
    uint32_t execution_model;
    char name[4097]; /* truncated past 4096 bytes, the longest name a bundle holds */
    /* Its LocalSize (or LocalSizeId of OpConstants) execution mode: the thread group size
       of a compute, mesh or task entry point; 0,0,0 where it has none. */
    uint32_t local_size[3];
} dgpb_spirv_entry_point;

/*
 * Lists a module's OpEntryPoint instructions with their local sizes (a plain
 * walk of the words, no SPIRV-Tools) into a new array freed with
 * dgpb_free(). DGPB_ERR_CORRUPT when the bytes are not a SPIR-V module.
 */
int spirv_entry_points(const void *code, size_t size, dgpb_spirv_entry_point **out, size_t *count,
                       dgpb_diag *diag);

/* The dgpb_stage of a SPIR-V execution model, or -1 when the format has none. */
int spirv_stage_of_model(uint32_t execution_model);

/* Disassembles a module (as spirv-dis would, without OpSource) into a new string freed with
 * dgpb_free(). */
int spirv_disassemble(const void *code, size_t size, char **out_text, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
