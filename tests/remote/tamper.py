#!/usr/bin/env python3
"""tamper.py STORE MODE - rewrites a filled store's entries as a hostile store would.

STORE: a folder (nginx's root: cas/<sha256>, ac/<key>) or redis:PORT (keys
dgpb:v1:cas:<sha256>, dgpb:v1:ac:<key>; REDISCLI_AUTH is passed on).
MODE:
  ac        every action entry names a path instead of a SHA-256 ("../..", absolute, ...)
  manifest  every manifest the store holds lists its input files as "../" paths
            (filed under its new, correct SHA-256, and its action entry renamed to it)
  swap A B  the action entry of module A's whole build (the manifest whose first input
            is a file named A) holds module B's whole-build action entry instead
  fabricate A [BYTES]
            module A's whole build gets a new result whose bundle section is BYTES
            (default "NOT A BUNDLE AT ALL"; "@FILE": the bytes of FILE), the rest of the
            result kept, and a manifest that names it (its own lines kept): every SHA-256
            in the store right, so only a check of the bundle itself can tell
Prints how many entries it rewrote.
"""
import hashlib
import os
import re
import struct
import subprocess
import sys

store, mode = sys.argv[1], sys.argv[2]
PATHS = [b"../../outside/bait", b"../ac/", b"/etc/passwd", b"../" * 21 + b"a"]

if store.startswith("redis:"):
    port = store.split(":", 1)[1]

    def cli(*args, data=None):
        return subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", port, "--no-auth-warning"]
                              + list(args), input=data, capture_output=True, check=True).stdout

    def keys(kind):
        return [k.decode().rsplit(":", 1)[1]
                for k in cli("--raw", "KEYS", "dgpb:v1:%s:*" % kind).split()]

    def get(kind, name):
        return cli("--raw", "GET", "dgpb:v1:%s:%s" % (kind, name))[:-1]

    def put(kind, name, data):
        cli("-x", "SET", "dgpb:v1:%s:%s" % (kind, name), data=data)
else:
    def keys(kind):
        return os.listdir(os.path.join(store, kind))

    def get(kind, name):
        with open(os.path.join(store, kind, name), "rb") as f:
            return f.read()

    def put(kind, name, data):
        with open(os.path.join(store, kind, name), "wb") as f:
            f.write(data)

def sections(data):
    out, at = [], 0
    while at < len(data):
        (size,) = struct.unpack_from("<I", data, at)
        out.append(data[at + 4:at + 4 + size])
        at += 4 + size
    return out


def build_manifests():
    """{module file name: [(action key, manifest bytes, result bytes)]} of the whole builds
    (one per output folder the module was built into)."""
    found = {}
    for key in keys("ac"):
        content = get("cas", get("ac", key).decode()[:64])
        if not content.startswith(b"dgpb-manifest"):
            continue
        m = re.search(rb"^set ([0-9a-f]{64}) \S+ \d+\n[0-9a-f]{64} (.*)$", content, re.M)
        if not m:
            continue
        try:
            result = get("cas", m.group(1).decode())
        except (OSError, subprocess.CalledProcessError):
            continue
        if result[4:8] != b"DGPB":  # a whole build's first section is its bundle
            continue
        found.setdefault(os.path.basename(m.group(2).decode()), []).append((key, content, result))
    return found


if mode in ("swap", "fabricate"):
    builds = build_manifests()
    a = sys.argv[3]
    if a not in builds:
        sys.exit("no whole build of %s in the store (%s)" % (a, ", ".join(builds)))
    for key, manifest, result in builds[a]:
        if mode == "swap":
            put("ac", key, get("ac", builds[sys.argv[4]][0][0]))
            continue
        fake = sys.argv[4].encode() if len(sys.argv) > 4 else b"NOT A BUNDLE AT ALL"
        if fake.startswith(b"@"):
            fake = open(fake[1:], "rb").read()
        parts = sections(result)
        parts[0] = fake
        new_result = b"".join(struct.pack("<I", len(x)) + x for x in parts)
        result_sha = hashlib.sha256(new_result).hexdigest()
        put("cas", result_sha, new_result)
        # A result is filed as every entry is: its action key, SHA-256 of the kind ('o') and
        # its own SHA-256 (cache/remote_cache.c), names its content.
        put("ac", hashlib.sha256(b"o" + bytes.fromhex(result_sha)).hexdigest(), result_sha.encode())
        new_manifest = re.sub(rb"^set [0-9a-f]{64} ", b"set " + result_sha.encode() + b" ",
                              manifest, count=1, flags=re.M)
        manifest_sha = hashlib.sha256(new_manifest).hexdigest()
        put("cas", manifest_sha, new_manifest)
        put("ac", key, manifest_sha.encode())
    print(len(builds[a]))
    sys.exit(0)

n = 0
for i, key in enumerate(sorted(keys("ac"))):
    if mode == "ac":
        put("ac", key, PATHS[i % len(PATHS)])
        n += 1
        continue
    content = get("cas", get("ac", key).decode()[:64])
    if not content.startswith(b"dgpb-manifest"):
        continue
    lines = content.split(b"\n")
    for j, line in enumerate(lines):
        m = re.fullmatch(rb"([0-9a-f]{64}) (.*)", line)
        if m:
            lines[j] = m.group(1) + b" ../../../../../../../../outside/bait"
    content = b"\n".join(lines)
    sha = hashlib.sha256(content).hexdigest()
    put("cas", sha, content)
    put("ac", key, sha.encode())
    n += 1
print(n)
