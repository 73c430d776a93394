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
 * This file creates the instance and the device (with every feature an
 * entry's capabilities may need that the device has, vulkan_features.c) and
 * hands run.c the host's operations; vulkan_internal.h maps the other files. Every buffer lives in
 * host-visible coherent memory and is mapped; textures are optimal-tiling
 * images filled and read back through staging buffers. With `time`, a
 * timestamp before and after each dispatch gives its GPU time.
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "run/vulkan_internal.h"

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
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = &drv};
    vkGetPhysicalDeviceProperties2(vk->phys, &p2);
    snprintf(vk->driver, sizeof vk->driver, "%.200s %.200s (driver version 0x%x, Vulkan %u.%u.%u)",
             drv.driverName, drv.driverInfo, p2.properties.driverVersion,
             VK_API_VERSION_MAJOR(vk->api_version), VK_API_VERSION_MINOR(vk->api_version),
             VK_API_VERSION_PATCH(vk->api_version));
    /* Every feature an entry may need that the device has, and the extensions they need
       (vulkan_features.c); entries are checked against them before they run. */
    vk_features_query(vk->phys, vk->api_version, &vk->features);
    vk_features on;
    const char *extensions[VK_EXTENSION_COUNT];
    uint32_t extension_count = 0;
    vk_features_enable(&vk->features, &on, extensions, &extension_count);
    vk->dynamic_rendering = on.v13 && on.f13.dynamicRendering;

    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = vk->queue_family,
                                   .queueCount = 1,
                                   .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                              .pNext = &on.f2,
                              .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci,
                              .enabledExtensionCount = extension_count,
                              .ppEnabledExtensionNames = extensions};
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
    if ((on.extensions & (1u << VK_EXT_MESH)) && on.mesh.meshShader)
        vk->draw_mesh_tasks =
            (PFN_vkCmdDrawMeshTasksEXT)vkGetDeviceProcAddr(vk->device, "vkCmdDrawMeshTasksEXT");
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
        vk_fill_destroy(vk);
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
