/*
 * cuda_run.c - runs the conformance cases (tests/conformance/cases.h) from
 * the ptx target of their bundles through the CUDA driver API.
 *
 * A host that knows nothing but the bundle: the PTX is loaded as is
 * (cuModuleLoadData JIT-compiles it for the device), the entry is the
 * function of the entry's name, and every parameter is placed from its row
 * alone. On ptx every parameter lives in Slang's global parameter block, the
 * module constant SLANG_globalParams, and a row's `binding` is its byte
 * offset there (docs/build.md): a structured or byte-address buffer is a
 * device pointer and a count (16 bytes), a constant buffer (the value block)
 * an 8-byte device pointer to memory holding each value row at its `offset`.
 * A texture is a CUtexObject (8 bytes) over a CUDA array, with normalized
 * coordinates, point filtering and clamping (the cases' sampler, which the
 * CUDA code folds into the texture object); a storage texture is a
 * CUsurfObject over a surface-capable array. The kernel takes no arguments.
 * Render cases are reported as not applicable.
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
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    CUarray srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    CUarray dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
} CUDA_MEMCPY2D;

enum { MEM_HOST = 1, MEM_ARRAY = 3 };
enum { FMT_UINT32 = 0x03, FMT_HALF = 0x10, FMT_FLOAT = 0x20 };
enum { ARRAY_SURFACE_LDST = 0x02, TRSF_NORMALIZED_COORDINATES = 0x02, ADDRESS_CLAMP = 1 };

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
    CUresult (*Memcpy2D)(const CUDA_MEMCPY2D *);
    CUresult (*TexObjectCreate)(CUtexObject *, const CUDA_RESOURCE_DESC *,
                                const CUDA_TEXTURE_DESC *, const void *);
    CUresult (*TexObjectDestroy)(CUtexObject);
    CUresult (*SurfObjectCreate)(CUsurfObject *, const CUDA_RESOURCE_DESC *);
    CUresult (*SurfObjectDestroy)(CUsurfObject);
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
    SYM(Memcpy2D, "cuMemcpy2D_v2");
    SYM(TexObjectCreate, "cuTexObjectCreate");
    SYM(TexObjectDestroy, "cuTexObjectDestroy");
    SYM(SurfObjectCreate, "cuSurfObjectCreate");
    SYM(SurfObjectDestroy, "cuSurfObjectDestroy");
#undef SYM
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

static int copy_2d(CUarray array, const void *src, void *dst, size_t row_bytes, size_t rows)
{
    CUDA_MEMCPY2D m;
    memset(&m, 0, sizeof m);
    m.WidthInBytes = row_bytes;
    m.Height = rows;
    if (src) {
        m.srcMemoryType = MEM_HOST, m.srcHost = src, m.srcPitch = row_bytes;
        m.dstMemoryType = MEM_ARRAY, m.dstArray = array;
    } else {
        m.srcMemoryType = MEM_ARRAY, m.srcArray = array;
        m.dstMemoryType = MEM_HOST, m.dstHost = dst, m.dstPitch = row_bytes;
    }
    return check(cu.Memcpy2D(&m), src ? "upload texels" : "download texels");
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
    CUDA_ARRAY3D_DESCRIPTOR ad = {p->width, p->height, 0,
                                  fmt,      channels,  storage ? ARRAY_SURFACE_LDST : 0u};
    CUarray array;
    if (check(cu.Array3DCreate(&array, &ad), "cuArray3DCreate"))
        return -1;
    st->arrays[st->array_count++] = array;
    size_t row = p->size / p->height;
    if (p->input && copy_2d(array, p->input, NULL, row, p->height))
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
    char *ptx = malloc(e->code.size + 1);
    memcpy(ptx, e->code.data, e->code.size);
    ptx[e->code.size] = 0;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)e->name.len, e->name.ptr);
    CUmodule mod = NULL;
    CUfunction fn = NULL;
    CUdeviceptr globals = 0;
    size_t globals_size = 0;
    run_state st;
    memset(&st, 0, sizeof st);
    uint32_t value_binding[8];
    CUdeviceptr value_mem[8];
    uint8_t *value_bytes[8] = {NULL};
    size_t value_size[8], values = 0;
    int ok = 0;
    uint8_t *block = NULL;
    if (check(cu.ModuleLoadData(&mod, ptx), "cuModuleLoadData (PTX JIT)") ||
        check(cu.ModuleGetFunction(&fn, mod, name), "cuModuleGetFunction"))
        goto done;
    if (cu.ModuleGetGlobal(&globals, &globals_size, mod, "SLANG_globalParams") != 0)
        globals_size = 0; /* an entry without parameters has no block */
    block = calloc(1, globals_size + 16);
    /* Value blocks: one device allocation per distinct binding (the block pointer's offset). */
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *row = &e->params[r];
        if (row->kind != DGPB_KIND_VALUE)
            continue;
        size_t k = 0;
        while (k < values && value_binding[k] != row->binding)
            k++;
        size_t end = (size_t)row->offset + row->size;
        if (k == values && values == 8) {
            snprintf(failure, sizeof failure, "more than 8 value blocks");
            goto done;
        }
        if (k == values) {
            value_binding[values] = row->binding;
            value_size[values] = 0;
            value_bytes[values] = calloc(1, 4096);
            values++;
        }
        if (end > 4096) {
            snprintf(failure, sizeof failure, "a value block over 4096 bytes");
            goto done;
        }
        if (end > value_size[k])
            value_size[k] = end;
        const conf_param *p = find_param(c, row->name);
        if (p && p->input)
            memcpy(value_bytes[k] + row->offset, p->input, row->size);
    }
    for (size_t k = 0; k < values; k++) {
        if (alloc(&st, value_size[k], &value_mem[k]) ||
            check(cu.MemcpyHtoD(value_mem[k], value_bytes[k], value_size[k]), "upload values"))
            goto done;
        if (value_binding[k] + 8 <= globals_size)
            memcpy(block + value_binding[k], &value_mem[k], 8);
    }
    /* Buffers: {device pointer, count} at the row's offset in the block. */
    CUdeviceptr out_mem[CONF_MAX_PARAMS];
    CUarray out_array[CONF_MAX_PARAMS];
    const conf_param *out_param[CONF_MAX_PARAMS];
    size_t outs = 0;
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *row = &e->params[r];
        if (row->kind == DGPB_KIND_VALUE)
            continue;
        const conf_param *p = find_param(c, row->name);
        if (row->kind == DGPB_KIND_SAMPLER)
            continue; /* folded into the texture object by Slang's CUDA code */
        if (row->kind == DGPB_KIND_TEXTURE || row->kind == DGPB_KIND_RW_TEXTURE) {
            uint64_t handle = 0;
            CUarray array = NULL;
            if (!p || row->binding + 8u > globals_size ||
                make_image(&st, p, row->kind == DGPB_KIND_RW_TEXTURE, &handle, &array)) {
                if (!failure[0])
                    snprintf(failure, sizeof failure, "texture row '%.*s' cannot be bound",
                             (int)row->name.len, row->name.ptr);
                goto done;
            }
            memcpy(block + row->binding, &handle, 8);
            if (p->expected) {
                out_mem[outs] = 0;
                out_array[outs] = array;
                out_param[outs++] = p;
            }
            continue;
        }
        size_t size = p ? p->size : 16;
        CUdeviceptr mem;
        if (alloc(&st, size, &mem))
            goto done;
        if (p && p->input && check(cu.MemcpyHtoD(mem, p->input, size), "upload"))
            goto done;
        /* Slang's CUDA buffers: a pointer, then the element count (structured, taken
           as 32-bit elements: the kernels never ask) or the size in bytes. */
        uint64_t count = row->kind == DGPB_KIND_BYTE_BUFFER || row->kind == DGPB_KIND_RW_BYTE_BUFFER
                             ? size
                             : size / 4;
        if (row->binding + (row->kind == DGPB_KIND_UNIFORM_BUFFER ? 8u : 16u) > globals_size) {
            snprintf(failure, sizeof failure,
                     "row '%.*s' at %u lies outside SLANG_globalParams (%zu bytes)",
                     (int)row->name.len, row->name.ptr, row->binding, globals_size);
            goto done;
        }
        memcpy(block + row->binding, &mem, 8);
        if (row->kind != DGPB_KIND_UNIFORM_BUFFER)
            memcpy(block + row->binding + 8, &count, 8);
        if (p && p->expected) {
            out_mem[outs] = mem;
            out_array[outs] = NULL;
            out_param[outs++] = p;
        }
    }
    if (globals_size &&
        check(cu.MemcpyHtoD(globals, block, globals_size), "upload SLANG_globalParams"))
        goto done;
    unsigned grid[3];
    for (int i = 0; i < 3; i++)
        grid[i] = (c->threads[i] + e->thread_group_size[i] - 1) / e->thread_group_size[i];
    for (uint32_t n = 0; n < (c->repeat ? c->repeat : 1); n++)
        if (check(cu.LaunchKernel(fn, grid[0], grid[1], grid[2], e->thread_group_size[0],
                                  e->thread_group_size[1], e->thread_group_size[2], 0, NULL, NULL,
                                  NULL),
                  "cuLaunchKernel"))
            goto done;
    if (check(cu.CtxSynchronize(), "cuCtxSynchronize"))
        goto done;
    ok = 1;
    for (size_t k = 0; k < outs && ok; k++) {
        uint8_t *got = malloc(out_param[k]->size);
        if (out_array[k] ? copy_2d(out_array[k], NULL, got,
                                   out_param[k]->size / out_param[k]->height, out_param[k]->height)
                         : check(cu.MemcpyDtoH(got, out_mem[k], out_param[k]->size), "download"))
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
    for (size_t k = 0; k < values; k++)
        free(value_bytes[k]);
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
    free(block);
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
