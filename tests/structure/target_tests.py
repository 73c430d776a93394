#!/usr/bin/env python3
"""target_tests.py - a target is one folder, not if-chains across the code.

(a) No C file of the library, the programs or the fuzz targets (src/,
    tools/, tests/fuzz/; unit tests test one format on purpose) outside a
    code format's folder (src/code/<format>/) names a
    particular target, code format or backend id (DGPB_TARGET_SPIRV,
    DGPB_CODE_FORMAT_WGSL, DGPB_BACKEND_CUDA, ...: compared with == or !=, a
    case label, a bit of a target set, an argument), comments aside, but the
    files of the allow-list in CONTRIBUTING.md ("Target tests"), each with
    its reason. An allowed file that no longer names one must leave the list.
(b) CONTRIBUTING.md's "Add a target" recipe names only files that exist, and
    at most 8 of them, a new format's folder src/code/<format>/ counted as one.

Usage: target_tests.py SOURCE_DIR [--count]  (--count prints the ids named
per file, allowed or not, and their total, and exits 0).
"""
import os
import re
import sys

ID = re.compile(r"\bDGPB_(?:TARGET|CODE_FORMAT|BACKEND)_(?!COUNT\b)(?![A-Z0-9_]*_H\b)[A-Z0-9_]+\b")
FORMAT_FOLDER = re.compile(r"^src/code/[^/]+/")
MAX_RECIPE_FILES = 8


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def named_ids(root):
    found = {}
    for top in ("src", "tools", os.path.join("tests", "fuzz")):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if not f.endswith((".c", ".h", ".cpp")):
                    continue
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = strip_comments(fh.read())
                n = len([m for m in ID.findall(text) if not m.endswith("_H")])  # include guards
                if n:
                    found[rel] = n
    return found


def section(text, title):
    m = re.search(r"^(#+) " + re.escape(title) + r"\s*$", text, re.M)
    if not m:
        return None
    rest = text[m.end():]
    end = re.search(r"^#{1,%d} " % len(m.group(1)), rest, re.M)
    return rest[: end.start()] if end else rest


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    found = named_ids(root)
    if "--count" in sys.argv[2:]:
        outside = {p: n for p, n in found.items() if not FORMAT_FOLDER.match(p)}
        for p, n in sorted(outside.items(), key=lambda x: -x[1]):
            print(f"{n:4d} {p}")
        print(f"total: {sum(outside.values())} in {len(outside)} files outside src/code/<format>/")
        return 0
    with open(os.path.join(root, "CONTRIBUTING.md"), encoding="utf-8") as fh:
        doc = fh.read()
    failed = False

    allowed_text = section(doc, "Target tests")
    if allowed_text is None:
        print("FAIL: CONTRIBUTING.md has no \"Target tests\" section")
        return 1
    allowed = {n for n in re.findall(r"`([^` ]+)`", allowed_text)
               if re.match(r"^(src|tools|tests)/.*\.(c|h|cpp)$", n)}
    for path, n in sorted(found.items()):
        if FORMAT_FOLDER.match(path) or path in allowed:
            continue
        print(f"FAIL: {path} names a target, code-format or backend id {n} time(s); ask the "
              "code format's table (src/code/code_format.h), or add it to CONTRIBUTING.md's "
              "\"Target tests\" with the reason")
        failed = True
    for path in sorted(allowed):
        if path not in found:
            print(f"FAIL: CONTRIBUTING.md allows `{path}` to name target ids, and it names none "
                  "(or is gone): take it off the list")
            failed = True

    recipe = section(doc, "Add a target")
    if recipe is None:
        print("FAIL: CONTRIBUTING.md has no \"Add a target\" recipe")
        return 1
    named = []
    for name in re.findall(r"`([^` ]+)`", recipe):
        if not re.match(r"^(src|include|tools|tests|docs|js|man)/", name):
            continue
        if "<" in name:  # the new format's folder: src/code/<format>/
            key = "src/code/<format>/"
            if not name.startswith(key):
                print(f"FAIL: the recipe names `{name}`; only the new format's folder "
                      "src/code/<format>/ may be a pattern")
                failed = True
        else:
            key = name.rstrip("/")
            if not os.path.exists(os.path.join(root, key)):
                print(f"FAIL: the \"Add a target\" recipe names `{name}`, which does not exist")
                failed = True
        if key not in named:
            named.append(key)
    if len(named) > MAX_RECIPE_FILES:
        print(f"FAIL: the \"Add a target\" recipe touches {len(named)} files, more than "
              f"{MAX_RECIPE_FILES}: {', '.join(named)}")
        failed = True
    if not failed:
        print(f"target ids named only in src/code/<format>/ and {len(allowed)} allowed files; "
              f"the add-a-target recipe touches {len(named)} files")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
