#!/usr/bin/env python3
"""reserved_names.py - the names of a row's reserved spaces and bindings defined once.

    reserved_names.py REPO_ROOT

The numbers a parameter row's `space` and `binding` reserve (DGPB_SPACE_<ID> and
DGPB_BINDING_<ID> of include/dgpb/format.h) are spelled by every listing as the
DGPB_RESERVED rows of include/dgpb/vocabulary.def name them (docs/format.md, "What the
reader checks"). The test fails when
  * a reserved number of format.h has no DGPB_RESERVED row, or a row names a number
    format.h does not define;
  * a C file of src/, tools/ or include/ spells a reserved space's name as a string
    literal of its own ("launch", "pipeline_constant"), where it should ask
    dgpb_space_name() (comments aside);
  * a C file of tools/ prints a reserved binding's name itself: a string literal that is
    a binding's name in a file that reads DGPB_BINDING_<ID> (dgpb_binding_name()).
"""
import os
import re
import sys


def strip_comments(text):
    """C text without its comments; strings kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def c_files(root, folders):
    for folder in folders:
        for base, dirs, files in os.walk(os.path.join(root, folder)):
            dirs[:] = [d for d in dirs if d not in ("node_modules",)]
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(base, f)


def main():
    if len(sys.argv) != 2:
        print("usage: reserved_names.py REPO_ROOT", file=sys.stderr)
        return 2
    root = sys.argv[1]
    vocabulary = strip_comments(
        open(os.path.join(root, "include", "dgpb", "vocabulary.def"), encoding="utf-8").read())
    format_h = open(os.path.join(root, "include", "dgpb", "format.h"), encoding="utf-8").read()
    rows = re.findall(r'^DGPB_RESERVED\((\w+), (\w+), "([^"]*)"\)', vocabulary, re.M)
    fails = []
    if not rows:
        fails.append("vocabulary.def has no DGPB_RESERVED rows")
    numbers = set(re.findall(r"^#define DGPB_(SPACE|BINDING)_(\w+) 0x[0-9A-Fa-f]+u?$", format_h,
                             re.M))
    named = {(field, ident) for field, ident, _ in rows}
    for field, ident in sorted(numbers - named):
        fails.append("format.h's DGPB_%s_%s has no DGPB_RESERVED row in vocabulary.def" %
                     (field, ident))
    for field, ident in sorted(named - numbers):
        fails.append("vocabulary.def's DGPB_RESERVED(%s, %s) names no number of format.h" %
                     (field, ident))
    space_names = [name for field, _, name in rows if field == "SPACE"]
    binding_names = [name for field, _, name in rows if field == "BINDING"]
    for path in c_files(root, ("src", "tools", "include")):
        rel = os.path.relpath(path, root)
        code = strip_comments(open(path, encoding="utf-8", errors="replace").read())
        for name in space_names:
            if '"%s"' % name in code:
                fails.append('%s spells the space "%s" itself: use dgpb_space_name()' %
                             (rel, name))
        if rel.startswith("tools" + os.sep) and "DGPB_BINDING_" in code:
            for name in binding_names:
                if '"%s"' % name in code:
                    fails.append('%s spells the binding "%s" itself: use dgpb_binding_name()' %
                                 (rel, name))
    for f in fails:
        print("FAIL: " + f)
    if not fails:
        print("ok: %d reserved numbers named once, in vocabulary.def (%s)" %
              (len(rows), ", ".join(name for _, _, name in rows)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
