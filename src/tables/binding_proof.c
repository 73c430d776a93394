/*
 * binding_proof.c - a parameter table proved against the code it ships
 * (tables/binding_proof.h).
 *
 * Each check below reads the code's side (what the blob declares) and the
 * table's side (the rows) and fails at the first disagreement, with a
 * message that names the code's variable and place as well as the row, so a
 * reader can find both.
 */
#include "tables/binding_proof.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "code/code_format.h"
#include "dgpb/format.h"

uint32_t ptx_handle_size(uint32_t kind)
{
    switch (kind) {
    case DGPB_KIND_BUFFER:
    case DGPB_KIND_RW_BUFFER:
    case DGPB_KIND_BYTE_BUFFER:
    case DGPB_KIND_RW_BYTE_BUFFER:
    case DGPB_KIND_MLP_WEIGHTS:
        return 16; /* a device pointer and an element count */
    default:
        return 8; /* a pointer, a texture or surface object, an acceleration structure */
    }
}

static const char *kind_text(uint32_t kind)
{
    const char *name = dgpb_kind_name(kind);
    return name ? name : "?";
}

/* ---- descriptor targets: spirv and wgsl ---- */

/* Whether a row's kind can describe what the code declares. */
static bool kind_fits(uint32_t kind, const dgpb_code_binding *c)
{
    switch (c->cls) {
    case DGPB_CODE_UNIFORM_BLOCK:
        return kind == DGPB_KIND_VALUE || kind == DGPB_KIND_UNIFORM_BUFFER;
    case DGPB_CODE_SHADER_RECORD:
        return kind == DGPB_KIND_VALUE;
    case DGPB_CODE_STORAGE_BUFFER:
        return kind == DGPB_KIND_BUFFER || kind == DGPB_KIND_RW_BUFFER ||
               kind == DGPB_KIND_BYTE_BUFFER || kind == DGPB_KIND_RW_BYTE_BUFFER ||
               kind == DGPB_KIND_MLP_WEIGHTS;
    case DGPB_CODE_TEXTURE:
        return kind == DGPB_KIND_TEXTURE || kind == DGPB_KIND_TEXTURE_SAMPLER ||
               (kind == DGPB_KIND_HANDLE && c->is_array);
    case DGPB_CODE_MULTISAMPLED_TEXTURE:
    case DGPB_CODE_DEPTH_TEXTURE:
        return kind == DGPB_KIND_TEXTURE || kind == DGPB_KIND_TEXTURE_SAMPLER;
    case DGPB_CODE_COMBINED:
        return kind == DGPB_KIND_TEXTURE_SAMPLER;
    case DGPB_CODE_STORAGE_TEXTURE:
        return kind == DGPB_KIND_RW_TEXTURE;
    case DGPB_CODE_SAMPLER:
    case DGPB_CODE_COMPARISON_SAMPLER:
        return kind == DGPB_KIND_SAMPLER || kind == DGPB_KIND_TEXTURE_SAMPLER ||
               (kind == DGPB_KIND_HANDLE && c->is_array);
    case DGPB_CODE_ACCELERATION_STRUCTURE:
        return kind == DGPB_KIND_ACCELERATION_STRUCTURE;
    case DGPB_CODE_TEXEL_BUFFER:
        return kind == DGPB_KIND_TEXEL_BUFFER;
    case DGPB_CODE_STORAGE_TEXEL_BUFFER:
        return kind == DGPB_KIND_RW_TEXEL_BUFFER;
    case DGPB_CODE_INPUT_ATTACHMENT:
        return kind == DGPB_KIND_INPUT_ATTACHMENT;
    default:
        return false;
    }
}

/* The WebGPU ID that describes a WGSL binding, or 0 when WebGPU has none; `paired`: the texture
   of a combined texture-sampler row, whose sampler (`pair_shape`'s comparison) is at the next
   binding. */
static uint32_t wgsl_id(const dgpb_code_binding *c, bool paired, uint32_t pair_shape)
{
    switch (c->cls) {
    case DGPB_CODE_UNIFORM_BLOCK:
        return DGPB_WGPU_UNIFORM_BUFFER;
    case DGPB_CODE_STORAGE_BUFFER:
        return c->writable ? DGPB_WGPU_STORAGE_BUFFER : DGPB_WGPU_READ_ONLY_STORAGE_BUFFER;
    case DGPB_CODE_SAMPLER:
    case DGPB_CODE_COMPARISON_SAMPLER:
        return dgpb_webgpu_layout_for(DGPB_KIND_SAMPLER, c->shape);
    case DGPB_CODE_TEXTURE:
    case DGPB_CODE_DEPTH_TEXTURE:
    case DGPB_CODE_MULTISAMPLED_TEXTURE:
        return paired ? dgpb_webgpu_layout_for(DGPB_KIND_TEXTURE_SAMPLER,
                                               c->shape | (pair_shape & DGPB_SHAPE_COMPARISON))
                      : dgpb_webgpu_layout_for(DGPB_KIND_TEXTURE, c->shape);
    case DGPB_CODE_STORAGE_TEXTURE:
        return dgpb_webgpu_layout_for(DGPB_KIND_RW_TEXTURE, c->shape);
    default:
        return 0;
    }
}

/*
 * Whether a shaped row's shape agrees with the code's: every field the code
 * states (dgpb_code_binding.shape, and an input attachment's index when
 * decorated) equals the row's. `pair_sampler`: the code binding is the
 * sampler of a wgsl combined pair, which states the comparison only.
 */
static bool shape_fits(uint32_t row, const dgpb_code_binding *c, bool pair_sampler)
{
    uint32_t code = c->shape, cls = c->cls;
    if (pair_sampler || cls == DGPB_CODE_SAMPLER || cls == DGPB_CODE_COMPARISON_SAMPLER)
        return (row & DGPB_SHAPE_COMPARISON) == (code & DGPB_SHAPE_COMPARISON);
    /* An input attachment's index, stated by its decoration, may be 0. */
    if (c->attachment_stated &&
        (row & DGPB_SHAPE_ATTACHMENT_MASK) != (code & DGPB_SHAPE_ATTACHMENT_MASK))
        return false;
    uint32_t texture = DGPB_SHAPE_DIM_MASK | DGPB_SHAPE_ARRAYED | DGPB_SHAPE_MULTISAMPLED;
    if (DGPB_SHAPE_DIM_OF(code) && (row & texture) != (code & texture))
        return false;
    static const uint32_t stated[] = {DGPB_SHAPE_SAMPLE_MASK, DGPB_SHAPE_FORMAT_MASK,
                                      DGPB_SHAPE_ACCESS_MASK, DGPB_SHAPE_ATTACHMENT_MASK};
    for (size_t i = 0; i < sizeof stated / sizeof stated[0]; i++)
        if ((code & stated[i]) && (row & stated[i]) != (code & stated[i]))
            return false;
    /* A texture of a wgsl pair states no comparison: its sampler does. */
    return cls != DGPB_CODE_COMBINED ||
           (row & DGPB_SHAPE_COMPARISON) == (code & DGPB_SHAPE_COMPARISON);
}

/* The shape of a wgsl pair's sampler (the code's sampler after `c`), or 0. */
static uint32_t pair_shape(const dgpb_code_bindings *code, const dgpb_code_binding *c)
{
    const dgpb_code_binding *sampler = code_bindings_pair_sampler(code, c);
    return sampler ? sampler->shape : 0;
}

/* Whether the code has, at c's place, another variable that a row of `kind` describes (the
   sampler next to a texture on one binding, or the texture next to a sampler). */
static bool shared_partner(const dgpb_code_bindings *code, const dgpb_code_binding *c,
                           uint32_t kind)
{
    for (size_t i = 0; i < code->count; i++) {
        const dgpb_code_binding *o = &code->items[i];
        if (o != c && o->space == c->space && o->binding == c->binding && kind_fits(kind, o))
            return true;
    }
    return false;
}

/* "set 0, binding 2" (spirv) or "@group(0) @binding(2)" (wgsl). */
static void place_text(dgpb_target_id target, const dgpb_code_binding *c, char *buf, size_t n)
{
    if (c->cls == DGPB_CODE_SHADER_RECORD) {
        snprintf(buf, n, "space shader_record");
        return;
    }
    snprintf(buf, n, code_ops_of_target(target)->place_format, (long long)c->space,
             (long long)c->binding);
}

/* A code block's byte size as the build lays blocks out: SPIR-V states no struct's size, so
   it follows the block's rules, scalar ones under a scalar block layout. */
static uint32_t code_block_size(const dgpb_proof_input *in, const dgpb_code_binding *c)
{
    return in->scalar_blocks && c->scalar_block_size ? c->scalar_block_size : c->block_size;
}

/*
 * A plain-data block's field rows (its uniform_buffer row, then value rows at
 * its place) against the members of the code's block: each row starts at a
 * member and covers it, and each member has its row.
 */
static int prove_block_fields(const dgpb_proof_input *in, const dgpb_code_binding *c,
                              const char *where, dgpb_diag *diag)
{
    const dgpb_param_table *t = in->table;
    for (uint32_t r = 0; r < t->count; r++) {
        const dgpb_param_desc *row = &t->rows[r];
        if (row->kind != DGPB_KIND_VALUE || row->space != (uint64_t)c->space ||
            row->binding != (uint64_t)c->binding)
            continue;
        bool found = false;
        for (uint32_t m = 0; m < c->member_count && !found; m++)
            found = c->members[m].offset == row->offset && c->members[m].size <= row->size;
        if (!found)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': field row '%s' (bytes %u..%u) is no "
                                 "member of the code's block '%s' (%s)",
                                 dgpb_target_name(in->target), in->entry, row->name, row->offset,
                                 row->offset + row->size, c->name, where);
    }
    for (uint32_t m = 0; m < c->member_count; m++) {
        bool found = false;
        for (uint32_t r = 0; r < t->count && !found; r++)
            found = t->rows[r].kind == DGPB_KIND_VALUE && t->rows[r].space == (uint64_t)c->space &&
                    t->rows[r].binding == (uint64_t)c->binding &&
                    t->rows[r].offset == c->members[m].offset;
        if (!found)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': member %u of the code's block '%s' (%s, "
                                 "offset %u, %u bytes) has no field row: a host could not fill it",
                                 dgpb_target_name(in->target), in->entry, m, c->name, where,
                                 c->members[m].offset, c->members[m].size);
    }
    return DGPB_OK;
}

/* A pipeline constant of the code: exactly one value row at its id, of its byte size. */
static int prove_pipeline_constant(const dgpb_proof_input *in, const dgpb_code_binding *c,
                                   dgpb_diag *diag)
{
    const dgpb_param_table *t = in->table;
    const dgpb_param_desc *found = NULL;
    for (uint32_t r = 0; r < t->count; r++) {
        const dgpb_param_desc *row = &t->rows[r];
        if (row->space != DGPB_SPACE_PIPELINE_CONSTANT || row->binding != (uint64_t)c->binding)
            continue;
        if (found)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameters '%s' and '%s' both claim "
                                 "the code's pipeline constant '%s' (id %lld)",
                                 dgpb_target_name(in->target), in->entry, found->name, row->name,
                                 c->name, (long long)c->binding);
        found = row;
        if (row->kind != DGPB_KIND_VALUE || row->offset != 0 ||
            (c->block_size && row->size != c->block_size))
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%s' is a %s row of %u bytes "
                                 "at offset %u, but the code's pipeline constant '%s' (id %lld) "
                                 "is a value of %u bytes",
                                 dgpb_target_name(in->target), in->entry, row->name,
                                 kind_text(row->kind), row->size, row->offset, c->name,
                                 (long long)c->binding, c->block_size);
    }
    if (!found)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target '%s', entry '%s': the code declares the pipeline constant "
                             "'%s' (id %lld), which no parameter row describes: a host could "
                             "not set it",
                             dgpb_target_name(in->target), in->entry, c->name,
                             (long long)c->binding);
    return DGPB_OK;
}

static int prove_code_binding(const dgpb_proof_input *in, const dgpb_code_binding *c,
                              dgpb_diag *diag)
{
    const dgpb_param_table *t = in->table;
    bool wgsl = code_ops_of_target(in->target)->webgpu;
    char where[96];
    const char *what = code_class_name(c->cls);
    uint32_t block = code_block_size(in, c);
    if (c->cls == DGPB_CODE_PUSH_CONSTANT) {
        uint32_t rows = 0;
        for (uint32_t r = 0; r < t->count; r++) {
            const dgpb_param_desc *row = &t->rows[r];
            if (row->space != DGPB_SPACE_LAUNCH)
                continue;
            rows++;
            if (row->kind != DGPB_KIND_VALUE)
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "target '%s', entry '%s': parameter '%s' is a %s row in the "
                                     "launch space, but the code's push-constant block '%s' holds "
                                     "values only",
                                     dgpb_target_name(in->target), in->entry, row->name,
                                     kind_text(row->kind), c->name);
            if (block && (uint64_t)row->offset + row->size > block)
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "target '%s', entry '%s': parameter '%s' (bytes %u..%u) lies "
                                     "outside the code's push-constant block '%s' (%u bytes)",
                                     dgpb_target_name(in->target), in->entry, row->name,
                                     row->offset, row->offset + row->size, c->name, block);
        }
        if (!rows)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': the code declares the push-constant "
                                 "block '%s' (%u bytes), which no parameter row describes",
                                 dgpb_target_name(in->target), in->entry, c->name, block);
        return DGPB_OK;
    }
    if (c->cls == DGPB_CODE_PIPELINE_CONSTANT)
        return prove_pipeline_constant(in, c, diag);
    if (c->space < 0 || c->binding < 0)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target '%s', entry '%s': the code declares the %s '%s' without a "
                             "binding%s",
                             dgpb_target_name(in->target), in->entry, what, c->name,
                             wgsl ? " (a push constant: WebGPU has none; declare a plain "
                                    "ConstantBuffer, or leave wgsl out of --targets)"
                                  : "");
    place_text(in->target, c, where, sizeof where);
    if (wgsl && c->compared && c->cls != DGPB_CODE_DEPTH_TEXTURE)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target 'wgsl', entry '%s': the code samples '%s' (%s, %s) with a "
                             "depth comparison, which WGSL allows on depth textures only, so "
                             "WebGPU would reject the code (Slang writes the texture's type as "
                             "declared); leave wgsl out of --targets for this entry, or compare "
                             "in the shader with a plain sampler",
                             in->entry, c->name, where, c->detail ? c->detail : what);
    const dgpb_param_desc *first = NULL;
    uint32_t count = 0;
    bool fixed = c->is_array && c->array_length; /* a fixed array: rows name[0] ... */
    for (uint32_t r = 0; r < t->count; r++) {
        const dgpb_param_desc *row = &t->rows[r];
        /* On wgsl a combined texture-sampler row is the texture at its binding and the
           sampler at the next (docs/format.md, "Combined texture-samplers"). */
        bool pair_sampler = wgsl && row->kind == DGPB_KIND_TEXTURE_SAMPLER &&
                            row->space == (uint64_t)c->space &&
                            (uint64_t)row->binding + 1 == (uint64_t)c->binding &&
                            (c->cls == DGPB_CODE_SAMPLER || c->cls == DGPB_CODE_COMPARISON_SAMPLER);
        if (!pair_sampler &&
            (row->space != (uint64_t)c->space || row->binding != (uint64_t)c->binding))
            continue;
        /* A texture and a sampler sharing the binding: each row claims its own variable. */
        if ((row->flags & DGPB_FLAG_SHARED_BINDING) && !kind_fits(row->kind, c) &&
            shared_partner(in->code, c, row->kind))
            continue;
        if (!pair_sampler && wgsl && row->kind == DGPB_KIND_TEXTURE_SAMPLER &&
            (c->cls == DGPB_CODE_SAMPLER || c->cls == DGPB_CODE_COMPARISON_SAMPLER))
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target 'wgsl', entry '%s': parameter '%s' is a texture_sampler "
                                 "row, but the code declares a sampler '%s' (%s) at its binding, "
                                 "where its texture belongs",
                                 in->entry, row->name, c->name, where);
        if (!first)
            first = row;
        count++;
        /* A block's rows: its uniform_buffer row (if any) first, then value rows. A fixed
           array's: one row per element, of one kind. */
        bool element = fixed && row->kind == first->kind;
        if (count > 1 && !element &&
            (row->kind != DGPB_KIND_VALUE ||
             (first->kind != DGPB_KIND_VALUE && first->kind != DGPB_KIND_UNIFORM_BUFFER)))
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameters '%s' and '%s' both claim "
                                 "the code's %s '%s' (%s)",
                                 dgpb_target_name(in->target), in->entry, first->name, row->name,
                                 what, c->name, where);
        bool unbounded = (row->flags & DGPB_FLAG_UNBOUNDED) != 0;
        if (unbounded != (c->is_array && !fixed && row->kind != DGPB_KIND_HANDLE)) {
            char what_row[64];
            snprintf(what_row, sizeof what_row, "%s%s", unbounded ? "an unbounded " : "a ",
                     kind_text(row->kind));
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%s' is %s row, but the "
                                 "code declares '%s' (%s) as %s",
                                 dgpb_target_name(in->target), in->entry, row->name, what_row,
                                 c->name, where,
                                 c->is_array && !fixed ? "a runtime array" : "no runtime array");
        }
        if ((fixed && row->kind == DGPB_KIND_HANDLE) || !kind_fits(row->kind, c))
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%s' is a %s row, but the "
                                 "code declares %s'%s' (%s) there as a %s",
                                 dgpb_target_name(in->target), in->entry, row->name,
                                 kind_text(row->kind), c->is_array ? "an array " : "", c->name,
                                 where, what);
        if ((row->kind == DGPB_KIND_BUFFER || row->kind == DGPB_KIND_RW_BUFFER) &&
            c->element_stride && row->size != c->element_stride)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%s' gives an element stride "
                                 "of %u bytes, but the code's '%s' (%s) has elements of %u bytes",
                                 dgpb_target_name(in->target), in->entry, row->name, row->size,
                                 c->name, where, c->element_stride);
        if (row->kind == DGPB_KIND_UNIFORM_BUFFER && block && !c->is_array && row->size != block)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%s' gives a block of %u "
                                 "bytes, but the code's uniform block '%s' (%s) is %u bytes",
                                 dgpb_target_name(in->target), in->entry, row->name, row->size,
                                 c->name, where, block);
        if (row->kind == DGPB_KIND_VALUE && block &&
            (uint64_t)row->offset + row->size > block)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%s' (bytes %u..%u) lies "
                                 "outside the code's uniform block '%s' (%s, %u bytes)",
                                 dgpb_target_name(in->target), in->entry, row->name, row->offset,
                                 row->offset + row->size, c->name, where, block);
        if (dgpb_kind_has_shape(row->kind) && !shape_fits(row->offset, c, pair_sampler)) {
            char have[96], want[96];
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%s' has the shape '%s', but "
                                 "the code declares '%s' (%s) as '%s'",
                                 dgpb_target_name(in->target), in->entry, row->name,
                                 dgpb_shape_text(row->offset, have, sizeof have), c->name, where,
                                 dgpb_shape_text(c->shape, want, sizeof want));
        }
        uint32_t id = pair_sampler ? row->webgpu_layout
                                   : wgsl_id(c, row->kind == DGPB_KIND_TEXTURE_SAMPLER,
                                             pair_shape(in->code, c));
        if (wgsl && row->webgpu_layout != id) {
            char id_text[32] = ", which has no ID";
            if (id)
                snprintf(id_text, sizeof id_text, ", which is ID %u", id);
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target 'wgsl', entry '%s': parameter '%s' carries WebGPU ID %u, "
                                 "but the code declares '%s' (%s) as %s%s",
                                 in->entry, row->name, row->webgpu_layout, c->name, where,
                                 c->detail ? c->detail : what, id_text);
        }
    }
    if (!count)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target '%s', entry '%s': the code binds '%s' (%s %s at %s), which no "
                             "parameter row describes: a host would leave it unbound",
                             dgpb_target_name(in->target), in->entry, c->name,
                             what[0] == 'a' ? "an" : "a", what, where);
    if (fixed && count != c->array_length)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target '%s', entry '%s': the code's '%s' (%s) is an array of %u "
                             "descriptors, but %u parameter row%s describe%s it (from '%s'): a "
                             "host would bind a different count",
                             dgpb_target_name(in->target), in->entry, c->name, where,
                             c->array_length, count, count == 1 ? "" : "s", count == 1 ? "s" : "",
                             first->name);
    if (first->kind == DGPB_KIND_UNIFORM_BUFFER && c->member_count && !c->is_array)
        return prove_block_fields(in, c, where, diag);
    return DGPB_OK;
}

static int prove_descriptors(const dgpb_proof_input *in, dgpb_diag *diag)
{
    const dgpb_code_bindings *code = in->code;
    const dgpb_param_table *t = in->table;
    bool wgsl = code_ops_of_target(in->target)->webgpu;
    size_t push_blocks = 0;
    for (size_t i = 0; i < code->count; i++) {
        push_blocks += code->items[i].cls == DGPB_CODE_PUSH_CONSTANT;
        int rc = prove_code_binding(in, &code->items[i], diag);
        if (rc)
            return rc;
    }
    if (push_blocks > 1)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target '%s', entry '%s': the code declares %zu push-constant blocks; "
                             "a pipeline has one push-constant range (use one "
                             "[[vk::push_constant]] block, or entry-point uniform values only)",
                             dgpb_target_name(in->target), in->entry, push_blocks);
    /* Every row the code uses has its binding. */
    for (uint32_t r = 0; r < t->count; r++) {
        const dgpb_param_desc *row = &t->rows[r];
        if (t->in_code && !t->in_code[r])
            continue;
        bool found = false;
        if (row->space == DGPB_SPACE_LAUNCH) {
            if (wgsl)
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "target 'wgsl', entry '%s': parameter '%s' is a launch "
                                     "parameter, which WebGPU does not have",
                                     in->entry, row->name);
            for (size_t i = 0; i < code->count && !found; i++)
                found = code->items[i].cls == DGPB_CODE_PUSH_CONSTANT;
            if (!found)
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "target '%s', entry '%s': parameter '%s' is a push "
                                     "constant (space 0x%X), but the code declares no "
                                     "push-constant block",
                                     dgpb_target_name(in->target), in->entry, row->name,
                                     DGPB_SPACE_LAUNCH);
            continue;
        }
        for (size_t i = 0; i < code->count && !found; i++)
            found = code->items[i].space == (int64_t)row->space &&
                    code->items[i].binding == (int64_t)row->binding;
        if (!found)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%s' (%s at space %u, "
                                 "binding %u) matches no binding in the code",
                                 dgpb_target_name(in->target), in->entry, row->name,
                                 kind_text(row->kind), row->space, row->binding);
    }
    return DGPB_OK;
}

/* ---- ptx ---- */

/* The byte range a ptx row occupies in its block: [*start, *end). */
static void ptx_range(const dgpb_param_desc *row, uint64_t *start, uint64_t *end)
{
    if (row->kind == DGPB_KIND_VALUE) {
        bool direct = row->space == DGPB_SPACE_LAUNCH || row->binding == DGPB_BINDING_INLINE;
        *start = direct ? row->offset : row->binding;
        *end = *start + (direct ? row->size : 8u); /* else the block's pointer */
    } else {
        *start = row->binding;
        *end = *start + ptx_handle_size(row->kind);
    }
}

static int prove_ptx(const dgpb_proof_input *in, dgpb_diag *diag)
{
    const dgpb_ptx_module *m = in->ptx;
    const dgpb_param_table *t = in->table;
    /* The entry's kernel: its own name, or the PTX's only .entry (`main` is `main_0`). */
    const dgpb_ptx_entry *e = ptx_kernel(m, in->entry);
    if (!e && m->entry_count == 0)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target 'ptx', entry '%s': the PTX has no .entry", in->entry);
    if (!e)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target 'ptx', entry '%s': the PTX has no .entry '%s', and %zu "
                             "others, so a host could not tell which kernel is the entry",
                             in->entry, in->entry, m->entry_count);
    bool globals = false;
    for (uint32_t r = 0; r < t->count; r++) {
        const dgpb_param_desc *row = &t->rows[r];
        uint64_t start, end;
        ptx_range(row, &start, &end);
        if (row->space == DGPB_SPACE_LAUNCH) {
            const dgpb_ptx_param *in_param = NULL;
            for (size_t k = 0; k < e->param_count && !in_param; k++)
                if (start >= e->params[k].offset &&
                    end <= (uint64_t)e->params[k].offset + e->params[k].size)
                    in_param = &e->params[k];
            if (!in_param)
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "target 'ptx', entry '%s': parameter '%s' (bytes %llu..%llu "
                                     "of the kernel's parameters) lies in no parameter of "
                                     ".entry %s",
                                     in->entry, row->name, (unsigned long long)start,
                                     (unsigned long long)end, e->name);
        } else if (row->space == 0) {
            globals |= !t->in_code || t->in_code[r];
            if (m->has_global_params && end <= m->global_params_size)
                continue;
            if (t->in_code && !t->in_code[r] && !m->has_global_params)
                continue;
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target 'ptx', entry '%s': parameter '%s' (bytes %llu..%llu of "
                                 "SLANG_globalParams) lies outside it (%s%llu bytes)",
                                 in->entry, row->name, (unsigned long long)start,
                                 (unsigned long long)end,
                                 m->has_global_params ? "" : "the PTX declares none: ",
                                 (unsigned long long)m->global_params_size);
        } else {
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target 'ptx', entry '%s': parameter '%s' has space %u; on ptx a "
                                 "row lives in SLANG_globalParams (0) or the kernel's parameters "
                                 "(0x%X)",
                                 in->entry, row->name, row->space, DGPB_SPACE_LAUNCH);
        }
    }
    /* Every kernel parameter the code reads holds a row. */
    for (size_t k = 0; k < e->param_count; k++) {
        const dgpb_ptx_param *p = &e->params[k];
        if (!p->used)
            continue;
        bool covered = false;
        for (uint32_t r = 0; r < t->count && !covered; r++) {
            uint64_t start, end;
            ptx_range(&t->rows[r], &start, &end);
            covered = t->rows[r].space == DGPB_SPACE_LAUNCH && start >= p->offset &&
                      end <= (uint64_t)p->offset + p->size;
        }
        if (!covered)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target 'ptx', entry '%s': the kernel reads its parameter '%s' "
                                 "(bytes %u..%u), which no parameter row describes",
                                 in->entry, p->name, p->offset, p->offset + p->size);
    }
    if (m->global_params_used && !globals)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target 'ptx', entry '%s': the code reads SLANG_globalParams (%llu "
                             "bytes), but no parameter row lives there",
                             in->entry, (unsigned long long)m->global_params_size);
    if (m->has_global_params && m->global_params_max_read > m->global_params_size)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target 'ptx', entry '%s': the code reads SLANG_globalParams up to "
                             "byte %llu, past its %llu bytes",
                             in->entry, (unsigned long long)m->global_params_max_read,
                             (unsigned long long)m->global_params_size);
    return DGPB_OK;
}

int binding_proof_check(const dgpb_proof_input *in, dgpb_diag *diag)
{
    assert(in && in->target < DGPB_TARGET_COUNT && in->entry && in->table);
    if (code_ops_of_target(in->target)->memory_handles) {
        assert(in->ptx);
        return prove_ptx(in, diag);
    }
    assert(in->code);
    return prove_descriptors(in, diag);
}
