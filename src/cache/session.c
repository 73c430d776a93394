/*
 * session.c - the cache's state for one build (cache_session.h): its start
 * (the working folder and the project root), the warnings kept for the
 * build's entry, whether the cache can be used at all, and its end.
 */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "cache/cache_session.h"
#include "core/alloc.h"

void cache_session_begin(cache_session *s, const cache_inputs *desc, const char *tmp,
                         cache_known_fn known, void *known_ctx)
{
    s->desc = desc;
    s->tmp = tmp;
    s->known = known;
    s->known_ctx = known_ctx;
    if (!desc->store)
        return;
    if (!getcwd(s->cwd, sizeof s->cwd))
        s->cwd[0] = 0;
    s->store = desc->store;
    cache_find_root(s);
}

bool cache_session_usable(cache_session *s)
{
    return s->store && s->cwd[0] && cache_compiler_identity(s);
}

void cache_session_keep_warning(cache_session *s, const char *message)
{
    bytebuf_append(&s->warnings, message, strlen(message) + 1);
}

void cache_session_end(cache_session *s)
{
    for (size_t i = 0; i < s->hash_count; i++)
        dgpb_free(s->hashes[i].path);
    dgpb_free(s->hashes);
    dgpb_free(s->hash_index);
    bytebuf_free(&s->warnings);
    memset(s, 0, sizeof *s);
}
