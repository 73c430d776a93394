#!/usr/bin/env python3
"""vulkan_samples.py - dgpb-build on a real collection: the Slang shaders of
KhronosGroup/Vulkan-Samples (fixtures/vulkan-samples/, SOURCE.md there).

Each module (shaders/<sample>/slang/<name>.<stage>.slang, one entry point
`main` each) is built once, as a build system builds it:

    dgpb-build --targets spirv --slangc SLANGC -o WORK/dgpb/<sample> shaders/<sample>/slang/<file>

and compiled once more by the same embedded Slang compiler alone, the way the
samples' own build compiles it, as far as slangc-wasm takes slangc's options:

    slangc-wasm shaders/<sample>/slang/<file> -target spirv -entry main -o WORK/slangc/<sample>/<file>.spv

(the samples also pass `-profile spirv_1_4 -matrix-layout-column-major`;
--slangc-option adds them, and --dgpb-option dgpb-build's names for the same
settings, where the compiler takes them: the embedded one's sessions are
row-major only). With a native slangc, dgpb-build also records the layouts.
Both run in the collection's folder, so both name the module alike. Each module's outcome:

    built        both compile it, and dgpb-build writes its bundle (exit 0)
    refused      Slang compiles it, dgpb-build refuses it (exit 1): a gap of dgpb
    slang-error  Slang itself fails; dgpb-build fails too, exit 1, with Slang's
                 first error
    mismatch     any other pair: dgpb-build builds what Slang refuses, another
                 exit status, or Slang's error missing from dgpb-build's

with a cause: dgpb-build's first error (refused), Slang's (slang-error), what
disagreed (mismatch), `-` when built. The run prints the counts and the
causes grouped (names and numbers stripped), writes every module's outcome
to WORK/outcomes.json, and compares the outcomes with the expectations file
(default: vulkan_samples.expected beside this script), one line per module,
`PATH OUTCOME CAUSE`. Any difference, a module missing from the file or a
line for a module that is gone fails the run (exit 1) with the differing
lines; --update writes the file from this run instead.

    vulkan_samples.py [-j N] [--update] [--expected FILE] [--slangc-option ARG]...
                      [--dgpb-option ARG]... --dgpb-build PATH --slangc PATH
                      --work DIR COLLECTION_DIR [MODULE...]

Speed (docs/testing.md, "Where the time goes"): --serve CMD runs the
reference compiles on persistent workers of that command instead of one
slangc process per module, one worker per job slot: `slangc-wasm --serve`
for the embedded compiler, `dgpb-slang-layout --serve --slangc SLANGC` for
a native one (docs/layout.md, "The native worker": each job compiles
exactly as `SLANGC ARGS` would, in the collection's folder). And the
dgpb-build runs share one compile service of this run's own (its folder in
WORK, stopped at the end), as a build system's runs share the user's.

MODULE (paths relative to COLLECTION_DIR) limits the run to those modules
(and the comparison to their lines). Exit status: 0 every outcome as
expected (or the file updated), 1 a difference, 2 a usage or set-up error.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time

OUTCOMES = ("built", "refused", "slang-error", "mismatch")
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_EXPECTED = os.path.join(HERE, "vulkan_samples.expected")
TIMEOUT = 300  # seconds per command: only a hang reaches it

# The stage the samples' file names give (the entry's [shader("...")] attribute
# says the same; the samples' build passes no -stage).
STAGES = {"vert": "vertex", "frag": "fragment", "comp": "compute", "tesc": "hull",
          "tese": "domain", "geom": "geometry", "mesh": "mesh", "task": "amplification",
          "rgen": "raygeneration", "rchit": "closesthit", "rmiss": "miss",
          "rahit": "anyhit", "rint": "intersection", "rcall": "callable"}


def modules_of(root):
    shaders = os.path.join(root, "shaders")
    found = []
    for sample in sorted(os.listdir(shaders)):
        folder = os.path.join(shaders, sample, "slang")
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".slang"):
                found.append(f"shaders/{sample}/slang/{name}")
    return found


def run(argv, cwd, env):
    start = time.monotonic()
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=TIMEOUT)
        out, status = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as e:
        out = (e.output or b"").decode("utf-8", "replace") + f"\n(killed after {TIMEOUT} s)"
        status = -9
    return status, out, time.monotonic() - start


class Worker:
    """A persistent compiler speaking the job protocol: a JSON line of {"cwd", "args"} in,
    {"status", "diagnostics"} out (docs/slangc-wasm.md, docs/layout.md)."""

    def __init__(self, argv, env):
        self.p = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)

    def run(self, args, cwd):
        start = time.monotonic()
        try:
            self.p.stdin.write((json.dumps({"cwd": cwd, "args": args}) + "\n").encode())
            self.p.stdin.flush()
            line = self.p.stdout.readline()
            answer = json.loads(line)
            status, out = answer["status"], answer.get("diagnostics", "")
            if status not in (0, 1):  # a process run exits 255 for a module with errors, 1 here
                status = 1 if status == 255 else status
        except (OSError, ValueError, KeyError) as e:
            status, out = -1, f"(the reference worker failed: {e})"
        return status, out, time.monotonic() - start

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        self.p.wait()


def first_error(text, module):
    """The first error line, the module's path in front of it removed; a line
    that ends with ':' (dgpb-build's "the module does not compile:") takes the
    next line, which says why."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.search(r"\berror\b( \d+)?:", line):
            if line.startswith(module):
                line = line[len(module):].lstrip(": ")
            if line.startswith("error: "):
                line = line[len("error: "):]
            if line.endswith(":") and i + 1 < len(lines) and lines[i + 1].strip():
                nxt = lines[i + 1].strip()
                if nxt.startswith(module):
                    nxt = nxt[len(module):]
                line += " " + nxt
            return line.strip()
    return ""


def strip_names(cause):
    """A cause with what names one module's case taken out, for grouping: quoted
    names, the type a parameter's message starts with and its rewrite names,
    SPIR-V capabilities, numbers."""
    cause = re.sub(r"'[^'\s]*'", "'_'", cause)
    cause = re.sub(r'"[^"\s]*"', '"_"', cause)
    cause = re.sub(r"(': )\S+( is )", r"\1T\2", cause)
    cause = re.sub(r"(declare an? )\S+( and )", r"\1T\2", cause)
    cause = re.sub(r"(Capability )\w+", r"\1_", cause)
    return re.sub(r"\b\d+\b", "N", cause)


def one_line(text):
    return re.sub(r"\s+", " ", text).strip()


def check(module, args, env):
    sample = module.split("/")[1]
    stem = os.path.basename(module)[: -len(".slang")]
    ext = stem.rsplit(".", 1)[-1] if "." in stem else ""
    dgpb_out = os.path.join(args.work, "dgpb", sample)
    spv_dir = os.path.join(args.work, "slangc", sample)
    os.makedirs(spv_dir, exist_ok=True)
    d_status, d_text, d_time = run([args.dgpb_build, "--targets", "spirv", "--slangc", args.slangc]
                                   + args.dgpb_options + ["-o", dgpb_out, module], args.collection, env)
    s_args = [module] + args.slangc_options + ["-target", "spirv", "-o",
                                               os.path.join(spv_dir, stem + ".spv"), "-entry", "main"]
    if args.serve:
        s_status, s_text, s_time = args.worker().run(s_args, args.collection)
    else:
        s_status, s_text, s_time = run([args.slangc] + s_args, args.collection, env)
    d_error = one_line(first_error(d_text, module))
    s_error = one_line(first_error(s_text, module))
    if s_status == 0 and d_status == 0:
        outcome, cause = "built", "-"
    elif s_status == 0 and d_status == 1:
        outcome, cause = "refused", d_error or "(no error line)"
    elif s_status == 1 and d_status == 1 and s_error and s_error in one_line(d_text):
        outcome, cause = "slang-error", s_error
    elif s_status == 0:
        outcome, cause = "mismatch", f"slang compiles it; dgpb-build exit {d_status}: {d_error or '(no error line)'}"
    elif d_status == 0:
        outcome, cause = "mismatch", f"dgpb-build builds it; slang exit {s_status}: {s_error or '(no error line)'}"
    else:
        outcome, cause = "mismatch", (f"slang exit {s_status}: {s_error or '(no error line)'}; "
                                      f"dgpb-build exit {d_status} without it: {d_error or '(no error line)'}")
    for path in (os.path.abspath(args.work), os.path.abspath(args.collection)):
        cause = cause.replace(path + "/", "").replace(path, ".")
    return {"module": module, "stage": STAGES.get(ext, ""), "outcome": outcome, "cause": cause,
            "dgpb_status": d_status, "dgpb_error": d_error, "dgpb_seconds": round(d_time, 3),
            "slangc_status": s_status, "slangc_error": s_error, "slangc_seconds": round(s_time, 3)}


def read_expected(path):
    expected = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(" ", 2)
            if len(parts) != 3 or parts[1] not in OUTCOMES:
                raise ValueError(f"{path}:{number}: not 'PATH OUTCOME CAUSE': {line}")
            expected[parts[0]] = line
    return expected


def line_of(result):
    return f"{result['module']} {result['outcome']} {result['cause']}"


def write_expected(path, results):
    with open(path, "w", encoding="utf-8") as f:
        f.write("# The outcome of every fixtures/vulkan-samples module (tests/collection/vulkan_samples.py):\n"
                "# PATH OUTCOME CAUSE; OUTCOME is built, refused, slang-error or mismatch, CAUSE\n"
                "# dgpb-build's first error (refused), Slang's (slang-error), what disagreed\n"
                "# (mismatch), - when built. Regenerate with --update (docs/testing.md, \"A real collection\").\n")
        for r in results:
            f.write(line_of(r) + "\n")


def summary(results, seconds, jobs):
    counts = {o: sum(1 for r in results if r["outcome"] == o) for o in OUTCOMES}
    d_total = sum(r["dgpb_seconds"] for r in results)
    s_total = sum(r["slangc_seconds"] for r in results)
    print(f"vulkan-samples: {len(results)} modules, dgpb-build --targets spirv, -j{jobs}, {seconds:.1f} s")
    print(f"  time, summed over modules: dgpb-build {d_total:.1f} s (one per module), "
          f"slangc {s_total:.1f} s (one per stage)")
    print(f"  {'outcome':<12} {'count':>5}")
    for o in OUTCOMES:
        print(f"  {o:<12} {counts[o]:>5}")
    for outcome, title in (("refused", "refusal causes (dgpb-build's first error, names and numbers stripped)"),
                           ("slang-error", "Slang's errors (names and numbers stripped)"),
                           ("mismatch", "mismatches")):
        groups = {}
        for r in results:
            if r["outcome"] == outcome:
                key = strip_names(r["cause"])
                groups.setdefault(key, []).append(r)
        if not groups:
            continue
        print(f"{title}:")
        print(f"  {'count':>5}  cause  [stages]")
        for key, rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            stages = sorted({r["stage"] or "?" for r in rs})
            print(f"  {len(rs):>5}  {key}  [{', '.join(stages)}]")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("collection", help="the collection's folder (fixtures/vulkan-samples)")
    ap.add_argument("modules", nargs="*", help="only these modules, relative to the collection")
    ap.add_argument("--dgpb-build", required=True)
    ap.add_argument("--slangc", required=True, help="the embedded compiler, tools/slangc-wasm/slangc-wasm, or a native slangc")
    ap.add_argument("--work", required=True, help="a folder of this run's own (emptied first)")
    ap.add_argument("--expected", default=DEFAULT_EXPECTED)
    ap.add_argument("--update", action="store_true", help="write the expectations from this run")
    ap.add_argument("-j", type=int, default=2, dest="jobs", help="modules at once (default 2)")
    ap.add_argument("--slangc-option", action="append", default=[], dest="slangc_options",
                    metavar="ARG", help="one more argument of every slangc compile (repeat it), as the "
                    "samples' own build passes -profile spirv_1_4 -matrix-layout-column-major")
    ap.add_argument("--dgpb-option", action="append", default=[], dest="dgpb_options", metavar="ARG",
                    help="one more argument of every dgpb-build (repeat it): dgpb's names of the same options")
    ap.add_argument("--serve", metavar="CMD",
                    help="run the reference compiles on persistent workers of this command line "
                    "(slangc-wasm --serve; dgpb-slang-layout --serve --slangc SLANGC)")
    args = ap.parse_args()
    if args.jobs < 1:
        ap.error("-j must be at least 1")
    args.dgpb_build = os.path.abspath(args.dgpb_build)
    args.slangc = os.path.abspath(args.slangc)
    args.collection = os.path.abspath(args.collection)
    args.work = os.path.abspath(args.work)

    every = modules_of(args.collection)
    if not every:
        print(f"error: no shaders/*/slang/*.slang under {args.collection}", file=sys.stderr)
        return 2
    chosen = args.modules or every
    unknown = [m for m in chosen if m not in every]
    if unknown:
        print(f"error: not a module of the collection: {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.update and args.modules:
        print("error: --update writes every module's line: give no MODULE", file=sys.stderr)
        return 2

    args.chosen, args.every = chosen, every
    # The dgpb-build runs share one compile service of this run's own, stopped at the end.
    service_dir = os.path.join(args.work, "service")
    shutil.rmtree(service_dir, ignore_errors=True)
    os.makedirs(service_dir, mode=0o700)
    env = dict(os.environ, DGPB_NO_CACHE="1", DGPB_SERVICE="auto", DGPB_SERVICE_DIR=service_dir)
    try:
        return run_all(args, env)
    finally:
        subprocess.run([args.dgpb_build, "--service-stop"], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)


def run_all(args, env):
    chosen, every = args.chosen, args.every
    status, text, _ = run([args.slangc, "-v"], args.collection, env)
    if status != 0:
        print(f"error: the compiler {args.slangc} does not run (exit {status}): {one_line(text)}\n"
              "  (npm ci --prefix tools/slangc-wasm; tools/setup.sh does it)", file=sys.stderr)
        return 2

    for sub in ("dgpb", "slangc"):
        shutil.rmtree(os.path.join(args.work, sub), ignore_errors=True)
    os.makedirs(args.work, exist_ok=True)
    workers, local = [], threading.local()
    lock = threading.Lock()

    def worker():  # this thread's reference worker, started on first use
        if not hasattr(local, "worker"):
            local.worker = Worker(shlex.split(args.serve), env)
            with lock:
                workers.append(local.worker)
        return local.worker
    args.worker = worker
    start = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda m: check(m, args, env), chosen))
    finally:
        for w in workers:
            w.close()
    seconds = time.monotonic() - start

    outcomes = os.path.join(args.work, "outcomes.json")
    with open(outcomes, "w", encoding="utf-8") as f:
        json.dump({"collection": args.collection, "seconds": round(seconds, 1), "jobs": args.jobs,
                   "modules": results}, f, indent=2)
        f.write("\n")
    summary(results, seconds, args.jobs)
    print(f"outcomes: {outcomes}")

    if args.update:
        write_expected(args.expected, results)
        print(f"wrote {args.expected}")
        return 0
    try:
        expected = read_expected(args.expected)
    except (OSError, ValueError) as e:
        print(f"FAIL: the expectations cannot be read: {e}")
        return 1
    differ = []
    for r in results:
        want = expected.get(r["module"])
        if want != line_of(r):
            differ.append(("expected: " + want if want else "expected: (no line)") + "\n     got: " + line_of(r))
    if not args.modules:
        for m in sorted(set(expected) - set(every)):
            differ.append(f"expected: {expected[m]}\n     got: (no such module)")
    if differ:
        print(f"FAIL: {len(differ)} of {len(results)} modules differ from {args.expected}:")
        for d in differ:
            print("  " + d.replace("\n", "\n  "))
        cmd = [sys.executable, os.path.abspath(__file__), "--update", "--dgpb-build", args.dgpb_build,
               "--slangc", args.slangc, "--work", args.work, "-j", str(args.jobs)]
        if args.expected != DEFAULT_EXPECTED:
            cmd += ["--expected", args.expected]
        cmd += [f"--slangc-option={o}" for o in args.slangc_options]
        cmd += [f"--dgpb-option={o}" for o in args.dgpb_options]
        if args.serve:
            cmd += ["--serve", args.serve]
        cmd.append(args.collection)
        print("If the new outcomes are right (a gap closed, a new Slang), regenerate the file and review its diff:\n  "
              + " ".join(shlex.quote(c) for c in cmd))
        return 1
    print(f"every outcome as {args.expected} expects")
    return 0


if __name__ == "__main__":
    sys.exit(main())
