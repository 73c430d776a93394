#!/usr/bin/env bash
# build_pairs.sh BUILD OUT MODULES - builds every MODULES/*.slang for spirv into
# OUT (the pairs of dgpb-dump --diff's tests), and base.slang a second time
# into OUT/again (two identical builds).
set -eu
build=$1 out=$2 modules=$3
rm -rf "$out"; mkdir -p "$out/again"
for module in "$modules"/*.slang; do
    "$build" -q --targets spirv "$module" -o "$out" ||
        { echo "FAIL: dgpb-build $module exited with status $?"; exit 1; }
done
"$build" -q --targets spirv "$modules/base.slang" -o "$out/again"
echo "ok: built $(ls "$out"/*.dgpb | wc -l) bundles into $out"
