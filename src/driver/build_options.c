/*
 * build_options.c - the project options of a build (build_internal.h;
 * docs/build.md, "Project options"): the matrix layout, the SPIR-V version,
 * extra Slang capabilities, the block layout, the optimization level and the
 * debug information, checked before anything runs and turned into the
 * arguments every compile and layout recording gets.
 *
 * They are never a free-form passthrough: each is one of slangc's own
 * options with a value dgpb checks (-matrix-layout-row-major or
 * -matrix-layout-column-major, -profile spirv_1_N, -capability NAME, the
 * block layout's -fvk-use-*-layout, -O<level>, -g<level>), so the compile
 * cache's keys, the whole-build key and the bundle's options record
 * (docs/format.md) all say exactly what the code was compiled with. An
 * option the compiler cannot honour is refused here, naming the compiler,
 * rather than dropped: the embedded compiler (Slang's WebAssembly build,
 * docs/slangc-wasm.md) creates its sessions with a target alone, so it has
 * row-major matrices, Slang's default SPIR-V version (1.5), block layouts,
 * optimization (-O1) and debug information (none), and no extra
 * capabilities.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "driver/build_internal.h"

/* The SPIR-V version the embedded compiler writes: its sessions have no profile. */
#define EMBEDDED_SPIRV_VERSION 0x00010500u

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "the embedded compiler (Slang 2025.15 WebAssembly)", or without the version when it is not had. */
static void embedded_name(build *b, char *buf, size_t size)
{
    const char *version = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_compiler_version(b->desc->compiler, &version, &d) || !version || !*version)
        snprintf(buf, size, "the embedded compiler (Slang's WebAssembly build)");
    else
        snprintf(buf, size, "the embedded compiler (Slang %s WebAssembly)", version);
}

/* Refuses, before any compile, an option the embedded compiler cannot honour. */
static int refuse_embedded(build *b)
{
    const dgpb_build_desc *d = b->desc;
    if (!dgpb_compiler_is_embedded(d->compiler))
        return DGPB_OK;
    char name[128];
    const char *use = "use a native slangc (--slangc, $DGPB_SLANGC or $SLANG_ROOT)";
    if (d->matrix_layout == DGPB_MATRIX_LAYOUT_COLUMN) {
        embedded_name(b, name, sizeof name);
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                     "%s cannot compile with --matrix-layout column: its API has no "
                     "matrix-layout setting (its sessions are row-major); %s",
                     name, use);
        return DGPB_ERR_INVALID;
    }
    if (d->spirv_version && d->spirv_version != EMBEDDED_SPIRV_VERSION) {
        char have[16];
        embedded_name(b, name, sizeof name);
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                     "%s cannot compile with --spirv-version %s: its API has no target-profile "
                     "setting, so it writes SPIR-V %s only; %s",
                     name, b->options.spirv_text,
                     dgpb_spirv_version_text(EMBEDDED_SPIRV_VERSION, have, sizeof have), use);
        return DGPB_ERR_INVALID;
    }
    if (b->options.cap_count) {
        embedded_name(b, name, sizeof name);
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                     "%s cannot compile with --capability %s: its API has no capability setting; "
                     "%s",
                     name, b->options.caps[0], use);
        return DGPB_ERR_INVALID;
    }
    /* The options its API has no setting for, each with the value its sessions have. */
    const struct {
        bool asked;
        const char *option, *value, *setting, *sessions;
    } unset[] = {
        {d->block_layout != DGPB_BLOCK_LAYOUT_DEFAULT, "--block-layout",
         dgpb_block_layout_name(d->block_layout), "block-layout",
         "Slang's own rules: std140 uniform blocks, std430 storage buffers and push constants"},
        {d->optimization != DGPB_OPTIMIZATION_DEFAULT, "--optimization",
         dgpb_optimization_level(d->optimization), "optimization", "Slang's default, -O1"},
        {d->debug_info != DGPB_DEBUG_INFO_NONE, "--debug-info",
         dgpb_debug_info_level(d->debug_info), "debug-information", "none"},
    };
    for (size_t i = 0; i < sizeof unset / sizeof unset[0]; i++) {
        if (!unset[i].asked)
            continue;
        embedded_name(b, name, sizeof name);
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                     "%s cannot compile with %s %s: its API has no %s setting (its sessions "
                     "have %s); %s",
                     name, unset[i].option, unset[i].value, unset[i].setting, unset[i].sessions,
                     use);
        return DGPB_ERR_INVALID;
    }
    return DGPB_OK;
}

int build_check_options(build *b)
{
    const dgpb_build_desc *d = b->desc;
    build_options *o = &b->options;
    const struct {
        unsigned value, count;
        const char *what;
    } ranges[] = {
        {(unsigned)d->matrix_layout, DGPB_MATRIX_LAYOUT_COUNT, "matrix layout"},
        {(unsigned)d->block_layout, DGPB_BLOCK_LAYOUT_COUNT, "block layout"},
        {(unsigned)d->optimization, DGPB_OPTIMIZATION_COUNT, "optimization level"},
        {(unsigned)d->debug_info, DGPB_DEBUG_INFO_COUNT, "debug-information level"},
        {(unsigned)d->spirv_validation, DGPB_SPIRV_VALIDATION_COUNT, "SPIR-V validation setting"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (ranges[i].value >= ranges[i].count) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID, "unknown %s %u", ranges[i].what,
                         ranges[i].value);
            return DGPB_ERR_INVALID;
        }
    if (d->spirv_version) {
        dgpb_spirv_version_text(d->spirv_version, o->spirv_text, sizeof o->spirv_text);
        if (dgpb_spirv_version_parse(o->spirv_text, strlen(o->spirv_text)) != d->spirv_version) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                         "SPIR-V version 0x%08x is not one of 1.3, 1.4, 1.5 and 1.6",
                         (unsigned)d->spirv_version);
            return DGPB_ERR_INVALID;
        }
        snprintf(o->spirv_profile, sizeof o->spirv_profile, "spirv_1_%u",
                 (unsigned)(d->spirv_version >> 8 & 0xFFu));
    }
    size_t n = d->slang_capability_count, length = 1;
    if (n && !(o->caps = mem_calloc(n, sizeof *o->caps))) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const char *name = d->slang_capabilities[i];
        if (!name || !dgpb_slang_capability_valid(name, strlen(name))) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                         "--capability '%s' is no Slang capability name (a letter or '_', then "
                         "letters, digits and '_', at most %d bytes)",
                         name ? name : "", DGPB_SLANG_CAPABILITY_MAX);
            return DGPB_ERR_INVALID;
        }
        if (!strncmp(name, "spirv_1_", 8) || !strncmp(name, "_spirv_1_", 9) ||
            !strncmp(name, "glsl_spirv_1_", 13)) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                         "--capability %s names a SPIR-V version: give it as --spirv-version "
                         "1.%s, which the build also proves against the code",
                         name, name + strlen(name) - 1);
            return DGPB_ERR_INVALID;
        }
        o->caps[i] = name;
    }
    if (n)
        qsort(o->caps, n, sizeof *o->caps, cmp_name);
    for (size_t i = 0; i < n; i++)
        if (!o->cap_count || strcmp(o->caps[o->cap_count - 1], o->caps[i]))
            o->caps[o->cap_count++] = o->caps[i];
    for (size_t i = 0; i < o->cap_count; i++)
        length += strlen(o->caps[i]) + 1;
    if (!(o->caps_text = mem_calloc(length, 1))) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < o->cap_count; i++) {
        if (i)
            strcat(o->caps_text, ",");
        strcat(o->caps_text, o->caps[i]);
    }
    /* The options added since the first three only when asked for: the key of a build
       without them stays what it was. */
    o->key = mem_printf(
        "matrix_layout=%s spirv_version=%s slang_capabilities=%s%s%s%s%s%s%s%s",
        d->matrix_layout == DGPB_MATRIX_LAYOUT_COLUMN ? "column" : "row", o->spirv_text,
        o->caps_text, d->block_layout ? " block_layout=" : "",
        d->block_layout ? dgpb_block_layout_name(d->block_layout) : "",
        d->optimization ? " optimization=" : "",
        d->optimization ? dgpb_optimization_level(d->optimization) : "",
        d->debug_info ? " debug_info=" : "",
        d->debug_info ? dgpb_debug_info_level(d->debug_info) : "",
        d->spirv_validation == DGPB_SPIRV_VALIDATION_ERROR ? " spirv_validation=error" : "");
    if (!o->key) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    return refuse_embedded(b);
}

void build_options_free(build *b)
{
    dgpb_free(b->options.caps);
    dgpb_free(b->options.caps_text);
    dgpb_free(b->options.key);
    memset(&b->options, 0, sizeof b->options);
}

const char *build_option_arg(const build *b, bool spirv, size_t i)
{
    const dgpb_build_desc *d = b->desc;
    if (i == 0)
        return d->matrix_layout == DGPB_MATRIX_LAYOUT_COLUMN ? "-matrix-layout-column-major"
                                                             : "-matrix-layout-row-major";
    i--;
    if (spirv && b->options.spirv_profile[0]) {
        if (i < 2)
            return i == 0 ? "-profile" : b->options.spirv_profile;
        i -= 2;
    }
    /* One argument each, where asked for: the block layout (SPIR-V only), -O, -g. */
    const char *single[] = {
        spirv ? dgpb_block_layout_slang_option(d->block_layout) : NULL,
        dgpb_optimization_slang_option(d->optimization),
        dgpb_debug_info_slang_option(d->debug_info),
    };
    for (size_t k = 0; k < sizeof single / sizeof single[0]; k++) {
        if (!single[k])
            continue;
        if (i == 0)
            return single[k];
        i--;
    }
    if (i < 2 * b->options.cap_count)
        return i % 2 == 0 ? "-capability" : b->options.caps[i / 2];
    return NULL;
}
