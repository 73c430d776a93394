/*
 * wgsl_ops.c - WGSL's table of the code-format seam (code/code_format.h):
 * bindings at @group/@binding, rows with WebGPU IDs, features read as
 * `enable` directives, value types by WGSL's layout rules
 * (code/wgsl/value_wgsl.c).
 */
#include <stdio.h>
#include <string.h>

#include "code/code_format.h"
#include "code/wgsl/value_wgsl.h"
#include "code/wgsl/wgsl_bindings.h"
#include "code/wgsl/wgsl_names.h"
#include "code/wgsl/wgsl_ops.h"
#include "code/wgsl/wgsl_scan.h"

/* A DGPB_CODE_FEATURE(WGSL, ...) row is an `enable`'s extension; `requires` has no row. */
static bool feature_is(const dgpb_code_feature *f, uint32_t number, const char *name)
{
    (void)number;
    return f->number == 0 && !strcmp(f->name, name);
}

static void feature_describe(const dgpb_code_feature *f, const char *name, char *out, size_t size)
{
    (void)name;
    snprintf(out, size, "WGSL `%s %s`", f->number ? "requires" : "enable", f->name);
}

static int type_find(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                     dgpb_code_type *out, dgpb_diag *diag)
{
    (void)entry;
    return value_wgsl_type((const char *)code, len, row, out, diag);
}

static int block_size_find(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                           uint32_t *out, dgpb_diag *diag)
{
    (void)entry;
    return value_wgsl_block_size((const char *)code, len, row, out, diag);
}

static int fields_find(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                       code_fields *out, dgpb_diag *diag)
{
    (void)entry;
    return value_wgsl_fields((const char *)code, len, row, out, diag);
}

/* texture_storage_*<FORMAT, ...> at the row's @group/@binding. */
static int storage_format_find(const uint8_t *code, size_t len, const char *entry,
                               const code_row *row, const char **out, dgpb_diag *diag)
{
    (void)entry;
    dgpb_wgsl_module *m = NULL;
    int rc = wgsl_module_scan((const char *)code, len, &m, diag);
    if (rc)
        return rc;
    for (size_t i = 0; i < m->binding_count; i++) {
        const dgpb_wgsl_binding *b = &m->bindings[i];
        if (b->group != (int64_t)row->space || b->binding != (int64_t)row->binding ||
            !b->texel_format)
            continue;
        if (code_texel_format(b->texel_format))
            *out = code_texel_format(b->texel_format);
    }
    wgsl_module_free(m);
    return DGPB_OK;
}

/* Scanned from the text, then completed with WGSL's layout rules; the module is kept. */
static int read_bindings(const uint8_t *code, size_t size, const dgpb_spirv_info *spirv,
                         code_read *out, dgpb_diag *d)
{
    (void)spirv;
    out->have_bindings = true;
    int rc = wgsl_module_scan((const char *)code, size, &out->wgsl, d);
    if (!rc)
        rc = code_bindings_from_wgsl(out->wgsl, &out->bindings, d);
    if (!rc)
        rc = code_bindings_add_wgsl_layouts(&out->bindings, (const char *)code, size, d);
    return rc;
}

/* The WGSL code keeps entry names as its function names. */
static const char *name_refused(const char *name)
{
    return wgsl_name_reserved(name)
               ? "is a WGSL keyword or predeclared name; the WGSL code keeps entry names (hosts "
                 "select entries by name), so WebGPU would reject it: rename the entry"
               : NULL;
}

/* WebGPU's stages: a GPUShaderStage each. */
static const char *stage_refused(uint32_t stage)
{
    return stage == DGPB_STAGE_COMPUTE || stage == DGPB_STAGE_VERTEX || stage == DGPB_STAGE_FRAGMENT
               ? NULL
               : "WebGPU has compute, vertex and fragment shaders only";
}

/* Whether a SPIR-V variable is an append or consume buffer's counter: Slang declares such a
   buffer as two storage buffers, "<name>.elements" and "<name>.counter". */
static bool append_counter(const dgpb_spirv_info *spirv, const dgpb_spirv_var *v)
{
    size_t n = v->name ? strlen(v->name) : 0;
    if (v->storage_class != DGPB_SPIRV_STORAGE_STORAGE_BUFFER || n <= 8 ||
        strcmp(v->name + n - 8, ".counter"))
        return false;
    for (size_t i = 0; i < spirv->var_count; i++) {
        const char *e = spirv->vars[i].name;
        if (e && !strncmp(e, v->name, n - 8) && !strcmp(e + n - 8, ".elements"))
            return true;
    }
    return false;
}

/* A texel buffer, input attachment or append/consume buffer the entry's SPIR-V binds: WebGPU
   has none of them. */
static bool missing_binding(const dgpb_spirv_info *spirv, char *out, size_t size)
{
    for (size_t i = 0; spirv && i < spirv->var_count; i++) {
        const dgpb_spirv_var *v = &spirv->vars[i];
        if (!v->in_interface)
            continue;
        if (append_counter(spirv, v)) {
            snprintf(out, size,
                     "append or consume buffer '%.*s' has no wgsl binding (Slang does not compile "
                     "an append or consume buffer for WebGPU: use a RWStructuredBuffer and a "
                     "separate RWStructuredBuffer<uint> counter with atomics)",
                     (int)(strlen(v->name) - 8), v->name);
            return true;
        }
        if (v->type_class == DGPB_SPIRV_TYPE_INPUT_ATTACHMENT) {
            snprintf(out, size,
                     "input attachment '%s' has no wgsl binding (WebGPU has no input attachments: "
                     "they are spirv's only)",
                     v->name);
            return true;
        }
        if (v->type_class == DGPB_SPIRV_TYPE_TEXEL_BUFFER) {
            snprintf(out, size,
                     "%s texel buffer '%s' has no wgsl binding (WebGPU has no texel buffers: "
                     "declare a %sStructuredBuffer<T> instead)",
                     v->image_sampled == 2 ? "storage" : "uniform", v->name,
                     v->image_sampled == 2 ? "RW" : "");
            return true;
        }
    }
    return false;
}

const code_ops code_wgsl_ops = {
    .places_from_code = true,
    .webgpu = true,
    .proved = true,
    .place_format = "@group(%lld) @binding(%lld)",
    .read_bindings = read_bindings,
    .name_refused = name_refused,
    .stage_refused = stage_refused,
    .missing_type = wgsl_missing_type,
    .missing_type_note = "WGSL cannot express",
    .missing_binding = missing_binding,
    .type_rank = 1,
    .element_types = true,
    .reads_features = true,
    .features_read = wgsl_features_read,
    .feature_is = feature_is,
    .feature_describe = feature_describe,
    .type_find = type_find,
    .block_size_find = block_size_find,
    .storage_format_find = storage_format_find,
    .fields_find = fields_find,
};
