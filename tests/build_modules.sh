#!/usr/bin/env bash
# build_modules.sh BUILD - several modules in one dgpb-build (docs/build.md,
# "Several modules"), with the real embedded compiler:
#  * a.slang and c.slang build, b.slang does not compile: exit status 1, the
#    good ones written byte for byte as single-module builds write them (the
#    depfiles too), b's previous pair left as it was, b's error and the
#    summary naming b; Make reads each depfile and rebuilds only the bundle
#    whose include was touched;
#  * one compiler for all: a later module's first batch of one job finds the
#    workers the first module started (-v), and the run starts no more
#    workers than a build of the first module alone;
#  * usage errors before anything is built: two modules of one stem in one
#    folder (both named), -MF, --module-path, -o FILE.dgpb (one bundle's
#    name: with several modules -o names their folder);
#  * --list of several: each list headed by its module, --json an array;
#    it writes nothing, so one stem twice, -MF and -o FILE.dgpb are fine;
#  * @FILE: arguments from a parameter file, a line kept as it stands
#    (spaces, a leading @), CRLF line ends; an unreadable file is exit 3, a
#    NUL byte exit 2, a file of empty lines exit 2 (no module is empty).
set -u
build=$1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$work/t" && cd "$work/t" || exit 1
command -v make >/dev/null || fail "make is missing: install make (tools/setup.sh)"

entry() { # NAME INCLUDE
    printf '#include "%s"\nRWStructuredBuffer<float> %s_data;\n' "$2" "$1"
    printf '[shader("compute")]\n[numthreads(64, 1, 1)]\nvoid %s(uint3 id : SV_DispatchThreadID)\n' "$1"
    printf '{\n    %s_data[id.x] = %s_data[id.x] * SCALE;\n}\n' "$1" "$1"
}
echo '#define SCALE 2.0' > inc_a.slangh
echo '#define SCALE 3.0' > inc_c.slangh
{ entry a1 inc_a.slangh; printf 'RWStructuredBuffer<float> more;\n[shader("compute")]\n[numthreads(8, 1, 1)]\nvoid a2(uint3 id : SV_DispatchThreadID) { more[id.x] = 1.0; }\n'; } > a.slang
entry c1 inc_c.slangh > c.slang
printf 'RWStructuredBuffer<float> d;\n[shader("compute")]\n[numthreads(4, 1, 1)]\nvoid k(uint3 i : SV_DispatchThreadID) { d[i.x] = undefined_thing; }\n' > b.slang
B() { "$build" --no-cache --no-layouts "$@"; }

# Single-module builds: what each module's pair and depfile must be.
for m in a c; do
    B -q --targets spirv,wgsl -MD -o out $m.slang 2>"$work/err" || fail "single build of $m: $(cat "$work/err")"
done
mv out ref
mkdir out
printf 'previous bundle' > out/b.dgpb
printf 'previous view' > out/b.bundle.json
B --targets spirv,wgsl -MD -o out a.slang b.slang c.slang > "$work/log" 2>&1; status=$?
[ $status -eq 1 ] || fail "three modules, one broken: exit status $status, not 1: $(cat "$work/log")"
for f in a.dgpb a.bundle.json a.d c.dgpb c.bundle.json c.d; do
    cmp -s "ref/$f" "out/$f" || fail "out/$f differs from a single-module build's"
done
[ "$(cat out/b.dgpb)" = "previous bundle" ] && [ "$(cat out/b.bundle.json)" = "previous view" ] ||
    fail "the broken module's previous pair changed"
[ ! -e out/b.d ] || fail "the broken module has a depfile"
grep -q "^b.slang: error: .*does not compile" "$work/log" || fail "no error naming b.slang: $(cat "$work/log")"
grep -q "undefined identifier 'undefined_thing'" "$work/log" || fail "Slang's diagnostic is missing: $(cat "$work/log")"
grep -q "^dgpb-build: a.slang: wrote out/a.dgpb " "$work/log" || fail "no summary line for a.slang: $(cat "$work/log")"
grep -q "^dgpb-build: 3 modules: 2 written, 1 failed: 'b.slang' (exit 1)$" "$work/log" ||
    fail "no closing summary naming b.slang: $(cat "$work/log")"
echo "ok: one broken module of three: exit 1, the others as single builds write them, its old pair kept"

# Make reads each depfile: touching one module's include rebuilds that bundle only.
cat > Makefile <<'MK'
out/a.dgpb out/c.dgpb:
	touch $@
-include out/a.d
-include out/c.d
MK
grep -q inc_c out/a.d && fail "a.d names c's include"
make -q out/a.dgpb out/c.dgpb || fail "make: the bundles are not up to date after the build"
sleep 1
touch inc_a.slangh
make -q out/c.dgpb || fail "make: touching a's include makes c.dgpb out of date"
if make -q out/a.dgpb; then fail "make: touching a's include leaves a.dgpb up to date"; fi
echo "ok: each module's depfile names its own inputs; make rebuilds only a.dgpb"

# One compiler, its workers shared: with -j 2, a.slang (2 entries) starts 2 workers; c.slang's
# first batch (its discovery: 1 job) already has them. Without the compile service, whose
# workers would be warm already (ctest runs the tests with the run's own).
B -v -j 2 --service off --targets spirv -o one a.slang > "$work/one" 2>&1 || fail "a alone: $(cat "$work/one")"
B -v -j 2 --service off --targets spirv -o three a.slang b.slang c.slang > "$work/three" 2>&1
workers() { sed -n 's/.*note: [0-9]* jobs\{0,1\}, [0-9]* at once (-j 2); \([0-9]*\) compiler workers\{0,1\} started so far$/\1/p' "$1" | sort -n | tail -1; }
[ "$(workers "$work/one")" = 2 ] || fail "a alone did not start 2 workers: $(cat "$work/one")"
[ "$(workers "$work/three")" = 2 ] || fail "three modules started $(workers "$work/three") workers, a alone 2"
grep -q "^c.slang: note: 1 job, 1 at once (-j 2); 2 compiler workers started so far$" "$work/three" ||
    fail "c.slang's first batch did not find the workers a.slang started: $(grep '^c.slang: note: [0-9]* job' "$work/three")"
grep -q "^dgpb-build: 3 modules on one compiler: 2 compiler workers started$" "$work/three" ||
    fail "-v does not say how many workers the modules shared: $(tail -3 "$work/three")"
echo "ok: three modules on one compiler: 2 workers, as for one"

# Usage errors, before anything is built.
mkdir -p x y
cp a.slang x/m.slang
cp c.slang y/m.slang
cp inc_a.slangh x/ && cp inc_c.slangh y/
expect_usage() { # REGEX ARGS...: exit 2, the message, no output folder made
    local regex=$1
    shift
    rm -rf u
    B "$@" > "$work/u" 2>&1; local s=$?
    [ $s -eq 2 ] || fail "$*: exit $s, not 2: $(cat "$work/u")"
    grep -Eq -- "$regex" "$work/u" || fail "$*: no /$regex/: $(cat "$work/u")"
    [ ! -e u ] || fail "$*: something was written"
}
expect_usage "modules 'x/m.slang' and 'y/m.slang' both write 'm.dgpb' into 'u'" -o u x/m.slang y/m.slang
expect_usage "modules 'x/m.slang' and 'x/\./m.slang' both write 'm.dgpb'" x/m.slang x/./m.slang -o u
expect_usage "-MF names one depfile, but 2 modules are given" -o u -MF u/d.d a.slang c.slang
expect_usage "--module-path names one module's path, but 2 modules" -o u --module-path p a.slang c.slang
expect_usage "-o 'u.dgpb' names one bundle, but 2 modules are given: with several modules -o names the folder" -o u.dgpb a.slang c.slang
[ ! -e u.dgpb ] || fail "-o u.dgpb made a folder"
expect_usage "-o 'v/u.dgpb/' names one bundle, but 2 modules are given" -o v/u.dgpb/ a.slang c.slang
[ ! -e v ] || fail "-o v/u.dgpb/ with two modules made a folder"
# (One module and -o NAME.dgpb write that bundle: tests/build_output_file.sh.)
# Without -o each module goes next to itself: one stem in two folders is fine.
B -q --targets spirv x/m.slang y/m.slang || fail "x/m.slang and y/m.slang into their own folders"
[ -e x/m.dgpb ] && [ -e y/m.dgpb ] || fail "x/m.dgpb or y/m.dgpb missing"
echo "ok: one stem twice in one folder, -MF, --module-path, -o FILE.dgpb: usage errors, nothing built"

# --list of several modules.
B --list --targets spirv a.slang b.slang c.slang > "$work/list" 2> "$work/list.err"; s=$?
[ $s -eq 1 ] || fail "--list with a broken module: exit $s"
[ "$(grep -c ':$' "$work/list")" = 2 ] && grep -q '^a.slang:$' "$work/list" && grep -q '^c.slang:$' "$work/list" ||
    fail "--list: not headed by each module: $(cat "$work/list")"
grep -q '^b.slang: error' "$work/list.err" || fail "--list: b's error missing: $(cat "$work/list.err")"
B --list --json --targets spirv a.slang c.slang > "$work/list.json" || fail "--list --json of two modules"
python3 -c '
import json, sys
docs = json.load(open(sys.argv[1]))
assert [d["module"] for d in docs] == ["a.slang", "c.slang"], docs
assert [e["name"] for e in docs[0]["entries"]] == ["a1", "a2"], docs[0]
' "$work/list.json" || fail "--list --json: not an array of both lists: $(cat "$work/list.json")"
B --list --targets spirv -MF u/d.d -o u.dgpb x/m.slang y/m.slang > "$work/list" 2>&1 ||
    fail "--list of two modules of one stem (it writes nothing): $(cat "$work/list")"
echo "ok: --list of several modules: each headed by its name; --json an array; no output checks"

# @FILE: one argument a line, as it stands.
cp c.slang "sp ace.slang"
cp a.slang "@lit.slang"
printf -- '--targets\r\nspirv\r\n-o\r\np out\r\n' > crlf.params
printf -- 'sp ace.slang\n@lit.slang' > modules.params
B -q @crlf.params @modules.params > "$work/p" 2>&1 || fail "@FILE: $(cat "$work/p")"
[ -e "p out/sp ace.dgpb" ] && [ -e "p out/@lit.dgpb" ] || fail "@FILE: not built from the lines: $(ls -R)"
B -q @no-such.params > "$work/p" 2>&1; s=$?
[ $s -eq 3 ] && grep -q "cannot read parameter file 'no-such.params'" "$work/p" || fail "a missing @FILE: exit $s: $(cat "$work/p")"
printf 'a.slang\0\n' > nul.params
B -q @nul.params > "$work/p" 2>&1; s=$?
[ $s -eq 2 ] && grep -q "parameter file 'nul.params' holds a NUL byte" "$work/p" || fail "a NUL in @FILE: exit $s: $(cat "$work/p")"
# 4 MiB of empty lines: four million empty arguments, a usage error (no module is empty),
# costing what the file costs (its size and a pointer a line): it once took every module's
# place in 5 KiB, compared every pair, and ended in a false "out of memory" (exit 3).
head -c 4194304 /dev/zero | tr '\0' '\n' > empty.params
s=0; timeout 120 "$build" --no-cache --no-layouts -q @empty.params a.slang > "$work/p" 2>&1 || s=$?
[ $s -eq 2 ] && grep -q "an empty argument names no module" "$work/p" ||
    fail "a parameter file of empty lines: exit $s, not 2: $(head -c 600 "$work/p")"
echo "ok: @FILE arguments: lines as they stand, CRLF, a leading @ kept; missing exit 3, NUL exit 2, empty lines exit 2"

# SIGINT stops them all: the module being built and those after it are not written, exit 130.
{
    echo 'RWStructuredBuffer<float> data;'
    for i in $(seq 1 120); do
        printf '[shader("compute")]\n[numthreads(64, 1, 1)]\nvoid k%d(uint3 id : SV_DispatchThreadID)\n' "$i"
        printf '{\n    data[id.x] = data[id.x] * %d.0;\n}\n' "$i"
    done
} > many.slang
rm -rf s
setsid "$build" --no-cache --no-layouts -j 2 -o s a.slang many.slang c.slang > "$work/sig" 2>&1 &
pid=$!
for _ in $(seq 1 600); do # until a.slang is written and many.slang is being built
    [ -e s/a.dgpb ] && break
    sleep 0.05
done
sleep 1
kill -INT "$pid"
wait "$pid"; s=$?
[ $s -eq 130 ] || fail "SIGINT: exit $s, not 130: $(cat "$work/sig")"
grep -q "interrupted by signal 2 while building 'many.slang' (not written); 1 of 3 modules written" "$work/sig" ||
    fail "SIGINT: no message naming many.slang: $(cat "$work/sig")"
[ -e s/a.dgpb ] && [ ! -e s/many.dgpb ] && [ ! -e s/c.dgpb ] || fail "SIGINT: wrote $(ls s)"
echo "ok: SIGINT stops every module: exit 130, the later modules not built"
