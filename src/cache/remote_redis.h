/*
 * cache/remote_redis.h - the Redis store (cache/remote_redis.c): keys
 * "dgpb:v1:ac:<hex>" and "dgpb:v1:cas:<sha256>" through hiredis, as one
 * remote_ops (cache/remote_store.h), and its URL,
 * redis://[[USER]:PASSWORD@]HOST[:PORT][/DB].
 */
#ifndef DGPB_REMOTE_REDIS_H
#define DGPB_REMOTE_REDIS_H

#include "cache/remote_store.h"

#define remote_redis_ops dgpb__remote_redis_ops
#define remote_redis_parse_url dgpb__remote_redis_parse_url

extern const remote_ops remote_redis_ops;

/* A Redis store's URL. */
typedef struct remote_redis_url {
    char host[256];
    int port;           /* 6379 when not given */
    int db;             /* 0 when not given */
    char user[256];     /* an ACL user, or empty */
    char password[512]; /* from the URL, or empty */
} remote_redis_url;

/* Reads a redis:// URL; NULL, or why it is none ("no host", "a bad port"). */
const char *remote_redis_parse_url(const char *url, remote_redis_url *out);

#endif
