#!/usr/bin/env bash
# build_options.sh BUILD DUMP FIXTURES - dgpb-build's options that shape the output:
# --module-path names the stem and the asset, --triple wasm32 keeps wgsl only and
# records no layouts, the default layout recorder and --no-layouts, --keep-temps keeps and names the intermediate folder,
# -v prints each compile command, -o creates a missing folder.
set -u
build=$1 dump=$2 fixtures=$3
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$build" -q --module-path shaders.post "$fixtures/plain.slang" -o "$out/a/b" || fail "--module-path build"
[ -f "$out/a/b/shaders_post.dgpb" ] || fail "no shaders_post.dgpb in the created folder"
grep -q '"asset":	"gpu_shaders.shaders_post"' "$out/a/b/shaders_post.bundle.json" || fail "asset name"
"$build" -q --module-path "" "$fixtures/plain.slang" -o "$out" || fail "root module build"
[ -f "$out/main.dgpb" ] || fail "the root module's stem is not main"

log=$("$build" --triple wasm32-unknown-unknown "$fixtures/plain.slang" -o "$out/w" 2>&1) || fail "wasm32 build: $log"
case "$log" in *"no layout recorder"*) fail "a wasm32 build warned about layouts";; esac
"$dump" "$out/w/plain.dgpb" | grep -q "1 target$" || fail "wasm32 bundle is not wgsl only"
"$dump" "$out/w/plain.dgpb" | grep -q "^target wgsl" || fail "wasm32 bundle lacks wgsl"

# The recorder next to dgpb-build is used by default; without a native libslang the
# bundle goes without layouts and one warning says so; --no-layouts silences it.
log=$(env -u SLANG_ROOT -u DGPB_SLANGC "$build" "$fixtures/plain.slang" -o "$out/n" 2>&1) ||
    fail "linux build: $log"
[ "$(printf '%s\n' "$log" | grep -c "warning: the layout recorder cannot load a native Slang library")" = 1 ] ||
    fail "not one layout warning: $log"
log=$("$build" --no-layouts "$fixtures/plain.slang" -o "$out/n2" 2>&1) || fail "--no-layouts: $log"
case "$log" in *warning*) fail "--no-layouts still warned: $log";; esac
"$dump" "$out/n2/plain.dgpb" | grep "^target " | grep -vq ": 0 layouts, " &&
    fail "--no-layouts bundle has layouts"

log=$("$build" --keep-temps -v --targets spirv "$fixtures/plain.slang" -o "$out/k" 2>&1) || fail "keep-temps: $log"
kept=$(printf '%s\n' "$log" | sed -n "s/.*intermediate files kept in '\(.*\)'.*/\1/p")
[ -n "$kept" ] && [ -f "$kept/spirv/entry-0.spv" ] || fail "--keep-temps did not keep '$kept'"
rm -rf "$kept"
printf '%s\n' "$log" | grep -q -- "-target spirv -entry amplify -stage compute -o " || fail "-v printed no command"

log=$("$build" --targets wgsl "$fixtures/resources.slang" -o "$out/s" 2>&1) || fail "resources: $log"
printf '%s\n' "$log" | grep -q "parameter 'rg': WebGPU has no read-write rg32float storage texture" ||
    fail "no warning about the rg32float storage texture: $log"

log=$("$build" --slangc /no/such/slangc "$fixtures/plain.slang" -o "$out/x" 2>&1); status=$?
[ "$status" -eq 3 ] || fail "a missing --slangc exited $status, not 3: $log"
case "$log" in *"/no/such/slangc"*) ;; *) fail "the message does not name the compiler: $log";; esac
echo "ok: options"
