/*
 * ptx_ops.c - PTX's table of the code-format seam (code/code_format.h):
 * resources as handles in parameter memory, kernel parameters in the launch
 * space, features read from `.target`, value types from kernel parameters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code/code_format.h"
#include "code/ptx/ptx_ops.h"
#include "code/ptx/ptx_scan.h"

/* A DGPB_CODE_FEATURE(PTX, ...) row is a `.target` word. */
static bool feature_is(const dgpb_code_feature *f, uint32_t number, const char *name)
{
    (void)number;
    return !strcmp(f->name, name);
}

static void feature_describe(const dgpb_code_feature *f, const char *name, char *out, size_t size)
{
    (void)name;
    snprintf(out, size, "PTX `.target %s`", f->name);
}

/*
 * The kernel parameter at the row's offset (space DGPB_SPACE_LAUNCH) when PTX
 * gives it a float type: nvcc declares `int` and `uint` parameters alike as
 * .u32.
 */
static int type_find(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                     dgpb_code_type *t, dgpb_diag *diag)
{
    if (row->space != DGPB_SPACE_LAUNCH)
        return DGPB_OK; /* SLANG_globalParams and blocks: bytes in PTX */
    dgpb_ptx_module *m = NULL;
    int rc = ptx_module_scan((const char *)code, len, &m, diag);
    if (rc)
        return rc;
    const dgpb_ptx_entry *e = ptx_kernel(m, entry);
    for (size_t i = 0; e && i < e->param_count; i++) {
        const dgpb_ptx_param *p = &e->params[i];
        /* .b8 arrays and .bN are bytes; and nvcc declares an `int` parameter .u32 as it
           does a `uint`, so an integer's signedness is not in PTX: only .fN states a type. */
        if (p->offset != row->offset || !p->type[0] || p->type[1] != 'f')
            continue;
        t->scalar = DGPB_SCALAR_FLOAT;
        t->bits = (uint32_t)atoi(p->type + 2);
        if (!t->bits)
            t->scalar = DGPB_SCALAR_UNKNOWN;
        else
            t->columns = p->vector ? p->vector : 1, t->rows = 1;
        break;
    }
    ptx_module_free(m);
    return DGPB_OK;
}
static int block_size_find(const uint8_t *code, size_t len, const char *entry, const code_row *row,
                           uint32_t *out, dgpb_diag *diag)
{
    (void)code, (void)len, (void)entry, (void)row, (void)out, (void)diag;
    return DGPB_OK; /* PTX's blocks are bytes */
}

static int storage_format_find(const uint8_t *code, size_t len, const char *entry,
                               const code_row *row, const char **out, dgpb_diag *diag)
{
    (void)code, (void)len, (void)entry, (void)row, (void)out, (void)diag;
    return DGPB_OK;
}

/* The kernels' parameters, scanned from the text (the proof's handles in memory). */
static int read_bindings(const uint8_t *code, size_t size, const dgpb_spirv_info *spirv,
                         code_read *out, dgpb_diag *d)
{
    (void)spirv;
    return ptx_module_scan((const char *)code, size, &out->ptx, d);
}

const code_ops code_ptx_ops = {
    .entry_values_launch = true,
    .memory_handles = true,
    .proved = true,
    .place_format = "offset %lld, %lld",
    .read_bindings = read_bindings,
    .type_rank = 2,
    .reads_features = true,
    .features_read = ptx_features_read,
    .feature_is = feature_is,
    .feature_describe = feature_describe,
    .type_find = type_find,
    .block_size_find = block_size_find,
    .storage_format_find = storage_format_find,
    .fields_lend = ptx_fields_lend,
};
