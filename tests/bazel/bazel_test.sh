#!/usr/bin/env bash
# bazel_test.sh BUILD_DIR WORK - the dgpb_bundle rule (bazel/, docs/bazel.md)
# with Debian's Bazel (bazel-bootstrap), offline, on a copy of the example
# workspace examples/bazel: four bundles, two of which include one header,
# one imports a library module, one is in the generator's conventions.
#
#  1. BUILD_DIR installed into WORK/prefix; the workspace's @dgpb_rules is
#     that prefix's share/dgpb/bazel, and @dgpb the prefix.
#  2. A cold build runs the four actions on persistent workers (dgpb-build
#     --persistent_worker, JSON, sandboxed: the example's .bazelrc); the
#     bundles and views are byte for byte what the installed dgpb-build writes
#     when run by hand (blur's C header too: header = True), and hold no path of the workspace, the output base or
#     the sandbox. The actions' environment is PATH (Node.js's folder first)
#     and DGPB_SERVICE=off.
#  3. The same build again runs no action (the execution log is empty).
#     One action run as a remote executor runs it (tests/bazel/executor.py),
#     a process reading its parameter file (@FILE): its declared inputs
#     copied as plain files into a folder of their own,
#     its command line run there with its environment alone, the prefix
#     moved away meanwhile: the same bytes.
#  4. A second copy of the workspace, in another folder, with another output
#     base and the first one's --disk_cache: every action comes from the
#     cache, with the same bytes.
#  5. An edit to the module that one bundle imports rebuilds that bundle only;
#     an edit to the header that two include rebuilds those two; both on the
#     workers the cold build started.
#     Both undone: those three bundles come from the disk cache.
#  6. Misuse fails with a message naming the cause: a target named other than
#     its bundle's stem; an include the rule was not told of (the sandbox
#     hides it); a dgpb_installation of a folder that holds no dgpb. The root
#     module (an empty module path) builds main.dgpb.
#  7. The same as 4 through a remote cache: nginx with its WebDAV module on
#     loopback (tests/remote/servers.sh); a first output base fills it,
#     running the actions as sandboxed processes instead of workers (the same
#     bytes; its PUTs in nginx's log), a second gets every action from it.
#
# Each output base is a Bazel server of its own under WORK, stopped at the
# end. Bazel reads no rc file but the workspace's, downloads nothing and keeps
# nothing outside WORK.
set -euo pipefail
build=$(cd "${1:?usage: bazel_test.sh BUILD_DIR WORK}" && pwd)
work=${2:?usage: bazel_test.sh BUILD_DIR WORK}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
fail() {
    echo "bazel_test: FAIL: $*" >&2
    exit 1
}
step() { echo "bazel_test: $*"; }

command -v bazel >/dev/null ||
    fail "bazel is missing: apt-get install bazel-bootstrap (or run sudo tools/setup.sh)"
command -v nginx >/dev/null || fail "nginx is missing: apt-get install nginx (or run sudo tools/setup.sh)"
command -v node >/dev/null || fail "node is missing (tools/setup.sh)"
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
export HOME=$work/home
mkdir -p "$HOME"
unset DGPB_SLANGC SLANG_ROOT DGPB_CACHE_DIR DGPB_CACHE_REMOTE DGPB_NO_CACHE

# Debian's Bazel is a launcher over an install base it names in its system
# rc file (/etc/bazel/bazelrc: --install_base=/usr/share/bazel); the test
# reads that file's startup options only, never its build options.
startup=()
if [ -r /etc/bazel/bazelrc ]; then
    read -r -a startup <<<"$(sed -n 's/^startup  *//p' /etc/bazel/bazelrc | tr '\n' ' ')"
fi
roots=()
# bz WORKSPACE ROOT COMMAND [ARG...]: Bazel in WORKSPACE with the output user
# root WORK/ROOT (an output base, and a server, of its own).
bz() {
    local ws=$1 root=$2
    shift 2
    case " ${roots[*]} " in *" $ws:$root "*) ;; *) roots+=("$ws:$root") ;; esac
    (cd "$ws" && bazel --nosystem_rc --nohome_rc "${startup[@]}" --output_user_root="$work/$root" \
        --max_idle_secs=600 --host_jvm_args=-Xmx1g "$@")
}
# shellcheck disable=SC2034 # read by servers.sh
SRV=$work/srv
# shellcheck disable=SC2034
HERE=$src/tests/remote
# shellcheck source-path=SCRIPTDIR source=../remote/servers.sh
. "$src/tests/remote/servers.sh"
cleanup() {
    local r
    for r in "${roots[@]}"; do bz "${r%%:*}" "${r#*:}" shutdown >/dev/null 2>&1 || true; done
    stop_servers
}
trap cleanup EXIT
trap "exit 1" TERM INT HUP

# 1. The installation and two copies of the example workspace.
step "cmake --install $build --prefix $work/prefix"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log" 2>&1 ||
    fail "cmake --install failed: $(cat "$work/install.log")"
[ -f "$work/prefix/share/dgpb/bazel/defs.bzl" ] || fail "the Bazel rules were not installed"
for ws in ws1 ws2; do
    cp -r "$src/examples/bazel" "$work/$ws"
    # The example names /opt/dgpb; the test's prefix instead, as a user would.
    echo "build --override_repository=dgpb_rules=$work/prefix/share/dgpb/bazel" >>"$work/$ws/.bazelrc"
done
bundles=(blur fx_particles sharpen tint)
# build WS ROOT NAME [ARG...]: `bazel build //shaders:bundles`, its output in
# WORK/NAME.out and its execution log's DgpbBundle spawns in WORK/NAME.spawns.
build() {
    local ws=$1 root=$2 name=$3
    shift 3
    bz "$work/$ws" "$root" build --execution_log_json_file="$work/$name.log" "$@" //shaders:bundles \
        >"$work/$name.out" 2>&1 || fail "bazel build ($name) failed: $(cat "$work/$name.out")"
    python3 "$here/spawns.py" "$work/$name.log" >"$work/$name.spawns" ||
        fail "$name: the execution log cannot be read"
}
# expect NAME LINES: the spawns of build NAME are exactly LINES (how, bundle,
# runner: worker, sandbox for a process in any of Bazel's sandboxes, cache).
expect() {
    local got
    got=$(awk '{ r = $3; if (r ~ /sandbox/) r = "sandbox"; if ($1 == "cache") r = "cache";
                 print $1, $2, r }' "$work/$1.spawns")
    [ "$got" = "$2" ] || fail "$1: the bundle actions were
${got:-(none)}
instead of
${2:-(none)}
(Bazel said: $(grep -E '^(INFO|ERROR|WARNING):' "$work/$1.out" | tail -n 5))"
}
all() { # HOW RUNNER: each bundle with HOW and RUNNER
    local b
    for b in "${bundles[@]}"; do echo "$1 $b.dgpb $2"; done
}
# same_bytes DIR_A DIR_B: every bundle and view of A equals B's.
same_bytes() {
    local b f
    for b in "${bundles[@]}"; do
        for f in "$b.dgpb" "$b.bundle.json"; do
            cmp -s "$1/$f" "$2/$f" || fail "$1/$f differs from $2/$f"
        done
    done
}
out1=$work/ws1/bazel-bin/shaders
out2=$work/ws2/bazel-bin/shaders

# 2. Cold.
step "cold build in ws1 (disk cache $work/disk)"
disk=(--disk_cache="$work/disk")
build ws1 root1 cold "${disk[@]}"
expect cold "$(all ran worker)"
workers() { find "$(bz "$work/ws1" root1 info output_base 2>/dev/null)/bazel-workers" -name '*.log' | wc -l; }
started=$(workers)
[ "$started" -ge 1 ] || fail "the cold build started no persistent worker"
grep -q '^INFO: Elapsed time' "$work/cold.out" && step "  $(grep '^INFO: Elapsed time' "$work/cold.out")"
mkdir -p "$work/plain"
(
    cd "$src/examples/bazel/shaders"
    p=$work/prefix/bin/dgpb-build
    common=(-q --no-cache --targets "spirv,wgsl" -o "$work/plain")
    "$p" "${common[@]}" -D RADIUS=2 -I include --emit-header blur.slang
    "$p" "${common[@]}" -I include --spirv-version 1.5 sharpen.slang
    "$p" "${common[@]}" -I include tint.slang
    "$p" "${common[@]}" --module-path fx.particles particles.slang
) >"$work/plain.log" 2>&1 || fail "the installed dgpb-build failed by hand: $(cat "$work/plain.log")"
same_bytes "$out1" "$work/plain"
# blur's header = True: its C header, as dgpb-build --emit-header writes it.
cmp -s "$out1/blur.h" "$work/plain/blur.h" || fail "$out1/blur.h differs from $work/plain/blur.h"
for b in "${bundles[@]}"; do
    for f in "$out1/$b.dgpb" "$out1/$b.bundle.json"; do
        if grep -aqF -e "$work" -e execroot -e sandbox -e bazel-out -e external/dgpb "$f"; then
            fail "$f holds a path: $(grep -aoF -m1 -e "$work" -e execroot -e sandbox -e bazel-out -e external/dgpb "$f")"
        fi
    done
done
# The environment: PATH (Node.js's folder) and no compile service, nothing else.
python3 "$here/spawns.py" --env "$work/cold.log" >"$work/cold.env"
node_dir=$(dirname "$(command -v node)")
if [ "$(sed 's/^PATH=.*/PATH/' "$work/cold.env")" != "DGPB_SERVICE=off
PATH" ] || ! grep -q "^PATH=${node_dir}:" "$work/cold.env"; then
    fail "the actions' environment is not DGPB_SERVICE=off and a PATH of $node_dir first: $(cat "$work/cold.env")"
fi
grep -q '"asset":[[:space:]]*"gpu_shaders.fx_particles"' "$out1/fx_particles.bundle.json" ||
    fail "fx_particles.bundle.json does not name the asset gpu_shaders.fx_particles"
# sharpen's spirv_version = "1.5": a project option, recorded in its bundle.
grep -q '"spirv_version":[[:space:]]*"1.5"' "$out1/sharpen.bundle.json" ||
    fail "sharpen.bundle.json does not record spirv_version 1.5"

# 3. No-op.
step "the same build again: no action"
build ws1 root1 noop "${disk[@]}"
expect noop ""

# As a remote executor runs it: no sandbox links into the prefix, only copies.
step "blur's action as a remote executor runs it: its inputs copied, the prefix moved away"
execroot=$(bz "$work/ws1" root1 info execution_root 2>/dev/null) || fail "bazel info execution_root failed"
python3 "$here/executor.py" stage "$work/cold.log" blur.dgpb "$execroot" "$work/executor" ||
    fail "blur's inputs cannot be staged from $execroot"
mv "$work/prefix" "$work/prefix.away"
rc=0
python3 "$here/executor.py" run "$work/executor" >"$work/executor.out" 2>&1 || rc=$?
mv "$work/prefix.away" "$work/prefix"
[ $rc = 0 ] || fail "blur's action failed in the executor's folder ($rc): $(cat "$work/executor.out")"
for f in blur.dgpb blur.bundle.json; do
    made=$(find "$work/executor/bazel-out" -path "*/bin/shaders/$f")
    [ -n "$made" ] || fail "the executor's folder has no $f"
    cmp -s "$made" "$out1/$f" ||
        fail "$f from the executor's folder differs from Bazel's"
done

# 4. Another folder, another output base, the same disk cache.
step "ws2 with another output base and the disk cache: every action from the cache"
build ws2 root2 disk_hit "${disk[@]}"
expect disk_hit "$(all cache cache)"
same_bytes "$out2" "$out1"
bz "$work/ws2" root2 shutdown >/dev/null 2>&1 || true

# 5. Edits: the imported module of one bundle, then the header of two.
step "an edit to include/palette.slang (imported by tint only)"
cp "$out1/tint.dgpb" "$work/tint.before"
sed -i 's/0\.5);/0.25);/' "$work/ws1/shaders/include/palette.slang"
grep -q '0\.25);' "$work/ws1/shaders/include/palette.slang" || fail "the edit to palette.slang did not take"
build ws1 root1 edit_import "${disk[@]}"
expect edit_import "ran tint.dgpb worker"
! cmp -s "$out1/tint.dgpb" "$work/tint.before" || fail "tint.dgpb is the same after its import changed"
step "an edit to include/filter.slangh (included by blur and sharpen)"
sed -i 's|return 1.0 / float(2 \* RADIUS + 1);|return 2.0 / float(4 * RADIUS + 2);|' \
    "$work/ws1/shaders/include/filter.slangh"
grep -q 'return 2.0' "$work/ws1/shaders/include/filter.slangh" || fail "the edit to filter.slangh did not take"
build ws1 root1 edit_include "${disk[@]}"
expect edit_include "ran blur.dgpb worker
ran sharpen.dgpb worker"
[ "$(workers)" = "$started" ] ||
    fail "the edits started workers of their own ($(workers) worker logs, $started after the cold build)"
step "both edits undone: every bundle from the disk cache again"
cp "$src/examples/bazel/shaders/include/palette.slang" "$src/examples/bazel/shaders/include/filter.slangh" \
    "$work/ws1/shaders/include/"
build ws1 root1 undone "${disk[@]}"
expect undone "cache blur.dgpb cache
cache sharpen.dgpb cache
cache tint.dgpb cache"
same_bytes "$out1" "$work/plain"

# 6. Misuse, in ws1's server.
step "misuse: a target not named after its bundle's stem; an undeclared include; no installation; project options"
mkdir -p "$work/ws1/bad"
cp "$src/examples/bazel/shaders/blur.slang" "$src/examples/bazel/shaders/include/filter.slangh" "$work/ws1/bad/"
cat >"$work/ws1/bad/BUILD.bazel" <<'EOF'
load("@dgpb_rules//:defs.bzl", "dgpb_bundle")

dgpb_bundle(name = "blurred", module = "blur.slang", srcs = ["filter.slangh"])

dgpb_bundle(name = "blur", module = "blur.slang", targets = ["spirv"])
EOF
if bz "$work/ws1" root1 build //bad:blurred >"$work/bad_name.out" 2>&1; then
    fail "a dgpb_bundle named 'blurred' for blur.slang was built"
fi
grep -q "module path 'blur' as blur.dgpb: name the target 'blur'" "$work/bad_name.out" ||
    fail "no message naming the stem: $(grep ERROR "$work/bad_name.out")"
if bz "$work/ws1" root1 build //bad:blur >"$work/bad_src.out" 2>&1; then
    fail "blur.slang was built although filter.slangh is not among its srcs"
fi
grep -q 'filter.slangh' "$work/bad_src.out" ||
    fail "the failure does not name the missing include: $(grep -v '^INFO' "$work/bad_src.out" | head -20)"
cat >>"$work/ws1/WORKSPACE" <<EOF

dgpb_installation(name = "dgpb_nowhere", prefix = "$work/nowhere")
EOF
cat >>"$work/ws1/bad/BUILD.bazel" <<'EOF'

dgpb_bundle(name = "filter", module = "blur.slang", module_path = "filter", dgpb = "@dgpb_nowhere//:dgpb")
EOF
if bz "$work/ws1" root1 build //bad:filter >"$work/bad_prefix.out" 2>&1; then
    fail "a dgpb_installation of a prefix that does not exist was fetched"
fi
grep -q "dgpb_installation: no bin/dgpb-build under '$work/nowhere' (install dgpb there" "$work/bad_prefix.out" ||
    fail "no message naming the missing installation: $(grep -A3 ERROR "$work/bad_prefix.out")"
# The project options are the rule's attributes: a value outside them fails the package's
# loading (a package of its own), a project option in opts is refused, and the embedded
# compiler's refusal of --matrix-layout column reaches the user.
mkdir -p "$work/ws1/bad_layout" "$work/ws1/bad_options"
cp "$work/ws1/bad/blur.slang" "$work/ws1/bad/filter.slangh" "$work/ws1/bad_layout/"
cp "$work/ws1/bad/blur.slang" "$work/ws1/bad/filter.slangh" "$work/ws1/bad_options/"
cat >"$work/ws1/bad_layout/BUILD.bazel" <<'EOF'
load("@dgpb_rules//:defs.bzl", "dgpb_bundle")

dgpb_bundle(name = "blur", module = "blur.slang", srcs = ["filter.slangh"], matrix_layout = "diagonal")
EOF
cat >"$work/ws1/bad_options/BUILD.bazel" <<'EOF'
load("@dgpb_rules//:defs.bzl", "dgpb_bundle")

dgpb_bundle(name = "opt", module = "blur.slang", module_path = "opt", srcs = ["filter.slangh"],
            opts = ["--spirv-version=1.6"])

dgpb_bundle(name = "column", module = "blur.slang", module_path = "column", srcs = ["filter.slangh"],
            matrix_layout = "column", targets = ["spirv"])

dgpb_bundle(name = "debug", module = "blur.slang", module_path = "debug", srcs = ["filter.slangh"],
            opts = ["-O0"])

dgpb_bundle(name = "scalar", module = "blur.slang", module_path = "scalar", srcs = ["filter.slangh"],
            block_layout = "scalar", targets = ["spirv"])
EOF
if bz "$work/ws1" root1 build //bad_layout:blur >"$work/bad_layout.out" 2>&1; then
    fail "matrix_layout = 'diagonal' was built"
fi
grep -q 'matrix_layout' "$work/bad_layout.out" && grep -q 'diagonal' "$work/bad_layout.out" ||
    fail "no message naming matrix_layout: $(grep -A3 ERROR "$work/bad_layout.out")"
if bz "$work/ws1" root1 build //bad_options:opt >"$work/bad_opt.out" 2>&1; then
    fail "opts = ['--spirv-version=1.6'] was built"
fi
grep -q "'--spirv-version=1.6' is not for opts" "$work/bad_opt.out" ||
    fail "no message refusing the option in opts: $(grep -A3 ERROR "$work/bad_opt.out")"
if bz "$work/ws1" root1 build //bad_options:column >"$work/bad_column.out" 2>&1; then
    fail "matrix_layout = 'column' was built with the embedded compiler"
fi
grep -q "the embedded compiler (Slang [0-9.]* WebAssembly) cannot compile with --matrix-layout column" \
    "$work/bad_column.out" ||
    fail "no message naming the embedded compiler: $(grep -v '^INFO' "$work/bad_column.out" | head -20)"
if bz "$work/ws1" root1 build //bad_options:debug >"$work/bad_debug.out" 2>&1; then
    fail "opts = ['-O0'] was built"
fi
grep -q "'-O0' is not for opts" "$work/bad_debug.out" ||
    fail "no message refusing -O0 in opts: $(grep -A3 ERROR "$work/bad_debug.out")"
if bz "$work/ws1" root1 build //bad_options:scalar >"$work/bad_scalar.out" 2>&1; then
    fail "block_layout = 'scalar' was built with the embedded compiler"
fi
grep -q "the embedded compiler (Slang [0-9.]* WebAssembly) cannot compile with --block-layout scalar" \
    "$work/bad_scalar.out" ||
    fail "no message naming the embedded compiler: $(grep -v '^INFO' "$work/bad_scalar.out" | head -20)"
step "the root module: an empty module path, the stem main"
mkdir -p "$work/ws1/root"
cp "$src/examples/bazel/shaders/tint.slang" "$src/examples/bazel/shaders/include/palette.slang" "$work/ws1/root/"
cat >"$work/ws1/root/BUILD.bazel" <<'EOF'
load("@dgpb_rules//:defs.bzl", "dgpb_bundle")

dgpb_bundle(name = "main", module = "tint.slang", srcs = ["palette.slang"], root_module = True,
            targets = ["wgsl"])
EOF
bz "$work/ws1" root1 build //root:main >"$work/root.out" 2>&1 || fail "//root:main failed: $(cat "$work/root.out")"
grep -q '"asset":[[:space:]]*"gpu_shaders.main"' "$work/ws1/bazel-bin/root/main.bundle.json" ||
    fail "main.bundle.json does not name the asset gpu_shaders.main"
bz "$work/ws1" root1 shutdown >/dev/null 2>&1 || true

# 7. The remote cache: nginx's WebDAV store.
start_nginx
remote=(--remote_cache="http://127.0.0.1:$NGINX_PORT/bazel")
step "ws1 with a third output base, processes instead of workers, and the remote cache http://127.0.0.1:$NGINX_PORT/bazel"
build ws1 root3 remote_fill "${remote[@]}" --strategy=DgpbBundle=sandboxed
expect remote_fill "$(all ran sandbox)"
same_bytes "$out1" "$work/plain"
puts=$(grep -c '^PUT /bazel/ac/.* 20[14]' "$NGINX_LOG" || true)
[ "$puts" -ge 4 ] || fail "the remote store got $puts action results, not 4: $(cat "$NGINX_LOG")"
bz "$work/ws1" root3 shutdown >/dev/null 2>&1 || true
step "ws2 with a fourth output base and the remote cache: every action from it"
build ws2 root4 remote_hit "${remote[@]}"
expect remote_hit "$(all cache cache)"
same_bytes "$out2" "$work/plain"
gets=$(grep -c '^GET /bazel/ac/.* 200' "$NGINX_LOG" || true)
[ "$gets" -ge 4 ] || fail "the remote store served $gets action results, not 4"

step "ok"
