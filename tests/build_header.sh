#!/usr/bin/env bash
# build_header.sh CASE BUILD DUMP MODULE [GOLDEN] - dgpb-build --emit-header
# (docs/build.md, "The C header").
#
#   golden MODULE GOLDEN  the header equals GOLDEN byte for byte; the depfile
#                         lists it among its outputs; dgpb-dump --header prints
#                         the same bytes; it compiles (included twice, after
#                         stdio.h, stdint.h, stddef.h, errno.h, limits.h
#                         and stdlib.h) with
#                         gcc -std=c11 and g++ -std=c++11, -Wall -Wextra
#                         -Werror -pedantic; copies with one size or one offset
#                         changed fail to compile in both
#   cache MODULE          a build taken from the cache writes the header a
#                         compiling build writes, also when the build it was
#                         filed by wrote none
#   host MODULE HOST RUN  a host (HOST, tests/header_host.c) built against the
#                         module's header alone fills a uniform block and a
#                         structured buffer of structs with the header's
#                         structs, sized with sizeof; every row's space and
#                         binding macro equals the bundle's row on its target
#                         (each row of each entry once); RUN (dgpb-run) takes
#                         those bytes unchanged on lavapipe and the host finds
#                         the particles moved as the shader moves them
set -euo pipefail
case=$1 build=$2 dump=$3 module=$4 golden=${5:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
stem=$(basename "$module" .slang)
targets=$(sed -n '1,5s|^// dgpb-targets: *||p' "$module" | head -n 1)
fail() { echo "FAIL: $*" >&2; exit 1; }
build() { # OUT_DIR ARGS...: one build of the module, its exit status checked
    local out=$1; shift
    "$build" --no-layouts ${targets:+--targets "$targets"} -o "$out" "$@" "$module" \
        >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log" >&2; fail "dgpb-build exited with $?"; }
}
# A C or C++ compiler the check needs, or a failure that says what to install.
need() { command -v "$1" >/dev/null || fail "$1 is not installed (apt-get install $2)"; }

case $case in
golden)
    build "$tmp/out" --no-cache --emit-header -MD
    header=$tmp/out/$stem.h
    [ -f "$header" ] || fail "dgpb-build --emit-header wrote no $stem.h"
    if ! cmp -s "$golden" "$header"; then
        diff -u "$golden" "$header" | head -80 >&2
        fail "$header differs from $golden (if intended: tools/regen-build-fixtures.sh $module)"
    fi
    # The depfile's first rule names the header among the outputs.
    outputs=$(sed -n '1,/:/p' "$tmp/out/$stem.d" | sed 's/:.*//')
    grep -qF "$header" <<<"$outputs" || fail "the depfile's outputs lack $header: $outputs"
    "$dump" --header "$tmp/out/$stem.dgpb" >"$tmp/dumped.h"
    cmp -s "$header" "$tmp/dumped.h" || fail "dgpb-dump --header differs from the header written"
    need gcc gcc
    need g++ g++
    grep -q '^typedef struct' "$header" || fail "$header has no struct: the module shows nothing"
    # Compiles as C11 and C++11, included twice (the include guard), each struct used.
    use() { # HEADER SOURCE: a translation unit that includes HEADER twice, after the
        # standard headers a host includes beside it (whose names a member must not take)
        printf '#include <stdio.h>\n#include <stdint.h>\n#include <stddef.h>\n' >"$2"
        printf '#include <errno.h>\n#include <limits.h>\n#include <stdlib.h>\n' >>"$2"
        printf '#include "%s"\n#include "%s"\n' "$1" "$1" >>"$2"
        sed -n 's/^typedef struct \([A-Za-z0-9_]*\) {$/\1/p' "$1" |
            while read -r s; do echo "size_t size_of_$s(void) { return sizeof(${s}); }"; done >>"$2"
    }
    compiles() { # HEADER: 0 when both compilers accept it, 1 when either refuses it (cc.log)
        use "$1" "$tmp/use.c"
        cp "$tmp/use.c" "$tmp/use.cpp"
        local status=0
        gcc -std=c11 -Wall -Wextra -Werror -pedantic -c "$tmp/use.c" -o "$tmp/use_c.o" \
            >"$tmp/cc.log" 2>&1 || status=1
        g++ -std=c++11 -Wall -Wextra -Werror -pedantic -c "$tmp/use.cpp" -o "$tmp/use_cxx.o" \
            >>"$tmp/cc.log" 2>&1 || status=1
        return $status
    }
    compiles "$header" || { cat "$tmp/cc.log" >&2; fail "$header does not compile"; }
    # The static assertions can fail: one size, then one offset, changed in a copy.
    for what in 'sizeof' 'offsetof'; do
        sed -E "0,/($what\\([^)]*\\)) == ([0-9]+)/s//\\1 == 1\\2/" "$header" >"$tmp/broken.h"
        ! cmp -s "$header" "$tmp/broken.h" || fail "no $what assertion to break in $header"
        if compiles "$tmp/broken.h"; then fail "a copy with one $what changed compiles"; fi
        [ "$(grep -c 'static assertion failed' "$tmp/cc.log")" -ge 2 ] ||
            { cat "$tmp/cc.log" >&2; fail "gcc and g++ did not both refuse the copy with one $what changed by its static assertion"; }
    done
    ;;
cache)
    unset DGPB_NO_CACHE
    cache=$tmp/cache
    build "$tmp/fresh" --no-cache --emit-header
    # Filed by a build without the header; the next build, a hit, writes it.
    # (the output folder is part of the whole build's key: the same one each time)
    build "$tmp/out" --cache-dir "$cache"
    [ ! -e "$tmp/out/$stem.h" ] || fail "a build without --emit-header wrote $stem.h"
    rm -f "$tmp/out/"*
    build "$tmp/out" --cache-dir "$cache" --emit-header -MD
    grep -q '(from the cache)' "$tmp/build.log" || { cat "$tmp/build.log" >&2; fail "not a cache hit"; }
    cmp -s "$tmp/fresh/$stem.h" "$tmp/out/$stem.h" ||
        fail "the header of a cache hit differs from a compiling build's"
    grep -qF "$tmp/out/$stem.h" "$tmp/out/$stem.d" || fail "a cache hit's depfile lacks the header"
    ;;
host)
    host=$5 run=${6:?usage: build_header.sh host BUILD DUMP MODULE HOST RUN}
    need gcc gcc
    need python3 python3
    build "$tmp/out" --no-cache --emit-header
    mkdir -p "$tmp/run"
    gcc -std=c11 -Wall -Wextra -Werror -pedantic -I "$tmp/out" "$host" -o "$tmp/host" \
        >"$tmp/cc.log" 2>&1 || { cat "$tmp/cc.log" >&2; fail "$host does not compile against $stem.h"; }
    "$tmp/host" fill "$tmp/run" >"$tmp/places.txt" || fail "the host could not fill its buffers"
    python3 - "$tmp/out/$stem.bundle.json" "$tmp/places.txt" <<'PY' || fail "the header's places differ from the bundle's rows"
import json, sys
view = json.load(open(sys.argv[1]))
rows = {(t["name"], e["name"]): e["params"] for t in view["targets"] for e in t["entries"]}
seen = {}
for line in open(sys.argv[2]):
    target, entry, index, space, binding = line.split()
    p = rows[(target, entry)][int(index)]
    if (p["space"], p["binding"]) != (int(space), int(binding)):
        sys.exit(f"{target}/{entry} row {index} '{p['name']}': the header says space {space}, "
                 f"binding {binding}; the bundle {p['space']}, {p['binding']}")
    seen.setdefault((target, entry), set()).add(int(index))
for key, params in rows.items():
    if seen.get(key) != set(range(len(params))):
        sys.exit(f"{key[0]}/{key[1]}: the host checked rows {sorted(seen.get(key, []))} of {len(params)}")
print(f"{sum(len(v) for v in seen.values())} rows: the header's space and binding are the bundle's")
PY
    "$run" "$tmp/out/$stem.dgpb" simulate --threads 4 --in "FrameBlock=$tmp/run/frame.bin" \
        --in "particles=$tmp/run/particles.bin" --out "particles=$tmp/run/out.bin" \
        >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log" >&2; fail "dgpb-run refused the header's bytes"; }
    "$tmp/host" check "$tmp/run" || fail "the particles are not where the header's structs put them"
    ;;
*) fail "unknown case '$case'" ;;
esac
echo "ok: $case $stem"
