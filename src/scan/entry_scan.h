/*
 * entry_scan.h - finds the generic entry points of a Slang module's text
 * (internal). Slang compiles an entry point only with concrete type
 * arguments; dgpb-build refuses a module that marks a generic function as an
 * entry point, naming it and showing the non-generic entry that specialises
 * it (docs/build.md, "Generic entry points").
 */
#ifndef DGPB_ENTRY_SCAN_H
#define DGPB_ENTRY_SCAN_H

#define entry_scan_generics dgpb__entry_scan_generics

#include <stddef.h>
#include <stdint.h>

/* A generic entry point found in the text; every string is the scanner's own. */
typedef struct generic_entry {
    char *name;       /* the function's name */
    char *generics;   /* its generic parameter list, "<T : IOp>" */
    char *attributes; /* the attribute lists before it, "[numthreads(4, 1, 1)]" */
    char *params;     /* its parameter list without the parentheses */
    char *args;       /* the parameters' names, "id, gid": a call that forwards them */
    /* The declaration without its attributes, as the function is kept ("void apply<T : IOp>(uint3
       id : SV_DispatchThreadID) where ..."): a generic function that is no entry point. */
    char *declaration;
    /* A specialisation that compiles: the type arguments, one per generic parameter (a struct
       of the module that conforms to its interface, inline or in a `where` clause, else
       "MyType"; "1" for a value), "Twice"; the first of them, for the specialising entry's
       name; the parameters and the return type with each generic parameter replaced by its
       argument, "uint3 id, uniform Twice scaler", "float4"; and the return value's semantic,
       ": SV_Target" ("" when none). */
    char *type_args;
    char *suffix;
    char *concrete_params;
    char *concrete_return;
    char *semantic;
    uint32_t line; /* 1-based line of the name */
} generic_entry;

/*
 * Scans `text` (comments and string literals skipped) for functions marked
 * with [shader(...)] or [numthreads(...)] whose name is followed by a generic
 * parameter list, or that follow __generic<...>. Fills a new array (free with
 * entry_scan_free); DGPB_OK, or DGPB_ERR_NOMEM.
 */
int entry_scan_generics(const char *text, size_t len, generic_entry **out, size_t *count);

#define entry_scan_free dgpb__entry_scan_free
void entry_scan_free(generic_entry *entries, size_t count);

#define entry_scan_span dgpb__entry_scan_span
/*
 * The lines (1-based, first and last) of the definition of the function
 * `name` in `text` (comments, literals and directives skipped): its name, at
 * brace depth 0 and followed by its parameter list, to the brace that closes
 * its body; the first such definition, declarations without a body passed
 * over. DGPB_OK, DGPB_ERR_NOT_FOUND (no such definition: the function comes
 * from an included file, or the text is not what the compiler read), or
 * DGPB_ERR_NOMEM. A failed compile's diagnostic located inside an entry's
 * span is that entry's (dgpb-build names it: docs/build.md, "Diagnostics").
 */
int entry_scan_span(const char *text, size_t len, const char *name, uint32_t *first,
                    uint32_t *last);

#endif
