/*
 * code/capabilities.h - an entry's capabilities from what its code
 * declares, through vocabulary.def's DGPB_CODE_FEATURE rows (docs/format.md,
 * "Capabilities"; docs/design.md, section 5), and their proof in a bundle.
 *
 * Each feature the code declares (code/code_features.h) maps to a
 * capability, or to CORE (every device of the target has it); one that maps
 * to NONE or has no row is a module error (DGPB_ERR_SHADER) naming the
 * target, the entry and the feature. A ray-tracing stage adds its
 * capability (DGPB_STAGE's CAP).
 */
#ifndef DGPB_CAPABILITIES_H
#define DGPB_CAPABILITIES_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define capability_proof dgpb__capability_proof
#define code_capabilities dgpb__code_capabilities
#define code_feature_capability dgpb__code_feature_capability
#define code_feature_name dgpb__code_feature_name
#define entry_capabilities dgpb__entry_capabilities

#include <stdbool.h>
#include <stdint.h>

#include "dgpb/format.h"
#include "dgpb/reader.h"
#include "dgpb/result.h"
#include "code/code_features.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one entry's capabilities are found from. */
typedef struct dgpb_capability_input {
    dgpb_target_id target; /* the entry's target: named in messages */
    const char *entry;     /* its name */
    uint32_t stage;        /* dgpb_stage */
    /* The code's features and its format: the target's own code (SPIR-V, WGSL, PTX), or for
       targets without a reader the SPIR-V analysis probe's (probe: messages say so). */
    dgpb_code_format format;
    const dgpb_code_features *features;
    bool probe;
} dgpb_capability_input;

/*
 * The capability of a feature of `format`'s code: DGPB_CAP_* (>= 0), or
 * DGPB_CODE_FEATURE_CORE, or DGPB_CODE_FEATURE_REFUSED (a row that maps to
 * NONE, or no row).
 */
#define DGPB_CODE_FEATURE_CORE (-1)
#define DGPB_CODE_FEATURE_REFUSED (-2)
int code_feature_capability(dgpb_code_format format, const dgpb_code_feature *f);

/* The feature's name in the table ("Float64"), or NULL when no row names it. */
const char *code_feature_name(dgpb_code_format format, const dgpb_code_feature *f);

/*
 * *mask = the entry's capabilities (bit UINT64_C(1) << DGPB_CAP_*). A refused feature
 * fails with DGPB_ERR_SHADER: "target 'spirv', entry 'k': its code declares
 * SPIR-V capability Geometry (2), which no dgpb capability names ...".
 */
int entry_capabilities(const dgpb_capability_input *in, uint64_t *mask, dgpb_diag *d);

/* Reads the features of `code` in `format` and maps them (entry_capabilities). */
int code_capabilities(dgpb_target_id target, const char *entry, uint32_t stage,
                      dgpb_code_format format, const uint8_t *code, size_t size, uint64_t *mask,
                      dgpb_diag *d);

/*
 * The proof of a bundle's capabilities: every entry of a target whose code
 * has a reader (spirv, wgsl, ptx) lists exactly the capabilities its
 * shipped code maps to. DGPB_ERR_SHADER naming the target, entry and the
 * capabilities that differ.
 */
int capability_proof(const dgpb_bundle *bundle, dgpb_diag *d);

#ifdef __cplusplus
}
#endif

#endif
