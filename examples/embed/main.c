/*
 * embed_host - a host that carries its shader bundles inside its executable
 * (bundles.c, generated at build time) and loads more from files given on
 * its command line. For each bundle it validates everything with libdgpb's
 * reader, checks every code blob's SHA-256, and lists the targets, entries
 * and parameters it would bind. Exit status 0 when every bundle is valid.
 *
 *     embed_host [BUNDLE.dgpb...]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dgpb/dgpb.h"
#include "embedded.h"

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
    int rc = 0;
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
