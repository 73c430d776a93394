#!/usr/bin/env bash
# build_jobs.sh BUILD MODULE - "-j N" means at most N compiles at once, never
# more than a batch has jobs, and with the embedded compiler never more
# workers than half the available memory holds (DGPB_EMBEDDED_WORKER_BYTES,
# 175 MiB, each): "-j 1000" on a small module starts no more workers than it
# has jobs. Read from the notes -v prints per batch:
# "N jobs, M at once (-j 1000); W compiler workers started so far".
set -u
build=$1 module=$2
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
# The build's own workers, not the warm ones of the run's compile service (tests/CMakeLists.txt).
fail() { echo "FAIL: $*"; exit 1; }
log=$("$build" -v -j 1000 --service off --no-cache --no-layouts "$module" -o "$out" 2>&1) || fail "build: $log"
notes=$(printf '%s\n' "$log" | sed -n 's/.*note: \([0-9]*\) jobs\{0,1\}, \([0-9]*\) at once (-j 1000); \([0-9]*\) compiler workers\{0,1\} started so far$/\1 \2 \3/p')
[ -n "$notes" ] || fail "-v printed no 'N jobs, M at once' note: $log"
avail_kib=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
[ -n "$avail_kib" ] || fail "no MemAvailable in /proc/meminfo"
mem_cap=$((avail_kib / 2 / (175 * 1024)))
[ "$mem_cap" -ge 1 ] || mem_cap=1
most_jobs=0
while read -r jobs at_once workers; do
    [ "$at_once" -le "$jobs" ] || fail "$at_once at once for $jobs jobs"
    [ "$at_once" -le "$mem_cap" ] || fail "$at_once at once, more than memory holds ($mem_cap)"
    [ "$jobs" -gt "$most_jobs" ] && most_jobs=$jobs
    [ "$workers" -le "$most_jobs" ] || fail "$workers workers started for batches of at most $most_jobs jobs"
done <<< "$notes"
echo "ok: -j 1000 ran at most as many at once as there were jobs ($most_jobs)"
