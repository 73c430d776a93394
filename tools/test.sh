#!/usr/bin/env bash
# tools/test.sh - builds dgpb and runs the whole test suite twice: a normal
# build, then one under AddressSanitizer + UndefinedBehaviorSanitizer. In
# between, a Release build (-O3, the way a user builds dgpb) is installed into
# a temporary prefix and used from there: the installed programs, pkg-config
# and the example project examples/embed (tests/install/install_test.sh).
#
#   tools/test.sh                 all three builds (what CI runs)
#   tools/test.sh --quick         the normal build only
#   tools/test.sh --timings       also the 30 slowest tests of each pass
#
# Each test runs in the pass its subject needs (docs/testing.md, "Which pass
# covers what"): the tests of the cache, the remote stores, the compile
# service and the C's signals, atomic writes and fault loops (label
# sanitize-only) test the C's behaviour under damage, concurrency and failing
# peers, and run under the sanitizers only; `ctest -L sanitize-only` in build/
# runs them without.
#
# Every phase's wall time is printed at the end. The normal suite's summed test
# time is checked against tests/suite-time.txt: more than 20 % over it fails,
# naming the tests that grew (tools/test-timings.py; docs/testing.md, "Where
# the time goes"). Exits non-zero when any test fails. Run tools/setup.sh
# first on a new machine.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
quick=no timings=no
for arg in "$@"; do
    case $arg in
    --quick) quick=yes ;;
    --timings) timings=yes ;;
    *) echo "test.sh: unknown option '$arg' (usage: tools/test.sh [--quick] [--timings])" >&2; exit 2 ;;
    esac
done
phases=()
phase_start=$(date +%s)
phase_done() { # name
    local now
    now=$(date +%s)
    phases+=("$(printf '%-44s %5d s' "$1" $((now - phase_start)))")
    phase_start=$now
}
print_phases() {
    echo "== phases (wall time)"
    printf '   %s\n' "${phases[@]}"
}
trap print_phases EXIT

run_suite() { # build-dir label ctest-args -- cmake-args...
    local dir=$1 label=$2 ctest_args=$3; shift 4
    echo "== $label: configure and build ($dir)"
    cmake -S . -B "$dir" "$@" >/dev/null
    cmake --build "$dir" -j"$jobs"
    phase_done "$label: configure and build"
    echo "== $label: tests"
    local status=0
    # shellcheck disable=SC2086
    (cd "$dir" && ctest --output-on-failure -j"$jobs" $ctest_args) 2>&1 | tee "$dir/ctest.log" ||
        status=$?
    phase_done "$label: tests"
    [ $timings = no ] || python3 tools/test-timings.py "$dir/ctest.log" --slowest 30 || true
    return $status
}

set -o pipefail
run_suite build "normal build" "-LE sanitize-only" -- -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDGPB_WERROR=ON
echo "== normal build: its summed test time against tests/suite-time.txt"
python3 tools/test-timings.py build/ctest.log --slowest 0 --check tests/suite-time.txt
if [ $quick = no ]; then
    echo "== Release build: configure and build (build-release)"
    cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DDGPB_WERROR=ON >/dev/null
    cmake --build build-release -j"$jobs"
    phase_done "Release build: configure and build"
    echo "== Release build: install and use the installation"
    tests/install/install_test.sh build-release
    phase_done "Release build: install and use it"
    # The sanitizers watch the C code; the JavaScript tests (the embedded
    # compiler, the reader package, Dawn, the browser host in Chromium) ran
    # above and run no C of ours, and the Bazel rule's test (bazel) runs
    # dgpb-build as the build tests do. The real-renderers collection (collection),
    # the benchmark's smoke (bench-smoke) and the 25 MB module (large) spend their
    # time in Slang, and the C they run is the C the build tests run here: they run
    # above only. So do the native-Slang tests (native-slang): what they add is
    # Slang's own library, loaded into the recorder, which is neither built with
    # the sanitizers nor free of leaks at exit (docs/testing.md). The fixture
    # builders (run_fixtures, compute_bundles, crosscheck_bundles) take the normal
    # pass's bundles instead of compiling the same corpora again
    # (DGPB_TEST_BUNDLES_FROM): the build tests compile here, and what the
    # bundles feed (the readers, the proof, the runner) is this pass's subject.
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    run_suite build-sanitize "ASan+UBSan build" "-LE slangc-wasm|js|webgpu|web|bazel|collection|bench-smoke|large|native-slang" -- \
        -DCMAKE_BUILD_TYPE=Debug -DDGPB_SANITIZE=ON -DDGPB_WERROR=ON \
        -DDGPB_TEST_BUNDLES_FROM="$PWD/build"
fi
echo "== all tests passed"
