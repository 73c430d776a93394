/*
 * value_fields.c - the fields of a struct value: the list the code formats'
 * readers fill, and how a host walks it (code/value_fields.h). The readers
 * are in each format's folder; code/code_formats.c picks one.
 */
#include "code/value_fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

void code_fields_free(code_fields *f)
{
    if (!f)
        return;
    for (uint32_t i = 0; i < f->struct_count; i++)
        dgpb_free(f->structs[i].name);
    for (uint32_t i = 0; i < f->field_count; i++)
        dgpb_free(f->fields[i].name);
    dgpb_free(f->structs);
    dgpb_free(f->fields);
    memset(f, 0, sizeof *f);
    f->root = -1;
}

/* `name` without a trailing "_<digits>" (WGSL) and then without Slang's layout suffix. */
static size_t base_length(const char *name, size_t len, bool wgsl, bool layout)
{
    size_t n = len;
    if (wgsl) {
        size_t d = n;
        while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9')
            d--;
        if (d < n && d > 1 && name[d - 1] == '_')
            n = d - 1;
    }
    static const char *const suffixes[] = {"_std140", "_std430", "_scalar", "_natural"};
    for (size_t i = 0; layout && i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t s = strlen(suffixes[i]);
        if (n > s && !memcmp(name + n - s, suffixes[i], s)) {
            n -= s;
            break;
        }
    }
    return n;
}

char *code_fields_copy_name(const char *name, size_t len, bool wgsl)
{
    size_t n = base_length(name, len, wgsl, false);
    char *s = mem_alloc(n + 1);
    if (s) {
        memcpy(s, name, n);
        s[n] = 0;
    }
    return s;
}

int code_fields_add_struct(code_fields *f, const char *name, size_t len, uint32_t size,
                           uint32_t align, const code_field *fields, uint32_t count, int32_t *index,
                           dgpb_diag *diag)
{
    if (f->struct_count >= CODE_FIELDS_MAX_STRUCTS ||
        f->field_count + (size_t)count > CODE_FIELDS_MAX_FIELDS)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                             "a value holds more than %d structs or %d fields",
                             CODE_FIELDS_MAX_STRUCTS, CODE_FIELDS_MAX_FIELDS);
    code_struct *s = mem_grow(f->structs, f->struct_count, &f->struct_cap, sizeof *s, 8);
    if (!s)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading a struct");
    f->structs = s;
    if (f->field_count + (size_t)count > f->field_cap) {
        size_t cap = f->field_cap ? f->field_cap : 16;
        while (cap < f->field_count + (size_t)count)
            cap *= 2;
        code_field *grown = mem_realloc(f->fields, cap * sizeof *grown);
        if (!grown)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading a struct");
        f->fields = grown;
        f->field_cap = cap;
    }
    size_t n = base_length(name, len, false, true);
    code_struct *st = &f->structs[f->struct_count];
    *st = (code_struct){.name = mem_alloc(n + 1),
                        .size = size,
                        .align = align ? align : 1,
                        .first = f->field_count,
                        .count = count};
    if (!st->name)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading a struct");
    memcpy(st->name, name, n);
    st->name[n] = 0;
    f->struct_count++;
    for (uint32_t i = 0; i < count; i++) {
        code_field *d = &f->fields[f->field_count];
        *d = fields[i];
        if (!(d->name = mem_strdup(fields[i].name ? fields[i].name : "")))
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading a struct");
        f->field_count++;
    }
    *index = (int32_t)(f->struct_count - 1);
    return DGPB_OK;
}

void code_fields_root(const code_fields *f, uint32_t row_size, code_node *out)
{
    memset(out, 0, sizeof *out);
    out->size = row_size;
    out->of = f->root;
    if (f->root < 0 || (uint32_t)f->root >= f->struct_count)
        return;
    out->type.aggregate = true;
    out->type.array_count = f->count;
    out->type.array_stride = f->stride;
}

/* Whether node `n` is an array (of structs or of values). */
static bool is_array(const code_node *n)
{
    return n->type.array_count > 0;
}

/* Node `n`'s element `i` (n an array). */
static void element_of(const code_node *n, uint32_t i, code_node *out)
{
    *out = *n;
    out->offset = n->offset + i * n->type.array_stride;
    out->size = n->type.array_stride;
    out->type.array_count = 0;
    out->type.array_stride = 0;
    if (!n->type.aggregate && n->type.rows <= 1) /* a vector or scalar: its own size */
        out->size = n->type.columns * (n->type.bits / 8);
}

void code_node_text(const code_fields *f, const code_node *n, char *buf, size_t size)
{
    if (!size)
        return;
    if (n->type.aggregate && n->of >= 0 && (uint32_t)n->of < f->struct_count) {
        int k = snprintf(buf, size, "struct %s", f->structs[n->of].name);
        if (n->type.array_count && k >= 0 && (size_t)k < size)
            snprintf(buf + k, size - (size_t)k, "[%u]", n->type.array_count);
        return;
    }
    code_type_text(&n->type, buf, size);
}

/* The field of struct `s` named `name` (len bytes), or NULL. */
static const code_field *field_named(const code_fields *f, const code_struct *s, const char *name,
                                     size_t len)
{
    for (uint32_t i = 0; i < s->count; i++) {
        const code_field *c = &f->fields[s->first + i];
        if (strlen(c->name) == len && !memcmp(c->name, name, len))
            return c;
    }
    return NULL;
}

/* "x, y, w, h" into buf: the names of struct `s`'s fields. */
static void field_names(const code_fields *f, const code_struct *s, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < s->count && n + 1 < size; i++) {
        int k = snprintf(buf + n, size - n, "%s%s", i ? ", " : "", f->fields[s->first + i].name);
        if (k < 0)
            break;
        n += (size_t)k;
    }
    if (n >= size && size > 4)
        memcpy(buf + size - 4, "...", 4);
}

int code_fields_walk(const code_fields *f, const code_node *from, const char *path, code_node *out,
                     char *why, size_t why_size)
{
    code_node n = *from;
    char text[96];
    const char *p = path;
    while (*p) {
        code_node_text(f, &n, text, sizeof text);
        if (*p == '[') {
            const char *q = p + 1;
            unsigned long long i = 0;
            while (*q >= '0' && *q <= '9' && i <= UINT32_MAX)
                i = i * 10 + (unsigned long long)(*q++ - '0');
            if (q == p + 1 || *q != ']') {
                snprintf(why, why_size, "'%.*s' is no [index]", (int)strcspn(p + 1, "].") + 2, p);
                return DGPB_ERR_NOT_FOUND;
            }
            if (!is_array(&n)) {
                snprintf(why, why_size, "%s is no array: it has no element [%llu]", text, i);
                return DGPB_ERR_NOT_FOUND;
            }
            if (i >= n.type.array_count) {
                snprintf(why, why_size, "index %llu is past the %u elements of %s", i,
                         n.type.array_count, text);
                return DGPB_ERR_NOT_FOUND;
            }
            code_node e;
            element_of(&n, (uint32_t)i, &e);
            n = e;
            p = q + 1;
            continue;
        }
        if (*p != '.') {
            snprintf(why, why_size, "'%s' is neither .FIELD nor [INDEX]", p);
            return DGPB_ERR_NOT_FOUND;
        }
        size_t len = strcspn(p + 1, ".[");
        if (!n.type.aggregate || n.of < 0 || is_array(&n)) {
            snprintf(why, why_size, "%s has no fields (no field '%.*s')%s", text, (int)len, p + 1,
                     is_array(&n) ? ": give an element first, [INDEX]" : "");
            return DGPB_ERR_NOT_FOUND;
        }
        const code_struct *s = &f->structs[n.of];
        const code_field *c = field_named(f, s, p + 1, len);
        if (!c) {
            char names[160];
            field_names(f, s, names, sizeof names);
            snprintf(why, why_size, "struct %s has no field '%.*s' (its fields: %s)", s->name,
                     (int)len, p + 1, names);
            return DGPB_ERR_NOT_FOUND;
        }
        n.offset += c->offset;
        n.size = c->size;
        n.type = c->type;
        n.of = c->type.aggregate ? c->of : -1;
        p += 1 + len;
    }
    *out = n;
    return DGPB_OK;
}

typedef struct visit {
    const code_fields *f;
    bool structs;
    code_fields_fn fn;
    void *ctx;
    char path[512];
} visit;

static int visit_node(visit *v, const code_node *n, size_t at, int depth);

/* The fields of the struct node `n` (no array), each after its path. */
static int visit_fields(visit *v, const code_node *n, size_t at, int depth)
{
    const code_struct *s = &v->f->structs[n->of];
    for (uint32_t i = 0; i < s->count; i++) {
        const code_field *c = &v->f->fields[s->first + i];
        code_node m = {.offset = n->offset + c->offset,
                       .size = c->size,
                       .type = c->type,
                       .of = c->type.aggregate ? c->of : -1};
        int k = snprintf(v->path + at, sizeof v->path - at, ".%s", c->name);
        size_t end = k < 0 ? at : at + (size_t)k;
        if (end >= sizeof v->path)
            end = sizeof v->path - 1;
        int rc = visit_node(v, &m, end, depth + 1);
        if (rc)
            return rc;
    }
    v->path[at] = 0;
    return 0;
}

static int visit_node(visit *v, const code_node *n, size_t at, int depth)
{
    if (depth > CODE_FIELDS_MAX_DEPTH)
        return 0;
    bool structure = n->type.aggregate && n->of >= 0 && (uint32_t)n->of < v->f->struct_count;
    if (!structure)
        return v->fn(v->ctx, n, v->path, true);
    if (depth > 0 && v->structs) {
        int rc = v->fn(v->ctx, n, v->path, false);
        if (rc)
            return rc;
    }
    if (!is_array(n))
        return visit_fields(v, n, at, depth);
    for (uint32_t i = 0; i < n->type.array_count; i++) {
        code_node e;
        element_of(n, i, &e);
        int k = v->structs ? snprintf(v->path + at, sizeof v->path - at, "[i]")
                           : snprintf(v->path + at, sizeof v->path - at, "[%u]", i);
        size_t end = k < 0 ? at : at + (size_t)k;
        if (end >= sizeof v->path)
            end = sizeof v->path - 1;
        if (v->structs) { /* the element's fields once, as [i] */
            return visit_fields(v, &e, end, depth + 1);
        }
        int rc = visit_fields(v, &e, end, depth + 1);
        if (rc)
            return rc;
    }
    v->path[at] = 0;
    return 0;
}

int code_fields_visit(const code_fields *f, const code_node *from, bool structs, code_fields_fn fn,
                      void *ctx)
{
    visit *v = mem_calloc(1, sizeof *v);
    if (!v)
        return DGPB_ERR_NOMEM;
    v->f = f;
    v->structs = structs;
    v->fn = fn;
    v->ctx = ctx;
    int rc = visit_node(v, from, 0, 0);
    dgpb_free(v);
    return rc;
}
