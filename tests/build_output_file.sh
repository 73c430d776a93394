#!/usr/bin/env bash
# build_output_file.sh BUILD DUMP MODULE_A MODULE_B - -o NAME.dgpb with one module writes
# that bundle, as `cc -o` names its output (docs/build.md, "Options"): its view, C header
# and depfile next to it, named after it (NAME.bundle.json, NAME.h, NAME.d), NAME the stem
# of the view's asset and the header's names; the bundle's bytes those of a build into a
# folder; the names as given (-o single.dgpb writes single.dgpb, not ./single.dgpb); the
# same from the compile cache. Usage errors (exit 2), nothing written or created: several
# modules and -o NAME.dgpb, -o NAME.dgpb/ (a folder's name), --module-path with it (which
# names the stem too), a folder where the bundle would go.
set -u
build=$1 dump=$2 a=$3 b=$4
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export DGPB_SERVICE=off DGPB_CACHE_DIR="$work/cache"
unset DGPB_NO_CACHE
cd "$work" || exit 1
cp "$a" a.slang && cp "$b" b.slang
B() { "$build" --no-layouts --targets spirv "$@"; }

B -q --no-cache -o dir a.slang || fail "build into a folder"
B --no-cache -MD --emit-header -o out/single.dgpb a.slang > log 2>&1 || fail "-o out/single.dgpb: $(cat log)"
[ "$(cd out && ls | tr '\n' ' ')" = "single.bundle.json single.d single.dgpb single.h " ] ||
    fail "-o out/single.dgpb wrote: $(ls -R out)"
grep -q "^dgpb-build: wrote out/single.dgpb (.*), out/single.h and out/single.bundle.json;" log ||
    fail "summary: $(cat log)"
cmp -s dir/a.dgpb out/single.dgpb || fail "the bundle's bytes differ from a build into a folder"
grep -q '"asset":	"gpu_shaders.single"' out/single.bundle.json || fail "asset: $(head -3 out/single.bundle.json)"
"$dump" --json out/single.dgpb | cmp -s - out/single.bundle.json || fail "dgpb-dump --json is not the view"
"$dump" --header out/single.dgpb | cmp -s - out/single.h || fail "dgpb-dump --header is not the header"
grep -q 'DGPB_HEADER_single_H' out/single.h || fail "the header's names: $(head -20 out/single.h)"
[ "$(head -1 out/single.d)" = "out/single.dgpb out/single.bundle.json out/single.h: \\" ] ||
    fail "depfile: $(cat out/single.d)"
echo "ok: -o out/single.dgpb writes single.dgpb, .bundle.json, .h and .d, the bytes of a folder build"

B -MD -o single.dgpb a.slang > log 2>&1 || fail "-o single.dgpb: $(cat log)"
grep -q "^dgpb-build: wrote single.dgpb (.*) and single.bundle.json;" log || fail "summary: $(cat log)"
[ "$(head -1 single.d)" = "single.dgpb single.bundle.json: \\" ] || fail "depfile: $(cat single.d)"
cmp -s dir/a.dgpb single.dgpb || fail "-o single.dgpb: other bytes"
rm single.*
B -MD -o single.dgpb a.slang > log 2>&1 || fail "-o single.dgpb from the cache: $(cat log)"
grep -q "(from the cache)" log || fail "not from the cache: $(cat log)"
cmp -s dir/a.dgpb single.dgpb && grep -q '"asset":	"gpu_shaders.single"' single.bundle.json &&
    [ "$(head -1 single.d)" = "single.dgpb single.bundle.json: \\" ] || fail "the cache's outputs differ"
echo "ok: -o single.dgpb names its outputs as given, also from the cache"

expect_usage() { # REGEX ARGS...: exit 2, the message, nothing made
    local regex=$1
    shift
    rm -rf u v
    B "$@" > log 2>&1; local s=$?
    [ $s -eq 2 ] || fail "$*: exit $s, not 2: $(cat log)"
    grep -Eq -- "$regex" log || fail "$*: no /$regex/: $(cat log)"
    [ ! -e u ] && [ ! -e u.dgpb ] && [ ! -e v ] || fail "$*: something was written"
}
expect_usage "-o 'u.dgpb' names one bundle, but 2 modules are given: with several modules -o names the folder their bundles go into, each as <stem>.dgpb" \
    -o u.dgpb a.slang b.slang
expect_usage "-o 'v/u.dgpb/' ends in '/', a folder's name, yet names a bundle" -o v/u.dgpb/ a.slang
expect_usage "-o 'u.dgpb' names the bundle and so its stem, which --module-path names too" \
    --module-path p -o u.dgpb a.slang
mkdir -p taken.dgpb
B -o taken.dgpb a.slang > log 2>&1; s=$?
[ $s -eq 2 ] && grep -q "a folder of that name is there" log && [ -z "$(ls -A taken.dgpb)" ] ||
    fail "-o onto a folder: exit $s: $(cat log)"
echo "ok: several modules, a trailing '/', --module-path, a folder in the way: usage errors"
