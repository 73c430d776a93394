/*
 * test_cache_store.c - the depfile reader and writer (io/depfile.h) and the
 * compile cache's store (dgpb/cache.h): entries, damage, sizes, clearing.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dgpb/cache.h"
#include "io/depfile.h"
#include "dgpb/dgpb.h"
#include "support.h"

static const char *const dir = support_dir; /* the program's temporary folder */

static void parse(const char *text, const char *const *want, size_t want_count)
{
    char **deps = NULL;
    size_t count = 0;
    assert_int_equal(depfile_parse(text, strlen(text), &deps, &count), DGPB_OK);
    assert_int_equal(count, want_count);
    for (size_t i = 0; i < count; i++)
        assert_string_equal(deps[i], want[i]);
    depfile_free(deps, count);
}

static void depfile_parse_forms(void **state)
{
    (void)state;
    const char *slang[] = {"m.slang", "inc/h.slangh", "lib.slang"};
    parse("a.spv: m.slang inc/h.slangh lib.slang\n", slang, 3);
    parse("a.spv b.json: \\\n  m.slang \\\n  inc/h.slangh\r\n\ninc/h.slangh:\nlib.slang:\n"
          "x: lib.slang m.slang",
          (const char *[]){"m.slang", "inc/h.slangh", "lib.slang"}, 3);
    parse("out/x\\ y.spv: a\\ b.slang c$$d.h e\\#f.h\n",
          (const char *[]){"a b.slang", "c$d.h", "e#f.h"}, 3);
    parse("/abs/C:/x.spv: /abs/m.slang\n", (const char *[]){"/abs/m.slang"}, 1);
    /* Slang's own escapes: a colon as `\:` */
    parse("out/m.spv: /t/a\\:b\\ c\\#d$$e/m.slang /t/a\\:b\\ c\\#d$$e/inc/h.slangh\n",
          (const char *[]){"/t/a:b c#d$e/m.slang", "/t/a:b c#d$e/inc/h.slangh"}, 2);
    parse("", NULL, 0);
    char **deps = NULL;
    size_t count = 0;
    assert_int_equal(depfile_parse("no rule here\n", 13, &deps, &count), DGPB_ERR_CORRUPT);
    depfile_free(deps, count);
}

static void depfile_make_round_trip(void **state)
{
    (void)state;
    const char *targets[] = {"out dir/m.dgpb", "out dir/m.bundle.json"};
    const char *deps[] = {"m.slang", "inc/a b.h", "cost$.slang", "x#y.h", "c:d/e.h"};
    char *text = NULL;
    const char *refused = NULL;
    assert_int_equal(depfile_make(targets, 2, deps, 5, 1, &refused, &text), DGPB_OK);
    assert_string_equal(text, "out\\ dir/m.dgpb out\\ dir/m.bundle.json: \\\n m.slang \\\n"
                              " inc/a\\ b.h \\\n cost$$.slang \\\n x\\#y.h \\\n c\\:d/e.h\n\n"
                              "inc/a\\ b.h:\n\ncost$$.slang:\n\nx\\#y.h:\n\nc\\:d/e.h:\n");
    parse(text, deps, 5);
    dgpb_free(text);
    /* what Make and Ninja cannot both read back: nothing written, the path named */
    const char *bad[] = {"a;b/h", "a=b/h", "a%b/h", "a|b/h", "a\tb",  "a\nb", "a'b",    "a&b",
                         "a*b",   "a?b",   "a[b",   "x:",    "a\\ b", "~/h",  "lib(m)", "a\x1b"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        text = NULL;
        refused = NULL;
        const char *one[] = {"m.slang", bad[i]};
        assert_int_equal(depfile_make(targets, 2, one, 2, 1, &refused, &text), DGPB_ERR_INVALID);
        assert_ptr_equal(refused, bad[i]);
        assert_null(text);
    }
    const char *fine[] = {"a,b+c/d_e.f~g(h){i}@j]k!l-m", "caf\xc3\xa9/a\\b", "(x)/y"};
    for (size_t i = 0; i < sizeof fine / sizeof *fine; i++)
        assert_int_equal(depfile_unwritable(fine[i]), -1);
}

static void cache_sizes(void **state)
{
    (void)state;
    uint64_t v = 0;
    assert_int_equal(dgpb_cache_parse_size("123", &v), DGPB_OK);
    assert_int_equal(v, 123);
    assert_int_equal(dgpb_cache_parse_size("4K", &v), DGPB_OK);
    assert_int_equal(v, 4096);
    assert_int_equal(dgpb_cache_parse_size("2M", &v), DGPB_OK);
    assert_int_equal(v, 2u << 20);
    assert_int_equal(dgpb_cache_parse_size("1G", &v), DGPB_OK);
    assert_int_equal(v, 1u << 30);
    assert_int_equal(dgpb_cache_parse_size("", &v), DGPB_ERR_INVALID);
    assert_int_equal(dgpb_cache_parse_size("-1", &v), DGPB_ERR_INVALID);
    assert_int_equal(dgpb_cache_parse_size("12Q", &v), DGPB_ERR_INVALID);
    assert_int_equal(dgpb_cache_parse_size("99999999999999999999G", &v), DGPB_ERR_INVALID);
}

static void entry_path(const char *root, const uint8_t key[32], char kind, char *buf, size_t n)
{
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", key[i]);
    snprintf(buf, n, "%s/v1/%.2s/%s.%c", root, hex, hex + 2, kind);
}

static void cache_entries(void **state)
{
    (void)state;
    char root[512];
    snprintf(root, sizeof root, "%s/c", dir);
    dgpb_cache *c = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_cache_open(root, 0, &c, &d), DGPB_OK);
    uint8_t key[32] = {1, 2, 3}, *data = NULL;
    size_t size = 0;
    assert_int_equal(dgpb_cache_get(c, 'r', key, &data, &size), DGPB_ERR_NOT_FOUND);
    assert_int_equal(dgpb_cache_put(c, 'r', key, "hello", 5), DGPB_OK);
    assert_int_equal(dgpb_cache_get(c, 'r', key, &data, &size), DGPB_OK);
    assert_int_equal(size, 5);
    assert_memory_equal(data, "hello", 5);
    dgpb_free(data);
    /* another kind, same key: another entry */
    assert_int_equal(dgpb_cache_get(c, 'm', key, &data, &size), DGPB_ERR_NOT_FOUND);
    /* damage: a flipped payload byte, then a truncation, read as missing */
    char path[700];
    entry_path(root, key, 'r', path, sizeof path);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -1, SEEK_END);
    fputc('H', f);
    fclose(f);
    assert_int_equal(dgpb_cache_get(c, 'r', key, &data, &size), DGPB_ERR_NOT_FOUND);
    assert_int_equal(dgpb_cache_put(c, 'r', key, "hello", 5), DGPB_OK);
    assert_int_equal(truncate(path, 20), 0);
    assert_int_equal(dgpb_cache_get(c, 'r', key, &data, &size), DGPB_ERR_NOT_FOUND);
    assert_int_equal(dgpb_cache_put(c, 'r', key, "", 0), DGPB_OK);
    assert_int_equal(dgpb_cache_get(c, 'r', key, &data, &size), DGPB_OK);
    assert_int_equal(size, 0);
    dgpb_free(data);
    dgpb_cache_counters_of(c)->compile_hits = 3;
    dgpb_cache_close(c);

    assert_int_equal(dgpb_cache_open(root, 0, &c, &d), DGPB_OK);
    dgpb_cache_stats st;
    assert_int_equal(dgpb_cache_stats_get(c, &st, &d), DGPB_OK);
    assert_int_equal(st.entries, 1);
    assert_int_equal(st.counters.compile_hits, 3);
    assert_int_equal(st.max_size, DGPB_CACHE_DEFAULT_MAX_SIZE);
    assert_int_equal(dgpb_cache_clear(c, &d), DGPB_OK);
    assert_int_equal(dgpb_cache_stats_get(c, &st, &d), DGPB_OK);
    assert_int_equal(st.entries, 0);
    assert_int_equal(st.counters.compile_hits, 0);
    dgpb_cache_close(c);
}

static void cache_evicts_oldest(void **state)
{
    (void)state;
    char root[512];
    snprintf(root, sizeof root, "%s/e", dir);
    dgpb_cache *c = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(dgpb_cache_open(root, 3000, &c, &d), DGPB_OK);
    char block[1000];
    memset(block, 'x', sizeof block);
    for (uint8_t i = 0; i < 5; i++) {
        uint8_t key[32] = {i};
        assert_int_equal(dgpb_cache_put(c, 'r', key, block, sizeof block), DGPB_OK);
        char path[700];
        entry_path(root, key, 'r', path, sizeof path);
        char cmd[800];
        snprintf(cmd, sizeof cmd, "touch -d '2020-01-01 00:00:0%u' '%s'", i, path);
        assert_int_equal(system(cmd), 0);
    }
    dgpb_cache_close(c); /* 5 * 1048 bytes over a 3000 cap: down to 2700, the newest two */
    assert_int_equal(dgpb_cache_open(root, 3000, &c, &d), DGPB_OK);
    uint8_t *data = NULL;
    size_t size = 0;
    for (uint8_t i = 0; i < 5; i++) {
        uint8_t key[32] = {i};
        int rc = dgpb_cache_get(c, 'r', key, &data, &size);
        assert_int_equal(rc, i >= 3 ? DGPB_OK : DGPB_ERR_NOT_FOUND);
        dgpb_free(data);
        data = NULL;
    }
    dgpb_cache_close(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(depfile_parse_forms), cmocka_unit_test(depfile_make_round_trip),
        cmocka_unit_test(cache_sizes),         cmocka_unit_test(cache_entries),
        cmocka_unit_test(cache_evicts_oldest),
    };
    return cmocka_run_group_tests(tests, support_dir_setup, support_dir_teardown);
}
