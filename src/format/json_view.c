/*
 * json_view.c - the readable .bundle.json view (dgpb/json_view.h).
 *
 * Written straight from a validated bundle, in the binary's field order, as
 * text laid out the way the goldens have it since the first bundle: objects
 * one key a line, indented by tabs, "key":<TAB>value; arrays on one line,
 * their items separated by ", ". docs/format.md documents the schema. The
 * reader library needs no JSON library for it, so a host that only reads
 * bundles links nothing but libc and libcrypto.
 */
#include "dgpb/json_view.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
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

/* The text being written and the depth of the object it is in. */
typedef struct view {
    dgpb_bytebuf out;
    unsigned depth;
} view;

static void put(view *v, const char *s)
{
    bytebuf_append(&v->out, s, strlen(s));
}

static void indent(view *v, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++)
        bytebuf_append(&v->out, "\t", 1);
}

/* A JSON string: quote, backslash and control characters escaped, other bytes as they are. */
static void put_string(view *v, const char *s, size_t n)
{
    bytebuf_append(&v->out, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        switch (c) {
        case '"':
            put(v, "\\\"");
            break;
        case '\\':
            put(v, "\\\\");
            break;
        case '\b':
            put(v, "\\b");
            break;
        case '\f':
            put(v, "\\f");
            break;
        case '\n':
            put(v, "\\n");
            break;
        case '\r':
            put(v, "\\r");
            break;
        case '\t':
            put(v, "\\t");
            break;
        default:
            if (c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", c);
                put(v, esc);
            } else {
                bytebuf_append(&v->out, &s[i], 1);
            }
        }
    }
    bytebuf_append(&v->out, "\"", 1);
}

static void put_number(view *v, uint64_t n)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)n);
    put(v, buf);
}

/* Opens an object (the caller has written its key, or the separator of its array). */
static void open_object(view *v)
{
    put(v, "{\n");
    v->depth++;
}

static void close_object(view *v)
{
    put(v, "\n");
    v->depth--;
    indent(v, v->depth);
    put(v, "}");
}

/* The key of an object's next member; `first` says no member precedes it. */
static void key(view *v, const char *name, bool first)
{
    if (!first)
        put(v, ",\n");
    indent(v, v->depth);
    put_string(v, name, strlen(name));
    put(v, ":\t");
}

static void member_str(view *v, const char *name, dgpb_str s, bool first)
{
    key(v, name, first);
    put_string(v, s.ptr, s.len);
}

static void member_cstr(view *v, const char *name, const char *s, bool first)
{
    key(v, name, first);
    put_string(v, s, strlen(s));
}

static void member_num(view *v, const char *name, uint64_t n)
{
    key(v, name, false);
    put_number(v, n);
}

/* Arrays: their items one level deeper (an object in one is indented as such). */
static void open_array(view *v)
{
    put(v, "[");
    v->depth++;
}

static void close_array(view *v)
{
    put(v, "]");
    v->depth--;
}

/* Between two items of an array. */
static void next_item(view *v, uint32_t i)
{
    if (i)
        put(v, ", ");
}

static void blob(view *v, const dgpb_blob_ref *b)
{
    char hex[2 * DGPB_SHA256_SIZE + 1];
    dgpb_sha256_hex(b->sha256, hex);
    open_object(v);
    key(v, "offset", true);
    put_number(v, b->offset);
    member_num(v, "size", b->size);
    member_cstr(v, "sha256", hex, false);
    close_object(v);
}

static void param(view *v, const dgpb_param_view *p)
{
    open_object(v);
    member_str(v, "name", p->name, true);
    member_cstr(v, "kind", dgpb_kind_name(p->kind), false);
    key(v, "flags", false);
    open_array(v);
    uint32_t n = 0;
    /* Each set flag's name, in bit order. */
#define DGPB_FLAG(ID, bit, name, brief, ACCESS)                                                    \
    if (p->flags & DGPB_FLAG_##ID) {                                                               \
        next_item(v, n++);                                                                         \
        put(v, "\"" name "\"");                                                                    \
    }
#include "dgpb/vocabulary.def"
    close_array(v);
    member_num(v, "space", p->space);
    member_num(v, "binding", p->binding);
    if (dgpb_kind_has_shape(p->kind)) {
        char shape[96];
        member_cstr(v, "shape", dgpb_shape_text(p->offset, shape, sizeof shape), false);
    } else {
        member_num(v, "offset", p->offset);
    }
    member_num(v, "size", p->size);
    member_num(v, "webgpu_layout", p->webgpu_layout);
    close_object(v);
}

static void entry(view *v, const dgpb_entry_view *e)
{
    open_object(v);
    member_str(v, "name", e->name, true);
    member_str(v, "stage", e->stage, false);
    member_num(v, "layout", e->layout);
    key(v, "code", false);
    blob(v, &e->code);
    key(v, "thread_group_size", false);
    open_array(v);
    for (uint32_t i = 0; i < 3; i++) {
        next_item(v, i);
        put_number(v, e->thread_group_size[i]);
    }
    close_array(v);
    key(v, "params", false);
    open_array(v);
    for (uint32_t i = 0; i < e->param_count; i++) {
        next_item(v, i);
        param(v, &e->params[i]);
    }
    close_array(v);
    key(v, "capabilities", false);
    open_array(v);
    for (uint32_t i = 0; i < e->capability_count; i++) {
        next_item(v, i);
        put_string(v, e->capabilities[i].ptr, e->capabilities[i].len);
    }
    close_array(v);
    close_object(v);
}

static void target(view *v, const dgpb_target_view *t)
{
    open_object(v);
    member_str(v, "name", t->name, true);
    member_str(v, "code_format", t->code_format, false);
    key(v, "layouts", false);
    open_array(v);
    for (uint32_t i = 0; i < t->layout_count; i++) {
        next_item(v, i);
        blob(v, &t->layouts[i]);
    }
    close_array(v);
    key(v, "entries", false);
    open_array(v);
    for (uint32_t i = 0; i < t->entry_count; i++) {
        next_item(v, i);
        entry(v, &t->entries[i]);
    }
    close_array(v);
    close_object(v);
}

/*
 * The "options" object: the options the bundle records, in their order
 * there, each value a string but slang_capabilities, an array of the names.
 * Left out when the bundle records none.
 */
static void options(view *v, const dgpb_bundle *b)
{
    bool any = false;
    for (uint32_t i = 0; i < DGPB_OPTION_COUNT; i++)
        any |= dgpb_bundle_option(b, i).len > 0;
    if (!any)
        return;
    key(v, "options", false);
    open_object(v);
    bool first = true;
    for (uint32_t i = 0; i < DGPB_OPTION_COUNT; i++) {
        dgpb_str value = dgpb_bundle_option(b, i);
        if (!value.len)
            continue;
        if (i != DGPB_OPTION_SLANG_CAPABILITIES) {
            member_str(v, dgpb_option_name(i), value, first);
        } else {
            key(v, dgpb_option_name(i), first);
            open_array(v);
            uint32_t n = 0;
            for (const char *p = value.ptr, *end = value.ptr + value.len; p < end; n++) {
                const char *comma = memchr(p, ',', (size_t)(end - p));
                size_t len = comma ? (size_t)(comma - p) : (size_t)(end - p);
                next_item(v, n);
                put_string(v, p, len);
                p += len + 1;
            }
            close_array(v);
        }
        first = false;
    }
    close_object(v);
}

int dgpb_json_view(const dgpb_bundle *b, const char *stem, char **out, dgpb_diag *diag)
{
    *out = NULL;
    view v = {DGPB_BYTEBUF_INIT, 0};
    open_object(&v);
    char asset[DGPB_DIAG_FILE_MAX + 16];
    snprintf(asset, sizeof asset, "gpu_shaders.%s", stem && *stem ? stem : "main");
    member_cstr(&v, "asset", asset, true);
    member_cstr(&v, "format", DGPB_MAGIC, false);
    member_num(&v, "version", dgpb_bundle_version(b));
    member_num(&v, "size", dgpb_bundle_size(b));
    member_num(&v, "header_size", dgpb_bundle_header_size(b));
    member_num(&v, "data_size", dgpb_bundle_data_size(b));
    options(&v, b);
    key(&v, "targets", false);
    open_array(&v);
    for (uint32_t i = 0; i < dgpb_bundle_target_count(b); i++) {
        next_item(&v, i);
        target(&v, dgpb_bundle_target(b, i));
    }
    close_array(&v);
    close_object(&v);
    put(&v, "\n");
    bytebuf_append(&v.out, "", 1);
    if (v.out.failed) {
        bytebuf_free(&v.out);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory rendering the json view");
    }
    size_t len;
    *out = (char *)bytebuf_take(&v.out, &len);
    return DGPB_OK;
}
