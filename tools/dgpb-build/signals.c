/*
 * signals.c - SIGINT, SIGTERM and SIGHUP noted for the build to stop on, and
 * dying of them at the end (signals.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "signals.h"

#include <string.h>

volatile sig_atomic_t signals_caught;

static void on_signal(int sig)
{
    signals_caught = sig;
}

void signals_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int signals_die_of(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    return 128 + sig;
}
