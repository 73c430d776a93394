#!/usr/bin/env python3
"""bad_store.py PORT MODE DIR LOG - an HTTP store that cannot be trusted.

Answers GET and HEAD from DIR (a copy of a real store's folder: cas/<sha256>
and ac/<key>), but every /cas/ body it sends is damaged according to MODE:
  corrupt    the right length, one byte changed in every 7
  truncated  the right Content-Length, half the body, then the connection closed
  oversized  a Content-Length of 80 MiB, then zeros until the client hangs up
  mixed      the three in turn
  refuse     GET and HEAD find nothing (404), PUT is refused (403)
  slow       every request waits a minute before it is answered as in refuse mode
  trickle    every GET (/ac/ too) answered with a Content-Length of 250, then
             one byte of it every 0.2 s
  slow-put   GET and HEAD find nothing (404) at once; every PUT is answered (200)
             after 1.9 s, inside every limit of one request
  slow-get   an honest store (GET and HEAD answered from DIR, PUT accepted) whose
             every GET and HEAD is answered after 1.9 s, inside every limit of
             one request
PUT is read and discarded (200) except in refuse mode. Every request line is
appended to LOG.

The redis-* modes speak Redis instead (SET is accepted, EXISTS finds nothing)
and answer every GET with:
  redis-huge     a bulk string of 2^62 bytes announced, then 512 MiB of zeros
                 (as fast as the client takes them), then nothing for 30 s
  redis-trickle  a bulk string of 16 bytes announced, then one byte every 1.5 s
  redis-endless  a bulk string of 250 bytes announced, then one byte every 0.2 s
Each command's name and key is appended to LOG ("GET dgpb:v1:ac:..."), and
"SENT n" when the client hung up after n bytes of an answer ("SENT n all" when
a huge answer was sent whole).
"""
import http.server
import os
import re
import socketserver
import sys
import threading
import time

PORT, MODE, ROOT, LOG = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
lock = threading.Lock()
counter = [0]
NAME = re.compile(r"^/(cas|ac)/([0-9a-f]{64})$")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        with lock, open(LOG, "a") as f:
            f.write("%s %s\n" % (self.command, self.path))

    def parse_request(self):
        ok = super().parse_request()
        if ok and MODE == "slow":
            time.sleep(60)
        return ok

    def find(self):
        m = NAME.match(self.path)
        if MODE in ("refuse", "slow", "slow-put") or not m:
            return None, None
        path = os.path.join(ROOT, m.group(1), m.group(2))
        if not os.path.isfile(path):
            return m.group(1), None
        with open(path, "rb") as f:
            return m.group(1), f.read()

    def not_found(self):
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        if MODE == "slow-get":
            time.sleep(1.9)
        kind, body = self.find()
        if body is None:
            return self.not_found()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()

    def do_GET(self):
        if MODE == "slow-get":
            time.sleep(1.9)
            kind, body = self.find()
            if body is None:
                return self.not_found()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if MODE == "trickle":
            self.send_response(200)
            self.send_header("Content-Length", "250")
            self.end_headers()
            try:
                for _ in range(250):
                    self.wfile.write(b"0")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                pass
            self.close_connection = True
            return
        kind, body = self.find()
        if body is None:
            return self.not_found()
        if kind == "ac":
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        mode = MODE
        if mode == "mixed":
            with lock:
                mode = ("corrupt", "truncated", "oversized")[counter[0] % 3]
                counter[0] += 1
        self.send_response(200)
        if mode == "corrupt":
            damaged = bytes(b ^ 0x5A if i % 7 == 0 else b for i, b in enumerate(body))
            self.send_header("Content-Length", str(len(damaged)))
            self.end_headers()
            self.wfile.write(damaged)
        elif mode == "truncated":
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(80 << 20))
            self.end_headers()
            chunk = bytes(1 << 16)
            try:
                for _ in range((80 << 20) // len(chunk)):
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True

    def do_PUT(self):
        n = int(self.headers.get("Content-Length") or 0)
        while n > 0:
            got = self.rfile.read(min(n, 1 << 16))
            if not got:
                break
            n -= len(got)
        if MODE == "slow-put":
            time.sleep(1.9)
        self.send_response(403 if MODE in ("refuse", "slow") else 200)
        self.send_header("Content-Length", "0")
        self.end_headers()


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def log(line):
    with lock, open(LOG, "a") as f:
        f.write(line + "\n")


def read_command(f):
    """One command of the Redis protocol (an array of bulk strings), or None."""
    line = f.readline()
    if not line.startswith(b"*"):
        return None
    args = []
    for _ in range(int(line[1:])):
        n = int(f.readline()[1:])
        args.append(f.read(n + 2)[:n])
    return args


def answer_get(conn):
    sent = 0
    try:
        if MODE == "redis-huge":
            conn.sendall(b"$4611686018427387904\r\n")
            chunk = bytes(1 << 16)
            while sent < 512 << 20:
                conn.sendall(chunk)
                sent += len(chunk)
            log("SENT %d all" % sent)
            time.sleep(30)
            return
        length, pause = (16, 1.5) if MODE == "redis-trickle" else (250, 0.2)
        conn.sendall(b"$%d\r\n" % length)
        for _ in range(length):
            time.sleep(pause)
            conn.sendall(b"0")
            sent += 1
        conn.sendall(b"\r\n")
    except OSError:
        log("SENT %d" % sent)
        raise


class RedisHandler(socketserver.StreamRequestHandler):
    def handle(self):
        try:
            while True:
                args = read_command(self.rfile)
                if not args:
                    return
                name = args[0].upper().decode()
                log("%s %s" % (name, args[1].decode() if len(args) > 1 else ""))
                if name == "GET":
                    answer_get(self.connection)
                elif name == "EXISTS":
                    self.wfile.write(b":0\r\n")
                else:
                    self.wfile.write(b"+OK\r\n")
        except OSError:
            pass


class RedisServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


if MODE.startswith("redis-"):
    RedisServer(("127.0.0.1", PORT), RedisHandler).serve_forever()
else:
    Server(("127.0.0.1", PORT), Handler).serve_forever()
