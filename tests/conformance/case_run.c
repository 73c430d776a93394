/*
 * tests/conformance/case_run.c - a conformance case as a run request, and
 * its outputs compared with the references (see case_run.h).
 */
#include "case_run.h"

#include <stdio.h>
#include <string.h>

/* Compares an output word for word; notes the first differences in r->message. */
static void compare(const char *name, const uint8_t *got, size_t got_size, const uint8_t *want,
                    size_t size, conf_result *r)
{
    size_t words = size / 4, shown = 0;
    uint64_t exact = 0;
    char *m = r->message;
    if (!got || got_size < size) {
        snprintf(m, sizeof r->message, "%s: %zu bytes read back, %zu expected", name, got_size,
                 size);
        r->words += words;
        r->pass = false;
        return;
    }
    for (size_t i = 0; i < words; i++) {
        uint32_t g, w;
        memcpy(&g, got + 4 * i, 4);
        memcpy(&w, want + 4 * i, 4);
        if (g == w) {
            exact++;
            continue;
        }
        if (shown < 4) {
            size_t len = strlen(m);
            snprintf(m + len, sizeof r->message - len, "%s%s[%zu] = 0x%08x, expected 0x%08x",
                     len ? "; " : "", name, i, g, w);
        }
        shown++;
    }
    r->words += words;
    r->exact += exact;
    if (exact != words)
        r->pass = false;
}

void conf_run_case(dgpb_runner *runner, const char *bundle_dir, const conf_case *c, conf_result *r)
{
    memset(r, 0, sizeof *r);
    dgpb_run_param params[CONF_MAX_PARAMS];
    memset(params, 0, sizeof params);
    for (uint32_t i = 0; i < c->param_count; i++) {
        const conf_param *cp = &c->params[i];
        dgpb_run_param *p = &params[i];
        p->name = cp->name;
        p->kind =
            cp->kind == CONF_KIND_COLOR_ATTACHMENT ? DGPB_RUN_KIND_COLOR_ATTACHMENT : cp->kind;
        if (cp->format) {
            p->format = (uint32_t)dgpb_run_format_from_name(conf_format_name(cp->format));
            p->dim = (uint32_t)dgpb_run_dim_from_name(conf_dim_name(cp->dim));
        }
        p->width = cp->width;
        p->height = cp->height;
        p->depth = cp->depth;
        p->matrix_rows = cp->matrix_rows;
        p->size = cp->size;
        p->input = cp->input;
    }
    dgpb_run_request req = {
        .entry = c->entry,
        .fragment = c->type == CONF_RENDER ? c->fragment : NULL,
        .threads = {c->threads[0], c->threads[1], c->threads[2]},
        .vertices = c->vertices,
        .repeat = c->repeat,
        .param_count = c->param_count,
        .params = params,
    };
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.dgpb", bundle_dir, c->module);
    dgpb_run_result res;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    r->code = dgpb_runner_run(runner, path, &req, &res, &d);
    if (r->code) {
        dgpb_diag_format(&d, r->message, sizeof r->message);
        dgpb_run_result_free(&res);
        return;
    }
    r->pass = true;
    if (!res.ran) {
        dgpb_run_result_free(&res);
        return; /* the pipeline was created, nothing drawn */
    }
    r->checked = true;
    for (uint32_t i = 0; i < c->param_count; i++) {
        const conf_param *cp = &c->params[i];
        if (cp->expected)
            compare(cp->name, res.outputs[i].data, res.outputs[i].size, cp->expected, cp->size, r);
    }
    dgpb_run_result_free(&res);
}
