/*
 * wgsl_scan.c - the resource bindings, entry points and workgroup memory of
 * WGSL text (code/wgsl/wgsl_scan.h).
 *
 * One pass over the module-scope grammar with a one-token lexer
 * (wgsl_syntax.c): the parser looks at s->lex.tok and calls wgsl_advance()
 * to move on. A position in the text (a mark: the lexer's offset and line,
 * and the token there) can be saved and restored, which is how a type is
 * read again after its syntax was checked: to take its text, and to size
 * it. Workgroup variables are sized after the whole module has been read
 * (wgsl_layout.c), because WGSL lets a struct be declared after its use.
 *
 * Function bodies and initializers are not parsed, only skipped with every
 * bracket balanced; an expression at module scope may not hold a brace, an
 * attribute or a declaration keyword, so a missing ';' is caught where it is
 * missing instead of swallowing the declarations after it.
 */
#include "code/wgsl/wgsl_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "core/alloc.h"
#include "code/text_scan.h"
#include "code/wgsl/wgsl_layout.h"
#include "code/wgsl/wgsl_syntax.h"
#include "dgpb/format.h"
#include "core/utf8.h"

typedef struct scanner {
    text_scanner lex; /* the text, the position, the current token, the diagnostic */
    dgpb_wgsl_module *m;
    size_t binding_cap, entry_cap, override_cap;
    wgsl_sizes sizes; /* the structs, aliases and var<workgroup> types, for wgsl_layout.c */
} scanner;

/* ---- bindings --------------------------------------------------------------- */

static bool is_sample_type(const token *t)
{
    return text_tok_is(t, "f32") || text_tok_is(t, "i32") || text_tok_is(t, "u32");
}

/* Fills a handle binding's class and details from its type. */
static int classify_handle(scanner *s, dgpb_wgsl_binding *b, const type_info *ti)
{
    static const char *const sampled[] = {"1d", "2d", "2d_array", "3d", "cube", "cube_array"};
    static const char *const depth[] = {"2d", "2d_array", "cube", "cube_array"};
    static const char *const storage[] = {"1d", "2d", "2d_array", "3d"};
    const token *name = &ti->name;
    char want[64], buf[64];
    b->cls = DGPB_WGSL_OTHER;
    if (text_tok_is(name, "sampler") || text_tok_is(name, "sampler_comparison") ||
        text_tok_is(name, "texture_external")) {
        b->cls = text_tok_is(name, "sampler")              ? DGPB_WGSL_SAMPLER
                 : text_tok_is(name, "sampler_comparison") ? DGPB_WGSL_SAMPLER_COMPARISON
                                                           : DGPB_WGSL_EXTERNAL_TEXTURE;
        if (ti->nargs)
            return text_bad(&s->lex, name, "'%.*s' takes no template arguments", (int)name->len,
                            name->s);
        return DGPB_OK;
    }
    for (size_t i = 0; i < sizeof sampled / sizeof sampled[0]; i++) {
        snprintf(want, sizeof want, "texture_%s", sampled[i]);
        bool ms = i == 1 && text_tok_is(name, "texture_multisampled_2d");
        if (!text_tok_is(name, want) && !ms)
            continue;
        b->cls = ms ? DGPB_WGSL_TEXTURE_MULTISAMPLED : DGPB_WGSL_TEXTURE;
        if (ti->nargs != 1 || !ti->single[0] || !is_sample_type(&ti->arg[0].tok))
            return text_bad(&s->lex, name, "'%.*s' needs one sample type, f32, i32 or u32",
                            (int)name->len, name->s);
        b->sample_type = text_tokdup(&ti->arg[0].tok);
        b->dimension = mem_strdup(sampled[i]);
        return b->sample_type && b->dimension ? DGPB_OK : DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < sizeof depth / sizeof depth[0]; i++) {
        snprintf(want, sizeof want, "texture_depth_%s", depth[i]);
        bool ms = i == 0 && text_tok_is(name, "texture_depth_multisampled_2d");
        if (!text_tok_is(name, want) && !ms)
            continue;
        b->cls = DGPB_WGSL_TEXTURE_DEPTH;
        if (ti->nargs)
            return text_bad(&s->lex, name, "'%.*s' takes no template arguments", (int)name->len,
                            name->s);
        b->dimension = mem_strdup(depth[i]);
        return b->dimension ? DGPB_OK : DGPB_ERR_NOMEM;
    }
    for (size_t i = 0; i < sizeof storage / sizeof storage[0]; i++) {
        snprintf(want, sizeof want, "texture_storage_%s", storage[i]);
        if (!text_tok_is(name, want))
            continue;
        b->cls = DGPB_WGSL_STORAGE_TEXTURE;
        if (ti->nargs != 2 || !ti->single[0] || !ti->single[1] || ti->arg[0].tok.kind != TOK_IDENT)
            return text_bad(&s->lex, name, "'%.*s' needs a texel format and an access mode",
                            (int)name->len, name->s);
        const token *access = &ti->arg[1].tok;
        if (!text_tok_is(access, "read") && !text_tok_is(access, "write") &&
            !text_tok_is(access, "read_write"))
            return text_bad(&s->lex, access, "%s is not an access mode (read, write or read_write)",
                            text_scan_show(access, buf, sizeof buf));
        b->texel_format = text_tokdup(&ti->arg[0].tok);
        b->access = text_tokdup(access);
        b->dimension = mem_strdup(storage[i]);
        return b->texel_format && b->access && b->dimension ? DGPB_OK : DGPB_ERR_NOMEM;
    }
    return DGPB_OK;
}

/* Appends a zeroed binding to the module; NULL when out of memory. */
static dgpb_wgsl_binding *new_binding(scanner *s)
{
    dgpb_wgsl_module *m = s->m;
    dgpb_wgsl_binding *v = mem_grow(m->bindings, m->binding_count, &s->binding_cap, sizeof *v, 16);
    if (!v)
        return NULL;
    m->bindings = v;
    dgpb_wgsl_binding *b = &v[m->binding_count++];
    memset(b, 0, sizeof *b);
    b->group = b->binding = -1;
    return b;
}

/* Reads @group/@binding into b: one literal integer argument each, at most once. */
static int place_binding(scanner *s, dgpb_wgsl_binding *b, const attr *a, const token *var)
{
    bool group = text_tok_is(&a->name, "group");
    int64_t *slot = group ? &b->group : &b->binding;
    const char *what = group ? "group" : "binding";
    char buf[64];
    if (*slot != -1)
        return text_bad(&s->lex, &a->name, "'%s' has two @%s attributes", b->name, what);
    if (a->nargs != 1)
        return text_bad(&s->lex, &a->name, "@%s takes one argument", what);
    if (a->lit[0] == LIT_NONE)
        return text_fail_at(&s->lex, DGPB_ERR_UNSUPPORTED, a->first[0].off, a->first[0].line,
                            "the @%s of '%.*s' is not an integer literal", what, (int)var->len,
                            var->s);
    if (a->lit[0] == LIT_RANGE)
        return text_bad(&s->lex, &a->first[0], "@%s number %s is out of range", what,
                        text_scan_show(&a->first[0], buf, sizeof buf));
    *slot = (int64_t)a->value[0];
    return DGPB_OK;
}

/* var ['<' space [',' access] [','] '>'] name [':' type] ['=' expr] ';' */
static int parse_var(scanner *s, const attr *attrs, size_t nattrs)
{
    token var = s->lex.tok, space = {0}, access = {0}, name;
    char buf[64];
    int rc;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;
    if (text_is_punct(&s->lex.tok, '<')) {
        if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
            (rc = wgsl_expect_ident(&s->lex, "an address space")) != DGPB_OK)
            return rc;
        space = s->lex.tok;
        if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
            return rc;
        if (text_is_punct(&s->lex.tok, ',')) {
            if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
                return rc;
            if (s->lex.tok.kind == TOK_IDENT) {
                access = s->lex.tok;
                if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
                    return rc;
                if (text_is_punct(&s->lex.tok, ',') && (rc = wgsl_advance(&s->lex)) != DGPB_OK)
                    return rc;
            }
        }
        if ((rc = text_expect(&s->lex, '>', "after the address space")) != DGPB_OK ||
            (rc = wgsl_advance(&s->lex)))
            return rc;
    }
    if ((rc = wgsl_expect_ident(&s->lex, "the variable's name")) != DGPB_OK)
        return rc;
    name = s->lex.tok;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;
    bool typed = false, init = false;
    type_info ti = {0};
    mark type_start = {0}, type_end = {0};
    if (text_is_punct(&s->lex.tok, ':')) {
        if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
            return rc;
        type_start = wgsl_save(&s->lex);
        if ((rc = wgsl_parse_type(&s->lex, &ti)) != DGPB_OK)
            return rc;
        type_end = wgsl_save(&s->lex);
        typed = true;
    }
    if (text_is_punct(&s->lex.tok, '=')) {
        if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
            (rc = wgsl_skip_expr(&s->lex, ';', NULL)) != DGPB_OK)
            return rc;
        init = true;
    }
    if (!text_is_punct(&s->lex.tok, ';'))
        return text_bad(&s->lex, &s->lex.tok,
                        "missing ';' after the declaration of '%.*s' (found %s)", (int)name.len,
                        name.s, text_scan_show(&s->lex.tok, buf, sizeof buf));
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;

    bool uniform = text_tok_is(&space, "uniform"), storage = text_tok_is(&space, "storage");
    bool handle = space.len == 0; /* no address space */
    if (!handle && !uniform && !storage) {
        bool workgroup = text_tok_is(&space, "workgroup");
        if (!workgroup && !text_tok_is(&space, "private") && !text_tok_is(&space, "function"))
            return text_fail_at(&s->lex, DGPB_ERR_UNSUPPORTED, space.off, space.line,
                                "unknown address space %s of '%.*s'",
                                text_scan_show(&space, buf, sizeof buf), (int)name.len, name.s);
        if (nattrs)
            return text_bad(&s->lex, &attrs[0].name, "@%.*s does not apply to a var<%.*s>",
                            (int)attrs[0].name.len, attrs[0].name.s, (int)space.len, space.s);
        if (access.len)
            return text_bad(&s->lex, &access, "var<%.*s> takes no access mode", (int)space.len,
                            space.s);
        if (!workgroup)
            return DGPB_OK;
        if (!typed)
            return text_bad(&s->lex, &name, "var<workgroup> '%.*s' has no type", (int)name.len,
                            name.s);
        if (init)
            return text_bad(&s->lex, &name, "var<workgroup> '%.*s' cannot have an initializer",
                            (int)name.len, name.s);
        return wgsl_add_workgroup(&s->sizes, type_start);
    }
    if (!typed)
        return text_bad(&s->lex, &name, "'%.*s' has no type", (int)name.len, name.s);
    if (init)
        return text_bad(&s->lex, &name, "'%.*s' cannot have an initializer", (int)name.len, name.s);
    if (access.len && !storage)
        return text_bad(&s->lex, &access, "var<%.*s> takes no access mode", (int)space.len,
                        space.s);
    if (access.len && !text_tok_is(&access, "read") && !text_tok_is(&access, "read_write"))
        return text_bad(&s->lex, &access,
                        "%s is not an access mode of var<storage> (read or read_write)",
                        text_scan_show(&access, buf, sizeof buf));

    dgpb_wgsl_binding *b = new_binding(s);
    if (!b || !(b->name = text_tokdup(&name)))
        return DGPB_ERR_NOMEM;
    b->line = var.line;
    if (!(b->type = wgsl_type_text(&s->lex, type_start, type_end)))
        return DGPB_ERR_NOMEM;
    for (size_t i = 0; i < nattrs; i++) {
        if (!text_tok_is(&attrs[i].name, "group") && !text_tok_is(&attrs[i].name, "binding"))
            return text_bad(&s->lex, &attrs[i].name, "@%.*s does not apply to a var",
                            (int)attrs[i].name.len, attrs[i].name.s);
        if ((rc = place_binding(s, b, &attrs[i], &name)) != DGPB_OK)
            return rc;
    }
    if (uniform) {
        b->cls = DGPB_WGSL_UNIFORM;
    } else if (storage) {
        bool rw = text_tok_is(&access, "read_write");
        b->cls = rw ? DGPB_WGSL_STORAGE_READ_WRITE : DGPB_WGSL_STORAGE_READ;
        if (!(b->access = mem_strdup(rw ? "read_write" : "read")))
            return DGPB_ERR_NOMEM;
    } else {
        return classify_handle(s, b, &ti);
    }
    return DGPB_OK;
}

/* [@id(N)] override name [':' type] ['=' expr] ';' */
static int parse_override(scanner *s, const attr *attrs, size_t nattrs)
{
    token kw = s->lex.tok, name;
    char buf[64];
    int rc;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
        (rc = wgsl_expect_ident(&s->lex, "the override's name")) != DGPB_OK)
        return rc;
    name = s->lex.tok;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;
    dgpb_wgsl_module *m = s->m;
    dgpb_wgsl_override *v =
        mem_grow(m->overrides, m->override_count, &s->override_cap, sizeof *v, 4);
    if (!v)
        return DGPB_ERR_NOMEM;
    m->overrides = v;
    dgpb_wgsl_override *o = &v[m->override_count++];
    memset(o, 0, sizeof *o);
    o->id = -1;
    o->line = kw.line;
    if (!(o->name = text_tokdup(&name)))
        return DGPB_ERR_NOMEM;
    for (size_t i = 0; i < nattrs; i++) {
        const attr *a = &attrs[i];
        if (!text_tok_is(&a->name, "id"))
            return text_bad(&s->lex, &a->name, "@%.*s does not apply to an override",
                            (int)a->name.len, a->name.s);
        if (o->id != -1 || a->nargs != 1)
            return text_bad(&s->lex, &a->name, "'%s' needs one @id with one argument", o->name);
        if (a->lit[0] == LIT_NONE)
            return text_fail_at(&s->lex, DGPB_ERR_UNSUPPORTED, a->first[0].off, a->first[0].line,
                                "the @id of '%s' is not an integer literal", o->name);
        if (a->lit[0] == LIT_RANGE || a->value[0] > 65535)
            return text_bad(&s->lex, &a->first[0], "@id number %s is out of range",
                            text_scan_show(&a->first[0], buf, sizeof buf));
        o->id = (int64_t)a->value[0];
    }
    if (text_is_punct(&s->lex.tok, ':')) {
        type_info ti = {0};
        if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
            return rc;
        mark start = wgsl_save(&s->lex);
        if ((rc = wgsl_parse_type(&s->lex, &ti)) != DGPB_OK)
            return rc;
        if (!(o->type = wgsl_type_text(&s->lex, start, wgsl_save(&s->lex))))
            return DGPB_ERR_NOMEM;
    }
    if (text_is_punct(&s->lex.tok, '=')) {
        if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
            (rc = wgsl_skip_expr(&s->lex, ';', NULL)) != DGPB_OK)
            return rc;
    }
    if (!text_is_punct(&s->lex.tok, ';'))
        return text_bad(&s->lex, &s->lex.tok, "missing ';' after override '%s' (found %s)", o->name,
                        text_scan_show(&s->lex.tok, buf, sizeof buf));
    return wgsl_advance(&s->lex);
}

/* ---- functions, structs and the rest ---------------------------------------- */

/* fn name '(' ... ')' ['->' ...] '{' ... '}'; an entry point when it has a stage attribute. */
static int parse_fn(scanner *s, const attr *attrs, size_t nattrs)
{
    int rc;
    char buf[64];
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
        (rc = wgsl_expect_ident(&s->lex, "the function's name")) != DGPB_OK)
        return rc;
    token name = s->lex.tok;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
        (rc = text_expect(&s->lex, '(', "after the function's name")))
        return rc;
    if ((rc = wgsl_skip(&s->lex, "{;}", 0, NULL)) != DGPB_OK)
        return rc;
    if (!text_is_punct(&s->lex.tok, '{'))
        return text_bad(&s->lex, &s->lex.tok, "function '%.*s' has no body (found %s)",
                        (int)name.len, name.s, text_scan_show(&s->lex.tok, buf, sizeof buf));
    if ((rc = wgsl_skip(&s->lex, "", SKIP_GROUP, NULL)) != DGPB_OK)
        return rc;

    int stage = -1;
    const attr *size = NULL;
    for (size_t i = 0; i < nattrs; i++) {
        const attr *a = &attrs[i];
        int st = text_tok_is(&a->name, "compute")    ? DGPB_STAGE_COMPUTE
                 : text_tok_is(&a->name, "vertex")   ? DGPB_STAGE_VERTEX
                 : text_tok_is(&a->name, "fragment") ? DGPB_STAGE_FRAGMENT
                                                     : -1;
        if (st >= 0) {
            if (stage >= 0)
                return text_bad(&s->lex, &a->name, "function '%.*s' has two stage attributes",
                                (int)name.len, name.s);
            if (a->nargs)
                return text_bad(&s->lex, &a->name, "@%.*s takes no arguments", (int)a->name.len,
                                a->name.s);
            stage = st;
        } else if (text_tok_is(&a->name, "workgroup_size")) {
            if (size)
                return text_bad(&s->lex, &a->name,
                                "function '%.*s' has two @workgroup_size attributes", (int)name.len,
                                name.s);
            if (a->nargs < 1 || a->nargs > 3)
                return text_bad(&s->lex, &a->name, "@workgroup_size takes one to three arguments");
            size = a;
        } else if (!text_tok_is(&a->name, "must_use") && !text_tok_is(&a->name, "diagnostic")) {
            return text_bad(&s->lex, &a->name, "@%.*s does not apply to a function",
                            (int)a->name.len, a->name.s);
        }
    }
    if (size && stage != DGPB_STAGE_COMPUTE)
        return text_bad(&s->lex, &size->name,
                        "@workgroup_size on '%.*s', which is not a compute entry point",
                        (int)name.len, name.s);
    if (stage == DGPB_STAGE_COMPUTE && !size)
        return text_bad(&s->lex, &name, "compute entry point '%.*s' has no @workgroup_size",
                        (int)name.len, name.s);
    if (stage < 0)
        return DGPB_OK;

    uint32_t wg[3] = {0, 0, 0};
    if (size) {
        bool literal = true;
        for (size_t i = 0; i < 3; i++) {
            if (i >= size->nargs) {
                wg[i] = 1;
            } else if (size->lit[i] == LIT_OK && size->value[i] > 0) {
                wg[i] = (uint32_t)size->value[i];
            } else if (size->lit[i] != LIT_NONE) {
                return text_bad(&s->lex, &size->first[i], "workgroup size %s is out of range",
                                text_scan_show(&size->first[i], buf, sizeof buf));
            } else {
                literal = false;
            }
        }
        if (!literal)
            wg[0] = wg[1] = wg[2] = 0;
    }
    dgpb_wgsl_module *m = s->m;
    dgpb_wgsl_entry *v = mem_grow(m->entries, m->entry_count, &s->entry_cap, sizeof *v, 4);
    if (!v)
        return DGPB_ERR_NOMEM;
    m->entries = v;
    dgpb_wgsl_entry *e = &v[m->entry_count++];
    memset(e, 0, sizeof *e);
    e->stage = stage;
    memcpy(e->workgroup_size, wg, sizeof wg);
    return (e->name = text_tokdup(&name)) ? DGPB_OK : DGPB_ERR_NOMEM;
}

/* Checks a member's @align/@size: a literal @align is a power of two, a literal @size not 0. */
static int check_member_attr(scanner *s, const attr *a)
{
    bool align = text_tok_is(&a->name, "align");
    if (!align && !text_tok_is(&a->name, "size"))
        return DGPB_OK;
    if (a->nargs != 1)
        return text_bad(&s->lex, &a->name, "@%.*s takes one argument", (int)a->name.len, a->name.s);
    char buf[64];
    if (a->lit[0] == LIT_RANGE || (a->lit[0] == LIT_OK && a->value[0] == 0) ||
        (a->lit[0] == LIT_OK && align && (a->value[0] & (a->value[0] - 1))))
        return text_bad(&s->lex, &a->first[0], "@%.*s(%s) is not %s", (int)a->name.len, a->name.s,
                        text_scan_show(&a->first[0], buf, sizeof buf),
                        align ? "a power of two" : "a positive size");
    return DGPB_OK;
}

/* struct name '{' ([attrs] member ':' type) (',' ...)* [','] '}' */
static int parse_struct(scanner *s)
{
    int rc;
    char buf[64];
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
        (rc = wgsl_expect_ident(&s->lex, "the struct's name")) != DGPB_OK)
        return rc;
    token name = s->lex.tok;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
        (rc = text_expect(&s->lex, '{', "after the struct's name")))
        return rc;
    mark body = wgsl_save(&s->lex);
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;
    size_t members = 0;
    while (!text_is_punct(&s->lex.tok, '}')) {
        attr attrs[MAX_ATTRS];
        size_t nattrs;
        type_info ti;
        if ((rc = wgsl_parse_attrs(&s->lex, attrs, &nattrs)) != DGPB_OK)
            return rc;
        for (size_t i = 0; i < nattrs; i++)
            if ((rc = check_member_attr(s, &attrs[i])) != DGPB_OK)
                return rc;
        if ((rc = wgsl_expect_ident(&s->lex, "a member name")) != DGPB_OK ||
            (rc = wgsl_advance(&s->lex)) != DGPB_OK ||
            (rc = text_expect(&s->lex, ':', "after the member's name")) != DGPB_OK ||
            (rc = wgsl_advance(&s->lex)) != DGPB_OK ||
            (rc = wgsl_parse_type(&s->lex, &ti)) != DGPB_OK)
            return rc;
        members++;
        if (text_is_punct(&s->lex.tok, ',')) {
            if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
                return rc;
        } else if (!text_is_punct(&s->lex.tok, '}')) {
            return text_bad(&s->lex, &s->lex.tok,
                            "expected ',' or '}' after a member of struct '%.*s' (opened at "
                            "line %u), found %s",
                            (int)name.len, name.s, body.tok.line,
                            text_scan_show(&s->lex.tok, buf, sizeof buf));
        }
    }
    if (members == 0)
        return text_bad(&s->lex, &name, "struct '%.*s' has no members", (int)name.len, name.s);
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;
    return wgsl_add_named_type(&s->sizes, name, true, body);
}

/* alias name '=' type ';' */
static int parse_alias(scanner *s)
{
    int rc;
    type_info ti;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
        (rc = wgsl_expect_ident(&s->lex, "the alias's name")) != DGPB_OK)
        return rc;
    token name = s->lex.tok;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK ||
        (rc = text_expect(&s->lex, '=', "after the alias's name")) ||
        (rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;
    mark at = wgsl_save(&s->lex);
    if ((rc = wgsl_parse_type(&s->lex, &ti)) != DGPB_OK)
        return rc;
    if (!text_is_punct(&s->lex.tok, ';'))
        return text_bad(&s->lex, &s->lex.tok, "missing ';' after alias '%.*s'", (int)name.len,
                        name.s);
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;
    return wgsl_add_named_type(&s->sizes, name, false, at);
}

/* A declaration or directive that is skipped: keyword ... ';' (const, override, enable, ...). */
static int skip_decl(scanner *s, bool named)
{
    token kw = s->lex.tok;
    int rc;
    if ((rc = wgsl_advance(&s->lex)) != DGPB_OK)
        return rc;
    if (named && (rc = wgsl_expect_ident(&s->lex, "a name")) != DGPB_OK)
        return rc;
    if ((rc = wgsl_skip(&s->lex, ";", SKIP_EXPR, NULL)) != DGPB_OK)
        return rc;
    if (!text_is_punct(&s->lex.tok, ';'))
        return text_bad(&s->lex, &s->lex.tok, "missing ';' after '%.*s' (line %u)", (int)kw.len,
                        kw.s, kw.line);
    return wgsl_advance(&s->lex);
}

static int parse_module(scanner *s)
{
    int rc = wgsl_advance(&s->lex);
    char buf[64];
    while (rc == DGPB_OK && s->lex.tok.kind != TOK_EOF) {
        attr attrs[MAX_ATTRS];
        size_t nattrs;
        if ((rc = wgsl_parse_attrs(&s->lex, attrs, &nattrs)) != DGPB_OK)
            return rc;
        const token *t = &s->lex.tok;
        bool plain = text_tok_is(t, "struct") || text_tok_is(t, "alias") ||
                     text_tok_is(t, "const") || text_tok_is(t, "const_assert") ||
                     text_tok_is(t, "enable") || text_tok_is(t, "requires") ||
                     text_tok_is(t, "diagnostic") || text_is_punct(t, ';');
        if (plain && nattrs)
            return text_bad(&s->lex, &attrs[0].name, "@%.*s does not apply to %s",
                            (int)attrs[0].name.len, attrs[0].name.s,
                            text_scan_show(t, buf, sizeof buf));
        if (text_tok_is(t, "var")) {
            rc = parse_var(s, attrs, nattrs);
        } else if (text_tok_is(t, "fn")) {
            rc = parse_fn(s, attrs, nattrs);
        } else if (text_tok_is(t, "struct")) {
            rc = parse_struct(s);
        } else if (text_tok_is(t, "alias")) {
            rc = parse_alias(s);
        } else if (text_tok_is(t, "override")) {
            rc = parse_override(s, attrs, nattrs);
        } else if (text_tok_is(t, "const")) {
            rc = skip_decl(s, true);
        } else if (plain && !text_is_punct(t, ';')) {
            rc = skip_decl(s, false);
        } else if (text_is_punct(t, ';')) {
            rc = wgsl_advance(&s->lex);
        } else {
            return text_bad(&s->lex, t, "unexpected %s at module scope",
                            text_scan_show(t, buf, sizeof buf));
        }
    }
    return rc;
}

/* ---- the API ---------------------------------------------------------------- */

/*
 * Marks each texture binding that a depth-comparison builtin samples
 * (textureSampleCompare, textureSampleCompareLevel, textureGatherCompare):
 * its name is the call's first argument, written with or without Slang's
 * extra parentheses. WGSL takes only depth textures there, so a comparison on
 * another texture is code WebGPU rejects (tables/binding_proof.c says so).
 */
static void mark_compared(const char *text, size_t len, dgpb_wgsl_module *m)
{
    static const char *const calls[] = {"textureSampleCompare", "textureGatherCompare"};
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        size_t n = strlen(calls[c]);
        for (size_t i = 0; i + n <= len; i++) {
            if (memcmp(text + i, calls[c], n) != 0 ||
                (i && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_')))
                continue;
            size_t k = i + n;
            while (k < len && (isalnum((unsigned char)text[k]) || text[k] == '_'))
                k++; /* ...Level */
            while (k < len && (text[k] == '(' || isspace((unsigned char)text[k])))
                k++;
            size_t start = k;
            while (k < len && (isalnum((unsigned char)text[k]) || text[k] == '_'))
                k++;
            for (size_t b = 0; b < m->binding_count && k > start; b++)
                if (strlen(m->bindings[b].name) == k - start &&
                    !memcmp(m->bindings[b].name, text + start, k - start))
                    m->bindings[b].compared = true;
        }
    }
}

int wgsl_module_scan(const char *text, size_t len, dgpb_wgsl_module **out, dgpb_diag *diag)
{
    if (out)
        *out = NULL;
    if (!out || (!text && len))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "wgsl_module_scan: NULL argument");
    scanner s = {
        .lex = {.text = text ? text : "", .len = len, .line = 1, .diag = diag, .language = "WGSL"}};
    size_t bad_at = 0;
    if (!utf8_valid(s.lex.text, len, &bad_at)) {
        uint32_t line = 1;
        for (size_t i = 0; i < bad_at; i++)
            if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n')))
                line++;
        return text_fail_at(&s.lex, DGPB_ERR_CORRUPT, bad_at, line, "%s at byte %zu",
                            text[bad_at] ? "invalid UTF-8" : "a NUL byte", bad_at);
    }
    if (!(s.m = mem_calloc(1, sizeof *s.m)))
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory scanning WGSL");
    int rc = parse_module(&s);
    if (rc == DGPB_OK)
        rc = wgsl_size_workgroup(&s.sizes, &s.lex, s.m);
    wgsl_sizes_free(&s.sizes);
    if (rc != DGPB_OK) {
        if (rc == DGPB_ERR_NOMEM)
            dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory scanning WGSL");
        wgsl_module_free(s.m);
        return rc;
    }
    mark_compared(text, len, s.m);
    *out = s.m;
    return DGPB_OK;
}

void wgsl_module_free(dgpb_wgsl_module *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->override_count; i++) {
        dgpb_free(m->overrides[i].name);
        dgpb_free(m->overrides[i].type);
    }
    dgpb_free(m->overrides);
    for (size_t i = 0; i < m->binding_count; i++) {
        dgpb_wgsl_binding *b = &m->bindings[i];
        dgpb_free(b->name);
        dgpb_free(b->type);
        dgpb_free(b->texel_format);
        dgpb_free(b->access);
        dgpb_free(b->sample_type);
        dgpb_free(b->dimension);
    }
    for (size_t i = 0; i < m->entry_count; i++)
        dgpb_free(m->entries[i].name);
    dgpb_free(m->bindings);
    dgpb_free(m->entries);
    dgpb_free(m);
}

const dgpb_wgsl_binding *wgsl_find_binding(const dgpb_wgsl_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (size_t i = 0; i < m->binding_count; i++)
        if (strcmp(m->bindings[i].name, name) == 0)
            return &m->bindings[i];
    return NULL;
}
