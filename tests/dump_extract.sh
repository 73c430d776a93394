#!/usr/bin/env bash
# dump_extract.sh DUMP BUNDLE - --extract writes exactly the blob whose size and
# SHA-256 the JSON view lists, for an entry's code and for a layout.
set -eu
dump=$1 bundle=$2
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
"$dump" --json "$bundle" >"$dir/view.json"
for sel in spirv/k wgsl/k2 spirv/layout/0; do
    "$dump" --extract "$sel" -o "$dir/blob" "$bundle"
    sha=$(sha256sum "$dir/blob" | cut -d' ' -f1)
    size=$(stat -c %s "$dir/blob")
    # Whole lines only, and the size listed with this very blob (the line before its sha256).
    grep -qx "[[:space:]]*\"sha256\":	\"$sha\"" "$dir/view.json" || { echo "FAIL: $sel sha $sha not in the view"; exit 1; }
    grep -B1 -x "[[:space:]]*\"sha256\":	\"$sha\"" "$dir/view.json" | grep -qx "[[:space:]]*\"size\":	$size," ||
        { echo "FAIL: $sel size $size is not the view's for sha $sha"; exit 1; }
    echo "$sel: $size bytes, sha256 $sha"
done
