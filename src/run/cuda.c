/*
 * src/run/cuda.c - the CUDA host of the runner (dgpb/run.h): runs the ptx
 * target through the CUDA driver API, libcuda loaded at run time (dlopen),
 * so the library builds and links anywhere.
 *
 * A host that knows nothing but the bundle: the PTX is loaded as is
 * (cuModuleLoadData JIT-compiles it for the device), the entry is the
 * kernel of the entry's name (or the PTX's only kernel: `main` is `main_0`),
 * and every parameter is placed from its row alone (docs/format.md, the ptx rules; docs/run.md):
 *
 *   - space 0 is Slang's global parameter block, the module constant
 *     SLANG_globalParams. A resource row's `binding` is the byte offset of its
 *     handle there. A value row's `binding` is the offset of the 8-byte
 *     pointer to its block's memory, which holds the value at `offset`;
 *     except binding DGPB_BINDING_INLINE: the value sits in
 *     SLANG_globalParams itself at `offset` (loose `uniform` globals, plain
 *     fields of struct globals).
 *   - space DGPB_SPACE_LAUNCH is the kernel's own parameters: a resource
 *     row's `binding` is its offset in the kernel's parameter buffer, a value
 *     row sits there at `offset`. The buffer goes to cuLaunchKernel with
 *     CU_LAUNCH_PARAM_BUFFER_POINTER/_SIZE; its size is the driver's
 *     (cuFuncGetParamInfo, CUDA 12.4+: every row must lie inside it), or else
 *     the end of the last launch row.
 *
 * Handles: a structured or byte-address buffer is a device pointer and a
 * count (16 bytes), a constant buffer an 8-byte device pointer, a texture a
 * CUtexObject (8 bytes) over a CUDA array of the request's dimension (1D, 2D,
 * 3D, layered, cubemap) with normalized coordinates, point filtering and
 * clamping (the runner's sampler, which Slang's CUDA code folds into the
 * texture object, so a sampler row is left zero), a storage texture a
 * CUsurfObject over a surface-capable array. Dispatch times come from a pair
 * of events around each launch.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "dgpb/reader.h"
#include "run/run_internal.h"
#include "code/code_features.h"
#include "code/ptx/ptx_scan.h"

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef struct CUarray_st *CUarray;
typedef uint64_t CUtexObject;
typedef uint64_t CUsurfObject;
typedef struct CUevent_st *CUevent;

typedef struct {
    size_t Width, Height, Depth;
    int Format;
    unsigned NumChannels;
    unsigned Flags;
} CUDA_ARRAY3D_DESCRIPTOR;

typedef struct {
    int resType; /* 0: an array */
    union {
        struct {
            CUarray hArray;
        } array;
        int reserved[32];
    } res;
    unsigned flags;
} CUDA_RESOURCE_DESC;

typedef struct {
    int addressMode[3];
    int filterMode;
    unsigned flags;
    unsigned maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    float borderColor[4];
    int reserved[12];
} CUDA_TEXTURE_DESC;

typedef struct {
    size_t srcXInBytes, srcY, srcZ, srcLOD;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    void *reserved0;
    size_t srcPitch, srcHeight;
    size_t dstXInBytes, dstY, dstZ, dstLOD;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    void *reserved1;
    size_t dstPitch, dstHeight;
    size_t WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D;

enum { MEM_HOST = 1, MEM_ARRAY = 3 };
enum { FMT_UINT8 = 0x01, FMT_UINT32 = 0x03, FMT_SINT32 = 0x0a, FMT_HALF = 0x10, FMT_FLOAT = 0x20 };
enum { ARRAY_LAYERED = 0x01, ARRAY_SURFACE_LDST = 0x02, ARRAY_CUBEMAP = 0x04 };
enum { TRSF_NORMALIZED_COORDINATES = 0x02, ADDRESS_CLAMP = 1 };

/* cuLaunchKernel's `extra` markers. */
#define LAUNCH_PARAM_END ((void *)0x00)
#define LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

typedef struct cu_api {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*CtxCreate)(CUcontext *, unsigned, CUdevice);
    CUresult (*CtxDestroy)(CUcontext);
    CUresult (*CtxSynchronize)(void);
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*ModuleUnload)(CUmodule);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, void *, void **, void **);
    CUresult (*GetErrorString)(CUresult, const char **);
    CUresult (*Array3DCreate)(CUarray *, const CUDA_ARRAY3D_DESCRIPTOR *);
    CUresult (*ArrayDestroy)(CUarray);
    CUresult (*Memcpy3D)(const CUDA_MEMCPY3D *);
    CUresult (*TexObjectCreate)(CUtexObject *, const CUDA_RESOURCE_DESC *,
                                const CUDA_TEXTURE_DESC *, const void *);
    CUresult (*TexObjectDestroy)(CUtexObject);
    CUresult (*SurfObjectCreate)(CUsurfObject *, const CUDA_RESOURCE_DESC *);
    CUresult (*SurfObjectDestroy)(CUsurfObject);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, void *);
    CUresult (*EventSynchronize)(CUevent);
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*EventDestroy)(CUevent);
    CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *); /* NULL if absent */
} cu_api;

/* The driver's functions, loaded once per process by the first CUDA runner. */
static cu_api cu;

#define MAX_BLOCKS 8
#define MAX_BLOCK_SIZE 4096

typedef struct cuda_host {
    void *lib;
    CUcontext ctx;
    CUdevice dev;
    char device_name[256];
    char driver[64];
    uint32_t compute_capability; /* major * 10 + minor */
    uint64_t mask;               /* capabilities refused on purpose (dgpb_runner_desc) */
    uint32_t modules;            /* modules loaded so far */
} cuda_host;

static int check(dgpb_diag *d, CUresult r, const char *what)
{
    if (r == 0)
        return 0;
    const char *s = "unknown error";
    if (cu.GetErrorString)
        cu.GetErrorString(r, &s);
    run_fail(d, DGPB_ERR_RUN_DRIVER, "%s: %s (%d)", what, s, r);
    return -1;
}

#define MAX_ALLOCS 32

typedef struct run_state {
    CUdeviceptr allocs[MAX_ALLOCS];
    size_t alloc_count;
    CUarray arrays[MAX_ALLOCS];
    CUtexObject textures[MAX_ALLOCS];
    CUsurfObject surfaces[MAX_ALLOCS];
    size_t array_count, texture_count, surface_count;
} run_state;

/* Whether the uniform_buffer row at field row `row`'s place is given as bytes. */
static bool block_given(const dgpb_entry_view *e, const dgpb_param_view *row,
                        const dgpb_run_request *c)
{
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *o = &e->params[i];
        if (o->kind == DGPB_KIND_UNIFORM_BUFFER && !(o->flags & DGPB_FLAG_ABSENT) &&
            o->space == row->space &&
            o->binding == row->binding && run_param_index(c, o) >= 0)
            return true;
    }
    return false;
}

/* The CUDA array format of a texture format (dgpb_run_format): format, channels, bytes per texel. */
static int array_format(uint32_t format, int *fmt, unsigned *channels)
{
    switch (format) {
    case DGPB_RUN_FORMAT_R16FLOAT:
        *fmt = FMT_HALF, *channels = 1;
        return 0;
    case DGPB_RUN_FORMAT_R32FLOAT:
        *fmt = FMT_FLOAT, *channels = 1;
        return 0;
    case DGPB_RUN_FORMAT_RG32FLOAT:
        *fmt = FMT_FLOAT, *channels = 2;
        return 0;
    case DGPB_RUN_FORMAT_RGBA32FLOAT:
        *fmt = FMT_FLOAT, *channels = 4;
        return 0;
    case DGPB_RUN_FORMAT_R32UINT:
        *fmt = FMT_UINT32, *channels = 1;
        return 0;
    case DGPB_RUN_FORMAT_RGBA8UNORM:
        *fmt = FMT_UINT8, *channels = 4;
        return 0;
    case DGPB_RUN_FORMAT_RGBA16FLOAT:
        *fmt = FMT_HALF, *channels = 4;
        return 0;
    case DGPB_RUN_FORMAT_R32SINT:
        *fmt = FMT_SINT32, *channels = 1;
        return 0;
    case DGPB_RUN_FORMAT_RGBA32UINT:
        *fmt = FMT_UINT32, *channels = 4;
        return 0;
    case DGPB_RUN_FORMAT_RGBA32SINT:
        *fmt = FMT_SINT32, *channels = 4;
        return 0;
    default:
        return -1;
    }
}

/* Copies every texel of a texture (all slices, layers or faces, tightly packed) in or out. */
static int copy_texels(CUarray array, const dgpb_run_param *p, const void *src, void *dst,
                       dgpb_diag *d)
{
    CUDA_MEMCPY3D m;
    memset(&m, 0, sizeof m);
    size_t row = (size_t)p->width * dgpb_run_format_texel_size(p->format);
    size_t height = p->dim == DGPB_RUN_DIM_1D ? 1 : p->height;
    m.WidthInBytes = row;
    m.Height = height;
    m.Depth = p->dim == DGPB_RUN_DIM_1D || p->dim == DGPB_RUN_DIM_2D || !p->depth ? 1 : p->depth;
    if (src) {
        m.srcMemoryType = MEM_HOST, m.srcHost = src, m.srcPitch = row, m.srcHeight = height;
        m.dstMemoryType = MEM_ARRAY, m.dstArray = array;
    } else {
        m.srcMemoryType = MEM_ARRAY, m.srcArray = array;
        m.dstMemoryType = MEM_HOST, m.dstHost = dst, m.dstPitch = row, m.dstHeight = height;
    }
    return check(d, cu.Memcpy3D(&m), src ? "upload texels" : "download texels");
}

/* A CUDA array for a texture parameter, its texels uploaded; the handle (texture or surface) in *out. */
static int make_image(run_state *st, const dgpb_run_param *p, bool storage, uint64_t *out,
                      CUarray *array_out, dgpb_diag *d)
{
    int fmt;
    unsigned channels;
    if (array_format(p->format, &fmt, &channels) || st->array_count == MAX_ALLOCS) {
        run_fail(d, DGPB_ERR_UNSUPPORTED, "texture '%s': format %s has no CUDA array format",
                 p->name, dgpb_run_format_name(p->format));
        return -1;
    }
    if (p->dim == DGPB_RUN_DIM_2D_MS) {
        run_fail(d, DGPB_ERR_UNSUPPORTED,
                 "texture '%s': CUDA arrays are not multisampled (2d_ms given)", p->name);
        return -1;
    }
    /* Width, Height, Depth and flags of the parameter's dimension (0: a dimension the array lacks). */
    CUDA_ARRAY3D_DESCRIPTOR ad = {p->width, p->height, 0, fmt, channels, 0u};
    switch (p->dim) {
    case DGPB_RUN_DIM_1D:
        ad.Height = 0;
        break;
    case DGPB_RUN_DIM_3D:
        ad.Depth = p->depth;
        break;
    case DGPB_RUN_DIM_2D_ARRAY:
        ad.Depth = p->depth, ad.Flags = ARRAY_LAYERED;
        break;
    case DGPB_RUN_DIM_CUBE:
        ad.Depth = 6, ad.Flags = ARRAY_CUBEMAP;
        break;
    case DGPB_RUN_DIM_CUBE_ARRAY:
        ad.Depth = p->depth, ad.Flags = ARRAY_CUBEMAP | ARRAY_LAYERED;
        break;
    default:
        break;
    }
    if (storage)
        ad.Flags |= ARRAY_SURFACE_LDST;
    CUarray array;
    if (check(d, cu.Array3DCreate(&array, &ad), "cuArray3DCreate"))
        return -1;
    st->arrays[st->array_count++] = array;
    if (p->input && copy_texels(array, p, p->input, NULL, d))
        return -1;
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.res.array.hArray = array;
    if (storage) {
        if (check(d, cu.SurfObjectCreate(out, &rd), "cuSurfObjectCreate"))
            return -1;
        st->surfaces[st->surface_count++] = *out;
    } else {
        CUDA_TEXTURE_DESC td;
        memset(&td, 0, sizeof td);
        td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = ADDRESS_CLAMP;
        td.flags = TRSF_NORMALIZED_COORDINATES; /* integer fetches ignore it */
        if (check(d, cu.TexObjectCreate(out, &rd, &td, NULL), "cuTexObjectCreate"))
            return -1;
        st->textures[st->texture_count++] = *out;
    }
    *array_out = array;
    return 0;
}

static int alloc(run_state *st, size_t size, CUdeviceptr *out, dgpb_diag *d)
{
    if (st->alloc_count == MAX_ALLOCS ||
        check(d, cu.MemAlloc(out, size ? size : 16), "cuMemAlloc") ||
        check(d, cu.MemsetD8(*out, 0, size ? size : 16), "cuMemsetD8"))
        return -1;
    st->allocs[st->alloc_count++] = *out;
    return 0;
}

/* The bytes of a resource's handle where the row places it. */
static uint32_t handle_size(uint32_t kind)
{
    switch (kind) {
    case DGPB_KIND_BUFFER:
    case DGPB_KIND_RW_BUFFER:
    case DGPB_KIND_BYTE_BUFFER:
    case DGPB_KIND_RW_BYTE_BUFFER:
        return 16;                  /* device pointer, element count or byte size */
    case DGPB_KIND_UNIFORM_BUFFER:  /* device pointer */
    case DGPB_KIND_TEXTURE:         /* CUtexObject */
    case DGPB_KIND_TEXTURE_SAMPLER: /* a CUtexObject too: it samples as its sampler would */
    case DGPB_KIND_RW_TEXTURE:      /* CUsurfObject */
    case DGPB_KIND_SAMPLER:         /* folded into the texture object; left zero */
        return 8;
    default:
        return 0;
    }
}

/* Where `size` bytes at `at` of a row go: SLANG_globalParams (space 0) or the launch buffer. */
typedef struct places {
    uint8_t *globals; /* the host copy of SLANG_globalParams */
    size_t globals_size;
    uint8_t *launch; /* the kernel's parameter buffer */
    size_t launch_size;
} places;

static uint8_t *place(const places *pl, const dgpb_param_view *row, uint32_t at, uint32_t size,
                      dgpb_diag *d)
{
    bool launch = row->space == DGPB_SPACE_LAUNCH;
    if (!launch && row->space != 0) {
        run_fail(d, DGPB_ERR_CORRUPT_VALUE, "row '%.*s': space %u has no meaning on ptx",
                 (int)row->name.len, row->name.ptr, row->space);
        return NULL;
    }
    size_t limit = launch ? pl->launch_size : pl->globals_size;
    if ((uint64_t)at + size > limit) {
        run_fail(d, DGPB_ERR_CORRUPT_VALUE, "row '%.*s': bytes %u..%u lie outside %s (%zu bytes)",
                 (int)row->name.len, row->name.ptr, at, at + size,
                 launch ? "the kernel's parameters" : "SLANG_globalParams", limit);
        return NULL;
    }
    return (launch ? pl->launch : pl->globals) + at;
}

/* The bytes [*begin, *end) a launch row occupies in the kernel's parameter buffer. */
static void launch_range(const dgpb_param_view *row, size_t *begin, size_t *end)
{
    *begin = row->kind == DGPB_KIND_VALUE ? row->offset : row->binding;
    *end = *begin + (row->kind == DGPB_KIND_VALUE ? row->size : handle_size(row->kind));
}

/*
 * The size of the kernel's parameter buffer: the driver's, when it can say
 * (then every launch row must lie inside it, and every kernel parameter must
 * hold at least one row: a table check), else the end of the last launch
 * row. -1 on a mismatch, with the message in `d`.
 */
static int launch_size(CUfunction fn, const dgpb_entry_view *e, size_t *out, dgpb_diag *d)
{
    size_t end = 0, b, x;
    for (uint32_t r = 0; r < e->param_count; r++)
        if (e->params[r].space == DGPB_SPACE_LAUNCH) {
            launch_range(&e->params[r], &b, &x);
            if (x > end)
                end = x;
        }
    *out = end;
    if (!cu.FuncGetParamInfo)
        return 0;
    size_t declared = 0, offset, size, i = 0;
    for (; cu.FuncGetParamInfo(fn, i, &offset, &size) == 0; i++) {
        if (offset + size > declared)
            declared = offset + size;
        bool covered = false;
        for (uint32_t r = 0; r < e->param_count && !covered; r++)
            if (e->params[r].space == DGPB_SPACE_LAUNCH) {
                launch_range(&e->params[r], &b, &x);
                covered = b < offset + size && x > offset;
            }
        if (!covered) {
            run_fail(d, DGPB_ERR_CORRUPT_VALUE,
                     "kernel parameter %zu (bytes %zu..%zu) has no row in the table", i, offset,
                     offset + size);
            return -1;
        }
    }
    if (i == 0 && end)
        return 0; /* the driver says nothing (or the kernel takes nothing: the launch will tell) */
    if (end > declared) {
        run_fail(d, DGPB_ERR_CORRUPT_VALUE,
                 "the table places launch parameters up to byte %zu, the kernel declares %zu", end,
                 declared);
        return -1;
    }
    *out = declared;
    return 0;
}

static int load_cuda(cuda_host *h, dgpb_diag *d)
{
    h->lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h->lib)
        return dgpb_diag_set(d, DGPB_ERR_RUN_NO_DEVICE, -1,
                             "cannot load libcuda.so.1 (the NVIDIA driver): %s", dlerror());
#define SYM(field, name)                                                                           \
    if (!(*(void **)&cu.field = dlsym(h->lib, name)))                                              \
        return dgpb_diag_set(d, DGPB_ERR_RUN_NO_DEVICE, -1, "libcuda lacks %s", name);
    SYM(Init, "cuInit");
    SYM(DeviceGet, "cuDeviceGet");
    SYM(DeviceGetCount, "cuDeviceGetCount");
    SYM(DeviceGetName, "cuDeviceGetName");
    SYM(DeviceGetAttribute, "cuDeviceGetAttribute");
    SYM(CtxCreate, "cuCtxCreate_v2");
    SYM(CtxDestroy, "cuCtxDestroy_v2");
    SYM(CtxSynchronize, "cuCtxSynchronize");
    SYM(ModuleLoadData, "cuModuleLoadData");
    SYM(ModuleUnload, "cuModuleUnload");
    SYM(ModuleGetFunction, "cuModuleGetFunction");
    SYM(ModuleGetGlobal, "cuModuleGetGlobal_v2");
    SYM(MemAlloc, "cuMemAlloc_v2");
    SYM(MemFree, "cuMemFree_v2");
    SYM(MemcpyHtoD, "cuMemcpyHtoD_v2");
    SYM(MemcpyDtoH, "cuMemcpyDtoH_v2");
    SYM(MemsetD8, "cuMemsetD8_v2");
    SYM(LaunchKernel, "cuLaunchKernel");
    SYM(GetErrorString, "cuGetErrorString");
    SYM(Array3DCreate, "cuArray3DCreate_v2");
    SYM(ArrayDestroy, "cuArrayDestroy");
    SYM(Memcpy3D, "cuMemcpy3D_v2");
    SYM(TexObjectCreate, "cuTexObjectCreate");
    SYM(TexObjectDestroy, "cuTexObjectDestroy");
    SYM(SurfObjectCreate, "cuSurfObjectCreate");
    SYM(SurfObjectDestroy, "cuSurfObjectDestroy");
    SYM(EventCreate, "cuEventCreate");
    SYM(EventRecord, "cuEventRecord");
    SYM(EventSynchronize, "cuEventSynchronize");
    SYM(EventElapsedTime, "cuEventElapsedTime");
    SYM(EventDestroy, "cuEventDestroy_v2");
#undef SYM
    /* Optional (CUDA 12.4+): the kernel's parameter layout, to size and check the launch buffer. */
    *(void **)&cu.FuncGetParamInfo = dlsym(h->lib, "cuFuncGetParamInfo");
    return DGPB_OK;
}

static void cuda_destroy(void *host)
{
    cuda_host *h = host;
    if (!h)
        return;
    if (h->ctx)
        cu.CtxDestroy(h->ctx);
    if (h->lib)
        dlclose(h->lib);
    dgpb_free(h);
}

static const char *cuda_device_name(const void *host)
{
    return ((const cuda_host *)host)->device_name;
}

static const char *cuda_driver(const void *host)
{
    return ((const cuda_host *)host)->driver;
}

static uint32_t cuda_pipeline_count(const void *host)
{
    return ((const cuda_host *)host)->modules;
}

/*
 * The name of an entry's kernel in its PTX (docs/format.md, the ptx target):
 * the entry's own, or else the PTX's only .entry (Slang's CUDA code calls an
 * entry `main` `main_0`, as C++ reserves `main`). NULL when out of memory.
 */
static char *kernel_name(const char *ptx, size_t size, const dgpb_entry_view *e)
{
    char *name = mem_printf("%.*s", (int)e->name.len, e->name.ptr);
    dgpb_ptx_module *m = NULL;
    if (name && ptx_module_scan(ptx, size, &m, NULL) == DGPB_OK) {
        const dgpb_ptx_entry *k = ptx_kernel(m, name);
        if (k && strcmp(k->name, name)) {
            dgpb_free(name);
            name = mem_strdup(k->name);
        }
    }
    ptx_module_free(m);
    return name;
}

/*
 * What a PTX entry needs of the device (docs/format.md, "Capabilities"): the
 * compute capability of its `.target sm_NN`, and no capability a ptx entry
 * cannot have (its code declares none: every feature of compute capability
 * 7.5 is core; older bundles listed half, atomic64 and subgroup_basic, which
 * every such device has). Checked before the module is loaded.
 */
static int check_target(const cuda_host *h, const dgpb_entry_view *e, dgpb_diag *d)
{
    uint64_t has = UINT64_C(1) << DGPB_CAP_ATOMIC64 | UINT64_C(1) << DGPB_CAP_SUBGROUP_BASIC |
                   UINT64_C(1) << DGPB_CAP_HALF;
    if (run_check_capabilities(e, has, h->mask, h->device_name, d))
        return d->code;
    dgpb_code_features f;
    dgpb_diag fd;
    dgpb_diag_clear(&fd);
    if (code_features_read(DGPB_CODE_FORMAT_PTX, e->code.data, e->code.size, &f, &fd))
        return run_fail(d, fd.code, "entry '%.*s': %s", (int)e->name.len, e->name.ptr, fd.message);
    uint32_t sm = 0;
    for (size_t i = 0; i < f.count; i++)
        if (f.items[i].number > sm)
            sm = f.items[i].number;
    code_features_clear(&f);
    if (sm > h->compute_capability)
        return run_fail(d, DGPB_ERR_RUN_CAPABILITY,
                        "entry '%.*s' needs compute capability %u.%u (PTX `.target sm_%u`), which "
                        "device '%s' lacks (it has %u.%u)",
                        (int)e->name.len, e->name.ptr, sm / 10, sm % 10, sm, h->device_name,
                        h->compute_capability / 10, h->compute_capability % 10);
    return DGPB_OK;
}

static int cuda_run(void *host, const char *key, const dgpb_target_view *t,
                    const dgpb_entry_view *const *entries, const dgpb_run_request *c,
                    const dgpb_param_view *const *rows, dgpb_run_result *res, dgpb_diag *d)
{
    cuda_host *h = host;
    const dgpb_entry_view *e = entries[0];
    (void)key;
    (void)t;
    for (uint32_t i = 0; i < c->param_count; i++) {
        res->outputs[i].kind = rows[i] ? rows[i]->kind : c->params[i].kind;
        res->outputs[i].flags = rows[i] ? rows[i]->flags : 0;
    }
    res->output_count = c->param_count;
    memcpy(res->thread_group_size, e->thread_group_size, sizeof res->thread_group_size);
    if (c->fragment)
        return run_fail(d, DGPB_ERR_UNSUPPORTED, "the CUDA host runs compute entries only");
    if (check_target(h, e, d))
        return d->code;
    dgpb_diag vd;
    dgpb_diag_clear(&vd);
    if (dgpb_blob_verify(&e->code, &vd))
        return run_fail(d, vd.code, "entry '%.*s': %s", (int)e->name.len, e->name.ptr, vd.message);
    char *ptx = mem_alloc(e->code.size + 1);
    if (!ptx)
        return run_fail(d, DGPB_ERR_NOMEM, "out of memory");
    memcpy(ptx, e->code.data, e->code.size);
    ptx[e->code.size] = 0;
    char *name = kernel_name(ptx, e->code.size, e);
    CUmodule mod = NULL;
    CUfunction fn = NULL;
    CUdeviceptr globals = 0;
    places pl = {NULL, 0, NULL, 0};
    run_state st;
    memset(&st, 0, sizeof st);
    /* Value blocks behind a pointer in SLANG_globalParams, one per distinct binding. */
    uint32_t block_binding[MAX_BLOCKS];
    uint8_t *block_bytes[MAX_BLOCKS] = {NULL};
    size_t block_size[MAX_BLOCKS], blocks = 0;
    /* Where each request parameter lives on the device, to read it back. */
    CUdeviceptr out_mem[DGPB_RUN_MAX_PARAMS] = {0};
    CUarray out_array[DGPB_RUN_MAX_PARAMS] = {NULL};
    uint32_t repeat = c->repeat ? c->repeat : 1;
    CUevent *events = NULL;
    if (!name) {
        run_fail(d, DGPB_ERR_NOMEM, "out of memory");
        goto done;
    }
    if (check(d, cu.ModuleLoadData(&mod, ptx), "cuModuleLoadData (PTX JIT)") ||
        check(d, cu.ModuleGetFunction(&fn, mod, name), "cuModuleGetFunction"))
        goto done;
    h->modules++;
    if (cu.ModuleGetGlobal(&globals, &pl.globals_size, mod, "SLANG_globalParams") != 0)
        pl.globals_size = 0; /* an entry without global parameters has no block */
    if (launch_size(fn, e, &pl.launch_size, d))
        goto done;
    pl.globals = mem_calloc(1, pl.globals_size + 16);
    pl.launch = mem_calloc(1, pl.launch_size + 16);
    if (!pl.globals || !pl.launch) {
        run_fail(d, DGPB_ERR_NOMEM, "out of memory");
        goto done;
    }

    /* Values: in SLANG_globalParams, in the launch buffer, or in a block behind a pointer. */
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *row = &e->params[r];
        if (row->kind != DGPB_KIND_VALUE || (row->flags & DGPB_FLAG_ABSENT))
            continue;
        int k = run_param_index(c, row);
        const dgpb_run_param *p = k >= 0 ? &c->params[k] : NULL;
        /* A cbuffer's field: nothing when its block is given as bytes. Any value not given is
           zero (the parameters and the blocks start zeroed). */
        bool field = row->space != DGPB_SPACE_LAUNCH && run_block_covered(e, row, c);
        if (field && block_given(e, row, c))
            continue;
        if (p && (!p->input || dgpb_run_value_place(p, row->size, NULL))) {
            run_fail(d, DGPB_ERR_RUN_SIZE,
                     "value row '%.*s' (%u bytes): the request gives a value of another size",
                     (int)row->name.len, row->name.ptr, row->size);
            goto done;
        }
        uint8_t *dst;
        if (row->space == DGPB_SPACE_LAUNCH || row->binding == DGPB_BINDING_INLINE) {
            if (!(dst = place(&pl, row, row->offset, row->size, d)))
                goto done;
        } else {
            size_t k2 = 0;
            while (k2 < blocks && block_binding[k2] != row->binding)
                k2++;
            if (k2 == MAX_BLOCKS) {
                run_fail(d, DGPB_ERR_LIMIT, "more than %d value blocks", MAX_BLOCKS);
                goto done;
            }
            if (k2 == blocks) {
                block_binding[k2] = row->binding;
                block_size[k2] = 0;
                if (!(block_bytes[k2] = mem_calloc(1, MAX_BLOCK_SIZE))) {
                    run_fail(d, DGPB_ERR_NOMEM, "out of memory");
                    goto done;
                }
                blocks++;
            }
            size_t end = (size_t)row->offset + row->size;
            if (end > MAX_BLOCK_SIZE) {
                run_fail(d, DGPB_ERR_LIMIT, "a value block over %d bytes", MAX_BLOCK_SIZE);
                goto done;
            }
            if (end > block_size[k2])
                block_size[k2] = end;
            dst = block_bytes[k2] + row->offset;
        }
        if (p)
            dgpb_run_value_place(p, row->size, dst);
    }
    for (size_t k = 0; k < blocks; k++) {
        CUdeviceptr mem;
        uint8_t *at;
        /* The pointer's row: any value row of the block names its binding; take the first. */
        const dgpb_param_view *row = NULL;
        for (uint32_t r = 0; r < e->param_count && !row; r++)
            if (e->params[r].kind == DGPB_KIND_VALUE && !(e->params[r].flags & DGPB_FLAG_ABSENT) &&
                e->params[r].space == 0 &&
                e->params[r].binding == block_binding[k])
                row = &e->params[r];
        if (!row || !(at = place(&pl, row, block_binding[k], 8, d)) ||
            alloc(&st, block_size[k], &mem, d) ||
            check(d, cu.MemcpyHtoD(mem, block_bytes[k], block_size[k]), "upload values"))
            goto done;
        memcpy(at, &mem, 8);
    }

    /* Resources: each handle at its row's binding, in SLANG_globalParams or the launch buffer. */
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *row = &e->params[r];
        if (row->kind == DGPB_KIND_VALUE || (row->flags & DGPB_FLAG_ABSENT))
            continue;
        uint32_t hs = handle_size(row->kind);
        if (!hs) {
            run_fail(d, DGPB_ERR_UNSUPPORTED, "row '%.*s': kind %s has no CUDA form here",
                     (int)row->name.len, row->name.ptr, dgpb_kind_name(row->kind));
            goto done;
        }
        if (row->kind == DGPB_KIND_SAMPLER)
            continue; /* folded into the texture object by Slang's CUDA code: nothing to write */
        if (row->kind == DGPB_KIND_UNIFORM_BUFFER && run_block_covered(e, row, c))
            continue; /* built from its fields above, its pointer written with them */
        uint8_t *at = place(&pl, row, row->binding, hs, d);
        if (!at)
            goto done;
        int k = run_param_index(c, row);
        if (k < 0) {
            run_fail(d, DGPB_ERR_RUN_MISSING, "the request binds nothing to row '%.*s'",
                     (int)row->name.len, row->name.ptr);
            goto done;
        }
        const dgpb_run_param *p = &c->params[k];
        if (row->kind == DGPB_KIND_TEXTURE || row->kind == DGPB_KIND_TEXTURE_SAMPLER ||
            row->kind == DGPB_KIND_RW_TEXTURE) {
            uint64_t handle = 0;
            if (make_image(&st, p, row->kind == DGPB_KIND_RW_TEXTURE, &handle, &out_array[k], d))
                goto done;
            memcpy(at, &handle, 8);
            continue;
        }
        size_t bytes = run_param_bytes(p);
        CUdeviceptr mem;
        if (alloc(&st, bytes, &mem, d))
            goto done;
        if (p->input &&
            check(d, cu.MemcpyHtoD(mem, p->input, p->input_size ? p->input_size : p->size),
                  "upload"))
            goto done;
        memcpy(at, &mem, 8);
        out_mem[k] = mem;
        if (hs == 16) {
            /* Slang's CUDA buffers: a pointer, then the element count (structured: the
               bytes over the element stride the row carries in `size`, docs/format.md;
               4 for a bundle written before rows had strides) or the size in bytes. */
            uint32_t stride = row->size ? row->size : 4;
            uint64_t count =
                row->kind == DGPB_KIND_BYTE_BUFFER || row->kind == DGPB_KIND_RW_BYTE_BUFFER
                    ? bytes
                    : bytes / stride;
            memcpy(at + 8, &count, 8);
        }
    }
    if (pl.globals_size &&
        check(d, cu.MemcpyHtoD(globals, pl.globals, pl.globals_size), "upload SLANG_globalParams"))
        goto done;
    unsigned *grid = res->groups;
    run_groups(c, e->thread_group_size, grid);
    /* The kernel's parameters as one buffer, laid out as the kernel declares them. */
    size_t launch_bytes = pl.launch_size;
    void *extra[] = {LAUNCH_PARAM_BUFFER_POINTER, pl.launch, LAUNCH_PARAM_BUFFER_SIZE,
                     &launch_bytes, LAUNCH_PARAM_END};
    if (c->time) {
        if (!(events = mem_calloc(2 * (size_t)repeat, sizeof *events))) {
            run_fail(d, DGPB_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (uint32_t n = 0; n < 2 * repeat; n++)
            if (check(d, cu.EventCreate(&events[n], 0), "cuEventCreate"))
                goto done;
    }
    for (uint32_t n = 0; n < repeat; n++) {
        if (c->time && check(d, cu.EventRecord(events[2 * n], NULL), "cuEventRecord"))
            goto done;
        if (check(d,
                  cu.LaunchKernel(fn, grid[0], grid[1], grid[2], e->thread_group_size[0],
                                  e->thread_group_size[1], e->thread_group_size[2], 0, NULL, NULL,
                                  launch_bytes ? extra : NULL),
                  "cuLaunchKernel"))
            goto done;
        if (c->time && check(d, cu.EventRecord(events[2 * n + 1], NULL), "cuEventRecord"))
            goto done;
    }
    res->dispatches = repeat;
    if (check(d, cu.CtxSynchronize(), "cuCtxSynchronize"))
        goto done;
    res->ran = true;
    if (c->time) {
        if (!(res->times_ms = mem_calloc(repeat, sizeof *res->times_ms))) {
            run_fail(d, DGPB_ERR_NOMEM, "out of memory");
            goto done;
        }
        for (uint32_t n = 0; n < repeat; n++) {
            float ms = 0;
            if (check(d, cu.EventSynchronize(events[2 * n + 1]), "cuEventSynchronize") ||
                check(d, cu.EventElapsedTime(&ms, events[2 * n], events[2 * n + 1]),
                      "cuEventElapsedTime"))
                goto done;
            res->times_ms[n] = ms;
        }
        res->time_count = repeat;
    }
    /* Read back every buffer and texture. */
    for (uint32_t k = 0; k < c->param_count; k++) {
        const dgpb_run_param *p = &c->params[k];
        if (!out_mem[k] && !out_array[k])
            continue;
        size_t bytes = out_array[k] ? p->size : run_param_bytes(p);
        uint8_t *got = mem_alloc(bytes ? bytes : 1);
        if (!got) {
            run_fail(d, DGPB_ERR_NOMEM, "out of memory");
            goto done;
        }
        res->outputs[k].data = got;
        res->outputs[k].size = bytes;
        if (out_array[k] ? copy_texels(out_array[k], p, NULL, got, d)
                         : check(d, cu.MemcpyDtoH(got, out_mem[k], bytes), "download"))
            goto done;
    }
done:
    for (uint32_t n = 0; events && n < 2 * repeat; n++)
        if (events[n])
            cu.EventDestroy(events[n]);
    dgpb_free(events);
    for (size_t k = 0; k < blocks; k++)
        dgpb_free(block_bytes[k]);
    for (size_t i = 0; i < st.texture_count; i++)
        cu.TexObjectDestroy(st.textures[i]);
    for (size_t i = 0; i < st.surface_count; i++)
        cu.SurfObjectDestroy(st.surfaces[i]);
    for (size_t i = 0; i < st.array_count; i++)
        cu.ArrayDestroy(st.arrays[i]);
    for (size_t i = 0; i < st.alloc_count; i++)
        cu.MemFree(st.allocs[i]);
    if (mod)
        cu.ModuleUnload(mod);
    dgpb_free(pl.globals);
    dgpb_free(pl.launch);
    dgpb_free(ptx);
    dgpb_free(name);
    return d->code;
}

static const run_host_ops cuda_ops = {cuda_destroy, cuda_device_name, cuda_driver,
                                      cuda_pipeline_count, cuda_run};

int run_cuda_create(const dgpb_runner_desc *desc, void **host, const run_host_ops **ops,
                    dgpb_diag *d)
{
    *host = NULL;
    *ops = &cuda_ops;
    cuda_host *h = mem_calloc(1, sizeof *h);
    if (!h)
        return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    h->mask = desc->mask_capabilities;
    int rc = load_cuda(h, d);
    int count = 0;
    if (!rc && check(d, cu.Init(0), "cuInit"))
        rc = d->code = DGPB_ERR_RUN_NO_DEVICE;
    if (!rc && (check(d, cu.DeviceGetCount(&count), "cuDeviceGetCount") || count <= 0)) {
        d->code = DGPB_OK;
        rc = dgpb_diag_set(d, DGPB_ERR_RUN_NO_DEVICE, -1, "no CUDA device found");
    }
    /* The device: an index, or the first whose name contains the text. */
    const char *want = desc->device && *desc->device ? desc->device : NULL;
    char *end = NULL;
    long index = want ? strtol(want, &end, 10) : 0;
    bool by_index = !want || (*end == 0 && end != want);
    for (int i = 0; !rc && i < count && !h->device_name[0]; i++) {
        CUdevice dev;
        char name[256] = "";
        if (check(d, cu.DeviceGet(&dev, i), "cuDeviceGet")) {
            rc = d->code;
            break;
        }
        cu.DeviceGetName(name, sizeof name, dev);
        if (by_index ? i == index : strstr(name, want) != NULL) {
            int major = 0, minor = 0; /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, _MINOR */
            cu.DeviceGetAttribute(&major, 75, dev);
            cu.DeviceGetAttribute(&minor, 76, dev);
            h->compute_capability = (uint32_t)(major * 10 + minor);
            h->dev = dev;
            snprintf(h->device_name, sizeof h->device_name, "%s", name);
        }
    }
    if (!rc && !h->device_name[0])
        rc = dgpb_diag_set(d, DGPB_ERR_RUN_NO_DEVICE, -1,
                           "no CUDA device matches '%s' (%d devices found)", want ? want : "0",
                           count);
    if (!rc && check(d, cu.CtxCreate(&h->ctx, 0, h->dev), "cuCtxCreate"))
        rc = d->code;
    if (rc) {
        cuda_destroy(h);
        return rc;
    }
    snprintf(h->driver, sizeof h->driver, "CUDA driver API (libcuda.so.1)");
    *host = h;
    return DGPB_OK;
}
