#!/usr/bin/env bash
# bench/cache-bench.sh - what the compile cache (docs/cache.md) saves on bench32.
#
# Generates the module of bench/build-bench.sh (bench/bench-module.sh: COMPUTE,
# default 32, compute shaders plus a render group of four; spirv and wgsl, 72
# compiles) and times dgpb-build -j$(nproc) on it:
#   (w1) a cold build into an empty cache folder (median of COLD_RUNS, default 5,
#        each with a new folder);
#   (w2) a warm rebuild of the unchanged module (median of RUNS, default 9);
#        the goal is under 50 ms;
#   (w3) a rebuild after editing one entry's body (k$EDIT, default k5), each run
#        from a copy of the cache that w1 filled (median of RUNS); the goal is
#        that only that entry's compiles run (and the two discovery compiles,
#        which see the whole module): the compiles and layout recordings that
#        ran (-v), the cache's counters (--cache-stats) and the summary line's
#        count are printed;
#   (w4) a --no-cache build, for reference (median of COLD_RUNS).
# Then checks that the bundles and JSON views that w1, w2 and w3 wrote through
# the cache are byte-identical to --no-cache builds of the same module.
#
#   bench/cache-bench.sh       RUNS=21 bench/cache-bench.sh       OPTS=--no-layouts bench/cache-bench.sh
#   DGPB_BUILD=build-rel/dgpb-build SLANGC=/opt/slang/bin/slangc bench/cache-bench.sh
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${DGPB_BUILD:-$root/build/dgpb-build}
COMPUTE=${COMPUTE:-32}
RUNS=${RUNS:-9}
COLD_RUNS=${COLD_RUNS:-5}
EDIT=${EDIT:-5}
cpus=$(nproc)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
[ -x "$build" ] || { echo "cache-bench: $build is missing: run tools/setup.sh first" >&2; exit 1; }
"$build" --help | grep -q -- --cache-dir ||
    { echo "cache-bench: $build has no compile cache (--cache-dir)" >&2; exit 1; }
((EDIT < COMPUTE)) || { echo "cache-bench: EDIT=$EDIT needs COMPUTE > $EDIT" >&2; exit 1; }
# Only the options below decide where the cache is and whether it is used.
unset DGPB_NO_CACHE DGPB_CACHE_DIR DGPB_CACHE_MAX_SIZE

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The module is built from one path, as in a project: the edit happens in place.
module=$tmp/src/bench.slang
mkdir -p "$tmp/src"
"$root/bench/bench-module.sh" "$COMPUTE" >"$tmp/original.slang"
# One entry's body changes; no other entry's text does.
sed "s/+ float($EDIT);/+ float($EDIT) * 2.0;/" "$tmp/original.slang" >"$tmp/edited.slang"
[ "$(diff "$tmp/original.slang" "$tmp/edited.slang" | grep -c '^>')" = 1 ] ||
    { echo "cache-bench: editing k$EDIT did not change one line" >&2; exit 1; }
original() { cp "$tmp/original.slang" "$module"; }
edited() { cp "$tmp/edited.slang" "$module"; }

opts=(-j"$cpus" --targets spirv,wgsl)
[ -z "${SLANGC:-}" ] || opts+=(--slangc "$SLANGC")
# More options for every build (OPTS=--no-layouts), split on white space.
read -r -a more <<<"${OPTS:-}"
opts+=("${more[@]}")

calc() { awk "BEGIN { print $1 }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# "lo..hi" of the values on standard input, times a scale (1: seconds, 1000: ms), as %.*f.
minmax() { sort -g | awk -v k="$1" -v d="$2" 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.*f..%.*f", d, lo * k, d, hi * k }'; }

# Wall seconds of one quiet build of the module: out-dir options...
timed() {
    local out=$1 t0 t1
    shift
    t0=$EPOCHREALTIME
    "$build" -q "${opts[@]}" "$@" "$module" -o "$out"
    t1=$EPOCHREALTIME
    calc "$t1 - $t0"
}

# The cache's compile counters (--cache-stats' "compiles: H hits, M misses"): cache-dir.
counters() { "$build" --cache-dir "$1" --cache-stats | sed -n 's/^compiles: \([0-9]*\) hits, \([0-9]*\) misses.*/\1 \2/p'; }
# The compiles in a build's summary line ("...; 74 compiles in 1.23 s", "0 compiles (from ...").
summary_compiles() { sed -n 's/.*; \([0-9]*\) compiles.*/\1/p' | tail -n 1; }

# (w4) --no-cache, the reference, and its bundles (the edited module's too).
w4=()
edited
"$build" -q "${opts[@]}" --no-cache "$module" -o "$tmp/w4e"
original
for ((r = 0; r < COLD_RUNS; r++)); do w4+=("$(timed "$tmp/w4" --no-cache)"); done

# The cached builds all write into one folder, as a project's do (the output
# folder is part of what a build is cached under); each phase's output is kept.
out=$tmp/out

# (w1) cold: a new, empty cache folder each run.
w1=()
for ((r = 0; r < COLD_RUNS; r++)); do w1+=("$(timed "$out" --cache-dir "$tmp/cold$r")"); done
cp -a "$out" "$tmp/w1"
cache=$tmp/cold0
cp -a "$cache" "$tmp/warm"

# (w2) warm: the unchanged module again.
w2=()
for ((r = 0; r < RUNS; r++)); do w2+=("$(timed "$out" --cache-dir "$cache")"); done
cp -a "$out" "$tmp/w2"
w2_compiles=$("$build" "${opts[@]}" --cache-dir "$cache" "$module" -o "$out" 2>&1 |
    summary_compiles)

# (w3) one entry edited in place: each run starts from a copy of the cache w1 filled.
w3=()
for ((r = 0; r < RUNS; r++)); do
    rm -rf "$tmp/w3cache"
    cp -a "$tmp/warm" "$tmp/w3cache"
    edited
    w3+=("$(timed "$out" --cache-dir "$tmp/w3cache")")
    original
done
cp -a "$out" "$tmp/w3"
# ... and once more, not timed, counting what ran.
rm -rf "$tmp/w3cache"
cp -a "$tmp/warm" "$tmp/w3cache"
read -r hit0 miss0 <<<"$(counters "$tmp/w3cache")"
edited
"$build" -v "${opts[@]}" --cache-dir "$tmp/w3cache" "$module" -o "$out" >"$tmp/w3.log" 2>&1
w3_compiles=$(summary_compiles <"$tmp/w3.log")
# -v notes each compile that runs (its command line) and each layout recording.
w3_ran=$(grep -c -- ' -matrix-layout-row-major ' "$tmp/w3.log" || true)
w3_layouts=$(grep -c 'note: recording the layout of ' "$tmp/w3.log" || true)
w3_what=$(grep -- ' -matrix-layout-row-major ' "$tmp/w3.log" |
    awk '{ print match($0, / -entry [^ ]+/) ? substr($0, RSTART + 8, RLENGTH - 8) : "discovery" }' |
    sort | uniq -c |
    awk '{ printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1 }')
cp -a "$out" "$tmp/w3n"
original
read -r hit1 miss1 <<<"$(counters "$tmp/w3cache")"

# Byte-identical through the cache.
same() { cmp -s "$1" "$2" || { echo "cache-bench: $1 and $2 differ" >&2; exit 1; }; }
for f in bench.dgpb bench.bundle.json; do
    same "$tmp/w1/$f" "$tmp/w4/$f"
    same "$tmp/w2/$f" "$tmp/w4/$f"
    same "$tmp/w3/$f" "$tmp/w4e/$f"
    same "$tmp/w3n/$f" "$tmp/w4e/$f"
done

w1_s=$(printf '%s\n' "${w1[@]}" | median)
w2_s=$(printf '%s\n' "${w2[@]}" | median)
w3_s=$(printf '%s\n' "${w3[@]}" | median)
w4_s=$(printf '%s\n' "${w4[@]}" | median)
entries=$((COMPUTE + 4))
printf 'module: %d compute shaders + a render group of 4; targets spirv, wgsl (%d compiles)\n' \
    "$COMPUTE" $((2 * entries))
printf 'machine: %s CPUs (%s), %s memory; %s; load average %s at the start, %s at the end\n' \
    "$cpus" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
    "$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)" \
    "$(date -u '+%Y-%m-%d %H:%M UTC')" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'compiler: %s\n' "$("$build" "${opts[@]}" --version 2>/dev/null | grep -E '^slang ' || true)"
printf '(w1) cold, empty cache:            %8.3f s   (median of %d: %s)\n' "$w1_s" "$COLD_RUNS" \
    "$(printf '%s\n' "${w1[@]}" | minmax 1 2) s"
printf '(w2) warm, unchanged module:       %8.1f ms  (median of %d: %s ms; goal < 50 ms: %s)\n' \
    "$(calc "$w2_s * 1000")" "$RUNS" "$(printf '%s\n' "${w2[@]}" | minmax 1000 1)" \
    "$(awk "BEGIN { print ($w2_s < 0.05) ? \"met\" : \"missed\" }")"
printf '(w3) k%d edited, warm cache:        %8.3f s   (median of %d: %s)\n' "$EDIT" "$w3_s" "$RUNS" \
    "$(printf '%s\n' "${w3[@]}" | minmax 1 2) s"
printf '     compiles run: %s of %d (%s; goal: k%d for spirv and wgsl, and the discovery compiles)\n' \
    "$w3_ran" $((2 + 2 * entries)) "$w3_what" "$EDIT"
printf '     layout recordings run: %s; cache counters: %s misses, %s hits (compiles and layouts)\n' \
    "$w3_layouts" "$((${miss1:-0} - ${miss0:-0}))" "$((${hit1:-0} - ${hit0:-0}))"
printf '     summary lines: %s compiles (layouts included); w2'"'"'s: %s\n' "${w3_compiles:-?}" \
    "${w2_compiles:-?}"
printf '(w4) --no-cache:                   %8.3f s   (median of %d: %s)\n' "$w4_s" "$COLD_RUNS" \
    "$(printf '%s\n' "${w4[@]}" | minmax 1 2) s"
printf 'ratios: w4/w2 %.0fx, w4/w3 %.1fx, w1/w4 %.2f\n' "$(calc "$w4_s / $w2_s")" \
    "$(calc "$w4_s / $w3_s")" "$(calc "$w1_s / $w4_s")"
printf 'bundles: w1, w2, w3 byte-identical to --no-cache builds (%s bytes)\n' \
    "$(stat -c %s "$tmp/w4/bench.dgpb")"
printf 'cache after w1 and w2: %s\n' "$("$build" --cache-dir "$cache" --cache-stats | sed 1d | tr '\n' ';' | sed 's/;$//; s/;/; /g')"
