#!/usr/bin/env bash
# reader_headers.sh SOURCE_DIR - a host that includes the reader library's headers gets
# nothing of the producer's.
#
# The reader library's public headers (the list below, as README.md's "The library" and
# docs/install.md give it) each compile alone, as C11 and as C++11, and include no other
# header of include/dgpb/ than these: no dgpb/build.h, cache.h, compiler.h, service.h,
# layout_record.h or file_unit.h. Fails naming the header and what it pulled in.
set -euo pipefail
src=${1:?usage: reader_headers.sh SOURCE_DIR}
reader=(alloc.h fileio.h format.h json_view.h layout.h reader.h result.h sha256.h vocabulary.def)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for h in "${reader[@]}"; do
    [ "$h" = vocabulary.def ] && continue
    [ -f "$src/include/dgpb/$h" ] || { echo "FAIL: include/dgpb/$h is gone"; failed=1; continue; }
    printf '#include "dgpb/%s"\n' "$h" >"$tmp/one.c"
    for lang in c c++; do
        std=c11
        [ $lang = c++ ] && std=c++11
        if ! deps=$(gcc -x $lang -std=$std -fsyntax-only -MM -I "$src/include" "$tmp/one.c" 2>&1); then
            echo "FAIL: dgpb/$h does not compile alone as $lang: $deps"
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
[ $failed = 0 ] && echo "reader_headers: ${#reader[@]} headers of the reader library, none includes the producer's"
exit $failed
