/*
 * spirv_layout.c - Vulkan's layout rules for the types of a SPIR-V block
 * (code/spirv/spirv_layout.h): alignments, and a struct's padded size.
 *
 * The alignments are Vulkan's ("Offset and Stride Assignment"): a scalar's is
 * its size (a bool 4), a two-component vector's twice its component's, a
 * three- or four-component vector's four times; a column-major matrix's that
 * of its column vector, a row-major one's that of a vector of as many
 * components as it has columns; an array's its element's, a struct's the
 * largest of its members' (std140 rounds both up to 16); a physical storage
 * buffer pointer's 8.
 */
#include "code/spirv/spirv_layout.h"

#include <stddef.h>

#include "code/spirv/spirv_numbers.h"

#define MAX_DEPTH 16

static uint32_t round16(uint32_t a, spirv_rules rules)
{
    return rules == SPIRV_RULES_STD140 && a < 16 ? 16 : a;
}

/* A vector of `count` components, each aligned to `component` (scalar layouts: the component's
   alignment alone). */
static uint32_t vector_align(uint32_t component, uint32_t count, spirv_rules rules)
{
    if (rules == SPIRV_RULES_SCALAR)
        return component;
    return count == 2 ? 2 * component : count >= 3 ? 4 * component : component;
}

static uint32_t align_of(const spirv_types *t, uint32_t id, bool row_major, spirv_rules rules,
                         int depth)
{
    uint32_t n = 0;
    const uint32_t *w = depth > MAX_DEPTH ? NULL : t->def(t->ctx, id, &n);
    if (!w)
        return 1;
    switch (w[0] & 0xffffu) {
    case OP_TYPE_BOOL:
        return 4;
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT:
        return n >= 3 && w[2] >= 8 ? w[2] / 8 : 1;
    case OP_TYPE_VECTOR:
        return n >= 4 ? vector_align(align_of(t, w[2], false, rules, depth + 1), w[3], rules) : 1;
    case OP_TYPE_MATRIX: {
        uint32_t cn = 0;
        const uint32_t *column = n >= 4 ? t->def(t->ctx, w[2], &cn) : NULL;
        if (!column || (column[0] & 0xffffu) != OP_TYPE_VECTOR || cn < 4)
            return 1;
        uint32_t component = align_of(t, column[2], false, rules, depth + 1);
        return vector_align(component, row_major ? w[3] : column[3], rules);
    }
    case OP_TYPE_ARRAY:
    case OP_TYPE_RUNTIME_ARRAY:
        return n >= 3 ? round16(align_of(t, w[2], row_major, rules, depth + 1), rules) : 1;
    case OP_TYPE_STRUCT: {
        uint32_t a = 1;
        for (uint32_t m = 0; m + 2 < n; m++) {
            bool rm = t->has_member_deco(t->ctx, id, m, DECORATION_ROW_MAJOR);
            uint32_t ma = align_of(t, w[2 + m], rm, rules, depth + 1);
            a = ma > a ? ma : a;
        }
        return round16(a, rules);
    }
    case OP_TYPE_POINTER:
        return n >= 4 && w[2] == STORAGE_PHYSICAL_STORAGE_BUFFER ? 8 : 1;
    default:
        return 1;
    }
}

uint32_t spirv_layout_align(const spirv_types *t, uint32_t id, bool row_major, spirv_rules rules)
{
    return rules == SPIRV_RULES_NONE ? 1 : align_of(t, id, row_major, rules, 0);
}

uint64_t spirv_layout_pad(const spirv_types *t, uint32_t id, uint64_t end, spirv_rules rules)
{
    uint64_t a = spirv_layout_align(t, id, false, rules);
    return (end + a - 1) / a * a;
}
