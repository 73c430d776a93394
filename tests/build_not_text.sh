#!/usr/bin/env bash
# build_not_text.sh BUILD - a module that is not text (random bytes, a PNG
# renamed, UTF-16 with and without its byte-order mark) fails with exit status
# 1 and exactly one line, "<file>: error: not a text file (<why> at offset
# N)", before any compile: nothing of the discovery module, nothing written.
# A binary file the module includes fails the same way through the embedded
# compiler, naming that file.
set -u
build=$1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1

# Bytes as a random file would have them, the same every run.
python3 -c 'import random, sys; r = random.Random(7); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(4096)))' > random.slang
printf '\x89PNG\r\n\x1a\n\0\0\0\rIHDR' > image.slang
printf 'RWStructuredBuffer<float> data;\n' | iconv -f utf-8 -t utf-16 > utf16-bom.slang
printf 'RWStructuredBuffer<float> data;\n' | iconv -f utf-8 -t utf-16le > utf16-le.slang
printf 'RWStructuredBuffer<float> data;\n// caf\xe9 in Latin-1\n' > latin1.slang

check() { # check FILE WHY - one line naming FILE and WHY, exit 1, no output
    local file=$1 why=$2 log status lines
    log=$("$build" --no-cache -o "out-$file" "$file" 2>&1); status=$?
    printf '%s\n' "$log"
    [ "$status" -eq 1 ] || fail "$file: exit status $status, not 1"
    lines=$(printf '%s\n' "$log" | wc -l)
    [ "$lines" -eq 1 ] || fail "$file: $lines lines, not one"
    printf '%s\n' "$log" | grep -Eqx -- "$file: error: not a text file \\($why\\)" ||
        fail "$file: not the one line expected"
    [ ! -e "out-$file" ] || fail "$file: an output folder was made"
}
check random.slang 'invalid UTF-8 at offset [0-9]+'
check image.slang 'invalid UTF-8 at offset 0'
check utf16-bom.slang 'invalid UTF-8 at offset 0'
check utf16-le.slang 'a NUL byte at offset 1'
check latin1.slang 'invalid UTF-8 at offset 38'

# An included binary file: the embedded compiler names it, once per message.
cp random.slang blob.h
cat > includes-blob.slang <<'SLANG'
#include "blob.h"
RWStructuredBuffer<float> data;
[shader("compute")]
[numthreads(1, 1, 1)]
void k(uint3 id : SV_DispatchThreadID) { data[id.x] = 1.0; }
SLANG
log=$("$build" --no-cache --targets spirv,wgsl --no-layouts includes-blob.slang -o out 2>&1); status=$?
printf '%s\n' "$log"
[ "$status" -eq 1 ] || fail "include: exit status $status, not 1"
printf '%s\n' "$log" | grep -Eq "slangc-wasm: error: .*blob\\.h: not a text file \\(invalid UTF-8 at offset [0-9]+\\)$" ||
    fail "include: the included file is not named"
[ "$(printf '%s\n' "$log" | wc -l)" -eq 2 ] || fail "include: more than the error and its cause"
printf '%s\n' "$log" | grep -q discover.slang && fail "include: the discovery module is named"
echo "ok"
