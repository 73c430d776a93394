/*
 * service_protocol.h - the compile service's wire (internal,
 * docs/service.md "Protocol"): newline-delimited JSON over a stream socket,
 * one message a line, each way bounded in length.
 *
 * A service_conn is one end of a connection: its socket (non-blocking), what
 * has come in and not been taken as lines yet, and what is queued to go out.
 * Neither end ever blocks on the other: reads take what is there, writes
 * send what the socket takes and keep the rest for the next poll().
 *
 * Messages (client -> service, then service -> client):
 *   {"hello": 1, "identity": HEX, "pid": N}
 *       -> {"hello": 1, "pid": N, "workers": W, "started": S}, with "local": WHY
 *          when the service has no workers (its compiler runs as processes), or
 *          {"error": WHY} (then the service closes the connection)
 *   {"job": ID, "cwd": "/abs", "args": [...], "layout": false, "parallel": P}, with
 *   "layout_output": F for a compile that records its program's layout too (native workers)
 *       -> {"job": ID, "started": true} when a worker takes it, then
 *          {"job": ID, "status": N, "diagnostics": "...", "output": "..."}, or
 *          {"job": ID, "failed": WHY} when its worker died or answered garbage
 *   {"stop": 1} -> {"stopped": PID}, then the service exits
 *   while a client has jobs queued or running: {"alive": 1} at least every second
 */
#ifndef DGPB_SERVICE_PROTOCOL_H
#define DGPB_SERVICE_PROTOCOL_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define service_conn_close dgpb__service_conn_close
#define service_conn_drop dgpb__service_conn_drop
#define service_conn_flush dgpb__service_conn_flush
#define service_conn_init dgpb__service_conn_init
#define service_conn_line dgpb__service_conn_line
#define service_conn_put dgpb__service_conn_put
#define service_conn_read dgpb__service_conn_read
#define service_get_id dgpb__service_get_id
#define service_get_string_array dgpb__service_get_string_array

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytebuf.h"

/* The longest line a service reads from a client: a job's arguments. */
#define SERVICE_REQUEST_MAX ((size_t)16 << 20)
/* The longest line a client reads from the service: a worker's answer (256 MB) and its frame. */
#define SERVICE_ANSWER_MAX (((size_t)256 << 20) + ((size_t)64 << 10))
/* Job numbers are JSON numbers: whole, from 0 to 2^53. */
#define SERVICE_ID_MAX ((uint64_t)1 << 53)

typedef struct service_conn {
    int fd;            /* the socket, non-blocking; -1 when closed */
    size_t max_line;   /* the longest line accepted */
    dgpb_bytebuf in;   /* received, not yet taken as lines */
    size_t in_taken;   /* bytes of `in` already taken */
    size_t line_start; /* where in `in` the line being received starts */
    dgpb_bytebuf out;  /* queued to send */
    size_t out_sent;   /* bytes of `out` already sent */
} service_conn;

/* What a read or a flush found. */
typedef enum service_io {
    SERVICE_IO_OK = 0,   /* done what could be done without blocking */
    SERVICE_IO_EOF,      /* the other end closed the connection */
    SERVICE_IO_TOO_LONG, /* a line longer than max_line (or memory for it ran out) */
    SERVICE_IO_ERROR,    /* the socket failed (errno) */
} service_io;

/* Takes `fd` (made non-blocking) as a connection's socket, with empty buffers. */
void service_conn_init(service_conn *c, int fd, size_t max_line);

/* Closes the socket and frees the buffers; the conn is closed (fd -1). */
void service_conn_close(service_conn *c);

/* Reads what the socket has, once. */
service_io service_conn_read(service_conn *c);

/* The next complete line received (without its newline), or false when none. */
bool service_conn_line(const service_conn *c, const char **line, size_t *len);

/* Drops the line of `len` bytes service_conn_line() gave, and its newline. */
void service_conn_drop(service_conn *c, size_t len);

/* Queues a message as one line. False when out of memory. */
bool service_conn_put(service_conn *c, const cJSON *message);

/* Sends what is queued, as much as the socket takes now; SERVICE_IO_OK also when some is left. */
service_io service_conn_flush(service_conn *c);

/* Whether something queued is still to be sent. */
static inline bool service_conn_pending(const service_conn *c)
{
    return c->out_sent < c->out.len;
}

/* A member that is a whole number from 0 to SERVICE_ID_MAX: true with *out set. */
bool service_get_id(const cJSON *object, const char *key, uint64_t *out);

/*
 * A member that is an array of strings: a new NULL-terminated vector of
 * pointers into the cJSON (dgpb_free() it, not the strings) and *n, or NULL
 * when it is not one (*nomem set when memory ran out).
 */
const char **service_get_string_array(const cJSON *object, const char *key, size_t *n, bool *nomem);

#endif
