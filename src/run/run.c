/*
 * src/run/run.c - the runner: bundles loaded once per path, requests checked
 * against the parameter table before a device sees them (by the rules of
 * request.c), and the host of the runner's API (vulkan.c, cuda.c) doing the
 * rest through its run_host_ops. The hosts never call back into this file.
 * See dgpb/run.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "run/run_internal.h"
#include "code/spirv/spirv_stage.h"

#define MAX_BUNDLES 64

typedef struct run_bundle {
    char *path;
    int code; /* why it could not be loaded (later runs fail the same way), or DGPB_OK */
    dgpb_diag *failure;
    uint8_t *bytes;
    dgpb_bundle *b;
    const dgpb_target_view *t;
} run_bundle;

struct dgpb_runner {
    uint32_t backend;
    void *host;
    const run_host_ops *ops;
    uint32_t bundle_count;
    run_bundle bundles[MAX_BUNDLES];
};

const char *dgpb_run_result_str(int r)
{
    switch (r) {
    case DGPB_ERR_RUN_NO_DEVICE:
        return "no device";
    case DGPB_ERR_RUN_DRIVER:
        return "driver error";
    case DGPB_ERR_RUN_CAPABILITY:
        return "unsupported capability";
    case DGPB_ERR_RUN_PARAM:
        return "unknown parameter";
    case DGPB_ERR_RUN_MISSING:
        return "parameter given nothing";
    case DGPB_ERR_RUN_SIZE:
        return "size does not fit the row";
    case DGPB_ERR_RUN_KIND:
        return "kind does not fit the row";
    case DGPB_ERR_RUN_STAGE:
        return "entries that form no pipeline";
    default:
        return dgpb_result_str(r);
    }
}

/* The place of an entry of `stage` in a render pipeline (RUN_MAIN for vertex and mesh). */
static int render_place(uint32_t stage)
{
    switch (stage) {
    case DGPB_STAGE_VERTEX:
    case DGPB_STAGE_MESH:
        return RUN_MAIN;
    case DGPB_STAGE_AMPLIFICATION:
        return RUN_AMPLIFICATION;
    case DGPB_STAGE_HULL:
        return RUN_HULL;
    case DGPB_STAGE_DOMAIN:
        return RUN_DOMAIN;
    case DGPB_STAGE_GEOMETRY:
        return RUN_GEOMETRY;
    case DGPB_STAGE_FRAGMENT:
        return RUN_FRAGMENT;
    default:
        return -1;
    }
}

/* Whether entries of `stage` run here: compute, and the stages of render pipelines. */
static bool stage_runs(uint32_t stage)
{
    return stage == DGPB_STAGE_COMPUTE || render_place(stage) >= 0;
}

/* The entry `name`, of a stage that runs here; DGPB_ERR_NOT_FOUND or DGPB_ERR_RUN_STAGE. */
static int find_entry(const dgpb_target_view *t, const char *name, const dgpb_entry_view **out,
                      dgpb_diag *d)
{
    if (!name)
        return dgpb_diag_set(d, DGPB_ERR_INVALID, -1, "the request names no entry");
    int rc = dgpb_target_find_entry(t, name, out, d);
    if (rc) {
        /* Name the entries that would run, so a typo is a glance away. */
        if (d && dgpb_result_class(rc) == DGPB_ERR_NOT_FOUND)
            for (uint32_t i = 0, listed = 0; i < t->entry_count; i++) {
                const dgpb_entry_view *e = &t->entries[i];
                if (!stage_runs(e->stage_id))
                    continue;
                size_t len = strlen(d->message);
                snprintf(d->message + len, sizeof d->message - len, "%s%.*s",
                         listed++ ? ", " : "; the entries that run here: ", (int)e->name.len,
                         e->name.ptr);
            }
        return rc;
    }
    uint32_t has = (*out)->stage_id;
    if (!stage_runs(has))
        return dgpb_diag_set(d, DGPB_ERR_RUN_STAGE, -1,
                             "entry '%s' is of stage '%s', which dgpb-run cannot run yet: it "
                             "runs compute entries and draws render pipelines",
                             name, dgpb_stage_name(has));
    return DGPB_OK;
}

/* The request field of each place, for messages ("hull"). */
static const char *const place_names[RUN_ENTRY_COUNT] = {
    [RUN_MAIN] = "entry",    [RUN_AMPLIFICATION] = "amplification", [RUN_HULL] = "hull",
    [RUN_DOMAIN] = "domain", [RUN_GEOMETRY] = "geometry",           [RUN_FRAGMENT] = "fragment"};

/*
 * Finds the request's entries by place (docs/run.md, "Drawing") and checks
 * that they form a pipeline: one compute entry; or a vertex entry with hull
 * and domain (both or neither), geometry and fragment; or a mesh entry with
 * amplification and fragment. Each named entry must have its place's stage.
 */
static int find_entries(const dgpb_target_view *t, const dgpb_run_request *req,
                        const dgpb_entry_view *e[RUN_ENTRY_COUNT], dgpb_diag *d)
{
    const char *names[RUN_ENTRY_COUNT];
    run_entry_names(req, names);
    for (int k = 0; k < RUN_ENTRY_COUNT; k++) {
        e[k] = NULL;
        if (!names[k] && k != RUN_MAIN)
            continue;
        int rc = find_entry(t, names[k], &e[k], d);
        if (rc)
            return rc;
        uint32_t stage = e[k]->stage_id;
        bool fits = k == RUN_MAIN ? (req->fragment ? render_place(stage) == RUN_MAIN
                                                   : stage == DGPB_STAGE_COMPUTE)
                                  : render_place(stage) == k;
        if (!fits && k == RUN_MAIN && !req->fragment && render_place(stage) == RUN_MAIN)
            return dgpb_diag_set(d, DGPB_ERR_RUN_STAGE, -1,
                                 "entry '%s' is a %s entry, not compute: it draws with a fragment "
                                 "entry (--fragment)",
                                 names[k], dgpb_stage_name(stage));
        if (!fits && k == RUN_MAIN && !req->fragment)
            return dgpb_diag_set(d, DGPB_ERR_RUN_STAGE, -1,
                                 "entry '%s' is a %s entry, not compute: it draws as the %s stage "
                                 "of a render pipeline (--%s, beside a %s ENTRY%s)",
                                 names[k], dgpb_stage_name(stage), dgpb_stage_name(stage),
                                 place_names[render_place(stage)],
                                 stage == DGPB_STAGE_AMPLIFICATION ? "mesh"
                                 : stage == DGPB_STAGE_FRAGMENT    ? "vertex or mesh"
                                                                   : "vertex",
                                 stage == DGPB_STAGE_FRAGMENT ? "" : " and --fragment");
        if (!fits)
            return dgpb_diag_set(d, DGPB_ERR_RUN_STAGE, -1,
                                 "entry '%s' is a %s entry, which cannot be the %s of a render "
                                 "pipeline%s",
                                 names[k], dgpb_stage_name(stage), place_names[k],
                                 k == RUN_MAIN ? " (a vertex or mesh entry)" : "");
    }
    if (!req->fragment)
        return DGPB_OK;
    bool mesh = e[RUN_MAIN]->stage_id == DGPB_STAGE_MESH;
    const char *main_name = req->entry;
    if (mesh && (e[RUN_HULL] || e[RUN_DOMAIN] || e[RUN_GEOMETRY]))
        return dgpb_diag_set(d, DGPB_ERR_RUN_STAGE, -1,
                             "mesh entry '%s' draws without %s entries: a mesh pipeline is "
                             "amplification (optional), mesh and fragment",
                             main_name, e[RUN_GEOMETRY] ? "geometry" : "tessellation");
    if (!mesh && e[RUN_AMPLIFICATION])
        return dgpb_diag_set(d, DGPB_ERR_RUN_STAGE, -1,
                             "amplification entry '%s' needs a mesh entry, not vertex entry '%s'",
                             req->amplification, main_name);
    if (!e[RUN_HULL] != !e[RUN_DOMAIN])
        return dgpb_diag_set(d, DGPB_ERR_RUN_STAGE, -1,
                             "%s entry '%s' needs a %s entry too: tessellation takes both",
                             e[RUN_HULL] ? "hull" : "domain", e[RUN_HULL] ? req->hull : req->domain,
                             e[RUN_HULL] ? "domain" : "hull");
    return DGPB_OK;
}

static const char *kind_text(uint32_t kind)
{
    if (kind == DGPB_RUN_KIND_RESOURCE)
        return "buffer or texture";
    if (kind == DGPB_RUN_KIND_COLOR_ATTACHMENT)
        return "color attachment";
    const char *s = dgpb_kind_name(kind);
    return s ? s : "parameter of unknown kind";
}

/* A shape's dimension as --texture spells it ("2d_array", "2d_ms"); "1d_array" and
   "2d_ms_array", which the runner has no dimension of, too. */
static const char *shape_dim_text(uint32_t shape)
{
    const char *dim = dgpb_shape_dim_name(DGPB_SHAPE_DIM_OF(shape));
    static const char *const arrays[] = {
        [DGPB_DIM_1D] = "1d_array", [DGPB_DIM_2D] = "2d_array", [DGPB_DIM_CUBE] = "cube_array"};
    if (shape & DGPB_SHAPE_MULTISAMPLED)
        return shape & DGPB_SHAPE_ARRAYED ? "2d_ms_array" : "2d_ms";
    if ((shape & DGPB_SHAPE_ARRAYED) && DGPB_SHAPE_DIM_OF(shape) < sizeof arrays / sizeof *arrays &&
        arrays[DGPB_SHAPE_DIM_OF(shape)])
        return arrays[DGPB_SHAPE_DIM_OF(shape)];
    return dim ? dim : "?";
}

/*
 * A texture given for a row of another shape (docs/format.md, "Shapes"): a
 * 2D texture for a cube map or a multisampled one, a float format for a uint
 * texture, a colour format for a depth texture (or the other way round). A
 * row whose shape is 0 (not stated) takes what it is given, but a storage
 * texture is never multisampled or of a depth format here.
 */
static int check_texture_shape(const dgpb_run_param *p, const dgpb_param_view *row, dgpb_diag *d)
{
    static const uint32_t dims[DGPB_RUN_DIM_COUNT] = {
        [DGPB_RUN_DIM_2D] = DGPB_DIM_2D,
        [DGPB_RUN_DIM_1D] = DGPB_DIM_1D,
        [DGPB_RUN_DIM_3D] = DGPB_DIM_3D,
        [DGPB_RUN_DIM_CUBE] = DGPB_DIM_CUBE,
        [DGPB_RUN_DIM_2D_ARRAY] = DGPB_DIM_2D | DGPB_SHAPE_ARRAYED,
        [DGPB_RUN_DIM_CUBE_ARRAY] = DGPB_DIM_CUBE | DGPB_SHAPE_ARRAYED,
        [DGPB_RUN_DIM_2D_MS] = DGPB_DIM_2D | DGPB_SHAPE_MULTISAMPLED,
    };
    uint32_t shape = row->offset;
    uint32_t want = shape & (DGPB_SHAPE_DIM_MASK | DGPB_SHAPE_ARRAYED | DGPB_SHAPE_MULTISAMPLED);
    uint32_t given = dgpb_run_format_sample_type(p->format);
    const char *format = dgpb_run_format_name(p->format);
    char text[96];
    if (p->dim >= DGPB_RUN_DIM_COUNT)
        return DGPB_OK; /* run_check_texture says so */
    if (row->kind == DGPB_KIND_RW_TEXTURE &&
        (p->dim == DGPB_RUN_DIM_2D_MS || given == DGPB_SAMPLE_DEPTH))
        return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                             "storage texture '%s': the runner gives storage textures of colour "
                             "formats, one sample each (%s %s given)",
                             p->name, format ? format : "?", dgpb_run_dim_name(p->dim));
    if (!DGPB_SHAPE_DIM_OF(shape))
        return DGPB_OK;
    if ((shape & DGPB_SHAPE_MULTISAMPLED) && (shape & DGPB_SHAPE_ARRAYED))
        return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                             "texture '%s' is a multisampled array texture (%s), which the runner "
                             "cannot give",
                             p->name, dgpb_shape_text(shape, text, sizeof text));
    if (dims[p->dim] != want)
        return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                             "texture '%s' is a %s texture in the bundle (%s), the request gives a "
                             "%s one (--texture NAME=FORMAT:SIZE:DIM says which)",
                             p->name, shape_dim_text(shape),
                             dgpb_shape_text(shape, text, sizeof text), dgpb_run_dim_name(p->dim));
    uint32_t sample = DGPB_SHAPE_SAMPLE_OF(shape);
    if (sample && given && sample != given)
        return dgpb_diag_set(
            d, DGPB_ERR_RUN_KIND, -1,
            "texture '%s' returns %s texels in the bundle (%s), the request gives %s, a %s "
            "format%s",
            p->name, dgpb_sample_type_name(sample), dgpb_shape_text(shape, text, sizeof text),
            format, dgpb_sample_type_name(given),
            sample == DGPB_SAMPLE_DEPTH  ? " (a depth texture takes depth32float or depth16unorm)"
            : given == DGPB_SAMPLE_DEPTH ? " (a depth format is for depth textures only)"
                                         : "");
    return DGPB_OK;
}

/* Checks one request parameter against its row. */
static int check_param(const dgpb_run_param *p, const dgpb_param_view *row, dgpb_diag *d)
{
    uint32_t kind = row->kind;
    bool value = kind == DGPB_KIND_VALUE;
    bool fits = p->kind == DGPB_RUN_KIND_ANY || p->kind == kind ||
                (p->kind == DGPB_RUN_KIND_RESOURCE && !value && kind != DGPB_KIND_SAMPLER);
    if (!fits)
        return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                             "parameter '%s' is a %s in the bundle, the request gives a %s",
                             p->name, kind_text(kind), kind_text(p->kind));
    switch (kind) {
    case DGPB_KIND_VALUE:
        if (!p->input)
            return dgpb_diag_set(d, DGPB_ERR_RUN_MISSING, -1,
                                 "value '%s' (%u bytes) is given no bytes", p->name, row->size);
        if (dgpb_run_value_place(p, row->size, NULL))
            return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                                 "value '%s' is %u bytes in the bundle, the request gives %zu%s",
                                 p->name, row->size, p->size,
                                 p->matrix_rows ? " (a matrix, by rows)" : "");
        return DGPB_OK;
    case DGPB_KIND_TEXTURE:
    case DGPB_KIND_RW_TEXTURE:
    case DGPB_KIND_TEXTURE_SAMPLER:
        return check_texture_shape(p, row, d) ? DGPB_ERR_RUN_KIND : run_check_texture(p, d);
    case DGPB_KIND_SAMPLER:
        return DGPB_OK;
    case DGPB_KIND_INPUT_ATTACHMENT:
        return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                             "parameter '%s' is an input attachment: the render pass's own "
                             "attachment, which a request cannot give",
                             p->name);
    default:
        if (p->format)
            return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1, "parameter '%s' is a %s, not a texture",
                                 p->name, kind_text(kind));
        if (kind == DGPB_KIND_TEXEL_BUFFER || kind == DGPB_KIND_RW_TEXEL_BUFFER) {
            /* Whole texels of the view's format (docs/run.md, "Texel buffers"). */
            const char *name;
            uint32_t format = run_texel_buffer_format(row, &name);
            size_t bytes = run_param_bytes(p), texel = dgpb_run_format_texel_size(format);
            char text[96];
            if (!format)
                return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                                     "texel buffer '%s' (%s) has the texel format %s, which the "
                                     "runner has no texel buffer of",
                                     p->name, dgpb_shape_text(row->offset, text, sizeof text),
                                     name);
            if (!bytes && p->input)
                bytes = p->input_size;
            if (bytes % texel)
                return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                                     "texel buffer '%s' holds %s texels of %zu bytes, the request "
                                     "gives %zu bytes",
                                     p->name, name, texel, bytes);
        }
        if (p->size && p->input && p->input_size > p->size)
            return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                                 "buffer '%s': %zu bytes of input do not fit its %zu bytes",
                                 p->name, p->input_size, p->size);
        if (!run_param_bytes(p) && !p->input)
            return dgpb_diag_set(d, DGPB_ERR_RUN_MISSING, -1,
                                 "buffer '%s' is given neither bytes nor a size", p->name);
        return DGPB_OK;
    }
}

/* The control points of a hull entry's patches (its input patch, or else its output
   control points), read from its SPIR-V; 0 when the code does not say. */
static uint32_t patch_points(const dgpb_target_view *t, const dgpb_entry_view *hull)
{
    spirv_stage_modes m;
    if (t->code_format_id != DGPB_CODE_FORMAT_SPIRV ||
        spirv_stage_read(hull->code.data, hull->code.size, &m, NULL))
        return 0;
    return m.input_patch ? m.input_patch : m.output_vertices;
}

/*
 * The draw a request asks for fits its pipeline: vertices for a vertex
 * pipeline only (a whole number of patches with tessellation; its groups and
 * threads are not used), and vertex buffers for the attributes its vertex
 * entry reads (vertex_input.c); a draw runs once.
 */
static int check_draw(const dgpb_target_view *t, const dgpb_run_request *req,
                      const dgpb_entry_view *const *e, dgpb_diag *d)
{
    bool mesh = e[RUN_MAIN]->stage_id == DGPB_STAGE_MESH;
    if (req->fragment && (req->repeat > 1 || req->time))
        return dgpb_diag_set(d, DGPB_ERR_INVALID, -1,
                             "a draw runs once and is not timed (repeat and time are for "
                             "dispatches)");
    if ((!req->fragment || mesh) && req->vertices)
        return dgpb_diag_set(d, DGPB_ERR_INVALID, -1, "%s entry '%s' %s groups, not vertices",
                             dgpb_stage_name(e[RUN_MAIN]->stage_id), req->entry,
                             mesh ? "draws" : "dispatches");
    int rc = run_check_vertex_inputs(t, e[RUN_MAIN], req, d);
    if (rc || !req->fragment || mesh)
        return rc;
    uint32_t vertices = run_draw_vertices(req);
    uint32_t points = e[RUN_HULL] ? patch_points(t, e[RUN_HULL]) : 0;
    if (points && vertices % points)
        return dgpb_diag_set(d, DGPB_ERR_INVALID, -1,
                             "%u vertices are no whole number of patches: hull entry '%s' takes "
                             "patches of %u control points",
                             vertices, req->hull, points);
    return DGPB_OK;
}

int dgpb_run_check(const dgpb_target_view *t, const dgpb_run_request *req,
                   const dgpb_param_view **rows, dgpb_diag *d)
{
    const dgpb_entry_view *e[RUN_ENTRY_COUNT];
    bool render = req->fragment != NULL;
    int rc = find_entries(t, req, e, d);
    if (!rc)
        rc = check_draw(t, req, e, d);
    if (rc)
        return rc;
    if (req->param_count > DGPB_RUN_MAX_PARAMS)
        return dgpb_diag_set(d, DGPB_ERR_LIMIT, -1, "more than %u parameters", DGPB_RUN_MAX_PARAMS);
    /* A vertex pipeline that draws nothing only creates its pipeline; a mesh pipeline always
       draws (its groups default to 1, as a dispatch's). */
    bool create_only =
        render && e[RUN_MAIN]->stage_id != DGPB_STAGE_MESH && !run_draw_vertices(req);
    for (uint32_t i = 0; i < req->param_count; i++) {
        const dgpb_run_param *p = &req->params[i];
        if (rows)
            rows[i] = NULL;
        if (!p->name)
            return dgpb_diag_set(d, DGPB_ERR_INVALID, -1, "parameter %u has no name", i);
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(req->params[j].name, p->name))
                return dgpb_diag_set(d, DGPB_ERR_INVALID, -1, "parameter '%s' is given twice",
                                     p->name);
        if (run_param_is_attachment(p))
            continue; /* the draw's attachments, checked together below */
        const dgpb_param_view *row = NULL;
        const dgpb_entry_view *owner = NULL;
        for (int k = 0; k < RUN_ENTRY_COUNT && !row; k++)
            for (uint32_t j = 0; e[k] && j < e[k]->param_count && !row; j++)
                if (dgpb_str_eq(e[k]->params[j].name, p->name))
                    row = &e[k]->params[j], owner = e[k];
        if (!row) {
            dgpb_diag_set(d, DGPB_ERR_RUN_PARAM, -1, "%s '%s' has no parameter '%s'",
                          render ? "the render pipeline of entry" : "entry", req->entry, p->name);
            /* Name the rows it has, so a typo is a glance away (each name once). */
            for (int k = 0, listed = 0; d && k < RUN_ENTRY_COUNT; k++)
                for (uint32_t j = 0; e[k] && j < e[k]->param_count; j++) {
                    const dgpb_param_view *o = &e[k]->params[j];
                    bool seen = false;
                    for (int kk = 0; kk <= k && !seen; kk++)
                        for (uint32_t jj = 0; e[kk] && jj < e[kk]->param_count && !seen; jj++)
                            seen = (kk < k || jj < j) &&
                                   o->name.len == e[kk]->params[jj].name.len &&
                                   !memcmp(o->name.ptr, e[kk]->params[jj].name.ptr, o->name.len);
                    if (seen)
                        continue;
                    size_t len = strlen(d->message);
                    snprintf(d->message + len, sizeof d->message - len, "%s%.*s",
                             listed++ ? ", " : "; its parameters: ", (int)o->name.len, o->name.ptr);
                }
            return DGPB_ERR_RUN_PARAM;
        }
        if (row->flags & DGPB_FLAG_ABSENT)
            return dgpb_diag_set(d, DGPB_ERR_RUN_PARAM, -1,
                                 "parameter '%s' of entry '%.*s' is absent from target '%s': "
                                 "a DREAM_TARGET_* guard leaves it out of this target's code, "
                                 "so nothing is bound there",
                                 p->name, (int)owner->name.len, owner->name.ptr,
                                 dgpb_target_name(t->id));
        if ((rc = check_param(p, row, d)))
            return rc;
        if (row->kind == DGPB_KIND_RW_TEXTURE &&
            (rc = run_check_storage_format(t, owner, row, p, d)))
            return rc;
        if (row->kind == DGPB_KIND_UNIFORM_BUFFER && (rc = run_check_block(t, owner, row, req, d)))
            return rc;
        if (rows)
            rows[i] = row;
    }
    /* Every row must be given something, but samplers, which the host makes itself (a
       render request that draws nothing only creates the pipeline), and values, which are
       zero unless given, as a field of a block is (a pipeline constant keeps the code's
       default: docs/run.md, "Values"). */
    for (int k = 0; k < RUN_ENTRY_COUNT && !create_only; k++)
        for (uint32_t j = 0; e[k] && j < e[k]->param_count; j++) {
            const dgpb_param_view *row = &e[k]->params[j];
            if ((row->flags & DGPB_FLAG_ABSENT) || row->kind == DGPB_KIND_SAMPLER ||
                row->kind == DGPB_KIND_INPUT_ATTACHMENT ||
                row->kind == DGPB_KIND_VALUE || run_param_index(req, row) >= 0 ||
                run_block_covered(e[k], row, req))
                continue; /* an input attachment reads the render's colour attachment */
            const dgpb_param_view *block = run_block_of_field(e[k], row);
            if (block && run_param_index(req, block) >= 0)
                continue; /* a field of a block given as a whole */
            return dgpb_diag_set(d, DGPB_ERR_RUN_MISSING, -1,
                                 "parameter '%.*s' (a %s) of entry '%.*s' is given nothing",
                                 (int)row->name.len, row->name.ptr, kind_text(row->kind),
                                 (int)e[k]->name.len, e[k]->name.ptr);
        }
    /* The draw's attachments: of one extent, one for every target its fragment entry writes. */
    return run_check_attachments(t, e[RUN_FRAGMENT], req, create_only, d);
}

int dgpb_run_load_bundle(const char *path, uint32_t backend, uint8_t **bytes, dgpb_bundle **bundle,
                         const dgpb_target_view **target, dgpb_diag *d)
{
    size_t size = 0;
    *bytes = NULL;
    *bundle = NULL;
    int rc = dgpb_file_read(path, DGPB_MAX_BUNDLE_SIZE, bytes, &size, d);
    if (!rc)
        rc = dgpb_bundle_open(*bytes, size, 0, bundle, d);
    if (!rc)
        rc = dgpb_bundle_find_backend(*bundle, backend, target, d);
    if (rc) {
        dgpb_diag_set_file(d, path);
        dgpb_bundle_close(*bundle);
        dgpb_free(*bytes);
        *bundle = NULL;
        *bytes = NULL;
    }
    return rc;
}

void dgpb_run_result_free(dgpb_run_result *res)
{
    if (!res)
        return;
    for (uint32_t i = 0; i < DGPB_RUN_MAX_PARAMS; i++)
        dgpb_free(res->outputs[i].data);
    dgpb_free(res->times_ms);
    memset(res, 0, sizeof *res);
}

/* ---- the runner ---------------------------------------------------------- */

int dgpb_runner_create(const dgpb_runner_desc *desc, dgpb_runner **out, dgpb_diag *d)
{
    *out = NULL;
    dgpb_runner *r = mem_calloc(1, sizeof *r);
    if (!r)
        return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    r->backend = desc->backend;
    dgpb_diag local;
    dgpb_diag_clear(&local);
    int rc;
    if (desc->backend == DGPB_BACKEND_VULKAN)
        rc = run_vulkan_create(desc, &r->host, &r->ops, &local);
    else if (desc->backend == DGPB_BACKEND_CUDA)
        rc = run_cuda_create(desc, &r->host, &r->ops, &local);
    else
        rc = dgpb_diag_set(&local, DGPB_ERR_UNSUPPORTED, -1, "no host runs backend '%s'",
                           dgpb_backend_name(desc->backend) ? dgpb_backend_name(desc->backend)
                                                            : "?");
    if (rc) {
        if (d)
            *d = local;
        dgpb_free(r);
        return rc;
    }
    *out = r;
    return DGPB_OK;
}

void dgpb_runner_destroy(dgpb_runner *r)
{
    if (!r)
        return;
    if (r->ops)
        r->ops->destroy(r->host);
    for (uint32_t i = 0; i < r->bundle_count; i++) {
        dgpb_bundle_close(r->bundles[i].b);
        dgpb_free(r->bundles[i].bytes);
        dgpb_free(r->bundles[i].path);
        dgpb_free(r->bundles[i].failure);
    }
    dgpb_free(r);
}

const char *dgpb_runner_device_name(const dgpb_runner *r)
{
    return r->ops->device_name(r->host);
}

const char *dgpb_runner_driver(const dgpb_runner *r)
{
    return r->ops->driver(r->host);
}

uint32_t dgpb_runner_pipeline_count(const dgpb_runner *r)
{
    return r->ops->pipeline_count(r->host);
}

/* The bundle at `path`: loaded before, or now. NULL with the (cached) failure in `d`. */
static run_bundle *get_bundle(dgpb_runner *r, const char *path, dgpb_diag *d)
{
    for (uint32_t i = 0; i < r->bundle_count; i++)
        if (!strcmp(r->bundles[i].path, path)) {
            run_bundle *bd = &r->bundles[i];
            if (bd->code)
                *d = *bd->failure;
            return bd->code ? NULL : bd;
        }
    if (r->bundle_count == MAX_BUNDLES) {
        dgpb_diag_set(d, DGPB_ERR_LIMIT, -1, "more than %d bundles in one runner", MAX_BUNDLES);
        return NULL;
    }
    run_bundle *bd = &r->bundles[r->bundle_count];
    memset(bd, 0, sizeof *bd);
    if (!(bd->path = mem_alloc(strlen(path) + 1))) {
        dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
        return NULL;
    }
    strcpy(bd->path, path);
    r->bundle_count++;
    bd->code = dgpb_run_load_bundle(path, r->backend, &bd->bytes, &bd->b, &bd->t, d);
    if (bd->code) {
        if ((bd->failure = mem_alloc(sizeof *bd->failure)))
            *bd->failure = *d;
        else
            bd->code = DGPB_OK, r->bundle_count--, dgpb_free(bd->path); /* tried again next time */
        return NULL;
    }
    return bd;
}

int dgpb_runner_run(dgpb_runner *r, const char *bundle_path, const dgpb_run_request *req,
                    dgpb_run_result *res, dgpb_diag *diag)
{
    memset(res, 0, sizeof *res);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    const dgpb_param_view *rows[DGPB_RUN_MAX_PARAMS];
    const dgpb_entry_view *entries[RUN_ENTRY_COUNT] = {NULL};
    run_bundle *bd = get_bundle(r, bundle_path, &d);
    int rc = bd ? dgpb_run_check(bd->t, req, rows, &d) : d.code;
    if (!rc) {
        const char *names[RUN_ENTRY_COUNT];
        run_entry_names(req, names);
        for (int k = 0; k < RUN_ENTRY_COUNT; k++)
            if (names[k])
                dgpb_target_find_entry(bd->t, names[k], &entries[k], NULL);
        rc = r->ops->run(r->host, bundle_path, bd->t, entries, req, rows, res, &d);
    }
    if (rc && diag)
        *diag = d;
    return rc;
}
