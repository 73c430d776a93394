/*
 * ptx_scan.c - kernel parameters and SLANG_globalParams of PTX text
 * (code/ptx/ptx_scan.h).
 *
 * One pass with a one-token lexer (ptx_lex.c). At the top level every directive is
 * parsed (.version, .target, .address_size, .file, .section, .pragma,
 * linkage, .entry, .func, variable declarations, .alias); a function body is
 * read as a stream of tokens with its brackets balanced, tracking only where
 * each statement starts, so that an operand [SLANG_globalParams+N] can be
 * paired with the width of the instruction that reads it ("ld.const.v2.u32"
 * reads 8 bytes). A statement starts after ';', after a label ("$L__BB0_2:")
 * and at a block's '{' or after its '}'; a '{' inside a statement is a vector
 * operand ({%f1, %f2}). `.loc`, which has no ';', is parsed on its own.
 *
 * A kernel's parameter names go into an open-addressing hash table while its
 * body is read, so each word of the body costs one lookup: linear time.
 */
#include "code/ptx/ptx_scan.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "code/ptx/ptx_lex.h"
#include "code/text_scan.h"

#define GLOBAL_PARAMS "SLANG_globalParams"
#define MAX_PARAM_BYTES ((uint64_t)UINT32_MAX)

typedef struct scanner {
    text_scanner lex; /* the text, the position, the current token, the diagnostic */
    dgpb_ptx_module *m;
    size_t entry_cap;
    bool global_declared_with_size;
    /* The parameters of the kernel whose body is being read (NULL for a .func). */
    dgpb_ptx_param *params;
    uint32_t *slots; /* 1 + index into params, 0 for an empty slot */
    size_t slot_mask;
} scanner;

/* ---- kernel parameters ------------------------------------------------------ */

static uint64_t hash_name(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* The slot for `name`: the one that holds it, or the empty one where it would go. */
static uint32_t *param_slot(scanner *s, const char *name, size_t n)
{
    size_t i = (size_t)hash_name(name, n) & s->slot_mask;
    for (;;) {
        uint32_t *slot = &s->slots[i];
        if (*slot == 0)
            return slot;
        const char *p = s->params[*slot - 1].name;
        if (strlen(p) == n && memcmp(p, name, n) == 0)
            return slot;
        i = (i + 1) & s->slot_mask;
    }
}

/*
 * One kernel parameter:
 *   .param {.align N | .vN | type | .ptr [space] [.align N]} name {[N]}
 * Appends it to e->params at *offset, aligned, and moves *offset past it.
 */
static int parse_param(scanner *s, dgpb_ptx_entry *e, size_t *cap, uint64_t *offset)
{
    int rc;
    char buf[64];
    token start = s->lex.tok;
    if (!text_tok_is(&s->lex.tok, ".param"))
        return text_bad(&s->lex, &s->lex.tok, "expected '.param', found %s",
                        text_scan_show(&s->lex.tok, buf, sizeof buf));
    if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
        return rc;
    uint64_t align = 0, elem = 0, vec = 1;
    bool ptr = false;
    token type = {0};
    while (ptx_is_directive(&s->lex.tok)) {
        token d = s->lex.tok;
        uint32_t z = ptx_type_size(&d), v = ptx_vector_width(&d);
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
        if (text_tok_is(&d, ".align")) {
            uint64_t a;
            token at = s->lex.tok;
            if ((rc = ptx_read_int(&s->lex, &a, "an alignment")) != DGPB_OK)
                return rc;
            if (a == 0 || (a & (a - 1)) || a > 4096)
                return text_bad(&s->lex, &at, "alignment %llu is not a power of two up to 4096",
                                (unsigned long long)a);
            if (!ptr)
                align = a; /* after .ptr it is the pointee's */
        } else if (text_tok_is(&d, ".ptr")) {
            if (ptr)
                return text_bad(&s->lex, &d, "parameter has two '.ptr'");
            ptr = true;
        } else if (ptx_is_state_space(&d) && ptr) {
            continue;
        } else if (z && !elem && !ptr) {
            elem = z;
            type = d;
        } else if (v && vec == 1 && !elem) {
            vec = v;
        } else {
            return text_bad(&s->lex, &d, "unexpected %s in a kernel parameter",
                            text_scan_show(&d, buf, sizeof buf));
        }
    }
    if (elem == 0)
        return text_bad(&s->lex, &start, "kernel parameter without a type");
    if ((rc = ptx_expect_kind(&s->lex, TOK_WORD, "the parameter's name")) != DGPB_OK)
        return rc;
    token name = s->lex.tok;
    if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
        return rc;
    uint64_t size = elem * vec;
    while (text_is_punct(&s->lex.tok, '[')) {
        uint64_t dim;
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
        token at = s->lex.tok;
        if ((rc = ptx_read_int(&s->lex, &dim, "an array size")) != DGPB_OK)
            return rc;
        if (dim == 0 || dim > MAX_PARAM_BYTES || size * dim > MAX_PARAM_BYTES)
            return text_bad(&s->lex, &at, "array size of parameter '%.*s' is out of range",
                            (int)name.len, name.s);
        size *= dim;
        if ((rc = text_expect(&s->lex, ']', "after the array size")) != DGPB_OK ||
            (rc = ptx_advance(&s->lex)))
            return rc;
    }
    if (!align)
        align = elem * vec;
    uint64_t at = (*offset + align - 1) / align * align;
    if (at + size > MAX_PARAM_BYTES)
        return text_fail_at(&s->lex, DGPB_ERR_LIMIT, name.off, name.line,
                            "kernel parameters exceed %llu bytes",
                            (unsigned long long)MAX_PARAM_BYTES);
    dgpb_ptx_param *v = mem_grow(e->params, e->param_count, cap, sizeof *v, 8);
    if (!v)
        return DGPB_ERR_NOMEM;
    e->params = v;
    dgpb_ptx_param *p = &v[e->param_count++];
    *p = (dgpb_ptx_param){.offset = (uint32_t)at,
                          .size = (uint32_t)size,
                          .align = (uint32_t)align,
                          .vector = vec > 1 ? (uint32_t)vec : 0};
    if (type.len < sizeof p->type && size == elem * vec)
        memcpy(p->type, type.s, type.len); /* arrays ([N]) keep no type: bytes */
    *offset = at + size;
    return (p->name = text_tokdup(&name)) ? DGPB_OK : DGPB_ERR_NOMEM;
}

/* Puts the entry's parameters into the hash table; duplicates are malformed. */
static int index_params(scanner *s, dgpb_ptx_entry *e, const token *at)
{
    size_t n = 8;
    while (n < 2 * e->param_count)
        n *= 2;
    if (!(s->slots = mem_calloc(n, sizeof *s->slots)))
        return DGPB_ERR_NOMEM;
    s->slot_mask = n - 1;
    s->params = e->params;
    for (size_t i = 0; i < e->param_count; i++) {
        const char *name = e->params[i].name;
        uint32_t *slot = param_slot(s, name, strlen(name));
        if (*slot)
            return text_bad(&s->lex, at, "kernel '%s' has two parameters named '%s'", e->name,
                            name);
        *slot = (uint32_t)i + 1;
    }
    return DGPB_OK;
}

/* ---- bodies ----------------------------------------------------------------- */

/* .loc file line column {, function_name label [+ N] | , inlined_at file line column} */
static int skip_loc(scanner *s)
{
    int rc;
    uint64_t v;
    char buf[64];
    if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
        return rc;
    for (int i = 0; i < 3; i++)
        if ((rc = ptx_read_int(&s->lex, &v, "a number of .loc")) != DGPB_OK)
            return rc;
    while (text_is_punct(&s->lex.tok, ',')) {
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
        token what = s->lex.tok;
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
        if (text_tok_is(&what, "function_name")) {
            if ((rc = ptx_expect_kind(&s->lex, TOK_WORD, "a label")) != DGPB_OK ||
                (rc = ptx_advance(&s->lex)))
                return rc;
            if (text_is_punct(&s->lex.tok, '+') &&
                ((rc = ptx_advance(&s->lex)) != DGPB_OK ||
                 (rc = ptx_read_int(&s->lex, &v, "an offset")) != DGPB_OK))
                return rc;
        } else if (text_tok_is(&what, "inlined_at")) {
            for (int i = 0; i < 3; i++)
                if ((rc = ptx_read_int(&s->lex, &v, "a number of inlined_at")) != DGPB_OK)
                    return rc;
        } else {
            return text_bad(&s->lex, &what, "unexpected %s in .loc",
                            text_scan_show(&what, buf, sizeof buf));
        }
    }
    return DGPB_OK;
}

static bool is_top_directive(const token *t)
{
    static const char *const words[] = {".entry",   ".func", ".version",     ".target",
                                        ".section", ".file", ".address_size"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (text_tok_is(t, words[i]))
            return true;
    return false;
}

/* Records a read [SLANG_globalParams+disp] by the statement's instruction `op`. */
static void record_read(scanner *s, const token *op, uint64_t disp)
{
    uint64_t width = op ? ptx_access_width(op) : 0;
    uint64_t end = disp > UINT64_MAX - width ? UINT64_MAX : disp + width;
    if (end > s->m->global_params_max_read)
        s->m->global_params_max_read = end;
}

/*
 * Reads a function body from its '{' to the matching '}' (consumed): marks
 * the parameters it names (s->params, when set) and the uses and reads of
 * SLANG_globalParams.
 */
static int scan_body(scanner *s)
{
    char stack[DGPB_PTX_MAX_NESTING]; /* 'B' a block, '{' a vector operand, '(' or '[' */
    uint32_t open_line[DGPB_PTX_MAX_NESTING];
    size_t depth = 0;
    bool stmt_start = true, predicate = false, prev_bracket = false;
    size_t stmt_tokens = 0;
    token op = {0};
    int gp = 0; /* 1 after '[' SLANG_globalParams, 2 then '+', 3 then a number */
    uint64_t disp = 0;
    char buf[64];
    int rc;
    if ((rc = text_expect(&s->lex, '{', "to open the function's body")) != DGPB_OK)
        return rc;
    for (;;) {
        token t = s->lex.tok;
        if (t.kind == TOK_EOF)
            return text_bad(&s->lex, &t, "unterminated '%c' opened at line %u",
                            stack[depth - 1] == 'B' ? '{' : stack[depth - 1], open_line[depth - 1]);
        bool was_bracket = prev_bracket;
        prev_bracket = text_is_punct(&t, '[');
        int was_gp = gp;
        gp = 0;
        stmt_tokens++;
        if (t.kind == TOK_WORD) {
            if (text_tok_is(&t, GLOBAL_PARAMS)) {
                s->m->global_params_used = true;
                gp = was_bracket ? 1 : 0;
                if (!was_bracket)
                    s->m->global_params_address_taken = true;
            } else if (s->params && ptx_is_name(&t)) {
                uint32_t *slot = param_slot(s, t.s, t.len);
                if (*slot)
                    s->params[*slot - 1].used = true;
            }
            if (stmt_start && ptx_is_directive(&t)) {
                if (is_top_directive(&t))
                    return text_bad(&s->lex, &t, "%s inside a function body (opened at line %u)",
                                    text_scan_show(&t, buf, sizeof buf), open_line[0]);
                if (text_tok_is(&t, ".loc")) {
                    if ((rc = skip_loc(s)) != DGPB_OK)
                        return rc;
                    stmt_tokens = 0;
                    continue;
                }
                op = t;
                stmt_start = false;
            } else if (stmt_start && predicate) {
                predicate = false; /* the predicate register of @%p1 / @!%p1 */
            } else if (stmt_start) {
                op = t;
                stmt_start = false;
            }
        } else if (t.kind == TOK_NUMBER) {
            if (was_gp == 2 && ptx_int_token(&t, &disp))
                gp = 3;
        } else if (t.kind == TOK_PUNCT) {
            char c = t.s[0];
            if (c == '@' && stmt_start) {
                predicate = true;
            } else if (c == '+' && was_gp == 1) {
                gp = 2;
            } else if (c == ':' && stmt_tokens == 2 && !stmt_start && op.kind == TOK_WORD &&
                       !ptx_is_directive(&op)) {
                stmt_start = true; /* a label */
                stmt_tokens = 0;
            } else if (c == '{' || c == '(' || c == '[') {
                if (depth == DGPB_PTX_MAX_NESTING)
                    return text_fail_at(&s->lex, DGPB_ERR_LIMIT, t.off, t.line,
                                        "brackets nest deeper than %d", DGPB_PTX_MAX_NESTING);
                stack[depth] = c == '{' && stmt_start ? 'B' : c;
                open_line[depth++] = t.line;
                if (stack[depth - 1] == 'B')
                    stmt_tokens = 0;
            } else if (c == '}' || c == ')' || c == ']') {
                char open = depth ? stack[depth - 1] : 0;
                char want = open == '(' ? ')' : open == '[' ? ']' : '}';
                if (!depth || c != want)
                    return text_bad(&s->lex, &t, "'%c' does not close the '%c' opened at line %u",
                                    c, open == 'B' ? '{' : open, depth ? open_line[depth - 1] : 0);
                if (c == ']' && (was_gp == 1 || was_gp == 3)) {
                    record_read(s, &op, was_gp == 1 ? 0 : disp);
                    was_gp = 0;
                }
                depth--;
                if (open == 'B') {
                    if (!stmt_start)
                        return text_bad(&s->lex, &t, "missing ';' before '}'");
                    stmt_tokens = 0;
                    op = (token){0};
                    if (depth == 0)
                        return ptx_advance(&s->lex);
                }
            } else if (c == ';') {
                if (stack[depth - 1] != 'B')
                    return text_bad(&s->lex, &t, "';' inside the '%c' opened at line %u",
                                    stack[depth - 1], open_line[depth - 1]);
                stmt_start = true;
                predicate = false;
                stmt_tokens = 0;
                op = (token){0};
            }
        } else if (t.kind == TOK_STRING && stmt_start) {
            return text_bad(&s->lex, &t, "unexpected string at the start of a statement");
        }
        if (was_gp && !gp) /* [SLANG_globalParams ...] that is not [name] or [name+N] */
            s->m->global_params_address_taken = true;
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
    }
}

/* ---- top-level declarations ------------------------------------------------- */

/* Skips the group the current token opens ('(' '[' or '{'), to after its closer; no uses read. */
static int skip_group(scanner *s)
{
    char stack[DGPB_PTX_MAX_NESTING];
    uint32_t open_line[DGPB_PTX_MAX_NESTING];
    size_t depth = 0;
    int rc;
    do {
        token t = s->lex.tok;
        if (t.kind == TOK_EOF && depth)
            return text_bad(&s->lex, &t, "unterminated '%c' opened at line %u", stack[depth - 1],
                            open_line[depth - 1]);
        if (text_is_punct(&t, '(') || text_is_punct(&t, '[') || text_is_punct(&t, '{')) {
            if (depth == DGPB_PTX_MAX_NESTING)
                return text_fail_at(&s->lex, DGPB_ERR_LIMIT, t.off, t.line,
                                    "brackets nest deeper than %d", DGPB_PTX_MAX_NESTING);
            stack[depth] = t.s[0];
            open_line[depth++] = t.line;
        } else if (depth &&
                   (text_is_punct(&t, ')') || text_is_punct(&t, ']') || text_is_punct(&t, '}'))) {
            char want = stack[depth - 1] == '(' ? ')' : stack[depth - 1] == '[' ? ']' : '}';
            if (t.s[0] != want)
                return text_bad(&s->lex, &t, "'%c' does not close the '%c' opened at line %u",
                                t.s[0], stack[depth - 1], open_line[depth - 1]);
            depth--;
        } else if (depth == 0) {
            char buf[64];
            return text_bad(&s->lex, &t, "expected '(', '[' or '{', found %s",
                            text_scan_show(&t, buf, sizeof buf));
        }
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
    } while (depth);
    return DGPB_OK;
}

/* An initializer after '=': up to ',' or ';' at depth 0; names SLANG_globalParams uses. */
static int skip_initializer(scanner *s)
{
    size_t depth = 0;
    int rc;
    for (;;) {
        token t = s->lex.tok;
        if (t.kind == TOK_EOF)
            return text_bad(&s->lex, &t, "unterminated initializer");
        if (depth == 0 && (text_is_punct(&t, ',') || text_is_punct(&t, ';')))
            return DGPB_OK;
        if (text_tok_is(&t, GLOBAL_PARAMS))
            s->m->global_params_used = s->m->global_params_address_taken = true;
        if (text_is_punct(&t, ';') || ptx_is_directive(&t))
            return text_bad(&s->lex, &t, "unterminated initializer");
        if (text_is_punct(&t, '{') || text_is_punct(&t, '(')) {
            if (++depth > DGPB_PTX_MAX_NESTING)
                return text_fail_at(&s->lex, DGPB_ERR_LIMIT, t.off, t.line,
                                    "brackets nest deeper than %d", DGPB_PTX_MAX_NESTING);
        } else if (text_is_punct(&t, '}') || text_is_punct(&t, ')')) {
            if (depth == 0)
                return text_bad(&s->lex, &t, "unexpected '%c' in an initializer", t.s[0]);
            depth--;
        }
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
    }
}

/*
 * A variable declaration at the top level, at its state space:
 *   space {.align N | .vN | type | .attribute(...)} name {[N]} [<N>] [= init] {, ...} ';'
 */
static int parse_decl(scanner *s)
{
    token space = s->lex.tok;
    bool params_space = text_tok_is(&space, ".const") || text_tok_is(&space, ".global");
    uint64_t elem = 0, vec = 1, v;
    int rc;
    char buf[64];
    if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
        return rc;
    while (ptx_is_directive(&s->lex.tok)) {
        token d = s->lex.tok;
        uint32_t z = ptx_type_size(&d), w = ptx_vector_width(&d);
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
        if (text_tok_is(&d, ".align")) {
            if ((rc = ptx_read_int(&s->lex, &v, "an alignment")) != DGPB_OK)
                return rc;
        } else if (text_tok_is(&d, ".attribute")) {
            if ((rc = text_expect(&s->lex, '(', "after .attribute")) != DGPB_OK ||
                (rc = skip_group(s)))
                return rc;
        } else if (z && !elem) {
            elem = z;
        } else if (w && vec == 1 && !elem) {
            vec = w;
        } else {
            return text_bad(&s->lex, &d, "unexpected %s in a declaration",
                            text_scan_show(&d, buf, sizeof buf));
        }
    }
    if (!elem)
        return text_bad(&s->lex, &space, "declaration without a type");
    for (;;) {
        if ((rc = ptx_expect_kind(&s->lex, TOK_WORD, "the variable's name")) != DGPB_OK)
            return rc;
        token name = s->lex.tok;
        bool ours = params_space && text_tok_is(&name, GLOBAL_PARAMS);
        uint64_t size = elem * vec;
        bool sized = true;
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
        if (text_is_punct(&s->lex.tok, '<')) { /* a parameterized name, %r<4> */
            if ((rc = ptx_advance(&s->lex)) != DGPB_OK ||
                (rc = ptx_read_int(&s->lex, &v, "a count")) != DGPB_OK ||
                (rc = text_expect(&s->lex, '>', "after the count")) != DGPB_OK ||
                (rc = ptx_advance(&s->lex)))
                return rc;
        }
        while (text_is_punct(&s->lex.tok, '[')) {
            if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
                return rc;
            if (text_is_punct(&s->lex.tok, ']')) {
                sized = false;
            } else {
                token at = s->lex.tok;
                if ((rc = ptx_read_int(&s->lex, &v, "an array size")) != DGPB_OK)
                    return rc;
                if (v > ((uint64_t)1 << 40) || size * v > ((uint64_t)1 << 40))
                    return text_bad(&s->lex, &at, "array size of '%.*s' is out of range",
                                    (int)name.len, name.s);
                size *= v;
            }
            if ((rc = text_expect(&s->lex, ']', "after the array size")) != DGPB_OK ||
                (rc = ptx_advance(&s->lex)))
                return rc;
        }
        if (ours) {
            dgpb_ptx_module *m = s->m;
            if (sized && s->global_declared_with_size && m->global_params_size != size)
                return text_bad(
                    &s->lex, &name, GLOBAL_PARAMS " is declared with %llu and %llu bytes",
                    (unsigned long long)m->global_params_size, (unsigned long long)size);
            m->has_global_params = true;
            if (sized) {
                m->global_params_size = size;
                s->global_declared_with_size = true;
            }
        } else if (text_tok_is(&name, GLOBAL_PARAMS)) {
            /* declared in another space: a use of the name that is not a read */
            s->m->global_params_used = s->m->global_params_address_taken = true;
        }
        if (text_is_punct(&s->lex.tok, '=')) {
            if ((rc = ptx_advance(&s->lex)) != DGPB_OK || (rc = skip_initializer(s)) != DGPB_OK)
                return rc;
        }
        if (text_is_punct(&s->lex.tok, ';'))
            return ptx_advance(&s->lex);
        if (!text_is_punct(&s->lex.tok, ','))
            return text_bad(&s->lex, &s->lex.tok,
                            "missing ';' after the declaration of '%.*s' (found %s)", (int)name.len,
                            name.s, text_scan_show(&s->lex.tok, buf, sizeof buf));
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
    }
}

/*
 * What may stand between a function's header and its body or ';': directives
 * (.noreturn, .maxntid 64, 1, 1, .pragma "nounroll", .attribute(...)),
 * numbers, strings and commas.
 */
static int skip_header_tail(scanner *s)
{
    int rc;
    char buf[64];
    while (!text_is_punct(&s->lex.tok, '{') && !text_is_punct(&s->lex.tok, ';')) {
        const token *t = &s->lex.tok;
        if (text_is_punct(t, '(')) {
            if ((rc = skip_group(s)) != DGPB_OK)
                return rc;
            continue;
        }
        if (!ptx_is_directive(t) && t->kind != TOK_NUMBER && t->kind != TOK_STRING &&
            !text_is_punct(t, ','))
            return text_bad(&s->lex, t, "expected '{' or ';' after the function's header, found %s",
                            text_scan_show(t, buf, sizeof buf));
        if (is_top_directive(t))
            return text_bad(&s->lex, t, "expected '{' or ';' before %s",
                            text_scan_show(t, buf, sizeof buf));
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            return rc;
    }
    return DGPB_OK;
}

/* .entry name ['(' params ')'] [performance directives] ('{' body '}' | ';') */
static int parse_entry(scanner *s)
{
    int rc;
    char buf[64];
    token kw = s->lex.tok;
    if ((rc = ptx_advance(&s->lex)) != DGPB_OK ||
        (rc = ptx_expect_kind(&s->lex, TOK_WORD, "the kernel's name")))
        return rc;
    dgpb_ptx_entry e = {0};
    size_t cap = 0;
    token name = s->lex.tok;
    uint64_t offset = 0;
    if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
        goto done;
    if (text_is_punct(&s->lex.tok, '(')) {
        token open = s->lex.tok;
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            goto done;
        while (!text_is_punct(&s->lex.tok, ')')) {
            if ((rc = parse_param(s, &e, &cap, &offset)) != DGPB_OK)
                goto done;
            if (text_is_punct(&s->lex.tok, ',')) {
                if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
                    goto done;
                if (text_is_punct(&s->lex.tok, ')')) {
                    rc = text_bad(&s->lex, &s->lex.tok, "expected a parameter after ','");
                    goto done;
                }
            } else if (!text_is_punct(&s->lex.tok, ')')) {
                rc = text_bad(
                    &s->lex, &s->lex.tok,
                    "expected ',' or ')' in the parameters of '%.*s' (opened at line %u), "
                    "found %s",
                    (int)name.len, name.s, open.line, text_scan_show(&s->lex.tok, buf, sizeof buf));
                goto done;
            }
        }
        if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
            goto done;
    }
    if ((rc = skip_header_tail(s)) != DGPB_OK)
        goto done;
    if (text_is_punct(&s->lex.tok, ';')) { /* a declaration: not an entry with code */
        rc = ptx_advance(&s->lex);
        goto done;
    }
    if (!(e.name = text_tokdup(&name))) {
        rc = DGPB_ERR_NOMEM;
        goto done;
    }
    if ((rc = index_params(s, &e, &kw)) != DGPB_OK || (rc = scan_body(s)) != DGPB_OK)
        goto done;
    dgpb_ptx_module *m = s->m;
    dgpb_ptx_entry *v = mem_grow(m->entries, m->entry_count, &s->entry_cap, sizeof *v, 4);
    if (!v) {
        rc = DGPB_ERR_NOMEM;
        goto done;
    }
    m->entries = v;
    v[m->entry_count++] = e;
    e = (dgpb_ptx_entry){0};
done:
    dgpb_free(s->slots);
    s->slots = NULL;
    s->params = NULL;
    for (size_t i = 0; i < e.param_count; i++)
        dgpb_free(e.params[i].name);
    dgpb_free(e.params);
    dgpb_free(e.name);
    return rc;
}

/* .func ['(' returns ')'] name ['(' params ')'] [directives] ('{' body '}' | ';') */
static int parse_func(scanner *s)
{
    int rc;
    if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
        return rc;
    if (text_is_punct(&s->lex.tok, '(') && (rc = skip_group(s)) != DGPB_OK)
        return rc;
    if ((rc = ptx_expect_kind(&s->lex, TOK_WORD, "the function's name")) != DGPB_OK ||
        (rc = ptx_advance(&s->lex)))
        return rc;
    if ((rc = skip_header_tail(s)) != DGPB_OK)
        return rc;
    if (text_is_punct(&s->lex.tok, ';'))
        return ptx_advance(&s->lex);
    return scan_body(s);
}

static int parse_module(scanner *s)
{
    int rc = ptx_advance(&s->lex);
    char buf[64];
    while (rc == DGPB_OK && s->lex.tok.kind != TOK_EOF) {
        token t = s->lex.tok;
        bool linkage = false;
        while (text_tok_is(&s->lex.tok, ".visible") || text_tok_is(&s->lex.tok, ".extern") ||
               text_tok_is(&s->lex.tok, ".weak") || text_tok_is(&s->lex.tok, ".common")) {
            linkage = true;
            if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
                return rc;
        }
        token dt = s->lex.tok;
        const token *d = &dt;
        uint64_t v;
        if (text_tok_is(d, ".entry")) {
            rc = parse_entry(s);
        } else if (text_tok_is(d, ".func")) {
            rc = parse_func(s);
        } else if (ptx_is_state_space(d) || text_tok_is(d, ".tex")) {
            rc = parse_decl(s);
        } else if (linkage) {
            return text_bad(&s->lex, d, "expected a declaration after %s, found %s",
                            text_scan_show(&t, buf, 32), text_scan_show(d, buf + 32, 32));
        } else if (text_tok_is(d, ".version") || text_tok_is(d, ".address_size")) {
            if ((rc = ptx_advance(&s->lex)) == DGPB_OK && s->lex.tok.kind != TOK_NUMBER)
                return text_bad(&s->lex, &s->lex.tok, "expected a number after %s",
                                text_scan_show(d, buf, sizeof buf));
            if (rc == DGPB_OK)
                rc = ptx_advance(&s->lex);
        } else if (text_tok_is(d, ".target")) {
            do {
                if ((rc = ptx_advance(&s->lex)) != DGPB_OK ||
                    (rc = ptx_expect_kind(&s->lex, TOK_WORD, "a target name")) != DGPB_OK ||
                    (rc = ptx_advance(&s->lex)) != DGPB_OK)
                    return rc;
            } while (text_is_punct(&s->lex.tok, ','));
        } else if (text_tok_is(d, ".file")) {
            if ((rc = ptx_advance(&s->lex)) != DGPB_OK ||
                (rc = ptx_read_int(&s->lex, &v, "a file number")) ||
                (rc = ptx_expect_kind(&s->lex, TOK_STRING, "a file name")) ||
                (rc = ptx_advance(&s->lex)))
                return rc;
            while (rc == DGPB_OK && text_is_punct(&s->lex.tok, ','))
                if ((rc = ptx_advance(&s->lex)) == DGPB_OK)
                    rc = ptx_read_int(&s->lex, &v, "a number");
        } else if (text_tok_is(d, ".section")) {
            if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
                return rc;
            if (s->lex.tok.kind != TOK_WORD) /* a directive-like word: .debug_info */
                return text_bad(&s->lex, &s->lex.tok,
                                "expected a section name after .section, found %s",
                                text_scan_show(&s->lex.tok, buf, sizeof buf));
            if ((rc = ptx_advance(&s->lex)) != DGPB_OK ||
                (rc = text_expect(&s->lex, '{', "after the section's name")))
                return rc;
            rc = skip_group(s);
        } else if (text_tok_is(d, ".pragma") || text_tok_is(d, ".alias")) {
            if ((rc = ptx_advance(&s->lex)) != DGPB_OK)
                return rc;
            while (rc == DGPB_OK && !text_is_punct(&s->lex.tok, ';')) {
                if (s->lex.tok.kind == TOK_EOF || text_is_punct(&s->lex.tok, '{') ||
                    ptx_is_directive(&s->lex.tok))
                    return text_bad(&s->lex, &s->lex.tok, "missing ';' after %s",
                                    text_scan_show(&t, buf, sizeof buf));
                rc = ptx_advance(&s->lex);
            }
            if (rc == DGPB_OK)
                rc = ptx_advance(&s->lex);
        } else if (ptx_is_directive(d)) {
            return text_bad(&s->lex, d, "unknown directive %s", text_scan_show(d, buf, sizeof buf));
        } else {
            return text_bad(&s->lex, d, "unexpected %s at the top level",
                            text_scan_show(d, buf, sizeof buf));
        }
    }
    return rc;
}

/* ---- the API ---------------------------------------------------------------- */

int ptx_module_scan(const char *text, size_t len, dgpb_ptx_module **out, dgpb_diag *diag)
{
    if (out)
        *out = NULL;
    if (!out || (!text && len))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "ptx_module_scan: NULL argument");
    /* NVRTC's PTX (native slangc writes what nvrtcGetPTX gives) ends in its NUL terminator. */
    while (len && text[len - 1] == '\0')
        len--;
    scanner s = {
        .lex = {.text = text ? text : "", .len = len, .line = 1, .diag = diag, .language = "PTX"}};
    if (!(s.m = mem_calloc(1, sizeof *s.m)))
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory scanning PTX");
    int rc = parse_module(&s);
    if (rc != DGPB_OK) {
        if (rc == DGPB_ERR_NOMEM)
            dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory scanning PTX");
        ptx_module_free(s.m);
        return rc;
    }
    *out = s.m;
    return DGPB_OK;
}

void ptx_module_free(dgpb_ptx_module *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->entry_count; i++) {
        dgpb_ptx_entry *e = &m->entries[i];
        for (size_t k = 0; k < e->param_count; k++)
            dgpb_free(e->params[k].name);
        dgpb_free(e->params);
        dgpb_free(e->name);
    }
    dgpb_free(m->entries);
    dgpb_free(m);
}

const dgpb_ptx_entry *ptx_find_entry(const dgpb_ptx_module *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (size_t i = 0; i < m->entry_count; i++)
        if (strcmp(m->entries[i].name, name) == 0)
            return &m->entries[i];
    return NULL;
}

const dgpb_ptx_entry *ptx_kernel(const dgpb_ptx_module *m, const char *name)
{
    const dgpb_ptx_entry *e = ptx_find_entry(m, name);
    if (!e && m && name && m->entry_count == 1)
        e = &m->entries[0];
    return e;
}
