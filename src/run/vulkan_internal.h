/*
 * src/run/vulkan_internal.h - what the files of the Vulkan host share: its
 * limits, the host's state, the pipelines it keeps and the resources of one
 * run (internal).
 *
 * The host in seven files, each calling only those below it: vulkan.c (the
 * instance and device, and the host's operations for run.c), vulkan_dispatch.c
 * (one run: recording, submitting, reading back), vulkan_render.c (a draw's
 * attachments and vertex buffers, and the draw), vulkan_pipeline.c
 * (pipelines, built from the parameter table only and kept per bundle and
 * entries), vulkan_fill.c (filling multisampled textures by drawing),
 * vulkan_resources.c (buffers, images and samplers of one run) and
 * vulkan_features.c (the device features an entry's capabilities need).
 */
#ifndef DGPB_VULKAN_INTERNAL_H
#define DGPB_VULKAN_INTERNAL_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define vk_run dgpb__vk_run
#define vk_get_pipeline dgpb__vk_get_pipeline
#define vk_draw_prepare dgpb__vk_draw_prepare
#define vk_draw_record dgpb__vk_draw_record
#define vk_draw_read_back dgpb__vk_draw_read_back
#define vk_draw_free dgpb__vk_draw_free
#define vk_make_buffer dgpb__vk_make_buffer
#define vk_make_image dgpb__vk_make_image
#define vk_free_resource dgpb__vk_free_resource
#define vk_case_param dgpb__vk_case_param
#define vk_make_slot_resource dgpb__vk_make_slot_resource
#define vk_image_barrier dgpb__vk_image_barrier
#define vk_copy_image dgpb__vk_copy_image
#define vk_read_back dgpb__vk_read_back
#define vk_features_query dgpb__vk_features_query
#define vk_features_enable dgpb__vk_features_enable
#define vk_check_capabilities dgpb__vk_check_capabilities
#define vk_stage_bit dgpb__vk_stage_bit
#define vk_fill_record dgpb__vk_fill_record
#define vk_fill_destroy dgpb__vk_fill_destroy

#include <stdbool.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

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
    uint32_t element; /* a fixed array of resources: this row's index (rows name[0], name[1]...) */
    VkDescriptorType type;
    bool compare;                              /* a sampler (combined too) that compares */
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
    push_block constants; /* pipeline constants (space DGPB_SPACE_PIPELINE_CONSTANT): their rows */
    VkShaderStageFlags stages;
    uint32_t group_size[3]; /* compute; the first stage of a mesh pipeline */
    bool graphics;          /* a render pipeline */
    bool mesh;              /* drawn with vkCmdDrawMeshTasksEXT */
    uint32_t vertex_bindings; /* a vertex pipeline: one binding per attribute, in its order */
} pipeline;

/* A pipeline that fills multisampled textures (vulkan_fill.c), per view format and samples. */
typedef struct fill_pipeline {
    VkFormat format;
    VkSampleCountFlagBits samples;
    VkPipeline pipe;
} fill_pipeline;

#define MAX_FILL_PIPELINES 16

#ifndef VK_KHR_cooperative_matrix /* Vulkan headers older than 1.3.255 (Debian 12's) */
#define VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME "VK_KHR_cooperative_matrix"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR                          \
    ((VkStructureType)1000506000)
typedef struct VkPhysicalDeviceCooperativeMatrixFeaturesKHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 cooperativeMatrix;
    VkBool32 cooperativeMatrixRobustBufferAccess;
} VkPhysicalDeviceCooperativeMatrixFeaturesKHR;
#endif

#ifndef VK_KHR_dynamic_rendering_local_read /* Vulkan headers older than 1.3.278 (Debian 12's) */
#define VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME "VK_KHR_dynamic_rendering_local_read"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR                \
    ((VkStructureType)1000232000)
#define VK_IMAGE_LAYOUT_RENDERING_LOCAL_READ_KHR ((VkImageLayout)1000232000)
typedef struct VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 dynamicRenderingLocalRead;
} VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR;
#endif

/*
 * The extensions vk_features_query() looks for, as bits of vk_features.extensions: those of
 * its extension structs, then those that hold no feature (the device has it or not).
 */
enum {
    VK_EXT_ATOMIC_FLOAT,
    VK_EXT_ATOMIC_FLOAT2,
    VK_EXT_CLOCK,
    VK_EXT_COOP,
    VK_EXT_MESH,
    VK_EXT_DERIVATIVES,
    VK_EXT_BARYCENTRIC,
    VK_EXT_SHADING_RATE,
    VK_EXT_LOCAL_READ, /* input attachments in dynamic rendering (vulkan_dispatch.c) */
    VK_EXT_STENCIL_EXPORT,
    VK_EXT_FULLY_COVERED,
    VK_EXT_VIEWPORT_LAYER,
    VK_EXTENSION_COUNT
};

/* A device's features (what it has, or what it is created with), chained from f2. */
typedef struct vk_features {
    VkPhysicalDeviceFeatures2 f2;
    VkPhysicalDeviceVulkan11Features f11;
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan13Features f13; /* chained on a Vulkan 1.3 device only */
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
    VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomic_float2;
    VkPhysicalDeviceShaderClockFeaturesKHR clock;
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coop;
    VkPhysicalDeviceMeshShaderFeaturesEXT mesh;
    /* VK_KHR_compute_shader_derivatives' struct (or VK_NV_'s, the same) */
    VkPhysicalDeviceComputeShaderDerivativesFeaturesNV derivatives;
    VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR barycentric;
    VkPhysicalDeviceFragmentShadingRateFeaturesKHR shading_rate;
    VkPhysicalDeviceDynamicRenderingLocalReadFeaturesKHR local_read;
    uint32_t extensions; /* bit per VK_EXT_*: the device offers it (or it is enabled) */
    const char *extension_names[VK_EXTENSION_COUNT]; /* the name each bit was found by */
    bool v13;
    VkSubgroupFeatureFlags subgroup_ops;
    VkShaderStageFlags subgroup_stages;
} vk_features;

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
    uint64_t mask;           /* capabilities refused on purpose (dgpb_runner_desc) */
    vk_features features;    /* what the device has */
    bool dynamic_rendering;
    bool local_read; /* VK_KHR_dynamic_rendering_local_read: input attachments in a render */
    PFN_vkCmdBeginRendering begin_rendering;
    PFN_vkCmdEndRendering end_rendering;
    PFN_vkCmdDrawMeshTasksEXT draw_mesh_tasks; /* NULL without meshShader */
    uint32_t pipeline_count;
    pipeline pipelines[MAX_PIPELINES];
    /* vulkan_fill.c's: made when a run first needs them */
    VkDescriptorSetLayout fill_set;
    VkPipelineLayout fill_layout;
    VkShaderModule fill_modules[2];
    uint32_t fill_count;
    fill_pipeline fills[MAX_FILL_PIPELINES];
} vk_host;

/* A resource of one run: a buffer, an image with its staging buffer, or a sampler. */
typedef struct resource {
    int index;    /* the request parameter it holds; -1 for a uniform block or an unnamed sampler */
    VkBuffer buf; /* the buffer, or the staging buffer of an image */
    VkDeviceMemory buf_mem;
    uint8_t *map;
    VkDeviceSize size;
    VkImage img;
    VkExtent3D extent; /* the image's extent and layers, for copies */
    uint32_t layers;
    VkImageAspectFlags aspect; /* colour, or depth for a depth format */
    VkSampleCountFlagBits samples;
    uint32_t texel_size;
    VkDeviceMemory img_mem;
    VkImageView view;
    VkImageView fill_view; /* multisampled: the unsigned-integer view vulkan_fill.c draws into */
    VkFormat fill_format;
    VkSampler sampler;
    VkBufferView texels; /* a texel buffer's view of `buf` */
} resource;

/* The Vulkan format of a dgpb_run_format; VK_FORMAT_UNDEFINED for none. */
static inline VkFormat vk_format(uint32_t f)
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
    case DGPB_RUN_FORMAT_RGBA8UNORM:
        return VK_FORMAT_R8G8B8A8_UNORM;
    case DGPB_RUN_FORMAT_RGBA16FLOAT:
        return VK_FORMAT_R16G16B16A16_SFLOAT;
    case DGPB_RUN_FORMAT_R32SINT:
        return VK_FORMAT_R32_SINT;
    case DGPB_RUN_FORMAT_RGBA32UINT:
        return VK_FORMAT_R32G32B32A32_UINT;
    case DGPB_RUN_FORMAT_RGBA32SINT:
        return VK_FORMAT_R32G32B32A32_SINT;
    case DGPB_RUN_FORMAT_DEPTH32FLOAT:
        return VK_FORMAT_D32_SFLOAT;
    case DGPB_RUN_FORMAT_DEPTH16UNORM:
        return VK_FORMAT_D16_UNORM;
    default:
        return VK_FORMAT_UNDEFINED;
    }
}

/* The Vulkan format of a dgpb_run_vertex_format; VK_FORMAT_UNDEFINED for none. */
static inline VkFormat vk_vertex_format(uint32_t f)
{
    static const VkFormat formats[DGPB_RUN_VERTEX_COUNT] = {
        VK_FORMAT_UNDEFINED,
        VK_FORMAT_R32_SFLOAT,
        VK_FORMAT_R32G32_SFLOAT,
        VK_FORMAT_R32G32B32_SFLOAT,
        VK_FORMAT_R32G32B32A32_SFLOAT,
        VK_FORMAT_R32_SINT,
        VK_FORMAT_R32G32_SINT,
        VK_FORMAT_R32G32B32_SINT,
        VK_FORMAT_R32G32B32A32_SINT,
        VK_FORMAT_R32_UINT,
        VK_FORMAT_R32G32_UINT,
        VK_FORMAT_R32G32B32_UINT,
        VK_FORMAT_R32G32B32A32_UINT};
    return f < DGPB_RUN_VERTEX_COUNT ? formats[f] : VK_FORMAT_UNDEFINED;
}

/* The Vulkan compare op of a dgpb_run_compare (LESS for one out of range). */
static inline VkCompareOp vk_compare_op(uint32_t c)
{
    static const VkCompareOp ops[DGPB_RUN_COMPARE_COUNT] = {
        [DGPB_RUN_COMPARE_LESS] = VK_COMPARE_OP_LESS,
        [DGPB_RUN_COMPARE_NEVER] = VK_COMPARE_OP_NEVER,
        [DGPB_RUN_COMPARE_EQUAL] = VK_COMPARE_OP_EQUAL,
        [DGPB_RUN_COMPARE_LESS_OR_EQUAL] = VK_COMPARE_OP_LESS_OR_EQUAL,
        [DGPB_RUN_COMPARE_GREATER] = VK_COMPARE_OP_GREATER,
        [DGPB_RUN_COMPARE_NOT_EQUAL] = VK_COMPARE_OP_NOT_EQUAL,
        [DGPB_RUN_COMPARE_GREATER_OR_EQUAL] = VK_COMPARE_OP_GREATER_OR_EQUAL,
        [DGPB_RUN_COMPARE_ALWAYS] = VK_COMPARE_OP_ALWAYS};
    return c < DGPB_RUN_COMPARE_COUNT ? ops[c] : VK_COMPARE_OP_LESS;
}

/* The attachments and vertex buffers of one draw (vulkan_render.c). */
typedef struct vk_draw {
    resource colors[DGPB_RUN_MAX_COLOR_ATTACHMENTS]; /* colour attachment i */
    uint32_t color_count;
    resource depth; /* the depth attachment; img null when there is none */
    resource vertex_buffers[DGPB_RUN_MAX_VERTEX_INPUTS]; /* binding i: the pipeline's attribute i */
    uint32_t vertex_buffer_count;
    uint32_t vertices;         /* a vertex pipeline draws these */
    VkImageLayout color_layout; /* of the colour attachments while drawing */
    bool local_read;            /* read as input attachments too (dynamic rendering local read) */
} vk_draw;

/* ---- vulkan_features.c ------------------------------------------------------- */

/* What the device has: its feature structs, extensions and subgroup operations. */
void vk_features_query(VkPhysicalDevice phys, uint32_t api_version, vk_features *has);

/*
 * What to create the device with (on->f2 heads the chain): every feature of
 * the table that `has` has, and what the host uses itself; `extensions`
 * (room for VK_EXTENSION_COUNT) gets the extensions to enable.
 */
void vk_features_enable(vk_features *has, vk_features *on, const char **extensions,
                        uint32_t *extension_count);

/*
 * Fails (DGPB_ERR_RUN_CAPABILITY) at the first capability of entry `e` that
 * the device lacks (the feature of a SPIR-V capability its code declares),
 * that is masked on purpose, or whose name is unknown; DGPB_OK otherwise.
 */
int vk_check_capabilities(vk_host *vk, const dgpb_entry_view *e, dgpb_diag *r);

/* The Vulkan shader stage of a dgpb stage; 0 for one the host runs in no pipeline. */
VkShaderStageFlags vk_stage_bit(uint32_t stage);

/* ---- vulkan_dispatch.c ------------------------------------------------------- */

/* The host's run operation (run_host_ops.run): one request, from pipeline to results. */
int vk_run(void *host, const char *key, const dgpb_target_view *t,
           const dgpb_entry_view *const *entries, const dgpb_run_request *c,
           const dgpb_param_view *const *rows, dgpb_run_result *result, dgpb_diag *r);

/* ---- vulkan_pipeline.c ------------------------------------------------------- */

/*
 * The pipeline of a request: found in the host's cache (a failure is kept
 * and given again), or created from the bundle's entries (RUN_ENTRY_COUNT,
 * by place) of target `t`. NULL on failure.
 */
pipeline *vk_get_pipeline(vk_host *vk, const char *bundle_key, const dgpb_target_view *t,
                          const dgpb_run_request *c, dgpb_diag *r,
                          const dgpb_entry_view *const *entries);

/* ---- vulkan_render.c ---------------------------------------------------------- */

/*
 * Creates the attachments of render request `c` (colour attachments for input
 * attachments too where `local_read`) and the vertex buffers of its pipeline
 * `p`, whose vertex entry is entries[RUN_MAIN] (of target `t`). vk_draw_free
 * releases them, whatever the result.
 */
bool vk_draw_prepare(vk_host *vk, const pipeline *p, const dgpb_target_view *t,
                     const dgpb_entry_view *const *entries, const dgpb_run_request *c,
                     bool local_read, vk_draw *draw, dgpb_diag *r);

/*
 * Records the draw: the attachments loaded or cleared, the vertex buffers
 * bound, vkCmdDraw (vkCmdDrawMeshTasksEXT for a mesh pipeline), then every
 * attachment copied to its staging buffer. The pipeline and its descriptor
 * sets are bound already. Fills the result's groups, dispatches and vertices.
 */
void vk_draw_record(vk_host *vk, VkCommandBuffer cmd, const pipeline *p,
                    const dgpb_run_request *c, vk_draw *draw, dgpb_run_result *result);

/* Copies every attachment's texels into the result, after the draw. */
bool vk_draw_read_back(const vk_draw *draw, const dgpb_run_request *c, dgpb_run_result *result,
                       dgpb_diag *r);

/* Releases what vk_draw_prepare made (a zeroed draw is a no-op). */
void vk_draw_free(vk_host *vk, vk_draw *draw);

/* ---- vulkan_resources.c ------------------------------------------------------ */

/* Creates a buffer of `size` bytes in host-visible coherent memory, mapped and zeroed. */
bool vk_make_buffer(vk_host *vk, resource *res, VkDeviceSize size, VkBufferUsageFlags usage,
                    dgpb_diag *r);

/* Creates an image for a texture parameter (its view, and its staging buffer filled). */
bool vk_make_image(vk_host *vk, resource *res, const dgpb_run_param *cp, VkImageUsageFlags usage,
                   dgpb_diag *r);

/* Releases what a resource holds (all of it may be null). */
void vk_free_resource(vk_host *vk, resource *res);

/* The request parameter named like `row` (never an attachment), or NULL. */
const dgpb_run_param *vk_case_param(const dgpb_run_request *c, const dgpb_param_view *row);

/* Creates and fills the resource of one slot. */
bool vk_make_slot_resource(vk_host *vk, const dgpb_run_request *c, const slot *s, resource *res,
                           dgpb_diag *r);

/* Records an image layout transition of every layer of `aspect` (colour or depth). */
void vk_image_barrier(VkCommandBuffer cmd, VkImage img, VkImageAspectFlags aspect,
                      VkImageLayout from, VkImageLayout to, VkAccessFlags src_access,
                      VkAccessFlags dst_access, VkPipelineStageFlags src, VkPipelineStageFlags dst);

/* Copies every texel (all layers, all slices, tightly packed) between the image and its staging. */
void vk_copy_image(VkCommandBuffer cmd, const resource *res, bool in);

/* Copies a resource's bytes (buffer, or an image's staging buffer) into the result. */
bool vk_read_back(const resource *res, const dgpb_run_param *cp, dgpb_run_output *out,
                  dgpb_diag *r);

/* ---- vulkan_fill.c ------------------------------------------------------------ */

/*
 * Records filling multisampled image `res` (made by vk_make_image) from its
 * staging buffer, sample by sample, and leaves it in the layout a sampled
 * image is read in (docs/run.md, "Textures"). The descriptor set it needs
 * comes from `pool`. False with the failure in `r`.
 */
bool vk_fill_record(vk_host *vk, VkCommandBuffer cmd, VkDescriptorPool pool, const resource *res,
                    VkPipelineStageFlags readers, dgpb_diag *r);

/* Releases the fill pipelines and their layouts (at the host's end). */
void vk_fill_destroy(vk_host *vk);

#endif
