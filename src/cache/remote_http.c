/*
 * remote_http.c - the HTTP store (cache/remote_http.h, docs/cache.md "Remote
 * stores"): the Bazel remote-cache protocol through libcurl, within the
 * limits of a request (cache/remote_store.h). https stores are checked against
 * the system's certificates or the file DGPB_CACHE_REMOTE_CA names;
 * DGPB_CACHE_REMOTE_HEADER adds one header to every request, never shown.
 */
#define _GNU_SOURCE
#include "cache/remote_http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/remote_libs.h"
#include "core/alloc.h"
#include "dgpb/alloc.h"

typedef struct http_store {
    const remote_call *call;
    const remote_curl_api *curl_api; /* libcurl, loaded by the first store opened */
    char base[2048]; /* the URL without trailing slashes */
    CURL *curl;
    struct curl_slist *headers;
    char *ca_file; /* DGPB_CACHE_REMOTE_CA: the certificates an https store is checked against */
} http_store;

static const char *http_url_problem(const char *url)
{
    const char *host = strstr(url, "://") + 3;
    if (!*host || *host == '/')
        return "no host";
    if (strchr(url, '?') || strchr(url, '#'))
        return "a query or fragment; write '#' and '?' in a password as %23 and %3F";
    return NULL;
}

static void http_close(void *state)
{
    http_store *s = state;
    if (!s)
        return;
    if (s->curl)
        s->curl_api->easy_cleanup(s->curl);
    if (s->headers)
        s->curl_api->slist_free_all(s->headers);
    dgpb_free(s->ca_file);
    dgpb_free(s);
}

static int http_open(const char *url, const char *base, const remote_call *call, void **state,
                     dgpb_diag *diag)
{
    (void)url;
    *state = NULL;
    http_store *s = mem_calloc(1, sizeof *s);
    if (!s)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    s->call = call;
    snprintf(s->base, sizeof s->base, "%s", base);
    int rc = remote_curl_load(&s->curl_api, diag);
    if (rc) {
        http_close(s);
        return rc;
    }
    if (!(s->curl = s->curl_api->easy_init())) {
        http_close(s);
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "libcurl cannot start");
    }
    const char *header = getenv("DGPB_CACHE_REMOTE_HEADER");
    if (header && *header) {
        if (!strchr(header, ':') || strpbrk(header, "\r\n")) {
            http_close(s);
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                 "DGPB_CACHE_REMOTE_HEADER is not one 'Name: value' header");
        }
        if (!(s->headers = s->curl_api->slist_append(NULL, header))) {
            http_close(s);
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        }
    }
    const char *ca = getenv("DGPB_CACHE_REMOTE_CA");
    if (ca && *ca && !(s->ca_file = mem_strdup(ca))) {
        http_close(s);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    *state = s;
    return DGPB_OK;
}

/* ---- requests ---- */

typedef struct sink {
    uint8_t *data;
    size_t size, cap, max;
    int over;
} sink;

static size_t sink_write(char *ptr, size_t one, size_t n, void *user)
{
    sink *s = user;
    size_t add = one * n;
    if (add > s->max - s->size) {
        s->over = 1;
        return 0;
    }
    if (s->size + add + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->size + add + 1)
            cap *= 2;
        uint8_t *grown = mem_realloc(s->data, cap);
        if (!grown)
            return 0;
        s->data = grown;
        s->cap = cap;
    }
    memcpy(s->data + s->size, ptr, add);
    s->size += add;
    return add;
}

typedef struct source {
    const uint8_t *data;
    size_t size, at;
} source;

static size_t source_read(char *buf, size_t one, size_t n, void *user)
{
    source *s = user;
    size_t take = one * n;
    if (take > s->size - s->at)
        take = s->size - s->at;
    memcpy(buf, s->data + s->at, take);
    s->at += take;
    return take;
}

static size_t discard(char *ptr, size_t one, size_t n, void *user)
{
    (void)ptr;
    (void)user;
    return one * n;
}

/* curl's progress: the pace of the request (a trickle, a signal); nonzero stops it. */
static int http_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                         curl_off_t ulnow)
{
    (void)dltotal;
    (void)ultotal;
    void **args = user;
    return !remote_pace_ok(args[0], args[1], (uint64_t)dlnow + (uint64_t)ulnow);
}

/* One request; *status the HTTP status. DGPB_ERR_IO when the store cannot be reached. */
static int http_request(http_store *s, const char *method, const char *ns, const char *name,
                        sink *in, source *out, long *status, dgpb_diag *diag)
{
    char url[2300];
    snprintf(url, sizeof url, "%s/%s/%s", s->base, ns, name);
    CURL *h = s->curl;
    const remote_curl_api *api = s->curl_api;
    api->easy_reset(h);
    api->easy_setopt(h, CURLOPT_URL, url);
    api->easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    api->easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, REMOTE_CONNECT_TIMEOUT_MS);
    api->easy_setopt(h, CURLOPT_TIMEOUT_MS, REMOTE_TOTAL_TIMEOUT_MS);
    api->easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    api->easy_setopt(h, CURLOPT_LOW_SPEED_TIME, REMOTE_STALL_MS / 1000);
    remote_pace p;
    remote_pace_start(&p);
    void *progress_args[2] = {&p, (void *)s->call};
    api->easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    api->easy_setopt(h, CURLOPT_XFERINFOFUNCTION, http_progress);
    api->easy_setopt(h, CURLOPT_XFERINFODATA, progress_args);
    if (s->ca_file)
        api->easy_setopt(h, CURLOPT_CAINFO, s->ca_file);
    api->easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
    api->easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    api->easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    if (s->headers)
        api->easy_setopt(h, CURLOPT_HTTPHEADER, s->headers);
    if (!strcmp(method, "HEAD")) {
        api->easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (!strcmp(method, "PUT")) {
        api->easy_setopt(h, CURLOPT_UPLOAD, 1L);
        api->easy_setopt(h, CURLOPT_READFUNCTION, source_read);
        api->easy_setopt(h, CURLOPT_READDATA, out);
        api->easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)out->size);
    }
    if (in) {
        api->easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_write);
        api->easy_setopt(h, CURLOPT_WRITEDATA, in);
        /* a Content-Length over the cap: refused before any of the body is read */
        api->easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)in->max);
    } else {
        api->easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    }
    CURLcode code = api->easy_perform(h);
    *status = 0;
    api->easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    if (code == CURLE_ABORTED_BY_CALLBACK && p.why)
        return remote_pace_fail(&p, s->call, method, diag);
    if ((code == CURLE_WRITE_ERROR && in && in->over) || code == CURLE_FILESIZE_EXCEEDED)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "%s/%s/%s: the answer is too large",
                             s->call->shown, ns, name);
    if (code == CURLE_PARTIAL_FILE && in)
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT_TRUNCATED, -1,
                             "%s/%s/%s: the answer is shorter than it said", s->call->shown, ns,
                             name);
    if (code != CURLE_OK)
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "%s %s/%s: %s", method, ns, name,
                             api->easy_strerror(code));
    return DGPB_OK;
}

static int http_get(void *state, const char *ns, const char *name, size_t max, uint8_t **data,
                    size_t *size, dgpb_diag *diag)
{
    http_store *s = state;
    sink in = {.max = max};
    long status = 0;
    int rc = http_request(s, "GET", ns, name, &in, NULL, &status, diag);
    if (!rc && status == 404)
        rc = DGPB_ERR_NOT_FOUND;
    else if (!rc && status != 200)
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "GET %s/%s: HTTP status %ld", ns, name, status);
    if (rc) {
        dgpb_free(in.data);
        return rc;
    }
    if (!in.data && !(in.data = mem_alloc(1)))
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    in.data[in.size] = 0;
    *data = in.data;
    *size = in.size;
    return DGPB_OK;
}

static int http_put(void *state, const char *ns, const char *name, const void *data, size_t size,
                    dgpb_diag *diag)
{
    http_store *s = state;
    source out = {data, size, 0};
    long status = 0;
    int rc = http_request(s, "PUT", ns, name, NULL, &out, &status, diag);
    if (!rc && (status < 200 || status > 299))
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "PUT %s/%s: HTTP status %ld", ns, name, status);
    return rc;
}

static int http_head(void *state, const char *ns, const char *name, dgpb_diag *diag)
{
    http_store *s = state;
    long status = 0;
    int rc = http_request(s, "HEAD", ns, name, NULL, NULL, &status, diag);
    if (!rc && status == 404)
        return DGPB_ERR_NOT_FOUND;
    if (!rc && status != 200)
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "HEAD %s/%s: HTTP status %ld", ns, name, status);
    return rc;
}

const remote_ops remote_http_ops = {
    .url_problem = http_url_problem,
    .open = http_open,
    .close = http_close,
    .get = http_get,
    .put = http_put,
    .head = http_head,
};
