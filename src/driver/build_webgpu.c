/*
 * build_webgpu.c - the build's WebGPU stage (build_internal.h).
 *
 * build_check_webgpu checks what WebGPU asks of a whole pipeline: each
 * group's tables on a WebGPU target (code_ops' webgpu: wgsl) against
 * WebGPU's per-stage limits and the one bind group layout its entries share,
 * then warns of storage textures whose format and access WebGPU devices
 * offer only with a feature, or not at all. The per-entry checks run with
 * the tables (build_tables.c). Nothing to do without such a target.
 */
#include <assert.h>
#include <stdio.h>

#include "code/code_format.h"
#include "core/alloc.h"
#include "driver/build_internal.h"
#include "tables/webgpu_limits.h"

/* How an access mode reads in messages ("read-write storage texture"). */
static const char *access_text(uint32_t access)
{
    return access == DGPB_ACCESS_READ    ? "read-only"
           : access == DGPB_ACCESS_WRITE ? "write-only"
                                         : "read-write";
}

/*
 * Storage textures that the format allows but WebGPU devices may not: each
 * row's ID made from its shape (or one of the table's, 6 to 9) decoded to its
 * texel format and access, and what WebGPU asks of a device for that
 * (dgpb_webgpu_storage_feature, DGPB_TEXEL_FORMAT's storage and read_write:
 * a read-write rgba16float needs texture-formats-tier2, a read-write
 * rg32float no device offers; docs/conformance.md measured the second with
 * Dawn). A warning, since the bundle itself is valid.
 */
static void warn_storage_formats(build *b, int t)
{
    const char *target = dgpb_target_name((uint32_t)t);
    for (size_t e = 0; e < b->entry_count; e++) {
        const unit *u = build_unit_at(b, t, e);
        for (uint32_t r = 0; u->present && r < u->params.count; r++) {
            const dgpb_param_desc *row = &u->params.rows[r];
            uint32_t kind, shape;
            if (!dgpb_webgpu_layout_decode(row->webgpu_layout, &kind, &shape) ||
                kind != DGPB_KIND_RW_TEXTURE)
                continue;
            uint32_t format = DGPB_SHAPE_FORMAT_OF(shape), access = DGPB_SHAPE_ACCESS_OF(shape);
            const char *feature = dgpb_webgpu_storage_feature(format, access);
            const char *name = dgpb_texel_format_name(format);
            if (!feature)
                build_report(b, DGPB_SEV_WARNING, DGPB_OK,
                             "target '%s', entry '%s', parameter '%s': WebGPU has no %s %s "
                             "storage texture (no feature offers one); WebGPU devices will "
                             "refuse this entry's pipeline",
                             target, b->entries[e].name, row->name, access_text(access),
                             name ? name : "?");
            else if (*feature)
                build_report(b, DGPB_SEV_WARNING, DGPB_OK,
                             "target '%s', entry '%s', parameter '%s': a %s %s storage texture "
                             "needs WebGPU's %s feature",
                             target, b->entries[e].name, row->name, access_text(access), name,
                             feature);
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
