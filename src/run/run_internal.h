/*
 * src/run/run_internal.h - what the runner (run.c) and its hosts (vulkan.c,
 * cuda.c) share: the host operations, and a failure helper that keeps the
 * first diagnostic of a run.
 */
#ifndef DGPB_RUN_INTERNAL_H
#define DGPB_RUN_INTERNAL_H

#include "dgpb/run.h"

/* One host's operations. `host` is the host's own state. */
typedef struct run_host_ops {
    void (*destroy)(void *host);
    const char *(*device_name)(const void *host);
    const char *(*driver)(const void *host);
    uint32_t (*pipeline_count)(const void *host);
    /*
     * Runs a request already checked by dgpb_run_check (rows[i] is the row of
     * req->params[i], NULL for an attachment). `key` names the bundle (its
     * path) for caches; entries[1] is the fragment entry of a render request.
     */
    int (*run)(void *host, const char *key, const dgpb_entry_view *const *entries,
               const dgpb_run_request *req, const dgpb_param_view *const *rows,
               dgpb_run_result *res, dgpb_diag *d);
} run_host_ops;

int run_vulkan_create(const dgpb_runner_desc *desc, void **host, const run_host_ops **ops,
                      dgpb_diag *d);
int run_cuda_create(const dgpb_runner_desc *desc, void **host, const run_host_ops **ops,
                    dgpb_diag *d);

/*
 * Records a failure in `d` unless one is already there (the first cause is
 * the one reported) and returns the code stored in `d`.
 */
int run_fail(dgpb_diag *d, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The bytes of a buffer parameter: `size`, or `input_size` when no size is given. */
size_t run_param_bytes(const dgpb_run_param *p);

/* The request parameter named like `row`, or -1 (attachments are never rows). */
int run_param_index(const dgpb_run_request *req, const dgpb_param_view *row);

/* The groups to dispatch for the request and the entry's group size. */
void run_groups(const dgpb_run_request *req, const uint32_t group_size[3], uint32_t out[3]);

#endif
