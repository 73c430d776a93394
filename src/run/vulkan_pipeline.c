/*
 * src/run/vulkan_pipeline.c - the Vulkan host's pipelines (vulkan_internal.h):
 * built from the parameter table only (descriptor set layouts per space,
 * uniform blocks of the value rows, one push-constant range for the launch
 * space) and kept per bundle, entries and attachment formats: compute
 * pipelines, and render pipelines of vertex (tessellation, geometry) or mesh
 * (amplification) stages, their primitive assembly, vertex attributes and
 * the targets their fragment entry writes read from the code.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "run/vulkan_internal.h"
#include "code/spirv/spirv_stage.h"

static bool descriptor_type(uint32_t kind, VkDescriptorType *out)
{
    switch (kind) {
    case DGPB_KIND_VALUE:
    case DGPB_KIND_UNIFORM_BUFFER:
        *out = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        return true;
    case DGPB_KIND_BUFFER:
    case DGPB_KIND_RW_BUFFER:
    case DGPB_KIND_BYTE_BUFFER:
    case DGPB_KIND_RW_BYTE_BUFFER:
        *out = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        return true;
    case DGPB_KIND_TEXTURE:
        *out = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
        return true;
    case DGPB_KIND_SAMPLER:
        *out = VK_DESCRIPTOR_TYPE_SAMPLER;
        return true;
    case DGPB_KIND_TEXTURE_SAMPLER:
        *out = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        return true;
    case DGPB_KIND_RW_TEXTURE:
        *out = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        return true;
    case DGPB_KIND_TEXEL_BUFFER:
        *out = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        return true;
    case DGPB_KIND_RW_TEXEL_BUFFER:
        *out = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
        return true;
    case DGPB_KIND_INPUT_ATTACHMENT:
        *out = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
        return true;
    default:
        return false;
    }
}

/* Adds a value row to a block's rows once (a render pair may list the same row twice). */
static bool add_value_row(const dgpb_param_view **values, uint32_t *count,
                          const dgpb_param_view *row, dgpb_diag *r)
{
    for (uint32_t j = 0; j < *count; j++)
        if (values[j]->offset == row->offset && values[j]->size == row->size &&
            values[j]->name.len == row->name.len &&
            !memcmp(values[j]->name.ptr, row->name.ptr, row->name.len))
            return true;
    if (*count == MAX_VALUES) {
        fail(r, "too many value rows in one block");
        return false;
    }
    values[(*count)++] = row;
    return true;
}

/*
 * Whether an input attachment row can be bound (docs/run.md, "Input
 * attachments"): in a render, which reads input attachment i from its colour
 * attachment i (of `colors`) through dynamic rendering local read
 * (VK_KHR_dynamic_rendering_local_read, which maps colour attachment i to
 * input attachment index i). DGPB_ERR_UNSUPPORTED (the runner's limits) or
 * DGPB_ERR_RUN_CAPABILITY (the device's) naming the row otherwise.
 */
static bool input_attachment_ok(const vk_host *vk, const pipeline *p, const dgpb_entry_view *e,
                                const dgpb_param_view *row, uint32_t colors, dgpb_diag *r)
{
    char shape[96];
    dgpb_shape_text(row->offset, shape, sizeof shape);
    if (!p->graphics || (row->offset & DGPB_SHAPE_MULTISAMPLED) ||
        DGPB_SHAPE_ATTACHMENT_OF(row->offset) >= colors) {
        run_fail(r, DGPB_ERR_UNSUPPORTED,
                 "parameter '%.*s' of entry '%.*s' is an input attachment (%s), which this runner "
                 "cannot bind: a render reads input attachment i from its colour attachment i, "
                 "single-sampled, and this one has %u",
                 (int)row->name.len, row->name.ptr, (int)e->name.len, e->name.ptr, shape,
                 p->graphics ? colors : 0);
        return false;
    }
    if (!vk->local_read) {
        run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                 "parameter '%.*s' of entry '%.*s' is an input attachment (%s), and device '%s' "
                 "has no %s (dynamicRenderingLocalRead), through which a render reads one",
                 (int)row->name.len, row->name.ptr, (int)e->name.len, e->name.ptr, shape,
                 vk->device_name, VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME);
        return false;
    }
    return true;
}

/*
 * Whether the sampler of a row compares (docs/format.md, "Shapes"): a sampler
 * or combined row's comparison bit, or that of the sampler row that shares a
 * texture row's binding.
 */
static bool sampler_compares(const dgpb_entry_view *e, const dgpb_param_view *row)
{
    if (row->kind == DGPB_KIND_SAMPLER || row->kind == DGPB_KIND_TEXTURE_SAMPLER)
        return (row->offset & DGPB_SHAPE_COMPARISON) != 0;
    if (!(row->flags & DGPB_FLAG_SHARED_BINDING))
        return false;
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *o = &e->params[i];
        if (o->kind == DGPB_KIND_SAMPLER && !(o->flags & DGPB_FLAG_ABSENT) && o->space == row->space && o->binding == row->binding &&
            (o->offset & DGPB_SHAPE_COMPARISON))
            return true;
    }
    return false;
}

/*
 * Adds an entry's rows to the pipeline: descriptor rows to its slots, one per
 * (space, binding), and value rows of space DGPB_SPACE_LAUNCH to the
 * push-constant range.
 */
static bool add_rows(const vk_host *vk, pipeline *p, const dgpb_entry_view *e, uint32_t colors,
                     dgpb_diag *r)
{
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *row = dgpb_entry_param(e, i);
        if (row->flags & DGPB_FLAG_ABSENT)
            continue; /* not in this target's code: nothing to bind */
        if (row->space == DGPB_SPACE_PIPELINE_CONSTANT) {
            /* A specialization constant: set when the pipeline is created (VkSpecializationInfo). */
            if (row->kind != DGPB_KIND_VALUE) {
                fail(r, "parameter '%.*s': a %s among the pipeline constants", (int)row->name.len,
                     row->name.ptr, dgpb_kind_name(row->kind));
                return false;
            }
            if (!add_value_row(p->constants.values, &p->constants.value_count, row, r))
                return false;
            continue;
        }
        if (row->space == DGPB_SPACE_LAUNCH) {
            if (row->kind != DGPB_KIND_VALUE) {
                run_fail(
                    r, DGPB_ERR_UNSUPPORTED,
                    "parameter '%.*s' of entry '%.*s': a %s in the launch space (0x%08x) has no "
                    "Vulkan form; only values are push constants",
                    (int)row->name.len, row->name.ptr, (int)e->name.len, e->name.ptr,
                    dgpb_kind_name(row->kind), row->space);
                return false;
            }
            /* One range for the whole pipeline: a render pair's entries must not overlap. */
            for (uint32_t j = 0; j < p->push.value_count; j++) {
                const dgpb_param_view *o = p->push.values[j];
                if (o->offset < row->offset + row->size && row->offset < o->offset + o->size &&
                    (o->name.len != row->name.len ||
                     memcmp(o->name.ptr, row->name.ptr, row->name.len))) {
                    fail(r, "push constants '%.*s' and '%.*s' overlap (bytes %u and %u)",
                         (int)o->name.len, o->name.ptr, (int)row->name.len, row->name.ptr,
                         o->offset, row->offset);
                    return false;
                }
            }
            if (!add_value_row(p->push.values, &p->push.value_count, row, r))
                return false;
            uint32_t end = (row->offset + row->size + 3u) & ~3u;
            if (end > p->push.size)
                p->push.size = end;
            continue;
        }
        if (row->flags & DGPB_FLAG_UNBOUNDED) {
            run_fail(r, DGPB_ERR_UNSUPPORTED,
                     "parameter '%.*s' of entry '%.*s' is an unbounded array (its descriptor "
                     "count is the host's), which this runner cannot bind yet",
                     (int)row->name.len, row->name.ptr, (int)e->name.len, e->name.ptr);
            return false;
        }
        if (row->kind == DGPB_KIND_INPUT_ATTACHMENT &&
            !input_attachment_ok(vk, p, e, row, colors, r))
            return false;
        /* A texture and a sampler sharing a binding are one combined image-sampler: the
           texture's slot makes both, and the sampler row adds nothing. */
        if (row->kind == DGPB_KIND_SAMPLER && (row->flags & DGPB_FLAG_SHARED_BINDING))
            continue;
        VkDescriptorType type;
        if (!descriptor_type((row->flags & DGPB_FLAG_SHARED_BINDING) ? DGPB_KIND_TEXTURE_SAMPLER
                                                                     : row->kind,
                             &type)) {
            run_fail(r, DGPB_ERR_UNSUPPORTED,
                     "parameter '%.*s' of entry '%.*s': kind '%s' is not supported by this host",
                     (int)row->name.len, row->name.ptr, (int)e->name.len, e->name.ptr,
                     dgpb_kind_name(row->kind));
            return false;
        }
        if (row->space >= MAX_SETS) {
            fail(r, "parameter '%.*s': space %u is beyond this host's %u sets", (int)row->name.len,
                 row->name.ptr, row->space, MAX_SETS);
            return false;
        }
        /* Rows sharing a place are a fixed array's elements, in row order (docs/format.md). */
        slot *s = NULL;
        uint32_t elements = 0;
        for (uint32_t j = 0; j < p->slot_count; j++)
            if (p->slots[j].space == row->space && p->slots[j].binding == row->binding) {
                const dgpb_param_view *o = p->slots[j].row;
                bool same = !o || row->kind == DGPB_KIND_VALUE ||
                            (o->name.len == row->name.len &&
                             !memcmp(o->name.ptr, row->name.ptr, row->name.len));
                if (same && !s)
                    s = &p->slots[j];
                elements++;
            }
        if (s && s->row && row->kind != DGPB_KIND_VALUE && s->row != row &&
            (s->row->name.len != row->name.len ||
             memcmp(s->row->name.ptr, row->name.ptr, row->name.len)))
            s = NULL;
        bool element = !s && elements;
        if (s && s->type != type) {
            fail(r, "parameter '%.*s': space %u binding %u holds two descriptor types",
                 (int)row->name.len, row->name.ptr, row->space, row->binding);
            return false;
        }
        if (!s) {
            if (p->slot_count == MAX_SLOTS) {
                fail(r, "too many bindings");
                return false;
            }
            s = &p->slots[p->slot_count++];
            memset(s, 0, sizeof *s);
            s->space = row->space;
            s->binding = row->binding;
            s->element = element ? elements : 0;
            s->type = type;
            s->kind = row->kind;
            if (row->kind != DGPB_KIND_VALUE)
                s->row = row;
        }
        if (row->kind != DGPB_KIND_VALUE && !s->row) { /* a block whose fields came first */
            s->row = row;
            s->kind = row->kind;
        }
        if (dgpb_kind_has_shape(row->kind))
            s->compare |= sampler_compares(e, row);
        if (row->kind == DGPB_KIND_VALUE) {
            if (!add_value_row(s->values, &s->value_count, row, r))
                return false;
            uint32_t end = (row->offset + row->size + 15u) & ~15u;
            if (end > s->block_size)
                s->block_size = end;
        }
    }
    return true;
}

static VkShaderModule make_module(vk_host *vk, const dgpb_entry_view *e, dgpb_diag *r)
{
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (dgpb_blob_verify(&e->code, &diag)) {
        run_fail(r, diag.code, "entry '%.*s': %s", (int)e->name.len, e->name.ptr, diag.message);
        return VK_NULL_HANDLE;
    }
    if (e->code.size % 4) {
        fail(r, "entry '%.*s': SPIR-V of %u bytes is not whole words", (int)e->name.len,
             e->name.ptr, e->code.size);
        return VK_NULL_HANDLE;
    }
    /* Blobs are not aligned inside a bundle; the driver reads words. */
    uint32_t *words = mem_alloc(e->code.size);
    if (!words) {
        fail(r, "out of memory");
        return VK_NULL_HANDLE;
    }
    memcpy(words, e->code.data, e->code.size);
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = e->code.size,
                                   .pCode = words};
    VkShaderModule m = VK_NULL_HANDLE;
    VkResult res = vkCreateShaderModule(vk->device, &ci, NULL, &m);
    dgpb_free(words);
    if (res != VK_SUCCESS)
        fail(r, "entry '%.*s': vkCreateShaderModule failed (VkResult %d)", (int)e->name.len,
             e->name.ptr, (int)res);
    return m;
}

static bool make_layout(vk_host *vk, pipeline *p, VkShaderStageFlags stages, dgpb_diag *r)
{
    uint32_t max_space = 0;
    for (uint32_t i = 0; i < p->slot_count; i++)
        if (p->slots[i].space > max_space)
            max_space = p->slots[i].space;
    p->set_count = p->slot_count ? max_space + 1 : 0;
    for (uint32_t set = 0; set < p->set_count; set++) {
        VkDescriptorSetLayoutBinding b[MAX_SLOTS];
        uint32_t n = 0;
        for (uint32_t i = 0; i < p->slot_count; i++) {
            if (p->slots[i].space != set || p->slots[i].element)
                continue;
            uint32_t count = 0; /* a fixed array: its elements' slots */
            for (uint32_t j = 0; j < p->slot_count; j++)
                count += p->slots[j].space == set && p->slots[j].binding == p->slots[i].binding;
            b[n++] = (VkDescriptorSetLayoutBinding){.binding = p->slots[i].binding,
                                                    .descriptorType = p->slots[i].type,
                                                    .descriptorCount = count,
                                                    .stageFlags = stages};
        }
        VkDescriptorSetLayoutCreateInfo ci = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .bindingCount = n,
            .pBindings = b};
        if (vkCreateDescriptorSetLayout(vk->device, &ci, NULL, &p->sets[set]) != VK_SUCCESS) {
            fail(r, "vkCreateDescriptorSetLayout failed for space %u", set);
            return false;
        }
    }
    /* Every value row of the launch space: one push-constant range from offset 0. */
    VkPushConstantRange range = {.stageFlags = stages, .offset = 0, .size = p->push.size};
    if (p->push.size > vk->max_push_constants) {
        run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                 "the push constants take %u bytes, device '%s' allows %u", p->push.size,
                 vk->device_name, vk->max_push_constants);
        return false;
    }
    p->stages = stages;
    VkPipelineLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = p->set_count,
                                     .pSetLayouts = p->sets,
                                     .pushConstantRangeCount = p->push.size ? 1u : 0u,
                                     .pPushConstantRanges = &range};
    if (vkCreatePipelineLayout(vk->device, &ci, NULL, &p->layout) != VK_SUCCESS) {
        fail(r, "vkCreatePipelineLayout failed");
        return false;
    }
    return true;
}

static bool create_pipeline(vk_host *vk, pipeline *p, const dgpb_target_view *t,
                            const dgpb_entry_view *const *entries, const dgpb_run_request *c,
                            dgpb_diag *r);

/* The attachments of a request in a cache key: each colour format, the depth format and its
   test. */
static void attachments_key(const dgpb_run_request *c, char *buf, size_t n)
{
    const dgpb_run_param *colors[DGPB_RUN_MAX_COLOR_ATTACHMENTS];
    uint32_t count = run_color_attachments(c, colors);
    const dgpb_run_param *depth = run_depth_attachment(c);
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < count && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "/%d", (int)vk_format(colors[i]->format));
    if (depth && len < n)
        snprintf(buf + len, n - len, "/depth %d %u", (int)vk_format(depth->format),
                 c->depth_compare);
}

/*
 * The pipeline constants a request sets, as hex after the cache key's tail:
 * a pipeline is cached per set of constant values.
 */
static void constants_key(const dgpb_run_request *c, const dgpb_entry_view *const *entries,
                          char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < RUN_ENTRY_COUNT; k++)
        for (uint32_t i = 0; entries[k] && i < entries[k]->param_count; i++) {
            const dgpb_param_view *row = &entries[k]->params[i];
            const dgpb_run_param *cp =
                row->space == DGPB_SPACE_PIPELINE_CONSTANT ? vk_case_param(c, row) : NULL;
            if (!cp || !cp->input)
                continue;
            len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "/%u=", row->binding);
            for (size_t b = 0; b < cp->size && len < n; b++)
                len += (size_t)snprintf(buf + len, n - len, "%02x", cp->input[b]);
        }
}

pipeline *vk_get_pipeline(vk_host *vk, const char *bundle_key, const dgpb_target_view *t,
                          const dgpb_run_request *c, dgpb_diag *r,
                          const dgpb_entry_view *const *entries)
{
    bool gfx = c->fragment != NULL;
    char tail[256 + 1024], attachments[256], consts[1024];
    attachments_key(c, attachments, sizeof attachments);
    constants_key(c, entries, consts, sizeof consts);
    snprintf(tail, sizeof tail, "%s%s", attachments, consts);
    /* The key: the bundle, each place's entry name (empty where none), the tail. */
    const char *names[RUN_ENTRY_COUNT];
    run_entry_names(c, names);
    size_t len = strlen(bundle_key) + strlen(tail) + 2;
    for (int k = 0; k < RUN_ENTRY_COUNT; k++)
        len += (names[k] ? strlen(names[k]) : 0) + 1;
    char *key = mem_alloc(len);
    if (!key) {
        run_fail(r, DGPB_ERR_NOMEM, "out of memory");
        return NULL;
    }
    size_t at = (size_t)snprintf(key, len, "%s", bundle_key);
    for (int k = 0; k < RUN_ENTRY_COUNT; k++)
        at += (size_t)snprintf(key + at, len - at, "\n%s", names[k] ? names[k] : "");
    snprintf(key + at, len - at, "%s", tail);
    for (uint32_t i = 0; i < vk->pipeline_count; i++)
        if (!strcmp(vk->pipelines[i].key, key)) {
            dgpb_free(key);
            if (!vk->pipelines[i].pipe)
                *r = *vk->pipelines[i].failure;
            return vk->pipelines[i].pipe ? &vk->pipelines[i] : NULL;
        }
    if (vk->pipeline_count == MAX_PIPELINES) {
        dgpb_free(key);
        run_fail(r, DGPB_ERR_LIMIT, "more than %d pipelines in one runner", MAX_PIPELINES);
        return NULL;
    }
    pipeline *p = &vk->pipelines[vk->pipeline_count++];
    memset(p, 0, sizeof *p);
    p->key = key;
    p->graphics = gfx;
    p->mesh = gfx && entries[RUN_MAIN]->stage_id == DGPB_STAGE_MESH;
    if (!create_pipeline(vk, p, t, entries, c, r) &&
        (p->failure = mem_alloc(sizeof *p->failure)))
        *p->failure = *r;
    if (!p->pipe && !p->failure) { /* no memory to remember why: try again next time */
        dgpb_free(p->key);
        vk->pipeline_count--;
    }
    return p->pipe ? p : NULL;
}

/* The topology a geometry shader's input primitive needs (its execution mode); 0 for none. */
static bool geometry_topology(uint32_t mode, VkPrimitiveTopology *out)
{
    switch (mode) {
    case 19: /* InputPoints */
        *out = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
        return true;
    case 20: /* InputLines */
        *out = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
        return true;
    case 21: /* InputLinesAdjacency */
        *out = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
        return true;
    case 22: /* Triangles */
        *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        return true;
    case 23: /* InputTrianglesAdjacency */
        *out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
        return true;
    default:
        return false;
    }
}

/*
 * How a vertex pipeline assembles its primitives, from its stages' code
 * (docs/run.md, "Drawing"): with tessellation a patch list of as many
 * control points as the hull entry's input patch (else its output control
 * points); with a geometry shader the list of its input primitive; else a
 * triangle list. False, with the failure in `r`, where the code does not say.
 */
static bool assembly(const dgpb_entry_view *const *entries, VkPrimitiveTopology *topology,
                     uint32_t *patch, dgpb_diag *r)
{
    spirv_stage_modes m;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    *topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    *patch = 0;
    const dgpb_entry_view *hull = entries[RUN_HULL], *geometry = entries[RUN_GEOMETRY];
    if (hull) {
        if (spirv_stage_read(hull->code.data, hull->code.size, &m, &d)) {
            run_fail(r, d.code, "hull entry '%.*s': %s", (int)hull->name.len, hull->name.ptr,
                     d.message);
            return false;
        }
        *patch = m.input_patch ? m.input_patch : m.output_vertices;
        if (!*patch) {
            run_fail(r, DGPB_ERR_CORRUPT,
                     "hull entry '%.*s': its code states no control points per patch",
                     (int)hull->name.len, hull->name.ptr);
            return false;
        }
        *topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
        return true;
    }
    if (geometry) {
        if (spirv_stage_read(geometry->code.data, geometry->code.size, &m, &d)) {
            run_fail(r, d.code, "geometry entry '%.*s': %s", (int)geometry->name.len,
                     geometry->name.ptr, d.message);
            return false;
        }
        if (!geometry_topology(m.input_primitive, topology)) {
            run_fail(r, DGPB_ERR_CORRUPT,
                     "geometry entry '%.*s': its code states no input primitive",
                     (int)geometry->name.len, geometry->name.ptr);
            return false;
        }
    }
    return true;
}

/*
 * The vertex input of a vertex pipeline (docs/run.md, "Vertex buffers"): a
 * binding per attribute its vertex entry's code reads, in the code's order,
 * tightly packed, the attribute at its location in its type's format.
 */
static bool vertex_input(pipeline *p, uint32_t code_format, const dgpb_entry_view *e,
                         VkVertexInputBindingDescription *bindings,
                         VkVertexInputAttributeDescription *attributes, dgpb_diag *r)
{
    dgpb_run_vertex_attribute *attrs = NULL;
    uint32_t n = 0;
    if (run_vertex_attributes(code_format, e, &attrs, &n, r))
        return false;
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        VkFormat format = vk_vertex_format(attrs[i].format);
        if (i >= DGPB_RUN_MAX_VERTEX_INPUTS || format == VK_FORMAT_UNDEFINED) {
            run_fail(r, DGPB_ERR_UNSUPPORTED,
                     "vertex attribute '%s' of entry '%.*s' is %s, which the runner has no "
                     "vertex format of (32-bit scalars and vectors, at most %d of them)",
                     attrs[i].name, (int)e->name.len, e->name.ptr, attrs[i].type,
                     DGPB_RUN_MAX_VERTEX_INPUTS);
            ok = false;
            break;
        }
        bindings[i] = (VkVertexInputBindingDescription){
            .binding = i,
            .stride = dgpb_run_vertex_format_size(attrs[i].format),
            .inputRate = VK_VERTEX_INPUT_RATE_VERTEX};
        attributes[i] = (VkVertexInputAttributeDescription){
            .location = attrs[i].location, .binding = i, .format = format, .offset = 0};
    }
    p->vertex_bindings = ok ? n : 0;
    dgpb_free(attrs);
    return ok;
}

/*
 * Creates a render pipeline of stages `st` (dynamic rendering): its vertex
 * input and primitive assembly from the code, a colour attachment per
 * request colour attachment (written where the fragment entry writes its
 * target, else kept), the depth test of the request's depth attachment.
 * False with the failure in `r` before Vulkan is asked; else *res is
 * vkCreateGraphicsPipelines'.
 */
static bool render_pipeline(vk_host *vk, pipeline *p, const dgpb_target_view *t,
                            const dgpb_entry_view *const *entries, const dgpb_run_request *c,
                            const VkPipelineShaderStageCreateInfo *st, uint32_t stage_count,
                            VkResult *res, dgpb_diag *r)
{
    if (!vk->dynamic_rendering || !vk->graphics_queue) {
        run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                 "device '%s' has no graphics queue with dynamic rendering (Vulkan 1.3)",
                 vk->device_name);
        return false;
    }
    if (p->mesh && !vk->draw_mesh_tasks) {
        run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                 "device '%s' draws no mesh pipelines (VK_EXT_mesh_shader's meshShader)",
                 vk->device_name);
        return false;
    }
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    uint32_t patch = 0;
    VkVertexInputBindingDescription bindings[DGPB_RUN_MAX_VERTEX_INPUTS];
    VkVertexInputAttributeDescription attributes[DGPB_RUN_MAX_VERTEX_INPUTS];
    if (!p->mesh && (!assembly(entries, &topology, &patch, r) ||
                     !vertex_input(p, t->code_format_id, entries[RUN_MAIN], bindings,
                                   attributes, r)))
        return false;
    uint32_t written = 0;
    if (run_fragment_targets(t->code_format_id, entries[RUN_FRAGMENT], &written, NULL, r))
        return false;
    const dgpb_run_param *colors[DGPB_RUN_MAX_COLOR_ATTACHMENTS];
    uint32_t color_count = run_color_attachments(c, colors);
    VkFormat color_formats[DGPB_RUN_MAX_COLOR_ATTACHMENTS];
    VkPipelineColorBlendAttachmentState blend[DGPB_RUN_MAX_COLOR_ATTACHMENTS];
    for (uint32_t i = 0; i < color_count; i++) {
        color_formats[i] = vk_format(colors[i]->format);
        /* No blending; an attachment no target writes keeps its texels. */
        blend[i] = (VkPipelineColorBlendAttachmentState){
            .colorWriteMask = (written & (1u << i)) ? 0xFu : 0u};
    }
    const dgpb_run_param *depth = run_depth_attachment(c);
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = p->vertex_bindings,
        .pVertexBindingDescriptions = bindings,
        .vertexAttributeDescriptionCount = p->vertex_bindings,
        .pVertexAttributeDescriptions = attributes};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = topology};
    VkPipelineTessellationStateCreateInfo ts = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
        .patchControlPoints = patch};
    VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f};
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineDepthStencilStateCreateInfo dss = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = VK_TRUE,
        .depthWriteEnable = VK_TRUE,
        .depthCompareOp = vk_compare_op(c->depth_compare)};
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = color_count,
        .pAttachments = blend};
    VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = 2,
        .pDynamicStates = dyn};
    VkPipelineRenderingCreateInfo rci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = color_count,
        .pColorAttachmentFormats = color_formats,
        .depthAttachmentFormat = depth ? vk_format(depth->format) : VK_FORMAT_UNDEFINED};
    /* A mesh pipeline has no vertex input or input assembly. */
    VkGraphicsPipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                       .pNext = &rci,
                                       .stageCount = stage_count,
                                       .pStages = st,
                                       .pVertexInputState = p->mesh ? NULL : &vi,
                                       .pInputAssemblyState = p->mesh ? NULL : &ia,
                                       .pTessellationState = entries[RUN_HULL] ? &ts : NULL,
                                       .pViewportState = &vp,
                                       .pRasterizationState = &rs,
                                       .pMultisampleState = &ms,
                                       .pDepthStencilState = depth ? &dss : NULL,
                                       .pColorBlendState = &cb,
                                       .pDynamicState = &ds,
                                       .layout = p->layout};
    *res = vkCreateGraphicsPipelines(vk->device, VK_NULL_HANDLE, 1, &ci, NULL, &p->pipe);
    return true;
}

/* Creates the layout and pipeline of `entries` (one compute, or a render pipeline's). */
static bool create_pipeline(vk_host *vk, pipeline *p, const dgpb_target_view *t,
                            const dgpb_entry_view *const *entries, const dgpb_run_request *c,
                            dgpb_diag *r)
{
    bool gfx = p->graphics;
    VkShaderStageFlags stages = 0;
    const dgpb_run_param *colors[DGPB_RUN_MAX_COLOR_ATTACHMENTS];
    uint32_t color_count = run_color_attachments(c, colors);
    for (int i = 0; i < RUN_ENTRY_COUNT; i++) {
        if (!entries[i])
            continue;
        if (vk_check_capabilities(vk, entries[i], r) ||
            !add_rows(vk, p, entries[i], color_count, r))
            return false;
        stages |= vk_stage_bit(entries[i]->stage_id);
    }
    if (!make_layout(vk, p, stages, r))
        return false;
    const dgpb_entry_view *first =
        entries[RUN_AMPLIFICATION] ? entries[RUN_AMPLIFICATION] : entries[RUN_MAIN];
    memcpy(p->group_size, first->thread_group_size, sizeof p->group_size);

    /* The pipeline constants the request sets; the others keep the code's defaults. */
    VkSpecializationMapEntry map[MAX_VALUES];
    uint8_t data[MAX_VALUES * 8];
    uint32_t mapped = 0, data_size = 0;
    for (uint32_t i = 0; i < p->constants.value_count; i++) {
        const dgpb_param_view *row = p->constants.values[i];
        const dgpb_run_param *cp = vk_case_param(c, row);
        if (!cp || !cp->input)
            continue;
        if (cp->size != row->size || row->size > 8) {
            run_fail(r, DGPB_ERR_RUN_SIZE,
                     "pipeline constant '%.*s' is %u bytes, the request gives %zu",
                     (int)row->name.len, row->name.ptr, row->size, cp->size);
            return false;
        }
        map[mapped++] = (VkSpecializationMapEntry){
            .constantID = row->binding, .offset = data_size, .size = row->size};
        memcpy(data + data_size, cp->input, row->size);
        data_size += row->size;
    }
    VkSpecializationInfo spec = {
        .mapEntryCount = mapped, .pMapEntries = map, .dataSize = data_size, .pData = data};
    const VkSpecializationInfo *specp = mapped ? &spec : NULL;
    /* Stages in pipeline order: amplification, vertex or mesh, hull, domain, geometry,
       fragment (the order of the places). */
    VkShaderModule mods[RUN_ENTRY_COUNT] = {VK_NULL_HANDLE};
    VkPipelineShaderStageCreateInfo st[RUN_ENTRY_COUNT];
    uint32_t stage_count = 0;
    static const int order[RUN_ENTRY_COUNT] = {RUN_AMPLIFICATION, RUN_MAIN,     RUN_HULL,
                                               RUN_DOMAIN,        RUN_GEOMETRY, RUN_FRAGMENT};
    VkResult res = VK_ERROR_UNKNOWN;
    for (int i = 0; i < RUN_ENTRY_COUNT; i++) {
        const dgpb_entry_view *e = entries[order[i]];
        if (!e)
            continue;
        if (!(mods[stage_count] = make_module(vk, e, r)))
            goto out;
        st[stage_count] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = (VkShaderStageFlagBits)vk_stage_bit(e->stage_id),
            .module = mods[stage_count],
            .pName = "main",
            .pSpecializationInfo = specp};
        stage_count++;
    }
    if (!gfx) {
        VkComputePipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                          .stage = st[0],
                                          .layout = p->layout};
        res = vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &ci, NULL, &p->pipe);
    } else if (!render_pipeline(vk, p, t, entries, c, st, stage_count, &res, r)) {
        goto out;
    }
    if (res != VK_SUCCESS)
        fail(r, "creating the pipeline of entry '%.*s' failed (VkResult %d)",
             (int)entries[RUN_MAIN]->name.len, entries[RUN_MAIN]->name.ptr, (int)res);
out:
    for (int i = 0; i < RUN_ENTRY_COUNT; i++)
        if (mods[i])
            vkDestroyShaderModule(vk->device, mods[i], NULL);
    return p->pipe != VK_NULL_HANDLE;
}
