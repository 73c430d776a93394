#!/usr/bin/env bash
# cache.sh CASE BUILD WORK [SLANG_ROOT | RECORDER FAKE_SLANG] - dgpb-build's depfile and compile cache
# (docs/build.md "Depfile", docs/cache.md) on a small generated module with an
# #include and an import (module_parts: one with an `__include`). Everything is
# written under WORK (emptied first), never into the home folder.
set -euo pipefail
trap 'echo "FAIL: cache.sh line $LINENO: exit $? from: $BASH_COMMAND" >&2' ERR
case_=$1 build=$2 work=$3 native_root=${4:-} recorder=${4:-} fake=${5:-}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
unset DGPB_NO_CACHE DGPB_CACHE_MAX_SIZE DGPB_SLANGC SLANG_ROOT DGPB_CACHE_REMOTE DGPB_CACHE_REMOTE_READ_ONLY
rm -rf "$work"
mkdir -p "$work/mod/inc"
cd "$work/mod"
export DGPB_CACHE_DIR="$work/default-cache"

fail() { echo "FAIL: $*" >&2; exit 1; }

cat >inc/common.slangh <<'EOF'
float scale_of(float x) { return x * 3.0; }
EOF
cat >lib.slang <<'EOF'
module lib;
public float offset_of(float x) { return x + 1.0; }
EOF
cat >m.slang <<'EOF'
// two compute shaders in the generator's conventions
#include "inc/common.slangh"
import lib;
#if defined(DREAM_SHADER_a)
RWStructuredBuffer<float> a_buf;
[shader("compute")]
[numthreads(64, 1, 1)]
void a(uint3 id : SV_DispatchThreadID) { a_buf[id.x] = scale_of(a_buf[id.x]); }
#endif
#if defined(DREAM_SHADER_b)
RWStructuredBuffer<float> b_buf;
[shader("compute")]
[numthreads(64, 1, 1)]
void b(uint3 id : SV_DispatchThreadID) { b_buf[id.x] = offset_of(b_buf[id.x]); }
#endif
EOF

# A plain module (no group guards: every compile sees the whole text): three compute
# shaders and a render group of two; a's code calls inc/common.slangh.
write_plain() {
    cat >plain.slang <<'EOF'
#include "inc/common.slangh"
RWStructuredBuffer<float> a_buf;
RWStructuredBuffer<float> b_buf;
[shader("compute")]
[numthreads(64, 1, 1)]
void a(uint3 id : SV_DispatchThreadID) { a_buf[id.x] = scale_of(a_buf[id.x]); }
[shader("compute")]
[numthreads(64, 1, 1)]
void b(uint3 id : SV_DispatchThreadID) { b_buf[id.x] = b_buf[id.x] + 1.0; }
[shader("compute")]
[numthreads(64, 1, 1)]
void c(uint3 id : SV_DispatchThreadID) { b_buf[id.x] = b_buf[id.x] * 2.0; }
struct VsOut { float4 position : SV_Position; };
[shader("vertex")] VsOut vs(uint v : SV_VertexID) { VsOut o; o.position = float4(float(v), 0, 0, 1); return o; }
[shader("fragment")] float4 fs(VsOut i) : SV_Target { return float4(1, 0, 0, 1); }
EOF
}

# B [options...]: a build of m.slang for spirv and wgsl; its summary line goes to $work/last.
B() {
    "$build" --targets spirv,wgsl --no-layouts "$@" m.slang 2>"$work/last" ||
        { cat "$work/last" >&2; return 1; }
}
# BE VAR=VALUE [options...]: B with VAR set in the build's environment.
BE() {
    local setting=$1
    shift
    env "$setting" "$build" --targets spirv,wgsl --no-layouts "$@" m.slang 2>"$work/last" ||
        { cat "$work/last" >&2; return 1; }
}
compiles() { sed -n 's/.*; \([0-9]*\) compiles.*/\1/p' "$work/last"; }
stat_of() { "$build" --cache-dir "$1" --cache-stats | sed -n "s/^$2: //p"; }
same() { cmp "$1/m.dgpb" "$2/m.dgpb" && cmp "$1/m.bundle.json" "$2/m.bundle.json"; }
reference() { # DIR: the bundle without the cache
    "$build" --targets spirv,wgsl --no-layouts --no-cache -q -o "$1" m.slang
}

case $case_ in
depfile)
    B -MD -o out --cache-dir "$work/c"
    printf '%s\n' 'out/m.dgpb out/m.bundle.json: \' ' m.slang \' ' inc/common.slangh \' \
        ' lib.slang' '' 'inc/common.slangh:' '' 'lib.slang:' >"$work/expect.d"
    diff -u "$work/expect.d" out/m.d || fail "the depfile differs"
    # From the cache, the same depfile.
    rm out/m.d
    B -MD -o out --cache-dir "$work/c"
    grep -q "(from the cache)" "$work/last" || fail "the second build was not a cache hit"
    diff -u "$work/expect.d" out/m.d || fail "the cached build's depfile differs"
    # -MF names the file; the targets are the outputs as written.
    mkdir -p deps
    B -MF "deps/m dollar\$.d" -o "$work/abs out" --no-cache
    head -1 "deps/m dollar\$.d" | grep -qF "$(printf '%s' "$work/abs out" | sed 's/ /\\ /g')/m.dgpb" ||
        fail "-MF: $(head -1 "deps/m dollar\$.d")"
    # The embedded compiler names what it read; nothing on failure.
    cp m.slang good.slang
    echo "this is not Slang" >>m.slang
    rm -rf out
    if B -MD -o out --no-cache; then fail "a broken module built"; fi
    [ ! -e out/m.d ] || fail "a failed build wrote a depfile"
    echo "ok: depfile content, from the cache, -MF, none on failure"
    ;;
make_ninja)
    cat >Makefile <<EOF
out/m.dgpb: m.slang
	"$build" -q --targets spirv,wgsl --no-layouts --cache-dir "$work/c" -MD -o out m.slang
-include out/m.d
EOF
    make -s >/dev/null
    make -q || fail "make: not up to date after a build"
    touch inc/common.slangh
    if make -q; then fail "make: an edited include does not rebuild"; fi
    make -s >/dev/null
    make -q || fail "make: not up to date after the rebuild"
    command -v ninja >/dev/null || { echo "ninja not installed (ninja-build)"; exit 77; }
    cat >build.ninja <<EOF
rule dgpb
  command = "$build" -q --targets spirv,wgsl --no-layouts --cache-dir "$work/c" -MD -o nout m.slang
  depfile = nout/m.d
  deps = gcc
build nout/m.dgpb nout/m.bundle.json: dgpb m.slang
EOF
    ninja >/dev/null
    ninja -n | grep -q "no work to do" || fail "ninja: work left after a build"
    touch lib.slang
    ninja -n | grep -q "no work to do" && fail "ninja: an edited import does not rebuild"
    ninja >/dev/null
    ninja -n | grep -q "no work to do" || fail "ninja: work left after the rebuild"
    # A deleted include (and its #include line) breaks neither.
    sed -i '/#include/d; s/scale_of(a_buf\[id.x\])/a_buf[id.x] * 3.0/' m.slang
    rm inc/common.slangh
    make -s >/dev/null || fail "make: a deleted include breaks the build"
    ninja >/dev/null || fail "ninja: a deleted include breaks the build"
    grep -q common out/m.d && fail "make: the depfile still names the deleted include"
    echo "ok: make and ninja rebuild on edits, skip unchanged, survive a deleted include"
    ;;
make_ninja_odd)
    # A module, its include and its import in a folder named with a space, `:`, `#` and
    # `$`, the outputs in another: the depfile escapes them so that Make and Ninja both
    # read them back, Slang's own `\:` is read back (a cache hit, no phantom path), an
    # edited include rebuilds, a deleted one breaks neither.
    # shellcheck disable=SC2016
    d='odd dir:#$x' o='out dir:#$x' no='nout dir:#$x'
    mkdir -p "$d"
    mv inc lib.slang m.slang "$d/"
    cat >b.sh <<EOF
#!/bin/sh
exec "$build" -q --targets spirv,wgsl --no-layouts --cache-dir "$work/c" -MF "\$1" -o "\$2" 'odd dir:#\$x/m.slang'
EOF
    chmod +x b.sh
    ./b.sh first.d "$o" || fail "the build in '$d' failed"
    # shellcheck disable=SC2016
    printf '%s\n' 'out\ dir\:\#$$x/m.dgpb out\ dir\:\#$$x/m.bundle.json: \' \
        ' odd\ dir\:\#$$x/m.slang \' ' odd\ dir\:\#$$x/inc/common.slangh \' \
        ' odd\ dir\:\#$$x/lib.slang' '' 'odd\ dir\:\#$$x/inc/common.slangh:' '' \
        'odd\ dir\:\#$$x/lib.slang:' >"$work/expect.d"
    diff -u "$work/expect.d" first.d || fail "the depfile differs (phantom or unescaped paths)"
    "$build" --targets spirv,wgsl --no-layouts --cache-dir "$work/c" -o again "$d/m.slang" \
        2>"$work/last" || fail "the second build failed"
    [ "$(compiles)" = 0 ] || fail "no cache hit in '$d': $(cat "$work/last")"
    # shellcheck disable=SC2016
    printf '%s\n' 'out\ dir\:\#$$x/m.dgpb: odd\ dir\:\#$$x/m.slang' \
        "	./b.sh odd.d 'out dir:#\$\$x'" '-include odd.d' >Makefile
    # shellcheck disable=SC2016
    printf '%s\n' 'rule dgpb' "  command = ./b.sh nodd.d 'nout dir:#\$\$x'" '  depfile = nodd.d' \
        '  deps = gcc' 'build nout$ dir$:#$$x/m.dgpb: dgpb odd$ dir$:#$$x/m.slang' >build.ninja
    command -v ninja >/dev/null || fail "ninja is not installed (Debian: ninja-build, tools/setup.sh)"
    make -s || fail "make: the first build failed"
    ninja >/dev/null || fail "ninja: the first build failed"
    make -q || fail "make: not up to date after a build"
    ninja -n | grep -q "no work to do" || fail "ninja: work left after a build"
    touch -d '1 hour ago' "$o/m.dgpb" "$no/m.dgpb"
    touch "$d/inc/common.slangh"
    if make -q; then fail "make: an edited include in '$d' does not rebuild"; fi
    ninja -n | grep -q "no work to do" && fail "ninja: an edited include in '$d' does not rebuild"
    make -s && ninja >/dev/null || fail "the rebuild failed"
    [ "$o/m.dgpb" -nt "$d/inc/common.slangh" ] || fail "make did not rebuild"
    [ "$no/m.dgpb" -nt "$d/inc/common.slangh" ] || fail "ninja did not rebuild"
    make -q || fail "make: not up to date after the rebuild"
    ninja -n | grep -q "no work to do" || fail "ninja: work left after the rebuild"
    # A deleted include (and its #include line): no "No rule to make target", rebuilt.
    touch -d '1 hour ago' "$o/m.dgpb" "$no/m.dgpb"
    sed -i '/#include/d; s/scale_of(a_buf\[id.x\])/a_buf[id.x] * 3.0/' "$d/m.slang"
    rm "$d/inc/common.slangh"
    make -s 2>"$work/make.err" || fail "make: a deleted include breaks the build: $(cat "$work/make.err")"
    ninja >/dev/null || fail "ninja: a deleted include breaks the build"
    [ "$o/m.dgpb" -nt "$d/m.slang" ] && [ "$no/m.dgpb" -nt "$d/m.slang" ] ||
        fail "a deleted include did not rebuild"
    grep -q common odd.d && fail "make: the depfile still names the deleted include"
    ninja -t deps | grep -q common && fail "ninja: the depfile still names the deleted include"
    # What Make and Ninja cannot both read back: exit 2 naming the path, nothing written;
    # without a depfile the same module builds.
    for bad in 'a=b' 'a%b' 'a;b' 'a|b' "a$(printf '\t')b"; do
        mkdir -p "$bad"
        cp "$d/m.slang" "$d/lib.slang" "$bad/"
        st=0
        "$build" -q --targets spirv,wgsl --no-layouts --no-cache -MD -o "$work/refused" \
            "$bad/m.slang" 2>"$work/last" || st=$?
        [ "$st" = 2 ] || fail "'$bad': exit $st, not 2: $(cat "$work/last")"
        shown=$(printf '%s' "$bad" | sed 's/\t/\\t/')
        grep -qF "the depfile cannot name '$shown/m.slang'" "$work/last" ||
            fail "'$bad': $(cat "$work/last")"
        [ -z "$(ls -A "$work/refused" 2>/dev/null)" ] || fail "'$bad': something was written"
        "$build" -q --targets spirv,wgsl --no-layouts --no-cache -o "$work/fine" "$bad/m.slang" ||
            fail "'$bad': no depfile asked, yet the build failed"
    done
    echo "ok: odd folders: escaped for make and ninja, Slang's escapes read, refused with exit 2"
    ;;
cold_warm)
    C=$work/c
    reference ref
    B -o out --cache-dir "$C"
    n=$(compiles)
    [ "$n" -gt 0 ] || fail "the cold build ran no compile"
    same out ref || fail "the cold cached build differs from an uncached one"
    [ "$(stat_of "$C" builds)" = "0 hits, 1 misses" ] || fail "builds: $(stat_of "$C" builds)"
    [ "$(stat_of "$C" compiles)" = "0 hits, $n misses" ] || fail "compiles: $(stat_of "$C" compiles)"
    cp -r out cold
    rm -rf out
    B -o out --cache-dir "$C"
    [ "$(compiles)" = 0 ] && grep -q "(from the cache)" "$work/last" || fail "warm: $(cat "$work/last")"
    same out ref || fail "the warm build differs from an uncached one"
    [ "$(stat_of "$C" builds)" = "1 hits, 1 misses" ] || fail "builds: $(stat_of "$C" builds)"
    # Another output folder: another build, every compile from the cache.
    B -o other --cache-dir "$C"
    [ "$(compiles)" = 0 ] || fail "other folder: $(cat "$work/last")"
    same other ref || fail "the build from cached compiles differs from an uncached one"
    [ "$(stat_of "$C" compiles)" = "$n hits, $n misses" ] || fail "compiles: $(stat_of "$C" compiles)"
    echo "ok: $n compiles cold, none warm, byte-identical bundles"
    ;;
invalidate)
    C=$work/c
    B -o out --cache-dir "$C"
    cp -r out before
    # An edited include: its compiles run again, the bundle is the uncached one.
    sed -i 's/x \* 3.0/x * 5.0/' inc/common.slangh
    B -o out --cache-dir "$C"
    [ "$(compiles)" -gt 0 ] || fail "an edited include was not compiled again"
    reference ref1
    same out ref1 || fail "after editing the include: differs from an uncached build"
    cmp -s out/m.dgpb before/m.dgpb && fail "the edited include changed nothing"
    # One guarded entry's body: that entry's compiles only. The discovery reads the
    # module's declarations, not the functions' bodies (docs/cache.md, "What an entry
    # depends on"), so it comes from the cache, as entry a does.
    sed -i 's/offset_of(b_buf\[id.x\])/offset_of(b_buf[id.x]) * 2.0/' m.slang
    read -r hits0 misses0 <<<"$(stat_of "$C" compiles | sed 's/ hits, / /; s/ misses//')"
    B -v -o out --cache-dir "$C"
    read -r hits1 misses1 <<<"$(stat_of "$C" compiles | sed 's/ hits, / /; s/ misses//')"
    ran=$(grep -c "note: .* -target " "$work/last" || true)
    grep "note: .* -target " "$work/last" | grep -q -- "-entry a " && fail "entry a was compiled again"
    [ "$ran" = 2 ] || fail "expected 2 compiles (b for spirv and wgsl), got $ran"
    [ "$((misses1 - misses0))" = 2 ] && [ "$((hits1 - hits0))" = 4 ] ||
        fail "cache counters: $((misses1 - misses0)) misses (not 2: b, twice)," \
            "$((hits1 - hits0)) hits (not 4: the discovery and a, twice)"
    # A declaration (entry b's thread group size): the discovery runs again, one compile
    # per target that generates no code (-skip-codegen, no -o), and b's compiles.
    sed -i '/DREAM_SHADER_b/,/^void b/s/numthreads(64, 1, 1)/numthreads(16, 1, 1)/' m.slang
    B -v -o out --cache-dir "$C"
    discovery=$(grep "note: .* -target " "$work/last" | grep -v -- " -entry ") || true
    [ "$(printf '%s\n' "$discovery" | grep -c -- ' -skip-codegen ')" = 2 ] &&
        ! printf '%s\n' "$discovery" | grep -q -- ' -o ' ||
        fail "after b's thread group size: not 2 discoveries without code: $discovery"
    reference ref2
    same out ref2 || fail "after editing entry b: differs from an uncached build"
    # The compiler is known by its content, not its place: a copy of the
    # installation elsewhere (its files touched) hits the entries of the
    # original; a changed program misses. (--slangc names a compiler dgpb-build
    # runs as a native slangc: known by its program, its libslang and version.)
    real=$(readlink -f "$("$build" --version | sed -n 's/^slang [^:]*: \(.*\) (.*/\1/p')")
    cp -rL "$(dirname "$real")" slangc-first
    B -o copy --cache-dir "$C" --slangc "$work/mod/slangc-first/slangc-wasm"
    cp -rL "$(dirname "$real")" slangc-copy
    touch -d '2001-01-01' slangc-copy/slangc-wasm
    B -o copy --cache-dir "$C" --slangc "$work/mod/slangc-copy/slangc-wasm"
    [ "$(compiles)" = 0 ] || fail "the same compiler installed elsewhere missed: $(cat "$work/last")"
    same copy ref2 || fail "the copied compiler's build differs"
    echo "// changed" >>slangc-copy/slangc-wasm
    B -o copy --cache-dir "$C" --slangc "$work/mod/slangc-copy/slangc-wasm"
    [ "$(compiles)" -gt 0 ] || fail "a compiler with a changed program hit the cache"
    B -o copy --cache-dir "$C" --slangc "$work/mod/slangc-copy/slangc-wasm"
    [ "$(compiles)" = 0 ] || fail "the changed compiler missed its own entries"
    # What the CUDA tools read from the environment is part of the identity: each variable
    # set (a value nvcc would take) misses, and hits again on its own entries.
    for var in NVCC_APPEND_FLAGS NVCC_PREPEND_FLAGS NVCC_CCBIN; do
        BE "$var=-use_fast_math" -o copy --cache-dir "$C" \
            --slangc "$work/mod/slangc-copy/slangc-wasm" || fail "the build with $var failed"
        [ "$(compiles)" -gt 0 ] || fail "$var set hit the entries of a build without it"
        BE "$var=-use_fast_math" -o copy --cache-dir "$C" \
            --slangc "$work/mod/slangc-copy/slangc-wasm"
        [ "$(compiles)" = 0 ] || fail "the build with $var missed its own entries"
        B -o copy --cache-dir "$C" --slangc "$work/mod/slangc-copy/slangc-wasm"
        [ "$(compiles)" = 0 ] || fail "the build without $var missed after it"
    done
    echo "ok: include edits, one entry's edit ($ran compiles), compiler identity, NVCC_* variables"
    ;;
corrupt)
    C=$work/c
    reference ref
    B -o out --cache-dir "$C"
    i=0
    while IFS= read -r f; do
        case $((i % 3)) in
        0) truncate -s $(($(stat -c %s "$f") / 2)) "$f" ;;
        1) printf '\xff' | dd of="$f" bs=1 seek=$(($(stat -c %s "$f") - 1)) conv=notrunc status=none ;;
        2) : >"$f" ;;
        esac
        i=$((i + 1))
    done < <(find "$C/v1" -type f ! -name counters)
    [ "$i" -gt 0 ] || fail "no entries to damage"
    B -o out --cache-dir "$C"
    [ "$(compiles)" -gt 0 ] || fail "damaged entries were used"
    same out ref || fail "after damage: differs from an uncached build"
    B -o out --cache-dir "$C"
    [ "$(compiles)" = 0 ] || fail "the rewritten entries were not used"
    echo "ok: $i damaged entries read as misses"
    ;;
damaged_counters)
    # The hit and miss counters damaged: replaced by random bytes of the same
    # size, truncated inside a record, or appended to after that. Damaged
    # records count as nothing; whole ones still count; builds go on.
    C=$work/c
    reference ref
    B -o out --cache-dir "$C"
    B -o out --cache-dir "$C"
    [ "$(stat_of "$C" builds)" = "1 hits, 1 misses" ] || fail "builds: $(stat_of "$C" builds)"
    sane() { # every number --cache-stats prints on its counter lines is below 10^6
        "$build" --cache-dir "$C" --cache-stats >"$work/stats" || fail "--cache-stats failed"
        ! grep -E '^(builds|compiles|remote):' "$work/stats" | grep -qE '[0-9]{7,}' ||
            fail "garbage counters: $(cat "$work/stats")"
    }
    # Every file of the cache replaced by random bytes of its size.
    head -c 200 /dev/urandom >"$C/v1/remote-counters"
    while IFS= read -r f; do
        head -c "$(stat -c %s "$f")" /dev/urandom >"$f.new" && mv "$f.new" "$f"
    done < <(find "$C/v1" -type f)
    sane
    [ "$(stat_of "$C" builds)" = "0 hits, 0 misses" ] || fail "random counters: $(stat_of "$C" builds)"
    [ "$(stat_of "$C" remote)" = "0 hits, 0 misses, 0 uploads, 0 errors" ] ||
        fail "random remote counters: $(stat_of "$C" remote)"
    rm -rf out
    B -o out --cache-dir "$C"
    same out ref || fail "after damage: differs from an uncached build"
    B -o out --cache-dir "$C"
    grep -q "(from the cache)" "$work/last" || fail "the build after damage was not filed"
    sane
    [ "$(stat_of "$C" builds)" = "1 hits, 1 misses" ] || fail "after damage: $(stat_of "$C" builds)"
    # Truncated inside the last record: the records before it count, and so
    # do the records appended after it.
    truncate -s -5 "$C/v1/counters"
    sane
    [ "$(stat_of "$C" builds)" = "0 hits, 1 misses" ] || fail "truncated: $(stat_of "$C" builds)"
    B -o out --cache-dir "$C"
    B -o out --cache-dir "$C"
    sane
    [ "$(stat_of "$C" builds)" = "2 hits, 1 misses" ] || fail "appended after truncation: $(stat_of "$C" builds)"
    echo "ok: random, truncated and appended-to counters read sanely; builds unaffected"
    ;;
concurrent)
    C=$work/c
    reference ref
    for round in cold warm; do
        pids=()
        for k in 1 2 3 4; do
            "$build" -q --targets spirv,wgsl --no-layouts --cache-dir "$C" -o "$round$k" m.slang \
                2>"$work/$round$k.err" &
            pids+=($!)
        done
        for p in "${pids[@]}"; do wait "$p" || fail "a concurrent $round build failed"; done
        for k in 1 2 3 4; do same "$round$k" ref || fail "$round build $k differs"; done
    done
    find "$C" -name '.tmp-*' | grep -q . && fail "temporary files left in the cache"
    echo "ok: 4 concurrent builds, twice, identical"
    ;;
evict)
    C=$work/c
    B -o out --cache-dir "$C" --cache-max-size 1M
    big=$(stat_of "$C" size | cut -d' ' -f1)
    # Least recently used first: the entries a warm build just used survive a squeeze.
    sleep 1
    B -o out --cache-dir "$C" --cache-max-size 1M
    [ "$(compiles)" = 0 ] || fail "not warm"
    find "$C/v1" -type f ! -name counters -printf '%T@ %p\n' >"$work/before"
    sed -i 's/x \* 3.0/x * 7.0/' inc/common.slangh
    cap=$((big + 2048))
    B -o out --cache-dir "$C" --cache-max-size $cap
    after=$(stat_of "$C" size | cut -d' ' -f1)
    [ "$after" -le "$cap" ] || fail "$after bytes, over the cap of $cap after eviction"
    # Every entry removed was used before every entry kept.
    evicted=0 newest_evicted=0
    while read -r t f; do
        [ -f "$f" ] && continue
        evicted=$((evicted + 1))
        newest_evicted=$(awk -v a="$newest_evicted" -v b="$t" 'BEGIN { print (b > a) ? b : a }')
    done <"$work/before"
    [ "$evicted" -gt 0 ] || fail "nothing was evicted"
    oldest_kept=$(find "$C/v1" -type f ! -name counters -printf '%T@\n' | sort -n | sed -n 1p)
    awk -v e="$newest_evicted" -v k="$oldest_kept" 'BEGIN { exit !(e <= k) }' ||
        fail "an entry used at $newest_evicted was evicted, one used at $oldest_kept kept"
    # A tiny cap: the cache stays under it, and builds still succeed.
    B -o out2 --cache-dir "$C" --cache-max-size 6K
    size=$(stat_of "$C" size | cut -d' ' -f1)
    [ "$size" -le 6144 ] || fail "the cache holds $size bytes, over its 6K cap"
    B -o out2 --cache-dir "$C" --cache-max-size 6K
    echo "ok: the cap holds, least recently used go first"
    ;;
tampered)
    # Whoever can write the cache folder cannot choose the bundle (docs/cache.md, "Trust"):
    # the whole build's result rewritten consistently (entry headers and SHA-256s right) with
    # a bundle whose binding moved is refused by the replay's proof: one warning naming the
    # local cache, counted, and the build writes the bundle an uncached build writes.
    command -v python3 >/dev/null || fail "python3 is missing (Debian: python3)"
    C=$work/c
    reference "$work/ref"
    B --cache-dir "$C" -o "$work/o"
    python3 "$HERE/flip_binding.py" "$work/o/m.dgpb" "$work/forged.dgpb" buf 0 1024 >/dev/null
    [ "$(python3 "$HERE/tamper_local.py" "$C" "$work/forged.dgpb")" -gt 0 ] ||
        fail "no whole build in the cache to rewrite"
    B --cache-dir "$C" -o "$work/o"
    same "$work/o" "$work/ref" || fail "the rewritten cache entry was written: $(cat "$work/last")"
    grep -q "warning: the cached build from the local cache '$C' is not a valid bundle" "$work/last" ||
        fail "no warning naming the local cache: $(cat "$work/last")"
    [ "$(grep -c warning "$work/last")" = 1 ] || fail "not one warning: $(cat "$work/last")"
    [ "$(stat_of "$C" refused)" = "1 cached builds that failed validation, 0 remote entries the team key does not authenticate" ] ||
        fail "refused: $(stat_of "$C" refused)"
    # What the build filed in its place is replayed, with no warning.
    B --cache-dir "$C" -o "$work/o"
    same "$work/o" "$work/ref" || fail "the second build differs"
    ! grep -q warning "$work/last" || fail "a warning after the refusal: $(cat "$work/last")"
    grep -q "from the cache" "$work/last" || fail "not replayed: $(cat "$work/last")"
    echo "ok: a consistently rewritten local entry is refused, once, and built again"
    ;;
no_cache)
    B -o out --no-cache --cache-dir "$work/c1"
    [ ! -e "$work/c1" ] || fail "--no-cache made the cache folder"
    DGPB_NO_CACHE=1 B -o out --cache-dir "$work/c2"
    [ ! -e "$work/c2" ] || fail "DGPB_NO_CACHE=1 made the cache folder"
    B -o out
    [ -d "$DGPB_CACHE_DIR/v1" ] || fail "DGPB_CACHE_DIR was not used"
    XDG_CACHE_HOME=$work/xdg DGPB_CACHE_DIR= B -o out
    [ -d "$work/xdg/dgpb/v1" ] || fail "XDG_CACHE_HOME/dgpb was not used"
    echo "ok: --no-cache and DGPB_NO_CACHE write nothing; DGPB_CACHE_DIR, XDG_CACHE_HOME"
    ;;
clear)
    C=$work/c
    B -o out --cache-dir "$C"
    [ "$(stat_of "$C" entries)" -gt 0 ] || fail "no entries"
    "$build" --cache-dir "$C" --cache-clear >/dev/null
    [ "$(stat_of "$C" entries)" = 0 ] || fail "entries left: $(stat_of "$C" entries)"
    [ "$(stat_of "$C" builds)" = "0 hits, 0 misses" ] || fail "counters left"
    B -o out --cache-dir "$C"
    [ "$(compiles)" -gt 0 ] || fail "a cleared cache hit"
    "$build" --cache-dir "$C" --cache-stats | grep -q "^cap: 1073741824 bytes" || fail "default cap"
    echo "ok: --cache-clear empties the cache"
    ;;
layouts)
    # Layouts (here recorded through a fake libslang): cached per group and target.
    L() {
        "$build" --targets spirv,wgsl --compiler embedded --layout-recorder "$recorder" --slang-lib "$fake" "$@" \
            m.slang 2>"$work/last" || { cat "$work/last" >&2; return 1; }
    }
    C=$work/c
    L -o out1 --cache-dir "$C"
    [ "$(compiles)" = 10 ] || fail "expected 10 compiles and layouts cold: $(cat "$work/last")"
    L -o out2 --cache-dir "$C"
    [ "$(compiles)" = 0 ] || fail "layouts were recorded again: $(cat "$work/last")"
    L -o ref --no-cache
    same out2 ref || fail "cached layouts differ from recorded ones"
    sed -i 's/offset_of(b_buf\[id.x\])/offset_of(b_buf[id.x]) * 2.0/' m.slang
    L -v -o out3 --cache-dir "$C"
    grep -q "recording the layout of compute shader 'a'" "$work/last" &&
        fail "the layouts of a were recorded again"
    [ "$(grep -c "recording the layout of compute shader 'b'" "$work/last")" = 2 ] ||
        fail "the layouts of b were not recorded again: $(cat "$work/last")"
    [ "$(compiles)" = 4 ] || fail "expected 4 compiles and layouts: $(cat "$work/last")"
    echo "ok: layouts from the cache, only the edited group's recorded again"
    ;;
layout_keys)
    # A layout is cached by what its group's compiles produced for its target (their
    # code and reflection JSON), not by the module's text or every file the build read
    # (docs/cache.md, "Layouts"). A plain module, whose every compile sees the whole
    # text: three compute groups and a render group, recorded through the fake libslang.
    write_plain
    P() {
        "$build" --targets spirv,wgsl --compiler embedded --layout-recorder "$recorder" --slang-lib "$fake" "$@" \
            plain.slang 2>"$work/last" || { cat "$work/last" >&2; return 1; }
    }
    recorded() { grep "recording the layout of" "$work/last" | sed 's/.*recording the layout of //' | sort | tr '\n' ';'; }
    identical() { # DIR: the bundle and view equal a --no-cache build's
        P -q -o "$work/ref" --no-cache
        cmp "$1/plain.dgpb" "$work/ref/plain.dgpb" && cmp "$1/plain.bundle.json" "$work/ref/plain.bundle.json"
    }
    C=$work/c
    P -v -o out --cache-dir "$C"
    [ "$(grep -c "recording the layout of" "$work/last")" = 8 ] || fail "cold: not 8 layouts: $(recorded)"
    # One entry's body: only b compiles again (its compile keys what it can reach: docs/cache.md,
    # "What an entry depends on"), and only b's group is recorded again.
    sed -i 's/b_buf\[id.x\] + 1.0/b_buf[id.x] + 3.0/' plain.slang
    P -v -o out --cache-dir "$C"
    grep "note: .* -target " "$work/last" | grep -q -- "-entry a " && fail "entry a compiled again"
    [ "$(recorded)" = "compute shader 'b' for 'spirv';compute shader 'b' for 'wgsl';" ] ||
        fail "after editing b, recorded: $(recorded)"
    identical out || fail "after editing b: differs from an uncached build"
    # An include only a's code uses: only a's group.
    sed -i 's/x \* 3.0/x * 7.0/' inc/common.slangh
    P -v -o out --cache-dir "$C"
    [ "$(recorded)" = "compute shader 'a' for 'spirv';compute shader 'a' for 'wgsl';" ] ||
        fail "after editing the include, recorded: $(recorded)"
    identical out || fail "after editing the include: differs from an uncached build"
    # Nothing changed: no layout recorded in another output folder.
    P -v -o out2 --cache-dir "$C"
    [ -z "$(recorded)" ] || fail "unchanged, recorded: $(recorded)"
    # The recorder's arguments are in the key: another -D records every group again.
    P -v -o out3 --cache-dir "$C" -DUNUSED_MACRO=1
    [ "$(grep -c "recording the layout of" "$work/last")" = 8 ] || fail "-D: not 8 layouts: $(recorded)"
    echo "ok: layouts recorded again only for the groups whose compiles changed"
    ;;
native_layouts)
    # With a native Slang, on its workers: a group of one entry has its layout recorded by
    # that entry's compile (docs/layout.md, "The native worker"), the render group by a
    # layout job; layouts are cached by what their group's compiles produced. The bundles
    # equal --no-cache builds and builds with one slangc (and recorder) process each.
    write_plain
    slangc=$native_root/bin/slangc
    N() {
        "$build" --targets spirv,wgsl --slangc "$slangc" "$@" 2>"$work/last" ||
            { cat "$work/last" >&2; return 1; }
    }
    by_compile() { grep -c "was recorded by its compile" "$work/last" || true; }
    by_job() { grep "recording the layout of" "$work/last" | sed 's/.*recording the layout of //' | sort | tr '\n' ';'; }
    agree() { # MODULE DIR: the bundle equals a --no-cache build's and one of processes
        local stem
        stem=$(basename "$1" .slang)
        N -q --no-cache -o "$work/ref" "$1"
        N -q --no-cache --compiler-processes -o "$work/proc" "$1"
        cmp "$2/$stem.dgpb" "$work/ref/$stem.dgpb" && cmp "$2/$stem.dgpb" "$work/proc/$stem.dgpb" &&
            cmp "$2/$stem.bundle.json" "$work/ref/$stem.bundle.json"
    }
    C=$work/c
    N -v -o out --cache-dir "$C" plain.slang
    [ "$(by_compile)" = 6 ] || fail "cold: not 6 layouts recorded by their compiles: $(cat "$work/last")"
    [ "$(by_job)" = "the render group for 'spirv';the render group for 'wgsl';" ] ||
        fail "cold: layout jobs: $(by_job)"
    agree plain.slang out || fail "cold: the bundles differ"
    # b's body: only b's compiles run again (what b's code reaches changed; docs/cache.md,
    # "What an entry depends on"), and record b's layout; the others come from the cache.
    sed -i 's/b_buf\[id.x\] + 1.0/b_buf[id.x] + 3.0/' plain.slang
    N -v -o out --cache-dir "$C" plain.slang
    [ "$(by_compile)" = 2 ] && [ -z "$(by_job)" ] ||
        fail "after editing b: $(by_compile) by compiles, jobs: $(by_job)"
    agree plain.slang out || fail "after editing b: the bundles differ"
    # In the generator's conventions only b's compiles run: b's layouts come with them.
    N -v -o out --cache-dir "$C" m.slang
    sed -i 's/offset_of(b_buf\[id.x\])/offset_of(b_buf[id.x]) * 2.0/' m.slang
    N -v -o out --cache-dir "$C" m.slang
    grep "note: .* -target " "$work/last" | grep -q -- "-entry a " && fail "entry a was compiled again"
    [ "$(by_compile)" = 2 ] && [ -z "$(by_job)" ] ||
        fail "after editing m's b: $(by_compile) by compiles, jobs: $(by_job)"
    agree m.slang out || fail "m.slang: the bundles differ"
    echo "ok: native layouts recorded by their compiles, cached by their groups' results"
    ;;
native)
    slangc=$native_root/bin/slangc
    B -MD -o out --cache-dir "$work/c" --slangc "$slangc"
    for f in m.slang inc/common.slangh lib.slang; do
        grep -q "$f" out/m.d || fail "the native depfile does not name $f: $(cat out/m.d)"
    done
    "$build" --targets spirv,wgsl --no-layouts --no-cache -q --slangc "$slangc" -o ref m.slang
    same out ref || fail "native: differs from an uncached build"
    sed -i 's/x \* 3.0/x * 5.0/' inc/common.slangh
    B -MD -o out --cache-dir "$work/c" --slangc "$slangc"
    [ "$(compiles)" -gt 0 ] || fail "native: an edited include hit the cache"
    B -MD -o out2 --cache-dir "$work/c" --slangc "$slangc"
    [ "$(compiles)" = 0 ] || fail "native: compiles missed: $(cat "$work/last")"
    # slangc itself, one process per compile, writes the depfile too.
    B -MD -o out3 --no-cache --slangc "$slangc" --compiler-processes
    for f in m.slang inc/common.slangh lib.slang; do
        grep -q "$f" out3/m.d || fail "slangc's depfile does not name $f: $(cat out3/m.d)"
    done
    echo "ok: the native compiler's depfile and cache"
    ;;
module_parts)
    # A module in several files (Slang's `__include`): the depfile names each
    # file, and an edited one is compiled again.
    cat >parts.slang <<'EOF'
module parts;
__include parts_util;
RWStructuredBuffer<float> p_buf;
[shader("compute")]
[numthreads(64, 1, 1)]
void p(uint3 id : SV_DispatchThreadID) { p_buf[id.x] = part_scale(p_buf[id.x]); }
EOF
    printf 'implementing parts;\nfloat part_scale(float x) { return x * 3.0; }\n' >parts_util.slang
    P() {
        "$build" --targets spirv,wgsl --no-layouts "$@" parts.slang 2>"$work/last" ||
            { cat "$work/last" >&2; return 1; }
    }
    P -MD -o out --cache-dir "$work/c"
    printf '%s\n' 'out/parts.dgpb out/parts.bundle.json: \' ' parts.slang \' ' parts_util.slang' '' \
        'parts_util.slang:' >"$work/expect.d"
    diff -u "$work/expect.d" out/parts.d || fail "the depfile differs"
    cp -r out before
    sed -i 's/x \* 3.0/x * 5.0/' parts_util.slang
    P -o out --cache-dir "$work/c"
    [ "$(compiles)" -gt 0 ] || fail "an edited __include'd file was not compiled again"
    cmp -s out/parts.dgpb before/parts.dgpb && fail "the edited __include'd file changed nothing"
    echo "ok: the depfile names the module's __include'd file; an edit to it compiles again"
    ;;
fifo_entries)
    # FIFOs in place of the entries of each kind, then of every entry and counter file at once:
    # never opened for reading (a blocking open() would wait for a writer forever), a miss each,
    # replaced by the entry when it is written again. Run under timeout so that a build that
    # waits fails here instead of hanging the suite.
    command -v timeout >/dev/null && command -v mkfifo >/dev/null ||
        fail "timeout or mkfifo not found (install coreutils)"
    C=$work/c
    reference ref
    B -o out --cache-dir "$C"
    cp -a "$C" "$work/warm"
    for kind in v c b o m r all; do
        rm -rf "$C" out && cp -a "$work/warm" "$C"
        pattern="*.$kind" && [ $kind = all ] && pattern='*'
        planted=0
        while IFS= read -r f; do
            rm "$f" && mkfifo "$f" && planted=$((planted + 1))
        done < <(find "$C/v1" -type f -name "$pattern")
        [ "$planted" -gt 0 ] || fail "no entries of kind $kind"
        status=0
        timeout -k 5 60 "$build" --targets spirv,wgsl --no-layouts --cache-dir "$C" -o out \
            m.slang 2>"$work/last" || status=$?
        [ $status = 0 ] ||
            fail "FIFOs in place of $kind entries: exit $status (124 or 137: it hung): $(cat "$work/last")"
        same out ref || fail "FIFOs in place of $kind entries: differs from an uncached build"
        [ $kind = all ] || continue
        stats=$(timeout -k 5 60 "$build" --cache-dir "$C" --cache-stats) ||
            fail "--cache-stats with FIFOs in place of the counters: exit $?"
        B -o out --cache-dir "$C"
        grep -q "(from the cache)" "$work/last" || fail "the FIFOs were not replaced by entries"
    done
    echo "ok: FIFOs in place of entries of every kind and of the counters: misses, no wait"
    ;;
folder_entries)
    # Folders (and a link) in place of entries: a miss each, replaced when the entry is written
    # again (so caching goes on), counted by --cache-stats, removed by --cache-clear, links
    # not followed.
    C=$work/c
    reference ref
    B -o out --cache-dir "$C"
    planted=0
    while IFS= read -r f; do
        rm "$f" && mkdir -p "$f/inner" && : >"$f/inner/file" && planted=$((planted + 1))
    done < <(find "$C/v1" -type f -name '*.?')
    [ "$planted" -gt 0 ] || fail "no entries"
    [ "$(stat_of "$C" damaged)" = "$planted" ] ||
        fail "--cache-stats: damaged $(stat_of "$C" damaged), $planted folders planted"
    rm -rf out
    B -o out --cache-dir "$C"
    same out ref || fail "folders in place of entries: differs from an uncached build"
    B -o out --cache-dir "$C"
    grep -q "(from the cache)" "$work/last" || fail "folders in place of entries stop caching"
    [ "$(stat_of "$C" entries)" -ge "$planted" ] || fail "entries: $(stat_of "$C" entries)"
    # --cache-clear removes every kind of damage, and follows no link out of the cache.
    echo keep >"$work/outside"
    first=$(find "$C/v1" -type f -name '*.?' -print -quit)
    rm "$first" && ln -s "$work/outside" "$first"
    mkfifo "${first%.?}.r" 2>/dev/null || true
    mkdir -p "$C/v1/ff/$(printf 'f%.0s' $(seq 62)).m/deep/er"
    ln -s "$work" "$C/v1/ff/$(printf 'f%.0s' $(seq 62)).m/deep/to-work"
    [ "$(stat_of "$C" damaged)" -ge 2 ] || fail "--cache-stats: damaged $(stat_of "$C" damaged)"
    "$build" --cache-dir "$C" --cache-clear >/dev/null || fail "--cache-clear failed"
    left=$(find "$C/v1" -mindepth 1 ! -path "$C/v1/??" -print)
    [ -z "$left" ] || fail "--cache-clear left: $left"
    [ "$(stat_of "$C" entries)" = 0 ] && [ "$(stat_of "$C" damaged)" = 0 ] ||
        fail "after --cache-clear: $(stat_of "$C" entries) entries, $(stat_of "$C" damaged) damaged"
    [ "$(cat "$work/outside")" = keep ] && [ -f "$work/mod/m.slang" ] || fail "a link was followed"
    echo "ok: $planted folders in place of entries: misses, replaced, counted, cleared"
    ;;
fifo_signal)
    # SIGTERM and SIGINT stop a build whose cache holds FIFOs in place of its entries: the
    # compiler's identity entries (kind v) are read first, from the same cache a small build
    # filled. Under timeout: a build that ignores the signal fails here instead of hanging.
    command -v timeout >/dev/null && command -v mkfifo >/dev/null ||
        fail "timeout or mkfifo not found (install coreutils)"
    C=$work/c
    B -o out --cache-dir "$C"
    while IFS= read -r f; do rm "$f" && mkfifo "$f"; done < <(find "$C/v1" -type f -name '*.?')
    {
        echo 'RWStructuredBuffer<float> data;'
        for i in $(seq 1 120); do
            printf '[shader("compute")]\n[numthreads(64, 1, 1)]\nvoid k%d(uint3 id : SV_DispatchThreadID)\n' $i
            printf '{ data[id.x] = data[id.x] * %d.0; }\n' $i
        done
    } >many.slang
    for sig in TERM INT; do
        timeout -k 5 60 "$build" -q --targets spirv --no-layouts -j 2 --cache-dir "$C" \
            -o "sig-$sig" many.slang 2>"$work/log-$sig" &
        pid=$!
        sleep 1
        kill -s $sig "$(cat /proc/$pid/task/$pid/children 2>/dev/null)" 2>/dev/null ||
            fail "SIG$sig: dgpb-build was not running when signalled: $(cat "$work/log-$sig")"
        status=0
        wait $pid || status=$?
        expect=143 && [ $sig = INT ] && expect=130
        [ $status = $expect ] ||
            fail "SIG$sig: exit $status, not $expect (124 or 137: it went on): $(cat "$work/log-$sig")"
        [ ! -e "sig-$sig/many.dgpb" ] || fail "SIG$sig: a bundle was written"
    done
    echo "ok: SIGTERM and SIGINT stop a build whose cache holds FIFOs"
    ;;
*)
    fail "unknown case '$case_'"
    ;;
esac
