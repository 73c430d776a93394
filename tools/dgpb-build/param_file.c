/*
 * param_file.c - @FILE arguments expanded into the lines of FILE
 * (param_file.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "param_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/tool_common.h"
#include "exit_status.h"
#include "messages.h"

/* Makes room for `more` arguments and the NULL after them; false (with a message) when out of memory. */
static bool reserve(arg_list *list, size_t *cap, size_t more)
{
    size_t need = (size_t)list->argc + more + 1;
    if (need <= *cap)
        return true;
    size_t n = *cap * 2 > need ? *cap * 2 : need;
    char **grown = realloc(list->argv, n * sizeof *grown);
    if (!grown) {
        say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory for the arguments");
        return false;
    }
    list->argv = grown;
    *cap = n;
    return true;
}

/* Appends one argument, growing the vector; false when out of memory. */
static bool push(arg_list *list, size_t *cap, char *arg)
{
    if (!reserve(list, cap, 1))
        return false;
    list->argv[list->argc++] = arg;
    list->argv[list->argc] = NULL;
    return true;
}

/*
 * Reads the parameter file `path` whole into *data (NUL-terminated, owned),
 * in one allocation of its size: only a regular file is read, opened without
 * waiting (O_NONBLOCK: a FIFO opens at once) and checked with fstat(), so
 * that a FIFO, a terminal, /dev/stdin on a pipe, /dev/zero or a folder is
 * refused instead of read. Returns -1, or the exit status after the message.
 */
static int read_param_file(const char *path, char **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 && (errno == ENXIO || errno == ENODEV || errno == EISDIR))
        return tool_usage_error("parameter file '%s' is not a regular file", path);
    if (fd < 0) {
        say(DGPB_SEV_ERROR, DGPB_ERR_IO, true, "cannot read parameter file '%s': %s", path,
            strerror(errno));
        return EXIT_TOOL;
    }
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0) {
        say(DGPB_SEV_ERROR, DGPB_ERR_IO, true, "cannot read parameter file '%s': %s", path,
            strerror(errno));
        rc = EXIT_TOOL;
    } else if (!S_ISREG(st.st_mode)) {
        rc = tool_usage_error(
            "parameter file '%s' is not a regular file (%s): only a regular file is read", path,
            S_ISDIR(st.st_mode)    ? "a folder"
            : S_ISFIFO(st.st_mode) ? "a FIFO or pipe"
            : S_ISCHR(st.st_mode)  ? "a character device"
            : S_ISSOCK(st.st_mode) ? "a socket"
                                   : "not a file");
    } else if (st.st_size < 0 || (uint64_t)st.st_size > PARAM_FILE_MAX) {
        rc = tool_usage_error("parameter file '%s' is larger than %zu MiB", path,
                              PARAM_FILE_MAX >> 20);
    }
    char *buf = rc < 0 ? malloc((size_t)st.st_size + 1) : NULL;
    if (rc < 0 && !buf) {
        say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory for parameter file '%s'", path);
        rc = EXIT_TOOL;
    }
    /* Exactly the size fstat() gave: a file that grows meanwhile is read to that size. */
    size_t want = rc < 0 ? (size_t)st.st_size : 0, got = 0;
    while (rc < 0 && got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0) {
            say(DGPB_SEV_ERROR, DGPB_ERR_IO, true, "cannot read parameter file '%s': %s", path,
                strerror(errno));
            rc = EXIT_TOOL;
        }
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (rc >= 0) {
        free(buf);
        return rc;
    }
    buf[got] = 0;
    *data = buf;
    *size = got;
    return -1;
}

/* Reads FILE and appends its lines. Returns -1, or the exit status after the message. */
static int expand_file(arg_list *list, size_t *cap, const char *path)
{
    if (!*path)
        return tool_usage_error("'@' names no parameter file (@FILE)");
    char *data = NULL;
    size_t size = 0;
    int rc = read_param_file(path, &data, &size);
    if (rc >= 0)
        return rc;
    const char *nul = memchr(data, 0, size);
    if (nul) {
        size_t at = (size_t)(nul - data);
        free(data);
        return tool_usage_error("parameter file '%s' holds a NUL byte (offset %zu): it is not "
                                "one argument a line",
                                path, at);
    }
    char **texts = realloc(list->texts, (list->text_count + 1) * sizeof *texts);
    if (!texts) {
        free(data);
        say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory for the arguments");
        return EXIT_TOOL;
    }
    list->texts = texts;
    list->texts[list->text_count++] = data;
    /* One pointer a line, reserved at once: the file's text and a vector, nothing per line. */
    size_t lines = 0;
    for (const char *p = data, *end = data + size; p < end; lines++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    if (!reserve(list, cap, lines))
        return EXIT_TOOL;
    char *line = data, *end = line + size;
    while (line < end) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        char *stop = nl ? nl : end;
        if (stop > line && stop[-1] == '\r')
            stop[-1] = 0;
        *stop = 0; /* the NUL put past the end, for the last line */
        if (!push(list, cap, line))
            return EXIT_TOOL;
        line = stop + 1;
    }
    return -1;
}

int param_files_expand(int argc, char **argv, arg_list *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = 16;
    out->argv = calloc(cap, sizeof *out->argv);
    int rc = -1;
    if (!out->argv) {
        say(DGPB_SEV_ERROR, DGPB_ERR_NOMEM, true, "out of memory for the arguments");
        rc = EXIT_TOOL;
    }
    for (int i = 0; i < argc && rc < 0; i++) {
        if (i > 0 && argv[i][0] == '@')
            rc = expand_file(out, &cap, argv[i] + 1);
        else if (!push(out, &cap, argv[i]))
            rc = EXIT_TOOL;
    }
    if (rc >= 0)
        arg_list_free(out);
    return rc;
}

void arg_list_free(arg_list *list)
{
    for (size_t i = 0; i < list->text_count; i++)
        free(list->texts[i]);
    free(list->texts);
    free(list->argv);
    memset(list, 0, sizeof *list);
}
