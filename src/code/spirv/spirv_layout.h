/*
 * code/spirv/spirv_layout.h - Vulkan's layout rules for the types of a SPIR-V
 * block: a type's alignment and a struct's padded size (internal; the rule is
 * docs/format.md, "Where a row lives").
 *
 * SPIR-V states every member's Offset but no struct's size. Vulkan's layout
 * rules ("Offset and Stride Assignment") reserve the bytes between the end of
 * a struct and the next multiple of its alignment: no member may be placed
 * there. So a struct's size in a block, as Slang reflects it and a host's C
 * struct counts it, is the end of its last member rounded up to its
 * alignment, by the block's rules: a uniform block's (Uniform storage class)
 * are std140's extended alignments (arrays and structs rounded up to 16), a
 * push-constant or storage block's std430's base alignments.
 *
 * The two readers of SPIR-V types (code/spirv/spirv_analysis.c over
 * SPIRV-Tools' parse, code/spirv/value_spirv.c over raw words) hand their
 * instructions and member decorations through spirv_types.
 */
#ifndef DGPB_SPIRV_LAYOUT_H
#define DGPB_SPIRV_LAYOUT_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define spirv_layout_align dgpb__spirv_layout_align
#define spirv_layout_pad dgpb__spirv_layout_pad

#include <stdbool.h>
#include <stdint.h>

/* How a reader of SPIR-V types shows them to the layout rules. */
typedef struct spirv_types {
    const void *ctx;
    /* The words of the instruction defining `id` (its first word included) and their
       count in *words; NULL when none. */
    const uint32_t *(*def)(const void *ctx, uint32_t id, uint32_t *words);
    /* Whether member `member` of struct `type` has decoration `deco`. */
    bool (*has_member_deco)(const void *ctx, uint32_t type, uint32_t member, uint32_t deco);
} spirv_types;

/* The block rules: std430's base alignments, or std140's extended ones. */
typedef enum spirv_rules {
    SPIRV_RULES_NONE = 0, /* no padding: a struct ends where its last member ends */
    SPIRV_RULES_STD430,
    SPIRV_RULES_STD140,
    SPIRV_RULES_SCALAR, /* scalar block layouts: everything aligns to its scalars */
} spirv_rules;

/*
 * The alignment of type `id` by `rules` (`row_major`: the RowMajor decoration
 * of the member holding it, for a matrix); 1 for a type it cannot tell (an
 * unknown id, a runtime array, nesting deeper than 16) and under
 * SPIRV_RULES_NONE.
 */
uint32_t spirv_layout_align(const spirv_types *t, uint32_t id, bool row_major, spirv_rules rules);

/* A struct's padded size: `end` (where its last member ends) rounded up to the
   alignment of struct type `id` by `rules`. */
uint64_t spirv_layout_pad(const spirv_types *t, uint32_t id, uint64_t end, spirv_rules rules);

#endif
