#!/usr/bin/env bash
# report.sh BUILD DUMP OUTDIR - dgpb-dump --report on real bundles, checked in headless Chromium.
#
# Builds fixtures/build/features.slang with dgpb-build into OUTDIR, writes its
# report and JSON view, and has check_report.py open the page in Chromium
# (no console errors, nothing loaded) and compare every figure, capability set
# and parameter row with the JSON view; the same for the format's golden
# bundle (shared blobs, a layout, a ray-tracing entry) under a file name full
# of HTML's special characters; the options fixture's project options; and pages with --diff, whose changes must
# be those of dgpb-dump --diff --json, each as dgpb-dump --diff words it.
# Every page draws each target in one colour. The screenshots stay in OUTDIR
# (report.png, golden.png, diff.png); the bundles and pages in OUTDIR/work.
set -u
build=$1 dump=$2 shots=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
check=("${PYTHON:-python3}" "$here/check_report.py")
out="$shots/work"
rm -rf "$out" "$shots/report.png" "$shots/golden.png" "$shots/diff.png" && mkdir -p "$out/bundle" || exit 1
status=0

if ! "$build" -q "$repo/fixtures/build/features.slang" -o "$out/bundle"; then
    echo "FAIL: dgpb-build exited with status $?"; exit 1
fi
"$dump" --report "$out/report.html" "$out/bundle/features.dgpb" || { echo "FAIL: dgpb-dump --report"; exit 1; }
"$dump" --json "$out/bundle/features.dgpb" >"$out/features.json" || exit 1
"${check[@]}" "$out/report.html" --json "$out/features.json" --screenshot "$shots/report.png" || status=1

odd="$out/odd <b>&amp; \"'name"
cp "$repo/fixtures/format/golden.dgpb" "$odd.dgpb" || exit 1
"$dump" --report "$out/golden.html" "$odd.dgpb" || { echo "FAIL: dgpb-dump --report"; exit 1; }
"$dump" --json "$odd.dgpb" >"$out/golden.json" || exit 1
grep -q '<b>' "$out/golden.html" && { echo "FAIL: the file name reached the page unescaped"; status=1; }
grep -q 'odd &lt;b&gt;&amp;amp; &quot;&#39;name.dgpb' "$out/golden.html" ||
    { echo "FAIL: the page does not show the escaped file name"; status=1; }
"${check[@]}" "$out/golden.html" --json "$out/golden.json" --screenshot "$shots/golden.png" || status=1

# A bundle built with project options (the format's options fixture): the page names each.
"$dump" --report "$out/options.html" "$repo/fixtures/format/options.dgpb" || { echo "FAIL: dgpb-dump --report"; exit 1; }
"$dump" --json "$repo/fixtures/format/options.dgpb" >"$out/options.json" || exit 1
grep -q 'data-option="matrix_layout"' "$out/options.html" ||
    { echo "FAIL: the page of a bundle built with options does not name them"; status=1; }
"${check[@]}" "$out/options.html" --json "$out/options.json" || status=1

# With --diff: the page of NEW, and the changes from OLD as dgpb-dump --diff --json lists them
# (a parameter row moved to another binding; tests/diff's modules).
pairs="$repo/tests/diff/modules"
for m in base binding_moved; do
    "$build" -q --targets spirv "$pairs/$m.slang" -o "$out/bundle" ||
        { echo "FAIL: dgpb-build $m.slang exited with status $?"; exit 1; }
done
"$dump" --report "$out/diff.html" --diff "$out/bundle/base.dgpb" "$out/bundle/binding_moved.dgpb" ||
    { echo "FAIL: dgpb-dump --report --diff"; exit 1; }
"$dump" --json "$out/bundle/binding_moved.dgpb" >"$out/binding_moved.json" || exit 1
"$dump" --diff --json "$out/bundle/base.dgpb" "$out/bundle/binding_moved.dgpb" >"$out/changes.json"
[ $? -eq 1 ] || { echo "FAIL: dgpb-dump --diff found no difference"; exit 1; }
"$dump" --diff "$out/bundle/base.dgpb" "$out/bundle/binding_moved.dgpb" >"$out/changes.txt"
"${check[@]}" "$out/diff.html" --json "$out/binding_moved.json" --diff-json "$out/changes.json" \
    --diff-text "$out/changes.txt" --screenshot "$shots/diff.png" || status=1
# A parameter row added: the change names the row as text (kind, space, binding), as
# dgpb-dump --diff prints it, never the row's JSON.
"$build" -q --targets spirv "$pairs/param_added.slang" -o "$out/bundle" ||
    { echo "FAIL: dgpb-build param_added.slang exited with status $?"; exit 1; }
"$dump" --report "$out/added.html" --diff "$out/bundle/base.dgpb" "$out/bundle/param_added.dgpb" ||
    { echo "FAIL: dgpb-dump --report --diff"; exit 1; }
"$dump" --json "$out/bundle/param_added.dgpb" >"$out/param_added.json" || exit 1
"$dump" --diff --json "$out/bundle/base.dgpb" "$out/bundle/param_added.dgpb" >"$out/added.json"
"$dump" --diff "$out/bundle/base.dgpb" "$out/bundle/param_added.dgpb" >"$out/added.txt"
"${check[@]}" "$out/added.html" --json "$out/param_added.json" --diff-json "$out/added.json" \
    --diff-text "$out/added.txt" || status=1

# Written atomically: a failed report leaves the previous file as it was.
cp "$out/report.html" "$out/before.html"
"$dump" --report "$out/report.html" "$repo/fixtures/format/corrupt/$(ls "$repo/fixtures/format/corrupt" | grep -m1 '\.dgpb$')" 2>/dev/null
cmp -s "$out/report.html" "$out/before.html" || { echo "FAIL: a failed --report changed the page"; status=1; }
ls "$out" | grep -q '\.tmp' && { echo "FAIL: a temporary file was left behind"; status=1; }
[ $status -eq 0 ] && echo "ok: the reports render and match their JSON views"
exit $status
