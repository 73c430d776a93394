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
#  6. --block-layout (fixtures/options/block_layouts.slang): for each layout, the code is
#     slangc's with the layout's option byte for byte, every row's offset and stride are
#     the ones the layout gives (a float3 after a float2 at 88 with scalar, at 96 by
#     default) and proved (dgpb-dump --verify), the layout recording was made with the
#     option, the C header's structs compile with gcc where its static assertions hold,
#     and dgpb-run, filling each row at its offset on lavapipe, reads back the numbers it
#     set. The embedded compiler builds the default layout with the native rows, and
#     refuses the others (exit 2).
#  7. -g: the code carries debug information (NonSemantic.Shader.DebugInfo.100, OpLine)
#     and is slangc -g's (with --compiler-processes; the native workers' names their own
#     search folder in the command line the debug information records); the tables are
#     the default build's, proved. -O0 and -O3: slangc's code for them (-O3's is not the
#     default -O1's).
set -u
build=$1 dump=$2 run=$3 slangc=$4
fixtures=$(cd "$(dirname "$0")/../fixtures" && pwd)
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
# 6. Block layouts.
blocks=$fixtures/options/block_layouts.slang
cp "$blocks" "$work/blocks.slang"
BL() { (cd "$work" && "$build" -q --slangc "$slangc" --targets spirv "$@" blocks.slang); }
rows() { # BUNDLE: "name@offset/size" of every row, in order
    "$dump" "$1" | awk '/^ +[0-9]+ /{ printf "%s@%s/%s ", $2, $(NF-2), $(NF-1) }'
}
std="sim.viewProjection@0/64 sim.gravity@64/12 sim.dt@76/4 sim.extent@80/8 sim.wind@96/12 sim.count@108/4 Frame@0/64 sunDirection@0/12 exposure@12/4 jitter@16/32 time@48/4 particles@0/32 echo@0/4 "
scalar="sim.viewProjection@0/64 sim.gravity@64/12 sim.dt@76/4 sim.extent@80/8 sim.wind@88/12 sim.count@100/4 Frame@0/36 sunDirection@0/12 exposure@12/4 jitter@16/16 time@32/4 particles@0/28 echo@0/4 "
set_all=(--set sim.viewProjection=0,0,0,0,0,0,0,0,0,0,0,0,0,0,9,0 --set sim.gravity=0,-9.5,0
    --set sim.dt=0.25 --set sim.extent=0,7 --set sim.wind=3,0,5 --set sim.count=12
    --set sunDirection=0,0,-1 --set exposure=1.5 --set jitter=0,0,0.125,0 --set time=42)
echo_want="echo=f32:9,-9.5,0.25,7,3,5,12,-1,1.5,0.125,42"
for layout in default scalar gl c; do
    case $layout in default | gl) want=$std ;; *) want=$scalar ;; esac
    flag=()
    [ "$layout" = default ] || flag=(--block-layout "$layout")
    BL "${flag[@]}" -o "$work/bl-$layout" || fail "--block-layout $layout"
    [ "$(rows "$work/bl-$layout/blocks.dgpb")" = "$want" ] ||
        fail "--block-layout $layout: rows $(rows "$work/bl-$layout/blocks.dgpb"), not $want"
    "$dump" --verify "$work/bl-$layout/blocks.dgpb" >/dev/null || fail "--block-layout $layout: --verify"
    "$dump" --extract spirv/simulate -o "$work/bl-$layout.spv" "$work/bl-$layout/blocks.dgpb" ||
        fail "extract"
    option=$(case $layout in scalar) echo -fvk-use-scalar-layout ;; gl) echo -fvk-use-gl-layout ;;
        c) echo -fvk-use-c-layout ;; esac)
    (cd "$work" && "$slangc" blocks.slang -DDREAM_SHADER_simulate -DDREAM_TARGET_SPIRV \
        -matrix-layout-row-major $option -target spirv -entry simulate -stage compute \
        -o "hand-$layout.spv") || fail "slangc $option"
    cmp -s "$work/bl-$layout.spv" "$work/hand-$layout.spv" ||
        fail "--block-layout $layout: the code differs from slangc $option's"
    if [ "$layout" = default ]; then
        grep -q '"options"' "$work/bl-$layout/blocks.bundle.json" && fail "the default layout is recorded"
        "$dump" --layout spirv/0 "$work/bl-$layout/blocks.dgpb" | grep -q -- '-fvk-use' &&
            fail "the default layout's recording got a block layout option"
    else
        grep -q "\"block_layout\":	\"$layout\"" "$work/bl-$layout/blocks.bundle.json" ||
            fail "the view does not record block_layout $layout"
        "$dump" --layout spirv/0 "$work/bl-$layout/blocks.dgpb" | grep -q -- "^  options: .* $option " ||
            fail "the layout of --block-layout $layout was recorded without $option"
    fi
    "$run" "$work/bl-$layout/blocks.dgpb" simulate --size particles=64 --size echo=44 "${set_all[@]}" \
        --print echo:f32 --print particles:f32 >"$work/bl-$layout.out" ||
        fail "dgpb-run on the $layout layout"
    [ "$(head -1 "$work/bl-$layout.out")" = "$echo_want" ] ||
        fail "--block-layout $layout: the code read $(head -1 "$work/bl-$layout.out")"
    # Particle 1 (position = wind, age = dt, velocity = gravity) at the element stride.
    case $layout in
    default | gl) particle="particles=f32:0,0,0,0,0,0,0,0,3,0,5,0.25,0,-9.5,0,0" ;;
    *) particle="particles=f32:0,0,0,0,0,0,0,3,0,5,0.25,0,-9.5,0,0,0" ;;
    esac
    [ "$(tail -1 "$work/bl-$layout.out")" = "$particle" ] ||
        fail "--block-layout $layout: the code wrote $(tail -1 "$work/bl-$layout.out")"
    "$dump" --header "$work/bl-$layout/blocks.dgpb" >"$work/blocks-$layout.h" || fail "--header"
    printf '#include "blocks-%s.h"\nint main(void) { return 0; }\n' "$layout" >"$work/use-$layout.c"
    gcc -std=c11 -Wall -Wextra -Werror -I "$work" "$work/use-$layout.c" -o "$work/use-$layout" ||
        fail "the C header of --block-layout $layout does not compile"
done
grep -q 'Built with the project options block_layout scalar' "$work/blocks-scalar.h" ||
    fail "the header does not say it was built with block_layout scalar"
grep -q 'float wind\[3\]; /\* .wind.: offset 88' "$work/blocks-scalar.h" ||
    fail "the scalar header's wind is not at 88"
(cd "$work" && "$build" -q --compiler embedded --no-layouts --targets spirv blocks.slang -o embedded) ||
    fail "the embedded compiler's default layout"
[ "$(rows "$work/embedded/blocks.dgpb")" = "$std" ] ||
    fail "the embedded compiler's rows: $(rows "$work/embedded/blocks.dgpb")"
status=0
(cd "$work" && "$build" -q --compiler embedded --targets spirv --block-layout scalar blocks.slang \
    -o refused) 2>"$work/refused.err" || status=$?
[ "$status" = 2 ] && grep -q 'cannot compile with --block-layout scalar' "$work/refused.err" ||
    { cat "$work/refused.err"; fail "the embedded compiler took --block-layout scalar (exit $status)"; }

# 7. Debug information and optimization.
B -g -o "$work/g" || fail "-g"
B -g --compiler-processes -o "$work/gp" || fail "-g --compiler-processes"
B -O0 -o "$work/o0" || fail "-O0"
B --optimization 3 -o "$work/o3" || fail "--optimization 3"
"$dump" --extract spirv/k -o "$work/row.spv" "$work/row/m.dgpb" || fail "extract row"
"$dump" --disasm spirv/k "$work/g/m.dgpb" >"$work/g.dis" || fail "disasm -g"
grep -q 'OpExtInstImport "NonSemantic.Shader.DebugInfo.100"' "$work/g.dis" &&
    grep -q 'DebugSource' "$work/g.dis" && grep -q 'DebugLine\|OpLine' "$work/g.dis" ||
    fail "the -g code carries no debug information"
"$dump" --disasm spirv/k "$work/row/m.dgpb" | grep -q 'NonSemantic' && fail "the default code has debug information"
"$dump" --verify "$work/g/m.dgpb" >/dev/null || fail "the -g tables are not proved"
[ "$(rows "$work/g/m.dgpb")" = "$(rows "$work/row/m.dgpb")" ] || fail "-g changed the rows"
grep -q '"debug_info":	"2"' "$work/g/m.bundle.json" || fail "the view lacks debug_info 2"
grep -q '"optimization":	"0"' "$work/o0/m.bundle.json" || fail "the view lacks optimization 0"
grep -q '"optimization":	"3"' "$work/o3/m.bundle.json" || fail "the view lacks optimization 3"
for o in gp o0 o3; do
    flag=$(case $o in gp) echo -g2 ;; o0) echo -O0 ;; o3) echo -O3 ;; esac)
    "$dump" --extract spirv/k -o "$work/$o.spv" "$work/$o/m.dgpb" || fail "extract $o"
    (cd "$work" && "$slangc" m.slang -DDREAM_SHADER_k -DDREAM_TARGET_SPIRV -matrix-layout-row-major \
        $flag -target spirv -entry k -stage compute -o "hand-$o.spv") || fail "slangc $flag"
    cmp -s "$work/$o.spv" "$work/hand-$o.spv" || fail "the $flag code differs from slangc $flag's"
    "$dump" --layout spirv/0 "$work/$o/m.dgpb" | grep -q -- "^  options: .* $flag " ||
        fail "the layout of $flag was recorded without it"
done
cmp -s "$work/o3.spv" "$work/row.spv" && fail "-O3 wrote the default code"
"$dump" --disasm spirv/k "$work/gp/m.dgpb" | grep -v -e '-target spirv' -e '^; spirv/k' >"$work/gp.dis"
grep -v -e '-target spirv' -e '^; spirv/k' "$work/g.dis" | cmp -s - "$work/gp.dis" ||
    fail "the workers' -g code differs from one slangc's beyond the command line it records"
echo "ok: project options with a native Slang"
