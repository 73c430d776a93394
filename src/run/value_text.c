/*
 * src/run/value_text.c - a value row's bytes from the text a host was given
 * ("[TYPE:]V1,V2,..."), typed by the shipped code, never by how a number is
 * spelled (dgpb_run_value_bytes in dgpb/run.h; the rules are docs/run.md,
 * "Values").
 *
 * The type comes from the entry's code (code/value_types.h). Where that
 * code does not state it (PTX keeps values in SLANG_globalParams and .b8
 * parameters as bytes), the same row of the same entry on another target of
 * the bundle lends its scalar type. With a type from the code, the numbers
 * are placed where the code keeps them (std140 array strides, the vectors of
 * a matrix: a matrix's numbers come row by row, as Slang declares it, and go
 * into its rows or, column-major, its columns); with a borrowed type or a
 * TYPE: alone they are packed tightly and must fill the row exactly. A TYPE: that contradicts the code, or none
 * where no code states the type, is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "dgpb/run.h"
#include "dgpb/run_values.h"
#include "run/run_internal.h"
#include "code/value_types.h"

#define TYPE_LIST DGPB_VALUE_TYPE_NAMES

/* A TYPE: prefix ("f32", "u8", ...): its scalar and bits; false when `s` is none. */
static bool type_from_name(const char *s, size_t len, dgpb_scalar *scalar, uint32_t *bits)
{
    if (len < 2 || len > 3 || (s[0] != 'f' && s[0] != 'u' && s[0] != 'i'))
        return false;
    char buf[4] = {0};
    memcpy(buf, s + 1, len - 1);
    uint32_t b = (uint32_t)atoi(buf);
    bool ok = s[0] == 'f' ? b == 16 || b == 32 || b == 64 : b == 8 || b == 16 || b == 32 || b == 64;
    if (!ok || (len == 3) != (b >= 10))
        return false;
    *scalar = s[0] == 'f' ? DGPB_SCALAR_FLOAT : s[0] == 'u' ? DGPB_SCALAR_UINT : DGPB_SCALAR_INT;
    *bits = b;
    return true;
}

/* Parses one number of `len` bytes as scalar/bits into dst. */
static bool parse_number(dgpb_scalar scalar, uint32_t bits, const char *s, size_t len, uint8_t *dst)
{
    char kind = scalar == DGPB_SCALAR_FLOAT  ? 'f'
                : scalar == DGPB_SCALAR_INT  ? 'i'
                : scalar == DGPB_SCALAR_BOOL ? 'b'
                                             : 'u';
    return run_parse_number(kind, bits, s, len, dst);
}

/* The row named `name` of `e`, or NULL. */
static const dgpb_param_view *find_row(const dgpb_entry_view *e, const char *name)
{
    for (uint32_t i = 0; i < e->param_count; i++)
        if (dgpb_str_eq(e->params[i].name, name))
            return &e->params[i];
    return NULL;
}

/* The code's type of `row` of entry `e` on target `t`; *t zeroed when unknown. */
static int code_type(const dgpb_target_view *t, const dgpb_entry_view *e,
                     const dgpb_param_view *row, dgpb_code_type *out, dgpb_diag *d)
{
    char entry[256];
    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
    code_row desc = {.kind = row->kind,
                     .space = row->space,
                     .binding = row->binding,
                     .offset = row->offset,
                     .size = row->size};
    int rc = dgpb_blob_verify(&e->code, d);
    if (!rc)
        rc = code_type_find((dgpb_code_format)t->code_format_id, e->code.data, e->code.size, entry,
                            &desc, out, d);
    return rc;
}

/* Entry `entry` of target `t` and its row `name`; DGPB_ERR_NOT_FOUND or _RUN_PARAM naming them. */
static int entry_row(const dgpb_target_view *t, const char *entry, const char *name,
                     const dgpb_entry_view **e, const dgpb_param_view **row, dgpb_diag *diag)
{
    *e = NULL;
    *row = NULL;
    if (dgpb_target_find_entry(t, entry, e, NULL) || !*e)
        return run_fail(diag, DGPB_ERR_NOT_FOUND, "target %.*s has no entry '%s'", (int)t->name.len,
                        t->name.ptr, entry);
    if (!(*row = find_row(*e, name)))
        return run_fail(diag, DGPB_ERR_RUN_PARAM, "entry '%s' has no parameter '%s'", entry, name);
    return DGPB_OK;
}

int dgpb_run_value_type(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                        const char *name, dgpb_run_value_info *info, dgpb_diag *diag)
{
    memset(info, 0, sizeof *info);
    const dgpb_entry_view *e;
    const dgpb_param_view *row;
    int found = entry_row(t, entry, name, &e, &row, diag);
    if (found)
        return found;
    if (row->kind != DGPB_KIND_VALUE)
        return run_fail(diag, DGPB_ERR_RUN_KIND, "'%s' is a %s, not a value", name,
                        dgpb_kind_name(row->kind));
    info->row = row;
    dgpb_code_type vt;
    int rc = code_type(t, e, row, &vt, diag);
    if (rc)
        return rc;
    if (vt.scalar == DGPB_SCALAR_UNKNOWN && !vt.aggregate && b) {
        for (uint32_t i = 0; i < dgpb_bundle_target_count(b); i++) {
            const dgpb_target_view *o = dgpb_bundle_target(b, i);
            const dgpb_entry_view *oe = NULL;
            const dgpb_param_view *orow;
            if (o == t || dgpb_target_find_entry(o, entry, &oe, NULL) || !oe ||
                !(orow = find_row(oe, name)) || orow->kind != DGPB_KIND_VALUE)
                continue;
            dgpb_code_type ot;
            dgpb_diag od;
            dgpb_diag_clear(&od);
            if (code_type(o, oe, orow, &ot, &od) || ot.scalar == DGPB_SCALAR_UNKNOWN)
                continue;
            code_type_lend(&ot, row->size, &vt); /* a matrix's shape and layout too */
            snprintf(info->lent_by, sizeof info->lent_by, "%.*s", (int)o->name.len, o->name.ptr);
            break;
        }
    }
    info->scalar = (uint32_t)vt.scalar;
    info->bits = vt.bits;
    info->aggregate = vt.aggregate;
    bool matrix = vt.rows > 1;
    info->vectors = matrix ? (vt.column_major ? vt.columns : vt.rows) : 1;
    info->components = matrix ? (vt.column_major ? vt.rows : vt.columns) : vt.columns;
    info->vector_stride = vt.matrix_stride;
    info->column_major = matrix && vt.column_major;
    info->array_count = vt.array_count;
    info->array_stride = vt.array_stride;
    code_type_text(&vt, info->text, sizeof info->text);
    return DGPB_OK;
}

int dgpb_run_check_element_type(const dgpb_target_view *t, const char *entry, const char *name,
                                uint32_t value_type, dgpb_diag *diag)
{
    const dgpb_entry_view *e;
    const dgpb_param_view *row;
    int found = entry_row(t, entry, name, &e, &row, diag);
    if (found)
        return found;
    const char *given = dgpb_value_type_name(value_type);
    if (!given || (row->kind != DGPB_KIND_BUFFER && row->kind != DGPB_KIND_RW_BUFFER))
        return DGPB_OK;
    dgpb_code_type vt;
    int rc = code_type(t, e, row, &vt, diag);
    if (rc || vt.scalar == DGPB_SCALAR_UNKNOWN)
        return rc;
    if (value_type == DGPB_VALUE_HEX)
        given = "u32";
    dgpb_scalar scalar;
    uint32_t bits;
    if (!type_from_name(given, strlen(given), &scalar, &bits))
        return DGPB_OK;
    bool agree = (scalar == vt.scalar && bits == vt.bits) ||
                 (vt.scalar == DGPB_SCALAR_BOOL && scalar != DGPB_SCALAR_FLOAT && bits == 32);
    if (agree)
        return DGPB_OK;
    char text[48];
    code_type_text(&vt, text, sizeof text);
    return run_fail(diag, DGPB_ERR_INVALID,
                    "buffer '%s': %s given, but the code on target %.*s declares its elements %s",
                    name, dgpb_value_type_name(value_type), (int)t->name.len, t->name.ptr, text);
}

int dgpb_run_value_bytes(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                         const char *name, const char *text, uint8_t **bytes, size_t *size,
                         dgpb_diag *diag)
{
    *bytes = NULL;
    *size = 0;
    dgpb_run_value_info info;
    int rc = dgpb_run_value_type(b, t, entry, name, &info, diag);
    if (rc)
        return rc;
    const char *tn = t->name.ptr;
    int tl = (int)t->name.len;
    dgpb_scalar scalar = (dgpb_scalar)info.scalar, given_scalar;
    uint32_t bits = info.bits, given_bits;
    const char *colon = strchr(text, ':');
    if (colon && type_from_name(text, (size_t)(colon - text), &given_scalar, &given_bits)) {
        bool agree =
            scalar == DGPB_SCALAR_UNKNOWN || (scalar == given_scalar && bits == given_bits) ||
            (scalar == DGPB_SCALAR_BOOL && given_scalar != DGPB_SCALAR_FLOAT && given_bits == 32);
        if (info.aggregate || !agree)
            return run_fail(diag, DGPB_ERR_INVALID,
                            "value '%s': %.*s given, but the code on target %.*s declares %s%s%s",
                            name, (int)(colon - text), text, tl, tn, info.text,
                            info.lent_by[0] ? " (on target " : "", info.lent_by[0] ? ")" : "");
        if (scalar == DGPB_SCALAR_UNKNOWN || info.aggregate)
            info.vectors = info.components = 1, info.array_count = 0;
        if (scalar != DGPB_SCALAR_BOOL) { /* u32:1 for a bool is still a bool's 1 */
            scalar = given_scalar;
            bits = given_bits;
        }
        text = colon + 1;
    } else if (scalar == DGPB_SCALAR_UNKNOWN || info.aggregate) {
        return run_fail(diag, DGPB_ERR_INVALID,
                        "value '%s': the code on target %.*s does not state its type (%s), nor "
                        "does another target of the bundle: give it as TYPE:V1,... (TYPE one "
                        "of " TYPE_LIST ")",
                        name, tl, tn, info.aggregate ? "a struct" : "bytes");
    }
    uint32_t row_size = info.row->size, elem = bits / 8;
    size_t count = 1;
    for (const char *p = text; *p; p++)
        count += *p == ',';
    bool placed = (!info.lent_by[0] || info.vectors > 1) && info.scalar == (uint32_t)scalar &&
                  info.bits == bits;
    size_t want =
        placed ? (size_t)(info.array_count ? info.array_count : 1) * info.vectors * info.components
               : row_size / (elem ? elem : 1);
    if (count != want || (!placed && (size_t)row_size != want * elem))
        return run_fail(diag, DGPB_ERR_RUN_SIZE,
                        "value '%s' is %s (%u bytes) on target %.*s: it takes %zu number%s, got "
                        "%zu",
                        name, placed ? info.text : "bytes", row_size, tl, tn, want,
                        want == 1 ? "" : "s", count);
    uint8_t *out = mem_calloc(row_size ? row_size : 1, 1);
    if (!out)
        return run_fail(diag, DGPB_ERR_NOMEM, "out of memory");
    const char *p = text;
    for (size_t i = 0; i < count; i++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        size_t at = i * elem;
        if (placed) {
            /* A matrix's numbers come row by row, as Slang declares it: number k of a
               column-major one is row k / columns of column k % columns, which the code keeps
               in its stored vector k % columns (info.vectors, one per column). */
            size_t per = (size_t)info.vectors * info.components, k = i % per;
            size_t a = i / per, v = k / info.components, c = k % info.components;
            if (info.column_major)
                v = k % info.vectors, c = k / info.vectors;
            at = a * info.array_stride + v * info.vector_stride + c * elem;
        }
        if (at + elem > row_size || !parse_number(scalar, bits, p, len, out + at)) {
            dgpb_free(out);
            char tname[8];
            snprintf(tname, sizeof tname, "%c%u",
                     scalar == DGPB_SCALAR_FLOAT  ? 'f'
                     : scalar == DGPB_SCALAR_INT  ? 'i'
                     : scalar == DGPB_SCALAR_BOOL ? 'b'
                                                  : 'u',
                     bits);
            if (at + elem > row_size)
                return run_fail(diag, DGPB_ERR_RUN_SIZE,
                                "value '%s': the code's layout (%s) does not fit its %u bytes",
                                name, info.text, row_size);
            bool word = (len == 4 && !memcmp(p, "true", 4)) || (len == 5 && !memcmp(p, "false", 5));
            const char *shown = scalar == DGPB_SCALAR_BOOL ? "bool" : tname;
            return run_fail(diag, DGPB_ERR_INVALID,
                            "value '%s': '%.*s' (number %zu) is not a %s value: %s takes %s "
                            "(the code's type is %s%s)",
                            name, (int)len, p, i + 1, shown, shown,
                            run_number_range(tname[0], bits), placed ? info.text : shown,
                            word && scalar != DGPB_SCALAR_FLOAT
                                ? "; the code reads no bool there: a bool of a block is an int "
                                  "in the code, which it reads only to compare it with zero, "
                                  "and this one it reads otherwise or not at all: give 1 or 0"
                                : "");
        }
        p += len + 1;
    }
    *bytes = out;
    *size = row_size;
    return DGPB_OK;
}

/* ---- storage texture formats --------------------------------------------------- */

int run_check_storage_format(const dgpb_target_view *t, const dgpb_entry_view *e,
                             const dgpb_param_view *row, const dgpb_run_param *p, dgpb_diag *d)
{
    char entry[256];
    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
    code_row desc = {.kind = row->kind,
                     .space = row->space,
                     .binding = row->binding,
                     .offset = row->offset,
                     .size = row->size};
    const char *declared = NULL;
    int rc = dgpb_blob_verify(&e->code, d);
    if (!rc)
        rc = code_storage_format_find((dgpb_code_format)t->code_format_id, e->code.data,
                                      e->code.size, entry, &desc, &declared, d);
    if (rc || !declared)
        return rc;
    if (dgpb_run_format_from_name(declared) < 0)
        return run_fail(d, DGPB_ERR_INVALID,
                        "texture '%s': the code declares format %s, which the runner has no "
                        "texture of",
                        p->name, declared);
    if (strcmp(declared, dgpb_run_format_name(p->format) ? dgpb_run_format_name(p->format) : ""))
        return run_fail(d, DGPB_ERR_RUN_KIND,
                        "texture '%s': the code declares format %s, the request gives %s (give "
                        "its texels in %s)",
                        p->name, declared,
                        dgpb_run_format_name(p->format) ? dgpb_run_format_name(p->format) : "none",
                        declared);
    return DGPB_OK;
}

/* ---- blocks and their fields ---------------------------------------------------- */

/* The first row of `e` at `row`'s place of kind `kind` other than `row`, from `from` on. */
static const dgpb_param_view *at_place(const dgpb_entry_view *e, const dgpb_param_view *row,
                                       uint32_t kind, uint32_t *from)
{
    for (; *from < e->param_count; (*from)++) {
        const dgpb_param_view *o = &e->params[*from];
        if (o != row && o->kind == kind && o->space == row->space && o->binding == row->binding &&
            row->space != DGPB_SPACE_LAUNCH && row->space != DGPB_SPACE_PIPELINE_CONSTANT &&
            row->binding != DGPB_BINDING_INLINE) {
            (*from)++;
            return o;
        }
    }
    return NULL;
}

bool run_block_covered(const dgpb_entry_view *e, const dgpb_param_view *row,
                       const dgpb_run_request *req)
{
    uint32_t from = 0;
    if (row->kind == DGPB_KIND_VALUE && row->space == DGPB_SPACE_PIPELINE_CONSTANT)
        return true; /* a pipeline constant keeps the code's default */
    if (row->kind == DGPB_KIND_VALUE)
        return at_place(e, row, DGPB_KIND_UNIFORM_BUFFER, &from) != NULL;
    /* a block of fields not given as bytes: built from the fields given, the rest zero */
    return row->kind == DGPB_KIND_UNIFORM_BUFFER && run_param_index(req, row) < 0 &&
           at_place(e, row, DGPB_KIND_VALUE, &from) != NULL;
}

int run_check_block(const dgpb_target_view *t, const dgpb_entry_view *e, const dgpb_param_view *row,
                    const dgpb_run_request *req, dgpb_diag *d)
{
    int k = run_param_index(req, row);
    if (k < 0)
        return DGPB_OK;
    const dgpb_run_param *p = &req->params[k];
    uint32_t from = 0, fields_end = 0;
    const dgpb_param_view *o;
    while ((o = at_place(e, row, DGPB_KIND_VALUE, &from))) {
        if (run_param_index(req, o) >= 0)
            return run_fail(d, DGPB_ERR_INVALID,
                            "block '%s' is given as bytes and its field '%.*s' too: give one "
                            "or the other",
                            p->name, (int)o->name.len, o->name.ptr);
        if (o->offset + o->size > fields_end)
            fields_end = o->offset + o->size;
    }
    char entry[256];
    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
    code_row desc = {.kind = row->kind, .space = row->space, .binding = row->binding};
    uint32_t size = 0;
    int rc = dgpb_blob_verify(&e->code, d);
    if (!rc)
        rc = code_block_size_find((dgpb_code_format)t->code_format_id, e->code.data, e->code.size,
                                  entry, &desc, &size, d);
    if (rc)
        return rc;
    if (!size)
        size = fields_end;
    size_t given = run_param_bytes(p);
    if (given < size)
        return run_fail(d, DGPB_ERR_RUN_SIZE,
                        "block '%s' is %u bytes in the code on target %.*s, the request gives %zu",
                        p->name, size, (int)t->name.len, t->name.ptr, given);
    return DGPB_OK;
}
