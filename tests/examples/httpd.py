#!/usr/bin/env python3
"""A web server on 127.0.0.1 for the examples: the first request for a path
gets 503 with Retry-After: 1, the next ones 200; GET /reset starts over.
Writes its port to the file named by its argument."""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

seen = set()


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/reset":
            seen.clear()
            body, code = b"reset\n", 200
        elif self.path not in seen:
            seen.add(self.path)
            body, code = b"busy\n", 503
        elif self.path.endswith(".json"):
            body, code = b'{"ok": true}\n', 200
        else:
            body, code = b"hello\n", 200
        self.send_response(code)
        if code == 503:
            self.send_header("Retry-After", "1")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as f:
    f.write(f"{server.server_address[1]}\n")
server.serve_forever()
