/*
 * layout_run.c - runs dgpb-slang-layout for one pipeline group and returns
 * the validated blob (dgpb/layout_run.h).
 */
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/layout.h"
#include "dgpb/layout_run.h"
#include "dgpb/process.h"

/* A layout blob larger than this is refused (u32 offsets in the bundle). */
#define MAX_LAYOUT ((size_t)0xFFFFFFFFu)

/* The recorder's standard error without its "program: error: " prefix and trailing newlines. */
static void message_of(const dgpb_process *p, char *buf, size_t n)
{
    const char *text = p->err && p->err[0] ? p->err : "(no message)";
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

int dgpb_layout_run(const dgpb_layout_run_desc *d, uint8_t **blob, size_t *size, dgpb_diag *diag)
{
    *blob = NULL;
    *size = 0;
    if (!d || !d->recorder || !d->module || !d->target || !d->output || !d->entry_count ||
        !d->entries)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                             "a layout run needs the recorder, module, target, output and at "
                             "least one entry");
    size_t max = 16 + 2 * d->define_count + 2 * d->include_dir_count + d->extra_arg_count +
                 4 * d->entry_count;
    const char **argv = mem_calloc(max, sizeof *argv);
    char **owned = mem_calloc(d->define_count + 1, sizeof *owned);
    int rc = DGPB_OK;
    dgpb_process p = DGPB_PROCESS_INIT;
    if (!argv || !owned) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto out;
    }
    size_t n = 0;
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
    argv[n++] = d->module;
    for (size_t i = 0; i < d->define_count; i++) {
        size_t len = strlen(d->defines[i]);
        owned[i] = mem_alloc(len + 3);
        if (!owned[i]) {
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            goto out;
        }
        memcpy(owned[i], "-D", 2);
        memcpy(owned[i] + 2, d->defines[i], len + 1);
        argv[n++] = owned[i];
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
            rc = dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "entry %zu has no name or stage", i);
            goto out;
        }
        argv[n++] = "-entry";
        argv[n++] = d->entries[i].name;
        argv[n++] = "-stage";
        argv[n++] = d->entries[i].stage;
    }
    argv[n++] = "-o";
    argv[n++] = d->output;
    argv[n] = NULL;

    p.argv = argv;
    p.cwd = d->cwd;
    int status = dgpb_process_run(&p, diag);
    if (status < 0) {
        rc = diag ? diag->code : DGPB_ERR_TOOL;
        goto out;
    }
    if (status != 0) {
        char msg[DGPB_DIAG_MESSAGE_MAX - 200];
        message_of(&p, msg, sizeof msg);
        int code = status == DGPB_RECORDER_EXIT_SHADER        ? DGPB_ERR_SHADER
                   : status == DGPB_RECORDER_EXIT_NO_LIBSLANG ? DGPB_ERR_UNSUPPORTED
                                                              : DGPB_ERR_TOOL;
        rc = dgpb_diag_set(diag, code, -1, "layout recorder (target %s, entry '%s'%s): %s%s",
                           d->target, d->entries[0].name, d->entry_count > 1 ? ", ..." : "", msg,
                           status == DGPB_RECORDER_EXIT_USAGE ? " (usage error)"
                           : status > 128                     ? " (killed)"
                                                              : "");
        goto out;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    rc = dgpb_file_read(d->output, MAX_LAYOUT, &bytes, &len, diag);
    if (rc)
        goto out;
    dgpb_layout *l = NULL;
    rc = dgpb_layout_open(bytes, len, &l, diag);
    if (rc) {
        dgpb_diag_set_file(diag, d->output);
        dgpb_free(bytes);
        goto out;
    }
    dgpb_layout_close(l);
    *blob = bytes;
    *size = len;
out:
    dgpb_process_clear(&p);
    for (size_t i = 0; owned && i < d->define_count; i++)
        dgpb_free(owned[i]);
    dgpb_free(owned);
    dgpb_free(argv);
    return rc;
}
