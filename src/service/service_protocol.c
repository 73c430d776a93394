/*
 * service_protocol.c - the compile service's wire (service/service_protocol.h):
 * lines in, lines out, over a non-blocking stream socket, and the reads of
 * message members that both ends check.
 */
#define _GNU_SOURCE /* MSG_NOSIGNAL */
#include "service/service_protocol.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/alloc.h"

void service_conn_init(service_conn *c, int fd, size_t max_line)
{
    memset(c, 0, sizeof *c);
    c->fd = fd;
    c->max_line = max_line;
    int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

void service_conn_close(service_conn *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    bytebuf_free(&c->in);
    bytebuf_free(&c->out);
    c->in_taken = c->line_start = c->out_sent = 0;
}

service_io service_conn_read(service_conn *c)
{
    char buf[65536];
    ssize_t n = recv(c->fd, buf, sizeof buf, 0);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK ? SERVICE_IO_OK
                                                                         : SERVICE_IO_ERROR;
    if (n == 0)
        return SERVICE_IO_EOF;
    if (c->in_taken) { /* make room where the lines taken were */
        memmove(c->in.data, c->in.data + c->in_taken, c->in.len - c->in_taken);
        c->in.len -= c->in_taken;
        c->line_start -= c->in_taken;
        c->in_taken = 0;
    }
    size_t from = c->in.len;
    bytebuf_append(&c->in, buf, (size_t)n);
    if (c->in.failed)
        return SERVICE_IO_TOO_LONG;
    /* Every line, the one still in the making too, is bounded. */
    const char *data = (const char *)c->in.data;
    for (const char *nl; (nl = memchr(data + from, '\n', c->in.len - from));) {
        size_t at = (size_t)(nl - data);
        if (at - c->line_start > c->max_line)
            return SERVICE_IO_TOO_LONG;
        c->line_start = from = at + 1;
    }
    return c->in.len - c->line_start > c->max_line ? SERVICE_IO_TOO_LONG : SERVICE_IO_OK;
}

bool service_conn_line(const service_conn *c, const char **line, size_t *len)
{
    const char *start = (const char *)c->in.data + c->in_taken;
    size_t left = c->in.len - c->in_taken;
    const char *nl = left ? memchr(start, '\n', left) : NULL;
    if (!nl)
        return false;
    *line = start;
    *len = (size_t)(nl - start);
    return true;
}

void service_conn_drop(service_conn *c, size_t len)
{
    c->in_taken += len + 1;
    if (c->in_taken == c->in.len)
        c->in.len = c->in_taken = c->line_start = 0;
}

bool service_conn_put(service_conn *c, const cJSON *message)
{
    char *text = cJSON_PrintUnformatted(message);
    if (!text)
        return false;
    if (c->out_sent && c->out_sent == c->out.len)
        c->out.len = c->out_sent = 0;
    bytebuf_append(&c->out, text, strlen(text));
    bytebuf_append(&c->out, "\n", 1);
    cJSON_free(text);
    return !c->out.failed;
}

service_io service_conn_flush(service_conn *c)
{
    while (c->out_sent < c->out.len) {
        ssize_t n = send(c->fd, c->out.data + c->out_sent, c->out.len - c->out_sent,
                         MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return SERVICE_IO_OK;
        if (n < 0)
            return errno == EPIPE || errno == ECONNRESET ? SERVICE_IO_EOF : SERVICE_IO_ERROR;
        c->out_sent += (size_t)n;
    }
    c->out.len = c->out_sent = 0;
    return SERVICE_IO_OK;
}

bool service_get_id(const cJSON *object, const char *key, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > (double)SERVICE_ID_MAX ||
        v->valuedouble != (double)(uint64_t)v->valuedouble)
        return false;
    *out = (uint64_t)v->valuedouble;
    return true;
}

const char **service_get_string_array(const cJSON *object, const char *key, size_t *n, bool *nomem)
{
    *n = 0;
    *nomem = false;
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(object, key);
    if (!cJSON_IsArray(array))
        return NULL;
    size_t count = (size_t)cJSON_GetArraySize(array);
    const char **v = mem_calloc(count + 1, sizeof *v);
    if (!v) {
        *nomem = true;
        return NULL;
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, array)
    {
        if (!cJSON_IsString(item)) {
            dgpb_free(v);
            *n = 0;
            return NULL;
        }
        v[(*n)++] = item->valuestring;
    }
    return v;
}
