/*
 * writer.c - DGPB v0 serialisation (bundle/writer.h; layout in docs/format.md).
 *
 * The header tables are written into one buffer and the blobs into another.
 * A blob's offset is relative to the data section, so it is known as soon as
 * the blob is first referenced: no second pass and no fix-ups beyond the
 * header_size field. The data section starts with the options record when
 * the model records a project option (docs/format.md, "The options record"),
 * so the blobs' offsets start after it. The writer counts the distinct blobs
 * it places, by the kind of reference that placed each, for
 * bundle_write_ex()'s stats.
 */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/format.h"
#include "dgpb/reader.h"
#include "dgpb/sha256.h"
#include "bundle/writer.h"
#include "bundle/model_internal.h"

/* A blob already placed in the data section. */
typedef struct placed_blob {
    uint8_t sha[DGPB_SHA256_SIZE];
    const uint8_t *data;
    uint32_t size;
    uint32_t offset;
} placed_blob;

/* What references a blob. */
enum blob_use { BLOB_LAYOUT, BLOB_CODE };

typedef struct writer {
    dgpb_bytebuf head;
    dgpb_bytebuf data;
    placed_blob *blobs;
    size_t blob_count;
    size_t blob_cap;
    uint32_t code_blob_count;   /* distinct blobs placed by an entry's code */
    uint32_t layout_blob_count; /* distinct blobs placed by a target's layout */
} writer;

/* Writes a blob reference, storing the blob's bytes once per distinct content. */
static int put_blob(writer *w, const dgpb_mblob *b, enum blob_use use, dgpb_diag *diag)
{
    uint8_t sha[DGPB_SHA256_SIZE];
    if (dgpb_sha256(b->data, b->size, sha))
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "sha-256 failed");
    const placed_blob *found = NULL;
    for (size_t i = 0; i < w->blob_count && !found; i++) {
        const placed_blob *p = &w->blobs[i];
        if (p->size == b->size && memcmp(p->sha, sha, sizeof sha) == 0 &&
            memcmp(p->data, b->data, b->size) == 0)
            found = p;
    }
    if (!found) {
        if (w->data.len + b->size > UINT32_MAX)
            return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                                 "data section exceeds 4 GiB (u32 offsets)");
        placed_blob *grown = mem_grow(w->blobs, w->blob_count, &w->blob_cap, sizeof *grown, 16);
        if (!grown)
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        w->blobs = grown;
        placed_blob *p = &w->blobs[w->blob_count++];
        memcpy(p->sha, sha, sizeof sha);
        p->data = b->data;
        p->size = (uint32_t)b->size;
        p->offset = (uint32_t)w->data.len;
        bytebuf_append(&w->data, b->data, b->size);
        if (use == BLOB_CODE)
            w->code_blob_count++;
        else
            w->layout_blob_count++;
        found = p;
    }
    bytebuf_u32(&w->head, found->offset);
    bytebuf_u32(&w->head, found->size);
    bytebuf_append(&w->head, found->sha, DGPB_SHA256_SIZE);
    return DGPB_OK;
}

static void put_cstr(dgpb_bytebuf *b, const char *s)
{
    bytebuf_str(b, s, strlen(s));
}

static int cmp_target(const void *a, const void *b)
{
    const dgpb_mtarget *x = *(const dgpb_mtarget *const *)a;
    const dgpb_mtarget *y = *(const dgpb_mtarget *const *)b;
    return strcmp(x->name, y->name); /* byte order, as the reader checks */
}

static int put_entry(writer *w, const dgpb_mentry *e, dgpb_diag *diag)
{
    put_cstr(&w->head, e->name);
    put_cstr(&w->head, dgpb_stage_name(e->stage));
    bytebuf_u32(&w->head, e->layout);
    int rc = put_blob(w, &e->code, BLOB_CODE, diag);
    if (rc)
        return rc;
    for (int i = 0; i < 3; i++)
        bytebuf_u32(&w->head, e->thread_group_size[i]); /* thread_group_size */
    bytebuf_u32(&w->head, e->param_count);
    for (uint32_t i = 0; i < e->param_count; i++) {
        const dgpb_param_desc *p = &e->params[i];
        put_cstr(&w->head, p->name);
        const uint32_t fields[7] = {p->kind,   p->flags, p->space,        p->binding,
                                    p->offset, p->size,  p->webgpu_layout};
        for (int k = 0; k < 7; k++)
            bytebuf_u32(&w->head, fields[k]);
    }
    bytebuf_u32(&w->head, e->cap_count);
    for (uint32_t i = 0; i < e->cap_count; i++)
        put_cstr(&w->head, dgpb_capability_name(e->caps[i]));
    return DGPB_OK;
}

/*
 * The options record, first in the data section when the model records any
 * option (docs/format.md, "The options record"): "DGPO", the count, then each
 * option's name and value, in the order of their names.
 */
static void put_options(writer *w, const dgpb_model *m)
{
    uint32_t count = 0;
    for (int i = 0; i < DGPB_OPTION_COUNT; i++)
        count += m->options[i] != NULL;
    if (!count)
        return;
    bytebuf_append(&w->data, DGPB_OPTIONS_MAGIC, 4);
    bytebuf_u32(&w->data, count);
    for (int i = 0; i < DGPB_OPTION_COUNT; i++)
        if (m->options[i]) {
            put_cstr(&w->data, dgpb_option_name((uint32_t)i));
            put_cstr(&w->data, m->options[i]);
        }
}

int bundle_write(const dgpb_model *m, uint8_t **out, size_t *out_size, dgpb_diag *diag)
{
    return bundle_write_ex(m, out, out_size, NULL, diag);
}

int bundle_write_ex(const dgpb_model *m, uint8_t **out, size_t *out_size, dgpb_write_stats *stats,
                    dgpb_diag *diag)
{
    *out = NULL;
    *out_size = 0;
    if (stats)
        memset(stats, 0, sizeof *stats);
    int rc = model_check(m, diag);
    if (rc)
        return rc;
    writer w = {DGPB_BYTEBUF_INIT, DGPB_BYTEBUF_INIT, NULL, 0, 0, 0, 0};
    const dgpb_mtarget **order = mem_calloc(m->target_count, sizeof *order);
    if (!order)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    for (uint32_t i = 0; i < m->target_count; i++)
        order[i] = &m->targets[i];
    qsort(order, m->target_count, sizeof *order, cmp_target);
    put_options(&w, m);

    bytebuf_append(&w.head, DGPB_MAGIC, 4);
    bytebuf_u32(&w.head, DGPB_FORMAT_VERSION);
    bytebuf_u32(&w.head, 0); /* header_size, patched below */
    bytebuf_u32(&w.head, m->target_count);
    for (uint32_t ti = 0; ti < m->target_count && !rc; ti++) {
        const dgpb_mtarget *t = order[ti];
        put_cstr(&w.head, t->name);
        put_cstr(&w.head, t->code_format);
        bytebuf_u32(&w.head, t->layout_count);
        for (uint32_t i = 0; i < t->layout_count && !rc; i++)
            rc = put_blob(&w, &t->layouts[i], BLOB_LAYOUT, diag);
        bytebuf_u32(&w.head, t->entry_count);
        for (uint32_t i = 0; i < t->entry_count && !rc; i++)
            rc = put_entry(&w, &t->entries[i], diag);
    }
    if (!rc && (w.head.failed || w.data.failed))
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    if (!rc && (uint64_t)w.head.len + w.data.len > DGPB_MAX_BUNDLE_SIZE)
        rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "bundle exceeds 4 GiB (u32 offsets)");
    if (!rc) {
        uint32_t header_size = (uint32_t)w.head.len;
        uint8_t little_endian[4] = {(uint8_t)header_size, (uint8_t)(header_size >> 8),
                                    (uint8_t)(header_size >> 16), (uint8_t)(header_size >> 24)};
        memcpy(w.head.data + 8, little_endian, 4);
        bytebuf_append(&w.head, w.data.data, w.data.len);
        if (w.head.failed)
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        else
            *out = bytebuf_take(&w.head, out_size);
    }
    if (!rc && stats) {
        stats->blob_count = (uint32_t)w.blob_count;
        stats->code_blob_count = w.code_blob_count;
        stats->layout_blob_count = w.layout_blob_count;
        stats->data_size = w.data.len;
    }
    bytebuf_free(&w.head);
    bytebuf_free(&w.data);
    dgpb_free(w.blobs);
    dgpb_free(order);
    return rc;
}
