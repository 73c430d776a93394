#!/bin/sh
# gather_bundles.sh BUILT OUT_DIR MODULE... - gathers each conformance module's
# bundle into OUT_DIR from BUILT, where crosscheck_bundles built every fixture
# module (tests/crosscheck/build_bundles.sh: BUILT/<folder>/<module>.dgpb for
# fixtures/<folder>/<module>.slang, with the same options: every target the
# host triple loads, a `// dgpb-targets:` line's targets, a folder's include/).
# Building them a second time would only repeat the same bytes. Exits 1,
# naming the module, when one was not built; stops at the first.
set -e
built=$1
out=$2
shift 2
rm -rf "$out"
mkdir -p "$out"
for module in "$@"; do
    stem=$(basename "$module" .slang)
    folder=$(basename "$(dirname "$module")")
    bundle="$built/$folder/$stem.dgpb"
    if [ ! -f "$bundle" ]; then
        echo "FAIL: $module was not built into $bundle (see crosscheck_bundles)"
        exit 1
    fi
    cp "$bundle" "$out/$stem.dgpb"
    cp "$built/$folder/$stem.bundle.json" "$out/$stem.bundle.json"
    echo "gathered $stem.dgpb"
done
