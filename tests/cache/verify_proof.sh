#!/usr/bin/env bash
# verify_proof.sh BUILD DUMP WORK MODULE - dgpb-dump --verify proves every table against its
# code (tables/bundle_proof.h), as dgpb-build proves it: a bundle dgpb-build wrote passes; the
# same bundle with one row's binding moved (only the header changed, so every blob's SHA-256
# still holds) is refused with exit 1 and a message naming the target, the entry and the row,
# on spirv, wgsl and ptx.
set -euo pipefail
build=$1 dump=$2 work=$3 module=$4
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || fail "python3 is missing (Debian: python3)"
rm -rf "$work"
mkdir -p "$work"
DGPB_NO_CACHE=1 "$build" --service off --no-layouts --targets spirv,wgsl,ptx -o "$work/out" \
    "$module" >"$work/build.err" 2>&1 || { cat "$work/build.err" >&2; fail "the build failed"; }
b=$work/out/$(basename "$module" .slang).dgpb
"$dump" --verify "$b" >"$work/ok.out" 2>&1 || fail "the built bundle does not verify: $(cat "$work/ok.out")"
# flip NAME ROW OLD NEW TARGET ENTRY NTH: the NTH row ROW of binding OLD (file order: ptx,
# spirv, wgsl) moved to NEW; refused.
flip() {
    python3 "$HERE/flip_binding.py" "$b" "$work/$1.dgpb" "$2" "$3" "$4" "$7" >/dev/null
    local rc=0
    "$dump" --verify "$work/$1.dgpb" >"$work/$1.out" 2>&1 || rc=$?
    [ "$rc" = 1 ] || fail "$1: --verify exited $rc, not 1: $(cat "$work/$1.out")"
    grep -q "error: target '$5', entry '$6'" "$work/$1.out" && grep -q "$2\|binds" "$work/$1.out" ||
        fail "$1: the message does not name target '$5', entry '$6': $(cat "$work/$1.out")"
    echo "$1: $(cat "$work/$1.out")"
}
flip spirv gain 0 1024 spirv amplify 1
flip wgsl histogram 3 1024 wgsl bucket 2
flip ptx input 8 1024 ptx amplify 1
echo "ok: the built bundle verifies; a moved binding on spirv, wgsl and ptx is refused"
