/*
 * model_internal.h - the representation behind dgpb_model (internal; shared
 * by model.c, which fills it, and writer.c, which serialises it).
 */
#ifndef DGPB_MODEL_INTERNAL_H
#define DGPB_MODEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "dgpb/format.h"
#include "bundle/model.h"

typedef struct dgpb_mblob {
    uint8_t *data; /* owned */
    size_t size;
} dgpb_mblob;

typedef struct dgpb_mentry {
    char *name; /* owned */
    uint32_t stage;
    uint32_t layout;
    dgpb_mblob code;
    uint32_t thread_group_size[3];
    dgpb_param_desc *params; /* owned, each name owned */
    uint32_t param_count;
    uint32_t caps[DGPB_CAP_COUNT]; /* dgpb_capability ids, sorted */
    uint32_t cap_count;
} dgpb_mentry;

typedef struct dgpb_mtarget {
    char *name;        /* owned */
    uint32_t id;       /* dgpb_target_id */
    char *code_format; /* owned */
    dgpb_mblob *layouts;
    uint32_t layout_count;
    dgpb_mentry *entries;
    uint32_t entry_count;
    size_t entry_cap;
} dgpb_mtarget;

struct dgpb_model {
    dgpb_mtarget *targets;
    uint32_t target_count;
    char *options[DGPB_OPTION_COUNT]; /* owned; NULL: not recorded (the default) */
};

#endif
