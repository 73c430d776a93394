#!/usr/bin/env python3
"""file_circles.py - no two files of a program or library call each other, directly or
around a circle.

    file_circles.py SOURCE_DIR BUILD_DIR TARGET...

For each CMake target named (its objects under BUILD_DIR/CMakeFiles/<target>.dir), file A
depends on file B when A's object leaves a symbol undefined that B's object defines
(`nm`). The test fails, naming each circle with the symbols that close it, when those
dependencies hold a cycle: the lower file must take a callback or a small interface
instead (CONTRIBUTING.md, "Code conventions"). Calls into other targets (a tool into the
library) are one way by construction and not looked at.
"""
import os
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind in "TDBRCGSVW" or kind in "tdbrgs":
            if kind.isupper():
                defined.add(name)
    return defined, undefined


def objects(source, build, target):
    """The target's objects by source path. Where CMake's link command for the target
    (link.txt) names its objects, only those: an object of a file that moved to another
    target since that build is left over and not looked at; so is an object whose source
    is gone (a file renamed since that build)."""
    root = os.path.join(build, "CMakeFiles", target + ".dir")
    linked = None
    link = os.path.join(root, "link.txt")
    if os.path.exists(link):
        with open(link, encoding="utf-8", errors="replace") as f:
            words = [w.strip('"') for w in f.read().split()]
            linked = {os.path.normpath(os.path.join(build, w)) for w in words if w.endswith(".o")}
    found = {}
    for folder, _, files in os.walk(root):
        for f in files:
            if f.endswith(".o"):
                path = os.path.join(folder, f)
                if linked is not None and os.path.normpath(path) not in linked:
                    continue
                src = os.path.relpath(path, root)[: -len(".o")]
                if os.path.exists(os.path.join(source, src)):
                    found[src] = path
    return found


def circles(graph):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) < 4:
        print("usage: file_circles.py SOURCE_DIR BUILD_DIR TARGET...", file=sys.stderr)
        return 2
    source, build, failed = sys.argv[1], sys.argv[2], False
    for target in sys.argv[3:]:
        objs = objects(source, build, target)
        if not objs:
            print(f"FAIL: target '{target}' has no objects under {build}/CMakeFiles/{target}.dir")
            failed = True
            continue
        syms = {src: symbols(o) for src, o in objs.items()}
        owner = {}
        for src, (defined, _) in syms.items():
            for s in defined:
                owner[s] = src
        graph, why = {src: set() for src in syms}, {}
        for src, (_, undefined) in syms.items():
            for s in undefined:
                dst = owner.get(s)
                if dst and dst != src:
                    graph[src].add(dst)
                    why.setdefault((src, dst), []).append(s)
        for comp in circles(graph):
            failed = True
            print(f"FAIL: {target}: these files call each other in a circle:")
            for a in comp:
                for b in comp:
                    if (a, b) in why:
                        names = ", ".join(sorted(why[(a, b)])[:4])
                        print(f"    {a} -> {b}  ({names})")
        print(f"{target}: {len(objs)} files, "
              f"{sum(len(v) for v in graph.values())} dependencies between them")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
