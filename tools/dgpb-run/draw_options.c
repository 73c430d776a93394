/*
 * tools/dgpb-run/draw_options.c - the options of a draw that are neither
 * parameters nor entries (docs/run.md, "Drawing"): --vertices, a count or an
 * attribute's vertex buffer (inline, or a file read with the other inputs),
 * and the depth test that follows --depth's extent.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tool_common.h"
#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "run_tool.h"

#define MAX_VERTEX_FILE ((size_t)1 << 31)

/* "float float2 ... uint4": the vertex formats, for a message. */
static const char *vertex_format_list(void)
{
    static char list[160];
    size_t n = 0;
    for (uint32_t f = 1; f < DGPB_RUN_VERTEX_COUNT && n < sizeof list; f++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? " " : "",
                              dgpb_run_vertex_format_name(f));
    return list;
}

/* "less never ...": the compare ops, for a message. */
static const char *compare_list(void)
{
    static char list[160];
    size_t n = 0;
    for (uint32_t c = 0; c < DGPB_RUN_COMPARE_COUNT && n < sizeof list; c++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? " " : "",
                              dgpb_run_compare_name(c));
    return list;
}

/* The value type that reads numbers of a vertex format's scalar. */
static uint32_t value_type(uint32_t format)
{
    switch (dgpb_run_vertex_format_sample_type(format)) {
    case DGPB_SAMPLE_SINT:
        return DGPB_VALUE_I32;
    case DGPB_SAMPLE_UINT:
        return DGPB_VALUE_U32;
    default:
        return DGPB_VALUE_F32;
    }
}

/* The format named `name` for --vertices `arg`; -1 after reporting. */
static int vertex_format(const char *arg, const char *name)
{
    int f = dgpb_run_vertex_format_from_name(name);
    if (f < 0)
        tool_usage_error("--vertices '%s': unknown vertex format '%s' (%s)", arg, name,
                         vertex_format_list());
    return f;
}

int tool_parse_vertices(tool_options *o, char *arg)
{
    char *eq = strchr(arg, '=');
    if (!eq) { /* a count */
        char *end;
        errno = 0;
        unsigned long long n = strtoull(arg, &end, 10);
        if (!*arg || *arg == '-' || *end || errno || !n || n > UINT32_MAX)
            return tool_usage_error("--vertices takes a positive count, NAME=FORMAT:V1,V2,... or "
                                    "NAME:FORMAT=FILE, got '%s'",
                                    arg);
        if (o->req.vertices)
            return tool_usage_error("--vertices N is given twice");
        o->req.vertices = (uint32_t)n;
        return EXIT_OK;
    }
    uint32_t k = o->req.vertex_input_count;
    if (k == DGPB_RUN_MAX_VERTEX_INPUTS)
        return tool_usage_error("more than %d vertex buffers", DGPB_RUN_MAX_VERTEX_INPUTS);
    *eq = 0;
    char *rest = eq + 1, *colon = strrchr(arg, ':');
    dgpb_run_vertex_input *in = &o->vertex_inputs[k];
    memset(in, 0, sizeof *in);
    int format;
    if (colon) { /* NAME:FORMAT=FILE */
        *colon = 0;
        if ((format = vertex_format(arg, colon + 1)) < 0)
            return EXIT_USAGE;
        if (!*rest)
            return tool_usage_error("--vertices '%s:%s': no file given", arg, colon + 1);
        o->vertex_files[k] = rest;
    } else { /* NAME=FORMAT:V1,V2,... */
        char *values = strchr(rest, ':');
        if (!values)
            return tool_usage_error("--vertices takes NAME=FORMAT:V1,V2,... or NAME:FORMAT=FILE, "
                                    "got '%s=%s'",
                                    arg, rest);
        *values++ = 0;
        if ((format = vertex_format(arg, rest)) < 0)
            return EXIT_USAGE;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (dgpb_value_parse(value_type((uint32_t)format), values, &o->vertex_bytes[k], &in->size,
                             &d))
            return tool_usage_error("vertex attribute '%s': %s", arg, d.message);
        uint32_t numbers = (uint32_t)(in->size / 4),
                 per = dgpb_run_vertex_format_components((uint32_t)format);
        if (numbers % per)
            return tool_usage_error("vertex attribute '%s': %u numbers are no whole number of "
                                    "%s vertices (%u numbers each)",
                                    arg, numbers, dgpb_run_vertex_format_name((uint32_t)format),
                                    per);
        in->data = o->vertex_bytes[k];
    }
    if (!*arg)
        return tool_usage_error("--vertices: an attribute needs a name");
    for (uint32_t i = 0; i < k; i++)
        if (!strcmp(o->vertex_inputs[i].name, arg))
            return tool_usage_error("vertex attribute '%s' is given twice", arg);
    in->name = arg;
    in->format = (uint32_t)format;
    o->req.vertex_input_count = k + 1;
    o->req.vertex_inputs = o->vertex_inputs;
    return EXIT_OK;
}

int tool_parse_depth_test(tool_options *o, const char *arg, const char *text)
{
    char op[32];
    const char *clear = strchr(text, ':');
    size_t len = clear ? (size_t)(clear - text) : strlen(text);
    snprintf(op, sizeof op, "%.*s", (int)(len < sizeof op ? len : sizeof op - 1), text);
    int c = dgpb_run_compare_from_name(op);
    if (c < 0 || len >= sizeof op)
        return tool_usage_error("--depth '%s': unknown compare op '%.*s' (%s)", arg, (int)len,
                                text, compare_list());
    o->req.depth_compare = (uint32_t)c;
    if (!clear)
        return EXIT_OK;
    char *end;
    errno = 0;
    double v = strtod(clear + 1, &end);
    if (!clear[1] || *end || errno || !(v >= 0 && v <= 1))
        return tool_usage_error("--depth '%s': the depth it is cleared to is a number from 0 to "
                                "1, got '%s'",
                                arg, clear + 1);
    o->req.depth_clear = (float)v;
    return EXIT_OK;
}

int tool_read_vertices(tool_options *o)
{
    for (uint32_t k = 0; k < o->req.vertex_input_count; k++) {
        if (!o->vertex_files[k] || o->vertex_bytes[k])
            continue;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        size_t size = 0;
        if (dgpb_file_read(o->vertex_files[k], MAX_VERTEX_FILE, &o->vertex_bytes[k], &size, &d)) {
            tool_print_diag(&d, NULL);
            return EXIT_IO;
        }
        o->vertex_inputs[k].data = o->vertex_bytes[k];
        o->vertex_inputs[k].size = size;
    }
    return EXIT_OK;
}
