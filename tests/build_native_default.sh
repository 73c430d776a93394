#!/usr/bin/env bash
# build_native_default.sh BUILD DUMP SOURCE_DIR - the compiler a new user gets
# (label native-slang; docs/build.md, "Which compiler"): with no flag and no
# variable naming a compiler, dgpb-build of the build tree compiles with the
# set-up's native Slang (deps/slang, tools/setup.sh) and records layouts.
#   - --version names Slang's version (deps/slang/VERSION) and the set-up;
#   - a GLM-style module (column-major matrices) builds with --matrix-layout
#     column on spirv, wgsl and ptx (PTX from NVRTC of deps/cuda), every
#     target carrying layouts, the options record saying column, and the
#     SPIR-V member decorated RowMajor (Slang's column-major);
#   - dgpb-dump --verify accepts the bundle;
#   - --compiler native is the same compiler; --compiler embedded refuses the
#     column layout naming the embedded compiler (exit 2) and goes with no
#     --slangc (exit 2); --compiler-processes is refused with a library that
#     has no slangc (exit 3);
#   - DGPB_IGNORE_SETUP_SLANG=1 gives the embedded compiler, as before.
set -u
build=$1 dump=$2 src=$3
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset DGPB_SLANGC SLANG_ROOT VULKAN_SDK CUDA_PATH
export DGPB_IGNORE_SETUP_SLANG=0
[ -e "$src/deps/slang/lib/libslang.so" ] ||
    fail "no native Slang in $src/deps/slang: run tools/setup.sh (it installs the pinned one)"
version=$(cat "$src/deps/slang/VERSION")

"$build" --version >"$out/version" 2>&1 || fail "--version failed: $(cat "$out/version")"
grep -q "^slang $version: $src/deps/slang/lib/libslang.so (native libslang of the set-up)$" \
    "$out/version" || { cat "$out/version"; fail "--version does not name the set-up's Slang $version"; }
grep -q '^compiles: persistent native workers' "$out/version" ||
    { cat "$out/version"; fail "compiles do not run on the native workers"; }

cat >"$out/glm.slang" <<'EOF'
// A renderer that shares GLM's column-major matrices with its shaders.
struct Camera { float4x4 viewProj; float4 tint; };
ConstantBuffer<Camera> camera;
RWStructuredBuffer<float4> points;

[shader("compute")]
[numthreads(64, 1, 1)]
void project(uint3 id : SV_DispatchThreadID)
{
    points[id.x] = mul(camera.viewProj, points[id.x]) * camera.tint;
}
EOF
"$build" -q --matrix-layout column "$out/glm.slang" -o "$out/b" 2>"$out/err" ||
    { cat "$out/err"; fail "dgpb-build --matrix-layout column failed with the default compiler"; }
view=$out/b/glm.bundle.json
for t in ptx spirv wgsl; do
    python3 - "$view" "$t" <<'EOF' || fail "target $t: no layouts, or an entry without one"
import json, sys
view = json.load(open(sys.argv[1]))
t = [t for t in view["targets"] if t["name"] == sys.argv[2]]
assert t and t[0]["layouts"], "no layouts"
assert all(e["layout"] < len(t[0]["layouts"]) for e in t[0]["entries"])
EOF
done
grep -Eq '"matrix_layout":[[:space:]]*"column"' "$view" || fail "the options record does not say column"
"$dump" --verify "$out/b/glm.dgpb" >/dev/null || fail "dgpb-dump --verify rejected the bundle"
"$dump" --disasm ptx/project "$out/b/glm.dgpb" 2>&1 | grep -q 'Cuda compilation tools, release 13.0' ||
    fail "no PTX from the set-up's NVRTC (CUDA 13.0)"
"$dump" --disasm spirv/project "$out/b/glm.dgpb" 2>&1 | grep -q 'RowMajor' ||
    fail "the SPIR-V has no RowMajor matrix (Slang's column-major layout)"

"$build" -q --compiler native --matrix-layout column "$out/glm.slang" -o "$out/n" ||
    fail "--compiler native failed"
cmp -s "$out/b/glm.dgpb" "$out/n/glm.dgpb" || fail "--compiler native gave another bundle"

"$build" -q --compiler embedded --matrix-layout column "$out/glm.slang" -o "$out/e" \
    >"$out/err" 2>&1
status=$?
[ $status = 2 ] && grep -q 'the embedded compiler (Slang 2025.15 WebAssembly) cannot compile with --matrix-layout column' "$out/err" ||
    { cat "$out/err"; fail "--compiler embedded: expected exit 2 naming the embedded compiler, got $status"; }
"$build" --compiler embedded --slangc /usr/bin/true "$out/glm.slang" >"$out/err" 2>&1
[ $? = 2 ] && grep -q 'name two compilers' "$out/err" || { cat "$out/err"; fail "--compiler embedded --slangc is not a usage error"; }
"$build" --compiler processes "$out/glm.slang" >"$out/err" 2>&1
[ $? = 2 ] || { cat "$out/err"; fail "--compiler processes is not a usage error"; }
"$build" -q --compiler-processes "$out/glm.slang" -o "$out/p" >"$out/err" 2>&1
[ $? = 3 ] && grep -q 'library without slangc' "$out/err" ||
    { cat "$out/err"; fail "--compiler-processes with the set-up's library: expected exit 3"; }

DGPB_IGNORE_SETUP_SLANG=1 "$build" --version >"$out/version" 2>&1
grep -q '(embedded slangc-wasm)$' "$out/version" ||
    { cat "$out/version"; fail "DGPB_IGNORE_SETUP_SLANG=1 does not give the embedded compiler"; }
echo "ok: the set-up's native Slang $version is the default, with layouts and every project option"
