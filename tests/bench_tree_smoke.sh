#!/usr/bin/env bash
# bench_tree_smoke.sh BUILD_DIR - bench/tree-bench.sh on a small tree (label
# bench-smoke). It asserts no time; it asserts that the script runs its whole
# path and that its checks catch outputs that differ between modes:
#  1. MODULES=6 RUNS=1 COLD_RUNS=1 SEED_MODULES=1, against BUILD_DIR installed
#     into a temporary prefix: the generator, CMake and Ninja over the tree,
#     the cold, no-op, one-entry and shared-include builds, the seed's
#     pipeline and the one module run, every byte-identity check passes, and
#     the goals are printed (exit 0).
#  2. MODULES=2 against a copy of that prefix whose dgpb-build stands in for
#     one with a compile service (--service in its --help, --service-stop
#     accepted) that writes one byte more into each view with
#     DGPB_SERVICE=auto: the script takes the service's rows (SERVICE=off
#     auto) and fails (exit 1), naming the view that differs from the build
#     without the service.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: bench_tree_smoke.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d)
# The benchmark's compile services live in a folder of this test's, stopped at its end (the
# stand-in of part 2 stops none itself).
export DGPB_SERVICE_DIR=$tmp/service
trap '[ ! -d "$tmp/service" ] || "$build/dgpb-build" --service-stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
fail() {
    echo "bench_tree_smoke: FAIL: $*" >&2
    exit 1
}
for tool in cmake ninja python3 node; do
    command -v $tool >/dev/null || fail "$tool is missing: install it (tools/setup.sh installs cmake, ninja-build, python3 and Node.js)"
done
export TMPDIR=$tmp

# 1. The whole path on six modules.
status=0
env -u SERVICE MODULES=6 RUNS=1 COLD_RUNS=1 SEED_MODULES=1 DGPB_BUILD_DIR="$build" \
    "$src/bench/tree-bench.sh" >"$tmp/out.txt" 2>&1 || status=$?
cat "$tmp/out.txt"
[ $status = 0 ] || fail "tree-bench.sh exited with $status"
for want in '^tree: 6 modules .* 12 entries' '^  \(c\)  cold build, ninja -j2, empty cache +[0-9.]+ s' \
    '^  \(n\)  no-op build +[0-9.]+ ms' '^  \(e\)  m003_reduce0 edited \(m003 rebuilt\)' \
    '^  \(i\)  noise.slangh edited \(3 modules rebuilt\)' \
    "^  \(s\)  the seed's pipeline.*EXTRAPOLATED from the first module: 6 of 24 compiles" \
    '^  \(o\)  the same entries in one module +[0-9.]+ s' '^  cold within 1.3x of one module: .*: (met|missed)$' \
    '^  the seed at least 10x slower: .*: (met|missed)$' '^bundles: every cold build'; do
    grep -Eq -- "$want" "$tmp/out.txt" || fail "the report lacks /$want/"
done
echo "bench_tree_smoke: the whole path on 6 modules: ok"

# 2. A stand-in for a compile service whose views differ.
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "cmake --install $build failed"; }
mv "$tmp/prefix/bin/dgpb-build" "$tmp/prefix/bin/dgpb-build.real"
cat >"$tmp/prefix/bin/dgpb-build" <<'STANDIN'
#!/usr/bin/env bash
real=$(dirname "$0")/dgpb-build.real
case " $* " in
*" --help "*)
    "$real" "$@"
    echo "  --service=auto|off     (a stand-in of bench_tree_smoke.sh)"
    exit 0
    ;;
*" --service-stop "*) exit 0 ;;
esac
"$real" "$@" || exit
if [ "${DGPB_SERVICE:-}" = auto ]; then
    out= mod=
    while [ $# -gt 0 ]; do
        case $1 in -o) out=$2 && shift ;; *.slang) mod=$1 ;; esac
        shift
    done
    [ -z "$out" ] || [ -z "$mod" ] || printf ' ' >>"$out/$(basename "$mod" .slang).bundle.json"
fi
STANDIN
chmod +x "$tmp/prefix/bin/dgpb-build"
status=0
env -u SERVICE MODULES=2 RUNS=1 COLD_RUNS=1 SEED_MODULES=1 DGPB_PREFIX="$tmp/prefix" \
    "$src/bench/tree-bench.sh" >"$tmp/out.txt" 2>&1 || status=$?
cat "$tmp/out.txt"
[ $status = 1 ] || fail "with a service whose views differ, tree-bench.sh exited with $status, not 1"
grep -q 'embedded/off: 1 cold build' "$tmp/out.txt" || fail "the rows without the service did not run"
grep -q 'embedded/auto cold build, the service started by it: m000.bundle.json differs from the first cold build' \
    "$tmp/out.txt" || fail "the difference is not named"
echo "bench_tree_smoke: a service whose views differ fails the benchmark: ok"
