#!/usr/bin/env bash
# native_project_options.sh BUILD DUMP RUN SLANGC - the project options with a native Slang
# (label native-slang, only with -DDGPB_SLANG_ROOT; docs/build.md, "Project options"):
#
#  1. --matrix-layout column gives the code slangc gives with -matrix-layout-column-major:
#     the spirv blob of each entry equals, byte for byte, what SLANGC writes for the
#     compile dgpb-build documents (docs/build.md, "The pipeline"), on the native worker
#     pool and with --compiler-processes; a float4x4 of a cbuffer is decorated RowMajor
#     (ColMajor in the row-major build: Slang's names are the transpose of SPIR-V's).
#  2. dgpb-run fills the column-major build's matrices from the same numbers, given row by
#     row, with the same results as the row-major build's (lavapipe).
#  3. --spirv-version 1.3 and 1.6 give SPIR-V of that version (validated for Vulkan 1.1 and
#     1.3), recorded in the view.
#  4. --capability with a name Slang knows builds; one it does not know fails as a compile
#     error (exit 1) with Slang's message.
#  5. Every layout recording got the options: the bundles carry layouts.
set -u
build=$1 dump=$2 run=$3 slangc=$4
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export DGPB_SERVICE=off DGPB_NO_CACHE=1
cat >"$work/m.slang" <<'EOF'
cbuffer Transforms
{
    float4x4 world;
    float3x4 part;
}
RWStructuredBuffer<float> result;

[shader("compute")]
[numthreads(1, 1, 1)]
void k(uint3 id: SV_DispatchThreadID)
{
    float4 v = float4(1, 10, 100, 1000);
    float4 a = mul(world, v);
    float3 b = mul(part, v);
    result[0] = a.x;
    result[1] = a.w;
    result[2] = b.x;
    result[3] = b.z;
}
EOF
# Run in the module's folder, naming it m.slang, as the hand-made compile below does: the
# SPIR-V's debug information names the file as the compile was given it.
B() { (cd "$work" && "$build" -q --slangc "$slangc" --targets spirv "$@" m.slang); }
dis() { # BUNDLE: the spirv of entry k, without OpSource (docs/design.md, section 5)
    "$dump" --disasm spirv/k "$1"
}

# 1. The code of slangc -matrix-layout-column-major, from the workers and from processes.
B --matrix-layout column -o "$work/column" || fail "the column-major build"
B --matrix-layout column --compiler-processes -o "$work/column_p" || fail "the column-major build (processes)"
cmp -s "$work/column/m.dgpb" "$work/column_p/m.dgpb" || fail "workers and processes differ"
B -o "$work/row" || fail "the row-major build"
"$dump" --extract spirv/k -o "$work/bundle.spv" "$work/column/m.dgpb" || fail "extract"
(cd "$work" && "$slangc" m.slang -DDREAM_SHADER_k -DDREAM_TARGET_SPIRV -matrix-layout-column-major \
    -target spirv -entry k -stage compute -o hand.spv) || fail "slangc -matrix-layout-column-major"
cmp -s "$work/bundle.spv" "$work/hand.spv" ||
    fail "the bundle's code differs from slangc -matrix-layout-column-major's"
dis "$work/column/m.dgpb" | grep -q 'OpMemberDecorate %[A-Za-z_0-9]* 0 RowMajor' ||
    fail "the column-major float4x4 is not decorated RowMajor: $(dis "$work/column/m.dgpb" | grep -i major)"
dis "$work/row/m.dgpb" | grep -q 'OpMemberDecorate %[A-Za-z_0-9]* 0 ColMajor' ||
    fail "the row-major float4x4 is not decorated ColMajor: $(dis "$work/row/m.dgpb" | grep -i major)"
grep -q '"matrix_layout":	"column"' "$work/column/m.bundle.json" || fail "the view lacks matrix_layout"

# 2. The same numbers, row by row, in either layout.
nums=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
part=1,2,3,4,5,6,7,8,9,10,11,12
for layout in row column; do
    "$run" "$work/$layout/m.dgpb" k --size result=16 --set world=$nums --set part=$part \
        --print result:f32 >"$work/$layout.out" || fail "dgpb-run on the $layout-major build"
done
[ "$(cat "$work/row.out")" = "result=f32:4321,17653,4321,13209" ] ||
    fail "the row-major build computed $(cat "$work/row.out")"
cmp -s "$work/row.out" "$work/column.out" ||
    fail "the layouts compute differently: $(cat "$work/row.out") and $(cat "$work/column.out")"

# 3. SPIR-V versions.
for v in 1.3 1.6; do
    B --spirv-version $v -o "$work/v$v" || fail "--spirv-version $v"
    "$dump" --extract spirv/k -o "$work/v$v.spv" "$work/v$v/m.dgpb" || fail "extract $v"
    want=$(printf '0001%02x00' "${v#1.}")
    [ "$(od -An -tx4 -j4 -N4 "$work/v$v.spv" | tr -d ' ')" = "$want" ] || fail "--spirv-version $v wrote another version"
    grep -q "\"spirv_version\":	\"$v\"" "$work/v$v/m.bundle.json" || fail "the view lacks spirv_version $v"
done

# 4. Capabilities: one Slang knows, one it does not.
B --capability spvImageQuery -o "$work/cap" || fail "--capability spvImageQuery"
status=0
B --capability dgpb_no_such_capability -o "$work/nocap" >"$work/nocap.err" 2>&1 || status=$?
[ "$status" = 1 ] || { cat "$work/nocap.err"; fail "an unknown capability exited $status, not 1"; }
grep -q 'dgpb_no_such_capability' "$work/nocap.err" || fail "Slang's message does not name the capability"

# 5. Layouts were recorded with the options.
for d in column v1.6 cap; do
    "$dump" "$work/$d/m.dgpb" | grep -q '^target spirv (code format spirv): 1 layout, ' ||
        fail "$d: no layout recorded"
done
echo "ok: project options with a native Slang"
