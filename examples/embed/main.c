/*
 * embed_host - a host that carries its shader bundles inside its executable
 * (bundles.c, generated at build time) and loads more from files given on
 * its command line. For each bundle it validates everything with libdgpb's
 * reader, checks every code blob's SHA-256, and lists the targets, entries
 * and parameters it would bind. Exit status 0 when every bundle is valid.
 *
 * blur.h and tint.h are the bundles' C headers (dgpb-build --emit-header):
 * the host binds by their row indices and fills tint's value struct, and
 * checks first that each index names the row it expects in the embedded
 * bundle, that the struct's member sits at its row's offset and that the
 * row's set and binding are the header's.
 *
 *     embed_host [BUNDLE.dgpb...]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "blur.h"
#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/reader.h"
#include "embedded.h"
#include "tint.h"

/* The row `index` of `entry` on every target of the bundle `name`: named `row`, of `size` bytes. */
static int check_row(const dgpb_bundle *b, const char *name, const char *entry, uint32_t index,
                     uint32_t count, const char *row, uint32_t offset, uint32_t size)
{
    int rc = 0;
    for (uint32_t t = 0; t < dgpb_bundle_target_count(b); t++) {
        const dgpb_target_view *target = dgpb_bundle_target(b, t);
        const dgpb_entry_view *e;
        dgpb_diag diag;
        const dgpb_param_view *p = NULL;
        if (!dgpb_target_find_entry(target, entry, &e, &diag) && e->param_count == count)
            p = dgpb_entry_param(e, index);
        if (!p || !dgpb_str_eq(p->name, row) || p->offset != offset || p->size != size) {
            fprintf(stderr, "embed_host: %s: %.*s/%s: row %u is not '%s' as its header says\n",
                    name, (int)target->name.len, target->name.ptr, entry, index, row);
            rc = 1;
        }
    }
    return rc;
}

/* The headers against the embedded bundles they were written with. */
static int check_headers(const char *name, const dgpb_bundle *b)
{
    if (!strcmp(name, "blur.dgpb"))
        /* Structured buffers of float: each row's size is the element's stride. */
        return check_row(b, name, "blur", blur_blur_source, blur_blur_row_count, "source", 0,
                         (uint32_t)sizeof(float)) |
               check_row(b, name, "blur", blur_blur_blurred, blur_blur_row_count, "blurred", 0,
                         (uint32_t)sizeof(float));
    if (!strcmp(name, "tint.dgpb")) {
        /* What a host uploads for tint's values on Vulkan: the struct, filled by member, as
           large as the code's block (sizeof), at the set and binding the header gives. */
        tint_uniforms values = {0};
        values.strength = 0.5f;
        int rc = check_row(b, name, "tint", tint_tint_strength, tint_tint_row_count, "strength",
                           (uint32_t)offsetof(tint_uniforms, strength),
                           (uint32_t)sizeof values.strength);
        const dgpb_target_view *spirv;
        const dgpb_entry_view *e;
        dgpb_diag diag;
        if (!rc && (dgpb_bundle_find_target(b, "spirv", &spirv, &diag) ||
                    dgpb_target_find_entry(spirv, "tint", &e, &diag) ||
                    e->params[tint_tint_strength].space != tint_spirv_tint_strength_space ||
                    e->params[tint_tint_strength].binding != tint_spirv_tint_strength_binding)) {
            fprintf(stderr, "embed_host: %s: spirv/tint: 'strength' is not where tint.h says\n",
                    name);
            rc = 1;
        }
        if (!rc)
            printf("%s: rows as tint.h says; values of %zu bytes (strength %.1f)\n", name,
                   sizeof values, (double)values.strength);
        return rc;
    }
    return 0;
}

static int show(const char *name, const void *bytes, size_t size)
{
    dgpb_bundle *b;
    dgpb_diag diag;
    if (dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, &diag)) {
        fprintf(stderr, "embed_host: %s: %s\n", name, diag.message);
        return 1;
    }
    printf("%s: %zu bytes, %u target%s\n", name, size, dgpb_bundle_target_count(b),
           dgpb_bundle_target_count(b) == 1 ? "" : "s");
    int rc = check_headers(name, b);
    for (uint32_t t = 0; t < dgpb_bundle_target_count(b); t++) {
        const dgpb_target_view *target = dgpb_bundle_target(b, t);
        for (uint32_t e = 0; e < target->entry_count; e++) {
            const dgpb_entry_view *entry = &target->entries[e];
            if (dgpb_blob_verify(&entry->code, &diag)) {
                fprintf(stderr, "embed_host: %s: %s\n", name, diag.message);
                rc = 1;
            }
            printf("  %.*s/%.*s (%.*s) [%u,%u,%u], %u bytes of %.*s:", (int)target->name.len,
                   target->name.ptr, (int)entry->name.len, entry->name.ptr, (int)entry->stage.len,
                   entry->stage.ptr, entry->thread_group_size[0], entry->thread_group_size[1],
                   entry->thread_group_size[2], entry->code.size, (int)target->code_format.len,
                   target->code_format.ptr);
            for (uint32_t p = 0; p < entry->param_count; p++) {
                const dgpb_param_view *param = dgpb_entry_param(entry, p);
                printf(" %.*s (%s)", (int)param->name.len, param->name.ptr,
                       dgpb_kind_name(param->kind));
            }
            printf("\n");
        }
    }
    dgpb_bundle_close(b);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (size_t i = 0; i < embedded_bundle_count; i++)
        rc |= show(embedded_bundles[i].name, embedded_bundles[i].bytes, embedded_bundles[i].size);
    for (int i = 1; i < argc; i++) {
        uint8_t *bytes;
        size_t size;
        dgpb_diag diag;
        if (dgpb_file_read(argv[i], DGPB_MAX_BUNDLE_SIZE, &bytes, &size, &diag)) {
            fprintf(stderr, "embed_host: %s\n", diag.message);
            rc = 1;
            continue;
        }
        rc |= show(argv[i], bytes, size);
        dgpb_free(bytes);
    }
    return rc;
}
