#!/usr/bin/env bash
# tests/gpu/prepare-idioms.sh [BUILD] - prepares .gpu/idioms/ for tests/gpu/run-idioms.sh: the
# renderer idioms' bundles (append and consume buffers, a deferred G-buffer and lighting pass,
# bindless materials, a uniform block and particles filled from the C header on spirv and
# ptx), dgpb-run and the header's host, built here (the GPU machine builds nothing).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
out=.gpu/idioms
rm -rf "$out" && mkdir -p "$out/lib" "$out/header"
cmake --build "$build" --target dgpb-build dgpb-run >/dev/null
cp "$build/dgpb-run" "$out/" && strip "$out/dgpb-run"
for lib in libcrypto.so.3 libcjson.so.1; do # what dgpb-run links that a GPU machine may lack
    cp -L "$(ldconfig -p | sed -n "s/.*$lib (libc6,x86-64) => //p" | head -1)" "$out/lib/"
done
dgpb=("$build/dgpb-build" -q --no-cache --targets spirv -o "$out")
"${dgpb[@]}" fixtures/plain/particles.slang
"${dgpb[@]}" fixtures/plain/bindless_materials.slang
"${dgpb[@]}" tests/run/draw_deferred.slang
"$build/dgpb-build" -q --no-cache --targets spirv,wgsl,ptx --emit-header -o "$out/header" \
    fixtures/header/particles_pass.slang
for target in spirv ptx; do
    gcc -std=c11 -O2 -DHOST_TARGET="$target" -I "$out/header" tests/header_host.c \
        -o "$out/header_host_$target"
done
rm -f "$out"/*.bundle.json "$out"/header/*.bundle.json
du -sh "$out"
