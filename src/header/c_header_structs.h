/*
 * header/c_header_structs.h - the structs of a C header (header/c_header.h;
 * docs/build.md, "The C header"), each layout written once.
 *
 * A struct is a layout: the values of a block (its value rows at their
 * offsets), or a struct the code declares (a value row holding one, a
 * structured buffer's element), each member at the code's offset with
 * explicit `uint8_t pad_<offset>[n]` members between and after, as large as
 * the code's (a block's size in the code, a struct's stride in an array),
 * every offset and the size checked by static assertions. The header first
 * gathers every use of a layout (the block or struct's name, on one target,
 * for one entry), then writes: a layout met again is not written again, a
 * use named apart is a typedef of the struct first written.
 *
 * A use's name is <stem>_<name> where every use of that name has one
 * layout; else <stem>_<target>_<name> where each target's uses of it have
 * one; else <stem>_<target>_<entry>_<name> (made unique in the header).
 */
#ifndef DGPB_C_HEADER_STRUCTS_H
#define DGPB_C_HEADER_STRUCTS_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define c_defs_block dgpb__c_defs_block
#define c_defs_fields dgpb__c_defs_fields
#define c_defs_use dgpb__c_defs_use
#define c_defs_write dgpb__c_defs_write
#define c_defs_free dgpb__c_defs_free
#define c_members_free dgpb__c_members_free

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/value_fields.h"
#include "header/c_header_types.h"
#include "header/c_text.h"

/* One member of a struct. */
typedef struct c_member {
    char name[C_ID_MAX]; /* its identifier, unique in the struct */
    char *shown;         /* its name as the code gives it, for its comment (owned) */
    uint32_t offset, size;
    c_type type;    /* .known false: `uint8_t name[size]` */
    int32_t of;     /* a struct of the header (a c_defs index): the member is one, or an array
                       of them (type.dims); else -1 */
    char note[128]; /* its comment after the offset and size: the code's type, or why bytes */
} c_member;

/* One layout. */
typedef struct c_def {
    char *key;            /* the layout as text: what it is, its size, each member */
    bool block;           /* the values of a block; else a struct the code declares */
    char *what;           /* the block's name (its first use's), or the code's struct name */
    uint32_t size, align; /* bytes; C's alignment of it */
    bool code_size;       /* a block as large as the code's block (its tail padding included) */
    c_member *members;
    uint32_t count;
    char name[C_ID_MAX]; /* the typedef it is written as; "" until written */
} c_def;

/* One use of a layout: a block's or a struct's name, on one target, for one entry. */
typedef struct c_use {
    bool block;
    char *group; /* the block's or the struct's name (owned) */
    dgpb_str target, entry;
    uint32_t set, target_index; /* the entry's and the target's positions, for the header */
    uint32_t row;               /* the row it was met at (a block's first value row) */
    int32_t def;                /* the layout; -1: none (a block whose rows overlap) */
    char name[C_ID_MAX];        /* its typedef's name; "" until written */
} c_use;

/* Every layout and use of one header. Zero it before use. */
typedef struct c_defs {
    c_def *defs;
    size_t count, cap;
    c_use *uses;
    size_t use_count, use_cap;
} c_defs;

/*
 * The layout of a block named `what`: `count` members (by offset, names
 * unique; taken over, freed here when the layout is known already), `size`
 * bytes, C's alignment `align`. Its index; -1 without memory (h->nomem).
 */
int32_t c_defs_block(c_text *h, c_defs *d, const char *what, c_member *members, uint32_t count,
                     uint32_t size, uint32_t align, bool code_size);

/*
 * The layouts of the structs of `f` (nested ones first), each used as `at`
 * says (its target, entry and positions), for a row of `size` bytes that
 * holds the root struct or an array of it: the root's layout, and the row's
 * C type in *out (base left "", the typedef's name known when written); -1
 * (out->known false) when C cannot lay it out as the code does (a field C
 * cannot place at its offset, a stride that is not the struct's size).
 */
int32_t c_defs_fields(c_text *h, c_defs *d, const code_fields *f, uint32_t size, const c_use *at,
                      c_type *out);

/* A use of layout `def` (-1: none) named `group`, as `at` says; its index, the same for the same
   use; -1 without memory. */
int32_t c_defs_use(c_text *h, c_defs *d, bool block, dgpb_str group, const c_use *at, int32_t def);

/*
 * Writes use `use`: its layout's struct the first time, else a typedef of it
 * where the use's name is new; nothing when a use of that name was written.
 * Its name ("" for a use of no layout).
 */
const char *c_defs_write(c_text *h, c_defs *d, size_t use);

/* Frees `count` members' names. */
void c_members_free(c_member *m, uint32_t count);

/* Frees what `d` holds and zeroes it. */
void c_defs_free(c_defs *d);

#endif
