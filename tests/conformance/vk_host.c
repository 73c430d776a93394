/*
 * tests/conformance/vk_host.c - the minimal Vulkan host (see vk_host.h).
 *
 * Layout of this file: device creation; bundles and pipelines, built from the
 * parameter table only; resources for one case; recording, submitting and
 * comparing. Every buffer lives in host-visible coherent memory and is
 * mapped; textures are optimal-tiling images filled and read back through
 * staging buffers.
 */
#include "vk_host.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/reader.h"

#define MAX_SETS 8
#define MAX_SLOTS 32
#define MAX_VALUES 32
#define MAX_BUNDLES 64
#define MAX_PIPELINES 64

#ifndef DGPB_SPACE_LAUNCH
#define DGPB_SPACE_LAUNCH 0xFFFFFFFFu /* launch parameters: push constants on spirv */
#endif

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

typedef struct bundle {
    char stem[64];
    char error[512]; /* why it could not be loaded; later cases fail the same way */
    uint8_t *bytes;
    dgpb_bundle *b;
    const dgpb_target_view *t;
} bundle;

typedef struct pipeline {
    char key[160];
    char error[512]; /* why it could not be created; later cases fail the same way */
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

struct conf_vk {
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
    bool int64, atomic64, subgroup_basic, float16, dynamic_rendering;
    PFN_vkCmdBeginRendering begin_rendering;
    PFN_vkCmdEndRendering end_rendering;
    uint32_t bundle_count;
    bundle bundles[MAX_BUNDLES];
    uint32_t pipeline_count;
    pipeline pipelines[MAX_PIPELINES];
};

static void fail(conf_result *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (r->pass || !r->message[0])
        vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
    r->pass = false;
}

/* ---- device ------------------------------------------------------------ */

conf_vk *conf_vk_create(char *err, size_t err_size)
{
    conf_vk *vk = calloc(1, sizeof *vk);
    if (!vk) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "dgpb-conformance",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app};
    VkResult res = vkCreateInstance(&ici, NULL, &vk->instance);
    if (res != VK_SUCCESS) {
        snprintf(err, err_size,
                 "cannot create a Vulkan instance (VkResult %d): install the Vulkan loader "
                 "(libvulkan1) and a driver (mesa-vulkan-drivers for lavapipe)",
                 (int)res);
        free(vk);
        return NULL;
    }
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(vk->instance, &n, NULL);
    VkPhysicalDevice devs[16];
    if (n > 16)
        n = 16;
    if (n)
        vkEnumeratePhysicalDevices(vk->instance, &n, devs);
    const char *want = getenv("DGPB_VK_DEVICE");
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
        snprintf(vk->device_name, sizeof vk->device_name, "%s", props.deviceName);
    }
    if (!vk->phys) {
        if (want)
            snprintf(err, err_size,
                     "no Vulkan 1.2 device with a compute queue matches DGPB_VK_DEVICE='%s' "
                     "(%u devices found)",
                     want, n);
        else
            snprintf(err, err_size,
                     "no Vulkan 1.2 device with a compute queue found (%u devices): install "
                     "mesa-vulkan-drivers (lavapipe, a software device) or a GPU driver",
                     n);
        vkDestroyInstance(vk->instance, NULL);
        free(vk);
        return NULL;
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
        snprintf(err, err_size, "cannot create a device on '%s' (VkResult %d)", vk->device_name,
                 (int)res);
        vkDestroyInstance(vk->instance, NULL);
        free(vk);
        return NULL;
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
        snprintf(err, err_size, "cannot create a command pool");
        conf_vk_destroy(vk);
        return NULL;
    }
    return vk;
}

void conf_vk_destroy(conf_vk *vk)
{
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
    for (uint32_t i = 0; i < vk->bundle_count; i++) {
        dgpb_bundle_close(vk->bundles[i].b);
        dgpb_free(vk->bundles[i].bytes);
    }
    if (vk->instance)
        vkDestroyInstance(vk->instance, NULL);
    free(vk);
}

const char *conf_vk_device_name(const conf_vk *vk)
{
    return vk->device_name;
}

const char *conf_vk_driver(const conf_vk *vk)
{
    return vk->driver;
}

uint32_t conf_vk_pipeline_count(const conf_vk *vk)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < vk->pipeline_count; i++)
        n += vk->pipelines[i].pipe != VK_NULL_HANDLE;
    return n;
}

/* ---- bundles and pipelines --------------------------------------------- */

static bundle *load_bundle(conf_vk *vk, const char *dir, const char *stem, conf_result *r)
{
    for (uint32_t i = 0; i < vk->bundle_count; i++)
        if (!strcmp(vk->bundles[i].stem, stem)) {
            if (!vk->bundles[i].b)
                fail(r, "%s", vk->bundles[i].error);
            return vk->bundles[i].b ? &vk->bundles[i] : NULL;
        }
    if (vk->bundle_count == MAX_BUNDLES) {
        fail(r, "too many bundles");
        return NULL;
    }
    bundle *bd = &vk->bundles[vk->bundle_count++];
    snprintf(bd->stem, sizeof bd->stem, "%s", stem);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.dgpb", dir, stem);
    size_t size = 0;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (dgpb_file_read(path, DGPB_MAX_BUNDLE_SIZE, &bd->bytes, &size, &diag) ||
        dgpb_bundle_open(bd->bytes, size, 0, &bd->b, &diag) ||
        dgpb_bundle_find_backend(bd->b, DGPB_BACKEND_VULKAN, &bd->t, &diag)) {
        snprintf(bd->error, sizeof bd->error, "%.200s: %.300s", path, diag.message);
        fail(r, "%s", bd->error);
        dgpb_bundle_close(bd->b);
        bd->b = NULL;
        return NULL;
    }
    return bd;
}

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

/* Fails when the device lacks one of the entry's capabilities (the first one it lacks). */
static bool check_capabilities(const conf_vk *vk, const dgpb_entry_view *e, conf_result *r)
{
    for (uint32_t i = 0; i < e->capability_count; i++) {
        int cap = dgpb_capability_from_name(e->capabilities[i].ptr, e->capabilities[i].len);
        bool ok = false;
        switch (cap) {
        case DGPB_CAP_ATOMIC64:
            ok = vk->atomic64;
            break;
        case DGPB_CAP_SUBGROUP_BASIC:
            ok = vk->subgroup_basic;
            break;
        case DGPB_CAP_HALF:
            ok = vk->float16;
            break;
        default:
            ok = false;
        }
        if (!ok) {
            fail(r, "entry '%.*s' needs capability '%.*s', which device '%s' lacks",
                 (int)e->name.len, e->name.ptr, (int)e->capabilities[i].len, e->capabilities[i].ptr,
                 vk->device_name);
            return false;
        }
    }
    return true;
}

/* Adds a value row to a block's rows once (a render pair may list the same row twice). */
static bool add_value_row(const dgpb_param_view **values, uint32_t *count,
                          const dgpb_param_view *row, conf_result *r)
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
static bool add_rows(pipeline *p, const dgpb_entry_view *e, conf_result *r)
{
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *row = dgpb_entry_param(e, i);
        if (row->space == DGPB_SPACE_LAUNCH) {
            if (row->kind != DGPB_KIND_VALUE) {
                fail(r,
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
            fail(r, "parameter '%.*s' of entry '%.*s': kind '%s' is not supported by this host",
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

static VkShaderModule make_module(conf_vk *vk, const dgpb_entry_view *e, conf_result *r)
{
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (dgpb_blob_verify(&e->code, &diag)) {
        fail(r, "entry '%.*s': %s", (int)e->name.len, e->name.ptr, diag.message);
        return VK_NULL_HANDLE;
    }
    if (e->code.size % 4) {
        fail(r, "entry '%.*s': SPIR-V of %u bytes is not whole words", (int)e->name.len,
             e->name.ptr, e->code.size);
        return VK_NULL_HANDLE;
    }
    /* Blobs are not aligned inside a bundle; the driver reads words. */
    uint32_t *words = malloc(e->code.size);
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
    free(words);
    if (res != VK_SUCCESS)
        fail(r, "entry '%.*s': vkCreateShaderModule failed (VkResult %d)", (int)e->name.len,
             e->name.ptr, (int)res);
    return m;
}

static bool make_layout(conf_vk *vk, pipeline *p, VkShaderStageFlags stages, conf_result *r)
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
        fail(r, "the push constants take %u bytes, device '%s' allows %u", p->push.size,
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

static const dgpb_entry_view *find_entry(const bundle *bd, const char *name, uint32_t stage,
                                         conf_result *r)
{
    const dgpb_entry_view *e;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (dgpb_target_find_entry(bd->t, name, &e, &diag)) {
        fail(r, "bundle '%s': %s", bd->stem, diag.message);
        return NULL;
    }
    if (e->stage_id != stage) {
        fail(r, "entry '%s' is a %s shader, not %s", name, dgpb_stage_name(e->stage_id),
             dgpb_stage_name(stage));
        return NULL;
    }
    return e;
}

static VkFormat vk_format(uint32_t f)
{
    switch (f) {
    case CONF_FORMAT_R16FLOAT:
        return VK_FORMAT_R16_SFLOAT;
    case CONF_FORMAT_R32FLOAT:
        return VK_FORMAT_R32_SFLOAT;
    case CONF_FORMAT_RG32FLOAT:
        return VK_FORMAT_R32G32_SFLOAT;
    case CONF_FORMAT_RGBA32FLOAT:
        return VK_FORMAT_R32G32B32A32_SFLOAT;
    case CONF_FORMAT_R32UINT:
        return VK_FORMAT_R32_UINT;
    default:
        return VK_FORMAT_UNDEFINED;
    }
}

/* The colour attachment of a render case, if any. */
static const conf_param *attachment_of(const conf_case *c)
{
    for (uint32_t i = 0; i < c->param_count; i++)
        if (c->params[i].kind == CONF_KIND_COLOR_ATTACHMENT)
            return &c->params[i];
    return NULL;
}

static bool create_pipeline(conf_vk *vk, pipeline *p, const dgpb_entry_view **entries,
                            VkFormat color, conf_result *r);

/* The pipeline of a case: found in the cache, or created from the bundle. NULL on failure. */
static pipeline *get_pipeline(conf_vk *vk, const char *dir, const conf_case *c, conf_result *r,
                              const dgpb_entry_view **entries)
{
    bundle *bd = load_bundle(vk, dir, c->module, r);
    if (!bd)
        return NULL;
    bool gfx = c->type == CONF_RENDER;
    entries[0] = find_entry(bd, c->entry, gfx ? DGPB_STAGE_VERTEX : DGPB_STAGE_COMPUTE, r);
    entries[1] = gfx ? find_entry(bd, c->fragment, DGPB_STAGE_FRAGMENT, r) : NULL;
    if (!entries[0] || (gfx && !entries[1]))
        return NULL;
    const conf_param *att = attachment_of(c);
    VkFormat color = att ? vk_format(att->format) : VK_FORMAT_R32G32B32A32_SFLOAT;
    char key[160];
    snprintf(key, sizeof key, "%s/%s/%s/%d", c->module, c->entry, gfx ? c->fragment : "",
             (int)color);
    for (uint32_t i = 0; i < vk->pipeline_count; i++)
        if (!strcmp(vk->pipelines[i].key, key)) {
            if (!vk->pipelines[i].pipe)
                fail(r, "%s", vk->pipelines[i].error);
            return vk->pipelines[i].pipe ? &vk->pipelines[i] : NULL;
        }
    if (vk->pipeline_count == MAX_PIPELINES) {
        fail(r, "too many pipelines");
        return NULL;
    }
    pipeline *p = &vk->pipelines[vk->pipeline_count++];
    memset(p, 0, sizeof *p);
    snprintf(p->key, sizeof p->key, "%s", key);
    p->graphics = gfx;
    if (!create_pipeline(vk, p, entries, color, r))
        snprintf(p->error, sizeof p->error, "%.500s", r->message);
    return p->pipe ? p : NULL;
}

/* Creates the layout and pipeline of `entries` (one compute, or vertex and fragment). */
static bool create_pipeline(conf_vk *vk, pipeline *p, const dgpb_entry_view **entries,
                            VkFormat color, conf_result *r)
{
    bool gfx = p->graphics;
    const char *key = p->key;
    for (int i = 0; i < (gfx ? 2 : 1); i++)
        if (!check_capabilities(vk, entries[i], r) || !add_rows(p, entries[i], r))
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
            fail(r, "device '%s' has no graphics queue with dynamic rendering (Vulkan 1.3)",
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
        fail(r, "creating the pipeline of '%s' failed (VkResult %d)", key, (int)res);
out:
    for (int i = 0; i < 2; i++)
        if (mods[i])
            vkDestroyShaderModule(vk->device, mods[i], NULL);
    return p->pipe != VK_NULL_HANDLE;
}

/* ---- resources of one case --------------------------------------------- */

typedef struct resource {
    const conf_param *param; /* the case's parameter; NULL for a uniform block */
    VkBuffer buf;            /* the buffer, or the staging buffer of an image */
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

static int memory_type(const conf_vk *vk, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < vk->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (vk->mem.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

static bool make_buffer(conf_vk *vk, resource *res, VkDeviceSize size, VkBufferUsageFlags usage,
                        conf_result *r)
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

static bool make_image(conf_vk *vk, resource *res, const conf_param *cp, VkImageUsageFlags usage,
                       conf_result *r)
{
    VkFormat format = vk_format(cp->format);
    uint32_t depth = cp->depth ? cp->depth : 1;
    if (format == VK_FORMAT_UNDEFINED || !cp->width || !cp->height || cp->dim >= CONF_DIM_COUNT ||
        (cp->dim == CONF_DIM_CUBE && (depth != 6 || cp->width != cp->height))) {
        fail(r, "parameter '%s': a texture needs a format and a size (a cube: 6 square faces)",
             cp->name);
        return false;
    }
    /* The image type, view type, extent and layers of the case's dimension. */
    VkImageType image_type = VK_IMAGE_TYPE_2D;
    VkImageViewType view = VK_IMAGE_VIEW_TYPE_2D;
    VkExtent3D extent = {cp->width, cp->height, 1};
    uint32_t layers = 1;
    VkImageCreateFlags flags = 0;
    switch (cp->dim) {
    case CONF_DIM_1D:
        image_type = VK_IMAGE_TYPE_1D, view = VK_IMAGE_VIEW_TYPE_1D;
        break;
    case CONF_DIM_3D:
        image_type = VK_IMAGE_TYPE_3D, view = VK_IMAGE_VIEW_TYPE_3D, extent.depth = depth;
        break;
    case CONF_DIM_CUBE:
        view = VK_IMAGE_VIEW_TYPE_CUBE, layers = 6, flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
        break;
    case CONF_DIM_2D_ARRAY:
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
             conf_format_name(cp->format), cp->width, cp->height);
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

static void free_resource(conf_vk *vk, resource *res)
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

static const conf_param *case_param(const conf_case *c, const dgpb_param_view *row)
{
    for (uint32_t i = 0; i < c->param_count; i++)
        if (c->params[i].kind != CONF_KIND_COLOR_ATTACHMENT &&
            dgpb_str_eq(row->name, c->params[i].name))
            return &c->params[i];
    return NULL;
}

/* Every named parameter of the case must be a row of the pipeline's entries. */
static bool check_names(const conf_case *c, const dgpb_entry_view *const *entries, int n,
                        conf_result *r)
{
    for (uint32_t i = 0; i < c->param_count; i++) {
        const conf_param *cp = &c->params[i];
        if (cp->kind == CONF_KIND_COLOR_ATTACHMENT)
            continue;
        const dgpb_param_view *row = NULL;
        for (int k = 0; k < n && !row; k++)
            for (uint32_t j = 0; j < entries[k]->param_count && !row; j++)
                if (dgpb_str_eq(entries[k]->params[j].name, cp->name))
                    row = &entries[k]->params[j];
        if (!row) {
            fail(r, "the entry has no parameter '%s'", cp->name);
            return false;
        }
        if (row->kind != cp->kind) {
            fail(r, "parameter '%s' is a %s in the bundle, the case gives a %s", cp->name,
                 dgpb_kind_name(row->kind), dgpb_kind_name(cp->kind));
            return false;
        }
        if (row->kind == DGPB_KIND_VALUE && conf_value_place(cp, row->size, NULL)) {
            fail(r, "value '%s' is %u bytes in the bundle, the case gives %zu%s", cp->name,
                 row->size, cp->size, cp->matrix_rows ? " (a matrix, by rows)" : "");
            return false;
        }
    }
    return true;
}

/* Creates and fills the resource of one slot. */
static bool make_slot_resource(conf_vk *vk, const conf_case *c, const slot *s, resource *res,
                               conf_result *r)
{
    if (s->kind == DGPB_KIND_VALUE) {
        /* The uniform block: each value at its row's offset, with its row's size. */
        if (!make_buffer(vk, res, s->block_size, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, r))
            return false;
        for (uint32_t i = 0; i < s->value_count; i++) {
            const dgpb_param_view *row = s->values[i];
            const conf_param *cp = case_param(c, row);
            if (!cp || !cp->input) {
                fail(r, "the case gives no value for '%.*s'", (int)row->name.len, row->name.ptr);
                return false;
            }
            if (conf_value_place(cp, row->size, res->map + row->offset)) {
                fail(r, "value '%s' does not fit its row's %u bytes", cp->name, row->size);
                return false;
            }
        }
        return true;
    }
    const conf_param *cp = case_param(c, s->row);
    if (!cp) {
        fail(r, "the case binds nothing to '%.*s' (space %u, binding %u)", (int)s->row->name.len,
             s->row->name.ptr, s->space, s->binding);
        return false;
    }
    res->param = cp;
    switch (s->type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        if (!make_buffer(vk, res, cp->size ? cp->size : 4,
                         s->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                             ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                             : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                         r))
            return false;
        if (cp->input)
            memcpy(res->map, cp->input, cp->size);
        return true;
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

/* Compares an output word for word; notes the first differences in r->message. */
static void compare(const char *name, const uint8_t *got, const uint8_t *want, size_t size,
                    conf_result *r)
{
    size_t words = size / 4, shown = 0;
    uint64_t exact = 0;
    char *m = r->message;
    for (size_t i = 0; i < words; i++) {
        uint32_t g, w;
        memcpy(&g, got + 4 * i, 4);
        memcpy(&w, want + 4 * i, 4);
        if (g == w) {
            exact++;
            continue;
        }
        if (shown < 4) {
            size_t len = strlen(m);
            snprintf(m + len, sizeof r->message - len, "%s%s[%zu] = 0x%08x, expected 0x%08x",
                     len ? "; " : "", name, i, g, w);
        }
        shown++;
    }
    r->words += words;
    r->exact += exact;
    if (exact != words)
        r->pass = false;
}

void conf_vk_run(conf_vk *vk, const char *bundle_dir, const conf_case *c, conf_result *r)
{
    memset(r, 0, sizeof *r);
    r->pass = true;
    const dgpb_entry_view *entries[2] = {NULL, NULL};
    pipeline *p = get_pipeline(vk, bundle_dir, c, r, entries);
    if (!p)
        return;
    int entry_count = c->type == CONF_RENDER ? 2 : 1;
    if (c->type == CONF_RENDER && c->vertices == 0)
        return; /* created only */
    if (!check_names(c, entries, entry_count, r))
        return;

    resource res[MAX_SLOTS + 1];
    memset(res, 0, sizeof res);
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    const conf_param *att = attachment_of(c);
    resource *att_res = &res[MAX_SLOTS];
    uint8_t *push = NULL;

    for (uint32_t i = 0; i < p->slot_count; i++)
        if (!make_slot_resource(vk, c, &p->slots[i], &res[i], r))
            goto out;
    /* The push constants: each launch-space value at its row's offset, with its row's size. */
    if (p->push.size) {
        if (!(push = calloc(1, p->push.size))) {
            fail(r, "out of memory");
            goto out;
        }
        for (uint32_t i = 0; i < p->push.value_count; i++) {
            const dgpb_param_view *row = p->push.values[i];
            const conf_param *cp = case_param(c, row);
            if (!cp || !cp->input) {
                fail(r, "the case gives no value for push constant '%.*s'", (int)row->name.len,
                     row->name.ptr);
                goto out;
            }
            if (conf_value_place(cp, row->size, push + row->offset)) {
                fail(r, "value '%s' does not fit its row's %u bytes", cp->name, row->size);
                goto out;
            }
        }
    }
    if (c->type == CONF_RENDER) {
        if (!att) {
            fail(r, "a render case that draws needs a colour attachment");
            goto out;
        }
        if (!make_image(vk, att_res, att, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, r))
            goto out;
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
        c->type == CONF_RENDER
            ? VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT
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
        c->type == CONF_RENDER ? VK_PIPELINE_BIND_POINT_GRAPHICS : VK_PIPELINE_BIND_POINT_COMPUTE;
    vkCmdBindPipeline(cmd, bind, p->pipe);
    if (p->set_count)
        vkCmdBindDescriptorSets(cmd, bind, p->layout, 0, p->set_count, sets, 0, NULL);
    if (p->push.size)
        vkCmdPushConstants(cmd, p->layout, p->stages, 0, p->push.size, push);
    if (c->type == CONF_COMPUTE) {
        uint32_t groups[3];
        for (int k = 0; k < 3; k++)
            groups[k] = (c->threads[k] + p->group_size[k] - 1) / p->group_size[k];
        for (uint32_t n = 0; n < (c->repeat ? c->repeat : 1); n++) {
            if (n) {
                VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                      .dstAccessMask =
                                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
                vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                     VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0,
                                     NULL);
            }
            vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
        }
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
    VkMemoryBarrier host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask =
                                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, shader_stage | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL, 0, NULL);
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

    /* Compare every output with the reference. */
    r->checked = true;
    for (uint32_t i = 0; i < p->slot_count; i++) {
        const conf_param *cp = res[i].param;
        if (cp && cp->expected)
            compare(cp->name, res[i].map, cp->expected, cp->size, r);
    }
    if (att && att->expected)
        compare(att->name, att_res->map, att->expected, att->size, r);
out:
    if (fence)
        vkDestroyFence(vk->device, fence, NULL);
    if (cmd)
        vkFreeCommandBuffers(vk->device, vk->pool, 1, &cmd);
    if (pool)
        vkDestroyDescriptorPool(vk->device, pool, NULL);
    for (uint32_t i = 0; i < MAX_SLOTS + 1; i++)
        free_resource(vk, &res[i]);
    free(push);
}
