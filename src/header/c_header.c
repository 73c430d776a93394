/*
 * c_header.c - the C header of a bundle (header/c_header.h).
 *
 * Per entry: the index of every row (one enum, shared by the targets when
 * their tables agree, which dgpb-build makes sure of), the capabilities;
 * per target of the entry: the structs it binds with (a struct per block of
 * value rows, one `space`/`binding`, and per struct the code declares in a
 * block or as a structured buffer's element), each layout written once for
 * the whole header (header/c_header_structs.h), every row's space and
 * binding, and the ids of the pipeline constants. Names are C identifiers
 * made from the stem, the target, the entry and the row, unique in the
 * header (docs/build.md, "The C header"). The members' C types come from
 * the value types of the code (c_header_types.c).
 */
#include "header/c_header.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/format.h"
#include "header/c_header_structs.h"
#include "header/c_header_types.h"
#include "header/c_text.h"

#define ID_MAX C_ID_MAX

/* The header being made: its text (first, so that a hdr is its c_text), its types, its
   structs. */
typedef struct hdr {
    c_text t;
    c_header_types types;
    c_defs defs;
} hdr;

/* The vocabulary's capability IDs, for the masks (DGPB_CAP_<ID> of dgpb/format.h). */
static const char *const capability_ids[] = {
#define DGPB_CAPABILITY(ID, value, name, webgpu_feature) [value] = #ID,
#include "dgpb/vocabulary.def"
};

/* ---- what an entry's targets share ---- */

/* One entry of the bundle, with the targets that carry it. */
typedef struct entry_set {
    dgpb_str name;
    uint32_t count;
    const dgpb_target_view *targets[DGPB_TARGET_COUNT];
    const dgpb_entry_view *entries[DGPB_TARGET_COUNT];
    /* per target and row: the use (header/c_header_structs.h) of the struct the row is bound
       with (a block's value rows and its uniform_buffer row: the block's; a structured buffer
       of structs: its element's), or -1 */
    int32_t *row_use[DGPB_TARGET_COUNT];
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

/* A row the target's code lacks has no place, block or struct there. */
static bool absent(const dgpb_param_view *p)
{
    return (p->flags & DGPB_FLAG_ABSENT) != 0;
}

/* Row `r` of `e` as an element of a fixed array of resources: rows of one kind sharing a
   place, the element index being the position among them (docs/format.md). False if not. */
static bool array_element(const dgpb_entry_view *e, uint32_t r, uint32_t *index, uint32_t *count)
{
    const dgpb_param_view *p = &e->params[r];
    if (p->kind == DGPB_KIND_VALUE || p->kind == DGPB_KIND_UNIFORM_BUFFER || absent(p))
        return false;
    *index = *count = 0;
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_view *q = &e->params[i];
        if (q->kind != p->kind || q->space != p->space || q->binding != p->binding || absent(q))
            continue;
        *index += i < r;
        ++*count;
    }
    return *count > 1;
}

/* The targets whose code lacks row r, as ", absent on wgsl, ptx"; "" when none. */
static void absent_note(const entry_set *s, uint32_t r, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (uint32_t t = 0; t < s->count && n < size; t++)
        if (absent(&s->entries[t]->params[r]))
            n += (size_t)snprintf(buf + n, size - n, "%s%.*s", n ? ", " : ", absent on ",
                                  (int)s->targets[t]->name.len, s->targets[t]->name.ptr);
}

static void row_facts(const entry_set *s, const dgpb_entry_view *only, uint32_t r, char *buf,
                      size_t size)
{
    buf[0] = 0;
    /* the row as a target that has it gives it; only the targets that have it are compared */
    const dgpb_param_view *p = &(only ? only : s->entries[0])->params[r];
    for (uint32_t t = 0; t < s->count && !only && absent(p); t++)
        p = &s->entries[t]->params[r];
    if (absent(p))
        return;
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
            same &= absent(&s->entries[t]->params[r]) ||
                    s->entries[t]->params[r].offset == p->offset;
        if (same) {
            if (p->offset)
                snprintf(buf, size, ", %s", dgpb_shape_text(p->offset, shape, sizeof shape));
            return;
        }
        size_t n = 0;
        for (uint32_t t = 0; t < s->count && n < size; t++)
            if (!absent(&s->entries[t]->params[r]))
                n += (size_t)snprintf(
                    buf + n, size - n, ", %s on %.*s",
                    dgpb_shape_text(s->entries[t]->params[r].offset, shape, sizeof shape),
                    (int)s->targets[t]->name.len, s->targets[t]->name.ptr);
        return;
    }
    if ((p->kind != DGPB_KIND_BUFFER && p->kind != DGPB_KIND_RW_BUFFER) || (only && !p->size))
        return;
    bool alike = true;
    for (uint32_t t = 0; t < s->count && !only; t++)
        alike &= absent(&s->entries[t]->params[r]) || s->entries[t]->params[r].size == p->size;
    if (alike) {
        if (p->size)
            snprintf(buf, size, ", element stride %u", p->size);
        return;
    }
    size_t n = (size_t)snprintf(buf, size, ", element stride");
    for (uint32_t t = 0, k = 0; t < s->count && n < size; t++)
        if (!absent(&s->entries[t]->params[r]))
            n += (size_t)snprintf(buf + n, size - n, "%s %u on %.*s", k++ ? "," : "",
                                  s->entries[t]->params[r].size, (int)s->targets[t]->name.len,
                                  s->targets[t]->name.ptr);
}

/*
 * What a row's comment adds to its kind: an array element's index, a texture's
 * shape, a structured buffer's element stride (per target where the targets
 * differ), and the targets whose code lacks it. `only`: that target alone.
 */
static void row_note(const entry_set *s, const dgpb_entry_view *only, uint32_t r, char *buf,
                     size_t size)
{
    row_facts(s, only, r, buf, size);
    size_t n = strlen(buf);
    if (only && absent(&only->params[r]))
        snprintf(buf + n, size - n, ", absent from this target's code");
    else if (!only)
        absent_note(s, r, buf + n, size - n);
}

/*
 * Each row's part of the identifiers made for it: its name as C spells it
 * ("row" when none of it is left), unique among the entry's rows and
 * "row_count", into tails[row] (ID_MAX bytes each); NULL (h->t.nomem) without
 * memory.
 */
static char (*row_tails(hdr *h, const dgpb_entry_view *e))[ID_MAX]
{
    char(*tails)[ID_MAX] = mem_calloc(e->param_count ? e->param_count : 1, sizeof *tails);
    c_names names = {0};
    char count[ID_MAX] = "row_count";
    bool ok = tails && c_names_add(&names, count);
    for (uint32_t r = 0; ok && r < e->param_count; r++) {
        c_ident_append(tails[r], ID_MAX - 16, e->params[r].name.ptr, e->params[r].name.len);
        if (!tails[r][0])
            snprintf(tails[r], ID_MAX, "row");
        ok = c_names_add(&names, tails[r]);
    }
    c_names_free(&names);
    if (!ok) {
        dgpb_free(tails);
        h->t.nomem = true;
        return NULL;
    }
    return tails;
}

/* The enum of row indices; `target` NULL when every target of the entry shares it. */
static void put_indices(hdr *h, const entry_set *s, const dgpb_target_view *target,
                        const dgpb_entry_view *e)
{
    char id[ID_MAX], text[128];
    const dgpb_str *tn = target ? &target->name : NULL;
    if (target)
        c_put(&h->t, "/* Row indices of '%s' on %.*s (a bind command carries them). */\n",
              c_comment_text(s->name, text, sizeof text), (int)target->name.len, target->name.ptr);
    else
        c_put(
            &h->t,
            "/* Row indices of '%s', the same on every target (a bind command carries them). */\n",
            c_comment_text(s->name, text, sizeof text));
    char(*tails)[ID_MAX] = row_tails(h, e);
    dgpb_str count = c_cstr("row_count");
    if (!tails || !(tn ? c_file_ident(&h->t, id, tn, &s->name, &count, NULL)
                       : c_file_ident(&h->t, id, &s->name, &count, NULL))) {
        dgpb_free(tails);
        return;
    }
    char count_id[ID_MAX];
    snprintf(count_id, sizeof count_id, "%s", id);
    c_put(&h->t, "enum {\n");
    for (uint32_t r = 0; r < e->param_count; r++) {
        const dgpb_param_view *p = &e->params[r];
        dgpb_str tail = c_cstr(tails[r]);
        if (!(tn ? c_file_ident(&h->t, id, tn, &s->name, &tail, NULL)
                 : c_file_ident(&h->t, id, &s->name, &tail, NULL)))
            break;
        char note[160];
        row_note(s, target ? e : NULL, r, note, sizeof note);
        c_put(&h->t, "    %s = %u, /* %s '%s'%s */\n", id, r, dgpb_kind_name(p->kind),
              c_comment_text(p->name, text, sizeof text), note);
    }
    c_put(&h->t, "    %s = %u\n};\n\n", count_id, e->param_count);
    dgpb_free(tails);
}

/* The capabilities as a string of names and as a mask of dgpb/format.h's DGPB_CAP_* bits. */
static void put_capabilities(hdr *h, const entry_set *s, const dgpb_target_view *target,
                             const dgpb_entry_view *e)
{
    char names_id[ID_MAX], mask_id[ID_MAX], text[128];
    const dgpb_str *tn = target ? &target->name : NULL;
    dgpb_str n = c_cstr("capabilities"), m = c_cstr("capability_mask");
    if (!(tn ? c_file_ident(&h->t, names_id, tn, &s->name, &n, NULL)
             : c_file_ident(&h->t, names_id, &s->name, &n, NULL)) ||
        !(tn ? c_file_ident(&h->t, mask_id, tn, &s->name, &m, NULL)
             : c_file_ident(&h->t, mask_id, &s->name, &m, NULL)))
        return;
    c_put(
        &h->t,
        "/* The capabilities '%s' needs%s%.*s (docs/format.md, \"Capabilities\"); the mask's bits\n"
        "   are dgpb/format.h's DGPB_CAP_*, as in dgpb_entry_view.capability_mask. */\n",
        c_comment_text(s->name, text, sizeof text), target ? " on " : "",
        target ? (int)target->name.len : 0, target ? target->name.ptr : "");
    c_put(&h->t, "#define %s \"", names_id);
    for (uint32_t c = 0; c < e->capability_count; c++)
        c_put(&h->t, "%s%.*s", c ? " " : "", (int)e->capabilities[c].len, e->capabilities[c].ptr);
    c_put(&h->t, "\"\n#define %s ", mask_id);
    if (!e->capability_mask) {
        c_put(&h->t, "UINT64_C(0)\n\n");
        return;
    }
    c_put(&h->t, "(");
    bool first = true;
    for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++)
        if (e->capability_mask & (UINT64_C(1) << c)) {
            c_put(&h->t, "%s(UINT64_C(1) << DGPB_CAP_%s)", first ? "" : " | ", capability_ids[c]);
            first = false;
        }
    c_put(&h->t, ")\n\n");
}

/* ---- blocks of values and the structs of the code ---- */

typedef struct member {
    uint32_t row;
    const dgpb_param_view *p;
    c_type type; /* .known false: uint8_t[size] */
} member;

static bool is_block_value(const dgpb_param_view *p)
{
    return p->kind == DGPB_KIND_VALUE && p->space != DGPB_SPACE_PIPELINE_CONSTANT && !absent(p);
}

static bool same_place(const dgpb_param_view *a, const dgpb_param_view *b)
{
    return a->space == b->space && a->binding == b->binding && !absent(a) && !absent(b);
}

static bool is_structured(const dgpb_param_view *p)
{
    return (p->kind == DGPB_KIND_BUFFER || p->kind == DGPB_KIND_RW_BUFFER) && !absent(p);
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
    return c_cstr(launch ? dgpb_space_name(DGPB_SPACE_LAUNCH) : "uniforms");
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

/* Members of the block whose first row is `first`, by offset; *overlap when two overlap. */
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

/*
 * The size of the block at row `first`'s place as the code gives it, its
 * tail padding included: the code's own block type (code_block_size_find),
 * else the size its uniform_buffer row carries; 0 when neither says.
 */
static uint32_t block_code_size(hdr *h, const dgpb_target_view *t, const dgpb_entry_view *e,
                                uint32_t first)
{
    uint32_t size = 0;
    c_header_types_block_size(&h->types, t, e, first, &size);
    for (uint32_t r = 0; !size && r < e->param_count; r++)
        if (e->params[r].kind == DGPB_KIND_UNIFORM_BUFFER &&
            same_place(&e->params[r], &e->params[first]))
            size = e->params[r].size;
    return size;
}

/* The layout of the block whose `n` members are m[] (a row holding a struct: that struct's
   layouts first); -1 without memory. */
static int32_t block_def(hdr *h, const entry_set *s, const c_use *at, uint32_t first, member *m,
                         uint32_t n, dgpb_str bname, dgpb_str strip)
{
    const dgpb_target_view *t = s->targets[at->target_index];
    const dgpb_entry_view *e = s->entries[at->target_index];
    c_member *cm = mem_calloc(n ? n : 1, sizeof *cm);
    if (!cm) {
        h->t.nomem = true;
        return -1;
    }
    c_names names = {0};
    uint32_t align = 1, end = 0;
    for (uint32_t i = 0; i < n && !h->t.nomem; i++) {
        const dgpb_param_view *p = m[i].p;
        cm[i].of = -1;
        if (m[i].type.aggregate && !m[i].type.known) { /* a struct: its layouts */
            code_fields f;
            c_type st;
            c_header_types_fields(&h->types, t, e, m[i].row, &f);
            int32_t root = f.root >= 0 ? c_defs_fields(&h->t, &h->defs, &f, p->size, at, &st) : -1;
            code_fields_free(&f);
            if (root >= 0) {
                m[i].type = st;
                cm[i].of = root;
            }
        }
        dgpb_str rn = p->name;
        if (strip.len && rn.len > strip.len + 1 && rn.ptr[strip.len] == '.' &&
            !memcmp(rn.ptr, strip.ptr, strip.len))
            rn = (dgpb_str){rn.ptr + strip.len + 1, rn.len - strip.len - 1};
        c_member_ident(h->t.stem, cm[i].name, sizeof cm[i].name, rn.ptr, rn.len);
        h->t.nomem |= !c_names_add(&names, cm[i].name);
        if ((cm[i].shown = mem_alloc((size_t)rn.len + 1))) {
            memcpy(cm[i].shown, rn.ptr, rn.len);
            cm[i].shown[rn.len] = 0;
        } else
            h->t.nomem = true;
        if (!m[i].type.known || p->offset % m[i].type.align) { /* C cannot place it */
            m[i].type.known = false;
            cm[i].of = -1;
        }
        if (m[i].type.known && m[i].type.align > align)
            align = m[i].type.align;
        if (m[i].type.known)
            c_type_text(&m[i].type, cm[i].note, sizeof cm[i].note);
        else
            snprintf(cm[i].note, sizeof cm[i].note, "%s",
                     m[i].type.aggregate ? "a struct: bytes" : "bytes");
        cm[i].type = m[i].type;
        cm[i].offset = p->offset;
        cm[i].size = p->size;
        end = p->offset + p->size;
    }
    c_names_free(&names);
    uint32_t size = (end + align - 1) / align * align, code = block_code_size(h, t, e, first);
    bool code_size = code >= end && code % align == 0;
    char *what = mem_alloc((size_t)bname.len + 1);
    if (h->t.nomem || !what) {
        dgpb_free(what);
        c_members_free(cm, n);
        h->t.nomem = true;
        return -1;
    }
    memcpy(what, bname.ptr, bname.len);
    what[bname.len] = 0;
    int32_t def = c_defs_block(&h->t, &h->defs, what, cm, n, code_size ? code : size, align,
                               code_size);
    dgpb_free(what);
    return def;
}

/* Whether row `r` is a uniform_buffer row no value row shares a place with (an element of a
   `ConstantBuffer<S> name[N]`, docs/format.md). */
static bool block_alone(const dgpb_entry_view *e, uint32_t r)
{
    if (e->params[r].kind != DGPB_KIND_UNIFORM_BUFFER || absent(&e->params[r]))
        return false;
    for (uint32_t q = 0; q < e->param_count; q++)
        if (is_block_value(&e->params[q]) && same_place(&e->params[q], &e->params[r]))
            return false;
    return true;
}

/* The structs of one target's entry (its blocks, the structs they hold, its structured buffers'
   elements, its uniform blocks of no value rows), gathered. */
static void gather_target(hdr *h, entry_set *s, uint32_t si, uint32_t ti)
{
    const dgpb_target_view *t = s->targets[ti];
    const dgpb_entry_view *e = s->entries[ti];
    int32_t *uses = mem_calloc(e->param_count ? e->param_count : 1, sizeof *uses);
    member *m = mem_calloc(e->param_count ? e->param_count : 1, sizeof *m);
    s->row_use[ti] = uses;
    if (!uses || !m) {
        dgpb_free(m);
        h->t.nomem = true;
        return;
    }
    for (uint32_t r = 0; r < e->param_count; r++)
        uses[r] = -1;
    c_use at = {.target = t->name, .entry = s->name, .set = si, .target_index = ti};
    for (uint32_t r = 0; r < e->param_count && !h->t.nomem; r++) {
        const dgpb_param_view *p = &e->params[r];
        at.row = r;
        if ((is_structured(p) && p->size) || block_alone(e, r)) {
            /* a structured buffer of structs: its element; a uniform block no value row
               describes (one of an array of them): its struct */
            code_fields f;
            c_type st;
            c_header_types_fields(&h->types, t, e, r, &f);
            uint32_t size = p->size || f.root < 0 ? p->size : f.structs[f.root].size;
            int32_t root = f.root >= 0 && !f.count
                               ? c_defs_fields(&h->t, &h->defs, &f, size, &at, &st)
                               : -1;
            if (root >= 0)
                uses[r] = c_defs_use(&h->t, &h->defs, false, c_cstr(f.structs[f.root].name), &at,
                                     root);
            code_fields_free(&f);
            continue;
        }
        if (!is_block_value(p) || uses[r] >= 0)
            continue;
        bool overlap;
        uint32_t n = block_members(h, t, e, r, m, &overlap);
        dgpb_str strip, bname = block_name(s, e, r, &strip);
        int32_t def = overlap ? -1 : block_def(h, s, &at, r, m, n, bname, strip);
        int32_t use = h->t.nomem ? -1 : c_defs_use(&h->t, &h->defs, true, bname, &at, def);
        for (uint32_t i = 0; i < n; i++)
            uses[m[i].row] = use;
        for (uint32_t q = 0; q < e->param_count; q++)
            if (e->params[q].kind == DGPB_KIND_UNIFORM_BUFFER && same_place(&e->params[q], p))
                uses[q] = use;
    }
    dgpb_free(m);
}

/* A space or binding as the macros give it: reserved values in hex. */
static void place_value(uint32_t v, char *buf, size_t size)
{
    snprintf(buf, size, v >= 0xFFFFFF00u ? "0x%08Xu" : "%uu", v);
}

/* Every row's space and binding on one target, as macros. */
static void put_places(hdr *h, const entry_set *s, uint32_t ti)
{
    const dgpb_target_view *t = s->targets[ti];
    const dgpb_entry_view *e = s->entries[ti];
    if (!e->param_count)
        return;
    char(*tails)[ID_MAX] = row_tails(h, e);
    if (!tails)
        return;
    char text[128], space_id[ID_MAX], binding_id[ID_MAX], space[16], binding[16];
    c_put(&h->t,
          "/* %.*s '%s': each row's space and binding (docs/format.md, \"Where a row lives\"). "
          "*/\n",
          (int)t->name.len, t->name.ptr, c_comment_text(s->name, text, sizeof text));
    dgpb_str sp = c_cstr("space"), bi = c_cstr("binding");
    for (uint32_t r = 0; r < e->param_count && !h->t.nomem; r++) {
        const dgpb_param_view *p = &e->params[r];
        dgpb_str tail = c_cstr(tails[r]);
        if (!c_file_ident(&h->t, space_id, &t->name, &s->name, &tail, &sp, NULL) ||
            !c_file_ident(&h->t, binding_id, &t->name, &s->name, &tail, &bi, NULL))
            break;
        if (absent(p)) {
            /* no macros: a host that uses them on this target does not compile */
            c_put(&h->t, "/* %s '%s': absent from this target's code, nothing to bind */\n",
                  dgpb_kind_name(p->kind), c_comment_text(p->name, text, sizeof text));
            continue;
        }
        int32_t use = s->row_use[ti] ? s->row_use[ti][r] : -1;
        const char *with = use >= 0 ? h->defs.uses[use].name : "";
        char note[ID_MAX + 64] = "";
        if (p->space == DGPB_SPACE_PIPELINE_CONSTANT)
            snprintf(note, sizeof note, ", a pipeline constant (the binding is its id)");
        else if (p->kind == DGPB_KIND_VALUE && with[0])
            snprintf(note, sizeof note, ", in %s", with);
        else if (p->kind == DGPB_KIND_UNIFORM_BUFFER && with[0] && block_alone(e, r))
            snprintf(note, sizeof note, ": a %s", with);
        else if (p->kind == DGPB_KIND_UNIFORM_BUFFER && with[0])
            snprintf(note, sizeof note, ": %s", with);
        else if (is_structured(p) && with[0])
            snprintf(note, sizeof note, ": elements %s, stride %u", with, p->size);
        if (p->space == DGPB_SPACE_LAUNCH)
            snprintf(note + strlen(note), sizeof note - strlen(note), " (launch)");
        place_value(p->space, space, sizeof space);
        place_value(p->binding, binding, sizeof binding);
        c_put(&h->t, "#define %s %s /* %s '%s'%s */\n#define %s %s\n", space_id, space,
              dgpb_kind_name(p->kind), c_comment_text(p->name, text, sizeof text), note,
              binding_id, binding);
    }
    c_put(&h->t, "\n");
    dgpb_free(tails);
}

/* The ids of one target's pipeline constants. */
static void put_constants(hdr *h, const entry_set *s, uint32_t ti)
{
    const dgpb_target_view *t = s->targets[ti];
    const dgpb_entry_view *e = s->entries[ti];
    bool any = false;
    char id[ID_MAX], text[128], tt[64];
    dgpb_str suffix = c_cstr("constant_id");
    for (uint32_t r = 0; r < e->param_count && !h->t.nomem; r++) {
        const dgpb_param_view *p = &e->params[r];
        if (p->kind != DGPB_KIND_VALUE || p->space != DGPB_SPACE_PIPELINE_CONSTANT)
            continue;
        if (!c_file_ident(&h->t, id, &t->name, &s->name, &p->name, &suffix, NULL))
            return;
        if (!any)
            c_put(&h->t,
                  "/* %.*s '%s': the ids of its pipeline constants (set when the pipeline is "
                  "created;\n   the code's default applies otherwise). */\nenum {\n",
                  (int)t->name.len, t->name.ptr, c_comment_text(s->name, text, sizeof text));
        c_type ct;
        c_header_types_find(&h->types, t, e, r, &ct);
        if (ct.known)
            c_type_text(&ct, tt, sizeof tt);
        c_put(&h->t, "%s    %s = %u /* row %u '%s': %u bytes, %s */", any ? ",\n" : "", id,
              p->binding, r, c_comment_text(p->name, text, sizeof text), p->size,
              ct.known ? tt : "bytes");
        any = true;
    }
    if (any)
        c_put(&h->t, "\n};\n\n");
}

/* One target's part of an entry: its structs (each written once in the header), where its
   rows bind, its pipeline constants. */
static void put_target(hdr *h, const entry_set *s, uint32_t si, uint32_t ti)
{
    const dgpb_target_view *t = s->targets[ti];
    for (size_t u = 0; u < h->defs.use_count && !h->t.nomem; u++) {
        const c_use *x = &h->defs.uses[u];
        if (x->set != si || x->target_index != ti)
            continue;
        if (x->def >= 0) {
            c_defs_write(&h->t, &h->defs, u);
            continue;
        }
        char text[128], place[128];
        place_text(&s->entries[ti]->params[x->row], place, sizeof place);
        c_put(&h->t, "/* %.*s '%s': no struct for %s: their rows overlap. */\n\n",
              (int)t->name.len, t->name.ptr, c_comment_text(s->name, text, sizeof text), place);
    }
    put_places(h, s, ti);
    put_constants(h, s, ti);
}

/* ---- the header ---- */

static void put_entry(hdr *h, const entry_set *s, uint32_t si)
{
    char text[128];
    c_put(&h->t, "/* ---- entry '%s' (%.*s) on", c_comment_text(s->name, text, sizeof text),
          (int)s->entries[0]->stage.len, s->entries[0]->stage.ptr);
    for (uint32_t t = 0; t < s->count; t++)
        c_put(&h->t, " %.*s", (int)s->targets[t]->name.len, s->targets[t]->name.ptr);
    c_put(&h->t, " ---- */\n\n");
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
        put_target(h, s, si, t);
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

static void put_prologue(hdr *h, const dgpb_bundle *b, const char *stem)
{
    char text[128];
    const char *shown = c_comment_text(c_cstr(stem), text, sizeof text);
    c_put(&h->t,
          "/*\n"
          " * %s.h - what a host binds in the bundle %s.dgpb:\n"
          " * every entry's row indices and capabilities; per target a struct for each\n"
          " * block of values and each struct the code declares in one or as a\n"
          " * structured buffer's element, members at the code's offsets, each layout\n"
          " * once; and every row's space and binding (docs/build.md, \"The C header\").\n"
          " * Written by dgpb-build --emit-header (or dgpb-dump --header) from the\n"
          " * bundle; do not edit.\n",
          shown, shown);
    /* The project options the bundle records, under which the offsets below are the code's
       (a block layout moves them). */
    const char *sep = " *\n * Built with the project options ";
    for (uint32_t i = 0; i < DGPB_OPTION_COUNT; i++) {
        dgpb_str v = dgpb_bundle_option(b, i);
        if (!v.len)
            continue;
        char value[160];
        c_put(&h->t, "%s%s %s", sep, dgpb_option_name(i), c_comment_text(v, value, sizeof value));
        sep = ",\n *   ";
    }
    if (sep[0] == ',')
        c_put(&h->t, "\n * (docs/build.md, \"Project options\").\n");
    c_put(&h->t,
          " */\n"
          "#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <stdint.h>\n\n"
          "#ifdef __cplusplus\n#define %s(cond, text) static_assert(cond, text)\n"
          "#else\n#define %s(cond, text) _Static_assert(cond, text)\n#endif\n\n",
          h->t.guard, h->t.guard, h->t.sa, h->t.sa);
}

int c_header_make(const dgpb_bundle *b, const char *stem, char **out, dgpb_diag *diag)
{
    assert(b && stem && out);
    *out = NULL;
    hdr h = {.t = {.out = DGPB_BYTEBUF_INIT}};
    c_ident_append(h.t.stem, sizeof h.t.stem, stem, strlen(stem));
    if (!h.t.stem[0] || (h.t.stem[0] >= '0' && h.t.stem[0] <= '9')) {
        char tmp[ID_MAX];
        snprintf(tmp, sizeof tmp, "dgpb_%.200s", h.t.stem);
        snprintf(h.t.stem, sizeof h.t.stem, "%s", tmp);
    }
    h.t.stem[200] = 0; /* every identifier starts with it: room for the rest */
    snprintf(h.t.guard, sizeof h.t.guard, "DGPB_HEADER_%.200s_H", h.t.stem);
    snprintf(h.t.sa, sizeof h.t.sa, "DGPB_%.200s_STATIC_ASSERT", h.t.stem);
    int rc = DGPB_OK;
    if (!c_names_add(&h.t.ids, h.t.guard) || !c_names_add(&h.t.ids, h.t.sa))
        h.t.nomem = true;
    uint32_t count = 0;
    entry_set *sets = h.t.nomem ? NULL : entry_sets(b, &count);
    if (!sets)
        h.t.nomem = true;
    if (!h.t.nomem)
        rc = c_header_types_init(&h.types, b, diag);
    for (uint32_t i = 0; i < count && !h.t.nomem && !rc && !h.types.rc; i++)
        for (uint32_t t = 0; t < sets[i].count && !h.t.nomem; t++)
            gather_target(&h, &sets[i], i, t); /* every struct first: each written once */
    if (!h.t.nomem && !rc && !h.types.rc) {
        put_prologue(&h, b, stem);
        for (uint32_t i = 0; i < count && !h.t.nomem; i++)
            put_entry(&h, &sets[i], i);
        c_put(&h.t, "#undef %s\n\n#endif\n", h.t.sa);
    }
    if (!rc && h.types.rc) /* a code blob that cannot be read for its types (diag filled) */
        rc = h.types.rc;
    c_header_types_free(&h.types);
    c_defs_free(&h.defs);
    for (uint32_t i = 0; sets && i < count; i++)
        for (uint32_t t = 0; t < sets[i].count; t++)
            dgpb_free(sets[i].row_use[t]);
    dgpb_free(sets);
    c_names_free(&h.t.ids);
    if (!rc && (h.t.nomem || h.t.out.failed))
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    if (!rc) {
        bytebuf_append(&h.t.out, "", 1);
        size_t len;
        *out = (char *)bytebuf_take(&h.t.out, &len);
        if (!*out)
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    bytebuf_free(&h.t.out);
    return rc;
}
