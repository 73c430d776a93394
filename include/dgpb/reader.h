/*
 * dgpb/reader.h - validates DGPB v0 bytes and gives a host zero-copy views.
 *
 * dgpb_bundle_open() checks the whole bundle before a host touches any of
 * it: magic, version 0, every count, length and offset in bounds (computed
 * without integer overflow), strings non-empty valid UTF-8 without NUL,
 * targets known, sorted and unique, code formats allowed for their target,
 * stages and capability names from the format's tables, capabilities sorted
 * and unique, parameter kinds and flags consistent, webgpu_layout IDs
 * consistent with the kind and target, layout indices in range, blob ranges
 * inside the data section, header_size equal to the end of the tables, no
 * byte after the last blob, and the options record (bytes at the start of
 * the data section that no blob references) well formed. With
 * DGPB_OPEN_VERIFY_SHA256 it also hashes every
 * blob. A failure returns a DGPB_ERR_CORRUPT_* code and a message naming
 * what is wrong and the byte offset where it was found.
 *
 * The reader never reads out of bounds, and allocates at most a small
 * multiple of the input size (every element it indexes occupies input bytes).
 *
 * Views point into the caller's buffer: it must stay alive and unchanged
 * until dgpb_bundle_close(). Strings in views are NOT NUL-terminated; use
 * their `len` (printf("%.*s", (int)s.len, s.ptr)).
 *
 * A host includes this header alone: it brings dgpb/format.h, the vocabulary
 * its views and arguments are numbers of (DGPB_KIND_*, DGPB_BACKEND_*,
 * DGPB_CAP_*, ...), and dgpb/result.h (dgpb_diag, DGPB_ERR_*).
 */
#ifndef DGPB_READER_H
#define DGPB_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/format.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits that the reader enforces (DGPB_ERR_LIMIT beyond them). */
#define DGPB_MAX_STRING 4096u            /* bytes in one string */
#define DGPB_MAX_BUNDLE_SIZE 0xFFFFFFFFu /* offsets are u32 */

/* Open flags. */
#define DGPB_OPEN_VERIFY_SHA256 0x1u /* hash every blob while opening */

typedef struct dgpb_str {
    const char *ptr; /* into the bundle; not NUL-terminated */
    uint32_t len;
} dgpb_str;

typedef struct dgpb_blob_ref {
    uint32_t offset; /* relative to the data section */
    uint32_t size;
    const uint8_t *sha256; /* 32 bytes, into the bundle */
    const uint8_t *data;   /* `size` bytes, into the bundle */
} dgpb_blob_ref;

typedef struct dgpb_param_view {
    dgpb_str name;
    uint32_t kind;
    uint32_t flags;
    uint32_t space;
    uint32_t binding;
    uint32_t offset;
    uint32_t size;
    uint32_t webgpu_layout;
} dgpb_param_view;

typedef struct dgpb_entry_view {
    dgpb_str name;
    dgpb_str stage;
    uint32_t stage_id; /* dgpb_stage */
    uint32_t layout;
    dgpb_blob_ref code;
    uint32_t thread_group_size[3];
    uint32_t param_count;
    const dgpb_param_view *params;
    uint32_t capability_count;
    const dgpb_str *capabilities;
    uint64_t capability_mask; /* bit (UINT64_C(1) << dgpb_capability) per capability */
} dgpb_entry_view;

typedef struct dgpb_target_view {
    dgpb_str name;
    uint32_t id; /* dgpb_target_id */
    dgpb_str code_format;
    uint32_t code_format_id; /* dgpb_code_format */
    uint32_t layout_count;
    const dgpb_blob_ref *layouts;
    uint32_t entry_count;
    const dgpb_entry_view *entries;
} dgpb_target_view;

typedef struct dgpb_bundle dgpb_bundle;

/*
 * Validates `size` bytes at `data` and, on success, stores a new handle in
 * *out. On failure *out is NULL and `diag` names the problem and its byte
 * offset. The bytes are borrowed (see above).
 */
int dgpb_bundle_open(const void *data, size_t size, uint32_t flags, dgpb_bundle **out,
                     dgpb_diag *diag);

/* Releases the handle (never the caller's bytes). NULL is a no-op. */
void dgpb_bundle_close(dgpb_bundle *b);

/* Header fields. */
uint32_t dgpb_bundle_version(const dgpb_bundle *b);
uint32_t dgpb_bundle_header_size(const dgpb_bundle *b);
uint32_t dgpb_bundle_data_size(const dgpb_bundle *b);
size_t dgpb_bundle_size(const dgpb_bundle *b);

uint32_t dgpb_bundle_target_count(const dgpb_bundle *b);
/* The target at `index` (sorted by name), or NULL when out of range. */
const dgpb_target_view *dgpb_bundle_target(const dgpb_bundle *b, uint32_t index);

/* Finds a target by name. DGPB_ERR_NOT_FOUND when absent. */
int dgpb_bundle_find_target(const dgpb_bundle *b, const char *name, const dgpb_target_view **out,
                            dgpb_diag *diag);

/*
 * Finds the target a backend consumes (DGPB_BACKEND_VULKAN -> "spirv", ...).
 * DGPB_ERR_BACKEND ("backend not compiled") when the bundle has none.
 */
int dgpb_bundle_find_backend(const dgpb_bundle *b, uint32_t backend, const dgpb_target_view **out,
                             dgpb_diag *diag);

/* Finds an entry of a target by name. DGPB_ERR_NOT_FOUND when absent. */
int dgpb_target_find_entry(const dgpb_target_view *t, const char *name, const dgpb_entry_view **out,
                           dgpb_diag *diag);

/* The parameter at `index` (what a Bind command carries), or NULL when out of range. */
const dgpb_param_view *dgpb_entry_param(const dgpb_entry_view *e, uint32_t index);

/*
 * The value a bundle records for project option `option` (dgpb_option:
 * DGPB_OPTION_MATRIX_LAYOUT, ...; docs/format.md, "The options record"), or
 * a string of length 0 when it records none: the option's default (row-major
 * matrices, Slang's default SPIR-V version, no extra Slang capabilities).
 * The values are checked by dgpb_option_rule() when the bundle is opened.
 */
dgpb_str dgpb_bundle_option(const dgpb_bundle *b, uint32_t option);

/* True when the entry lists capability `cap` (dgpb_capability). */
bool dgpb_entry_has_capability(const dgpb_entry_view *e, uint32_t cap);

/*
 * Hashes the blob and compares it with its stored SHA-256. Hosts call this
 * before handing code to a driver. DGPB_ERR_CORRUPT_HASH on mismatch.
 */
int dgpb_blob_verify(const dgpb_blob_ref *blob, dgpb_diag *diag);

/* True when a view string equals the NUL-terminated `s`. */
bool dgpb_str_eq(dgpb_str a, const char *s);

#ifdef __cplusplus
}
#endif

#endif
