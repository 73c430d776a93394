/*
 * corruptions.h - the table of malformed bundles the reader must reject.
 *
 * Each case takes a copy of a valid bundle (the golden bundle, the small
 * two-target one, or that one with an options record) and breaks one thing. tests/test_reader.c opens every case
 * and checks the result code and the message; tests/gen_format_fixtures.c
 * writes each case to fixtures/format/corrupt/<name>.dgpb with its expected
 * message, which the dgpb-dump tests check from the command line.
 */
#ifndef DGPB_TEST_CORRUPTIONS_H
#define DGPB_TEST_CORRUPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "dgpb/dgpb.h"

typedef struct mut_ctx {
    uint8_t *bytes;      /* the copy to break; room for size + 64 bytes */
    size_t size;         /* may be changed by the mutation */
    const uint8_t *orig; /* the valid bundle the views point into */
    const dgpb_bundle *b;
} mut_ctx;

typedef struct corruption {
    const char *name;
    int base;   /* the valid bundle it breaks: 0 the golden one, 1 support_two_target_bytes(),
                           2 support_options_bytes() (an options record) */
    int verify; /* only detected with DGPB_OPEN_VERIFY_SHA256 */
    int code;   /* expected result */
    const char *expect; /* a substring of the expected message */
    void (*mutate)(mut_ctx *c);
} corruption;

extern const corruption corruptions[];
extern const size_t corruption_count;

/* Applies case `c` to a fresh copy of its base bundle; free *out with free(). */
void corruption_apply(const corruption *c, uint8_t **out, size_t *size);

#endif
