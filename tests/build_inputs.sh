#!/usr/bin/env bash
# build_inputs.sh BUILD FIXTURES - dgpb-build's inputs bounded (docs/build.md,
# "Parameter files", "Exit status"):
#  * @FILE is a regular file only: /dev/stdin on a pipe, a FIFO with no
#    writer, /dev/zero and a folder are usage errors (exit 2) naming the file
#    and what it is, never a read that blocks or has no end; a symbolic link
#    to a regular file is read;
#  * a parameter file over 64 MiB is refused from its size (exit 2), unread;
#  * numbers strictly parsed: -j and --cache-max-size take decimal digits
#    only ('+4', ' 4', '4x', '+1G', ' 1G' are usage errors, never read as 4);
#  * a full TMPDIR (a 4 KiB and a 16 KiB tmpfs, mounted in a mount namespace
#    of its own: run as root, as CI does) is exit status 3 naming the
#    intermediate folder, not the module's failure (exit 1), nothing written.
set -u
build=$(realpath "$1") fixtures=$(realpath "$2")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
cp "$fixtures/plain.slang" .
B() { "$build" --no-cache --service off --no-layouts --targets spirv "$@"; }

# A guard against a read that never ends (not a measure of speed): 60 s.
refused() { # NAME KIND: @NAME is exit 2, "is not a regular file (KIND)"
    local s
    timeout 60 "$build" --no-cache --service off @"$1" plain.slang > out.txt 2>&1 < /dev/null; s=$?
    [ $s -eq 2 ] && grep -qF "parameter file '$1' is not a regular file ($2)" out.txt ||
        fail "@$1: exit $s (124: it blocked), not 2 with 'is not a regular file ($2)': $(head -c 600 out.txt)"
}
mkfifo params.fifo && mkdir params.dir || fail "cannot make a FIFO and a folder in $work"
# /dev/stdin a pipe, as Bazel's worker's standard input is.
s=0; printf -- '-o\nbad\n' | timeout 60 "$build" --no-cache --service off @/dev/stdin plain.slang > out.txt 2>&1 || s=$?
[ $s -eq 2 ] && grep -qF "parameter file '/dev/stdin' is not a regular file (a FIFO or pipe)" out.txt ||
    fail "@/dev/stdin on a pipe: exit $s: $(head -c 600 out.txt)"
refused params.fifo "a FIFO or pipe"
refused /dev/zero "a character device"
refused params.dir "a folder"
[ ! -e bad ] && [ ! -e plain.dgpb ] || fail "a refused parameter file let a build write"
printf -- '-q\n-o\nlinked\n' > real.params && ln -s real.params link.params
B @link.params plain.slang > out.txt 2>&1 && [ -f linked/plain.dgpb ] ||
    fail "a link to a regular parameter file: $(cat out.txt)"
echo "ok: @FILE of /dev/stdin, a FIFO, /dev/zero, a folder: exit 2, never read; a link to a file read"

truncate -s 65M huge.params || fail "truncate (coreutils) is needed"
s=0; timeout 60 "$build" @huge.params plain.slang > out.txt 2>&1 || s=$?
[ $s -eq 2 ] && grep -qF "parameter file 'huge.params' is larger than 64 MiB" out.txt ||
    fail "a 65 MiB parameter file: exit $s: $(cat out.txt)"
echo "ok: a parameter file over 64 MiB: exit 2"

for arg in "-j=+4" "-j= 4" "-j=4x" "-j=0" "--cache-max-size=+1G" "--cache-max-size= 1G" \
    "--cache-max-size= -1" "--cache-max-size=1Gx"; do
    opt=${arg%%=*} value=${arg#*=} s=0
    "$build" --service off "$opt" "$value" --version > out.txt 2>&1 || s=$?
    [ $s -eq 2 ] && grep -q "error: $opt needs" out.txt || fail "$opt '$value': exit $s, not 2: $(cat out.txt)"
done
"$build" --service off -j 4 --cache-max-size 1G --version > out.txt 2>&1 || fail "-j 4 --cache-max-size 1G: $(cat out.txt)"
echo "ok: -j and --cache-max-size: decimal digits only, no sign, space or trailing text"

# A full TMPDIR: a tmpfs of 4 KiB (the discovery's outputs do not fit) and of 16 KiB (an
# entry's do not), each in a mount namespace of its own, so nothing is left mounted.
command -v unshare > /dev/null || fail "unshare is missing: install util-linux"
[ "$(id -u)" = 0 ] || fail "a full TMPDIR is tested on a tmpfs mounted in a mount namespace: run as root"
mkdir tiny
for size in 4k 16k; do
    s=0
    unshare -m sh -c 'mount -t tmpfs -o size="$1" tmpfs "$2" || exit 99
        shift 2; TMPDIR="$PWD/tiny" "$@"' sh "$size" "$work/tiny" \
        "$build" --no-cache --service off --no-layouts --targets spirv -o "full-$size" plain.slang \
        > out.txt 2>&1 || s=$?
    [ $s -ne 99 ] || fail "cannot mount a tmpfs in a mount namespace (unshare -m, as root): $(cat out.txt)"
    [ $s -eq 3 ] || fail "a full TMPDIR ($size): exit $s, not 3: $(cat out.txt)"
    grep -q "error: no space left in the intermediate folder '$work/tiny/dgpb-build-[A-Za-z0-9]*' (No space left on device)" out.txt ||
        fail "a full TMPDIR ($size): the message does not name the folder: $(cat out.txt)"
    ! grep -q "does not compile\|compile failed" out.txt ||
        fail "a full TMPDIR ($size) blamed the module: $(cat out.txt)"
    [ ! -e "full-$size/plain.dgpb" ] || fail "a full TMPDIR ($size): a bundle was written"
done
[ -z "$(ls -A tiny)" ] || fail "the tmpfs stayed mounted or left files: $(ls -A tiny)"
echo "ok: a full TMPDIR (4 KiB, 16 KiB): exit 3 naming the intermediate folder, nothing written"
