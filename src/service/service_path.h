/*
 * service_path.h - where the compile service lives (internal,
 * docs/service.md "Folder and security"): its folder, checked; the
 * identity that names its socket; the lock that makes two starting clients
 * start one service; and the environment numbers it reads.
 */
#ifndef DGPB_SERVICE_PATH_H
#define DGPB_SERVICE_PATH_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define service_dir dgpb__service_dir
#define service_dir_check dgpb__service_dir_check
#define service_env_ignored dgpb__service_env_ignored
#define service_env_number dgpb__service_env_number
#define service_file dgpb__service_file
#define service_identity dgpb__service_identity
#define service_lock dgpb__service_lock
#define service_now dgpb__service_now
#define service_peer_same dgpb__service_peer_same
#define service_unlock dgpb__service_unlock
#define service_workers_claim dgpb__service_workers_claim
#define service_workers_sweep dgpb__service_workers_sweep

#include <stdbool.h>
#include <stddef.h>

#include "dgpb/result.h"

/* The protocol's version: in the hello messages and in the identity. */
#define SERVICE_PROTOCOL 1
/* How many hex digits of the identity name the socket ("<name>.sock"). */
#define SERVICE_NAME_LEN 16
/* The identity in hex, and its NUL. */
#define SERVICE_IDENTITY_HEX 65

/*
 * Finds the service folder and makes it (mode 0700) when it is missing:
 * $DGPB_SERVICE_DIR when set (relative to the working folder if relative);
 * else $XDG_RUNTIME_DIR/dgpb when XDG_RUNTIME_DIR is an absolute path to a
 * folder of the user's with mode 0700; else /tmp/dgpb-<uid>. Then checks it
 * (service_dir_check). Fills `dir` (size bytes). DGPB_ERR_UNSUPPORTED with a
 * message saying why when the folder is not safe or cannot be made.
 */
int service_dir(char *dir, size_t size, dgpb_diag *diag);

/*
 * Checks a service folder: a real folder (not a symbolic link), owned by
 * this user, with no permission for the group or others. DGPB_ERR_UNSUPPORTED
 * with the reason otherwise.
 */
int service_dir_check(const char *dir, dgpb_diag *diag);

/* What the identity is made of; NULL strings are absent. */
typedef struct service_identity_desc {
    const char *program;   /* the service's program (dgpb-build) */
    const char *compiler;  /* the compiler's absolute path */
    bool embedded;         /* it is the embedded slangc-wasm */
    const char *recorder;  /* dgpb-slang-layout (the native worker and recorder) */
    const char *slang_lib; /* the libslang given to it */
} service_identity_desc;

/*
 * The service identity, in hex: a SHA-256 over the protocol version, the
 * status (device, inode, size, modification time) of the program, of the
 * compiler's program and files (compiler/compiler_files.h) and of the
 * libslang it loads, of the recorder and the libslang given; and over this
 * process's context, everything that changes what a job can read or what it
 * produces: its users, groups and sorted supplementary groups, its mount
 * namespace and root (device, inode), its temporary folder ($TMPDIR, else
 * /tmp: as given, resolved, device, inode), every resource limit, and its
 * whole environment, sorted, less the variables service_env_ignored() names.
 * No file is read. DGPB_ERR_NOMEM.
 */
int service_identity(const service_identity_desc *d, char hex[SERVICE_IDENTITY_HEX],
                     dgpb_diag *diag);

/*
 * Whether the environment entry "NAME=value" is left out of the identity:
 * the shell's bookkeeping (_, PWD, OLDPWD, SHLVL), make's recursion state
 * (MAKEFLAGS, MFLAGS, MAKELEVEL, MAKE_TERMOUT, MAKE_TERMERR), the terminal's
 * (TERM, COLUMNS, LINES) and the client's own settings (DGPB_SERVICE*,
 * DGPB_NO_CACHE, DGPB_CACHE_*).
 */
bool service_env_ignored(const char *entry);

/*
 * Whether the process `pid` (a connection's peer, by SO_PEERCRED) shares
 * this process's context as far as /proc shows it: mount namespace, root,
 * users, groups, supplementary groups and resource limits. False, with
 * `why` (size bytes) naming what differs, also when the peer's cannot be
 * read while this process's can (what /proc does not show this process
 * either, as without /proc, is left to the identity).
 */
bool service_peer_same(int pid, char *why, size_t size);

/*
 * "<dir>/<name><suffix>" into buf (size bytes). DGPB_ERR_LIMIT, naming the
 * path, when it does not fit.
 */
int service_file(const char *dir, const char *name, const char *suffix, char *buf, size_t size,
                 dgpb_diag *diag);

/*
 * Takes the lock file `path` (made, mode 0600, when missing) for exclusive
 * use, waiting up to `ms` milliseconds for another holder. Returns its
 * descriptor, or -1 with `diag` filled (DGPB_ERR_IO).
 */
int service_lock(const char *path, int ms, dgpb_diag *diag);

/* Releases a lock service_lock() took (-1: no-op). */
void service_unlock(int fd);

/* The lock file in a service's workers' folder, held for the service's lifetime. */
#define SERVICE_OWNER_LOCK "owner.lock"

/*
 * Claims the workers' folder `folder` for this process: takes its lock file
 * SERVICE_OWNER_LOCK (service_lock). Returns the descriptor to keep open for
 * the service's lifetime, or -1 with `diag` filled.
 */
int service_workers_claim(const char *folder, dgpb_diag *diag);

/*
 * Removes every "dgpb-workers-*" folder in the service folder `dir` whose
 * owner is gone: a real folder (not a symbolic link) of this user whose lock
 * file no process holds, or one with no lock file made more than a minute
 * ago. What it holds goes too, through openat() and unlinkat(), never
 * following a symbolic link. A live service's folder is kept. Returns how
 * many it removed.
 */
unsigned service_workers_sweep(const char *dir);

/* An environment variable as a whole number from min to max; `fallback` when unset or not one. */
long service_env_number(const char *name, long fallback, long min, long max);

/* Monotonic seconds. */
double service_now(void);

#endif
