/*
 * src/run/vulkan_fill.c - filling a multisampled texture (vulkan_internal.h).
 *
 * Vulkan copies no buffer into a multisampled image, so the host draws its
 * texels in: a triangle covering the image, rendered into a view of it in an
 * unsigned-integer format of the same texel size (R16_UINT, R32_UINT,
 * R32G32_UINT or R32G32B32A32_UINT: the image is created with
 * VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT), with a fragment shader that reads
 * SV_SampleIndex and so runs once per sample, each writing the bits of texel
 * (x, y, sample) of the staging buffer as they are (shaders/fill_samples.slang,
 * compiled into shaders/fill_samples.h). It needs the device's
 * sampleRateShading and the sample count for both formats; the pipelines are
 * made when a run first needs them and kept per format and sample count.
 */
#include <string.h>

#include "run/vulkan_internal.h"
#include "run/shaders/fill_samples.h"

/* What every fill pipeline shares: the set layout of the staging buffer, the pipeline
   layout with its push constants (width, height, texel size), the two modules. */
static bool fill_layout(vk_host *vk, dgpb_diag *r)
{
    if (vk->fill_layout)
        return true;
    if (!vk->features.f2.features.sampleRateShading) {
        run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                 "device '%s' cannot fill multisampled textures: it lacks "
                 "VkPhysicalDeviceFeatures.sampleRateShading",
                 vk->device_name);
        return false;
    }
    VkDescriptorSetLayoutBinding b = {.binding = 0,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 1,
                                      .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT};
    VkDescriptorSetLayoutCreateInfo sci = {.sType =
                                               VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .bindingCount = 1,
                                           .pBindings = &b};
    VkPushConstantRange range = {.stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT, .size = 12};
    VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &vk->fill_set,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range};
    VkShaderModuleCreateInfo vs = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = sizeof fill_vertex_spirv,
                                   .pCode = fill_vertex_spirv};
    VkShaderModuleCreateInfo fs = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = sizeof fill_fragment_spirv,
                                   .pCode = fill_fragment_spirv};
    if (vkCreateDescriptorSetLayout(vk->device, &sci, NULL, &vk->fill_set) != VK_SUCCESS ||
        vkCreatePipelineLayout(vk->device, &lci, NULL, &vk->fill_layout) != VK_SUCCESS ||
        vkCreateShaderModule(vk->device, &vs, NULL, &vk->fill_modules[0]) != VK_SUCCESS ||
        vkCreateShaderModule(vk->device, &fs, NULL, &vk->fill_modules[1]) != VK_SUCCESS) {
        vk_fill_destroy(vk);
        fail(r, "creating the layout and shaders that fill multisampled textures failed");
        return false;
    }
    return true;
}

/* The fill pipeline of a view format and a sample count: kept, or made now. */
static VkPipeline fill_pipeline_of(vk_host *vk, VkFormat format, VkSampleCountFlagBits samples,
                                   dgpb_diag *r)
{
    for (uint32_t i = 0; i < vk->fill_count; i++)
        if (vk->fills[i].format == format && vk->fills[i].samples == samples)
            return vk->fills[i].pipe;
    if (vk->fill_count == MAX_FILL_PIPELINES) {
        run_fail(r, DGPB_ERR_LIMIT, "more than %d kinds of multisampled textures in one runner",
                 MAX_FILL_PIPELINES);
        return VK_NULL_HANDLE;
    }
    VkPipelineShaderStageCreateInfo st[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = vk->fill_modules[0],
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = vk->fill_modules[1],
         .pName = "main"},
    };
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .lineWidth = 1.0f};
    /* The fragment shader reads SV_SampleIndex: sample shading at 1.0, one fragment per
       sample, each written to its own sample. */
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = samples};
    VkPipelineColorBlendAttachmentState cba = {.colorWriteMask = 0xF};
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &cba};
    VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo ds = {.sType =
                                               VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                           .dynamicStateCount = 2,
                                           .pDynamicStates = dyn};
    VkPipelineRenderingCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                         .colorAttachmentCount = 1,
                                         .pColorAttachmentFormats = &format};
    VkGraphicsPipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                       .pNext = &rci,
                                       .stageCount = 2,
                                       .pStages = st,
                                       .pVertexInputState = &vi,
                                       .pInputAssemblyState = &ia,
                                       .pViewportState = &vp,
                                       .pRasterizationState = &rs,
                                       .pMultisampleState = &ms,
                                       .pColorBlendState = &cb,
                                       .pDynamicState = &ds,
                                       .layout = vk->fill_layout};
    VkPipeline pipe = VK_NULL_HANDLE;
    VkResult res = vkCreateGraphicsPipelines(vk->device, VK_NULL_HANDLE, 1, &ci, NULL, &pipe);
    if (res != VK_SUCCESS) {
        fail(r, "creating the pipeline that fills %u-sample textures failed (VkResult %d)",
             (unsigned)samples, (int)res);
        return VK_NULL_HANDLE;
    }
    vk->fills[vk->fill_count++] = (fill_pipeline){format, samples, pipe};
    return pipe;
}

bool vk_fill_record(vk_host *vk, VkCommandBuffer cmd, VkDescriptorPool pool, const resource *res,
                    VkPipelineStageFlags readers, dgpb_diag *r)
{
    if (!vk->dynamic_rendering || !vk->graphics_queue) {
        run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                 "device '%s' has no graphics queue with dynamic rendering (Vulkan 1.3) to fill "
                 "multisampled textures with",
                 vk->device_name);
        return false;
    }
    VkPipeline pipe;
    if (!fill_layout(vk, r) || !(pipe = fill_pipeline_of(vk, res->fill_format, res->samples, r)))
        return false;
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &vk->fill_set};
    VkDescriptorSet set;
    if (vkAllocateDescriptorSets(vk->device, &ai, &set) != VK_SUCCESS) {
        fail(r, "vkAllocateDescriptorSets failed (filling a multisampled texture)");
        return false;
    }
    VkDescriptorBufferInfo bi = {.buffer = res->buf, .range = VK_WHOLE_SIZE};
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                              .dstSet = set,
                              .dstBinding = 0,
                              .descriptorCount = 1,
                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                              .pBufferInfo = &bi};
    vkUpdateDescriptorSets(vk->device, 1, &w, 0, NULL);

    vk_image_barrier(cmd, res->img, res->aspect, VK_IMAGE_LAYOUT_UNDEFINED,
                     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
                     VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                     VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
    VkRenderingAttachmentInfo ca = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                    .imageView = res->fill_view,
                                    .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                    .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                    .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                          .renderArea = {{0, 0}, {res->extent.width, res->extent.height}},
                          .layerCount = 1,
                          .colorAttachmentCount = 1,
                          .pColorAttachments = &ca};
    vk->begin_rendering(cmd, &ri);
    VkViewport viewport = {0, 0, (float)res->extent.width, (float)res->extent.height, 0, 1};
    VkRect2D scissor = {{0, 0}, {res->extent.width, res->extent.height}};
    uint32_t push[3] = {res->extent.width, res->extent.height, res->texel_size};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, vk->fill_layout, 0, 1, &set, 0,
                            NULL);
    vkCmdPushConstants(cmd, vk->fill_layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof push, push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vk->end_rendering(cmd);
    vk_image_barrier(cmd, res->img, res->aspect, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                     VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                     readers);
    return true;
}

void vk_fill_destroy(vk_host *vk)
{
    for (uint32_t i = 0; i < vk->fill_count; i++)
        vkDestroyPipeline(vk->device, vk->fills[i].pipe, NULL);
    vk->fill_count = 0;
    for (int i = 0; i < 2; i++)
        if (vk->fill_modules[i])
            vkDestroyShaderModule(vk->device, vk->fill_modules[i], NULL), vk->fill_modules[i] = 0;
    if (vk->fill_layout)
        vkDestroyPipelineLayout(vk->device, vk->fill_layout, NULL);
    if (vk->fill_set)
        vkDestroyDescriptorSetLayout(vk->device, vk->fill_set, NULL);
    vk->fill_layout = VK_NULL_HANDLE;
    vk->fill_set = VK_NULL_HANDLE;
}
