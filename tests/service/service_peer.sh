#!/usr/bin/env bash
# service_peer.sh DGPB-BUILD FIXTURES - the compile service serves its own
# user only: a connection from another user (uid 65534) is closed without
# an answer and logged, and the service goes on serving its user. The
# socket's folder (0700) already keeps other users out; to reach the
# service's own check (SO_PEERCRED), the other user's process keeps root's
# capabilities across setuid (SECBIT_NO_SETUID_FIXUP), so it can open the
# folder. Needs root (CI runs as root).
source "$(dirname "$0")/service_lib.sh"
fixtures=$2
[ "$(id -u)" = 0 ] ||
    fail "this test needs root, to connect as another user (run it as root, as CI does)"
cp "$fixtures/plain.slang" "$work/plain.slang"
reference "$work/plain.slang" "$work/ref"
build_with "$work/one.log" -q "$work/plain.slang" -o "$work/one" || fail "build: $(cat "$work/one.log")"
pid=$(service_pid)
sock=$(socket_path)
[ -n "$pid" ] && [ -S "$sock" ] || fail "no service runs"

# As uid 65534: connect, say hello, and read what comes back (nothing: the connection closes).
answer=$(timeout 30 python3 - "$sock" "$DGPB_SERVICE_DIR" <<'PY'
import ctypes, json, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP = 28, 1 << 2
if libc.prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0):
    sys.exit("prctl(PR_SET_SECUREBITS) failed: errno %d" % ctypes.get_errno())
os.setgid(65534)
os.setuid(65534)
assert os.getuid() == 65534
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
try:
    s.sendall(json.dumps({"hello": 1, "identity": "0" * 64, "pid": os.getpid()}).encode() + b"\n")
except OSError:
    pass
try:
    data = s.recv(65536)
except OSError as e:
    data = b""
print("answer:" + data.decode(errors="replace"))
PY
) || fail "the other user's client failed: $answer"
[ "$answer" = "answer:" ] || fail "the service answered another user: $answer"
grep -q "dgpb-build service $pid: refused a connection from user 65534 (pid [0-9]*): this service serves user 0 only" "$DGPB_SERVICE_DIR"/*.log ||
    fail "the service's log does not say it refused user 65534: $(cat "$DGPB_SERVICE_DIR"/*.log)"
echo "ok: a connection from user 65534 was closed without an answer, and logged"

# The service goes on serving its user.
[ "$(service_pid)" = "$pid" ] || fail "the service did not survive the refused connection"
build_with "$work/two.log" -v "$work/plain.slang" -o "$work/two" || fail "after: $(cat "$work/two.log")"
same "$work/two" "$work/ref" plain
grep -q "compiles: through the compile service (pid $pid," "$work/two.log" || fail "after: not through $pid"
echo "ok: the compile service refuses other users and keeps serving its own"
