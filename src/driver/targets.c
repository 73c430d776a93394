/*
 * targets.c - triples, target selection and group symbols (targets.h); the
 * targets' macros, code formats and platforms expanded from dgpb/vocabulary.def.
 */
#include "driver/targets.h"

#include <assert.h>
#include <ctype.h>
#include <string.h>

#include "core/alloc.h"
#include "code/text_scan.h"

#define BIT(t) (1u << (t))

static const struct {
    const char *macro;
    dgpb_code_format code, discover, final;
    uint32_t platforms; /* bit per dgpb_platform */
} targets[DGPB_TARGET_COUNT] = {
#define DGPB_ON(platform) BIT(DGPB_PLATFORM_##platform)
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    [value] = {macro, DGPB_CODE_FORMAT_##CODE, DGPB_CODE_FORMAT_##DISCOVER,                        \
               DGPB_CODE_FORMAT_##FINAL, platforms},
#include "dgpb/vocabulary.def"
#undef DGPB_ON
};

static const struct {
    const char *slang_target, *extension;
} code_formats[DGPB_CODE_FORMAT_COUNT] = {
#define DGPB_CODE_FORMAT(ID, value, name, TARGET, in_bundle, slang_target, extension, PRINT)       \
    [value] = {slang_target, extension},
#include "dgpb/vocabulary.def"
};

/* "dxbc, dxil, metal, ptx, spirv, wgsl", for messages. */
static const char *const target_list = (""
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    ", " name
#include "dgpb/vocabulary.def"
                                        ) +
                                       2;

const char *target_macro(uint32_t id)
{
    return id < DGPB_TARGET_COUNT ? targets[id].macro : NULL;
}

dgpb_code_format target_code_format(uint32_t id)
{
    assert(id < DGPB_TARGET_COUNT);
    return targets[id].code;
}

dgpb_code_format target_discovery_format(uint32_t id)
{
    assert(id < DGPB_TARGET_COUNT);
    return targets[id].discover;
}

dgpb_code_format target_final_format(uint32_t id)
{
    assert(id < DGPB_TARGET_COUNT);
    return targets[id].final;
}

bool target_has_final(uint32_t id)
{
    assert(id < DGPB_TARGET_COUNT);
    return targets[id].final != targets[id].code;
}

const char *code_format_slang_target(uint32_t format)
{
    return format < DGPB_CODE_FORMAT_COUNT ? code_formats[format].slang_target : NULL;
}

const char *code_format_extension(uint32_t format)
{
    return format < DGPB_CODE_FORMAT_COUNT ? code_formats[format].extension : NULL;
}

const char *platform_name(dgpb_platform p)
{
    switch (p) {
    case DGPB_PLATFORM_LINUX:
        return "linux";
    case DGPB_PLATFORM_APPLE:
        return "apple";
    case DGPB_PLATFORM_WINDOWS:
        return "windows";
    case DGPB_PLATFORM_WASM32:
        return "wasm32";
    case DGPB_PLATFORM_COUNT:
        break;
    }
    return "?";
}

static bool has_word(const char *triple, const char *word)
{
    return strstr(triple, word) != NULL;
}

int platform_from_triple(const char *triple, dgpb_platform *out, dgpb_diag *diag)
{
    if (!triple || !*triple) {
#if defined(__APPLE__)
        *out = DGPB_PLATFORM_APPLE;
#elif defined(_WIN32)
        *out = DGPB_PLATFORM_WINDOWS;
#else
        *out = DGPB_PLATFORM_LINUX;
#endif
        return DGPB_OK;
    }
    char lower[256];
    size_t n = strlen(triple);
    if (n >= sizeof lower)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "triple '%.40s...' is too long", triple);
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)tolower((unsigned char)triple[i]);
    if (has_word(lower, "wasm32"))
        *out = DGPB_PLATFORM_WASM32;
    else if (has_word(lower, "apple") || has_word(lower, "darwin") || has_word(lower, "macos") ||
             has_word(lower, "ios"))
        *out = DGPB_PLATFORM_APPLE;
    else if (has_word(lower, "windows") || has_word(lower, "win32") || has_word(lower, "mingw") ||
             has_word(lower, "msvc"))
        *out = DGPB_PLATFORM_WINDOWS;
    else if (has_word(lower, "linux") || has_word(lower, "android") || has_word(lower, "freebsd"))
        *out = DGPB_PLATFORM_LINUX;
    else
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "unknown triple '%s' (expected a Linux, Apple, Windows or wasm32 "
                             "triple, e.g. x86_64-unknown-linux-gnu)",
                             triple);
    return DGPB_OK;
}

uint32_t platform_targets(dgpb_platform p)
{
    uint32_t set = 0;
    for (int t = 0; t < DGPB_TARGET_COUNT && (unsigned)p < DGPB_PLATFORM_COUNT; t++)
        if (targets[t].platforms & BIT(p))
            set |= BIT(t);
    return set;
}

/* An empty item ("spirv,,wgsl", ",spirv", "spirv,") is an error, never skipped. */
static int empty_item(const char *list, dgpb_diag *diag)
{
    return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                         "bad target list '%s': an empty item (a comma too many?)", list);
}

int targets_parse(const char *list, uint32_t *out_set, dgpb_diag *diag)
{
    *out_set = 0;
    if (!list) {
        *out_set = BIT(DGPB_TARGET_COUNT) - 1;
        return DGPB_OK;
    }
    if (!*list)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "the target list is empty (name at least one of %s, or leave the "
                             "list out for every target)",
                             target_list);
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char name[32];
        if (n == 0)
            return empty_item(list, diag);
        if (n >= sizeof name)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "bad target list '%s'", list);
        memcpy(name, p, n);
        name[n] = 0;
        int id = dgpb_target_from_name(name, n);
        if (id < 0)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "unknown target '%s' (targets: %s)",
                                 name, target_list);
        *out_set |= BIT(id);
        p += n;
        if (*p == ',' && !*++p) /* a trailing comma leaves an empty element */
            return empty_item(list, diag);
    }
    return DGPB_OK;
}

void group_symbols_free(char **symbols, size_t count)
{
    for (size_t i = 0; symbols && i < count; i++)
        dgpb_free(symbols[i]);
    dgpb_free(symbols);
}

int scan_group_symbols(const char *text, size_t len, char ***symbols, size_t *count,
                       dgpb_diag *diag)
{
    static const char prefix[] = "DREAM_SHADER";
    char **out = NULL;
    size_t n = 0, cap = 0;
    *symbols = NULL;
    *count = 0;
    for (size_t i = 0; i + sizeof prefix - 1 <= len; i++) {
        if (memcmp(text + i, prefix, sizeof prefix - 1) != 0 ||
            (i > 0 && text_ident_char(text[i - 1])))
            continue;
        size_t end = i;
        while (end < len && text_ident_char(text[end]))
            end++;
        size_t id_len = end - i;
        bool ok = false;
        if (id_len == strlen(DGPB_GROUP_RENDER) && !memcmp(text + i, DGPB_GROUP_RENDER, id_len))
            ok = true;
        else if (id_len == strlen(DGPB_GROUP_RAY_TRACING) &&
                 !memcmp(text + i, DGPB_GROUP_RAY_TRACING, id_len))
            ok = true;
        else if (id_len > strlen(DGPB_GROUP_COMPUTE_PREFIX) &&
                 !memcmp(text + i, DGPB_GROUP_COMPUTE_PREFIX, strlen(DGPB_GROUP_COMPUTE_PREFIX)))
            ok = true;
        if (ok) {
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++)
                seen = strlen(out[k]) == id_len && !memcmp(out[k], text + i, id_len);
            if (!seen) {
                char **no = mem_grow(out, n, &cap, sizeof *no, 8);
                if (!no)
                    goto nomem;
                out = no;
                out[n] = mem_alloc(id_len + 1);
                if (!out[n])
                    goto nomem;
                memcpy(out[n], text + i, id_len);
                out[n++][id_len] = 0;
            }
        }
        i = end;
    }
    *symbols = out;
    *count = n;
    return DGPB_OK;
nomem:
    group_symbols_free(out, n);
    return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
}
