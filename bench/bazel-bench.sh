#!/usr/bin/env bash
# bench/bazel-bench.sh - the example workspace examples/bazel (four bundles,
# spirv and wgsl) through the dgpb_bundle rule (docs/bazel.md) with Debian's
# Bazel, offline, as the test runs it (tests/bazel/bazel_test.sh). Installs
# BUILD_DIR (default build/) into a prefix under WORK (default a temporary
# folder) and times, each once, in seconds of wall time:
#   (b1) a Bazel server's start (bazel info: once per output base);
#   (b2) a cold build on persistent workers (the repository fetched, the
#        package analysed, four actions), with an empty --disk_cache;
#   (b3) the same build again: no action;
#   (b4) one import edited (include/palette.slang): one action, on the warm worker;
#   (b5) another copy of the workspace with another output base: every action
#        from the disk cache (its server started before);
#   (b6) a cold build and (b7) the same edit as sandboxed processes
#        (--strategy=DgpbBundle=sandboxed: a compiler started per action);
#   (b8) the four dgpb-build runs by hand, one after another, and (b9) one
#        dgpb-build run of the four modules, for reference.
# Prints Bazel's count of processes after each build.
#
#   bench/bazel-bench.sh        bench/bazel-bench.sh build-release
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
command -v bazel >/dev/null || { echo "bazel-bench: bazel is missing: apt-get install bazel-bootstrap" >&2; exit 1; }
startup=()
[ ! -r /etc/bazel/bazelrc ] ||
    read -r -a startup <<<"$(sed -n 's/^startup  *//p' /etc/bazel/bazelrc | tr '\n' ' ')"
export HOME=$work/home
mkdir -p "$HOME"
roots=()
bz() { # WORKSPACE ROOT COMMAND [ARG...]
    local ws=$1 r=$2
    shift 2
    roots+=("$ws:$r")
    (cd "$work/$ws" && bazel --nosystem_rc --nohome_rc "${startup[@]}" --output_user_root="$work/$r" \
        --max_idle_secs=300 "$@")
}
cleanup() {
    local r
    for r in "${roots[@]}"; do bz "${r%%:*}" "${r#*:}" shutdown >/dev/null 2>&1 || true; done
}
trap cleanup EXIT
# timed LABEL COMMAND...: the seconds it took and Bazel's process count.
timed() {
    local label=$1 t0=$EPOCHREALTIME
    shift
    "$@" >"$work/last.out" 2>&1 || { cat "$work/last.out" >&2; exit 1; }
    printf '%-64s %6.2f s  %s\n' "$label" "$(awk "BEGIN { print $EPOCHREALTIME - $t0 }")" \
        "$(grep -Eo '[0-9]+ process.*' "$work/last.out" | tail -n 1)"
}

cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
for ws in ws1 ws2 ws3; do
    rm -rf "${work:?}/$ws"
    cp -r "$root/examples/bazel" "$work/$ws"
    echo "build --override_repository=dgpb_rules=$work/prefix/share/dgpb/bazel" >>"$work/$ws/.bazelrc"
done
version=$(dpkg-query -W -f='${Version}' bazel-bootstrap 2>/dev/null || bazel --version)
echo "bazel-bench: Bazel $version, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
disk=(--disk_cache="$work/disk")
edit() { sed -i 's/0\.5);/0.25);/' "$work/$1/shaders/include/palette.slang"; }
timed "(b1) server start" bz ws1 r1 info release
timed "(b2) cold, persistent workers" bz ws1 r1 build "${disk[@]}" //shaders:bundles
timed "(b3) nothing changed" bz ws1 r1 build "${disk[@]}" //shaders:bundles
edit ws1
timed "(b4) one import edited, warm worker" bz ws1 r1 build "${disk[@]}" //shaders:bundles
bz ws2 r2 info release >/dev/null 2>&1
timed "(b5) another output base, from the disk cache" bz ws2 r2 build "${disk[@]}" //shaders:bundles
bz ws3 r3 info release >/dev/null 2>&1
timed "(b6) cold, sandboxed processes" bz ws3 r3 build --strategy=DgpbBundle=sandboxed //shaders:bundles
edit ws3
timed "(b7) one import edited, sandboxed process" bz ws3 r3 build --strategy=DgpbBundle=sandboxed //shaders:bundles
by_hand() {
    local p=$work/prefix/bin/dgpb-build c=(-q --no-cache --targets "spirv,wgsl" -o "$work/plain")
    cd "$root/examples/bazel/shaders"
    "$p" "${c[@]}" -D RADIUS=2 -I include blur.slang
    "$p" "${c[@]}" -I include sharpen.slang
    "$p" "${c[@]}" -I include tint.slang
    "$p" "${c[@]}" --module-path fx.particles particles.slang
}
one_run() {
    cd "$root/examples/bazel/shaders"
    "$work/prefix/bin/dgpb-build" -q --no-cache --targets spirv,wgsl -D RADIUS=2 -I include \
        -o "$work/plain4" blur.slang sharpen.slang tint.slang particles.slang
}
timed "(b8) the four dgpb-build runs by hand" by_hand
timed "(b9) one dgpb-build run of the four modules" one_run
