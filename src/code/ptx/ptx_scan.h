/*
 * code/ptx/ptx_scan.h - the kernel parameters and global parameter block that
 * PTX text declares and reads.
 *
 * dgpb-build proves that a bundle's parameter table matches the PTX it ships
 * (tables/binding_proof.h). Slang's CUDA code passes parameters two ways: the
 * entry point's `uniform` parameters are kernel parameters (k_param_0, ...,
 * laid out in the kernel's parameter buffer as cuLaunchKernel copies them),
 * and everything at module scope lives in one constant block,
 * SLANG_globalParams. This reader takes the PTX that nvcc writes and reports:
 *
 *   - every .entry that has a body (visible or not), with its parameters:
 *     offset in the parameter buffer (each aligned to its .align, or to its
 *     natural size), size, alignment, and whether the kernel body names it;
 *   - whether SLANG_globalParams is declared in .const or .global space, its
 *     byte size, whether any code names it, and the furthest byte a read
 *     [SLANG_globalParams+N] reaches (N plus the width of the ld/st/atom
 *     that reads it, where the instruction says it).
 *
 * Only what these answers need is parsed; instructions are read as tokens,
 * with every bracket balanced. Comments (line and block) are skipped, and so
 * are .section blocks (debug information names symbols without using them).
 * Malformed text (an unterminated comment or string, unbalanced brackets, a
 * stray character, a parameter list or declaration that does not parse, a
 * number out of range, a top-level directive that PTX does not have) is
 * refused with DGPB_ERR_CORRUPT and a message naming the line. Time is
 * linear in the input (parameters are found through a hash table), so a PTX
 * of many megabytes is fine.
 *
 * A body can also take the address of SLANG_globalParams (mov.u64 %rd4,
 * SLANG_globalParams, as nvcc -G writes it) and read through a register;
 * such reads are not in global_params_max_read, which is then a lower bound
 * (global_params_address_taken says so).
 *
 * Ownership: ptx_module_scan() returns one dgpb_ptx_module that owns all its
 * arrays and strings; release it with ptx_module_free().
 */
#ifndef DGPB_PTX_SCAN_H
#define DGPB_PTX_SCAN_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define ptx_find_entry dgpb__ptx_find_entry
#define ptx_kernel dgpb__ptx_kernel
#define ptx_module_free dgpb__ptx_module_free
#define ptx_module_scan dgpb__ptx_module_scan

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Brackets nested deeper than this are refused (DGPB_ERR_LIMIT). */
#define DGPB_PTX_MAX_NESTING 256

typedef struct dgpb_ptx_param {
    char *name;
    uint32_t offset; /* byte offset in the kernel's parameter buffer: each parameter aligned
                        to its .align, or to the natural size of its type (.u32/.f32/.b64/...),
                        as cuLaunchKernel lays them out */
    uint32_t size, align;
    char type[8];    /* its scalar type as PTX spells it (".f32", ".u64", ".b8", ...) */
    uint32_t vector; /* .v2/.v4: the components; 0 for a scalar */
    bool used;       /* the kernel body names it (e.g. [k_param_0+16]) */
} dgpb_ptx_param;

typedef struct dgpb_ptx_entry {
    char *name;
    dgpb_ptx_param *params; /* in declaration order */
    size_t param_count;
} dgpb_ptx_entry;

typedef struct dgpb_ptx_module {
    dgpb_ptx_entry *entries; /* every .entry with a body (visible or not), in order */
    size_t entry_count;
    bool has_global_params;           /* a .const (or .global) declaration of SLANG_globalParams */
    uint64_t global_params_size;      /* its byte size (0 for an extern declaration without one) */
    bool global_params_used;          /* named anywhere outside its declaration and .section data */
    uint64_t global_params_max_read;  /* the largest N + width over [SLANG_globalParams+N]
                                         (width 0 where the instruction does not say); 0 if none */
    bool global_params_address_taken; /* named other than as [SLANG_globalParams] or
                                         [SLANG_globalParams+N] (mov.u64 %rd4,
                                         SLANG_globalParams): reads through that address are
                                         not in global_params_max_read */
} dgpb_ptx_module;

/*
 * Scans `len` bytes of PTX text (no NUL terminator needed; NUL bytes at the
 * very end, as NVRTC's PTX carries its terminator, are ignored; any other NUL
 * byte is malformed). Returns DGPB_OK with *out set; or, with *out NULL:
 * DGPB_ERR_CORRUPT (malformed, see above), DGPB_ERR_LIMIT (brackets nested
 * deeper than DGPB_PTX_MAX_NESTING, or a kernel's parameters over 4 GiB),
 * DGPB_ERR_NOMEM, DGPB_ERR_INVALID (NULL out, or NULL text with len > 0).
 * The diagnostic's `line` and `offset` are set on malformed input and its
 * message starts "malformed PTX: line N: ".
 */
int ptx_module_scan(const char *text, size_t len, dgpb_ptx_module **out, dgpb_diag *diag);

/* Releases a module and everything it owns. NULL is a no-op. */
void ptx_module_free(dgpb_ptx_module *m);

/* The entry named `name`, or NULL (also for a NULL module or name). */
const dgpb_ptx_entry *ptx_find_entry(const dgpb_ptx_module *m, const char *name);

/*
 * The kernel of a bundle entry named `name` in its PTX (docs/format.md, the
 * ptx target): the .entry of that name, or else the module's only .entry.
 * Each entry's PTX is compiled from that entry alone, and Slang's CUDA code
 * keeps the entry's name unless C++ reserves it: an entry `main` is the
 * kernel `main_0`. NULL when neither (also for a NULL module or name).
 */
const dgpb_ptx_entry *ptx_kernel(const dgpb_ptx_module *m, const char *name);

#ifdef __cplusplus
}
#endif

#endif
