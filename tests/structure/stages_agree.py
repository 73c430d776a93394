#!/usr/bin/env python3
"""stages_agree.py - the build's stages named alike where they are listed.

    stages_agree.py REPO_ROOT

The stage table of src/driver/build.c (`{build_<name>, ...}, /* N. <name> */` rows) is
what dgpb_build() runs. The list at the top of build.c (`N. <name>`) and the one in the
public header include/dgpb/build.h (`N. <name>:`) must name the same stages, in the same
order, numbered from 1. A stage added, removed or renamed in one place and not in the
others fails the test with the three lists.
"""
import os
import re
import sys


def main():
    if len(sys.argv) != 2:
        print("usage: stages_agree.py REPO_ROOT", file=sys.stderr)
        return 2
    root = sys.argv[1]
    build_c = open(os.path.join(root, "src", "driver", "build.c"), encoding="utf-8").read()
    build_h = open(os.path.join(root, "include", "dgpb", "build.h"), encoding="utf-8").read()

    table = re.search(r"static const stage stages\[\] = \{(.*?)\n\};", build_c, re.S)
    if not table:
        print("src/driver/build.c: no stage table (static const stage stages[])")
        return 1
    rows = re.findall(r"\{build_(\w+), \w+(?:, \w+)?\},\s*/\* (\d+)\. (\w+) \*/", table.group(1))
    lists = {
        "the stage table of src/driver/build.c": [r[0] for r in rows],
        "its rows' comments": [r[2] for r in rows],
        "the list at the top of src/driver/build.c": None,
        "include/dgpb/build.h": None,
    }
    numbers = {"its rows' comments": [int(r[1]) for r in rows]}
    top = build_c[: build_c.index("*/")]
    found = re.findall(r"^ \*   (\d+)\. (\w+) ", top, re.M)
    lists["the list at the top of src/driver/build.c"] = [f[1] for f in found]
    numbers["the list at the top of src/driver/build.c"] = [int(f[0]) for f in found]
    head = build_h[: build_h.index("*/")]
    found = re.findall(r"^ \*   (\d+)\. (\w+):", head, re.M)
    lists["include/dgpb/build.h"] = [f[1] for f in found]
    numbers["include/dgpb/build.h"] = [int(f[0]) for f in found]

    expected = lists["the stage table of src/driver/build.c"]
    failed = not expected
    for where, names in lists.items():
        if names != expected:
            failed = True
        if where in numbers and numbers[where] != list(range(1, len(names) + 1)):
            print(f"{where}: numbered {numbers[where]}, not 1 to {len(names)}")
            failed = True
    if failed:
        for where, names in lists.items():
            print(f"{where}: {', '.join(names) or '(none)'}")
        return 1
    print(f"stages: {len(expected)}, named alike in build.c's table, its comment and dgpb/build.h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
