/*
 * diff.c - dgpb-dump --diff: prints the result of bundle_diff() (bundle/diff.h).
 *
 * One line per change, grouped by target and entry, "BREAKING" at the end of
 * every line that breaks a host's binding, then a summary line. The rules of
 * what is breaking live in the library; docs/diff.md describes both.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tool_common.h"
#include "dump.h"
#include "bundle/diff.h"

static const char *str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : "?";
}

/* s as text safe for a terminal (tool_text): a name's control characters escaped. */
static const char *shown(const char *s)
{
    return tool_text(s, strlen(s));
}

static double num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static int breaking(const cJSON *obj)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, "breaking"));
}

/* Prints a scalar or an array of scalars as "3", "'x'", "[8,8,1]", "[read_only]". */
static void value(FILE *out, const cJSON *v)
{
    if (cJSON_IsNumber(v)) {
        fprintf(out, "%" PRIu64, (uint64_t)v->valuedouble);
    } else if (cJSON_IsString(v)) {
        fputs(shown(v->valuestring), out);
    } else if (cJSON_IsArray(v)) {
        const cJSON *e;
        const char *sep = "";
        fputc('[', out);
        cJSON_ArrayForEach(e, v)
        {
            fputs(sep, out);
            value(out, e);
            sep = ",";
        }
        fputc(']', out);
    } else {
        fputs("none", out);
    }
}

static void old_new(FILE *out, const cJSON *c)
{
    value(out, cJSON_GetObjectItemCaseSensitive(c, "old"));
    fputs(" -> ", out);
    value(out, cJSON_GetObjectItemCaseSensitive(c, "new"));
}

/* "1234 -> 1302 bytes (+68), sha256 ab12cd34ef56.. -> ..." for a code or layout change. */
static void blob(FILE *out, const cJSON *c)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(c, "old");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "new");
    double delta = num(c, "size_delta");
    if (cJSON_IsObject(o))
        fprintf(out, "%.0f", num(o, "size"));
    else
        fputs("none", out);
    fputs(" -> ", out);
    if (cJSON_IsObject(n))
        fprintf(out, "%.0f", num(n, "size"));
    else
        fputs("none", out);
    fprintf(out, " bytes (%s%.0f), sha256 ", delta >= 0 ? "+" : "", delta);
    fprintf(out, "%.12s.. -> %.12s..", cJSON_IsObject(o) ? str(o, "sha256") : "none",
            cJSON_IsObject(n) ? str(n, "sha256") : "none");
}

/* A row's space or binding (`field`) as every listing spells it: the vocabulary's name of a
   reserved number (tool_space_text, tool_binding_text), else the number. */
static const char *place_text(const char *field, double v, char buf[16])
{
    uint32_t n = (uint32_t)v;
    return !strcmp(field, "space") ? tool_space_text(n, buf) : tool_binding_text(n, buf);
}

/* "old -> new" of a field that changed; a space or binding spelled as the listings do. */
static void field_change(FILE *out, const cJSON *c)
{
    const char *field = str(c, "field");
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(c, "old");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "new");
    if ((strcmp(field, "space") && strcmp(field, "binding")) || !cJSON_IsNumber(o) ||
        !cJSON_IsNumber(n)) {
        old_new(out, c);
        return;
    }
    char b1[16], b2[16];
    fprintf(out, "%s -> %s", place_text(field, o->valuedouble, b1),
            place_text(field, n->valuedouble, b2));
}

static void param(FILE *out, const cJSON *c)
{
    const char *how = str(c, "change");
    const char *name = str(c, "name");
    int index = (int)num(c, "index");
    if (!strcmp(how, "added")) {
        const cJSON *row = cJSON_GetObjectItemCaseSensitive(c, "new");
        char b1[16], b2[16];
        fprintf(out, "param #%d '%s' added (%s, space %s, binding %s)", index, shown(name),
                shown(str(row, "kind")), place_text("space", num(row, "space"), b1),
                place_text("binding", num(row, "binding"), b2));
    } else if (!strcmp(how, "removed")) {
        fprintf(out, "param #%d '%s' removed", index, shown(name));
    } else if (!strcmp(how, "moved")) {
        fprintf(out, "param '%s': row #%.0f -> #%d", shown(name), num(c, "old_index"), index);
    } else {
        fprintf(out, "param #%d '%s': %s ", index, shown(name), shown(str(c, "field")));
        field_change(out, c);
    }
}

void dump_diff_change(FILE *out, const cJSON *c)
{
    const char *what = str(c, "what");
    if (!strcmp(what, "param")) {
        param(out, c);
    } else if (!strcmp(what, "capability")) {
        fprintf(out, "capability '%s' %s", shown(str(c, "name")), shown(str(c, "change")));
    } else if (!strcmp(what, "code")) {
        fputs("code ", out);
        blob(out, c);
    } else if (!strcmp(what, "layout") && cJSON_GetObjectItemCaseSensitive(c, "index")) {
        fprintf(out, "layout #%.0f %s, ", num(c, "index"), str(c, "change"));
        blob(out, c);
    } else if (!strcmp(what, "layout")) {
        fputs("layout index ", out);
        old_new(out, c);
    } else if (!strcmp(what, "thread_group_size")) {
        fputs("thread group size ", out);
        old_new(out, c);
    } else if (!strcmp(what, "order")) {
        fputs("entry order ", out);
        old_new(out, c);
    } else if (!strcmp(what, "option")) {
        fprintf(out, "%s ", shown(str(c, "name")));
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(c, "old");
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(c, "new");
        fputs(cJSON_IsString(o) ? shown(o->valuestring) : "default", out);
        fputs(" -> ", out);
        fputs(cJSON_IsString(n) ? shown(n->valuestring) : "default", out);
    } else if (!strcmp(what, "code_format")) {
        fputs("code format ", out);
        old_new(out, c);
    } else {
        fprintf(out, "%s ", shown(what));
        old_new(out, c);
    }
}

static void change_line(FILE *out, const char *prefix, const cJSON *c)
{
    fprintf(out, "%s: ", shown(prefix));
    dump_diff_change(out, c);
    fputs(breaking(c) ? "  BREAKING\n" : "\n", out);
}

static const char *plural(double n)
{
    return n == 1 ? "" : "s";
}

void dump_diff_text(FILE *out, const struct cJSON *result)
{
    fprintf(out, "--- %s\n+++ %s\n", shown(str(result, "old")), shown(str(result, "new")));
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(result, "options"))
    {
        change_line(out, "options", t);
    }
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(result, "targets"))
    {
        const char *tname = str(t, "name");
        const char *how = str(t, "change");
        if (strcmp(how, "changed") != 0) {
            fprintf(out, "%s: target %s%s\n", shown(tname), shown(how),
                    breaking(t) ? "  BREAKING" : "");
            continue;
        }
        const cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(t, "changes"))
        {
            change_line(out, tname, c);
        }
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(t, "layouts"))
        {
            change_line(out, tname, c);
        }
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(t, "entries"))
        {
            char prefix[2 * DGPB_MAX_STRING + 2];
            snprintf(prefix, sizeof prefix, "%s/%s", tname, str(e, "name"));
            const char *ehow = str(e, "change");
            if (strcmp(ehow, "changed") != 0) {
                fprintf(out, "%s: entry %s%s\n", shown(prefix), shown(ehow),
                        breaking(e) ? "  BREAKING" : "");
                continue;
            }
            cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(e, "changes"))
            {
                change_line(out, prefix, c);
            }
        }
    }
    dump_diff_summary(out, result);
    fputc('\n', out);
}

void dump_diff_summary(FILE *out, const struct cJSON *result)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(result, "summary");
    double nb = num(s, "breaking"), nc = num(s, "code_only"), no = num(s, "other");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "equivalent"))) {
        fputs("equivalent: no changes", out);
        return;
    }
    fprintf(out, "%.0f breaking change%s, %.0f code-only change%s", nb, plural(nb), nc, plural(nc));
    if (no > 0)
        fprintf(out, ", %.0f other change%s", no, plural(no));
}

/* Prints a failed side's diagnostic; returns the exit status --diff gives it. */
static int side_error(const dgpb_diag *d, const char *path)
{
    tool_print_diag(d, path);
    /* Exit status 1 means "different" here, so a damaged input is 3 like an unreadable one;
       a file of neither kind is a usage error. */
    return dgpb_result_class(d->code) == DGPB_ERR_UNSUPPORTED ? DUMP_DIFF_USAGE : DUMP_DIFF_IO;
}

/* Writes the output to `output` (atomically) or standard output. */
static int write_out(const char *output, const char *text, size_t len)
{
    if (output) {
        dgpb_diag d;
        dgpb_diag_clear(&d);
        return dgpb_file_write_atomic(output, text, len, &d) ? side_error(&d, output) : 0;
    }
    if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
        fprintf(stderr, "dgpb-dump: cannot write to standard output\n");
        return DUMP_DIFF_IO;
    }
    return 0;
}

int dump_diff(const char *old_path, const char *new_path, bool json, const char *output)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    dgpb_diff_side *o = NULL, *n = NULL;
    cJSON *result = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = DUMP_DIFF_IO;
    if (diff_side_open(old_path, &o, &d)) {
        rc = side_error(&d, old_path);
        goto done;
    }
    if (diff_side_open(new_path, &n, &d)) {
        rc = side_error(&d, new_path);
        goto done;
    }
    if (bundle_diff(o, n, &result, &d)) {
        rc = side_error(&d, new_path);
        goto done;
    }
    FILE *mem = open_memstream(&text, &len);
    if (mem) {
        if (json) {
            char *printed = cJSON_Print(result);
            if (printed)
                fprintf(mem, "%s\n", printed);
            else
                d.code = DGPB_ERR_NOMEM;
            cJSON_free(printed);
        } else {
            dump_diff_text(mem, result);
        }
    }
    if (!mem || fclose(mem) != 0 || d.code == DGPB_ERR_NOMEM) {
        fprintf(stderr, "dgpb-dump: out of memory\n");
        goto done;
    }
    rc = write_out(output, text, len);
    if (rc == 0)
        rc = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "equivalent"))
                 ? DUMP_DIFF_SAME
                 : DUMP_DIFF_DIFFERENT;
done:
    diff_side_close(o);
    diff_side_close(n);
    cJSON_Delete(result);
    free(text);
    return rc;
}
