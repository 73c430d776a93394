#!/usr/bin/env bash
# bench/edit-bench.sh - what an edit costs (docs/cache.md, "What an entry depends
# on"), with the default (native) compiler, the compile service and the cache on.
#
# Two modules, each built once into a cache, then edited one way at a time; each
# edited build runs from a copy of that warm cache and the module as it was, and
# is timed (wall, median of RUNS, default 7) with its compile count:
#   plain32  bench/plain-module.sh: 32 compute entries sharing a helper, no
#            guards: one entry's body, the shared helper, a comment in the
#            shared text, a -D value changed;
#   bench32  bench/bench-module.sh's module (generator conventions): one entry's
#            body (k5), a comment added to the shared text.
# Prints one line per edit: milliseconds, compiles; then the median run's phases
# (dgpb-build --timings: where its time went).
#
#   bench/edit-bench.sh        RUNS=15 bench/edit-bench.sh
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${DGPB_BUILD:-$root/build/dgpb-build}
RUNS=${RUNS:-7}
[ -x "$build" ] || { echo "edit-bench: $build is missing: run tools/setup.sh first" >&2; exit 1; }
unset DGPB_NO_CACHE DGPB_CACHE_DIR
tmp=$(mktemp -d)
trap '"$build" --service-stop >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
export DGPB_CACHE_DIR=$tmp/cache

# measure LABEL MODULE SED_EDIT [OPTIONS...]: the edited build from the warm cache.
measure() {
    local label=$1 module=$2 edit=$3
    shift 3
    local times=() compiles= phases=()
    for ((r = 0; r < RUNS; r++)); do
        rm -rf "$tmp/cache" "$tmp/work"
        cp -a "$tmp/warm-cache" "$tmp/cache"
        mkdir -p "$tmp/work"
        cp "$tmp/$module.slang" "$tmp/work/$module.slang"
        [ -z "$edit" ] || sed -i "$edit" "$tmp/work/$module.slang"
        local t0 t1 out
        t0=$(date +%s%N)
        out=$("$build" --timings --targets spirv,wgsl "$@" "$tmp/work/$module.slang" -o "$tmp/out" 2>&1)
        t1=$(date +%s%N)
        times+=($(((t1 - t0) / 1000000)))
        compiles=$(sed -n 's/.*; \([0-9]*\) compiles.*/\1/p' <<<"$out")
        phases+=("$(sed -n 's/.*timings of [^:]*: \([^;]*\);.*/\1/p' <<<"$out")")
    done
    local median at
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$((RUNS / 2 + 1))p")
    for ((at = 0; at < RUNS; at++)); do [ "${times[at]}" != "$median" ] || break; done
    printf '%-44s %6d ms  %3s compiles  (runs: %s)\n' "$label" "$median" "$compiles" "${times[*]}"
    printf '    the median run: %s\n' "${phases[at]}"
}

# warm MODULE [OPTIONS...]: the cache every measurement of MODULE starts from.
warm() {
    local module=$1
    shift
    rm -rf "$tmp/cache" "$tmp/work"
    mkdir -p "$tmp/work"
    cp "$tmp/$module.slang" "$tmp/work/$module.slang" # where the measured builds read it
    "$build" -q --targets spirv,wgsl "$@" "$tmp/work/$module.slang" -o "$tmp/out"
    rm -rf "$tmp/warm-cache"
    cp -a "$tmp/cache" "$tmp/warm-cache"
}

"$root/bench/plain-module.sh" 32 >"$tmp/plain32.slang"
"$root/bench/bench-module.sh" 32 >"$tmp/bench32.slang"
echo "edit-bench: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $("$build" --version | head -n 1)"
warm plain32 -DSCALE=1.0
measure "plain32, nothing edited" plain32 "" -DSCALE=1.0
measure "plain32, one entry's body" plain32 's/= helper(own7(/= 2.0 * helper(own7(/' -DSCALE=1.0
measure "plain32, a comment in the shared text" plain32 '1a // a comment' -DSCALE=1.0
measure "plain32, the shared helper" plain32 's/+ params.bias/- params.bias/' -DSCALE=1.0
measure "plain32, a -D value" plain32 "" -DSCALE=2.0
warm bench32
measure "bench32, one entry's body (k5)" bench32 's/+ float(5);/+ float(5) * 2.0;/'
measure "bench32, a comment in the shared text" bench32 '1a // a comment'
