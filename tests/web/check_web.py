#!/usr/bin/env python3
"""check_web.py - runs the compute suite in headless Chromium through the example page.

    check_web.py [--negative] [--tamper MODULE] [--change-expectation MODULE]
                 [--adapter-lacks FEATURE]... [--chromium-flag FLAG]...
                 BUNDLE_DIR MODULE.slang...

Serves the repository (the page, examples/web/, and what it imports:
js/dgpb-reader/, tests/compute/) over HTTP on 127.0.0.1 at a free port, with
BUNDLE_DIR as /bundles/ and the modules' folder as /fixtures/, opens
examples/web/index.html?modules=... in headless Chromium with WebGPU on, and
waits for the page's result (window.dgpbRun). The page fetches each module's
run line and bundle, verifies the entry's code with WebCrypto SHA-256, binds
every parameter by its row, dispatches and compares the outputs with the
`--expect` values, as tests/compute/run_dawn.mjs does on Dawn for Node.
Chromium is driven over the DevTools pipe as tests/report/check_report.py
drives it (its Browser class).

The run fails when a module fails, when a module that has a wgsl target is not
run, on a console error or warning, an uncaught exception, a request for
anything but the server's own files or an HTTP error.

--negative: each expectation changed by one must fail (the page's negative=1).
--tamper MODULE: one byte of MODULE's WGSL in the served bundle is changed;
the page must then refuse it (sha-256 mismatch).
--change-expectation MODULE: the last value of MODULE's first --expect is
served changed by one; that module must then fail.
--adapter-lacks FEATURE: the adapter is known to lack this WebGPU feature
(SwiftShader: shader-f16); a module whose entry needs it is reported as not
runnable here instead of failed. The run fails when the adapter has it after
all, or when a module is not run for any other reason.
--chromium-flag FLAG: one more Chromium flag (e.g. --use-vulkan=native).

Prints the adapter, one line per module and `N passed, N failed, N not
applicable`. Exit status 0 when every module passed, 1 otherwise, 2 usage.
Chromium is found as $CHROMIUM, `chromium` on PATH or /usr/bin/chromium; when
it is missing the check fails and says what to install.
"""
import argparse
import functools
import http.server
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "report"))
from check_report import Browser, find_chromium  # noqa: E402

# WebGPU in headless Chromium: SwiftShader's Vulkan (docs/testing.md, "The browser host").
WEBGPU_FLAGS = ["--enable-unsafe-webgpu", "--enable-features=Vulkan,WebGPU",
                "--ignore-gpu-blocklist"]
TIMEOUT_S = 240


class Handler(http.server.SimpleHTTPRequestHandler):
    """The repository, with /bundles/ and /fixtures/ mapped to their folders and single
    files replaced by `overrides` (URL path -> bytes)."""

    mounts = {}
    overrides = {}
    # Module scripts must come as JavaScript, whatever /etc/mime.types says.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript"}

    def translate_path(self, path):
        path = urllib.parse.unquote(urllib.parse.urlsplit(path).path)
        for prefix, folder in self.mounts.items():
            if path.startswith(prefix):
                rest = os.path.normpath("/" + path[len(prefix):]).lstrip("/")
                return os.path.join(folder, rest)
        return super().translate_path(path)

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path in self.overrides:
            body = self.overrides[path]
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, *args):
        pass


def tampered(bundle):
    """The bundle with one byte of its WGSL changed (the first '@compute' becomes 'Acompute')."""
    data = bytearray(open(bundle, "rb").read())
    at = data.find(b"@compute")
    if at < 0:
        raise SystemExit("check_web: %s holds no WGSL compute entry to tamper with" % bundle)
    data[at] ^= 0x01
    return bytes(data)


def changed_expectation(module):
    """The module's text with the last value of its first `--expect NAME=TYPE:V1,...`
    changed by one."""
    text = open(module, encoding="utf-8").read()
    m = re.search(r"(--expect\s+[^\s=:]+=[a-z0-9]+:)(\S+)", text)
    if not m:
        raise SystemExit("check_web: %s has no typed --expect to change" % module)
    values = m.group(2).split(",")
    last = values[-1]
    values[-1] = str(float(last) + 1 if re.search(r"[.eEn]", last) else int(last, 0) + 1)
    return (text[:m.start(2)] + ",".join(values) + text[m.end(2):]).encode()


def problems_of(events, origin):
    """Console errors and warnings, exceptions, requests off the server, HTTP errors."""
    out = []
    for m in events:
        p = m.get("params", {})
        if m["method"] == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            out.append("uncaught exception: %s" %
                       (d.get("exception", {}).get("description") or d.get("text")))
        elif m["method"] == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning",
                                                                         "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            out.append("console.%s: %s" % (p["type"], args))
        elif m["method"] == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
            e = p["entry"]
            out.append("console %s (%s): %s" % (e["level"], e["source"], e["text"]))
        elif m["method"] == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if not url.startswith(origin + "/"):
                out.append("the page requested %s" % url)
        elif m["method"] == "Network.responseReceived" and p["response"]["status"] >= 400:
            out.append("HTTP %d for %s" % (p["response"]["status"], p["response"]["url"]))
    return out


def targets_of(module):
    m = re.search(r"^//DGPB_TARGETS:\s*([a-z0-9,]+)", open(module, encoding="utf-8").read(), re.M)
    return m.group(1).split(",") if m else ["spirv", "wgsl"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--negative", action="store_true")
    ap.add_argument("--tamper", metavar="MODULE")
    ap.add_argument("--change-expectation", metavar="MODULE")
    ap.add_argument("--adapter-lacks", action="append", default=[], metavar="FEATURE")
    ap.add_argument("--chromium-flag", action="append", default=[])
    ap.add_argument("bundles")
    ap.add_argument("modules", nargs="+")
    args = ap.parse_args()
    chromium = find_chromium()
    if not chromium:
        print("FAIL: chromium is missing: install Debian's chromium package "
              "(apt-get install --no-install-recommends chromium, or tools/setup.sh), "
              "or name the browser in $CHROMIUM")
        return 1
    fixtures = os.path.dirname(os.path.abspath(args.modules[0]))
    stems = [os.path.basename(m)[:-len(".slang")] for m in args.modules]
    if any(os.path.dirname(os.path.abspath(m)) != fixtures or not m.endswith(".slang")
           for m in args.modules):
        ap.error("the modules must be .slang files of one folder")
    for named in (args.tamper, args.change_expectation):
        if named and named not in stems:
            ap.error("%s is not one of the modules" % named)

    Handler.mounts = {"/bundles/": os.path.abspath(args.bundles), "/fixtures/": fixtures}
    if args.tamper:
        Handler.overrides["/bundles/%s.dgpb" % args.tamper] = \
            tampered(os.path.join(args.bundles, args.tamper + ".dgpb"))
    if args.change_expectation:
        Handler.overrides["/fixtures/%s.slang" % args.change_expectation] = \
            changed_expectation(os.path.join(fixtures, args.change_expectation + ".slang"))
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=ROOT))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = "http://127.0.0.1:%d" % server.server_address[1]
    query = urllib.parse.urlencode({"bundles": "/bundles/", "fixtures": "/fixtures/",
                                    "modules": ",".join(stems),
                                    "negative": "1" if args.negative else "0",
                                    "allowUnsupported": "1" if args.adapter_lacks else "0"})
    url = "%s/examples/web/index.html?%s" % (origin, query)

    started = time.monotonic()
    profile = tempfile.mkdtemp(prefix="dgpb-web-chromium-")
    b = Browser(chromium, profile, gpu_flags=WEBGPU_FLAGS + args.chromium_flag,
                timeout=TIMEOUT_S)
    try:
        b.open_page()
        b.send("Page.navigate", {"url": url})
        b.wait_event("Page.loadEventFired")
        reply = b.send("Runtime.evaluate", {
            "expression": "window.dgpbRun.then((r) => JSON.stringify(r))",
            "awaitPromise": True, "returnByValue": True})
        time.sleep(0.3)  # let late console messages arrive: one more round trip
        b.send("Runtime.evaluate", {"expression": "1"})
        problems = problems_of(b.events, origin)
    except (RuntimeError, OSError) as e:
        print("FAIL: the page did not run: %s" % e)
        return 1
    finally:
        b.close()
        shutil.rmtree(profile, ignore_errors=True)
        server.shutdown()
    for p in problems:
        print("FAIL: %s" % p)
    if "exceptionDetails" in reply:
        d = reply["exceptionDetails"]
        print("FAIL: the page stopped: %s" %
              (d.get("exception", {}).get("description") or d.get("text")))
        return 1
    run = json.loads(reply["result"]["value"])
    print("adapter: %s; features: %s" % (run["adapter"], ", ".join(run["features"]) or "none"))
    fails = len(problems)
    for f in args.adapter_lacks:
        if f in run["features"]:
            print("FAIL: the adapter offers %s: drop --adapter-lacks %s" % (f, f))
            fails += 1
    count = {"passed": 0, "failed": 0, "skipped": 0, "lacking": 0}
    for r, module in zip(run["results"], args.modules):
        status = r["status"]
        if status == "skipped" and "wgsl" in targets_of(module):
            lacks = re.match(r"not applicable: the adapter lacks (.*)$", r["message"])
            if lacks and set(lacks.group(1).split(", ")) <= set(args.adapter_lacks):
                status = "lacking"
                r["message"] = "not runnable on this adapter: it lacks " + lacks.group(1)
            else:
                status = "failed"
                r["message"] = "not run, though it has a wgsl target: " + r["message"]
        count[status] += 1
        print("%s: %s%s" % (r["module"], "FAILED " if status == "failed" else "", r["message"]))
    print("not applicable: %d (no wgsl target), %d (the adapter lacks a feature)" %
          (count["skipped"], count["lacking"]))
    print("%d passed, %d failed (Chromium, %.1f s)" %
          (count["passed"], count["failed"], time.monotonic() - started))
    return 1 if fails or count["failed"] or len(run["results"]) != len(args.modules) else 0


if __name__ == "__main__":
    sys.exit(main())
