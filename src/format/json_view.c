/*
 * json_view.c - the readable .bundle.json view (dgpb/json_view.h).
 *
 * Built with cJSON from a validated bundle. Key order is fixed by the order
 * of the cJSON_Add* calls below, which is the order of the binary's fields;
 * docs/format.md documents the schema.
 */
#include "dgpb/json_view.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "dgpb/sha256.h"

size_t dgpb_stem_from_module_path(const char *module_path, char *out, size_t size)
{
    const char *src = (module_path && *module_path) ? module_path : "main";
    size_t n = strlen(src);
    for (size_t i = 0; size && i < n && i + 1 < size; i++)
        out[i] = src[i] == '.' ? '_' : src[i];
    if (size)
        out[n < size ? n : size - 1] = 0;
    return n;
}

/* Adds a string that is not NUL-terminated. */
static cJSON *add_str(cJSON *obj, const char *key, dgpb_str s)
{
    char buf[DGPB_MAX_STRING + 1];
    memcpy(buf, s.ptr, s.len);
    buf[s.len] = 0;
    return cJSON_AddStringToObject(obj, key, buf);
}

static cJSON *blob_json(const dgpb_blob_ref *b)
{
    cJSON *o = cJSON_CreateObject();
    char hex[2 * DGPB_SHA256_SIZE + 1];
    dgpb_sha256_hex(b->sha256, hex);
    if (o && cJSON_AddNumberToObject(o, "offset", b->offset) &&
        cJSON_AddNumberToObject(o, "size", b->size) && cJSON_AddStringToObject(o, "sha256", hex))
        return o;
    cJSON_Delete(o);
    return NULL;
}

/* Adds `item` to `parent` (array when key is NULL); false when item is NULL. */
static bool attach(cJSON *parent, const char *key, cJSON *item)
{
    if (!item)
        return false;
    if (key)
        return cJSON_AddItemToObject(parent, key, item);
    return cJSON_AddItemToArray(parent, item);
}

static cJSON *param_json(const dgpb_param_view *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *flags = cJSON_CreateArray();
    bool ok = o && flags && add_str(o, "name", p->name) &&
              cJSON_AddStringToObject(o, "kind", dgpb_kind_name(p->kind));
    if (ok && (p->flags & DGPB_FLAG_READ_ONLY))
        ok = attach(flags, NULL, cJSON_CreateString("read_only"));
    if (ok && (p->flags & DGPB_FLAG_WRITTEN))
        ok = attach(flags, NULL, cJSON_CreateString("written"));
    ok = ok && attach(o, "flags", flags);
    if (!ok)
        cJSON_Delete(flags);
    ok = ok && cJSON_AddNumberToObject(o, "space", p->space) &&
         cJSON_AddNumberToObject(o, "binding", p->binding) &&
         cJSON_AddNumberToObject(o, "offset", p->offset) &&
         cJSON_AddNumberToObject(o, "size", p->size) &&
         cJSON_AddNumberToObject(o, "webgpu_layout", p->webgpu_layout);
    if (ok)
        return o;
    cJSON_Delete(o);
    return NULL;
}

static cJSON *entry_json(const dgpb_entry_view *e)
{
    cJSON *o = cJSON_CreateObject();
    bool ok = o && add_str(o, "name", e->name) && add_str(o, "stage", e->stage) &&
              cJSON_AddNumberToObject(o, "layout", e->layout) &&
              attach(o, "code", blob_json(&e->code));
    cJSON *thread_group_size = ok ? cJSON_AddArrayToObject(o, "thread_group_size") : NULL;
    ok = ok && thread_group_size;
    for (int i = 0; ok && i < 3; i++)
        ok = attach(thread_group_size, NULL, cJSON_CreateNumber(e->thread_group_size[i]));
    cJSON *params = ok ? cJSON_AddArrayToObject(o, "params") : NULL;
    ok = ok && params;
    for (uint32_t i = 0; ok && i < e->param_count; i++)
        ok = attach(params, NULL, param_json(&e->params[i]));
    cJSON *caps = ok ? cJSON_AddArrayToObject(o, "capabilities") : NULL;
    ok = ok && caps;
    for (uint32_t i = 0; ok && i < e->capability_count; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", (int)e->capabilities[i].len, e->capabilities[i].ptr);
        ok = attach(caps, NULL, cJSON_CreateString(buf));
    }
    if (ok)
        return o;
    cJSON_Delete(o);
    return NULL;
}

static cJSON *target_json(const dgpb_target_view *t)
{
    cJSON *o = cJSON_CreateObject();
    bool ok = o && add_str(o, "name", t->name) && add_str(o, "code_format", t->code_format);
    cJSON *layouts = ok ? cJSON_AddArrayToObject(o, "layouts") : NULL;
    ok = ok && layouts;
    for (uint32_t i = 0; ok && i < t->layout_count; i++)
        ok = attach(layouts, NULL, blob_json(&t->layouts[i]));
    cJSON *entries = ok ? cJSON_AddArrayToObject(o, "entries") : NULL;
    ok = ok && entries;
    for (uint32_t i = 0; ok && i < t->entry_count; i++)
        ok = attach(entries, NULL, entry_json(&t->entries[i]));
    if (ok)
        return o;
    cJSON_Delete(o);
    return NULL;
}

int dgpb_json_view(const dgpb_bundle *b, const char *stem, char **out, dgpb_diag *diag)
{
    *out = NULL;
    char asset[DGPB_DIAG_FILE_MAX + 16];
    snprintf(asset, sizeof asset, "gpu_shaders.%s", stem && *stem ? stem : "main");
    cJSON *root = cJSON_CreateObject();
    bool ok = root && cJSON_AddStringToObject(root, "asset", asset) &&
              cJSON_AddStringToObject(root, "format", DGPB_MAGIC) &&
              cJSON_AddNumberToObject(root, "version", dgpb_bundle_version(b)) &&
              cJSON_AddNumberToObject(root, "size", (double)dgpb_bundle_size(b)) &&
              cJSON_AddNumberToObject(root, "header_size", dgpb_bundle_header_size(b)) &&
              cJSON_AddNumberToObject(root, "data_size", dgpb_bundle_data_size(b));
    cJSON *targets = ok ? cJSON_AddArrayToObject(root, "targets") : NULL;
    ok = ok && targets;
    for (uint32_t i = 0; ok && i < dgpb_bundle_target_count(b); i++)
        ok = attach(targets, NULL, target_json(dgpb_bundle_target(b, i)));
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!text)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory rendering the json view");
    size_t n = strlen(text);
    char *copy = mem_alloc(n + 2);
    if (copy) {
        memcpy(copy, text, n);
        copy[n] = '\n';
        copy[n + 1] = 0;
    }
    cJSON_free(text);
    if (!copy)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory rendering the json view");
    *out = copy;
    return DGPB_OK;
}
