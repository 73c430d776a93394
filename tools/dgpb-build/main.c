/*
 * dgpb-build - compiles Slang modules into DGPB v0 shader bundles.
 *
 * A thin main over the library: one invocation (invocation.h) of the
 * command line, or, with --persistent_worker, Bazel's worker protocol
 * (persistent_worker.h), which runs one invocation per request. A build a
 * signal stopped ends with the program dying of that signal.
 */
#include <stdbool.h>
#include <string.h>

#include "common/tool_common.h"
#include "compiler_choice.h"
#include "dgpb/service.h"
#include "exit_status.h"
#include "invocation.h"
#include "persistent_worker.h"
#include "signals.h"

int main(int argc, char **argv)
{
    tool_init("dgpb-build", "error: ", EXIT_USAGE);
    /* The compile service's own process (docs/service.md), started by a build. */
    if (argc > 1 && !strcmp(argv[1], "--service-daemon"))
        return dgpb_service_daemon(argc - 2, argv + 2, NULL) ? EXIT_TOOL : EXIT_OK;
    int rc;
    bool worker = false;
    for (int i = 1; i < argc; i++)
        worker |= !strcmp(argv[i], "--persistent_worker");
    if (worker) {
        rc = persistent_worker_main(argc, argv);
    } else {
        compiler_keep keep = {0};
        rc = invocation_run(&keep, argc, argv);
        compiler_keep_release(&keep);
    }
    return rc > 128 && signals_caught ? signals_die_of(rc - 128) : rc;
}
