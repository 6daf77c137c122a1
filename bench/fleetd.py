#!/usr/bin/env python3
"""fleetd: the flaky HTTP service that `make fleet` (bench/fleet) runs
retry's fleets against.  Python's standard library only.

It listens on 127.0.0.1 only, on a port the kernel chooses, which it
writes to PORT_FILE.  Every GET other than the two below is a call: it
answers 200, or 503 with probability FAIL (a seeded RNG, drawn
independently for each call), or 503 always while the service is down.
Down means a 503, not a closed socket, so that every call a client makes
is counted.

  GET /control?fail=P&down=S&seed=N   start a case: the calls counted so
        far are forgotten, calls fail with probability P, every call fails
        for the next S seconds (0: not down), and the RNG is seeded with N
  GET /stats                          the calls of the case, as JSON:
        {"requests": R, "successes": K, "up_at": T or null,
         "calls": [[T, STATUS], ...]}

Times are time.monotonic(): CLOCK_MONOTONIC, which on Linux is one clock
for every process of the machine, so bench/fleet compares them with its
own.  The service exits when its parent does (PR_SET_PDEATHSIG, set by
bench/fleet) or after --lifetime seconds, whichever comes first.
"""

import argparse
import json
import os
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class State:
    """What every handler thread shares, under one lock."""

    def __init__(self, seed):
        self.lock = threading.Lock()
        self.start(0.0, 0.0, seed)

    def start(self, fail, down, seed):
        with self.lock:
            self.fail = fail
            self.rng = random.Random(seed)
            now = time.monotonic()
            self.up_at = now + down if down > 0 else None
            self.calls = []

    def call(self):
        """Decides one call's status and counts it."""
        with self.lock:
            now = time.monotonic()
            down = self.up_at is not None and now < self.up_at
            # One draw a call, down or not: the rule stays simple.
            failed = self.rng.random() < self.fail
            status = 503 if down or failed else 200
            self.calls.append((now, status))
            return status

    def stats(self):
        with self.lock:
            calls = list(self.calls)
            up_at = self.up_at
        return {
            "requests": len(calls),
            "successes": sum(1 for _, s in calls if s == 200),
            "up_at": up_at,
            "calls": calls,
        }


class Handler(BaseHTTPRequestHandler):
    # HTTP/1.0: one request a connection, as each curl makes one.
    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/control":
            q = {k: v[-1] for k, v in parse_qs(url.query).items()}
            try:
                self.server.state.start(float(q.get("fail", 0)),
                                        float(q.get("down", 0)),
                                        int(q.get("seed", 0)))
            except ValueError as e:
                self.reply(400, str(e) + "\n")
                return
            self.reply(200, "ok\n")
        elif url.path == "/stats":
            self.reply(200, json.dumps(self.server.state.stats()))
        else:
            status = self.server.state.call()
            self.reply(status, "ok\n" if status == 200 else "down\n")

    def reply(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):  # one line a call is noise
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    # 50 clients connect at once: the default backlog of 5 would drop
    # SYNs, and each dropped one costs a client a second.
    request_queue_size = 256


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lifetime", type=float, default=600,
                    help="exit after this many seconds in any case")
    a = ap.parse_args()

    srv = Server(("127.0.0.1", 0), Handler)
    srv.state = State(a.seed)
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.replace(tmp, a.port_file)  # the reader never sees half a number
    threading.Timer(a.lifetime, srv.shutdown).start()
    srv.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
