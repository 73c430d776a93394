#!/usr/bin/env python3
"""no_leftovers.py DGPB_BUILD RUN_SERVICE_DIR - no test leaves a process behind.

ctest runs every test with DGPB_TEST_RUN set to a value of its own run
(tests/CMakeLists.txt, no_cache.cmake), and every process a test starts
inherits it: a compile service and its workers, a Bazel server, a store.
This check runs after every other test of the run (DEPENDS, and the
dgpb_tests fixture's cleanup). It first stops the run's own compile service
(RUN_SERVICE_DIR, where every test's DGPB_SERVICE_DIR points unless it names
a folder of its own: dgpb-build --service-stop) and removes that folder; then
it fails when a process of this run other than ctest and its ancestors still
runs (after a grace of a few seconds for those that are going), naming each
(and ending each compile service). Processes of other runs, and of other
build trees, are not looked at.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

run = os.environ.get("DGPB_TEST_RUN")
if not run:
    sys.exit("FAIL: DGPB_TEST_RUN is not set: run this check through ctest")
build, run_dir = sys.argv[1], sys.argv[2]


def ancestors():
    """This process and its ancestors (ctest among them)."""
    pids, pid = set(), os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def leftovers():
    """{pid: command line} of the live processes of this run, other than ours."""
    mine, found = ancestors(), {}
    marker = ("DGPB_TEST_RUN=" + run).encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in mine:
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue  # ended; its parent has not reaped it yet
            with open(f"/proc/{entry}/environ", "rb") as f:
                if marker not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                found[int(entry)] = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return found


# The run's own compile service is meant to live until now: stopped first.
if os.path.isdir(run_dir):
    stop = subprocess.run([build, "--service-stop"], env=dict(os.environ, DGPB_SERVICE_DIR=run_dir),
                          capture_output=True, text=True)
    if stop.returncode != 0:
        print(f"FAIL: --service-stop of the run's services: exit {stop.returncode}: {stop.stderr.strip()}")
        sys.exit(1)
    print(f"ok: {stop.stdout.strip()}")
left = leftovers()
for _ in range(100):  # a few seconds for processes on their way out
    if not left:
        break
    time.sleep(0.1)
    left = leftovers()
failed = False
for pid, cmd in sorted(left.items()):
    print(f"FAIL: a test left process {pid} running: {cmd[:300]}")
    failed = True
    if " --service-daemon " in f" {cmd} ":  # a service: ended (its workers end with it)
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
if os.path.isdir(run_dir):
    socks = [n for n in os.listdir(run_dir) if n.endswith(".sock")]
    if socks:
        print(f"FAIL: sockets left in the run's service folder after --service-stop: {socks}")
        failed = True
    shutil.rmtree(run_dir, ignore_errors=True)
if failed:
    sys.exit(1)
print("ok: no test left a process behind")
