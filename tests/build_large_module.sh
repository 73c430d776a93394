#!/usr/bin/env bash
# build_large_module.sh BUILD DUMP WORK - a module of 25 MB and 190,000 lines
# (generated in WORK, emptied first, removed when the test passes) builds with
# the embedded compiler: dgpb-build's discovery #includes the module, which
# the compiler's source preparation once could not inline past about 120,000
# lines ("Maximum call stack size exceeded", exit status 3). The bundle holds
# the entry on every target, and an error after the padding is reported at its
# own line.
set -u
build=$1 dump=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }

cat >"$work/big.slang" <<'SLANG'
RWStructuredBuffer<float> data;

[shader("compute")]
[numthreads(64, 1, 1)]
void scale_big(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = twice(data[id.x]);
}
SLANG
# 190,000 comment lines of 131 bytes, then the function the entry calls.
awk 'BEGIN { pad = sprintf("%120s", ""); gsub(/ /, ".", pad);
             for (i = 0; i < 190000; i++) printf "// line %06d %s\n", i, pad }' >>"$work/big.slang"
echo 'float twice(float x) { return x * 2.0; }' >>"$work/big.slang"
size=$(stat -c %s "$work/big.slang") lines=$(wc -l <"$work/big.slang")
[ "$size" -ge 25000000 ] && [ "$lines" -gt 190000 ] || fail "the module is $size bytes, $lines lines"

log=$("$build" -q --no-layouts "$work/big.slang" -o "$work/out" 2>&1) ||
    fail "dgpb-build exited with status $?: ${log:0:3000}"
"$dump" --verify "$work/out/big.dgpb" >/dev/null || fail "the bundle does not verify"
listing=$("$dump" "$work/out/big.dgpb") || fail "dgpb-dump failed"
for target in spirv wgsl ptx; do
    "$dump" --extract "$target/scale_big" -o "$work/code" "$work/out/big.dgpb" >/dev/null ||
        fail "target $target has no entry 'scale_big': $listing"
done

# An error on the last line is reported there, through the discovery's #include.
echo 'float broken() { return nothing; }' >>"$work/big.slang"
log=$("$build" -q --no-layouts "$work/big.slang" -o "$work/out2" 2>&1)
status=$?
[ "$status" = 1 ] || fail "a broken module: exit status $status, not 1: ${log:0:3000}"
line=$((lines + 1))
grep -q "big\.slang($line): error 30015: undefined identifier 'nothing'" <<<"$log" ||
    fail "the error is not reported at line $line: ${log:0:3000}"
rm -rf "$work"
echo "ok: a module of $size bytes and $lines lines"
