#!/usr/bin/env python3
"""folder_order.py - the folders of src/ depend one way, in the order CONTRIBUTING.md gives.

    folder_order.py SOURCE_DIR BUILD_DIR TARGET...

CONTRIBUTING.md lists the folders of src/, lowest first, between the markers
`<!-- folder-order ... -->` and `<!-- /folder-order -->`. A folder may depend on
the folders before it in that list, never on itself through another folder nor on
one after it. Dependencies are read two ways, over all the TARGETs' objects together
(their objects under BUILD_DIR/CMakeFiles/<target>.dir):

* calls: file A depends on file B when A's object leaves a symbol undefined that B's
  object defines (`nm`), as tests/structure/file_circles.py reads them;
* includes: a file of src/ that includes "F/x.h" depends on folder F; one that includes
  a public header "dgpb/x.h" depends on the folder that defines the most functions
  the header declares (a header of types only belongs to no folder).

The list also gives each folder's library, and a `<!-- library-links: ... -->` line what
each library may link. The test fails, naming each offending file, symbol or include,
when a folder depends on a folder that is not before it, or on a folder of a library
its own library does not link; when a folder of src/ is missing from the list or
the list names a folder that is gone; and prints the number of folder pairs each way.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from file_circles import objects, symbols  # noqa: E402


def folder_order(source):
    """The folders lowest first, each folder's library, and what each library may link."""
    text = open(os.path.join(source, "CONTRIBUTING.md"), encoding="utf-8").read()
    m = re.search(r"<!-- folder-order[^>]*-->(.*?)<!-- /folder-order -->", text, re.S)
    if not m:
        return None, None, None
    rows = re.findall(r"^\| `([a-z_]+)/` \| ([a-z_-]+) \|", m.group(1), re.M)
    links = {}
    lm = re.search(r"<!-- library-links: (.*?) -->", m.group(1))
    for part in (lm.group(1).split(";") if lm else []):
        if ":" in part:
            lib, deps = part.split(":", 1)
            links[lib.strip()] = set(deps.split())
    return [f for f, _ in rows], dict(rows), links


def public_header_folders(source, owner_folder):
    """dgpb/x.h -> the folder defining most of the functions it declares."""
    out = {}
    inc = os.path.join(source, "include", "dgpb")
    for name in os.listdir(inc):
        if not name.endswith(".h"):
            continue
        text = open(os.path.join(inc, name), encoding="utf-8").read()
        counts = {}
        for fn in set(re.findall(r"\b(dgpb_\w+)\s*\(", text)):
            folder = owner_folder.get(fn)
            if folder:
                counts[folder] = counts.get(folder, 0) + 1
        if counts:
            out["dgpb/" + name] = max(sorted(counts), key=lambda f: counts[f])
    return out


def main():
    if len(sys.argv) < 4:
        print("usage: folder_order.py SOURCE_DIR BUILD_DIR TARGET...", file=sys.stderr)
        return 2
    source, build = sys.argv[1], sys.argv[2]
    order, library, links = folder_order(source)
    if not order:
        print("FAIL: CONTRIBUTING.md has no <!-- folder-order --> list")
        return 1
    rank = {f: i for i, f in enumerate(order)}
    failed = False
    present = sorted(d for d in os.listdir(os.path.join(source, "src"))
                     if os.path.isdir(os.path.join(source, "src", d)))
    for d in present:
        if d not in rank:
            print(f"FAIL: src/{d}/ is not in CONTRIBUTING.md's folder order")
            failed = True
    for d in order:
        if d not in present:
            print(f"FAIL: CONTRIBUTING.md's folder order names src/{d}/, which is gone")
            failed = True

    def folder_of(path):  # "src/scan/x.c" or "scan/x.c" -> "scan"
        parts = path.split("/")
        return parts[1] if parts[0] == "src" else parts[0]

    syms = {}
    for target in sys.argv[3:]:
        objs = objects(source, build, target)
        if not objs:
            print(f"FAIL: target '{target}' has no objects under {build}/CMakeFiles/{target}.dir")
            failed = True
        for src, obj in objs.items():
            if src.startswith("src/"):
                syms[src] = symbols(obj)
    owner = {}
    for src, (defined, _) in syms.items():
        for s in defined:
            owner.setdefault(s, src)
    why = {}  # (folder, folder) -> ["file -> file (symbol)" or "file includes x"]
    for src, (_, undefined) in syms.items():
        for s in sorted(undefined):
            dst = owner.get(s)
            if dst and folder_of(dst) != folder_of(src):
                why.setdefault((folder_of(src), folder_of(dst)), []).append(f"{src} calls {s} ({dst})")
    owner_folder = {s: folder_of(src) for s, src in owner.items()}
    headers = public_header_folders(source, owner_folder)
    include = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.M)
    for d in present:
        folder = os.path.join(source, "src", d)
        for name in sorted(os.listdir(folder)):
            if not name.endswith((".c", ".h")):
                continue
            text = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read()
            for top, rest in include.findall(text):
                dst = headers.get(f"dgpb/{rest}") if top == "dgpb" else top
                if dst and dst != d:
                    why.setdefault((d, dst), []).append(f"src/{d}/{name} includes \"{top}/{rest}\"")
    for (a, b), reasons in sorted(why.items()):
        la, lb = library.get(a), library.get(b)
        if la and lb and la != lb and lb not in links.get(la, set()):
            failed = True
            print(f"FAIL: {a}/ (library {la}) depends on {b}/ (library {lb}), which {la} does not "
                  f"link (CONTRIBUTING.md's library-links):")
            for r in reasons[:6]:
                print(f"    {r}")
        if a in rank and b in rank and rank[b] >= rank[a]:
            failed = True
            print(f"FAIL: {a}/ depends on {b}/, which is not below it in CONTRIBUTING.md's order:")
            for r in reasons[:6]:
                print(f"    {r}")
    pairs = {(a, b) for a, b in why}
    two_way = sorted({tuple(sorted(p)) for p in pairs if (p[1], p[0]) in pairs})
    for a, b in two_way:
        print(f"two-way: {a}/ <-> {b}/")
    print(f"{len(present)} folders, {len(pairs)} folder dependencies, {len(two_way)} two-way pairs")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
