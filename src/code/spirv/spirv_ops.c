/*
 * spirv_ops.c - SPIR-V's table of the code-format seam (code/code_format.h):
 * descriptors bound by DescriptorSet/Binding, push constants in the launch
 * space, features read as OpCapability numbers.
 */
#include <stdio.h>

#include "code/code_format.h"
#include "code/spirv/spirv.h"
#include "code/spirv/spirv_bindings.h"
#include "code/spirv/spirv_interface.h"
#include "code/spirv/spirv_ops.h"

/* A DGPB_CODE_FEATURE(SPIRV, ...) row is a capability's number. */
static bool feature_is(const dgpb_code_feature *f, uint32_t number, const char *name)
{
    (void)name;
    return f->number == number;
}

static void feature_describe(const dgpb_code_feature *f, const char *name, char *out, size_t size)
{
    if (name)
        snprintf(out, size, "SPIR-V capability %s (%u)", name, f->number);
    else
        snprintf(out, size, "SPIR-V capability %u", f->number);
}

/* From the unit's SPIR-V analysis; none when SPIRV-Tools could not parse the code. */
static int read_bindings(const uint8_t *code, size_t size, const dgpb_spirv_info *spirv,
                         code_read *out, dgpb_diag *d)
{
    (void)code, (void)size;
    if (!spirv || !spirv->parsed)
        return DGPB_OK;
    out->have_bindings = true;
    return code_bindings_from_spirv(spirv, &out->bindings, d);
}

/* The module header's second word (the blob may be unaligned inside a bundle). */
static uint32_t spirv_version(const void *code, size_t size)
{
    const uint8_t *p = code;
    if (size < 8)
        return 0;
    return (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
}

const code_ops code_spirv_ops = {
    .places_from_code = true,
    .entry_values_launch = true,
    .input_attachments = true,
    .proved = true,
    .place_format = "set %lld, binding %lld",
    .read_bindings = read_bindings,
    .analysed = true,
    .spirv_version = spirv_version,
    .validate = spirv_validate,
    .type_rank = 0,
    .element_types = true,
    .reads_features = true,
    .features_read = spirv_features_read,
    .feature_is = feature_is,
    .feature_describe = feature_describe,
    .type_find = value_spirv_type,
    .block_size_find = value_spirv_block_size,
    .storage_format_find = value_spirv_storage_format,
    .fields_find = value_spirv_fields,
    .interface_read = spirv_interface_read,
};
