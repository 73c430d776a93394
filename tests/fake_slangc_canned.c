/*
 * fake_slangc_canned.c - a stand-in for a native slangc that answers every
 * compile with outputs a real slangc wrote before (test_build_faults.c).
 *
 * It is run through a symbolic link `<work>/slangc`; <work> holds:
 *   canned  a link to the kept outputs (fixtures/build_faults/plain), one
 *           folder per target as dgpb-build's intermediate folder has them
 *           ("spirv/amplify.spv" and "spirv/amplify.spv.json");
 *   count   the number of compiles so far (this one adds 1);
 *   fault   "JOB KIND": what compile JOB (1-based) does wrong (see below);
 *   stderr  (optional) what every compile that succeeds prints on standard
 *           error, as a native slangc prints Slang's warnings.
 * `-v` prints the version. A compile copies canned/<dir>/<file> of its -o
 * path to -o, and its .json to -reflection-json, and writes a depfile naming
 * the module. A small C program, not a script: the fault loops start
 * thousands of compiles.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int copy(const char *from, const char *to, long limit)
{
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    int rc = in && out ? 0 : 1;
    char buf[8192];
    size_t n;
    while (!rc && limit != 0 && (n = fread(buf, 1, sizeof buf, in)) > 0) {
        if (limit > 0 && (long)n > limit)
            n = (size_t)limit;
        rc = fwrite(buf, 1, n, out) != n;
        limit -= limit > 0 ? (long)n : 0;
    }
    if (in)
        fclose(in);
    if (out && fclose(out))
        rc = 1;
    return rc;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fputs(text, f);
    return fclose(f) != 0;
}

/* The number of this compile, counted in <work>/count. */
static long next_job(const char *work)
{
    char path[4200], text[32];
    long n = 0;
    snprintf(path, sizeof path, "%s/count", work);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld", &n) != 1)
            n = 0;
        fclose(f);
    }
    snprintf(text, sizeof text, "%ld\n", ++n);
    write_text(path, text);
    return n;
}

/* The fault of this compile ("none" unless <work>/fault names it). */
static void fault_of(const char *work, long job, char *kind, size_t size)
{
    char path[4200], word[64] = "none";
    long at = 0;
    snprintf(path, sizeof path, "%s/fault", work);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld %63s", &at, word) != 2)
            at = 0;
        fclose(f);
    }
    snprintf(kind, size, "%s", at == job ? word : "none");
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "-v")) {
        puts("2025.15");
        return 0;
    }
    char work[4096];
    snprintf(work, sizeof work, "%s", argv[0]);
    char *slash = strrchr(work, '/');
    if (!slash)
        return 3;
    *slash = 0;
    const char *out = NULL, *json = NULL, *dep = NULL;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-o"))
            out = argv[++i];
        else if (!strcmp(argv[i], "-reflection-json"))
            json = argv[++i];
        else if (!strcmp(argv[i], "-depfile"))
            dep = argv[++i];
    }
    if (!out || !json || !dep || argc < 2)
        return 3;
    char kind[64];
    fault_of(work, next_job(work), kind, sizeof kind);
    if (!strcmp(kind, "exit")) {
        fprintf(stderr, "fake slangc: failing on purpose\n");
        return 1;
    }
    if (!strcmp(kind, "kill"))
        raise(SIGKILL);
    /* canned/<folder>/<file> of the -o path: its last two components */
    const char *last = strrchr(out, '/');
    const char *before = last;
    while (before && before > out && before[-1] != '/')
        before--;
    if (!last || !before)
        return 3;
    char code[8400], reflection[8500], text[8400];
    snprintf(code, sizeof code, "%s/canned/%s", work, before);
    snprintf(reflection, sizeof reflection, "%s.json", code);
    long code_limit = !strcmp(kind, "short-code") ? 10 : !strcmp(kind, "empty-code") ? 0 : -1;
    long json_limit = !strcmp(kind, "short-json") ? 100 : !strcmp(kind, "empty-json") ? 0 : -1;
    snprintf(text, sizeof text, "%s: %s\n", out, argv[1]);
    if (copy(code, out, code_limit) || copy(reflection, json, json_limit) || write_text(dep, text))
        return 1;
    if (!strcmp(kind, "no-code"))
        remove(out);
    else if (!strcmp(kind, "no-json"))
        remove(json);
    else if (!strcmp(kind, "no-dep"))
        remove(dep);
    else if (!strcmp(kind, "bad-json"))
        write_text(json, "not json\n");
    snprintf(text, sizeof text, "%s/stderr", work);
    FILE *said = fopen(text, "r");
    if (said) {
        int c;
        while ((c = fgetc(said)) != EOF)
            fputc(c, stderr);
        fclose(said);
    }
    return 0;
}
