#!/usr/bin/env bash
# service_signals.sh DGPB-BUILD FIXTURES - clients of one compile service
# share its workers fairly, and SIGINT of one cancels its jobs only. A build
# of a large module (2000 compiles) queues its compiles on the service; a
# small build started then finishes with the same bytes while the large one
# still has more than half of its compiles waiting (its jobs take turns
# with the large build's, not after them: the service's log counts the
# large build's waiting jobs when it leaves). SIGINT then stops the large
# build (exit 130, nothing written): the service drops its waiting jobs and
# kills the workers busy with its jobs, while a third build on the same
# service finishes with exit 0 and the same bytes, and the service keeps
# serving with the same pid.
source "$(dirname "$0")/service_lib.sh"
fixtures=$2
cp "$fixtures/plain.slang" "$work/plain.slang"
module_of 1000 "$work/large.slang"
module_of 40 "$work/medium.slang"
reference "$work/plain.slang" "$work/ref-plain"
reference "$work/medium.slang" "$work/ref-medium"

# The service runs, with two workers.
export DGPB_SERVICE_WORKERS=2
build_with "$work/warm.log" -q "$work/plain.slang" -o "$work/warm" || fail "warm-up: $(cat "$work/warm.log")"
pid=$(service_pid)
[ -n "$pid" ] || fail "no service after the warm-up build"

# A large build takes both workers; once its compile batch is queued (-v prints the batch's
# commands before it runs), a small build comes and finishes.
mkdir -p "$work/large"
printf 'previous bundle' > "$work/large/large.dgpb"
"$build" --targets spirv,wgsl -v -j 2 "$work/large.slang" -o "$work/large" 2> "$work/large.log" &
large=$! # dgpb-build itself, for SIGINT
for try in $(seq 1 1800); do
    grep -q -- "-entry k1000 " "$work/large.log" && break
    kill -0 "$large" 2>/dev/null || break
    sleep 0.1
done
grep -q -- "-entry k1000 " "$work/large.log" || fail "the large build's compiles did not start: $(tail -3 "$work/large.log")"
"$build" --targets spirv,wgsl -q "$work/plain.slang" -o "$work/small" 2> "$work/small.log" &
small=$!
bounded_wait "$small" 900 || fail "the small build did not end within 900 s"
wait "$small" || fail "small: $(cat "$work/small.log")"
same "$work/small" "$work/ref-plain" plain
[ ! -s "$work/small.log" ] || fail "the small build said something: $(cat "$work/small.log")"
kill -0 "$large" 2>/dev/null || fail "the large build finished before the small one"
echo "ok: a small build finished while a large one kept the service busy"

# A third build runs on the service while the large one is interrupted.
"$build" --targets spirv,wgsl -q "$work/medium.slang" -o "$work/medium" 2> "$work/medium.log" &
medium=$!
sleep 1
kill -0 "$large" 2>/dev/null || fail "the large build finished before SIGINT"
kill -INT "$large"
bounded_wait "$large" 120 || fail "the interrupted build did not end within 120 s"
wait "$large"
status=$?
[ $status = 130 ] || fail "the interrupted build: exit status $status, not 130: $(tail -3 "$work/large.log")"
[ "$(cat "$work/large/large.dgpb")" = "previous bundle" ] || fail "the interrupted build changed its output"
bounded_wait "$medium" 900 || fail "the other build did not end within 900 s"
wait "$medium"
status=$?
[ $status = 0 ] || fail "the other build: exit status $status: $(cat "$work/medium.log")"
same "$work/medium" "$work/ref-medium" medium
[ ! -s "$work/medium.log" ] || fail "the other build said something: $(cat "$work/medium.log")"
[ "$(service_pid)" = "$pid" ] || fail "the service did not survive the interrupted client"
left=$(sed -n "s/.*dgpb-build service $pid: client [0-9]* (pid $large) left: \([0-9]*\) waiting jobs\? dropped, [0-9]* workers\? killed$/\1/p" "$DGPB_SERVICE_DIR"/*.log)
[ -n "$left" ] ||
    fail "the service's log does not say the interrupted client's jobs were dropped: $(cat "$DGPB_SERVICE_DIR"/*.log)"
[ "$left" -ge 1000 ] ||
    fail "the large build had $left of its 2000 compiles waiting when interrupted, after the small build: the small one's jobs waited for the large one's"
echo "ok: SIGINT of one client cancelled its $left waiting jobs only; the other finished with the same bytes"

# And it serves the next build as before.
build_with "$work/next.log" -v "$work/plain.slang" -o "$work/next" || fail "next: $(cat "$work/next.log")"
same "$work/next" "$work/ref-plain" plain
grep -q "compiles: through the compile service (pid $pid," "$work/next.log" || fail "next: not through service $pid"
echo "ok: clients share the service fairly, and an interrupted one cancels its own jobs only"
