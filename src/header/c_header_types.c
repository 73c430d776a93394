/*
 * c_header_types.c - the C type of a value row (header/c_header_types.h).
 */
#include "header/c_header_types.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "dgpb/format.h"
#include "code/code_format.h"

int c_header_types_init(c_header_types *ts, const dgpb_bundle *b, dgpb_diag *diag)
{
    *ts = (c_header_types){.b = b, .diag = diag};
    return DGPB_OK;
}

void c_header_types_free(c_header_types *ts)
{
    *ts = (c_header_types){0};
}

static bool scalar_base(const dgpb_code_type *v, c_type *out)
{
    const char *base = NULL;
    switch (v->scalar) {
    case DGPB_SCALAR_FLOAT: /* C has no 16-bit float: its bits */
        base = v->bits == 16   ? "uint16_t"
               : v->bits == 32 ? "float"
               : v->bits == 64 ? "double"
                               : NULL;
        break;
    case DGPB_SCALAR_INT:
        base = v->bits == 8    ? "int8_t"
               : v->bits == 16 ? "int16_t"
               : v->bits == 32 ? "int32_t"
               : v->bits == 64 ? "int64_t"
                               : NULL;
        break;
    case DGPB_SCALAR_UINT:
    case DGPB_SCALAR_BOOL: /* a bool in a block is a 32-bit (or 8-bit) integer */
        base = v->bits == 8    ? "uint8_t"
               : v->bits == 16 ? "uint16_t"
               : v->bits == 32 ? "uint32_t"
               : v->bits == 64 ? "uint64_t"
                               : NULL;
        break;
    case DGPB_SCALAR_UNKNOWN:
        break;
    }
    if (!base)
        return false;
    snprintf(out->base, sizeof out->base, "%s", base);
    out->align = v->bits / 8;
    return true;
}

bool c_type_from_value(const dgpb_code_type *v, uint32_t size, c_type *out)
{
    memset(out, 0, sizeof *out);
    out->value = *v;
    out->aggregate = v->aggregate;
    if (v->aggregate || !scalar_base(v, out))
        return false;
    uint32_t elem = out->align, columns = v->columns ? v->columns : 1, rows = v->rows ? v->rows : 1;
    uint32_t dims[3], ndims = 0, esize;
    if (rows > 1) { /* a matrix: `major` vectors of `minor` components, matrix_stride apart: its
                       rows, or its columns when column-major (m[column][row] in C then) */
        uint32_t major = v->column_major ? columns : rows, minor = v->column_major ? rows : columns;
        uint32_t stride = v->matrix_stride ? v->matrix_stride : minor * elem;
        if (stride % elem || stride < minor * elem)
            return false;
        dims[ndims++] = major;
        dims[ndims++] = stride / elem;
        esize = major * stride;
    } else if (columns > 1) {
        dims[ndims++] = columns;
        esize = columns * elem;
    } else
        esize = elem;
    uint32_t total = esize;
    if (v->array_count) {
        uint32_t stride = v->array_stride ? v->array_stride : esize;
        if (stride == esize) {
            memmove(dims + 1, dims, ndims * sizeof *dims);
            dims[0] = v->array_count;
            ndims++;
        } else if (ndims <= 1 && stride > esize && stride % elem == 0) {
            ndims = 2; /* scalars or vectors, each padded to the stride */
            dims[0] = v->array_count;
            dims[1] = stride / elem;
        } else
            return false;
        total = v->array_count * stride;
    }
    if (total != size)
        return false;
    size_t n = 0;
    for (uint32_t i = 0; i < ndims; i++)
        n += (size_t)snprintf(out->dims + n, sizeof out->dims - n, "[%u]", dims[i]);
    out->size = size;
    out->known = true;
    return true;
}

void c_type_text(const c_type *c, char *buf, size_t size)
{
    if (c->text[0]) {
        snprintf(buf, size, "%s", c->text);
        return;
    }
    code_type_text(&c->value, buf, size);
    size_t n = strlen(buf);
    if (c->value.rows > 1 && c->value.column_major && n < size) /* the C array's indices */
        snprintf(buf + n, size - n, ", [column][row]");
}

/* Row `row` of entry `e` as the code's readers take it, and the entry's name into `entry`. */
static code_row row_of(const dgpb_entry_view *e, uint32_t row, char entry[DGPB_MAX_STRING + 1])
{
    const dgpb_param_view *p = &e->params[row];
    memcpy(entry, e->name.ptr, e->name.len);
    entry[e->name.len] = 0;
    return (code_row){.kind = p->kind,
                      .space = p->space,
                      .binding = p->binding,
                      .offset = p->offset,
                      .size = p->size};
}

/* Keeps the first failure to read the code in ts; whether `rc` is one. */
static bool keep_failure(c_header_types *ts, int rc, const dgpb_diag *d)
{
    if (rc && !ts->rc) {
        ts->rc = rc;
        if (ts->diag)
            *ts->diag = *d;
    }
    return rc != 0;
}

/* The type the code of entry `e` of target `t` states for its row `row`, into *v; false when
   the code cannot be read (the first such failure is kept in ts). */
static bool raw_type(c_header_types *ts, const dgpb_target_view *t, const dgpb_entry_view *e,
                     uint32_t row, dgpb_code_type *v)
{
    char entry[DGPB_MAX_STRING + 1];
    code_row desc = row_of(e, row, entry);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = code_type_find(t->code_format_id, e->code.data, e->code.size, entry, &desc, v, &d);
    return !keep_failure(ts, rc, &d);
}

/* The C type the code of entry `e` of target `t` states for its row `row`. */
static bool code_type(c_header_types *ts, const dgpb_target_view *t, const dgpb_entry_view *e,
                      uint32_t row, c_type *out)
{
    dgpb_code_type v;
    if (!raw_type(ts, t, e, row, &v))
        return false;
    return c_type_from_value(&v, e->params[row].size, out) || v.aggregate;
}

/* The same row on target `other`: the same entry, the same index, name and kind (and size,
   with `same_size`). */
static const dgpb_entry_view *same_row(const dgpb_target_view *other, const dgpb_entry_view *e,
                                       uint32_t row, bool same_size)
{
    const dgpb_param_view *p = &e->params[row];
    for (uint32_t i = 0; i < other->entry_count; i++) {
        const dgpb_entry_view *o = &other->entries[i];
        if (o->name.len != e->name.len || memcmp(o->name.ptr, e->name.ptr, e->name.len))
            continue;
        if (row >= o->param_count)
            return NULL;
        const dgpb_param_view *q = &o->params[row];
        bool same = q->kind == p->kind && (!same_size || q->size == p->size) &&
                    q->name.len == p->name.len && !memcmp(q->name.ptr, p->name.ptr, p->name.len);
        return same ? o : NULL;
    }
    return NULL;
}

void c_header_types_find(c_header_types *ts, const dgpb_target_view *t, const dgpb_entry_view *e,
                         uint32_t row, c_type *out)
{
    assert(row < e->param_count);
    memset(out, 0, sizeof *out);
    if (code_type(ts, t, e, row, out))
        return;
    bool aggregate = out->aggregate;
    /* Another target's code, by its format's type_rank (spirv, wgsl, then the others), each rank
       in name order: the same row of the same size as it is; else a matrix of another size
       (a std140 block pads what CUDA packs) lent packed tightly (code_type_lend). */
    for (int pass = 0; pass < 2; pass++)
        for (unsigned rank = 0; rank < 3; rank++)
            for (uint32_t i = 0; i < dgpb_bundle_target_count(ts->b); i++) {
                const dgpb_target_view *o = dgpb_bundle_target(ts->b, i);
                unsigned its = code_ops_of_target((dgpb_target_id)o->id)->type_rank;
                if (o == t || (its < 2 ? its : 2) != rank)
                    continue;
                const dgpb_entry_view *oe = same_row(o, e, row, pass == 0);
                c_type c = {0};
                dgpb_code_type v, lent;
                if (pass == 0 && oe && code_type(ts, o, oe, row, &c) && c.known) {
                    *out = c;
                    return;
                }
                if (pass == 1 && oe && raw_type(ts, o, oe, row, &v) && v.rows > 1 &&
                    code_type_lend(&v, e->params[row].size, &lent) && lent.rows > 1 &&
                    c_type_from_value(&lent, e->params[row].size, &c)) {
                    *out = c;
                    return;
                }
                aggregate |= c.aggregate;
            }
    memset(out, 0, sizeof *out);
    out->aggregate = aggregate;
}

/* The fields the code of entry `e` of target `t` states for its row `row` (the first failure to
   read the code is kept in ts). */
static void raw_fields(c_header_types *ts, const dgpb_target_view *t, const dgpb_entry_view *e,
                       uint32_t row, code_fields *out)
{
    char entry[DGPB_MAX_STRING + 1];
    code_row desc = row_of(e, row, entry);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    keep_failure(
        ts, code_fields_find(t->code_format_id, e->code.data, e->code.size, entry, &desc, out, &d),
        &d);
}

void c_header_types_fields(c_header_types *ts, const dgpb_target_view *t, const dgpb_entry_view *e,
                           uint32_t row, code_fields *out)
{
    assert(row < e->param_count);
    raw_fields(ts, t, e, row, out);
    if (out->root >= 0 || ts->rc)
        return;
    for (unsigned rank = 0; rank < 3; rank++)
        for (uint32_t i = 0; i < dgpb_bundle_target_count(ts->b); i++) {
            const dgpb_target_view *o = dgpb_bundle_target(ts->b, i);
            unsigned its = code_ops_of_target((dgpb_target_id)o->id)->type_rank;
            const dgpb_entry_view *oe =
                o == t || (its < 2 ? its : 2) != rank ? NULL : same_row(o, e, row, false);
            if (!oe)
                continue;
            code_fields theirs;
            char why[160];
            raw_fields(ts, o, oe, row, &theirs);
            bool lent =
                theirs.root >= 0 && code_fields_lend(t->code_format_id, &theirs,
                                                     e->params[row].size, out, why, sizeof why);
            code_fields_free(&theirs);
            if (lent || ts->rc)
                return;
        }
}

void c_header_types_block_size(c_header_types *ts, const dgpb_target_view *t,
                               const dgpb_entry_view *e, uint32_t row, uint32_t *size)
{
    char entry[DGPB_MAX_STRING + 1];
    code_row desc = row_of(e, row, entry);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    *size = 0;
    if (keep_failure(ts, code_block_size_find(t->code_format_id, e->code.data, e->code.size,
                                              entry, &desc, size, &d),
                     &d))
        *size = 0;
}
