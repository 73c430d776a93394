/*
 * spirv_stage.c - the execution modes and input patch of an entry point,
 * for a host's render pipeline (code/spirv/spirv_stage.h).
 */
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "code/spirv/spirv_numbers.h"
#include "code/spirv/spirv_words.h"
#include "code/spirv/spirv_stage.h"

/* The word index just past a literal string that starts at word `at` of an instruction that
   ends before word `end`. */
static size_t past_string(const uint8_t *code, size_t at, size_t end)
{
    for (; at < end; at++) {
        const uint8_t *w = code + 4 * at;
        if (!w[0] || !w[1] || !w[2] || !w[3])
            return at + 1;
    }
    return end;
}

int spirv_stage_read(const uint8_t *code, size_t size, spirv_stage_modes *out, dgpb_diag *d)
{
    memset(out, 0, sizeof *out);
    bool swap;
    int rc = spirv_words_check(code, size, &swap, d);
    if (rc)
        return rc;
    size_t words = size / 4;
    uint32_t bound = spirv_word(code + 12, swap);
    if (bound > words) /* ids are defined by instructions, so never more than the words */
        bound = (uint32_t)words;
    uint32_t *def = mem_calloc(bound ? bound : 1, sizeof *def); /* defining instruction */
    if (!def)
        return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    rc = DGPB_OK;
    size_t entry = 0; /* the first OpEntryPoint */
    for (size_t i = SPV_HEADER_WORDS; i < words;) {
        uint32_t w = spirv_word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
        if (count == 0 || count > words - i) {
            rc = dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)(4 * i),
                               "SPIR-V: the instruction at word %zu has a word count of %u, "
                               "past the module's end",
                               i, count);
            break;
        }
        /* Types define their id in word 1; constants and variables (four words at least) in
           word 2. Every instruction recorded has its words up to the fourth. */
        size_t at = (op >= OP_TYPE_INT && op <= OP_TYPE_POINTER) ? 1
                    : (op == OP_CONSTANT || op == OP_VARIABLE)   ? 2
                                                                 : 0;
        if (at && count >= 4) {
            uint32_t id = spirv_word(code + 4 * (i + at), swap);
            if (id < bound)
                def[id] = (uint32_t)i;
        }
        if (op == OP_ENTRY_POINT && count >= 4 && !entry) {
            entry = i;
            out->execution_model = spirv_word(code + 4 * (i + 1), swap);
        }
        i += count;
    }
    if (!rc && !entry)
        rc = dgpb_diag_set(d, DGPB_ERR_CORRUPT, -1, "SPIR-V: the module has no entry point");
    if (rc) {
        dgpb_free(def);
        return rc;
    }
    uint32_t function = spirv_word(code + 4 * (entry + 2), swap);
    size_t entry_end = entry + (spirv_word(code + 4 * entry, swap) >> 16);
    for (size_t i = SPV_HEADER_WORDS; i < words;) {
        uint32_t w = spirv_word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
        if (op == OP_EXECUTION_MODE && count >= 3 &&
            spirv_word(code + 4 * (i + 1), swap) == function) {
            uint32_t mode = spirv_word(code + 4 * (i + 2), swap);
            if (mode >= MODE_INPUT_POINTS && mode <= MODE_INPUT_TRIANGLES_ADJACENCY &&
                out->execution_model == MODEL_GEOMETRY)
                out->input_primitive = mode;
            if (mode == MODE_OUTPUT_VERTICES && count >= 4)
                out->output_vertices = spirv_word(code + 4 * (i + 3), swap);
        }
        i += count;
    }
    /* A hull shader's per-vertex inputs: Input variables of its interface whose type is an
       array of a constant length (OpVariable -> OpTypePointer -> OpTypeArray -> OpConstant). */
    for (size_t i = past_string(code, entry + 3, entry_end);
         out->execution_model == MODEL_TESSELLATION_CONTROL && i < entry_end && !out->input_patch;
         i++) {
        uint32_t var = spirv_word(code + 4 * i, swap);
        size_t v = var < bound ? def[var] : 0;
        if (!v || (spirv_word(code + 4 * v, swap) & 0xffffu) != OP_VARIABLE ||
            spirv_word(code + 4 * (v + 3), swap) != STORAGE_INPUT)
            continue;
        uint32_t ptr = spirv_word(code + 4 * (v + 1), swap);
        size_t p = ptr < bound ? def[ptr] : 0;
        if (!p || (spirv_word(code + 4 * p, swap) & 0xffffu) != OP_TYPE_POINTER)
            continue;
        uint32_t array = spirv_word(code + 4 * (p + 3), swap);
        size_t a = array < bound ? def[array] : 0;
        if (!a || (spirv_word(code + 4 * a, swap) & 0xffffu) != OP_TYPE_ARRAY)
            continue;
        uint32_t length = spirv_word(code + 4 * (a + 3), swap);
        size_t c = length < bound ? def[length] : 0;
        if (c && (spirv_word(code + 4 * c, swap) & 0xffffu) == OP_CONSTANT)
            out->input_patch = spirv_word(code + 4 * (c + 3), swap);
    }
    dgpb_free(def);
    return DGPB_OK;
}
