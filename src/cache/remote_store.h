/*
 * cache/remote_store.h - what one remote store is to the front
 * (cache/remote_cache.c, docs/cache.md "Remote stores"): its ops table, and
 * what the front lends every store, the limits of a request and its
 * cancellation. A store is one file, cache/remote_<store>.c, that exports one
 * remote_ops; the front's table of schemes names it by its URL prefixes
 * (CONTRIBUTING.md "Add a remote store").
 *
 * The limits of one request, for every store alike (docs/cache.md "Remote
 * stores"): a store that cannot be reached holds it for
 * REMOTE_CONNECT_TIMEOUT_MS, one that says nothing for REMOTE_STALL_MS (no byte
 * in either direction for that long), one that moves fewer than
 * REMOTE_SLOW_BYTES in any REMOTE_SLOW_WINDOW_MS (a trickle) for that window; a
 * large entry on a slow but live link may take REMOTE_TOTAL_TIMEOUT_MS in all.
 * A signal (remote_cancel_on) ends a request that polls every
 * REMOTE_POLL_MS within that, one that waits on a library's progress function
 * as often as the library calls it (about a second for libcurl), either within
 * REMOTE_CONNECT_TIMEOUT_MS while connecting.
 */
#ifndef DGPB_REMOTE_STORE_H
#define DGPB_REMOTE_STORE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

#define remote_cancel_on dgpb__remote_cancel_on
#define remote_pace_fail dgpb__remote_pace_fail
#define remote_pace_ok dgpb__remote_pace_ok
#define remote_pace_start dgpb__remote_pace_start

#define REMOTE_CONNECT_TIMEOUT_MS 2000L
#define REMOTE_STALL_MS 2000L
#define REMOTE_SLOW_WINDOW_MS 5000L
#define REMOTE_SLOW_BYTES 1024L
#define REMOTE_TOTAL_TIMEOUT_MS 60000L
#define REMOTE_POLL_MS 100

/*
 * What the front lends a store for the life of its handle: the store's URL
 * for messages (the user information replaced by ***) and the flag that stops
 * its requests (remote_cancel_on; NULL, or set later).
 */
typedef struct remote_call {
    const char *shown;
    const volatile sig_atomic_t *cancel;
    /* When the build's time for the store runs out (CLOCK_MONOTONIC, ms; 0: never): a
       request still running then ends as too slow (remote_deadline_on) */
    const volatile int64_t *deadline_ms;
} remote_call;

/*
 * One store. `url` is the whole URL as given (already checked by the front:
 * not empty, no space or control character, a prefix of this store's); `base`
 * the same without trailing slashes. Every function but url_problem and close
 * reports through `diag` with the result codes of cache/remote_cache.h; ns is
 * "ac" or "cas" and name a valid key (the front checks both).
 */
typedef struct remote_ops {
    /* Why `url` names none of this store's, in the words of the front's message
       ("no host", "a bad port"), or NULL when it is one. */
    const char *(*url_problem)(const char *url);
    /* Opens the store's state (connecting on first use); *state freed by close. */
    int (*open)(const char *url, const char *base, const remote_call *call, void **state,
                dgpb_diag *diag);
    void (*close)(void *state);
    int (*get)(void *state, const char *ns, const char *name, size_t max, uint8_t **data,
               size_t *size, dgpb_diag *diag);
    int (*put)(void *state, const char *ns, const char *name, const void *data, size_t size,
               dgpb_diag *diag);
    int (*head)(void *state, const char *ns, const char *name, dgpb_diag *diag);
} remote_ops;

/* The pace of one request: bytes moved against the limits above, and the cancel flag. */
typedef struct remote_pace {
    int64_t start, last_byte, window_start;
    uint64_t moved, window_moved; /* bytes sent and received */
    const char *why;              /* why it was stopped, or NULL */
    bool interrupted;
} remote_pace;

void remote_pace_start(remote_pace *p);

/* Counts `moved` bytes in all so far; false (p->why set) when the request must stop. */
bool remote_pace_ok(remote_pace *p, const remote_call *call, uint64_t moved);

/* The stopped request's failure: "<what> <shown>: <why>", DGPB_ERR_INTERRUPTED or DGPB_ERR_IO. */
int remote_pace_fail(const remote_pace *p, const remote_call *call, const char *what,
                     dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
