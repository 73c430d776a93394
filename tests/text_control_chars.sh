#!/usr/bin/env bash
# text_control_chars.sh DUMP RUN GOLDEN - names with control characters never reach a
# terminal raw: a bundle that passes the reader with ESC, CR, LF, DEL and BEL in a
# parameter name (the golden bundle with "transform" rewritten in place), in a file
# whose name holds ESC, is listed by dgpb-dump (listing, --verify, --diff) and
# dgpb-run --list with those bytes escaped (\x1b, \r, \n, \x7f, \x07), as the JSON
# view escapes them; no line forged by the name ("OK: ...") appears.
set -u
dump=$1 run=$2 golden=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

bundle="$work/evil$(printf '\033')[2J.dgpb"
python3 - "$golden" "$bundle" <<'PY' || fail "python3 is needed (Debian: python3)"
import sys
b = open(sys.argv[1], 'rb').read()
assert b.count(b'transform') > 0
open(sys.argv[2], 'wb').write(b.replace(b'transform', b't\x1b\r\nOK:\x7f\x07'))
PY
# --verify reads it, then refuses the golden's hand-written tables against its code (exit 1).
"$dump" --verify "$bundle" >"$work/verify" 2>&1
[ $? = 1 ] && grep -q "is a value row, but the code declares" "$work/verify" ||
    fail "--verify did not prove the crafted bundle's tables: $(cat -A "$work/verify")"

check() { # check NAME FILE: no control byte but LF, the escaped name present, no forged line
    if LC_ALL=C grep -q '[[:cntrl:]]' <(tr -d '\n' <"$2"); then
        fail "$1: a raw control byte reached the output: $(cat -A "$2" | head -20)"
    fi
    grep -q '^OK:' "$2" && fail "$1: the name forged a line: $(cat -A "$2" | head -20)"
    grep -qF "${3:-t\\x1b\\r\\nOK:\\x7f\\x07}" "$2" || fail "$1: the escaped name is missing: $(cat -A "$2" | head -20)"
}
check "dgpb-dump --verify" "$work/verify" '/evil\x1b[2J.dgpb: error: '
"$dump" "$bundle" >"$work/listing" 2>&1 || fail "dgpb-dump failed: $(cat -A "$work/listing")"
check "dgpb-dump" "$work/listing"
grep -qF 'evil\x1b[2J.dgpb: DGPB v0' "$work/listing" || fail "dgpb-dump: the file name: $(head -1 "$work/listing" | cat -A)"
"$dump" --diff "$golden" "$bundle" >"$work/diff" 2>&1
[ $? = 1 ] || fail "dgpb-dump --diff: not 'different': $(cat -A "$work/diff")"
check "dgpb-dump --diff" "$work/diff"
"$run" --list --api vulkan "$bundle" >"$work/list" 2>&1 || fail "dgpb-run --list failed: $(cat -A "$work/list")"
check "dgpb-run --list" "$work/list"
# A diagnostic that names the file escapes it too.
printf 'not a bundle' >"$bundle"
"$dump" "$bundle" >"$work/bad" 2>&1 && fail "a broken bundle was listed"
check "dgpb-dump's error" "$work/bad" 'evil\x1b[2J.dgpb'
echo "ok: control characters in names and paths are escaped in text output"
