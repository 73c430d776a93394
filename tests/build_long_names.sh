#!/usr/bin/env bash
# build_long_names.sh BUILD DUMP - names of any legal length: a module with
# an entry named by 250 characters and one by 1000 (the format allows 4096-byte
# names) builds for spirv and wgsl, and the bundle holds both names in full.
# The intermediate files are named by index, never by entry name. Parameters
# named by 667 characters (a global, a struct global's field, a loose uniform,
# an entry's own uniform) keep their rows on spirv, wgsl and ptx; an entry of
# 1000 characters in the generator's conventions finds its guard and its
# <entry>_params block; a parameter name past 4096 bytes is refused (exit 1).
set -u
build=$1 dump=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

name_of() { # name_of LENGTH PREFIX - an identifier of exactly LENGTH characters
    local s=$2
    while [ ${#s} -lt "$1" ]; do s="${s}x"; done
    printf '%s' "${s:0:$1}"
}
short=$(name_of 250 k250_) long=$(name_of 1000 k1000_)
cat > "$work/long.slang" <<SLANG
RWStructuredBuffer<float> data;

[shader("compute")]
[numthreads(64, 1, 1)]
void $short(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = data[id.x] * 2.0;
}

[shader("compute")]
[numthreads(32, 1, 1)]
void $long(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = data[id.x] + 1.0;
}
SLANG
mkdir "$work/tmp"
log=$(TMPDIR="$work/tmp" "$build" -q --targets spirv,wgsl "$work/long.slang" -o "$work/out" 2>&1) ||
    fail "the build failed: ${log:0:3000}"
"$dump" --verify "$work/out/long.dgpb" >/dev/null || fail "the bundle does not verify"
listing=$("$dump" "$work/out/long.dgpb") || fail "dgpb-dump failed"
for target in spirv wgsl; do
    for name in "$short" "$long"; do
        printf '%s\n' "$listing" | grep -q "entry $name " ||
            fail "target $target: no entry of ${#name} characters in the listing"
        "$dump" --extract "$target/$name" -o "$work/code" "$work/out/long.dgpb" ||
            fail "target $target has no entry of ${#name} characters"
    done
done
grep -q "\"$long\"" "$work/out/long.bundle.json" || fail "the JSON view lacks the 1000-character name"
[ -z "$(ls -A "$work/tmp")" ] || fail "intermediate files left behind: $(ls -A "$work/tmp")"

# Parameters of 667 characters, on every target of a Linux build.
p=$(name_of 667 p667_)
cat > "$work/params.slang" <<SLANG
struct Pair { RWStructuredBuffer<float> $p; StructuredBuffer<float> src; };
RWStructuredBuffer<float> $p;
Pair pair;
uniform float ${p:0:666}g;

[shader("compute")]
[numthreads(4, 1, 1)]
void k(uint3 id : SV_DispatchThreadID, uniform RWStructuredBuffer<float> ${p:0:666}e)
{
    $p[id.x] = pair.src[id.x] * ${p:0:666}g;
    pair.$p[id.x] = 1.0;
    ${p:0:666}e[id.x] = 2.0;
}
SLANG
log=$("$build" -q --no-layouts --targets spirv,wgsl,ptx "$work/params.slang" -o "$work/params" 2>&1) ||
    fail "667-character parameters: ${log:0:3000}"
python3 - "$work/params/params.bundle.json" "$p" <<'PY' || fail "a 667-character parameter lost its row"
import json, sys
view, p = json.load(open(sys.argv[1])), sys.argv[2]
want = [p, "pair." + p, "pair.src", p[:666] + "g", p[:666] + "e"]
targets = {t["name"]: [r["name"] for r in t["entries"][0]["params"]] for t in view["targets"]}
assert sorted(targets) == ["ptx", "spirv", "wgsl"], sorted(targets)
for target, rows in targets.items():
    assert rows == want, (target, [len(r) for r in rows])
PY

# An entry of 1000 characters in the generator's conventions: its group symbol
# and its value block are found in full.
cat > "$work/dream.slang" <<SLANG
#if defined(DREAM_SHADER_$long)
RWStructuredBuffer<float> ${long}_data;
struct Gain { float gain; };
ConstantBuffer<Gain> ${long}_params;

[shader("compute")]
[numthreads(8, 1, 1)]
void $long(uint3 id : SV_DispatchThreadID)
{
    ${long}_data[id.x] = ${long}_data[id.x] * ${long}_params.gain;
}
#endif
SLANG
log=$("$build" -q --no-layouts --targets spirv,wgsl "$work/dream.slang" -o "$work/dream" 2>&1) ||
    fail "a generator module's 1000-character entry: ${log:0:3000}"
"$dump" "$work/dream/dream.dgpb" | grep -Eq '^ +1 +gain +value ' || fail "no value row 'gain'"

# Past the format's 4096 bytes: refused, naming the entry and the length.
q=$(name_of 5000 q5000_)
cat > "$work/huge.slang" <<SLANG
RWStructuredBuffer<float> $q;

[shader("compute")]
[numthreads(4, 1, 1)]
void k(uint3 id : SV_DispatchThreadID) { $q[id.x] = 1.0; }
SLANG
log=$("$build" -q --no-layouts --targets spirv "$work/huge.slang" -o "$work/huge" 2>&1); status=$?
[ "$status" = 1 ] || fail "a 5000-byte parameter name: exit status $status, not 1: ${log:0:300}"
printf '%s\n' "$log" | grep -q "target 'spirv', entry 'k': parameter '${q:0:40}\.\.\.' is 5000 bytes long; a bundle's names are at most 4096 bytes" ||
    fail "a 5000-byte parameter name: ${log:0:400}"
[ ! -e "$work/huge/huge.dgpb" ] || fail "a bundle was written for a 5000-byte parameter name"
echo "ok: entry names of 250 and 1000 characters, parameters of 667, a 5000-byte name refused"
