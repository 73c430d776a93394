/*
 * reflect.c - Slang's reflection JSON to parameter rows (tables/reflect.h).
 *
 * The JSON shapes read here, as every Slang version since 2025 writes them:
 *
 *   { "parameters": [ P ... ],
 *     "entryPoints": [ { "name": N, "stage": S, "threadGroupSize": [x, y, z],
 *                        "parameters": [ P ... ] } ... ] }
 *   P = { "name": N, "binding": B | "bindings": [B...], "type": T, "format": "r32ui"? }
 *   B = { "kind": "descriptorTableSlot" | "constantBuffer" | "shaderResource" |
 *                 "unorderedAccess" | "samplerState" | "uniform" | ...,
 *         "index": i, "space": s?, "offset": o, "size": n }
 *   T = { "kind": "resource", "baseShape": ..., "access": ..., "resultType": T }
 *     | { "kind": "constantBuffer", "elementType": { "kind": "struct", "fields": [...] } }
 *     | { "kind": "parameterBlock", "elementType": ..., "containerVarLayout": { B... } }
 *     | { "kind": "struct", "fields": [ P ... ] } | { "kind": "array", "elementType": T }
 *     | { "kind": "samplerState" } | { "kind": "scalar" | "vector" | "matrix" | ... }
 *
 * A binding record is a descriptor slot ("descriptorTableSlot" on spirv and
 * wgsl; "shaderResource", "unorderedAccess", ... on the D3D targets), a byte
 * range ("uniform"), or a register space ("registerSpace",
 * "subElementRegisterSpace"). A struct field's records are relative to its
 * parent's; module-scope parameters' are absolute; an entry point's
 * parameters' descriptor slots are relative to the entry's own range, which
 * only the code tells (tables/reflect.h). On ptx every record is a byte range:
 * in SLANG_globalParams for module-scope parameters, in the kernel's
 * parameter buffer for entry-point parameters.
 *
 * The walk below carries a `base` down the type tree: where the node's
 * descriptor slots and uniform bytes start, and which uniform block holds its
 * plain data.
 */
#include "tables/reflect.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code/code_format.h"
#include "core/alloc.h"
#include "dgpb/format.h"
#include "tables/reflect_json.h"
#include "tables/reflect_kinds.h"
#include "tables/reflect_types.h"

/* ---- rows ---- */

typedef struct builder {
    dgpb_reflected_param *params;
    size_t count, cap;
    bool nomem;
    const char *target;   /* its name, for messages */
    const code_ops *code; /* its code format's rules (code/code_format.h) */
    const char *const *value_blocks;
    size_t value_block_count;
    const char *const *push_blocks;
    size_t push_block_count;
    bool scalar_elements; /* dgpb_reflection_blocks.scalar_elements */
    char **globals; /* the module-scope parameters' names (dgpb_reflection.globals) */
    size_t global_count, global_cap;
    bool corrupt;           /* a binding record lacks its index: */
    char corrupt_path[256]; /* the first such parameter's path, copied (paths of fields are
                               freed as the walk leaves them) */
} builder;

static dgpb_reflected_param *push(builder *b)
{
    dgpb_reflected_param *np = mem_grow(b->params, b->count, &b->cap, sizeof *np, 16);
    if (!np) {
        b->nomem = true;
        return NULL;
    }
    b->params = np;
    dgpb_reflected_param *r = &b->params[b->count++];
    memset(r, 0, sizeof *r);
    return r;
}

static void fill_strings(builder *b, dgpb_reflected_param *r, const char *name, const char *global,
                         const char *code_name, const char *shape, const char *problem)
{
    r->name = mem_strdup(name);
    r->global = mem_strdup(global);
    r->code_name = mem_strdup(code_name);
    r->shape = mem_strdup(shape);
    r->problem = problem && *problem ? mem_strdup(problem) : NULL;
    if (!r->name || !r->global || !r->code_name || !r->shape ||
        (problem && *problem && !r->problem))
        b->nomem = true;
}

static bool listed(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

/* ---- binding records ---- */

/* The binding records of a parameter or field: its "binding", or each of its "bindings". */
typedef struct records {
    const cJSON *slot;  /* a descriptor slot (any kind but uniform and the register spaces) */
    const cJSON *bytes; /* a "uniform" byte range */
    const cJSON *space; /* a "registerSpace" or "subElementRegisterSpace" */
    const cJSON *push;  /* a "pushConstantBuffer" */
    const cJSON *record; /* a "shaderRecord": a [[vk::shader_record]] block */
    const cJSON *unnamed; /* a record of a category the JSON leaves unnamed ("unknown") */
} records;

static void add_record(records *r, const cJSON *b)
{
    const char *kind = reflect_get_str(b, "kind");
    if (reflect_str_is(kind, "unknown") && !r->unnamed)
        r->unnamed = b;
    /* Stage inputs and outputs, ray payloads and the like come from the pipeline. */
    static const char *const pipeline_kinds[] = {
        "varyingInput",    "varyingOutput",          "rayPayload", "hitAttributes",
        "callablePayload", "specializationConstant", "unknown",    "inputAttachmentIndex"};
    if (!kind || listed(kind, pipeline_kinds, sizeof pipeline_kinds / sizeof pipeline_kinds[0]))
        return;
    if (!strcmp(kind, "uniform")) {
        if (!r->bytes)
            r->bytes = b;
    } else if (!strcmp(kind, "registerSpace") || !strcmp(kind, "subElementRegisterSpace")) {
        if (!r->space)
            r->space = b;
    } else if (!strcmp(kind, "pushConstantBuffer")) {
        if (!r->push)
            r->push = b;
    } else if (!strcmp(kind, "shaderRecord")) {
        if (!r->record)
            r->record = b;
    } else if (!r->slot) {
        r->slot = b;
    }
}

static records records_of(const cJSON *node)
{
    records r = {0};
    const cJSON *b = reflect_get(node, "binding"), *item;
    if (cJSON_IsObject(b))
        add_record(&r, b);
    cJSON_ArrayForEach(item, reflect_get(node, "bindings")) add_record(&r, item);
    return r;
}

/* A constant buffer's [[vk::shader_record]] record: Slang 2026 names its category
   "shaderRecord"; 2025.15 leaves it unnamed ("unknown"), the block's only record. NULL for
   any other node. */
static const cJSON *shader_record_of(const records *r, const cJSON *t)
{
    if (r->record)
        return r->record;
    bool only = r->unnamed && !r->slot && !r->bytes && !r->push && !r->space;
    return only && reflect_str_is(reflect_get_str(t, "kind"), "constantBuffer") ? r->unnamed
                                                                                : NULL;
}

/* Whether a descriptor slot or register space record carries its index. */
static bool records_whole(const records *r)
{
    uint32_t v;
    return (!r->slot || reflect_get_u32(r->slot, "index", &v)) &&
           (!r->space || reflect_get_u32(r->space, "index", &v));
}

static uint32_t rec_u32(const cJSON *rec, const char *key)
{
    uint32_t v = 0;
    reflect_get_u32(rec, key, &v);
    return v;
}

/* ---- types ---- */

static const cJSON *fields_of(const cJSON *t)
{
    return reflect_get(t, "fields");
}

/* A constant buffer's or parameter block's data size as the target lays it out: the byte range
   of its "elementVarLayout" (std140 rounds a uniform block's struct up to 16 on spirv, WGSL's
   SizeOf on wgsl, CUDA's sizeof on ptx); 0 when the reflection gives none. */
static uint32_t block_data_size(const cJSON *t)
{
    records r = records_of(reflect_get(t, "elementVarLayout"));
    return r.bytes ? rec_u32(r.bytes, "size") : 0;
}

/* ---- the walk ---- */

/* Which uniform block holds a node's plain data. */
enum home {
    HOME_GLOBAL_BLOCK, /* Slang's implicit global block (ptx: SLANG_globalParams itself) */
    HOME_BLOCK,        /* a named block: a constant buffer or a parameter block */
    HOME_ENTRY,        /* the entry's own uniform parameters */
    HOME_PUSH,         /* a [[vk::push_constant]] block */
    HOME_RECORD,       /* a [[vk::shader_record]] block */
};

typedef struct base {
    bool entry;     /* inside an entry-point parameter */
    uint32_t space; /* descriptor slots: the space and first slot of the node */
    uint32_t index;
    uint32_t bytes; /* uniform bytes: where the node starts in its home */
    enum home home;
    uint32_t block_space,
        block_binding;      /* HOME_BLOCK (ptx: binding = the block pointer's offset) */
    const char *block_code; /* the code's name of the home block */
    const char *res_prefix; /* prefix of resources' code names */
    const char *global;     /* the top-level variable */
    bool in_ptx_block;      /* on ptx, inside a block's memory */
} base;

/* fill_strings() for a resource at `path` under `at`: its code name is the node's resource
   prefix and `code_path` (the path, less an array element's index). */
static void fill_resource_strings(builder *b, dgpb_reflected_param *r, const char *path,
                                  const char *code_path, const base *at, const char *shape,
                                  const char *problem)
{
    char *code = mem_printf("%s%s", at->res_prefix, code_path);
    if (!code)
        b->nomem = true;
    else
        fill_strings(b, r, path, at->global, code, shape, problem);
    dgpb_free(code);
}

static void walk(builder *b, const char *path, const cJSON *node, const cJSON *t, const base *at,
                 int depth);

/* One value row: a plain-data leaf at `bytes` in the node's home. */
static void add_value(builder *b, const char *path, const cJSON *t, const records *rec,
                      const base *at)
{
    dgpb_reflected_param *r = push(b);
    if (!r)
        return;
    char shape[160], problem[512] = "";
    reflect_shape_text(t, shape, sizeof shape);
    r->kind = DGPB_KIND_VALUE;
    r->entry_param = at->entry;
    r->has_bool = reflect_holds_bool(t, 0);
    r->webgpu_layout = b->code->webgpu ? DGPB_WGPU_UNIFORM_BUFFER : 0;
    const char *code_name = at->block_code;
    if (!rec->bytes) {
        reflect_refuse(r, problem, sizeof problem, "%s has no place in a uniform block on %s",
                       shape, b->target);
    } else {
        r->offset = at->bytes + rec_u32(rec->bytes, "offset");
        r->size = rec_u32(rec->bytes, "size");
    }
    switch (at->home) {
    case HOME_GLOBAL_BLOCK:
        if (b->code->memory_handles) {
            r->binding = DGPB_BINDING_INLINE; /* directly in SLANG_globalParams */
        } else if (b->code->places_from_code) {
            r->place_from_code = true;
        }
        break;
    case HOME_BLOCK:
        r->space = at->block_space;
        r->binding = at->block_binding;
        break;
    case HOME_ENTRY:
        if (b->code->entry_values_launch) {
            r->space = DGPB_SPACE_LAUNCH; /* kernel parameters, push constants */
        } else if (b->code->places_from_code) {
            r->place_from_code = true;
        }
        break;
    case HOME_PUSH:
        r->space = b->code->memory_handles ? at->block_space : DGPB_SPACE_LAUNCH;
        r->binding = b->code->memory_handles ? at->block_binding : 0;
        break;
    case HOME_RECORD:
        r->space = DGPB_SPACE_SHADER_RECORD;
        r->binding = 0;
        break;
    }
    fill_strings(b, r, path, at->global, code_name ? code_name : path, shape, problem);
}

/* One resource row (or a plain-data constant buffer as one uniform_buffer row); `code_path`
   names its variable in the code (the path, less an array element's index). */
static void add_resource(builder *b, const char *path, const char *code_path, const cJSON *node,
                         const cJSON *t, const records *rec, const base *at)
{
    dgpb_reflected_param *r = push(b);
    if (!r)
        return;
    char shape[160], problem[512] = "";
    reflect_shape_text(t, shape, sizeof shape);
    r->entry_param = at->entry;
    reflect_classify(b->code, b->target, r, node, t, shape, problem, sizeof problem);
    if (b->code->memory_handles) {
        if (at->in_ptx_block && r->kind >= 0)
            reflect_refuse(
                r, problem, sizeof problem,
                "on ptx, %s lives in the memory of the block '%s', where no row can place "
                "it; declare it outside the ConstantBuffer or ParameterBlock, or leave "
                "ptx out of --targets",
                shape, at->block_code);
        else if (!rec->bytes && r->kind >= 0)
            reflect_refuse(r, problem, sizeof problem,
                           "%s has no place in the parameter block on ptx", shape);
        r->space = at->entry ? DGPB_SPACE_LAUNCH : 0;
        r->binding = at->bytes + rec_u32(rec->bytes, "offset");
        r->size = 0; /* a handle's size is its kind's (docs/format.md, "Where a row lives") */
    } else if (!rec->slot) {
        if (r->kind >= 0)
            reflect_refuse(r, problem, sizeof problem, "%s has no descriptor binding on %s", shape,
                           b->target);
    } else {
        r->space = at->space + rec_u32(rec->slot, "space");
        r->binding = at->index + rec_u32(rec->slot, "index");
        r->place_from_code = at->entry && b->code->places_from_code;
    }
    if (r->kind == DGPB_KIND_BUFFER || r->kind == DGPB_KIND_RW_BUFFER)
        r->size = reflect_element_stride(t, b->code->memory_handles, b->scalar_elements);
    else if (r->kind == DGPB_KIND_UNIFORM_BUFFER)
        r->size = block_data_size(t);
    if (!r->counted || r->kind < 0) {
        fill_resource_strings(b, r, path, code_path, at, shape, problem);
        return;
    }
    /* An append or consume buffer (spirv): Slang declares two storage buffers, the elements
       ("<name>.elements") at the parameter's binding and the counter ("<name>.counter", one
       32-bit int) at the next. Two rows: `<name>` for the elements, `<name>.counter`. */
    char *elements = mem_printf("%s.elements", code_path);
    char *counter_path = NULL, *counter_code = NULL;
    if (elements)
        fill_resource_strings(b, r, path, elements, at, shape, NULL);
    counter_path = mem_printf("%s.counter", path);
    counter_code = mem_printf("%s.counter", code_path);
    size_t index = (size_t)(r - b->params);
    dgpb_reflected_param *c = elements && counter_path && counter_code ? push(b) : NULL;
    if (!c) {
        b->nomem = true;
    } else {
        r = &b->params[index]; /* push() may have moved the rows */
        c->kind = DGPB_KIND_RW_BUFFER;
        c->entry_param = r->entry_param;
        c->space = r->space;
        c->binding = r->binding + 1;
        c->place_from_code = r->place_from_code;
        c->size = 4;
        fill_resource_strings(b, c, counter_path, counter_code, at, "RWStructuredBuffer<int>",
                              NULL);
    }
    dgpb_free(elements);
    dgpb_free(counter_path);
    dgpb_free(counter_code);
}

/* A row that says why a whole aggregate cannot be rows. */
static void add_refused(builder *b, const char *path, const cJSON *t, const base *at,
                        const char *why)
{
    dgpb_reflected_param *r = push(b);
    if (!r)
        return;
    char shape[160], problem[600];
    reflect_shape_text(t, shape, sizeof shape);
    snprintf(problem, sizeof problem, "%s %s", shape, why);
    r->kind = -1;
    r->entry_param = at->entry;
    fill_resource_strings(b, r, path, path, at, shape, problem);
}

/*
 * A subpass input (SubpassInput<T>, SubpassInputMS<T>): Slang 2025.15's
 * reflection describes it as its implementation struct, without fields or
 * element type, at a descriptor slot, and its attachment index as a second
 * binding record of a category the JSON names "unknown" (its SubpassInput
 * category has no name there); Slang 2026.16 as a resource of base shape
 * subpassInput, the second record's category named "inputAttachmentIndex".
 * One input_attachment row of dimension subpass with that index
 * (docs/format.md, "Input attachments"); the code adds its sample type
 * and multisampling (tables/params.c). Only a code that binds input
 * attachments has it (code_ops.input_attachments: spirv).
 */
static void add_subpass_input(builder *b, const char *path, const cJSON *node, const base *at)
{
    dgpb_reflected_param *r = push(b);
    if (!r)
        return;
    char problem[512] = "";
    records rec = records_of(node);
    r->kind = DGPB_KIND_INPUT_ATTACHMENT;
    r->entry_param = at->entry;
    /* The attachment index: the index of the record that is no descriptor slot. */
    uint32_t index = 0;
    const cJSON *item;
    cJSON_ArrayForEach(
        item, reflect_get(node, "bindings")) if (reflect_str_is(reflect_get_str(item, "kind"),
                                                                "unknown") ||
                                                 reflect_str_is(reflect_get_str(item, "kind"),
                                                                "inputAttachmentIndex"))
        reflect_get_u32(item, "index", &index);
    r->shape_word = DGPB_DIM_SUBPASS;
    if (!b->code->input_attachments)
        reflect_refuse(
            r, problem, sizeof problem,
            "SubpassInput is an input attachment, which has no %s binding (input "
            "attachments are spirv's only: %s); leave %s out of --targets for this entry",
            b->target,
            b->code->webgpu ? "WebGPU has none" : "this target's code has no form for them",
            b->target);
    else if (index > DGPB_SHAPE_ATTACHMENT_MAX)
        reflect_refuse(
            r, problem, sizeof problem,
            "SubpassInput has the input attachment index %u, above the %u a row can hold; "
            "use a smaller [[vk::input_attachment_index(N)]]",
            index, DGPB_SHAPE_ATTACHMENT_MAX);
    else
        r->shape_word |= index << DGPB_SHAPE_ATTACHMENT_SHIFT;
    if (!rec.slot) {
        if (r->kind >= 0)
            reflect_refuse(r, problem, sizeof problem,
                           "SubpassInput has no descriptor binding on %s", b->target);
    } else {
        r->space = at->space + rec_u32(rec.slot, "space");
        r->binding = at->index + rec_u32(rec.slot, "index");
        r->place_from_code = at->entry && b->code->places_from_code;
    }
    fill_resource_strings(b, r, path, path, at, "SubpassInput", problem);
}

/* Walks a struct's fields, named "<path>.<field>" (or just "<field>" when `path` is NULL). */
static void walk_fields(builder *b, const char *path, const cJSON *t, const base *at, int depth)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, fields_of(t))
    {
        const char *fname = reflect_get_str(f, "name");
        char *sub =
            path ? mem_printf("%s.%s", path, fname ? fname : "?") : mem_strdup(fname ? fname : "?");
        if (!sub) {
            b->nomem = true;
            return;
        }
        walk(b, sub, f, reflect_get(f, "type"), at, depth + 1);
        dgpb_free(sub);
    }
}

/*
 * The uniform buffer of a parameter block, or of a constant buffer that holds
 * resources: Slang puts the block's plain data in a uniform buffer (at the
 * start of a parameter block's set) on spirv and wgsl, and in the memory its
 * pointer leads to on ptx. One uniform_buffer row named as the block, at that
 * place, sized as the reflection lays the data out; its value rows follow.
 */
static void add_block_buffer(builder *b, const char *path, const cJSON *t, const base *in)
{
    dgpb_reflected_param *r = push(b);
    if (!r)
        return;
    char shape[160];
    reflect_shape_text(t, shape, sizeof shape);
    r->kind = DGPB_KIND_UNIFORM_BUFFER;
    r->entry_param = in->entry;
    r->space = in->block_space;
    r->binding = in->block_binding;
    r->size = block_data_size(t);
    r->webgpu_layout = b->code->webgpu ? DGPB_WGPU_UNIFORM_BUFFER : 0;
    fill_resource_strings(b, r, path, path, in, shape, NULL);
}

/* What a block walked by walk_block() is. */
enum block_role {
    BLOCK_PARAMETER, /* a ParameterBlock: its own set, its own uniform buffer for its data */
    BLOCK_RESOURCES, /* a ConstantBuffer holding resources: its own uniform buffer for its data */
    BLOCK_PUSH,      /* a push-constant block on this target: value rows of the launch range */
    BLOCK_RECORD,    /* a [[vk::shader_record]] block: value rows of the shader's record */
    BLOCK_VALUES,    /* value rows alone at the block's place: `<entry>_params`, and a block
                        that is a push-constant block on another target of the entry */
};

/* A constant buffer or parameter block whose fields become rows of its own block, named
   "<path>.<field>" or, with `bare_names`, "<field>". */
static void walk_block(builder *b, const char *path, const cJSON *node, const cJSON *t,
                       const records *rec, const base *at, enum block_role role, bool bare_names,
                       int depth)
{
    bool parameter_block = role == BLOCK_PARAMETER, push_block = role == BLOCK_PUSH;
    const cJSON *elem = reflect_get(t, "elementType");
    records container = records_of(reflect_get(t, "containerVarLayout"));
    base in = *at;
    in.home = push_block ? HOME_PUSH : role == BLOCK_RECORD ? HOME_RECORD : HOME_BLOCK;
    in.block_code = path;
    in.bytes = 0;
    if (b->code->memory_handles) {
        in.block_space = 0;
        in.block_binding = at->bytes + rec_u32(rec->bytes, "offset"); /* the block's pointer */
        in.in_ptx_block = true;
    } else if (parameter_block) {
        /* Its own space; the block's data (if any) at the container's slot, the fields' slots
           counted from the start of that space. */
        in.space = at->space + rec_u32(rec->space, "index");
        in.index = 0;
        in.block_space = in.space;
        in.block_binding = rec_u32(container.slot, "index");
    } else {
        in.space = at->space + rec_u32(rec->slot, "space");
        in.index = at->index + rec_u32(rec->slot, "index");
        in.block_space = in.space;
        in.block_binding = in.index;
    }
    /* The block's own uniform buffer, where its data lives. */
    if ((parameter_block || role == BLOCK_RESOURCES) && reflect_holds_data(elem, 0))
        add_block_buffer(b, path, t, &in);
    if (reflect_str_is(reflect_get_str(elem, "kind"), "struct"))
        walk_fields(b, bare_names ? NULL : path, elem, &in, depth);
    else
        walk(b, path, node, elem, &in, depth + 1);
}

/*
 * A plain-data constant buffer (docs/format.md, "Which rows an entry has"):
 * its uniform_buffer row, then one value row per field at the block's place.
 * A cbuffer (whose element struct Slang leaves unnamed) names its fields bare,
 * as the code reads them; a ConstantBuffer<S> by dotted path.
 */
static void add_data_block(builder *b, const char *path, const cJSON *node, const cJSON *t,
                           const records *rec, const base *at, int depth)
{
    size_t first = b->count;
    add_resource(b, path, path, node, t, rec, at);
    const cJSON *elem = reflect_get(t, "elementType");
    if (b->nomem || b->params[first].kind != DGPB_KIND_UNIFORM_BUFFER ||
        !reflect_str_is(reflect_get_str(elem, "kind"), "struct"))
        return;
    const dgpb_reflected_param *block = &b->params[first];
    char *code = mem_strdup(block->code_name);
    if (!code) {
        b->nomem = true;
        return;
    }
    bool from_code = block->place_from_code;
    base in = *at;
    in.home = HOME_BLOCK;
    in.block_code = code;
    in.bytes = 0;
    in.block_space = block->space;
    in.block_binding = block->binding;
    in.in_ptx_block = b->code->memory_handles;
    bool bare = !reflect_get_str(elem, "name") && depth == 0;
    walk_fields(b, bare ? NULL : path, elem, &in, depth);
    for (size_t i = first + 1; i < b->count; i++)
        b->params[i].place_from_code = from_code;
    dgpb_free(code);
}

/*
 * A fixed array of resources, `T name[N]` (docs/format.md, "Which rows an
 * entry has"): N rows name[0] ... name[N-1] of the element's kind, in element
 * order. On the descriptor targets they share the array's place (a Vulkan
 * host binds element i at array element i); on ptx the array is N handles in
 * a row, element i at the array's offset + i * the element stride. WebGPU has
 * no binding arrays, and an unbounded array no count: both refused.
 */
static void add_resource_array(builder *b, const char *path, const cJSON *node, const cJSON *t,
                               const records *rec, const base *at)
{
    const cJSON *elem = reflect_get(t, "elementType");
    const char *elem_kind = reflect_get_str(elem, "kind");
    uint32_t n = 0;
    bool resources =
        reflect_str_is(elem_kind, "resource") || reflect_str_is(elem_kind, "samplerState");
    /* An array of plain-data constant buffers is rows of uniform_buffer (name[i]). */
    bool blocks = reflect_str_is(elem_kind, "constantBuffer") &&
                  !reflect_holds_resources(reflect_get(elem, "elementType"), 0);
    if (!(reflect_get_u32(t, "elementCount", &n) && n)) {
        /* Unbounded (`T name[]`, a runtime descriptor array): one row whose count is the
           host's, flagged unbounded (docs/format.md, "Unbounded arrays"). */
        if (!resources && !blocks)
            add_refused(b, path, t, at,
                        "is an unbounded array of arrays, aggregates or blocks that hold "
                        "resources, which no row can describe; declare one unbounded array per "
                        "resource");
        else if (b->code->webgpu)
            add_refused(b, path, t, at,
                        "is an unbounded array of resources, and WebGPU has no binding arrays; "
                        "leave wgsl out of --targets for this entry");
        else if (b->code->memory_handles)
            add_refused(b, path, t, at,
                        "is an unbounded array of resources, which Slang's CUDA code passes as a "
                        "pointer no row can place; leave ptx out of --targets for this entry");
        else {
            size_t row = b->count;
            add_resource(b, path, path, node, elem, rec, at);
            if (row < b->count)
                b->params[row].unbounded = true;
        }
        return;
    }
    if (!resources && !blocks) {
        add_refused(
            b, path, t, at,
            "is an array of arrays, aggregates or blocks; only an array of textures, buffers, "
            "samplers or acceleration structures is rows (name[i]): declare one array per "
            "resource field, or each element as a parameter of its own");
        return;
    }
    if (b->code->webgpu) {
        add_refused(b, path, t, at,
                    "is an array of resources, and WebGPU has no binding arrays; declare each "
                    "element as a parameter of its own, or leave wgsl out of --targets");
        return;
    }
    if (n > DGPB_MAX_ARRAY_ROWS) {
        char why[200];
        snprintf(why, sizeof why,
                 "has %u elements, more than the %u rows an array may have; declare it as "
                 "DescriptorHandle<T> handles (a bindless `handle` row) instead",
                 n, DGPB_MAX_ARRAY_ROWS);
        add_refused(b, path, t, at, why);
        return;
    }
    uint32_t stride = 0;
    if (b->code->memory_handles &&
        !(reflect_get_u32(rec->bytes, "elementStride", &stride) && stride)) {
        add_refused(b, path, t, at, "has no element stride in the ptx reflection");
        return;
    }
    for (uint32_t i = 0; i < n && !b->nomem; i++) {
        char *sub = mem_printf("%s[%u]", path, i);
        if (!sub) {
            b->nomem = true;
            return;
        }
        size_t row = b->count;
        add_resource(b, sub, path, node, elem, rec, at);
        dgpb_free(sub);
        if (b->code->memory_handles && row < b->count)
            b->params[row].binding += i * stride;
    }
}

static void walk(builder *b, const char *path, const cJSON *node, const cJSON *t, const base *at,
                 int depth)
{
    const char *kind = reflect_get_str(t, "kind");
    records rec = records_of(node);
    if (!records_whole(&rec) && !b->corrupt) {
        b->corrupt = true;
        snprintf(b->corrupt_path, sizeof b->corrupt_path, "%s", path);
    }
    if (depth > 32) {
        add_refused(b, path, t, at, "nests deeper than 32 levels");
        return;
    }
    if (reflect_is_subpass_input(t)) {
        add_subpass_input(b, path, node, at);
    } else if (reflect_str_is(kind, "struct")) {
        if (!reflect_holds_resources(t, 0)) {
            add_value(b, path, t, &rec, at);
            return;
        }
        base in = *at;
        if (!b->code->memory_handles && rec.slot) {
            in.space = at->space + rec_u32(rec.slot, "space");
            in.index = at->index + rec_u32(rec.slot, "index");
        }
        if (rec.bytes)
            in.bytes = at->bytes + rec_u32(rec.bytes, "offset");
        /* Slang legalizes a struct global with plain data into its global block, and names its
           resources after it ("globalParams.m.dst"). */
        char *prefix = NULL;
        if (depth == 0 && !at->entry && reflect_holds_data(t, 0)) {
            prefix = mem_printf("%sglobalParams.", at->res_prefix);
            if (!prefix) {
                b->nomem = true;
                return;
            }
            in.res_prefix = prefix;
        }
        walk_fields(b, path, t, &in, depth);
        dgpb_free(prefix);
    } else if (reflect_str_is(kind, "parameterBlock")) {
        if (at->entry || depth > 0)
            add_refused(b, path, t, at,
                        at->entry ? "as an entry-point parameter has no fixed descriptor set; "
                                    "declare the ParameterBlock as a global"
                                  : "inside another aggregate is not supported; declare the "
                                    "ParameterBlock as a global of its own");
        else
            walk_block(b, path, node, t, &rec, at, BLOCK_PARAMETER, false, depth);
    } else if (reflect_str_is(kind, "constantBuffer")) {
        const cJSON *elem = reflect_get(t, "elementType");
        /* The spirv reflection marks a push-constant block; ptx's does not, so the caller names
           them (from the SPIR-V) to keep every target's rows alike. A named block that this
           target's reflection gives a descriptor slot is an ordinary uniform block here (the
           module declares it [[vk::push_constant]] for some targets only, under a target
           guard): value rows alone, as the push-constant block's are elsewhere. */
        bool named_push = depth == 0 && !at->entry &&
                          listed(path, b->push_blocks, b->push_block_count);
        bool push_block = rec.push != NULL || (named_push && !rec.slot);
        /* A cbuffer's fields bare, a ConstantBuffer<S>'s by dotted path, as in add_data_block. */
        bool bare = !reflect_get_str(elem, "name") && depth == 0;
        if (shader_record_of(&rec, t)) {
            /* Data the host writes into the shader binding table: value rows of the record. */
            if (reflect_holds_resources(elem, 0))
                add_refused(b, path, t, at,
                            "is a [[vk::shader_record]] block holding resources; a shader record "
                            "holds plain data (and buffer addresses): declare the resources "
                            "apart");
            else
                walk_block(b, path, node, t, &rec, at, BLOCK_RECORD, bare, depth);
        } else if (depth == 0 && !at->entry &&
                   listed(path, b->value_blocks, b->value_block_count)) {
            walk_block(b, path, node, t, &rec, at, BLOCK_VALUES, true,
                       depth); /* "<entry>_params" */
        } else if (push_block && b->code->webgpu) {
            add_refused(b, path, t, at,
                        "is a [[vk::push_constant]] block, and WebGPU has no push constants; "
                        "declare a plain ConstantBuffer, or leave wgsl out of --targets");
        } else if (push_block) {
            walk_block(b, path, node, t, &rec, at, BLOCK_PUSH, bare, depth);
        } else if (named_push && !reflect_holds_resources(elem, 0)) {
            walk_block(b, path, node, t, &rec, at, BLOCK_VALUES, bare, depth);
        } else if (reflect_holds_resources(elem, 0)) {
            if (at->entry || depth > 0)
                add_refused(b, path, t, at,
                            "holds resources; as an entry-point parameter or inside another "
                            "aggregate it is not supported: declare the ConstantBuffer as a "
                            "global");
            else
                walk_block(b, path, node, t, &rec, at, BLOCK_RESOURCES, false, depth);
        } else {
            add_data_block(b, path, node, t, &rec, at, depth);
        }
    } else if (reflect_str_is(kind, "array") &&
               reflect_holds_resources(reflect_get(t, "elementType"), 0)) {
        add_resource_array(b, path, node, t, &rec, at);
    } else if (reflect_str_is(kind, "resource") || reflect_str_is(kind, "samplerState")) {
        add_resource(b, path, path, node, t, &rec, at);
    } else if (kind) {
        add_value(b, path, t, &rec, at);
    } else {
        add_refused(b, path, t, at, "has no type kind in the reflection");
    }
}

/* A specialization constant: a value row of the pipeline-constant space (reflect.h). */
static void add_pipeline_constant(builder *b, const char *name, const cJSON *binding,
                                  const cJSON *t)
{
    dgpb_reflected_param *r = push(b);
    if (!r)
        return;
    char shape[160], problem[512] = "";
    reflect_shape_text(t, shape, sizeof shape);
    r->kind = DGPB_KIND_VALUE;
    r->pipeline_constant = true;
    r->space = DGPB_SPACE_PIPELINE_CONSTANT;
    r->binding = rec_u32(binding, "index");
    r->size = reflect_scalar_bytes(reflect_get_str(t, "scalarType"));
    if (!r->size)
        reflect_refuse(r, problem, sizeof problem,
                       "%s is a specialization constant that is not a scalar; a pipeline constant "
                       "is a bool, integer or float",
                       shape);
    fill_strings(b, r, name, name, name, shape, problem);
}

/* Marks the rows from `first` on as the top-level parameter `name`'s (its `top`): an entry's
   parameter by its index, a module-scope one by its place in the globals, where it is added. */
static void end_top(builder *b, size_t first, const char *name, bool entry, size_t index)
{
    for (size_t i = first; i < b->count; i++)
        b->params[i].top = (uint32_t)(entry ? index : b->global_count);
    char **g = entry ? NULL : mem_grow(b->globals, b->global_count, &b->global_cap, sizeof *g, 16);
    char *copy = g ? mem_strdup(name) : NULL;
    if (g)
        b->globals = g;
    if (copy)
        b->globals[b->global_count++] = copy;
    b->nomem |= !entry && !copy;
}

static int parse_params(builder *b, const cJSON *params, bool entry, dgpb_diag *diag)
{
    const cJSON *p;
    size_t index = 0;
    cJSON_ArrayForEach(p, params)
    {
        const char *name = reflect_get_str(p, "name");
        const cJSON *t = reflect_get(p, "type");
        records rec = records_of(p);
        const cJSON *binding = reflect_get(p, "binding");
        size_t first = b->count;
        if (!entry && name && cJSON_IsObject(t) &&
            reflect_str_is(reflect_get_str(binding, "kind"), "specializationConstant")) {
            index++;
            add_pipeline_constant(b, name, binding, t);
            end_top(b, first, name, false, 0);
            if (b->nomem)
                break;
            continue;
        }
        bool placed = rec.slot || rec.bytes || rec.space || rec.push || shader_record_of(&rec, t);
        if (entry && (!placed || reflect_get(p, "semanticName")))
            continue; /* a stage input or output: the pipeline's, not a parameter */
        if (!name || !cJSON_IsObject(t) || !placed)
            return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                                 "reflection json: %s parameter %zu lacks a name, type or binding",
                                 entry ? "entry-point" : "module", index);
        index++;
        base at = {
            .entry = entry,
            .home = entry ? HOME_ENTRY : HOME_GLOBAL_BLOCK,
            .block_code = entry ? "entryPointParams" : "globalParams",
            .res_prefix = entry ? "entryPointParams." : "",
            .global = name,
        };
        walk(b, name, p, t, &at, 0);
        end_top(b, first, name, entry, index - 1);
        if (b->nomem)
            break;
        if (b->corrupt)
            return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                                 "reflection json: %s parameter %zu lacks a name, type or binding "
                                 "('%s' has a binding without an index)",
                                 entry ? "entry-point" : "module", index - 1, b->corrupt_path);
    }
    return b->nomem ? dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory") : DGPB_OK;
}

/*
 * An entry's thread group size: each of the three numbers, 1 where one is
 * missing, not a number or below 1. False when one does not fit 32 bits
 * (converting it would be undefined behaviour).
 */
static bool thread_group_size_of(const cJSON *array, uint32_t size[3])
{
    for (int i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetArrayItem(array, i);
        if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1)) {
            size[i] = 1;
            continue;
        }
        if (v->valuedouble > 4294967295.0)
            return false;
        size[i] = (uint32_t)v->valuedouble;
    }
    return true;
}

static int parse_entries(dgpb_reflection *r, const cJSON *entries, dgpb_diag *diag)
{
    int n = cJSON_GetArraySize(entries);
    r->entries = mem_calloc((size_t)n, sizeof *r->entries);
    if (!r->entries)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    const cJSON *e;
    cJSON_ArrayForEach(e, entries)
    {
        const char *name = reflect_get_str(e, "name"), *stage = reflect_get_str(e, "stage");
        if (!name)
            return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                                 "reflection json: entry point %zu has no name", r->entry_count);
        if (!stage)
            stage = ""; /* Slang 2025.15 names no ray-tracing stage: the caller asks the code */
        dgpb_reflected_entry *re = &r->entries[r->entry_count++];
        re->name = mem_strdup(name);
        re->stage_name = mem_strdup(stage);
        if (!re->name || !re->stage_name)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        re->stage = dgpb_stage_from_name(stage, strlen(stage));
        /* Slang 2025.15 writes threadGroupSize for compute entries only; a mesh or
           amplification entry without one keeps 0,0,0 (the caller asks the code). */
        const cJSON *size = reflect_get(e, "threadGroupSize");
        if (re->stage >= 0 && dgpb_stage_has_thread_group((uint32_t)re->stage) &&
            (size || re->stage == DGPB_STAGE_COMPUTE) &&
            !thread_group_size_of(size, re->thread_group_size))
            return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                                 "reflection json: entry point '%s' has a thread group size "
                                 "past 4294967295",
                                 name);
    }
    return DGPB_OK;
}

int reflection_parse(const char *json, size_t len, dgpb_target_id target,
                     const char *const *value_blocks, size_t value_block_count,
                     dgpb_reflection **out, dgpb_diag *diag)
{
    dgpb_reflection_blocks blocks = {value_blocks, value_block_count, NULL, 0, false};
    return reflection_parse_blocks(json, len, target, &blocks, out, diag);
}

int reflection_parse_blocks(const char *json, size_t len, dgpb_target_id target,
                            const dgpb_reflection_blocks *blocks, dgpb_reflection **out,
                            dgpb_diag *diag)
{
    *out = NULL;
    cJSON *root = cJSON_ParseWithLength(json, len);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, at ? (int64_t)(at - json) : -1,
                             "reflection json is not valid JSON");
    }
    int rc = DGPB_OK;
    dgpb_reflection *r = mem_calloc(1, sizeof *r);
    builder b = {
        .target = dgpb_target_name(target),
        .code = code_ops_of_target(target),
        .value_blocks = blocks ? blocks->value_blocks : NULL,
        .value_block_count = blocks ? blocks->value_block_count : 0,
        .push_blocks = blocks ? blocks->push_blocks : NULL,
        .push_block_count = blocks ? blocks->push_block_count : 0,
        .scalar_elements = blocks && blocks->scalar_elements,
    };
    const cJSON *params = reflect_get(root, "parameters"),
                *entries = reflect_get(root, "entryPoints");
    if (!r) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    } else if ((params && !cJSON_IsArray(params)) || (entries && !cJSON_IsArray(entries)) ||
               !cJSON_IsObject(root)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                           "reflection json: 'parameters' and 'entryPoints' must be arrays");
    } else {
        const cJSON *first = cJSON_GetArrayItem(entries, 0);
        const cJSON *eparams = reflect_get(first, "parameters");
        if (eparams && !cJSON_IsArray(eparams))
            rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                               "reflection json: an entry point's 'parameters' must be an array");
        if (!rc)
            rc = parse_params(&b, params, false, diag);
        if (!rc)
            rc = parse_params(&b, eparams, true, diag);
        r->params = b.params;
        r->param_count = b.count;
        r->globals = b.globals;
        r->global_count = b.global_count;
        if (!rc && entries)
            rc = parse_entries(r, entries, diag);
    }
    cJSON_Delete(root);
    if (rc) {
        reflection_free(r); /* with the parameters parsed so far */
        return rc;
    }
    *out = r;
    return DGPB_OK;
}

void reflection_free(dgpb_reflection *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->param_count; i++) {
        dgpb_free(r->params[i].name);
        dgpb_free(r->params[i].global);
        dgpb_free(r->params[i].code_name);
        dgpb_free(r->params[i].shape);
        dgpb_free(r->params[i].problem);
    }
    dgpb_free(r->params);
    for (size_t i = 0; i < r->global_count; i++)
        dgpb_free(r->globals[i]);
    dgpb_free(r->globals);
    for (size_t i = 0; i < r->entry_count; i++) {
        dgpb_free(r->entries[i].name);
        dgpb_free(r->entries[i].stage_name);
    }
    dgpb_free(r->entries);
    dgpb_free(r);
}

const dgpb_reflected_param *reflection_find(const dgpb_reflection *r, const char *name,
                                            bool by_global)
{
    for (size_t i = 0; i < r->param_count; i++)
        if (!strcmp(by_global ? r->params[i].global : r->params[i].name, name))
            return &r->params[i];
    return NULL;
}
