#!/usr/bin/env bash
# remote.sh CASE BUILD WORK MODULE [OPTION...] - dgpb-build's remote cache (docs/cache.md)
# against real stores on loopback: Debian's nginx with its WebDAV module (the
# Bazel remote-cache HTTP protocol: /cas/<sha256>, /ac/<key>), redis-server,
# and bad_store.py (a store whose answers cannot be trusted). Each store is
# started on a free port under WORK (emptied first) and stopped at the end.
# Local cache folders (WORK/cache-a, WORK/cache-b, ...) stand for machines.
set -euo pipefail
case_=$1 build=$2 work=$3 module=$4
shift 4
build=$(cd "$(dirname "$build")" && pwd)/$(basename "$build")
module=$(cd "$(dirname "$module")" && pwd)/$(basename "$module")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
unset DGPB_NO_CACHE DGPB_CACHE_MAX_SIZE DGPB_SLANGC SLANG_ROOT DGPB_CACHE_DIR
unset DGPB_CACHE_REMOTE DGPB_CACHE_REMOTE_READ_ONLY DGPB_CACHE_REMOTE_HEADER
unset DGPB_CACHE_REMOTE_PASSWORD
export LC_ALL=C
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
cd "$work"
# The user's ~/.netrc is not read: ctest gives every test a HOME of the build tree's
# (tests/CMakeLists.txt); the case that writes a ~/.netrc uses a home of its own.
SRV=$work/srv
# shellcheck source=servers.sh
. "$HERE/servers.sh"
trap stop_servers EXIT
trap "exit 1" TERM INT HUP

fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in nginx redis-server redis-cli python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (tools/setup.sh installs nginx and redis-server)"
done
help=$("$build" --help 2>&1 || true)
grep -q -- --cache-remote <<<"$help" || fail "$build has no --cache-remote"

name=$(basename "$module" .slang)
opts=(-v --targets spirv,wgsl --no-layouts "$@")

# B OUT CACHE [options...]: a build into WORK/OUT with the local cache WORK/CACHE;
# its standard output and error in WORK/OUT.out and WORK/OUT.err (kept for the
# secret check), the seconds it took in WORK/OUT.time.
B() {
    local out=$1 cache=$2 t0 rc=0
    shift 2
    t0=$EPOCHREALTIME
    "$build" "${opts[@]}" --cache-dir "$work/cache-$cache" -o "$work/$out" "$@" "$module" \
        >"$work/$out.out" 2>"$work/$out.err" || rc=$?
    awk "BEGIN { print $EPOCHREALTIME - $t0 }" >"$work/$out.time"
    [ "$rc" = 0 ] || { cat "$work/$out.err" >&2; fail "build $out failed ($rc)"; }
}
# The compiles that ran (-v notes each command line) and the summary's count.
ran() { grep -c "note: .* -target " "$work/$1.err" || true; }
compiles() { sed -n 's/.*; \([0-9]*\) compiles.*/\1/p' "$work/$1.err" | tail -n 1; }
warnings() { grep -c "warning" "$work/$1.err" || true; }
same() { cmp -s "$work/$1/$name.dgpb" "$work/$2/$name.dgpb" &&
    cmp -s "$work/$1/$name.bundle.json" "$work/$2/$name.bundle.json"; }
# stats CACHE: --cache-stats of a local cache; remote N WHAT: the N in "N WHAT"
# on its remote line (WHAT: hits, misses, uploads, errors).
stats() { "$build" --cache-dir "$work/cache-$1" --cache-stats >"$work/stats-$1.out" 2>&1 || true; }
remote() {
    stats "$1"
    grep -i remote "$work/stats-$1.out" | grep -o "[0-9]* $2" | head -n 1 | cut -d' ' -f1
}
# The reference: the bundle without any cache.
"$build" "${opts[@]}" --no-cache -o "$work/ref" "$module" >"$work/ref.out" 2>"$work/ref.err" ||
    { cat "$work/ref.err" >&2; fail "the reference build failed"; }
base_warnings=$(warnings ref)
# one_warning OUT: exactly one warning more than the reference build printed.
one_warning() {
    [ "$(warnings "$1")" = $((base_warnings + 1)) ] ||
        { cat "$work/$1.err" >&2; fail "$1: expected one warning, got $(($(warnings "$1") - base_warnings))"; }
}
no_warning() {
    [ "$(warnings "$1")" = "$base_warnings" ] ||
        { cat "$work/$1.err" >&2; fail "$1: a warning"; }
}
# verify_local CACHE: every entry of a local cache holds the payload its header's SHA-256 names.
verify_local() {
    python3 - "$work/cache-$1" <<'EOF' || fail "a damaged entry was stored in $1"
import hashlib, os, re, struct, sys
bad = 0
for top, dirs, files in os.walk(sys.argv[1]):
    for f in files:
        # v1/<xx>/ holds the entries; v1/ itself the counters and such.
        if not re.fullmatch(r"[0-9a-f]{2}", os.path.basename(top)) or f.startswith(".tmp-"):
            continue
        p = os.path.join(top, f)
        if not re.fullmatch(r"[0-9a-f]{62}\.[a-z]", f):
            print("unexpected file", p); bad += 1; continue
        b = open(p, "rb").read()
        # DGPBC0U1: fetched by a build without the team key (docs/cache.md, "Trust")
        if b[:8] not in (b"DGPBC001", b"DGPBC0U1") or len(b) < 48:
            print("bad header", p); bad += 1; continue
        (n,) = struct.unpack("<Q", b[8:16])
        if n != len(b) - 48 or hashlib.sha256(b[48:]).digest() != b[16:48]:
            print("bad payload", p); bad += 1
sys.exit(1 if bad else 0)
EOF
}
# check_store: every file nginx holds is cas/<sha256 of it> or ac/<hex> naming one.
check_store() {
    python3 - "$NGINX_ROOT" <<'EOF' || fail "the store holds a file it should not"
import hashlib, os, re, sys
root, bad, cas, ac = sys.argv[1], 0, 0, 0
for top, dirs, files in os.walk(root):
    for f in files:
        rel = os.path.relpath(os.path.join(top, f), root)
        m = re.fullmatch(r"cas/([0-9a-f]{64})|ac/([0-9a-f]{64})", rel)
        if not m:
            print("unexpected", rel); bad += 1; continue
        b = open(os.path.join(root, rel), "rb").read()
        if m.group(1):
            cas += 1
            if hashlib.sha256(b).hexdigest() != m.group(1):
                print("cas content does not match its name", rel); bad += 1
        else:
            ac += 1
            if not re.fullmatch(rb"[0-9a-f]{64}", b) or not os.path.isfile(
                    os.path.join(root, "cas", b.decode())):
                print("ac entry does not name a stored content", rel); bad += 1
print("store: %d cas, %d ac" % (cas, ac))
sys.exit(1 if bad or not cas or not ac else 0)
EOF
}
store_files() { find "$NGINX_ROOT" -type f | wc -l; }
# The request lines nginx saw: only GET, HEAD, PUT of /cas/<hex> and /ac/<hex>.
check_requests() {
    local bad
    bad=$(awk '{ print $1, $2 }' "$NGINX_LOG" |
        grep -Ev '^(GET|HEAD|PUT) /(cas|ac)/[0-9a-f]{64}$' || true)
    [ -z "$bad" ] || fail "requests outside /cas/ and /ac/: $bad"
}

# A store for the case: http (nginx) or redis.
store=${case_%%_*}
what=${case_#*_}
setup_store() {
    if [ "$store" = http ]; then
        start_nginx
        URL=http://127.0.0.1:$NGINX_PORT
    else
        start_redis "${REDIS_PASS:-}"
        URL=redis://127.0.0.1:$REDIS_PORT
    fi
}
entries_in_store() {
    if [ "$store" = http ]; then store_files; else rcli --raw DBSIZE; fi
}
# check_uploaded: the store holds action entries naming contents it holds.
check_uploaded() {
    if [ "$store" = http ]; then
        check_store
        check_requests
        grep -q '^PUT ' "$NGINX_LOG" || fail "nothing was PUT"
    else
        local ac cas k v
        ac=$(rcli --raw KEYS 'dgpb:v1:ac:*' | grep -c . || true)
        cas=$(rcli --raw KEYS 'dgpb:v1:cas:*' | grep -c . || true)
        [ "$ac" -gt 0 ] && [ "$cas" -gt 0 ] || fail "redis holds $ac action and $cas content keys"
        [ "$(rcli --raw KEYS '*' | grep -cv '^dgpb:v1:\(ac\|cas\):[0-9a-f]\{64\}$' || true)" = 0 ] ||
            fail "redis holds other keys: $(rcli --raw KEYS '*' | grep -v '^dgpb:v1:' | head)"
        for k in $(rcli --raw KEYS 'dgpb:v1:ac:*'); do
            v=$(rcli --raw GET "$k")
            [[ $v =~ ^[0-9a-f]{64}$ ]] || fail "$k holds '$v'"
            [ "$(rcli --raw EXISTS "dgpb:v1:cas:$v")" = 1 ] || fail "$k names a missing content"
        done
        echo "store: $cas cas, $ac ac"
    fi
}
kill_store() {
    if [ "$store" = http ]; then stop_nginx; else kill -KILL "$REDIS_PID"; fi
}

case $what in
hit)
    # Machine A fills the store; machine B, with an empty local cache, compiles nothing.
    setup_store
    B a1 a --cache-remote "$URL"
    [ "$(ran a1)" -gt 0 ] || fail "the first build ran no compile"
    no_warning a1
    # The same build (same output folder): a whole build from the store.
    n=$(ran a1)
    mv a1 first && mv a1.err first.err && mv a1.out first.out
    B a1 b --cache-remote "$URL"
    [ "$(ran a1)" = 0 ] && [ "$(compiles a1)" = 0 ] || fail "machine B compiled: $(cat a1.err)"
    same a1 ref || fail "machine B's bundle differs from an uncached build"
    no_warning a1
    h=$(remote b hits)
    [ -n "$h" ] && [ "$h" -gt 0 ] || fail "no remote hits counted: $(cat stats-b.out)"
    # Another output folder on machine C: every single compile from the store.
    B c1 c --cache-remote "$URL"
    [ "$(ran c1)" = 0 ] && [ "$(compiles c1)" = 0 ] || fail "machine C compiled: $(cat c1.err)"
    same c1 ref || fail "machine C's bundle differs from an uncached build"
    no_warning c1
    # Every compile came from the store and is now in C's local cache: offline too.
    B c2 c
    [ "$(ran c2)" = 0 ] || fail "the fetched entries were not stored locally"
    verify_local b
    verify_local c
    echo "ok: $n compiles on A, none on B ($h remote hits) and C"
    ;;
miss)
    setup_store
    B a1 a --cache-remote "$URL"
    [ "$(ran a1)" -gt 0 ] || fail "nothing compiled with an empty store"
    same a1 ref || fail "the bundle differs from an uncached build"
    no_warning a1
    m=$(remote a misses)
    [ -n "$m" ] && [ "$m" -gt 0 ] || fail "no remote misses counted: $(cat stats-a.out)"
    [ "$(remote a hits)" = 0 ] || fail "remote hits on an empty store: $(cat stats-a.out)"
    e=$(remote a errors)
    [ -z "$e" ] || [ "$e" = 0 ] || fail "an empty store counted errors: $(cat stats-a.out)"
    echo "ok: an empty store is $m misses, no warning"
    ;;
upload)
    setup_store
    B a1 a --cache-remote "$URL"
    check_uploaded
    u=$(remote a uploads)
    [ -n "$u" ] && [ "$u" -gt 0 ] || fail "no uploads counted: $(cat stats-a.out)"
    # A second machine's same build uploads nothing new: everything is already there.
    n=$(entries_in_store)
    mv a1 first
    B a1 b --cache-remote "$URL"
    [ "$(ran a1)" = 0 ] || fail "machine B compiled"
    [ "$(entries_in_store)" = "$n" ] || fail "machine B changed the store ($n, then $(entries_in_store))"
    # The action entries gone, the contents kept: machine C compiles everything
    # again and writes the action entries back, but sends no content of 4 KiB
    # or more that the store holds (it asks with HEAD first).
    if [ "$store" = http ]; then
        big=$(find "$NGINX_ROOT/cas" -type f -size +4095c -printf '%f\n' | sort)
        [ -n "$big" ] || fail "no content of 4 KiB or more to test with"
        rm -f "$NGINX_ROOT"/ac/*
        lines=$(wc -l <"$NGINX_LOG")
    else
        rcli --raw KEYS 'dgpb:v1:ac:*' | while read -r k; do rcli DEL "$k" >/dev/null; done
    fi
    B c1 c --cache-remote "$URL"
    [ "$(ran c1)" -gt 0 ] || fail "machine C compiled nothing without action entries"
    check_uploaded
    if [ "$store" = http ]; then
        sent=$(tail -n +$((lines + 1)) "$NGINX_LOG" | awk '$1 == "PUT" { sub("/cas/", "", $2); print $2 }' | sort)
        again=$(comm -12 <(echo "$big") <(echo "$sent"))
        [ -z "$again" ] || fail "content the store held was sent again: $again"
        tail -n +$((lines + 1)) "$NGINX_LOG" | grep -q '^HEAD /cas/' || fail "no HEAD before uploading content"
    fi
    echo "ok: $u uploads, $n entries in the store; contents already held not sent again"
    ;;
read_only)
    setup_store
    B a1 a --cache-remote "$URL" --cache-remote-read-only
    [ "$(entries_in_store)" = 0 ] || fail "a read-only build uploaded"
    [ "$store" != http ] || ! grep -q '^PUT ' "$NGINX_LOG" || fail "a read-only build sent PUT"
    DGPB_CACHE_REMOTE_READ_ONLY=1 B a2 a2 --cache-remote "$URL"
    [ "$(entries_in_store)" = 0 ] || fail "DGPB_CACHE_REMOTE_READ_ONLY=1 uploaded"
    no_warning a1
    # Read-only still reads: a CI machine fills the store, a developer's reads it.
    B ci ci --cache-remote "$URL"
    n=$(entries_in_store)
    [ "$n" -gt 0 ] || fail "the CI build uploaded nothing"
    B dev dev --cache-remote "$URL" --cache-remote-read-only
    [ "$(ran dev)" = 0 ] || fail "the read-only machine compiled"
    same dev ref || fail "the read-only machine's bundle differs"
    [ "$(entries_in_store)" = "$n" ] || fail "the read-only machine changed the store"
    echo "ok: read-only uploads nothing and reads $n entries"
    ;;
concurrent)
    # Two machines build at once against one store.
    setup_store
    pids=()
    for m in a b; do
        B "$m" "$m" --cache-remote "$URL" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || fail "a concurrent build failed"; done
    for m in a b; do
        same "$m" ref || fail "concurrent build $m differs from an uncached build"
        no_warning "$m"
    done
    [ "$store" != http ] || check_store
    B c c --cache-remote "$URL"
    [ "$(ran c)" = 0 ] || fail "a third machine compiled after the two"
    same c ref || fail "the third machine's bundle differs"
    echo "ok: two builds at once, identical bundles, a complete store"
    ;;
killed)
    # The store dies while the build runs (an empty store: lookups and uploads
    # in flight). A bigger module, one compile at a time, so that it is still running.
    "$HERE/../../bench/bench-module.sh" 24 >"$work/big.slang"
    module=$work/big.slang name=big
    "$build" "${opts[@]}" --no-cache -o "$work/ref" "$module" >/dev/null 2>&1 || fail "reference"
    setup_store
    opts+=(-j1)
    B k k --cache-remote "$URL" &
    pid=$!
    for ((i = 0; i < 300; i++)); do
        [ "$(ran k)" -lt 2 ] || break
        sleep 0.05
    done
    kill -0 "$pid" 2>/dev/null || fail "the build ended before the store was killed"
    at=$(ran k)
    kill_store
    wait "$pid" || fail "the build failed when the store died"
    same k ref || fail "the bundle differs after the store died"
    one_warning k
    grep -q "local cache only" k.err || fail "no 'local cache only' in: $(cat k.err)"
    echo "ok: the store killed after $at of $(ran k) compiles had started; one warning"
    ;;
down)
    # Nothing listens: connection refused, from the first request.
    port=$(free_port)
    if [ "$store" = http ]; then URL=http://127.0.0.1:$port; else URL=redis://127.0.0.1:$port; fi
    B local l
    B d d --cache-remote "$URL"
    same d ref || fail "the bundle differs with a store that is down"
    one_warning d
    grep -q "local cache only" d.err || fail "no 'local cache only' in: $(cat d.err)"
    awk "BEGIN { exit !($(cat d.time) < $(cat local.time) + 2) }" ||
        fail "a store that is down slowed the build: $(cat d.time) s against $(cat local.time) s"
    echo "ok: down store: $(cat d.time) s, local only: $(cat local.time) s; one warning"
    ;;
corrupt)
    # A store whose contents come back damaged: every answer a miss, one warning.
    start_nginx
    B a1 a --cache-remote "http://127.0.0.1:$NGINX_PORT"
    check_store
    for mode in corrupt truncated oversized mixed; do
        start_bad "$mode" "$NGINX_ROOT"
        B "$mode" "$mode" --cache-remote "http://127.0.0.1:$BAD_PORT"
        same "$mode" ref || fail "$mode: the bundle differs from an uncached build"
        one_warning "$mode"
        [ "$(ran "$mode")" -gt 0 ] || fail "$mode: damaged contents were used"
        # The first damaged answer turns the store off: no request after it.
        gets=$(grep -c '^GET /cas/' "$SRV/bad/requests.log" || true)
        [ "$gets" = 1 ] || fail "$mode: $gets contents asked for; the store was not turned off"
        verify_local "$mode"
        # What was stored locally is right: offline, it is used as is.
        B "$mode-again" "$mode"
        [ "$(ran "$mode-again")" = 0 ] || fail "$mode: the local cache was not filled"
        same "$mode-again" ref || fail "$mode: the local cache holds a wrong result"
        kill -TERM "$BAD_PID"
        wait "$BAD_PID" 2>/dev/null || true
        rm -f "$SRV/bad/requests.log"
        echo "$mode: $(cat "$mode.time") s, $(grep warning "$mode.err")"
    done
    echo "ok: corrupt, truncated, oversized and mixed answers are misses, the store off after one, one warning"
    ;;
refused)
    # A store that refuses every write (403) and holds nothing.
    start_bad refuse "$work"
    B r r --cache-remote "http://127.0.0.1:$BAD_PORT"
    same r ref || fail "the bundle differs with a store that refuses writes"
    one_warning r
    echo "ok: refused writes: one warning"
    ;;
slow)
    # A store that accepts connections and answers nothing: the build waits for
    # one stalled request (2 s without a byte, as curl measures it) at most, then
    # goes on locally, saying so once.
    start_bad slow "$work"
    B local l
    B s s --cache-remote "http://127.0.0.1:$BAD_PORT"
    same s ref || fail "the bundle differs with a slow store"
    one_warning s
    awk "BEGIN { exit !($(cat s.time) < $(cat local.time) + 5) }" ||
        fail "a slow store slowed the build by more than a timeout: $(cat s.time) s against $(cat local.time) s"
    echo "ok: slow store: $(cat s.time) s, local only: $(cat local.time) s; $(grep warning s.err)"
    ;;
slow_get)
    # A store that answers every lookup after 1.9 s, each inside its own limits, on a
    # module of 10 entries (20 compiles, 22 lookups and more): the store costs the build 2 s
    # at most, lookups and uploads together (docs/cache.md, "Remote stores"), then it is off
    # with one warning; exit 0, the bytes of an uncached build. Before, every lookup waited:
    # 16 s against 2 s.
    "$HERE/../../bench/bench-module.sh" 6 >"$work/ten.slang"
    module=$work/ten.slang name=ten
    "$build" "${opts[@]}" --no-cache -o "$work/ref" "$module" >"$work/ref.err" 2>&1 || fail "reference"
    base_warnings=$(warnings ref)
    B local l
    mkdir -p "$work/store/ac" "$work/store/cas"
    start_bad slow-get "$work/store"
    B s s --cache-remote "http://127.0.0.1:$BAD_PORT"
    same s ref || fail "the bundle differs with a slow store"
    one_warning s
    grep -q "2 s for the store are spent" s.err || fail "no warning about the store's budget: $(cat s.err)"
    gets=$(grep -c '^GET \|^HEAD ' "$SRV/bad/requests.log" || true)
    [ "$gets" -le 3 ] || fail "$gets lookups waited for: the budget of 2 s holds 2 at 1.9 s each"
    awk "BEGIN { exit !($(cat s.time) < $(cat local.time) + 4) }" ||
        fail "the slow store cost more than its budget: $(cat s.time) s against $(cat local.time) s local"
    echo "ok: lookups answered after 1.9 s: $(cat s.time) s against $(cat local.time) s local, $gets lookups; $(grep warning s.err)"
    ;;
slow_upload)
    # A store that answers every upload after 1.9 s (each inside its own limits): the build
    # waits for its uploads 2 s at most (docs/cache.md, "Remote stores"), then drops the rest
    # with one warning; exit 0, the bytes of an uncached build. A module of 10 entries: 20
    # compiles, far more uploads than fit in the budget.
    "$HERE/../../bench/bench-module.sh" 6 >"$work/ten.slang"
    module=$work/ten.slang name=ten
    "$build" "${opts[@]}" --no-cache -o "$work/ref" "$module" >"$work/ref.err" 2>&1 || fail "reference"
    base_warnings=$(warnings ref)
    start_bad slow-put "$work"
    B s s --cache-remote "http://127.0.0.1:$BAD_PORT"
    same s ref || fail "the bundle differs with a slow store"
    one_warning s
    grep -q "took more than 2 s for this build's uploads: [0-9]* entries not uploaded" s.err ||
        fail "no warning about the upload budget: $(cat s.err)"
    puts=$(grep -c '^PUT ' "$SRV/bad/requests.log" || true)
    entries=$(find "$work/cache-s/v1" -name '*.[a-z]' ! -name '*.v' | wc -l)
    [ "$puts" -lt "$entries" ] || fail "$puts uploads sent for $entries entries: none dropped"
    echo "ok: $puts of $entries entries' uploads sent; $(grep 'took more' s.err)"
    ;;
checkouts)
    # One project checked out by two people in different folders (each with its
    # own local cache, the module and include folders named by absolute paths,
    # builds started from inside each checkout): the second compiles nothing,
    # its bundle is byte-identical, and its depfile names its own files only.
    setup_store
    for who in alice bob; do
        p=$work/$who/work-of-$who/project
        mkdir -p "$p/.git" "$p/shaders/inc" "$p/shaders/lib" "$p/build"
        printf 'float scale(float x) { return x * 3.0; }\n' >"$p/shaders/inc/common.slangh"
        printf 'module util;\npublic float offset(float x) { return x + 1.0; }\n' \
            >"$p/shaders/lib/util.slang"
        cat >"$p/shaders/m.slang" <<'SLANG'
#include "inc/common.slangh"
import util;
RWStructuredBuffer<float> output;
[numthreads(4, 1, 1)]
void computeMain(uint3 id : SV_DispatchThreadID)
{
    output[id.x] = offset(scale(float(id.x)));
}
SLANG
    done
    # C WHO OUT [options...]: a build in WHO's checkout, from its build folder.
    C() {
        local who=$1 out=$2 p rc=0
        shift 2
        p=$work/$who/work-of-$who/project
        (cd "$p/build" && "$build" -v -MD --targets spirv,wgsl --no-layouts \
            --cache-dir "$work/cache-$who" --cache-remote "$URL" -o "$p/build/$out" \
            -I "$p/shaders/lib" "$@" "$p/shaders/m.slang") >"$work/$who-$out.err" 2>&1 || rc=$?
        [ "$rc" = 0 ] || { cat "$work/$who-$out.err" >&2; fail "$who's build $out failed ($rc)"; }
    }
    A=$work/alice/work-of-alice/project B_=$work/bob/work-of-bob/project
    C alice out
    [ "$(ran alice-out)" -gt 0 ] || fail "alice's first build compiled nothing"
    C bob out
    [ "$(ran bob-out)" = 0 ] || fail "bob's checkout compiled: $(cat bob-out.err)"
    cmp "$A/build/out/m.dgpb" "$B_/build/out/m.dgpb" || fail "bob's bundle differs from alice's"
    cmp "$A/build/out/m.bundle.json" "$B_/build/out/m.bundle.json" || fail "bob's view differs"
    for f in "$B_/shaders/inc/common.slangh" "$B_/shaders/lib/util.slang" "$B_/build/out/m.dgpb"; do
        grep -qF "$f" "$B_/build/out/m.d" || fail "bob's depfile does not name $f: $(cat "$B_/build/out/m.d")"
    done
    grep -q alice "$B_/build/out/m.d" && fail "bob's depfile names alice's files: $(cat "$B_/build/out/m.d")"
    # Another output folder: each compile (not the whole build) from the store.
    C bob other
    [ "$(ran bob-other)" = 0 ] || fail "bob's second output folder compiled: $(cat bob-other.err)"
    grep -q alice "$B_/build/other/m.d" && fail "bob's depfile names alice's files"
    # Bob edits the included file: what it reaches compiles again, on his files.
    sed -i 's/3.0/5.0/' "$B_/shaders/inc/common.slangh"
    C bob out
    [ "$(ran bob-out)" -gt 0 ] || fail "bob's edited include was taken from alice's entries"
    cmp -s "$A/build/out/m.dgpb" "$B_/build/out/m.dgpb" && fail "bob's edit changed nothing"
    # Alice makes the same edit: bob's upload is hers now.
    sed -i 's/3.0/5.0/' "$A/shaders/inc/common.slangh"
    C alice out
    [ "$(ran alice-out)" = 0 ] || fail "alice compiled what bob's build uploaded: $(cat alice-out.err)"
    cmp "$A/build/out/m.dgpb" "$B_/build/out/m.dgpb" || fail "the bundles differ after the same edit"
    # A project root given by hand (no .git above the module): carol's and dave's
    # folders share too, with --cache-root and with DGPB_CACHE_ROOT.
    for who in carol dave; do
        mkdir -p "$work/$who/x"
        cp -r "$A" "$work/$who/x/proj"
        rm -rf "$work/$who/x/proj/.git" "$work/$who/x/proj/build/"*
    done
    (cd "$work/carol/x/proj/build" && "$build" -v --targets spirv,wgsl --no-layouts \
        --cache-dir "$work/cache-carol" --cache-remote "$URL" --cache-root "$work/carol/x/proj" \
        -o out -I ../shaders/lib ../shaders/m.slang) >carol.err 2>&1 || { cat carol.err; fail "carol"; }
    (cd "$work/dave/x/proj/build" && DGPB_CACHE_ROOT=$work/dave/x/proj "$build" -v \
        --targets spirv,wgsl --no-layouts --cache-dir "$work/cache-dave" --cache-remote "$URL" \
        -o out -I ../shaders/lib ../shaders/m.slang) >dave.err 2>&1 || { cat dave.err; fail "dave"; }
    [ "$(ran dave)" = 0 ] || fail "dave's checkout compiled: $(cat dave.err)"
    cmp "$work/carol/x/proj/build/out/m.dgpb" "$work/dave/x/proj/build/out/m.dgpb" ||
        fail "carol's and dave's bundles differ"
    echo "ok: $(ran alice-out) compiles on alice's first build, none on bob's, carol's or dave's checkout"
    ;;
https)
    # An https store (nginx with a certificate made for the test): trusted
    # through DGPB_CACHE_REMOTE_CA, machine B compiles nothing; without it the
    # certificate is refused (one warning, the build goes on locally, nothing
    # uploaded).
    NGINX_TLS=1 start_nginx
    URL=https://127.0.0.1:$NGINX_PORT
    DGPB_CACHE_REMOTE_CA=$NGINX_CERT B a1 a --cache-remote "$URL"
    no_warning a1
    check_store
    DGPB_CACHE_REMOTE_CA=$NGINX_CERT B b1 b --cache-remote "$URL"
    [ "$(ran b1)" = 0 ] || fail "machine B compiled over https: $(cat b1.err)"
    n=$(store_files)
    same b1 ref || fail "the bundle over https differs"
    B c1 c --cache-remote "$URL"
    [ "$(ran c1)" -gt 0 ] || fail "an untrusted certificate was accepted"
    one_warning c1
    grep -qi "certificate\|SSL" c1.err || fail "the warning does not say the certificate was refused: $(cat c1.err)"
    [ "$(store_files)" = "$n" ] || fail "a build that refused the certificate changed the store ($n, then $(store_files) files)"
    same c1 ref || fail "the bundle differs after a refused certificate"
    echo "ok: https with DGPB_CACHE_REMOTE_CA: $n files stored, none compiled on B; untrusted: $(grep -i warning c1.err)"
    ;;
forged)
    # A store cannot choose the bundle (docs/cache.md, "Trust"). Module A's whole-build entry
    # pointed at module B's manifest, then a manifest naming a result whose bundle is the 19
    # bytes "NOT A BUNDLE AT ALL" (every SHA-256 in the store right): each a recompile on an
    # empty local cache, exit 0, the bytes of an uncached build.
    setup_store
    other=$HERE/../../fixtures/build/plain.slang
    B a1 a --cache-remote "$URL"
    "$build" "${opts[@]}" --cache-dir "$work/cache-a" --cache-remote "$URL" -o "$work/other" \
        "$other" >"$work/other.out" 2>&1 || fail "building $other failed: $(cat "$work/other.out")"
    if [ "$store" = http ]; then at=$NGINX_ROOT; else at=redis:$REDIS_PORT; fi
    tamper() { REDISCLI_AUTH='' python3 "$HERE/tamper.py" "$at" "$@"; }
    # Each build into the same output folder (the whole build's key names it), each on a local
    # cache of its own; keep NAME: the last build's outputs moved to NAME.
    keep() { mv a1 "$1" && mv a1.err "$1.err" && mv a1.out "$1.out"; }
    keep first
    tamper swap "$name.slang" plain.slang >/dev/null || fail "tamper.py swap failed"
    B a1 s --cache-remote "$URL"
    keep s
    same s ref || fail "swapped entry: the bundle is not module A's: $(cat s.err)"
    stats s
    grep -q "^builds: 0 hits" stats-s.out || fail "swapped entry: a whole-build hit: $(cat stats-s.out)"
    no_warning s
    tamper fabricate "$name.slang" >/dev/null || fail "tamper.py fabricate failed"
    B a1 f --cache-remote "$URL"
    keep f
    same f ref || fail "fabricated entry: a wrong bundle was written: $(cat f.err)"
    one_warning f
    grep -q "cached build from the remote store is not a valid bundle" f.err ||
        fail "fabricated entry: no warning naming the remote store: $(cat f.err)"
    stats f
    grep -q "^builds: 0 hits" stats-f.out || fail "fabricated entry: counted as a hit: $(cat stats-f.out)"
    grep -q "^refused: 1 " stats-f.out || fail "fabricated entry: not counted as refused: $(cat stats-f.out)"
    # What the refused build filed in its place is right: the next machine replays it.
    B a1 g --cache-remote "$URL"
    keep g
    same g ref || fail "after the refusal: the bundle differs"
    [ "$(compiles g)" = 0 ] && no_warning g
    echo "ok: a swapped entry is a miss; a fabricated one refused with $(grep warning f.err)"
    ;;
keyed)
    # A team key (DGPB_CACHE_REMOTE_KEY_FILE, docs/cache.md "Trust"): entries uploaded with it
    # are authenticated, and with it only those are used. A swapped entry, a fabricated one, a
    # consistent bundle with other code (written by someone without the key, which passes every
    # check of the bundle: shown first without a key) and a wrong key: each a miss, one
    # warning, exit 0, the bytes of an uncached build. The key is never printed.
    setup_store
    if [ "$store" = http ]; then at=$NGINX_ROOT; else at=redis:$REDIS_PORT; fi
    tamper() { REDISCLI_AUTH='' python3 "$HERE/tamper.py" "$at" "$@"; }
    keep() { mv a1 "$1" && mv a1.err "$1.err" && mv a1.out "$1.out"; }
    printf 'team-secret-one\n' >"$work/key1"
    printf 'team-secret-two' >"$work/key2"
    : >"$work/key-empty"
    # A key file that cannot be used is a usage error (2), naming the variable, not the key.
    for bad in "$work/key-empty" "$work/no-such-key"; do
        rc=0
        DGPB_CACHE_REMOTE_KEY_FILE=$bad "$build" "${opts[@]}" --cache-dir "$work/cache-bad" \
            --cache-remote "$URL" -o "$work/bad" "$module" >"$work/bad.err" 2>&1 || rc=$?
        [ "$rc" = 2 ] || fail "key file $bad: exit $rc, not 2: $(cat "$work/bad.err")"
        grep -q DGPB_CACHE_REMOTE_KEY_FILE "$work/bad.err" || fail "$bad: $(cat "$work/bad.err")"
    done
    [ "$(entries_in_store)" = 0 ] || fail "a build with an unusable key file used the store"
    # A consistent forgery: the module with other code (one constant more), built uncached.
    mkdir -p "$work/variant"
    sed 's/+ uint(cb.tint.w);/+ uint(cb.tint.w) + 1234u;/' "$module" >"$work/variant/$name.slang"
    cmp -s "$module" "$work/variant/$name.slang" && fail "the variant is the module"
    "$build" "${opts[@]}" --no-cache -o "$work/variant/out" "$work/variant/$name.slang" \
        >"$work/variant.err" 2>&1 || fail "the variant does not build: $(cat "$work/variant.err")"
    forged=$work/variant/out/$name.dgpb
    cmp -s "$forged" ref/"$name".dgpb && fail "the variant's bundle is the module's"
    # Without a key, such a bundle is taken: only the key stops a consistent forgery.
    B a1 nokey --cache-remote "$URL"
    keep nokey-first
    tamper fabricate "$name.slang" "@$forged" >/dev/null
    B a1 nokey2 --cache-remote "$URL"
    keep nokey2
    cmp -s nokey2/"$name".dgpb "$forged" ||
        fail "without a key, the consistent forgery was not taken (the test's premise)"
    if [ "$store" = http ]; then rm -rf "${NGINX_ROOT:?}"/*; else rcli FLUSHALL >/dev/null; fi
    export DGPB_CACHE_REMOTE_KEY_FILE=$work/key1
    other=$HERE/../../fixtures/build/plain.slang
    B a1 a --cache-remote "$URL"
    keep first
    "$build" "${opts[@]}" --cache-dir "$work/cache-a" --cache-remote "$URL" -o "$work/other" \
        "$other" >"$work/other.out" 2>&1 || fail "building $other failed: $(cat "$work/other.out")"
    # Every action entry is authenticated: SHA-256, a space, the HMAC.
    if [ "$store" = http ]; then
        for f in "$NGINX_ROOT"/ac/*; do
            grep -Eqx '[0-9a-f]{64} [0-9a-f]{64}' "$f" || fail "an action entry without its HMAC: $(cat "$f")"
        done
    else
        for k in $(rcli --raw KEYS 'dgpb:v1:ac:*'); do
            [[ $(rcli --raw GET "$k") =~ ^[0-9a-f]{64}\ [0-9a-f]{64}$ ]] || fail "$k holds no HMAC"
        done
    fi
    B a1 hit --cache-remote "$URL"
    keep hit
    [ "$(compiles hit)" = 0 ] && same hit ref && no_warning hit || fail "the keyed store is no hit"
    # attempt CASE: a build on an empty local cache after the store was rewritten: a miss, one
    # warning (the key does not authenticate), counted, the bytes of an uncached build.
    attempt() {
        B a1 "$1" --cache-remote "$URL"
        keep "$1"
        same "$1" ref || fail "$1: a wrong bundle was written: $(cat "$1.err")"
        one_warning "$1"
        grep -q "does not authenticate" "$1.err" || fail "$1: no warning about the key: $(cat "$1.err")"
        stats "$1"
        grep -q "^builds: 0 hits" "stats-$1.out" || fail "$1: a whole-build hit: $(cat "stats-$1.out")"
        grep -Eq "^refused: .*, [1-9][0-9]* remote entries the team key" "stats-$1.out" ||
            fail "$1: not counted: $(cat "stats-$1.out")"
        ! grep -rq team-secret "$1.err" "$1.out" "stats-$1.out" || fail "$1: the key was printed"
    }
    tamper swap "$name.slang" plain.slang >/dev/null
    attempt swapped
    tamper fabricate "$name.slang" >/dev/null
    attempt fabricated
    tamper fabricate "$name.slang" "@$forged" >/dev/null
    attempt forged
    # The key vouches only for what it checked: a build without the key (a pull request's job
    # without the secret) fills a local cache from the store, which holds the forgery; a
    # keyed build on that cache, with and without the store, takes none of it (exit 0, the
    # bytes of an uncached build), then uses its own entries.
    tamper fabricate "$name.slang" "@$forged" >/dev/null # the keyed build replaced it
    (unset DGPB_CACHE_REMOTE_KEY_FILE && B a1 pr --cache-remote "$URL")
    keep pr
    cmp -s pr/"$name".dgpb "$forged" || fail "the build without the key did not take the forgery (the premise)"
    cp -r "$work/cache-pr" "$work/cache-pr2"
    B a1 pr --cache-remote "$URL"
    keep keyed-pr
    same keyed-pr ref || fail "a keyed build took what a build without the key fetched (with the store)"
    B a1 pr2
    keep keyed-pr2
    same keyed-pr2 ref || fail "a keyed build took what a build without the key fetched (local only)"
    [ "$(ran keyed-pr2)" -gt 0 ] || fail "the keyed build compiled nothing on the unkeyed cache"
    B a1 pr2
    keep keyed-pr2-again
    same keyed-pr2-again ref && [ "$(compiles keyed-pr2-again)" = 0 ] ||
        fail "the keyed build does not use the entries it filed itself"
    # A wrong key: nothing the store holds is used; everything is compiled here.
    DGPB_CACHE_REMOTE_KEY_FILE=$work/key2 B a1 wrongkey --cache-remote "$URL"
    keep wrongkey
    same wrongkey ref || fail "wrong key: the bundle differs"
    one_warning wrongkey
    [ "$(ran wrongkey)" -gt 0 ] || fail "wrong key: nothing compiled"
    echo "ok: keyed entries authenticated; swapped, fabricated, forged and wrong-key entries are misses; what a build without the key fetched is a miss for a keyed build"
    ;;
traversal)
    # A store whose action entries name paths instead of hashes, then one whose
    # manifests list "../" paths: the bundle is right, the client asks for
    # nothing but /cas/<hex> and /ac/<hex>, and writes nothing but its entries.
    setup_store
    B a1 a --cache-remote "$URL"
    check_uploaded
    mkdir -p "$work/outside"
    echo "bait" >"$work/outside/bait"
    if [ "$store" = http ]; then at=$NGINX_ROOT; else at=redis:$REDIS_PORT; fi
    tamper() { REDISCLI_AUTH='' python3 "$HERE/tamper.py" "$at" "$1"; }
    i=$(tamper ac)
    [ "$i" -gt 0 ] || fail "no action entry to rewrite"
    [ "$store" != http ] || : >"$NGINX_LOG"
    B t t --cache-remote "$URL"
    same t ref || fail "the bundle differs with traversing action entries"
    one_warning t
    verify_local t
    # The manifests: the store filled again, then every manifest rewritten. A compile's
    # manifest lists the files the module includes and imports (the module's own text is in
    # its key), so the test's module includes and imports some.
    if [ "$store" = http ]; then rm -rf "${NGINX_ROOT:?}"/*; else rcli FLUSHALL >/dev/null; fi
    B a2 a2 --cache-remote "$URL"
    j=$(tamper manifest)
    [ "$j" -gt 0 ] || fail "no manifest to rewrite"
    B m m --cache-remote "$URL"
    same m ref || fail "the bundle differs with traversing manifests"
    [ "$(warnings m)" -le $((base_warnings + 1)) ] || fail "more than one warning: $(cat m.err)"
    [ "$(ran m)" -gt 0 ] || fail "a manifest naming other files was a hit"
    verify_local m
    if [ "$store" = http ]; then
        check_requests
        bad=$(cd "$NGINX_ROOT" && find . -type f | grep -Ev '^\./(cas|ac)/[0-9a-f]{64}$' || true)
        [ -z "$bad" ] || fail "files in the store outside cas/ and ac/: $bad"
    else
        bad=$(rcli --raw KEYS '*' | grep -v '^dgpb:v1:\(ac\|cas\):[0-9a-f]\{64\}$' || true)
        [ -z "$bad" ] || fail "redis keys outside the namespace: $bad"
    fi
    # Nothing was written beside the caches and the outputs.
    [ "$(cat "$work/outside/bait")" = bait ] || fail "the bait was changed"
    [ "$(find "$work/outside" -type f | wc -l)" = 1 ] || fail "files were written outside"
    for o in t m; do
        unexpected=$(find "$work/$o" -type f ! -name "$name.dgpb" ! -name "$name.bundle.json")
        [ -z "$unexpected" ] || fail "unexpected files: $unexpected"
    done
    echo "ok: $i traversing action entries and $j manifests with ../ paths: misses, nothing escaped"
    ;;
auth)
    # Redis AUTH: the password in the URL, then in DGPB_CACHE_REMOTE_PASSWORD; never printed.
    pw=s3cret-Pa55-$RANDOM$RANDOM
    REDIS_PASS=$pw
    start_redis "$pw"
    B a1 a --cache-remote "redis://:$pw@127.0.0.1:$REDIS_PORT"
    no_warning a1
    check_uploaded
    DGPB_CACHE_REMOTE_PASSWORD=$pw B b1 b --cache-remote "redis://127.0.0.1:$REDIS_PORT"
    [ "$(ran b1)" = 0 ] || fail "DGPB_CACHE_REMOTE_PASSWORD: machine B compiled"
    no_warning b1
    # A wrong password and none: the build goes on locally, saying so once.
    B w1 w --cache-remote "redis://:wrong-$pw@127.0.0.1:$REDIS_PORT"
    one_warning w1
    same w1 ref || fail "wrong password: the bundle differs"
    B n1 n --cache-remote "redis://127.0.0.1:$REDIS_PORT"
    one_warning n1
    DGPB_CACHE_REMOTE=redis://:$pw@127.0.0.1:$REDIS_PORT B e1 e
    [ "$(ran e1)" = 0 ] || fail "DGPB_CACHE_REMOTE: machine E compiled"
    for c in a b w n e; do
        "$build" --cache-dir "$work/cache-$c" --cache-stats \
            --cache-remote "redis://:$pw@127.0.0.1:$REDIS_PORT" >"$work/stats-url-$c.out" 2>&1 || true
        stats "$c"
    done
    leaks=$(grep -lF -e "$pw" ./*.out ./*.err || true)
    [ -z "$leaks" ] || fail "the password was printed in: $leaks"
    echo "ok: AUTH from the URL and the environment; refused without; never printed"
    ;;
secrets)
    # HTTP: a header from the environment and a password in the URL reach the
    # server and are never printed, nor when the store is down.
    tok=tok-$RANDOM$RANDOM$RANDOM
    pw=urlpw-$RANDOM$RANDOM
    start_nginx
    # nginx logs what it was sent (see servers.sh: the token and the user).
    export DGPB_CACHE_REMOTE_HEADER="X-Team-Token: $tok"
    B a1 a --cache-remote "http://ci:$pw@127.0.0.1:$NGINX_PORT"
    no_warning a1
    check_store
    grep -qF "[$tok]" "$NGINX_LOG" || fail "the header did not reach the store: $(head -3 "$NGINX_LOG")"
    grep -qF "[ci]" "$NGINX_LOG" || fail "the URL's user did not reach the store"
    B b1 b -q --cache-remote "http://ci:$pw@127.0.0.1:$NGINX_PORT"
    # ~/.netrc names the user and password for a URL without them.
    npw=netrcpw-$RANDOM$RANDOM
    mkdir -p "$work/home"
    printf 'machine 127.0.0.1 login netrc-user password %s\n' "$npw" >"$work/home/.netrc"
    chmod 600 "$work/home/.netrc"
    HOME=$work/home B n1 n --cache-remote "http://127.0.0.1:$NGINX_PORT"
    no_warning n1
    grep -qF "[netrc-user]" "$NGINX_LOG" || fail "\$HOME/.netrc was not used: $(tail -3 "$NGINX_LOG")"
    stop_nginx
    B d1 d --cache-remote "http://ci:$pw@127.0.0.1:$NGINX_PORT"
    one_warning d1
    grep -q "127.0.0.1:$NGINX_PORT" d1.err || fail "the warning does not name the store: $(cat d1.err)"
    for c in a b d; do
        "$build" --cache-dir "$work/cache-$c" --cache-stats \
            --cache-remote "http://ci:$pw@127.0.0.1:$NGINX_PORT" >"$work/stats-url-$c.out" 2>&1 || true
        stats "$c"
    done
    leaks=$(grep -lF -e "$pw" -e "$tok" -e "$npw" ./*.out ./*.err || true)
    [ -z "$leaks" ] || fail "a secret was printed in: $leaks"
    echo "ok: the header, the URL's password and ~/.netrc reach the store and are never printed"
    ;;
hostile)
    [ -x /usr/bin/time ] || fail "/usr/bin/time is missing (apt-get install time)"
    # A store whose answers never end. Redis: 2^62 bytes announced then 512 MiB
    # streamed (refused on the length, before any of it is read), or one byte
    # every 1.5 s (cut off as too slow). Each build finishes locally with one
    # warning and the store is asked once: off after the first bad answer.
    # HTTP: a body of 250 bytes sent a byte every 0.2 s (cut off as too slow).
    modes="redis-huge redis-trickle"
    [ "$store" = redis ] || modes=trickle
    for bad in $modes; do
        mode=${bad#redis-}
        rm -f "$SRV/bad/requests.log"
        start_bad "$bad" "$work"
        # a hang guard only (the build takes seconds): without bounds it never ends
        timeout -s KILL 300 /usr/bin/time -f %M -o "$work/$mode.rss" \
            "$build" "${opts[@]}" --cache-dir "$work/cache-$mode" -o "$work/$mode" \
            --cache-remote "$store://127.0.0.1:$BAD_PORT" "$module" \
            >"$work/$mode.out" 2>"$work/$mode.err" || { cat "$work/$mode.err" >&2; fail "$mode: the build failed or hung"; }
        same "$mode" ref || fail "$mode: the bundle differs from an uncached build"
        one_warning "$mode"
        grep -q "remote cache $store://127.0.0.1:$BAD_PORT" "$mode.err" || fail "$mode: the warning names no store"
        gets=$(grep -c '^GET ' "$SRV/bad/requests.log" || true)
        [ "$gets" = 1 ] || fail "$mode: the store was asked $gets times; not turned off after the first answer"
        if [ "$mode" = huge ]; then
            # the answer was refused on its length: the client hung up long before 64 MiB
            sent=$(sed -n 's/^SENT \([0-9]*\).*/\1/p' "$SRV/bad/requests.log" | head -n 1)
            [ -n "$sent" ] && [ "$sent" -lt $((64 << 20)) ] ||
                fail "huge: the client read ${sent:-all} bytes of an answer over the 64 MiB cap"
        fi
        kill -TERM "$BAD_PID"
        wait "$BAD_PID" 2>/dev/null || true
        echo "$mode: $(grep warning "$mode.err"); peak memory $(cat "$mode.rss") KB"
    done
    echo "ok: $store: $modes: refused, the store off, one warning"
    ;;
signal)
    # SIGTERM while an answer trickles in (a byte every 0.2 s, for 50 s; Redis
    # or HTTP): the build stops with 143 without waiting for the store, writes
    # nothing, warns of no store (the request was cut by the signal, not by a
    # limit).
    if [ "$store" = redis ]; then start_bad redis-endless "$work"; else start_bad trickle "$work"; fi
    "$build" "${opts[@]}" --cache-dir "$work/cache-s" -o "$work/s" \
        --cache-remote "$store://127.0.0.1:$BAD_PORT" "$module" >"$work/s.out" 2>"$work/s.err" &
    pid=$!
    for _ in $(seq 600); do
        grep -q '^GET ' "$SRV/bad/requests.log" 2>/dev/null && break
        sleep 0.1
    done
    grep -q '^GET ' "$SRV/bad/requests.log" || { kill -KILL "$pid"; fail "the store was never asked"; }
    sleep 0.5
    kill -TERM "$pid"
    # a hang guard only: the build ignores SIGTERM when it does not end
    for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        fail "SIGTERM did not stop a build reading a $store answer"
    fi
    rc=0
    wait "$pid" || rc=$?
    [ "$rc" = 143 ] || { cat s.err >&2; fail "the build ended with $rc, not 143 (SIGTERM)"; }
    if grep -q "remote cache" s.err; then
        cat s.err >&2
        fail "the store's request was not stopped by the signal (it ran into a limit)"
    fi
    [ ! -e "$work/s/$name.dgpb" ] || fail "a bundle was written after SIGTERM"
    echo "ok: SIGTERM during a $store read: 143, nothing written"
    ;;
channels)
    # Passwords holding '#', '?', '/', ':' and '@' (a store up, then down): never
    # in any output: stderr with -v, --cache-stats, --list --json, the depfile,
    # the bundle and its JSON view, the local cache's files.
    pw1="Old#PASS?w-$RANDOM$RANDOM"
    pw2="a/b:c@Sec#r?t-$RANDOM$RANDOM"
    for pw in "$pw1" "$pw2"; do
        REDIS_PASS=$pw
        start_redis "$pw"
        url="redis://:$pw@127.0.0.1:$REDIS_PORT"
        B up up -MD --cache-remote "$url"
        no_warning up
        check_uploaded
        B up2 up2 -MD --cache-remote "$url"
        [ "$(ran up2)" = 0 ] || fail "the password was not used: machine 2 compiled"
        "$build" --cache-dir "$work/cache-up" --cache-stats --cache-remote "$url" \
            >"$work/stats-url.out" 2>&1 || true
        "$build" -v --list --json --cache-remote "$url" "$module" >"$work/list.out" 2>"$work/list.err" || true
        kill -KILL "$REDIS_PID"
        B down down -MD --cache-remote "$url"
        one_warning down
        grep -q "redis://\*\*\*@127.0.0.1:$REDIS_PORT" down.err || fail "the warning does not name the store: $(cat down.err)"
        DGPB_CACHE_REMOTE=$url B env env -MD
        one_warning env
        for c in up up2 down env; do stats "$c"; done
        leaks=$(grep -rlF -e "$pw" -e "${pw%%-*}" -e "${pw#*#}" "$work" --exclude-dir=srv --exclude-dir=home || true)
        [ -z "$leaks" ] || fail "the password was printed in: $leaks"
        rm -rf "$work"/up* "$work"/down* "$work"/env* "$work"/cache-*
    done
    echo "ok: passwords with '#', '?', '/', ':', '@': no output holds them"
    ;;
*)
    fail "unknown case $case_"
    ;;
esac
