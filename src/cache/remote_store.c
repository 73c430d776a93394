/*
 * remote_store.c - what the front lends every remote store
 * (cache/remote_store.h): the pace of a request against its limits, and its
 * cancellation by a signal.
 */
#define _GNU_SOURCE
#include "cache/remote_store.h"

#include <string.h>
#include <time.h>

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void remote_pace_start(remote_pace *p)
{
    memset(p, 0, sizeof *p);
    p->start = p->last_byte = p->window_start = now_ms();
}

bool remote_pace_ok(remote_pace *p, const remote_call *call, uint64_t moved)
{
    int64_t now = now_ms();
    if (moved > p->moved)
        p->last_byte = now;
    p->moved = moved;
    if (call->cancel && *call->cancel) {
        p->interrupted = true;
        p->why = "interrupted";
    } else if (call->deadline_ms && *call->deadline_ms && now >= *call->deadline_ms) {
        p->why = "too slow: this build's 2 s for the store are spent";
    } else if (now - p->start > REMOTE_TOTAL_TIMEOUT_MS) {
        p->why = "too slow: no answer in 60 s";
    } else if (now - p->last_byte > REMOTE_STALL_MS) {
        p->why = "too slow: no byte in 2 s";
    } else if (now - p->window_start >= REMOTE_SLOW_WINDOW_MS) {
        if (moved - p->window_moved < (uint64_t)REMOTE_SLOW_BYTES)
            p->why = "too slow: under 1 KiB in 5 s";
        p->window_start = now;
        p->window_moved = moved;
    }
    return !p->why;
}

int remote_pace_fail(const remote_pace *p, const remote_call *call, const char *what,
                     dgpb_diag *diag)
{
    return dgpb_diag_set(diag, p->interrupted ? DGPB_ERR_INTERRUPTED : DGPB_ERR_IO, -1, "%s %s: %s",
                         what, call->shown, p->why);
}
