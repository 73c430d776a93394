#!/usr/bin/env bash
# reuse_bundles.sh FROM TO - a fixture builder's bundles taken from another
# build's run instead of being built again (DGPB_TEST_BUNDLES_FROM, the
# sanitize pass of tools/test.sh; docs/testing.md, "Which pass covers what"):
# copies the folder FROM to TO (TO made anew), and in the lists a builder
# writes (*.list) names TO where they named FROM. FROM missing is a failure
# saying to run the other build's tests first.
set -u
from=$1 to=$2
[ -d "$from" ] || { echo "FAIL: $from is missing: run the normal build's tests first (tools/test.sh does)"; exit 1; }
rm -rf "$to"
mkdir -p "$(dirname "$to")" && cp -a "$from" "$to" || { echo "FAIL: cannot copy $from to $to"; exit 1; }
find "$to" -name '*.list' -type f | while read -r list; do
    sed -i "s#$from/#$to/#g" "$list"
done
echo "ok: the bundles of $from, reused in $to ($(find "$to" -name '*.dgpb' | wc -l) bundles)"
