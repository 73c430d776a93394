/*
 * invocation.c - one run of dgpb-build, which may be one of many in the
 * process (invocation.h). Nothing of a run stays behind but the kept
 * compiler: the options, the cache, the progress line and the JSON mode of
 * messages are set up and released here every time.
 */
#define _POSIX_C_SOURCE 200809L
#include "invocation.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cache_setup.h"
#include "common/tool_common.h"
#include "exit_status.h"
#include "messages.h"
#include "modules.h"
#include "param_file.h"
#include "service_cmd.h"
#include "signals.h"

/*
 * Whether to show the progress line: standard error is a terminal that can
 * rewrite a line (not TERM=dumb) and not -q. Sets *width to its columns (0:
 * unknown).
 */
static bool use_progress_line(bool quiet, unsigned *width)
{
    const char *term = getenv("TERM");
    if (quiet || tool_json() || !isatty(STDERR_FILENO) || (term && !strcmp(term, "dumb")))
        return false;
    struct winsize ws;
    *width = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
    return true;
}

/* Opens the cache a build uses: none for --version and --list, --no-cache or DGPB_NO_CACHE. */
static int open_build_cache(const options *o, dgpb_cache **cache)
{
    *cache = NULL;
    if (o->version || o->list || o->no_cache || env_true("DGPB_NO_CACHE"))
        return EXIT_OK;
    int rc = cache_open(o, false, cache);
    if (rc == EXIT_OK)
        rc = cache_open_remote(o, *cache);
    if (rc != EXIT_OK) {
        dgpb_cache_close(*cache);
        *cache = NULL;
    }
    return rc;
}

/* The run once its options are parsed. */
static int run(compiler_keep *keep, options *o)
{
    int on = keep->no_service ? 0 : service_mode(o->service, &o->service_off);
    if (on < 0)
        return EXIT_USAGE;
    o->service_on = on > 0;
    if (keep->no_service)
        o->service_off = "--persistent_worker keeps its own workers warm";
    if (o->service_stop)
        return service_stop(o->quiet);
    if (o->cache_stats || o->cache_clear)
        return cache_command(o);
    int rc = modules_check(o);
    if (rc >= 0)
        return rc;
    dgpb_cache *cache = NULL;
    if ((rc = open_build_cache(o, &cache)) != EXIT_OK)
        return rc;
    o->build.cache = cache;
    if (!o->build.cache_root)
        o->build.cache_root = getenv("DGPB_CACHE_ROOT");
    dgpb_compiler *compiler = NULL;
    const char *recorder = NULL;
    printer pr = {o->quiet, NULL};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (compiler_keep_get(keep, o, &compiler, &recorder, &d)) {
        print_diag(&d, &pr);
        rc = exit_status_of(d.code);
    } else if (o->version) {
        rc = EXIT_OK;
        if (compiler_print_version(compiler, recorder, &d)) {
            print_diag(&d, &pr);
            rc = EXIT_TOOL;
        } else {
            service_print_version(compiler, o->service_off);
        }
    } else {
        signals_catch();
        progress_line line = {.out = stderr};
        if (use_progress_line(o->quiet, &line.width)) {
            pr.line = &line;
            o->build.progress = progress_show;
            o->build.progress_ctx = &line;
        }
        service_warn_line(&line); /* cleared before the service's warning */
        o->build.compiler = compiler;
        o->build.warnings_as_errors = o->warnings_as_errors || env_true("DGPB_WARNINGS_AS_ERRORS");
        o->build.split_compiler_diagnostics = o->json;
        o->build.cancel = &signals_caught;
        o->build.sink = print_diag;
        o->build.user = &pr;
        rc = o->list ? modules_list(o, &pr) : modules_build(o, &pr);
        progress_clear(pr.line);
        if (o->build.verbose && !o->quiet && !signals_caught)
            service_print_path(compiler, o->service_off);
        service_warn_line(NULL);
    }
    dgpb_cache_close(cache);
    return rc;
}

int invocation_run(compiler_keep *keep, int argc, char **argv)
{
    /* JSON from the first message on, a usage error included. */
    tool_set_json(options_want_json(argc, argv));
    arg_list args;
    int rc = param_files_expand(argc, argv, &args);
    if (rc < 0) {
        tool_set_json(options_want_json(args.argc, args.argv));
        options o;
        rc = options_parse(args.argc, args.argv, &o);
        if (rc < 0)
            rc = run(keep, &o);
        options_free(&o);
    }
    arg_list_free(&args);
    fflush(stdout);
    tool_set_json(false);
    return rc;
}
