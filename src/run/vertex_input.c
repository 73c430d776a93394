/*
 * src/run/vertex_input.c - the vertex buffers of a draw (docs/run.md,
 * "Vertex buffers"): the vertex formats by name, the attributes a vertex
 * entry reads (read from its SPIR-V: names, locations and types, never
 * guessed), and a request's vertex buffers checked against them, for the
 * runner's checks (run.c) and the Vulkan host's pipelines. See dgpb/run.h.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/alloc.h"
#include "dgpb/format.h"
#include "run/run_internal.h"
#include "code/stage_interface.h"

/* ---- formats --------------------------------------------------------------- */

/* Format f (1 and up) is components (f - 1) % 4 + 1 of scalar (f - 1) / 4. */
static const char *const vertex_format_names[DGPB_RUN_VERTEX_COUNT] = {
    NULL,  "float", "float2", "float3", "float4", "int",  "int2",
    "int3", "int4", "uint",   "uint2",  "uint3",  "uint4"};
static const uint8_t vertex_scalars[3] = {DGPB_SAMPLE_FLOAT, DGPB_SAMPLE_SINT, DGPB_SAMPLE_UINT};

const char *dgpb_run_vertex_format_name(uint32_t format)
{
    return format < DGPB_RUN_VERTEX_COUNT ? vertex_format_names[format] : NULL;
}

int dgpb_run_vertex_format_from_name(const char *name)
{
    for (int i = 1; i < DGPB_RUN_VERTEX_COUNT; i++)
        if (!strcmp(name, vertex_format_names[i]))
            return i;
    return -1;
}

uint32_t dgpb_run_vertex_format_components(uint32_t format)
{
    return format && format < DGPB_RUN_VERTEX_COUNT ? (format - 1) % 4 + 1 : 0;
}

uint32_t dgpb_run_vertex_format_size(uint32_t format)
{
    return 4 * dgpb_run_vertex_format_components(format);
}

uint32_t dgpb_run_vertex_format_sample_type(uint32_t format)
{
    return format && format < DGPB_RUN_VERTEX_COUNT ? vertex_scalars[(format - 1) / 4] : 0;
}

/* The vertex format of a variable's type: a 32-bit scalar or vector; NONE otherwise. */
static uint32_t format_of(const code_interface_var *v)
{
    int scalar = v->scalar == 'f' ? 0 : v->scalar == 'i' ? 1 : v->scalar == 'u' ? 2 : -1;
    if (scalar < 0 || v->bits != 32 || v->columns != 1 || v->array || v->components < 1 ||
        v->components > 4)
        return DGPB_RUN_VERTEX_NONE;
    return 1 + 4 * (uint32_t)scalar + (v->components - 1);
}

/* A variable's type as Slang spells it: "float3", "half2", "float4x4", "int[2]". */
static void type_text(const code_interface_var *v, char *out, size_t n)
{
    const char *scalar = "unknown";
    if (v->scalar == 'f')
        scalar = v->bits == 16 ? "half" : v->bits == 64 ? "double" : "float";
    else if (v->scalar == 'i')
        scalar = v->bits == 16 ? "int16_t" : v->bits == 64 ? "int64_t" : "int";
    else if (v->scalar == 'u')
        scalar = v->bits == 16 ? "uint16_t" : v->bits == 64 ? "uint64_t" : "uint";
    size_t len = (size_t)snprintf(out, n, "%s", scalar);
    if (v->columns > 1 && len < n) /* SPIR-V's columns of `components` rows: Slang's RxC */
        len += (size_t)snprintf(out + len, n - len, "%ux%u", v->components, v->columns);
    else if (v->components > 1 && len < n)
        len += (size_t)snprintf(out + len, n - len, "%u", v->components);
    if (v->array && len < n)
        snprintf(out + len, n - len, "[%u]", v->array);
}

/* ---- the code's attributes ------------------------------------------------- */

int run_vertex_attributes(uint32_t code_format, const dgpb_entry_view *e,
                          dgpb_run_vertex_attribute **attrs, uint32_t *count, dgpb_diag *d)
{
    *attrs = NULL;
    *count = 0;
    if (e->stage_id != DGPB_STAGE_VERTEX)
        return DGPB_OK;
    code_interface_var *vars = NULL;
    uint32_t n = 0;
    dgpb_diag local;
    dgpb_diag_clear(&local);
    int rc = code_interface_read((dgpb_code_format)code_format, e->code.data, e->code.size, false,
                                 &vars, &n, &local);
    if (rc)
        return dgpb_diag_set(d, rc, -1, "vertex entry '%.*s': %s", (int)e->name.len, e->name.ptr,
                             local.message);
    if (n && !(*attrs = mem_calloc(n, sizeof **attrs))) {
        dgpb_free(vars);
        return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    for (uint32_t i = 0; i < n; i++) {
        dgpb_run_vertex_attribute *a = &(*attrs)[i];
        snprintf(a->name, sizeof a->name, "%s", vars[i].name);
        a->location = vars[i].location;
        a->format = format_of(&vars[i]);
        type_text(&vars[i], a->type, sizeof a->type);
    }
    *count = n;
    dgpb_free(vars);
    return DGPB_OK;
}

int dgpb_run_vertex_attributes(const dgpb_target_view *t, const char *entry,
                               dgpb_run_vertex_attribute **attrs, uint32_t *count, dgpb_diag *d)
{
    *attrs = NULL;
    *count = 0;
    const dgpb_entry_view *e;
    int rc = dgpb_target_find_entry(t, entry, &e, d);
    if (rc)
        return rc;
    if (e->stage_id != DGPB_STAGE_VERTEX)
        return dgpb_diag_set(d, DGPB_ERR_RUN_STAGE, -1,
                             "entry '%s' is a %s entry: only a vertex entry reads vertex "
                             "attributes",
                             entry, dgpb_stage_name(e->stage_id));
    dgpb_diag local;
    dgpb_diag_clear(&local);
    if (dgpb_blob_verify(&e->code, &local))
        return dgpb_diag_set(d, local.code, -1, "entry '%s': %s", entry, local.message);
    return run_vertex_attributes(t->code_format_id, e, attrs, count, d);
}

int run_vertex_attribute_find(const dgpb_run_vertex_attribute *attrs, uint32_t count,
                              const char *name)
{
    for (uint32_t i = 0; i < count; i++)
        if (!strcmp(attrs[i].name, name))
            return (int)i;
    int found = -1;
    size_t len = strlen(name);
    for (uint32_t i = 0; i < count; i++) {
        size_t n = strlen(attrs[i].name);
        if (n > len && attrs[i].name[n - len - 1] == '.' &&
            !strcmp(attrs[i].name + n - len, name)) {
            if (found >= 0)
                return -2;
            found = (int)i;
        }
    }
    return found;
}

/* ---- a request's vertex buffers --------------------------------------------- */

uint32_t run_draw_vertices(const dgpb_run_request *req)
{
    if (!req->vertex_input_count || !req->vertex_inputs)
        return req->vertices;
    uint32_t size = dgpb_run_vertex_format_size(req->vertex_inputs[0].format);
    return size ? (uint32_t)(req->vertex_inputs[0].size / size) : 0;
}

/* "input.position (location 0, float3), ...": the attributes, for a message. */
static void list_attributes(const dgpb_run_vertex_attribute *a, uint32_t n, char *out, size_t size)
{
    size_t len = 0;
    out[0] = 0;
    for (uint32_t i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%s (location %u, %s)", i ? ", " : "",
                                a[i].name[0] ? a[i].name : "(no name)", a[i].location, a[i].type);
}

/* Checks one vertex buffer against the attribute it names; its vertices in *vertices. */
static int check_input(const dgpb_run_vertex_input *in, const dgpb_run_vertex_attribute *a,
                       const char *entry, uint32_t *vertices, dgpb_diag *d)
{
    const char *given = dgpb_run_vertex_format_name(in->format);
    uint32_t size = dgpb_run_vertex_format_size(in->format);
    if (!given)
        return dgpb_diag_set(d, DGPB_ERR_INVALID, -1, "vertex attribute '%s': no format given",
                             in->name);
    if (in->format != a->format)
        return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                             "vertex attribute '%s': %s given, but vertex entry '%s' reads '%s' "
                             "(location %u) as %s",
                             in->name, given, entry, a->name, a->location, a->type);
    if (!in->size || in->size % size || (in->size && !in->data))
        return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                             "vertex attribute '%s': %zu bytes are no whole number of %s vertices "
                             "(%u bytes each)",
                             in->name, in->size, given, size);
    *vertices = (uint32_t)(in->size / size);
    return DGPB_OK;
}

int run_check_vertex_inputs(const dgpb_target_view *t, const dgpb_entry_view *e,
                            const dgpb_run_request *req, dgpb_diag *d)
{
    bool vertex = req->fragment && e->stage_id == DGPB_STAGE_VERTEX;
    char entry[256];
    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
    if (req->vertex_input_count && !vertex)
        return dgpb_diag_set(d, DGPB_ERR_INVALID, -1,
                             "%s entry '%s' reads no vertex buffers: they feed the vertex entry "
                             "of a render pipeline",
                             dgpb_stage_name(e->stage_id), entry);
    if (!vertex)
        return DGPB_OK;
    if (req->vertex_input_count > DGPB_RUN_MAX_VERTEX_INPUTS)
        return dgpb_diag_set(d, DGPB_ERR_LIMIT, -1, "more than %d vertex buffers",
                             DGPB_RUN_MAX_VERTEX_INPUTS);
    dgpb_run_vertex_attribute *attrs = NULL;
    uint32_t n = 0;
    int rc = run_vertex_attributes(t->code_format_id, e, &attrs, &n, d);
    if (rc)
        return rc;
    if (n > DGPB_RUN_MAX_VERTEX_INPUTS) {
        dgpb_free(attrs);
        return dgpb_diag_set(d, DGPB_ERR_UNSUPPORTED, -1,
                             "vertex entry '%s' reads %u attributes, more than the runner's %d",
                             entry, n, DGPB_RUN_MAX_VERTEX_INPUTS);
    }
    char list[1024];
    list_attributes(attrs, n, list, sizeof list);
    bool given[DGPB_RUN_MAX_VERTEX_INPUTS] = {false};
    uint32_t vertices = 0;
    const char *first = NULL;
    for (uint32_t i = 0; i < req->vertex_input_count && !rc; i++) {
        const dgpb_run_vertex_input *in = &req->vertex_inputs[i];
        int k = in->name ? run_vertex_attribute_find(attrs, n, in->name) : -1;
        if (k == -2)
            rc = dgpb_diag_set(d, DGPB_ERR_RUN_PARAM, -1,
                               "vertex attribute '%s' names several attributes of vertex entry "
                               "'%s': give the whole name (its attributes: %s)",
                               in->name, entry, list);
        else if (k < 0 && n)
            rc = dgpb_diag_set(d, DGPB_ERR_RUN_PARAM, -1,
                               "vertex entry '%s' reads no attribute '%s' (its attributes: %s)",
                               entry, in->name ? in->name : "", list);
        else if (k < 0)
            rc = dgpb_diag_set(d, DGPB_ERR_RUN_PARAM, -1,
                               "vertex entry '%s' reads no vertex attributes, so it takes no "
                               "vertex buffer ('%s' given)",
                               entry, in->name ? in->name : "");
        else if (given[k])
            rc = dgpb_diag_set(d, DGPB_ERR_INVALID, -1,
                               "vertex attribute '%s' is given twice", attrs[k].name);
        if (rc)
            break;
        given[k] = true;
        if (!attrs[k].format) {
            rc = dgpb_diag_set(d, DGPB_ERR_UNSUPPORTED, -1,
                               "vertex attribute '%s' of entry '%s' is %s, which the runner has "
                               "no vertex format of (32-bit scalars and vectors only)",
                               attrs[k].name, entry, attrs[k].type);
            break;
        }
        uint32_t count = 0;
        if ((rc = check_input(in, &attrs[k], entry, &count, d)))
            break;
        if (first && count != vertices)
            rc = dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                               "vertex attribute '%s' holds %u vertices, '%s' holds %u: every "
                               "vertex buffer of a draw holds the same vertices",
                               in->name, count, first, vertices);
        first = in->name, vertices = count;
    }
    for (uint32_t k = 0; k < n && !rc; k++)
        if (!given[k] && (req->vertex_input_count || req->vertices))
            rc = dgpb_diag_set(d, DGPB_ERR_RUN_MISSING, -1,
                               "vertex entry '%s' reads attribute '%s' (location %u, %s), which "
                               "no vertex buffer gives (its attributes: %s)",
                               entry, attrs[k].name, attrs[k].location, attrs[k].type, list);
    if (!rc && req->vertex_input_count && req->vertices && req->vertices != vertices)
        rc = dgpb_diag_set(d, DGPB_ERR_INVALID, -1,
                           "%u vertices asked for, but the vertex buffers hold %u", req->vertices,
                           vertices);
    dgpb_free(attrs);
    return rc;
}
