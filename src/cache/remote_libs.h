/*
 * cache/remote_libs.h - libcurl and hiredis, loaded when a remote store is
 * first opened (docs/cache.md, "Remote stores").
 *
 * Linked into every dgpb-build, the two libraries and the thirty they bring
 * (gnutls, krb5, ldap, ...) cost about 5 ms of loading and initialisation in
 * every process, a build of one module included, while only a build with a
 * remote store uses them. They are loaded (dlopen, by the sonames the build
 * found: DGPB_CURL_SONAME, DGPB_HIREDIS_SONAME) on first use instead, once
 * per process, and their functions are called through these tables:
 *
 *     const remote_curl_api *curl;
 *     if (remote_curl_load(&curl, &diag)) ...   (diag: which library, and why)
 *     CURL *h = curl->easy_init();
 *
 * A library that cannot be loaded, or lacks a function, is DGPB_ERR_TOOL,
 * naming the library and the package that has it: the store cannot be opened
 * (dgpb-build stops with exit status 3 before it compiles anything).
 */
#ifndef DGPB_REMOTE_LIBS_H
#define DGPB_REMOTE_LIBS_H

#define remote_curl_load dgpb__remote_curl_load
#define remote_hiredis_load dgpb__remote_hiredis_load

#define CURL_DISABLE_TYPECHECK /* calls go through the table, not curl's checking macros */
#include <curl/curl.h>
#include <hiredis/hiredis.h>
#include <stdarg.h>

#include "dgpb/result.h"

typedef struct remote_curl_api {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *h);
    void (*easy_reset)(CURL *h);
    CURLcode (*easy_setopt)(CURL *h, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *h);
    CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} remote_curl_api;

typedef struct remote_hiredis_api {
    redisContext *(*connect_with_timeout)(const char *ip, int port, const struct timeval tv);
    void (*free_context)(redisContext *c);
    int (*buffer_write)(redisContext *c, int *done);
    int (*buffer_read)(redisContext *c);
    int (*get_reply_from_reader)(redisContext *c, void **reply);
    void (*free_reply)(void *reply);
    int (*append_commandv)(redisContext *c, const char *format, va_list ap);
} remote_hiredis_api;

/* The loaded libcurl (curl_global_init done), the same table for the whole process. */
int remote_curl_load(const remote_curl_api **out, dgpb_diag *diag);
/* The loaded hiredis. */
int remote_hiredis_load(const remote_hiredis_api **out, dgpb_diag *diag);

#endif
