#!/usr/bin/env bash
# build_fixture.sh BUILD DUMP MODULE GOLDEN [KEEP] - builds MODULE with dgpb-build and
# checks that the JSON view equals GOLDEN byte for byte, that dgpb-dump
# --verify accepts the bundle, and that dgpb-dump --json regenerates the view.
# When the view differs, it prints dgpb-dump --diff GOLDEN BUNDLE (what changed
# for a host, breaking changes marked) before the text diff.
# KEEP: a folder where a bundle that passed is kept for the fixture builders of
# the same ctest run (tests/crosscheck/build_bundles.sh): STEM.dgpb,
# STEM.bundle.json and STEM.run, the run's DGPB_TEST_RUN, which tells a bundle of
# this run from one of an earlier run.
set -u
build=$1 dump=$2 module=$3 golden=$4 keep=${5:-}
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
stem=$(basename "$module" .slang)
# A module may limit its targets with a "// dgpb-targets: LIST" line among its first five.
targets=$(sed -n '1,5s|^// dgpb-targets: *||p' "$module" | head -n 1)
# Headers of a fixture folder live in its include/ (dgpb-build -I).
includes=()
[ -d "$(dirname "$module")/include" ] && includes=(-I "$(dirname "$module")/include")
status=0
"$build" -q ${targets:+--targets "$targets"} "${includes[@]}" "$module" -o "$out" || status=$?
if [ "$status" -ne 0 ]; then
    echo "FAIL: dgpb-build exited with status $status"; exit 1
fi
if ! cmp -s "$golden" "$out/$stem.bundle.json"; then
    echo "FAIL: $out/$stem.bundle.json differs from $golden"
    echo "(if the change is intended: tools/regen-build-fixtures.sh, then review the diff)"
    # What changed for a host first (docs/diff.md), then the text itself.
    echo "semantic diff (dgpb-dump --diff GOLDEN NEW):"
    "$dump" --diff "$golden" "$out/$stem.dgpb" 2>&1 | head -60
    echo "text diff:"
    diff -u "$golden" "$out/$stem.bundle.json" | head -80
    exit 1
fi
"$dump" --verify "$out/$stem.dgpb" || { echo "FAIL: dgpb-dump --verify rejected the bundle"; exit 1; }
"$dump" --json "$out/$stem.dgpb" | cmp -s - "$out/$stem.bundle.json" ||
    { echo "FAIL: dgpb-dump --json does not regenerate the view"; exit 1; }
if [ -n "$keep" ] && [ -n "${DGPB_TEST_RUN:-}" ]; then
    mkdir -p "$keep" && rm -f "$keep/$stem.run" &&
        cp "$out/$stem.dgpb" "$out/$stem.bundle.json" "$keep/" &&
        printf '%s\n' "$DGPB_TEST_RUN" >"$keep/$stem.run" ||
        { echo "FAIL: cannot keep the bundle in $keep"; exit 1; }
fi
echo "ok: $stem.bundle.json matches its golden"
