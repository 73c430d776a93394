#!/usr/bin/env bash
# golden_diff.sh FIXTURE BUILD DUMP MODULE - feeds tests/build_fixture.sh a
# deliberately altered golden (one binding moved, one code hash changed) and
# checks that it fails and prints the semantic diff before the text diff.
set -u
fixture=$1 build=$2 dump=$3 module=$4
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
stem=$(basename "$module" .slang)
"$build" -q --targets spirv "$module" -o "$work" || { echo "FAIL: dgpb-build failed"; exit 1; }
# The same text with two edits, as a golden would be had the build moved weights (binding 3 -> 7)
# and changed copy's code.
python3 - "$work/$stem.bundle.json" "$work/golden.bundle.json" <<'PY' || exit 1
import json, re, sys
text = open(sys.argv[1]).read()
copy = next(e for e in json.loads(text)["targets"][0]["entries"] if e["name"] == "copy")
text, n1 = re.subn(r'("name":\t"weights",[^}]*?"binding":\t)3,', r"\g<1>7,", text, count=1)
sha = copy["code"]["sha256"]
text, n2 = re.subn(r'"size":\t(\d+),(\s*)"sha256":\t"' + sha + '"',
                   lambda m: f'"size":\t{int(m.group(1)) + 4},{m.group(2)}"sha256":\t"{"0" * 64}"',
                   text, count=1)
assert n1 == 1 and n2 == 1, (n1, n2)
open(sys.argv[2], "w").write(text)
PY
out=$("$fixture" "$build" "$dump" "$module" "$work/golden.bundle.json" 2>&1); status=$?
printf '%s\n' "$out"
fail() { echo "FAIL: $*"; exit 1; }
[ $status -eq 1 ] || fail "build_fixture.sh exited with $status, not 1"
printf '%s\n' "$out" | grep -q "^spirv/blur: param #2 'weights': binding 7 -> 3  BREAKING$" ||
    fail "no semantic line for the moved binding"
printf '%s\n' "$out" | grep -Eq "^spirv/copy: code [0-9]+ -> [0-9]+ bytes \(-4\), sha256 000000000000\.\. -> [0-9a-f]{12}\.\.$" ||
    fail "no semantic line for the changed code"
printf '%s\n' "$out" | grep -q "^1 breaking change, 1 code-only change$" || fail "no summary line"
first_semantic=$(printf '%s\n' "$out" | grep -n "^semantic diff" | cut -d: -f1)
first_text=$(printf '%s\n' "$out" | grep -n "^text diff" | cut -d: -f1)
[ -n "$first_semantic" ] && [ -n "$first_text" ] && [ "$first_semantic" -lt "$first_text" ] ||
    fail "the semantic diff does not come before the text diff"
echo "ok: the altered golden is reported with its semantic diff"
