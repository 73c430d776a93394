#!/usr/bin/env bash
# service_context.sh DGPB-BUILD FIXTURES - a compile service serves only
# callers whose context it shares (docs/service.md, "One service per
# compiler and context"): a build whose groups, capabilities, user
# namespace, mount namespace, environment, private /tmp or resource limits
# differ from those of the build that started the service gets a service of
# its own, and writes
# what --service=off writes, byte for byte, or fails as it does. Last, the
# service checks a client's process itself (/proc): a client that sends its
# identity from another context is refused. Needs root (CI runs as root),
# for another user's groups and for mount namespaces (util-linux's unshare
# and setpriv).
export TMPDIR=/var/tmp # the test's folder: not under /tmp, which one case makes private
source "$(dirname "$0")/service_lib.sh"
unset TMPDIR # the builds use /tmp
fixtures=$2
[ "$(id -u)" = 0 ] || fail "this test needs root, for other groups and mount namespaces (run it as root, as CI does)"
for tool in setpriv unshare mount; do
    command -v $tool >/dev/null || fail "$tool not found (install util-linux and mount)"
done
chmod 755 "$work"
user=4242 group=5555
cases=${3:-groups capabilities userns mount environment private-tmp rlimit peer} # a third argument runs some of them
want() { case " $cases " in *" $1 "*) return 0 ;; esac; return 1; }
cp "$fixtures/plain.slang" "$work/plain.slang"

# Services in the test's other service folders: stopped at the end, whatever happened.
stop_all() { # stop_all FOLDER [setpriv options...]
    local dir=$1
    shift
    [ -d "$dir" ] && DGPB_SERVICE_DIR=$dir timeout 30 "$@" "$build" --service-stop >/dev/null 2>&1
}
finish() {
    stop_all "$work/user" setpriv --reuid=$user --regid=$user --clear-groups
    cleanup
}
trap finish EXIT

# compare CASE OUT REF STEM: the same bytes as the build without the service.
compare() {
    cmp -s "$2/$4.dgpb" "$3/$4.dgpb" && cmp -s "$2/$4.bundle.json" "$3/$4.bundle.json" ||
        fail "$1: the bundle differs from the build with --service=off (a service of another context answered)"
}

if want groups; then
# 1. Groups: a header root:5555 mode 0640. The service is started by user 4242 while it holds
# group 5555; the same user without the group must not read the header through it.
mkdir -m 755 "$work/g"
chown $user:$user "$work/g"
mkdir -m 700 "$work/user"
chown $user:$user "$work/user"
cat > "$work/g/secret.slangh" <<'SECRET'
// xyzzy-plugh: a secret text
static const uint SECRET = 0x5EC7E7u;
SECRET
chown root:$group "$work/g/secret.slangh"
chmod 640 "$work/g/secret.slangh"
cat > "$work/g/uses.slang" <<'MODULE'
#include "secret.slangh"
RWStructuredBuffer<uint> data;
[shader("compute")]
[numthreads(1, 1, 1)]
void k(uint3 id : SV_DispatchThreadID)
{
    data[id.x] = SECRET;
}
MODULE
as_user() { # as_user GROUPS-OPTION ARGS...: dgpb-build as user 4242
    local groups=$1
    shift
    DGPB_SERVICE_DIR="$work/user" timeout 600 setpriv --reuid=$user --regid=$user $groups \
        "$build" --targets spirv,wgsl -q "$@"
}
as_user --groups=$group "$work/g/uses.slang" -o "$work/g/with" 2> "$work/g/with.log" ||
    fail "groups: the build holding group $group failed: $(cat "$work/g/with.log")"
as_user --clear-groups --service=off "$work/g/uses.slang" -o "$work/g/off" 2> "$work/g/off.log"
off=$?
as_user --clear-groups "$work/g/uses.slang" -o "$work/g/without" 2> "$work/g/without.log"
status=$?
[ $off = 1 ] || fail "groups: --service=off without group $group: exit $off, not 1: $(cat "$work/g/off.log")"
[ $status = $off ] ||
    fail "groups: without group $group through the service: exit $status, not $off as with --service=off: $(cat "$work/g/without.log")"
[ ! -e "$work/g/without/uses.dgpb" ] || fail "groups: a bundle was written without group $group"
! grep -q "xyzzy\|5EC7E7" "$work/g/without.log" || fail "groups: the secret is in the diagnostics: $(cat "$work/g/without.log")"
grep -q "secret.slangh" "$work/g/without.log" || fail "groups: the failure does not name the header: $(cat "$work/g/without.log")"
echo "ok: groups: a build without group $group fails as with --service=off (exit 1), nothing of the header read"
fi

# A header only its owner (user 4242) may read, and a module that includes it: root reads it
# by its capabilities (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), a process without them cannot.
owned_secret() { # owned_secret FOLDER
    mkdir -m 755 "$1"
    cat > "$1/secret.slangh" <<'SECRET'
// xyzzy-topsecret: a secret text
static const uint SECRET = 0x5EC7E7u;
SECRET
    chown $user:$user "$1/secret.slangh"
    chmod 600 "$1/secret.slangh"
    printf '#include "secret.slangh"\nRWStructuredBuffer<uint> data;\n[shader("compute")]\n[numthreads(1, 1, 1)]\nvoid k(uint3 id : SV_DispatchThreadID) { data[id.x] = SECRET; }\n' \
        > "$1/uses.slang"
}
# refused CASE FOLDER PREFIX...: the build under PREFIX fails as with --service=off (exit 1),
# through the service full root started, and nothing of the header comes back.
refused() {
    local name=$1 dir=$2
    shift 2
    "$build" --targets spirv -q "$dir/uses.slang" -o "$dir/root" 2> "$dir/root.log" ||
        fail "$name: full root's build failed: $(cat "$dir/root.log")"
    [ -n "$(service_pid)" ] || fail "$name: no service runs after full root's build"
    timeout 600 "$@" "$build" --targets spirv -q --service=off "$dir/uses.slang" -o "$dir/off" 2> "$dir/off.log"
    local off=$?
    timeout 600 "$@" "$build" --targets spirv -q "$dir/uses.slang" -o "$dir/through" 2> "$dir/through.log"
    local status=$?
    [ $off = 1 ] || fail "$name: --service=off: exit $off, not 1: $(cat "$dir/off.log")"
    [ $status = $off ] ||
        fail "$name: through the service: exit $status, not $off as with --service=off: $(cat "$dir/through.log")"
    [ ! -e "$dir/through/uses.dgpb" ] || fail "$name: a bundle was written"
    ! grep -q "xyzzy\|5EC7E7" "$dir/through.log" || fail "$name: the secret came back: $(cat "$dir/through.log")"
}

if want capabilities; then
# 1a. Capabilities: root without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (setpriv's bounding
# set; also its effective ones, at exec) cannot open the header; a service full root started
# must not open it for that build.
owned_secret "$work/caps"
refused capabilities "$work/caps" setpriv --bounding-set=-dac_override,-dac_read_search
echo "ok: capabilities: root without CAP_DAC_OVERRIDE fails as with --service=off (exit 1), nothing of the header read"
fi

if want userns; then
# 1b. A user namespace (unshare -U -r): its root maps to the same user id outside, but holds
# no capability over files of users the namespace does not map. Where the kernel lets this
# user make one (a container may not): the same as 1a.
if unshare -U -r true 2>/dev/null; then
    owned_secret "$work/userns"
    refused "user namespace" "$work/userns" unshare -U -r
    echo "ok: user namespace: its root fails as with --service=off (exit 1), nothing of the header read"
else
    echo "not run: user namespace: this kernel lets no user namespace be made here (unshare -U -r fails)"
fi
fi

if want mount; then
# 2. Mount namespace: inside unshare -m, another file is bind-mounted over the module.
module_of 2 "$work/other.slang"
build_with "$work/host.log" -q "$work/plain.slang" -o "$work/host" || fail "mount: $(cat "$work/host.log")"
[ -n "$(service_pid)" ] || fail "mount: no service runs after the build on the host"
timeout 600 unshare -m bash -c '
    mount --bind "$1/other.slang" "$1/plain.slang" || exit 99
    DGPB_SERVICE=off "$2" --targets spirv,wgsl -q "$1/plain.slang" -o "$1/ns-off" || exit 98
    "$2" --targets spirv,wgsl -q "$1/plain.slang" -o "$1/ns"' _ "$work" "$build" 2> "$work/ns.log"
status=$?
[ $status = 0 ] || fail "mount: exit $status: $(cat "$work/ns.log")"
compare mount "$work/ns" "$work/ns-off" plain
cmp -s "$work/ns/plain.dgpb" "$work/host/plain.dgpb" && fail "mount: the bind-mounted module built as the host's"
echo "ok: mount namespace: the bind-mounted module's bytes, as with --service=off"
fi

if want environment; then
# 3. Environment: NVCC_APPEND_FLAGS, which nvcc reads (a fake nvcc under CUDA_PATH here, whose
# PTX says the flags it was given), given to the build that started the service only.
mkdir -p "$work/cuda/bin"
cat > "$work/cuda/bin/nvcc" <<'NVCC'
#!/bin/sh
# A fake nvcc: one PTX kernel 'k' with no parameters, and a comment with $NVCC_APPEND_FLAGS.
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
printf '//\n// flags: %s\n//\n\n.version 9.0\n.target sm_75\n.address_size 64\n\n\t// .globl\tk\n\n.visible .entry k()\n{\n\n\n\n\tret;\n\n}\n' \
    "${NVCC_APPEND_FLAGS:-none}" > "$out"
NVCC
chmod 755 "$work/cuda/bin/nvcc"
printf '[shader("compute")]\n[numthreads(1, 1, 1)]\nvoid k(uint3 id : SV_DispatchThreadID)\n{\n}\n' > "$work/empty.slang"
ptx() { # ptx OUT [ENV...]
    local out=$1
    shift
    env CUDA_PATH="$work/cuda" "$@" timeout 600 "$build" --targets ptx -q "$work/empty.slang" -o "$work/$out" \
        2> "$work/$out.log" || fail "environment: $out: $(cat "$work/$out.log")"
}
ptx env-off DGPB_SERVICE=off
ptx env-lineinfo-off DGPB_SERVICE=off NVCC_APPEND_FLAGS=-lineinfo
cmp -s "$work/env-off/empty.dgpb" "$work/env-lineinfo-off/empty.dgpb" &&
    fail "environment: the fake nvcc's PTX does not change with NVCC_APPEND_FLAGS"
ptx env-lineinfo NVCC_APPEND_FLAGS=-lineinfo # starts a service with the variable
ptx env
compare environment "$work/env" "$work/env-off" empty
ptx env-lineinfo-again NVCC_APPEND_FLAGS=-lineinfo
compare environment "$work/env-lineinfo-again" "$work/env-lineinfo-off" empty
echo "ok: environment: NVCC_APPEND_FLAGS given to the build that started a service changes nothing for a build without it, and the other way round"
fi

if want private-tmp; then
# 4. A private /tmp (systemd's PrivateTmp) with a shared service folder.
build_with "$work/pt-host.log" -q "$work/plain.slang" -o "$work/pt-host" || fail "private /tmp: $(cat "$work/pt-host.log")"
# The folders this build needs that lie under the host's /tmp (a checkout in /tmp, the test's
# own folder) are bound back into the private one, as a user's project folder would be there:
# from the host's /tmp, still open as descriptor 3 (--no-canonicalize: mount would otherwise
# resolve that path to the private /tmp's).
timeout 600 unshare -m bash -c '
    exec 3</tmp
    mount -t tmpfs tmpfs /tmp || exit 99
    for p in "$1" "$2" "$3"; do
        case $p in /tmp/?*) top=${p#/tmp/}; top=${top%%/*} ;; *) continue ;; esac
        [ -d "/tmp/$top" ] && continue
        mkdir "/tmp/$top" && mount --no-canonicalize --bind "/proc/$$/fd/3/$top" "/tmp/$top" || exit 98
    done
    exec 3<&-
    "$2" --targets spirv,wgsl -q "$1/plain.slang" -o "$1/pt"' _ "$work" "$build" "$fixtures" 2> "$work/pt.log"
status=$?
[ $status = 0 ] || fail "private /tmp: exit $status: $(cat "$work/pt.log")"
compare "private /tmp" "$work/pt" "$work/pt-host" plain
echo "ok: private /tmp: exit 0, the same bytes"
fi

if want rlimit; then
# 5. Resource limits: a service started under ulimit -f 8 (8 KiB files); a later build
# without the limit writes more than that.
timeout 30 "$build" --service-stop >/dev/null 2>&1
(ulimit -f 8 && build_with "$work/limited.log" -q "$work/plain.slang" -o "$work/limited") ||
    fail "rlimit: the build under ulimit -f 8 failed: $(cat "$work/limited.log")"
module_of 60 "$work/large.slang"
reference "$work/large.slang" "$work/large-off"
[ "$(stat -c %s "$work/large-off/large.dgpb")" -gt 8192 ] || fail "rlimit: the large bundle is not over 8 KiB"
build_with "$work/large.log" -q "$work/large.slang" -o "$work/large"
status=$?
[ $status = 0 ] || fail "rlimit: exit $status: $(cat "$work/large.log")"
[ "$(warnings "$work/large.log")" = 0 ] || fail "rlimit: a warning: $(cat "$work/large.log")"
compare rlimit "$work/large" "$work/large-off" large
echo "ok: resource limits: a service started under ulimit -f 8 does not serve a build without the limit"
fi
if want peer; then
# 6. The service checks the client's process itself: a client that sends the service's own
# identity (from its log) from another mount namespace, or with other supplementary groups,
# is refused, naming what differs; from the service's context, it is answered.
timeout 30 "$build" --service-stop >/dev/null 2>&1
build_with "$work/peer.log" -q "$work/plain.slang" -o "$work/peer" || fail "peer: $(cat "$work/peer.log")"
pid=$(service_pid)
identity=$(sed -n "s/.*service $pid: serving .*, identity \([0-9a-f]*\)$/\1/p" "$DGPB_SERVICE_DIR"/*.log)
[ ${#identity} = 64 ] || fail "peer: no identity in the service's log: $(cat "$DGPB_SERVICE_DIR"/*.log)"
hello() { # hello [COMMAND PREFIX...]: the service's first answer to a hello with its identity
    timeout 30 "$@" python3 -c '
import json, os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(json.dumps({"hello": 1, "identity": sys.argv[2], "pid": os.getpid()}).encode() + b"\n")
print(s.makefile("rb").readline().decode().strip())' "$(socket_path)" "$identity"
}
answer=$(hello)
case $answer in *'"hello":1'*'"pid":'$pid*) ;; *) fail "peer: the service's own context was not answered: $answer" ;; esac
answer=$(hello unshare -m)
case $answer in *'"error"'*"mount namespace"*) ;; *) fail "peer: another mount namespace was answered: $answer" ;; esac
answer=$(hello setpriv --groups=$group)
case $answer in *'"error"'*"supplementary groups"*) ;; *) fail "peer: other supplementary groups were answered: $answer" ;; esac
answer=$(hello setpriv --bounding-set=-dac_override,-dac_read_search)
case $answer in *'"error"'*"capabilities"*) ;; *) fail "peer: fewer capabilities were answered: $answer" ;; esac
grep -q "service $pid: refused client [0-9]*: the client (pid [0-9]*) has other mount namespace" "$DGPB_SERVICE_DIR"/*.log ||
    fail "peer: the refusal is not in the service's log: $(cat "$DGPB_SERVICE_DIR"/*.log)"
echo "ok: peer: a client with the service's identity from another mount namespace, other groups or fewer capabilities is refused"
fi
echo "ok: a service serves only builds of its own context"
