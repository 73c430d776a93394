#!/usr/bin/env bash
# service_leftovers.sh DGPB-BUILD FIXTURES - the workers' folders a killed
# service leaves are removed, and a live service's are kept. Each service
# holds the lock file owner.lock in its dgpb-workers-XXXXXX folder for its
# lifetime; --service-stop, and a service that starts, remove every such
# folder of the service folder whose lock no process holds, never following
# a symbolic link (docs/service.md, "Folder and security").
source "$(dirname "$0")/service_lib.sh"
fixtures=$2
cp "$fixtures/plain.slang" "$work/plain.slang"
dir=$DGPB_SERVICE_DIR

# workers_of PID: the workers' folder the service PID made (the one not there before it).
seen=" "
workers_of() {
    local f
    for f in "$dir"/dgpb-workers-*; do
        [ -d "$f" ] && [ ! -L "$f" ] || continue
        case "$seen" in *" $f "*) continue ;; esac
        echo "$f"
    done
    return 0
}

# started LOG: a build through a new service; the service's pid.
started() {
    build_with "$work/$1.log" -q "$work/plain.slang" -o "$work/$1" || fail "$1: $(cat "$work/$1.log")"
    pid=$(service_pid)
    [ -n "$pid" ] || fail "no service after the build $1"
}

# A service killed with SIGKILL leaves its workers' folder.
started first
killed=$(workers_of "$pid")
[ -n "$killed" ] || fail "no workers' folder made by the service $pid: $(ls -la "$dir")"
seen="$seen$killed "
kill -9 "$pid"
wait_gone "$pid" || fail "the service $pid did not end after SIGKILL"
[ -d "$killed" ] || fail "the killed service's folder went by itself"
echo "ok: a killed service leaves $(basename "$killed")"

# A folder whose lock a live process holds, and a symbolic link named like a workers' folder.
mkdir -m 700 "$dir/dgpb-workers-live" "$work/target"
touch "$dir/dgpb-workers-live/owner.lock" "$work/target/keep"
ln -s "$work/target" "$dir/dgpb-workers-link"
seen="$seen$dir/dgpb-workers-live "
(exec 9> "$dir/dgpb-workers-live/owner.lock" && flock -x 9 && exec sleep 120) &
holder=$! # the sleep itself, holding the lock
fakes+=($holder)
for try in $(seq 1 50); do
    flock -n -x "$dir/dgpb-workers-live/owner.lock" true || break
    sleep 0.1
done

# --service-stop removes the killed service's folder, and only that.
"$build" --service-stop > "$work/stop.log" 2>&1 || fail "--service-stop: $(cat "$work/stop.log")"
[ ! -e "$killed" ] || fail "--service-stop left the killed service's folder $killed: $(ls -la "$killed")"
[ -d "$dir/dgpb-workers-live" ] || fail "--service-stop removed a folder whose owner lives"
[ -L "$dir/dgpb-workers-link" ] && [ -f "$work/target/keep" ] ||
    fail "--service-stop removed a symbolic link or what it points to"
echo "ok: --service-stop removes the killed service's folder and keeps a live one's"

# A starting service removes a killed one's folder and keeps its own.
started second
killed=$(workers_of "$pid")
[ -n "$killed" ] || fail "no workers' folder made by the service $pid"
seen="$seen$killed "
kill -9 "$pid"
wait_gone "$pid" || fail "the service $pid did not end after SIGKILL"
started third
own=$(workers_of "$pid")
[ -n "$own" ] && [ -d "$own" ] || fail "the live service $pid has no workers' folder"
[ ! -e "$killed" ] || fail "the starting service left the killed service's folder $killed"
"$build" --service-stop > "$work/stop.log" 2>&1 || fail "--service-stop: $(cat "$work/stop.log")"
wait_gone "$pid" || fail "the service $pid did not stop"
[ ! -e "$own" ] || fail "the stopped service left its folder $own"
[ -d "$dir/dgpb-workers-live" ] || fail "a folder whose owner lives was removed"
echo "ok: a starting service removes a killed one's folder and keeps its own"
