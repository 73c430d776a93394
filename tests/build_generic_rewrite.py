#!/usr/bin/env python3
"""build_generic_rewrite.py - the rewrite dgpb-build suggests for a generic entry compiles.

    build_generic_rewrite.py DGPB_BUILD DGPB_DUMP FIXTURES

For each fixtures/plain/fail/generic_entry*.slang (docs/build.md, "Generic entry points"):
dgpb-build refuses the module (exit 1) with the rewrite, which this test applies as a user
would, word for word from the message: the attribute lists it names are taken off the
function (whose declaration must then read as the message shows it: generic parameters,
`where` clause, return type and semantic kept), and the suggested entry point is added at
the end. The module so rewritten must build, with the embedded compiler, for the fixture's
targets (`// dgpb-targets:`, else all), and its bundle must hold the suggested entry. No
suggestion may name MyType: each fixture has a struct that conforms.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(
    r"^(?P<file>\S+):(?P<line>\d+): error: entry '(?P<name>\w+)' is generic \(.*?\): .*? Take "
    r"(?P<attrs>.+?) off '(?P=name)', which stays a generic function that is no entry point:\n"
    r"    (?P<decl>.+)\n"
    r"and add one entry point per type it is used with, for example:\n"
    r"    (?P<entry_attrs>.+)\n"
    r"    (?P<entry>.+)$", re.M)
ATTRIBUTES_ONLY = re.compile(r"^\s*(\[[^\[\]]*(\[[^\[\]]*\][^\[\]]*)*\]\s*)+$")


def squeeze(text):
    return " ".join(text.split())


def build(tool, args, cwd):
    env = dict(os.environ, DGPB_NO_CACHE="1", DGPB_SERVICE="off")
    p = subprocess.run([tool, "--no-layouts"] + args, cwd=cwd, env=env, capture_output=True,
                       text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    if len(sys.argv) != 4:
        print("usage: build_generic_rewrite.py DGPB_BUILD DGPB_DUMP FIXTURES", file=sys.stderr)
        return 2
    tool, dump, fixtures = sys.argv[1:]
    plain = os.path.join(fixtures, "plain")
    modules = sorted(glob.glob(os.path.join(plain, "fail", "generic_entry*.slang")))
    if not modules:
        print("FAIL: no fixtures/plain/fail/generic_entry*.slang")
        return 1
    fails = []
    with tempfile.TemporaryDirectory() as work:
        for path in modules:
            stem = os.path.basename(path)[:-len(".slang")]
            text = open(path, encoding="utf-8").read()
            m = re.search(r"^// dgpb-targets: *(\S+)", "\n".join(text.split("\n")[:5]), re.M)
            targets = ["--targets", m.group(1)] if m else []
            status, out = build(tool, targets + ["-o", work, "fail/%s.slang" % stem], plain)
            blocks = list(BLOCK.finditer(out))
            if status != 1 or not blocks:
                fails.append("%s: exit %d, no suggested rewrite:\n%s" % (stem, status, out))
                continue
            lines = text.split("\n")
            added = []
            for b in blocks:
                if "MyType" in b.group("entry"):
                    fails.append("%s: the suggestion names MyType: %s" % (stem, b.group("entry")))
                # Take the named attribute lists off: the lines above the name's line that
                # hold attribute lists only.
                at = int(b.group("line")) - 2
                taken = []
                while at >= 0 and ATTRIBUTES_ONLY.match(lines[at]):
                    taken.insert(0, lines.pop(at).strip())
                    at -= 1
                if squeeze(" ".join(taken)) != squeeze(b.group("attrs")):
                    fails.append("%s: the message takes %r off, the module has %r above line %s"
                                 % (stem, b.group("attrs"), " ".join(taken), b.group("line")))
                added += [b.group("entry_attrs"), b.group("entry")]
            rewritten = "\n".join(lines)
            for b in blocks:
                if squeeze(b.group("decl")) not in squeeze(rewritten):
                    fails.append("%s: the function is not kept as the message shows it: %r"
                                 % (stem, b.group("decl")))
            rewritten += "\n" + "\n".join(added) + "\n"
            os.makedirs(os.path.join(work, "src"), exist_ok=True)
            module = os.path.join(work, "src", stem + ".slang")
            open(module, "w", encoding="utf-8").write(rewritten)
            out_dir = os.path.join(work, "out")
            status, out = build(tool, targets + ["-q", "-o", out_dir, module], work)
            if status != 0:
                fails.append("%s: the rewritten module does not build (exit %d):\n%s\n%s"
                             % (stem, status, out, rewritten))
                continue
            listing = subprocess.run([dump, os.path.join(out_dir, stem + ".dgpb")],
                                     capture_output=True, text=True).stdout
            for b in blocks:
                name = re.search(r"(\w+)\(", b.group("entry")).group(1)
                if "  entry %s (" % name not in listing:
                    fails.append("%s: no entry %s in the bundle:\n%s" % (stem, name, listing))
            print("ok: %s: the suggested rewrite builds (%s)" %
                  (stem, ", ".join(re.search(r"(\w+)\(", b.group("entry")).group(1)
                                   for b in blocks)))
    for f in fails:
        print("FAIL: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
