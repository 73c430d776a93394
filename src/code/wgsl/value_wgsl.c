/*
 * value_wgsl.c - the type of a value row in WGSL (code/wgsl/value_wgsl.h).
 *
 * One pass over the module scope with the WGSL lexer (wgsl_syntax.c) finds
 * the structs (where their '{' is), the var<uniform> at the row's group and
 * binding and the overrides with an @id; function bodies are skipped. The
 * var's type is then laid out by WGSL's rules (AlignOf/SizeOf: a vec3 aligns
 * like a vec4, an array's stride is its element's size rounded up to its
 * alignment, @align/@size on a member) and walked to the row's offset the
 * way code/value_types.c walks SPIR-V: a struct Slang names as a matrix's
 * storage wrapper (code/value_types.h) whose one member is an array of the
 * stored vectors the name says is that matrix; any other struct of one
 * member is that member; a struct of several that the row covers whole is an
 * aggregate; an array the row covers whole is an array value of its element.
 * A struct Slang names as an array's storage wrapper (_Array_std140_float2_0,
 * code/value_types.h) whose one member is an array of vectors each holding an
 * element its name says is that array of its logical elements (f32[2], 16
 * bytes apart), not of the vec4s that pad them. WGSL's own matCxR is Slang's
 * CxR matrix, stored row by row (WGSL's columns are Slang's rows). A
 * structured buffer's element type is the scalar or vector of the
 * var<storage>'s array<E>.
 */
#include "code/wgsl/value_wgsl.h"

#include <stdio.h>

#include <string.h>

#include "core/alloc.h"
#include "code/text_scan.h"
#include "code/wgsl/wgsl_syntax.h"

#define MAX_DEPTH 64
#define MAX_STRUCTS 1024

typedef struct wstruct {
    token name;
    mark open; /* at its '{' */
} wstruct;

typedef struct walker {
    text_scanner lex;
    wstruct structs[MAX_STRUCTS];
    size_t struct_count;
    bool storage; /* find_var(): look for a var<storage> rather than a var<uniform> */
} walker;

/* A laid-out type: scalar/vector/matrix numbers, or an array or struct at `at`. */
typedef struct wtype {
    dgpb_code_type v; /* numbers: scalar, bits, columns, rows, matrix_stride */
    bool is_array, is_struct;
    mark elem;           /* arrays: the element type; structs: the '{' */
    const wstruct *decl; /* structs: its declaration */
    uint64_t count;      /* arrays: 0 runtime-sized */
    uint64_t align, size;
} wtype;

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* The scalar of a WGSL name ("f32", ...); false when it is none. */
static bool scalar_of(const token *n, dgpb_code_type *v)
{
    static const struct {
        const char *name;
        dgpb_scalar scalar;
        uint32_t bits;
    } scalars[] = {{"f32", DGPB_SCALAR_FLOAT, 32},
                   {"f16", DGPB_SCALAR_FLOAT, 16},
                   {"i32", DGPB_SCALAR_INT, 32},
                   {"u32", DGPB_SCALAR_UINT, 32},
                   {"bool", DGPB_SCALAR_BOOL, 32}};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (text_tok_is(n, scalars[i].name)) {
            v->scalar = scalars[i].scalar;
            v->bits = scalars[i].bits;
            v->columns = v->rows = 1;
            return true;
        }
    return false;
}

/* The scalar of a shorthand's suffix ('f', 'h', 'i', 'u'). */
static bool suffix_scalar(char c, dgpb_code_type *v)
{
    v->columns = v->rows = 1;
    v->bits = c == 'h' ? 16 : 32;
    v->scalar = c == 'f' || c == 'h' ? DGPB_SCALAR_FLOAT
                : c == 'i'           ? DGPB_SCALAR_INT
                : c == 'u'           ? DGPB_SCALAR_UINT
                                     : DGPB_SCALAR_UNKNOWN;
    return v->scalar != DGPB_SCALAR_UNKNOWN;
}

static const wstruct *find_struct(const walker *w, const token *name)
{
    for (size_t i = 0; i < w->struct_count; i++)
        if (wgsl_tok_eq(&w->structs[i].name, name))
            return &w->structs[i];
    return NULL;
}

static int struct_layout(walker *w, mark open, int depth, uint64_t *align, uint64_t *size);

/* Lays out the type at `at` into *t; t->v.scalar stays unknown for a type not described. */
static int layout(walker *w, mark at, int depth, wtype *t)
{
    memset(t, 0, sizeof *t);
    if (depth > MAX_DEPTH)
        return text_fail_at(&w->lex, DGPB_ERR_LIMIT, at.tok.off, at.tok.line,
                            "types nested deeper than %d", MAX_DEPTH);
    wgsl_restore(&w->lex, at);
    type_info ti;
    int rc = wgsl_parse_type(&w->lex, &ti);
    if (rc)
        return rc;
    const token *n = &ti.name;
    uint32_t cols = 0, rows = 0;
    dgpb_code_type sc = {0};
    if (scalar_of(n, &t->v)) {
        t->align = t->size = t->v.bits / 8;
        return DGPB_OK;
    }
    if (text_tok_is(n, "atomic") && ti.nargs == 1)
        return layout(w, ti.arg[0], depth + 1, t);
    if (n->len >= 4 && !memcmp(n->s, "vec", 3) && n->s[3] >= '2' && n->s[3] <= '4') {
        cols = (uint32_t)(n->s[3] - '0');
        if (n->len == 5 && !suffix_scalar(n->s[4], &sc))
            return DGPB_OK;
    } else if (n->len >= 6 && !memcmp(n->s, "mat", 3) && n->s[4] == 'x' && n->s[3] >= '2' &&
               n->s[3] <= '4' && n->s[5] >= '2' && n->s[5] <= '4') {
        cols = (uint32_t)(n->s[3] - '0');
        rows = (uint32_t)(n->s[5] - '0');
        if (n->len == 7 && !suffix_scalar(n->s[6], &sc))
            return DGPB_OK;
    } else if (text_tok_is(n, "array") && ti.nargs >= 1) {
        wtype el;
        if ((rc = layout(w, ti.arg[0], depth + 1, &el)))
            return rc;
        t->is_array = true;
        t->elem = ti.arg[0];
        t->align = el.align;
        if (ti.nargs >= 2) {
            wgsl_restore(&w->lex, ti.arg[1]);
            if (wgsl_literal_arg(&w->lex, '>', &t->count, &rc) != LIT_OK)
                t->count = 0;
            if (rc)
                return rc;
        }
        t->size = t->count * round_up(el.size, el.align);
        return DGPB_OK;
    } else {
        const wstruct *s = find_struct(w, n);
        if (s) {
            t->is_struct = true;
            t->elem = s->open;
            t->decl = s;
            return struct_layout(w, s->open, depth + 1, &t->align, &t->size);
        }
        return DGPB_OK;
    }
    if (!sc.scalar) { /* vecN<T>, matCxR<T> */
        if (ti.nargs != 1 || !ti.single[0] || !scalar_of(&ti.arg[0].tok, &sc))
            return DGPB_OK;
    }
    uint32_t bytes = sc.bits / 8;
    uint32_t vec = rows ? rows : cols;
    uint64_t valign = (vec == 2 ? 2 : 4) * (uint64_t)bytes, vsize = (uint64_t)vec * bytes;
    t->v = sc;
    if (!rows) {
        t->v.columns = cols;
        t->align = valign;
        t->size = vsize;
    } else { /* matCxR: C vectors of R, Slang's CxR stored row by row */
        t->v.rows = cols;
        t->v.columns = rows;
        t->v.matrix_stride = (uint32_t)round_up(vsize, valign);
        t->align = valign;
        t->size = (uint64_t)cols * t->v.matrix_stride;
    }
    return DGPB_OK;
}

/* One member of the struct whose body the lexer is in; at the member's name on entry. */
typedef struct wmember {
    token name;
    mark type;
    uint64_t offset, align, size;
} wmember;

/*
 * Reads the next member of a struct body (lexer at the member's attributes or
 * name), its offset after `end` (the previous member's end). False at '}'.
 */
static int next_member(walker *w, uint64_t end, int depth, wmember *m, bool *got)
{
    attr attrs[MAX_ATTRS];
    size_t na = 0;
    int rc;
    *got = false;
    if (text_is_punct(&w->lex.tok, '}') || w->lex.tok.kind == TEXT_TOKEN_EOF)
        return DGPB_OK;
    if ((rc = wgsl_parse_attrs(&w->lex, attrs, &na)) ||
        (rc = wgsl_expect_ident(&w->lex, "a member name")))
        return rc;
    m->name = w->lex.tok;
    if ((rc = wgsl_advance(&w->lex)) || (rc = text_expect(&w->lex, ':', "after a member name")) ||
        (rc = wgsl_advance(&w->lex)))
        return rc;
    m->type = wgsl_save(&w->lex);
    type_info ti;
    if ((rc = wgsl_parse_type(&w->lex, &ti)))
        return rc;
    mark after = wgsl_save(&w->lex);
    wtype t;
    if ((rc = layout(w, m->type, depth + 1, &t)))
        return rc;
    m->align = t.align;
    m->size = t.size;
    for (size_t i = 0; i < na; i++) {
        if (attrs[i].lit[0] != LIT_OK)
            continue;
        if (text_tok_is(&attrs[i].name, "align"))
            m->align = attrs[i].value[0];
        else if (text_tok_is(&attrs[i].name, "size"))
            m->size = attrs[i].value[0];
    }
    m->offset = round_up(end, m->align);
    wgsl_restore(&w->lex, after);
    if (text_is_punct(&w->lex.tok, ',') && (rc = wgsl_advance(&w->lex)))
        return rc;
    *got = true;
    return DGPB_OK;
}

static int struct_layout(walker *w, mark open, int depth, uint64_t *align, uint64_t *size)
{
    int rc;
    uint64_t end = 0, a = 1;
    bool got = true;
    wgsl_restore(&w->lex, open);
    if ((rc = wgsl_advance(&w->lex)))
        return rc;
    while (got) {
        wmember m;
        if ((rc = next_member(w, end, depth, &m, &got)))
            return rc;
        if (got) {
            end = m.offset + m.size;
            a = m.align > a ? m.align : a;
        }
    }
    *align = a;
    *size = round_up(end, a);
    return DGPB_OK;
}

/* Whether the struct laid out as `t` has one member, at offset 0: *m. */
static int only_member(walker *w, const wtype *t, int depth, wmember *m, bool *one)
{
    wgsl_restore(&w->lex, t->elem);
    int rc = wgsl_advance(&w->lex);
    wmember next;
    bool got = false, more = false;
    if (!rc)
        rc = next_member(w, 0, depth, m, &got);
    if (!rc && got)
        rc = next_member(w, m->offset + m->size, depth, &next, &more);
    *one = !rc && got && !more && !m->offset;
    return rc;
}

/*
 * Whether the struct laid out as `t` is Slang's storage wrapper of a matrix
 * (code/value_types.h): named so, its one member an array of as many vectors
 * as the name says the matrix stores, each holding at least its row or
 * column. Fills *v with the matrix when it is.
 */
static int matrix_storage(walker *w, const wtype *t, int depth, dgpb_code_type *v, bool *is)
{
    uint32_t rows, columns;
    bool column_major;
    *is = false;
    const token *name = &t->decl->name;
    if (!code_matrix_storage_name(name->s, name->len, &rows, &columns, &column_major) || rows < 2)
        return DGPB_OK;
    wmember m;
    bool one;
    int rc = only_member(w, t, depth, &m, &one);
    if (rc || !one)
        return rc;
    wtype array, el;
    if ((rc = layout(w, m.type, depth + 1, &array)) || !array.is_array ||
        array.count != (column_major ? columns : rows) ||
        (rc = layout(w, array.elem, depth + 1, &el)) || !el.v.scalar || el.v.rows != 1 ||
        el.v.columns < (column_major ? rows : columns))
        return rc;
    *v = el.v;
    v->rows = rows;
    v->columns = columns;
    v->column_major = column_major;
    v->matrix_stride = (uint32_t)round_up(el.size, el.align);
    *is = true;
    return DGPB_OK;
}

/*
 * Whether the struct laid out as `t` is Slang's storage wrapper of an array
 * (code/value_types.h): named so, its one member an array of as many elements
 * as the name says, each a vector of the name's scalar with at least the
 * name's components (a float padded to a vec4<f32>). Fills *v with the
 * element the name says, *count and *stride when it is.
 */
static int array_storage(walker *w, const wtype *t, int depth, dgpb_code_type *v, uint32_t *count,
                         uint64_t *stride, bool *is)
{
    dgpb_code_type named = {0};
    *is = false;
    const token *name = &t->decl->name;
    if (!code_array_storage_name(name->s, name->len, &named, count))
        return DGPB_OK;
    wmember m;
    bool one;
    int rc = only_member(w, t, depth, &m, &one);
    if (rc || !one)
        return rc;
    wtype array, el;
    if ((rc = layout(w, m.type, depth + 1, &array)) || !array.is_array || array.count != *count ||
        (rc = layout(w, array.elem, depth + 1, &el)) || el.v.scalar != named.scalar ||
        el.v.bits != named.bits || el.v.rows != 1 || el.v.columns < named.columns)
        return rc;
    *v = named;
    *stride = round_up(el.size, el.align);
    *is = *stride > 0;
    return DGPB_OK;
}

/* The value at byte `off` of the type at `at` (the row spans `size` bytes); see the top. */
static int find(walker *w, mark at, uint64_t off, uint64_t size, bool top, int depth,
                dgpb_code_type *v)
{
    wtype t;
    int rc = layout(w, at, depth, &t);
    if (rc)
        return rc;
    if (t.v.scalar) {
        if (!off)
            *v = t.v;
        return DGPB_OK;
    }
    if (t.is_array) {
        wtype el;
        if ((rc = layout(w, t.elem, depth + 1, &el)))
            return rc;
        uint64_t stride = round_up(el.size, el.align);
        if (!stride)
            return DGPB_OK;
        if (off == 0 && size > stride && t.count) {
            if ((rc = find(w, t.elem, 0, stride, false, depth + 1, v)))
                return rc;
            if (v->array_count)
                memset(v, 0, sizeof *v);
            else if (v->scalar || v->aggregate)
                v->array_count = (uint32_t)t.count, v->array_stride = (uint32_t)stride;
            return DGPB_OK;
        }
        if (!t.count || off / stride < t.count)
            return find(w, t.elem, off % stride, size, false, depth + 1, v);
        return DGPB_OK;
    }
    if (!t.is_struct)
        return DGPB_OK;
    if (!top && off == 0) {
        bool is = false;
        if ((rc = matrix_storage(w, &t, depth, v, &is)) || is)
            return rc;
    }
    if (!top) {
        /* An array Slang pads (float arr[2] as array<vec4<f32>, 2>): its logical elements, each
           at its stride, or one of them. */
        bool is = false;
        uint32_t count = 0;
        uint64_t stride = 0;
        dgpb_code_type elem;
        if ((rc = array_storage(w, &t, depth, &elem, &count, &stride, &is)))
            return rc;
        if (is) {
            if (off == 0 && size > stride) {
                *v = elem;
                v->array_count = count;
                v->array_stride = (uint32_t)stride;
            } else if (off % stride == 0 && off / stride < count) {
                *v = elem;
            }
            return DGPB_OK;
        }
    }
    uint64_t end = 0;
    bool got = true;
    size_t members = 0;
    wmember hit = {0};
    bool have_hit = false;
    wgsl_restore(&w->lex, t.elem);
    if ((rc = wgsl_advance(&w->lex)))
        return rc;
    while (got) {
        wmember m;
        if ((rc = next_member(w, end, depth, &m, &got)))
            return rc;
        if (!got)
            break;
        members++;
        end = m.offset + m.size;
        if (!have_hit && m.offset <= off && off < m.offset + m.size)
            hit = m, have_hit = true;
    }
    if (!top && members > 1 && off == 0 && size >= t.size) {
        v->aggregate = true;
        return DGPB_OK;
    }
    return have_hit ? find(w, hit.type, off - hit.offset, size, false, depth + 1, v) : DGPB_OK;
}

/* The literal of attribute `name` among attrs, or -1. */
static int64_t attr_value(const attr *attrs, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (text_tok_is(&attrs[i].name, name) && attrs[i].lit[0] == LIT_OK)
            return (int64_t)attrs[i].value[0];
    return -1;
}

/* Finds the var<uniform> (or override) of `row`: *have and its type's mark. */
static int find_var(walker *w, const code_row *row, bool *have, bool *is_override, mark *var_type);

int value_wgsl_block_size(const char *text, size_t len, const code_row *row, uint32_t *size,
                          dgpb_diag *diag)
{
    *size = 0;
    if (row->space == DGPB_SPACE_PIPELINE_CONSTANT)
        return DGPB_OK;
    walker *w = mem_calloc(1, sizeof *w);
    if (!w)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
    w->lex = (text_scanner){
        .text = text ? text : "", .len = len, .line = 1, .diag = diag, .language = "WGSL"};
    bool have = false, ovr = false;
    mark at = {0};
    int rc = find_var(w, row, &have, &ovr, &at);
    wtype t;
    if (!rc && have && !(rc = layout(w, at, 0, &t)))
        *size = t.size > UINT32_MAX ? UINT32_MAX : (uint32_t)t.size;
    dgpb_free(w);
    return rc;
}

int value_wgsl_type(const char *text, size_t len, const code_row *row, dgpb_code_type *t,
                    dgpb_diag *diag)
{
    walker *w = mem_calloc(1, sizeof *w);
    if (!w)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
    w->lex = (text_scanner){
        .text = text ? text : "", .len = len, .line = 1, .diag = diag, .language = "WGSL"};
    bool have = false, is_override = false;
    mark var_type = {0};
    bool buffer = row->kind == DGPB_KIND_BUFFER || row->kind == DGPB_KIND_RW_BUFFER;
    w->storage = buffer;
    int rc = find_var(w, row, &have, &is_override, &var_type);
    if (!rc && have && buffer) {
        /* a structured buffer: the scalar or vector of the var<storage>'s array<E> */
        wtype a, el;
        if (!(rc = layout(w, var_type, 0, &a)) && a.is_array && !(rc = layout(w, a.elem, 1, &el)) &&
            el.v.scalar && el.v.rows == 1)
            *t = el.v;
    } else if (!rc && have) {
        rc = is_override ? find(w, var_type, 0, 0, false, 0, t)
                         : find(w, var_type, row->offset, row->size, true, 0, t);
    }
    dgpb_free(w);
    return rc;
}

static int find_var(walker *w, const code_row *row, bool *have_out, bool *is_override_out,
                    mark *var_type_out)
{
    bool have = false, is_override = false;
    mark var_type = {0};
    int rc = wgsl_advance(&w->lex);
    while (!rc && w->lex.tok.kind != TEXT_TOKEN_EOF) {
        attr attrs[MAX_ATTRS];
        size_t na = 0;
        if (text_is_punct(&w->lex.tok, '@') && (rc = wgsl_parse_attrs(&w->lex, attrs, &na)))
            break;
        token kw = w->lex.tok;
        if (text_tok_is(&kw, "struct")) {
            if ((rc = wgsl_advance(&w->lex)) || (rc = wgsl_expect_ident(&w->lex, "a struct name")))
                break;
            token name = w->lex.tok;
            if ((rc = wgsl_advance(&w->lex)) ||
                (rc = text_expect(&w->lex, '{', "to open a struct")))
                break;
            if (w->struct_count == MAX_STRUCTS) {
                rc = text_fail_at(&w->lex, DGPB_ERR_LIMIT, name.off, name.line,
                                  "more than %d structs", MAX_STRUCTS);
                break;
            }
            w->structs[w->struct_count++] = (wstruct){name, wgsl_save(&w->lex)};
            rc = wgsl_skip(&w->lex, "", SKIP_GROUP, NULL);
            continue; /* at the token after its '}' */
        } else if (text_tok_is(&kw, "var") || text_tok_is(&kw, "override")) {
            bool uniform = false, ovr = text_tok_is(&kw, "override");
            if ((rc = wgsl_advance(&w->lex)))
                break;
            if (text_is_punct(&w->lex.tok, '<')) {
                if ((rc = wgsl_advance(&w->lex)))
                    break;
                uniform = text_tok_is(&w->lex.tok, w->storage ? "storage" : "uniform");
                if ((rc = wgsl_skip(&w->lex, ">", SKIP_TEMPLATES, NULL)) ||
                    (rc = wgsl_advance(&w->lex)))
                    break;
            }
            if ((rc = wgsl_expect_ident(&w->lex, "a name")) || (rc = wgsl_advance(&w->lex)))
                break;
            bool match = ovr ? row->space == DGPB_SPACE_PIPELINE_CONSTANT &&
                                   attr_value(attrs, na, "id") == (int64_t)row->binding
                             : uniform && row->space != DGPB_SPACE_PIPELINE_CONSTANT &&
                                   attr_value(attrs, na, "group") == (int64_t)row->space &&
                                   attr_value(attrs, na, "binding") == (int64_t)row->binding;
            if (text_is_punct(&w->lex.tok, ':')) {
                if ((rc = wgsl_advance(&w->lex)))
                    break;
                if (match && !have) {
                    have = true;
                    is_override = ovr;
                    var_type = wgsl_save(&w->lex);
                }
            }
            rc = wgsl_skip(&w->lex, ";", SKIP_TEMPLATES, NULL);
        } else if (text_is_punct(&kw, '{') || text_is_punct(&kw, '(')) {
            rc = wgsl_skip(&w->lex, "", SKIP_GROUP, NULL);
            continue;
        } else if (na) {
            continue; /* attributes before `fn`, ... */
        }
        if (!rc)
            rc = wgsl_advance(&w->lex);
    }
    *have_out = have;
    *is_override_out = is_override;
    *var_type_out = var_type;
    return rc;
}

/* A walker over `text`, or NULL (out of memory, said in diag). */
static walker *walker_new(const char *text, size_t len, dgpb_diag *diag)
{
    walker *w = mem_calloc(1, sizeof *w);
    if (!w) {
        dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
        return NULL;
    }
    w->lex = (text_scanner){
        .text = text ? text : "", .len = len, .line = 1, .diag = diag, .language = "WGSL"};
    return w;
}

int value_wgsl_block_members(const char *text, size_t len, uint32_t group, uint32_t binding,
                             dgpb_spirv_member **out, uint32_t *count, dgpb_diag *diag)
{
    *out = NULL;
    *count = 0;
    walker *w = walker_new(text, len, diag);
    if (!w)
        return DGPB_ERR_NOMEM;
    code_row row = {.space = group, .binding = binding};
    bool have = false, ovr = false;
    mark at = {0};
    wtype t;
    int rc = find_var(w, &row, &have, &ovr, &at);
    if (!rc && have && !(rc = layout(w, at, 0, &t)) && t.is_struct) {
        uint64_t end = 0;
        bool got = true;
        size_t n = 0, cap = 0;
        dgpb_spirv_member *m = NULL;
        wgsl_restore(&w->lex, t.elem);
        rc = wgsl_advance(&w->lex);
        while (!rc && got) {
            wmember one;
            if ((rc = next_member(w, end, 0, &one, &got)) || !got)
                break;
            end = one.offset + one.size;
            if (n == cap) {
                size_t grown = cap ? cap * 2 : 8;
                dgpb_spirv_member *more = mem_realloc(m, grown * sizeof *m);
                if (!more) {
                    rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
                    break;
                }
                m = more;
                cap = grown;
            }
            m[n++] = (dgpb_spirv_member){(uint32_t)one.offset, (uint32_t)one.size};
        }
        if (rc || end > UINT32_MAX) {
            dgpb_free(m);
        } else {
            *out = m;
            *count = (uint32_t)n;
        }
    }
    dgpb_free(w);
    return rc;
}

int value_wgsl_element_stride(const char *text, size_t len, uint32_t group, uint32_t binding,
                              uint32_t *stride, dgpb_diag *diag)
{
    *stride = 0;
    walker *w = walker_new(text, len, diag);
    if (!w)
        return DGPB_ERR_NOMEM;
    w->storage = true;
    code_row row = {.space = group, .binding = binding};
    bool have = false, ovr = false;
    mark at = {0};
    wtype t, el;
    int rc = find_var(w, &row, &have, &ovr, &at);
    if (!rc && have && !(rc = layout(w, at, 0, &t)) && t.is_array &&
        !(rc = layout(w, t.elem, 1, &el))) {
        uint64_t s = round_up(el.size, el.align);
        *stride = s > UINT32_MAX ? 0 : (uint32_t)s;
    }
    dgpb_free(w);
    return rc;
}

/* ---- a struct value's fields (code/value_fields.h) ---------------------------- */

/* The members of the struct laid out as `t`, at most `max`, into m[]: their count in *n. */
static int members_of(walker *w, const wtype *t, int depth, wmember *m, size_t max, size_t *n)
{
    uint64_t end = 0;
    bool got = true;
    *n = 0;
    wgsl_restore(&w->lex, t->elem);
    int rc = wgsl_advance(&w->lex);
    while (!rc && got) {
        wmember one;
        if ((rc = next_member(w, end, depth, &one, &got)) || !got)
            break;
        if (*n == max)
            return text_fail_at(&w->lex, DGPB_ERR_LIMIT, one.name.off, one.name.line,
                                "a struct of more than %zu members", max);
        end = one.offset + one.size;
        m[(*n)++] = one;
    }
    return rc;
}

/* Whether the struct laid out as `t` is Slang's wrapper of a std140 array (named
   _Array_std140_*, one member at offset 0, an array): *array the array's type. */
static int array_wrapper(walker *w, const wtype *t, int depth, mark *array, bool *is)
{
    static const char prefix[] = "_Array_std140_";
    *is = false;
    const token *name = &t->decl->name;
    if (!t->is_struct || name->len <= sizeof prefix - 1 ||
        memcmp(name->s, prefix, sizeof prefix - 1))
        return DGPB_OK;
    wmember m[2];
    size_t n = 0;
    wtype a;
    int rc = members_of(w, t, depth, m, 2, &n);
    if (rc || n != 1 || m[0].offset || (rc = layout(w, m[0].type, depth + 1, &a)) || !a.is_array)
        return rc;
    *array = m[0].type;
    *is = true;
    return DGPB_OK;
}

/* The type at `at` laid out in *t, Slang's array wrapper taken for its array (*at moved). */
static int layout_unwrapped(walker *w, mark *at, int depth, wtype *t)
{
    int rc = layout(w, *at, depth, t);
    bool is = false;
    mark array;
    if (!rc && t->is_struct && !(rc = array_wrapper(w, t, depth, &array, &is)) && is) {
        *at = array;
        rc = layout(w, *at, depth, t);
    }
    return rc;
}

/* Whether the struct laid out as `t` is the module's own: no wrapper of an array or matrix. */
static int user_struct(walker *w, const wtype *t, int depth, bool *user)
{
    *user = false;
    if (!t->is_struct)
        return DGPB_OK;
    bool is = false;
    mark array;
    dgpb_code_type v = {0};
    int rc = array_wrapper(w, t, depth, &array, &is);
    if (!rc && !is)
        rc = matrix_storage(w, t, depth, &v, &is);
    *user = !rc && !is;
    return rc;
}

typedef struct wfields {
    walker *w;
    code_fields *out;
    const wstruct *done_decl[CODE_FIELDS_MAX_STRUCTS];
    int32_t done_index[CODE_FIELDS_MAX_STRUCTS];
    uint32_t done;
} wfields;

static int add_wstruct(wfields *f, const wtype *t, int depth, int32_t *index);

/*
 * Field `out`'s type from the member's type at `at` (`size` bytes): a struct of the module's or
 * an array of them (added), else a scalar, vector or matrix or an array of them as a row of it
 * reads (find(): Slang's array wrappers as their logical elements), or unknown.
 */
static int wfield_type(wfields *f, mark at, uint64_t size, int depth, code_field *out)
{
    walker *w = f->w;
    wtype t, el;
    bool user = false;
    out->of = -1;
    uint32_t count = 0, stride = 0;
    mark inner = at;
    int rc = layout_unwrapped(w, &inner, depth + 1, &t);
    if (!rc && t.is_array) {
        mark elem = t.elem;
        if ((rc = layout_unwrapped(w, &elem, depth + 1, &el)))
            return rc;
        if ((rc = user_struct(w, &el, depth + 1, &user)) || user) {
            count = (uint32_t)t.count;
            stride = (uint32_t)round_up(el.size, el.align);
            if (!rc && (!count || !stride))
                return DGPB_OK; /* runtime arrays: not described */
            t = el;
        }
    } else if (!rc) {
        rc = user_struct(w, &t, depth + 1, &user);
    }
    if (rc)
        return rc;
    if (user) {
        if ((rc = add_wstruct(f, &t, depth + 1, &out->of)))
            return rc;
        out->type.aggregate = true;
        out->type.array_count = count;
        out->type.array_stride = stride;
        return DGPB_OK;
    }
    if ((rc = find(w, at, 0, size, false, depth + 1, &out->type)))
        return rc;
    if (out->type.aggregate || !out->type.scalar)
        memset(&out->type, 0, sizeof out->type);
    return DGPB_OK;
}

static int add_wstruct(wfields *f, const wtype *t, int depth, int32_t *index)
{
    walker *w = f->w;
    for (uint32_t i = 0; i < f->done; i++)
        if (f->done_decl[i] == t->decl) {
            *index = f->done_index[i];
            return DGPB_OK;
        }
    if (depth > CODE_FIELDS_MAX_DEPTH || f->done == CODE_FIELDS_MAX_STRUCTS)
        return text_fail_at(&w->lex, DGPB_ERR_LIMIT, t->decl->name.off, t->decl->name.line,
                            "structs nested deeper than %d, or more than %d, in a value",
                            CODE_FIELDS_MAX_DEPTH, CODE_FIELDS_MAX_STRUCTS);
    wmember *m = mem_calloc(CODE_FIELDS_MAX_FIELDS, sizeof *m);
    code_field *fields = mem_calloc(CODE_FIELDS_MAX_FIELDS, sizeof *fields);
    size_t n = 0;
    int rc = m && fields
                 ? members_of(w, t, depth, m, CODE_FIELDS_MAX_FIELDS, &n)
                 : dgpb_diag_set(w->lex.diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
    for (size_t i = 0; !rc && i < n; i++) {
        fields[i].offset = (uint32_t)m[i].offset;
        fields[i].size = (uint32_t)m[i].size;
        if (!(fields[i].name = code_fields_copy_name(m[i].name.s, m[i].name.len, true)))
            rc = dgpb_diag_set(w->lex.diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
        else
            rc = wfield_type(f, m[i].type, m[i].size, depth, &fields[i]);
    }
    if (!rc) {
        /* Slang's `_0` left out here, its layout suffix by code_fields_add_struct */
        char *base = code_fields_copy_name(t->decl->name.s, t->decl->name.len, true);
        if (!base)
            rc = dgpb_diag_set(w->lex.diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
        else
            rc =
                code_fields_add_struct(f->out, base, strlen(base), (uint32_t)t->size,
                                       (uint32_t)t->align, fields, (uint32_t)n, index, w->lex.diag);
        dgpb_free(base);
    }
    for (size_t i = 0; fields && i < n; i++)
        dgpb_free(fields[i].name);
    dgpb_free(fields);
    dgpb_free(m);
    if (!rc) {
        f->done_decl[f->done] = t->decl;
        f->done_index[f->done++] = *index;
    }
    return rc;
}

/* The struct the row at byte `off` (`size` bytes) of the type at `at` holds (see
   value_spirv.c's row_struct): its layout in *found, *count and *stride for an array. */
static int row_wstruct(walker *w, mark at, uint64_t off, uint64_t size, bool top, int depth,
                       wtype *found, bool *have, uint32_t *count, uint32_t *stride)
{
    wtype t;
    int rc = layout_unwrapped(w, &at, depth, &t);
    if (rc || depth > MAX_DEPTH)
        return rc;
    if (t.is_array) {
        wtype el;
        mark elem = t.elem;
        if ((rc = layout_unwrapped(w, &elem, depth + 1, &el)))
            return rc;
        uint64_t s = round_up(el.size, el.align);
        if (!s || !t.count)
            return DGPB_OK;
        if (off == 0 && size > s) {
            bool user = false;
            if ((rc = user_struct(w, &el, depth + 1, &user)) || !user)
                return rc;
            *found = el;
            *have = true;
            *count = (uint32_t)t.count;
            *stride = (uint32_t)s;
            return DGPB_OK;
        }
        return off / s < t.count ? row_wstruct(w, elem, off % s, size, false, depth + 1, found,
                                               have, count, stride)
                                 : DGPB_OK;
    }
    bool user = false;
    if (!t.is_struct || (!top && ((rc = user_struct(w, &t, depth, &user)) || !user)))
        return rc;
    if (!top && off == 0 && size >= t.size) {
        *found = t;
        *have = true;
        return DGPB_OK;
    }
    wmember *m = mem_calloc(CODE_FIELDS_MAX_FIELDS, sizeof *m);
    size_t n = 0;
    if (!m)
        return dgpb_diag_set(w->lex.diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
    rc = members_of(w, &t, depth, m, CODE_FIELDS_MAX_FIELDS, &n);
    for (size_t i = 0; !rc && i < n; i++)
        if (m[i].offset <= off && off < m[i].offset + m[i].size) {
            rc = row_wstruct(w, m[i].type, off - m[i].offset, size, false, depth + 1, found, have,
                             count, stride);
            break;
        }
    dgpb_free(m);
    return rc;
}

int value_wgsl_fields(const char *text, size_t len, const code_row *row, code_fields *out,
                      dgpb_diag *diag)
{
    if (row->space == DGPB_SPACE_PIPELINE_CONSTANT)
        return DGPB_OK;
    walker *w = walker_new(text, len, diag);
    if (!w)
        return DGPB_ERR_NOMEM;
    bool have = false, ovr = false, found = false;
    bool buffer = row->kind == DGPB_KIND_BUFFER || row->kind == DGPB_KIND_RW_BUFFER;
    mark at = {0};
    wtype t;
    uint32_t count = 0, stride = 0, element = 0;
    w->storage = buffer;
    int rc = find_var(w, row, &have, &ovr, &at);
    if (!rc && have && buffer) {
        /* a structured buffer of structs: the var<storage>'s array<E>, E a struct of the
           module's own, as large as the array's stride */
        wtype a;
        mark elem;
        if (!(rc = layout(w, at, 0, &a)) && a.is_array) {
            elem = a.elem;
            if (!(rc = layout_unwrapped(w, &elem, 1, &t)) && !(rc = user_struct(w, &t, 1, &found)))
                element = (uint32_t)round_up(t.size, t.align);
        }
    } else if (!rc && have && row->kind == DGPB_KIND_UNIFORM_BUFFER) {
        /* a uniform block: the var<uniform>'s struct */
        if (!(rc = layout(w, at, 0, &t)))
            rc = user_struct(w, &t, 0, &found);
    } else if (!rc && have) {
        rc = row_wstruct(w, at, row->offset, row->size, true, 0, &t, &found, &count, &stride);
    }
    if (!rc && found) {
        wfields *f = mem_calloc(1, sizeof *f);
        if (!f) {
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading WGSL");
        } else {
            f->w = w;
            f->out = out;
            rc = add_wstruct(f, &t, 0, &out->root);
            out->count = count;
            out->stride = stride;
            if (!rc && element)
                out->structs[out->root].size = element;
            dgpb_free(f);
        }
    }
    dgpb_free(w);
    return rc;
}
