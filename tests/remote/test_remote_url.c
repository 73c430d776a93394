/*
 * test_remote_url.c - the remote cache's URLs and keys (cache/remote_cache.h,
 * cache/remote_redis.h),
 * and a cache whose remote store cannot be reached (dgpb/cache.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dgpb/cache.h"
#include "dgpb/dgpb.h"
#include "cache/remote_cache.h"
#include "cache/remote_http.h"
#include "cache/remote_redis.h"
#include "support.h"

static void parses(const char *text, dgpb_remote_url *u)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(remote_parse_url(text, u, &d), DGPB_OK);
}

static void refuses(const char *text)
{
    dgpb_remote_url u;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_result_class(remote_parse_url(text, &u, &d)), DGPB_ERR_INVALID);
    assert_null(strstr(d.message, "hunter2")); /* no password in the message */
}

static void test_http_urls(void **state)
{
    (void)state;
    dgpb_remote_url u;
    parses("http://cache.example:8080/team/", &u);
    assert_ptr_equal(u.store, &remote_http_ops);
    assert_string_equal(u.base, "http://cache.example:8080/team");
    assert_string_equal(u.shown, "http://cache.example:8080/team/");
    parses("https://ci:hunter2@cache.example/x", &u);
    assert_string_equal(u.base, "https://ci:hunter2@cache.example/x"); /* libcurl's to use */
    assert_string_equal(u.shown, "https://***@cache.example/x");
    assert_null(strstr(u.shown, "hunter2"));
    parses("http://:hunter2@h/", &u);
    assert_string_equal(u.shown, "http://***@h/");
    /* a '/' or '@' in the password: everything up to the last '@' is hidden */
    parses("http://ci:ab/hunter2@host/cache", &u);
    assert_string_equal(u.shown, "http://***@host/cache");
    parses("http://ci:a@b:hunter2@host/cache", &u);
    assert_string_equal(u.shown, "http://***@host/cache");
    refuses("http://ci:hunter2#x@host/cache"); /* '#' and '?' must be percent-encoded */
    refuses("http://ci:hunter2?x@host/cache");
    refuses("");
    refuses("ftp://h/x");
    refuses("http://");
    refuses("http:///x");
    refuses("http://h/x?y=1");
    refuses("http://h/a b");
    refuses("file:///etc/passwd");
    /* the message names the form of every scheme's URL */
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_result_class(remote_parse_url("ftp://h/x", &u, &d)), DGPB_ERR_INVALID);
    assert_string_equal(d.message, "the remote cache URL is not one of http://..., https://... or "
                                   "redis://[:PASSWORD@]HOST[:PORT][/DB] (an unknown scheme)");
}

/* A Redis URL: its store, and the store's reading of it. */
static void parses_redis(const char *text, remote_redis_url *r)
{
    dgpb_remote_url u;
    parses(text, &u);
    assert_ptr_equal(u.store, &remote_redis_ops);
    assert_null(remote_redis_parse_url(text, r));
}

static void test_redis_urls(void **state)
{
    (void)state;
    dgpb_remote_url u;
    remote_redis_url r;
    parses_redis("redis://localhost", &r);
    assert_string_equal(r.host, "localhost");
    assert_int_equal(r.port, 6379);
    assert_int_equal(r.db, 0);
    assert_string_equal(r.password, "");
    parses_redis("redis://:hunter2@10.0.0.5:7000/3", &r);
    assert_string_equal(r.host, "10.0.0.5");
    assert_int_equal(r.port, 7000);
    assert_int_equal(r.db, 3);
    assert_string_equal(r.user, "");
    assert_string_equal(r.password, "hunter2");
    parses("redis://:hunter2@10.0.0.5:7000/3", &u);
    assert_string_equal(u.shown, "redis://***@10.0.0.5:7000/3");
    parses_redis("redis://ci:hunter2@h:1/", &r);
    assert_string_equal(r.user, "ci");
    assert_string_equal(r.password, "hunter2");
    parses("redis://ci:hunter2@h:1/", &u);
    assert_string_equal(u.shown, "redis://***@h:1/");
    /* a password holding '#', '?', '/', ':' or '@' is read whole and never shown */
    parses_redis("redis://:Old#hunter2?x/y:z@w@127.0.0.1:1", &r);
    assert_string_equal(r.password, "Old#hunter2?x/y:z@w");
    assert_string_equal(r.host, "127.0.0.1");
    assert_int_equal(r.port, 1);
    parses("redis://:Old#hunter2?x/y:z@w@127.0.0.1:1", &u);
    assert_string_equal(u.shown, "redis://***@127.0.0.1:1");
    refuses("redis://");
    refuses("redis://:hunter2@h:0");
    refuses("redis://:hunter2@h:65536");
    refuses("redis://:hunter2@h:12x");
    refuses("redis://h:1/db");
    refuses("redis://h:1/-1");
    refuses("redis://h:1/2/x");
}

static void test_keys(void **state)
{
    (void)state;
    uint8_t key[DGPB_CACHE_KEY_SIZE];
    for (int i = 0; i < DGPB_CACHE_KEY_SIZE; i++)
        key[i] = (uint8_t)(i * 17);
    char hex[65];
    /* sha256("r" || key), sha256("m" || key) */
    remote_action_key('r', key, hex);
    assert_string_equal(hex, "793efc41f835f2af8dc124f227e4daaa5b3e09bb1eeec39a5b29892f1f3c6913");
    assert_true(remote_key_valid(hex));
    remote_action_key('m', key, hex);
    assert_string_equal(hex, "7c6ddb9e0243fae2911194c8aba85f3662f6cd232574b96755dd1f6771764714");
    /* Only lowercase hex names reach a store: nothing of a path. */
    assert_false(remote_key_valid(""));
    assert_false(remote_key_valid("../etc/passwd"));
    assert_false(remote_key_valid("ab/cd"));
    assert_false(remote_key_valid("ABCD"));
    assert_false(remote_key_valid("ab%2f"));
    char big[130];
    memset(big, 'a', 129);
    big[129] = 0;
    assert_false(remote_key_valid(big));
    big[128] = 0;
    assert_true(remote_key_valid(big));
    /* Nor a namespace other than ac and cas. */
    dgpb_remote *r = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(remote_open("http://127.0.0.1:1/x", &r, &d), DGPB_OK);
    uint8_t *data = NULL;
    size_t size = 0;
    assert_int_equal(dgpb_result_class(remote_get(r, "..", "ab", 10, &data, &size, &d)),
                     DGPB_ERR_INVALID);
    assert_int_equal(dgpb_result_class(remote_put(r, "cas", "../x", "y", 1, &d)), DGPB_ERR_INVALID);
    remote_close(r);
}

typedef struct warnings {
    int count;
    char last[1024];
} warnings;

static void on_warning(void *user, const char *message)
{
    warnings *w = user;
    w->count++;
    snprintf(w->last, sizeof w->last, "%s", message);
}

/* A store that refuses connections: misses, one warning, the local cache still works. */
static void test_store_down(void **state)
{
    (void)state;
    char dir[256];
    assert_int_equal(support_make_temp_dir("remote", dir, sizeof dir), 0);
    dgpb_cache *c = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_cache_open(dir, 0, &c, &d), DGPB_OK);
    warnings w = {0};
    assert_int_equal(
        dgpb_cache_set_remote(c, "http://u:hunter2@127.0.0.1:1/x", false, on_warning, &w, &d),
        DGPB_OK);
    uint8_t key[DGPB_CACHE_KEY_SIZE] = {1, 2, 3};
    uint8_t *data = NULL;
    size_t size = 0;
    assert_int_equal(dgpb_cache_get(c, 'r', key, &data, &size), DGPB_ERR_NOT_FOUND);
    assert_int_equal(dgpb_cache_get(c, 'm', key, &data, &size), DGPB_ERR_NOT_FOUND);
    assert_int_equal(dgpb_cache_put(c, 'r', key, "payload", 7), DGPB_OK);
    assert_int_equal(dgpb_cache_get(c, 'r', key, &data, &size), DGPB_OK);
    assert_int_equal(size, 7);
    dgpb_free(data);
    dgpb_cache_close(c);
    assert_int_equal(w.count, 1);
    assert_non_null(strstr(w.last, "is unavailable"));
    assert_non_null(strstr(w.last, "http://***@127.0.0.1:1/x"));
    assert_null(strstr(w.last, "hunter2"));

    assert_int_equal(dgpb_cache_open(dir, 0, &c, &d), DGPB_OK);
    dgpb_cache_stats st;
    assert_int_equal(dgpb_cache_stats_get(c, &st, &d), DGPB_OK);
    assert_int_equal(st.counters.remote_hits, 0);
    assert_int_equal(st.counters.remote_misses, 1); /* the second get found it off */
    assert_int_equal(st.counters.remote_errors, 1);
    assert_int_equal(st.counters.remote_uploads, 0);
    assert_int_equal(dgpb_cache_set_remote(c, "gopher://h", true, NULL, NULL, &d),
                     DGPB_ERR_INVALID);
    dgpb_cache_close(c);
    assert_int_equal(support_remove_tree(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_http_urls),
        cmocka_unit_test(test_redis_urls),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_store_down),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
