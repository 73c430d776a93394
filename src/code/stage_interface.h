/*
 * code/stage_interface.h - the user-defined inputs and outputs of an entry
 * point, read from the shipped code: a vertex shader's attributes, a
 * fragment shader's targets, each with its name, location and type. A host
 * reads them to feed a vertex shader from vertex buffers and to give a
 * fragment shader's targets their colour attachments (dgpb-run, docs/run.md,
 * "Drawing"). SPIR-V states them (code/spirv/spirv_interface.h: its Input and
 * Output variables that are no built-ins); a format whose reader states none
 * gives none.
 */
#ifndef DGPB_STAGE_INTERFACE_H
#define DGPB_STAGE_INTERFACE_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define code_interface_read dgpb__code_interface_read

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/format.h"
#include "dgpb/result.h"

#define CODE_NO_LOCATION 0xFFFFFFFFu

/* One input or output of an entry point. */
typedef struct code_interface_var {
    char name[128];    /* as the code names it ("input.position"); "" where it names it not */
    uint32_t location; /* its location; CODE_NO_LOCATION where none */
    /* Its type: a scalar or vector ('f' float, 'i' signed, 'u' unsigned integer; 0 for
       anything else, a bool or a struct), or a matrix or array of them. */
    char scalar;
    uint32_t bits;       /* of one scalar */
    uint32_t components; /* of a vector (1 for a scalar); a matrix's rows */
    uint32_t columns;    /* a matrix's columns; 1 otherwise */
    uint32_t array;      /* an array's length; 0 when it is no array */
} code_interface_var;

/*
 * The inputs (`outputs` false) or outputs of the entry point of `code`
 * (`size` bytes, code of `format`), in order of location (those without one
 * last), into *vars (malloc'd, dgpb_free; NULL when none) and *count; none
 * for a format that states none. DGPB_ERR_CORRUPT for code that cannot be
 * read, DGPB_ERR_NOMEM.
 */
int code_interface_read(dgpb_code_format format, const uint8_t *code, size_t size, bool outputs,
                        code_interface_var **vars, uint32_t *count, dgpb_diag *d);

#endif
