#!/usr/bin/env bash
# build_atomic.sh BUILD DUMP FIXTURES SHIM - the bundle and its JSON view are one
# output unit: after any failure, any overlap of two builds and any kill -9,
# both files are the new build's or both the old ones (docs/build.md, "The
# output unit"). SHIM is tests/slow_rename.c, preloaded to widen the moment
# between the two renames ($DGPB_TEST_RENAME_DELAY_MS).
#
#   1. the .bundle.json destination is a folder: exit 3, the old bundle untouched
#   2. the .dgpb destination is a folder: exit 3, the old view untouched
#   3. an unwritable output folder: exit 3, the old pair untouched
#   4. two builds of different versions of a module write one output at once
#   5. kill -9 at random moments of a loop of builds; the next build (here one
#      of a broken module, which fails) completes or undoes the replacement
set -u
build=$1 dump=$2 fixtures=$3 shim=$4
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$shim" ] || fail "no test library '$shim' (build the target slow_rename)"

# Two versions of one module (stem "mod"), and a broken one of the same stem. The
# compile cache (a private one) makes the loops fast: most builds replay it.
mkdir -p "$work/a" "$work/b" "$work/bad" "$work/tmp"
cp "$fixtures/plain.slang" "$work/a/mod.slang"
sed 's/\* gain;/* gain * 2.0;/' "$work/a/mod.slang" > "$work/b/mod.slang"
cmp -s "$work/a/mod.slang" "$work/b/mod.slang" && fail "the two versions are the same"
printf 'void broken( {\n' > "$work/bad/mod.slang"
export DGPB_NO_CACHE=0 DGPB_CACHE_DIR="$work/cache" TMPDIR="$work/tmp"
run() { "$build" -q --targets spirv "$@"; }
run "$work/a/mod.slang" -o "$work/ga" || fail "building version a"
run "$work/b/mod.slang" -o "$work/gb" || fail "building version b"
cmp -s "$work/ga/mod.bundle.json" "$work/gb/mod.bundle.json" && fail "both versions have one view"

# The pair in $1 matches (dgpb-dump --json of the bundle is the view, byte for byte)
# and is version a's or version b's.
check_pair() {
    local dir=$1 what=$2
    "$dump" --verify "$dir/mod.dgpb" >/dev/null 2>&1 || fail "$what: the bundle does not verify"
    "$dump" --json "$dir/mod.dgpb" > "$work/view.json" || fail "$what: dgpb-dump --json failed"
    cmp -s "$work/view.json" "$dir/mod.bundle.json" ||
        fail "$what: the bundle and its view do not match"
    cmp -s "$dir/mod.bundle.json" "$work/ga/mod.bundle.json" ||
        cmp -s "$dir/mod.bundle.json" "$work/gb/mod.bundle.json" ||
        fail "$what: the view is neither version's"
}
# Nothing in $1 but the pair.
check_clean() {
    local extra
    extra=$(ls -A "$1" | grep -v -x -e mod.dgpb -e mod.bundle.json)
    [ -z "$extra" ] || fail "$2: left behind in the output folder: $extra"
}
# Fails unless $1 is 3 and the message $2 names $3.
check_failed() {
    [ "$1" -eq 3 ] || fail "$4: exit status $1, not 3: $2"
    case "$2" in *"$3"*) ;; *) fail "$4: the message does not name '$3': $2" ;; esac
}

# 1. The view's destination is a folder.
mkdir "$work/o1"; cp "$work/ga/mod.dgpb" "$work/o1/"; mkdir "$work/o1/mod.bundle.json"
log=$(run "$work/b/mod.slang" -o "$work/o1" 2>&1); status=$?
check_failed $status "$log" "mod.bundle.json" "view is a folder"
cmp -s "$work/o1/mod.dgpb" "$work/ga/mod.dgpb" || fail "view is a folder: the old bundle changed"
[ -z "$(ls -A "$work/o1/mod.bundle.json")" ] || fail "view is a folder: the folder changed"
check_clean "$work/o1" "view is a folder"
rmdir "$work/o1/mod.bundle.json"; cp "$work/ga/mod.bundle.json" "$work/o1/"
run "$work/b/mod.slang" -o "$work/o1" || fail "view is a folder: the build after it failed"
cmp -s "$work/o1/mod.bundle.json" "$work/gb/mod.bundle.json" || fail "view is a folder: not rebuilt"
check_pair "$work/o1" "view is a folder"

# 2. The bundle's destination is a folder.
mkdir -p "$work/o2/mod.dgpb"; cp "$work/ga/mod.bundle.json" "$work/o2/"
log=$(run "$work/b/mod.slang" -o "$work/o2" 2>&1); status=$?
check_failed $status "$log" "mod.dgpb" "bundle is a folder"
cmp -s "$work/o2/mod.bundle.json" "$work/ga/mod.bundle.json" ||
    fail "bundle is a folder: the old view changed"
check_clean "$work/o2" "bundle is a folder"

# 3. An unwritable output folder (as root, the build runs as nobody).
mkdir -p "$work/o3"; cp "$work/ga/mod.dgpb" "$work/ga/mod.bundle.json" "$work/o3/"
chmod 755 "$work" "$work/b"; chmod 1777 "$work/tmp"; chmod 555 "$work/o3"
as_user=()
[ "$(id -u)" -eq 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
log=$("${as_user[@]}" env DGPB_NO_CACHE=1 "$build" -q --targets spirv "$work/b/mod.slang" \
    -o "$work/o3" 2>&1); status=$?
chmod 755 "$work/o3"
check_failed $status "$log" "$work/o3" "unwritable folder"
cmp -s "$work/o3/mod.dgpb" "$work/ga/mod.dgpb" && cmp -s "$work/o3/mod.bundle.json" \
    "$work/ga/mod.bundle.json" || fail "unwritable folder: the old pair changed"
check_clean "$work/o3" "unwritable folder"

export LD_PRELOAD="$shim${LD_PRELOAD:+:$LD_PRELOAD}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# 4. Two builds of different versions write one output at once, many times.
for round in $(seq 1 12); do
    DGPB_TEST_RENAME_DELAY_MS=300 run "$work/a/mod.slang" -o "$work/o4" & pa=$!
    DGPB_TEST_RENAME_DELAY_MS=300 run "$work/b/mod.slang" -o "$work/o4" & pb=$!
    wait $pa || fail "concurrent round $round: the build of version a failed"
    wait $pb || fail "concurrent round $round: the build of version b failed"
    check_pair "$work/o4" "concurrent round $round"
    check_clean "$work/o4" "concurrent round $round"
done

# 5. kill -9 at random moments of a loop of builds alternating two versions.
mkdir -p "$work/o5"; cp "$work/ga/mod.dgpb" "$work/ga/mod.bundle.json" "$work/o5/"
# Kill within the time one such build takes here (sanitizer builds are slower): a
# build without the delay, plus the longest delay.
t0=$(date +%s%N)
run "$work/b/mod.slang" -o "$work/o5t" || fail "the timing build failed"
span=$(( ($(date +%s%N) - t0) / 1000000 + 200 ))
hits=0
for round in $(seq 1 40); do
    version=a; [ $((round % 2)) -eq 0 ] && version=b
    # (the program itself in the background, not a function: kill must reach it)
    DGPB_TEST_RENAME_DELAY_MS=200 "$build" -q --targets spirv "$work/$version/mod.slang" \
        -o "$work/o5" & pid=$!
    ms=$((RANDOM % span))
    sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    [ -e "$work/o5/.mod.dgpb-journal" ] && hits=$((hits + 1))
    # The next build of this output, even one that fails, completes what was left.
    log=$("$build" -q --targets spirv "$work/bad/mod.slang" -o "$work/o5" 2>&1); status=$?
    [ $status -eq 1 ] || fail "kill round $round: the broken module's build exited $status: $log"
    [ -e "$work/o5/.mod.dgpb-journal" ] && fail "kill round $round: the journal is still there"
    check_pair "$work/o5" "kill round $round"
done
[ $hits -ge 3 ] || fail "only $hits of 40 kills landed between the two renames; the test proves little"
run "$work/b/mod.slang" -o "$work/o5" || fail "the build after the kills failed"
check_pair "$work/o5" "after the kills"
check_clean "$work/o5" "after the kills"
echo "ok: the output pair is one unit ($hits kills between the renames)"
