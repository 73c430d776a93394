#!/usr/bin/env bash
# cache_edits.sh DGPB_BUILD - what each kind of edit to a plain Slang module costs
# (docs/cache.md, "What an entry depends on"): plain32 (bench/plain-module.sh),
# 32 compute entries sharing a helper, built for spirv and wgsl, edited one way
# at a time. Each build's compiles are counted (the "N compiles" of its summary line: the two
# discoveries and the entries' compiles) and its bundle is compared byte for
# byte with a cold build's (--no-cache) of the same text.
# The set-up's native Slang compiles (--compiler native: without one the test fails,
# naming what to install), through the cache, which ctest otherwise turns off.
set -euo pipefail
build=$1
unset DGPB_NO_CACHE
export DGPB_IGNORE_SETUP_SLANG=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export DGPB_CACHE_DIR=$tmp/cache
module=$tmp/m.slang
"$(dirname "$0")/../bench/plain-module.sh" 32 >"$module"
fail=0
# step NAME EXPECTED [OPTIONS...]: builds, counts the compiles, compares with a cold build.
step() {
    local name=$1 want=$2
    shift 2
    local out got
    out=$("$build" --compiler native --targets spirv,wgsl "$@" "$module" -o "$tmp/warm" 2>&1) ||
        { echo "FAIL $name: the build failed: $out"; exit 1; }
    got=$(sed -n 's/.*; \([0-9]*\) compiles.*/\1/p' <<<"$out")
    "$build" -q --compiler native --no-cache --targets spirv,wgsl "$@" "$module" -o "$tmp/cold"
    if [ "$got" != "$want" ]; then
        echo "FAIL $name: $got compiles, expected $want"
        fail=1
    elif ! cmp -s "$tmp/warm/m.dgpb" "$tmp/cold/m.dgpb"; then
        echo "FAIL $name: the bundle differs from a cold build's"
        fail=1
    else
        echo "ok   $name: $got compiles, the bundle a cold build writes"
    fi
}
step "cold" 66 -DSCALE=1.0
step "nothing changed" 0 -DSCALE=1.0
sed -i 's/return x + 7.0;/return x + 70.0;/' "$module"
step "one entry's own helper" 2 -DSCALE=1.0
sed -i 's/^    data\[id.x\] = helper(own12(data\[id.x\])) \* SCALE;/    data[id.x] = 2.0 * helper(own12(data[id.x])) * SCALE;/' "$module"
step "one entry's body" 2 -DSCALE=1.0
# A declaration, not a body: the discoveries (which read the declarations) run again.
# From here on the module has 33 entries, 32 of them calling the shared helper.
sed -i '0,/numthreads(64, 1, 1)/s//numthreads(32, 1, 1)/' "$module"
step "one entry's thread group size" 4 -DSCALE=1.0
printf '[shader("compute")]\n[numthreads(8, 1, 1)]\nvoid added(uint3 id : SV_DispatchThreadID) { data[id.x] = 1.0; }\n' >>"$module"
step "an entry added" 4 -DSCALE=1.0
sed -i '1a // A comment added to the shared text.' "$module"
step "a comment" 0 -DSCALE=1.0
sed -i 's/^struct Params/\n\nstruct  Params/' "$module"
step "blank lines and spaces" 0 -DSCALE=1.0
sed -i 's/params.scale + params.bias/params.scale - params.bias/' "$module"
step "the shared helper" 64 -DSCALE=1.0
step "a define's value" 68 -DSCALE=2.0
sed -i '1a #define UNUSED_LIMIT 4' "$module"
step "a #define" 68 -DSCALE=2.0
# With debug information the code names lines: a comment moves them, so it recompiles.
step "debug information" 68 -DSCALE=2.0 -g
sed -i '1a // Another comment.' "$module"
step "a comment, with debug information" 68 -DSCALE=2.0 -g
# A file the module includes says __LINE__: a macro of it may expand in the module, whose
# lines a comment moves, so the module's text keys its compiles as it is.
printf '#define HERE float(__LINE__)\n' >"$tmp/lines.slangh"
sed -i '1i #include "lines.slangh"' "$module"
step "an include that says __LINE__" 68 -DSCALE=2.0
sed -i '2a // A comment, after the include.' "$module"
step "a comment, with that include" 66 -DSCALE=2.0
exit $fail
