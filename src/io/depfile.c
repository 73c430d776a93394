/*
 * depfile.c - Make-syntax dependency files (io/depfile.h).
 */
#include "io/depfile.h"

#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytebuf.h"

void depfile_free(char **deps, size_t count)
{
    for (size_t i = 0; deps && i < count; i++)
        dgpb_free(deps[i]);
    dgpb_free(deps);
}

static int add_dep(char ***deps, size_t *count, const char *word, size_t n)
{
    for (size_t i = 0; i < *count; i++)
        if (strlen((*deps)[i]) == n && !memcmp((*deps)[i], word, n))
            return DGPB_OK;
    char **grown = mem_realloc(*deps, (*count + 1) * sizeof *grown);
    if (!grown)
        return DGPB_ERR_NOMEM;
    *deps = grown;
    char *copy = mem_alloc(n + 1);
    if (!copy)
        return DGPB_ERR_NOMEM;
    memcpy(copy, word, n);
    copy[n] = 0;
    grown[(*count)++] = copy;
    return DGPB_OK;
}

int depfile_parse(const char *text, size_t len, char ***deps, size_t *count)
{
    dgpb_bytebuf word = {0};
    int rc = DGPB_OK;
    size_t i = 0;
    while (i < len && !rc) {
        /* one logical line: targets, ':', prerequisites */
        bool after_colon = false, any = false;
        for (;;) {
            word.len = 0;
            while (i < len &&
                   (text[i] == ' ' || text[i] == '\t' ||
                    (text[i] == '\\' && i + 1 < len && text[i + 1] == '\n') ||
                    (text[i] == '\\' && i + 2 < len && text[i + 1] == '\r' && text[i + 2] == '\n')))
                i += text[i] == '\\' ? (text[i + 1] == '\r' ? 3 : 2) : 1;
            if (i >= len || text[i] == '\n' || text[i] == '\r') {
                while (i < len && (text[i] == '\n' || text[i] == '\r'))
                    i++;
                break;
            }
            any = true;
            bool was_target = false;
            while (i < len && text[i] != ' ' && text[i] != '\t' && text[i] != '\n' &&
                   text[i] != '\r') {
                if (text[i] == '\\' && i + 1 < len &&
                    (text[i + 1] == ' ' || text[i + 1] == '#' || text[i + 1] == ':' ||
                     text[i + 1] == '\\')) {
                    bytebuf_append(&word, &text[i + 1], 1);
                    i += 2;
                } else if (text[i] == '\\' && i + 1 < len &&
                           (text[i + 1] == '\n' || text[i + 1] == '\r')) {
                    break;
                } else if (text[i] == '$' && i + 1 < len && text[i + 1] == '$') {
                    bytebuf_append(&word, "$", 1);
                    i += 2;
                } else if (!after_colon && text[i] == ':' &&
                           (i + 1 >= len || text[i + 1] == ' ' || text[i + 1] == '\t' ||
                            text[i + 1] == '\n' || text[i + 1] == '\r')) {
                    i++;
                    after_colon = was_target = true;
                    break;
                } else {
                    bytebuf_append(&word, &text[i], 1);
                    i++;
                }
            }
            if (word.failed) {
                rc = DGPB_ERR_NOMEM;
                break;
            }
            if (after_colon && !was_target && word.len)
                rc = add_dep(deps, count, (const char *)word.data, word.len);
            if (rc)
                break;
        }
        if (!rc && any && !after_colon)
            rc = DGPB_ERR_CORRUPT;
    }
    bytebuf_free(&word);
    return rc;
}

/* A byte both GNU Make and Ninja read as itself, unescaped, anywhere in a path. */
static bool plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c >= 0x80 || (c && strchr("+,/_.~(){}@]!-", c));
}

long depfile_unwritable(const char *path)
{
    const unsigned char *s = (const unsigned char *)path;
    size_t n = strlen(path);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        bool ok = c == ' ' || c == '#' || c == '$' || (c == ':' && i + 1 < n) ||
                  (c == '\\' && i + 1 < n && plain(s[i + 1])) || (plain(c) && !(c == '~' && !i));
        /* Make reads `lib(member)` as a member of an archive */
        if (c == ')' && i + 1 == n && strchr(path, '('))
            ok = false;
        if (!ok)
            return (long)i;
    }
    return -1;
}

static void append_escaped(dgpb_bytebuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '#' || *s == ':')
            bytebuf_append(b, "\\", 1);
        else if (*s == '$')
            bytebuf_append(b, "$", 1);
        bytebuf_append(b, s, 1);
    }
}

int depfile_make(const char *const *targets, size_t target_count, const char *const *deps,
                 size_t dep_count, size_t phony_from, const char **refused, char **text)
{
    for (size_t i = 0; refused && i < target_count + dep_count; i++) {
        const char *path = i < target_count ? targets[i] : deps[i - target_count];
        if (depfile_unwritable(path) >= 0) {
            *refused = path;
            return DGPB_ERR_INVALID;
        }
    }
    dgpb_bytebuf b = {0};
    for (size_t i = 0; i < target_count; i++) {
        if (i)
            bytebuf_append(&b, " ", 1);
        append_escaped(&b, targets[i]);
    }
    bytebuf_append(&b, ":", 1);
    for (size_t i = 0; i < dep_count; i++) {
        bytebuf_append(&b, " \\\n  ", 4);
        append_escaped(&b, deps[i]);
    }
    bytebuf_append(&b, "\n", 1);
    for (size_t i = phony_from; i < dep_count; i++) {
        bytebuf_append(&b, "\n", 1);
        append_escaped(&b, deps[i]);
        bytebuf_append(&b, ":\n", 2);
    }
    bytebuf_append(&b, "", 1);
    if (b.failed) {
        bytebuf_free(&b);
        return DGPB_ERR_NOMEM;
    }
    size_t n;
    *text = (char *)bytebuf_take(&b, &n);
    return DGPB_OK;
}
