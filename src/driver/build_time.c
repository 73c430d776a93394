/*
 * build_time.c - where a build's time goes (build_internal.h,
 * dgpb_build_result.phase_seconds, dgpb-build --timings): a monotonic clock,
 * the sub-phases a stage gives its time to, and the phases' names.
 */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "driver/build_internal.h"

double build_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void build_time_add(build *b, dgpb_build_phase phase, double since)
{
    double spent = build_now() - since;
    b->result->phase_seconds[phase] += spent;
    b->claimed += spent;
}

static const char *const phase_names[] = {
#define DGPB_PHASE_NAME(ID, name, what) [DGPB_PHASE_##ID] = name,
    DGPB_BUILD_PHASES(DGPB_PHASE_NAME)
#undef DGPB_PHASE_NAME
};

const char *dgpb_build_phase_name(uint32_t phase)
{
    return phase < DGPB_PHASE_COUNT ? phase_names[phase] : NULL;
}
