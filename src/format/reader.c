/*
 * reader.c - validation and zero-copy views of DGPB v0 bytes (dgpb/reader.h).
 *
 * Parsing walks the header tables with a bounds-checked cursor whose end is
 * header_size; every read checks that its bytes exist before touching them,
 * and every count is checked against the bytes left before anything is
 * allocated for it, so hostile input can neither read out of bounds nor make
 * the reader allocate more than a small multiple of its size. Each failure
 * goes through corrupt(), which records the byte offset and the path to the
 * offending field ("target 'spirv', entry 'k', parameter 'buf'") - one place
 * to set a breakpoint when chasing a bad bundle.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"
#include "dgpb/reader.h"
#include "dgpb/sha256.h"
#include "core/utf8.h"

/* Smallest encodings, used to bound counts before allocating. */
#define MIN_STRING 5u                         /* length + one byte */
#define BLOB_REF_SIZE (8u + DGPB_SHA256_SIZE) /* offset, size, sha256 */
#define MIN_TARGET (2 * MIN_STRING + 8u)      /* name, format, two counts */
#define MIN_ENTRY (2 * MIN_STRING + 4u + BLOB_REF_SIZE + 12u + 8u)
#define MIN_PARAM (MIN_STRING + 28u)

struct dgpb_bundle {
    const uint8_t *bytes;
    size_t size;
    uint32_t header_size;
    uint32_t target_count;
    dgpb_target_view *targets;
    dgpb_str options[DGPB_OPTION_COUNT]; /* the options record's values; len 0: not recorded */
};

typedef struct cursor {
    const uint8_t *bytes;
    size_t pos;
    size_t end;      /* header_size */
    size_t data_len; /* bytes in the data section */
    uint64_t data_end_max;
    uint64_t data_start_min; /* the first byte a blob references (data_len when none) */
    const char *region;      /* what `end` ends, for messages: "the header" (NULL), or the options
                                record's name */
    char ctx[512];           /* where we are, for messages */
    dgpb_diag *diag;
} cursor;

static int corrupt(cursor *c, int code, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int corrupt(cursor *c, int code, size_t at, const char *fmt, ...)
{
    char msg[DGPB_DIAG_MESSAGE_MAX - 600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->ctx[0])
        return dgpb_diag_set(c->diag, code, (int64_t)at, "%s: %s", c->ctx, msg);
    return dgpb_diag_set(c->diag, code, (int64_t)at, "%s", msg);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int rd_u32(cursor *c, uint32_t *v, const char *what)
{
    if (c->end - c->pos < 4)
        return corrupt(c, DGPB_ERR_CORRUPT_TRUNCATED, c->pos,
                       "truncated: %s needs 4 bytes but %s ends at byte %zu", what,
                       c->region ? c->region : "the header", c->end);
    *v = le32(c->bytes + c->pos);
    c->pos += 4;
    return DGPB_OK;
}

static int rd_str(cursor *c, dgpb_str *s, const char *what)
{
    size_t at = c->pos;
    uint32_t len = 0;
    int rc = rd_u32(c, &len, what);
    if (rc)
        return rc;
    if (len == 0)
        return corrupt(c, DGPB_ERR_CORRUPT_STRING, at, "%s is an empty string", what);
    if (len > DGPB_MAX_STRING)
        return corrupt(c, DGPB_ERR_CORRUPT_STRING, at, "%s is %u bytes long (limit %u)", what, len,
                       DGPB_MAX_STRING);
    if (c->end - c->pos < len)
        return corrupt(c, DGPB_ERR_CORRUPT_TRUNCATED, at,
                       "truncated: %s of %u bytes runs past %s's end at byte %zu", what, len,
                       c->region ? c->region : "the header", c->end);
    size_t bad = 0;
    if (!utf8_valid((const char *)c->bytes + c->pos, len, &bad))
        return corrupt(c, DGPB_ERR_CORRUPT_STRING, c->pos + bad,
                       "%s is not valid UTF-8 (or contains NUL)", what);
    s->ptr = (const char *)c->bytes + c->pos;
    s->len = len;
    c->pos += len;
    return DGPB_OK;
}

static int rd_blob(cursor *c, dgpb_blob_ref *b, const char *what)
{
    size_t at = c->pos;
    int rc;
    if ((rc = rd_u32(c, &b->offset, what)) || (rc = rd_u32(c, &b->size, what)))
        return rc;
    if (c->end - c->pos < DGPB_SHA256_SIZE)
        return corrupt(c, DGPB_ERR_CORRUPT_TRUNCATED, c->pos,
                       "truncated: sha256 of %s runs past the header's end at byte %zu", what,
                       c->end);
    b->sha256 = c->bytes + c->pos;
    c->pos += DGPB_SHA256_SIZE;
    if (b->size == 0)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, at, "%s is empty", what);
    uint64_t blob_end = (uint64_t)b->offset + b->size;
    if (blob_end > c->data_len)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, at,
                       "%s (offset %u, size %u) ends past the data section (%zu bytes)", what,
                       b->offset, b->size, c->data_len);
    if (blob_end > c->data_end_max)
        c->data_end_max = blob_end;
    if (b->offset < c->data_start_min)
        c->data_start_min = b->offset;
    b->data = c->bytes + c->end + b->offset;
    return DGPB_OK;
}

/* Checks that `count` elements of at least `min` bytes each can still fit. */
static int check_count(cursor *c, uint32_t count, size_t min, size_t at, const char *what)
{
    if ((uint64_t)count * min > c->end - c->pos)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, at,
                       "%s is %u, more than the %zu bytes left in the header can hold", what, count,
                       c->end - c->pos);
    return DGPB_OK;
}

static int str_cmp(dgpb_str a, dgpb_str b)
{
    int r = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
    return r ? r : (a.len > b.len) - (a.len < b.len);
}

static int str_cmp_void(const void *a, const void *b)
{
    return str_cmp(*(const dgpb_str *)a, *(const dgpb_str *)b);
}

/* Finds a duplicate among n names (sorted copy); returns its index in `sorted`, or -1. */
static long find_duplicate(dgpb_str *sorted, size_t n)
{
    qsort(sorted, n, sizeof *sorted, str_cmp_void);
    for (size_t i = 1; i < n; i++)
        if (str_cmp(sorted[i - 1], sorted[i]) == 0)
            return (long)i;
    return -1;
}

static void set_ctx(cursor *c, size_t keep, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Truncates the context to `keep` bytes and appends a formatted part. */
static void set_ctx(cursor *c, size_t keep, const char *fmt, ...)
{
    if (keep >= sizeof c->ctx)
        keep = sizeof c->ctx - 1;
    c->ctx[keep] = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->ctx + keep, sizeof c->ctx - keep, fmt, ap);
    va_end(ap);
}

static int rd_param(cursor *c, dgpb_param_view *p, bool wgsl)
{
    size_t at = c->pos;
    int rc;
    if ((rc = rd_str(c, &p->name, "parameter name")))
        return rc;
    size_t keep = strlen(c->ctx);
    set_ctx(c, keep, " '%.*s'", (int)p->name.len, p->name.ptr);
    uint32_t *fields[7] = {&p->kind,   &p->flags, &p->space,        &p->binding,
                           &p->offset, &p->size,  &p->webgpu_layout};
    static const char *const names[7] = {"kind",   "flags", "space",        "binding",
                                         "offset", "size",  "webgpu_layout"};
    for (int k = 0; k < 7; k++)
        if ((rc = rd_u32(c, fields[k], names[k])))
            return rc;
    char buf[160];
    /* A pipeline constant is no bind-group entry: webgpu_layout 0 on wgsl too. */
    const char *why =
        dgpb_param_rule(p->kind, p->flags, p->space, p->binding, p->offset, p->size,
                        p->webgpu_layout,
                        wgsl && p->space != DGPB_SPACE_PIPELINE_CONSTANT, buf, sizeof buf);
    if (why)
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "%s", why);
    return DGPB_OK;
}

static int rd_entry(cursor *c, const dgpb_target_view *t, dgpb_entry_view *e, dgpb_str *scratch)
{
    size_t keep = strlen(c->ctx);
    size_t at = c->pos;
    int rc;
    if ((rc = rd_str(c, &e->name, "entry name")))
        return rc;
    set_ctx(c, keep, ", entry '%.*s'", (int)e->name.len, e->name.ptr);
    at = c->pos;
    if ((rc = rd_str(c, &e->stage, "stage")))
        return rc;
    int stage = dgpb_stage_from_name(e->stage.ptr, e->stage.len);
    if (stage < 0)
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "unknown stage '%.*s'", (int)e->stage.len,
                       e->stage.ptr);
    e->stage_id = (uint32_t)stage;
    at = c->pos;
    if ((rc = rd_u32(c, &e->layout, "layout")))
        return rc;
    if (t->layout_count == 0 ? e->layout != 0 : e->layout >= t->layout_count)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, at,
                       "layout index %u but the target has %u layouts", e->layout, t->layout_count);
    if ((rc = rd_blob(c, &e->code, "code blob")))
        return rc;
    at = c->pos;
    for (int k = 0; k < 3; k++)
        if ((rc = rd_u32(c, &e->thread_group_size[k], "thread_group_size")))
            return rc;
    const char *why = dgpb_thread_group_rule(e->stage_id, e->thread_group_size);
    if (why)
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "%s", why);

    at = c->pos;
    if ((rc = rd_u32(c, &e->param_count, "param_count")) ||
        (rc = check_count(c, e->param_count, MIN_PARAM, at, "param_count")))
        return rc;
    dgpb_param_view *params = mem_calloc(e->param_count, sizeof *params);
    if (!params)
        return dgpb_diag_set(c->diag, DGPB_ERR_NOMEM, -1, "out of memory");
    e->params = params;
    bool wgsl = dgpb_target_traits(t->id) & DGPB_TRAIT_WEBGPU_IDS;
    size_t keep_entry = strlen(c->ctx);
    for (uint32_t i = 0; i < e->param_count; i++) {
        set_ctx(c, keep_entry, ", parameter %u", i);
        if ((rc = rd_param(c, &params[i], wgsl)))
            return rc;
        scratch[i] = params[i].name;
    }
    set_ctx(c, keep_entry, "%s", "");
    long dup = find_duplicate(scratch, e->param_count);
    if (dup >= 0)
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE,
                       (size_t)(scratch[dup].ptr - (const char *)c->bytes),
                       "parameter '%.*s' listed twice", (int)scratch[dup].len, scratch[dup].ptr);

    at = c->pos;
    if ((rc = rd_u32(c, &e->capability_count, "capability_count")))
        return rc;
    if (e->capability_count > DGPB_CAP_COUNT)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, at,
                       "capability_count is %u but only %d capabilities exist", e->capability_count,
                       DGPB_CAP_COUNT);
    dgpb_str *caps = mem_calloc(e->capability_count, sizeof *caps);
    if (!caps)
        return dgpb_diag_set(c->diag, DGPB_ERR_NOMEM, -1, "out of memory");
    e->capabilities = caps;
    int prev = -1;
    for (uint32_t i = 0; i < e->capability_count; i++) {
        at = c->pos;
        if ((rc = rd_str(c, &caps[i], "capability")))
            return rc;
        int id = dgpb_capability_from_name(caps[i].ptr, caps[i].len);
        if (id < 0)
            return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "unknown capability '%.*s'",
                           (int)caps[i].len, caps[i].ptr);
        if (id <= prev)
            return corrupt(c, DGPB_ERR_CORRUPT_ORDER, at,
                           "capability '%.*s' is out of order or repeated (they must be sorted)",
                           (int)caps[i].len, caps[i].ptr);
        prev = id;
        e->capability_mask |= UINT64_C(1) << id;
    }
    set_ctx(c, keep, "%s", "");
    return DGPB_OK;
}

static int rd_target(cursor *c, dgpb_target_view *t, const dgpb_target_view *prev)
{
    size_t at = c->pos;
    int rc;
    if ((rc = rd_str(c, &t->name, "target name")))
        return rc;
    int id = dgpb_target_from_name(t->name.ptr, t->name.len);
    if (id < 0)
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "unknown target '%.*s'", (int)t->name.len,
                       t->name.ptr);
    t->id = (uint32_t)id;
    if (prev && str_cmp(prev->name, t->name) >= 0)
        return corrupt(c, DGPB_ERR_CORRUPT_ORDER, at,
                       "target '%.*s' follows '%.*s': targets must be sorted by name and unique",
                       (int)t->name.len, t->name.ptr, (int)prev->name.len, prev->name.ptr);
    set_ctx(c, 0, "target '%.*s'", (int)t->name.len, t->name.ptr);
    at = c->pos;
    if ((rc = rd_str(c, &t->code_format, "code_format")))
        return rc;
    if (!dgpb_code_format_allowed(t->name.ptr, t->name.len, t->code_format.ptr, t->code_format.len))
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "code format '%.*s' is not allowed",
                       (int)t->code_format.len, t->code_format.ptr);
    t->code_format_id =
        (uint32_t)dgpb_code_format_from_name(t->code_format.ptr, t->code_format.len);
    at = c->pos;
    if ((rc = rd_u32(c, &t->layout_count, "layout_count")) ||
        (rc = check_count(c, t->layout_count, BLOB_REF_SIZE, at, "layout_count")))
        return rc;
    dgpb_blob_ref *layouts = mem_calloc(t->layout_count, sizeof *layouts);
    if (!layouts)
        return dgpb_diag_set(c->diag, DGPB_ERR_NOMEM, -1, "out of memory");
    t->layouts = layouts;
    for (uint32_t i = 0; i < t->layout_count; i++) {
        set_ctx(c, 0, "target '%.*s', layout %u", (int)t->name.len, t->name.ptr, i);
        if ((rc = rd_blob(c, &layouts[i], "layout blob")))
            return rc;
    }
    set_ctx(c, 0, "target '%.*s'", (int)t->name.len, t->name.ptr);
    at = c->pos;
    if ((rc = rd_u32(c, &t->entry_count, "entry_count")) ||
        (rc = check_count(c, t->entry_count, MIN_ENTRY, at, "entry_count")))
        return rc;
    if (t->entry_count == 0)
        return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "the target has no entries");
    dgpb_entry_view *entries = mem_calloc(t->entry_count, sizeof *entries);
    /* Names for the duplicate checks: one slot per entry or parameter, bounded by the input. */
    size_t scratch_n = (c->end - c->pos) / MIN_STRING + 1;
    dgpb_str *scratch = mem_calloc(scratch_n, sizeof *scratch);
    if (!entries || !scratch) {
        dgpb_free(entries);
        dgpb_free(scratch);
        return dgpb_diag_set(c->diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    t->entries = entries;
    for (uint32_t i = 0; i < t->entry_count && !rc; i++) {
        set_ctx(c, 0, "target '%.*s'", (int)t->name.len, t->name.ptr);
        rc = rd_entry(c, t, &entries[i], scratch);
    }
    if (!rc) {
        set_ctx(c, 0, "target '%.*s'", (int)t->name.len, t->name.ptr);
        for (uint32_t i = 0; i < t->entry_count; i++)
            scratch[i] = entries[i].name;
        long dup = find_duplicate(scratch, t->entry_count);
        if (dup >= 0)
            rc = corrupt(c, DGPB_ERR_CORRUPT_VALUE,
                         (size_t)(scratch[dup].ptr - (const char *)c->bytes),
                         "entry '%.*s' listed twice", (int)scratch[dup].len, scratch[dup].ptr);
    }
    dgpb_free(scratch);
    return rc;
}

/*
 * The options record: the bytes before the first byte any blob references
 * (docs/format.md, "The options record"), "DGPO", a count, then each
 * option's name and value as strings, names from the format's table in its
 * order, each value as dgpb_option_rule() allows; nothing after the last.
 * A data section whose blobs start at its first byte has none.
 */
static int rd_options(cursor *c, dgpb_bundle *b)
{
    size_t start = c->end, record_end = c->end + (size_t)c->data_start_min;
    if (record_end == start)
        return DGPB_OK;
    set_ctx(c, 0, "%s", "options record");
    c->end = record_end; /* rd_u32 and rd_str stay inside the record */
    c->region = "the options record";
    c->pos = start;
    if (record_end - start < 4 || memcmp(c->bytes + start, DGPB_OPTIONS_MAGIC, 4) != 0)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, start,
                       "%zu bytes before the first blob are no options record (no \"%s\")",
                       record_end - start, DGPB_OPTIONS_MAGIC);
    c->pos += 4;
    size_t at = c->pos;
    uint32_t count = 0;
    int rc = rd_u32(c, &count, "option_count");
    if (rc)
        return rc;
    if (count == 0 || count > DGPB_OPTION_COUNT)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, at,
                       "option_count is %u, not from 1 to the %d options there are", count,
                       DGPB_OPTION_COUNT);
    int prev = -1;
    for (uint32_t i = 0; i < count; i++) {
        dgpb_str name, value;
        at = c->pos;
        if ((rc = rd_str(c, &name, "option name")))
            return rc;
        int id = dgpb_option_from_name(name.ptr, name.len);
        if (id < 0)
            return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "unknown option '%.*s'", (int)name.len,
                           name.ptr);
        if (id <= prev)
            return corrupt(c, DGPB_ERR_CORRUPT_ORDER, at,
                           "option '%.*s' is out of order or repeated (they must be sorted)",
                           (int)name.len, name.ptr);
        prev = id;
        at = c->pos;
        if ((rc = rd_str(c, &value, "option value")))
            return rc;
        char buf[256];
        const char *why = dgpb_option_rule((uint32_t)id, value.ptr, value.len, buf, sizeof buf);
        if (why)
            return corrupt(c, DGPB_ERR_CORRUPT_VALUE, at, "%s", why);
        b->options[id] = value;
    }
    if (c->pos != record_end)
        return corrupt(c, DGPB_ERR_CORRUPT_RANGE, c->pos,
                       "%zu bytes between the options record and the first blob",
                       record_end - c->pos);
    return DGPB_OK;
}

static void free_targets(dgpb_target_view *targets, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        dgpb_target_view *t = &targets[i];
        for (uint32_t k = 0; t->entries && k < t->entry_count; k++) {
            dgpb_free((void *)t->entries[k].params);
            dgpb_free((void *)t->entries[k].capabilities);
        }
        dgpb_free((void *)t->entries);
        dgpb_free((void *)t->layouts);
    }
    dgpb_free(targets);
}

/* Hashes one blob; on a mismatch names the blob and its absolute byte offset. */
static int verify_one(const dgpb_bundle *b, const dgpb_blob_ref *blob, const char *what,
                      dgpb_diag *diag)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = dgpb_blob_verify(blob, &d);
    if (rc)
        return dgpb_diag_set(diag, rc, (int64_t)b->header_size + blob->offset, "%s: %s", what,
                             d.message);
    return DGPB_OK;
}

static int verify_all(const dgpb_bundle *b, dgpb_diag *diag)
{
    char what[600];
    int rc;
    for (uint32_t i = 0; i < b->target_count; i++) {
        const dgpb_target_view *t = &b->targets[i];
        for (uint32_t k = 0; k < t->layout_count; k++) {
            snprintf(what, sizeof what, "target '%.*s', layout %u", (int)t->name.len, t->name.ptr,
                     k);
            if ((rc = verify_one(b, &t->layouts[k], what, diag)))
                return rc;
        }
        for (uint32_t k = 0; k < t->entry_count; k++) {
            const dgpb_entry_view *e = &t->entries[k];
            snprintf(what, sizeof what, "target '%.*s', entry '%.*s', code blob", (int)t->name.len,
                     t->name.ptr, (int)e->name.len, e->name.ptr);
            if ((rc = verify_one(b, &e->code, what, diag)))
                return rc;
        }
    }
    return DGPB_OK;
}

int dgpb_bundle_open(const void *data, size_t size, uint32_t flags, dgpb_bundle **out,
                     dgpb_diag *diag)
{
    *out = NULL;
    const uint8_t *bytes = data;
    cursor c = {.bytes = bytes, .pos = 0, .end = size, .diag = diag};
    if (size > DGPB_MAX_BUNDLE_SIZE)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "bundle of %zu bytes exceeds 4 GiB", size);
    if (size < 4)
        return corrupt(&c, DGPB_ERR_CORRUPT_TRUNCATED, 0,
                       "truncated: %zu bytes, too short for the magic", size);
    if (memcmp(bytes, DGPB_MAGIC, 4) != 0)
        return corrupt(&c, DGPB_ERR_CORRUPT_MAGIC, 0, "not a DGPB bundle: bad magic");
    c.pos = 4;
    uint32_t version = 0, header_size = 0, target_count = 0;
    int rc;
    if ((rc = rd_u32(&c, &version, "version")))
        return rc;
    if (version != DGPB_FORMAT_VERSION)
        return corrupt(&c, DGPB_ERR_CORRUPT_VERSION, 4,
                       "unsupported version %u (this reader knows version %u)", version,
                       DGPB_FORMAT_VERSION);
    if ((rc = rd_u32(&c, &header_size, "header_size")))
        return rc;
    if (header_size < 16 || header_size > size)
        return corrupt(&c, header_size > size ? DGPB_ERR_CORRUPT_TRUNCATED : DGPB_ERR_CORRUPT_RANGE,
                       8, "header_size is %u but the bundle has %zu bytes", header_size, size);
    c.end = header_size;
    c.data_len = size - header_size;
    c.data_start_min = c.data_len;
    size_t at = c.pos;
    if ((rc = rd_u32(&c, &target_count, "target_count")) ||
        (rc = check_count(&c, target_count, MIN_TARGET, at, "target_count")))
        return rc;

    dgpb_bundle *b = mem_calloc(1, sizeof *b);
    dgpb_target_view *targets = mem_calloc(target_count, sizeof *targets);
    if (!b || !targets) {
        dgpb_free(b);
        dgpb_free(targets);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    b->bytes = bytes;
    b->size = size;
    b->header_size = header_size;
    b->target_count = target_count;
    b->targets = targets;
    for (uint32_t i = 0; i < target_count && !rc; i++) {
        set_ctx(&c, 0, "%s", "");
        rc = rd_target(&c, &targets[i], i ? &targets[i - 1] : NULL);
    }
    set_ctx(&c, 0, "%s", "");
    if (!rc && c.pos != header_size)
        rc = corrupt(&c, DGPB_ERR_CORRUPT_RANGE, c.pos,
                     "header_size is %u but the tables end at byte %zu", header_size, c.pos);
    if (!rc && c.data_end_max != c.data_len)
        rc = corrupt(&c, DGPB_ERR_CORRUPT_RANGE, header_size + (size_t)c.data_end_max,
                     "%zu bytes after the last blob (the data section must end with it)",
                     (size_t)(c.data_len - c.data_end_max));
    if (!rc)
        rc = rd_options(&c, b);
    if (!rc && (flags & DGPB_OPEN_VERIFY_SHA256))
        rc = verify_all(b, diag);
    if (rc) {
        dgpb_bundle_close(b);
        return rc;
    }
    *out = b;
    return DGPB_OK;
}

void dgpb_bundle_close(dgpb_bundle *b)
{
    if (!b)
        return;
    free_targets(b->targets, b->target_count);
    dgpb_free(b);
}

uint32_t dgpb_bundle_version(const dgpb_bundle *b)
{
    (void)b;
    return DGPB_FORMAT_VERSION;
}

uint32_t dgpb_bundle_header_size(const dgpb_bundle *b)
{
    return b->header_size;
}

uint32_t dgpb_bundle_data_size(const dgpb_bundle *b)
{
    return (uint32_t)(b->size - b->header_size);
}

size_t dgpb_bundle_size(const dgpb_bundle *b)
{
    return b->size;
}

uint32_t dgpb_bundle_target_count(const dgpb_bundle *b)
{
    return b->target_count;
}

const dgpb_target_view *dgpb_bundle_target(const dgpb_bundle *b, uint32_t index)
{
    return index < b->target_count ? &b->targets[index] : NULL;
}

bool dgpb_str_eq(dgpb_str a, const char *s)
{
    size_t n = strlen(s);
    return a.len == n && memcmp(a.ptr, s, n) == 0;
}

int dgpb_bundle_find_target(const dgpb_bundle *b, const char *name, const dgpb_target_view **out,
                            dgpb_diag *diag)
{
    for (uint32_t i = 0; i < b->target_count; i++)
        if (dgpb_str_eq(b->targets[i].name, name)) {
            *out = &b->targets[i];
            return DGPB_OK;
        }
    *out = NULL;
    return dgpb_diag_set(diag, DGPB_ERR_NOT_FOUND, -1, "the bundle has no target '%s'", name);
}

int dgpb_bundle_find_backend(const dgpb_bundle *b, uint32_t backend, const dgpb_target_view **out,
                             dgpb_diag *diag)
{
    int target = dgpb_backend_target_id(backend);
    *out = NULL;
    if (target < 0)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "unknown backend %u", backend);
    for (uint32_t i = 0; i < b->target_count; i++)
        if (b->targets[i].id == (uint32_t)target) {
            *out = &b->targets[i];
            return DGPB_OK;
        }
    return dgpb_diag_set(diag, DGPB_ERR_BACKEND, -1,
                         "backend not compiled: the bundle has no '%s' target for %s",
                         dgpb_target_name((uint32_t)target), dgpb_backend_name(backend));
}

int dgpb_target_find_entry(const dgpb_target_view *t, const char *name, const dgpb_entry_view **out,
                           dgpb_diag *diag)
{
    for (uint32_t i = 0; i < t->entry_count; i++)
        if (dgpb_str_eq(t->entries[i].name, name)) {
            *out = &t->entries[i];
            return DGPB_OK;
        }
    *out = NULL;
    return dgpb_diag_set(diag, DGPB_ERR_NOT_FOUND, -1, "target '%.*s' has no entry '%s'",
                         (int)t->name.len, t->name.ptr, name);
}

const dgpb_param_view *dgpb_entry_param(const dgpb_entry_view *e, uint32_t index)
{
    return index < e->param_count ? &e->params[index] : NULL;
}

dgpb_str dgpb_bundle_option(const dgpb_bundle *b, uint32_t option)
{
    if (option >= DGPB_OPTION_COUNT || !b->options[option].len)
        return (dgpb_str){"", 0};
    return b->options[option];
}

bool dgpb_entry_has_capability(const dgpb_entry_view *e, uint32_t cap)
{
    return cap < DGPB_CAP_COUNT && (e->capability_mask >> cap) & 1u;
}

int dgpb_blob_verify(const dgpb_blob_ref *blob, dgpb_diag *diag)
{
    uint8_t sha[DGPB_SHA256_SIZE];
    if (dgpb_sha256(blob->data, blob->size, sha))
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "sha-256 failed");
    if (memcmp(sha, blob->sha256, sizeof sha) != 0) {
        char want[65], got[65];
        dgpb_sha256_hex(blob->sha256, want);
        dgpb_sha256_hex(sha, got);
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT_HASH, -1,
                             "sha-256 mismatch: stored %s, content hashes to %s", want, got);
    }
    return DGPB_OK;
}
