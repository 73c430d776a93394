/*
 * src/run/vulkan_resources.c - the buffers, images and samplers of one run
 * of the Vulkan host (vulkan_internal.h). Every buffer lives in host-visible
 * coherent memory and is mapped; textures are optimal-tiling images filled
 * and read back through staging buffers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "run/vulkan_internal.h"

static int memory_type(const vk_host *vk, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < vk->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (vk->mem.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

bool vk_make_buffer(vk_host *vk, resource *res, VkDeviceSize size, VkBufferUsageFlags usage,
                    dgpb_diag *r)
{
    res->size = size;
    VkBufferCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    if (vkCreateBuffer(vk->device, &ci, NULL, &res->buf) != VK_SUCCESS) {
        fail(r, "vkCreateBuffer of %" PRIu64 " bytes failed", (uint64_t)size);
        return false;
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(vk->device, res->buf, &req);
    int type =
        memory_type(vk, req.memoryTypeBits,
                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (type < 0) {
        fail(r, "no host-visible coherent memory for a buffer");
        return false;
    }
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = (uint32_t)type};
    if (vkAllocateMemory(vk->device, &ai, NULL, &res->buf_mem) != VK_SUCCESS ||
        vkBindBufferMemory(vk->device, res->buf, res->buf_mem, 0) != VK_SUCCESS ||
        vkMapMemory(vk->device, res->buf_mem, 0, VK_WHOLE_SIZE, 0, (void **)&res->map) !=
            VK_SUCCESS) {
        fail(r, "allocating %" PRIu64 " bytes of buffer memory failed", (uint64_t)req.size);
        return false;
    }
    memset(res->map, 0, (size_t)size);
    return true;
}

/* The unsigned-integer format of a texel size: the view a multisampled image is filled
   through (vulkan_fill.c), bit for bit. */
static VkFormat fill_format(uint32_t texel_size)
{
    switch (texel_size) {
    case 2:
        return VK_FORMAT_R16_UINT;
    case 4:
        return VK_FORMAT_R32_UINT;
    case 8:
        return VK_FORMAT_R32G32_UINT;
    case 16:
        return VK_FORMAT_R32G32B32A32_UINT;
    default:
        return VK_FORMAT_UNDEFINED;
    }
}

/* "1, 4": the sample counts of a mask, for a message. */
static void sample_counts(VkSampleCountFlags counts, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t bit = 1; bit <= 64 && len < size; bit <<= 1)
        if (counts & bit)
            len += (size_t)snprintf(buf + len, size - len, "%s%u", len ? ", " : "", bit);
}

bool vk_make_image(vk_host *vk, resource *res, const dgpb_run_param *cp, VkImageUsageFlags usage,
                   dgpb_diag *r)
{
    VkFormat format = vk_format(cp->format);
    uint32_t depth = cp->depth ? cp->depth : 1;
    if (format == VK_FORMAT_UNDEFINED || !cp->width || !cp->height ||
        cp->dim >= DGPB_RUN_DIM_COUNT ||
        (cp->dim == DGPB_RUN_DIM_CUBE && (depth != 6 || cp->width != cp->height))) {
        fail(r, "parameter '%s': a texture needs a format and a size (a cube: 6 square faces)",
             cp->name);
        return false;
    }
    /* The image type, view type, extent, layers and samples of the request's dimension. */
    VkImageType image_type = VK_IMAGE_TYPE_2D;
    VkImageViewType view = VK_IMAGE_VIEW_TYPE_2D;
    VkExtent3D extent = {cp->width, cp->height, 1};
    uint32_t layers = 1;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    VkImageCreateFlags flags = 0;
    switch (cp->dim) {
    case DGPB_RUN_DIM_1D:
        image_type = VK_IMAGE_TYPE_1D, view = VK_IMAGE_VIEW_TYPE_1D;
        break;
    case DGPB_RUN_DIM_3D:
        image_type = VK_IMAGE_TYPE_3D, view = VK_IMAGE_VIEW_TYPE_3D, extent.depth = depth;
        break;
    case DGPB_RUN_DIM_CUBE:
        view = VK_IMAGE_VIEW_TYPE_CUBE, layers = 6, flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
        break;
    case DGPB_RUN_DIM_CUBE_ARRAY:
        view = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, layers = depth;
        flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
        break;
    case DGPB_RUN_DIM_2D_ARRAY:
        view = VK_IMAGE_VIEW_TYPE_2D_ARRAY, layers = depth;
        break;
    case DGPB_RUN_DIM_2D_MS:
        /* Filled by drawing into an unsigned-integer view of it (vulkan_fill.c). */
        samples = (VkSampleCountFlagBits)depth;
        flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
        usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
        res->fill_format = fill_format(dgpb_run_format_texel_size(cp->format));
        break;
    default:
        break;
    }
    bool depth_format = dgpb_run_format_sample_type(cp->format) == DGPB_SAMPLE_DEPTH;
    res->aspect = depth_format ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    res->samples = samples;
    res->texel_size = dgpb_run_format_texel_size(cp->format);
    VkImageCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .flags = flags,
                            .imageType = image_type,
                            .format = format,
                            .extent = extent,
                            .mipLevels = 1,
                            .arrayLayers = layers,
                            .samples = samples,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    if (samples != VK_SAMPLE_COUNT_1_BIT) {
        /* A device offers some sample counts per format and use: one it lacks is its lack. */
        VkImageFormatProperties props;
        VkResult q = vkGetPhysicalDeviceImageFormatProperties(vk->phys, format, image_type,
                                                              ci.tiling, ci.usage, flags, &props);
        VkImageFormatProperties fill_props;
        VkResult qf = vkGetPhysicalDeviceImageFormatProperties(
            vk->phys, res->fill_format, image_type, ci.tiling, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
            0, &fill_props);
        VkSampleCountFlags counts = (q == VK_SUCCESS ? props.sampleCounts : 0) &
                                    (qf == VK_SUCCESS ? fill_props.sampleCounts : 0);
        if (!(counts & samples)) {
            char list[64];
            sample_counts(counts, list, sizeof list);
            run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                     "texture '%s': device '%s' has no %u-sample %s textures to fill by drawing "
                     "(sample counts it has: %s)",
                     cp->name, vk->device_name, depth, dgpb_run_format_name(cp->format),
                     *list ? list : "none");
            return false;
        }
    }
    res->extent = extent;
    res->layers = layers;
    if (vkCreateImage(vk->device, &ci, NULL, &res->img) != VK_SUCCESS) {
        fail(r, "parameter '%s': vkCreateImage failed (%s %ux%u)", cp->name,
             dgpb_run_format_name(cp->format), cp->width, cp->height);
        return false;
    }
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(vk->device, res->img, &req);
    int type = memory_type(vk, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0)
        type = memory_type(vk, req.memoryTypeBits, 0);
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = (uint32_t)type};
    if (type < 0 || vkAllocateMemory(vk->device, &ai, NULL, &res->img_mem) != VK_SUCCESS ||
        vkBindImageMemory(vk->device, res->img, res->img_mem, 0) != VK_SUCCESS) {
        fail(r, "parameter '%s': no memory for the image", cp->name);
        return false;
    }
    VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                 .image = res->img,
                                 .viewType = view,
                                 .format = format,
                                 .subresourceRange = {res->aspect, 0, 1, 0, layers}};
    if (vkCreateImageView(vk->device, &vci, NULL, &res->view) != VK_SUCCESS) {
        fail(r, "parameter '%s': vkCreateImageView failed", cp->name);
        return false;
    }
    if (res->fill_format) {
        vci.format = res->fill_format;
        if (vkCreateImageView(vk->device, &vci, NULL, &res->fill_view) != VK_SUCCESS) {
            fail(r, "parameter '%s': vkCreateImageView of its fill view failed", cp->name);
            return false;
        }
    }
    /* The staging buffer carries the texels in and out, row by row, tightly packed; a
       multisampled image's fill shader reads it as a storage buffer. */
    if (!vk_make_buffer(vk, res, cp->size,
                        res->fill_format ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : 0, r))
        return false;
    if (cp->input)
        memcpy(res->map, cp->input, cp->size);
    return true;
}

/*
 * A texel buffer: a buffer of the request's bytes and a view of it in the
 * format of its row (run_texel_buffer_format), which the device must offer
 * for that use (else DGPB_ERR_RUN_CAPABILITY).
 */
static bool make_texel_buffer(vk_host *vk, const slot *s, const dgpb_run_param *cp, resource *res,
                              dgpb_diag *r)
{
    bool storage = s->type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    const char *name;
    VkFormat format = vk_format(run_texel_buffer_format(s->row, &name));
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(vk->phys, format, &props);
    VkFormatFeatureFlags need = storage ? VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT
                                        : VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT;
    if (format == VK_FORMAT_UNDEFINED || !(props.bufferFeatures & need)) {
        run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                 "texel buffer '%s': device '%s' has no %s texel buffer of format %s", cp->name,
                 vk->device_name, storage ? "storage" : "uniform", name);
        return false;
    }
    size_t bytes = run_param_bytes(cp);
    if (!bytes)
        bytes = cp->input_size;
    if (!vk_make_buffer(vk, res, bytes ? bytes : 4,
                        storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                                : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
                        r))
        return false;
    if (cp->input)
        memcpy(res->map, cp->input, cp->input_size ? cp->input_size : cp->size);
    VkBufferViewCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                 .buffer = res->buf,
                                 .format = format,
                                 .range = VK_WHOLE_SIZE};
    if (vkCreateBufferView(vk->device, &ci, NULL, &res->texels) != VK_SUCCESS) {
        fail(r, "texel buffer '%s': vkCreateBufferView (%s) failed", cp->name, name);
        return false;
    }
    return true;
}

void vk_free_resource(vk_host *vk, resource *res)
{
    if (res->texels)
        vkDestroyBufferView(vk->device, res->texels, NULL);
    if (res->sampler)
        vkDestroySampler(vk->device, res->sampler, NULL);
    if (res->view)
        vkDestroyImageView(vk->device, res->view, NULL);
    if (res->fill_view)
        vkDestroyImageView(vk->device, res->fill_view, NULL);
    if (res->img)
        vkDestroyImage(vk->device, res->img, NULL);
    if (res->img_mem)
        vkFreeMemory(vk->device, res->img_mem, NULL);
    if (res->buf)
        vkDestroyBuffer(vk->device, res->buf, NULL);
    if (res->buf_mem)
        vkFreeMemory(vk->device, res->buf_mem, NULL);
}

const dgpb_run_param *vk_case_param(const dgpb_run_request *c, const dgpb_param_view *row)
{
    for (uint32_t i = 0; i < c->param_count; i++)
        if (!run_param_is_attachment(&c->params[i]) && dgpb_str_eq(row->name, c->params[i].name))
            return &c->params[i];
    return NULL;
}

bool vk_make_slot_resource(vk_host *vk, const dgpb_run_request *c, const slot *s, resource *res,
                           dgpb_diag *r)
{
    /* A cbuffer's uniform_buffer row given no bytes: built from its field rows, the rest zero. */
    bool fields =
        s->kind == DGPB_KIND_UNIFORM_BUFFER && s->value_count && !vk_case_param(c, s->row);
    if (s->kind == DGPB_KIND_VALUE || fields) {
        /* The uniform block: each value given at its row's offset, with its row's size; every
           other byte zero (a value not given is zero). */
        if (!vk_make_buffer(vk, res, s->block_size, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, r))
            return false;
        memset(res->map, 0, s->block_size);
        for (uint32_t i = 0; i < s->value_count; i++) {
            const dgpb_param_view *row = s->values[i];
            const dgpb_run_param *cp = vk_case_param(c, row);
            if (!cp)
                continue;
            if (dgpb_run_value_place(cp, row->size, res->map + row->offset)) {
                run_fail(r, DGPB_ERR_RUN_SIZE, "value '%.*s' does not fit its row's %u bytes",
                         (int)row->name.len, row->name.ptr, row->size);
                return false;
            }
        }
        return true;
    }
    if (s->type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT)
        return true; /* a colour attachment of the render (vulkan_render.c) */
    const dgpb_run_param *cp = vk_case_param(c, s->row);
    res->index = cp ? (int)(cp - c->params) : -1;
    if (!cp && s->type != VK_DESCRIPTOR_TYPE_SAMPLER) {
        run_fail(r, DGPB_ERR_RUN_MISSING,
                 "the request binds nothing to '%.*s' (space %u, binding %u)",
                 (int)s->row->name.len, s->row->name.ptr, s->space, s->binding);
        return false;
    }
    switch (s->type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: {
        size_t bytes = run_param_bytes(cp);
        if (!vk_make_buffer(vk, res, bytes ? bytes : 4,
                            s->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                                ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                                : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                            r))
            return false;
        if (cp->input)
            memcpy(res->map, cp->input, cp->input_size ? cp->input_size : cp->size);
        return true;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        return make_texel_buffer(vk, s, cp, res, r);
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        return vk_make_image(vk, res, cp, VK_IMAGE_USAGE_SAMPLED_BIT, r);
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        return vk_make_image(vk, res, cp, VK_IMAGE_USAGE_STORAGE_BIT, r);
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: /* the image, then its sampler */
        if (!vk_make_image(vk, res, cp, VK_IMAGE_USAGE_SAMPLED_BIT, r))
            return false;
        /* fall through */
    case VK_DESCRIPTOR_TYPE_SAMPLER: {
        /* Point sampling, clamped: texel centres read exact texels. A comparison sampler
           passes where the reference is at most the texel (less or equal). */
        VkSamplerCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                  .magFilter = VK_FILTER_NEAREST,
                                  .minFilter = VK_FILTER_NEAREST,
                                  .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                  .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                  .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                  .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                  .compareEnable = s->compare ? VK_TRUE : VK_FALSE,
                                  .compareOp = VK_COMPARE_OP_LESS_OR_EQUAL};
        if (vkCreateSampler(vk->device, &ci, NULL, &res->sampler) != VK_SUCCESS) {
            fail(r, "vkCreateSampler failed");
            return false;
        }
        return true;
    }
    default:
        fail(r, "unsupported descriptor type");
        return false;
    }
}

void vk_image_barrier(VkCommandBuffer cmd, VkImage img, VkImageAspectFlags aspect,
                      VkImageLayout from, VkImageLayout to, VkAccessFlags src_access,
                      VkAccessFlags dst_access, VkPipelineStageFlags src, VkPipelineStageFlags dst)
{
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                              .srcAccessMask = src_access,
                              .dstAccessMask = dst_access,
                              .oldLayout = from,
                              .newLayout = to,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = img,
                              .subresourceRange = {aspect, 0, 1, 0, VK_REMAINING_ARRAY_LAYERS}};
    vkCmdPipelineBarrier(cmd, src, dst, 0, 0, NULL, 0, NULL, 1, &b);
}

void vk_copy_image(VkCommandBuffer cmd, const resource *res, bool in)
{
    VkBufferImageCopy region = {.imageSubresource = {res->aspect, 0, 0, res->layers},
                                .imageExtent = res->extent};
    if (in)
        vkCmdCopyBufferToImage(cmd, res->buf, res->img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &region);
    else
        vkCmdCopyImageToBuffer(cmd, res->img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, res->buf, 1,
                               &region);
}

bool vk_read_back(const resource *res, const dgpb_run_param *cp, dgpb_run_output *out, dgpb_diag *r)
{
    size_t size = run_param_bytes(cp);
    if (!size)
        size = 4;
    if (size > res->size)
        size = (size_t)res->size;
    if (!(out->data = mem_alloc(size ? size : 1))) {
        run_fail(r, DGPB_ERR_NOMEM, "out of memory");
        return false;
    }
    memcpy(out->data, res->map, size);
    out->size = size;
    return true;
}
