/*
 * src/run/vulkan_dispatch.c - one run of the Vulkan host (vulkan_internal.h):
 * the request's resources and descriptor sets, the command buffer (uploads,
 * push constants, the dispatches or the draw, the copies back), submitting
 * and waiting, then every buffer and texture read back and, with `time`, the
 * GPU time of each dispatch from a timestamp before and after it. A draw
 * (its attachments, vertex buffers and commands: vulkan_render.c) renders
 * with dynamic rendering.
 */
#include <string.h>

#include "core/alloc.h"
#include "run/vulkan_internal.h"

/* The pipeline stages of the shader stages of a pipeline (for barriers: only stages the
   device has may be named). */
static VkPipelineStageFlags pipeline_stages(VkShaderStageFlags stages)
{
    static const struct {
        VkShaderStageFlags shader;
        VkPipelineStageFlags pipe;
    } map[] = {
        {VK_SHADER_STAGE_VERTEX_BIT, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT},
        {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
         VK_PIPELINE_STAGE_TESSELLATION_CONTROL_SHADER_BIT},
        {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT,
         VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT},
        {VK_SHADER_STAGE_GEOMETRY_BIT, VK_PIPELINE_STAGE_GEOMETRY_SHADER_BIT},
        {VK_SHADER_STAGE_FRAGMENT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT},
        {VK_SHADER_STAGE_COMPUTE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT},
        {VK_SHADER_STAGE_TASK_BIT_EXT, VK_PIPELINE_STAGE_TASK_SHADER_BIT_EXT},
        {VK_SHADER_STAGE_MESH_BIT_EXT, VK_PIPELINE_STAGE_MESH_SHADER_BIT_EXT},
    };
    VkPipelineStageFlags out = 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (stages & map[i].shader)
            out |= map[i].pipe;
    return out;
}

int vk_run(void *host, const char *key, const dgpb_target_view *t,
           const dgpb_entry_view *const *entries, const dgpb_run_request *c,
           const dgpb_param_view *const *rows, dgpb_run_result *result, dgpb_diag *r)
{
    vk_host *vk = host;
    for (uint32_t i = 0; i < c->param_count; i++) {
        result->outputs[i].kind = rows[i] ? rows[i]->kind : c->params[i].kind;
        result->outputs[i].flags = rows[i] ? rows[i]->flags : 0;
    }
    result->output_count = c->param_count;
    memcpy(result->thread_group_size, entries[0]->thread_group_size,
           sizeof result->thread_group_size);
    pipeline *p = vk_get_pipeline(vk, key, t, c, r, entries);
    if (!p)
        return r->code;
    if (p->graphics && !p->mesh && run_draw_vertices(c) == 0)
        return DGPB_OK; /* created only */
    uint32_t repeat = c->repeat ? c->repeat : 1;
    bool timed = c->time && !p->graphics;
    if (timed && !vk->timestamp_bits)
        return run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                        "device '%s' has no timestamps on its compute queue (needed for timing)",
                        vk->device_name);

    resource res[MAX_SLOTS];
    memset(res, 0, sizeof res);
    for (uint32_t i = 0; i < MAX_SLOTS; i++)
        res[i].index = -1;
    vk_draw draw;
    memset(&draw, 0, sizeof draw);
    VkQueryPool queries = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    uint8_t *push = NULL;

    for (uint32_t i = 0; i < p->slot_count; i++)
        if (!vk_make_slot_resource(vk, c, &p->slots[i], &res[i], r))
            goto out;
    /* The push constants: each launch-space value given at its row's offset, with its row's
       size; zero where none is given. */
    if (p->push.size) {
        if (!(push = mem_calloc(1, p->push.size))) {
            run_fail(r, DGPB_ERR_NOMEM, "out of memory");
            goto out;
        }
        for (uint32_t i = 0; i < p->push.value_count; i++) {
            const dgpb_param_view *row = p->push.values[i];
            const dgpb_run_param *cp = vk_case_param(c, row);
            if (cp && dgpb_run_value_place(cp, row->size, push + row->offset)) {
                run_fail(r, DGPB_ERR_RUN_SIZE, "push constant '%.*s' does not fit its %u bytes",
                         (int)row->name.len, row->name.ptr, row->size);
                goto out;
            }
        }
    }
    /* A render that reads its colour attachments as input attachments (dynamic rendering
       local read, docs/run.md): the attachments in the layout of both uses. */
    bool local_read = false;
    for (uint32_t i = 0; i < p->slot_count; i++)
        local_read |= p->slots[i].type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    if (p->graphics && !vk_draw_prepare(vk, p, t, entries, c, local_read, &draw, r))
        goto out;
    if (timed) {
        VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                     .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                     .queryCount = 2 * repeat};
        if (vkCreateQueryPool(vk->device, &qci, NULL, &queries) != VK_SUCCESS) {
            fail(r, "vkCreateQueryPool of %u timestamps failed", 2 * repeat);
            goto out;
        }
    }

    /* Descriptor sets: one per space, every binding written from its slot. */
    VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_SAMPLER, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, MAX_SLOTS},
    };
    /* The sets of the pipeline, and one for each multisampled texture to fill (vulkan_fill.c). */
    VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = MAX_SETS + MAX_SLOTS,
                                      .poolSizeCount = sizeof sizes / sizeof sizes[0],
                                      .pPoolSizes = sizes};
    VkDescriptorSet sets[MAX_SETS] = {0};
    if (vkCreateDescriptorPool(vk->device, &pci, NULL, &pool) != VK_SUCCESS) {
        fail(r, "vkCreateDescriptorPool failed");
        goto out;
    }
    if (p->set_count) {
        VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = pool,
                                          .descriptorSetCount = p->set_count,
                                          .pSetLayouts = p->sets};
        if (vkAllocateDescriptorSets(vk->device, &ai, sets) != VK_SUCCESS) {
            fail(r, "vkAllocateDescriptorSets failed");
            goto out;
        }
    }
    for (uint32_t i = 0; i < p->slot_count; i++) {
        const slot *s = &p->slots[i];
        VkDescriptorBufferInfo bi = {.buffer = res[i].buf, .range = VK_WHOLE_SIZE};
        VkDescriptorImageInfo ii = {.sampler = res[i].sampler,
                                    .imageView = res[i].view,
                                    .imageLayout = s->type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                                                       ? VK_IMAGE_LAYOUT_GENERAL
                                                       : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        if (s->type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT) /* colour attachment i itself */
            ii = (VkDescriptorImageInfo){
                .imageView = draw.colors[DGPB_SHAPE_ATTACHMENT_OF(s->row->offset)].view,
                .imageLayout = draw.color_layout};
        bool is_buffer = s->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
                         s->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        bool is_texels = s->type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
                         s->type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
        VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = sets[s->space],
                                  .dstBinding = s->binding,
                                  .dstArrayElement = s->element,
                                  .descriptorCount = 1,
                                  .descriptorType = s->type,
                                  .pBufferInfo = is_buffer ? &bi : NULL,
                                  .pImageInfo = is_buffer || is_texels ? NULL : &ii,
                                  .pTexelBufferView = is_texels ? &res[i].texels : NULL};
        vkUpdateDescriptorSets(vk->device, 1, &w, 0, NULL);
    }

    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = vk->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    if (vkAllocateCommandBuffers(vk->device, &cai, &cmd) != VK_SUCCESS) {
        fail(r, "vkAllocateCommandBuffers failed");
        goto out;
    }
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
    vkBeginCommandBuffer(cmd, &bi);
    VkPipelineStageFlags shader_stage = pipeline_stages(p->stages);
    /* Images: upload (or clear to zero), then the layout the shader uses; a multisampled
       image is drawn into, sample by sample (vulkan_fill.c). */
    for (uint32_t i = 0; i < p->slot_count; i++) {
        if (!res[i].img)
            continue;
        if (res[i].fill_view) {
            if (!vk_fill_record(vk, cmd, pool, &res[i], shader_stage, r))
                goto out;
            continue;
        }
        bool storage = p->slots[i].type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        vk_image_barrier(cmd, res[i].img, res[i].aspect, VK_IMAGE_LAYOUT_UNDEFINED,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
        vk_copy_image(cmd, &res[i], true);
        vk_image_barrier(cmd, res[i].img, res[i].aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         storage ? VK_IMAGE_LAYOUT_GENERAL
                                 : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         VK_ACCESS_TRANSFER_WRITE_BIT,
                         VK_ACCESS_SHADER_READ_BIT | (storage ? VK_ACCESS_SHADER_WRITE_BIT : 0),
                         VK_PIPELINE_STAGE_TRANSFER_BIT, shader_stage);
    }
    VkPipelineBindPoint bind =
        p->graphics ? VK_PIPELINE_BIND_POINT_GRAPHICS : VK_PIPELINE_BIND_POINT_COMPUTE;
    vkCmdBindPipeline(cmd, bind, p->pipe);
    if (p->set_count)
        vkCmdBindDescriptorSets(cmd, bind, p->layout, 0, p->set_count, sets, 0, NULL);
    if (p->push.size)
        vkCmdPushConstants(cmd, p->layout, p->stages, 0, p->push.size, push);
    if (!p->graphics) {
        uint32_t *groups = result->groups;
        run_groups(c, p->group_size, groups);
        if (timed)
            vkCmdResetQueryPool(cmd, queries, 0, 2 * repeat);
        for (uint32_t n = 0; n < repeat; n++) {
            if (n) {
                VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                      .dstAccessMask =
                                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
                vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0,
                                     NULL);
            }
            if (timed)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 2 * n);
            vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
            if (timed)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 2 * n + 1);
        }
        result->dispatches = repeat;
    } else {
        vk_draw_record(vk, cmd, p, c, &draw, result);
    }
    /* Read back: storage images through their staging buffers, then everything to the host. */
    for (uint32_t i = 0; i < p->slot_count; i++) {
        if (!res[i].img || p->slots[i].type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
            continue;
        vk_image_barrier(cmd, res[i].img, res[i].aspect, VK_IMAGE_LAYOUT_GENERAL,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_ACCESS_TRANSFER_READ_BIT, shader_stage, VK_PIPELINE_STAGE_TRANSFER_BIT);
        vk_copy_image(cmd, &res[i], false);
    }
    VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask =
                                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, shader_stage | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL, 0, NULL);
    if (vkEndCommandBuffer(cmd) != VK_SUCCESS) {
        fail(r, "vkEndCommandBuffer failed");
        goto out;
    }
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    VkResult vr = vkCreateFence(vk->device, &fci, NULL, &fence);
    if (vr == VK_SUCCESS)
        vr = vkQueueSubmit(vk->queue, 1, &si, fence);
    if (vr == VK_SUCCESS)
        vr = vkWaitForFences(vk->device, 1, &fence, VK_TRUE, 60ull * 1000000000ull);
    if (vr != VK_SUCCESS) {
        fail(r, "submitting or waiting failed (VkResult %d)", (int)vr);
        goto out;
    }

    /* Read every buffer and texture back; the times of the dispatches. */
    result->ran = true;
    for (uint32_t i = 0; i < MAX_SLOTS; i++) {
        int k = res[i].index;
        if (k >= 0 && res[i].map && !vk_read_back(&res[i], &c->params[k], &result->outputs[k], r))
            goto out;
    }
    if (p->graphics && !vk_draw_read_back(&draw, c, result, r))
        goto out;
    if (timed) {
        uint64_t *ticks = mem_calloc(2 * repeat, sizeof *ticks);
        result->times_ms = mem_calloc(repeat, sizeof *result->times_ms);
        if (!ticks || !result->times_ms) {
            dgpb_free(ticks);
            run_fail(r, DGPB_ERR_NOMEM, "out of memory");
            goto out;
        }
        vr = vkGetQueryPoolResults(vk->device, queries, 0, 2 * repeat, 2 * repeat * sizeof *ticks,
                                   ticks, sizeof *ticks,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (vr != VK_SUCCESS) {
            dgpb_free(ticks);
            fail(r, "reading the timestamps failed (VkResult %d)", (int)vr);
            goto out;
        }
        uint64_t mask = vk->timestamp_bits >= 64 ? ~0ull : (1ull << vk->timestamp_bits) - 1;
        for (uint32_t n = 0; n < repeat; n++) {
            uint64_t elapsed = (ticks[2 * n + 1] - ticks[2 * n]) & mask;
            result->times_ms[n] = (double)elapsed * vk->timestamp_period / 1e6;
        }
        result->time_count = repeat;
        dgpb_free(ticks);
    }
out:
    if (fence)
        vkDestroyFence(vk->device, fence, NULL);
    if (cmd)
        vkFreeCommandBuffers(vk->device, vk->pool, 1, &cmd);
    if (pool)
        vkDestroyDescriptorPool(vk->device, pool, NULL);
    for (uint32_t i = 0; i < MAX_SLOTS; i++)
        vk_free_resource(vk, &res[i]);
    vk_draw_free(vk, &draw);
    if (queries)
        vkDestroyQueryPool(vk->device, queries, NULL);
    dgpb_free(push);
    return r->code;
}
