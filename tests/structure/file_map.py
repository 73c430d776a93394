#!/usr/bin/env python3
"""file_map.py - CONTRIBUTING.md's map of the code names every file it should, and no
file that is gone.

    file_map.py REPO_ROOT

Every library source and internal header (src/<subsystem>/<file>.c|.h, named in the map
as `<subsystem>/<file>`), every public header (include/dgpb/<file>, named
`dgpb/<file>`) and every program source (tools/<program>/<file>, named
`<program>/<file>`; the embedded compiler's `slangc-wasm/lib/<file>.js` too) must appear
in CONTRIBUTING.md between backquotes; and every such name in the map's tables must be a
file that exists. A new file without its line in the map, or a line left for a removed
file, fails the test with the name to add or remove.
"""
import os
import re
import sys


def main():
    if len(sys.argv) != 2:
        print("usage: file_map.py REPO_ROOT", file=sys.stderr)
        return 2
    root = sys.argv[1]
    text = open(os.path.join(root, "CONTRIBUTING.md"), encoding="utf-8").read()
    named = set(re.findall(r"`([^`\s]+)`", text))

    expected = {}  # name in the map -> path in the repository
    for folder, _, files in os.walk(os.path.join(root, "src")):
        for f in files:
            if f.endswith((".c", ".h", ".def")):
                path = os.path.relpath(os.path.join(folder, f), root)
                expected[os.path.relpath(path, "src")] = path
    for f in os.listdir(os.path.join(root, "include", "dgpb")):
        expected["dgpb/" + f] = os.path.join("include", "dgpb", f)
    tools = os.path.join(root, "tools")
    for program in sorted(os.listdir(tools)):
        pdir = os.path.join(tools, program)
        if not os.path.isdir(pdir):
            continue
        for folder, dirs, files in os.walk(pdir):
            dirs[:] = [d for d in dirs if d != "node_modules"]
            for f in files:
                if f.endswith((".c", ".h", ".js", ".mjs")):
                    path = os.path.relpath(os.path.join(folder, f), tools)
                    expected[path] = os.path.join("tools", path)

    failed = False
    for name in sorted(expected):
        if name not in named:
            print(f"FAIL: CONTRIBUTING.md does not name `{name}` ({expected[name]}): add its line to the map")
            failed = True
    # Names in the map that look like a library, header or program file must exist.
    shape = re.compile(r"^(dgpb/[\w.]+\.(h|def)|[\w-]+/[\w/.-]+\.(c|h|js|mjs|def))$")
    for name in sorted(named):
        if not shape.match(name) or name.startswith(("tests/", "tools/", "src/", "include/", "docs/",
                                                     "fixtures/", "bench/", "examples/", "js/", "cmake/")):
            continue
        if name not in expected:
            print(f"FAIL: CONTRIBUTING.md names `{name}`, which is no file under src/, include/ or tools/")
            failed = True
    print(f"map: {len(expected)} files, each named" if not failed else "map: incomplete")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
