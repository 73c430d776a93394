/*
 * src/run/vulkan.c - the Vulkan host of the runner (dgpb/run.h): a minimal,
 * headless Vulkan 1.2+ host that uses nothing but the bundle.
 *
 * It builds everything from the parameter table: one descriptor set layout
 * per `space` from 0 to the highest (a set no row uses gets an empty
 * layout), one binding per row (the descriptor type from the row's `kind`),
 * each uniform block from the value rows (each value written at its row's
 * `offset` with its row's `size`), and one push-constant range from the value
 * rows of space DGPB_SPACE_LAUNCH (entry-point `uniform` values and
 * [[vk::push_constant]] blocks), written with vkCmdPushConstants at their
 * offsets. It never looks inside the shader. Entry points are named "main"
 * (Slang names a single SPIR-V entry point so).
 *
 * Layout of this file: device creation; pipelines, built from the parameter
 * table only and kept per (bundle, entry); resources for one run; recording,
 * submitting and reading back. Every buffer lives in host-visible coherent
 * memory and is mapped; textures are optimal-tiling images filled and read
 * back through staging buffers. With `time`, a timestamp before and after
 * each dispatch gives its GPU time.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "dgpb/reader.h"
#include "run/run_internal.h"

#define MAX_SETS 8
#define MAX_SLOTS 32
#define MAX_VALUES 32
#define MAX_PIPELINES 64

/* A failure of the API, unless a more precise code is given (run_fail). */
#define fail(d, ...) run_fail(d, DGPB_ERR_RUN_DRIVER, __VA_ARGS__)

/* One descriptor binding of a pipeline: a resource row, or a uniform block of value rows. */
typedef struct slot {
    uint32_t space, binding;
    VkDescriptorType type;
    uint32_t kind;                             /* dgpb_kind; DGPB_KIND_VALUE for a uniform block */
    const dgpb_param_view *row;                /* resource rows: the row */
    uint32_t block_size;                       /* uniform blocks: bytes, a multiple of 16 */
    const dgpb_param_view *values[MAX_VALUES]; /* uniform blocks: its value rows */
    uint32_t value_count;
} slot;

/* The push-constant range: every value row in space DGPB_SPACE_LAUNCH. */
typedef struct push_block {
    uint32_t size; /* bytes, a multiple of 4; 0 when the entries have none */
    const dgpb_param_view *values[MAX_VALUES];
    uint32_t value_count;
} push_block;

typedef struct pipeline {
    char *key;          /* bundle path, entries and attachment format */
    dgpb_diag *failure; /* why it could not be created; later runs fail the same way */
    VkPipeline pipe;
    VkPipelineLayout layout;
    uint32_t set_count;
    VkDescriptorSetLayout sets[MAX_SETS];
    uint32_t slot_count;
    slot slots[MAX_SLOTS];
    push_block push;
    VkShaderStageFlags stages;
    uint32_t group_size[3];
    bool graphics;
} pipeline;

typedef struct vk_host {
    VkInstance instance;
    VkPhysicalDevice phys;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    bool graphics_queue;
    VkCommandPool pool;
    VkPhysicalDeviceMemoryProperties mem;
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    char driver[512];
    uint32_t api_version;
    uint32_t max_push_constants;
    uint32_t timestamp_bits; /* valid bits of the queue's timestamps; 0: none */
    float timestamp_period;  /* nanoseconds per tick */
    uint32_t mask;           /* capabilities refused on purpose (dgpb_runner_desc) */
    bool int64, atomic64, subgroup_basic, float16, dynamic_rendering;
    PFN_vkCmdBeginRendering begin_rendering;
    PFN_vkCmdEndRendering end_rendering;
    uint32_t pipeline_count;
    pipeline pipelines[MAX_PIPELINES];
} vk_host;

/* ---- device ------------------------------------------------------------ */

static void vk_destroy(void *host);

static int vk_create(const dgpb_runner_desc *desc, vk_host **out, dgpb_diag *d)
{
    vk_host *vk = mem_calloc(1, sizeof *vk);
    *out = NULL;
    if (!vk)
        return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    vk->mask = desc->mask_capabilities;
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "dgpb-run",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app};
    VkResult res = vkCreateInstance(&ici, NULL, &vk->instance);
    if (res != VK_SUCCESS) {
        dgpb_free(vk);
        return dgpb_diag_set(d, DGPB_ERR_RUN_NO_DEVICE, -1,
                             "cannot create a Vulkan instance (VkResult %d): install the Vulkan "
                             "loader (libvulkan1) and a driver (mesa-vulkan-drivers for lavapipe)",
                             (int)res);
    }
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(vk->instance, &n, NULL);
    VkPhysicalDevice devs[16];
    if (n > 16)
        n = 16;
    if (n)
        vkEnumeratePhysicalDevices(vk->instance, &n, devs);
    const char *want = desc->device;
    if (want && !*want)
        want = NULL;
    for (uint32_t i = 0; i < n && !vk->phys; i++) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(devs[i], &props);
        if (want && !strstr(props.deviceName, want))
            continue;
        if (props.apiVersion < VK_API_VERSION_1_2)
            continue;
        uint32_t qn = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, NULL);
        VkQueueFamilyProperties q[16];
        if (qn > 16)
            qn = 16;
        vkGetPhysicalDeviceQueueFamilyProperties(devs[i], &qn, q);
        int pick = -1;
        for (uint32_t j = 0; j < qn; j++) {
            VkQueueFlags f = q[j].queueFlags;
            if ((f & VK_QUEUE_COMPUTE_BIT) && (f & VK_QUEUE_GRAPHICS_BIT)) {
                pick = (int)j;
                break;
            }
            if ((f & VK_QUEUE_COMPUTE_BIT) && pick < 0)
                pick = (int)j;
        }
        if (pick < 0)
            continue;
        vk->phys = devs[i];
        vk->queue_family = (uint32_t)pick;
        vk->graphics_queue = (q[pick].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
        vk->api_version = props.apiVersion;
        vk->max_push_constants = props.limits.maxPushConstantsSize;
        vk->timestamp_bits = q[pick].timestampValidBits;
        vk->timestamp_period = props.limits.timestampPeriod;
        snprintf(vk->device_name, sizeof vk->device_name, "%s", props.deviceName);
    }
    if (!vk->phys) {
        vkDestroyInstance(vk->instance, NULL);
        dgpb_free(vk);
        if (want)
            return dgpb_diag_set(d, DGPB_ERR_RUN_NO_DEVICE, -1,
                                 "no Vulkan 1.2 device with a compute queue matches '%s' (%u "
                                 "devices found)",
                                 want, n);
        return dgpb_diag_set(d, DGPB_ERR_RUN_NO_DEVICE, -1,
                             "no Vulkan 1.2 device with a compute queue found (%u devices): "
                             "install mesa-vulkan-drivers (lavapipe, a software device) or a GPU "
                             "driver",
                             n);
    }

    VkPhysicalDeviceDriverProperties drv = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties sub = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, .pNext = &drv};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = &sub};
    vkGetPhysicalDeviceProperties2(vk->phys, &p2);
    snprintf(vk->driver, sizeof vk->driver, "%.200s %.200s (driver version 0x%x, Vulkan %u.%u.%u)",
             drv.driverName, drv.driverInfo, p2.properties.driverVersion,
             VK_API_VERSION_MAJOR(vk->api_version), VK_API_VERSION_MINOR(vk->api_version),
             VK_API_VERSION_PATCH(vk->api_version));
    vk->subgroup_basic = (sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                         (sub.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT);

    bool v13 = vk->api_version >= VK_API_VERSION_1_3;
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = v13 ? &f13 : NULL};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                    .pNext = &f12};
    vkGetPhysicalDeviceFeatures2(vk->phys, &f2);
    /* Enable only what is there and what bundles may ask for. */
    VkPhysicalDeviceVulkan13Features e13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .dynamicRendering = f13.dynamicRendering};
    VkPhysicalDeviceVulkan12Features e12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = v13 ? &e13 : NULL,
        .shaderBufferInt64Atomics = f12.shaderBufferInt64Atomics,
        .shaderFloat16 = f12.shaderFloat16,
        .vulkanMemoryModel = f12.vulkanMemoryModel,
        .vulkanMemoryModelDeviceScope = f12.vulkanMemoryModelDeviceScope,
        .storageBuffer8BitAccess = f12.storageBuffer8BitAccess,
        .scalarBlockLayout = f12.scalarBlockLayout,
    };
    VkPhysicalDeviceFeatures2 e2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                    .pNext = &e12};
    e2.features.shaderInt64 = f2.features.shaderInt64;
    e2.features.shaderInt16 = f2.features.shaderInt16;
    e2.features.shaderStorageImageReadWithoutFormat =
        f2.features.shaderStorageImageReadWithoutFormat;
    e2.features.shaderStorageImageWriteWithoutFormat =
        f2.features.shaderStorageImageWriteWithoutFormat;
    e2.features.fragmentStoresAndAtomics = f2.features.fragmentStoresAndAtomics;
    vk->int64 = f2.features.shaderInt64;
    vk->atomic64 = f2.features.shaderInt64 && f12.shaderBufferInt64Atomics;
    vk->float16 = f12.shaderFloat16;
    vk->dynamic_rendering = v13 && f13.dynamicRendering;

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = vk->queue_family,
                                   .queueCount = 1,
                                   .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .pNext = &e2,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci};
    res = vkCreateDevice(vk->phys, &dci, NULL, &vk->device);
    if (res != VK_SUCCESS) {
        int rc = dgpb_diag_set(d, DGPB_ERR_RUN_NO_DEVICE, -1,
                               "cannot create a device on '%s' (VkResult %d)", vk->device_name,
                               (int)res);
        vkDestroyInstance(vk->instance, NULL);
        dgpb_free(vk);
        return rc;
    }
    vkGetDeviceQueue(vk->device, vk->queue_family, 0, &vk->queue);
    vkGetPhysicalDeviceMemoryProperties(vk->phys, &vk->mem);
    if (vk->dynamic_rendering) {
        vk->begin_rendering =
            (PFN_vkCmdBeginRendering)vkGetDeviceProcAddr(vk->device, "vkCmdBeginRendering");
        vk->end_rendering =
            (PFN_vkCmdEndRendering)vkGetDeviceProcAddr(vk->device, "vkCmdEndRendering");
        vk->dynamic_rendering = vk->begin_rendering && vk->end_rendering;
    }
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = vk->queue_family};
    if (vkCreateCommandPool(vk->device, &pci, NULL, &vk->pool) != VK_SUCCESS) {
        vk_destroy(vk);
        return dgpb_diag_set(d, DGPB_ERR_RUN_DRIVER, -1, "cannot create a command pool");
    }
    *out = vk;
    return DGPB_OK;
}

static void vk_destroy(void *host)
{
    vk_host *vk = host;
    if (!vk)
        return;
    if (vk->device) {
        vkDeviceWaitIdle(vk->device);
        for (uint32_t i = 0; i < vk->pipeline_count; i++) {
            pipeline *p = &vk->pipelines[i];
            if (p->pipe)
                vkDestroyPipeline(vk->device, p->pipe, NULL);
            if (p->layout)
                vkDestroyPipelineLayout(vk->device, p->layout, NULL);
            for (uint32_t s = 0; s < p->set_count; s++)
                if (p->sets[s])
                    vkDestroyDescriptorSetLayout(vk->device, p->sets[s], NULL);
        }
        if (vk->pool)
            vkDestroyCommandPool(vk->device, vk->pool, NULL);
        vkDestroyDevice(vk->device, NULL);
    }
    for (uint32_t i = 0; i < vk->pipeline_count; i++) {
        dgpb_free(vk->pipelines[i].key);
        dgpb_free(vk->pipelines[i].failure);
    }
    if (vk->instance)
        vkDestroyInstance(vk->instance, NULL);
    dgpb_free(vk);
}

static const char *vk_device_name(const void *host)
{
    return ((const vk_host *)host)->device_name;
}

static const char *vk_driver(const void *host)
{
    return ((const vk_host *)host)->driver;
}

static uint32_t vk_pipeline_count(const void *host)
{
    const vk_host *vk = host;
    uint32_t n = 0;
    for (uint32_t i = 0; i < vk->pipeline_count; i++)
        n += vk->pipelines[i].pipe != VK_NULL_HANDLE;
    return n;
}

/* ---- bundles and pipelines --------------------------------------------- */

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
    case DGPB_KIND_RW_TEXTURE:
        *out = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        return true;
    default:
        return false;
    }
}

/* The capabilities the device has (bit 1 << DGPB_CAP_*). */
static uint32_t capabilities(const vk_host *vk)
{
    return (vk->atomic64 ? 1u << DGPB_CAP_ATOMIC64 : 0) |
           (vk->subgroup_basic ? 1u << DGPB_CAP_SUBGROUP_BASIC : 0) |
           (vk->float16 ? 1u << DGPB_CAP_HALF : 0);
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
 * Adds an entry's rows to the pipeline: descriptor rows to its slots, one per
 * (space, binding), and value rows of space DGPB_SPACE_LAUNCH to the
 * push-constant range.
 */
static bool add_rows(pipeline *p, const dgpb_entry_view *e, dgpb_diag *r)
{
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *row = dgpb_entry_param(e, i);
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
        VkDescriptorType type;
        if (!descriptor_type(row->kind, &type)) {
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
        slot *s = NULL;
        for (uint32_t j = 0; j < p->slot_count; j++)
            if (p->slots[j].space == row->space && p->slots[j].binding == row->binding)
                s = &p->slots[j];
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
            s->type = type;
            s->kind = row->kind;
            if (row->kind != DGPB_KIND_VALUE)
                s->row = row;
        }
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
            if (p->slots[i].space != set)
                continue;
            b[n++] = (VkDescriptorSetLayoutBinding){.binding = p->slots[i].binding,
                                                    .descriptorType = p->slots[i].type,
                                                    .descriptorCount = 1,
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

static VkFormat vk_format(uint32_t f)
{
    switch (f) {
    case DGPB_RUN_FORMAT_R16FLOAT:
        return VK_FORMAT_R16_SFLOAT;
    case DGPB_RUN_FORMAT_R32FLOAT:
        return VK_FORMAT_R32_SFLOAT;
    case DGPB_RUN_FORMAT_RG32FLOAT:
        return VK_FORMAT_R32G32_SFLOAT;
    case DGPB_RUN_FORMAT_RGBA32FLOAT:
        return VK_FORMAT_R32G32B32A32_SFLOAT;
    case DGPB_RUN_FORMAT_R32UINT:
        return VK_FORMAT_R32_UINT;
    default:
        return VK_FORMAT_UNDEFINED;
    }
}

/* The colour attachment of a render request, if any. */
static const dgpb_run_param *attachment_of(const dgpb_run_request *c)
{
    for (uint32_t i = 0; i < c->param_count; i++)
        if (c->params[i].kind == DGPB_RUN_KIND_COLOR_ATTACHMENT)
            return &c->params[i];
    return NULL;
}

static bool create_pipeline(vk_host *vk, pipeline *p, const dgpb_entry_view *const *entries,
                            VkFormat color, dgpb_diag *r);

/* The pipeline of a request: found in the cache, or created from the bundle. NULL on failure. */
static pipeline *get_pipeline(vk_host *vk, const char *bundle_key, const dgpb_run_request *c,
                              dgpb_diag *r, const dgpb_entry_view *const *entries)
{
    bool gfx = c->fragment != NULL;
    const dgpb_run_param *att = attachment_of(c);
    VkFormat color = att ? vk_format(att->format) : VK_FORMAT_R32G32B32A32_SFLOAT;
    char tail[64];
    snprintf(tail, sizeof tail, "/%d", (int)color);
    size_t len =
        strlen(bundle_key) + strlen(c->entry) + (gfx ? strlen(c->fragment) : 0) + strlen(tail) + 3;
    char *key = mem_alloc(len);
    if (!key) {
        run_fail(r, DGPB_ERR_NOMEM, "out of memory");
        return NULL;
    }
    snprintf(key, len, "%s\n%s\n%s%s", bundle_key, c->entry, gfx ? c->fragment : "", tail);
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
    if (!create_pipeline(vk, p, entries, color, r) && (p->failure = mem_alloc(sizeof *p->failure)))
        *p->failure = *r;
    if (!p->pipe && !p->failure) { /* no memory to remember why: try again next time */
        dgpb_free(p->key);
        vk->pipeline_count--;
    }
    return p->pipe ? p : NULL;
}

/* Creates the layout and pipeline of `entries` (one compute, or vertex and fragment). */
static bool create_pipeline(vk_host *vk, pipeline *p, const dgpb_entry_view *const *entries,
                            VkFormat color, dgpb_diag *r)
{
    bool gfx = p->graphics;
    for (int i = 0; i < (gfx ? 2 : 1); i++)
        if (run_check_capabilities(entries[i], capabilities(vk), vk->mask, vk->device_name, r) ||
            !add_rows(p, entries[i], r))
            return false;
    VkShaderStageFlags stages = gfx ? VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT
                                    : VK_SHADER_STAGE_COMPUTE_BIT;
    if (!make_layout(vk, p, stages, r))
        return false;
    memcpy(p->group_size, entries[0]->thread_group_size, sizeof p->group_size);

    VkShaderModule mods[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkResult res = VK_ERROR_UNKNOWN;
    for (int i = 0; i < (gfx ? 2 : 1); i++)
        if (!(mods[i] = make_module(vk, entries[i], r)))
            goto out;
    if (!gfx) {
        VkComputePipelineCreateInfo ci = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                      .module = mods[0],
                      .pName = "main"},
            .layout = p->layout};
        res = vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &ci, NULL, &p->pipe);
    } else {
        if (!vk->dynamic_rendering || !vk->graphics_queue) {
            run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                     "device '%s' has no graphics queue with dynamic rendering (Vulkan 1.3)",
                     vk->device_name);
            goto out;
        }
        VkPipelineShaderStageCreateInfo st[2] = {
            {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
             .stage = VK_SHADER_STAGE_VERTEX_BIT,
             .module = mods[0],
             .pName = "main"},
            {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
             .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
             .module = mods[1],
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
            .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
            .lineWidth = 1.0f};
        VkPipelineMultisampleStateCreateInfo ms = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
            .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
        VkPipelineColorBlendAttachmentState cba = {.colorWriteMask = 0xF};
        VkPipelineColorBlendStateCreateInfo cb = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
            .attachmentCount = 1,
            .pAttachments = &cba};
        VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
        VkPipelineDynamicStateCreateInfo ds = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
            .dynamicStateCount = 2,
            .pDynamicStates = dyn};
        VkPipelineRenderingCreateInfo rci = {.sType =
                                                 VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                             .colorAttachmentCount = 1,
                                             .pColorAttachmentFormats = &color};
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
                                           .layout = p->layout};
        res = vkCreateGraphicsPipelines(vk->device, VK_NULL_HANDLE, 1, &ci, NULL, &p->pipe);
    }
    if (res != VK_SUCCESS)
        fail(r, "creating the pipeline of entry '%.*s' failed (VkResult %d)",
             (int)entries[0]->name.len, entries[0]->name.ptr, (int)res);
out:
    for (int i = 0; i < 2; i++)
        if (mods[i])
            vkDestroyShaderModule(vk->device, mods[i], NULL);
    return p->pipe != VK_NULL_HANDLE;
}

/* ---- resources of one run ---------------------------------------------- */

typedef struct resource {
    int index;    /* the request parameter it holds; -1 for a uniform block or an unnamed sampler */
    VkBuffer buf; /* the buffer, or the staging buffer of an image */
    VkDeviceMemory buf_mem;
    uint8_t *map;
    VkDeviceSize size;
    VkImage img;
    VkExtent3D extent; /* the image's extent and layers, for copies */
    uint32_t layers;
    VkDeviceMemory img_mem;
    VkImageView view;
    VkSampler sampler;
} resource;

static int memory_type(const vk_host *vk, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < vk->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (vk->mem.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

static bool make_buffer(vk_host *vk, resource *res, VkDeviceSize size, VkBufferUsageFlags usage,
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

static bool make_image(vk_host *vk, resource *res, const dgpb_run_param *cp,
                       VkImageUsageFlags usage, dgpb_diag *r)
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
    /* The image type, view type, extent and layers of the request's dimension. */
    VkImageType image_type = VK_IMAGE_TYPE_2D;
    VkImageViewType view = VK_IMAGE_VIEW_TYPE_2D;
    VkExtent3D extent = {cp->width, cp->height, 1};
    uint32_t layers = 1;
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
    case DGPB_RUN_DIM_2D_ARRAY:
        view = VK_IMAGE_VIEW_TYPE_2D_ARRAY, layers = depth;
        break;
    default:
        break;
    }
    VkImageCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .flags = flags,
                            .imageType = image_type,
                            .format = format,
                            .extent = extent,
                            .mipLevels = 1,
                            .arrayLayers = layers,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = usage | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
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
                                 .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers}};
    if (vkCreateImageView(vk->device, &vci, NULL, &res->view) != VK_SUCCESS) {
        fail(r, "parameter '%s': vkCreateImageView failed", cp->name);
        return false;
    }
    /* The staging buffer carries the texels in and out, row by row, tightly packed. */
    if (!make_buffer(vk, res, cp->size, 0, r))
        return false;
    if (cp->input)
        memcpy(res->map, cp->input, cp->size);
    return true;
}

static void free_resource(vk_host *vk, resource *res)
{
    if (res->sampler)
        vkDestroySampler(vk->device, res->sampler, NULL);
    if (res->view)
        vkDestroyImageView(vk->device, res->view, NULL);
    if (res->img)
        vkDestroyImage(vk->device, res->img, NULL);
    if (res->img_mem)
        vkFreeMemory(vk->device, res->img_mem, NULL);
    if (res->buf)
        vkDestroyBuffer(vk->device, res->buf, NULL);
    if (res->buf_mem)
        vkFreeMemory(vk->device, res->buf_mem, NULL);
}

static const dgpb_run_param *case_param(const dgpb_run_request *c, const dgpb_param_view *row)
{
    for (uint32_t i = 0; i < c->param_count; i++)
        if (c->params[i].kind != DGPB_RUN_KIND_COLOR_ATTACHMENT &&
            dgpb_str_eq(row->name, c->params[i].name))
            return &c->params[i];
    return NULL;
}

/* Creates and fills the resource of one slot. */
static bool make_slot_resource(vk_host *vk, const dgpb_run_request *c, const slot *s, resource *res,
                               dgpb_diag *r)
{
    if (s->kind == DGPB_KIND_VALUE) {
        /* The uniform block: each value at its row's offset, with its row's size. */
        if (!make_buffer(vk, res, s->block_size, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, r))
            return false;
        for (uint32_t i = 0; i < s->value_count; i++) {
            const dgpb_param_view *row = s->values[i];
            const dgpb_run_param *cp = case_param(c, row);
            if (!cp || dgpb_run_value_place(cp, row->size, res->map + row->offset)) {
                run_fail(r, DGPB_ERR_RUN_SIZE, "value '%.*s' does not fit its row's %u bytes",
                         (int)row->name.len, row->name.ptr, row->size);
                return false;
            }
        }
        return true;
    }
    const dgpb_run_param *cp = case_param(c, s->row);
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
        if (!make_buffer(vk, res, bytes ? bytes : 4,
                         s->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                             ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                             : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         r))
            return false;
        if (cp->input)
            memcpy(res->map, cp->input, cp->input_size ? cp->input_size : cp->size);
        return true;
    }
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        return make_image(vk, res, cp, VK_IMAGE_USAGE_SAMPLED_BIT, r);
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        return make_image(vk, res, cp, VK_IMAGE_USAGE_STORAGE_BIT, r);
    case VK_DESCRIPTOR_TYPE_SAMPLER: {
        /* Point sampling, clamped: texel centres read exact texels. */
        VkSamplerCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                  .magFilter = VK_FILTER_NEAREST,
                                  .minFilter = VK_FILTER_NEAREST,
                                  .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                  .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                  .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                  .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};
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

static void image_barrier(VkCommandBuffer cmd, VkImage img, VkImageLayout from, VkImageLayout to,
                          VkAccessFlags src_access, VkAccessFlags dst_access,
                          VkPipelineStageFlags src, VkPipelineStageFlags dst)
{
    VkImageMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = img,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, VK_REMAINING_ARRAY_LAYERS}};
    vkCmdPipelineBarrier(cmd, src, dst, 0, 0, NULL, 0, NULL, 1, &b);
}

/* Copies every texel (all layers, all slices, tightly packed) between the image and its staging. */
static void copy_image(VkCommandBuffer cmd, const resource *res, bool in)
{
    VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, res->layers},
                                .imageExtent = res->extent};
    if (in)
        vkCmdCopyBufferToImage(cmd, res->buf, res->img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &region);
    else
        vkCmdCopyImageToBuffer(cmd, res->img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, res->buf, 1,
                               &region);
}

/* Copies a resource's bytes (buffer, or an image's staging buffer) into the result. */
static bool read_back(const resource *res, const dgpb_run_param *cp, dgpb_run_output *out,
                      dgpb_diag *r)
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

static int vk_run(void *host, const char *key, const dgpb_entry_view *const *entries,
                  const dgpb_run_request *c, const dgpb_param_view *const *rows,
                  dgpb_run_result *result, dgpb_diag *r)
{
    vk_host *vk = host;
    for (uint32_t i = 0; i < c->param_count; i++) {
        result->outputs[i].kind = rows[i] ? rows[i]->kind : c->params[i].kind;
        result->outputs[i].flags = rows[i] ? rows[i]->flags : 0;
    }
    result->output_count = c->param_count;
    memcpy(result->thread_group_size, entries[0]->thread_group_size,
           sizeof result->thread_group_size);
    pipeline *p = get_pipeline(vk, key, c, r, entries);
    if (!p)
        return r->code;
    if (c->fragment && c->vertices == 0)
        return DGPB_OK; /* created only */
    uint32_t repeat = c->repeat ? c->repeat : 1;
    bool timed = c->time && !c->fragment;
    if (timed && !vk->timestamp_bits)
        return run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                        "device '%s' has no timestamps on its compute queue (needed for timing)",
                        vk->device_name);

    resource res[MAX_SLOTS + 1];
    memset(res, 0, sizeof res);
    for (uint32_t i = 0; i < MAX_SLOTS + 1; i++)
        res[i].index = -1;
    VkQueryPool queries = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    const dgpb_run_param *att = attachment_of(c);
    resource *att_res = &res[MAX_SLOTS];
    uint8_t *push = NULL;

    for (uint32_t i = 0; i < p->slot_count; i++)
        if (!make_slot_resource(vk, c, &p->slots[i], &res[i], r))
            goto out;
    /* The push constants: each launch-space value at its row's offset, with its row's size. */
    if (p->push.size) {
        if (!(push = mem_calloc(1, p->push.size))) {
            run_fail(r, DGPB_ERR_NOMEM, "out of memory");
            goto out;
        }
        for (uint32_t i = 0; i < p->push.value_count; i++) {
            const dgpb_param_view *row = p->push.values[i];
            const dgpb_run_param *cp = case_param(c, row);
            if (!cp || dgpb_run_value_place(cp, row->size, push + row->offset)) {
                run_fail(r, DGPB_ERR_RUN_SIZE, "push constant '%.*s' does not fit its %u bytes",
                         (int)row->name.len, row->name.ptr, row->size);
                goto out;
            }
        }
    }
    if (c->fragment) {
        if (!att) {
            run_fail(r, DGPB_ERR_RUN_MISSING,
                     "a render request that draws needs a colour attachment");
            goto out;
        }
        att_res->index = (int)(att - c->params);
        if (!make_image(vk, att_res, att, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, r))
            goto out;
    }
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
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_SAMPLER, MAX_SLOTS},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, MAX_SLOTS},
    };
    VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = MAX_SETS,
                                      .poolSizeCount = 5,
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
        bool is_buffer = s->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
                         s->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = sets[s->space],
                                  .dstBinding = s->binding,
                                  .descriptorCount = 1,
                                  .descriptorType = s->type,
                                  .pBufferInfo = is_buffer ? &bi : NULL,
                                  .pImageInfo = is_buffer ? NULL : &ii};
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
    VkPipelineStageFlags shader_stage =
        c->fragment ? VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT
                    : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    /* Images: upload (or clear to zero), then the layout the shader uses. */
    for (uint32_t i = 0; i < p->slot_count; i++) {
        if (!res[i].img)
            continue;
        bool storage = p->slots[i].type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        image_barrier(cmd, res[i].img, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
        copy_image(cmd, &res[i], true);
        image_barrier(cmd, res[i].img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      storage ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                      VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_ACCESS_SHADER_READ_BIT | (storage ? VK_ACCESS_SHADER_WRITE_BIT : 0),
                      VK_PIPELINE_STAGE_TRANSFER_BIT, shader_stage);
    }
    VkPipelineBindPoint bind =
        c->fragment ? VK_PIPELINE_BIND_POINT_GRAPHICS : VK_PIPELINE_BIND_POINT_COMPUTE;
    vkCmdBindPipeline(cmd, bind, p->pipe);
    if (p->set_count)
        vkCmdBindDescriptorSets(cmd, bind, p->layout, 0, p->set_count, sets, 0, NULL);
    if (p->push.size)
        vkCmdPushConstants(cmd, p->layout, p->stages, 0, p->push.size, push);
    if (!c->fragment) {
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
        image_barrier(cmd, att_res->img, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
                      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
        VkRenderingAttachmentInfo ca = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                        .imageView = att_res->view,
                                        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                        .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
        VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                              .renderArea = {{0, 0}, {att->width, att->height}},
                              .layerCount = 1,
                              .colorAttachmentCount = 1,
                              .pColorAttachments = &ca};
        vk->begin_rendering(cmd, &ri);
        VkViewport viewport = {0, 0, (float)att->width, (float)att->height, 0, 1};
        VkRect2D scissor = {{0, 0}, {att->width, att->height}};
        vkCmdSetViewport(cmd, 0, 1, &viewport);
        vkCmdSetScissor(cmd, 0, 1, &scissor);
        vkCmdDraw(cmd, c->vertices, 1, 0, 0);
        vk->end_rendering(cmd);
        image_barrier(cmd, att_res->img, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                      VK_PIPELINE_STAGE_TRANSFER_BIT);
        copy_image(cmd, att_res, false);
    }
    /* Read back: storage images through their staging buffers, then everything to the host. */
    for (uint32_t i = 0; i < p->slot_count; i++) {
        if (!res[i].img || p->slots[i].type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
            continue;
        image_barrier(cmd, res[i].img, VK_IMAGE_LAYOUT_GENERAL,
                      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT, shader_stage, VK_PIPELINE_STAGE_TRANSFER_BIT);
        copy_image(cmd, &res[i], false);
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
    for (uint32_t i = 0; i < MAX_SLOTS + 1; i++) {
        int k = res[i].index;
        if (k >= 0 && res[i].map && !read_back(&res[i], &c->params[k], &result->outputs[k], r))
            goto out;
    }
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
            uint64_t t = (ticks[2 * n + 1] - ticks[2 * n]) & mask;
            result->times_ms[n] = (double)t * vk->timestamp_period / 1e6;
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
    for (uint32_t i = 0; i < MAX_SLOTS + 1; i++)
        free_resource(vk, &res[i]);
    if (queries)
        vkDestroyQueryPool(vk->device, queries, NULL);
    dgpb_free(push);
    return r->code;
}

static const run_host_ops vk_ops = {vk_destroy, vk_device_name, vk_driver, vk_pipeline_count,
                                    vk_run};

int run_vulkan_create(const dgpb_runner_desc *desc, void **host, const run_host_ops **ops,
                      dgpb_diag *d)
{
    vk_host *vk = NULL;
    int rc = vk_create(desc, &vk, d);
    *host = vk;
    *ops = &vk_ops;
    return rc;
}
