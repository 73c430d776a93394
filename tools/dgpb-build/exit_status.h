/*
 * exit_status.h - dgpb-build's exit statuses: the rows of
 * dgpb/vocabulary.def (DGPB_EXIT_BUILD) as EXIT_<NAME>, the status of a
 * library result code, and the worst of several modules' statuses.
 */
#ifndef DGPB_BUILD_EXIT_STATUS_H
#define DGPB_BUILD_EXIT_STATUS_H

enum {
#define DGPB_EXIT_BUILD(code, NAME, meaning) EXIT_##NAME = code,
#include "dgpb/vocabulary.def"
};

/* The exit status of a library result code: 0, 1 (shader), 2 (invalid), else 3. */
int exit_status_of(int rc);

/*
 * The worse of two exit statuses (docs/build.md, "Several modules"): the
 * rows of DGPB_EXIT_BUILD are listed from the best to the worst (0, 1, 2,
 * 3), and a signal's 128+N (DGPB_EXIT_BUILD_SIGNAL) is worse than all of
 * them. Ties keep `a`.
 */
int exit_worst(int a, int b);

#endif
