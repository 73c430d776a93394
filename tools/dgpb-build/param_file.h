/*
 * param_file.h - @FILE arguments: a parameter file holds more arguments,
 * one a line, as Bazel writes them with set_param_file_format("multiline")
 * (docs/build.md, "Parameter files"):
 *
 *   * each line is one argument exactly as it stands: no quoting, no
 *     escapes, spaces kept; an empty line is an empty argument; a line ends
 *     at "\n" or "\r\n", and the last line needs no newline. So an argument
 *     holding a newline cannot be written in a parameter file: pass it on
 *     the command line.
 *   * parameter files do not nest: a line that starts with '@' is that
 *     argument, '@' included, not another file. An argument that starts
 *     with '@' on the command line is always a file (name a module that
 *     starts with '@' as ./@m.slang).
 *   * only a regular file is read (a symbolic link to one is followed):
 *     opened with O_NONBLOCK and checked with fstat() before any read, so
 *     /dev/stdin on a pipe, a FIFO, a device or a folder is a usage error,
 *     never a read that blocks or has no end (in a persistent worker,
 *     @/dev/stdin would read the requests that follow).
 *   * a file that cannot be read is exit status 3; a lone "@", a file of
 *     more than PARAM_FILE_MAX bytes (refused from its size, unread) or one
 *     holding a NUL byte is a usage error (2). The message names the file.
 *   * a file costs one allocation of its size, its lines cut in place, and
 *     one pointer a line.
 */
#ifndef DGPB_BUILD_PARAM_FILE_H
#define DGPB_BUILD_PARAM_FILE_H

#include <stddef.h>

/* The largest parameter file read: 64 MiB. */
#define PARAM_FILE_MAX ((size_t)64 << 20)

/* A command line with its parameter files expanded. */
typedef struct arg_list {
    int argc;
    char **argv;  /* NULL-terminated; the strings are the caller's argv's or point into texts */
    char **texts; /* each file's text, its lines cut in place (owned) */
    size_t text_count;
} arg_list;

/*
 * Copies argv[0..argc-1] into *out, each @FILE argument after argv[0]
 * replaced by the lines of FILE. Returns -1 on success, or an exit status
 * (2, 3) after printing the error; *out is then empty. Release *out with
 * arg_list_free() either way.
 */
int param_files_expand(int argc, char **argv, arg_list *out);

void arg_list_free(arg_list *list);

#endif
