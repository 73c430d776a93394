/*
 * value_spirv_bools.c - whether a SPIR-V module reads a block's member as a
 * bool (code/spirv/value_spirv.h): Slang keeps a bool of a block as a 32-bit
 * int, and the code says it is a bool only by how it reads it, compared with
 * zero and nothing else (docs/run.md, "Bools").
 */
#include "code/spirv/value_spirv.h"

#include "core/alloc.h"
#include "code/spirv/spirv_numbers.h"

/* Whether `id` is a zero the code states: a constant 0, a null constant, a composite of zeros. */
static bool is_zero(const spv *m, uint32_t id, const uint8_t *local_zero, int depth)
{
    size_t at;
    if (id >= m->bound || depth > 4)
        return false;
    if (local_zero[id] || def_of(m, id, OP_CONSTANT_NULL, 3))
        return true;
    if ((at = def_of(m, id, OP_CONSTANT, 4))) {
        for (size_t i = at + 3; i < at + words_of(m, at); i++)
            if (m->w[i])
                return false;
        return true;
    }
    if ((at = def_of(m, id, OP_CONSTANT_COMPOSITE, 3))) {
        for (size_t i = at + 3; i < at + words_of(m, at); i++)
            if (!is_zero(m, m->w[i], local_zero, depth + 1))
                return false;
        return true;
    }
    return false;
}

/* What an id of the functions' code is to the member value_spirv_reads_bool() asks about. */
enum {
    REL_NONE,
    REL_AROUND, /* a pointer to the block or to an aggregate that holds the member */
    REL_AT,     /* a pointer to the member, or into it (an element, a component) */
    REL_VALUE,  /* what a load through such a pointer gave */
};

/* A forward walk of the functions' code: SPIR-V defines an id before the blocks it dominates. */
int value_spirv_reads_bool(const spv *m, uint32_t var, const member_path *path, bool *is,
                           dgpb_diag *diag)
{
    *is = false;
    if (!path->count || !m->code_at)
        return DGPB_OK;
    uint8_t *rel = mem_calloc(m->bound, 1), *matched = mem_calloc(m->bound, 1);
    uint8_t *local_zero = mem_calloc(m->bound, 1);
    if (!rel || !matched || !local_zero) {
        dgpb_free(rel);
        dgpb_free(matched);
        dgpb_free(local_zero);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading SPIR-V");
    }
    rel[var] = REL_AROUND;
    size_t reads = 0;
    bool ok = true;
    for (size_t at = m->code_at; ok && at < m->n; at += words_of(m, at)) {
        uint32_t op = op_of(m, at), wc = words_of(m, at);
        const uint32_t *o = m->w + at + 1;
        bool known = false; /* the instruction is one of the forms read here */
        if ((op == OP_ACCESS_CHAIN || op == OP_IN_BOUNDS_ACCESS_CHAIN) && wc >= 4 &&
            o[1] < m->bound && o[2] < m->bound && rel[o[2]] != REL_NONE) {
            known = true;
            uint32_t k = matched[o[2]];
            bool same = true;
            for (uint32_t j = 3; j + 1 < wc; j++) {
                if (o[j] < m->bound && rel[o[j]] != REL_NONE)
                    ok = false; /* a read member used as an index */
                if (rel[o[2]] == REL_AT || k >= path->count || !same)
                    continue;
                size_t c = def_of(m, o[j], OP_CONSTANT, 4);
                if (path->index[k] != ANY_INDEX && (!c || m->w[c + 3] != path->index[k]))
                    same = false;
                k++;
            }
            if (same) {
                rel[o[1]] = rel[o[2]] == REL_AT || k >= path->count ? REL_AT : REL_AROUND;
                matched[o[1]] = (uint8_t)k;
            }
        } else if (op == OP_LOAD && wc >= 4 && o[2] < m->bound && rel[o[2]] != REL_NONE) {
            known = true;
            if (rel[o[2]] == REL_AT && o[1] < m->bound)
                rel[o[1]] = REL_VALUE;
            else
                ok = false; /* the block, or a struct around the member, loaded whole */
        } else if (op == OP_I_NOT_EQUAL && wc == 5 && o[2] < m->bound && o[3] < m->bound &&
                   ((rel[o[2]] == REL_VALUE && is_zero(m, o[3], local_zero, 0)) ||
                    (rel[o[3]] == REL_VALUE && is_zero(m, o[2], local_zero, 0)))) {
            known = true;
            reads++;
        } else if (op == OP_COMPOSITE_CONSTRUCT && wc >= 3 && o[1] < m->bound) {
            bool zero = true;
            for (uint32_t j = 2; j + 1 < wc; j++)
                zero = zero && is_zero(m, o[j], local_zero, 0);
            local_zero[o[1]] = zero;
        }
        /* Any other use of an id that leads to the member: not read as a bool. (A literal
           operand equal to such an id reads as a use too: the answer is then "int".) */
        for (uint32_t j = 1; !known && j < wc; j++)
            if (o[j - 1] < m->bound && rel[o[j - 1]] != REL_NONE)
                ok = false;
        if (wc == 0)
            break;
    }
    *is = ok && reads > 0;
    dgpb_free(rel);
    dgpb_free(matched);
    dgpb_free(local_zero);
    return DGPB_OK;
}
