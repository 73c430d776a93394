/*
 * shim_test.c - the replay shim (libdgpb-slang-shim.so, docs/layout.md, "The
 * replay shim") against the fake libslang: layouts recorded from the fake
 * are served by the shim through Slang's ABI, and
 *   - every answer of the shim's exported functions equals the replayed one
 *     (layout_compare: every object, category and index, identity), which
 *     layout_fake equals to the fake's;
 *   - the recorder's own walk over the shim's functions writes the same
 *     bytes as the blob the shim serves (nothing lost or changed on the way);
 *   - findFieldIndexByName, which no blob records, answers as Slang does;
 *   - the COM objects: layout, code, hash, link, the session chain;
 *   - createPrecompiledProgram refuses damaged layouts, code whose SHA-256
 *     differs and a wrong count; a question the shim does not answer stops
 *     the process naming it.
 *
 * FAKE_SLANG_PATH and SHIM_PATH come from tests/layout_record/CMakeLists.txt.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "layout/slang_api.h"
#include "dgpb/dgpb.h"
#include "dgpb/layout.h"
#include "dgpb/sha256.h"
#include "dgpb/slang_shim.h"
#include "layout_compare.h"
#include "support.h"

typedef int (*create_fn)(const void *, size_t, const dgpb_shim_code *, uint32_t, void **,
                         dgpb_diag *);
typedef SlangInt (*find_field_fn)(SlangReflectionTypeLayout *, const char *, const char *);

/* The shim, loaded into this process; its reflection functions as a dgpb_slang_api. */
typedef struct shim {
    void *handle;
    dgpb_slang_api api;
    create_fn create;
    find_field_fn find_field;
} shim;

static void shim_open(shim *s)
{
    memset(s, 0, sizeof *s);
    s->handle = dlopen(SHIM_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!s->handle)
        fail_msg("%s", dlerror());
        /* Every reflection function of the recorder's list: the shim exports each one. */
#define LOOKUP(ret, name, params)                                                                  \
    if (strncmp(#name, "spReflection", 12) == 0) {                                                 \
        *(void **)&s->api.name = dlsym(s->handle, #name);                                          \
        if (!s->api.name)                                                                          \
            fail_msg("the shim does not export %s", #name);                                        \
    }
    DGPB_SLANG_FUNCTIONS(LOOKUP)
#undef LOOKUP
    *(void **)&s->create = dlsym(s->handle, "dgpb_create_precompiled_program");
    *(void **)&s->find_field = dlsym(s->handle, "spReflectionTypeLayout_findFieldIndexByName");
    assert_non_null(s->create);
    assert_non_null(s->find_field);
}

/* A COM method: slot `slot` of the object's function table. */
static void *slot(void *obj, int index)
{
    return (*(void ***)obj)[index];
}

typedef void *(*get_layout_fn)(void *, int64_t, void **);
typedef int32_t (*get_code_fn)(void *, int64_t, int64_t, void **, void **);
typedef void (*get_hash_fn)(void *, int64_t, int64_t, void **);
typedef int32_t (*link_fn)(void *, void **, void **);
typedef int64_t (*count_fn)(void *);
typedef void *(*get_fn)(void *);
typedef uint32_t (*release_fn)(void *);
typedef const void *(*pointer_fn)(void *);
typedef size_t (*size_fn)(void *);

static uint8_t *record(const char *const *args, int count, size_t *size)
{
    dgpb_slang_desc sd = {.library = FAKE_SLANG_PATH};
    dgpb_slang *s = NULL;
    dgpb_diag d;
    if (dgpb_slang_open(&sd, &s, &d))
        fail_msg("%s", d.message);
    uint8_t *blob = NULL;
    if (dgpb_layout_record(s, args, (size_t)count, &blob, size, &d))
        fail_msg("%s", d.message);
    dgpb_slang_close(s);
    return blob;
}

static const char *const RENDER[] = {"render.slang", "-target", "spirv",   "-entry",
                                     "vmain",        "-stage",  "vertex",  "-entry",
                                     "fmain",        "-stage",  "fragment"};
#define RENDER_COUNT 11

/* One code blob per entry point: a few bytes of its own and their SHA-256. */
typedef struct codes {
    uint8_t bytes[4][16];
    uint8_t sha[4][32];
    dgpb_shim_code code[4];
    uint32_t count;
} codes;

static void make_codes(codes *c, const dgpb_layout *l)
{
    c->count = (uint32_t)dgpb_layout_entry_point_count(l);
    assert_true(c->count >= 1 && c->count <= 4);
    for (uint32_t i = 0; i < c->count; i++) {
        memset(c->bytes[i], (int)('a' + i), sizeof c->bytes[i]);
        assert_int_equal(dgpb_sha256(c->bytes[i], sizeof c->bytes[i], c->sha[i]), DGPB_OK);
        c->code[i] = (dgpb_shim_code){c->bytes[i], sizeof c->bytes[i], c->sha[i]};
    }
}

/* The render group's layout recorded, opened, its code blobs made, and the shim loaded. */
static void serve(uint8_t **blob, size_t *size, dgpb_layout **l, codes *c, shim *s)
{
    *blob = record(RENDER, RENDER_COUNT, size);
    *l = NULL;
    assert_int_equal(dgpb_layout_open(*blob, *size, l, NULL), DGPB_OK);
    make_codes(c, *l);
    shim_open(s);
}

static void unserve(uint8_t *blob, dgpb_layout *l, shim *s)
{
    dgpb_layout_close(l);
    dgpb_free(blob);
    dlclose(s->handle);
}

static void every_answer_of_the_shim_is_the_blobs(void **state)
{
    (void)state;
    size_t size;
    uint8_t *blob;
    dgpb_layout *l;
    codes c;
    shim s;
    serve(&blob, &size, &l, &c, &s);
    void *program = NULL;
    dgpb_diag d;
    if (s.create(blob, size, c.code, c.count, &program, &d))
        fail_msg("%s", d.message);
    SlangReflection *reflection = ((get_layout_fn)slot(program, 4))(program, 0, NULL);
    assert_non_null(reflection);

    char first[1024];
    size_t answers = 0;
    size_t bad = layout_compare(&s.api, reflection, l, first, sizeof first, &answers);
    if (bad)
        fail_msg("%zu of the shim's answers differ from the replayed ones; first: %s", bad, first);
    assert_true(answers > 1000);

    /* The recorder's walk over the shim writes the blob the shim serves, byte for byte. */
    dgpb_layout_model m;
    layout_model_init(&m);
    const char *version = dgpb_layout_slang_version(l), *target = dgpb_layout_target(l);
    m.slang_version = layout_model_string(&m, version, strlen(version));
    m.target = layout_model_string(&m, target, strlen(target));
    for (uint32_t i = 0; i < dgpb_layout_option_count(l); i++) {
        const char *o = dgpb_layout_option(l, i);
        int32_t k = DGPB_LPUSH(&m, options);
        assert_true(k >= 0);
        m.options.v[k] = layout_model_string(&m, o, strlen(o));
    }
    assert_int_equal(layout_record_reflection(&s.api, reflection, &m, &d), DGPB_OK);
    uint8_t *again = NULL;
    size_t again_size = 0;
    assert_int_equal(layout_model_write(&m, &again, &again_size, &d), DGPB_OK);
    assert_int_equal(again_size, size);
    assert_memory_equal(again, blob, size);
    dgpb_free(again);
    layout_model_free(&m);

    /* The blob the shim serves is its own copy: the caller's bytes may go. */
    memset(blob, 0, size);
    assert_int_equal(s.api.spReflection_getEntryPointCount(reflection), c.count);
    ((release_fn)slot(program, 2))(program);
    unserve(blob, l, &s);
}

static void fields_are_found_by_name_as_slang_finds_them(void **state)
{
    (void)state;
    size_t size;
    uint8_t *blob;
    dgpb_layout *l;
    codes c;
    shim s;
    serve(&blob, &size, &l, &c, &s);
    void *program = NULL;
    assert_int_equal(s.create(blob, size, c.code, c.count, &program, NULL), DGPB_OK);
    SlangReflection *reflection = ((get_layout_fn)slot(program, 4))(program, 0, NULL);
    SlangReflectionTypeLayout *global = s.api.spReflection_getGlobalParamsTypeLayout(reflection);
    uint32_t n = s.api.spReflectionTypeLayout_GetFieldCount(global);
    assert_true(n >= 2);
    for (uint32_t f = 0; f < n; f++) {
        SlangReflectionVariableLayout *vl = s.api.spReflectionTypeLayout_GetFieldByIndex(global, f);
        const char *name =
            s.api.spReflectionVariable_GetName(s.api.spReflectionVariableLayout_GetVariable(vl));
        assert_non_null(name);
        SlangInt first = s.find_field(global, name, NULL);
        /* The first field of that name (Slang's loop), found with and without an end. */
        assert_true(first >= 0 && first <= (SlangInt)f);
        char longer[256];
        snprintf(longer, sizeof longer, "%sXYZ", name);
        assert_int_equal(s.find_field(global, longer, longer + strlen(name)), first);
        assert_int_equal(s.find_field(global, longer, NULL), -1);
    }
    assert_int_equal(s.find_field(global, "no_such_field", NULL), -1);
    assert_int_equal(s.find_field(NULL, "x", NULL), -1);
    ((release_fn)slot(program, 2))(program);
    unserve(blob, l, &s);
}

static void the_component_type_serves_code_hashes_and_sessions(void **state)
{
    (void)state;
    size_t size;
    uint8_t *blob;
    dgpb_layout *l;
    codes c;
    shim s;
    serve(&blob, &size, &l, &c, &s);
    void *program = NULL;
    assert_int_equal(s.create(blob, size, c.code, c.count, &program, NULL), DGPB_OK);

    assert_null(((get_layout_fn)slot(program, 4))(program, 1, NULL)); /* no second target */
    assert_int_equal(((count_fn)slot(program, 5))(program), 0);
    for (uint32_t i = 0; i < c.count; i++) {
        void *code = NULL, *diagnostics = (void *)1;
        assert_int_equal(((get_code_fn)slot(program, 6))(program, i, 0, &code, &diagnostics), 0);
        assert_null(diagnostics);
        assert_int_equal(((size_fn)slot(code, 4))(code), sizeof c.bytes[i]);
        assert_memory_equal(((pointer_fn)slot(code, 3))(code), c.bytes[i], sizeof c.bytes[i]);
        void *hash = NULL;
        ((get_hash_fn)slot(program, 8))(program, i, 0, &hash);
        assert_non_null(hash);
        assert_memory_equal(((pointer_fn)slot(hash, 3))(hash), c.sha[i], 32);
        ((release_fn)slot(hash, 2))(hash);
        /* The code blob keeps the program alive. */
        if (i == c.count - 1) {
            ((release_fn)slot(program, 2))(program);
            assert_memory_equal(((pointer_fn)slot(code, 3))(code), c.bytes[i], 16);
            program = NULL;
        }
        ((release_fn)slot(code, 2))(code);
    }
    assert_int_equal(s.create(blob, size, c.code, c.count, &program, NULL), DGPB_OK);
    void *code = NULL;
    assert_true(((get_code_fn)slot(program, 6))(program, c.count, 0, &code, NULL) < 0);
    assert_null(code);
    void *linked = NULL;
    assert_int_equal(((link_fn)slot(program, 10))(program, &linked, NULL), 0);
    assert_ptr_equal(linked, program);
    ((release_fn)slot(linked, 2))(linked);
    /* getSession()->getGlobalSession() is the global session slang-rhi made. */
    void *session = ((get_fn)slot(program, 3))(program);
    void *global = ((get_fn)slot(session, 3))(session);
    typedef int32_t (*create_global_fn)(const void *, void **);
    create_global_fn create_global;
    *(void **)&create_global = dlsym(s.handle, "slang_createGlobalSession2");
    void *made = NULL;
    assert_int_equal(create_global(NULL, &made), 0);
    assert_ptr_equal(made, global);
    ((release_fn)slot(program, 2))(program);
    unserve(blob, l, &s);
}

static void bad_programs_are_refused(void **state)
{
    (void)state;
    size_t size;
    uint8_t *blob;
    dgpb_layout *l;
    codes c;
    shim s;
    serve(&blob, &size, &l, &c, &s);
    void *program = (void *)1;
    dgpb_diag d;

    c.bytes[1][3] ^= 1; /* the second entry's code, changed after hashing */
    assert_int_equal(s.create(blob, size, c.code, c.count, &program, &d), DGPB_ERR_CORRUPT_HASH);
    assert_null(program);
    assert_non_null(strstr(d.message, "entry point 1 (fmain)"));
    c.bytes[1][3] ^= 1;

    assert_int_equal(s.create(blob, size, c.code, c.count - 1, &program, &d), DGPB_ERR_INVALID);
    assert_non_null(strstr(d.message, "2 entry points, 1 code blobs"));
    assert_int_equal(dgpb_result_class(s.create(blob, size - 1, c.code, c.count, &program, &d)),
                     DGPB_ERR_CORRUPT);
    blob[0] ^= 0xFF; /* the magic */
    assert_int_equal(dgpb_result_class(s.create(blob, size, c.code, c.count, &program, &d)),
                     DGPB_ERR_CORRUPT);
    assert_null(program);
    unserve(blob, l, &s);
}

/* Runs `what` in a child; returns what it wrote on standard error; *sig its signal. */
static void in_child(void (*what)(shim *, void *), shim *s, void *program, int *sig, char *err,
                     size_t size)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        signal(SIGABRT, SIG_DFL);
        what(s, program);
        _exit(0);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], err, size - 1);
    err[n > 0 ? n : 0] = 0;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    *sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

static void find_type(shim *s, void *program)
{
    typedef void *(*find_type_fn)(void *, const char *);
    find_type_fn f;
    *(void **)&f = dlsym(s->handle, "spReflection_FindTypeByName");
    f(((get_layout_fn)slot(program, 4))(program, 0, NULL), "float4");
}

static void specialize(shim *s, void *program)
{
    (void)s;
    typedef int32_t (*specialize_fn)(void *, const void *, int64_t, void **, void **);
    ((specialize_fn)slot(program, 9))(program, NULL, 0, NULL, NULL);
}

static void unanswered_questions_stop_the_process_naming_them(void **state)
{
    (void)state;
    size_t size;
    uint8_t *blob;
    dgpb_layout *l;
    codes c;
    shim s;
    serve(&blob, &size, &l, &c, &s);
    void *program = NULL;
    assert_int_equal(s.create(blob, size, c.code, c.count, &program, NULL), DGPB_OK);
    char err[512];
    int sig;
    in_child(find_type, &s, program, &sig, err, sizeof err);
    assert_int_equal(sig, SIGABRT);
    assert_non_null(strstr(err, "spReflection_FindTypeByName is not answered by the replay shim"));
    in_child(specialize, &s, program, &sig, err, sizeof err);
    assert_int_equal(sig, SIGABRT);
    assert_non_null(strstr(err, "IComponentType::specialize is not answered by the replay shim"));
    ((release_fn)slot(program, 2))(program);
    unserve(blob, l, &s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_answer_of_the_shim_is_the_blobs),
        cmocka_unit_test(fields_are_found_by_name_as_slang_finds_them),
        cmocka_unit_test(the_component_type_serves_code_hashes_and_sessions),
        cmocka_unit_test(bad_programs_are_refused),
        cmocka_unit_test(unanswered_questions_stop_the_process_naming_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
