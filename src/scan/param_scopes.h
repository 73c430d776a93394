/*
 * param_scopes.h - the namespace of each module-scope parameter a Slang
 * module's text declares (internal).
 *
 * Slang's reflection names a parameter by its short name only: two
 * parameters `first::out` and `second::out` are both "out", in the JSON and
 * in the SPIR-V alike. When two rows of one entry would share a name, the
 * parameter table qualifies them as the code does (tables/params.h), and a
 * namespace path can only come from the text. This scanner lists the
 * module-scope declarations that become parameters, each with its namespace
 * path, in the order Slang's reflection lists them (measured with Slang
 * 2025.15): the module scope's own first, in text order, then
 * namespace by namespace, breadth first: the namespaces of one level in the
 * order they first open (a namespace opened twice is one), each one's
 * declarations in text order. The caller trusts the list only when its
 * names are exactly one run of the reflection's module-scope parameters
 * (dgpb_reflection.globals) that holds every row it qualifies, which also
 * covers the declarations the scanner cannot see (an #include, an #if branch
 * left out, an imported module).
 *
 * What counts as a declaration: at module or namespace scope, a variable
 * (`Texture2D t;`, `uniform float f;`, `ConstantBuffer<S> cb;`, one per
 * declarator of `Texture2D a, b;`) that is not `static`, `groupshared` or a
 * `typedef`, and a `cbuffer`/`tbuffer` block (named by its block name).
 * Functions, types, imports and the bodies of all of these are skipped.
 *
 * Ownership: the list and its strings are freed with param_scopes_free().
 */
#ifndef DGPB_PARAM_SCOPES_H
#define DGPB_PARAM_SCOPES_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define param_scopes_scan dgpb__param_scopes_scan
#define param_scopes_free dgpb__param_scopes_free

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One module-scope declaration: its name and its namespace path ("" at module scope). */
typedef struct dgpb_param_scope {
    char *name;
    char *path; /* "first", "first::inner": as the code qualifies it, less the "::" */
} dgpb_param_scope;

typedef struct dgpb_param_scopes {
    dgpb_param_scope *items; /* in Slang's reflection order (above) */
    size_t count;
    int incomplete; /* 1 when the text has a construct the scanner does not read (a
                       `namespace X;` without braces, unbalanced braces): the list is then
                       empty, and no row gets a namespace */
} dgpb_param_scopes;

/*
 * Scans `text` (len bytes, a module's own file as written). DGPB_OK, or
 * DGPB_ERR_NOMEM. A text the scanner cannot read is not an error: the
 * result is empty and `incomplete`.
 */
int param_scopes_scan(const char *text, size_t len, dgpb_param_scopes *out);

void param_scopes_free(dgpb_param_scopes *s);

#ifdef __cplusplus
}
#endif

#endif
