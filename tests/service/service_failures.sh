#!/usr/bin/env bash
# service_failures.sh DGPB-BUILD FIXTURES - a compile service that cannot be
# used costs one warning and the build finishes here with the same bytes
# (docs/service.md, "When the service fails"): a stale socket (a service
# that is gone) is replaced by a new service, without a warning; a folder
# open to others or that is a symbolic link is not used; a service that
# never answers, or stops answering mid-batch (DGPB_SERVICE_TIMEOUT_MS), that
# answers garbage or a job never sent, that refuses the build, or that
# crashes mid-job (a fake that exits, and the real one killed with SIGKILL
# while it compiles a large module) costs one warning, exit status 0.
source "$(dirname "$0")/service_lib.sh"
fixtures=$2
cp "$fixtures/plain.slang" "$work/plain.slang"
reference "$work/plain.slang" "$work/ref"

# expect_local CASE WHY [ENV...]: a build warns once (WHY), compiles here, writes the same bytes.
expect_local() {
    local case=$1 why=$2
    shift 2
    env "$@" timeout 600 "$build" --targets spirv,wgsl -q "$work/plain.slang" -o "$work/$case" \
        2> "$work/$case.log"
    local status=$?
    [ $status = 0 ] || fail "$case: exit status $status: $(cat "$work/$case.log")"
    same "$work/$case" "$work/ref" plain
    [ "$(warnings "$work/$case.log")" = 1 ] ||
        fail "$case: not one warning about the service: $(cat "$work/$case.log")"
    grep -q "dgpb-build: warning: .*$why.*; compiling here$" "$work/$case.log" ||
        fail "$case: the warning does not say '$why': $(cat "$work/$case.log")"
    [ "$(wc -l < "$work/$case.log")" = 1 ] || fail "$case: more than the warning: $(cat "$work/$case.log")"
    echo "ok: $case: one warning ($(sed 's/dgpb-build: warning: //' "$work/$case.log" | cut -c1-110)...), the same bytes"
}

# Gone: a socket file that nothing listens on (a killed service's) is removed, a service started.
sock=$(socket_path)
mkdir -p "$DGPB_SERVICE_DIR" && chmod 700 "$DGPB_SERVICE_DIR"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$sock"
[ -S "$sock" ] || fail "no stale socket made"
build_with "$work/stale.log" -v "$work/plain.slang" -o "$work/stale" || fail "stale: $(cat "$work/stale.log")"
same "$work/stale" "$work/ref" plain
[ "$(warnings "$work/stale.log")" = 0 ] || fail "stale: a warning: $(cat "$work/stale.log")"
grep -q "compiles: through the compile service (pid" "$work/stale.log" || fail "stale: not through a new service"
pid=$(service_pid)
[ -n "$pid" ] || fail "stale: no service runs"
timeout 30 "$build" --service-stop > /dev/null && wait_gone "$pid" || fail "stale: the service did not stop"
echo "ok: a stale socket: a new service started, no warning, the same bytes"

# Not safe: a folder open to others, a folder that is a symbolic link.
chmod 755 "$DGPB_SERVICE_DIR"
expect_local open-folder "is open to other users (mode 0755; it must be 0700)"
[ -z "$(ls -A "$DGPB_SERVICE_DIR" | grep '\.sock$')" ] || fail "open-folder: a socket was made in it"
chmod 700 "$DGPB_SERVICE_DIR"
mkdir -m 700 "$work/real"
ln -s "$work/real" "$work/link"
expect_local link-folder "is a symbolic link" DGPB_SERVICE_DIR="$work/link"
[ -z "$(ls -A "$work/real")" ] || fail "link-folder: something was made in it: $(ls -A "$work/real")"

# Hung: no answer to the hello; no answer to the jobs (each within DGPB_SERVICE_TIMEOUT_MS).
fake silent
expect_local silent "did not answer for 0.5 s" DGPB_SERVICE_TIMEOUT_MS=500
stop_fakes
fake hello-silent
expect_local hello-silent "did not answer for 0.5 s" DGPB_SERVICE_TIMEOUT_MS=500
stop_fakes

# Garbage, an answer to a job never sent, a refusal.
fake garbage
expect_local garbage "sent something that is not an answer: 'this is not JSON'"
stop_fakes
fake wrong-job
expect_local wrong-job "sent something that is not an answer: '{\"job\":1000"
stop_fakes
fake refuse
expect_local refuse "refused this build: refused by the fake"
stop_fakes

# A crash mid-job: the fake says the job started, then exits.
fake exit-mid-job
expect_local exit-mid-job "closed the connection with [0-9]* jobs\? unanswered"
stop_fakes
# Keep-alives only: the service says it lives twice a second, no job moves, nothing uses CPU
# time: the build takes its jobs back after DGPB_SERVICE_PROGRESS_MS, however long the
# keep-alives go on (docs/service.md, "When the service fails").
fake alive-only
expect_local alive-only "made no progress for 2.0 s" DGPB_SERVICE_PROGRESS_MS=2000
stop_fakes
rm -f "$sock"

# The real service killed (SIGKILL) while it compiles a large module for a build.
module_of 150 "$work/large.slang"
reference "$work/large.slang" "$work/ref-large"
build_with "$work/killed.log" -q -j 2 "$work/large.slang" -o "$work/killed" &
client=$!
pid=$(busy_service 300) # its workers compile
[ -n "$pid" ] || fail "killed: no service ran for the large build"
sleep 1
kill -0 "$client" 2>/dev/null || fail "killed: the build finished before the service was killed"
kill -9 "$pid"
wait "$client"
status=$?
[ $status = 0 ] || fail "killed: exit status $status: $(cat "$work/killed.log")"
same "$work/killed" "$work/ref-large" large
[ "$(warnings "$work/killed.log")" = 1 ] &&
    grep -q "warning: the compile service (pid $pid) closed the connection with [0-9]* jobs\? unanswered; compiling here" "$work/killed.log" ||
    fail "killed: not one warning about the closed connection: $(cat "$work/killed.log")"
echo "ok: the service killed mid-build: one warning, the build finished here, the same bytes"

# The next build starts a new service in its place.
build_with "$work/after.log" -v "$work/plain.slang" -o "$work/after" || fail "after: $(cat "$work/after.log")"
same "$work/after" "$work/ref" plain
new=$(service_pid)
[ -n "$new" ] && [ "$new" != "$pid" ] && [ "$(warnings "$work/after.log")" = 0 ] ||
    fail "after the kill: no new service ($new), or a warning: $(cat "$work/after.log")"
echo "ok: a new service replaced the killed one"
echo "ok: every failure of the service costs one warning and the same bytes"
