#!/usr/bin/env python3
"""check_questions.py ASKED... LAYOUT_MD - the questions docs/layout.md says slang-rhi asks
(the first column of the table between `<!-- slang-rhi questions -->` and
`<!-- end slang-rhi questions -->`, each name in backquotes) are exactly those the
shim logged during the slang-rhi runs (the union of the ASKED files, one name a
line): a question asked but not documented, or documented but not asked, fails
with its name.
"""
import re
import sys


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    asked = set()
    for path in sys.argv[1:-1]:
        asked.update(line.strip() for line in open(path, encoding="utf-8") if line.strip())
    text = open(sys.argv[-1], encoding="utf-8").read()
    m = re.search(r"<!-- slang-rhi questions -->(.*?)<!-- end slang-rhi questions -->", text, re.S)
    if not m:
        print(f"FAIL: {sys.argv[-1]} has no <!-- slang-rhi questions --> table")
        return 1
    documented = set()
    for line in m.group(1).splitlines():
        cells = line.split("|")
        if len(cells) > 2:
            documented.update(re.findall(r"`([^`]+)`", cells[1]))
    failed = False
    for name in sorted(asked - documented):
        print(f"FAIL: slang-rhi asked `{name}`, which docs/layout.md does not list")
        failed = True
    for name in sorted(documented - asked):
        print(f"FAIL: docs/layout.md lists `{name}`, which slang-rhi did not ask")
        failed = True
    if not asked:
        print("FAIL: the run logged no question (was DGPB_SHIM_LOG honoured?)")
        failed = True
    print(f"{len(asked)} questions asked, {len(documented)} documented")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
