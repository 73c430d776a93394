#!/usr/bin/env bash
# make_fixtures.sh DGPB_BUILD DGPB_DUMP OUT - the bundles and files of
# dgpb-run's tests (tests/run/CMakeLists.txt), built with the build's dgpb-build:
#   double.dgpb       tests/run/double.slang (spirv, ptx)
#   kernels.dgpb      tests/run/kernels.slang (spirv)
#   values.dgpb       tests/run/values.slang (spirv, ptx); values_ptx.dgpb: ptx alone
#   int_params.dgpb   tests/run/int_params.slang (ptx)
#   formats.dgpb      tests/run/formats.slang (spirv)
#   blocks.dgpb       tests/run/blocks.slang (spirv)
#   bools.dgpb        tests/run/bools.slang (spirv, ptx)
#   matrices.dgpb     tests/run/matrices.slang (spirv, ptx): row- and column-major matrices
#   structs.dgpb      tests/run/structs.slang (spirv, ptx): struct values and their fields
#   tail_padding.dgpb fixtures/compute/tail_padding.slang (spirv): blocks with tail padding
#   cap_compute_derivatives_quad.dgpb, wave_ops.dgpb  fixtures/compute/ (spirv): capabilities
#   wgsl_only.dgpb    double.slang for wgsl alone: no spirv target
#   truncated.dgpb    double.dgpb cut short: an invalid structure
#   flipped.dgpb      double.dgpb with one byte of its SPIR-V flipped: its SHA-256 no longer matches
#   min_lod.dgpb      tests/run/min_lod.slang (spirv): needs a feature lavapipe lacks
#   mesh.dgpb, tessellation.dgpb, geometry.dgpb
#                     fixtures/stages/ (spirv): entries of render pipelines' stages
#   draw_tessellation.dgpb, draw_geometry.dgpb, draw_mesh.dgpb, draw_input_attachment.dgpb,
#   draw_deferred.dgpb
#                     tests/run/draw_*.slang (spirv): the pipelines the draw tests render
#   same_name_namespaces.dgpb  fixtures/plain/ (spirv): rows qualified by namespace (first::out)
#   bindless_materials.dgpb    fixtures/plain/ (spirv): arrays indexed by NonUniformResourceIndex
#   target_guards.dgpb         fixtures/plain/ (spirv, wgsl): a row per target guard, absent where
#                              the target's code lacks it
#   input.bin         i32 1,2,3,4;  expected.bin: i32 2,4,6,8; same_name_expected.bin: u32 12,23
#   six_bytes.bin     six bytes: no whole number of 4-byte vertices
set -euo pipefail
build=$1 dump=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out" && mkdir -p "$out/wgsl"
"$build" -q --targets spirv,ptx -o "$out" "$here/double.slang"
"$build" -q --targets spirv -o "$out" "$here/kernels.slang"
"$build" -q --targets spirv,ptx -o "$out" "$here/values.slang"
"$build" -q --targets ptx -o "$out" "$here/int_params.slang"
"$build" -q --targets spirv -o "$out" "$here/formats.slang"
"$build" -q --targets spirv -o "$out" "$here/blocks.slang"
"$build" -q --targets spirv,ptx -o "$out" "$here/bools.slang"
"$build" -q --targets spirv,ptx -o "$out" "$here/matrices.slang"
"$build" -q --targets spirv,ptx -o "$out" "$here/structs.slang"
"$build" -q --targets spirv -o "$out" "$here/../../fixtures/compute/tail_padding.slang"
"$build" -q --targets spirv -o "$out" "$here/../../fixtures/compute/cap_compute_derivatives_quad.slang"
"$build" -q --targets spirv -o "$out" "$here/../../fixtures/compute/wave_ops.slang"
mkdir -p "$out/ptx" && "$build" -q --targets ptx -o "$out/ptx" "$here/values.slang"
mv "$out/ptx/values.dgpb" "$out/values_ptx.dgpb"
"$build" -q --targets wgsl -o "$out/wgsl" "$here/double.slang"
mv "$out/wgsl/double.dgpb" "$out/wgsl_only.dgpb"
head -c 100 "$out/double.dgpb" >"$out/truncated.dgpb"
"$build" -q --targets spirv -o "$out" "$here/min_lod.slang"
for stages in mesh tessellation geometry; do
    "$build" -q --targets spirv -o "$out" "$here/../../fixtures/stages/$stages.slang"
done
"$build" -q --targets spirv -o "$out" "$here/../../fixtures/plain/same_name_namespaces.slang"
"$build" -q --targets spirv -o "$out" "$here/../../fixtures/plain/particles.slang"
"$build" -q --targets spirv -o "$out" "$here/../../fixtures/plain/bindless_materials.slang"
"$build" -q --targets spirv,wgsl -o "$out" "$here/../../fixtures/plain/target_guards.slang"
for draw in tessellation geometry mesh input_attachment deferred; do
    "$build" -q --targets spirv -o "$out" "$here/draw_$draw.slang"
done
"$dump" --extract spirv/computeMain -o "$out/code.spv" "$out/double.dgpb"
python3 - "$out/double.dgpb" "$out/code.spv" "$out/flipped.dgpb" <<'PY'
import sys
bundle = bytearray(open(sys.argv[1], 'rb').read())
code = open(sys.argv[2], 'rb').read()
at = bundle.find(code)
assert at > 0 and bundle.count(code) == 1, "the code blob is not found once"
bundle[at + len(code) // 2] ^= 0x01
open(sys.argv[3], 'wb').write(bundle)
PY
printf '\001\000\000\000\002\000\000\000\003\000\000\000\004\000\000\000' >"$out/input.bin"
printf '\002\000\000\000\004\000\000\000\006\000\000\000\010\000\000\000' >"$out/expected.bin"
printf '\014\000\000\000\027\000\000\000' >"$out/same_name_expected.bin"
printf '\001\000\000\000\002\000' >"$out/six_bytes.bin"
echo "fixtures in $out"
