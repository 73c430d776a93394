/*
 * src/run/vulkan_render.c - a draw of the Vulkan host (vulkan_internal.h):
 * its attachments (colour attachments in the request's order, and a depth
 * attachment) created, loaded from their texels or cleared, drawn into with
 * dynamic rendering and copied back; its vertex buffers, one per attribute
 * the vertex entry reads, bound in the order of the pipeline's bindings
 * (vulkan_pipeline.c); vkCmdDraw for a vertex pipeline,
 * vkCmdDrawMeshTasksEXT for a mesh pipeline. docs/run.md, "Drawing".
 */
#include <string.h>

#include "dgpb/alloc.h"
#include "run/vulkan_internal.h"

/* The depth attachment while drawing: read by the depth test, written after it. */
#define DEPTH_LAYOUT VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
#define DEPTH_ACCESS                                                                               \
    (VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT)
#define DEPTH_STAGES                                                                               \
    (VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT)

/* The vertex buffers of a vertex pipeline: binding i holds the request's vertices of the
   entry's attribute i (vertex_input.c found them all when the request was checked). */
static bool make_vertex_buffers(vk_host *vk, const dgpb_target_view *t, const dgpb_entry_view *e,
                                const dgpb_run_request *c, vk_draw *draw, dgpb_diag *r)
{
    dgpb_run_vertex_attribute *attrs = NULL;
    uint32_t n = 0;
    if (run_vertex_attributes(t->code_format_id, e, &attrs, &n, r))
        return false;
    bool ok = n <= DGPB_RUN_MAX_VERTEX_INPUTS;
    if (!ok)
        run_fail(r, DGPB_ERR_UNSUPPORTED, "vertex entry '%.*s' reads more than %d attributes",
                 (int)e->name.len, e->name.ptr, DGPB_RUN_MAX_VERTEX_INPUTS);
    for (uint32_t i = 0; ok && i < n; i++) {
        const dgpb_run_vertex_input *in = NULL;
        for (uint32_t k = 0; k < c->vertex_input_count && !in; k++)
            if (run_vertex_attribute_find(attrs, n, c->vertex_inputs[k].name) == (int)i)
                in = &c->vertex_inputs[k];
        if (!in) {
            ok = false;
            run_fail(r, DGPB_ERR_RUN_MISSING, "no vertex buffer gives attribute '%s'",
                     attrs[i].name);
            break;
        }
        resource *res = &draw->vertex_buffers[draw->vertex_buffer_count++];
        res->index = -1;
        if (!(ok = vk_make_buffer(vk, res, in->size, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, r)))
            break;
        memcpy(res->map, in->data, in->size);
    }
    dgpb_free(attrs);
    return ok;
}

bool vk_draw_prepare(vk_host *vk, const pipeline *p, const dgpb_target_view *t,
                     const dgpb_entry_view *const *entries, const dgpb_run_request *c,
                     bool local_read, vk_draw *draw, dgpb_diag *r)
{
    memset(draw, 0, sizeof *draw);
    for (uint32_t i = 0; i < DGPB_RUN_MAX_COLOR_ATTACHMENTS; i++)
        draw->colors[i].index = -1;
    draw->depth.index = -1;
    draw->local_read = local_read;
    draw->color_layout = local_read ? VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR
                                    : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    draw->vertices = run_draw_vertices(c);
    const dgpb_run_param *colors[DGPB_RUN_MAX_COLOR_ATTACHMENTS];
    draw->color_count = run_color_attachments(c, colors);
    for (uint32_t i = 0; i < draw->color_count; i++) {
        draw->colors[i].index = (int)(colors[i] - c->params);
        if (!vk_make_image(vk, &draw->colors[i], colors[i],
                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                               (local_read ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT : 0),
                           r))
            return false;
    }
    const dgpb_run_param *depth = run_depth_attachment(c);
    if (depth) {
        draw->depth.index = (int)(depth - c->params);
        if (!vk_make_image(vk, &draw->depth, depth, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, r))
            return false;
    }
    if (!draw->color_count && !depth) {
        run_fail(r, DGPB_ERR_RUN_MISSING, "a draw needs a colour or depth attachment to draw into");
        return false;
    }
    return p->mesh || !p->vertex_bindings ||
           make_vertex_buffers(vk, t, entries[RUN_MAIN], c, draw, r);
}

/* Brings an attachment from nothing (cleared by the render) or from its uploaded texels to
   `layout`, for `access` by `stages`. */
static void load_attachment(VkCommandBuffer cmd, resource *res, bool loaded, VkImageLayout layout,
                            VkAccessFlags access, VkPipelineStageFlags stages)
{
    if (!loaded) {
        vk_image_barrier(cmd, res->img, res->aspect, VK_IMAGE_LAYOUT_UNDEFINED, layout, 0, access,
                         VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, stages);
        return;
    }
    vk_image_barrier(cmd, res->img, res->aspect, VK_IMAGE_LAYOUT_UNDEFINED,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vk_copy_image(cmd, res, true);
    vk_image_barrier(cmd, res->img, res->aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, layout,
                     VK_ACCESS_TRANSFER_WRITE_BIT, access, VK_PIPELINE_STAGE_TRANSFER_BIT, stages);
}

/* After the draw: an attachment copied to its staging buffer. */
static void store_attachment(VkCommandBuffer cmd, resource *res, VkImageLayout layout,
                             VkAccessFlags access, VkPipelineStageFlags stages)
{
    vk_image_barrier(cmd, res->img, res->aspect, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                     access, VK_ACCESS_TRANSFER_READ_BIT, stages, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vk_copy_image(cmd, res, false);
}

void vk_draw_record(vk_host *vk, VkCommandBuffer cmd, const pipeline *p,
                    const dgpb_run_request *c, vk_draw *draw, dgpb_run_result *result)
{
    /* Each attachment starts as its input (loaded), or cleared: colour to zero, depth to the
       request's depth_clear. */
    VkAccessFlags color_access = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                                 (draw->local_read ? VK_ACCESS_INPUT_ATTACHMENT_READ_BIT : 0);
    VkPipelineStageFlags color_stages =
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
        (draw->local_read ? VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT : 0);
    VkRenderingAttachmentInfo colors[DGPB_RUN_MAX_COLOR_ATTACHMENTS];
    uint32_t width = 0, height = 0;
    for (uint32_t i = 0; i < draw->color_count; i++) {
        const dgpb_run_param *cp = &c->params[draw->colors[i].index];
        load_attachment(cmd, &draw->colors[i], cp->input != NULL, draw->color_layout,
                        color_access, color_stages);
        colors[i] = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = draw->colors[i].view,
            .imageLayout = draw->color_layout,
            .loadOp = cp->input ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
        width = cp->width, height = cp->height;
    }
    VkRenderingAttachmentInfo depth = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    if (draw->depth.img) {
        const dgpb_run_param *dp = &c->params[draw->depth.index];
        load_attachment(cmd, &draw->depth, dp->input != NULL, DEPTH_LAYOUT, DEPTH_ACCESS,
                        DEPTH_STAGES);
        depth.imageView = draw->depth.view;
        depth.imageLayout = DEPTH_LAYOUT;
        depth.loadOp = dp->input ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
        depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        depth.clearValue.depthStencil.depth = c->depth_clear;
        width = dp->width, height = dp->height;
    }
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                          .renderArea = {{0, 0}, {width, height}},
                          .layerCount = 1,
                          .colorAttachmentCount = draw->color_count,
                          .pColorAttachments = colors,
                          .pDepthAttachment = draw->depth.img ? &depth : NULL};
    vk->begin_rendering(cmd, &ri);
    VkViewport viewport = {0, 0, (float)width, (float)height, 0, 1};
    VkRect2D scissor = {{0, 0}, {width, height}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    if (p->mesh) {
        run_groups(c, p->group_size, result->groups);
        vk->draw_mesh_tasks(cmd, result->groups[0], result->groups[1], result->groups[2]);
    } else {
        VkBuffer buffers[DGPB_RUN_MAX_VERTEX_INPUTS];
        VkDeviceSize offsets[DGPB_RUN_MAX_VERTEX_INPUTS] = {0};
        for (uint32_t i = 0; i < draw->vertex_buffer_count; i++)
            buffers[i] = draw->vertex_buffers[i].buf;
        if (draw->vertex_buffer_count)
            vkCmdBindVertexBuffers(cmd, 0, draw->vertex_buffer_count, buffers, offsets);
        vkCmdDraw(cmd, draw->vertices, 1, 0, 0);
        result->vertices = draw->vertices;
    }
    result->dispatches = 1;
    vk->end_rendering(cmd);
    for (uint32_t i = 0; i < draw->color_count; i++)
        store_attachment(cmd, &draw->colors[i], draw->color_layout,
                         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                         VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
    if (draw->depth.img)
        store_attachment(cmd, &draw->depth, DEPTH_LAYOUT,
                         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                         VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT);
}

bool vk_draw_read_back(const vk_draw *draw, const dgpb_run_request *c, dgpb_run_result *result,
                       dgpb_diag *r)
{
    for (uint32_t i = 0; i < draw->color_count; i++) {
        int k = draw->colors[i].index;
        if (!vk_read_back(&draw->colors[i], &c->params[k], &result->outputs[k], r))
            return false;
    }
    int k = draw->depth.index;
    return !draw->depth.img || vk_read_back(&draw->depth, &c->params[k], &result->outputs[k], r);
}

void vk_draw_free(vk_host *vk, vk_draw *draw)
{
    for (uint32_t i = 0; i < DGPB_RUN_MAX_COLOR_ATTACHMENTS; i++)
        vk_free_resource(vk, &draw->colors[i]);
    vk_free_resource(vk, &draw->depth);
    for (uint32_t i = 0; i < DGPB_RUN_MAX_VERTEX_INPUTS; i++)
        vk_free_resource(vk, &draw->vertex_buffers[i]);
}
