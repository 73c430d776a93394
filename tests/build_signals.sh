#!/usr/bin/env bash
# build_signals.sh BUILD - SIGINT, SIGTERM and SIGHUP stop dgpb-build cleanly:
# sent at a few moments of a build of a module with many entries (discovery,
# compiles, late compiles), each leaves an exit status of 128 + the signal's
# number, no intermediate folder in $TMPDIR, no process of the build alive
# (its workers are killed and waited for: checked by session, and by scanning
# /proc for a process whose working folder or command line is in the test's
# folder) and the previous output pair untouched, with nothing new beside it.
set -u
build=$1
# The build's own workers, not the run's compile service (tests/CMakeLists.txt): the
# service's signals are tests/service's.
export DGPB_SERVICE=off
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v setsid >/dev/null || fail "setsid not found (install util-linux)"

{
    echo 'RWStructuredBuffer<float> data;'
    for i in $(seq 1 120); do
        printf '[shader("compute")]\n[numthreads(64, 1, 1)]\nvoid k%d(uint3 id : SV_DispatchThreadID)\n' $i
        printf '{\n    data[id.x] = data[id.x] * %d.0;\n}\n' $i
    done
} > "$work/many.slang"

# Processes of session $1, or whose working folder or command line is under $work.
leftovers() {
    local p stat rest
    for p in /proc/[0-9]*; do
        [ "${p#/proc/}" = "$$" ] && continue
        stat=$(cat "$p/stat" 2>/dev/null) || continue
        rest=${stat##*) }           # after "pid (comm) "
        set -- $rest                 # state ppid pgrp session ...
        [ "${1:-}" = Z ] && continue # dead, waiting for init to reap it
        if [ "${4:-}" = "$session" ] || [ "${3:-}" = "$session" ] ||
           [[ "$(readlink "$p/cwd" 2>/dev/null)" == "$work"* ]] ||
           tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -q -- "$work"; then
            echo "${p#/proc/}: $(tr '\0' ' ' < "$p/cmdline" 2>/dev/null | cut -c1-200)"
        fi
    done
}

declare -A number=([INT]=2 [TERM]=15 [HUP]=1)
for sig in INT TERM HUP; do
    for delay in 0.4 1.5 4; do
        case=$sig-$delay
        tmp="$work/tmp-$case" out="$work/out-$case"
        mkdir -p "$tmp" "$out"
        printf 'previous bundle' > "$out/many.dgpb"
        printf 'previous view' > "$out/many.bundle.json"
        # Its own session: every process it starts shares the session id, its pid.
        TMPDIR="$tmp" setsid "$build" -q --no-cache -j 2 "$work/many.slang" -o "$out" \
            > "$work/log-$case" 2>&1 & session=$!
        sleep "$delay"
        [ "$(cat /proc/$session/comm 2>/dev/null)" = dgpb-build ] ||
            fail "$case: dgpb-build was not running when signalled (finished too soon?): $(cat "$work/log-$case")"
        kill -s "$sig" "$session"
        wait "$session"; status=$?
        [ "$status" -eq $((128 + ${number[$sig]})) ] ||
            fail "$case: exit status $status, not $((128 + ${number[$sig]})): $(cat "$work/log-$case")"
        # Its children were waited for; what they started (nvcc) was killed with them and
        # may take a moment to go.
        for try in 1 2 3 4 5 6 7 8 9 10; do
            left=$(leftovers)
            [ -z "$left" ] && break
            sleep 0.2
        done
        [ -z "$left" ] || fail "$case: processes left alive: $left"
        [ -z "$(ls -A "$tmp")" ] || fail "$case: left in TMPDIR: $(ls -A "$tmp")"
        [ "$(cat "$out/many.dgpb")" = "previous bundle" ] &&
            [ "$(cat "$out/many.bundle.json")" = "previous view" ] ||
            fail "$case: the previous pair changed"
        extra=$(ls -A "$out" | grep -v -x -e many.dgpb -e many.bundle.json)
        [ -z "$extra" ] || fail "$case: left in the output folder: $extra"
        echo "ok: $case (exit $status)"
    done
done
echo "ok: signals stop the build cleanly"
