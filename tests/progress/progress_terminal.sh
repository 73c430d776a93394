#!/usr/bin/env bash
# progress_terminal.sh BUILD FIXTURES - dgpb-build's progress line: on a terminal
# (a pseudo-terminal from util-linux's script) one line rewritten with "\r" that
# reaches [N/N], keeps to the terminal's width and is cleared ("\r\033[K")
# before any other message; none when the cache answers the build, with -q,
# TERM=dumb, or standard error on a file or a pipe (no "\r" at all there). The
# builds bypass the user's cache. Exit 77 without script(1).
set -u
build=$1 fixtures=$2
command -v script >/dev/null || { echo "FAIL: script(1) is missing: install util-linux"; exit 1; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ESC=$'\033' CR=$'\r'

# Runs a shell command line on a pseudo-terminal; what it printed goes to $out/$1.
on_tty() { # name command...
    local name=$1
    shift
    TERM=${TERM_FOR_TEST:-xterm} script -qfec "$*" /dev/null >"$out/$name" 2>&1 </dev/null
}
q() { printf '%q' "$1"; }
plain=$(q "$fixtures/plain.slang")
b=$(q "$build")
spirv="--no-cache --no-layouts --targets spirv" # one target: a short build

on_tty tty "$b --no-cache --no-layouts --targets spirv,wgsl -j2 $plain -o $(q "$out/o-tty")" ||
    fail "build on a terminal: $(cat -v "$out/tty")"
grep -aqE "^${CR}\[0/[0-9]+\] [a-z]+ \((spirv|wgsl)\) [0-9]+\.[0-9]s${ESC}\[K" "$out/tty" ||
    fail "no [0/N] line first: $(cat -v "$out/tty")"
last=$(tr '\r' '\n' <"$out/tty" |
    sed -n "s/^\(\[\([0-9]*\)\/\2\] [^ ]* ([a-z]*) [0-9.]*s\)${ESC}\[K\$/\1/p" | tail -n 1)
[ -n "$last" ] || fail "the line never reached [N/N]: $(cat -v "$out/tty")"
grep -aq "${CR}${ESC}\[Kdgpb-build: wrote " "$out/tty" ||
    fail "the line was not cleared before the summary: $(cat -v "$out/tty")"
[ "$(grep -ac "dgpb-build: wrote" "$out/tty")" = 1 ] ||
    fail "not one summary: $(cat -v "$out/tty")"

# A narrow terminal: every line keeps to width - 1 columns.
on_tty narrow "stty cols 24; $b $spirv $plain -o $(q "$out/o-narrow")" ||
    fail "build on a narrow terminal: $(cat -v "$out/narrow")"
lines=$(tr '\r' '\n' <"$out/narrow" | sed -n "s/^\(\[[0-9]*\/[0-9]*\].*\)${ESC}\[K\$/\1/p")
[ -n "$lines" ] || fail "no progress on a narrow terminal: $(cat -v "$out/narrow")"
wide=$(printf '%s\n' "$lines" | awk 'length($0) > 23')
[ -z "$wide" ] || fail "lines wider than 23 columns: $wide"

# An error is printed on a line of its own.
on_tty error "$b $spirv $(q "$fixtures/fail/syntax_error.slang") -o $(q "$out/o-e")"
grep -aq "${CR}\[[0-9]*/[0-9]*\] " "$out/error" ||
    fail "no progress before the error: $(cat -v "$out/error")"
grep -aqE "${CR}${ESC}\[K[^${CR}]*syntax_error.slang[^${CR}]*error" "$out/error" ||
    fail "the line was not cleared before the error: $(cat -v "$out/error")"

# A build the cache answers runs no compile and shows no line (the tests run with
# DGPB_NO_CACHE=1).
for run in 1 2; do
    on_tty cached$run "env -u DGPB_NO_CACHE $b --cache-dir $(q "$out/cache") --no-layouts \
        --targets spirv $plain -o $(q "$out/o-c")" ||
        fail "cached build $run: $(cat -v "$out/cached$run")"
done
grep -aq '\[[0-9]*/[0-9]*\]' "$out/cached1" || fail "no progress filling the cache"
grep -aq '\[[0-9]*/[0-9]*\]' "$out/cached2" &&
    fail "progress from the cache: $(cat -v "$out/cached2")"
grep -aq "^dgpb-build: wrote .*0 compiles" "$out/cached2" || fail "no summary from the cache"

# None with -q, nor on a terminal that cannot rewrite a line.
on_tty quiet "$b -q $spirv $plain -o $(q "$out/o-q")" || fail "-q build"
[ ! -s "$out/quiet" ] || fail "-q printed: $(cat -v "$out/quiet")"
TERM_FOR_TEST=dumb on_tty dumb "$b $spirv $plain -o $(q "$out/o-d")" ||
    fail "TERM=dumb build"
grep -aq '\[[0-9]*/[0-9]*\]' "$out/dumb" && fail "progress on TERM=dumb: $(cat -v "$out/dumb")"
grep -aq "dgpb-build: wrote" "$out/dumb" || fail "no summary on TERM=dumb"

# Standard error on a file or a pipe: no carriage return, no escape, one summary line.
"$build" $spirv "$fixtures/plain.slang" -o "$out/o-f" 2>"$out/file" ||
    fail "build to a file: $(cat "$out/file")"
"$build" $spirv "$fixtures/plain.slang" -o "$out/o-p" 2>&1 >/dev/null |
    cat >"$out/pipe"
for f in file pipe; do
    grep -q "$CR" "$out/$f" && fail "a carriage return on a $f: $(cat -v "$out/$f")"
    grep -q "$ESC" "$out/$f" && fail "an escape sequence on a $f: $(cat -v "$out/$f")"
    [ "$(cat "$out/$f")" = "$(grep "^dgpb-build: wrote " "$out/$f")" ] ||
        fail "more than the summary on a $f: $(cat "$out/$f")"
done
cmp -s "$out/o-narrow/plain.dgpb" "$out/o-f/plain.dgpb" || fail "the bundle depends on the terminal"
echo "ok: $last"
