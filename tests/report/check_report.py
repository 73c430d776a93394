#!/usr/bin/env python3
"""check_report.py - opens a dgpb-dump --report page in headless Chromium and checks it.

    check_report.py PAGE.html [--json VIEW.bundle.json] [--diff-json CHANGES.json]
                    [--diff-text CHANGES.txt] [--screenshot OUT.png]

Chromium is driven through the DevTools protocol over a pipe
(--remote-debugging-pipe: NUL-separated JSON on file descriptors 3 and 4), so
no npm package or network port is needed. The page fails when it logs a
console error or warning, throws, violates its Content-Security-Policy, or
requests anything but itself. With --screenshot the whole page is saved as a
PNG. With --json the rendered DOM is compared with the bundle's JSON view:
header sizes, targets, entries, code and layout sizes, capability sets, every
parameter row, the deduplication figures, the thousands-separated numbers the
reader sees, the bars' rendered widths, and each target's colour: its legend
swatch, its segment of the stacked bar and every bar of its own blobs drawn in
one colour, no two targets alike. With --diff-json the changes section is
compared with `dgpb-dump --diff --json`, and with --diff-text each change's
text with its line of `dgpb-dump --diff`; no change may show raw JSON.

Exit status 0 when every check passes, 1 with one line per failure otherwise.
Chromium is found as $CHROMIUM, `chromium` on PATH or /usr/bin/chromium; when
it is missing the check fails and says what to install.
"""
import argparse
import base64
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser

TIMEOUT_S = 90


def find_chromium():
    for c in (os.environ.get("CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if c and os.access(c, os.X_OK):
            return c
    return None


class Browser:
    """One Chromium process and one page, over the DevTools pipe. `gpu_flags` replace
    --disable-gpu (tests/web/check_web.py turns WebGPU on); `timeout` bounds the session."""

    def __init__(self, chromium, profile, gpu_flags=("--disable-gpu",), timeout=TIMEOUT_S):
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def child_fds():
            # Chromium reads commands on fd 3 and writes replies on fd 4.
            r = os.dup(to_child_r)
            w = os.dup(from_child_w)
            os.dup2(r, 3)
            os.dup2(w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        args = [chromium, "--headless=new", "--no-sandbox", *gpu_flags,
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe",
                "--user-data-dir=" + profile, "about:blank"]
        self.log = open(os.path.join(profile, "chromium.log"), "wb")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log,
                                     stderr=self.log, preexec_fn=child_fds, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout

    def close(self):
        try:
            self.send("Browser.close", session=False, wait=False)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_child, self.from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()

    def _read_message(self):
        while b"\0" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("chromium did not answer within %d s" % self.timeout)
            ready, _, _ = select.select([self.from_child], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe (exit status %s)" %
                                   self.proc.poll())
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True, wait=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        if not wait:
            return None
        while True:
            m = self._read_message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method):
        for i, m in enumerate(self.events):
            if m["method"] == method:
                return self.events.pop(i)
        while True:
            m = self._read_message()
            if m.get("method") == method:
                return m
            if "method" in m:
                self.events.append(m)

    def open_page(self):
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        page = next((t for t in targets if t["type"] == "page"), None)
        if page is None:
            page = {"targetId": self.send("Target.createTarget", {"url": "about:blank"},
                                          session=False)["targetId"]}
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": page["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(domain + ".enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})


def problems_of(events, page_url):
    """Console errors and warnings, exceptions, and requests for anything but the page."""
    out = []
    for m in events:
        p = m.get("params", {})
        if m["method"] == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            text = d.get("exception", {}).get("description") or d.get("text")
            out.append("uncaught exception: %s" % text)
        elif m["method"] == "Runtime.consoleAPICalled" and p["type"] in ("error", "warning",
                                                                         "assert"):
            args = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            out.append("console.%s: %s" % (p["type"], args))
        elif m["method"] == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
            e = p["entry"]
            out.append("console %s (%s): %s" % (e["level"], e["source"], e["text"]))
        elif m["method"] == "Network.requestWillBeSent":
            url = p["request"]["url"]
            if url != page_url:
                out.append("the page requested %s" % url)
    return out


COLOURS_JS = """JSON.stringify((() => {
  const bg = e => getComputedStyle(e).backgroundColor;
  const out = [];
  document.querySelectorAll('#size-stack .seg').forEach(e =>
    out.push(['stack', e.dataset.part, e.dataset.target || '', bg(e)]));
  document.querySelectorAll('#size .legend span[data-part]').forEach(e =>
    out.push(['legend', e.dataset.part, e.dataset.target || '', bg(e.querySelector('.swatch'))]));
  document.querySelectorAll('#size tr.bar-row').forEach(r => {
    if (!r.dataset.sharedWith)
      out.push(['bar', r.dataset.part, r.dataset.target || '', bg(r.querySelector('.bar'))]);
  });
  return out;
})())"""


def render(chromium, page, screenshot):
    """Loads the page; returns (problems, outer HTML, bar widths, drawn colours)."""
    profile = tempfile.mkdtemp(prefix="dgpb-report-chromium-")
    b = Browser(chromium, profile)
    try:
        b.open_page()
        url = "file://" + os.path.abspath(page)
        b.send("Page.navigate", {"url": url})
        b.wait_event("Page.loadEventFired")
        # Let late console messages arrive: one more round trip after a short pause.
        time.sleep(0.3)
        b.send("Runtime.evaluate", {"expression": "1"})
        dom = b.send("Runtime.evaluate", {
            "expression": "document.documentElement.outerHTML", "returnByValue": True})
        html = dom["result"]["value"]
        widths = b.send("Runtime.evaluate", {
            "expression": "JSON.stringify(Array.from(document.querySelectorAll("
                          "'tr.bar-row')).map(r => [r.dataset.bytes, "
                          "r.closest('table').id || r.closest('section').id, "
                          "r.querySelector('.bar').getBoundingClientRect().width, "
                          "(t => t.getBoundingClientRect().width - parseFloat(getComputedStyle(t)"
                          ".paddingLeft) - parseFloat(getComputedStyle(t).paddingRight))("
                          "r.querySelector('td.track'))]))",
            "returnByValue": True})
        bars = json.loads(widths["result"]["value"])
        colours = json.loads(b.send("Runtime.evaluate", {
            "expression": COLOURS_JS, "returnByValue": True})["result"]["value"])
        if screenshot:
            metrics = b.send("Page.getLayoutMetrics")
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            shot = b.send("Page.captureScreenshot", {
                "format": "png", "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"],
                         "scale": 1}})
            with open(screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        problems = problems_of(b.events, url)
    finally:
        b.close()
        shutil.rmtree(profile, ignore_errors=True)
    return problems, html, bars, colours


def compare_colours(colours):
    """Each target in one colour (legend, stacked bar, its bars), no two alike, none the header's."""
    fails = []
    by_target = {}
    for where, part, target, colour in colours:
        key = "header" if part == "header" else target
        by_target.setdefault(key, {}).setdefault(colour, []).append("%s %s" % (where, part))
    seen = {}
    for target, drawn in sorted(by_target.items()):
        places = {w.split()[0] for ws in drawn.values() for w in ws}
        if target != "header" and places != {"stack", "legend", "bar"}:
            fails.append("target %s is drawn only in %s" % (target, sorted(places)))
        if len(drawn) != 1:
            fails.append("target %s is drawn in %d colours: %s" % (target, len(drawn), drawn))
            continue
        colour = next(iter(drawn))
        if colour in ("", "rgba(0, 0, 0, 0)", "transparent"):
            fails.append("target %s has no colour" % target)
        if colour in seen:
            fails.append("targets %s and %s share the colour %s" % (seen[colour], target, colour))
        seen[colour] = target
    if not colours:
        fails.append("the page draws no coloured parts")
    return fails


class Dom(HTMLParser):
    """The elements the checks read: their tag, attributes and text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        el = {"tag": tag, "attrs": dict(attrs), "text": "", "pos": len(self.elements),
              "ancestors": {c for p in self.stack for c in p["attrs"].get("class", "").split()}}
        self.elements.append(el)
        if tag not in ("meta", "br", "img", "link", "input", "hr"):
            self.stack.append(el)

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for el in self.stack:
            el["text"] += data

    def with_attr(self, name, **match):
        return [e for e in self.elements if name in e["attrs"] and
                all(e["attrs"].get(k) == v for k, v in match.items())]

    def with_class(self, cls):
        return [e for e in self.elements if cls in e["attrs"].get("class", "").split()]


def thousands(n):
    return "{:,}".format(n)


def compare(html, view, bars):
    """Every difference between the page and the JSON view, as lines."""
    fails = []

    def expect(what, got, want):
        if got != want:
            fails.append("%s: page says %r, the JSON view %r" % (what, got, want))

    dom = Dom()
    dom.feed(html)
    mains = [e for e in dom.elements if e["attrs"].get("id") == "report"]
    if len(mains) != 1:
        return ["the page has %d elements with id=report" % len(mains)]
    m = mains[0]["attrs"]
    for key, attr in (("version", "data-version"), ("size", "data-size"),
                      ("header_size", "data-header-size"), ("data_size", "data-data-size")):
        expect(key, int(m.get(attr, -1)), view[key])
    targets = view["targets"]
    expect("target count", int(m["data-target-count"]), len(targets))
    names = {e["name"] for t in targets for e in t["entries"]}
    codes = sum(len(t["entries"]) for t in targets)
    expect("entry count", int(m["data-entry-count"]), len(names))
    expect("code count", int(m["data-code-count"]), codes)
    summary = next(e for e in dom.elements if e["attrs"].get("class") == "meta")["text"]
    shown = re.findall(r"\d{1,3}(?:,\d{3})*", summary)
    for n in (view["size"], view["header_size"], view["data_size"]):
        if thousands(n) not in shown:
            fails.append("the summary line lacks %s: %r" % (thousands(n), summary))

    # The project options, those the view names (it names none at their defaults).
    options = {e["attrs"]["data-option"]: e["text"] for e in dom.elements if "data-option" in e["attrs"]}
    want = view.get("options", {})
    expect("options", sorted(options), sorted(want))
    for name, value in want.items():
        values = value if isinstance(value, list) else [value]
        if name in options and not all(str(v) in options[name] for v in values):
            fails.append("option %s: page says %r, the JSON view %r" % (name, options[name], value))

    # Size: the header, every layout and every entry's code, in order.
    rows = [e for e in dom.with_class("bar-row")
            if e["attrs"].get("data-part") in ("header", "layout", "code")]
    want = [("header", None, None, view["header_size"])]
    for t in targets:
        want += [("layout", t["name"], str(i), l["size"]) for i, l in enumerate(t["layouts"])]
        want += [("code", t["name"], e["name"], e["code"]["size"]) for e in t["entries"]]
    got = [(r["attrs"]["data-part"], r["attrs"].get("data-target"),
            r["attrs"].get("data-layout", r["attrs"].get("data-entry")),
            int(r["attrs"]["data-bytes"])) for r in rows]
    expect("size bars (part, target, layout or entry, bytes)", got, want)
    for r in rows:
        n = int(r["attrs"]["data-bytes"])
        if thousands(n) not in r["text"]:
            fails.append("size row %r does not show %s" % (r["text"].strip(), thousands(n)))
    # Which references share a stored blob: the first with the same offset and size.
    first = {}
    for t in targets:
        refs = [(("%s/layout/%d" % (t["name"], i)), l) for i, l in enumerate(t["layouts"])]
        refs += [("%s/%s" % (t["name"], e["name"]), e["code"]) for e in t["entries"]]
        for name, blob in refs:
            first.setdefault((blob["offset"], blob["size"]), name)
    stack = [e for e in dom.elements if e["attrs"].get("data-part") in ("header", "options", "target")
             and "seg" in e["attrs"].get("class", "")]
    expect("stacked bar total", sum(int(s["attrs"]["data-bytes"]) for s in stack), view["size"])

    # Capabilities: one row per entry and target, with the entry's set.
    caps = {(r["attrs"]["data-target"], r["attrs"]["data-entry"]):
            r["attrs"]["data-capabilities"].split() for r in dom.with_class("capability-row")}
    want_caps = {(t["name"], e["name"]): e["capabilities"] for t in targets for e in t["entries"]}
    expect("capability matrix", caps, want_caps)
    for r in dom.with_class("capability-row"):
        ticked = sorted(c["attrs"]["data-capability"] for c in dom.elements
                        if c["tag"] == "td" and c["attrs"].get("class") == "yes" and
                        _inside(dom, c, r))
        expect("ticked cells of %s/%s" % (r["attrs"]["data-target"], r["attrs"]["data-entry"]),
               ticked, sorted(r["attrs"]["data-capabilities"].split()))

    # Entries and their parameter rows.
    sections = {(s["attrs"]["data-target"], s["attrs"]["data-entry"]): s
                for s in dom.with_class("entry")}
    expect("entries", sorted(sections), sorted(want_caps))
    params = dom.with_class("param")
    for t in targets:
        for e in t["entries"]:
            s = sections.get((t["name"], e["name"]))
            if s is None:
                continue
            a = s["attrs"]
            where = "%s/%s" % (t["name"], e["name"])
            expect(where + " stage", a["data-stage"], e["stage"])
            expect(where + " layout", int(a["data-layout"]), e["layout"])
            expect(where + " thread group size",
                   [int(x) for x in a["data-thread-group-size"].split(",")],
                   e["thread_group_size"])
            expect(where + " code", (int(a["data-code-offset"]), int(a["data-code-size"]),
                                     a["data-code-sha256"]),
                   (e["code"]["offset"], e["code"]["size"], e["code"]["sha256"]))
            expect(where + " parameter count", int(a["data-param-count"]), len(e["params"]))
            got_rows = [(int(p["attrs"]["data-index"]), p["attrs"]["data-name"],
                         p["attrs"]["data-kind"], p["attrs"]["data-flags"].split(),
                         int(p["attrs"]["data-space"]), int(p["attrs"]["data-binding"]),
                         (p["attrs"]["data-shape"] if "data-shape" in p["attrs"]
                          else int(p["attrs"]["data-offset"])), int(p["attrs"]["data-size"]),
                         int(p["attrs"]["data-webgpu-layout"]))
                        for p in params if _inside(dom, p, s)]
            want_rows = [(i, p["name"], p["kind"], p["flags"], p["space"], p["binding"],
                          p["shape"] if "shape" in p else p["offset"], p["size"],
                          p["webgpu_layout"])
                         for i, p in enumerate(e["params"])]
            expect(where + " parameter rows", got_rows, want_rows)
            for p in params:
                if _inside(dom, p, s) and p["attrs"]["data-name"] not in p["text"]:
                    fails.append("%s row %s does not show its name" %
                                 (where, p["attrs"]["data-index"]))

    # Deduplication.
    refs = [l for t in targets for l in t["layouts"]] + \
           [e["code"] for t in targets for e in t["entries"]]
    referenced = sum(b["size"] for b in refs)
    # The data section holds the options record before the first blob (offsets count from the
    # data section's start), when the bundle records options.
    record = min(b["offset"] for b in refs) if refs else view["data_size"]
    stored = view["data_size"] - record
    distinct = len({(b["offset"], b["size"]) for b in refs})
    d = [e for e in dom.elements if e["attrs"].get("id") == "dedup"]
    if len(d) != 1:
        fails.append("the page has no deduplication section")
    else:
        a = d[0]["attrs"]
        expect("references", int(a["data-references"]), len(refs))
        expect("referenced bytes", int(a["data-referenced-bytes"]), referenced)
        expect("distinct blobs", int(a["data-distinct-blobs"]), distinct)
        expect("stored bytes", int(a["data-stored-bytes"]), stored)
        expect("saved bytes", int(a["data-saved-bytes"]), max(0, referenced - stored))
        saved = next(e for e in dom.elements if e["attrs"].get("id") == "dedup-saved")
        if thousands(max(0, referenced - stored)) + " bytes" not in saved["text"]:
            fails.append("the savings line says %r" % saved["text"])
        shared = sum(int(r["attrs"]["data-saved-bytes"]) for r in dom.with_class("shared-blob"))
        expect("savings of the shared blobs", shared, referenced - stored)
    for r in rows:
        name = "%s/%s" % (r["attrs"].get("data-target"), r["attrs"].get("data-entry") or
                          "layout/" + r["attrs"].get("data-layout", ""))
        blob_first = None
        for t in targets:
            for i, l in enumerate(t["layouts"]):
                if "%s/layout/%d" % (t["name"], i) == name:
                    blob_first = first[(l["offset"], l["size"])]
            for e in t["entries"]:
                if "%s/%s" % (t["name"], e["name"]) == name:
                    blob_first = first[(e["code"]["offset"], e["code"]["size"])]
        if r["attrs"]["data-part"] != "header":
            expect(name + " shared with", r["attrs"].get("data-shared-with"),
                   None if blob_first == name else blob_first)

    # The bars as drawn: each width in proportion to its bytes within its table.
    groups = {}
    for nbytes, table, width, track in bars:
        groups.setdefault(table, []).append((int(nbytes), width, track))
    for table, items in groups.items():
        largest = max(n for n, _, _ in items)
        for n, width, track in items:
            want_w = max(1.0, track * n / largest) if largest else 1.0
            if abs(width - want_w) > 1.5:
                fails.append("a %d-byte bar in %s is %.1f px wide, not %.1f" %
                             (n, table, width, want_w))
    if not bars:
        fails.append("the page draws no bars")
    return fails


def changes_shown(html):
    """The changes section's changes: (where, text, breaking, the whole item's text), where is
    TARGET/ENTRY for an entry's change and TARGET for a target's own."""
    dom = Dom()
    dom.feed(html)
    out = []
    target = entry = None
    for e in dom.elements:
        cls = e["attrs"].get("class", "").split()
        if "diff-target" in cls:
            target = e["attrs"]["data-target"]
        elif "diff-entry" in cls:
            entry = e["attrs"]["data-entry"]
        elif "diff-change" in cls:
            texts = [t for t in dom.elements[e["pos"] + 1:]
                     if "change-text" in t["attrs"].get("class", "").split()]
            text = texts[0]["text"] if texts else ""
            in_entry = "diff-entry" in e["ancestors"]
            out.append(("%s/%s" % (target, entry) if in_entry else target, text,
                        e["attrs"]["data-breaking"] == "true", e["text"]))
    return out


def compare_diff_text(html, diff_text):
    """Each change on the page is a line of `dgpb-dump --diff` (less its TARGET/ENTRY: prefix
    and BREAKING mark), none shows raw JSON, and every such line is on the page."""
    fails = []
    lines = []
    for line in diff_text.splitlines():
        if line.startswith(("--- ", "+++ ")) or ": " not in line:
            continue
        where, text = line.split(": ", 1)
        breaking = text.endswith("  BREAKING")
        text = text[:-len("  BREAKING")] if breaking else text
        if where == "equivalent" or re.match(r"^(target|entry) (added|removed)$", text):
            continue  # the summary; whole targets and entries are headings on the page
        lines.append((where, text, breaking))
    shown = []
    for where, text, breaking, whole in changes_shown(html):
        if "{" in whole or '"kind":' in whole:
            fails.append("changes: %s shows raw JSON: %r" % (where, whole))
        shown.append((where, text, breaking))
    if sorted(shown) != sorted(lines):
        fails.append("changes: the page shows %r, dgpb-dump --diff %r" % (shown, lines))
    if not shown:
        fails.append("changes: the page shows none")
    return fails


def compare_diff(html, diff):
    """Every difference between the page's changes section and `dgpb-dump --diff --json`."""
    dom = Dom()
    dom.feed(html)
    sec = [e for e in dom.elements if e["attrs"].get("id") == "diff"]
    if len(sec) != 1:
        return ["the page has no changes section"]
    fails = []
    a = sec[0]["attrs"]
    for key in ("equivalent", "breaking"):
        if a.get("data-" + key) != ("true" if diff[key] else "false"):
            fails.append("changes: %s is %r, the diff says %r" % (key, a.get("data-" + key),
                                                                diff[key]))
    got, want = [], []
    target = entry = None
    for e in dom.elements:
        cls = e["attrs"].get("class", "").split()
        if "diff-target" in cls:
            target, entry = e["attrs"]["data-target"], None
            got.append(("target", target, e["attrs"]["data-change"]))
        elif "diff-entry" in cls:
            entry = e["attrs"]["data-entry"]
            got.append(("entry", target, entry, e["attrs"]["data-change"],
                        e["attrs"]["data-breaking"]))
        elif "diff-change" in cls:
            got.append(("change", target, entry, e["attrs"]["data-what"],
                        e["attrs"]["data-breaking"]))
    flag = lambda v: "true" if v else "false"
    for t in diff["targets"]:
        want.append(("target", t["name"], t["change"]))
        for en in t.get("entries", []):
            want.append(("entry", t["name"], en["name"], en["change"], flag(en.get("breaking"))))
            want += [("change", t["name"], en["name"], c["what"], flag(c.get("breaking")))
                     for c in en.get("changes", [])]
        want += [("change", t["name"], None, c["what"], flag(c.get("breaking")))
                 for c in t.get("changes", []) + t.get("layouts", [])]
    # Target-level changes come after the target's entries on the page.
    if sorted(map(str, got)) != sorted(map(str, want)):
        fails.append("changes: the page lists %r, the diff %r" % (got, want))
    return fails


def _inside(dom, el, container):
    """True when `el` comes after `container` and before the container's end (document order)."""
    i, j = container["pos"], el["pos"]
    if j <= i:
        return False
    # The container ends where the next element of its own tag and class starts.
    for k in range(i + 1, len(dom.elements)):
        e = dom.elements[k]
        if e["tag"] == container["tag"] and e["attrs"].get("class") == \
                container["attrs"].get("class"):
            return j < k
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("page")
    ap.add_argument("--json", help="the bundle's JSON view (dgpb-dump --json)")
    ap.add_argument("--screenshot", help="write a PNG of the whole page here")
    ap.add_argument("--diff-json", help="the changes shown (dgpb-dump --diff --json OLD NEW)")
    ap.add_argument("--diff-text", help="the same as lines (dgpb-dump --diff OLD NEW)")
    args = ap.parse_args()
    chromium = find_chromium()
    if not chromium:
        print("FAIL: chromium is missing: install Debian's chromium package "
              "(apt-get install --no-install-recommends chromium, or tools/setup.sh), "
              "or name the browser in $CHROMIUM")
        return 1
    try:
        problems, html, bars, colours = render(chromium, args.page, args.screenshot)
    except (RuntimeError, OSError) as e:
        print("FAIL: %s could not be rendered: %s" % (args.page, e))
        return 1
    for p in problems:
        print("FAIL: %s: %s" % (args.page, p))
    fails = []
    if args.json:
        with open(args.json, encoding="utf-8") as f:
            fails = compare(html, json.load(f), bars)
        fails += compare_colours(colours)
    if args.diff_json:
        with open(args.diff_json, encoding="utf-8") as f:
            fails += compare_diff(html, json.load(f))
    if args.diff_text:
        with open(args.diff_text, encoding="utf-8") as f:
            fails += compare_diff_text(html, f.read())
    for f in fails:
        print("FAIL: %s: %s" % (args.page, f))
    if args.screenshot:
        print("screenshot: %s" % os.path.abspath(args.screenshot))
    if problems or fails:
        return 1
    matched = [f for f in (args.json, args.diff_json, args.diff_text) if f]
    print("ok: %s renders without console errors%s" %
          (args.page, " and matches " + " and ".join(matched) if matched else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
