#!/bin/sh
# rhi_negative.sh DGPB_BUILD DGPB_RUN DGPB_DUMP RHI_RUN SLANGC LIBSLANG WORK MODULE - proves
# that the slang-rhi comparison (rhi_suite.sh) and dgpb-rhi-run's own checks can fail.
# MODULE is fixtures/compute/array_loop.slang (buffers `seeds` and `found`, names of equal
# length, bound at different bindings).
#
#  1. the bundle as built: dgpb-rhi-run's buffers equal dgpb-run's (the baseline);
#  2. a layout that lies: the blob's strings `seeds` and `found` swapped and its SHA-256
#     updated (dgpb-dump --verify passes): dgpb-rhi-run runs, and its outputs must differ
#     from dgpb-run's, so a recorded layout that differs from Slang's answers fails the suite;
#  3. the same change with the old SHA-256: the shim refuses the layout (exit 4);
#  4. one byte of the entry's code changed: the shim refuses the code (exit 4);
#  5. LIBSLANG (a real libslang.so) preloaded into dgpb-rhi-run: its /proc/self/maps check
#     finds it (exit 8), so the suite's runs, which exit 0, had no Slang library loaded.
set -u
if [ $# -ne 8 ]; then
    echo "usage: rhi_negative.sh DGPB_BUILD DGPB_RUN DGPB_DUMP RHI_RUN SLANGC LIBSLANG WORK MODULE" >&2
    exit 2
fi
build=$1 run=$2 dump=$3 rhi=$4 slangc=$5 libslang=$6 work=$7 module=$8
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work/ref" "$work/rhi"
failed=0
fail() {
    echo "FAIL: $*"
    failed=1
}

"$build" -q --slangc "$slangc" --targets spirv -o "$work" "$module" || exit 1
bundle=$work/array_loop.dgpb
opts="--threads 4 --in seeds=i32:1,-2,5,10 --size sums=128 --size found=16"
# shellcheck disable=SC2086
"$run" -q $opts --out sums="$work/ref/sums.bin" --out found="$work/ref/found.bin" \
    "$bundle" computeMain || exit 1

# outputs_equal DIR: 0 when both buffers of DIR equal dgpb-run's.
outputs_equal() {
    cmp -s "$1/sums.bin" "$work/ref/sums.bin" && cmp -s "$1/found.bin" "$work/ref/found.bin"
}

# 1. The baseline.
# shellcheck disable=SC2086
if "$rhi" $opts --out-dir "$work/rhi" "$bundle" computeMain 2>"$work/rhi.log" &&
    outputs_equal "$work/rhi"; then
    echo "ok: the bundle as built runs on slang-rhi with dgpb-run's outputs"
else
    fail "the bundle as built: $(cat "$work/rhi.log")"
fi

# 2. A layout that answers differently from Slang, with a matching SHA-256.
python3 "$here/alter_layout.py" "$dump" "$bundle" spirv seeds found "$work/lie.dgpb" >/dev/null ||
    exit 1
"$dump" --verify "$work/lie.dgpb" >/dev/null || fail "the altered bundle does not verify"
mkdir -p "$work/lie"
# shellcheck disable=SC2086
"$rhi" $opts --out-dir "$work/lie" "$work/lie.dgpb" computeMain 2>"$work/lie.log"
status=$?
if [ $status -ne 0 ]; then
    fail "the altered layout: dgpb-rhi-run exit status $status, expected a run: $(cat "$work/lie.log")"
elif outputs_equal "$work/lie"; then
    fail "the altered layout: outputs equal dgpb-run's; the comparison cannot catch a wrong layout"
else
    echo "ok: a layout whose answers differ from Slang's gives outputs that differ from dgpb-run's"
fi

# expect_refused NAME BUNDLE TEXT: dgpb-rhi-run exits 4 with TEXT in its message.
expect_refused() {
    # shellcheck disable=SC2086
    "$rhi" $opts --out-dir "$work/rhi" "$2" computeMain 2>"$work/refused.log"
    status=$?
    if [ $status -eq 4 ] && grep -q "$3" "$work/refused.log"; then
        echo "ok: $1 refused: $(grep "$3" "$work/refused.log")"
    else
        fail "$1: exit status $status (expected 4 with '$3'): $(cat "$work/refused.log")"
    fi
}

# 3. The same change, the old SHA-256 kept.
python3 "$here/alter_layout.py" "$dump" "$bundle" spirv seeds found "$work/tampered.dgpb" \
    --keep-hash >/dev/null || exit 1
expect_refused "a tampered layout" "$work/tampered.dgpb" "layout 0: the blob's SHA-256 does not match"

# 4. One byte of the code changed.
python3 - "$dump" "$bundle" "$work/code.dgpb" <<'EOF' || exit 1
import json, subprocess, sys
dump, src, out = sys.argv[1:]
view = json.loads(subprocess.run([dump, "--json", src], check=True, capture_output=True).stdout)
code = [t for t in view["targets"] if t["name"] == "spirv"][0]["entries"][0]["code"]
data = bytearray(open(src, "rb").read())
at = view["header_size"] + code["offset"] + code["size"] - 1
data[at] ^= 0xFF
open(out, "wb").write(data)
EOF
expect_refused "tampered code" "$work/code.dgpb" "(computeMain): the code's SHA-256 does not match"

# 5. A Slang library in the process.
if [ ! -e "$libslang" ]; then
    fail "$libslang does not exist (configure with -DDGPB_SLANG_ROOT=<a native Slang>)"
else
    # shellcheck disable=SC2086
    LD_PRELOAD=$libslang "$rhi" $opts --out-dir "$work/rhi" "$bundle" computeMain \
        2>"$work/preload.log"
    status=$?
    if [ $status -eq 8 ] && grep -q "a Slang library is loaded in this process" "$work/preload.log"; then
        echo "ok: a preloaded libslang is found in /proc/self/maps (exit 8)"
    else
        fail "LD_PRELOAD=$libslang: exit status $status (expected 8): $(cat "$work/preload.log")"
    fi
fi
exit $failed
