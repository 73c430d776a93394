/*
 * build_layouts.c - the build's layout stage (build_internal.h).
 *
 * build_record_layouts runs the layout recorder (dgpb-slang-layout, through
 * a native libslang; docs/layout.md) once per pipeline group and target, in
 * order of each group's first entry, keeps the blobs in b->layouts and points
 * each unit at its group's. The browser (wasm32) needs none; without a
 * recorder, or a native Slang library for it, the bundle goes without
 * layouts and one warning says so.
 */
#include <assert.h>
#include <stdio.h>

#include "alloc.h"
#include "build_internal.h"
#include "dgpb/layout_run.h"

/*
 * Records one group's layout for one target. DGPB_ERR_UNSUPPORTED (warned)
 * when the recorder finds no native libslang of its own; a --slang-lib it
 * cannot load is an error like any other.
 */
static int record_group(build *b, int t, size_t g, uint8_t **blob, size_t *size)
{
    const dgpb_build_desc *desc = b->desc;
    const char *target_name = dgpb_target_id_name((uint32_t)t);
    dgpb_layout_entry *entries = mem_calloc(b->entry_count, sizeof *entries);
    char *group_define = mem_printf("-D%s", b->groups[g].symbol);
    char *target_define = mem_printf("-D%s", dgpb_target_macro((uint32_t)t));
    char *output = mem_printf("%s/layouts-%s-%zu.bin", b->tmp, target_name, g);
    if (!entries || !group_define || !target_define || !output) {
        dgpb_free(entries);
        dgpb_free(group_define);
        dgpb_free(target_define);
        dgpb_free(output);
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t e = 0; e < b->entry_count; e++)
        if (b->entries[e].group == g && build_unit_at(b, t, e)->present)
            entries[n++] =
                (dgpb_layout_entry){b->entries[e].name, dgpb_stage_name(b->entries[e].stage)};
    const char *extra[3] = {group_define, target_define, "-matrix-layout-row-major"};
    dgpb_layout_run_desc run = {
        .recorder = desc->layout_recorder,
        .module = desc->module_file,
        .target = build_slang_target(t, t == DGPB_TARGET_METAL && b->metallib ? ROLE_METALLIB
                                                                              : ROLE_CODE),
        .entries = entries,
        .entry_count = n,
        .defines = desc->defines,
        .define_count = desc->define_count,
        .include_dirs = desc->include_dirs,
        .include_dir_count = desc->include_dir_count,
        .extra_args = extra,
        .extra_arg_count = 3,
        .output = output,
        .slang_lib = desc->slang_lib,
        .slangc =
            dgpb_compiler_is_embedded(desc->compiler) ? NULL : dgpb_compiler_path(desc->compiler),
    };
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (desc->verbose)
        build_report(b, DGPB_SEV_NOTE, DGPB_OK, "recording the layout of %s for '%s'",
                     b->groups[g].label, target_name);
    b->result->compile_count++;
    int rc = dgpb_layout_run(&run, blob, size, &diag);
    if (rc && (rc != DGPB_ERR_UNSUPPORTED || desc->slang_lib)) {
        char context[700];
        snprintf(context, sizeof context, "target '%s', %s: the layout recorder failed",
                 target_name, b->groups[g].label);
        build_forward(b, &diag, context);
    } else if (rc) {
        build_report(b, DGPB_SEV_WARNING, DGPB_OK,
                     "the layout recorder cannot load a native Slang library (%s): the bundle "
                     "carries no layouts, which native hosts reject (--slang-lib names one; "
                     "--no-layouts builds without them quietly)",
                     diag.message);
    }
    dgpb_free(entries);
    dgpb_free(group_define);
    dgpb_free(target_define);
    dgpb_free(output);
    return rc;
}

/* Drops every layout recorded so far: the bundle goes without layouts. */
static void drop_layouts(build *b)
{
    for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
        for (uint32_t i = 0; i < b->layouts[t].count; i++)
            dgpb_free(b->layouts[t].blobs[i]);
        b->layouts[t].count = 0;
    }
    for (size_t i = 0; i < (size_t)DGPB_TARGET_COUNT * b->entry_count; i++)
        b->units[i].layout = 0;
}

/*
 * Records one layout per pipeline group and target, in order of each group's
 * first entry, and points each entry at its group's. Nothing on wasm32 (the
 * browser binds from the parameter table), nor with desc->no_layouts.
 * Without a recorder, or when it finds no native Slang library (and none was
 * named), the bundle goes without layouts and one warning says so. Errors in the module are reported
 * for every group (DGPB_ERR_SHADER); a recorder that cannot work at all
 * stops at its first failure with that failure's code.
 */
int build_record_layouts(build *b)
{
    assert(b && b->units && !b->errors);
    if (b->platform == DGPB_PLATFORM_WASM32 || b->desc->no_layouts)
        return DGPB_OK;
    if (!b->desc->layout_recorder) {
        build_report(b, DGPB_SEV_WARNING, DGPB_OK,
                     "no layout recorder is configured: the bundle carries no layouts, which "
                     "native hosts reject (dgpb-slang-layout, --layout-recorder; --no-layouts "
                     "to build without them)");
        return DGPB_OK;
    }
    for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
        if (!(b->targets & (1u << t)))
            continue;
        target_layouts *layouts = &b->layouts[t];
        assert(layouts->count == 0);
        for (size_t g = 0; g < b->group_count; g++) {
            bool present = false;
            for (size_t e = 0; e < b->entry_count && !present; e++)
                present = b->entries[e].group == g && build_unit_at(b, t, e)->present;
            if (!present)
                continue;
            uint8_t *blob = NULL;
            size_t size = 0;
            int rc = record_group(b, t, g, &blob, &size);
            if (rc == DGPB_ERR_UNSUPPORTED && !b->desc->slang_lib) {
                drop_layouts(b); /* no layouts anywhere */
                return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
            }
            if (rc && dgpb_result_class(rc) != DGPB_ERR_SHADER)
                return rc; /* the recorder cannot work: every other group would fail the same */
            if (rc)
                continue; /* the module's errors: go on to show every group's */
            uint8_t **blobs = mem_realloc(layouts->blobs, (layouts->count + 1) * sizeof *blobs);
            size_t *sizes =
                blobs ? mem_realloc(layouts->sizes, (layouts->count + 1) * sizeof *sizes) : NULL;
            if (blobs)
                layouts->blobs = blobs;
            if (sizes)
                layouts->sizes = sizes;
            if (!blobs || !sizes) {
                dgpb_free(blob);
                build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
                return DGPB_ERR_NOMEM;
            }
            layouts->blobs[layouts->count] = blob;
            layouts->sizes[layouts->count] = size;
            for (size_t e = 0; e < b->entry_count; e++)
                if (b->entries[e].group == g)
                    build_unit_at(b, t, e)->layout = layouts->count;
            layouts->count++;
        }
    }
    return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}
