# service_lib.sh - sourced by the compile service's tests (tests/service/*.sh):
# a fresh folder, a service folder of the test's own (DGPB_SERVICE_DIR, so
# that no test reaches the user's service), reference builds without the
# service, byte comparisons, bounded waits, and at the end the test's
# services stopped and its fakes ended, whatever happened.
set -u
build=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
export DGPB_SERVICE_DIR="$work/service" DGPB_SERVICE=auto DGPB_NO_CACHE=1
unset DGPB_SERVICE_TIMEOUT_MS DGPB_SERVICE_IDLE_SECONDS DGPB_SERVICE_WORKERS
fakes=()

fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || fail "python3 not found (install python3)"
command -v timeout >/dev/null || fail "timeout not found (install coreutils)"

# The pids of the services this test started: their command lines name its folder.
test_services() {
    local p
    for p in /proc/[0-9]*; do
        { tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -q -- "--service-daemon --dir $work" &&
            echo "${p#/proc/}"
    done
}

cleanup() {
    local p
    chmod 700 "$DGPB_SERVICE_DIR" 2>/dev/null
    DGPB_SERVICE_DIR="$work/service" timeout 20 "$build" --service-stop >/dev/null 2>&1
    for p in "${fakes[@]}"; do kill "$p" 2>/dev/null; done
    for p in $(test_services); do kill -9 "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

# A module of N compute entries (one file, no includes).
module_of() { # module_of N FILE
    {
        echo 'RWStructuredBuffer<float> data;'
        for i in $(seq 1 "$1"); do
            printf '[shader("compute")]\n[numthreads(64, 1, 1)]\nvoid k%d(uint3 id : SV_DispatchThreadID)\n' "$i"
            printf '{\n    data[id.x] = data[id.x] * %d.0 + 1.0;\n}\n' "$i"
        done
    } > "$2"
}

# build_with LOG ARGS...: dgpb-build (bounded: 10 minutes) with standard error in LOG; its status.
build_with() {
    local log=$1
    shift
    timeout 600 "$build" --targets spirv,wgsl "$@" 2> "$log"
}

# reference MODULE OUT: the module built without the service, into OUT.
reference() {
    DGPB_SERVICE=off build_with "$work/ref.log" -q "$1" -o "$2" ||
        fail "the reference build of $1 failed: $(cat "$work/ref.log")"
}

# same OUT REF STEM: the bundle and its view in OUT are byte for byte those in REF.
same() {
    cmp -s "$1/$3.dgpb" "$2/$3.dgpb" || fail "$1/$3.dgpb differs from the build without the service"
    cmp -s "$1/$3.bundle.json" "$2/$3.bundle.json" ||
        fail "$1/$3.bundle.json differs from the build without the service"
}

# The socket of this compiler's service, from --version.
socket_path() {
    "$build" --version | sed -n 's/^compile service: .*socket \(.*\))$/\1/p; s/^compile service: not running (\(.*\))$/\1/p'
}

# The pid of the running service, from --version ("" when none runs).
service_pid() {
    "$build" --version | sed -n 's/^compile service: running (pid \([0-9]*\),.*/\1/p'
}

# warnings LOG: how many warnings about the compile service LOG holds.
warnings() { grep -c "warning: .*compile service" "$1"; }

# children_of PID: the pids of its child processes.
children_of() {
    local parent=$1 p stat
    for p in /proc/[0-9]*; do
        stat=$(cat "$p/stat" 2>/dev/null) || continue
        set -- ${stat##*) } # state ppid ...
        [ "${2:-}" = "$parent" ] && echo "${p#/proc/}"
    done
    return 0
}

# busy_service TRIES: the pid of the service once its workers compile (its children run),
# polled every 0.1 s up to TRIES times; "" when none did.
busy_service() {
    local try pid=
    for try in $(seq 1 "$1"); do
        pid=$(service_pid)
        [ -n "$pid" ] && [ -n "$(children_of "$pid")" ] && break
        pid=
        sleep 0.1
    done
    echo "$pid"
}

# bounded_wait PID SECONDS: waits for a child of this shell to end; false after SECONDS.
bounded_wait() {
    local try
    for try in $(seq 1 $(($2 * 10))); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -9 "$1" 2>/dev/null
    return 1
}

# wait_gone PID: up to 10 s for the process to end.
wait_gone() {
    local try
    for try in $(seq 1 100); do
        kill -0 "$1" 2>/dev/null || return 0
        sleep 0.1
    done
    return 1
}

# fake MODE: starts tests/service/fake_service.py on this compiler's socket, waits until it listens.
fake() {
    local sock
    sock=$(socket_path)
    [ -n "$sock" ] || fail "no socket path from --version"
    mkdir -p "$DGPB_SERVICE_DIR" && chmod 700 "$DGPB_SERVICE_DIR"
    rm -f "$sock"
    python3 "$here/fake_service.py" "$sock" "$1" 2>> "$work/fake.log" &
    fakes+=($!)
    local try
    for try in $(seq 1 100); do
        [ -S "$sock" ] && return 0
        sleep 0.05
    done
    fail "the fake service ($1) did not listen on $sock"
}

# stop_fakes: ends the fakes started so far.
stop_fakes() {
    local p
    for p in "${fakes[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    fakes=()
}
