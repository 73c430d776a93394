/*
 * cuda_run.c - runs the conformance cases (tests/conformance/cases.h) from
 * the ptx target of their bundles through the CUDA driver API.
 *
 * A host that knows nothing but the bundle: the PTX is loaded as is
 * (cuModuleLoadData JIT-compiles it for the device), the entry is the
 * function of the entry's name, and every parameter is placed from its row
 * alone (docs/format.md, the ptx rules):
 *
 *   - space 0 is Slang's global parameter block, the module constant
 *     SLANG_globalParams. A resource row's `binding` is the byte offset of its
 *     handle there. A value row's `binding` is the offset of the 8-byte
 *     pointer to its block's memory, which holds the value at `offset`;
 *     except binding 0xFFFFFFFF (DGPB_BINDING_INLINE): the value sits in
 *     SLANG_globalParams itself at `offset` (loose `uniform` globals, plain
 *     fields of struct globals).
 *   - space 0xFFFFFFFF (DGPB_SPACE_LAUNCH) is the kernel's own parameters: a
 *     resource row's `binding` is its offset in the kernel's parameter
 *     buffer, a value row sits there at `offset`. The buffer goes to
 *     cuLaunchKernel with CU_LAUNCH_PARAM_BUFFER_POINTER/_SIZE; its size is
 *     the driver's (cuFuncGetParamInfo, CUDA 12.4+: every row must lie inside
 *     it), or else the end of the last launch row.
 *
 * Handles: a structured or byte-address buffer is a device pointer and a
 * count (16 bytes), a constant buffer an 8-byte device pointer, a texture a
 * CUtexObject (8 bytes) over a CUDA array of the case's dimension (1D, 2D,
 * 3D, layered, cubemap) with normalized coordinates, point filtering and
 * clamping (the cases' sampler, which the CUDA code folds into the texture
 * object, so a sampler row is left zero), a storage texture a CUsurfObject
 * over a surface-capable array. Render cases are reported as not applicable.
 *
 * libcuda is loaded at run time (dlopen), so the program builds anywhere.
 *
 *   cuda-run BUNDLE_DIR [CASE...]
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "dgpb/dgpb.h"

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef struct CUarray_st *CUarray;
typedef uint64_t CUtexObject;
typedef uint64_t CUsurfObject;

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
enum { FMT_UINT32 = 0x03, FMT_HALF = 0x10, FMT_FLOAT = 0x20 };
enum { ARRAY_LAYERED = 0x01, ARRAY_SURFACE_LDST = 0x02, ARRAY_CUBEMAP = 0x04 };
enum { TRSF_NORMALIZED_COORDINATES = 0x02, ADDRESS_CLAMP = 1 };

/* cuLaunchKernel's `extra` markers. */
#define LAUNCH_PARAM_END ((void *)0x00)
#define LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

#ifndef DGPB_SPACE_LAUNCH
#define DGPB_SPACE_LAUNCH 0xFFFFFFFFu /* the kernel's own parameters */
#endif
#ifndef DGPB_BINDING_INLINE
#define DGPB_BINDING_INLINE 0xFFFFFFFFu /* a value directly in SLANG_globalParams */
#endif

static struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
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
    CUresult (*FuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *); /* NULL if absent */
} cu;

static int load_cuda(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "cuda-run: cannot load libcuda.so.1 (the NVIDIA driver): %s\n", dlerror());
        return -1;
    }
#define SYM(field, name)                                                                           \
    if (!(*(void **)&cu.field = dlsym(lib, name))) {                                               \
        fprintf(stderr, "cuda-run: libcuda lacks %s\n", name);                                     \
        return -1;                                                                                 \
    }
    SYM(Init, "cuInit");
    SYM(DeviceGet, "cuDeviceGet");
    SYM(DeviceGetName, "cuDeviceGetName");
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
#undef SYM
    /* Optional (CUDA 12.4+): the kernel's parameter layout, to size and check the launch buffer. */
    *(void **)&cu.FuncGetParamInfo = dlsym(lib, "cuFuncGetParamInfo");
    return 0;
}

static char failure[512];

static int check(CUresult r, const char *what)
{
    if (r == 0)
        return 0;
    const char *s = "unknown error";
    cu.GetErrorString(r, &s);
    snprintf(failure, sizeof failure, "%s: %s (%d)", what, s, r);
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

/* The CUDA array format of a case texture format: format, channels, bytes per texel. */
static int array_format(uint32_t format, int *fmt, unsigned *channels)
{
    switch (format) {
    case CONF_FORMAT_R16FLOAT:
        *fmt = FMT_HALF, *channels = 1;
        return 0;
    case CONF_FORMAT_R32FLOAT:
        *fmt = FMT_FLOAT, *channels = 1;
        return 0;
    case CONF_FORMAT_RG32FLOAT:
        *fmt = FMT_FLOAT, *channels = 2;
        return 0;
    case CONF_FORMAT_RGBA32FLOAT:
        *fmt = FMT_FLOAT, *channels = 4;
        return 0;
    case CONF_FORMAT_R32UINT:
        *fmt = FMT_UINT32, *channels = 1;
        return 0;
    default:
        return -1;
    }
}

/* Copies every texel of a case texture (all slices, layers or faces, tightly packed) in or out. */
static int copy_texels(CUarray array, const conf_param *p, const void *src, void *dst)
{
    CUDA_MEMCPY3D m;
    memset(&m, 0, sizeof m);
    size_t row = (size_t)p->width * conf_format_texel_size(p->format);
    size_t height = p->dim == CONF_DIM_1D ? 1 : p->height;
    m.WidthInBytes = row;
    m.Height = height;
    m.Depth = p->dim == CONF_DIM_1D || p->dim == CONF_DIM_2D || !p->depth ? 1 : p->depth;
    if (src) {
        m.srcMemoryType = MEM_HOST, m.srcHost = src, m.srcPitch = row, m.srcHeight = height;
        m.dstMemoryType = MEM_ARRAY, m.dstArray = array;
    } else {
        m.srcMemoryType = MEM_ARRAY, m.srcArray = array;
        m.dstMemoryType = MEM_HOST, m.dstHost = dst, m.dstPitch = row, m.dstHeight = height;
    }
    return check(cu.Memcpy3D(&m), src ? "upload texels" : "download texels");
}

/* A CUDA array for a case texture, its texels uploaded; the handle (texture or surface) in *out. */
static int make_image(run_state *st, const conf_param *p, bool storage, uint64_t *out,
                      CUarray *array_out)
{
    int fmt;
    unsigned channels;
    if (array_format(p->format, &fmt, &channels) || st->array_count == MAX_ALLOCS) {
        snprintf(failure, sizeof failure, "texture '%s': format %u has no CUDA array format",
                 p->name, p->format);
        return -1;
    }
    /* Width, Height, Depth and flags of the case's dimension (0: a dimension the array lacks). */
    CUDA_ARRAY3D_DESCRIPTOR ad = {p->width, p->height, 0, fmt, channels, 0u};
    switch (p->dim) {
    case CONF_DIM_1D:
        ad.Height = 0;
        break;
    case CONF_DIM_3D:
        ad.Depth = p->depth;
        break;
    case CONF_DIM_2D_ARRAY:
        ad.Depth = p->depth, ad.Flags = ARRAY_LAYERED;
        break;
    case CONF_DIM_CUBE:
        ad.Depth = 6, ad.Flags = ARRAY_CUBEMAP;
        break;
    default:
        break;
    }
    if (storage)
        ad.Flags |= ARRAY_SURFACE_LDST;
    CUarray array;
    if (check(cu.Array3DCreate(&array, &ad), "cuArray3DCreate"))
        return -1;
    st->arrays[st->array_count++] = array;
    if (p->input && copy_texels(array, p, p->input, NULL))
        return -1;
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.res.array.hArray = array;
    if (storage) {
        if (check(cu.SurfObjectCreate(out, &rd), "cuSurfObjectCreate"))
            return -1;
        st->surfaces[st->surface_count++] = *out;
    } else {
        CUDA_TEXTURE_DESC td;
        memset(&td, 0, sizeof td);
        td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = ADDRESS_CLAMP;
        td.flags = TRSF_NORMALIZED_COORDINATES; /* integer fetches ignore it */
        if (check(cu.TexObjectCreate(out, &rd, &td, NULL), "cuTexObjectCreate"))
            return -1;
        st->textures[st->texture_count++] = *out;
    }
    *array_out = array;
    return 0;
}

static int alloc(run_state *st, size_t size, CUdeviceptr *out)
{
    if (st->alloc_count == MAX_ALLOCS || check(cu.MemAlloc(out, size ? size : 16), "cuMemAlloc") ||
        check(cu.MemsetD8(*out, 0, size ? size : 16), "cuMemsetD8"))
        return -1;
    st->allocs[st->alloc_count++] = *out;
    return 0;
}

static const conf_param *find_param(const conf_case *c, const dgpb_str name)
{
    for (uint32_t i = 0; i < c->param_count; i++)
        if (dgpb_str_eq(name, c->params[i].name))
            return &c->params[i];
    return NULL;
}

/* The bytes of a resource's handle where the row places it. */
static uint32_t handle_size(uint32_t kind)
{
    switch (kind) {
    case DGPB_KIND_BUFFER:
    case DGPB_KIND_RW_BUFFER:
    case DGPB_KIND_BYTE_BUFFER:
    case DGPB_KIND_RW_BYTE_BUFFER:
        return 16;                 /* device pointer, element count or byte size */
    case DGPB_KIND_UNIFORM_BUFFER: /* device pointer */
    case DGPB_KIND_TEXTURE:        /* CUtexObject */
    case DGPB_KIND_RW_TEXTURE:     /* CUsurfObject */
    case DGPB_KIND_SAMPLER:        /* folded into the texture object; left zero */
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

static uint8_t *place(const places *pl, const dgpb_param_view *row, uint32_t at, uint32_t size)
{
    bool launch = row->space == DGPB_SPACE_LAUNCH;
    if (!launch && row->space != 0) {
        snprintf(failure, sizeof failure, "row '%.*s': space %u has no meaning on ptx",
                 (int)row->name.len, row->name.ptr, row->space);
        return NULL;
    }
    size_t limit = launch ? pl->launch_size : pl->globals_size;
    if ((uint64_t)at + size > limit) {
        snprintf(failure, sizeof failure, "row '%.*s': bytes %u..%u lie outside %s (%zu bytes)",
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
 * row. -1 on a mismatch, with the message in `failure`.
 */
static int launch_size(CUfunction fn, const dgpb_entry_view *e, size_t *out)
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
            snprintf(failure, sizeof failure,
                     "kernel parameter %zu (bytes %zu..%zu) has no row in the table", i, offset,
                     offset + size);
            return -1;
        }
    }
    if (i == 0 && end)
        return 0; /* the driver says nothing (or the kernel takes nothing: the launch will tell) */
    if (end > declared) {
        snprintf(failure, sizeof failure,
                 "the table places launch parameters up to byte %zu, the kernel declares %zu", end,
                 declared);
        return -1;
    }
    *out = declared;
    return 0;
}

#define MAX_BLOCKS 8
#define MAX_BLOCK_SIZE 4096

/* 1 passed, 0 failed, -1 not applicable. */
static int run_case(const conf_case *c, const dgpb_entry_view *e, uint64_t *words, uint64_t *bad)
{
    if (c->type != CONF_COMPUTE)
        return -1;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_blob_verify(&e->code, &d)) {
        snprintf(failure, sizeof failure, "%.400s", d.message);
        return 0;
    }
    /* Every parameter the case names must be a row of the entry, of the case's kind. */
    for (uint32_t i = 0; i < c->param_count; i++) {
        const dgpb_param_view *row = NULL;
        for (uint32_t r = 0; r < e->param_count && !row; r++)
            if (dgpb_str_eq(e->params[r].name, c->params[i].name))
                row = &e->params[r];
        if (!row || row->kind != c->params[i].kind) {
            snprintf(failure, sizeof failure, "the entry has %s '%s'",
                     row ? "another kind of parameter" : "no parameter", c->params[i].name);
            return 0;
        }
    }
    char *ptx = malloc(e->code.size + 1);
    if (!ptx) {
        snprintf(failure, sizeof failure, "out of memory");
        return 0;
    }
    memcpy(ptx, e->code.data, e->code.size);
    ptx[e->code.size] = 0;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)e->name.len, e->name.ptr);
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
    CUdeviceptr out_mem[CONF_MAX_PARAMS];
    CUarray out_array[CONF_MAX_PARAMS];
    const conf_param *out_param[CONF_MAX_PARAMS];
    size_t outs = 0;
    int ok = 0;
    if (check(cu.ModuleLoadData(&mod, ptx), "cuModuleLoadData (PTX JIT)") ||
        check(cu.ModuleGetFunction(&fn, mod, name), "cuModuleGetFunction"))
        goto done;
    if (cu.ModuleGetGlobal(&globals, &pl.globals_size, mod, "SLANG_globalParams") != 0)
        pl.globals_size = 0; /* an entry without global parameters has no block */
    if (launch_size(fn, e, &pl.launch_size))
        goto done;
    pl.globals = calloc(1, pl.globals_size + 16);
    pl.launch = calloc(1, pl.launch_size + 16);
    if (!pl.globals || !pl.launch) {
        snprintf(failure, sizeof failure, "out of memory");
        goto done;
    }

    /* Values: in SLANG_globalParams, in the launch buffer, or in a block behind a pointer. */
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *row = &e->params[r];
        if (row->kind != DGPB_KIND_VALUE)
            continue;
        const conf_param *p = find_param(c, row->name);
        if (!p || !p->input || conf_value_place(p, row->size, NULL)) {
            snprintf(failure, sizeof failure, "value row '%.*s' (%u bytes): the case gives %s",
                     (int)row->name.len, row->name.ptr, row->size,
                     p ? "a value of another size" : "nothing");
            goto done;
        }
        uint8_t *dst;
        if (row->space == DGPB_SPACE_LAUNCH || row->binding == DGPB_BINDING_INLINE) {
            if (!(dst = place(&pl, row, row->offset, row->size)))
                goto done;
        } else {
            size_t k = 0;
            while (k < blocks && block_binding[k] != row->binding)
                k++;
            if (k == MAX_BLOCKS) {
                snprintf(failure, sizeof failure, "more than %d value blocks", MAX_BLOCKS);
                goto done;
            }
            if (k == blocks) {
                block_binding[k] = row->binding;
                block_size[k] = 0;
                if (!(block_bytes[k] = calloc(1, MAX_BLOCK_SIZE))) {
                    snprintf(failure, sizeof failure, "out of memory");
                    goto done;
                }
                blocks++;
            }
            size_t end = (size_t)row->offset + row->size;
            if (end > MAX_BLOCK_SIZE) {
                snprintf(failure, sizeof failure, "a value block over %d bytes", MAX_BLOCK_SIZE);
                goto done;
            }
            if (end > block_size[k])
                block_size[k] = end;
            dst = block_bytes[k] + row->offset;
        }
        conf_value_place(p, row->size, dst);
    }
    for (size_t k = 0; k < blocks; k++) {
        CUdeviceptr mem;
        uint8_t *at;
        /* The pointer's row: any value row of the block names its binding; take the first. */
        const dgpb_param_view *row = NULL;
        for (uint32_t r = 0; r < e->param_count && !row; r++)
            if (e->params[r].kind == DGPB_KIND_VALUE && e->params[r].space == 0 &&
                e->params[r].binding == block_binding[k])
                row = &e->params[r];
        if (!row || !(at = place(&pl, row, block_binding[k], 8)) ||
            alloc(&st, block_size[k], &mem) ||
            check(cu.MemcpyHtoD(mem, block_bytes[k], block_size[k]), "upload values"))
            goto done;
        memcpy(at, &mem, 8);
    }

    /* Resources: each handle at its row's binding, in SLANG_globalParams or the launch buffer. */
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *row = &e->params[r];
        if (row->kind == DGPB_KIND_VALUE)
            continue;
        uint32_t hs = handle_size(row->kind);
        if (!hs) {
            snprintf(failure, sizeof failure, "row '%.*s': kind %s has no CUDA form here",
                     (int)row->name.len, row->name.ptr, dgpb_kind_name(row->kind));
            goto done;
        }
        if (row->kind == DGPB_KIND_SAMPLER)
            continue; /* folded into the texture object by Slang's CUDA code: nothing to write */
        uint8_t *at = place(&pl, row, row->binding, hs);
        if (!at)
            goto done;
        const conf_param *p = find_param(c, row->name);
        if (!p) {
            snprintf(failure, sizeof failure, "the case binds nothing to row '%.*s'",
                     (int)row->name.len, row->name.ptr);
            goto done;
        }
        if (outs == CONF_MAX_PARAMS) {
            snprintf(failure, sizeof failure, "too many outputs");
            goto done;
        }
        if (row->kind == DGPB_KIND_TEXTURE || row->kind == DGPB_KIND_RW_TEXTURE) {
            uint64_t handle = 0;
            CUarray array = NULL;
            if (make_image(&st, p, row->kind == DGPB_KIND_RW_TEXTURE, &handle, &array))
                goto done;
            memcpy(at, &handle, 8);
            if (p->expected) {
                out_mem[outs] = 0;
                out_array[outs] = array;
                out_param[outs++] = p;
            }
            continue;
        }
        CUdeviceptr mem;
        if (alloc(&st, p->size, &mem))
            goto done;
        if (p->input && check(cu.MemcpyHtoD(mem, p->input, p->size), "upload"))
            goto done;
        memcpy(at, &mem, 8);
        if (hs == 16) {
            /* Slang's CUDA buffers: a pointer, then the element count (structured, taken
               as 32-bit elements: the kernels never ask) or the size in bytes. */
            uint64_t count =
                row->kind == DGPB_KIND_BYTE_BUFFER || row->kind == DGPB_KIND_RW_BYTE_BUFFER
                    ? p->size
                    : p->size / 4;
            memcpy(at + 8, &count, 8);
        }
        if (p->expected) {
            out_mem[outs] = mem;
            out_array[outs] = NULL;
            out_param[outs++] = p;
        }
    }
    if (pl.globals_size &&
        check(cu.MemcpyHtoD(globals, pl.globals, pl.globals_size), "upload SLANG_globalParams"))
        goto done;
    unsigned grid[3];
    for (int i = 0; i < 3; i++)
        grid[i] = (c->threads[i] + e->thread_group_size[i] - 1) / e->thread_group_size[i];
    /* The kernel's parameters as one buffer, laid out as the kernel declares them. */
    size_t launch_bytes = pl.launch_size;
    void *extra[] = {LAUNCH_PARAM_BUFFER_POINTER, pl.launch, LAUNCH_PARAM_BUFFER_SIZE,
                     &launch_bytes, LAUNCH_PARAM_END};
    for (uint32_t n = 0; n < (c->repeat ? c->repeat : 1); n++)
        if (check(cu.LaunchKernel(fn, grid[0], grid[1], grid[2], e->thread_group_size[0],
                                  e->thread_group_size[1], e->thread_group_size[2], 0, NULL, NULL,
                                  launch_bytes ? extra : NULL),
                  "cuLaunchKernel"))
            goto done;
    if (check(cu.CtxSynchronize(), "cuCtxSynchronize"))
        goto done;
    ok = 1;
    for (size_t k = 0; k < outs && ok; k++) {
        uint8_t *got = malloc(out_param[k]->size);
        if (!got ||
            (out_array[k] ? copy_texels(out_array[k], out_param[k], NULL, got)
                          : check(cu.MemcpyDtoH(got, out_mem[k], out_param[k]->size), "download")))
            ok = 0;
        for (size_t i = 0; ok && i < out_param[k]->size; i += 4) {
            size_t n = out_param[k]->size - i < 4 ? out_param[k]->size - i : 4;
            (*words)++;
            if (memcmp(got + i, out_param[k]->expected + i, n) != 0) {
                if (!*bad)
                    snprintf(failure, sizeof failure, "%s word %zu differs", out_param[k]->name,
                             i / 4);
                (*bad)++;
            }
        }
        free(got);
    }
    ok = ok && *bad == 0;
done:
    for (size_t k = 0; k < blocks; k++)
        free(block_bytes[k]);
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
    free(pl.globals);
    free(pl.launch);
    free(ptx);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cuda-run BUNDLE_DIR [CASE...]\n");
        return 2;
    }
    if (load_cuda())
        return 1;
    CUdevice dev;
    CUcontext ctx;
    char devname[256] = "";
    if (check(cu.Init(0), "cuInit") || check(cu.DeviceGet(&dev, 0), "cuDeviceGet") ||
        check(cu.CtxCreate(&ctx, 0, dev), "cuCtxCreate")) {
        fprintf(stderr, "cuda-run: %s\n", failure);
        return 1;
    }
    cu.DeviceGetName(devname, sizeof devname, dev);
    printf("device: %s\n", devname);
    conf_suite suite = {0};
    if (conf_suite_build(&suite))
        return 1;
    unsigned passed = 0, failed = 0, na = 0;
    for (size_t i = 0; i < suite.count; i++) {
        const conf_case *c = &suite.cases[i];
        bool wanted = argc == 2;
        for (int a = 2; a < argc; a++)
            wanted |= !strcmp(argv[a], c->name);
        if (!wanted)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.dgpb", argv[1], c->module);
        uint8_t *bytes = NULL;
        size_t size = 0;
        dgpb_bundle *b = NULL;
        const dgpb_target_view *t = NULL;
        const dgpb_entry_view *e = NULL;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (dgpb_file_read(path, 1u << 30, &bytes, &size, &d) ||
            dgpb_bundle_open(bytes, size, 0, &b, &d)) {
            printf("%s: FAILED %s\n", c->name, d.message);
            failed++;
            dgpb_free(bytes);
            continue;
        }
        int r = -1;
        uint64_t words = 0, bad = 0;
        failure[0] = 0;
        if (dgpb_bundle_find_backend(b, DGPB_BACKEND_CUDA, &t, &d) == DGPB_OK &&
            dgpb_target_find_entry(t, c->entry, &e, &d) == DGPB_OK)
            r = run_case(c, e, &words, &bad);
        if (r < 0) {
            na++;
            printf("%s: not applicable (no ptx entry, or a render case)\n", c->name);
        } else if (r) {
            passed++;
            printf("%s: %llu elements, %llu/%llu words exact\n", c->name,
                   (unsigned long long)c->elements, (unsigned long long)words,
                   (unsigned long long)words);
        } else {
            failed++;
            printf("%s: FAILED %llu/%llu words exact; %s\n", c->name,
                   (unsigned long long)(words - bad), (unsigned long long)words, failure);
        }
        dgpb_bundle_close(b);
        dgpb_free(bytes);
    }
    conf_suite_free(&suite);
    cu.CtxDestroy(ctx);
    printf("not applicable: %u\n%u passed, %u failed\n", na, passed, failed);
    return failed ? 1 : 0;
}
