/*
 * capabilities.c - an entry's capabilities from what its code declares, and
 * their proof (code/capabilities.h).
 */
#include <stdio.h>
#include <string.h>

#include "code/capabilities.h"
#include "code/code_format.h"

/* A row's CAP column as a number: DGPB_CAP_*, or CORE and NONE (refused). */
#define CAP_VALUE_CORE DGPB_CODE_FEATURE_CORE
#define CAP_VALUE_NONE DGPB_CODE_FEATURE_REFUSED
enum {
#define DGPB_CAPABILITY(ID, value, name, webgpu_feature) CAP_VALUE_##ID = value,
#include "dgpb/vocabulary.def"
};

/* The rows of vocabulary.def's DGPB_CODE_FEATURE table. */
typedef struct feature_row {
    dgpb_code_format format;
    uint32_t number;
    const char *name;
    int cap;
} feature_row;

static const feature_row rows[] = {
#define DGPB_CODE_FEATURE(TARGET, number, name, CAP)                                               \
    {DGPB_CODE_FORMAT_##TARGET, number, name, CAP_VALUE_##CAP},
#include "dgpb/vocabulary.def"
};

/* The row of a feature: SPIR-V by number; WGSL `enable` and PTX by name. */
static const feature_row *row_of(dgpb_code_format format, const dgpb_code_feature *f)
{
    const code_ops *ops = code_ops_of(format);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (rows[i].format != format)
            continue;
        if (ops->feature_is(f, rows[i].number, rows[i].name))
            return &rows[i];
    }
    return NULL;
}

int code_feature_capability(dgpb_code_format format, const dgpb_code_feature *f)
{
    const feature_row *r = row_of(format, f);
    return r ? r->cap : DGPB_CODE_FEATURE_REFUSED;
}

const char *code_feature_name(dgpb_code_format format, const dgpb_code_feature *f)
{
    const feature_row *r = row_of(format, f);
    return r ? r->name : NULL;
}

/* The capability each stage's entries need (DGPB_STAGE's CAP). */
static const int stage_needs[DGPB_STAGE_COUNT] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP) [value] = CAP_VALUE_##CAP,
#include "dgpb/vocabulary.def"
};

/* "SPIR-V capability Geometry (2)", "WGSL `enable chromium_x`", "PTX `.target sm_90`". */
static void describe(dgpb_code_format format, const dgpb_code_feature *f, char *out, size_t size)
{
    code_ops_of(format)->feature_describe(f, code_feature_name(format, f), out, size);
}

int entry_capabilities(const dgpb_capability_input *in, uint64_t *mask, dgpb_diag *d)
{
    *mask = 0;
    for (size_t i = 0; in->features && i < in->features->count; i++) {
        const dgpb_code_feature *f = &in->features->items[i];
        int cap = code_feature_capability(in->format, f);
        if (cap >= 0) {
            *mask |= UINT64_C(1) << cap;
            continue;
        }
        if (cap == DGPB_CODE_FEATURE_CORE)
            continue;
        char what[160];
        describe(in->format, f, what, sizeof what);
        bool known = code_feature_name(in->format, f) != NULL;
        return dgpb_diag_set(
            d, DGPB_ERR_SHADER, -1,
            "target '%s', entry '%s': its %s declares %s, which %s (docs/format.md, "
            "\"Capabilities\"); keep the feature out of this target with a DREAM_TARGET_* "
            "guard, or leave the target out of --targets",
            dgpb_target_name(in->target), in->entry, in->probe ? "SPIR-V analysis probe" : "code",
            what,
            known ? "no dgpb capability names, so no host could check that its device has it"
                  : "dgpb's capability table does not list, so no host could check that its "
                    "device has it");
    }
    if (in->stage < DGPB_STAGE_COUNT && stage_needs[in->stage] >= 0)
        *mask |= UINT64_C(1) << stage_needs[in->stage];
    return DGPB_OK;
}

int code_capabilities(dgpb_target_id target, const char *entry, uint32_t stage,
                      dgpb_code_format format, const uint8_t *code, size_t size, uint64_t *mask,
                      dgpb_diag *d)
{
    dgpb_code_features f;
    *mask = 0;
    int rc = code_features_read(format, code, size, &f, d);
    if (rc) {
        char why[sizeof d->message];
        snprintf(why, sizeof why, "%s", d->message);
        return dgpb_diag_set(d, rc, d->offset,
                             "target '%s', entry '%s': reading the features its code declares: "
                             "%s",
                             dgpb_target_name(target), entry, why);
    }
    dgpb_capability_input in = {
        .target = target, .entry = entry, .stage = stage, .format = format, .features = &f};
    rc = entry_capabilities(&in, mask, d);
    code_features_clear(&f);
    return rc;
}

/* The names of the capabilities in `mask`, separated by ", " ("none" for none). */
static void names(uint64_t mask, char *out, size_t size)
{
    size_t n = 0;
    out[0] = 0;
    for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++)
        if (mask & (UINT64_C(1) << c)) {
            int k = snprintf(out + n, size - n, "%s%s", n ? ", " : "", dgpb_capability_name(c));
            if (k < 0 || (size_t)k >= size - n)
                return;
            n += (size_t)k;
        }
    if (!n)
        snprintf(out, size, "none");
}

int capability_proof(const dgpb_bundle *bundle, dgpb_diag *d)
{
    for (uint32_t t = 0; t < dgpb_bundle_target_count(bundle); t++) {
        const dgpb_target_view *tv = dgpb_bundle_target(bundle, t);
        dgpb_code_format format = (dgpb_code_format)tv->code_format_id;
        if (!code_ops_of(format)->reads_features)
            continue;
        for (uint32_t i = 0; i < tv->entry_count; i++) {
            const dgpb_entry_view *e = &tv->entries[i];
            char entry[256];
            snprintf(entry, sizeof entry, "%.*s", (int)e->name.len, e->name.ptr);
            uint64_t mask;
            int rc = code_capabilities((dgpb_target_id)tv->id, entry, e->stage_id, format,
                                       e->code.data, e->code.size, &mask, d);
            if (rc)
                return rc;
            if (mask == e->capability_mask)
                continue;
            char listed[512], derived[512];
            names(e->capability_mask, listed, sizeof listed);
            names(mask, derived, sizeof derived);
            return dgpb_diag_set(d, DGPB_ERR_SHADER, -1,
                                 "target '%s', entry '%s': the bundle lists capabilities %s, "
                                 "but its code declares what maps to %s",
                                 dgpb_target_name(tv->id), entry, listed, derived);
        }
    }
    return DGPB_OK;
}
