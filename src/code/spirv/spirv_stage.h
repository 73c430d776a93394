/*
 * code/spirv/spirv_stage.h - what a host reads from an entry's SPIR-V to put
 * it into a render pipeline (internal): the primitive a geometry shader
 * takes and the control points of a tessellation control (hull) shader's
 * patches (its inputs and outputs: code/spirv/spirv_interface.h). Read word
 * by word, without SPIRV-Tools.
 */
#ifndef DGPB_SPIRV_STAGE_H
#define DGPB_SPIRV_STAGE_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define spirv_stage_read dgpb__spirv_stage_read

#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

typedef struct spirv_stage_modes {
    uint32_t execution_model; /* of the first OpEntryPoint */
    /* The input primitive of a geometry shader, as its execution mode names it: 19
       InputPoints, 20 InputLines, 21 InputLinesAdjacency, 22 Triangles, 23
       InputTrianglesAdjacency; 0 when none is stated (or another stage). */
    uint32_t input_primitive;
    uint32_t output_vertices; /* OutputVertices (a hull shader's output control points); 0 */
    /* A hull shader's input patch: the length of its per-vertex input arrays (Slang sizes
       them by InputPatch<T, N>); 0 when it reads no per-vertex input. */
    uint32_t input_patch;
} spirv_stage_modes;

/*
 * Reads the modes of the first entry point of `code` (`size` bytes).
 * DGPB_ERR_CORRUPT (not a SPIR-V module, an instruction past its end, no
 * entry point), DGPB_ERR_NOMEM.
 */
int spirv_stage_read(const uint8_t *code, size_t size, spirv_stage_modes *out, dgpb_diag *d);

#endif
