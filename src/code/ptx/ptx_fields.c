/*
 * ptx_fields.c - a struct value's fields on ptx (code/ptx/ptx_ops.h): PTX
 * states no struct types, so the fields come from another target of the
 * bundle (code/value_fields.h, code_fields_lend) and are laid out again here
 * as Slang's CUDA code lays its structs out, which nvcc compiles by C's
 * rules: each field at the next multiple of its alignment, a struct as
 * aligned as its most aligned field and as large as its last field's end
 * rounded up to that, an array (Slang's FixedArray<T, N>) N elements of
 * sizeof(T). Vectors are CUDA's built-in types: n components of e bytes
 * take n x e bytes, aligned to e (n = 1 or 3), 2e (n = 2), 4e up to 16
 * (n = 4): a float3 is 12 bytes aligned to 4, a float4 16 aligned to 16. A
 * matrix is Slang's Matrix<T, R, C>, its stored vectors (rows, or columns
 * when column-major, as code_type_lend packs them) tightly one after the
 * other; a bool CUDA's one byte (a block's 32-bit int where the code reads
 * it as a bool). The borrowed layout is taken only when it fills the row's
 * bytes exactly (a bool the code does not read as one, which a block keeps
 * as a 32-bit int, or any other difference, shows as another size).
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "code/ptx/ptx_ops.h"

static uint32_t round_up(uint32_t v, uint32_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* A CUDA vector of `n` components of `e` bytes: its alignment. */
static uint32_t vector_align(uint32_t n, uint32_t e)
{
    uint32_t a = n == 2 ? 2 * e : n == 4 ? 4 * e : e;
    return a > 16 ? 16 : a;
}

/* Lays out field `f` (its type's strides updated), given the structs laid out before it: its
   size and alignment in *size, *align. False when the type is not described. */
static bool field_layout(const code_fields *out, code_field *f, uint32_t *size, uint32_t *align)
{
    dgpb_code_type *t = &f->type;
    uint32_t one, a;
    if (t->aggregate) {
        if (f->of < 0 || (uint32_t)f->of >= out->struct_count)
            return false;
        one = out->structs[f->of].size;
        a = out->structs[f->of].align;
    } else {
        if (t->scalar == DGPB_SCALAR_BOOL)
            t->bits = 8; /* 32 bits in a block, a byte in CUDA's (code_type_lend) */
        uint32_t e = t->bits / 8;
        if (t->scalar == DGPB_SCALAR_UNKNOWN || !e)
            return false;
        if (t->rows > 1) { /* Matrix<T, R, C>: its stored vectors, each a CUDA vector */
            uint32_t vectors = t->column_major ? t->columns : t->rows;
            uint32_t each = t->column_major ? t->rows : t->columns;
            t->matrix_stride = each * e;
            one = vectors * each * e;
            a = vector_align(each, e);
        } else {
            uint32_t n = t->columns ? t->columns : 1;
            one = n * e;
            a = vector_align(n, e);
        }
    }
    if (t->array_count) {
        t->array_stride = round_up(one, a);
        one = t->array_count * t->array_stride;
    }
    *size = one;
    *align = a;
    return true;
}

bool ptx_fields_lend(const code_fields *from, uint32_t size, code_fields *out, char *why,
                     size_t why_size)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    /* A struct's fields only name structs added before it: lay them out in that order. */
    for (uint32_t i = 0; i < from->struct_count; i++) {
        const code_struct *s = &from->structs[i];
        code_field *fields = mem_calloc(s->count ? s->count : 1, sizeof *fields);
        if (!fields) {
            snprintf(why, why_size, "out of memory");
            return false;
        }
        uint32_t end = 0, align = 1;
        bool ok = true;
        for (uint32_t k = 0; k < s->count && ok; k++) {
            code_field *f = &fields[k];
            *f = from->fields[s->first + k];
            uint32_t fs = 0, fa = 1;
            if (!field_layout(out, f, &fs, &fa)) {
                snprintf(why, why_size, "field '%s' of struct %s has no type to lay out", f->name,
                         s->name);
                ok = false;
                break;
            }
            f->offset = round_up(end, fa);
            f->size = fs;
            end = f->offset + fs;
            align = fa > align ? fa : align;
        }
        int32_t index = -1;
        if (ok && code_fields_add_struct(out, s->name, strlen(s->name), round_up(end, align), align,
                                         fields, s->count, &index, &d)) {
            snprintf(why, why_size, "%s", d.message);
            ok = false;
        }
        dgpb_free(fields);
        if (!ok)
            return false;
    }
    out->root = from->root;
    out->count = from->count;
    if (out->root < 0 || (uint32_t)out->root >= out->struct_count) {
        snprintf(why, why_size, "no struct to lend");
        return false;
    }
    const code_struct *root = &out->structs[out->root];
    out->stride = out->count ? root->size : 0;
    uint32_t total = out->count ? out->count * out->stride : root->size;
    if (total != size) {
        snprintf(why, why_size,
                 "its fields take %u bytes by CUDA's layout, but the row on ptx has %u", total,
                 size);
        return false;
    }
    return true;
}
