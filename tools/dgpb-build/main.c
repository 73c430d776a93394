/*
 * dgpb-build - compiles a Slang module into a DGPB v0 shader bundle.
 *
 * A thin main over the library: parse the command line into a build
 * description, find the compiler, run dgpb_build(), print its diagnostics as
 * they come and map the result to an exit status.
 */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dgpb/build.h"
#include "dgpb/compiler.h"
#include "dgpb/dgpb.h"

enum { EXIT_OK = 0, EXIT_SHADER = 1, EXIT_USAGE = 2, EXIT_TOOL = 3 };

#ifndef DGPB_SOURCE_DIR
#define DGPB_SOURCE_DIR "."
#endif

static const char usage_text[] =
    "usage: dgpb-build [options] MODULE.slang\n"
    "\n"
    "Compiles every entry point of a Slang module for every selected target and\n"
    "writes the DGPB v0 bundle <stem>.dgpb and its readable view <stem>.bundle.json.\n"
    "\n"
    "Output:\n"
    "  -o DIR                 write into DIR (default: next to the module)\n"
    "  --module-path PATH     the module's dotted path; the stem is PATH with '.'\n"
    "                         replaced by '_' (default: the file name without .slang;\n"
    "                         an empty PATH is the root module, stem 'main')\n"
    "Targets:\n"
    "  --targets LIST         comma-separated: dxbc, dxil, metal, ptx, spirv, wgsl\n"
    "                         (default: all); intersected with what the triple loads\n"
    "  --triple TRIPLE        the build triple (default: the host). Linux loads wgsl,\n"
    "                         spirv, ptx; Apple wgsl, metal, spirv; Windows all but\n"
    "                         metal; wasm32 wgsl only, without layouts\n"
    "Compiler:\n"
    "  --slangc PATH          the Slang compiler. Default, in order: $DGPB_SLANGC,\n"
    "                         $SLANG_ROOT/bin/slangc, slangc on PATH, the embedded\n"
    "                         tools/slangc-wasm\n"
    "  -D NAME[=VALUE]        define a macro in every compile (also -DNAME)\n"
    "  -I DIR                 search DIR for includes and imports (also -IDIR)\n"
    "  -j N                   run N compiles at once (default: the number of CPUs)\n"
    "  --layout-recorder PATH record one layout per pipeline group and target with\n"
    "                         this dgpb-slang-layout (default: the one installed\n"
    "                         next to dgpb-build; it needs a native libslang). With\n"
    "                         a native slangc whose libslang is found, it also\n"
    "                         compiles, as persistent --serve workers\n"
    "  --compiler-processes   run one native slangc process per compile instead\n"
    "  --no-layouts           record no layouts (native hosts need them)\n"
    "  --slang-lib PATH       the libslang the recorder loads (default: next to the\n"
    "                         compiler, $SLANG_ROOT/lib)\n"
    "Reporting:\n"
    "  --keep-temps           keep the intermediate files and say where they are\n"
    "  -v, --verbose          print each compile command\n"
    "  -q, --quiet            print errors only\n"
    "  --version              print the versions of dgpb-build and the compiler\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit status:\n"
    "  0  the bundle and its JSON view were written\n"
    "  1  the module has errors (Slang's diagnostics, shapes a parameter table\n"
    "     cannot describe, a table its code contradicts, WebGPU limits, invalid\n"
    "     SPIR-V, a group whose layout cannot be recorded)\n"
    "  2  usage error (unknown option, bad value, unknown target or triple, no\n"
    "     target left)\n"
    "  3  a file could not be read or written, or the compiler or the layout\n"
    "     recorder (or its --slang-lib) could not be run or wrote output that\n"
    "     cannot be read (such as malformed reflection JSON)\n"
    "On any failure nothing is written: an existing bundle is left as it was.\n";

typedef struct options {
    dgpb_build_desc build;
    const char *slangc;
    bool processes;
    const char **defines;
    size_t define_count;
    const char **includes;
    size_t include_count;
    bool quiet, version;
} options;

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "dgpb-build: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see 'dgpb-build --help')\n");
    return EXIT_USAGE;
}

/* Matches "--name VALUE", "--name=VALUE" and, for short options, "-xVALUE". */
static bool take_value(int argc, char **argv, int *i, const char *name, bool attached_ok,
                       const char **value, int *err)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return false;
    if (a[n] == '=' && name[1] == '-') {
        *value = a + n + 1;
        return true;
    }
    if (a[n] == 0) {
        if (*i + 1 >= argc) {
            *err = usage_error("'%s' needs a value", name);
            return true;
        }
        *value = argv[++*i];
        return true;
    }
    if (attached_ok) {
        *value = a + n;
        return true;
    }
    return false;
}

static int parse_args(int argc, char **argv, options *o)
{
    o->defines = calloc((size_t)argc, sizeof *o->defines);
    o->includes = calloc((size_t)argc, sizeof *o->includes);
    if (!o->defines || !o->includes)
        return EXIT_TOOL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int err = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--version")) {
            o->version = true;
        } else if (!strcmp(a, "--no-layouts")) {
            o->build.no_layouts = true;
        } else if (!strcmp(a, "--keep-temps")) {
            o->build.keep_temps = true;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->build.verbose = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (take_value(argc, argv, &i, "-o", false, &v, &err)) {
            o->build.out_dir = v;
        } else if (take_value(argc, argv, &i, "--module-path", false, &v, &err)) {
            o->build.module_path = v;
        } else if (take_value(argc, argv, &i, "--targets", false, &v, &err)) {
            o->build.targets = v;
        } else if (take_value(argc, argv, &i, "--triple", false, &v, &err)) {
            o->build.triple = v;
        } else if (take_value(argc, argv, &i, "--slangc", false, &v, &err)) {
            o->slangc = v;
        } else if (!strcmp(a, "--compiler-processes")) {
            o->processes = true;
        } else if (take_value(argc, argv, &i, "--layout-recorder", false, &v, &err)) {
            o->build.layout_recorder = v;
        } else if (take_value(argc, argv, &i, "--slang-lib", false, &v, &err)) {
            o->build.slang_lib = v;
        } else if (take_value(argc, argv, &i, "-D", true, &v, &err)) {
            if (!err && (!*v || *v == '='))
                return usage_error("'-D%s' names no macro", v);
            o->defines[o->define_count++] = v;
        } else if (take_value(argc, argv, &i, "-I", true, &v, &err)) {
            o->includes[o->include_count++] = v;
        } else if (take_value(argc, argv, &i, "-j", true, &v, &err)) {
            char *end = NULL;
            long n = err ? 0 : strtol(v, &end, 10);
            if (!err && (!*v || *end || n < 1 || n > 1024))
                return usage_error("-j needs a number from 1 to 1024, not '%s'", v);
            o->build.jobs = (unsigned)n;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (o->build.module_file) {
            return usage_error("more than one module given ('%s'); build one module per run", a);
        } else {
            o->build.module_file = a;
        }
        if (err)
            return err;
    }
    if (!o->build.module_file && !o->version)
        return usage_error("%s", "no module given");
    o->build.defines = o->defines;
    o->build.define_count = o->define_count;
    o->build.include_dirs = o->includes;
    o->build.include_dir_count = o->include_count;
    return -1;
}

typedef struct printer {
    bool quiet;
} printer;

static void print_diag(const dgpb_diag *d, void *user)
{
    const printer *p = user;
    if (p->quiet && d->severity != DGPB_SEV_ERROR)
        return;
    char buf[DGPB_DIAG_FILE_MAX + DGPB_DIAG_MESSAGE_MAX + 64];
    dgpb_diag_format(d, buf, sizeof buf);
    /* A message about no file (the compiler lookup) says whose it is. */
    fprintf(stderr, "%s%s\n", d->file[0] ? "" : "dgpb-build: ", buf);
}

static int exit_status(int rc)
{
    switch (dgpb_result_class(rc)) {
    case DGPB_OK:
        return EXIT_OK;
    case DGPB_ERR_SHADER:
        return EXIT_SHADER;
    case DGPB_ERR_INVALID:
        return EXIT_USAGE;
    default:
        return EXIT_TOOL;
    }
}

/* The folder of this program, for finding the embedded compiler next to it. */
static void exe_dir(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0) {
        snprintf(buf, size, ".");
        return;
    }
    buf[n] = 0;
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
}

/* A killed build removes its half-written temporaries, then dies of the same signal. */
static void on_signal(int sig)
{
    dgpb_file_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How compiles and layouts run, for --version. */
static void print_mode(dgpb_compiler *compiler, const char *worker)
{
    const char *why = NULL;
    switch (dgpb_compiler_mode_of(compiler, &why)) {
    case DGPB_COMPILER_EMBEDDED_WORKERS:
        printf("compiles: persistent slangc-wasm --serve workers\n");
        break;
    case DGPB_COMPILER_NATIVE_WORKERS:
        printf("compiles: persistent native workers (%s --serve)\n", worker);
        break;
    default:
        printf("compiles: one slangc process each%s%s\n", why ? ": " : "", why ? why : "");
        break;
    }
    printf("layouts: %s\n", worker ? worker : "no recorder (dgpb-slang-layout not found)");
}

int main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) {
        free(o.defines);
        free(o.includes);
        return rc;
    }
    char dir[PATH_MAX], up[PATH_MAX + 64], share[PATH_MAX + 64];
    exe_dir(dir, sizeof dir);
    snprintf(up, sizeof up, "%s/../tools/slangc-wasm/slangc-wasm", dir);
    snprintf(share, sizeof share, "%s/../share/dgpb/slangc-wasm/slangc-wasm", dir);
    const char *embedded[] = {up, share, DGPB_SOURCE_DIR "/tools/slangc-wasm/slangc-wasm", NULL};
    /* The layout recorder, also the native Slang worker, is built and installed next to
     * dgpb-build. */
    char recorder[PATH_MAX + 32];
    snprintf(recorder, sizeof recorder, "%s/dgpb-slang-layout", dir);
    const char *worker = o.build.layout_recorder;
    if (!worker && access(recorder, X_OK) == 0)
        worker = recorder;
    if (!o.build.no_layouts)
        o.build.layout_recorder = worker;
    dgpb_compiler_desc cdesc = {.path = o.slangc,
                                .embedded = embedded,
                                .recorder = worker,
                                .slang_lib = o.build.slang_lib,
                                .processes = o.processes};
    dgpb_compiler *compiler = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    printer pr = {o.quiet};
    if (dgpb_compiler_create(&cdesc, &compiler, &d)) {
        print_diag(&d, &pr);
        rc = exit_status(d.code);
        goto done;
    }
    if (o.version) {
        const char *version = NULL;
        printf("dgpb-build %s (DGPB format version %u)\n", dgpb_version(), DGPB_FORMAT_VERSION);
        if (dgpb_compiler_version(compiler, &version, &d)) {
            print_diag(&d, &pr);
            rc = EXIT_TOOL;
        } else {
            printf("slang %s: %s (%s)\n", version, dgpb_compiler_path(compiler),
                   dgpb_compiler_origin(compiler));
            print_mode(compiler, worker);
            rc = EXIT_OK;
        }
        goto done;
    }
    catch_signals();
    o.build.compiler = compiler;
    o.build.sink = print_diag;
    o.build.user = &pr;
    dgpb_build_result result;
    double start = now();
    rc = exit_status(dgpb_build(&o.build, &result));
    if (rc == EXIT_OK && !o.quiet)
        fprintf(stderr,
                "dgpb-build: wrote %s (%zu bytes: %u target%s, %u entr%s, %u code blob%s) and "
                "%s; %u compiles in %.2f s\n",
                result.bundle_path, result.bundle_size, result.target_count,
                result.target_count == 1 ? "" : "s", result.entry_count,
                result.entry_count == 1 ? "y" : "ies", result.blob_count,
                result.blob_count == 1 ? "" : "s", result.json_path, result.compile_count,
                now() - start);
done:
    dgpb_compiler_destroy(compiler);
    free(o.defines);
    free(o.includes);
    return rc;
}
