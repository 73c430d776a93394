/*
 * webgpu_limits.c - WebGPU's per-stage limits per pipeline group (tables/webgpu_limits.h).
 * The names WGSL reserves are in wgsl_names.c.
 */
#include "tables/webgpu_limits.h"

#include "core/alloc.h"
#include "dgpb/format.h"

/* The classes of WebGPU's per-stage limits (dgpb/vocabulary.def, DGPB_WEBGPU_LIMIT). */
enum {
#define DGPB_WEBGPU_LIMIT(ID, name, max) CLASS_##ID,
#include "dgpb/vocabulary.def"
    CLASS_NONE,
    CLASS_COUNT
};

static const struct {
    const char *name;
    unsigned limit;
} classes[CLASS_NONE] = {
#define DGPB_WEBGPU_LIMIT(ID, name, max) [CLASS_##ID] = {name, max},
#include "dgpb/vocabulary.def"
};

/* The limit each binding-layout ID counts against (DGPB_WEBGPU_LAYOUT's LIMIT column). */
static const int class_of_id[DGPB_WGPU_COUNT] = {
#define DGPB_WEBGPU_LAYOUT(ID, value, name, LIMIT) [value] = CLASS_##LIMIT,
#include "dgpb/vocabulary.def"
};

/* The limit an ID made from a shape counts against (DGPB_WEBGPU_RANGE's LIMIT column). */
static const struct {
    uint32_t kind;
    int cls;
} class_of_range[] = {
#define DGPB_WEBGPU_RANGE(ID, first, KIND, name, LIMIT) {DGPB_KIND_##KIND, CLASS_##LIMIT},
#include "dgpb/vocabulary.def"
};

static int class_of(uint32_t id)
{
    uint32_t kind;
    if (id < DGPB_WGPU_COUNT)
        return class_of_id[id];
    if (dgpb_webgpu_layout_decode(id, &kind, NULL))
        for (size_t i = 0; i < sizeof class_of_range / sizeof class_of_range[0]; i++)
            if (class_of_range[i].kind == kind)
                return class_of_range[i].cls;
    return CLASS_NONE;
}

/* A combined texture-sampler is a sampled texture and a sampler. */
static bool counts_a_sampler(uint32_t id)
{
    uint32_t kind;
    return dgpb_webgpu_layout_decode(id, &kind, NULL) && kind == DGPB_KIND_TEXTURE_SAMPLER;
}

typedef struct slot {
    uint32_t space, binding, id;
    const char *entry;
} slot;

int webgpu_check_group(const char *group, const char *const *entries,
                       const dgpb_param_table *tables, size_t count, dgpb_diag *diag)
{
    size_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += tables[i].count;
    slot *slots = mem_calloc(total, sizeof *slots);
    if (!slots)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    size_t n = 0;
    unsigned used[CLASS_COUNT] = {0};
    int rc = DGPB_OK;
    for (size_t e = 0; e < count && !rc; e++) {
        for (uint32_t r = 0; r < tables[e].count && !rc; r++) {
            const dgpb_param_desc *p = &tables[e].rows[r];
            if (p->webgpu_layout == DGPB_WGPU_NONE)
                continue;
            char was[128], now[128];
            size_t k = 0;
            while (k < n && (slots[k].space != p->space || slots[k].binding != p->binding))
                k++;
            if (k < n) {
                if (slots[k].id != p->webgpu_layout)
                    rc = dgpb_diag_set(
                        diag, DGPB_ERR_SHADER, -1,
                        "%s: binding %u of group %u is a %s in entry '%s' but a %s in entry "
                        "'%s'; WebGPU needs one descriptor per binding",
                        group, p->binding, p->space,
                        dgpb_webgpu_layout_text(slots[k].id, was, sizeof was), slots[k].entry,
                        dgpb_webgpu_layout_text(p->webgpu_layout, now, sizeof now), entries[e]);
                continue;
            }
            slots[n++] = (slot){p->space, p->binding, p->webgpu_layout, entries[e]};
            used[class_of(p->webgpu_layout)]++;
            used[CLASS_SAMPLERS] += counts_a_sampler(p->webgpu_layout);
        }
    }
    for (int c = 0; c < CLASS_NONE && !rc; c++)
        if (used[c] > classes[c].limit)
            rc = dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                               "%s uses %u %s; WebGPU allows %u per shader stage", group, used[c],
                               classes[c].name, classes[c].limit);
    dgpb_free(slots);
    return rc;
}

/* WebGPU's default limits for one entry (the WebGPU specification's "limits"). */
#define MAX_WORKGROUP_SIZE_X 256u
#define MAX_WORKGROUP_SIZE_Y 256u
#define MAX_WORKGROUP_SIZE_Z 64u
#define MAX_INVOCATIONS 256u
#define MAX_WORKGROUP_STORAGE 16384u

int webgpu_check_entry(const char *entry, uint32_t stage, const uint32_t tgs[3],
                       const dgpb_wgsl_module *code, const dgpb_param_table *table, dgpb_diag *diag)
{
    if (stage == DGPB_STAGE_COMPUTE) {
        static const uint32_t max[3] = {MAX_WORKGROUP_SIZE_X, MAX_WORKGROUP_SIZE_Y,
                                        MAX_WORKGROUP_SIZE_Z};
        static const char axis[3] = {'x', 'y', 'z'};
        for (int i = 0; i < 3; i++)
            if (tgs[i] > max[i])
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "entry '%s': workgroup size %c is %u, above WebGPU's limit "
                                     "of %u (maxComputeWorkgroupSize%c)",
                                     entry, axis[i], tgs[i], max[i], axis[i] - 32);
        uint64_t invocations = (uint64_t)tgs[0] * tgs[1] * tgs[2];
        if (invocations > MAX_INVOCATIONS)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "entry '%s': %u x %u x %u = %llu invocations per workgroup, "
                                 "above WebGPU's limit of %u (maxComputeInvocationsPerWorkgroup)",
                                 entry, tgs[0], tgs[1], tgs[2], (unsigned long long)invocations,
                                 MAX_INVOCATIONS);
        if (code && code->workgroup_bytes > MAX_WORKGROUP_STORAGE)
            return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                 "entry '%s': %s%llu bytes of workgroup (groupshared) memory, "
                                 "above WebGPU's limit of %u (maxComputeWorkgroupStorageSize)",
                                 entry, code->workgroup_bytes_known ? "" : "at least ",
                                 (unsigned long long)code->workgroup_bytes, MAX_WORKGROUP_STORAGE);
    }
    if (stage == DGPB_STAGE_VERTEX) {
        for (uint32_t r = 0; r < table->count; r++) {
            const dgpb_param_desc *p = &table->rows[r];
            if (dgpb_kind_writable(p->kind))
                return dgpb_diag_set(diag, DGPB_ERR_SHADER, -1,
                                     "entry '%s': parameter '%s' is a writable %s in a vertex "
                                     "shader, which WebGPU does not allow; make it read-only "
                                     "(StructuredBuffer, ByteAddressBuffer, Texture2D) or move "
                                     "the write to a compute or fragment shader",
                                     entry, p->name,
                                     p->kind == DGPB_KIND_RW_TEXTURE ? "storage texture"
                                                                     : "storage buffer");
        }
    }
    return DGPB_OK;
}
