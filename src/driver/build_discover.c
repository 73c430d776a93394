/*
 * build_discover.c - the build's first two stages (build_internal.h).
 *
 * build_prepare reads the module (refusing one that is not UTF-8 text) and
 * scans it for group symbols, checks the options, picks the targets of the
 * build triple, makes the intermediate folder and writes the discovery module
 * into it.
 *
 * build_discover compiles the discovery module once per target with every
 * group and the target's DREAM_TARGET_ macro defined, for the target's
 * discovery format (SPIR-V for spirv, wgsl and ptx: dgpb/vocabulary.def)
 * but without generating its code (-skip-codegen; a native slangc process
 * generates it, since only then does it write the depfile), and reads the
 * entries from Slang's reflection: their names, stages and thread-group
 * sizes, in declaration order across targets, and which targets have each
 * (ptx: compute entries only). A target whose reflection names no stage for
 * an entry (Slang 2025.15's ray-tracing entries), or no thread group size for
 * a mesh or amplification entry, is compiled once more, to SPIR-V, whose
 * execution models and modes say them. It then puts every entry in its
 * pipeline group (one per compute entry, one render group, one ray-tracing
 * group: the vocabulary's PIPELINE column), and refuses entries of a stage a
 * target's code cannot hold (wgsl: WebGPU's compute, vertex and fragment).
 */
#define _XOPEN_SOURCE 700
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/utf8.h"
#include "code/text_scan.h"
#include "driver/build_internal.h"
#include "scan/entry_scan.h"
#include "core/text_escape.h"
#include "core/io_fault.h"
#include "dgpb/fileio.h"
#include "dgpb/reader.h" /* DGPB_MAX_STRING */
#include "code/spirv/spirv.h"
#include "code/code_format.h"

/* ---- prepare ---- */

/*
 * DGPB_ERR_IO, reported, when `path` (the module's, an include folder's) is not
 * UTF-8: Slang reads only UTF-8 paths and would not find the file.
 */
static int not_utf8(build *b, const char *what, const char *path)
{
    if (utf8_valid(path, strlen(path), NULL))
        return DGPB_OK;
    char *shown = text_escaped(path);
    build_report(b, DGPB_SEV_ERROR, DGPB_ERR_IO,
                 "the %s '%s' is not UTF-8: Slang reads only UTF-8 paths; rename it", what,
                 shown ? shown : "?");
    dgpb_free(shown);
    return DGPB_ERR_IO;
}

/*
 * Writes the discovery module: the user's module, included, plus one empty
 * compute entry. Slang's compiler refuses a module without entry points, and
 * a module may well have none for some target (all of them guarded by
 * DREAM_TARGET_ macros); the anchor keeps that a list of zero entries.
 */
static int write_wrapper(build *b)
{
    char *absolute = realpath(b->desc->module_file, NULL);
    if (!absolute) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_IO, "cannot resolve '%s': %s",
                     b->desc->module_file, strerror(errno));
        return DGPB_ERR_IO;
    }
    int rc = not_utf8(b, "module's path", absolute);
    for (size_t i = 0; !rc && i < b->desc->include_dir_count; i++) {
        char *dir = realpath(b->desc->include_dirs[i], NULL);
        rc = not_utf8(b, "include folder", dir ? dir : b->desc->include_dirs[i]);
        free(dir);
    }
    if (!rc && strpbrk(absolute, "\"\n\\")) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                     "the module's path '%s' contains a quote, backslash or newline", absolute);
        rc = DGPB_ERR_INVALID;
    }
    /* BUILD_WRAPPER_LINES lines: diagnostics located in them are the module's (build_report.c) */
    char *text = rc ? NULL
                    : mem_printf("#include \"%s\"\n[shader(\"compute\")]\n[numthreads(1, 1, 1)]\n"
                                 "void " BUILD_ANCHOR_ENTRY "() {}\n",
                                 absolute);
    b->wrapper = mem_printf("%s/discover.slang", b->tmp);
    free(absolute);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (!rc && (!text || !b->wrapper)) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        rc = DGPB_ERR_NOMEM;
    }
    if (!rc && dgpb_file_write_atomic(b->wrapper, text, strlen(text), &d))
        rc = build_forward(b, &d, NULL);
    dgpb_free(text);
    return rc;
}

/*
 * Refuses the module's generic entry points (entry_scan.h): Slang compiles an
 * entry point only with concrete type arguments (the embedded compiler throws
 * an exception, a native slangc reports E38014), and a bundle cannot hold one.
 * Each is named with the non-generic entry that specialises it.
 */
static int refuse_generic_entries(build *b)
{
    generic_entry *found = NULL;
    size_t count = 0;
    if (entry_scan_generics(b->source, b->source_len, &found, &count)) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        const generic_entry *e = &found[i];
        bool returns = strcmp(e->concrete_return, "void") != 0;
        build_report_at(b, e->line, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                        "entry '%s' is generic (%s): Slang compiles an entry point only "
                        "with concrete type arguments, so it cannot go into a bundle. Take %s "
                        "off '%s', which stays a generic function that is no entry point:\n"
                        "    %s\n"
                        "and add one entry point per type it is used with, for example:\n"
                        "    %s\n"
                        "    %s %s_%s(%s)%s%s { %s%s<%s>(%s); }",
                        e->name, e->generics, e->attributes, e->name, e->declaration, e->attributes,
                        e->concrete_return, e->name, e->suffix, e->concrete_params,
                        e->semantic[0] ? " " : "", e->semantic, returns ? "return " : "", e->name,
                        e->type_args, e->args);
    }
    entry_scan_free(found, count);
    return count ? DGPB_ERR_SHADER : DGPB_OK;
}

/*
 * The discovery anchor's name is dgpb-build's own: a module that mentions it
 * (a textual scan, as for the group symbols: a comment counts too) would
 * declare a second entry of that name, which the discovery cannot tell from
 * the anchor. DGPB_ERR_SHADER at the first mention.
 */
static int check_anchor_name(build *b)
{
    static const char name[] = BUILD_ANCHOR_ENTRY;
    const size_t n = sizeof name - 1;
    uint32_t line = 1;
    for (size_t i = 0; i + n <= b->source_len; i++) {
        line += b->source[i] == '\n';
        if (memcmp(b->source + i, name, n) || (i > 0 && text_ident_char(b->source[i - 1])) ||
            (i + n < b->source_len && text_ident_char(b->source[i + n])))
            continue;
        build_report_at(b, line, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                        "'%s' is reserved: dgpb-build names the empty entry it adds to discover "
                        "the module's entries so; rename the entry (or whatever else has that "
                        "name)",
                        name);
        return DGPB_ERR_SHADER;
    }
    return DGPB_OK;
}

/*
 * Names the targets asked for that the build triple cannot load: a note for
 * an explicit --targets list, only with -v for the default (every target).
 */
static void note_dropped_targets(build *b, uint32_t dropped)
{
    if (!dropped || !b->targets || (!b->desc->targets && !b->desc->verbose))
        return;
    char names[128] = "";
    unsigned count = 0;
    for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++)
        if (dropped & (1u << t)) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s'%s'", count++ ? ", " : "",
                     dgpb_target_name(t));
        }
    build_report(
        b, DGPB_SEV_NOTE, DGPB_OK, "target%s %s left out: the %s build triple does not load %s",
        count == 1 ? "" : "s", names, platform_name(b->platform), count == 1 ? "it" : "them");
}

/*
 * Refuses a module that is not text (a binary file, UTF-16) before anything
 * reads it as Slang: one error naming the first byte that text cannot hold,
 * where Slang would print pages of errors about the bytes, located in the
 * discovery module.
 */
static int check_text(build *b)
{
    size_t bad = 0;
    if (utf8_valid(b->source, b->source_len, &bad))
        return DGPB_OK;
    build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER, "not a text file (%s at offset %zu)",
                 b->source[bad] ? "invalid UTF-8" : "a NUL byte", bad);
    return DGPB_ERR_SHADER;
}

int build_prepare(build *b)
{
    assert(b && b->desc && b->result && b->desc->module_file && b->desc->compiler);
    assert(!b->source && !b->tmp[0]);
    const dgpb_build_desc *desc = b->desc;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    uint8_t *text = NULL;
    int rc = dgpb_file_read(desc->module_file, BUILD_MAX_SOURCE, &text, &b->source_len, &diag);
    if (rc)
        return build_forward(b, &diag, NULL);
    b->source = (char *)text;
    if ((rc = check_text(b)))
        return rc;
    rc = scan_group_symbols(b->source, b->source_len, &b->symbols, &b->symbol_count, &diag);
    if (rc)
        return build_forward(b, &diag, NULL);
    b->generator_conventions = b->symbol_count > 0;
    if ((rc = check_anchor_name(b)) || (rc = refuse_generic_entries(b)))
        return rc;

    if (desc->module_path && strchr(desc->module_path, '/')) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                     "the module path '%s' contains '/': a module path is dotted ('shaders.post')",
                     desc->module_path);
        return DGPB_ERR_INVALID;
    }
    uint32_t wanted;
    if ((rc = platform_from_triple(desc->triple, &b->platform, &diag)) ||
        (rc = targets_parse(desc->targets, &wanted, &diag)))
        return build_forward(b, &diag, NULL);
    b->targets = wanted & platform_targets(b->platform);
    note_dropped_targets(b, wanted & ~b->targets);
    if (!b->targets) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                     "no target left: the %s build triple loads none of the targets asked for (%s)",
                     platform_name(b->platform), desc->targets ? desc->targets : "all");
        return DGPB_ERR_INVALID;
    }

    const char *tmpdir = getenv("TMPDIR");
    snprintf(b->tmp, sizeof b->tmp, "%s/dgpb-build-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (io_fault("mkdtemp", b->tmp) || !mkdtemp(b->tmp)) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_IO, "cannot create a temporary folder '%s': %s",
                     b->tmp, strerror(errno));
        b->tmp[0] = 0;
        return DGPB_ERR_IO;
    }
    snprintf(b->result->temp_dir, sizeof b->result->temp_dir, "%s", b->tmp);
    return write_wrapper(b);
}

/* ---- discover ---- */

/* "a" or "an", as English puts it before a stage's name ("an amplification shader"). */
static const char *article(const char *word)
{
    return word && strchr("aeiou", word[0]) && word[0] ? "an" : "a";
}

static int find_entry(const build *b, const char *name)
{
    for (size_t i = 0; i < b->entry_count; i++)
        if (!strcmp(b->entries[i].name, name))
            return (int)i;
    return -1;
}

/* Inserts an entry at `pos`, keeping declaration order across targets. */
static int insert_entry(build *b, size_t pos, const dgpb_reflected_entry *reflected)
{
    entry *grown = mem_realloc(b->entries, (b->entry_count + 1) * sizeof *grown);
    if (!grown)
        return DGPB_ERR_NOMEM;
    b->entries = grown;
    memmove(&grown[pos + 1], &grown[pos], (b->entry_count - pos) * sizeof *grown);
    memset(&grown[pos], 0, sizeof *grown);
    grown[pos].name = mem_strdup(reflected->name);
    grown[pos].stage = (uint32_t)reflected->stage;
    memcpy(grown[pos].thread_group_size, reflected->thread_group_size,
           sizeof grown[pos].thread_group_size);
    b->entry_count++;
    return grown[pos].name ? DGPB_OK : DGPB_ERR_NOMEM;
}

/* Finds the group of `symbol`, or adds it with `first` as its first entry. */
static int add_group(build *b, enum group_kind kind, const char *symbol, const char *label,
                     size_t first, size_t *index)
{
    for (size_t i = 0; i < b->group_count; i++)
        if (!strcmp(b->groups[i].symbol, symbol)) {
            *index = i;
            return DGPB_OK;
        }
    group *grown = mem_realloc(b->groups, (b->group_count + 1) * sizeof *grown);
    if (!grown)
        return DGPB_ERR_NOMEM;
    b->groups = grown;
    group *g = &grown[b->group_count];
    g->kind = kind;
    g->symbol = mem_strdup(symbol);
    g->label = mem_strdup(label);
    g->first = first;
    *index = b->group_count++;
    return g->symbol && g->label ? DGPB_OK : DGPB_ERR_NOMEM;
}

/*
 * One group per compute entry, one render group (vertex, tessellation,
 * geometry, mesh, amplification and fragment entries: each of the module's
 * vertex and mesh pipelines), one ray-tracing group.
 */
static int assign_groups(build *b)
{
    for (size_t i = 0; i < b->entry_count; i++) {
        entry *e = &b->entries[i];
        int rc;
        if (e->stage == DGPB_STAGE_COMPUTE) {
            char *symbol = mem_printf("%s%s", DGPB_GROUP_COMPUTE_PREFIX, e->name);
            char *label = mem_printf("compute shader '%s'", e->name);
            rc = symbol && label ? add_group(b, GROUP_COMPUTE, symbol, label, i, &e->group)
                                 : DGPB_ERR_NOMEM;
            dgpb_free(symbol);
            dgpb_free(label);
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

/* Reports failed discoveries, once per distinct diagnostic text, naming its targets. */
static void report_discovery_failures(build *b, const job_list *list, const dgpb_compile_job *jobs)
{
    for (size_t i = 0; i < list->count; i++) {
        if (jobs[i].status == 0)
            continue;
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = jobs[k].status != 0 && !strcmp(jobs[k].diagnostics, jobs[i].diagnostics);
        if (seen)
            continue;
        char targets[256] = "";
        unsigned count = 0;
        for (size_t k = i; k < list->count; k++)
            if (jobs[k].status != 0 && !strcmp(jobs[k].diagnostics, jobs[i].diagnostics)) {
                size_t n = strlen(targets);
                snprintf(targets + n, sizeof targets - n, "%s'%s'", count ? ", " : "",
                         dgpb_target_name((uint32_t)list->info[k].target));
                count++;
            }
        int n;
        if (build_job_crashed(&jobs[i])) {
            char how[128];
            build_describe_exit(&jobs[i], how, sizeof how);
            const char *words = build_last_words(&jobs[i], &n);
            char *given = build_text_as_given(b, words, n);
            b->compiler_crashed = true;
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_TOOL,
                         "target%s %s: the compiler crashed discovering the module's entry "
                         "points (%s); its last words:\n%.*s",
                         count == 1 ? "" : "s", targets, how, given ? (int)strlen(given) : n,
                         given ? given : words);
            dgpb_free(given);
            continue;
        }
        if (build_tmp_full(b))
            return;
        const char *text = build_diagnostics_text(&jobs[i], &n);
        if (b->desc->split_compiler_diagnostics) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "target%s %s: the module does not compile", count == 1 ? "" : "s",
                         targets);
            build_report_compiler_text(b, text, DGPB_SEV_ERROR, NULL);
            continue;
        }
        char *given = build_text_as_given(b, text, n); /* the module's path as the user's */
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                     "target%s %s: the module does not compile:\n%.*s", count == 1 ? "" : "s",
                     targets, given ? (int)strlen(given) : n, given ? given : text);
        dgpb_free(given);
    }
}

/* Whether an entry of a stage with a thread group size has none (its reflection gave none). */
static bool lacks_thread_group_size(int stage, const uint32_t size[3])
{
    return stage >= 0 && dgpb_stage_has_thread_group((uint32_t)stage) && size[0] == 0;
}

/*
 * Whether a target's discovery reflection leaves out what its code would say:
 * Slang 2025.15 writes no stage for the ray-tracing stages and no thread
 * group size for mesh and amplification entries, and the execution models
 * and modes of the SPIR-V say them (the targets discovered with SPIR-V:
 * dgpb/vocabulary.def).
 */
static bool stages_in_code(int target, const dgpb_reflection *r)
{
    if (target_discovery_format((uint32_t)target) !=
        target_code_format((uint32_t)code_analysis_target()))
        return false;
    for (size_t k = 0; k < r->entry_count; k++)
        if (!r->entries[k].stage_name[0] ||
            lacks_thread_group_size(r->entries[k].stage, r->entries[k].thread_group_size))
            return true;
    return false;
}

/*
 * Fills in stages the reflection left out from the execution models of the
 * discovery's SPIR-V (a discovery that generated code: info->out), and the
 * thread group sizes of mesh and amplification entries from their LocalSize.
 */
static int stages_from_code(build *b, const job_info *info, dgpb_reflection *r)
{
    if (!info->out || !stages_in_code(info->target, r))
        return DGPB_OK;
    uint8_t *code = NULL;
    size_t size = 0;
    dgpb_spirv_entry_point *entry_points = NULL;
    size_t count = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = build_read_output_bytes(b, info->out, &code, &size, &d);
    if (!rc)
        rc = spirv_entry_points(code, size, &entry_points, &count, &d);
    for (size_t k = 0; !rc && k < r->entry_count; k++) {
        dgpb_reflected_entry *re = &r->entries[k];
        for (size_t i = 0; i < count; i++) {
            if (strcmp(entry_points[i].name, re->name))
                continue;
            if (!re->stage_name[0])
                re->stage = spirv_stage_of_model(entry_points[i].execution_model);
            if (lacks_thread_group_size(re->stage, re->thread_group_size))
                memcpy(re->thread_group_size, entry_points[i].local_size,
                       sizeof re->thread_group_size);
        }
    }
    dgpb_free(entry_points);
    dgpb_free(code);
    if (rc) {
        char context[64];
        snprintf(context, sizeof context, "target '%s': reading the module's entry points",
                 dgpb_target_name((uint32_t)info->target));
        return build_forward(b, &d, context);
    }
    return DGPB_OK;
}

/*
 * Entries of a stage a target's code cannot hold (code_ops' stage_refused:
 * WebGPU has compute, vertex and fragment shaders only), refused by name
 * before anything compiles them, and entry names a target's code cannot keep
 * (code_ops' name_refused: wgsl keeps entry names as WGSL function names,
 * which must not be WGSL's own). A listing (b->listing) takes the target off
 * the entry and keeps the reason in entry.refused instead.
 */
static int check_entries_fit_targets(build *b)
{
    for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
        const code_ops *ops = code_ops_of_target((dgpb_target_id)t);
        const char *target = dgpb_target_name((uint32_t)t);
        for (size_t e = 0; e < b->entry_count; e++) {
            entry *en = &b->entries[e];
            if (!(en->targets & (1u << t)))
                continue;
            const char *why = ops->stage_refused ? ops->stage_refused(en->stage) : NULL;
            if (why && b->listing) {
                en->targets &= ~(1u << t);
                en->refused[t] = mem_printf("%s %s shader cannot go on %s: %s",
                                            article(dgpb_stage_name(en->stage)),
                                            dgpb_stage_name(en->stage), target, why);
                if (!en->refused[t])
                    return DGPB_ERR_NOMEM;
                continue;
            }
            if (why) {
                build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                             "target '%s', entry '%s': %s %s shader cannot go on %s: %s; leave "
                             "%s out of --targets, or keep the entry from it with "
                             "#if !defined(%s)",
                             target, en->name, article(dgpb_stage_name(en->stage)),
                             dgpb_stage_name(en->stage), target, why, target,
                             target_macro((uint32_t)t));
                continue;
            }
            why = ops->name_refused ? ops->name_refused(en->name) : NULL;
            if (why && b->listing) {
                en->targets &= ~(1u << t);
                if (!(en->refused[t] = mem_printf("'%s' %s", en->name, why)))
                    return DGPB_ERR_NOMEM;
            } else if (why) {
                build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER, "target '%s', entry '%s': '%s' %s",
                             target, en->name, en->name, why);
            }
        }
    }
    return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}

/* Adds the entries of one target's discovery reflection to b->entries. */
static int add_reflected_entries(build *b, int t, const dgpb_reflection *r)
{
    const char *target_name = dgpb_target_name((uint32_t)t);
    size_t insert_at = 0; /* after the last entry of this list seen */
    unsigned anchors = 0;
    for (size_t k = 0; k < r->entry_count; k++) {
        const dgpb_reflected_entry *reflected = &r->entries[k];
        if (!strcmp(reflected->name, BUILD_ANCHOR_ENTRY) && ++anchors > 1) {
            /* One more than the wrapper's: declared by an include or import. */
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "entry '%s': '%s' is reserved: dgpb-build names the empty entry it adds "
                         "to discover the module's entries so; rename the entry",
                         BUILD_ANCHOR_ENTRY, BUILD_ANCHOR_ENTRY);
            return DGPB_ERR_SHADER;
        }
        if (!strcmp(reflected->name, BUILD_ANCHOR_ENTRY))
            continue;
        if (strlen(reflected->name) > DGPB_MAX_STRING) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "entry '%.40s...' is %zu bytes long; a bundle's names are at most %u "
                         "bytes (docs/format.md): give it a shorter name",
                         reflected->name, strlen(reflected->name), DGPB_MAX_STRING);
            return DGPB_ERR_SHADER;
        }
        if (reflected->stage < 0 && !reflected->stage_name[0]) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "entry '%s': Slang's reflection for target '%s' names no stage (this "
                         "Slang writes none for ray-tracing stages; build them for spirv)",
                         reflected->name, target_name);
            return DGPB_ERR_SHADER;
        }
        if (reflected->stage < 0) {
            char stages[512] = "";
            for (uint32_t s = 0; s < DGPB_STAGE_COUNT; s++) {
                size_t n = strlen(stages);
                snprintf(stages + n, sizeof stages - n, "%s%s", s ? ", " : "", dgpb_stage_name(s));
            }
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "entry '%s': stage '%s' has no place in a bundle (stages: %s)",
                         reflected->name, reflected->stage_name, stages);
            return DGPB_ERR_SHADER;
        }
        int at = find_entry(b, reflected->name);
        if (at < 0) {
            int rc = insert_entry(b, insert_at, reflected);
            if (rc)
                return rc;
            at = (int)insert_at;
        } else if (b->entries[at].stage != (uint32_t)reflected->stage) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "entry '%s' is %s %s shader on one target and %s %s shader on '%s'",
                         reflected->name, article(dgpb_stage_name(b->entries[at].stage)),
                         dgpb_stage_name(b->entries[at].stage), article(reflected->stage_name),
                         reflected->stage_name, target_name);
            return DGPB_ERR_SHADER;
        } else if (lacks_thread_group_size(reflected->stage, b->entries[at].thread_group_size)) {
            /* a target discovered without code (metal, dxil) may give none: another gives it */
            memcpy(b->entries[at].thread_group_size, reflected->thread_group_size,
                   sizeof b->entries[at].thread_group_size);
        }
        insert_at = (size_t)at + 1;
        /* a compute-only target (ptx) carries compute entries only */
        if (!(dgpb_target_traits((uint32_t)t) & DGPB_TRAIT_COMPUTE_ONLY) ||
            reflected->stage == DGPB_STAGE_COMPUTE)
            b->entries[at].targets |= 1u << t;
    }
    return DGPB_OK;
}

/*
 * Refuses a mesh or amplification entry whose thread group size no target's
 * discovery found: Slang's reflection gave none, and no target of the build
 * is discovered with SPIR-V, whose LocalSize gives it.
 */
static int check_thread_group_sizes(build *b)
{
    for (size_t e = 0; e < b->entry_count; e++) {
        const entry *en = &b->entries[e];
        if (lacks_thread_group_size((int)en->stage, en->thread_group_size))
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "entry '%s': Slang's reflection gives no thread group size for the %s "
                         "shader, and no target of the build is discovered with SPIR-V, whose "
                         "code gives it; add spirv to --targets",
                         en->name, dgpb_stage_name(en->stage));
    }
    return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}

/*
 * Leaves out the entries that no target of the build carries (a render entry
 * when ptx, which carries compute entries only, is the only target), with a
 * note naming each: the bundle holds what the targets can run.
 */
static int drop_entries_without_targets(build *b)
{
    size_t kept = 0;
    for (size_t e = 0; e < b->entry_count; e++) {
        entry *en = &b->entries[e];
        if (en->targets) {
            b->entries[kept++] = *en;
            continue;
        }
        build_report(b, DGPB_SEV_NOTE, DGPB_OK,
                     "entry '%s' left out: %s %s shader, and ptx carries compute entries only",
                     en->name, article(dgpb_stage_name(en->stage)), dgpb_stage_name(en->stage));
        dgpb_free(en->name);
    }
    b->entry_count = kept;
    return DGPB_OK;
}

/*
 * Whether the discovery compiles may skip code generation (-skip-codegen):
 * they need only the reflection, and the depfile for the files they read.
 * The embedded compiler and the native workers write that depfile; a native
 * slangc process writes its depfile as part of code generation, so with
 * -skip-codegen it writes none, and there the discovery generates code.
 */
static bool discovery_skips_code(build *b)
{
    return dgpb_compiler_mode_of(b->desc->compiler, NULL) != DGPB_COMPILER_PROCESSES;
}

/*
 * Runs a list of discovery compiles and reads each one's reflection into
 * r[i] (stages from the code where it generated code and the reflection
 * names none). Compile failures are reported, once per distinct text.
 */
static int run_discoveries(build *b, job_list *list, dgpb_reflection **r)
{
    dgpb_compile_job *jobs = mem_calloc(list->count, sizeof *jobs);
    if (!jobs)
        return DGPB_ERR_NOMEM;
    int rc = build_run_jobs(b, list, jobs);
    if (!rc)
        report_discovery_failures(b, list, jobs);
    if (!rc && b->errors)
        rc = build_failure_rc(b);
    for (size_t i = 0; i < list->count && !rc; i++) {
        rc = build_keep_checked(b, &list->info[i]);
        if (!rc)
            rc = build_read_reflection(b, list->info[i].json,
                                       (dgpb_target_id)list->info[i].target, NULL, &r[i], NULL,
                                       NULL);
        if (!rc)
            rc = stages_from_code(b, &list->info[i], r[i]);
    }
    dgpb_compile_jobs_clear(jobs, list->count);
    dgpb_free(jobs);
    return rc;
}

/*
 * Discovers every target's entries: one compile per target without code
 * generation, then, for the targets whose reflection names no stage for an
 * entry (Slang 2025.15's ray-tracing entries), one that generates the
 * SPIR-V whose execution models name them.
 */
static int discover_targets(build *b, job_list *list, dgpb_reflection **r)
{
    int rc = DGPB_OK;
    bool code = !discovery_skips_code(b);
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++)
        if (b->targets & (1u << t))
            rc = build_add_discovery(b, list, t, code);
    if (rc || (rc = run_discoveries(b, list, r)))
        return rc;
    job_list again = {0};
    size_t at[DGPB_TARGET_COUNT];
    for (size_t i = 0; i < list->count && !rc; i++)
        if (!list->info[i].out && stages_in_code(list->info[i].target, r[i])) {
            at[again.count] = i;
            rc = build_add_discovery(b, &again, list->info[i].target, true);
        }
    dgpb_reflection *stages[DGPB_TARGET_COUNT] = {0};
    if (!rc && again.count)
        rc = run_discoveries(b, &again, stages);
    for (size_t k = 0; k < again.count; k++) {
        if (!rc) {
            reflection_free(r[at[k]]);
            r[at[k]] = stages[k];
        } else {
            reflection_free(stages[k]);
        }
    }
    build_job_list_free(&again);
    return rc;
}

/*
 * A module in which no discovery found an entry point: a library module, one
 * that others import. With desc->library_modules (or in a listing) one note
 * says so and the build is done, writing nothing; else it is an error.
 */
static int library_module(build *b)
{
    char targets[256] = "";
    for (uint32_t t = 0, n = 0; t < DGPB_TARGET_COUNT; t++)
        if (b->targets & (1u << t)) {
            size_t len = strlen(targets);
            snprintf(targets + len, sizeof targets - len, "%s'%s'", n++ ? ", " : "",
                     dgpb_target_name(t));
        }
    if (b->desc->library_modules || b->listing) {
        build_report(b, DGPB_SEV_NOTE, DGPB_OK, "library module, nothing to bundle");
        b->result->library_module = true;
        b->done = true;
        return DGPB_OK;
    }
    build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                 "library module, nothing to bundle: Slang finds no entry point in it for "
                 "target%s %s (mark each entry with [shader(\"<stage>\")]); a module of shared "
                 "types is built through the modules that import it",
                 strchr(targets, ',') ? "s" : "", targets);
    return DGPB_ERR_SHADER;
}

int build_discover(build *b)
{
    assert(b && b->desc && b->tmp[0] && b->wrapper && b->targets);
    assert(b->entry_count == 0 && b->group_count == 0);
    job_list list = {0};
    dgpb_reflection *r[DGPB_TARGET_COUNT] = {0};
    int rc = discover_targets(b, &list, r);
    for (size_t i = 0; i < list.count && !rc; i++)
        rc = add_reflected_entries(b, list.info[i].target, r[i]);
    for (size_t i = 0; i < list.count; i++)
        reflection_free(r[i]);
    build_job_list_free(&list);
    bool found = b->entry_count > 0;
    if (!rc && !found)
        return library_module(b);
    if (!rc)
        rc = check_thread_group_sizes(b);
    if (!rc && !b->listing)
        rc = drop_entries_without_targets(b);
    if (!rc && b->entry_count == 0) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                     "no entry points for the targets of the build: ptx carries compute "
                     "entries only");
        rc = DGPB_ERR_SHADER;
    }
    if (!rc)
        rc = assign_groups(b);
    if (!rc)
        rc = check_entries_fit_targets(b);
    if (rc == DGPB_ERR_NOMEM)
        build_report(b, DGPB_SEV_ERROR, rc, "out of memory");
    return rc;
}
