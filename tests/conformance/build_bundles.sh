#!/bin/sh
# build_bundles.sh DGPB_BUILD OUT_DIR MODULE... - builds each conformance module
# into OUT_DIR with dgpb-build (every target the host triple loads, so that the
# Vulkan, WebGPU and CUDA hosts all find their code); stops at the first failure.
set -e
build=$1
out=$2
shift 2
mkdir -p "$out"
for module in "$@"; do
    "$build" -q -o "$out" "$module"
    echo "built $(basename "$module" .slang).dgpb"
done
