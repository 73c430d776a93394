#!/usr/bin/env python3
"""alter_layout.py DGPB_DUMP BUNDLE TARGET OLD NEW OUT [--keep-hash] - writes OUT: BUNDLE
with its first layout blob of TARGET changed so that the layout answers differently
from what Slang answered when it was recorded: the strings OLD and NEW (two
parameter names of equal length) swap places in the blob's string table, so the
replayed layout gives each of the two parameters the other's binding.

The blob's SHA-256 in the bundle is updated to match the new bytes, so OUT is a
valid bundle (dgpb-dump --verify passes) whose layout lies: the case a host can
only catch by running. With --keep-hash the old SHA-256 is kept instead (a
tampered blob, which the shim must refuse).
"""
import hashlib
import json
import subprocess
import sys


def main():
    args = [a for a in sys.argv[1:] if a != "--keep-hash"]
    keep_hash = len(args) != len(sys.argv) - 1
    if len(args) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    dump, bundle, target, old, new, out = args
    if len(old) != len(new) or old == new:
        print("alter_layout.py: OLD and NEW must differ and have the same length", file=sys.stderr)
        return 2
    view = json.loads(subprocess.run([dump, "--json", bundle], check=True,
                                     capture_output=True).stdout)
    data = bytearray(open(bundle, "rb").read())
    layouts = [t["layouts"] for t in view["targets"] if t["name"] == target]
    if not layouts or not layouts[0]:
        print(f"alter_layout.py: {bundle} has no layout for {target}", file=sys.stderr)
        return 1
    layout = layouts[0][0]
    start = view["header_size"] + layout["offset"]
    blob = bytes(data[start:start + layout["size"]])
    old_sha = bytes.fromhex(layout["sha256"])
    assert hashlib.sha256(blob).digest() == old_sha

    # A string is stored as u32 length, the bytes, a NUL.
    def entry(s):
        return len(s).to_bytes(4, "little") + s.encode() + b"\0"

    a, b = entry(old), entry(new)
    if blob.count(a) != 1 or blob.count(b) != 1:
        print(f"alter_layout.py: '{old}' and '{new}' are not each one string of the layout",
              file=sys.stderr)
        return 1
    changed = blob.replace(a, b"\1" * len(a)).replace(b, a).replace(b"\1" * len(a), b)
    data[start:start + len(changed)] = changed
    if not keep_hash:
        if data.count(old_sha) != 1:
            print("alter_layout.py: the layout's SHA-256 is not stored once", file=sys.stderr)
            return 1
        at = data.index(old_sha)
        data[at:at + 32] = hashlib.sha256(changed).digest()
    open(out, "wb").write(data)
    print(f"{out}: {target} layout 0 with '{old}' and '{new}' swapped"
          + (" (old SHA-256 kept)" if keep_hash else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
