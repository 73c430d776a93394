/*
 * remote_cache.c - the front of the compile cache's remote stores
 * (cache/remote_cache.h, docs/cache.md "Remote stores"): the table of schemes
 * that names each URL prefix's store, URLs parsed and shown without their
 * user information, keys checked, action keys, and every request handed to
 * its store's ops table (cache/remote_store.h): HTTP through libcurl
 * (cache/remote_http.c), Redis through hiredis (cache/remote_redis.c).
 */
#define _GNU_SOURCE
#include "cache/remote_cache.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cache/remote_http.h"
#include "cache/remote_redis.h"
#include "core/alloc.h"
#include "dgpb/alloc.h"
#include "dgpb/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/* The schemes, in the order the message of a bad URL names them: a URL prefix
   (any case), its store, and the form of its URL that message shows. */
static const struct scheme {
    const char *prefix;
    const remote_ops *store;
    const char *form;
} schemes[] = {
    {"http://", &remote_http_ops, "http://..."},
    {"https://", &remote_http_ops, "https://..."},
    {"redis://", &remote_redis_ops, "redis://[:PASSWORD@]HOST[:PORT][/DB]"},
};
#define SCHEME_COUNT (sizeof schemes / sizeof schemes[0])

struct dgpb_remote {
    dgpb_remote_url url;
    remote_call call; /* url.shown, and the flag of remote_cancel_on */
    void *state;      /* the store's (url.store) */
};

/* ---- URLs and keys ---- */

static int bad_url(dgpb_diag *diag, const char *why)
{
    char forms[512] = "";
    size_t n = 0;
    for (size_t i = 0; i < SCHEME_COUNT; i++)
        n += (size_t)snprintf(forms + n, sizeof forms - n, "%s%s",
                              !i                     ? ""
                              : i + 1 < SCHEME_COUNT ? ", "
                                                     : " or ",
                              schemes[i].form);
    return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "the remote cache URL is not one of %s (%s)",
                         forms, why);
}

/*
 * Copies `url` into `shown` with everything between the scheme's "//" and the
 * last '@' replaced by "***": a user and a password, whatever they hold ('#',
 * '?', '/', ':', '@'). A URL without '@' is shown as it is.
 */
static void remove_password(const char *url, char *shown, size_t size)
{
    const char *scheme_end = strstr(url, "://");
    const char *auth = scheme_end ? scheme_end + 3 : url;
    const char *at = strrchr(auth, '@');
    if (!at)
        snprintf(shown, size, "%s", url);
    else
        snprintf(shown, size, "%.*s***%s", (int)(auth - url), url, at);
}

int remote_parse_url(const char *url, dgpb_remote_url *out, dgpb_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!url || !*url)
        return bad_url(diag, "empty");
    if (strlen(url) >= sizeof out->base)
        return bad_url(diag, "too long");
    for (const char *p = url; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f)
            return bad_url(diag, "a space or control character");
    remove_password(url, out->shown, sizeof out->shown);
    for (size_t i = 0; i < SCHEME_COUNT && !out->store; i++)
        if (!strncasecmp(url, schemes[i].prefix, strlen(schemes[i].prefix)))
            out->store = schemes[i].store;
    if (!out->store)
        return bad_url(diag, "an unknown scheme");
    const char *why = out->store->url_problem(url);
    if (why)
        return bad_url(diag, why);
    snprintf(out->base, sizeof out->base, "%s", url);
    size_t n = strlen(out->base);
    while (n && out->base[n - 1] == '/')
        out->base[--n] = 0;
    return DGPB_OK;
}

void remote_action_key(char kind, const uint8_t key[DGPB_CACHE_KEY_SIZE],
                       char hex[2 * DGPB_SHA256_SIZE + 1])
{
    uint8_t text[1 + DGPB_CACHE_KEY_SIZE], sha[DGPB_SHA256_SIZE];
    text[0] = (uint8_t)kind;
    memcpy(text + 1, key, DGPB_CACHE_KEY_SIZE);
    if (dgpb_sha256(text, sizeof text, sha))
        memset(sha, 0, sizeof sha); /* no memory for OpenSSL: a key nothing is filed under */
    dgpb_sha256_hex(sha, hex);
}

int remote_key_valid(const char *name)
{
    size_t n = 0;
    for (; name[n]; n++)
        if (!((name[n] >= '0' && name[n] <= '9') || (name[n] >= 'a' && name[n] <= 'f')))
            return 0;
    return n >= 1 && n <= 128;
}

static int check_names(const char *ns, const char *name, dgpb_diag *diag)
{
    if ((strcmp(ns, "ac") && strcmp(ns, "cas")) || !remote_key_valid(name))
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "not a remote cache key");
    return DGPB_OK;
}

/* ---- handles ---- */

int remote_open(const char *url, dgpb_remote **out, dgpb_diag *diag)
{
    *out = NULL;
    dgpb_remote *r = mem_calloc(1, sizeof *r);
    if (!r)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    int rc = remote_parse_url(url, &r->url, diag);
    if (!rc) {
        r->call.shown = r->url.shown;
        rc = r->url.store->open(url, r->url.base, &r->call, &r->state, diag);
    }
    if (rc) {
        explicit_bzero(&r->url, sizeof r->url);
        dgpb_free(r);
        return rc;
    }
    *out = r;
    return DGPB_OK;
}

void remote_close(dgpb_remote *r)
{
    if (!r)
        return;
    r->url.store->close(r->state);
    explicit_bzero(&r->url, sizeof r->url);
    dgpb_free(r);
}

void remote_cancel_on(dgpb_remote *r, const volatile sig_atomic_t *flag)
{
    r->call.cancel = flag;
}

void remote_deadline_on(dgpb_remote *r, const volatile int64_t *deadline_ms)
{
    r->call.deadline_ms = deadline_ms;
}

const char *remote_shown(const dgpb_remote *r)
{
    return r->url.shown;
}

/* ---- requests ---- */

int remote_get(dgpb_remote *r, const char *ns, const char *name, size_t max, uint8_t **data,
               size_t *size, dgpb_diag *diag)
{
    *data = NULL;
    *size = 0;
    int rc = check_names(ns, name, diag);
    if (rc)
        return rc;
    return r->url.store->get(r->state, ns, name, max, data, size, diag);
}

int remote_put(dgpb_remote *r, const char *ns, const char *name, const void *data, size_t size,
               dgpb_diag *diag)
{
    int rc = check_names(ns, name, diag);
    if (rc)
        return rc;
    return r->url.store->put(r->state, ns, name, data, size, diag);
}

int remote_head(dgpb_remote *r, const char *ns, const char *name, dgpb_diag *diag)
{
    int rc = check_names(ns, name, diag);
    if (rc)
        return rc;
    return r->url.store->head(r->state, ns, name, diag);
}

static bool is_hex(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
            return false;
    return true;
}

bool remote_entry_text(const uint8_t *team_key, size_t team_key_len, const char *action,
                       const char *name, char out[130])
{
    snprintf(out, 130, "%s", name);
    if (!team_key_len)
        return true;
    char text[2 * 64 + 2];
    snprintf(text, sizeof text, "%s %s", action, name);
    uint8_t mac[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    if (!HMAC(EVP_sha256(), team_key, (int)team_key_len, (const uint8_t *)text, strlen(text), mac,
              &len) ||
        len != DGPB_SHA256_SIZE)
        return false;
    char hex[2 * DGPB_SHA256_SIZE + 1];
    dgpb_sha256_hex(mac, hex);
    snprintf(out, 130, "%s %s", name, hex);
    return true;
}

int remote_entry_parse(const uint8_t *text, size_t n, const uint8_t *team_key, size_t team_key_len,
                       const char *action, char name[65], bool *authenticated)
{
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
        n--;
    bool keyed_form = n == 129 && text[64] == ' ' && is_hex(text + 65, 64);
    if ((n != 64 && !keyed_form) || !is_hex(text, 64))
        return 0;
    memcpy(name, text, 64);
    name[64] = 0;
    char want[130];
    *authenticated = !team_key_len ||
                     (keyed_form && remote_entry_text(team_key, team_key_len, action, name, want) &&
                      !CRYPTO_memcmp(want + 65, text + 65, 64));
    return 1;
}
