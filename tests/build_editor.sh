#!/usr/bin/env bash
# build_editor.sh BUILD FOLDER - modules saved as editors save them (a UTF-8
# byte-order mark, CRLF line endings, in the module, its includes and imports;
# fixtures/plain/editor/) must build to the same bytes as the same files
# without the mark and with LF endings.
set -u
build=$1 folder=$2
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$out/edited" "$out/plain"
cp -R "$folder/." "$out/edited/"
cp -R "$folder/." "$out/plain/"
count=0
while IFS= read -r -d '' file; do
    # The fixtures must stay as editors wrote them (no line-ending conversion on checkout).
    [ "$(head -c 3 "$file" | od -An -tx1 | tr -d ' ')" = efbbbf ] || fail "$file lost its byte-order mark"
    grep -q $'\r$' "$file" || fail "$file lost its CRLF line endings"
    plain="$out/plain/${file#"$out/edited/"}"
    sed '1s/^\xef\xbb\xbf//' "$file" | tr -d '\r' > "$plain"
    count=$((count + 1))
done < <(find "$out/edited" -type f -print0)
[ "$count" -ge 4 ] || fail "only $count fixture files in $folder"
for module in "$folder"/*.slang; do
    stem=$(basename "$module" .slang)
    for kind in edited plain; do
        log=$("$build" -q --no-cache --no-layouts -I "$out/$kind/include" "$out/$kind/$stem.slang" \
            -o "$out/$kind/out" 2>&1) || fail "$kind $stem.slang does not build: $log"
    done
    cmp "$out/edited/out/$stem.dgpb" "$out/plain/out/$stem.dgpb" ||
        fail "$stem.dgpb differs between the edited and the plain files"
    cmp "$out/edited/out/$stem.bundle.json" "$out/plain/out/$stem.bundle.json" ||
        fail "$stem.bundle.json differs between the edited and the plain files"
    echo "ok: $stem.slang"
done
echo "ok: editor inputs"
