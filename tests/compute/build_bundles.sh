#!/bin/sh
# build_bundles.sh DGPB_BUILD OUT_DIR MODULE... - builds each module of the
# Slang-style compute suite (fixtures/compute/*.slang) into OUT_DIR with
# dgpb-build, for the targets of its `//DGPB_TARGETS:` line (default spirv
# and wgsl), with `-I` the `lib` folder next to it (imported modules and
# included headers). Stops at the first module that does not build.
set -e
build=$1
out=$2
shift 2
if [ ! -x "$build" ] || [ $# -eq 0 ]; then
    echo "usage: build_bundles.sh DGPB_BUILD OUT_DIR MODULE..." >&2
    exit 2
fi
mkdir -p "$out"
for module in "$@"; do
    targets=$(sed -n 's#^//DGPB_TARGETS:[[:space:]]*\([a-z0-9,]*\).*#\1#p' "$module" | head -n 1)
    targets=${targets:-spirv,wgsl}
    "$build" -q --targets "$targets" -I "$(dirname "$module")/lib" -o "$out" "$module"
    echo "built $(basename "$module" .slang).dgpb ($targets)"
done
