"""listen.py WHERE FILE [BACKLOG-FULL]: a listener for tests/probes.bats.

WHERE is HOST:PORT (PORT 0: any free port) or a unix socket's path.  Once
listening, it writes its port (or "ready") to FILE, then accepts and closes
connections, one line to FILE.accepted each, for at most 60 s.  With a
third argument it accepts nothing and fills its backlog, so that a further
connection waits unanswered (a time-out that needs no network)."""
import os
import socket
import sys
import time

where, out = sys.argv[1], sys.argv[2]
full = len(sys.argv) > 3
if where.startswith("/"):
    s = socket.socket(socket.AF_UNIX)
    s.bind(where)
else:
    host, port = where.rsplit(":", 1)
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, int(port)))
s.listen(0 if full else 16)
fill = []
if full:
    for _ in range(3):
        c = socket.socket()
        c.setblocking(False)
        try:
            c.connect(s.getsockname())
        except BlockingIOError:
            pass
        fill.append(c)
    time.sleep(0.2)
with open(out + ".tmp", "w") as f:
    f.write("ready\n" if s.family == socket.AF_UNIX else
            "%d\n" % s.getsockname()[1])
os.rename(out + ".tmp", out)
end = time.monotonic() + 60
s.settimeout(1)
while time.monotonic() < end:
    if full:
        time.sleep(1)
        continue
    try:
        c, _ = s.accept()
    except socket.timeout:
        continue
    c.close()
    with open(out + ".accepted", "a") as f:
        f.write("1\n")
