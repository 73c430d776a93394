/*
 * dgpb-slang-layout - records the pipeline layout of one group of entry
 * points with Slang's reflection API (docs/layout.md).
 *
 *     dgpb-slang-layout MODULE.slang [slangc options] -target T -entry E -stage S
 *                       [-entry ... -stage ...] [-reflection-json FILE] -o LAYOUT.bin
 *
 * A thin main over the library: take out our own options (--slang-lib,
 * --slangc, --expect-slang-version) and the last -o, load libslang, hand
 * everything else to Slang's command-line processing as slangc would, write
 * the blob atomically, map results to exit codes.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/layout.h"
#include "dgpb/layout_run.h" /* dgpb_recorder_exit: the exit statuses */

static const char usage_text[] =
    "usage: dgpb-slang-layout [--slang-lib PATH] [--slangc PATH] MODULE.slang\n"
    "           [slangc options] -target T -entry E -stage S [-entry E -stage S ...]\n"
    "           [-reflection-json FILE] -o LAYOUT.bin\n"
    "\n"
    "Compiles the module's group of entry points with Slang's native library (one\n"
    "program, the entries composed in the order given, one target) and records\n"
    "every reflection answer a native host's RHI asks for into LAYOUT.bin (the last\n"
    "-o). Every other argument goes to Slang as slangc spells it.\n"
    "\n"
    "  --slang-lib PATH           the native libslang to load. Default: next to the\n"
    "                             slangc in use (--slangc, $DGPB_SLANGC), in\n"
    "                             $SLANG_ROOT/lib, next to slangc on PATH (its\n"
    "                             folder and ../lib), else libslang.so\n"
    "  --slangc PATH              the slangc whose libslang to use\n"
    "  --expect-slang-version V   fail unless the library's build tag is V\n"
    "  --version                  print the versions of the tool and of libslang\n"
    "  -h, --help                 this text\n"
    "\n"
    "Exit status:\n"
    "  0  the layout was written\n"
    "  1  the module has errors, or the program has specialization parameters\n"
    "  2  usage error\n"
    "  3  a file could not be read or written, or another tool failure\n"
    "  4  no usable native libslang (none found, not loadable, or too old; the\n"
    "     embedded WebAssembly compiler has no reflection C API)\n";

static int report(const dgpb_diag *d)
{
    char buf[DGPB_DIAG_FILE_MAX + DGPB_DIAG_MESSAGE_MAX + 64];
    dgpb_diag_format(d, buf, sizeof buf);
    fprintf(stderr, "dgpb-slang-layout: %s\n", buf);
    switch (dgpb_result_class(d->code)) {
    case DGPB_ERR_SHADER:
        return DGPB_RECORDER_EXIT_SHADER;
    case DGPB_ERR_INVALID:
        return DGPB_RECORDER_EXIT_USAGE;
    case DGPB_ERR_UNSUPPORTED:
        return DGPB_RECORDER_EXIT_NO_LIBSLANG;
    default:
        return DGPB_RECORDER_EXIT_TOOL;
    }
}

static int usage_error(const char *msg, const char *arg)
{
    fprintf(stderr, "dgpb-slang-layout: error: %s%s%s%s\n(see 'dgpb-slang-layout --help')\n", msg,
            arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    return DGPB_RECORDER_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    dgpb_slang_desc sd = {0};
    const char *expect = NULL, *output = NULL;
    int output_at = -1;
    bool version = false;
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
        } else if (slot || !strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                free(args);
                return usage_error("missing value after", a);
            }
            if (slot) {
                *slot = argv[++i];
            } else {
                output = argv[i + 1];
                output_at = (int)n; /* the last -o: its place among the arguments */
                args[n++] = argv[i++];
                args[n++] = argv[i];
            }
        } else {
            args[n++] = a;
        }
    }

    dgpb_diag d;
    dgpb_diag_clear(&d);
    dgpb_slang *slang = NULL;
    int rc = DGPB_RECORDER_EXIT_OK;
    if (!version && !output) {
        rc = usage_error("no output given (-o LAYOUT.bin)", NULL);
        goto out;
    }
    if (dgpb_slang_open(&sd, &slang, &d)) {
        rc = report(&d);
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
    /* The last -o names the layout and is not Slang's. */
    memmove(&args[output_at], &args[output_at + 2], (n - (size_t)output_at - 2) * sizeof *args);
    n -= 2;
    uint8_t *blob = NULL;
    size_t size = 0;
    if (dgpb_layout_record(slang, args, n, &blob, &size, &d) ||
        dgpb_file_write_atomic(output, blob, size, &d)) {
        if (!d.file[0] && dgpb_result_class(d.code) == DGPB_ERR_IO)
            dgpb_diag_set_file(&d, output);
        rc = report(&d);
    }
    dgpb_free(blob);
out:
    dgpb_slang_close(slang);
    free(args);
    return rc;
}
