/*
 * param_scopes.c - module-scope parameters and their namespaces in a Slang
 * module's text (param_scopes.h).
 *
 * The text is first copied with comments, literals and preprocessor
 * directives blanked (slang_text.h). Then a small recursive reader walks
 * its scopes: `namespace N { ... }` opens one (N may be a path, `a::b` or
 * `a.b`); every other statement at module or namespace scope is read up to
 * its `;` or its body `{`: a statement with a parameter list before its
 * declarators end is a function, one that opens with a type keyword is a
 * type, and the last identifier before each declarator's `=`, `:`, `,` or
 * `;` (attribute lists, template arguments and array sizes skipped) names a
 * variable. Bodies are skipped by their braces.
 */
#include "scan/param_scopes.h"

#include <stdbool.h>
#include <string.h>

#include "code/text_scan.h"
#include "core/alloc.h"
#include "dgpb/result.h"
#include "scan/slang_text.h"

enum tok_kind { TOK_END, TOK_WORD, TOK_PUNCT, TOK_SCOPE /* "::" */, TOK_OTHER };

typedef struct token {
    enum tok_kind kind;
    const char *s;
    size_t len;
} token;

/* A namespace: its path, its parent (-1 for the module scope), in order of first opening. */
typedef struct ns_node {
    char *path;
    int parent;
} ns_node;

typedef struct decl {
    char *name;
    int ns;
} decl;

typedef struct reader {
    const char *t;
    size_t n, pos;
    token tok;
    ns_node *nodes;
    size_t node_count, node_cap;
    decl *decls;
    size_t decl_count, decl_cap;
    bool nomem, incomplete;
    int depth; /* nested namespaces, bounded */
} reader;

static void next(reader *r)
{
    while (r->pos < r->n && (unsigned char)r->t[r->pos] <= ' ')
        r->pos++;
    token *k = &r->tok;
    k->s = r->t + r->pos;
    k->len = 0;
    if (r->pos >= r->n) {
        k->kind = TOK_END;
        return;
    }
    char c = r->t[r->pos];
    if (text_ident_start(c)) {
        while (r->pos < r->n && text_ident_char(r->t[r->pos]))
            r->pos++;
        k->kind = TOK_WORD;
    } else if (text_is_digit(c)) {
        while (r->pos < r->n && (text_ident_char(r->t[r->pos]) || r->t[r->pos] == '.'))
            r->pos++;
        k->kind = TOK_OTHER;
    } else if (c == ':' && r->pos + 1 < r->n && r->t[r->pos + 1] == ':') {
        r->pos += 2;
        k->kind = TOK_SCOPE;
    } else {
        r->pos++;
        k->kind = TOK_PUNCT;
    }
    k->len = (size_t)(r->t + r->pos - k->s);
}

static bool is_punct(const token *k, char c)
{
    return k->kind == TOK_PUNCT && k->s[0] == c;
}

static bool is_word(const token *k, const char *w)
{
    return k->kind == TOK_WORD && k->len == strlen(w) && !memcmp(k->s, w, k->len);
}

/* Skips to just past the '}' that closes the '{' just read; false at the end of the text. */
static bool skip_body(reader *r)
{
    int depth = 1;
    while (depth > 0) {
        next(r);
        if (r->tok.kind == TOK_END)
            return false;
        depth += is_punct(&r->tok, '{') - is_punct(&r->tok, '}');
    }
    return true;
}

static void add_decl(reader *r, const token *name, int ns)
{
    decl *d = mem_grow(r->decls, r->decl_count, &r->decl_cap, sizeof *d, 16);
    char *copy = d ? mem_printf("%.*s", (int)name->len, name->s) : NULL;
    if (d)
        r->decls = d;
    if (!copy) {
        r->nomem = true;
        return;
    }
    r->decls[r->decl_count].name = copy;
    r->decls[r->decl_count++].ns = ns;
}

/* The namespace `name` inside `parent`: the one opened before, or a new one. */
static int child_ns(reader *r, int parent, const token *name)
{
    const char *up = r->nodes[parent].path;
    char *path = *up ? mem_printf("%s::%.*s", up, (int)name->len, name->s)
                     : mem_printf("%.*s", (int)name->len, name->s);
    if (!path) {
        r->nomem = true;
        return -1;
    }
    for (size_t i = 0; i < r->node_count; i++)
        if (r->nodes[i].parent == parent && !strcmp(r->nodes[i].path, path)) {
            dgpb_free(path);
            return (int)i;
        }
    ns_node *nodes = mem_grow(r->nodes, r->node_count, &r->node_cap, sizeof *nodes, 8);
    if (!nodes) {
        dgpb_free(path);
        r->nomem = true;
        return -1;
    }
    r->nodes = nodes;
    r->nodes[r->node_count].path = path;
    r->nodes[r->node_count].parent = parent;
    return (int)r->node_count++;
}

/* Statements that declare no parameter, by their words before the declarators end. */
static bool declares_nothing(const token *k)
{
    static const char *const words[] = {
        "static",    "groupshared",  "typedef",   "typealias",      "import",    "using",
        "__include", "implementing", "module",    "struct",         "class",     "interface",
        "enum",      "extension",    "__generic", "associatedtype", "namespace", "return"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (is_word(k, words[i]))
            return true;
    return false;
}

/*
 * One statement of a scope, whose first token is current: records the
 * variables it declares in `ns`. Returns with the statement read (its `;`, or
 * its body's closing brace).
 */
static void statement(reader *r, int ns)
{
    bool nothing = false, function = false, block = false; /* cbuffer/tbuffer */
    bool in_name = true;                                   /* before this declarator's `=` or `:` */
    int paren = 0, angle = 0;
    token name = {TOK_END, NULL, 0}, block_name = {TOK_END, NULL, 0};
    token prev = {TOK_END, NULL, 0};
    for (;; prev = r->tok, next(r)) {
        token *k = &r->tok;
        if (k->kind == TOK_END) {
            r->incomplete = true;
            return;
        }
        if (paren > 0) { /* inside ( ) or [ ]: attribute lists, parameters, array sizes */
            paren +=
                (is_punct(k, '(') || is_punct(k, '[')) - (is_punct(k, ')') || is_punct(k, ']'));
            if (is_punct(k, '{') || is_punct(k, '}') || is_punct(k, ';')) {
                r->incomplete = true;
                return;
            }
            continue;
        }
        if (is_punct(k, '(') || is_punct(k, '[')) {
            function |= is_punct(k, '(') && in_name && angle == 0;
            paren = 1;
            continue;
        }
        if (in_name && is_punct(k, '<')) {
            angle++;
            continue;
        }
        if (in_name && angle > 0) {
            angle -= is_punct(k, '>');
            continue;
        }
        if (is_punct(k, '{')) {
            if (!skip_body(r)) {
                r->incomplete = true;
                return;
            }
            if (block && !nothing && !function && block_name.kind == TOK_WORD)
                add_decl(r, &block_name, ns);
            if (!in_name && !block && !nothing && !function)
                continue; /* an initializer's braces: the statement goes on */
            return;
        }
        if (is_punct(k, ';') || is_punct(k, ',')) {
            if (!nothing && !function && !block && name.kind == TOK_WORD)
                add_decl(r, &name, ns);
            if (is_punct(k, ';'))
                return;
            in_name = true;
            name.kind = TOK_END;
            continue;
        }
        if (!in_name)
            continue;
        if (is_punct(k, '=') || is_punct(k, ':')) {
            in_name = false;
            continue;
        }
        if (k->kind == TOK_WORD) {
            nothing |= declares_nothing(k);
            if (is_word(k, "cbuffer") || is_word(k, "tbuffer"))
                block = true;
            else if (block && block_name.kind == TOK_END && prev.kind == TOK_WORD &&
                     (is_word(&prev, "cbuffer") || is_word(&prev, "tbuffer")))
                block_name = *k;
            name = *k;
        }
    }
}

/* A scope's statements, up to its closing brace (or the end of the text at module scope). */
static void scope(reader *r, int ns)
{
    for (;;) {
        next(r);
        token *k = &r->tok;
        if (r->nomem || r->incomplete)
            return;
        if (k->kind == TOK_END) {
            r->incomplete |= ns != 0;
            return;
        }
        if (is_punct(k, '}')) {
            r->incomplete |= ns == 0;
            return;
        }
        if (is_punct(k, ';'))
            continue;
        if (!is_word(k, "namespace")) {
            statement(r, ns);
            continue;
        }
        /* namespace a::b.c { */
        int inner = ns;
        for (next(r); k->kind == TOK_WORD; next(r)) {
            if ((inner = child_ns(r, inner, k)) < 0)
                return;
            next(r);
            if (!(k->kind == TOK_SCOPE || is_punct(k, '.')))
                break;
        }
        if (!is_punct(k, '{') || inner == ns || r->depth >= 64) {
            r->incomplete = true; /* `namespace X;`, or something else the reader does not know */
            return;
        }
        r->depth++;
        scope(r, inner);
        r->depth--;
    }
}

void param_scopes_free(dgpb_param_scopes *s)
{
    for (size_t i = 0; s->items && i < s->count; i++) {
        dgpb_free(s->items[i].name);
        dgpb_free(s->items[i].path);
    }
    dgpb_free(s->items);
    s->items = NULL;
    s->count = 0;
}

/* The declarations in Slang's order: the module scope's, then namespaces breadth first. */
static int order(reader *r, dgpb_param_scopes *out)
{
    int *queue = mem_calloc(r->node_count ? r->node_count : 1, sizeof *queue);
    out->items = mem_calloc(r->decl_count ? r->decl_count : 1, sizeof *out->items);
    if (!queue || !out->items) {
        dgpb_free(queue);
        dgpb_free(out->items);
        out->items = NULL;
        return DGPB_ERR_NOMEM;
    }
    size_t head = 0, tail = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int ns = queue[head++];
        for (size_t d = 0; d < r->decl_count; d++) {
            if (r->decls[d].ns != ns)
                continue;
            dgpb_param_scope *item = &out->items[out->count++];
            item->name = r->decls[d].name;
            r->decls[d].name = NULL;
            item->path = mem_strdup(r->nodes[ns].path);
            if (!item->path) {
                dgpb_free(queue);
                return DGPB_ERR_NOMEM;
            }
        }
        for (size_t c = 0; c < r->node_count; c++)
            if (r->nodes[c].parent == ns)
                queue[tail++] = (int)c;
    }
    dgpb_free(queue);
    return DGPB_OK;
}

int param_scopes_scan(const char *text, size_t len, dgpb_param_scopes *out)
{
    memset(out, 0, sizeof *out);
    char *code = slang_text_code_only(text, len);
    reader r = {.t = code, .n = code ? strlen(code) : 0};
    int rc = code ? DGPB_OK : DGPB_ERR_NOMEM;
    if (!rc) {
        r.nodes = mem_calloc(1, sizeof *r.nodes);
        if (r.nodes)
            r.nodes[0].path = mem_strdup("");
        if (!r.nodes || !r.nodes[0].path)
            rc = DGPB_ERR_NOMEM;
        r.node_count = r.node_cap = r.nodes ? 1 : 0;
        if (r.nodes)
            r.nodes[0].parent = -1;
    }
    if (!rc) {
        scope(&r, 0);
        if (r.nomem)
            rc = DGPB_ERR_NOMEM;
        else if (r.incomplete)
            out->incomplete = 1;
        else
            rc = order(&r, out);
    }
    if (rc)
        param_scopes_free(out);
    for (size_t i = 0; i < r.decl_count; i++)
        dgpb_free(r.decls[i].name);
    dgpb_free(r.decls);
    for (size_t i = 0; i < r.node_count; i++)
        dgpb_free(r.nodes[i].path);
    dgpb_free(r.nodes);
    dgpb_free(code);
    return rc;
}
