#!/usr/bin/env bash
# tools/regen-build-fixtures.sh [MODULE...] - rebuilds the golden views
# fixtures/{build,plain,stages}/<name>.bundle.json of every fixture module, and the
# golden C headers fixtures/header/<name>.h (dgpb-build --emit-header), or only
# those of the MODULEs named (e.g. a new one), with dgpb-build and the embedded
# compiler.
# Run it only when a change to the output is intended, then review
# `git diff fixtures/build fixtures/plain fixtures/stages` before committing. For each golden
# that changes it prints dgpb-dump --diff OLD NEW first (docs/diff.md): which
# changes break a host's binding and which only change code.
set -euo pipefail
# Goldens come from this build alone, never from a cache of an earlier one.
export DGPB_NO_CACHE=1
modules=()
for module in "$@"; do modules+=("$(realpath "$module")"); done
cd "$(dirname "$0")/.."
[ ${#modules[@]} -gt 0 ] ||
    modules=(fixtures/build/*.slang fixtures/plain/*.slang fixtures/stages/*.slang fixtures/header/*.slang)
cmake -S . -B build >/dev/null
cmake --build build --target dgpb-build dgpb-dump -j"$(nproc)" >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for module in "${modules[@]}"; do
    stem=$(basename "$module" .slang)
    case $stem in plain_lib_*) continue ;; esac # imported libraries: no entries
    dir=$(dirname "$module")
    targets=$(sed -n '1,5s|^// dgpb-targets: *||p' "$module" | head -n 1)
    includes=()
    [ -d "$dir/include" ] && includes=(-I "$dir/include")
    if [ "$(basename "$dir")" = header ]; then # a golden C header only
        build/dgpb-build --compiler embedded -q --no-layouts --emit-header ${targets:+--targets "$targets"} "$module" -o "$tmp"
        diff -u "$dir/$stem.h" "$tmp/$stem.h" | sed 's/^/    /' || true
        cp "$tmp/$stem.h" "$dir/$stem.h"
        echo "regenerated $dir/$stem.h"
        continue
    fi
    build/dgpb-build --compiler embedded -q ${targets:+--targets "$targets"} "${includes[@]}" "$module" -o "$tmp"
    if [ -f "$dir/$stem.bundle.json" ] && ! cmp -s "$dir/$stem.bundle.json" "$tmp/$stem.bundle.json"; then
        build/dgpb-dump --diff "$dir/$stem.bundle.json" "$tmp/$stem.dgpb" | sed 's/^/    /' || true
    fi
    cp "$tmp/$stem.bundle.json" "$dir/$stem.bundle.json"
    echo "regenerated $dir/$stem.bundle.json"
done
