/*
 * c_text.c - C text the header writes (header/c_text.h): identifiers C and
 * C++ can spell, made unique in a set, names safe in comments, formatted
 * appends to the header's bytes.
 */
#include "header/c_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

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

void c_put(c_text *h, const char *fmt, ...)
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
void c_ident_append(char *out, size_t size, const char *s, size_t len)
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

/* Names of the standard headers a host includes beside the header (<stdio.h>, <stdint.h>,
   <stddef.h>, <stdbool.h>, <limits.h>, <errno.h>, <stdlib.h>) that a pattern below misses:
   macros and objects a member must not be spelled as. */
static const char *const library_names[] = {
    "EOF",      "BUFSIZ",    "FILENAME_MAX", "FOPEN_MAX", "TMP_MAX",  "L_tmpnam", "SEEK_SET",
    "SEEK_CUR", "SEEK_END",  "stdin",        "stdout",    "stderr",   "CHAR_BIT", "MB_LEN_MAX",
    "RAND_MAX", "MB_CUR_MAX", "EXIT_SUCCESS", "EXIT_FAILURE", "_IOFBF", "_IOLBF",  "_IONBF",
    "WCHAR_MIN", "WCHAR_MAX", "WINT_MIN",    "WINT_MAX",  "SIZE_MAX", "PTRDIFF_MIN",
    "PTRDIFF_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_MAX", "true", "false",
    "__bool_true_false_are_defined"};

static bool starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/*
 * Whether a member spelled `s` could be taken by a standard header or by the header itself:
 * a keyword; a type name (POSIX reserves every name ending in _t: uint8_t, size_t, ...); a
 * macro of the standard headers (the list above, errno's E followed by an upper-case letter
 * or digit, the limits' INT..., UINT..., INTMAX..., SCHAR..., the format macros PRI... and
 * SCN..., the locale's LC_..., the signals' SIG...); or one of the header's own macros (its
 * include guard and everything it defines start with DGPB_ or with its stem and '_').
 */
static bool taken(const char *s, const char *stem)
{
    size_t n = strlen(s);
    if (is_keyword(s) || (n >= 2 && !strcmp(s + n - 2, "_t")) || starts(s, "DGPB_") ||
        (stem && *stem && starts(s, stem) && s[strlen(stem)] == '_'))
        return true;
    for (size_t i = 0; i < sizeof library_names / sizeof *library_names; i++)
        if (!strcmp(s, library_names[i]))
            return true;
    if (s[0] == 'E' && ((s[1] >= 'A' && s[1] <= 'Z') || (s[1] >= '0' && s[1] <= '9')))
        return true;
    static const char *const prefixes[] = {"INT",  "UINT", "SCHAR", "UCHAR", "CHAR_", "SHRT_",
                                           "USHRT_", "LONG_", "ULONG_", "LLONG_", "ULLONG_",
                                           "PRI",  "SCN",  "LC_",   "SIG"};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (starts(s, prefixes[i]))
            return true;
    return false;
}

/*
 * An identifier for a name that stands alone (a member): never empty, never a digit first,
 * never a name taken() (a '_' is appended: c_ident_append never ends an identifier with
 * one, so the result collides with no name it spells otherwise).
 */
void c_member_ident(const char *stem, char *out, size_t size, const char *s, size_t len)
{
    out[0] = 0;
    c_ident_append(out, size, s, len);
    if (!out[0] || (out[0] >= '0' && out[0] <= '9')) {
        char tmp[C_ID_MAX];
        snprintf(tmp, sizeof tmp, "m_%.400s", out);
        snprintf(out, size, "%s", tmp);
    }
    if (taken(out, stem) && strlen(out) + 2 < size)
        strcat(out, "_");
}

static bool names_has(const c_names *n, const char *s)
{
    for (size_t i = 0; i < n->count; i++)
        if (!strcmp(n->items[i], s))
            return true;
    return false;
}

/* Makes `id` (an identifier of at most C_ID_MAX bytes) unique in `n` and adds it; false: no memory. */
bool c_names_add(c_names *n, char *id)
{
    if (names_has(n, id)) {
        size_t len = strlen(id);
        if (len > C_ID_MAX - 16)
            len = C_ID_MAX - 16;
        /* "_2" after a name that ends with '_' (a taken name, c_member_ident) would make
           "__", which C++ reserves: the number follows it directly */
        bool trailing = len && id[len - 1] == '_';
        for (unsigned k = 2;; k++) {
            snprintf(id + len, C_ID_MAX - len, trailing ? "%u" : "_%u", k);
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

void c_names_free(c_names *n)
{
    for (size_t i = 0; i < n->count; i++)
        dgpb_free(n->items[i]);
    dgpb_free(n->items);
    *n = (c_names){0};
}

/* A file-scope identifier from parts (NULL-terminated), prefixed by the stem, made unique. */
bool c_file_ident(c_text *h, char *out, ...)
{
    snprintf(out, C_ID_MAX, "%s", h->stem);
    va_list ap;
    va_start(ap, out);
    for (const dgpb_str *part; (part = va_arg(ap, const dgpb_str *)) != NULL;)
        c_ident_append(out, C_ID_MAX, part->ptr, part->len);
    va_end(ap);
    if (!c_names_add(&h->ids, out)) {
        h->nomem = true;
        return false;
    }
    return true;
}

dgpb_str c_cstr(const char *s)
{
    return (dgpb_str){s, (uint32_t)strlen(s)};
}

/* A name as comment text: printable ASCII, and never the end of a comment. */
const char *c_comment_text(dgpb_str s, char *buf, size_t size)
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
