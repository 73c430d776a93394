/*
 * wgsl_layout.c - the size of a WGSL module's workgroup memory
 * (wgsl_layout.h): WGSL's alignment and size rules over the types the
 * grammar recorded, each struct and alias sized once. Structs and aliases
 * are found by binary search in the table sorted by name.
 */
#include "code/wgsl/wgsl_layout.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

/* The sizes at work: the lexer that re-reads the types, and the recorded table. */
typedef struct sizer {
    text_scanner *lex;
    wgsl_sizes *z;
} sizer;

int wgsl_add_named_type(wgsl_sizes *z, token name, bool is_struct, mark at)
{
    named_type *v = mem_grow(z->types, z->type_count, &z->type_cap, sizeof *v, 16);
    if (!v)
        return DGPB_ERR_NOMEM;
    z->types = v;
    v[z->type_count++] = (named_type){.name = name, .is_struct = is_struct, .at = at};
    return DGPB_OK;
}

int wgsl_add_workgroup(wgsl_sizes *z, mark type)
{
    mark *w = mem_grow(z->workgroup, z->workgroup_count, &z->workgroup_cap, sizeof *w, 8);
    if (!w)
        return DGPB_ERR_NOMEM;
    z->workgroup = w;
    w[z->workgroup_count++] = type;
    return DGPB_OK;
}

void wgsl_sizes_free(wgsl_sizes *z)
{
    dgpb_free(z->types);
    dgpb_free(z->workgroup);
}

typedef struct layout {
    uint64_t align, size;
    bool known;
} layout;

/* Types larger than this are refused (DGPB_ERR_LIMIT); no sum or product of them overflows. */
#define MAX_TYPE_SIZE ((uint64_t)1 << 48)

static uint64_t round_up(uint64_t x, uint64_t align)
{
    return align ? (x + align - 1) / align * align : x;
}

static int cmp_named(const void *a, const void *b)
{
    const named_type *x = a, *y = b;
    size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
    int c = memcmp(x->name.s, y->name.s, n);
    if (c)
        return c;
    return x->name.len < y->name.len ? -1 : x->name.len > y->name.len;
}

static named_type *find_named(sizer *s, const token *name)
{
    named_type key = {.name = *name};
    if (!s->z->type_count)
        return NULL;
    return bsearch(&key, s->z->types, s->z->type_count, sizeof key, cmp_named);
}

/* The element size of a scalar name (i32, u32, f32, f16, bool); 0 for anything else. */
static uint64_t scalar_size(const token *t)
{
    if (text_tok_is(t, "i32") || text_tok_is(t, "u32") || text_tok_is(t, "f32") ||
        text_tok_is(t, "bool"))
        return 4;
    return text_tok_is(t, "f16") ? 2 : 0;
}

static int type_layout(sizer *s, int depth, layout *out);

/* A struct's layout: members at roundUp(@align or AlignOf, end of the previous one). */
static int struct_layout(sizer *s, named_type *nt, int depth, layout *out)
{
    int rc;
    wgsl_restore(s->lex, nt->at);
    if ((rc = wgsl_advance(s->lex)) != DGPB_OK)
        return rc;
    uint64_t offset = 0, align = 1;
    bool known = true;
    while (!text_is_punct(&s->lex->tok, '}') && s->lex->tok.kind != TOK_EOF) {
        attr attrs[MAX_ATTRS];
        size_t nattrs;
        layout ml;
        if ((rc = wgsl_parse_attrs(s->lex, attrs, &nattrs)) != DGPB_OK)
            return rc;
        token member = s->lex->tok;
        if ((rc = wgsl_advance(s->lex)) != DGPB_OK ||
            (rc = wgsl_advance(s->lex)) != DGPB_OK) /* name ':' */
            return rc;
        if ((rc = type_layout(s, depth + 1, &ml)) != DGPB_OK)
            return rc;
        for (size_t i = 0; i < nattrs; i++) {
            bool a = text_tok_is(&attrs[i].name, "align"), z = text_tok_is(&attrs[i].name, "size");
            if (!a && !z)
                continue;
            if (attrs[i].lit[0] != LIT_OK) {
                ml.known = false;
            } else if (a) {
                ml.align = attrs[i].value[0];
            } else {
                if (ml.known && attrs[i].value[0] < ml.size)
                    return text_bad(s->lex, &attrs[i].first[0],
                                    "@size of member '%.*s' is smaller than "
                                    "its type (%llu bytes)",
                                    (int)member.len, member.s, (unsigned long long)ml.size);
                ml.size = attrs[i].value[0];
            }
        }
        known = known && ml.known;
        offset = round_up(offset, ml.align) + ml.size;
        if (ml.align > align)
            align = ml.align;
        if (offset > MAX_TYPE_SIZE)
            return text_fail_at(s->lex, DGPB_ERR_LIMIT, member.off, member.line,
                                "struct '%.*s' is larger than %llu bytes", (int)nt->name.len,
                                nt->name.s, (unsigned long long)MAX_TYPE_SIZE);
        if (text_is_punct(&s->lex->tok, ',') && (rc = wgsl_advance(s->lex)) != DGPB_OK)
            return rc;
    }
    *out = (layout){align, round_up(offset, align), known};
    return DGPB_OK;
}

/* A struct's or alias's layout, computed once. */
static int named_layout(sizer *s, named_type *nt, int depth, layout *out)
{
    if (nt->state == 1)
        return text_bad(s->lex, &nt->name, "'%.*s' contains itself", (int)nt->name.len, nt->name.s);
    if (nt->state == 0) {
        layout l;
        int rc;
        nt->state = 1;
        if (nt->is_struct) {
            rc = struct_layout(s, nt, depth, &l);
        } else {
            wgsl_restore(s->lex, nt->at);
            rc = type_layout(s, depth + 1, &l);
        }
        if (rc != DGPB_OK)
            return rc;
        nt->align = l.align;
        nt->size = l.size;
        nt->known = l.known;
        nt->state = 2;
    }
    *out = (layout){nt->align, nt->size, nt->known};
    return DGPB_OK;
}

/* The scalar of vecN<T> / matCxR<T> or of a shorthand suffix (vec3f, mat4x4h); 0 if none. */
static uint64_t element_size(const type_info *ti, size_t stem)
{
    const token *n = &ti->name;
    if (n->len == stem && ti->nargs == 1 && ti->single[0])
        return scalar_size(&ti->arg[0].tok);
    if (n->len == stem + 1 && ti->nargs == 0) {
        char c = n->s[stem];
        return c == 'f' || c == 'i' || c == 'u' ? 4 : c == 'h' ? 2 : 0;
    }
    return 0;
}

/* The layout of the type at the current token; leaves the scanner after it. */
static int type_layout(sizer *s, int depth, layout *out)
{
    int rc;
    type_info ti;
    if (depth > DGPB_WGSL_MAX_TYPE_DEPTH)
        return text_fail_at(s->lex, DGPB_ERR_LIMIT, s->lex->tok.off, s->lex->tok.line,
                            "types nest deeper than %d (through arrays, structs and aliases)",
                            DGPB_WGSL_MAX_TYPE_DEPTH);
    if ((rc = wgsl_parse_type(s->lex, &ti)) != DGPB_OK)
        return rc;
    mark end = wgsl_save(s->lex);
    const token *n = &ti.name;
    uint64_t e;
    *out = (layout){1, 0, false};
    if ((e = scalar_size(n)) != 0 && ti.nargs == 0) {
        *out = (layout){e, e, true};
    } else if (text_tok_is(n, "atomic")) {
        if (ti.nargs == 1 && ti.single[0] &&
            (text_tok_is(&ti.arg[0].tok, "i32") || text_tok_is(&ti.arg[0].tok, "u32")))
            *out = (layout){4, 4, true};
    } else if (n->len >= 4 && memcmp(n->s, "vec", 3) == 0 && n->s[3] >= '2' && n->s[3] <= '4') {
        uint64_t count = (uint64_t)(n->s[3] - '0');
        if ((e = element_size(&ti, 4)) != 0)
            *out = (layout){(count == 2 ? 2 : 4) * e, count * e, true};
    } else if (n->len >= 6 && memcmp(n->s, "mat", 3) == 0 && n->s[3] >= '2' && n->s[3] <= '4' &&
               n->s[4] == 'x' && n->s[5] >= '2' && n->s[5] <= '4') {
        uint64_t cols = (uint64_t)(n->s[3] - '0'), rows = (uint64_t)(n->s[5] - '0');
        if ((e = element_size(&ti, 6)) != 0) {
            uint64_t col_align = (rows == 2 ? 2 : 4) * e;
            *out = (layout){col_align, cols * col_align, true};
        }
    } else if (text_tok_is(n, "array")) {
        if (ti.nargs == 2) {
            layout el;
            uint64_t count = 0;
            wgsl_restore(s->lex, ti.arg[0]);
            if ((rc = type_layout(s, depth + 1, &el)) != DGPB_OK)
                return rc;
            wgsl_restore(s->lex, ti.arg[1]);
            token at = s->lex->tok;
            int lit = wgsl_literal_arg(s->lex, '>', &count, &rc);
            if (rc != DGPB_OK)
                return rc;
            if (lit == LIT_RANGE || (lit == LIT_OK && count == 0))
                return text_bad(s->lex, &at, "array count of '%.*s' is out of range", (int)n->len,
                                n->s);
            uint64_t stride = round_up(el.size, el.align);
            if (lit == LIT_OK && stride && count > MAX_TYPE_SIZE / stride)
                return text_fail_at(s->lex, DGPB_ERR_LIMIT, at.off, at.line,
                                    "an array is larger than %llu bytes",
                                    (unsigned long long)MAX_TYPE_SIZE);
            *out =
                (layout){el.align, lit == LIT_OK ? count * stride : 0, el.known && lit == LIT_OK};
        }
    } else if (ti.nargs == 0) {
        named_type *nt = find_named(s, n);
        if (nt && (rc = named_layout(s, nt, depth + 1, out)) != DGPB_OK)
            return rc;
    }
    wgsl_restore(s->lex, end);
    return DGPB_OK;
}

int wgsl_size_workgroup(wgsl_sizes *z, text_scanner *lex, dgpb_wgsl_module *m)
{
    sizer sz = {lex, z}, *s = &sz;
    m->workgroup_bytes_known = true;
    if (s->z->type_count)
        qsort(s->z->types, s->z->type_count, sizeof *s->z->types, cmp_named);
    for (size_t i = 1; i < s->z->type_count; i++) {
        const named_type *a = &s->z->types[i - 1], *b = &s->z->types[i];
        if (wgsl_tok_eq(&a->name, &b->name)) {
            const named_type *later = a->name.off > b->name.off ? a : b;
            const named_type *first = later == a ? b : a;
            return text_bad(s->lex, &later->name, "'%.*s' is declared twice (first at line %u)",
                            (int)later->name.len, later->name.s, first->name.line);
        }
    }
    for (size_t i = 0; i < s->z->workgroup_count; i++) {
        layout l;
        wgsl_restore(s->lex, s->z->workgroup[i]);
        int rc = type_layout(s, 0, &l);
        if (rc != DGPB_OK)
            return rc;
        m->workgroup_bytes += round_up(l.size, 16);
        if (!l.known)
            m->workgroup_bytes_known = false;
    }
    return DGPB_OK;
}
