/*
 * spirv_analysis.c - entry point, capabilities and written variables of a
 * SPIR-V module (code/spirv/spirv_analysis.h; the rules are docs/design.md, sections
 * 4 and 5).
 *
 * Two passes over the module without OpSource (spirv_strip_source()):
 *
 *   1. A raw word walk reads every OpCapability operand and the first
 *      OpEntryPoint's execution model. It needs no grammar, so it works on
 *      modules newer than the linked SPIRV-Tools.
 *   2. spvBinaryParse() calls on_instruction() for every instruction, which
 *      records variables, names, decorations, the entry point, and a
 *      derivation graph: an edge "derived -> source" for every instruction
 *      whose result points into (or is an image handle of) what its operand
 *      points into, plus the ids that stores, atomics and image writes write
 *      through. Calls add edges parameter -> argument and call result ->
 *      callee -> returned value once all functions are known, so callers and
 *      callees may come in any order.
 *
 * A variable is written when it is reachable along those edges from any
 * written id: one depth-first walk over the edges sorted by derived id, with
 * no fixpoint iteration. Per-id tables are sized by the header's id bound,
 * which is capped at DGPB_SPIRV_MAX_ID_BOUND.
 */
#include "code/spirv/spirv_analysis.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "code/spirv/spirv.h"
#include "code/spirv/spirv_layout.h"
#include "code/spirv/spirv_numbers.h"
#define DGPB_SPIRV_TU dgpb__spirv_analysis_max_id_bound
#include "code/spirv/spirv_tools.h"

/* GLSL.std.450 extended instructions that write through a pointer. */
enum {
    GLSL_MODF = 35,
    GLSL_FREXP = 51,
};

/* Bits of analysis.flags[id]. */
enum {
    ID_HOLDS_IMAGE = 1, /* a type that is or contains an image or sampled image */
    ID_REACHED = 2,     /* reached from a written id */
    ID_COMPARED = 4,    /* reached from the sampled image of a depth-comparison sample */
};

/* A growable array of words whose first failed allocation sticks (as dgpb_bytebuf does). */
typedef struct u32vec {
    uint32_t *v;
    size_t n, cap;
    bool failed;
} u32vec;

static void push(u32vec *a, uint32_t x)
{
    if (a->failed)
        return;
    uint32_t *v = mem_grow(a->v, a->n, &a->cap, sizeof *v, 32);
    if (!v) {
        a->failed = true;
        return;
    }
    a->v = v;
    a->v[a->n++] = x;
}

typedef struct analysis {
    const uint32_t *words; /* the module without OpSource */
    size_t nwords;
    size_t pos; /* word offset of the instruction being parsed */
    uint32_t bound;
    dgpb_diag *diag;
    int rc; /* set by on_instruction() when it stops the parse */

    uint8_t *flags; /* per id: ID_* */
    uint32_t *slot; /* per id: 1 + index into vars (variables) or funcs (functions) */
    uint32_t *def;  /* per id: 1 + word offset of the type or constant that defines it */

    bool in_function;
    uint32_t function; /* the function being parsed */
    bool have_entry;
    uint32_t entry_function;
    uint32_t entry_name_at, entry_name_words; /* word offset and length of its name */
    uint32_t local_size[3];
    uint32_t local_size_ids[3];
    bool local_size_by_id;

    u32vec vars;      /* (id, storage class) */
    u32vec var_types; /* the pointer type of each variable in vars */
    u32vec names;     /* (target id, word offset of the string, words) */
    u32vec decos;     /* (target id, decoration, value): Binding, DescriptorSet, ArrayStride */
    u32vec mdecos;    /* (struct id, member, decoration, value): Offset, MatrixStride, RowMajor */
    u32vec interface; /* ids on the first entry point's interface */
    u32vec funcs;     /* (id, index of its first parameter in params, parameter count) */
    u32vec params;    /* parameter ids of every function in order */
    u32vec calls;     /* (callee, index of its first argument in args, argument count) */
    u32vec args;
    u32vec edges;    /* (derived, source) */
    u32vec writes;   /* ids written through */
    u32vec compares; /* sampled images a depth-comparison sample reads */
} analysis;

/* Stops the parse at an id beyond the bound; on_instruction() returns what this returns. */
static spv_result_t stop(analysis *a, const char *what, uint32_t id)
{
    a->rc = dgpb_diag_set(a->diag, DGPB_ERR_CORRUPT, (int64_t)a->pos * 4,
                          "malformed SPIR-V: %s %u at word %zu is not below the id bound %u", what,
                          id, a->pos, a->bound);
    return SPV_ERROR_INVALID_ID;
}

/*
 * Word k of the instruction's operands after its result type and result id
 * (k = 0 is the first such operand); 0 (never a valid id) when absent.
 */
static uint32_t operand(const spv_parsed_instruction_t *p, unsigned k)
{
    unsigned first = 1u + (p->type_id ? 1u : 0u) + (p->result_id ? 1u : 0u);
    return first + k < p->num_words ? p->words[first + k] : 0;
}

static bool id_ok(const analysis *a, uint32_t id)
{
    return id != 0 && id < a->bound;
}

/* Records that `derived` points into (or is an image of) whatever `source` does. */
static void edge(analysis *a, uint32_t derived, uint32_t source)
{
    if (id_ok(a, derived) && id_ok(a, source)) {
        push(&a->edges, derived);
        push(&a->edges, source);
    }
}

/* Records that the instruction writes through `id`. */
static void written(analysis *a, uint32_t id)
{
    if (id_ok(a, id))
        push(&a->writes, id);
}

static bool is_atomic_write(uint32_t op)
{
    return (op >= OP_ATOMIC_STORE && op <= OP_ATOMIC_XOR) || op == OP_ATOMIC_FLAG_TEST_AND_SET ||
           op == OP_ATOMIC_FLAG_CLEAR || op == OP_ATOMIC_FMIN_EXT || op == OP_ATOMIC_FMAX_EXT ||
           op == OP_ATOMIC_FADD_EXT;
}

/*
 * The pointer operand an instruction writes through (as an operand() index),
 * or -1. Atomics other than OpAtomicLoad, stores, copies, image writes,
 * cooperative matrix/vector stores, ray payloads and callable data.
 */
static int write_operand(const spv_parsed_instruction_t *p)
{
    switch (p->opcode) {
    case OP_STORE:
    case OP_COPY_MEMORY:
    case OP_COPY_MEMORY_SIZED:
    case OP_IMAGE_WRITE:
    case OP_COOPERATIVE_MATRIX_STORE_KHR:
    case OP_COOPERATIVE_MATRIX_STORE_NV:
    case OP_COOPERATIVE_VECTOR_STORE_NV:
    case OP_COOPERATIVE_VECTOR_OUTER_PRODUCT_ACCUMULATE_NV:
    case OP_COOPERATIVE_VECTOR_REDUCE_SUM_ACCUMULATE_NV:
        return 0;
    case OP_TRACE_RAY_KHR:
        return 10; /* the payload */
    case OP_EXECUTE_CALLABLE_KHR:
        return 1; /* the callable data */
    case OP_EXT_INST:
        /* GLSL.std.450 Modf and Frexp write their second operand through a pointer. */
        if (p->ext_inst_type == SPV_EXT_INST_TYPE_GLSL_STD_450 &&
            (operand(p, 1) == GLSL_MODF || operand(p, 1) == GLSL_FREXP))
            return 3;
        return -1;
    default:
        return is_atomic_write(p->opcode) ? 0 : -1;
    }
}

/* Types: where each is defined, and which ones are, or contain, image handles. */
static void on_type(analysis *a, const spv_parsed_instruction_t *p)
{
    uint32_t id = p->result_id;
    if (!id_ok(a, id))
        return;
    if ((p->opcode >= OP_TYPE_BOOL && p->opcode <= OP_TYPE_POINTER) || p->opcode == OP_CONSTANT ||
        (p->opcode >= OP_SPEC_CONSTANT_TRUE && p->opcode <= OP_SPEC_CONSTANT) ||
        p->opcode == OP_TYPE_ACCELERATION_STRUCTURE_KHR)
        a->def[id] = (uint32_t)a->pos + 1;
    if (p->opcode == OP_TYPE_IMAGE || p->opcode == OP_TYPE_SAMPLED_IMAGE ||
        p->opcode == OP_TYPE_SAMPLER) {
        a->flags[id] |= ID_HOLDS_IMAGE;
    } else if (p->opcode == OP_TYPE_ARRAY || p->opcode == OP_TYPE_RUNTIME_ARRAY) {
        uint32_t elem = operand(p, 0);
        if (id_ok(a, elem))
            a->flags[id] |= a->flags[elem] & ID_HOLDS_IMAGE;
    } else if (p->opcode == OP_TYPE_STRUCT) {
        for (unsigned k = 0; operand(p, k); k++)
            if (id_ok(a, operand(p, k)))
                a->flags[id] |= a->flags[operand(p, k)] & ID_HOLDS_IMAGE;
    }
}

static bool holds_image(const analysis *a, uint32_t type)
{
    return id_ok(a, type) && (a->flags[type] & ID_HOLDS_IMAGE);
}

/* OpEntryPoint (the first one), OpExecutionMode[Id], OpConstant of a LocalSizeId. */
static void on_entry_info(analysis *a, const spv_parsed_instruction_t *p)
{
    if (p->opcode == OP_ENTRY_POINT && !a->have_entry && p->num_operands >= 3) {
        a->have_entry = true;
        a->entry_function = p->words[2];
        a->entry_name_at = (uint32_t)a->pos + p->operands[2].offset;
        a->entry_name_words = p->operands[2].num_words;
        for (uint16_t k = 3; k < p->num_operands; k++)
            push(&a->interface, p->words[p->operands[k].offset]);
    } else if (p->opcode == OP_EXECUTION_MODE || p->opcode == OP_EXECUTION_MODE_ID) {
        if (!a->have_entry || p->num_words < 6 || p->words[1] != a->entry_function)
            return;
        if (p->words[2] == MODE_LOCAL_SIZE && p->opcode == OP_EXECUTION_MODE) {
            memcpy(a->local_size, p->words + 3, sizeof a->local_size);
        } else if (p->words[2] == MODE_LOCAL_SIZE_ID && p->opcode == OP_EXECUTION_MODE_ID) {
            memcpy(a->local_size_ids, p->words + 3, sizeof a->local_size_ids);
            a->local_size_by_id = true;
        }
    } else if (p->opcode == OP_CONSTANT && a->local_size_by_id && p->num_words >= 4) {
        for (int k = 0; k < 3; k++)
            if (a->local_size_ids[k] == p->result_id)
                a->local_size[k] = p->words[3];
    }
}

/* spvBinaryParse's instruction callback. */
static spv_result_t on_instruction(void *user, const spv_parsed_instruction_t *p)
{
    analysis *a = user;
    spv_result_t r = SPV_SUCCESS;
    if (p->result_id && !id_ok(a, p->result_id)) {
        r = stop(a, "result id", p->result_id);
        goto done;
    }
    if (p->type_id && !id_ok(a, p->type_id)) {
        r = stop(a, "type id", p->type_id);
        goto done;
    }
    on_type(a, p);
    on_entry_info(a, p);

    uint32_t res = p->result_id;
    switch (p->opcode) {
    case OP_NAME:
        if (p->num_operands >= 2) {
            push(&a->names, p->words[1]);
            push(&a->names, (uint32_t)a->pos + p->operands[1].offset);
            push(&a->names, p->operands[1].num_words);
        }
        break;
    case OP_DECORATE:
        if (p->num_words >= 4 &&
            (p->words[2] == DECORATION_BINDING || p->words[2] == DECORATION_DESCRIPTOR_SET ||
             p->words[2] == DECORATION_ARRAY_STRIDE || p->words[2] == DECORATION_SPEC_ID ||
             p->words[2] == DECORATION_INPUT_ATTACHMENT_INDEX)) {
            push(&a->decos, p->words[1]);
            push(&a->decos, p->words[2]);
            push(&a->decos, p->words[3]);
        }
        break;
    case OP_MEMBER_DECORATE:
        if (p->num_words >= 4 &&
            (p->words[3] == DECORATION_OFFSET || p->words[3] == DECORATION_MATRIX_STRIDE ||
             p->words[3] == DECORATION_ROW_MAJOR)) {
            push(&a->mdecos, p->words[1]);
            push(&a->mdecos, p->words[2]);
            push(&a->mdecos, p->words[3]);
            push(&a->mdecos, p->num_words >= 5 ? p->words[4] : 1);
        }
        break;
    case OP_VARIABLE:
        if (!a->in_function && operand(p, 0) != STORAGE_FUNCTION) {
            if (a->slot[res] == 0)
                a->slot[res] = (uint32_t)(a->vars.n / 2) + 1;
            push(&a->vars, res);
            push(&a->vars, operand(p, 0));
            push(&a->var_types, p->type_id);
        }
        break;
    case OP_FUNCTION:
        a->in_function = true;
        a->function = res;
        if (a->slot[res] == 0)
            a->slot[res] = (uint32_t)(a->funcs.n / 3) + 1;
        push(&a->funcs, res);
        push(&a->funcs, (uint32_t)a->params.n);
        push(&a->funcs, 0);
        break;
    case OP_FUNCTION_PARAMETER:
        if (a->in_function && a->funcs.n >= 3 && !a->funcs.failed) {
            push(&a->params, res);
            a->funcs.v[a->funcs.n - 1]++;
        }
        break;
    case OP_FUNCTION_END:
        a->in_function = false;
        break;
    case OP_FUNCTION_CALL: {
        uint32_t callee = operand(p, 0), nargs = 0;
        push(&a->calls, callee);
        push(&a->calls, (uint32_t)a->args.n);
        for (unsigned k = 1; operand(p, k); k++, nargs++)
            push(&a->args, operand(p, k));
        push(&a->calls, nargs);
        edge(a, res, callee); /* a returned pointer: see OP_RETURN_VALUE */
        break;
    }
    case OP_RETURN_VALUE:
        if (a->in_function)
            edge(a, a->function, operand(p, 0));
        break;
    case OP_ACCESS_CHAIN:
    case OP_IN_BOUNDS_ACCESS_CHAIN:
    case OP_PTR_ACCESS_CHAIN:
    case OP_IN_BOUNDS_PTR_ACCESS_CHAIN:
    case OP_COPY_OBJECT:
    case OP_BITCAST:
    case OP_IMAGE_TEXEL_POINTER:
    case OP_IMAGE:
        edge(a, res, operand(p, 0));
        break;
    case OP_SAMPLED_IMAGE:
        edge(a, res, operand(p, 0)); /* the image */
        edge(a, res, operand(p, 1)); /* the sampler */
        break;
    case OP_IMAGE_SAMPLE_DREF_IMPLICIT_LOD:
    case OP_IMAGE_SAMPLE_DREF_EXPLICIT_LOD:
    case OP_IMAGE_SAMPLE_PROJ_DREF_IMPLICIT_LOD:
    case OP_IMAGE_SAMPLE_PROJ_DREF_EXPLICIT_LOD:
    case OP_IMAGE_DREF_GATHER:
    case OP_IMAGE_SPARSE_SAMPLE_DREF_IMPLICIT_LOD:
    case OP_IMAGE_SPARSE_SAMPLE_DREF_EXPLICIT_LOD:
    case OP_IMAGE_SPARSE_SAMPLE_PROJ_DREF_IMPLICIT_LOD:
    case OP_IMAGE_SPARSE_SAMPLE_PROJ_DREF_EXPLICIT_LOD:
    case OP_IMAGE_SPARSE_DREF_GATHER:
        if (id_ok(a, operand(p, 0)))
            push(&a->compares, operand(p, 0));
        break;
    case OP_LOAD:
    case OP_COMPOSITE_EXTRACT:
        /* An image handle loaded from a variable (or taken out of an array of
           them) is that variable for OpImageWrite. */
        if (holds_image(a, p->type_id))
            edge(a, res, operand(p, 0));
        break;
    case OP_SELECT:
        edge(a, res, operand(p, 1));
        edge(a, res, operand(p, 2));
        break;
    case OP_PHI:
        for (unsigned k = 0; operand(p, k); k += 2)
            edge(a, res, operand(p, k));
        break;
    default:
        break;
    }
    int w = write_operand(p);
    if (w >= 0)
        written(a, operand(p, (unsigned)w));
done:
    a->pos += p->num_words;
    return r;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static int cmp_edge(const void *x, const void *y)
{
    const uint32_t *a = x, *b = y;
    if (a[0] != b[0])
        return (a[0] > b[0]) - (a[0] < b[0]);
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/*
 * Pass 1: capabilities (sorted, unique) and the first OpEntryPoint's
 * execution model, straight from the words. The words are known to be a
 * sequence of whole instructions (spirv_strip_source() checked that).
 */
static int read_raw(const uint32_t *w, size_t n, dgpb_spirv_info *info, dgpb_diag *diag)
{
    u32vec caps = {0};
    bool have_entry = false;
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffffu;
        if (op == OP_CAPABILITY && count >= 2)
            push(&caps, w[i + 1]);
        else if (op == OP_ENTRY_POINT && count >= 4 && !have_entry) {
            have_entry = true;
            info->execution_model = w[i + 1];
        }
    }
    if (caps.failed) {
        dgpb_free(caps.v);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    if (!have_entry) {
        dgpb_free(caps.v);
        return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1, "SPIR-V module has no OpEntryPoint");
    }
    if (caps.n)
        qsort(caps.v, caps.n, sizeof *caps.v, cmp_u32);
    size_t unique = 0;
    for (size_t i = 0; i < caps.n; i++)
        if (unique == 0 || caps.v[unique - 1] != caps.v[i])
            caps.v[unique++] = caps.v[i];
    info->capabilities = caps.v;
    info->capability_count = unique;
    return DGPB_OK;
}

/* A copy of the NUL-terminated string of `nw` words at word `at`, or NULL (out of memory). */
static char *string_at(const analysis *a, uint32_t at, uint32_t nw)
{
    if (at >= a->nwords || nw > a->nwords - at)
        return mem_strdup("");
    const char *s = (const char *)(a->words + at);
    const char *nul = memchr(s, 0, (size_t)nw * 4);
    size_t len = nul ? (size_t)(nul - s) : (size_t)nw * 4;
    char *out = mem_alloc(len + 1);
    if (out) {
        memcpy(out, s, len);
        out[len] = 0;
    }
    return out;
}

/* The parameter -> argument edges of every call whose callee is a function of the module. */
static void link_calls(analysis *a)
{
    for (size_t c = 0; c + 2 < a->calls.n; c += 3) {
        uint32_t callee = a->calls.v[c], first_arg = a->calls.v[c + 1], nargs = a->calls.v[c + 2];
        if (!id_ok(a, callee) || a->slot[callee] == 0)
            continue;
        size_t f = (size_t)(a->slot[callee] - 1) * 3;
        if (f + 2 >= a->funcs.n || a->funcs.v[f] != callee)
            continue; /* a variable, not a function */
        uint32_t first_param = a->funcs.v[f + 1], nparams = a->funcs.v[f + 2];
        for (uint32_t k = 0; k < nargs && k < nparams; k++)
            edge(a, a->params.v[first_param + k], a->args.v[first_arg + k]);
    }
}

/* Marks `flag` on every id reachable from one of `seeds` along derived -> source edges. */
static int walk(analysis *a, const u32vec *seeds, uint32_t flag)
{
    size_t nedges = a->edges.n / 2;
    if (nedges)
        qsort(a->edges.v, nedges, 2 * sizeof(uint32_t), cmp_edge);
    /* Every id is pushed at most once, from a write or along an edge. */
    uint32_t *stack = mem_alloc((seeds->n + nedges + 1) * sizeof *stack);
    if (!stack)
        return DGPB_ERR_NOMEM;
    size_t top = 0;
    for (size_t i = 0; i < seeds->n; i++) {
        uint32_t id = seeds->v[i];
        if (!(a->flags[id] & flag)) {
            a->flags[id] |= flag;
            stack[top++] = id;
        }
    }
    while (top) {
        uint32_t id = stack[--top];
        /* The first edge whose derived id is `id`. */
        size_t lo = 0, hi = nedges;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (a->edges.v[2 * mid] < id)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t e = lo; e < nedges && a->edges.v[2 * e] == id; e++) {
            uint32_t src = a->edges.v[2 * e + 1];
            if (!(a->flags[src] & flag)) {
                a->flags[src] |= flag;
                stack[top++] = src;
            }
        }
    }
    dgpb_free(stack);
    return DGPB_OK;
}

/* ---- what a variable's type is ---- */

/* The defining instruction of a type or constant id: its words, or NULL. */
static const uint32_t *def_of(const analysis *a, uint32_t id, uint32_t *count)
{
    if (!id_ok(a, id) || a->def[id] == 0)
        return NULL;
    const uint32_t *w = a->words + (a->def[id] - 1);
    *count = w[0] >> 16;
    return w;
}

static bool member_deco(const analysis *a, uint32_t st, uint32_t member, uint32_t deco,
                        uint32_t *value)
{
    for (size_t i = 0; i + 3 < a->mdecos.n; i += 4)
        if (a->mdecos.v[i] == st && a->mdecos.v[i + 1] == member && a->mdecos.v[i + 2] == deco) {
            *value = a->mdecos.v[i + 3];
            return true;
        }
    return false;
}

static bool deco_of(const analysis *a, uint32_t id, uint32_t deco, uint32_t *value)
{
    for (size_t i = 0; i + 2 < a->decos.n; i += 3)
        if (a->decos.v[i] == id && a->decos.v[i + 1] == deco) {
            *value = a->decos.v[i + 2];
            return true;
        }
    return false;
}

static const uint32_t *types_def(const void *ctx, uint32_t id, uint32_t *words)
{
    return def_of(ctx, id, words);
}

static bool types_member_deco(const void *ctx, uint32_t type, uint32_t member, uint32_t deco)
{
    uint32_t value = 0;
    return member_deco(ctx, type, member, deco, &value);
}

/*
 * The byte size of a type as laid out in a block: scalars and vectors by
 * width, arrays by ArrayStride x length, matrices by MatrixStride, physical
 * storage buffer pointers 8, structs up to the end of their last member (by
 * Offset), rounded up to the struct's alignment by `rules`
 * (code/spirv/spirv_layout.h). 0 when unknown (a runtime array, a missing
 * decoration) or nested deeper than 16.
 */
static uint64_t type_size(const analysis *a, uint32_t id, uint32_t matrix_stride, bool row_major,
                          spirv_rules rules, int depth)
{
    uint32_t n = 0;
    const uint32_t *w = def_of(a, id, &n);
    if (!w || depth > 16)
        return 0;
    switch (w[0] & 0xffffu) {
    case OP_TYPE_BOOL:
        return 4;
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT:
        return n >= 3 ? w[2] / 8 : 0;
    case OP_TYPE_VECTOR:
        return n >= 4 ? w[3] * type_size(a, w[2], 0, false, rules, depth + 1) : 0;
    case OP_TYPE_MATRIX: {
        if (n < 4)
            return 0;
        uint32_t cols = w[3], rows = 0, vn = 0;
        const uint32_t *v = def_of(a, w[2], &vn);
        if (v && vn >= 4)
            rows = v[3];
        if (matrix_stride)
            return (uint64_t)matrix_stride * (row_major ? rows : cols);
        return (uint64_t)cols * type_size(a, w[2], 0, false, rules, depth + 1);
    }
    case OP_TYPE_ARRAY: {
        uint32_t stride = 0, cn = 0;
        const uint32_t *len = n >= 4 ? def_of(a, w[3], &cn) : NULL;
        if (!len || (len[0] & 0xffffu) != OP_CONSTANT || cn < 4)
            return 0;
        if (!deco_of(a, id, DECORATION_ARRAY_STRIDE, &stride))
            stride = (uint32_t)type_size(a, w[2], matrix_stride, row_major, rules, depth + 1);
        return (uint64_t)stride * len[3];
    }
    case OP_TYPE_STRUCT: {
        uint64_t end = 0;
        for (uint32_t m = 0; m + 2 < n; m++) {
            uint32_t offset = 0, stride = 0, rm = 0;
            if (!member_deco(a, id, m, DECORATION_OFFSET, &offset))
                return 0;
            member_deco(a, id, m, DECORATION_MATRIX_STRIDE, &stride);
            bool is_row_major = member_deco(a, id, m, DECORATION_ROW_MAJOR, &rm);
            uint64_t size = type_size(a, w[2 + m], stride, is_row_major, rules, depth + 1);
            if (offset + size > end)
                end = offset + size;
        }
        spirv_types types = {a, types_def, types_member_deco};
        return spirv_layout_pad(&types, id, end, rules);
    }
    case OP_TYPE_POINTER:
        return n >= 4 && w[2] == STORAGE_PHYSICAL_STORAGE_BUFFER ? 8 : 0;
    default:
        return 0;
    }
}

/* The layout rules of a block in `storage_class`: std140 for a uniform block, std430 else. */
static spirv_rules block_rules(uint32_t storage_class)
{
    return storage_class == STORAGE_UNIFORM ? SPIRV_RULES_STD140 : SPIRV_RULES_STD430;
}

/*
 * A block's members (Offset and byte size each, up to where each ends: the
 * least a row covering it spans) and, when its last member is
 * a runtime array (a storage buffer), that array's ArrayStride.
 */
static bool describe_members(const analysis *a, uint32_t t, const uint32_t *w, uint32_t n,
                             dgpb_spirv_var *v)
{
    uint32_t count = n - 2, last_n = 0, stride = 0;
    v->members = count ? mem_calloc(count, sizeof *v->members) : NULL;
    if (count && !v->members)
        return false;
    v->member_count = count;
    for (uint32_t m = 0; m < count; m++) {
        uint32_t ms = 0, rm = 0;
        member_deco(a, t, m, DECORATION_OFFSET, &v->members[m].offset);
        member_deco(a, t, m, DECORATION_MATRIX_STRIDE, &ms);
        uint64_t size = type_size(a, w[2 + m], ms, member_deco(a, t, m, DECORATION_ROW_MAJOR, &rm),
                                  SPIRV_RULES_NONE, 0);
        v->members[m].size = size > UINT32_MAX ? 0 : (uint32_t)size;
    }
    const uint32_t *last = count ? def_of(a, w[1 + count], &last_n) : NULL;
    if (last && (last[0] & 0xffffu) == OP_TYPE_RUNTIME_ARRAY &&
        deco_of(a, w[1 + count], DECORATION_ARRAY_STRIDE, &stride))
        v->element_stride = stride;
    return true;
}

/* An image type's dimension, depth, arrayed, multisampled, sample type and format. */
static void describe_image(const analysis *a, const uint32_t *w, dgpb_spirv_var *v)
{
    v->image_dim = w[3];
    v->image_depth = w[4] == 1;
    v->image_arrayed = w[5] != 0;
    v->image_multisampled = w[6] != 0;
    v->image_sampled = w[7];
    v->image_format = w[8];
    uint32_t tn = 0;
    const uint32_t *st = def_of(a, w[2], &tn);
    if (st && (st[0] & 0xffffu) == OP_TYPE_FLOAT)
        v->image_sample = DGPB_SAMPLE_FLOAT;
    else if (st && (st[0] & 0xffffu) == OP_TYPE_INT && tn >= 4)
        v->image_sample = st[3] ? DGPB_SAMPLE_SINT : DGPB_SAMPLE_UINT;
}

/* Fills a variable's type class, array flag, image details and block layout; false: no memory. */
static bool describe_type(const analysis *a, uint32_t pointer_type, dgpb_spirv_var *v)
{
    uint32_t n = 0;
    const uint32_t *w = def_of(a, pointer_type, &n);
    if (!w || (w[0] & 0xffffu) != OP_TYPE_POINTER || n < 4)
        return true;
    uint32_t t = w[3];
    for (int depth = 0; depth < 8; depth++) {
        w = def_of(a, t, &n);
        if (!w)
            return true;
        uint32_t op = w[0] & 0xffffu;
        if ((op == OP_TYPE_ARRAY || op == OP_TYPE_RUNTIME_ARRAY) && n >= 3) {
            /* A storage buffer's block wraps its runtime array in a struct: only an array
               around the block or handle itself is an array of resources. */
            uint32_t ln = 0;
            const uint32_t *len = op == OP_TYPE_ARRAY && n >= 4 ? def_of(a, w[3], &ln) : NULL;
            if (!v->is_array && len && (len[0] & 0xffffu) == OP_CONSTANT && ln >= 4)
                v->array_length = len[3];
            v->is_array = true;
            t = w[2];
            continue;
        }
        switch (op) {
        case OP_TYPE_STRUCT:
            v->type_class = DGPB_SPIRV_TYPE_BLOCK;
            uint64_t size = type_size(a, t, 0, false, block_rules(v->storage_class), 0);
            v->block_size = size > UINT32_MAX ? 0 : (uint32_t)size;
            size = type_size(a, t, 0, false, SPIRV_RULES_SCALAR, 0);
            v->scalar_block_size = size > UINT32_MAX ? 0 : (uint32_t)size;
            return describe_members(a, t, w, n, v);
        case OP_TYPE_SAMPLED_IMAGE:
            v->type_class = DGPB_SPIRV_TYPE_COMBINED;
            if (n >= 3) {
                uint32_t in = 0;
                const uint32_t *img = def_of(a, w[2], &in);
                if (img && (img[0] & 0xffffu) == OP_TYPE_IMAGE && in >= 9)
                    describe_image(a, img, v);
            }
            break;
        case OP_TYPE_IMAGE:
            if (n >= 9) {
                describe_image(a, w, v);
                v->type_class = w[3] == 5 /* Buffer */        ? DGPB_SPIRV_TYPE_TEXEL_BUFFER
                                : w[3] == 6 /* SubpassData */ ? DGPB_SPIRV_TYPE_INPUT_ATTACHMENT
                                : w[7] == 2                   ? DGPB_SPIRV_TYPE_STORAGE_IMAGE
                                                              : DGPB_SPIRV_TYPE_SAMPLED_IMAGE_ONLY;
            }
            break;
        case OP_TYPE_SAMPLER:
            v->type_class = DGPB_SPIRV_TYPE_SAMPLER;
            break;
        case OP_TYPE_ACCELERATION_STRUCTURE_KHR:
            v->type_class = DGPB_SPIRV_TYPE_ACCELERATION_STRUCTURE;
            break;
        default:
            break;
        }
        return true;
    }
    return true;
}

/* Moves what the parse found into info (variables, names, decorations, entry). */
static int fill_info(analysis *a, dgpb_spirv_info *info)
{
    size_t nvars = a->vars.n / 2;
    if (nvars) {
        info->vars = mem_calloc(nvars, sizeof *info->vars);
        if (!info->vars)
            return DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < nvars; i++) {
        dgpb_spirv_var *v = &info->vars[i];
        v->id = a->vars.v[2 * i];
        v->storage_class = a->vars.v[2 * i + 1];
        info->var_count = i + 1;
        if (!describe_type(a, a->var_types.v[i], v))
            return DGPB_ERR_NOMEM;
        v->set = v->binding = v->input_attachment = -1;
        v->written = (a->flags[v->id] & ID_REACHED) != 0;
        v->compared = (a->flags[v->id] & ID_COMPARED) != 0;
    }
    for (size_t i = 0; i + 2 < a->decos.n; i += 3) { /* specialization constants */
        uint32_t n = 0, tn = 0;
        const uint32_t *w =
            a->decos.v[i + 1] == DECORATION_SPEC_ID ? def_of(a, a->decos.v[i], &n) : NULL;
        if (!w || n < 3 || !def_of(a, w[1], &tn))
            continue;
        dgpb_spirv_spec_constant *sc =
            mem_realloc(info->spec_constants, (info->spec_constant_count + 1) * sizeof *sc);
        if (!sc)
            return DGPB_ERR_NOMEM;
        info->spec_constants = sc;
        sc[info->spec_constant_count].spec_id = a->decos.v[i + 2];
        sc[info->spec_constant_count].id = a->decos.v[i];
        sc[info->spec_constant_count].name = NULL;
        sc[info->spec_constant_count++].size =
            (uint32_t)type_size(a, w[1], 0, false, SPIRV_RULES_NONE, 0);
    }
    for (size_t k = 0; k < info->spec_constant_count; k++) {
        dgpb_spirv_spec_constant *sc = &info->spec_constants[k];
        for (size_t i = 0; i + 2 < a->names.n && !sc->name; i += 3)
            if (a->names.v[i] == sc->id &&
                !(sc->name = string_at(a, a->names.v[i + 1], a->names.v[i + 2])))
                return DGPB_ERR_NOMEM;
        if (!sc->name && !(sc->name = mem_strdup("")))
            return DGPB_ERR_NOMEM;
    }
    /* Only the first index of a variable's id is in slot: a repeated id (an
       invalid module) keeps its other rows unnamed. */
    for (size_t i = 0; i + 2 < a->names.n; i += 3) {
        uint32_t id = a->names.v[i];
        if (!id_ok(a, id) || a->slot[id] == 0 || a->slot[id] > nvars)
            continue;
        dgpb_spirv_var *v = &info->vars[a->slot[id] - 1];
        if (v->id != id || v->name)
            continue;
        v->name = string_at(a, a->names.v[i + 1], a->names.v[i + 2]);
        if (!v->name)
            return DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < nvars; i++)
        if (!info->vars[i].name && !(info->vars[i].name = mem_strdup("")))
            return DGPB_ERR_NOMEM;
    for (size_t i = 0; i + 2 < a->decos.n; i += 3) {
        uint32_t id = a->decos.v[i];
        if (!id_ok(a, id) || a->slot[id] == 0 || a->slot[id] > nvars)
            continue;
        dgpb_spirv_var *v = &info->vars[a->slot[id] - 1];
        if (v->id != id)
            continue;
        if (a->decos.v[i + 1] == DECORATION_BINDING)
            v->binding = a->decos.v[i + 2];
        else if (a->decos.v[i + 1] == DECORATION_DESCRIPTOR_SET)
            v->set = a->decos.v[i + 2];
        else if (a->decos.v[i + 1] == DECORATION_INPUT_ATTACHMENT_INDEX)
            v->input_attachment = a->decos.v[i + 2];
    }
    for (size_t i = 0; i < a->interface.n; i++) {
        uint32_t id = a->interface.v[i];
        if (id_ok(a, id) && a->slot[id] != 0 && a->slot[id] <= nvars &&
            info->vars[a->slot[id] - 1].id == id)
            info->vars[a->slot[id] - 1].in_interface = true;
    }
    dgpb_free(info->entry_name);
    info->entry_name = string_at(a, a->entry_name_at, a->entry_name_words);
    if (!info->entry_name)
        return DGPB_ERR_NOMEM;
    memcpy(info->local_size, a->local_size, sizeof info->local_size);
    info->parsed = true;
    return DGPB_OK;
}

static void analysis_free(analysis *a)
{
    dgpb_free(a->flags);
    dgpb_free(a->slot);
    dgpb_free(a->def);
    u32vec *vecs[] = {&a->vars,      &a->var_types, &a->names,   &a->decos, &a->mdecos,
                      &a->interface, &a->funcs,     &a->params,  &a->calls, &a->args,
                      &a->edges,     &a->writes,    &a->compares};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        dgpb_free(vecs[i]->v);
}

static bool analysis_failed(const analysis *a)
{
    const u32vec *vecs[] = {&a->vars,      &a->var_types, &a->names,   &a->decos, &a->mdecos,
                            &a->interface, &a->funcs,     &a->params,  &a->calls, &a->args,
                            &a->edges,     &a->writes,    &a->compares};
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        if (vecs[i]->failed)
            return true;
    return false;
}

int spirv_analyze(const void *code, size_t size, dgpb_spirv_info **out, dgpb_diag *diag)
{
    if (!out)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no place for the SPIR-V analysis");
    *out = NULL;
    if (!code)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no SPIR-V module to analyse");

    uint32_t *words = NULL;
    size_t nwords = 0;
    dgpb_spirv_info *info = NULL;
    spv_context ctx = NULL;
    spv_diagnostic sd = NULL;
    analysis a = {0};
    int rc = spirv_strip_source(code, size, &words, &nwords, diag);
    if (rc)
        goto done;
    if (nwords > UINT32_MAX) {
        rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "SPIR-V module of %zu words is too large",
                           nwords);
        goto done;
    }
    if (words[3] > DGPB_SPIRV_MAX_ID_BOUND) {
        rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, 12, "SPIR-V id bound %u exceeds the limit %u",
                           words[3], DGPB_SPIRV_MAX_ID_BOUND);
        goto done;
    }
    info = mem_calloc(1, sizeof *info);
    if (!info || !(info->entry_name = mem_strdup(""))) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    rc = read_raw(words, nwords, info, diag);
    if (rc)
        goto done;

    /* A module newer than SPIRV-Tools: what it cannot read is left out, its interface kept. */
    char why[512];
    size_t dropped = 0;
    if (spirv_drop_unknown(words, nwords, &dropped, why, sizeof why) == DGPB_ERR_NOMEM) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    info->unread = dropped;
    a.words = words;
    a.nwords = nwords;
    a.pos = SPV_HEADER_WORDS;
    a.bound = words[3];
    a.diag = diag;
    a.flags = mem_calloc(a.bound ? a.bound : 1, 1);
    a.slot = mem_calloc(a.bound ? a.bound : 1, sizeof *a.slot);
    a.def = mem_calloc(a.bound ? a.bound : 1, sizeof *a.def);
    ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    if (!a.flags || !a.slot || !a.def || !ctx) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    spv_result_t r = spvBinaryParse(ctx, &a, words, nwords, NULL, on_instruction, &sd);
    if (a.rc) {
        rc = a.rc;
        goto done;
    }
    if (r != SPV_SUCCESS) {
        /* Too new for this SPIRV-Tools (or broken in a way only it sees): keep the
           capabilities and the execution model, drop the rest. */
        rc = dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, sd ? (int64_t)sd->position.index * 4 : -1,
                           "SPIRV-Tools cannot parse the module (%s); only its capabilities "
                           "were read",
                           sd && sd->error ? sd->error : "unknown error");
        if (diag)
            diag->severity = DGPB_SEV_WARNING;
        *out = info;
        info = NULL;
        goto done;
    }
    if (!analysis_failed(&a))
        link_calls(&a); /* only over complete tables */
    if (analysis_failed(&a) || walk(&a, &a.writes, ID_REACHED) ||
        walk(&a, &a.compares, ID_COMPARED) || fill_info(&a, info)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    *out = info;
    info = NULL;
done:
    spirv_info_free(info);
    analysis_free(&a);
    spvDiagnosticDestroy(sd);
    spvContextDestroy(ctx);
    dgpb_free(words);
    return rc;
}

void spirv_info_free(dgpb_spirv_info *info)
{
    if (!info)
        return;
    for (size_t i = 0; i < info->var_count; i++) {
        dgpb_free(info->vars[i].name);
        dgpb_free(info->vars[i].members);
    }
    dgpb_free(info->vars);
    for (size_t i = 0; i < info->spec_constant_count; i++)
        dgpb_free(info->spec_constants[i].name);
    dgpb_free(info->spec_constants);
    dgpb_free(info->capabilities);
    dgpb_free(info->entry_name);
    dgpb_free(info);
}

const dgpb_spirv_var *spirv_find_var(const dgpb_spirv_info *info, const char *name)
{
    if (!info || !name)
        return NULL;
    for (size_t i = 0; i < info->var_count; i++)
        if (strcmp(info->vars[i].name, name) == 0)
            return &info->vars[i];
    return NULL;
}
