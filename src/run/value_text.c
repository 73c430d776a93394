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
#include "code/value_fields.h"
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

/* The value row `name` names (itself or a field's path into it) of `e`, *path after it. */
static const dgpb_param_view *value_row(const dgpb_entry_view *e, const char *name,
                                        const char **path)
{
    const dgpb_param_view *best = NULL;
    size_t n = strlen(name);
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *p = &e->params[i];
        size_t len = p->name.len;
        if (p->kind != DGPB_KIND_VALUE || len > n || memcmp(name, p->name.ptr, len) ||
            (len < n && name[len] != '.' && name[len] != '[') || (best && best->name.len >= len))
            continue;
        best = p;
    }
    *path = best ? name + best->name.len : NULL;
    return best;
}

int dgpb_run_value_row(const dgpb_target_view *t, const char *entry, const char *name,
                       const dgpb_param_view **row, const char **path, dgpb_diag *diag)
{
    const dgpb_entry_view *e;
    *row = NULL;
    *path = NULL;
    if (dgpb_target_find_entry(t, entry, &e, NULL) || !e)
        return run_fail(diag, DGPB_ERR_NOT_FOUND, "target %.*s has no entry '%s'", (int)t->name.len,
                        t->name.ptr, entry);
    const dgpb_param_view *exact = find_row(e, name);
    if (exact && exact->kind != DGPB_KIND_VALUE)
        return run_fail(diag, DGPB_ERR_RUN_KIND, "'%s' is a %s, not a value", name,
                        dgpb_kind_name(exact->kind));
    if (!(*row = value_row(e, name, path)))
        return run_fail(diag, DGPB_ERR_RUN_PARAM, "entry '%s' has no parameter '%s'", entry, name);
    return DGPB_OK;
}

/*
 * The fields of `row` of entry `e` on target `t` (*out; code_fields_free it), or, where that
 * code states none, the same row's on another target of `b` laid out for `t`'s code
 * (code_fields_lend; *lent_by its name); why one offered cannot be lent in `why`.
 */
static int row_fields(const dgpb_bundle *b, const dgpb_target_view *t, const dgpb_entry_view *e,
                      const dgpb_param_view *row, code_fields *out, char *lent_by, char *why,
                      size_t why_size, dgpb_diag *d)
{
    char entry[256];
    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
    code_row desc = {.kind = row->kind,
                     .space = row->space,
                     .binding = row->binding,
                     .offset = row->offset,
                     .size = row->size};
    lent_by[0] = why[0] = 0;
    int rc = dgpb_blob_verify(&e->code, d);
    if (!rc)
        rc = code_fields_find((dgpb_code_format)t->code_format_id, e->code.data, e->code.size,
                              entry, &desc, out, d);
    if (rc || out->root >= 0 || !b)
        return rc;
    char name[DGPB_MAX_STRING + 1];
    snprintf(name, sizeof name, "%.*s", (int)row->name.len, row->name.ptr);
    for (uint32_t i = 0; i < dgpb_bundle_target_count(b); i++) {
        const dgpb_target_view *o = dgpb_bundle_target(b, i);
        const dgpb_entry_view *oe = NULL;
        const dgpb_param_view *orow;
        if (o == t || dgpb_target_find_entry(o, entry, &oe, NULL) || !oe ||
            !(orow = find_row(oe, name)) || orow->kind != DGPB_KIND_VALUE)
            continue;
        code_fields theirs;
        char owner[16];
        dgpb_diag od;
        dgpb_diag_clear(&od);
        if (row_fields(NULL, o, oe, orow, &theirs, owner, why, why_size, &od) || theirs.root < 0) {
            code_fields_free(&theirs);
            continue;
        }
        char reason[160];
        bool lent = code_fields_lend((dgpb_code_format)t->code_format_id, &theirs, row->size, out,
                                     reason, sizeof reason);
        code_fields_free(&theirs);
        if (lent) {
            snprintf(lent_by, 16, "%.*s", (int)o->name.len, o->name.ptr);
            why[0] = 0;
            return DGPB_OK;
        }
        snprintf(why, why_size, "the fields target %.*s declares cannot be this code's: %.120s",
                 (int)o->name.len, o->name.ptr, reason);
    }
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
    if (vt.scalar == DGPB_SCALAR_UNKNOWN) { /* a struct: its fields, the code's or lent */
        code_fields f;
        char lent_by[16], why[300];
        rc = row_fields(b, t, e, row, &f, lent_by, why, sizeof why, diag);
        if (!rc && f.root >= 0) {
            code_node root;
            code_fields_root(&f, row->size, &root);
            code_node_text(&f, &root, info->text, sizeof info->text);
            info->aggregate = true;
            info->array_count = f.count;
            info->array_stride = f.stride;
            if (lent_by[0])
                snprintf(info->lent_by, sizeof info->lent_by, "%s", lent_by);
        }
        code_fields_free(&f);
    }
    return rc;
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

/* ---- numbers into a value's bytes ---------------------------------------------- */

/* Where the numbers of a value of one type go: a scalar, vector or matrix, or an array of them. */
typedef struct place {
    dgpb_scalar scalar;
    uint32_t bits;
    uint32_t vectors, components, vector_stride; /* a matrix's stored vectors; 1 and columns */
    bool column_major;
    uint32_t array_count, array_stride;
    uint32_t base; /* bytes from the row's start */
} place;

static void place_of(const dgpb_code_type *vt, uint32_t base, place *p)
{
    bool matrix = vt->rows > 1;
    *p = (place){.scalar = vt->scalar,
                 .bits = vt->bits,
                 .vectors = matrix ? (vt->column_major ? vt->columns : vt->rows) : 1,
                 .components = matrix ? (vt->column_major ? vt->rows : vt->columns)
                                      : (vt->columns ? vt->columns : 1),
                 .vector_stride = vt->matrix_stride,
                 .column_major = matrix && vt->column_major,
                 .array_count = vt->array_count,
                 .array_stride = vt->array_stride,
                 .base = base};
}

/* How many numbers a value placed as `p` takes. */
static size_t place_count(const place *p)
{
    return (size_t)(p->array_count ? p->array_count : 1) * p->vectors * p->components;
}

/* Where number `i` of a value placed as `p` goes, for numbers of `elem` bytes. A matrix's
   numbers come row by row, as Slang declares it: number k of a column-major one is row k /
   columns of column k % columns, which the code keeps in its stored vector k % columns
   (p->vectors, one per column). */
static size_t place_at(const place *p, size_t i, uint32_t elem)
{
    size_t per = (size_t)p->vectors * p->components, k = i % per;
    size_t a = i / per, v = k / p->components, c = k % p->components;
    if (p->column_major)
        v = k % p->vectors, c = k / p->vectors;
    return p->base + a * p->array_stride + v * p->vector_stride + c * elem;
}

/* The type letter of a scalar ('f', 'i', 'b', 'u'). */
static char scalar_letter(dgpb_scalar scalar)
{
    return scalar == DGPB_SCALAR_FLOAT  ? 'f'
           : scalar == DGPB_SCALAR_INT  ? 'i'
           : scalar == DGPB_SCALAR_BOOL ? 'b'
                                        : 'u';
}

/* Whether a TYPE: (given_scalar, given_bits) agrees with the code's scalar type. */
static bool type_agrees(dgpb_scalar scalar, uint32_t bits, dgpb_scalar given_scalar,
                        uint32_t given_bits)
{
    return (scalar == given_scalar && bits == given_bits) ||
           (scalar == DGPB_SCALAR_BOOL && given_scalar != DGPB_SCALAR_FLOAT && given_bits == 32);
}

/*
 * Parses number `i` of value `name` (`p`, len bytes) as scalar/bits into out at `at`
 * (the row `row_size` bytes); `field` ("" or the field's name) and `type_text` (the code's
 * type, for messages).
 */
static int put_number(const char *name, const char *field, const char *type_text,
                      dgpb_scalar scalar, uint32_t bits, const char *p, size_t len, size_t i,
                      size_t at, uint8_t *out, uint32_t row_size, dgpb_diag *diag)
{
    uint32_t elem = bits / 8;
    char tname[8];
    snprintf(tname, sizeof tname, "%c%u", scalar_letter(scalar), bits);
    if (at + elem > row_size)
        return run_fail(diag, DGPB_ERR_RUN_SIZE,
                        "value '%s': the code's layout (%s) does not fit its %u bytes", name,
                        type_text, row_size);
    if (parse_number(scalar, bits, p, len, out + at))
        return DGPB_OK;
    bool word = (len == 4 && !memcmp(p, "true", 4)) || (len == 5 && !memcmp(p, "false", 5));
    const char *shown = scalar == DGPB_SCALAR_BOOL ? "bool" : tname;
    return run_fail(diag, DGPB_ERR_INVALID,
                    "value '%s': '%.*s' (number %zu%s%s%s) is not a %s value: %s takes %s (the "
                    "code's type is %s%s)",
                    name, (int)len, p, i + 1, field[0] ? ", field '" : "", field,
                    field[0] ? "'" : "", shown, shown, run_number_range(tname[0], bits), type_text,
                    word && scalar != DGPB_SCALAR_FLOAT
                        ? "; the code reads no bool there: a bool of a block is an int "
                          "in the code, which it reads only to compare it with zero, "
                          "and this one it reads otherwise or not at all: give 1 or 0"
                        : "");
}

/* The numbers of "V1,V2,..." counted. */
static size_t number_count(const char *text)
{
    size_t count = 1;
    for (const char *p = text; *p; p++)
        count += *p == ',';
    return count;
}

/* The next number of a list at *p: its length; *p moves past it and its comma. */
static size_t next_number(const char **p, const char **start)
{
    const char *end = strchr(*p, ',');
    size_t len = end ? (size_t)(end - *p) : strlen(*p);
    *start = *p;
    *p += len + (end ? 1 : 0);
    return len;
}

/* ---- a struct's numbers ---------------------------------------------------------- */

/* One pass over a struct's leaves: counting and checking, then writing. */
typedef struct struct_pass {
    const code_fields *f;
    const char *name;  /* the value as given: "rect", "outer.inner" */
    const char *tn;    /* its target's name, for messages */
    int tl;            /* its length */
    bool typed;        /* a TYPE: was given ... */
    dgpb_scalar given; /* ... of this scalar and width */
    uint32_t given_bits;
    bool write;      /* false: count (and check); true: parse into out */
    size_t count;    /* numbers counted, or taken */
    char names[200]; /* the leaves' names, for a message of the wrong count */
    size_t names_len;
    const char *cursor; /* write: the next number */
    uint8_t *out;
    uint32_t row_size;
    dgpb_diag *diag;
} struct_pass;

static int struct_leaf(void *ctx, const code_node *n, const char *path, bool leaf)
{
    struct_pass *s = ctx;
    (void)leaf;
    char type[96];
    code_node_text(s->f, n, type, sizeof type);
    if (n->type.scalar == DGPB_SCALAR_UNKNOWN)
        return run_fail(s->diag, DGPB_ERR_INVALID,
                        "value '%s': the code on target %.*s does not state the type of its "
                        "field '%s%s': give its other fields one by one",
                        s->name, s->tl, s->tn, s->name, path);
    if (s->typed && !type_agrees(n->type.scalar, n->type.bits, s->given, s->given_bits)) {
        char tname[8];
        snprintf(tname, sizeof tname, "%c%u", scalar_letter(s->given), s->given_bits);
        return run_fail(s->diag, DGPB_ERR_INVALID,
                        "value '%s': %s given, but the code on target %.*s declares its field "
                        "'%s%s' %s",
                        s->name, tname, s->tl, s->tn, s->name, path, type);
    }
    place pl;
    place_of(&n->type, n->offset, &pl);
    size_t numbers = place_count(&pl);
    if (!s->write) {
        s->count += numbers;
        int k = snprintf(s->names + s->names_len, sizeof s->names - s->names_len, "%s%s %s",
                         s->names_len ? ", " : "", path[0] == '.' ? path + 1 : path, type);
        if (k > 0 && s->names_len + (size_t)k < sizeof s->names)
            s->names_len += (size_t)k;
        else if (sizeof s->names > 4)
            memcpy(s->names + sizeof s->names - 4, "...", 4);
        return DGPB_OK;
    }
    char field[300];
    snprintf(field, sizeof field, "%s%s", s->name, path);
    for (size_t i = 0; i < numbers; i++) {
        const char *p;
        size_t len = next_number(&s->cursor, &p);
        int rc = put_number(s->name, field, type, n->type.scalar, n->type.bits, p, len, s->count++,
                            place_at(&pl, i, n->type.bits / 8), s->out, s->row_size, s->diag);
        if (rc)
            return rc;
    }
    return DGPB_OK;
}

/* Writes the numbers of struct (or array of structs) node `n` of value `name` from `text`. */
static int put_struct(const code_fields *f, const code_node *n, const char *name,
                      const dgpb_target_view *t, const char *lent_by, const char *text,
                      uint8_t *out, uint32_t row_size, dgpb_diag *diag)
{
    struct_pass s = {.f = f,
                     .name = name,
                     .tn = t->name.ptr,
                     .tl = (int)t->name.len,
                     .out = out,
                     .row_size = row_size,
                     .diag = diag};
    const char *colon = strchr(text, ':');
    if (colon && type_from_name(text, (size_t)(colon - text), &s.given, &s.given_bits)) {
        s.typed = true;
        text = colon + 1;
    }
    int rc = code_fields_visit(f, n, false, struct_leaf, &s);
    if (rc)
        return rc;
    size_t count = number_count(text);
    char type[96];
    code_node_text(f, n, type, sizeof type);
    bool whole = n->type.aggregate;
    if (count != s.count)
        return run_fail(
            diag, DGPB_ERR_RUN_SIZE,
            "value '%s' is %s (%u bytes) on target %.*s%s%s: it takes %zu number%s%s%s%s, "
            "got %zu",
            name, type, n->size, s.tl, s.tn, lent_by[0] ? ", its fields from " : "", lent_by,
            s.count, s.count == 1 ? "" : "s", whole ? " (" : "", whole ? s.names : "",
            whole ? ")" : "", count);
    s.write = true;
    s.count = 0;
    s.cursor = text;
    return code_fields_visit(f, n, false, struct_leaf, &s);
}

/* ---- a value's bytes --------------------------------------------------------------- */

/* The bytes of row `info` (no struct: its type, or a TYPE: alone) from `text` into `out`. */
static int put_plain(dgpb_run_value_info *info, const dgpb_target_view *t, const char *name,
                     const char *text, const char *why, uint8_t *out, dgpb_diag *diag)
{
    const char *tn = t->name.ptr;
    int tl = (int)t->name.len;
    dgpb_scalar scalar = (dgpb_scalar)info->scalar, given_scalar;
    uint32_t bits = info->bits, given_bits;
    const char *colon = strchr(text, ':');
    if (colon && type_from_name(text, (size_t)(colon - text), &given_scalar, &given_bits)) {
        bool agree =
            scalar == DGPB_SCALAR_UNKNOWN || type_agrees(scalar, bits, given_scalar, given_bits);
        if (!agree)
            return run_fail(diag, DGPB_ERR_INVALID,
                            "value '%s': %.*s given, but the code on target %.*s declares %s%s%s",
                            name, (int)(colon - text), text, tl, tn, info->text,
                            info->lent_by[0] ? " (on target " : "", info->lent_by[0] ? ")" : "");
        if (scalar == DGPB_SCALAR_UNKNOWN)
            info->vectors = info->components = 1, info->array_count = 0;
        if (scalar != DGPB_SCALAR_BOOL) { /* u32:1 for a bool is still a bool's 1 */
            scalar = given_scalar;
            bits = given_bits;
        }
        text = colon + 1;
    } else if (scalar == DGPB_SCALAR_UNKNOWN) {
        return run_fail(diag, DGPB_ERR_INVALID,
                        "value '%s': the code on target %.*s does not state its type (%s), nor "
                        "does another target of the bundle%s%s: give it as TYPE:V1,... (TYPE "
                        "one of " TYPE_LIST ")",
                        name, tl, tn, info->aggregate ? "a struct" : "bytes", why[0] ? "; " : "",
                        why);
    }
    uint32_t row_size = info->row->size, elem = bits / 8;
    size_t count = number_count(text);
    bool placed = (!info->lent_by[0] || info->vectors > 1) && info->scalar == (uint32_t)scalar &&
                  info->bits == bits;
    place pl = {.scalar = scalar,
                .bits = bits,
                .vectors = info->vectors,
                .components = info->components,
                .vector_stride = info->vector_stride,
                .column_major = info->column_major,
                .array_count = info->array_count,
                .array_stride = info->array_stride};
    size_t want = placed ? place_count(&pl) : row_size / (elem ? elem : 1);
    if (count != want || (!placed && (size_t)row_size != want * elem))
        return run_fail(diag, DGPB_ERR_RUN_SIZE,
                        "value '%s' is %s (%u bytes) on target %.*s: it takes %zu number%s, got "
                        "%zu",
                        name, placed ? info->text : "bytes", row_size, tl, tn, want,
                        want == 1 ? "" : "s", count);
    const char *p = text;
    for (size_t i = 0; i < count; i++) {
        const char *start;
        size_t len = next_number(&p, &start);
        char tname[8];
        snprintf(tname, sizeof tname, "%c%u", scalar_letter(scalar), bits);
        int rc = put_number(name, "", placed ? info->text : tname, scalar, bits, start, len, i,
                            placed ? place_at(&pl, i, elem) : i * elem, out, row_size, diag);
        if (rc)
            return rc;
    }
    return DGPB_OK;
}

int dgpb_run_value_write(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                         const char *name, const char *text, uint8_t *bytes, size_t size,
                         uint32_t *at, uint32_t *len, dgpb_diag *diag)
{
    const dgpb_param_view *row;
    const char *path;
    int rc = dgpb_run_value_row(t, entry, name, &row, &path, diag);
    if (rc)
        return rc;
    char row_name[DGPB_MAX_STRING + 1];
    snprintf(row_name, sizeof row_name, "%.*s", (int)row->name.len, row->name.ptr);
    if (size != row->size)
        return run_fail(diag, DGPB_ERR_RUN_SIZE, "value '%s': %zu bytes given for a row of %u",
                        name, size, row->size);
    dgpb_run_value_info info;
    if ((rc = dgpb_run_value_type(b, t, entry, row_name, &info, diag)))
        return rc;
    const dgpb_entry_view *e = NULL;
    dgpb_target_find_entry(t, entry, &e, NULL);
    code_fields f;
    char lent_by[16], why[300];
    bool fields = path[0] || info.scalar == DGPB_SCALAR_UNKNOWN;
    memset(&f, 0, sizeof f);
    f.root = -1;
    if (fields && (rc = row_fields(b, t, e, row, &f, lent_by, why, sizeof why, diag)))
        return rc;
    code_node n;
    code_fields_root(&f, row->size, &n);
    if (path[0] && f.root < 0) {
        code_fields_free(&f);
        return run_fail(diag, DGPB_ERR_RUN_PARAM,
                        "value '%s': '%s' holds no struct whose fields the code on target %.*s "
                        "states (%s)%s%s, so it has no field '%s'",
                        name, row_name, (int)t->name.len, t->name.ptr,
                        info.scalar ? info.text : "bytes", why[0] ? "; " : "", why, path);
    }
    if (path[0]) {
        char where[300];
        if (code_fields_walk(&f, &n, path, &n, where, sizeof where)) {
            code_fields_free(&f);
            return run_fail(diag, DGPB_ERR_RUN_PARAM, "value '%s': %s (on target %.*s%s%s)", name,
                            where, (int)t->name.len, t->name.ptr,
                            lent_by[0] ? ", its fields from " : "", lent_by);
        }
    }
    if (at)
        *at = n.offset;
    if (len)
        *len = n.size;
    if (f.root < 0) /* a value of no struct: its type, lent, or a TYPE: alone */
        rc = put_plain(&info, t, name, text, fields ? why : "", bytes, diag);
    else /* a struct, whole, or a field or element of it: its fields' numbers in turn */
        rc = put_struct(&f, &n, name, t, lent_by, text, bytes, row->size, diag);
    code_fields_free(&f);
    return rc;
}

int dgpb_run_value_bytes(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                         const char *name, const char *text, uint8_t **bytes, size_t *size,
                         dgpb_diag *diag)
{
    *bytes = NULL;
    *size = 0;
    const dgpb_param_view *row;
    const char *path;
    int rc = dgpb_run_value_row(t, entry, name, &row, &path, diag);
    if (rc)
        return rc;
    uint8_t *out = mem_calloc(row->size ? row->size : 1, 1);
    if (!out)
        return run_fail(diag, DGPB_ERR_NOMEM, "out of memory");
    if ((rc = dgpb_run_value_write(b, t, entry, name, text, out, row->size, NULL, NULL, diag))) {
        dgpb_free(out);
        return rc;
    }
    *bytes = out;
    *size = row->size;
    return DGPB_OK;
}

/* ---- a struct's fields listed -------------------------------------------------- */

typedef struct field_list {
    const code_fields *f;
    dgpb_run_value_field *items;
    uint32_t count;
    size_t cap;
} field_list;

static int list_field(void *ctx, const code_node *n, const char *path, bool leaf)
{
    field_list *l = ctx;
    dgpb_run_value_field *grown = mem_grow(l->items, l->count, &l->cap, sizeof *grown, 8);
    if (!grown)
        return DGPB_ERR_NOMEM;
    l->items = grown;
    dgpb_run_value_field *x = &l->items[l->count++];
    memset(x, 0, sizeof *x);
    snprintf(x->path, sizeof x->path, "%s", path);
    code_node_text(l->f, n, x->text, sizeof x->text);
    x->offset = n->offset;
    x->size = n->size;
    x->numbers = leaf;
    return 0;
}

int dgpb_run_value_fields(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                          const char *name, dgpb_run_value_field **fields, uint32_t *count,
                          dgpb_diag *diag)
{
    *fields = NULL;
    *count = 0;
    const dgpb_entry_view *e;
    const dgpb_param_view *row;
    int rc = entry_row(t, entry, name, &e, &row, diag);
    if (rc)
        return rc;
    if (row->kind != DGPB_KIND_VALUE)
        return run_fail(diag, DGPB_ERR_RUN_KIND, "'%s' is a %s, not a value", name,
                        dgpb_kind_name(row->kind));
    code_fields f;
    char lent_by[16], why[300];
    if ((rc = row_fields(b, t, e, row, &f, lent_by, why, sizeof why, diag)) || f.root < 0) {
        code_fields_free(&f);
        return rc;
    }
    code_node root;
    code_fields_root(&f, row->size, &root);
    field_list l = {.f = &f};
    if (code_fields_visit(&f, &root, true, list_field, &l)) {
        dgpb_free(l.items);
        code_fields_free(&f);
        return run_fail(diag, DGPB_ERR_NOMEM, "out of memory");
    }
    code_fields_free(&f);
    *fields = l.items;
    *count = l.count;
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
        if (o != row && o->kind == kind && !(o->flags & DGPB_FLAG_ABSENT) && o->space == row->space && o->binding == row->binding &&
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
