#!/bin/sh
# rhi_render.sh DGPB_BUILD DGPB_DUMP RHI_RUN RENDER_REF SLANGC WORK ASKED MODULE GROUP - slang-rhi's
# render path through the replay shim (docs/host.md, "A native host with slang-rhi"):
# MODULE (tests/slang_rhi/render_tinted.slang: one vertex entry `fullscreen`, one fragment
# entry `tinted`, one render group) is built for spirv with the native SLANGC, drawn by
# dgpb-rhi-run (unmodified slang-rhi on lavapipe, no Slang library in the process) and by
# RENDER_REF (dgpb-run's runner library) with the same values; the two 8x8 rgba32float
# attachments must be byte-identical. What slang-rhi asked the shim is written to ASKED.
#
# Then each of these must fail:
#  1. a wrong expectation: the reference drawn with another fragment tint differs;
#  2. a layout that lies: the blob's strings `scale` and `shift` (two members of the
#     vertex entry's block) swapped and its SHA-256 updated (dgpb-dump --verify passes): slang-rhi draws, and the attachment
#     must differ from the reference;
#  3. the same change with the old SHA-256: the shim refuses the layout (exit 4);
#  4. one byte of the fragment entry's code changed: the shim refuses it (exit 4);
#  5. a pair that is not one: the vertex entry named as the fragment entry (exit 2);
#  6. a render group of more entries (GROUP, fixtures/build/render.slang: two vertex and
#     two fragment entries in one layout), which slang-rhi would build one pipeline of
#     four shaders from: refused with exit 2 before any device work;
#  7. the stages the example does not draw (tests/run/draw_geometry.slang: a vertex,
#     geometry and fragment group; tests/run/draw_mesh.slang: a mesh entry), each refused
#     with exit 2 naming its stages.
set -u
if [ $# -ne 9 ]; then
    echo "usage: rhi_render.sh DGPB_BUILD DGPB_DUMP RHI_RUN RENDER_REF SLANGC WORK ASKED MODULE GROUP" >&2
    exit 2
fi
build=$1 dump=$2 rhi=$3 ref=$4 slangc=$5 work=$6 asked=$7 module=$8 group=$9
here=$(cd "$(dirname "$0")" && pwd)
for tool in "$build" "$dump" "$rhi" "$ref" "$slangc"; do
    if [ ! -x "$tool" ]; then
        echo "rhi_render.sh: $tool is not an executable (configure with -DDGPB_SLANG_ROOT and -DDGPB_SLANG_RHI_DIR)" >&2
        exit 2
    fi
done
rm -rf "$work"
mkdir -p "$work/ref" "$work/rhi" "$work/lie" "$work/wrong"
failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

"$build" -q --slangc "$slangc" --targets spirv -o "$work" "$module" || exit 1
bundle=$work/$(basename "$module" .slang).dgpb
# A triangle over part of the target (scale and shift), the uv tinted and biased.
scale=f32:0.75,0.5 shift=f32:0.25,-0.25 tint=f32:1,2,0.5,1 bias=f32:0,0,0,0.25
"$ref" "$bundle" fullscreen tinted 3 color0=rgba32float:8x8 "$work/ref/color0.bin" \
    vs_params.scale=$scale vs_params.shift=$shift fs_params.tint=$tint \
    fs_params.bias=$bias 2>"$work/ref.log" || {
    cat "$work/ref.log"
    exit 1
}
# The drawing covers some texels and not others (so an empty draw cannot pass).
python3 - "$work/ref/color0.bin" <<'PY' || exit 1
import struct, sys
d = open(sys.argv[1], "rb").read()
texels = [d[i:i + 16] for i in range(0, len(d), 16)]
drawn = sum(t != bytes(16) for t in texels)
print(f"reference: {len(texels)} texels, {drawn} drawn, {len(set(texels))} distinct")
if len(texels) != 64 or not 0 < drawn < 64 or len(set(texels)) < 16:
    sys.exit("FAIL: the reference drawing is not a partial, varied triangle")
PY

# draw DIR BUNDLE: dgpb-rhi-run draws into DIR/color0.bin.
draw() {
    DGPB_SHIM_LOG=$work/asked.log "$rhi" --fragment tinted --vertices 3 \
        --attachment color0=rgba32float:8x8 --set vs_params.scale=$scale \
        --set vs_params.shift=$shift --set fs_params.tint=$tint \
        --set fs_params.bias=$bias --out-dir "$1" "$2" fullscreen
}

# The baseline.
if draw "$work/rhi" "$bundle" 2>"$work/rhi.log" &&
    cmp -s "$work/ref/color0.bin" "$work/rhi/color0.bin"; then
    echo "ok: slang-rhi's render pipeline drew dgpb-run's attachment, byte for byte ($(grep device "$work/rhi.log"))"
else
    fail "the bundle as built: $(cat "$work/rhi.log"); $(cmp "$work/ref/color0.bin" "$work/rhi/color0.bin" 2>&1)"
fi
sort -u "$work/asked.log" >"$asked"

# 1. A wrong expectation.
"$ref" "$bundle" fullscreen tinted 3 color0=rgba32float:8x8 "$work/wrong/color0.bin" \
    vs_params.scale=$scale vs_params.shift=$shift fs_params.tint=f32:1,2,0.5,0.5 \
    fs_params.bias=$bias 2>"$work/wrong.log" || fail "the second reference: $(cat "$work/wrong.log")"
if cmp -s "$work/wrong/color0.bin" "$work/rhi/color0.bin"; then
    fail "a reference drawn with another tint equals slang-rhi's attachment"
else
    echo "ok: a wrong expectation (another tint) differs from slang-rhi's attachment"
fi

# 2. A layout that answers differently from Slang, with a matching SHA-256.
python3 "$here/alter_layout.py" "$dump" "$bundle" spirv scale shift "$work/lie.dgpb" \
    >/dev/null || exit 1
"$dump" --verify "$work/lie.dgpb" >/dev/null || fail "the altered bundle does not verify"
if ! draw "$work/lie" "$work/lie.dgpb" 2>"$work/lie.log"; then
    fail "the altered layout: dgpb-rhi-run failed, expected a drawing: $(cat "$work/lie.log")"
elif cmp -s "$work/ref/color0.bin" "$work/lie/color0.bin"; then
    fail "the altered layout: the attachment equals dgpb-run's; the comparison cannot catch a wrong layout"
else
    echo "ok: a layout whose answers differ from Slang's draws an attachment that differs from dgpb-run's"
fi

# expect_refused NAME BUNDLE STATUS TEXT [OPTIONS...]: dgpb-rhi-run exits STATUS with TEXT.
expect_refused() {
    name=$1 file=$2 want=$3 text=$4
    shift 4
    if [ $# -eq 0 ]; then
        draw "$work/rhi" "$file" 2>"$work/refused.log"
    else
        "$rhi" "$@" "$file" "${entry:-fullscreen}" 2>"$work/refused.log"
    fi
    status=$?
    if [ $status -eq "$want" ] && grep -q "$text" "$work/refused.log"; then
        echo "ok: $name refused: $(grep "$text" "$work/refused.log")"
    else
        fail "$name: exit status $status (expected $want with '$text'): $(cat "$work/refused.log")"
    fi
}

# 3. The same change, the old SHA-256 kept.
python3 "$here/alter_layout.py" "$dump" "$bundle" spirv scale shift \
    "$work/tampered.dgpb" --keep-hash >/dev/null || exit 1
expect_refused "a tampered layout" "$work/tampered.dgpb" 4 \
    "layout 0: the blob's SHA-256 does not match"

# 4. One byte of the fragment entry's code changed.
python3 - "$dump" "$bundle" "$work/code.dgpb" <<'PY' || exit 1
import json, subprocess, sys
dump, src, out = sys.argv[1:]
view = json.loads(subprocess.run([dump, "--json", src], check=True, capture_output=True).stdout)
entries = [t for t in view["targets"] if t["name"] == "spirv"][0]["entries"]
code = [e for e in entries if e["name"] == "tinted"][0]["code"]
data = bytearray(open(src, "rb").read())
data[view["header_size"] + code["offset"] + code["size"] - 1] ^= 0xFF
open(out, "wb").write(data)
PY
expect_refused "tampered fragment code" "$work/code.dgpb" 4 "(tinted): the code's SHA-256 does not match"

# 5. Not a vertex and fragment pair.
expect_refused "a fragment entry named as the vertex entry" "$bundle" 2 "fullscreen is not a fragment entry" \
    --fragment fullscreen --vertices 3 --attachment color0=rgba32float:8x8

# 6. A group of four entries.
mkdir -p "$work/group"
"$build" -q --slangc "$slangc" --targets spirv -o "$work/group" "$group" || exit 1
expect_refused "a render group of four entries" "$work/group/$(basename "$group" .slang).dgpb" 2 \
    "layout 0 holds 4 entries" --fragment tinted --vertices 3 \
    --attachment color0=rgba32float:8x8

# 7. Stages the example does not draw.
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work/stages"
"$build" -q --slangc "$slangc" --targets spirv -o "$work/stages" "$here/../run/draw_geometry.slang" \
    "$here/../run/draw_mesh.slang" || exit 1
entry=readPoint expect_refused "a geometry pipeline" "$work/stages/draw_geometry.dgpb" 2 \
    "layout 0 holds 3 entries (vertex, geometry, fragment)" --fragment pointColor --vertices 3 \
    --attachment color0=rgba32float:8x8
entry=columnMesh expect_refused "a mesh pipeline" "$work/stages/draw_mesh.dgpb" 2 \
    "columnMesh is a mesh entry, not a vertex entry" --fragment columnColor --vertices 3 \
    --attachment color0=rgba32float:8x8
exit $failed
