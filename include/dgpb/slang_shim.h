/*
 * dgpb/slang_shim.h - the replay shim: Slang's reflection ABI answered from a layout blob.
 *
 * libdgpb-slang-shim.so stands in for libslang in a native host built on an
 * RHI that asks Slang for pipeline layouts (slang-rhi): it exports the
 * spReflection* functions that Slang's C++ reflection wrappers
 * (slang::ProgramLayout, TypeLayoutReflection, ...) call, answering each from
 * a recorded layout blob through the replay library (dgpb/layout.h), and the
 * few COM objects such an RHI touches: a global session and a session (for
 * its device set-up) and, for each program, an IComponentType whose layout
 * is the blob's and whose entry-point code is the bundle's blobs, each
 * SHA-256-verified when the program is created. It loads no Slang library
 * and links against none (docs/layout.md, "The replay shim"; docs/host.md).
 *
 *     const dgpb_target_view *t;                 (the device backend's target)
 *     void *program;                             (a slang::IComponentType*)
 *     if (dgpb_create_precompiled_program_from_target(t, 0, &program, &diag))
 *         fail(diag.message);
 *     ... desc.slangGlobalScope = (slang::IComponentType *)program; createShaderProgram(...)
 *     ((slang::IComponentType *)program)->release();
 *
 * A host links the shim instead of libslang; the RHI's calls to
 * slang_createGlobalSession / slang_createGlobalSession2 get the shim's
 * global session. A question outside the set the shim answers
 * (docs/layout.md lists it) stops the process with a message naming the
 * function or the interface slot: a host never runs on a guessed answer.
 *
 * With DGPB_SHIM_LOG=FILE in the environment, the shim appends to FILE the
 * name of each function and interface method the first time it is asked.
 */
#ifndef DGPB_SLANG_SHIM_H
#define DGPB_SLANG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "dgpb/reader.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry point's code: `size` bytes and their SHA-256 (32 bytes) as the bundle stores it. */
typedef struct dgpb_shim_code {
    const void *data;
    size_t size;
    const uint8_t *sha256;
} dgpb_shim_code;

/*
 * createPrecompiledProgram(layout, code blobs): validates the layout blob
 * (dgpb_layout_open()), checks that `code_count` equals its entry-point
 * count, hashes every code blob and compares it with its SHA-256, and stores
 * in *out a new slang::IComponentType (one reference; release() it) that
 * answers from copies of the bytes. `code[i]` is the code of the layout's
 * entry point i. DGPB_ERR_CORRUPT_* for a damaged layout,
 * DGPB_ERR_CORRUPT_HASH naming the entry whose code does not match,
 * DGPB_ERR_INVALID for a count that does not match, DGPB_ERR_NOMEM.
 */
int dgpb_create_precompiled_program(const void *layout, size_t layout_size,
                                    const dgpb_shim_code *code, uint32_t code_count, void **out,
                                    dgpb_diag *diag);

/*
 * The same for a bundle's target: the layout at `layout_index` of the
 * target, its entry points' code taken from the target's entries that name
 * that layout, matched by entry name. DGPB_ERR_NOT_FOUND when the target has
 * no such layout or an entry point has no entry in the table.
 */
int dgpb_create_precompiled_program_from_target(const dgpb_target_view *t, uint32_t layout_index,
                                                void **out, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
