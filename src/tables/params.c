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
 * Whether a parameter's code name may stand for another parameter's variable
 * too: another top-level parameter has the same name and code name (Slang
 * names `first::out` and `second::out` both "out"). Rows whose place comes
 * from the code (values of Slang's own blocks) are found by name alone.
 */
static bool code_name_shared(const dgpb_reflection *r, const dgpb_reflected_param *p)
{
    if (p->place_from_code)
        return false;
    for (size_t i = 0; i < r->param_count; i++) {
        const dgpb_reflected_param *o = &r->params[i];
        if (o->entry_param == p->entry_param && o->top != p->top &&
            !strcmp(o->code_name, p->code_name) && !strcmp(o->global, p->global))
            return true;
    }
    return false;
}

/*
 * The SPIR-V variable of a parameter: the one named after it, or, when
 * several parameters share that name (code_name_shared), the one of that
 * name at the parameter's place on spirv. NULL when the SPIR-V has none,
 * with *unknown set when its place on spirv is not known.
 */
static const dgpb_spirv_var *spirv_var_of(const dgpb_param_select *s, const dgpb_reflected_param *p,
                                          bool *unknown)
{
    *unknown = false;
    if (!code_name_shared(s->reflection, p))
        return spirv_find_var(s->spirv, p->code_name);
    /* Its place on spirv: its own on that target, else the same parameter's in the SPIR-V
       compile's reflection. */
    const dgpb_reflected_param *at = (int)s->target == code_analysis_target() ? p : NULL;
    const dgpb_reflection *r = s->spirv_reflection;
    for (size_t i = 0; !at && r && i < r->param_count; i++) {
        const dgpb_reflected_param *o = &r->params[i];
        if (o->entry_param == p->entry_param && o->top == p->top && !o->place_from_code &&
            !strcmp(o->name, p->name) && !strcmp(o->code_name, p->code_name))
            at = o;
    }
    if (!at) {
        *unknown = true;
        return NULL;
    }
    for (size_t i = 0; i < s->spirv->var_count; i++) {
        const dgpb_spirv_var *v = &s->spirv->vars[i];
        if (!strcmp(v->name, p->code_name) && v->set == (int64_t)at->space &&
            v->binding == (int64_t)at->binding)
            return v;
    }
    return NULL; /* the code leaves it out */
}

/*
 * Whether the entry's code uses a row: its variable is on the entry point's
 * interface, or (for a shape Slang splits into several variables, such as an
 * append buffer's "kept.elements" and "kept.counter", or a parameter block's
 * fields) a variable named "<code_name>.<something>" is.
 */
static bool referenced(const dgpb_param_select *s, const dgpb_reflected_param *p)
{
    if (!s->spirv || !s->spirv->parsed)
        return true; /* nothing known: keep every row (the caller has warned) */
    bool unknown, value = p->kind == DGPB_KIND_VALUE;
    const char *code_name = p->code_name;
    const dgpb_spirv_var *v = spirv_var_of(s, p, &unknown);
    if (unknown)
        return true; /* the binding proof tells whether the code has it */
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

/*
 * Whether the entry's own `uniform` values live in its shader record: Slang
 * puts a ray-tracing entry's in a ShaderRecordBufferKHR block named
 * entryPointParams on spirv (a push-constant block for the other stages), and
 * the reflection does not say which.
 */
static bool entry_values_in_record(const dgpb_param_select *s)
{
    if ((int)s->target != code_analysis_target() || !s->spirv || !s->spirv->parsed)
        return false;
    for (size_t i = 0; i < s->spirv->var_count; i++) {
        const dgpb_spirv_var *v = &s->spirv->vars[i];
        if (v->storage_class == DGPB_SPIRV_STORAGE_SHADER_RECORD &&
            !strcmp(v->name, "entryPointParams"))
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

static bool written(const dgpb_param_select *s, const dgpb_reflected_param *p)
{
    if (!s->spirv || !s->spirv->parsed)
        return false;
    bool unknown;
    const dgpb_spirv_var *v = spirv_var_of(s, p, &unknown);
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
    const char *path = p->code_name;
    char texture[512];
    if (p->kind == DGPB_KIND_TEXTURE_SAMPLER && code_ops_of_target(s->target)->webgpu) {
        snprintf(texture, sizeof texture, "%s.texture", p->code_name);
        path = texture;
    }
    if (code_name_shared(s->reflection, p)) /* named alike: by its place too */
        return code_bindings_find_at(s->code, path, p->space, p->binding);
    return code_bindings_find(s->code, path, ambiguous);
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

/*
 * A storage texture or texel buffer whose code has another texel format than
 * the one the module declares (Slang's WGSL has no r8unorm storage texture
 * and declares rgba32float instead): DGPB_ERR_SHADER naming both, since a
 * host would create the other format's texture, never a silent change.
 */
static int refuse_changed_format(const dgpb_param_select *s, const dgpb_reflected_param *p,
                                 const char *name, uint32_t shape, dgpb_diag *diag)
{
    static const char *const slang_names[DGPB_TEXEL_FORMAT_END] = {
#define DGPB_TEXEL_FORMAT(ID, value, name, slang_format, SAMPLE, storage, read_write)              \
    [value] = slang_format,
#include "dgpb/vocabulary.def"
    };
    uint32_t declared = p->declared_format, code = DGPB_SHAPE_FORMAT_OF(shape);
    if (!declared || !code || declared == code || declared >= DGPB_TEXEL_FORMAT_END)
        return DGPB_OK;
    const char *target = dgpb_target_name(s->target);
    return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                         "target '%s', entry '%s', parameter '%s': the module declares texel "
                         "format %s (\"%s\"), but the %s code declares %s, which a "
                         "host would create instead; declare a format the %s code keeps, give "
                         "%s its own declaration under a DREAM_TARGET_* guard, or leave %s out "
                         "of --targets for this entry",
                         target, s->entry, name, dgpb_texel_format_name(declared),
                         slang_names[declared] ? slang_names[declared] : "?", target,
                         dgpb_texel_format_name(code) ? dgpb_texel_format_name(code) : "?",
                         target, target, target);
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

/* ---- names (params.h) ---- */

/* Whether a row is a block's field named bare (a cbuffer's, "<entry>_params"'s): its name is
   neither its top-level variable's nor a path under it. */
static bool bare_field(const dgpb_reflected_param *p)
{
    size_t n = strlen(p->global);
    return strcmp(p->name, p->global) &&
           !(!strncmp(p->name, p->global, n) && (p->name[n] == '.' || p->name[n] == '['));
}

/*
 * The namespace path of a module-scope parameter ("" at module scope), read
 * from the module's text (scan/param_scopes.h); NULL when the text does not
 * tell: the scan's declarations must be exactly one run of the reflection's
 * module-scope parameters, and the parameter one of them.
 */
static const char *namespace_of(const dgpb_param_select *s, const dgpb_reflected_param *p)
{
    const dgpb_param_scopes *sc = s->scopes;
    const dgpb_reflection *r = s->reflection;
    if (!sc || sc->incomplete || !sc->count || p->entry_param || sc->count > r->global_count)
        return NULL;
    size_t at = SIZE_MAX;
    for (size_t o = 0; o + sc->count <= r->global_count; o++) {
        size_t i = 0;
        while (i < sc->count && !strcmp(sc->items[i].name, r->globals[o + i]))
            i++;
        if (i < sc->count)
            continue;
        if (at != SIZE_MAX)
            return NULL; /* two runs: which is the module's own? */
        at = o;
    }
    if (at == SIZE_MAX || p->top < at || p->top >= at + sc->count)
        return NULL;
    return sc->items[p->top - at].path;
}

/*
 * Whether the module's text tells the namespace of every module-scope
 * parameter among the rows named as row `r` is: all of them are qualified by
 * namespace, or none is (a text that tells some but not all may have taken one
 * declaration for another).
 */
static bool namespaces_tell(const dgpb_param_select *s, const dgpb_param_table *t,
                            const dgpb_reflected_param *const *from, size_t from_count, uint32_t r)
{
    for (uint32_t o = 0; o < t->count; o++) {
        const dgpb_reflected_param *p = o < from_count ? from[o] : NULL;
        if (strcmp(t->rows[o].name, t->rows[r].name))
            continue;
        if (!p || (!p->entry_param && !namespace_of(s, p)))
            return false;
    }
    return true;
}

/* A row's name qualified by what holds it, and by namespace `ns` when not NULL. */
static char *qualified_name(const dgpb_param_select *s, const dgpb_reflected_param *p,
                            const char *ns)
{
    if (p->entry_param)
        return mem_printf("%s.%s", s->entry, p->name);
    const char *sep = ns && *ns ? "::" : "";
    if (bare_field(p))
        return mem_printf("%s%s%s.%s", ns ? ns : "", sep, p->global, p->name);
    return mem_printf("%s%s%s", ns ? ns : "", sep, p->name);
}

/* Marks in `shared` the rows whose name another row has too; the number marked. */
static uint32_t mark_shared_names(const dgpb_param_table *t, bool *shared)
{
    uint32_t n = 0;
    for (uint32_t a = 0; a < t->count; a++) {
        shared[a] = false;
        for (uint32_t b = 0; b < t->count && !shared[a]; b++)
            shared[a] = a != b && !strcmp(t->rows[a].name, t->rows[b].name);
        n += shared[a];
    }
    return n;
}

/*
 * Gives rows that share a name their qualified names (params.h): by what
 * holds them, then by namespace. `from`: each row's reflected parameter
 * (NULL for a bindless heap). DGPB_ERR_SHADER when two rows still share one.
 */
static int distinct_names(const dgpb_param_select *s, dgpb_param_table *t,
                          const dgpb_reflected_param *const *from, size_t from_count,
                          dgpb_diag *diag)
{
    bool *shared = mem_calloc(t->count ? t->count : 1, sizeof *shared);
    if (!shared)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    int rc = DGPB_OK;
    for (int by_namespace = 0; by_namespace < 2 && !rc && mark_shared_names(t, shared);
         by_namespace++) {
        for (uint32_t r = 0; r < t->count && !rc; r++) {
            const dgpb_reflected_param *p = r < from_count ? from[r] : NULL;
            if (!shared[r] || !p || (by_namespace && !namespaces_tell(s, t, from, from_count, r)))
                continue; /* the text does not tell: the check below names it */
            const char *ns = by_namespace ? namespace_of(s, p) : NULL;
            char *name = qualified_name(s, p, ns);
            if (!name) {
                rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
                break;
            }
            dgpb_free((char *)t->rows[r].name);
            t->rows[r].name = name;
        }
    }
    for (uint32_t a = 0; a < t->count && !rc; a++) {
        for (uint32_t b = a + 1; b < t->count && !rc; b++) {
            if (strcmp(t->rows[a].name, t->rows[b].name))
                continue;
            const dgpb_reflected_param *pa = a < from_count ? from[a] : NULL;
            const dgpb_reflected_param *pb = b < from_count ? from[b] : NULL;
            bool globals = pa && pb && !pa->entry_param && !pb->entry_param;
            rc = dgpb_diag_set(
                diag, DGPB_ERR_SHADER, -1,
                "target '%s', entry '%s': parameters '%s' (%s) and '%s' (%s) would both be the "
                "row '%s', and %s; rename one of them",
                dgpb_target_name(s->target), s->entry, pa ? pa->name : t->rows[a].name,
                pa ? pa->shape : "a bindless heap", pb ? pb->name : t->rows[b].name,
                pb ? pb->shape : "a bindless heap", t->rows[a].name,
                globals && (!namespace_of(s, pa) || !namespace_of(s, pb))
                    ? "the module's own text does not tell their namespaces (a parameter "
                      "declared in an #include, an imported module or an #if branch, or a "
                      "form dgpb does not read: docs/format.md, \"Names\")"
                    : "no qualification tells them apart");
        }
    }
    for (uint32_t r = 0; r < t->count && !rc; r++)
        if (strlen(t->rows[r].name) > DGPB_MAX_STRING)
            rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                               "target '%s', entry '%s': parameter '%.40s...' is %zu bytes long "
                               "once qualified; a bundle's names are at most %u bytes "
                               "(docs/format.md): give it a shorter name",
                               dgpb_target_name(s->target), s->entry, t->rows[r].name,
                               strlen(t->rows[r].name), DGPB_MAX_STRING);
    dgpb_free(shared);
    return rc;
}

int param_table_build(const dgpb_param_select *s, dgpb_param_table *out, dgpb_diag *diag)
{
    assert(s && s->reflection && out);
    size_t n = s->reflection->param_count;
    out->rows = mem_calloc(n ? n : 1, sizeof *out->rows);
    out->in_code = mem_calloc(n ? n : 1, sizeof *out->in_code);
    out->count = 0;
    /* Each row's parameter, for its qualified name; bindless heaps come after them. */
    const dgpb_reflected_param **from = mem_calloc(n ? n : 1, sizeof *from);
    int rc = DGPB_OK;
    if (!out->rows || !out->in_code || !from) {
        dgpb_free(from);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    size_t prefix = strlen(s->entry) + 1;
    bool values_in_record = entry_values_in_record(s);
    const code_ops *code = code_ops_of_target(s->target);
    bool wgsl = code->webgpu;
    for (size_t i = 0; i < n; i++) {
        const dgpb_reflected_param *p = &s->reflection->params[i];
        const char *name = p->name;
        bool used = p->pipeline_constant
                        ? !s->spirv || !s->spirv->parsed || spec_constant(s, NULL, p->binding)
                        : referenced(s, p);
        /* Slang's ptx output makes a specialization constant a plain value of
           SLANG_globalParams, without its default: no row could say so. */
        if (code->memory_handles && !p->entry_param && !strcmp(p->name, p->global) &&
            spec_constant(s, p->name, 0)) {
            rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                               "target 'ptx', entry '%s', parameter '%s': a specialization "
                               "constant ([vk::constant_id] or [SpecializationConstant]) has no "
                               "form on ptx, where Slang makes it a plain value of "
                               "SLANG_globalParams without its default; declare it a "
                               "`uniform` value, or leave ptx out of --targets",
                               s->entry, p->name);
            goto done;
        }
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
        if (strlen(name) > DGPB_MAX_STRING) {
            rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                               "target '%s', entry '%s': parameter '%.40s...' is %zu bytes "
                               "long; a bundle's names are at most %u bytes (docs/format.md): "
                               "give it a shorter name",
                               dgpb_target_name(s->target), s->entry, name, strlen(name),
                               DGPB_MAX_STRING);
            goto done;
        }
        if (p->kind < 0 || (wgsl && p->problem)) {
            rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                               "target '%s', entry '%s', parameter '%s': %s",
                               dgpb_target_name(s->target), s->entry, name,
                               p->problem ? p->problem : "no parameter kind");
            goto done;
        }
        if (wgsl && p->has_bool) {
            rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                               "target 'wgsl', entry '%s', parameter '%s' (%s): WGSL allows no "
                               "bool in a uniform buffer, so WebGPU would reject the code; "
                               "declare it as uint (0 or 1)",
                               s->entry, name, p->shape);
            goto done;
        }
        dgpb_param_desc *row = &out->rows[out->count];
        row->kind = (uint32_t)p->kind;
        row->flags = dgpb_kind_required_flags(row->kind);
        if (dgpb_kind_writable(row->kind) && written(s, p))
            row->flags |= DGPB_FLAG_WRITTEN;
        if (p->unbounded)
            row->flags |= DGPB_FLAG_UNBOUNDED;
        row->space = p->space;
        row->binding = p->binding;
        if (values_in_record && p->entry_param && p->kind == DGPB_KIND_VALUE &&
            p->space == DGPB_SPACE_LAUNCH)
            row->space = DGPB_SPACE_SHADER_RECORD;
        row->offset = p->kind == DGPB_KIND_VALUE       ? p->offset
                      : dgpb_kind_has_shape(row->kind) ? shape_of(s, p)
                                                       : 0;
        if (dgpb_kind_has_shape(row->kind) &&
            (rc = refuse_changed_format(s, p, name, row->offset, diag)))
            goto done;
        /* Values: their bytes; structured buffers: their element stride; uniform buffers:
           their block's size. */
        row->size = p->kind == DGPB_KIND_VALUE || dgpb_kind_has_size(row->kind) ? p->size : 0;
        row->webgpu_layout = wgsl ? p->webgpu_layout : 0;
        if (wgsl && dgpb_kind_has_shape(row->kind) &&
            (row->kind == DGPB_KIND_SAMPLER || DGPB_SHAPE_DIM_OF(row->offset))) {
            /* The descriptor WebGPU needs, from the shape the code completed. */
            row->webgpu_layout = dgpb_webgpu_layout_for(row->kind, row->offset);
            if (!row->webgpu_layout) {
                char shape[96];
                {
                    rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                       "target 'wgsl', entry '%s', parameter '%s': %s (%s) has no "
                                       "WebGPU binding layout: %s; leave wgsl out of --targets for "
                                       "this entry",
                                       s->entry, name, p->shape,
                                       dgpb_shape_text(row->offset, shape, sizeof shape),
                                       no_webgpu_layout(row->kind, row->offset));
                    goto done;
                }
            }
        }
        if (p->place_from_code && s->code && used && (rc = place_from_code(s, p, name, row, diag)))
            goto done;
        row->name = mem_strdup(name);
        if (!row->name) {
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            goto done;
        }
        from[out->count] = p;
        out->in_code[out->count] = used;
        out->count++;
    }
    if (!(rc = mark_shared_bindings(s, out, diag)) && !(rc = add_bindless_heaps(s, out, diag)))
        rc = distinct_names(s, out, from, n, diag);
done:
    dgpb_free(from);
    return rc;
}
