#!/usr/bin/env bash
# reader_headers.sh SOURCE_DIR - a host that includes the reader library's headers gets
# nothing of the producer's.
#
# The reader library's public headers (the list below, as README.md's "The library" and
# docs/install.md give it) each compile alone (a file of `#include <dgpb/H>` only, as a host
# writes it, -Wall -Wextra -Werror -pedantic), as C11 and as C++11, and include no other
# header of include/dgpb/ than these: no dgpb/build.h, cache.h, compiler.h, service.h,
# layout_record.h or file_unit.h. README.md's snippet of a host loading a bundle (its first
# C block after "A host loads a bundle") compiles as it stands, its own includes only, as C11
# and as C++11. Fails naming the header and what it pulled in, or what the snippet lacks.
set -euo pipefail
src=${1:?usage: reader_headers.sh SOURCE_DIR}
reader=(alloc.h fileio.h format.h json_view.h layout.h reader.h result.h sha256.h vocabulary.def)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for h in "${reader[@]}"; do
    [ "$h" = vocabulary.def ] && continue
    [ -f "$src/include/dgpb/$h" ] || { echo "FAIL: include/dgpb/$h is gone"; failed=1; continue; }
    printf '#include <dgpb/%s>\n' "$h" >"$tmp/one.c"
    for lang in c c++; do
        std=c11
        [ $lang = c++ ] && std=c++11
        if ! out=$(gcc -x $lang -std=$std -Wall -Wextra -Werror -pedantic -fsyntax-only \
            -I "$src/include" "$tmp/one.c" 2>&1) ||
            ! deps=$(gcc -x $lang -std=$std -fsyntax-only -MM -I "$src/include" "$tmp/one.c" 2>&1); then
            echo "FAIL: dgpb/$h does not compile alone as $lang: $out${deps:-}"
            failed=1
            continue
        fi
        for d in $(tr -d '\\\n' <<<"$deps" | tr ' ' '\n' | grep '/include/dgpb/' || true); do
            name=$(basename "$d")
            case " ${reader[*]} " in
            *" $name "*) ;;
            *) echo "FAIL: dgpb/$h includes dgpb/$name, which is not the reader's"; failed=1 ;;
            esac
        done
    done
done
# README.md's reader snippet, as a host would paste it into a file of its own.
awk '/^A host loads a bundle/ { on = 1 } on && /^```c$/ { inside = 1; next }
     inside && /^```$/ { exit } inside { print }' "$src/README.md" >"$tmp/snippet.c"
if [ ! -s "$tmp/snippet.c" ]; then
    echo "FAIL: README.md has no C block after \"A host loads a bundle\""
    failed=1
else
    for lang in c c++; do
        std=c11
        [ $lang = c++ ] && std=c++11
        if ! out=$(gcc -x $lang -std=$std -Wall -Wextra -Werror -pedantic -c -o "$tmp/snippet.o" \
            -I "$src/include" "$tmp/snippet.c" 2>&1); then
            echo "FAIL: README.md's reader snippet does not compile as $lang with its own includes:"
            echo "$out" | head -20
            failed=1
        fi
    done
fi
[ $failed = 0 ] && echo "reader_headers: ${#reader[@]} headers of the reader library, none includes the producer's; README.md's reader snippet compiles"
exit $failed
