#!/usr/bin/env bash
# build_crash.sh BUILD SLANGC MODULE - a compiler that crashes is reported as
# a crash: exit status 3, the stage (discovery, or the entry and target being
# compiled), how it died, and its last words; nothing is written. The compiler
# is a script run as a native slangc (--slangc) that passes every compile to
# the real SLANGC except the ones it is told to die on, with SIGSEGV, after
# printing a last line.
set -u
build=$1 slangc=$2 module=$3
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$work/slangc" <<SH
#!/usr/bin/env bash
# Dies on the compiles whose arguments hold \$CRASH_ON (a word), else runs slangc.
for a in "\$@"; do
    if [ "\$a" = "\$CRASH_ON" ]; then
        echo "fake slangc: about to fail on \$CRASH_ON" >&2
        kill -SEGV \$\$
    fi
done
exec "$slangc" "\$@"
SH
chmod +x "$work/slangc"
# run NAME CRASH_ON: a build with the fake compiler; its output in $work/NAME.err.
run() {
    local status=0
    CRASH_ON=$2 "$build" --no-cache --no-layouts --targets spirv --slangc "$work/slangc" \
        -o "$work/$1" "$module" >"$work/$1.err" 2>&1 || status=$?
    cat "$work/$1.err"
    [ "$status" = 3 ] || fail "$1: expected exit status 3, got $status"
    [ ! -e "$work/$1" ] || [ -z "$(ls -A "$work/$1")" ] || fail "$1: outputs written: $(ls "$work/$1")"
}
expect() { grep -Eq -- "$2" "$work/$1.err" || fail "$1: output lacks /$2/"; }

# The discovery compile has no -entry; every compile has -target.
run discovery -target
expect discovery "target 'spirv': the compiler crashed discovering the module's entry points \(killed by signal 11, Segmentation fault\); its last words:"
expect discovery "^fake slangc: about to fail on -target$"
# Discovery passes; the entry's compile (-entry) dies.
run entry -entry
expect entry "target 'spirv', entry 'computeMain': the compiler crashed compiling it \(killed by signal 11, Segmentation fault\); its last words:"
expect entry "^fake slangc: about to fail on -entry$"
# The same script that does not crash builds the module: the crash was the only difference.
CRASH_ON=never "$build" --no-cache --no-layouts --targets spirv --slangc "$work/slangc" \
    -o "$work/ok" "$module" >"$work/ok.err" 2>&1 || { cat "$work/ok.err"; fail "the fake compiler without a crash failed"; }
echo "ok: crashes in discovery and in an entry's compile reported with exit status 3"
