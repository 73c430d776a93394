#!/usr/bin/env python3
"""tamper.py STORE MODE - rewrites a filled store's entries as a hostile store would.

STORE: a folder (nginx's root: cas/<sha256>, ac/<key>) or redis:PORT (keys
dgpb:v1:cas:<sha256>, dgpb:v1:ac:<key>; REDISCLI_AUTH is passed on).
MODE:
  ac        every action entry names a path instead of a SHA-256 ("../..", absolute, ...)
  manifest  every manifest the store holds lists its input files as "../" paths
            (filed under its new, correct SHA-256, and its action entry renamed to it)
Prints how many entries it rewrote.
"""
import hashlib
import os
import re
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

n = 0
for i, key in enumerate(sorted(keys("ac"))):
    if mode == "ac":
        put("ac", key, PATHS[i % len(PATHS)])
        n += 1
        continue
    content = get("cas", get("ac", key).decode())
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
