/*
 * exit_status.c - dgpb-build's exit statuses (exit_status.h).
 */
#include "exit_status.h"

#include "dgpb/result.h"

int exit_status_of(int rc)
{
    switch (dgpb_result_class(rc)) {
    case DGPB_OK:
        return EXIT_OK;
    case DGPB_ERR_SHADER:
        return EXIT_SHADER;
    case DGPB_ERR_INVALID:
        return EXIT_USAGE;
    default:
        return EXIT_TOOL;
    }
}

/* Where a status stands in the order of the vocabulary's rows; a signal's after them all. */
static int rank(int status)
{
    int r = 0;
#define DGPB_EXIT_BUILD(code, NAME, meaning)                                                       \
    if (status == (code))                                                                          \
        return r;                                                                                  \
    r++;
#include "dgpb/vocabulary.def"
    return r + (status > 128 ? 1 : 0);
}

int exit_worst(int a, int b)
{
    return rank(b) > rank(a) ? b : a;
}
