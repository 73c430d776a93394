/*
 * cache_setup.h - the compile cache an invocation of dgpb-build uses
 * (docs/cache.md): its folder and cap from the options and the
 * environment, the remote store, and the commands --cache-stats and
 * --cache-clear.
 */
#ifndef DGPB_BUILD_CACHE_SETUP_H
#define DGPB_BUILD_CACHE_SETUP_H

#include <stdbool.h>

#include "dgpb/cache.h"
#include "options.h"

/*
 * Opens the compile cache (--cache-dir, $DGPB_CACHE_DIR, $XDG_CACHE_HOME/dgpb,
 * ~/.cache/dgpb) with its cap (--cache-max-size, $DGPB_CACHE_MAX_SIZE).
 * Returns EXIT_OK with *out set, or NULL when no folder can be named or made
 * (`must`: an error and its exit status, else a warning and no cache).
 */
int cache_open(const options *o, bool must, dgpb_cache **out);

/*
 * Adds the remote store (--cache-remote, $DGPB_CACHE_REMOTE) to the open
 * cache. EXIT_USAGE for a URL that names none (shown without its password).
 */
int cache_open_remote(const options *o, dgpb_cache *cache);

/* --cache-stats and --cache-clear: prints, and returns the exit status. */
int cache_command(const options *o);

#endif
