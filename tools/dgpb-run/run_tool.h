/*
 * tools/dgpb-run/run_tool.h - what dgpb-run's files share: the parsed command
 * line (main.c; a draw's vertex buffers and depth test: draw_options.c) and
 * the presentation of a run (output.c: text, JSON, the --list listing).
 */
#ifndef DGPB_RUN_TOOL_H
#define DGPB_RUN_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dgpb/reader.h"
#include "dgpb/run.h"
#include "dgpb/run_values.h"

/* The exit statuses (dgpb/vocabulary.def, DGPB_EXIT_RUN). */
enum {
#define DGPB_EXIT_RUN(code, NAME, meaning) EXIT_##NAME = code,
#include "dgpb/vocabulary.def"
};

/* One output to print (--print), write (--out) or compare (--expect). */
typedef struct tool_output {
    const char *name;
    int type;         /* dgpb_value_type; -1: none given (print: hex; expect: bytes) */
    const char *file; /* --out, or an --expect file */
    uint8_t *bytes;   /* --expect: the expected bytes */
    size_t size;
} tool_output;

/* One --set: a value row or a field of one (`rect`, `rect.x`, `lights[1].color`). */
typedef struct tool_set {
    const char *name;
    const char *text; /* "[TYPE:]V1,...", typed by the code once the bundle is read */
    int param;        /* the parameter of its row, once the bundle is read */
    uint32_t at, len; /* the bytes of the row it gives */
} tool_set;

typedef struct tool_options {
    uint32_t backend; /* DGPB_BACKEND_VULKAN or DGPB_BACKEND_CUDA */
    const char *api;
    const char *device;
    const char *bundle;
    const char *entry;      /* the first entry named */
    const char *entries[8]; /* every entry named, in order (a render pipeline's stages) */
    uint32_t entry_count;
    bool list, json, verbose, quiet;
    double tolerance; /* negative: exact */
    dgpb_run_request req;
    dgpb_run_param params[DGPB_RUN_MAX_PARAMS];
    uint8_t *owned[DGPB_RUN_MAX_PARAMS]; /* the params' input bytes */
    tool_set sets[DGPB_RUN_MAX_PARAMS];  /* every --set, in order */
    uint32_t set_count;
    bool by_set[DGPB_RUN_MAX_PARAMS];        /* the parameter is a value row given by --set ... */
    uint8_t *set_bytes[DGPB_RUN_MAX_PARAMS]; /* ... these bytes of it (owned, free()) */
    char *row_names[DGPB_RUN_MAX_PARAMS];    /* the names of parameters --set made (owned) */
    int in_type[DGPB_RUN_MAX_PARAMS]; /* --in NAME=TYPE:...: TYPE + 1 (dgpb_value_type); 0 none */
    tool_output prints[DGPB_RUN_MAX_PARAMS], outs[DGPB_RUN_MAX_PARAMS],
        expects[DGPB_RUN_MAX_PARAMS];
    uint32_t print_count, out_count, expect_count;
    dgpb_run_vertex_input vertex_inputs[DGPB_RUN_MAX_VERTEX_INPUTS]; /* --vertices NAME=... */
    const char *vertex_files[DGPB_RUN_MAX_VERTEX_INPUTS]; /* NAME:FORMAT=FILE, until read */
    uint8_t *vertex_bytes[DGPB_RUN_MAX_VERTEX_INPUTS];     /* their bytes (owned, dgpb_free) */
} tool_options;

/* What came of comparing one --expect. */
typedef struct tool_verdict {
    bool match;
    dgpb_value_compare cmp;
} tool_verdict;

/* The index of the request parameter `name`, or -1. */
static inline int tool_param_index(const tool_options *o, const char *name)
{
    for (uint32_t i = 0; i < o->req.param_count; i++)
        if (!strcmp(o->params[i].name, name))
            return (int)i;
    return -1;
}

/* ---- draw_options.c ---------------------------------------------------------- */

/*
 * --vertices N (a count), NAME=FORMAT:V1,V2,... (an attribute's vertices
 * inline) or NAME:FORMAT=FILE (its vertices from FILE, read by
 * tool_read_vertices). `arg` is cut in place. An exit status.
 */
int tool_parse_vertices(tool_options *o, char *arg);

/* The depth test after --depth NAME=FORMAT:WxH: "COMPARE[:CLEAR]" (`text`). An exit status. */
int tool_parse_depth_test(tool_options *o, const char *arg, const char *text);

/* Reads the files of --vertices NAME:FORMAT=FILE. An exit status. */
int tool_read_vertices(tool_options *o);

/* ---- output.c ------------------------------------------------------------------ */

/* Prints the entries of a target with their rows and value types (--list); `b` lends types. */
void tool_list(const dgpb_bundle *b, const dgpb_target_view *t, const char *bundle);

/* The same listing as one JSON object (--list --json). */
void tool_list_json(const dgpb_bundle *b, const dgpb_target_view *t, const char *bundle);

/* Prints the outputs (--print, or every writable one), the times and the verdicts as text. */
void tool_print_text(const tool_options *o, const dgpb_run_result *res,
                     const tool_verdict *verdicts);

/* Prints the whole run as one JSON object; `error` (may be NULL) and the exit status. */
void tool_print_json(const tool_options *o, const dgpb_runner *runner, const dgpb_run_result *res,
                     const tool_verdict *verdicts, const char *error, int status);

#endif
