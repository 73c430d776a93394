/*
 * diff.c - the semantic comparison of two bundles (bundle/diff.h).
 *
 * Both kinds of side end as the same model: a bundle is validated, hashed and
 * rendered as its JSON view (dgpb/json_view.h), then parsed like a view read
 * from a file, so one strict reader of the view's schema feeds one model.
 * The model's strings point into the side's cJSON tree. docs/diff.md gives
 * the result's schema and which changes are breaking.
 */
#include "bundle/diff.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/json_view.h"
#include "dgpb/reader.h"

#define SIDE_MAX_READ ((size_t)DGPB_MAX_BUNDLE_SIZE)

/* The numeric fields of a parameter row, in the view's order. */
enum { P_SPACE, P_BINDING, P_OFFSET, P_SIZE, P_WEBGPU_LAYOUT, P_COUNT };
static const char *const param_fields[P_COUNT] = {"space", "binding", "offset", "size",
                                                  "webgpu_layout"};

typedef struct blob_m {
    uint32_t size;
    const char *sha256; /* 64 hex digits */
} blob_m;

typedef struct param_m {
    const cJSON *json; /* the row as the view has it */
    const char *name;
    const char *kind;
    const cJSON *flags;  /* array of flag names */
    const char *shape;   /* a shaped row's "shape" (in place of "offset"), else NULL */
    char shape_text[96]; /* a shaped row of a view from before shapes: its offset, spelled */
    uint32_t field[P_COUNT];
} param_m;

typedef struct entry_m {
    const char *name;
    const char *stage;
    uint32_t layout;
    blob_m code;
    uint32_t tgs[3];
    size_t param_count;
    param_m *params;
    size_t cap_count;
    const char **caps;
} entry_m;

typedef struct target_m {
    const char *name;
    const char *code_format;
    size_t layout_count;
    blob_m *layouts;
    size_t entry_count;
    entry_m *entries;
} target_m;

struct dgpb_diff_side {
    cJSON *root;
    char name[DGPB_DIAG_FILE_MAX];
    size_t target_count;
    target_m *targets;
    /* The project options the view records, each as one string (slang_capabilities joined by
       ','); NULL: not recorded, the option's default. */
    char *options[DGPB_OPTION_COUNT];
};

/* ---- reading a view into the model ---- */

/*
 * Writes a field path such as "targets[0].entries[1].code" into `out`: `fmt`
 * with "%P" replaced by `path` and "%I" by `index` (cut short when too long).
 */
static void subpath(char *out, size_t size, const char *fmt, const char *path, size_t index)
{
    char idx[32];
    snprintf(idx, sizeof idx, "%zu", index);
    size_t n = 0;
    for (const char *f = fmt; *f && n + 1 < size; f++) {
        const char *piece = NULL;
        if (f[0] == '%' && f[1] == 'P')
            piece = path;
        else if (f[0] == '%' && f[1] == 'I')
            piece = idx;
        if (!piece) {
            out[n++] = *f;
            continue;
        }
        f++;
        for (; *piece && n + 1 < size; piece++)
            out[n++] = *piece;
    }
    out[n] = 0;
}

typedef struct reader {
    dgpb_diag *diag;
    int rc;
} reader;

static bool fail(reader *r, const char *path, const char *key, const char *what)
{
    if (r->rc == DGPB_OK)
        r->rc = dgpb_diag_set(r->diag, DGPB_ERR_CORRUPT_VALUE, -1, "view field '%s%s%s' %s", path,
                              *path && key ? "." : "", key ? key : "", what);
    return false;
}

static const cJSON *get(reader *r, const cJSON *obj, const char *path, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        fail(r, path, key, "is missing");
    return v;
}

static bool get_string(reader *r, const cJSON *obj, const char *path, const char *key,
                       const char **out)
{
    const cJSON *v = get(r, obj, path, key);
    if (!v)
        return false;
    if (!cJSON_IsString(v) || !v->valuestring || !v->valuestring[0])
        return fail(r, path, key, "is not a non-empty string");
    *out = v->valuestring;
    return true;
}

static bool as_u32(const cJSON *v, uint32_t *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0 ||
        v->valuedouble != (double)(uint64_t)v->valuedouble)
        return false;
    *out = (uint32_t)v->valuedouble;
    return true;
}

static bool get_u32(reader *r, const cJSON *obj, const char *path, const char *key, uint32_t *out)
{
    const cJSON *v = get(r, obj, path, key);
    if (!v)
        return false;
    if (!as_u32(v, out))
        return fail(r, path, key, "is not an unsigned 32-bit integer");
    return true;
}

static const cJSON *get_array(reader *r, const cJSON *obj, const char *path, const char *key,
                              size_t *count)
{
    const cJSON *v = get(r, obj, path, key);
    if (!v)
        return NULL;
    if (!cJSON_IsArray(v)) {
        fail(r, path, key, "is not an array");
        return NULL;
    }
    *count = (size_t)cJSON_GetArraySize(v);
    return v;
}

static bool read_blob(reader *r, const cJSON *obj, const char *path, blob_m *out)
{
    if (!cJSON_IsObject(obj))
        return fail(r, path, NULL, "is not an object");
    const char *sha = NULL;
    if (!get_u32(r, obj, path, "size", &out->size) || !get_string(r, obj, path, "sha256", &sha))
        return false;
    if (strlen(sha) != 64 || strspn(sha, "0123456789abcdef") != 64)
        return fail(r, path, "sha256", "is not 64 lowercase hex digits");
    out->sha256 = sha;
    return true;
}

static bool read_param(reader *r, const cJSON *obj, const char *path, param_m *p)
{
    if (!cJSON_IsObject(obj))
        return fail(r, path, NULL, "is not an object");
    p->json = obj;
    if (!get_string(r, obj, path, "name", &p->name) || !get_string(r, obj, path, "kind", &p->kind))
        return false;
    size_t n = 0;
    p->flags = get_array(r, obj, path, "flags", &n);
    if (!p->flags)
        return false;
    const cJSON *f;
    cJSON_ArrayForEach(f, p->flags)
    {
        if (!cJSON_IsString(f))
            return fail(r, path, "flags", "holds a value that is not a string");
    }
    /* A texture's or sampler's view spells its shape in place of its offset. */
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(obj, "shape");
    if (shape && !cJSON_IsString(shape))
        return fail(r, path, "shape", "is not a string");
    p->shape = shape ? shape->valuestring : NULL;
    for (int i = 0; i < P_COUNT; i++)
        if (!(i == P_OFFSET && p->shape) && !get_u32(r, obj, path, param_fields[i], &p->field[i]))
            return false;
    /* A view written before rows had shapes gives a texture's or sampler's offset (0, "not
       stated"): the same shape, spelled, so that the two views compare alike. */
    int kind = dgpb_kind_from_name(p->kind, strlen(p->kind));
    if (!p->shape && kind >= 0 && dgpb_kind_has_shape((uint32_t)kind)) {
        p->shape = dgpb_shape_text(p->field[P_OFFSET], p->shape_text, sizeof p->shape_text);
        p->field[P_OFFSET] = 0;
    }
    return true;
}

static bool read_entry(reader *r, const cJSON *obj, const char *path, entry_m *e)
{
    char sub[128];
    if (!cJSON_IsObject(obj))
        return fail(r, path, NULL, "is not an object");
    if (!get_string(r, obj, path, "name", &e->name) ||
        !get_string(r, obj, path, "stage", &e->stage) ||
        !get_u32(r, obj, path, "layout", &e->layout))
        return false;
    const cJSON *code = get(r, obj, path, "code");
    subpath(sub, sizeof sub, "%P.code", path, 0);
    if (!code || !read_blob(r, code, sub, &e->code))
        return false;
    size_t n = 0;
    const cJSON *tgs = get_array(r, obj, path, "thread_group_size", &n);
    if (!tgs)
        return false;
    if (n != 3)
        return fail(r, path, "thread_group_size", "does not hold 3 numbers");
    for (int i = 0; i < 3; i++)
        if (!as_u32(cJSON_GetArrayItem(tgs, i), &e->tgs[i]))
            return fail(r, path, "thread_group_size", "holds a value that is not a u32");
    const cJSON *params = get_array(r, obj, path, "params", &e->param_count);
    if (!params)
        return false;
    e->params = mem_calloc(e->param_count ? e->param_count : 1, sizeof *e->params);
    if (!e->params)
        return r->rc = dgpb_diag_set(r->diag, DGPB_ERR_NOMEM, -1, "out of memory"), false;
    for (size_t i = 0; i < e->param_count; i++) {
        subpath(sub, sizeof sub, "%P.params[%I]", path, i);
        if (!read_param(r, cJSON_GetArrayItem(params, (int)i), sub, &e->params[i]))
            return false;
    }
    const cJSON *caps = get_array(r, obj, path, "capabilities", &e->cap_count);
    if (!caps)
        return false;
    e->caps = mem_calloc(e->cap_count ? e->cap_count : 1, sizeof *e->caps);
    if (!e->caps)
        return r->rc = dgpb_diag_set(r->diag, DGPB_ERR_NOMEM, -1, "out of memory"), false;
    for (size_t i = 0; i < e->cap_count; i++) {
        const cJSON *c = cJSON_GetArrayItem(caps, (int)i);
        if (!cJSON_IsString(c) || !c->valuestring)
            return fail(r, path, "capabilities", "holds a value that is not a string");
        e->caps[i] = c->valuestring;
    }
    return true;
}

static bool read_target(reader *r, const cJSON *obj, const char *path, target_m *t)
{
    char sub[128];
    if (!cJSON_IsObject(obj))
        return fail(r, path, NULL, "is not an object");
    if (!get_string(r, obj, path, "name", &t->name) ||
        !get_string(r, obj, path, "code_format", &t->code_format))
        return false;
    const cJSON *layouts = get_array(r, obj, path, "layouts", &t->layout_count);
    if (!layouts)
        return false;
    t->layouts = mem_calloc(t->layout_count ? t->layout_count : 1, sizeof *t->layouts);
    if (!t->layouts)
        return r->rc = dgpb_diag_set(r->diag, DGPB_ERR_NOMEM, -1, "out of memory"), false;
    for (size_t i = 0; i < t->layout_count; i++) {
        subpath(sub, sizeof sub, "%P.layouts[%I]", path, i);
        if (!read_blob(r, cJSON_GetArrayItem(layouts, (int)i), sub, &t->layouts[i]))
            return false;
    }
    const cJSON *entries = get_array(r, obj, path, "entries", &t->entry_count);
    if (!entries)
        return false;
    t->entries = mem_calloc(t->entry_count ? t->entry_count : 1, sizeof *t->entries);
    if (!t->entries)
        return r->rc = dgpb_diag_set(r->diag, DGPB_ERR_NOMEM, -1, "out of memory"), false;
    for (size_t i = 0; i < t->entry_count; i++) {
        subpath(sub, sizeof sub, "%P.entries[%I]", path, i);
        if (!read_entry(r, cJSON_GetArrayItem(entries, (int)i), sub, &t->entries[i]))
            return false;
    }
    return true;
}

/* The view's "options" object, when it has one (docs/format.md, "The JSON view"). */
static bool read_options(reader *r, const cJSON *root, dgpb_diff_side *s)
{
    const cJSON *options = cJSON_GetObjectItemCaseSensitive(root, "options");
    if (!options)
        return true;
    if (!cJSON_IsObject(options))
        return fail(r, "", "options", "is not an object");
    const cJSON *o;
    cJSON_ArrayForEach(o, options)
    {
        int id = o->string ? dgpb_option_from_name(o->string, strlen(o->string)) : -1;
        if (id < 0)
            return fail(r, "options", o->string, "is no project option");
        dgpb_bytebuf text = DGPB_BYTEBUF_INIT;
        if (cJSON_IsString(o) && o->valuestring && o->valuestring[0]) {
            bytebuf_append(&text, o->valuestring, strlen(o->valuestring));
        } else if (cJSON_IsArray(o) && id == DGPB_OPTION_SLANG_CAPABILITIES) {
            const cJSON *e;
            cJSON_ArrayForEach(e, o)
            {
                if (!cJSON_IsString(e) || !e->valuestring || !e->valuestring[0]) {
                    bytebuf_free(&text);
                    return fail(r, "options", o->string, "holds an item that is not a name");
                }
                if (text.len)
                    bytebuf_append(&text, ",", 1);
                bytebuf_append(&text, e->valuestring, strlen(e->valuestring));
            }
        }
        char buf[256];
        if (!text.len ||
            dgpb_option_rule((uint32_t)id, (const char *)text.data, text.len, buf, sizeof buf)) {
            bytebuf_free(&text);
            return fail(r, "options", o->string, "is not a value the format records");
        }
        bytebuf_append(&text, "", 1);
        size_t n;
        if (text.failed || !(s->options[id] = (char *)bytebuf_take(&text, &n))) {
            bytebuf_free(&text);
            r->rc = dgpb_diag_set(r->diag, DGPB_ERR_NOMEM, -1, "out of memory");
            return false;
        }
    }
    return true;
}

static int read_model(dgpb_diff_side *s, dgpb_diag *diag)
{
    reader r = {diag, DGPB_OK};
    const cJSON *root = s->root;
    if (!cJSON_IsObject(root))
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT_VALUE, -1, "the view is not a JSON object");
    const char *format = NULL;
    if (!get_string(&r, root, "", "format", &format))
        return r.rc;
    if (strcmp(format, "DGPB") != 0)
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT_VALUE, -1,
                             "view field 'format' is '%s', not 'DGPB'", format);
    if (!read_options(&r, root, s))
        return r.rc;
    const cJSON *targets = get_array(&r, root, "", "targets", &s->target_count);
    if (!targets)
        return r.rc;
    s->targets = mem_calloc(s->target_count ? s->target_count : 1, sizeof *s->targets);
    if (!s->targets)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    for (size_t i = 0; i < s->target_count; i++) {
        char path[64];
        subpath(path, sizeof path, "targets[%I]", "", i);
        if (!read_target(&r, cJSON_GetArrayItem(targets, (int)i), path, &s->targets[i]))
            return r.rc;
    }
    return DGPB_OK;
}

void diff_side_close(dgpb_diff_side *s)
{
    if (!s)
        return;
    for (int i = 0; i < DGPB_OPTION_COUNT; i++)
        dgpb_free(s->options[i]);
    for (size_t i = 0; s->targets && i < s->target_count; i++) {
        target_m *t = &s->targets[i];
        for (size_t j = 0; t->entries && j < t->entry_count; j++) {
            dgpb_free(t->entries[j].params);
            dgpb_free(t->entries[j].caps);
        }
        dgpb_free(t->entries);
        dgpb_free(t->layouts);
    }
    dgpb_free(s->targets);
    cJSON_Delete(s->root);
    dgpb_free(s);
}

/* The JSON text of a bundle: validated with every SHA-256 checked, then viewed. */
static int bundle_text(const void *data, size_t size, char **text, dgpb_diag *diag)
{
    dgpb_bundle *b = NULL;
    int rc = dgpb_bundle_open(data, size, DGPB_OPEN_VERIFY_SHA256, &b, diag);
    if (rc == DGPB_OK)
        rc = dgpb_json_view(b, "diff", text, diag);
    dgpb_bundle_close(b);
    return rc;
}

int diff_side_from_memory(const void *data, size_t size, const char *name, dgpb_diff_side **out,
                          dgpb_diag *diag)
{
    if (!out || (!data && size))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "diff_side_from_memory: NULL argument");
    *out = NULL;
    const unsigned char *bytes = data;
    size_t lead = 0;
    while (lead < size && bytes[lead] && strchr(" \t\r\n", bytes[lead]))
        lead++;
    bool is_bundle = size >= 4 && !memcmp(bytes, "DGPB", 4);
    bool is_view = lead < size && bytes[lead] == '{';
    if (!is_bundle && !is_view) {
        dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                      "neither a bundle nor a JSON view (no 'DGPB' magic, no '{')");
        if (name && diag && !diag->file[0])
            dgpb_diag_set_file(diag, name);
        return DGPB_ERR_UNSUPPORTED;
    }
    dgpb_diff_side *s = mem_calloc(1, sizeof *s);
    char *text = NULL;
    int rc = DGPB_OK;
    if (!s) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    snprintf(s->name, sizeof s->name, "%s", name ? name : "");
    if (is_bundle) {
        rc = bundle_text(data, size, &text, diag);
        if (rc)
            goto done;
        s->root = cJSON_Parse(text);
        if (!s->root) {
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            goto done;
        }
    } else {
        s->root = cJSON_ParseWithLength((const char *)data, size);
        if (!s->root) {
            const char *at = cJSON_GetErrorPtr();
            int64_t off = at && at >= (const char *)data && at <= (const char *)data + size
                              ? (int64_t)(at - (const char *)data)
                              : -1;
            rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT_VALUE, off, "the view is not valid JSON");
            goto done;
        }
    }
    rc = read_model(s, diag);
done:
    dgpb_free(text);
    if (rc) {
        diff_side_close(s);
        if (name && diag && !diag->file[0])
            dgpb_diag_set_file(diag, name);
        return rc;
    }
    *out = s;
    return DGPB_OK;
}

int diff_side_open(const char *path, dgpb_diff_side **out, dgpb_diag *diag)
{
    if (!path || !out)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "diff_side_open: NULL argument");
    *out = NULL;
    uint8_t *bytes = NULL;
    size_t size = 0;
    int rc = dgpb_file_read(path, SIDE_MAX_READ, &bytes, &size, diag);
    if (rc == DGPB_OK)
        rc = diff_side_from_memory(bytes, size, path, out, diag);
    dgpb_free(bytes);
    return rc;
}

/* ---- comparing ---- */

typedef struct differ {
    bool nomem;
    int breaking, code_only, other;
} differ;

/* Checks a cJSON result; a NULL marks the whole comparison out of memory. */
static cJSON *chk(differ *d, cJSON *item)
{
    if (!item)
        d->nomem = true;
    return item;
}

static void add(differ *d, cJSON *obj, const char *key, cJSON *item)
{
    if (!item || !obj) {
        d->nomem = true;
        cJSON_Delete(item);
        return;
    }
    if (!cJSON_AddItemToObject(obj, key, item)) {
        d->nomem = true;
        cJSON_Delete(item);
    }
}

static void push(differ *d, cJSON *arr, cJSON *item)
{
    if (!item || !arr) {
        d->nomem = true;
        cJSON_Delete(item);
        return;
    }
    if (!cJSON_AddItemToArray(arr, item)) {
        d->nomem = true;
        cJSON_Delete(item);
    }
}

typedef enum kind { K_BREAKING, K_CODE, K_OTHER } kind;

/* A new change record {what, breaking, ...} counted in the summary. */
static cJSON *change(differ *d, const char *what, kind k)
{
    cJSON *c = chk(d, cJSON_CreateObject());
    add(d, c, "what", cJSON_CreateString(what));
    add(d, c, "breaking", cJSON_CreateBool(k == K_BREAKING));
    if (k == K_BREAKING)
        d->breaking++;
    else if (k == K_CODE)
        d->code_only++;
    else
        d->other++;
    return c;
}

static cJSON *blob_json(differ *d, const blob_m *b)
{
    cJSON *o = chk(d, cJSON_CreateObject());
    add(d, o, "size", cJSON_CreateNumber(b->size));
    add(d, o, "sha256", cJSON_CreateString(b->sha256));
    return o;
}

static cJSON *tgs_json(differ *d, const uint32_t *v)
{
    cJSON *a = chk(d, cJSON_CreateArray());
    for (int i = 0; i < 3; i++)
        push(d, a, cJSON_CreateNumber(v[i]));
    return a;
}

/* A blob change (code or layout): old, new and size_delta. NULL `o`/`n` for added/removed. */
static void blob_change(differ *d, cJSON *c, const blob_m *o, const blob_m *n)
{
    add(d, c, "old", o ? blob_json(d, o) : cJSON_CreateNull());
    add(d, c, "new", n ? blob_json(d, n) : cJSON_CreateNull());
    add(d, c, "size_delta",
        cJSON_CreateNumber((double)(n ? n->size : 0) - (double)(o ? o->size : 0)));
}

static bool blob_eq(const blob_m *a, const blob_m *b)
{
    return a->size == b->size && !strcmp(a->sha256, b->sha256);
}

static const entry_m *find_entry(const target_m *t, const char *name, size_t *index)
{
    for (size_t i = 0; t && i < t->entry_count; i++)
        if (!strcmp(t->entries[i].name, name)) {
            if (index)
                *index = i;
            return &t->entries[i];
        }
    return NULL;
}

static const param_m *find_param(const entry_m *e, const char *name, size_t *index)
{
    for (size_t i = 0; i < e->param_count; i++)
        if (!strcmp(e->params[i].name, name)) {
            *index = i;
            return &e->params[i];
        }
    return NULL;
}

static bool has_cap(const entry_m *e, const char *cap)
{
    for (size_t i = 0; i < e->cap_count; i++)
        if (!strcmp(e->caps[i], cap))
            return true;
    return false;
}

static cJSON *param_change(differ *d, const char *change_kind, const char *name, size_t index)
{
    cJSON *c = change(d, "param", K_BREAKING);
    add(d, c, "change", cJSON_CreateString(change_kind));
    add(d, c, "name", cJSON_CreateString(name));
    add(d, c, "index", cJSON_CreateNumber((double)index));
    return c;
}

static void diff_params(differ *d, const entry_m *o, const entry_m *n, cJSON *changes)
{
    for (size_t i = 0; i < n->param_count; i++) {
        const param_m *np = &n->params[i];
        size_t j = 0;
        const param_m *op = find_param(o, np->name, &j);
        if (!op) {
            cJSON *c = param_change(d, "added", np->name, i);
            add(d, c, "new", cJSON_Duplicate(np->json, true));
            push(d, changes, c);
            continue;
        }
        if (j != i) {
            cJSON *c = param_change(d, "moved", np->name, i);
            add(d, c, "old_index", cJSON_CreateNumber((double)j));
            push(d, changes, c);
        }
        if (strcmp(op->kind, np->kind) != 0) {
            cJSON *c = param_change(d, "changed", np->name, i);
            add(d, c, "field", cJSON_CreateString("kind"));
            add(d, c, "old", cJSON_CreateString(op->kind));
            add(d, c, "new", cJSON_CreateString(np->kind));
            push(d, changes, c);
        }
        if (!cJSON_Compare(op->flags, np->flags, true)) {
            cJSON *c = param_change(d, "changed", np->name, i);
            add(d, c, "field", cJSON_CreateString("flags"));
            add(d, c, "old", cJSON_Duplicate(op->flags, true));
            add(d, c, "new", cJSON_Duplicate(np->flags, true));
            push(d, changes, c);
        }
        if ((op->shape || np->shape) &&
            (!op->shape || !np->shape || strcmp(op->shape, np->shape) != 0)) {
            cJSON *c = param_change(d, "changed", np->name, i);
            add(d, c, "field", cJSON_CreateString("shape"));
            add(d, c, "old", op->shape ? cJSON_CreateString(op->shape) : cJSON_CreateNull());
            add(d, c, "new", np->shape ? cJSON_CreateString(np->shape) : cJSON_CreateNull());
            push(d, changes, c);
        }
        for (int f = 0; f < P_COUNT; f++) {
            if (op->field[f] == np->field[f])
                continue;
            cJSON *c = param_change(d, "changed", np->name, i);
            add(d, c, "field", cJSON_CreateString(param_fields[f]));
            add(d, c, "old", cJSON_CreateNumber(op->field[f]));
            add(d, c, "new", cJSON_CreateNumber(np->field[f]));
            push(d, changes, c);
        }
    }
    for (size_t j = 0; j < o->param_count; j++) {
        size_t i = 0;
        if (find_param(n, o->params[j].name, &i))
            continue;
        cJSON *c = param_change(d, "removed", o->params[j].name, j);
        add(d, c, "old", cJSON_Duplicate(o->params[j].json, true));
        push(d, changes, c);
    }
}

static void diff_entry(differ *d, const entry_m *o, const entry_m *n, cJSON *changes)
{
    if (strcmp(o->stage, n->stage) != 0) {
        cJSON *c = change(d, "stage", K_BREAKING);
        add(d, c, "old", cJSON_CreateString(o->stage));
        add(d, c, "new", cJSON_CreateString(n->stage));
        push(d, changes, c);
    }
    if (memcmp(o->tgs, n->tgs, sizeof o->tgs) != 0) {
        cJSON *c = change(d, "thread_group_size", K_BREAKING);
        add(d, c, "old", tgs_json(d, o->tgs));
        add(d, c, "new", tgs_json(d, n->tgs));
        push(d, changes, c);
    }
    diff_params(d, o, n, changes);
    for (size_t i = 0; i < n->cap_count; i++)
        if (!has_cap(o, n->caps[i])) {
            cJSON *c = change(d, "capability", K_BREAKING);
            add(d, c, "change", cJSON_CreateString("gained"));
            add(d, c, "name", cJSON_CreateString(n->caps[i]));
            push(d, changes, c);
        }
    for (size_t i = 0; i < o->cap_count; i++)
        if (!has_cap(n, o->caps[i])) {
            cJSON *c = change(d, "capability", K_OTHER);
            add(d, c, "change", cJSON_CreateString("lost"));
            add(d, c, "name", cJSON_CreateString(o->caps[i]));
            push(d, changes, c);
        }
    if (!blob_eq(&o->code, &n->code)) {
        cJSON *c = change(d, "code", K_CODE);
        blob_change(d, c, &o->code, &n->code);
        push(d, changes, c);
    }
    if (o->layout != n->layout) {
        cJSON *c = change(d, "layout", K_OTHER);
        add(d, c, "old", cJSON_CreateNumber(o->layout));
        add(d, c, "new", cJSON_CreateNumber(n->layout));
        push(d, changes, c);
    }
}

static cJSON *entry_record(differ *d, const char *name, const char *how)
{
    cJSON *e = chk(d, cJSON_CreateObject());
    add(d, e, "name", cJSON_CreateString(name));
    add(d, e, "change", cJSON_CreateString(how));
    return e;
}

/* Appends the entry record when it has changes; sets its "breaking". */
static void finish_entry(differ *d, cJSON *entries, cJSON *e, cJSON *changes, bool breaking)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, changes)
    {
        breaking = breaking || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "breaking"));
    }
    add(d, e, "breaking", cJSON_CreateBool(breaking));
    add(d, e, "changes", changes);
    push(d, entries, e);
}

/* The names of the entries both targets have, in the order `t` lists them. */
static cJSON *common_order(differ *d, const target_m *t, const target_m *other)
{
    cJSON *a = chk(d, cJSON_CreateArray());
    for (size_t i = 0; i < t->entry_count; i++)
        if (find_entry(other, t->entries[i].name, NULL))
            push(d, a, cJSON_CreateString(t->entries[i].name));
    return a;
}

/* Compares one target; `o` or `n` is NULL when the target was added or removed. */
static void diff_target(differ *d, const target_m *o, const target_m *n, cJSON *targets)
{
    const target_m *any = n ? n : o;
    cJSON *t = chk(d, cJSON_CreateObject());
    cJSON *tchanges = chk(d, cJSON_CreateArray());
    cJSON *entries = chk(d, cJSON_CreateArray());
    cJSON *layouts = chk(d, cJSON_CreateArray());
    bool breaking = false;
    add(d, t, "name", cJSON_CreateString(any->name));
    add(d, t, "change", cJSON_CreateString(!o ? "added" : !n ? "removed" : "changed"));
    if (!o || !n) {
        breaking = !n;
        if (n)
            d->other++;
        else
            d->breaking++;
    } else {
        if (strcmp(o->code_format, n->code_format) != 0) {
            cJSON *c = change(d, "code_format", K_BREAKING);
            add(d, c, "old", cJSON_CreateString(o->code_format));
            add(d, c, "new", cJSON_CreateString(n->code_format));
            push(d, tchanges, c);
            breaking = true;
        }
        cJSON *old_order = common_order(d, o, n), *new_order = common_order(d, n, o);
        if (!cJSON_Compare(old_order, new_order, true)) {
            cJSON *c = change(d, "order", K_OTHER);
            add(d, c, "old", old_order);
            add(d, c, "new", new_order);
            push(d, tchanges, c);
        } else {
            cJSON_Delete(old_order);
            cJSON_Delete(new_order);
        }
        for (size_t i = 0; i < n->entry_count; i++) {
            const entry_m *ne = &n->entries[i];
            const entry_m *oe = find_entry(o, ne->name, NULL);
            cJSON *changes = chk(d, cJSON_CreateArray());
            if (!oe) {
                d->other++;
                finish_entry(d, entries, entry_record(d, ne->name, "added"), changes, false);
                continue;
            }
            diff_entry(d, oe, ne, changes);
            if (cJSON_GetArraySize(changes) == 0) {
                cJSON_Delete(changes);
                continue;
            }
            finish_entry(d, entries, entry_record(d, ne->name, "changed"), changes, false);
        }
        for (size_t i = 0; i < o->entry_count; i++) {
            if (find_entry(n, o->entries[i].name, NULL))
                continue;
            d->breaking++;
            finish_entry(d, entries, entry_record(d, o->entries[i].name, "removed"),
                         chk(d, cJSON_CreateArray()), true);
        }
        size_t count = o->layout_count > n->layout_count ? o->layout_count : n->layout_count;
        for (size_t i = 0; i < count; i++) {
            const blob_m *ol = i < o->layout_count ? &o->layouts[i] : NULL;
            const blob_m *nl = i < n->layout_count ? &n->layouts[i] : NULL;
            if (ol && nl && blob_eq(ol, nl))
                continue;
            cJSON *c = change(d, "layout", K_CODE);
            add(d, c, "index", cJSON_CreateNumber((double)i));
            add(d, c, "change", cJSON_CreateString(!ol ? "added" : !nl ? "removed" : "changed"));
            blob_change(d, c, ol, nl);
            push(d, layouts, c);
        }
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, entries)
    {
        breaking = breaking || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "breaking"));
    }
    bool changed = !o || !n || cJSON_GetArraySize(tchanges) || cJSON_GetArraySize(entries) ||
                   cJSON_GetArraySize(layouts);
    add(d, t, "breaking", cJSON_CreateBool(breaking));
    add(d, t, "changes", tchanges);
    add(d, t, "entries", entries);
    add(d, t, "layouts", layouts);
    if (changed)
        push(d, targets, t);
    else
        cJSON_Delete(t);
}

static const target_m *find_target(const dgpb_diff_side *s, const char *name)
{
    for (size_t i = 0; i < s->target_count; i++)
        if (!strcmp(s->targets[i].name, name))
            return &s->targets[i];
    return NULL;
}

/*
 * The project options that differ: {what: "option", name, old, new (null: the default),
 * breaking}. A change of matrix layout breaks a host's binding (the bytes it writes for a
 * matrix mean another matrix), as a change of block layout does (the bytes it writes sit at
 * other offsets); so does a SPIR-V version raised (a device must take it; no version is
 * Slang's default, 1.5); capabilities given to Slang, the optimization level and the debug
 * information are the code's business.
 */
static cJSON *diff_options(differ *d, const dgpb_diff_side *o, const dgpb_diff_side *n)
{
    cJSON *changes = chk(d, cJSON_CreateArray());
    for (uint32_t i = 0; i < DGPB_OPTION_COUNT; i++) {
        const char *a = o->options[i], *b = n->options[i];
        if ((!a && !b) || (a && b && !strcmp(a, b)))
            continue;
        kind k = K_OTHER;
        if (i == DGPB_OPTION_MATRIX_LAYOUT || i == DGPB_OPTION_BLOCK_LAYOUT)
            k = K_BREAKING;
        else if (i == DGPB_OPTION_SPIRV_VERSION)
            k = strcmp(b ? b : "1.5", a ? a : "1.5") > 0 ? K_BREAKING : K_OTHER;
        cJSON *c = change(d, "option", k);
        add(d, c, "name", cJSON_CreateString(dgpb_option_name(i)));
        add(d, c, "old", a ? cJSON_CreateString(a) : cJSON_CreateNull());
        add(d, c, "new", b ? cJSON_CreateString(b) : cJSON_CreateNull());
        push(d, changes, c);
    }
    return changes;
}

int bundle_diff(const dgpb_diff_side *o, const dgpb_diff_side *n, struct cJSON **out,
                dgpb_diag *diag)
{
    if (!o || !n || !out)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "bundle_diff: NULL argument");
    *out = NULL;
    differ d = {0};
    cJSON *root = chk(&d, cJSON_CreateObject());
    cJSON *options = diff_options(&d, o, n);
    cJSON *targets = chk(&d, cJSON_CreateArray());
    /* The old side's targets in its order, then those only the new side has. */
    for (size_t i = 0; i < o->target_count; i++)
        diff_target(&d, &o->targets[i], find_target(n, o->targets[i].name), targets);
    for (size_t j = 0; j < n->target_count; j++)
        if (!find_target(o, n->targets[j].name))
            diff_target(&d, NULL, &n->targets[j], targets);
    cJSON *summary = chk(&d, cJSON_CreateObject());
    add(&d, summary, "breaking", cJSON_CreateNumber(d.breaking));
    add(&d, summary, "code_only", cJSON_CreateNumber(d.code_only));
    add(&d, summary, "other", cJSON_CreateNumber(d.other));
    add(&d, root, "equivalent", cJSON_CreateBool(!d.breaking && !d.code_only && !d.other));
    add(&d, root, "breaking", cJSON_CreateBool(d.breaking > 0));
    add(&d, root, "old", cJSON_CreateString(o->name));
    add(&d, root, "new", cJSON_CreateString(n->name));
    add(&d, root, "options", options);
    add(&d, root, "targets", targets);
    add(&d, root, "summary", summary);
    if (d.nomem) {
        cJSON_Delete(root);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    *out = root;
    return DGPB_OK;
}
