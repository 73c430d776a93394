/*
 * spirv_validate.c - SPIR-V validation by the rules of the module's own
 * Vulkan version, and what a SPIRV-Tools older than the code cannot judge
 * (code/spirv/spirv.h; the rule is docs/build.md, "Validation").
 *
 * The module (a copy without OpSource) is validated in the Vulkan
 * environment its SPIR-V version implies, with scalar block layouts when
 * the build's block layout asks for them. When that fails, these failures
 * are known not to be the code's fault, and become a warning:
 *
 *   - a number SPIRV-Tools does not know: its parser stops at an opcode or
 *     an operand (a capability, an execution mode, ...) newer than its
 *     grammar ("Invalid capability operand: 5336"). Nothing past it can be
 *     validated.
 *   - a failure one of the readings below (`readings`) answers: the copy is
 *     read as the validator knows it, or as drivers take it, and validated
 *     again, to the end:
 *       - a capability it knows only through an extension the code declares
 *         under a newer name: SPIRV-Tools 2023.1 knows ComputeDerivativeGroup*
 *         through SPV_NV_compute_shader_derivatives alone, and Slang declares
 *         its promotion, SPV_KHR_compute_shader_derivatives. An extension of
 *         the code that the validator does not list for the capability, named
 *         like one it lists but for the vendor (SPV_<VENDOR>_<name>), is read
 *         as that one;
 *       - a rule SPIR-V has since lifted: variables and function parameters
 *         holding PhysicalStorageBuffer pointers needed AliasedPointer or
 *         RestrictPointer (Aliased or Restrict) until SPIR-V 1.6 revision 5;
 *         they are read as AliasedPointer (Aliased);
 *       - a geometry shader of SPIR-V 1.3 or 1.4 that declares ShaderLayer or
 *         ShaderViewportIndex, capabilities of SPIR-V 1.5, for the Layer and
 *         ViewportIndex it writes: read as Geometry and MultiViewport, the
 *         capabilities through which a geometry shader of its version writes
 *         them;
 *       - a rule of the debug information (NonSemantic.Shader.DebugInfo.100,
 *         what -g writes): non-semantic instructions change nothing a driver
 *         runs, and a driver may drop them; the copy is validated without
 *         them.
 *
 * Every other failure is the code's: an error with SPIRV-Tools' message.
 */
#define _POSIX_C_SOURCE 200809L
#include "code/spirv/spirv.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#define DGPB_SPIRV_TU dgpb__spirv_validate_c_max_id_bound
#include "code/spirv/spirv_numbers.h"
#include "code/spirv/spirv_tools.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MESSAGE_MAX 512

/* The SPIR-V capabilities of the vocabulary, by number: how a warning names one. */
static const struct {
    uint32_t target, number;
    const char *name;
} capability_rows[] = {
#define DGPB_CODE_FEATURE(TARGET, number, name, CAP) {DGPB_TARGET_##TARGET, number, name},
#include "dgpb/vocabulary.def"
};

static const char *capability_name(uint32_t number)
{
    for (size_t i = 0; i < ARRAY_LEN(capability_rows); i++)
        if (capability_rows[i].target == DGPB_TARGET_SPIRV && capability_rows[i].number == number)
            return capability_rows[i].name;
    return NULL;
}

/* A validation's failure: SPIRV-Tools' message (its first line) and where. */
typedef struct failure {
    char message[MESSAGE_MAX];
    int64_t at;
} failure;

/*
 * Validates `n` words in `env`, with scalar block layouts when `scalar`:
 * DGPB_OK, DGPB_ERR_SHADER with *f filled, or DGPB_ERR_NOMEM.
 */
static int validate_in(spv_target_env env, bool scalar, const uint32_t *w, size_t n, failure *f)
{
    spv_context ctx = spvContextCreate(env);
    spv_validator_options options = spvValidatorOptionsCreate();
    if (!ctx || !options) {
        spvValidatorOptionsDestroy(options);
        spvContextDestroy(ctx);
        return DGPB_ERR_NOMEM;
    }
    spvValidatorOptionsSetScalarBlockLayout(options, scalar);
    spv_const_binary_t bin = {w, n};
    spv_diagnostic sd = NULL;
    int rc = DGPB_OK;
    if (spvValidateWithOptions(ctx, options, &bin, &sd) != SPV_SUCCESS) {
        rc = DGPB_ERR_SHADER;
        const char *m = sd && sd->error ? sd->error : "unknown error";
        size_t len = strcspn(m, "\n");
        snprintf(f->message, sizeof f->message, "%.*s", (int)len, m);
        while (len && f->message[len - 1] == ' ')
            f->message[--len] = 0;
        f->at = sd ? (int64_t)sd->position.index * 4 : -1;
    }
    spvDiagnosticDestroy(sd);
    spvValidatorOptionsDestroy(options);
    spvContextDestroy(ctx);
    return rc;
}

static spv_result_t no_header(void *user, spv_endianness_t e, uint32_t magic, uint32_t version,
                              uint32_t generator, uint32_t bound, uint32_t schema)
{
    (void)user, (void)e, (void)magic, (void)version, (void)generator, (void)bound, (void)schema;
    return SPV_SUCCESS;
}

static spv_result_t no_instruction(void *user, const spv_parsed_instruction_t *p)
{
    (void)user, (void)p;
    return SPV_SUCCESS;
}

/* Whether SPIRV-Tools' parser reads the whole module. */
static bool parses(const uint32_t *w, size_t n)
{
    spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    if (!ctx)
        return true; /* no memory: not the code's age */
    spv_diagnostic sd = NULL;
    spv_result_t r = spvBinaryParse(ctx, NULL, w, n, no_header, no_instruction, &sd);
    spvDiagnosticDestroy(sd);
    spvContextDestroy(ctx);
    return r == SPV_SUCCESS;
}

/* ---- extensions ---- */

/* The NUL-terminated literal of OpExtension at w[at], or NULL when it is not one. */
static const char *extension_at(const uint32_t *w, size_t n, size_t at)
{
    uint32_t count = w[at] >> 16;
    if ((w[at] & 0xffffu) != OP_EXTENSION || count < 2 || at + count > n)
        return NULL;
    const char *s = (const char *)(w + at + 1);
    return memchr(s, 0, (count - 1) * 4) ? s : NULL;
}

/* "compute_shader_derivatives" of "SPV_KHR_compute_shader_derivatives"; NULL for another form. */
static const char *extension_stem(const char *name)
{
    if (strncmp(name, "SPV_", 4))
        return NULL;
    const char *u = strchr(name + 4, '_');
    return u && u > name + 4 && u[1] ? u + 1 : NULL;
}

/* A copy of the module with OpExtension `from` declaring `to` (*out, dgpb_free). */
static int rename_extension(const uint32_t *w, size_t n, const char *from, const char *to,
                            uint32_t **out, size_t *out_n)
{
    size_t to_words = 1 + (strlen(to) + 4) / 4;
    uint32_t *copy = mem_calloc(n + to_words, sizeof *copy);
    if (!copy)
        return DGPB_ERR_NOMEM;
    size_t k = 0;
    for (size_t at = 0; at < n;) {
        size_t count = at < SPV_HEADER_WORDS ? 1 : (w[at] >> 16);
        const char *ext = at < SPV_HEADER_WORDS ? NULL : extension_at(w, n, at);
        if (ext && !strcmp(ext, from)) {
            copy[k] = (uint32_t)(to_words << 16) | OP_EXTENSION;
            memcpy(copy + k + 1, to, strlen(to));
            k += to_words;
        } else {
            memcpy(copy + k, w + at, count * 4);
            k += count;
        }
        at += count;
    }
    *out = copy;
    *out_n = k;
    return DGPB_OK;
}

/*
 * For a failure that says a capability needs an extension, the extension of
 * the code the validator would know by another vendor's name: from the
 * universal environment's message ("operand X(N) requires one of these
 * extensions: E1 E2"), an OpExtension of the module not among the Ei whose
 * stem is an Ei's. *code_name, *known_name, *capability: its name, the Ei,
 * "X (N)". False when there is none.
 */
static bool promoted_extension(spv_target_env universal, const uint32_t *w, size_t n,
                               const failure *f, char *code_name, char *known_name, size_t size,
                               char *capability, size_t cap_size)
{
    static const char needs[] = " requires one of these extensions: ";
    if (!strstr(f->message, needs) &&
        !(strncmp(f->message, "Capability ", 11) == 0 && strstr(f->message, " is not allowed by ")))
        return false;
    failure u;
    if (validate_in(universal, false, w, n, &u) != DGPB_ERR_SHADER)
        return false;
    const char *list = strstr(u.message, needs), *op = NULL;
    for (const char *o = u.message; list && (o = strstr(o, "operand ")) && o < list; o++)
        op = o; /* the last before the list: "... operand X(N) requires ..." */
    if (!list || !op)
        return false;
    const char *paren = strchr(op, '(');
    if (!paren || paren > list)
        return false;
    snprintf(capability, cap_size, "%.*s (%.*s", (int)(paren - op - 8), op + 8,
             (int)(list - paren - 1), paren + 1);
    list += sizeof needs - 1;
    for (size_t at = SPV_HEADER_WORDS; at < n; at += w[at] >> 16) {
        const char *ext = extension_at(w, n, at), *stem = ext ? extension_stem(ext) : NULL;
        if (!stem)
            continue;
        for (const char *k = list; *k;) {
            size_t len = strcspn(k, " ");
            if (len == strlen(ext) && !memcmp(k, ext, len))
                break; /* the validator knows this one for the capability */
            const char *known_stem = extension_stem(k);
            if (len > 4 && known_stem && (size_t)(k + len - known_stem) == strlen(stem) &&
                !memcmp(known_stem, stem, strlen(stem))) {
                snprintf(code_name, size, "%s", ext);
                snprintf(known_name, size, "%.*s", (int)len, k);
                return true;
            }
            k += len;
            k += strspn(k, " ");
        }
    }
    return false;
}

/* ---- readings: the copy read as the validator knows it, or as drivers take it ---- */

/* What a reading knows of the module and of its failure. */
typedef struct reading_in {
    const uint32_t *w; /* the module as validated last (without OpSource) */
    size_t n;
    const failure *f;       /* how it failed */
    spv_target_env universal; /* the universal environment of its SPIR-V version */
    const char *tools;        /* SPIRV-Tools' version */
} reading_in;

/*
 * A reading: when it answers the failure, DGPB_OK with a copy of the module
 * read so (*out, *out_n; dgpb_free) and what it read in `said`; else
 * DGPB_ERR_SHADER; or DGPB_ERR_NOMEM.
 */
typedef int (*reading_fn)(const reading_in *in, uint32_t **out, size_t *out_n, char *said,
                          size_t size);

/* A copy of `n` words with room for `extra` more, or NULL. */
static uint32_t *copy_words(const uint32_t *w, size_t n, size_t extra)
{
    uint32_t *copy = mem_calloc(n + extra, sizeof *copy);
    if (copy)
        memcpy(copy, w, n * sizeof *w);
    return copy;
}

/* Extensions the validator knows by their older names (SPV_<VENDOR>_<name>). */
static int read_extension_names(const reading_in *in, uint32_t **out, size_t *out_n, char *said,
                                size_t size)
{
    char from[128], to[128], capability[160];
    if (!promoted_extension(in->universal, in->w, in->n, in->f, from, to, sizeof from,
                            capability, sizeof capability))
        return DGPB_ERR_SHADER;
    if (rename_extension(in->w, in->n, from, to, out, out_n))
        return DGPB_ERR_NOMEM;
    snprintf(said, size, "%s read as %s, through which SPIRV-Tools %s knows SPIR-V capability %s",
             from, to, in->tools, capability);
    return DGPB_OK;
}

/* Whether `id` has an OpDecorate of decoration `a` or `b`. */
static bool decorated(const uint32_t *w, size_t n, uint32_t id, uint32_t a, uint32_t b)
{
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16)
        if ((w[i] & 0xffffu) == OP_DECORATE && (w[i] >> 16) >= 3 && w[i + 1] == id &&
            (w[i + 2] == a || w[i + 2] == b))
            return true;
    return false;
}

/* Whether `type` is a PhysicalStorageBuffer pointer, through arrays when `arrays`. */
static bool holds_device_address(const uint32_t *w, const uint32_t *def, uint32_t bound,
                                 uint32_t type, bool arrays)
{
    for (int depth = 0; type < bound && def[type] && depth < 64; depth++) {
        const uint32_t *t = w + def[type];
        uint32_t op = t[0] & 0xffffu;
        if (op == OP_TYPE_POINTER)
            return t[2] == STORAGE_PHYSICAL_STORAGE_BUFFER;
        if (!arrays || (op != OP_TYPE_ARRAY && op != OP_TYPE_RUNTIME_ARRAY))
            return false;
        type = t[2];
    }
    return false;
}

/*
 * Variables and function parameters holding PhysicalStorageBuffer pointers
 * without an aliasing decoration: SPIR-V 1.6 revision 5 lifted the rule
 * that they have one, which SPIRV-Tools 2023.1 still checks. Read as
 * AliasedPointer (variables) and Aliased (parameters), the decorations that
 * assume nothing.
 */
static int read_lifted_pointer_rule(const reading_in *in, uint32_t **out, size_t *out_n,
                                    char *said, size_t size)
{
    const char *m = in->f->message;
    if (!strstr(m, "expected AliasedPointer or RestrictPointer for PhysicalStorageBuffer") &&
        !strstr(m, "expected Aliased or Restrict for PhysicalStorageBuffer"))
        return DGPB_ERR_SHADER;
    const uint32_t *w = in->w;
    size_t n = in->n, annotations = 0, variables = 0, parameters = 0;
    uint32_t bound = w[3];
    uint32_t *def = mem_calloc(bound ? bound : 1, sizeof *def);
    if (!def)
        return DGPB_ERR_NOMEM;
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffffu, count = w[i] >> 16;
        if (((op == OP_TYPE_POINTER && count >= 4) || op == OP_TYPE_ARRAY ||
             op == OP_TYPE_RUNTIME_ARRAY) &&
            count >= 3 && w[i + 1] < bound)
            def[w[i + 1]] = (uint32_t)i;
        bool annotation = op == OP_DECORATE || op == OP_MEMBER_DECORATE ||
                          op == OP_DECORATION_GROUP || op == OP_GROUP_DECORATE ||
                          op == OP_GROUP_MEMBER_DECORATE || op == OP_DECORATE_ID ||
                          op == OP_DECORATE_STRING || op == OP_MEMBER_DECORATE_STRING;
        if (annotation && !annotations)
            annotations = i;
    }
    /* The decorations to add, three words each once written. */
    struct {
        uint32_t id, decoration;
    } *add = NULL;
    size_t added = 0, cap = 0;
    int rc = DGPB_OK;
    for (size_t i = SPV_HEADER_WORDS; i < n && !rc; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffffu, count = w[i] >> 16, deco = 0;
        if (op == OP_VARIABLE && count >= 4 && w[i + 1] < bound && def[w[i + 1]] &&
            holds_device_address(w, def, bound, w[def[w[i + 1]] + 3], true) &&
            !decorated(w, n, w[i + 2], DECORATION_ALIASED_POINTER, DECORATION_RESTRICT_POINTER)) {
            deco = DECORATION_ALIASED_POINTER;
            variables++;
        } else if (op == OP_FUNCTION_PARAMETER && count >= 3 &&
                   holds_device_address(w, def, bound, w[i + 1], false) &&
                   !decorated(w, n, w[i + 2], DECORATION_ALIASED, DECORATION_RESTRICT)) {
            deco = DECORATION_ALIASED;
            parameters++;
        }
        if (!deco)
            continue;
        void *grown = mem_grow(add, added, &cap, sizeof *add, 8);
        if (!grown) {
            rc = DGPB_ERR_NOMEM;
            break;
        }
        add = grown;
        add[added].id = w[i + 2];
        add[added++].decoration = deco;
    }
    dgpb_free(def);
    if (!rc && (!added || !annotations))
        rc = DGPB_ERR_SHADER;
    uint32_t *copy = rc ? NULL : mem_calloc(n + added * 3, sizeof *copy);
    if (!rc && !copy)
        rc = DGPB_ERR_NOMEM;
    if (!rc) {
        memcpy(copy, w, annotations * sizeof *w);
        size_t k = annotations;
        for (size_t j = 0; j < added; j++) {
            copy[k++] = 3u << 16 | OP_DECORATE;
            copy[k++] = add[j].id;
            copy[k++] = add[j].decoration;
        }
        memcpy(copy + k, w + annotations, (n - annotations) * sizeof *w);
        *out = copy;
        *out_n = k + n - annotations;
        char what[160];
        if (variables && parameters)
            snprintf(what, sizeof what, "%zu variable%s read as AliasedPointer and %zu function "
                     "parameter%s as Aliased", variables, variables == 1 ? "" : "s", parameters,
                     parameters == 1 ? "" : "s");
        else if (variables)
            snprintf(what, sizeof what, "%zu variable%s read as AliasedPointer", variables,
                     variables == 1 ? "" : "s");
        else
            snprintf(what, sizeof what, "%zu function parameter%s read as Aliased", parameters,
                     parameters == 1 ? "" : "s");
        snprintf(said, size,
                 "%s (\"%s\": SPIRV-Tools %s asks every variable and parameter holding a "
                 "PhysicalStorageBuffer pointer for an aliasing decoration, a rule SPIR-V 1.6 "
                 "revision 5 lifted)",
                 what, m, in->tools);
    }
    dgpb_free(add);
    return rc;
}

/*
 * A geometry shader of SPIR-V 1.3 or 1.4 that declares ShaderLayer or
 * ShaderViewportIndex (SPIR-V 1.5's) for the Layer and ViewportIndex it
 * writes, as Slang's code for SV_RenderTargetArrayIndex and
 * SV_ViewportArrayIndex does: read as Geometry and MultiViewport, the
 * capabilities through which a geometry shader of its version writes them.
 */
static int read_geometry_layer(const reading_in *in, uint32_t **out, size_t *out_n, char *said,
                               size_t size)
{
    char kind[64];
    uint32_t number = 0;
    const uint32_t *w = in->w;
    size_t n = in->n, entries = 0;
    if (!spirv_unknown_number(in->f->message, kind, sizeof kind, &number) ||
        strcmp(kind, "capability") ||
        (number != CAPABILITY_SHADER_LAYER && number != CAPABILITY_SHADER_VIEWPORT_INDEX) ||
        w[1] >= 0x00010500u)
        return DGPB_ERR_SHADER;
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16)
        if ((w[i] & 0xffffu) == OP_ENTRY_POINT && (w[i] >> 16) >= 2) {
            if (w[i + 1] != MODEL_GEOMETRY)
                return DGPB_ERR_SHADER;
            entries++;
        }
    uint32_t *copy = entries ? copy_words(w, n, 0) : NULL;
    if (!entries)
        return DGPB_ERR_SHADER;
    if (!copy)
        return DGPB_ERR_NOMEM;
    bool layer = false, viewport = false;
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16) {
        if ((w[i] & 0xffffu) != OP_CAPABILITY || (w[i] >> 16) < 2)
            continue;
        if (w[i + 1] == CAPABILITY_SHADER_LAYER) {
            copy[i + 1] = CAPABILITY_GEOMETRY;
            layer = true;
        } else if (w[i + 1] == CAPABILITY_SHADER_VIEWPORT_INDEX) {
            copy[i + 1] = CAPABILITY_MULTI_VIEWPORT;
            viewport = true;
        }
    }
    *out = copy;
    *out_n = n;
    snprintf(said, size,
             "%s%s%s, capabilit%s of SPIR-V 1.5 declared in this SPIR-V 1.%u geometry shader, read "
             "as %s%s%s, through which a geometry shader of its version writes Layer and "
             "ViewportIndex",
             layer ? "ShaderLayer (69)" : "", layer && viewport ? " and " : "",
             viewport ? "ShaderViewportIndex (70)" : "", layer && viewport ? "ies" : "y",
             (w[1] >> 8) & 0xffu, layer ? "Geometry (2)" : "", layer && viewport ? " and " : "",
             viewport ? "MultiViewport (57)" : "");
    return DGPB_OK;
}

/* The NUL-terminated name of OpExtInstImport at w[at], or NULL when it is not one. */
static const char *import_at(const uint32_t *w, size_t n, size_t at)
{
    uint32_t count = w[at] >> 16;
    if ((w[at] & 0xffffu) != OP_EXT_INST_IMPORT || count < 3 || at + count > n)
        return NULL;
    const char *s = (const char *)(w + at + 2);
    return memchr(s, 0, (count - 2) * 4) ? s : NULL;
}

/* Whether the instruction at w[i] names or decorates its first operand (OpName, OpDecorate...). */
static bool names_or_decorates(const uint32_t *w, size_t i)
{
    uint32_t op = w[i] & 0xffffu;
    return (w[i] >> 16) >= 2 &&
           (op == OP_NAME || op == OP_MEMBER_NAME || op == OP_DECORATE ||
            op == OP_MEMBER_DECORATE || op == OP_DECORATE_ID || op == OP_DECORATE_STRING ||
            op == OP_MEMBER_DECORATE_STRING);
}

/*
 * A rule of the debug information (-g: NonSemantic.Shader.DebugInfo.100):
 * non-semantic instructions change nothing a driver runs, and a driver may
 * drop them, so the copy is validated without them (their OpExtInst and
 * OpExtInstImport instructions, and the names and decorations of their
 * results).
 */
static int read_without_debug_info(const reading_in *in, uint32_t **out, size_t *out_n,
                                   char *said, size_t size)
{
    if (strncmp(in->f->message, "NonSemantic.", 12))
        return DGPB_ERR_SHADER;
    const uint32_t *w = in->w;
    size_t n = in->n;
    uint32_t sets[8];
    size_t set_count = 0;
    for (size_t i = SPV_HEADER_WORDS; i < n && set_count < ARRAY_LEN(sets); i += w[i] >> 16) {
        const char *name = import_at(w, n, i);
        if (name && !strncmp(name, "NonSemantic.", 12))
            sets[set_count++] = w[i + 1];
    }
    if (!set_count)
        return DGPB_ERR_SHADER;
    uint32_t bound = w[3];
    uint32_t *copy = mem_calloc(n, sizeof *copy);
    uint8_t *gone = mem_calloc(bound ? bound : 1, 1); /* per id: a result left out */
    if (!copy || !gone) {
        dgpb_free(copy);
        dgpb_free(gone);
        return DGPB_ERR_NOMEM;
    }
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16)
        for (size_t s = 0; s < set_count; s++)
            if ((w[i] & 0xffffu) == OP_EXT_INST && (w[i] >> 16) >= 5 && w[i + 3] == sets[s] &&
                w[i + 2] < bound)
                gone[w[i + 2]] = 1;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t count = i < SPV_HEADER_WORDS ? 1 : w[i] >> 16;
        bool drop = i >= SPV_HEADER_WORDS && names_or_decorates(w, i) && w[i + 1] < bound &&
                    gone[w[i + 1]];
        for (size_t s = 0; i >= SPV_HEADER_WORDS && s < set_count && !drop; s++)
            drop = ((w[i] & 0xffffu) == OP_EXT_INST && count >= 5 && w[i + 3] == sets[s]) ||
                   ((w[i] & 0xffffu) == OP_EXT_INST_IMPORT && w[i + 1] == sets[s]);
        if (!drop) {
            memcpy(copy + k, w + i, count * sizeof *w);
            k += count;
        }
        i += count;
    }
    dgpb_free(gone);
    *out = copy;
    *out_n = k;
    snprintf(said, size,
             "the debug information left out (\"%s\": non-semantic instructions change nothing "
             "a driver runs, and a driver may drop them)",
             in->f->message);
    return DGPB_OK;
}

/* The readings, tried in order on each failure; `age`: the validator's age, not the code's. */
static const struct {
    reading_fn read;
    bool age;
} readings[] = {
    {read_extension_names, true},
    {read_lifted_pointer_rule, true},
    {read_geometry_layer, false},
    {read_without_debug_info, false},
};

/* ---- the validation ---- */

static int not_the_codes_fault(dgpb_diag *diag, int64_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * A warning (DGPB_ERR_UNSUPPORTED): the validator is older than the code, or
 * the code breaks a rule drivers do not hold it to.
 */
static int not_the_codes_fault(dgpb_diag *diag, int64_t at, const char *fmt, ...)
{
    char text[DGPB_DIAG_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    int rc = dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, at, "%s", text);
    if (diag)
        diag->severity = DGPB_SEV_WARNING;
    return rc;
}

/* 6 (SPIR-V 1.6): the newest minor version of a Vulkan environment SPIRV-Tools has here. */
static uint32_t newest_minor(void)
{
    uint32_t minor = 0;
    while (spirv_environment(1u << 16 | (minor + 1) << 8, NULL, NULL))
        minor++;
    return minor;
}

int spirv_validate(const void *code, size_t size, bool scalar_blocks, dgpb_diag *diag)
{
    uint32_t *words = NULL, *read = NULL, *now;
    size_t n = 0;
    int rc = spirv_strip_source(code, size, &words, &n, diag);
    if (rc)
        return rc;
    const char *tools = spvSoftwareVersionString();
    int vulkan = 0, universal = 0;
    const char *env = spirv_environment(words[1], &vulkan, &universal);
    if (!env) {
        rc = not_the_codes_fault(diag, 4,
                                 "SPIR-V not validated: the code is SPIR-V %u.%u, and SPIRV-Tools "
                                 "%s, older than the code, knows SPIR-V up to 1.%u",
                                 (words[1] >> 16) & 0xffu, (words[1] >> 8) & 0xffu, tools,
                                 newest_minor());
        goto done;
    }
    failure f;
    rc = validate_in((spv_target_env)vulkan, scalar_blocks, words, n, &f);
    char kind[64], read_as[2400] = "";
    uint32_t number = 0;
    if (rc == DGPB_ERR_SHADER && !parses(words, n) &&
        spirv_unknown_number(f.message, kind, sizeof kind, &number)) {
        const char *name = !strcmp(kind, "capability") ? capability_name(number) : NULL;
        rc = not_the_codes_fault(diag, f.at,
                                 "SPIR-V not validated (%s): SPIRV-Tools %s is older than the code "
                                 "and does not know its %s %u%s%s%s (\"%s\")",
                                 env, tools, kind, number, name ? " (" : "", name ? name : "",
                                 name ? ")" : "", f.message);
        goto done;
    }
    /* Failures a reading answers: the copy read so, validated again. */
    now = words;
    bool age = true;
    for (int round = 0; rc == DGPB_ERR_SHADER && round < 8; round++) {
        reading_in in = {now, n, &f, (spv_target_env)universal, tools};
        uint32_t *next = NULL;
        size_t next_n = 0, r = 0;
        char said[1200];
        int answered = DGPB_ERR_SHADER;
        for (; r < ARRAY_LEN(readings) && answered == DGPB_ERR_SHADER; r++)
            answered = readings[r].read(&in, &next, &next_n, said, sizeof said);
        if (answered == DGPB_ERR_NOMEM) {
            rc = DGPB_ERR_NOMEM;
            break;
        }
        if (answered)
            break;
        age = age && readings[r - 1].age;
        dgpb_free(read);
        read = now = next;
        n = next_n;
        size_t used = strlen(read_as);
        snprintf(read_as + used, sizeof read_as - used, "%s%s", used ? "; " : "", said);
        rc = validate_in((spv_target_env)vulkan, scalar_blocks, now, n, &f);
    }
    if (rc == DGPB_ERR_NOMEM) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    } else if (rc) {
        rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, f.at, "SPIR-V validation (%s) failed: %s%s%s%s",
                           env, f.message, read_as[0] ? " (with " : "", read_as,
                           read_as[0] ? ")" : "");
    } else if (read_as[0]) {
        rc = not_the_codes_fault(diag, -1, "SPIR-V validated (%s), %s: %s", env,
                                 age ? "the validator being older than the code"
                                     : "read as drivers take the code",
                                 read_as);
    }
done:
    dgpb_free(read);
    dgpb_free(words);
    return rc;
}
