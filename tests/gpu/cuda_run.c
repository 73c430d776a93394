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
 * The kernel takes no arguments. Cases with textures or render pipelines are
 * reported as not applicable: this host binds buffers and values only.
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
} run_state;

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
    for (uint32_t i = 0; i < c->param_count; i++)
        if (c->params[i].kind == DGPB_KIND_TEXTURE || c->params[i].kind == DGPB_KIND_RW_TEXTURE ||
            c->params[i].kind == DGPB_KIND_SAMPLER)
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
    run_state st = {{0}, 0};
    int ok = 0;
    uint8_t *block = NULL;
    if (check(cu.ModuleLoadData(&mod, ptx), "cuModuleLoadData (PTX JIT)") ||
        check(cu.ModuleGetFunction(&fn, mod, name), "cuModuleGetFunction"))
        goto done;
    if (cu.ModuleGetGlobal(&globals, &globals_size, mod, "SLANG_globalParams") != 0)
        globals_size = 0; /* an entry without parameters has no block */
    block = calloc(1, globals_size + 16);
    /* Value blocks: one device allocation per distinct binding (the block pointer's offset). */
    uint32_t value_binding[8];
    CUdeviceptr value_mem[8];
    uint8_t *value_bytes[8];
    size_t value_size[8], values = 0;
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *row = &e->params[r];
        if (row->kind != DGPB_KIND_VALUE)
            continue;
        size_t k = 0;
        while (k < values && value_binding[k] != row->binding)
            k++;
        size_t end = (size_t)row->offset + row->size;
        if (k == values) {
            value_binding[values] = row->binding;
            value_size[values] = 0;
            value_bytes[values] = calloc(1, 4096);
            values++;
        }
        if (end > value_size[k])
            value_size[k] = end;
        const conf_param *p = find_param(c, row->name);
        if (p && p->input && end <= 4096)
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
    const conf_param *out_param[CONF_MAX_PARAMS];
    size_t outs = 0;
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *row = &e->params[r];
        if (row->kind == DGPB_KIND_VALUE)
            continue;
        const conf_param *p = find_param(c, row->name);
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
        if (check(cu.MemcpyDtoH(got, out_mem[k], out_param[k]->size), "download"))
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
    for (size_t k = 0; k < values; k++)
        free(value_bytes[k]);
done:
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
            printf("%s: not applicable (no ptx entry, or textures/render)\n", c->name);
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
