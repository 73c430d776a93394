/*
 * tests/conformance/case_run.h - runs a conformance case (cases.h) through
 * the runner library (dgpb/run.h) and compares its outputs with the C
 * references, word for word.
 *
 * A case becomes one run request: its entry (or vertex and fragment pair),
 * invocations, dispatches, and every parameter BY NAME with its input bytes,
 * texture description or value bytes. The runner binds them through the
 * bundle's parameter table; this file only compares what it reads back. The
 * Vulkan (run_vulkan.c) and CUDA (tests/gpu/cuda_run.c) conformance programs
 * share it.
 */
#ifndef DGPB_CONFORMANCE_CASE_RUN_H
#define DGPB_CONFORMANCE_CASE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases.h"
#include "dgpb/run.h"

typedef struct conf_result {
    bool pass;
    bool checked;       /* false when the case only creates a pipeline */
    int code;           /* the runner's result: DGPB_OK when the case ran */
    uint64_t words;     /* 32-bit output words compared */
    uint64_t exact;     /* of which equal to the reference */
    char message[1024]; /* why it failed, or the first differences */
} conf_result;

/* Runs case `c` with the bundle <bundle_dir>/<module>.dgpb and fills *r. */
void conf_run_case(dgpb_runner *runner, const char *bundle_dir, const conf_case *c, conf_result *r);

#endif
