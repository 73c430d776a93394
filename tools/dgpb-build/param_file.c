/*
 * param_file.c - @FILE arguments expanded into the lines of FILE
 * (param_file.h).
 */
#include "param_file.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "common/tool_common.h"
#include "exit_status.h"
#include "messages.h"

/* Appends one argument, growing the vector; false when out of memory. */
static bool push(arg_list *list, size_t *cap, char *arg)
{
    if ((size_t)list->argc + 2 > *cap) {
        size_t n = *cap * 2;
        char **grown = realloc(list->argv, n * sizeof *grown);
        if (!grown) {
            say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory for the arguments");
            return false;
        }
        list->argv = grown;
        *cap = n;
    }
    list->argv[list->argc++] = arg;
    list->argv[list->argc] = NULL;
    return true;
}

/* Reads FILE and appends its lines. Returns -1, or the exit status after the message. */
static int expand_file(arg_list *list, size_t *cap, const char *path)
{
    if (!*path)
        return tool_usage_error("'@' names no parameter file (@FILE)");
    uint8_t *data = NULL;
    size_t size = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = dgpb_file_read(path, PARAM_FILE_MAX, &data, &size, &d);
    if (rc == DGPB_ERR_LIMIT)
        return tool_usage_error("parameter file '%s' is larger than %zu MiB", path,
                                PARAM_FILE_MAX >> 20);
    if (rc) {
        say(DGPB_SEV_ERROR, d.code, true, "cannot read parameter file '%s': %s", path, d.message);
        return EXIT_TOOL;
    }
    const char *nul = memchr(data, 0, size);
    if (nul) {
        dgpb_free(data);
        return tool_usage_error("parameter file '%s' holds a NUL byte (offset %zu): it is not "
                                "one argument a line",
                                path, (size_t)(nul - (const char *)data));
    }
    char **texts = realloc(list->texts, (list->text_count + 1) * sizeof *texts);
    if (!texts) {
        dgpb_free(data);
        say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory for the arguments");
        return EXIT_TOOL;
    }
    list->texts = texts;
    list->texts[list->text_count++] = (char *)data;
    char *line = (char *)data, *end = line + size;
    while (line < end) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        char *stop = nl ? nl : end;
        if (stop > line && stop[-1] == '\r')
            stop[-1] = 0;
        *stop = 0; /* the NUL dgpb_file_read() puts past the end, for the last line */
        if (!push(list, cap, line))
            return EXIT_TOOL;
        line = stop + 1;
    }
    return -1;
}

int param_files_expand(int argc, char **argv, arg_list *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 16;
    out->argv = calloc(cap, sizeof *out->argv);
    int rc = -1;
    if (!out->argv) {
        say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory for the arguments");
        rc = EXIT_TOOL;
    }
    for (int i = 0; i < argc && rc < 0; i++) {
        if (i > 0 && argv[i][0] == '@')
            rc = expand_file(out, &cap, argv[i] + 1);
        else if (!push(out, &cap, argv[i]))
            rc = EXIT_TOOL;
    }
    if (rc >= 0)
        arg_list_free(out);
    return rc;
}

void arg_list_free(arg_list *list)
{
    for (size_t i = 0; i < list->text_count; i++)
        dgpb_free(list->texts[i]);
    free(list->texts);
    free(list->argv);
    memset(list, 0, sizeof *list);
}
