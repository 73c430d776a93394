/*
 * c_header_structs.c - the structs of a C header, each layout written once
 * (header/c_header_structs.h).
 *
 * A struct the code declares is laid out from its fields (code/value_fields.h),
 * the structs it holds first: a field is its C type (header/c_header_types.c:
 * scalars, vectors, matrices, arrays of them) where C can spell it at its
 * offset and size, a nested struct's typedef (an array of it where the code's
 * stride is the struct's size), else `uint8_t name[size]`, its comment saying
 * so. Two layouts are one when their text (what they are, their size, each
 * member's name, offset, size, C type and note) is the same.
 */
#include "header/c_header_structs.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

void c_members_free(c_member *m, uint32_t count)
{
    for (uint32_t i = 0; m && i < count; i++)
        dgpb_free(m[i].shown);
    dgpb_free(m);
}

void c_defs_free(c_defs *d)
{
    for (size_t i = 0; i < d->count; i++) {
        dgpb_free(d->defs[i].key);
        dgpb_free(d->defs[i].what);
        c_members_free(d->defs[i].members, d->defs[i].count);
    }
    for (size_t i = 0; i < d->use_count; i++)
        dgpb_free(d->uses[i].group);
    dgpb_free(d->defs);
    dgpb_free(d->uses);
    memset(d, 0, sizeof *d);
}

static bool str_same(dgpb_str a, dgpb_str b)
{
    return a.len == b.len && !memcmp(a.ptr, b.ptr, a.len);
}

/* The layout as one string (malloc'd; NULL without memory). */
static char *def_key(bool block, const char *what, uint32_t size, const c_member *m,
                     uint32_t count)
{
    dgpb_bytebuf b = DGPB_BYTEBUF_INIT;
    char part[3 * C_ID_MAX];
    int n = snprintf(part, sizeof part, "%s %s %u {", block ? "block" : "struct",
                     block ? "" : what, size);
    bytebuf_append(&b, part, n > 0 ? (size_t)n : 0);
    for (uint32_t i = 0; i < count; i++) {
        char type[C_ID_MAX + 64];
        if (!m[i].type.known)
            snprintf(type, sizeof type, "bytes");
        else if (m[i].of >= 0)
            snprintf(type, sizeof type, "#%d%s", m[i].of, m[i].type.dims);
        else
            snprintf(type, sizeof type, "%s%s", m[i].type.base, m[i].type.dims);
        n = snprintf(part, sizeof part, "%s(%.200s)@%u+%u:%s/%s;", m[i].name, m[i].shown,
                     m[i].offset, m[i].size, type, m[i].note);
        bytebuf_append(&b, part, n > 0 ? (size_t)n : 0);
    }
    bytebuf_append(&b, "}", 2);
    size_t len;
    char *key = b.failed ? NULL : (char *)bytebuf_take(&b, &len);
    bytebuf_free(&b);
    return key;
}

/* The layout of `count` members `m` (taken over): its index, the one met before where alike (a
   block as large as the code's block where any of its uses says so). */
static int32_t add_def(c_text *h, c_defs *d, bool block, const char *what, c_member *m,
                       uint32_t count, uint32_t size, uint32_t align, bool code_size)
{
    char *key = def_key(block, what, size, m, count);
    char *name = mem_strdup(what);
    c_def *grown = key && name ? mem_grow(d->defs, d->count, &d->cap, sizeof *grown, 8) : NULL;
    if (!grown) {
        dgpb_free(key);
        dgpb_free(name);
        c_members_free(m, count);
        h->nomem = true;
        return -1;
    }
    d->defs = grown;
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->defs[i].key, key)) {
            d->defs[i].code_size |= code_size;
            dgpb_free(key);
            dgpb_free(name);
            c_members_free(m, count);
            return (int32_t)i;
        }
    d->defs[d->count] = (c_def){.key = key,
                                .block = block,
                                .what = name,
                                .size = size,
                                .align = align,
                                .code_size = code_size,
                                .members = m,
                                .count = count};
    return (int32_t)d->count++;
}

int32_t c_defs_block(c_text *h, c_defs *d, const char *what, c_member *members, uint32_t count,
                     uint32_t size, uint32_t align, bool code_size)
{
    return add_def(h, d, true, what, members, count, size, align, code_size);
}

int32_t c_defs_use(c_text *h, c_defs *d, bool block, dgpb_str group, const c_use *at, int32_t def)
{
    for (size_t i = 0; i < d->use_count; i++) {
        const c_use *u = &d->uses[i];
        if (u->block == block && u->def == def && u->set == at->set &&
            u->target_index == at->target_index && strlen(u->group) == group.len &&
            !memcmp(u->group, group.ptr, group.len))
            return (int32_t)i;
    }
    char *name = mem_alloc((size_t)group.len + 1);
    c_use *grown = name ? mem_grow(d->uses, d->use_count, &d->use_cap, sizeof *grown, 16) : NULL;
    if (!grown) {
        dgpb_free(name);
        h->nomem = true;
        return -1;
    }
    d->uses = grown;
    memcpy(name, group.ptr, group.len);
    name[group.len] = 0;
    c_use *u = &d->uses[d->use_count];
    *u = *at;
    u->block = block;
    u->group = name;
    u->def = def;
    u->name[0] = 0;
    return (int32_t)d->use_count++;
}

/* ---- structs the code declares ---- */

/* The C type of field `c` (the nested structs' layouts in defs[]) into m; false: bytes. */
static bool field_type(const c_defs *d, const code_fields *f, const code_field *c,
                       const int32_t *defs, c_member *m)
{
    m->of = -1;
    if (!c->type.aggregate)
        return c_type_from_value(&c->type, c->size, &m->type) && c->offset % m->type.align == 0;
    memset(&m->type, 0, sizeof m->type);
    m->type.aggregate = true;
    if (c->of < 0 || (uint32_t)c->of >= f->struct_count || defs[c->of] < 0)
        return false;
    const c_def *nd = &d->defs[defs[c->of]];
    uint32_t count = c->type.array_count;
    if ((count && (c->type.array_stride != nd->size || count * nd->size != c->size)) ||
        (!count && c->size != nd->size) || c->offset % nd->align)
        return false;
    m->type.known = true;
    if (count)
        snprintf(m->type.dims, sizeof m->type.dims, "[%u]", count);
    m->type.align = nd->align;
    m->type.size = c->size;
    m->type.value = c->type;
    snprintf(m->type.text, sizeof m->type.text, "struct %s%s", f->structs[c->of].name,
             m->type.dims);
    m->of = defs[c->of];
    return true;
}

/* The layout of struct `s` of `f`, or -1 when C cannot lay it out as the code does. */
static int32_t struct_def(c_text *h, c_defs *d, const code_fields *f, const code_struct *s,
                          const int32_t *defs)
{
    c_member *m = mem_calloc(s->count ? s->count : 1, sizeof *m);
    if (!m) {
        h->nomem = true;
        return -1;
    }
    c_names names = {0};
    uint32_t a = 1, at = 0;
    bool ok = true;
    for (uint32_t i = 0; i < s->count && ok && !h->nomem; i++) {
        const code_field *c = &f->fields[s->first + i];
        if (c->offset < at || c->offset + (uint64_t)c->size > s->size)
            ok = false; /* fields that overlap or pass the struct's end: not C's */
        at = c->offset + c->size;
        m[i].offset = c->offset;
        m[i].size = c->size;
        if (!field_type(d, f, c, defs, &m[i]))
            m[i].type.known = false;
        if (m[i].type.known && m[i].type.align > a)
            a = m[i].type.align;
        if (m[i].type.known)
            c_type_text(&m[i].type, m[i].note, sizeof m[i].note);
        else
            snprintf(m[i].note, sizeof m[i].note, "%s",
                     c->type.aggregate ? "a struct C cannot lay out so: bytes" : "bytes");
        c_member_ident(h->stem, m[i].name, sizeof m[i].name, c->name, strlen(c->name));
        h->nomem |= !c_names_add(&names, m[i].name) || !(m[i].shown = mem_strdup(c->name));
    }
    c_names_free(&names);
    if (!ok || s->size % a || h->nomem) {
        c_members_free(m, s->count);
        return -1;
    }
    return add_def(h, d, false, s->name, m, s->count, s->size, a, false);
}

int32_t c_defs_fields(c_text *h, c_defs *d, const code_fields *f, uint32_t size, const c_use *at,
                      c_type *out)
{
    memset(out, 0, sizeof *out);
    out->aggregate = true;
    if (f->root < 0 || (uint32_t)f->root >= f->struct_count)
        return -1;
    int32_t *defs = mem_calloc(f->struct_count, sizeof *defs);
    if (!defs) {
        h->nomem = true;
        return -1;
    }
    /* Nested structs come before the structs that hold them (code/value_fields.h). */
    for (uint32_t i = 0; i < f->struct_count; i++) {
        defs[i] = h->nomem ? -1 : struct_def(h, d, f, &f->structs[i], defs);
        if (defs[i] >= 0 && c_defs_use(h, d, false, c_cstr(f->structs[i].name), at, defs[i]) < 0)
            defs[i] = -1;
    }
    int32_t root = defs[f->root];
    dgpb_free(defs);
    if (root < 0 || h->nomem)
        return -1;
    const c_def *r = &d->defs[root];
    if (f->count ? f->stride != r->size || f->count * r->size != size : r->size != size)
        return -1;
    out->known = true;
    if (f->count)
        snprintf(out->dims, sizeof out->dims, "[%u]", f->count);
    out->align = r->align;
    out->size = size;
    out->value.aggregate = true;
    out->value.array_count = f->count;
    out->value.array_stride = f->stride;
    snprintf(out->text, sizeof out->text, "struct %s%s", f->structs[f->root].name, out->dims);
    return root;
}

/* ---- writing ---- */

/* How the uses of `u`'s name are named: 0 <stem>_<name>, 1 <stem>_<target>_<name>, 2
   <stem>_<target>_<entry>_<name> (header/c_header_structs.h). */
static int name_level(const c_defs *d, const c_use *u)
{
    int level = 0;
    for (size_t i = 0; i < d->use_count; i++) {
        const c_use *a = &d->uses[i];
        if (a->def < 0 || a->block != u->block || strcmp(a->group, u->group))
            continue;
        for (size_t k = i + 1; k < d->use_count; k++) {
            const c_use *b = &d->uses[k];
            if (b->def < 0 || b->def == a->def || b->block != u->block || strcmp(b->group, u->group))
                continue;
            if (!str_same(a->target, b->target))
                level = level > 1 ? level : 1;
            else
                return 2;
        }
    }
    return level;
}

/* The struct of layout `def` as typedef `name`, its static assertions after it. */
static void write_def(c_text *h, const c_defs *d, const c_def *def, const char *name)
{
    char text[128];
    const char *what = c_comment_text(c_cstr(def->what), text, sizeof text);
    if (def->block)
        c_put(h, "/* Block '%s': its values at their offsets (%u bytes%s). */\n", what, def->size,
              def->code_size ? ", the block's size in the code" : "");
    else
        c_put(h, "/* struct %s as the code lays it out (%u bytes). */\n", what, def->size);
    c_put(h, "typedef struct %s {\n", name);
    c_names names = {0};
    for (uint32_t i = 0; i < def->count; i++) {
        char id[C_ID_MAX];
        snprintf(id, sizeof id, "%s", def->members[i].name);
        h->nomem |= !c_names_add(&names, id);
    }
    uint32_t at = 0;
    for (uint32_t i = 0; i < def->count && !h->nomem; i++) {
        const c_member *m = &def->members[i];
        if (m->offset > at) {
            char pad[C_ID_MAX];
            snprintf(pad, sizeof pad, "pad_%u", at);
            h->nomem |= !c_names_add(&names, pad);
            c_put(h, "    uint8_t %s[%u];\n", pad, m->offset - at);
        }
        const char *base = m->of >= 0 ? d->defs[m->of].name : m->type.base;
        const char *shown = c_comment_text(c_cstr(m->shown), text, sizeof text);
        if (m->type.known && base[0])
            c_put(h, "    %s %s%s; /* '%s': offset %u, size %u, %s */\n", base, m->name,
                  m->type.dims, shown, m->offset, m->size, m->note);
        else
            c_put(h, "    uint8_t %s[%u]; /* '%s': offset %u, size %u, %s */\n", m->name, m->size,
                  shown, m->offset, m->size, m->type.known ? "bytes" : m->note);
        at = m->offset + m->size;
    }
    if (def->size > at) {
        char pad[C_ID_MAX];
        snprintf(pad, sizeof pad, "pad_%u", at);
        h->nomem |= !c_names_add(&names, pad);
        c_put(h, "    uint8_t %s[%u];\n", pad, def->size - at);
    }
    c_names_free(&names);
    c_put(h, "} %s;\n", name);
    for (uint32_t i = 0; i < def->count; i++)
        c_put(h, "%s(offsetof(%s, %s) == %u, \"%s.%s at offset %u\");\n", h->sa, name,
              def->members[i].name, def->members[i].offset, name, def->members[i].name,
              def->members[i].offset);
    c_put(h, "%s(sizeof(%s) == %u, \"%s is %u bytes\");\n\n", h->sa, name, def->size, name,
          def->size);
}

const char *c_defs_write(c_text *h, c_defs *d, size_t use)
{
    c_use *u = &d->uses[use];
    if (u->def < 0 || u->name[0])
        return u->name;
    int level = name_level(d, u);
    for (size_t i = 0; i < d->use_count; i++) { /* its name, written before */
        const c_use *v = &d->uses[i];
        if (v->name[0] && v->def == u->def && v->block == u->block && !strcmp(v->group, u->group) &&
            (level < 1 || str_same(v->target, u->target)) &&
            (level < 2 || str_same(v->entry, u->entry))) {
            snprintf(u->name, sizeof u->name, "%s", v->name);
            return u->name;
        }
    }
    dgpb_str group = c_cstr(u->group);
    bool named = level == 0   ? c_file_ident(h, u->name, &group, NULL)
                 : level == 1 ? c_file_ident(h, u->name, &u->target, &group, NULL)
                              : c_file_ident(h, u->name, &u->target, &u->entry, &group, NULL);
    if (!named) {
        u->name[0] = 0;
        return u->name;
    }
    c_def *def = &d->defs[u->def];
    if (!def->name[0]) {
        write_def(h, d, def, u->name);
        snprintf(def->name, sizeof def->name, "%s", u->name);
        return u->name;
    }
    char text[128], entry[128];
    c_put(h, u->block ? "/* Block '%s'" : "/* struct %s", c_comment_text(group, text, sizeof text));
    if (level >= 1)
        c_put(h, " on %.*s", (int)u->target.len, u->target.ptr);
    if (level >= 2)
        c_put(h, " for '%s'", c_comment_text(u->entry, entry, sizeof entry));
    c_put(h, ": laid out as %s. */\ntypedef %s %s;\n\n", def->name, def->name, u->name);
    return u->name;
}
