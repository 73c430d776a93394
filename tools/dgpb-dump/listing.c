/*
 * listing.c - dgpb-dump's readable listing and code printing.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/tool_common.h"
#include "dump.h"
#include "code/spirv/spirv.h"

static void short_hash(const uint8_t *sha, char out[17])
{
    char hex[65];
    dgpb_sha256_hex(sha, hex);
    memcpy(out, hex, 16);
    out[16] = 0;
}

/* The access flag's brief name ("-" for none), then ",<brief>" for each other set flag. */
static void flags_text(uint32_t flags, char *out, size_t n)
{
    const char *access = "-";
#define DGPB_FLAG(ID, bit, name, brief, ACCESS)                                                    \
    if (DGPB_FLAG_IS_##ACCESS && (flags & DGPB_FLAG_##ID) && *access == '-')                       \
        access = brief;
#include "dgpb/vocabulary.def"
    size_t len = (size_t)snprintf(out, n, "%s", access);
#define DGPB_FLAG(ID, bit, name, brief, ACCESS)                                                    \
    if (!DGPB_FLAG_IS_##ACCESS && (flags & DGPB_FLAG_##ID) && len < n)                             \
        len += (size_t)snprintf(out + len, n - len, "," brief);
#include "dgpb/vocabulary.def"
}

void dump_listing(FILE *out, const dgpb_bundle *b, const char *path)
{
    fprintf(out, "%s: DGPB v%u, %zu bytes (header %u, data %u), %u target%s\n",
            tool_text(path, strlen(path)), dgpb_bundle_version(b), dgpb_bundle_size(b),
            dgpb_bundle_header_size(b), dgpb_bundle_data_size(b), dgpb_bundle_target_count(b),
            dgpb_bundle_target_count(b) == 1 ? "" : "s");
    /* The project options it was built with, those that differ from the default. */
    const char *sep = "options: ";
    for (uint32_t i = 0; i < DGPB_OPTION_COUNT; i++) {
        dgpb_str v = dgpb_bundle_option(b, i);
        if (!v.len)
            continue;
        fprintf(out, "%s%s %s", sep, dgpb_option_name(i), tool_text(v.ptr, v.len));
        sep = ", ";
    }
    if (*sep == ',')
        fprintf(out, "\n");
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        fprintf(out, "\ntarget %s (code format %s): %u layout%s, %u entr%s\n",
                tool_text(t->name.ptr, t->name.len),
                tool_text(t->code_format.ptr, t->code_format.len), t->layout_count,
                t->layout_count == 1 ? "" : "s", t->entry_count, t->entry_count == 1 ? "y" : "ies");
        char h[17];
        for (uint32_t i = 0; i < t->layout_count; i++) {
            short_hash(t->layouts[i].sha256, h);
            fprintf(out, "  layout %u: %u bytes at %u, sha256 %s\n", i, t->layouts[i].size,
                    t->layouts[i].offset, h);
        }
        for (uint32_t i = 0; i < t->entry_count; i++) {
            const dgpb_entry_view *e = &t->entries[i];
            short_hash(e->code.sha256, h);
            fprintf(out, "  entry %s (%s)", tool_text(e->name.ptr, e->name.len),
                    tool_text(e->stage.ptr, e->stage.len));
            if (dgpb_stage_has_thread_group(e->stage_id))
                fprintf(out, " [%u,%u,%u]", e->thread_group_size[0], e->thread_group_size[1],
                        e->thread_group_size[2]);
            if (t->layout_count) /* with none, no layout to point at */
                fprintf(out, ", layout %u", e->layout);
            fprintf(out, ", code %u bytes at %u, sha256 %s\n", e->code.size, e->code.offset, h);
            /* Shaped rows (textures, samplers) carry their shape in `offset`: a last column
               spells it (docs/format.md, "Shapes"). */
            bool shaped = false;
            int space_w = 6; /* as wide as the widest space: "pipeline_constant" */
            char sp[16], bd[16];
            for (uint32_t k = 0; k < e->param_count; k++) {
                shaped |= dgpb_kind_has_shape(e->params[k].kind);
                int w = (int)strlen(tool_space_text(e->params[k].space, sp));
                space_w = w > space_w ? w : space_w;
            }
            if (e->param_count)
                fprintf(out, "    %3s  %-20s %-22s %-7s %*s %7s %6s %5s %s%s\n", "#", "param",
                        "kind", "flags", space_w, "space", "binding", "offset", "size", "webgpu",
                        shaped ? "  shape" : "");
            for (uint32_t k = 0; k < e->param_count; k++) {
                const dgpb_param_view *p = &e->params[k];
                char fl[32];
                flags_text(p->flags, fl, sizeof fl);
                char shape[96] = "";
                if (dgpb_kind_has_shape(p->kind))
                    dgpb_shape_text(p->offset, shape, sizeof shape);
                char webgpu[32];
                snprintf(webgpu, sizeof webgpu, *shape ? "%-6u  " : "%u", p->webgpu_layout);
                fprintf(out, "    %3u  %-20s %-22s %-7s %*s %7s %6u %5u %s%s\n", k,
                        tool_text(p->name.ptr, p->name.len), dgpb_kind_name(p->kind), fl, space_w,
                        tool_space_text(p->space, sp), tool_binding_text(p->binding, bd), p->offset,
                        p->size, webgpu, shape);
            }
            if (e->capability_count) {
                fprintf(out, "    capabilities:");
                for (uint32_t k = 0; k < e->capability_count; k++)
                    fprintf(out, " %s", tool_text(e->capabilities[k].ptr, e->capabilities[k].len));
                fprintf(out, "\n");
            }
        }
    }
}

int dump_select(const dgpb_bundle *b, const char *selector, const dgpb_blob_ref **blob,
                const dgpb_target_view **target, dgpb_diag *diag)
{
    const char *slash = strchr(selector, '/');
    if (!slash || slash == selector || !slash[1])
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "'%s' is not TARGET/ENTRY or TARGET/layout/N", selector);
    char tname[64];
    snprintf(tname, sizeof tname, "%.*s", (int)(slash - selector), selector);
    int rc = dgpb_bundle_find_target(b, tname, target, diag);
    if (rc)
        return rc;
    const char *rest = slash + 1;
    if (strncmp(rest, "layout/", 7) == 0) {
        char *end = NULL;
        unsigned long n = strtoul(rest + 7, &end, 10);
        if (!rest[7] || *end)
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "'%s': bad layout index", selector);
        if (!(*target)->layout_count)
            return dgpb_diag_set(diag, DGPB_ERR_NOT_FOUND, -1,
                                 "target '%s' has no layouts (built without them): no layout %lu",
                                 tname, n);
        if (n >= (*target)->layout_count)
            return dgpb_diag_set(diag, DGPB_ERR_NOT_FOUND, -1,
                                 "target '%s' has %u layouts, no layout %lu", tname,
                                 (*target)->layout_count, n);
        *blob = &(*target)->layouts[n];
        return DGPB_OK;
    }
    const dgpb_entry_view *e;
    rc = dgpb_target_find_entry(*target, rest, &e, diag);
    if (rc)
        return rc;
    *blob = &e->code;
    return DGPB_OK;
}

/* How --disasm shows each code format (dgpb/vocabulary.def, DGPB_CODE_FORMAT). */
enum print_as { PRINT_TEXT, PRINT_SPIRV, PRINT_BINARY };
static const enum print_as print_as[DGPB_CODE_FORMAT_COUNT] = {
#define DGPB_CODE_FORMAT(ID, value, name, TARGET, in_bundle, slang_target, extension, PRINT)       \
    [value] = PRINT_##PRINT,
#include "dgpb/vocabulary.def"
};

static int print_code(FILE *out, const dgpb_target_view *t, const char *title,
                      const dgpb_blob_ref *code, dgpb_diag *diag)
{
    fprintf(out, "; %s (%.*s, %u bytes)\n", title, (int)t->code_format.len, t->code_format.ptr,
            code->size);
    int rc = dgpb_blob_verify(code, diag);
    if (rc)
        return rc;
    if (print_as[t->code_format_id] == PRINT_SPIRV) {
        char *text = NULL;
        rc = spirv_disassemble(code->data, code->size, &text, diag);
        if (rc)
            return rc;
        fputs(text, out);
        dgpb_free(text);
    } else if (print_as[t->code_format_id] == PRINT_TEXT) {
        fwrite(code->data, 1, code->size, out);
        if (code->data[code->size - 1] != '\n')
            fputc('\n', out);
    } else {
        fprintf(out, "; binary code, not printable (use --extract)\n");
    }
    return DGPB_OK;
}

int dump_disasm(FILE *out, const dgpb_bundle *b, const char *selector, dgpb_diag *diag)
{
    char title[256];
    if (selector) {
        const dgpb_blob_ref *blob;
        const dgpb_target_view *t;
        int rc = dump_select(b, selector, &blob, &t, diag);
        if (rc)
            return rc;
        if (strstr(selector, "/layout/")) {
            fprintf(out, "; %s: layout blob, %u bytes (use --extract)\n", selector, blob->size);
            return DGPB_OK;
        }
        return print_code(out, t, selector, blob, diag);
    }
    for (uint32_t ti = 0; ti < dgpb_bundle_target_count(b); ti++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, ti);
        for (uint32_t i = 0; i < t->entry_count; i++) {
            const dgpb_entry_view *e = &t->entries[i];
            snprintf(title, sizeof title, "%s/%s", tool_text(t->name.ptr, t->name.len),
                     tool_text(e->name.ptr, e->name.len));
            int rc = print_code(out, t, title, &e->code, diag);
            if (rc)
                return rc;
        }
    }
    return DGPB_OK;
}
