/*
 * remote_redis.c - the Redis store (cache/remote_redis.h, docs/cache.md
 * "Remote stores") through hiredis, every read and write after a poll, within
 * the limits of a request (cache/remote_store.h): AUTH with the URL's
 * password (and user), else DGPB_CACHE_REMOTE_PASSWORD; SELECT of its
 * database; GET, SET and EXISTS of dgpb:v1:<ns>:<name>.
 */
#define _GNU_SOURCE
#include "cache/remote_redis.h"

#include <fcntl.h>
#include <hiredis/sds.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/remote_libs.h"
#include "core/alloc.h"
#include "dgpb/alloc.h"

typedef struct redis_store {
    const remote_call *call;
    const remote_hiredis_api *api; /* hiredis, loaded by the first store opened */
    remote_redis_url url;
    redisContext *redis;
} redis_store;

const char *remote_redis_parse_url(const char *url, remote_redis_url *out)
{
    memset(out, 0, sizeof *out);
    out->port = 6379;
    const char *p = strstr(url, "://") + 3;
    const char *at = strrchr(p, '@'); /* the password may hold '/', '#', '?' and '@' */
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        size_t user_len = colon ? (size_t)(colon - p) : (size_t)(at - p);
        if (user_len >= sizeof out->user)
            return "a user name too long";
        memcpy(out->user, p, user_len);
        if (colon) {
            size_t pass_len = (size_t)(at - colon - 1);
            if (pass_len >= sizeof out->password)
                return "a password too long";
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
        return "no host";
    if ((size_t)(host_end - p) >= sizeof out->host)
        return "a host name too long";
    memcpy(out->host, p, (size_t)(host_end - p));
    p = host_end;
    if (*p == ':') {
        char *end = NULL;
        long port = strtol(p + 1, &end, 10);
        if (end == p + 1 || port < 1 || port > 65535 || (*end && *end != '/'))
            return "a bad port";
        out->port = (int)port;
        p = end;
    }
    if (*p == '/' && p[1]) {
        char *end = NULL;
        long db = strtol(p + 1, &end, 10);
        if (end == p + 1 || db < 0 || db > 1000000 || (*end && strcmp(end, "/")))
            return "a bad database number";
        out->db = (int)db;
    } else if (*p && strcmp(p, "/")) {
        return "a bad host";
    }
    return NULL;
}

static const char *redis_url_problem(const char *url)
{
    remote_redis_url parsed;
    const char *why = remote_redis_parse_url(url, &parsed);
    explicit_bzero(parsed.password, sizeof parsed.password);
    return why;
}

static void redis_close(void *state)
{
    redis_store *s = state;
    if (!s)
        return;
    if (s->redis)
        s->api->free_context(s->redis);
    explicit_bzero(s->url.password, sizeof s->url.password);
    dgpb_free(s);
}

static int redis_open(const char *url, const char *base, const remote_call *call, void **state,
                      dgpb_diag *diag)
{
    (void)base;
    *state = NULL;
    redis_store *s = mem_calloc(1, sizeof *s);
    if (!s)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    s->call = call;
    int rc = remote_hiredis_load(&s->api, diag);
    if (rc) {
        dgpb_free(s);
        return rc;
    }
    remote_redis_parse_url(url, &s->url); /* the front checked it (url_problem) */
    if (!s->url.password[0]) {
        const char *password = getenv("DGPB_CACHE_REMOTE_PASSWORD");
        if (password && *password)
            snprintf(s->url.password, sizeof s->url.password, "%s", password);
    }
    *state = s;
    return DGPB_OK;
}

/* ---- requests ---- */

static int redis_fail(redis_store *s, const char *what, dgpb_diag *diag)
{
    int rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "%s: %s", what,
                           s->redis && s->redis->errstr[0] ? s->redis->errstr : "no answer");
    if (s->redis) {
        s->api->free_context(s->redis);
        s->redis = NULL;
    }
    return rc;
}

/*
 * The command appended to s->redis sent and its one reply read, within the
 * limits of a request: a reply whose first byte is not in `accept` (so no array
 * is ever parsed), a bulk string longer than `max` (refused on its length, before
 * any of it is read) or more than `max` bytes buffered are DGPB_ERR_LIMIT; a
 * trickle, a stall or a signal end it. The connection is closed on any failure.
 */
static int redis_roundtrip(redis_store *s, const char *what, const char *accept, size_t max,
                           redisReply **out, dgpb_diag *diag)
{
    *out = NULL;
    redisContext *c = s->redis;
    remote_pace p;
    remote_pace_start(&p);
    uint64_t moved = 0, received = 0;
    char head[32]; /* the reply's first bytes: its type and length */
    size_t head_n = 0;
    int done = 0, rc = DGPB_OK;
    void *reply = NULL;
    if (c->reader->len > c->reader->pos) { /* bytes after the last answer: none was asked */
        rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1, "%s %s: an answer to no command", what,
                           s->call->shown);
        goto out;
    }
    while (!done) { /* the command */
        struct pollfd fd = {.fd = c->fd, .events = POLLOUT};
        if (!remote_pace_ok(&p, s->call, moved)) {
            rc = remote_pace_fail(&p, s->call, what, diag);
            goto out;
        }
        if (poll(&fd, 1, REMOTE_POLL_MS) <= 0)
            continue;
        size_t before = sdslen(c->obuf);
        if (s->api->buffer_write(c, &done) != REDIS_OK)
            return redis_fail(s, what, diag);
        moved += before - (done ? 0 : sdslen(c->obuf));
    }
    while (!reply) { /* its reply */
        struct pollfd fd = {.fd = c->fd, .events = POLLIN};
        if (!remote_pace_ok(&p, s->call, moved)) {
            rc = remote_pace_fail(&p, s->call, what, diag);
            goto out;
        }
        if (poll(&fd, 1, REMOTE_POLL_MS) <= 0)
            continue;
        size_t before = c->reader->len;
        if (s->api->buffer_read(c) != REDIS_OK)
            return redis_fail(s, what, diag);
        size_t got = c->reader->len - before; /* at c->reader->buf + before */
        moved += got;
        received += got;
        size_t keep = got < sizeof head - 1 - head_n ? got : sizeof head - 1 - head_n;
        memcpy(head + head_n, c->reader->buf + before, keep);
        head_n += keep;
        head[head_n] = 0;
        if (head_n && !strchr(accept, head[0])) {
            rc = dgpb_diag_set(diag, DGPB_ERR_CORRUPT, -1, "%s %s: not a Redis answer to it", what,
                               s->call->shown);
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
                                   s->call->shown, head + 1);
                goto out;
            }
        }
        if (received > max + sizeof head) {
            rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "%s %s: the answer is too large", what,
                               s->call->shown);
            goto out;
        }
        if (s->api->get_reply_from_reader(c, &reply) != REDIS_OK)
            return redis_fail(s, what, diag);
    }
    *out = reply;
out:
    if (rc) {
        s->api->free_context(s->redis);
        s->redis = NULL;
    }
    return rc;
}

/* A command and its reply, formatted as redisCommand does. */
static int redis_ask(redis_store *s, const char *what, const char *accept, size_t max,
                     redisReply **out, dgpb_diag *diag, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int appended = s->api->append_commandv(s->redis, fmt, ap);
    va_end(ap);
    if (appended != REDIS_OK)
        return redis_fail(s, what, diag);
    return redis_roundtrip(s, what, accept, max, out, diag);
}

/* The answer to AUTH or SELECT: DGPB_OK for +OK, else DGPB_ERR_IO (the connection closed). */
static int redis_check(redis_store *s, redisReply *reply, const char *what, dgpb_diag *diag)
{
    int rc = DGPB_OK;
    if (reply->type != REDIS_REPLY_STATUS) {
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "%s refused: %.200s", what,
                           reply->type == REDIS_REPLY_ERROR ? reply->str : "no answer");
        s->api->free_context(s->redis);
        s->redis = NULL;
    }
    s->api->free_reply(reply);
    return rc;
}

#define SMALL_REPLY 4096 /* the most any answer but GET's may take */

static int redis_connect(redis_store *s, dgpb_diag *diag)
{
    if (s->redis)
        return DGPB_OK;
    struct timeval connect = {REMOTE_CONNECT_TIMEOUT_MS / 1000, 0};
    s->redis = s->api->connect_with_timeout(s->url.host, s->url.port, connect);
    if (!s->redis || s->redis->err)
        return redis_fail(s, "connect", diag);
    /* every read and write after a poll (redis_roundtrip): none ever blocks */
    int flags = fcntl(s->redis->fd, F_GETFL);
    if (flags < 0 || fcntl(s->redis->fd, F_SETFL, flags | O_NONBLOCK) < 0)
        return redis_fail(s, "connect", diag);
    s->redis->flags &= ~REDIS_BLOCK;
    redisReply *reply = NULL;
    int rc = DGPB_OK;
    if (s->url.password[0]) {
        if (s->url.user[0])
            rc = redis_ask(s, "AUTH", "+-", SMALL_REPLY, &reply, diag, "AUTH %s %s", s->url.user,
                           s->url.password);
        else
            rc = redis_ask(s, "AUTH", "+-", SMALL_REPLY, &reply, diag, "AUTH %s", s->url.password);
        if (rc || (rc = redis_check(s, reply, "AUTH", diag)))
            return rc;
    }
    if (s->url.db) {
        rc = redis_ask(s, "SELECT", "+-", SMALL_REPLY, &reply, diag, "SELECT %d", s->url.db);
        if (rc || (rc = redis_check(s, reply, "SELECT", diag)))
            return rc;
    }
    return DGPB_OK;
}

static int redis_get(void *state, const char *ns, const char *name, size_t max, uint8_t **data,
                     size_t *size, dgpb_diag *diag)
{
    redis_store *s = state;
    redisReply *reply = NULL;
    int rc = redis_connect(s, diag);
    if (!rc)
        rc = redis_ask(s, "GET", "$-_", max, &reply, diag, "GET dgpb:v1:%s:%s", ns, name);
    if (rc)
        return rc;
    if (reply->type == REDIS_REPLY_NIL) {
        rc = DGPB_ERR_NOT_FOUND;
    } else if (reply->type != REDIS_REPLY_STRING) {
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "GET %s/%s: %s", ns, name,
                           reply->type == REDIS_REPLY_ERROR ? reply->str : "not a string");
    } else if (reply->len > max) {
        rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1, "%s/%s/%s: the answer is too large",
                           s->call->shown, ns, name);
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
    s->api->free_reply(reply);
    return rc;
}

static int redis_put(void *state, const char *ns, const char *name, const void *data, size_t size,
                     dgpb_diag *diag)
{
    redis_store *s = state;
    redisReply *reply = NULL;
    int rc = redis_connect(s, diag);
    if (!rc)
        rc = redis_ask(s, "SET", "+-", SMALL_REPLY, &reply, diag, "SET dgpb:v1:%s:%s %b", ns, name,
                       data, size);
    if (rc)
        return rc;
    if (reply->type != REDIS_REPLY_STATUS)
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "SET %s/%s: %s", ns, name,
                           reply->type == REDIS_REPLY_ERROR ? reply->str : "refused");
    s->api->free_reply(reply);
    return rc;
}

static int redis_head(void *state, const char *ns, const char *name, dgpb_diag *diag)
{
    redis_store *s = state;
    redisReply *reply = NULL;
    int rc = redis_connect(s, diag);
    if (!rc)
        rc = redis_ask(s, "EXISTS", ":-", SMALL_REPLY, &reply, diag, "EXISTS dgpb:v1:%s:%s", ns,
                       name);
    if (rc)
        return rc;
    if (reply->type != REDIS_REPLY_INTEGER)
        rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "EXISTS %s/%s: refused", ns, name);
    else if (!reply->integer)
        rc = DGPB_ERR_NOT_FOUND;
    s->api->free_reply(reply);
    return rc;
}

const remote_ops remote_redis_ops = {
    .url_problem = redis_url_problem,
    .open = redis_open,
    .close = redis_close,
    .get = redis_get,
    .put = redis_put,
    .head = redis_head,
};
