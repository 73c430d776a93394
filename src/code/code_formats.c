/*
 * code_formats.c - the registry of the code-format seam (code/code_format.h):
 * each code format's table, the table of the formats dgpb does not read, and
 * the readers of code/code_features.h and code/value_types.h, which ask a
 * format's table.
 *
 * This is the one file of src/code/ outside a format's folder that names
 * code formats (tests/structure/target_tests.py).
 */
#include <stdio.h>
#include <string.h>

#include "code/code_format.h"

static int unread_features(const uint8_t *code, size_t size, dgpb_code_features *out, dgpb_diag *d)
{
    (void)code, (void)size, (void)out, (void)d;
    return DGPB_OK;
}

static bool unread_feature_is(const dgpb_code_feature *f, uint32_t number, const char *name)
{
    (void)f, (void)number, (void)name;
    return false;
}

static void unread_describe(const dgpb_code_feature *f, const char *name, char *out, size_t size)
{
    (void)name;
    if (size)
        snprintf(out, size, "feature %u %s", f->number, f->name);
}

static int unread_bindings(const uint8_t *code, size_t size, const dgpb_spirv_info *spirv,
                           code_read *out, dgpb_diag *d)
{
    (void)code, (void)size, (void)spirv, (void)out, (void)d;
    return DGPB_OK;
}

static int unread_type(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                       dgpb_code_type *out, dgpb_diag *diag)
{
    (void)code, (void)len, (void)entry, (void)row, (void)out, (void)diag;
    return DGPB_OK;
}

static int unread_block_size(const uint8_t *code, size_t len, const char *entry,
                             const code_row *row, uint32_t *out, dgpb_diag *diag)
{
    (void)code, (void)len, (void)entry, (void)row, (void)out, (void)diag;
    return DGPB_OK;
}

static int unread_storage_format(const uint8_t *code, size_t len, const char *entry,
                                 const code_row *row, const char **out, dgpb_diag *diag)
{
    (void)code, (void)len, (void)entry, (void)row, (void)out, (void)diag;
    return DGPB_OK;
}

/* dxbc, dxil, msl, metallib: unproved (docs/format.md); capabilities from the SPIR-V probe. */
const code_ops code_unread_ops = {
    .place_format = "space %lld, binding %lld",
    .type_rank = 2,
    .read_bindings = unread_bindings,
    .features_read = unread_features,
    .feature_is = unread_feature_is,
    .feature_describe = unread_describe,
    .type_find = unread_type,
    .block_size_find = unread_block_size,
    .storage_format_find = unread_storage_format,
};

static const code_ops *const by_format[DGPB_CODE_FORMAT_COUNT] = {
    [DGPB_CODE_FORMAT_SPIRV] = &code_spirv_ops,
    [DGPB_CODE_FORMAT_WGSL] = &code_wgsl_ops,
    [DGPB_CODE_FORMAT_PTX] = &code_ptx_ops,
};

const code_ops *code_ops_of(dgpb_code_format format)
{
    if ((unsigned)format >= DGPB_CODE_FORMAT_COUNT || !by_format[format])
        return &code_unread_ops;
    return by_format[format];
}

/* Each target's code format: dgpb/vocabulary.def, DGPB_TARGET's CODE. */
static const dgpb_code_format target_code[DGPB_TARGET_COUNT] = {
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    [value] = DGPB_CODE_FORMAT_##CODE,
#include "dgpb/vocabulary.def"
};

const code_ops *code_ops_of_target(dgpb_target_id target)
{
    if ((unsigned)target >= DGPB_TARGET_COUNT)
        return &code_unread_ops;
    return code_ops_of(target_code[target]);
}

int code_analysis_target(void)
{
    for (int t = 0; t < DGPB_TARGET_COUNT; t++)
        if (code_ops_of_target((dgpb_target_id)t)->analysed)
            return t;
    return -1;
}

void code_read_clear(code_read *r)
{
    if (!r)
        return;
    code_bindings_clear(&r->bindings);
    ptx_module_free(r->ptx);
    wgsl_module_free(r->wgsl);
    memset(r, 0, sizeof *r);
}

/* ---- code/code_features.h -------------------------------------------------- */

int code_features_read(dgpb_code_format format, const uint8_t *code, size_t size,
                       dgpb_code_features *out, dgpb_diag *d)
{
    memset(out, 0, sizeof *out);
    int rc = code_ops_of(format)->features_read(code, size, out, d);
    if (rc)
        code_features_clear(out);
    return rc;
}

/* ---- code/value_types.h ---------------------------------------------------- */

int code_type_find(dgpb_code_format format, const uint8_t *code, size_t len, const char *entry,
                   const code_row *row, dgpb_code_type *out, dgpb_diag *diag)
{
    if (!out || !row || (!code && len))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "code_type_find: NULL argument");
    memset(out, 0, sizeof *out);
    const code_ops *ops = code_ops_of(format);
    if ((row->kind == DGPB_KIND_BUFFER || row->kind == DGPB_KIND_RW_BUFFER) && !ops->element_types)
        return DGPB_OK; /* a structured buffer's element type, where the code states none */
    int rc = ops->type_find(code, len, entry, row, out, diag);
    if (rc || (out->scalar == DGPB_SCALAR_UNKNOWN && !out->aggregate))
        memset(out, 0, sizeof *out);
    return rc;
}

int code_block_size_find(dgpb_code_format format, const uint8_t *code, size_t len,
                         const char *entry, const code_row *row, uint32_t *out, dgpb_diag *diag)
{
    if (!out || !row || (!code && len))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "code_block_size_find: NULL argument");
    *out = 0;
    return code_ops_of(format)->block_size_find(code, len, entry, row, out, diag);
}

int code_storage_format_find(dgpb_code_format format, const uint8_t *code, size_t len,
                             const char *entry, const code_row *row, const char **out,
                             dgpb_diag *diag)
{
    if (!out || !row || (!code && len))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "code_storage_format_find: NULL argument");
    *out = NULL;
    return code_ops_of(format)->storage_format_find(code, len, entry, row, out, diag);
}

/* ---- code/stage_interface.h ------------------------------------------------ */

int code_interface_read(dgpb_code_format format, const uint8_t *code, size_t size, bool outputs,
                        code_interface_var **vars, uint32_t *count, dgpb_diag *d)
{
    *vars = NULL;
    *count = 0;
    const code_ops *ops = code_ops_of(format);
    return ops->interface_read ? ops->interface_read(code, size, outputs, vars, count, d) : DGPB_OK;
}

/* ---- code/value_fields.h --------------------------------------------------- */

int code_fields_find(dgpb_code_format format, const uint8_t *code, size_t len, const char *entry,
                     const code_row *row, code_fields *out, dgpb_diag *diag)
{
    if (!out || !row || (!code && len))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "code_fields_find: NULL argument");
    memset(out, 0, sizeof *out);
    out->root = -1;
    const code_ops *ops = code_ops_of(format);
    bool element = row->kind == DGPB_KIND_BUFFER || row->kind == DGPB_KIND_RW_BUFFER ||
                   row->kind == DGPB_KIND_UNIFORM_BUFFER;
    if (!ops->fields_find || (row->kind != DGPB_KIND_VALUE && !(element && ops->element_types)))
        return DGPB_OK;
    int rc = ops->fields_find(code, len, entry, row, out, diag);
    if (rc)
        code_fields_free(out);
    return rc;
}

bool code_fields_lend(dgpb_code_format to, const code_fields *from, uint32_t size, code_fields *out,
                      char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->root = -1;
    const code_ops *ops = code_ops_of(to);
    if (!ops->fields_lend || !from || from->root < 0) {
        snprintf(why, why_size, "%s", "its code states its own fields, or none");
        return false;
    }
    if (ops->fields_lend(from, size, out, why, why_size))
        return true;
    code_fields_free(out);
    return false;
}
