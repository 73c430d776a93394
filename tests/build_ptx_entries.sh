#!/usr/bin/env bash
# build_ptx_entries.sh BUILD DUMP - the ptx target finds the same entries
# whatever else is built: a compute entry marked with [numthreads] alone (no
# [shader("compute")]), which Slang's CUDA target does not list, is on ptx
# with `--targets ptx` as with `--targets spirv,ptx`, in a plain module and in
# one in the generator's conventions; the ptx targets of the two builds are
# the same, entry for entry (dgpb-dump --json). A plain module's render
# entries, which ptx does not carry, are left out of a ptx-only build with a
# note instead of failing it.
set -u
build=$1 dump=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$work/plain.slang" <<'SLANG'
RWStructuredBuffer<float> data;

[numthreads(64, 1, 1)]
void scale(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = data[id.x] * 2.0;
}

[shader("compute")]
[numthreads(32, 1, 1)]
void offset(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = data[id.x] + 1.0;
}

struct VOut { float4 pos : SV_Position; };

[shader("vertex")]
VOut vs(uint vid : SV_VertexID)
{
    VOut o;
    o.pos = float4(float(vid), 0.0, 0.0, 1.0);
    return o;
}

[shader("fragment")]
float4 fs(VOut i) : SV_Target
{
    return i.pos;
}
SLANG
cat > "$work/dream.slang" <<'SLANG'
#if defined(DREAM_SHADER_halve)
RWStructuredBuffer<float> halve_data;

[numthreads(16, 1, 1)]
void halve(uint3 id : SV_DispatchThreadID)
{
    halve_data[id.x] = halve_data[id.x] * 0.5;
}
#endif
SLANG

# The ptx target of a bundle's JSON view, as one canonical line.
ptx_of() {
    "$dump" --json "$1" | python3 -c '
import json, sys
view = json.load(sys.stdin)
ptx = [t for t in view["targets"] if t["name"] == "ptx"]
print(json.dumps(ptx, sort_keys=True))'
}

for module in plain dream; do
    log=$("$build" --no-layouts --targets ptx "$work/$module.slang" -o "$work/$module-ptx" 2>&1) ||
        fail "$module: --targets ptx failed: $log"
    "$build" -q --no-layouts --targets spirv,ptx "$work/$module.slang" -o "$work/$module-both" ||
        fail "$module: --targets spirv,ptx failed"
    alone=$(ptx_of "$work/$module-ptx/$module.dgpb") both=$(ptx_of "$work/$module-both/$module.dgpb")
    [ "$alone" != "[]" ] || fail "$module: --targets ptx wrote no ptx target"
    [ "$alone" = "$both" ] || fail "$module: the ptx targets differ:
  --targets ptx:       $alone
  --targets spirv,ptx: $both"
    if [ "$module" = plain ]; then
        for name in scale offset; do
            printf '%s' "$alone" | grep -q "\"name\": \"$name\"" || fail "entry '$name' is not on ptx"
        done
        for name in vs fs; do
            printf '%s\n' "$log" | grep -q "note: entry '$name' left out: a .* shader, and ptx carries compute entries only" ||
                fail "no note for the render entry '$name': $log"
        done
    else
        printf '%s' "$alone" | grep -q '"name": "halve"' || fail "entry 'halve' is not on ptx"
    fi
done
echo "ok: --targets ptx finds the entries --targets spirv,ptx does, [numthreads] alone included"
