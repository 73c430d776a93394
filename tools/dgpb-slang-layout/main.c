/*
 * dgpb-slang-layout - records the pipeline layout of one group of entry
 * points with Slang's reflection API (docs/layout.md), or, with --serve,
 * answers many compiles and layouts on one loaded libslang (the native
 * worker, recorder/worker_server.h).
 *
 *     dgpb-slang-layout MODULE.slang [slangc options] -target T -entry E -stage S
 *                       [-entry ... -stage ...] [-reflection-json FILE] -o LAYOUT.bin
 *     dgpb-slang-layout --serve [--slangc PATH] [--slang-lib PATH]
 *
 * A thin main over the library: take out our own options (--slang-lib,
 * --slangc, --expect-slang-version, --serve), load libslang, then record
 * (worker_record_layout_file) or serve (worker_serve), and map
 * results to exit codes.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tool_common.h"
#include "dgpb/alloc.h"
#include "dgpb/layout_record.h"
#include "recorder/recording.h" /* dgpb_recorder_exit: the exit statuses */
#include "recorder/worker_server.h"

static const char usage_text[] =
    "usage: dgpb-slang-layout [--slang-lib PATH] [--slangc PATH] MODULE.slang\n"
    "           [slangc options] -target T -entry E -stage S [-entry E -stage S ...]\n"
    "           [-reflection-json FILE] -o LAYOUT.bin\n"
    "       dgpb-slang-layout --serve [--slang-lib PATH] [--slangc PATH]\n"
    "       dgpb-slang-layout [--slang-lib PATH] [--slangc PATH] --compile SLANGC-ARGS...\n"
    "\n"
    "Compiles the module's group of entry points with Slang's native library (one\n"
    "program, the entries composed in the order given, one target) and records\n"
    "every reflection answer a native host's RHI asks for into LAYOUT.bin (the last\n"
    "-o). Every other argument goes to Slang as slangc spells it.\n"
    "\n"
    "With --serve it is the native worker of dgpb-build: it loads libslang once\n"
    "and answers jobs read from standard input, one JSON line each, on standard\n"
    "output: compiles exactly as the slangc of --slangc would run them (one that\n"
    "asks for it also records its program's layout), and layouts as above\n"
    "(docs/layout.md, \"The native worker\").\n"
    "\n"
    "  --slang-lib PATH           the native libslang to load. Default: next to the\n"
    "                             slangc in use (--slangc, $DGPB_SLANGC), in\n"
    "                             $SLANG_ROOT/lib, next to slangc on PATH (its\n"
    "                             folder and ../lib), else libslang.so\n"
    "  --slangc PATH              the slangc whose libslang to use (and, with\n"
    "                             --serve, whose compiles to reproduce)\n"
    "  --expect-slang-version V   fail unless the library's build tag is V\n"
    "  --serve                    answer jobs on standard input until it ends\n"
    "  --compile ARGS...          compile once as `slangc ARGS...` would, with the\n"
    "                             library alone (Slang's diagnostics on standard\n"
    "                             error, slangc's exit status; `-v` prints the\n"
    "                             version): a slangc for a Slang that ships none\n"
    "  --version                  print the versions of the tool and of libslang\n"
    "  --slang-version            print libslang's version (its build tag) alone\n"
    "  -h, --help                 this text\n"
    "\n"
    "Exit status:\n"
#define DGPB_EXIT_SLANG_LAYOUT(code, NAME, meaning) "  " #code "  " meaning "\n"
#include "dgpb/vocabulary.def"
    ;

static int report(const dgpb_diag *d)
{
    tool_print_diag(d, NULL);
    return (int)recorder_exit_of(d->code);
}

/*
 * Serves jobs: answers go to a copy of standard output, and standard output
 * itself becomes standard error, so that nothing Slang prints can break the
 * answer channel.
 */
static int serve(dgpb_slang *slang)
{
    fflush(stdout);
    int answers = dup(STDOUT_FILENO);
    if (answers < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        perror("dgpb-slang-layout: cannot set up the answer channel");
        return DGPB_RECORDER_EXIT_TOOL;
    }
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = worker_serve(slang, STDIN_FILENO, answers, &d);
    close(answers);
    return rc ? report(&d) : DGPB_RECORDER_EXIT_OK;
}

/*
 * Compiles once as `slangc ARGS` would (the native worker's compile, one job):
 * Slang's diagnostics on standard error, slangc's exit status; `-v` alone
 * prints the library's version as slangc does.
 */
static int compile_once(dgpb_slang *slang, const char *const *args, size_t n)
{
    if (n == 1 && !strcmp(args[0], "-v")) {
        printf("%s\n", dgpb_slang_version_string(slang));
        return 0;
    }
    int status = 0;
    char *text = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (worker_compile(slang, args, n, &status, &text, &d))
        return report(&d);
    fputs(text, stderr);
    dgpb_free(text);
    return status;
}

/*
 * Creating Slang's global session deserializes its core module: some 100 MB
 * in small allocations, whose page faults are a third of a one-compile run.
 * With malloc's memory on transparent huge pages (the glibc tunable
 * glibc.malloc.hugetlb=1, glibc 2.35 and later; used where the system's
 * setting is "madvise") a --compile or a recording of the set-up's Slang
 * 2026.12 takes about a quarter less time (docs/performance.md). Tunables are
 * read when a program starts, so the program runs itself again once with the
 * tunable set, unless GLIBC_TUNABLES is set already (the user's choice, or
 * this second start); where that fails it goes on as it is.
 */
static void use_huge_pages(char **argv)
{
    if (getenv("GLIBC_TUNABLES") || setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1))
        return;
    execv("/proc/self/exe", argv);
    unsetenv("GLIBC_TUNABLES");
}

int main(int argc, char **argv)
{
    use_huge_pages(argv);
    tool_init("dgpb-slang-layout", "error: ", DGPB_RECORDER_EXIT_USAGE);
    dgpb_slang_desc sd = {0};
    const char *expect = NULL;
    bool version = false, slang_version = false, serving = false, output = false, compile = false;
    const char **args = calloc((size_t)argc + 1, sizeof *args);
    size_t n = 0;
    if (!args) {
        fprintf(stderr, "dgpb-slang-layout: out of memory\n");
        return DGPB_RECORDER_EXIT_TOOL;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = !strcmp(a, "--slang-lib")              ? &sd.library
                            : !strcmp(a, "--slangc")               ? &sd.slangc
                            : !strcmp(a, "--expect-slang-version") ? &expect
                                                                   : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            free(args);
            return DGPB_RECORDER_EXIT_OK;
        } else if (!strcmp(a, "--version")) {
            version = true;
        } else if (!strcmp(a, "--slang-version")) {
            slang_version = true;
        } else if (!strcmp(a, "--serve")) {
            serving = true;
        } else if (!strcmp(a, "--compile") && !compile) {
            compile = true;
            for (i++; i < argc; i++) /* the rest is slangc's, as given */
                args[n++] = argv[i];
        } else if (slot) {
            if (i + 1 >= argc) {
                free(args);
                return tool_usage_error("missing value after '%s'", a);
            }
            *slot = argv[++i];
        } else {
            output = output || (!strcmp(a, "-o") && i + 1 < argc);
            args[n++] = a;
        }
    }

    dgpb_diag d;
    dgpb_diag_clear(&d);
    dgpb_slang *slang = NULL;
    int rc = DGPB_RECORDER_EXIT_OK;
    if (serving && n) {
        rc = tool_usage_error("--serve takes its jobs from standard input, not '%s'", args[0]);
        goto out;
    }
    if (compile && (serving || version)) {
        rc = tool_usage_error("--compile goes with neither --serve nor --version");
        goto out;
    }
    if (!version && !slang_version && !serving && !output && !compile) {
        rc = tool_usage_error("no output given (-o LAYOUT.bin)");
        goto out;
    }
    if (dgpb_slang_open(&sd, &slang, &d)) {
        rc = report(&d);
        goto out;
    }
    if (slang_version) {
        printf("%s\n", dgpb_slang_version_string(slang));
        goto out;
    }
    if (version) {
        printf("dgpb-slang-layout %s (layout format %u), slang %s from '%s'\n", dgpb_version(),
               DGPB_LAYOUT_FORMAT_VERSION, dgpb_slang_version_string(slang),
               dgpb_slang_library_path(slang));
        goto out;
    }
    if (expect && strcmp(expect, dgpb_slang_version_string(slang)) != 0) {
        fprintf(stderr,
                "dgpb-slang-layout: error: '%s' is Slang %s, not %s (the code and its layout "
                "must come from the same Slang)\n",
                dgpb_slang_library_path(slang), dgpb_slang_version_string(slang), expect);
        rc = DGPB_RECORDER_EXIT_NO_LIBSLANG;
        goto out;
    }
    if (compile)
        rc = compile_once(slang, args, n);
    else if (serving)
        rc = serve(slang);
    else if (worker_record_layout_file(slang, args, n, &d))
        rc = report(&d);
out:
    dgpb_slang_close(slang);
    free(args);
    return rc;
}
