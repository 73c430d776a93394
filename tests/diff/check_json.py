#!/usr/bin/env python3
"""check_json.py DUMP BUNDLES - dgpb-dump --diff --json on each pair, parsed back.

Every pair of BUNDLES (tests/diff/modules built by build_pairs.sh) differs
from base in one way; the JSON must say which, where, and whether it breaks a
host's binding, with the exit status to match (docs/diff.md).
"""
import json
import subprocess
import sys

dump, bundles = sys.argv[1], sys.argv[2]
failures = []


def diff(old, new, status):
    run = subprocess.run([dump, "--diff", "--json", f"{bundles}/{old}", f"{bundles}/{new}"],
                         capture_output=True, text=True)
    if run.returncode != status:
        failures.append(f"{old} {new}: exit status {run.returncode}, expected {status}")
    result = json.loads(run.stdout)
    for key in ("equivalent", "breaking", "old", "new", "options", "targets", "summary"):
        if key not in result:
            failures.append(f"{old} {new}: no key '{key}'")
    return result


def changes(result, entry):
    """The change records of spirv/ENTRY."""
    (target,) = [t for t in result["targets"] if t["name"] == "spirv"]
    (e,) = [e for e in target["entries"] if e["name"] == entry]
    return e, e["changes"]


def check(name, cond):
    if not cond:
        failures.append(name)


r = diff("base.dgpb", "base.bundle.json", 0)
check("a bundle and its own view are equivalent", r["equivalent"] and r["targets"] == [])
check("summary of equivalent sides is all zero",
      r["summary"] == {"breaking": 0, "code_only": 0, "other": 0})
r = diff("base.dgpb", "again/base.dgpb", 0)
check("two builds of one module are equivalent", r["equivalent"] and not r["breaking"])

r = diff("base.dgpb", "binding_moved.dgpb", 1)
e, c = changes(r, "blur")
params = [x for x in c if x["what"] == "param"]
check("binding moved: one param change", len(params) == 1)
check("binding moved: row 2, field binding, 3 -> 4, breaking",
      params and params[0] == {"what": "param", "breaking": True, "change": "changed",
                               "name": "weights", "index": 2, "field": "binding", "old": 3,
                               "new": 4})
check("binding moved: the entry and the result are breaking", e["breaking"] and r["breaking"])

r = diff("base.dgpb", "param_added.dgpb", 1)
e, c = changes(r, "blur")
added = [x for x in c if x["what"] == "param"]
check("param added: one added row #4 'bias' with the row itself",
      len(added) == 1 and added[0]["change"] == "added" and added[0]["index"] == 4
      and added[0]["name"] == "bias" and added[0]["new"]["binding"] == 5
      and added[0]["breaking"])

r = diff("base.dgpb", "entry_added.dgpb", 1)
e, c = changes(r, "scale")
check("entry added: not breaking", e["change"] == "added" and not e["breaking"]
      and not r["breaking"] and r["summary"]["other"] == 1)
r = diff("entry_added.dgpb", "base.dgpb", 1)
e, c = changes(r, "scale")
check("entry removed: breaking", e["change"] == "removed" and e["breaking"] and r["breaking"])

r = diff("base.dgpb", "thread_group.dgpb", 1)
e, c = changes(r, "blur")
tgs = [x for x in c if x["what"] == "thread_group_size"]
check("thread group size: [64,1,1] -> [128,1,1], breaking",
      len(tgs) == 1 and tgs[0]["old"] == [64, 1, 1] and tgs[0]["new"] == [128, 1, 1]
      and tgs[0]["breaking"])

r = diff("base.dgpb", "capability.dgpb", 1)
e, c = changes(r, "blur")
caps = [x for x in c if x["what"] == "capability"]
check("capability gained: atomic64, breaking",
      caps == [{"what": "capability", "breaking": True, "change": "gained", "name": "atomic64"}])
r = diff("capability.dgpb", "base.dgpb", 1)
e, c = changes(r, "blur")
caps = [x for x in c if x["what"] == "capability"]
check("capability lost: not breaking", len(caps) == 1 and caps[0]["change"] == "lost"
      and not caps[0]["breaking"])

r = diff("base.dgpb", "code_only.dgpb", 1)
e, c = changes(r, "blur")
check("code only: one code change, not breaking",
      [x["what"] for x in c] == ["code"] and not c[0]["breaking"] and not r["breaking"]
      and not r["equivalent"])
check("code only: size_delta is new size - old size",
      c and c[0]["size_delta"] == c[0]["new"]["size"] - c[0]["old"]["size"])
check("code only: sha256 differs", c and c[0]["old"]["sha256"] != c[0]["new"]["sha256"])
check("code only: summary", r["summary"] == {"breaking": 0, "code_only": 1, "other": 0})
check("code only: copy unchanged", [x["name"] for x in r["targets"][0]["entries"]] == ["blur"])

for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print("ok: every pair's JSON says what changed")
