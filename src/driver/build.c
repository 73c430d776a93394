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
 * entries and groups out (`dgpb-build --list`); with desc->list_check it then
 * builds each entry for each of its targets on its own (prepare to
 * check_webgpu, entries other than it dropped after discover), a failure
 * taking the target off the entry with its first error as the reason.
 *
 * Before the stages, build_options.c checks the project options (and refuses
 * those the compiler cannot honour). Compile jobs are build_jobs.c's,
 * diagnostics build_report.c's.
 * Intermediate files live in one private folder, named by entry index, never
 * by entry name, removed at the end unless desc->keep_temps. desc->cancel
 * stops the build between stages and inside every run of the compiler (its
 * children killed and waited for); the same cleanup then runs.
 */
#define _XOPEN_SOURCE 700 /* nftw, realpath */
#include "dgpb/build.h"

#include <assert.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "driver/build_internal.h"
#include "scan/entry_scan.h"

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
    build_held_free(b);
    for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
        for (uint32_t i = 0; i < b->layouts[t].count; i++)
            dgpb_free(b->layouts[t].blobs[i]);
        dgpb_free(b->layouts[t].blobs);
        dgpb_free(b->layouts[t].sizes);
    }
    for (size_t i = 0; i < b->entry_count; i++) {
        dgpb_free(b->entries[i].name);
        for (int t = 0; t < DGPB_TARGET_COUNT; t++)
            dgpb_free(b->entries[i].refused[t]);
    }
    dgpb_free(b->entries);
    for (size_t i = 0; i < b->group_count; i++) {
        dgpb_free(b->groups[i].symbol);
        dgpb_free(b->groups[i].label);
    }
    dgpb_free(b->groups);
    group_symbols_free(b->symbols, b->symbol_count);
    dgpb_free(b->source);
    dgpb_free(b->wrapper);
    for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
        for (size_t i = 0; b->checked[t] && i < b->checked_count[t]; i++)
            dgpb_free(b->checked[t][i]);
        dgpb_free(b->checked[t]);
        for (size_t i = 0; b->checked_code[t] && i < b->checked_code_count[t]; i++)
            dgpb_free(b->checked_code[t][i]);
        dgpb_free(b->checked_code[t]);
    }
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
    bool cancellable;       /* desc->cancel is looked at before it */
    dgpb_build_phase phase; /* where its time goes */
} stage;

/* The stages in order, as the list at the top of this file names them. */
static const stage stages[] = {
    {build_recover_outputs, false, DGPB_PHASE_REPLAY}, /* 1. recover_outputs */
    {build_replay, false, DGPB_PHASE_REPLAY},          /* 2. replay */
    {build_prepare, true, DGPB_PHASE_PREPARE},         /* 3. prepare */
    {build_discover, true, DGPB_PHASE_DISCOVER},       /* 4. discover */
    {build_compile, true, DGPB_PHASE_COMPILE},         /* 5. compile */
    {build_make_tables, true, DGPB_PHASE_TABLES},      /* 6. make_tables */
    {build_check_webgpu, true, DGPB_PHASE_WEBGPU},     /* 7. check_webgpu */
    {build_record_layouts, true, DGPB_PHASE_LAYOUTS},  /* 8. record_layouts */
    {build_emit, true, DGPB_PHASE_EMIT},               /* 9. emit */
};

/* Whether desc->cancel asks the build to stop (a signal, in dgpb-build). */
static bool interrupted(const build *b)
{
    return b->desc->cancel && *b->desc->cancel;
}

/* Runs stages [first, last) of the table on b, as dgpb_build() does; each stage's time, but
   what it gave to a sub-phase (build_time_add), goes to its phase. */
static int run_stages(build *b, size_t first, size_t last)
{
    int rc = DGPB_OK;
    for (size_t i = first; i < last && !rc && !b->done; i++) {
        double start = build_now();
        b->claimed = 0;
        rc = stages[i].cancellable && interrupted(b) ? DGPB_ERR_INTERRUPTED : stages[i].run(b);
        b->result->phase_seconds[stages[i].phase] += build_now() - start - b->claimed;
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
    for (size_t i = 0; list->entries && i < list->entry_count; i++) {
        dgpb_free((char *)list->entries[i].name);
        for (int t = 0; t < DGPB_TARGET_COUNT; t++)
            dgpb_free((char *)list->entries[i].not_built[t]);
    }
    for (size_t i = 0; list->groups && i < list->group_count; i++) {
        dgpb_free((char *)list->groups[i].symbol);
        dgpb_free((char *)list->groups[i].label);
    }
    dgpb_free(list->entries);
    dgpb_free(list->groups);
    dgpb_free(list);
}

/*
 * Why target `t` of the build does not carry entry `e`, a new string: the discovery's
 * refusal, a compute-only target's rule, or the module's leaving it out.
 */
static char *not_built(const build *b, const entry *e, uint32_t t)
{
    if (e->refused[t])
        return mem_strdup(e->refused[t]);
    if ((dgpb_target_traits(t) & DGPB_TRAIT_COMPUTE_ONLY) && e->stage != DGPB_STAGE_COMPUTE)
        return mem_printf("%s carries compute entries only", dgpb_target_name(t));
    (void)b;
    return mem_printf("the module leaves it out when %s is defined", target_macro(t));
}

/* Copies the discovered entries and groups of b into a new list; NULL when out of memory. */
static dgpb_entry_list *list_of(const build *b)
{
    dgpb_entry_list *l = mem_calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->targets = 0; /* the targets the build writes: those that carry an entry */
    l->build_targets = b->targets;
    l->library = b->result->library_module;
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
        for (uint32_t t = 0; ok && t < DGPB_TARGET_COUNT; t++)
            if ((b->targets & (1u << t)) && !(e->targets & (1u << t)))
                ok = (out->not_built[t] = not_built(b, e, t)) != NULL;
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

/* The index of a stage in the table. */
static size_t stage_index(int (*run)(build *b))
{
    size_t i = 0;
    while (i < sizeof stages / sizeof stages[0] && stages[i].run != run)
        i++;
    assert(i < sizeof stages / sizeof stages[0]);
    return i;
}

/*
 * Keeps entry `name` alone in b, in a group of its own: what the stages after discover build.
 * DGPB_ERR_NOT_FOUND when the discovery did not find it.
 */
static int keep_only(build *b, const char *name)
{
    size_t keep = 0;
    while (keep < b->entry_count && strcmp(b->entries[keep].name, name))
        keep++;
    if (keep == b->entry_count)
        return DGPB_ERR_NOT_FOUND;
    entry kept = b->entries[keep];
    group g = b->groups[kept.group];
    for (size_t i = 0; i < b->entry_count; i++) {
        if (i == keep)
            continue;
        dgpb_free(b->entries[i].name);
        for (int t = 0; t < DGPB_TARGET_COUNT; t++)
            dgpb_free(b->entries[i].refused[t]);
    }
    for (size_t i = 0; i < b->group_count; i++)
        if (i != kept.group) {
            dgpb_free(b->groups[i].symbol);
            dgpb_free(b->groups[i].label);
        }
    kept.group = 0;
    g.first = 0;
    b->entries[0] = kept;
    b->entry_count = 1;
    b->groups[0] = g;
    b->group_count = 1;
    return DGPB_OK;
}

/*
 * The first error a checked entry's build reports: the listing's reason. The build splits
 * a failed compile's report (split_compiler_diagnostics): "compile failed (exit status N)",
 * then Slang's diagnostics, the first of which is the reason's detail.
 */
typedef struct first_error {
    char *reason; /* owned; NULL until an error */
    bool nomem;
    bool detail;                   /* the reason waits for its detail: Slang's first error */
    char file[DGPB_DIAG_FILE_MAX]; /* where the detail is, when Slang said */
    uint32_t line;
} first_error;

static void take_first_error(const dgpb_diag *d, void *user)
{
    first_error *f = user;
    if (d->severity == DGPB_SEV_ERROR && f->detail && !f->nomem) {
        snprintf(f->file, sizeof f->file, "%s", d->file);
        f->line = d->line;
        char *more = mem_printf("%s: %s%s%.*s", f->reason, d->tool_code,
                                d->tool_code[0] ? ": " : "", (int)strcspn(d->message, "\n"),
                                d->message);
        dgpb_free(f->reason);
        f->reason = more;
        f->nomem = !more;
        f->detail = false;
        return;
    }
    if (d->severity != DGPB_SEV_ERROR || f->reason || f->nomem)
        return;
    /* "target 'wgsl', entry 'k': why" says what the listing's line says already */
    const char *m = d->message, *colon = strstr(m, "': ");
    if (!strncmp(m, "target '", 8) && colon && strstr(m, ", entry '") &&
        strstr(m, ", entry '") < colon)
        m = colon + 3;
    /* its first line, and the next one after a line that announces it ("...:") */
    size_t len = strcspn(m, "\n");
    if (len && m[len - 1] == ':' && m[len] == '\n')
        len += 1 + strcspn(m + len + 1, "\n");
    f->reason = mem_printf("%.*s", (int)len, m);
    for (char *p = f->reason; p && *p; p++)
        if (*p == '\n')
            *p = ' ';
    f->nomem = !f->reason;
    f->detail = !strncmp(m, "compile failed", 14);
}

/*
 * Whether Slang's error at `file`:`line` lies in the function of an entry of `listed` other
 * than `name`, and not in `name`'s (entry_scan_span()): Slang 2025.15 checks every entry in
 * each entry's compile, and the listing says that error of the entry it belongs to.
 */
static bool error_of_another_entry(const build *listed, const char *name, const char *file,
                                   uint32_t line)
{
    char *a = file[0] ? realpath(file, NULL) : NULL;
    char *m = realpath(listed->desc->module_file, NULL);
    bool module = a && m && !strcmp(a, m);
    free(a);
    free(m);
    if (!module || !listed->source)
        return false;
    bool other = false;
    for (size_t e = 0; e < listed->entry_count; e++) {
        uint32_t first, last;
        if (entry_scan_span(listed->source, listed->source_len, listed->entries[e].name, &first,
                            &last) ||
            line < first || line > last)
            continue;
        if (!strcmp(listed->entries[e].name, name))
            return false;
        other = true;
    }
    return other;
}

/*
 * Builds entry `name` of `listed` for target `t` alone, as dgpb_build() would (discovery,
 * compile, tables and their proof, WebGPU's checks; nothing written, no layouts): *reason
 * is NULL when it builds (or fails on another entry's error only), else a new string, its
 * first error. Returns DGPB_OK, or the code that stops the listing (DGPB_ERR_NOMEM,
 * DGPB_ERR_INTERRUPTED).
 */
static int check_entry(const build *listed, const char *name, uint32_t t, char **reason)
{
    const dgpb_build_desc *listing = listed->desc;
    *reason = NULL;
    first_error f = {0};
    dgpb_build_desc one = *listing;
    one.targets = dgpb_target_name(t);
    one.sink = take_first_error;
    one.user = &f;
    one.split_compiler_diagnostics = true;
    dgpb_build_result result;
    memset(&result, 0, sizeof result);
    build b;
    memset(&b, 0, sizeof b);
    b.desc = &one;
    b.result = &result;
    b.listing = true; /* the module's other entries may not fit the target: not this one's fault */
    int rc = build_check_options(&b);
    if (!rc)
        rc = run_stages(&b, stage_index(build_prepare), stage_index(build_discover) + 1);
    if (!rc && !b.done && keep_only(&b, name))
        build_report(&b, DGPB_SEV_ERROR, DGPB_ERR_SHADER, "no entry '%s' on its own", name);
    if (!rc && !b.done && !b.errors)
        rc = run_stages(&b, stage_index(build_compile), stage_index(build_check_webgpu) + 1);
    finish(&b);
    if (rc == DGPB_ERR_INTERRUPTED || rc == DGPB_ERR_NOMEM || f.nomem) {
        dgpb_free(f.reason);
        return f.nomem ? DGPB_ERR_NOMEM : rc;
    }
    if (f.reason && error_of_another_entry(listed, name, f.file, f.line)) {
        dgpb_free(f.reason);
        *reason = NULL;
        return DGPB_OK;
    }
    if ((rc || b.errors) && !f.reason)
        f.reason = mem_printf("its build fails: %s", dgpb_result_str(rc));
    *reason = f.reason;
    return (rc || b.errors) && !*reason ? DGPB_ERR_NOMEM : DGPB_OK;
}

/*
 * desc->list_check: each entry built for each target that carries it, on its own; a target
 * where that fails is taken off the entry, with the reason.
 */
static int check_entries(build *b)
{
    for (size_t e = 0; e < b->entry_count; e++)
        for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++) {
            entry *en = &b->entries[e];
            if (!(en->targets & (1u << t)))
                continue;
            char *reason = NULL;
            int rc = check_entry(b, en->name, t, &reason);
            if (rc)
                return rc;
            if (reason) {
                en->targets &= ~(1u << t);
                en->refused[t] = reason;
            }
        }
    return DGPB_OK;
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
    listing.emit_header = false;
    listing.library_modules = true;
    dgpb_build_result result;
    memset(&result, 0, sizeof result);
    build b;
    memset(&b, 0, sizeof b);
    b.desc = &listing;
    b.result = &result;
    b.listing = true;
    if (!desc->module_file || !desc->compiler) {
        build_report(&b, DGPB_SEV_ERROR, DGPB_ERR_INVALID, "no module or compiler given");
        return DGPB_ERR_INVALID;
    }
    /* From prepare to discover (the table's stages 3 and 4). */
    int rc = build_check_options(&b);
    if (!rc)
        rc = run_stages(&b, stage_index(build_prepare), stage_index(build_discover) + 1);
    if (!rc && desc->list_check && !result.library_module) {
        rc = check_entries(&b);
        if (rc == DGPB_ERR_NOMEM)
            build_report(&b, DGPB_SEV_ERROR, rc, "out of memory");
    }
    if (!rc && !(*out = list_of(&b))) {
        build_report(&b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
    }
    finish(&b);
    return rc;
}
