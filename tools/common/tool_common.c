/*
 * tools/common/tool_common.c - the tools' name in messages, usage errors and
 * printed diagnostics (tool_common.h).
 */
#include "common/tool_common.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

static const char *tool_name;
static const char *tool_tag = "";
static int tool_usage_status = 2;

void tool_init(const char *name, const char *tag, int usage_status)
{
    assert(name && tag);
    tool_name = name;
    tool_tag = tag;
    tool_usage_status = usage_status;
}

int tool_usage_error(const char *fmt, ...)
{
    assert(tool_name);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: %s", tool_name, tool_tag);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(see '%s --help')\n", tool_name);
    va_end(ap);
    return tool_usage_status;
}

void tool_print_diag(const dgpb_diag *d, const char *file)
{
    assert(tool_name);
    dgpb_diag copy = *d;
    if (!copy.file[0] && file)
        dgpb_diag_set_file(&copy, file);
    char buf[DGPB_DIAG_FILE_MAX + DGPB_DIAG_MESSAGE_MAX + 64];
    dgpb_diag_format(&copy, buf, sizeof buf);
    fprintf(stderr, "%s: %s\n", tool_name, buf);
}
