#!/usr/bin/env bash
# build_reproducible.sh BUILD MODULE - two builds of one module, from different
# working folders, with a relative and an absolute module path, into different
# output folders, give byte-identical bundles and views.
set -eu
build=$1 module=$(realpath "$2")
a=$(mktemp -d) b=$(mktemp -d); trap 'rm -rf "$a" "$b"' EXIT
stem=$(basename "$module" .slang)
(cd "$(dirname "$module")" && "$build" -q "$stem.slang" -o "$a")
(cd / && "$build" -q -j1 "$module" -o "$b")
cmp "$a/$stem.dgpb" "$b/$stem.dgpb"
cmp "$a/$stem.bundle.json" "$b/$stem.bundle.json"
if grep -q "$(dirname "$module")" "$a/$stem.dgpb" "$a/$stem.bundle.json"; then
    echo "FAIL: the output names the module's folder"; exit 1
fi
echo "ok: identical bytes, no paths inside"
