#!/usr/bin/env bash
# tests/gpu/run-gpu.sh - the conformance run on a machine with an NVIDIA GPU
# (docs/conformance.md, "GPU run"). CI never runs it: it needs the GPU.
#
# Expects, prepared on the build machine (tests/gpu/prepare-gpu.sh):
#   .gpu/bin/{conformance-vulkan,conformance-export,cuda-run,dgpb-run}  the hosts
#   .gpu/bundles/*.dgpb    the conformance bundles (spirv, wgsl, ptx), double.dgpb
#   .gpu/compute/*.dgpb    the Slang-style compute suite's bundles (spirv, wgsl)
#   .gpu/compute-ptx/      the same modules for ptx (<stem>.why: why ptx cannot)
#   .gpu/node.xz           a Node.js binary; .gpu/webgpu/ the npm package webgpu
#                          with dist/linux-x64/dawn.node compressed as dawn.node.xz
#   .gl/*.deb              the Vulkan loader, when the machine has none
#   .gpu/bin/dgpb-rhi-run, .gpu/lib/libdgpb-slang-shim.so, .gpu/rhi-bundles/
#                          the slang-rhi host and the suite with layouts (optional)
# Writes vulkan.txt, cuda.txt, dgpb-run.txt, compute-vulkan.txt,
# compute-cuda.txt, slang-rhi.txt (with the slang-rhi host), dawn.txt,
# compute-dawn.txt and gpu.txt into $OUT
# (or ./gpu-out). DGPB_GPU_SKIP_DAWN=1 leaves out the WebGPU run.
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
export LD_LIBRARY_PATH=$PWD/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; uname -r; } | tee "$out/gpu.txt"

echo "== Vulkan"
.gpu/bin/conformance-vulkan .gpu/bundles 2>&1 | tee "$out/vulkan.txt"
echo "== CUDA driver API (PTX)"
.gpu/bin/cuda-run .gpu/bundles 2>&1 | tee "$out/cuda.txt"
echo "== dgpb-run: GPU time of each dispatch (double.dgpb, 1M elements, 20 dispatches)"
: >"$out/dgpb-run.txt"
for api in vulkan cuda; do
    .gpu/bin/dgpb-run -v --api $api --time --repeat 20 .gpu/bundles/double.dgpb computeMain \
        --threads 1048576 --in input=i32:1,2,3,4 --size input=4194304 --size output=4194304 \
        --expect output=i32:2,4,6,8,0 2>&1 | tee -a "$out/dgpb-run.txt"
    echo "$api: exit ${PIPESTATUS[0]}" | tee -a "$out/dgpb-run.txt"
done
echo "== The compute suite with dgpb-run (Vulkan)"
tests/compute/run_suite.sh --allow-unsupported .gpu/bin/dgpb-run .gpu/compute fixtures/compute/*.slang 2>&1 |
    tee "$out/compute-vulkan.txt"
echo "== The compute suite with dgpb-run (CUDA, the ptx target)"
tests/compute/run_suite.sh --allow-unsupported --api cuda .gpu/bin/dgpb-run .gpu/compute-ptx \
    fixtures/compute/*.slang 2>&1 | tee "$out/compute-cuda.txt"
if [ -x .gpu/bin/dgpb-rhi-run ]; then
    # One file for both APIs: $OUT brings back 8 files at most (DGPB_GPU_SKIP_DAWN=1 leaves room).
    for api in cuda vulkan; do
        echo "== The compute suite on slang-rhi through the replay shim ($api)"
        tests/slang_rhi/rhi_suite.sh --api $api --bundles .gpu/rhi-bundles - .gpu/bin/dgpb-run \
            .gpu/bin/dgpb-rhi-run - /tmp/rhi-$api /tmp/rhi-asked-$api.txt fixtures/compute/*.slang 2>&1
        grep -h "dgpb-rhi-run: device" /tmp/rhi-$api/*/rhi.log 2>/dev/null | sort | uniq -c
    done | tee "$out/slang-rhi.txt"
fi
[ "${DGPB_GPU_SKIP_DAWN:-}" = 1 ] && { echo "== done"; exit 0; }
echo "== WebGPU (Dawn)"
xz -dc .gpu/node.xz >/tmp/node && chmod +x /tmp/node
mkdir -p /tmp/webgpu/dist/linux-x64
cp .gpu/webgpu/index.js .gpu/webgpu/package.json /tmp/webgpu/
xz -dc .gpu/webgpu/dawn.node.xz >/tmp/webgpu/dist/linux-x64/dawn.node
.gpu/bin/conformance-export /tmp/conformance-export >/dev/null
/tmp/node tests/gpu/dawn_run.mjs /tmp/webgpu/index.js .gpu/bundles /tmp/conformance-export 2>&1 | tee "$out/dawn.txt"
echo "== The compute suite through Dawn (WebGPU)"
/tmp/node tests/compute/run_dawn.mjs --allow-unsupported /tmp/webgpu/index.js .gpu/compute fixtures/compute/*.slang 2>&1 |
    tee "$out/compute-dawn.txt"
echo "== done"
