/*
 * shim_objects.c - what every file of the replay shim uses (shim/shim.h): a
 * program's objects by kind and reference, freeing a program, and the log
 * of what a host asked ($DGPB_SHIM_LOG) or the shim could not answer.
 *
 * The lowest file of the shim: it calls none of the others, so that the COM
 * objects (shim_com.c), the program (shim_program.c) and the reflection
 * functions (shim_reflect.c) never call each other around a circle.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "shim/shim.h"

shim_obj *shim_obj_of(shim_program *p, uint32_t kind, dgpb_layout_ref ref)
{
    if (!p || kind >= 5 || ref < 0 || (uint32_t)ref >= p->counts[kind])
        return NULL;
    return &p->objs[kind][ref];
}

void shim_program_free(shim_program *p)
{
    if (!p)
        return;
    dgpb_layout_close(p->layout);
    for (uint32_t k = 0; k < 5; k++)
        dgpb_free(p->objs[k]);
    for (uint32_t i = 0; i < p->code_count; i++)
        dgpb_free(p->code[i].data);
    dgpb_free(p->code);
    dgpb_free(p->bytes);
    p->magic = 0;
    dgpb_free(p);
}

/* ---- the log ---- */

#define SHIM_LOG_MAX 256
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *logged[SHIM_LOG_MAX];
static size_t logged_count;

void shim_asked(const char *what)
{
    const char *path = getenv("DGPB_SHIM_LOG");
    if (!path || !*path)
        return;
    pthread_mutex_lock(&log_lock);
    bool seen = false;
    for (size_t i = 0; i < logged_count && !seen; i++)
        seen = logged[i] == what || strcmp(logged[i], what) == 0;
    if (!seen && logged_count < SHIM_LOG_MAX) {
        logged[logged_count++] = what;
        FILE *f = fopen(path, "a");
        if (f) {
            fprintf(f, "%s\n", what);
            fclose(f);
        }
    }
    pthread_mutex_unlock(&log_lock);
}

_Noreturn void shim_unanswered(const char *what)
{
    fprintf(stderr,
            "dgpb-slang-shim: %s is not answered by the replay shim (docs/layout.md, "
            "\"The replay shim\")\n",
            what);
    fflush(stderr);
    abort();
}
