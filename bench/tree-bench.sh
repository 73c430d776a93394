#!/usr/bin/env bash
# bench/tree-bench.sh - a studio's whole shader tree through CMake and Ninja
# (docs/performance.md, "The tree benchmark").
#
# Generates a tree of MODULES (default 200) modules with bench/tree-gen.py
# (1 to 3 entries each, compute kernels and a few render modules, generator
# conventions and plain Slang, some including shared include files), installs
# dgpb into a temporary prefix (cmake --install of DGPB_BUILD_DIR, default
# build/; or DGPB_PREFIX, an installed prefix, as it is) and configures the
# tree's CMake project against it (find_package(dgpb), one
# dgpb_add_shader_bundle() per module, targets spirv and wgsl, the compile
# cache in a folder of the benchmark's own). Then, for the embedded compiler
# and, with NATIVE_SLANGC=/path/to/bin/slangc, a native one, times:
#   (c)  a cold build: a new build folder and an empty cache, ninja -jJOBS
#        (default 2) (median of COLD_RUNS, default 3);
#   (n)  a no-op build: ninja with nothing to do (median of RUNS, default 5);
#   (e)  one entry edited: the body of one entry of one module changes (EDIT,
#        an entry name; default the first entry of the middle module), ninja
#        rebuilds that module (median of RUNS, each edit a text not built
#        before; the edit is undone, and built again, between runs);
#   (i)  one shared include edited (INCLUDE, default noise.slangh): ninja
#        rebuilds the modules that include it (median of COLD_RUNS);
#   (s)  the seed's pipeline: one slangc process per entry and target, one
#        after the other, as bench/build-bench.sh row (a) (and with a native
#        slangc one layout recorder run per pipeline group and target, as row
#        (n1)), on the first SEED_MODULES modules (default 50), extrapolated
#        linearly by compiles to the whole tree when that is fewer;
#   (o)  the same entries in ONE module (bench/tree-gen.py's one/one.slang),
#        one dgpb-build --no-cache (median of COLD_RUNS);
# and prints the issue's goals next to the figures: cold within 1.3x of (o),
# no-op under 1 s, one-entry edit under 150 ms, the seed's pipeline at least
# 10x slower than (c).
#
# When dgpb-build has a compile service (--service in its --help), the rows
# (c) to (i) are measured for each of SERVICE (default "off auto"), passed to
# every build as DGPB_SERVICE; with auto, (c0) is a cold build with the
# service stopped first (dgpb-build --service-stop) and (c) has it warm.
# Without one, SERVICE (default empty) is still passed on, and ignored.
#
# It fails (exit 1) when a build fails or outputs differ where they must not:
# every cold build and the tree after the edits are undone byte-identical to
# the first cold build; an edited module's bundle byte-identical to a
# dgpb-build --no-cache of the edited module; ninja rebuilding other modules
# than the edited one or the include's users; the seed's pipeline's code
# (and layouts) other than the bundles'; the one module's entries other than
# the tree's, or its compute entries' code other than theirs; the service's
# bundles other than those built without it.
#
#   bench/tree-bench.sh        MODULES=50 RUNS=3 COLD_RUNS=1 bench/tree-bench.sh
#   NATIVE_SLANGC=/opt/slang-native/bin/slangc SEED_MODULES=200 bench/tree-bench.sh
#   DGPB_PREFIX=/opt/dgpb KEEP=1 bench/tree-bench.sh
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MODULES=${MODULES:-200}
SEED=${SEED:-1}
RUNS=${RUNS:-5}
COLD_RUNS=${COLD_RUNS:-3}
JOBS=${JOBS:-2}
SEED_MODULES=${SEED_MODULES:-50}
INCLUDE=${INCLUDE:-noise.slangh}
NATIVE_SLANGC=${NATIVE_SLANGC:-}
cpus=$(nproc)
load0=$(cut -d' ' -f1-3 /proc/loadavg)

fail() {
    echo "tree-bench: $*" >&2
    exit 1
}
note() { echo "tree-bench: $*" >&2; }
for n in MODULES RUNS COLD_RUNS JOBS SEED_MODULES SEED; do
    if ! [[ ${!n} =~ ^[0-9]+$ ]] || ((${!n} == 0)); then fail "$n must be a positive number, not '${!n}'"; fi
done
((SEED_MODULES <= MODULES)) || SEED_MODULES=$MODULES
for tool in cmake ninja python3 node sha256sum; do
    command -v $tool >/dev/null || fail "$tool is missing: install it (tools/setup.sh installs cmake, ninja-build, python3 and Node.js)"
done
[ -z "$NATIVE_SLANGC" ] || [ -x "$NATIVE_SLANGC" ] || fail "NATIVE_SLANGC '$NATIVE_SLANGC' is not an executable"
# Only the benchmark decides which compiler, cache and service a build uses.
unset DGPB_NO_CACHE DGPB_CACHE_DIR DGPB_CACHE_MAX_SIZE DGPB_CACHE_ROOT DGPB_CACHE_REMOTE
unset DGPB_CACHE_REMOTE_READ_ONLY DGPB_CACHE_REMOTE_HEADER DGPB_CACHE_REMOTE_PASSWORD
unset DGPB_SLANGC SLANG_ROOT DGPB_WARNINGS_AS_ERRORS DGPB_SERVICE

tmp=$(mktemp -d)
# shellcheck disable=SC2317 # called by cleanup; defined again once the compilers are known
stop_services() { :; }
cleanup() {
    stop_services
    if [ -n "${KEEP:-}" ]; then note "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 1' TERM INT HUP
export XDG_CACHE_HOME=$tmp/xdg-cache

# The installation the tree uses, as a user's project would.
if [ -n "${DGPB_PREFIX:-}" ]; then
    prefix=$(cd "$DGPB_PREFIX" && pwd)
else
    from=${DGPB_BUILD_DIR:-$root/build}
    [ -x "$from/dgpb-build" ] || fail "$from/dgpb-build is missing: run tools/setup.sh first (or DGPB_PREFIX=an installed prefix)"
    prefix=$tmp/prefix
    cmake --install "$from" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
        { cat "$tmp/install.log" >&2; fail "cmake --install $from failed"; }
fi
dgpb=$prefix/bin/dgpb-build
[ -x "$dgpb" ] || fail "$dgpb is missing"
embedded=$prefix/share/dgpb/slangc-wasm/slangc-wasm
recorder=$prefix/bin/dgpb-slang-layout

# The compile service, when this dgpb-build has one.
has_service=no
help=$("$dgpb" --help 2>&1 || true)
! grep -q -- --service <<<"$help" || has_service=yes
if [ "${SERVICE+set}" != set ]; then
    SERVICE=
    [ $has_service = no ] || SERVICE="off auto"
fi
read -r -a services <<<"$SERVICE"
[ ${#services[@]} -gt 0 ] || services=("")
for s in "${services[@]}"; do
    case $s in "" | auto | off) ;; *) fail "SERVICE: '$s' is not auto or off" ;; esac
done

# The tree.
tree=$tmp/tree
python3 "$root/bench/tree-gen.py" --modules "$MODULES" --seed "$SEED" "$tree"
cp -a "$tree/shaders" "$tmp/original"
inc=$tree/shaders/include
modules=()
for ((i = 0; i < MODULES; i++)); do modules+=("$(printf 'm%03d' "$i")"); done
n_entries=$(wc -l <"$tree/entries.tsv")
n_compute=$(awk -F'\t' '$3 == "compute"' "$tree/entries.tsv" | wc -l)
n_dream=$(awk -F'\t' '$5 == "dream" { print $1 }' "$tree/entries.tsv" | sort -u | wc -l)
n_render=$(awk -F'\t' '$3 != "compute" { print $1 }' "$tree/entries.tsv" | sort -u | wc -l)
compiles=$((2 * n_entries))
[ -f "$inc/$INCLUDE" ] || fail "INCLUDE: no shared include '$INCLUDE' (the tree has $(cut -f1 "$tree/includes.tsv" | tr '\n' ' '))"
inc_users=$(awk -F'\t' -v i="$INCLUDE" '$1 == i { print $2 }' "$tree/includes.tsv")
[ -n "$inc_users" ] || fail "INCLUDE: no module includes $INCLUDE"
inc_count=$(wc -w <<<"$inc_users")
includes_line=$(awk -F'\t' '{ printf "%s%s (%d)", (NR > 1 ? ", " : ""), $1, split($2, a, " ") }' "$tree/includes.tsv")
EDIT=${EDIT:-$(awk -F'\t' -v m="$(printf 'm%03d' $((MODULES / 2)))" '$1 == m { print $2; exit }' "$tree/entries.tsv")}
edit_module=$(awk -F'\t' -v e="$EDIT" '$2 == e { print $1 }' "$tree/entries.tsv")
[ -n "$edit_module" ] || fail "EDIT: no entry '$EDIT' in the tree"

# Edits: each one a text no build has seen (a number n that only grows).
edits=0
edit_entry() {
    edits=$((edits + 1))
    local f=$tree/shaders/$edit_module.slang
    sed -i -E "s#^( *float tweak = 1\\.0)(; // tree-edit: $EDIT)\$#\\1 + $edits.0 / 1024.0\\2#" "$f"
    [ "$(diff "$tmp/original/$edit_module.slang" "$f" | grep -c '^>')" = 1 ] ||
        fail "editing $EDIT did not change one line of $edit_module.slang"
}
edit_include() {
    edits=$((edits + 1))
    local f=$inc/$INCLUDE delta="$edits.0 / 1024.0"
    grep -q "u; // tree-edit: $INCLUDE\$" "$f" && delta="${edits}u"
    sed -i -E "s#= ([^;]*)(; // tree-edit: $INCLUDE)\$#= \\1 + $delta\\2#" "$f"
    [ "$(diff "$tmp/original/include/$INCLUDE" "$f" | grep -c '^>')" = 1 ] ||
        fail "editing $INCLUDE did not change one line"
}
undo_edits() {
    cp "$tmp/original/$edit_module.slang" "$tree/shaders/"
    cp "$tmp/original/include/$INCLUDE" "$inc/"
}

calc() { awk "BEGIN { print $1 }"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# "lo..hi" of the values on standard input, times a scale (1: seconds, 1000: ms), as %.*f.
minmax() { sort -g | awk -v k="$1" -v d="$2" 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.*f..%.*f", d, lo * k, d, hi * k }'; }
spread() { # values... -> "median of N: lo..hi s"
    if [ $# = 1 ]; then echo "1 run"; else echo "median of $#: $(printf '%s\n' "$@" | minmax 1 3) s"; fi
}
med() { printf '%s\n' "$@" | median; }

# same_bundles A B: the bundles and views of every module in folder A and B byte-identical.
same_bundles() {
    local m f
    for m in "${modules[@]}"; do
        for f in "$m.dgpb" "$m.bundle.json"; do
            [ -f "$2/$f" ] || fail "$2/$f is missing"
            cmp -s "$1/$f" "$2/$f" || fail "$3: $f differs from the first cold build's ($1/$f, $2/$f)"
        done
    done
}
# The modules a logged ninja -v run ran dgpb-build for, sorted, on one line.
rebuilt() { grep -e ' -MF ' "$1" | grep -o 'shaders/m[0-9]*\.slang' | sed 's#shaders/##; s#\.slang##' | sort | tr '\n' ' ' | sed 's/ $//'; }
# The compiles those runs reported ("...; 9 compiles in 1.2 s", "0 compiles (from the cache)").
compiles_run() { { grep -o '; [0-9]* compiles' "$1" || true; } | awk '{ n += $2 } END { print n + 0 }'; }

# ninja_run LOG SERVICE BUILD: one timed ninja -v run; prints its wall seconds.
ninja_run() {
    local t0 t1 log=$1 svc=$2 b=$3
    local -a env=()
    [ -z "$svc" ] || env=(DGPB_SERVICE="$svc")
    t0=$EPOCHREALTIME
    env "${env[@]}" ninja -C "$b" -j"$JOBS" -v >"$log" 2>&1 || { tail -n 40 "$log" >&2; fail "ninja failed in $b ($log; KEEP=1 keeps it)"; }
    t1=$EPOCHREALTIME
    calc "$t1 - $t0"
}
# direct SLANGC SERVICE MODULE OUT: one dgpb-build --no-cache of a module, outside CMake.
direct() {
    local -a env=()
    [ -z "$2" ] || env=(DGPB_SERVICE="$2")
    env "${env[@]}" "$dgpb" -q --no-cache --targets spirv,wgsl -I "$inc" --slangc "$1" "$3" -o "$4" 2>"$4.log" ||
        { cat "$4.log" >&2; fail "dgpb-build --no-cache $3 failed"; }
}
service_stop() { # SLANGC
    [ $has_service = yes ] || return 0
    "$dgpb" --slangc "$1" --service-stop >/dev/null 2>&1 || note "warning: dgpb-build --service-stop failed for $1"
}

# configure BUILD SLANGC CACHE: the tree's CMake project in a new build folder.
configure() {
    cmake -S "$tree" -B "$1" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
        "-DTREE_OPTIONS=--slangc;$2;--cache-dir;$3" >"$1.configure.log" 2>&1 ||
        { cat "$1.configure.log" >&2; fail "the tree does not configure against $prefix"; }
}
# check_cold LOG BUILD REF WHAT: a cold build built every module; its bundles are
# the reference (the first) or byte-identical to it.
check_cold() {
    [ "$(rebuilt "$1" | wc -w)" = "$MODULES" ] || fail "$4: not every module was built ($1)"
    if [ -d "$3" ]; then same_bundles "$3" "$2/bundles" "$4"; else cp -a "$2/bundles" "$3"; fi
}
# The figures of one compiler and service: R[<key>,<what>].
declare -A R
measure() { # KEY SLANGC SERVICE
    local key=$1 slangc=$2 svc=$3 w=$tmp/$1 ref=$tmp/ref-${1%%/*} b r t
    local -a cold=() noop=() edit=() incl=()
    mkdir -p "$w"
    if [ "$svc" = auto ]; then
        note "$key: a cold build with the service stopped first"
        service_stop "$slangc"
        configure "$w/build-c0" "$slangc" "$w/cache-c0"
        R[$key,c0]=$(ninja_run "$w/c0.log" "$svc" "$w/build-c0")
        check_cold "$w/c0.log" "$w/build-c0" "$ref" "$key cold build, the service started by it"
        rm -rf "$w/build-c0" "$w/cache-c0"
    fi
    note "$key: $COLD_RUNS cold build(s) of $MODULES modules"
    for ((r = 0; r < COLD_RUNS; r++)); do
        ((r == 0)) || rm -rf "$b" "$w/cache$((r - 1))"
        b=$w/build$r
        configure "$b" "$slangc" "$w/cache$r"
        cold+=("$(ninja_run "$w/cold$r.log" "$svc" "$b")")
        check_cold "$w/cold$r.log" "$b" "$ref" "$key cold build $((r + 1))"
    done
    R[$key,c]=$(med "${cold[@]}") R[$key,c_spread]=$(spread "${cold[@]}")
    R[$key,c_compiles]=$(compiles_run "$w/cold$((COLD_RUNS - 1)).log")

    note "$key: $RUNS no-op build(s)"
    for ((r = 0; r < RUNS; r++)); do
        noop+=("$(ninja_run "$w/noop.log" "$svc" "$b")")
        grep -qx 'ninja: no work to do.' "$w/noop.log" || fail "$key: the no-op build did work: $(head -n 3 "$w/noop.log")"
    done
    R[$key,n]=$(med "${noop[@]}") R[$key,n_spread]=$(spread "${noop[@]}")

    note "$key: $RUNS build(s) after editing $EDIT"
    for ((r = 0; r < RUNS; r++)); do
        edit_entry
        edit+=("$(ninja_run "$w/edit.log" "$svc" "$b")")
        [ "$(rebuilt "$w/edit.log")" = "$edit_module" ] ||
            fail "$key: editing $EDIT rebuilt '$(rebuilt "$w/edit.log")', not $edit_module alone"
        if ((r == RUNS - 1)); then
            direct "$slangc" "$svc" "$tree/shaders/$edit_module.slang" "$w/direct-edit"
            for f in "$edit_module.dgpb" "$edit_module.bundle.json"; do
                cmp -s "$b/bundles/$f" "$w/direct-edit/$f" ||
                    fail "$key: after editing $EDIT, $f differs from a dgpb-build --no-cache of the module"
            done
        fi
        R[$key,e_compiles]=$(compiles_run "$w/edit.log")
        undo_edits
        ninja_run "$w/undo.log" "$svc" "$b" >/dev/null
    done
    R[$key,e]=$(med "${edit[@]}") R[$key,e_spread]=$(spread "${edit[@]}")

    note "$key: $COLD_RUNS build(s) after editing $INCLUDE"
    for ((r = 0; r < COLD_RUNS; r++)); do
        edit_include
        incl+=("$(ninja_run "$w/include.log" "$svc" "$b")")
        [ "$(rebuilt "$w/include.log")" = "$inc_users" ] ||
            fail "$key: editing $INCLUDE rebuilt '$(rebuilt "$w/include.log")', not its users '$inc_users'"
        if ((r == COLD_RUNS - 1)); then
            t=${inc_users%% *}
            direct "$slangc" "$svc" "$tree/shaders/$t.slang" "$w/direct-include"
            for f in "$t.dgpb" "$t.bundle.json"; do
                cmp -s "$b/bundles/$f" "$w/direct-include/$f" ||
                    fail "$key: after editing $INCLUDE, $f differs from a dgpb-build --no-cache of the module"
            done
        fi
        R[$key,i_compiles]=$(compiles_run "$w/include.log")
        undo_edits
        ninja_run "$w/undo.log" "$svc" "$b" >/dev/null
    done
    R[$key,i]=$(med "${incl[@]}") R[$key,i_spread]=$(spread "${incl[@]}")
    # Edited and undone: the tree's bundles are the cold build's again.
    same_bundles "$tmp/ref-${key%%/*}" "$b/bundles" "$key after the edits were undone"
    ninja_run "$w/noop.log" "$svc" "$b" >/dev/null
    grep -qx 'ninja: no work to do.' "$w/noop.log" || fail "$key: the build after the edits were undone left work"
    rm -rf "$b" "$w/cache$((COLD_RUNS - 1))"
}

# bundle_codes DIR...: "target entry stage sha256" of every entry of the views in DIR.
bundle_codes() {
    python3 - "$@" <<'PY'
import glob, json, os, sys
for d in sys.argv[1:]:
    for f in sorted(glob.glob(os.path.join(d, "*.bundle.json"))):
        for t in json.load(open(f))["targets"]:
            for e in t["entries"]:
                print(t["name"], e["name"], e["stage"], e["code"]["sha256"])
PY
}

# seed_pipeline COMPILER_KEY SLANGC: the seed's pipeline on the first SEED_MODULES modules.
seed_pipeline() {
    local key=$1 slangc=$2 out=$tmp/seed-$1 t0 t1 t2 target macro mod entry stage group sha
    local n=0 layouts=0 checked=0
    mkdir -p "$out"
    awk -F'\t' -v k="$SEED_MODULES" 'substr($1, 2) + 0 < k' "$tree/entries.tsv" >"$tmp/seed.tsv"
    note "$key: the seed's pipeline on $SEED_MODULES modules"
    t0=$EPOCHREALTIME
    for target in spirv wgsl; do
        macro=DREAM_TARGET_${target^^}
        while IFS=$'\t' read -r mod entry stage group _; do
            "$slangc" "$tree/shaders/$mod.slang" -I "$inc" -D"$group" -D"$macro" -matrix-layout-row-major \
                -target "$target" -entry "$entry" -stage "$stage" -o "$out/$entry.$target" \
                -reflection-json "$out/$entry.$target.json" || fail "the seed's pipeline: $slangc failed on $entry ($target)"
            n=$((n + 1))
        done <"$tmp/seed.tsv"
    done
    t1=$EPOCHREALTIME
    if [ "$key" = native ]; then
        # One recorder run per pipeline group and target: a compute entry alone,
        # a module's render entries together in declaration order.
        for target in spirv wgsl; do
            macro=DREAM_TARGET_${target^^}
            local -a args
            while IFS=$'\t' read -r mod group; do
                args=()
                while IFS=$'\t' read -r entry stage; do args+=(-entry "$entry" -stage "$stage"); done < <(
                    awk -F'\t' -v m="$mod" -v g="$group" '$1 == m && $4 == g { print $2 "\t" $3 }' "$tmp/seed.tsv")
                "$recorder" --slangc "$slangc" "$tree/shaders/$mod.slang" -I "$inc" -D"$group" -D"$macro" \
                    -matrix-layout-row-major -target "$target" "${args[@]}" -o "$out/$mod.$group.$target.layout" ||
                    fail "the seed's pipeline: the recorder failed on $mod $group ($target)"
                layouts=$((layouts + 1))
            done < <(awk -F'\t' '{ print $1 "\t" $4 }' "$tmp/seed.tsv" | awk '!seen[$0]++')
        done
    fi
    t2=$EPOCHREALTIME
    # The same code as the bundles', compile for compile.
    bundle_codes "$tmp/ref-$key" >"$tmp/codes-$key"
    while read -r target entry stage sha; do
        [ -f "$out/$entry.$target" ] || continue
        [ "$(sha256sum <"$out/$entry.$target" | cut -d' ' -f1)" = "$sha" ] ||
            fail "the seed's pipeline's $entry.$target differs from the bundle's code ($key)"
        checked=$((checked + 1))
    done <"$tmp/codes-$key"
    ((checked == n)) || fail "the seed's pipeline compiled $n entries and targets, the bundles hold $checked of them ($key)"
    # ... and the same layouts: each recorded one is among its module's target's layouts.
    if ((layouts > 0)); then
        python3 - "$out" "$tmp/ref-$key" <<'PY' || fail "the seed's pipeline's layouts differ from the bundles' ($key)"
import glob, hashlib, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.layout"))):
    mod, _, target, _ = os.path.basename(f).split(".")
    view = json.load(open(os.path.join(sys.argv[2], mod + ".bundle.json")))
    have = {l["sha256"] for t in view["targets"] if t["name"] == target for l in t["layouts"]}
    if hashlib.sha256(open(f, "rb").read()).hexdigest() not in have:
        sys.exit(f"tree-bench: the seed's pipeline's {os.path.basename(f)} is none of {mod}.dgpb's {target} layouts")
PY
    fi
    R[$key,s_measured]=$(calc "$t2 - $t0")
    R[$key,s_compiles_only]=$(calc "$t1 - $t0")
    R[$key,s_n]=$n R[$key,s_layouts]=$layouts
    R[$key,s]=$(calc "($t2 - $t0) * $compiles / $n")
}

# one_module COMPILER_KEY SLANGC SERVICE: the same entries in one module, one dgpb-build.
one_module() {
    local key=$1 slangc=$2 svc=$3 out=$tmp/one-$1 r t0 t1
    local -a times=() env=()
    [ -z "$svc" ] || env=(DGPB_SERVICE="$svc")
    note "$key: $COLD_RUNS build(s) of the one module"
    for ((r = 0; r < COLD_RUNS; r++)); do
        rm -rf "$out"
        t0=$EPOCHREALTIME
        env "${env[@]}" "$dgpb" --no-cache --targets spirv,wgsl -I "$inc" --slangc "$slangc" \
            "$tree/one/one.slang" -o "$out" 2>"$tmp/one.log" || { tail -n 40 "$tmp/one.log" >&2; fail "the one module failed ($key)"; }
        t1=$EPOCHREALTIME
        times+=("$(calc "$t1 - $t0")")
    done
    R[$key,o]=$(med "${times[@]}") R[$key,o_spread]=$(spread "${times[@]}")
    R[$key,o_compiles]=$(compiles_run "$tmp/one.log")
    # The same entries as the tree, and every compute entry's code the tree's
    # (a render entry sees the other modules' render globals, so its bindings move).
    python3 - "$out" "$tmp/ref-$key" <<'PY' || fail "the one module does not hold the tree's entries ($key)"
import glob, json, os, sys
def codes(d):
    r = {}
    for f in glob.glob(os.path.join(d, "*.bundle.json")):
        for t in json.load(open(f))["targets"]:
            for e in t["entries"]:
                r[(t["name"], e["name"])] = (e["stage"], e["code"]["sha256"])
    return r
one, tree = codes(sys.argv[1]), codes(sys.argv[2])
if set(one) != set(tree):
    sys.exit(f"tree-bench: entries only in the one module: {sorted(set(one) - set(tree))[:5]}, only in the tree: {sorted(set(tree) - set(one))[:5]}")
bad = [k for k, (stage, sha) in tree.items() if stage == "compute" and one[k][1] != sha]
if bad:
    sys.exit(f"tree-bench: the one module's code differs from the tree's for {len(bad)} compute entries: {sorted(bad)[:5]}")
PY
}

compilers=(embedded)
[ -z "$NATIVE_SLANGC" ] || compilers+=(native)
slangc_of() { if [ "$1" = embedded ]; then echo "$embedded"; else echo "$NATIVE_SLANGC"; fi; }
# shellcheck disable=SC2317 # called by cleanup
stop_services() {
    local c
    for c in "${compilers[@]}"; do service_stop "$(slangc_of "$c")"; done
}

for c in "${compilers[@]}"; do
    for s in "${services[@]}"; do measure "$c/${s:-default}" "$(slangc_of "$c")" "$s"; done
    # The service's bundles (or the last mode's) are the reference for the two rows below.
    seed_pipeline "$c" "$(slangc_of "$c")"
    one_module "$c" "$(slangc_of "$c")" "${services[-1]}"
done

# The report.
printf 'tree: %d modules (%d in the generator'"'"'s conventions, %d plain; %d render), %d entries (%d compute), targets spirv and wgsl: %d compiles\n' \
    "$MODULES" "$n_dream" $((MODULES - n_dream)) "$n_render" "$n_entries" "$n_compute" "$compiles"
printf 'shared includes (modules that include them): %s\n' "$includes_line"
printf 'build: CMake %s, Ninja %s -j%d, one dgpb_add_shader_bundle() per module; edits: entry %s (%s), include %s (%d modules)\n' \
    "$(cmake --version | sed -n '1s/cmake version //p')" "$(ninja --version)" "$JOBS" "$EDIT" "$edit_module" "$INCLUDE" "$inc_count"
printf 'machine: %s CPUs (%s), %s memory; %s; load average %s at the start, %s at the end\n' \
    "$cpus" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
    "$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)" \
    "$(date -u '+%Y-%m-%d %H:%M UTC')" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'dgpb-build: %s; compile service: %s\n' "$("$dgpb" --version | head -n 1)" \
    "$([ $has_service = yes ] && echo "yes (SERVICE: ${SERVICE})" || echo "none in this dgpb-build${SERVICE:+ (DGPB_SERVICE=$SERVICE passed on)}")"
verdict() { awk "BEGIN { print ($1) ? \"met\" : \"missed\" }"; }
# row LABEL FIGURE UNIT DETAIL: one line of the table; s figures with 2 decimals, ms with 1.
row() {
    local fig
    if [ "$3" = ms ]; then fig=$(printf '%.1f ms' "$(calc "$2 * 1000")"); else fig=$(printf '%.2f s' "$2"); fi
    printf '  %-48s %11s  (%s)\n' "$1" "$fig" "$4"
}
for c in "${compilers[@]}"; do
    echo
    printf '%s compiler: %s\n' "$c" "$("$dgpb" --slangc "$(slangc_of "$c")" --version | grep -E '^slang ' || true)"
    for s in "${services[@]}"; do
        k="$c/${s:-default}"
        [ -z "$s" ] || printf ' SERVICE=%s\n' "$s"
        [ -z "${R[$k,c0]:-}" ] || row "(c0) cold build, the service started by it" "${R[$k,c0]}" s "1 run"
        row "(c)  cold build, ninja -j$JOBS, empty cache" "${R[$k,c]}" s "${R[$k,c_spread]}; ${R[$k,c_compiles]} compiles"
        row "(n)  no-op build" "${R[$k,n]}" ms "${R[$k,n_spread]}"
        row "(e)  $EDIT edited ($edit_module rebuilt)" "${R[$k,e]}" ms "${R[$k,e_spread]}; ${R[$k,e_compiles]} compiles"
        row "(i)  $INCLUDE edited ($inc_count modules rebuilt)" "${R[$k,i]}" s "${R[$k,i_spread]}; ${R[$k,i_compiles]} compiles"
    done
    if ((SEED_MODULES < MODULES)); then
        seed_first="the first $SEED_MODULES modules" && [ "$SEED_MODULES" = 1 ] && seed_first="the first module"
        seed_how="EXTRAPOLATED from $seed_first: ${R[$c,s_n]} of $compiles compiles"
        [ "$c" != native ] || seed_how+=" and ${R[$c,s_layouts]} layouts"
        seed_how+=" in $(printf '%.2f' "${R[$c,s_measured]}") s, times $compiles/${R[$c,s_n]}"
    else
        seed_how="all $compiles compiles"
        [ "$c" != native ] || seed_how+=" and ${R[$c,s_layouts]} layouts"
    fi
    [ "$c" != native ] || seed_how+="; the compiles alone $(printf '%.2f' "${R[$c,s_compiles_only]}") s measured"
    row "(s)  the seed's pipeline, one slangc a compile" "${R[$c,s]}" s "$seed_how"
    row "(o)  the same entries in one module" "${R[$c,o]}" s \
        "${R[$c,o_spread]}; one dgpb-build --no-cache, ${R[$c,o_compiles]} compiles"
    k="$c/${services[-1]:-default}"
    printf ' goals%s:\n' "${services[-1]:+ (SERVICE=${services[-1]})}"
    printf '  cold within 1.3x of one module:  (c)/(o) = %.2fx: %s\n' "$(calc "${R[$k,c]} / ${R[$c,o]}")" \
        "$(verdict "${R[$k,c]} <= 1.3 * ${R[$c,o]}")"
    printf '  no-op under 1 s:                 (n) = %.1f ms: %s\n' "$(calc "${R[$k,n]} * 1000")" \
        "$(verdict "${R[$k,n]} < 1")"
    printf '  one-entry edit under 150 ms:     (e) = %.0f ms: %s\n' "$(calc "${R[$k,e]} * 1000")" \
        "$(verdict "${R[$k,e]} < 0.15")"
    printf '  the seed at least 10x slower:    (s)/(c) = %.2fx: %s\n' "$(calc "${R[$c,s]} / ${R[$k,c]}")" \
        "$(verdict "${R[$c,s]} >= 10 * ${R[$k,c]}")"
done
echo
echo "bundles: every cold build, and the tree after its edits were undone, byte-identical to the first cold"
echo "build; edited modules byte-identical to dgpb-build --no-cache; the seed's code and the one module's"
echo "compute code the bundles'${SERVICE:+; with SERVICE=${SERVICE// //}, the same bundles in every mode}"
