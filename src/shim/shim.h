/*
 * shim.h - the replay shim's program object and the pointers it hands out
 * as Slang's reflection objects (internal; dgpb/slang_shim.h is the API).
 *
 * Slang's reflection objects are opaque pointers whose identity matters (a
 * host compares and caches them). The shim gives each object of a blob one
 * fixed address: a program holds an array of shim_obj per kind of object,
 * and the object with ref r of that kind is the array's element r, which
 * names its program and its ref. The program itself is the ProgramLayout
 * (SlangReflection *).
 */
#ifndef DGPB_SHIM_H
#define DGPB_SHIM_H

#define shim_asked dgpb__shim_asked
#define shim_obj_of dgpb__shim_obj_of
#define shim_program_free dgpb__shim_program_free
#define shim_session dgpb__shim_session
#define shim_unanswered dgpb__shim_unanswered

#include <stddef.h>
#include <stdint.h>

#include "dgpb/layout.h"

#define SHIM_EXPORT __attribute__((visibility("default")))

typedef struct shim_program shim_program;

typedef struct shim_obj {
    shim_program *program;
    dgpb_layout_ref ref;
    uint32_t kind; /* dgpb_layout_kind */
} shim_obj;

/* The code of one entry point: an owned copy of bytes whose SHA-256 was checked. */
typedef struct shim_code {
    uint8_t *data;
    size_t size;
    uint8_t sha256[32];
} shim_code;

#define SHIM_PROGRAM_MAGIC 0x4d494853u /* "SHIM" */

struct shim_program {
    uint32_t magic;
    dgpb_layout *layout;
    uint8_t *bytes;    /* the layout blob (owned; the layout reads it in place) */
    shim_obj *objs[5]; /* per dgpb_layout_kind, object_count each */
    uint32_t counts[5];
    shim_code *code; /* per entry point */
    uint32_t code_count;
};

/* The object of `kind` with `ref`, or NULL for DGPB_LAYOUT_NULL or a ref out of range. */
shim_obj *shim_obj_of(shim_program *p, uint32_t kind, dgpb_layout_ref ref);

/* Frees a program and everything it owns. NULL is a no-op. */
void shim_program_free(shim_program *p);

/* The process's one ISession (shim_com.c; static, addRef/release count nothing). */
void *shim_session(void);

/* Appends `what` to $DGPB_SHIM_LOG the first time it is asked (`what` is a static string). */
void shim_asked(const char *what);

/* Stops the process: a question the shim does not answer (docs/layout.md). */
_Noreturn void shim_unanswered(const char *what);

#endif
