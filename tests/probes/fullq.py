# A Unix socket listener whose backlog is full: it listens at $1 with a
# backlog of none, holds connections of its own until the next would be
# refused, then writes "full" to $2.  Once the file $3 exists it accepts
# every pending connection, writing a line a connection to $2.accepted.
import os
import socket
import sys
import time

path, ready, go = sys.argv[1:4]
lsn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
lsn.bind(path)
lsn.listen(0)
held = []
while True:
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.setblocking(False)
    try:
        c.connect(path)
    except BlockingIOError:
        c.close()
        break
    held.append(c)
with open(ready, "w") as f:
    f.write("full\n")
while not os.path.exists(go):
    time.sleep(0.05)
while True:
    conn, _ = lsn.accept()
    with open(ready + ".accepted", "a") as f:
        f.write("accepted\n")
    conn.close()
