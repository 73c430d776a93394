/*
 * spirv_validate.c - SPIR-V validation by the rules of the module's own
 * Vulkan version, and what a SPIRV-Tools older than the code cannot judge
 * (code/spirv/spirv.h; the rule is docs/build.md, "Validation").
 *
 * The module (a copy without OpSource) is validated in the Vulkan
 * environment its SPIR-V version implies. When that fails, two kinds of
 * failure are the validator's age, not the code's fault, and become a
 * warning:
 *
 *   - a number SPIRV-Tools does not know: its parser stops at an opcode or
 *     an operand (a capability, an execution mode, ...) newer than its
 *     grammar ("Invalid capability operand: 5336"). Nothing past it can be
 *     validated.
 *   - a capability it knows only through an extension the code declares
 *     under a newer name: SPIRV-Tools 2023.1 knows ComputeDerivativeGroup*
 *     through SPV_NV_compute_shader_derivatives alone, and Slang declares
 *     its promotion, SPV_KHR_compute_shader_derivatives. An extension of the
 *     code that the validator does not list for the capability, named like
 *     one it lists but for the vendor (SPV_<VENDOR>_<name>), is read as that
 *     one, and the copy is validated again, to the end.
 *
 * Every other failure is the code's: an error with SPIRV-Tools' message.
 */
#define _POSIX_C_SOURCE 200809L
#include "code/spirv/spirv.h"

#include <ctype.h>
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

/* Validates `n` words in `env`: DGPB_OK, DGPB_ERR_SHADER with *f filled, or DGPB_ERR_NOMEM. */
static int validate_in(spv_target_env env, const uint32_t *w, size_t n, failure *f)
{
    spv_context ctx = spvContextCreate(env);
    if (!ctx)
        return DGPB_ERR_NOMEM;
    spv_const_binary_t bin = {w, n};
    spv_diagnostic sd = NULL;
    int rc = DGPB_OK;
    if (spvValidate(ctx, &bin, &sd) != SPV_SUCCESS) {
        rc = DGPB_ERR_SHADER;
        const char *m = sd && sd->error ? sd->error : "unknown error";
        size_t len = strcspn(m, "\n");
        snprintf(f->message, sizeof f->message, "%.*s", (int)len, m);
        while (len && f->message[len - 1] == ' ')
            f->message[--len] = 0;
        f->at = sd ? (int64_t)sd->position.index * 4 : -1;
    }
    spvDiagnosticDestroy(sd);
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

/*
 * Whether a parser's message names a number its grammar lacks: "Invalid
 * opcode: N", "Invalid <kind> operand: N", "Invalid extended instruction
 * number: N". *kind: "opcode", "capability", ...; *number: N.
 */
static bool unknown_number(const char *m, char *kind, size_t size, uint32_t *number)
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
    else if (!(len == 6 && !memcmp(what, "opcode", 6)) &&
             !(len == 29 && !memcmp(what, "extended instruction number", 27)))
        return false;
    snprintf(kind, size, "%.*s", (int)len, what);
    *number = (uint32_t)v;
    return true;
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
    if (validate_in(universal, w, n, &u) != DGPB_ERR_SHADER)
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

/* ---- the validation ---- */

static int older_than_the_code(dgpb_diag *diag, int64_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A warning: the validator is older than the code (DGPB_ERR_UNSUPPORTED). */
static int older_than_the_code(dgpb_diag *diag, int64_t at, const char *fmt, ...)
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

int spirv_validate(const void *code, size_t size, dgpb_diag *diag)
{
    uint32_t *words = NULL, *renamed = NULL, *now;
    size_t n = 0;
    int rc = spirv_strip_source(code, size, &words, &n, diag);
    if (rc)
        return rc;
    const char *tools = spvSoftwareVersionString();
    int vulkan = 0, universal = 0;
    const char *env = spirv_environment(words[1], &vulkan, &universal);
    if (!env) {
        rc = older_than_the_code(diag, 4,
                                 "SPIR-V not validated: the code is SPIR-V %u.%u, and SPIRV-Tools "
                                 "%s, older than the code, knows SPIR-V up to 1.%u",
                                 (words[1] >> 16) & 0xffu, (words[1] >> 8) & 0xffu, tools,
                                 newest_minor());
        goto done;
    }
    failure f;
    rc = validate_in((spv_target_env)vulkan, words, n, &f);
    char kind[64], from[128], to[128], capability[160], read_as[600] = "";
    uint32_t number = 0;
    if (rc == DGPB_ERR_SHADER && !parses(words, n) &&
        unknown_number(f.message, kind, sizeof kind, &number)) {
        const char *name = !strcmp(kind, "capability") ? capability_name(number) : NULL;
        rc = older_than_the_code(diag, f.at,
                                 "SPIR-V not validated (%s): SPIRV-Tools %s is older than the code "
                                 "and does not know its %s %u%s%s%s (\"%s\")",
                                 env, tools, kind, number, name ? " (" : "", name ? name : "",
                                 name ? ")" : "", f.message);
        goto done;
    }
    /* Extensions the validator knows by their older names: read so, validated again. */
    now = words;
    for (int round = 0; rc == DGPB_ERR_SHADER && round < 8; round++) {
        if (!promoted_extension((spv_target_env)universal, now, n, &f, from, to, sizeof from,
                                capability, sizeof capability))
            break;
        uint32_t *next = NULL;
        size_t next_n = 0;
        if (rename_extension(now, n, from, to, &next, &next_n)) {
            rc = DGPB_ERR_NOMEM;
            break;
        }
        dgpb_free(renamed);
        renamed = now = next;
        n = next_n;
        size_t used = strlen(read_as);
        snprintf(read_as + used, sizeof read_as - used,
                 "%s%s read as %s, through which SPIRV-Tools %s knows SPIR-V capability %s",
                 used ? "; " : "", from, to, tools, capability);
        rc = validate_in((spv_target_env)vulkan, now, n, &f);
    }
    if (rc == DGPB_ERR_NOMEM) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    } else if (rc) {
        rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, f.at, "SPIR-V validation (%s) failed: %s%s%s%s",
                           env, f.message, read_as[0] ? " (with " : "", read_as,
                           read_as[0] ? ")" : "");
    } else if (read_as[0]) {
        rc = older_than_the_code(diag, -1,
                                 "SPIR-V validated (%s), the validator being older than the code: "
                                 "%s",
                                 env, read_as);
    }
done:
    dgpb_free(renamed);
    dgpb_free(words);
    return rc;
}
