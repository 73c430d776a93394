/*
 * code/spirv/spirv_words.h - the first step of every word-by-word reader of
 * SPIR-V in code/spirv/ (internal): a word in either byte order, and the
 * check that bytes are a module (whole words, a header of five, the magic
 * number in one order or the other).
 */
#ifndef DGPB_SPIRV_WORDS_H
#define DGPB_SPIRV_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/spirv/spirv_numbers.h"
#include "dgpb/result.h"

/* The little-endian word at `p`, its bytes reversed when `swap`. */
static inline uint32_t spirv_word(const uint8_t *p, bool swap)
{
    uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return swap ? (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24) : w;
}

/* DGPB_OK with *swap set when `size` bytes at `code` are a module's words; else
   DGPB_ERR_CORRUPT saying why. */
static inline int spirv_words_check(const uint8_t *code, size_t size, bool *swap, dgpb_diag *d)
{
    if (size < 20 || size % 4)
        return dgpb_diag_set(d, DGPB_ERR_CORRUPT, -1,
                             "SPIR-V: %zu bytes is not a module (a header of five words, then "
                             "whole words)",
                             size);
    *swap = spirv_word(code, false) != SPV_MAGIC;
    if (*swap && spirv_word(code, true) != SPV_MAGIC)
        return dgpb_diag_set(d, DGPB_ERR_CORRUPT, 0, "SPIR-V: no magic number 0x07230203");
    return DGPB_OK;
}

#endif
