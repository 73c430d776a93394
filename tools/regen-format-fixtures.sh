#!/usr/bin/env bash
# tools/regen-format-fixtures.sh - rewrites fixtures/format/ (the golden bundle,
# its JSON view and the malformed bundles) from tests/support.c and
# tests/corruptions.c. Run it only when the format or the golden model changes
# on purpose, then review `git diff fixtures/format` before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build >/dev/null
cmake --build build --target gen_format_fixtures -j"$(nproc)" >/dev/null
rm -rf fixtures/format/corrupt
mkdir -p fixtures/format/corrupt
build/tests/gen_format_fixtures fixtures/format
cmake -S . -B build >/dev/null # pick up added or removed malformed bundles
