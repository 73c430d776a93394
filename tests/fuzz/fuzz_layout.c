/*
 * fuzz_layout.c - fuzz target for the layout blob reader (dgpb/layout.h).
 *
 * Built as a libFuzzer target with clang and -DDGPB_FUZZ=ON; in every build
 * it is also linked with replay_main.c, which runs its corpus
 * (fixtures/fuzz/layout) as an ordinary test.
 */
#include <stddef.h>
#include <stdint.h>

#include "dgpb/dgpb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dgpb_layout *l = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_layout_open(data, size, &l, &d) == DGPB_OK)
        dgpb_layout_close(l);
    return 0;
}
