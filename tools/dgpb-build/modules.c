/*
 * modules.c - the modules of one invocation, one after another on one
 * compiler (modules.h).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "modules.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/tool_common.h"
#include "exit_status.h"
#include "list.h"
#include "signals.h"

/* A failed module named in the closing summary; past this many, only their number. */
#define SUMMARY_NAMES_MAX 8

/* Where a module's outputs go: its folder (resolved when it exists) and its stem. */
typedef struct output_place {
    char folder[PATH_MAX];
    char stem[1024];
} output_place;

/* A module's place ("folder/stem") and its position on the command line. */
typedef struct placed {
    char *key;
    size_t index;
} placed;

/* By place, then by position. */
static int compare_placed(const void *a, const void *b)
{
    const placed *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void place_of(const options *o, const char *module, output_place *p)
{
    dgpb_build_desc desc = o->build;
    desc.module_file = module;
    char folder[PATH_MAX];
    dgpb_build_output_names(&desc, folder, sizeof folder, p->stem, sizeof p->stem);
    if (!realpath(folder, p->folder))
        snprintf(p->folder, sizeof p->folder, "%s", folder);
}

/* Whether -o's last component (trailing slashes aside) ends in .dgpb: a bundle's name. */
static bool names_bundle(const char *out_dir)
{
    size_t n = strlen(out_dir);
    while (n > 1 && out_dir[n - 1] == '/')
        n--;
    return n >= 5 && !memcmp(out_dir + n - 5, ".dgpb", 5);
}

/*
 * -o NAME.dgpb with one module: the bundle's own file, its view, header and depfile named
 * after it (dgpb/build.h, bundle_file). Returns -1 to go on, or EXIT_USAGE after the message.
 */
static int bundle_file(options *o)
{
    const char *out = o->build.out_dir;
    struct stat st;
    if (o->module_count > 1)
        return tool_usage_error("-o '%s' names one bundle, but %zu modules are given: with "
                                "several modules -o names the folder their bundles go into, "
                                "each as <stem>.dgpb",
                                out, o->module_count);
    if (out[strlen(out) - 1] == '/')
        return tool_usage_error("-o '%s' ends in '/', a folder's name, yet names a bundle "
                                "(.dgpb): name the bundle without the '/', or the folder "
                                "another way",
                                out);
    if (o->build.module_path)
        return tool_usage_error("-o '%s' names the bundle and so its stem, which --module-path "
                                "names too: give one of them",
                                out);
    if (!stat(out, &st) && S_ISDIR(st.st_mode))
        return tool_usage_error("-o '%s' names a bundle, but a folder of that name is there: "
                                "remove it, or name the bundle another way",
                                out);
    o->build.bundle_file = out;
    o->build.out_dir = NULL;
    return -1;
}

int modules_check(options *o)
{
    if (o->list) /* --list writes nothing */
        return -1;
    if (o->build.out_dir && names_bundle(o->build.out_dir)) {
        int rc = bundle_file(o);
        if (rc >= 0)
            return rc;
    }
    if (o->module_count < 2)
        return -1;
    if (o->build.depfile_path)
        return tool_usage_error("-MF names one depfile, but %zu modules are given: use -MD, "
                                "which writes <stem>.d next to each bundle",
                                o->module_count);
    if (o->build.module_path)
        return tool_usage_error("--module-path names one module's path, but %zu modules are "
                                "given: build that module on its own",
                                o->module_count);
    /* Each module's place as "folder/stem" (as long as it is), sorted: two modules with one
       place are neighbours, so many modules cost their names and a sort, never a place's
       4 KiB each or every pair compared. */
    placed *all = calloc(o->module_count, sizeof *all);
    int rc = all ? -1 : EXIT_TOOL;
    output_place p;
    for (size_t i = 0; all && i < o->module_count && rc < 0; i++) {
        place_of(o, o->modules[i], &p);
        all[i].index = i;
        if (!(all[i].key = malloc(strlen(p.folder) + strlen(p.stem) + 2)))
            rc = EXIT_TOOL;
        else
            sprintf(all[i].key, "%s/%s", p.folder, p.stem);
    }
    if (rc == EXIT_TOOL) {
        say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory");
    } else {
        qsort(all, o->module_count, sizeof *all, compare_placed);
        /* the pair whose later module comes first on the command line, as it is read */
        size_t first = SIZE_MAX, second = SIZE_MAX;
        for (size_t k = 1; k < o->module_count; k++)
            if (!strcmp(all[k].key, all[k - 1].key) && all[k].index < second) {
                size_t g = k - 1; /* the group's first, by index: sorted so */
                while (g > 0 && !strcmp(all[g - 1].key, all[k].key))
                    g--;
                first = all[g].index;
                second = all[k].index;
            }
        if (second != SIZE_MAX) {
            place_of(o, o->modules[second], &p);
            rc = tool_usage_error(
                "modules '%s' and '%s' both write '%s.dgpb' into '%s' (one stem, '%s'): "
                "build them into different folders",
                o->modules[first], o->modules[second], p.stem, p.folder, p.stem);
        }
    }
    for (size_t i = 0; all && i < o->module_count; i++)
        free(all[i].key);
    free(all);
    return rc;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* --timings: one line per module, each phase that took time, in milliseconds. */
static void say_timings(const char *module, const dgpb_build_result *r, double seconds)
{
    char line[1024];
    size_t n = 0;
    for (uint32_t p = 0; p < DGPB_PHASE_COUNT && n < sizeof line; p++)
        if (r->phase_seconds[p] >= 0.00005)
            n += (size_t)snprintf(line + n, sizeof line - n, "%s %s %.1f ms", n ? "," : "",
                                  dgpb_build_phase_name(p), r->phase_seconds[p] * 1e3);
    char checked[96] = "";
    if (r->checked_count)
        snprintf(checked, sizeof checked, "; %u of %u compiles from a module a worker had checked",
                 r->checked_count, r->compile_count);
    say(DGPB_SEV_NOTE, DGPB_OK, false, "timings of %s:%s; %.1f ms in all%s", module, line,
        seconds * 1e3, checked);
}

/* The line that says what one module's build wrote; with several, headed by the module. */
static void say_written(const options *o, const dgpb_build_result *r, double seconds)
{
    bool several = o->module_count > 1;
    say(DGPB_SEV_NOTE, DGPB_OK, false,
        "%s%swrote %s (%zu bytes: %u target%s, %u entr%s, %u code blob%s)%s%s and %s; %u "
        "compiles%s in %.2f s",
        several ? o->build.module_file : "", several ? ": " : "", r->bundle_path, r->bundle_size,
        r->target_count, r->target_count == 1 ? "" : "s", r->entry_count,
        r->entry_count == 1 ? "y" : "ies", r->blob_count, r->blob_count == 1 ? "" : "s",
        r->header_path[0] ? ", " : "", r->header_path, r->json_path, r->compile_count,
        r->cached ? " (from the cache)" : "", seconds);
}

/*
 * The closing line of several modules: how many were written, how many are library modules
 * (nothing to bundle), and which failed.
 */
static void say_summary(const options *o, const int *status, size_t written, size_t libraries)
{
    char names[2048] = "", library[64] = "";
    size_t failed = o->module_count - written - libraries, named = 0, len = 0;
    for (size_t i = 0; i < o->module_count && named < SUMMARY_NAMES_MAX; i++)
        if (status[i] != EXIT_OK && len < sizeof names) {
            int n = snprintf(names + len, sizeof names - len, "%s'%s' (exit %d)",
                             named ? ", " : ": ", o->modules[i], status[i]);
            len += n > 0 ? (size_t)n : 0;
            named++;
        }
    if (failed > named && len < sizeof names)
        snprintf(names + len, sizeof names - len, " and %zu more", failed - named);
    if (libraries)
        snprintf(library, sizeof library, ", %zu library module%s (nothing to bundle)", libraries,
                 libraries == 1 ? "" : "s");
    say(DGPB_SEV_NOTE, DGPB_OK, false, "%zu modules: %zu written%s, %zu failed%s",
        o->module_count, written, library, failed, names);
}

/* The message of a build a signal stopped; returns 128 + N. */
static int interrupted(const options *o, size_t i, size_t written, bool committed)
{
    int sig = (int)signals_caught;
    if (o->module_count > 1)
        say(DGPB_SEV_ERROR, DGPB_ERR_INTERRUPTED, false,
            "interrupted by signal %d while building '%s'%s; %zu of %zu modules written", sig,
            o->modules[i], committed ? " (written)" : " (not written)", written + committed,
            o->module_count);
    else
        say(DGPB_SEV_ERROR, DGPB_ERR_INTERRUPTED, false, "interrupted by signal %d%s", sig,
            committed ? " after writing the bundle" : "; nothing written");
    return 128 + sig;
}

int modules_build(options *o, printer *pr)
{
    bool several = o->module_count > 1;
    int *status = calloc(o->module_count, sizeof *status);
    if (!status) {
        say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory");
        return EXIT_TOOL;
    }
    int worst = EXIT_OK;
    size_t written = 0, libraries = 0;
    /* Several modules are a folder's: a library module among them (shared types that the
       others import) is one note, not a failure. One module given alone must be built. */
    o->build.library_modules = several;
    for (size_t i = 0; i < o->module_count; i++) {
        o->build.module_file = o->modules[i];
        if (pr->line)
            pr->line->module = several ? o->modules[i] : NULL;
        dgpb_build_result result;
        double start = now();
        int built = dgpb_build(&o->build, &result);
        status[i] = exit_status_of(built);
        progress_clear(pr->line);
        if (signals_caught) {
            worst = interrupted(o, i, written, built == DGPB_OK);
            break;
        }
        if (status[i] == EXIT_OK && result.library_module) {
            libraries++;
        } else if (status[i] == EXIT_OK) {
            written++;
            if (!o->quiet)
                say_written(o, &result, now() - start);
        }
        if (o->timings)
            say_timings(o->modules[i], &result, now() - start);
        worst = exit_worst(worst, status[i]);
    }
    if (several && !signals_caught && !o->quiet)
        say_summary(o, status, written, libraries);
    if (several && !signals_caught && o->build.verbose) {
        unsigned workers = dgpb_compiler_workers_started(o->build.compiler);
        say(DGPB_SEV_NOTE, DGPB_OK, false,
            "%zu modules on one compiler: %u compiler worker%s "
            "started",
            o->module_count, workers, workers == 1 ? "" : "s");
    }
    free(status);
    return worst;
}

int modules_list(options *o, printer *pr)
{
    bool several = o->module_count > 1;
    int worst = EXIT_OK;
    size_t listed = 0;
    for (size_t i = 0; i < o->module_count; i++) {
        o->build.module_file = o->modules[i];
        if (pr->line)
            pr->line->module = several ? o->modules[i] : NULL;
        dgpb_entry_list *list = NULL;
        int rc = exit_status_of(dgpb_build_list(&o->build, &list));
        progress_clear(pr->line);
        if (signals_caught) {
            dgpb_entry_list_free(list);
            fprintf(stderr, "dgpb-build: interrupted by signal %d; %s\n", (int)signals_caught,
                    listed ? "the modules before it listed" : "nothing listed");
            fflush(stdout);
            return 128 + signals_caught;
        }
        if (list && list->library && !o->list_json) {
            /* nothing to list: the library's note says what the module is */
        } else if (list && o->list_json) {
            fputs(!several ? "" : listed ? "," : "[", stdout);
            list_print_json(stdout, list, o->build.module_file);
        } else if (list) {
            if (several)
                printf("%s%s:\n", listed ? "\n" : "", o->modules[i]);
            list_print_text(stdout, list);
        }
        listed += list && (o->list_json || !list->library);
        fflush(stdout);
        dgpb_entry_list_free(list);
        worst = exit_worst(worst, rc);
    }
    if (several && o->list_json)
        fputs(listed ? "]\n" : "[]\n", stdout);
    return worst;
}
