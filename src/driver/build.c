/*
 * build.c - the producer pipeline (dgpb/build.h): dgpb_build() and its cleanup.
 *
 * One dgpb_build() call walks the stages in order (the table `stages`
 * below), each filling the `build` state (build_internal.h) for the next and
 * stopping the build at the first stage that reports an error:
 *
 *   1. recover_outputs finish (or undo) what a killed build left half
 *                      replaced of these outputs              (build_emit.c)
 *   2. replay          begin the compile cache's session; a build the cache
 *                      holds whole is written from it, and the build is done
 *                                                              (build_replay.c)
 *   3. prepare         read and scan the module, pick targets, make the
 *                      intermediate folder                    (build_discover.c)
 *   4. discover        entries per target, from Slang; pipeline groups
 *                                                              (build_discover.c)
 *   5. compile         one job per entry and target, plus SPIR-V probes, then
 *                      read_outputs: code, SPIR-V analysis, reflection
 *                                                              (build_compile.c)
 *   6. make_tables     parameter tables, the binding proof, capabilities,
 *                      SPIR-V validation; checks across targets and groups
 *                                                              (build_tables.c)
 *   7. check_webgpu    WebGPU limits per group, storage formats (build_webgpu.c)
 *   8. record_layouts  one layout per pipeline group and target
 *                                                              (build_layouts.c)
 *   9. emit            model, writer, JSON view, atomic writes; the build
 *                      filed in the compile cache             (build_emit.c)
 *
 * dgpb_build_list() runs prepare and discover only, on a copy of the
 * description without cache, depfile or output folder, and copies the
 * entries and groups out (`dgpb-build --list`).
 *
 * Before the stages, build_options.c checks the project options (and refuses
 * those the compiler cannot honour). Compile jobs are build_jobs.c's,
 * diagnostics build_report.c's.
 * Intermediate files live in one private folder, named by entry index, never
 * by entry name, removed at the end unless desc->keep_temps. desc->cancel
 * stops the build between stages and inside every run of the compiler (its
 * children killed and waited for); the same cleanup then runs.
 */
#define _XOPEN_SOURCE 700
#include "dgpb/build.h"

#include <assert.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "driver/build_internal.h"

/* ---- cleanup ---- */

static int remove_path(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Removes (or reports) the intermediate folder and frees everything the stages made. */
static void finish(build *b)
{
    if (b->tmp[0]) {
        if (b->desc->keep_temps) {
            build_report(b, DGPB_SEV_NOTE, DGPB_OK, "intermediate files kept in '%s'", b->tmp);
        } else {
            nftw(b->tmp, remove_path, 16, FTW_DEPTH | FTW_PHYS);
            b->result->temp_dir[0] = 0;
        }
    }
    for (int t = 0; b->units && t < DGPB_TARGET_COUNT; t++)
        for (size_t e = 0; e < b->entry_count; e++) {
            unit *u = build_unit_at(b, t, e);
            dgpb_free(u->code);
            reflection_free(u->reflection);
            reflection_free(u->probe_reflection);
            if (!u->spirv_shared)
                spirv_info_free(u->spirv);
            param_table_clear(&u->params);
            wgsl_module_free(u->wgsl);
        }
    dgpb_free(b->units);
    for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
        for (uint32_t i = 0; i < b->layouts[t].count; i++)
            dgpb_free(b->layouts[t].blobs[i]);
        dgpb_free(b->layouts[t].blobs);
        dgpb_free(b->layouts[t].sizes);
    }
    for (size_t i = 0; i < b->entry_count; i++)
        dgpb_free(b->entries[i].name);
    dgpb_free(b->entries);
    for (size_t i = 0; i < b->group_count; i++) {
        dgpb_free(b->groups[i].symbol);
        dgpb_free(b->groups[i].label);
    }
    dgpb_free(b->groups);
    group_symbols_free(b->symbols, b->symbol_count);
    dgpb_free(b->source);
    dgpb_free(b->wrapper);
    for (size_t i = 0; b->define_args && i < b->desc->define_count; i++)
        dgpb_free(b->define_args[i]);
    dgpb_free(b->define_args);
    build_deps_free(b);
    dgpb_free(b->seen);
    cache_session_end(&b->cache);
    build_options_free(b);
}

/* ---- the pipeline ---- */

/* One stage: it returns DGPB_OK to go on (b->done when it finished the build) or the result
   that stops the build. */
typedef struct stage {
    int (*run)(build *b);
    bool cancellable; /* desc->cancel is looked at before it */
} stage;

/* The stages in order, as the list at the top of this file names them. */
static const stage stages[] = {
    {build_recover_outputs, false}, /* 1. recover_outputs */
    {build_replay, false},          /* 2. replay */
    {build_prepare, true},          /* 3. prepare */
    {build_discover, true},         /* 4. discover */
    {build_compile, true},          /* 5. compile */
    {build_make_tables, true},      /* 6. make_tables */
    {build_check_webgpu, true},     /* 7. check_webgpu */
    {build_record_layouts, true},   /* 8. record_layouts */
    {build_emit, true},             /* 9. emit */
};

/* Whether desc->cancel asks the build to stop (a signal, in dgpb-build). */
static bool interrupted(const build *b)
{
    return b->desc->cancel && *b->desc->cancel;
}

/* Runs stages [first, last) of the table on b, as dgpb_build() does. */
static int run_stages(build *b, size_t first, size_t last)
{
    int rc = DGPB_OK;
    for (size_t i = first; i < last && !rc && !b->done; i++) {
        rc = stages[i].cancellable && interrupted(b) ? DGPB_ERR_INTERRUPTED : stages[i].run(b);
        if (!rc && b->errors) /* a warning a stage reported under --warnings-as-errors */
            rc = DGPB_ERR_SHADER;
    }
    return rc;
}

int dgpb_build(const dgpb_build_desc *desc, dgpb_build_result *result)
{
    assert(desc && result);
    build b;
    memset(&b, 0, sizeof b);
    memset(result, 0, sizeof *result);
    b.desc = desc;
    b.result = result;
    if (!desc->module_file || !desc->compiler) {
        build_report(&b, DGPB_SEV_ERROR, DGPB_ERR_INVALID, "no module or compiler given");
        return DGPB_ERR_INVALID;
    }
    int rc = build_check_output_names(&b);
    if (!rc)
        rc = build_check_options(&b);
    if (!rc)
        rc = run_stages(&b, 0, sizeof stages / sizeof stages[0]);
    finish(&b);
    return rc;
}

/* ---- the list of entries ---- */

void dgpb_entry_list_free(dgpb_entry_list *list)
{
    if (!list)
        return;
    for (size_t i = 0; list->entries && i < list->entry_count; i++)
        dgpb_free((char *)list->entries[i].name);
    for (size_t i = 0; list->groups && i < list->group_count; i++) {
        dgpb_free((char *)list->groups[i].symbol);
        dgpb_free((char *)list->groups[i].label);
    }
    dgpb_free(list->entries);
    dgpb_free(list->groups);
    dgpb_free(list);
}

/* Copies the discovered entries and groups of b into a new list; NULL when out of memory. */
static dgpb_entry_list *list_of(const build *b)
{
    dgpb_entry_list *l = mem_calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->targets = 0; /* the targets the build writes: those that carry an entry */
    l->entries = mem_calloc(b->entry_count ? b->entry_count : 1, sizeof *l->entries);
    l->groups = mem_calloc(b->group_count ? b->group_count : 1, sizeof *l->groups);
    bool ok = l->entries && l->groups;
    for (size_t i = 0; ok && i < b->entry_count; i++) {
        const entry *e = &b->entries[i];
        dgpb_listed_entry *out = &l->entries[l->entry_count++];
        out->name = mem_strdup(e->name);
        out->stage = e->stage;
        if (dgpb_stage_has_thread_group(e->stage))
            memcpy(out->thread_group_size, e->thread_group_size, sizeof out->thread_group_size);
        out->group = (uint32_t)e->group;
        out->targets = e->targets;
        l->targets |= e->targets;
        ok = out->name != NULL;
    }
    for (size_t i = 0; ok && i < b->group_count; i++) {
        dgpb_listed_group *out = &l->groups[l->group_count++];
        out->symbol = mem_strdup(b->groups[i].symbol);
        out->label = mem_strdup(b->groups[i].label);
        ok = out->symbol && out->label;
    }
    if (!ok) {
        dgpb_entry_list_free(l);
        return NULL;
    }
    return l;
}

int dgpb_build_list(const dgpb_build_desc *desc, dgpb_entry_list **out)
{
    assert(desc && out);
    *out = NULL;
    /* The discovery alone, writing nothing: no cache, no depfile, no output folder. */
    dgpb_build_desc listing = *desc;
    listing.cache = NULL;
    listing.depfile = false;
    listing.depfile_path = NULL;
    listing.out_dir = NULL;
    listing.bundle_file = NULL;
    listing.layout_recorder = NULL;
    listing.no_layouts = true;
    dgpb_build_result result;
    memset(&result, 0, sizeof result);
    build b;
    memset(&b, 0, sizeof b);
    b.desc = &listing;
    b.result = &result;
    if (!desc->module_file || !desc->compiler) {
        build_report(&b, DGPB_SEV_ERROR, DGPB_ERR_INVALID, "no module or compiler given");
        return DGPB_ERR_INVALID;
    }
    /* From prepare to discover (the table's stages 3 and 4). */
    size_t first = 0, last = 0;
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
        if (stages[i].run == build_prepare)
            first = i;
        if (stages[i].run == build_discover)
            last = i + 1;
    }
    assert(first < last);
    int rc = build_check_options(&b);
    if (!rc)
        rc = run_stages(&b, first, last);
    if (!rc && !(*out = list_of(&b))) {
        build_report(&b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
    }
    finish(&b);
    return rc;
}
