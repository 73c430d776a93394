#!/usr/bin/env bash
# bench/slow-store-bench.sh - what a slow remote store costs a build (docs/cache.md, "Remote
# stores": the uploads' budget).
#
# Starts tests/remote/bad_store.py in its slow-put mode (GET and HEAD find nothing at once;
# every PUT answered after 1.9 s, inside every limit of one request) on a free loopback port,
# then, for each size in SIZES (default "10 100": bench/bench-module.sh modules of that many
# entries, spirv and wgsl), times dgpb-build with an empty local cache: without a remote
# store, then against the slow store. Prints the seconds of each, the uploads the store
# received and the warning the build printed; checks that both bundles are byte-identical.
#
#   bench/slow-store-bench.sh     SIZES=10 DGPB_BUILD=/other/build/dgpb-build bench/slow-store-bench.sh
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${DGPB_BUILD:-$root/build/dgpb-build}
SIZES=${SIZES:-10 100}
work=$(mktemp -d)
pid=
cleanup() {
    [ -z "$pid" ] || kill "$pid" 2>/dev/null || true
    [ -z "$pid" ] || wait "$pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap "exit 1" TERM INT HUP
command -v python3 >/dev/null || { echo "python3 is missing (Debian: python3)" >&2; exit 1; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$root/tests/remote/bad_store.py" "$port" slow-put "$work" "$work/requests.log" \
    >"$work/server.log" 2>&1 &
pid=$!
for ((i = 0; i < 100; i++)); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
    sleep 0.1
done
export DGPB_SERVICE=off
unset DGPB_CACHE_REMOTE DGPB_CACHE_REMOTE_KEY_FILE DGPB_NO_CACHE
seconds() { awk "BEGIN { printf \"%.1f\", $2 - $1 }"; }
printf '%-8s %-8s %10s %10s %8s  %s\n' entries compute local_s slow_s uploads warning
for n in $SIZES; do
    compute=$((n - 4)) # bench-module.sh adds a render group of four entries
    [ "$compute" -ge 1 ] || compute=1
    "$root/bench/bench-module.sh" "$compute" >"$work/m$n.slang"
    t0=$EPOCHREALTIME
    "$build" --targets spirv,wgsl --no-layouts --cache-dir "$work/local-$n" -o "$work/local-out-$n" \
        "$work/m$n.slang" >/dev/null 2>&1
    t1=$EPOCHREALTIME
    : >"$work/requests.log"
    "$build" --targets spirv,wgsl --no-layouts --cache-dir "$work/slow-$n" \
        --cache-remote "http://127.0.0.1:$port" -o "$work/slow-out-$n" "$work/m$n.slang" \
        >"$work/slow-$n.err" 2>&1
    t2=$EPOCHREALTIME
    cmp -s "$work/local-out-$n/m$n.dgpb" "$work/slow-out-$n/m$n.dgpb" ||
        { echo "the bundles of $n entries differ" >&2; exit 1; }
    puts=$(grep -c '^PUT ' "$work/requests.log" || true)
    warning=$(grep -o 'took more than.*not uploaded' "$work/slow-$n.err" || echo "-")
    printf '%-8s %-8s %10s %10s %8s  %s\n' "$n" "$compute" "$(seconds "$t0" "$t1")" \
        "$(seconds "$t1" "$t2")" "$puts" "$warning"
done
