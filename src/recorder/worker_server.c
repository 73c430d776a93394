/*
 * worker_server.c - the native Slang worker (recorder/worker_server.h): compiles
 * as slangc would and records layouts on one loaded libslang, one job line
 * at a time.
 *
 * A compile does what slangc's main does after making its global session
 * (slang_library.c makes that session the same way): a compile request that
 * searches slangc's folder, in slangc's command-line mode (which makes
 * spCompile() write the outputs the arguments name, and sets slangc's
 * column-major default), the arguments handed to Slang's command-line
 * processing, then spCompile(). slangc's exit status follows from the two
 * results exactly as slangc derives it. Two additions: a compile with
 * -skip-codegen writes its -depfile, which slangc would leave unwritten, and
 * the worker writes -reflection-json's file itself, after a compile that
 * succeeded, since Slang's request crashes writing it after one that failed
 * (take_reflection_json()).
 */
#define _POSIX_C_SOURCE 200809L /* fchdir, O_DIRECTORY, O_CLOEXEC */
#include "recorder/worker_server.h"

#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/bytebuf.h"
#include "dgpb/fileio.h"
#include "io/depfile.h"
#include "recorder/recording.h"
#include "recorder/worker_checked.h"
#include "compiler/slang_library.h"

#define LINE_MAX_BYTES ((size_t)64 << 20) /* the longest job line accepted */

/* ---- one compile ---- */

/* Options with which slangc makes a global session of its own, which a worker cannot share. */
static const char *own_session_option(const char *const *args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(args[i], "-load-core-module") || !strcmp(args[i], "-compile-core-module") ||
            !strcmp(args[i], "-embed-prelude"))
            return args[i];
    return NULL;
}


/*
 * slangc writes its -depfile in its code-generation step, so a compile with
 * -skip-codegen writes none (Slang 2026.16's EndToEndCompileRequest). The
 * worker writes it then, as that step would: one rule, -o (or "-") as its
 * target, the files the request read as its prerequisites. dgpb-build's
 * discovery compiles need it (docs/layout.md, "The native worker").
 */
static int write_skipped_depfile(dgpb_slang *s, SlangCompileRequest *req, const char *const *args,
                                 size_t n, dgpb_diag *diag)
{
    const char *path = worker_option_value(args, n, "-depfile");
    bool skipped = false;
    for (size_t i = 0; i < n && !skipped; i++)
        skipped = !strcmp(args[i], "-skip-codegen");
    const dgpb_slang_api *a = &s->api;
    if (!path || !skipped || !a->spGetDependencyFileCount || !a->spGetDependencyFilePath)
        return DGPB_OK;
    int count = a->spGetDependencyFileCount(req);
    const char **deps = mem_calloc(count > 0 ? (size_t)count : 1, sizeof *deps);
    if (!deps)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    size_t kept = 0;
    for (int i = 0; i < count; i++) {
        const char *dep = a->spGetDependencyFilePath(req, i);
        if (dep)
            deps[kept++] = dep;
    }
    const char *output = worker_option_value(args, n, "-o");
    const char *target = output ? output : "-";
    char *text = NULL;
    int rc = depfile_make(&target, 1, deps, kept, kept, NULL, &text);
    if (!rc)
        rc = dgpb_file_write_atomic(path, text, strlen(text), diag);
    else
        rc = dgpb_diag_set(diag, rc, -1, "out of memory");
    dgpb_free(text);
    dgpb_free(deps);
    return rc;
}

/*
 * Slang 2026's compile request writes -reflection-json's file after a
 * compile that failed too, and crashes there (its program is gone: a NULL
 * mutex in ComponentType::getTargetProgram), so a module with an error ended
 * the worker by SIGSEGV instead of reporting Slang's diagnostics. The worker
 * takes the option off the arguments it hands Slang (into `kept`, borrowed
 * strings) and writes the file once the compile succeeded
 * (write_reflection_json()), through spReflection_ToJson: Slang's own writer,
 * the same bytes. Returns the file's path (the last -reflection-json's), or
 * NULL with `kept` as args when the option is absent or the library lacks
 * spReflection_ToJson.
 */
static const char *take_reflection_json(dgpb_slang *s, const char *const *args, size_t n,
                                        const char **kept, size_t *kept_count)
{
    const char *path =
        s->api.spReflection_ToJson ? worker_option_value(args, n, "-reflection-json") : NULL;
    *kept_count = 0;
    for (size_t i = 0; i < n; i++) {
        if (path && i + 1 < n && !strcmp(args[i], "-reflection-json")) {
            i++;
            continue;
        }
        kept[(*kept_count)++] = args[i];
    }
    return path;
}

/* One of an ISlangBlob's functions: slot `slot` of its table. */
static void *blob_slot(void *blob, int slot)
{
    void **table = *(void ***)blob;
    return table[slot];
}

/* Writes the reflection JSON of a compile that succeeded to `path`, atomically. */
static int write_reflection_json(dgpb_slang *s, SlangCompileRequest *req, const char *path,
                                 dgpb_diag *diag)
{
    void *blob = NULL;
    if (DGPB_SLANG_FAILED(s->api.spReflection_ToJson(s->api.spGetReflection(req), req, &blob)) ||
        !blob)
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "Slang wrote no reflection JSON");
    const void *(*pointer)(void *);
    size_t (*size)(void *);
    uint32_t (*release)(void *);
    void *p = blob_slot(blob, 3), *z = blob_slot(blob, 4), *r = blob_slot(blob, 2);
    memcpy(&pointer, &p, sizeof p);
    memcpy(&size, &z, sizeof z);
    memcpy(&release, &r, sizeof r);
    int rc = dgpb_file_write_atomic(path, pointer(blob), size(blob), diag);
    release(blob);
    return rc;
}

/*
 * Records the layout of a compile that succeeded to `path` (atomically), from the request
 * that compiled it. Any failure leaves no file at `path`: the layout is then recorded on its
 * own, which reports why (dgpb-build, docs/layout.md).
 */
static void record_compiled_layout(dgpb_slang *s, SlangCompileRequest *req, const char *const *args,
                                   size_t n, const char *path)
{
    uint8_t *blob = NULL;
    size_t size = 0;
    if (layout_record_compiled(s, req, args, n, &blob, &size, NULL) ||
        dgpb_file_write_atomic(path, blob, size, NULL))
        unlink(path);
    dgpb_free(blob);
}

int worker_compile(dgpb_slang *s, const char *const *args, size_t arg_count, int *status,
                   char **diagnostics, dgpb_diag *diag)
{
    return worker_compile_recording(s, args, arg_count, NULL, status, diagnostics, diag);
}

/* What a job may share with others on one worker (worker_checked.h): NULL members share
   nothing. */
typedef struct sharing {
    checked_store *store;
    const char *keep_key;    /* keep the request under this key when it compiled cleanly */
    const char *checked_key; /* answer from the module kept under this key if one is */
    const char *const *checked_args; /* the arguments that key is made of */
    size_t checked_count;
    bool answered_checked;   /* set: the job was answered from a kept module */
} sharing;

static int compile_job(dgpb_slang *s, sharing *share, const char *const *args, size_t arg_count,
                       const char *layout, int *status, char **diagnostics, dgpb_diag *diag);

int worker_compile_recording(dgpb_slang *s, const char *const *args, size_t arg_count,
                             const char *layout, int *status, char **diagnostics, dgpb_diag *diag)
{
    sharing none = {0};
    return compile_job(s, &none, args, arg_count, layout, status, diagnostics, diag);
}

static int compile_job(dgpb_slang *s, sharing *share, const char *const *args, size_t arg_count,
                       const char *layout, int *status, char **diagnostics, dgpb_diag *diag)
{
    assert(s && status && diagnostics && (args || !arg_count));
    *status = DGPB_SLANGC_EXIT_FAILED;
    *diagnostics = NULL;
    const dgpb_slang_api *a = &s->api;
    if (!a->spSetCommandLineCompilerMode || !a->spAddSearchPath)
        return dgpb_diag_set(diag, DGPB_ERR_UNSUPPORTED, -1,
                             "'%s' lacks spSetCommandLineCompilerMode or spAddSearchPath: it "
                             "cannot compile as slangc does",
                             s->path);
    for (size_t i = 0; i < arg_count; i++)
        if (!args[i])
            return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "argument %zu is NULL", i + 1);
    if (arg_count > INT_MAX)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "too many arguments");
    const char *own = own_session_option(args, arg_count);
    if (own) {
        *diagnostics = mem_printf("the native Slang worker shares one global session; '%s' "
                                  "needs a slangc process of its own\n",
                                  own);
        return *diagnostics ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    SlangSession *session = NULL;
    int rc = slang_library_session(s, &session, diag);
    if (rc)
        return rc;
    if (share->store && share->checked_key &&
        checked_compile(share->store, s, share->checked_key, args, arg_count, layout) ==
            CHECKED_DONE) {
        *status = DGPB_SLANGC_EXIT_OK;
        share->answered_checked = true;
        *diagnostics = mem_strdup("");
        return *diagnostics ? DGPB_OK : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    const char **given = mem_calloc(arg_count ? arg_count : 1, sizeof *given);
    if (!given)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    size_t given_count = 0;
    const char *json = take_reflection_json(s, args, arg_count, given, &given_count);
    SlangCompileRequest *req = a->spCreateCompileRequest(session);
    if (!req) {
        dgpb_free(given);
        return dgpb_diag_set(diag, DGPB_ERR_TOOL, -1, "Slang could not create a compile request");
    }
    if (s->exe_dir)
        a->spAddSearchPath(req, s->exe_dir);
    a->spSetCommandLineCompilerMode(req);
    if (DGPB_SLANG_FAILED(a->spProcessCommandLineArguments(req, given, (int)given_count)))
        *status = DGPB_SLANGC_EXIT_FAILED;
    else if (DGPB_SLANG_FAILED(a->spCompile(req)))
        *status = DGPB_SLANGC_EXIT_COMPILATION_FAILED;
    else
        *status = DGPB_SLANGC_EXIT_OK;
    const char *text = a->spGetDiagnosticOutput(req);
    *diagnostics = mem_strdup(text ? text : "");
    dgpb_diag written;
    dgpb_diag_clear(&written);
    const char *unwritten = NULL;
    if (*status == DGPB_SLANGC_EXIT_OK && *diagnostics && json &&
        write_reflection_json(s, req, json, &written))
        unwritten = "the reflection JSON";
    if (!unwritten && *status == DGPB_SLANGC_EXIT_OK && *diagnostics &&
        write_skipped_depfile(s, req, args, arg_count, &written))
        unwritten = "the depfile";
    if (unwritten) {
        /* As slangc fails when it cannot write an output: status 1, the reason said. */
        char *said = mem_printf("%serror: cannot write %s: %s\n", *diagnostics, unwritten,
                                written.message);
        dgpb_free(*diagnostics);
        *diagnostics = said;
        *status = DGPB_SLANGC_EXIT_FAILED;
    }
    if (layout && *status == DGPB_SLANGC_EXIT_OK)
        record_compiled_layout(s, req, args, arg_count, layout);
    /* A compile that names a kept module it could not come from is kept in its stead, for
       the module's next compiles, when its options are those of the arguments named. */
    const char *keep = share->keep_key;
    if (!keep && share->checked_key &&
        checked_same_options(args, arg_count, share->checked_args, share->checked_count))
        keep = share->checked_key;
    if (share->store && keep && *status == DGPB_SLANGC_EXIT_OK && *diagnostics && !**diagnostics)
        checked_keep(share->store, s, keep, req, args, arg_count); /* the store owns req */
    else
        a->spDestroyCompileRequest(req);
    dgpb_free(given);
    if (!*diagnostics)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    return DGPB_OK;
}

/* ---- one layout ---- */

int worker_record_layout_file(dgpb_slang *s, const char *const *args, size_t arg_count,
                              dgpb_diag *diag)
{
    assert(s && (args || !arg_count));
    size_t at = arg_count;
    for (size_t i = 0; i + 1 < arg_count; i++)
        if (args[i] && !strcmp(args[i], "-o"))
            at = i++;
    if (at == arg_count)
        return dgpb_diag_set(diag, DGPB_ERR_INVALID, -1, "no output given (-o LAYOUT.bin)");
    const char *output = args[at + 1];
    const char **rest = mem_calloc(arg_count, sizeof *rest);
    if (!rest)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < arg_count; i++)
        if (i != at && i != at + 1)
            rest[n++] = args[i];
    uint8_t *blob = NULL;
    size_t size = 0;
    int rc = dgpb_layout_record(s, rest, n, &blob, &size, diag);
    if (!rc) {
        rc = dgpb_file_write_atomic(output, blob, size, diag);
        if (rc && diag && !diag->file[0] && dgpb_result_class(rc) == DGPB_ERR_IO)
            dgpb_diag_set_file(diag, output);
    }
    dgpb_free(blob);
    dgpb_free(rest);
    return rc;
}

/* ---- serving ---- */

/* The strings of a JSON array, borrowed from it; NULL (and *n 0) when it is not one. */
static const char **string_array(const cJSON *array, size_t *n, bool *nomem)
{
    *n = 0;
    *nomem = false;
    if (!cJSON_IsArray(array))
        return NULL;
    size_t count = (size_t)cJSON_GetArraySize(array);
    const char **args = mem_calloc(count + 1, sizeof *args);
    if (!args) {
        *nomem = true;
        return NULL;
    }
    const cJSON *item;
    cJSON_ArrayForEach(item, array)
    {
        if (!cJSON_IsString(item)) {
            dgpb_free(args);
            return NULL;
        }
        args[(*n)++] = item->valuestring;
    }
    return args;
}

static int write_all(int fd, const char *data, size_t len, dgpb_diag *diag)
{
    while (len) {
        ssize_t w = write(fd, data, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return dgpb_diag_set(diag, DGPB_ERR_IO, errno, "cannot write an answer: %s",
                                 strerror(errno));
        data += w;
        len -= (size_t)w;
    }
    return DGPB_OK;
}

/* The answer line; `checked`: the compile came from a kept module ("checked": true). */
static int answer_job(int fd, int status, const char *diagnostics, bool checked, dgpb_diag *diag)
{
    cJSON *root = cJSON_CreateObject();
    char *text = NULL;
    if (!root || !cJSON_AddNumberToObject(root, "status", status) ||
        !cJSON_AddStringToObject(root, "diagnostics", diagnostics ? diagnostics : "") ||
        (checked && !cJSON_AddBoolToObject(root, "checked", true)) ||
        !(text = cJSON_PrintUnformatted(root))) {
        cJSON_Delete(root);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    cJSON_Delete(root);
    int rc = write_all(fd, text, strlen(text), diag);
    if (!rc)
        rc = write_all(fd, "\n", 1, diag);
    cJSON_free(text);
    return rc;
}

static int answer(int fd, int status, const char *diagnostics, dgpb_diag *diag)
{
    return answer_job(fd, status, diagnostics, false, diag);
}

/*
 * Runs one job: its arguments, whether it records a layout, and where a compile records its
 * program's layout too (NULL: nowhere). Returns what serve_line does.
 */
static int serve_job(dgpb_slang *s, sharing *share, int out_fd, const char *const *args,
                     size_t n, bool layout, const char *layout_output, dgpb_diag *diag)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (layout && share->store && share->checked_key &&
        checked_layout(share->store, s, share->checked_key, args, n) == CHECKED_DONE)
        return answer_job(out_fd, DGPB_RECORDER_EXIT_OK, "", true, diag);
    if (layout) {
        int code = worker_record_layout_file(s, args, n, &d);
        char text[DGPB_DIAG_FILE_MAX + DGPB_DIAG_MESSAGE_MAX + 64] = "";
        if (code)
            dgpb_diag_format(&d, text, sizeof text);
        return code == DGPB_ERR_NOMEM ? dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory")
                                      : answer(out_fd, (int)recorder_exit_of(code), text, diag);
    }
    int status = 0, rc;
    char *text = NULL;
    int code = compile_job(s, share, args, n, layout_output, &status, &text, &d);
    if (code == DGPB_ERR_NOMEM)
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    else if (code)
        rc = answer(out_fd, DGPB_SLANGC_EXIT_FAILED, d.message, diag);
    else
        rc = answer_job(out_fd, status, text, share->answered_checked, diag);
    dgpb_free(text);
    return rc;
}

/*
 * Answers one job line. Only a failure of the answer channel or of memory is
 * returned. A job with "cwd" runs in that folder; `home` is the folder to
 * come back to (an open descriptor).
 */
static int serve_line(dgpb_slang *s, checked_store *store, int out_fd, int home, const char *line,
                      size_t len, dgpb_diag *diag)
{
    cJSON *root = cJSON_ParseWithLength(line, len);
    bool object = cJSON_IsObject(root);
    const cJSON *layout = object ? cJSON_GetObjectItemCaseSensitive(root, "layout") : NULL;
    const cJSON *compile = object ? cJSON_GetObjectItemCaseSensitive(root, "compile") : NULL;
    const cJSON *output = object ? cJSON_GetObjectItemCaseSensitive(root, "layout_output") : NULL;
    const cJSON *plain = object ? cJSON_GetObjectItemCaseSensitive(root, "args") : root;
    const cJSON *cwd = object ? cJSON_GetObjectItemCaseSensitive(root, "cwd") : NULL;
    const cJSON *keep = object ? cJSON_GetObjectItemCaseSensitive(root, "keep") : NULL;
    const cJSON *checked_as = object ? cJSON_GetObjectItemCaseSensitive(root, "checked_as") : NULL;
    int forms = (layout != NULL) + (compile != NULL) + (plain != NULL);
    size_t n = 0, checked_n = 0;
    bool nomem = false, checked_nomem = false;
    const char **args = forms != 1 ? NULL
                                   : string_array(layout    ? layout
                                                  : compile ? compile
                                                            : plain,
                                                  &n, &nomem);
    const char **checked = checked_as ? string_array(checked_as, &checked_n, &checked_nomem) : NULL;
    const char *cwd_text = cJSON_IsString(cwd) ? cwd->valuestring : NULL;
    sharing share = {store, NULL, NULL, checked, checked_n, false};
    char *keep_key = cJSON_IsTrue(keep) && args ? checked_key(cwd_text, args, n) : NULL;
    char *from_key = checked && checked_n ? checked_key(cwd_text, checked, checked_n) : NULL;
    share.keep_key = keep_key;
    share.checked_key = from_key;
    int rc = DGPB_OK;
    if (nomem || checked_nomem || (cJSON_IsTrue(keep) && args && !keep_key) ||
        (checked && checked_n && !from_key)) {
        rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    } else if (!args || (compile && !cJSON_IsString(output)) ||
               (keep && !cJSON_IsBool(keep)) || (checked_as && !checked) ||
               (cwd && (!cJSON_IsString(cwd) || cwd->valuestring[0] != '/'))) {
        rc = answer(out_fd, DGPB_RECORDER_EXIT_USAGE,
                    "not a job: a job is a JSON array of slangc's arguments, "
                    "{\"layout\": [dgpb-slang-layout's arguments]}, or {\"compile\": [slangc's "
                    "arguments], \"layout_output\": \"FILE\"}; each may be run in a folder: "
                    "{\"cwd\": \"/abs\", \"args\"|\"layout\"|\"compile\": [...]}",
                    diag);
    } else if (cwd && chdir(cwd->valuestring)) {
        char text[4096 + 128];
        snprintf(text, sizeof text, "cannot enter '%.*s': %s", 4096, cwd->valuestring,
                 strerror(errno));
        rc = answer(out_fd, layout ? DGPB_RECORDER_EXIT_TOOL : DGPB_SLANGC_EXIT_FAILED, text, diag);
    } else {
        rc = serve_job(s, &share, out_fd, args, n, layout != NULL,
                       compile ? output->valuestring : NULL, diag);
        if (cwd && fchdir(home) && rc == DGPB_OK)
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, errno,
                               "cannot come back to the worker's folder: %s", strerror(errno));
    }
    dgpb_free(keep_key);
    dgpb_free(from_key);
    dgpb_free(checked);
    dgpb_free(args);
    cJSON_Delete(root);
    return rc;
}

int worker_serve(dgpb_slang *s, int in_fd, int out_fd, dgpb_diag *diag)
{
    assert(s);
    dgpb_bytebuf buf = {0};
    int rc = DGPB_OK;
    int home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* where jobs with "cwd" return */
    if (home < 0)
        return dgpb_diag_set(diag, DGPB_ERR_IO, errno, "cannot open the working folder: %s",
                             strerror(errno));
    checked_store *store = NULL;
    if (checked_store_create(&store)) {
        close(home);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    for (;;) {
        char chunk[65536];
        ssize_t got = read(in_fd, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            rc = dgpb_diag_set(diag, DGPB_ERR_IO, errno, "cannot read jobs: %s", strerror(errno));
            break;
        }
        if (got == 0)
            break; /* the input ended: a partial last line is no job */
        bytebuf_append(&buf, chunk, (size_t)got);
        if (buf.failed || buf.len > LINE_MAX_BYTES) {
            rc = dgpb_diag_set(diag, buf.failed ? DGPB_ERR_NOMEM : DGPB_ERR_LIMIT, -1,
                               buf.failed ? "out of memory" : "a job line is longer than %zu bytes",
                               LINE_MAX_BYTES);
            break;
        }
        size_t start = 0;
        for (;;) {
            char *nl = memchr(buf.data + start, '\n', buf.len - start);
            if (!nl)
                break;
            size_t len = (size_t)(nl - (char *)buf.data) - start;
            if (len &&
                (rc = serve_line(s, store, out_fd, home, (const char *)buf.data + start, len,
                                 diag)))
                goto done;
            start += len + 1;
        }
        memmove(buf.data, buf.data + start, buf.len - start);
        buf.len -= start;
    }
done:
    checked_store_free(store, s);
    close(home);
    bytebuf_free(&buf);
    return rc;
}
