/*
 * io_fault.h - a test-only hook that makes the library's file steps fail
 * (internal; docs/testing.md, "Fault loops").
 *
 * Each step of dgpb/fileio.h (open, read, create a temporary, write, sync,
 * close, rename, mkdir) and the creation of dgpb_build()'s intermediate
 * folder asks io_fault() first. With no hook installed (the default, and the
 * only state a program ever sees) it answers 0 and costs one test of a
 * pointer. A test installs a hook with io_fault_set(); the hook gets the
 * step's name and path and returns 0 to let it run, or an errno value to
 * make it fail as the system call would (errno is set to it). Removing files
 * and folders is never asked: cleanup is what the fault loops check.
 *
 * The hook is process-wide and not synchronised: set and clear it only while
 * no other thread is inside the library.
 */
#ifndef DGPB_IO_FAULT_H
#define DGPB_IO_FAULT_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define io_fault dgpb__io_fault
#define io_fault_set dgpb__io_fault_set

/* Returns 0 (go on) or the errno value the step `step` on `path` fails with. */
typedef int (*dgpb_io_fault_fn)(const char *step, const char *path, void *user);

/* Installs `fn` (NULL: none) with its `user` pointer. */
void io_fault_set(dgpb_io_fault_fn fn, void *user);

/* The hook's answer for one step; when it is not 0, errno is set to it. */
int io_fault(const char *step, const char *path);

#endif
