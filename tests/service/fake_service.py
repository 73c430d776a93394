#!/usr/bin/env python3
"""fake_service.py SOCKET MODE - a compile service that misbehaves, for tests/service.

Listens on SOCKET (an AF_UNIX stream socket, as the real service does) and, for each
connection, misbehaves as MODE says:

  silent        accepts and never says anything (a hung service)
  hello-silent  answers the hello, takes the jobs, then says nothing (hung mid-batch)
  garbage       answers the hello, then a line that is not JSON
  wrong-job     answers the hello, then an answer for a job never sent
  exit-mid-job  answers the hello, says the first job started, then exits (a crash)
  refuse        answers the hello with {"error": ...}
  alive-only    answers the hello, takes the jobs, then sends {"alive": 1} twice a second
                and nothing else (a service that keeps saying it lives while no job moves)

It runs until killed (exit-mid-job: until its first batch).
"""
import json
import os
import socket
import sys
import time

path, mode = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(16)
held = []  # connections kept open (never answered)

while True:
    conn, _ = server.accept()
    held.append(conn)
    if mode == "silent":
        continue
    reader = conn.makefile("rb")
    hello = json.loads(reader.readline())
    if "stop" in hello:
        conn.sendall(b'{"stopped": %d}\n' % os.getpid())
        os._exit(0)
    if mode == "refuse":
        conn.sendall(b'{"error": "refused by the fake"}\n')
        continue
    conn.sendall(json.dumps({"hello": 1, "pid": os.getpid(), "workers": 2, "started": 0}).encode() + b"\n")
    if mode == "hello-silent":
        continue
    if mode == "alive-only":
        try:
            while True:
                conn.sendall(b'{"alive": 1}\n')
                time.sleep(0.5)
        except OSError:
            continue
    job = json.loads(reader.readline())
    if mode == "garbage":
        conn.sendall(b"this is not JSON\n")
    elif mode == "wrong-job":
        conn.sendall(json.dumps({"job": job["job"] + 100000, "status": 0, "diagnostics": "",
                                 "output": ""}).encode() + b"\n")
    elif mode == "exit-mid-job":
        conn.sendall(json.dumps({"job": job["job"], "started": True}).encode() + b"\n")
        time.sleep(0.2)
        os._exit(9)
