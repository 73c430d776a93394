#!/bin/sh
# build_bundles.sh DGPB_BUILD OUT_DIR MODULE... - builds each conformance module
# into OUT_DIR with dgpb-build (every target the host triple loads, so that the
# Vulkan, WebGPU and CUDA hosts all find their code); stops at the first failure.
#
# A module whose first lines hold `// dgpb-targets: spirv,ptx` is built for
# those targets only (--targets); a module with an `include` folder next to
# it gets `-I` that folder (fixtures/plain/).
set -e
build=$1
out=$2
shift 2
mkdir -p "$out"
for module in "$@"; do
    dir=$(dirname "$module")
    targets=$(head -n 5 "$module" | sed -n 's#^// dgpb-targets:[[:space:]]*\([a-z0-9,]*\).*#\1#p' | head -n 1)
    set --  # the loop list was expanded once; the positional parameters now hold the options
    if [ -n "$targets" ]; then
        set -- --targets "$targets"
    fi
    if [ -d "$dir/include" ]; then
        set -- "$@" -I "$dir/include"
    fi
    "$build" -q "$@" -o "$out" "$module"
    echo "built $(basename "$module" .slang).dgpb${targets:+ ($targets)}"
done
