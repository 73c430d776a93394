/*
 * dgpb/run.h - runs one entry of a bundle on a device: Vulkan (the spirv
 * target) or CUDA (the ptx target, libcuda loaded at run time).
 *
 * A host knows nothing but the bundle. The caller describes a run by NAMES:
 * the entry, and for each parameter the row's dotted name with its input
 * bytes (or only a size), a texture's format and extent, a value's bytes. The
 * host resolves every name through the entry's parameter table and binds by
 * the row it finds (docs/run.md gives the rules per target), verifies the
 * code blob's SHA-256 before the driver sees it, dispatches, and hands back
 * the bytes of every buffer and texture after the run, with the GPU time of
 * each dispatch when asked. Comparing outputs is the caller's job.
 *
 *     dgpb_runner *r;
 *     dgpb_runner_desc desc = {.backend = DGPB_BACKEND_VULKAN};
 *     if (dgpb_runner_create(&desc, &r, &diag)) ...      // no device: DGPB_ERR_RUN_NO_DEVICE
 *     dgpb_run_param p[] = {{.name = "input", .input = in, .size = 16},
 *                           {.name = "output", .size = 16}};
 *     dgpb_run_request req = {.entry = "computeMain", .threads = {4, 1, 1},
 *                             .params = p, .param_count = 2};
 *     dgpb_run_result res;
 *     if (dgpb_runner_run(r, "k.dgpb", &req, &res, &diag) == DGPB_OK)
 *         ... res.outputs[1].data holds 16 bytes ...
 *     dgpb_run_result_free(&res);
 *     dgpb_runner_destroy(r);
 *
 * Errors: every function returns a dgpb_result and fills the optional
 * diagnostic. The classes say what went wrong: DGPB_ERR_IO (the bundle cannot
 * be read), DGPB_ERR_CORRUPT* (invalid bundle, or a blob's SHA-256 does not
 * match), DGPB_ERR_BACKEND (the bundle has no target for the runner's API),
 * DGPB_ERR_NOT_FOUND (unknown entry or parameter name), DGPB_ERR_INVALID (a
 * request that does not fit the table: a row given nothing, a wrong size or
 * kind, entries that form no pipeline), DGPB_ERR_UNSUPPORTED (the device lacks a
 * capability the entry needs; the message names it), DGPB_ERR_TOOL (no
 * device, no driver, or the API failed). The details below refine them.
 * Nothing here prints or exits.
 *
 * Ownership: a runner owns the bundles it loaded (cached by path) and the
 * pipelines it created (cached per bundle and entry); dgpb_runner_destroy()
 * releases them. A result owns its output bytes and timings until
 * dgpb_run_result_free(). Requests are borrowed for the call only.
 */
#ifndef DGPB_RUN_H
#define DGPB_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/reader.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Result details of running (their class is the result.h class they extend). */
typedef enum dgpb_run_error {
    DGPB_ERR_RUN_NO_DEVICE = DGPB_ERR_TOOL | (0x10 << 8), /* no device, loader or driver library */
    DGPB_ERR_RUN_DRIVER = DGPB_ERR_TOOL | (0x11 << 8),    /* a call of the API failed */
    DGPB_ERR_RUN_CAPABILITY = DGPB_ERR_UNSUPPORTED | (0x10 << 8), /* the device lacks one */
    DGPB_ERR_RUN_PARAM = DGPB_ERR_NOT_FOUND | (0x10 << 8),        /* the entry has no such row */
    DGPB_ERR_RUN_MISSING = DGPB_ERR_INVALID | (0x10 << 8), /* a row the request gives nothing */
    DGPB_ERR_RUN_SIZE = DGPB_ERR_INVALID | (0x11 << 8),    /* bytes that do not fit the row */
    DGPB_ERR_RUN_KIND = DGPB_ERR_INVALID | (0x12 << 8),    /* a parameter of another kind */
    DGPB_ERR_RUN_STAGE = DGPB_ERR_INVALID | (0x13 << 8),   /* entries that form no pipeline */
} dgpb_run_error;

/* A static description of a result code, run details included ("no device"). Never NULL. */
const char *dgpb_run_result_str(int r);

/* Texel formats of textures (WebGPU's spelling: dgpb_run_format_name). */
typedef enum dgpb_run_format {
    DGPB_RUN_FORMAT_NONE = 0,
    DGPB_RUN_FORMAT_R16FLOAT,
    DGPB_RUN_FORMAT_R32FLOAT,
    DGPB_RUN_FORMAT_RG32FLOAT,
    DGPB_RUN_FORMAT_RGBA32FLOAT,
    DGPB_RUN_FORMAT_R32UINT,
    DGPB_RUN_FORMAT_RGBA8UNORM,
    DGPB_RUN_FORMAT_RGBA16FLOAT,
    DGPB_RUN_FORMAT_R32SINT,
    DGPB_RUN_FORMAT_RGBA32UINT,
    DGPB_RUN_FORMAT_RGBA32SINT,
    DGPB_RUN_FORMAT_DEPTH32FLOAT, /* depth textures (sample type depth): sampled, compared */
    DGPB_RUN_FORMAT_DEPTH16UNORM,
    DGPB_RUN_FORMAT_COUNT
} dgpb_run_format;

/* Texture dimensions. Texels are stored x fastest, then y, then z (slice, layer or face). */
typedef enum dgpb_run_dim {
    DGPB_RUN_DIM_2D = 0,     /* width x height */
    DGPB_RUN_DIM_1D,         /* width texels; height 1 */
    DGPB_RUN_DIM_3D,         /* width x height x depth */
    DGPB_RUN_DIM_CUBE,       /* 6 square faces in the order +X, -X, +Y, -Y, +Z, -Z */
    DGPB_RUN_DIM_2D_ARRAY,   /* depth layers of width x height */
    DGPB_RUN_DIM_CUBE_ARRAY, /* depth = 6 x cubes square faces, cube by cube, each in CUBE's order */
    DGPB_RUN_DIM_2D_MS,      /* a multisampled 2D texture of depth samples (2, 4, 8, ...): the
                                width x height image of sample 0, then of sample 1, ... */
    DGPB_RUN_DIM_COUNT
} dgpb_run_dim;

/* "r32float", ...; NULL for NONE or out of range. */
const char *dgpb_run_format_name(uint32_t format);
/* The format of a name, or -1. */
int dgpb_run_format_from_name(const char *name);
/* Bytes per texel, 0 for NONE or out of range. */
uint32_t dgpb_run_format_texel_size(uint32_t format);
/* The sample type a shader reads from the format (dgpb_sample_type: float, sint, uint, or depth
   for the depth formats); 0 for NONE or out of range. */
uint32_t dgpb_run_format_sample_type(uint32_t format);
/* "2d", "1d", "3d", "cube", "2d_array", "cube_array", "2d_ms"; NULL out of range. */
const char *dgpb_run_dim_name(uint32_t dim);
/* The dimension of a name, or -1. */
int dgpb_run_dim_from_name(const char *name);

/*
 * Vertex attribute formats (dgpb_run_vertex_input): 32-bit scalars and vectors,
 * named as Slang names the type ("float3", "int", "uint4"), tightly packed.
 */
typedef enum dgpb_run_vertex_format {
    DGPB_RUN_VERTEX_NONE = 0,
    DGPB_RUN_VERTEX_FLOAT,
    DGPB_RUN_VERTEX_FLOAT2,
    DGPB_RUN_VERTEX_FLOAT3,
    DGPB_RUN_VERTEX_FLOAT4,
    DGPB_RUN_VERTEX_INT,
    DGPB_RUN_VERTEX_INT2,
    DGPB_RUN_VERTEX_INT3,
    DGPB_RUN_VERTEX_INT4,
    DGPB_RUN_VERTEX_UINT,
    DGPB_RUN_VERTEX_UINT2,
    DGPB_RUN_VERTEX_UINT3,
    DGPB_RUN_VERTEX_UINT4,
    DGPB_RUN_VERTEX_COUNT
} dgpb_run_vertex_format;

/* "float3", ...; NULL for NONE or out of range. */
const char *dgpb_run_vertex_format_name(uint32_t format);
/* The format of a name, or -1. */
int dgpb_run_vertex_format_from_name(const char *name);
/* Bytes per vertex (4 per component); 0 for NONE or out of range. */
uint32_t dgpb_run_vertex_format_size(uint32_t format);
/* Components per vertex, 1 to 4; 0 for NONE or out of range. */
uint32_t dgpb_run_vertex_format_components(uint32_t format);
/* The scalar as a dgpb_sample_type (float, sint, uint); 0 for NONE or out of range. */
uint32_t dgpb_run_vertex_format_sample_type(uint32_t format);

/* The depth test of a draw's depth attachment (dgpb_run_request.depth_compare): a fragment
   passes where its depth compares so with the stored one. Zero is LESS. */
typedef enum dgpb_run_compare {
    DGPB_RUN_COMPARE_LESS = 0,
    DGPB_RUN_COMPARE_NEVER,
    DGPB_RUN_COMPARE_EQUAL,
    DGPB_RUN_COMPARE_LESS_OR_EQUAL,
    DGPB_RUN_COMPARE_GREATER,
    DGPB_RUN_COMPARE_NOT_EQUAL,
    DGPB_RUN_COMPARE_GREATER_OR_EQUAL,
    DGPB_RUN_COMPARE_ALWAYS,
    DGPB_RUN_COMPARE_COUNT
} dgpb_run_compare;

/* "less", "never", "equal", "less_or_equal", "greater", "not_equal", "greater_or_equal",
   "always"; NULL out of range. */
const char *dgpb_run_compare_name(uint32_t compare);
/* The compare op of a name, or -1. */
int dgpb_run_compare_from_name(const char *name);

/* dgpb_run_param.kind: take the row's kind as it is; any resource (not a value). */
#define DGPB_RUN_KIND_ANY 0xFFFFFFFFu
#define DGPB_RUN_KIND_RESOURCE 0xFFFFFFFEu
/* Not rows: a colour attachment a render request draws into (Vulkan; colour attachment i is
   the i-th such parameter of the request, written by the fragment entry's SV_Target<i>), and
   its depth attachment. */
#define DGPB_RUN_KIND_COLOR_ATTACHMENT 0x100u
#define DGPB_RUN_KIND_DEPTH_ATTACHMENT 0x101u
#define DGPB_RUN_MAX_COLOR_ATTACHMENTS 8

/*
 * One parameter of a request, by name. Zero means "default" everywhere.
 *
 * Buffers: `size` bytes (at least 4 are allocated), `input` the first
 * `input_size` bytes (0: `size`), the rest zero; NULL input: all zero.
 * Values: `input` holds exactly the row's size, or, with `matrix_rows` R, a
 * matrix of R rows tightly packed that the host spreads over the row: row r at
 * r * (row size / R) (a float2x2 is 32 bytes in a std140 block, 16 in push
 * constants and on ptx). The code's matrix layout is not read here: those
 * are a row-major matrix's stored rows; a column-major matrix stores its
 * columns, so give its columns as the "rows", or go through
 * dgpb_run_value_bytes(), which follows the code's layout.
 * Textures and attachments: `format`, `width`,
 * `height` (1 for 1D), `dim`, `depth` (3D depth, layers, 6 for a cube, 6 per
 * cube of a cube array, samples of a 2d_ms texture; 0 is 1), `size` exactly
 * width * height * depth * texel size. A colour attachment is a 2D texture of
 * a colour format, a depth attachment one of a depth format, all of a draw's
 * attachments of one extent; each starts as its `input` (NULL: a colour
 * attachment cleared to zero, the depth attachment to the request's
 * `depth_clear`). Texel buffers: as buffers, whole texels of the row's format
 * (docs/run.md).
 * Samplers need no parameter: every sampler row gets a point-filtering,
 * clamp-to-edge sampler (named ones too), which compares (less or equal)
 * where the row's shape says so. Neither do input attachments: a render's
 * fragment entry reads its colour attachment i as input attachment i (dynamic
 * rendering local read).
 */
typedef struct dgpb_run_param {
    const char *name; /* the row's dotted name (found in the entries in pipeline order) */
    uint32_t kind;    /* the dgpb_kind the row must have, DGPB_RUN_KIND_ANY or _RESOURCE */
    uint32_t format;  /* textures: dgpb_run_format */
    uint32_t width, height, depth;
    uint32_t dim;         /* textures: dgpb_run_dim */
    uint32_t matrix_rows; /* values: 0, or the rows of a matrix */
    size_t size;
    const uint8_t *input;
    size_t input_size; /* buffers: bytes of `input` (0: `size`) */
} dgpb_run_param;

#define DGPB_RUN_MAX_PARAMS 32

/*
 * One vertex buffer of a draw: the vertices of one attribute the vertex entry
 * reads, `size` bytes of `format`, tightly packed (a whole number of vertices).
 * `name` is the attribute as the entry's code names it (SPIR-V: the name of
 * its Input variable, "input.position" for a field `position` of a parameter
 * `input`, "pos" for a parameter `pos`), or the part of that name after its
 * last '.' where one attribute alone ends so ("position").
 * dgpb_run_vertex_attributes() lists them. Its location is the code's, and
 * `format` must be the code's type.
 */
typedef struct dgpb_run_vertex_input {
    const char *name;
    uint32_t format; /* dgpb_run_vertex_format */
    const uint8_t *data;
    size_t size;
} dgpb_run_vertex_input;

#define DGPB_RUN_MAX_VERTEX_INPUTS 16

/*
 * A run. A compute request names `entry`. A render request (Vulkan) names a
 * `fragment` entry and draws into its parameters of kind
 * DGPB_RUN_KIND_COLOR_ATTACHMENT (colour attachment i the i-th, cleared to
 * zero first; SV_Target<i> of the fragment entry writes it, and one no target
 * writes keeps its texels) and DGPB_RUN_KIND_DEPTH_ATTACHMENT (at most one:
 * cleared to `depth_clear`, tested with `depth_compare` and written); a draw
 * has at least one of them:
 *
 *   - a vertex pipeline: the vertex `entry`, optionally `hull` and `domain`
 *     (tessellation: the topology is a patch list of as many control points
 *     as the hull entry's input patch holds) and optionally `geometry` (the
 *     topology its input primitive names); otherwise a triangle list. The
 *     attributes its vertex entry reads come from `vertex_inputs`, one each
 *     (its own binding). It draws `vertices` vertices, or with vertex inputs
 *     as many as they hold (`vertices`, where given, must agree); 0: the
 *     pipeline is only created; `groups` and `threads` are not used;
 *   - a mesh pipeline: the mesh `entry` and optionally `amplification`,
 *     drawing `groups` (or `threads`) of the first of them, as a compute
 *     entry dispatches (vkCmdDrawMeshTasksEXT).
 *
 * Each named entry must have its place's stage (DGPB_ERR_RUN_STAGE
 * otherwise). Groups: `groups` when any is non-zero, else ceil(threads /
 * thread_group_size) per axis (0 counts as 1).
 */
typedef struct dgpb_run_request {
    const char *entry; /* compute; or the vertex or mesh entry of a render request */
    const char *fragment;
    const char *hull, *domain; /* tessellation (both or neither) */
    const char *geometry;      /* a geometry shader */
    const char *amplification; /* the task shader of a mesh pipeline */
    uint32_t groups[3];
    uint32_t threads[3];
    uint32_t vertices;
    uint32_t repeat; /* dispatches over the same resources, a barrier between; 0 is 1 */
    bool time;       /* measure each dispatch on the GPU (timestamps; CUDA: events) */
    uint32_t param_count;
    const dgpb_run_param *params;
    uint32_t vertex_input_count; /* a vertex pipeline's vertex buffers, at most
                                    DGPB_RUN_MAX_VERTEX_INPUTS */
    const dgpb_run_vertex_input *vertex_inputs;
    uint32_t depth_compare; /* the depth attachment's test: dgpb_run_compare (0: less) */
    float depth_clear;      /* the depth it starts at where it has no input (0 to 1; a
                               zeroed request clears to 0: give 1 for `less`) */
} dgpb_run_request;

/* What a request parameter became, after the run. */
typedef struct dgpb_run_output {
    uint32_t kind;  /* the row's dgpb_kind (or DGPB_RUN_KIND_COLOR_ATTACHMENT, _DEPTH_) */
    uint32_t flags; /* the row's flags */
    uint8_t *data;  /* buffers and textures: `size` bytes read back; values, samplers: NULL */
    size_t size;
} dgpb_run_output;

typedef struct dgpb_run_result {
    dgpb_run_output outputs[DGPB_RUN_MAX_PARAMS]; /* one per request parameter, in order */
    uint32_t output_count;
    uint32_t groups[3];            /* the groups dispatched (mesh pipelines: drawn) */
    uint32_t thread_group_size[3]; /* the entry's */
    uint32_t dispatches;
    double *times_ms; /* with `time`: GPU milliseconds of each dispatch */
    uint32_t time_count;
    bool ran;          /* false when only a pipeline was created */
    uint32_t vertices; /* the vertices a vertex pipeline drew */
} dgpb_run_result;

/* Releases what a run stored in `res` and zeroes it. NULL is a no-op. */
void dgpb_run_result_free(dgpb_run_result *res);

/* Capabilities, by bit (1 << dgpb_capability), that a runner treats as absent. */
typedef struct dgpb_runner_desc {
    uint32_t backend;           /* DGPB_BACKEND_VULKAN or DGPB_BACKEND_CUDA */
    const char *device;         /* Vulkan: a name substring; CUDA: an index or a name substring */
    uint64_t mask_capabilities; /* for tests: capabilities to refuse as if the device lacked them
                                   (bit UINT64_C(1) << dgpb_capability) */
} dgpb_runner_desc;

typedef struct dgpb_runner dgpb_runner;

/*
 * Creates the instance (or context) and picks the device. Vulkan: the first
 * Vulkan 1.2 device with a compute queue (one with graphics too preferred)
 * whose name contains `device`. CUDA: libcuda.so.1 loaded with dlopen.
 * DGPB_ERR_RUN_NO_DEVICE when there is none (the message names the package
 * to install), DGPB_ERR_UNSUPPORTED for another backend.
 */
int dgpb_runner_create(const dgpb_runner_desc *desc, dgpb_runner **out, dgpb_diag *diag);

/* Releases everything, bundles and pipelines included. NULL is a no-op. */
void dgpb_runner_destroy(dgpb_runner *r);

/* The device's name; the driver ("name info (version ...)"). */
const char *dgpb_runner_device_name(const dgpb_runner *r);
const char *dgpb_runner_driver(const dgpb_runner *r);

/* Pipelines (CUDA: modules) created so far and kept. */
uint32_t dgpb_runner_pipeline_count(const dgpb_runner *r);

/*
 * Runs `req` with the bundle at `bundle_path` (loaded once and kept) and fills
 * *res (zeroed first; free it with dgpb_run_result_free() whatever the
 * result). The request is checked against the entry's table before anything
 * is created (dgpb_run_check).
 */
int dgpb_runner_run(dgpb_runner *r, const char *bundle_path, const dgpb_run_request *req,
                    dgpb_run_result *res, dgpb_diag *diag);

/*
 * Checks a request against the entries of a target without a device: the
 * entries exist and have the right stages (compute, or the stages of a
 * render pipeline: dgpb_run_request), the draw fits the pipeline (vertices
 * for a vertex pipeline, a whole number of patches with tessellation; no
 * vertices for compute and mesh; a vertex buffer of the code's type for every
 * attribute the vertex entry reads, each of the same whole number of
 * vertices; colour attachments for every target the fragment entry writes,
 * of its sample type, and attachments of one extent), every named parameter
 * is a row of the right kind, values fit their rows, textures are described
 * and of their rows' shapes, every row but samplers is given something (but
 * for a render request of 0 vertices, which only creates the pipeline).
 * What the runner cannot feed (an attribute of a type it has no vertex format
 * of) is DGPB_ERR_UNSUPPORTED.
 * `rows` (optional, req->param_count elements) receives each parameter's row.
 */
int dgpb_run_check(const dgpb_target_view *t, const dgpb_run_request *req,
                   const dgpb_param_view **rows, dgpb_diag *diag);

/* One attribute a vertex entry reads (dgpb_run_vertex_attributes). */
typedef struct dgpb_run_vertex_attribute {
    char name[128];    /* as the code names it: "input.position" */
    uint32_t location; /* its location in the code */
    uint32_t format;   /* the code's type as a vertex format; DGPB_RUN_VERTEX_NONE for a type the
                          runner has none of (a matrix, an array, 16 or 64 bits) */
    char type[32];     /* the code's type: "float3", "half2", "float4x4", "int[2]" */
} dgpb_run_vertex_attribute;

/*
 * The attributes vertex entry `entry` of target `t` reads, from its code
 * (SPIR-V: the Input variables of its interface that are no built-ins;
 * SV_VertexID and the like are), in order of location, in *attrs (malloc'd,
 * dgpb_free; NULL when none) and *count; none for a target whose code is not
 * SPIR-V. DGPB_ERR_NOT_FOUND (no such entry), DGPB_ERR_RUN_STAGE (not a
 * vertex entry), DGPB_ERR_CORRUPT (a blob whose SHA-256 does not match, code
 * that cannot be read).
 */
int dgpb_run_vertex_attributes(const dgpb_target_view *t, const char *entry,
                               dgpb_run_vertex_attribute **attrs, uint32_t *count,
                               dgpb_diag *diag);

/*
 * Reads and opens the bundle at `path` (structure checked; every blob's
 * SHA-256 is checked later, before its code is used) and finds the target of
 * `backend`. On success *bytes and *bundle belong to the caller (dgpb_free,
 * dgpb_bundle_close). DGPB_ERR_IO, DGPB_ERR_CORRUPT*, DGPB_ERR_BACKEND.
 */
int dgpb_run_load_bundle(const char *path, uint32_t backend, uint8_t **bytes, dgpb_bundle **bundle,
                         const dgpb_target_view **target, dgpb_diag *diag);

/*
 * Places value `p` into a row of `row_size` bytes at dst (NULL dst only
 * checks): exactly row_size bytes, or a matrix by rows (see dgpb_run_param).
 * 0, or -1 when it does not fit.
 */
int dgpb_run_value_place(const dgpb_run_param *p, uint32_t row_size, uint8_t *dst);

/*
 * The type of value row `name` of entry `entry` of target `t`, read from the
 * shipped code (docs/run.md, "Values"): its scalar, its layout in the row,
 * and its text ("f32", "u32x2", "i32x2[3]", "f32 3x4 column_major"). When
 * that code does not state it (PTX values in SLANG_globalParams or .b8
 * parameters), the same row of the same entry on another target of bundle
 * `b` (may be NULL) lends its scalar type (a matrix's shape and layout too,
 * packed tightly where they fill the row) and `lent_by` names that target;
 * still unknown: scalar 0.
 * DGPB_ERR_NOT_FOUND (no such entry), DGPB_ERR_RUN_PARAM (no such row),
 * DGPB_ERR_RUN_KIND (not a value row), DGPB_ERR_CORRUPT (a blob whose
 * SHA-256 does not match, code that cannot be read).
 */
typedef struct dgpb_run_value_info {
    const dgpb_param_view *row;
    uint32_t scalar;        /* 0 unknown, 1 bool, 2 int, 3 uint, 4 float */
    uint32_t bits;          /* of one scalar */
    uint32_t vectors;       /* a matrix's stored vectors (its rows, or columns when
                               column_major); 1 otherwise */
    uint32_t components;    /* scalars per vector (1 for a scalar) */
    uint32_t vector_stride; /* bytes between a matrix's vectors */
    bool column_major;      /* a matrix stored column by column: its numbers, given row by row,
                               go in transposed (docs/run.md, "Values") */
    uint32_t array_count;   /* elements of an array value; 0 when not an array */
    uint32_t array_stride;
    bool aggregate;   /* a struct (or an array of structs): its numbers are its fields'
                       (dgpb_run_value_fields) */
    char text[96];    /* "f32", "u32x2", "struct Rect", "struct Light[2]" */
    char lent_by[16]; /* the target whose code gave the type; "" for `t` itself */
} dgpb_run_value_info;

int dgpb_run_value_type(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                        const char *name, dgpb_run_value_info *info, dgpb_diag *diag);

/*
 * Whether values of `value_type` (dgpb/run_values.h) agree with the element
 * type the shipped code states for buffer row `name` of entry `entry` of
 * target `t` (a structured buffer of a scalar or vector: SPIR-V's runtime
 * array; docs/run.md, "Types"): the same scalar and width (a bool element
 * takes u32 or i32; hex is u32). DGPB_OK when they agree, when the code
 * states no element type (byte buffers, structs, ptx, wgsl), or when the row
 * is no buffer; DGPB_ERR_INVALID naming both types when they disagree;
 * DGPB_ERR_NOT_FOUND, DGPB_ERR_RUN_PARAM, DGPB_ERR_CORRUPT as
 * dgpb_run_value_type.
 */
int dgpb_run_check_element_type(const dgpb_target_view *t, const char *entry, const char *name,
                                uint32_t value_type, dgpb_diag *diag);

/*
 * The bytes (*size = the row's size; *bytes malloc'd, dgpb_free) of value row
 * `name` from `text`, "[TYPE:]V1,V2,...": typed by dgpb_run_value_type,
 * never by how a number is spelled ("2" for a float is 2.0). TYPE (f32 f16
 * f64 u32 i32 u64 i64 u16 i16 u8 i8) may be given and must agree with the
 * code's type; where no code states the type it is required. With the code's
 * type the numbers go where the code keeps them (array strides, a matrix's
 * vectors) and there must be one per scalar; otherwise they are packed and
 * must fill the row. Besides dgpb_run_value_type's: DGPB_ERR_INVALID (no or
 * a contradicting TYPE, a number that does not parse or fit), DGPB_ERR_RUN_SIZE
 * (the wrong count of numbers).
 */
int dgpb_run_value_bytes(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                         const char *name, const char *text, uint8_t **bytes, size_t *size,
                         dgpb_diag *diag);

/*
 * Struct values (docs/run.md, "Values"): a value row that holds a struct, or
 * an array of structs, is given field by field, `NAME.FIELD`, `NAME[I]`,
 * `NAME[I].FIELD.FIELD`..., or whole: its fields' numbers in the order the
 * code declares them, each field its own type's numbers (a struct's fields
 * in turn, an array's elements one after the other). The fields are read
 * from the shipped code (code/value_fields.h): SPIR-V's member names and
 * offsets, WGSL's struct declarations; ptx states none, and takes the same
 * row's fields from another target of the bundle laid out by CUDA's rules,
 * where they fill its row exactly.
 *
 * dgpb_run_value_row: the value row `name` names, itself or a field of it:
 * the value row whose name is the longest that `name` starts with, followed
 * by '.', '[' or nothing, in *row; *path what follows (into `name`; "" for
 * the row itself). DGPB_ERR_NOT_FOUND (no such entry), DGPB_ERR_RUN_PARAM
 * (no such row), DGPB_ERR_RUN_KIND (a row of another kind).
 */
int dgpb_run_value_row(const dgpb_target_view *t, const char *entry, const char *name,
                       const dgpb_param_view **row, const char **path, dgpb_diag *diag);

/*
 * Writes value `name` (a row, or a field of one: dgpb_run_value_row) from
 * `text` into `bytes`, the bytes of its row (`size` its size; the caller
 * zero-fills it, and the bytes of fields never written stay as they are), as
 * dgpb_run_value_bytes types and places them; *at and *len (may be NULL) are
 * the bytes of the row it wrote, so that a caller can refuse a value given
 * twice. Besides dgpb_run_value_bytes's failures: DGPB_ERR_RUN_PARAM naming
 * the path when it leads nowhere in the struct the code declares (or the row
 * holds none).
 */
int dgpb_run_value_write(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                         const char *name, const char *text, uint8_t *bytes, size_t size,
                         uint32_t *at, uint32_t *len, dgpb_diag *diag);

/* One field of a struct value (dgpb_run_value_fields). */
typedef struct dgpb_run_value_field {
    char path[256];  /* after the row's name, as --set names it: ".x", ".inner.uv",
                        ".lights[i].color" (`[i]`: each element alike) */
    char text[96];   /* its type: "i32", "f32x3", "f32 3x4", "struct Inner", "struct Inner[2]" */
    uint32_t offset; /* bytes from the row's start (in an array of structs: the first's) */
    uint32_t size;
    bool numbers; /* given as numbers (a scalar, vector, matrix or an array of them); false: a
                     struct or an array of structs, given by its fields */
} dgpb_run_value_field;

/*
 * The fields of value row `name` of entry `entry` of target `t` (or lent by
 * another target of `b`, which may be NULL: info->lent_by of
 * dgpb_run_value_type names it): every field, nested structs' fields after
 * them, in *fields (malloc'd, dgpb_free) and *count; none (NULL, 0) when the
 * row holds no struct the code states. Failures as dgpb_run_value_type's.
 */
int dgpb_run_value_fields(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                          const char *name, dgpb_run_value_field **fields, uint32_t *count,
                          dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
