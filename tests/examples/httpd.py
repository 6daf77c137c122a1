#!/usr/bin/env python3
"""A web server on 127.0.0.1 for the examples: the first request for a path
is refused, the next ones get 200; GET /reset starts over.  A path under
/github/ is refused as GitHub's API refuses a spent rate limit (403, with
X-RateLimit-Remaining: 0 and X-RateLimit-Reset, a Unix time 2s ahead), one
under /api/ as the IETF's RateLimit fields say it (429, with RateLimit:
"default";r=0;t=1), any other with 503 and Retry-After: 1.  GET /early
lists the paths asked for again sooner than the refusal said they may be.
Writes its port to the file named by its argument."""
import math
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
not_before = {}     # path: the time before which it was told not to ask
early = set()


def refusal(path, now):
    """The status, headers and the time they ask the client to wait for."""
    if path.startswith("/github/"):
        reset = math.floor(now) + 2
        return 403, [("X-RateLimit-Limit", "60"),
                     ("X-RateLimit-Remaining", "0"),
                     ("X-RateLimit-Reset", str(reset)),
                     ("X-RateLimit-Used", "60")], reset
    if path.startswith("/api/"):
        return 429, [("RateLimit-Policy", '"default";q=100;w=60'),
                     ("RateLimit", '"default";r=0;t=1')], now + 1
    return 503, [("Retry-After", "1")], now + 1


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        now = time.time()
        headers = []
        with lock:
            if self.path == "/reset":
                not_before.clear()
                early.clear()
                body, code = b"reset\n", 200
            elif self.path == "/early":
                body = "".join(f"{p}\n" for p in sorted(early)).encode()
                code = 200
            elif self.path not in not_before:
                code, headers, not_before[self.path] = refusal(self.path,
                                                                now)
                body = b"busy\n"
            else:
                # 50ms for the clocks' differences.
                if now < not_before[self.path] - 0.05:
                    early.add(self.path)
                code = 200
                body = (b'{"ok": true}\n' if self.path.endswith(".json")
                        else b"hello\n")
        self.send_response(code)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(f"{server.server_address[1]}\n")
server.serve_forever()
