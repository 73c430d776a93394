#!/usr/bin/env bash
# tools/regen-build-fixtures.sh - rebuilds fixtures/build/<name>.bundle.json
# for every fixtures/build/*.slang with dgpb-build and the embedded compiler.
# Run it only when a change to the output is intended, then review
# `git diff fixtures/build` before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build >/dev/null
cmake --build build --target dgpb-build -j"$(nproc)" >/dev/null
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for module in fixtures/build/*.slang; do
    stem=$(basename "$module" .slang)
    build/dgpb-build -q "$module" -o "$tmp"
    cp "$tmp/$stem.bundle.json" "fixtures/build/$stem.bundle.json"
    echo "regenerated fixtures/build/$stem.bundle.json"
done
