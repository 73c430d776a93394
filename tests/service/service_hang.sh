#!/usr/bin/env bash
# service_hang.sh DGPB-BUILD FIXTURES - a compile service that does not
# answer is asked once (docs/service.md, "When the service fails"): the
# build that sees it hang (DGPB_SERVICE_TIMEOUT_MS) kills it and compiles
# here with one warning, and the next build starts a fresh service, without
# a warning; --service-stop stops a stopped (SIGSTOP) service too, exit 0;
# and a service whose client left mid-batch exits after its idle limit, its
# workers with it. The test counts builds and warnings; its only clocks are
# the bounds of its waits.
source "$(dirname "$0")/service_lib.sh"
fixtures=$2
cp "$fixtures/plain.slang" "$work/plain.slang"
reference "$work/plain.slang" "$work/ref"

# gone PID: the process has ended (a zombie nobody reaped yet counts as ended).
gone() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
    set -- ${stat##*) }
    [ "$1" = Z ]
}
# until_gone PID...: waits (at most 30 s) for each to end; false when one did not.
until_gone() {
    local p try
    for p; do
        for try in $(seq 1 300); do
            gone "$p" && break
            sleep 0.1
        done
        gone "$p" || return 1
    done
}

# A stopped service: the first build waits DGPB_SERVICE_TIMEOUT_MS, kills it, compiles here.
build_with "$work/first.log" -q "$work/plain.slang" -o "$work/first" || fail "first: $(cat "$work/first.log")"
stopped=$(service_pid)
[ -n "$stopped" ] || fail "no service after the first build"
workers=$(children_of "$stopped")
kill -STOP "$stopped"
DGPB_SERVICE_TIMEOUT_MS=3000 build_with "$work/noticed.log" -q "$work/plain.slang" -o "$work/noticed" || fail "noticed: $(cat "$work/noticed.log")"
same "$work/noticed" "$work/ref" plain
[ "$(warnings "$work/noticed.log")" = 1 ] &&
    grep -q "warning: the compile service (pid $stopped) did not answer for 3.0 s (DGPB_SERVICE_TIMEOUT_MS) and was ended; compiling here" "$work/noticed.log" ||
    fail "noticed: not one warning that the stopped service was ended: $(cat "$work/noticed.log")"
until_gone "$stopped" $workers || fail "the stopped service $stopped or its workers ($workers) still run"
echo "ok: the build that found the service stopped ended it and its workers, one warning, the same bytes"

# Stopped workers under a live service: it goes on answering keep-alives, but no job moves
# and no process uses CPU time. The build takes the jobs back after DGPB_SERVICE_PROGRESS_MS
# (its own measure, not the service's word), ends that service and compiles here.
build_with "$work/w0.log" -q "$work/plain.slang" -o "$work/w0" || fail "w0: $(cat "$work/w0.log")"
live=$(service_pid)
[ -n "$live" ] || fail "no service after the build w0"
workers=$(children_of "$live")
[ -n "$workers" ] || fail "the service $live has no workers to stop"
kill -STOP $workers
DGPB_SERVICE_PROGRESS_MS=2000 timeout 120 "$build" --targets spirv,wgsl -q "$work/plain.slang" \
    -o "$work/wstop" 2> "$work/wstop.log" || fail "stopped workers: $(cat "$work/wstop.log")"
same "$work/wstop" "$work/ref" plain
[ "$(warnings "$work/wstop.log")" = 1 ] &&
    grep -q "warning: the compile service (pid $live) made no progress for 2.0 s.*; compiling here" "$work/wstop.log" ||
    fail "stopped workers: not one warning that the service made no progress: $(cat "$work/wstop.log")"
kill -CONT $workers 2>/dev/null
until_gone "$live" || fail "the service $live whose workers stopped still runs"
echo "ok: stopped workers: the build took its jobs back after 2 s without progress, one warning, the same bytes"

# Every later build: a fresh service, no warning (none waits for the stopped one again).
for n in 1 2 3; do
    build_with "$work/later$n.log" -v "$work/plain.slang" -o "$work/later$n" || fail "later $n: $(cat "$work/later$n.log")"
    same "$work/later$n" "$work/ref" plain
    [ "$(warnings "$work/later$n.log")" = 0 ] || fail "later build $n warned: $(cat "$work/later$n.log")"
    grep -q "compiles: through the compile service (pid [0-9]*," "$work/later$n.log" ||
        fail "later build $n: not through a service: $(grep compiles: "$work/later$n.log")"
done
fresh=$(service_pid)
[ -n "$fresh" ] && [ "$fresh" != "$stopped" ] || fail "no fresh service ($fresh) in place of $stopped"
echo "ok: three later builds went through a fresh service ($fresh) without a warning"

# --version on a stopped service: the first ends it, the next says that none runs.
kill -STOP "$fresh"
DGPB_SERVICE_TIMEOUT_MS=3000 timeout 60 "$build" --version > "$work/version1.log" 2>&1 || fail "--version: $(cat "$work/version1.log")"
grep -q "^compile service: not running (.*did not answer for 3.0 s (DGPB_SERVICE_TIMEOUT_MS) and was ended" "$work/version1.log" ||
    fail "--version on a stopped service: $(cat "$work/version1.log")"
until_gone "$fresh" || fail "--version did not end the stopped service $fresh"
"$build" --version | grep -q "^compile service: not running ([^)]*)$" || fail "a second --version: $("$build" --version | tail -1)"
echo "ok: --version ends a stopped service once; the next one finds none running"

# --service-stop stops a stopped service: exit 0, the process and its socket gone.
build_with "$work/again.log" -q "$work/plain.slang" -o "$work/again" || fail "again: $(cat "$work/again.log")"
pid=$(service_pid)
sock=$(socket_path)
workers=$(children_of "$pid")
kill -STOP "$pid"
timeout 60 "$build" --service-stop > "$work/stop.log" 2>&1
status=$?
[ $status = 0 ] || fail "--service-stop of a stopped service: exit $status: $(cat "$work/stop.log")"
grep -q "^compile services stopped: 1 (" "$work/stop.log" || fail "--service-stop: $(cat "$work/stop.log")"
until_gone "$pid" $workers || fail "--service-stop left the stopped service $pid or its workers ($workers)"
[ ! -e "$sock" ] || fail "--service-stop left the stopped service's socket $sock"
[ -z "$(ls -d "$DGPB_SERVICE_DIR"/dgpb-workers-* 2>/dev/null)" ] ||
    fail "--service-stop left workers' folders: $(ls -d "$DGPB_SERVICE_DIR"/dgpb-workers-*)"
echo "ok: --service-stop stops a stopped service (exit 0), its workers, socket and folder gone"

# Idle: a client that leaves mid-batch; the service exits after its idle limit, workers too.
module_of 150 "$work/large.slang"
DGPB_SERVICE_IDLE_SECONDS=2 DGPB_SERVICE_WORKERS=2 "$build" --targets spirv,wgsl -q "$work/large.slang" \
    -o "$work/left" 2> "$work/left.log" &
client=$! # dgpb-build itself (killed below)
pid=$(busy_service 600) # its workers compile
[ -n "$pid" ] || fail "idle: no service ran for the large build"
sleep 1
kill -0 "$client" 2>/dev/null || fail "idle: the build finished before its client left"
workers=$(children_of "$pid")
kill -9 "$client"
wait "$client" 2>/dev/null
until_gone "$pid" $workers || fail "idle: the service $pid (idle limit 2 s) or its workers ($workers) still run 30 s after its client left: $(cat "$DGPB_SERVICE_DIR"/*.log)"
grep -q "dgpb-build service $pid: client 1 (pid [0-9]*) left: [0-9]* waiting jobs\? dropped" "$DGPB_SERVICE_DIR"/*.log &&
    grep -q "dgpb-build service $pid: idle for 2 s: exiting" "$DGPB_SERVICE_DIR"/*.log ||
    fail "idle: the log does not say the client left mid-batch and the service idled out: $(cat "$DGPB_SERVICE_DIR"/*.log)"
echo "ok: a service whose client left mid-batch exits after its idle limit, its workers with it"
