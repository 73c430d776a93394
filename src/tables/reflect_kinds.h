/*
 * tables/reflect_kinds.h - a reflected resource's parameter kind, its shape
 * word as the reflection tells it, and on wgsl its WebGPU binding-layout ID
 * (internal; tables/reflect.c's walk calls it for every resource).
 */
#ifndef DGPB_REFLECT_KINDS_H
#define DGPB_REFLECT_KINDS_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define reflect_classify dgpb__reflect_classify
#define reflect_refuse dgpb__reflect_refuse

#include <cjson/cJSON.h>
#include <stddef.h>

#include "code/code_format.h"
#include "tables/reflect.h"

/*
 * Sets r->kind (dgpb_kind, or -1 with the reason in `problem`, `n` bytes),
 * r->shape_word and, on a target whose rows carry WebGPU IDs, r->webgpu_layout
 * for the resource `node` of type `t` (a "resource", "samplerState" or
 * "constantBuffer" type of Slang's reflection JSON), spelled `shape` in
 * messages, on `target` (its name) whose code format's rules are `code`.
 * Kinds the code cannot bind (texel buffers on wgsl and ptx) are refused by
 * name with the rewrite.
 */
void reflect_classify(const code_ops *code, const char *target, dgpb_reflected_param *r,
                      const cJSON *node, const cJSON *t, const char *shape, char *problem,
                      size_t n);

/* Records why a resource has no row on the target: no kind (r->kind -1), and the reason,
   formatted into `problem` (`n` bytes). */
void reflect_refuse(dgpb_reflected_param *r, char *problem, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
