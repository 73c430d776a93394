/*
 * wgsl_bindings.c - the bindings WGSL declares (code/wgsl/wgsl_bindings.h):
 * @group/@binding variables and `override`s with an @id from the scanned
 * module, and the layouts of their blocks and buffers from the text.
 */
#include "code/wgsl/wgsl_bindings.h"

#include <assert.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "code/wgsl/value_wgsl.h"

int code_bindings_add_wgsl_layouts(dgpb_code_bindings *b, const char *text, size_t len,
                                   dgpb_diag *diag)
{
    for (size_t i = 0; i < b->count; i++) {
        dgpb_code_binding *c = &b->items[i];
        if (c->space < 0 || c->binding < 0 || c->space > UINT32_MAX || c->binding > UINT32_MAX)
            continue;
        int rc = DGPB_OK;
        if (c->cls == DGPB_CODE_STORAGE_BUFFER) {
            rc = value_wgsl_element_stride(text, len, (uint32_t)c->space, (uint32_t)c->binding,
                                           &c->element_stride, diag);
        } else if (c->cls == DGPB_CODE_UNIFORM_BLOCK) {
            dgpb_spirv_member *m = NULL;
            uint32_t n = 0;
            dgpb_spirv_member **owned =
                mem_realloc(b->owned, (b->owned_count + 1) * sizeof *b->owned);
            if (!owned)
                return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            b->owned = owned;
            rc = value_wgsl_block_members(text, len, (uint32_t)c->space, (uint32_t)c->binding, &m,
                                          &n, diag);
            if (m)
                b->owned[b->owned_count++] = m;
            c->members = m;
            c->member_count = n;
        }
        if (rc)
            return rc;
    }
    return DGPB_OK;
}

static uint32_t override_size(const char *type)
{
    if (!type)
        return 0;
    if (!strcmp(type, "f16"))
        return 2;
    if (!strcmp(type, "f32") || !strcmp(type, "i32") || !strcmp(type, "u32") ||
        !strcmp(type, "bool"))
        return 4;
    return 0;
}

static uint32_t wgsl_class(uint32_t cls, bool *writable)
{
    *writable = false;
    switch (cls) {
    case DGPB_WGSL_UNIFORM:
        return DGPB_CODE_UNIFORM_BLOCK;
    case DGPB_WGSL_STORAGE_READ:
        return DGPB_CODE_STORAGE_BUFFER;
    case DGPB_WGSL_STORAGE_READ_WRITE:
        *writable = true;
        return DGPB_CODE_STORAGE_BUFFER;
    case DGPB_WGSL_TEXTURE:
        return DGPB_CODE_TEXTURE;
    case DGPB_WGSL_TEXTURE_MULTISAMPLED:
        return DGPB_CODE_MULTISAMPLED_TEXTURE;
    case DGPB_WGSL_TEXTURE_DEPTH:
        return DGPB_CODE_DEPTH_TEXTURE;
    case DGPB_WGSL_STORAGE_TEXTURE:
        *writable = true;
        return DGPB_CODE_STORAGE_TEXTURE;
    case DGPB_WGSL_SAMPLER:
        return DGPB_CODE_SAMPLER;
    case DGPB_WGSL_SAMPLER_COMPARISON:
        return DGPB_CODE_COMPARISON_SAMPLER;
    default:
        return DGPB_CODE_OTHER;
    }
}

uint32_t code_wgsl_shape(const dgpb_code_binding *c)
{
    static const char *const dims[DGPB_DIM_COUNT] = {
#define DGPB_SHAPE_DIM(ID, value, name, spirv_dim, wgsl) [value] = wgsl,
#include "dgpb/vocabulary.def"
    };
    static const char *const samples[DGPB_SAMPLE_COUNT] = {
#define DGPB_SAMPLE_TYPE(ID, value, name, wgsl) [value] = wgsl,
#include "dgpb/vocabulary.def"
    };
    static const char *const accesses[4] = {
#define DGPB_SHAPE_ACCESS(ID, value, name, wgsl) [value] = wgsl,
#include "dgpb/vocabulary.def"
    };
    if (c->cls == DGPB_CODE_SAMPLER)
        return 0;
    if (c->cls == DGPB_CODE_COMPARISON_SAMPLER)
        return DGPB_SHAPE_COMPARISON;
    if ((c->cls != DGPB_CODE_TEXTURE && c->cls != DGPB_CODE_MULTISAMPLED_TEXTURE &&
         c->cls != DGPB_CODE_DEPTH_TEXTURE && c->cls != DGPB_CODE_STORAGE_TEXTURE) ||
        !c->dimension)
        return 0;
    uint32_t shape = 0;
    size_t dn = strlen(c->dimension);
    bool arrayed = dn > 6 && !strcmp(c->dimension + dn - 6, "_array");
    size_t base = arrayed ? dn - 6 : dn;
    for (uint32_t d = 1; d < DGPB_DIM_COUNT; d++)
        if (strlen(dims[d]) == base && !strncmp(dims[d], c->dimension, base))
            shape = d;
    if (!shape)
        return 0;
    if (arrayed)
        shape |= DGPB_SHAPE_ARRAYED;
    if (c->cls == DGPB_CODE_MULTISAMPLED_TEXTURE)
        shape |= DGPB_SHAPE_MULTISAMPLED;
    uint32_t sample = c->cls == DGPB_CODE_DEPTH_TEXTURE ? DGPB_SAMPLE_DEPTH : 0;
    for (uint32_t t = 1; !sample && c->sample_type && t < DGPB_SAMPLE_COUNT; t++)
        if (*samples[t] && !strcmp(samples[t], c->sample_type))
            sample = t;
    if (c->cls == DGPB_CODE_STORAGE_TEXTURE && c->texel_format) {
        uint32_t f = dgpb_texel_format_from_name(c->texel_format, strlen(c->texel_format));
        sample = dgpb_texel_format_sample_type(f);
        shape |= f << DGPB_SHAPE_FORMAT_SHIFT;
        for (uint32_t a = 1; c->access && a < 4; a++)
            if (!strcmp(accesses[a], c->access))
                shape |= a << DGPB_SHAPE_ACCESS_SHIFT;
    }
    return shape | sample << DGPB_SHAPE_SAMPLE_SHIFT;
}

int code_bindings_from_wgsl(const dgpb_wgsl_module *m, dgpb_code_bindings *out, dgpb_diag *diag)
{
    assert(m && out);
    memset(out, 0, sizeof *out);
    if (!m->binding_count && !m->override_count)
        return DGPB_OK;
    out->items = mem_calloc(m->binding_count + m->override_count, sizeof *out->items);
    if (!out->items)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    for (size_t i = 0; i < m->binding_count; i++) {
        const dgpb_wgsl_binding *w = &m->bindings[i];
        dgpb_code_binding *c = &out->items[out->count++];
        c->name = w->name;
        c->space = w->group;
        c->binding = w->binding;
        c->cls = wgsl_class(w->cls, &c->writable);
        /* A handle array: WGSL's binding_array, or Slang's array<texture_2d<f32>, N>. (A
           storage buffer's type is an array too: its elements.) */
        c->is_array = w->type && w->cls != DGPB_WGSL_UNIFORM && w->cls != DGPB_WGSL_STORAGE_READ &&
                      w->cls != DGPB_WGSL_STORAGE_READ_WRITE &&
                      (!strncmp(w->type, "binding_array", 13) || !strncmp(w->type, "array<", 6));
        c->detail = w->type ? w->type : "";
        c->texel_format = w->texel_format;
        c->sample_type = w->sample_type;
        c->dimension = w->dimension;
        c->access = w->cls == DGPB_WGSL_STORAGE_TEXTURE ? w->access : NULL;
        c->line = w->line;
        c->shape = code_wgsl_shape(c);
        c->compared = w->compared;
    }
    for (size_t i = 0; i < m->override_count; i++) {
        const dgpb_wgsl_override *o = &m->overrides[i];
        if (o->id < 0)
            continue; /* no id: a host sets it by name, and no row describes it */
        dgpb_code_binding *c = &out->items[out->count++];
        c->name = o->name;
        c->space = DGPB_SPACE_PIPELINE_CONSTANT;
        c->binding = o->id;
        c->cls = DGPB_CODE_PIPELINE_CONSTANT;
        c->block_size = override_size(o->type);
        c->detail = o->type ? o->type : "";
        c->line = o->line;
    }
    return DGPB_OK;
}
