/*
 * signals.h - how dgpb-build stops on SIGINT, SIGTERM and SIGHUP: the
 * handlers only note the signal in a flag that the build watches
 * (dgpb_build_desc.cancel), which kills and waits for its compiles and
 * workers, removes its intermediate folder and returns
 * DGPB_ERR_INTERRUPTED; the program then dies of the same signal (a shell
 * reports 128 + its number). A build whose outputs were committed already
 * finishes writing them first.
 */
#ifndef DGPB_BUILD_SIGNALS_H
#define DGPB_BUILD_SIGNALS_H

#include <signal.h>

/* The signal that arrived since signals_catch() (0: none); what builds are cancelled on. */
extern volatile sig_atomic_t signals_caught;

/*
 * Installs the handlers. The flag is never cleared: a signal ends the
 * process (a persistent worker too, after the request it stopped), so no
 * later invocation in it ever sees one that an earlier one caught.
 */
void signals_catch(void);

/* Dies of `sig`, with its default action; returns 128 + sig should the program survive. */
int signals_die_of(int sig);

#endif
