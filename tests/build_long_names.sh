#!/usr/bin/env bash
# build_long_names.sh BUILD DUMP - entry names of any legal length: a module with
# an entry named by 250 characters and one by 1000 (the format allows 4096-byte
# names) builds for spirv and wgsl, and the bundle holds both names in full.
# The intermediate files are named by index, never by entry name.
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
echo "ok: names of 250 and 1000 characters"
