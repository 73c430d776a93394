#!/usr/bin/env python3
"""worker_checked.py - one parse per module on the native worker
(recorder/worker_checked.h, docs/layout.md "One parse per module").

    worker_checked.py DGPB_SLANG_LAYOUT LIBSLANG

Drives `dgpb-slang-layout --serve` as dgpb-build does: a discovery of a
module (through a wrapper that includes it, as dgpb-build's discovery module
does) asked to keep what it checked ("keep": true), then compiles of its
entries that name that discovery ("checked_as"). Each case compares what the
worker wrote with what the same compile writes on a worker that keeps
nothing, byte for byte, and reads the answer's "checked" to know which way
it went:

  - both entries come from the kept module ("checked": true), their SPIR-V
    and layouts identical to plain compiles', their depfiles naming the
    module and its include but not the wrapper; so does a layout job of
    both entries, identical to a plain recording;
  - an include edited after the discovery: the kept module is not used, and
    the code is the edited text's;
  - other options (row-major matrices), debug information (-g): not used;
  - an entry the module lacks: not used, and the answer is a plain
    compile's, status and diagnostics;
  - a module with a warning: nothing kept (the warning would be lost);
  - nothing kept yet: the first compile is a plain one and is kept, the
    next one comes from it;
  - five modules kept: the first is gone (at most four are kept).

Exit status 0 when every case holds, 1 otherwise (each failure printed),
2 for a usage error.
"""

import json
import os
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


class Worker:
    def __init__(self, tool, lib, cwd):
        self.p = subprocess.Popen([tool, "--serve", "--slang-lib", lib], cwd=cwd,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def job(self, j):
        self.p.stdin.write(json.dumps(j) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if not line:
            raise SystemExit("FAIL the worker ended")
        return json.loads(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    tool, lib = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    d = tempfile.mkdtemp(prefix="worker-checked-")
    module = os.path.join(d, "m.slang")
    header = os.path.join(d, "h.slang")
    with open(module, "w") as f:
        f.write('#include "h.slang"\n'
                "RWStructuredBuffer<float> outA;\n"
                "uniform float4x4 m;\n"
                '[shader("compute")][numthreads(4, 1, 1)]\n'
                "void a(uint3 id : SV_DispatchThreadID) { outA[id.x] = helper(float(id.x)) + m[1][0]; }\n"
                '[shader("compute")][numthreads(8, 1, 1)]\n'
                "void b(uint3 id : SV_DispatchThreadID) { outA[id.x] = helper(2.0); }\n")
    with open(header, "w") as f:
        f.write("float helper(float v) { return v * 3.0; }\n")

    def wrapper(path, name):
        w = os.path.join(d, name)
        with open(w, "w") as f:
            f.write('#include "%s"\n[shader("compute")]\n[numthreads(1, 1, 1)]\nvoid anchor_() {}\n'
                    % path)
        return w

    options = ["-matrix-layout-column-major", "-target", "spirv"]

    def discovery(path, name="discover.slang"):
        return [wrapper(path, name), "-I", d, "-DDREAM_TARGET_SPIRV"] + options + [
            "-skip-codegen", "-reflection-json", os.path.join(d, "d.json"),
            "-depfile", os.path.join(d, "d.d")]

    def compile_args(entry, tag, path=module, extra=()):
        return [path, "-DDREAM_TARGET_SPIRV", "-DDREAM_SHADER_" + entry.upper()] + options + \
            list(extra) + ["-entry", entry, "-stage", "compute",
                           "-o", os.path.join(d, tag + ".spv"),
                           "-reflection-json", os.path.join(d, tag + ".json"),
                           "-depfile", os.path.join(d, tag + ".d")]

    def compile_job(entry, tag, checked_as=None, path=module, extra=()):
        j = {"compile": compile_args(entry, tag, path, extra),
             "layout_output": os.path.join(d, tag + ".layout")}
        if checked_as:
            j["checked_as"] = checked_as
        return j

    plain = Worker(tool, lib, d)   # keeps nothing: the reference
    shared = Worker(tool, lib, d)
    try:
        disc = discovery(module)
        r = shared.job({"args": disc, "keep": True})
        check(r["status"] == 0 and r.get("checked") is None and r["diagnostics"] == "", "the discovery compiles: " + r["diagnostics"][:300])
        for entry in ("a", "b"):
            r = shared.job(compile_job(entry, "s" + entry, disc))
            p = plain.job(compile_job(entry, "p" + entry))
            check(r["status"] == 0 and r.get("checked") is True and r["diagnostics"] == "",
                  f"entry {entry} comes from the kept module")
            check(p.get("checked") is None, f"entry {entry} compiled plainly on the other worker")
            for ext in ("spv", "layout"):
                check(read(os.path.join(d, f"s{entry}.{ext}")) == read(os.path.join(d, f"p{entry}.{ext}")),
                      f"entry {entry}: its {ext} is a plain compile's, byte for byte")
            dep = read(os.path.join(d, f"s{entry}.d")).decode()
            check("m.slang" in dep and "h.slang" in dep and "discover.slang" not in dep,
                  f"entry {entry}: its depfile names the module and its include, not the wrapper")

        # the group's layout, both entries, from the kept module
        lay = [module, "-DDREAM_TARGET_SPIRV"] + options + [
            "-entry", "a", "-stage", "compute", "-entry", "b", "-stage", "compute"]
        r = shared.job({"layout": lay + ["-o", os.path.join(d, "sg.layout")], "checked_as": disc})
        p = plain.job({"layout": lay + ["-o", os.path.join(d, "pg.layout")]})
        check(r["status"] == 0 and r.get("checked") is True, "a layout job comes from the kept module")
        check(p["status"] == 0 and read(os.path.join(d, "sg.layout")) == read(os.path.join(d, "pg.layout")),
              "the layout of two entries is a plain recording's, byte for byte")

        # an include edited after the discovery
        before = read(os.path.join(d, "sa.spv"))
        with open(header, "w") as f:
            f.write("float helper(float v) { return v * 5.0; }\n")
        r = shared.job(compile_job("a", "sa", disc))
        p = plain.job(compile_job("a", "pa"))
        check(r["status"] == 0 and r.get("checked") is None,
              "an edited include: the kept module is not used")
        check(read(os.path.join(d, "sa.spv")) == read(os.path.join(d, "pa.spv")) != before,
              "an edited include: the code is the edited text's")

        # other options, debug information
        r = shared.job({"args": discovery(module), "keep": True})
        for extra, what in ((["-matrix-layout-row-major"], "other options"), (["-g"], "debug information")):
            r = shared.job(compile_job("a", "sa", disc, extra=extra))
            p = plain.job(compile_job("a", "pa", extra=extra))
            check(r["status"] == 0 and r.get("checked") is None, f"{what}: the kept module is not used")
            check(read(os.path.join(d, "sa.spv")) == read(os.path.join(d, "pa.spv")),
                  f"{what}: the code is a plain compile's")
        r = shared.job(compile_job("a", "sa", disc))
        check(r.get("checked") is True, "the kept module is still there for the same options")

        # an entry the module lacks
        r = shared.job(compile_job("missing", "sm", disc))
        p = plain.job(compile_job("missing", "pm"))
        check(r.get("checked") is None and r["status"] == p["status"] != 0 and
              r["diagnostics"] == p["diagnostics"],
              "an entry the module lacks: a plain compile's answer")

        # a module with a warning keeps nothing
        warned = os.path.join(d, "w.slang")
        with open(warned, "w") as f:
            f.write('[shader("compute")][numthreads(1, 1, 1)]\n'
                    "void k() { int x = 1.5; }\n")
        wdisc = discovery(warned, "discover-w.slang")
        r = shared.job({"args": wdisc, "keep": True})
        check(r["status"] == 0 and "E30081" in r["diagnostics"], "the warned module warns")
        r = shared.job(compile_job("k", "sk", wdisc, path=warned))
        p = plain.job(compile_job("k", "pk", path=warned))
        check(r.get("checked") is None and r["diagnostics"] == p["diagnostics"] != "",
              "a module with a warning: nothing kept, the warning given again")

        # nothing kept yet: the first compile is kept for the next
        fresh = Worker(tool, lib, d)
        r1 = fresh.job(compile_job("a", "fa", disc))
        r2 = fresh.job(compile_job("b", "fb", disc))
        plain.job(compile_job("b", "pb"))
        check(r1.get("checked") is None and r2.get("checked") is True,
              "nothing kept: the first compile is plain and kept, the second comes from it")
        check(read(os.path.join(d, "fb.spv")) == read(os.path.join(d, "pb.spv")),
              "the second compile's code is a plain compile's")
        fresh.close()

        # at most four kept
        discs = []
        for i in range(5):
            copy = os.path.join(d, f"m{i}.slang")
            with open(copy, "w") as f, open(module) as src:
                f.write(src.read())
            discs.append((copy, discovery(copy, f"discover-{i}.slang")))
            shared.job({"args": discs[-1][1], "keep": True})
        r_first = shared.job(compile_job("a", "x0", discs[0][1], path=discs[0][0]))
        r_last = shared.job(compile_job("a", "x4", discs[4][1], path=discs[4][0]))
        check(r_first.get("checked") is None and r_last.get("checked") is True,
              "five modules kept: the first is gone, the last is there")
    finally:
        plain.close()
        shared.close()
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
