#!/bin/sh
# gather_bundles.sh DGPB_BUILD BUILT OUT_DIR MODULE... - gathers each
# conformance module's bundle into OUT_DIR from BUILT, where
# crosscheck_bundles (which ctest runs first) built every fixture module
# (tests/crosscheck/build_bundles.sh: BUILT/<folder>/<module>.dgpb for
# fixtures/<folder>/<module>.slang, with the same options: every target the
# host triple loads, a `// dgpb-targets:` line's targets, a folder's
# include/): building them a second time would only repeat the same bytes.
# A bundle missing there, or older than DGPB_BUILD (this test run alone), is
# built here with those options. Stops at the first failure.
set -e
build=$1
built=$2
out=$3
shift 3
rm -rf "$out"
mkdir -p "$out"
for module in "$@"; do
    stem=$(basename "$module" .slang)
    dir=$(dirname "$module")
    bundle="$built/$(basename "$dir")/$stem.dgpb"
    if [ -f "$bundle" ] && [ ! "$bundle" -ot "$build" ]; then
        cp "$bundle" "$out/$stem.dgpb"
        cp "${bundle%.dgpb}.bundle.json" "$out/$stem.bundle.json"
        echo "gathered $stem.dgpb"
        continue
    fi
    targets=$(head -n 5 "$module" | sed -n 's#^// dgpb-targets:[[:space:]]*\([a-z0-9,]*\).*#\1#p' | head -n 1)
    set -- # the loop list was expanded once; the positional parameters now hold the options
    [ -z "$targets" ] || set -- --targets "$targets"
    [ ! -d "$dir/include" ] || set -- "$@" -I "$dir/include"
    "$build" -q "$@" -o "$out" "$module"
    echo "built $stem.dgpb${targets:+ ($targets)}"
done
