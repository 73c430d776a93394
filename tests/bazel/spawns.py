#!/usr/bin/env python3
"""spawns.py LOG [MNEMONIC] - the spawns of a Bazel execution log, one line each.
   spawns.py --env LOG [MNEMONIC] - the environment of each, one NAME=VALUE a line.

LOG is what `bazel build --execution_log_json_file=LOG` wrote: one JSON object
per spawn (an action's process, whether it ran or came from a cache), written
one after the other. Prints, for every spawn of MNEMONIC (default DgpbBundle):

    <cache|ran> <the bundle it writes> <runner>

"cache" when Bazel took its outputs from a cache (the disk cache and a remote
one alike: remoteCacheHit), "ran" when it ran; the bundle's file name (of
the spawn's outputs, the one ending in .dgpb); the runner Bazel names
("linux-sandbox", "processwrapper-sandbox", "worker", "remote cache hit").
Sorted by bundle. A build that ran no action prints nothing. With --env,
the variables each spawn ran with instead, sorted, once each (spawns that
agree print one set). Exit 1 when the log is not a stream of JSON objects.
"""
import json
import sys


def main():
    args = sys.argv[1:]
    env = args[:1] == ["--env"]
    if env:
        args = args[1:]
    if len(args) not in (1, 2):
        print("usage: spawns.py [--env] LOG [MNEMONIC]", file=sys.stderr)
        return 2
    mnemonic = args[1] if len(args) == 2 else "DgpbBundle"
    text = open(args[0], encoding="utf-8").read()
    decoder = json.JSONDecoder()
    at = 0
    rows = []
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            break
        try:
            spawn, at = decoder.raw_decode(text, at)
        except ValueError as e:
            print(f"spawns.py: {args[0]}: not an execution log: {e}", file=sys.stderr)
            return 1
        if spawn.get("mnemonic") != mnemonic:
            continue
        if env:
            rows.extend(f"{v['name']}={v['value']}" for v in spawn.get("environmentVariables", []))
            continue
        how = "cache" if spawn.get("remoteCacheHit") else "ran"
        names = [path.rsplit("/", 1)[-1] for path in spawn.get("listedOutputs", [])]
        bundle = next((n for n in names if n.endswith(".dgpb")), "?")
        rows.append((bundle, how, spawn.get("runner", "?")))
    if env:
        print("\n".join(sorted(set(rows))))
        return 0
    for bundle, how, runner in sorted(rows):
        print(how, bundle, runner.replace(" ", "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
