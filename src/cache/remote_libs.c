/*
 * remote_libs.c - libcurl and hiredis loaded on first use (cache/remote_libs.h).
 */
#define _GNU_SOURCE
#include "cache/remote_libs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef DGPB_CURL_SONAME
#define DGPB_CURL_SONAME "libcurl.so.4"
#endif
#ifndef DGPB_HIREDIS_SONAME
#define DGPB_HIREDIS_SONAME "libhiredis.so"
#endif

/* One library's loading: its table filled once, or why it could not be. */
typedef struct loaded {
    pthread_once_t once;
    const char *soname;
    const char *package; /* the Debian package that has it, for the message */
    const char *const *names;
    void **slots;
    size_t count;
    char why[512]; /* "" when loaded */
} loaded;

static void load(loaded *l)
{
    void *handle = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *e = dlerror();
        snprintf(l->why, sizeof l->why, "cannot load %s (%s): install %s", l->soname,
                 e ? e : "not found", l->package);
        return;
    }
    for (size_t i = 0; i < l->count; i++) {
        l->slots[i] = dlsym(handle, l->names[i]);
        if (!l->slots[i]) {
            snprintf(l->why, sizeof l->why, "%s lacks %s: install %s", l->soname, l->names[i],
                     l->package);
            return; /* the handle stays: nothing of it is called */
        }
    }
}

/* The tables' members are function pointers, in the order of the names. */
static remote_curl_api curl_api;
static const char *const curl_names[] = {
    "curl_global_init", "curl_easy_init",    "curl_easy_cleanup",  "curl_easy_reset",
    "curl_easy_setopt", "curl_easy_perform", "curl_easy_getinfo",  "curl_easy_strerror",
    "curl_slist_append", "curl_slist_free_all"};
static loaded curl_lib = {PTHREAD_ONCE_INIT,
                          DGPB_CURL_SONAME,
                          "libcurl (Debian: libcurl4)",
                          curl_names,
                          (void **)&curl_api,
                          sizeof curl_names / sizeof *curl_names,
                          ""};
static CURLcode curl_started = CURLE_OK;

static remote_hiredis_api hiredis_api;
static const char *const hiredis_names[] = {
    "redisConnectWithTimeout", "redisFree",       "redisBufferWrite",   "redisBufferRead",
    "redisGetReplyFromReader", "freeReplyObject", "redisvAppendCommand"};
static loaded hiredis_lib = {PTHREAD_ONCE_INIT,
                             DGPB_HIREDIS_SONAME,
                             "hiredis (Debian: libhiredis0.14)",
                             hiredis_names,
                             (void **)&hiredis_api,
                             sizeof hiredis_names / sizeof *hiredis_names,
                             ""};

_Static_assert(sizeof(remote_curl_api) == sizeof curl_names / sizeof *curl_names * sizeof(void *),
               "one name per libcurl function");
_Static_assert(sizeof(remote_hiredis_api) ==
                   sizeof hiredis_names / sizeof *hiredis_names * sizeof(void *),
               "one name per hiredis function");

static void load_curl(void)
{
    load(&curl_lib);
    if (!curl_lib.why[0])
        curl_started = curl_api.global_init(CURL_GLOBAL_DEFAULT);
}

static void load_hiredis(void)
{
    load(&hiredis_lib);
}

int remote_curl_load(const remote_curl_api **out, dgpb_diag *diag)
{
    pthread_once(&curl_lib.once, load_curl);
    *out = NULL;
    if (curl_lib.why[0])
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "%s", curl_lib.why);
    if (curl_started != CURLE_OK)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "libcurl cannot start");
    *out = &curl_api;
    return DGPB_OK;
}

int remote_hiredis_load(const remote_hiredis_api **out, dgpb_diag *diag)
{
    pthread_once(&hiredis_lib.once, load_hiredis);
    *out = NULL;
    if (hiredis_lib.why[0])
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "%s", hiredis_lib.why);
    *out = &hiredis_api;
    return DGPB_OK;
}
