#!/usr/bin/env python3
"""executor.py - one spawn of a Bazel execution log run the way a remote
executor runs it, in two steps:

    executor.py stage LOG BUNDLE EXECROOT DEST
    executor.py run DEST

LOG is what `bazel build --execution_log_json_file=LOG` wrote; the spawn is
the one whose outputs include a file named BUNDLE. `stage` copies every input
the spawn declares from EXECROOT (symbolic links followed) into the new
folder DEST as a plain file, checks its SHA-256 against the digest the log
gives, and keeps the command line and environment in DEST.json; `run` runs
that command line in DEST with that environment and nothing else, as an
executor runs an action from what Bazel uploaded to it. Between the two,
whatever the links pointed at may go. `run` prints what the command printed
and exits with its status; both exit 1 when the log, an input or its digest
is wrong, 2 on usage.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys


def spawns(path):
    text = open(path, encoding="utf-8").read()
    decoder = json.JSONDecoder()
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return
        spawn, at = decoder.raw_decode(text, at)
        yield spawn


def stage(log, bundle, execroot, dest):
    found = [s for s in spawns(log)
             if any(p.rsplit("/", 1)[-1] == bundle for p in s.get("listedOutputs", []))]
    if len(found) != 1:
        print(f"executor.py: {len(found)} spawns write {bundle} in {log}", file=sys.stderr)
        return 1
    spawn = found[0]
    for item in spawn["inputs"]:
        source = os.path.join(execroot, item["path"])
        target = os.path.join(dest, item["path"])
        if not os.path.isfile(source):
            print(f"executor.py: input {item['path']} is not a file under {execroot}", file=sys.stderr)
            return 1
        data = open(source, "rb").read()
        if hashlib.sha256(data).hexdigest() != item["digest"]["hash"]:
            print(f"executor.py: input {item['path']} differs from its digest", file=sys.stderr)
            return 1
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(source, target)
        shutil.copymode(source, target)
    for output in spawn.get("listedOutputs", []):
        os.makedirs(os.path.join(dest, os.path.dirname(output)), exist_ok=True)
    env = {v["name"]: v["value"] for v in spawn.get("environmentVariables", [])}
    with open(dest + ".json", "w", encoding="utf-8") as f:
        json.dump({"args": spawn["commandArgs"], "env": env}, f)
    return 0


def run(dest):
    spawn = json.load(open(dest + ".json", encoding="utf-8"))
    done = subprocess.run(spawn["args"], cwd=dest, env=spawn["env"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    sys.stdout.write(done.stdout.decode("utf-8", "replace"))
    return done.returncode


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "stage":
        return stage(*sys.argv[2:])
    if len(sys.argv) == 3 and sys.argv[1] == "run":
        return run(sys.argv[2])
    print("usage: executor.py stage LOG BUNDLE EXECROOT DEST | executor.py run DEST", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
