/*
 * code_features.c - the device features an entry's code declares
 * (code/code_features.h): OpCapability in SPIR-V, `enable` in WGSL,
 * `.target` in PTX.
 */
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "code/code_features.h"
#include "code/spirv/spirv_numbers.h"

/* Adds a feature once; false when out of memory. */
static bool add(dgpb_code_features *f, size_t *cap, uint32_t number, const char *name,
                size_t name_len)
{
    for (size_t i = 0; i < f->count; i++)
        if (f->items[i].number == number && strlen(f->items[i].name) == name_len &&
            !memcmp(f->items[i].name, name, name_len))
            return true;
    dgpb_code_feature *items = mem_grow(f->items, f->count, cap, sizeof *items, 8);
    if (!items)
        return false;
    f->items = items;
    dgpb_code_feature *it = &f->items[f->count++];
    memset(it, 0, sizeof *it);
    it->number = number;
    memcpy(it->name, name, name_len);
    return true;
}

static uint32_t word(const uint8_t *p, bool swap)
{
    uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return swap ? (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24) : w;
}

/* The widths (8 | 16) of the scalars type `id` holds, in place (not behind pointers). */
static unsigned narrow_in(const uint8_t *code, bool swap, const uint32_t *def, uint32_t bound,
                          uint32_t id, uint8_t *seen, unsigned depth)
{
    if (id >= bound || !def[id] || seen[id] || depth > 64)
        return 0;
    seen[id] = 1;
    size_t i = def[id];
    uint32_t w = word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
    unsigned out = 0;
    if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && count >= 3) {
        uint32_t width = word(code + 4 * (i + 2), swap);
        out = width == 8 ? 8 : width == 16 ? 16 : 0;
    } else if ((op == OP_TYPE_VECTOR || op == OP_TYPE_MATRIX || op == OP_TYPE_ARRAY ||
                op == OP_TYPE_RUNTIME_ARRAY) &&
               count >= 3) {
        out = narrow_in(code, swap, def, bound, word(code + 4 * (i + 2), swap), seen, depth + 1);
    } else if (op == OP_TYPE_STRUCT) {
        for (uint32_t m = 2; m < count; m++)
            out |=
                narrow_in(code, swap, def, bound, word(code + 4 * (i + m), swap), seen, depth + 1);
    }
    seen[id] = 0; /* a type may be reached again along another path */
    return out;
}

/*
 * OpCapability operands, from the words after the five-word header; and the
 * 8- and 16-bit storage capabilities a module needs for a variable of
 * buffer, uniform or push-constant storage that holds an 8- or 16-bit scalar
 * (StorageBuffer16BitAccess, UniformAndStorageBuffer16BitAccess,
 * StoragePushConstant16 and their 8-bit rows), added where the module leaves
 * them out (Slang 2025.15 writes a StructuredBuffer<half> without them).
 */
static int read_spirv(const uint8_t *code, size_t size, dgpb_code_features *f, dgpb_diag *d)
{
    if (size < 20 || size % 4)
        return dgpb_diag_set(d, DGPB_ERR_CORRUPT, -1,
                             "SPIR-V: %zu bytes is not a module (a header of five words, then "
                             "whole words)",
                             size);
    bool swap = word(code, false) != SPV_MAGIC;
    if (swap && word(code, true) != SPV_MAGIC)
        return dgpb_diag_set(d, DGPB_ERR_CORRUPT, 0, "SPIR-V: no magic number 0x07230203");
    size_t words = size / 4, cap = 0;
    uint32_t bound = word(code + 12, swap);
    if (bound > words) /* ids are defined by instructions, so never more than the words */
        bound = (uint32_t)words;
    uint32_t *def = mem_calloc(bound ? bound : 1, sizeof *def); /* defining instruction */
    uint8_t *seen = mem_calloc(bound ? bound : 1, 1);
    int rc = def && seen ? DGPB_OK : dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    for (size_t i = SPV_HEADER_WORDS; !rc && i < words;) {
        uint32_t w = word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
        if (count == 0 || count > words - i) {
            rc = dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)(4 * i),
                               "SPIR-V: the instruction at word %zu has a word count of %u, "
                               "past the module's end",
                               i, count);
            break;
        }
        if (op == OP_CAPABILITY && count == 2 &&
            !add(f, &cap, word(code + 4 * (i + 1), swap), "", 0))
            rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
        if (op >= OP_TYPE_INT && op <= OP_TYPE_POINTER && count >= 2) {
            uint32_t id = word(code + 4 * (i + 1), swap);
            if (id < bound)
                def[id] = (uint32_t)i;
        }
        i += count;
    }
    /* The variables' storage: 8- and 16-bit scalars in buffers, uniforms and push constants. */
    for (size_t i = SPV_HEADER_WORDS; !rc && i < words;) {
        uint32_t w = word(code + 4 * i, swap), count = w >> 16, op = w & 0xffffu;
        uint32_t type = count >= 4 ? word(code + 4 * (i + 1), swap) : 0;
        i += count;
        if (op != OP_VARIABLE || type >= bound || !def[type])
            continue;
        size_t p = def[type];
        if ((word(code + 4 * p, swap) & 0xffffu) != OP_TYPE_POINTER ||
            (word(code + 4 * p, swap) >> 16) < 4)
            continue;
        uint32_t storage = word(code + 4 * (p + 2), swap);
        if (storage != STORAGE_UNIFORM && storage != STORAGE_PUSH_CONSTANT &&
            storage != STORAGE_STORAGE_BUFFER && storage != STORAGE_PHYSICAL_STORAGE_BUFFER)
            continue;
        unsigned narrow =
            narrow_in(code, swap, def, bound, word(code + 4 * (p + 3), swap), seen, 0);
        /* StorageBuffer16BitAccess 4433, UniformAndStorageBuffer16BitAccess 4434,
           StoragePushConstant16 4435; the 8-bit ones 4448, 4449, 4450. */
        uint32_t row = storage == STORAGE_UNIFORM ? 1 : storage == STORAGE_PUSH_CONSTANT ? 2 : 0;
        if (((narrow & 16) && !add(f, &cap, 4433 + row, "", 0)) ||
            ((narrow & 8) && !add(f, &cap, 4448 + row, "", 0)))
            rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    dgpb_free(def);
    dgpb_free(seen);
    return rc;
}

/* Skips white space and comments (WGSL's nest; PTX's do not) from *i; false at an open one. */
static bool skip_space(const char *t, size_t n, size_t *i, bool nested)
{
    while (*i < n) {
        char c = t[*i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            (*i)++;
        } else if (c == '/' && *i + 1 < n && t[*i + 1] == '/') {
            while (*i < n && t[*i] != '\n')
                (*i)++;
        } else if (c == '/' && *i + 1 < n && t[*i + 1] == '*') {
            int depth = 1;
            *i += 2;
            while (*i < n && depth) {
                if (t[*i] == '*' && *i + 1 < n && t[*i + 1] == '/') {
                    depth--;
                    *i += 2;
                } else if (nested && t[*i] == '/' && *i + 1 < n && t[*i + 1] == '*') {
                    depth++;
                    *i += 2;
                } else {
                    (*i)++;
                }
            }
            if (depth)
                return false;
        } else {
            return true;
        }
    }
    return true;
}

static bool ident_char(char c, bool first)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (!first && c >= '0' && c <= '9');
}

/* The identifier at *i (its length; 0 for none), *i moved past it. */
static size_t ident(const char *t, size_t n, size_t *i)
{
    size_t start = *i;
    while (*i < n && ident_char(t[*i], *i == start))
        (*i)++;
    return *i - start;
}

/* The line of byte `at`, for messages. */
static unsigned line_of(const char *t, size_t at)
{
    unsigned line = 1;
    for (size_t i = 0; i < at; i++)
        line += t[i] == '\n';
    return line;
}

/* `enable a, b;` and `requires a;` before the first declaration; `diagnostic(...)` skipped. */
static int read_wgsl(const char *t, size_t n, dgpb_code_features *f, dgpb_diag *d)
{
    size_t i = 0, cap = 0;
    for (;;) {
        if (!skip_space(t, n, &i, true))
            return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                 "WGSL: line %u: a comment is not closed", line_of(t, i));
        size_t at = i, len = ident(t, n, &i);
        bool enable = len == 6 && !memcmp(t + at, "enable", 6);
        bool requires = len == 8 && !memcmp(t + at, "requires", 8);
        if (len == 10 && !memcmp(t + at, "diagnostic", 10)) {
            while (i < n && t[i] != ';')
                i++;
            i++;
            continue;
        }
        if (!enable && !requires)
            return DGPB_OK; /* the first declaration: no directive follows */
        for (;;) {
            if (!skip_space(t, n, &i, true))
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                     "WGSL: line %u: a comment is not closed", line_of(t, i));
            size_t name_at = i, name_len = ident(t, n, &i);
            if (!name_len || name_len >= DGPB_CODE_FEATURE_NAME_MAX)
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)name_at,
                                     "WGSL: line %u: `%s` is not followed by an extension name",
                                     line_of(t, name_at), enable ? "enable" : "requires");
            if (!add(f, &cap, enable ? 0 : 1, t + name_at, name_len))
                return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
            if (!skip_space(t, n, &i, true) || i >= n || (t[i] != ',' && t[i] != ';'))
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                     "WGSL: line %u: `%s` list does not end in ';'", line_of(t, i),
                                     enable ? "enable" : "requires");
            if (t[i++] == ';')
                break;
            if (!skip_space(t, n, &i, true))
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                     "WGSL: line %u: a comment is not closed", line_of(t, i));
            if (i < n && t[i] == ';') { /* a trailing comma */
                i++;
                break;
            }
        }
    }
}

/* The words of the first `.target` directive: `sm_NN` and options, separated by commas. */
static int read_ptx(const char *t, size_t n, dgpb_code_features *f, dgpb_diag *d)
{
    size_t i = 0, cap = 0;
    while (i < n) {
        if (!skip_space(t, n, &i, false))
            return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                 "PTX: line %u: a comment is not closed", line_of(t, i));
        if (i >= n)
            break;
        if (t[i] == '"') { /* a string: skipped whole */
            for (i++; i < n && t[i] != '"' && t[i] != '\n'; i++)
                if (t[i] == '\\')
                    i++;
            i++;
            continue;
        }
        if (t[i] != '.' || n - i < 8 || memcmp(t + i, ".target", 7) ||
            ident_char(t[i + 7], false)) {
            i++;
            while (i < n && ident_char(t[i], false))
                i++;
            continue;
        }
        size_t directive = i;
        i += 7;
        for (;;) {
            while (i < n && (t[i] == ' ' || t[i] == '\t'))
                i++;
            size_t at = i, len = ident(t, n, &i);
            if (!len || len >= DGPB_CODE_FEATURE_NAME_MAX)
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)at,
                                     "PTX: line %u: `.target` is not followed by a target name",
                                     line_of(t, directive));
            uint32_t number = 0;
            if (len > 3 && !memcmp(t + at, "sm_", 3))
                for (size_t k = at + 3;
                     k < at + len && t[k] >= '0' && t[k] <= '9' && number < 10000; k++)
                    number = number * 10 + (uint32_t)(t[k] - '0');
            if (!add(f, &cap, number, t + at, len))
                return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
            while (i < n && (t[i] == ' ' || t[i] == '\t'))
                i++;
            if (i >= n || t[i] != ',')
                return DGPB_OK;
            i++;
        }
    }
    return dgpb_diag_set(d, DGPB_ERR_CORRUPT, -1, "PTX: no `.target` directive");
}

int dgpb_code_features_read(dgpb_code_format format, const uint8_t *code, size_t size,
                            dgpb_code_features *out, dgpb_diag *d)
{
    memset(out, 0, sizeof *out);
    int rc = DGPB_OK;
    if (format == DGPB_CODE_FORMAT_SPIRV)
        rc = read_spirv(code, size, out, d);
    else if (format == DGPB_CODE_FORMAT_WGSL)
        rc = read_wgsl((const char *)code, size, out, d);
    else if (format == DGPB_CODE_FORMAT_PTX)
        rc = read_ptx((const char *)code, size, out, d);
    if (rc)
        dgpb_code_features_clear(out);
    return rc;
}

void dgpb_code_features_clear(dgpb_code_features *f)
{
    if (!f)
        return;
    dgpb_free(f->items);
    f->items = NULL;
    f->count = 0;
}
