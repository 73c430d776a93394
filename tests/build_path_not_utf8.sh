#!/usr/bin/env bash
# build_path_not_utf8.sh BUILD - a module in a folder whose name is not UTF-8 (0xff, and
# an ESC), or an include folder (-I) named so, is refused with its own message naming
# the path with those bytes escaped, and exit status 3, before Slang runs (which would
# blame the module: "failed to find include file", exit 1); nothing is written, and no
# raw control byte reaches standard error. The same module in a UTF-8 folder builds.
set -u
build=$1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset DGPB_CACHE_REMOTE
bad="$work/bad$(printf '\377\033')dir"
mkdir -p "$bad/inc" "$work/good"
cat >"$bad/m.slang" <<'SLANG'
#include "inc/h.slangh"
RWStructuredBuffer<float> data;
[shader("compute")]
[numthreads(64, 1, 1)]
void k(uint3 id : SV_DispatchThreadID) { data[id.x] = twice(data[id.x]); }
SLANG
echo 'float twice(float x) { return x * 2.0; }' >"$bad/inc/h.slangh"
cp -r "$bad/m.slang" "$bad/inc" "$work/good/"

refused() { # refused WHAT LOG STATUS
    [ "$3" = 3 ] || fail "$1: exit $3, not 3: $(cat -A "$2")"
    grep -qF "is not UTF-8" "$2" || fail "$1: $(cat -A "$2")"
    grep -qF 'bad\xff\x1bdir' "$2" || fail "$1: the path is not named escaped: $(cat -A "$2")"
    grep -q 'failed to find include' "$2" && fail "$1: Slang's message: $(cat -A "$2")"
    if LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$2"); then
        fail "$1: a raw control byte reached standard error: $(cat -A "$2")"
    fi
    [ -z "$(ls -A "$work/out" 2>/dev/null)" ] || fail "$1: something was written"
}
"$build" --targets spirv --no-cache -o "$work/out" "$bad/m.slang" 2>"$work/log"
refused "the module" "$work/log" $?
(cd "$bad" && "$build" --targets spirv --no-cache -o "$work/out" m.slang 2>"$work/log")
refused "the module, relative to a folder that is not UTF-8" "$work/log" $?
"$build" --targets spirv --no-cache -I "$bad/inc" -o "$work/out" "$work/good/m.slang" 2>"$work/log"
refused "-I" "$work/log" $?
"$build" -q --targets spirv --no-cache -o "$work/out" "$work/good/m.slang" ||
    fail "the same module in a UTF-8 folder does not build"
echo "ok: a path that is not UTF-8 is refused with exit 3, named escaped"
