/*
 * build_compile.c - the build's compile stage (build_internal.h).
 *
 * build_compile plans one compile job per entry and target (plus a metallib
 * job per metal entry, and a SPIR-V probe for an entry the spirv target does
 * not compile, for its analysis, or for every entry of every other target
 * when the module's text names a DREAM_TARGET_ macro, which may give the
 * targets different parameters), runs them all in one batch, then
 * read_outputs() reads each job's outputs into its unit: the code, the SPIR-V
 * analysis (capabilities, written variables, push-constant blocks), and
 * Slang's reflection.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "code/code_format.h"
#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "driver/build_internal.h"

/* Whether text holds `word` (in a comment too: the answer only ever makes more work). */
static bool says(const char *text, size_t len, const char *word)
{
    size_t m = strlen(word);
    const char *p = text, *end = text + len;
    while ((size_t)(end - p) >= m && (p = memchr(p, *word, (size_t)(end - p) - m + 1))) {
        if (!memcmp(p, word, m))
            return true;
        p++;
    }
    return false;
}

/*
 * Whether the module, or a file its discovery read, names a DREAM_TARGET_
 * macro: then an entry's parameters and its uses of them may differ between
 * targets, and the spirv target's SPIR-V cannot say which rows another
 * target's code has or writes. And whether a file it includes says
 * __LINE__ (a macro of it may expand in the module, where an edit moves the
 * lines): then the compiles' keys hold the module's text as it is. And
 * whether any of them names a group macro (DREAM_SHADER...): then an entry's
 * compile, which defines its group's macro only, may read another text than
 * the discovery, which defines them all (build_share_checked). A file that
 * cannot be read says nothing here: its compile reports it.
 */
static int scan_included_text(build *b)
{
    b->target_guarded = b->source && says(b->source, b->source_len, "DREAM_TARGET_");
    b->names_groups = b->source && says(b->source, b->source_len, "DREAM_SHADER");
    for (size_t i = 0; i < b->dep_count; i++) {
        uint8_t *text = NULL;
        size_t size = 0;
        int rc = dgpb_file_read(b->deps[i], BUILD_MAX_SOURCE, &text, &size, NULL);
        if (rc == DGPB_ERR_NOMEM) {
            build_report(b, DGPB_SEV_ERROR, rc, "out of memory");
            return rc;
        }
        if (!rc) {
            b->target_guarded |= says((const char *)text, size, "DREAM_TARGET_");
            b->names_groups |= says((const char *)text, size, "DREAM_SHADER");
            b->cache.lines_matter |= says((const char *)text, size, "__LINE__");
        }
        dgpb_free(text);
    }
    return DGPB_OK;
}

/*
 * Whether an entry's SPIR-V for `target` must come from a probe compile: the
 * build does not compile the entry for the target whose code it analyses
 * (code_analysis_target(), spirv).
 */
static bool needs_probe(const build *b, int target, size_t e)
{
    int analysed = code_analysis_target();
    if (target == analysed)
        return false;
    if (b->target_guarded)
        return true;
    bool analysed_has_it = analysed >= 0 && (b->targets & (1u << analysed)) &&
                           (b->entries[e].targets & (1u << analysed));
    return !analysed_has_it;
}

static int plan_jobs(build *b, job_list *list)
{
    int rc = DGPB_OK;
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++) {
        if (!(b->targets & (1u << t)))
            continue;
        for (size_t e = 0; e < b->entry_count && !rc; e++) {
            if (!(b->entries[e].targets & (1u << t)))
                continue;
            rc = build_add_job(b, list, ROLE_CODE, t, e);
            if (!rc && target_has_final((uint32_t)t))
                rc = build_add_job(b, list, ROLE_METALLIB, t, e);
            if (!rc && needs_probe(b, t, e))
                rc = build_add_job(b, list, ROLE_PROBE, t, e);
        }
    }
    return rc;
}

/* Analyses an entry's SPIR-V; SPIR-V that SPIRV-Tools cannot parse is a warning. */
static int analyze(build *b, int target, size_t e, const uint8_t *spirv, size_t size,
                   dgpb_spirv_info **out)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = spirv_analyze(spirv, size, out, &d);
    if (rc == DGPB_ERR_UNSUPPORTED && *out) {
        build_report(b, DGPB_SEV_WARNING, rc,
                     "target '%s', entry '%s': SPIRV-Tools cannot parse its SPIR-V (%s); "
                     "capabilities come from the instruction stream, no parameter is flagged as "
                     "written and every global counts as used",
                     dgpb_target_name((uint32_t)target), b->entries[e].name, d.message);
        return DGPB_OK;
    }
    if (rc) {
        char context[600];
        snprintf(context, sizeof context, "target '%s', entry '%s': SPIR-V analysis",
                 dgpb_target_name((uint32_t)target), b->entries[e].name);
        return build_forward(b, &d, context);
    }
    return DGPB_OK;
}

/*
 * Reads a unit's reflection. The value block of a generator module's entry
 * is "<entry>_params"; the push-constant blocks are the SPIR-V's PushConstant
 * variables other than Slang's own for entry-point values.
 */
/*
 * Reads a job's reflection JSON into its unit: a code job's into
 * u->reflection, a SPIR-V probe's into u->probe_reflection (read for the
 * analysed target, whose places its SPIR-V has).
 */
static int read_unit_reflection(build *b, const job_info *info, unit *u)
{
    /* An entry name may be as long as the format allows: the block name is sized for it. */
    size_t block_size = strlen(b->entries[info->entry].name) + sizeof "_params";
    char *block = mem_alloc(block_size);
    if (!block) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    value_block_name(b->entries[info->entry].name, block, block_size);
    const char *values[1] = {block};
    const char **push = NULL;
    size_t push_count = 0;
    if (u->spirv && u->spirv->var_count) {
        push = mem_calloc(u->spirv->var_count, sizeof *push);
        if (!push) {
            dgpb_free(block);
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
            return DGPB_ERR_NOMEM;
        }
        for (size_t i = 0; i < u->spirv->var_count; i++) {
            const dgpb_spirv_var *v = &u->spirv->vars[i];
            if (v->storage_class == DGPB_SPIRV_STORAGE_PUSH_CONSTANT &&
                strcmp(v->name, "entryPointParams"))
                push[push_count++] = v->name;
        }
    }
    /* A SPIR-V compile's buffers follow the block layout's alignments. */
    int read_as = info->role == ROLE_PROBE ? code_analysis_target() : info->target;
    bool spirv = code_ops_of_target((dgpb_target_id)read_as)->spirv_version != NULL;
    dgpb_reflection_blocks blocks = {
        values, b->generator_conventions ? 1 : 0, push, push_count,
        spirv && dgpb_block_layout_scalar(b->desc->block_layout)};
    bool hashed = false;
    int rc;
    if (info->role == ROLE_PROBE) {
        uint8_t sha[DGPB_SHA256_SIZE];
        rc = build_read_reflection(b, info->json, (dgpb_target_id)code_analysis_target(), &blocks,
                                   &u->probe_reflection, sha, &hashed);
    } else {
        rc = build_read_reflection(b, info->json, (dgpb_target_id)info->target, &blocks,
                                   &u->reflection, u->json_sha, &hashed);
        u->hashed = u->hashed && hashed;
    }
    dgpb_free(push);
    dgpb_free(block);
    return rc;
}

/*
 * Whether a code or metallib job's outputs are its unit's (a target with a
 * final code format, metal: the final one, metallib, if every entry compiled
 * to it).
 */
static bool job_gives_unit(const build *b, const job_info *info)
{
    return (info->role == ROLE_CODE) != (target_has_final((uint32_t)info->target) && b->metallib);
}

/*
 * Whether a failed job is the compile of an entry for a target whose code
 * lacks types (code_ops' missing_type: wgsl) that crashed, or lacks bindings
 * (missing_binding: wgsl) that failed, while its entry compiled to SPIR-V
 * (the analysed target's code, or the probe): its SPIR-V may show a type or
 * a binding the target does not have, which explains the failure (Slang's
 * WGSL back end throws on a double, and refuses a texel buffer or a subpass
 * input), so its report waits for the analysis. Slang's other errors are
 * reported as they are.
 */
static bool failure_waits(const job_list *list, const dgpb_compile_job *jobs, size_t i)
{
    const job_info *j = &list->info[i];
    const code_ops *ops = code_ops_of_target((dgpb_target_id)j->target);
    if (j->role != ROLE_CODE ||
        !((ops->missing_type && build_job_crashed(&jobs[i])) || ops->missing_binding))
        return false;
    int analysed = code_analysis_target();
    for (size_t k = 0; k < list->count; k++) {
        const job_info *s = &list->info[k];
        if (s->entry == j->entry && jobs[k].status == 0 &&
            ((s->role == ROLE_CODE && s->target == analysed) ||
             (s->role == ROLE_PROBE && s->target == j->target)))
            return true;
    }
    return false;
}

/*
 * Reports the compiles that waited: a type or a binding the target does not
 * have in the entry's SPIR-V, or else the compiler's failure.
 */
static int report_waiting_failures(build *b, const job_list *list, const dgpb_compile_job *jobs)
{
    bool *report = mem_calloc(list->count, sizeof *report);
    if (!report) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < list->count; i++) {
        if (jobs[i].status == 0 || !failure_waits(list, jobs, i))
            continue;
        int t = list->info[i].target;
        size_t e = list->info[i].entry;
        const dgpb_spirv_info *spirv = build_unit_at(b, t, e)->spirv;
        if (!spirv)
            spirv = build_unit_at(b, code_analysis_target(), e)->spirv;
        report[i] = !build_refuse_missing_types(b, t, e, spirv);
    }
    int rc = build_report_compile_failures(b, list, jobs, report);
    dgpb_free(report);
    return rc;
}

/* Reads each job's outputs into its unit: code, SPIR-V analysis, then reflection. */
static int read_outputs(build *b, const job_list *list, const dgpb_compile_job *jobs)
{
    bool all_metallib = true;
    for (size_t i = 0; i < list->count; i++)
        if (list->info[i].role == ROLE_METALLIB && jobs[i].status != 0)
            all_metallib = false;
    b->metallib = all_metallib;
    bool waiting = false;
    bool *report = mem_calloc(list->count, sizeof *report);
    if (!report) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < list->count; i++) {
        const job_info *j = &list->info[i];
        if (j->role == ROLE_METALLIB || jobs[i].status == 0)
            continue; /* a metallib that failed leaves metal with its msl code */
        if (failure_waits(list, jobs, i))
            waiting = true;
        else
            report[i] = true;
    }
    int rc = build_report_compile_failures(b, list, jobs, report);
    dgpb_free(report);
    if (rc)
        return rc;
    if (b->errors)
        return build_failure_rc(b);
    for (size_t i = 0; i < list->count && !rc; i++) {
        const job_info *j = &list->info[i];
        if (jobs[i].status != 0)
            continue; /* a compile that waits for the analysis (wgsl), or a metallib */
        unit *u = build_unit_at(b, j->target, j->entry);
        if (j->role == ROLE_PROBE) {
            uint8_t *spirv = NULL;
            size_t size = 0;
            rc = build_read_output(b, j->out, &spirv, &size);
            if (!rc)
                rc = analyze(b, j->target, j->entry, spirv, size, &u->spirv);
            dgpb_free(spirv);
            continue;
        }
        if (!job_gives_unit(b, j))
            continue;
        u->present = true;
        rc = build_read_output(b, j->out, &u->code, &u->code_size);
        u->hashed = !rc && dgpb_sha256(u->code, u->code_size, u->code_sha) == DGPB_OK;
        if (!rc && j->target == code_analysis_target())
            rc = analyze(b, j->target, j->entry, u->code, u->code_size, &u->spirv);
    }
    if (!rc && waiting) {
        rc = report_waiting_failures(b, list, jobs);
        if (!rc && b->errors)
            return build_failure_rc(b);
    }
    /* Entries without a probe share the spirv target's analysis. */
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++)
        for (size_t e = 0; e < b->entry_count; e++) {
            unit *u = build_unit_at(b, t, e);
            if (u->present && !u->spirv) {
                u->spirv = build_unit_at(b, code_analysis_target(), e)->spirv;
                u->spirv_shared = true;
            }
        }
    /* Then the reflection, which needs the SPIR-V's push-constant blocks on every target. */
    for (size_t i = 0; i < list->count && !rc; i++) {
        const job_info *j = &list->info[i];
        if (j->role == ROLE_PROBE ? jobs[i].status == 0 : job_gives_unit(b, j))
            rc = read_unit_reflection(b, j, build_unit_at(b, j->target, j->entry));
    }
    return rc;
}

int build_compile(build *b)
{
    assert(b && b->desc && b->entry_count > 0 && b->group_count > 0);
    assert(!b->units && !b->errors);
    job_list list = {0};
    int rc = scan_included_text(b);
    if (!rc)
        rc = plan_jobs(b, &list);
    dgpb_compile_job *jobs = rc ? NULL : mem_calloc(list.count, sizeof *jobs);
    b->units = mem_calloc((size_t)DGPB_TARGET_COUNT * b->entry_count, sizeof *b->units);
    if (rc || !jobs || !b->units) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
    } else {
        rc = build_run_jobs(b, &list, jobs);
        double since = build_now();
        if (!rc)
            rc = read_outputs(b, &list, jobs);
        build_time_add(b, DGPB_PHASE_READ, since);
    }
    if (jobs)
        dgpb_compile_jobs_clear(jobs, list.count);
    dgpb_free(jobs);
    build_job_list_free(&list);
    return rc;
}
