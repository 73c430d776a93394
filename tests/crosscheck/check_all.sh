#!/usr/bin/env bash
# check_all.sh OUT CHECKER [ARGS...] - runs one cross-checker on every bundle
# build_bundles.sh listed in OUT/bundles.list:
#
#   CHECKER [ARGS...] --module MODULE BUNDLE VIEW
#
# and closes with the totals of every bundle. Exit 1 when any bundle fails.
set -u
out=$1; shift
[ -s "$out/bundles.list" ] || { echo "FAIL: no bundles in $out (the crosscheck_bundles test builds them)"; exit 1; }
passed=0 failed=0 status=0
while read -r bundle module view; do
    echo "== $(basename "$(dirname "$bundle")")/$(basename "$bundle")"
    log=$("$@" --module "$module" "$bundle" "$view" 2>&1); rc=$?
    printf '%s\n' "$log"
    tally=$(printf '%s\n' "$log" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -1)
    if [ -n "$tally" ]; then
        passed=$((passed + ${tally%% *}))
        f=${tally#*, }; failed=$((failed + ${f%% *}))
    fi
    if [ $rc -ne 0 ]; then
        status=1
        [ -n "$tally" ] && [ "${f%% *}" != 0 ] || failed=$((failed + 1))
    fi
done <"$out/bundles.list"
echo "== all bundles: $passed passed, $failed failed"
exit $status
