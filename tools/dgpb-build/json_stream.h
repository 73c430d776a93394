/*
 * json_stream.h - a stream of JSON objects read one at a time from a file
 * descriptor, as Bazel writes work requests to a persistent worker: each
 * object may span several lines (Bazel 4.2 pretty-prints them), objects
 * follow each other with or without white space between them. An object is
 * framed by counting braces and brackets outside strings (escapes
 * followed), never by lines; what it holds is parsed by the caller.
 */
#ifndef DGPB_BUILD_JSON_STREAM_H
#define DGPB_BUILD_JSON_STREAM_H

#include <stddef.h>

/* The largest object read: 64 MiB (a request names every input of its action). */
#define JSON_STREAM_MAX ((size_t)64 << 20)

typedef struct json_stream {
    int fd;
    char *buf;       /* bytes read and not yet handed out (owned) */
    size_t start;    /* where they begin in buf */
    size_t len, cap; /* end of the bytes read, and buf's size */
} json_stream;

/* A stream on `fd` (not owned); release with json_stream_free(). */
void json_stream_init(json_stream *s, int fd);

/*
 * Reads the next object. Returns 1 with *text (*size bytes, not
 * NUL-terminated; in the stream's buffer, which the caller may modify, valid
 * until the next call: never copied) set to the object, from its '{' to its
 * '}'; 0 at the end of the input when only white space came
 * after the last object; -1 with *why (a static string) when the input
 * holds something other than an object, ends inside one, holds one larger
 * than JSON_STREAM_MAX, cannot be read, or a signal interrupted the read.
 */
int json_stream_next(json_stream *s, char **text, size_t *size, const char **why);

void json_stream_free(json_stream *s);

#endif
