#!/usr/bin/env bash
# build_bundles.sh DGPB_BUILD DGPB_DUMP SOURCE_DIR OUT - builds every fixture
# module the cross-checks read: fixtures/build/*.slang and, when that folder
# exists, fixtures/conformance/*.slang, each with dgpb-build into
# OUT/<folder>/. Writes OUT/bundles.list, one "BUNDLE MODULE VIEW" line per
# module built, for check_all.sh. Exits 1 when a module fails to build (the
# others are still built and listed).
set -u
build=$1 dump=$2 src=$3 out=$4
rm -rf "$out"; mkdir -p "$out"
list="$out/bundles.list.tmp"; : >"$list"
status=0 pids=() names=()
for folder in build conformance; do
    [ -d "$src/fixtures/$folder" ] || continue
    for module in "$src/fixtures/$folder"/*.slang; do
        [ -e "$module" ] || continue
        stem=$(basename "$module" .slang)
        mkdir -p "$out/$folder"
        "$build" -q -j2 "$module" -o "$out/$folder" >"$out/$folder/$stem.log" 2>&1 &
        pids+=($!) names+=("$folder/$stem $module")
    done
done
for i in "${!pids[@]}"; do
    read -r name module <<<"${names[$i]}"
    if wait "${pids[$i]}"; then
        echo "$out/$name.dgpb $module $out/$name.bundle.json" >>"$list"
        echo "built $name"
    else
        echo "FAIL: dgpb-build $module:"; cat "$out/$name.log"; status=1
    fi
done
[ -s "$list" ] || { echo "FAIL: no fixture module found under $src/fixtures"; status=1; }
# The view dgpb-build wrote must be the one dgpb-dump regenerates: the checkers read it.
while read -r bundle module view; do
    "$dump" --json "$bundle" | cmp -s - "$view" ||
        { echo "FAIL: $view is not what dgpb-dump --json gives"; status=1; }
done <"$list"
sort "$list" >"$out/bundles.list" && rm -f "$list"
exit $status
