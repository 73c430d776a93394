/*
 * header/c_header_structs.h - C structs for the struct values of a block
 * (header/c_header.h; docs/build.md, "The C header"): a value row that holds
 * a struct, or an array of structs, is a member of that struct's C type,
 * written before the block's struct as one typedef per struct the code
 * declares (code/value_fields.h), nested ones first: each field at the
 * code's offset with explicit `uint8_t pad_<offset>[n]` members between and
 * after, so that the struct is as large as the code's (its stride in an
 * array), every offset and the size checked by static assertions.
 */
#ifndef DGPB_C_HEADER_STRUCTS_H
#define DGPB_C_HEADER_STRUCTS_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define c_structs_put dgpb__c_structs_put
#define c_structs_free dgpb__c_structs_free

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/value_fields.h"
#include "header/c_header_types.h"
#include "header/c_text.h"

/* The structs written for one target's entry: a layout written once is named again. */
typedef struct c_structs {
    struct c_struct_written {
        char *key;            /* the layout: names, offsets, types, size */
        char name[C_ID_MAX];  /* its typedef's name */
        uint32_t align, size; /* as C lays it out */
    } * items;
    size_t count, cap;
} c_structs;

/*
 * The C type of a row of `size` bytes that holds the struct (or array of
 * structs) of `f`, in *out (its base the root struct's typedef name, dims
 * "[N]" for an array, text "struct Light[2]"), after writing to `h` each
 * struct of `f` not yet in `done`, named <stem>_<target>_<entry>_<struct>.
 * False when C cannot spell it (a field C cannot place at its offset, a
 * stride that is not the struct's size): the row stays bytes.
 */
bool c_structs_put(c_text *h, c_structs *done, const dgpb_str *target, const dgpb_str *entry,
                   const code_fields *f, uint32_t size, c_type *out);

/* Frees what `done` holds and zeroes it. */
void c_structs_free(c_structs *done);

#endif
