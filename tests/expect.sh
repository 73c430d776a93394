#!/usr/bin/env bash
# expect.sh - runs a command and checks its exit status and output.
#
#   expect.sh STATUS REGEX -- COMMAND...     exit status STATUS, and REGEX (grep -E)
#                                            found in stdout+stderr
#   expect.sh --same-as FILE -- COMMAND...   exit 0 and stdout equal to FILE, byte for byte
set -u
if [ "$1" = "--same-as" ]; then
    golden=$2; shift 3
    out=$(mktemp); trap 'rm -f "$out"' EXIT
    "$@" >"$out"; status=$?
    if [ $status -ne 0 ]; then echo "expected exit 0, got $status"; exit 1; fi
    if ! cmp -s "$golden" "$out"; then
        echo "output differs from $golden:"; diff -u "$golden" "$out" | head -50; exit 1
    fi
    exit 0
fi
want=$1 regex=$2; shift 3
output=$("$@" 2>&1); status=$?
printf '%s\n' "$output"
if [ "$status" -ne "$want" ]; then echo "FAIL: expected exit status $want, got $status"; exit 1; fi
if ! printf '%s\n' "$output" | grep -Eq -- "$regex"; then echo "FAIL: output lacks /$regex/"; exit 1; fi
exit 0
