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
