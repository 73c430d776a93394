#!/usr/bin/env python3
"""flip_binding.py IN OUT ROW OLD NEW [NTH] - a copy of bundle IN in which the NTH (1: the
first) parameter row named ROW whose binding is OLD (in file order: targets by name, entries in declaration order)
gets binding NEW. Only the header changes: every blob's SHA-256 still holds. A row's record
is its name (u32 length, bytes), then kind, flags, space, binding, offset, size and
webgpu_layout, u32 each (docs/format.md). Prints which record it changed."""
import struct
import sys

src, dst, row, old, new = sys.argv[1], sys.argv[2], sys.argv[3].encode(), int(sys.argv[4]), int(sys.argv[5])
nth = int(sys.argv[6]) if len(sys.argv) > 6 else 1
b = bytearray(open(src, "rb").read())
at = 0
while True:
    at = b.find(struct.pack("<I", len(row)) + row, at)
    if at < 0:
        sys.exit("no row %s with binding %d in %s" % (row.decode(), old, src))
    fields = at + 4 + len(row)
    if fields + 28 <= len(b) and struct.unpack_from("<I", b, fields + 12)[0] == old:
        nth -= 1
        if not nth:
            break
    at += 1
struct.pack_into("<I", b, fields + 12, new)
open(dst, "wb").write(b)
print("row %s at byte %d: binding %d -> %d" % (row.decode(), fields + 12, old, new))
