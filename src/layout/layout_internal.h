/*
 * layout_internal.h - the layout blob's record shapes and the in-memory
 * model that the recorder fills and the writer serialises (internal).
 *
 * docs/layout.md is the format's reference; the word offsets below are its
 * tables, and DGPB_LAYOUT_TABLES their order, shared by the writer
 * (layout_blob.c), the reader (layout_open.c, layout_replay.c) and the tests
 * so none can disagree. Every record is a fixed number of little-endian u32 words; a
 * 64-bit value takes two words (low, high); a reference is a u32 index,
 * 0xFFFFFFFF for null; a list is two words (first, count) into one of the
 * list tables.
 *
 * The model (dgpb_layout_model) holds the same records unpacked, with lists
 * as spans into the model's own arrays in any order; the writer lays every
 * list table out in its owners' order, which is the only order the reader
 * accepts.
 */
#ifndef DGPB_LAYOUT_INTERNAL_H
#define DGPB_LAYOUT_INTERNAL_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define layout_model_free dgpb__layout_model_free
#define layout_model_init dgpb__layout_model_init
#define layout_model_string dgpb__layout_model_string
#define layout_model_write dgpb__layout_model_write
#define layout_vec_push dgpb__layout_vec_push

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/layout.h"

#define DGPB_LAYOUT_MAGIC "DGPL"
#define DGPB_LAYOUT_NONE 0xFFFFFFFFu
/* SlangTypeKind of pointers: their targets may contain them, so the cycle checks skip them. */
#define DGPB_LAYOUT_KIND_POINTER 18u

/*
 * Word offsets of each record, by prefix: LH header, LT type, LV variable,
 * LC per-category answer set, LTL type layout, LVL variable layout, LE entry
 * point, and the list items LA answer, LF field, LB binding range, LS
 * descriptor set, LR descriptor range, LO sub-object range.
 */

/* Header words. */
enum {
    LH_MAGIC,
    LH_VERSION,
    LH_SLANG_VERSION, /* string */
    LH_TARGET,        /* string */
    LH_GROUP_KIND,
    LH_SPECIALIZATION_PARAMS,
    LH_GLOBAL_VAR_LAYOUT,
    LH_GLOBAL_TYPE_LAYOUT,
    LH_STRING_COUNT,
    LH_STRING_BYTES,
    LH_OPTION_COUNT,
    LH_TYPE_COUNT,
    LH_VAR_COUNT,
    LH_TYPE_LAYOUT_COUNT,
    LH_VAR_LAYOUT_COUNT,
    LH_ENTRY_COUNT,
    LH_ANSWER_COUNT,
    LH_ATTRIBUTE_COUNT,
    LH_CATEGORY_COUNT,
    LH_PARAM_COUNT,
    LH_FIELD_COUNT,
    LH_BINDING_RANGE_COUNT,
    LH_DESCRIPTOR_SET_COUNT,
    LH_DESCRIPTOR_RANGE_COUNT,
    LH_SUB_OBJECT_RANGE_COUNT,
    LH_WORDS
};

/* Type. */
enum {
    LT_KIND,
    LT_NAME,
    LT_ELEMENT_TYPE,
    LT_ELEMENT_COUNT, /* u64 */
    LT_ROW_COUNT = LT_ELEMENT_COUNT + 2,
    LT_COLUMN_COUNT,
    LT_SCALAR_TYPE,
    LT_RESOURCE_SHAPE,
    LT_RESOURCE_ACCESS,
    LT_RESOURCE_RESULT_TYPE,
    LT_WORDS
};

/* Variable. */
enum { LV_NAME, LV_TYPE, LV_ATTRIBUTES /* list of strings */, LV_WORDS = LV_ATTRIBUTES + 2 };

/* A per-category answer: default u64, list of answers. */
enum { LC_DEFAULT, LC_ANSWERS = 2, LC_WORDS = 4 };

/* Type layout. */
enum {
    LTL_TYPE,
    LTL_KIND,
    LTL_PARAMETER_CATEGORY,
    LTL_SIZE,
    LTL_STRIDE = LTL_SIZE + LC_WORDS,
    LTL_ELEMENT_STRIDE = LTL_STRIDE + LC_WORDS,
    LTL_ELEMENT_TYPE_LAYOUT = LTL_ELEMENT_STRIDE + LC_WORDS,
    LTL_ELEMENT_VAR_LAYOUT,
    LTL_CONTAINER_VAR_LAYOUT,
    LTL_EXPLICIT_COUNTER,
    LTL_EXPLICIT_COUNTER_OFFSET, /* i64 */
    LTL_CATEGORIES = LTL_EXPLICIT_COUNTER_OFFSET + 2,
    LTL_FIELDS = LTL_CATEGORIES + 2,
    LTL_BINDING_RANGES = LTL_FIELDS + 2,
    LTL_DESCRIPTOR_SETS = LTL_BINDING_RANGES + 2,
    LTL_SUB_OBJECT_RANGES = LTL_DESCRIPTOR_SETS + 2,
    LTL_WORDS = LTL_SUB_OBJECT_RANGES + 2
};

/* Variable layout. */
enum {
    LVL_TYPE_LAYOUT,
    LVL_VARIABLE,
    LVL_BINDING_INDEX,
    LVL_BINDING_SPACE,
    LVL_OFFSET,
    LVL_SPACE = LVL_OFFSET + LC_WORDS,
    LVL_WORDS = LVL_SPACE + LC_WORDS
};

/* Entry point. */
enum {
    LE_NAME,
    LE_NAME_OVERRIDE,
    LE_STAGE,
    LE_VAR_LAYOUT,
    LE_TYPE_LAYOUT,
    LE_THREAD_GROUP_SIZE, /* u64 x 3 */
    LE_PARAMS = LE_THREAD_GROUP_SIZE + 6,
    LE_WORDS = LE_PARAMS + 2
};

/* List items. */
enum { LA_CATEGORY, LA_VALUE /* u64 */, LA_WORDS = 3 };
enum { LF_VAR_LAYOUT, LF_BINDING_RANGE_OFFSET /* i64 */, LF_WORDS = 3 };
enum {
    LB_TYPE,
    LB_BINDING_COUNT, /* i64 */
    LB_LEAF_TYPE_LAYOUT = LB_BINDING_COUNT + 2,
    LB_LEAF_VARIABLE,
    LB_SPECIALIZABLE, /* i64 */
    LB_IMAGE_FORMAT = LB_SPECIALIZABLE + 2,
    LB_DESCRIPTOR_SET_INDEX,                                   /* i64 */
    LB_FIRST_DESCRIPTOR_RANGE = LB_DESCRIPTOR_SET_INDEX + 2,   /* i64 */
    LB_DESCRIPTOR_RANGE_COUNT = LB_FIRST_DESCRIPTOR_RANGE + 2, /* i64 */
    LB_WORDS = LB_DESCRIPTOR_RANGE_COUNT + 2
};
enum { LS_SPACE_OFFSET /* i64 */, LS_RANGES = 2, LS_WORDS = 4 };
enum {
    LR_INDEX_OFFSET,         /* i64 */
    LR_DESCRIPTOR_COUNT = 2, /* i64 */
    LR_TYPE = 4,
    LR_CATEGORY,
    LR_WORDS
};
enum {
    LO_BINDING_RANGE_INDEX, /* i64 */
    LO_SPACE_OFFSET = 2,    /* i64 */
    LO_OFFSET_VAR_LAYOUT = 4,
    LO_WORDS
};

/*
 * The tables after the header and the string table, in the order the blob
 * lays them out (docs/layout.md): X(name, the header word holding its row
 * count, words per row). This list is the one definition of that order: the
 * writer (layout_blob.c) emits the tables in it, the reader
 * (layout_open.c) finds them through it, and so do the tests.
 */
#define DGPB_LAYOUT_TABLES(X)                                                                      \
    X(OPTIONS, LH_OPTION_COUNT, 1)                                                                 \
    X(TYPES, LH_TYPE_COUNT, LT_WORDS)                                                              \
    X(VARS, LH_VAR_COUNT, LV_WORDS)                                                                \
    X(TYPE_LAYOUTS, LH_TYPE_LAYOUT_COUNT, LTL_WORDS)                                               \
    X(VAR_LAYOUTS, LH_VAR_LAYOUT_COUNT, LVL_WORDS)                                                 \
    X(ENTRIES, LH_ENTRY_COUNT, LE_WORDS)                                                           \
    X(ANSWERS, LH_ANSWER_COUNT, LA_WORDS)                                                          \
    X(ATTRIBUTES, LH_ATTRIBUTE_COUNT, 1)                                                           \
    X(CATEGORIES, LH_CATEGORY_COUNT, 1)                                                            \
    X(PARAMS, LH_PARAM_COUNT, 1)                                                                   \
    X(FIELDS, LH_FIELD_COUNT, LF_WORDS)                                                            \
    X(BINDING_RANGES, LH_BINDING_RANGE_COUNT, LB_WORDS)                                            \
    X(DESCRIPTOR_SETS, LH_DESCRIPTOR_SET_COUNT, LS_WORDS)                                          \
    X(DESCRIPTOR_RANGES, LH_DESCRIPTOR_RANGE_COUNT, LR_WORDS)                                      \
    X(SUB_OBJECT_RANGES, LH_SUB_OBJECT_RANGE_COUNT, LO_WORDS)

/* The tables by name, in blob order: LAYOUT_TABLE_OPTIONS ... LAYOUT_TABLE_SUB_OBJECT_RANGES. */
typedef enum layout_table {
#define LAYOUT_TABLE_ID(name, count_word, words) LAYOUT_TABLE_##name,
    DGPB_LAYOUT_TABLES(LAYOUT_TABLE_ID)
#undef LAYOUT_TABLE_ID
        LAYOUT_TABLE_COUNT
} layout_table;

/* A table's shape: the header word holding its row count, and the words per row. */
typedef struct layout_table_shape {
    int count_word; /* LH_*_COUNT */
    uint32_t words;
} layout_table_shape;

static inline layout_table_shape layout_table_shape_of(layout_table t)
{
    static const layout_table_shape shapes[LAYOUT_TABLE_COUNT] = {
#define LAYOUT_TABLE_SHAPE(name, count_word, words) {count_word, words},
        DGPB_LAYOUT_TABLES(LAYOUT_TABLE_SHAPE)
#undef LAYOUT_TABLE_SHAPE
    };
    return shapes[t];
}

/*
 * The byte offset of table `t` in a blob whose header words are `h`
 * (LAYOUT_TABLE_COUNT: the end of the last table, the blob's size), in 64
 * bits so that no header overflows it.
 */
static inline uint64_t layout_table_offset(const uint32_t h[LH_WORDS], layout_table t)
{
    uint64_t pos = (uint64_t)LH_WORDS * 4u + h[LH_STRING_BYTES];
    for (int k = 0; k < (int)t; k++) {
        layout_table_shape shape = layout_table_shape_of((layout_table)k);
        pos += (uint64_t)h[shape.count_word] * shape.words * 4u;
    }
    return pos;
}

/* ---- the model ---- */

typedef struct dgpb_lspan {
    uint32_t first; /* into the model array of the list's kind */
    uint32_t count;
} dgpb_lspan;

typedef struct dgpb_lanswer {
    uint32_t category;
    uint64_t value;
} dgpb_lanswer;

/* Slang's answer for every category: `answers` holds those below DGPB_LAYOUT_CATEGORY_PROBE that
 * differ from `dflt`, in increasing category order. */
typedef struct dgpb_lcat {
    uint64_t dflt;
    dgpb_lspan answers;
} dgpb_lcat;

typedef struct dgpb_ltype {
    uint32_t kind;
    int32_t name; /* string; -1: null */
    int32_t element_type;
    uint64_t element_count;
    uint32_t row_count, column_count, scalar_type, resource_shape, resource_access;
    int32_t resource_result_type;
} dgpb_ltype;

typedef struct dgpb_lvar {
    int32_t name;
    int32_t type;
    dgpb_lspan attributes; /* into model.attributes: string indices (-1: null) */
} dgpb_lvar;

typedef struct dgpb_ltype_layout {
    int32_t type;
    uint32_t kind, parameter_category;
    dgpb_lcat size, stride, element_stride;
    int32_t element_type_layout, element_var_layout, container_var_layout, explicit_counter;
    int64_t explicit_counter_offset;
    dgpb_lspan categories;        /* model.categories */
    dgpb_lspan fields;            /* model.fields */
    dgpb_lspan binding_ranges;    /* model.binding_ranges */
    dgpb_lspan descriptor_sets;   /* model.descriptor_sets */
    dgpb_lspan sub_object_ranges; /* model.sub_object_ranges */
} dgpb_ltype_layout;

typedef struct dgpb_lvar_layout {
    int32_t type_layout, variable;
    uint32_t binding_index, binding_space;
    dgpb_lcat offset, space;
} dgpb_lvar_layout;

typedef struct dgpb_lentry {
    int32_t name, name_override;
    uint32_t stage;
    int32_t var_layout, type_layout;
    uint64_t thread_group_size[3];
    dgpb_lspan params; /* model.params: variable layouts */
} dgpb_lentry;

typedef struct dgpb_lfield {
    int32_t var_layout;
    int64_t binding_range_offset;
} dgpb_lfield;

typedef struct dgpb_lbinding_range {
    uint32_t type;
    int64_t binding_count;
    int32_t leaf_type_layout, leaf_variable;
    int64_t specializable;
    uint32_t image_format;
    int64_t descriptor_set_index, first_descriptor_range, descriptor_range_count;
} dgpb_lbinding_range;

typedef struct dgpb_ldescriptor_set {
    int64_t space_offset;
    dgpb_lspan ranges; /* model.descriptor_ranges */
} dgpb_ldescriptor_set;

typedef struct dgpb_ldescriptor_range {
    int64_t index_offset, descriptor_count;
    uint32_t type, category;
} dgpb_ldescriptor_range;

typedef struct dgpb_lsub_object_range {
    int64_t binding_range_index, space_offset;
    int32_t offset_var_layout;
} dgpb_lsub_object_range;

#define DGPB_LVEC(T)                                                                               \
    struct {                                                                                       \
        T *v;                                                                                      \
        uint32_t n, cap;                                                                           \
    }

typedef struct dgpb_lstring {
    char *s;
    uint32_t len;
} dgpb_lstring;

typedef struct dgpb_layout_model {
    int32_t slang_version, target; /* strings */
    uint32_t group_kind;           /* dgpb_layout_group */
    uint32_t specialization_param_count;
    int32_t global_var_layout, global_type_layout;

    DGPB_LVEC(dgpb_lstring) strings;
    DGPB_LVEC(int32_t) options; /* strings */
    DGPB_LVEC(dgpb_ltype) types;
    DGPB_LVEC(dgpb_lvar) vars;
    DGPB_LVEC(dgpb_ltype_layout) type_layouts;
    DGPB_LVEC(dgpb_lvar_layout) var_layouts;
    DGPB_LVEC(dgpb_lentry) entries;
    DGPB_LVEC(dgpb_lanswer) answers;
    DGPB_LVEC(int32_t) attributes;
    DGPB_LVEC(uint32_t) categories;
    DGPB_LVEC(int32_t) params;
    DGPB_LVEC(dgpb_lfield) fields;
    DGPB_LVEC(dgpb_lbinding_range) binding_ranges;
    DGPB_LVEC(dgpb_ldescriptor_set) descriptor_sets;
    DGPB_LVEC(dgpb_ldescriptor_range) descriptor_ranges;
    DGPB_LVEC(dgpb_lsub_object_range) sub_object_ranges;

    /* String interning (by content). */
    uint32_t *string_hash; /* open addressing: index + 1, 0 empty */
    uint32_t string_hash_cap;

    bool failed; /* an allocation failed: every later push is dropped */
} dgpb_layout_model;

/* An empty model: header refs null, group compute. */
void layout_model_init(dgpb_layout_model *m);
/* Releases everything the model owns. NULL is a no-op. */
void layout_model_free(dgpb_layout_model *m);

/*
 * Grows a model array by one zeroed element and returns its index, or -1 (and m->failed) when
 * allocation fails or the array already holds DGPB_LAYOUT_MAX_OBJECTS elements.
 */
int32_t layout_vec_push(dgpb_layout_model *m, void *vec, size_t elem_size);
#define DGPB_LPUSH(m, vec) layout_vec_push((m), &(m)->vec, sizeof *(m)->vec.v)

/*
 * Interns a string (copied), returning its index; NULL gives -1. A string longer than
 * DGPB_LAYOUT_MAX_STRING or with a NUL byte inside is not interned: -2. On allocation failure
 * m->failed is set and -1 returned.
 */
int32_t layout_model_string(dgpb_layout_model *m, const char *s, size_t len);

/*
 * Serialises the model (docs/layout.md). Lists are laid out in their owners' order, so any
 * model gives the one canonical byte sequence. DGPB_ERR_NOMEM, or DGPB_ERR_INVALID when the
 * model is inconsistent (a span or reference out of range, m->failed).
 */
int layout_model_write(const dgpb_layout_model *m, uint8_t **out, size_t *size, dgpb_diag *diag);

#endif
