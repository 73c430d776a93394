/*
 * build_webgpu.c - the build's WebGPU stage (build_internal.h).
 *
 * build_check_webgpu checks what WebGPU asks of a whole pipeline: each
 * group's tables on a WebGPU target (code_ops' webgpu: wgsl) against
 * WebGPU's per-stage limits and the one bind group layout its entries share,
 * then warns of storage-texture formats WebGPU devices may refuse. The
 * per-entry checks run with the tables (build_tables.c). Nothing to do
 * without such a target.
 */
#include <assert.h>
#include <stdio.h>

#include "code/code_format.h"
#include "core/alloc.h"
#include "driver/build_internal.h"
#include "tables/webgpu_limits.h"

/*
 * Storage-texture IDs that the format allows but WebGPU devices may not: a
 * read-write rg32float storage texture (ID 7) is not allowed by WebGPU at all
 * today, not even with the texture-formats-tier2 feature, and a read-write
 * rgba32float one (ID 8) needs that feature (DGPB_STORAGE_FORMAT's
 * webgpu_feature). Measured with Dawn on an NVIDIA GPU (docs/conformance.md).
 * A warning, since the bundle itself is valid.
 */
static const struct {
    const char *name, *feature; /* feature: NULL when none offers the format */
} storage_formats[DGPB_WGPU_COUNT] = {
#define DGPB_STORAGE_FORMAT(ID, name, WEBGPU, slang_format, slang_type, webgpu_feature)            \
    [DGPB_WGPU_##WEBGPU] = {name, webgpu_feature},
#include "dgpb/vocabulary.def"
};

static void warn_storage_formats(build *b, int t)
{
    const char *target = dgpb_target_name((uint32_t)t);
    for (size_t e = 0; e < b->entry_count; e++) {
        const unit *u = build_unit_at(b, t, e);
        for (uint32_t r = 0; u->present && r < u->params.count; r++) {
            uint32_t id = u->params.rows[r].webgpu_layout;
            const char *format = id < DGPB_WGPU_COUNT ? storage_formats[id].name : NULL;
            const char *feature = format ? storage_formats[id].feature : NULL;
            if (format && !feature)
                build_report(b, DGPB_SEV_WARNING, DGPB_OK,
                             "target '%s', entry '%s', parameter '%s': WebGPU has no read-write "
                             "%s storage texture (not even with texture-formats-tier2); "
                             "WebGPU devices will refuse this entry's pipeline",
                             target, b->entries[e].name, u->params.rows[r].name, format);
            else if (format && *feature)
                build_report(b, DGPB_SEV_WARNING, DGPB_OK,
                             "target '%s', entry '%s', parameter '%s': a read-write %s "
                             "storage texture needs WebGPU's %s feature",
                             target, b->entries[e].name, u->params.rows[r].name, format, feature);
        }
    }
}

/* One WebGPU target's groups. */
static int check_target(build *b, int t)
{
    const char **names = mem_calloc(b->entry_count, sizeof *names);
    dgpb_param_table *tables = mem_calloc(b->entry_count, sizeof *tables);
    int rc = DGPB_OK;
    if (!names || !tables) {
        rc = DGPB_ERR_NOMEM;
        build_report(b, DGPB_SEV_ERROR, rc, "out of memory");
    }
    for (size_t g = 0; g < b->group_count && !rc; g++) {
        size_t n = 0;
        for (size_t e = 0; e < b->entry_count; e++) {
            const unit *u = build_unit_at(b, t, e);
            if (b->entries[e].group == g && u->present) {
                names[n] = b->entries[e].name;
                tables[n++] = u->params;
            }
        }
        dgpb_diag d;
        dgpb_diag_clear(&d);
        char context[64];
        snprintf(context, sizeof context, "target '%s'", dgpb_target_name((uint32_t)t));
        if (n && webgpu_check_group(b->groups[g].label, names, tables, n, &d) &&
            build_forward(b, &d, context) == DGPB_ERR_NOMEM)
            rc = DGPB_ERR_NOMEM; /* every other failure is the module's: check every group */
    }
    dgpb_free(names);
    dgpb_free(tables); /* the tables' rows belong to the units */
    warn_storage_formats(b, t);
    return rc;
}

int build_check_webgpu(build *b)
{
    assert(b && b->units && !b->errors);
    int rc = DGPB_OK;
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++)
        if ((b->targets & (1u << t)) && code_ops_of_target((dgpb_target_id)t)->webgpu)
            rc = check_target(b, t);
    return rc ? rc : b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}
