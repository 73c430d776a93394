/*
 * fuzz_reader.c - fuzz target for the bundle reader and everything that
 * consumes a validated bundle (JSON view, blob verification).
 *
 * Built as a libFuzzer target with clang and -DDGPB_FUZZ=ON; in every build
 * it is also linked with replay_main.c, which runs the corpus
 * (the golden bundle, fixtures/format/corrupt and fixtures/fuzz/reader) as
 * an ordinary test.
 */
#include <stddef.h>
#include <stdint.h>

#include "dgpb/dgpb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dgpb_bundle *b = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_bundle_open(data, size, DGPB_OPEN_VERIFY_SHA256, &b, &d) != DGPB_OK)
        return 0;
    char *json = NULL;
    if (dgpb_json_view(b, "fuzz", &json, &d) == DGPB_OK)
        dgpb_free(json);
    for (uint32_t i = 0; i < dgpb_bundle_target_count(b); i++) {
        const dgpb_target_view *t = dgpb_bundle_target(b, i);
        for (uint32_t k = 0; k < t->entry_count; k++) {
            dgpb_blob_verify(&t->entries[k].code, &d);
            for (uint32_t p = 0; p < t->entries[k].param_count; p++)
                (void)dgpb_entry_param(&t->entries[k], p)->kind;
        }
    }
    dgpb_bundle_close(b);
    return 0;
}
