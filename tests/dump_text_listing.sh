#!/usr/bin/env bash
# dump_text_listing.sh DGPB_BUILD DGPB_DUMP GOLDEN_DIR - the text listings
# agree with the bundle and with each other (docs/format.md, "dgpb-dump"):
#  * a target without layouts points no entry at a layout, in the listing
#    and in --report's entries, and --layout TARGET/0 on it says the
#    target has none (exit 2);
#  * the launch and pipeline-constant spaces are spelled `launch` and
#    `pipeline_constant` in dgpb-dump's listing, as in dgpb-run --list;
#    the JSON view keeps the numbers;
#  * --report's summary counts each entry once, then its code blobs;
#  * dgpb-build --list --json lists only the targets that carry an entry
#    (ptx carries compute entries only), the targets the build writes.
set -u
build=$1 dump=$2 fixtures=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
golden=$fixtures/format/golden.dgpb

# golden.dgpb: spirv has one layout, wgsl none; k and k2 on both, rg on spirv.
"$dump" "$golden" > "$work/listing" || fail "dgpb-dump golden.dgpb"
sed -n '/^target wgsl/,$p' "$work/listing" > "$work/wgsl"
grep -q '^  entry k ' "$work/wgsl" || fail "no wgsl entry k: $(cat "$work/listing")"
! grep -q 'layout 0' "$work/wgsl" || fail "wgsl has no layouts, yet: $(grep 'layout 0' "$work/wgsl")"
grep -q '^  entry k (compute) \[64,1,1\], layout 0' "$work/listing" || fail "spirv's k lost its layout"
"$dump" --layout wgsl/0 "$golden" > "$work/out" 2>&1; s=$?
[ $s -eq 2 ] || fail "--layout wgsl/0: exit $s, not 2: $(cat "$work/out")"
grep -q "target 'wgsl' has no layouts" "$work/out" || fail "--layout wgsl/0: $(cat "$work/out")"
echo "ok: no layout listed or found where a target has none"

"$dump" --report "$work/r.html" "$golden" || fail "--report"
grep -q '3 entries on 2 targets, 5 code blobs' "$work/r.html" ||
    fail "report summary: $(grep -o 'class="meta".*' "$work/r.html")"
grep -q 'data-entry-count="3" data-code-count="5"' "$work/r.html" || fail "report counts"
echo "ok: the report counts entries once, and code blobs"
# Nor does the report name a layout where the target has none (wgsl), and it does on spirv.
python3 - "$work/r.html" <<'EOF' || fail "the report's layouts"
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
metas = re.findall(r'<section class="entry"[^>]* data-target="(\w+)".*?<p class="meta">(.*?)</p>', page, re.S)
assert metas, "no entry sections"
for target, meta in metas:
    named = "&middot; layout " in meta
    if named != (target == "spirv"):
        sys.exit("%s: %s" % (target, meta))
EOF
echo "ok: the report names no layout where a target has none"

# Push constants (launch) and specialization constants (pipeline constants).
for m in push_constants spec_constants; do
    "$build" --no-cache --no-layouts -q --targets spirv -o "$work" "$fixtures/plain/$m.slang" ||
        fail "build $m"
done
"$dump" "$work/push_constants.dgpb" > "$work/push"
"$dump" "$work/spec_constants.dgpb" > "$work/spec"
! grep -q '429496729[45]' "$work/push" "$work/spec" || fail "a space as a number: $(grep -h 429496729 "$work/push" "$work/spec")"
grep -Eq ' launch +[0-9]+ ' "$work/push" || fail "no launch row: $(cat "$work/push")"
grep -Eq ' pipeline_constant +[0-9]+ ' "$work/spec" || fail "no pipeline_constant row: $(cat "$work/spec")"
"$dump" --json "$work/push_constants.dgpb" | grep -Eq '"space":[[:space:]]*4294967295' || fail "the JSON view lost the number"
echo "ok: launch and pipeline_constant spelled out in the listing, numbers in JSON"

"$build" --list --json "$fixtures/build/render.slang" > "$work/list.json" || fail "--list --json render"
grep -q '^  "targets": \["spirv", "wgsl"\],' "$work/list.json" ||
    fail "render's targets: $(grep '^  "targets"' "$work/list.json")"
"$build" --no-cache --no-layouts -q -o "$work/r" "$fixtures/build/render.slang" || fail "build render"
"$dump" "$work/r/render.dgpb" | grep -o '^target [a-z]*' | tr '\n' ' ' > "$work/written"
[ "$(cat "$work/written")" = "target spirv target wgsl " ] || fail "render writes: $(cat "$work/written")"
echo "ok: --list --json lists the targets the build writes"
