#!/usr/bin/env bash
# native_validation.sh BUILD DUMP SLANGC - SPIR-V validation of a native Slang's code by a
# SPIRV-Tools older than it (label native-slang; docs/build.md, "Validation"), on the
# modules of fixtures/validation/:
#
#  1. device_addresses.slang: a variable holding a PhysicalStorageBuffer pointer without
#     AliasedPointer or RestrictPointer, which SPIR-V 1.6 revision 5 allows and SPIRV-Tools
#     2023.1 refuses, is validated read as AliasedPointer: a warning, the bundle written,
#     its code as Slang wrote it (no AliasedPointer in the blob), its tables proved.
#  2. layered_geometry.slang at --spirv-version 1.4 and 1.3: a geometry shader that
#     declares ShaderLayer and ShaderViewportIndex (SPIR-V 1.5's) is validated read as
#     Geometry and MultiViewport: a warning naming them; at Slang's default 1.5, none.
#  3. -g: the debug information (NonSemantic.Shader.DebugInfo.100) that SPIRV-Tools 2023.1
#     refuses (a DebugTypePointer) is left out of the validation: a warning, and the code
#     as written still carries it.
#  4. position_fetch_scene.slang: the hit shader's code, which SPIRV-Tools cannot parse
#     (capability 5336), gets exactly the rows its interface lists: the one buffer it
#     reads, none of the other entries' descriptors; --verify proves the bundle.
#  5. --spirv-validation error: each of these warnings is an error (exit 1, nothing
#     written), also when the cache holds the whole build made with warn; a module the
#     validator has nothing against builds as before.
set -u
build=$1 dump=$2 slangc=$3
fixtures=$(cd "$(dirname "$0")/../fixtures/validation" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export DGPB_SERVICE=off DGPB_NO_CACHE=1
B() { "$build" --slangc "$slangc" --targets spirv "$@"; }

# expect STATUS REGEX ARGS...: dgpb-build ARGS exits STATUS and prints REGEX.
expect() {
    local want=$1 regex=$2 status=0
    shift 2
    B "$@" >"$work/out" 2>&1 || status=$?
    [ "$status" = "$want" ] || { cat "$work/out"; fail "dgpb-build $*: exit $status, not $want"; }
    grep -Eq -- "$regex" "$work/out" || { cat "$work/out"; fail "dgpb-build $*: no /$regex/"; }
}
validated="SPIR-V validated \\(Vulkan [0-9.]+( with SPIR-V 1.4)?\\)"

# 1. A rule SPIR-V has since lifted.
pointer="entry 'triangleCentres': $validated, the validator being older than the code: 1 variable read as AliasedPointer \\(\"OpVariable [0-9]+: expected AliasedPointer or RestrictPointer for PhysicalStorageBuffer pointer.\": SPIRV-Tools v[0-9.]+ asks every variable and parameter holding a PhysicalStorageBuffer pointer for an aliasing decoration, a rule SPIR-V 1.6 revision 5 lifted\\)"
expect 0 "device_addresses.slang: warning: target 'spirv', $pointer" \
    "$fixtures/device_addresses.slang" -o "$work/bda"
"$dump" --verify "$work/bda/device_addresses.dgpb" >/dev/null || fail "device_addresses: --verify"
"$dump" --disasm spirv/triangleCentres "$work/bda/device_addresses.dgpb" >"$work/bda.dis" ||
    fail "disasm"
grep -q 'OpVariable %_ptr_Function__ptr_PhysicalStorageBuffer_uint Function' "$work/bda.dis" ||
    fail "the code has no variable holding a device address"
grep -q 'AliasedPointer\|RestrictPointer' "$work/bda.dis" && fail "the stored code was patched"
expect 1 "device_addresses.slang: error: target 'spirv', $pointer \\(an error with --spirv-validation error\\)" \
    --spirv-validation error "$fixtures/device_addresses.slang" -o "$work/bda_error"
[ -e "$work/bda_error" ] && fail "the build that failed wrote '$work/bda_error'"

# 2. Code drivers take: a geometry shader's Layer and ViewportIndex below SPIR-V 1.5.
expect 0 "layered_geometry.slang: warning: target 'spirv', entry 'cascadeMain': $validated, read as drivers take the code: ShaderLayer \\(69\\) and ShaderViewportIndex \\(70\\), capabilities of SPIR-V 1.5 declared in this SPIR-V 1.4 geometry shader, read as Geometry \\(2\\) and MultiViewport \\(57\\), through which a geometry shader of its version writes Layer and ViewportIndex" \
    --spirv-version 1.4 "$fixtures/layered_geometry.slang" -o "$work/geo14"
grep -c 'warning' "$work/out" | grep -qx 1 || { cat "$work/out"; fail "other warnings at 1.4"; }
"$dump" --disasm spirv/cascadeMain "$work/geo14/layered_geometry.dgpb" | grep -q 'OpCapability ShaderLayer' ||
    fail "the stored 1.4 code does not declare ShaderLayer"
expect 0 "layered_geometry.slang: warning: target 'spirv', entry 'cascadeMain': $validated, read as drivers take the code: ShaderViewportIndex \\(70\\), capability of SPIR-V 1.5 declared in this SPIR-V 1.3 geometry shader, read as MultiViewport \\(57\\)" \
    --spirv-version 1.3 "$fixtures/layered_geometry.slang" -o "$work/geo13"
B "$fixtures/layered_geometry.slang" -o "$work/geo15" >"$work/out" 2>&1 || { cat "$work/out"; fail "geometry at 1.5"; }
grep -q 'warning' "$work/out" && { cat "$work/out"; fail "a warning at SPIR-V 1.5"; }
expect 1 "error: target 'spirv', entry 'cascadeMain': $validated, read as drivers take the code: .* \\(an error with --spirv-validation error\\)" \
    --spirv-version 1.4 --spirv-validation error "$fixtures/layered_geometry.slang" -o "$work/geo_error"

# 3. Debug information.
expect 0 "device_addresses.slang: warning: target 'spirv', entry 'triangleCentres': $validated, read as drivers take the code: the debug information left out \\(\"NonSemantic.Shader.DebugInfo.100 [A-Za-z]+: .*\": non-semantic instructions change nothing a driver runs, and a driver may drop them\\)" \
    -g "$fixtures/device_addresses.slang" -o "$work/bda_g"
"$dump" --disasm spirv/triangleCentres "$work/bda_g/device_addresses.dgpb" |
    grep -q 'OpExtInstImport "NonSemantic.Shader.DebugInfo.100"' || fail "the -g code lost its debug information"
"$dump" --verify "$work/bda_g/device_addresses.dgpb" >/dev/null || fail "device_addresses -g: --verify"
expect 1 "\\(an error with --spirv-validation error\\)" -g --spirv-validation error \
    "$fixtures/device_addresses.slang" -o "$work/bda_g_error"

# 4. Code the validator cannot parse: the rows its interface lists, never more.
expect 0 "position_fetch_scene.slang: warning: target 'spirv', entry 'closestHit': SPIR-V not validated \\(Vulkan 1.2\\): SPIRV-Tools v[0-9.]+ is older than the code and does not know its capability 5336 \\(RayTracingPositionFetchKHR\\)" \
    "$fixtures/position_fetch_scene.slang" -o "$work/fetch"
grep -q 'every global counts as used' "$work/out" && fail "the analysis gave up: $(cat "$work/out")"
"$dump" "$work/fetch/position_fetch_scene.dgpb" >"$work/fetch.txt" || fail "listing"
awk '/^  entry /{ entry = $2 } /^ +[0-9]+ /{ rows[entry] = rows[entry] $2 " " }
    END { for (e in rows) print e ": " rows[e] }' "$work/fetch.txt" | sort >"$work/rows"
printf '%s\n' "closestHit: materials " "miss: environment environmentSampler " "rayGen: scene image " |
    diff -u - "$work/rows" || fail "the entries' rows"
"$dump" --verify "$work/fetch/position_fetch_scene.dgpb" >/dev/null || fail "position_fetch_scene: --verify"

# 5. --spirv-validation error across the cache: the whole build made with warn is no answer.
unset DGPB_NO_CACHE
cache=$work/cache
B --cache-dir "$cache" "$fixtures/position_fetch_scene.slang" -o "$work/c1" >/dev/null 2>&1 ||
    fail "the cached build"
B --cache-dir "$cache" "$fixtures/position_fetch_scene.slang" -o "$work/c1" >"$work/out" 2>&1 ||
    fail "the build from the cache"
grep -q 'SPIR-V not validated' "$work/out" || fail "the replayed build lost its warning"
status=0
B --cache-dir "$cache" --spirv-validation error "$fixtures/position_fetch_scene.slang" \
    -o "$work/c2" >"$work/out" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q "error: target 'spirv', entry 'closestHit': SPIR-V not validated" "$work/out" ||
    { cat "$work/out"; fail "--spirv-validation error over a cached build: exit $status"; }
B --spirv-validation error --no-cache "$fixtures/layered_geometry.slang" -o "$work/geo_ok" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "--spirv-validation error refused a module the validator takes"; }
echo "ok: SPIR-V validation of a native Slang's code"
