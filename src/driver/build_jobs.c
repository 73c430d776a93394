/*
 * build_jobs.c - compile jobs for the build's stages (build_internal.h):
 * job lists and their argument vectors (the module, the user's options, the
 * group and target macros, the project options (build_options.c), then the
 * target's, -o or, for a discovery that
 * generates no code, -skip-codegen, and a -depfile; the layout a compile
 * records with it, on native workers), the folders
 * their outputs go to, running a list as a batch on the compiler (those jobs
 * the compile cache does not answer, build_cache.c; the batch build_batch.c),
 * reading a job's outputs back, and reporting a job that failed.
 */
#define _XOPEN_SOURCE 700
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "code/code_format.h"
#include "compiler/slang_diag.h"
#include "core/alloc.h"
#include "driver/build_internal.h"
#include "dgpb/fileio.h"
#include "scan/entry_scan.h"

/*
 * The code format a job compiles to: dgpb/vocabulary.def's target and code
 * format rows (a probe: the analysed target's, code/code_format.h; a metallib
 * job: the target's final code format).
 */
static dgpb_code_format job_format(int target, enum job_role role)
{
    if (role == ROLE_PROBE)
        return target_code_format((uint32_t)code_analysis_target());
    if (role == ROLE_METALLIB)
        return target_final_format((uint32_t)target);
    if (role == ROLE_DISCOVER)
        return target_discovery_format((uint32_t)target);
    return target_code_format((uint32_t)target);
}

const char *build_slang_target(int target, enum job_role role)
{
    return code_format_slang_target(job_format(target, role));
}

void build_job_list_free(job_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        job_info *j = &list->info[i];
        for (size_t k = 0; k < j->argc; k++)
            if (k - j->shared_first >= j->shared_count)
                dgpb_free(j->argv[k]);
        dgpb_free(j->argv);
        dgpb_free(j->out);
        dgpb_free(j->json);
        dgpb_free(j->dep);
        dgpb_free(j->layout_out);
        for (size_t k = 0; k < j->dep_count; k++)
            dgpb_free(j->deps[k]);
        dgpb_free(j->deps);
    }
    dgpb_free(list->info);
    memset(list, 0, sizeof *list);
}

char *build_layout_output(const build *b, int target, size_t g)
{
    return mem_printf("%s/layouts-%s-%zu.bin", b->tmp, dgpb_target_name((uint32_t)target), g);
}

/* Whether the build records layouts, as one batch on the compiler's recorder. */
static bool layouts_wanted(const build *b)
{
    return b->platform != DGPB_PLATFORM_WASM32 && !b->desc->no_layouts &&
           b->desc->layout_recorder && dgpb_compiler_has_recorder(b->desc->compiler);
}

bool build_layout_with_compile(build *b, int target, size_t g)
{
    /* A target with a final code format (metal) records the layout of its final code
       (metallib) or of its code (msl), known only once every compile to the final one ran. */
    if (!layouts_wanted(b) || target_has_final((uint32_t)target) ||
        dgpb_compiler_mode_of(b->desc->compiler, NULL) != DGPB_COMPILER_NATIVE_WORKERS)
        return false;
    size_t entries = 0;
    for (size_t e = 0; e < b->entry_count; e++)
        entries += b->entries[e].group == g && (b->entries[e].targets & (1u << target));
    return entries == 1;
}

/* Appends a job; `code`: it generates code (false: a discovery compile with -skip-codegen). */
static int add_job(build *b, job_list *list, enum job_role role, int target, size_t entry_index,
                   bool code)
{
    assert(b && b->tmp[0] && (role == ROLE_DISCOVER || entry_index < b->entry_count));
    assert(code || role == ROLE_DISCOVER);
    job_info *grown = mem_grow(list->info, list->count, &list->cap, sizeof *grown, 32);
    if (!grown)
        return DGPB_ERR_NOMEM;
    list->info = grown;
    job_info *j = &list->info[list->count];
    memset(j, 0, sizeof *j);
    j->role = role;
    j->target = target;
    j->entry = entry_index;
    const dgpb_build_desc *desc = b->desc;
    const char *target_name = dgpb_target_name((uint32_t)target);
    const char *slang_target_name = build_slang_target(target, role);
    const char *ext = code_format_extension(job_format(target, role));
    /* Intermediate files are named by the entry's index, never by its name: an entry name may
       be up to 4096 bytes, longer than a file name may be (docs/build.md). */
    char base[32];
    if (role == ROLE_DISCOVER)
        snprintf(base, sizeof base, "module");
    else
        snprintf(base, sizeof base, "entry-%zu", entry_index);
    const char *dir_prefix = role == ROLE_PROBE ? "probe-" : "";
    j->out = code ? mem_printf("%s/%s%s/%s.%s", b->tmp, dir_prefix, target_name, base, ext) : NULL;
    j->json = mem_printf("%s/%s%s/%s.%s.json", b->tmp, dir_prefix, target_name, base, ext);
    j->dep = mem_printf("%s/%s%s/%s.%s.d", b->tmp, dir_prefix, target_name, base, ext);
    size_t max = 20 + 2 * desc->define_count + 2 * desc->include_dir_count + b->symbol_count +
                 BUILD_OPTION_ARGS_MAX(b);
    j->argv = mem_calloc(max, sizeof *j->argv);
    list->count++;
    if ((code && !j->out) || !j->json || !j->dep || !j->argv)
        return DGPB_ERR_NOMEM;
    size_t g = role == ROLE_DISCOVER ? 0 : b->entries[entry_index].group;
    if (role == ROLE_CODE && build_layout_with_compile(b, target, g) &&
        !(j->layout_out = build_layout_output(b, target, g)))
        return DGPB_ERR_NOMEM;
    size_t n = 0;
#define ARG(expr)                                                                                  \
    do {                                                                                           \
        if (!(j->argv[n++] = (expr)))                                                              \
            goto nomem;                                                                            \
        j->argc = n;                                                                               \
    } while (0)
    ARG(mem_strdup(role == ROLE_DISCOVER ? b->wrapper : desc->module_file));
    if (desc->define_count && !b->define_args) {
        b->define_args = mem_calloc(desc->define_count, sizeof *b->define_args);
        for (size_t i = 0; b->define_args && i < desc->define_count; i++)
            if (!(b->define_args[i] = mem_printf("-D%s", desc->defines[i])))
                goto nomem;
        if (!b->define_args)
            goto nomem;
    }
    j->shared_first = n;
    j->shared_count = desc->define_count;
    for (size_t i = 0; i < desc->define_count; i++)
        j->argv[n++] = b->define_args[i];
    j->argc = n;
    for (size_t i = 0; i < desc->include_dir_count; i++) {
        ARG(mem_strdup("-I"));
        ARG(mem_strdup(desc->include_dirs[i]));
    }
    if (role == ROLE_DISCOVER) {
        /* The wrapper lives in the intermediate folder: let imports find the module's folder. */
        const char *slash = strrchr(desc->module_file, '/');
        ARG(mem_strdup("-I"));
        ARG(slash ? mem_printf("%.*s", (int)(slash - desc->module_file), desc->module_file)
                  : mem_strdup("."));
        /* Every group at once; a target that carries compute entries only (ptx) leaves the
           render and ray-tracing groups out of its discovery (their code need not compile
           for it). */
        bool compute_only = dgpb_target_traits((uint32_t)target) & DGPB_TRAIT_COMPUTE_ONLY;
        for (size_t i = 0; i < b->symbol_count; i++)
            if (!compute_only || !strncmp(b->symbols[i], DGPB_GROUP_COMPUTE_PREFIX,
                                          strlen(DGPB_GROUP_COMPUTE_PREFIX)))
                ARG(mem_printf("-D%s", b->symbols[i]));
    } else {
        ARG(mem_printf("-D%s", b->groups[b->entries[entry_index].group].symbol));
    }
    ARG(mem_printf("-D%s", target_macro((uint32_t)target)));
    /* A compile to a format that has SPIR-V versions gets --spirv-version's profile. */
    bool spirv = code_ops_of(job_format(target, role))->spirv_version != NULL;
    for (size_t i = 0; build_option_arg(b, spirv, i); i++)
        ARG(mem_strdup(build_option_arg(b, spirv, i)));
    ARG(mem_strdup("-target"));
    ARG(mem_strdup(slang_target_name));
    if (role != ROLE_DISCOVER) {
        ARG(mem_strdup("-entry"));
        ARG(mem_strdup(b->entries[entry_index].name));
        ARG(mem_strdup("-stage"));
        ARG(mem_strdup(dgpb_stage_name(b->entries[entry_index].stage)));
    }
    if (code) {
        ARG(mem_strdup("-o"));
        ARG(mem_strdup(j->out));
    } else {
        ARG(mem_strdup("-skip-codegen"));
    }
    ARG(mem_strdup("-reflection-json"));
    ARG(mem_strdup(j->json));
    ARG(mem_strdup("-depfile"));
    ARG(mem_strdup(j->dep));
#undef ARG
    return DGPB_OK;
nomem:
    return DGPB_ERR_NOMEM;
}

bool build_may_share(const build *b, int target)
{
    return b->checked[target] && !b->names_groups && b->desc->debug_info == DGPB_DEBUG_INFO_NONE;
}

/* A copy of `n` arguments; NULL: no memory. */
static char **copy_args(char *const *argv, size_t n)
{
    char **copy = mem_calloc(n ? n : 1, sizeof *copy);
    for (size_t i = 0; copy && i < n; i++)
        if (!(copy[i] = mem_strdup(argv[i]))) {
            for (size_t k = 0; k < i; k++)
                dgpb_free(copy[k]);
            dgpb_free(copy);
            copy = NULL;
        }
    return copy;
}

int build_add_job(build *b, job_list *list, enum job_role role, int target, size_t entry_index)
{
    int rc = add_job(b, list, role, target, entry_index, true);
    /* One parse per module (docs/layout.md): an entry's code from the module its target's
       discovery checked, when the two read the same text: the module names no group macro,
       so the one group macro the compile defines and the discovery's all of them change
       nothing. Not with debug information, whose code names the file compiled and its
       command line. The worker checks the rest (the options, the files read). */
    job_info *j = rc ? NULL : &list->info[list->count - 1];
    if (!j || role != ROLE_CODE || !build_may_share(b, target))
        return rc;
    if (!strcmp(build_slang_target(target, ROLE_DISCOVER), build_slang_target(target, role))) {
        j->checked_as = (const char *const *)b->checked[target];
        j->checked_as_count = b->checked_count[target];
    } else if (!b->checked_code[target]) {
        /* The discovery's module was checked for another Slang target, whose code the
           worker cannot give: the first entry's compile is kept for the others. */
        if (!(b->checked_code[target] = copy_args(j->argv, j->argc)))
            return DGPB_ERR_NOMEM;
        b->checked_code_count[target] = j->argc;
        j->keep = true;
    } else {
        j->checked_as = (const char *const *)b->checked_code[target];
        j->checked_as_count = b->checked_code_count[target];
    }
    return rc;
}

int build_add_discovery(build *b, job_list *list, int target, bool code)
{
    int rc = add_job(b, list, ROLE_DISCOVER, target, 0, code);
    /* A native worker keeps the module a discovery without code checked, for the compiles */
    if (!rc && !code && b->desc->debug_info == DGPB_DEBUG_INFO_NONE &&
        dgpb_compiler_mode_of(b->desc->compiler, NULL) == DGPB_COMPILER_NATIVE_WORKERS)
        list->info[list->count - 1].keep = true;
    return rc;
}

int build_keep_checked(build *b, const job_info *discovery)
{
    int t = discovery->target;
    if (!discovery->keep || b->checked[t])
        return DGPB_OK;
    char **copy = copy_args(discovery->argv, discovery->argc);
    if (!copy)
        return DGPB_ERR_NOMEM;
    b->checked[t] = copy;
    b->checked_count[t] = discovery->argc;
    return DGPB_OK;
}

/* Shell-quotes one argument for a readable command line. */
static void append_quoted(char *buf, size_t size, const char *arg)
{
    size_t n = strlen(buf);
    bool plain = *arg != 0;
    for (const char *p = arg; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=,:+@%",
                       *p) != NULL;
    if (plain) {
        snprintf(buf + n, size - n, " %s", arg);
        return;
    }
    snprintf(buf + n, size - n, " '");
    for (const char *p = arg; *p; p++) {
        n = strlen(buf);
        if (*p == '\'')
            snprintf(buf + n, size - n, "'\\''");
        else
            snprintf(buf + n, size - n, "%c", *p);
    }
    n = strlen(buf);
    snprintf(buf + n, size - n, "'");
}

/* Makes the folder of every job's outputs (its reflection's, which every job writes). */
static int make_dirs(build *b, const job_list *list)
{
    for (size_t i = 0; i < list->count; i++) {
        char *slash = strrchr(list->info[i].json, '/');
        *slash = 0;
        int rc = mkdir(list->info[i].json, 0755);
        int err = errno;
        *slash = '/';
        if (rc != 0 && err != EEXIST) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_IO, "cannot create a folder in '%s': %s",
                         b->tmp, strerror(err));
            return DGPB_ERR_IO;
        }
    }
    return DGPB_OK;
}

/* A list's jobs by name, for progress reports. */
typedef struct list_names {
    const build *b;
    const job_list *list;
} list_names;

static void name_list_job(void *ctx, size_t job, const char **entry_name, const char **target_name)
{
    const list_names *n = ctx;
    const job_info *j = &n->list->info[job];
    *entry_name = j->role == ROLE_DISCOVER ? "discovery" : n->b->entries[j->entry].name;
    *target_name = build_slang_target(j->target, j->role);
}

/* Runs a list's jobs as one batch (build_batch.c), named by their entries and Slang targets. */
static int run_list(build *b, const job_list *list, dgpb_compile_job *jobs, dgpb_diag *diag)
{
    list_names n = {b, list};
    return build_compiler_run(b, jobs, list->count, name_list_job, &n, diag);
}

/*
 * Runs the jobs that the cache does not answer (build_cache.c), then reads
 * the depfiles of those that compiled, files their results, and adds what
 * every job read to the build's dependencies.
 */
int build_run_jobs(build *b, job_list *list, dgpb_compile_job *jobs)
{
    assert(b && list && jobs);
    int rc = make_dirs(b, list);
    if (rc)
        return rc;
    bool *hit = mem_calloc(list->count ? list->count : 1, sizeof *hit);
    job_list misses = {0};
    misses.info = mem_calloc(list->count ? list->count : 1, sizeof *misses.info);
    dgpb_compile_job *run = mem_calloc(list->count ? list->count : 1, sizeof *run);
    size_t *from = mem_calloc(list->count ? list->count : 1, sizeof *from);
    if (!hit || !misses.info || !run || !from) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < list->count; i++) {
        jobs[i].args = (const char *const *)list->info[i].argv;
        jobs[i].layout_output = list->info[i].layout_out;
        jobs[i].arg_count = list->info[i].argc;
        jobs[i].keep = list->info[i].keep;
        jobs[i].checked_as = list->info[i].checked_as;
        jobs[i].checked_as_count = list->info[i].checked_as_count;
    }
    double since = build_now();
    build_cache_lookup(b, list, jobs, hit);
    build_time_add(b, DGPB_PHASE_CACHE, since);
    for (size_t i = 0; i < list->count; i++) {
        if (hit[i])
            continue;
        from[misses.count] = i;
        misses.info[misses.count] = list->info[i];
        run[misses.count++] = jobs[i];
        if (b->desc->verbose) {
            char line[8192];
            snprintf(line, sizeof line, "%s", dgpb_compiler_path(b->desc->compiler));
            for (size_t k = 0; k < list->info[i].argc; k++)
                append_quoted(line, sizeof line, list->info[i].argv[k]);
            build_report(b, DGPB_SEV_NOTE, DGPB_OK, "%s", line);
        }
    }
    if (misses.count) {
        dgpb_diag d;
        dgpb_diag_clear(&d);
        b->result->compile_count += (uint32_t)misses.count;
        rc = run_list(b, &misses, run, &d);
        for (size_t k = 0; k < misses.count; k++) {
            jobs[from[k]] = run[k];
            b->result->checked_count += run[k].checked;
        }
        if (rc) {
            rc = build_forward(b, &d, "the compiler failed");
            goto done;
        }
    }
    for (size_t i = 0; i < list->count && !rc; i++)
        if (!hit[i] && jobs[i].status == 0)
            rc = build_job_deps(b, &list->info[i]);
    if (!rc) {
        since = build_now();
        build_cache_store(b, list, jobs, hit);
        build_time_add(b, DGPB_PHASE_CACHE, since);
        rc = build_collect_deps(b, list, jobs);
    }
    /* What the compiles that succeeded printed: Slang's warnings, each once. The discovery's
       compile the wrapper and repeat what the entries' compiles print. */
    for (size_t i = 0; i < list->count && !rc; i++) {
        const job_info *info = &list->info[i];
        if (jobs[i].status != 0 || info->role == ROLE_DISCOVER || !jobs[i].diagnostics ||
            !jobs[i].diagnostics[0])
            continue;
        char context[600];
        snprintf(context, sizeof context, "target '%s'%s, entry '%.400s'",
                 dgpb_target_name((uint32_t)info->target),
                 info->role == ROLE_PROBE ? " (SPIR-V analysis probe)" : "",
                 b->entries[info->entry].name);
        build_report_compiler_text(b, jobs[i].diagnostics, DGPB_SEV_WARNING, context);
    }
done:
    dgpb_free(hit);
    dgpb_free(misses.info); /* its entries are list's */
    dgpb_free(run);
    dgpb_free(from);
    return rc;
}

const char *build_diagnostics_text(const dgpb_compile_job *job, int *len)
{
    const char *text =
        job->diagnostics && *job->diagnostics ? job->diagnostics : "(no diagnostics)";
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == '\n')
        n--;
    *len = (int)n;
    return text;
}

bool build_job_crashed(const dgpb_compile_job *job)
{
    int s = job->status;
    const char *text = job->diagnostics ? job->diagnostics : "";
    return s < 0 || (s > 128 && s <= 128 + 64) ||
           strstr(text, "Slang's WebAssembly module failed") ||
           strstr(text, "aborted due to an exception") || strstr(text, "internal error");
}

void build_describe_exit(const dgpb_compile_job *job, char *buf, size_t size)
{
    int s = job->status;
    if (s > 128 && s <= 128 + 64)
        snprintf(buf, size, "killed by signal %d, %s", s - 128, strsignal(s - 128));
    else if (s < 0)
        snprintf(buf, size, "no answer");
    else
        snprintf(buf, size, "exit status %d", s);
}

const char *build_last_words(const dgpb_compile_job *job, int *len)
{
    int n;
    const char *text = build_diagnostics_text(job, &n);
    int lines = 0, start = n;
    while (start > 0 && lines < BUILD_LAST_WORDS_LINES) {
        start--;
        if (text[start] == '\n' && ++lines == BUILD_LAST_WORDS_LINES)
            start++;
    }
    *len = n - start;
    return text + start;
}

bool build_tmp_full(build *b)
{
    if (b->tmp_room || !b->tmp[0])
        return b->tmp_room == 2;
    b->tmp_room = 1;
    char *probe = mem_printf("%s/space-probe", b->tmp);
    static const char zeros[65536];
    int fd = probe ? open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600) : -1;
    int err = fd < 0 ? errno : 0;
    for (size_t done = 0; fd >= 0 && !err && done < BUILD_TMP_PROBE;) {
        ssize_t n = write(fd, zeros, sizeof zeros);
        if (n < 0 && errno != EINTR)
            err = errno;
        done += n > 0 ? (size_t)n : 0;
    }
    if (fd >= 0) {
        if (!err && fsync(fd) != 0)
            err = errno;
        close(fd);
        unlink(probe);
    }
    dgpb_free(probe);
    if (err != ENOSPC && err != EDQUOT)
        return false;
    b->tmp_room = 2;
    build_report(b, DGPB_SEV_ERROR, DGPB_ERR_IO,
                 "no space left in the intermediate folder '%s' (%s): the compiler could not "
                 "write its outputs there; free space on it or set TMPDIR to another folder",
                 b->tmp, strerror(err));
    return true;
}

int build_failure_rc(const build *b)
{
    return b->compiler_crashed || b->tmp_room == 2 ? DGPB_ERR_TOOL : DGPB_ERR_SHADER;
}

/*
 * Reports a failed compile; `also`: the other entries whose compiles failed with the same
 * diagnostics ("" when none), said after the exit status.
 */
static void report_failure(build *b, const job_info *info, const dgpb_compile_job *job,
                           const char *also)
{
    int n;
    const char *probe = info->role == ROLE_PROBE ? " (SPIR-V analysis probe)" : "";
    const char *target = dgpb_target_name((uint32_t)info->target);
    const char *entry_name = b->entries[info->entry].name;
    if (build_job_crashed(job)) {
        char how[128];
        build_describe_exit(job, how, sizeof how);
        const char *words = build_last_words(job, &n);
        char *given = build_text_as_given(b, words, n); /* the module's path as the user's */
        b->compiler_crashed = true;
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_TOOL,
                     "target '%s'%s, entry '%s': the compiler crashed compiling it (%s); its "
                     "last words:\n%.*s",
                     target, probe, entry_name, how, given ? (int)strlen(given) : n,
                     given ? given : words);
        dgpb_free(given);
        return;
    }
    if (build_tmp_full(b))
        return;
    if (b->desc->split_compiler_diagnostics) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                     "target '%s'%s, entry '%s': compile failed (exit status %d%s)", target, probe,
                     entry_name, job->status, also);
        build_report_compiler_text(b, build_diagnostics_text(job, &n), DGPB_SEV_ERROR, NULL);
        return;
    }
    const char *text = build_diagnostics_text(job, &n);
    char *given = build_text_as_given(b, text, n); /* the module's path as the user's */
    build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                 "target '%s'%s, entry '%s': compile failed (exit status %d%s):\n%.*s", target,
                 probe, entry_name, job->status, also, given ? (int)strlen(given) : n,
                 given ? given : text);
    dgpb_free(given);
}

void build_report_compile_failure(build *b, const job_info *info, const dgpb_compile_job *job)
{
    report_failure(b, info, job, "");
}

/* Whether two failed jobs are compiles of one role and target that printed the same. */
static bool same_failure(const job_info *a, const dgpb_compile_job *ja, const job_info *c,
                         const dgpb_compile_job *jc)
{
    return a->role == c->role && a->target == c->target && !build_job_crashed(ja) &&
           !build_job_crashed(jc) && ja->diagnostics && jc->diagnostics &&
           !strcmp(ja->diagnostics, jc->diagnostics);
}

/* The first error of a compile's diagnostics that names a file and line. */
typedef struct first_error {
    bool found;
    char file[DGPB_DIAG_FILE_MAX];
    uint32_t line;
} first_error;

static void take_first_error(void *user, const dgpb_diag *d)
{
    first_error *f = user;
    if (f->found || d->severity != DGPB_SEV_ERROR || !d->file[0] || d->line == 0)
        return;
    f->found = true;
    snprintf(f->file, sizeof f->file, "%s", d->file);
    f->line = d->line;
}

/* Whether `file`, as a diagnostic names it, is the module's own file. */
static bool is_module_file(const build *b, const char *file)
{
    char *a = realpath(file, NULL), *m = realpath(b->desc->module_file, NULL);
    bool same = a && m ? !strcmp(a, m) : !strcmp(file, b->desc->module_file);
    free(a);
    free(m);
    return same;
}

/*
 * Of the failed jobs `same` (count of them, one diagnostics text), the one whose entry the
 * text's first error lies in: its line inside the entry's function in the module's text
 * (entry_scan_span()). -1 when it lies in none, or elsewhere (a helper, an included file).
 */
static ptrdiff_t blamed_job(const build *b, const job_list *list, const dgpb_compile_job *jobs,
                            const size_t *same, size_t count)
{
    first_error f = {0};
    slang_diag_parse(jobs[same[0]].diagnostics, DGPB_SEV_ERROR, take_first_error, &f);
    if (!f.found || !b->source || !is_module_file(b, f.file))
        return -1;
    for (size_t k = 0; k < count; k++) {
        uint32_t first, last;
        if (!entry_scan_span(b->source, b->source_len, b->entries[list->info[same[k]].entry].name,
                             &first, &last) &&
            f.line >= first && f.line <= last)
            return (ptrdiff_t)same[k];
    }
    return -1;
}

int build_report_compile_failures(build *b, const job_list *list, const dgpb_compile_job *jobs,
                                  const bool *report)
{
    size_t failed = 0;
    for (size_t i = 0; i < list->count; i++)
        failed += report[i];
    if (!failed)
        return DGPB_OK;
    bool *done = mem_calloc(list->count, sizeof *done);
    size_t *same = mem_calloc(list->count, sizeof *same);
    if (!done || !same) {
        dgpb_free(done);
        dgpb_free(same);
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < list->count; i++) {
        if (!report[i] || done[i])
            continue;
        size_t count = 0;
        for (size_t k = i; k < list->count; k++)
            if (report[k] && !done[k] &&
                (k == i || same_failure(&list->info[i], &jobs[i], &list->info[k], &jobs[k]))) {
                same[count++] = k;
                done[k] = true;
            }
        ptrdiff_t blamed = count > 1 ? blamed_job(b, list, jobs, same, count) : -1;
        if (blamed < 0) {
            /* each entry as its own failure: the text names none of them */
            for (size_t k = 0; k < count; k++)
                build_report_compile_failure(b, &list->info[same[k]], &jobs[same[k]]);
            continue;
        }
        /* one failure, of the entry its diagnostics lie in; the others' compiles said it too
           (Slang checks every entry of the module in each entry's compile) */
        char *also = mem_strdup("");
        for (size_t k = 0; also && k < count; k++) {
            if ((ptrdiff_t)same[k] == blamed)
                continue;
            char *more = mem_printf("%s%s'%.200s'", also, *also ? ", " : "; the compile of ",
                                    b->entries[list->info[same[k]].entry].name);
            dgpb_free(also);
            also = more;
        }
        char *said = also ? mem_printf("%s failed on it too", also) : NULL;
        report_failure(b, &list->info[blamed], &jobs[blamed], said ? said : "");
        dgpb_free(said);
        dgpb_free(also);
    }
    dgpb_free(done);
    dgpb_free(same);
    return DGPB_OK;
}

int build_read_output(build *b, const char *path, uint8_t **out, size_t *size)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = build_read_output_bytes(b, path, out, size, &d);
    if (rc)
        return build_forward(b, &d, "reading a compiler output");
    return DGPB_OK;
}

int build_read_reflection(build *b, const char *path, dgpb_target_id target,
                          const dgpb_reflection_blocks *blocks, dgpb_reflection **out,
                          uint8_t *json_sha, bool *hashed)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint8_t *json = NULL;
    size_t size = 0;
    int rc = build_read_output_bytes(b, path, &json, &size, &d);
    if (!rc && json_sha)
        *hashed = dgpb_sha256(json, size, json_sha) == DGPB_OK;
    if (!rc)
        rc = reflection_parse_blocks((const char *)json, size, target, blocks, out, &d);
    dgpb_free(json);
    if (rc) {
        char context[4200];
        snprintf(context, sizeof context, "target '%s': reading Slang's reflection '%s'",
                 dgpb_target_name(target), path);
        return build_forward(b, &d, context);
    }
    return DGPB_OK;
}
