#!/usr/bin/env python3
"""build_persistent_worker.py - `dgpb-build --persistent_worker` spoken to as Bazel does.

Bazel starts the worker as `dgpb-build STARTUP-ARGS... --persistent_worker`
and writes JSON work requests to its standard input (Bazel 4.2 pretty-prints
them over several lines), reading one JSON answer per request from its
standard output (docs/build.md, "Bazel's persistent worker"). With the real
embedded compiler:

  * a request that arrives in pieces of a few bytes, and two requests in
    one write with nothing between them, each framed and answered;
  * two requests on two modules: each answered exitCode 0, the bundles
    byte-identical to what plain `dgpb-build` runs write; the second request
    starts no worker (-v: its first batch of one job finds the two workers the
    first request started);
  * a request whose arguments come from a parameter file (@FILE);
  * a failing module: exitCode 1, Slang's diagnostic in "output";
  * a request with the wrong fields: exitCode 2 naming why, and the worker
    goes on; a requestId other than 0 answered with that id;
  * the project options per request: --matrix-layout column refused (the
    embedded compiler), --spirv-version 1.5 recorded in the view, and the
    next request without them builds without them;
  * nothing but answers on standard output; the end of input ends the worker
    with exit status 0;
  * input that is not JSON, text before an object, or input ending inside an
    object: exit status 2, a message on standard error, no answer;
  * SIGTERM during a request: the worker dies of it, unanswered, its build's
    outputs not written;
  * a requestId other than the decimal digits of an integer from 0 to
    2^31 - 1 ("8x", "", 1e3, 8.0, -1, 2^64, 08, true) answered with exitCode
    2 and requestId 0, never read as a number it begins with; the worker goes
    on;
  * @/dev/stdin, a FIFO, a folder or /dev/zero in a request refused with
    exitCode 2 (only a regular file is a parameter file), and the next
    request answered: standard input stays the worker's;
  * a 28 MiB request of 4.9 million short arguments answered, the worker's
    peak memory a small multiple of the request's size (its text and one
    pointer an argument: no node per value).

    build_persistent_worker.py DGPB-BUILD
"""

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

BUILD = os.path.abspath(sys.argv[1])
STARTUP = ["--no-cache", "--no-layouts", "--targets", "spirv", "-j", "2"]


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def module(names, scale):
    text = ""
    for n in names:
        text += (f"RWStructuredBuffer<float> {n}_data;\n[shader(\"compute\")]\n[numthreads(64, 1, 1)]\n"
                 f"void {n}(uint3 id : SV_DispatchThreadID)\n{{\n    {n}_data[id.x] *= {scale};\n}}\n")
    return text


class Worker:
    def __init__(self, cwd, startup=STARTUP):
        # Under AddressSanitizer, freed blocks wait in its quarantine (up to 256 MiB), resident:
        # without it the peak resident memory measured below is the worker's own again.
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "quarantine_size_mb=0"]))
        self.p = subprocess.Popen([BUILD] + startup + ["--persistent_worker"], cwd=cwd,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=env)
        self.buf = b""

    def send(self, text, chunk=0):
        """Writes requests as given (text), in pieces of `chunk` bytes (0: at once)."""
        data = text.encode()
        step = chunk or len(data)
        for i in range(0, len(data), step):
            self.p.stdin.write(data[i:i + step])
            self.p.stdin.flush()
            if chunk:
                time.sleep(0.002)

    def answer(self, asked):
        # Read with a guard against a worker that never answers (a request that swallowed
        # standard input): not a measure of speed.
        fd = self.p.stdout.fileno()
        while b"\n" not in self.buf:
            ready, _, _ = select.select([fd], [], [], 240)
            if not ready:
                self.p.kill()
                fail(f"no answer to {asked[:200]!r} within 240 s: the worker hangs")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                fail(f"no answer to {asked[:200]!r}; worker log: {self.p.stderr.read().decode()}")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            fail(f"an answer that is not JSON: {line!r}")

    def ask(self, text, chunk=0):
        """Writes one request and reads one answer line."""
        self.send(text, chunk)
        return self.answer(text)

    def finish(self, rest=b""):
        out, err = self.p.communicate(rest, timeout=120)
        return self.p.returncode, (self.buf + out).decode(), err.decode()


def pretty(request):
    """As Bazel 4.2 writes a request: pretty-printed, several lines."""
    return json.dumps(request, indent=2) + "\n"


def main():
    with tempfile.TemporaryDirectory() as work:
        def write(name, text):
            with open(os.path.join(work, name), "w") as f:
                f.write(text)

        write("a.slang", module(["a1", "a2"], 2.0))
        write("c.slang", module(["c1"], 3.0))
        write("b.slang", "RWStructuredBuffer<float> d;\n[shader(\"compute\")]\n[numthreads(4, 1, 1)]\n"
                         "void k(uint3 i : SV_DispatchThreadID) { d[i.x] = undefined_thing; }\n")
        write("c.params", "-v\n-o\nw\nc.slang\n")
        for m in ("a", "c"):
            r = subprocess.run([BUILD] + STARTUP + ["-q", "-o", "ref", f"{m}.slang"], cwd=work,
                               capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"plain dgpb-build of {m}.slang: {r.stderr}")

        w = Worker(work)
        # Inputs with braces and quotes inside strings: the framing must not count them.
        # In pieces of 7 bytes: a request may arrive over many reads.
        first = w.ask(pretty({"arguments": ["-v", "-o", "w", "a.slang"],
                              "inputs": [{"path": "a.slang", "digest": "}{\"]["}],
                              "requestId": 0}), chunk=7)
        if first.get("exitCode") != 0 or first.get("requestId") != 0:
            fail(f"the first request: {first}")
        if "2 jobs, 2 at once (-j 2); 2 compiler workers started so far" not in first["output"]:
            fail(f"the first request did not start 2 workers: {first['output']}")
        second = w.ask(json.dumps({"arguments": ["@c.params"]}) + "\n")
        if second.get("exitCode") != 0:
            fail(f"the second request (@c.params): {second}")
        if "c.slang: note: 1 job, 1 at once (-j 2); 2 compiler workers started so far" not in second["output"]:
            fail(f"the second request started a worker of its own: {second['output']}")
        for m in ("a", "c"):
            for ext in ("dgpb", "bundle.json"):
                with open(os.path.join(work, "ref", f"{m}.{ext}"), "rb") as f:
                    ref = f.read()
                with open(os.path.join(work, "w", f"{m}.{ext}"), "rb") as f:
                    if f.read() != ref:
                        fail(f"w/{m}.{ext} differs from plain dgpb-build's")
        print("ok: two requests, two modules, byte-identical bundles; the second started no worker")

        broken = w.ask(pretty({"arguments": ["-o", "w", "b.slang"]}))
        if broken.get("exitCode") != 1 or "undefined identifier 'undefined_thing'" not in broken["output"]:
            fail(f"the failing module: {broken}")
        if os.path.exists(os.path.join(work, "w", "b.dgpb")):
            fail("the failing module was written")
        print("ok: a failing module: exitCode 1 with Slang's diagnostic")

        # Two requests in one write, nothing between them: two answers, in order.
        two = '{"arguments": "a.slang", "requestId": 5}{"arguments": ["--frobnicate", "a.slang"], "requestId": 6}'
        w.send(two)
        wrong = w.answer(two)
        if wrong.get("exitCode") != 2 or wrong.get("requestId") != 5 or \
                "malformed work request: its arguments are not an array" not in wrong["output"]:
            fail(f"a request with wrong fields: {wrong}")
        usage = w.answer(two)
        if usage.get("exitCode") != 2 or "unknown option '--frobnicate'" not in usage["output"]:
            fail(f"an unknown option: {usage}")
        again = w.ask('{"arguments": ["-q", "-o", "w9", "c.slang"], "requestId": 9}')
        if again.get("exitCode") != 0 or again.get("requestId") != 9 or again.get("output") != "":
            fail(f"a request after the wrong ones: {again}")
        # The project options, per request: what one request asks for, the next does not get.
        refused = w.ask('{"arguments": ["--matrix-layout", "column", "-o", "wm", "c.slang"], "requestId": 10}')
        if refused.get("exitCode") != 2 or \
                "cannot compile with --matrix-layout column" not in refused["output"]:
            fail(f"--matrix-layout column with the embedded compiler: {refused}")
        versioned = w.ask('{"arguments": ["-q", "--spirv-version", "1.5", "-o", "wv", "c.slang"]}')
        with open(os.path.join(work, "wv", "c.bundle.json"), encoding="utf-8") as f:
            if versioned.get("exitCode") != 0 or '"spirv_version":\t"1.5"' not in f.read():
                fail(f"--spirv-version 1.5 in a request: {versioned}")
        plain = w.ask('{"arguments": ["-q", "-o", "wp", "c.slang"]}')
        with open(os.path.join(work, "wp", "c.bundle.json"), encoding="utf-8") as f:
            if plain.get("exitCode") != 0 or '"options"' in f.read():
                fail(f"a request after one with options got them: {plain}")
        status, out, err = w.finish()
        if status != 0 or out:
            fail(f"the end of input: exit {status}, standard output {out!r}, log {err!r}")
        print("ok: wrong fields answered with exitCode 2 and why; ids kept; project options per request; "
              "end of input exits 0")

        for name, text, why in (
                ("not JSON", '{"arguments": [nope]}\n', "malformed work request: not valid JSON"),
                ("text before an object", 'hello {"arguments": []}\n', "something other than a JSON object"),
                ("ending inside an object", '{"arguments": ["a.slang"', "the input ended inside a work request")):
            w = Worker(work)
            status, out, err = w.finish(text.encode())
            if status != 2 or out or why not in err:
                fail(f"{name}: exit {status}, standard output {out!r}, standard error {err!r}")
        print("ok: input that is not a stream of JSON objects: exit 2, a message, no answer")

        # 240 entries: a build of several seconds, even on workers that check the module once
        # and link each entry (docs/slangc-wasm.md, "--serve"); the signal comes well inside it.
        write("many.slang", module([f"k{i}" for i in range(240)], 4.0))
        w = Worker(work)
        w.p.stdin.write(b'{"arguments": ["-o", "m", "many.slang"]}\n')
        w.p.stdin.flush()
        time.sleep(0.7)
        w.p.send_signal(signal.SIGTERM)
        status, out, err = w.finish()
        if status != -signal.SIGTERM or out or os.path.exists(os.path.join(work, "m", "many.dgpb")):
            fail(f"SIGTERM during a request: exit {status}, standard output {out!r}, log {err!r}")
        print("ok: SIGTERM during a request: the worker dies of it, unanswered, nothing written")

        strict_inputs(work)


def peak_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    fail("no VmHWM in /proc: this test needs Linux's /proc")


def strict_inputs(work):
    """Request ids read strictly, parameter files that are not regular files, a large request."""
    w = Worker(work)
    for rid in ('"8x"', '""', "1e3", "8.0", "-1", "18446744073709551616", "2147483648", '"08"',
                "true", "[8]"):
        got = w.ask('{"arguments": ["-q", "-o", "wr", "c.slang"], "requestId": %s}\n' % rid)
        if got.get("exitCode") != 2 or got.get("requestId") != 0 or \
                "its requestId is not an integer from 0 to 2147483647" not in got.get("output", ""):
            fail(f"requestId {rid}: {got}")
    if os.path.exists(os.path.join(work, "wr")):
        fail("a request with a wrong requestId was built")
    for rid, want in (('"12"', 12), ("2147483647", 2147483647), ("0", 0)):
        got = w.ask('{"arguments": ["--bogus"], "requestId": %s}\n' % rid)
        if got.get("requestId") != want or "unknown option '--bogus'" not in got.get("output", ""):
            fail(f"requestId {rid}: {got}")
    print("ok: requestId strictly parsed: \"8x\", \"\", 1e3, 8.0, -1, 2^64, 2^31, \"08\" refused, the worker goes on")

    fifo = os.path.join(work, "params.fifo")
    os.mkfifo(fifo)
    os.mkdir(os.path.join(work, "params.dir"))
    for name, kind in (("/dev/stdin", "a FIFO or pipe"), (fifo, "a FIFO or pipe"),
                       ("params.dir", "a folder"), ("/dev/zero", "a character device")):
        got = w.ask(json.dumps({"arguments": [f"@{name}", "c.slang"], "requestId": 20}) + "\n")
        if got.get("exitCode") != 2 or \
                f"parameter file '{name}' is not a regular file ({kind})" not in got.get("output", ""):
            fail(f"@{name} in a request: {got}")
    # Standard input is still the worker's: the next request is read and answered.
    after = w.ask('{"arguments": ["-q", "-o", "ws", "c.slang"], "requestId": 21}\n')
    if after.get("exitCode") != 0 or after.get("requestId") != 21:
        fail(f"the request after @/dev/stdin: {after}")
    print("ok: @/dev/stdin, a FIFO, a folder, /dev/zero in a request: exitCode 2, the next request answered")

    # 28 MiB: 4.9 million arguments of 3 bytes, then a module that does not exist (exit 3 once
    # the arguments are parsed). Read into a node per value it took gigabytes.
    count = (28 << 20) // 6
    big = '{"requestId": 30, "arguments": [' + '"-DX",' * count + '"no-such.slang"]}\n'
    before = peak_kib(w.p.pid)
    got = w.ask(big)
    if got.get("exitCode") != 3 or got.get("requestId") != 30 or \
            "no-such.slang" not in got.get("output", ""):
        fail(f"the 28 MiB request: {str(got)[:400]}")
    peak = peak_kib(w.p.pid)
    mib = len(big) / (1 << 20)
    print(f"figure: a {mib:.0f} MiB request of {count} arguments: the worker's peak resident "
          f"memory {before // 1024} MiB before it, {peak // 1024} MiB after")
    if peak > before + 8 * len(big) // 1024:
        fail(f"the {mib:.0f} MiB request took the worker to {peak // 1024} MiB (from "
             f"{before // 1024} MiB): more than 8 times its size")
    last = w.ask('{"arguments": ["-q", "-o", "wt", "c.slang"], "requestId": 31}\n')
    if last.get("exitCode") != 0:
        fail(f"the request after the 28 MiB one: {last}")
    status, out, err = w.finish()
    if status != 0 or out:
        fail(f"the end of input: exit {status}, standard output {out!r}")
    print("ok: a 28 MiB request answered within 8 times its size; the worker goes on")


main()
