/*
 * recorder/worker_checked.h - the checked modules a native worker keeps
 * between jobs, so that one parse serves a module's discovery and every
 * compile of its entries (docs/layout.md, "One parse per module").
 *
 * A compile request that parsed and checked a module holds it in its
 * session (Slang's linkage). A job may ask the worker to keep the request
 * ("keep": true), under the job's own working folder and arguments. A later
 * compile job that names those arguments ("checked_as": [...]) and asks for
 * one entry is then answered from the kept module: the entry found and
 * checked, composed with the module, linked, its code generated, its
 * reflection and layout taken from the linked program; no parse.
 *
 *     checked_store *k = NULL;
 *     checked_store_create(&k);
 *     ... spCompile(req) succeeded with "keep" ...
 *     checked_keep(k, s, key, req, args, n);   (the store owns req now)
 *     ... a compile job with "checked_as" ...
 *     if (checked_compile(k, s, key, args, n, layout, &diagnostics) == CHECKED_DONE) ...
 *     checked_store_free(k, s);
 *
 * What is kept is proved before it is used: each file the request read is
 * hashed when it is kept and again before each use, and a request whose
 * files changed is dropped. An answer from a kept module is given only when
 * it is the answer a compile would give: the code generated without a
 * diagnostic; anything else (a warning, an error, other options, debug
 * information, whose code names the file and command line compiled) makes
 * the caller compile as usual, so a job's outputs and its
 * diagnostics never depend on what the worker kept. The worker keeps at most
 * CHECKED_MAX requests, the most recently used.
 */
#ifndef DGPB_WORKER_CHECKED_H
#define DGPB_WORKER_CHECKED_H

#define checked_compile dgpb__checked_compile
#define checked_keep dgpb__checked_keep
#define checked_layout dgpb__checked_layout
#define checked_same_options dgpb__checked_same_options
#define checked_key dgpb__checked_key
#define checked_store_create dgpb__checked_store_create
#define checked_store_free dgpb__checked_store_free
#define worker_option_value dgpb__worker_option_value

#include <stdbool.h>
#include <stddef.h>

#include "compiler/slang_library.h"
#include "dgpb/result.h"

#define CHECKED_MAX 4

typedef struct checked_store checked_store;

/* The value of the last `option VALUE` in slangc's arguments; NULL when absent. */
const char *worker_option_value(const char *const *args, size_t n, const char *option);

int checked_store_create(checked_store **out);
/* Destroys every kept request. NULL is a no-op. */
void checked_store_free(checked_store *k, dgpb_slang *s);

/*
 * The key of a job's arguments in folder `cwd` (NULL: the worker's own): a new string
 * (dgpb_free() it), NULL when out of memory.
 */
char *checked_key(const char *cwd, const char *const *args, size_t n);

/*
 * Keeps `req`, a request that compiled without a diagnostic from `args` (slangc's arguments,
 * the module first), under `key` (borrowed; copied).
 * The store owns `req` from here on, kept or not (it is destroyed when its files cannot be
 * hashed, the library lacks what a kept request needs, or memory runs out).
 */
void checked_keep(checked_store *k, dgpb_slang *s, const char *key, SlangCompileRequest *req,
                  const char *const *args, size_t n);

/*
 * Whether two compiles' arguments (slangc's, the module first) share the options that shape
 * code: all but the module, -D, -I, the outputs, the entry and stage and -skip-codegen; and
 * neither asks for debug information.
 */
bool checked_same_options(const char *const *a, size_t na, const char *const *b, size_t nb);

typedef enum checked_result {
    CHECKED_DONE,     /* compiled from the kept module: outputs written, no diagnostic */
    CHECKED_NOT_HERE, /* nothing usable is kept, or the job is not one entry: compile it */
} checked_result;

/*
 * Answers a compile job (`args`, slangc's arguments: one -entry and -stage, -o, and
 * optionally -reflection-json and -depfile) from the request kept under `key`, recording its
 * program's layout to `layout` when not NULL (as worker_compile_recording does). Outputs
 * are written atomically; CHECKED_NOT_HERE leaves none of them behind.
 */
checked_result checked_compile(checked_store *k, dgpb_slang *s, const char *key,
                               const char *const *args, size_t n, const char *layout);

/*
 * Answers a layout job (`args`, dgpb-slang-layout's arguments: the module, slangc options,
 * the group's -entry/-stage pairs in order, -o LAYOUT) from the request kept under `key`:
 * the entries found and checked in its module, composed and linked, the program's layout
 * recorded as dgpb-slang-layout would record it and written atomically. CHECKED_NOT_HERE
 * writes nothing.
 */
checked_result checked_layout(checked_store *k, dgpb_slang *s, const char *key,
                              const char *const *args, size_t n);

#endif
