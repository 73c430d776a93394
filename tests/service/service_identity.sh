#!/usr/bin/env bash
# service_identity.sh DGPB-BUILD SOURCE_DIR - one compile service per
# compiler identity: a build whose compiler's files changed (a new
# modification time) reaches a new service on another socket, never the old
# one, and so does a rebuilt dgpb-build; the old service idles out. The
# environment counts, all of it less a short list (docs/service.md). The test
# works on copies: dgpb-build and its embedded compiler's script copied into
# the test's folder (the script's lib/, node_modules/ and package.json
# linked to the real ones), so that touching them changes nothing else.
source "$(dirname "$0")/service_lib.sh"
source_dir=$2
mkdir -p "$work/bin" "$work/src/tools/slangc-wasm"
cp "$build" "$work/bin/dgpb-build"
echo "$work/src" > "$work/bin/dgpb-source-dir" # the embedded compiler of this "source tree"
real=$source_dir/tools/slangc-wasm
cp "$real/slangc-wasm" "$work/src/tools/slangc-wasm/slangc-wasm"
for f in lib node_modules package.json; do ln -s "$real/$f" "$work/src/tools/slangc-wasm/$f"; done
build=$work/bin/dgpb-build
cp "$source_dir/fixtures/build/plain.slang" "$work/plain.slang"
reference "$work/plain.slang" "$work/ref"
"$build" --version | grep -q "^slang .*: $work/src/tools/slangc-wasm/slangc-wasm (embedded slangc-wasm)$" ||
    fail "the copy does not run its copied embedded compiler: $("$build" --version)"

# through BUILD-NAME: a build through the service; prints the service's pid and socket.
through() {
    build_with "$work/$1.log" -v "$work/plain.slang" -o "$work/$1" || fail "$1: $(cat "$work/$1.log")"
    same "$work/$1" "$work/ref" plain
    [ "$(warnings "$work/$1.log")" = 0 ] || fail "$1: a warning: $(cat "$work/$1.log")"
    grep -q "compiles: through the compile service (pid $(service_pid)," "$work/$1.log" ||
        fail "$1: not through the running service: $(grep compiles: "$work/$1.log")"
}

through first
pid1=$(service_pid)
sock1=$(socket_path)

# The compiler's script gets a new modification time: a new identity, a new service.
touch -d '+1 minute' "$work/src/tools/slangc-wasm/slangc-wasm"
sock2=$(socket_path)
[ "$sock2" != "$sock1" ] || fail "touching the compiler kept the socket $sock1"
"$build" --version | grep -q "^compile service: not running ($sock2)$" ||
    fail "the old service answers for the touched compiler: $("$build" --version | tail -1)"
through second
pid2=$(service_pid)
[ "$pid2" != "$pid1" ] || fail "the touched compiler's build went to the old service $pid1"
kill -0 "$pid1" 2>/dev/null || fail "the old service $pid1 ended (it should idle out)"
echo "ok: a touched compiler reaches a new service ($pid2 on $sock2), not the old one ($pid1)"

# A rebuilt dgpb-build (here: touched) reaches a new service too.
touch -d '+2 minutes' "$build"
sock3=$(socket_path)
[ "$sock3" != "$sock2" ] && [ "$sock3" != "$sock1" ] || fail "touching dgpb-build kept the socket"
through third
pid3=$(service_pid)
[ "$pid3" != "$pid2" ] && [ "$pid3" != "$pid1" ] || fail "the touched dgpb-build's build reached an old service"
echo "ok: a touched dgpb-build reaches a new service ($pid3 on $sock3)"

# The whole environment is part of the identity (PATH, any other variable, the temporary
# folder), less the variables that differ between runs of one build system.
sock4=$(PATH="$PATH:/nonexistent" socket_path)
[ "$sock4" != "$sock3" ] || fail "another PATH kept the socket"
sock5=$(TMPDIR=/var/tmp socket_path)
[ "$sock5" != "$sock3" ] || fail "another TMPDIR kept the socket (the client's temporary folder is the jobs')"
sock6=$(DGPB_TEST_ANY_VARIABLE=1 socket_path)
[ "$sock6" != "$sock3" ] || fail "another variable kept the socket"
sock7=$(cd / && PWD=/ OLDPWD=/x SHLVL=9 MAKEFLAGS=" -j4 --jobserver-auth=fifo:/tmp/x" MAKELEVEL=2 \
    TERM=dumb COLUMNS=33 DGPB_SERVICE_TIMEOUT_MS=1234 DGPB_NO_CACHE=0 socket_path)
[ "$sock7" = "$sock3" ] || fail "a variable left out of the identity changed the socket"
echo "ok: one compile service per compiler identity"
