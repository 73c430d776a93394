#!/usr/bin/env bash
# shadow.sh STORE BUILD DUMP WORK [SLANG_ROOT] - a file that appears where a compile would have
# looked before the file it read is a cache miss (docs/cache.md, "Files that appear"), for
# four cases:
#   include  `#include "consts.slangh"` found through `-I a -I b` in b/; a new a/consts.slangh
#   beside   the same header found through -I; a new consts.slangh beside the module
#   import   `import helpers` found through `-I lib2 -I lib` in lib/; a new lib2/helpers.slang
#   climb    `#include "../consts.slangh"` found through `-I a/sub -I b/sub` in b/; a new
#            a/consts.slangh (a name that climbs out of its -I folder)
# Each: a build shows the old value in the bundle's WGSL, a rebuild is a hit, the shadowing file
# is created; then a build with a new -o (its whole-build key is new: every compile is looked
# up on its own) and a build with the old -o (the whole build's entry) both give the new value,
# byte for byte the bundle of a --no-cache build; and a build after them is a hit again, as is
# one after the file is removed (the old value). A folder of the name is no file: a hit.
# STORE: local (one cache folder), http (nginx) or redis (redis-server): one machine's cache
# folder builds and uploads, the file appears, and a machine with an empty cache folder builds
# through the store, then a third one is served by what the second uploaded. SLANG_ROOT: the
# compiles run on that native Slang (its workers; with the local store, `include` again on its
# slangc processes).
# Everything is written under WORK (emptied first); the stores are stopped at the end.
set -euo pipefail
store=$1 build=$2 dump=$3 work=$4 native_root=${5:-}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(cd "$(dirname "$build")" && pwd)/$(basename "$build")
dump=$(cd "$(dirname "$dump")" && pwd)/$(basename "$dump")
unset DGPB_NO_CACHE DGPB_CACHE_MAX_SIZE DGPB_SLANGC SLANG_ROOT DGPB_CACHE_DIR DGPB_CACHE_ROOT
unset DGPB_CACHE_REMOTE DGPB_CACHE_REMOTE_READ_ONLY DGPB_CACHE_REMOTE_HEADER
unset DGPB_CACHE_REMOTE_PASSWORD
export DGPB_SERVICE=off LC_ALL=C
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
export HOME=$work/home # no ~/.netrc of the user's
mkdir -p "$HOME"

fail() { echo "FAIL: $*" >&2; exit 1; }

compiler=()
if [ -n "$native_root" ]; then
    [ -x "$native_root/bin/slangc" ] ||
        fail "no native slangc at $native_root/bin/slangc (configure -DDGPB_SLANG_ROOT with a Slang 2026.16 install)"
    compiler=(--slangc "$native_root/bin/slangc")
fi

URL=""
if [ "$store" != local ]; then
    SRV=$work/srv
    # shellcheck source=../remote/servers.sh
    . "$HERE/../remote/servers.sh"
    trap stop_servers EXIT
    trap "exit 1" TERM INT HUP
    for tool in nginx redis-server python3; do
        command -v "$tool" >/dev/null ||
            fail "$tool is missing (tools/setup.sh installs nginx and redis-server)"
    done
    if [ "$store" = http ]; then
        start_nginx
        URL=http://127.0.0.1:$NGINX_PORT
    else
        start_redis
        URL=redis://127.0.0.1:$REDIS_PORT
    fi
fi

# B NAME CACHE OUT [options...]: a build of m.slang into OUT with the local cache folder
# WORK/cache-CACHE (and the store, when there is one); what it printed in WORK/NAME.err.
B() {
    local name=$1 cache=$2 out=$3 remote=()
    shift 3
    [ -z "$URL" ] || remote=(--cache-remote "$URL")
    "$build" "${compiler[@]}" --targets wgsl --no-layouts "${dirs[@]}" --cache-dir "$work/cache-$cache" \
        "${remote[@]}" -o "$out" "$@" m.slang 2>"$work/$name.err" ||
        { cat "$work/$name.err" >&2; fail "build $name failed"; }
}
# The number of compiles a build ran, and whether it was a whole-build hit.
compiles() { sed -n 's/.*; \([0-9]*\) compiles.*/\1/p' "$work/$1.err"; }
whole_hit() { grep -q "(from the cache)" "$work/$1.err"; }
# value OUT: the constant the WGSL of OUT/m.dgpb computes with ("3.0f * ...").
value() { "$dump" --disasm "$1/m.dgpb" | sed -n 's/.*buf_0\[_S1\] = \([0-9.]*f\).*/\1/p' | sed -n 1p; }
# reference OUT: the bundle without any cache.
reference() {
    "$build" "${compiler[@]}" --targets wgsl --no-layouts "${dirs[@]}" --no-cache -q -o "$1" m.slang
}
same() { cmp -s "$1/m.dgpb" "$2/m.dgpb" && cmp -s "$1/m.bundle.json" "$2/m.bundle.json"; }

# run_case CASE [options...]: the sequence above, in WORK/CASE (the options go to every build).
run_case() {
    local c=$1 first second third
    shift
    local d=$work/$c
    mkdir -p "$d/a" "$d/b" "$d/lib" "$d/lib2"
    cd "$d"
    dirs=(-I a -I b)
    case $c in
    include | beside)
        echo 'static const float K = 3.0;' >b/consts.slangh
        printf '#include "consts.slangh"\n' >m.slang
        ;;
    climb)
        mkdir -p a/sub b/sub
        dirs=(-I a/sub -I b/sub)
        echo 'static const float K = 3.0;' >b/consts.slangh
        printf '#include "../consts.slangh"\n' >m.slang
        ;;
    import)
        dirs=(-I lib2 -I lib)
        printf 'module helpers;\npublic static const float K = 3.0;\n' >lib/helpers.slang
        printf 'import helpers;\n' >m.slang
        ;;
    esac
    cat >>m.slang <<'EOF'
RWStructuredBuffer<float> buf;
[shader("compute")]
[numthreads(64, 1, 1)]
void a(uint3 id : SV_DispatchThreadID) { buf[id.x] = K * buf[id.x]; }
EOF
    # The first machine (or the only one): a cold build, then a hit.
    B "$c-cold" 1 o1 "$@"
    [ "$(value o1)" = 3.0f ] || fail "$c: the cold build computes with '$(value o1)', not 3.0f"
    B "$c-warm" 1 o1 "$@"
    whole_hit "$c-warm" || fail "$c: an unchanged rebuild was not a hit: $(cat "$work/$c-warm.err")"
    reference ref-old
    if [ "$c" = include ]; then
        # A folder of the name is passed over by the compilers: still a hit.
        mkdir a/consts.slangh
        B "$c-folder" 1 o1 "$@"
        whole_hit "$c-folder" || fail "$c: a folder at a listed path was a miss: $(cat "$work/$c-folder.err")"
        rmdir a/consts.slangh
    fi
    # The file that shadows the one the compiles read.
    case $c in
    include | climb) echo 'static const float K = 7.0;' >a/consts.slangh ;;
    beside) echo 'static const float K = 7.0;' >consts.slangh ;;
    import) printf 'module helpers;\npublic static const float K = 7.0;\n' >lib2/helpers.slang ;;
    esac
    reference ref
    [ "$(value ref)" = 7.0f ] || fail "$c: the uncached build computes with '$(value ref)', not 7.0f"
    # Every compile looked up on its own (a new -o: a new whole-build key), then the whole
    # build; on another machine's empty cache folder when there is a store.
    first=1 second=1 third=1
    [ -z "$URL" ] || first=2 second=3 third=4
    B "$c-compiles" "$first" o2 "$@"
    same o2 ref || fail "$c: single compiles came from the cache: the bundle computes with '$(value o2)' ($(cat "$work/$c-compiles.err"))"
    [ "$(compiles "$c-compiles")" -gt 0 ] || fail "$c: no compile ran"
    B "$c-whole" "$second" o1 "$@"
    whole_hit "$c-whole" && fail "$c: the whole build came from the cache, computing with '$(value o1)'"
    same o1 ref || fail "$c: the bundle computes with '$(value o1)', not as the uncached build"
    # Its compiles are the ones just filed (uploaded by the second machine, with a store).
    [ "$(compiles "$c-whole")" = 0 ] || fail "$c: the new compiles' entries were not used: $(cat "$work/$c-whole.err")"
    # The new sets are hits again (for a store: on a third machine, from what was uploaded).
    B "$c-again" "$third" o1 "$@"
    whole_hit "$c-again" || fail "$c: the rebuild after the new file was not a hit: $(cat "$work/$c-again.err")"
    same o1 ref || fail "$c: the hit differs from the uncached build"
    # The file removed again: the first set matches again (the manifest keeps both).
    case $c in
    include | climb) rm a/consts.slangh ;;
    beside) rm consts.slangh ;;
    import) rm lib2/helpers.slang ;;
    esac
    B "$c-removed" "$third" o1 "$@"
    whole_hit "$c-removed" || fail "$c: the build after the file went was not a hit: $(cat "$work/$c-removed.err")"
    same o1 ref-old || fail "$c: after the file went, the bundle computes with '$(value o1)', not 3.0f"
    echo "ok: $c ($store${native_root:+, native Slang}): 3.0f, then 7.0f once the file appeared, as --no-cache"
}

run_case include
run_case beside
run_case import
run_case climb
if [ -n "$native_root" ] && [ "$store" = local ]; then
    # slangc itself, one process per compile, writes the depfile the sets come from.
    rm -rf "$work/include" "$work"/cache-*
    run_case include --compiler-processes
fi
