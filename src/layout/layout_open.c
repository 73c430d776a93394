/*
 * layout_open.c - opens layout blobs (dgpb/layout.h; the format is
 * docs/layout.md, the record shapes layout_internal.h), validating every
 * table before layout_replay.c can answer a query from them.
 *
 * dgpb_layout_open() checks everything before any query can run: the
 * blob's size is computed from the header's counts (in 64 bits) and must be
 * the file's size exactly, so every table lies inside the bytes; then every
 * string, reference, list and per-category answer list is checked, every
 * list table must be covered by its owners' lists in order, and the
 * containment graph (variable layout -> type layout -> element and field
 * layouts) and the type graph (element and result types) must be acyclic,
 * pointer types excepted. Failures go through corrupt(), which records the
 * byte offset: one place to set a breakpoint.
 *
 * Queries read the caller's bytes in place (zero-copy); the only memory the
 * reader allocates is the handle, one u32 per string (its offset) and, while
 * opening, the cycle check's marks and stack, all bounded by the input size.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/utf8.h"
#include "layout/layout_reader.h"

typedef struct check {
    dgpb_layout *l;
    dgpb_diag *diag;
} check;

static int corrupt(check *c, int code, const uint8_t *where, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int corrupt(check *c, int code, const uint8_t *where, const char *fmt, ...)
{
    char msg[DGPB_DIAG_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int64_t off = where ? (int64_t)(where - c->l->bytes) : -1;
    return dgpb_diag_set(c->diag, code, off, "corrupt layout: %s", msg);
}

/* A reference: NONE (when nullable) or below `count`. */
static int check_ref(check *c, const uint8_t *p, uint32_t count, bool nullable, const char *what,
                     const char *owner, uint32_t index)
{
    uint32_t r = rd32(p);
    if (r == DGPB_LAYOUT_NONE && nullable)
        return DGPB_OK;
    if (r >= count)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, p, "%s %u: %s %s out of range (%u in the table)",
                       owner, index, what, r == DGPB_LAYOUT_NONE ? "null" : "index", count);
    return DGPB_OK;
}

/* A list (first, count) that must start where the previous one of its table ended. */
static int check_list(check *c, const uint8_t *p, uint32_t *cursor, uint32_t table_count,
                      const char *what, const char *owner, uint32_t index)
{
    uint32_t first = rd32(p), count = rd32(p + 4);
    if (count == 0) {
        if (first != 0)
            return corrupt(c, DGPB_ERR_CORRUPT_VALUE, p, "%s %u: empty %s list starts at %u, not 0",
                           owner, index, what, first);
        return DGPB_OK;
    }
    if (first != *cursor)
        return corrupt(c, DGPB_ERR_CORRUPT_ORDER, p,
                       "%s %u: %s list starts at %u, expected %u (lists are laid out in order)",
                       owner, index, what, first, *cursor);
    if ((uint64_t)first + count > table_count)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, p, "%s %u: %s list [%u, +%u) past the table's %u",
                       owner, index, what, first, count, table_count);
    *cursor += count;
    return DGPB_OK;
}

/* A per-category answer list: categories increasing, below the probe, values not the default. */
static int check_per_category(check *c, const uint8_t *rec, uint32_t *cursor, const char *what,
                              const char *owner, uint32_t index)
{
    dgpb_layout *l = c->l;
    int rc = check_list(c, rec + LC_ANSWERS * 4, cursor, l->h[LH_ANSWER_COUNT], what, owner, index);
    if (rc)
        return rc;
    uint64_t dflt = rd64(rec + LC_DEFAULT * 4);
    uint32_t first = rd32(rec + LC_ANSWERS * 4), count = rd32(rec + LC_ANSWERS * 4 + 4);
    for (uint32_t k = 0; k < count; k++) {
        const uint8_t *a = at(l->answers, first + k, LA_WORDS, 0);
        uint32_t cat = rd32(a + LA_CATEGORY * 4);
        if (cat >= DGPB_LAYOUT_CATEGORY_PROBE)
            return corrupt(c, DGPB_ERR_CORRUPT_VALUE, a,
                           "%s %u: %s answer for category %u (limit %u)", owner, index, what, cat,
                           DGPB_LAYOUT_CATEGORY_PROBE);
        if (k && cat <= rd32(at(l->answers, first + k - 1, LA_WORDS, LA_CATEGORY)))
            return corrupt(c, DGPB_ERR_CORRUPT_ORDER, a,
                           "%s %u: %s answers not in increasing category order", owner, index,
                           what);
        if (rd64(a + LA_VALUE * 4) == dflt)
            return corrupt(c, DGPB_ERR_CORRUPT_VALUE, a,
                           "%s %u: %s answer for category %u repeats the default", owner, index,
                           what, cat);
    }
    return DGPB_OK;
}

static int check_strings(check *c, const uint8_t *base, uint32_t bytes)
{
    dgpb_layout *l = c->l;
    uint32_t n = l->h[LH_STRING_COUNT];
    if (n > bytes / 5u)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, l->bytes + LH_STRING_COUNT * 4,
                       "%u strings cannot fit in %u bytes", n, bytes);
    if (n) {
        l->string_off = mem_calloc(n, sizeof *l->string_off);
        if (!l->string_off)
            return dgpb_diag_set(c->diag, DGPB_ERR_NOMEM, -1, "out of memory reading a layout");
    }
    uint32_t pos = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (bytes - pos < 4)
            return corrupt(c, DGPB_ERR_CORRUPT_TRUNCATED, base + pos,
                           "string %u: length past the string table", i);
        uint32_t len = rd32(base + pos);
        if (len > DGPB_LAYOUT_MAX_STRING)
            return corrupt(c, DGPB_ERR_CORRUPT_STRING, base + pos,
                           "string %u is %u bytes long (limit %u)", i, len, DGPB_LAYOUT_MAX_STRING);
        if ((uint64_t)bytes - pos - 4 < (uint64_t)len + 1)
            return corrupt(c, DGPB_ERR_CORRUPT_TRUNCATED, base + pos,
                           "string %u: %u bytes past the string table", i, len);
        const char *s = (const char *)base + pos + 4;
        size_t bad = 0;
        if (!utf8_valid(s, len, &bad))
            return corrupt(c, DGPB_ERR_CORRUPT_STRING, (const uint8_t *)s + bad,
                           "string %u is not UTF-8 without NUL", i);
        if (s[len] != 0)
            return corrupt(c, DGPB_ERR_CORRUPT_STRING, (const uint8_t *)s + len,
                           "string %u is not NUL-terminated", i);
        l->string_off[i] = (uint32_t)((const uint8_t *)s - l->bytes);
        pos += 4 + len + 1;
    }
    if (pos != bytes)
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, base + pos,
                       "%u bytes after the last string in the string table", bytes - pos);
    return DGPB_OK;
}

/*
 * Acyclicity by depth-first search without recursion. next(l, node, k) gives the k-th edge's
 * target, -1 for a null edge, -2 after the last edge.
 */
typedef int64_t (*edge_fn)(const dgpb_layout *l, uint32_t node, uint32_t k);
/* Where node `node` is, and what it is ("type layout", its index). */
typedef const uint8_t *(*where_fn)(const dgpb_layout *l, uint32_t node, const char **kind,
                                   uint32_t *index);

static int check_acyclic(check *c, uint32_t nodes, edge_fn next, const char *what, where_fn where)
{
    if (!nodes)
        return DGPB_OK;
    uint8_t *color = mem_calloc(nodes, 1); /* 0 new, 1 on the stack, 2 done */
    struct frame {
        uint32_t node, k;
    } *stack = mem_calloc(nodes, sizeof *stack);
    int rc = DGPB_OK;
    if (!color || !stack) {
        rc = dgpb_diag_set(c->diag, DGPB_ERR_NOMEM, -1, "out of memory reading a layout");
        goto out;
    }
    for (uint32_t root = 0; root < nodes && !rc; root++) {
        if (color[root])
            continue;
        uint32_t depth = 0;
        stack[depth++] = (struct frame){root, 0};
        color[root] = 1;
        while (depth) {
            struct frame *f = &stack[depth - 1];
            int64_t t = next(c->l, f->node, f->k++);
            if (t == -2) {
                color[f->node] = 2;
                depth--;
            } else if (t >= 0) {
                uint32_t u = (uint32_t)t;
                if (color[u] == 1) {
                    const char *kind;
                    uint32_t index;
                    const uint8_t *p = where(c->l, u, &kind, &index);
                    rc = corrupt(c, DGPB_ERR_CORRUPT_VALUE, p, "%s form a cycle through %s %u",
                                 what, kind, index);
                    break;
                }
                if (!color[u]) {
                    color[u] = 1;
                    stack[depth++] = (struct frame){u, 0};
                }
            }
        }
    }
out:
    dgpb_free(color);
    dgpb_free(stack);
    return rc;
}

static int64_t ref_or_null(uint32_t r)
{
    return r == DGPB_LAYOUT_NONE ? -1 : (int64_t)r;
}

/* Containment: nodes [0, ntl) are type layouts, [ntl, ntl + nvl) variable layouts. */
static int64_t containment_edge(const dgpb_layout *l, uint32_t node, uint32_t k)
{
    uint32_t ntl = l->h[LH_TYPE_LAYOUT_COUNT];
    if (node >= ntl) {
        if (k > 0)
            return -2;
        return ref_or_null(rd32(at(l->vls, node - ntl, LVL_WORDS, LVL_TYPE_LAYOUT)));
    }
    const uint8_t *r = at(l->tls, node, LTL_WORDS, 0);
    if (rd32(r + LTL_KIND * 4) == DGPB_LAYOUT_KIND_POINTER)
        return -2; /* a pointer's target may contain the pointer */
    int64_t t;
    switch (k) {
    case 0:
        return ref_or_null(rd32(r + LTL_ELEMENT_TYPE_LAYOUT * 4));
    case 1:
        t = ref_or_null(rd32(r + LTL_ELEMENT_VAR_LAYOUT * 4));
        return t < 0 ? -1 : t + ntl;
    case 2:
        t = ref_or_null(rd32(r + LTL_CONTAINER_VAR_LAYOUT * 4));
        return t < 0 ? -1 : t + ntl;
    case 3:
        t = ref_or_null(rd32(r + LTL_EXPLICIT_COUNTER * 4));
        return t < 0 ? -1 : t + ntl;
    default: {
        uint32_t first = rd32(r + LTL_FIELDS * 4), count = rd32(r + LTL_FIELDS * 4 + 4);
        if (k - 4 >= count)
            return -2;
        t = ref_or_null(rd32(at(l->fields, first + (k - 4), LF_WORDS, LF_VAR_LAYOUT)));
        return t < 0 ? -1 : t + ntl;
    }
    }
}

static const uint8_t *containment_where(const dgpb_layout *l, uint32_t node, const char **kind,
                                        uint32_t *index)
{
    uint32_t ntl = l->h[LH_TYPE_LAYOUT_COUNT];
    *kind = node < ntl ? "type layout" : "variable layout";
    *index = node < ntl ? node : node - ntl;
    return node < ntl ? at(l->tls, node, LTL_WORDS, 0) : at(l->vls, node - ntl, LVL_WORDS, 0);
}

static int64_t type_edge(const dgpb_layout *l, uint32_t node, uint32_t k)
{
    const uint8_t *r = at(l->types, node, LT_WORDS, 0);
    if (rd32(r + LT_KIND * 4) == DGPB_LAYOUT_KIND_POINTER || k > 1)
        return -2;
    return ref_or_null(rd32(r + (k == 0 ? LT_ELEMENT_TYPE : LT_RESOURCE_RESULT_TYPE) * 4));
}

static const uint8_t *type_where(const dgpb_layout *l, uint32_t node, const char **kind,
                                 uint32_t *index)
{
    *kind = "type";
    *index = node;
    return at(l->types, node, LT_WORDS, 0);
}

static int validate(check *c)
{
    dgpb_layout *l = c->l;
    const uint32_t *h = l->h;
    const uint32_t ns = h[LH_STRING_COUNT], nt = h[LH_TYPE_COUNT], nv = h[LH_VAR_COUNT],
                   ntl = h[LH_TYPE_LAYOUT_COUNT], nvl = h[LH_VAR_LAYOUT_COUNT];
    int rc;
    const uint8_t *hp = l->bytes;

#define TRY(x)                                                                                     \
    do {                                                                                           \
        if ((rc = (x)) != DGPB_OK)                                                                 \
            return rc;                                                                             \
    } while (0)

    TRY(check_strings(c, l->bytes + LH_WORDS * 4, h[LH_STRING_BYTES]));
    TRY(check_ref(c, hp + LH_SLANG_VERSION * 4, ns, false, "Slang version string", "header", 0));
    TRY(check_ref(c, hp + LH_TARGET * 4, ns, false, "target string", "header", 0));
    if (!dgpb_layout_group_name(h[LH_GROUP_KIND]))
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, hp + LH_GROUP_KIND * 4, "unknown group kind %u",
                       h[LH_GROUP_KIND]);
    if (h[LH_SPECIALIZATION_PARAMS] != 0)
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, hp + LH_SPECIALIZATION_PARAMS * 4,
                       "the program has %u specialization parameters (must be 0)",
                       h[LH_SPECIALIZATION_PARAMS]);
    TRY(check_ref(c, hp + LH_GLOBAL_VAR_LAYOUT * 4, nvl, true, "global variable layout", "header",
                  0));
    TRY(check_ref(c, hp + LH_GLOBAL_TYPE_LAYOUT * 4, ntl, true, "global type layout", "header", 0));
    for (uint32_t i = 0; i < h[LH_OPTION_COUNT]; i++)
        TRY(check_ref(c, l->options + i * 4u, ns, false, "string", "option", i));

    for (uint32_t i = 0; i < nt; i++) {
        const uint8_t *r = at(l->types, i, LT_WORDS, 0);
        TRY(check_ref(c, r + LT_NAME * 4, ns, true, "name", "type", i));
        TRY(check_ref(c, r + LT_ELEMENT_TYPE * 4, nt, true, "element type", "type", i));
        TRY(check_ref(c, r + LT_RESOURCE_RESULT_TYPE * 4, nt, true, "resource result type", "type",
                      i));
    }
    uint32_t cur = 0;
    for (uint32_t i = 0; i < nv; i++) {
        const uint8_t *r = at(l->vars, i, LV_WORDS, 0);
        TRY(check_ref(c, r + LV_NAME * 4, ns, true, "name", "variable", i));
        TRY(check_ref(c, r + LV_TYPE * 4, nt, true, "type", "variable", i));
        TRY(check_list(c, r + LV_ATTRIBUTES * 4, &cur, h[LH_ATTRIBUTE_COUNT], "user attribute",
                       "variable", i));
    }
    if (cur != h[LH_ATTRIBUTE_COUNT])
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, hp + LH_ATTRIBUTE_COUNT * 4,
                       "%u user attributes belong to no variable", h[LH_ATTRIBUTE_COUNT] - cur);

    uint32_t cur_ans = 0, cur_cat = 0, cur_field = 0, cur_range = 0, cur_set = 0, cur_sub = 0;
    for (uint32_t i = 0; i < ntl; i++) {
        const uint8_t *r = at(l->tls, i, LTL_WORDS, 0);
        const char *o = "type layout";
        TRY(check_ref(c, r + LTL_TYPE * 4, nt, true, "type", o, i));
        TRY(check_per_category(c, r + LTL_SIZE * 4, &cur_ans, "size", o, i));
        TRY(check_per_category(c, r + LTL_STRIDE * 4, &cur_ans, "stride", o, i));
        TRY(check_per_category(c, r + LTL_ELEMENT_STRIDE * 4, &cur_ans, "element stride", o, i));
        TRY(check_ref(c, r + LTL_ELEMENT_TYPE_LAYOUT * 4, ntl, true, "element type layout", o, i));
        TRY(check_ref(c, r + LTL_ELEMENT_VAR_LAYOUT * 4, nvl, true, "element var layout", o, i));
        TRY(check_ref(c, r + LTL_CONTAINER_VAR_LAYOUT * 4, nvl, true, "container var layout", o,
                      i));
        TRY(check_ref(c, r + LTL_EXPLICIT_COUNTER * 4, nvl, true, "explicit counter", o, i));
        TRY(check_list(c, r + LTL_CATEGORIES * 4, &cur_cat, h[LH_CATEGORY_COUNT], "category", o,
                       i));
        TRY(check_list(c, r + LTL_FIELDS * 4, &cur_field, h[LH_FIELD_COUNT], "field", o, i));
        TRY(check_list(c, r + LTL_BINDING_RANGES * 4, &cur_range, h[LH_BINDING_RANGE_COUNT],
                       "binding range", o, i));
        TRY(check_list(c, r + LTL_DESCRIPTOR_SETS * 4, &cur_set, h[LH_DESCRIPTOR_SET_COUNT],
                       "descriptor set", o, i));
        TRY(check_list(c, r + LTL_SUB_OBJECT_RANGES * 4, &cur_sub, h[LH_SUB_OBJECT_RANGE_COUNT],
                       "sub-object range", o, i));
    }
    for (uint32_t i = 0; i < nvl; i++) {
        const uint8_t *r = at(l->vls, i, LVL_WORDS, 0);
        const char *o = "variable layout";
        TRY(check_ref(c, r + LVL_TYPE_LAYOUT * 4, ntl, true, "type layout", o, i));
        TRY(check_ref(c, r + LVL_VARIABLE * 4, nv, true, "variable", o, i));
        TRY(check_per_category(c, r + LVL_OFFSET * 4, &cur_ans, "offset", o, i));
        TRY(check_per_category(c, r + LVL_SPACE * 4, &cur_ans, "space", o, i));
    }
    uint32_t cur_param = 0;
    for (uint32_t i = 0; i < h[LH_ENTRY_COUNT]; i++) {
        const uint8_t *r = at(l->entries, i, LE_WORDS, 0);
        const char *o = "entry point";
        TRY(check_ref(c, r + LE_NAME * 4, ns, true, "name", o, i));
        TRY(check_ref(c, r + LE_NAME_OVERRIDE * 4, ns, true, "name override", o, i));
        TRY(check_ref(c, r + LE_VAR_LAYOUT * 4, nvl, true, "var layout", o, i));
        TRY(check_ref(c, r + LE_TYPE_LAYOUT * 4, ntl, true, "type layout", o, i));
        TRY(check_list(c, r + LE_PARAMS * 4, &cur_param, h[LH_PARAM_COUNT], "parameter", o, i));
    }
    static const struct {
        int word;
        const char *what;
    } covered[] = {{LH_ANSWER_COUNT, "per-category answers"},
                   {LH_CATEGORY_COUNT, "categories"},
                   {LH_PARAM_COUNT, "entry parameters"},
                   {LH_FIELD_COUNT, "fields"},
                   {LH_BINDING_RANGE_COUNT, "binding ranges"},
                   {LH_DESCRIPTOR_SET_COUNT, "descriptor sets"},
                   {LH_SUB_OBJECT_RANGE_COUNT, "sub-object ranges"}};
    const uint32_t cursors[] = {cur_ans,   cur_cat, cur_param, cur_field,
                                cur_range, cur_set, cur_sub};
    for (size_t k = 0; k < sizeof covered / sizeof covered[0]; k++)
        if (cursors[k] != h[covered[k].word])
            return corrupt(c, DGPB_ERR_CORRUPT_VALUE, hp + covered[k].word * 4,
                           "%u %s belong to no owner", h[covered[k].word] - cursors[k],
                           covered[k].what);

    for (uint32_t i = 0; i < h[LH_ATTRIBUTE_COUNT]; i++)
        TRY(check_ref(c, l->attributes + i * 4u, ns, true, "name", "user attribute", i));
    for (uint32_t i = 0; i < h[LH_PARAM_COUNT]; i++)
        TRY(check_ref(c, l->params + i * 4u, nvl, true, "variable layout", "entry parameter", i));
    for (uint32_t i = 0; i < h[LH_FIELD_COUNT]; i++)
        TRY(check_ref(c, at(l->fields, i, LF_WORDS, LF_VAR_LAYOUT), nvl, true, "variable layout",
                      "field", i));
    for (uint32_t i = 0; i < h[LH_BINDING_RANGE_COUNT]; i++) {
        TRY(check_ref(c, at(l->ranges, i, LB_WORDS, LB_LEAF_TYPE_LAYOUT), ntl, true,
                      "leaf type layout", "binding range", i));
        TRY(check_ref(c, at(l->ranges, i, LB_WORDS, LB_LEAF_VARIABLE), nv, true, "leaf variable",
                      "binding range", i));
    }
    uint32_t cur_dr = 0;
    for (uint32_t i = 0; i < h[LH_DESCRIPTOR_SET_COUNT]; i++)
        TRY(check_list(c, at(l->sets, i, LS_WORDS, LS_RANGES), &cur_dr,
                       h[LH_DESCRIPTOR_RANGE_COUNT], "descriptor range", "descriptor set", i));
    if (cur_dr != h[LH_DESCRIPTOR_RANGE_COUNT])
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, hp + LH_DESCRIPTOR_RANGE_COUNT * 4,
                       "%u descriptor ranges belong to no descriptor set",
                       h[LH_DESCRIPTOR_RANGE_COUNT] - cur_dr);
    for (uint32_t i = 0; i < h[LH_SUB_OBJECT_RANGE_COUNT]; i++)
        TRY(check_ref(c, at(l->subs, i, LO_WORDS, LO_OFFSET_VAR_LAYOUT), nvl, true,
                      "offset variable layout", "sub-object range", i));

    TRY(check_acyclic(c, ntl + nvl, containment_edge, "type and variable layouts",
                      containment_where));
    TRY(check_acyclic(c, nt, type_edge, "element and result types", type_where));
#undef TRY
    return DGPB_OK;
}

int dgpb_layout_open(const void *data, size_t size, dgpb_layout **out, dgpb_diag *diag)
{
    *out = NULL;
    dgpb_layout tmp = {0};
    tmp.bytes = data;
    tmp.size = size;
    check c = {&tmp, diag};
    const uint8_t *b = data;
    if (!data && size)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no layout bytes given");
    if (size > UINT32_MAX)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "a layout of %zu bytes exceeds 4 GiB", size);
    if (size < 4 || memcmp(b, DGPB_LAYOUT_MAGIC, 4) != 0)
        return size < 4 && !memcmp(b, DGPB_LAYOUT_MAGIC, size)
                   ? corrupt(&c, DGPB_ERR_CORRUPT_TRUNCATED, b + size,
                             "truncated: %zu bytes, the header needs %u", size, LH_WORDS * 4u)
                   : corrupt(&c, DGPB_ERR_CORRUPT_MAGIC, b, "not a layout blob: bad magic");
    if (size < 8)
        return corrupt(&c, DGPB_ERR_CORRUPT_TRUNCATED, b + size,
                       "truncated: %zu bytes, the header needs %u", size, LH_WORDS * 4u);
    if (rd32(b + 4) != DGPB_LAYOUT_FORMAT_VERSION)
        return corrupt(&c, DGPB_ERR_CORRUPT_VERSION, b + 4,
                       "layout format version %u (this reader knows %u)", rd32(b + 4),
                       DGPB_LAYOUT_FORMAT_VERSION);
    if (size < LH_WORDS * 4u)
        return corrupt(&c, DGPB_ERR_CORRUPT_TRUNCATED, b + size,
                       "truncated: %zu bytes, the header needs %u", size, LH_WORDS * 4u);
    for (int i = 0; i < LH_WORDS; i++)
        tmp.h[i] = rd32(b + 4 * i);

    /* The tables' places (in DGPB_LAYOUT_TABLES' order), and the size they add up to. */
    const uint8_t **places[LAYOUT_TABLE_COUNT] = {
        [LAYOUT_TABLE_OPTIONS] = &tmp.options,
        [LAYOUT_TABLE_TYPES] = &tmp.types,
        [LAYOUT_TABLE_VARS] = &tmp.vars,
        [LAYOUT_TABLE_TYPE_LAYOUTS] = &tmp.tls,
        [LAYOUT_TABLE_VAR_LAYOUTS] = &tmp.vls,
        [LAYOUT_TABLE_ENTRIES] = &tmp.entries,
        [LAYOUT_TABLE_ANSWERS] = &tmp.answers,
        [LAYOUT_TABLE_ATTRIBUTES] = &tmp.attributes,
        [LAYOUT_TABLE_CATEGORIES] = &tmp.categories,
        [LAYOUT_TABLE_PARAMS] = &tmp.params,
        [LAYOUT_TABLE_FIELDS] = &tmp.fields,
        [LAYOUT_TABLE_BINDING_RANGES] = &tmp.ranges,
        [LAYOUT_TABLE_DESCRIPTOR_SETS] = &tmp.sets,
        [LAYOUT_TABLE_DESCRIPTOR_RANGES] = &tmp.drs,
        [LAYOUT_TABLE_SUB_OBJECT_RANGES] = &tmp.subs,
    };
    uint64_t pos = layout_table_offset(tmp.h, LAYOUT_TABLE_COUNT);
    if (pos > size)
        return corrupt(&c, DGPB_ERR_CORRUPT_TRUNCATED, b + size,
                       "truncated: %zu bytes, the header's counts need %llu", size,
                       (unsigned long long)pos);
    if (pos < size)
        return corrupt(&c, DGPB_ERR_CORRUPT_VALUE, b + pos, "%llu bytes after the last table",
                       (unsigned long long)(size - pos));
    for (int t = 0; t < LAYOUT_TABLE_COUNT; t++)
        *places[t] = b + layout_table_offset(tmp.h, (layout_table)t);

    int rc = validate(&c);
    if (rc) {
        dgpb_free(tmp.string_off);
        return rc;
    }
    dgpb_layout *l = mem_alloc(sizeof *l);
    if (!l) {
        dgpb_free(tmp.string_off);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory reading a layout");
    }
    *l = tmp;
    *out = l;
    return DGPB_OK;
}

void dgpb_layout_close(dgpb_layout *l)
{
    if (!l)
        return;
    dgpb_free(l->string_off);
    dgpb_free(l);
}
