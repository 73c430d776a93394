#!/usr/bin/env python3
"""public_prefix.py - only the public API carries the `dgpb_` prefix.

    public_prefix.py SOURCE_DIR BUILD_DIR TARGET...

Every global symbol that the TARGETs' objects define (`nm`) and that starts with `dgpb_`
must be a function or variable declared in a public header, include/dgpb/*.h. Internal
functions shared between files keep short module names in the code and are linked as
`dgpb__<name>` (two underscores) through a #define in their internal header
(CONTRIBUTING.md, "Code conventions"), so a host that sees a `dgpb_` name in a
library knows it is the API. Fails naming each internal symbol with the public prefix and
the object that defines it; prints how many public and internal names it saw.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from file_circles import objects, symbols  # noqa: E402


def public_names(source):
    names = set()
    inc = os.path.join(source, "include", "dgpb")
    for name in os.listdir(inc):
        if name.endswith(".h"):
            text = open(os.path.join(inc, name), encoding="utf-8").read()
            names.update(re.findall(r"\b(dgpb_\w+)\s*\(", text))
            names.update(re.findall(r"\bextern\b[^;(]*\b(dgpb_\w+)\s*(?:\[|;)", text))
    return names


def main():
    if len(sys.argv) < 4:
        print("usage: public_prefix.py SOURCE_DIR BUILD_DIR TARGET...", file=sys.stderr)
        return 2
    source, build = sys.argv[1], sys.argv[2]
    public = public_names(source)
    failed, seen_public, seen_internal = False, set(), set()
    for target in sys.argv[3:]:
        objs = objects(source, build, target)
        if not objs:
            print(f"FAIL: target '{target}' has no objects under {build}/CMakeFiles/{target}.dir")
            failed = True
        for src, obj in sorted(objs.items()):
            defined, _ = symbols(obj)
            for s in sorted(defined):
                if s.startswith("dgpb__"):
                    seen_internal.add(s)
                elif s.startswith("dgpb_"):
                    if s in public:
                        seen_public.add(s)
                    else:
                        failed = True
                        print(f"FAIL: {src} defines {s}, which no header of include/dgpb/ declares: "
                              f"an internal function is called by a short name and linked as "
                              f"dgpb__<name> (CONTRIBUTING.md, \"Code conventions\")")
    print(f"{len(seen_public)} public dgpb_ names, {len(seen_internal)} internal dgpb__ names")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
