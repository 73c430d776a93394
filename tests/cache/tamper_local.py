#!/usr/bin/env python3
"""tamper_local.py CACHE BUNDLE - rewrites a local cache folder as someone who can write it
would, consistently: every whole build it holds (a manifest of kind 'b' whose first set names
a result that starts with a bundle) gets a new result whose bundle section is the bytes of
file BUNDLE (the rest of the result kept), filed under its own SHA-256, and the manifest's
first set names it. Every entry's header (magic, size, SHA-256 of the payload) stays right
(docs/cache.md, "Entries"), so only a check of the bundle itself can tell. Prints how many
whole builds it rewrote."""
import glob
import hashlib
import os
import re
import struct
import sys

cache, bundle = sys.argv[1], open(sys.argv[2], "rb").read()
root = os.path.join(cache, "v1")


def read(path):
    b = open(path, "rb").read()
    return b[48:]


def write(kind, sha_hex, payload):
    path = os.path.join(root, sha_hex[:2], sha_hex[2:] + "." + kind)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    head = b"DGPBC001" + struct.pack("<Q", len(payload)) + hashlib.sha256(payload).digest()
    with open(path, "wb") as f:
        f.write(head + payload)


n = 0
for path in glob.glob(os.path.join(root, "??", "*.b")):
    manifest = read(path)
    m = re.search(rb"^set ([0-9a-f]{64}) ", manifest, re.M)
    if not m:
        continue
    res = m.group(1).decode()
    res_path = os.path.join(root, res[:2], res[2:] + ".o")
    if not os.path.exists(res_path):
        continue
    result = read(res_path)
    parts, at = [], 0
    while at < len(result):
        (size,) = struct.unpack_from("<I", result, at)
        parts.append(result[at + 4:at + 4 + size])
        at += 4 + size
    parts[0] = bundle
    new = b"".join(struct.pack("<I", len(p)) + p for p in parts)
    new_sha = hashlib.sha256(new).hexdigest()
    write("o", new_sha, new)
    manifest = manifest.replace(m.group(0), b"set " + new_sha.encode() + b" ", 1)
    name = os.path.basename(path)
    write("b", os.path.basename(os.path.dirname(path)) + name[:-2], manifest)
    n += 1
print(n)
