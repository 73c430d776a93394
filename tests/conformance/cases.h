/*
 * tests/conformance/cases.h - the conformance cases, as data.
 *
 * A case names a bundle (by stem), an entry (or a vertex and fragment pair),
 * how many invocations to launch and how often, and for each parameter BY
 * NAME either its input (buffer bytes, texture texels, value bytes) or its
 * expected contents after the run, computed by the C reference in cases.c.
 * Nothing here knows a binding number, an offset or a descriptor type: a
 * host resolves every name through the bundle's parameter table and binds
 * by the row it finds. The same cases drive the runner library (src/run/, through case_run.c) and,
 * through the exporter (export.c, docs/conformance.md), hosts in other
 * languages.
 *
 * Ownership: conf_suite_build() allocates every case and every byte array;
 * conf_suite_free() releases them all.
 */
#ifndef DGPB_CONFORMANCE_CASES_H
#define DGPB_CONFORMANCE_CASES_H

#include <stddef.h>
#include <stdint.h>

#define CONF_MAX_PARAMS 16
#define CONF_NAME_MAX 48

/* Texel formats of textures and attachments (WebGPU's spelling in exports). */
typedef enum conf_format {
    CONF_FORMAT_NONE = 0,
    CONF_FORMAT_R16FLOAT,    /* half floats, sampled textures */
    CONF_FORMAT_R32FLOAT,    /* storage: RWTexture2D<float> */
    CONF_FORMAT_RG32FLOAT,   /* storage: RWTexture2D<float2> */
    CONF_FORMAT_RGBA32FLOAT, /* storage: RWTexture2D<float4>; colour attachments */
    CONF_FORMAT_R32UINT,     /* storage: RWTexture2D<uint> */
    CONF_FORMAT_COUNT
} conf_format;

/* Dimensions of textures (conf_param.dim); texels are stored x fastest, then y, then z/layer/face.
 */
typedef enum conf_dim {
    CONF_DIM_2D = 0,   /* width x height */
    CONF_DIM_1D,       /* width texels; height 1 */
    CONF_DIM_3D,       /* width x height x depth */
    CONF_DIM_CUBE,     /* 6 faces of width x height (square) in the order +X, -X, +Y, -Y, +Z, -Z */
    CONF_DIM_2D_ARRAY, /* depth layers of width x height */
    CONF_DIM_COUNT
} conf_dim;

/* Not a parameter row: the colour attachment a render case draws into. */
#define CONF_KIND_COLOR_ATTACHMENT 0x100u

typedef enum conf_case_type {
    CONF_COMPUTE = 0, /* dispatch `entry` */
    CONF_RENDER = 1,  /* a graphics pipeline of `entry` (vertex) and `fragment` */
} conf_case_type;

typedef struct conf_param {
    const char *name; /* the row's name (vertex entry first, then fragment, in render cases) */
    uint32_t kind;    /* the dgpb_kind the row must have, or CONF_KIND_COLOR_ATTACHMENT */
    uint32_t format;  /* textures and attachments: conf_format */
    uint32_t width;   /* textures and attachments, in texels */
    uint32_t height;
    uint32_t dim;   /* textures: conf_dim (0: 2D) */
    uint32_t depth; /* textures: 3D depth, array layers, 6 for a cube; 1 otherwise */
    uint32_t
        matrix_rows; /* values: 0, or the rows of a matrix (see dgpb_run_value_place in dgpb/run.h) */
    size_t size;     /* bytes of input/expected: value bytes, buffer bytes, texels row by row */
    uint8_t *input; /* `size` bytes uploaded before the run; NULL: zero-filled (samplers: none) */
    uint8_t *expected; /* `size` bytes the parameter must hold after the run; NULL: not checked */
} conf_param;

typedef struct conf_case {
    char name[CONF_NAME_MAX];
    uint32_t type;        /* conf_case_type */
    const char *module;   /* bundle stem: <module>.dgpb */
    const char *entry;    /* compute entry, or the vertex entry of a render case */
    const char *fragment; /* render cases: the fragment entry */
    uint32_t threads[3];  /* compute: invocations per axis; groups = ceil(threads / group size) */
    uint32_t vertices;    /* render: vertices drawn; 0: the pipeline is only created */
    uint32_t repeat;      /* compute: dispatches over the same resources, at least 1 */
    uint64_t elements;    /* the case's element count, for reports */
    uint32_t param_count;
    conf_param params[CONF_MAX_PARAMS];
} conf_case;

typedef struct conf_suite {
    conf_case *cases;
    size_t count;
} conf_suite;

/* Builds every case with its inputs and expected outputs. 0, or -1 when out of memory. */
int conf_suite_build(conf_suite *suite);

/* Releases everything conf_suite_build() allocated. Safe on a zeroed suite. */
void conf_suite_free(conf_suite *suite);

/* "r32float", ...; NULL for CONF_FORMAT_NONE or out of range. */
const char *conf_format_name(uint32_t format);

/* Bytes per texel, 0 for CONF_FORMAT_NONE. */
uint32_t conf_format_texel_size(uint32_t format);

/* "2d", "1d", "3d", "cube", "2d_array"; NULL out of range. */
const char *conf_dim_name(uint32_t dim);

/* The deterministic generator every large input comes from (docs/conformance.md). */
uint32_t conf_lcg_next(uint32_t *state);

#endif
