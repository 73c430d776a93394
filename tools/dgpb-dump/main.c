/*
 * dgpb-dump - inspect, verify and take apart DGPB v0 bundles.
 *
 * A thin main over the library: parse the command line, read the file, open
 * it with the reader, hand it to one presentation, map results to exit codes.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tool_common.h"
#include "dgpb/dgpb.h"
#include "header/c_header.h"
#include "bundle/diff.h"
#include "tables/bundle_proof.h"
#include "dump.h"
#include "layout_listing.h"
#include "report.h"

/* The exit statuses (dgpb/vocabulary.def, DGPB_EXIT_DUMP). */
enum {
#define DGPB_EXIT_DUMP(code, NAME, meaning) EXIT_##NAME = code,
#include "dgpb/vocabulary.def"
};

#define MAX_BUNDLE_READ ((size_t)DGPB_MAX_BUNDLE_SIZE)

static const char usage_text[] =
    "usage: dgpb-dump [options] BUNDLE.dgpb\n"
    "       dgpb-dump --diff [--json] [-o FILE] OLD NEW\n"
    "       dgpb-dump --report FILE.html [--diff OLD] BUNDLE.dgpb\n"
    "\n"
    "Prints a readable listing of a DGPB v0 shader bundle, or one of:\n"
    "  --json                 the JSON view, byte for byte what dgpb-build writes\n"
    "                         as <stem>.bundle.json\n"
    "  --header               the C header dgpb-build --emit-header writes as\n"
    "                         <stem>.h: row indices, capabilities, value structs\n"
    "  --stem STEM            the asset stem for --json and --header (default: the\n"
    "                         file name without .dgpb)\n"
    "  --verify               check the structure and every SHA-256, and prove every\n"
    "                         spirv, wgsl and ptx table against its code; prints 'ok'\n"
    "  --extract SEL -o FILE  write one blob to FILE (after checking its SHA-256);\n"
    "                         SEL is TARGET/ENTRY (code) or TARGET/layout/N\n"
    "  --disasm [SEL]         print code: SPIR-V disassembled, WGSL, MSL and PTX\n"
    "                         as text; every entry, or the one SEL names\n"
    "  --layout TARGET/N      print recorded layout N of TARGET, object by object\n"
    "                         (with --json: as JSON)\n"
    "  --report FILE.html     write a self-contained HTML page about the bundle: size\n"
    "                         by target and entry, capabilities, parameter tables,\n"
    "                         deduplication savings; with --diff OLD NEW, the page\n"
    "                         of NEW (a bundle) with the changes from OLD\n"
    "  --diff OLD NEW         compare two bundles (or .bundle.json views), target by\n"
    "                         target and entry by entry; lines that break a host's\n"
    "                         binding end in BREAKING (with --json: as JSON);\n"
    "                         exit status 0 equivalent, 1 different, 2 usage or\n"
    "                         a file of neither kind, 3 unreadable or damaged\n"
    "  -o FILE                write the output to FILE instead of standard output\n"
    "                         (not with --verify)\n"
    "  -h, --help             this text\n"
    "  --version              the version\n"
    "\n"
    "Exit status:\n"
#define DGPB_EXIT_DUMP(code, NAME, meaning) "  " #code "  " meaning "\n"
#include "dgpb/vocabulary.def"
    ;

typedef enum mode {
    MODE_LIST,
    MODE_JSON,
    MODE_HEADER,
    MODE_VERIFY,
    MODE_EXTRACT,
    MODE_DISASM,
    MODE_LAYOUT,
    MODE_REPORT
} mode;

typedef struct options {
    mode mode;
    const char *input;
    const char *output;
    const char *selector;
    const char *stem;
    const char *input2; /* --diff: NEW (input is OLD) */
    bool diff;          /* --diff */
    bool json;          /* --json seen */
    const char *report; /* --report FILE */
    bool layout_json;   /* --layout with --json */
} options;

static int set_mode(options *o, mode m, const char *flag)
{
    if (o->mode != MODE_LIST && o->mode != m)
        return tool_usage_error("'%s' cannot be combined with another mode", flag);
    o->mode = m;
    return EXIT_OK;
}

/* Returns -1 to continue, or an exit code. */
static int parse_args(int argc, char **argv, options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = EXIT_OK;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--version")) {
            printf("dgpb-dump %s (DGPB format version %u)\n", dgpb_version(), DGPB_FORMAT_VERSION);
            return EXIT_OK;
        } else if (!strcmp(a, "--diff")) {
            o->diff = true;
        } else if (!strcmp(a, "--json") && (o->mode == MODE_LAYOUT || o->diff)) {
            o->layout_json = o->mode == MODE_LAYOUT;
            o->json = true;
            o->layout_json = true;
        } else if (!strcmp(a, "--json")) {
            rc = set_mode(o, MODE_JSON, a);
        } else if (!strcmp(a, "--header")) {
            rc = set_mode(o, MODE_HEADER, a);
        } else if (!strcmp(a, "--verify")) {
            rc = set_mode(o, MODE_VERIFY, a);
        } else if (!strcmp(a, "--disasm")) {
            rc = set_mode(o, MODE_DISASM, a);
            if (!rc && i + 1 < argc && strchr(argv[i + 1], '/') && argv[i + 1][0] != '-' &&
                !strstr(argv[i + 1], ".dgpb"))
                o->selector = argv[++i];
        } else if (!strcmp(a, "--layout")) {
            if (i + 1 >= argc)
                return tool_usage_error("'%s' needs a value", a);
            o->layout_json = o->layout_json || o->mode == MODE_JSON;
            o->mode = o->mode == MODE_JSON ? MODE_LIST : o->mode;
            rc = set_mode(o, MODE_LAYOUT, a);
            o->selector = argv[++i];
        } else if (!strcmp(a, "--report")) {
            if (i + 1 >= argc)
                return tool_usage_error("'%s' needs a value", a);
            rc = set_mode(o, MODE_REPORT, a);
            o->report = argv[++i];
        } else if (!strcmp(a, "--extract") || !strcmp(a, "--stem") || !strcmp(a, "-o")) {
            if (i + 1 >= argc)
                return tool_usage_error("'%s' needs a value", a);
            const char *v = argv[++i];
            if (!strcmp(a, "--extract")) {
                rc = set_mode(o, MODE_EXTRACT, a);
                o->selector = v;
            } else if (!strcmp(a, "--stem")) {
                o->stem = v;
            } else {
                o->output = v;
            }
        } else if (a[0] == '-' && a[1]) {
            return tool_usage_error("unknown option '%s'", a);
        } else if (o->input && o->diff && !o->input2) {
            o->input2 = a;
        } else if (o->input) {
            return tool_usage_error("more than one bundle given ('%s')", a);
        } else {
            o->input = a;
        }
        if (rc)
            return rc;
    }
    if (o->diff && o->mode == MODE_JSON) { /* --json before --diff */
        o->mode = MODE_LIST;
        o->json = true;
    }
    if (o->diff && o->mode == MODE_LIST && (!o->input || !o->input2))
        return tool_usage_error("--diff needs two files, OLD and NEW");
    if (o->diff && o->mode == MODE_LIST && o->stem)
        return tool_usage_error("--diff takes no --stem");
    if (o->diff && o->mode != MODE_LIST && o->mode != MODE_REPORT)
        return tool_usage_error("--diff cannot be combined with another mode");
    if (!o->input)
        return tool_usage_error("no bundle given");
    if (o->mode == MODE_VERIFY && o->output)
        return tool_usage_error("--verify writes no file; drop -o");
    if (o->mode == MODE_EXTRACT && !o->output)
        return tool_usage_error("--extract needs -o FILE");
    if (o->mode == MODE_REPORT && o->output)
        return tool_usage_error("--report names its file; drop -o");
    if (o->mode == MODE_REPORT && o->diff && !o->input2)
        return tool_usage_error("--report with --diff needs two files, OLD and NEW");
    if (o->mode == MODE_REPORT)
        o->output = o->report;
    return -1;
}

static int report(const dgpb_diag *d, const char *file)
{
    tool_print_diag(d, file);
    switch (dgpb_result_class(d->code)) {
    case DGPB_ERR_IO:
        return EXIT_IO;
    case DGPB_ERR_NOT_FOUND:
    case DGPB_ERR_INVALID:
        return EXIT_USAGE;
    default:
        return EXIT_INVALID;
    }
}

/* The stem of "dir/name.dgpb" is "name". */
static void default_stem(const char *path, char *out, size_t n)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base);
    if (len > 5 && !strcmp(base + len - 5, ".dgpb"))
        len -= 5;
    snprintf(out, n, "%.*s", (int)len, base);
}

/* Writes text to -o FILE (atomically) or standard output. */
static int emit(const options *o, const void *data, size_t size)
{
    if (o->output) {
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (dgpb_file_write_atomic(o->output, data, size, &d))
            return report(&d, o->output);
        return EXIT_OK;
    }
    if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0) {
        fprintf(stderr, "dgpb-dump: cannot write to standard output\n");
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* The --report page; with --diff, also the changes from OLD (then o->input2) to the bundle. */
static int write_report(FILE *out, const dgpb_bundle *b, const options *o, dgpb_diag *d)
{
    if (!o->diff)
        return dump_report(out, b, o->input, NULL, NULL, d);
    dgpb_diff_side *old_side = NULL, *new_side = NULL;
    cJSON *changes = NULL;
    int rc = diff_side_open(o->input2, &old_side, d);
    if (!rc)
        rc = diff_side_open(o->input, &new_side, d);
    if (!rc)
        rc = bundle_diff(old_side, new_side, &changes, d);
    if (!rc)
        rc = dump_report(out, b, o->input, changes, o->input2, d);
    cJSON_Delete(changes);
    diff_side_close(new_side);
    diff_side_close(old_side);
    return rc;
}

static int run(const options *o, const dgpb_bundle *b)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    switch (o->mode) {
    case MODE_VERIFY:
        /* The structure and every SHA-256 were checked by the open; the tables against the code
           here, as dgpb-build proves them (tables/bundle_proof.h). */
        if (bundle_proof_check(b, &d))
            return report(&d, o->input);
        printf("%s: ok\n", tool_text(o->input, strlen(o->input)));
        return EXIT_OK;
    case MODE_JSON:
    case MODE_HEADER: {
        char stem[512];
        if (o->stem)
            snprintf(stem, sizeof stem, "%s", o->stem);
        else
            default_stem(o->input, stem, sizeof stem);
        char *text = NULL;
        if (o->mode == MODE_JSON ? dgpb_json_view(b, stem, &text, &d)
                                 : c_header_make(b, stem, &text, &d))
            return report(&d, o->input);
        int rc = emit(o, text, strlen(text));
        dgpb_free(text);
        return rc;
    }
    case MODE_EXTRACT: {
        const dgpb_blob_ref *blob;
        const dgpb_target_view *t;
        if (dump_select(b, o->selector, &blob, &t, &d) || dgpb_blob_verify(blob, &d))
            return report(&d, o->input);
        return emit(o, blob->data, blob->size);
    }
    case MODE_DISASM:
    case MODE_LAYOUT:
    case MODE_REPORT:
    case MODE_LIST: {
        /* With -o, the text is made in memory and written like every other output: atomically,
           and not at all when the dump fails. */
        char *text = NULL;
        size_t len = 0;
        FILE *out = o->output ? open_memstream(&text, &len) : stdout;
        if (!out) {
            fprintf(stderr, "dgpb-dump: out of memory\n");
            return EXIT_IO;
        }
        int rc = EXIT_OK;
        if (o->mode == MODE_LIST)
            dump_listing(out, b, o->input);
        else if (o->mode == MODE_LAYOUT)
            rc = dump_layout(out, b, o->selector, o->layout_json, &d) ? report(&d, o->input) : rc;
        else if (o->mode == MODE_REPORT)
            rc = write_report(out, b, o, &d) ? report(&d, o->input) : rc;
        else if (dump_disasm(out, b, o->selector, &d))
            rc = report(&d, o->input);
        if ((out != stdout ? fclose(out) : fflush(out)) != 0 && rc == EXIT_OK) {
            fprintf(stderr, "dgpb-dump: cannot write the output\n");
            rc = EXIT_IO;
        }
        if (o->output && rc == EXIT_OK)
            rc = emit(o, text, len);
        free(text);
        return rc;
    }
    }
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    tool_init("dgpb-dump", "", EXIT_USAGE);
    options o = {0};
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (o.diff && o.mode == MODE_LIST)
        return dump_diff(o.input, o.input2, o.json, o.output);
    if (o.diff && o.mode == MODE_REPORT) { /* --report --diff OLD NEW: the page shows NEW */
        const char *old = o.input;
        o.input = o.input2;
        o.input2 = old;
    }
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint8_t *bytes = NULL;
    size_t size = 0;
    if (dgpb_file_read(o.input, MAX_BUNDLE_READ, &bytes, &size, &d))
        return report(&d, o.input);
    dgpb_bundle *b = NULL;
    uint32_t flags = o.mode == MODE_VERIFY ? DGPB_OPEN_VERIFY_SHA256 : 0;
    if (dgpb_bundle_open(bytes, size, flags, &b, &d)) {
        rc = report(&d, o.input);
    } else {
        rc = run(&o, b);
        dgpb_bundle_close(b);
    }
    dgpb_free(bytes);
    return rc;
}
