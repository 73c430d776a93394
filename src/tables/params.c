/*
 * params.c - one entry's parameter table (tables/params.h).
 */
#include "tables/params.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "code/code_format.h"
#include "dgpb/format.h"
#include "dgpb/reader.h" /* DGPB_MAX_STRING */

void value_block_name(const char *entry, char *buf, size_t size)
{
    snprintf(buf, size, "%s_params", entry);
}

/* The group entry whose "<name>_" prefixes `global` the longest, or NULL. */
static const char *owner_of(const char *global, const dgpb_param_select *s)
{
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < s->group_entry_count; i++) {
        const char *e = s->group_entries[i];
        size_t n = strlen(e);
        if (n > best_len && !strncmp(global, e, n) && global[n] == '_' && global[n + 1]) {
            best = e;
            best_len = n;
        }
    }
    return best;
}

/*
 * Whether the entry's code uses a row: its variable is on the entry point's
 * interface, or (for a shape Slang splits into several variables, such as an
 * append buffer's "kept.elements" and "kept.counter", or a parameter block's
 * fields) a variable named "<code_name>.<something>" is.
 */
static bool referenced(const dgpb_param_select *s, const char *code_name, bool value)
{
    if (!s->spirv || !s->spirv->parsed)
        return true; /* nothing known: keep every row (the caller has warned) */
    const dgpb_spirv_var *v = spirv_find_var(s->spirv, code_name);
    if (v || value)
        return v && v->in_interface; /* a value's block variable: the resources named after it
                                        say nothing about whether the code reads its data */
    size_t n = strlen(code_name);
    for (size_t i = 0; i < s->spirv->var_count; i++) {
        const dgpb_spirv_var *w = &s->spirv->vars[i];
        if (w->in_interface && !strncmp(w->name, code_name, n) && w->name[n] == '.')
            return true;
    }
    return false;
}

/* The entry's SPIR-V specialization constant named `name` or of id `id` (name NULL), or NULL. */
static const dgpb_spirv_spec_constant *spec_constant(const dgpb_param_select *s, const char *name,
                                                     uint32_t id)
{
    if (!s->spirv || !s->spirv->parsed)
        return NULL;
    for (size_t i = 0; i < s->spirv->spec_constant_count; i++) {
        const dgpb_spirv_spec_constant *k = &s->spirv->spec_constants[i];
        if (name ? k->name && !strcmp(k->name, name) : k->spec_id == id)
            return k;
    }
    return NULL;
}

static bool written(const dgpb_param_select *s, const char *code_name)
{
    if (!s->spirv || !s->spirv->parsed)
        return false;
    const dgpb_spirv_var *v = spirv_find_var(s->spirv, code_name);
    return v && v->written;
}

void param_table_clear(dgpb_param_table *t)
{
    for (uint32_t i = 0; t->rows && i < t->count; i++)
        dgpb_free((char *)t->rows[i].name);
    dgpb_free(t->rows);
    dgpb_free(t->in_code);
    t->rows = NULL;
    t->in_code = NULL;
    t->count = 0;
}

/*
 * The code's variable for a row: the one named after its path, except that a
 * combined texture-sampler on wgsl is two variables, "<path>_texture_N" at
 * its binding and "<path>_sampler_N" at the next (docs/format.md, "Combined
 * texture-samplers"): the texture is the row's.
 */
static const dgpb_code_binding *code_of(const dgpb_param_select *s, const dgpb_reflected_param *p,
                                        bool *ambiguous)
{
    *ambiguous = false;
    if (p->kind == DGPB_KIND_TEXTURE_SAMPLER && code_ops_of_target(s->target)->webgpu) {
        char path[512];
        snprintf(path, sizeof path, "%s.texture", p->code_name);
        return code_bindings_find(s->code, path, ambiguous);
    }
    return code_bindings_find(s->code, p->code_name, ambiguous);
}

/*
 * A shaped row's shape word: what the reflection tells (dimension, arrayed,
 * multisampled, sample type, access, an input attachment's index), completed
 * by what only the code states (the texel format, a depth texture, a
 * comparison sampler; a texel buffer's or input attachment's sample type, a
 * multisampled input attachment). The proof then
 * checks every field the code states against it (tables/binding_proof.c).
 */
static uint32_t shape_of(const dgpb_param_select *s, const dgpb_reflected_param *p)
{
    uint32_t shape = p->shape_word;
    bool ambiguous;
    const dgpb_code_binding *c = s->code ? code_of(s, p, &ambiguous) : NULL;
    if (!c)
        return shape;
    if (p->kind == DGPB_KIND_SAMPLER) {
        /* WGSL's combined pairs are two variables; a sampler row is never one of them. */
        return c->shape & DGPB_SHAPE_COMPARISON;
    }
    shape |= c->shape & DGPB_SHAPE_COMPARISON;
    /* The reflection names no element type for Buffer<T> and SubpassInput<T>, nor whether a
       subpass input is multisampled (SubpassInputMS): the code does. */
    if (!DGPB_SHAPE_SAMPLE_OF(shape))
        shape |= c->shape & DGPB_SHAPE_SAMPLE_MASK;
    if (p->kind == DGPB_KIND_INPUT_ATTACHMENT)
        shape |= c->shape & DGPB_SHAPE_MULTISAMPLED;
    if (DGPB_SHAPE_FORMAT_OF(c->shape)) /* the code's texel format wins over Slang's name */
        shape = (shape & ~(DGPB_SHAPE_FORMAT_MASK | DGPB_SHAPE_SAMPLE_MASK)) |
                (c->shape & (DGPB_SHAPE_FORMAT_MASK | DGPB_SHAPE_SAMPLE_MASK));
    if (DGPB_SHAPE_SAMPLE_OF(c->shape) == DGPB_SAMPLE_DEPTH &&
        DGPB_SHAPE_SAMPLE_OF(shape) == DGPB_SAMPLE_FLOAT)
        shape = (shape & ~DGPB_SHAPE_SAMPLE_MASK) | DGPB_SAMPLE_DEPTH << DGPB_SHAPE_SAMPLE_SHIFT;
    if (p->kind == DGPB_KIND_TEXTURE_SAMPLER && code_ops_of_target(s->target)->webgpu) {
        const dgpb_code_binding *sampler = code_bindings_pair_sampler(s->code, c);
        if (sampler)
            shape |= sampler->shape & DGPB_SHAPE_COMPARISON;
    }
    return shape;
}

/* Why WebGPU has no binding layout for a shape (dgpb_webgpu_layout_for() gave 0). */
static const char *no_webgpu_layout(uint32_t kind, uint32_t shape)
{
    uint32_t dim = DGPB_SHAPE_DIM_OF(shape);
    bool arrayed = (shape & DGPB_SHAPE_ARRAYED) != 0;
    if (arrayed && (dim == DGPB_DIM_1D || dim == DGPB_DIM_3D))
        return "WebGPU has no 1d or 3d texture arrays";
    if (kind == DGPB_KIND_RW_TEXTURE) {
        if (dim == DGPB_DIM_CUBE)
            return "WebGPU has no storage cube maps";
        if (shape & DGPB_SHAPE_MULTISAMPLED)
            return "WebGPU has no multisampled storage textures";
        if (!DGPB_SHAPE_FORMAT_OF(shape))
            return "its code states no texel format";
        return "WebGPU has no storage texture of its access";
    }
    if (shape & DGPB_SHAPE_MULTISAMPLED)
        return kind == DGPB_KIND_TEXTURE_SAMPLER ? "a multisampled texture cannot be sampled"
                                                 : "WebGPU multisamples 2d textures only";
    return "WebGPU has no such texture";
}

/* Takes a row's space and binding from the code's variable for it. */
static int place_from_code(const dgpb_param_select *s, const dgpb_reflected_param *p,
                           const char *name, dgpb_param_desc *row, dgpb_diag *diag)
{
    const char *target = dgpb_target_name(s->target);
    bool ambiguous = false;
    const dgpb_code_binding *c = code_of(s, p, &ambiguous);
    if (ambiguous)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target '%s', entry '%s', parameter '%s': the %s code has two "
                             "variables named after '%s'; rename one of the parameters",
                             target, s->entry, name, target, p->code_name);
    if (!c || c->space < 0 || c->binding < 0)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target '%s', entry '%s', parameter '%s' (%s): the entry's code uses "
                             "it, but the %s code has no bound variable '%s' for it",
                             target, s->entry, name, p->shape, target, p->code_name);
    row->space = (uint32_t)c->space;
    row->binding = (uint32_t)c->binding;
    return DGPB_OK;
}

/*
 * Slang's bindless heaps: DescriptorHandle<T> values index a runtime array
 * of descriptors that Slang declares itself (`__slang_resource_heap`, and
 * `__slang_sampler_heap` for samplers; WGSL spells the first
 * `_slang_resource_heap_0`). No parameter names them, yet the code binds
 * them, so each gets a `handle` row at its place, named as the code names
 * it: that is where a host binds its descriptor heap.
 */
static bool is_bindless_heap(const char *name)
{
    return !strncmp(name, "__slang_resource_heap", 21) ||
           !strncmp(name, "__slang_sampler_heap", 20);
}

/* "textures at set 1, binding 2": what a heap holds and where, for a message. */
static void heap_text(const dgpb_code_binding *c, char *buf, size_t size)
{
    const char *what = c->cls == DGPB_CODE_SAMPLER ? "samplers" : "textures";
    snprintf(buf, size, "%s at set %lld, binding %lld", what, (long long)c->space,
             (long long)c->binding);
}

/*
 * A heap a handle row cannot describe: DGPB_ERR_SHADER naming it, or DGPB_OK.
 * A row's heap is an array of textures or of samplers; WebGPU has no heaps.
 */
static int refuse_heap(const dgpb_param_select *s, const dgpb_code_binding *c, dgpb_diag *diag)
{
    const char *target = dgpb_target_name(s->target);
    if (code_ops_of_target(s->target)->webgpu)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target 'wgsl', entry '%s': not supported: DescriptorHandle "
                             "parameters index Slang's bindless heap '%s' (@group(%lld) "
                             "@binding(%lld)), a runtime array of resources, which WebGPU does "
                             "not have; leave wgsl out of --targets for this entry",
                             s->entry, c->name, (long long)c->space, (long long)c->binding);
    if (c->cls != DGPB_CODE_TEXTURE && c->cls != DGPB_CODE_SAMPLER)
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                             "target '%s', entry '%s': not supported: a DescriptorHandle of a "
                             "%s (Slang's bindless heap '%s' at set %lld, binding %lld holds "
                             "them); a handle row is a heap of textures or of samplers only, so "
                             "declare that resource as a parameter of its own",
                             target, s->entry, code_class_name(c->cls), c->name,
                             (long long)c->space, (long long)c->binding);
    return DGPB_OK;
}

static int add_bindless_heaps(const dgpb_param_select *s, dgpb_param_table *out, dgpb_diag *diag)
{
    for (size_t i = 0; s->code && i < s->code->count; i++) {
        const dgpb_code_binding *c = &s->code->items[i];
        bool wgsl_heap =
            code_ops_of_target(s->target)->webgpu && !strncmp(c->name, "_slang_resource_heap", 20);
        if ((!is_bindless_heap(c->name) && !wgsl_heap) || c->space < 0 || c->binding < 0)
            continue;
        int rc = refuse_heap(s, c, diag);
        if (rc)
            return rc;
        const dgpb_param_desc *at = NULL;
        for (uint32_t r = 0; r < out->count && !at; r++)
            if (out->rows[r].space == (uint64_t)c->space &&
                out->rows[r].binding == (uint64_t)c->binding)
                at = &out->rows[r];
        if (at)
            continue;
        /* Slang 2025.15 names every heap `__slang_resource_heap`, one per kind of descriptor
           (samplers at binding 0, textures at 2): rows need names of their own. */
        const dgpb_code_binding *same = NULL;
        for (size_t k = 0; k < i && !same; k++)
            if (!strcmp(s->code->items[k].name, c->name) &&
                (s->code->items[k].space != c->space || s->code->items[k].binding != c->binding))
                same = &s->code->items[k];
        if (same) {
            char first[96], second[96];
            heap_text(same, first, sizeof first);
            heap_text(c, second, sizeof second);
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': not supported: the entry's "
                                 "DescriptorHandle parameters index two bindless heaps, %s and "
                                 "%s, which Slang names alike ('%s'), so no row name could tell "
                                 "a host which is which; keep DescriptorHandle for one kind (the "
                                 "textures) and declare the others as parameters of their own "
                                 "(a SamplerState global for each sampler)",
                                 dgpb_target_name(s->target), s->entry, first, second, c->name);
        }
        dgpb_param_desc *rows = mem_realloc(out->rows, (out->count + 1) * sizeof *rows);
        if (rows)
            out->rows = rows;
        bool *in_code = rows ? mem_realloc(out->in_code, (out->count + 1) * sizeof *in_code) : NULL;
        if (in_code)
            out->in_code = in_code;
        if (!rows || !in_code)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        dgpb_param_desc *row = &out->rows[out->count];
        memset(row, 0, sizeof *row);
        row->kind = DGPB_KIND_HANDLE;
        row->flags = dgpb_kind_required_flags(DGPB_KIND_HANDLE);
        row->space = (uint32_t)c->space;
        row->binding = (uint32_t)c->binding;
        row->name = mem_strdup(c->name);
        if (!row->name)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        out->in_code[out->count++] = true;
    }
    return DGPB_OK;
}

/*
 * A texture and a sampler declared apart on one binding (`[[vk::binding(0,
 * 0)]]` on both, a common Vulkan idiom): both rows keep the place and are
 * flagged DGPB_FLAG_SHARED_BINDING, so a host writes one combined
 * image-sampler there (docs/format.md, "Flags"); the proof accepts the pair.
 * WebGPU binds one resource per binding: refused on wgsl.
 */
static int mark_shared_bindings(const dgpb_param_select *s, dgpb_param_table *t, dgpb_diag *diag)
{
    for (uint32_t a = 0; a < t->count; a++) {
        dgpb_param_desc *tex = &t->rows[a];
        if (tex->kind != DGPB_KIND_TEXTURE || tex->space == DGPB_SPACE_LAUNCH)
            continue;
        for (uint32_t b = 0; b < t->count; b++) {
            dgpb_param_desc *smp = &t->rows[b];
            if (smp->kind != DGPB_KIND_SAMPLER || smp->space != tex->space ||
                smp->binding != tex->binding)
                continue;
            if (code_ops_of_target(s->target)->webgpu)
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "target 'wgsl', entry '%s': the texture '%s' and the "
                                     "sampler '%s' share @group(%u) @binding(%u), and WebGPU "
                                     "binds one resource per binding; give them bindings of "
                                     "their own (or a Sampler2D), or leave wgsl out of "
                                     "--targets",
                                     s->entry, tex->name, smp->name, tex->space, tex->binding);
            tex->flags |= DGPB_FLAG_SHARED_BINDING;
            smp->flags |= DGPB_FLAG_SHARED_BINDING;
        }
    }
    return DGPB_OK;
}

int param_table_build(const dgpb_param_select *s, dgpb_param_table *out, dgpb_diag *diag)
{
    assert(s && s->reflection && out);
    size_t n = s->reflection->param_count;
    out->rows = mem_calloc(n ? n : 1, sizeof *out->rows);
    out->in_code = mem_calloc(n ? n : 1, sizeof *out->in_code);
    out->count = 0;
    if (!out->rows || !out->in_code)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    size_t prefix = strlen(s->entry) + 1;
    const code_ops *code = code_ops_of_target(s->target);
    bool wgsl = code->webgpu;
    for (size_t i = 0; i < n; i++) {
        const dgpb_reflected_param *p = &s->reflection->params[i];
        const char *name = p->name;
        bool used = p->pipeline_constant
                        ? !s->spirv || !s->spirv->parsed || spec_constant(s, NULL, p->binding)
                        : referenced(s, p->code_name, p->kind == DGPB_KIND_VALUE);
        /* Slang's ptx output makes a specialization constant a plain value of
           SLANG_globalParams, without its default: no row could say so. */
        if (code->memory_handles && !p->entry_param && !strcmp(p->name, p->global) &&
            spec_constant(s, p->name, 0))
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target 'ptx', entry '%s', parameter '%s': a specialization "
                                 "constant ([vk::constant_id] or [SpecializationConstant]) has no "
                                 "form on ptx, where Slang makes it a plain value of "
                                 "SLANG_globalParams without its default; declare it a "
                                 "`uniform` value, or leave ptx out of --targets",
                                 s->entry, p->name);
        bool mine = used;
        if (s->dream && !p->entry_param) {
            const char *owner = owner_of(p->global, s);
            if (owner && !strcmp(owner, s->entry)) {
                mine = true;
                if (!strncmp(name, s->entry, prefix - 1) && name[prefix - 1] == '_')
                    name += prefix; /* <entry>_<param> is listed as <param> */
            } else if (owner) {
                mine = false; /* another entry's */
            }
        }
        if (!mine)
            continue;
        if (strlen(name) > DGPB_MAX_STRING)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': parameter '%.40s...' is %zu bytes "
                                 "long; a bundle's names are at most %u bytes (docs/format.md): "
                                 "give it a shorter name",
                                 dgpb_target_name(s->target), s->entry, name, strlen(name),
                                 DGPB_MAX_STRING);
        if (p->kind < 0 || (wgsl && p->problem))
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s', parameter '%s': %s",
                                 dgpb_target_name(s->target), s->entry, name,
                                 p->problem ? p->problem : "no parameter kind");
        if (wgsl && p->has_bool)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "target 'wgsl', entry '%s', parameter '%s' (%s): WGSL allows no "
                                 "bool in a uniform buffer, so WebGPU would reject the code; "
                                 "declare it as uint (0 or 1)",
                                 s->entry, name, p->shape);
        dgpb_param_desc *row = &out->rows[out->count];
        row->kind = (uint32_t)p->kind;
        row->flags = dgpb_kind_required_flags(row->kind);
        if (dgpb_kind_writable(row->kind) && written(s, p->code_name))
            row->flags |= DGPB_FLAG_WRITTEN;
        if (p->unbounded)
            row->flags |= DGPB_FLAG_UNBOUNDED;
        row->space = p->space;
        row->binding = p->binding;
        row->offset = p->kind == DGPB_KIND_VALUE       ? p->offset
                      : dgpb_kind_has_shape(row->kind) ? shape_of(s, p)
                                                       : 0;
        /* Values: their bytes; structured buffers: their element stride. */
        row->size = p->kind == DGPB_KIND_VALUE || p->kind == DGPB_KIND_BUFFER ||
                            p->kind == DGPB_KIND_RW_BUFFER
                        ? p->size
                        : 0;
        row->webgpu_layout = wgsl ? p->webgpu_layout : 0;
        if (wgsl && dgpb_kind_has_shape(row->kind) &&
            (row->kind == DGPB_KIND_SAMPLER || DGPB_SHAPE_DIM_OF(row->offset))) {
            /* The descriptor WebGPU needs, from the shape the code completed. */
            row->webgpu_layout = dgpb_webgpu_layout_for(row->kind, row->offset);
            if (!row->webgpu_layout) {
                char shape[96];
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "target 'wgsl', entry '%s', parameter '%s': %s (%s) has no "
                                     "WebGPU binding layout: %s; leave wgsl out of --targets for "
                                     "this entry",
                                     s->entry, name, p->shape,
                                     dgpb_shape_text(row->offset, shape, sizeof shape),
                                     no_webgpu_layout(row->kind, row->offset));
            }
        }
        if (p->place_from_code && s->code && used) {
            int rc = place_from_code(s, p, name, row, diag);
            if (rc)
                return rc;
        }
        row->name = mem_strdup(name);
        if (!row->name)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        out->in_code[out->count] = used;
        out->count++;
    }
    int rc = mark_shared_bindings(s, out, diag);
    return rc ? rc : add_bindless_heaps(s, out, diag);
}
