/*
 * spirv_features.c - the OpCapability instructions of a SPIR-V module, the
 * 8- and 16-bit storage its buffers use, and the point size its geometry
 * and tessellation stages use (code/spirv/spirv_ops.h), read word by word
 * without SPIRV-Tools.
 */
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "code/code_features.h"
#include "code/spirv/spirv_numbers.h"
#include "code/spirv/spirv_words.h"
#include "code/spirv/spirv_ops.h"

/* The widths (8 | 16) of the scalars type `id` holds, in place (not behind pointers). */
static unsigned narrow_in(const uint8_t *code, bool swap, const uint32_t *def, uint32_t bound,
                          uint32_t id, uint8_t *seen, unsigned depth)
{
    if (id >= bound || !def[id] || seen[id] || depth > 64)
        return 0;
    seen[id] = 1;
    size_t i = def[id];
    uint32_t w = spirv_word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
    unsigned out = 0;
    if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && count >= 3) {
        uint32_t width = spirv_word(code + 4 * (i + 2), swap);
        out = width == 8 ? 8 : width == 16 ? 16 : 0;
    } else if ((op == OP_TYPE_VECTOR || op == OP_TYPE_MATRIX || op == OP_TYPE_ARRAY ||
                op == OP_TYPE_RUNTIME_ARRAY) &&
               count >= 3) {
        out = narrow_in(code, swap, def, bound, spirv_word(code + 4 * (i + 2), swap), seen,
                        depth + 1);
    } else if (op == OP_TYPE_STRUCT) {
        for (uint32_t m = 2; m < count; m++)
            out |= narrow_in(code, swap, def, bound, spirv_word(code + 4 * (i + m), swap), seen,
                             depth + 1);
    }
    seen[id] = 0; /* a type may be reached again along another path */
    return out;
}

/*
 * OpCapability operands, from the words after the five-word header; and the
 * 8- and 16-bit storage capabilities a module needs for a variable of
 * buffer, uniform or push-constant storage that holds an 8- or 16-bit scalar
 * (StorageBuffer16BitAccess, UniformAndStorageBuffer16BitAccess,
 * StoragePushConstant16 and their 8-bit rows), added where the module leaves
 * them out (Slang 2025.15 writes a StructuredBuffer<half> without them); and
 * GeometryPointSize or TessellationPointSize for a module with an entry
 * point of the Geometry or a tessellation execution model and a `BuiltIn
 * PointSize` decoration (Slang 2025.15 writes a geometry shader's
 * SV_PointSize without the capability Vulkan asks for it).
 */
int spirv_features_read(const uint8_t *code, size_t size, dgpb_code_features *f, dgpb_diag *d)
{
    bool swap;
    int rc = spirv_words_check(code, size, &swap, d);
    if (rc)
        return rc;
    size_t words = size / 4, cap = 0;
    uint32_t bound = spirv_word(code + 12, swap);
    if (bound > words) /* ids are defined by instructions, so never more than the words */
        bound = (uint32_t)words;
    uint32_t *def = mem_calloc(bound ? bound : 1, sizeof *def); /* defining instruction */
    uint8_t *seen = mem_calloc(bound ? bound : 1, 1);
    rc = def && seen ? DGPB_OK : dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    bool geometry = false, tessellation = false, point_size = false;
    for (size_t i = SPV_HEADER_WORDS; !rc && i < words;) {
        uint32_t w = spirv_word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
        if (count == 0 || count > words - i) {
            rc = dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)(4 * i),
                               "SPIR-V: the instruction at word %zu has a word count of %u, "
                               "past the module's end",
                               i, count);
            break;
        }
        if (op == OP_CAPABILITY && count == 2 &&
            !features_add(f, &cap, spirv_word(code + 4 * (i + 1), swap), "", 0))
            rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
        if (op >= OP_TYPE_INT && op <= OP_TYPE_POINTER && count >= 2) {
            uint32_t id = spirv_word(code + 4 * (i + 1), swap);
            if (id < bound)
                def[id] = (uint32_t)i;
        }
        if (op == OP_ENTRY_POINT && count >= 2) {
            uint32_t model = spirv_word(code + 4 * (i + 1), swap);
            geometry |= model == MODEL_GEOMETRY;
            tessellation |=
                model == MODEL_TESSELLATION_CONTROL || model == MODEL_TESSELLATION_EVALUATION;
        }
        /* OpDecorate id BuiltIn PointSize; OpMemberDecorate type member BuiltIn PointSize */
        size_t at = op == OP_DECORATE ? 2 : op == OP_MEMBER_DECORATE ? 3 : 0;
        if (at && count >= at + 2 && spirv_word(code + 4 * (i + at), swap) == DECORATION_BUILT_IN &&
            spirv_word(code + 4 * (i + at + 1), swap) == BUILT_IN_POINT_SIZE)
            point_size = true;
        i += count;
    }
    if (!rc && point_size &&
        ((geometry && !features_add(f, &cap, CAPABILITY_GEOMETRY_POINT_SIZE, "", 0)) ||
         (tessellation && !features_add(f, &cap, CAPABILITY_TESSELLATION_POINT_SIZE, "", 0))))
        rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    /* The variables' storage: 8- and 16-bit scalars in buffers, uniforms and push constants. */
    for (size_t i = SPV_HEADER_WORDS; !rc && i < words;) {
        uint32_t w = spirv_word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
        uint32_t type = count >= 4 ? spirv_word(code + 4 * (i + 1), swap) : 0;
        i += count;
        if (op != OP_VARIABLE || type >= bound || !def[type])
            continue;
        size_t p = def[type];
        if ((spirv_word(code + 4 * p, swap) & 0xffffu) != OP_TYPE_POINTER ||
            (spirv_word(code + 4 * p, swap) >> 16) < 4)
            continue;
        uint32_t storage = spirv_word(code + 4 * (p + 2), swap);
        if (storage != STORAGE_UNIFORM && storage != STORAGE_PUSH_CONSTANT &&
            storage != STORAGE_STORAGE_BUFFER && storage != STORAGE_PHYSICAL_STORAGE_BUFFER)
            continue;
        unsigned narrow =
            narrow_in(code, swap, def, bound, spirv_word(code + 4 * (p + 3), swap), seen, 0);
        /* StorageBuffer16BitAccess 4433, UniformAndStorageBuffer16BitAccess 4434,
           StoragePushConstant16 4435; the 8-bit ones 4448, 4449, 4450. */
        uint32_t row = storage == STORAGE_UNIFORM ? 1 : storage == STORAGE_PUSH_CONSTANT ? 2 : 0;
        if (((narrow & 16) && !features_add(f, &cap, 4433 + row, "", 0)) ||
            ((narrow & 8) && !features_add(f, &cap, 4448 + row, "", 0)))
            rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    dgpb_free(def);
    dgpb_free(seen);
    return rc;
}
