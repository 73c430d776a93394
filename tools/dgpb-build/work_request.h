/*
 * work_request.h - one Bazel work request (JSON flavour) read strictly and
 * in place (docs/build.md, "Bazel's persistent worker"):
 *
 *     {"arguments": ["-o", "out", "a.slang"], "inputs": [...], "requestId": 7}
 *
 * The request's text is its own memory: each argument is unescaped where it
 * stands and ends with a NUL written over its closing quote, so a request
 * costs its text and one pointer an argument, never a node per value (a
 * 28 MiB request of short arguments is 28 MiB and its vector).
 *
 * Read: "arguments" (an array of strings, none holding a NUL), "requestId"
 * (a number or a string of one: the decimal digits of an integer from 0 to
 * 2^31 - 1, nothing else: "8x", "", 1e3, 8.0, -1 and 2^64 are refused),
 * "cancel" (true or false), "sandboxDir" (a string). Every other member
 * ("inputs", "verbosity", ...) is checked to be JSON and skipped. Values
 * nest at most WORK_REQUEST_DEPTH deep.
 */
#ifndef DGPB_BUILD_WORK_REQUEST_H
#define DGPB_BUILD_WORK_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

/* How deep a request's values may nest (inputs' objects are two deep). */
#define WORK_REQUEST_DEPTH 64

typedef struct work_request {
    char **argv;      /* `lead` empty slots, then the arguments, then NULL (owned vector;
                         the strings point into the text) */
    size_t arg_count; /* the request's arguments, after the lead slots */
    int id;           /* requestId; 0 when it has none or when it is wrong */
    bool cancel;      /* "cancel": true */
    bool sandbox;     /* a non-empty "sandboxDir" */
} work_request;

enum {
    WORK_REQUEST_OK = 0,
    WORK_REQUEST_WRONG = 1,    /* JSON, but a field is wrong: answer it with why */
    WORK_REQUEST_NOT_JSON = 2, /* not a JSON object: *at is the byte offset */
    WORK_REQUEST_NOMEM = 3,
};

/*
 * Reads the object text[0, size), modifying it in place. Returns
 * WORK_REQUEST_OK with *r filled (its vector has `lead` empty slots first,
 * for the startup arguments), or one of the others with *why (a static
 * string) and, for WORK_REQUEST_NOT_JSON, *at. r->id is set whenever the
 * requestId could be read. Release *r with work_request_free() either way.
 */
int work_request_parse(char *text, size_t size, size_t lead, work_request *r, const char **why,
                       size_t *at);

void work_request_free(work_request *r);

#endif
