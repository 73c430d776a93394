/*
 * tests/conformance/cases.c - the conformance cases and their C references.
 *
 * Every kernel of fixtures/conformance/ (*.slang) has a reference here that
 * computes, on the CPU, exactly what the kernel must leave in its outputs.
 * Unsigned 32- and 64-bit arithmetic wraps in C as it does on the GPU;
 * signed arithmetic is done on the unsigned type and converted, so that
 * overflow is defined here too. Floats appear only where they are exact
 * (small integers). Inputs come from conf_lcg_next() with a fixed seed per
 * case, so the million-element vectors are never stored (cases.h,
 * docs/conformance.md).
 */
#include "cases.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgpb/format.h"

/* state' = state * 1664525 + 1013904223 (mod 2^32); output state' ^ (state' >> 16). */
uint32_t conf_lcg_next(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state ^ (*state >> 16);
}

static const struct {
    const char *name;
    uint32_t texel_size;
} formats[CONF_FORMAT_COUNT] = {
    [CONF_FORMAT_NONE] = {NULL, 0},
    [CONF_FORMAT_R16FLOAT] = {"r16float", 2},
    [CONF_FORMAT_R32FLOAT] = {"r32float", 4},
    [CONF_FORMAT_RG32FLOAT] = {"rg32float", 8},
    [CONF_FORMAT_RGBA32FLOAT] = {"rgba32float", 16},
    [CONF_FORMAT_R32UINT] = {"r32uint", 4},
};

const char *conf_format_name(uint32_t format)
{
    return format < CONF_FORMAT_COUNT ? formats[format].name : NULL;
}

uint32_t conf_format_texel_size(uint32_t format)
{
    return format < CONF_FORMAT_COUNT ? formats[format].texel_size : 0;
}

const char *conf_dim_name(uint32_t dim)
{
    static const char *const names[CONF_DIM_COUNT] = {
        [CONF_DIM_2D] = "2d",
        [CONF_DIM_1D] = "1d",
        [CONF_DIM_3D] = "3d",
        [CONF_DIM_CUBE] = "cube",
        [CONF_DIM_2D_ARRAY] = "2d_array",
    };
    return dim < CONF_DIM_COUNT ? names[dim] : NULL;
}

/* ---- building cases ---------------------------------------------------- */

typedef struct builder {
    conf_suite *suite;
    size_t capacity;
    bool oom;
} builder;

static conf_case *add_case(builder *b, const char *name, const char *module, const char *entry)
{
    if (b->oom)
        return NULL;
    if (b->suite->count == b->capacity) {
        size_t cap = b->capacity ? b->capacity * 2 : 32;
        conf_case *grown = realloc(b->suite->cases, cap * sizeof *grown);
        if (!grown) {
            b->oom = true;
            return NULL;
        }
        b->suite->cases = grown;
        b->capacity = cap;
    }
    conf_case *c = &b->suite->cases[b->suite->count++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->type = CONF_COMPUTE;
    c->module = module;
    c->entry = entry;
    c->threads[0] = c->threads[1] = c->threads[2] = 1;
    c->repeat = 1;
    c->elements = 1;
    return c;
}

/* Adds a parameter with `size` bytes of input and/or expected contents (zeroed, to be filled). */
static conf_param *add_param(builder *b, conf_case *c, const char *name, uint32_t kind, size_t size,
                             bool has_input, bool has_expected)
{
    if (!c || b->oom)
        return NULL;
    if (c->param_count == CONF_MAX_PARAMS) {
        fprintf(stderr, "conformance: case '%s' has too many parameters\n", c->name);
        abort();
    }
    conf_param *p = &c->params[c->param_count++];
    memset(p, 0, sizeof *p);
    p->name = name;
    p->kind = kind;
    p->size = size;
    if (has_input && size && !(p->input = calloc(1, size)))
        b->oom = true;
    if (has_expected && size && !(p->expected = calloc(1, size)))
        b->oom = true;
    return b->oom ? NULL : p;
}

static conf_param *add_value(builder *b, conf_case *c, const char *name, const void *bytes,
                             size_t size)
{
    conf_param *p = add_param(b, c, name, DGPB_KIND_VALUE, size, true, false);
    if (p)
        memcpy(p->input, bytes, size);
    return p;
}

static conf_param *add_u32(builder *b, conf_case *c, const char *name, uint32_t v)
{
    return add_value(b, c, name, &v, sizeof v);
}

static conf_param *add_texture(builder *b, conf_case *c, const char *name, uint32_t kind,
                               uint32_t format, uint32_t w, uint32_t h, bool has_input,
                               bool has_expected)
{
    conf_param *p = add_param(b, c, name, kind, (size_t)w * h * conf_format_texel_size(format),
                              has_input, has_expected);
    if (p) {
        p->format = format;
        p->width = w;
        p->height = h;
        p->depth = 1;
    }
    return p;
}

/* A texture of any dimension: w x h x depth texels (depth: 3D depth, layers, 6 for a cube). */
static conf_param *add_texture_dim(builder *b, conf_case *c, const char *name, uint32_t kind,
                                   uint32_t format, uint32_t dim, uint32_t w, uint32_t h,
                                   uint32_t depth, bool has_input, bool has_expected)
{
    conf_param *p =
        add_param(b, c, name, kind, (size_t)w * h * depth * conf_format_texel_size(format),
                  has_input, has_expected);
    if (p) {
        p->format = format;
        p->dim = dim;
        p->width = w;
        p->height = h;
        p->depth = depth;
    }
    return p;
}

/* Little-endian word access into parameter bytes (every supported host is little-endian). */
static uint32_t *w32(uint8_t *bytes)
{
    return (uint32_t *)(void *)bytes;
}

static uint64_t *w64(uint8_t *bytes)
{
    return (uint64_t *)(void *)bytes;
}

static float *f32(uint8_t *bytes)
{
    return (float *)(void *)bytes;
}

static void fill_lcg(uint32_t *words, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        words[i] = conf_lcg_next(&seed);
}

/* Arithmetic right shift of a 32-bit two's complement value, defined for negatives. */
static uint32_t sar32(uint32_t v, unsigned n)
{
    return (v & 0x80000000u) ? ~(~v >> n) : v >> n;
}

/* ---- the cases --------------------------------------------------------- */

#define GUARD_WORDS 4u
#define GUARD 0xDEADBEEFu

/* integer.slang wrap: wrapped unsigned and signed arithmetic, `count` elements of one pipeline. */
/* A compute case over w x h invocations (elements), named by a printf format. */
static conf_case *add_compute(builder *b, const char *module, const char *entry, uint32_t w,
                              uint32_t h, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static conf_case *add_compute(builder *b, const char *module, const char *entry, uint32_t w,
                              uint32_t h, const char *fmt, ...)
{
    char name[CONF_NAME_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    conf_case *c = add_case(b, name, module, entry);
    if (c) {
        c->threads[0] = w;
        c->threads[1] = h;
        c->elements = (uint64_t)w * h;
    }
    return c;
}

static void case_wrap(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "integer", "wrap", count, 1, "wrap_%u", count);
    if (!c)
        return;
    const uint32_t mul = 0x9E3779B1u;
    const int32_t bias = -2147483000;
    add_u32(b, c, "count", count);
    add_u32(b, c, "mul", mul);
    add_value(b, c, "bias", &bias, sizeof bias);
    conf_param *a = add_param(b, c, "a", DGPB_KIND_BUFFER, count * 4u, true, false);
    conf_param *s = add_param(b, c, "b", DGPB_KIND_BUFFER, count * 4u, true, false);
    /* The outputs carry guard words past `count` that no thread may touch. */
    size_t out_size = (count + GUARD_WORDS) * 4u;
    conf_param *ou = add_param(b, c, "out_u", DGPB_KIND_RW_BUFFER, out_size, true, true);
    conf_param *os = add_param(b, c, "out_s", DGPB_KIND_RW_BUFFER, out_size, true, true);
    if (!a || !s || !ou || !os)
        return;
    fill_lcg(w32(a->input), count, 0xC0FFEE01u + count);
    fill_lcg(w32(s->input), count, 0xBADC0DE5u + count);
    for (uint32_t i = 0; i < count + GUARD_WORDS; i++) {
        w32(ou->input)[i] = w32(ou->expected)[i] = GUARD;
        w32(os->input)[i] = w32(os->expected)[i] = GUARD;
    }
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x = w32(a->input)[i];
        uint32_t u = x * mul + 0x9E3779B9u;
        u = (u ^ (u >> 15)) - x * x;
        u = u + (x << (x & 31u));
        w32(ou->expected)[i] = u;
        uint32_t y = w32(s->input)[i]; /* int32 as its two's complement bits */
        uint32_t t = y * (uint32_t)-1640531527 + (uint32_t)bias;
        t = t - y * y;
        t = sar32(t, 7) ^ (t << 3);
        w32(os->expected)[i] = t;
    }
}

/* integer.slang values: value rows of several types, written at their offsets. */
static void case_values(builder *b)
{
    conf_case *c = add_case(b, "values", "integer", "values");
    const uint32_t a = 0x01234567u, d[4] = {0x89ABCDEFu, 0xFEDCBA98u, 0x76543210u, 0x0F1E2D3Cu};
    const int32_t bv = -123456789, g[3] = {-1, INT32_MIN, INT32_MAX};
    const uint32_t cv[2] = {0xCAFEBABEu, 0x8BADF00Du}, f = 0xFFFFFFFFu;
    add_u32(b, c, "a", a);
    add_value(b, c, "d", d, sizeof d);
    add_value(b, c, "b", &bv, sizeof bv);
    add_value(b, c, "c", cv, sizeof cv);
    add_u32(b, c, "f", f);
    add_value(b, c, "g", g, sizeof g);
    conf_param *out = add_param(b, c, "out", DGPB_KIND_RW_BUFFER, 12 * 4, false, true);
    if (!out)
        return;
    const uint32_t expect[12] = {a,    d[0],           d[1],           d[2],
                                 d[3], (uint32_t)bv,   cv[0],          cv[1],
                                 f,    (uint32_t)g[0], (uint32_t)g[1], (uint32_t)g[2]};
    memcpy(out->expected, expect, sizeof expect);
}

/* integer.slang values64: 64-bit value rows (8-byte alignment) and 64-bit arithmetic. */
static void case_values64(builder *b)
{
    conf_case *c = add_case(b, "values64", "integer", "values64");
    const uint32_t a = 0xA5A5A5A5u, f = 0x5A5A5A5Au;
    const uint64_t e = 0x0123456789ABCDEFull;
    const int64_t h = -0x0FEDCBA987654321ll;
    add_u32(b, c, "a", a);
    add_value(b, c, "e", &e, sizeof e);
    add_u32(b, c, "f", f);
    add_value(b, c, "h", &h, sizeof h);
    conf_param *out = add_param(b, c, "out", DGPB_KIND_RW_BUFFER, 8 * 4, false, true);
    if (!out)
        return;
    uint64_t hu = (uint64_t)h, p = e * 0x9E3779B97F4A7C15ull + hu;
    const uint32_t expect[8] = {a,           (uint32_t)e,        (uint32_t)(e >> 32),
                                f,           (uint32_t)hu,       (uint32_t)(hu >> 32),
                                (uint32_t)p, (uint32_t)(p >> 32)};
    memcpy(out->expected, expect, sizeof expect);
}

/* integer.slang resident: the same buffer dispatched `repeat` times. */
static void case_resident(builder *b, uint32_t count, uint32_t repeat)
{
    conf_case *c = add_compute(b, "integer", "resident", count, 1, "resident_%ux%u", count, repeat);
    if (!c)
        return;
    c->repeat = repeat;
    const uint32_t add = 0x3C6EF35Fu;
    add_u32(b, c, "count", count);
    add_u32(b, c, "add", add);
    conf_param *st = add_param(b, c, "state", DGPB_KIND_RW_BUFFER, count * 4u, true, true);
    if (!st)
        return;
    fill_lcg(w32(st->input), count, 0x5EED0000u + repeat);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v = w32(st->input)[i];
        for (uint32_t r = 0; r < repeat; r++)
            v = v * 1664525u + add + i;
        w32(st->expected)[i] = v;
    }
}

/* buffers.slang structured: read-only and read-write structured buffers, a uniform buffer. */
static void case_structured(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "buffers", "structured", count, 1, "structured_%u", count);
    if (!c)
        return;
    const uint32_t pairs = 37;
    const uint32_t k[4] = {0x9E3779B9u, 0xFFFF0001u, 0xA5A5A5A5u, 7u};
    add_u32(b, c, "count", count);
    add_u32(b, c, "pairs", pairs);
    conf_param *a = add_param(b, c, "a", DGPB_KIND_BUFFER, count * 4u, true, false);
    conf_param *p = add_param(b, c, "p", DGPB_KIND_BUFFER, pairs * 8u, true, false);
    conf_param *extra = add_param(b, c, "extra", DGPB_KIND_UNIFORM_BUFFER, 16, true, false);
    conf_param *acc = add_param(b, c, "acc", DGPB_KIND_RW_BUFFER, count * 4u, true, true);
    conf_param *out = add_param(b, c, "out", DGPB_KIND_RW_BUFFER, count * 8u, false, true);
    if (!a || !p || !extra || !acc || !out)
        return;
    fill_lcg(w32(a->input), count, 0xA0000000u + count);
    fill_lcg(w32(p->input), pairs * 2u, 0xB0000000u);
    fill_lcg(w32(acc->input), count, 0xC0000000u + count);
    memcpy(extra->input, k, sizeof k);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t ai = w32(a->input)[i];
        const uint32_t *q = &w32(p->input)[(i % pairs) * 2u];
        w32(out->expected)[2 * i] = ai * k[0] + q[0];
        w32(out->expected)[2 * i + 1] = q[1] * k[1] - i; /* int * int(k.y) - int(i), wrapped */
        w32(acc->expected)[i] = (w32(acc->input)[i] ^ k[2]) + ai * k[3];
    }
}

/* buffers.slang bytes: byte-address loads and stores of 2 and 3 words. */
static void case_bytes(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "buffers", "bytes", count, 1, "bytes_%u", count);
    if (!c)
        return;
    const uint32_t salt = 0x5EED1234u;
    add_u32(b, c, "count", count);
    add_u32(b, c, "salt", salt);
    conf_param *src = add_param(b, c, "src", DGPB_KIND_BYTE_BUFFER, count * 8u, true, false);
    size_t dst_words = count * 3u + GUARD_WORDS;
    conf_param *dst = add_param(b, c, "dst", DGPB_KIND_RW_BYTE_BUFFER, dst_words * 4u, true, true);
    if (!src || !dst)
        return;
    fill_lcg(w32(src->input), count * 2u, 0xD0000000u + count);
    fill_lcg(w32(dst->input), dst_words, 0xE0000000u + count);
    memcpy(dst->expected, dst->input, dst->size);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x = w32(src->input)[2 * i], y = w32(src->input)[2 * i + 1];
        w32(dst->expected)[3 * i] = x + y;
        w32(dst->expected)[3 * i + 1] = x * y;
        w32(dst->expected)[3 * i + 2] = w32(dst->input)[3 * i + 2] ^ salt;
    }
}

/* The half-float bits of a small non-negative integer (exact below 2048). */
static uint16_t half_of_int(uint32_t n)
{
    if (n == 0)
        return 0;
    uint32_t e = 0;
    while ((n >> (e + 1)) != 0)
        e++;
    return (uint16_t)(((e + 15u) << 10) | ((n << (10u - e)) & 0x3FFu));
}

/* textures.slang sampled: Load and a point sample of an r16float texture of small integers. */
static void case_sampled(builder *b, uint32_t w, uint32_t h)
{
    conf_case *c = add_compute(b, "textures", "sampled", w, h, "sampled_%ux%u", w, h);
    if (!c)
        return;
    const uint32_t size[2] = {w, h};
    add_value(b, c, "size", size, sizeof size);
    conf_param *tex =
        add_texture(b, c, "tex", DGPB_KIND_TEXTURE, CONF_FORMAT_R16FLOAT, w, h, true, false);
    add_param(b, c, "smp", DGPB_KIND_SAMPLER, 0, false, false);
    conf_param *out = add_param(b, c, "out", DGPB_KIND_RW_BUFFER, (size_t)w * h * 4u, false, true);
    if (!tex || !out)
        return;
    uint32_t seed = 0x7E570000u;
    for (uint32_t i = 0; i < w * h; i++) {
        uint32_t v = conf_lcg_next(&seed) % 2048u;
        uint16_t bits = half_of_int(v);
        memcpy(tex->input + 2u * i, &bits, 2);
        w32(out->expected)[i] = v * 4096u + v;
    }
}

/* textures.slang images: r32float, rg32float, rgba32float written; r32uint read and written. */
static void case_storage(builder *b, uint32_t w, uint32_t h)
{
    conf_case *c = add_compute(b, "textures", "images", w, h, "storage_%ux%u", w, h);
    if (!c)
        return;
    const uint32_t size[2] = {w, h};
    add_value(b, c, "size", size, sizeof size);
    conf_param *src = add_param(b, c, "src", DGPB_KIND_BUFFER, (size_t)w * h * 4u, true, false);
    conf_param *r =
        add_texture(b, c, "r", DGPB_KIND_RW_TEXTURE, CONF_FORMAT_R32FLOAT, w, h, false, true);
    conf_param *rg =
        add_texture(b, c, "rg", DGPB_KIND_RW_TEXTURE, CONF_FORMAT_RG32FLOAT, w, h, false, true);
    conf_param *rgba =
        add_texture(b, c, "rgba", DGPB_KIND_RW_TEXTURE, CONF_FORMAT_RGBA32FLOAT, w, h, false, true);
    conf_param *u =
        add_texture(b, c, "u", DGPB_KIND_RW_TEXTURE, CONF_FORMAT_R32UINT, w, h, true, true);
    if (!src || !r || !rg || !rgba || !u)
        return;
    uint32_t seed = 0x5704A6E0u;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint32_t i = y * w + x;
            uint32_t v = conf_lcg_next(&seed) & 0xFFFFFFu; /* below 2^24: exact as a float */
            w32(src->input)[i] = v;
            w32(u->input)[i] = conf_lcg_next(&seed);
            f32(r->expected)[i] = (float)v;
            f32(rg->expected)[2 * i] = (float)(v + 1u);
            f32(rg->expected)[2 * i + 1] = (float)x;
            f32(rgba->expected)[4 * i] = (float)x;
            f32(rgba->expected)[4 * i + 1] = (float)y;
            f32(rgba->expected)[4 * i + 2] = (float)(v & 255u);
            f32(rgba->expected)[4 * i + 3] = (float)(v >> 8);
            w32(u->expected)[i] = w32(u->input)[i] * 3u + v;
        }
    }
}

/* atomics.slang atomic32: add, min, max, or, xor and a histogram; order-independent totals. */
static void case_atomic32(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "atomics", "atomic32", count, 1, "atomic32_%u", count);
    if (!c)
        return;
    add_u32(b, c, "count", count);
    conf_param *src = add_param(b, c, "src", DGPB_KIND_BUFFER, count * 4u, true, false);
    conf_param *tot = add_param(b, c, "totals", DGPB_KIND_RW_BUFFER, 5 * 4, true, true);
    conf_param *hist = add_param(b, c, "hist", DGPB_KIND_RW_BUFFER, 64 * 4, true, true);
    if (!src || !tot || !hist)
        return;
    fill_lcg(w32(src->input), count, 0xA7000000u + count);
    const uint32_t init[5] = {0x12345678u, 0xFFFFFFFFu, 0u, 0x80000000u, 0xC0FFEEu};
    memcpy(tot->input, init, sizeof init);
    memcpy(tot->expected, init, sizeof init);
    uint32_t *t = w32(tot->expected);
    for (uint32_t i = 0; i < 64; i++)
        w32(hist->input)[i] = w32(hist->expected)[i] = i * 1000u;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v = w32(src->input)[i];
        t[0] += v;
        t[1] = v < t[1] ? v : t[1];
        t[2] = v > t[2] ? v : t[2];
        t[3] |= v & 0x00FF00FFu;
        t[4] ^= v;
        w32(hist->expected)[v & 63u] += 1u;
    }
}

/* atomics.slang atomic64: 64-bit add, max and xor. */
static void case_atomic64(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "atomics", "atomic64", count, 1, "atomic64_%u", count);
    if (!c)
        return;
    add_u32(b, c, "count", count);
    conf_param *src = add_param(b, c, "src", DGPB_KIND_BUFFER, count * 4u, true, false);
    conf_param *tot = add_param(b, c, "totals", DGPB_KIND_RW_BUFFER, 3 * 8, true, true);
    if (!src || !tot)
        return;
    fill_lcg(w32(src->input), count, 0xA6400000u + count);
    const uint64_t init[3] = {0x0123456789ABCDEFull, 0u, 0xFFFFull};
    memcpy(tot->input, init, sizeof init);
    memcpy(tot->expected, init, sizeof init);
    uint64_t *t = w64(tot->expected);
    for (uint32_t i = 0; i < count; i++) {
        uint64_t v = (uint64_t)w32(src->input)[i] * 0x100000001ull + i;
        t[0] += v;
        t[1] = v > t[1] ? v : t[1];
        t[2] ^= v << 20;
    }
}

/* atomics.slang subgroup: a subgroup sum added once per subgroup; any subgroup size. */
static void case_subgroup(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "atomics", "subgroup", count, 1, "subgroup_%u", count);
    if (!c)
        return;
    add_u32(b, c, "count", count);
    conf_param *src = add_param(b, c, "src", DGPB_KIND_BUFFER, count * 4u, true, false);
    conf_param *tot = add_param(b, c, "total", DGPB_KIND_RW_BUFFER, 2 * 4, true, true);
    if (!src || !tot)
        return;
    fill_lcg(w32(src->input), count, 0x5B000000u + count);
    w32(tot->input)[0] = w32(tot->expected)[0] = 7u;
    for (uint32_t i = 0; i < count; i++)
        w32(tot->expected)[0] += w32(src->input)[i];
    w32(tot->expected)[1] = count;
}

/* fixtures/build/render.slang: a vertex and fragment pair; drawn when `vertices` is set. */
static void case_render(builder *b, const char *vs, const char *fs, bool draw)
{
    char name[CONF_NAME_MAX];
    snprintf(name, sizeof name, "render_%s_%s", vs, fs);
    conf_case *c = add_case(b, name, "render", vs);
    if (!c)
        return;
    c->type = CONF_RENDER;
    c->fragment = fs;
    c->elements = 0;
    if (!draw)
        return;
    /* fullscreen + tinted: one triangle covering the target, colour (0,0,2,3) * (uv,1,1). */
    const uint32_t w = 4, h = 4;
    c->vertices = 3;
    c->elements = w * h;
    const float scale[2] = {1.0f, 1.0f}, color[4] = {0.0f, 0.0f, 2.0f, 3.0f};
    add_value(b, c, "scale", scale, sizeof scale);
    add_value(b, c, "color", color, sizeof color);
    conf_param *att = add_texture(b, c, "color0", CONF_KIND_COLOR_ATTACHMENT,
                                  CONF_FORMAT_RGBA32FLOAT, w, h, false, true);
    if (!att)
        return;
    for (uint32_t i = 0; i < w * h; i++)
        memcpy(f32(att->expected) + 4 * i, color, sizeof color);
}

/*
 * fixtures/conformance/subpass.slang: a render reading its colour attachment as input
 * attachment 0 (dynamic rendering local read). The attachment starts as the case's texels;
 * each pixel becomes texel * scale + (x + 0.5, y + 0.5, 0, 0).
 */
static void case_subpass(builder *b)
{
    conf_case *c = add_case(b, "render_subpass_reread", "subpass", "fullscreen");
    if (!c)
        return;
    const uint32_t w = 4, h = 4;
    c->type = CONF_RENDER;
    c->fragment = "reread";
    c->vertices = 3;
    c->elements = w * h;
    const float scale[4] = {2.0f, -1.0f, 0.5f, 1.0f};
    add_value(b, c, "gain.scale", scale, sizeof scale);
    conf_param *att = add_texture(b, c, "color0", CONF_KIND_COLOR_ATTACHMENT,
                                  CONF_FORMAT_RGBA32FLOAT, w, h, true, true);
    if (!att)
        return;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t i = y * w + x;
            float *in = f32(att->input) + 4 * i, *out = f32(att->expected) + 4 * i;
            in[0] = (float)i, in[1] = (float)(2 * i), in[2] = 4.0f, in[3] = (float)(i % 3);
            for (int k = 0; k < 4; k++)
                out[k] = in[k] * scale[k];
            out[0] += (float)x + 0.5f;
            out[1] += (float)y + 0.5f;
        }
}

/* ---- plain Slang modules (fixtures/plain/) ----------------------------- */

/*
 * The kernels of fixtures/plain/ are written the way Slang users write them:
 * entry-point `uniform` parameters, struct globals, ParameterBlocks, push
 * constants, cbuffers. Their rows are named by dotted path where an
 * aggregate is flattened (docs/format.md); the cases name them so.
 */

/* A buffer of `n` LCG words from `seed`. */
static conf_param *add_lcg_buffer(builder *b, conf_case *c, const char *name, uint32_t kind,
                                  uint32_t n, uint32_t seed)
{
    conf_param *p = add_param(b, c, name, kind, (size_t)n * 4u, true, false);
    if (p)
        fill_lcg(w32(p->input), n, seed);
    return p;
}

/* A read-write output of `n` words plus guard words, starting as `seed`'s LCG words (or 0). */
static conf_param *add_guarded_output(builder *b, conf_case *c, const char *name, uint32_t kind,
                                      uint32_t n, uint32_t seed)
{
    conf_param *p = add_param(b, c, name, kind, ((size_t)n + GUARD_WORDS) * 4u, true, true);
    if (!p)
        return NULL;
    if (seed)
        fill_lcg(w32(p->input), n, seed);
    for (uint32_t i = n; i < n + GUARD_WORDS; i++)
        w32(p->input)[i] = GUARD;
    memcpy(p->expected, p->input, p->size);
    return p;
}

static uint32_t rotl32(uint32_t v, uint32_t s)
{
    s &= 31u;
    return (v << s) | (v >> ((32u - s) & 31u));
}

/* entry_uniforms.slang scale_offset: entry-point uniform buffers and values. */
static void case_plain_entry_uniforms(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "entry_uniforms", "scale_offset", count, 1,
                               "plain_entry_uniforms_%u", count);
    if (!c)
        return;
    const float scale = 3.0f;
    const int32_t offset = -7;
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, count, 0x91000000u + count);
    conf_param *buf =
        add_guarded_output(b, c, "buf", DGPB_KIND_RW_BUFFER, count, 0x92000000u + count);
    add_value(b, c, "scale", &scale, sizeof scale);
    add_u32(b, c, "count", count);
    add_value(b, c, "offset", &offset, sizeof offset);
    if (!src || !buf)
        return;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x = w32(src->input)[i] & 0xFFFFu;
        w32(buf->expected)[i] = w32(buf->input)[i] ^ (x * 3u + (uint32_t)offset);
    }
}

/* struct_globals.slang mix_hash: a struct global of buffers (res.src, res.dst). */
static void case_plain_struct_globals(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "struct_globals", "mix_hash", count, 1, "plain_struct_globals_%u", count);
    if (!c)
        return;
    conf_param *src = add_lcg_buffer(b, c, "res.src", DGPB_KIND_BUFFER, count, 0x93000000u);
    conf_param *dst = add_guarded_output(b, c, "res.dst", DGPB_KIND_RW_BUFFER, count, 0);
    add_u32(b, c, "count", count);
    if (!src || !dst)
        return;
    for (uint32_t i = 0; i < count; i++)
        w32(dst->expected)[i] = w32(src->input)[i] * 2654435761u + i;
}

/* mixed_struct.slang run_job: a global struct of values and buffers (job.*). */
static void case_plain_mixed_struct(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "mixed_struct", "run_job", count, 1, "plain_mixed_struct_%u", count);
    if (!c)
        return;
    const uint32_t mul = 0x01000193u, addend = 0x811C9DC5u;
    add_u32(b, c, "job.count", count);
    conf_param *in = add_lcg_buffer(b, c, "job.input", DGPB_KIND_BUFFER, count, 0x94000000u);
    add_u32(b, c, "job.mul", mul);
    conf_param *out = add_guarded_output(b, c, "job.output", DGPB_KIND_RW_BUFFER, count, 0);
    add_u32(b, c, "job.add", addend);
    if (!in || !out)
        return;
    for (uint32_t i = 0; i < count; i++)
        w32(out->expected)[i] = w32(in->input)[i] * mul + addend;
}

/* An r16float texture of small integers (below 2048), texel i's integer in *ints. */
static void fill_half_texture(conf_param *tex, uint32_t *ints, uint32_t n, uint32_t seed)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = conf_lcg_next(&seed) % 2048u;
        uint16_t bits = half_of_int(v);
        memcpy(tex->input + 2u * i, &bits, 2);
        ints[i] = v;
    }
}

/* An r32float texture of small integers (below 4096), texel i's integer in *ints. */
static void fill_float_texture(conf_param *tex, uint32_t *ints, uint32_t n, uint32_t seed)
{
    for (uint32_t i = 0; i < n; i++) {
        ints[i] = conf_lcg_next(&seed) % 4096u;
        f32(tex->input)[i] = (float)ints[i];
    }
}

/* material_param.slang shade: a uniform struct parameter of texture, sampler and tint. */
static void case_plain_material(builder *b, uint32_t w, uint32_t h)
{
    conf_case *c =
        add_compute(b, "material_param", "shade", w, h, "plain_material_param_%ux%u", w, h);
    if (!c)
        return;
    const float tint[4] = {3.0f, 5.0f, 7.0f, 11.0f};
    const uint32_t size[2] = {w, h};
    conf_param *out =
        add_param(b, c, "result", DGPB_KIND_RW_BUFFER, (size_t)w * h * 4u, false, true);
    conf_param *tex =
        add_texture(b, c, "mat.tex", DGPB_KIND_TEXTURE, CONF_FORMAT_R16FLOAT, w, h, true, false);
    add_param(b, c, "mat.samp", DGPB_KIND_SAMPLER, 0, false, false);
    add_value(b, c, "mat.tint", tint, sizeof tint);
    add_value(b, c, "size", size, sizeof size);
    if (!tex || !out)
        return;
    uint32_t *v = w32(out->expected);
    fill_half_texture(tex, v, w * h, 0x95000000u);
    for (uint32_t i = 0; i < w * h; i++)
        v[i] = (v[i] * 3u) * 65536u + v[i] * 5u + 18u;
}

/* cb_texture.slang tinted_load: a ConstantBuffer<S> whose S holds a texture (cb.*). */
static void case_plain_cb_texture(builder *b, uint32_t w, uint32_t h)
{
    conf_case *c =
        add_compute(b, "cb_texture", "tinted_load", w, h, "plain_cb_texture_%ux%u", w, h);
    if (!c)
        return;
    const float tint[4] = {2.0f, 1.0f, 3.0f, 5.0f};
    const uint32_t size[2] = {w, h};
    add_value(b, c, "cb.tint", tint, sizeof tint);
    conf_param *tex =
        add_texture(b, c, "cb.tex", DGPB_KIND_TEXTURE, CONF_FORMAT_R16FLOAT, w, h, true, false);
    add_value(b, c, "cb.size", size, sizeof size);
    conf_param *out =
        add_param(b, c, "result", DGPB_KIND_RW_BUFFER, (size_t)w * h * 4u, false, true);
    if (!tex || !out)
        return;
    uint32_t *v = w32(out->expected);
    fill_half_texture(tex, v, w * h, 0x96000000u);
    for (uint32_t i = 0; i < w * h; i++)
        v[i] = (v[i] * 2u + 1u) * 3u + 5u;
}

/* param_block.slang apply: a ParameterBlock of values and buffers (scene.*), its own set. */
static void case_plain_param_block(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "param_block", "apply", count, 1, "plain_param_block_%u", count);
    if (!c)
        return;
    const uint32_t mul = 0x2545F491u;
    conf_param *total = add_param(b, c, "total", DGPB_KIND_RW_BUFFER, 4, true, true);
    add_u32(b, c, "scene.count", count);
    add_u32(b, c, "scene.mul", mul);
    conf_param *src = add_lcg_buffer(b, c, "scene.src", DGPB_KIND_BUFFER, count, 0x97000000u);
    conf_param *dst = add_guarded_output(b, c, "scene.dst", DGPB_KIND_RW_BUFFER, count, 0);
    if (!total || !src || !dst)
        return;
    w32(total->input)[0] = GUARD;
    w32(total->expected)[0] = count * mul;
    for (uint32_t i = 0; i < count; i++)
        w32(dst->expected)[i] = w32(src->input)[i] * mul;
}

/* param_block_only.slang rotate: two ParameterBlocks and no loose globals. */
static void case_plain_param_block_only(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "param_block_only", "rotate", count, 1, "plain_param_block_only_%u", count);
    if (!c)
        return;
    const uint32_t shift = 13u, key = 0xA5A5F00Fu;
    conf_param *in = add_lcg_buffer(b, c, "inbox.values", DGPB_KIND_BUFFER, count, 0x98000000u);
    add_u32(b, c, "inbox.count", count);
    add_u32(b, c, "inbox.shift", shift);
    conf_param *out = add_guarded_output(b, c, "outbox.values", DGPB_KIND_RW_BUFFER, count, 0);
    add_u32(b, c, "outbox.xor_key", key);
    if (!in || !out)
        return;
    for (uint32_t i = 0; i < count; i++)
        w32(out->expected)[i] = rotl32(w32(in->input)[i], shift) ^ key;
}

/* push_constants.slang affine: a [[vk::push_constant]] block (pc.*). */
static void case_plain_push_constants(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "push_constants", "affine", count, 1, "plain_push_constants_%u", count);
    if (!c)
        return;
    const uint32_t mul = 0x6C078965u, addend = 0x3A3A3A3Au;
    add_u32(b, c, "pc.count", count);
    add_u32(b, c, "pc.mul", mul);
    add_u32(b, c, "pc.add", addend);
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, count, 0x99000000u);
    conf_param *dst = add_guarded_output(b, c, "dst", DGPB_KIND_RW_BUFFER, count, 0);
    if (!src || !dst)
        return;
    for (uint32_t i = 0; i < count; i++)
        w32(dst->expected)[i] = w32(src->input)[i] * mul + addend;
}

/* shared_globals.slang square and xor_key: two entries sharing globals. */
static void case_plain_shared_globals(builder *b, bool xor_entry, uint32_t count)
{
    conf_case *c =
        add_compute(b, "shared_globals", xor_entry ? "xor_key" : "square", count, 1,
                    "plain_shared_globals_%s_%u", xor_entry ? "xor_key" : "square", count);
    if (!c)
        return;
    const uint32_t key = 0x0F0F1234u;
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, count, 0x9A000000u + count);
    add_u32(b, c, "key", key); /* square never reads it, but it shares count's uniform block */
    conf_param *dst = add_guarded_output(b, c, "dst", DGPB_KIND_RW_BUFFER, count, 0);
    add_u32(b, c, "count", count);
    if (!src || !dst)
        return;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t v = w32(src->input)[i];
        w32(dst->expected)[i] = xor_entry ? v ^ key : v * v;
    }
}

/* unused_globals.slang scale: unused globals next to used ones; unused resources have no rows. */
static void case_plain_unused_globals(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "unused_globals", "scale", count, 1, "plain_unused_globals_%u", count);
    if (!c)
        return;
    const uint32_t mul = 0x000F4243u;
    add_u32(b, c, "bias", 0xB1A5B1A5u); /* never read; a row as count's block-mate */
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, count, 0x9B000000u);
    add_u32(b, c, "count", count);
    conf_param *dst = add_guarded_output(b, c, "dst", DGPB_KIND_RW_BUFFER, count, 0);
    add_u32(b, c, "mul", mul);
    if (!src || !dst)
        return;
    for (uint32_t i = 0; i < count; i++)
        w32(dst->expected)[i] = w32(src->input)[i] * mul;
}

/* cbuffer_block.slang transform: a cbuffer of plain data, one uniform_buffer row. */
static void case_plain_cbuffer(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "cbuffer_block", "transform", count, 1, "plain_cbuffer_block_%u", count);
    if (!c)
        return;
    const uint32_t settings[4] = {count, 0x9E3779B9u, 0x1234567u, 9u};
    conf_param *cb = add_param(b, c, "Settings", DGPB_KIND_UNIFORM_BUFFER, 16, true, false);
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, count, 0x9C000000u);
    conf_param *dst = add_guarded_output(b, c, "dst", DGPB_KIND_RW_BUFFER, count, 0);
    if (!cb || !src || !dst)
        return;
    memcpy(cb->input, settings, sizeof settings);
    for (uint32_t i = 0; i < count; i++)
        w32(dst->expected)[i] = ((w32(src->input)[i] * settings[1]) >> settings[3]) + settings[2];
}

/* A matrix value: rows x cols floats, row-major, tightly packed (dgpb_run_value_place). */
static conf_param *add_matrix(builder *b, conf_case *c, const char *name, const float *m,
                              uint32_t rows, uint32_t cols)
{
    conf_param *p = add_value(b, c, name, m, (size_t)rows * cols * sizeof(float));
    if (p)
        p->matrix_rows = rows;
    return p;
}

/* loose_values.slang dump_values: loose uniform values of many types, copied out word by word. */
static void case_plain_loose_values(builder *b)
{
    conf_case *c = add_case(b, "plain_loose_values", "loose_values", "dump_values");
    const float f1 = 1.5f, f2[2] = {-2.25f, 1024.5f}, f3[3] = {3.0f, -0.125f, 65536.0f};
    const float f4[4] = {0.5f, -1.75f, 100.25f, -4096.0f};
    const int32_t i1 = -123456, i2[2] = {-1, INT32_MAX};
    const uint32_t u1 = 0xDEADBEEFu, u4[4] = {1u, 0x80000000u, 0xFFFFFFFFu, 12345678u};
    float m22[4], m34[12], m44[16];
    for (int k = 0; k < 4; k++)
        m22[k] = (float)(k + 1) * 1.25f - 2.0f;
    for (int k = 0; k < 12; k++)
        m34[k] = (float)k * 0.5f - 3.0f + (k == 5 ? 1000.0f : 0.0f);
    for (int k = 0; k < 16; k++)
        m44[k] = (float)(k * k) * 0.25f - 7.0f;
    add_value(b, c, "f1", &f1, sizeof f1);
    add_value(b, c, "i1", &i1, sizeof i1);
    add_u32(b, c, "u1", u1);
    add_value(b, c, "f2", f2, sizeof f2);
    add_value(b, c, "f3", f3, sizeof f3);
    add_value(b, c, "f4", f4, sizeof f4);
    add_value(b, c, "i2", i2, sizeof i2);
    add_value(b, c, "u4", u4, sizeof u4);
    add_matrix(b, c, "m22", m22, 2, 2);
    add_matrix(b, c, "m34", m34, 3, 4);
    add_matrix(b, c, "m44", m44, 4, 4);
    conf_param *out = add_param(b, c, "words", DGPB_KIND_RW_BUFFER, 50 * 4, false, true);
    if (!out)
        return;
    uint8_t *o = out->expected;
    const struct {
        const void *bytes;
        size_t size;
    } parts[] = {{&f1, 4}, {&i1, 4}, {&u1, 4},  {f2, 8},   {f3, 12}, {f4, 16},
                 {i2, 8},  {u4, 16}, {m22, 16}, {m34, 48}, {m44, 64}};
    for (size_t k = 0; k < sizeof parts / sizeof *parts; k++) {
        memcpy(o, parts[k].bytes, parts[k].size);
        o += parts[k].size;
    }
}

/* explicit_bindings.slang scatter: [[vk::binding]] placements with gaps and an empty set. */
static void case_plain_explicit_bindings(builder *b, uint32_t count)
{
    conf_case *c = add_compute(b, "explicit_bindings", "scatter", count, 1,
                               "plain_explicit_bindings_%u", count);
    if (!c)
        return;
    const uint32_t consts[4] = {count, 0xC2B2AE35u, 0, 0};
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, count, 0x9D000000u);
    conf_param *dst = add_guarded_output(b, c, "dst", DGPB_KIND_RW_BUFFER, count, 0);
    conf_param *cb = add_param(b, c, "consts", DGPB_KIND_UNIFORM_BUFFER, 16, true, false);
    if (!src || !dst || !cb)
        return;
    memcpy(cb->input, consts, sizeof consts);
    for (uint32_t i = 0; i < count; i++)
        w32(dst->expected)[i] = w32(src->input)[i] * consts[1] + 1u;
}

/* struct_buffers.slang summarize: structured buffers of 32- and 16-byte structs. */
static void case_plain_struct_buffers(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "struct_buffers", "summarize", count, 1, "plain_struct_buffers_%u", count);
    if (!c)
        return;
    conf_param *in = add_param(b, c, "particles", DGPB_KIND_BUFFER, count * 32u, true, false);
    conf_param *out = add_param(b, c, "summaries", DGPB_KIND_RW_BUFFER, count * 16u, true, true);
    add_u32(b, c, "count", count);
    if (!in || !out)
        return;
    uint32_t seed = 0x9E000000u;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t *p = &w32(in->input)[8 * i]; /* key[4], weight[2], tag[2] */
        for (int k = 0; k < 4; k++)
            p[k] = conf_lcg_next(&seed);
        float wx = (float)(int32_t)(conf_lcg_next(&seed) % 2001u) * 0.5f - 500.0f;
        float wy = (float)(int32_t)(conf_lcg_next(&seed) % 4001u) * 0.25f - 500.0f;
        memcpy(&p[4], &wx, 4);
        memcpy(&p[5], &wy, 4);
        p[6] = conf_lcg_next(&seed);
        p[7] = conf_lcg_next(&seed);
        uint32_t *s = &w32(out->expected)[4 * i]; /* sum, prod, wsum, tag_mix */
        s[0] = p[0] + p[1] + p[2] + p[3];
        s[1] = (p[0] * p[1]) ^ (p[2] * p[3]);
        float ws = wx * 2.0f + wy;
        memcpy(&s[2], &ws, 4);
        s[3] = p[6] ^ (p[7] << 1);
    }
    fill_lcg(w32(out->input), count * 4u, 0x9E100000u); /* every word overwritten */
}

/* byte_address.slang pack_words: byte-address loads of 4 words, stores of 2, a 1-word RMW. */
static void case_plain_byte_address(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "byte_address", "pack_words", count, 1, "plain_byte_address_%u", count);
    if (!c)
        return;
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BYTE_BUFFER, count * 4u, 0x9F000000u);
    conf_param *dst =
        add_guarded_output(b, c, "dst", DGPB_KIND_RW_BYTE_BUFFER, count * 3u, 0x9F100000u);
    add_u32(b, c, "count", count);
    if (!src || !dst)
        return;
    for (uint32_t i = 0; i < count; i++) {
        const uint32_t *v = &w32(src->input)[4 * i];
        w32(dst->expected)[2 * i] = v[0] + v[1];
        w32(dst->expected)[2 * i + 1] = v[2] * v[3];
        w32(dst->expected)[2 * count + i] = w32(dst->input)[2 * count + i] ^ v[0];
    }
}

/* texture_1d.slang load_1d: Texture1D Load. */
static void case_plain_texture_1d(builder *b, uint32_t width)
{
    conf_case *c = add_compute(b, "texture_1d", "load_1d", width, 1, "plain_texture_1d_%u", width);
    if (!c)
        return;
    conf_param *tex = add_texture_dim(b, c, "tex", DGPB_KIND_TEXTURE, CONF_FORMAT_R32FLOAT,
                                      CONF_DIM_1D, width, 1, 1, true, false);
    conf_param *out = add_param(b, c, "result", DGPB_KIND_RW_BUFFER, width * 4u, false, true);
    add_u32(b, c, "width", width);
    if (!tex || !out)
        return;
    uint32_t *v = w32(out->expected);
    fill_float_texture(tex, v, width, 0xA1000000u);
    for (uint32_t x = 0; x < width; x++)
        v[x] = v[x] * 3u + x;
}

/* texture_2d.slang load_2d: Texture2D Load. */
static void case_plain_texture_2d(builder *b, uint32_t w, uint32_t h)
{
    conf_case *c = add_compute(b, "texture_2d", "load_2d", w, h, "plain_texture_2d_%ux%u", w, h);
    if (!c)
        return;
    const uint32_t size[2] = {w, h};
    conf_param *tex =
        add_texture(b, c, "tex", DGPB_KIND_TEXTURE, CONF_FORMAT_R16FLOAT, w, h, true, false);
    conf_param *out =
        add_param(b, c, "result", DGPB_KIND_RW_BUFFER, (size_t)w * h * 4u, false, true);
    add_value(b, c, "size", size, sizeof size);
    if (!tex || !out)
        return;
    uint32_t *v = w32(out->expected);
    fill_half_texture(tex, v, w * h, 0xA2000000u);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            v[y * w + x] = v[y * w + x] * 5u + x * y;
}

/* texture_3d.slang load_3d and texture_2d_array.slang load_layers: Load with three coordinates. */
static void case_plain_texture_layered(builder *b, bool array, uint32_t w, uint32_t h, uint32_t d)
{
    conf_case *c =
        add_compute(b, array ? "texture_2d_array" : "texture_3d", array ? "load_layers" : "load_3d",
                    w, h, "plain_%s_%ux%ux%u", array ? "texture_2d_array" : "texture_3d", w, h, d);
    if (!c)
        return;
    c->threads[2] = d;
    c->elements = (uint64_t)w * h * d;
    const uint32_t size[3] = {w, h, d};
    conf_param *tex =
        add_texture_dim(b, c, array ? "layers" : "tex", DGPB_KIND_TEXTURE, CONF_FORMAT_R32FLOAT,
                        array ? CONF_DIM_2D_ARRAY : CONF_DIM_3D, w, h, d, true, false);
    conf_param *out =
        add_param(b, c, "result", DGPB_KIND_RW_BUFFER, (size_t)w * h * d * 4u, false, true);
    add_value(b, c, "size", size, sizeof size);
    if (!tex || !out)
        return;
    uint32_t *v = w32(out->expected);
    fill_float_texture(tex, v, w * h * d, array ? 0xA4000000u : 0xA3000000u);
    for (uint32_t z = 0; z < d; z++)
        for (uint32_t i = 0; i < w * h; i++)
            v[z * w * h + i] = array ? v[z * w * h + i] * 2u + z : v[z * w * h + i] + z * 65536u;
}

/* texture_2d_array_sampled.slang sample_layers: SampleLevel of a layered texture at texel centres.
 */
static void case_plain_texture_2d_array_sampled(builder *b, uint32_t w, uint32_t h, uint32_t d)
{
    conf_case *c = add_compute(b, "texture_2d_array_sampled", "sample_layers", w, h,
                               "plain_texture_2d_array_sampled_%ux%ux%u", w, h, d);
    if (!c)
        return;
    c->threads[2] = d;
    c->elements = (uint64_t)w * h * d;
    const uint32_t size[3] = {w, h, d};
    conf_param *tex = add_texture_dim(b, c, "layers", DGPB_KIND_TEXTURE, CONF_FORMAT_R32FLOAT,
                                      CONF_DIM_2D_ARRAY, w, h, d, true, false);
    add_param(b, c, "smp", DGPB_KIND_SAMPLER, 0, false, false);
    conf_param *out =
        add_param(b, c, "result", DGPB_KIND_RW_BUFFER, (size_t)w * h * d * 4u, false, true);
    add_value(b, c, "size", size, sizeof size);
    if (!tex || !out)
        return;
    uint32_t *v = w32(out->expected);
    fill_float_texture(tex, v, w * h * d, 0xA4800000u);
    for (uint32_t z = 0; z < d; z++)
        for (uint32_t i = 0; i < w * h; i++)
            v[z * w * h + i] = v[z * w * h + i] * 3u + z;
}

/* texture_cube.slang sample_cube: every texel of every cube face sampled at its centre. */
static void case_plain_texture_cube(builder *b, uint32_t size)
{
    conf_case *c =
        add_compute(b, "texture_cube", "sample_cube", size, size, "plain_texture_cube_%u", size);
    if (!c)
        return;
    c->threads[2] = 6;
    c->elements = (uint64_t)size * size * 6u;
    conf_param *cube = add_texture_dim(b, c, "cube", DGPB_KIND_TEXTURE, CONF_FORMAT_R32FLOAT,
                                       CONF_DIM_CUBE, size, size, 6, true, false);
    add_param(b, c, "smp", DGPB_KIND_SAMPLER, 0, false, false);
    conf_param *out =
        add_param(b, c, "result", DGPB_KIND_RW_BUFFER, (size_t)size * size * 6u * 4u, false, true);
    add_u32(b, c, "size", size);
    if (!cube || !out)
        return;
    fill_float_texture(cube, w32(out->expected), size * size * 6u, 0xA5000000u);
}

/* storage_textures.slang store_images: r32float written, r32uint read and written. */
static void case_plain_storage_textures(builder *b, uint32_t w, uint32_t h)
{
    conf_case *c = add_compute(b, "storage_textures", "store_images", w, h,
                               "plain_storage_textures_%ux%u", w, h);
    if (!c)
        return;
    const uint32_t size[2] = {w, h};
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, w * h, 0xA6000000u);
    conf_param *img =
        add_texture(b, c, "img", DGPB_KIND_RW_TEXTURE, CONF_FORMAT_R32FLOAT, w, h, false, true);
    conf_param *hits =
        add_texture(b, c, "hits", DGPB_KIND_RW_TEXTURE, CONF_FORMAT_R32UINT, w, h, true, true);
    add_value(b, c, "size", size, sizeof size);
    if (!src || !img || !hits)
        return;
    fill_lcg(w32(hits->input), w * h, 0xA6100000u);
    for (uint32_t i = 0; i < w * h; i++) {
        uint32_t v = w32(src->input)[i] & 0x7FFFFFu; /* below 2^23: v + 0.5 is exact */
        f32(img->expected)[i] = (float)v + 0.5f;
        w32(hits->expected)[i] = w32(hits->input)[i] * 5u + v;
    }
}

/* sampler_level.slang point_sample: SampleLevel at texel centres and clamped to the edge. */
static void case_plain_sampler_level(builder *b, uint32_t w, uint32_t h)
{
    conf_case *c =
        add_compute(b, "sampler_level", "point_sample", w, h, "plain_sampler_level_%ux%u", w, h);
    if (!c)
        return;
    const uint32_t size[2] = {w, h};
    conf_param *tex =
        add_texture(b, c, "tex", DGPB_KIND_TEXTURE, CONF_FORMAT_R16FLOAT, w, h, true, false);
    add_param(b, c, "smp", DGPB_KIND_SAMPLER, 0, false, false);
    conf_param *out =
        add_param(b, c, "result", DGPB_KIND_RW_BUFFER, (size_t)w * h * 4u, false, true);
    add_value(b, c, "size", size, sizeof size);
    if (!tex || !out)
        return;
    uint32_t *v = w32(out->expected);
    fill_half_texture(tex, v, w * h, 0xA7000000u);
    /* Row 0 first: the edge sample of (x, y) is texel (x, 0). */
    for (uint32_t y = h; y-- > 0;)
        for (uint32_t x = 0; x < w; x++)
            v[y * w + x] = v[y * w + x] * 4096u + v[x];
}

/* The hash of fixtures/plain/include/plain_hash.slangh. */
static uint32_t plain_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

/* include_header.slang hash_all: a function from an #include'd header. */
static void case_plain_include_header(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "include_header", "hash_all", count, 1, "plain_include_header_%u", count);
    if (!c)
        return;
    const uint32_t seed = 0x51ED270Bu;
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, count, 0xA8000000u);
    conf_param *dst = add_guarded_output(b, c, "dst", DGPB_KIND_RW_BUFFER, count, 0);
    add_u32(b, c, "seed", seed);
    add_u32(b, c, "count", count);
    if (!src || !dst)
        return;
    for (uint32_t i = 0; i < count; i++)
        w32(dst->expected)[i] = plain_hash(w32(src->input)[i] ^ seed);
}

/* import_module.slang mul_rotate: functions from an imported library module. */
static void case_plain_import_module(builder *b, uint32_t count)
{
    conf_case *c =
        add_compute(b, "import_module", "mul_rotate", count, 1, "plain_import_module_%u", count);
    if (!c)
        return;
    const uint32_t mul = 0x00010DCDu;
    conf_param *src = add_lcg_buffer(b, c, "src", DGPB_KIND_BUFFER, count, 0xA9000000u);
    conf_param *dst = add_guarded_output(b, c, "dst", DGPB_KIND_RW_BUFFER, count, 0);
    add_u32(b, c, "mul", mul);
    add_u32(b, c, "count", count);
    if (!src || !dst)
        return;
    for (uint32_t i = 0; i < count; i++)
        w32(dst->expected)[i] = rotl32(w32(src->input)[i] * mul + i, i);
}

int conf_suite_build(conf_suite *suite)
{
    memset(suite, 0, sizeof *suite);
    builder b = {.suite = suite};
    static const uint32_t wrap_counts[] = {1, 63, 64, 65, 1000, 1000000};
    for (size_t i = 0; i < sizeof wrap_counts / sizeof *wrap_counts; i++)
        case_wrap(&b, wrap_counts[i]);
    case_values(&b);
    case_values64(&b);
    case_resident(&b, 4099, 1);
    case_resident(&b, 4099, 7);
    case_structured(&b, 65);
    case_structured(&b, 100000);
    case_bytes(&b, 1000);
    case_sampled(&b, 13, 7);
    case_storage(&b, 19, 11);
    case_atomic32(&b, 65);
    case_atomic32(&b, 1000000);
    case_atomic64(&b, 65);
    case_atomic64(&b, 1000000);
    case_subgroup(&b, 1);
    case_subgroup(&b, 65);
    case_subgroup(&b, 1000000);
    case_render(&b, "fullscreen", "tinted", true);
    case_render(&b, "fullscreen", "textured", false);
    case_render(&b, "quad", "tinted", false);
    case_render(&b, "quad", "textured", false);
    case_subpass(&b);
    /* fixtures/plain/ */
    case_plain_entry_uniforms(&b, 1000);
    case_plain_struct_globals(&b, 777);
    case_plain_mixed_struct(&b, 500);
    case_plain_material(&b, 13, 9);
    case_plain_cb_texture(&b, 11, 6);
    case_plain_param_block(&b, 300);
    case_plain_param_block_only(&b, 333);
    case_plain_push_constants(&b, 640);
    case_plain_shared_globals(&b, false, 100);
    case_plain_shared_globals(&b, true, 99);
    case_plain_unused_globals(&b, 200);
    case_plain_cbuffer(&b, 450);
    case_plain_loose_values(&b);
    case_plain_explicit_bindings(&b, 150);
    case_plain_struct_buffers(&b, 129);
    case_plain_byte_address(&b, 1000);
    case_plain_texture_1d(&b, 100);
    case_plain_texture_2d(&b, 17, 10);
    case_plain_texture_layered(&b, false, 9, 7, 5);
    case_plain_texture_layered(&b, true, 10, 6, 4);
    case_plain_texture_2d_array_sampled(&b, 11, 5, 3);
    case_plain_texture_cube(&b, 4);
    case_plain_storage_textures(&b, 19, 11);
    case_plain_sampler_level(&b, 12, 8);
    case_plain_include_header(&b, 1000);
    case_plain_import_module(&b, 513);
    if (b.oom) {
        conf_suite_free(suite);
        return -1;
    }
    return 0;
}

void conf_suite_free(conf_suite *suite)
{
    for (size_t i = 0; i < suite->count; i++) {
        for (uint32_t j = 0; j < suite->cases[i].param_count; j++) {
            free(suite->cases[i].params[j].input);
            free(suite->cases[i].params[j].expected);
        }
    }
    free(suite->cases);
    suite->cases = NULL;
    suite->count = 0;
}
