#!/usr/bin/env bash
# tests/gpu/prepare-gpu.sh BUILD_DIR - prepares .gpu/ (ignored by git) for
# tests/gpu/run-gpu.sh on a GPU machine without the project's dependencies:
# the host programs and dgpb-run, the libraries they link, the conformance
# bundles, dgpb-run's timing kernel (tests/run/double.slang) and the
# Slang-style compute suite's bundles (fixtures/compute), a compressed Node.js and the npm package webgpu (Dawn),
# and, with a build that has the slang-rhi example host, that host, the replay shim and the suite's bundles with
# layouts. Run after a build;
# needs network access to npm once for webgpu@0.6.2.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
rm -rf .gpu && mkdir -p .gpu/bin .gpu/lib .gpu/webgpu .gpu/bundles .gpu/compute .gpu/compute-ptx
cmake --build "$build" --target cuda-run conformance-vulkan conformance-export dgpb-build \
    dgpb-run >/dev/null
cp "$build/tests/gpu/cuda-run" "$build/tests/conformance/conformance-vulkan" \
   "$build/tests/conformance/conformance-export" "$build/dgpb-run" .gpu/bin/
strip .gpu/bin/*
for lib in libcrypto.so.3 libcjson.so.1; do # what the hosts link that a GPU machine may lack
    cp -L "$(ldconfig -p | sed -n "s/.*$lib (libc6,x86-64) => //p" | head -1)" .gpu/lib/
done
tests/conformance/gather_bundles.sh "$build/dgpb-build" "$build/tests/crosscheck/bundles" .gpu/bundles \
    fixtures/conformance/*.slang fixtures/build/render.slang \
    $(ls fixtures/plain/*.slang | grep -v '/plain_lib_') >/dev/null
"$build/dgpb-build" -q --no-layouts --targets spirv,ptx -o .gpu/bundles tests/run/double.slang
tests/compute/build_bundles.sh "$build/dgpb-build" .gpu/compute fixtures/compute/*.slang >/dev/null
# The suite again for ptx (with spirv, whose code lends value types where PTX
# keeps a value as bytes), each module on its own: one that ptx cannot express
# leaves its message in <stem>.why for run_suite.sh --api cuda.
for module in fixtures/compute/*.slang; do
    stem=$(basename "$module" .slang)
    "$build/dgpb-build" -q --no-layouts --targets spirv,ptx -I fixtures/compute/lib -o .gpu/compute-ptx \
        "$module" 2>.gpu/compute-ptx/"$stem".why && rm -f .gpu/compute-ptx/"$stem".why
done
# slang-rhi through the replay shim (docs/host.md), when the build has the example host
# (-DDGPB_SLANG_RHI_DIR) and a native Slang records the layouts (-DDGPB_SLANG_ROOT):
# dgpb-rhi-run, the shim and the suite's bundles for spirv and ptx with their layouts.
rhi_slang=$(sed -n 's/^DGPB_SLANG_ROOT:PATH=//p' "$build/CMakeCache.txt")
if [ -x "$build/examples/slang-rhi/dgpb-rhi-run" ] && [ -n "$rhi_slang" ]; then
    mkdir -p .gpu/rhi-bundles
    cp "$build/examples/slang-rhi/dgpb-rhi-run" .gpu/bin/ && strip .gpu/bin/dgpb-rhi-run
    cp "$build/libdgpb-slang-shim.so" .gpu/lib/
    for module in fixtures/compute/*.slang; do
        stem=$(basename "$module" .slang)
        "$build/dgpb-build" -q --slangc "$rhi_slang/bin/slangc" --targets spirv,ptx \
            -I fixtures/compute/lib -o .gpu/rhi-bundles "$module" 2>.gpu/rhi-bundles/"$stem".why &&
            rm -f .gpu/rhi-bundles/"$stem".why
    done
fi
rm -f .gpu/bundles/*.bundle.json .gpu/compute/*.bundle.json .gpu/compute-ptx/*.bundle.json \
    .gpu/rhi-bundles/*.bundle.json
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm init -y >/dev/null && npm install --no-audit --no-fund webgpu@0.6.2 >/dev/null)
cp "$tmp/node_modules/webgpu/index.js" "$tmp/node_modules/webgpu/package.json" .gpu/webgpu/
xz -c "$tmp/node_modules/webgpu/dist/linux-x64/dawn.node" >.gpu/webgpu/dawn.node.xz
xz -c "$(readlink -f "$(command -v node)")" >.gpu/node.xz
grep -qx '/.gpu/' .git/info/exclude || echo /.gpu/ >>.git/info/exclude
du -sh .gpu
