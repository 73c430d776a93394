/*
 * worker_client.c - the client of one persistent `--serve` compiler process (compiler/worker_client.h):
 * start, job lines, answers, standard error, retirement, messages.
 *
 * Nothing here waits for a worker's answer: the users poll() the workers'
 * standard output and error themselves and call worker_read_out() and
 * worker_read_err() when there is something to read.
 */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include "compiler/worker_client.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/bytebuf.h"

#define ERR_KEEP ((size_t)64 << 10) /* how much of a worker's standard error is kept */
#define ERR_SHOWN 1200              /* how much of it a message quotes */

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- the workers' TMPDIR ---- */

int worker_make_tmp(const char *base, char **dir, char **env, dgpb_diag *diag)
{
    *dir = *env = NULL;
    if (!base) {
        base = getenv("TMPDIR");
        if (!base || !*base)
            base = "/tmp";
    }
    char *d = mem_printf("%s/dgpb-workers-XXXXXX", base);
    if (!d)
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    if (!mkdtemp(d)) {
        int rc = dgpb_diag_set(diag, DGPB_ERR_IO, -1, "cannot create a folder like '%s': %s", d,
                               strerror(errno));
        dgpb_free(d);
        return rc;
    }
    char *e = mem_printf("TMPDIR=%s", d);
    if (!e) {
        rmdir(d);
        dgpb_free(d);
        return dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
    }
    *dir = d;
    *env = e;
    return DGPB_OK;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void worker_remove_tmp(const char *dir)
{
    if (dir)
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- start and end ---- */

int worker_start(worker *w, const char *const *argv, const char *cwd, const char *const *env,
                 dgpb_diag *diag)
{
    process_clear(&w->proc);
    w->proc = (dgpb_process)DGPB_PROCESS_INIT;
    w->proc.argv = argv;
    w->proc.cwd = cwd;
    w->proc.env = env;
    w->proc.flags = DGPB_PROCESS_PIPES | DGPB_PROCESS_GROUP;
    w->job = WORKER_NO_JOB;
    w->owner = NULL;
    w->line.len = 0;
    w->line.failed = false;
    w->err.len = 0;
    w->err.failed = false;
    int rc = process_start(&w->proc, diag);
    if (rc)
        return rc;
    w->alive = true;
    return DGPB_OK;
}

static void keep_err(worker *w, const char *data, size_t n)
{
    bytebuf_append(&w->err, data, n);
    if (w->err.failed) { /* only messages suffer: start again */
        bytebuf_free(&w->err);
        return;
    }
    if (w->err.len > ERR_KEEP) {
        size_t drop = w->err.len - ERR_KEEP / 2;
        memmove(w->err.data, w->err.data + drop, w->err.len - drop);
        w->err.len -= drop;
    }
}

int worker_retire(worker *w, bool kill_it)
{
    if (!w->alive)
        return w->proc.status;
    if (kill_it)
        process_kill(&w->proc, SIGKILL, NULL);
    process_close_input(&w->proc);
    process_finish(&w->proc, NULL);
    if (w->proc.err)
        keep_err(w, w->proc.err, w->proc.err_len);
    w->alive = false;
    w->job = WORKER_NO_JOB;
    w->owner = NULL;
    return w->proc.status;
}

void worker_free(worker *w)
{
    if (!w)
        return;
    worker_retire(w, false);
    process_clear(&w->proc);
    bytebuf_free(&w->line);
    bytebuf_free(&w->err);
}

/* ---- jobs ---- */

/* Appends `text` as a JSON string, escaped as cJSON escapes it (bytes past ASCII as they are). */
static void json_string(dgpb_bytebuf *out, const char *text)
{
    bytebuf_append(out, "\"", 1);
    const char *run = text;
    for (const char *p = text;; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        bytebuf_append(out, run, (size_t)(p - run));
        if (!c)
            break;
        char esc[8];
        const char *named = c == '"'    ? "\\\""
                            : c == '\\' ? "\\\\"
                            : c == '\b' ? "\\b"
                            : c == '\f' ? "\\f"
                            : c == '\n' ? "\\n"
                            : c == '\r' ? "\\r"
                            : c == '\t' ? "\\t"
                                        : NULL;
        if (!named) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            named = esc;
        }
        bytebuf_append(out, named, strlen(named));
        run = p + 1;
    }
    bytebuf_append(out, "\"", 1);
}

char *worker_job_line(const char *const *args, size_t n, bool layout, const char *layout_output,
                      const char *cwd, const worker_share *share)
{
    /* Written straight into one buffer: a job of a million arguments is its text, not a node
       per argument. */
    dgpb_bytebuf out = DGPB_BYTEBUF_INIT;
    bool compile = !layout && layout_output;
    bool shares = share && ((!layout && share->keep) || share->checked_as_count);
    /* {"cwd": ..., "layout"|"compile"|"args": [...]} */
    bool object = layout || compile || cwd || shares;
    if (object) {
        bytebuf_append(&out, "{", 1);
        if (cwd) {
            bytebuf_append(&out, "\"cwd\":", 6);
            json_string(&out, cwd);
            bytebuf_append(&out, ",", 1);
        }
        json_string(&out, layout ? "layout" : compile ? "compile" : "args");
        bytebuf_append(&out, ":", 1);
    }
    bytebuf_append(&out, "[", 1);
    for (size_t k = 0; k < n; k++) {
        if (k)
            bytebuf_append(&out, ",", 1);
        json_string(&out, args[k] ? args[k] : "");
    }
    bytebuf_append(&out, "]", 1);
    if (compile) {
        bytebuf_append(&out, ",\"layout_output\":", 17);
        json_string(&out, layout_output);
    }
    if (shares && share->keep && !layout)
        bytebuf_append(&out, ",\"keep\":true", 12);
    if (shares && share->checked_as_count) {
        bytebuf_append(&out, ",\"checked_as\":[", 15);
        for (size_t k = 0; k < share->checked_as_count; k++) {
            if (k)
                bytebuf_append(&out, ",", 1);
            json_string(&out, share->checked_as[k] ? share->checked_as[k] : "");
        }
        bytebuf_append(&out, "]", 1);
    }
    if (object)
        bytebuf_append(&out, "}", 1);
    bytebuf_append(&out, "", 1); /* the NUL */
    if (out.failed) {
        bytebuf_free(&out);
        return NULL;
    }
    size_t len;
    return (char *)bytebuf_take(&out, &len);
}

int worker_send_line(worker *w, const char *line, dgpb_diag *diag)
{
    int rc = process_write(&w->proc, line, strlen(line), diag);
    return rc ? rc : process_write(&w->proc, "\n", 1, diag);
}

/* ---- answers ---- */

worker_read worker_read_out(worker *w)
{
    char buf[65536];
    ssize_t n = read(w->proc.out_fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return WORKER_READ_OK;
    if (n <= 0)
        return WORKER_READ_EOF;
    bytebuf_append(&w->line, buf, (size_t)n);
    if (w->line.failed || w->line.len > WORKER_ANSWER_MAX)
        return WORKER_READ_TOO_LONG;
    return WORKER_READ_OK;
}

bool worker_next_line(const worker *w, const char **line, size_t *len)
{
    const char *start = (const char *)w->line.data;
    const char *nl = w->line.len ? memchr(start, '\n', w->line.len) : NULL;
    if (!nl)
        return false;
    *line = start;
    *len = (size_t)(nl - start);
    return true;
}

void worker_drop_line(worker *w, size_t len)
{
    memmove(w->line.data, w->line.data + len + 1, w->line.len - len - 1);
    w->line.len -= len + 1;
}

int worker_parse_answer(const char *line, size_t len, int *status, char **diagnostics,
                        char **output, bool *checked)
{
    int rc = DGPB_OK;
    cJSON *root = cJSON_ParseWithLength(line, len);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "status");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "diagnostics");
    const cJSON *out = cJSON_GetObjectItemCaseSensitive(root, "stdout");
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(root, "checked");
    if (!cJSON_IsObject(root) || !cJSON_IsNumber(st) || !cJSON_IsString(d) ||
        (out && !cJSON_IsString(out)) || (ch && !cJSON_IsBool(ch)) || st->valuedouble < 0 ||
        st->valuedouble > 255 || st->valuedouble != (double)(int)st->valuedouble) {
        rc = DGPB_ERR_CORRUPT;
        goto done;
    }
    char *dd = mem_strdup(d->valuestring);
    char *oo = mem_strdup(out ? out->valuestring : "");
    if (!dd || !oo) {
        dgpb_free(dd);
        dgpb_free(oo);
        rc = DGPB_ERR_NOMEM;
        goto done;
    }
    *status = st->valueint;
    *diagnostics = dd;
    *output = oo;
    if (checked)
        *checked = cJSON_IsTrue(ch);
done:
    cJSON_Delete(root);
    return rc;
}

/* ---- standard error and messages ---- */

void worker_read_err(worker *w)
{
    char buf[8192];
    ssize_t n = read(w->proc.err_fd, buf, sizeof buf);
    if (n > 0)
        keep_err(w, buf, (size_t)n);
    else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(w->proc.err_fd); /* finish() reads nothing more from it */
        w->proc.err_fd = -1;
    }
}

void worker_err_tail(const worker *w, const char **text, int *len)
{
    const char *t = (const char *)w->err.data;
    size_t n = w->err.len;
    while (n && is_space(*t))
        t++, n--;
    while (n && is_space(t[n - 1]))
        n--;
    if (n > ERR_SHOWN) {
        t += n - ERR_SHOWN;
        n = ERR_SHOWN;
    }
    *text = n ? t : "(nothing)";
    *len = n ? (int)n : 9;
}

/* The value after the last `option` among the arguments, or NULL. */
static const char *option_value(const char *const *args, size_t n, const char *option)
{
    const char *value = NULL;
    for (size_t k = 0; k + 1 < n; k++)
        if (args[k] && !strcmp(args[k], option))
            value = args[k + 1];
    return value;
}

void worker_describe_job(const char *const *args, size_t n, bool layout, size_t index, char *buf,
                         size_t size)
{
    const char *entry = option_value(args, n, "-entry"), *target = option_value(args, n, "-target");
    snprintf(buf, size, " while %s %s%.200s%s for target '%.40s' (job %zu, module '%.300s')",
             layout ? "recording the layout of" : "compiling", entry ? "entry '" : "the module",
             entry ? entry : "", entry ? "'" : "", target ? target : "(none)", index + 1,
             n && args[0] ? args[0] : "");
}

char *worker_failure_message(const worker *w, const char *program, int pid, int status,
                             const char *what, const char *during)
{
    char how[160];
    if (what)
        snprintf(how, sizeof how, "%s", what);
    else if (status >= 128)
        snprintf(how, sizeof how, "was ended by signal %d", status - 128);
    else
        snprintf(how, sizeof how, "exited with status %d%s", status,
                 status == 127 ? " (is Node.js installed?)" : "");
    const char *err;
    int err_len;
    worker_err_tail(w, &err, &err_len);
    return mem_printf("%s --serve worker %u (pid %d) %s%s; its last words: %.*s",
                      base_name(program), w->id, pid, how, during ? during : "", err_len, err);
}
