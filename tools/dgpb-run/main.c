/*
 * dgpb-run - runs one compute entry of a bundle on a Vulkan or CUDA device,
 * or draws a render pipeline of its entries (Vulkan: --fragment and the
 * other stage options).
 *
 * A thin main over the runner library (dgpb/run.h, docs/run.md): parse the
 * command line into a run request whose parameters are named by their rows,
 * read the input files, load the bundle and check the request against the
 * entry's table (usage errors before any device is touched), create the
 * runner, run, then write, print and compare the outputs (output.c) and map
 * what happened to the exit status.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "common/tool_common.h"
#include "run_tool.h"

#define MAX_INPUT_FILE ((size_t)1 << 31)

/* --help: these three parts, with the lists between them made from the vocabulary (print_usage). */
static const char usage_head[] =
    "usage: dgpb-run [OPTIONS] BUNDLE ENTRY\n"
    "       dgpb-run [OPTIONS] --fragment ENTRY [--hull ENTRY --domain ENTRY]\n"
    "                [--geometry ENTRY] [--amplification ENTRY]\n"
    "                (--vertices N | --vertices NAME=FORMAT:V1,... | --groups X[,Y[,Z]])\n"
    "                [--attachment NAME=FORMAT:WxH]... [--depth NAME=FORMAT:WxH]\n"
    "                BUNDLE ENTRY\n"
    "       dgpb-run --list [--json] [--api API] BUNDLE\n"
    "\n"
    "Runs one compute entry of a DGPB bundle on a device and prints, writes or\n"
    "checks its outputs; or, with --fragment (Vulkan), draws the render pipeline\n"
    "of ENTRY (a vertex or mesh entry) and the entries the stage options name.\n"
    "Every parameter is bound BY NAME through the entries' parameter tables: the\n"
    "row's dotted name (res.src, scale, params.count).\n"
    "\n"
    "Device:\n";
static const char usage_middle[] =
    "  --device NAME              Vulkan: the first device whose name contains NAME\n"
    "                             (default: the first with a compute queue); CUDA: a\n"
    "                             device index or a name substring\n"
    "  --list                     list the entries of the API's target with their rows,\n"
    "                             the type of each value and a vertex entry's\n"
    "                             attributes (with --json: as one JSON object)\n"
    "Parameters:\n"
    "  --in NAME=FILE             buffer or texture contents from FILE (raw bytes)\n"
    "  --in NAME=TYPE:V1,V2,...   inline values of TYPE (below), which must agree with\n"
    "                             the buffer's element type where the code states it\n"
    "  --size NAME=BYTES          a zero-filled buffer of BYTES bytes (an output with no\n"
    "                             input; with --in, the input fills its first bytes)\n"
    "  --set NAME=[TYPE:]V1,...   a value row (uniform, push constant, kernel value),\n"
    "                             typed by the entry's code (2 is 2.0 for a float; a\n"
    "                             bool takes true, false, 1 or 0); TYPE must agree with\n"
    "                             it, and is needed where no target's code states the\n"
    "                             type; one number per scalar as the shader declares\n"
    "                             the value (float[2]: two); a value not given is zero;\n"
    "                             a struct whole (its fields' numbers in the code's\n"
    "                             order) or by field: NAME.FIELD, NAME[I].FIELD (the\n"
    "                             fields not given stay zero; --list shows them)\n"
    "  --texture NAME=FORMAT:WxH[xD][:DIM]\n"
    "                             a texture parameter: FORMAT r16float r32float rg32float\n"
    "                             rgba32float r32uint rgba8unorm rgba16float r32sint\n"
    "                             rgba32uint rgba32sint, or for a depth texture\n"
    "                             depth32float depth16unorm (a storage texture: the format\n"
    "                             its code declares); DIM 1d 2d 3d cube 2d_array\n"
    "                             cube_array 2d_ms (default 2d; 1d takes W only; D is the\n"
    "                             depth, the layers, 6 per cube or the samples); texels\n"
    "                             tightly packed, x fastest; contents from --in, or zeros\n"
    "                             (sampler rows get a point-filtering, clamp-to-edge\n"
    "                             sampler by themselves, comparing less-or-equal where\n"
    "                             the row is a comparison sampler)\n"
    "Dispatch and draw:\n"
    "  --fragment ENTRY           draw: ENTRY is a vertex or mesh entry, this the\n"
    "                             fragment entry of its render pipeline\n"
    "  --hull ENTRY, --domain ENTRY\n"
    "                             tessellation stages (both) after a vertex ENTRY\n"
    "  --geometry ENTRY           a geometry stage after a vertex ENTRY\n"
    "  --amplification ENTRY      the task stage before a mesh ENTRY\n"
    "  --groups X[,Y[,Z]]         dispatch this many groups (default 1,1,1); a mesh\n"
    "                             pipeline draws this many groups of its first stage\n"
    "  --threads X[,Y[,Z]]        or this many invocations: groups = ceil(threads /\n"
    "                             the entry's thread group size)\n"
    "  --vertices N               a vertex pipeline draws N vertices (with tessellation:\n"
    "                             patches of the hull entry's control points)\n"
    "  --vertices NAME=FORMAT:V1,V2,...\n"
    "  --vertices NAME:FORMAT=FILE\n"
    "                             the vertex buffer of an attribute the vertex entry\n"
    "                             reads (NAME as its code names it, --list shows them),\n"
    "                             inline or FILE's raw bytes; FORMAT its type: float\n"
    "                             float2 float3 float4 int int2 int3 int4 uint uint2\n"
    "                             uint3 uint4; the draw counts the vertices they hold\n"
    "  --attachment NAME=FORMAT:WxH\n"
    "                             a colour attachment a draw renders into, cleared to\n"
    "                             zero; the i-th is SV_Target<i>'s; NAME names it for\n"
    "                             --print, --out and --expect\n"
    "  --depth NAME=FORMAT:WxH[:COMPARE[:CLEAR]]\n"
    "                             the depth attachment (depth32float, depth16unorm),\n"
    "                             cleared to CLEAR (default 1) and tested with COMPARE:\n"
    "                             less (default) never equal less_or_equal greater\n"
    "                             not_equal greater_or_equal always\n"
    "  --repeat N                 dispatch N times over the same resources, a barrier\n"
    "                             between (default 1; a draw runs once)\n"
    "  --time                     GPU time of each dispatch (Vulkan: timestamp queries;\n"
    "                             CUDA: events): min, median, mean\n"
    "Outputs:\n"
    "  --print NAME[:TYPE]        print a buffer or texture after the run as TYPE, or\n"
    "                             hex (32-bit words, the default); with no --print, --out, "
    "--expect or --json,\n";
static const char usage_tail[] =
    "  --out NAME=FILE            write its bytes to FILE\n"
    "  --expect NAME=FILE         compare after the run with FILE's bytes, or with\n"
    "  --expect NAME=TYPE:V1,...  inline values, or with FILE read as TYPE; the\n"
    "  --expect NAME:TYPE=FILE    expectation may be shorter: its first bytes are compared\n"
    "  --tolerance X              absolute tolerance for f16, f32 and f64 expectations\n"
    "                             (default: every byte exact)\n"
    "  --json                     everything as one JSON object on standard output\n"
    "  -v, --verbose              notes on standard error: device, driver, groups\n"
    "  -q, --quiet                print nothing but what --print, --json and errors ask\n"
    "  -h, --help                 this text\n"
    "  --version                  the version\n"
    "Types (--in, --set, --print, --expect):\n"
    "  " DGPB_VALUE_TYPE_NAMES "\n"
    "\n"
    "Examples:\n"
    "  dgpb-run k.dgpb computeMain --threads 4 --in input=i32:1,2,3,4 --size output=16 \\\n"
    "           --expect output=i32:2,4,6,8\n"
    "  dgpb-run entry_uniforms.dgpb scale_offset --threads 1000 --in src=src.bin \\\n"
    "           --in buf=buf.bin --set scale=0.5 --set count=1000 --set offset=-3 \\\n"
    "           --print buf:u32\n"
    "  dgpb-run sampler_level.dgpb point_sample --threads 12,8 --set size=12,8 \\\n"
    "           --texture tex=r16float:12x8 --in tex=texels.bin --size result=384\n"
    "  dgpb-run --api cuda --time --repeat 100 k.dgpb computeMain --threads 1048576 \\\n"
    "           --size output=4194304 --in input=in.bin -q\n"
    "  dgpb-run --hull terrainHull --domain terrainDomain --fragment terrainFragment \\\n"
    "           --vertices 8 --set level=4 --attachment image=rgba8unorm:64x64 \\\n"
    "           --out image=a.bin terrain.dgpb terrainVertex\n"
    "  dgpb-run --amplification cullMeshlets --fragment shadeMeshlet --groups 16 \\\n"
    "           --in meshlets=m.bin --attachment image=r32float:8x8 --print image:f32 \\\n"
    "           meshlets.dgpb drawMeshlet\n"
    "  dgpb-run deferred.dgpb geometryVertex --fragment geometryFragment \\\n"
    "           --vertices position=float3:-1,-1,0.5,3,-1,0.5,-1,3,0.5 \\\n"
    "           --vertices normal:float3=normals.bin --set viewProj=... \\\n"
    "           --attachment albedo=rgba8unorm:64x64 \\\n"
    "           --attachment normal=rgba16float:64x64 \\\n"
    "           --depth depth=depth32float:64x64:less:1 --out depth=depth.bin\n"
    "\n"
    "Exit status:\n"
#define DGPB_EXIT_RUN(code, NAME, meaning) "  " #code "  " meaning "\n"
#include "dgpb/vocabulary.def"
    ;

/* The exit status of a result code (dgpb_run_error details included). */
static int exit_status(int code)
{
    switch (dgpb_result_class(code)) {
    case DGPB_OK:
        return EXIT_OK;
    case DGPB_ERR_IO:
        return EXIT_IO;
    case DGPB_ERR_CORRUPT:
        return EXIT_INVALID;
    case DGPB_ERR_BACKEND:
        return EXIT_BACKEND;
    case DGPB_ERR_UNSUPPORTED:
        return EXIT_CAPABILITY;
    case DGPB_ERR_NOT_FOUND:
    case DGPB_ERR_INVALID:
    case DGPB_ERR_LIMIT:
        return EXIT_USAGE;
    default:
        return EXIT_DEVICE;
    }
}

/* The parameter `name`, added when new (kind DGPB_RUN_KIND_ANY); NULL when too many. */
static dgpb_run_param *param(tool_options *o, const char *name)
{
    int i = tool_param_index(o, name);
    if (i >= 0)
        return &o->params[i];
    if (o->req.param_count == DGPB_RUN_MAX_PARAMS)
        return NULL;
    dgpb_run_param *p = &o->params[o->req.param_count++];
    memset(p, 0, sizeof *p);
    p->name = name;
    p->kind = DGPB_RUN_KIND_ANY;
    return p;
}

/* Splits "NAME=REST" in place (argv is ours to cut): *rest after '=', NULL on an error. */
static int split_assignment(char *arg, const char *flag, char **rest)
{
    *rest = NULL;
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return tool_usage_error("'%s' needs NAME=VALUE, got '%s'", flag, arg);
    *eq = 0;
    *rest = eq + 1;
    return EXIT_OK;
}

/*
 * The colon that ends a parameter's name in "NAME:TYPE": the last one that is
 * not half of a "::" (a row named by its namespace, "first::out"); NULL when
 * there is none.
 */
static char *name_colon(char *arg)
{
    char *found = NULL;
    for (char *c = strchr(arg, ':'); c; c = strchr(c + 1, ':')) {
        if (c[1] == ':') {
            c++; /* "::" belongs to the name */
            continue;
        }
        found = c;
    }
    return found;
}

/* "TYPE:..." with a known type: the type, and *values after the colon; else -1. */
static int typed_prefix(const char *text, const char **values)
{
    const char *colon = strchr(text, ':');
    if (!colon)
        return -1;
    int type = dgpb_value_type_from_name(text, (size_t)(colon - text));
    if (type >= 0)
        *values = colon + 1;
    return type;
}

/* Parses "V1,V2,..." of `type` (hex: u32) into a malloc'd array. */
static int parse_values(int type, const char *text, const char *name, uint8_t **bytes, size_t *size)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_value_parse(type == DGPB_VALUE_HEX ? DGPB_VALUE_U32 : (uint32_t)type, text, bytes,
                         size, &d))
        return tool_usage_error("'%s': %s", name, d.message);
    return EXIT_OK;
}

static int read_file(const char *path, uint8_t **bytes, size_t *size)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_file_read(path, MAX_INPUT_FILE, bytes, size, &d)) {
        tool_print_diag(&d, NULL);
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* An unsigned number that must be whole and fit `max`. */
static bool parse_count(const char *s, unsigned long long max, unsigned long long *out)
{
    if (!*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end || errno || v > max)
        return false;
    *out = v;
    return true;
}

/* "X[,Y[,Z]]" of positive 32-bit counts. */
static int parse_xyz(const char *flag, const char *s, uint32_t out[3])
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    out[0] = out[1] = out[2] = 1;
    char *save = NULL, *tok = strtok_r(buf, ",", &save);
    for (int k = 0; k < 3 && tok; k++, tok = strtok_r(NULL, ",", &save)) {
        unsigned long long v;
        if (!parse_count(tok, UINT32_MAX, &v) || !v)
            return tool_usage_error("%s takes X[,Y[,Z]] of positive counts, got '%s'", flag, s);
        out[k] = (uint32_t)v;
    }
    if (tok || s[strlen(s) - 1] == ',')
        return tool_usage_error("%s takes X[,Y[,Z]] of positive counts, got '%s'", flag, s);
    return EXIT_OK;
}

/* "r16float r32float ...": the texture formats, for a message. */
static const char *format_list(void)
{
    static char list[256];
    size_t n = 0;
    for (uint32_t f = 1; f < DGPB_RUN_FORMAT_COUNT && n < sizeof list; f++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? " " : "",
                              dgpb_run_format_name(f));
    return list;
}

/*
 * --texture NAME=FORMAT:WxH[xD][:DIM]; --attachment NAME=FORMAT:WxH (a colour
 * attachment); --depth NAME=FORMAT:WxH[:COMPARE[:CLEAR]] (the depth attachment
 * and its test, draw_options.c).
 */
static int parse_texture(tool_options *o, const char *flag, char *arg)
{
    char *rest;
    bool color = !strcmp(flag, "--attachment"), depth = !strcmp(flag, "--depth");
    int rc = split_assignment(arg, flag, &rest);
    if (rc)
        return rc;
    char *fmt = rest, *ext = strchr(rest, ':'), *dim = NULL;
    if (!ext)
        return tool_usage_error("%s takes NAME=FORMAT:%s, got '%s=%s'", flag,
                                color   ? "WxH"
                                : depth ? "WxH[:COMPARE[:CLEAR]]"
                                        : "WxH[xD][:DIM]",
                                arg, rest);
    *ext++ = 0;
    if ((dim = strchr(ext, ':')))
        *dim++ = 0;
    int format = dgpb_run_format_from_name(fmt);
    if (format < 0)
        return tool_usage_error("%s '%s': unknown format '%s' (%s)", flag, arg, fmt, format_list());
    if (color && dim)
        return tool_usage_error("--attachment '%s': a colour attachment is 2d, WxH (':%s' given)",
                                arg, dim);
    if (depth && dim && (rc = tool_parse_depth_test(o, arg, dim)))
        return rc;
    if (depth) {
        dim = NULL;
        if (o->req.depth_clear < 0) /* not given: the far plane */
            o->req.depth_clear = 1;
    }
    int d = dim ? dgpb_run_dim_from_name(dim) : DGPB_RUN_DIM_2D;
    if (d < 0)
        return tool_usage_error(
            "--texture '%s': unknown dimension '%s' (1d 2d 3d cube 2d_array cube_array 2d_ms)", arg,
            dim);
    uint32_t n[3] = {1, 1, 1};
    int count = 0;
    char *save = NULL;
    for (char *tok = strtok_r(ext, "x", &save); tok; tok = strtok_r(NULL, "x", &save)) {
        unsigned long long v;
        if (count == 3 || !parse_count(tok, 1u << 16, &v) || !v)
            return tool_usage_error("%s '%s': the size is W, WxH or WxHxD of positive "
                                    "numbers up to 65536",
                                    flag, arg);
        n[count++] = (uint32_t)v;
    }
    int want = d == DGPB_RUN_DIM_1D ? 1 : d == DGPB_RUN_DIM_2D ? 2 : 3;
    if (d == DGPB_RUN_DIM_CUBE && count == 2)
        n[2] = 6, count = 3;
    if (count != want)
        return tool_usage_error("%s '%s': a %s texture takes %s", flag, arg, dgpb_run_dim_name(d),
                                want == 1   ? "W"
                                : want == 2 ? "WxH"
                                            : "WxHxD");
    dgpb_run_param *p = param(o, arg);
    if (!p)
        return tool_usage_error("more than %d parameters", DGPB_RUN_MAX_PARAMS);
    if (p->format)
        return tool_usage_error("'%s' is described twice (--texture, --attachment, --depth)", arg);
    p->kind = color   ? DGPB_RUN_KIND_COLOR_ATTACHMENT
              : depth ? DGPB_RUN_KIND_DEPTH_ATTACHMENT
                      : DGPB_RUN_KIND_RESOURCE;
    p->format = (uint32_t)format;
    p->dim = (uint32_t)d;
    p->width = n[0];
    p->height = n[1];
    p->depth = n[2];
    return EXIT_OK;
}

/* --print NAME[:TYPE], --out NAME=FILE, --expect NAME=FILE|NAME=TYPE:V..|NAME:TYPE=FILE */
static int parse_output(tool_options *o, const char *flag, char *arg)
{
    tool_output *t;
    if (!strcmp(flag, "--print")) {
        t = &o->prints[o->print_count++];
        memset(t, 0, sizeof *t);
        t->name = arg;
        t->type = -1;
        char *colon = name_colon(arg);
        if (colon) {
            *colon = 0;
            if ((t->type = dgpb_value_type_from_name(colon + 1, strlen(colon + 1))) < 0)
                return tool_usage_error("--print '%s': unknown type '%s' (" DGPB_VALUE_TYPE_NAMES
                                        " hex)",
                                        arg, colon + 1);
        }
        return EXIT_OK;
    }
    char *rest;
    int rc = split_assignment(arg, flag, &rest);
    if (rc)
        return rc;
    if (!strcmp(flag, "--out")) {
        t = &o->outs[o->out_count++];
        memset(t, 0, sizeof *t);
        t->name = arg;
        t->type = -1;
        t->file = rest;
        return EXIT_OK;
    }
    t = &o->expects[o->expect_count++];
    memset(t, 0, sizeof *t);
    t->name = arg;
    t->type = -1;
    char *colon = name_colon(arg);
    const char *values;
    if (colon) { /* NAME:TYPE=FILE */
        *colon = 0;
        if ((t->type = dgpb_value_type_from_name(colon + 1, strlen(colon + 1))) < 0)
            return tool_usage_error("--expect '%s': unknown type '%s' (" DGPB_VALUE_TYPE_NAMES ")",
                                    arg, colon + 1);
        t->file = rest;
    } else if ((t->type = typed_prefix(rest, &values)) >= 0) {
        return parse_values(t->type, values, arg, &t->bytes, &t->size);
    } else {
        t->file = rest;
    }
    return EXIT_OK;
}

/* The value of an option that takes one, or NULL after reporting. */
static char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        tool_usage_error("'%s' needs a value", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/*
 * --api: the backends the runner has a host for (dgpb/vocabulary.def, the
 * targets with the RUN trait), each named by its backend name in lower case
 * ("vulkan"); the one of RUN_DEFAULT when --api is left out.
 */
static bool api_runs(uint32_t backend)
{
    int t = dgpb_backend_target_id(backend);
    return t >= 0 && (dgpb_target_traits((uint32_t)t) & DGPB_TRAIT_RUN);
}

static const char *api_name(uint32_t backend)
{
    static char names[DGPB_BACKEND_COUNT][32];
    const char *name = dgpb_backend_name(backend);
    if (!name)
        return NULL;
    char *out = names[backend];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof names[backend]; n++)
        out[n] = (char)tolower((unsigned char)name[n]);
    out[n] = 0;
    return out;
}

static int api_backend(const char *api)
{
    for (uint32_t b = 0; b < DGPB_BACKEND_COUNT; b++)
        if (api_runs(b) && !strcmp(api, api_name(b)))
            return (int)b;
    return -1;
}

static int api_default(void)
{
    for (uint32_t b = 0; b < DGPB_BACKEND_COUNT; b++)
        if (api_runs(b) &&
            (dgpb_target_traits((uint32_t)dgpb_backend_target_id(b)) & DGPB_TRAIT_RUN_DEFAULT))
            return (int)b;
    return 0;
}

/* "vulkan or cuda": the --api names, for a message. */
static const char *api_list(void)
{
    static char list[256];
    size_t n = 0, count = 0, left = 0;
    for (uint32_t b = 0; b < DGPB_BACKEND_COUNT; b++)
        count += api_runs(b);
    list[0] = 0;
    for (uint32_t b = 0; b < DGPB_BACKEND_COUNT && n < sizeof list; b++) {
        if (!api_runs(b))
            continue;
        const char *sep = !left ? "" : left + 1 == count ? " or " : ", ";
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", sep, api_name(b));
        left++;
    }
    return list;
}

/* --help, its lists from the vocabulary: the --api backends and the writable kinds. */
static void print_usage(FILE *out)
{
    fputs(usage_head, out);
    fputs("  --api API                  the device API, one of:\n", out);
    for (uint32_t b = 0; b < DGPB_BACKEND_COUNT; b++)
        if (api_runs(b))
            fprintf(out, "                               %-8s runs the %s target%s\n", api_name(b),
                    dgpb_target_name((uint32_t)dgpb_backend_target_id(b)),
                    (int)b == api_default() ? " (the default)" : "");
    fputs(usage_middle, out);
    fputs("                             every writable parameter (", out);
    int col = 56;
    bool first = true;
    for (uint32_t k = 0; k < DGPB_KIND_COUNT; k++) {
        if (!dgpb_kind_writable(k))
            continue;
        const char *name = dgpb_kind_name(k);
        if (!first && col + 2 + (int)strlen(name) > 84) {
            fputs(",\n                             ", out);
            col = 29;
        } else if (!first) {
            fputs(", ", out);
            col += 2;
        }
        fputs(name, out);
        col += (int)strlen(name);
        first = false;
    }
    fputs(") and every\n                             attachment is printed as hex\n", out);
    fputs(usage_tail, out);
}

/* The request field a stage option names (--fragment, --hull, ...), or NULL. */
static const char **stage_option(tool_options *o, const char *flag)
{
    if (!strcmp(flag, "--fragment"))
        return &o->req.fragment;
    if (!strcmp(flag, "--hull"))
        return &o->req.hull;
    if (!strcmp(flag, "--domain"))
        return &o->req.domain;
    if (!strcmp(flag, "--geometry"))
        return &o->req.geometry;
    if (!strcmp(flag, "--amplification"))
        return &o->req.amplification;
    return NULL;
}

/* Returns -1 to go on, or an exit status. Input files are read later (read_inputs). */
static int parse_args(int argc, char **argv, tool_options *o)
{
    const char *positional[2] = {NULL, NULL};
    int npos = 0;
    bool tolerance_given = false;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        int rc = EXIT_OK;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--version")) {
            printf("dgpb-run %s (DGPB format version %u)\n", dgpb_version(), DGPB_FORMAT_VERSION);
            return EXIT_OK;
        } else if (!strcmp(a, "--list")) {
            o->list = true;
        } else if (!strcmp(a, "--time")) {
            o->req.time = true;
        } else if (!strcmp(a, "--json")) {
            o->json = true;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (!strcmp(a, "--api") || !strcmp(a, "--device") || !strcmp(a, "--in") ||
                   !strcmp(a, "--size") || !strcmp(a, "--set") || !strcmp(a, "--texture") ||
                   !strcmp(a, "--groups") || !strcmp(a, "--threads") || !strcmp(a, "--print") ||
                   !strcmp(a, "--out") || !strcmp(a, "--expect") || !strcmp(a, "--tolerance") ||
                   !strcmp(a, "--repeat") || !strcmp(a, "--vertices") ||
                   !strcmp(a, "--attachment") || !strcmp(a, "--depth") || stage_option(o, a)) {
            char *v = option_value(argc, argv, &i);
            if (!v)
                return EXIT_USAGE;
            if ((!strcmp(a, "--print") && o->print_count == DGPB_RUN_MAX_PARAMS) ||
                (!strcmp(a, "--out") && o->out_count == DGPB_RUN_MAX_PARAMS) ||
                (!strcmp(a, "--expect") && o->expect_count == DGPB_RUN_MAX_PARAMS))
                return tool_usage_error("more than %d uses of '%s'", DGPB_RUN_MAX_PARAMS, a);
            if (!strcmp(a, "--api")) {
                o->api = v;
                int backend = api_backend(v);
                if (backend < 0)
                    return tool_usage_error("unknown API '%s' (%s)", v, api_list());
                o->backend = (uint32_t)backend;
            } else if (!strcmp(a, "--device")) {
                o->device = v;
            } else if (stage_option(o, a)) {
                const char **field = stage_option(o, a);
                if (*field)
                    return tool_usage_error("'%s' is given twice", a);
                *field = v;
            } else if (!strcmp(a, "--texture") || !strcmp(a, "--attachment") ||
                       !strcmp(a, "--depth")) {
                rc = parse_texture(o, a, v);
            } else if (!strcmp(a, "--vertices")) {
                rc = tool_parse_vertices(o, v);
            } else if (!strcmp(a, "--groups")) {
                rc = parse_xyz(a, v, o->req.groups);
            } else if (!strcmp(a, "--threads")) {
                rc = parse_xyz(a, v, o->req.threads);
            } else if (!strcmp(a, "--repeat")) {
                unsigned long long n;
                if (!parse_count(v, 1000000, &n) || !n)
                    return tool_usage_error("--repeat takes a count from 1 to 1000000, got '%s'",
                                            v);
                o->req.repeat = (uint32_t)n;
            } else if (!strcmp(a, "--tolerance")) {
                char *end;
                errno = 0;
                o->tolerance = strtod(v, &end);
                if (*end || end == v || errno || !(o->tolerance >= 0))
                    return tool_usage_error("--tolerance takes a number >= 0, got '%s'", v);
                tolerance_given = true;
            } else if (!strcmp(a, "--print") || !strcmp(a, "--out") || !strcmp(a, "--expect")) {
                rc = parse_output(o, a, v);
            } else if (!strcmp(a, "--set")) { /* NAME=...: a row, or a field of one */
                char *rest;
                if ((rc = split_assignment(v, a, &rest)))
                    return rc;
                for (uint32_t k = 0; k < o->set_count; k++)
                    if (!strcmp(o->sets[k].name, v))
                        return tool_usage_error("'%s' is given contents twice", v);
                if (o->set_count == DGPB_RUN_MAX_PARAMS)
                    return tool_usage_error("more than %d uses of '%s'", DGPB_RUN_MAX_PARAMS, a);
                /* typed by the code, and its row found, once the bundle is read */
                o->sets[o->set_count++] = (tool_set){.name = v, .text = rest, .param = -1};
            } else { /* --in, --size: NAME=... */
                char *rest;
                if ((rc = split_assignment(v, a, &rest)))
                    return rc;
                dgpb_run_param *p = param(o, v);
                if (!p)
                    return tool_usage_error("more than %d parameters", DGPB_RUN_MAX_PARAMS);
                int k = (int)(p - o->params);
                if (!strcmp(a, "--size")) {
                    unsigned long long n;
                    if (!parse_count(rest, (size_t)1 << 40, &n) || !n)
                        return tool_usage_error("--size '%s': '%s' is not a positive byte count", v,
                                                rest);
                    p->size = (size_t)n;
                    if (p->kind == DGPB_RUN_KIND_ANY)
                        p->kind = DGPB_RUN_KIND_RESOURCE;
                } else if (p->input || p->input_size || o->owned[k]) {
                    return tool_usage_error("'%s' is given contents twice", v);
                } else { /* --in: typed now, or a file read later */
                    const char *values;
                    int type = typed_prefix(rest, &values);
                    if (type >= 0 &&
                        (rc = parse_values(type, values, v, &o->owned[k], &p->input_size)))
                        return rc;
                    o->in_type[k] = type + 1; /* checked against the code's once it is read */
                    if (type < 0)
                        p->input = (const uint8_t *)rest; /* the file name, until read */
                    if (p->kind == DGPB_RUN_KIND_ANY)
                        p->kind = DGPB_RUN_KIND_RESOURCE;
                }
            }
        } else if (a[0] == '-' && a[1]) {
            return tool_usage_error("unknown option '%s'", a);
        } else if (npos == 2) {
            return tool_usage_error("unexpected argument '%s' (one BUNDLE and one ENTRY; a render "
                                    "pipeline's other entries are named by --fragment, --hull, "
                                    "--domain, --geometry and --amplification)",
                                    a);
        } else {
            positional[npos++] = a;
        }
        if (rc)
            return rc;
    }
    if (!tolerance_given)
        o->tolerance = -1;
    o->bundle = positional[0];
    o->entry = positional[1];
    /* Every entry of the request, in pipeline order. */
    const char *order[] = {o->req.amplification, o->entry,        o->req.hull,
                           o->req.domain,        o->req.geometry, o->req.fragment};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if (order[k])
            o->entries[o->entry_count++] = order[k];
    bool stages = o->entry_count > 1;
    if (stages && !o->req.fragment && o->entry)
        return tool_usage_error("--hull, --domain, --geometry and --amplification name stages of a "
                                "render pipeline: --fragment names its fragment entry");
    if (!o->bundle)
        return tool_usage_error("no bundle given");
    if (o->list && o->entry)
        return tool_usage_error("--list takes only a bundle ('%s' given too)", o->entry);
    if (!o->list && !o->entry)
        return tool_usage_error("no entry given (dgpb-run --list %s shows them)", o->bundle);
    if ((o->req.groups[0] && o->req.threads[0]))
        return tool_usage_error("--groups and --threads cannot be combined");
    return -1;
}

static int finish(const tool_options *o, const dgpb_runner *runner, const dgpb_diag *d, int status);

/* A vertex entry drawn without vertices: --vertices N, or its attributes' vertex buffers. */
static int no_vertices(const dgpb_target_view *t, const char *entry)
{
    dgpb_run_vertex_attribute *attrs = NULL;
    uint32_t n = 0;
    dgpb_run_vertex_attributes(t, entry, &attrs, &n, NULL);
    char list[1024] = "";
    size_t len = 0;
    for (uint32_t i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s %s", i ? ", " : "",
                                attrs[i].name, attrs[i].type);
    dgpb_free(attrs);
    if (!n)
        return tool_usage_error("vertex entry '%s' draws --vertices N (none given)", entry);
    return tool_usage_error("vertex entry '%s' reads vertex attributes (%s): --vertices "
                            "NAME=FORMAT:V1,V2,... gives each its vertices (none given)",
                            entry, list);
}

/* The first named entry whose table has a row `name` (a render pipeline's rows are spread
   over its entries); the first entry when none has. */
static const char *entry_of_row(const tool_options *o, const dgpb_target_view *t, const char *name)
{
    for (uint32_t k = 0; k < o->entry_count; k++) {
        const dgpb_entry_view *e;
        if (dgpb_target_find_entry(t, o->entries[k], &e, NULL))
            continue;
        for (uint32_t j = 0; j < e->param_count; j++)
            if (dgpb_str_eq(e->params[j].name, name))
                return o->entries[k];
    }
    return o->entry;
}

/* The first named entry with a value row that `name` names (itself, or a field of it:
   dgpb_run_value_row); the first entry when none has. */
static const char *entry_of_value(const tool_options *o, const dgpb_target_view *t,
                                  const char *name)
{
    for (uint32_t k = 0; k < o->entry_count; k++) {
        const dgpb_param_view *row;
        const char *path;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (!dgpb_run_value_row(t, o->entries[k], name, &row, &path, &d))
            return o->entries[k];
    }
    return o->entry;
}

/* Gives --set `s` to its row's parameter (made when new): the row's bytes, zero where no
   --set gives them, each --set written where the code keeps its value or field. */
static int set_value(tool_options *o, const dgpb_bundle *b, const dgpb_target_view *t, tool_set *s)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int k = tool_param_index(o, s->name);
    if (k >= 0 && (o->params[k].kind == DGPB_RUN_KIND_COLOR_ATTACHMENT ||
                   o->params[k].kind == DGPB_RUN_KIND_DEPTH_ATTACHMENT))
        return tool_usage_error("'%s' is a %s attachment: it takes its texels before the draw "
                                "with --in (else it is cleared), not --set",
                                s->name,
                                o->params[k].kind == DGPB_RUN_KIND_COLOR_ATTACHMENT ? "colour"
                                                                                     : "depth");
    const char *entry = entry_of_value(o, t, s->name), *path;
    const dgpb_param_view *row;
    if (dgpb_run_value_row(t, entry, s->name, &row, &path, &d)) {
        dgpb_diag_set_file(&d, o->bundle);
        return finish(o, NULL, &d, exit_status(d.code));
    }
    char *row_name = malloc((size_t)row->name.len + 1);
    if (!row_name)
        return tool_usage_error("out of memory");
    memcpy(row_name, row->name.ptr, row->name.len);
    row_name[row->name.len] = 0;
    if ((k = tool_param_index(o, row_name)) < 0) {
        dgpb_run_param *p = param(o, row_name);
        if (!p) {
            free(row_name);
            return tool_usage_error("more than %d parameters", DGPB_RUN_MAX_PARAMS);
        }
        k = (int)(p - o->params);
        o->row_names[k] = row_name;
    } else {
        free(row_name);
    }
    dgpb_run_param *p = &o->params[k];
    if (!o->by_set[k]) {
        if (p->input || p->input_size || o->owned[k])
            return tool_usage_error("'%s' is given contents twice", p->name);
        if (!(o->set_bytes[k] = calloc(row->size ? row->size : 1, 1)))
            return tool_usage_error("out of memory");
        p->input_size = row->size;
        p->kind = DGPB_KIND_VALUE;
        o->by_set[k] = true;
    }
    s->param = k;
    if (dgpb_run_value_write(b, t, entry, s->name, s->text, o->set_bytes[k], p->input_size, &s->at,
                             &s->len, &d)) {
        dgpb_diag_set_file(&d, o->bundle);
        return finish(o, NULL, &d, exit_status(d.code));
    }
    for (const tool_set *q = o->sets; q < s; q++)
        if (q->param == k && q->at < s->at + s->len && s->at < q->at + q->len)
            return tool_usage_error("'%s' and '%s' give the same bytes of value '%s': give each "
                                    "once",
                                    q->name, s->name, p->name);
    return EXIT_OK;
}

/* The bytes of every --set, typed by the entry's code (docs/run.md, "Values"), and
   every inline --in's TYPE against the element type the code states. */
static int set_values(tool_options *o, const dgpb_bundle *b, const dgpb_target_view *t)
{
    for (uint32_t i = 0; i < o->req.param_count; i++) {
        dgpb_diag d;
        dgpb_diag_clear(&d);
        const char *entry = entry_of_row(o, t, o->params[i].name);
        if (o->in_type[i] &&
            dgpb_run_check_element_type(t, entry, o->params[i].name, (uint32_t)(o->in_type[i] - 1),
                                        &d) == DGPB_ERR_INVALID) {
            dgpb_diag_set_file(&d, o->bundle);
            return finish(o, NULL, &d, exit_status(d.code));
        }
    }
    for (uint32_t i = 0; i < o->set_count; i++) {
        int rc = set_value(o, b, t, &o->sets[i]);
        if (rc)
            return rc;
    }
    return EXIT_OK;
}

/* Reads the --in and --expect files; the typed inputs were parsed already. */
static int read_inputs(tool_options *o)
{
    for (uint32_t i = 0; i < o->req.param_count; i++) {
        dgpb_run_param *p = &o->params[i];
        if (p->input && !o->owned[i]) {
            int rc = read_file((const char *)p->input, &o->owned[i], &p->input_size);
            if (rc)
                return rc;
        }
        p->input = o->by_set[i] ? o->set_bytes[i] : o->owned[i];
        if (p->kind == DGPB_KIND_VALUE) {
            p->size = p->input_size;
        } else if (p->format) {
            if (p->size)
                return tool_usage_error(
                    "'%s' is a texture: its size comes from --texture, not --size", p->name);
            uint64_t bytes =
                (uint64_t)p->width * p->height * p->depth * dgpb_run_format_texel_size(p->format);
            if (p->input && p->input_size != bytes)
                return tool_usage_error(
                    "texture '%s' (%s %ux%ux%u) holds %llu bytes, its input has "
                    "%zu",
                    p->name, dgpb_run_format_name(p->format), p->width, p->height, p->depth,
                    (unsigned long long)bytes, p->input_size);
            p->size = (size_t)bytes;
        } else if (p->input && p->size && p->input_size > p->size) {
            return tool_usage_error("'%s': %zu bytes of input do not fit --size %zu", p->name,
                                    p->input_size, p->size);
        }
    }
    for (uint32_t i = 0; i < o->expect_count; i++) {
        tool_output *t = &o->expects[i];
        if (t->file && !t->bytes) {
            int rc = read_file(t->file, &t->bytes, &t->size);
            if (rc)
                return rc;
        }
    }
    return tool_read_vertices(o);
}

/* Every --print, --out and --expect must name a buffer or texture of the request. */
static int check_outputs(const tool_options *o, const dgpb_param_view *const *rows)
{
    const tool_output *lists[3] = {o->prints, o->outs, o->expects};
    uint32_t counts[3] = {o->print_count, o->out_count, o->expect_count};
    const char *flags[3] = {"--print", "--out", "--expect"};
    for (int l = 0; l < 3; l++)
        for (uint32_t i = 0; i < counts[l]; i++) {
            const char *name = lists[l][i].name;
            int k = tool_param_index(o, name);
            if (k < 0)
                return tool_usage_error(
                    "%s '%s': the run has no such buffer or texture (the entry's "
                    "rows: dgpb-run --list %s)",
                    flags[l], name, o->bundle);
            uint32_t kind = rows[k] ? rows[k]->kind : o->params[k].kind;
            if (kind == DGPB_KIND_VALUE || kind == DGPB_KIND_SAMPLER)
                return tool_usage_error("%s '%s': a %s has no output", flags[l], name,
                                        dgpb_kind_name(kind));
        }
    return EXIT_OK;
}

static int finish(const tool_options *o, const dgpb_runner *runner, const dgpb_diag *d, int status)
{
    if (d && d->code) {
        tool_print_diag(d, NULL);
        if (o->json) {
            char msg[DGPB_DIAG_MESSAGE_MAX + DGPB_DIAG_FILE_MAX + 64];
            dgpb_diag_format(d, msg, sizeof msg);
            tool_print_json(o, runner, NULL, NULL, msg, status);
        }
    }
    return status;
}

/* Writes --out files, compares --expect, prints. The exit status. */
static int present(const tool_options *o, const dgpb_runner *runner, const dgpb_run_result *res)
{
    for (uint32_t i = 0; i < o->out_count; i++) {
        const dgpb_run_output *out = &res->outputs[tool_param_index(o, o->outs[i].name)];
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (dgpb_file_write_atomic(o->outs[i].file, out->data, out->size, &d))
            return finish(o, runner, &d, EXIT_IO);
    }
    tool_verdict verdicts[DGPB_RUN_MAX_PARAMS];
    int status = EXIT_OK;
    for (uint32_t i = 0; i < o->expect_count; i++) {
        const tool_output *t = &o->expects[i];
        const dgpb_run_output *out = &res->outputs[tool_param_index(o, t->name)];
        uint32_t type = t->type < 0 ? DGPB_VALUE_HEX : (uint32_t)t->type;
        verdicts[i].match = dgpb_value_compare_bytes(type, out->data, out->size, t->bytes, t->size,
                                                     o->tolerance, &verdicts[i].cmp);
        if (!verdicts[i].match)
            status = EXIT_MISMATCH;
    }
    if (o->json)
        tool_print_json(o, runner, res, verdicts, NULL, status);
    else
        tool_print_text(o, res, verdicts);
    return status;
}

int main(int argc, char **argv)
{
    tool_init("dgpb-run", "", EXIT_USAGE);
    tool_options *o = calloc(1, sizeof *o);
    if (!o) {
        fprintf(stderr, "dgpb-run: out of memory\n");
        return EXIT_DEVICE;
    }
    o->backend = (uint32_t)api_default();
    o->api = api_name(o->backend);
    o->req.depth_clear = -1; /* --depth's CLEAR, 1 when it gives none */
    int rc = parse_args(argc, argv, o);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint8_t *bytes = NULL;
    dgpb_bundle *b = NULL;
    const dgpb_target_view *t = NULL;
    dgpb_runner *runner = NULL;
    dgpb_run_result res;
    memset(&res, 0, sizeof res);
    if (rc >= 0)
        goto done;
    if (dgpb_run_load_bundle(o->bundle, o->backend, &bytes, &b, &t, &d)) {
        rc = finish(o, NULL, &d, exit_status(d.code));
        goto done;
    }
    if (o->list) {
        if (o->json)
            tool_list_json(b, t, o->bundle);
        else
            tool_list(b, t, o->bundle);
        rc = EXIT_OK;
        goto done;
    }
    o->req.entry = o->entry;
    const dgpb_entry_view *main_entry = NULL;
    if (o->req.fragment && !dgpb_target_find_entry(t, o->req.entry, &main_entry, NULL) &&
        main_entry->stage_id == DGPB_STAGE_VERTEX) {
        if (o->req.groups[0] || o->req.threads[0]) {
            rc = tool_usage_error("vertex entry '%s' draws --vertices N, not groups", o->req.entry);
            goto done;
        }
        if (!o->req.vertices && !o->req.vertex_input_count) {
            rc = no_vertices(t, o->req.entry);
            goto done;
        }
    }
    if ((rc = set_values(o, b, t)) || (rc = read_inputs(o)))
        goto done;
    o->req.params = o->params;
    const dgpb_param_view *rows[DGPB_RUN_MAX_PARAMS];
    if (dgpb_run_check(t, &o->req, rows, &d)) {
        dgpb_diag_set_file(&d, o->bundle);
        rc = finish(o, NULL, &d, exit_status(d.code));
        goto done;
    }
    if ((rc = check_outputs(o, rows)))
        goto done;
    /* The code's SHA-256 before anything else: an invalid bundle, whatever the device. */
    for (uint32_t k = 0; k < o->entry_count; k++) {
        const dgpb_entry_view *e = NULL;
        dgpb_target_find_entry(t, o->entries[k], &e, NULL);
        if (e && dgpb_blob_verify(&e->code, &d)) {
            dgpb_diag_set_file(&d, o->bundle);
            rc = finish(o, NULL, &d, EXIT_INVALID);
            goto done;
        }
    }
    const char *mask = getenv("DGPB_RUN_MASK_FEATURES");
    dgpb_runner_desc desc = {.backend = o->backend, .device = o->device};
    for (uint32_t cap = 0; mask && cap < DGPB_CAP_COUNT; cap++) {
        const char *name = dgpb_capability_name(cap);
        size_t len = strlen(name);
        for (const char *p = strstr(mask, name); p; p = strstr(p + 1, name))
            if ((p == mask || p[-1] == ',') && (p[len] == ',' || !p[len]))
                desc.mask_capabilities |= UINT64_C(1) << cap;
    }
    if (dgpb_runner_create(&desc, &runner, &d)) {
        rc = finish(o, NULL, &d, exit_status(d.code));
        goto done;
    }
    if (o->verbose)
        fprintf(stderr, "dgpb-run: device %s\ndgpb-run: driver %s\n",
                dgpb_runner_device_name(runner), dgpb_runner_driver(runner));
    if (dgpb_runner_run(runner, o->bundle, &o->req, &res, &d)) {
        if (!d.file[0] && dgpb_result_class(d.code) != DGPB_ERR_TOOL &&
            dgpb_result_class(d.code) != DGPB_ERR_UNSUPPORTED)
            dgpb_diag_set_file(&d, o->bundle);
        rc = finish(o, runner, &d, exit_status(d.code));
        goto done;
    }
    if (o->verbose && o->req.fragment && !res.groups[0])
        fprintf(stderr, "dgpb-run: %s: drew %u vertices\n", o->entry, res.vertices);
    else if (o->verbose)
        fprintf(stderr, "dgpb-run: %s: %u,%u,%u groups of %u,%u,%u threads, %u %s\n", o->entry,
                res.groups[0], res.groups[1], res.groups[2], res.thread_group_size[0],
                res.thread_group_size[1], res.thread_group_size[2], res.dispatches,
                o->req.fragment ? "draws" : "dispatches");
    rc = present(o, runner, &res);
done:
    dgpb_run_result_free(&res);
    dgpb_runner_destroy(runner);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
    for (uint32_t i = 0; i < DGPB_RUN_MAX_PARAMS; i++) {
        dgpb_free(o->owned[i]);
        free(o->row_names[i]);
        free(o->set_bytes[i]);
        dgpb_free(o->expects[i].bytes);
    }
    for (uint32_t i = 0; i < DGPB_RUN_MAX_VERTEX_INPUTS; i++)
        dgpb_free(o->vertex_bytes[i]);
    free(o);
    return rc;
}
