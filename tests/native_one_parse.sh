#!/usr/bin/env bash
# native_one_parse.sh DGPB_BUILD RECORDER SLANGC FIXTURES - one parse per module in builds on native
# workers (docs/layout.md, "One parse per module"), through a compile service of the test's
# own, as a build system's builds run:
#   - plain8 (bench/plain-module.sh 8: 8 compute entries sharing a helper), one worker:
#     every entry's compile comes from the module its discovery checked (--timings says
#     how many), and the bundle is the one
#     --compiler-processes writes (one slangc per compile, no sharing), byte for byte;
#   - a module whose entries sit in group blocks (fixtures/build/features.slang) shares
#     nothing and writes what processes write; a build with debug information shares
#     nothing (its code records its command line, which differs from a process's anyway:
#     native_project_options.sh);
#   - the recorder's --version probe runs in the first build (and in each service when it
#     starts); the next builds skip it (docs/service.md, "Folder and security", <name>.probed).
# SLANGC: the native Slang's slangc (for the one slangc per compile to compare with).
set -euo pipefail
build=$1 recorder=$(realpath "$2") slangc=$3 fixtures=$4
export DGPB_IGNORE_SETUP_SLANG=0 DGPB_NO_CACHE=1 DGPB_SERVICE=auto
tmp=$(mktemp -d)
export DGPB_SERVICE_DIR=$tmp/service
trap '"$build" --service-stop >/dev/null 2>&1 || true; [ -n "${KEEP:-}" ] && cp -r "$tmp" /tmp/kept; rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# A recorder that logs how it is run, so that the probe can be counted.
cat >"$tmp/recorder" <<EOF
#!/bin/sh
# who ran it (a build, or a service: --service-daemon), then how
printf '%s| %s\n' "\$(tr '\\0' ' ' </proc/\$PPID/cmdline | cut -c1-300)" "\$*" >>"$tmp/recorder.log"
exec "$recorder" "\$@"
EOF
chmod +x "$tmp/recorder"
run() { "$build" --slangc "$slangc" --layout-recorder "$tmp/recorder" -DSCALE=1.0 "$@"; }

"$(dirname "$0")/../bench/plain-module.sh" 8 >"$tmp/plain8.slang"
# checked_of LOG: "N of M" from the --timings line, "none" when it says nothing of it.
checked_of() {
    local c
    c=$(sed -n 's/.*; \([0-9]* of [0-9]*\) compiles from a module a worker had checked.*/\1/p' "$1")
    echo "${c:-none}"
}
# same MODULE [OPTIONS...]: the bundle of the last build in $tmp/w equals --compiler-processes'.
same() {
    local module=$1 stem
    shift
    stem=$(basename "$module" .slang)
    "$build" -q --slangc "$slangc" --compiler-processes -DSCALE=1.0 "$@" "$module" -o "$tmp/p"
    cmp -s "$tmp/w/$stem.dgpb" "$tmp/p/$stem.dgpb" && cmp -s "$tmp/w/$stem.bundle.json" "$tmp/p/$stem.bundle.json"
}

# The first build starts the service (its discovery may run here meanwhile): the counts are
# the next builds', on its warm worker.
run -q -j1 --targets spirv "$tmp/plain8.slang" -o "$tmp/w"
run --timings -j1 --targets spirv "$tmp/plain8.slang" -o "$tmp/w" >"$tmp/one.log" 2>&1 ||
    { cat "$tmp/one.log"; exit 1; }
c=$(checked_of "$tmp/one.log")
[ "$c" = "8 of 9" ] && ok "plain8: $c compiles from the module its discovery checked" ||
    bad "plain8: $c compiles from a checked module, expected 8 of 9: $(cat "$tmp/one.log")"
same "$tmp/plain8.slang" --targets spirv && ok "plain8: the bundle one slangc per compile writes" ||
    bad "plain8: the bundle differs from --compiler-processes'"
ls "$DGPB_SERVICE_DIR"/*.probed >/dev/null 2>&1 && ok "the probe's pass is remembered" ||
    bad "no <name>.probed in $DGPB_SERVICE_DIR: $(ls "$DGPB_SERVICE_DIR")"

run --timings -j1 --targets spirv,wgsl "$tmp/plain8.slang" -o "$tmp/w" >"$tmp/two.log" 2>&1 ||
    { cat "$tmp/two.log"; exit 1; }
c=$(checked_of "$tmp/two.log")
[ "$c" = "15 of 18" ] && ok "plain8 for spirv and wgsl: $c compiles from a checked module" ||
    bad "plain8 for spirv and wgsl: $c compiles from a checked module, expected 15 of 18 (the wgsl code's first compile is kept for the others): $(cat "$tmp/two.log")"
same "$tmp/plain8.slang" --targets spirv,wgsl && ok "plain8 for spirv and wgsl: the bundle processes write" ||
    bad "plain8 for spirv and wgsl: the bundle differs from --compiler-processes'"

run --timings -j1 --targets spirv "$fixtures/build/features.slang" -o "$tmp/w" >"$tmp/groups.log" 2>&1 ||
    { cat "$tmp/groups.log"; exit 1; }
c=$(checked_of "$tmp/groups.log")
[ "$c" = none ] && ok "a module of group blocks shares nothing" ||
    bad "a module of group blocks: $c compiles from a checked module"
same "$fixtures/build/features.slang" --targets spirv && ok "a module of group blocks: the bundle processes write" ||
    bad "a module of group blocks: the bundle differs from --compiler-processes'"

run --timings -j1 --targets spirv --debug-info 2 "$tmp/plain8.slang" -o "$tmp/w" >"$tmp/g.log" 2>&1 ||
    { cat "$tmp/g.log"; exit 1; }
c=$(checked_of "$tmp/g.log")
[ "$c" = none ] && ok "debug information shares nothing" ||
    bad "debug information: $c compiles from a checked module"

# The builds' probes: the first build's only (a service probes once when it starts).
probes=$(grep -- '--version$' "$tmp/recorder.log" | grep -vc -- '--service-daemon' || true)
[ "$probes" = 1 ] && ok "the recorder's probe ran in the first of five builds only" ||
    bad "the builds ran the recorder's probe $probes times: $(cat "$tmp/recorder.log")"
exit $fail
