/*
 * tools/dgpb-run/output.c - how dgpb-run shows a run: the --list listing,
 * outputs as text lines (NAME=TYPE:V1,V2,..., the form --expect reads), the
 * dispatch times, mismatches, and the whole run as one JSON object
 * (docs/run.md gives its schema).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "common/tool_common.h"
#include "dgpb/alloc.h"
#include "dgpb/format.h"
#include "run_tool.h"

/* The fields of struct value `name` (docs/run.md, "Values"), one line each: its name as
   --set takes it ([i]: any element), its offset in the row, its size and type. */
static void list_fields(const dgpb_bundle *b, const dgpb_target_view *t, const char *entry,
                        const char *name)
{
    dgpb_run_value_field *fields = NULL;
    uint32_t count = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_run_value_fields(b, t, entry, name, &fields, &count, &d))
        return;
    for (uint32_t i = 0; i < count; i++) {
        char full[600];
        snprintf(full, sizeof full, "%s%s", name, fields[i].path);
        printf("    %-22s %-15s offset %u size %u type %s\n", tool_text(full, strlen(full)),
               "field", fields[i].offset, fields[i].size,
               tool_text(fields[i].text, strlen(fields[i].text)));
    }
    dgpb_free(fields);
}

/* The type of value row `p` of entry `e` as --set reads it, in *info; false where no code
   states it (--set takes TYPE:). */
static bool value_type(const dgpb_bundle *b, const dgpb_target_view *t, const dgpb_entry_view *e,
                       const dgpb_param_view *p, dgpb_run_value_info *info)
{
    char entry[256], name[256];
    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
    snprintf(name, sizeof name, "%.*s", (int)p->name.len, p->name.ptr);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    bool known = !dgpb_run_value_type(b, t, entry, name, info, &d) &&
                 (info->scalar || info->aggregate);
    return known && !(info->aggregate && !info->scalar && !strcmp(info->text, "struct"));
}

/* The attributes vertex entry `e` reads (none for another stage), as dgpb-run feeds them:
   *attrs (dgpb_free) and their count. */
static uint32_t attributes(const dgpb_target_view *t, const dgpb_entry_view *e,
                           dgpb_run_vertex_attribute **attrs)
{
    *attrs = NULL;
    uint32_t n = 0;
    char entry[256];
    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
    if (e->stage_id == DGPB_STAGE_VERTEX)
        dgpb_run_vertex_attributes(t, entry, attrs, &n, NULL);
    return n;
}

void tool_list(const dgpb_bundle *b, const dgpb_target_view *t, const char *bundle)
{
    printf("%s: target %s (%s), %u %s\n", tool_text(bundle, strlen(bundle)),
           tool_text(t->name.ptr, t->name.len), tool_text(t->code_format.ptr, t->code_format.len),
           t->entry_count, t->entry_count == 1 ? "entry" : "entries");
    for (uint32_t i = 0; i < t->entry_count; i++) {
        const dgpb_entry_view *e = &t->entries[i];
        printf("entry %s (%s) [%u,%u,%u]", tool_text(e->name.ptr, e->name.len),
               tool_text(e->stage.ptr, e->stage.len), e->thread_group_size[0],
               e->thread_group_size[1], e->thread_group_size[2]);
        for (uint32_t c = 0; c < e->capability_count; c++)
            printf("%s%s", c ? "," : " needs ",
                   tool_text(e->capabilities[c].ptr, e->capabilities[c].len));
        printf("\n");
        for (uint32_t r = 0; r < e->param_count; r++) {
            const dgpb_param_view *p = &e->params[r];
            printf("  %-24s %-15s space ", tool_text(p->name.ptr, p->name.len),
                   dgpb_kind_name(p->kind));
            char sp[16];
            printf("%s", tool_space_text(p->space, sp));
            printf(" binding %s", tool_binding_text(p->binding, sp));
            char shape[96];
            if (dgpb_kind_has_shape(p->kind))
                printf(" shape %s size %u", dgpb_shape_text(p->offset, shape, sizeof shape),
                       p->size);
            else
                printf(" offset %u size %u", p->offset, p->size);
                /* Every set flag but read_only, which the kind says. */
#define DGPB_FLAG(ID, bit, name, brief, ACCESS)                                                    \
    if (DGPB_FLAG_##ID != DGPB_FLAG_READ_ONLY && (p->flags & DGPB_FLAG_##ID))                      \
        printf(" " name);
#include "dgpb/vocabulary.def"

            if (p->kind == DGPB_KIND_VALUE) { /* its type, as --set reads numbers */
                dgpb_run_value_info info;
                bool known = value_type(b, t, e, p, &info);
                if (!known)
                    printf(" type unknown (--set takes TYPE:)");
                else
                    printf(" type %s%s%s%s", tool_text(info.text, strlen(info.text)),
                           info.lent_by[0] ? " (from " : "",
                           tool_text(info.lent_by, strlen(info.lent_by)),
                           info.lent_by[0] ? ")" : "");
                printf("\n");
                if (known && info.aggregate) {
                    char entry[256], name[256];
                    snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
                    snprintf(name, sizeof name, "%.*s", (int)p->name.len, p->name.ptr);
                    list_fields(b, t, entry, name);
                }
                continue;
            }
            printf("\n");
        }
        /* A vertex entry's attributes, as --vertices NAME=FORMAT:... names and types them. */
        dgpb_run_vertex_attribute *attrs;
        uint32_t n = attributes(t, e, &attrs);
        for (uint32_t a = 0; a < n; a++)
            printf("  %-24s %-15s location %u type %s\n",
                   tool_text(attrs[a].name, strlen(attrs[a].name)), "attribute",
                   attrs[a].location, tool_text(attrs[a].type, strlen(attrs[a].type)));
        dgpb_free(attrs);
    }
}

/* `"key": "text"` (text as a JSON string, whatever its bytes), then `tail`. */
static void json_key(const char *key, const char *s, size_t n, const char *tail)
{
    char *text = malloc(n + 1);
    printf("\"%s\": ", key);
    if (text) {
        memcpy(text, s, n);
        text[n] = 0;
        tool_json_string(stdout, text);
    } else {
        printf("\"\"");
    }
    free(text);
    printf("%s", tail);
}

/* One row of --list --json: its table fields, a value's type and fields. */
static void list_row_json(const dgpb_bundle *b, const dgpb_target_view *t,
                          const dgpb_entry_view *e, const dgpb_param_view *p)
{
    printf("{");
    json_key("name", p->name.ptr, p->name.len, ", ");
    printf("\"kind\": \"%s\", \"space\": %u, \"binding\": %u, \"offset\": %u, \"size\": %u",
           dgpb_kind_name(p->kind), p->space, p->binding, p->offset, p->size);
    char shape[96];
    if (dgpb_kind_has_shape(p->kind))
        printf(", \"shape\": \"%s\"", dgpb_shape_text(p->offset, shape, sizeof shape));
    printf(", \"flags\": [");
    int flags = 0;
#define DGPB_FLAG(ID, bit, name, brief, ACCESS)                                                    \
    if (p->flags & DGPB_FLAG_##ID)                                                                 \
        printf("%s\"" name "\"", flags++ ? ", " : "");
#include "dgpb/vocabulary.def"
    printf("]");
    if (p->kind == DGPB_KIND_VALUE) {
        dgpb_run_value_info info;
        if (!value_type(b, t, e, p, &info)) {
            printf(", \"type\": null}");
            return;
        }
        printf(", ");
        json_key("type", info.text, strlen(info.text), "");
        if (info.lent_by[0]) {
            printf(", ");
            json_key("type_from", info.lent_by, strlen(info.lent_by), "");
        }
        char entry[256], name[256];
        snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
        snprintf(name, sizeof name, "%.*s", (int)p->name.len, p->name.ptr);
        dgpb_run_value_field *fields = NULL;
        uint32_t count = 0;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        if (info.aggregate && !dgpb_run_value_fields(b, t, entry, name, &fields, &count, &d)) {
            printf(", \"fields\": [");
            for (uint32_t i = 0; i < count; i++) {
                char full[600];
                snprintf(full, sizeof full, "%s%s", name, fields[i].path);
                printf("%s{", i ? ", " : "");
                json_key("name", full, strlen(full), ", ");
                printf("\"offset\": %u, \"size\": %u, ", fields[i].offset, fields[i].size);
                json_key("type", fields[i].text, strlen(fields[i].text), "}");
            }
            printf("]");
        }
        dgpb_free(fields);
    }
    printf("}");
}

void tool_list_json(const dgpb_bundle *b, const dgpb_target_view *t, const char *bundle)
{
    printf("{\n  ");
    json_key("bundle", bundle, strlen(bundle), ",\n  ");
    json_key("target", t->name.ptr, t->name.len, ",\n  ");
    json_key("code_format", t->code_format.ptr, t->code_format.len, ",\n  \"entries\": [");
    for (uint32_t i = 0; i < t->entry_count; i++) {
        const dgpb_entry_view *e = &t->entries[i];
        printf("%s\n    {", i ? "," : "");
        json_key("name", e->name.ptr, e->name.len, ", ");
        json_key("stage", e->stage.ptr, e->stage.len, ", ");
        printf("\"thread_group_size\": [%u, %u, %u],\n     \"capabilities\": [",
               e->thread_group_size[0], e->thread_group_size[1], e->thread_group_size[2]);
        for (uint32_t c = 0; c < e->capability_count; c++) {
            printf("%s", c ? ", " : "");
            char *cap = malloc(e->capabilities[c].len + 1);
            if (cap) {
                memcpy(cap, e->capabilities[c].ptr, e->capabilities[c].len);
                cap[e->capabilities[c].len] = 0;
                tool_json_string(stdout, cap);
            }
            free(cap);
        }
        printf("],\n     \"params\": [");
        for (uint32_t r = 0; r < e->param_count; r++) {
            printf("%s\n       ", r ? "," : "");
            list_row_json(b, t, e, &e->params[r]);
        }
        printf("]");
        if (e->stage_id == DGPB_STAGE_VERTEX) {
            dgpb_run_vertex_attribute *attrs;
            uint32_t n = attributes(t, e, &attrs);
            printf(",\n     \"vertex_attributes\": [");
            for (uint32_t a = 0; a < n; a++) {
                printf("%s\n       {", a ? "," : "");
                json_key("name", attrs[a].name, strlen(attrs[a].name), ", ");
                printf("\"location\": %u, ", attrs[a].location);
                json_key("type", attrs[a].type, strlen(attrs[a].type), "}");
            }
            printf("]");
            dgpb_free(attrs);
        }
        printf("}");
    }
    printf("\n  ]\n}\n");
}

/* A writable kind of the vocabulary (vocabulary.def's WRITABLE rows), or an attachment. */
static bool writable(uint32_t kind)
{
    return dgpb_kind_writable(kind) || kind == DGPB_RUN_KIND_COLOR_ATTACHMENT ||
           kind == DGPB_RUN_KIND_DEPTH_ATTACHMENT;
}

/* The outputs to show: the --print list, or (by default) every writable parameter as hex. */
static uint32_t shown_outputs(const tool_options *o, const dgpb_run_result *res, bool by_default,
                              tool_output *out)
{
    if (o->print_count) {
        memcpy(out, o->prints, o->print_count * sizeof *out);
        return o->print_count;
    }
    uint32_t n = 0;
    if (!by_default)
        return 0;
    for (uint32_t i = 0; i < res->output_count; i++)
        if (writable(res->outputs[i].kind) && res->outputs[i].data) {
            memset(&out[n], 0, sizeof out[n]);
            out[n].name = o->params[i].name;
            out[n++].type = DGPB_VALUE_HEX;
        }
    return n;
}

static uint32_t print_type(int type)
{
    return type < 0 ? DGPB_VALUE_HEX : (uint32_t)type;
}

/* "got X, expected Y" of element `k` of an expectation. */
static void describe_first(const tool_output *t, const dgpb_run_output *out, uint32_t type,
                           const dgpb_value_compare *c, char *buf, size_t n)
{
    size_t elem = dgpb_value_type_size(type), at = c->first * elem;
    char got[64] = "", want[64] = "";
    if (at + elem <= out->size && at + elem <= t->size) {
        dgpb_value_format_one(type, out->data + at, got, sizeof got);
        dgpb_value_format_one(type, t->bytes + at, want, sizeof want);
    } else if (at < out->size && at < t->size) {
        snprintf(got, sizeof got, "0x%02x", out->data[at]);
        snprintf(want, sizeof want, "0x%02x", t->bytes[at]);
    }
    snprintf(buf, n, "first at [%zu]: got %s, expected %s", c->first, got, want);
}

void tool_print_text(const tool_options *o, const dgpb_run_result *res,
                     const tool_verdict *verdicts)
{
    tool_output shown[DGPB_RUN_MAX_PARAMS];
    bool by_default = !o->quiet && !o->out_count && !o->expect_count;
    uint32_t n = shown_outputs(o, res, by_default, shown);
    for (uint32_t i = 0; i < n; i++) {
        const dgpb_run_output *out = &res->outputs[tool_param_index(o, shown[i].name)];
        uint32_t type = print_type(shown[i].type);
        char *text = NULL;
        if (dgpb_value_format(type, out->data, out->size, &text)) {
            fprintf(stderr, "dgpb-run: out of memory\n");
            continue;
        }
        printf("%s=%s:%s\n", shown[i].name, dgpb_value_type_name(type), text);
        dgpb_free(text);
    }
    if (res->time_count) {
        double min, median, mean;
        dgpb_time_stats(res->times_ms, res->time_count, &min, &median, &mean);
        printf("time: %u dispatches, min %.6f ms, median %.6f ms, mean %.6f ms\n", res->time_count,
               min, median, mean);
        for (uint32_t i = 0; o->verbose && i < res->time_count; i++)
            fprintf(stderr, "dgpb-run: dispatch %u: %.6f ms\n", i + 1, res->times_ms[i]);
    }
    for (uint32_t i = 0; i < o->expect_count; i++) {
        const tool_output *t = &o->expects[i];
        const dgpb_run_output *out = &res->outputs[tool_param_index(o, t->name)];
        uint32_t type = t->type < 0 ? DGPB_VALUE_HEX : (uint32_t)t->type;
        const dgpb_value_compare *c = &verdicts[i].cmp;
        const char *unit = t->type < 0 ? "words" : dgpb_value_type_name(type);
        if (verdicts[i].match) {
            if (o->verbose)
                fprintf(stderr, "dgpb-run: '%s' matches its expectation (%zu %s)\n", t->name,
                        c->compared, unit);
            continue;
        }
        if (c->too_long && !c->mismatches) {
            fprintf(stderr,
                    "dgpb-run: '%s' differs from its expectation: %zu bytes expected, the output "
                    "has %zu\n",
                    t->name, t->size, out->size);
            continue;
        }
        char first[256];
        describe_first(t, out, type, c, first, sizeof first);
        fprintf(stderr, "dgpb-run: '%s' differs from its expectation: %zu of %zu %s differ; %s%s\n",
                t->name, c->mismatches, c->compared, unit, first,
                c->too_long ? "; the expectation is longer than the output" : "");
    }
}

/* ---- JSON ------------------------------------------------------------------ */

static cJSON *xyz(const uint32_t v[3])
{
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < 3; k++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[k]));
    return a;
}

/* One element as a JSON value: numbers where they are exact, else strings. */
static cJSON *element_json(uint32_t type, const uint8_t *e)
{
    char buf[64];
    switch (type) {
    case DGPB_VALUE_F32:
    case DGPB_VALUE_F16:
    case DGPB_VALUE_F64: {
        dgpb_value_format_one(type, e, buf, sizeof buf);
        double v = strtod(buf, NULL);
        if (isnan(v) || isinf(v))
            return cJSON_CreateString(buf);
        return cJSON_CreateRaw(buf); /* the shortest text that reads back the same */
    }
    case DGPB_VALUE_U32:
    case DGPB_VALUE_I32:
    case DGPB_VALUE_U8:
    case DGPB_VALUE_U16:
    case DGPB_VALUE_I16:
    case DGPB_VALUE_I8:
        dgpb_value_format_one(type, e, buf, sizeof buf);
        return cJSON_CreateRaw(buf);
    default: /* hex words, and 64-bit integers (beyond a double's 53 bits) */
        dgpb_value_format_one(type, e, buf, sizeof buf);
        return cJSON_CreateString(buf);
    }
}

static cJSON *values_json(uint32_t type, const uint8_t *data, size_t size)
{
    cJSON *a = cJSON_CreateArray();
    size_t elem = dgpb_value_type_size(type);
    for (size_t i = 0; i + elem <= size; i += elem)
        cJSON_AddItemToArray(a, element_json(type, data + i));
    for (size_t i = size - size % elem; i < size; i++) {
        char buf[8];
        snprintf(buf, sizeof buf, "0x%02x", data[i]);
        cJSON_AddItemToArray(a, cJSON_CreateString(buf));
    }
    return a;
}

void tool_print_json(const tool_options *o, const dgpb_runner *runner, const dgpb_run_result *res,
                     const tool_verdict *verdicts, const char *error, int status)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "bundle", o->bundle ? o->bundle : "");
    cJSON_AddStringToObject(j, "api", o->api);
    cJSON_AddStringToObject(j, "target", dgpb_backend_target(o->backend));
    cJSON_AddStringToObject(j, "entry", o->entry ? o->entry : "");
    if (o->entry_count > 1) { /* a render pipeline: its entries in pipeline order */
        cJSON *names = cJSON_AddArrayToObject(j, "entries");
        for (uint32_t k = 0; k < o->entry_count; k++)
            cJSON_AddItemToArray(names, cJSON_CreateString(o->entries[k]));
    }
    if (runner) {
        cJSON_AddStringToObject(j, "device", dgpb_runner_device_name(runner));
        cJSON_AddStringToObject(j, "driver", dgpb_runner_driver(runner));
    }
    if (res && res->ran) {
        cJSON_AddItemToObject(j, "thread_group_size", xyz(res->thread_group_size));
        cJSON_AddItemToObject(j, "groups", xyz(res->groups));
        cJSON_AddNumberToObject(j, "dispatches", res->dispatches);
        if (res->vertices)
            cJSON_AddNumberToObject(j, "vertices", res->vertices);
        if (res->time_count) {
            double min, median, mean;
            dgpb_time_stats(res->times_ms, res->time_count, &min, &median, &mean);
            cJSON *t = cJSON_AddObjectToObject(j, "time_ms");
            cJSON *all = cJSON_AddArrayToObject(t, "dispatches");
            for (uint32_t i = 0; i < res->time_count; i++)
                cJSON_AddItemToArray(all, cJSON_CreateNumber(res->times_ms[i]));
            cJSON_AddNumberToObject(t, "min", min);
            cJSON_AddNumberToObject(t, "median", median);
            cJSON_AddNumberToObject(t, "mean", mean);
        }
        tool_output shown[DGPB_RUN_MAX_PARAMS];
        uint32_t n = shown_outputs(o, res, true, shown);
        cJSON *outs = cJSON_AddArrayToObject(j, "outputs");
        for (uint32_t i = 0; i < n; i++) {
            const dgpb_run_output *out = &res->outputs[tool_param_index(o, shown[i].name)];
            uint32_t type = print_type(shown[i].type);
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "name", shown[i].name);
            cJSON_AddStringToObject(x, "kind",
                                    out->kind == DGPB_RUN_KIND_COLOR_ATTACHMENT ? "color_attachment"
                                    : out->kind == DGPB_RUN_KIND_DEPTH_ATTACHMENT
                                        ? "depth_attachment"
                                        : dgpb_kind_name(out->kind));
            cJSON_AddNumberToObject(x, "size", (double)out->size);
            cJSON_AddStringToObject(x, "type", dgpb_value_type_name(type));
            cJSON_AddItemToObject(x, "values", values_json(type, out->data, out->size));
            cJSON_AddItemToArray(outs, x);
        }
        cJSON *exps = cJSON_AddArrayToObject(j, "expect");
        for (uint32_t i = 0; i < o->expect_count; i++) {
            const tool_output *t = &o->expects[i];
            const dgpb_run_output *out = &res->outputs[tool_param_index(o, t->name)];
            uint32_t type = t->type < 0 ? DGPB_VALUE_HEX : (uint32_t)t->type;
            const dgpb_value_compare *c = &verdicts[i].cmp;
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "name", t->name);
            cJSON_AddStringToObject(x, "type", t->type < 0 ? "bytes" : dgpb_value_type_name(type));
            cJSON_AddBoolToObject(x, "match", verdicts[i].match);
            cJSON_AddNumberToObject(x, "compared", (double)c->compared);
            cJSON_AddNumberToObject(x, "mismatches", (double)c->mismatches);
            if (c->too_long)
                cJSON_AddBoolToObject(x, "expectation_too_long", true);
            if (c->mismatches) {
                size_t elem = dgpb_value_type_size(type), at = c->first * elem;
                cJSON_AddNumberToObject(x, "first", (double)c->first);
                if (at + elem <= out->size && at + elem <= t->size) {
                    cJSON_AddItemToObject(x, "got", element_json(type, out->data + at));
                    cJSON_AddItemToObject(x, "expected", element_json(type, t->bytes + at));
                }
            }
            cJSON_AddItemToArray(exps, x);
        }
    }
    if (error)
        cJSON_AddStringToObject(j, "error", error);
    cJSON_AddNumberToObject(j, "exit", status);
    char *text = cJSON_Print(j);
    if (text)
        printf("%s\n", text);
    else
        fprintf(stderr, "dgpb-run: out of memory\n");
    cJSON_free(text);
    cJSON_Delete(j);
}
