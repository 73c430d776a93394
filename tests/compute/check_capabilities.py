#!/usr/bin/env python3
"""check_capabilities.py BUNDLES MODULE... - the capabilities of the compute
suite's bundles (tests/compute/CMakeLists.txt), exactly as each module's
`//DGPB_CAPABILITIES: TARGET/ENTRY NAME...` lines say (no name: none).
Every module that has such lines is checked against BUNDLES/<stem>.bundle.json,
the JSON view dgpb-build wrote next to the bundle; a module without them is
not. Exits 1 naming each difference."""
import json
import os
import sys


def main():
    if len(sys.argv) < 3:
        print("usage: check_capabilities.py BUNDLES MODULE...", file=sys.stderr)
        return 2
    bundles, modules = sys.argv[1], sys.argv[2:]
    failures = checked = 0
    for module in modules:
        stem = os.path.splitext(os.path.basename(module))[0]
        want = {}
        with open(module, encoding="utf-8") as f:
            for line in f:
                if line.startswith("//DGPB_CAPABILITIES:"):
                    words = line.split(":", 1)[1].split()
                    want[words[0]] = words[1:]
        if not want:
            continue
        with open(os.path.join(bundles, stem + ".bundle.json"), encoding="utf-8") as f:
            view = json.load(f)
        have = {t["name"] + "/" + e["name"]: e["capabilities"]
                for t in view["targets"] for e in t["entries"]}
        for where, caps in sorted(want.items()):
            checked += 1
            if where not in have:
                print("%s: the bundle has no entry %s" % (stem, where))
                failures += 1
            elif have[where] != caps:
                print("%s: %s lists capabilities [%s], the module expects [%s]"
                      % (stem, where, ", ".join(have[where]), ", ".join(caps)))
                failures += 1
            else:
                print("%s: %s: [%s] ok" % (stem, where, ", ".join(caps)))
    if checked == 0:
        print("no module has a //DGPB_CAPABILITIES: line")
        return 1
    print("%d checked, %d wrong" % (checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
