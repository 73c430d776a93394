/*
 * code/spirv/value_spirv.h - what code/spirv/value_spirv.c keeps of a
 * SPIR-V module while it reads a value's type (internal to code/spirv/):
 * the words, where each id is defined, the decorations that matter, and
 * the path from a block's variable to a member; and whether the code reads
 * a member as a bool (code/spirv/value_spirv_bools.c).
 */
#ifndef DGPB_VALUE_SPIRV_H
#define DGPB_VALUE_SPIRV_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define value_spirv_reads_bool dgpb__value_spirv_reads_bool

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#define MAX_DEPTH 64

/* One OpMemberDecorate that matters here, or an OpMemberName (decoration MEMBER_NAME, value
   the word index of the instruction). */
#define MEMBER_NAME UINT32_MAX
typedef struct member_deco {
    uint32_t type, member, decoration, value;
} member_deco;

/* What the walk keeps of a module. */
typedef struct spv {
    uint32_t *w; /* a copy: blobs inside a bundle are not aligned to words */
    size_t n;
    uint32_t bound;
    uint32_t *def;                    /* word index of the instruction defining id; 0 none */
    int64_t *set, *binding, *spec_id; /* decorations, -1 when absent */
    uint32_t *array_stride;           /* ArrayStride, 0 when absent */
    uint32_t *name;                   /* word index of the id's OpName, 0 when absent */
    member_deco *md;
    size_t md_count, md_cap;
    size_t entry_at; /* word index of the OpEntryPoint named like the entry (or the first) */
    size_t code_at;  /* word index of the first OpFunction: where the functions' code begins */
} spv;

static inline uint32_t op_of(const spv *m, size_t at)
{
    return m->w[at] & 0xFFFFu;
}

static inline uint32_t words_of(const spv *m, size_t at)
{
    return m->w[at] >> 16;
}


/* The instruction defining `id` if it has opcode `op` (and at least `words` words), else 0. */
static inline size_t def_of(const spv *m, uint32_t id, uint32_t op, uint32_t words)
{
    if (id >= m->bound || !m->def[id])
        return 0;
    size_t at = m->def[id];
    return op_of(m, at) == op && words_of(m, at) >= words ? at : 0;
}

/* An index of member_path that stands for any element of an array. */
#define ANY_INDEX UINT32_MAX

/* The indices that lead from a block to a value: member numbers, ANY_INDEX for an array's. */
typedef struct member_path {
    uint32_t index[MAX_DEPTH + 2];
    uint32_t count;
} member_path;

static inline void path_push(member_path *p, uint32_t index)
{
    if (p->count < sizeof p->index / sizeof p->index[0])
        p->index[p->count++] = index;
}

/*
 * Whether the code reads the member of block variable `var` at `path` only as
 * Slang reads a bool, which it keeps in a block as a 32-bit int: every load
 * of it (or of an element or a component of it) compared with zero by
 * OpINotEqual and used for nothing else, and the block around it never
 * loaded whole (*is false when the member is never read: the code then
 * cannot say). An int the code only ever compares with zero reads so too;
 * its 0 and 1 mean all it can (docs/run.md, "Bools").
 */
int value_spirv_reads_bool(const spv *m, uint32_t var, const member_path *path, bool *is,
                           dgpb_diag *diag);

#endif
