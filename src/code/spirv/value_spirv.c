/*
 * value_spirv.c - the type of a value row, a uniform block's size, a
 * storage texture's texel format and a struct value's fields (a structured
 * buffer's element struct among them) in SPIR-V (code/spirv/spirv_ops.h; the
 * rules are docs/format.md, "Value types").
 *
 * One raw word walk (no SPIRV-Tools: only types, constants, variables and
 * their decorations are read) records where each id is defined and its
 * decorations; the row is then found in the type of its variable.
 *
 * Finding the member at a row's offset: a struct of several members that the
 * row covers whole is an aggregate; a struct of one member (Slang's
 * _MatrixStorage_* and _Array_std140_* wrappers of std140 matrices and
 * arrays) is its member; an array the row covers whole is an array value of
 * its element; otherwise the walk goes into the member or element that holds
 * the offset. A struct Slang names as a matrix's storage wrapper
 * (_MatrixStorage_float3x4std140, code/value_types.h) whose one member is an
 * array of the stored vectors the name says is that matrix, row- or
 * column-major; any other struct of one member is its member. An array is
 * its logical element at its ArrayStride (std140 pads a float to 16 bytes in
 * place, so SPIR-V needs no wrapper's name read, unlike WGSL).
 *
 * A bool of a block is a 32-bit int member in SPIR-V; the code says it is a
 * bool only by how it reads it, compared with zero and nothing else
 * (value_spirv_reads_bool(); docs/run.md, "Bools").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "code/spirv/spirv_analysis.h"
#include "code/spirv/spirv_layout.h"
#include "code/spirv/spirv_numbers.h"
#include "code/spirv/spirv_ops.h"
#include "code/spirv/value_spirv.h"
#include "code/value_types.h"

static void spv_free(spv *m)
{
    dgpb_free(m->w);
    dgpb_free(m->def);
    dgpb_free(m->set);
    dgpb_free(m->binding);
    dgpb_free(m->spec_id);
    dgpb_free(m->array_stride);
    dgpb_free(m->name);
    dgpb_free(m->md);
}

/* The NUL-terminated literal string at words [at, end) equals `s`. */
static bool literal_is(const spv *m, size_t at, size_t end, const char *s)
{
    size_t len = strlen(s), bytes = (end - at) * 4;
    if (len >= bytes)
        return false;
    const char *p = (const char *)(m->w + at);
    return !memcmp(p, s, len) && p[len] == 0;
}

static int spv_corrupt(dgpb_diag *diag, const char *what, size_t at)
{
    return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, (int64_t)(at * 4),
                         "malformed SPIR-V: %s at word %zu", what, at);
}

/* Reads the module's header, ids and decorations. */
static int spv_load(spv *m, const uint8_t *code, size_t len, const char *entry, dgpb_diag *diag)
{
    memset(m, 0, sizeof *m);
    if (len < 20 || len % 4)
        return spv_corrupt(diag, "not a whole SPIR-V module", 0);
    if (!(m->w = mem_alloc(len)))
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading SPIR-V");
    memcpy(m->w, code, len);
    m->n = len / 4;
    if (m->w[0] != SPV_MAGIC)
        return spv_corrupt(diag, "not a SPIR-V module (magic)", 0);
    m->bound = m->w[3];
    if (!m->bound || m->bound > DGPB_SPIRV_MAX_ID_BOUND)
        return spv_corrupt(diag, "an id bound out of range", 3);
    m->def = mem_calloc(m->bound, sizeof *m->def);
    m->set = mem_alloc(m->bound * sizeof *m->set);
    m->binding = mem_alloc(m->bound * sizeof *m->binding);
    m->spec_id = mem_alloc(m->bound * sizeof *m->spec_id);
    m->array_stride = mem_calloc(m->bound, sizeof *m->array_stride);
    m->name = mem_calloc(m->bound, sizeof *m->name);
    if (!m->def || !m->set || !m->binding || !m->spec_id || !m->array_stride || !m->name)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading SPIR-V");
    for (uint32_t i = 0; i < m->bound; i++)
        m->set[i] = m->binding[i] = m->spec_id[i] = -1;
    size_t first_entry = 0;
    for (size_t at = 5; at < m->n;) {
        uint32_t wc = words_of(m, at), op = op_of(m, at);
        if (!wc || at + wc > m->n)
            return spv_corrupt(diag, "a truncated instruction", at);
        const uint32_t *o = m->w + at + 1;
        uint32_t result = 0;
        switch (op) {
        case OP_ENTRY_POINT:
            if (wc >= 4) {
                if (!first_entry)
                    first_entry = at;
                if (entry && !m->entry_at && literal_is(m, at + 3, at + wc, entry))
                    m->entry_at = at;
            }
            break;
        case OP_NAME:
            if (wc >= 3 && o[0] < m->bound)
                m->name[o[0]] = (uint32_t)at;
            break;
        case OP_MEMBER_NAME:
            if (wc >= 4) {
                member_deco *v = mem_grow(m->md, m->md_count, &m->md_cap, sizeof *v, 16);
                if (!v)
                    return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading SPIR-V");
                m->md = v;
                m->md[m->md_count++] = (member_deco){o[0], o[1], MEMBER_NAME, (uint32_t)at};
            }
            break;
        case OP_DECORATE:
            if (wc >= 4 && o[0] < m->bound) {
                int64_t *slot = o[1] == DECORATION_SPEC_ID          ? m->spec_id
                                : o[1] == DECORATION_BINDING        ? m->binding
                                : o[1] == DECORATION_DESCRIPTOR_SET ? m->set
                                                                    : NULL;
                if (slot)
                    slot[o[0]] = o[2];
                if (o[1] == DECORATION_ARRAY_STRIDE)
                    m->array_stride[o[0]] = o[2];
            }
            break;
        case OP_MEMBER_DECORATE:
            if (wc >= 4 && (o[2] == DECORATION_OFFSET || o[2] == DECORATION_MATRIX_STRIDE ||
                            o[2] == DECORATION_ROW_MAJOR)) {
                member_deco *v = mem_grow(m->md, m->md_count, &m->md_cap, sizeof *v, 16);
                if (!v)
                    return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading SPIR-V");
                m->md = v;
                m->md[m->md_count++] = (member_deco){
                    o[0], o[1], o[2], o[2] == DECORATION_ROW_MAJOR ? 1 : (wc >= 5 ? o[3] : 0)};
            }
            break;
        case OP_TYPE_BOOL:
        case OP_TYPE_INT:
        case OP_TYPE_FLOAT:
        case OP_TYPE_VECTOR:
        case OP_TYPE_MATRIX:
        case OP_TYPE_IMAGE:
        case OP_TYPE_ARRAY:
        case OP_TYPE_RUNTIME_ARRAY:
        case OP_TYPE_STRUCT:
        case OP_TYPE_POINTER:
            result = wc >= 2 ? o[0] : 0;
            break;
        case OP_FUNCTION:
            if (!m->code_at)
                m->code_at = at;
            break;
        case OP_CONSTANT:
        case OP_CONSTANT_COMPOSITE:
        case OP_CONSTANT_NULL:
        case OP_SPEC_CONSTANT_TRUE:
        case OP_SPEC_CONSTANT_FALSE:
        case OP_SPEC_CONSTANT:
        case OP_SPEC_CONSTANT_COMPOSITE:
        case OP_VARIABLE:
            result = wc >= 3 ? o[1] : 0;
            break;
        default:
            break;
        }
        if (result) {
            if (result >= m->bound)
                return spv_corrupt(diag, "an id beyond the bound", at);
            m->def[result] = (uint32_t)at;
        }
        at += wc;
    }
    if (!m->entry_at)
        m->entry_at = first_entry;
    return DGPB_OK;
}

/* A member decoration's value, or `missing`. */
static uint32_t member_deco_of(const spv *m, uint32_t type, uint32_t member, uint32_t deco,
                               uint32_t missing)
{
    for (size_t i = 0; i < m->md_count; i++)
        if (m->md[i].type == type && m->md[i].member == member && m->md[i].decoration == deco)
            return m->md[i].value;
    return missing;
}

/* The value of an integer constant, or 0. */
static uint32_t constant_of(const spv *m, uint32_t id)
{
    size_t at = def_of(m, id, OP_CONSTANT, 4);
    if (!at)
        at = def_of(m, id, OP_SPEC_CONSTANT, 4);
    return at ? m->w[at + 3] : 0;
}

/* Fills scalar, bits and columns of a scalar or vector type; false for anything else. */
static bool spv_numeric(const spv *m, uint32_t id, dgpb_code_type *t)
{
    size_t at;
    uint32_t columns = 1;
    if ((at = def_of(m, id, OP_TYPE_VECTOR, 4))) {
        columns = m->w[at + 3];
        id = m->w[at + 2];
    }
    if ((at = def_of(m, id, OP_TYPE_BOOL, 2))) {
        t->scalar = DGPB_SCALAR_BOOL;
        t->bits = 32;
    } else if ((at = def_of(m, id, OP_TYPE_INT, 4))) {
        t->scalar = m->w[at + 3] ? DGPB_SCALAR_INT : DGPB_SCALAR_UINT;
        t->bits = m->w[at + 2];
    } else if ((at = def_of(m, id, OP_TYPE_FLOAT, 3))) {
        t->scalar = DGPB_SCALAR_FLOAT;
        t->bits = m->w[at + 2];
    } else {
        return false;
    }
    t->columns = columns;
    t->rows = 1;
    return true;
}

static const uint32_t *types_def(const void *ctx, uint32_t id, uint32_t *words)
{
    const spv *m = ctx;
    if (id >= m->bound || !m->def[id])
        return NULL;
    *words = words_of(m, m->def[id]);
    return m->w + m->def[id];
}

static bool types_member_deco(const void *ctx, uint32_t type, uint32_t member, uint32_t deco)
{
    return member_deco_of(ctx, type, member, deco, UINT32_MAX) != UINT32_MAX;
}

/*
 * The byte size of a type as laid out in its block (runtime arrays: 0); a
 * struct's rounded up to its alignment by `rules` (code/spirv/spirv_layout.h).
 */
static uint64_t spv_size(const spv *m, uint32_t id, uint32_t matrix_stride, bool row_major,
                         spirv_rules rules, int depth)
{
    size_t at;
    dgpb_code_type t = {0};
    if (depth > MAX_DEPTH)
        return 0;
    if (spv_numeric(m, id, &t))
        return (uint64_t)t.columns * (t.bits / 8);
    if ((at = def_of(m, id, OP_TYPE_MATRIX, 4))) {
        dgpb_code_type c = {0};
        spv_numeric(m, m->w[at + 2], &c);
        uint32_t vectors = row_major ? c.columns : m->w[at + 3];
        uint32_t per = row_major ? m->w[at + 3] : c.columns;
        return vectors ? (uint64_t)(vectors - 1) * matrix_stride + (uint64_t)per * (c.bits / 8) : 0;
    }
    if ((at = def_of(m, id, OP_TYPE_ARRAY, 4))) {
        uint32_t stride = m->array_stride[id];
        if (!stride)
            stride =
                (uint32_t)spv_size(m, m->w[at + 2], matrix_stride, row_major, rules, depth + 1);
        return (uint64_t)constant_of(m, m->w[at + 3]) * stride;
    }
    if ((at = def_of(m, id, OP_TYPE_STRUCT, 2))) {
        uint64_t end = 0;
        for (uint32_t i = 0; i + 2 < words_of(m, at); i++) {
            uint32_t member = m->w[at + 2 + i];
            uint64_t off = member_deco_of(m, id, i, DECORATION_OFFSET, 0);
            uint64_t size =
                spv_size(m, member, member_deco_of(m, id, i, DECORATION_MATRIX_STRIDE, 0),
                         member_deco_of(m, id, i, DECORATION_ROW_MAJOR, 0), rules, depth + 1);
            end = off + size > end ? off + size : end;
        }
        spirv_types types = {m, types_def, types_member_deco};
        return spirv_layout_pad(&types, id, end, rules);
    }
    if ((at = def_of(m, id, OP_TYPE_POINTER, 4)))
        return m->w[at + 2] == STORAGE_PHYSICAL_STORAGE_BUFFER ? 8 : 0;
    return 0;
}

/*
 * Whether struct `id` (defined at word `at`, one member) is Slang's storage
 * wrapper of a matrix (code/value_types.h): named so, its member at offset 0
 * an array of as many vectors of a numeric type as the name says the matrix
 * stores, each holding at least its row or column. Fills *t with the matrix
 * when it is.
 */
static bool matrix_storage(const spv *m, uint32_t id, size_t at, dgpb_code_type *t)
{
    uint32_t rows, columns;
    bool column_major;
    size_t name = m->name[id], a, v;
    if (!name)
        return false;
    const char *text = (const char *)(m->w + name + 2);
    size_t max = (words_of(m, name) - 2) * 4;
    const char *nul = memchr(text, 0, max);
    if (!nul ||
        !code_matrix_storage_name(text, (size_t)(nul - text), &rows, &columns, &column_major) ||
        rows < 2)
        return false;
    uint32_t array = m->w[at + 2], stored = column_major ? columns : rows;
    uint32_t each = column_major ? rows : columns;
    if (!(a = def_of(m, array, OP_TYPE_ARRAY, 4)) ||
        !(v = def_of(m, m->w[a + 2], OP_TYPE_VECTOR, 4)) || constant_of(m, m->w[a + 3]) != stored ||
        m->w[v + 3] < each || member_deco_of(m, id, 0, DECORATION_OFFSET, 0) != 0 ||
        !m->array_stride[array])
        return false;
    dgpb_code_type c = {0};
    if (!spv_numeric(m, m->w[v + 2], &c))
        return false;
    *t = c;
    t->rows = rows;
    t->columns = columns;
    t->column_major = column_major;
    t->matrix_stride = m->array_stride[array];
    return true;
}

/*
 * The value at byte `off` (the row spans `size` bytes) of type `id`, whose
 * matrix layout is `matrix_stride`/`row_major` (from its member decorations),
 * and the indices that lead to it appended to *path. `top`: the block itself,
 * always walked into.
 */
static void spv_find(const spv *m, uint32_t id, uint64_t off, uint64_t size, uint32_t matrix_stride,
                     bool row_major, bool top, int depth, dgpb_code_type *t, member_path *path)
{
    size_t at;
    if (depth > MAX_DEPTH)
        return;
    if (spv_numeric(m, id, t)) {
        if (off)
            memset(t, 0, sizeof *t); /* inside a vector: no row points there */
        return;
    }
    if ((at = def_of(m, id, OP_TYPE_MATRIX, 4))) {
        /* N vectors of K: Slang's NxK (SPIR-V's names are the transpose of Slang's), stored
           column by column (Slang's) where SPIR-V says row by row. */
        if (off || !spv_numeric(m, m->w[at + 2], t))
            return;
        t->rows = m->w[at + 3];
        t->matrix_stride = matrix_stride;
        t->column_major = row_major;
        return;
    }
    if ((at = def_of(m, id, OP_TYPE_ARRAY, 4))) {
        uint32_t elem = m->w[at + 2], count = constant_of(m, m->w[at + 3]);
        uint32_t stride = m->array_stride[id];
        if (!stride)
            stride =
                (uint32_t)spv_size(m, elem, matrix_stride, row_major, SPIRV_RULES_NONE, depth + 1);
        if (!count || !stride)
            return;
        path_push(path, ANY_INDEX);
        if (off == 0 && size > stride) {
            spv_find(m, elem, 0, stride, matrix_stride, row_major, false, depth + 1, t, path);
            if (t->array_count) { /* arrays of arrays: not described */
                memset(t, 0, sizeof *t);
                return;
            }
            t->array_count = count;
            t->array_stride = stride;
            return;
        }
        if (off / stride < count)
            spv_find(m, elem, off % stride, size, matrix_stride, row_major, false, depth + 1, t,
                     path);
        return;
    }
    if ((at = def_of(m, id, OP_TYPE_STRUCT, 2))) {
        uint32_t members = words_of(m, at) - 2;
        if (members == 1 && off == 0 && matrix_storage(m, id, at, t))
            return;
        if (!top && members > 1 && off == 0 &&
            size >= spv_size(m, id, 0, false, SPIRV_RULES_NONE, depth + 1)) {
            t->aggregate = true;
            return;
        }
        for (uint32_t i = 0; i < members; i++) {
            uint32_t member = m->w[at + 2 + i];
            uint32_t ms = member_deco_of(m, id, i, DECORATION_MATRIX_STRIDE, 0);
            bool rm = member_deco_of(m, id, i, DECORATION_ROW_MAJOR, 0) != 0;
            uint64_t moff = member_deco_of(m, id, i, DECORATION_OFFSET, UINT32_MAX);
            uint64_t msize = spv_size(m, member, ms, rm, SPIRV_RULES_NONE, depth + 1);
            if (moff <= off && (off < moff + msize || (off == moff && !msize))) {
                path_push(path, i);
                spv_find(m, member, off - moff, size, ms, rm, false, depth + 1, t, path);
                return;
            }
        }
    }
}

/* Whether the entry point's interface lists variable `id`. */
static bool in_interface(const spv *m, uint32_t id)
{
    if (!m->entry_at)
        return false;
    size_t at = m->entry_at, end = at + words_of(m, at), i = at + 3;
    while (i < end && (m->w[i] & 0xFF000000u) && (m->w[i] & 0xFF0000u) && (m->w[i] & 0xFF00u) &&
           (m->w[i] & 0xFFu))
        i++; /* the name's words, the last holding its NUL */
    for (i++; i < end; i++)
        if (m->w[i] == id)
            return true;
    return false;
}

/* The pointee of variable instruction `at`, and its storage class. */
static uint32_t pointee_of(const spv *m, size_t at, uint32_t *storage)
{
    size_t p = def_of(m, m->w[at + 1], OP_TYPE_POINTER, 4);
    *storage = m->w[at + 3];
    return p ? m->w[p + 3] : 0;
}

/*
 * The struct type of the block holding value row `row`: the uniform (or
 * push-constant) block variable at its space/binding, or for the launch space
 * the entry's push-constant block (any one where the entry lists none); 0
 * when there is none; *var its variable. *std140: the block's layout rules
 * are std140's (a uniform block) rather than std430's.
 */
static uint32_t block_of(const spv *m, const code_row *row, bool *std140, uint32_t *var)
{
    uint32_t block = 0, push_any = 0, push_var = 0;
    bool uniform = false;
    for (uint32_t id = 1; id < m->bound && !block; id++) {
        size_t at = def_of(m, id, OP_VARIABLE, 4);
        uint32_t storage;
        if (!at)
            continue;
        uint32_t pointee = pointee_of(m, at, &storage);
        if (row->space == DGPB_SPACE_LAUNCH || row->space == DGPB_SPACE_SHADER_RECORD) {
            /* A launch range's or a shader record's block: the entry's one of that storage. */
            if (storage != (row->space == DGPB_SPACE_LAUNCH ? DGPB_SPIRV_STORAGE_PUSH_CONSTANT
                                                            : DGPB_SPIRV_STORAGE_SHADER_RECORD))
                continue;
            if (in_interface(m, id))
                block = pointee, *var = id;
            else if (!push_any)
                push_any = pointee, push_var = id;
        } else if (m->set[id] == (int64_t)row->space && m->binding[id] == (int64_t)row->binding &&
                   (storage == DGPB_SPIRV_STORAGE_UNIFORM ||
                    storage == DGPB_SPIRV_STORAGE_PUSH_CONSTANT)) {
            block = pointee, *var = id;
            uniform = storage == DGPB_SPIRV_STORAGE_UNIFORM;
        }
    }
    if (!block)
        block = push_any, *var = push_var;
    if (std140)
        *std140 = uniform;
    return block && def_of(m, block, OP_TYPE_STRUCT, 2) ? block : 0;
}

/*
 * The element type of the structured buffer at `row`'s space/binding: its
 * storage block's runtime array's (a fixed array of buffers: each one's);
 * *var the block's variable, *path the indices from it to an element, *stride
 * the array's ArrayStride. 0 when there is none.
 */
static uint32_t buffer_element(const spv *m, const code_row *row, uint32_t *var,
                               member_path *path, uint32_t *stride)
{
    for (uint32_t id = 1; id < m->bound; id++) {
        size_t at = def_of(m, id, OP_VARIABLE, 4), s, a;
        uint32_t storage;
        if (!at || m->set[id] != (int64_t)row->space || m->binding[id] != (int64_t)row->binding)
            continue;
        uint32_t type = pointee_of(m, at, &storage);
        if (storage != DGPB_SPIRV_STORAGE_STORAGE_BUFFER && storage != DGPB_SPIRV_STORAGE_UNIFORM)
            continue;
        if ((a = def_of(m, type, OP_TYPE_ARRAY, 3)) ||
            (a = def_of(m, type, OP_TYPE_RUNTIME_ARRAY, 3)))
            type = m->w[a + 2], path_push(path, ANY_INDEX);
        if (!(s = def_of(m, type, OP_TYPE_STRUCT, 3)) ||
            !(a = def_of(m, m->w[s + 2], OP_TYPE_RUNTIME_ARRAY, 3)))
            return 0;
        path_push(path, 0);
        path_push(path, ANY_INDEX);
        *var = id;
        *stride = m->array_stride[m->w[s + 2]];
        return m->w[a + 2];
    }
    return 0;
}

int value_spirv_type(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                     dgpb_code_type *t, dgpb_diag *diag)
{
    spv m;
    int rc = spv_load(&m, code, len, entry, diag);
    if (rc) {
        spv_free(&m);
        return rc;
    }
    if (row->kind == DGPB_KIND_BUFFER || row->kind == DGPB_KIND_RW_BUFFER) {
        /* a structured buffer: the block's runtime array of a scalar or vector */
        uint32_t var, stride, elem = buffer_element(&m, row, &var, &(member_path){0}, &stride);
        if (elem && !spv_numeric(&m, elem, t))
            memset(t, 0, sizeof *t);
        spv_free(&m);
        return DGPB_OK;
    }
    if (row->space == DGPB_SPACE_PIPELINE_CONSTANT) {
        for (uint32_t id = 1; id < m.bound; id++) {
            if (m.spec_id[id] != (int64_t)row->binding || !m.def[id])
                continue;
            uint32_t op = op_of(&m, m.def[id]);
            if (op == OP_SPEC_CONSTANT_TRUE || op == OP_SPEC_CONSTANT_FALSE) {
                t->scalar = DGPB_SCALAR_BOOL;
                t->bits = 32;
                t->columns = t->rows = 1;
            } else if (op == OP_SPEC_CONSTANT) {
                spv_numeric(&m, m.w[m.def[id] + 1], t);
            }
            break;
        }
        spv_free(&m);
        return DGPB_OK;
    }
    uint32_t var = 0, block = block_of(&m, row, NULL, &var);
    if (block) {
        member_path path = {.count = 0};
        spv_find(&m, block, row->offset, row->size, 0, false, true, 0, t, &path);
        /* Slang keeps a bool of a block as a 32-bit int: the code says so by how it reads it. */
        bool is_bool = false;
        if (t->scalar == DGPB_SCALAR_INT && t->bits == 32 && t->rows == 1 &&
            (rc = value_spirv_reads_bool(&m, var, &path, &is_bool, diag)) == DGPB_OK && is_bool)
            t->scalar = DGPB_SCALAR_BOOL;
    }
    spv_free(&m);
    return rc;
}

int value_spirv_block_size(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                           uint32_t *out, dgpb_diag *diag)
{
    spv m;
    int rc = spv_load(&m, code, len, entry, diag);
    for (uint32_t id = 1; !rc && id < m.bound; id++) {
        size_t at = def_of(&m, id, OP_VARIABLE, 4);
        uint32_t storage;
        if (!at || m.set[id] != (int64_t)row->space || m.binding[id] != (int64_t)row->binding)
            continue;
        uint32_t pointee = pointee_of(&m, at, &storage);
        if (storage == DGPB_SPIRV_STORAGE_UNIFORM && def_of(&m, pointee, OP_TYPE_STRUCT, 2)) {
            uint64_t size = spv_size(&m, pointee, 0, false, SPIRV_RULES_STD140, 0);
            *out = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
        }
        break;
    }
    spv_free(&m);
    return rc;
}

int value_spirv_storage_format(const uint8_t *code, size_t len, const char *entry,
                               const code_row *row, const char **out, dgpb_diag *diag)
{
    spv m;
    int rc = spv_load(&m, code, len, entry, diag);
    for (uint32_t id = 1; !rc && id < m.bound; id++) {
        size_t at = def_of(&m, id, OP_VARIABLE, 4), img;
        uint32_t storage;
        if (!at || m.set[id] != (int64_t)row->space || m.binding[id] != (int64_t)row->binding)
            continue;
        uint32_t pointee = pointee_of(&m, at, &storage);
        size_t arr = def_of(&m, pointee, OP_TYPE_ARRAY, 4);
        if (arr)
            pointee = m.w[arr + 2];
        if ((img = def_of(&m, pointee, OP_TYPE_IMAGE, 9))) {
            uint32_t f = m.w[img + 8];
            if (dgpb_texel_format_name(f))
                *out = dgpb_texel_format_name(f);
        }
        break;
    }
    spv_free(&m);
    return rc;
}

/* ---- a struct value's fields (code/value_fields.h) ---------------------------- */

/* The name of `id` (its OpName) in *len bytes, or NULL. */
static const char *name_of(const spv *m, uint32_t id, size_t *len)
{
    size_t at = id < m->bound ? m->name[id] : 0;
    if (!at)
        return NULL;
    const char *text = (const char *)(m->w + at + 2);
    const char *nul = memchr(text, 0, (words_of(m, at) - 2) * 4);
    if (!nul)
        return NULL;
    *len = (size_t)(nul - text);
    return text;
}

/* Slang's wrapper of a std140 array (a struct named _Array_std140_* whose one member, at offset
   0, is an array) is that array: its array type (its member 0 appended to *path, if any), or
   `id` itself when it is none. */
static uint32_t unwrap_array(const spv *m, uint32_t id, member_path *path)
{
    static const char prefix[] = "_Array_std140_";
    size_t at = def_of(m, id, OP_TYPE_STRUCT, 3), len = 0;
    const char *name = name_of(m, id, &len);
    if (at && words_of(m, at) == 3 && name && len >= sizeof prefix &&
        !memcmp(name, prefix, sizeof prefix - 1) && def_of(m, m->w[at + 2], OP_TYPE_ARRAY, 4) &&
        member_deco_of(m, id, 0, DECORATION_OFFSET, 0) == 0) {
        if (path)
            path_push(path, 0);
        return m->w[at + 2];
    }
    return id;
}

/* A struct of the module's own (not one of Slang's wrappers of an array or a matrix). */
static bool user_struct(const spv *m, uint32_t id)
{
    size_t at = def_of(m, id, OP_TYPE_STRUCT, 2);
    dgpb_code_type t = {0};
    return at && unwrap_array(m, id, NULL) == id &&
           !(words_of(m, at) == 3 && matrix_storage(m, id, at, &t));
}

/* What the fields walk keeps: the module, the list and the structs added so far. */
typedef struct fields_walk {
    const spv *m;
    uint32_t var; /* the block's variable: how the code reads a field (value_spirv_reads_bool) */
    code_fields *out;
    spirv_rules rules;
    uint32_t done_id[CODE_FIELDS_MAX_STRUCTS];
    int32_t done_index[CODE_FIELDS_MAX_STRUCTS];
    uint32_t done;
    dgpb_diag *diag;
} fields_walk;

static int add_struct(fields_walk *w, uint32_t id, int depth, const member_path *at_path,
                      int32_t *index);

/*
 * Field `f`'s type from SPIR-V type `id` (the member's, with its MatrixStride
 * `ms` and RowMajor `rm`, reached from the block by `path`): a scalar, vector
 * or matrix, an array of them, a struct or an array of structs (added), or
 * unknown. A 32-bit int the code reads only as Slang reads a bool is a bool
 * (value_spirv_reads_bool), as a row of it is.
 */
static int field_type(fields_walk *w, uint32_t id, uint32_t ms, bool rm, int depth,
                      member_path path, code_field *f)
{
    const spv *m = w->m;
    size_t at;
    f->of = -1;
    id = unwrap_array(m, id, &path);
    uint32_t count = 0, stride = 0;
    if ((at = def_of(m, id, OP_TYPE_ARRAY, 4))) {
        count = constant_of(m, m->w[at + 3]);
        stride = m->array_stride[id];
        path_push(&path, ANY_INDEX);
        id = unwrap_array(m, m->w[at + 2], &path);
        if (!count || !stride || def_of(m, id, OP_TYPE_ARRAY, 4))
            return DGPB_OK; /* arrays of arrays: not described */
    }
    if (user_struct(m, id)) {
        int rc = add_struct(w, id, depth + 1, &path, &f->of);
        if (rc)
            return rc;
        f->type.aggregate = true;
    } else {
        spv_find(m, id, 0, 0, ms, rm, false, depth + 1, &f->type, &path);
        if (f->type.array_count || f->type.aggregate || f->type.scalar == DGPB_SCALAR_UNKNOWN) {
            memset(&f->type, 0, sizeof f->type);
            return DGPB_OK;
        }
        bool is_bool = false;
        int rc = DGPB_OK;
        if (f->type.scalar == DGPB_SCALAR_INT && f->type.bits == 32 && f->type.rows == 1 &&
            (rc = value_spirv_reads_bool(m, w->var, &path, &is_bool, w->diag)) == DGPB_OK &&
            is_bool)
            f->type.scalar = DGPB_SCALAR_BOOL;
        if (rc)
            return rc;
    }
    f->type.array_count = count;
    f->type.array_stride = stride;
    return DGPB_OK;
}

/* Adds struct `id` (reached from the block by `at_path`; the structs it holds first) to the
   list, once; its index in *index. */
static int add_struct(fields_walk *w, uint32_t id, int depth, const member_path *at_path,
                      int32_t *index)
{
    const spv *m = w->m;
    for (uint32_t i = 0; i < w->done; i++)
        if (w->done_id[i] == id) {
            *index = w->done_index[i];
            return DGPB_OK;
        }
    if (depth > CODE_FIELDS_MAX_DEPTH)
        return dgpb_diag_set(w->diag, DGPB_ERR_LIMIT, -1,
                             "structs nested deeper than %d in a value", CODE_FIELDS_MAX_DEPTH);
    if (w->done == CODE_FIELDS_MAX_STRUCTS)
        return dgpb_diag_set(w->diag, DGPB_ERR_LIMIT, -1, "a value holds more than %d structs",
                             CODE_FIELDS_MAX_STRUCTS);
    size_t at = def_of(m, id, OP_TYPE_STRUCT, 2);
    uint32_t count = words_of(m, at) - 2;
    if (count > CODE_FIELDS_MAX_FIELDS)
        return dgpb_diag_set(w->diag, DGPB_ERR_LIMIT, -1, "a struct of more than %d fields",
                             CODE_FIELDS_MAX_FIELDS);
    code_field *fields = mem_calloc(count ? count : 1, sizeof *fields);
    char(*names)[16] = mem_calloc(count ? count : 1, sizeof *names);
    int rc = fields && names
                 ? DGPB_OK
                 : dgpb_diag_set(w->diag, DGPB_ERR_NOMEM, -1, "out of memory reading SPIR-V");
    for (uint32_t i = 0; !rc && i < count; i++) {
        uint32_t member = m->w[at + 2 + i];
        uint32_t ms = member_deco_of(m, id, i, DECORATION_MATRIX_STRIDE, 0);
        bool rm = member_deco_of(m, id, i, DECORATION_ROW_MAJOR, 0) != 0;
        code_field *f = &fields[i];
        f->offset = member_deco_of(m, id, i, DECORATION_OFFSET, 0);
        uint64_t size = spv_size(m, member, ms, rm, w->rules, depth + 1);
        f->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
        size_t nat = member_deco_of(m, id, i, MEMBER_NAME, 0), len = 0;
        const char *text = nat ? (const char *)(m->w + nat + 3) : NULL;
        const char *nul = text ? memchr(text, 0, (words_of(m, nat) - 3) * 4) : NULL;
        if (nul && nul > text && (len = (size_t)(nul - text)) < 4096) {
            f->name = code_fields_copy_name(text, len, false);
            if (!f->name)
                rc = dgpb_diag_set(w->diag, DGPB_ERR_NOMEM, -1, "out of memory reading SPIR-V");
        } else { /* no OpMemberName: the member's index names it */
            snprintf(names[i], sizeof names[i], "%u", i);
            f->name = names[i];
        }
        member_path path = *at_path;
        path_push(&path, i);
        if (!rc)
            rc = field_type(w, member, ms, rm, depth, path, f);
    }
    if (!rc) {
        size_t len = 0;
        const char *name = name_of(m, id, &len);
        uint64_t size = spv_size(m, id, 0, false, w->rules, depth);
        spirv_types types = {m, types_def, types_member_deco};
        rc = code_fields_add_struct(w->out, name ? name : "", name ? len : 0,
                                    size > UINT32_MAX ? UINT32_MAX : (uint32_t)size,
                                    spirv_layout_align(&types, id, false, w->rules), fields, count,
                                    index, w->diag);
    }
    for (uint32_t i = 0; fields && i < count; i++)
        if (fields[i].name != names[i])
            dgpb_free(fields[i].name);
    dgpb_free(fields);
    dgpb_free(names);
    if (!rc) {
        w->done_id[w->done] = id;
        w->done_index[w->done++] = *index;
    }
    return rc;
}

/*
 * The struct the row at byte `off` (`size` bytes) of type `id` holds: a
 * struct of the module's own that the row covers whole, or an array of them
 * that it covers whole (*count, *stride); 0 when it holds none. `top`: the
 * block itself, always walked into.
 */
static uint32_t row_struct(const spv *m, uint32_t id, uint64_t off, uint64_t size, bool top,
                           int depth, uint32_t *count, uint32_t *stride, member_path *path)
{
    size_t at;
    if (depth > MAX_DEPTH)
        return 0;
    id = unwrap_array(m, id, path);
    if ((at = def_of(m, id, OP_TYPE_ARRAY, 4))) {
        path_push(path, ANY_INDEX);
        uint32_t elem = unwrap_array(m, m->w[at + 2], path), n = constant_of(m, m->w[at + 3]);
        uint32_t s = m->array_stride[id];
        if (!n || !s)
            return 0;
        if (off == 0 && size > s) {
            if (!user_struct(m, elem))
                return 0;
            *count = n;
            *stride = s;
            return elem;
        }
        return off / s < n
                   ? row_struct(m, elem, off % s, size, false, depth + 1, count, stride, path)
                   : 0;
    }
    if (!(at = def_of(m, id, OP_TYPE_STRUCT, 2)) || (!top && !user_struct(m, id)))
        return 0;
    if (!top && off == 0 && size >= spv_size(m, id, 0, false, SPIRV_RULES_NONE, depth + 1))
        return id;
    for (uint32_t i = 0; i + 2 < words_of(m, at); i++) {
        uint32_t member = m->w[at + 2 + i];
        uint32_t ms = member_deco_of(m, id, i, DECORATION_MATRIX_STRIDE, 0);
        bool rm = member_deco_of(m, id, i, DECORATION_ROW_MAJOR, 0) != 0;
        uint64_t moff = member_deco_of(m, id, i, DECORATION_OFFSET, UINT32_MAX);
        uint64_t msize = spv_size(m, member, ms, rm, SPIRV_RULES_NONE, depth + 1);
        if (moff <= off && off < moff + msize) {
            path_push(path, i);
            return row_struct(m, member, off - moff, size, false, depth + 1, count, stride, path);
        }
    }
    return 0;
}

int value_spirv_fields(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                       code_fields *out, dgpb_diag *diag)
{
    spv m;
    int rc = spv_load(&m, code, len, entry, diag);
    bool std140 = false;
    uint32_t var = 0, count = 0, stride = 0, id = 0, element = 0;
    member_path path = {.count = 0};
    if (!rc && (row->kind == DGPB_KIND_BUFFER || row->kind == DGPB_KIND_RW_BUFFER)) {
        /* a structured buffer of structs: its element, as large as the array's stride */
        id = buffer_element(&m, row, &var, &path, &element);
        id = id && user_struct(&m, id) ? id : 0;
    } else if (!rc && row->kind == DGPB_KIND_UNIFORM_BUFFER) {
        /* a uniform block (one of an array of them, which no value row describes): its struct */
        uint32_t type = 0, storage = 0;
        size_t at = 0;
        for (uint32_t v = 1; v < m.bound && !var; v++)
            if ((at = def_of(&m, v, OP_VARIABLE, 4)) && m.set[v] == (int64_t)row->space &&
                m.binding[v] == (int64_t)row->binding)
                var = v, type = pointee_of(&m, at, &storage);
        if ((at = def_of(&m, type, OP_TYPE_ARRAY, 4)))
            type = m.w[at + 2], path_push(&path, ANY_INDEX);
        std140 = true;
        id = storage == DGPB_SPIRV_STORAGE_UNIFORM && def_of(&m, type, OP_TYPE_STRUCT, 2) ? type : 0;
    } else if (!rc && row->kind == DGPB_KIND_VALUE && row->space != DGPB_SPACE_PIPELINE_CONSTANT) {
        uint32_t block = block_of(&m, row, &std140, &var);
        id = block ? row_struct(&m, block, row->offset, row->size, true, 0, &count, &stride, &path)
                   : 0;
    }
    if (id) { /* (the walk's memory of the structs it added: 2 KiB) */
        fields_walk w = {.m = &m,
                         .var = var,
                         .out = out,
                         .rules = std140 ? SPIRV_RULES_STD140 : SPIRV_RULES_STD430,
                         .diag = diag};
        rc = add_struct(&w, id, 0, &path, &out->root);
        out->count = count;
        out->stride = stride;
        if (!rc && element)
            out->structs[out->root].size = element;
    }
    spv_free(&m);
    return rc;
}
