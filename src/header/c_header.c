/*
 * c_header.c - the C header of a bundle (header/c_header.h).
 *
 * Per entry: the index of every row (one enum, shared by the targets when
 * their tables agree, which dgpb-build makes sure of), the capabilities;
 * per target of the entry: a struct for each block of value rows (one
 * `space`/`binding`), members at their row's offset with explicit padding,
 * every offset and the size checked by a static assertion, and the ids of
 * the pipeline constants. Names are C identifiers made from the stem, the
 * target, the entry and the row, unique in the header (docs/build.md, "The
 * C header"). The members' C types come from the value types of the code
 * (c_header_types.c).
 */
#include "header/c_header.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/format.h"
#include "header/c_header_types.h"

#define ID_MAX 512 /* bytes of an identifier this header makes; longer names are cut */

/* The vocabulary's capability IDs, for the masks (DGPB_CAP_<ID> of dgpb/format.h). */
static const char *const capability_ids[] = {
#define DGPB_CAPABILITY(ID, value, name, webgpu_feature) [value] = #ID,
#include "dgpb/vocabulary.def"
};

/* C11 and C++ keywords (C++ alternative tokens included): a member never takes one. */
static const char *const keywords[] = {"alignas",
                                       "alignof",
                                       "and",
                                       "and_eq",
                                       "asm",
                                       "auto",
                                       "bitand",
                                       "bitor",
                                       "bool",
                                       "break",
                                       "case",
                                       "catch",
                                       "char",
                                       "char16_t",
                                       "char32_t",
                                       "char8_t",
                                       "class",
                                       "co_await",
                                       "co_return",
                                       "co_yield",
                                       "compl",
                                       "concept",
                                       "const",
                                       "const_cast",
                                       "consteval",
                                       "constexpr",
                                       "constinit",
                                       "continue",
                                       "decltype",
                                       "default",
                                       "delete",
                                       "do",
                                       "double",
                                       "dynamic_cast",
                                       "else",
                                       "enum",
                                       "explicit",
                                       "export",
                                       "extern",
                                       "false",
                                       "float",
                                       "for",
                                       "friend",
                                       "goto",
                                       "if",
                                       "inline",
                                       "int",
                                       "long",
                                       "mutable",
                                       "namespace",
                                       "new",
                                       "noexcept",
                                       "not",
                                       "not_eq",
                                       "nullptr",
                                       "operator",
                                       "or",
                                       "or_eq",
                                       "private",
                                       "protected",
                                       "public",
                                       "register",
                                       "reinterpret_cast",
                                       "requires",
                                       "restrict",
                                       "return",
                                       "short",
                                       "signed",
                                       "sizeof",
                                       "static",
                                       "static_assert",
                                       "static_cast",
                                       "struct",
                                       "switch",
                                       "template",
                                       "this",
                                       "thread_local",
                                       "throw",
                                       "true",
                                       "try",
                                       "typedef",
                                       "typeid",
                                       "typename",
                                       "union",
                                       "unsigned",
                                       "using",
                                       "virtual",
                                       "void",
                                       "volatile",
                                       "wchar_t",
                                       "while",
                                       "xor",
                                       "xor_eq",
                                       "offsetof",
                                       "NULL",
                                       "errno",
                                       "assert"};

/* A set of identifiers: each name added is made unique in it ("_2", "_3", ... appended). */
typedef struct names {
    char **items;
    size_t count, cap;
} names;

typedef struct hdr {
    dgpb_bytebuf out;
    names ids;          /* every file-scope identifier and macro of the header */
    char stem[ID_MAX];  /* the stem as an identifier */
    char guard[ID_MAX]; /* the include guard */
    char sa[ID_MAX];    /* the static-assertion macro */
    c_header_types types;
    bool nomem;
} hdr;

static void put(hdr *h, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(hdr *h, const char *fmt, ...)
{
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        h->out.failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        bytebuf_append(&h->out, small, (size_t)n);
        return;
    }
    char *big = mem_alloc((size_t)n + 1);
    if (!big) {
        h->out.failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    bytebuf_append(&h->out, big, (size_t)n);
    dgpb_free(big);
}

/*
 * Appends `s` (len bytes) to the identifier in out as C can spell it: every
 * character but a letter or digit becomes '_', runs of '_' become one, and
 * no '_' leads or trails (so no identifier holds "__", which C++ reserves).
 */
static void ident_append(char *out, size_t size, const char *s, size_t len)
{
    size_t n = strlen(out);
    bool sep = n > 0;
    for (size_t i = 0; i < len && n + 2 < size; i++) {
        char c = s[i];
        bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum) {
            sep = n > 0;
            continue;
        }
        if (sep && out[n - 1] != '_')
            out[n++] = '_';
        sep = false;
        out[n++] = c;
    }
    out[n] = 0;
}

static bool is_keyword(const char *s)
{
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (!strcmp(s, keywords[i]))
            return true;
    return false;
}

/* An identifier for a name that stands alone (a member): never empty, a digit or a keyword first. */
static void member_ident(char *out, size_t size, const char *s, size_t len)
{
    out[0] = 0;
    ident_append(out, size, s, len);
    if (!out[0] || (out[0] >= '0' && out[0] <= '9')) {
        char tmp[ID_MAX];
        snprintf(tmp, sizeof tmp, "m_%.400s", out);
        snprintf(out, size, "%s", tmp);
    }
    if (is_keyword(out) && strlen(out) + 2 < size)
        strcat(out, "_");
}

static bool names_has(const names *n, const char *s)
{
    for (size_t i = 0; i < n->count; i++)
        if (!strcmp(n->items[i], s))
            return true;
    return false;
}

/* Makes `id` (an identifier of at most ID_MAX bytes) unique in `n` and adds it; false: no memory. */
static bool names_add(names *n, char *id)
{
    if (names_has(n, id)) {
        size_t len = strlen(id);
        if (len > ID_MAX - 16)
            len = ID_MAX - 16;
        for (unsigned k = 2;; k++) {
            snprintf(id + len, ID_MAX - len, "_%u", k);
            if (!names_has(n, id))
                break;
        }
    }
    char *copy = mem_strdup(id);
    char **grown = copy ? mem_grow(n->items, n->count, &n->cap, sizeof *n->items, 16) : NULL;
    if (!grown) {
        dgpb_free(copy);
        return false;
    }
    n->items = grown;
    n->items[n->count++] = copy;
    return true;
}

static void names_free(names *n)
{
    for (size_t i = 0; i < n->count; i++)
        dgpb_free(n->items[i]);
    dgpb_free(n->items);
    *n = (names){0};
}

/* A file-scope identifier from parts (NULL-terminated), prefixed by the stem, made unique. */
static bool file_ident(hdr *h, char *out, ...)
{
    snprintf(out, ID_MAX, "%s", h->stem);
    va_list ap;
    va_start(ap, out);
    for (const dgpb_str *part; (part = va_arg(ap, const dgpb_str *)) != NULL;)
        ident_append(out, ID_MAX, part->ptr, part->len);
    va_end(ap);
    if (!names_add(&h->ids, out)) {
        h->nomem = true;
        return false;
    }
    return true;
}

static dgpb_str cstr(const char *s)
{
    return (dgpb_str){s, (uint32_t)strlen(s)};
}

/* A name as comment text: printable ASCII, and never the end of a comment. */
static const char *comment_text(dgpb_str s, char *buf, size_t size)
{
    size_t n = 0;
    for (uint32_t i = 0; i < s.len && n + 1 < size; i++) {
        char c = s.ptr[i];
        if (c < 0x20 || c > 0x7e || (c == '/' && n && buf[n - 1] == '*'))
            c = '?';
        buf[n++] = c;
    }
    buf[n] = 0;
    return buf;
}

/* ---- what an entry's targets share ---- */

/* One entry of the bundle, with the targets that carry it. */
typedef struct entry_set {
    dgpb_str name;
    uint32_t count;
    const dgpb_target_view *targets[DGPB_TARGET_COUNT];
    const dgpb_entry_view *entries[DGPB_TARGET_COUNT];
} entry_set;

static bool rows_alike(const entry_set *s)
{
    const dgpb_entry_view *a = s->entries[0];
    for (uint32_t t = 1; t < s->count; t++) {
        const dgpb_entry_view *c = s->entries[t];
        if (c->param_count != a->param_count)
            return false;
        for (uint32_t r = 0; r < a->param_count; r++)
            if (a->params[r].kind != c->params[r].kind ||
                a->params[r].name.len != c->params[r].name.len ||
                memcmp(a->params[r].name.ptr, c->params[r].name.ptr, a->params[r].name.len))
                return false;
    }
    return true;
}

static bool caps_alike(const entry_set *s)
{
    for (uint32_t t = 1; t < s->count; t++)
        if (s->entries[t]->capability_mask != s->entries[0]->capability_mask)
            return false;
    return true;
}

/* ---- the parts of an entry ---- */

/*
 * What a row's comment adds to its kind: a structured buffer's element stride
 * (its `size`), per target where the targets differ. `only`: that target alone.
 */
/* Row `r` of `e` as an element of a fixed array of resources: rows of one kind sharing a
   place, the element index being the position among them (docs/format.md). False if not. */
static bool array_element(const dgpb_entry_view *e, uint32_t r, uint32_t *index, uint32_t *count)
{
    const dgpb_param_view *p = &e->params[r];
    if (p->kind == DGPB_KIND_VALUE || p->kind == DGPB_KIND_UNIFORM_BUFFER)
        return false;
    *index = *count = 0;
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *q = &e->params[i];
        if (q->kind != p->kind || q->space != p->space || q->binding != p->binding)
            continue;
        *index += i < r;
        ++*count;
    }
    return *count > 1;
}

static void row_note(const entry_set *s, const dgpb_entry_view *only, uint32_t r, char *buf,
                     size_t size)
{
    buf[0] = 0;
    const dgpb_param_view *p = &(only ? only : s->entries[0])->params[r];
    uint32_t index = 0, count = 0;
    for (uint32_t t = 0; t < (only ? 1 : s->count); t++)
        if (array_element(only ? only : s->entries[t], r, &index, &count)) {
            size_t n = (size_t)snprintf(buf, size, ", array element %u of %u%s%.*s", index, count,
                                        only ? "" : " on ", only ? 0 : (int)s->targets[t]->name.len,
                                        only ? "" : s->targets[t]->name.ptr);
            buf += n < size ? n : size;
            size -= n < size ? n : size;
            break;
        }
    if (dgpb_kind_has_shape(p->kind)) { /* what a host creates (docs/format.md, "Shapes") */
        char shape[96];
        bool same = true;
        for (uint32_t t = 0; t < s->count && !only; t++)
            same &= s->entries[t]->params[r].offset == p->offset;
        if (same) {
            if (p->offset)
                snprintf(buf, size, ", %s", dgpb_shape_text(p->offset, shape, sizeof shape));
            return;
        }
        size_t n = 0;
        for (uint32_t t = 0; t < s->count && n < size; t++)
            n += (size_t)snprintf(
                buf + n, size - n, "%s %s on %.*s", t ? "," : ",",
                dgpb_shape_text(s->entries[t]->params[r].offset, shape, sizeof shape),
                (int)s->targets[t]->name.len, s->targets[t]->name.ptr);
        return;
    }
    if ((p->kind != DGPB_KIND_BUFFER && p->kind != DGPB_KIND_RW_BUFFER) || (only && !p->size))
        return;
    bool alike = true;
    for (uint32_t t = 0; t < s->count && !only; t++)
        alike &= s->entries[t]->params[r].size == p->size;
    if (alike) {
        if (p->size)
            snprintf(buf, size, ", element stride %u", p->size);
        return;
    }
    size_t n = (size_t)snprintf(buf, size, ", element stride");
    for (uint32_t t = 0; t < s->count && n < size; t++)
        n += (size_t)snprintf(buf + n, size - n, "%s %u on %.*s", t ? "," : "",
                              s->entries[t]->params[r].size, (int)s->targets[t]->name.len,
                              s->targets[t]->name.ptr);
}

/* The enum of row indices; `target` NULL when every target of the entry shares it. */
static void put_indices(hdr *h, const entry_set *s, const dgpb_target_view *target,
                        const dgpb_entry_view *e)
{
    char id[ID_MAX], text[128];
    const dgpb_str *tn = target ? &target->name : NULL;
    if (target)
        put(h, "/* Row indices of '%s' on %.*s (a bind command carries them). */\n",
            comment_text(s->name, text, sizeof text), (int)target->name.len, target->name.ptr);
    else
        put(h,
            "/* Row indices of '%s', the same on every target (a bind command carries them). */\n",
            comment_text(s->name, text, sizeof text));
    dgpb_str count = cstr("row_count");
    if (!(tn ? file_ident(h, id, tn, &s->name, &count, NULL)
             : file_ident(h, id, &s->name, &count, NULL)))
        return;
    char count_id[ID_MAX];
    snprintf(count_id, sizeof count_id, "%s", id);
    put(h, "enum {\n");
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *p = &e->params[r];
        if (!(tn ? file_ident(h, id, tn, &s->name, &p->name, NULL)
                 : file_ident(h, id, &s->name, &p->name, NULL)))
            return;
        char note[160];
        row_note(s, target ? e : NULL, r, note, sizeof note);
        put(h, "    %s = %u, /* %s '%s'%s */\n", id, r, dgpb_kind_name(p->kind),
            comment_text(p->name, text, sizeof text), note);
    }
    put(h, "    %s = %u\n};\n\n", count_id, e->param_count);
}

/* The capabilities as a string of names and as a mask of dgpb/format.h's DGPB_CAP_* bits. */
static void put_capabilities(hdr *h, const entry_set *s, const dgpb_target_view *target,
                             const dgpb_entry_view *e)
{
    char names_id[ID_MAX], mask_id[ID_MAX], text[128];
    const dgpb_str *tn = target ? &target->name : NULL;
    dgpb_str n = cstr("capabilities"), m = cstr("capability_mask");
    if (!(tn ? file_ident(h, names_id, tn, &s->name, &n, NULL)
             : file_ident(h, names_id, &s->name, &n, NULL)) ||
        !(tn ? file_ident(h, mask_id, tn, &s->name, &m, NULL)
             : file_ident(h, mask_id, &s->name, &m, NULL)))
        return;
    put(h,
        "/* The capabilities '%s' needs%s%.*s (docs/format.md, \"Capabilities\"); the mask's bits\n"
        "   are dgpb/format.h's DGPB_CAP_*, as in dgpb_entry_view.capability_mask. */\n",
        comment_text(s->name, text, sizeof text), target ? " on " : "",
        target ? (int)target->name.len : 0, target ? target->name.ptr : "");
    put(h, "#define %s \"", names_id);
    for (uint32_t c = 0; c < e->capability_count; c++)
        put(h, "%s%.*s", c ? " " : "", (int)e->capabilities[c].len, e->capabilities[c].ptr);
    put(h, "\"\n#define %s ", mask_id);
    if (!e->capability_mask) {
        put(h, "UINT64_C(0)\n\n");
        return;
    }
    put(h, "(");
    bool first = true;
    for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++)
        if (e->capability_mask & (UINT64_C(1) << c)) {
            put(h, "%s(UINT64_C(1) << DGPB_CAP_%s)", first ? "" : " | ", capability_ids[c]);
            first = false;
        }
    put(h, ")\n\n");
}

/* ---- blocks of values ---- */

typedef struct member {
    uint32_t row;
    const dgpb_param_view *p;
    c_type type; /* .known false: uint8_t[size] */
    char name[ID_MAX];
} member;

static bool is_block_value(const dgpb_param_view *p)
{
    return p->kind == DGPB_KIND_VALUE && p->space != DGPB_SPACE_PIPELINE_CONSTANT;
}

static bool same_place(const dgpb_param_view *a, const dgpb_param_view *b)
{
    return a->space == b->space && a->binding == b->binding;
}

/* The length of the first component of a dotted name, or 0 when it has none. */
static uint32_t dotted_prefix(dgpb_str s)
{
    for (uint32_t i = 0; i < s.len; i++)
        if (s.ptr[i] == '.')
            return i;
    return 0;
}

/*
 * The block's name: the uniform_buffer row at its place; else the first
 * component its value rows' dotted names share; else "launch" for the launch
 * parameters and "uniforms" for any other block (the entry's own uniform
 * values, whose rows may be named by the entry: "fill.count", docs/format.md,
 * "Names"). *strip: the prefix of the rows' names that their members leave
 * out ("name" of "name.field").
 */
static dgpb_str block_name(const entry_set *s, const dgpb_entry_view *e, uint32_t first,
                           dgpb_str *strip)
{
    const dgpb_param_view *f = &e->params[first];
    *strip = (dgpb_str){NULL, 0};
    for (uint32_t r = 0; r < e->param_count; r++)
        if (e->params[r].kind == DGPB_KIND_UNIFORM_BUFFER && same_place(&e->params[r], f)) {
            *strip = e->params[r].name;
            return e->params[r].name;
        }
    uint32_t len = dotted_prefix(f->name);
    if (len == e->name.len && !memcmp(f->name.ptr, e->name.ptr, len))
        len = 0; /* the entry's own values, qualified by the entry */
    for (uint32_t r = first; len && r < e->param_count; r++) {
        const dgpb_param_view *p = &e->params[r];
        if (is_block_value(p) && same_place(p, f) &&
            (p->name.len <= len || p->name.ptr[len] != '.' ||
             memcmp(p->name.ptr, f->name.ptr, len)))
            len = 0;
    }
    if (len) {
        *strip = (dgpb_str){f->name.ptr, len};
        return *strip;
    }
    /* the entry's own uniform values: launch parameters on spirv and ptx, a block on wgsl */
    *strip = e->name;
    bool launch = f->space == DGPB_SPACE_LAUNCH;
    for (uint32_t t = 0; t < s->count && !launch; t++)
        launch = first < s->entries[t]->param_count &&
                 s->entries[t]->params[first].space == DGPB_SPACE_LAUNCH;
    return cstr(launch ? dgpb_space_name(DGPB_SPACE_LAUNCH) : "uniforms");
}

static void place_text(const dgpb_param_view *p, char *buf, size_t size)
{
    if (p->space == DGPB_SPACE_LAUNCH)
        snprintf(buf, size, "the launch parameters (space 0xFFFFFFFF)");
    else if (p->binding == DGPB_BINDING_INLINE)
        snprintf(buf, size, "the values stored inline in space %u (binding 0xFFFFFFFF)", p->space);
    else
        snprintf(buf, size, "the values of the block at space %u, binding %u", p->space,
                 p->binding);
}

/* Members of the block whose first row is `first`, by offset; false when two overlap. */
static uint32_t block_members(hdr *h, const dgpb_target_view *t, const dgpb_entry_view *e,
                              uint32_t first, member *m, bool *overlap)
{
    uint32_t n = 0;
    for (uint32_t r = first; r < e->param_count; r++) {
        const dgpb_param_view *p = &e->params[r];
        if (!is_block_value(p) || !same_place(p, &e->params[first]))
            continue;
        member x = {.row = r, .p = p};
        c_header_types_find(&h->types, t, e, r, &x.type);
        uint32_t i = n++;
        while (i > 0 && m[i - 1].p->offset > p->offset) {
            m[i] = m[i - 1];
            i--;
        }
        m[i] = x;
    }
    *overlap = false;
    for (uint32_t i = 1; i < n; i++)
        if (m[i].p->offset < m[i - 1].p->offset + m[i - 1].p->size)
            *overlap = true;
    return n;
}

/* The struct of one block, its static assertions, and its members' names. */
static void put_block(hdr *h, const entry_set *s, const dgpb_target_view *t,
                      const dgpb_entry_view *e, uint32_t first, member *m)
{
    char text[128], place[128], sname[ID_MAX];
    bool overlap;
    uint32_t n = block_members(h, t, e, first, m, &overlap);
    dgpb_str strip;
    dgpb_str bname = block_name(s, e, first, &strip);
    place_text(&e->params[first], place, sizeof place);
    if (overlap) {
        put(h, "/* %.*s '%s': no struct for %s: their rows overlap. */\n\n", (int)t->name.len,
            t->name.ptr, comment_text(s->name, text, sizeof text), place);
        return;
    }
    if (!file_ident(h, sname, &t->name, &s->name, &bname, NULL))
        return;
    put(h, "/* %.*s '%s': %s. */\n", (int)t->name.len, t->name.ptr,
        comment_text(s->name, text, sizeof text), place);
    names members = {0};
    uint32_t align = 1, at = 0;
    for (uint32_t i = 0; i < n && !h->nomem; i++) {
        dgpb_str rn = m[i].p->name;
        if (strip.len && rn.len > strip.len + 1 && rn.ptr[strip.len] == '.' &&
            !memcmp(rn.ptr, strip.ptr, strip.len))
            rn = (dgpb_str){rn.ptr + strip.len + 1, rn.len - strip.len - 1};
        member_ident(m[i].name, sizeof m[i].name, rn.ptr, rn.len);
        if (!m[i].type.known || m[i].p->offset % m[i].type.align) /* C cannot place it */
            m[i].type.known = false;
        if (m[i].type.known && m[i].type.align > align)
            align = m[i].type.align;
        h->nomem |= !names_add(&members, m[i].name);
    }
    put(h, "typedef struct %s {\n", sname);
    for (uint32_t i = 0; i < n && !h->nomem; i++) {
        const dgpb_param_view *p = m[i].p;
        if (p->offset > at) {
            char pad[ID_MAX];
            snprintf(pad, sizeof pad, "pad_%u", at);
            h->nomem |= !names_add(&members, pad);
            put(h, "    uint8_t %s[%u];\n", pad, p->offset - at);
        }
        char tt[64];
        if (m[i].type.known) {
            c_type_text(&m[i].type, tt, sizeof tt);
            put(h, "    %s %s%s; /* row %u '%s': offset %u, size %u, %s */\n", m[i].type.base,
                m[i].name, m[i].type.dims, m[i].row, comment_text(p->name, text, sizeof text),
                p->offset, p->size, tt);
        } else
            put(h, "    uint8_t %s[%u]; /* row %u '%s': offset %u, size %u, %s */\n", m[i].name,
                p->size, m[i].row, comment_text(p->name, text, sizeof text), p->offset, p->size,
                m[i].type.aggregate ? "a struct: bytes" : "bytes");
        at = p->offset + p->size;
    }
    uint32_t size = (at + align - 1) / align * align;
    if (size > at) {
        char pad[ID_MAX];
        snprintf(pad, sizeof pad, "pad_%u", at);
        h->nomem |= !names_add(&members, pad);
        put(h, "    uint8_t %s[%u];\n", pad, size - at);
    }
    put(h, "} %s;\n", sname);
    for (uint32_t i = 0; i < n; i++)
        put(h, "%s(offsetof(%s, %s) == %u, \"%s.%s at offset %u\");\n", h->sa, sname, m[i].name,
            m[i].p->offset, sname, m[i].name, m[i].p->offset);
    put(h, "%s(sizeof(%s) == %u, \"%s is %u bytes\");\n\n", h->sa, sname, size, sname, size);
    names_free(&members);
}

/* Every block of values of an entry on one target, and its pipeline constants. */
static void put_target_blocks(hdr *h, const entry_set *s, const dgpb_target_view *t,
                              const dgpb_entry_view *e)
{
    member *m = e->param_count ? mem_calloc(e->param_count, sizeof *m) : NULL;
    if (e->param_count && !m) {
        h->nomem = true;
        return;
    }
    for (uint32_t r = 0; r < e->param_count && !h->nomem; r++) {
        if (!is_block_value(&e->params[r]))
            continue;
        bool seen = false;
        for (uint32_t q = 0; q < r && !seen; q++)
            seen = is_block_value(&e->params[q]) && same_place(&e->params[q], &e->params[r]);
        if (!seen)
            put_block(h, s, t, e, r, m);
    }
    dgpb_free(m);
    bool any = false;
    char id[ID_MAX], text[128], tt[64];
    dgpb_str suffix = cstr("constant_id");
    for (uint32_t r = 0; r < e->param_count && !h->nomem; r++) {
        const dgpb_param_view *p = &e->params[r];
        if (p->kind != DGPB_KIND_VALUE || p->space != DGPB_SPACE_PIPELINE_CONSTANT)
            continue;
        if (!file_ident(h, id, &t->name, &s->name, &p->name, &suffix, NULL))
            return;
        if (!any)
            put(h,
                "/* %.*s '%s': the ids of its pipeline constants (set when the pipeline is "
                "created;\n   the code's default applies otherwise). */\nenum {\n",
                (int)t->name.len, t->name.ptr, comment_text(s->name, text, sizeof text));
        c_type ct;
        c_header_types_find(&h->types, t, e, r, &ct);
        if (ct.known)
            c_type_text(&ct, tt, sizeof tt);
        put(h, "%s    %s = %u /* row %u '%s': %u bytes, %s */", any ? ",\n" : "", id, p->binding, r,
            comment_text(p->name, text, sizeof text), p->size, ct.known ? tt : "bytes");
        any = true;
    }
    if (any)
        put(h, "\n};\n\n");
}

/* ---- the header ---- */

static void put_entry(hdr *h, const entry_set *s)
{
    char text[128];
    put(h, "/* ---- entry '%s' (%.*s) on", comment_text(s->name, text, sizeof text),
        (int)s->entries[0]->stage.len, s->entries[0]->stage.ptr);
    for (uint32_t t = 0; t < s->count; t++)
        put(h, " %.*s", (int)s->targets[t]->name.len, s->targets[t]->name.ptr);
    put(h, " ---- */\n\n");
    if (rows_alike(s))
        put_indices(h, s, NULL, s->entries[0]);
    else
        for (uint32_t t = 0; t < s->count; t++)
            put_indices(h, s, s->targets[t], s->entries[t]);
    if (caps_alike(s))
        put_capabilities(h, s, NULL, s->entries[0]);
    else
        for (uint32_t t = 0; t < s->count; t++)
            put_capabilities(h, s, s->targets[t], s->entries[t]);
    for (uint32_t t = 0; t < s->count; t++)
        put_target_blocks(h, s, s->targets[t], s->entries[t]);
}

/* The bundle's entries, in the order of their first target, then of the targets. */
static entry_set *entry_sets(const dgpb_bundle *b, uint32_t *count)
{
    uint32_t max = 0;
    for (uint32_t t = 0; t < dgpb_bundle_target_count(b); t++)
        max += dgpb_bundle_target(b, t)->entry_count;
    entry_set *sets = mem_calloc(max ? max : 1, sizeof *sets);
    if (!sets)
        return NULL;
    *count = 0;
    for (uint32_t t = 0; t < dgpb_bundle_target_count(b); t++) {
        const dgpb_target_view *tv = dgpb_bundle_target(b, t);
        for (uint32_t e = 0; e < tv->entry_count; e++) {
            const dgpb_entry_view *ev = &tv->entries[e];
            uint32_t i = 0;
            while (i < *count && (sets[i].name.len != ev->name.len ||
                                  memcmp(sets[i].name.ptr, ev->name.ptr, ev->name.len)))
                i++;
            if (i == *count)
                sets[(*count)++].name = ev->name;
            if (sets[i].count < DGPB_TARGET_COUNT) {
                sets[i].targets[sets[i].count] = tv;
                sets[i].entries[sets[i].count++] = ev;
            }
        }
    }
    return sets;
}

static void put_prologue(hdr *h, const char *stem)
{
    char text[128];
    const char *shown = comment_text(cstr(stem), text, sizeof text);
    put(h,
        "/*\n"
        " * %s.h - what a host binds in the bundle %s.dgpb:\n"
        " * every entry's row indices and capabilities, and per target a struct for\n"
        " * each block of values, its members at their offsets (docs/build.md, \"The C\n"
        " * header\"). Written by dgpb-build --emit-header (or dgpb-dump --header)\n"
        " * from the bundle; do not edit.\n"
        " */\n"
        "#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <stdint.h>\n\n"
        "#ifdef __cplusplus\n#define %s(cond, text) static_assert(cond, text)\n"
        "#else\n#define %s(cond, text) _Static_assert(cond, text)\n#endif\n\n",
        shown, shown, h->guard, h->guard, h->sa, h->sa);
}

int c_header_make(const dgpb_bundle *b, const char *stem, char **out, dgpb_diag *diag)
{
    assert(b && stem && out);
    *out = NULL;
    hdr h = {.out = DGPB_BYTEBUF_INIT};
    ident_append(h.stem, sizeof h.stem, stem, strlen(stem));
    if (!h.stem[0] || (h.stem[0] >= '0' && h.stem[0] <= '9')) {
        char tmp[ID_MAX];
        snprintf(tmp, sizeof tmp, "dgpb_%.200s", h.stem);
        snprintf(h.stem, sizeof h.stem, "%s", tmp);
    }
    h.stem[200] = 0; /* every identifier starts with it: room for the rest */
    snprintf(h.guard, sizeof h.guard, "DGPB_HEADER_%.200s_H", h.stem);
    snprintf(h.sa, sizeof h.sa, "DGPB_%.200s_STATIC_ASSERT", h.stem);
    int rc = DGPB_OK;
    if (!names_add(&h.ids, h.guard) || !names_add(&h.ids, h.sa))
        h.nomem = true;
    uint32_t count = 0;
    entry_set *sets = h.nomem ? NULL : entry_sets(b, &count);
    if (!sets)
        h.nomem = true;
    if (!h.nomem)
        rc = c_header_types_init(&h.types, b, diag);
    if (!h.nomem && !rc) {
        put_prologue(&h, stem);
        for (uint32_t i = 0; i < count && !h.nomem; i++)
            put_entry(&h, &sets[i]);
        put(&h, "#undef %s\n\n#endif\n", h.sa);
    }
    if (!rc && h.types.rc) /* a code blob that cannot be read for its types (diag filled) */
        rc = h.types.rc;
    c_header_types_free(&h.types);
    dgpb_free(sets);
    names_free(&h.ids);
    if (!rc && (h.nomem || h.out.failed))
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    if (!rc) {
        bytebuf_append(&h.out, "", 1);
        size_t len;
        *out = (char *)bytebuf_take(&h.out, &len);
        if (!*out)
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    bytebuf_free(&h.out);
    return rc;
}
