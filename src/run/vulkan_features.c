/*
 * src/run/vulkan_features.c - the device features the Vulkan host asks for
 * and checks (vulkan_internal.h).
 *
 * One table maps every SPIR-V capability that names a dgpb capability
 * (vocabulary.def's DGPB_CODE_FEATURE rows) to the Vulkan feature a device
 * must have and enable for it: a member of VkPhysicalDeviceFeatures, of the
 * Vulkan 1.1/1.2/1.3 feature structs or of an extension's struct, a
 * subgroup operation of VkPhysicalDeviceSubgroupProperties, or an extension
 * that holds no feature (VK_EXT_shader_stencil_export); a row may hold for
 * the entries of one stage alone (MeshShadingEXT: taskShader for an
 * amplification entry, meshShader for the others). The device is
 * created with every feature of the table it has (and the extensions those
 * need), so an entry's code is never used on a device created without what
 * it declares. Before an entry's pipeline is made, each capability it lists
 * is checked against the SPIR-V capabilities its code declares: a feature
 * the device lacks, or a capability of no row (ray tracing, ray queries and
 * their position fetch, cooperative vectors: features this host does not
 * enable), fails with
 * DGPB_ERR_RUN_CAPABILITY naming the capability, the SPIR-V capability and
 * the device feature.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "run/vulkan_internal.h"
#include "code/code_features.h"
#include "code/capabilities.h"

/* Promoted since the Vulkan headers Debian 12 has (1.3.239): the NV extension's struct. */
#ifndef VK_KHR_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME
#define VK_KHR_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME "VK_KHR_compute_shader_derivatives"
#endif

/* The struct a feature lives in (IN_ATOMIC_FLOAT to IN_SHADING_RATE: an extension's). */
enum where {
    IN_10,
    IN_11,
    IN_12,
    IN_13,
    IN_ATOMIC_FLOAT,
    IN_ATOMIC_FLOAT2,
    IN_CLOCK,
    IN_COOP,
    IN_MESH,
    IN_DERIVATIVES,
    IN_BARYCENTRIC,
    IN_SHADING_RATE,
    IN_EXTENSION, /* none: the extension itself, VK_EXT_* in `at` */
    IN_SUBGROUP
};

typedef struct feature {
    uint32_t spirv; /* the SPIR-V capability */
    enum where in;
    size_t at;        /* the VkBool32's offset in its struct; a subgroup operation's bit */
    const char *name; /* "VkPhysicalDeviceFeatures.shaderFloat64" */
    int only, skip;   /* for entries of stage `only` alone, or all but `skip`; -1: every one */
} feature;

#define FS(n, where, type, member, only, skip)                                                     \
    {                                                                                              \
        n, where, offsetof(type, member), #type "." #member, only, skip                            \
    }
#define F(n, where, type, member) FS(n, where, type, member, -1, -1)
#define F10(n, m) F(n, IN_10, VkPhysicalDeviceFeatures, m)
#define F11(n, m) F(n, IN_11, VkPhysicalDeviceVulkan11Features, m)
#define F12(n, m) F(n, IN_12, VkPhysicalDeviceVulkan12Features, m)
#define F13(n, m) F(n, IN_13, VkPhysicalDeviceVulkan13Features, m)
#define EXT(n, bit, extension)                                                                     \
    {                                                                                              \
        n, IN_EXTENSION, VK_EXT_##bit, extension, -1, -1                                           \
    }
#define SUB(n, bit)                                                                                \
    {                                                                                              \
        n, IN_SUBGROUP, VK_SUBGROUP_FEATURE_##bit##_BIT, "subgroup operations " #bit, -1, -1       \
    }

static const feature features[] = {
    F10(2, geometryShader),                          /* Geometry */
    F10(3, tessellationShader),                      /* Tessellation */
    F12(9, shaderFloat16),                           /* Float16 */
    F10(10, shaderFloat64),                          /* Float64 */
    F10(11, shaderInt64),                            /* Int64 */
    F12(12, shaderBufferInt64Atomics),               /* Int64Atomics */
    F10(22, shaderInt16),                            /* Int16 */
    F10(23, shaderTessellationAndGeometryPointSize), /* TessellationPointSize */
    F10(24, shaderTessellationAndGeometryPointSize), /* GeometryPointSize */
    F10(25, shaderImageGatherExtended),              /* ImageGatherExtended */
    F10(27, shaderStorageImageMultisample),
    F10(28, shaderUniformBufferArrayDynamicIndexing),
    F10(29, shaderSampledImageArrayDynamicIndexing),
    F10(30, shaderStorageBufferArrayDynamicIndexing),
    F10(31, shaderStorageImageArrayDynamicIndexing),
    F10(32, shaderClipDistance),
    F10(33, shaderCullDistance),
    F10(34, imageCubeArray), /* ImageCubeArray */
    F10(35, sampleRateShading),
    F12(39, shaderInt8),                    /* Int8 */
    F10(41, shaderResourceResidency),       /* SparseResidency */
    F10(42, shaderResourceMinLod),          /* MinLod */
    F10(45, imageCubeArray),                /* SampledCubeArray */
    F10(48, shaderStorageImageMultisample), /* ImageMSArray */
    F10(49, shaderStorageImageExtendedFormats),
    F10(55, shaderStorageImageReadWithoutFormat),
    F10(56, shaderStorageImageWriteWithoutFormat),
    SUB(61, BASIC),
    SUB(62, VOTE),
    SUB(63, ARITHMETIC),
    SUB(64, BALLOT),
    SUB(65, SHUFFLE),
    SUB(66, SHUFFLE_RELATIVE),
    SUB(67, CLUSTERED),
    SUB(68, QUAD),
    F12(69, shaderOutputLayer),
    F12(70, shaderOutputViewportIndex),
    F(4422, IN_SHADING_RATE, VkPhysicalDeviceFragmentShadingRateFeaturesKHR,
      primitiveFragmentShadingRate),
    F(5055, IN_CLOCK, VkPhysicalDeviceShaderClockFeaturesKHR, shaderSubgroupClock),
    F11(4427, shaderDrawParameters),
    F11(4433, storageBuffer16BitAccess),
    F11(4434, uniformAndStorageBuffer16BitAccess),
    F11(4435, storagePushConstant16),
    F11(4436, storageInputOutput16),
    F11(4439, multiview),
    F12(4448, storageBuffer8BitAccess),
    F12(4449, uniformAndStorageBuffer8BitAccess),
    F12(4450, storagePushConstant8),
    EXT(5013, STENCIL_EXPORT, VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME),
    EXT(5254, VIEWPORT_LAYER, VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME),
    EXT(5265, FULLY_COVERED, VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME),
    /* MeshShadingEXT: a task (amplification) shader needs taskShader, the others meshShader */
    FS(5283, IN_MESH, VkPhysicalDeviceMeshShaderFeaturesEXT, meshShader, -1,
       DGPB_STAGE_AMPLIFICATION),
    FS(5283, IN_MESH, VkPhysicalDeviceMeshShaderFeaturesEXT, taskShader, DGPB_STAGE_AMPLIFICATION,
       -1),
    F(5284, IN_BARYCENTRIC, VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR,
      fragmentShaderBarycentric),
    F(5288, IN_DERIVATIVES, VkPhysicalDeviceComputeShaderDerivativesFeaturesNV,
      computeDerivativeGroupQuads),
    F12(5302, runtimeDescriptorArray),
    F12(5303, shaderInputAttachmentArrayDynamicIndexing),
    F12(5304, shaderUniformTexelBufferArrayDynamicIndexing),
    F12(5305, shaderStorageTexelBufferArrayDynamicIndexing),
    F12(5306, shaderUniformBufferArrayNonUniformIndexing),
    F12(5307, shaderSampledImageArrayNonUniformIndexing),
    F12(5308, shaderStorageBufferArrayNonUniformIndexing),
    F12(5309, shaderStorageImageArrayNonUniformIndexing),
    F12(5310, shaderInputAttachmentArrayNonUniformIndexing),
    F12(5311, shaderUniformTexelBufferArrayNonUniformIndexing),
    F12(5312, shaderStorageTexelBufferArrayNonUniformIndexing),
    F12(5345, vulkanMemoryModel),
    F12(5346, vulkanMemoryModelDeviceScope),
    F12(5347, bufferDeviceAddress),
    F(5350, IN_DERIVATIVES, VkPhysicalDeviceComputeShaderDerivativesFeaturesNV,
      computeDerivativeGroupLinear),
    F13(5379, shaderDemoteToHelperInvocation),
    F(5612, IN_ATOMIC_FLOAT2, VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT,
      shaderBufferFloat32AtomicMinMax),
    F(5613, IN_ATOMIC_FLOAT2, VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT,
      shaderBufferFloat64AtomicMinMax),
    F(5616, IN_ATOMIC_FLOAT2, VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT,
      shaderBufferFloat16AtomicMinMax),
    F13(6016, shaderIntegerDotProduct),
    F13(6017, shaderIntegerDotProduct),
    F13(6018, shaderIntegerDotProduct),
    F13(6019, shaderIntegerDotProduct),
    F(6022, IN_COOP, VkPhysicalDeviceCooperativeMatrixFeaturesKHR, cooperativeMatrix),
    F(6033, IN_ATOMIC_FLOAT, VkPhysicalDeviceShaderAtomicFloatFeaturesEXT,
      shaderBufferFloat32AtomicAdd),
    F(6034, IN_ATOMIC_FLOAT, VkPhysicalDeviceShaderAtomicFloatFeaturesEXT,
      shaderBufferFloat64AtomicAdd),
    F(6095, IN_ATOMIC_FLOAT2, VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT,
      shaderBufferFloat16AtomicAdd),
};

/*
 * The extensions the table uses, by their bit in vk_features.extensions, and
 * the older name the same struct and features have (a device offers one).
 */
static const char *const extension_names[VK_EXTENSION_COUNT] = {
    [VK_EXT_ATOMIC_FLOAT] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME,
    [VK_EXT_ATOMIC_FLOAT2] = VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME,
    [VK_EXT_CLOCK] = VK_KHR_SHADER_CLOCK_EXTENSION_NAME,
    [VK_EXT_COOP] = VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME,
    [VK_EXT_MESH] = VK_EXT_MESH_SHADER_EXTENSION_NAME,
    [VK_EXT_DERIVATIVES] = VK_KHR_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME,
    [VK_EXT_BARYCENTRIC] = VK_KHR_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME,
    [VK_EXT_SHADING_RATE] = VK_KHR_FRAGMENT_SHADING_RATE_EXTENSION_NAME,
    [VK_EXT_LOCAL_READ] = VK_KHR_DYNAMIC_RENDERING_LOCAL_READ_EXTENSION_NAME,
    [VK_EXT_STENCIL_EXPORT] = VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME,
    [VK_EXT_FULLY_COVERED] = VK_EXT_CONSERVATIVE_RASTERIZATION_EXTENSION_NAME,
    [VK_EXT_VIEWPORT_LAYER] = VK_EXT_SHADER_VIEWPORT_INDEX_LAYER_EXTENSION_NAME,
};
static const char *const extension_older_names[VK_EXTENSION_COUNT] = {
    [VK_EXT_DERIVATIVES] = VK_NV_COMPUTE_SHADER_DERIVATIVES_EXTENSION_NAME,
    [VK_EXT_BARYCENTRIC] = VK_NV_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME,
};

static const int extension_of[] = {[IN_ATOMIC_FLOAT] = VK_EXT_ATOMIC_FLOAT,
                                   [IN_ATOMIC_FLOAT2] = VK_EXT_ATOMIC_FLOAT2,
                                   [IN_CLOCK] = VK_EXT_CLOCK,
                                   [IN_COOP] = VK_EXT_COOP,
                                   [IN_MESH] = VK_EXT_MESH,
                                   [IN_DERIVATIVES] = VK_EXT_DERIVATIVES,
                                   [IN_BARYCENTRIC] = VK_EXT_BARYCENTRIC,
                                   [IN_SHADING_RATE] = VK_EXT_SHADING_RATE};

/* Whether a feature lives in an extension's struct. */
static bool in_extension_struct(enum where in)
{
    return in >= IN_ATOMIC_FLOAT && in <= IN_SHADING_RATE;
}

/* Links f's structs: 1.1, 1.2, 1.3 (on a 1.3 device) and the extensions in f->extensions. */
static void link(vk_features *f, bool v13)
{
    f->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    f->f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    f->f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f->f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    f->atomic_float.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
    f->atomic_float2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT;
    f->clock.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR;
    f->coop.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR;
    f->mesh.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
    f->derivatives.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COMPUTE_SHADER_DERIVATIVES_FEATURES_NV;
    f->barycentric.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR;
    f->shading_rate.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR;
    f->local_read.sType =
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_LOCAL_READ_FEATURES_KHR;
    void **next = &f->f2.pNext;
    *next = &f->f11;
    next = &f->f11.pNext;
    *next = &f->f12;
    next = &f->f12.pNext;
    if (v13) {
        *next = &f->f13;
        next = &f->f13.pNext;
    }
    void *ext[VK_EXTENSION_COUNT] = {&f->atomic_float, &f->atomic_float2, &f->clock,
                                     &f->coop,         &f->mesh,          &f->derivatives,
                                     &f->barycentric,  &f->shading_rate,  &f->local_read};
    void **ext_next[VK_EXTENSION_COUNT] = {
        &f->atomic_float.pNext, &f->atomic_float2.pNext, &f->clock.pNext,
        &f->coop.pNext,         &f->mesh.pNext,          &f->derivatives.pNext,
        &f->barycentric.pNext,  &f->shading_rate.pNext,  &f->local_read.pNext};
    for (int i = 0; i < VK_EXTENSION_COUNT; i++)
        if ((f->extensions & (1u << i)) && ext[i]) {
            *next = ext[i];
            next = ext_next[i];
        }
    *next = NULL;
}

/* The VkBool32 of a feature in f (not for subgroup operations). */
static VkBool32 *member(vk_features *f, const feature *ft)
{
    char *base = NULL;
    switch (ft->in) {
    case IN_10:
        base = (char *)&f->f2.features;
        break;
    case IN_11:
        base = (char *)&f->f11;
        break;
    case IN_12:
        base = (char *)&f->f12;
        break;
    case IN_13:
        base = (char *)&f->f13;
        break;
    case IN_ATOMIC_FLOAT:
        base = (char *)&f->atomic_float;
        break;
    case IN_ATOMIC_FLOAT2:
        base = (char *)&f->atomic_float2;
        break;
    case IN_CLOCK:
        base = (char *)&f->clock;
        break;
    case IN_COOP:
        base = (char *)&f->coop;
        break;
    case IN_MESH:
        base = (char *)&f->mesh;
        break;
    case IN_DERIVATIVES:
        base = (char *)&f->derivatives;
        break;
    case IN_BARYCENTRIC:
        base = (char *)&f->barycentric;
        break;
    case IN_SHADING_RATE:
        base = (char *)&f->shading_rate;
        break;
    case IN_EXTENSION:
    case IN_SUBGROUP:
        return NULL;
    }
    return (VkBool32 *)(base + ft->at);
}

void vk_features_query(VkPhysicalDevice phys, uint32_t api_version, vk_features *has)
{
    memset(has, 0, sizeof *has);
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(phys, NULL, &n, NULL);
    VkExtensionProperties *props = n ? mem_calloc(n, sizeof *props) : NULL;
    if (props && vkEnumerateDeviceExtensionProperties(phys, NULL, &n, props) >= 0)
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < VK_EXTENSION_COUNT; k++) {
                const char *older = extension_older_names[k];
                bool named = !strcmp(props[i].extensionName, extension_names[k]);
                if (!named && !(older && !strcmp(props[i].extensionName, older)))
                    continue;
                if (!has->extension_names[k] || named) /* the current name when both */
                    has->extension_names[k] = named ? extension_names[k] : older;
                has->extensions |= 1u << k;
            }
    dgpb_free(props);
    has->v13 = api_version >= VK_API_VERSION_1_3;
    link(has, has->v13);
    vkGetPhysicalDeviceFeatures2(phys, &has->f2);
    VkPhysicalDeviceSubgroupProperties sub = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = &sub};
    vkGetPhysicalDeviceProperties2(phys, &p2);
    has->subgroup_ops = sub.supportedOperations;
    has->subgroup_stages = sub.supportedStages;
}

void vk_features_enable(vk_features *has, vk_features *on, const char **extensions,
                        uint32_t *extension_count)
{
    memset(on, 0, sizeof *on);
    on->v13 = has->v13;
    on->subgroup_ops = has->subgroup_ops;
    on->subgroup_stages = has->subgroup_stages;
    /* The extension structs whole (each only holds shader features); their extensions. */
    *extension_count = 0;
    for (int k = 0; k < VK_EXTENSION_COUNT; k++)
        if (has->extensions & (1u << k)) {
            on->extensions |= 1u << k;
            on->extension_names[k] = has->extension_names[k];
            extensions[(*extension_count)++] = has->extension_names[k];
        }
    on->atomic_float = has->atomic_float;
    on->atomic_float2 = has->atomic_float2;
    on->clock = has->clock;
    on->coop = has->coop;
    /* Of the mesh shader struct, the two stages alone: its multiview, shading-rate and query
       features need features of their own this host does not enable. */
    on->mesh.taskShader = has->mesh.taskShader;
    on->mesh.meshShader = has->mesh.meshShader;
    on->derivatives = has->derivatives;
    on->barycentric = has->barycentric;
    on->shading_rate = has->shading_rate;
    on->local_read = has->local_read;
    /* Of the core structs, the table's features, and what the host itself uses. */
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++) {
        VkBool32 *h = member(has, &features[i]);
        if (h && *h)
            *member(on, &features[i]) = VK_TRUE;
    }
    on->f12.shaderSharedInt64Atomics = has->f12.shaderSharedInt64Atomics;
    on->f12.scalarBlockLayout = has->f12.scalarBlockLayout;
    on->f2.features.fragmentStoresAndAtomics = has->f2.features.fragmentStoresAndAtomics;
    on->f13.dynamicRendering = has->f13.dynamicRendering;
    if (!on->f2.features.shaderInt64) /* Int64Atomics needs Int64 */
        on->f12.shaderBufferInt64Atomics = on->f12.shaderSharedInt64Atomics = VK_FALSE;
    link(on, on->v13);
}

VkShaderStageFlags vk_stage_bit(uint32_t stage)
{
    switch (stage) {
    case DGPB_STAGE_VERTEX:
        return VK_SHADER_STAGE_VERTEX_BIT;
    case DGPB_STAGE_FRAGMENT:
        return VK_SHADER_STAGE_FRAGMENT_BIT;
    case DGPB_STAGE_GEOMETRY:
        return VK_SHADER_STAGE_GEOMETRY_BIT;
    case DGPB_STAGE_HULL:
        return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    case DGPB_STAGE_DOMAIN:
        return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    case DGPB_STAGE_MESH:
        return VK_SHADER_STAGE_MESH_BIT_EXT;
    case DGPB_STAGE_AMPLIFICATION:
        return VK_SHADER_STAGE_TASK_BIT_EXT;
    case DGPB_STAGE_COMPUTE:
        return VK_SHADER_STAGE_COMPUTE_BIT;
    default:
        return 0;
    }
}

/* Whether the device has a feature for an entry of `stage`. */
static bool has_feature(vk_features *has, const feature *ft, uint32_t stage)
{
    if (ft->in == IN_13 && !has->v13)
        return false;
    if (in_extension_struct(ft->in) && !(has->extensions & (1u << extension_of[ft->in])))
        return false;
    if (ft->in == IN_EXTENSION)
        return (has->extensions & (1u << ft->at)) != 0;
    if (ft->in != IN_SUBGROUP)
        return *member(has, ft) != VK_FALSE;
    return (has->subgroup_stages & vk_stage_bit(stage)) && (has->subgroup_ops & ft->at);
}

int vk_check_capabilities(vk_host *vk, const dgpb_entry_view *e, dgpb_diag *r)
{
    /* Why each capability cannot be had: the first SPIR-V capability of the code it maps
       from whose feature the device lacks. */
    char why[DGPB_CAP_COUNT][200];
    uint64_t lacking = 0;
    dgpb_code_features code;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (code_features_read(DGPB_CODE_FORMAT_SPIRV, e->code.data, e->code.size, &code, &d))
        return run_fail(r, d.code, "entry '%.*s': %s", (int)e->name.len, e->name.ptr, d.message);
    for (size_t i = 0; i < code.count; i++) {
        int cap = code_feature_capability(DGPB_CODE_FORMAT_SPIRV, &code.items[i]);
        if (cap < 0 || (lacking & (UINT64_C(1) << cap)))
            continue;
        const char *spirv = code_feature_name(DGPB_CODE_FORMAT_SPIRV, &code.items[i]);
        bool any = false;
        for (size_t k = 0; k < sizeof features / sizeof features[0]; k++) {
            const feature *ft = &features[k];
            if (ft->spirv != code.items[i].number ||
                (ft->only >= 0 && (int)e->stage_id != ft->only) || (int)e->stage_id == ft->skip)
                continue;
            any = true;
            if (has_feature(&vk->features, ft, e->stage_id))
                continue;
            lacking |= UINT64_C(1) << cap;
            if (ft->in == IN_EXTENSION)
                snprintf(why[cap], sizeof why[cap], "SPIR-V %s needs extension %s", spirv,
                         ft->name);
            else if (in_extension_struct(ft->in) &&
                     !(vk->features.extensions & (1u << extension_of[ft->in])))
                snprintf(why[cap], sizeof why[cap], "SPIR-V %s needs %s of %s", spirv, ft->name,
                         extension_names[extension_of[ft->in]]);
            else
                snprintf(why[cap], sizeof why[cap], "SPIR-V %s needs %s", spirv, ft->name);
            break;
        }
        if (!any) {
            lacking |= UINT64_C(1) << cap;
            snprintf(why[cap], sizeof why[cap], "SPIR-V %s: dgpb-run enables no such feature",
                     spirv);
        }
    }
    code_features_clear(&code);
    /* A capability of no SPIR-V capability of the code (a ray-tracing stage's). */
    for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++)
        if ((c == DGPB_CAP_RAYTRACING || c == DGPB_CAP_RAYQUERY) &&
            !(lacking & (UINT64_C(1) << c))) {
            lacking |= UINT64_C(1) << c;
            snprintf(why[c], sizeof why[c], "dgpb-run runs no ray-tracing entries");
        }
    for (uint32_t i = 0; i < e->capability_count; i++) {
        int cap = dgpb_capability_from_name(e->capabilities[i].ptr, e->capabilities[i].len);
        bool masked = cap >= 0 && (vk->mask & (UINT64_C(1) << cap));
        if (cap >= 0 && !masked && !(lacking & (UINT64_C(1) << cap)))
            continue;
        return run_fail(r, DGPB_ERR_RUN_CAPABILITY,
                        "entry '%.*s' needs capability '%.*s', which device '%s' lacks%s%s%s",
                        (int)e->name.len, e->name.ptr, (int)e->capabilities[i].len,
                        e->capabilities[i].ptr, vk->device_name,
                        masked    ? " (masked on purpose)"
                        : cap < 0 ? ""
                                  : " (",
                        masked || cap < 0 ? "" : why[cap], masked || cap < 0 ? "" : ")");
    }
    return DGPB_OK;
}
