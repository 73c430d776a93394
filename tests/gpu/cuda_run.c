/*
 * tests/gpu/cuda_run.c - cuda-run: the conformance cases
 * (tests/conformance/cases.h) from the ptx target of their bundles, through
 * the runner library's CUDA host (dgpb/run.h, src/run/cuda.c: the CUDA
 * driver API, libcuda loaded at run time, so the program builds anywhere).
 *
 *   cuda-run BUNDLE_DIR [CASE...]
 *
 * Prints one line per case and a closing "N passed, N failed". A render
 * case, a bundle without a ptx target and an entry the ptx target lacks are
 * not applicable. $DGPB_CUDA_DEVICE picks a device by index or name.
 * Exit status 0 when every case that applies passed, 1 otherwise (no libcuda
 * or no device included), 2 on a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "case_run.h"
#include "cases.h"
#include "dgpb/format.h"

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: cuda-run BUNDLE_DIR [CASE...]\n");
        return 2;
    }
    dgpb_runner_desc desc = {.backend = DGPB_BACKEND_CUDA, .device = getenv("DGPB_CUDA_DEVICE")};
    dgpb_runner *cuda = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_runner_create(&desc, &cuda, &d)) {
        fprintf(stderr, "cuda-run: %s\n", d.message);
        return 1;
    }
    printf("device: %s\n", dgpb_runner_device_name(cuda));
    conf_suite suite = {0};
    if (conf_suite_build(&suite)) {
        fprintf(stderr, "cuda-run: out of memory building the cases\n");
        dgpb_runner_destroy(cuda);
        return 1;
    }
    unsigned passed = 0, failed = 0, na = 0;
    for (size_t i = 0; i < suite.count; i++) {
        const conf_case *c = &suite.cases[i];
        bool wanted = argc == 2;
        for (int a = 2; a < argc; a++)
            wanted |= !strcmp(argv[a], c->name);
        if (!wanted)
            continue;
        conf_result r;
        if (c->type == CONF_RENDER) {
            na++;
            printf("%s: not applicable (a render case)\n", c->name);
            continue;
        }
        conf_run_case(cuda, argv[1], c, &r);
        if (r.code == DGPB_ERR_BACKEND || r.code == DGPB_ERR_NOT_FOUND) {
            na++;
            printf("%s: not applicable (no ptx entry)\n", c->name);
        } else if (r.pass) {
            passed++;
            printf("%s: %llu elements, %llu/%llu words exact\n", c->name,
                   (unsigned long long)c->elements, (unsigned long long)r.exact,
                   (unsigned long long)r.words);
        } else {
            failed++;
            printf("%s: FAILED %llu/%llu words exact; %s\n", c->name, (unsigned long long)r.exact,
                   (unsigned long long)r.words, r.message);
        }
        fflush(stdout);
    }
    conf_suite_free(&suite);
    dgpb_runner_destroy(cuda);
    printf("not applicable: %u\n%u passed, %u failed\n", na, passed, failed);
    return failed ? 1 : 0;
}
