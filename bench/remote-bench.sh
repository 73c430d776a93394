#!/usr/bin/env bash
# bench/remote-bench.sh - what a shared remote cache (docs/cache.md) saves a
# second machine on bench32.
#
# Generates bench32 (bench/bench-module.sh: COMPUTE, default 32, compute
# shaders plus a render group of four; spirv and wgsl) and, for each store
# (nginx with its WebDAV module, then redis-server, each started on a free
# loopback port in a temporary folder and stopped at the end), times
# dgpb-build -j$(nproc):
#   cold    a build with an empty local cache and no remote (median of RUNS, default 3);
#   fill    a first build with an empty local cache that fills the empty store;
#   second  a second "machine": another checkout of the project in another
#           folder, with an empty local cache, against the filled store, into
#           the same output folder (the whole build comes from the store) and
#           into another one (every single compile comes from the store)
#           (medians of RUNS, each with a new checkout and local cache).
# Every build runs inside its checkout (a folder with .git: the project root,
# docs/cache.md "Paths in keys") with the module named by its absolute path.
# Prints the times and second/cold (goal: under 10 %), and checks that every
# bundle is byte-identical to a --no-cache build.
#
#   bench/remote-bench.sh     RUNS=5 bench/remote-bench.sh     DGPB_BUILD=build-rel/dgpb-build bench/remote-bench.sh
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${DGPB_BUILD:-$root/build/dgpb-build}
COMPUTE=${COMPUTE:-32}
RUNS=${RUNS:-3}
cpus=$(nproc)
[ -x "$build" ] || { echo "remote-bench: $build is missing: run tools/setup.sh first" >&2; exit 1; }
help=$("$build" --help 2>&1 || true)
grep -q -- --cache-remote <<<"$help" ||
    { echo "remote-bench: $build has no remote cache (--cache-remote)" >&2; exit 1; }
for tool in nginx redis-server python3; do
    command -v "$tool" >/dev/null || { echo "remote-bench: $tool is missing" >&2; exit 1; }
done
unset DGPB_NO_CACHE DGPB_CACHE_DIR DGPB_CACHE_MAX_SIZE DGPB_CACHE_REMOTE
unset DGPB_CACHE_REMOTE_READ_ONLY DGPB_CACHE_REMOTE_HEADER DGPB_CACHE_REMOTE_PASSWORD

tmp=$(mktemp -d)
# servers.sh's stores live under SRV; bad_store.py (unused here) under HERE.
export SRV=$tmp/srv HERE=$root/tests/remote
# shellcheck source=../tests/remote/servers.sh
. "$root/tests/remote/servers.sh"
trap 'stop_servers; rm -rf "$tmp"' EXIT
trap 'exit 1' TERM INT HUP

# checkout NAME: a copy of the project in $tmp/NAME/project; sets P to it.
mkdir -p "$tmp/src"
"$root/bench/bench-module.sh" "$COMPUTE" >"$tmp/src/bench.slang"
checkout() {
    P=$tmp/$1/project
    mkdir -p "$P/.git" "$P/shaders"
    cp "$tmp/src/bench.slang" "$P/shaders/bench.slang"
}
opts=(-j"$cpus" --targets spirv,wgsl --no-layouts) # no native libslang here: no layouts to record
read -r -a more <<<"${OPTS:-}"
opts+=("${more[@]}")

calc() { awk "BEGIN { print $1 }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
n=0
# timed OUT [options...]: wall seconds of one build in checkout $P into $P/OUT; its
# standard error in $tmp/last.
timed() {
    local out=$1 t0 t1
    shift
    t0=$EPOCHREALTIME
    (cd "$P" && "$build" "${opts[@]}" "$@" "$P/shaders/bench.slang" -o "$P/$out") 2>"$tmp/last" ||
        { cat "$tmp/last" >&2; exit 1; }
    t1=$EPOCHREALTIME
    ! grep -q "warning: the remote cache" "$tmp/last" ||
        { echo "remote-bench: the remote cache warned:" >&2; cat "$tmp/last" >&2; exit 1; }
    calc "$t1 - $t0"
}
# newcache: C names a new, empty local cache folder.
newcache() { n=$((n + 1)); C=$tmp/cache$n; }
same() {
    local f
    for f in bench.dgpb bench.bundle.json; do
        cmp -s "$P/$1/$f" "$tmp/ref/$f" || { echo "remote-bench: $P/$1/$f differs" >&2; exit 1; }
    done
}

"$build" -q "${opts[@]}" --no-cache "$tmp/src/bench.slang" -o "$tmp/ref"
cold=()
for ((r = 0; r < RUNS; r++)); do
    newcache
    checkout "cold$r"
    cold+=("$(timed out --cache-dir "$C")")
    same out
done
cold_s=$(printf '%s\n' "${cold[@]}" | median)

printf 'module: %d compute shaders + a render group of 4; targets spirv, wgsl (%d compiles)\n' \
    "$COMPUTE" $((2 * (COMPUTE + 4)))
printf 'machine: %s CPUs (%s); %s; load average %s\n' "$cpus" \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
    "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'cold, empty local cache, no remote: %8.3f s  (median of %d)\n' "$cold_s" "$RUNS"

for store in http redis; do
    if [ "$store" = http ]; then
        start_nginx
        url=http://127.0.0.1:$NGINX_PORT
    else
        start_redis
        url=redis://127.0.0.1:$REDIS_PORT
    fi
    newcache
    checkout "$store-first"
    fill=$(timed out --cache-dir "$C" --cache-remote "$url")
    same out
    whole=() single=()
    for ((r = 0; r < RUNS; r++)); do
        newcache
        checkout "$store-second-$r"
        whole+=("$(timed out --cache-dir "$C" --cache-remote "$url")")
        same out
        grep -q '(from the cache)' "$tmp/last" || { echo "remote-bench: not a whole-build hit:" >&2; cat "$tmp/last" >&2; exit 1; }
        newcache
        single+=("$(timed "other$r" --cache-dir "$C" --cache-remote "$url")")
        same "other$r"
        grep -q '; 0 compiles' "$tmp/last" || { echo "remote-bench: compiles ran:" >&2; cat "$tmp/last" >&2; exit 1; }
    done
    w=$(printf '%s\n' "${whole[@]}" | median)
    s=$(printf '%s\n' "${single[@]}" | median)
    printf '%-5s first build, filling the store:  %8.3f s\n' "$store" "$fill"
    printf '%-5s second machine, whole build:     %8.3f s  (median of %d; %.1f %% of cold; goal < 10 %%: %s)\n' \
        "$store" "$w" "$RUNS" "$(calc "100 * $w / $cold_s")" \
        "$(awk "BEGIN { print ($w < 0.1 * $cold_s) ? \"met\" : \"missed\" }")"
    printf '%-5s second machine, every compile:   %8.3f s  (median of %d; %.1f %% of cold; goal < 10 %%: %s)\n' \
        "$store" "$s" "$RUNS" "$(calc "100 * $s / $cold_s")" \
        "$(awk "BEGIN { print ($s < 0.1 * $cold_s) ? \"met\" : \"missed\" }")"
    printf '%-5s %s\n' "$store" "$("$build" --cache-dir "$C" --cache-stats | grep '^remote')"
    stop_servers
done
echo "bundles: every build byte-identical to a --no-cache build"
