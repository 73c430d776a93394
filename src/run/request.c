/*
 * src/run/request.c - what a run request means, for the runner's checks
 * (run.c) and the hosts that carry it out (vulkan.c, cuda.c): texel formats
 * and texture dimensions by name, a parameter's bytes and its place in the
 * request, the groups to dispatch, a value's bytes in its row, the
 * capabilities an entry needs, and the failure that keeps the first cause.
 * See dgpb/run.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dgpb/format.h"
#include "run/run_internal.h"

int run_fail(dgpb_diag *d, int code, const char *fmt, ...)
{
    if (d->code != DGPB_OK)
        return d->code;
    va_list ap;
    va_start(ap, fmt);
    char msg[DGPB_DIAG_MESSAGE_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return dgpb_diag_set(d, code, -1, "%s", msg);
}

/* ---- formats and dimensions ---------------------------------------------- */

static const char *const format_names[DGPB_RUN_FORMAT_COUNT] = {
    NULL,         "r16float",     "r32float",    "rg32float", "rgba32float",
    "r32uint",    "rgba8unorm",   "rgba16float", "r32sint",   "rgba32uint",
    "rgba32sint", "depth32float", "depth16unorm"};
static const uint32_t texel_sizes[DGPB_RUN_FORMAT_COUNT] = {0, 2, 4,  8,  16, 4, 4,
                                                            8, 4, 16, 16, 4,  2};
static const uint8_t sample_types[DGPB_RUN_FORMAT_COUNT] = {0,
                                                            DGPB_SAMPLE_FLOAT,
                                                            DGPB_SAMPLE_FLOAT,
                                                            DGPB_SAMPLE_FLOAT,
                                                            DGPB_SAMPLE_FLOAT,
                                                            DGPB_SAMPLE_UINT,
                                                            DGPB_SAMPLE_FLOAT,
                                                            DGPB_SAMPLE_FLOAT,
                                                            DGPB_SAMPLE_SINT,
                                                            DGPB_SAMPLE_UINT,
                                                            DGPB_SAMPLE_SINT,
                                                            DGPB_SAMPLE_DEPTH,
                                                            DGPB_SAMPLE_DEPTH};
static const char *const dim_names[DGPB_RUN_DIM_COUNT] = {"2d",       "1d",         "3d",   "cube",
                                                          "2d_array", "cube_array", "2d_ms"};

const char *dgpb_run_format_name(uint32_t format)
{
    return format < DGPB_RUN_FORMAT_COUNT ? format_names[format] : NULL;
}

int dgpb_run_format_from_name(const char *name)
{
    for (int i = 1; i < DGPB_RUN_FORMAT_COUNT; i++)
        if (!strcmp(name, format_names[i]))
            return i;
    return -1;
}

uint32_t dgpb_run_format_texel_size(uint32_t format)
{
    return format < DGPB_RUN_FORMAT_COUNT ? texel_sizes[format] : 0;
}

uint32_t dgpb_run_format_sample_type(uint32_t format)
{
    return format < DGPB_RUN_FORMAT_COUNT ? sample_types[format] : 0;
}

const char *dgpb_run_dim_name(uint32_t dim)
{
    return dim < DGPB_RUN_DIM_COUNT ? dim_names[dim] : NULL;
}

int dgpb_run_dim_from_name(const char *name)
{
    for (int i = 0; i < DGPB_RUN_DIM_COUNT; i++)
        if (!strcmp(name, dim_names[i]))
            return i;
    return -1;
}

uint32_t run_texel_buffer_format(const dgpb_param_view *row, const char **name)
{
    uint32_t shape = row->offset;
    const char *n = dgpb_texel_format_name(DGPB_SHAPE_FORMAT_OF(shape));
    if (!n)
        n = DGPB_SHAPE_SAMPLE_OF(shape) == DGPB_SAMPLE_SINT   ? "r32sint"
            : DGPB_SHAPE_SAMPLE_OF(shape) == DGPB_SAMPLE_UINT ? "r32uint"
                                                              : "r32float";
    if (name)
        *name = n;
    int f = dgpb_run_format_from_name(n);
    return f < 0 ? DGPB_RUN_FORMAT_NONE : (uint32_t)f;
}

/* ---- requests ------------------------------------------------------------ */

int run_check_texture(const dgpb_run_param *p, dgpb_diag *d)
{
    uint32_t texel = dgpb_run_format_texel_size(p->format);
    uint32_t depth = p->depth ? p->depth : 1;
    uint32_t height = p->dim == DGPB_RUN_DIM_1D ? 1 : p->height;
    if (!texel || !p->width || !height || p->dim >= DGPB_RUN_DIM_COUNT)
        return dgpb_diag_set(d, DGPB_ERR_RUN_MISSING, -1, "texture '%s' needs a format and a size",
                             p->name);
    if (p->dim == DGPB_RUN_DIM_CUBE && (depth != 6 || p->width != height))
        return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                             "texture '%s': a cube has 6 square faces (%ux%ux%u given)", p->name,
                             p->width, height, depth);
    if (p->dim == DGPB_RUN_DIM_CUBE_ARRAY && (depth % 6 || p->width != height))
        return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                             "texture '%s': a cube array has 6 square faces per cube (%ux%ux%u "
                             "given)",
                             p->name, p->width, height, depth);
    if (p->dim == DGPB_RUN_DIM_2D_MS && (depth < 2 || depth > 64 || (depth & (depth - 1))))
        return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                             "texture '%s': a 2d_ms texture has 2, 4, 8, 16, 32 or 64 samples "
                             "(%u given)",
                             p->name, depth);
    if ((p->dim == DGPB_RUN_DIM_1D || p->dim == DGPB_RUN_DIM_2D) && depth != 1)
        return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                             "texture '%s': a %s texture has no depth (%u given)", p->name,
                             dgpb_run_dim_name(p->dim), depth);
    if (dgpb_run_format_sample_type(p->format) == DGPB_SAMPLE_DEPTH && p->dim != DGPB_RUN_DIM_2D &&
        p->dim != DGPB_RUN_DIM_2D_ARRAY && p->dim != DGPB_RUN_DIM_CUBE &&
        p->dim != DGPB_RUN_DIM_CUBE_ARRAY)
        return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                             "texture '%s': a depth texture (%s) is 2d, 2d_array, cube or "
                             "cube_array, not %s",
                             p->name, dgpb_run_format_name(p->format), dgpb_run_dim_name(p->dim));
    uint64_t bytes = (uint64_t)p->width * height * depth * texel;
    if (bytes != p->size)
        return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                             "texture '%s' (%s %ux%ux%u) holds %llu bytes, the request gives %zu",
                             p->name, dgpb_run_format_name(p->format), p->width, height, depth,
                             (unsigned long long)bytes, p->size);
    return DGPB_OK;
}


size_t run_param_bytes(const dgpb_run_param *p)
{
    return p->size ? p->size : p->input_size;
}

int run_param_index(const dgpb_run_request *req, const dgpb_param_view *row)
{
    for (uint32_t i = 0; i < req->param_count; i++)
        if (!run_param_is_attachment(&req->params[i]) &&
            dgpb_str_eq(row->name, req->params[i].name))
            return (int)i;
    return -1;
}

const dgpb_param_view *run_block_of_field(const dgpb_entry_view *e, const dgpb_param_view *row)
{
    if (row->kind != DGPB_KIND_VALUE || row->space == DGPB_SPACE_LAUNCH ||
        row->binding == DGPB_BINDING_INLINE || (row->flags & DGPB_FLAG_ABSENT))
        return NULL;
    for (uint32_t j = 0; j < e->param_count; j++) {
        const dgpb_param_view *b = &e->params[j];
        if (b->kind == DGPB_KIND_UNIFORM_BUFFER && !(b->flags & DGPB_FLAG_ABSENT) &&
            b->space == row->space && b->binding == row->binding)
            return b;
    }
    return NULL;
}

void run_groups(const dgpb_run_request *req, const uint32_t group_size[3], uint32_t out[3])
{
    bool given = req->groups[0] || req->groups[1] || req->groups[2];
    for (int k = 0; k < 3; k++) {
        if (given) {
            out[k] = req->groups[k] ? req->groups[k] : 1;
        } else {
            uint32_t t = req->threads[k] ? req->threads[k] : 1;
            uint32_t g = group_size[k] ? group_size[k] : 1;
            out[k] = t / g + (t % g != 0);
        }
    }
}

int dgpb_run_value_place(const dgpb_run_param *p, uint32_t row_size, uint8_t *dst)
{
    if (!p->matrix_rows) {
        if (p->size != row_size)
            return -1;
        if (dst && p->input)
            memcpy(dst, p->input, row_size);
        return 0;
    }
    uint32_t rows = p->matrix_rows;
    size_t tight = p->size / rows, stride = row_size / rows;
    if (p->size % rows || row_size % rows || stride < tight)
        return -1;
    if (dst) {
        memset(dst, 0, row_size);
        for (uint32_t r = 0; r < rows && p->input; r++)
            memcpy(dst + r * stride, p->input + r * tight, tight);
    }
    return 0;
}

/* ---- capabilities ---------------------------------------------------------- */

int run_check_capabilities(const dgpb_entry_view *e, uint64_t has, uint64_t masked,
                           const char *device, dgpb_diag *d)
{
    for (uint32_t i = 0; i < e->capability_count; i++) {
        int cap = dgpb_capability_from_name(e->capabilities[i].ptr, e->capabilities[i].len);
        bool ok = cap >= 0 && (has & (UINT64_C(1) << cap));
        bool off = cap >= 0 && (masked & (UINT64_C(1) << cap));
        if (!ok || off)
            return run_fail(d, DGPB_ERR_RUN_CAPABILITY,
                            "entry '%.*s' needs capability '%.*s', which device '%s' lacks%s",
                            (int)e->name.len, e->name.ptr, (int)e->capabilities[i].len,
                            e->capabilities[i].ptr, device,
                            off && ok ? " (masked on purpose)" : "");
    }
    return DGPB_OK;
}
