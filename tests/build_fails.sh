#!/usr/bin/env bash
# build_fails.sh BUILD MODULE STATUS EXPECT_FILE - dgpb-build must fail on
# MODULE with exit STATUS and print the message in EXPECT_FILE (a grep -E
# pattern per line, all must match), write nothing new and leave a previous
# bundle of the same name untouched.
set -u
build=$1 module=$2 want=$3 expect=$4
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
stem=$(basename "$module" .slang)
printf 'previous bundle' > "$out/$stem.dgpb"
# A module may limit its targets with a "// dgpb-targets: LIST" line among its first five.
targets=$(sed -n '1,5s|^// dgpb-targets: *||p' "$module" | head -n 1)
# Headers of a fixture folder live in its include/ (dgpb-build -I).
# The module is given by a relative path, from the folder above its own, as a user
# gives one: messages name it so ("fail/m.slang(8): error ..."), never by an absolute path.
folder=$(basename "$(dirname "$module")")
cd "$(dirname "$module")/.." || exit 1
includes=()
[ -d "$folder/include" ] && includes=(-I "$folder/include")
output=$("$build" ${targets:+--targets "$targets"} "${includes[@]}" "$folder/$stem.slang" -o "$out" 2>&1); status=$?
printf '%s\n' "$output"
[ "$status" -eq "$want" ] || { echo "FAIL: expected exit status $want, got $status"; exit 1; }
while IFS= read -r pattern; do
    [ -z "$pattern" ] && continue
    printf '%s\n' "$output" | grep -Eq -- "$pattern" || { echo "FAIL: output lacks /$pattern/"; exit 1; }
done < "$expect"
[ "$(cat "$out/$stem.dgpb")" = "previous bundle" ] || { echo "FAIL: the previous bundle changed"; exit 1; }
extra=$(ls -A "$out" | grep -v "^$stem.dgpb\$")
[ -z "$extra" ] || { echo "FAIL: files left behind: $extra"; exit 1; }
echo "ok: failed as expected"
