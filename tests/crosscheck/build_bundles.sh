#!/usr/bin/env bash
# build_bundles.sh DGPB_BUILD DGPB_DUMP SOURCE_DIR OUT - builds every fixture
# module the cross-checks read: fixtures/build/*.slang and, when those folders
# exist, fixtures/conformance/*.slang, fixtures/plain/*.slang and
# fixtures/stages/*.slang, each with dgpb-build into
# OUT/<folder>/. Writes OUT/bundles.list, one "BUNDLE MODULE VIEW" line per
# module built, for check_all.sh. Exits 1 when a module fails to build (the
# others are still built and listed).
# KEPT (optional): the folder where the golden tests of this ctest run keep the
# bundles that matched their goldens (tests/build_fixture.sh): a module whose
# KEPT/<folder>/STEM.run holds this run's DGPB_TEST_RUN is copied from there,
# not compiled again (the same options give the same bytes).
set -u
build=$1 dump=$2 src=$3 out=$4 kept=${5:-}
rm -rf "$out"; mkdir -p "$out"
list="$out/bundles.list.tmp"; : >"$list"
status=0 names=() kept_count=0
# At most four builds at once (their compiles go to the compile service, when one is on).
for folder in build conformance plain stages; do
    [ -d "$src/fixtures/$folder" ] || continue
    for module in "$src/fixtures/$folder"/*.slang; do
        [ -e "$module" ] || continue
        stem=$(basename "$module" .slang)
        case $stem in plain_lib_*) continue ;; esac # imported libraries: no entries
        mkdir -p "$out/$folder"
        # A "// dgpb-targets: LIST" line among the first five limits the targets;
        # a folder's include/ holds its headers.
        targets=$(sed -n '1,5s|^// dgpb-targets: *||p' "$module" | head -n 1)
        includes=()
        [ -d "$(dirname "$module")/include" ] && includes=(-I "$(dirname "$module")/include")
        names+=("$folder/$stem $module")
        k=$kept/$folder/$stem
        if [ -n "$kept" ] && [ -n "${DGPB_TEST_RUN:-}" ] && [ -f "$k.run" ] &&
            [ "$(cat "$k.run")" = "$DGPB_TEST_RUN" ]; then
            cp "$k.dgpb" "$k.bundle.json" "$out/$folder/" &&
                echo "kept by its golden test" >"$out/$folder/$stem.log" &&
                echo 0 >"$out/$folder/$stem.status" && kept_count=$((kept_count + 1)) && continue
        fi
        while [ "$(jobs -rp | wc -l)" -ge 4 ]; do wait -n; done
        ("$build" -q -j2 ${targets:+--targets "$targets"} "${includes[@]}" "$module" \
            -o "$out/$folder" >"$out/$folder/$stem.log" 2>&1
         echo $? >"$out/$folder/$stem.status") &
    done
done
wait
for entry in "${names[@]}"; do
    read -r name module <<<"$entry"
    if [ "$(cat "$out/$name.status" 2>/dev/null)" = 0 ]; then
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
echo "$(wc -l <"$out/bundles.list") bundles: $kept_count kept by their golden tests, the others built here"
exit $status
