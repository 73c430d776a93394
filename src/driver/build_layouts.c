/*
 * build_layouts.c - the build's layout stage (build_internal.h).
 *
 * build_record_layouts records one layout blob per pipeline group and target
 * (dgpb-slang-layout, through a native libslang; docs/layout.md), keeps the
 * blobs in b->layouts in order of each group's first entry and points each
 * unit at its group's. When the compiler has the recorder (dgpb-build's
 * case), every layout is one job of a single batch on it: on the native
 * workers that also compile, or as recorder processes, `-j` at once.
 * Otherwise (a library caller that only names a recorder) the recorder runs
 * once per group, in turn. The browser (wasm32) needs none; without a
 * recorder, or a native Slang library for it, the bundle goes without
 * layouts and one warning says so.
 */
#include <assert.h>
#include <stdio.h>
#include <unistd.h>

#include "code/code_format.h"
#include "core/alloc.h"
#include "driver/build_internal.h"
#include "recorder/recording.h"

/* One group's layout for one target. */
typedef struct layout_task {
    int target;
    size_t group;
    dgpb_layout_entry *entries;
    char *group_define, *target_define, *output;
    const char **extra; /* the group's and target's macros, then the project options */
    recording_desc run;
    recording_args args; /* for a batch: the recorder's arguments after its options */
} layout_task;

static void task_free(layout_task *k)
{
    dgpb_free(k->entries);
    dgpb_free(k->group_define);
    dgpb_free(k->target_define);
    dgpb_free(k->output);
    dgpb_free(k->extra);
    recording_args_free(&k->args);
}

static int task_make(build *b, int t, size_t g, layout_task *k)
{
    const dgpb_build_desc *desc = b->desc;
    k->target = t;
    k->group = g;
    k->entries = mem_calloc(b->entry_count, sizeof *k->entries);
    k->group_define = mem_printf("-D%s", b->groups[g].symbol);
    k->target_define = mem_printf("-D%s", target_macro((uint32_t)t));
    k->output = build_layout_output(b, t, g);
    k->extra = mem_calloc(2 + BUILD_OPTION_ARGS_MAX(b), sizeof *k->extra);
    if (!k->entries || !k->group_define || !k->target_define || !k->output || !k->extra) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t e = 0; e < b->entry_count; e++)
        if (b->entries[e].group == g && build_unit_at(b, t, e)->present)
            k->entries[n++] =
                (dgpb_layout_entry){b->entries[e].name, dgpb_stage_name(b->entries[e].stage)};
    const char *slang_target = build_slang_target(
        t, target_has_final((uint32_t)t) && b->metallib ? ROLE_METALLIB : ROLE_CODE);
    size_t extra = 0;
    k->extra[extra++] = k->group_define;
    k->extra[extra++] = k->target_define;
    bool spirv = code_ops_of_target((dgpb_target_id)t)->spirv_version != NULL;
    for (const char *arg; (arg = build_option_arg(b, spirv, extra - 2));)
        k->extra[extra++] = arg;
    k->run = (recording_desc){
        .recorder = desc->layout_recorder,
        .module = desc->module_file,
        .target = slang_target,
        .entries = k->entries,
        .entry_count = n,
        .defines = desc->defines,
        .define_count = desc->define_count,
        .include_dirs = desc->include_dirs,
        .include_dir_count = desc->include_dir_count,
        .extra_args = k->extra,
        .extra_arg_count = extra,
        .output = k->output,
        .slang_lib = desc->slang_lib,
        .slangc =
            dgpb_compiler_is_embedded(desc->compiler) ? NULL : dgpb_compiler_path(desc->compiler),
    };
    return DGPB_OK;
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

/* Keeps a group's blob (taken) and points the group's units at it. */
static int keep_layout(build *b, const layout_task *k, uint8_t *blob, size_t size)
{
    target_layouts *layouts = &b->layouts[k->target];
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
        if (b->entries[e].group == k->group)
            build_unit_at(b, k->target, e)->layout = layouts->count;
    layouts->count++;
    return DGPB_OK;
}

/* The stage's answer to one group's result, in group order. */
enum next { NEXT_GO_ON, NEXT_NO_LAYOUTS, NEXT_STOP };

static enum next take_result(build *b, const layout_task *k, int rc, const dgpb_diag *diag,
                             uint8_t *blob, size_t size, int *stop_rc)
{
    if (!rc) {
        *stop_rc = keep_layout(b, k, blob, size);
        return *stop_rc ? NEXT_STOP : NEXT_GO_ON;
    }
    if (rc == DGPB_ERR_UNSUPPORTED && !b->desc->slang_lib) {
        /* About this installation, not the module: code DGPB_ERR_UNSUPPORTED (build_report.c). */
        build_report(b, DGPB_SEV_WARNING, DGPB_ERR_UNSUPPORTED,
                     "the layout recorder cannot load a native Slang library (%s): the bundle "
                     "carries no layouts, which native hosts reject (--slang-lib names one; "
                     "--no-layouts builds without them quietly)",
                     diag->message);
        return NEXT_NO_LAYOUTS;
    }
    char context[700];
    snprintf(context, sizeof context, "target '%s', %s: the layout recorder failed",
             dgpb_target_name((uint32_t)k->target), b->groups[k->group].label);
    /* Slang's diagnostics in the recorder's message name the module as the user did. */
    char *given = build_text_as_given(b, diag->message, (int)strlen(diag->message));
    dgpb_diag d = *diag;
    if (given)
        snprintf(d.message, sizeof d.message, "%s", given);
    dgpb_free(given);
    build_forward(b, &d, context);
    if (dgpb_result_class(rc) != DGPB_ERR_SHADER) {
        *stop_rc = rc; /* the recorder cannot work: every other group would fail the same */
        return NEXT_STOP;
    }
    return NEXT_GO_ON; /* the module's errors: go on to show every group's */
}

typedef struct task_names {
    const build *b;
    const layout_task *tasks;
    char target[64];
} task_names;

/* A layout job for progress reports: its group, and "<target> layout". */
static void name_task(void *ctx, size_t job, const char **entry_name, const char **target_name)
{
    task_names *n = ctx;
    const layout_task *k = &n->tasks[job];
    snprintf(n->target, sizeof n->target, "%s layout", dgpb_target_name((uint32_t)k->target));
    *entry_name = n->b->groups[k->group].label;
    *target_name = n->target;
}

/* The layout jobs that run (those the cache did not answer), for progress reports. */
typedef struct miss_names {
    task_names names;
    const size_t *from; /* the task of each job that runs */
} miss_names;

static void name_miss(void *ctx, size_t job, const char **entry_name, const char **target_name)
{
    miss_names *m = ctx;
    name_task(&m->names, m->from[job], entry_name, target_name);
}

/*
 * Takes the layout a task's group's compile recorded (build_layout_with_compile()): its
 * file is there, written whole by the worker. A compile from the cache, or one whose worker
 * could not record the layout, left none: the task is then a layout job as any other.
 */
static bool take_recorded(build *b, const layout_task *k, dgpb_compile_job *job, cached_job *c)
{
    if (!build_layout_with_compile(b, k->target, k->group) || access(k->output, F_OK))
        return false;
    char *diagnostics = mem_strdup(""), *output = mem_strdup("");
    if (!diagnostics || !output) {
        dgpb_free(diagnostics);
        dgpb_free(output);
        return false;
    }
    job->status = 0;
    job->diagnostics = diagnostics;
    job->output = output;
    c->recorded = true;
    if (b->desc->verbose)
        build_report(b, DGPB_SEV_NOTE, DGPB_OK,
                     "the layout of %s for '%s' was recorded by its compile",
                     b->groups[k->group].label, dgpb_target_name((uint32_t)k->target));
    return true;
}

/*
 * Runs every task as one batch of layout jobs on the compiler, but for those
 * whose blob the compile cache holds (build_cache.c) or their group's compile
 * recorded; fills rcs[], diags[], blobs.
 */
static int run_batch(build *b, layout_task *tasks, size_t count, int *rcs, dgpb_diag *diags,
                     uint8_t **blobs, size_t *sizes)
{
    dgpb_compile_job *jobs = mem_calloc(count, sizeof *jobs);
    dgpb_compile_job *run = mem_calloc(count, sizeof *run);
    cached_job *cached = mem_calloc(count, sizeof *cached);
    const char **outputs = mem_calloc(count, sizeof *outputs);
    size_t *from = mem_calloc(count, sizeof *from);
    int rc = DGPB_OK;
    if (!jobs || !run || !cached || !outputs || !from) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < count && !rc; i++) {
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if ((rc = recording_args_make(&tasks[i].run, false, &tasks[i].args, &d)))
            build_forward(b, &d, "the layout recorder");
        jobs[i] = (dgpb_compile_job){
            .args = tasks[i].args.argv, .arg_count = tasks[i].args.count, .layout = true};
        /* One parse per module: the group's layout from the module the target's discovery
           checked, when it is the same text and Slang target (docs/layout.md) */
        int t = tasks[i].target;
        if (build_may_share(b, t) &&
            !strcmp(tasks[i].run.target, build_slang_target(t, ROLE_DISCOVER))) {
            jobs[i].checked_as = (const char *const *)b->checked[t];
            jobs[i].checked_as_count = b->checked_count[t];
        }
        outputs[i] = tasks[i].output;
        cached[i].target = tasks[i].target;
        cached[i].group = tasks[i].group;
        if (!rc)
            take_recorded(b, &tasks[i], &jobs[i], &cached[i]);
    }
    if (!rc)
        build_cache_lookup_layouts(b, jobs, count, outputs, cached);
    size_t misses = 0, recorded = 0;
    for (size_t i = 0; i < count && !rc; i++) {
        recorded += cached[i].recorded;
        if (cached[i].hit || cached[i].recorded)
            continue;
        if (b->desc->verbose)
            build_report(b, DGPB_SEV_NOTE, DGPB_OK, "recording the layout of %s for '%s'",
                         b->groups[tasks[i].group].label,
                         dgpb_target_name((uint32_t)tasks[i].target));
        from[misses] = i;
        run[misses++] = jobs[i];
    }
    if (!rc && misses) {
        dgpb_diag d;
        dgpb_diag_clear(&d);
        b->result->compile_count += (uint32_t)misses;
        miss_names names = {{.b = b, .tasks = tasks}, from};
        rc = build_compiler_run(b, run, misses, name_miss, &names, &d);
        for (size_t k = 0; k < misses; k++) {
            jobs[from[k]] = run[k];
            b->result->checked_count += run[k].checked;
        }
        if (rc)
            build_forward(b, &d, "the layout recorder failed");
    }
    if (!rc && (misses || recorded))
        build_cache_store_layouts(b, jobs, count, outputs, cached);
    for (size_t i = 0; i < count && !rc; i++) {
        uint8_t *held = NULL;
        size_t held_n = 0;
        /* A layout from the cache is held in memory (build_hold_output), not written. */
        if (cached[i].hit && !b->desc->keep_temps &&
            !build_read_output_bytes(b, outputs[i], &held, &held_n, &diags[i]))
            rcs[i] = recording_take_blob(&tasks[i].run, held, held_n, &blobs[i], &sizes[i],
                                         &diags[i]);
        else
            rcs[i] = recording_collect(&tasks[i].run, jobs[i].status, jobs[i].diagnostics,
                                       &blobs[i], &sizes[i], &diags[i]);
    }
done:
    if (jobs)
        dgpb_compile_jobs_clear(jobs, count);
    dgpb_free(jobs);
    dgpb_free(run);
    dgpb_free(cached);
    dgpb_free(outputs);
    dgpb_free(from);
    return rc;
}

/*
 * Records one layout per pipeline group and target, in order of each group's
 * first entry, and points each entry at its group's. Nothing on wasm32 (the
 * browser binds from the parameter table), nor with desc->no_layouts.
 * Without a recorder, or when it finds no native Slang library (and none was
 * named), the bundle goes without layouts and one warning says so. Errors in
 * the module are reported for every group (DGPB_ERR_SHADER); a recorder that
 * cannot work at all stops at its first failure with that failure's code.
 */
int build_record_layouts(build *b)
{
    assert(b && b->units && !b->errors);
    if (b->platform == DGPB_PLATFORM_WASM32 || b->desc->no_layouts)
        return DGPB_OK;
    if (!b->desc->layout_recorder) {
        build_report(b, DGPB_SEV_WARNING, DGPB_ERR_UNSUPPORTED,
                     "no layout recorder is configured: the bundle carries no layouts, which "
                     "native hosts reject (dgpb-slang-layout, --layout-recorder; --no-layouts "
                     "to build without them)");
        return DGPB_OK;
    }
    size_t cap = (size_t)DGPB_TARGET_COUNT * b->group_count, count = 0;
    layout_task *tasks = mem_calloc(cap, sizeof *tasks);
    int *rcs = mem_calloc(cap, sizeof *rcs);
    dgpb_diag *diags = mem_calloc(cap, sizeof *diags);
    uint8_t **blobs = mem_calloc(cap, sizeof *blobs);
    size_t *sizes = mem_calloc(cap, sizeof *sizes);
    int rc = DGPB_OK;
    if (!tasks || !rcs || !diags || !blobs || !sizes) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
        goto done;
    }
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++) {
        if (!(b->targets & (1u << t)))
            continue;
        assert(b->layouts[t].count == 0);
        for (size_t g = 0; g < b->group_count && !rc; g++) {
            bool present = false;
            for (size_t e = 0; e < b->entry_count && !present; e++)
                present = b->entries[e].group == g && build_unit_at(b, t, e)->present;
            if (present)
                rc = task_make(b, t, g, &tasks[count++]);
        }
    }
    bool batch = dgpb_compiler_has_recorder(b->desc->compiler);
    if (!rc && batch && count) {
        /* The first group alone first: a recorder that finds no native Slang library fails
           every group the same way, and the others would only start as many processes to say
           so again. */
        rc = run_batch(b, tasks, 1, rcs, diags, blobs, sizes);
        bool no_library = rcs[0] == DGPB_ERR_UNSUPPORTED && !b->desc->slang_lib;
        if (!rc && count > 1 && !no_library)
            rc = run_batch(b, tasks + 1, count - 1, rcs + 1, diags + 1, blobs + 1, sizes + 1);
    }
    for (size_t i = 0; i < count && !rc; i++) {
        layout_task *k = &tasks[i];
        if (!batch) {
            if (b->desc->verbose)
                build_report(b, DGPB_SEV_NOTE, DGPB_OK, "recording the layout of %s for '%s'",
                             b->groups[k->group].label, dgpb_target_name((uint32_t)k->target));
            b->result->compile_count++;
            rcs[i] = recording_run(&k->run, &blobs[i], &sizes[i], &diags[i]);
        }
        int stop_rc = DGPB_OK;
        enum next next = take_result(b, k, rcs[i], &diags[i], blobs[i], sizes[i], &stop_rc);
        blobs[i] = NULL; /* kept, or never made */
        if (next == NEXT_NO_LAYOUTS) {
            drop_layouts(b);
            break;
        }
        if (next == NEXT_STOP)
            rc = stop_rc;
    }
done:
    for (size_t i = 0; i < count; i++) {
        dgpb_free(blobs[i]);
        task_free(&tasks[i]);
    }
    dgpb_free(tasks);
    dgpb_free(rcs);
    dgpb_free(diags);
    dgpb_free(blobs);
    dgpb_free(sizes);
    if (rc)
        return rc;
    return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}
