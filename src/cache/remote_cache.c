/*
 * remote_cache.c - the compile cache's remote stores (cache/remote_cache.h,
 * docs/cache.md "Remote stores"): HTTP through libcurl, Redis through hiredis.
 */
#define _GNU_SOURCE
#include "cache/remote_cache.h"

#include <curl/curl.h>
#include <fcntl.h>
#include <hiredis/hiredis.h>
#include <hiredis/sds.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/alloc.h"
#include "dgpb/alloc.h"
#include "dgpb/sha256.h"

/*
 * The limits of one request, for HTTP and Redis alike (docs/cache.md "Remote stores"):
 * a store that cannot be reached holds it for CONNECT_TIMEOUT_MS, one that says
 * nothing for STALL_MS (no byte in either direction for that long), one that
 * moves fewer than SLOW_BYTES in any SLOW_WINDOW_MS (a trickle) for that
 * window; a large entry on a slow but live link may take TOTAL_TIMEOUT_MS in
 * all. A signal (dgpb_remote_cancel_on) ends a Redis request within POLL_MS,
 * an HTTP one within about a second (how often libcurl calls its progress
 * function while it waits), either within CONNECT_TIMEOUT_MS while connecting.
 */
#define CONNECT_TIMEOUT_MS 2000L
#define STALL_MS 2000L
#define SLOW_WINDOW_MS 5000L
#define SLOW_BYTES 1024L
#define TOTAL_TIMEOUT_MS 60000L
#define POLL_MS 100

struct dgpb_remote {
    dgpb_remote_url url;
    CURL *curl;
    struct curl_slist *headers;
    char *ca_file; /* DGPB_CACHE_REMOTE_CA: the certificates an https store is checked against */
    redisContext *redis;
    const volatile sig_atomic_t *cancel; /* nonzero: stop the request (a signal) */
};

/* ---- the pace of a request ---- */

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

typedef struct pace {
    int64_t start, last_byte, window_start;
    uint64_t moved, window_moved; /* bytes sent and received */
    const char *why;              /* why it was stopped, or NULL */
    bool interrupted;
} pace;

static void pace_start(pace *p)
{
    memset(p, 0, sizeof *p);
    p->start = p->last_byte = p->window_start = now_ms();
}

/* Counts `moved` bytes in all so far; false (p->why set) when the request must stop. */
static bool pace_ok(pace *p, const dgpb_remote *r, uint64_t moved)
{
    int64_t now = now_ms();
    if (moved > p->moved)
        p->last_byte = now;
    p->moved = moved;
    if (r->cancel && *r->cancel) {
        p->interrupted = true;
        p->why = "interrupted";
    } else if (now - p->start > TOTAL_TIMEOUT_MS) {
        p->why = "too slow: no answer in 60 s";
    } else if (now - p->last_byte > STALL_MS) {
        p->why = "too slow: no byte in 2 s";
    } else if (now - p->window_start >= SLOW_WINDOW_MS) {
        if (moved - p->window_moved < (uint64_t)SLOW_BYTES)
            p->why = "too slow: under 1 KiB in 5 s";
        p->window_start = now;
        p->window_moved = moved;
    }
    return !p->why;
}

static int pace_fail(const pace *p, const dgpb_remote *r, const char *what, dgpb_diag *diag)
{
    return dgpb_diag_set(diag, p->interrupted ? DGPB_ERR_INTERRUPTED : DGPB_ERR_IO, -1, "%s %s: %s",
                         what, r->url.shown, p->why);
}

/* ---- URLs and keys ---- */

static int bad_url(dgpb_diag *diag, const char *why)
{
    return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                         "the remote cache URL is not one of http://..., https://... or "
                         "redis://[:PASSWORD@]HOST[:PORT][/DB] (%s)",
                         why);
}

/*
 * Copies `url` into `shown` with everything between the scheme's "//" and the
 * last '@' replaced by "***": a user and a password, whatever they hold ('#',
 * '?', '/', ':', '@'). A URL without '@' is shown as it is.
 */
static void remove_password(const char *url, char *shown, size_t size)
{
    const char *scheme_end = strstr(url, "://");
    const char *auth = scheme_end ? scheme_end + 3 : url;
    const char *at = strrchr(auth, '@');
    if (!at)
        snprintf(shown, size, "%s", url);
    else
        snprintf(shown, size, "%.*s***%s", (int)(auth - url), url, at);
}

int dgpb_remote_parse_url(const char *url, dgpb_remote_url *out, dgpb_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!url || !*url)
        return bad_url(diag, "empty");
    if (strlen(url) >= sizeof out->base)
        return bad_url(diag, "too long");
    for (const char *p = url; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f)
            return bad_url(diag, "a space or control character");
    remove_password(url, out->shown, sizeof out->shown);
    if (!strncasecmp(url, "http://", 7) || !strncasecmp(url, "https://", 8)) {
        out->scheme = DGPB_REMOTE_HTTP;
        const char *host = strstr(url, "://") + 3;
        if (!*host || *host == '/')
            return bad_url(diag, "no host");
        if (strchr(url, '?') || strchr(url, '#'))
            return bad_url(diag, "a query or fragment; write '#' and '?' in a password as "
                                 "%23 and %3F");
        snprintf(out->base, sizeof out->base, "%s", url);
        size_t n = strlen(out->base);
        while (n && out->base[n - 1] == '/')
            out->base[--n] = 0;
        return DGPB_OK;
    }
    if (strncasecmp(url, "redis://", 8))
        return bad_url(diag, "an unknown scheme");
    out->scheme = DGPB_REMOTE_REDIS;
    out->port = 6379;
    const char *p = url + 8;
    const char *at = strrchr(p, '@'); /* the password may hold '/', '#', '?' and '@' */
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        size_t user_len = colon ? (size_t)(colon - p) : (size_t)(at - p);
        if (user_len >= sizeof out->user)
            return bad_url(diag, "a user name too long");
        memcpy(out->user, p, user_len);
        if (colon) {
            size_t pass_len = (size_t)(at - colon - 1);
            if (pass_len >= sizeof out->password)
                return bad_url(diag, "a password too long");
            memcpy(out->password, colon + 1, pass_len);
        } else {
            /* redis://PASSWORD@HOST: a password alone, as redis-cli reads it */
            memcpy(out->password, out->user, user_len + 1);
            out->user[0] = 0;
        }
        p = at + 1;
    }
    const char *host_end = p + strcspn(p, ":/");
    if (host_end == p)
        return bad_url(diag, "no host");
    if ((size_t)(host_end - p) >= sizeof out->host)
        return bad_url(diag, "a host name too long");
    memcpy(out->host, p, (size_t)(host_end - p));
    p = host_end;
    if (*p == ':') {
        char *end = NULL;
        long port = strtol(p + 1, &end, 10);
        if (end == p + 1 || port < 1 || port > 65535 || (*end && *end != '/'))
            return bad_url(diag, "a bad port");
        out->port = (int)port;
        p = end;
    }
    if (*p == '/' && p[1]) {
        char *end = NULL;
        long db = strtol(p + 1, &end, 10);
        if (end == p + 1 || db < 0 || db > 1000000 || (*end && strcmp(end, "/")))
            return bad_url(diag, "a bad database number");
        out->db = (int)db;
    } else if (*p && strcmp(p, "/")) {
        return bad_url(diag, "a bad host");
    }
    return DGPB_OK;
}

void dgpb_remote_action_key(char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                            char hex[2 * DGPB_SHA256_SIZE + 1])
{
    uint8_t text[1 + DGPB_CACHE_KEY_SIZE], sha[DGPB_SHA256_SIZE];
    text[0] = (uint8_t)kind;
    memcpy(text + 1, key, DGPB_CACHE_KEY_SIZE);
    if (dgpb_sha256(text, sizeof text, sha))
        memset(sha, 0, sizeof sha); /* no memory for OpenSSL: a key nothing is filed under */
    dgpb_sha256_hex(sha, hex);
}

int dgpb_remote_key_valid(const char *name)
{
    size_t n = 0;
    for (; name[n]; n++)
        if (!((name[n] >= '0' && name[n] <= '9') || (name[n] >= 'a' && name[n] <= 'f')))
            return 0;
    return n >= 1 && n <= 128;
}

static int check_names(const char *ns, const char *name, dgpb_diag *diag)
{
    if ((strcmp(ns, "ac") && strcmp(ns, "cas")) || !dgpb_remote_key_valid(name))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "not a remote cache key");
    return DGPB_OK;
}

/* ---- handles ---- */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_code;

static void init_curl(void)
{
    curl_init_code = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int dgpb_remote_open(const char *url, dgpb_remote **out, dgpb_diag *diag)
{
    *out = NULL;
    dgpb_remote *r = mem_calloc(1, sizeof *r);
    if (!r)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    int rc = dgpb_remote_parse_url(url, &r->url, diag);
    if (rc) {
        dgpb_free(r);
        return rc;
    }
    if (r->url.scheme == DGPB_REMOTE_HTTP) {
        pthread_once(&curl_once, init_curl);
        if (curl_init_code || !(r->curl = curl_easy_init())) {
            dgpb_free(r);
            return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "libcurl cannot start");
        }
        const char *header = getenv("DGPB_CACHE_REMOTE_HEADER");
        if (header && *header) {
            if (!strchr(header, ':') || strpbrk(header, "\r\n")) {
                dgpb_remote_close(r);
                return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                                     "DGPB_CACHE_REMOTE_HEADER is not one 'Name: value' header");
            }
            if (!(r->headers = curl_slist_append(NULL, header))) {
                dgpb_remote_close(r);
                return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
            }
        }
        const char *ca = getenv("DGPB_CACHE_REMOTE_CA");
        if (ca && *ca && !(r->ca_file = mem_strdup(ca))) {
            dgpb_remote_close(r);
            return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        }
    } else if (!r->url.password[0]) {
        const char *password = getenv("DGPB_CACHE_REMOTE_PASSWORD");
        if (password && *password)
            snprintf(r->url.password, sizeof r->url.password, "%s", password);
    }
    *out = r;
    return DGPB_OK;
}

void dgpb_remote_close(dgpb_remote *r)
{
    if (!r)
        return;
    if (r->curl)
        curl_easy_cleanup(r->curl);
    curl_slist_free_all(r->headers);
    dgpb_free(r->ca_file);
    if (r->redis)
        redisFree(r->redis);
    explicit_bzero(r->url.password, sizeof r->url.password);
    dgpb_free(r);
}

void dgpb_remote_cancel_on(dgpb_remote *r, const volatile sig_atomic_t *flag)
{
    r->cancel = flag;
}

const char *dgpb_remote_shown(const dgpb_remote *r)
{
    return r->url.shown;
}

/* ---- HTTP ---- */

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
    return !pace_ok(args[0], args[1], (uint64_t)dlnow + (uint64_t)ulnow);
}

/* One request; *status the HTTP status. DGPB_ERR_IO when the store cannot be reached. */
static int http_request(dgpb_remote *r, const char *method, const char *ns, const char *name,
                        sink *in, source *out, long *status, dgpb_diag *diag)
{
    char url[2300];
    snprintf(url, sizeof url, "%s/%s/%s", r->url.base, ns, name);
    CURL *h = r->curl;
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, CONNECT_TIMEOUT_MS);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, TOTAL_TIMEOUT_MS);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, STALL_MS / 1000);
    pace p;
    pace_start(&p);
    void *progress_args[2] = {&p, r};
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, http_progress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, progress_args);
    if (r->ca_file)
        curl_easy_setopt(h, CURLOPT_CAINFO, r->ca_file);
    curl_easy_setopt(h, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    if (r->headers)
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, r->headers);
    if (!strcmp(method, "HEAD")) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (!strcmp(method, "PUT")) {
        curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(h, CURLOPT_READFUNCTION, source_read);
        curl_easy_setopt(h, CURLOPT_READDATA, out);
        curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)out->size);
    }
    if (in) {
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_write);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, in);
        /* a Content-Length over the cap: refused before any of the body is read */
        curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)in->max);
    } else {
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    }
    CURLcode code = curl_easy_perform(h);
    *status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
    if (code == CURLE_ABORTED_BY_CALLBACK && p.why)
        return pace_fail(&p, r, method, diag);
    if ((code == CURLE_WRITE_ERROR && in && in->over) || code == CURLE_FILESIZE_EXCEEDED)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "%s/%s/%s: the answer is too large",
                             r->url.shown, ns, name);
    if (code == CURLE_PARTIAL_FILE && in)
        return dgpb_diag_set(diag, DGPB_ERR_CORRUPT_TRUNCATED, -1,
                             "%s/%s/%s: the answer is shorter than it said", r->url.shown, ns,
                             name);
    if (code != CURLE_OK)
        return dgpb_diag_set(diag, DGPB_ERR_IO, -1, "%s %s/%s: %s", method, ns, name,
                             curl_easy_strerror(code));
    return DGPB_OK;
}

static int http_get(dgpb_remote *r, const char *ns, const char *name, size_t max, uint8_t **data,
                    size_t *size, dgpb_diag *diag)
{
    sink in = {.max = max};
    long status = 0;
    int rc = http_request(r, "GET", ns, name, &in, NULL, &status, diag);
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

static int http_put(dgpb_remote *r, const char *ns, const char *name, const void *data, size_t size,
                    dgpb_diag *diag)
{
    source out = {data, size, 0};
    long status = 0;
    int rc = http_request(r, "PUT", ns, name, NULL, &out, &status, diag);
    if (!rc && (status < 200 || status > 299))
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "PUT %s/%s: HTTP status %ld", ns, name, status);
    return rc;
}

static int http_head(dgpb_remote *r, const char *ns, const char *name, dgpb_diag *diag)
{
    long status = 0;
    int rc = http_request(r, "HEAD", ns, name, NULL, NULL, &status, diag);
    if (!rc && status == 404)
        return DGPB_ERR_NOT_FOUND;
    if (!rc && status != 200)
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "HEAD %s/%s: HTTP status %ld", ns, name, status);
    return rc;
}

/* ---- Redis ---- */

static int redis_fail(dgpb_remote *r, const char *what, dgpb_diag *diag)
{
    int rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "%s: %s", what,
                           r->redis && r->redis->errstr[0] ? r->redis->errstr : "no answer");
    if (r->redis) {
        redisFree(r->redis);
        r->redis = NULL;
    }
    return rc;
}

/*
 * The command appended to r->redis sent and its one reply read, within the
 * limits of a request: a reply whose first byte is not in `accept` (so no array
 * is ever parsed), a bulk string longer than `max` (refused on its length, before
 * any of it is read) or more than `max` bytes buffered are DGPB_ERR_LIMIT; a
 * trickle, a stall or a signal end it. The connection is closed on any failure.
 */
static int redis_roundtrip(dgpb_remote *r, const char *what, const char *accept, size_t max,
                           redisReply **out, dgpb_diag *diag)
{
    *out = NULL;
    redisContext *c = r->redis;
    pace p;
    pace_start(&p);
    uint64_t moved = 0, received = 0;
    char head[32]; /* the reply's first bytes: its type and length */
    size_t head_n = 0;
    int done = 0, rc = DGPB_OK;
    void *reply = NULL;
    if (c->reader->len > c->reader->pos) { /* bytes after the last answer: none was asked */
        rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1, "%s %s: an answer to no command", what,
                           r->url.shown);
        goto out;
    }
    while (!done) { /* the command */
        struct pollfd fd = {.fd = c->fd, .events = POLLOUT};
        if (!pace_ok(&p, r, moved)) {
            rc = pace_fail(&p, r, what, diag);
            goto out;
        }
        if (poll(&fd, 1, POLL_MS) <= 0)
            continue;
        size_t before = sdslen(c->obuf);
        if (redisBufferWrite(c, &done) != REDIS_OK)
            return redis_fail(r, what, diag);
        moved += before - (done ? 0 : sdslen(c->obuf));
    }
    while (!reply) { /* its reply */
        struct pollfd fd = {.fd = c->fd, .events = POLLIN};
        if (!pace_ok(&p, r, moved)) {
            rc = pace_fail(&p, r, what, diag);
            goto out;
        }
        if (poll(&fd, 1, POLL_MS) <= 0)
            continue;
        size_t before = c->reader->len;
        if (redisBufferRead(c) != REDIS_OK)
            return redis_fail(r, what, diag);
        size_t got = c->reader->len - before; /* at c->reader->buf + before */
        moved += got;
        received += got;
        size_t keep = got < sizeof head - 1 - head_n ? got : sizeof head - 1 - head_n;
        memcpy(head + head_n, c->reader->buf + before, keep);
        head_n += keep;
        head[head_n] = 0;
        if (head_n && !strchr(accept, head[0])) {
            rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1, "%s %s: not a Redis answer to it", what,
                               r->url.shown);
            goto out;
        }
        const char *eol = strchr(head, '\n');
        if (head[0] == '$' && (eol || head_n == sizeof head - 1)) {
            char *end = NULL;
            long long len = strtoll(head + 1, &end, 10);
            if (!eol || (end != eol - 1 && end != eol) || len < -1 ||
                (len > 0 && (unsigned long long)len > max)) {
                rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                                   "%s %s: the answer is too large (%.20s bytes)", what,
                                   r->url.shown, head + 1);
                goto out;
            }
        }
        if (received > max + sizeof head) {
            rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "%s %s: the answer is too large", what,
                               r->url.shown);
            goto out;
        }
        if (redisGetReplyFromReader(c, &reply) != REDIS_OK)
            return redis_fail(r, what, diag);
    }
    *out = reply;
out:
    if (rc) {
        redisFree(r->redis);
        r->redis = NULL;
    }
    return rc;
}

/* A command and its reply, formatted as redisCommand does. */
static int redis_ask(dgpb_remote *r, const char *what, const char *accept, size_t max,
                     redisReply **out, dgpb_diag *diag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int appended = redisvAppendCommand(r->redis, fmt, ap);
    va_end(ap);
    if (appended != REDIS_OK)
        return redis_fail(r, what, diag);
    return redis_roundtrip(r, what, accept, max, out, diag);
}

/* The answer to AUTH or SELECT: DGPB_OK for +OK, else DGPB_ERR_IO (the connection closed). */
static int redis_check(dgpb_remote *r, redisReply *reply, const char *what, dgpb_diag *diag)
{
    int rc = DGPB_OK;
    if (reply->type != REDIS_REPLY_STATUS) {
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "%s refused: %.200s", what,
                           reply->type == REDIS_REPLY_ERROR ? reply->str : "no answer");
        redisFree(r->redis);
        r->redis = NULL;
    }
    freeReplyObject(reply);
    return rc;
}

#define SMALL_REPLY 4096 /* the most any answer but GET's may take */

static int redis_connect(dgpb_remote *r, dgpb_diag *diag)
{
    if (r->redis)
        return DGPB_OK;
    struct timeval connect = {CONNECT_TIMEOUT_MS / 1000, 0};
    r->redis = redisConnectWithTimeout(r->url.host, r->url.port, connect);
    if (!r->redis || r->redis->err)
        return redis_fail(r, "connect", diag);
    /* every read and write after a poll (redis_roundtrip): none ever blocks */
    int flags = fcntl(r->redis->fd, F_GETFL);
    if (flags < 0 || fcntl(r->redis->fd, F_SETFL, flags | O_NONBLOCK) < 0)
        return redis_fail(r, "connect", diag);
    r->redis->flags &= ~REDIS_BLOCK;
    redisReply *reply = NULL;
    int rc = DGPB_OK;
    if (r->url.password[0]) {
        if (r->url.user[0])
            rc = redis_ask(r, "AUTH", "+-", SMALL_REPLY, &reply, diag, "AUTH %s %s", r->url.user,
                           r->url.password);
        else
            rc = redis_ask(r, "AUTH", "+-", SMALL_REPLY, &reply, diag, "AUTH %s", r->url.password);
        if (rc || (rc = redis_check(r, reply, "AUTH", diag)))
            return rc;
    }
    if (r->url.db) {
        rc = redis_ask(r, "SELECT", "+-", SMALL_REPLY, &reply, diag, "SELECT %d", r->url.db);
        if (rc || (rc = redis_check(r, reply, "SELECT", diag)))
            return rc;
    }
    return DGPB_OK;
}

static int redis_get(dgpb_remote *r, const char *ns, const char *name, size_t max, uint8_t **data,
                     size_t *size, dgpb_diag *diag)
{
    redisReply *reply = NULL;
    int rc = redis_connect(r, diag);
    if (!rc)
        rc = redis_ask(r, "GET", "$-_", max, &reply, diag, "GET dgpb:v1:%s:%s", ns, name);
    if (rc)
        return rc;
    if (reply->type == REDIS_REPLY_NIL) {
        rc = DGPB_ERR_NOT_FOUND;
    } else if (reply->type != REDIS_REPLY_STRING) {
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "GET %s/%s: %s", ns, name,
                           reply->type == REDIS_REPLY_ERROR ? reply->str : "not a string");
    } else if (reply->len > max) {
        rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "%s/%s/%s: the answer is too large",
                           r->url.shown, ns, name);
    } else {
        uint8_t *copy = mem_alloc(reply->len + 1);
        if (!copy) {
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        } else {
            memcpy(copy, reply->str, reply->len);
            copy[reply->len] = 0;
            *data = copy;
            *size = reply->len;
        }
    }
    freeReplyObject(reply);
    return rc;
}

static int redis_put(dgpb_remote *r, const char *ns, const char *name, const void *data,
                     size_t size, dgpb_diag *diag)
{
    redisReply *reply = NULL;
    int rc = redis_connect(r, diag);
    if (!rc)
        rc = redis_ask(r, "SET", "+-", SMALL_REPLY, &reply, diag, "SET dgpb:v1:%s:%s %b", ns, name,
                       data, size);
    if (rc)
        return rc;
    if (reply->type != REDIS_REPLY_STATUS)
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "SET %s/%s: %s", ns, name,
                           reply->type == REDIS_REPLY_ERROR ? reply->str : "refused");
    freeReplyObject(reply);
    return rc;
}

static int redis_head(dgpb_remote *r, const char *ns, const char *name, dgpb_diag *diag)
{
    redisReply *reply = NULL;
    int rc = redis_connect(r, diag);
    if (!rc)
        rc = redis_ask(r, "EXISTS", ":-", SMALL_REPLY, &reply, diag, "EXISTS dgpb:v1:%s:%s", ns,
                       name);
    if (rc)
        return rc;
    if (reply->type != REDIS_REPLY_INTEGER)
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "EXISTS %s/%s: refused", ns, name);
    else if (!reply->integer)
        rc = DGPB_ERR_NOT_FOUND;
    freeReplyObject(reply);
    return rc;
}

/* ---- requests ---- */

int dgpb_remote_get(dgpb_remote *r, const char *ns, const char *name, size_t max, uint8_t **data,
                    size_t *size, dgpb_diag *diag)
{
    *data = NULL;
    *size = 0;
    int rc = check_names(ns, name, diag);
    if (rc)
        return rc;
    return r->url.scheme == DGPB_REMOTE_HTTP ? http_get(r, ns, name, max, data, size, diag)
                                             : redis_get(r, ns, name, max, data, size, diag);
}

int dgpb_remote_put(dgpb_remote *r, const char *ns, const char *name, const void *data, size_t size,
                    dgpb_diag *diag)
{
    int rc = check_names(ns, name, diag);
    if (rc)
        return rc;
    return r->url.scheme == DGPB_REMOTE_HTTP ? http_put(r, ns, name, data, size, diag)
                                             : redis_put(r, ns, name, data, size, diag);
}

int dgpb_remote_head(dgpb_remote *r, const char *ns, const char *name, dgpb_diag *diag)
{
    int rc = check_names(ns, name, diag);
    if (rc)
        return rc;
    return r->url.scheme == DGPB_REMOTE_HTTP ? http_head(r, ns, name, diag)
                                             : redis_head(r, ns, name, diag);
}
