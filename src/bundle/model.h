/*
 * bundle/model.h - the in-memory bundle model that bundle_write() turns into bytes.
 *
 * A dgpb_model is what a producer builds: targets, each with its layout blobs
 * and its entries, each entry with its code blob, parameter rows and
 * capability names. Everything passed in is copied, so the caller keeps
 * ownership of its own buffers and may free them right after the call; the
 * model owns its copies until model_destroy().
 *
 * The model checks each addition against the format's rules (dgpb/format.h)
 * and refuses what the format cannot express, with a message naming the
 * target, entry and parameter. Targets may be added in any order: the writer
 * sorts them by name. Entries keep the order in which they are added.
 *
 *     dgpb_model *m = NULL;
 *     uint32_t t;
 *     model_create(&m);
 *     model_add_target(m, "spirv", "spirv", &t, &diag);
 *     model_add_entry(m, t, &(dgpb_entry_desc){.name = "k", .stage = "compute", ...},
 *                          &diag);
 *     bundle_write(m, &bytes, &size, &diag);
 *     model_destroy(m);
 */
#ifndef DGPB_MODEL_H
#define DGPB_MODEL_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define bundle_write dgpb__bundle_write
#define model_add_entry dgpb__model_add_entry
#define model_add_layout dgpb__model_add_layout
#define model_add_target dgpb__model_add_target
#define model_check dgpb__model_check
#define model_create dgpb__model_create
#define model_set_option dgpb__model_set_option
#define model_destroy dgpb__model_destroy
#define model_target_count dgpb__model_target_count

#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dgpb_model dgpb_model;

/* One parameter row; `name` is copied. */
typedef struct dgpb_param_desc {
    const char *name;
    uint32_t kind;  /* dgpb_kind */
    uint32_t flags; /* DGPB_FLAG_* */
    uint32_t space;
    uint32_t binding;
    uint32_t offset; /* value rows: byte offset in the uniform block, else 0 */
    uint32_t size;   /* value rows: byte size, else 0 */
    uint32_t webgpu_layout;
} dgpb_param_desc;

/* One entry point; every pointer is borrowed for the duration of the call only. */
typedef struct dgpb_entry_desc {
    const char *name;
    const char *stage; /* "compute", "vertex", ... */
    uint32_t layout;   /* index into the target's layouts; 0 when it has none */
    const void *code;
    size_t code_size;
    uint32_t thread_group_size[3]; /* 0,0,0 for stages without one (dgpb_stage_has_thread_group) */
    const dgpb_param_desc *params;
    uint32_t param_count;
    const char *const *capabilities; /* any order; stored sorted and checked for duplicates */
    uint32_t capability_count;
} dgpb_entry_desc;

/* Creates an empty model. Returns DGPB_ERR_NOMEM or DGPB_OK; *out is NULL on failure. */
int model_create(dgpb_model **out);

/* Frees the model and everything it copied. NULL is a no-op. */
void model_destroy(dgpb_model *m);

/*
 * Adds a target (name from the format's table, code format allowed for it)
 * and stores its index in *index. A second target of the same name is refused.
 */
int model_add_target(dgpb_model *m, const char *name, const char *code_format, uint32_t *index,
                     dgpb_diag *diag);

/* Appends a layout blob (non-empty) to target `target`; its index is stored in *index if given. */
int model_add_layout(dgpb_model *m, uint32_t target, const void *data, size_t size, uint32_t *index,
                     dgpb_diag *diag);

/*
 * Appends an entry to target `target`. The entry's layout index must name a
 * layout already added (or be 0 while the target has none: check with
 * model_check() once all layouts are in).
 */
int model_add_entry(dgpb_model *m, uint32_t target, const dgpb_entry_desc *desc, dgpb_diag *diag);

/*
 * Records project option `option` (dgpb_option) with `value` in the bundle's
 * options record (docs/format.md, "The options record"); NULL takes it out.
 * A value the format does not allow (dgpb_option_rule) is DGPB_ERR_INVALID.
 * A model without options writes no record.
 */
int model_set_option(dgpb_model *m, uint32_t option, const char *value, dgpb_diag *diag);

/* Number of targets added so far. */
uint32_t model_target_count(const dgpb_model *m);

/* Checks the rules that span additions (layout indices, non-empty targets). */
int model_check(const dgpb_model *m, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
