/*
 * wgsl_layout.h - the size of a WGSL module's workgroup memory: the structs,
 * aliases and var<workgroup> types that the grammar (wgsl_scan.c) records,
 * sized by WGSL's alignment and size rules once the whole module is read,
 * because WGSL lets a struct be declared after its use (internal).
 */
#ifndef DGPB_WGSL_LAYOUT_H
#define DGPB_WGSL_LAYOUT_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define wgsl_add_named_type dgpb__wgsl_add_named_type
#define wgsl_add_workgroup dgpb__wgsl_add_workgroup
#define wgsl_size_workgroup dgpb__wgsl_size_workgroup
#define wgsl_sizes_free dgpb__wgsl_sizes_free

#include "code/wgsl/wgsl_scan.h"
#include "code/wgsl/wgsl_syntax.h"

/* A struct or an alias of the module, and its size once computed. */
typedef struct named_type {
    token name;
    bool is_struct;
    mark at;   /* a struct: at its '{'; an alias: at the aliased type */
    int state; /* 0 not sized, 1 being sized, 2 sized */
    uint64_t align, size;
    bool known;
} named_type;

/* What the grammar records for the sizes; zero-initialised, freed with wgsl_sizes_free(). */
typedef struct wgsl_sizes {
    named_type *types;
    size_t type_count, type_cap;
    mark *workgroup; /* the type of each var<workgroup> */
    size_t workgroup_count, workgroup_cap;
} wgsl_sizes;

/* Records a struct (`at` its '{') or an alias (`at` the aliased type). DGPB_ERR_NOMEM. */
int wgsl_add_named_type(wgsl_sizes *z, token name, bool is_struct, mark at);

/* Records the type of a var<workgroup>, at `type`. DGPB_ERR_NOMEM. */
int wgsl_add_workgroup(wgsl_sizes *z, mark type);

/*
 * Sorts the structs and aliases by name (DGPB_ERR_CORRUPT for a name
 * declared twice), then sizes every var<workgroup> into m->workgroup_bytes
 * (each rounded up to 16 bytes), m->workgroup_bytes_known false when a size
 * depends on something not known here (an override). Re-reads the types
 * through `lex`.
 */
int wgsl_size_workgroup(wgsl_sizes *z, text_scanner *lex, dgpb_wgsl_module *m);

void wgsl_sizes_free(wgsl_sizes *z);

#endif
