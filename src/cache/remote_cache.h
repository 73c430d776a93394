/*
 * cache/remote_cache.h - a remote store for the compile cache (docs/cache.md
 * "Remote stores"), whichever its URL names: an HTTP store speaking the Bazel
 * remote-cache protocol (GET, PUT, HEAD on <url>/ac/<hex> and
 * <url>/cas/<sha256>; cache/remote_http.c) or a Redis server (keys
 * "dgpb:v1:ac:<hex>" and "dgpb:v1:cas:<sha256>"; cache/remote_redis.c), each
 * behind one ops table (cache/remote_store.h).
 *
 * A handle is used by one thread at a time. Requests are bounded, for HTTP and
 * Redis alike (docs/cache.md "Remote stores"): connect 2 s, 2 s without a byte, under
 * 1 KiB in any 5 s, 60 s in all, and `max` bytes of answer, refused on the
 * length the store announces before any of it is read; a signal
 * (remote_cancel_on) ends a request as DGPB_ERR_INTERRUPTED (within 0.1 s
 * for Redis, about 1 s for HTTP, 2 s while connecting).
 * https stores are checked against the system's certificates or the file
 * DGPB_CACHE_REMOTE_CA names. A failure to reach the store, or one too slow, is
 * DGPB_ERR_IO, an absent entry DGPB_ERR_NOT_FOUND, an answer larger than asked
 * DGPB_ERR_LIMIT, one shorter than its Content-Length
 * DGPB_ERR_CORRUPT_TRUNCATED, one that is not a Redis answer DGPB_ERR_CORRUPT.
 * Messages name the store by its URL with everything between "//" and its
 * last '@' replaced by "***", and never carry the header of
 * DGPB_CACHE_REMOTE_HEADER.
 */
#ifndef DGPB_REMOTE_CACHE_H
#define DGPB_REMOTE_CACHE_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define remote_action_key dgpb__remote_action_key
#define remote_entry_parse dgpb__remote_entry_parse
#define remote_entry_text dgpb__remote_entry_text
#define remote_cancel_on dgpb__remote_cancel_on
#define remote_deadline_on dgpb__remote_deadline_on
#define remote_close dgpb__remote_close
#define remote_get dgpb__remote_get
#define remote_head dgpb__remote_head
#define remote_key_valid dgpb__remote_key_valid
#define remote_open dgpb__remote_open
#define remote_parse_url dgpb__remote_parse_url
#define remote_put dgpb__remote_put
#define remote_shown dgpb__remote_shown

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "cache/remote_store.h"
#include "dgpb/cache.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest content fetched from a store. */
#define DGPB_REMOTE_MAX_BLOB ((size_t)64 << 20)

/* A parsed store URL. */
typedef struct dgpb_remote_url {
    const remote_ops *store; /* its scheme's store (cache/remote_store.h) */
    char base[2048];         /* the URL without trailing slashes */
    char shown[2048];        /* the URL with its user information replaced by ***, for messages */
} dgpb_remote_url;

/*
 * Parses a URL of one of the schemes of the front's table (http://...,
 * https://... or redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]), the store's part
 * checked by the store. DGPB_ERR_INVALID (with a message that shows no
 * password) when it is none.
 */
int remote_parse_url(const char *url, dgpb_remote_url *out, dgpb_diag *diag);

/*
 * The action key of a local entry: the SHA-256 of kind || key, 64 lowercase hex
 * digits (the length bazel-remote takes for /ac/ keys).
 */
void remote_action_key(char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE], char hex[65]);

/* Whether `name` is a store key: 1 to 128 lowercase hex digits (no path can be made of it). */
int remote_key_valid(const char *name);

/*
 * An action entry's body (docs/cache.md, "Trust"): the content's SHA-256 in hex, and with a
 * team key (`team_key_len` > 0) a space and the HMAC-SHA-256 under it of "ACTION SHA256".
 * remote_entry_text writes it into `out`; false when OpenSSL fails.
 */
bool remote_entry_text(const uint8_t *team_key, size_t team_key_len, const char *action,
                       const char *name, char out[130]);

/*
 * Reads a body as the store returned it (trailing whitespace allowed): 1 with `name` (the
 * content's SHA-256) and *authenticated (with a team key: the HMAC is there and right;
 * without one: always true), 0 for a body that is neither form (a corrupt answer).
 */
int remote_entry_parse(const uint8_t *text, size_t n, const uint8_t *team_key, size_t team_key_len,
                       const char *action, char name[65], bool *authenticated);

typedef struct dgpb_remote dgpb_remote;

/* Opens a handle (connects on first use). DGPB_ERR_INVALID for a bad URL. */
int remote_open(const char *url, dgpb_remote **out, dgpb_diag *diag);
void remote_close(dgpb_remote *r);

/* Requests stop (DGPB_ERR_INTERRUPTED) once *flag is nonzero; NULL: never. */
void remote_cancel_on(dgpb_remote *r, const volatile sig_atomic_t *flag);

/* Requests end as too slow (DGPB_ERR_IO) once CLOCK_MONOTONIC passes *deadline_ms (ms;
   0: no deadline); NULL: never. */
void remote_deadline_on(dgpb_remote *r, const volatile int64_t *deadline_ms);

/* The URL for messages (no user or password). */
const char *remote_shown(const dgpb_remote *r);

/* ns: "ac" or "cas"; name: remote_key_valid. Reads at most `max` bytes (dgpb_free). */
int remote_get(dgpb_remote *r, const char *ns, const char *name, size_t max, uint8_t **data,
               size_t *size, dgpb_diag *diag);
int remote_put(dgpb_remote *r, const char *ns, const char *name, const void *data, size_t size,
               dgpb_diag *diag);
/* DGPB_OK when the entry exists, DGPB_ERR_NOT_FOUND when not. */
int remote_head(dgpb_remote *r, const char *ns, const char *name, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
