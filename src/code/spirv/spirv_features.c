/*
 * spirv_features.c - the OpCapability instructions of a SPIR-V module, the
 * 8- and 16-bit storage its buffers use, the point size its geometry and
 * tessellation stages use, and how it indexes its descriptor arrays
 * (code/spirv/spirv_ops.h), read word by word without SPIRV-Tools.
 */
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "code/code_features.h"
#include "code/spirv/spirv_numbers.h"
#include "code/spirv/spirv_words.h"
#include "code/spirv/spirv_ops.h"

/* The widths (8 | 16) of the scalars type `id` holds, in place (not behind pointers). */
static unsigned narrow_in(const uint8_t *code, bool swap, const uint32_t *def, uint32_t bound,
                          uint32_t id, uint8_t *seen, unsigned depth)
{
    if (id >= bound || !def[id] || seen[id] || depth > 64)
        return 0;
    seen[id] = 1;
    size_t i = def[id];
    uint32_t w = spirv_word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
    unsigned out = 0;
    if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && count >= 3) {
        uint32_t width = spirv_word(code + 4 * (i + 2), swap);
        out = width == 8 ? 8 : width == 16 ? 16 : 0;
    } else if ((op == OP_TYPE_VECTOR || op == OP_TYPE_MATRIX || op == OP_TYPE_ARRAY ||
                op == OP_TYPE_RUNTIME_ARRAY) &&
               count >= 3) {
        out = narrow_in(code, swap, def, bound, spirv_word(code + 4 * (i + 2), swap), seen,
                        depth + 1);
    } else if (op == OP_TYPE_STRUCT) {
        for (uint32_t m = 2; m < count; m++)
            out |= narrow_in(code, swap, def, bound, spirv_word(code + 4 * (i + m), swap), seen,
                             depth + 1);
    }
    seen[id] = 0; /* a type may be reached again along another path */
    return out;
}

/* The kinds of descriptor an array may hold, as Vulkan's indexing features tell them apart. */
enum descriptor_kind {
    KIND_NONE,
    KIND_UNIFORM_BUFFER,
    KIND_SAMPLED_IMAGE, /* and samplers, and combined image-samplers */
    KIND_STORAGE_BUFFER,
    KIND_STORAGE_IMAGE,
    KIND_INPUT_ATTACHMENT,
    KIND_UNIFORM_TEXEL_BUFFER,
    KIND_STORAGE_TEXEL_BUFFER,
    KIND_COUNT
};

/* Per kind: the capability of indexing an array of it dynamically, and non-uniformly. */
static const uint32_t indexing[KIND_COUNT][2] = {
    [KIND_UNIFORM_BUFFER] = {CAPABILITY_UNIFORM_BUFFER_ARRAY_DYNAMIC_INDEXING,
                             CAPABILITY_UNIFORM_BUFFER_ARRAY_NON_UNIFORM_INDEXING},
    [KIND_SAMPLED_IMAGE] = {CAPABILITY_SAMPLED_IMAGE_ARRAY_DYNAMIC_INDEXING,
                            CAPABILITY_SAMPLED_IMAGE_ARRAY_NON_UNIFORM_INDEXING},
    [KIND_STORAGE_BUFFER] = {CAPABILITY_STORAGE_BUFFER_ARRAY_DYNAMIC_INDEXING,
                             CAPABILITY_STORAGE_BUFFER_ARRAY_NON_UNIFORM_INDEXING},
    [KIND_STORAGE_IMAGE] = {CAPABILITY_STORAGE_IMAGE_ARRAY_DYNAMIC_INDEXING,
                            CAPABILITY_STORAGE_IMAGE_ARRAY_NON_UNIFORM_INDEXING},
    [KIND_INPUT_ATTACHMENT] = {CAPABILITY_INPUT_ATTACHMENT_ARRAY_DYNAMIC_INDEXING,
                               CAPABILITY_INPUT_ATTACHMENT_ARRAY_NON_UNIFORM_INDEXING},
    [KIND_UNIFORM_TEXEL_BUFFER] = {CAPABILITY_UNIFORM_TEXEL_BUFFER_ARRAY_DYNAMIC_INDEXING,
                                   CAPABILITY_UNIFORM_TEXEL_BUFFER_ARRAY_NON_UNIFORM_INDEXING},
    [KIND_STORAGE_TEXEL_BUFFER] = {CAPABILITY_STORAGE_TEXEL_BUFFER_ARRAY_DYNAMIC_INDEXING,
                                   CAPABILITY_STORAGE_TEXEL_BUFFER_ARRAY_NON_UNIFORM_INDEXING},
};

/* What an id is, besides its defining instruction (the bits of a byte per id). */
enum {
    ID_NON_UNIFORM = 1,  /* decorated NonUniform */
    ID_BUFFER_BLOCK = 2, /* a struct decorated BufferBlock: a storage buffer of Uniform storage */
    ID_REACHED = 4,      /* an access chain a NonUniform value was made from */
    ID_CONSTANT = 8,     /* a constant: a constant instruction's result (OpConstant,
                            OpSpecConstant, ...), or a parameter every call gives a constant */
    ID_TRACED = 16,      /* reach_back() has been here: each id is traced once */
    ID_CALLED = 32,      /* a function parameter some OpFunctionCall gives a value */
    ID_GIVEN_OTHER = 64, /* a parameter some call gives what is not a constant (one pass's) */
};

/* A module's instructions as the indexing rules read them. */
typedef struct module_ids {
    const uint8_t *code;
    bool swap;
    const uint32_t *def; /* the defining instruction's word, per id (0: none) */
    uint8_t *is;         /* ID_* bits, per id */
    uint32_t bound;
} module_ids;

/* Word `k` of the instruction that defines `id` (0 when it has none or fewer words). */
static uint32_t def_word(const module_ids *m, uint32_t id, uint32_t k)
{
    if (id >= m->bound || !m->def[id])
        return 0;
    uint32_t w = spirv_word(m->code + 4 * m->def[id], m->swap);
    return k < (w >> 16) ? spirv_word(m->code + 4 * (m->def[id] + k), m->swap) : 0;
}

/* The opcode of the instruction that defines `id` (0 for none). */
static uint32_t def_op(const module_ids *m, uint32_t id)
{
    return id < m->bound && m->def[id] ? def_word(m, id, 0) & 0xffffu : 0;
}

/* The kind of descriptor of type `type` in a variable of `storage`. */
static enum descriptor_kind descriptor_kind_of(const module_ids *m, uint32_t type, uint32_t storage)
{
    switch (def_op(m, type)) {
    case OP_TYPE_IMAGE: {
        uint32_t dim = def_word(m, type, 3), sampled = def_word(m, type, 7);
        if (dim == SPV_DIM_SUBPASS_DATA)
            return KIND_INPUT_ATTACHMENT;
        if (dim == SPV_DIM_BUFFER)
            return sampled == 2 ? KIND_STORAGE_TEXEL_BUFFER : KIND_UNIFORM_TEXEL_BUFFER;
        return sampled == 2 ? KIND_STORAGE_IMAGE : KIND_SAMPLED_IMAGE;
    }
    case OP_TYPE_SAMPLED_IMAGE:
        return def_word(m, def_word(m, type, 2), 3) == SPV_DIM_BUFFER ? KIND_UNIFORM_TEXEL_BUFFER
                                                                       : KIND_SAMPLED_IMAGE;
    case OP_TYPE_SAMPLER:
        return KIND_SAMPLED_IMAGE;
    case OP_TYPE_STRUCT:
        if (storage == STORAGE_STORAGE_BUFFER ||
            (storage == STORAGE_UNIFORM && (m->is[type] & ID_BUFFER_BLOCK)))
            return KIND_STORAGE_BUFFER;
        return storage == STORAGE_UNIFORM ? KIND_UNIFORM_BUFFER : KIND_NONE;
    default:
        return KIND_NONE;
    }
}

/*
 * Marks ID_REACHED the access chain the NonUniform value `id` was made from:
 * back through loads, copies, OpImage, OpImageTexelPointer and both operands
 * of OpSampledImage, to the first access chain.
 */
static void reach_back(module_ids *m, uint32_t id, unsigned depth)
{
    for (; depth < 64 && id < m->bound && !(m->is[id] & ID_TRACED); depth++) {
        m->is[id] |= ID_TRACED;
        switch (def_op(m, id)) {
        case OP_ACCESS_CHAIN:
        case OP_IN_BOUNDS_ACCESS_CHAIN:
            m->is[id] |= ID_REACHED;
            return;
        case OP_SAMPLED_IMAGE:
            reach_back(m, def_word(m, id, 4), depth + 1); /* the sampler */
            id = def_word(m, id, 3);
            break;
        case OP_LOAD:
        case OP_COPY_OBJECT:
        case OP_IMAGE:
        case OP_IMAGE_TEXEL_POINTER:
            id = def_word(m, id, 3);
            break;
        default:
            return;
        }
    }
}

/*
 * The capabilities of the descriptor arrays an access chain (the instruction
 * at word `i`) indexes: where its base is a variable of UniformConstant,
 * Uniform or StorageBuffer storage holding an array of descriptors, the
 * array's kind is indexed dynamically when an index into the array is not a
 * constant, and non-uniformly when such an index or the access chain is
 * decorated NonUniform, or a NonUniform value was made from it (ID_REACHED).
 * `*dynamic` and `*non_uniform` get the kinds' capabilities (0: none).
 */
static void access_chain_indexing(const module_ids *m, size_t i, uint32_t *dynamic,
                                  uint32_t *non_uniform)
{
    *dynamic = *non_uniform = 0;
    uint32_t w = spirv_word(m->code + 4 * i, m->swap), count = w >> 16;
    uint32_t result = spirv_word(m->code + 4 * (i + 2), m->swap);
    uint32_t base = spirv_word(m->code + 4 * (i + 3), m->swap);
    for (int hops = 0; hops < 64 && def_op(m, base) == OP_COPY_OBJECT; hops++)
        base = def_word(m, base, 3);
    if (def_op(m, base) != OP_VARIABLE)
        return;
    uint32_t pointer = def_word(m, base, 1);
    uint32_t storage = def_word(m, pointer, 2), type = def_word(m, pointer, 3);
    if (def_op(m, pointer) != OP_TYPE_POINTER ||
        (storage != STORAGE_UNIFORM_CONSTANT && storage != STORAGE_UNIFORM &&
         storage != STORAGE_STORAGE_BUFFER))
        return;
    bool is_dynamic = false, is_non_uniform = result < m->bound && (m->is[result] & ID_REACHED);
    uint32_t k = 4;
    for (; k < count; k++) {
        uint32_t op = def_op(m, type);
        if (op != OP_TYPE_ARRAY && op != OP_TYPE_RUNTIME_ARRAY)
            break;
        uint32_t index = spirv_word(m->code + 4 * (i + k), m->swap);
        uint8_t is = index < m->bound ? m->is[index] : 0;
        is_dynamic |= !(is & ID_CONSTANT);
        is_non_uniform |= (is & ID_NON_UNIFORM) != 0;
        type = def_word(m, type, 2);
    }
    if (k == 4) /* no index into an array of descriptors */
        return;
    while (def_op(m, type) == OP_TYPE_ARRAY || def_op(m, type) == OP_TYPE_RUNTIME_ARRAY)
        type = def_word(m, type, 2);
    enum descriptor_kind kind = descriptor_kind_of(m, type, storage);
    if (kind == KIND_NONE)
        return;
    /* A value that is not dynamically uniform is not constant either. */
    *dynamic = is_dynamic || is_non_uniform ? indexing[kind][0] : 0;
    *non_uniform = is_non_uniform ? indexing[kind][1] : 0;
}

/*
 * What the parameters of the module's functions are, from what every
 * OpFunctionCall gives them: a parameter is a constant (ID_CONSTANT) where
 * every call gives it a constant, and NonUniform (ID_NON_UNIFORM) where a
 * call gives it a NonUniform value; each pass over the calls settles one
 * more level of calls (Slang 2025.15 puts a texel buffer's load in a function
 * of its own that takes the array's index).
 */
static void parameters_from_calls(module_ids *m, size_t words)
{
    bool changed = true;
    for (int pass = 0; changed && pass < 8; pass++) {
        changed = false;
        for (uint32_t id = 0; id < m->bound; id++)
            m->is[id] &= (uint8_t)~ID_GIVEN_OTHER;
        for (size_t i = SPV_HEADER_WORDS; i < words;) {
            uint32_t w = spirv_word(m->code + 4 * i, m->swap), count = w >> 16;
            uint32_t callee = count >= 4 ? spirv_word(m->code + 4 * (i + 3), m->swap) : 0;
            if ((w & 0xffffu) == OP_FUNCTION_CALL && def_op(m, callee) == OP_FUNCTION) {
                /* the callee's parameters follow its OpFunction, one argument each */
                size_t at = m->def[callee];
                at += spirv_word(m->code + 4 * at, m->swap) >> 16;
                for (uint32_t k = 4; k < count && at + 3 <= words; k++) {
                    uint32_t pw = spirv_word(m->code + 4 * at, m->swap);
                    if ((pw & 0xffffu) != OP_FUNCTION_PARAMETER || (pw >> 16) < 3)
                        break;
                    uint32_t param = spirv_word(m->code + 4 * (at + 2), m->swap);
                    uint32_t arg = spirv_word(m->code + 4 * (i + k), m->swap);
                    uint8_t given = arg < m->bound ? m->is[arg] : 0;
                    if (param < m->bound) {
                        m->is[param] |= ID_CALLED;
                        if (!(given & ID_CONSTANT))
                            m->is[param] |= ID_GIVEN_OTHER;
                        if ((given & ID_NON_UNIFORM) && !(m->is[param] & ID_NON_UNIFORM)) {
                            m->is[param] |= ID_NON_UNIFORM;
                            changed = true;
                        }
                    }
                    at += pw >> 16;
                }
            }
            i += count;
        }
        for (uint32_t id = 0; id < m->bound; id++)
            if ((m->is[id] & (ID_CALLED | ID_GIVEN_OTHER | ID_CONSTANT)) == ID_CALLED &&
                def_op(m, id) == OP_FUNCTION_PARAMETER) {
                m->is[id] |= ID_CONSTANT;
                changed = true;
            }
    }
}

/*
 * The capabilities of how the module uses its descriptor arrays, which
 * Slang's code does not always declare: RuntimeDescriptorArray for a
 * variable of UniformConstant, Uniform or StorageBuffer storage that is a
 * runtime array; per access chain into an array of descriptors,
 * <Kind>ArrayDynamicIndexing and <Kind>ArrayNonUniformIndexing
 * (access_chain_indexing(); an index that is a function's parameter is what
 * the calls give it: parameters_from_calls()). Adds them to `f`; false when
 * out of memory.
 */
static bool descriptor_indexing(module_ids *m, size_t words, dgpb_code_features *f, size_t *cap)
{
    parameters_from_calls(m, words);
    for (uint32_t id = 0; id < m->bound; id++)
        if (m->is[id] & ID_NON_UNIFORM)
            reach_back(m, id, 0);
    for (size_t i = SPV_HEADER_WORDS; i < words;) {
        uint32_t w = spirv_word(m->code + 4 * i, m->swap), count = w >> 16, op = w & 0xffffu;
        if (op == OP_VARIABLE && count >= 4) {
            uint32_t pointer = spirv_word(m->code + 4 * (i + 1), m->swap);
            uint32_t storage = def_word(m, pointer, 2);
            if (def_op(m, pointer) == OP_TYPE_POINTER &&
                (storage == STORAGE_UNIFORM_CONSTANT || storage == STORAGE_UNIFORM ||
                 storage == STORAGE_STORAGE_BUFFER) &&
                def_op(m, def_word(m, pointer, 3)) == OP_TYPE_RUNTIME_ARRAY &&
                !features_add(f, cap, CAPABILITY_RUNTIME_DESCRIPTOR_ARRAY, "", 0))
                return false;
        }
        if ((op == OP_ACCESS_CHAIN || op == OP_IN_BOUNDS_ACCESS_CHAIN) && count >= 5) {
            uint32_t dynamic, non_uniform;
            access_chain_indexing(m, i, &dynamic, &non_uniform);
            if ((dynamic && !features_add(f, cap, dynamic, "", 0)) ||
                (non_uniform && !features_add(f, cap, non_uniform, "", 0)))
                return false;
        }
        i += count;
    }
    return true;
}

/* Whether `op` defines its result id in word 2 and the indexing rules read it. */
static bool defines_in_word_2(uint32_t op)
{
    switch (op) {
    case OP_VARIABLE:
    case OP_ACCESS_CHAIN:
    case OP_IN_BOUNDS_ACCESS_CHAIN:
    case OP_LOAD:
    case OP_COPY_OBJECT:
    case OP_SAMPLED_IMAGE:
    case OP_IMAGE:
    case OP_IMAGE_TEXEL_POINTER:
    case OP_FUNCTION:
    case OP_FUNCTION_PARAMETER:
        return true;
    default:
        return false;
    }
}

/* Whether `op` is a constant instruction of a scalar (an index is one). */
static bool is_constant_op(uint32_t op)
{
    return op == OP_CONSTANT_TRUE || op == OP_CONSTANT_FALSE || op == OP_CONSTANT ||
           op == OP_CONSTANT_NULL || op == OP_SPEC_CONSTANT_TRUE ||
           op == OP_SPEC_CONSTANT_FALSE || op == OP_SPEC_CONSTANT || op == OP_SPEC_CONSTANT_OP;
}

/*
 * OpCapability operands, from the words after the five-word header; and the
 * 8- and 16-bit storage capabilities a module needs for a variable of
 * buffer, uniform or push-constant storage that holds an 8- or 16-bit scalar
 * (StorageBuffer16BitAccess, UniformAndStorageBuffer16BitAccess,
 * StoragePushConstant16 and their 8-bit rows), added where the module leaves
 * them out (Slang 2025.15 writes a StructuredBuffer<half> without them); and
 * GeometryPointSize or TessellationPointSize for a module with an entry
 * point of the Geometry or a tessellation execution model and a `BuiltIn
 * PointSize` decoration (Slang 2025.15 writes a geometry shader's
 * SV_PointSize without the capability Vulkan asks for it); and the
 * capabilities of how it indexes its descriptor arrays (descriptor_indexing():
 * Slang 2025.15 decorates `textures[NonUniformResourceIndex(i)]` NonUniform
 * without SampledImageArrayNonUniformIndexing, and no Slang declares the
 * dynamic indexing of an array).
 */
int spirv_features_read(const uint8_t *code, size_t size, dgpb_code_features *f, dgpb_diag *d)
{
    bool swap;
    int rc = spirv_words_check(code, size, &swap, d);
    if (rc)
        return rc;
    size_t words = size / 4, cap = 0;
    uint32_t bound = spirv_word(code + 12, swap);
    if (bound > words) /* ids are defined by instructions, so never more than the words */
        bound = (uint32_t)words;
    uint32_t *def = mem_calloc(bound ? bound : 1, sizeof *def); /* defining instruction */
    uint8_t *seen = mem_calloc(bound ? bound : 1, 1);
    uint8_t *is = mem_calloc(bound ? bound : 1, 1); /* ID_* bits */
    rc = def && seen && is ? DGPB_OK : dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    bool geometry = false, tessellation = false, point_size = false;
    for (size_t i = SPV_HEADER_WORDS; !rc && i < words;) {
        uint32_t w = spirv_word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
        if (count == 0 || count > words - i) {
            rc = dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)(4 * i),
                               "SPIR-V: the instruction at word %zu has a word count of %u, "
                               "past the module's end",
                               i, count);
            break;
        }
        if (op == OP_CAPABILITY && count == 2 &&
            !features_add(f, &cap, spirv_word(code + 4 * (i + 1), swap), "", 0))
            rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
        if (op >= OP_TYPE_INT && op <= OP_TYPE_POINTER && count >= 2) {
            uint32_t id = spirv_word(code + 4 * (i + 1), swap);
            if (id < bound)
                def[id] = (uint32_t)i;
        }
        if ((defines_in_word_2(op) || is_constant_op(op)) && count >= 3) {
            uint32_t id = spirv_word(code + 4 * (i + 2), swap);
            if (id < bound) {
                def[id] = (uint32_t)i;
                is[id] |= is_constant_op(op) ? ID_CONSTANT : 0;
            }
        }
        if (op == OP_DECORATE && count >= 3) {
            uint32_t id = spirv_word(code + 4 * (i + 1), swap);
            uint32_t decoration = spirv_word(code + 4 * (i + 2), swap);
            if (id < bound && decoration == DECORATION_NON_UNIFORM)
                is[id] |= ID_NON_UNIFORM;
            else if (id < bound && decoration == DECORATION_BUFFER_BLOCK)
                is[id] |= ID_BUFFER_BLOCK;
        }
        if (op == OP_ENTRY_POINT && count >= 2) {
            uint32_t model = spirv_word(code + 4 * (i + 1), swap);
            geometry |= model == MODEL_GEOMETRY;
            tessellation |=
                model == MODEL_TESSELLATION_CONTROL || model == MODEL_TESSELLATION_EVALUATION;
        }
        /* OpDecorate id BuiltIn PointSize; OpMemberDecorate type member BuiltIn PointSize */
        size_t at = op == OP_DECORATE ? 2 : op == OP_MEMBER_DECORATE ? 3 : 0;
        if (at && count >= at + 2 && spirv_word(code + 4 * (i + at), swap) == DECORATION_BUILT_IN &&
            spirv_word(code + 4 * (i + at + 1), swap) == BUILT_IN_POINT_SIZE)
            point_size = true;
        i += count;
    }
    if (!rc && point_size &&
        ((geometry && !features_add(f, &cap, CAPABILITY_GEOMETRY_POINT_SIZE, "", 0)) ||
         (tessellation && !features_add(f, &cap, CAPABILITY_TESSELLATION_POINT_SIZE, "", 0))))
        rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    /* The variables' storage: 8- and 16-bit scalars in buffers, uniforms and push constants. */
    for (size_t i = SPV_HEADER_WORDS; !rc && i < words;) {
        uint32_t w = spirv_word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
        uint32_t type = count >= 4 ? spirv_word(code + 4 * (i + 1), swap) : 0;
        i += count;
        if (op != OP_VARIABLE || type >= bound || !def[type])
            continue;
        size_t p = def[type];
        if ((spirv_word(code + 4 * p, swap) & 0xffffu) != OP_TYPE_POINTER ||
            (spirv_word(code + 4 * p, swap) >> 16) < 4)
            continue;
        uint32_t storage = spirv_word(code + 4 * (p + 2), swap);
        if (storage != STORAGE_UNIFORM && storage != STORAGE_PUSH_CONSTANT &&
            storage != STORAGE_STORAGE_BUFFER && storage != STORAGE_PHYSICAL_STORAGE_BUFFER)
            continue;
        unsigned narrow =
            narrow_in(code, swap, def, bound, spirv_word(code + 4 * (p + 3), swap), seen, 0);
        /* StorageBuffer16BitAccess 4433, UniformAndStorageBuffer16BitAccess 4434,
           StoragePushConstant16 4435; the 8-bit ones 4448, 4449, 4450. */
        uint32_t row = storage == STORAGE_UNIFORM ? 1 : storage == STORAGE_PUSH_CONSTANT ? 2 : 0;
        if (((narrow & 16) && !features_add(f, &cap, 4433 + row, "", 0)) ||
            ((narrow & 8) && !features_add(f, &cap, 4448 + row, "", 0)))
            rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    module_ids m = {.code = code, .swap = swap, .def = def, .is = is, .bound = bound};
    if (!rc && !descriptor_indexing(&m, words, f, &cap))
        rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    dgpb_free(def);
    dgpb_free(seen);
    dgpb_free(is);
    return rc;
}
