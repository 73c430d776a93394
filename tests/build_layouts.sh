#!/usr/bin/env bash
# build_layouts.sh BUILD DUMP RECORDER FAKE_SLANG FIXTURES - dgpb-build records
# one layout per pipeline group and target, in order of each group's first
# entry, and points each entry at its group's (here through the recorder and
# a fake libslang: the layouts' contents are the fake's, their placement is
# dgpb-build's); a mesh and a tessellation pipeline are render groups.
# Without a native libslang it warns once and writes none. The project options
# reach the recordings.
set -u
build=$1 dump=$2 recorder=$3 fake=$4 fixtures=$5
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Whether every target line of a dgpb-dump listing (on standard input) says
# "0 layouts", and there is at least one ("0 layouts" alone also matches "10 layouts").
no_layouts() {
    local targets
    targets=$(grep -E '^target [^ ]+ \(code format [^)]+\): [0-9]+ layouts?, ') || return 1
    ! printf '%s\n' "$targets" | grep -Evq '\): 0 layouts, '
}

"$build" -q --compiler embedded --layout-recorder "$recorder" --slang-lib "$fake" "$fixtures/resources.slang" -o "$out" ||
    fail "build with a recorder"
"$dump" --verify "$out/resources.dgpb" >/dev/null || fail "the bundle does not verify"
listing=$("$dump" "$out/resources.dgpb")
printf '%s\n' "$listing" | grep -qx "target spirv (code format spirv): 2 layouts, 2 entries" ||
    fail "spirv lacks one layout per compute group: $listing"
printf '%s\n' "$listing" | grep -Eq "^ +entry bytes \(compute\) \[64,1,1\], layout 1, " ||
    fail "entry 'bytes' does not point at its group's layout"
printf '%s\n' "$listing" | grep -qx "target wgsl (code format wgsl): 1 layout, 1 entry" ||
    fail "wgsl lacks its layout"
"$dump" --layout spirv/1 "$out/resources.dgpb" | grep -q -- "-DDREAM_SHADER_bytes -DDREAM_TARGET_SPIRV" ||
    fail "layout 1 of spirv was not recorded for the group of 'bytes'"

# A mesh pipeline (amplification, mesh, fragment) and a tessellation one (vertex, hull,
# domain, fragment): one render group each, recorded with every entry's stage.
for pipeline in mesh:cullMeshlets:amplification:14 tessellation:terrainHull:hull:2; do
    IFS=: read -r module entry stage number <<<"$pipeline"
    "$build" -q --targets spirv --compiler embedded --layout-recorder "$recorder" --slang-lib "$fake" \
        "$fixtures/../stages/$module.slang" -o "$out/s" || fail "build of stages/$module.slang"
    listing=$("$dump" "$out/s/$module.dgpb")
    printf '%s\n' "$listing" | grep -Eq "^target spirv \(code format spirv\): 1 layout, [34] entries$" ||
        fail "$module: not one layout for its render group: $listing"
    [ "$(printf '%s\n' "$listing" | grep -c '^  entry .*, layout 0, ')" -ge 3 ] ||
        fail "$module: an entry does not point at the group's layout: $listing"
    layout=$("$dump" --layout spirv/0 "$out/s/$module.dgpb")
    printf '%s\n' "$layout" | grep -q "target spirv, group render$" ||
        fail "$module: the layout's group is not render: $layout"
    printf '%s\n' "$layout" | grep -q -- "-entry $entry -stage $stage " &&
        printf '%s\n' "$layout" | grep -Eq "entry [0-9]+ '$entry' \(stage $number\)" ||
        fail "$module: $entry not recorded as a $stage shader: $layout"
done

"$build" -q --compiler embedded --layout-recorder "$recorder" --slang-lib "$fake" --triple wasm32-unknown-unknown \
    "$fixtures/resources.slang" -o "$out/w" || fail "wasm32 build"
"$dump" "$out/w/resources.dgpb" | no_layouts || fail "a wasm32 bundle has layouts"

log=$(env -u SLANG_ROOT -u DGPB_SLANGC "$build" --layout-recorder "$recorder" \
    "$fixtures/plain.slang" -o "$out/n" 2>&1) || fail "build without libslang: $log"
[ "$(printf '%s\n' "$log" | grep -c warning)" -eq 1 ] || fail "expected one warning: $log"
printf '%s\n' "$log" | grep -q "cannot load a native Slang library" || fail "warning text: $log"
"$dump" "$out/n/plain.dgpb" | no_layouts || fail "layouts without libslang"
# A library named with --slang-lib that cannot be loaded, or a recorder that
# cannot run, fails the build at once (exit 3) and writes nothing.
log=$("$build" -q --compiler embedded --layout-recorder "$recorder" --slang-lib "$out/no-such-libslang.so" \
    "$fixtures/plain.slang" -o "$out/l" 2>&1)
[ $? -eq 3 ] || fail "an unloadable --slang-lib: expected exit 3: $log"
[ ! -e "$out/l/plain.dgpb" ] || fail "a bundle was written without its --slang-lib"
# Without a compiler named otherwise, --slang-lib is the compiler itself: a missing one is
# an error naming it (exit 3), nothing written.
log=$("$build" -q --layout-recorder "$recorder" --slang-lib "$out/no-such-libslang.so" \
    "$fixtures/plain.slang" -o "$out/m" 2>&1)
[ $? -eq 3 ] || fail "a missing --slang-lib as the compiler: expected exit 3: $log"
printf '%s\n' "$log" | grep -q "cannot use the Slang library '$out/no-such-libslang.so' (from --slang-lib)" ||
    fail "a missing --slang-lib: the message does not name it: $log"
[ ! -e "$out/m/plain.dgpb" ] || fail "a bundle was written without its compiler"
log=$("$build" -q --layout-recorder "$out/no-such-recorder" "$fixtures/plain.slang" -o "$out/r" 2>&1)
[ $? -eq 3 ] || fail "a recorder that cannot run: expected exit 3: $log"
[ "$(printf '%s\n' "$log" | grep -c error)" -eq 1 ] || fail "expected one error: $log"
# The project options reach every recording as they reach the compiles (docs/build.md,
# "Project options"): the layout records them among its options, -profile for spirv only.
"$build" -q --spirv-version 1.5 --compiler embedded --layout-recorder "$recorder" --slang-lib "$fake" \
    "$fixtures/resources.slang" -o "$out/v" || fail "build with --spirv-version 1.5"
"$dump" --layout spirv/0 "$out/v/resources.dgpb" |
    grep -q -- " -DDREAM_TARGET_SPIRV -matrix-layout-row-major -profile spirv_1_5 -target spirv " ||
    fail "the spirv layout was not recorded with -profile spirv_1_5: $("$dump" --layout spirv/0 "$out/v/resources.dgpb" | grep options)"
"$dump" --layout wgsl/0 "$out/v/resources.dgpb" | grep -q -- "-profile" &&
    fail "the wgsl layout was recorded with -profile"
echo "ok: layouts"
