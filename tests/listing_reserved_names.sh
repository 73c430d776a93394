#!/usr/bin/env bash
# listing_reserved_names.sh DGPB_BUILD DGPB_DUMP DGPB_RUN FIXTURES - every listing spells a
# row's reserved space and binding by the vocabulary's names (vocabulary.def's
# DGPB_RESERVED rows; docs/format.md, "What the reader checks"): the space `launch`
# (0xFFFFFFFF), the space `pipeline_constant` (0xFFFFFFFE), the binding `inline`
# (0xFFFFFFFF, ptx), the same in dgpb-dump's listing, its --report page, its --diff
# lines and dgpb-run --list; the JSON view keeps the numbers.
set -u
build=$1 dump=$2 run=$3 fixtures=$4
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export DGPB_NO_CACHE=1 DGPB_SERVICE=off
B() { "$build" --no-layouts -q "$@"; }

# launch (push constants), pipeline_constant (specialization constants), inline (a ptx global
# value), and the same module with its value moved from a global to the entry's uniform.
mkdir -p "$work/old" "$work/new"
B --targets spirv -o "$work" "$fixtures/plain/push_constants.slang" || fail "build push_constants"
B --targets spirv -o "$work" "$fixtures/plain/spec_constants.slang" || fail "build spec_constants"
cat > "$work/old/gain.slang" <<'EOF'
uniform float gain;
RWStructuredBuffer<float> data;
[shader("compute")]
[numthreads(64, 1, 1)]
void amplify(uint3 id : SV_DispatchThreadID) { data[id.x] *= gain; }
EOF
cat > "$work/new/gain.slang" <<'EOF'
RWStructuredBuffer<float> data;
[shader("compute")]
[numthreads(64, 1, 1)]
void amplify(uint3 id : SV_DispatchThreadID, uniform float gain) { data[id.x] *= gain; }
EOF
B --targets spirv,ptx "$work/old/gain.slang" || fail "build old/gain"
B --targets spirv,ptx "$work/new/gain.slang" || fail "build new/gain"

# dgpb-dump's listing: the names in the space and binding columns, no reserved number.
"$dump" "$work/push_constants.dgpb" > "$work/push" || fail "dgpb-dump push_constants"
"$dump" "$work/spec_constants.dgpb" > "$work/spec" || fail "dgpb-dump spec_constants"
"$dump" "$work/old/gain.dgpb" > "$work/gain" || fail "dgpb-dump gain"
! grep -q '429496729[45]' "$work/push" "$work/spec" "$work/gain" ||
    fail "a reserved number in the listing: $(grep -h 429496729 "$work/push" "$work/spec" "$work/gain")"
grep -Eq ' launch +[0-9]+ ' "$work/push" || fail "no launch row: $(cat "$work/push")"
grep -Eq ' pipeline_constant +[0-9]+ ' "$work/spec" || fail "no pipeline_constant row: $(cat "$work/spec")"
grep -Eq '^ +0 +gain +value +ro +0 +inline +0 +4 ' "$work/gain" || fail "no inline binding: $(cat "$work/gain")"
# The space column is as wide as its widest name: the columns after it stay aligned.
header=$(grep -m1 ' space binding ' "$work/spec") row=$(grep -m1 ' pipeline_constant ' "$work/spec")
hcol=$(awk '{ print index($0, " space binding") + 6 }' <<< "$header")
rcol=$(awk '{ print index($0, "pipeline_constant") + 17 }' <<< "$row")
[ "$hcol" = "$rcol" ] || fail "the space column is not as wide as 'pipeline_constant': $header / $row"
echo "ok: dgpb-dump's listing spells launch, pipeline_constant and inline"

# dgpb-run --list (no device needed).
"$run" --list "$work/push_constants.dgpb" > "$work/run-push" || fail "dgpb-run --list push_constants"
"$run" --list --api cuda "$work/old/gain.dgpb" > "$work/run-gain" || fail "dgpb-run --list --api cuda gain"
grep -q ' space launch ' "$work/run-push" || fail "dgpb-run --list: $(cat "$work/run-push")"
grep -q '^  gain .* space 0 binding inline ' "$work/run-gain" || fail "dgpb-run --list: $(cat "$work/run-gain")"
! grep -q '429496729[45]' "$work/run-push" "$work/run-gain" || fail "dgpb-run --list printed a reserved number"
echo "ok: dgpb-run --list spells them alike"

# --report: the cells spell the names (the number in the tooltip and the data attributes).
for m in push_constants spec_constants old/gain; do
    "$dump" --report "$work/r.html" "$work/$m.dgpb" || fail "--report $m"
    python3 - "$work/r.html" "$m" <<'EOF' || fail "--report $m"
import re, sys
page, name = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
names = {("space", 4294967295): "launch", ("space", 4294967294): "pipeline_constant",
         ("binding", 4294967295): "inline"}
rows = re.findall(r'<tr class="param"[^>]* data-space="(\d+)" data-binding="(\d+)"[^>]*>(.*?)</tr>',
                  page)
assert rows, "no parameter rows"
seen = 0
for space, binding, cells in rows:
    tds = re.findall(r"<td[^>]*>(.*?)</td>", cells)
    for field, number, text in (("space", int(space), tds[4]), ("binding", int(binding), tds[5])):
        want = names.get((field, number), str(number))
        if text != want:
            sys.exit("%s: a %s of %d shown as %r, not %r" % (name, field, number, text, want))
        seen += (field, number) in names
assert seen, "%s: no reserved space or binding" % name
assert "0xFFFFFFFF marks" not in page
EOF
done
echo "ok: --report spells them alike"

# --diff: a value moved from a global (space 0; on ptx binding inline) to the entry's launch
# parameters.
"$dump" --diff "$work/old/gain.dgpb" "$work/new/gain.dgpb" > "$work/diff"; s=$?
[ $s -eq 1 ] || fail "--diff: exit $s: $(cat "$work/diff")"
grep -q "^spirv/amplify: param #1 'gain': space 0 -> launch  BREAKING$" "$work/diff" &&
    grep -q "^ptx/amplify: param #1 'gain': binding inline -> 0  BREAKING$" "$work/diff" ||
    fail "--diff: $(cat "$work/diff")"
! grep -q '429496729[45]' "$work/diff" || fail "--diff printed a reserved number: $(cat "$work/diff")"
mkdir -p "$work/added"
sed 's/uniform float gain)/uniform float gain, uniform float bias)/; s/\*= gain;/*= gain + bias;/' \
    "$work/new/gain.slang" > "$work/added/gain.slang"
B --targets spirv "$work/added/gain.slang" || fail "build added/gain"
"$dump" --diff "$work/new/gain.dgpb" "$work/added/gain.dgpb" > "$work/diff2"
grep -q "^spirv/amplify: param #2 'bias' added (value, space launch, binding 0)" "$work/diff2" ||
    fail "--diff added: $(cat "$work/diff2")"
echo "ok: --diff spells them alike"

# The JSON view keeps the numbers.
"$dump" --json "$work/push_constants.dgpb" | grep -Eq '"space":[[:space:]]*4294967295' ||
    fail "the JSON view lost the number"
echo "ok: the JSON view keeps the numbers"
