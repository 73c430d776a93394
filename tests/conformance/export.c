/*
 * tests/conformance/export.c - conformance-export: the cases as files for other hosts.
 *
 *   conformance-export DIR
 *
 * Writes every case of cases.c as DIR/<case>.json, its inputs as
 * DIR/<case>.<param>.in.bin and its expected outputs as
 * DIR/<case>.<param>.expected.bin (raw little-endian bytes), and the list of
 * cases as DIR/cases.json. The format is documented in docs/conformance.md;
 * the WebGPU and CUDA hosts read it. Exit status 0, 1 on a write error, 2 on
 * a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cases.h"
#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "support.h"

#define EXPORT_VERSION 1

static int write_file(const char *dir, const char *name, const void *data, size_t size)
{
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (support_write_output(dir, name, data, size, &diag)) {
        fprintf(stderr, "conformance-export: %s\n", diag.message);
        return -1;
    }
    return 0;
}

/* Writes one byte array as <case>.<param>.<what>.bin and names it in `obj` under `key`. */
static int write_bin(const char *dir, const conf_case *c, const conf_param *p, const char *what,
                     const uint8_t *bytes, cJSON *obj, const char *key)
{
    char name[256];
    snprintf(name, sizeof name, "%s.%s.%s.bin", c->name, p->name, what);
    if (write_file(dir, name, bytes, p->size))
        return -1;
    cJSON_AddStringToObject(obj, key, name);
    return 0;
}

static const char *kind_name(uint32_t kind)
{
    return kind == CONF_KIND_COLOR_ATTACHMENT ? "color_attachment" : dgpb_kind_name(kind);
}

static cJSON *numbers(const uint32_t *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static int export_case(const char *dir, const conf_case *c)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", EXPORT_VERSION);
    cJSON_AddStringToObject(root, "case", c->name);
    cJSON_AddStringToObject(root, "type", c->type == CONF_RENDER ? "render" : "compute");
    cJSON_AddStringToObject(root, "bundle", c->module);
    if (c->type == CONF_RENDER) {
        cJSON_AddStringToObject(root, "vertex", c->entry);
        cJSON_AddStringToObject(root, "fragment", c->fragment);
        cJSON_AddNumberToObject(root, "vertices", c->vertices);
    } else {
        cJSON_AddStringToObject(root, "entry", c->entry);
        cJSON_AddItemToObject(root, "threads", numbers(c->threads, 3));
        cJSON_AddNumberToObject(root, "repeat", c->repeat);
    }
    cJSON_AddNumberToObject(root, "elements", (double)c->elements);
    cJSON *params = cJSON_AddArrayToObject(root, "params");
    int rc = 0;
    for (uint32_t i = 0; i < c->param_count && !rc; i++) {
        const conf_param *p = &c->params[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(params, o);
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddStringToObject(o, "kind", kind_name(p->kind));
        if (p->format) {
            cJSON_AddStringToObject(o, "format", conf_format_name(p->format));
            cJSON_AddNumberToObject(o, "width", p->width);
            cJSON_AddNumberToObject(o, "height", p->height);
            if (p->dim != CONF_DIM_2D) {
                /* Textures other than 2D: their dimension, and depth, layers or 6 faces. */
                cJSON_AddStringToObject(o, "dimension", conf_dim_name(p->dim));
                cJSON_AddNumberToObject(o, "depth", p->depth);
            }
        }
        if (p->matrix_rows)
            cJSON_AddNumberToObject(o, "matrix_rows", p->matrix_rows);
        if (p->kind == DGPB_KIND_SAMPLER) {
            cJSON_AddStringToObject(o, "filter", "nearest");
            cJSON_AddStringToObject(o, "address", "clamp_to_edge");
            continue;
        }
        cJSON_AddNumberToObject(o, "size", (double)p->size);
        if (p->kind == DGPB_KIND_VALUE && p->input) {
            /* Values are short: their bytes inline too, as hex. */
            char hex[2 * 64 + 1] = "";
            for (size_t k = 0; k < p->size && k < 64; k++)
                snprintf(hex + 2 * k, 3, "%02x", p->input[k]);
            cJSON_AddStringToObject(o, "hex", hex);
        }
        if (p->input)
            rc = write_bin(dir, c, p, "in", p->input, o, "input");
        if (p->expected && !rc)
            rc = write_bin(dir, c, p, "expected", p->expected, o, "expected");
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return -1;
    char name[256];
    snprintf(name, sizeof name, "%s.json", c->name);
    size_t len = strlen(text);
    text[len] = '\n'; /* cJSON's buffer always has room for the terminator */
    if (!rc)
        rc = write_file(dir, name, text, len + 1);
    cJSON_free(text);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: conformance-export DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    if (dgpb_mkdirs(dir, &diag)) {
        fprintf(stderr, "conformance-export: %s\n", diag.message);
        return 1;
    }
    conf_suite suite;
    if (conf_suite_build(&suite)) {
        fprintf(stderr, "conformance-export: out of memory\n");
        return 1;
    }
    int rc = 0;
    cJSON *index = cJSON_CreateObject();
    cJSON_AddNumberToObject(index, "version", EXPORT_VERSION);
    cJSON *list = cJSON_AddArrayToObject(index, "cases");
    for (size_t i = 0; i < suite.count && !rc; i++) {
        rc = export_case(dir, &suite.cases[i]);
        cJSON_AddItemToArray(list, cJSON_CreateString(suite.cases[i].name));
    }
    char *text = cJSON_Print(index);
    cJSON_Delete(index);
    if (!rc && text) {
        size_t len = strlen(text);
        text[len] = '\n';
        rc = write_file(dir, "cases.json", text, len + 1);
    }
    cJSON_free(text);
    if (!rc)
        printf("conformance-export: %zu cases written to %s\n", suite.count, dir);
    conf_suite_free(&suite);
    return rc ? 1 : 0;
}
