/*
 * list.c - `dgpb-build --list` (list.h): the entries of dgpb_build_list()
 * as aligned text lines or as one JSON document. The names come from the
 * vocabulary (dgpb_stage_name(), dgpb_target_name()), in the bundle's
 * target order.
 */
#include "list.h"

#include <string.h>

#include "dgpb/format.h"

/* Names wider than this do not widen the name column (entry names reach 4096 bytes). */
#define LIST_NAME_COLUMN_MAX 40

static void print_targets(FILE *out, uint32_t targets, const char *sep, bool quoted)
{
    if (!targets && !quoted) {
        fputc('-', out);
        return;
    }
    const char *s = "";
    for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++)
        if (targets & (1u << t)) {
            fprintf(out, quoted ? "%s\"%s\"" : "%s%s", s, dgpb_target_name(t));
            s = sep;
        }
}

static void size_text(const dgpb_listed_entry *e, char *buf, size_t size)
{
    if (dgpb_stage_has_thread_group(e->stage))
        snprintf(buf, size, "[%u,%u,%u]", e->thread_group_size[0], e->thread_group_size[1],
                 e->thread_group_size[2]);
    else
        snprintf(buf, size, "-");
}

void list_print_text(FILE *out, const dgpb_entry_list *list)
{
    int name_w = 0, stage_w = 0, size_w = 0, group_w = 0;
    for (size_t i = 0; i < list->entry_count; i++) {
        const dgpb_listed_entry *e = &list->entries[i];
        char size[40];
        size_text(e, size, sizeof size);
        int n = (int)strlen(e->name);
        name_w = n > name_w ? (n < LIST_NAME_COLUMN_MAX ? n : LIST_NAME_COLUMN_MAX) : name_w;
        n = (int)strlen(dgpb_stage_name(e->stage));
        stage_w = n > stage_w ? n : stage_w;
        n = (int)strlen(size);
        size_w = n > size_w ? n : size_w;
        n = (int)strlen(list->groups[e->group].label);
        group_w = n > group_w ? n : group_w;
    }
    for (size_t i = 0; i < list->entry_count; i++) {
        const dgpb_listed_entry *e = &list->entries[i];
        char size[40];
        size_text(e, size, sizeof size);
        fprintf(out, "%-*s  %-*s  %-*s  %-*s  ", name_w, e->name, stage_w,
                dgpb_stage_name(e->stage), size_w, size, group_w, list->groups[e->group].label);
        print_targets(out, e->targets, " ", false);
        fputc('\n', out);
        for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++)
            if (e->not_built[t])
                fprintf(out, "    not on %s: %s\n", dgpb_target_name(t), e->not_built[t]);
    }
}

/* A JSON string: quotes, backslashes and control characters escaped; other bytes as they are. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

void list_print_json(FILE *out, const dgpb_entry_list *list, const char *module)
{
    fputs("{\n  \"module\": ", out);
    json_string(out, module);
    fprintf(out, ",\n  \"library\": %s", list->library ? "true" : "false");
    fputs(",\n  \"targets\": [", out);
    print_targets(out, list->targets, ", ", true);
    fputs("],\n  \"entries\": [", out);
    for (size_t i = 0; i < list->entry_count; i++) {
        const dgpb_listed_entry *e = &list->entries[i];
        fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
        json_string(out, e->name);
        fprintf(out, ", \"stage\": \"%s\", \"thread_group_size\": ", dgpb_stage_name(e->stage));
        if (dgpb_stage_has_thread_group(e->stage))
            fprintf(out, "[%u, %u, %u]", e->thread_group_size[0], e->thread_group_size[1],
                    e->thread_group_size[2]);
        else
            fputs("null", out);
        fprintf(out, ", \"group\": %u, \"targets\": [", e->group);
        print_targets(out, e->targets, ", ", true);
        fputs("], \"not_built\": {", out);
        const char *sep = "";
        for (uint32_t t = 0; t < DGPB_TARGET_COUNT; t++)
            if (e->not_built[t]) {
                fprintf(out, "%s\"%s\": ", sep, dgpb_target_name(t));
                json_string(out, e->not_built[t]);
                sep = ", ";
            }
        fputs("}}", out);
    }
    fputs(list->entry_count ? "\n  ],\n  \"groups\": [" : "],\n  \"groups\": [", out);
    for (size_t g = 0; g < list->group_count; g++) {
        fputs(g ? ",\n    {\"symbol\": " : "\n    {\"symbol\": ", out);
        json_string(out, list->groups[g].symbol);
        fputs(", \"label\": ", out);
        json_string(out, list->groups[g].label);
        fputs(", \"entries\": [", out);
        const char *sep = "";
        for (size_t i = 0; i < list->entry_count; i++)
            if (list->entries[i].group == g) {
                fputs(sep, out);
                json_string(out, list->entries[i].name);
                sep = ", ";
            }
        fputs("]}", out);
    }
    fputs(list->group_count ? "\n  ]\n}\n" : "]\n}\n", out);
}
