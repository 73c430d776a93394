/*
 * spirv.c - SPIR-V helpers over SPIRV-Tools' C API (code/spirv/spirv.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "code/spirv/spirv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#define DGPB_SPIRV_TU dgpb__spirv_c_max_id_bound
#include "code/spirv/spirv_numbers.h"
#include "code/spirv/spirv_tools.h"

int spirv_strip_source(const void *code, size_t size, uint32_t **out, size_t *out_words,
                       dgpb_diag *diag)
{
    *out = NULL;
    *out_words = 0;
    if (size % 4 != 0 || size < SPV_HEADER_WORDS * 4)
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1,
                             "not a SPIR-V module: %zu bytes is not a whole header of words", size);
    size_t n = size / 4;
    uint32_t *w = mem_alloc(size);
    if (!w)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    memcpy(w, code, size);
    if (w[0] != SPV_MAGIC) {
        uint32_t magic = w[0];
        dgpb_free(w);
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, 0, "not a SPIR-V module: bad magic 0x%08x",
                             magic);
    }
    size_t in = SPV_HEADER_WORDS, outpos = SPV_HEADER_WORDS;
    while (in < n) {
        uint32_t count = w[in] >> 16, opcode = w[in] & 0xffffu;
        if (count == 0 || count > n - in) {
            dgpb_free(w);
            return dgpb_diag_set(diag, DGPB_ERR_CORRUPT, (int64_t)in * 4,
                                 "not a SPIR-V module: instruction of %u words at word %zu "
                                 "runs past the end",
                                 count, in);
        }
        if (opcode != OP_SOURCE) {
            memmove(w + outpos, w + in, count * 4);
            outpos += count;
        }
        in += count;
    }
    *out = w;
    *out_words = outpos;
    return DGPB_OK;
}

/* The Vulkan environments by SPIR-V minor version: the oldest Vulkan whose core takes it. */
static const struct {
    spv_target_env vulkan, universal;
    const char *name;
} environments[] = {
    {SPV_ENV_VULKAN_1_0, SPV_ENV_UNIVERSAL_1_0, "Vulkan 1.0"},
    {SPV_ENV_VULKAN_1_1, SPV_ENV_UNIVERSAL_1_1, "Vulkan 1.1"},
    {SPV_ENV_VULKAN_1_1, SPV_ENV_UNIVERSAL_1_2, "Vulkan 1.1"},
    {SPV_ENV_VULKAN_1_1, SPV_ENV_UNIVERSAL_1_3, "Vulkan 1.1"},
    {SPV_ENV_VULKAN_1_1_SPIRV_1_4, SPV_ENV_UNIVERSAL_1_4, "Vulkan 1.1 with SPIR-V 1.4"},
    {SPV_ENV_VULKAN_1_2, SPV_ENV_UNIVERSAL_1_5, "Vulkan 1.2"},
    {SPV_ENV_VULKAN_1_3, SPV_ENV_UNIVERSAL_1_6, "Vulkan 1.3"},
};

const char *spirv_environment(uint32_t version, int *vulkan, int *universal)
{
    uint32_t major = (version >> 16) & 0xffu, minor = (version >> 8) & 0xffu;
    if (major != 1 || minor >= sizeof environments / sizeof environments[0])
        return NULL;
    if (vulkan)
        *vulkan = (int)environments[minor].vulkan;
    if (universal)
        *universal = (int)environments[minor].universal;
    return environments[minor].name;
}

/*
 * The module without OpSource (*words, dgpb_free) and a SPIRV-Tools context
 * of its SPIR-V version (*ctx, spvContextDestroy; the newest one SPIRV-Tools
 * knows for a newer module), in which dgpb disassembles it. On an error
 * neither is left to release.
 */
static int open_module(const void *code, size_t size, uint32_t **words, size_t *nwords,
                       spv_context *ctx, dgpb_diag *diag)
{
    int rc = spirv_strip_source(code, size, words, nwords, diag);
    if (rc)
        return rc;
    int universal = SPV_ENV_UNIVERSAL_1_6;
    spirv_environment((*words)[1], NULL, &universal);
    *ctx = spvContextCreate((spv_target_env)universal);
    if (!*ctx) {
        dgpb_free(*words);
        *words = NULL;
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "cannot create a SPIRV-Tools context");
    }
    return DGPB_OK;
}

int spirv_disassemble(const void *code, size_t size, char **out_text, dgpb_diag *diag)
{
    *out_text = NULL;
    uint32_t *words;
    size_t nwords;
    spv_context ctx;
    int rc = open_module(code, size, &words, &nwords, &ctx, diag);
    if (rc)
        return rc;
    spv_text text = NULL;
    spv_diagnostic sd = NULL;
    const uint32_t options =
        SPV_BINARY_TO_TEXT_OPTION_INDENT | SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
    spv_result_t r = spvBinaryToText(ctx, words, nwords, options, &text, &sd);
    spv_context newest = NULL;
    if (r != SPV_SUCCESS && (newest = spvContextCreate(SPV_ENV_UNIVERSAL_1_6))) {
        /* Code that declares what a newer SPIR-V has (Slang's ShaderLayer in SPIR-V 1.4
           geometry shaders): shown as the newest grammar reads it. */
        spv_text again = NULL;
        spv_diagnostic sd_again = NULL;
        if (spvBinaryToText(newest, words, nwords, options, &again, &sd_again) == SPV_SUCCESS) {
            spvTextDestroy(text);
            spvDiagnosticDestroy(sd);
            text = again;
            sd = NULL;
            r = SPV_SUCCESS;
        }
        spvDiagnosticDestroy(sd_again);
        spvContextDestroy(newest);
    }
    if (r != SPV_SUCCESS || !text) {
        rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1, "SPIRV-Tools cannot disassemble: %s",
                           sd && sd->error ? sd->error : "unknown error");
        goto done;
    }
    *out_text = mem_alloc(text->length + 1);
    if (!*out_text) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    memcpy(*out_text, text->str, text->length);
    (*out_text)[text->length] = 0;
done:
    spvTextDestroy(text);
    spvDiagnosticDestroy(sd);
    spvContextDestroy(ctx);
    dgpb_free(words);
    return rc;
}

bool spirv_unknown_number(const char *m, char *kind, size_t size, uint32_t *number)
{
    static const char invalid[] = "Invalid ";
    const char *colon = strrchr(m, ':');
    if (strncmp(m, invalid, sizeof invalid - 1) || !colon || colon[1] != ' ' ||
        !isdigit((unsigned char)colon[2]))
        return false;
    char *end = NULL;
    unsigned long v = strtoul(colon + 2, &end, 10);
    if (*end || v > UINT32_MAX)
        return false;
    const char *what = m + sizeof invalid - 1;
    size_t len = (size_t)(colon - what);
    static const char operand[] = " operand";
    bool is_operand = len > sizeof operand - 1 &&
                      !memcmp(colon - (sizeof operand - 1), operand, sizeof operand - 1);
    if (is_operand)
        len -= sizeof operand - 1;
    static const char ext_inst[] = "extended instruction number";
    if (!is_operand && !(len == 6 && !memcmp(what, "opcode", 6)) &&
        !(len == sizeof ext_inst - 1 && !memcmp(what, ext_inst, sizeof ext_inst - 1)))
        return false;
    snprintf(kind, size, "%.*s", (int)len, what);
    *number = (uint32_t)v;
    return true;
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

/* Distinct numbers spirv_drop_unknown() drops before it gives up. */
#define DROP_ROUNDS_MAX 64

/* Instructions a reader of the interface stands on: never dropped. */
static bool structural(uint32_t op)
{
    return op == OP_ENTRY_POINT || op == OP_VARIABLE || op == OP_FUNCTION ||
           op == OP_FUNCTION_PARAMETER || op == OP_FUNCTION_END;
}

/*
 * The word offset of the instruction the parser stopped at, which holds
 * `number` past its first word: SPIRV-Tools counts the instructions it
 * began, that one included (position.index), so it is that count's last or,
 * in another version, the next; 0 when neither holds the number.
 */
static size_t stopped_at(const uint32_t *w, size_t n, size_t count, uint32_t number)
{
    size_t k = 0;
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16, k++) {
        if (k + 1 != count && k != count)
            continue;
        for (size_t j = 1; j < (w[i] >> 16); j++)
            if (w[i + j] == number)
                return i;
    }
    return 0;
}

int spirv_drop_unknown(uint32_t *w, size_t n, size_t *dropped, char *why, size_t why_size)
{
    *dropped = 0;
    if (why_size)
        why[0] = 0;
    spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    if (!ctx)
        return DGPB_ERR_NOMEM;
    int rc = DGPB_OK;
    for (int round = 0;; round++) {
        spv_diagnostic sd = NULL;
        spv_result_t r = spvBinaryParse(ctx, NULL, w, n, no_header, no_instruction, &sd);
        if (r == SPV_SUCCESS) {
            spvDiagnosticDestroy(sd);
            break;
        }
        const char *m = sd && sd->error ? sd->error : "unknown error";
        snprintf(why, why_size, "%.*s", (int)strcspn(m, "\n"), m);
        size_t count = sd ? sd->position.index : 0;
        spvDiagnosticDestroy(sd);
        char kind[64];
        uint32_t number = 0;
        rc = DGPB_ERR_UNSUPPORTED;
        if (round == DROP_ROUNDS_MAX || !spirv_unknown_number(why, kind, sizeof kind, &number))
            break;
        bool opcode = !strcmp(kind, "opcode");
        size_t at = opcode ? 0 : stopped_at(w, n, count, number), word = 0;
        if (!opcode && !at)
            break;
        uint32_t op = opcode ? number : w[at] & 0xffffu;
        for (word = 1; !opcode && w[at + word] != number; word++)
            ;
        if (structural(op))
            break;
        /* An extended instruction's number is its set's: the set (word 3) must match too. */
        bool in_set = !strcmp(kind, "extended instruction number") && op == OP_EXT_INST;
        uint32_t set = in_set && (w[at] >> 16) > 3 ? w[at + 3] : 0;
        size_t before = *dropped;
        for (size_t i = SPV_HEADER_WORDS; i < n;) {
            size_t words = w[i] >> 16;
            if ((w[i] & 0xffffu) == op && (opcode || (word < words && w[i + word] == number)) &&
                (!in_set || (words > 3 && w[i + 3] == set))) {
                for (size_t j = 0; j < words; j++)
                    w[i + j] = 1u << 16; /* OpNop */
                ++*dropped;
            }
            i += words ? words : 1;
        }
        if (*dropped == before)
            break;
        rc = DGPB_OK;
    }
    spvContextDestroy(ctx);
    return rc;
}

int spirv_stage_of_model(uint32_t model)
{
    switch (model) {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    case spirv_model:                                                                              \
        return DGPB_STAGE_##ID;
#include "dgpb/vocabulary.def"
    default:
        return -1;
    }
}

/* The value of the 32-bit OpConstant `id` of a module's words; 0 when there is none. */
static uint32_t constant_value(const uint32_t *w, size_t n, uint32_t id)
{
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16)
        if ((w[i] & 0xffffu) == OP_CONSTANT && (w[i] >> 16) == 4 && w[i + 2] == id)
            return w[i + 3];
    return 0;
}

int spirv_entry_points(const void *code, size_t size, dgpb_spirv_entry_point **out, size_t *count,
                       dgpb_diag *diag)
{
    *out = NULL;
    *count = 0;
    uint32_t *w;
    size_t n;
    /* The stripped copy is a checked word array: the same walk, without OpSource. */
    int rc = spirv_strip_source(code, size, &w, &n, diag);
    if (rc)
        return rc;
    size_t found = 0;
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16)
        found += (w[i] & 0xffffu) == OP_ENTRY_POINT && (w[i] >> 16) >= 4;
    dgpb_spirv_entry_point *eps = mem_calloc(found, sizeof *eps);
    if (!eps) {
        dgpb_free(w);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    uint32_t *function = mem_calloc(found ? found : 1, sizeof *function); /* each one's id */
    if (!function) {
        dgpb_free(eps);
        dgpb_free(w);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    size_t k = 0;
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16) {
        uint32_t words = w[i] >> 16;
        if ((w[i] & 0xffffu) != OP_ENTRY_POINT || words < 4)
            continue;
        eps[k].execution_model = w[i + 1];
        function[k] = w[i + 2];
        const char *s = (const char *)&w[i + 3];
        size_t max = (words - 3) * 4;
        size_t len = strnlen(s, max);
        if (len >= sizeof eps[k].name)
            len = sizeof eps[k].name - 1;
        memcpy(eps[k].name, s, len);
        eps[k].name[len] = 0;
        k++;
    }
    /* OpExecutionMode f LocalSize x y z; OpExecutionModeId f LocalSizeId x y z (ids of
       OpConstant x's value, found by a walk for each). */
    for (size_t i = SPV_HEADER_WORDS; i < n; i += w[i] >> 16) {
        uint32_t words = w[i] >> 16, op = w[i] & 0xffffu;
        bool literal = op == OP_EXECUTION_MODE && words >= 6 && w[i + 2] == MODE_LOCAL_SIZE;
        bool ids = op == OP_EXECUTION_MODE_ID && words >= 6 && w[i + 2] == MODE_LOCAL_SIZE_ID;
        for (size_t e = 0; (literal || ids) && e < found; e++) {
            if (function[e] != w[i + 1])
                continue;
            for (int axis = 0; axis < 3; axis++)
                eps[e].local_size[axis] =
                    literal ? w[i + 3 + axis] : constant_value(w, n, w[i + 3 + axis]);
        }
    }
    dgpb_free(function);
    dgpb_free(w);
    *out = eps;
    *count = found;
    return DGPB_OK;
}
