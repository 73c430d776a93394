/*
 * worker_checked.c - the checked modules a native worker keeps
 * (recorder/worker_checked.h).
 *
 * Slang's objects are reached through their COM tables (a pointer to a table
 * of functions, `this` first), by the slot numbers of Slang's slang.h: after
 * ISlangUnknown's queryInterface, addRef and release (0 to 2) come
 * ISession's, IComponentType's and, after IComponentType's 14, IModule's,
 * in declaration order (checked against Slang 2026.12 and 2026.16).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "recorder/worker_checked.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/sha256.h"
#include "io/depfile.h"

/* ISession */
#define SLOT_SESSION_CREATE_COMPOSITE 6
/* IComponentType */
#define SLOT_COMPONENT_GET_LAYOUT 4
#define SLOT_COMPONENT_GET_ENTRY_POINT_CODE 6
#define SLOT_COMPONENT_LINK 10
/* IModule: IComponentType's 3 + 14 slots, then findEntryPointByName ... findAndCheckEntryPoint */
#define SLOT_MODULE_FIND_AND_CHECK_ENTRY_POINT 25
/* ISlangBlob */
#define SLOT_BLOB_POINTER 3
#define SLOT_BLOB_SIZE 4
#define SLOT_RELEASE 2

typedef struct kept {
    char *key;
    char *options;   /* the arguments that shape code (options_of), joined */
    char *module;    /* the request's module file, resolved */
    SlangCompileRequest *req;
    char **deps;     /* the files it read, as Slang names them */
    uint8_t (*sha)[DGPB_SHA256_SIZE];
    size_t dep_count;
    uint64_t used; /* when it was last used: a counter */
} kept;

struct checked_store {
    kept slots[CHECKED_MAX];
    uint64_t clock;
};

/* ---- COM calls ---- */

static void *slot_of(void *object, int slot)
{
    void **table = *(void ***)object;
    return table[slot];
}

#define COM_FN(var, object, slot)                                                                  \
    do {                                                                                           \
        void *fn_ = slot_of(object, slot);                                                         \
        memcpy(&(var), &fn_, sizeof fn_);                                                          \
    } while (0)

static void com_release(void *object)
{
    if (!object)
        return;
    uint32_t (*release)(void *);
    COM_FN(release, object, SLOT_RELEASE);
    release(object);
}

/* A blob's bytes and size; its length 0 when `blob` is NULL. */
static const void *blob_bytes(void *blob, size_t *size)
{
    *size = 0;
    if (!blob)
        return NULL;
    const void *(*pointer)(void *);
    size_t (*length)(void *);
    COM_FN(pointer, blob, SLOT_BLOB_POINTER);
    COM_FN(length, blob, SLOT_BLOB_SIZE);
    *size = length(blob);
    return pointer(blob);
}

/* Whether a diagnostics blob says anything; releases it. */
static bool said_something(void *blob)
{
    size_t size = 0;
    const char *text = blob_bytes(blob, &size);
    bool said = false;
    for (size_t i = 0; text && i < size && !said; i++)
        said = text[i] != ' ' && text[i] != '\n' && text[i] != '\r' && text[i] != '\t' && text[i];
    com_release(blob);
    return said;
}

/* ---- keys and options ---- */

char *checked_key(const char *cwd, const char *const *args, size_t n)
{
    dgpb_bytebuf b = {0};
    bytebuf_append(&b, cwd ? cwd : "", cwd ? strlen(cwd) + 1 : 1);
    for (size_t i = 0; i < n; i++)
        bytebuf_append(&b, args[i], strlen(args[i]) + 1);
    bytebuf_append(&b, "", 1);
    if (b.failed) {
        bytebuf_free(&b);
        return NULL;
    }
    /* NULs separate the parts: the key is compared as bytes up to its double NUL, so it is
       written as hex of its SHA-256 to be a string. */
    uint8_t sha[DGPB_SHA256_SIZE];
    char *hex = mem_calloc(2 * DGPB_SHA256_SIZE + 1, 1);
    if (hex && dgpb_sha256(b.data, b.len, sha) == DGPB_OK)
        dgpb_sha256_hex(sha, hex);
    else {
        dgpb_free(hex);
        hex = NULL;
    }
    bytebuf_free(&b);
    return hex;
}

/* Options whose value names a job's own files or entry, or the module's text (-D, -I): left
   out of the options a kept module and a job must share. */
static int skipped_option(const char *arg)
{
    static const char *const with_value[] = {"-o",     "-reflection-json", "-depfile", "-entry",
                                             "-stage", "-I",               "-D"};
    for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++)
        if (!strcmp(arg, with_value[i]))
            return 2;
    if (!strncmp(arg, "-D", 2) || (!strncmp(arg, "-I", 2) && arg[2]) ||
        !strcmp(arg, "-skip-codegen"))
        return 1;
    return 0;
}

/* The arguments after the module that shape the code, NUL-separated; NULL: no memory. */
static char *options_of(const char *const *args, size_t n, size_t *len)
{
    dgpb_bytebuf b = {0};
    for (size_t i = 1; i < n; i++) {
        int skip = skipped_option(args[i]);
        if (skip) {
            i += (size_t)skip - 1;
            continue;
        }
        bytebuf_append(&b, args[i], strlen(args[i]) + 1);
    }
    bytebuf_append(&b, "", 1);
    if (b.failed) {
        bytebuf_free(&b);
        return NULL;
    }
    *len = b.len;
    return (char *)b.data;
}

static bool same_options(const char *a, const char *b)
{
    for (;;) {
        size_t la = strlen(a), lb = strlen(b);
        if (la != lb || memcmp(a, b, la))
            return false;
        if (!la)
            return true;
        a += la + 1;
        b += lb + 1;
    }
}

const char *worker_option_value(const char *const *args, size_t n, const char *option)
{
    const char *value = NULL;
    for (size_t i = 0; i + 1 < n; i++)
        if (!strcmp(args[i], option))
            value = args[++i];
    return value;
}

static size_t count_of(const char *const *args, size_t n, const char *option)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += !strcmp(args[i], option);
    return count;
}

/* Whether the job asks for debug information (-g...): its code then names the module's file
   and its command line, which a kept module compiled from another file and arguments would
   name instead. */
static bool debug_info(const char *const *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strncmp(args[i], "-g", 2))
            return true;
    return false;
}

bool checked_same_options(const char *const *a, size_t na, const char *const *b, size_t nb)
{
    size_t len;
    char *x = options_of(a, na, &len), *y = options_of(b, nb, &len);
    bool same = x && y && same_options(x, y) && !debug_info(a, na) && !debug_info(b, nb);
    dgpb_free(x);
    dgpb_free(y);
    return same;
}

/* ---- the store ---- */

int checked_store_create(checked_store **out)
{
    *out = mem_calloc(1, sizeof **out);
    return *out ? DGPB_OK : DGPB_ERR_NOMEM;
}

static void drop(kept *k, dgpb_slang *s)
{
    if (k->req)
        s->api.spDestroyCompileRequest(k->req);
    for (size_t i = 0; i < k->dep_count; i++)
        dgpb_free(k->deps[i]);
    dgpb_free(k->deps);
    dgpb_free(k->sha);
    dgpb_free(k->key);
    dgpb_free(k->options);
    dgpb_free(k->module);
    memset(k, 0, sizeof *k);
}

void checked_store_free(checked_store *k, dgpb_slang *s)
{
    if (!k)
        return;
    for (size_t i = 0; i < CHECKED_MAX; i++)
        drop(&k->slots[i], s);
    dgpb_free(k);
}

/* Whether the kept request's files still hold the bytes it read. */
static bool files_unchanged(const kept *k)
{
    for (size_t i = 0; i < k->dep_count; i++) {
        uint8_t sha[DGPB_SHA256_SIZE];
        if (dgpb_sha256_file(k->deps[i], sha) || memcmp(sha, k->sha[i], sizeof sha))
            return false;
    }
    return true;
}

/* Sets the kept slot's module and options from the arguments its request was made with. */
static bool describe(kept *k, const char *const *args, size_t n)
{
    size_t len;
    k->options = options_of(args, n, &len);
    k->module = n ? realpath(args[0], NULL) : NULL;
    return k->options && k->module;
}

void checked_keep(checked_store *store, dgpb_slang *s, const char *key, SlangCompileRequest *req,
                  const char *const *args, size_t n)
{
    const dgpb_slang_api *a = &s->api;
    if (!a->spGetDependencyFileCount || !a->spGetDependencyFilePath ||
        !a->spCompileRequest_getModule || !a->spCompileRequest_getSession) {
        a->spDestroyCompileRequest(req);
        return;
    }
    /* the same key replaces its request; else the least recently used slot */
    kept *slot = &store->slots[0];
    for (size_t i = 0; i < CHECKED_MAX; i++) {
        kept *k = &store->slots[i];
        if (k->key && !strcmp(k->key, key)) {
            slot = k;
            break;
        }
        if (!k->key || k->used < slot->used)
            slot = k;
        if (!k->key)
            break;
    }
    drop(slot, s);
    slot->req = req;
    int count = a->spGetDependencyFileCount(req);
    slot->key = mem_strdup(key);
    slot->deps = mem_calloc(count > 0 ? (size_t)count : 1, sizeof *slot->deps);
    slot->sha = mem_calloc(count > 0 ? (size_t)count : 1, sizeof *slot->sha);
    bool ok = slot->key && slot->deps && slot->sha && describe(slot, args, n);
    for (int i = 0; ok && i < count; i++) {
        const char *dep = a->spGetDependencyFilePath(req, i);
        ok = dep && (slot->deps[slot->dep_count] = mem_strdup(dep)) &&
             !dgpb_sha256_file(dep, slot->sha[slot->dep_count]);
        slot->dep_count += ok;
    }
    if (!ok)
        drop(slot, s);
    else
        slot->used = ++store->clock;
}

/* ---- compiling from a kept module ---- */

static int slang_stage_of(const char *name)
{
    int stage = dgpb_stage_from_name(name, strlen(name));
    static const int slang[] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    [value] = slang_stage,
#include "dgpb/vocabulary.def"
    };
    return stage < 0 ? -1 : slang[stage];
}

/* The depfile of a compile of `module` from kept `k`: its files less its own module when
   that is another file (dgpb-build's discovery module, which includes the job's). */
static int write_depfile(const kept *k, const char *module, const char *target, const char *path)
{
    char *resolved = realpath(module, NULL);
    const char **deps = mem_calloc(k->dep_count ? k->dep_count : 1, sizeof *deps);
    int rc = resolved && deps ? DGPB_OK : DGPB_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; !rc && i < k->dep_count; i++) {
        char *dep = realpath(k->deps[i], NULL);
        bool skip = dep && strcmp(k->module, resolved) && !strcmp(dep, k->module);
        free(dep);
        if (!skip)
            deps[n++] = k->deps[i];
    }
    char *text = NULL;
    if (!rc)
        rc = depfile_make(&target, 1, deps, n, n, NULL, &text);
    if (!rc)
        rc = dgpb_file_write_atomic(path, text, strlen(text), NULL);
    dgpb_free(text);
    dgpb_free(deps);
    free(resolved);
    return rc;
}

/* The kept request under `key` that a job of `args` may come from: its files unchanged, the
   same options, no debug information; NULL otherwise (one whose files changed is dropped). */
static kept *usable(checked_store *store, dgpb_slang *s, const char *key, const char *const *args,
                    size_t n)
{
    kept *k = NULL;
    for (size_t i = 0; i < CHECKED_MAX && !k; i++)
        if (store->slots[i].key && !strcmp(store->slots[i].key, key))
            k = &store->slots[i];
    if (!k || n < 1 || debug_info(args, n))
        return NULL;
    if (!files_unchanged(k)) {
        drop(k, s);
        return NULL;
    }
    size_t len;
    char *options = options_of(args, n, &len);
    bool same = options && k->options && same_options(options, k->options);
    dgpb_free(options);
    if (!same)
        return NULL;
    k->used = ++store->clock;
    return k;
}

/* A linked program of the kept module and the entries (-entry/-stage pairs) of `args`, in
   their order; NULL when any step fails or says anything. */
static void *link_entries(const kept *k, dgpb_slang *s, const char *const *args, size_t n)
{
    const dgpb_slang_api *a = &s->api;
    void *module = NULL, *session = NULL, *composite = NULL, *linked = NULL, *diag = NULL;
    void **parts = mem_calloc(n + 1, sizeof *parts);
    size_t count = 0;
    bool ok = parts && !DGPB_SLANG_FAILED(a->spCompileRequest_getModule(k->req, 0, &module)) &&
              module && !DGPB_SLANG_FAILED(a->spCompileRequest_getSession(k->req, &session)) &&
              session;
    if (ok)
        parts[count++] = module;
    int32_t (*find)(void *, const char *, uint32_t, void **, void **) = NULL;
    if (ok)
        COM_FN(find, module, SLOT_MODULE_FIND_AND_CHECK_ENTRY_POINT);
    for (size_t i = 0; ok && i + 3 < n; i++) {
        if (strcmp(args[i], "-entry") || strcmp(args[i + 2], "-stage"))
            continue;
        int stage = slang_stage_of(args[i + 3]);
        void *entry_point = NULL;
        ok = stage >= 0 &&
             !DGPB_SLANG_FAILED(find(module, args[i + 1], (uint32_t)stage, &entry_point, &diag)) &&
             !said_something(diag) && entry_point;
        diag = NULL;
        if (entry_point)
            parts[count++] = entry_point;
        i += 3;
    }
    ok = ok && count > 1;
    int32_t (*compose)(void *, void *const *, SlangInt, void **, void **) = NULL;
    if (ok) {
        COM_FN(compose, session, SLOT_SESSION_CREATE_COMPOSITE);
        ok = !DGPB_SLANG_FAILED(compose(session, parts, (SlangInt)count, &composite, &diag)) &&
             !said_something(diag) && composite;
        diag = NULL;
    }
    if (ok) {
        int32_t (*link)(void *, void **, void **);
        COM_FN(link, composite, SLOT_COMPONENT_LINK);
        ok = !DGPB_SLANG_FAILED(link(composite, &linked, &diag)) && !said_something(diag) &&
             linked;
        diag = NULL;
    }
    if (!ok && linked) {
        com_release(linked);
        linked = NULL;
    }
    com_release(composite);
    for (size_t i = 1; i < count; i++)
        com_release(parts[i]);
    dgpb_free(parts);
    com_release(session);
    com_release(module);
    return linked;
}

/* The linked program's reflection, when it says nothing. */
static SlangReflection *reflection_of(void *linked)
{
    void *diag = NULL;
    SlangReflection *(*get_layout)(void *, SlangInt, void **);
    COM_FN(get_layout, linked, SLOT_COMPONENT_GET_LAYOUT);
    SlangReflection *reflection = get_layout(linked, 0, &diag);
    return said_something(diag) ? NULL : reflection;
}

checked_result checked_compile(checked_store *store, dgpb_slang *s, const char *key,
                               const char *const *args, size_t n, const char *layout)
{
    const char *out = worker_option_value(args, n, "-o");
    if (!out || count_of(args, n, "-entry") != 1)
        return CHECKED_NOT_HERE;
    kept *k = usable(store, s, key, args, n);
    void *linked = k ? link_entries(k, s, args, n) : NULL;
    if (!linked)
        return CHECKED_NOT_HERE;
    const dgpb_slang_api *a = &s->api;
    void *code = NULL, *json = NULL, *diag = NULL;
    checked_result result = CHECKED_NOT_HERE;
    const char *json_path = worker_option_value(args, n, "-reflection-json");
    const char *dep_path = worker_option_value(args, n, "-depfile");
    bool wrote_out = false, wrote_json = false, wrote_dep = false;
    int32_t (*entry_code)(void *, SlangInt, SlangInt, void **, void **);
    COM_FN(entry_code, linked, SLOT_COMPONENT_GET_ENTRY_POINT_CODE);
    if (DGPB_SLANG_FAILED(entry_code(linked, 0, 0, &code, &diag)) || said_something(diag) || !code)
        goto out;
    diag = NULL;
    SlangReflection *reflection = reflection_of(linked);
    if (!reflection)
        goto out;
    size_t size;
    const void *bytes = blob_bytes(code, &size);
    if (!bytes || dgpb_file_write_atomic(out, bytes, size, NULL))
        goto out;
    wrote_out = true;
    if (json_path) {
        if (!a->spReflection_ToJson ||
            DGPB_SLANG_FAILED(a->spReflection_ToJson(reflection, NULL, &json)) || !json)
            goto out;
        bytes = blob_bytes(json, &size);
        if (!bytes || dgpb_file_write_atomic(json_path, bytes, size, NULL))
            goto out;
        wrote_json = true;
    }
    if (dep_path) {
        if (write_depfile(k, args[0], out, dep_path))
            goto out;
        wrote_dep = true;
    }
    if (layout) {
        uint8_t *blob = NULL;
        size_t blob_size = 0;
        if (layout_record_program(s, reflection, args, n, &blob, &blob_size, NULL) ||
            dgpb_file_write_atomic(layout, blob, blob_size, NULL))
            unlink(layout);
        dgpb_free(blob);
    }
    result = CHECKED_DONE;
out:
    if (result != CHECKED_DONE) {
        if (wrote_out)
            unlink(out);
        if (wrote_json)
            unlink(json_path);
        if (wrote_dep)
            unlink(dep_path);
    }
    com_release(diag);
    com_release(json);
    com_release(code);
    com_release(linked);
    return result;
}

checked_result checked_layout(checked_store *store, dgpb_slang *s, const char *key,
                              const char *const *args, size_t n)
{
    /* the layout's file: the last -o, left out of what is recorded (as
       worker_record_layout_file does) */
    size_t at = n;
    for (size_t i = 0; i + 1 < n; i++)
        if (!strcmp(args[i], "-o"))
            at = i++;
    if (at == n || !count_of(args, n, "-entry"))
        return CHECKED_NOT_HERE;
    kept *k = usable(store, s, key, args, n);
    void *linked = k ? link_entries(k, s, args, n) : NULL;
    if (!linked)
        return CHECKED_NOT_HERE;
    const char **rest = mem_calloc(n, sizeof *rest);
    size_t m = 0;
    for (size_t i = 0; rest && i < n; i++)
        if (i != at && i != at + 1)
            rest[m++] = args[i];
    SlangReflection *reflection = reflection_of(linked);
    uint8_t *blob = NULL;
    size_t size = 0;
    checked_result result = CHECKED_NOT_HERE;
    if (rest && reflection && !layout_record_program(s, reflection, rest, m, &blob, &size, NULL) &&
        !dgpb_file_write_atomic(args[at + 1], blob, size, NULL))
        result = CHECKED_DONE;
    dgpb_free(blob);
    dgpb_free(rest);
    com_release(linked);
    return result;
}
