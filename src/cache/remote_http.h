/*
 * cache/remote_http.h - the HTTP store (cache/remote_http.c): the Bazel
 * remote-cache protocol through libcurl, GET, PUT and HEAD on <url>/ac/<hex>
 * and <url>/cas/<sha256>, as one remote_ops (cache/remote_store.h).
 */
#ifndef DGPB_REMOTE_HTTP_H
#define DGPB_REMOTE_HTTP_H

#include "cache/remote_store.h"

#define remote_http_ops dgpb__remote_http_ops

extern const remote_ops remote_http_ops;

#endif
