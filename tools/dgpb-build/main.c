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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "dgpb/build.h"
#include "dgpb/cache.h"
#include "dgpb/compiler.h"
#include "dgpb/dgpb.h"
#include "common/tool_common.h"
#include "list.h"
#include "progress.h"
#include "service_cmd.h"

/* The exit statuses (dgpb/vocabulary.def, DGPB_EXIT_BUILD). */
enum {
#define DGPB_EXIT_BUILD(code, NAME, meaning) EXIT_##NAME = code,
#include "dgpb/vocabulary.def"
};

/* The installed share/dgpb, relative to the installed bin/ (cmake/dgpbInstall.cmake). */
#ifndef DGPB_DATA_FROM_BIN
#define DGPB_DATA_FROM_BIN "../share/dgpb"
#endif

static const char usage_text[] =
    "usage: dgpb-build [options] MODULE.slang\n"
    "       dgpb-build --list [--json] [options] MODULE.slang\n"
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
    "                         (a note names a listed target it drops); an empty\n"
    "                         list or item ('spirv,,wgsl') is a usage error\n"
    "  --triple TRIPLE        the build triple (default: the host). Linux loads wgsl,\n"
    "                         spirv, ptx; Apple wgsl, metal, spirv; Windows all but\n"
    "                         metal; wasm32 wgsl only, without layouts\n"
    "Compiler:\n"
    "  --slangc PATH          the Slang compiler. Default, in order: $DGPB_SLANGC,\n"
    "                         $SLANG_ROOT/bin/slangc, slangc on PATH, the embedded\n"
    "                         tools/slangc-wasm\n"
    "  -D NAME[=VALUE]        define a macro in every compile (also -DNAME)\n"
    "  -I DIR                 search DIR for includes and imports (also -IDIR)\n"
    "  -j N                   run up to N compiles at once (default: the number of\n"
    "                         CPUs), never more than a batch has jobs nor, with the\n"
    "                         embedded compiler, more 175 MB workers than half the\n"
    "                         available memory holds (-v prints how many ran)\n"
    "  --layout-recorder PATH record one layout per pipeline group and target with\n"
    "                         this dgpb-slang-layout (default: the one installed\n"
    "                         next to dgpb-build; it needs a native libslang). With\n"
    "                         a native slangc whose libslang is found, it also\n"
    "                         compiles, as persistent --serve workers\n"
    "  --compiler-processes   run one native slangc process per compile instead\n"
    "  --service MODE         auto (the default; also DGPB_SERVICE): hand compiles\n"
    "                         to this user's compile service, started on demand,\n"
    "                         whose warm workers outlive this run (docs/service.md);\n"
    "                         any failure of it costs one warning and the build\n"
    "                         compiles here. off: this run's own workers only\n"
    "  --service-stop         stop this user's compile services and exit\n"
    "  --no-layouts           record no layouts (native hosts need them)\n"
    "  --slang-lib PATH       the libslang the recorder loads (default: next to the\n"
    "                         compiler, $SLANG_ROOT/lib)\n"
    "Depfile:\n"
    "  -MD                    also write a Make-syntax depfile next to the bundle,\n"
    "                         <stem>.d: the bundle and its view depend on the module\n"
    "                         and every file Slang read for it\n"
    "  -MF FILE               write the depfile to FILE (implies -MD)\n"
    "Cache (docs/cache.md):\n"
    "  --cache-dir DIR        the compile cache (default: $DGPB_CACHE_DIR, else\n"
    "                         $XDG_CACHE_HOME/dgpb, else ~/.cache/dgpb)\n"
    "  --no-cache             neither read nor write the cache (also DGPB_NO_CACHE=1)\n"
    "  --cache-max-size SIZE  its cap, in bytes or with K, M, G (default 1G; also\n"
    "                         DGPB_CACHE_MAX_SIZE); least recently used entries go\n"
    "  --cache-stats          print the cache's folder, entries, size, cap and hit\n"
    "                         and miss counters, and exit\n"
    "  --cache-clear          empty the cache and exit\n"
    "  --cache-remote URL     also share the cache through a remote store (also\n"
    "                         DGPB_CACHE_REMOTE): http(s)://HOST/PATH (Bazel's HTTP\n"
    "                         cache protocol, WebDAV) or redis://[:PASSWORD@]HOST:PORT[/DB];\n"
    "                         auth: ~/.netrc, DGPB_CACHE_REMOTE_HEADER=\"Name: value\",\n"
    "                         DGPB_CACHE_REMOTE_PASSWORD (Redis)\n"
    "  --cache-remote-read-only  read the remote store, never upload (also\n"
    "                         DGPB_CACHE_REMOTE_READ_ONLY=1); https stores are\n"
    "                         checked against DGPB_CACHE_REMOTE_CA if set\n"
    "  --cache-root DIR       paths under DIR are named relative to it in cache\n"
    "                         keys, so checkouts in other folders share entries\n"
    "                         (also DGPB_CACHE_ROOT; default: the folder above the\n"
    "                         module that holds .git, widened to the working folder)\n"
    "Listing:\n"
    "  --list                 print the module's entries (stage, thread group size,\n"
    "                         pipeline group, targets) as Slang's discovery finds\n"
    "                         them, one line each, without compiling them and\n"
    "                         without writing anything\n"
    "  --json                 with --list: one JSON document instead\n"
    "Reporting:\n"
    "  --keep-temps           keep the intermediate files and say where they are\n"
    "  -v, --verbose          print each compile command\n"
    "  -q, --quiet            print errors and the module's warnings only: no\n"
    "                         notes, no summary line, no warning about this\n"
    "                         installation (no layouts without a native libslang).\n"
    "                         Without it, on a terminal, one line shows the\n"
    "                         compiles done of those planned, the latest and the\n"
    "                         time: [12/72] blur (spirv) 0.8s\n"
    "  --warnings-as-errors   any warning about the module, Slang's or\n"
    "                         dgpb-build's, is an error: exit status 1, nothing\n"
    "                         written (also DGPB_WARNINGS_AS_ERRORS=1)\n"
    "  --diagnostics FORMAT   text (the default), or json: every diagnostic as one\n"
    "                         JSON object a line on standard error, {\"severity\",\n"
    "                         \"file\", \"line\", \"column\", \"code\", \"message\"},\n"
    "                         null where unknown\n"
    "  --version              print the versions of dgpb-build and the compiler,\n"
    "                         how compiles run and whether the compile service runs\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit status:\n"
#define DGPB_EXIT_BUILD(code, NAME, meaning) "  " #code "  " meaning "\n"
#define DGPB_EXIT_BUILD_SIGNAL(meaning) "  128+N  " meaning "\n"
#include "dgpb/vocabulary.def"
    "On any failure nothing is written: the bundle, its view and the depfile are\n"
    "one unit, all new or all as they were, even when the build is killed.\n";

typedef struct options {
    dgpb_build_desc build;
    const char *slangc;
    bool processes;
    const char **defines;
    size_t define_count;
    const char **includes;
    size_t include_count;
    bool quiet, version;
    bool list, list_json;          /* --list [--json] */
    bool warnings_as_errors, json; /* --warnings-as-errors, --diagnostics json */
    bool no_cache, cache_stats, cache_clear, cache_remote_read_only;
    const char *cache_dir, *cache_max_size, *cache_remote;
    const char *service; /* --service MODE, or NULL */
    bool service_stop;   /* --service-stop */
} options;

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
            *err = tool_usage_error("'%s' needs a value", name);
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
        } else if (!strcmp(a, "--list")) {
            o->list = true;
        } else if (!strcmp(a, "--json")) {
            o->list_json = true;
        } else if (!strcmp(a, "--no-layouts")) {
            o->build.no_layouts = true;
        } else if (!strcmp(a, "--keep-temps")) {
            o->build.keep_temps = true;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->build.verbose = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (!strcmp(a, "--warnings-as-errors")) {
            o->warnings_as_errors = true;
        } else if (take_value(argc, argv, &i, "--diagnostics", false, &v, &err)) {
            if (!err && strcmp(v, "text") && strcmp(v, "json"))
                return tool_usage_error("--diagnostics is 'text' or 'json', not '%s'", v);
            o->json = !err && !strcmp(v, "json");
        } else if (!strcmp(a, "-MD")) {
            o->build.depfile = true;
        } else if (take_value(argc, argv, &i, "-MF", false, &v, &err)) {
            o->build.depfile = true;
            o->build.depfile_path = v;
        } else if (!strcmp(a, "--no-cache")) {
            o->no_cache = true;
        } else if (!strcmp(a, "--cache-stats")) {
            o->cache_stats = true;
        } else if (!strcmp(a, "--cache-clear")) {
            o->cache_clear = true;
        } else if (!strcmp(a, "--cache-remote-read-only")) {
            o->cache_remote_read_only = true;
        } else if (take_value(argc, argv, &i, "--cache-remote", false, &v, &err)) {
            o->cache_remote = v;
        } else if (take_value(argc, argv, &i, "--cache-root", false, &v, &err)) {
            o->build.cache_root = v;
        } else if (take_value(argc, argv, &i, "--cache-dir", false, &v, &err)) {
            o->cache_dir = v;
        } else if (take_value(argc, argv, &i, "--cache-max-size", false, &v, &err)) {
            uint64_t size;
            if (!err && dgpb_cache_parse_size(v, &size))
                return tool_usage_error(
                    "--cache-max-size needs a size (bytes, or with K, M, G), not '%s'", v);
            o->cache_max_size = v;
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
        } else if (!strcmp(a, "--service-stop")) {
            o->service_stop = true;
        } else if (take_value(argc, argv, &i, "--service", false, &v, &err)) {
            o->service = v;
        } else if (take_value(argc, argv, &i, "--layout-recorder", false, &v, &err)) {
            o->build.layout_recorder = v;
        } else if (take_value(argc, argv, &i, "--slang-lib", false, &v, &err)) {
            o->build.slang_lib = v;
        } else if (take_value(argc, argv, &i, "-D", true, &v, &err)) {
            if (!err && (!*v || *v == '='))
                return tool_usage_error("'-D%s' names no macro", v);
            o->defines[o->define_count++] = v;
        } else if (take_value(argc, argv, &i, "-I", true, &v, &err)) {
            o->includes[o->include_count++] = v;
        } else if (take_value(argc, argv, &i, "-j", true, &v, &err)) {
            char *end = NULL;
            long n = err ? 0 : strtol(v, &end, 10);
            if (!err && (!*v || *end || n < 1 || n > 1024))
                return tool_usage_error("-j needs a number from 1 to 1024, not '%s'", v);
            o->build.jobs = (unsigned)n;
        } else if (a[0] == '-' && a[1]) {
            return tool_usage_error("unknown option '%s'", a);
        } else if (o->build.module_file) {
            return tool_usage_error("more than one module given ('%s'); build one module per run",
                                    a);
        } else {
            o->build.module_file = a;
        }
        if (err)
            return err;
    }
    if (!o->build.module_file && !o->version && !o->cache_stats && !o->cache_clear &&
        !o->service_stop)
        return tool_usage_error("no module given");
    if (o->list_json && !o->list)
        return tool_usage_error("--json goes with --list");
    o->build.defines = o->defines;
    o->build.define_count = o->define_count;
    o->build.include_dirs = o->includes;
    o->build.include_dir_count = o->include_count;
    return -1;
}

typedef struct printer {
    bool quiet;
    progress_line *line; /* the progress line, on a terminal; NULL: none */
} printer;

/*
 * Prints a diagnostic: -q leaves out notes and the warnings about this installation (code
 * DGPB_ERR_UNSUPPORTED: no layouts without a native libslang), never a warning about the
 * module, as a compiler would.
 */
static void print_diag(const dgpb_diag *d, void *user)
{
    const printer *p = user;
    if (p->quiet &&
        (d->severity == DGPB_SEV_NOTE ||
         (d->severity == DGPB_SEV_WARNING && dgpb_result_class(d->code) == DGPB_ERR_UNSUPPORTED)))
        return;
    progress_clear(p->line);
    if (tool_json()) {
        tool_print_diag_json(d);
        return;
    }
    char buf[DGPB_DIAG_FILE_MAX + DGPB_DIAG_MESSAGE_MAX + DGPB_DIAG_EXCERPT_MAX + 64];
    dgpb_diag_format(d, buf, sizeof buf);
    /* A message about no file (the compiler lookup) says whose it is. */
    fprintf(stderr, "%s%s\n", d->file[0] ? "" : "dgpb-build: ", buf);
}

/*
 * A message of the program's own, about no file: "dgpb-build: warning: ..."
 * (with `tagged`, else "dgpb-build: ..."), or one JSON line.
 */
static void say(dgpb_severity severity, int code, bool tagged, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void say(dgpb_severity severity, int code, bool tagged, const char *fmt, ...)
{
    static dgpb_diag d; /* 10 KB: off the stack */
    dgpb_diag_clear(&d);
    d.severity = severity;
    d.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d.message, sizeof d.message, fmt, ap);
    va_end(ap);
    if (tool_json())
        tool_print_diag_json(&d);
    else if (tagged)
        tool_print_diag(&d, NULL);
    else
        fprintf(stderr, "dgpb-build: %s\n", d.message);
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

/*
 * Where the embedded compiler is (docs/install.md, "How the installed tools
 * find each other"). A program in its build tree finds the file
 * `dgpb-source-dir` next to itself, which CMake writes there (and never
 * installs) with the source tree's path: it runs that tree's
 * tools/slangc-wasm. Any other program, an installed one, runs the one of
 * its own prefix, ../share/dgpb/slangc-wasm (DGPB_DATA_FROM_BIN), and never
 * looks into a source tree.
 */
static void embedded_compiler(const char *dir, char *buf, size_t size)
{
    char marker[PATH_MAX + 32], source[PATH_MAX];
    snprintf(marker, sizeof marker, "%s/dgpb-source-dir", dir);
    FILE *f = fopen(marker, "r");
    if (f) {
        bool got = fgets(source, sizeof source, f) != NULL;
        fclose(f);
        source[got ? strcspn(source, "\r\n") : 0] = 0;
        if (source[0]) {
            snprintf(buf, size, "%s/tools/slangc-wasm/slangc-wasm", source);
            return;
        }
    }
    /* `dir` is a real path: each leading "../" drops one of its folders. */
    const char *rel = DGPB_DATA_FROM_BIN;
    size_t n = strlen(dir);
    while (dir[0] == '/' && !strncmp(rel, "../", 3) && n > 0) {
        while (n > 0 && dir[n - 1] != '/')
            n--;
        n -= n > 0;
        rel += 3;
    }
    snprintf(buf, size, "%.*s/%s/slangc-wasm/slangc-wasm", (int)n, dir, rel);
}

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

/*
 * SIGINT, SIGTERM and SIGHUP only note the signal: the build sees the flag
 * (dgpb_build_desc.cancel), kills and waits for its compiles and workers,
 * removes its intermediate folder and returns DGPB_ERR_INTERRUPTED; main
 * then dies of the same signal (a shell reports 128 + its number). A build
 * whose outputs were committed already finishes writing them first.
 */
static volatile sig_atomic_t caught_signal;

static void on_signal(int sig)
{
    caught_signal = sig;
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

/* Dies of the signal that interrupted the build; returns 128 + its number should it survive. */
static int die_of(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    return 128 + sig;
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

/*
 * Opens the compile cache (--cache-dir, $DGPB_CACHE_DIR, $XDG_CACHE_HOME/dgpb,
 * ~/.cache/dgpb) with its cap (--cache-max-size, $DGPB_CACHE_MAX_SIZE).
 * Returns EXIT_OK with *out set, or NULL when no folder can be named or made
 * (`must`: an error, else a warning and no cache).
 */
static int open_cache(const options *o, bool must, dgpb_cache **out)
{
    *out = NULL;
    char dir[PATH_MAX];
    if (o->cache_dir && *o->cache_dir)
        snprintf(dir, sizeof dir, "%s", o->cache_dir);
    else if (dgpb_cache_default_dir(dir, sizeof dir)) {
        say(must ? DGPB_SEV_ERROR : DGPB_SEV_WARNING, must ? DGPB_ERR_INVALID : DGPB_OK, true,
            "no cache folder (set --cache-dir, DGPB_CACHE_DIR, XDG_CACHE_HOME or HOME)%s",
            must ? "" : "; building without the cache");
        return must ? EXIT_USAGE : EXIT_OK;
    }
    uint64_t max = 0;
    const char *size = o->cache_max_size ? o->cache_max_size : getenv("DGPB_CACHE_MAX_SIZE");
    if (size && *size && dgpb_cache_parse_size(size, &max)) {
        say(DGPB_SEV_ERROR, DGPB_ERR_INVALID, true,
            "DGPB_CACHE_MAX_SIZE needs a size (bytes, or with K, M, G), not '%s'", size);
        return EXIT_USAGE;
    }
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_cache_open(dir, max, out, &d)) {
        say(must ? DGPB_SEV_ERROR : DGPB_SEV_WARNING, must ? d.code : DGPB_OK, true,
            "cannot use the cache folder '%s': %s%s", dir, d.message,
            must ? "" : "; building without the cache");
        return must ? EXIT_TOOL : EXIT_OK;
    }
    return EXIT_OK;
}

/* The cache's warnings (a remote store unavailable or corrupt); also from its upload thread. */
static void cache_warning(void *user, const char *message)
{
    (void)user;
    say(DGPB_SEV_WARNING, DGPB_OK, true, "%s", message);
}

static bool env_true(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0");
}

/*
 * Adds the remote store (--cache-remote, $DGPB_CACHE_REMOTE) to the open
 * cache. EXIT_USAGE for a URL that names none (shown without its password).
 */
static int open_remote(const options *o, dgpb_cache *cache)
{
    const char *url = o->cache_remote ? o->cache_remote : getenv("DGPB_CACHE_REMOTE");
    if (!cache || !url || !*url)
        return EXIT_OK;
    bool read_only = o->cache_remote_read_only || env_true("DGPB_CACHE_REMOTE_READ_ONLY");
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_cache_set_remote(cache, url, read_only, cache_warning, NULL, &d)) {
        say(DGPB_SEV_ERROR, d.code, true, "%s", d.message);
        return dgpb_result_class(d.code) == DGPB_ERR_INVALID ? EXIT_USAGE : EXIT_TOOL;
    }
    return EXIT_OK;
}

/* --cache-stats and --cache-clear. */
static int cache_command(const options *o)
{
    dgpb_cache *cache = NULL;
    int rc = open_cache(o, true, &cache);
    if (rc || !cache)
        return rc ? rc : EXIT_TOOL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (o->cache_clear) {
        if (dgpb_cache_clear(cache, &d)) {
            say(DGPB_SEV_ERROR, d.code, true, "%s", d.message);
            rc = EXIT_TOOL;
        } else if (!o->quiet && !o->cache_stats) {
            printf("cache %s: cleared\n", dgpb_cache_dir(cache));
        }
    }
    dgpb_cache_stats st;
    if (!rc && o->cache_stats) {
        if (dgpb_cache_stats_get(cache, &st, &d)) {
            say(DGPB_SEV_ERROR, d.code, true, "%s", d.message);
            rc = EXIT_TOOL;
        } else {
            printf("cache folder: %s\n"
                   "entries: %llu\n"
                   "size: %llu bytes\n"
                   "cap: %llu bytes\n"
                   "builds: %llu hits, %llu misses\n"
                   "compiles: %llu hits, %llu misses\n"
                   "remote: %llu hits, %llu misses, %llu uploads, %llu errors\n",
                   dgpb_cache_dir(cache), (unsigned long long)st.entries,
                   (unsigned long long)st.size, (unsigned long long)st.max_size,
                   (unsigned long long)st.counters.build_hits,
                   (unsigned long long)st.counters.build_misses,
                   (unsigned long long)st.counters.compile_hits,
                   (unsigned long long)st.counters.compile_misses,
                   (unsigned long long)st.counters.remote_hits,
                   (unsigned long long)st.counters.remote_misses,
                   (unsigned long long)st.counters.remote_uploads,
                   (unsigned long long)st.counters.remote_errors);
        }
    }
    dgpb_cache_close(cache);
    return rc;
}

/*
 * --list [--json]: the module's entries from its discovery, on standard
 * output; nothing written. The exit status is a build's: 1 when the module
 * does not compile or has no entry.
 */
static int list_entries(options *o, printer *pr)
{
    dgpb_entry_list *list = NULL;
    int rc = exit_status(dgpb_build_list(&o->build, &list));
    progress_clear(pr->line);
    if (caught_signal) {
        fprintf(stderr, "dgpb-build: interrupted by signal %d; nothing listed\n",
                (int)caught_signal);
        rc = 128 + caught_signal;
    } else if (list && o->list_json) {
        list_print_json(stdout, list, o->build.module_file);
    } else if (list) {
        list_print_text(stdout, list);
    }
    dgpb_entry_list_free(list);
    return rc;
}

int main(int argc, char **argv)
{
    tool_init("dgpb-build", "error: ", EXIT_USAGE);
    /* The compile service's own process (docs/service.md), started by a build. */
    if (argc > 1 && !strcmp(argv[1], "--service-daemon"))
        return dgpb_service_daemon(argc - 2, argv + 2, NULL) ? EXIT_TOOL : EXIT_OK;
    /* JSON from the first message on, a usage error included. */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--diagnostics"))
            tool_set_json(!strcmp(argv[i + 1], "json"));
        else if (!strncmp(argv[i], "--diagnostics=", 14))
            tool_set_json(!strcmp(argv[i] + 14, "json"));
    options o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) {
        free(o.defines);
        free(o.includes);
        return rc;
    }
    const char *service_off = NULL;
    int service_on = service_mode(o.service, &service_off);
    if (service_on < 0 || o.service_stop || o.cache_stats || o.cache_clear) {
        rc = service_on < 0   ? EXIT_USAGE
             : o.service_stop ? service_stop(o.quiet)
                              : cache_command(&o);
        free(o.defines);
        free(o.includes);
        return rc;
    }
    dgpb_cache *cache = NULL;
    const char *no_cache = getenv("DGPB_NO_CACHE");
    /* --list reads no cache and writes none: it never opens one. */
    if (!o.version && !o.list && !o.no_cache && !(no_cache && *no_cache && strcmp(no_cache, "0")) &&
        ((rc = open_cache(&o, false, &cache)) != EXIT_OK ||
         (rc = open_remote(&o, cache)) != EXIT_OK)) {
        dgpb_cache_close(cache);
        free(o.defines);
        free(o.includes);
        return rc;
    }
    o.build.cache = cache;
    if (!o.build.cache_root)
        o.build.cache_root = getenv("DGPB_CACHE_ROOT");
    char dir[PATH_MAX], slangc_wasm[PATH_MAX + 64];
    exe_dir(dir, sizeof dir);
    embedded_compiler(dir, slangc_wasm, sizeof slangc_wasm);
    const char *embedded[] = {slangc_wasm, NULL};
    /* The layout recorder, also the native Slang worker, is built and installed next to
     * dgpb-build. */
    char recorder[PATH_MAX + 32];
    snprintf(recorder, sizeof recorder, "%s/dgpb-slang-layout", dir);
    const char *worker = o.build.layout_recorder;
    if (!worker && access(recorder, X_OK) == 0)
        worker = recorder;
    if (!o.build.no_layouts)
        o.build.layout_recorder = worker;
    char self[PATH_MAX];
    progress_line line = {stderr, 0, false};
    dgpb_compiler_desc cdesc = {.path = o.slangc,
                                .embedded = embedded,
                                .recorder = worker,
                                .slang_lib = o.build.slang_lib,
                                .processes = o.processes,
                                .service_warning = service_warn,
                                .service_warning_user = &line}; /* cleared before a warning */
    if (service_on && service_program(self, sizeof self))
        cdesc.service = self;
    dgpb_compiler *compiler = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    printer pr = {o.quiet, NULL};
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
            service_print_version(compiler, service_off);
            rc = EXIT_OK;
        }
        goto done;
    }
    catch_signals();
    if (use_progress_line(o.quiet, &line.width)) {
        pr.line = &line;
        o.build.progress = progress_show;
        o.build.progress_ctx = &line;
    }
    o.build.compiler = compiler;
    o.build.warnings_as_errors = o.warnings_as_errors || env_true("DGPB_WARNINGS_AS_ERRORS");
    o.build.split_compiler_diagnostics = o.json;
    o.build.cancel = &caught_signal;
    o.build.sink = print_diag;
    o.build.user = &pr;
    if (o.list) {
        rc = list_entries(&o, &pr);
        goto done;
    }
    dgpb_build_result result;
    double start = now();
    int built = dgpb_build(&o.build, &result);
    rc = exit_status(built);
    progress_clear(pr.line);
    if (o.build.verbose && !o.quiet)
        service_print_path(compiler, service_off);
    if (caught_signal) {
        say(DGPB_SEV_ERROR, DGPB_ERR_INTERRUPTED, false, "interrupted by signal %d%s",
            (int)caught_signal,
            built == DGPB_OK ? " after writing the bundle" : "; nothing written");
        rc = 128 + caught_signal;
    }
    if (rc == EXIT_OK && !o.quiet)
        say(DGPB_SEV_NOTE, DGPB_OK, false,
            "wrote %s (%zu bytes: %u target%s, %u entr%s, %u code blob%s) and %s; %u "
            "compiles%s in %.2f s",
            result.bundle_path, result.bundle_size, result.target_count,
            result.target_count == 1 ? "" : "s", result.entry_count,
            result.entry_count == 1 ? "y" : "ies", result.blob_count,
            result.blob_count == 1 ? "" : "s", result.json_path, result.compile_count,
            result.cached ? " (from the cache)" : "", now() - start);
done:
    dgpb_compiler_destroy(compiler);
    dgpb_cache_close(cache);
    free(o.defines);
    free(o.includes);
    return rc > 128 && caught_signal ? die_of(rc - 128) : rc;
}
