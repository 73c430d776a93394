#!/usr/bin/env bash
# bench/build-bench.sh - how fast dgpb-build turns a large module into a bundle.
#
# Generates a module of COMPUTE (default 32) compute shaders plus a render
# group of two vertex and two fragment shaders, in the generator's
# conventions (bench/bench-module.sh), and times, for the targets spirv and wgsl with the same
# (embedded) compiler:
#   (a) the seed's pipeline as a shell script: one slangc process per entry
#       and target, one after the other;
#   (b) dgpb-build -j1;
#   (c) dgpb-build with every CPU (-j$(nproc)).
# Prints wall seconds and the ratios a/b, a/c and b/c. Needs a build (tools/setup.sh).
#
# With a native Slang (NATIVE_SLANGC=/path/to/bin/slangc, or
# $SLANG_ROOT/bin/slangc, else the set-up's deps/slang through the test
# suite's build/tests/slang-root/bin/slangc, a slangc over the library:
# docs/layout.md, "slangc from the library"), it then times the native path,
# every run with layouts (the dgpb-slang-layout next to dgpb-build):
#   (n1) the seed's pipeline with that slangc: one slangc per entry and
#        target, one after the other, then one recorder run per pipeline
#        group and target (its compiles-only part is printed too);
#   (n2) dgpb-build --compiler-processes -j$(nproc);
#   (n3) dgpb-build -j1 on the native worker pool (warm: after an untimed run);
#   (n4) dgpb-build -j$(nproc) on the native worker pool (warm likewise);
#   (n5) with the set-up's Slang: dgpb-build -j$(nproc) with no compiler
#        named, the default a user gets (the library itself);
# checks that n2, n3, n4 (and n5) write byte-identical bundles, and prints the
# ratios against the seed's compiles alone and against (c), the embedded
# compiler's dgpb-build.
#
#   bench/build-bench.sh            COMPUTE=64 bench/build-bench.sh
#   NATIVE_SLANGC=/opt/slang/bin/slangc bench/build-bench.sh
#   NATIVE_ONLY=1 bench/build-bench.sh     (the native runs alone)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${DGPB_BUILD:-$root/build/dgpb-build}
slangc=${SLANGC:-$root/tools/slangc-wasm/slangc-wasm}
COMPUTE=${COMPUTE:-32}
[ -x "$build" ] || { echo "build-bench: $build is missing: run tools/setup.sh first" >&2; exit 1; }
# Every run compiles: the compile cache (bench/cache-bench.sh measures it) stays out.
no_cache=
"$build" --help | grep -q -- --no-cache && no_cache=--no-cache

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
module="$tmp/bench.slang"

"$root/bench/bench-module.sh" "$COMPUTE" >"$module"

now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }

entries=()
for ((i = 0; i < COMPUTE; i++)); do entries+=("k$i:compute:DREAM_SHADER_k$i"); done
entries+=("va:vertex:DREAM_SHADERS_RENDER" "vb:vertex:DREAM_SHADERS_RENDER"
          "fa:fragment:DREAM_SHADERS_RENDER" "fb:fragment:DREAM_SHADERS_RENDER")
compiles=$((2 * ${#entries[@]}))

# The seed's sequential pipeline: one compiler process per entry and target.
seq_compiles() { # slangc outdir
    mkdir -p "$2"
    for target in spirv wgsl; do
        macro=DREAM_TARGET_$(echo "$target" | tr a-z A-Z)
        for e in "${entries[@]}"; do
            IFS=: read -r name stage group <<<"$e"
            "$1" "$module" -D"$group" -D"$macro" -matrix-layout-row-major -target "$target" \
                -entry "$name" -stage "$stage" -o "$2/$name.$target" \
                -reflection-json "$2/$name.$target.json"
        done
    done
}

# ... and one layout recorder run per pipeline group and target.
seq_layouts() { # slangc outdir
    local recorder
    recorder="$(dirname "$build")/dgpb-slang-layout"
    for target in spirv wgsl; do
        macro=DREAM_TARGET_$(echo "$target" | tr a-z A-Z)
        for ((i = 0; i < COMPUTE; i++)); do
            "$recorder" --slangc "$1" "$module" -DDREAM_SHADER_k$i -D"$macro" \
                -matrix-layout-row-major -target "$target" -entry "k$i" -stage compute \
                -o "$2/k$i.$target.layout"
        done
        "$recorder" --slangc "$1" "$module" -DDREAM_SHADERS_RENDER -D"$macro" \
            -matrix-layout-row-major -target "$target" -entry va -stage vertex -entry vb \
            -stage vertex -entry fa -stage fragment -entry fb -stage fragment \
            -o "$2/render.$target.layout"
    done
}

run_build() { # jobs outdir [options...]
    local t0 t1 jobs=$1 out=$2
    shift 2
    t0=$(now)
    "$build" -q -j"$jobs" --targets spirv,wgsl $no_cache "$@" "$module" -o "$out"
    t1=$(now)
    calc "$t1 - $t0"
}
cpus=$(nproc)
jn_s=
# (a) the sequential pipeline with the embedded compiler (NATIVE_ONLY=1: the native runs only).
if [ -z "${NATIVE_ONLY:-}" ]; then
t0=$(now)
seq_compiles "$slangc" "$tmp/seq"
t1=$(now)
seq_s=$(calc "$t1 - $t0")

# (b) and (c): dgpb-build, one worker and every CPU.
j1_s=$(run_build 1 "$tmp/out1" --slangc "$slangc")
jn_s=$(run_build "$cpus" "$tmp/out$cpus" --slangc "$slangc")
cmp -s "$tmp/out1/bench.dgpb" "$tmp/out$cpus/bench.dgpb" || { echo "build-bench: -j1 and -j$cpus bundles differ" >&2; exit 1; }

printf 'module: %d compute shaders + a render group of 4; targets spirv, wgsl (%d compiles)\n' "$COMPUTE" "$compiles"
printf 'compiler: %s\n' "$("$build" --slangc "$slangc" --version | grep '^slang ')"
printf '(a) sequential slangc per entry and target: %8.2f s\n' "$seq_s"
printf '(b) dgpb-build -j1:                         %8.2f s\n' "$j1_s"
printf '(c) dgpb-build -j%-3d                        %8.2f s\n' "$cpus" "$jn_s"
printf 'ratios: a/b %.1fx, a/c %.1fx, b/c %.2fx\n' "$(calc "$seq_s / $j1_s")" \
    "$(calc "$seq_s / $jn_s")" "$(calc "$j1_s / $jn_s")"
printf 'bundle: %s bytes\n' "$(stat -c %s "$tmp/out1/bench.dgpb")"
fi

native=${NATIVE_SLANGC:-}
[ -n "$native" ] || [ -z "${SLANG_ROOT:-}" ] || native=$SLANG_ROOT/bin/slangc
setup_slangc=$(dirname "$build")/tests/slang-root/bin/slangc
setup=no
if [ -z "$native" ] && [ -x "$setup_slangc" ] && [ -e "$root/deps/slang/lib/libslang.so" ]; then
    native=$setup_slangc
    setup=yes
fi
[ -n "$native" ] || exit 0
[ -x "$native" ] || { echo "build-bench: native slangc '$native' is not executable" >&2; exit 1; }

t0=$(now)
seq_compiles "$native" "$tmp/nseq"
t1=$(now)
seq_layouts "$native" "$tmp/nseq"
t2=$(now)
nseq_c=$(calc "$t1 - $t0")
nseq_s=$(calc "$t2 - $t0")
np_s=$(run_build "$cpus" "$tmp/np" --slangc "$native" --compiler-processes)
# n3 and n4 on warm workers, as a build system's later builds find them (the compile
# service's: docs/service.md): an untimed run first starts as many as the timed one uses.
run_build 1 "$tmp/warm" --slangc "$native" >/dev/null
n1_s=$(run_build 1 "$tmp/n1" --slangc "$native")
run_build "$cpus" "$tmp/warm" --slangc "$native" >/dev/null
nn_s=$(run_build "$cpus" "$tmp/nn" --slangc "$native")
others=(np n1)
if [ $setup = yes ]; then
    t0=$(now)
    env -u DGPB_SLANGC -u SLANG_ROOT -u VULKAN_SDK DGPB_IGNORE_SETUP_SLANG=0 \
        "$build" -q -j"$cpus" --targets spirv,wgsl $no_cache "$module" -o "$tmp/nd"
    t1=$(now)
    nd_s=$(calc "$t1 - $t0")
    others+=(nd)
fi
for d in "${others[@]}"; do
    cmp -s "$tmp/$d/bench.dgpb" "$tmp/nn/bench.dgpb" ||
        { echo "build-bench: native bundles differ ($d and -j$cpus workers)" >&2; exit 1; }
done

echo
printf 'native: %s\n' "$("$build" --slangc "$native" --version | grep -E '^(slang|compiles)')"
printf '(n1) seed pipeline, native slangc, sequential:   %8.2f s (compiles alone %.2f s)\n' "$nseq_s" "$nseq_c"
printf '(n2) dgpb-build -j%-3d --compiler-processes:     %8.2f s\n' "$cpus" "$np_s"
printf '(n3) dgpb-build -j1, native workers:             %8.2f s\n' "$n1_s"
printf '(n4) dgpb-build -j%-3d native workers:            %8.2f s\n' "$cpus" "$nn_s"
printf 'ratios: n1/n4 %.1fx, seed compiles alone/n4 %.1fx, n2/n4 %.1fx\n' \
    "$(calc "$nseq_s / $nn_s")" "$(calc "$nseq_c / $nn_s")" "$(calc "$np_s / $nn_s")"
[ -z "$jn_s" ] || printf 'the embedded compiler against the native workers: (c)/n4 %.2fx\n' \
    "$(calc "$jn_s / $nn_s")"
if [ $setup = yes ]; then
    printf '(n5) dgpb-build -j%-3d the default (set-up):    %8.2f s\n' "$cpus" "$nd_s"
    [ -z "$jn_s" ] ||
        printf 'the default against the embedded compiler: (c)/n5 %.2fx\n' "$(calc "$jn_s / $nd_s")"
fi
printf 'native bundle: %s bytes, with layouts (n2, n3, n4%s byte-identical)\n' \
    "$(stat -c %s "$tmp/nn/bench.dgpb")" "$([ $setup = yes ] && echo ', n5')"
