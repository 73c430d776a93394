#!/usr/bin/env bash
# tests/gpu/run-idioms.sh - the renderer idioms on a machine with an NVIDIA GPU (CI never
# runs it; docs/conformance.md, "GPU run"), from .gpu/idioms/ (tests/gpu/prepare-idioms.sh):
# the same requests as the lavapipe tests (tests/run/CMakeLists.txt, build_header_host), on
# the GPU's Vulkan driver, and the header's host on CUDA. Writes idioms.txt into $OUT (or
# ./gpu-out); exits non-zero when a case fails.
set -u
cd "$(dirname "$0")/../.."
out=${OUT:-gpu-out}
mkdir -p "$out"
if ! ldconfig -p | grep -q libvulkan.so.1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
fi
[ -e /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] &&
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
g=.gpu/idioms
export LD_LIBRARY_PATH=$PWD/$g/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
run=$g/dgpb-run
failed=0
case_() { # name command...
    local name=$1; shift
    if "$@" >"$out/$name.log" 2>&1; then
        echo "ok   $name"
    else
        echo "FAIL $name (exit $?): $(tail -3 "$out/$name.log" | tr '\n' ' ')"
        failed=1
    fi
}
expect_stdout() { # want command...
    local want=$1; shift
    local got
    got=$("$@") || return 1
    [ "$got" = "$want" ] || { echo "got: $got"; return 1; }
}
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    case_ append_consume_buffers expect_stdout "alive=f32:10,11,12,1,0,0,0,0
alive.counter=i32:1
dead.counter=i32:3" "$run" -q "$g/particles.dgpb" emit --threads 1 --set origin=1,2,3 --set count=1 \
        --in dead=f32:0,0,0,0,0,0,0,0,0,0,0,0,9,9,9,0.5 --in dead.counter=i32:4 --size alive=32 \
        --in alive.counter=i32:0 --print alive:f32 --print alive.counter:i32 --print dead.counter:i32
    case_ bindless_materials expect_stdout "target=f32:0,0,1,1,1,0,0,1,0,0.5,0,1,0,0,1,1" \
        "$run" -q "$g/bindless_materials.dgpb" fullScreen --fragment shadeMaterial --vertices 3 \
        --in materialOfColumn=u32:2,0,1,2 \
        --texture 'materialTextures[0]=rgba32float:1x1' --in 'materialTextures[0]=f32:1,0,0,1' \
        --texture 'materialTextures[1]=rgba32float:1x1' --in 'materialTextures[1]=f32:0,1,0,1' \
        --texture 'materialTextures[2]=rgba32float:1x1' --in 'materialTextures[2]=f32:0,0,1,1' \
        --in 'materialTints[0]=f32:1,1,1,1' --in 'materialTints[1]=f32:0.5,0.5,0.5,1' \
        --attachment target=rgba32float:4x1 --print target:f32
    y=255,255,0,255 c=0,255,255,255 n=0,0,0,0
    px=1,0.5,0.5,1 pz=0.5,0.5,1,1
    gb=$out/gbuffer && mkdir -p "$gb"
    case_ gbuffer_pass "$run" -q "$g/draw_deferred.dgpb" geometryVertex --fragment geometryFragment \
        --vertices position=float3:-1,-1,0.5,0,-1,0.5,-1,3,0.5,-1,-1,1.5,3,-1,1.5,-1,1,1.5 \
        --vertices normal=float3:1,0,0,1,0,0,1,0,0,0,0,1,0,0,1,0,0,1 \
        --vertices albedo=float3:1,1,0,1,1,0,1,1,0,0,1,1,0,1,1,0,1,1 \
        --vertices material=uint:7,7,7,9,9,9 --set viewProj=1,0,0,0,0,1,0,0,0,0,0.5,0,0,0,0,1 \
        --attachment albedo=rgba8unorm:4x4 --attachment normal=rgba16float:4x4 \
        --attachment material=r32uint:4x4 --depth depth=depth32float:4x4:less:1 \
        --expect albedo=u8:$y,$y,$c,$c,$y,$y,$c,$c,$y,$c,$c,$n,$y,$n,$n,$n \
        --expect normal=f16:$px,$px,$pz,$pz,$px,$px,$pz,$pz,$px,$pz,$pz,$n,$px,$n,$n,$n \
        --expect material=u32:7,7,9,9,7,7,9,9,7,9,9,0,7,0,0,0 \
        --expect depth=f32:0.25,0.25,0.75,0.75,0.25,0.25,0.75,0.75,0.25,0.75,0.75,1,0.25,1,1,1 \
        --out albedo="$gb/albedo.bin" --out normal="$gb/normal.bin" --out depth="$gb/depth.bin"
    a=0.85,0.85,0,1 b=0,1.05,1.05,1 s=0.25,0.5,1,1
    case_ lighting_pass "$run" -q "$g/draw_deferred.dgpb" fullscreenVertex --fragment lightingFragment \
        --vertices 3 --texture gAlbedo=rgba8unorm:4x4 --in gAlbedo="$gb/albedo.bin" \
        --texture gNormal=rgba16float:4x4 --in gNormal="$gb/normal.bin" \
        --texture gDepth=r32float:4x4 --in gDepth="$gb/depth.bin" \
        --set lightDir=0.6,0,0.8 --set ambient=0.25 --set skyColor=$s \
        --attachment color=rgba32float:4x4 --tolerance 0.000001 \
        --expect color=f32:$a,$a,$b,$b,$a,$a,$b,$b,$a,$b,$b,$s,$a,$s,$s,$s
    for target in spirv ptx; do
        api=vulkan && [ $target = ptx ] && api=cuda
        work=$out/header-$target && mkdir -p "$work"
        case_ header_host_$target sh -c '"$1" fill "$2" >/dev/null &&
            "$3" --api "$4" -q "$5" simulate --threads 4 --in "FrameBlock=$2/frame.bin" \
                --in "particles=$2/particles.bin" --out "particles=$2/out.bin" &&
            "$1" check "$2"' sh "$g/header_host_$target" "$work" "$run" "$api" \
            "$g/header/particles_pass.dgpb"
    done
} | tee "$out/idioms.txt"
grep -q '^FAIL' "$out/idioms.txt" && exit 1
exit 0
