#!/usr/bin/env bash
# tools/test.sh - builds dgpb and runs the whole test suite twice: a normal
# build, then one under AddressSanitizer + UndefinedBehaviorSanitizer. In
# between, a Release build (-O3, the way a user builds dgpb) is installed into
# a temporary prefix and used from there: the installed programs, pkg-config
# and the example project examples/embed (tests/install/install_test.sh).
#
#   tools/test.sh                 all three builds (what CI runs)
#   tools/test.sh --quick         the normal build only
#
# Exits non-zero when any test fails. Run tools/setup.sh first on a new machine.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

run_suite() { # build-dir label ctest-args -- cmake-args...
    local dir=$1 label=$2 ctest_args=$3; shift 4
    echo "== $label: configure and build ($dir)"
    cmake -S . -B "$dir" "$@" >/dev/null
    cmake --build "$dir" -j"$jobs"
    echo "== $label: tests"
    # shellcheck disable=SC2086
    (cd "$dir" && ctest --output-on-failure -j"$jobs" $ctest_args)
}

run_suite build "normal build" "" -- -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDGPB_WERROR=ON
if [ "${1:-}" != "--quick" ]; then
    echo "== Release build: configure and build (build-release)"
    cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DDGPB_WERROR=ON >/dev/null
    cmake --build build-release -j"$jobs"
    echo "== Release build: install and use the installation"
    tests/install/install_test.sh build-release
    # The sanitizers watch the C code; the JavaScript tests (the embedded
    # compiler, the reader package, Dawn, the browser host in Chromium) ran
    # above and run no C of ours, and the Bazel rule's test (bazel) runs
    # dgpb-build as the build tests do. The real-renderers collection (collection),
    # the benchmark's smoke (bench-smoke) and the 25 MB module (large) spend their
    # time in Slang, and the C they run is the C the build tests run here: they run
    # above only. So do the native-Slang tests (native-slang): what they add is
    # Slang's own library, loaded into the recorder, which is neither built with
    # the sanitizers nor free of leaks at exit (docs/testing.md).
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    run_suite build-sanitize "ASan+UBSan build" "-LE slangc-wasm|js|webgpu|web|bazel|collection|bench-smoke|large|native-slang" -- \
        -DCMAKE_BUILD_TYPE=Debug -DDGPB_SANITIZE=ON -DDGPB_WERROR=ON
fi
echo "== all tests passed"
