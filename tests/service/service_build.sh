#!/usr/bin/env bash
# service_build.sh DGPB-BUILD FIXTURES - builds through the compile service
# (docs/service.md): the same bytes as without it; a second build reuses the
# running service and its warm workers (the same pid, no worker started);
# four builds at once share it; --version tells running, not running and
# off; --service-stop stops it; a bad DGPB_SERVICE or --service is a usage
# error; an idle service exits and removes its socket.
source "$(dirname "$0")/service_lib.sh"
fixtures=$2
cp "$fixtures/plain.slang" "$work/plain.slang"
module_of 12 "$work/twelve.slang"
reference "$work/plain.slang" "$work/ref-plain"
reference "$work/twelve.slang" "$work/ref-twelve"

"$build" --version | grep -q "^compile service: not running ($DGPB_SERVICE_DIR/[0-9a-f]\{16\}\.sock)$" ||
    fail "--version before any build: $("$build" --version | tail -1)"

# The first build starts the service and compiles on it.
build_with "$work/one.log" -v "$work/plain.slang" -o "$work/one" || fail "first build: $(cat "$work/one.log")"
same "$work/one" "$work/ref-plain" plain
pid=$(sed -n 's/.*compiles: through the compile service (pid \([0-9]*\),.*/\1/p' "$work/one.log")
[ -n "$pid" ] || fail "-v does not say the compiles went through the service: $(cat "$work/one.log")"
[ "$(warnings "$work/one.log")" = 0 ] || fail "first build warned: $(cat "$work/one.log")"
version=$("$build" --version | tail -1)
[[ "$version" =~ ^compile\ service:\ running\ \(pid\ $pid,\ [0-9]+\ workers?,\ ([0-9]+)\ started,\ socket\ $DGPB_SERVICE_DIR/[0-9a-f]{16}\.sock\)$ ]] ||
    fail "--version after the first build: $version"
started=${BASH_REMATCH[1]}
[ "$started" -ge 1 ] || fail "the service started no worker: $version"
echo "ok: the first build started service $pid ($started workers) and wrote the same bytes"

# The second build reuses it: the same pid, its workers warm (none started).
build_with "$work/two.log" -v "$work/plain.slang" -o "$work/two" || fail "second build: $(cat "$work/two.log")"
same "$work/two" "$work/ref-plain" plain
grep -q "compiles: through the compile service (pid $pid, [0-9]* workers\?, $started started before this build)" "$work/two.log" ||
    fail "-v of the second build: $(grep compiles: "$work/two.log")"
[ "$(service_pid)" = "$pid" ] || fail "the service changed: $("$build" --version | tail -1)"
"$build" --version | grep -q ", $started started," || fail "the second build started workers: $("$build" --version | tail -1)"
echo "ok: the second build reused service $pid and its $started warm workers"

# Four builds at once (two modules, two each) share it, and all write the same bytes.
pids=()
for i in 1 2 3 4; do
    m=plain
    [ $((i % 2)) = 0 ] && m=twelve
    build_with "$work/many$i.log" -q "$work/$m.slang" -o "$work/many$i" &
    pids+=($!)
done
for i in 1 2 3 4; do
    wait "${pids[$((i - 1))]}" || fail "concurrent build $i: $(cat "$work/many$i.log")"
    m=plain
    [ $((i % 2)) = 0 ] && m=twelve
    same "$work/many$i" "$work/ref-$m" $m
    [ ! -s "$work/many$i.log" ] || fail "concurrent build $i said something: $(cat "$work/many$i.log")"
done
[ "$(service_pid)" = "$pid" ] || fail "the service changed during the concurrent builds"
echo "ok: four concurrent builds shared service $pid, the same bytes"

# Settings: off, bad values, the option over the variable.
DGPB_SERVICE=off "$build" --version | grep -q "^compile service: off (DGPB_SERVICE=off)$" ||
    fail "--version with DGPB_SERVICE=off: $(DGPB_SERVICE=off "$build" --version | tail -1)"
"$build" --service=off --version | grep -q "^compile service: off (--service=off)$" ||
    fail "--version with --service=off"
DGPB_SERVICE=off "$build" --service auto --version | grep -q "^compile service: running (pid $pid," ||
    fail "--service auto does not win over DGPB_SERVICE=off"
DGPB_SERVICE=off build_with "$work/off.log" -v "$work/plain.slang" -o "$work/off" || fail "an off build failed"
grep -q "compiles: local workers (the compile service is off: DGPB_SERVICE=off)" "$work/off.log" ||
    fail "-v of an off build: $(grep compiles: "$work/off.log")"
DGPB_SERVICE=bogus "$build" "$work/plain.slang" -o "$work/bogus" 2> "$work/bogus.log"
status=$?
[ $status = 2 ] && grep -q "DGPB_SERVICE is 'auto' or 'off', not 'bogus'" "$work/bogus.log" ||
    fail "DGPB_SERVICE=bogus: exit $status, $(cat "$work/bogus.log")"
"$build" --service=maybe "$work/plain.slang" 2> "$work/bogus.log"
status=$?
[ $status = 2 ] && grep -q "\-\-service is 'auto' or 'off', not 'maybe'" "$work/bogus.log" ||
    fail "--service=maybe: exit $status, $(cat "$work/bogus.log")"
[ ! -e "$work/bogus" ] || fail "a usage error wrote something"
echo '{"arguments": ["--version"], "requestId": 1}' | timeout 60 "$build" --persistent_worker |
    grep -q 'compile service: off (--persistent_worker keeps its own workers warm)' ||
    fail "--persistent_worker does not keep off the service"
echo "ok: off, bad values, the option's precedence, and none for --persistent_worker"

# --service-stop stops it (and says so); a second one finds none, and exits 0.
sock=$(socket_path)
out=$(timeout 30 "$build" --service-stop) || fail "--service-stop failed: $out"
[ "$out" = "compile services stopped: 1 ($DGPB_SERVICE_DIR)" ] || fail "--service-stop said: $out"
wait_gone "$pid" || fail "service $pid still runs after --service-stop"
[ ! -e "$sock" ] || fail "the stopped service left its socket"
"$build" --version | grep -q "^compile service: not running (" || fail "--version after the stop"
out=$(timeout 30 "$build" --service-stop) || fail "a second --service-stop failed: $out"
[ "$out" = "compile services stopped: 0 ($DGPB_SERVICE_DIR)" ] || fail "a second --service-stop said: $out"
echo "ok: --service-stop stopped service $pid and removed its socket"

# Four builds that find no service at once start one (the start lock), and all use it.
pids=()
for i in 1 2 3 4; do
    build_with "$work/start$i.log" -v "$work/plain.slang" -o "$work/start$i" &
    pids+=($!)
done
for i in 1 2 3 4; do
    wait "${pids[$((i - 1))]}" || fail "starting build $i: $(cat "$work/start$i.log")"
    same "$work/start$i" "$work/ref-plain" plain
    [ "$(warnings "$work/start$i.log")" = 0 ] || fail "starting build $i warned: $(cat "$work/start$i.log")"
done
started_pids=$(sed -n 's/.*compiles: through the compile service (pid \([0-9]*\),.*/\1/p' "$work"/start?.log | sort -u)
[ "$(echo "$started_pids" | wc -w)" = 1 ] || fail "four builds at once used services $started_pids, not one"
[ "$(service_pid)" = "$started_pids" ] || fail "the service of the four builds is not the one running"
[ "$(grep -c ": serving " "$DGPB_SERVICE_DIR"/*.log)" = 2 ] ||
    fail "not one service started for the four builds: $(cat "$DGPB_SERVICE_DIR"/*.log)"
timeout 30 "$build" --service-stop > /dev/null && wait_gone "$started_pids" || fail "the service did not stop"
echo "ok: four builds that found no service at once started one ($started_pids)"

# An idle service exits after DGPB_SERVICE_IDLE_SECONDS and removes its socket.
DGPB_SERVICE_IDLE_SECONDS=1 build_with "$work/idle.log" -q "$work/plain.slang" -o "$work/idle" ||
    fail "the idle test's build: $(cat "$work/idle.log")"
same "$work/idle" "$work/ref-plain" plain
idle=$(grep -o "dgpb-build service [0-9]*: serving" "$DGPB_SERVICE_DIR"/*.log | tail -1 | sed 's/.*service \([0-9]*\):.*/\1/')
[ -n "$idle" ] && [ "$idle" != "$pid" ] || fail "no new service started for the idle test"
wait_gone "$idle" || fail "service $idle did not exit after 1 s idle"
[ ! -e "$sock" ] || fail "the idle service left its socket"
grep -q "dgpb-build service $idle: idle for 1 s: exiting" "$DGPB_SERVICE_DIR"/*.log ||
    fail "the log does not say why service $idle exited: $(cat "$DGPB_SERVICE_DIR"/*.log)"
echo "ok: an idle service exited and removed its socket"
echo "ok: builds through the compile service"
