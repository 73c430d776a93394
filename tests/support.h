/*
 * support.h - shared pieces of the format tests: the hand-built golden model
 * and helpers to find fields inside written bytes.
 */
#ifndef DGPB_TEST_SUPPORT_H
#define DGPB_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "dgpb/dgpb.h"

/* A small valid compute SPIR-V module whose OpSource names Slang (language 11). */
extern const uint32_t support_spirv_words[];
extern const size_t support_spirv_word_count;

/* Builds the golden model: targets wgsl and spirv (added in that order), dedup, layouts. */
dgpb_model *support_golden_model(void);

/* Writes the golden model; aborts the test program on failure. Free with dgpb_free(). */
uint8_t *support_golden_bytes(size_t *size);

/* A model with targets "dxil" and "wgsl" (one entry each), written; for order tests. */
uint8_t *support_two_target_bytes(size_t *size);

/* Byte offsets of fields inside a written bundle, found through a reader view. */
size_t support_offset_of(const uint8_t *bytes, const void *p);
/* The blob reference (offset u32) of an entry's code: just after its layout index. */
size_t support_code_ref_offset(const uint8_t *bytes, const dgpb_entry_view *e);
/* The u32 `kind` of a parameter: just after its name. */
size_t support_param_field_offset(const uint8_t *bytes, const dgpb_param_view *p, int field);

void support_put_u32(uint8_t *bytes, size_t at, uint32_t v);

/* Reads a file of the source tree (path relative to the repository root). */
uint8_t *support_read_source_file(const char *relpath, size_t *size);

#endif
