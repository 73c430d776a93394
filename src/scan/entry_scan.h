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

#endif
