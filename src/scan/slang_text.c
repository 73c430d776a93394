/*
 * slang_text.c - a Slang module's text as its preprocessor sees it
 * (slang_text.h): the lexer, the text with comments, literals and directives
 * blanked, and the reading of #if guards for the compile cache's key text
 * (docs/cache.md, "The main source's key text").
 */
#include "scan/slang_text.h"

#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "code/text_scan.h"

/* ---- the lexer ---- */

void slang_lexer_init(slang_lexer *lx, const char *text, size_t len)
{
    *lx = (slang_lexer){.text = text, .len = len, .line_start = true};
}

/* The length of a line end at `i` (LF, CR, CRLF or LFCR, as Slang reads them); 0 when none. */
static size_t newline_at(const char *s, size_t n, size_t i)
{
    if (s[i] != '\n' && s[i] != '\r')
        return 0;
    return i + 1 < n && (s[i] ^ s[i + 1]) == ('\n' ^ '\r') ? 2 : 1;
}

/* The length of a line continuation at `i` (a backslash, then a line end); 0 when none. */
static size_t splice_at(const char *s, size_t n, size_t i)
{
    size_t end = s[i] == '\\' && i + 1 < n ? newline_at(s, n, i + 1) : 0;
    return end ? 1 + end : 0;
}

/* The first index from `i` on that is not inside a line continuation. */
static size_t past_splices(const char *s, size_t n, size_t i)
{
    size_t k;
    while (i < n && (k = splice_at(s, n, i)))
        i += k;
    return i;
}

/* Bytes that may start a piece other than code. */
static bool stops_code(char c)
{
    return c == '/' || c == '"' || c == '\'' || c == '\\' || c == '\n' || c == '\r';
}

/* The end of a line comment whose text starts at `i`: the next line end not continued. */
static size_t line_comment_end(const char *s, size_t n, size_t i)
{
    size_t k;
    while (i < n && !newline_at(s, n, i))
        i += (k = splice_at(s, n, i)) ? k : 1;
    return i;
}

/* The end of a block comment whose text starts at `i`: after its closing, or the text's end. */
static size_t block_comment_end(const char *s, size_t n, size_t i)
{
    while (i < n) {
        size_t next = past_splices(s, n, i + 1);
        if (s[i] == '*' && next < n && s[next] == '/')
            return next + 1;
        i = next;
    }
    return n;
}

/* The end of a literal opened by the quote at `i`: after its closing quote, or its line's end. */
static size_t literal_end(const char *s, size_t n, size_t i)
{
    char quote = s[i++];
    size_t k;
    while (i < n) {
        if ((k = splice_at(s, n, i))) {
            i += k;
            continue;
        }
        if (newline_at(s, n, i))
            break;
        char c = s[i++];
        if (c == quote)
            break;
        if (c == '\\') { /* the escaped byte, after any continuations */
            i = past_splices(s, n, i);
            if (i < n && !newline_at(s, n, i))
                i++;
        }
    }
    return i;
}

bool slang_lex(slang_lexer *lx, slang_piece *out)
{
    const char *s = lx->text;
    size_t n = lx->len, i = lx->at, k;
    if (i >= n)
        return false;
    *out = (slang_piece){.kind = SLANG_PIECE_CODE, .start = i, .directive = lx->in_directive};
    char c = s[i];
    size_t after = c == '/' ? past_splices(s, n, i + 1) : i;
    /* A continuation, a comment or blanks keep a line's start: '#' after them opens a directive. */
    bool line_start = lx->line_start;
    if ((k = splice_at(s, n, i))) {
        out->kind = SLANG_PIECE_SPLICE;
        i += k;
    } else if ((k = newline_at(s, n, i))) {
        out->kind = SLANG_PIECE_NEWLINE;
        out->directive = lx->in_directive = false;
        line_start = true;
        i += k;
    } else if (c == '/' && after < n && s[after] == '/') {
        out->kind = SLANG_PIECE_LINE_COMMENT;
        i = line_comment_end(s, n, after + 1);
    } else if (c == '/' && after < n && s[after] == '*') {
        out->kind = SLANG_PIECE_BLOCK_COMMENT;
        i = block_comment_end(s, n, after + 1);
    } else if (c == '"' || c == '\'') {
        out->kind = SLANG_PIECE_LITERAL;
        i = literal_end(s, n, i);
        line_start = false;
    } else if (lx->line_start && (c == ' ' || c == '\t')) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
    } else if (lx->line_start && c == '#') {
        out->opens = out->directive = lx->in_directive = true;
        line_start = false;
        i++;
    } else {
        for (i++; i < n && !stops_code(s[i]);)
            i++;
        line_start = false;
    }
    lx->line_start = line_start;
    lx->at = i;
    out->end = i;
    return true;
}

char *slang_text_code_only(const char *text, size_t len)
{
    char *s = mem_alloc(len + 1);
    if (!s)
        return NULL;
    memcpy(s, text, len);
    s[len] = 0;
    slang_lexer lx;
    slang_lexer_init(&lx, text, len);
    slang_piece p;
    while (slang_lex(&lx, &p))
        if (p.directive || (p.kind != SLANG_PIECE_CODE && p.kind != SLANG_PIECE_NEWLINE))
            for (size_t i = p.start; i < p.end; i++)
                if (s[i] != '\n')
                    s[i] = ' ';
    return s;
}

/* ---- directive lines ---- */

/* The first index from `i` on past blanks, comments and line continuations (Slang's white space
   inside a line). */
static size_t skip_space(const char *s, size_t n, size_t i)
{
    for (;;) {
        i = past_splices(s, n, i);
        size_t after = i < n && s[i] == '/' ? past_splices(s, n, i + 1) : n;
        if (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        else if (after < n && s[after] == '*')
            i = block_comment_end(s, n, after + 1);
        else if (after < n && s[after] == '/')
            i = line_comment_end(s, n, after + 1);
        else
            return i;
    }
}

/* A word of a directive: [start, end) of the text, line continuations inside it included. */
typedef struct word {
    size_t start, end;
    bool spliced; /* a line continuation inside it */
} word;

/* The identifier at `i` (after any white space), or an empty one. */
static word read_word(const char *s, size_t n, size_t i)
{
    word w = {0};
    w.start = w.end = skip_space(s, n, i);
    for (;;) {
        size_t j = past_splices(s, n, w.end);
        if (j >= n || !text_ident_char(s[j]))
            return w;
        w.spliced |= j != w.end;
        w.end = j + 1;
    }
}

/* Copies a word's characters (its continuations left out) into buf; false when it does not fit. */
static bool word_copy(const char *s, size_t n, word w, char *buf, size_t size, size_t *len)
{
    *len = 0;
    for (size_t i = w.start; i < w.end; i = past_splices(s, n, i + 1)) {
        if (*len + 1 >= size)
            return false;
        buf[(*len)++] = s[i];
    }
    buf[*len] = 0;
    return true;
}

static bool word_is(const char *s, size_t n, word w, const char *text)
{
    char buf[16];
    size_t len;
    if (!w.spliced)
        return strlen(text) == w.end - w.start && !memcmp(s + w.start, text, w.end - w.start);
    return word_copy(s, n, w, buf, sizeof buf, &len) && !strcmp(buf, text);
}

/* Whether a word names a known macro; a spliced name too long to copy counts as one. */
static bool word_known(const slang_macros *m, const char *s, size_t n, word w)
{
    char buf[8192];
    size_t len;
    if (!w.spliced)
        return m->known(m->ctx, s + w.start, w.end - w.start);
    return !word_copy(s, n, w, buf, sizeof buf, &len) || m->known(m->ctx, buf, len);
}

/* Whether the directive opened by the '#' at s[hash] #defines or #undefs a known macro. */
static bool defines_known_macro(const slang_macros *m, const char *s, size_t n, size_t hash)
{
    word kw = read_word(s, n, hash + 1);
    if (!word_is(s, n, kw, "define") && !word_is(s, n, kw, "undef"))
        return false;
    return word_known(m, s, n, read_word(s, n, kw.end));
}

bool slang_text_defines_known(const slang_macros *m, const char *text, size_t len)
{
    slang_lexer lx;
    slang_lexer_init(&lx, text, len);
    slang_piece p;
    while (slang_lex(&lx, &p))
        if (p.opens && defines_known_macro(m, text, len, p.start))
            return true;
    /* The safe side: a "#define NAME" line inside a comment counts as well. */
    for (size_t at = 0; at < len;) {
        size_t end = at;
        while (end < len && !newline_at(text, len, end))
            end++;
        size_t hash = at;
        while (hash < end && (text[hash] == ' ' || text[hash] == '\t'))
            hash++;
        if (hash < end && text[hash] == '#' && defines_known_macro(m, text, end, hash))
            return true;
        at = end + 1;
    }
    return false;
}

/* ---- conditions ---- */

typedef struct cond_parser {
    const slang_macros *m;
    const char *p, *end;
    bool bad;
} cond_parser;

static void skip_blanks(cond_parser *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
        c->p++;
}

static bool take(cond_parser *c, const char *token)
{
    skip_blanks(c);
    size_t n = strlen(token);
    if ((size_t)(c->end - c->p) >= n && !memcmp(c->p, token, n)) {
        c->p += n;
        return true;
    }
    return false;
}

/* A known macro is defined exactly when this compile's -D set defines it. */
static enum slang_cond name_value(cond_parser *c, const char *name, size_t n)
{
    if (!c->m->known(c->m->ctx, name, n))
        return SLANG_COND_UNKNOWN;
    for (size_t i = 0; i < c->m->defined_count; i++) {
        size_t len = strcspn(c->m->defined[i], "=");
        if (len == n && !memcmp(c->m->defined[i], name, n))
            return SLANG_COND_TRUE;
    }
    return SLANG_COND_FALSE;
}

static enum slang_cond parse_or(cond_parser *c);

static enum slang_cond parse_unary(cond_parser *c)
{
    if (take(c, "!")) {
        enum slang_cond v = parse_unary(c);
        return v == SLANG_COND_UNKNOWN ? v
               : v == SLANG_COND_TRUE  ? SLANG_COND_FALSE
                                       : SLANG_COND_TRUE;
    }
    if (take(c, "(")) {
        enum slang_cond v = parse_or(c);
        if (!take(c, ")"))
            c->bad = true;
        return v;
    }
    skip_blanks(c);
    if ((size_t)(c->end - c->p) >= 7 && !memcmp(c->p, "defined", 7) &&
        (c->end - c->p == 7 || !text_ident_char(c->p[7]))) {
        c->p += 7;
        bool paren = take(c, "(");
        skip_blanks(c);
        const char *name = c->p;
        while (c->p < c->end && text_ident_char(*c->p))
            c->p++;
        size_t n = (size_t)(c->p - name);
        if (!n || (paren && !take(c, ")")))
            c->bad = true;
        return name_value(c, name, n);
    }
    c->bad = true;
    return SLANG_COND_UNKNOWN;
}

static enum slang_cond parse_and(cond_parser *c)
{
    enum slang_cond v = parse_unary(c);
    while (!c->bad && take(c, "&&")) {
        enum slang_cond w = parse_unary(c);
        v = (v == SLANG_COND_FALSE || w == SLANG_COND_FALSE) ? SLANG_COND_FALSE
            : (v == SLANG_COND_TRUE && w == SLANG_COND_TRUE) ? SLANG_COND_TRUE
                                                             : SLANG_COND_UNKNOWN;
    }
    return v;
}

static enum slang_cond parse_or(cond_parser *c)
{
    enum slang_cond v = parse_and(c);
    while (!c->bad && take(c, "||")) {
        enum slang_cond w = parse_and(c);
        v = (v == SLANG_COND_TRUE || w == SLANG_COND_TRUE)     ? SLANG_COND_TRUE
            : (v == SLANG_COND_FALSE && w == SLANG_COND_FALSE) ? SLANG_COND_FALSE
                                                               : SLANG_COND_UNKNOWN;
    }
    return v;
}

enum slang_cond slang_text_condition(const slang_macros *m, const char *line, size_t len)
{
    /* The directive's '#', and where its condition stops: its first comment (a block comment
       makes it unknown), or the line's end. */
    size_t hash = len, stop = len;
    slang_lexer lx;
    slang_lexer_init(&lx, line, len);
    slang_piece p;
    while (slang_lex(&lx, &p) && stop == len) {
        if (p.kind == SLANG_PIECE_NEWLINE)
            stop = p.start;
        else if (p.opens)
            hash = p.start;
        else if (hash < len && p.kind == SLANG_PIECE_BLOCK_COMMENT)
            return SLANG_COND_UNKNOWN;
        else if (hash < len && p.kind == SLANG_PIECE_LINE_COMMENT)
            stop = p.start;
    }
    if (hash >= stop)
        return SLANG_COND_UNKNOWN;
    word kw = read_word(line, stop, hash + 1);
    bool ifdef = word_is(line, stop, kw, "ifdef"), ifndef = word_is(line, stop, kw, "ifndef");
    if (!ifdef && !ifndef && !word_is(line, stop, kw, "if") && !word_is(line, stop, kw, "elif"))
        return SLANG_COND_UNKNOWN;
    cond_parser c = {m, line + kw.end, line + stop, false};
    enum slang_cond v;
    if (ifdef || ifndef) {
        skip_blanks(&c);
        const char *name = c.p;
        while (c.p < c.end && text_ident_char(*c.p))
            c.p++;
        v = name_value(&c, name, (size_t)(c.p - name));
        if (ifndef && v != SLANG_COND_UNKNOWN)
            v = v == SLANG_COND_TRUE ? SLANG_COND_FALSE : SLANG_COND_TRUE;
    } else {
        v = parse_or(&c);
    }
    skip_blanks(&c);
    return c.bad || c.p != c.end ? SLANG_COND_UNKNOWN : v;
}

/* ---- the reduced text ---- */

typedef struct frame {
    bool parent_live; /* the lines around the conditional are kept */
    bool any_true;    /* an earlier branch is known to be taken */
    bool inactive;    /* the current branch is known not to be taken */
} frame;

bool slang_text_reduce(const slang_macros *m, const char *text, size_t len, dgpb_bytebuf *out)
{
    /* Lines here end with LF; a CR alone also ends one for Slang: then this cannot tell. */
    for (const char *cr = memchr(text, '\r', len); cr;
         cr = memchr(cr + 1, '\r', len - (size_t)(cr + 1 - text)))
        if (cr + 1 == text + len || cr[1] != '\n')
            return false;
    frame stack[256];
    size_t depth = 0;
    bool live = true;
    slang_lexer lx;
    slang_lexer_init(&lx, text, len);
    slang_piece p;
    bool more = slang_lex(&lx, &p);
    for (size_t at = 0; at < len;) {
        const char *line = text + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        size_t stop = at + n;
        /* The pieces that start on this line: does a directive open here, and run on? */
        size_t hash = len;
        bool continues = false;
        for (; more && p.start <= stop; more = slang_lex(&lx, &p)) {
            if (p.opens)
                hash = p.start;
            continues |= hash < len && p.directive && p.end > stop;
        }
        bool keep = live;
        word kw = hash < len ? read_word(text, stop, hash + 1) : (word){0};
        if (kw.end > kw.start) {
            if (continues)
                return false;
            if (word_is(text, stop, kw, "if") || word_is(text, stop, kw, "ifdef") ||
                word_is(text, stop, kw, "ifndef")) {
                if (depth == sizeof stack / sizeof *stack)
                    return false;
                enum slang_cond v = slang_text_condition(m, text + hash, stop - hash);
                stack[depth++] = (frame){live, v == SLANG_COND_TRUE, v == SLANG_COND_FALSE};
                keep = live;
                live = live && v != SLANG_COND_FALSE;
            } else if (word_is(text, stop, kw, "elif")) {
                if (!depth)
                    return false;
                frame *f = &stack[depth - 1];
                enum slang_cond v = slang_text_condition(m, text + hash, stop - hash);
                f->inactive = f->any_true || v == SLANG_COND_FALSE;
                f->any_true = f->any_true || v == SLANG_COND_TRUE;
                keep = f->parent_live;
                live = f->parent_live && !f->inactive;
            } else if (word_is(text, stop, kw, "else")) {
                if (!depth)
                    return false;
                frame *f = &stack[depth - 1];
                f->inactive = f->any_true;
                keep = f->parent_live;
                live = f->parent_live && !f->inactive;
            } else if (word_is(text, stop, kw, "endif")) {
                if (!depth)
                    return false;
                live = stack[--depth].parent_live;
                keep = live;
            } else if (defines_known_macro(m, text, stop, hash)) {
                return false;
            }
        } else if (continues) {
            return false;
        }
        if (keep) {
            bytebuf_append(out, line, n);
            bytebuf_append(out, "\n", 1);
        }
        at += n + 1;
    }
    return depth == 0;
}
