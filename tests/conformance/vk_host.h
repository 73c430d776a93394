/*
 * tests/conformance/vk_host.h - a minimal native Vulkan host for DGPB bundles.
 *
 * The host knows nothing but the bundle: it opens it with the reader
 * library, takes the spirv target (dgpb_bundle_find_backend with
 * DGPB_BACKEND_VULKAN), verifies each code blob's SHA-256 before the driver
 * sees it, and builds everything else from the parameter table: one
 * descriptor set layout per `space` from 0 to the highest (a set no row uses
 * gets an empty layout), one binding per row (the descriptor type from the
 * row's `kind`), each uniform block from the value rows (each value written
 * at its row's `offset` with its row's `size`), and one push-constant range
 * from the value rows of space 0xFFFFFFFF (DGPB_SPACE_LAUNCH: entry-point
 * `uniform` values and [[vk::push_constant]] blocks), written with
 * vkCmdPushConstants at their offsets. It never looks inside the shader.
 * Textures are images of the case's dimension (1D, 2D, 3D, cube, 2D array).
 * Entry points are named "main" (Slang names a single SPIR-V entry point so).
 *
 * A conformance case (cases.h) names its parameters; the host resolves each
 * name through the entry's table and binds by the row it finds, runs the
 * case and compares every output with the expected bytes, word for word.
 *
 * Pipelines are created once per (bundle, entry) and kept: every element
 * count of one kernel runs on one pipeline.
 *
 * Device: the first physical device with a compute queue, or the first whose
 * name contains $DGPB_VK_DEVICE. Headless, Vulkan 1.2 or newer (render cases
 * need dynamic rendering: Vulkan 1.3).
 */
#ifndef DGPB_CONFORMANCE_VK_HOST_H
#define DGPB_CONFORMANCE_VK_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases.h"

typedef struct conf_vk conf_vk;

typedef struct conf_result {
    bool pass;
    bool checked;       /* false when the case only creates a pipeline */
    uint64_t words;     /* 32-bit output words compared */
    uint64_t exact;     /* of which equal to the reference */
    char message[1024]; /* why it failed, or the first differences */
} conf_result;

/*
 * Creates the instance and the device. On failure returns NULL and writes a
 * message into err (naming the package to install when there is no device).
 * Destroy with conf_vk_destroy().
 */
conf_vk *conf_vk_create(char *err, size_t err_size);

/* Releases everything, bundles and pipelines included. NULL is a no-op. */
void conf_vk_destroy(conf_vk *vk);

/* The device's name, and "driver name driver info (driver version)". */
const char *conf_vk_device_name(const conf_vk *vk);
const char *conf_vk_driver(const conf_vk *vk);

/* Pipelines created so far. */
uint32_t conf_vk_pipeline_count(const conf_vk *vk);

/* Runs one case with the bundles of `bundle_dir` (<module>.dgpb) and fills *r. */
void conf_vk_run(conf_vk *vk, const char *bundle_dir, const conf_case *c, conf_result *r);

#endif
