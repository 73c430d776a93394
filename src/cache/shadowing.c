/*
 * shadowing.c - the paths a compile would have looked at before the files it
 * read (cache_session.h; docs/cache.md, "Files that appear"). A compile's
 * depfile names the files it read, not where it looked first: a header added
 * to an earlier -I folder, or beside the including file, or a module file
 * earlier on the import path, would be read instead of the listed one while
 * every listed file still hashes the same. Such paths are recorded in the
 * input set as "absent PATH", and a set matches only while nothing but a
 * folder stands at each of them.
 *
 * Slang is not asked where it looked; the paths are derived from the files it
 * read, as a superset of both compilers' search orders (Slang 2026.16's
 * IncludeSystem and Linkage::findOrImportModule, and tools/slangc-wasm's
 * preprocess.js and compile.js):
 *
 *   - a name in #include "...", __include, import is looked for in the
 *     including file's folder, then in each -I folder in order;
 *   - an import of `a_b` also tries a-b.slang (Slang 2026.16 after every
 *     folder, the embedded compiler in each folder), and Slang 2026.16 tries a
 *     precompiled a_b.slang-module (and a-b.slang-module) in every folder
 *     before any source, and .slang.md files after the .slang ones.
 *
 * So for each file F read, for each -I folder R (at position k) that holds F
 * as R/REL (or, when R does not, its nearest ancestor within CLIMB_MAX levels
 * that does, REL then climbing: "../x.slangh" found as inc/x.slangh through
 * -I inc/sub): the folder of every file the compile read (any of them may be the
 * includer) and the -I folders before k, each joined with REL; and for a
 * .slang or .slang.md F, for each folder B (-I folders and the files' folders)
 * that holds F as B/DIR/NAME: every such folder joined with DIR and the other
 * spellings of NAME (underscores as hyphens and back, .slang, .slang.md,
 * .slang-module). Only the paths where nothing stands now are recorded (F's own
 * path stands, so a later folder's is never recorded for the found spelling),
 * nor any in the build's intermediate folder. The module itself is named by
 * path, never looked for. Paths are joined by name, as Slang joins a folder and
 * a name, made absolute against the working folder and written with the
 * project root as a placeholder, as the other paths of a set are.
 */
#include <string.h>

#include "cache/cache_session.h"
#include "core/alloc.h"

#define PATH_MAX_LEN 4000 /* the longest path a set names (cache_set_add_input's limit) */
#define CLIMB_MAX 4       /* how many "../" a name that climbs out of its -I folder is given */

/* A list of owned strings, each once, in the order added; an index of their hashes finds
   one (open addressing, slot = item + 1). */
typedef struct names {
    char **items;
    size_t count, cap;
    size_t *index;
    size_t index_cap;
    bool failed;
} names;

/* FNV-1a of a string. */
static size_t text_hash(const char *s)
{
    uint64_t h = 14695981039346656037u;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return (size_t)h;
}

/* Indexes item i. */
static void names_index(names *n, size_t i)
{
    size_t at = text_hash(n->items[i]) & (n->index_cap - 1);
    while (n->index[at])
        at = (at + 1) & (n->index_cap - 1);
    n->index[at] = i + 1;
}

/* Adds `s` (taken: freed when already there or on failure). */
static void names_take(names *n, char *s)
{
    if (!s) {
        n->failed = true;
        return;
    }
    if (n->index_cap)
        for (size_t at = text_hash(s) & (n->index_cap - 1); n->index[at];
             at = (at + 1) & (n->index_cap - 1))
            if (!strcmp(n->items[n->index[at] - 1], s)) {
                dgpb_free(s);
                return;
            }
    char **grown = mem_grow(n->items, n->count, &n->cap, sizeof *grown, 16);
    if (!grown) {
        dgpb_free(s);
        n->failed = true;
        return;
    }
    n->items = grown;
    n->items[n->count++] = s;
    if (2 * n->count > n->index_cap) {
        size_t cap = n->index_cap ? 2 * n->index_cap : 32;
        size_t *index = mem_calloc(cap, sizeof *index);
        if (!index) {
            n->failed = true;
            return;
        }
        dgpb_free(n->index);
        n->index = index;
        n->index_cap = cap;
        for (size_t i = 0; i < n->count; i++)
            names_index(n, i);
    } else {
        names_index(n, n->count - 1);
    }
}

static void names_free(names *n)
{
    for (size_t i = 0; i < n->count; i++)
        dgpb_free(n->items[i]);
    dgpb_free(n->items);
    dgpb_free(n->index);
    memset(n, 0, sizeof *n);
}

/*
 * `path` (n bytes) made absolute against `cwd` with empty and "." parts dropped and ".."
 * taking the part before it away, by name (a new string; NULL when out of memory or
 * longer than a set names).
 */
static char *absolute(const char *cwd, const char *path, size_t n)
{
    size_t cwd_n = path[0] == '/' ? 0 : strlen(cwd);
    if (cwd_n + n + 2 > PATH_MAX_LEN)
        return NULL;
    char *out = mem_alloc(cwd_n + n + 3);
    if (!out)
        return NULL;
    size_t len = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *p = pass ? path : cwd, *end = pass ? path + n : cwd + cwd_n;
        while (p < end) {
            const char *slash = memchr(p, '/', (size_t)(end - p));
            const char *part_end = slash ? slash : end;
            size_t part = (size_t)(part_end - p);
            if (part == 2 && !memcmp(p, "..", 2)) {
                while (len && out[len - 1] != '/')
                    len--;
                if (len)
                    len--; /* the slash before the part taken away */
            } else if (part && !(part == 1 && *p == '.')) {
                out[len++] = '/';
                memcpy(out + len, p, part);
                len += part;
            }
            p = slash ? slash + 1 : end;
        }
    }
    if (!len)
        out[len++] = '/';
    out[len] = 0;
    return out;
}

/* The folder of an absolute path (a new string), "/" for one at the top. */
static char *folder_of(const char *abs)
{
    const char *slash = strrchr(abs, '/');
    size_t n = slash && slash != abs ? (size_t)(slash - abs) : 1;
    char *out = mem_alloc(n + 1);
    if (out) {
        memcpy(out, abs, n);
        out[n] = 0;
    }
    return out;
}

/* Whether absolute `path` lies under folder `dir`; *rel is then the rest after the slash. */
static bool under(const char *path, const char *dir, const char **rel)
{
    size_t n = strlen(dir);
    if (n == 1 && dir[0] == '/') {
        *rel = path + 1;
        return path[1] != 0;
    }
    if (strncmp(path, dir, n) || path[n] != '/' || !path[n + 1])
        return false;
    *rel = path + n + 1;
    return true;
}

/* `dir` joined with `rel` (and `name` after it when given), made absolute by name. */
static char *joined(const char *cwd, const char *dir, const char *rel, size_t rel_n,
                    const char *name)
{
    size_t n = strlen(dir) + rel_n + (name ? strlen(name) : 0) + 3;
    if (n > PATH_MAX_LEN)
        return NULL;
    char *text = mem_printf("%s/%.*s%s", dir, (int)rel_n, rel, name ? name : "");
    char *out = text ? absolute(cwd, text, strlen(text)) : NULL;
    dgpb_free(text);
    return out;
}

/* The other spellings an import of the file `base` could be found under (see above). */
static void spellings(names *out, const char *base)
{
    size_t n = strlen(base);
    const char *ext = NULL;
    if (n > 9 && !strcmp(base + n - 9, ".slang.md"))
        ext = ".slang.md";
    else if (n > 6 && !strcmp(base + n - 6, ".slang"))
        ext = ".slang";
    if (!ext)
        return;
    size_t core_n = n - strlen(ext);
    char *cores[3] = {mem_printf("%.*s", (int)core_n, base), NULL, NULL};
    if (cores[0] && (cores[1] = mem_strdup(cores[0])) && (cores[2] = mem_strdup(cores[0]))) {
        for (size_t i = 0; i < core_n; i++) {
            if (cores[1][i] == '_')
                cores[1][i] = '-';
            if (cores[2][i] == '-')
                cores[2][i] = '_';
        }
        /* .slang.md files are looked for after every .slang one, never before */
        const char *exts[3] = {".slang", ".slang-module", ".slang.md"};
        size_t ext_count = strcmp(ext, ".slang.md") ? 2 : 3;
        for (size_t c = 0; c < 3; c++)
            for (size_t e = 0; e < ext_count; e++) {
                char *s = mem_printf("%s%s", cores[c], exts[e]);
                if (s && !strcmp(s, base))
                    dgpb_free(s);
                else
                    names_take(out, s);
            }
    } else {
        out->failed = true;
    }
    for (size_t i = 0; i < 3; i++)
        dgpb_free(cores[i]);
}

/* Adds candidate `path` (taken) to `out` unless it lies in the intermediate folder. */
static void candidate(names *out, const char *tmp, char *path)
{
    const char *rel;
    if (path && tmp && *tmp && (!strcmp(path, tmp) || under(path, tmp, &rel)))
        dgpb_free(path);
    else
        names_take(out, path);
}

bool cache_set_add_absent(cache_session *s, dgpb_bytebuf *set, const char *main_source,
                          char *const *files, size_t count, const char *const *roots,
                          size_t root_count)
{
    names dirs = {0}, folders = {0}, found = {0}, cands = {0};
    char *tmp = s->tmp && *s->tmp ? absolute(s->cwd, s->tmp, strlen(s->tmp)) : NULL;
    char *module = absolute(s->cwd, s->desc->module_file, strlen(s->desc->module_file));
    bool ok = module && (tmp || !(s->tmp && *s->tmp));
    const char *rel;
    /* The -I folders, in order (a folder given twice keeps its first place). */
    for (size_t i = 0; ok && i < root_count; i++)
        names_take(&dirs, absolute(s->cwd, roots[i], strlen(roots[i])));
    /* The files read, and their folders (each may be an including file's). */
    for (size_t i = 0; ok && i <= count; i++) {
        const char *f = i < count ? files[i] : main_source;
        char *abs = f ? absolute(s->cwd, f, strlen(f)) : NULL;
        if (!abs) {
            ok = f == NULL;
            continue;
        }
        if (tmp && (!strcmp(abs, tmp) || under(abs, tmp, &rel))) {
            dgpb_free(abs);
            continue;
        }
        names_take(&folders, folder_of(abs));
        if (i < count && strcmp(abs, module))
            names_take(&found, abs);
        else
            dgpb_free(abs);
    }
    ok = ok && !dirs.failed && !folders.failed && !found.failed;
    for (size_t f = 0; ok && f < found.count; f++) {
        const char *file = found.items[f];
        /* Found through -I folder k: the files' folders and the -I folders before it. */
        for (size_t k = 0; k < dirs.count; k++) {
            if (!under(file, dirs.items[k], &rel))
                continue;
            for (size_t i = 0; i < folders.count; i++)
                candidate(&cands, tmp, joined(s->cwd, folders.items[i], rel, strlen(rel), NULL));
            for (size_t j = 0; j < k; j++)
                candidate(&cands, tmp, joined(s->cwd, dirs.items[j], rel, strlen(rel), NULL));
        }
        /* Found through -I folder k by a name that climbs out of it ("../x.slangh" from
           -I inc/sub): the nearest folder above k (at most CLIMB_MAX levels) that holds the
           file gives the name, and the places before k are those of the files' folders and
           the -I folders before it, joined with that name. */
        for (size_t k = 0; k < dirs.count && !cands.failed; k++) {
            if (under(file, dirs.items[k], &rel))
                continue;
            char *up = mem_strdup(dirs.items[k]);
            if (!up) {
                cands.failed = true;
                break;
            }
            for (int levels = 1; levels <= CLIMB_MAX && strcmp(up, "/"); levels++) {
                char *slash = strrchr(up, '/');
                if (slash == up)
                    up[1] = 0;
                else
                    *slash = 0;
                if (!under(file, up, &rel))
                    continue;
                char name[PATH_MAX_LEN + 16] = "";
                for (int l = 0; l < levels; l++)
                    strcat(name, "../");
                if (strlen(name) + strlen(rel) >= sizeof name)
                    break;
                strcat(name, rel);
                for (size_t i = 0; i < folders.count; i++)
                    candidate(&cands, tmp,
                              joined(s->cwd, folders.items[i], name, strlen(name), NULL));
                for (size_t j = 0; j < k; j++)
                    candidate(&cands, tmp, joined(s->cwd, dirs.items[j], name, strlen(name), NULL));
                break;
            }
            dgpb_free(up);
        }
        /* An import's other spellings, in every folder it could have been looked for in. */
        names other = {0};
        spellings(&other, strrchr(file, '/') + 1);
        for (size_t b = 0; b < dirs.count + folders.count && other.count; b++) {
            const char *base = b < dirs.count ? dirs.items[b] : folders.items[b - dirs.count];
            if (!under(file, base, &rel))
                continue;
            size_t sub = (size_t)(strrchr(file, '/') + 1 - rel); /* DIR/, before NAME */
            for (size_t l = 0; l < dirs.count + folders.count; l++) {
                const char *at = l < dirs.count ? dirs.items[l] : folders.items[l - dirs.count];
                for (size_t v = 0; v < other.count; v++)
                    candidate(&cands, tmp, joined(s->cwd, at, rel, sub, other.items[v]));
            }
        }
        ok = !other.failed && !cands.failed;
        names_free(&other);
    }
    /* Recorded where nothing stands now, in the order found. */
    for (size_t i = 0; ok && i < cands.count; i++) {
        const char *path = cands.items[i];
        int taken = cache_path_taken(s, path);
        if (taken < 0 || strchr(path, '\n')) {
            ok = false;
        } else if (!taken) {
            bytebuf_append(set, "absent ", 7);
            cache_append_rooted(s, set, path, strlen(path));
            bytebuf_append(set, "\n", 1);
        }
    }
    names_free(&dirs);
    names_free(&folders);
    names_free(&found);
    names_free(&cands);
    dgpb_free(tmp);
    dgpb_free(module);
    return ok && !set->failed;
}
