/*
 * options.c - dgpb-build's command line and --help (options.h). Adding an
 * option: a field in `options` (or in its dgpb_build_desc), one branch in
 * options_parse(), its lines in usage_head or usage_tail, man/dgpb-build.1 and
 * docs/build.md.
 */
#include "options.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strict_number.h"
#include "driver/targets.h"
#include "dgpb/cache.h"
#include "dgpb/format.h"
#include "common/tool_common.h"
#include "exit_status.h"

/* --help, from its start to the targets, which print_usage() makes from the vocabulary. */
static const char usage_head[] =
    "usage: dgpb-build [options] MODULE.slang...\n"
    "       dgpb-build --list [--check] [--json] [options] MODULE.slang...\n"
    "       dgpb-build [options] --persistent_worker\n"
    "\n"
    "Compiles every entry point of a Slang module for every selected target and\n"
    "writes the DGPB v0 bundle <stem>.dgpb and its readable view <stem>.bundle.json.\n"
    "Several modules are built one after another on one compiler and its workers,\n"
    "each into its own pair (and depfile); one that fails does not stop the others.\n"
    "\n"
    "Arguments:\n"
    "  @FILE                  more arguments from FILE, one a line (Bazel's\n"
    "                         \"multiline\" parameter file); each line is one\n"
    "                         argument as it stands, a leading @ included\n"
    "Output:\n"
    "  -o DIR                 write into DIR (default: next to the module); with\n"
    "                         several modules each pair goes there, and two of\n"
    "                         one stem are a usage error\n"
    "  -o NAME.dgpb           one module: write the bundle to that file, its view,\n"
    "                         header and depfile next to it as NAME.bundle.json,\n"
    "                         NAME.h, NAME.d (NAME is the stem)\n"
    "  --module-path PATH     the module's dotted path; the stem is PATH with '.'\n"
    "                         replaced by '_' (default: the file name without .slang;\n"
    "                         an empty PATH is the root module, stem 'main'); one\n"
    "                         module only\n"
    "  --emit-header          also write <stem>.h next to the bundle: a C11/C++11\n"
    "                         header with each entry's row indices and capabilities\n"
    "                         and a struct per block of values, per target\n"
    "                         (docs/build.md, \"The C header\"); in the depfile's\n"
    "                         outputs, written with the bundle or not at all\n"
    "Targets:\n";

/* The lines of --targets and --triple (print_usage() writes the lists of targets between). */
static const char targets_text[] =
    "                         (default: all); intersected with what the triple loads\n"
    "                         (a note names a listed target it drops); an empty\n"
    "                         list or item ('spirv,,wgsl') is a usage error\n"
    "  --triple TRIPLE        the build triple (default: the host). Its hosts load:\n";

static const char usage_tail[] =
    "Project options (every compile and layout; in the cache keys and the bundle):\n"
    "  --matrix-layout L      row (the default) or column: how matrices are laid out\n"
    "                         in memory (slangc -matrix-layout-row-major or\n"
    "                         -matrix-layout-column-major, as GLM-based renderers\n"
    "                         compile)\n"
    "  --spirv-version V      1.3, 1.4, 1.5 or 1.6: the SPIR-V version of every\n"
    "                         compile to SPIR-V (slangc -profile spirv_1_N); Vulkan\n"
    "                         1.1 takes 1.3, 1.2 takes 1.5, 1.3 and 1.4 take 1.6\n"
    "                         (default: Slang's, 1.5)\n"
    "  --capability NAME      a Slang capability for every compile (slangc\n"
    "                         -capability NAME); repeatable, or NAME,NAME,...\n"
    "  --block-layout L       how the blocks of SPIR-V code are laid out: default\n"
    "                         (Slang's: std140 uniform blocks, std430 storage\n"
    "                         buffers and push constants), scalar (slangc\n"
    "                         -fvk-use-scalar-layout, also -force-glsl-scalar-layout,\n"
    "                         as renderers that share C structs compile), gl\n"
    "                         (-fvk-use-gl-layout: std430 for raw buffer loads),\n"
    "                         dx (-fvk-use-dx-layout), c (-fvk-use-c-layout)\n"
    "  --optimization N, -ON  0 to 3: slangc -O0 to -O3 (default: Slang's, 1)\n"
    "  --debug-info N, -gN    0 to 3: slangc -g0 to -g3 (default 0, none); -g is 2,\n"
    "                         as slangc's -g\n"
    "                         The embedded compiler takes only their defaults and\n"
    "                         --spirv-version 1.5: it refuses the others (exit 2)\n"
    "Compiler:\n"
    "  --slangc PATH          the Slang compiler. Default, in order: --slang-lib,\n"
    "                         $DGPB_SLANGC, $SLANG_ROOT (bin/slangc, else lib/'s\n"
    "                         libslang), $VULKAN_SDK (likewise), slangc on PATH,\n"
    "                         the native Slang of the set-up (deps/slang) or of\n"
    "                         the installation, the embedded tools/slangc-wasm\n"
    "  --compiler KIND        native or embedded: only that kind of compiler (the\n"
    "                         lookup above, less what is not of that kind)\n"
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
    "  --slang-lib PATH       the native libslang to compile with (without\n"
    "                         --slangc: the compiler itself) and to record layouts\n"
    "                         with (default: the compiler's, next to slangc,\n"
    "                         $SLANG_ROOT/lib)\n"
    "Depfile:\n"
    "  -MD                    also write a Make-syntax depfile next to the bundle,\n"
    "                         <stem>.d: the bundle and its view depend on the module\n"
    "                         and every file Slang read for it\n"
    "  -MF FILE               write the depfile to FILE (implies -MD); one module\n"
    "                         only (with several, -MD writes DIR/<stem>.d each)\n"
    "Cache (docs/cache.md):\n"
    "  --cache-dir DIR        the compile cache (default: $DGPB_CACHE_DIR, else\n"
    "                         $XDG_CACHE_HOME/dgpb, else ~/.cache/dgpb)\n"
    "  --no-cache             neither read nor write the cache (also DGPB_NO_CACHE=1)\n"
    "  --cache-max-size SIZE  its cap, in bytes or with K, M, G (default 1G; also\n"
    "                         DGPB_CACHE_MAX_SIZE); least recently used entries go\n"
    "  --cache-stats          print the cache's folder, entries, damaged entries,\n"
    "                         size, cap and hit and miss counters, and exit\n"
    "  --cache-clear          empty the cache (damaged entries too) and exit\n"
    "  --cache-remote URL     also share the cache through a remote store (also\n"
    "                         DGPB_CACHE_REMOTE): http(s)://HOST/PATH (Bazel's HTTP\n"
    "                         cache protocol, WebDAV) or redis://[:PASSWORD@]HOST:PORT[/DB];\n"
    "                         auth: ~/.netrc, DGPB_CACHE_REMOTE_HEADER=\"Name: value\",\n"
    "                         DGPB_CACHE_REMOTE_PASSWORD (Redis)\n"
    "  --cache-remote-read-only  read the remote store, never upload (also\n"
    "                         DGPB_CACHE_REMOTE_READ_ONLY=1); https stores are\n"
    "                         checked against DGPB_CACHE_REMOTE_CA if set; with\n"
    "                         DGPB_CACHE_REMOTE_KEY_FILE (a team key) entries are\n"
    "                         authenticated (HMAC-SHA-256), others are misses\n"
    "  --cache-root DIR       paths under DIR are named relative to it in cache\n"
    "                         keys, so checkouts in other folders share entries\n"
    "                         (also DGPB_CACHE_ROOT; default: the folder above the\n"
    "                         module that holds .git, widened to the working folder)\n"
    "Listing:\n"
    "  --list                 print the module's entries (stage, thread group size,\n"
    "                         pipeline group, targets) as Slang's discovery finds\n"
    "                         them, one line each, and for each target an entry\n"
    "                         cannot go on, why not; without compiling them and\n"
    "                         without writing anything\n"
    "  --check                with --list: also build each entry for each of its\n"
    "                         targets on its own (compile, tables, proof, WebGPU's\n"
    "                         checks; nothing written) and list where that fails,\n"
    "                         with the first error\n"
    "  --json                 with --list: one JSON document instead (several\n"
    "                         modules: an array of them)\n"
    "Reporting:\n"
    "  --keep-temps           keep the intermediate files and say where they are\n"
    "  -v, --verbose          print each compile command\n"
    "  --timings              print where each module's time went, per phase (also\n"
    "                         with -q): discover (parse and check), compile (code\n"
    "                         generation), validate, proof, layouts, cache, emit...\n"
    "  -q, --quiet            print errors and the module's warnings only: no\n"
    "                         notes, no summary line, no warning about this\n"
    "                         installation (no layouts without a native libslang).\n"
    "                         Without it, on a terminal, one line shows the\n"
    "                         compiles done of those planned, the latest and the\n"
    "                         time: [12/72] blur (spirv) 0.8s\n"
    "  --spirv-validation M   warn (the default) or error: what SPIR-V the validator\n"
    "                         refuses for a reason known not to be the code's\n"
    "                         becomes (a validator older than the code, a rule SPIR-V\n"
    "                         has since lifted, code drivers take): a warning, or an\n"
    "                         error (exit 1, nothing written)\n"
    "  --warnings-as-errors   any warning about the module, Slang's or\n"
    "                         dgpb-build's, is an error: exit status 1, nothing\n"
    "                         written (also DGPB_WARNINGS_AS_ERRORS=1)\n"
    "  --diagnostics FORMAT   text (the default), or json: every diagnostic as one\n"
    "                         JSON object a line on standard error, {\"severity\",\n"
    "                         \"file\", \"line\", \"column\", \"code\", \"message\"},\n"
    "                         null where unknown\n"
    "Bazel:\n"
    "  --persistent_worker    serve Bazel's persistent-worker protocol, JSON\n"
    "                         flavour: read work requests on standard input, run\n"
    "                         each as one dgpb-build (these options, then the\n"
    "                         request's arguments) on compilers kept warm across\n"
    "                         requests, and answer each on standard output with\n"
    "                         its exit status and what it printed\n"
    "  --version              print the versions of dgpb-build and the compiler,\n"
    "                         how compiles run and whether the compile service runs\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit status:\n"
#define DGPB_EXIT_BUILD(code, NAME, meaning) "  " #code "  " meaning "\n"
#define DGPB_EXIT_BUILD_SIGNAL(meaning) "  128+N  " meaning "\n"
#include "dgpb/vocabulary.def"
    /* The rows are listed from the best to the worst (exit_status.h, exit_worst()). */
    "Several modules: the worst of their statuses, in the order "
#define DGPB_EXIT_BUILD(code, NAME, meaning) #code ", "
#include "dgpb/vocabulary.def"
    "128+N\n"
    "(a signal stops them all).\n"
    "On any failure nothing is written: the bundle, its view and the depfile are\n"
    "one unit, all new or all as they were, even when the build is killed.\n";

/* "dxbc, dxil, metal, ptx, spirv, wgsl": every target, from vocabulary.def's rows. */
static const char *const target_names = (""
#define DGPB_TARGET(ID, value, name, BACKEND, backend_value, backend_name, macro, CODE, DISCOVER,  \
                    platforms, FINAL, traits, colour)                                              \
    ", " name
#include "dgpb/vocabulary.def"
                                         ) +
                                        2;

/* --help: its lists of targets, and those each platform's hosts load, from the vocabulary. */
static void print_usage(void)
{
    fputs(usage_head, stdout);
    printf("  --targets LIST         comma-separated: %s\n", target_names);
    fputs(targets_text, stdout);
    for (int p = 0; p < DGPB_PLATFORM_COUNT; p++) {
        char label[16];
        snprintf(label, sizeof label, "%s:", platform_name((dgpb_platform)p));
        printf("                           %-9s", label);
        uint32_t set = platform_targets((dgpb_platform)p);
        const char *sep = "";
        for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++)
            if (set & (1u << t)) {
                printf("%s%s", sep, dgpb_target_name(t));
                sep = ", ";
            }
        printf("%s\n", p == DGPB_PLATFORM_WASM32 ? " (no layouts)" : "");
    }
    fputs(usage_tail, stdout);
}

/* "default, scalar, gl, dx, c": --block-layout's values, from the vocabulary. */
static const char *block_layout_names(void)
{
    static char text[128];
    if (!text[0])
        for (uint32_t i = 0; i < DGPB_BLOCK_LAYOUT_COUNT; i++) {
            size_t used = strlen(text);
            snprintf(text + used, sizeof text - used, "%s%s", i ? ", " : "",
                     dgpb_block_layout_name(i));
        }
    return text;
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

int options_parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    size_t most = argc > 0 ? (size_t)argc : 1; /* arguments of each kind, at most */
    o->defines = calloc(most, sizeof *o->defines);
    o->includes = calloc(most, sizeof *o->includes);
    o->modules = calloc(most, sizeof *o->modules);
    if (!o->defines || !o->includes || !o->modules)
        return EXIT_TOOL;
    size_t capability_cap = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int err = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_usage();
            return EXIT_OK;
        } else if (!strcmp(a, "--version")) {
            o->version = true;
        } else if (!strcmp(a, "--list")) {
            o->list = true;
        } else if (!strcmp(a, "--json")) {
            o->list_json = true;
        } else if (!strcmp(a, "--check")) {
            o->build.list_check = true;
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
        } else if (!strcmp(a, "--emit-header")) {
            o->build.emit_header = true;
        } else if (!strcmp(a, "-MD")) {
            o->build.depfile = true;
        } else if (take_value(argc, argv, &i, "-MF", false, &v, &err)) {
            o->build.depfile = true;
            o->build.depfile_path = v;
        } else if (!strcmp(a, "--no-cache")) {
            o->no_cache = true;
        } else if (!strcmp(a, "--timings")) {
            o->timings = true;
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
        } else if (take_value(argc, argv, &i, "--compiler", false, &v, &err)) {
            if (!err && strcmp(v, "embedded") && strcmp(v, "native"))
                return tool_usage_error("--compiler is 'embedded' or 'native', not '%s'", v);
            o->force = err                    ? DGPB_COMPILER_ANY
                       : !strcmp(v, "native") ? DGPB_COMPILER_NATIVE
                                              : DGPB_COMPILER_EMBEDDED;
        } else if (take_value(argc, argv, &i, "--matrix-layout", false, &v, &err)) {
            if (!err && strcmp(v, "row") && strcmp(v, "column"))
                return tool_usage_error("--matrix-layout is 'row' or 'column', not '%s'", v);
            o->build.matrix_layout =
                !err && !strcmp(v, "column") ? DGPB_MATRIX_LAYOUT_COLUMN : DGPB_MATRIX_LAYOUT_ROW;
        } else if (take_value(argc, argv, &i, "--block-layout", false, &v, &err)) {
            int layout = err ? 0 : dgpb_block_layout_from_name(v, strlen(v));
            if (layout < 0)
                return tool_usage_error("--block-layout is one of %s, not '%s'",
                                        block_layout_names(), v);
            o->build.block_layout = (dgpb_block_layout)layout;
        } else if (take_value(argc, argv, &i, "--optimization", false, &v, &err) ||
                   (a[0] == '-' && a[1] == 'O' && a[2] && !a[3] && (v = a + 2))) {
            int level = err ? 0 : dgpb_optimization_from_level(v, strlen(v));
            if (level < 0)
                return tool_usage_error("%s is 0, 1, 2 or 3, not '%s'",
                                        a[1] == 'O' ? "-O" : "--optimization", v);
            o->build.optimization = (dgpb_optimization)level;
        } else if (!strcmp(a, "-g")) {
            o->build.debug_info = DGPB_DEBUG_INFO_STANDARD;
        } else if (take_value(argc, argv, &i, "--debug-info", false, &v, &err) ||
                   (a[0] == '-' && a[1] == 'g' && a[2] && !a[3] && (v = a + 2))) {
            int level = err ? 0 : dgpb_debug_info_from_level(v, strlen(v));
            if (level < 0)
                return tool_usage_error("%s is 0, 1, 2 or 3, not '%s'",
                                        a[1] == 'g' ? "-g" : "--debug-info", v);
            o->build.debug_info = (dgpb_debug_info)level;
        } else if (take_value(argc, argv, &i, "--spirv-validation", false, &v, &err)) {
            if (!err && strcmp(v, "warn") && strcmp(v, "error"))
                return tool_usage_error("--spirv-validation is 'warn' or 'error', not '%s'", v);
            o->build.spirv_validation = !err && !strcmp(v, "error")
                                            ? DGPB_SPIRV_VALIDATION_ERROR
                                            : DGPB_SPIRV_VALIDATION_WARN;
        } else if (take_value(argc, argv, &i, "--spirv-version", false, &v, &err)) {
            uint32_t version = err ? 0 : dgpb_spirv_version_parse(v, strlen(v));
            if (!err && !version)
                return tool_usage_error("--spirv-version is 1.3, 1.4, 1.5 or 1.6, not '%s' "
                                        "(Vulkan 1.1 takes SPIR-V 1.3, 1.2 takes 1.5, 1.3 and "
                                        "1.4 take 1.6)",
                                        v);
            o->build.spirv_version = version;
        } else if (take_value(argc, argv, &i, "--capability", false, &v, &err)) {
            for (const char *p = v; !err;) {
                size_t n = strcspn(p, ",");
                if (!dgpb_slang_capability_valid(p, n))
                    return tool_usage_error(
                        "--capability '%s': %s%.*s%s is no Slang capability name (a letter or "
                        "'_', then letters, digits and '_', at most %d bytes)",
                        v, n ? "'" : "an empty item", (int)n, p, n ? "'" : "",
                        DGPB_SLANG_CAPABILITY_MAX);
                if (o->capability_count == capability_cap) {
                    size_t grown = capability_cap ? 2 * capability_cap : 8;
                    char **more = realloc(o->capabilities, grown * sizeof *more);
                    if (!more)
                        return EXIT_TOOL;
                    o->capabilities = more;
                    capability_cap = grown;
                }
                char *name = malloc(n + 1);
                if (!name)
                    return EXIT_TOOL;
                memcpy(name, p, n);
                name[n] = 0;
                o->capabilities[o->capability_count++] = name;
                if (!p[n])
                    break;
                p += n + 1;
            }
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
            uint64_t n = 0;
            if (!err && (!strict_u64(v, 1024, &n) || n < 1))
                return tool_usage_error("-j needs a number from 1 to 1024 (decimal digits "
                                        "only), not '%s'",
                                        v);
            o->build.jobs = (unsigned)n;
        } else if (!strcmp(a, "--persistent_worker")) {
            return tool_usage_error("'--persistent_worker' starts a worker: it goes on the "
                                    "worker's command line, not into a request");
        } else if (a[0] == '-' && a[1]) {
            return tool_usage_error("unknown option '%s'", a);
        } else if (!a[0]) {
            return tool_usage_error("an empty argument names no module (an empty line of a "
                                    "parameter file is an empty argument)");
        } else {
            o->modules[o->module_count++] = a;
        }
        if (err)
            return err;
    }
    if (!o->module_count && !o->version && !o->cache_stats && !o->cache_clear && !o->service_stop)
        return tool_usage_error("no module given");
    if (o->list_json && !o->list)
        return tool_usage_error("--json goes with --list");
    if (o->build.list_check && !o->list)
        return tool_usage_error("--check goes with --list");
    if (o->force == DGPB_COMPILER_EMBEDDED && o->slangc)
        return tool_usage_error("--compiler embedded and --slangc '%s' name two compilers: give "
                                "one",
                                o->slangc);
    o->build.defines = o->defines;
    o->build.define_count = o->define_count;
    o->build.include_dirs = o->includes;
    o->build.include_dir_count = o->include_count;
    o->build.slang_capabilities = (const char *const *)o->capabilities;
    o->build.slang_capability_count = o->capability_count;
    o->build.module_file = o->module_count ? o->modules[0] : NULL;
    return -1;
}

void options_free(options *o)
{
    for (size_t i = 0; i < o->capability_count; i++)
        free(o->capabilities[i]);
    free(o->capabilities);
    o->capabilities = NULL;
    o->capability_count = 0;
    free(o->defines);
    free(o->includes);
    free(o->modules);
    o->defines = o->includes = o->modules = NULL;
}

bool options_want_json(int argc, char **argv)
{
    bool json = false;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--diagnostics") && i + 1 < argc)
            json = !strcmp(argv[i + 1], "json");
        else if (!strncmp(argv[i], "--diagnostics=", 14))
            json = !strcmp(argv[i] + 14, "json");
    return json;
}

bool env_true(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0");
}
