/*
 * options.h - dgpb-build's command line (its arguments after @FILE
 * expansion, param_file.h) parsed into one struct, and its --help text.
 * Nothing here is global: each invocation parses into its own struct, which
 * a persistent worker does once per request.
 */
#ifndef DGPB_BUILD_OPTIONS_H
#define DGPB_BUILD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "dgpb/build.h"
#include "dgpb/compiler.h"

typedef struct options {
    dgpb_build_desc build; /* the build's description; build.module_file is set per module */
    const char **modules;  /* the modules, in command-line order (borrowed from argv) */
    size_t module_count;
    const char *slangc;
    dgpb_compiler_force force; /* --compiler embedded|native (0: either) */
    bool processes;
    const char **defines;
    size_t define_count;
    const char **includes;
    size_t include_count;
    char **capabilities; /* --capability, each comma-separated item a string of its own (owned) */
    size_t capability_count;
    bool quiet, version;
    bool list, list_json;          /* --list [--json] */
    bool warnings_as_errors, json; /* --warnings-as-errors, --diagnostics json */
    bool no_cache, cache_stats, cache_clear, cache_remote_read_only;
    bool timings; /* --timings: where each module's time went */
    const char *cache_dir, *cache_max_size, *cache_remote;
    const char *service; /* --service MODE, or NULL */
    bool service_stop;   /* --service-stop */
    /* Set by the invocation from --service and DGPB_SERVICE (service_cmd.h): whether the
       compiler hands its compiles to the compile service, and why not (NULL when it does). */
    bool service_on;
    const char *service_off;
} options;

/*
 * Parses argv[1..argc-1] into *o (zeroed first). Returns -1 to go on, or the
 * exit status to end with: 0 after --help (printed on standard output), 2
 * after a usage error (printed), 3 when out of memory. The strings in *o
 * are argv's. Release with options_free() whatever it returned.
 */
int options_parse(int argc, char **argv, options *o);

/* Frees what options_parse() allocated (not argv's strings). */
void options_free(options *o);

/*
 * Whether --diagnostics json is among the arguments, so that a usage error
 * found while parsing them is a JSON line already.
 */
bool options_want_json(int argc, char **argv);

/* Whether environment variable `name` is set to something other than "" and "0". */
bool env_true(const char *name);

#endif
