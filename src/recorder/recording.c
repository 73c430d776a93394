/*
 * recording.c - runs dgpb-slang-layout for one pipeline group and returns
 * the validated blob (recorder/recording.h).
 */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/layout.h"
#include "recorder/recording.h"
#include "io/process.h"

/* A layout blob larger than this is refused (u32 offsets in the bundle). */
#define MAX_LAYOUT ((size_t)0xFFFFFFFFu)

/* The recorder's message without its "program: error: " prefix and trailing newlines. */
static void message_of(const char *message, char *buf, size_t n)
{
    const char *text = message && message[0] ? message : "(no message)";
    static const char prefix[] = "dgpb-slang-layout: ", error[] = "error: ";
    if (!strncmp(text, prefix, sizeof prefix - 1))
        text += sizeof prefix - 1;
    if (!strncmp(text, error, sizeof error - 1))
        text += sizeof error - 1;
    snprintf(buf, n, "%s", text);
    size_t len = strlen(buf);
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
        buf[--len] = 0;
}

dgpb_recorder_exit recorder_exit_of(int code)
{
    if (code == DGPB_OK)
        return DGPB_RECORDER_EXIT_OK;
    switch (dgpb_result_class(code)) {
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

void recording_args_free(recording_args *a)
{
    if (!a)
        return;
    for (size_t i = 0; a->owned && i < a->owned_count; i++)
        dgpb_free(a->owned[i]);
    dgpb_free(a->owned);
    dgpb_free(a->argv);
    memset(a, 0, sizeof *a);
}

int recording_args_make(const recording_desc *d, bool with_recorder, recording_args *out,
                        dgpb_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!d || (with_recorder && !d->recorder) || !d->module || !d->target || !d->output ||
        !d->entry_count || !d->entries)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "a layout run needs the recorder, module, target, output and at "
                             "least one entry");
    size_t max = 16 + 2 * d->define_count + 2 * d->include_dir_count + d->extra_arg_count +
                 4 * d->entry_count;
    const char **argv = mem_calloc(max, sizeof *argv);
    out->owned = mem_calloc(d->define_count + 1, sizeof *out->owned);
    out->argv = argv;
    if (!argv || !out->owned) {
        recording_args_free(out);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    size_t n = 0;
    if (with_recorder) {
        argv[n++] = d->recorder;
        if (d->slang_lib) {
            argv[n++] = "--slang-lib";
            argv[n++] = d->slang_lib;
        }
        if (d->slangc) {
            argv[n++] = "--slangc";
            argv[n++] = d->slangc;
        }
        if (d->expect_slang_version) {
            argv[n++] = "--expect-slang-version";
            argv[n++] = d->expect_slang_version;
        }
    }
    argv[n++] = d->module;
    for (size_t i = 0; i < d->define_count; i++) {
        char *def = mem_printf("-D%s", d->defines[i]);
        if (!def) {
            recording_args_free(out);
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        }
        out->owned[out->owned_count++] = def;
        argv[n++] = def;
    }
    for (size_t i = 0; i < d->include_dir_count; i++) {
        argv[n++] = "-I";
        argv[n++] = d->include_dirs[i];
    }
    for (size_t i = 0; i < d->extra_arg_count; i++)
        argv[n++] = d->extra_args[i];
    argv[n++] = "-target";
    argv[n++] = d->target;
    for (size_t i = 0; i < d->entry_count; i++) {
        if (!d->entries[i].name || !d->entries[i].stage) {
            recording_args_free(out);
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "entry %zu has no name or stage", i);
        }
        argv[n++] = "-entry";
        argv[n++] = d->entries[i].name;
        argv[n++] = "-stage";
        argv[n++] = d->entries[i].stage;
    }
    argv[n++] = "-o";
    argv[n++] = d->output;
    argv[n] = NULL;
    out->count = n;
    return DGPB_OK;
}

int recording_collect(const recording_desc *d, int status, const char *message, uint8_t **blob,
                      size_t *size, dgpb_diag *diag)
{
    *blob = NULL;
    *size = 0;
    if (status != 0) {
        char msg[DGPB_DIAG_MESSAGE_MAX - 200];
        message_of(message, msg, sizeof msg);
        int code = status == DGPB_RECORDER_EXIT_SHADER        ? DGPB_ERR_SHADER
                   : status == DGPB_RECORDER_EXIT_NO_LIBSLANG ? DGPB_ERR_UNSUPPORTED
                                                              : DGPB_ERR_TOOL;
        return dgpb_diag_set(diag, code, -1, "layout recorder (target %s, entry '%s'%s): %s%s",
                             d->target, d->entries[0].name, d->entry_count > 1 ? ", ..." : "", msg,
                             status == DGPB_RECORDER_EXIT_USAGE ? " (usage error)"
                             : status > 128 || status < 0       ? " (killed)"
                                                                : "");
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc = dgpb_file_read(d->output, MAX_LAYOUT, &bytes, &len, diag);
    return rc ? rc : recording_take_blob(d, bytes, len, blob, size, diag);
}

int recording_take_blob(const recording_desc *d, uint8_t *bytes, size_t len, uint8_t **blob,
                        size_t *size, dgpb_diag *diag)
{
    *blob = NULL;
    *size = 0;
    dgpb_layout *l = NULL;
    int rc = len > MAX_LAYOUT ? dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "a layout of %zu bytes",
                                              len)
                              : dgpb_layout_open(bytes, len, &l, diag);
    if (rc) {
        dgpb_diag_set_file(diag, d->output);
        dgpb_free(bytes);
        return rc;
    }
    dgpb_layout_close(l);
    *blob = bytes;
    *size = len;
    return DGPB_OK;
}

int recording_run(const recording_desc *d, uint8_t **blob, size_t *size, dgpb_diag *diag)
{
    *blob = NULL;
    *size = 0;
    recording_args args;
    int rc = recording_args_make(d, true, &args, diag);
    if (rc)
        return rc;
    dgpb_process p = DGPB_PROCESS_INIT;
    p.argv = args.argv;
    p.cwd = d->cwd;
    int status = process_run(&p, diag);
    if (status < 0)
        rc = diag ? diag->code : DGPB_ERR_TOOL;
    else
        rc = recording_collect(d, status, p.err, blob, size, diag);
    process_clear(&p);
    recording_args_free(&args);
    return rc;
}
