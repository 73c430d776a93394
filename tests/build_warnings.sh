#!/usr/bin/env bash
# build_warnings.sh BUILD FIXTURES - Slang's warnings on a build that succeeds
# (docs/build.md, "Diagnostics"): printed once each though spirv, wgsl and
# every entry's compile print them, with file, line, column and Slang's code;
# also with -q; again when the cache answers the compiles and when it replays
# the whole build; and, with --warnings-as-errors or DGPB_WARNINGS_AS_ERRORS=1,
# errors that fail the build (exit 1, nothing written), dgpb-build's own
# warnings too.
set -u
build=$1 fixtures=$2
unset DGPB_NO_CACHE DGPB_WARNINGS_AS_ERRORS # the suite's builds run without the cache
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
cp "$fixtures/slangc-wasm/warnings.slang" m.slang
# A second entry, so that two compiles per target print the same warnings.
cat >> m.slang <<'SLANG'

[shader("compute")]
[numthreads(1, 1, 1)]
void k2(uint3 id : SV_DispatchThreadID) { output[id.x] = uninitialised(); }
SLANG
opts=(--targets spirv,wgsl --no-layouts)

expect_warnings() { # expect_warnings LOG WHAT - each warning once, where Slang put it
    local log=$1 what=$2
    [ "$(grep -c 'warning\[E30081\]' <<<"$log")" -eq 1 ] || fail "$what: the 30081 warning not once"
    grep -qx "m.slang:21:13: warning\[E30081\]: implicit conversion from 'float' to 'int' is not recommended" <<<"$log" ||
        fail "$what: no 30081 warning at m.slang:21:13"
    grep -qx "m.slang:10:5: warning\[E41016\]: use of uninitialized variable 'x'" <<<"$log" ||
        fail "$what: no 41016 warning at m.slang:10:5"
    grep -qx "m.slang:15:1: warning\[E41018\]: returning without initializing out parameter 'r'" <<<"$log" ||
        fail "$what: no 41018 warning"
    [ "$(grep -c 'warning\[' <<<"$log")" -eq 3 ] || fail "$what: not three warnings"
    grep -qx '            ^~~' <<<"$log" || fail "$what: no caret under the source line"
}

log=$("$build" --no-cache "${opts[@]}" m.slang -o a 2>&1) || fail "the build failed: $log"
printf '%s\n' "$log"
expect_warnings "$log" "a build"
grep -q "dgpb-build: wrote" <<<"$log" || fail "no summary"

log=$("$build" -q --no-cache "${opts[@]}" m.slang -o q 2>&1) || fail "the -q build failed: $log"
expect_warnings "$log" "-q"
grep -q "dgpb-build: wrote" <<<"$log" && fail "-q printed the summary"

# The cache: compiles answered from it, then the whole build replayed.
log=$("$build" --cache-dir c "${opts[@]}" m.slang -o c1 2>&1) || fail "cached build 1: $log"
expect_warnings "$log" "a build filling the cache"
log=$("$build" --cache-dir c "${opts[@]}" m.slang -o c2 2>&1) || fail "cached build 2: $log"
grep -q "0 compiles in" <<<"$log" || fail "the compiles were not answered from the cache: $log"
expect_warnings "$log" "compiles from the cache"
log=$("$build" --cache-dir c "${opts[@]}" m.slang -o c2 2>&1) || fail "cached build 3: $log"
grep -q "(from the cache)" <<<"$log" || fail "the build was not replayed: $log"
expect_warnings "$log" "a replayed build"

# Warnings as errors: exit 1, nothing written, the warning named as an error.
for how in option env replay; do
    case $how in
    option) log=$("$build" --no-cache --warnings-as-errors "${opts[@]}" m.slang -o e 2>&1); status=$? ;;
    env) log=$(DGPB_WARNINGS_AS_ERRORS=1 "$build" --no-cache "${opts[@]}" m.slang -o e 2>&1); status=$? ;;
    replay) log=$("$build" --cache-dir c --warnings-as-errors "${opts[@]}" m.slang -o e 2>&1); status=$? ;;
    esac
    printf '%s\n' "$log"
    [ "$status" -eq 1 ] || fail "$how: exit status $status, not 1"
    [ ! -e e ] || fail "$how: something was written"
    grep -qx "m.slang:21:13: error\[E30081\]: implicit conversion from 'float' to 'int' is not recommended \[--warnings-as-errors\]" <<<"$log" ||
        fail "$how: the warning is not an error"
done
# dgpb-build's own warnings too (a storage format WebGPU restricts).
log=$("$build" --no-cache --warnings-as-errors --targets wgsl --no-layouts "$fixtures/build/resources.slang" -o r 2>&1); status=$?
printf '%s\n' "$log"
[ "$status" -eq 1 ] || fail "own warning: exit status $status, not 1"
[ ! -e r ] || fail "own warning: something was written"
grep -q "resources.slang: error: target 'wgsl', entry 'kinds', parameter 'rg': .* \[--warnings-as-errors\]" <<<"$log" ||
    fail "own warning: not an error"
# The warning about this installation (no native libslang: no layouts) is not the module's:
# -q leaves it out, and --warnings-as-errors leaves it a warning (exit 0, the bundle written).
clean=(--targets spirv "$fixtures/../tests/run/double.slang")
log=$("$build" --no-cache -q "${clean[@]}" -o q 2>&1); status=$?
[ "$status" -eq 0 ] || fail "a clean module with -q: exit status $status: $log"
[ -z "$log" ] || fail "a clean module with -q printed something: $log"
log=$("$build" --no-cache --warnings-as-errors "${clean[@]}" -o w 2>&1); status=$?
printf '%s\n' "$log"
[ "$status" -eq 0 ] || fail "a clean module with --warnings-as-errors: exit status $status"
[ -e w/double.dgpb ] || fail "a clean module with --warnings-as-errors: no bundle"
! grep -q 'error' <<<"$log" || fail "a clean module with --warnings-as-errors: an error printed"
echo "ok"
