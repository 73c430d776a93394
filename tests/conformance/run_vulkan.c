/*
 * tests/conformance/run_vulkan.c - conformance-vulkan: every case on a Vulkan device.
 *
 *   conformance-vulkan BUNDLE_DIR [CASE...]
 *
 * Runs every case of cases.c (or those named) with the bundles in
 * BUNDLE_DIR through the runner library's Vulkan host (dgpb/run.h, via
 * case_run.c), prints one line per case and a
 * closing "N passed, N failed". Exit status 0 when every case passed, 1
 * otherwise, 2 on a usage error. No device is a failure, never a skip
 * (docs/conformance.md). $DGPB_VK_DEVICE picks the first device whose name
 * contains it.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <stdlib.h>

#include "case_run.h"
#include "cases.h"
#include "dgpb/format.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int selected(const conf_case *c, int argc, char **argv)
{
    if (argc <= 2)
        return 1;
    for (int i = 2; i < argc; i++)
        if (!strcmp(argv[i], c->name))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || argv[1][0] == '-') {
        fprintf(stderr, "usage: conformance-vulkan BUNDLE_DIR [CASE...]\n");
        return 2;
    }
    conf_suite suite;
    if (conf_suite_build(&suite)) {
        fprintf(stderr, "conformance-vulkan: out of memory building the cases\n");
        return 1;
    }
    dgpb_runner_desc desc = {.backend = DGPB_BACKEND_VULKAN, .device = getenv("DGPB_VK_DEVICE")};
    dgpb_runner *vk = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_runner_create(&desc, &vk, &d)) {
        fprintf(stderr, "conformance-vulkan: error: %s\n", d.message);
        printf("0 passed, %zu failed\n", suite.count);
        conf_suite_free(&suite);
        return 1;
    }
    printf("device: %s\ndriver: %s\n", dgpb_runner_device_name(vk), dgpb_runner_driver(vk));
    unsigned passed = 0, failed = 0;
    double start = now();
    for (size_t i = 0; i < suite.count; i++) {
        const conf_case *c = &suite.cases[i];
        if (!selected(c, argc, argv))
            continue;
        conf_result r;
        double t0 = now();
        conf_run_case(vk, argv[1], c, &r);
        double ms = (now() - t0) * 1000.0;
        if (r.pass && r.checked)
            printf("%s: %llu elements, %llu/%llu words exact (%.0f ms)\n", c->name,
                   (unsigned long long)c->elements, (unsigned long long)r.exact,
                   (unsigned long long)r.words, ms);
        else if (r.pass)
            printf("%s: pipeline created (%.0f ms)\n", c->name, ms);
        else if (r.checked)
            printf("%s: FAILED: %llu elements, %llu/%llu words exact: %s\n", c->name,
                   (unsigned long long)c->elements, (unsigned long long)r.exact,
                   (unsigned long long)r.words, r.message);
        else
            printf("%s: FAILED: %s\n", c->name, r.message);
        fflush(stdout);
        if (r.pass)
            passed++;
        else
            failed++;
    }
    printf("%u pipelines, %.1f s\n", dgpb_runner_pipeline_count(vk), now() - start);
    printf("%u passed, %u failed\n", passed, failed);
    dgpb_runner_destroy(vk);
    conf_suite_free(&suite);
    return failed || !passed ? 1 : 0;
}
