/*
 * build.c - the producer pipeline (dgpb/build.h).
 *
 * One dgpb_build() call walks the stages in order, each filling the `build`
 * state for the next and stopping the build at the first stage that reports
 * an error: prepare (read and scan the module, pick targets, make the
 * intermediate folder), discover (entries per target, from Slang), compile
 * (one job per entry and target, plus SPIR-V probes), collect (code,
 * reflection, parameter tables, capabilities, validation), check (WebGPU
 * limits per group) and emit (model, writer, JSON view, atomic writes).
 * Intermediate files live in one private folder, removed at the end unless
 * desc->keep_temps.
 */
#define _XOPEN_SOURCE 700
#include "dgpb/build.h"

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "dgpb/binding_proof.h"
#include "dgpb/code_bindings.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/json_view.h"
#include "dgpb/layout_run.h"
#include "dgpb/model.h"
#include "dgpb/params.h"
#include "dgpb/ptx_scan.h"
#include "dgpb/reader.h"
#include "dgpb/reflect.h"
#include "dgpb/spirv.h"
#include "dgpb/spirv_analysis.h"
#include "dgpb/targets.h"
#include "dgpb/webgpu_limits.h"
#include "dgpb/writer.h"
#include "dgpb/wgsl_scan.h"

#define MAX_SOURCE (64u << 20)
#define MAX_OUTPUT ((size_t)1 << 31)

enum group_kind { GROUP_COMPUTE, GROUP_RENDER, GROUP_RAY_TRACING };

typedef struct entry {
    char *name;
    uint32_t stage;
    uint32_t tgs[3];
    size_t group;
    uint32_t targets; /* bit per dgpb_target_id where the entry exists */
} entry;

typedef struct group {
    enum group_kind kind;
    char *symbol; /* the macro its compiles define */
    char *label;  /* for messages: "compute shader 'k'", "the render group" */
    size_t first; /* its first entry, for layout order */
} group;

/* What one (target, entry) pair produced. */
typedef struct unit {
    bool present;
    uint8_t *code;
    size_t code_size;
    dgpb_reflection *refl;
    dgpb_spirv_info *spirv; /* owned unless spirv_shared */
    bool spirv_shared;
    dgpb_param_table params;
    dgpb_wgsl_module *wgsl; /* the wgsl target's code, scanned */
    uint32_t caps;
    uint32_t layout; /* index of its group's layout in the target's layouts */
} unit;

/* The recorded layouts of one target, one per group in order of first entry. */
typedef struct target_layouts {
    uint8_t **blobs;
    size_t *sizes;
    uint32_t count;
} target_layouts;

/* The role of one compile job. */
enum job_role { ROLE_DISCOVER, ROLE_CODE, ROLE_METALLIB, ROLE_PROBE };

typedef struct job_info {
    enum job_role role;
    int target;
    size_t entry;
    char *out;
    char *json;
    char **argv;
    size_t argc;
} job_info;

/* The entry every discovery compile sees, so a target without entries still compiles. */
#define ANCHOR_ENTRY "dgpb_discovery_anchor"

typedef struct build {
    const dgpb_build_desc *desc;
    dgpb_build_result *result;
    char tmp[4096];
    char *wrapper; /* the discovery module: the user's module plus the anchor entry */
    char *source;
    size_t source_len;
    char **symbols;
    size_t symbol_count;
    bool dream;
    dgpb_platform platform;
    uint32_t targets;
    entry *entries;
    size_t entry_count;
    group *groups;
    size_t group_count;
    unit *units; /* [target * entry_count + entry] */
    target_layouts layouts[DGPB_TARGET_COUNT];
    bool metallib;
    unsigned errors;
} build;

/* ---- diagnostics ---- */

static void report(build *b, dgpb_severity sev, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void report(build *b, dgpb_severity sev, int code, const char *fmt, ...)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d.message, sizeof d.message, fmt, ap);
    va_end(ap);
    d.severity = sev;
    d.code = code;
    dgpb_diag_set_file(&d, b->desc->module_file);
    if (sev == DGPB_SEV_ERROR)
        b->errors++;
    if (b->desc->sink)
        b->desc->sink(&d, b->desc->user);
}

/* Forwards a library diagnostic, prefixed with context, and returns its code. */
static int forward(build *b, const dgpb_diag *d, const char *context)
{
    report(b, DGPB_SEV_ERROR, d->code, "%s%s%s", context ? context : "", context ? ": " : "",
           d->message);
    return d->code ? d->code : DGPB_ERR_INVALID;
}

/* ---- small helpers ---- */

static const char *stage_arg(uint32_t stage)
{
    return dgpb_stage_name(stage);
}

/* The -target value and file extension of a job. */
static const char *slang_target(int target, enum job_role role)
{
    if (role == ROLE_PROBE)
        return "spirv";
    if (role == ROLE_METALLIB)
        return "metallib";
    if (role == ROLE_DISCOVER && target == DGPB_TARGET_PTX)
        return "cuda"; /* same layout and entries, without the PTX assembler */
    return dgpb_target_id_name((uint32_t)target);
}

static const char *extension(const char *slang_target_name)
{
    if (!strcmp(slang_target_name, "spirv"))
        return "spv";
    if (!strcmp(slang_target_name, "cuda"))
        return "cu";
    return slang_target_name;
}

/* ---- jobs ---- */

typedef struct job_list {
    job_info *info;
    size_t count, cap;
} job_list;

static void job_list_free(job_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        job_info *j = &l->info[i];
        for (size_t k = 0; k < j->argc; k++)
            dgpb_free(j->argv[k]);
        dgpb_free(j->argv);
        dgpb_free(j->out);
        dgpb_free(j->json);
    }
    dgpb_free(l->info);
    memset(l, 0, sizeof *l);
}

/* Appends a job: the module, user options, the group and target macros, then the target's. */
static int add_job(build *b, job_list *l, enum job_role role, int target, size_t e)
{
    job_info *ni = dgpb_grow(l->info, l->count, &l->cap, sizeof *ni, 32);
    if (!ni)
        return DGPB_ERR_NOMEM;
    l->info = ni;
    job_info *j = &l->info[l->count];
    memset(j, 0, sizeof *j);
    j->role = role;
    j->target = target;
    j->entry = e;
    const dgpb_build_desc *d = b->desc;
    const char *tname = dgpb_target_id_name((uint32_t)target);
    const char *st = slang_target(target, role);
    const char *ename = role == ROLE_DISCOVER ? "module" : b->entries[e].name;
    const char *dir = role == ROLE_PROBE ? "probe-" : "";
    j->out = dgpb_strprintf("%s/%s%s/%s.%s", b->tmp, dir, tname, ename, extension(st));
    j->json = dgpb_strprintf("%s/%s%s/%s.%s.json", b->tmp, dir, tname, ename, extension(st));
    size_t max = 18 + 2 * d->define_count + 2 * d->include_dir_count + b->symbol_count;
    j->argv = dgpb_calloc(max, sizeof *j->argv);
    l->count++;
    if (!j->out || !j->json || !j->argv)
        return DGPB_ERR_NOMEM;
    size_t n = 0;
#define ARG(expr)                                                                                  \
    do {                                                                                           \
        if (!(j->argv[n++] = (expr)))                                                              \
            goto nomem;                                                                            \
        j->argc = n;                                                                               \
    } while (0)
    ARG(dgpb_strdup(role == ROLE_DISCOVER ? b->wrapper : d->module_file));
    for (size_t i = 0; i < d->define_count; i++)
        ARG(dgpb_strprintf("-D%s", d->defines[i]));
    for (size_t i = 0; i < d->include_dir_count; i++) {
        ARG(dgpb_strdup("-I"));
        ARG(dgpb_strdup(d->include_dirs[i]));
    }
    if (role == ROLE_DISCOVER) {
        /* The wrapper lives in the intermediate folder: let imports find the module's folder. */
        const char *slash = strrchr(d->module_file, '/');
        ARG(dgpb_strdup("-I"));
        ARG(slash ? dgpb_strprintf("%.*s", (int)(slash - d->module_file), d->module_file)
                  : dgpb_strdup("."));
        /* Every group at once; ptx carries compute entries only, so its discovery leaves the
           render and ray-tracing groups out (their stages have no CUDA form). */
        for (size_t i = 0; i < b->symbol_count; i++)
            if (target != DGPB_TARGET_PTX || !strncmp(b->symbols[i], DGPB_GROUP_COMPUTE_PREFIX,
                                                      strlen(DGPB_GROUP_COMPUTE_PREFIX)))
                ARG(dgpb_strprintf("-D%s", b->symbols[i]));
    } else {
        ARG(dgpb_strprintf("-D%s", b->groups[b->entries[e].group].symbol));
    }
    ARG(dgpb_strprintf("-D%s", dgpb_target_macro((uint32_t)target)));
    ARG(dgpb_strdup("-matrix-layout-row-major"));
    ARG(dgpb_strdup("-target"));
    ARG(dgpb_strdup(st));
    if (role != ROLE_DISCOVER) {
        ARG(dgpb_strdup("-entry"));
        ARG(dgpb_strdup(b->entries[e].name));
        ARG(dgpb_strdup("-stage"));
        ARG(dgpb_strdup(stage_arg(b->entries[e].stage)));
    }
    ARG(dgpb_strdup("-o"));
    ARG(dgpb_strdup(j->out));
    ARG(dgpb_strdup("-reflection-json"));
    ARG(dgpb_strdup(j->json));
#undef ARG
    return DGPB_OK;
nomem:
    return DGPB_ERR_NOMEM;
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

static int make_dirs(build *b, const job_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        char *slash = strrchr(l->info[i].out, '/');
        *slash = 0;
        int rc = mkdir(l->info[i].out, 0755);
        int err = errno;
        *slash = '/';
        if (rc != 0 && err != EEXIST) {
            report(b, DGPB_SEV_ERROR, DGPB_ERR_IO, "cannot create a folder in '%s': %s", b->tmp,
                   strerror(err));
            return DGPB_ERR_IO;
        }
    }
    return DGPB_OK;
}

/*
 * Runs every job of the list. Returns DGPB_ERR_TOOL when the compiler could
 * not run; per-job results go to `statuses` and `diagnostics` (owned by the
 * caller's dgpb_compile_job array, cleared with dgpb_compile_jobs_clear).
 */
static int run_jobs(build *b, job_list *l, dgpb_compile_job *jobs)
{
    int rc = make_dirs(b, l);
    if (rc)
        return rc;
    for (size_t i = 0; i < l->count; i++) {
        jobs[i].args = (const char *const *)l->info[i].argv;
        jobs[i].arg_count = l->info[i].argc;
        if (b->desc->verbose) {
            char line[8192];
            snprintf(line, sizeof line, "%s", dgpb_compiler_path(b->desc->compiler));
            for (size_t k = 0; k < l->info[i].argc; k++)
                append_quoted(line, sizeof line, l->info[i].argv[k]);
            report(b, DGPB_SEV_NOTE, DGPB_OK, "%s", line);
        }
    }
    dgpb_diag d;
    dgpb_diag_clear(&d);
    b->result->compile_count += (uint32_t)l->count;
    rc = dgpb_compiler_run(b->desc->compiler, jobs, l->count, b->desc->jobs, &d);
    if (rc)
        return forward(b, &d, "the compiler failed");
    return DGPB_OK;
}

/* A failed job's diagnostics for a message: *len bytes, without trailing newlines. */
static const char *diagnostics_text(const dgpb_compile_job *r, int *len)
{
    const char *text = r->diagnostics && *r->diagnostics ? r->diagnostics : "(no diagnostics)";
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == '\n')
        n--;
    *len = (int)n;
    return text;
}

/* Reports a failed entry compile (or probe) with Slang's own diagnostics. */
static void report_compile_failure(build *b, const job_info *j, const dgpb_compile_job *r)
{
    int n;
    const char *text = diagnostics_text(r, &n);
    report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
           "target '%s'%s, entry '%s': compile failed (exit status %d):\n%.*s",
           dgpb_target_id_name((uint32_t)j->target),
           j->role == ROLE_PROBE ? " (SPIR-V analysis probe)" : "", b->entries[j->entry].name,
           r->status, n, text);
}

/* ---- stage 1: prepare ---- */

/*
 * Writes the discovery module: the user's module, included, plus one empty
 * compute entry. Slang's compiler refuses a module without entry points, and
 * a module may well have none for some target (all of them guarded by
 * DREAM_TARGET_ macros); the anchor keeps that a list of zero entries.
 */
static int write_wrapper(build *b)
{
    char *abs = realpath(b->desc->module_file, NULL);
    if (!abs) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_IO, "cannot resolve '%s': %s", b->desc->module_file,
               strerror(errno));
        return DGPB_ERR_IO;
    }
    int rc = DGPB_OK;
    if (strpbrk(abs, "\"\n\\")) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
               "the module's path '%s' contains a quote, backslash or newline", abs);
        rc = DGPB_ERR_INVALID;
    }
    char *text =
        rc ? NULL
           : dgpb_strprintf("#include \"%s\"\n[shader(\"compute\")]\n[numthreads(1, 1, 1)]\n"
                            "void " ANCHOR_ENTRY "() {}\n",
                            abs);
    b->wrapper = dgpb_strprintf("%s/discover.slang", b->tmp);
    free(abs);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (!rc && (!text || !b->wrapper)) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
    }
    if (!rc && dgpb_file_write_atomic(b->wrapper, text, strlen(text), &d))
        rc = forward(b, &d, NULL);
    dgpb_free(text);
    return rc;
}

static int prepare(build *b)
{
    const dgpb_build_desc *d = b->desc;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    uint8_t *text = NULL;
    int rc = dgpb_file_read(d->module_file, MAX_SOURCE, &text, &b->source_len, &diag);
    if (rc)
        return forward(b, &diag, NULL);
    b->source = (char *)text;
    rc = dgpb_scan_group_symbols(b->source, b->source_len, &b->symbols, &b->symbol_count, &diag);
    if (rc)
        return forward(b, &diag, NULL);
    b->dream = b->symbol_count > 0;

    if (d->module_path && strchr(d->module_path, '/')) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
               "the module path '%s' contains '/': a module path is dotted ('shaders.post')",
               d->module_path);
        return DGPB_ERR_INVALID;
    }
    uint32_t wanted;
    if ((rc = dgpb_platform_from_triple(d->triple, &b->platform, &diag)) ||
        (rc = dgpb_targets_parse(d->targets, &wanted, &diag)))
        return forward(b, &diag, NULL);
    b->targets = wanted & dgpb_platform_targets(b->platform);
    if (!b->targets) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
               "no target left: the %s build triple loads none of the targets asked for (%s)",
               dgpb_platform_name(b->platform), d->targets ? d->targets : "all");
        return DGPB_ERR_INVALID;
    }

    const char *tmpdir = getenv("TMPDIR");
    snprintf(b->tmp, sizeof b->tmp, "%s/dgpb-build-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(b->tmp)) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_IO, "cannot create a temporary folder '%s': %s", b->tmp,
               strerror(errno));
        b->tmp[0] = 0;
        return DGPB_ERR_IO;
    }
    snprintf(b->result->temp_dir, sizeof b->result->temp_dir, "%s", b->tmp);
    return write_wrapper(b);
}

/* ---- stage 2: discover ---- */

static int find_entry(const build *b, const char *name)
{
    for (size_t i = 0; i < b->entry_count; i++)
        if (!strcmp(b->entries[i].name, name))
            return (int)i;
    return -1;
}

/* Inserts an entry at `pos`, keeping declaration order across targets. */
static int insert_entry(build *b, size_t pos, const dgpb_reflected_entry *re)
{
    entry *ne = dgpb_realloc(b->entries, (b->entry_count + 1) * sizeof *ne);
    if (!ne)
        return DGPB_ERR_NOMEM;
    b->entries = ne;
    memmove(&ne[pos + 1], &ne[pos], (b->entry_count - pos) * sizeof *ne);
    memset(&ne[pos], 0, sizeof *ne);
    ne[pos].name = dgpb_strdup(re->name);
    ne[pos].stage = (uint32_t)re->stage;
    memcpy(ne[pos].tgs, re->thread_group_size, sizeof ne[pos].tgs);
    b->entry_count++;
    return ne[pos].name ? DGPB_OK : DGPB_ERR_NOMEM;
}

static int add_group(build *b, enum group_kind kind, const char *symbol, const char *label,
                     size_t first, size_t *index)
{
    for (size_t i = 0; i < b->group_count; i++)
        if (!strcmp(b->groups[i].symbol, symbol)) {
            *index = i;
            return DGPB_OK;
        }
    group *ng = dgpb_realloc(b->groups, (b->group_count + 1) * sizeof *ng);
    if (!ng)
        return DGPB_ERR_NOMEM;
    b->groups = ng;
    group *g = &ng[b->group_count];
    g->kind = kind;
    g->symbol = dgpb_strdup(symbol);
    g->label = dgpb_strdup(label);
    g->first = first;
    *index = b->group_count++;
    return g->symbol && g->label ? DGPB_OK : DGPB_ERR_NOMEM;
}

static int assign_groups(build *b)
{
    for (size_t i = 0; i < b->entry_count; i++) {
        entry *e = &b->entries[i];
        int rc;
        if (e->stage == DGPB_STAGE_COMPUTE) {
            char symbol[600], label[600];
            snprintf(symbol, sizeof symbol, "%s%s", DGPB_GROUP_COMPUTE_PREFIX, e->name);
            snprintf(label, sizeof label, "compute shader '%s'", e->name);
            rc = add_group(b, GROUP_COMPUTE, symbol, label, i, &e->group);
        } else if (dgpb_stage_is_ray_tracing(e->stage)) {
            rc = add_group(b, GROUP_RAY_TRACING, DGPB_GROUP_RAY_TRACING, "the ray-tracing group", i,
                           &e->group);
        } else {
            rc = add_group(b, GROUP_RENDER, DGPB_GROUP_RENDER, "the render group", i, &e->group);
        }
        if (rc)
            return rc;
    }
    return DGPB_OK;
}

static int read_reflection(build *b, const char *path, const char *target,
                           const dgpb_reflection_blocks *blocks, dgpb_reflection **out)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint8_t *json = NULL;
    size_t size = 0;
    int rc = dgpb_file_read(path, MAX_OUTPUT, &json, &size, &d);
    if (!rc)
        rc = dgpb_reflection_parse_blocks((const char *)json, size, target, blocks, out, &d);
    dgpb_free(json);
    if (rc) {
        char ctx[4200];
        snprintf(ctx, sizeof ctx, "target '%s': reading Slang's reflection '%s'", target, path);
        return forward(b, &d, ctx);
    }
    return DGPB_OK;
}

/* Reports failed discoveries, once per distinct diagnostic text, naming its targets. */
static void report_discovery_failures(build *b, const job_list *l, const dgpb_compile_job *jobs)
{
    for (size_t i = 0; i < l->count; i++) {
        if (jobs[i].status == 0)
            continue;
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = jobs[k].status != 0 && !strcmp(jobs[k].diagnostics, jobs[i].diagnostics);
        if (seen)
            continue;
        char targets[256] = "";
        unsigned count = 0;
        for (size_t k = i; k < l->count; k++)
            if (jobs[k].status != 0 && !strcmp(jobs[k].diagnostics, jobs[i].diagnostics)) {
                size_t n = strlen(targets);
                snprintf(targets + n, sizeof targets - n, "%s'%s'", count ? ", " : "",
                         dgpb_target_id_name((uint32_t)l->info[k].target));
                count++;
            }
        int n;
        const char *text = diagnostics_text(&jobs[i], &n);
        report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
               "target%s %s: the module does not compile:\n%.*s", count == 1 ? "" : "s", targets, n,
               text);
    }
}

/*
 * Fills in stages the reflection left out (Slang 2025.15 writes none for the
 * ray-tracing stages) from the execution models of the discovery's SPIR-V.
 */
static int stages_from_code(build *b, const job_info *j, dgpb_reflection *r)
{
    bool missing = false;
    for (size_t k = 0; k < r->entry_count; k++)
        missing |= !r->entries[k].stage_name[0];
    if (!missing || j->target != DGPB_TARGET_SPIRV)
        return DGPB_OK;
    uint8_t *code = NULL;
    size_t size = 0;
    dgpb_spirv_entry_point *eps = NULL;
    size_t count = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = dgpb_file_read(j->out, MAX_OUTPUT, &code, &size, &d);
    if (!rc)
        rc = dgpb_spirv_entry_points(code, size, &eps, &count, &d);
    for (size_t k = 0; !rc && k < r->entry_count; k++)
        for (size_t i = 0; i < count && !r->entries[k].stage_name[0]; i++)
            if (!strcmp(eps[i].name, r->entries[k].name))
                r->entries[k].stage = dgpb_spirv_stage_of_model(eps[i].execution_model);
    dgpb_free(eps);
    dgpb_free(code);
    return rc ? forward(b, &d, "target 'spirv': reading the module's entry points") : DGPB_OK;
}

/* The wgsl target keeps entry names as WGSL function names: they must not be WGSL's own. */
static int check_wgsl_names(build *b)
{
    for (size_t e = 0; e < b->entry_count; e++)
        if ((b->entries[e].targets & (1u << DGPB_TARGET_WGSL)) &&
            dgpb_wgsl_name_reserved(b->entries[e].name))
            report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                   "target 'wgsl', entry '%s': '%s' is a WGSL keyword or predeclared name; the "
                   "WGSL code keeps entry names (hosts select entries by name), so WebGPU would "
                   "reject it: rename the entry",
                   b->entries[e].name, b->entries[e].name);
    return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}

static int discover(build *b)
{
    job_list l = {0};
    int rc = DGPB_OK;
    /* A plain module has no group guards, so its render and ray-tracing entries would reach
       the CUDA compile: take ptx's compute entries from another target's discovery. */
    bool ptx_from_others = !b->dream && (b->targets & ~(1u << DGPB_TARGET_PTX));
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++)
        if ((b->targets & (1u << t)) && !(t == DGPB_TARGET_PTX && ptx_from_others))
            rc = add_job(b, &l, ROLE_DISCOVER, t, 0);
    dgpb_compile_job *jobs = rc ? NULL : dgpb_calloc(l.count, sizeof *jobs);
    if (rc || !jobs) {
        job_list_free(&l);
        report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    rc = run_jobs(b, &l, jobs);
    if (!rc)
        report_discovery_failures(b, &l, jobs);
    if (!rc && b->errors)
        rc = DGPB_ERR_SHADER;
    for (size_t i = 0; i < l.count && !rc; i++) {
        int t = l.info[i].target;
        const char *tname = dgpb_target_id_name((uint32_t)t);
        dgpb_reflection *r = NULL;
        rc = read_reflection(b, l.info[i].json, tname, NULL, &r);
        if (!rc)
            rc = stages_from_code(b, &l.info[i], r);
        size_t prev = 0; /* insertion point: after the last entry of this list seen */
        for (size_t k = 0; !rc && k < r->entry_count; k++) {
            const dgpb_reflected_entry *re = &r->entries[k];
            if (!strcmp(re->name, ANCHOR_ENTRY))
                continue;
            if (re->stage < 0 && !re->stage_name[0]) {
                report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                       "entry '%s': Slang's reflection for target '%s' names no stage (this Slang "
                       "writes none for ray-tracing stages; build them for spirv)",
                       re->name, tname);
                rc = DGPB_ERR_SHADER;
                break;
            }
            if (re->stage < 0) {
                report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                       "entry '%s': stage '%s' has no place in a bundle (stages: compute, vertex, "
                       "fragment and the ray-tracing stages)",
                       re->name, re->stage_name);
                rc = DGPB_ERR_SHADER;
                break;
            }
            int at = find_entry(b, re->name);
            if (at < 0) {
                rc = insert_entry(b, prev, re);
                at = (int)prev;
            } else if (b->entries[at].stage != (uint32_t)re->stage) {
                report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                       "entry '%s' is a %s shader on one target and a %s shader on '%s'", re->name,
                       dgpb_stage_name(b->entries[at].stage), re->stage_name, tname);
                rc = DGPB_ERR_SHADER;
            }
            if (!rc) {
                prev = (size_t)at + 1;
                /* ptx carries compute entries only */
                if (t != DGPB_TARGET_PTX || re->stage == DGPB_STAGE_COMPUTE)
                    b->entries[at].targets |= 1u << t;
            }
        }
        dgpb_reflection_free(r);
    }
    dgpb_compile_jobs_clear(jobs, l.count);
    dgpb_free(jobs);
    job_list_free(&l);
    for (size_t e = 0; !rc && ptx_from_others && e < b->entry_count; e++)
        if (b->entries[e].stage == DGPB_STAGE_COMPUTE && (b->targets & (1u << DGPB_TARGET_PTX)))
            b->entries[e].targets |= 1u << DGPB_TARGET_PTX;
    if (!rc && b->entry_count == 0) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
               "no entry points found (mark each with [shader(\"<stage>\")])");
        rc = DGPB_ERR_SHADER;
    }
    if (!rc)
        rc = assign_groups(b);
    if (!rc)
        rc = check_wgsl_names(b);
    if (rc == DGPB_ERR_NOMEM)
        report(b, DGPB_SEV_ERROR, rc, "out of memory");
    return rc;
}

/* ---- stage 3: compile ---- */

static unit *unit_at(build *b, int target, size_t e)
{
    return &b->units[(size_t)target * b->entry_count + e];
}

/* Whether an entry's SPIR-V for `target` must come from a probe compile. */
static bool needs_probe(const build *b, int target, size_t e)
{
    if (target == DGPB_TARGET_SPIRV)
        return false;
    bool spirv_has_it = (b->targets & (1u << DGPB_TARGET_SPIRV)) &&
                        (b->entries[e].targets & (1u << DGPB_TARGET_SPIRV));
    return !spirv_has_it;
}

static int plan_jobs(build *b, job_list *l)
{
    int rc = DGPB_OK;
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++) {
        if (!(b->targets & (1u << t)))
            continue;
        for (size_t e = 0; e < b->entry_count && !rc; e++) {
            if (!(b->entries[e].targets & (1u << t)))
                continue;
            rc = add_job(b, l, ROLE_CODE, t, e);
            if (!rc && t == DGPB_TARGET_METAL)
                rc = add_job(b, l, ROLE_METALLIB, t, e);
            if (!rc && needs_probe(b, t, e))
                rc = add_job(b, l, ROLE_PROBE, t, e);
        }
    }
    return rc;
}

static int read_output(build *b, const char *path, uint8_t **out, size_t *size)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = dgpb_file_read(path, MAX_OUTPUT, out, size, &d);
    if (rc)
        return forward(b, &d, "reading a compiler output");
    return DGPB_OK;
}

static int analyze(build *b, int target, size_t e, const uint8_t *spv, size_t size,
                   dgpb_spirv_info **out)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = dgpb_spirv_analyze(spv, size, out, &d);
    if (rc == DGPB_ERR_UNSUPPORTED && *out) {
        report(b, DGPB_SEV_WARNING, rc,
               "target '%s', entry '%s': SPIRV-Tools cannot parse its SPIR-V (%s); capabilities "
               "come from the instruction stream, no parameter is flagged as written and every "
               "global counts as used",
               dgpb_target_id_name((uint32_t)target), b->entries[e].name, d.message);
        return DGPB_OK;
    }
    if (rc) {
        char ctx[600];
        snprintf(ctx, sizeof ctx, "target '%s', entry '%s': SPIR-V analysis",
                 dgpb_target_id_name((uint32_t)target), b->entries[e].name);
        return forward(b, &d, ctx);
    }
    return DGPB_OK;
}

/*
 * Reads a unit's reflection. The value block of a generator module's entry
 * is "<entry>_params"; the push-constant blocks are the SPIR-V's PushConstant
 * variables other than Slang's own for entry-point values.
 */
static int read_unit_reflection(build *b, const job_info *j, unit *u)
{
    char block[600];
    dgpb_value_block_name(b->entries[j->entry].name, block, sizeof block);
    const char *values[1] = {block};
    const char **push = NULL;
    size_t push_count = 0;
    if (u->spirv && u->spirv->var_count) {
        push = dgpb_calloc(u->spirv->var_count, sizeof *push);
        if (!push) {
            report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
            return DGPB_ERR_NOMEM;
        }
        for (size_t i = 0; i < u->spirv->var_count; i++) {
            const dgpb_spirv_var *v = &u->spirv->vars[i];
            if (v->storage_class == 9 /* PushConstant */ && strcmp(v->name, "entryPointParams"))
                push[push_count++] = v->name;
        }
    }
    dgpb_reflection_blocks blocks = {values, b->dream ? 1 : 0, push, push_count};
    int rc =
        read_reflection(b, j->json, dgpb_target_id_name((uint32_t)j->target), &blocks, &u->refl);
    dgpb_free(push);
    return rc;
}

/* Reads each job's outputs into its unit: code, SPIR-V analysis, then reflection. */
static int gather(build *b, const job_list *l, const dgpb_compile_job *jobs)
{
    bool all_metallib = true;
    for (size_t i = 0; i < l->count; i++)
        if (l->info[i].role == ROLE_METALLIB && jobs[i].status != 0)
            all_metallib = false;
    b->metallib = all_metallib;
    for (size_t i = 0; i < l->count; i++) {
        const job_info *j = &l->info[i];
        bool metallib_job = j->role == ROLE_METALLIB;
        if (metallib_job)
            continue; /* read below when every metallib compiled */
        if (jobs[i].status != 0)
            report_compile_failure(b, j, &jobs[i]);
    }
    if (b->errors)
        return DGPB_ERR_SHADER;
    int rc = DGPB_OK;
    for (size_t i = 0; i < l->count && !rc; i++) {
        const job_info *j = &l->info[i];
        unit *u = unit_at(b, j->target, j->entry);
        if (j->role == ROLE_PROBE) {
            uint8_t *spv = NULL;
            size_t size = 0;
            rc = read_output(b, j->out, &spv, &size);
            if (!rc)
                rc = analyze(b, j->target, j->entry, spv, size, &u->spirv);
            dgpb_free(spv);
            continue;
        }
        bool use = (j->role == ROLE_CODE) != (j->target == DGPB_TARGET_METAL && b->metallib);
        if (!use)
            continue;
        u->present = true;
        rc = read_output(b, j->out, &u->code, &u->code_size);
        if (!rc && j->target == DGPB_TARGET_SPIRV)
            rc = analyze(b, j->target, j->entry, u->code, u->code_size, &u->spirv);
    }
    /* Entries without a probe share the spirv target's analysis. */
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++)
        for (size_t e = 0; e < b->entry_count; e++) {
            unit *u = unit_at(b, t, e);
            if (u->present && !u->spirv) {
                u->spirv = unit_at(b, DGPB_TARGET_SPIRV, e)->spirv;
                u->spirv_shared = true;
            }
        }
    /* Then the reflection, which needs the SPIR-V's push-constant blocks on every target. */
    for (size_t i = 0; i < l->count && !rc; i++) {
        const job_info *j = &l->info[i];
        unit *u = unit_at(b, j->target, j->entry);
        bool use = (j->role == ROLE_CODE) != (j->target == DGPB_TARGET_METAL && b->metallib);
        if (j->role != ROLE_PROBE && use)
            rc = read_unit_reflection(b, j, u);
    }
    return rc;
}

static int compile(build *b)
{
    job_list l = {0};
    int rc = plan_jobs(b, &l);
    dgpb_compile_job *jobs = rc ? NULL : dgpb_calloc(l.count, sizeof *jobs);
    b->units = dgpb_calloc((size_t)DGPB_TARGET_COUNT * b->entry_count, sizeof *b->units);
    if (rc || !jobs || !b->units) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
    } else {
        rc = run_jobs(b, &l, jobs);
        if (!rc)
            rc = gather(b, &l, jobs);
    }
    if (jobs)
        dgpb_compile_jobs_clear(jobs, l.count);
    dgpb_free(jobs);
    job_list_free(&l);
    return rc;
}

/* ---- stage 4: collect ---- */

/*
 * Reads back the bindings of a unit's code: SPIR-V from its analysis, WGSL
 * and PTX by scanning the text. Other targets have no reader (*code stays
 * empty and *ptx NULL).
 */
static int read_code_bindings(build *b, int t, size_t e, unit *u, dgpb_code_bindings *code,
                              dgpb_ptx_module **ptx, bool *have)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = DGPB_OK;
    *have = false;
    if (t == DGPB_TARGET_SPIRV && u->spirv && u->spirv->parsed) {
        rc = dgpb_code_bindings_from_spirv(u->spirv, code, &d);
        *have = true;
    } else if (t == DGPB_TARGET_WGSL) {
        rc = dgpb_wgsl_scan((const char *)u->code, u->code_size, &u->wgsl, &d);
        if (!rc)
            rc = dgpb_code_bindings_from_wgsl(u->wgsl, code, &d);
        *have = true;
    } else if (t == DGPB_TARGET_PTX) {
        rc = dgpb_ptx_scan((const char *)u->code, u->code_size, ptx, &d);
    }
    if (rc) {
        char ctx[600];
        snprintf(ctx, sizeof ctx, "target '%s', entry '%s': reading the bindings of its code",
                 dgpb_target_id_name((uint32_t)t), b->entries[e].name);
        return forward(b, &d, ctx);
    }
    return DGPB_OK;
}

static int collect_unit(build *b, int t, size_t e)
{
    unit *u = unit_at(b, t, e);
    const entry *en = &b->entries[e];
    const group *g = &b->groups[en->group];
    const char *tname = dgpb_target_id_name((uint32_t)t);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (t == DGPB_TARGET_SPIRV && dgpb_spirv_validate(u->code, u->code_size, &d)) {
        char ctx[600];
        snprintf(ctx, sizeof ctx, "target 'spirv', entry '%s'", en->name);
        return forward(b, &d, ctx);
    }
    const char **members = dgpb_calloc(b->entry_count, sizeof *members);
    if (!members) {
        report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    size_t count = 0;
    for (size_t i = 0; i < b->entry_count; i++)
        if (b->entries[i].group == en->group)
            members[count++] = b->entries[i].name;
    dgpb_code_bindings code = {0};
    dgpb_ptx_module *ptx = NULL;
    bool have_code = false;
    int rc = read_code_bindings(b, t, e, u, &code, &ptx, &have_code);
    dgpb_param_select s = {
        .target = tname,
        .entry = en->name,
        .reflection = u->refl,
        .spirv = u->spirv,
        .dream = b->dream,
        .group_entries = members,
        .group_entry_count = count,
        .code = have_code ? &code : NULL,
    };
    if (!rc && (rc = dgpb_param_table_build(&s, &u->params, &d)))
        forward(b, &d, NULL);
    /* The proof: the table against the code it ships. */
    dgpb_proof_input proof = {
        .target = tname, .entry = en->name, .table = &u->params, .code = &code, .ptx = ptx};
    if (!rc && (have_code || ptx) && (rc = dgpb_binding_proof(&proof, &d)))
        forward(b, &d, NULL);
    if (!rc && t == DGPB_TARGET_WGSL &&
        (rc = dgpb_webgpu_check_entry(en->name, en->stage, en->tgs, u->wgsl, &u->params, &d)))
        forward(b, &d, "target 'wgsl'");
    dgpb_code_bindings_clear(&code);
    dgpb_ptx_module_free(ptx);
    dgpb_free(members);
    if (rc)
        return rc;
    u->caps = u->spirv ? dgpb_spirv_capability_mask(u->spirv) : 0;
    if (g->kind == GROUP_RAY_TRACING)
        u->caps |= 1u << DGPB_CAP_RAYTRACING;
    return DGPB_OK;
}

/*
 * Slang places each entry's `uniform` parameters in a range of its own that
 * starts where the globals end, one compile per entry, so two entries of a
 * render or ray-tracing group that both have them would share bindings (and
 * push-constant bytes) with different meanings in one pipeline. Refused,
 * naming both entries.
 */
static void check_group_entry_params(build *b)
{
    for (size_t g = 0; g < b->group_count; g++) {
        if (b->groups[g].kind == GROUP_COMPUTE)
            continue;
        for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
            const char *first = NULL;
            for (size_t e = 0; e < b->entry_count; e++) {
                const unit *u = unit_at(b, t, e);
                if (b->entries[e].group != g || !u->present || !u->refl)
                    continue;
                bool has = false;
                for (size_t i = 0; i < u->refl->param_count && !has; i++)
                    has = u->refl->params[i].entry_param;
                if (has && !first) {
                    first = b->entries[e].name;
                } else if (has) {
                    report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                           "target '%s', %s: entries '%s' and '%s' both have `uniform` "
                           "parameters, which Slang places in the same bindings of the group's "
                           "pipeline; declare them as globals (or keep them on one entry of the "
                           "group)",
                           dgpb_target_id_name((uint32_t)t), b->groups[g].label, first,
                           b->entries[e].name);
                    break;
                }
            }
        }
    }
}

/*
 * A host's bind command carries a row index, the same for every target of an
 * entry (the generator makes one argument list per entry), so every target's
 * table must list the same rows, by name and kind, in the same order.
 */
static void check_rows_alike(build *b)
{
    for (size_t e = 0; e < b->entry_count; e++) {
        int first = -1;
        for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
            const unit *u = unit_at(b, t, e);
            if (!u->present)
                continue;
            if (first < 0) {
                first = t;
                continue;
            }
            const dgpb_param_table *a = &unit_at(b, first, e)->params, *c = &u->params;
            uint32_t n = a->count < c->count ? a->count : c->count, r = 0;
            while (r < n && a->rows[r].kind == c->rows[r].kind &&
                   !strcmp(a->rows[r].name, c->rows[r].name))
                r++;
            if (r == n && a->count == c->count)
                continue;
            report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                   "entry '%s': its rows differ between targets '%s' and '%s' at row %u (%s%s%s "
                   "against %s%s%s), so a host's row indices would too; make the entry use the "
                   "same parameters on every target",
                   b->entries[e].name, dgpb_target_id_name((uint32_t)first),
                   dgpb_target_id_name((uint32_t)t), r, r < a->count ? "'" : "",
                   r < a->count ? a->rows[r].name : "none", r < a->count ? "'" : "",
                   r < c->count ? "'" : "", r < c->count ? c->rows[r].name : "none",
                   r < c->count ? "'" : "");
            break;
        }
    }
}

/* Collects every unit, reporting every module error; running out of memory stops it. */
static int collect(build *b)
{
    for (int t = 0; t < DGPB_TARGET_COUNT; t++)
        for (size_t e = 0; e < b->entry_count; e++)
            if (unit_at(b, t, e)->present && collect_unit(b, t, e) == DGPB_ERR_NOMEM)
                return DGPB_ERR_NOMEM;
    check_group_entry_params(b);
    if (!b->errors)
        check_rows_alike(b);
    return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}

/* ---- stage 5: check ---- */

/*
 * Storage-texture IDs that the format allows but WebGPU devices may not: a
 * read-write rg32float storage texture (ID 7) is not allowed by WebGPU at all
 * today, not even with the texture-formats-tier2 feature, and a read-write
 * rgba32float one (ID 8) needs that feature. Measured with Dawn on an NVIDIA
 * GPU (docs/conformance.md). A warning, since the bundle itself is valid.
 */
static void warn_storage_formats(build *b)
{
    for (size_t e = 0; e < b->entry_count; e++) {
        const unit *u = unit_at(b, DGPB_TARGET_WGSL, e);
        for (uint32_t r = 0; u->present && r < u->params.count; r++) {
            uint32_t id = u->params.rows[r].webgpu_layout;
            if (id == DGPB_WGPU_STORAGE_TEXTURE_2D_RG32FLOAT)
                report(b, DGPB_SEV_WARNING, DGPB_OK,
                       "target 'wgsl', entry '%s', parameter '%s': WebGPU has no read-write "
                       "rg32float storage texture (not even with texture-formats-tier2); "
                       "WebGPU devices will refuse this entry's pipeline",
                       b->entries[e].name, u->params.rows[r].name);
            else if (id == DGPB_WGPU_STORAGE_TEXTURE_2D_RGBA32FLOAT)
                report(b, DGPB_SEV_WARNING, DGPB_OK,
                       "target 'wgsl', entry '%s', parameter '%s': a read-write rgba32float "
                       "storage texture needs WebGPU's texture-formats-tier2 feature",
                       b->entries[e].name, u->params.rows[r].name);
        }
    }
}

static int check_webgpu(build *b)
{
    if (!(b->targets & (1u << DGPB_TARGET_WGSL)))
        return DGPB_OK;
    const char **names = dgpb_calloc(b->entry_count, sizeof *names);
    dgpb_param_table *tables = dgpb_calloc(b->entry_count, sizeof *tables);
    int rc = DGPB_OK;
    if (!names || !tables) {
        rc = DGPB_ERR_NOMEM;
        report(b, DGPB_SEV_ERROR, rc, "out of memory");
    }
    for (size_t g = 0; g < b->group_count && !rc; g++) {
        size_t n = 0;
        for (size_t e = 0; e < b->entry_count; e++) {
            unit *u = unit_at(b, DGPB_TARGET_WGSL, e);
            if (b->entries[e].group == g && u->present) {
                names[n] = b->entries[e].name;
                tables[n++] = u->params;
            }
        }
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (n && dgpb_webgpu_check_group(b->groups[g].label, names, tables, n, &d) &&
            forward(b, &d, "target 'wgsl'") == DGPB_ERR_NOMEM)
            rc = DGPB_ERR_NOMEM; /* every other failure is the module's: check every group */
    }
    dgpb_free(names);
    dgpb_free(tables); /* the tables' rows belong to the units */
    warn_storage_formats(b);
    return rc ? rc : b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}

/* ---- stage 6: layouts ---- */

/*
 * Records one group's layout for one target. DGPB_ERR_UNSUPPORTED (warned)
 * when the recorder finds no native libslang of its own; a --slang-lib it
 * cannot load is an error like any other.
 */
static int record_group(build *b, int t, size_t g, uint8_t **blob, size_t *size)
{
    const dgpb_build_desc *d = b->desc;
    dgpb_layout_entry *entries = dgpb_calloc(b->entry_count, sizeof *entries);
    char *group_define = dgpb_strprintf("-D%s", b->groups[g].symbol);
    char *target_define = dgpb_strprintf("-D%s", dgpb_target_macro((uint32_t)t));
    char *output =
        dgpb_strprintf("%s/layouts-%s-%zu.bin", b->tmp, dgpb_target_id_name((uint32_t)t), g);
    if (!entries || !group_define || !target_define || !output) {
        dgpb_free(entries);
        dgpb_free(group_define);
        dgpb_free(target_define);
        dgpb_free(output);
        report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t e = 0; e < b->entry_count; e++)
        if (b->entries[e].group == g && unit_at(b, t, e)->present)
            entries[n++] = (dgpb_layout_entry){b->entries[e].name, stage_arg(b->entries[e].stage)};
    const char *extra[3] = {group_define, target_define, "-matrix-layout-row-major"};
    dgpb_layout_run_desc run = {
        .recorder = d->layout_recorder,
        .module = d->module_file,
        .target =
            slang_target(t, t == DGPB_TARGET_METAL && b->metallib ? ROLE_METALLIB : ROLE_CODE),
        .entries = entries,
        .entry_count = n,
        .defines = d->defines,
        .define_count = d->define_count,
        .include_dirs = d->include_dirs,
        .include_dir_count = d->include_dir_count,
        .extra_args = extra,
        .extra_arg_count = 3,
        .output = output,
        .slang_lib = d->slang_lib,
        .slangc = dgpb_compiler_is_embedded(d->compiler) ? NULL : dgpb_compiler_path(d->compiler),
    };
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (d->verbose)
        report(b, DGPB_SEV_NOTE, DGPB_OK, "recording the layout of %s for '%s'", b->groups[g].label,
               dgpb_target_id_name((uint32_t)t));
    b->result->compile_count++;
    int rc = dgpb_layout_run(&run, blob, size, &diag);
    if (rc && (rc != DGPB_ERR_UNSUPPORTED || d->slang_lib)) {
        char ctx[700];
        snprintf(ctx, sizeof ctx, "target '%s', %s: the layout recorder failed",
                 dgpb_target_id_name((uint32_t)t), b->groups[g].label);
        forward(b, &diag, ctx);
    } else if (rc) {
        report(b, DGPB_SEV_WARNING, DGPB_OK,
               "the layout recorder cannot load a native Slang library (%s): the bundle carries "
               "no layouts, which native hosts reject",
               diag.message);
    }
    dgpb_free(entries);
    dgpb_free(group_define);
    dgpb_free(target_define);
    dgpb_free(output);
    return rc;
}

/*
 * Records one layout per pipeline group and target, in order of each group's
 * first entry, and points each entry at its group's. Nothing on wasm32 (the
 * browser binds from the parameter table). Without a recorder, or when it
 * finds no native Slang library (and none was named), the bundle goes
 * without layouts and one warning says so. Errors in the module are reported
 * for every group (DGPB_ERR_SHADER); a recorder that cannot work at all
 * stops at its first failure with that failure's code.
 */
static int record_layouts(build *b)
{
    if (b->platform == DGPB_PLATFORM_WASM32)
        return DGPB_OK;
    if (!b->desc->layout_recorder) {
        report(b, DGPB_SEV_WARNING, DGPB_OK,
               "no layout recorder is configured: the bundle carries no layouts, which native "
               "hosts reject (dgpb-slang-layout, --layout-recorder)");
        return DGPB_OK;
    }
    for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
        if (!(b->targets & (1u << t)))
            continue;
        target_layouts *tl = &b->layouts[t];
        for (size_t g = 0; g < b->group_count; g++) {
            bool present = false;
            for (size_t e = 0; e < b->entry_count && !present; e++)
                present = b->entries[e].group == g && unit_at(b, t, e)->present;
            if (!present)
                continue;
            uint8_t *blob = NULL;
            size_t size = 0;
            int rc = record_group(b, t, g, &blob, &size);
            if (rc == DGPB_ERR_UNSUPPORTED && !b->desc->slang_lib) {
                for (int k = 0; k < DGPB_TARGET_COUNT; k++) { /* no layouts anywhere */
                    for (uint32_t i = 0; i < b->layouts[k].count; i++)
                        dgpb_free(b->layouts[k].blobs[i]);
                    b->layouts[k].count = 0;
                }
                for (size_t i = 0; i < (size_t)DGPB_TARGET_COUNT * b->entry_count; i++)
                    b->units[i].layout = 0;
                return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
            }
            if (rc && dgpb_result_class(rc) != DGPB_ERR_SHADER)
                return rc; /* the recorder cannot work: every other group would fail the same */
            if (rc)
                continue; /* the module's errors: go on to show every group's */
            uint8_t **blobs = dgpb_realloc(tl->blobs, (tl->count + 1) * sizeof *blobs);
            size_t *sizes = blobs ? dgpb_realloc(tl->sizes, (tl->count + 1) * sizeof *sizes) : NULL;
            if (blobs)
                tl->blobs = blobs;
            if (sizes)
                tl->sizes = sizes;
            if (!blobs || !sizes) {
                dgpb_free(blob);
                report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
                return DGPB_ERR_NOMEM;
            }
            tl->blobs[tl->count] = blob;
            tl->sizes[tl->count] = size;
            for (size_t e = 0; e < b->entry_count; e++)
                if (b->entries[e].group == g)
                    unit_at(b, t, e)->layout = tl->count;
            tl->count++;
        }
    }
    return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}

/* ---- stage 7: emit ---- */

static int add_units(build *b, dgpb_model *m, int t, uint32_t ti, dgpb_diag *d)
{
    int rc = DGPB_OK;
    for (size_t e = 0; e < b->entry_count && !rc; e++) {
        unit *u = unit_at(b, t, e);
        if (!u->present)
            continue;
        const char *caps[DGPB_CAP_COUNT];
        uint32_t ncaps = 0;
        for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++)
            if (u->caps & (1u << c))
                caps[ncaps++] = dgpb_capability_name(c);
        dgpb_entry_desc desc = {
            .name = b->entries[e].name,
            .stage = dgpb_stage_name(b->entries[e].stage),
            .layout = u->layout,
            .code = u->code,
            .code_size = u->code_size,
            .params = u->params.rows,
            .param_count = u->params.count,
            .capabilities = caps,
            .capability_count = ncaps,
        };
        if (b->entries[e].stage == DGPB_STAGE_COMPUTE)
            memcpy(desc.thread_group_size, b->entries[e].tgs, sizeof desc.thread_group_size);
        rc = dgpb_model_add_entry(m, ti, &desc, d);
    }
    return rc;
}

/*
 * The distinct code blobs of a bundle. The writer places each distinct blob
 * at the end of the data section when it is first referenced (targets in
 * order, layouts before entries), so a reference to a new blob is one that
 * starts at or past everything placed before it.
 */
static uint32_t count_code_blobs(const dgpb_bundle *bundle)
{
    uint64_t end = 0;
    uint32_t count = 0;
    for (uint32_t t = 0; t < dgpb_bundle_target_count(bundle); t++) {
        const dgpb_target_view *tv = dgpb_bundle_target(bundle, t);
        for (uint32_t i = 0; i < tv->layout_count; i++)
            if (tv->layouts[i].offset >= end)
                end = (uint64_t)tv->layouts[i].offset + tv->layouts[i].size;
        for (uint32_t e = 0; e < tv->entry_count; e++)
            if (tv->entries[e].code.offset >= end) {
                end = (uint64_t)tv->entries[e].code.offset + tv->entries[e].code.size;
                count++;
            }
    }
    return count;
}

static const char *code_format(const build *b, int t)
{
    if (t == DGPB_TARGET_METAL)
        return b->metallib ? "metallib" : "msl";
    return dgpb_target_id_name((uint32_t)t);
}

/*
 * Writes the bundle and its view into the output folder (-o DIR, created if
 * missing, or the module's folder), both or neither; their paths go to the
 * result.
 */
static int write_outputs(build *b, const char *stem, const uint8_t *bytes, size_t size,
                         const char *json, dgpb_diag *diag)
{
    const dgpb_build_desc *d = b->desc;
    const char *dir = d->out_dir, *slash = strrchr(d->module_file, '/');
    size_t dir_len;
    if (dir && *dir) {
        int rc = dgpb_mkdirs(dir, diag);
        if (rc)
            return rc;
        dir_len = strlen(dir);
        while (dir_len > 1 && dir[dir_len - 1] == '/')
            dir_len--;
    } else if (slash) {
        dir = d->module_file;
        dir_len = (size_t)(slash - dir); /* 0 for a module in '/' */
    } else {
        dir = ".";
        dir_len = 1;
    }
    const char *sep = dir_len && dir[dir_len - 1] == '/' ? "" : "/";
    dgpb_build_result *r = b->result;
    int n1 = snprintf(r->bundle_path, sizeof r->bundle_path, "%.*s%s%s.dgpb", (int)dir_len, dir,
                      sep, stem);
    int n2 = snprintf(r->json_path, sizeof r->json_path, "%.*s%s%s.bundle.json", (int)dir_len, dir,
                      sep, stem);
    if (n1 < 0 || n2 < 0 || (size_t)n1 >= sizeof r->bundle_path ||
        (size_t)n2 >= sizeof r->json_path)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                             "the output path '%.*s%s%s.bundle.json' is "
                             "longer than %zu bytes",
                             (int)dir_len, dir, sep, stem, sizeof r->json_path - 1);
    const char *paths[2] = {r->bundle_path, r->json_path};
    const void *data[2] = {bytes, json};
    size_t sizes[2] = {size, strlen(json)};
    return dgpb_files_write_atomic(2, paths, data, sizes, diag);
}

static int emit(build *b)
{
    const dgpb_build_desc *d = b->desc;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    dgpb_model *m = NULL;
    uint8_t *bytes = NULL;
    size_t size = 0;
    char *json = NULL;
    dgpb_bundle *bundle = NULL;
    int rc = dgpb_model_create(&m);
    if (rc)
        dgpb_diag_set(&diag, rc, -1, "out of memory");
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++) {
        bool any = false;
        for (size_t e = 0; e < b->entry_count; e++)
            any |= unit_at(b, t, e)->present;
        if (!any)
            continue; /* a target left with no entries is left out */
        uint32_t ti;
        rc = dgpb_model_add_target(m, dgpb_target_id_name((uint32_t)t), code_format(b, t), &ti,
                                   &diag);
        for (uint32_t i = 0; !rc && i < b->layouts[t].count; i++)
            rc = dgpb_model_add_layout(m, ti, b->layouts[t].blobs[i], b->layouts[t].sizes[i], NULL,
                                       &diag);
        if (!rc)
            rc = add_units(b, m, t, ti, &diag);
    }
    if (!rc)
        rc = dgpb_write(m, &bytes, &size, &diag);
    /* Read back what was written: the JSON view comes from the bytes, and a bundle the
       reader rejects is never written. */
    if (!rc)
        rc = dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &bundle, &diag);
    char stem[1024];
    const char *slash = strrchr(d->module_file, '/');
    const char *base = slash ? slash + 1 : d->module_file;
    char module_path[1024];
    snprintf(module_path, sizeof module_path, "%s", base);
    size_t blen = strlen(module_path);
    if (blen > 6 && !strcmp(module_path + blen - 6, ".slang"))
        module_path[blen - 6] = 0;
    dgpb_stem_from_module_path(d->module_path ? d->module_path : module_path, stem, sizeof stem);
    if (!rc)
        rc = dgpb_json_view(bundle, stem, &json, &diag);
    if (!rc)
        rc = write_outputs(b, stem, bytes, size, json, &diag);
    if (rc) {
        forward(b, &diag, NULL);
        b->result->bundle_path[0] = b->result->json_path[0] = 0;
    } else {
        b->result->bundle_size = size;
        b->result->target_count = dgpb_bundle_target_count(bundle);
        b->result->entry_count = (uint32_t)b->entry_count;
        b->result->blob_count = count_code_blobs(bundle);
    }
    dgpb_bundle_close(bundle);
    dgpb_free(json);
    dgpb_free(bytes);
    dgpb_model_destroy(m);
    return rc;
}

/* ---- cleanup ---- */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void finish(build *b, int rc)
{
    if (b->tmp[0]) {
        if (b->desc->keep_temps) {
            report(b, DGPB_SEV_NOTE, DGPB_OK, "intermediate files kept in '%s'", b->tmp);
        } else {
            nftw(b->tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
            b->result->temp_dir[0] = 0;
        }
    }
    (void)rc;
    for (size_t t = 0; b->units && t < DGPB_TARGET_COUNT; t++)
        for (size_t e = 0; e < b->entry_count; e++) {
            unit *u = unit_at(b, (int)t, e);
            dgpb_free(u->code);
            dgpb_reflection_free(u->refl);
            if (!u->spirv_shared)
                dgpb_spirv_info_free(u->spirv);
            dgpb_param_table_clear(&u->params);
            dgpb_wgsl_module_free(u->wgsl);
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
    dgpb_group_symbols_free(b->symbols, b->symbol_count);
    dgpb_free(b->source);
    dgpb_free(b->wrapper);
}

int dgpb_build(const dgpb_build_desc *desc, dgpb_build_result *result)
{
    build b;
    memset(&b, 0, sizeof b);
    memset(result, 0, sizeof *result);
    b.desc = desc;
    b.result = result;
    if (!desc->module_file || !desc->compiler) {
        report(&b, DGPB_SEV_ERROR, DGPB_ERR_INVALID, "no module or compiler given");
        return DGPB_ERR_INVALID;
    }
    int rc = prepare(&b);
    if (!rc)
        rc = discover(&b);
    if (!rc)
        rc = compile(&b);
    if (!rc)
        rc = collect(&b);
    if (!rc)
        rc = check_webgpu(&b);
    if (!rc)
        rc = record_layouts(&b);
    if (!rc)
        rc = emit(&b);
    finish(&b, rc);
    return rc;
}
