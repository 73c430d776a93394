#!/usr/bin/env bash
# build_failure_entry.sh BUILD SOURCE_DIR - a compile failure names the entry
# whose code failed (docs/build.md, "Diagnostics"), with both compilers
# (label native-slang: the set-up's native Slang, deps/slang):
#  * fixtures/plain/fail/lod_clamp_wgsl.slang, whose fragment entry samples
#    with an LOD clamp, which WGSL lacks: exit 1, one error, naming target
#    wgsl and entry fragmentMain, never vertexMain as the entry that failed
#    (the embedded compiler's vertex compile fails with the same text: said
#    once, "the compile of 'vertexMain' failed on it too"); Slang's E36107;
#  * native Slang reports a module's errors as Slang's diagnostics with exit
#    1, in the discovery (a syntax error) and in an entry's compile, where
#    its compile request used to crash writing the reflection JSON of a
#    failed compile (exit 3, "the compiler failed", Slang's message lost).
set -u
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset DGPB_SLANGC SLANG_ROOT VULKAN_SDK
export DGPB_IGNORE_SETUP_SLANG=0
[ -e "$src/deps/slang/lib/libslang.so" ] ||
    fail "no native Slang in $src/deps/slang: run tools/setup.sh (it installs the pinned one)"
cd "$src/fixtures/plain" || exit 1

for compiler in embedded native; do
    "$build" --compiler $compiler --no-cache --no-layouts --targets spirv,wgsl -o "$work/out" \
        fail/lod_clamp_wgsl.slang >"$work/log" 2>&1; status=$?
    [ $status -eq 1 ] || fail "$compiler: lod_clamp_wgsl.slang: exit $status, not 1: $(cat "$work/log")"
    [ "$(grep -c ': error: ' "$work/log")" = 1 ] ||
        fail "$compiler: not one error: $(cat "$work/log")"
    grep -q "^fail/lod_clamp_wgsl.slang: error: target 'wgsl', entry 'fragmentMain': compile failed" \
        "$work/log" || fail "$compiler: the error does not name fragmentMain: $(cat "$work/log")"
    grep -q "entry 'vertexMain'" "$work/log" &&
        fail "$compiler: vertexMain named as the entry that failed: $(cat "$work/log")"
    grep -Eq "error( |\[E)36107" "$work/log" || fail "$compiler: Slang's E36107 is missing: $(cat "$work/log")"
    if [ $compiler = embedded ]; then
        grep -q "(exit status 1; the compile of 'vertexMain' failed on it too):" "$work/log" ||
            fail "embedded: the shared failure is not said: $(cat "$work/log")"
    fi
    [ ! -e "$work/out" ] || fail "$compiler: a failed build wrote $(ls -A "$work/out")"
done
echo "ok: a fragment entry's wgsl failure names the fragment entry, with both compilers"

"$build" --compiler native --no-cache --list "$src/fixtures/build/fail/syntax_error.slang" \
    >"$work/log" 2>&1; status=$?
[ $status -eq 1 ] || fail "native: syntax_error.slang: exit $status, not 1: $(cat "$work/log")"
grep -q "error\[E20002\]: syntax error" "$work/log" && ! grep -q "compiler failed" "$work/log" ||
    fail "native: syntax_error.slang: $(cat "$work/log")"
echo "ok: native Slang's module errors are Slang's diagnostics, exit 1"
