/*
 * src/run/attachments.c - the attachments of a draw (docs/run.md, "Drawing"):
 * its colour attachments, in order, and its depth attachment with the depth
 * test's compare op by name; checked against each other (one extent) and
 * against the targets the fragment entry's code writes (read from its
 * SPIR-V: SV_Target<i> is the Output variable of Location i), for the
 * runner's checks (run.c) and the Vulkan host's pipelines. See dgpb/run.h.
 */
#include <stdio.h>
#include <string.h>

#include "dgpb/alloc.h"
#include "dgpb/format.h"
#include "run/run_internal.h"
#include "code/stage_interface.h"

static const char *const compare_names[DGPB_RUN_COMPARE_COUNT] = {
    [DGPB_RUN_COMPARE_LESS] = "less",
    [DGPB_RUN_COMPARE_NEVER] = "never",
    [DGPB_RUN_COMPARE_EQUAL] = "equal",
    [DGPB_RUN_COMPARE_LESS_OR_EQUAL] = "less_or_equal",
    [DGPB_RUN_COMPARE_GREATER] = "greater",
    [DGPB_RUN_COMPARE_NOT_EQUAL] = "not_equal",
    [DGPB_RUN_COMPARE_GREATER_OR_EQUAL] = "greater_or_equal",
    [DGPB_RUN_COMPARE_ALWAYS] = "always"};

const char *dgpb_run_compare_name(uint32_t compare)
{
    return compare < DGPB_RUN_COMPARE_COUNT ? compare_names[compare] : NULL;
}

int dgpb_run_compare_from_name(const char *name)
{
    for (int i = 0; i < DGPB_RUN_COMPARE_COUNT; i++)
        if (!strcmp(name, compare_names[i]))
            return i;
    return -1;
}

uint32_t run_color_attachments(const dgpb_run_request *req,
                               const dgpb_run_param *out[DGPB_RUN_MAX_COLOR_ATTACHMENTS])
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < req->param_count; i++)
        if (req->params[i].kind == DGPB_RUN_KIND_COLOR_ATTACHMENT &&
            n < DGPB_RUN_MAX_COLOR_ATTACHMENTS)
            out[n++] = &req->params[i];
    return n;
}

const dgpb_run_param *run_depth_attachment(const dgpb_run_request *req)
{
    for (uint32_t i = 0; i < req->param_count; i++)
        if (req->params[i].kind == DGPB_RUN_KIND_DEPTH_ATTACHMENT)
            return &req->params[i];
    return NULL;
}

int run_fragment_targets(uint32_t code_format, const dgpb_entry_view *fragment,
                         uint32_t *written, uint32_t sample_types[DGPB_RUN_MAX_COLOR_ATTACHMENTS],
                         dgpb_diag *d)
{
    *written = 0;
    code_interface_var *vars = NULL;
    uint32_t n = 0;
    dgpb_diag local;
    dgpb_diag_clear(&local);
    int rc = code_interface_read((dgpb_code_format)code_format, fragment->code.data,
                                 fragment->code.size, true, &vars, &n, &local);
    if (rc)
        return dgpb_diag_set(d, rc, -1, "fragment entry '%.*s': %s", (int)fragment->name.len,
                             fragment->name.ptr, local.message);
    for (uint32_t i = 0; i < n && !rc; i++) {
        uint32_t at = vars[i].location;
        if (at >= DGPB_RUN_MAX_COLOR_ATTACHMENTS)
            rc = dgpb_diag_set(d, DGPB_ERR_UNSUPPORTED, -1,
                               "fragment entry '%.*s' writes '%s' at location %u, past the "
                               "runner's %d colour attachments",
                               (int)fragment->name.len, fragment->name.ptr, vars[i].name, at,
                               DGPB_RUN_MAX_COLOR_ATTACHMENTS);
        else {
            *written |= 1u << at;
            if (sample_types)
                sample_types[at] = vars[i].scalar == 'f'   ? DGPB_SAMPLE_FLOAT
                                   : vars[i].scalar == 'i' ? DGPB_SAMPLE_SINT
                                   : vars[i].scalar == 'u' ? DGPB_SAMPLE_UINT
                                                           : 0;
        }
    }
    dgpb_free(vars);
    return rc;
}

/* Checks one attachment parameter: a 2D texture of a colour (or depth) format. */
static int check_one(const dgpb_run_param *p, bool depth, dgpb_diag *d)
{
    int rc = run_check_texture(p, d);
    if (rc)
        return rc;
    bool is_depth = dgpb_run_format_sample_type(p->format) == DGPB_SAMPLE_DEPTH;
    if (p->dim != DGPB_RUN_DIM_2D || is_depth != depth)
        return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                             "%s attachment '%s' is a 2d texture of a %s format (%s %s given)",
                             depth ? "depth" : "colour", p->name,
                             depth ? "depth" : "colour", dgpb_run_format_name(p->format),
                             dgpb_run_dim_name(p->dim));
    return DGPB_OK;
}

int run_check_attachments(const dgpb_target_view *t, const dgpb_entry_view *fragment,
                          const dgpb_run_request *req, bool create_only, dgpb_diag *d)
{
    const dgpb_run_param *first = NULL, *depth = NULL;
    uint32_t colors = 0;
    for (uint32_t i = 0; i < req->param_count; i++) {
        const dgpb_run_param *p = &req->params[i];
        bool is_depth = p->kind == DGPB_RUN_KIND_DEPTH_ATTACHMENT;
        if (!run_param_is_attachment(p))
            continue;
        if (!req->fragment)
            return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                                 "'%s': a %s attachment needs a render request", p->name,
                                 is_depth ? "depth" : "colour");
        int rc = check_one(p, is_depth, d);
        if (rc)
            return rc;
        if (is_depth && depth)
            return dgpb_diag_set(d, DGPB_ERR_INVALID, -1,
                                 "'%s' and '%s': a draw has one depth attachment", depth->name,
                                 p->name);
        if (!is_depth && colors == DGPB_RUN_MAX_COLOR_ATTACHMENTS)
            return dgpb_diag_set(d, DGPB_ERR_LIMIT, -1,
                                 "colour attachment '%s': a draw has at most %d", p->name,
                                 DGPB_RUN_MAX_COLOR_ATTACHMENTS);
        if (first && (p->width != first->width || p->height != first->height))
            return dgpb_diag_set(d, DGPB_ERR_RUN_SIZE, -1,
                                 "attachment '%s' is %ux%u, attachment '%s' %ux%u: a draw's "
                                 "attachments have one extent",
                                 p->name, p->width, p->height, first->name, first->width,
                                 first->height);
        if (!first)
            first = p;
        if (is_depth)
            depth = p;
        else
            colors++;
    }
    if (!req->fragment)
        return DGPB_OK;
    if (depth && req->depth_compare >= DGPB_RUN_COMPARE_COUNT)
        return dgpb_diag_set(d, DGPB_ERR_INVALID, -1,
                             "depth attachment '%s': compare op %u is none of the %d",
                             depth->name, req->depth_compare, DGPB_RUN_COMPARE_COUNT);
    if (depth && !depth->input && !(req->depth_clear >= 0.0f && req->depth_clear <= 1.0f))
        return dgpb_diag_set(d, DGPB_ERR_INVALID, -1,
                             "depth attachment '%s': it is cleared to a depth from 0 to 1 (%g "
                             "given)",
                             depth->name, (double)req->depth_clear);
    if (create_only)
        return DGPB_OK;
    if (!first)
        return dgpb_diag_set(d, DGPB_ERR_RUN_MISSING, -1,
                             "a draw needs a colour or depth attachment to draw into");
    /* Each target the fragment entry writes, SV_Target<i>, is colour attachment i, of the
       target's sample type; an attachment no target writes keeps its texels. */
    uint32_t written = 0, types[DGPB_RUN_MAX_COLOR_ATTACHMENTS] = {0};
    int rc = run_fragment_targets(t->code_format_id, fragment, &written, types, d);
    if (rc)
        return rc;
    const dgpb_run_param *color[DGPB_RUN_MAX_COLOR_ATTACHMENTS];
    run_color_attachments(req, color);
    for (uint32_t k = 0; k < DGPB_RUN_MAX_COLOR_ATTACHMENTS; k++) {
        if (!(written & (1u << k)))
            continue;
        if (k >= colors)
            return dgpb_diag_set(d, DGPB_ERR_RUN_MISSING, -1,
                                 "fragment entry '%.*s' writes SV_Target%u, and the draw has %u "
                                 "colour attachment%s: give one per target, in order of target",
                                 (int)fragment->name.len, fragment->name.ptr, k, colors,
                                 colors == 1 ? "" : "s");
        uint32_t given = dgpb_run_format_sample_type(color[k]->format);
        if (types[k] && types[k] != given)
            return dgpb_diag_set(d, DGPB_ERR_RUN_KIND, -1,
                                 "fragment entry '%.*s' writes %s values to SV_Target%u, but "
                                 "colour attachment '%s' is %s, a %s format",
                                 (int)fragment->name.len, fragment->name.ptr,
                                 dgpb_sample_type_name(types[k]), k, color[k]->name,
                                 dgpb_run_format_name(color[k]->format),
                                 dgpb_sample_type_name(given));
    }
    return DGPB_OK;
}
