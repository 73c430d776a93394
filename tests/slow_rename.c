/*
 * slow_rename.c - a test-only LD_PRELOAD library (tests/build_atomic.sh):
 * rename() over a "*.bundle.json" first sleeps a random time of up to
 * $DGPB_TEST_RENAME_DELAY_MS milliseconds, which widens the moment between
 * replacing a bundle and replacing its JSON view enough for a test to kill a
 * build there, or for two builds to overtake each other there. Never
 * installed, never linked into a program.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int (*rename_fn)(const char *from, const char *to);

/* Only the program it was preloaded into: the compilers that program starts (Node.js, not
 * built with the sanitizers the test library may be) never see it. */
__attribute__((constructor)) static void keep_to_this_process(void)
{
    unsetenv("LD_PRELOAD");
}

int rename(const char *from, const char *to)
{
    static rename_fn real;
    static int seeded;
    if (!real)
        real = (rename_fn)dlsym(RTLD_NEXT, "rename");
    if (!seeded) {
        srandom((unsigned)getpid() ^ (unsigned)time(NULL));
        seeded = 1;
    }
    const char *ms = getenv("DGPB_TEST_RENAME_DELAY_MS");
    size_t n = strlen(to), suffix = strlen(".bundle.json");
    long max = ms ? atol(ms) : 0;
    if (max > 0 && n >= suffix && !strcmp(to + n - suffix, ".bundle.json")) {
        long delay = random() % (max + 1);
        struct timespec ts = {delay / 1000, (delay % 1000) * 1000000L};
        while (nanosleep(&ts, &ts) != 0)
            ;
    }
    return real(from, to);
}
