#!/usr/bin/env python3
"""exit_statuses_agree.py - every place that lists a tool's exit statuses says the same.

The exit statuses of dgpb-build, dgpb-dump, dgpb-run and dgpb-slang-layout are
rows of include/dgpb/vocabulary.def; each tool's --help expands them. This
test holds the copies that cannot expand them to the --help text:

  * man/<tool>.1, section EXIT STATUS: the same codes, in the same order, each
    with the same meaning (roff markup, capitals and the full stop aside);
  * the tool's page in docs/ (a "| status | meaning |" or "| exit | meaning |"
    table): the same codes and meanings;
  * docs/design.md, section 7: the tool's column names the same codes;
  * README.md: the summary that ends "(`<tool> --help`" names the same codes.

    exit_statuses_agree.py SOURCE_DIR DGPB-BUILD DGPB-DUMP DGPB-RUN DGPB-SLANG-LAYOUT

Exit status 0 when every place agrees, 1 with one line per disagreement, 2 on
a usage error.
"""

import os
import re
import subprocess
import sys

# Where each tool's statuses are documented besides --help and its man page.
DOC_PAGE = {
    "dgpb-build": "docs/build.md",
    "dgpb-dump": None,  # the README summary and design.md's table
    "dgpb-run": "docs/run.md",
    "dgpb-slang-layout": "docs/layout.md",
}
IN_README = {"dgpb-build", "dgpb-dump", "dgpb-run"}

failures = []


def fail(where, message):
    failures.append(f"{where}: {message}")


def norm_code(code):
    return re.sub(r"\s+", "", code)


def norm_meaning(text):
    """The words of a meaning: markup, spacing, a leading capital and a final full stop aside."""
    text = text.replace("**", "").replace("`", "")
    text = re.sub(r"\s+", " ", text).strip().rstrip(".")
    return text[:1].lower() + text[1:]


def help_statuses(tool, path):
    """[(code, meaning)] from the "Exit status:" list of `tool --help`."""
    out = subprocess.run([path, "--help"], capture_output=True, text=True, check=False).stdout
    lines = out.split("\n")
    if "Exit status:" not in lines:
        fail(f"{tool} --help", "no 'Exit status:' list")
        return []
    rows = []
    for line in lines[lines.index("Exit status:") + 1:]:
        m = re.match(r"^  (\S+)  (\S.*)$", line)
        if m:
            rows.append([m.group(1), m.group(2)])
        elif rows and re.match(r"^     \S", line):
            rows[-1][1] += " " + line.strip()
        else:
            break
    return [(norm_code(c), norm_meaning(t)) for c, t in rows]


def roff_args(text):
    return [a or b for a, b in re.findall(r'"([^"]*)"|(\S+)', text)]


def roff_text(lines):
    """The text of roff lines: font requests joined as troff would set them, escapes resolved."""
    words = []
    for line in lines:
        if line.startswith("."):
            request, _, rest = line[1:].partition(" ")
            if request in ("B", "I", "SM", "SB"):
                words.append(" ".join(roff_args(rest)))
            elif request in ("BR", "RB", "BI", "IB", "RI", "IR"):
                words.append("".join(roff_args(rest)))
        else:
            words.append(line)
    text = " ".join(words)
    text = re.sub(r"\\f[BIRP]", "", text)
    return text.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "").replace("\\(em", "\u2014")


def man_statuses(tool, path):
    """[(code, meaning)] from the .TP list of the man page's EXIT STATUS section."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        start = lines.index(".SH EXIT STATUS")
    except ValueError:
        fail(path, "no EXIT STATUS section")
        return []
    rows = []
    i = start + 1
    while i < len(lines) and not lines[i].startswith(".SH"):
        if lines[i] == ".TP" and i + 1 < len(lines):
            code = roff_text([lines[i + 1]])
            body = []
            i += 2
            while i < len(lines) and not re.match(r"^\.(TP|PP|P|LP|SH)\b", lines[i]):
                body.append(lines[i])
                i += 1
            rows.append((norm_code(code), norm_meaning(roff_text(body))))
        elif re.match(r"^\.(PP|P|LP)\b", lines[i]) and rows:
            break  # prose after the list
        else:
            i += 1
    return rows


def table_cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def doc_statuses(page, path):
    """[(code, meaning)] from the page's first "| status | meaning |" (or exit) table."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("|") and [c.lower() for c in table_cells(line)] in (
            ["status", "meaning"],
            ["exit", "meaning"],
        ):
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                cells = table_cells(row)
                rows.append((norm_code(cells[0]), norm_meaning(cells[1])))
            return rows
    fail(page, "no '| status | meaning |' table")
    return []


def design_codes(source, tool):
    """The codes docs/design.md's section 7 table fills in the tool's column."""
    path = os.path.join(source, "docs", "design.md")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## 7. Errors"):]
    section = section[: section.index("\n## ", 1)]
    lines = [l for l in section.split("\n") if l.startswith("|")]
    if not lines:
        fail("docs/design.md, section 7", "no table")
        return []
    header = table_cells(lines[0])
    if tool not in header:
        fail("docs/design.md, section 7", f"the table has no column for {tool}")
        return []
    column = header.index(tool)
    return [norm_code(cells[0]) for cells in map(table_cells, lines[2:]) if cells[column]]


def readme_codes(source, tool):
    """The codes of the README summary that ends with "(`<tool> --help`"."""
    with open(os.path.join(source, "README.md"), encoding="utf-8") as f:
        text = f.read()
    end = text.find(f"(`{tool} --help`")
    start = text.rfind("Exit status", 0, end)
    if end < 0 or start < 0:
        fail("README.md", f"no exit status summary ending with (`{tool} --help`")
        return []
    summary = text[start:end]
    return [norm_code(c) for c in re.findall(r"[:,]\s+(\d+(?:\s*\+\s*N)?)\s+(?=\S)", summary)]


def compare(tool, where, want, got):
    if [c for c, _ in want] != [c for c, _ in got]:
        fail(where, f"codes {[c for c, _ in got]}, but {tool} --help lists {[c for c, _ in want]}")
        return
    for (code, meaning), (_, other) in zip(want, got):
        if meaning != other:
            fail(where, f"status {code} says '{other}', but {tool} --help says '{meaning}'")


def main(argv):
    if len(argv) != 6:
        sys.stderr.write(__doc__.split("\n\n")[2] + "\n")
        return 2
    source = argv[1]
    binaries = dict(zip(DOC_PAGE, argv[2:]))
    for tool, binary in binaries.items():
        want = help_statuses(tool, binary)
        if not want:
            continue
        codes = [c for c, _ in want]
        man = os.path.join("man", f"{tool}.1")
        compare(tool, man, want, man_statuses(tool, os.path.join(source, man)))
        page = DOC_PAGE[tool]
        rows = doc_statuses(page, os.path.join(source, page)) if page else None
        if rows:
            compare(tool, page, want, rows)
        got = design_codes(source, tool)
        if got and got != codes:
            fail("docs/design.md, section 7", f"{tool}: codes {got}, but --help lists {codes}")
        if tool in IN_README:
            got = readme_codes(source, tool)
            if got and got != codes:
                fail("README.md", f"{tool}: codes {got}, but --help lists {codes}")
    for line in failures:
        print(line)
    if not failures:
        print(f"ok: the exit statuses of {', '.join(binaries)} agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
