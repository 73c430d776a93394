#!/usr/bin/env bash
# build_library_modules.sh BUILD SOURCE_DIR - library modules (docs/build.md,
# "Library modules"): the deferred renderer's folder fixtures/renderer/, a
# module of shared types (common.slang, no entry point) that the G-buffer
# and lighting modules import:
#  * dgpb-build over the folder's modules: exit 0, one note "library module,
#    nothing to bundle" for common.slang and nothing written for it, the two
#    others built as builds of them alone build them; the summary counts it;
#  * dgpb-build common.slang alone: exit 1, an error that says what it is,
#    nothing written (no output folder);
#  * --list (text and --json) over the folder: exit 0, the same note, no
#    line for it in the text, "library": true in its JSON document;
#  * dgpb_add_shader_bundles() over the folder (cmake/dgpbShaderBundle.cmake
#    with dgpb-build as an imported program, Ninja): configuring says
#    "library module, nothing to bundle" for common.slang, declares two
#    bundles (DGPB_BUNDLES) and the library (DGPB_LIBRARY_MODULES); the
#    build writes the two bundles, a second build does nothing, and an edit
#    to common.slang rebuilds both through their depfiles.
set -u
build=$1 src=$2
dir=$src/fixtures/renderer
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v ninja >/dev/null || fail "ninja is missing: install ninja-build (tools/setup.sh)"
cd "$work" || exit 1
B() { "$build" --no-cache --no-layouts --targets spirv,wgsl "$@"; }

# Each shader module alone: what the folder's build must write for it.
for m in gbuffer lighting; do
    B -q -o ref "$dir/$m.slang" 2>"$work/err" || fail "$m.slang alone: $(cat "$work/err")"
done

# The folder: the library module is a note, the others are built.
B -o out "$dir/common.slang" "$dir/gbuffer.slang" "$dir/lighting.slang" >"$work/log" 2>&1; status=$?
[ $status -eq 0 ] || fail "the folder's build: exit $status, not 0: $(cat "$work/log")"
[ "$(grep -c "^$dir/common.slang: note: library module, nothing to bundle$" "$work/log")" = 1 ] ||
    fail "no single note for common.slang: $(cat "$work/log")"
grep -q "common.slang: error" "$work/log" && fail "common.slang is an error: $(cat "$work/log")"
grep -q "^dgpb-build: 3 modules: 2 written, 1 library module (nothing to bundle), 0 failed$" \
    "$work/log" || fail "no summary counting the library module: $(cat "$work/log")"
[ "$(cd out && ls | tr '\n' ' ')" = "gbuffer.bundle.json gbuffer.dgpb lighting.bundle.json lighting.dgpb " ] ||
    fail "the folder's build wrote: $(cd out && ls)"
for f in gbuffer.dgpb gbuffer.bundle.json lighting.dgpb lighting.bundle.json; do
    cmp -s "ref/$f" "out/$f" || fail "out/$f differs from a build of its module alone"
done
echo "ok: a folder's build bundles the shader modules and notes the library module"

# The library module alone: an error that says what it is, exit 1, nothing written.
B -o alone "$dir/common.slang" >"$work/log" 2>&1; status=$?
[ $status -eq 1 ] || fail "common.slang alone: exit $status, not 1: $(cat "$work/log")"
grep -q "^$dir/common.slang: error: library module, nothing to bundle: Slang finds no entry point in it for targets 'spirv', 'wgsl'" \
    "$work/log" || fail "common.slang alone: $(cat "$work/log")"
[ ! -e alone ] || fail "common.slang alone wrote $(ls -A alone)"
echo "ok: a library module built alone is exit 1, named as one"

# --list over the folder: the note, no text line, "library": true in JSON.
text=$("$build" --list --targets spirv,wgsl "$dir/common.slang" "$dir/gbuffer.slang" \
    "$dir/lighting.slang" 2>"$work/err") || fail "--list: exit $?: $(cat "$work/err")"
grep -q "^$dir/common.slang: note: library module, nothing to bundle$" "$work/err" ||
    fail "--list: no note for common.slang: $(cat "$work/err")"
printf '%s\n' "$text" | grep -q common && fail "--list lists common.slang: $text"
printf '%s\n' "$text" | grep -q "^lightMain " || fail "--list: no lightMain: $text"
json=$("$build" --list --json --targets spirv,wgsl "$dir/common.slang" "$dir/gbuffer.slang" \
    2>/dev/null) || fail "--list --json: exit $?"
python3 - "$json" "$dir" <<'PY' || fail "--list --json: $json"
import json, sys
docs, d = json.loads(sys.argv[1]), sys.argv[2]
assert [x["module"] for x in docs] == [d + "/common.slang", d + "/gbuffer.slang"], docs
assert docs[0]["library"] is True and docs[0]["entries"] == [] and docs[0]["targets"] == [], docs[0]
assert docs[1]["library"] is False and [e["name"] for e in docs[1]["entries"]] == ["vertexMain", "fragmentMain"]
PY
echo "ok: --list notes the library module and lists the others"

# dgpb_add_shader_bundles() over the folder.
mkdir project
cat >project/CMakeLists.txt <<CM
cmake_minimum_required(VERSION 3.20)
project(library_modules LANGUAGES NONE)
add_executable(dgpb::dgpb-build IMPORTED)
set_target_properties(dgpb::dgpb-build PROPERTIES IMPORTED_LOCATION "$build")
include("$src/cmake/dgpbShaderBundle.cmake")
dgpb_add_shader_bundles(shaders DIRECTORY "$work/shaders" TARGETS spirv wgsl OUTPUT_DIR bundles
                        OPTIONS --no-layouts -q)
get_target_property(bundles shaders DGPB_BUNDLES)
get_target_property(libraries shaders DGPB_LIBRARY_MODULES)
message(STATUS "bundles: \${bundles}")
message(STATUS "libraries: \${libraries}")
CM
mkdir shaders && cp "$dir"/*.slang shaders/
cmake -S project -B tree -G Ninja >"$work/configure.log" 2>&1 ||
    fail "the project does not configure: $(cat "$work/configure.log")"
grep -q "^-- dgpb_add_shader_bundles: .*shaders/common.slang: library module, nothing to bundle$" \
    "$work/configure.log" || fail "configuring does not name the library module: $(cat "$work/configure.log")"
grep -q "^-- bundles: $work/tree/bundles/gbuffer.dgpb;$work/tree/bundles/lighting.dgpb$" \
    "$work/configure.log" || fail "DGPB_BUNDLES: $(cat "$work/configure.log")"
grep -q "^-- libraries: $work/shaders/common.slang$" "$work/configure.log" ||
    fail "DGPB_LIBRARY_MODULES: $(cat "$work/configure.log")"
ninja -C tree >"$work/ninja.log" 2>&1 || fail "the folder's build failed: $(cat "$work/ninja.log")"
[ "$(cd tree/bundles && ls *.dgpb | tr '\n' ' ')" = "gbuffer.dgpb lighting.dgpb " ] ||
    fail "the folder's build wrote: $(ls tree/bundles)"
ninja -C tree >"$work/ninja.log" 2>&1 && grep -q "ninja: no work to do." "$work/ninja.log" ||
    fail "the second build did work: $(cat "$work/ninja.log")"
touch shaders/common.slang
ninja -C tree >"$work/ninja.log" 2>&1 || fail "the build after touching common.slang: $(cat "$work/ninja.log")"
for m in gbuffer lighting; do
    grep -q "Building shader bundle bundles/$m.dgpb" "$work/ninja.log" ||
        fail "touching common.slang did not rebuild $m: $(cat "$work/ninja.log")"
done
echo "ok: dgpb_add_shader_bundles() skips the library module and rebuilds its importers"
