/*
 * c_header_structs.c - C structs for the struct values of a block
 * (header/c_header_structs.h).
 *
 * Each struct of a row's fields is written once per target and entry, the
 * structs it holds first (code/value_fields.h lists them in that order).
 * A field is its C type (header/c_header_types.c: scalars, vectors,
 * matrices, arrays of them) where C can spell it at its offset and size,
 * a nested struct's typedef (an array of it where the code's stride is the
 * struct's size), else `uint8_t name[size]`, its comment saying so.
 */
#include "header/c_header_structs.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

void c_structs_free(c_structs *done)
{
    for (size_t i = 0; i < done->count; i++)
        dgpb_free(done->items[i].key);
    dgpb_free(done->items);
    memset(done, 0, sizeof *done);
}

/* One field's C spelling. */
typedef struct c_field {
    char name[C_ID_MAX];
    c_type type; /* .known false: uint8_t name[size] */
} c_field;

/* The layout of struct `s` as one string (its fields' names, offsets, types, the nested
   structs' typedef names in `names`), malloc'd; NULL without memory. */
static char *layout_key(const code_fields *f, const code_struct *s, char (*names)[C_ID_MAX])
{
    dgpb_bytebuf b = DGPB_BYTEBUF_INIT;
    char part[C_ID_MAX + 160];
    int n = snprintf(part, sizeof part, "%s %u {", s->name, s->size);
    bytebuf_append(&b, part, n > 0 ? (size_t)n : 0);
    for (uint32_t i = 0; i < s->count; i++) {
        const code_field *c = &f->fields[s->first + i];
        char type[64];
        code_type_text(&c->type, type, sizeof type);
        n = snprintf(part, sizeof part, "%s@%u+%u:%s/%u/%u/%s;", c->name, c->offset, c->size, type,
                     c->type.matrix_stride, c->type.array_stride,
                     c->type.aggregate && c->of >= 0 ? names[c->of] : "");
        bytebuf_append(&b, part, n > 0 ? (size_t)n : 0);
    }
    bytebuf_append(&b, "}", 2);
    size_t len;
    char *key = b.failed ? NULL : (char *)bytebuf_take(&b, &len);
    bytebuf_free(&b);
    return key;
}

/* The C type of field `c` (the nested structs' names and alignments known); false: bytes. */
static bool field_type(const code_fields *f, const code_field *c, char (*names)[C_ID_MAX],
                       const uint32_t *aligns, c_type *out)
{
    memset(out, 0, sizeof *out);
    if (!c->type.aggregate)
        return c_type_from_value(&c->type, c->size, out) && c->offset % out->align == 0;
    if (c->of < 0 || !names[c->of][0])
        return false;
    const code_struct *s = &f->structs[c->of];
    uint32_t count = c->type.array_count;
    if ((count && (c->type.array_stride != s->size || count * s->size != c->size)) ||
        (!count && c->size != s->size) || c->offset % aligns[c->of])
        return false;
    out->known = out->aggregate = true;
    snprintf(out->base, sizeof out->base, "%s", names[c->of]);
    if (count)
        snprintf(out->dims, sizeof out->dims, "[%u]", count);
    out->align = aligns[c->of];
    out->size = c->size;
    out->value = c->type;
    snprintf(out->text, sizeof out->text, "struct %s%s", s->name, out->dims);
    return true;
}

/* Writes struct `s` of `f` as typedef `name`: false (nothing written) when C cannot lay it out
   as the code does; its C alignment in *align. */
static bool put_struct(c_text *h, const code_fields *f, const code_struct *s, const char *name,
                       char (*names)[C_ID_MAX], const uint32_t *aligns, uint32_t *align)
{
    c_field *m = mem_calloc(s->count ? s->count : 1, sizeof *m);
    if (!m) {
        h->nomem = true;
        return false;
    }
    c_names members = {0};
    uint32_t a = 1, at = 0;
    bool ok = true;
    for (uint32_t i = 0; i < s->count && ok && !h->nomem; i++) {
        const code_field *c = &f->fields[s->first + i];
        if (c->offset < at || c->offset + (uint64_t)c->size > s->size)
            ok = false; /* fields that overlap or pass the struct's end: not C's */
        at = c->offset + c->size;
        if (!field_type(f, c, names, aligns, &m[i].type))
            m[i].type.known = false;
        if (m[i].type.known && m[i].type.align > a)
            a = m[i].type.align;
        c_member_ident(m[i].name, sizeof m[i].name, c->name, strlen(c->name));
        h->nomem |= !c_names_add(&members, m[i].name);
    }
    if (!ok || s->size % a || h->nomem) {
        c_names_free(&members);
        dgpb_free(m);
        return false;
    }
    char text[128];
    c_put(h, "/* struct %s as the code lays it out (%u bytes). */\ntypedef struct %s {\n",
          c_comment_text(c_cstr(s->name), text, sizeof text), s->size, name);
    at = 0;
    for (uint32_t i = 0; i < s->count && !h->nomem; i++) {
        const code_field *c = &f->fields[s->first + i];
        if (c->offset > at) {
            char pad[C_ID_MAX];
            snprintf(pad, sizeof pad, "pad_%u", at);
            h->nomem |= !c_names_add(&members, pad);
            c_put(h, "    uint8_t %s[%u];\n", pad, c->offset - at);
        }
        char tt[128];
        const char *shown = c_comment_text(c_cstr(c->name), text, sizeof text);
        if (m[i].type.known) {
            c_type_text(&m[i].type, tt, sizeof tt);
            c_put(h, "    %s %s%s; /* '%s': offset %u, size %u, %s */\n", m[i].type.base, m[i].name,
                  m[i].type.dims, shown, c->offset, c->size, tt);
        } else {
            c_put(h, "    uint8_t %s[%u]; /* '%s': offset %u, size %u, %s */\n", m[i].name, c->size,
                  shown, c->offset, c->size,
                  c->type.aggregate ? "a struct C cannot lay out so: bytes" : "bytes");
        }
        at = c->offset + c->size;
    }
    if (s->size > at) {
        char pad[C_ID_MAX];
        snprintf(pad, sizeof pad, "pad_%u", at);
        h->nomem |= !c_names_add(&members, pad);
        c_put(h, "    uint8_t %s[%u];\n", pad, s->size - at);
    }
    c_put(h, "} %s;\n", name);
    for (uint32_t i = 0; i < s->count; i++)
        c_put(h, "%s(offsetof(%s, %s) == %u, \"%s.%s at offset %u\");\n", h->sa, name, m[i].name,
              f->fields[s->first + i].offset, name, m[i].name, f->fields[s->first + i].offset);
    c_put(h, "%s(sizeof(%s) == %u, \"%s is %u bytes\");\n\n", h->sa, name, s->size, name, s->size);
    c_names_free(&members);
    dgpb_free(m);
    *align = a;
    return true;
}

bool c_structs_put(c_text *h, c_structs *done, const dgpb_str *target, const dgpb_str *entry,
                   const code_fields *f, uint32_t size, c_type *out)
{
    memset(out, 0, sizeof *out);
    if (f->root < 0 || (uint32_t)f->root >= f->struct_count)
        return false;
    char(*names)[C_ID_MAX] = mem_calloc(f->struct_count, sizeof *names);
    uint32_t *aligns = mem_calloc(f->struct_count, sizeof *aligns);
    bool ok = names && aligns;
    h->nomem |= !ok;
    /* Nested structs come before the structs that hold them (code/value_fields.h). */
    for (uint32_t i = 0; ok && i < f->struct_count && !h->nomem; i++) {
        const code_struct *s = &f->structs[i];
        char *key = layout_key(f, s, names);
        if (!key) {
            h->nomem = true;
            break;
        }
        size_t k = 0;
        while (k < done->count && strcmp(done->items[k].key, key))
            k++;
        if (k < done->count) { /* written before: its name again */
            dgpb_free(key);
            snprintf(names[i], sizeof names[i], "%s", done->items[k].name);
            aligns[i] = done->items[k].align;
            continue;
        }
        char name[C_ID_MAX];
        dgpb_str sn = c_cstr(s->name);
        uint32_t align = 1;
        if (!c_file_ident(h, name, target, entry, &sn, NULL) ||
            !put_struct(h, f, s, name, names, aligns, &align)) {
            dgpb_free(key); /* not written: the structs that hold it keep it as bytes */
            continue;
        }
        struct c_struct_written *grown =
            mem_grow(done->items, done->count, &done->cap, sizeof *grown, 4);
        if (!grown) {
            dgpb_free(key);
            h->nomem = true;
            break;
        }
        done->items = grown;
        struct c_struct_written *w = &done->items[done->count++];
        w->key = key;
        snprintf(w->name, sizeof w->name, "%s", name);
        w->align = align;
        w->size = s->size;
        snprintf(names[i], sizeof names[i], "%s", name);
        aligns[i] = align;
    }
    const code_struct *root = &f->structs[f->root];
    bool spelled =
        ok && !h->nomem && names[f->root][0] &&
        (f->count ? f->stride == root->size && f->count * root->size == size : root->size == size);
    if (spelled) {
        out->known = out->aggregate = true;
        snprintf(out->base, sizeof out->base, "%s", names[f->root]);
        if (f->count)
            snprintf(out->dims, sizeof out->dims, "[%u]", f->count);
        out->align = aligns[f->root];
        out->size = size;
        out->value.aggregate = true;
        out->value.array_count = f->count;
        out->value.array_stride = f->stride;
        snprintf(out->text, sizeof out->text, "struct %s%s", root->name, out->dims);
    }
    dgpb_free(names);
    dgpb_free(aligns);
    return spelled;
}
