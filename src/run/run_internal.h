/*
 * src/run/run_internal.h - what the runner (run.c) and its hosts (vulkan.c,
 * cuda.c) share: the operations each host hands the runner, and what a
 * request means (request.c), which both use. The runner calls down into the
 * hosts through their operations; the hosts call only request.c.
 */
#ifndef DGPB_RUN_INTERNAL_H
#define DGPB_RUN_INTERNAL_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define run_vulkan_create dgpb__run_vulkan_create
#define run_cuda_create dgpb__run_cuda_create
#define run_fail dgpb__run_fail
#define run_param_bytes dgpb__run_param_bytes
#define run_param_index dgpb__run_param_index
#define run_block_of_field dgpb__run_block_of_field
#define run_groups dgpb__run_groups
#define run_texel_buffer_format dgpb__run_texel_buffer_format
#define run_check_capabilities dgpb__run_check_capabilities
#define run_check_storage_format dgpb__run_check_storage_format
#define run_check_block dgpb__run_check_block
#define run_block_covered dgpb__run_block_covered
#define run_parse_number dgpb__run_parse_number
#define run_number_range dgpb__run_number_range
#define run_check_texture dgpb__run_check_texture
#define run_vertex_attributes dgpb__run_vertex_attributes
#define run_vertex_attribute_find dgpb__run_vertex_attribute_find
#define run_draw_vertices dgpb__run_draw_vertices
#define run_check_vertex_inputs dgpb__run_check_vertex_inputs
#define run_color_attachments dgpb__run_color_attachments
#define run_depth_attachment dgpb__run_depth_attachment
#define run_fragment_targets dgpb__run_fragment_targets
#define run_check_attachments dgpb__run_check_attachments

#include "dgpb/run.h"

/*
 * The entries of a request by their place in its pipeline: RUN_MAIN is the
 * compute entry, or the vertex or mesh entry of a render request (the one
 * whose table comes first); the others are the request's fields of the same
 * names. An absent entry is NULL.
 */
enum {
    RUN_MAIN,
    RUN_AMPLIFICATION,
    RUN_HULL,
    RUN_DOMAIN,
    RUN_GEOMETRY,
    RUN_FRAGMENT,
    RUN_ENTRY_COUNT
};

/* The entry name of each place (RUN_MAIN: `entry`), NULL where the request names none. */
static inline void run_entry_names(const dgpb_run_request *req, const char *out[RUN_ENTRY_COUNT])
{
    out[RUN_MAIN] = req->entry;
    out[RUN_AMPLIFICATION] = req->amplification;
    out[RUN_HULL] = req->hull;
    out[RUN_DOMAIN] = req->domain;
    out[RUN_GEOMETRY] = req->geometry;
    out[RUN_FRAGMENT] = req->fragment;
}

/* Whether a request parameter is an attachment of a draw (never a row). */
static inline bool run_param_is_attachment(const dgpb_run_param *p)
{
    return p->kind == DGPB_RUN_KIND_COLOR_ATTACHMENT || p->kind == DGPB_RUN_KIND_DEPTH_ATTACHMENT;
}

/* One host's operations. `host` is the host's own state. */
typedef struct run_host_ops {
    void (*destroy)(void *host);
    const char *(*device_name)(const void *host);
    const char *(*driver)(const void *host);
    uint32_t (*pipeline_count)(const void *host);
    /*
     * Runs a request already checked by dgpb_run_check (rows[i] is the row of
     * req->params[i], NULL for an attachment). `key` names the bundle (its
     * path) for caches; `entries` holds RUN_ENTRY_COUNT entries by place
     * (RUN_MAIN, ...; NULL where absent) of target `t`.
     */
    int (*run)(void *host, const char *key, const dgpb_target_view *t,
               const dgpb_entry_view *const *entries, const dgpb_run_request *req,
               const dgpb_param_view *const *rows, dgpb_run_result *res, dgpb_diag *d);
} run_host_ops;

/* Each host's start: its state in *host and its operations in *ops. */
int run_vulkan_create(const dgpb_runner_desc *desc, void **host, const run_host_ops **ops,
                      dgpb_diag *d);
int run_cuda_create(const dgpb_runner_desc *desc, void **host, const run_host_ops **ops,
                    dgpb_diag *d);

/* ---- request.c -------------------------------------------------------------- */

/*
 * Records a failure in `d` unless one is already there (the first cause is
 * the one reported) and returns the code stored in `d`.
 */
int run_fail(dgpb_diag *d, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Checks a texture description: format, extent, and bytes that match them. */
int run_check_texture(const dgpb_run_param *p, dgpb_diag *d);

/* The bytes of a buffer parameter: `size`, or `input_size` when no size is given. */
size_t run_param_bytes(const dgpb_run_param *p);

/* The request parameter named like `row`, or -1 (attachments are never rows). */
int run_param_index(const dgpb_run_request *req, const dgpb_param_view *row);

/*
 * The uniform_buffer row of the plain-data block whose field `row` is (a
 * value row at the place of a uniform_buffer row of entry `e`,
 * docs/format.md), or NULL. The block's buffer carries its fields.
 */
const dgpb_param_view *run_block_of_field(const dgpb_entry_view *e, const dgpb_param_view *row);

/* The groups to dispatch for the request and the entry's group size. */
void run_groups(const dgpb_run_request *req, const uint32_t group_size[3], uint32_t out[3]);

/*
 * The format of the view a host creates for a texel buffer row (docs/run.md,
 * "Texel buffers"): the texel format its shape states, else the 32-bit
 * one-channel format of its sample type (r32float, r32sint, r32uint; r32float
 * when it states none). DGPB_RUN_FORMAT_NONE when the runner has no such
 * format; *name (optional) is the format's name either way.
 */
uint32_t run_texel_buffer_format(const dgpb_param_view *row, const char **name);

/* ---- vertex_input.c ---------------------------------------------------------- */

/*
 * The attributes vertex entry `e` reads from its code of `code_format`
 * (dgpb_run_vertex_attributes, the code not verified here): none for another
 * stage or a code format other than SPIR-V.
 */
int run_vertex_attributes(uint32_t code_format, const dgpb_entry_view *e,
                          dgpb_run_vertex_attribute **attrs, uint32_t *count, dgpb_diag *d);

/* The attribute `name` names (dgpb_run_vertex_input.name): its index, -1 for none, -2 when
   the last part of several attributes' names is `name`. */
int run_vertex_attribute_find(const dgpb_run_vertex_attribute *attrs, uint32_t count,
                              const char *name);

/* The vertices a vertex pipeline draws: those its vertex buffers hold, else `vertices`. */
uint32_t run_draw_vertices(const dgpb_run_request *req);

/*
 * The vertex buffers of a request against the attributes its entry `e` (RUN_MAIN)
 * reads: only a vertex pipeline takes them; each names one attribute, once, in
 * the code's type, whole vertices, as many in each; every attribute is given
 * one where the request draws; `vertices`, where given too, agrees.
 */
int run_check_vertex_inputs(const dgpb_target_view *t, const dgpb_entry_view *e,
                            const dgpb_run_request *req, dgpb_diag *d);

/* ---- attachments.c ----------------------------------------------------------- */

/* The colour attachments of a request, in order (colour attachment i is out[i]); their count. */
uint32_t run_color_attachments(const dgpb_run_request *req,
                               const dgpb_run_param *out[DGPB_RUN_MAX_COLOR_ATTACHMENTS]);

/* The depth attachment of a request, or NULL. */
const dgpb_run_param *run_depth_attachment(const dgpb_run_request *req);

/*
 * The targets fragment entry `fragment` writes, from its code of
 * `code_format`: bit i of *written for SV_Target<i> (its code's Output
 * variable of Location i), and (optional) each one's sample type
 * (dgpb_sample_type; 0 where its type is none). None for a code format other
 * than SPIR-V. DGPB_ERR_UNSUPPORTED for a location past
 * DGPB_RUN_MAX_COLOR_ATTACHMENTS; DGPB_ERR_CORRUPT for code that cannot be
 * read.
 */
int run_fragment_targets(uint32_t code_format, const dgpb_entry_view *fragment,
                         uint32_t *written, uint32_t sample_types[DGPB_RUN_MAX_COLOR_ATTACHMENTS],
                         dgpb_diag *d);

/*
 * The attachments of a request (docs/run.md, "Drawing"): only a render request
 * has them; each a 2D texture of a colour format (a depth format for the depth
 * attachment, at most one), all of one extent; a depth test of a known compare
 * op, cleared to a depth from 0 to 1. A request that draws (not `create_only`)
 * has one attachment at least, and a colour attachment for every target
 * `fragment` writes, of its sample type.
 */
int run_check_attachments(const dgpb_target_view *t, const dgpb_entry_view *fragment,
                          const dgpb_run_request *req, bool create_only, dgpb_diag *d);

/* ---- value_text.c ------------------------------------------------------------ */

/*
 * A storage texture `p` of row `row` of entry `e` (target `t`) must have the
 * texel format the code declares (SPIR-V's image format, WGSL's texel
 * format): DGPB_ERR_RUN_KIND naming both when it does not, DGPB_ERR_INVALID
 * when the code's format is one the runner has no texture of; DGPB_OK when
 * they agree or the code states none (SPIR-V's Unknown, PTX).
 */
int run_check_storage_format(const dgpb_target_view *t, const dgpb_entry_view *e,
                             const dgpb_param_view *row, const dgpb_run_param *p, dgpb_diag *d);

/*
 * A cbuffer's uniform_buffer row `row` of entry `e` given as bytes
 * (docs/run.md, "Blocks and their fields"): DGPB_ERR_RUN_SIZE when they are
 * fewer than the block's size in the code (or, where the code does not say,
 * the end of its last field row); DGPB_ERR_INVALID when a field row at its
 * place is given too.
 */
int run_check_block(const dgpb_target_view *t, const dgpb_entry_view *e, const dgpb_param_view *row,
                    const dgpb_run_request *req, dgpb_diag *d);

/*
 * Whether a row the request does not name is covered all the same: a
 * uniform_buffer row that has field rows (value rows at its place: the block
 * is built from the fields given, the rest zero), a field row of a
 * uniform_buffer row (zero unless given), or a pipeline constant (the code's
 * default unless given).
 */
bool run_block_covered(const dgpb_entry_view *e, const dgpb_param_view *row,
                       const dgpb_run_request *req);

/*
 * Fails (DGPB_ERR_RUN_CAPABILITY, through run_fail) at the first capability
 * of entry `e` that device `device` lacks: one not in `has` (bit
 * UINT64_C(1) << DGPB_CAP_*), one in `masked` (refused on purpose, which the message
 * says), or one of no known name. DGPB_OK when it has them all.
 */
int run_check_capabilities(const dgpb_entry_view *e, uint64_t has, uint64_t masked,
                           const char *device, dgpb_diag *d);

/* ---- values.c ---------------------------------------------------------------- */

/*
 * Parses one number of `len` bytes (spaces around it allowed) as a scalar of
 * `kind` ('f' float, 'i' signed, 'u' unsigned, 'b' bool: 0, 1, true, false)
 * and `bits` (8, 16, 32 or 64; a float 16, 32 or 64) into dst, little-endian.
 * False when it is no such number or lies outside the type's range.
 */
bool run_parse_number(char kind, uint32_t bits, const char *s, size_t len, uint8_t *dst);

/* The range of numbers of `kind` and `bits` (as run_parse_number), as text for a
 * message: "-65504 to 65504 (or inf, -inf, nan)". */
const char *run_number_range(char kind, uint32_t bits);

#endif
